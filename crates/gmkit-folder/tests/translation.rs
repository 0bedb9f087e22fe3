//! Bar 3 of issue 18 (strings that translate), on every corpus file with code:
//!
//! - one visible text replaced in `strings.json` only: the packed game has the new text at the
//!   same index, every code entry's instructions are unchanged (so every entry that pushed the old
//!   text pushes the new one), and `diff` lists that string and no code change;
//! - the same text replaced over the whole folder (`strings.json`, every `.asm`, every `.gml`):
//!   the same game as the `strings.json` edit alone;
//! - the text edited in one `.gml` only: that entry alone changes (it pushes a new entry);
//! - a pushed text that is also a variable's name, translated in `strings.json`: the code
//!   pushes the new text, the variable keeps its name (the entry is split); `import --strings`
//!   of the same translation gives the same game.

use gmkit_data::DataFile;
use gmkit_data::chunks::code::{Instruction, PushValue};
use gmkit_folder::diff::diff;
use gmkit_folder::{Folder, Game, pack, unpack};
use gmkit_testdata::{corpus_all, need};
use rayon::prelude::*;
use std::collections::BTreeMap;

fn folder(data: DataFile) -> Folder {
    unpack(&Game {
        data,
        audio_groups: Vec::new(),
    })
    .expect("unpacks")
}

/// The root entries' instructions (child entries share their root's).
fn code(d: &DataFile) -> Vec<Option<Vec<Instruction>>> {
    let Some(c) = d.code.as_ref() else {
        return Vec::new();
    };
    (0..c.entries.len())
        .map(|i| {
            c.entries[i]
                .body
                .is_root()
                .then(|| c.instructions(i).map(|x| x.to_vec()).ok())
                .flatten()
        })
        .collect()
}

/// Indices of the STRG entries code pushes, with the entries pushing each.
fn pushed(d: &DataFile) -> BTreeMap<u32, Vec<usize>> {
    let mut out: BTreeMap<u32, Vec<usize>> = BTreeMap::new();
    for (e, ins) in code(d).iter().enumerate() {
        for i in ins.iter().flatten() {
            if let Instruction::Push {
                value: PushValue::String(s),
                ..
            } = i
            {
                let v = out.entry(s.0).or_default();
                if v.last() != Some(&e) {
                    v.push(e);
                }
            }
        }
    }
    out
}

fn json_quoted(s: &str) -> String {
    serde_json::to_string(s).unwrap()
}

/// `strings.json` with entry `i` set to `text`.
fn set_string(f: &mut Folder, i: u32, text: &str) {
    let mut v: serde_json::Value = serde_json::from_slice(f.get("strings.json").unwrap()).unwrap();
    v[i.to_string()] = text.into();
    f.insert("strings.json", serde_json::to_vec_pretty(&v).unwrap());
}

fn packed(f: &Folder) -> Result<DataFile, String> {
    pack(f).map(|g| g.data).map_err(|e| format!("pack: {e}"))
}

/// Replaces `from` with `to` in every file whose path ends with `ext`; the number of files changed.
fn replace_all(f: &mut Folder, ext: &str, from: &str, to: &str) -> usize {
    let paths: Vec<String> = f
        .files
        .keys()
        .filter(|p| p.ends_with(ext))
        .cloned()
        .collect();
    let mut n = 0;
    for p in paths {
        let t = String::from_utf8_lossy(f.get(&p).unwrap()).into_owned();
        if t.contains(from) {
            f.insert(p, t.replace(from, to).into_bytes());
            n += 1;
        }
    }
    n
}

#[derive(Default, Debug)]
struct Outcome {
    visible: bool,
    reverse: bool,
    shared: bool,
}

/// A file's result: `None` when it has no code to translate.
type Checked = Result<Option<(gmkit_gml::Family, Outcome)>, String>;

