//! `gmkit decompile` on a corpus file: text to stdout, files with `-o`, exit codes.

use gmkit_testdata::{corpus_path, need};
use std::process::Command;

fn gmkit() -> Command {
    Command::new(env!("CARGO_BIN_EXE_gmkit"))
}

#[test]
fn decompiles_one_entry_and_a_folder() {
    let file = need!(corpus_path("the-game.win"));
    let out = gmkit()
        .args(["decompile"])
        .arg(&file)
        .arg("gml_Object_obj_player_Step_0")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("if (keyboard_check(ord(\"W\"))) {\n    y -= move_speed;\n}"),
        "{text}"
    );

    let dir = std::env::temp_dir().join(format!("gmkit-decompile-{}", std::process::id()));
    let out = gmkit()
        .arg("decompile")
        .arg(&file)
        .arg("-o")
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let create = std::fs::read_to_string(dir.join("gml_Object_obj_player_Create_0.gml")).unwrap();
    assert_eq!(create, "move_speed = 3;\n");
    let _ = std::fs::remove_dir_all(&dir);

    let out = gmkit()
        .arg("decompile")
        .arg(&file)
        .arg("no_such_entry")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
}
