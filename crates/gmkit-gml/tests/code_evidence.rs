//! What a file's code shows about the compiler that made it, beyond the version its chunks
//! reveal: each piece of evidence switches the code generation the compiler reproduces.

mod common;
use common::Asm;

/// A 2023.8-looking file whose code writes a variable of its own with instance -6 (`pop.v.v
/// builtin.hp`) was made by 2024.2+: bare instance variables compile that way.
#[test]
fn own_variable_with_instance_builtin_means_2024_2() {
    let mut a = Asm::new(17, 2023, 8);
    let ins = a.asm("pushi.e 3 / pop.v.i builtin.hp / push.v builtin.hp / popz.v");
    a.file.code = Some(one_entry(&mut a, ins));
    let game = gmkit_gml::Game::new(&a.file);
    assert!(game.features.self_to_builtin());
    assert!(game.features.version().non_lts_at_least(2024, 2));
    // The compiler then writes `hp` the same way.
    let names = gmkit_gml::compile::Names::new(&game);
    let tree = gmkit_gml::parse::parse("hp = 3;").unwrap();
    let got = gmkit_gml::compile::compile_entry(&game, &names, 0, &tree).unwrap();
    assert_eq!(got, a.asm("pushi.e 3 / pop.v.i builtin.hp"));
}

/// Reading a function or constructor held by a variable uses instance -6 in every 2.3+
/// version: no evidence; neither are built-in variables (VARI id -6).
#[test]
fn variable_calls_and_builtins_are_no_evidence() {
    for text in [
        "call.i @@This@@ 0 / push.v builtin.f / callv.v 0 / popz.v",
        "push.v builtin.C / call.i @@NewGMLObject@@ 1 / popz.v",
    ] {
        let mut a = Asm::new(17, 2023, 8);
        let ins = a.asm(text);
        a.file.code = Some(one_entry(&mut a, ins));
        let game = gmkit_gml::Game::new(&a.file);
        assert!(!game.features.self_to_builtin(), "{text}");
    }
    let mut a = Asm::new(17, 2023, 8);
    let ins = a.asm("pushi.e 3 / pop.v.i builtin.room");
    a.file.variables.as_mut().unwrap().variables[0].variable_id = -6;
    a.file.code = Some(one_entry(&mut a, ins));
    assert!(!gmkit_gml::Game::new(&a.file).features.self_to_builtin());
}

fn one_entry(
    a: &mut Asm,
    ins: Vec<gmkit_data::chunks::code::Instruction>,
) -> gmkit_data::chunks::code::CodeEntries {
    let name = a
        .file
        .strings
        .as_mut()
        .unwrap()
        .push("gml_Object_o_Create_0");
    gmkit_data::chunks::code::CodeEntries {
        entries: vec![gmkit_data::chunks::code::CodeEntry {
            name,
            body: gmkit_data::chunks::code::CodeBody::Instructions(ins),
            locals_count: 1,
            arguments_count: 0,
            arguments_flag: false,
            execution_offset: 0,
        }],
        empty_body: false,
    }
}

/// A repeat loop ending without `conv.i.b` (`pushi.e 1 / sub.i.i / dup.i 0 / bt`) was made
/// by 2022.11+ though the chunks look older (wild: a game detected as 2022.9); the long
/// tail (`push.i 1 ... conv.i.b`) is no evidence.
#[test]
fn short_repeat_tail_means_2022_11() {
    let short = "pushi.e 3 / conv.i.i / dup.i 0 / push.i 0 / cmp.i.i LTE / bt L9 / L1: / \
        call.i f 0 / popz.v / pushi.e 1 / sub.i.i / dup.i 0 / bt L1 / L9: / popz.i";
    let long = short.replace(
        "pushi.e 1 / sub.i.i / dup.i 0 / bt L1",
        "push.i 1 / sub.i.i / dup.i 0 / conv.i.b / bt L1",
    );
    for (text, want) in [(short.to_string(), true), (long, false)] {
        let mut a = Asm::new(17, 2022, 9);
        let ins = a.asm(&text);
        a.file.code = Some(one_entry(&mut a, ins));
        let game = gmkit_gml::Game::new(&a.file);
        assert_eq!(game.features.short_repeat_tail(), want, "{text}");
    }
}
