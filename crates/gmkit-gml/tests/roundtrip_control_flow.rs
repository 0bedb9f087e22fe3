//! Control-flow shapes found on games gmkit was never tuned on, where decompiling left
//! unstructured code: each case is GameMaker's assembly → the GML it decompiles to, the
//! compiler giving that assembly back from the GML, and the GML printed back as itself in
//! every version family.

mod common;
use common::Asm;

/// The versions of the cases: GMS 1.4 (bc 14), GMS 2.0 (bc 16), 2.3 and 2023.
const FAMILIES: [(u8, u16, u16); 4] = [(14, 1, 0), (16, 2, 0), (17, 2, 3), (17, 2023, 1)];

/// Instance variables, locals (`~`) and functions (`()`) the data file knows.
const NAMES: &str = "a b c v f() g()";

/// Compiles `source` for the version, decompiles the result and prints it; checks that the
/// print compiles to the same instructions and decompiles without failures.
fn back(bc: u8, major: u16, minor: u16, source: &str) -> String {
    let mut a = Asm::new(bc, major, minor);
    let mut pre = String::new();
    for v in NAMES.split_whitespace() {
        if let Some(f) = v.strip_suffix("()") {
            pre.push_str(&format!("call.i {f} 0 / popz.v / "));
        } else {
            pre.push_str(&format!("push.v self.{v} / popz.v / "));
        }
    }
    a.asm(&pre);
    let game = gmkit_gml::Game::new(&a.file);
    let names = gmkit_gml::compile::Names::new(&game);
    let tree = gmkit_gml::parse::parse(source).expect("parses");
    let ins = gmkit_gml::compile::compile_entry(&game, &names, 0, &tree).expect("compiles");
    let d = gmkit_gml::decompile::decompile_instructions(&game, &ins);
    assert_eq!(d.failures, 0, "{source:?}: {:?}", d.failure_notes);
    let text = gmkit_gml::print::print_stmts(&d.body);
    let tree2 = gmkit_gml::parse::parse(&text)
        .unwrap_or_else(|e| panic!("the print of {source:?} does not parse: {e}\n{text}"));
    let again = gmkit_gml::compile::compile_entry(&game, &names, 0, &tree2).expect("compiles");
    let dis = gmkit_data::chunks::code::asm::Disassembler::new(&a.file);
    assert_eq!(
        dis.instructions(&again),
        dis.instructions(&ins),
        "{source:?} printed as {text:?} compiles differently"
    );
    text
}

/// `source` prints back as itself in every family.
fn same_everywhere(source: &str) {
    for (bc, major, minor) in FAMILIES {
        assert_eq!(
            back(bc, major, minor, source),
            source,
            "bc {bc} {major}.{minor}"
        );
    }
}

/// GameMaker's `asm` (2.3 and 2023) decompiles to `source`, and `source` compiles to `asm`.
fn both_ways(asm: &str, source: &str) {
    for (bc, major, minor) in [(17, 2, 3), (17, 2023, 1)] {
        assert_eq!(
            common::gml(bc, major, minor, asm),
            source,
            "{major}.{minor}"
        );
        common::compiles_to(bc, major, minor, source, asm);
    }
}

#[test]
fn then_arm_ending_in_a_conditional_continue() {
    // `if (b) { if (c) continue; }`: the inner `bf` and the outer one both land after the
    // `continue`'s jump, which is no jump over an else-arm.
    both_ways(
        "L0: / push.v self.a / conv.v.b / bf L9 / push.v self.b / conv.v.b / bf L1 / \
         push.v self.c / conv.v.b / bf L1 / b L0 / L1: / call.i f 0 / popz.v / b L0 / L9:",
        "while (a) {\n    if (b) {\n        if (c) {\n            continue;\n        }\n    }\n    f();\n}",
    );
    same_everywhere(
        "while (a) {\n    if (b) {\n        if (c) {\n            g();\n            continue;\n        }\n    }\n    f();\n}",
    );
    same_everywhere(
        "while (a) {\n    if (b) {\n        f();\n        if (c) {\n            break;\n        }\n    } else {\n        g();\n    }\n}",
    );
    same_everywhere(
        "with (a) {\n    if (b) {\n        if (c) {\n            continue;\n        }\n        if (v) {\n            continue;\n        }\n    }\n    f();\n}",
    );
}

