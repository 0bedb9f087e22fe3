//! `strings.json`: the string table as an object from index to text, in index order.
//!
//! ```json
//! {
//!   "0": "prototype",
//!   "1": "Hello",
//!   "2": {"bytes": "ff00"}
//! }
//! ```
//! An entry whose bytes are not UTF-8 is written `{"bytes": "<hex>"}`. Keys must be `0..n`
//! without gaps; adding key `n` adds an entry.

use crate::error::{Error, Result};
use gmkit_data::GmString;
use gmkit_data::chunks::string_table::Strings;
use gmkit_data::serde_support::{from_hex, to_hex};
use serde_json::Value;

/// Renders the table.
pub fn to_json(s: &Strings) -> Vec<u8> {
    let mut out = String::with_capacity(s.len() * 24 + 4);
    out.push_str("{\n");
    let n = s.len();
    for (i, e) in s.iter().enumerate() {
        out.push_str("  \"");
        out.push_str(&i.to_string());
        out.push_str("\": ");
        match e.to_str() {
            Ok(t) => out.push_str(&serde_json::to_string(t).unwrap_or_default()),
            Err(_) => {
                out.push_str("{\"bytes\": \"");
                out.push_str(&to_hex(e.as_bytes()));
                out.push_str("\"}");
            }
        }
        if i + 1 < n {
            out.push(',');
        }
        out.push('\n');
    }
    out.push_str("}\n");
    out.into_bytes()
}

/// Reads entries `index → text` from a strings JSON document (`file` names it in errors).
/// The indices are returned sorted; they need not be contiguous.
pub fn parse_entries(file: &str, bytes: &[u8]) -> Result<Vec<(u32, GmString)>> {
    let v: Value = serde_json::from_slice(bytes)
        .map_err(|e| Error::new(file, "", format!("expected JSON: {e}")))?;
    let Value::Object(map) = v else {
        return Err(Error::new(
            file,
            "",
            "expected an object from string index to text",
        ));
    };
    let mut out = Vec::with_capacity(map.len());
    for (k, v) in map {
        let i: u32 = k
            .parse()
            .map_err(|_| Error::new(file, &k, "expected a string index (a number) as key"))?;
        let s = match v {
            Value::String(t) => GmString::from(t),
            Value::Object(o) => match o.get("bytes").and_then(Value::as_str).and_then(from_hex) {
                Some(b) => GmString(b.into()),
                None => {
                    return Err(Error::new(
                        file,
                        &k,
                        "expected text or {\"bytes\": \"<hex>\"}",
                    ));
                }
            },
            _ => {
                return Err(Error::new(
                    file,
                    &k,
                    "expected text or {\"bytes\": \"<hex>\"}",
                ));
            }
        };
        out.push((i, s));
    }
    out.sort_by_key(|e| e.0);
    Ok(out)
}

/// Reads the whole table (keys `0..n`, no gap).
pub fn from_json(file: &str, bytes: &[u8], aligned: bool, end_align: usize) -> Result<Strings> {
    let entries = parse_entries(file, bytes)?;
    let mut s = Strings::default();
    s.aligned = aligned;
    s.end_align = end_align;
    for (n, (i, e)) in entries.into_iter().enumerate() {
        if i as usize != n {
            return Err(Error::new(
                file,
                i.to_string(),
                format!("expected string index {n} next (indices run from 0 without gaps)"),
            ));
        }
        s.push(e);
    }
    Ok(s)
}
