//! Grows a real data file, through the public API only, into a game of about `SIZE_MB`
//! megabytes: thousands of texture pages and sounds, 100k+ strings, tens of thousands of code
//! entries and rooms. For measuring at scale; write the result outside the repository.
//!
//! ```text
//! cargo build --release -p gmkit-data --example grow
//! nice -n 10 target/release/examples/grow ../shared/corpus/platformer.win /tmp/big.win [SIZE_MB]
//! ```
//!
//! Texture pages and audio entries are copies of the file's own (as views, so the generator
//! itself stays small); rooms and code entries are clones under new names.

use bytes::Bytes;
use gmkit_data::chunks::sound::Sound;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [input, output, rest @ ..] = &args[..] else {
        return Err("usage: grow INPUT OUTPUT [SIZE_MB]".into());
    };
    let target: usize = rest.first().map_or(Ok(1000), |s| s.parse())? << 20;
    let mut f = gmkit_data::parse_file(input)?;
    let strings = f.strings.as_mut().ok_or("no STRG")?;

    // 100k+ strings.
    for i in 0..120_000 {
        strings.push(format!("grown_string_{i}"));
    }

    // Tens of thousands of rooms: clones of the file's rooms, renamed, all in the room order.
    let rooms = f.rooms.as_mut().ok_or("no ROOM")?;
    let originals: Vec<_> = rooms.rooms.iter().flatten().cloned().collect();
    let strings = f.strings.as_mut().ok_or("no STRG")?;
    let mut new_rooms = Vec::new();
    for i in 0..20_000 {
        let mut room = originals[i % originals.len()].clone();
        room.name = strings.push(format!("rm_grown_{i}"));
        new_rooms.push(room);
    }
    let first_new = rooms.rooms.len();
    rooms.rooms.extend(new_rooms.into_iter().map(Some));
    if let Some(g) = f.general.as_mut() {
        g.room_order
            .extend((first_new..first_new + 20_000).map(|i| gmkit_data::AssetRef::at(i as u32)));
    }

    // Tens of thousands of code entries: clones of root entries, renamed.
    let code = f.code.as_mut().ok_or("no CODE")?;
    let roots: Vec<_> = code
        .entries
        .iter()
        .filter(|e| e.body.is_root())
        .cloned()
        .collect();
    for i in 0..30_000 {
        let mut e = roots[i % roots.len()].clone();
        e.name = strings.push(format!("gml_Script_grown_{i}"));
        code.entries.push(e);
    }

    // Thousands of sounds, each with its own embedded audio entry (the first 64 KiB of a real
    // one, or 64 KiB of silence when the file has none).
    let audio = f.audio.get_or_insert_with(Default::default);
    let clip = audio
        .entries
        .iter()
        .flatten()
        .max_by_key(|b| b.len())
        .map(|b| b.slice(..b.len().min(64 << 10)))
        .unwrap_or_else(|| Bytes::from(vec![0u8; 64 << 10]));
    let sounds = f.sounds.as_mut().ok_or("no SOND")?;
    let template = sounds
        .sounds
        .iter()
        .flatten()
        .next()
        .cloned()
        .ok_or("no sound to copy")?;
    for i in 0..3_000 {
        let id = gmkit_data::AssetRef::at(audio.entries.len() as u32);
        audio.entries.push(Some(clip.clone()));
        let mut s: Sound = template.clone();
        s.name = strings.push(format!("snd_grown_{i}"));
        s.audio_id = id;
        sounds.sounds.push(Some(s));
    }

    // Texture pages: copies of the file's pages until the target size is reached.
    let pages = &mut f.textures.as_mut().ok_or("no TXTR")?.pages;
    let originals: Vec<_> = pages.iter().flatten().cloned().collect();
    let mut size = gmkit_data::build(&f)?.len();
    let pages = &mut f.textures.as_mut().ok_or("no TXTR")?.pages;
    let mut k = 0;
    while size < target {
        let page = originals[k % originals.len()].clone();
        size += page.blob().map_or(0, |b| b.len()) + 64;
        pages.push(Some(page));
        k += 1;
    }
    eprintln!(
        "{output}: {} texture pages, {} sounds, {} strings, {} code entries, {} rooms",
        pages.len(),
        f.sounds.as_ref().map_or(0, |s| s.sounds.len()),
        f.strings.as_ref().map_or(0, |s| s.len()),
        f.code.as_ref().map_or(0, |c| c.entries.len()),
        f.rooms.as_ref().map_or(0, |r| r.rooms.len()),
    );
    gmkit_data::build_file(&f, output)?;
    eprintln!("{output}: {} bytes", std::fs::metadata(output)?.len());
    Ok(())
}
