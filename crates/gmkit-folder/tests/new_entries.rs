//! Issue 16, "New entries": a `.gml` file named like an entry GameMaker would make packs into a
//! new code entry (a script, an object event, room creation code), wired into the script
//! table, the object's event list or the room; a new object with an event through the library.
//! One corpus game per version family (GMS 1.4, 2.0–2.2, 2.3–2022, 2023+); every case uses
//! names the game already has.

use gmkit_data::chunks::object::Object;
use gmkit_data::chunks::room::Room;
use gmkit_data::code_entry::{EntryTarget, EventType};
use gmkit_data::{DataFile, Id};
use gmkit_folder::{Folder, Game, pack, unpack};
use gmkit_gml::{decompile, print};
use gmkit_testdata::corpus_file;

/// One game and the entries added to it.
struct Case {
    file: &'static str,
    /// (script name, its `.gml` text as the decompiler prints it).
    script: (&'static str, &'static str),
    /// The object that gets Step, Alarm 3, Collision, Draw and Draw GUI events.
    object: &'static str,
    /// The collision's other object.
    other: &'static str,
    /// The room that gets creation code.
    room: &'static str,
    /// How the collision file names its other object (index, name).
    collision_by_index: bool,
}

const CASES: [Case; 4] = [
    // GMS 1.4 (bytecode 16).
    Case {
        file: "bubblinaway.win",
        script: ("scr_added", "return x + 1;\n"),
        object: "obj_default_floortile1",
        other: "obj_default_char",
        room: "game",
        collision_by_index: true,
    },
    // GMS 2.0.6 (bytecode 16): collision entries are named by the other object's GUID.
    Case {
        file: "space-war-assignment.win",
        script: ("scr_added", "return x + 1;\n"),
        object: "obj_game",
        other: "obj_missile",
        room: "room0",
        collision_by_index: false,
    },
    // 2022.9 (code locals, `arguments` numbered by its string).
    Case {
        file: "tiktaktoe-gm-network.win",
        script: (
            "scr_added",
            "function scr_added() {\n    return x + 1;\n}\n",
        ),
        object: "obj_button",
        other: "obj_board_mark_o",
        room: "RoomMenu",
        collision_by_index: false,
    },
    // 2024.11 (no code locals, typed asset references).
    Case {
        file: "asteroid-destroyer.win",
        script: (
            "scr_added",
            "function scr_added() {\n    return x + 1;\n}\n",
        ),
        object: "obj_bullets",
        other: "obj_Rock",
        room: "Room1",
        collision_by_index: false,
    },
];

fn load(name: &str) -> Option<(Vec<u8>, DataFile, Folder)> {
    let bytes = corpus_file(name)?;
    let data = gmkit_data::parse_bytes(bytes.clone()).expect("parses");
    let folder = unpack(&Game {
        data: data.clone(),
        audio_groups: Vec::new(),
    })
    .expect("unpacks");
    Some((bytes, data, folder))
}

/// The printed GML of entry `name` of `file`.
fn decompiled(file: &DataFile, name: &str) -> String {
    let game = gmkit_gml::Game::new(file);
    let i = file
        .find_code_entry(name)
        .unwrap_or_else(|| panic!("no entry {name}"));
    let d = decompile::decompile_entry(&game, i).expect("decompiles");
    assert_eq!(d.failures, 0, "{name}");
    let mut text = print::print_stmts(&d.body);
    text.push('\n');
    text
}

/// The code entry the object's event (type, subtype) runs.
fn event_entry(file: &DataFile, object: &str, event: EventType, subtype: u32) -> Option<usize> {
    let id: Id<Object> = file.find_asset(object)?;
    let o = file.asset(id)?;
    let e = o.events[event.number() as usize]
        .iter()
        .find(|e| e.subtype == subtype)?;
    e.actions.first()?.code_id.index()
}

fn name_of(file: &DataFile, entry: usize) -> String {
    let e = &file.code.as_ref().unwrap().entries[entry];
    file.strings
        .as_ref()
        .unwrap()
        .get(e.name)
        .unwrap()
        .to_string_lossy()
        .into_owned()
}

