//! End-to-end tests of `gmkit ds` and `gmkit ini`.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

fn gmkit(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_gmkit"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run gmkit");
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    child.wait_with_output().unwrap()
}

fn stdout(o: &Output) -> String {
    assert!(
        o.status.success(),
        "gmkit failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn temp_dir(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("gmkit-cli-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

const SAMPLES: &[&str] = &[
    // native queue layout with an unused slot before the head and two after the tail
    "CB00000003000000010000000500000000000000000000000000000000000000000000000000F03F000000000000000000000040000000000000000000000000000000000000000000000000",
    // legacy 402 map
    "920100000100000001000000050000006A696C636B01000000080000006A616C6B73646A66",
    // int32, int64, ptr, bool, nested arrays
    "2F0100000500000007000000FBFFFFFF0A0000000000000000FFFFFF03000000EFBEADDE000000000D000000000000000000F03F0200000003000000020000000100000000000000000000000000F03F0100000001000000780200000000000000",
    // HTML5 CESU-8 string
    "93010000010000000100000001000000650100000006000000EDA0BDEDB880",
];

#[test]
fn decode_encode_round_trip_of_vectors() {
    let dir = gmkit_testdata::need!(gmkit_testdata::vectors_dir());
    let text = std::fs::read_to_string(dir.join("ds.jsonl")).expect("ds.jsonl");
    let mut hexes: Vec<String> = text
        .lines()
        .filter_map(|l| serde_json::from_str::<serde_json::Value>(l).ok())
        .filter(|j| {
            j.get("canonical").and_then(|c| c.as_bool()) == Some(true)
                || j.get("profile").and_then(|p| p.as_str()) == Some("native-writer")
                || j["name"].as_str().is_some_and(|n| n.starts_with("cabin_"))
        })
        .map(|j| j["hex"].as_str().unwrap().to_owned())
        .collect();
    assert!(hexes.len() >= 25, "too few vectors selected");
    hexes.extend(SAMPLES.iter().map(|s| s.to_string()));
    for hex in &hexes {
        let json = stdout(&gmkit(&["ds", "decode", hex], b""));
        let back = stdout(&gmkit(&["ds", "encode"], json.as_bytes()));
        assert_eq!(back.trim_end(), hex, "json was {json}");
    }
}

#[test]
fn decode_reads_files_and_stdin() {
    let hex = SAMPLES[1];
    let dir = temp_dir("files");
    let f = dir.join("map.txt");
    std::fs::write(&f, format!("{hex}\r\n")).unwrap();
    let from_file = stdout(&gmkit(
        &["ds", "decode", "--compact", f.to_str().unwrap()],
        b"",
    ));
    let from_stdin = stdout(&gmkit(&["ds", "decode", "--compact", "-"], hex.as_bytes()));
    assert_eq!(from_file, from_stdin);
    assert_eq!(from_file.lines().count(), 1);
    assert!(
        from_file.contains("\"generation\":\"legacy\""),
        "{from_file}"
    );
    // encode to a file, atomically
    let out = dir.join("out.txt");
    let o = gmkit(
        &["ds", "encode", "-o", out.to_str().unwrap()],
        from_file.as_bytes(),
    );
    stdout(&o);
    assert_eq!(std::fs::read_to_string(&out).unwrap(), hex);
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn bad_input_fails_with_a_message() {
    for args in [
        &["ds", "decode", "zz93010000"][..],
        &["ds", "decode", "9301000001000000010000000A0000006162"],
        &["ds", "decode", "--kind", "list", "9301000000000000"],
        &["ds", "decode", ""],
    ] {
        let o = gmkit(args, b"");
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains("gmkit ds decode:") && err.len() > 40,
            "{args:?}: {err}"
        );
    }
    let o = gmkit(&["ds", "encode"], b"{\"list\": [{\"real\": \"x\"}]}");
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("$.list[0].real"));
    let o = gmkit(&["ds", "encode"], b"not json");
    assert_eq!(o.status.code(), Some(1));
}

#[test]
fn html5_flag_reads_lenient_input() {
    let hex = "2F0100000200000006000000000000000000000000002240";
    assert_eq!(gmkit(&["ds", "decode", hex], b"").status.code(), Some(1));
    let out = stdout(&gmkit(&["ds", "decode", "--html5", "--compact", hex], b""));
    assert_eq!(out.trim(), r#"{"list":[{"undefined":null},{"real":9}]}"#);
}

#[test]
fn ini_round_trip_and_edit() {
    let ini = "[Player]\r\nname=\"Kris\"\r\ninventory=\"2F01000002000000000000000000000000000000000000000000000000001440\"\r\n; comment\r\n\r\n[World]\r\nflags = \"93010000010000000100000001000000750500000041\"\r\nlower=\"2f01000000000000\"\r\nlast=1";
    let dir = temp_dir("ini");
    let f = dir.join("save.ini");
    std::fs::write(&f, ini).unwrap();
    let json = stdout(&gmkit(&["ini", "decode", f.to_str().unwrap()], b""));
    let doc: serde_json::Value = serde_json::from_str(&json).unwrap();
    let lines = doc["lines"].as_array().unwrap();
    let ds_lines = lines.iter().filter(|l| l.get("ds").is_some()).count();
    assert_eq!(ds_lines, 3, "{json}");
    // unchanged: byte for byte, to stdout and to a file
    assert_eq!(stdout(&gmkit(&["ini", "encode"], json.as_bytes())), ini);
    let out = dir.join("out.ini");
    stdout(&gmkit(
        &["ini", "encode", "-", "-o", out.to_str().unwrap()],
        json.as_bytes(),
    ));
    assert_eq!(std::fs::read_to_string(&out).unwrap(), ini);
    // an edited ds value is re-encoded, the rest kept
    let mut doc = doc;
    doc["lines"][2]["ds"] = serde_json::json!({"list": [{"real": 7}]});
    let edited = stdout(&gmkit(&["ini", "encode"], doc.to_string().as_bytes()));
    assert_eq!(
        edited,
        ini.replace(
            "2F01000002000000000000000000000000000000000000000000000000001440",
            "2F01000001000000000000000000000000001C40"
        )
    );
    std::fs::remove_dir_all(dir).ok();
}

#[test]
fn help_has_examples() {
    for sub in [
        ["ds", "decode"],
        ["ds", "encode"],
        ["ini", "decode"],
        ["ini", "encode"],
    ] {
        let o = gmkit(&[sub[0], sub[1], "--help"], b"");
        assert!(stdout(&o).contains("Examples:"), "{sub:?}");
    }
}

#[test]
fn deep_nesting_round_trips() {
    // 200 nested arrays: deeper than serde_json's default limit once in tagged form
    let mut hex = String::from("2F01000001000000");
    for _ in 0..200 {
        hex.push_str("0200000001000000");
    }
    hex.push_str("05000000");
    let json = stdout(&gmkit(&["ds", "decode", "--compact", &hex], b""));
    let back = stdout(&gmkit(&["ds", "encode"], json.as_bytes()));
    assert_eq!(back.trim_end(), hex);
    // hostile JSON depth is refused, not overflowed
    let deep = "[".repeat(100_000);
    let o = gmkit(&["ds", "encode"], deep.as_bytes());
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("nested"));
}

/// One line on standard error, starting with the command's name.
fn one_line_error(o: &Output, prefix: &str) -> String {
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with(prefix), "{err}");
    err
}

