//! The folder names every reference (issue 18, bar 2; issue 17, "one way to name an asset"):
//! an object's sprite and parent, a room instance's object and creation code, a script's code
//! entry, the room order, ... are written as the asset's name, `null` for none, and
//! `{"index": n}` only where no name names the asset alone. Pack resolves the names back.

use gmkit_data::chunks::object::Object;
use gmkit_data::chunks::object::action::AppliesTo;
use gmkit_data::chunks::room::{Room, SequenceInstance, Tile, TileSource};
use gmkit_data::chunks::sprite::Sprite;
use gmkit_data::serde_support::NameScope;
use gmkit_data::{AssetKind, AssetRef, DataFile, Id, build_bytes, parse_bytes};
use gmkit_folder::{Folder, Game, pack, unpack};
use gmkit_testdata::{corpus_all, need};

mod common;
use common::unpack_bytes;
use rayon::prelude::*;
use serde_json::Value;
use std::collections::BTreeMap;

/// JSON keys the model's typed references are written under, with the kind they name; `parent`
/// is the nearest enclosing key that decides a shared key's kind (`asset` of a sprite or a
/// sequence instance). Keyframe data and other enums write the variant as the key.
fn typed_key(key: &str, parent: &str) -> Option<AssetKind> {
    Some(match key {
        "sprite" | "mask_sprite" | "exported_sprite" | "Sprite" | "sprites" | "spine_sprites" => {
            AssetKind::Sprite
        }
        "parent" | "object" | "Object" | "who" => AssetKind::Object,
        "creation_code" | "pre_create_code" | "code_id" | "code_ids" => AssetKind::Code,
        "background" | "tileset" | "tilesets" => AssetKind::Background,
        "system" | "ParticleSystem" => AssetKind::ParticleSystem,
        "font" | "fonts" => AssetKind::Font,
        "room_order" => AssetKind::Room,
        "sequences" | "Sequence" => AssetKind::Sequence,
        "sound" => AssetKind::Sound,
        "Group" => AssetKind::AudioGroup,
        "Asset" => AssetKind::AnimCurve,
        "emitters" => AssetKind::ParticleEmitter,
        "asset" => match parent {
            "sequences" | "Sequence" => AssetKind::Sequence,
            _ => AssetKind::Sprite,
        },
        _ => return None,
    })
}

/// Keys that decide the kind of an `asset` below them.
fn decides_asset(key: &str) -> bool {
    matches!(
        key,
        "sprites" | "nine_slices" | "sequences" | "Sequence" | "Sprite"
    )
}

/// `spawn_on_death` / `spawn_on_update`: `[emitter, count]`.
fn pair_key(key: &str) -> Option<AssetKind> {
    matches!(key, "spawn_on_death" | "spawn_on_update").then_some(AssetKind::ParticleEmitter)
}

/// Counts per JSON key: (by name, none, `{"index"}` without a unique name, numeric where a name
/// exists).
type Counts = BTreeMap<String, [usize; 4]>;

