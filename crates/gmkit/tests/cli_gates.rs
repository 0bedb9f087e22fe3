//! `gmkit import --code NAME=file.gml` refuses what the game's version cannot run with the
//! file, line and column and the reason (the compiler's version gates), writing nothing.

use std::process::{Command, Stdio};

#[test]
fn import_code_names_the_place_of_a_construct_newer_than_the_game() {
    let input = gmkit_testdata::need!(gmkit_testdata::corpus_path("vendaval.win"));
    let dir = tempfile::tempdir().unwrap();
    let gml = dir.path().join("step.gml");
    std::fs::write(&gml, "x = 1;\ny = x ?? 2;\n").unwrap();
    let out = dir.path().join("out.win");
    let o = Command::new(env!("CARGO_BIN_EXE_gmkit"))
        .args(["import", input.to_str().unwrap(), "--code"])
        .arg(format!("gml_Object_Time_Create_0={}", gml.display()))
        .arg("-o")
        .arg(&out)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains(
            "step.gml: line 2, column 7: `??` needs GameMaker 2.3.7 or later; this game is 2.3.2"
        ),
        "{err}"
    );
    assert!(!out.exists());
}
