//! The assembler and disassembler: `assemble(disassemble(entry))` gives back every code entry of
//! every VM corpus file (same instructions, and the same file bytes once built), the text of a
//! few small entries is pinned, and an edit in text changes exactly that instruction.

use gmkit_data::chunks::code::asm::{self, Assembler, Disassembler};
use gmkit_data::chunks::code::{CodeBody, Instruction, PushValue};
use gmkit_data::{DataFile, build_bytes, parse_bytes};
use gmkit_testdata::{corpus, corpus_file, need};

/// Instruction equality where NaN constants compare by their bits.
fn same(a: &[Instruction], b: &[Instruction]) -> bool {
    a.len() == b.len()
        && a.iter().zip(b).all(|(x, y)| match (x, y) {
            (
                Instruction::Push {
                    op: o1,
                    value: PushValue::Double(v1),
                },
                Instruction::Push {
                    op: o2,
                    value: PushValue::Double(v2),
                },
            ) => o1 == o2 && v1.to_bits() == v2.to_bits(),
            (
                Instruction::Push {
                    op: o1,
                    value: PushValue::Float(v1),
                },
                Instruction::Push {
                    op: o2,
                    value: PushValue::Float(v2),
                },
            ) => o1 == o2 && v1.to_bits() == v2.to_bits(),
            (x, y) => x == y,
        })
}

fn table_sizes(f: &DataFile) -> (usize, usize, usize) {
    (
        f.strings.as_ref().map_or(0, |s| s.len()),
        f.variables.as_ref().map_or(0, |v| v.variables.len()),
        f.functions.as_ref().map_or(0, |v| v.functions.len()),
    )
}

