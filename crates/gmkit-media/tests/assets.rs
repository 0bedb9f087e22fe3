//! Frames, masks and audio of every corpus file.

use gmkit_media::audio::{AudioGroupFiles, AudioKind, SoundLocation, sound_bytes, sound_location};
use gmkit_media::frame::{self, Pages};
use gmkit_media::{Error, mask};

mod common;
use common::parse;

/// Every sprite frame comes out at the sprite's width × height; putting an unedited frame back
/// changes no page pixel; background and font frames come out at their bounding size.
#[test]
fn every_frame_has_the_asset_size_and_puts_back_unchanged() {
    let names = gmkit_testdata::need!(gmkit_testdata::corpus_names());
    let (mut frames, mut trimmed) = (0, 0);
    for name in &names {
        let path = gmkit_testdata::corpus_path(name).unwrap();
        let data = parse(&path);
        let Some(tx) = &data.textures else { continue };
        let pages = Pages::new(tx);
        pages.decode_all();
        let mut edited: Vec<Option<gmkit_media::Image>> = vec![None; tx.pages.len()];
        for (si, s) in data
            .sprites
            .iter()
            .flat_map(|s| s.sprites.iter())
            .enumerate()
        {
            let Some(s) = s else { continue };
            let cut = frame::sprite_frames(&data, &pages, si)
                .unwrap_or_else(|e| panic!("{name} sprite {si}: {e}"));
            for (fi, (f, r)) in cut.iter().zip(&s.frames).enumerate() {
                let (Some(f), Some(r)) = (f, r) else { continue };
                assert_eq!(
                    (f.width(), f.height()),
                    (s.width, s.height),
                    "{name} sprite {si} frame {fi}"
                );
                let it = frame::item(&data, *r).unwrap();
                if it.target[2] as u32 != s.width || it.target[3] as u32 != s.height {
                    trimmed += 1;
                }
                let p = it.texture_page as usize;
                let page = edited[p].get_or_insert_with(|| pages.get(p).unwrap().clone());
                let changed = frame::put(page, it, f)
                    .unwrap_or_else(|e| panic!("{name} sprite {si} frame {fi}: {e}"));
                assert_eq!(changed, 0, "{name} sprite {si} frame {fi}");
                frames += 1;
            }
        }
        for (i, e) in edited.iter().enumerate() {
            if let Some(e) = e {
                assert!(
                    e == pages.get(i).unwrap(),
                    "{name} page {i} changed by putting frames back"
                );
            }
        }
        for b in data
            .backgrounds
            .iter()
            .flat_map(|b| b.backgrounds.iter().flatten())
        {
            let Some(r) = b.texture else { continue };
            let f = pages.cut(&data, r, None).unwrap();
            let it = frame::item(&data, r).unwrap();
            assert_eq!(
                [f.width() as u16, f.height() as u16],
                it.bounding,
                "{name} background"
            );
        }
        for font in data.fonts.iter().flat_map(|f| f.fonts.iter().flatten()) {
            let Some(r) = font.texture else { continue };
            let f = pages.cut(&data, r, None).unwrap();
            let it = frame::item(&data, r).unwrap();
            assert_eq!(
                [f.width() as u16, f.height() as u16],
                it.bounding,
                "{name} font"
            );
        }
    }
    eprintln!("{frames} sprite frames cut at full size ({trimmed} of them trimmed on their page)");
    assert!(frames > 100 && trimmed > 0);
}

/// An edited frame goes back into its region only; visible pixels outside the stored region
/// are reported, and the page is left alone.
#[test]
fn edited_frame_goes_into_its_region_only() {
    let path = gmkit_testdata::need!(gmkit_testdata::corpus_path("deltarun.win"));
    let data = parse(&path);
    let pages = Pages::new(data.textures.as_ref().unwrap());
    let sprites = &data.sprites.as_ref().unwrap().sprites;
    // A trimmed frame: its target rectangle is smaller than the sprite.
    let (si, s, r) = sprites
        .iter()
        .enumerate()
        .filter_map(|(i, s)| Some((i, s.as_ref()?)))
        .find_map(|(i, s)| {
            let r = s.frames.first().copied().flatten()?;
            let it = frame::item(&data, r)?;
            (it.target[2] as u32 + 2 <= s.width && it.target[3] > 0).then_some((i, s, r))
        })
        .expect("a trimmed sprite frame");
    let it = *frame::item(&data, r).unwrap();
    let mut f = frame::sprite_frames(&data, &pages, si).unwrap()[0]
        .clone()
        .unwrap();
    let original = pages.get(it.texture_page as usize).unwrap().clone();
    // Paint one pixel inside the region.
    let (x, y) = (it.target[0] as u32, it.target[1] as u32);
    let at = ((y * s.width + x) * 4) as usize;
    f.pixels_mut()[at..at + 4].copy_from_slice(&[1, 2, 3, 255]);
    let mut page = original.clone();
    assert_eq!(frame::put(&mut page, &it, &f).unwrap(), 1);
    assert_eq!(page.count_differences(&original), Some(1));
    assert_eq!(
        page.pixel(it.source[0].into(), it.source[1].into()),
        Some([1, 2, 3, 255])
    );
    // A visible pixel outside the region is refused.
    let ox = if x > 0 { 0 } else { s.width - 1 };
    let at = ((y * s.width + ox) * 4) as usize;
    f.pixels_mut()[at..at + 4].copy_from_slice(&[9, 9, 9, 200]);
    let mut page2 = original.clone();
    match frame::put(&mut page2, &it, &f) {
        Err(Error::OutsideRegion {
            count: 1,
            first_x,
            first_y,
            ..
        }) => assert_eq!((first_x, first_y), (ox, y)),
        other => panic!("expected OutsideRegion, got {other:?}"),
    }
    assert!(page2 == original);
    // Re-encoding the edited page in its own format keeps the edit.
    let tx = data.textures.as_ref().unwrap();
    let blob = gmkit_media::encode_page(tx, it.texture_page as usize, &page).unwrap();
    assert_eq!(gmkit_media::decode(&blob).unwrap(), page);
}