/// Builds, re-parses (a `gmkit check`: parse, validate, rebuild identical) and checks that
/// unpack → pack of the result is identical.
fn check_and_round_trip(file: &DataFile, what: &str) -> DataFile {
    let built = gmkit_data::build_bytes(file).unwrap_or_else(|e| panic!("{what}: builds: {e}"));
    let again =
        gmkit_data::parse_bytes(built.clone()).unwrap_or_else(|e| panic!("{what}: re-parses: {e}"));
    again
        .validate()
        .unwrap_or_else(|e| panic!("{what}: validates: {e}"));
    assert_eq!(
        gmkit_data::build_bytes(&again).unwrap(),
        built,
        "{what}: rebuilds identical"
    );
    let folder = unpack(&Game {
        data: again.clone(),
        audio_groups: Vec::new(),
    })
    .expect("unpacks");
    let packed = pack(&folder).unwrap_or_else(|e| panic!("{what}: packs again: {e}"));
    assert_eq!(
        gmkit_data::build_bytes(&packed.data).unwrap(),
        built,
        "{what}: unpack → pack identical"
    );
    again
}

#[test]
fn new_gml_files_pack_into_wired_entries_in_every_family() {
    let mut ran = 0;
    for c in &CASES {
        let Some((_, data, folder)) = load(c.file) else {
            continue;
        };
        ran += 1;
        let modern = data.version.at_least(2, 3);
        let gms2 = data.version.is_gms2();
        let other: Id<Object> = data.find_asset(c.other).expect("other object");
        let mut f = folder.clone();
        let script_entry = if modern {
            format!("gml_GlobalScript_{}", c.script.0)
        } else {
            format!("gml_Script_{}", c.script.0)
        };
        f.insert(
            format!("code/{script_entry}.gml"),
            c.script.1.as_bytes().to_vec(),
        );
        let obj = c.object;
        f.insert(
            format!("code/gml_Object_{obj}_Step_0.gml"),
            b"x += 1;\n".to_vec(),
        );
        f.insert(
            format!("code/gml_Object_{obj}_Alarm_3.gml"),
            b"x = 2;\n".to_vec(),
        );
        f.insert(
            format!("code/gml_Object_{obj}_Alarm_1.gml"),
            b"x = 4;\n".to_vec(),
        );
        f.insert(
            format!("code/gml_Object_{obj}_Draw_64.gml"),
            b"x = 3;\n".to_vec(),
        );
        assert!(
            !f.contains(&format!("code/gml_Object_{obj}_Draw_0.gml")),
            "{}: {obj} has no Draw event yet",
            c.file
        );
        f.insert(
            format!("code/gml_Object_{obj}_Draw_0.gml"),
            b"x = 5;\n".to_vec(),
        );
        let coll = if c.collision_by_index {
            other.index().to_string()
        } else {
            c.other.to_string()
        };
        f.insert(
            format!("code/gml_Object_{obj}_Collision_{coll}.gml"),
            b"x -= 1;\n".to_vec(),
        );
        // A string the game does not have is added to the table.
        let room_text = "x = \"a new string\";\n";
        f.insert(
            format!("code/gml_Room_{}_Create.gml", c.room),
            room_text.as_bytes().to_vec(),
        );
        let out = pack(&f).unwrap_or_else(|e| panic!("{}: packs: {e}", c.file));
        let out = check_and_round_trip(&out.data, c.file);

        // The script: SCPT → its entry; 2.3+: a global script in GLOB with its function as a
        // child entry that has its own SCPT entry.
        let s: Id<gmkit_data::chunks::script::Script> = out.find_asset(c.script.0).expect("script");
        let root = out.find_code_entry(&script_entry).expect("script entry");
        assert_eq!(
            out.asset(s).unwrap().code_id.index().unwrap(),
            root,
            "{}",
            c.file
        );
        assert_eq!(decompiled(&out, &script_entry), c.script.1, "{}", c.file);
        if modern {
            assert!(
                out.global_init
                    .as_ref()
                    .unwrap()
                    .code_ids
                    .contains(&gmkit_data::AssetRef::at(root as u32))
            );
            let child = format!("gml_Script_{}", c.script.0);
            let k = out.find_code_entry(&child).expect("function entry");
            let cs: Id<gmkit_data::chunks::script::Script> =
                out.find_asset(&child).expect("SCPT of the function");
            assert_eq!(out.asset(cs).unwrap().code_id.index().unwrap(), k);
            let e = &out.code.as_ref().unwrap().entries[k];
            assert!(
                matches!(e.body, gmkit_data::chunks::code::CodeBody::Shared { parent } if parent as usize == root)
            );
        }
        // Events: in the object's lists, named as GameMaker names them, decompiling back.
        for (event, sub, text) in [
            (EventType::Step, 0, "x += 1;\n"),
            (EventType::Alarm, 3, "x = 2;\n"),
            (EventType::Draw, 64, "x = 3;\n"),
            (EventType::Draw, 0, "x = 5;\n"),
            (EventType::Collision, other.index() as u32, "x -= 1;\n"),
        ] {
            let k = event_entry(&out, obj, event, sub)
                .unwrap_or_else(|| panic!("{}: {obj} has no {} {sub}", c.file, event.name()));
            let name = name_of(&out, k);
            let want_prefix = format!("gml_Object_{obj}_{}_", event.name());
            assert!(name.starts_with(&want_prefix), "{}: {name}", c.file);
            let suffix = &name[want_prefix.len()..];
            match event {
                EventType::Collision if modern => assert_eq!(suffix, c.other),
                // 2.0–2.2: a GUID (8-4-4-4-12 hex digits joined by `_`).
                EventType::Collision if gms2 => {
                    let parts: Vec<usize> = suffix.split('_').map(str::len).collect();
                    assert_eq!(parts, [8, 4, 4, 4, 12], "{}: {name}", c.file);
                }
                _ => assert_eq!(suffix, sub.to_string(), "{}: {name}", c.file),
            }
            assert_eq!(decompiled(&out, &name), text, "{}: {name}", c.file);
            // The action has the shape of the file's other "execute code" actions.
            let id: Id<Object> = out.find_asset(obj).unwrap();
            let a = &out.asset(id).unwrap().events[event.number() as usize][0].actions[0];
            let model = &data
                .objects
                .as_ref()
                .unwrap()
                .objects
                .iter()
                .flatten()
                .flat_map(|o| o.events.iter().flatten())
                .next()
                .expect("an event")
                .actions[0];
            assert_eq!(
                (
                    a.action_name.is_some(),
                    a.argument_count,
                    a.apply_to_usable,
                    a.action_id,
                    a.kind,
                    a.who
                ),
                (
                    model.action_name.is_some(),
                    model.argument_count,
                    model.apply_to_usable,
                    603,
                    7,
                    gmkit_data::chunks::object::action::AppliesTo::Itself
                ),
                "{}: {name}",
                c.file
            );
        }
        // Two alarms added (files in path order: Alarm_1, then Alarm_3): GMS1 stores an
        // event type's events by descending subtype, GMS2 in the order they were added.
        let id: Id<Object> = out.find_asset(obj).unwrap();
        let alarms: Vec<u32> = out.asset(id).unwrap().events[2]
            .iter()
            .map(|e| e.subtype)
            .collect();
        assert_eq!(alarms, if gms2 { [1, 3] } else { [3, 1] }, "{}", c.file);
        // Room creation code.
        let room: Id<Room> = out.find_asset(c.room).expect("room");
        let rc = out.asset(room).unwrap().creation_code;
        let rname = format!("gml_Room_{}_Create", c.room);
        assert_eq!(out.find_code_entry(&rname), rc.index(), "{}", c.file);
        assert_eq!(decompiled(&out, &rname), room_text, "{}", c.file);
        // Code locals where the version keeps them: `arguments` for each new root.
        if let Some(list) = out.functions.as_ref().and_then(|f| f.code_locals.as_ref()) {
            let name = out.strings.as_ref().unwrap().find(&rname).unwrap();
            let cl = list
                .iter()
                .find(|c| c.code_name == name)
                .expect("code locals");
            assert_eq!(cl.locals.len(), 1);
            let want = if modern {
                out.strings.as_ref().unwrap().find("arguments").unwrap().0
            } else {
                0
            };
            assert_eq!(cl.locals[0].index, want, "{}", c.file);
        }
    }
    assert!(
        ran > 0 || !gmkit_testdata::required(),
        "no corpus game found"
    );
}

