//! GMS2 projects (`.yyp`): one folder per asset with a `.yy` description (JSON; 2.3+ writes
//! trailing commas) and the code as `.gml` files: object events `objects/O/<Event>_<n>.gml`,
//! scripts `scripts/S/S.gml`, room creation code `rooms/R/RoomCreationCode.gml` and instance
//! creation code `rooms/R/InstanceCreationCode_<inst>.gml`.
//!
//! GMS2 before 2.3 names a collision event's file after the event's own GUID, while the code
//! entry is named after the other object's GUID (`collisionObjectId`, dashes as underscores);
//! 2.3+ uses the other object's name in both.

use super::{CodeUnit, Format, Project, ProjectContext, ProjectError, ProjectFolder};
use serde_json::Value;
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

/// Reads a `.yyp` project.
pub fn read(dir: &ProjectFolder, yyp: &Path, cx: &ProjectContext) -> Result<Project, ProjectError> {
    let yyp_text = dir.read_text(yyp)?;
    let v23 = yyp_text.contains("\"resourceVersion\"") || yyp_text.contains("$GMProject");
    let mut out = Project {
        format: Some(if v23 { Format::Yy23 } else { Format::Yy2 }),
        ..Project::default()
    };
    let names = listed_names(&yyp_text);
    let listed = |name: &str| names.contains(name);
    for (name, folder) in subfolders(&dir.join("scripts")) {
        if !listed(&name) {
            continue;
        }
        let path = folder.join(format!("{name}.gml"));
        if let Ok(text) = dir.read_text(&path) {
            out.units.push(unit(
                if v23 {
                    format!("gml_GlobalScript_{name}")
                } else {
                    format!("gml_Script_{name}")
                },
                path,
                text,
            ));
        }
    }
    let objects: Vec<(String, PathBuf, Option<Value>)> = subfolders(&dir.join("objects"))
        .into_iter()
        .filter(|(name, _)| listed(name))
        .map(|(name, folder)| {
            let desc = dir
                .read_text(&folder.join(format!("{name}.yy")))
                .ok()
                .and_then(|t| lenient_json(&t));
            (name, folder, desc)
        })
        .collect();
    // Object variables ("properties") by name: their type decides how an override is written.
    let mut var_types: HashMap<String, i64> = HashMap::new();
    for (_, _, desc) in &objects {
        for p in props(desc.as_ref(), "properties") {
            if let (Some(n), Some(t)) = (prop_name(p), p.get("varType").and_then(Value::as_i64)) {
                var_types.entry(n.to_string()).or_insert(t);
            }
        }
    }
    for (name, folder, desc) in &objects {
        let pre = format!("gml_Object_{name}_PreCreate_0");
        if cx.has_entry(&pre) {
            let mut text = String::from("event_inherited();\n");
            for key in ["properties", "overriddenProperties"] {
                for p in props(desc.as_ref(), key) {
                    if let Some(line) = property_line(p, &var_types) {
                        text.push_str(&line);
                    }
                }
            }
            out.units
                .push(unit(pre, folder.join(format!("{name}.yy")), text));
        }
    }
    for (name, folder, desc) in objects {
        for (stem, path) in gml_files(&folder) {
            let event = match stem.strip_prefix("Collision_") {
                Some(id) if !v23 => match collision_object(desc.as_ref(), id) {
                    Some(other) => format!("Collision_{}", other.replace('-', "_")),
                    None => {
                        out.problems.push(format!(
                            "{}: no collision event with this id in {name}.yy",
                            path.display()
                        ));
                        continue;
                    }
                },
                _ => stem,
            };
            match dir.read_text(&path) {
                Ok(text) => out
                    .units
                    .push(unit(format!("gml_Object_{name}_{event}"), path, text)),
                Err(e) => out.problems.push(e.to_string()),
            }
        }
    }
    for (name, folder) in subfolders(&dir.join("rooms")) {
        if !listed(&name) {
            continue;
        }
        let rc = folder.join("RoomCreationCode.gml");
        if let Ok(text) = dir.read_text(&rc)
            && !text.trim().is_empty()
        {
            out.units
                .push(unit(format!("gml_Room_{name}_Create"), rc, text));
        }
        let desc = dir
            .read_text(&folder.join(format!("{name}.yy")))
            .ok()
            .and_then(|t| lenient_json(&t));
        let ids = cx.instance_ids(&name);
        let names = instance_names(desc.as_ref());
        if ids.len() == names.len() {
            out.instances.extend(names.into_iter().zip(ids));
        }
        let mut pre = cx.instance_code_entries(&name, true).into_iter();
        for (inst, overrides) in instances_with_properties(desc.as_ref()) {
            let mut text = String::new();
            for p in overrides {
                if let Some(line) = property_line(p, &var_types) {
                    text.push_str(&line);
                }
            }
            let entry = pre
                .next()
                .unwrap_or_else(|| format!("gml_RoomCC_{name}_{inst}_PreCreate"));
            out.units
                .push(unit(entry, folder.join(format!("{name}.yy")), text));
        }
        let mut entries = cx.instance_code_entries(&name, false).into_iter();
        for inst in instances_with_code(desc.as_ref()) {
            let path = folder.join(format!("InstanceCreationCode_{inst}.gml"));
            let Ok(text) = dir.read_text(&path) else {
                continue;
            };
            let entry = entries
                .next()
                .unwrap_or_else(|| format!("gml_RoomCC_{name}_{inst}_Create"));
            out.units.push(unit(entry, path, text));
        }
    }
    Ok(out)
}

