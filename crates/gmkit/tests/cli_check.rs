//! `gmkit check`: output, JSON fields and exit codes.

use gmkit_testdata::{corpus_path, need};
use std::process::Command;

fn gmkit() -> Command {
    Command::new(env!("CARGO_BIN_EXE_gmkit"))
}

#[test]
fn checks_the_built_in_sample_without_arguments() {
    let out = gmkit().arg("check").output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("<built-in sample>: ok"), "{text}");
    assert!(text.contains("byte-identical"), "{text}");
}

#[test]
fn json_reports_every_field() {
    let files = [
        need!(corpus_path("the-game.win")),
        need!(corpus_path("dieback.win")),
    ];
    let out = gmkit()
        .arg("check")
        .arg("--json")
        .args(&files)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    let rows: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(rows.len(), 2);
    for row in &rows {
        for key in [
            "file",
            "size",
            "version",
            "parsed",
            "identical",
            "opaque_chunks",
            "parse_ms",
            "build_ms",
            "error",
        ] {
            assert!(row.get(key).is_some(), "missing {key} in {row}");
        }
        assert_eq!(row["parsed"], true);
        assert_eq!(row["identical"], true);
        assert_eq!(row["opaque_chunks"], serde_json::json!([]));
        assert!(row["error"].is_null());
    }
    assert_eq!(
        rows[0]["version"],
        "1.0.0.1763 (bytecode 15, IDE 1.0.0.1763)"
    );
}

#[test]
fn a_damaged_file_fails_with_exit_code_1_and_says_where() {
    let mut bytes = std::fs::read(need!(corpus_path("the-game.win"))).unwrap();
    bytes.truncate(bytes.len() / 2);
    let dir = std::env::temp_dir().join(format!("gmkit-cli-check-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let damaged = dir.join("damaged.win");
    std::fs::write(&damaged, &bytes).unwrap();
    let out = gmkit()
        .arg("check")
        .arg("--json")
        .arg(&damaged)
        .output()
        .unwrap();
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(out.status.code(), Some(1));
    let row: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(row["parsed"], false);
    let error = row["error"].as_str().unwrap();
    assert!(error.contains("byte offset"), "{error}");
}

#[test]
fn a_missing_file_is_an_io_error() {
    let out = gmkit()
        .args(["check", "/nonexistent/data.win"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(3));
    assert!(String::from_utf8_lossy(&out.stderr).contains("/nonexistent/data.win"));
}

/// A file with one damaged chunk: strict `check` names the chunk, the offset and the version
/// the rest of the file points to (with its evidence); `--lenient` keeps the chunk as bytes,
/// checks the rest and rebuilds the file byte for byte.
#[test]
fn a_broken_chunk_is_triaged_with_version_and_read_past_leniently() {
    let mut bytes = std::fs::read(need!(corpus_path("dieback.win"))).unwrap();
    // The OBJT chunk's object count, damaged.
    let mut pos = 8;
    let objt = loop {
        let len = u32::from_le_bytes(bytes[pos + 4..pos + 8].try_into().unwrap()) as usize;
        if &bytes[pos..pos + 4] == b"OBJT" {
            break pos + 8;
        }
        pos += 8 + len;
    };
    bytes[objt..objt + 4].copy_from_slice(&0x0FFF_FFFFu32.to_le_bytes());
    let dir = std::env::temp_dir().join(format!("gmkit-cli-triage-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let damaged = dir.join("damaged.win");
    std::fs::write(&damaged, &bytes).unwrap();
    let run = |extra: &[&str]| {
        let out = gmkit()
            .arg("check")
            .args(extra)
            .arg(&damaged)
            .output()
            .unwrap();
        (out.status.code(), String::from_utf8(out.stdout).unwrap())
    };
    let (code, json) = run(&["--json"]);
    let (_, text) = run(&[]);
    let (lenient_code, lenient) = run(&["--json", "--lenient"]);
    std::fs::remove_dir_all(&dir).ok();

    assert_eq!(code, Some(1));
    let row: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(row["parsed"], false);
    assert_eq!(row["error_chunk"], "OBJT");
    assert_eq!(row["error_offset"], objt);
    assert_eq!(row["version"], "2.3.2 (bytecode 17, IDE 2.0.0.0)");
    let evidence = row["version_evidence"].as_array().unwrap();
    assert!(evidence.iter().any(|e| e == "SEQN present → 2.3"), "{row}");
    assert!(
        text.contains("version    2.3.2") && text.contains("evidence   "),
        "{text}"
    );

    assert_eq!(lenient_code, Some(0));
    let row: serde_json::Value = serde_json::from_str(&lenient).unwrap();
    assert_eq!(row["parsed"], true);
    assert_eq!(row["identical"], true);
    assert_eq!(row["opaque_chunks"], serde_json::json!(["OBJT"]));
    assert_eq!(row["failed_chunks"][0]["chunk"], "OBJT");
    assert_eq!(row["failed_chunks"][0]["offset"], objt);
}