#[test]
fn a_new_object_with_an_event_through_the_library() {
    for c in &CASES {
        let Some((_, mut data, _)) = load(c.file) else {
            continue;
        };
        let before = data.objects.as_ref().unwrap().objects.len();
        let id = data.add_object("obj_added").expect("adds the object");
        assert_eq!(id.index(), before);
        let added = gmkit_gml::entries::add_entry(
            &mut data,
            &EntryTarget::Event {
                object: id,
                event: EventType::Create,
                subtype: 0,
            },
            "x = 1;\n",
        )
        .unwrap_or_else(|e| panic!("{}: {e}", c.file));
        assert_eq!(added.root.name, "gml_Object_obj_added_Create_0");
        let out = check_and_round_trip(&data, c.file);
        assert_eq!(
            event_entry(&out, "obj_added", EventType::Create, 0),
            Some(added.root.entry)
        );
        assert_eq!(
            decompiled(&out, "gml_Object_obj_added_Create_0"),
            "x = 1;\n"
        );
        // Defaults as the version writes them: as many event types as the other objects.
        let o = out.asset(id).unwrap();
        let first = out.objects.as_ref().unwrap().objects[0].as_ref().unwrap();
        assert_eq!(o.events.len(), first.events.len());
        assert_eq!(o.managed.is_some(), first.managed.is_some());
    }
}

