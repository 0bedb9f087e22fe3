//! `gmkit ini`: expand the ds_* strings inside a GameMaker .ini save file to JSON, and pack them
//! back byte for byte.
//!
//! JSON document:
//!
//! ```text
//! {"line_ending": "\r\n",
//!  "lines": [
//!    {"raw": "; any line kept verbatim"},
//!    {"section": "Player", "prefix": "[", "suffix": "]"},
//!    {"key": "name", "prefix": "name=\"", "value": "Kris", "suffix": "\""},
//!    {"key": "inv", "prefix": "inv=\"", "ds": {"list": [...]}, "original": "2F01...", "suffix": "\""},
//!    {"raw": "last line", "eol": ""}]}
//! ```
//!
//! A line is `prefix + content + suffix + eol`, where `eol` defaults to `line_ending` (`""` =
//! no line break: the last line of a file without a final newline). A `ds` value is written
//! back as its `original` text while it still decodes to the same data, so unchanged values keep
//! their exact text (case, trailing junk); an edited one is re-encoded (lower-case hex when
//! `"hex_case": "lower"`). `key` is informational; edit `prefix` to rename a key.

use crate::exit;
use crate::io::{read_input, write_atomic};
use gmkit_value::ds::{self, ds_data_from_tagged_json, ds_data_to_tagged_json};
use serde_json::{Map, Value as Json, json};
use std::path::PathBuf;

/// Subcommands of `gmkit ini`.
#[derive(clap::Subcommand)]
pub enum Command {
    /// Decode an .ini file to JSON, expanding every value that is a ds_* string
    #[command(after_help = DECODE_HELP)]
    Decode(DecodeArgs),
    /// Encode the JSON printed by `gmkit ini decode` back to the .ini file
    #[command(after_help = ENCODE_HELP)]
    Encode(EncodeArgs),
}

const DECODE_HELP: &str = "\
Every key=\"value\" whose value is a complete ds_* string becomes {\"ds\": <tagged JSON>} (see
`gmkit ds decode --help`); everything else (sections, comments, other values, spacing, quoting,
line endings) is kept so that `gmkit ini encode` writes the same bytes.

Examples:
  gmkit ini decode save.ini > save.json
  gmkit ini decode save.ini | gmkit ini encode - -o save2.ini";

const ENCODE_HELP: &str = "\
Unchanged ds values keep their original text; edited ones are re-encoded.

Examples:
  gmkit ini encode save.json -o save.ini
  gmkit ini decode save.ini | gmkit ini encode > same.ini";

/// Arguments of `gmkit ini decode`.
#[derive(clap::Args)]
pub struct DecodeArgs {
    /// The .ini file, or `-` for standard input
    pub input: String,
    /// Print the JSON on one line
    #[arg(long)]
    pub compact: bool,
}

/// Arguments of `gmkit ini encode`.
#[derive(clap::Args)]
pub struct EncodeArgs {
    /// The JSON file, or `-` for standard input
    #[arg(default_value = "-")]
    pub input: String,
    /// Write the .ini to this file (atomically, verified) instead of standard output
    #[arg(long, short = 'o')]
    pub output: Option<PathBuf>,
}

/// Runs a subcommand; returns the process exit code ([`crate::exit`]).
pub fn run(c: Command) -> u8 {
    match c {
        Command::Decode(a) => decode(a),
        Command::Encode(a) => encode(a),
    }
}

fn fail(what: &str, code: u8, msg: &str) -> u8 {
    eprintln!("gmkit ini {what}: {msg}");
    code
}

fn decode(a: DecodeArgs) -> u8 {
    let bytes = match read_input(&a.input) {
        Ok(b) => b,
        Err(e) => return fail("decode", exit::IO, &format!("{}: {e}", a.input)),
    };
    crate::io::print_json(&ini_to_json(&bytes), a.compact)
}

