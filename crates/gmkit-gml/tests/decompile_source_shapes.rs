//! Decompiled code that reads like source: each case is GML as a source would write it,
//! compiled for a version (the compiler's output is checked against GameMaker's in
//! `compile_constructs.rs`), decompiled, and expected to print back as the same text; and the
//! assembly → GML direction for shapes the compiler does not emit itself.

mod common;
use common::Asm;

/// Compiles `source` for the version (with the names of `vars` known to the data file: an
/// instance variable `a`, a local `~a`, a function `f()`), decompiles the result and prints it; also checks that the
/// printed text compiles to the same instructions.
fn back(bc: u8, major: u16, minor: u16, vars: &str, source: &str) -> String {
    let mut a = Asm::new(bc, major, minor);
    let mut pre = String::new();
    for v in vars.split_whitespace() {
        if let Some(l) = v.strip_prefix('~') {
            pre.push_str(&format!("push.v local.{l} / popz.v / "));
        } else if let Some(f) = v.strip_suffix("()") {
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

/// The versions of the cases: GMS 1.4 (bc 14), GMS 2.0 (bc 16), 2.3 and 2023.
const FAMILIES: [(u8, u16, u16); 4] = [(14, 1, 0), (16, 2, 0), (17, 2, 3), (17, 2023, 1)];

/// Every family prints `source` back as itself.
fn same_everywhere(vars: &str, source: &str) {
    same_in(&FAMILIES, vars, source)
}

/// Every family from bc 15 on prints `source` back as itself (before, `x++` and `x += 1`, and
/// `x = x + 1` for a local, are the same code: spec §4.6).
fn same_from_bc15(vars: &str, source: &str) {
    same_in(&FAMILIES[1..], vars, source)
}

fn same_in(families: &[(u8, u16, u16)], vars: &str, source: &str) {
    for &(bc, major, minor) in families {
        assert_eq!(
            back(bc, major, minor, vars, source),
            source,
            "bc {bc} {major}.{minor}"
        );
    }
}

const NAMES: &str = "a b c d i j m n id ~i ~j ~t ~u ~k f() g()";

#[test]
fn for_loops() {
    same_everywhere(NAMES, "for (;;) {\n    f();\n}");
    same_from_bc15(NAMES, "for (var i = 0; i < n; i++) {\n    f();\n}");
    assert_eq!(
        back(
            14,
            1,
            0,
            NAMES,
            "for (var i = 0; i < n; i++) {\n    f();\n}"
        ),
        "for (var i = 0; i < n; i += 1) {\n    f();\n}"
    );
    same_everywhere(NAMES, "for (i = n; i > 0; i -= 2) {\n    f();\n}");
    // `continue` goes to the step: the for shape even without a condition.
    same_from_bc15(
        NAMES,
        "for (i = 0; ; i++) {\n    if (a) {\n        continue;\n    }\n    f();\n}",
    );
    // A loop whose `continue` goes to its condition stays a while loop (as a for loop its
    // continue would run the step).
    same_from_bc15(
        NAMES,
        "i = 0;\nwhile (i < n) {\n    if (a) {\n        continue;\n    }\n    i++;\n}",
    );
    // No initialisation of the stepped variable: a while loop.
    same_from_bc15(NAMES, "while (i < n) {\n    f();\n    i++;\n}");
    // Nested, with the locals declared in the headers.
    same_from_bc15(
        NAMES,
        "for (var i = 0; i < n; i++) {\n    for (var j = 0; j < i; j++) {\n        f();\n    }\n}",
    );
}

#[test]
fn var_at_first_assignment() {
    same_everywhere(
        NAMES,
        "var t = 0;\nif (a) {\n    var u = t + 1;\n    b = u;\n}",
    );
    // Mentioned after the block of its first assignment: declared at the top.
    same_everywhere(
        NAMES,
        "var t;\nif (a) {\n    t = 1;\n} else {\n    t = 2;\n}\nb = t;",
    );
    // Read before it is assigned (or by its own first value): declared at the top.
    same_from_bc15(NAMES, "var t;\nt = t + 1;");
    same_everywhere(NAMES, "var t;\nb = t;\nt = 2;");
    // A later loop over the same local declares it again, as sources do.
    same_from_bc15(
        NAMES,
        "for (var i = 0; i < n; i++) {\n    f();\n}\nfor (var i = 1; i < n; i++) {\n    g();\n}",
    );
    // The loop variable reused after the loop, in the same block.
    same_from_bc15(NAMES, "for (var i = 0; i < n; i++) {\n    f();\n}\nb = i;");
    // First assigned in branches: declared just before them, in the innermost block holding
    // every use (two such locals share the `var`).
    same_everywhere(
        NAMES,
        "f();\nif (a) {\n    g();\n    var t, u;\n    if (b) {\n        t = 1;\n        u = 1;\n    } else {\n        t = 2;\n        u = 2;\n    }\n    b = t + u;\n}",
    );
    // Not inside a loop's body: the value may be carried from one iteration to the next.
    same_everywhere(
        NAMES,
        "f();\nvar t;\nwhile (a) {\n    if (b) {\n        t = 1;\n    } else {\n        t = 2;\n    }\n    b = t;\n}",
    );
}

#[test]
fn switch_shapes() {
    for s in [
        "switch (a) {\n}",
        "switch (a) {\n    default:\n}",
        "switch (a) {\n    case 1:\n        f();\n    default:\n}",
        "switch (a) {\n    case 1:\n    default:\n        f();\n}",
    ] {
        same_everywhere(NAMES, s);
    }
    // Typed booleans (2.3.7+ / 2022+): the switch compares booleans.
    assert_eq!(
        v2023(
            NAMES,
            "switch (true) {\n    case true:\n        f();\n        break;\n}"
        ),
        "switch (true) {\n    case true:\n        f();\n        break;\n}"
    );
}

#[test]
fn continue_and_break_in_with() {
    same_everywhere(
        NAMES,
        "with (a) {\n    if (b) {\n        continue;\n    }\n    f();\n}",
    );
    same_everywhere(
        NAMES,
        "while (a) {\n    with (b) {\n        if (c) {\n            break;\n        }\n        f();\n    }\n}",
    );
}

#[test]
fn integer_division_assignment() {
    // GML has no `div=`; the code of `a = a div 2` is that of a compound assignment.
    same_everywhere(NAMES, "a = a div 2;");
    same_everywhere(NAMES, "a = a div (b + 1);");
}

#[test]
fn increments_as_values() {
    for s in [
        "d = ++a.b;",
        "d = a.b--;",
        "d = ++m[1];",
        "d = m[2]++;",
        "d = ++m[1, 2];",
        "m[1, 2] += 3;",
    ] {
        same_everywhere(NAMES, s);
    }
    // 2.3+ multi-dimensional element.
    assert_eq!(v2023(NAMES, "m[i][j] += 3;"), "m[i][j] += 3;");
    assert_eq!(
        v2023(NAMES, "m[i][j] = m[i][j] + 3;"),
        "m[i][j] = m[i][j] + 3;"
    );
}

#[test]
fn instance_numbers() {
    for s in [
        "a = (100005).b;",
        "a = (140000).b;",
        "a = (165000).b;",
        "a = (40000).b;",
        "a = (170000).b;",
    ] {
        same_everywhere(NAMES, s);
    }
    // An `[instance]` field above 32767 (id above 132767) is unsigned.
    assert_eq!(
        common::gml(16, 2, 0, "push.v [instance]-25536.b / pop.v.v self.a"),
        "a = (140000).b;"
    );
    assert_eq!(
        common::gml(16, 2, 0, "push.v -25536.b / pop.v.v self.a"),
        "a = (40000).b;"
    );
}

#[test]
fn with_other() {
    // bc 15 – 2.2: `with (other)` pushes `other.id`.
    let text = "push.v other.id / pushenv L8 / L1: / call.i f 0 / popz.v / L8: / popenv L1";
    assert_eq!(common::gml(16, 2, 0, text), "with (other) {\n    f();\n}");
    // 2.3+: `other.id` is what the source wrote.
    assert_eq!(
        common::gml(17, 2023, 1, text),
        "with (other.id) {\n    f();\n}"
    );
}

#[test]
fn empty_then_arm_before_a_break() {
    // The jump over the else lands on the `break` statement, not on the switch's end: an
    // if/else (vendaval's CE_XML), not `if (c) continue;`.
    same_everywhere(
        NAMES,
        "while (a) {\n    switch (b) {\n        case 1:\n            f();\n            break;\n        \
         default:\n            if (c) {\n            } else {\n                d = 0;\n            }\n            \
         break;\n    }\n    if (d) {\n        g();\n    }\n}",
    );
}

#[test]
fn a_local_used_afresh_in_separate_blocks_is_declared_in_each() {
    // `var d` in two `with` blocks, each starting with a plain assignment: declared where each
    // piece starts, as sources write it (a `var` emits no code).
    same_everywhere(
        NAMES,
        "with (a) {\n    var t = 1;\n    b = t;\n}\nwith (c) {\n    var t = 2;\n    d = t;\n}",
    );
    // A piece reading the value another left is not afresh: declared once, at the top.
    same_everywhere(
        NAMES,
        "var t;\nwith (a) {\n    t = 1;\n}\nwith (c) {\n    d = t;\n}",
    );
}

#[test]
fn numbers_beyond_int32() {
    // A literal beyond int32 compiles to an int64 push, as `int64(…)` does: 32-bit masks and
    // colours with alpha print in hexadecimal, larger numbers plainly, without `int64(…)`.
    same_everywhere(NAMES, "a = $FF0000FF;\nb = a & $FFFFFFFF;");
    same_everywhere(NAMES, "a = 360005277377;");
    // In int32 range an int64 push is what `int64(…)` (or an enum member) compiles to.
    same_everywhere(NAMES, "a = int64(5);");
}