/// Every sprite mask exports as a 1-bit PNG of the mask's size and imports back byte for byte;
/// an RGBA rendering of the same mask imports to the same bits.
#[test]
fn masks_round_trip_through_png() {
    let names = gmkit_testdata::need!(gmkit_testdata::corpus_names());
    let mut masks = 0;
    for name in &names {
        let path = gmkit_testdata::corpus_path(name).unwrap();
        let data = parse(&path);
        for s in data.sprites.iter().flat_map(|s| s.sprites.iter().flatten()) {
            let (w, h) = mask::mask_size(s, &data.version);
            for m in &s.masks {
                let png = mask::to_png(m, w, h).unwrap_or_else(|e| panic!("{name}: {e}"));
                let img = image::load_from_memory(&png).unwrap();
                assert_eq!((img.width(), img.height()), (w, h));
                assert_eq!(&mask::from_png(&png, w, h).unwrap()[..], &m[..], "{name}");
                masks += 1;
                if masks % 50 == 1 {
                    let rgba =
                        gmkit_media::encode_png(&gmkit_media::decode_png(&png).unwrap()).unwrap();
                    let stride = (w as usize).div_ceil(8);
                    let back = mask::from_png(&rgba, w, h).unwrap();
                    // Padding bits of each row are not pixels: compare pixels only.
                    for y in 0..h as usize {
                        for x in 0..w as usize {
                            let bit = |v: &[u8]| v[y * stride + x / 8] & (0x80 >> (x % 8));
                            assert_eq!(bit(&back), bit(m), "{name}: pixel {x},{y}");
                        }
                    }
                }
            }
        }
    }
    eprintln!("{masks} masks round-tripped");
    assert!(masks > 100);
}

/// Every embedded sound of every corpus file has a known file type.
#[test]
fn every_embedded_sound_has_a_known_type() {
    let names = gmkit_testdata::need!(gmkit_testdata::corpus_names());
    let mut kinds = std::collections::BTreeMap::new();
    for name in &names {
        let path = gmkit_testdata::corpus_path(name).unwrap();
        let data = parse(&path);
        let groups = AudioGroupFiles::load(&path, &data).unwrap();
        for e in data.audio.iter().flat_map(|a| a.entries.iter().flatten()) {
            let k = AudioKind::detect(e);
            assert_ne!(
                k,
                AudioKind::Unknown,
                "{name}: audio entry starting {:02x?}",
                &e[..e.len().min(8)]
            );
            *kinds.entry(format!("{k:?}")).or_insert(0) += 1;
        }
        for i in 0..data.sounds.as_ref().map_or(0, |s| s.sounds.len()) {
            if let Some(b) =
                sound_bytes(&data, &groups, i).unwrap_or_else(|e| panic!("{name}: {e}"))
            {
                assert_ne!(AudioKind::detect(&b), AudioKind::Unknown);
            }
        }
    }
    eprintln!("audio entries by type: {kinds:?}");
    assert!(!kinds.is_empty());
}

/// Sounds of another audio group come from that group's `audiogroupN.dat`, found beside the
/// data file.
#[test]
fn group_sounds_come_from_the_group_file() {
    let path = gmkit_testdata::need!(gmkit_testdata::corpus_path("patapon-like-compiled.win"));
    let mut data = parse(&path);
    let audio = data.audio.clone().expect("AUDO");
    let (si, entry) = data
        .sounds
        .as_ref()
        .unwrap()
        .sounds
        .iter()
        .enumerate()
        .find_map(|(i, s)| match sound_location(&data, s.as_ref()?) {
            SoundLocation::Builtin { index } => Some((i, index)),
            _ => None,
        })
        .expect("an embedded sound");
    let want = audio.entries[entry].clone().unwrap();
    // Move the sound to group 1, whose file holds the same AUDO.
    let group = gmkit_data::DataFile {
        audio: Some(audio),
        ..Default::default()
    };
    let bytes = gmkit_data::build_bytes(&group).unwrap();
    let sound = data.sounds.as_mut().unwrap().sounds[si].as_mut().unwrap();
    sound.group = gmkit_data::chunks::sound::GroupOrPreload::Group(gmkit_data::AssetRef::at(1));
    data.audio = None;
    if data
        .audio_groups
        .as_ref()
        .is_none_or(|g| g.groups.len() < 2)
    {
        let groups = data.audio_groups.get_or_insert_with(Default::default);
        while groups.groups.len() < 2 {
            groups
                .groups
                .push(Some(gmkit_data::chunks::audio_group::AudioGroup {
                    name: gmkit_data::StringRef(0),
                    path: None,
                }));
        }
    }
    let dir = std::env::temp_dir().join(format!("gmkit-media-agrp-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("audiogroup1.dat"), &bytes).unwrap();
    let fake = dir.join("data.win");
    let none = sound_bytes(&data, &AudioGroupFiles::new(), si).unwrap();
    let groups = AudioGroupFiles::load(&fake, &data).unwrap();
    let got = sound_bytes(&data, &groups, si).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(none, None);
    assert_eq!(got, Some(want));
}