#[test]
fn switch_with_only_a_default() {
    // `<v> b default; b end; default: …; end: popz`.
    both_ways(
        "push.v self.a / b L1 / b L2 / L1: / call.i f 0 / popz.v / b L2 / L2: / popz.v",
        "switch (a) {\n    default:\n        f();\n        break;\n}",
    );
    both_ways(
        "push.v self.a / b L1 / b L2 / L1: / b L2 / L2: / popz.v",
        "switch (a) {\n    default:\n        break;\n}",
    );
    same_everywhere("switch (a) {\n    default:\n        f();\n}");
    same_everywhere(
        "while (b) {\n    switch (a) {\n        default:\n            f();\n            break;\n    }\n    g();\n}",
    );
}

#[test]
fn case_label_calling_a_function() {
    both_ways(
        "push.v self.a / dup.v 0 / call.i f 0 / cmp.v.v EQ / bt L1 / b L2 / \
         L1: / call.i g 0 / popz.v / b L2 / L2: / popz.v",
        "switch (a) {\n    case f():\n        g();\n        break;\n}",
    );
    same_everywhere(
        "switch (a) {\n    case 1:\n        f();\n        break;\n    case g():\n        f();\n        break;\n}",
    );
}

/// 2023.8+: a bare name of an asset compiles to the asset's `pushref` even when one of the
/// game's variables has the name too (a variable reached as `obj.name` elsewhere); a local of
/// that name hides the asset.
#[test]
fn asset_name_that_is_also_a_variable() {
    use gmkit_data::chunks::code::{ExtOperand, ExtendedKind, Instruction};
    use gmkit_data::chunks::sprite::{Sprite, Sprites};
    let compile = |v: (u16, u16), source: &str| {
        let mut a = Asm::new(17, v.0, v.1);
        let name = a.file.strings.as_mut().unwrap().push("spr_wall");
        a.file.sprites = Some(Sprites {
            sprites: vec![
                None,
                Some(Sprite {
                    name,
                    ..Sprite::default()
                }),
            ],
        });
        a.asm("push.v self.spr_wall / popz.v / push.v self.x / popz.v");
        let game = gmkit_gml::Game::new(&a.file);
        let names = gmkit_gml::compile::Names::new(&game);
        let tree = gmkit_gml::parse::parse(source).expect("parses");
        let ins = gmkit_gml::compile::compile_entry(&game, &names, 0, &tree).expect("compiles");
        let sprite = game.pushref_type(gmkit_gml::game::AssetKind::Sprite);
        let d = gmkit_gml::decompile::decompile_instructions(&game, &ins);
        (ins, sprite, gmkit_gml::print::print_stmts(&d.body))
    };
    let (ins, sprite, text) = compile((2023, 8), "x = spr_wall;");
    assert!(
        matches!(
            ins.first(),
            Some(Instruction::Extended {
                kind: ExtendedKind::PUSHREF,
                operand: Some(ExtOperand::Asset { asset_type, index: 1 }),
                ..
            }) if Some(*asset_type) == sprite
        ),
        "{ins:?}"
    );
    assert_eq!(text, "x = spr_wall;");
    // A local of the name is the local.
    let (ins, _, _) = compile((2023, 8), "var spr_wall = 0;\nx = spr_wall;");
    assert!(
        !ins.iter().any(|i| matches!(
            i,
            Instruction::Extended {
                kind: ExtendedKind::PUSHREF,
                ..
            }
        )),
        "{ins:?}"
    );
    // Before 2023.8 the name is the variable (assets are plain numbers there).
    let (ins, _, text) = compile((2023, 1), "x = spr_wall;");
    assert!(
        !ins.iter()
            .any(|i| matches!(i, Instruction::Extended { .. })),
        "{ins:?}"
    );
    assert_eq!(text, "x = spr_wall;");
}

