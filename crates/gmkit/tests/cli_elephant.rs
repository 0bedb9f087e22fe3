//! `gmkit elephant decode | encode` end to end.

use std::io::Write;
use std::process::{Command, Stdio};

const GMKIT: &str = env!("CARGO_BIN_EXE_gmkit");

fn run(args: &[&str], stdin: &[u8]) -> (i32, Vec<u8>, String) {
    let mut child = Command::new(GMKIT)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run gmkit");
    child.stdin.take().unwrap().write_all(stdin).unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        out.stdout,
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

const TESTLOOP: &str = "50454C4501050100CEFEFF0000546573744C6F6F7000800200706172656E7400CF6368696C6472656E00CD0100CEFEFF0000800200706172656E7400CEFFFF00006368696C6472656E00CD0000544E4148";
const README: &str = "50454C4501050100CE0300610009000000000000F03F62000900000000000008406300CD0600CC09000000000000F03F0900000000000000400900000000000008400900000000000010400900000000000014C00B68656C6C6F20776F726C6400544E4148";

#[test]
fn decode_encode_round_trip_is_byte_exact() {
    for hex in [TESTLOOP, README] {
        let bytes = unhex(hex);
        let (code, json, err) = run(&["elephant", "decode", "-"], &bytes);
        assert_eq!(code, 0, "{err}");
        let (code, back, err) = run(&["elephant", "encode"], &json);
        assert_eq!(code, 0, "{err}");
        assert_eq!(back, bytes);
    }
}

#[test]
fn schema_round_trip_and_output_file() {
    let dir = std::env::temp_dir().join(format!("gmkit-cli-elephant-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let schemas = dir.join("schemas.json");
    std::fs::write(
        &schemas,
        r#"{"TestConstructor": {"v1": {"a": 204, "b": 9}}}"#,
    )
    .unwrap();
    let bytes = unhex(
        "50454C4501050100CEFEFF000054657374436F6E7374727563746F72000100000900000000000000000000000000000040544E4148",
    );
    let s = schemas.to_str().unwrap();
    let (code, _, err) = run(&["elephant", "decode", "-"], &bytes);
    assert_eq!(code, 1, "no schema must fail");
    assert!(err.contains("schema"), "{err}");
    let (code, json, err) = run(
        &["elephant", "decode", "--compact", "--schemas", s, "-"],
        &bytes,
    );
    assert_eq!(code, 0, "{err}");
    let out = dir.join("out.bin");
    let o = out.to_str().unwrap();
    let (code, _, err) = run(&["elephant", "encode", "--schemas", s, "-o", o], &json);
    assert_eq!(code, 0, "{err}");
    assert_eq!(std::fs::read(&out).unwrap(), bytes);
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn export_strings_round_trip() {
    let html5 = "eJxFyzEKgDAQBMA9wYdZBCwOsfADogEFMSHmAX7Q+CNzVwjX7TK7o2NHLaF8FZj8lTmEiLtBnJM/M95l249VI55/ZFaqVnP9D10vkJQdCQ==";
    let (code, json, err) = run(&["elephant", "decode", "--string", "-"], html5.as_bytes());
    assert_eq!(code, 0, "{err}");
    let (code, s, err) = run(&["elephant", "encode", "--string"], &json);
    assert_eq!(code, 0, "{err}");
    let (code, json2, err) = run(&["elephant", "decode", "--string", "-"], &s);
    assert_eq!(code, 0, "{err}");
    assert_eq!(json, json2);
    let (code, bin, _) = run(&["elephant", "encode"], &json);
    assert_eq!(code, 0);
    assert_eq!(bin, unhex(TESTLOOP));
}

#[test]
fn bad_input_names_the_offset() {
    // Unknown datatype byte 0x20 at offset 8.
    let (code, _, err) = run(
        &["elephant", "decode", "-"],
        &unhex("50454C450105010020544E4148"),
    );
    assert_eq!(code, 1);
    assert!(err.contains("byte 8"), "{err}");
    // String without terminator starting at offset 9.
    let (code, _, err) = run(
        &["elephant", "decode", "-"],
        &unhex("50454C45010501000B6869"),
    );
    assert_eq!(code, 1);
    assert!(err.contains("byte 9"), "{err}");
    let (code, _, err) = run(
        &["elephant", "decode", "--string", "-"],
        b"eJwdwDEKACAMA8BkcPBV4hDoUEqH/v8djgGvleIiNr53pg==",
    );
    assert_eq!(code, 1);
    assert!(err.contains("byte"), "{err}");
    let (code, _, err) = run(&["elephant", "encode"], br#"{"nope": 1}"#);
    assert_eq!(code, 1);
    assert!(err.contains("unknown tag"), "{err}");
}

/// Deeply nested data (the Elephant writer allows 512 levels) survives decode | encode: the JSON
/// reader of `encode` must accept the nesting `decode` prints.
#[test]
fn deep_nesting_round_trips() {
    use gmkit_value::{Struct, Value};
    let mut v = Value::Real(1.0);
    for i in 0..400 {
        v = if i % 2 == 0 {
            Value::from(vec![v])
        } else {
            Value::Struct(Struct::new(vec![("x".into(), v)]))
        };
    }
    let bytes = gmkit_value::elephant::write(&v).unwrap();
    let (code, json, err) = run(&["elephant", "decode", "--compact", "-"], &bytes);
    assert_eq!(code, 0, "{err}");
    let (code, back, err) = run(&["elephant", "encode"], &json);
    assert_eq!(code, 0, "{err}");
    assert_eq!(back, bytes);
}