#[test]
fn instance_creation_code_through_the_library() {
    // GMS2 numbers instance creation code by the room's earlier instances with code.
    let Some((_, mut data, _)) = load("tiktaktoe-gm-network.win") else {
        return;
    };
    let room: Id<Room> = data.find_asset("RoomGame").expect("room");
    let r = data.asset(room).unwrap();
    let instance = r
        .instances
        .iter()
        .rposition(|i| {
            i.creation_code.id().is_none() && i.pre_create_code.is_none_or(|c| c.id().is_none())
        })
        .expect("an instance without code");
    let earlier = r.instances[..instance]
        .iter()
        .filter(|i| {
            i.creation_code.id().is_some() || i.pre_create_code.is_some_and(|c| c.id().is_some())
        })
        .count();
    let added = gmkit_gml::entries::add_entry(
        &mut data,
        &EntryTarget::InstanceCreation { room, instance },
        "x = 5;\n",
    )
    .expect("adds");
    assert_eq!(
        added.root.name,
        format!("gml_RoomCC_RoomGame_{earlier}_Create")
    );
    let out = check_and_round_trip(&data, "instance creation code");
    let code = out.asset(room).unwrap().instances[instance].creation_code;
    assert_eq!(code.index(), Some(added.root.entry));
    assert_eq!(decompiled(&out, &added.root.name), "x = 5;\n");
}

#[test]
fn refusals_are_one_line_and_write_nothing() {
    let Some((_, data, folder)) = load("tiktaktoe-gm-network.win") else {
        return;
    };
    // An unrecognised name: the accepted ones are listed.
    let mut f = folder.clone();
    f.insert("code/my_new_code.gml", b"x = 1;\n".to_vec());
    let e = pack(&f).expect_err("refused").to_string();
    assert!(!e.contains('\n'), "{e}");
    assert!(
        e.contains("code/my_new_code.gml") && e.contains("gml_GlobalScript_SCRIPT"),
        "{e}"
    );
    // An object that does not exist.
    let mut f = folder.clone();
    f.insert(
        "code/gml_Object_obj_nowhere_Step_0.gml",
        b"x = 1;\n".to_vec(),
    );
    let e = pack(&f).expect_err("refused").to_string();
    assert!(e.contains("gml_Object_obj_nowhere_Step_0"), "{e}");
    // An event the object has already.
    let id: Id<Object> = data.find_asset("obj_button").unwrap();
    let o = data.asset(id).unwrap();
    let (t, ev) = o
        .events
        .iter()
        .enumerate()
        .find_map(|(t, l)| l.first().map(|e| (t, e.subtype)))
        .expect("an event");
    let event = EventType::from_number(t as u32).unwrap();
    let mut copy = data.clone();
    let err = gmkit_gml::entries::add_entry(
        &mut copy,
        &EntryTarget::Event {
            object: id,
            event,
            subtype: ev,
        },
        "x = 1;\n",
    )
    .expect_err("refused")
    .to_string();
    assert!(err.contains("does not have yet"), "{err}");
    assert_eq!(copy, data, "nothing changed");
    // Text that does not compile: line and column, and the file is unchanged.
    let mut copy = data.clone();
    let err = gmkit_gml::entries::add_entry(
        &mut copy,
        &EntryTarget::Script {
            name: "scr_broken".into(),
        },
        "x = ;\n",
    )
    .expect_err("refused")
    .to_string();
    assert!(err.starts_with("line 1, column 5"), "{err}");
    assert_eq!(copy, data, "nothing changed");
}

