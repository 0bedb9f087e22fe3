//! Images of sprites, backgrounds (2.x tile sets) and fonts as PNG files in folders named after
//! their assets: every image of every corpus file is a PNG that the `image` crate opens at the
//! asset's size (per version family), the texture page items are out of the assets' JSON, an
//! edited background or font image packs into its page region and nowhere else, and a deleted
//! image or one of another size is refused with one line.

use gmkit_data::DataFile;
use gmkit_folder::{Folder, Game, pack, unpack};
use gmkit_testdata::{corpus_all, corpus_file, need};
use rayon::prelude::*;
use serde_json::Value;
use std::collections::BTreeMap;

/// The version family of a file, as the corpus tests name them.
fn family(d: &DataFile) -> &'static str {
    let v = &d.version;
    if !v.is_gms2() {
        "GMS1"
    } else if !v.at_least(2, 3) {
        "2.0-2.2"
    } else if !v.at_least(2023, 1) {
        "2.3-2022"
    } else {
        "2023+"
    }
}

fn game(data: &DataFile) -> Game {
    Game {
        data: data.clone(),
        audio_groups: Vec::new(),
    }
}

fn packed(folder: &Folder) -> Vec<u8> {
    let game = pack(folder).unwrap_or_else(|e| panic!("pack: {e}"));
    gmkit_data::build_bytes(&game.data).expect("builds")
}

/// The folder names of a chunk's elements, in index order (`None`: stripped).
fn order(read: impl Fn(&str) -> Option<Vec<u8>>, field: &str) -> Vec<Option<String>> {
    let Some(b) = read(&format!("{field}/_chunk.json")) else {
        return Vec::new();
    };
    let v: Value = serde_json::from_slice(&b).unwrap();
    v["order"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_str().map(str::to_owned))
        .collect()
}

