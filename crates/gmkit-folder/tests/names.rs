//! The folder names every reference (issue 18, bar 2; issue 17, "one way to name an asset"):
//! an object's sprite and parent, a room instance's object and creation code, a script's code
//! entry, the room order, ... are written as the asset's name, `null` for none, and
//! `{"index": n}` only where no name names the asset alone. Pack resolves the names back.

use gmkit_data::chunks::object::Object;
use gmkit_data::chunks::room::{Instance, Room};
use gmkit_data::serde_support::NameScope;
use gmkit_data::{AssetKind, AssetRef, DataFile, Id, build_bytes, parse_bytes};
use gmkit_folder::{Folder, Game, pack, unpack};
use gmkit_testdata::{corpus_all, need};
use rayon::prelude::*;
use serde_json::Value;
use std::collections::BTreeMap;

/// JSON keys the model's typed references are written under, with the kind they name.
fn typed_key(key: &str) -> Option<AssetKind> {
    Some(match key {
        "sprite" | "mask_sprite" | "exported_sprite" => AssetKind::Sprite,
        "parent" | "object" => AssetKind::Object,
        "creation_code" | "pre_create_code" | "code_id" | "code_ids" => AssetKind::Code,
        "background" | "tileset" => AssetKind::Background,
        "system" => AssetKind::ParticleSystem,
        "font" => AssetKind::Font,
        "room_order" => AssetKind::Room,
        "sequences" => AssetKind::Sequence,
        _ => return None,
    })
}

/// Counts per JSON key: (by name, none, `{"index"}` without a unique name, numeric where a name
/// exists).
type Counts = BTreeMap<String, [usize; 4]>;

/// Visits one reference value `v` found under `key`.
fn count_ref(scope: &NameScope, kind: AssetKind, key: &str, v: &Value, out: &mut Counts) {
    let c = out.entry(key.to_owned()).or_default();
    let index = match v {
        Value::String(_) => {
            c[0] += 1;
            return;
        }
        Value::Null => {
            c[1] += 1;
            return;
        }
        Value::Number(n) => n.as_u64(),
        Value::Object(o) if o.len() == 1 && o.contains_key("index") => o["index"].as_u64(),
        // `{"stored": v}` (a kept value) or another shape (a background's tileset record).
        _ => return,
    };
    let Some(i) = index.and_then(|i| u32::try_from(i).ok()) else {
        return;
    };
    if scope.unique_name(kind, i).is_some() {
        c[3] += 1;
    } else {
        c[2] += 1;
    }
}

/// Walks a JSON document (iteratively) and counts every reference under a typed key.
fn walk(scope: &NameScope, in_room: bool, doc: &Value, out: &mut Counts) {
    let mut stack: Vec<(&str, &Value, usize)> = vec![("", doc, 0)];
    while let Some((key, v, depth)) = stack.pop() {
        // Sequence keyframes hold untyped ints (their kind depends on the track); `sequences`
        // is a reference list in a room file only.
        let kind = typed_key(key).filter(|_| key != "sequences" || (in_room && depth == 1));
        match (kind, v) {
            (Some(kind), Value::Array(a)) => {
                for e in a {
                    count_ref(scope, kind, key, e, out);
                }
            }
            (Some(kind), _) => count_ref(scope, kind, key, v, out),
            (None, Value::Object(o)) => {
                for (k, e) in o {
                    if k != "keyframes" {
                        stack.push((k, e, depth + 1));
                    }
                }
            }
            (None, Value::Array(a)) => {
                for e in a {
                    stack.push((key, e, depth));
                }
            }
            _ => {}
        }
    }
}