#[test]
fn event_table_matches_the_corpus_names() {
    // Every object event entry of every corpus file is named gml_Object_<obj>_<name>_<sub>
    // with <name> from the table for its event type.
    let Some(all) = gmkit_testdata::corpus_all() else {
        return;
    };
    let mut checked = 0;
    for (file, bytes) in all {
        let data = gmkit_data::parse_bytes(bytes).expect("parses");
        let (Some(objects), Some(code)) = (data.objects.as_ref(), data.code.as_ref()) else {
            continue;
        };
        if code.entries.is_empty() {
            continue;
        }
        for o in objects.objects.iter().flatten() {
            let oname = data
                .strings
                .as_ref()
                .unwrap()
                .get(o.name)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            for (t, list) in o.events.iter().enumerate() {
                let ev = EventType::from_number(t as u32).expect("known event type");
                for e in list {
                    for a in e.actions.iter().filter(|a| a.code_id.id().is_some()) {
                        let name = name_of(&data, a.code_id.index().unwrap());
                        let want = format!("gml_Object_{oname}_{}_", ev.name());
                        assert!(name.starts_with(&want), "{file}: {name} for {want}");
                        let target = EntryTarget::Event {
                            object: data.find_asset(&oname).unwrap(),
                            event: ev,
                            subtype: e.subtype,
                        };
                        // The name the library gives is the corpus's (2.0–2.2 collision GUIDs
                        // come from the file's own entries).
                        if data
                            .find_asset::<Object>(&oname)
                            .map(|i| data.asset(i).unwrap() as *const _)
                            == Some(o as *const _)
                        {
                            assert_eq!(data.code_entry_name(&target).unwrap(), name, "{file}");
                            assert_eq!(
                                data.parse_entry_name(&name).ok(),
                                Some(target),
                                "{file}: {name}"
                            );
                        }
                        checked += 1;
                    }
                }
            }
        }
    }
    assert!(checked > 0 || !gmkit_testdata::required());
}