#[test]
fn every_entry_round_trips_through_text() {
    let mut files = 0;
    let mut failures = Vec::new();
    for (name, bytes) in need!(corpus()) {
        let file = match parse_bytes(bytes.clone()) {
            Ok(f) => f,
            Err(e) => {
                failures.push(format!("{name}: parse failed: {e}"));
                continue;
            }
        };
        let Some(code) = file.code.as_ref().filter(|c| !c.entries.is_empty()) else {
            continue; // YYC: no bytecode
        };
        files += 1;
        let dis = Disassembler::new(&file);
        let mut edited = file.clone();
        let mut asm = Assembler::new(&mut edited);
        let mut bodies = Vec::new();
        let (mut ok, mut total, mut bytes_text) = (0, 0, 0);
        for (i, e) in code.entries.iter().enumerate() {
            total += 1;
            let text = match dis.entry(i) {
                Ok(t) => t,
                Err(err) => {
                    failures.push(format!("{name}: entry {i}: disassembly failed: {err}"));
                    continue;
                }
            };
            bytes_text += text.len();
            let back = match asm.assemble(&text) {
                Ok(a) => a,
                Err(err) => {
                    let line = text.lines().nth(err.line as usize - 1).unwrap_or("");
                    failures.push(format!("{name}: entry {i}: {err}\n    {line}"));
                    continue;
                }
            };
            let want = code.instructions(i).expect("decodes");
            if !same(&back.instructions, &want) {
                let k = back
                    .instructions
                    .iter()
                    .zip(want.iter())
                    .position(|(a, b)| !same(&[*a], &[*b]))
                    .unwrap_or(want.len().min(back.instructions.len()));
                failures.push(format!(
                    "{name}: entry {i}: instruction {k} differs: {:?} vs {:?}",
                    back.instructions.get(k),
                    want.get(k)
                ));
                continue;
            }
            // `.entry` markers give back the children's execution offsets.
            for (child, off) in &back.entries {
                let found = code.entries.iter().any(|c| {
                    matches!(c.body, CodeBody::Shared { parent } if parent as usize == i)
                        && c.execution_offset == *off
                        && file
                            .strings
                            .as_ref()
                            .unwrap()
                            .get(c.name)
                            .map(|s| s.as_bytes())
                            == Some(&child.0[..])
                });
                assert!(found, "{name}: entry {i}: .entry {child} at {off}");
            }
            if e.body.is_root() {
                bodies.push((i, back.instructions));
            }
            ok += 1;
        }
        drop(asm);
        assert_eq!(
            table_sizes(&edited),
            table_sizes(&file),
            "{name}: assembling the unedited text added nothing"
        );
        // Every root re-encoded from the assembled instructions: the same file.
        let c = edited.code.as_mut().unwrap();
        for (i, ins) in bodies {
            c.entries[i].body = CodeBody::Instructions(ins);
        }
        let rebuilt = build_bytes(&edited).expect("builds");
        let identical = rebuilt == bytes;
        if !identical {
            failures.push(format!(
                "{name}: the re-encoded file differs from the input"
            ));
        }
        eprintln!(
            "{name}: {ok}/{total} entries round-trip ({} KiB of text), file identical: {identical}",
            bytes_text / 1024
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(files > 0, "the corpus has VM files");
}

/// The text of one entry, by name.
fn text_of(file: &DataFile, entry: &str) -> String {
    let i = entry_index(file, entry);
    asm::disassemble(file, i).expect("disassembles")
}

fn entry_index(file: &DataFile, entry: &str) -> usize {
    let strings = file.strings.as_ref().unwrap();
    file.code
        .as_ref()
        .unwrap()
        .entries
        .iter()
        .position(|e| strings.get(e.name).unwrap() == entry)
        .unwrap_or_else(|| panic!("no entry {entry}"))
}

#[test]
fn golden_texts() {
    // bytecode 15: labels, calls, self variables.
    let f = parse_bytes(need!(corpus_file("the-game.win"))).unwrap();
    assert_eq!(
        text_of(&f, "gml_Object_obj_player_Create_0"),
        "pushi.e 3\npop.v.i self.move_speed\n"
    );
    let step = text_of(&f, "gml_Object_obj_player_Step_0");
    assert!(step.starts_with(
        "pushi.e 87\nconv.i.v\ncall.i keyboard_check(argc=1)\nconv.v.b\nbf [0]\n\
         push.v self.y\npush.v self.move_speed\nsub.v.v\npop.v.v self.y\n:[0]\npushi.e 83\n"
    ));
    assert!(step.ends_with("bf [4]\ncall.i game_end(argc=0)\npopz.v\n:[4]\n"));

    // bytecode 14: push.e, no pushi.
    let f = parse_bytes(need!(corpus_file("tricking-the-vikings.win"))).unwrap();
    assert_eq!(
        text_of(&f, "gml_Object_obj_card_Step_0"),
        "push.e 4\npop.v.i self.speed\npush.v self.image_angle\npush.e 7\nadd.i.v\n\
         pop.v.v self.image_angle\n"
    );

    // 2023.8+: pushref asset references, builtin and array accesses.
    let f = parse_bytes(need!(corpus_file("asteroid-destroyer.win"))).unwrap();
    assert_eq!(
        text_of(&f, "gml_Object_obj_player_Collision_obj_Rock"),
        "push.i 16777215\nconv.i.v\npushi.e 1\nconv.i.v\npush.v builtin.y\npush.v builtin.x\n\
         pushi.e 3\nconv.i.v\ncall.i effect_create_above(argc=5)\npopz.v\n\
         call.i instance_destroy(argc=0)\npopz.v\npushi.e 120\nconv.i.v\n\
         pushref.i [object]obj_game\npushi.e -9\npushi.e 0\npop.v.v [array]0.alarm\n"
    );

    // 2.3+: a child entry (a function declared in an event) marked where it starts.
    let f = parse_bytes(need!(corpus_file("platformermonster.win"))).unwrap();
    assert_eq!(
        text_of(&f, "gml_Object_obj_button_exit_Create_0"),
        "call.i event_inherited(argc=0)\npopz.v\nb [0]\n\
         .entry gml_Script_anon@87@gml_Object_obj_button_exit_Create_0\n\
         call.i game_end(argc=0)\npopz.v\nexit.i\n:[0]\n\
         push.i [function]gml_Script_anon@87@gml_Object_obj_button_exit_Create_0\nconv.i.v\n\
         pushi.e -1\nconv.i.v\ncall.i method(argc=2)\npop.v.v builtin.activate_button\n"
    );
}

/// Every instruction of every root entry: (entry, index, instruction).
fn all_instructions(f: &DataFile) -> Vec<(usize, usize, Instruction)> {
    let mut v = Vec::new();
    for (e, entry) in f.code.as_ref().unwrap().entries.iter().enumerate() {
        if let Some(ins) = entry.body.instructions() {
            v.extend(ins.unwrap().iter().enumerate().map(|(i, x)| (e, i, *x)));
        }
    }
    v
}

#[test]
fn an_edit_in_text_changes_exactly_that_instruction() {
    let bytes = need!(corpus_file("asteroid-destroyer.win"));
    let original = parse_bytes(bytes).unwrap();
    let mut data = original.clone();
    let entry = entry_index(&data, "gml_Object_obj_player_Collision_obj_Rock");
    let text = asm::disassemble(&data, entry).unwrap();
    let edited = text.replacen("pushi.e 120\n", "pushi.e 45\n", 1);
    assert_ne!(text, edited);
    let ins = asm::assemble(&edited, &mut data).unwrap();
    *data.code.as_mut().unwrap().instructions_mut(entry).unwrap() = ins;
    let back = parse_bytes(build_bytes(&data).unwrap()).unwrap();
    let (before, after) = (all_instructions(&original), all_instructions(&back));
    assert_eq!(before.len(), after.len());
    let changed: Vec<_> = before
        .iter()
        .zip(&after)
        .filter(|(b, a)| b != a)
        .map(|(b, a)| (b.0, b.1, b.2, a.2))
        .collect();
    assert_eq!(changed.len(), 1, "{changed:?}");
    let (e, _, old, new) = changed[0];
    assert_eq!(e, entry);
    assert_eq!(old.to_string(), "pushi.e 120");
    assert_eq!(new.to_string(), "pushi.e 45");
    assert_eq!(asm::disassemble(&back, entry).unwrap(), edited);
    // Nothing else in the file moved: the rebuilt file has the original's size.
    assert_eq!(
        build_bytes(&back).unwrap().len(),
        build_bytes(&original).unwrap().len()
    );
}

#[test]
fn new_names_in_text_add_strings_variables_and_functions() {
    let bytes = need!(corpus_file("asteroid-destroyer.win"));
    let original = parse_bytes(bytes).unwrap();
    let mut data = original.clone();
    let entry = entry_index(&data, "gml_Object_obj_game_Draw_64");
    let text = asm::disassemble(&data, entry).unwrap();
    let added = "push.s \"Score: \\\"x\\\"\"\npop.v.s self.gmkit_new_var\n\
                 push.v self.gmkit_new_var\ncall.i gmkit_new_function(argc=1)\npopz.v\n";
    let edited = format!("{added}{text}");
    let (s0, v0, f0) = table_sizes(&data);
    let ins = asm::assemble(&edited, &mut data).unwrap();
    assert_eq!(table_sizes(&data), (s0 + 3, v0 + 1, f0 + 1));
    let var = data
        .variables
        .as_ref()
        .unwrap()
        .variables
        .last()
        .unwrap()
        .clone();
    assert_eq!(var.instance_type, -1);
    assert_eq!(
        data.strings.as_ref().unwrap().get(var.name).unwrap(),
        "gmkit_new_var"
    );
    *data.code.as_mut().unwrap().instructions_mut(entry).unwrap() = ins;
    let back = parse_bytes(build_bytes(&data).unwrap()).unwrap();
    assert_eq!(asm::disassemble(&back, entry).unwrap(), edited);
    // The other entries are untouched.
    let (before, after) = (all_instructions(&original), all_instructions(&back));
    let others = |v: &[(usize, usize, Instruction)]| {
        v.iter()
            .filter(|x| x.0 != entry)
            .map(|x| x.2)
            .collect::<Vec<_>>()
    };
    assert!(same(&others(&before), &others(&after)));
}

#[test]
fn errors_say_where_and_what_was_expected() {
    let mut data = parse_bytes(need!(corpus_file("the-game.win"))).unwrap();
    let sizes = table_sizes(&data);
    let cases = [
        ("pushi.e 5\nfoo.i\n", 2, 1, "an instruction mnemonic"),
        ("pushi.e 70000\n", 1, 9, "a 16-bit integer"),
        (
            "push.s \"new string\"\npop.v.v nosuchinstance.x\n",
            2,
            9,
            "an instance",
        ),
        ("b [nowhere]\n", 1, 3, "a label defined"),
        ("cmp.i.v XX\n", 1, 9, "a comparison"),
        ("push.s \"unterminated\n", 1, 8, "a closing"),
        ("add.i\n", 1, 1, "`add` with 2 data types"),
        (
            "pushref.i [sprite]no_such_sprite\n",
            1,
            19,
            "the name of a sprite",
        ),
    ];
    for (text, line, column, expected) in cases {
        let e = asm::assemble(text, &mut data).unwrap_err();
        assert_eq!((e.line, e.column), (line, column), "{text:?}: {e}");
        assert!(e.expected.starts_with(expected), "{text:?}: {e}");
    }
    // A failed assembly adds nothing (the first case added a string before failing).
    assert_eq!(table_sizes(&data), sizes);
}

#[test]
fn mangled_text_gives_errors_not_panics() {
    let mut data = parse_bytes(need!(corpus_file("asteroid-destroyer.win"))).unwrap();
    let sizes = table_sizes(&data);
    let dis_data = data.clone();
    let dis = Disassembler::new(&dis_data);
    let mut asm = Assembler::new(&mut data);
    let mut errors = 0;
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let noise = [
        '[', ']', '"', '\\', '#', '.', '-', '9', 'x', ';', ':', ' ', 'é', '\n', '(',
    ];
    for i in 0..dis_data.code.as_ref().unwrap().entries.len() {
        let text = dis.entry(i).unwrap();
        let chars: Vec<char> = text.chars().collect();
        // Every truncation, and a few hundred random one-character substitutions.
        let mut variants: Vec<String> = (0..chars.len())
            .step_by(3)
            .map(|k| chars[..k].iter().collect())
            .collect();
        for _ in 0..200 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let mut v = chars.clone();
            if v.is_empty() {
                break;
            }
            let at = (seed % v.len() as u64) as usize;
            v[at] = noise[(seed >> 32) as usize % noise.len()];
            variants.push(v.into_iter().collect());
        }
        for v in variants {
            if asm.assemble(&v).is_err() {
                errors += 1;
            }
        }
    }
    assert!(errors > 0);
    drop(asm);
    // Mangled names may have added entries, but only through successful assemblies.
    assert!(table_sizes(&data).0 >= sizes.0);
}

/// A copy of `f` with only what assembling reads and adds to: the version and the string,
/// variable and function tables (no assets).
fn tables_only(f: &DataFile) -> DataFile {
    DataFile {
        version: f.version,
        strings: f.strings.clone(),
        variables: f.variables.clone(),
        functions: f.functions.clone(),
        ..DataFile::default()
    }
}

#[test]
fn a_copy_of_the_name_tables_assembles_like_the_model() {
    // `Assembler::with_assets_of` on a tables-only copy (what pack's threads use instead of a
    // copy of the whole model) gives every root entry of every VM corpus file the instructions
    // an assembler on the model gives; without the model's assets, asset names would not
    // resolve the same in some entries (measured, so this test can tell the two apart).
    let (mut files, mut entries, mut need_assets) = (0, 0, 0);
    for (name, bytes) in need!(corpus()) {
        let Ok(file) = parse_bytes(bytes.clone()) else {
            continue;
        };
        let Some(code) = file.code.as_ref().filter(|c| !c.entries.is_empty()) else {
            continue;
        };
        files += 1;
        let dis = Disassembler::new(&file);
        let mut whole = file.clone();
        let mut lean = tables_only(&file);
        let mut bare = tables_only(&file);
        let mut on_model = Assembler::new(&mut whole);
        let mut on_copy = Assembler::with_assets_of(&mut lean, &file);
        let mut no_assets = Assembler::new(&mut bare);
        for (i, e) in code.entries.iter().enumerate() {
            if !e.body.is_root() {
                continue;
            }
            let text = dis.entry(i).expect("disassembles");
            let want = on_model.assemble(&text).expect("assembles on the model");
            let got = on_copy
                .assemble(&text)
                .unwrap_or_else(|err| panic!("{name}: entry {i}: {err}"));
            assert!(
                same(&got.instructions, &want.instructions),
                "{name}: entry {i}: the tables-only copy assembles differently"
            );
            assert_eq!(got.entries, want.entries, "{name}: entry {i}");
            entries += 1;
            if !no_assets
                .assemble(&text)
                .is_ok_and(|a| same(&a.instructions, &want.instructions))
            {
                need_assets += 1;
            }
        }
        assert_eq!(
            table_sizes(on_copy.file()),
            table_sizes(&file),
            "{name}: assembling the unedited text added nothing to the copy"
        );
    }
    eprintln!("{files} files, {entries} root entries, {need_assets} need the model's assets");
    assert!(files > 0, "the corpus has VM files");
    assert!(need_assets > 0, "some entries name assets");
}
