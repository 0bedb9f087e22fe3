//! Values as people write them in the folder JSON: colours as `#RRGGBB` / `#AARRGGBB`, bit sets
//! as lists of names (unknown bits kept as a number), enumerated values by name; the numeric
//! forms of older folders still read.

use gmkit_data::chunks::room::Room;
use gmkit_data::serde_values::{colour, flags, kinds};
use gmkit_data::{DataFile, Id, build_bytes, parse_bytes};
use gmkit_folder::{Folder, Game, pack, unpack};
use gmkit_testdata::{corpus_all, need};

mod common;
use common::unpack_bytes;
use rayon::prelude::*;
use serde_json::{Value, json};
use std::collections::BTreeMap;

#[test]
fn colour_texts_are_red_first_and_exact() {
    assert_eq!(colour::to_text(0x0000_00FF), "#FF0000", "c_red");
    assert_eq!(colour::to_text(0x00FF_0000), "#0000FF", "c_blue");
    assert_eq!(colour::to_text(0xFFFF_FFFF), "#FFFFFFFF");
    assert_eq!(colour::to_text(0x80FF_0000), "#800000FF");
    for v in [0, 1, 0xFF, 0x00FF_FFFF, 0x0100_0000, 0x80FF_0000, u32::MAX] {
        assert_eq!(colour::from_text(&colour::to_text(v)), Some(v), "{v:#X}");
    }
    assert_eq!(colour::from_text("#00ff00"), Some(0x0000_FF00));
    for bad in ["#0F00", "00FF00", "#+0FF00", "#GG0000", "#FF00000000"] {
        assert_eq!(colour::from_text(bad), None, "{bad}");
    }
}

fn flags_json(table: flags::Table, v: u32) -> Value {
    let mut out = Vec::new();
    flags::write(v, table, &mut serde_json::Serializer::new(&mut out)).unwrap();
    serde_json::from_slice(&out).unwrap()
}

#[test]
fn unknown_flag_bits_survive_as_a_number() {
    let v = 0x2_0003 | 0x8000_0040;
    let j = flags_json(flags::room::TABLE, v);
    assert_eq!(
        j,
        json!([
            "enable_views",
            "clear_view_background",
            "gms2",
            0x8000_0040u32
        ])
    );
    assert_eq!(
        flags::read::<_, u32>(flags::room::TABLE, "room", j).unwrap(),
        v
    );
    let j = flags_json(flags::sound::TABLE, 0x64 | 1 | 8);
    assert_eq!(j, json!(["regular", "embedded", 8]));
    assert_eq!(
        flags::read::<_, u32>(flags::sound::TABLE, "sound", j).unwrap(),
        0x6D
    );
    assert_eq!(flags_json(flags::room::TABLE, 0), json!([]));
    // The int of older folders, and names in any order.
    let r = |j| flags::read::<_, u32>(flags::room::TABLE, "room", j);
    assert_eq!(r(json!(131072)).unwrap(), 0x2_0000);
    assert_eq!(r(json!([2, "enable_views"])).unwrap(), 3);
    let e = r(json!(["enable_view"])).unwrap_err().to_string();
    assert!(
        e.contains("unknown room flag \"enable_view\"") && e.contains("enable_views"),
        "{e}"
    );
}

#[test]
fn kinds_read_names_constants_and_numbers() {
    let t = kinds::bbox_mode::TABLE;
    let mut out = Vec::new();
    kinds::write(2, t, &mut serde_json::Serializer::new(&mut out)).unwrap();
    assert_eq!(out, b"\"manual\"");
    out.clear();
    kinds::write(7, t, &mut serde_json::Serializer::new(&mut out)).unwrap();
    assert_eq!(out, b"7", "a number where no name exists");
    let r = |j| kinds::read::<_, u32>(t, "bboxmode_", "bounding box mode", j);
    assert_eq!(r(json!("manual")).unwrap(), 2);
    assert_eq!(r(json!("bboxmode_fullimage")).unwrap(), 1);
    assert_eq!(r(json!(7)).unwrap(), 7);
    let e = r(json!("automatc")).unwrap_err().to_string();
    assert!(e.contains("\"automatc\"") && e.contains("automatic"), "{e}");
}

/// The keys whose values have a readable form, by kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    Colour,
    Flags,
    Enum,
}