fn unit(entry: String, file: PathBuf, text: String) -> CodeUnit {
    CodeUnit {
        entry,
        file,
        line: 1,
        text,
        unsupported: None,
    }
}

/// Sub-folders of `dir` by name, sorted.
fn subfolders(dir: &Path) -> Vec<(String, PathBuf)> {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut v: Vec<(String, PathBuf)> = rd
        .filter_map(|e| e.ok())
        .filter(|e| e.path().is_dir())
        .filter_map(|e| Some((e.file_name().to_str()?.to_string(), e.path())))
        .collect();
    v.sort();
    v
}

/// `*.gml` files of a folder by stem, sorted.
fn gml_files(dir: &Path) -> Vec<(String, PathBuf)> {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut v: Vec<(String, PathBuf)> = rd
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let n = e.file_name().to_str()?.to_string();
            let stem = n.strip_suffix(".gml")?.to_string();
            Some((stem, e.path()))
        })
        .collect();
    v.sort();
    v
}

/// The entries of array `key` of a `.yy` description.
fn props<'v>(desc: Option<&'v Value>, key: &str) -> impl Iterator<Item = &'v Value> {
    desc.and_then(|d| d.get(key))
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
}

/// A property's (object variable's) name: `name` (2.3+), `varName` (2.x), or the overridden
/// property's `propertyId.name`.
fn prop_name(p: &Value) -> Option<&str> {
    p.get("propertyId")
        .and_then(|i| i.get("name"))
        .or_else(|| p.get("varName"))
        .or_else(|| p.get("name"))
        .and_then(Value::as_str)
        .filter(|n| !n.is_empty())
}

/// The GML assignment GameMaker generates for an object variable or an override, in the
/// object's (or instance's) `PreCreate` code: `name = value;`. Strings (type 2) are quoted
/// when the IDE stored them bare (instance overrides); booleans (type 3) are `true`/`false`.
fn property_line(p: &Value, types: &HashMap<String, i64>) -> Option<String> {
    let name = prop_name(p)?;
    let raw = match p.get("value")? {
        Value::String(s) => s.clone(),
        v => v.to_string(),
    };
    let ty = p
        .get("varType")
        .and_then(Value::as_i64)
        .or_else(|| types.get(name).copied());
    let value = match ty {
        Some(2) if !raw.trim_start().starts_with('"') && !raw.trim_start().starts_with('@') => {
            format!("\"{}\"", raw.replace('\\', "\\\\").replace('"', "\\\""))
        }
        Some(3) => match raw.trim().to_ascii_lowercase().as_str() {
            "0" | "false" => "false".into(),
            "1" | "true" => "true".into(),
            _ => raw,
        },
        _ => raw,
    };
    Some(format!("{name} = {value};\n"))
}