fn check(name: &str, bytes: Vec<u8>) -> Checked {
    let Ok(data) = gmkit_data::parse_bytes(bytes) else {
        return Ok(None);
    };
    let family = gmkit_gml::Features::new(data.version).family();
    let before = code(&data);
    if before.iter().all(Option::is_none) {
        return Ok(None);
    }
    let strings = data.strings.as_ref().ok_or("no strings")?;
    let text = |i: u32| {
        strings
            .get(gmkit_data::StringRef(i))
            .and_then(|s| s.to_str().ok())
    };
    let pushes = pushed(&data);
    let a = folder(data.clone());
    let mut out = Outcome::default();

    // A visible text: plain characters, the only entry with its text, and a space in it (no
    // identifier has one) when some pushed text has one.
    let plain = |i: u32, space: bool| {
        text(i).is_some_and(|t| {
            (t.contains(' ') || !space)
                && t.len() >= 3
                && t.chars()
                    .all(|c| c.is_alphanumeric() || " .,!?:".contains(c))
                && strings
                    .iter()
                    .filter(|s| s.as_bytes() == t.as_bytes())
                    .count()
                    == 1
        })
    };
    let visible = pushes
        .keys()
        .copied()
        .find(|&i| plain(i, true))
        .or_else(|| pushes.keys().copied().find(|&i| plain(i, false)));
    if let Some(i) = visible {
        let old = text(i).unwrap().to_owned();
        let new = format!("{old} (tr) \"q\"\n2");
        let mut edited = a.clone();
        set_string(&mut edited, i, &new);
        let p = packed(&edited)?;
        let got = p.strings.as_ref().unwrap().get(gmkit_data::StringRef(i));
        if got.map(|s| s.as_bytes()) != Some(new.as_bytes()) {
            return Err(format!("{name}: string {i} is {got:?} after the edit"));
        }
        if code(&p) != before {
            return Err(format!(
                "{name}: code changed after editing string {i} in strings.json"
            ));
        }
        gmkit_data::build_bytes(&p).map_err(|e| format!("{name}: build: {e}"))?;
        let changes: Vec<String> = diff(&a, &folder(p.clone()))
            .iter()
            .map(ToString::to_string)
            .collect();
        if !changes
            .iter()
            .any(|c| c.starts_with(&format!("string {i}:")))
            || changes.iter().any(|c| c.starts_with("code "))
        {
            return Err(format!(
                "{name}: diff after editing string {i}: {changes:?}"
            ));
        }
        // The same edit as a search-and-replace over the whole folder (plain text: GML before
        // 2.3 has no escapes in strings).
        let plain = format!("{old} tr");
        let mut alone = a.clone();
        set_string(&mut alone, i, &plain);
        let p = packed(&alone)?;
        let mut all = a.clone();
        set_string(&mut all, i, &plain);
        let (q_old, q_new) = (json_quoted(&old), json_quoted(&plain));
        let asm = replace_all(&mut all, ".asm", &q_old, &q_new);
        let gml = replace_all(&mut all, ".gml", &q_old, &q_new);
        if asm == 0 {
            return Err(format!("{name}: no .asm pushes {q_old}"));
        }
        let q = packed(&all)?;
        if gmkit_data::build_bytes(&q).ok() != gmkit_data::build_bytes(&p).ok() {
            return Err(format!(
                "{name}: replacing {q_old} in strings.json, {asm} .asm and {gml} .gml files gives another game than strings.json alone"
            ));
        }
        out.visible = true;

        // The reverse: the text edited in one .gml only changes that entry.
        let gml_path = a
            .files
            .iter()
            .find(|(p, b)| p.ends_with(".gml") && String::from_utf8_lossy(b).contains(&q_old))
            .map(|(p, _)| p.clone());
        if let Some(path) = gml_path {
            let mut one = a.clone();
            let t = String::from_utf8_lossy(one.get(&path).unwrap()).replacen(
                &q_old,
                &json_quoted("Hola, mundo"),
                1,
            );
            one.insert(path.clone(), t.into_bytes());
            let r = packed(&one)?;
            let after = code(&r);
            let changed: Vec<usize> = (0..before.len())
                .filter(|&k| after.get(k) != before.get(k))
                .collect();
            let rs = r.strings.as_ref().unwrap();
            if changed.len() != 1
                || rs.get(gmkit_data::StringRef(i)).map(|s| s.as_bytes()) != Some(old.as_bytes())
                || rs.find("Hola, mundo").is_none()
            {
                return Err(format!(
                    "{name}: editing {q_old} in {path} changed entries {changed:?}"
                ));
            }
            out.reverse = true;
        }
    }

    // A pushed text that is also a variable's name: the variable keeps it.
    let vars: Vec<u32> = data
        .variables
        .as_ref()
        .map(|v| v.variables.iter().map(|x| x.name.0).collect())
        .unwrap_or_default();
    if let Some(&i) = pushes.keys().find(|i| vars.contains(i)) {
        let old = text(i).unwrap_or_default().to_owned();
        let mut edited = a.clone();
        set_string(&mut edited, i, "translated text");
        let p = packed(&edited)?;
        gmkit_data::build_bytes(&p).map_err(|e| format!("{name}: build: {e}"))?;
        if code(&p) != before {
            return Err(format!("{name}: code changed after translating shared {i}"));
        }
        let ps = p.strings.as_ref().unwrap();
        let var_names: Vec<_> = p
            .variables
            .as_ref()
            .unwrap()
            .variables
            .iter()
            .enumerate()
            .filter(|(k, _)| vars[*k] == i)
            .map(|(_, v)| ps.get(v.name).map(|s| s.to_string_lossy().into_owned()))
            .collect();
        if ps.get(gmkit_data::StringRef(i)).map(|s| s.as_bytes()) != Some(&b"translated text"[..])
            || var_names.iter().any(|n| n.as_deref() != Some(old.as_str()))
        {
            return Err(format!(
                "{name}: translating shared string {i} ({old:?}): variables now named {var_names:?}"
            ));
        }
        // `import --strings` splits the entry the same way: the same game.
        let mut imported = data.clone();
        let json = format!("{{\"{i}\": \"translated text\"}}");
        gmkit_folder::import::strings(&mut imported, "tr.json", json.as_bytes())
            .map_err(|e| format!("{name}: import: {e}"))?;
        if gmkit_data::build_bytes(&imported).ok() != gmkit_data::build_bytes(&p).ok() {
            return Err(format!(
                "{name}: import --strings of shared string {i} gives another game than the folder"
            ));
        }
        out.shared = true;
    }
    Ok(Some((family, out)))
}