/// The kind of a JSON key in a folder file (`file` is its path, `parent` the object holding the
/// key), `None` for other keys.
fn kind_of(file: &str, parent: &serde_json::Map<String, Value>, key: &str) -> Option<Kind> {
    let under = |dir: &str| file.starts_with(dir);
    match key {
        "colour" | "background_colour" | "window_colour" | "colours" => Some(Kind::Colour),
        "info_flags" => Some(Kind::Flags),
        "flags" if under("rooms/") || under("sounds/") || file == "options.json" => {
            Some(Kind::Flags)
        }
        "bbox_mode" | "sprite_type" | "speed_type" | "playback_type" => Some(Kind::Enum),
        "sep_masks" | "shader_type" | "curve_type" | "interpolation" | "tile_modes" => {
            Some(Kind::Enum)
        }
        "load_type" | "delay_unit" | "interval_unit" | "return_type" => Some(Kind::Enum),
        "shape" if under("objects/") || under("particle_emitters/") => Some(Kind::Enum),
        "mode" | "distribution" | "texture" if under("particle_emitters/") => Some(Kind::Enum),
        // An extension file's kind (its functions' `kind`, a calling convention, has no name).
        "kind" if under("extensions/") && parent.contains_key("file_name") => Some(Kind::Enum),
        "arguments" if under("extensions/") && parent.contains_key("return_type") => {
            Some(Kind::Enum)
        }
        _ => None,
    }
}

/// Every bit-set table, for telling a named bit left as a number from an unnamed one.
const FLAG_TABLES: [flags::Table; 4] = [
    flags::room::TABLE,
    flags::sound::TABLE,
    flags::general_info::TABLE,
    flags::options::TABLE,
];

/// Per kind and JSON key: values seen, numbers left.
type Counts = BTreeMap<(Kind, String), [usize; 2]>;

/// Counts, per kind and key: values seen, and numbers left (an enum number, a flag list's
/// number, a colour number).
fn count(file: &str, v: &Value, out: &mut Counts, unknown: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                match kind_of(file, m, k) {
                    Some(kind) if !x.is_object() => {
                        let c = out.entry((kind, k.clone())).or_default();
                        let items: Vec<&Value> = match x {
                            Value::Array(a) if kind != Kind::Flags => a.iter().collect(),
                            _ => vec![x],
                        };
                        for item in items {
                            c[0] += 1;
                            let numeric = match (kind, item) {
                                // Flag bits a table names must be written by name.
                                (Kind::Flags, Value::Array(a)) => a.iter().any(|n| {
                                    n.as_u64().is_some_and(|n| {
                                        FLAG_TABLES
                                            .iter()
                                            .any(|t| t.iter().any(|&(_, m)| n & m == m))
                                    })
                                }),
                                // An emitter's built-in texture -1: none, it draws its sprite
                                // (GameMaker has no name for it).
                                (_, i) if k == "texture" && i.as_i64() == Some(-1) => false,
                                (_, i) => i.is_number(),
                            };
                            if let (Kind::Flags, Value::Array(a)) = (kind, item)
                                && let Some(n) = a.iter().find_map(Value::as_u64)
                            {
                                unknown.push(format!("{file}: {k}: unnamed bits {n:#X}"));
                            }
                            if numeric {
                                c[1] += 1;
                                unknown.push(format!("{file}: {k}: {item}"));
                            }
                        }
                    }
                    _ => count(file, x, out, unknown),
                }
            }
        }
        Value::Array(a) => a.iter().for_each(|x| count(file, x, out, unknown)),
        _ => {}
    }
}

