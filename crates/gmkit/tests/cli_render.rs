//! `gmkit render room`: by name and by index, the PNG it writes, `--json`, `--scale`, and the
//! errors for a room that does not exist or is too large. On the built-in sample (a room with no
//! layers drawn) and on a corpus file (compared with the renderer's reviewed golden image).

use gmkit_testdata::{corpus_path, need};
use serde_json::Value;
use std::path::Path;
use std::process::{Command, Output, Stdio};

fn gmkit(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gmkit"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn png(path: &Path) -> gmkit_media::Image {
    gmkit_media::decode_png(&std::fs::read(path).unwrap()).unwrap()
}

#[test]
fn renders_the_sample_room_by_name_and_index() {
    let dir = tempfile::tempdir().unwrap();
    let data = gmkit_folder::sample::sample_data().unwrap();
    let file = dir.path().join("sample.win");
    gmkit_data::build_file(&data, &file).unwrap();
    let room = &data.rooms.as_ref().unwrap().rooms[0].as_ref().unwrap();
    let (f, out) = (file.to_str().unwrap(), dir.path().join("room.png"));
    let o = gmkit(&[
        "render",
        "room",
        "rm_start",
        f,
        "-o",
        out.to_str().unwrap(),
        "--json",
    ]);
    assert!(o.status.success(), "{}", err(&o));
    let j: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(j["width"], room.width);
    assert_eq!(j["height"], room.height);
    assert_eq!(j["room"], 0);
    assert!(j["instances_drawn"].is_u64() && j["tiles_drawn"].is_u64());
    let by_name = png(&out);
    assert_eq!(
        (by_name.width(), by_name.height()),
        (room.width, room.height)
    );
    let again = dir.path().join("again.png");
    let o = gmkit(&["render", "room", "0", f, "-o", again.to_str().unwrap()]);
    assert!(o.status.success(), "{}", err(&o));
    assert!(String::from_utf8_lossy(&o.stdout).starts_with("room 0 ("));
    assert_eq!(png(&again), by_name);
    // Half the size.
    let o = gmkit(&[
        "render",
        "room",
        "0",
        f,
        "-o",
        again.to_str().unwrap(),
        "--scale",
        "0.5",
    ]);
    assert!(o.status.success(), "{}", err(&o));
    assert_eq!(
        png(&again).width(),
        (room.width as f64 * 0.5).round() as u32
    );
    // No such room; a bad scale.
    let o = gmkit(&[
        "render",
        "room",
        "rm_nope",
        f,
        "-o",
        again.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        err(&o).contains("no room named or numbered \"rm_nope\""),
        "{}",
        err(&o)
    );
    let o = gmkit(&[
        "render",
        "room",
        "0",
        f,
        "-o",
        again.to_str().unwrap(),
        "--scale",
        "0",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        err(&o).contains("scale 0 is not a finite number above 0"),
        "{}",
        err(&o)
    );
}

#[test]
fn renders_a_corpus_room_like_its_golden_image() {
    let file = need!(corpus_path("platformermonster.win"));
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("lvl1.png");
    let o = gmkit(&[
        "render",
        "room",
        "rm_lvl1",
        file.to_str().unwrap(),
        "-o",
        out.to_str().unwrap(),
        "--json",
    ]);
    assert!(o.status.success(), "{}", err(&o));
    let j: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(
        (j["width"].as_u64(), j["height"].as_u64()),
        (Some(320), Some(180))
    );
    assert_eq!(j["instances_drawn"], 37);
    let golden = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../gmkit-render/tests/golden/platformermonster.1.png");
    assert_eq!(png(&out).count_differences(&png(&golden)), Some(0));
}

#[test]
fn refuses_a_room_too_large_and_draws_it_scaled() {
    let file = need!(corpus_path("ooo-kaizo.win"));
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("big.png");
    let (f, o_) = (file.to_str().unwrap(), out.to_str().unwrap());
    let o = gmkit(&["render", "room", "3", f, "-o", o_]);
    assert_eq!(o.status.code(), Some(1));
    assert!(err(&o).contains("20480×16320: larger than"), "{}", err(&o));
    assert!(!out.exists());
    let o = gmkit(&["render", "room", "3", f, "-o", o_, "--scale", "0.25"]);
    assert!(o.status.success(), "{}", err(&o));
    let img = png(&out);
    assert_eq!((img.width(), img.height()), (5120, 4080));
}
