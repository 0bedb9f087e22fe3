//! Reviewed golden images: a few corpus rooms rendered, looked at, and kept under
//! `tests/golden/<file stem>.<room index>.png`; the test renders them again and compares the
//! decoded pixels. After a reviewed change of the renderer, `GMKIT_RENDER_BLESS=1` rewrites
//! them (look at every one before committing).
//!
//! - platformermonster.1: 2024.8, instances on layers over a background layer's sprite;
//! - tricking-the-vikings.1: GMS1, background slots;
//! - multiplayer-tanks.0: 2022.3, a tile map;
//! - economic-journey-of-blocks.1: 2.x, many instances, rotated sprites.

use gmkit_render::{PageCache, RenderOptions, render_room};
use std::path::Path;

#[test]
fn golden_rooms_match() {
    if gmkit_testdata::corpus_dir().is_none() {
        eprintln!("no corpus (set GMKIT_CORPUS): skipped");
        return;
    }
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let bless = std::env::var_os("GMKIT_RENDER_BLESS").is_some();
    let mut goldens: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/golden")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "png"))
        .collect();
    goldens.sort();
    assert!(!goldens.is_empty());
    for golden in goldens {
        let stem = golden.file_stem().unwrap().to_string_lossy().into_owned();
        let (file, room) = stem.rsplit_once('.').expect("<file>.<room>.png");
        let room: usize = room.parse().expect("room index");
        let path = gmkit_testdata::corpus_path(&format!("{file}.win")).expect("corpus");
        let data = gmkit_data::parse_file(&path).unwrap_or_else(|e| panic!("{file}: {e}"));
        let r = render_room(
            &data,
            room,
            &mut PageCache::default(),
            &RenderOptions::default(),
        )
        .unwrap_or_else(|e| panic!("{stem}: {e}"));
        if bless {
            std::fs::write(&golden, gmkit_render::encode_png(&r.image).unwrap()).unwrap();
            continue;
        }
        let want = image::open(&golden)
            .unwrap_or_else(|e| panic!("{}: {e}", golden.display()))
            .to_rgba8();
        assert_eq!(want.dimensions(), r.image.dimensions(), "{stem}");
        let differ = want
            .pixels()
            .zip(r.image.pixels())
            .filter(|(a, b)| a != b)
            .count();
        assert_eq!(
            differ, 0,
            "{stem}: {differ} pixels differ from the golden image"
        );
        eprintln!("{stem}: {}×{} identical", want.width(), want.height());
    }
}
