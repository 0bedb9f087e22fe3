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
    let text = match String::from_utf8(bytes) {
        Ok(t) => t,
        Err(e) => {
            return fail(
                "decode",
                exit::FAILED,
                &format!("{}: not UTF-8: {e}", a.input),
            );
        }
    };
    crate::io::print_json(&ini_to_json(&text), a.compact)
}

fn encode(a: EncodeArgs) -> u8 {
    let doc = match crate::io::read_json(&a.input) {
        Ok(j) => j,
        Err((code, e)) => return fail("encode", code, &e),
    };
    let text = match json_to_ini(&doc) {
        Ok(t) => t,
        Err(e) => return fail("encode", exit::FAILED, &e),
    };
    match a.output {
        Some(path) => {
            let verify = |back: &[u8]| {
                if back != text.as_bytes() {
                    return Err("the file read back differs from what was written".into());
                }
                // the written file decodes to a document that encodes to the same text
                let again = json_to_ini(&ini_to_json(&text))?;
                if again == text {
                    Ok(())
                } else {
                    Err("the written file does not re-encode identically".into())
                }
            };
            match write_atomic(&path, text.as_bytes(), verify) {
                Ok(()) => exit::OK,
                Err(e) => fail("encode", exit::IO, &e),
            }
        }
        None => {
            use std::io::Write;
            let mut out = std::io::stdout().lock();
            match out.write_all(text.as_bytes()).and_then(|_| out.flush()) {
                Ok(()) => exit::OK,
                Err(e) => fail("encode", exit::IO, &e.to_string()),
            }
        }
    }
}

/// Splits text into lines with their terminators (`"\r\n"`, `"\n"` or `""` for the last).
fn split_lines(text: &str) -> Vec<(&str, &str)> {
    let mut out = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        match rest.find('\n') {
            Some(i) => {
                let line = &rest[..i];
                let (line, eol) = match line.strip_suffix('\r') {
                    Some(l) => (l, "\r\n"),
                    None => (line, "\n"),
                };
                out.push((line, eol));
                rest = &rest[i + 1..];
            }
            None => {
                out.push((rest, ""));
                rest = "";
            }
        }
    }
    out
}

/// Decodes an .ini text to the JSON document.
pub fn ini_to_json(text: &str) -> Json {
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

fn parse_line(line: &str) -> Map<String, Json> {
    let mut m = Map::new();
    let t = line.trim_start();
    if t.starts_with('[')
        && let (Some(open), Some(close)) = (line.find('['), line.rfind(']'))
        && open < close
    {
        m.insert("section".into(), json!(&line[open + 1..close]));
        m.insert("prefix".into(), json!(&line[..=open]));
        m.insert("suffix".into(), json!(&line[close..]));
        return m;
    }
    let eq = match line.find('=') {
        Some(eq) if !t.starts_with(';') && !t.starts_with('#') => eq,
        _ => {
            m.insert("raw".into(), json!(line));
            return m;
        }
    };
    let rest = &line[eq + 1..];
    let lead = rest.len() - rest.trim_start().len();
    let body = rest.trim();
    let (start, end) = if body.len() >= 2 && body.starts_with('"') && body.ends_with('"') {
        (eq + 1 + lead + 1, eq + 1 + lead + body.len() - 1)
    } else {
        (eq + 1 + lead, eq + 1 + lead + body.len())
    };
    let value = &line[start..end];
    m.insert("key".into(), json!(line[..eq].trim()));
    m.insert("prefix".into(), json!(&line[..start]));
    m.insert("suffix".into(), json!(&line[end..]));
    match ds::decode(value, None) {
        Ok(d) => {
            m.insert("ds".into(), ds_data_to_tagged_json(&d));
            m.insert("original".into(), json!(value));
            let has_lower = value.bytes().any(|c| c.is_ascii_lowercase());
            let has_upper = value.bytes().any(|c| c.is_ascii_uppercase());
            if has_lower && !has_upper {
                m.insert("hex_case".into(), json!("lower"));
            }
        }
        Err(_) => {
            m.insert("value".into(), json!(value));
        }
    }
    m
}

/// Encodes the JSON document back to .ini text.
pub fn json_to_ini(doc: &Json) -> Result<String, String> {
    let line_ending = doc
        .get("line_ending")
        .and_then(Json::as_str)
        .ok_or("expected a \"line_ending\" string at $.line_ending")?;
    let lines = doc
        .get("lines")
        .and_then(Json::as_array)
        .ok_or("expected a \"lines\" array at $.lines")?;
    let mut out = String::new();
    for (i, l) in lines.iter().enumerate() {
        let at = format!("$.lines[{i}]");
        let s = |k: &str| -> Result<&str, String> {
            match l.get(k) {
                None => Ok(""),
                Some(v) => v
                    .as_str()
                    .ok_or_else(|| format!("{at}.{k}: expected a string")),
            }
        };
        if let Some(raw) = l.get("raw") {
            out.push_str(raw.as_str().ok_or(format!("{at}.raw: expected a string"))?);
        } else {
            out.push_str(s("prefix")?);
            if l.get("section").is_some() {
                out.push_str(s("section")?);
            } else if let Some(dsj) = l.get("ds") {
                out.push_str(&ds_text(l, dsj).map_err(|e| format!("{at}.ds: {e}"))?);
            } else if l.get("value").is_some() {
                out.push_str(s("value")?);
            } else {
                return Err(format!(
                    "{at}: expected \"raw\", \"section\", \"value\" or \"ds\""
                ));
            }
            out.push_str(s("suffix")?);
        }
        match l.get("eol") {
            None => out.push_str(line_ending),
            Some(e) => out.push_str(e.as_str().ok_or(format!("{at}.eol: expected a string"))?),
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
    let hex = ds::try_encode(&data, &Default::default()).map_err(|e| e.to_string())?;
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
            let j = ini_to_json(text);
            assert_eq!(json_to_ini(&j).unwrap(), text, "{j}");
        }
    }

    #[test]
    fn edited_value_is_reencoded() {
        let text = "[s]\nk=\"2f01000000000000\"\n";
        let mut j = ini_to_json(text);
        j["lines"][1]["ds"] = json!({"list": [{"real": 1}]});
        assert_eq!(
            json_to_ini(&j).unwrap(),
            "[s]\nk=\"2f0100000100000000000000000000000000f03f\"\n"
        );
    }
}