/// As GameMaker built it: every 2.3+ global script of a corpus game that the decompiler gives
/// back as GML (and that declares only named functions), added again under a new name from
/// that text, gets the same code (names aside), the same child entries (offsets, argument and
/// local counts), the same root locals count and the same code-locals record as the
/// original GameMaker made.
#[test]
fn a_global_script_added_again_matches_the_one_gamemaker_built() {
    use gmkit_data::chunks::code::asm;
    let (mut compared, mut scripts) = (0, 0);
    for file in [
        "multiplayer-tanks.win",
        "tiktaktoe-gm-network.win",
        "acrandomizer.win",
    ] {
        let Some((_, data, _)) = load(file) else {
            continue;
        };
        let code = data.code.as_ref().unwrap();
        let game = gmkit_gml::Game::new(&data);
        for i in 0..code.entries.len() {
            let name = name_of(&data, i);
            let Some(script) = name.strip_prefix("gml_GlobalScript_") else {
                continue;
            };
            scripts += 1;
            // Anonymous functions and struct literals are numbered by their place in the
            // source and game-wide (compile_new_functions in gmkit-gml tests those names).
            if game.children(i).iter().any(|&(_, k)| {
                let n = game.code_name(k);
                n.contains("anon") || n.contains("___struct___")
            }) {
                continue;
            }
            let Ok(d) = decompile::decompile_entry(&game, i) else {
                continue;
            };
            let text = print::print_stmts(&d.body);
            let copy = format!("{script}_copy");
            let renamed =
                text.replace(&format!("function {script}("), &format!("function {copy}("));
            let mut work = data.clone();
            let Ok(added) = gmkit_gml::entries::add_entry(
                &mut work,
                &EntryTarget::Script { name: copy.clone() },
                &renamed,
            ) else {
                continue; // anonymous functions, names the game lacks: not new-entry cases
            };
            compared += 1;
            let norm = |t: String| t.replace(&copy, script);
            // `local.inst#20` names the 20th VARI entry of that name: each code entry has
            // its own local entries, so the numbers differ; the test below checks the new
            // entry uses its own.
            let plain = |t: String| {
                t.lines()
                    .map(|l| match l.split_once('#') {
                        Some((a, b)) if b.bytes().all(|c| c.is_ascii_digit()) => a.to_string(),
                        _ => l.to_string(),
                    })
                    .collect::<Vec<_>>()
                    .join("\n")
            };
            let want = plain(asm::disassemble(&data, i).unwrap());
            let got = plain(norm(asm::disassemble(&work, added.root.entry).unwrap()));
            // Variable and function names are the same; their table indices are not shown.
            assert_eq!(got, want, "{file}: {name}");
            let vari_before = data.variables.as_ref().unwrap().variables.len();
            let ins = work
                .code
                .as_ref()
                .unwrap()
                .instructions(added.root.entry)
                .unwrap();
            for x in ins.iter() {
                if let gmkit_data::chunks::code::Instruction::Pop { var, .. }
                | gmkit_data::chunks::code::Instruction::Push {
                    value: gmkit_data::chunks::code::PushValue::Variable(var),
                    ..
                } = x
                    && var.instance == gmkit_data::chunks::code::InstanceType::LOCAL
                {
                    assert!(
                        var.variable.index() >= vari_before,
                        "{file}: {name}: a local of another entry"
                    );
                }
            }
            let header = |f: &DataFile, e: usize| {
                let x = &f.code.as_ref().unwrap().entries[e];
                (x.locals_count, x.arguments_count, x.execution_offset)
            };
            assert_eq!(
                header(&work, added.root.entry),
                header(&data, i),
                "{file}: {name} root header"
            );
            let originals: Vec<usize> = (0..code.entries.len())
                .filter(|&k| matches!(code.entries[k].body, gmkit_data::chunks::code::CodeBody::Shared { parent } if parent as usize == i))
                .collect();
            assert_eq!(added.children.len(), originals.len(), "{file}: {name}");
            for (&a, &o) in added.children.iter().zip(&originals) {
                assert_eq!(norm(name_of(&work, a)), name_of(&data, o), "{file}");
                assert_eq!(
                    header(&work, a),
                    header(&data, o),
                    "{file}: {}",
                    name_of(&data, o)
                );
            }
            if let (Some(wl), Some(ol)) = (
                work.functions.as_ref().and_then(|f| f.code_locals.as_ref()),
                data.functions.as_ref().and_then(|f| f.code_locals.as_ref()),
            ) {
                let names = |f: &DataFile, cl: &gmkit_data::chunks::function::CodeLocals| {
                    cl.locals
                        .iter()
                        .map(|l| {
                            (
                                l.index,
                                f.strings
                                    .as_ref()
                                    .unwrap()
                                    .get(l.name)
                                    .unwrap()
                                    .to_string_lossy()
                                    .into_owned(),
                            )
                        })
                        .collect::<Vec<_>>()
                };
                let wn = work
                    .strings
                    .as_ref()
                    .unwrap()
                    .find(&format!("gml_GlobalScript_{copy}"))
                    .unwrap();
                let on = data.strings.as_ref().unwrap().find(&name).unwrap();
                let w = wl
                    .iter()
                    .find(|c| c.code_name == wn)
                    .expect("new code locals");
                let o = ol
                    .iter()
                    .find(|c| c.code_name == on)
                    .expect("original code locals");
                assert_eq!(
                    names(&work, w),
                    names(&data, o),
                    "{file}: {name} code locals"
                );
            }
        }
    }
    eprintln!("{compared} of {scripts} global scripts added again and compared");
    assert!(
        compared >= 5 || !gmkit_testdata::required(),
        "{compared} compared"
    );
}

/// A new entry may use names the game never had (a new instance variable, a new global, a
/// built-in variable and constant the game never used): the growing compiler adds them as
/// GameMaker's compiler would, in every family.
#[test]
fn a_new_entry_with_new_variables_and_built_ins() {
    let text = "my_new_counter = 0;\nglobal.my_new_total = c_red;\nimage_angle += 1;\n";
    let mut ran = 0;
    for c in &CASES {
        let Some((_, mut data, _)) = load(c.file) else {
            continue;
        };
        ran += 1;
        let id = data.add_object("obj_added").expect("adds the object");
        gmkit_gml::entries::add_entry(
            &mut data,
            &EntryTarget::Event {
                object: id,
                event: EventType::Step,
                subtype: 0,
            },
            text,
        )
        .unwrap_or_else(|e| panic!("{}: {e}", c.file));
        let out = check_and_round_trip(&data, c.file);
        let back = decompiled(&out, "gml_Object_obj_added_Step_0");
        for part in [
            "my_new_counter = 0;",
            "global.my_new_total = ",
            "image_angle += 1;",
        ] {
            assert!(back.contains(part), "{}: {part} in\n{back}", c.file);
        }
        // The names are the file's now: compiling the same text again adds nothing.
        let game = gmkit_gml::Game::new(&out);
        let names = gmkit_gml::compile::Names::new(&game);
        let entry = out
            .find_code_entry("gml_Object_obj_added_Step_0")
            .expect("the entry");
        let again = gmkit_gml::compile::compile_text(&game, &names, entry, text)
            .unwrap_or_else(|e| panic!("{}: {e}", c.file));
        assert!(again.additions.is_empty(), "{}", c.file);
    }
    assert!(
        ran > 0 || !gmkit_testdata::required(),
        "no corpus game of the cases was found"
    );
}