#[test]
fn tagged_json_deeper_than_the_ds_limit_is_one_short_line() {
    let path = gmkit_testdata::need!(gmkit_testdata::repro_path(
        "ds-tagged-json-4095-levels.json"
    ));
    let o = gmkit(&["ds", "encode", "-i", path.to_str().unwrap()], b"");
    assert_eq!(o.status.code(), Some(1));
    let err = one_line_error(&o, "gmkit ds encode:");
    assert!(err.contains("at most 256"), "{err}");
    assert!(err.len() < 400, "{} bytes: {err}", err.len());
}

#[test]
fn grid_of_width_2pow30_and_height_0_decodes_quickly() {
    for (cmd, name) in [
        ("ds", "ds-grid-width-2pow30-height0.txt"),
        ("ini", "ds-grid-bomb.ini"),
    ] {
        let path = gmkit_testdata::need!(gmkit_testdata::repro_path(name));
        let o = gmkit(&[cmd, "decode", "--compact", path.to_str().unwrap()], b"");
        let json = stdout(&o);
        assert!(json.contains("1073741824") && json.len() < 1000, "{json}");
        // and encodes back to the same bytes
        let back = gmkit(&[cmd, "encode"], json.as_bytes());
        let want = std::fs::read_to_string(&path).unwrap();
        assert_eq!(stdout(&back).trim_end(), want.trim_end());
    }
}

