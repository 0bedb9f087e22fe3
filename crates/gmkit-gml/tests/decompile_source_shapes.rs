//! Decompiled code that reads like source: each case is GML as a source would write it,
//! compiled for a version (the compiler's output is checked against GameMaker's in
//! `compile_constructs.rs`), decompiled, and expected to print back as the same text; and the
//! assembly → GML direction for shapes the compiler does not emit itself.

mod common;
use common::Asm;

/// Compiles `source` for the version (with the instance variables `vars` and the functions
/// `funcs` known to the data file), decompiles the result and prints it; also checks that the
/// printed text compiles to the same instructions.
fn back(bc: u8, major: u16, minor: u16, vars: &str, source: &str) -> String {
    let mut a = Asm::new(bc, major, minor);
    let mut pre = String::new();
    for v in vars.split_whitespace() {
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
    assert_eq!(d.failures, 0, "{:?}", d.failure_notes);
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

/// [`back`] for 2023.1.
fn v2023(vars: &str, source: &str) -> String {
    back(17, 2023, 1, vars, source)
}

#[test]
fn explore() {
    for s in [
        "for (;;) { f(); }",
        "for (i = 0; ; i++) { if (a) continue; f(); }",
        "with (a) { if (b) continue; f(); }",
        "while (a) { with (b) { if (c) continue; f(); } }",
        "try { f(); } finally { g(); }",
        "try { f(); exit; } finally { g(); }",
        "switch (a) { }",
        "switch (a) { default: }",
        "switch (a) { case 1: f(); default: }",
        "switch (true) { case true: f(); break; }",
        "a = a div 2;",
        "m[1, 2] += 3;",
    ] {
        let r = std::panic::catch_unwind(|| v2023("a b c i m f() g()", s));
        eprintln!("=== {s}\n{r:?}");
    }
}

#[test]
fn explore_asm() {
    for s in [
        "switch (a) { default: }",
        "switch (a) { case 1: f(); default: }",
        "switch (a) { case 1: default: f(); }",
        "switch (true) { case true: f(); break; }",
    ] {
        let mut a = Asm::new(17, 2023, 1);
        a.asm("push.v self.a / popz.v / call.i f 0 / popz.v");
        let game = gmkit_gml::Game::new(&a.file);
        let names = gmkit_gml::compile::Names::new(&game);
        let tree = gmkit_gml::parse::parse(s).expect("parses");
        let ins = gmkit_gml::compile::compile_entry(&game, &names, 0, &tree).expect("compiles");
        let dis = gmkit_data::chunks::code::asm::Disassembler::new(&a.file);
        eprintln!("=== {s}\n{}", dis.instructions(&ins));
    }
}

#[test]
fn finally_runs_before_exit_once() {
    // try { f(); exit; } finally { g(); } (spec §5.9: the finally body is inlined before the
    // `exit`, with an unpopped `@@try_unhook@@`).
    let text = "push.i 72 / conv.i.v / push.i -1 / conv.i.v / call.i @@try_hook@@ 2 / popz.v / \
        call.i f 0 / popz.v / call.i g 0 / popz.v / call.i @@try_unhook@@ 0 / exit.i / \
        call.i @@try_unhook@@ 0 / popz.v / call.i g 0 / popz.v / \
        call.i @@finish_finally@@ 0 / popz.v / b L / L:";
    assert_eq!(
        common::gml(17, 2023, 1, text),
        "try {\n    f();\n    exit;\n} finally {\n    g();\n}"
    );
}

#[test]
fn explore2() {
    for (bc, maj, min) in [(16u8, 2u16, 0u16), (14, 1, 0), (17, 2023, 1)] {
        for s in [
            "d = ++a.b;",
            "d = a.b--;",
            "d = ++m[1];",
            "d = m[2]++;",
            "d = ++m[1, 2];",
            "m[1, 2] += 3;",
            "m[i][j] += 3;",
            "with (other) { f(); }",
            "with (other.id) { f(); }",
            "a = 100005;",
            "a = (100005).b;",
            "a = (140000).b;",
            "a = (40000).b;",
            "a = (165000).b;",
        ] {
            let r = std::panic::catch_unwind(|| back(bc, maj, min, "a b c d i j m id f() g()", s));
            eprintln!("=== {bc} {s}\n{r:?}");
        }
    }
}
