//! Every line of `shared/vectors/elephant.jsonl` is checked here.

use gmkit_value::Value;
use gmkit_value::elephant::{self, NoCallbacks, ReadOptions, SchemaRegistry, WriteOptions, tagged};
use serde_json::Value as Json;

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).expect("hex"))
        .collect()
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02X}")).collect()
}

/// JSON equality with numbers compared as f64 (1 == 1.0).
fn json_eq(a: &Json, b: &Json) -> bool {
    match (a, b) {
        (Json::Number(x), Json::Number(y)) => x.as_f64() == y.as_f64(),
        (Json::Array(x), Json::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y).all(|(p, q)| json_eq(p, q))
        }
        (Json::Object(x), Json::Object(y)) => {
            x.len() == y.len()
                && x.iter()
                    .all(|(k, v)| y.get(k).is_some_and(|w| json_eq(v, w)))
        }
        _ => a == b,
    }
}

fn check(line: &Json) -> Result<(), String> {
    let kind = line["kind"].as_str().ok_or("no kind")?;
    let is_error = line["error"].as_bool().unwrap_or(false);
    let schemas = match line.get("schemas") {
        Some(s) => SchemaRegistry::from_json(s).map_err(|e| format!("schemas: {e}"))?,
        None => SchemaRegistry::new(),
    };
    let ropts = ReadOptions::with_schemas(&schemas);
    let wopts = WriteOptions::with_schemas(&schemas);
    let value = || -> Result<Value, String> {
        tagged::from_tagged(&line["value"]).map_err(|e| format!("tagged value: {e}"))
    };
    let from_writer = line["source"]
        .as_str()
        .is_some_and(|s| s.contains("from Elephant 1.5.1 ElephantWrite"));
    match (kind, is_error) {
        ("buffer", false) => {
            let bytes = unhex(line["hex"].as_str().ok_or("no hex")?);
            let (got, used) = elephant::read_with(&bytes, &ropts, &mut NoCallbacks)
                .map_err(|e| format!("decode failed: {e}"))?;
            if used != bytes.len() {
                return Err(format!("consumed {used} of {} bytes", bytes.len()));
            }
            let want = value()?;
            if got != want {
                return Err(format!("decoded {got:?}, expected {want:?}"));
            }
            let back = tagged::from_tagged(&tagged::to_tagged(&got, Some(&schemas)))
                .map_err(|e| format!("tagged round trip: {e}"))?;
            if back != got {
                return Err(format!("tagged round trip gave {back:?}"));
            }
            if from_writer {
                for (what, v) in [("vector value", &want), ("decoded value", &got)] {
                    let enc = elephant::write_with(v, &wopts, &mut NoCallbacks)
                        .map_err(|e| format!("encode of {what} failed: {e}"))?;
                    if enc != bytes {
                        return Err(format!(
                            "encode of {what}: {}\n expected {}",
                            hex(&enc),
                            hex(&bytes)
                        ));
                    }
                }
            }
            Ok(())
        }
        ("buffer", true) => {
            let bytes = unhex(line["hex"].as_str().ok_or("no hex")?);
            let strict = ReadOptions {
                require_constructors: true,
                ..ropts
            };
            if let Ok((v, _)) = elephant::read_with(&bytes, &strict, &mut NoCallbacks) {
                return Err(format!("expected an error, decoded {v:?}"));
            }
            if let Some(w) = line.get("value_as_written") {
                let legacy = ReadOptions {
                    legacy_atmc: true,
                    ..ropts
                };
                let (got, _) = elephant::read_with(&bytes, &legacy, &mut NoCallbacks)
                    .map_err(|e| format!("legacy ATMC decode failed: {e}"))?;
                let want = tagged::from_tagged(w).map_err(|e| e.to_string())?;
                if got != want {
                    return Err(format!("legacy decode {got:?}, expected {want:?}"));
                }
            }
            Ok(())
        }
        ("export_string", false) => {
            let s = line["export_string"].as_str().ok_or("no export_string")?;
            let bytes = unhex(line["hex"].as_str().ok_or("no hex")?);
            let raw = elephant::decompress(s, elephant::DEFAULT_MAX_DECOMPRESSED)
                .map_err(|e| format!("decompress: {e}"))?;
            if raw != bytes {
                return Err(format!("decompressed {}", hex(&raw)));
            }
            let got =
                elephant::import_string_with(s, &ropts).map_err(|e| format!("import: {e}"))?;
            let want = value()?;
            if got != want {
                return Err(format!("imported {got:?}, expected {want:?}"));
            }
            let ours = elephant::export_string_with(&want, &wopts).map_err(|e| e.to_string())?;
            let raw = elephant::decompress(&ours, elephant::DEFAULT_MAX_DECOMPRESSED)
                .map_err(|e| format!("decompress own export: {e}"))?;
            if raw != bytes {
                return Err(format!("own export decompresses to {}", hex(&raw)));
            }
            Ok(())
        }
        ("export_string", true) => {
            let s = line["export_string"].as_str().ok_or("no export_string")?;
            match elephant::import_string_with(s, &ropts) {
                Ok(v) => Err(format!("expected an error, imported {v:?}")),
                Err(_) => Ok(()),
            }
        }
        ("tojson", false) => {
            let input =
                tagged::from_tagged(&line["input"]).map_err(|e| format!("tagged input: {e}"))?;
            let tree = elephant::to_json(&input, Some(&schemas)).map_err(|e| e.to_string())?;
            let got = elephant::to_plain_json(&tree).map_err(|e| e.to_string())?;
            if !json_eq(&got, &line["json"]) {
                return Err(format!("ToJSON gave {got}, expected {}", line["json"]));
            }
            Ok(())
        }
        ("fromjson", false) => {
            let tree = elephant::from_plain_json(&line["json"]);
            let got = elephant::from_json(&tree, &mut NoCallbacks).map_err(|e| e.to_string())?;
            let want = value()?;
            if got != want {
                return Err(format!("FromJSON gave {got:?}, expected {want:?}"));
            }
            Ok(())
        }
        other => Err(format!("unknown vector kind {other:?}")),
    }
}

#[test]
fn elephant_vectors() {
    let path = gmkit_testdata::need!(gmkit_testdata::vectors_dir()).join("elephant.jsonl");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "cannot read the Elephant test vectors at {} ({e}); set GMKIT_VECTORS to the \
             directory holding elephant.jsonl",
            path.display()
        )
    });
    let lines: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(lines.len(), 70, "expected 70 vectors in {}", path.display());
    let mut failures = Vec::new();
    for l in &lines {
        let line: Json = serde_json::from_str(l).expect("vector line is JSON");
        let name = line["name"].as_str().unwrap_or("?").to_owned();
        if let Err(e) = check(&line) {
            failures.push(format!("{name}: {e}"));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} vectors failed:\n{}",
        failures.len(),
        lines.len(),
        failures.join("\n")
    );
    println!("{} Elephant vectors passed", lines.len());
}
