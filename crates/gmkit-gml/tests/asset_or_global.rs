//! A name that is both an asset and a `global.` variable (`global.character` beside a sprite
//! `character`): GameMaker reads the plain name as the asset (`pushref`, 2023.8+), the VARI
//! entry `global.character` makes notwithstanding. Found on public games gmkit had not seen
//! (/work/wild/REPORT.md: a sprite `character`, a sound `aquhache`). An instance variable of
//! that name still wins, as before.

use gmkit_data::DataFile;
use gmkit_data::chunks::code::{ExtOperand, ExtendedKind, Instruction};
use gmkit_gml::Game;
use gmkit_gml::compile::{Names, compile_text};

fn load(name: &str) -> Option<DataFile> {
    let bytes = gmkit_testdata::corpus_file(name)?;
    Some(gmkit_data::parse_bytes(bytes).expect("corpus file parses"))
}

/// The first object event without nested functions.
fn target(file: &DataFile) -> usize {
    let game = Game::new(file);
    let code = file.code.as_ref().expect("code");
    (0..code.entries.len())
        .find(|&i| {
            code.entries[i].body.is_root()
                && game.code_name(i).starts_with("gml_Object_")
                && game.children(i).is_empty()
        })
        .expect("an object event")
}

/// Whether `ins` reads sprite `index` as an asset reference.
fn pushes_ref(ins: &[Instruction], index: u32) -> bool {
    ins.iter().any(|i| {
        matches!(i, Instruction::Extended {
            kind: ExtendedKind::PUSHREF,
            operand: Some(ExtOperand::Asset { index: x, .. }),
            ..
        } if *x == index)
    })
}

#[test]
fn a_plain_name_reads_the_asset_unless_an_instance_has_the_variable() {
    // longdog: 2024.13, asset references.
    let file = gmkit_testdata::need!(load("longdog.win"));
    let game = Game::new(&file);
    let names = Names::new(&game);
    let entry = target(&file);
    // A sprite whose name the file has no variable of.
    let (_, index, sprite) = game
        .assets()
        .find(|&(k, _, n)| {
            format!("{k:?}") == "Sprite"
                && !file.variables.as_ref().unwrap().variables.iter().any(|v| {
                    file.strings
                        .as_ref()
                        .unwrap()
                        .get(v.name)
                        .is_some_and(|s| s == n)
                })
        })
        .expect("a sprite");
    let index = index as u32;
    // Only a global of that name: the plain name is the sprite.
    let text = format!("global.{sprite} = 1;\nsprite_index = {sprite};\n");
    let c = compile_text(&game, &names, entry, &text).unwrap_or_else(|e| panic!("{e}"));
    assert!(pushes_ref(&c.instructions, index), "{text}");
    // An instance variable of that name: the plain name is the variable.
    let text = format!("self.{sprite} = 1;\nsprite_index = {sprite};\n");
    let c = compile_text(&game, &names, entry, &text).unwrap_or_else(|e| panic!("{e}"));
    assert!(!pushes_ref(&c.instructions, index), "{text}");
}