fn encode(a: EncodeArgs) -> u8 {
    let doc = match crate::io::read_json(&a.input) {
        Ok(j) => j,
        Err((code, e)) => return fail("encode", code, &e),
    };
    let bytes = match json_to_ini(&doc) {
        Ok(t) => t,
        Err(e) => return fail("encode", exit::FAILED, &e),
    };
    match a.output {
        Some(path) => {
            let verify = |back: &[u8]| {
                if back != bytes.as_slice() {
                    return Err("the file read back differs from what was written".into());
                }
                // the written file decodes to a document that encodes to the same bytes
                let again = json_to_ini(&ini_to_json(back))?;
                if again == bytes {
                    Ok(())
                } else {
                    Err("the written file does not re-encode identically".into())
                }
            };
            match write_atomic(&path, &bytes, verify) {
                Ok(()) => exit::OK,
                Err(e) => fail("encode", exit::IO, &e),
            }
        }
        None => match crate::io::write_stdout(&bytes) {
            Ok(()) => exit::OK,
            Err(e) => crate::io::stdout_error("gmkit ini encode", &e),
        },
    }
}

/// Splits bytes into lines with their terminators (`"\r\n"`, `"\n"` or `""` for the last).
fn split_lines(text: &[u8]) -> Vec<(&[u8], &'static str)> {
    let mut out = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        match rest.iter().position(|&b| b == b'\n') {
            Some(i) => {
                let line = &rest[..i];
                let (line, eol) = match line.strip_suffix(b"\r") {
                    Some(l) => (l, "\r\n"),
                    None => (line, "\n"),
                };
                out.push((line, eol));
                rest = &rest[i + 1..];
            }
            None => {
                out.push((rest, ""));
                rest = &[];
            }
        }
    }
    out
}

/// The JSON of some bytes of the file: a string when they are UTF-8; otherwise (a legacy code
/// page such as Big5 or Windows-1252) a list of segments, UTF-8 runs as strings and the other
/// bytes as `{"bytes": "<hex>"}`, so that every byte is kept.
fn text_json(b: &[u8]) -> Json {
    if let Ok(s) = std::str::from_utf8(b) {
        return json!(s);
    }
    let mut segs = Vec::new();
    for chunk in b.utf8_chunks() {
        if !chunk.valid().is_empty() {
            segs.push(json!(chunk.valid()));
        }
        if !chunk.invalid().is_empty() {
            segs.push(json!({ "bytes": gmkit_value::ds::hex::encode(chunk.invalid()) }));
        }
    }
    // Neighbouring invalid runs of one legacy text read better as one segment.
    let mut merged: Vec<Json> = Vec::with_capacity(segs.len());
    for seg in segs {
        match (merged.last_mut(), &seg) {
            (Some(Json::Object(prev)), Json::Object(cur)) => {
                let joined = format!(
                    "{}{}",
                    prev["bytes"].as_str().unwrap_or_default(),
                    cur["bytes"].as_str().unwrap_or_default()
                );
                prev.insert("bytes".into(), json!(joined));
            }
            _ => merged.push(seg),
        }
    }
    Json::Array(merged)
}

/// Undoes [`text_json`].
fn json_bytes(j: &Json, at: &str) -> Result<Vec<u8>, String> {
    match j {
        Json::String(s) => Ok(s.as_bytes().to_vec()),
        Json::Array(segs) => {
            let mut out = Vec::new();
            for (i, seg) in segs.iter().enumerate() {
                match seg {
                    Json::String(s) => out.extend_from_slice(s.as_bytes()),
                    _ => {
                        let hex = seg.get("bytes").and_then(Json::as_str).ok_or_else(|| {
                            format!("{at}[{i}]: expected a string or {{\"bytes\": hex}}")
                        })?;
                        let b = gmkit_value::ds::hex::decode_prefix(hex.as_bytes());
                        if 2 * b.len() != hex.len() {
                            return Err(format!("{at}[{i}].bytes: expected pairs of hex digits"));
                        }
                        out.extend_from_slice(&b);
                    }
                }
            }
            Ok(out)
        }
        _ => Err(format!(
            "{at}: expected a string or a list of strings and {{\"bytes\": hex}}"
        )),
    }
}