/// One image of a model: (kind field, asset index, frame number (`None`: a background's or
/// font's one image), its expected size).
type Img = (&'static str, usize, Option<usize>, (u32, u32));

/// Every image of a model.
fn images(data: &DataFile) -> Vec<Img> {
    let mut out = Vec::new();
    let bounding = |r: Option<gmkit_data::chunks::texture_page_item::TpagRef>| {
        r.and_then(|r| gmkit_media::frame::item(data, r))
            .map(|it| (u32::from(it.bounding[0]), u32::from(it.bounding[1])))
    };
    for (i, s) in data
        .sprites
        .iter()
        .flat_map(|c| c.sprites.iter())
        .enumerate()
    {
        let Some(s) = s else { continue };
        for (k, f) in s.frames.iter().enumerate() {
            if f.is_some() {
                out.push(("sprites", i, Some(k), (s.width, s.height)));
            }
        }
    }
    for (i, b) in data
        .backgrounds
        .iter()
        .flat_map(|c| c.backgrounds.iter())
        .enumerate()
    {
        if let Some(size) = b.as_ref().and_then(|b| bounding(b.texture)) {
            out.push(("backgrounds", i, None, size));
        }
    }
    for (i, f) in data.fonts.iter().flat_map(|c| c.fonts.iter()).enumerate() {
        if let Some(size) = f.as_ref().and_then(|f| bounding(f.texture)) {
            out.push(("fonts", i, None, size));
        }
    }
    out
}

/// The file of image `k` (`None`: a background's or font's one image) in folder `dir`.
fn image_file(field: &str, dir: &str, k: Option<usize>) -> String {
    match k {
        Some(k) => format!("{field}/{dir}/{k}.png"),
        None => format!("{field}/{dir}/{dir}.png"),
    }
}

/// Per family, on disk as a modder gets it: every sprite frame, background (tile set) image and
/// font glyph sheet is a PNG that `image::open` opens at the asset's size; no asset JSON names
/// its texture page items; an asset with a safe unique name has a folder of that name.
#[test]
fn every_asset_image_is_a_png_that_image_opens_per_family() {
    let files = need!(corpus_all());
    // family -> [files, sprite frames, backgrounds, fonts, folders by name, by index]
    let counts: Vec<(&'static str, [usize; 6], Vec<String>)> = files
        .par_iter()
        .filter_map(|(name, bytes)| {
            let data = gmkit_data::parse_bytes(bytes.clone()).ok()?;
            let tmp = tempfile::tempdir().unwrap();
            let dir = tmp.path().join("game");
            let mut bad = Vec::new();
            if let Err(e) = gmkit_folder::unpack_to_dir(&game(&data), &dir) {
                return Some((family(&data), [0; 6], vec![format!("{name}: unpack: {e}")]));
            }
            let read = |p: &str| std::fs::read(dir.join(p)).ok();
            let mut c = [1, 0, 0, 0, 0, 0];
            let mut orders = BTreeMap::new();
            for field in ["sprites", "backgrounds", "fonts"] {
                orders.insert(field, order(read, field));
            }
            for (field, i, k, (w, h)) in images(&data) {
                let Some(Some(d)) = orders[field].get(i) else {
                    bad.push(format!("{name}: {field}[{i}]: no folder"));
                    continue;
                };
                let p = image_file(field, d, k);
                match image::open(dir.join(&p)) {
                    Ok(img) if (img.width(), img.height()) == (w, h) => {
                        c[match field {
                            "sprites" => 1,
                            "backgrounds" => 2,
                            _ => 3,
                        }] += 1;
                    }
                    Ok(img) => bad.push(format!(
                        "{name}: {p}: {}×{}, expected {w}×{h}",
                        img.width(),
                        img.height()
                    )),
                    Err(e) => bad.push(format!("{name}: {p}: {e}")),
                }
            }
            // The JSON of each asset: no texture page item, and its folder named after it.
            for (field, key, file) in [
                ("sprites", "frames", "sprite.json"),
                ("backgrounds", "texture", "background.json"),
                ("fonts", "texture", "font.json"),
            ] {
                let names: Vec<String> = orders[field].iter().flatten().cloned().collect();
                for d in names {
                    let p = format!("{field}/{d}/{file}");
                    let Some(v) = read(&p).and_then(|b| serde_json::from_slice::<Value>(&b).ok())
                    else {
                        bad.push(format!("{name}: {p} missing"));
                        continue;
                    };
                    if v.get(key).is_some() {
                        bad.push(format!("{name}: {p} names its texture page items"));
                    }
                    if v["name"].as_str() == Some(d.as_str()) {
                        c[4] += 1;
                    } else {
                        c[5] += 1;
                    }
                }
            }
            Some((family(&data), c, bad))
        })
        .collect();
    let mut by_family: BTreeMap<&str, [usize; 6]> = BTreeMap::new();
    let mut bad = Vec::new();
    for (fam, c, b) in counts {
        let e = by_family.entry(fam).or_default();
        for (x, y) in e.iter_mut().zip(c) {
            *x += y;
        }
        bad.extend(b);
    }
    eprintln!(
        "per family [files, sprite frames, background images, font sheets, folders by name, by index]: {by_family:?}"
    );
    assert!(
        bad.is_empty(),
        "{} problems:\n{}",
        bad.len(),
        bad.join("\n")
    );
    for (fam, c) in &by_family {
        assert!(c[1] > 0 && c[3] > 0, "{fam}: frames and font sheets seen");
    }
    assert!(
        by_family.values().map(|c| c[2]).sum::<usize>() > 0,
        "background images seen"
    );
}

/// An asset of `field` whose one image has an item no other asset shares, unscaled, on a page
/// gmkit can write: (folder name, item).
fn lone_image(
    data: &DataFile,
    folder: &Folder,
    field: &str,
) -> Option<(
    String,
    gmkit_data::chunks::texture_page_item::TexturePageItem,
)> {
    let refs: Vec<_> = data
        .sprites
        .iter()
        .flat_map(|c| c.sprites.iter().flatten())
        .flat_map(|s| s.frames.iter().flatten().copied())
        .chain(
            data.backgrounds
                .iter()
                .flat_map(|c| c.backgrounds.iter().flatten())
                .filter_map(|b| b.texture),
        )
        .chain(
            data.fonts
                .iter()
                .flat_map(|c| c.fonts.iter().flatten())
                .filter_map(|f| f.texture),
        )
        .collect();
    let items: Vec<_> = refs
        .iter()
        .filter_map(|r| gmkit_media::frame::item(data, *r))
        .collect();
    let mine: Vec<_> = match field {
        "backgrounds" => data
            .backgrounds
            .iter()
            .flat_map(|c| c.backgrounds.iter())
            .map(|b| b.as_ref().and_then(|b| b.texture))
            .collect(),
        _ => data
            .fonts
            .iter()
            .flat_map(|c| c.fonts.iter())
            .map(|f| f.as_ref().and_then(|f| f.texture))
            .collect(),
    };
    let dirs = order(|p| folder.get(p).map(<[u8]>::to_vec), field);
    mine.iter().zip(dirs).find_map(|(r, d)| {
        let it = *gmkit_media::frame::item(data, (*r)?)?;
        let shared = items
            .iter()
            .filter(|o| o.texture_page == it.texture_page && o.source == it.source)
            .count();
        let page = data
            .textures
            .as_ref()?
            .pages
            .get(it.texture_page as usize)?
            .as_ref()?;
        let writable = page
            .blob()
            .is_some_and(|b| gmkit_media::Encoding::of(b).is_ok());
        let d = d?;
        (shared == 1
            && writable
            && it.source[2] == it.target[2]
            && it.source[3] == it.target[3]
            && it.source[2] > 0
            && it.source[3] > 0)
            .then_some((d, it))
    })
}

/// Recolours one pixel of a background's (tile set's) or font's image: pack changes that pixel
/// of its page and nothing else, in every family that has such an asset.
#[test]
fn a_recoloured_pixel_changes_that_page_pixel_only() {
    let files = need!(corpus_all());
    let done: Vec<(String, String)> = files
        .par_iter()
        .flat_map_iter(|(name, bytes)| {
            let mut done = Vec::new();
            let Ok(data) = gmkit_data::parse_bytes(bytes.clone()) else {
                return done;
            };
            let folder = unpack(&game(&data)).expect("unpacks");
            for field in ["backgrounds", "fonts"] {
                let Some((d, it)) = lone_image(&data, &folder, field) else {
                    continue;
                };
                let png = image_file(field, &d, None);
                let mut img = gmkit_media::decode_png(folder.get(&png).unwrap()).unwrap();
                let (x, y) = (u32::from(it.target[0]), u32::from(it.target[1]));
                let w = img.width();
                let at = ((y * w + x) * 4) as usize;
                let old = img.pixels()[at..at + 4].to_vec();
                let new = [old[0] ^ 0xFF, old[1] ^ 0x0F, old[2], 255];
                img.pixels_mut()[at..at + 4].copy_from_slice(&new);
                let mut edited = folder.clone();
                edited.insert(&png, gmkit_media::encode_png(&img).unwrap());
                let out = packed(&edited);
                let back = gmkit_data::parse_bytes(out).unwrap();
                let (a, b) = (
                    data.textures.as_ref().unwrap(),
                    back.textures.as_ref().unwrap(),
                );
                assert_eq!(a.pages.len(), b.pages.len(), "{name}: {png}: no page added");
                let p = it.texture_page as usize;
                for (n, (pa, pb)) in a.pages.iter().zip(&b.pages).enumerate() {
                    if n != p {
                        assert_eq!(pa, pb, "{name}: {png}: page {n} untouched");
                    }
                }
                let before = gmkit_media::decode(a.pages[p].as_ref().unwrap().blob().unwrap());
                let after = gmkit_media::decode(b.pages[p].as_ref().unwrap().blob().unwrap());
                let (before, after) = (before.unwrap(), after.unwrap());
                assert_eq!(
                    before.count_differences(&after),
                    Some(1),
                    "{name}: {png}: one page pixel changed"
                );
                let (sx, sy) = (u32::from(it.source[0]), u32::from(it.source[1]));
                assert_eq!(after.pixel(sx, sy), Some(new), "{name}: {png}: the pixel");
                // The model is otherwise the same: items, backgrounds, fonts.
                assert_eq!(data.texture_page_items, back.texture_page_items);
                assert_eq!(data.backgrounds, back.backgrounds);
                assert_eq!(data.fonts, back.fonts);
                done.push((family(&data).to_owned(), format!("{name}: {png}")));
            }
            done
        })
        .collect();
    eprintln!("edited: {done:#?}");
    let fams: std::collections::BTreeSet<&str> = done.iter().map(|d| d.0.as_str()).collect();
    assert!(
        done.iter().any(|d| d.1.contains("backgrounds/")),
        "a background was edited"
    );
    assert!(
        done.iter().any(|d| d.1.contains("fonts/")),
        "a font was edited"
    );
    assert!(fams.len() >= 3, "families edited: {fams:?}");
}

/// A GMS1 game with backgrounds and fonts.
const GAME: &str = "tricking-the-vikings.win";

fn loaded() -> Option<(DataFile, Folder)> {
    let data = gmkit_data::parse_bytes(corpus_file(GAME)?).expect("parses");
    let folder = unpack(&game(&data)).expect("unpacks");
    Some((data, folder))
}

/// Packs `edited` expecting a refusal naming `file` with `expected` in its one-line message.
fn refused(edited: &Folder, file: &str, expected: &str) {
    let e = pack(edited).expect_err("refused");
    assert_eq!(e.file, file, "{e}");
    assert!(e.message.contains(expected), "{e}");
    assert!(!e.to_string().contains('\n'), "one line: {e}");
}

#[test]
fn a_deleted_or_resized_background_or_font_image_is_refused() {
    let (data, folder) = need!(loaded());
    for (field, noun, size_noun) in [
        (
            "backgrounds",
            "the background's image",
            "the background's size",
        ),
        ("fonts", "the font's glyph sheet", "the glyph sheet's size"),
    ] {
        let (d, it) = lone_image(&data, &folder, field).expect("an image");
        let png = image_file(field, &d, None);
        let mut edited = folder.clone();
        edited.files.remove(&png);
        refused(&edited, &png, &format!("expected {noun} (deleted"));
        let (w, h) = (u32::from(it.bounding[0]), u32::from(it.bounding[1]));
        let other = gmkit_media::Image::transparent(w + 1, h).unwrap();
        let mut edited = folder.clone();
        edited.insert(&png, gmkit_media::encode_png(&other).unwrap());
        refused(
            &edited,
            &png,
            &format!(
                "expected a {w}×{h} image ({size_noun}), found {}×{h}",
                w + 1
            ),
        );
    }
}

/// The record beside an asset keeps its texture page items: the JSON does not name them, and a
/// JSON that names them itself (an explicit form) wins.
#[test]
fn texture_page_items_live_in_the_record() {
    let (data, folder) = need!(loaded());
    let bytes = need!(corpus_file(GAME));
    let dirs = order(|p| folder.get(p).map(<[u8]>::to_vec), "backgrounds");
    let d = dirs.iter().flatten().next().unwrap();
    let rec: Value =
        serde_json::from_slice(folder.get(&format!("backgrounds/{d}/frames.json")).unwrap())
            .unwrap();
    let i = dirs.iter().position(|x| x.as_deref() == Some(d)).unwrap();
    let b = data.backgrounds.as_ref().unwrap().backgrounds[i]
        .as_ref()
        .unwrap();
    assert_eq!(rec["items"], serde_json::json!([b.texture.unwrap().0]));
    // The JSON naming the item itself: taken as written.
    let json = format!("backgrounds/{d}/background.json");
    let mut v: Value = serde_json::from_slice(folder.get(&json).unwrap()).unwrap();
    v["texture"] = b.texture.unwrap().0.into();
    let mut edited = folder.clone();
    edited.insert(&json, serde_json::to_vec(&v).unwrap());
    assert_eq!(packed(&edited), bytes);
}

/// Sprite folders are named after their sprites; a sprite whose name another shares falls back to
/// `NNNN_name` (both of them), and the folder packs back identical.
#[test]
fn sprite_folders_by_name_and_the_fallback() {
    let game = gmkit_folder::sample::sample().unwrap();
    let folder = unpack(&game).unwrap();
    assert!(folder.get("sprites/spr_ball/sprite.json").is_some());
    assert!(folder.get("sprites/spr_ball/0.png").is_some());
    let v: Value =
        serde_json::from_slice(folder.get("sprites/spr_ball/sprite.json").unwrap()).unwrap();
    assert!(v.get("frames").is_none(), "{v}");
    // A second sprite of the same name.
    let mut data = game.data.clone();
    let sprites = data.sprites.as_mut().unwrap();
    let twin = sprites.sprites[0].clone();
    sprites.sprites.push(twin);
    let bytes = gmkit_data::build_bytes(&data).unwrap();
    let data = gmkit_data::parse_bytes(bytes.clone()).unwrap();
    let twins = unpack(&Game {
        data,
        audio_groups: Vec::new(),
    })
    .unwrap();
    for d in ["sprites/0000_spr_ball", "sprites/0001_spr_ball"] {
        assert!(twins.get(&format!("{d}/sprite.json")).is_some(), "{d}");
        assert!(twins.get(&format!("{d}/0.png")).is_some(), "{d}");
    }
    assert!(twins.get("sprites/spr_ball/sprite.json").is_none());
    assert_eq!(packed(&twins), bytes);
}

/// A frame edited in a sprite folder named after the sprite packs into its page (the layout
/// change keeps the frame machinery): unpacked again, the frame shows the edit.
#[test]
fn a_frame_edit_in_a_named_folder_packs() {
    let game = gmkit_folder::sample::sample().unwrap();
    let folder = unpack(&game).unwrap();
    let frame = "sprites/spr_ball/0.png";
    let mut img = gmkit_media::decode_png(folder.get(frame).unwrap()).unwrap();
    for px in img.pixels_mut().chunks_exact_mut(4) {
        px[0] ^= 0x40;
        px[3] = 255;
    }
    let mut edited = folder.clone();
    edited.insert(frame, gmkit_media::encode_png(&img).unwrap());
    let out = pack(&edited).unwrap();
    let again = unpack(&out).unwrap();
    let back = gmkit_media::decode_png(again.get(frame).unwrap()).unwrap();
    assert_eq!(back.count_differences(&img), Some(0));
}

/// The page/image rule covers backgrounds and fonts too: a page edit and an image edit of the
/// same pixels are refused with one line naming the image.
#[test]
fn a_page_edit_and_a_background_edit_of_the_same_pixels_are_refused() {
    let (data, folder) = need!(loaded());
    for field in ["backgrounds", "fonts"] {
        let (d, it) = lone_image(&data, &folder, field).expect("an image");
        let png = image_file(field, &d, None);
        let page = format!("textures/{:04}.png", it.texture_page);
        let mut edited = folder.clone();
        // The page: the item's first pixel changed.
        let mut img = gmkit_media::decode_png(folder.get(&page).unwrap()).unwrap();
        let w = img.width() as usize;
        let at = (usize::from(it.source[1]) * w + usize::from(it.source[0])) * 4;
        img.pixels_mut()[at] ^= 0xFF;
        img.pixels_mut()[at + 3] = 255;
        edited.insert(&page, gmkit_media::encode_png(&img).unwrap());
        // The image: another pixel of the same item changed.
        let mut im = gmkit_media::decode_png(folder.get(&png).unwrap()).unwrap();
        let iw = im.width() as usize;
        let at = (usize::from(it.target[1]) * iw + usize::from(it.target[0])) * 4;
        im.pixels_mut()[at + 1] ^= 0x55;
        im.pixels_mut()[at + 3] = 255;
        edited.insert(&png, gmkit_media::encode_png(&im).unwrap());
        refused(&edited, &png, &format!("{page} both changed"));
    }
}