/// Every corpus folder: colours, flags and enums are written as text; a number is left only
/// where no name exists (bits or values outside the tables, listed). Counted: colours, the
/// room / sound / game-info / game-option bit sets, and the enumerations (bounding box mode,
/// sprite type, speed and playback types, physics shape, collision mask kind, shader type,
/// curve type, keyframe interpolation, nine-slice tile modes, texture group load type, particle
/// emitter mode / shape / distribution / time units / built-in texture, extension file kinds and
/// value types).
#[test]
fn corpus_folders_write_values_by_name() {
    let files = need!(corpus_all());
    let results: Vec<(String, Counts, Vec<String>)> = files
        .into_par_iter()
        .filter_map(|(name, bytes)| {
            let data = parse_bytes(bytes).ok()?;
            let folder = unpack(&Game {
                data,
                audio_groups: Vec::new(),
            })
            .ok()?;
            let mut counts = BTreeMap::new();
            let mut unknown = Vec::new();
            for (p, b) in &folder.files {
                if p.ends_with(".json") {
                    let v: Value = serde_json::from_slice(b).unwrap();
                    count(p, &v, &mut counts, &mut unknown);
                }
            }
            Some((name, counts, unknown))
        })
        .collect();
    let mut total: BTreeMap<Kind, [usize; 2]> = BTreeMap::new();
    let mut by_key: Counts = BTreeMap::new();
    let mut left = Vec::new();
    for (name, counts, unknown) in &results {
        for ((k, key), c) in counts {
            for t in [
                total.entry(*k).or_default(),
                by_key.entry((*k, key.clone())).or_default(),
            ] {
                t[0] += c[0];
                t[1] += c[1];
            }
        }
        left.extend(unknown.iter().map(|u| format!("{name}: {u}")));
    }
    for ((k, key), [seen, numeric]) in &by_key {
        eprintln!("{k:?} {key}: {seen} values, {numeric} numeric");
    }
    for (k, [seen, numeric]) in &total {
        eprintln!("{k:?}: {seen} values, {numeric} numeric");
    }
    left.sort();
    left.dedup();
    for l in left.iter().take(40) {
        eprintln!("numeric (no name): {l}");
    }
    assert!(results.len() > 1);
    for k in [Kind::Colour, Kind::Flags, Kind::Enum] {
        assert!(
            total.get(&k).is_some_and(|c| c[0] > 0),
            "no {k:?} value seen"
        );
    }
    // Colours always have a text; enums and flag lists are numeric only where the table has no
    // name, which the corpus does not need.
    assert_eq!(total[&Kind::Colour][1], 0, "numeric colours");
    assert_eq!(total[&Kind::Enum][1], 0, "numeric enums: {left:#?}");
    assert_eq!(
        total[&Kind::Flags][1],
        0,
        "named flag bits left as numbers: {left:#?}"
    );
}

/// The sample game with one room instance (white, opaque).
fn sample_with_instance() -> Vec<u8> {
    let mut data: DataFile = gmkit_folder::sample::sample_data().unwrap();
    let obj = data.find_asset("obj_ball").unwrap();
    common::add_sample_instance(&mut data, obj);
    build_bytes(&data).unwrap()
}

fn room_json(folder: &Folder) -> (String, Value) {
    let path = folder
        .under("rooms")
        .map(|(p, _)| p.to_owned())
        .find(|p| p.ends_with(".json") && p.contains("rm_start"))
        .unwrap();
    let v = serde_json::from_slice(folder.get(&path).unwrap()).unwrap();
    (path, v)
}

fn packed_room(folder: &Folder) -> Room {
    let data = parse_bytes(build_bytes(&pack(folder).unwrap().data).unwrap()).unwrap();
    let room: Id<Room> = data.find_asset("rm_start").unwrap();
    data.asset(room).unwrap().clone()
}

#[test]
fn edited_colours_and_flags_pack_to_their_bits() {
    let bytes = sample_with_instance();
    let mut folder = unpack_bytes(&bytes);
    let (path, mut room) = room_json(&folder);
    assert_eq!(room["instances"][0]["colour"], json!("#FFFFFFFF"));
    assert!(
        room["background_colour"].is_string(),
        "{}",
        room["background_colour"]
    );
    assert!(room["flags"].is_array(), "{}", room["flags"]);
    // Unchanged: identical.
    assert!(build_bytes(&pack(&folder).unwrap().data).unwrap() == bytes);

    // A person's green is 0x00FF00 in GameMaker's BGR int; an alpha byte goes first.
    room["background_colour"] = json!("#00FF00");
    room["instances"][0]["colour"] = json!("#80FF0000");
    // An unknown bit beside the names survives; an old folder's plain number still reads.
    let mut f = room["flags"].as_array().unwrap().clone();
    f.push(json!(0x4000_0000u32));
    room["flags"] = Value::Array(f);
    folder.insert(&path, serde_json::to_vec_pretty(&room).unwrap());
    let r = packed_room(&folder);
    assert_eq!(r.background_colour, 0x0000_FF00);
    assert_eq!(r.instances[0].colour, 0x8000_00FF);
    let old = parse_bytes(bytes.clone()).unwrap();
    let old_room: &Room = old
        .asset(old.find_asset::<Room>("rm_start").unwrap())
        .unwrap();
    assert_eq!(r.flags, old_room.flags | 0x4000_0000);

    // The numeric forms of older folders: 16777215 is white without alpha, flags as an int.
    room["background_colour"] = json!(16_777_215);
    room["flags"] = json!(old_room.flags);
    room["instances"][0]["colour"] = json!(-1);
    folder.insert(&path, serde_json::to_vec_pretty(&room).unwrap());
    let r = packed_room(&folder);
    assert_eq!(r.background_colour, 0x00FF_FFFF);
    assert_eq!(r.flags, old_room.flags);
    assert_eq!(r.instances[0].colour, u32::MAX);

    // A wrong colour names what was expected.
    room["background_colour"] = json!("#00FF0");
    folder.insert(&path, serde_json::to_vec_pretty(&room).unwrap());
    let e = pack(&folder).err().unwrap().to_string();
    assert!(e.contains("#RRGGBB") && e.contains("\"#00FF0\""), "{e}");
}