/// Issue 18/16: `objects/obj_new/Create_0.gml` (+ `Step_0.gml`, `Alarm_3.gml`) with no
/// `object.json` packs into a new object with GameMaker's defaults, its events wired and its
/// entries named as GameMaker names them; the same with an `object.json` listing no events.
#[test]
fn a_new_object_from_event_files_alone_in_every_family() {
    let mut ran = 0;
    for c in &CASES {
        let Some((_, _, folder)) = load(c.file) else {
            continue;
        };
        let events = [
            ("Create_0", EventType::Create, 0, "x = 1;\n"),
            ("Step_0", EventType::Step, 0, "y += 2;\n"),
            ("Alarm_3", EventType::Alarm, 3, "visible = false;\n"),
        ];
        // 1. Event files alone.
        let mut f = folder.clone();
        for (stem, _, _, text) in events {
            f.insert(
                format!("objects/obj_new/{stem}.gml"),
                text.as_bytes().to_vec(),
            );
        }
        let packed = pack(&f).unwrap_or_else(|e| panic!("{}: packs: {e}", c.file));
        let out = check_and_round_trip(&packed.data, c.file);
        let id: Id<Object> = out.find_asset("obj_new").expect("the object exists");
        let o = out.asset(id).unwrap();
        assert!(o.visible && !o.solid && !o.persistent, "{}", c.file);
        assert!(o.sprite.is_none() && o.parent.is_none() && o.mask_sprite.is_none());
        let first = out.objects.as_ref().unwrap().objects[0].as_ref().unwrap();
        assert_eq!(o.events.len(), first.events.len(), "{}", c.file);
        for (stem, ty, sub, text) in events {
            let e = event_entry(&out, "obj_new", ty, sub)
                .unwrap_or_else(|| panic!("{}: {stem} wired", c.file));
            let name = format!("gml_Object_obj_new_{stem}");
            assert_eq!(name_of(&out, e), name, "{}", c.file);
            assert_eq!(decompiled(&out, &name), text, "{}: {stem}", c.file);
        }
        // 1b. Other files name it like any object: an object's parent, a room instance's
        // object, another object's collision event (2.3+, where the event file names it).
        let mut f2 = f.clone();
        let obj_path = format!("objects/{}/object.json", c.object);
        let mut v: serde_json::Value = serde_json::from_slice(f2.get(&obj_path).unwrap()).unwrap();
        v["parent"] = serde_json::json!("obj_new");
        let modern = gmkit_data::parse_bytes(corpus_file(c.file).unwrap())
            .unwrap()
            .version
            .at_least(2, 3);
        if modern {
            f2.insert(
                format!("code/gml_Object_{}_Collision_obj_new.gml", c.object),
                b"x -= 1;\n".to_vec(),
            );
        }
        f2.insert(&obj_path, serde_json::to_vec(&v).unwrap());
        let room_path = format!("rooms/{}/room.json", c.room);
        let mut r: serde_json::Value = serde_json::from_slice(f2.get(&room_path).unwrap()).unwrap();
        let placed = r["instances"].as_array().is_some_and(|a| !a.is_empty());
        if placed {
            r["instances"][0]["object"] = serde_json::json!("obj_new");
            f2.insert(&room_path, serde_json::to_vec(&r).unwrap());
        }
        let packed = pack(&f2).unwrap_or_else(|e| panic!("{}: packs with references: {e}", c.file));
        let out = check_and_round_trip(&packed.data, c.file);
        let new: Id<Object> = out.find_asset("obj_new").unwrap();
        let like: Id<Object> = out.find_asset(c.object).unwrap();
        assert_eq!(
            out.asset(like).unwrap().parent.id(),
            Some(new),
            "{}",
            c.file
        );
        if placed {
            let room: Id<Room> = out.find_asset(c.room).unwrap();
            assert_eq!(
                out.asset(room).unwrap().instances[0].object.id(),
                Some(new),
                "{}",
                c.file
            );
        }
        if modern {
            let e = event_entry(&out, c.object, EventType::Collision, new.index() as u32)
                .unwrap_or_else(|| panic!("{}: the collision with obj_new", c.file));
            assert_eq!(
                name_of(&out, e),
                format!("gml_Object_{}_Collision_obj_new", c.object)
            );
        }
        // 2. An object.json without events (a copy of another object's, renamed): its
        // properties kept, the event files wired.
        let mut f = folder.clone();
        let src = format!("objects/{}/object.json", c.object);
        let mut v: serde_json::Value = serde_json::from_slice(f.get(&src).unwrap()).unwrap();
        v["name"] = serde_json::json!("obj_new2");
        v.as_object_mut().unwrap().remove("events");
        f.insert(
            "objects/obj_new2/object.json",
            serde_json::to_vec(&v).unwrap(),
        );
        f.insert("objects/obj_new2/Step_0.gml", b"y += 2;\n".to_vec());
        let packed = pack(&f).unwrap_or_else(|e| panic!("{}: packs: {e}", c.file));
        let out = check_and_round_trip(&packed.data, c.file);
        let e = event_entry(&out, "obj_new2", EventType::Step, 0).expect("Step wired");
        assert_eq!(name_of(&out, e), "gml_Object_obj_new2_Step_0");
        let id: Id<Object> = out.find_asset("obj_new2").unwrap();
        let like: Id<Object> = out.find_asset(c.object).unwrap();
        assert_eq!(
            out.asset(id).unwrap().sprite,
            out.asset(like).unwrap().sprite
        );
        ran += 1;
    }
    assert!(
        ran == CASES.len() || !gmkit_testdata::required(),
        "{ran} of {} games",
        CASES.len()
    );
}

