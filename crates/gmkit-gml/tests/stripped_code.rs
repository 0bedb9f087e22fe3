//! Code of objects a build stripped (their object slots null) calls its callees by name
//! (`call.i [by-name]"gml_Script_f"`, `call.i [by-name]"@@This@@"`): they are on no FUNC
//! chain. Seen on public 2024.13-2024.14 games gmkit had not seen (/work/wild/REPORT.md: 11
//! entries in 3 games). The decompiler writes `f(...)` and `self.m()` as for any call; the
//! compiler calls by name whatever the entry's own code called by name, script functions
//! under their full name (`gml_Script_f`) and the runtime's own functions (`@@This@@`,
//! `@@NewGMLArray@@`, ...) included.
//!
//! No corpus game has such calls, so the cases are made from a corpus game: every call of a
//! script function and of `@@This@@` / `@@NewGMLArray@@` of entries that round-trip
//! identically today turned into a call by name, as the stripped objects' code has them.

use gmkit_data::DataFile;
use gmkit_data::chunks::code::{CodeBody, Instruction};
use gmkit_gml::compile::{Names, compile_entry_with_children};
use gmkit_gml::{Game, decompile, parse, print};

/// `compile(parse(print(decompile(entry))))`, or why not.
fn round_trip(file: &DataFile, entry: usize) -> Result<Vec<Instruction>, String> {
    let game = Game::new(file);
    let d = decompile::decompile_entry(&game, entry).map_err(|e| format!("{e:?}"))?;
    if d.failures != 0 {
        return Err("unstructured".into());
    }
    let text = print::print_stmts(&d.body);
    let tree = parse::parse(&text).map_err(|e| format!("{e}"))?;
    let names = Names::new(&game);
    compile_entry_with_children(&game, &names, entry, &tree)
        .map(|(ins, _)| ins)
        .map_err(|e| format!("{e}\n{text}"))
}

/// Which calls a stripped object's code makes by name.
fn by_name_in_stripped_code(name: &str) -> bool {
    name.starts_with("gml_Script_") || name == "@@This@@" || name == "@@NewGMLArray@@"
}

#[test]
fn calls_by_name_compile_back_by_name() {
    let (mut scripts, mut internal, mut entries) = (0, 0, 0);
    for game_name in [
        "longdog.win",
        "killstreak.win",
        "acrandomizer.win",
        "rcr-wasm.win",
        "beforetheafterinn.win",
    ] {
        let bytes = gmkit_testdata::need!(gmkit_testdata::corpus_file(game_name));
        let file = gmkit_data::parse_bytes(bytes).expect("corpus file parses");
        let (Some(code), Some(funcs)) = (file.code.as_ref(), file.functions.as_ref()) else {
            continue; // a YYC build
        };
        let game = Game::new(&file);
        for entry in 0..code.entries.len() {
            if !code.entries[entry].body.is_root() || !game.children(entry).is_empty() {
                continue;
            }
            let orig = code.instructions(entry).expect("decodes").into_owned();
            if round_trip(&file, entry).ok().as_deref() != Some(orig.as_slice()) {
                continue;
            }
            // The entry with its calls by name.
            let mut changed = 0;
            let by_name: Vec<Instruction> = orig
                .iter()
                .map(|i| match i {
                    Instruction::Call { t, argc, function } => {
                        let name = funcs.functions[function.index()].name;
                        let s = game.string(name);
                        if by_name_in_stripped_code(&s) {
                            changed += 1;
                            if s.starts_with("gml_Script_") {
                                scripts += 1;
                            } else {
                                internal += 1;
                            }
                            Instruction::CallByName {
                                t: *t,
                                argc: *argc,
                                name,
                            }
                        } else {
                            i.clone()
                        }
                    }
                    other => other.clone(),
                })
                .collect();
            if changed == 0 {
                continue;
            }
            entries += 1;
            let mut stripped = file.clone();
            stripped.code.as_mut().unwrap().entries[entry].body =
                CodeBody::Instructions(by_name.clone());
            let back =
                round_trip(&stripped, entry).unwrap_or_else(|e| panic!("{game_name} {entry}: {e}"));
            assert_eq!(back, by_name, "{game_name}: entry {entry}");
        }
    }
    assert!(
        entries >= 5 && scripts >= 5 && internal >= 1,
        "{entries} entries, {scripts} script calls, {internal} runtime calls"
    );
    println!("{entries} entries, {scripts} script calls, {internal} runtime calls by name");
}