/// Every corpus file: no typed reference of any JSON file is a number where a name exists;
/// counts per key printed (`--nocapture`).
#[test]
fn every_reference_is_a_name_where_one_exists() {
    let files = need!(corpus_all());
    let per_file: Vec<(String, Counts)> = files
        .into_par_iter()
        .filter_map(|(name, bytes)| {
            let data = parse_bytes(bytes).ok()?;
            let scope = NameScope::of_file(&data);
            let folder = unpack(&Game {
                data,
                audio_groups: Vec::new(),
            })
            .expect("unpack");
            let mut counts = Counts::new();
            for (path, b) in &folder.files {
                if !path.ends_with(".json") || path.starts_with("code/") {
                    continue;
                }
                let doc: Value = serde_json::from_slice(b).expect("JSON");
                walk(&scope, path.starts_with("rooms/"), &doc, &mut counts);
            }
            Some((name, counts))
        })
        .collect();
    assert!(!per_file.is_empty());
    let mut total = Counts::new();
    let mut bad = Vec::new();
    for (name, counts) in &per_file {
        for (k, c) in counts {
            let t = total.entry(k.clone()).or_default();
            for i in 0..4 {
                t[i] += c[i];
            }
            if c[3] > 0 {
                bad.push(format!("{name}: {k}: {} numeric", c[3]));
            }
        }
    }
    println!(
        "{} files; per key: by name, null, {{\"index\"}} (no unique name), numeric where a name exists",
        per_file.len()
    );
    for (k, c) in &total {
        println!("  {k:>16}: {:>8} {:>8} {:>6} {:>4}", c[0], c[1], c[2], c[3]);
    }
    assert!(total.values().map(|c| c[0]).sum::<usize>() > 0);
    assert!(
        bad.is_empty(),
        "numeric references where a name exists:\n{}",
        bad.join("\n")
    );
}

/// The sample game with a second object and a room instance of the first.
fn sample_with_instance(second_name: &str) -> Vec<u8> {
    let mut data: DataFile = gmkit_folder::sample::sample_data().unwrap();
    let first: Id<Object> = data.find_asset("obj_ball").unwrap();
    let mut other = data.asset(first).unwrap().clone();
    other.name = data.intern(second_name);
    other.events = vec![Vec::new(); other.events.len()];
    data.add_asset(other).unwrap();
    let room: Id<Room> = data.find_asset("rm_start").unwrap();
    let v = data.version;
    data.asset_mut(room).unwrap().instances.push(Instance {
        x: 16,
        y: 32,
        object: AssetRef::to(first),
        instance_id: 100_001,
        creation_code: AssetRef::NONE,
        scale_x: 1.0,
        scale_y: 1.0,
        image: v.at_least_full(2, 2, 2, 302).then_some((1.0, 0)),
        colour: 0xFFFF_FFFF,
        rotation: 0.0,
        pre_create_code: (v.bytecode >= 16).then_some(AssetRef::NONE),
    });
    build_bytes(&data).unwrap()
}

fn unpack_bytes(bytes: &[u8]) -> Folder {
    unpack(&Game {
        data: parse_bytes(bytes.to_vec()).unwrap(),
        audio_groups: Vec::new(),
    })
    .unwrap()
}

/// The path of the one JSON file under `dir` whose name contains `name`.
fn file_of(folder: &Folder, dir: &str, name: &str) -> String {
    folder
        .under(dir)
        .map(|(p, _)| p.to_owned())
        .find(|p| p.ends_with(".json") && p.contains(name))
        .unwrap_or_else(|| panic!("no {dir}/ file for {name}"))
}

/// Replaces `"key": old` by `"key": new` in the JSON text of `path` (exactly once).
fn replace(folder: &mut Folder, path: &str, from: &str, to: &str) {
    let text = String::from_utf8(folder.get(path).unwrap().to_vec()).unwrap();
    assert_eq!(text.matches(from).count(), 1, "{from} in {path}:\n{text}");
    folder.insert(path, text.replace(from, to).into_bytes());
}

fn instance_object(bytes: &[u8]) -> AssetRef<Object> {
    let data = parse_bytes(bytes.to_vec()).unwrap();
    let room: Id<Room> = data.find_asset("rm_start").unwrap();
    data.asset(room).unwrap().instances[0].object
}