/// A function used as a value is `pushref.i <func>` from 2024.2, unless the file's own code
/// references functions only with `push.i [function]…` (a compiler of 2024.2-looking files
/// that keeps the older form): then the compiler keeps it too.
#[test]
fn function_value_as_the_files_code_references_functions() {
    let entry = "push.i [function]gml_Script_f / conv.i.v / pop.v.v self.a";
    for v in [(2024, 2), (2024, 14)] {
        common::compiles_to_in(
            17,
            v.0,
            v.1,
            "a = f;",
            "push.i [function]gml_Script_f / pop.v.i builtin.a",
            Some(entry),
        );
    }
    // Without that evidence (no code pushes a function), 2024.2 references it by `pushref`.
    let mut a = Asm::new(17, 2024, 2);
    let ins = a.asm("call.i gml_Script_f 0 / pop.v.v self.a");
    let name = a
        .file
        .strings
        .as_mut()
        .unwrap()
        .push("gml_Object_test_Create_0");
    a.file.code = Some(gmkit_data::chunks::code::CodeEntries {
        entries: vec![gmkit_data::chunks::code::CodeEntry {
            name,
            body: gmkit_data::chunks::code::CodeBody::Instructions(ins),
            locals_count: 1,
            arguments_count: 0,
            arguments_flag: false,
            execution_offset: 0,
        }],
        empty_body: false,
    });
    let game = gmkit_gml::Game::new(&a.file);
    let names = gmkit_gml::compile::Names::new(&game);
    let tree = gmkit_gml::parse::parse("a = f;").expect("parses");
    let ins = gmkit_gml::compile::compile_entry(&game, &names, 0, &tree).expect("compiles");
    assert!(
        matches!(
            ins.first(),
            Some(gmkit_data::chunks::code::Instruction::Extended {
                kind: gmkit_data::chunks::code::ExtendedKind::PUSHREF,
                ..
            })
        ),
        "{ins:?}"
    );
    // The feature: 2024.2+ by version, off with the evidence.
    let features = |major, minor| gmkit_gml::Features::new(Asm::new(17, major, minor).file.version);
    assert!(features(2024, 2).function_refs());
    assert!(!features(2024, 2).with_function_refs(false).function_refs());
    assert!(!features(2024, 1).with_function_refs(true).function_refs());
    // A file without code shows nothing: the version decides.
    let a = Asm::new(17, 2024, 2);
    assert!(gmkit_gml::Game::new(&a.file).features.function_refs());
}

/// `x |= a < b`: a boolean right side of `&= |= ^=` converts straight to int64 from 2.3.2
/// (`conv.b.l`, one conversion), and `x += a < b` to int32.
#[test]
fn boolean_right_side_of_a_compound_assignment() {
    common::compiles_to(
        17,
        2023,
        1,
        "a |= b < c;",
        "push.v self.a / push.v self.b / push.v self.c / cmp.v.v LT / conv.b.l / or.l.v / \
         pop.v.v self.a",
    );
    common::compiles_to(
        17,
        2023,
        1,
        "a += b < c;",
        "push.v self.a / push.v self.b / push.v self.c / cmp.v.v LT / conv.b.i / add.i.v / \
         pop.v.v self.a",
    );
    assert_eq!(
        common::gml(
            17,
            2023,
            1,
            "push.v self.a / push.v self.b / push.v self.c / cmp.v.v LT / conv.b.l / or.l.v / \
             pop.v.v self.a"
        ),
        "a |= b < c;"
    );
}

/// The 2022.11 `repeat` tail (`pushi.e 1; sub.i.i; dup.i 0; bt`, no `conv.i.b`) in a file whose
/// chunks look older: the file's own code decides, and the compiler follows it.
#[test]
fn repeat_tail_as_the_files_code_has_it() {
    let short = "push.v self.a / conv.v.i / dup.i 0 / push.i 0 / cmp.i.i LTE / bt L9 / \
                 L1: / call.i f 0 / popz.v / pushi.e 1 / sub.i.i / dup.i 0 / bt L1 / L9: / popz.i";
    common::compiles_to_in(17, 2022, 9, "repeat (a) {\n    f();\n}", short, Some(short));
    assert_eq!(common::gml(17, 2022, 9, short), "repeat (a) {\n    f();\n}");
    // Without that evidence, 2022.9 is the older tail.
    let long = "push.v self.a / conv.v.i / dup.i 0 / push.i 0 / cmp.i.i LTE / bt L9 / \
                L1: / call.i f 0 / popz.v / push.i 1 / sub.i.i / dup.i 0 / conv.i.b / bt L1 / \
                L9: / popz.i";
    common::compiles_to_in(17, 2022, 9, "repeat (a) {\n    f();\n}", long, Some(long));
}