#[test]
fn strings_json_edits_follow_into_code() {
    let files = need!(corpus_all());
    let results: Vec<(String, Checked)> = files
        .into_par_iter()
        .map(|(name, bytes)| {
            let r = check(&name, bytes);
            (name, r)
        })
        .collect();
    let mut failures = Vec::new();
    let mut per_family: BTreeMap<&str, [usize; 4]> = BTreeMap::new();
    for (name, r) in &results {
        match r {
            Err(e) => failures.push(e.clone()),
            Ok(None) => {}
            Ok(Some((fam, o))) => {
                let c = per_family.entry(fam.label()).or_default();
                c[0] += 1;
                c[1] += o.visible as usize;
                c[2] += o.reverse as usize;
                c[3] += o.shared as usize;
                eprintln!("{name}: {o:?}");
            }
        }
    }
    for (fam, c) in &per_family {
        eprintln!(
            "{fam}: {} files with code; visible text edited {}, one .gml edited {}, shared entry split {}",
            c[0], c[1], c[2], c[3]
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(per_family.values().map(|c| c[1]).sum::<usize>() > 0);
    assert!(per_family.values().map(|c| c[3]).sum::<usize>() > 0);
    // Every family with code has a file where a translation was exercised.
    for (fam, c) in &per_family {
        assert!(c[1] > 0, "{fam}: no file exercised a translation");
    }
}