/// The library's serde form (no folder): `to_value` and back is the same model, for a whole
/// corpus file of each family.
#[test]
fn the_model_round_trips_through_serde_json_values() {
    let files = need!(corpus_all());
    let n = files
        .into_par_iter()
        .filter_map(|(_, bytes)| {
            let data = parse_bytes(bytes).ok()?;
            let v = serde_json::to_value(&data).unwrap();
            let back: DataFile = serde_json::from_value(v).unwrap();
            assert!(back == data);
            Some(())
        })
        .count();
    assert!(n > 0);
}

/// The JSON of the folder file `path`.
fn json_at(folder: &Folder, path: &str) -> Value {
    serde_json::from_slice(folder.get(path).unwrap()).unwrap()
}

/// Names written by hand pack to their numbers (a shader's type, a game option, a sprite's
/// collision kind by the manual's constant); an unknown option bit beside the names survives;
/// a wrong name is refused with the file, the field and the names it expects. On the smallest
/// corpus file with a shader, the new OPTN layout and a sprite.
#[test]
fn edited_names_pack_to_their_numbers() {
    use gmkit_data::chunks::options::OptionFlags;
    let mut files = need!(corpus_all());
    files.sort_by_key(|(_, b)| b.len());
    let Some((name, bytes)) = files.into_iter().find(|(_, b)| {
        parse_bytes(b.clone()).is_ok_and(|d| {
            d.shaders
                .as_ref()
                .is_some_and(|s| s.shaders.iter().any(Option::is_some))
                && matches!(
                    d.options.as_ref().map(|o| &o.flags),
                    Some(OptionFlags::New { .. })
                )
                && d.sprites
                    .as_ref()
                    .is_some_and(|s| s.sprites.iter().any(Option::is_some))
        })
    }) else {
        panic!("no corpus file with a shader, new-layout options and a sprite");
    };
    let mut folder = unpack_bytes(&bytes);
    let shader_path = folder
        .under("shaders")
        .map(|(p, _)| p.to_owned())
        .find(|p| p.ends_with(".json") && !p.ends_with("_chunk.json"))
        .unwrap();
    let sprite_path = folder
        .under("sprites")
        .map(|(p, _)| p.to_owned())
        .find(|p| p.ends_with(".json") && json_at(&folder, p).get("sep_masks").is_some())
        .unwrap();
    let mut shader = json_at(&folder, &shader_path);
    let mut options = json_at(&folder, "options.json");
    let mut sprite = json_at(&folder, &sprite_path);
    assert!(shader["shader_type"].is_string(), "{name}: {shader_path}");
    assert!(sprite["sep_masks"].is_string(), "{name}: {sprite_path}");
    let old_flags = &options["flags"]["New"]["flags"];
    assert!(
        old_flags
            .as_array()
            .is_some_and(|a| a.iter().all(Value::is_string)),
        "{name}: {old_flags}"
    );
    let old = parse_bytes(bytes.clone()).unwrap();
    let Some(OptionFlags::New {
        flags: old_bits, ..
    }) = old.options.as_ref().map(|o| o.flags.clone())
    else {
        unreachable!()
    };

    shader["shader_type"] = json!("hlsl11");
    sprite["sep_masks"] = json!("bboxkind_precise");
    let mut f = old_flags.as_array().unwrap().clone();
    f.push(json!("legacy_json_parsing"));
    f.push(json!(1u64 << 40));
    options["flags"]["New"]["flags"] = Value::Array(f);
    folder.insert(&shader_path, serde_json::to_vec_pretty(&shader).unwrap());
    folder.insert(&sprite_path, serde_json::to_vec_pretty(&sprite).unwrap());
    folder.insert("options.json", serde_json::to_vec_pretty(&options).unwrap());
    let packed = parse_bytes(build_bytes(&pack(&folder).unwrap().data).unwrap()).unwrap();
    let shader_name = shader["name"].as_str().unwrap();
    let s = packed.shaders.as_ref().unwrap().shaders.iter().flatten();
    let s = s
        .clone()
        .find(|s| packed.string(s.name).is_some_and(|n| *n == *shader_name));
    assert_eq!(s.map(|s| s.shader_type), Some(4), "{name}: hlsl11");
    let sprite_name = sprite["name"].as_str().unwrap();
    let sp = packed.sprites.as_ref().unwrap().sprites.iter().flatten();
    let sp = sp
        .clone()
        .find(|s| packed.string(s.name).is_some_and(|n| *n == *sprite_name));
    assert_eq!(sp.map(|s| s.sep_masks), Some(1), "{name}: precise");
    let Some(OptionFlags::New { flags, .. }) = packed.options.as_ref().map(|o| o.flags.clone())
    else {
        unreachable!()
    };
    assert_eq!(flags, old_bits | 0x4000_0000 | 1 << 40, "{name}");

    // A wrong name: the file, the field and the expected names.
    shader["shader_type"] = json!("glsl-es");
    folder.insert(&shader_path, serde_json::to_vec_pretty(&shader).unwrap());
    let e = pack(&folder).err().unwrap().to_string();
    for want in [
        shader_path.as_str(),
        "shader_type",
        "\"glsl-es\"",
        "glsl_es, glsl, hlsl9",
    ] {
        assert!(e.contains(want), "{want} in {e}");
    }
}