/// Whether `v` has the shape of a reference (a name, null, a number, `{"index"}`, `{"stored"}`).
fn ref_shaped(v: &Value) -> bool {
    match v {
        Value::String(_) | Value::Null | Value::Number(_) => true,
        Value::Object(o) => o.len() == 1 && (o.contains_key("index") || o.contains_key("stored")),
        _ => false,
    }
}

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
        // `{"stored": v}` (a kept value).
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
    // (key, value, depth, the nearest key deciding an `asset`'s kind)
    let mut stack: Vec<(&str, &Value, usize, &str)> = vec![("", doc, 0, "")];
    while let Some((key, v, depth, parent)) = stack.pop() {
        // `sequences` is a reference list at the top of a room file, a list of instances in
        // an asset layer (and a table elsewhere).
        let kind = typed_key(key, parent).filter(|_| key != "sequences" || (in_room && depth == 1));
        let parent = if decides_asset(key) { key } else { parent };
        if let (Some(kind), Value::Array(a)) = (pair_key(key), v)
            && let Some(e) = a.first()
        {
            count_ref(scope, kind, key, e, out);
            continue;
        }
        match (kind, v) {
            (Some(kind), v) if ref_shaped(v) => count_ref(scope, kind, key, v, out),
            (Some(kind), Value::Array(a)) if a.iter().all(ref_shaped) => {
                for e in a {
                    count_ref(scope, kind, key, e, out);
                }
            }
            (_, Value::Object(o)) => {
                for (k, e) in o {
                    stack.push((k, e, depth + 1, parent));
                }
            }
            (_, Value::Array(a)) => {
                for e in a {
                    stack.push((key, e, depth, parent));
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
    common::add_sample_instance(&mut data, first);
    build_bytes(&data).unwrap()
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

/// The first corpus file before GameMaker Studio 2 whose rooms place tiles of a background,
/// with at least two backgrounds named alone: (name, bytes).
fn gms1_file_with_tiles() -> Option<(String, Vec<u8>)> {
    for (name, bytes) in corpus_all()? {
        let Ok(data) = parse_bytes(bytes.clone()) else {
            continue;
        };
        if data.version.is_gms2() {
            continue;
        }
        let scope = NameScope::of_file(&data);
        let named = (0..data.backgrounds.as_ref().map_or(0, |b| b.backgrounds.len()))
            .filter(|&i| scope.unique_name(AssetKind::Background, i as u32).is_some())
            .count();
        let tiles = data.rooms.as_ref().is_some_and(|r| {
            r.rooms.iter().flatten().any(|r| {
                r.tiles
                    .iter()
                    .any(|t| matches!(t.source, TileSource::Background(b) if b.index().is_some()))
            })
        });
        if named >= 2 && tiles {
            return Some((name, bytes.to_vec()));
        }
    }
    None
}

/// The room file of `folder` with a tile, its JSON, and the names of two backgrounds: the
/// first tile's and another one.
fn room_with_tile(folder: &Folder, scope: &NameScope, n: usize) -> (String, Value, String, String) {
    for (path, b) in folder.under("rooms") {
        if !path.ends_with(".json") {
            continue;
        }
        let Ok(v) = serde_json::from_slice::<Value>(b) else {
            continue;
        };
        let Some(first) = v["tiles"][0]["background"].as_str() else {
            continue;
        };
        let other = (0..n as u32)
            .filter_map(|i| scope.unique_name(AssetKind::Background, i))
            .find(|n| *n != first)
            .expect("another background")
            .to_owned();
        return (path.to_owned(), v.clone(), first.to_owned(), other);
    }
    panic!("no room file with a tile of a background");
}

/// A GMS1 tile names its background: `"background": "bg_x"`; re-pointed by name it packs to
/// the other background's index; an unknown name is an error naming the file, the field and
/// the nearest name.
#[test]
fn a_tiles_background_by_name_packs_to_its_index() {
    let (name, bytes) = need!(gms1_file_with_tiles());
    let data = parse_bytes(bytes.clone()).unwrap();
    let scope = NameScope::of_file(&data);
    let mut folder = unpack_bytes(&bytes);
    let n = data.backgrounds.as_ref().map_or(0, |b| b.backgrounds.len());
    let (path, mut room, first, other) = room_with_tile(&folder, &scope, n);
    let want = scope.index_of(AssetKind::Background, &other).unwrap();
    room["tiles"][0]["background"] = other.clone().into();
    folder.insert(&path, serde_json::to_vec_pretty(&room).unwrap());
    let out = pack(&folder).unwrap().data;
    let room_name = room["name"].as_str().unwrap().to_owned();
    let id: Id<Room> = out.find_asset(&room_name).unwrap();
    let tile = &out.asset(id).unwrap().tiles[0];
    assert_eq!(
        tile.source,
        TileSource::Background(AssetRef::at(want)),
        "{name}: {path}"
    );
    // A misspelt name: the file, the field and the nearest name.
    let typo = format!("{first}x");
    room["tiles"][0]["background"] = typo.into();
    folder.insert(&path, serde_json::to_vec_pretty(&room).unwrap());
    let e = pack(&folder).unwrap_err().to_string();
    assert!(e.contains(&path) && e.contains("tiles[0]"), "{e}");
    assert!(e.contains("no background has this name"), "{e}");
    assert!(e.contains(&format!("did you mean {first:?}")), "{e}");
}

/// The sample game with one tile in its room whose source is `source` (a GMS2 file: a sprite).
fn sample_with_tile(source: AssetRef<Sprite>) -> DataFile {
    let mut data: DataFile = gmkit_folder::sample::sample_data().unwrap();
    let room: Id<Room> = data.find_asset("rm_start").unwrap();
    data.asset_mut(room).unwrap().tiles.push(Tile {
        source: TileSource::Sprite(source),
        width: 16,
        height: 16,
        instance_id: 10_000_001,
        scale_x: 1.0,
        scale_y: 1.0,
        colour: 0xFFFF_FFFF,
        ..Default::default()
    });
    data
}

/// `validate` refuses an edit that writes a stored value (-5) to a tile's source, naming the
/// field; the same value held by the parsed file ([`gmkit_data::Layout::kept`]) is kept
/// exactly: parse -> build identical, and unpack -> pack identical with `{"stored": -5}`.
#[test]
fn a_kept_tile_source_round_trips_and_an_edit_writing_one_is_refused() {
    let minus_five: AssetRef<Sprite> =
        serde_json::from_value(serde_json::json!({"stored": -5})).unwrap();
    assert_eq!(minus_five.kept(), Some(-5));
    let mut data = sample_with_tile(minus_five);
    let e = data.validate().unwrap_err().to_string();
    assert!(e.contains("tiles[0].asset"), "{e}");
    assert!(e.contains("-5"), "{e}");
    assert!(build_bytes(&data).is_err());
    // A file that holds -5 there (as if GameMaker had written it).
    let room: Id<Room> = data.find_asset("rm_start").unwrap();
    data.layout.kept.push(gmkit_data::KeptValue {
        chunk: gmkit_data::ChunkName(*b"ROOM"),
        index: room.index(),
        field: "tiles[0].asset".into(),
        value: -5,
    });
    let bytes = build_bytes(&data).unwrap();
    let parsed = parse_bytes(bytes.clone()).unwrap();
    assert_eq!(parsed.layout.kept, data.layout.kept, "recorded at parse");
    let tile = &parsed.asset(room).unwrap().tiles[0];
    assert_eq!(tile.source, TileSource::Sprite(minus_five));
    assert!(
        build_bytes(&parsed).unwrap() == bytes,
        "parse -> build identical"
    );
    let folder = unpack_bytes(&bytes);
    let path = file_of(&folder, "rooms", "rm_start");
    let text = String::from_utf8(folder.get(&path).unwrap().to_vec()).unwrap();
    let compact: String = text.split_whitespace().collect();
    assert!(compact.contains("\"sprite\":{\"stored\":-5}"), "{text}");
    assert!(
        build_bytes(&pack(&folder).unwrap().data).unwrap() == bytes,
        "unpack -> pack identical"
    );
    // Moving the kept value to another field is an edit: refused.
    let mut moved = parsed.clone();
    moved.asset_mut(room).unwrap().tiles[0].source = TileSource::Sprite(AssetRef::NONE);
    let o: Id<Object> = moved.find_asset("obj_ball").unwrap();
    moved.asset_mut(o).unwrap().mask_sprite = minus_five;
    let e = moved.validate().unwrap_err().to_string();
    assert!(e.contains("mask_sprite") && e.contains("-5"), "{e}");
}

/// A sprite tile by name, and the sprite of a sequence keyframe / a layer's sprite instance
/// in the serde form: names inside a scope, indices outside.
#[test]
fn tiles_and_layer_instances_name_their_asset_by_kind() {
    let data = sample_with_tile(AssetRef::at(0));
    let bytes = build_bytes(&data).unwrap();
    let folder = unpack_bytes(&bytes);
    let path = file_of(&folder, "rooms", "rm_start");
    let text = String::from_utf8(folder.get(&path).unwrap().to_vec()).unwrap();
    let compact: String = text.split_whitespace().collect();
    assert!(compact.contains("\"sprite\":\"spr_ball\""), "{text}");
    assert!(build_bytes(&pack(&folder).unwrap().data).unwrap() == bytes);
    let inst = SequenceInstance {
        asset: AssetRef::at(2),
        ..Default::default()
    };
    let v = serde_json::to_value(&inst).unwrap();
    assert_eq!(v["asset"], serde_json::json!(2));
    let scope = std::sync::Arc::new(NameScope::new().with(
        AssetKind::Sequence,
        vec![Some("a".into()), Some("b".into()), Some("seq_intro".into())],
    ));
    let v = scope.enter(|| serde_json::to_value(&inst).unwrap());
    assert_eq!(v["asset"], serde_json::json!("seq_intro"));
    let back: SequenceInstance = scope.enter(|| serde_json::from_value(v).unwrap());
    assert_eq!(back, inst);
    // A sprite's name is not a sequence's.
    let e = scope
        .enter(|| {
            serde_json::from_value::<SequenceInstance>(serde_json::json!({
                "name": 0, "asset": "spr_ball", "x": 0, "y": 0, "scale_x": 1, "scale_y": 1,
                "colour": 0, "animation_speed": 1, "speed_type": 0, "frame_index": 0,
                "rotation": 0
            }))
        })
        .unwrap_err()
        .to_string();
    assert!(e.contains("expected the name of a sequence"), "{e}");
}

/// The "applies to" of obj_ball's first action.
fn first_action_who(bytes: &[u8]) -> AppliesTo {
    let data = parse_bytes(bytes.to_vec()).unwrap();
    let ball: Id<Object> = data.find_asset("obj_ball").unwrap();
    let o = data.asset(ball).unwrap();
    o.events
        .iter()
        .flatten()
        .flat_map(|e| &e.actions)
        .next()
        .unwrap()
        .who
}

#[test]
fn an_actions_applies_to_is_self_other_or_an_object_by_name() {
    let mut data = parse_bytes(sample_with_instance("obj_door")).unwrap();
    let ball: Id<Object> = data.find_asset("obj_ball").unwrap();
    let door: Id<Object> = data.find_asset("obj_door").unwrap();
    let o = data.asset_mut(ball).unwrap();
    let a = o
        .events
        .iter_mut()
        .flatten()
        .flat_map(|e| &mut e.actions)
        .next()
        .unwrap();
    a.who = AppliesTo::Object(AssetRef::to(door));
    let bytes = build_bytes(&data).unwrap();
    assert_eq!(first_action_who(&bytes).to_stored(), door.index() as i32);
    let mut folder = unpack_bytes(&bytes);
    // The one action of the sample is also the plain-code template (kept in the manifest).
    let obj = folder
        .files
        .keys()
        .find(|p| {
            p.ends_with(".json")
                && String::from_utf8_lossy(folder.get(p).unwrap()).contains("\"who\": \"obj_door\"")
        })
        .cloned()
        .expect("the object's name as \"who\" in a JSON file");
    let back = build_bytes(&pack(&folder).unwrap().data).unwrap();
    assert!(back == bytes, "unpack -> pack identical");
    replace(
        &mut folder,
        &obj,
        "\"who\": \"obj_door\"",
        "\"who\": \"other\"",
    );
    let out = build_bytes(&pack(&folder).unwrap().data).unwrap();
    assert_eq!(first_action_who(&out), AppliesTo::Other);
    assert_eq!(first_action_who(&out).to_stored(), -2);
    // A misspelt object is an error naming the field.
    replace(
        &mut folder,
        &obj,
        "\"who\": \"other\"",
        "\"who\": \"obj_dor\"",
    );
    let e = pack(&folder).unwrap_err().to_string();
    assert!(e.contains("obj_door"), "did you mean: {e}");
}