/// Decodes the bytes of an .ini file to the JSON document. Any bytes are accepted: text in a
/// legacy code page is kept byte for byte (see [`text_json`]).
pub fn ini_to_json(text: &[u8]) -> Json {
    let lines = split_lines(text);
    let line_ending = lines
        .iter()
        .map(|l| l.1)
        .find(|e| !e.is_empty())
        .unwrap_or("\r\n");
    let items: Vec<Json> = lines
        .iter()
        .map(|&(line, eol)| {
            let mut m = parse_line(line);
            if eol != line_ending {
                m.insert("eol".into(), json!(eol));
            }
            Json::Object(m)
        })
        .collect();
    json!({ "line_ending": line_ending, "lines": items })
}

fn trim_start(b: &[u8]) -> &[u8] {
    let n = b.iter().take_while(|c| c.is_ascii_whitespace()).count();
    &b[n..]
}

fn trim_end(b: &[u8]) -> &[u8] {
    let n = b
        .iter()
        .rev()
        .take_while(|c| c.is_ascii_whitespace())
        .count();
    &b[..b.len() - n]
}

fn parse_line(line: &[u8]) -> Map<String, Json> {
    let mut m = Map::new();
    let t = trim_start(line);
    if t.starts_with(b"[")
        && let (Some(open), Some(close)) = (
            line.iter().position(|&c| c == b'['),
            line.iter().rposition(|&c| c == b']'),
        )
        && open < close
    {
        m.insert("section".into(), text_json(&line[open + 1..close]));
        m.insert("prefix".into(), text_json(&line[..=open]));
        m.insert("suffix".into(), text_json(&line[close..]));
        return m;
    }
    let eq = match line.iter().position(|&c| c == b'=') {
        Some(eq) if !t.starts_with(b";") && !t.starts_with(b"#") => eq,
        _ => {
            m.insert("raw".into(), text_json(line));
            return m;
        }
    };
    let rest = &line[eq + 1..];
    let lead = rest.len() - trim_start(rest).len();
    let body = trim_end(trim_start(rest));
    let (start, end) = if body.len() >= 2 && body.starts_with(b"\"") && body.ends_with(b"\"") {
        (eq + 1 + lead + 1, eq + 1 + lead + body.len() - 1)
    } else {
        (eq + 1 + lead, eq + 1 + lead + body.len())
    };
    let value = &line[start..end];
    m.insert("key".into(), text_json(trim_end(trim_start(&line[..eq]))));
    m.insert("prefix".into(), text_json(&line[..start]));
    m.insert("suffix".into(), text_json(&line[end..]));
    match std::str::from_utf8(value)
        .ok()
        .map(|v| (v, ds::decode(v, None)))
    {
        Some((value, Ok(d))) => {
            m.insert("ds".into(), ds_data_to_tagged_json(&d));
            m.insert("original".into(), json!(value));
            let has_lower = value.bytes().any(|c| c.is_ascii_lowercase());
            let has_upper = value.bytes().any(|c| c.is_ascii_uppercase());
            if has_lower && !has_upper {
                m.insert("hex_case".into(), json!("lower"));
            }
        }
        _ => {
            m.insert("value".into(), text_json(value));
        }
    }
    m
}

