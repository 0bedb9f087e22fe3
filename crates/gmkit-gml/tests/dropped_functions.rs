//! Replacing an entry's GML with text that drops, renames or adds nested functions, on a
//! 2.3–2022 game (acrandomizer, 2022.9) and a 2023+ game (longdog, 2024.13): a dropped
//! function's child entry stays (every other entry keeps its index) and starts at an `exit.i`
//! after the root's code; text naming other functions than the entry's compiles; the file
//! builds, parses again and validates.

use gmkit_data::DataFile;
use gmkit_data::chunks::code::{CodeBody, Instruction, Opcode};
use gmkit_gml::Game;
use gmkit_gml::entries::replace_code;

const GAMES: &[&str] = &["acrandomizer.win", "longdog.win"];

fn load(name: &str) -> Option<DataFile> {
    let bytes = gmkit_testdata::corpus_file(name)?;
    Some(gmkit_data::parse_bytes(bytes).expect("corpus file parses"))
}

/// Builds, parses again and validates.
fn check(file: &DataFile, what: &str) -> DataFile {
    let built = gmkit_data::build_bytes(file).unwrap_or_else(|e| panic!("{what}: builds: {e}"));
    let again = gmkit_data::parse_bytes(built).unwrap_or_else(|e| panic!("{what}: re-parses: {e}"));
    again
        .validate()
        .unwrap_or_else(|e| panic!("{what}: validates: {e}"));
    again
}

/// A root entry of a script (`gml_GlobalScript_*`) with nested functions: (entry, its
/// children's entries).
fn root_with_children(file: &DataFile) -> (usize, Vec<usize>) {
    let game = Game::new(file);
    (0..game.code_count())
        .filter(|&i| game.code_name(i).starts_with("gml_GlobalScript_"))
        .map(|i| {
            (
                i,
                game.children(i).iter().map(|&(_, k)| k).collect::<Vec<_>>(),
            )
        })
        .find(|(_, c)| !c.is_empty())
        .expect("a script with nested functions")
}

/// The root's instructions after a replace, and the byte offset of its last one.
fn root_code(file: &DataFile, entry: usize) -> (Vec<Instruction>, u32) {
    let ins = file
        .code
        .as_ref()
        .unwrap()
        .instructions(entry)
        .unwrap()
        .into_owned();
    let last = ins[..ins.len() - 1]
        .iter()
        .map(Instruction::size)
        .sum::<usize>();
    (ins, last as u32)
}

fn assert_dropped(file: &DataFile, root: usize, children: &[usize], what: &str) {
    let (ins, last) = root_code(file, root);
    assert!(
        matches!(
            ins.last(),
            Some(Instruction::Unary {
                op: Opcode::Exit,
                ..
            })
        ),
        "{what}: the root ends with exit.i"
    );
    let code = file.code.as_ref().unwrap();
    for &k in children {
        let e = &code.entries[k];
        assert!(
            matches!(e.body, CodeBody::Shared { parent } if parent as usize == root),
            "{what}: entry {k} is still a child of {root}"
        );
        assert_eq!(
            e.execution_offset, last,
            "{what}: entry {k} starts at the exit"
        );
    }
}

#[test]
fn dropping_every_nested_function_keeps_their_entries_as_empty_functions() {
    for name in GAMES {
        let Some(mut file) = load(name) else { return };
        let (root, children) = root_with_children(&file);
        let entries = file.code.as_ref().unwrap().entries.len();
        replace_code(&mut file, root, "x_dropped_by_test = 1;\n")
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(file.code.as_ref().unwrap().entries.len(), entries, "{name}");
        assert_dropped(&file, root, &children, name);
        let again = check(&file, name);
        assert_dropped(&again, root, &children, &format!("{name} (read back)"));
        // Replacing again (the stubs are still children the text does not define) works too.
        replace_code(&mut file, root, "x_dropped_by_test = 2;\n")
            .unwrap_or_else(|e| panic!("{name}: again: {e}"));
        check(&file, name);
    }
}

/// Text defining a function under another name than the entry's nested one: it compiles
/// (no refusal for the function the text no longer names), builds, parses again and validates.
#[test]
fn a_renamed_nested_function_compiles() {
    for name in GAMES {
        let Some(mut file) = load(name) else { return };
        let (root, _) = root_with_children(&file);
        let text = "function renamed_by_test(a) {\n    return a + 1;\n}\nfunction added_by_test() {\n    return 2;\n}\n";
        replace_code(&mut file, root, text).unwrap_or_else(|e| panic!("{name}: {e}"));
        check(&file, name);
    }
}

/// A syntax error in the new text is reported at its line and column (nothing changed).
#[test]
fn a_syntax_error_has_its_line_and_column() {
    for name in GAMES {
        let Some(mut file) = load(name) else { return };
        let (root, _) = root_with_children(&file);
        let before = file.clone();
        let e = replace_code(&mut file, root, "x = 1;\nfunction f( {\n").unwrap_err();
        assert_eq!(e.line, 2, "{name}: {e}");
        assert!(e.col > 0, "{name}: {e}");
        assert!(file == before, "{name}: unchanged on error");
    }
}