/// Issue 18: a new object (event files alone, or its own `object.json`) is named by other JSON
/// of the same pack: a room instance's `"object": "obj_new"` and another object's
/// `"parent": "obj_new"` resolve to the new object (the names are known before any element is
/// read, at the indices pack gives the new objects), and the result passes `gmkit check`.
#[test]
fn a_new_object_is_named_by_other_json_of_the_same_pack_in_every_family() {
    use gmkit_data::AssetRef;
    let mut ran = 0;
    for c in &CASES {
        let Some((_, _, folder)) = load(c.file) else {
            continue;
        };
        for (new, with_json) in [("obj_new", false), ("obj_new2", true)] {
            let what = format!("{}: {new}", c.file);
            let mut f = folder.clone();
            if with_json {
                let src = format!("objects/{}/object.json", c.object);
                let mut v: serde_json::Value =
                    serde_json::from_slice(f.get(&src).unwrap()).unwrap();
                v["name"] = serde_json::json!(new);
                v.as_object_mut().unwrap().remove("events");
                f.insert(
                    format!("objects/{new}/object.json"),
                    serde_json::to_vec(&v).unwrap(),
                );
            }
            f.insert(format!("objects/{new}/Create_0.gml"), b"x = 1;\n".to_vec());
            // A room instance and another object name it.
            let room_path = format!("rooms/{}/room.json", c.room);
            let mut room: serde_json::Value =
                serde_json::from_slice(&f.read(&room_path).unwrap().unwrap()).unwrap();
            let instances = room["instances"].as_array_mut().expect("instances");
            assert!(!instances.is_empty(), "{what}: the room has an instance");
            instances[0]["object"] = serde_json::json!(new);
            f.insert(room_path, serde_json::to_vec(&room).unwrap());
            let obj_path = format!("objects/{}/object.json", c.other);
            let mut obj: serde_json::Value =
                serde_json::from_slice(f.get(&obj_path).unwrap()).unwrap();
            obj["parent"] = serde_json::json!(new);
            f.insert(obj_path, serde_json::to_vec(&obj).unwrap());

            let packed = pack(&f).unwrap_or_else(|e| panic!("{what}: packs: {e}"));
            let out = check_and_round_trip(&packed.data, &what);
            let id: Id<Object> = out.find_asset(new).expect("the object exists");
            let room_id: Id<Room> = out.find_asset(c.room).unwrap();
            assert_eq!(
                out.asset(room_id).unwrap().instances[0].object,
                AssetRef::to(id),
                "{what}: the instance's object"
            );
            let other: Id<Object> = out.find_asset(c.other).unwrap();
            assert_eq!(
                out.asset(other).unwrap().parent,
                AssetRef::to(id),
                "{what}: the other object's parent"
            );
            assert!(
                event_entry(&out, new, EventType::Create, 0).is_some(),
                "{what}"
            );
        }
        ran += 1;
    }
    assert!(
        ran == CASES.len() || !gmkit_testdata::required(),
        "{ran} of {} games",
        CASES.len()
    );
}