/// The new tables on their own: 64-bit option bits, signed and optional enumerations, arrays of
/// a fixed length.
#[test]
fn option_bits_and_signed_kinds_read_back() {
    let t = flags::options::TABLE;
    let mut out = Vec::new();
    let v: u64 = 0x3_C040_0010 | 1 << 50;
    flags::write(v, t, &mut serde_json::Serializer::new(&mut out)).unwrap();
    let j: Value = serde_json::from_slice(&out).unwrap();
    assert_eq!(
        j,
        json!([
            "show_cursor",
            "variable_errors",
            "legacy_json_parsing",
            "legacy_number_conversion",
            "legacy_other_behaviour",
            "audio_error_behaviour",
            1u64 << 50
        ])
    );
    assert_eq!(flags::read::<_, u64>(t, "option", j).unwrap(), v);
    // A 32-bit set refuses a bit beyond 32; the 64-bit one takes it.
    let e = flags::read::<_, u32>(flags::room::TABLE, "room", json!([1u64 << 40]));
    assert!(e.unwrap_err().to_string().contains("outside 32 bits"));

    // An i32 field without a name is written with its sign, and read back.
    let t = kinds::emitter_shape::TABLE;
    let mut out = Vec::new();
    kinds::write(-1i32, t, &mut serde_json::Serializer::new(&mut out)).unwrap();
    assert_eq!(out, b"-1");
    let r = |j| kinds::read::<_, i32>(t, "ps_shape_", "emitter shape", j);
    assert_eq!(r(json!(-1)).unwrap(), -1);
    assert_eq!(r(json!("ps_shape_line")).unwrap(), 3);

    // Whole model parts: a nine-slice's five tile modes, a keyframe list's interpolation.
    use gmkit_data::chunks::sequence::track::Keyframes;
    use gmkit_data::chunks::sprite::nine_slice::NineSlice;
    let n = NineSlice {
        tile_modes: [0, 1, 2, 4, 9],
        ..Default::default()
    };
    let j = serde_json::to_value(&n).unwrap();
    assert_eq!(
        j["tile_modes"],
        json!(["stretch", "repeat", "mirror", "hide", 9])
    );
    assert_eq!(serde_json::from_value::<NineSlice>(j.clone()).unwrap(), n);
    let mut short = j;
    short["tile_modes"] = json!(["stretch"]);
    let e = serde_json::from_value::<NineSlice>(short)
        .unwrap_err()
        .to_string();
    assert!(e.contains("expected 5 values, found 1"), "{e}");
    for (i, want) in [(Some(1), json!("lerp")), (None, Value::Null)] {
        let k = Keyframes {
            interpolation: i,
            ..Default::default()
        };
        let j = serde_json::to_value(&k).unwrap();
        assert_eq!(j["interpolation"], want);
        assert_eq!(serde_json::from_value::<Keyframes>(j).unwrap(), k);
    }
}