/// A global script with a nested function no other entry calls or pushes: (entry, its
/// children's entries).
fn root_with_unused_children(file: &mut DataFile) -> Option<(usize, Vec<usize>)> {
    file.code.as_mut().unwrap().decode_all().unwrap();
    let game = Game::new(file);
    let funcs = &file.functions.as_ref().unwrap().functions;
    (0..game.code_count())
        .filter(|&i| game.code_name(i).starts_with("gml_GlobalScript_"))
        .map(|i| {
            (
                i,
                game.children(i).iter().map(|&(_, k)| k).collect::<Vec<_>>(),
            )
        })
        .find(|(root, c)| {
            c.iter().any(|&k| {
                let n = game.code_name(k);
                funcs
                    .iter()
                    .position(|f| game.string(f.name) == n)
                    .is_some_and(|f| {
                        file.references_to(gmkit_data::AssetKind::Function, f)
                            .iter()
                            .all(|r| r.element.contains(&format!("#{root} ")))
                    })
            })
        })
}

/// Every root entry's instructions with function and asset operands by name, by entry name
/// (what renumbering must keep).
fn texts(file: &DataFile) -> std::collections::BTreeMap<String, Vec<String>> {
    use gmkit_data::chunks::code::{ExtOperand, PushValue};
    let game = Game::new(file);
    let code = file.code.as_ref().unwrap();
    (0..game.code_count())
        .filter(|&i| code.entries[i].body.is_root())
        .map(|i| {
            let ins = code.instructions(i).unwrap();
            let text = ins
                .iter()
                .map(|x| match x {
                    Instruction::Call { function, argc, .. } => {
                        format!("call {} {argc}", game.func_name(*function))
                    }
                    Instruction::Push {
                        value: PushValue::Function(f),
                        ..
                    } => format!("push function {}", game.func_name(*f)),
                    Instruction::Extended {
                        operand: Some(ExtOperand::Asset { asset_type, index }),
                        ..
                    } => format!(
                        "pushref {:?}",
                        game.pushref_kind(*asset_type)
                            .and_then(|k| game.asset_name(k, *index as usize))
                    ),
                    other => format!("{other:?}"),
                })
                .collect();
            (game.code_name(i).to_string(), text)
        })
        .collect()
}

/// After the replace, `remove_dropped_functions` removes the dropped functions that no other
/// code uses (child, FUNC and SCPT entries; the root's appended `exit.i`) and keeps the others;
/// every other entry's code is the same, its function and asset operands renumbered, and the
/// file checks. On 2.3–2022 and 2023+ games (2024.14 too: killstreak).
#[test]
fn dropped_functions_nothing_else_uses_are_removed() {
    use gmkit_gml::entries::remove_dropped_functions;
    // (game, whether it is 2023+)
    let games = [
        ("acrandomizer.win", false),
        ("tiktaktoe-gm-network.win", false),
        ("vendaval.win", false),
        ("longdog.win", true),
        ("killstreak.win", true),
    ];
    let mut families = [0usize; 2];
    for (name, new) in games {
        let Some(mut file) = load(name) else { return };
        let before = texts(&file);
        let Some((root, children)) = root_with_unused_children(&mut file) else {
            println!("{name}: every script's functions are used elsewhere");
            continue;
        };
        families[new as usize] += 1;
        let root_name = Game::new(&file).code_name(root).to_string();
        let child_names: Vec<String> = {
            let g = Game::new(&file);
            children
                .iter()
                .map(|&k| g.code_name(k).to_string())
                .collect()
        };
        let entries = file.code.as_ref().unwrap().entries.len();
        replace_code(&mut file, root, "x_dropped_by_test = 1;\n")
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let removed =
            remove_dropped_functions(&mut file, &[root]).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(!removed.is_empty(), "{name}: something removed");
        assert_eq!(
            file.code.as_ref().unwrap().entries.len(),
            entries - removed.len(),
            "{name}"
        );
        let game = Game::new(&file);
        for n in &child_names {
            let gone = removed.contains(n);
            assert_eq!(file.find_code_entry(n).is_none(), gone, "{name}: {n}");
            let func = file
                .functions
                .as_ref()
                .unwrap()
                .functions
                .iter()
                .any(|f| game.string(f.name) == *n);
            assert_eq!(func, !gone, "{name}: FUNC {n}");
        }
        // The root's code is the new text's alone when every function left.
        let root = file.find_code_entry(&root_name).expect("root");
        if removed.len() == child_names.len() {
            let ins = file.code.as_ref().unwrap().instructions(root).unwrap();
            assert!(
                !matches!(
                    ins.last(),
                    Some(Instruction::Unary {
                        op: Opcode::Exit,
                        ..
                    })
                ),
                "{name}: the appended exit.i left"
            );
        }
        let after = texts(&check(&file, name));
        for (entry, text) in &before {
            if *entry != root_name {
                assert_eq!(after.get(entry), Some(text), "{name}: {entry}");
            }
        }
        // Nothing left to remove.
        assert!(
            remove_dropped_functions(&mut file, &[root])
                .unwrap()
                .is_empty()
        );
    }
    assert!(families.iter().all(|&n| n > 0), "{families:?}");
}