#[test]
fn full_stdout_is_exit_3_with_one_line_and_a_closed_pipe_ends_quietly() {
    let json = br#"{"list": [{"real": 1}]}"#;
    // /dev/full: every write fails with ENOSPC
    for args in [&["ds", "encode"][..], &["ds", "decode", "2F01000000000000"]] {
        let full = std::fs::OpenOptions::new().write(true).open("/dev/full");
        let Ok(full) = full else { return };
        let mut child = Command::new(env!("CARGO_BIN_EXE_gmkit"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(full)
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // `ds decode HEX` does not read stdin and may exit before this write: ignore EPIPE.
        let _ = child.stdin.take().unwrap().write_all(json);
        let o = child.wait_with_output().unwrap();
        assert_eq!(o.status.code(), Some(3), "{args:?}");
        let err = one_line_error(&o, "gmkit");
        assert!(err.contains("stdout"), "{err}");
    }
    // a pipe closed by the reader (like `| head -c1`): a long string so that the write fails,
    // and the command ends quietly
    let big = format!(
        r#"{{"list": [{}]}}"#,
        vec![r#"{"string": "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"}"#; 20_000].join(",")
    );
    let mut child = Command::new(env!("CARGO_BIN_EXE_gmkit"))
        .args(["ds", "encode"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take()); // the reader goes away before reading anything
    child
        .stdin
        .take()
        .unwrap()
        .write_all(big.as_bytes())
        .unwrap();
    let o = child.wait_with_output().unwrap();
    // The reader asked for no more: the command ends quietly (issue 18: no "Broken pipe").
    assert_eq!(o.status.code(), Some(0));
    assert!(
        o.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn empty_files_and_directories_say_what_they_are() {
    let dir = temp_dir("empty");
    let empty = dir.join("empty.txt");
    std::fs::write(&empty, "").unwrap();
    let blank = dir.join("blank.txt");
    std::fs::write(&blank, "  \r\n").unwrap();
    for (arg, want) in [
        (empty.to_str().unwrap(), "is empty"),
        (blank.to_str().unwrap(), "is empty"),
        (dir.to_str().unwrap(), "is a directory"),
    ] {
        let o = gmkit(&["ds", "decode", arg], b"");
        assert_ne!(o.status.code(), Some(0));
        let err = one_line_error(&o, "gmkit ds decode:");
        assert!(
            err.contains(want) && !err.contains("no file named"),
            "{err}"
        );
    }
    // a file holding junk names the file and the bad character
    let junk = dir.join("junk.txt");
    std::fs::write(&junk, "\u{feff}2F01000000000000").unwrap();
    let o = gmkit(&["ds", "decode", junk.to_str().unwrap()], b"");
    let err = one_line_error(&o, "gmkit ds decode:");
    assert!(
        err.contains("junk.txt") && err.contains("bad character '\\u{feff}' at position 0"),
        "{err}"
    );
    let o = gmkit(&["ds", "decode", "-"], b"");
    one_line_error(&o, "gmkit ds decode: standard input is empty");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn ini_in_a_legacy_code_page_round_trips() {
    let dir = temp_dir("big5");
    let ini = dir.join("save.ini");
    let bytes: &[u8] = b"[\xAA\xB1\xAEa]\r\nname=\"\xA4\xA4\xA4\xE5\"\r\nlist=\"2F0100000100000000000000000000000000F03F\"\r\n";
    std::fs::write(&ini, bytes).unwrap();
    let json = stdout(&gmkit(&["ini", "decode", ini.to_str().unwrap()], b""));
    assert!(json.contains("\"bytes\""), "{json}");
    let back = gmkit(&["ini", "encode"], json.as_bytes());
    assert!(back.status.success());
    assert_eq!(back.stdout, bytes);
    let out = dir.join("out.ini");
    let o = gmkit(
        &["ini", "encode", "-", "-o", out.to_str().unwrap()],
        json.as_bytes(),
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(std::fs::read(&out).unwrap(), bytes);
    std::fs::remove_dir_all(&dir).unwrap();
}