/// Every instance name of a room, in creation order.
fn instance_names(desc: Option<&Value>) -> Vec<String> {
    instances_with_properties_all(desc)
        .into_iter()
        .map(|(n, _)| n)
        .collect()
}

/// Instances of a room with overridden variables, in creation order: (name, overrides).
fn instances_with_properties(desc: Option<&Value>) -> Vec<(String, Vec<&Value>)> {
    instances_with_properties_all(desc)
        .into_iter()
        .filter(|(_, o)| !o.is_empty())
        .collect()
}

/// Every instance of a room in creation order, with its overridden variables.
fn instances_with_properties_all(desc: Option<&Value>) -> Vec<(String, Vec<&Value>)> {
    let Some(desc) = desc else {
        return Vec::new();
    };
    let mut all: Vec<(&str, &Value)> = Vec::new();
    fn walk<'v>(layers: &'v Value, all: &mut Vec<(&'v str, &'v Value)>) {
        for l in layers.as_array().into_iter().flatten() {
            for i in l
                .get("instances")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                all.push((i.get("name").and_then(Value::as_str).unwrap_or(""), i));
            }
            if let Some(sub) = l.get("layers") {
                walk(sub, all);
            }
        }
    }
    if let Some(layers) = desc.get("layers") {
        walk(layers, &mut all);
    }
    let order: Vec<&str> = desc
        .get("instanceCreationOrder")
        .or_else(|| desc.get("instanceCreationOrderIDs"))
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|o| o.as_str().or_else(|| o.get("name").and_then(Value::as_str)))
        .collect();
    // An order key names an instance by name or by id: the first instance with either.
    let mut by_key: HashMap<&str, usize> = HashMap::new();
    for (k, (n, i)) in all.iter().enumerate() {
        by_key.entry(n).or_insert(k);
        if let Some(id) = i.get("id").and_then(Value::as_str) {
            by_key.entry(id).or_insert(k);
        }
    }
    let mut sorted: Vec<(&str, &Value)> = order
        .iter()
        .filter_map(|k| by_key.get(k).map(|&i| all[i]))
        .collect();
    let mut seen: HashSet<&str> = sorted.iter().map(|s| s.0).collect();
    for a in &all {
        if seen.insert(a.0) {
            sorted.push(*a);
        }
    }
    sorted
        .into_iter()
        .map(|(n, i)| {
            let o: Vec<&Value> = i
                .get("properties")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .collect();
            (n.to_string(), o)
        })
        .collect()
}

/// The other object's GUID of the collision event whose own id is `event_id` (2.x `.yy`).
fn collision_object(desc: Option<&Value>, event_id: &str) -> Option<String> {
    desc?
        .get("eventList")?
        .as_array()?
        .iter()
        .find(|e| e.get("id").and_then(Value::as_str) == Some(event_id))?
        .get("collisionObjectId")?
        .as_str()
        .map(str::to_string)
}

