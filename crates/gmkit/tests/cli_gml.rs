//! `gmkit gml check-source`: statuses, JSON summary, GML errors with file, line and column, exit
//! codes.

use gmkit_testdata::{corpus_path, need, sources_dir};
use std::process::Command;

fn gmkit() -> Command {
    Command::new(env!("CARGO_BIN_EXE_gmkit"))
}

#[test]
fn a_project_built_into_the_file_is_identical() {
    let file = need!(corpus_path("the-game.win"));
    let project = need!(sources_dir()).join("the-game");
    let out = gmkit()
        .args(["gml", "check-source"])
        .arg(&file)
        .arg(&project)
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(
        text.contains("identical  gml_Object_obj_player_Step_0"),
        "{text}"
    );
    assert!(
        text.contains("summary: 2 entries (gms1-gmx): 2 identical"),
        "{text}"
    );
}

#[test]
fn json_summary_adds_up() {
    let file = need!(corpus_path("jtool.win"));
    let project = need!(sources_dir()).join("jtool");
    let out = gmkit()
        .args(["gml", "check-source", "--json"])
        .arg(&file)
        .arg(&project)
        .output()
        .unwrap();
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let s = &v["summary"];
    let n = |k: &str| s[k].as_u64().unwrap();
    assert_eq!(
        n("identical") + n("differs") + n("error") + n("missing"),
        n("entries")
    );
    assert_eq!(v["format"], "gms1-gmx");
    assert_eq!(v["entries"].as_array().unwrap().len() as u64, n("entries"));
    let code = if n("identical") == n("entries") { 0 } else { 1 };
    assert_eq!(out.status.code(), Some(code));
}

#[test]
fn gml_errors_say_file_line_and_column() {
    let file = need!(corpus_path("the-game.win"));
    let dir = tempfile::tempdir().unwrap();
    let obj = dir.path().join("objects").join("obj_player");
    std::fs::create_dir_all(&obj).unwrap();
    std::fs::write(
        dir.path().join("game.yyp"),
        r#"{"resources": [{"id": {"name": "obj_player", "path": "objects/obj_player/obj_player.yy",},},], "resourceVersion": "1.6",}"#,
    )
    .unwrap();
    std::fs::write(
        obj.join("obj_player.yy"),
        r#"{"name": "obj_player", "eventList": [],}"#,
    )
    .unwrap();
    std::fs::write(obj.join("Create_0.gml"), "// speed\nmove_speed = ;\n").unwrap();
    let out = gmkit()
        .args(["gml", "check-source"])
        .arg(&file)
        .arg(dir.path())
        .output()
        .unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(
        text.contains("Create_0.gml:2:14: expected an expression, found `;`"),
        "{text}"
    );
    assert!(
        text.contains("missing    gml_Object_obj_player_Step_0"),
        "{text}"
    );
}

#[test]
fn a_folder_without_a_project_is_an_io_error() {
    let file = need!(corpus_path("the-game.win"));
    let dir = tempfile::tempdir().unwrap();
    let out = gmkit()
        .args(["gml", "check-source"])
        .arg(&file)
        .arg(dir.path())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("no .yyp or .project.gmx"), "{err}");
}
