//! The folder reads like a GameMaker project (folder format 3): objects as folders with one file
//! per event named as GameMaker names it, scripts and rooms holding their code, sounds by name,
//! 32-bit floats as people write them; and the folder still packs identically after every JSON
//! file is re-serialised and every `.gml` touched.

use gmkit_folder::{Folder, Game, pack, unpack};
use gmkit_testdata::{corpus_all, need, sources_dir};
use rayon::prelude::*;
use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};

fn unpack_bytes(bytes: &[u8]) -> Option<(gmkit_data::DataFile, Folder)> {
    let data = gmkit_data::parse_bytes(bytes.to_vec()).ok()?;
    let folder = unpack(&Game {
        data: data.clone(),
        audio_groups: Vec::new(),
    })
    .ok()?;
    Some((data, folder))
}

/// The version family of a file, as the corpus tests name them.
fn family(d: &gmkit_data::DataFile) -> &'static str {
    let v = &d.version;
    if !v.is_gms2() {
        "GMS1"
    } else if !v.at_least(2, 3) {
        "2.0-2.2"
    } else if !v.at_least(2023, 1) {
        "2.3-2022"
    } else {
        "2023+"
    }
}

/// Every JSON re-serialised (compact, keys in another order of whitespace) and every `.gml`
/// given one more line break: the folder still packs to the identical file.
#[test]
fn touched_folder_packs_identically() {
    let files = need!(corpus_all());
    let results: Vec<(String, Result<usize, String>)> = files
        .into_par_iter()
        .map(|(name, bytes)| {
            let r = (|| {
                let Some((_, mut folder)) = unpack_bytes(&bytes) else {
                    return Ok(0);
                };
                let mut touched = 0;
                for (p, b) in folder.files.iter_mut() {
                    if p.ends_with(".json") {
                        let v: Value =
                            serde_json::from_slice(b).map_err(|e| format!("{p}: {e}"))?;
                        *b = serde_json::to_vec(&v).map_err(|e| e.to_string())?;
                        touched += 1;
                    } else if p.ends_with(".gml") {
                        b.push(b'\n');
                        touched += 1;
                    }
                }
                let game = pack(&folder).map_err(|e| format!("pack: {e}"))?;
                let out = gmkit_data::build_bytes(&game.data).map_err(|e| format!("build: {e}"))?;
                if out != bytes {
                    return Err("packed file differs".into());
                }
                Ok(touched)
            })();
            (name, r)
        })
        .collect();
    let mut failures = Vec::new();
    let mut touched = 0;
    for (name, r) in &results {
        match r {
            Ok(n) => touched += n,
            Err(e) => failures.push(format!("{name}: {e}")),
        }
    }
    eprintln!(
        "{} files, {touched} JSON and GML files touched",
        results.len()
    );
    assert!(touched > 0);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

const EVENTS: &[&str] = &[
    "Create",
    "Destroy",
    "Alarm",
    "Step",
    "Collision",
    "Keyboard",
    "Mouse",
    "Other",
    "Draw",
    "KeyPress",
    "KeyRelease",
    "Trigger",
    "CleanUp",
    "Gesture",
    "PreCreate",
];

/// The events of each object of the folder: object folder → event names.
fn folder_events(folder: &Folder) -> BTreeMap<String, Vec<String>> {
    let mut out = BTreeMap::new();
    for (p, b) in folder.under("objects") {
        let Some(obj) = p
            .strip_prefix("objects/")
            .and_then(|r| r.strip_suffix("/object.json"))
        else {
            continue;
        };
        let v: Value = serde_json::from_slice(b).unwrap();
        let names = v["events"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["event"].as_str().unwrap().to_owned())
            .collect();
        out.insert(obj.to_owned(), names);
    }
    out
}

/// Event names of a GMS1 project object (`objects/NAME.object.gmx`): `<event eventtype="4"
/// ename="obj_wall">` or `enumb="0"`.
fn gmx_events(xml: &str) -> Vec<String> {
    let attr = |tag: &str, key: &str| -> Option<String> {
        let at = tag.find(&format!("{key}=\""))? + key.len() + 2;
        Some(tag[at..].split('"').next()?.to_owned())
    };
    xml.split("<event ")
        .skip(1)
        .filter_map(|t| {
            let tag = t.split('>').next()?;
            let ty: usize = attr(tag, "eventtype")?.parse().ok()?;
            let sub = attr(tag, "ename").or_else(|| attr(tag, "enumb"))?;
            Some(format!("{}_{sub}", EVENTS.get(ty)?))
        })
        .collect()
}

/// Every object event is named as GameMaker's project names its file: against the games' own
/// projects (the `exact` ones of SOURCES.tsv), and by form in every corpus file of each family.
#[test]
fn event_names_match_gamemaker_projects() {
    let files = need!(corpus_all());
    let sources = need!(sources_dir());
    let tsv = std::fs::read_to_string(sources.join("SOURCES.tsv")).unwrap();
    let rows: Vec<Vec<String>> = tsv
        .lines()
        .skip(1)
        .map(|l| l.split('\t').map(str::to_owned).collect())
        .collect();
    let mut by_family: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    let mut compared: BTreeMap<&str, usize> = BTreeMap::new();
    let mut bad = Vec::new();
    for (name, bytes) in &files {
        let Some((data, folder)) = unpack_bytes(bytes) else {
            continue;
        };
        let fam = family(&data);
        let events = folder_events(&folder);
        let e = by_family.entry(fam).or_default();
        e.0 += 1;
        for (obj, list) in &events {
            for ev in list {
                e.1 += 1;
                let ok = ev
                    .split_once('_')
                    .is_some_and(|(t, s)| EVENTS.contains(&t) && !s.is_empty());
                if !ok {
                    bad.push(format!("{name}: {obj}/{ev}: not a GameMaker event name"));
                }
            }
            // Each event with code has its file, named after the event.
            for (p, _) in folder.under(&format!("objects/{obj}")) {
                if let Some(stem) = p.strip_suffix(".gml").and_then(|s| s.rsplit('/').next())
                    && !list.iter().any(|e| e == stem)
                {
                    bad.push(format!("{name}: {p}: no event of the object has this name"));
                }
            }
        }
        let Some(row) = rows
            .iter()
            .find(|r| r.get(1) == Some(name) && r.get(11).map(String::as_str) == Some("exact"))
        else {
            continue;
        };
        // The project's root inside the extracted sources (some were extracted from it).
        let root = [sources.join(&row[0]).join(&row[4]), sources.join(&row[0])]
            .into_iter()
            .find(|r| r.join("objects").is_dir())
            .unwrap_or_else(|| sources.join(&row[0]));
        for (obj, list) in &events {
            let ours: BTreeSet<String> = list.iter().cloned().collect();
            let theirs: BTreeSet<String> = if row[6].starts_with("gms1") {
                match std::fs::read_to_string(
                    root.join("objects").join(format!("{obj}.object.gmx")),
                ) {
                    Ok(x) => gmx_events(&x).into_iter().collect(),
                    Err(_) => continue,
                }
            } else {
                match std::fs::read_dir(root.join("objects").join(obj)) {
                    Ok(d) => d
                        .filter_map(|e| {
                            let n = e.ok()?.file_name().into_string().ok()?;
                            n.strip_suffix(".gml").map(str::to_owned)
                        })
                        .collect(),
                    Err(_) => continue,
                }
            };
            // 2.0-2.2 projects name a collision file after the event's own GUID, which the
            // data file does not hold: there only the number of collision events is compared
            // (the folder names them after the other object). Pre-create events are made from
            // an object's variable definitions: code in the data file, no file in the project.
            let keep = |set: &BTreeSet<String>| -> (BTreeSet<String>, usize) {
                let collisions = set.iter().filter(|e| e.starts_with("Collision_")).count();
                let rest = set
                    .iter()
                    .filter(|e| !e.starts_with("PreCreate_"))
                    .filter(|e| fam != "2.0-2.2" || !e.starts_with("Collision_"))
                    .cloned()
                    .collect();
                (rest, collisions)
            };
            let (ours, theirs) = (keep(&ours), keep(&theirs));
            *compared.entry(fam).or_default() += ours.0.len() + ours.1;
            if ours != theirs {
                bad.push(format!(
                    "{name}: objects/{obj}: ours {ours:?}, the project's {theirs:?}"
                ));
            }
        }
    }
    eprintln!(
        "files and events per family: {by_family:?}; events compared with the projects: {compared:?}"
    );
    assert!(
        bad.is_empty(),
        "{} mismatches:\n{}",
        bad.len(),
        bad.join("\n")
    );
    for fam in ["GMS1", "2.0-2.2", "2.3-2022", "2023+"] {
        assert!(
            by_family.get(fam).is_some_and(|f| f.1 > 0),
            "no event in family {fam}"
        );
    }
}

/// The built-in sample: an object folder with its event file, a room folder, a sound beside
/// its audio; a new event file adds the event.
#[test]
fn sample_folder_and_new_event() {
    let game = gmkit_folder::sample::sample().unwrap();
    let folder = unpack(&game).unwrap();
    let paths: Vec<&String> = folder.files.keys().collect();
    let object = paths
        .iter()
        .find(|p| p.starts_with("objects/") && p.ends_with("/object.json"))
        .expect("an object folder");
    let dir = object.trim_end_matches("/object.json").to_owned();
    assert!(
        folder.get(&format!("{dir}/Create_0.asm")).is_some(),
        "{paths:?}"
    );
    assert!(
        paths
            .iter()
            .any(|p| p.starts_with("rooms/") && p.ends_with("/room.json"))
    );
    assert!(
        paths
            .iter()
            .any(|p| p.starts_with("sounds/") && p.ends_with(".wav")),
        "{paths:?}"
    );
    assert!(!paths.iter().any(|p| p.starts_with("audio/")), "{paths:?}");
    let v: Value = serde_json::from_slice(folder.get(object).unwrap()).unwrap();
    assert_eq!(v["events"][0]["event"], "Create_0");
    assert!(v["events"][0].get("actions").is_none());

    // A new event file adds the event, wired to a new code entry.
    let mut edited = folder.clone();
    edited.insert(format!("{dir}/Step_0.gml"), b"x = x + 1;\n".to_vec());
    let back = pack(&edited).unwrap();
    let obj = back.data.objects.as_ref().unwrap().objects[0]
        .as_ref()
        .unwrap();
    assert_eq!(obj.events[3].len(), 1, "one step event");
    let code = obj.events[3][0].actions[0].code_id.index().unwrap();
    let entry = &back.data.code.as_ref().unwrap().entries[code];
    let name = back.data.strings.as_ref().unwrap().get(entry.name).unwrap();
    assert!(name.as_bytes().ends_with(b"_Step_0"));
    // And unpacked again, it is a file of the object's folder.
    let again = unpack(&back).unwrap();
    assert!(again.get(&format!("{dir}/Step_0.asm")).is_some());

    // An event whose code file is gone: one line naming the missing file.
    let mut broken = folder.clone();
    broken
        .files
        .retain(|p, _| !p.starts_with(&format!("{dir}/Create_0.")));
    let e = pack(&broken).unwrap_err().to_string();
    assert!(
        e.contains(&format!("{dir}/Create_0.asm")) && !e.contains('\n'),
        "{e}"
    );
}

/// A folder of the previous format is refused with one line saying how to convert.
#[test]
fn previous_format_is_refused_with_a_way_out() {
    let game = gmkit_folder::sample::sample().unwrap();
    let mut folder = unpack(&game).unwrap();
    let mut m: Value = serde_json::from_slice(folder.get("manifest.json").unwrap()).unwrap();
    assert_eq!(m["gmkit_folder"], 4);
    for old in [2, 3] {
        m["gmkit_folder"] = old.into();
        folder.insert("manifest.json", serde_json::to_vec(&m).unwrap());
        let e = pack(&folder).unwrap_err().to_string();
        assert!(e.contains("gmkit unpack") && !e.contains('\n'), "{e}");
    }
}

/// A 32-bit float is written as its shortest text and read back to the same bits.
#[test]
fn f32_shortest_text_round_trips() {
    use gmkit_data::chunks::object::Physics;
    let mut p = Physics {
        density: 0.1,
        restitution: 0.3,
        friction: 1.0e-7,
        ..Default::default()
    };
    let v = serde_json::to_value(&p).unwrap();
    let text = serde_json::to_string(&v).unwrap();
    assert!(text.contains("\"density\":0.1,"), "{text}");
    assert!(text.contains("\"restitution\":0.3,"), "{text}");
    // Every bit pattern of a spread of floats comes back exactly.
    let mut x: u32 = 0x1234_5678;
    for _ in 0..200_000 {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        let f = f32::from_bits(x);
        if !f.is_finite() {
            continue;
        }
        p.density = f;
        let v = serde_json::to_value(&p).unwrap();
        let back: Physics = serde_json::from_str(&serde_json::to_string(&v).unwrap()).unwrap();
        assert_eq!(back.density.to_bits(), x, "{f}");
        let shown = v["density"].to_string();
        assert!(
            shown.len() <= format!("{f:?}").len() + 2,
            "{shown} for {f:?}"
        );
    }
}
