//! `diff` of two folders: a renamed asset is one rename, and a texture page change shows even
//! when sprite frames changed too.

use gmkit_folder::diff::{Change, diff};
use gmkit_folder::{Folder, Game, unpack};
use gmkit_testdata::{corpus_file, need};
use serde_json::Value;

/// A VM game with sprites of several frames on PNG pages.
const GAME: &str = "dangaliensreop.win";

fn game(name: &str) -> Option<gmkit_data::DataFile> {
    Some(gmkit_data::parse_bytes(corpus_file(name)?).expect("parses"))
}

fn folder(data: gmkit_data::DataFile) -> Folder {
    unpack(&Game {
        data,
        audio_groups: Vec::new(),
    })
    .expect("unpacks")
}

fn shown(d: &[Change]) -> Vec<String> {
    d.iter().map(Change::to_string).collect()
}

/// Renaming a sprite in the model, then unpacking: the diff says "renamed", not "removed" and
/// "added", and lists nothing else about the sprite (its frames moved with it).
#[test]
fn a_renamed_sprite_is_one_rename() {
    let data = need!(game(GAME));
    let before = folder(data.clone());
    let mut edited = data;
    let (id, old) = edited
        .sprites()
        .find(|(_, s, _)| s.frames.len() >= 2)
        .map(|(id, _, n)| (id, n.unwrap().to_string()))
        .expect("a sprite with frames");
    edited.set_name(id, "spr_renamed_by_test").unwrap();
    let after = folder(edited);
    let d = shown(&diff(&before, &after));
    let sprite_lines: Vec<&String> = d.iter().filter(|l| l.starts_with("sprite ")).collect();
    assert_eq!(
        sprite_lines,
        [&format!(
            "sprite spr_renamed_by_test: renamed {old} → spr_renamed_by_test"
        )],
        "{d:#?}"
    );
    assert!(!d.iter().any(|l| l.ends_with(": removed")), "{d:#?}");
}

/// The texture page of a sprite's frame `k` in folder `f` (`dir` is `sprites/NNNN_name`).
fn page_of(f: &Folder, dir: &str, k: usize) -> Option<i64> {
    let record: Value = serde_json::from_slice(f.get(&format!("{dir}/frames.json"))?).ok()?;
    let items: Value = serde_json::from_slice(f.get("texture_page_items.json")?).ok()?;
    let item = record["items"].get(k)?.as_u64()?;
    items["items"].get(item as usize)?["texture_page"].as_i64()
}

/// A game with three texture pages (bz2-compressed QOI).
const PAGES_GAME: &str = "platformermonster.win";

/// A frame added to one sprite and a pixel changed on a page that holds none of its frames:
/// both are reported.
#[test]
fn a_page_change_shows_beside_an_added_frame() {
    let data = need!(game(PAGES_GAME));
    let base = folder(data);
    let pages: Vec<(String, usize)> = base
        .files
        .keys()
        .filter_map(|p| {
            let f = p.strip_prefix("textures/")?;
            // The page as PNG (`textures/NNNN.png`; the stored bytes are under stored/).
            (!f.ends_with(".json") && !f.contains('/'))
                .then(|| (p.clone(), gmkit_folder::layout::leading_index(f).unwrap()))
        })
        .collect();
    // A sprite with a frame PNG, and a PNG page holding none of its frames.
    let (dir, frames, (page_path, n)) = base
        .files
        .keys()
        .filter_map(|p| p.strip_suffix("/frames.json").map(str::to_owned))
        .find_map(|dir| {
            let v: Value = serde_json::from_slice(base.get(&format!("{dir}/frames.json"))?).ok()?;
            let n = v["items"].as_array()?.len();
            base.get(&format!("{dir}/0.png"))?;
            let its: Vec<i64> = (0..n).filter_map(|k| page_of(&base, &dir, k)).collect();
            let other = pages.iter().find(|(_, i)| !its.contains(&(*i as i64)))?;
            Some((dir, n, other.clone()))
        })
        .expect("a sprite and a page without its frames");
    let mut edited = base.clone();
    let frame = base.get(&format!("{dir}/0.png")).unwrap().to_vec();
    edited.insert(format!("{dir}/{frames}.png"), frame);
    // The page edit: one pixel changed (written as PNG: diff compares the decoded pixels).
    let mut img = gmkit_media::decode(base.get(&page_path).unwrap()).unwrap();
    img.pixels_mut()[0] ^= 0xFF;
    edited.insert(&page_path, gmkit_media::encode_png(&img).unwrap());
    let d = shown(&diff(&base, &edited));
    assert!(
        d.iter()
            .any(|l| l.ends_with(&format!("frame {frames}: added"))),
        "{d:#?}"
    );
    assert!(
        d.iter()
            .any(|l| l.starts_with(&format!("texture page {n}: 1 pixels changed"))),
        "{d:#?}"
    );
}