/// Encodes the JSON document back to the bytes of the .ini file.
pub fn json_to_ini(doc: &Json) -> Result<Vec<u8>, String> {
    let line_ending = doc
        .get("line_ending")
        .and_then(Json::as_str)
        .ok_or("expected a \"line_ending\" string at $.line_ending")?;
    let lines = doc
        .get("lines")
        .and_then(Json::as_array)
        .ok_or("expected a \"lines\" array at $.lines")?;
    let mut out = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        let at = format!("$.lines[{i}]");
        let s = |k: &str| -> Result<Vec<u8>, String> {
            match l.get(k) {
                None => Ok(Vec::new()),
                Some(v) => json_bytes(v, &format!("{at}.{k}")),
            }
        };
        if l.get("raw").is_some() {
            out.extend(s("raw")?);
        } else {
            out.extend(s("prefix")?);
            if l.get("section").is_some() {
                out.extend(s("section")?);
            } else if let Some(dsj) = l.get("ds") {
                out.extend(
                    ds_text(l, dsj)
                        .map_err(|e| format!("{at}.ds: {e}"))?
                        .into_bytes(),
                );
            } else if l.get("value").is_some() {
                out.extend(s("value")?);
            } else {
                return Err(format!(
                    "{at}: expected \"raw\", \"section\", \"value\" or \"ds\""
                ));
            }
            out.extend(s("suffix")?);
        }
        match l.get("eol") {
            None => out.extend_from_slice(line_ending.as_bytes()),
            Some(e) => out.extend_from_slice(
                e.as_str()
                    .ok_or(format!("{at}.eol: expected a string"))?
                    .as_bytes(),
            ),
        }
    }
    Ok(out)
}

/// The text of a ds value: the original while it still decodes to the same data, else the
/// re-encoded data.
fn ds_text(line: &Json, dsj: &Json) -> Result<String, String> {
    let data = ds_data_from_tagged_json(dsj).map_err(|e| e.to_string())?;
    if let Some(orig) = line.get("original").and_then(Json::as_str)
        && ds::decode(orig, None).is_ok_and(|d| d == data)
    {
        return Ok(orig.to_owned());
    }
    let hex = ds::encode_with(&data, &Default::default()).map_err(|e| e.to_string())?;
    Ok(match line.get("hex_case").and_then(Json::as_str) {
        Some("lower") => hex.to_ascii_lowercase(),
        _ => hex,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_odd_files() {
        for text in [
            "",
            "\n",
            "[a]\r\nk=\"2F01000000000000\"\r\nx = 1 \nlast",
            "\u{feff}[s]\n;c\nk=\"2f01000000000000\"\nq=\"\"\nbad=\"93010000\"\n",
            "k=\"2F01000000000000zz\"\r\n[broken\n=\n",
        ] {
            let j = ini_to_json(text.as_bytes());
            assert_eq!(json_to_ini(&j).unwrap(), text.as_bytes(), "{j}");
        }
    }

    #[test]
    fn edited_value_is_reencoded() {
        let text = "[s]\nk=\"2f01000000000000\"\n";
        let mut j = ini_to_json(text.as_bytes());
        j["lines"][1]["ds"] = json!({"list": [{"real": 1}]});
        assert_eq!(
            json_to_ini(&j).unwrap(),
            b"[s]\nk=\"2f0100000100000000000000000000000000f03f\"\n"
        );
    }

    /// An .ini written by an old Windows runner in the system code page (here Big5, with a
    /// trail byte 0x5D that is `]` in ASCII, and Windows-1252) keeps every byte.
    #[test]
    fn legacy_code_pages_round_trip_byte_for_byte() {
        let big5: &[u8] = b"[\xAA\xB1\xAEa]\r\nname=\"\xA4\xA4\xA4\xE5\xA6\x5D\"\r\nlist=\"2F01000000000000\"\r\n";
        let cp1252: &[u8] = b"[Spieler]\nname=J\xF6rg \x80\nnote=caf\xE9 \xE2\x82\xAC\n";
        for text in [big5, cp1252] {
            let j = ini_to_json(text);
            assert_eq!(json_to_ini(&j).unwrap(), text, "{j}");
            // still parsed: the ds value is expanded, text kept as readable as possible
            let back = serde_json::to_string(&j).unwrap();
            assert!(back.contains("\"bytes\""), "{back}");
        }
        let j = ini_to_json(big5);
        assert_eq!(j["lines"][2]["ds"], json!({"list": []}));
        // 0x5D after an incomplete sequence is valid text (`]`) again
        assert_eq!(
            j["lines"][1]["value"],
            json!([{"bytes": "A4A4A4E5A6"}, "]"])
        );
        let j = ini_to_json(cp1252);
        assert_eq!(
            j["lines"][2]["value"],
            json!(["caf", {"bytes": "E9"}, " €"])
        );
    }
}