/// Names of a room's instances that have creation code, in creation order.
fn instances_with_code(desc: Option<&Value>) -> Vec<String> {
    let Some(desc) = desc else {
        return Vec::new();
    };
    // (id or name, name, has code) of every instance in every layer.
    let mut all: Vec<(String, String, bool)> = Vec::new();
    fn walk(layers: &Value, all: &mut Vec<(String, String, bool)>) {
        for l in layers.as_array().into_iter().flatten() {
            for i in l
                .get("instances")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                let name = i.get("name").and_then(Value::as_str).unwrap_or("");
                let id = i.get("id").and_then(Value::as_str).unwrap_or(name);
                let code = i.get("hasCreationCode").and_then(Value::as_bool) == Some(true)
                    || i.get("creationCodeFile")
                        .and_then(Value::as_str)
                        .is_some_and(|s| !s.is_empty());
                all.push((id.to_string(), name.to_string(), code));
            }
            if let Some(sub) = l.get("layers") {
                walk(sub, all);
            }
        }
    }
    if let Some(layers) = desc.get("layers") {
        walk(layers, &mut all);
    }
    let order: Vec<String> = desc
        .get("instanceCreationOrderIDs")
        .or_else(|| desc.get("instanceCreationOrder"))
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|o| {
            o.as_str()
                .or_else(|| o.get("name").and_then(Value::as_str))
                .map(str::to_string)
        })
        .collect();
    // An order key names an instance by id or by name: the first instance with either.
    let mut by_key: HashMap<&str, usize> = HashMap::new();
    for (k, (id, n, _)) in all.iter().enumerate() {
        by_key.entry(id).or_insert(k);
        by_key.entry(n).or_insert(k);
    }
    let mut out = Vec::new();
    let mut seen: HashSet<&str> = HashSet::new();
    for key in &order {
        if let Some(&k) = by_key.get(key.as_str())
            && let (_, name, true) = &all[k]
        {
            out.push(name.clone());
            seen.insert(name);
        }
    }
    for (_, name, code) in &all {
        if *code && seen.insert(name) {
            out.push(name.clone());
        }
    }
    out
}

/// Names of the `.yy` files a `.yyp` lists (`objects/o/o.yy` → `o`), found in one pass over
/// its text: a folder is read only when its asset is listed.
fn listed_names(yyp: &str) -> HashSet<&str> {
    let mut out = HashSet::new();
    let mut from = 0;
    while let Some(k) = yyp[from..].find(".yy") {
        let end = from + k;
        // A name ends at the previous `.yy` at the latest: the scan stays linear.
        // (A separator may be several bytes long: U+0085 and U+2028 are white space too.)
        let start = yyp[from..end]
            .char_indices()
            .rev()
            .find(|&(_, c)| matches!(c, '/' | '\\' | '"' | '\'') || c.is_whitespace())
            .map_or(from, |(s, c)| from + s + c.len_utf8());
        out.insert(&yyp[start..end]);
        from = end + 3;
    }
    out
}

/// Parses `.yy` JSON, which 2.3+ writes with trailing commas before `}` and `]`.
pub fn lenient_json(text: &str) -> Option<Value> {
    let mut s = String::with_capacity(text.len());
    let mut in_str = false;
    let mut esc = false;
    let chars: Vec<char> = text.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        if in_str {
            s.push(c);
            if esc {
                esc = false;
            } else if c == '\\' {
                esc = true;
            } else if c == '"' {
                in_str = false;
            }
            continue;
        }
        if c == '"' {
            in_str = true;
        }
        if c == ',' {
            let next = chars[i + 1..].iter().find(|c| !c.is_whitespace());
            if matches!(next, Some('}' | ']')) {
                continue;
            }
        }
        s.push(c);
    }
    serde_json::from_str(&s).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trailing_commas_are_read() {
        let v = lenient_json("{\"a\": [1, 2,], \"b\": \"x,]\",}").unwrap();
        assert_eq!(v["a"][1], 2);
        assert_eq!(v["b"], "x,]");
    }

    #[test]
    fn listed_names_split_at_multibyte_white_space() {
        // Found by the project_read fuzz target: U+0085 (two bytes) before a `.yy` name.
        let names = listed_names("m~A m\u{85}Rm>(Gp.yy<m \"objects/o_a/o_a.yy\" x\u{2028}b.yy");
        assert!(names.contains("Rm>(Gp"), "{names:?}");
        assert!(names.contains("o_a") && names.contains("b"), "{names:?}");
    }
}