/// `global` as a value is `call.i @@Global@@ 0` from 2023.11, and in an older-looking file whose
/// functions include `@@Global@@` (its code reads `global` that way).
#[test]
fn global_as_a_call_as_the_files_functions_show() {
    let global_call = |asm: &str| {
        let mut a = Asm::new(17, 2023, 8);
        a.asm(asm);
        gmkit_gml::Game::new(&a.file).features.global_as_call()
    };
    assert!(global_call("call.i @@Global@@ 0 / popz.v"));
    assert!(!global_call("push.v self.a / popz.v"));
    // The compiler follows: `global` as a value is the call.
    let mut a = Asm::new(17, 2023, 8);
    a.asm("call.i @@Global@@ 0 / popz.v / push.v self.a / popz.v / push.v local.g / popz.v");
    let game = gmkit_gml::Game::new(&a.file);
    let names = gmkit_gml::compile::Names::new(&game);
    let tree = gmkit_gml::parse::parse("var g = global;").expect("parses");
    let ins = gmkit_gml::compile::compile_entry(&game, &names, 0, &tree).expect("compiles");
    let dis = gmkit_data::chunks::code::asm::Disassembler::new(&a.file);
    assert!(
        dis.instructions(&ins).starts_with("call.i @@Global@@"),
        "{}",
        dis.instructions(&ins)
    );
}

/// 2024.14: `exit` in a switch's `default:` case leaves the switch value on the stack (no
/// `popz` before it), other cases still drop it; 2024.13 drops it in every case.
#[test]
fn exit_in_the_default_case_of_a_switch() {
    let source = "switch (a) {\n    case 1:\n        exit;\n    default:\n        exit;\n}";
    let new = "push.v builtin.a / dup.v 0 / pushi.e 1 / cmp.i.v EQ / bt L1 / b L2 / b L9 / \
               L1: / popz.v / exit.i / L2: / exit.i / L9: / popz.v";
    common::compiles_to(17, 2024, 14, source, new);
    assert_eq!(common::gml(17, 2024, 14, new), source);
    let old = "push.v builtin.a / dup.v 0 / pushi.e 1 / cmp.i.v EQ / bt L1 / b L2 / b L9 / \
               L1: / popz.v / exit.i / L2: / popz.v / exit.i / L9: / popz.v";
    common::compiles_to(17, 2024, 13, source, old);
}

#[test]
fn for_loop_with_an_empty_step_and_a_continue() {
    // `for (; a; )`: a `continue` jumps to the back jump itself (where the step would be),
    // not to the condition as in a `while` loop.
    both_ways(
        "L0: / push.v self.a / conv.v.b / bf L9 / push.v self.b / conv.v.b / bf L2 / \
         push.v self.c / conv.v.b / bf L1 / call.i f 0 / popz.v / b L3 / L1: / call.i g 0 / \
         popz.v / L2: / call.i f 0 / popz.v / L3: / b L0 / L9:",
        "for (; a; ) {\n    if (b) {\n        if (c) {\n            f();\n            continue;\n        }\n        g();\n    }\n    f();\n}",
    );
    same_everywhere(
        "for (; a; ) {\n    if (b) {\n        if (c) {\n            f();\n            continue;\n        }\n        g();\n    }\n    f();\n}",
    );
    // A `while` loop's `continue` still goes to the condition.
    same_everywhere(
        "while (a) {\n    if (b) {\n        if (c) {\n            f();\n            continue;\n        }\n        g();\n    }\n    f();\n}",
    );
}