#[test]
fn references_are_written_by_name_and_repointed_by_name() {
    let bytes = sample_with_instance("obj_door");
    let mut folder = unpack_bytes(&bytes);
    let obj = file_of(&folder, "objects", "obj_ball");
    let text = String::from_utf8(folder.get(&obj).unwrap().to_vec()).unwrap();
    assert!(text.contains("\"sprite\": \"spr_ball\""), "{text}");
    assert!(text.contains("\"parent\": null"), "{text}");
    assert!(text.contains("\"mask_sprite\": null"), "{text}");
    let room = file_of(&folder, "rooms", "rm_start");
    let general = String::from_utf8(folder.get("general.json").unwrap().to_vec()).unwrap();
    assert!(
        general.contains("\"rm_start\""),
        "room order by name: {general}"
    );
    // Unchanged: identical.
    let back = build_bytes(&pack(&folder).unwrap().data).unwrap();
    assert!(back == bytes, "unpack -> pack identical");
    // The instance re-pointed by name packs to the other object's index.
    replace(
        &mut folder,
        &room,
        "\"object\": \"obj_ball\"",
        "\"object\": \"obj_door\"",
    );
    let out = build_bytes(&pack(&folder).unwrap().data).unwrap();
    assert_eq!(instance_object(&out).index(), Some(1));
    assert_eq!(instance_object(&bytes).index(), Some(0));
}

#[test]
fn a_duplicate_name_takes_the_index_form_and_round_trips() {
    let bytes = sample_with_instance("obj_ball");
    let mut folder = unpack_bytes(&bytes);
    let room = file_of(&folder, "rooms", "rm_start");
    let text = String::from_utf8(folder.get(&room).unwrap().to_vec()).unwrap();
    let compact: String = text.split_whitespace().collect();
    assert!(compact.contains("\"object\":{\"index\":0}"), "{text}");
    let back = build_bytes(&pack(&folder).unwrap().data).unwrap();
    assert!(back == bytes, "identical with the index form");
    // The index form re-points too; the duplicate name itself is refused.
    let from = text
        .lines()
        .find(|l| l.contains("\"index\": 0"))
        .map(|_| "\"index\": 0")
        .unwrap();
    replace(&mut folder, &room, from, "\"index\": 1");
    let out = build_bytes(&pack(&folder).unwrap().data).unwrap();
    assert_eq!(instance_object(&out).index(), Some(1));
    let compact_from = folder.get(&room).unwrap().to_vec();
    let edited = String::from_utf8(compact_from).unwrap();
    let at = edited.find("\"object\"").unwrap();
    let end = at + edited[at..].find('}').unwrap() + 1;
    let mut named = edited.clone();
    named.replace_range(at..end, "\"object\": \"obj_ball\"");
    folder.insert(&room, named.into_bytes());
    let e = pack(&folder).unwrap_err().to_string();
    assert!(
        e.contains(&room) && e.contains("instances[0].object"),
        "{e}"
    );
    assert!(e.contains("several") && e.contains("{\"index\": N}"), "{e}");
}

#[test]
fn an_unknown_name_is_an_error_naming_the_file_the_field_and_the_nearest_name() {
    let bytes = sample_with_instance("obj_door");
    let mut folder = unpack_bytes(&bytes);
    let room = file_of(&folder, "rooms", "rm_start");
    replace(
        &mut folder,
        &room,
        "\"object\": \"obj_ball\"",
        "\"object\": \"obj_bal\"",
    );
    let e = pack(&folder).unwrap_err().to_string();
    assert!(e.contains(&room), "{e}");
    assert!(e.contains("instances[0].object"), "{e}");
    assert!(e.contains("no object has this name"), "{e}");
    assert!(e.contains("did you mean \"obj_ball\""), "{e}");
    // A sprite name where an object is expected names the kind expected.
    let obj = file_of(&folder, "objects", "obj_door");
    replace(
        &mut folder,
        &obj,
        "\"parent\": null",
        "\"parent\": \"spr_ball\"",
    );
    replace(
        &mut folder,
        &room,
        "\"object\": \"obj_bal\"",
        "\"object\": \"obj_ball\"",
    );
    let e = pack(&folder).unwrap_err().to_string();
    assert!(e.contains(&obj) && e.contains("parent"), "{e}");
    assert!(e.contains("expected the name of an object"), "{e}");
}

/// Outside a names scope (a library user serializing a model), a reference is its index.
#[test]
fn outside_a_scope_references_are_indices() {
    let data = gmkit_folder::sample::sample_data().unwrap();
    let o = data.objects.as_ref().unwrap().objects[0].as_ref().unwrap();
    let v = serde_json::to_value(o).unwrap();
    assert_eq!(v["sprite"], serde_json::json!(0));
    assert_eq!(v["parent"], Value::Null);
    let back: Object = serde_json::from_value(v).unwrap();
    assert_eq!(&back, o);
}
