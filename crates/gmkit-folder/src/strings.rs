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
use gmkit_data::chunks::code::asm::{quote, string_operand};
use gmkit_data::chunks::code::{Instruction, PushValue};
use gmkit_data::chunks::string_table::Strings;
use gmkit_data::serde_support::{from_hex, to_hex};
use gmkit_data::{DataFile, GmString, StringRef};
use serde_json::Value;
use std::collections::HashMap;

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

/// Key, in the manifest's `"strings"` section, of the record that lets unchanged code follow
/// `strings.json`: `"INDEX:HASH INDEX:HASH ..."`, one item per entry that code pushes as a
/// string constant, HASH being the FNV-1a 64-bit hash ([`crate::gml::fnv1a64`]) of the entry's
/// bytes as unpacked. See `docs/translation.md`.
pub const CODE_TEXTS: &str = "code_texts_fnv1a64";

/// The [`CODE_TEXTS`] record of `file`: every entry a root code entry pushes (`push.s`), in
/// index order. `None` when the file has no code or no string table.
pub fn code_texts_record(file: &DataFile) -> Option<String> {
    let strings = file.strings.as_ref()?;
    let code = file.code.as_ref()?;
    let mut pushed = vec![false; strings.len()];
    for e in &code.entries {
        let Some(Ok(ins)) = e.body.instructions() else {
            continue;
        };
        for i in ins.iter() {
            if let Instruction::Push {
                value: PushValue::String(s),
                ..
            } = i
                && let Some(p) = pushed.get_mut(s.index())
            {
                *p = true;
            }
        }
    }
    let mut out = String::new();
    for (i, e) in strings.iter().enumerate() {
        if pushed[i] {
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(&i.to_string());
            out.push(':');
            out.push_str(&crate::gml::fnv1a64(e.as_bytes()));
        }
    }
    Some(out)
}

/// What pack needs so that code left as unpacked pushes the entries of `strings.json` as edited
/// (`strings.json` is the table; a code file names its strings by text, as they were unpacked).
///
/// Built from the [`CODE_TEXTS`] record and the table as read: an entry the record lists whose
/// text no longer has its recorded hash is *changed*. An unchanged `.asm` naming the old text is
/// then rewritten, before assembly, to name the entry by index (`"new text"#12`), so the code
/// pushes the edited entry; every other user of the old text (a name in a JSON file, a variable,
/// function or asset name) names it by text and gets an entry with the old text (the shared
/// entry is split: the text keeps the index, the identifiers move to an entry of their own).
#[derive(Debug)]
pub(crate) struct Follow {
    /// Original hash → the first recorded entry that had it.
    first: HashMap<u64, u32>,
    /// Original hash of each recorded entry.
    recorded: HashMap<u32, u64>,
    /// Changed entries' texts as edited (absent: the entry was removed from the table).
    changed: HashMap<u32, Option<GmString>>,
}

fn fnv(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

impl Follow {
    /// Reads the record (`file` and `field` name it in errors) against the table as edited.
    /// `None` when no recorded entry changed: every code file assembles as it is.
    pub(crate) fn new(
        file: &str,
        field: &str,
        record: &str,
        table: &Strings,
    ) -> Result<Option<Follow>> {
        let mut first = HashMap::new();
        let mut recorded = HashMap::new();
        let mut changed = HashMap::new();
        for item in record.split_ascii_whitespace() {
            let parsed = item.split_once(':').and_then(|(i, h)| {
                Some((
                    i.parse::<u32>().ok()?,
                    (h.len() == 16).then(|| u64::from_str_radix(h, 16).ok())??,
                ))
            });
            let Some((i, h)) = parsed else {
                return Err(Error::new(
                    file,
                    field,
                    format!(
                        "expected INDEX:HASH items (16 hex digits), found {}",
                        crate::quote(item)
                    ),
                ));
            };
            first.entry(h).or_insert(i);
            recorded.insert(i, h);
            match table.get(StringRef(i)) {
                Some(t) if fnv(t.as_bytes()) == h => {}
                Some(t) => {
                    changed.insert(i, Some(GmString(t.as_bytes().to_vec().into())));
                }
                None => {
                    changed.insert(i, None);
                }
            }
        }
        Ok((!changed.is_empty()).then_some(Follow {
            first,
            recorded,
            changed,
        }))
    }

    /// The entries changed in `strings.json` (index order).
    #[cfg(test)]
    pub(crate) fn changed(&self) -> Vec<u32> {
        let mut v: Vec<u32> = self.changed.keys().copied().collect();
        v.sort_unstable();
        v
    }

    /// `asm` (an unchanged `.asm` text) with every string constant naming its entry by index
    /// when one of them pushes a changed entry (`None`: the text pushes none, keep it as is).
    /// The entries are those the disassembler meant: `"text"` the entry the text last stood for
    /// in this text, else the first entry that had the text; `"text"#N` entry N.
    pub(crate) fn rewrite(&self, asm: &str) -> Option<String> {
        // (byte range of the operand in `asm`, entry) of every `push.s`.
        let mut ops: Vec<(usize, usize, u32)> = Vec::new();
        let mut bound: HashMap<Vec<u8>, u32> = HashMap::new();
        let mut any = false;
        let mut at = 0;
        for line in asm.split_inclusive('\n') {
            let start = at;
            at += line.len();
            let body = line.trim_start();
            let lead = line.len() - body.len();
            let (push, rest) = if let Some(r) = body.strip_prefix("push.s") {
                (true, r)
            } else if let Some(p) = body.find("[by-name]") {
                (false, &body[p + "[by-name]".len()..])
            } else {
                continue;
            };
            let op = rest.trim_start();
            let op_at = start + lead + (body.len() - rest.len()) + (rest.len() - op.len());
            let Some((text, id, len)) = string_operand(op) else {
                continue;
            };
            let entry = match (&text, id) {
                (None, _) => None,
                (Some(t), Some(n)) if self.recorded.get(&n) == Some(&fnv(t)) => Some(n),
                (Some(t), _) => bound
                    .get(t)
                    .copied()
                    .or_else(|| self.first.get(&fnv(t)).copied()),
            };
            let (Some(t), Some(e)) = (text, entry) else {
                continue;
            };
            bound.insert(t, e);
            if push {
                any |= self.changed.contains_key(&e);
                ops.push((op_at, op_at + len, e));
            }
        }
        if !any {
            return None;
        }
        let mut out = String::with_capacity(asm.len() + ops.len() * 8);
        let mut last = 0;
        for (from, to, e) in ops {
            let text = match self.changed.get(&e) {
                Some(Some(t)) => t.as_bytes().to_vec(),
                // Removed from the table: the old text, as written, adds an entry.
                Some(None) => continue,
                None => match string_operand(&asm[from..to]) {
                    Some((Some(t), _, _)) => t,
                    _ => continue,
                },
            };
            out.push_str(&asm[last..from]);
            quote(&mut out, &text);
            out.push('#');
            out.push_str(&e.to_string());
            last = to;
        }
        out.push_str(&asm[last..]);
        Some(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(texts: &[&str]) -> Strings {
        let mut s = Strings::default();
        for t in texts {
            s.push(GmString::from(t.to_string()));
        }
        s
    }

    fn record(texts: &[&str], pushed: &[u32]) -> String {
        pushed
            .iter()
            .map(|&i| format!("{i}:{:016x}", fnv(texts[i as usize].as_bytes())))
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn unchanged_table_needs_nothing() {
        let t = ["a", "Hello", "x"];
        let f = Follow::new("m", "k", &record(&t, &[1]), &table(&t)).unwrap();
        assert!(f.is_none());
    }

    #[test]
    fn unchanged_code_names_the_edited_entry() {
        let old = ["a", "Hello", "Hello", "say \"hi\"\n"];
        let new = ["a", "Bonjour", "Hello", "dis \"salut\"\n"];
        let f = Follow::new("m", "k", &record(&old, &[1, 2, 3]), &table(&new))
            .unwrap()
            .unwrap();
        assert_eq!(f.changed(), vec![1, 3]);
        let asm = "push.s \"Hello\"\ncall.i f(argc=1)\n  push.s \"Hello\"#2 ; c\npush.s \"Hello\"\npush.s \"say \\\"hi\\\"\\n\"\n";
        let out = f.rewrite(asm).unwrap();
        assert_eq!(
            out,
            "push.s \"Bonjour\"#1\ncall.i f(argc=1)\n  push.s \"Hello\"#2 ; c\npush.s \"Hello\"#2\npush.s \"dis \\\"salut\\\"\\n\"#3\n"
        );
    }

    #[test]
    fn code_pushing_no_changed_entry_is_kept() {
        let old = ["a", "Hello", "Bye"];
        let new = ["a", "Bonjour", "Bye"];
        let f = Follow::new("m", "k", &record(&old, &[1, 2]), &table(&new))
            .unwrap()
            .unwrap();
        assert!(f.rewrite("push.s \"Bye\"\npush.s \"a\"\n").is_none());
    }

    #[test]
    fn a_bad_record_is_one_line() {
        let e = Follow::new("manifest.json", "strings.k", "1:zz", &table(&["a", "b"])).unwrap_err();
        assert!(e.to_string().contains("INDEX:HASH"), "{e}");
    }

    #[test]
    fn newlines_quotes_and_bytes_survive_the_json() {
        let mut t = table(&["line 1\nline 2", "say \"hi\" \\ ✓", "tab\there"]);
        t.push(GmString(b"\xff\x00raw".to_vec().into()));
        let json = to_json(&t);
        let back = from_json("strings.json", &json, t.aligned, t.end_align).unwrap();
        assert_eq!(back, t);
        let e = parse_entries("fr.json", br#"{"1": "dit \"salut\"\n"}"#).unwrap();
        assert_eq!(e[0].1.as_bytes(), b"dit \"salut\"\n");
    }

    #[test]
    fn tokens_parse_every_escape() {
        assert_eq!(
            string_operand("\"a\\x41\\t\"#7 ; x"),
            Some((Some(b"aA\t".to_vec()), Some(7), 11))
        );
        assert_eq!(string_operand("#3"), Some((None, Some(3), 2)));
        assert_eq!(string_operand("\"open"), None);
    }
}
