//! Decompiler cases: small instruction sequences (as GameMaker emits them, spec
//! `gml-bytecode.md`) → expected GML, construct by construct and version by version.

mod common;
use common::gml;

fn v23(text: &str) -> String {
    gml(17, 2, 3, text)
}

#[test]
fn arithmetic_and_assignment() {
    assert_eq!(
        v23("push.v self.a / pushi.e 2 / mul.i.v / push.v self.b / sub.v.v / pop.v.v self.v"),
        "v = a * 2 - b;"
    );
    assert_eq!(
        v23("push.v self.a / pushi.e 4 / conv.i.d / div.d.v / pop.v.v self.v"),
        "v = a / 4;"
    );
    assert_eq!(
        v23("push.s \"hp: \" / push.v self.t / add.v.s / pop.v.v self.s"),
        "s = \"hp: \" + t;"
    );
    assert_eq!(
        v23("push.v self.a / conv.v.b / not.b / pop.v.b self.v"),
        "v = !a;"
    );
    assert_eq!(
        v23("push.v self.a / conv.v.l / not.l / pop.v.l self.v"),
        "v = ~a;"
    );
    assert_eq!(
        v23("push.v self.a / pushi.e 3 / push.v self.b / add.v.i / mul.v.v / pop.v.v self.v"),
        "v = a * (3 + b);"
    );
}

#[test]
fn compound_and_increment() {
    // `a /= 2` has no conv; `a = a / 2` has one.
    assert_eq!(
        v23("push.v self.a / pushi.e 2 / div.i.v / pop.v.v self.a"),
        "a /= 2;"
    );
    assert_eq!(
        v23("push.v self.a / pushi.e 2 / conv.i.d / div.d.v / pop.v.v self.a"),
        "a = a / 2;"
    );
    // `++` uses plain push.e 1; `+= 1` uses pushi.e 1.
    assert_eq!(
        v23("push.v self.a / push.e 1 / add.i.v / pop.v.v self.a"),
        "a++;"
    );
    assert_eq!(
        v23("push.v self.a / pushi.e 1 / add.i.v / pop.v.v self.a"),
        "a += 1;"
    );
    // Compound ops on locals re-read with plain push; pushloc means a plain assignment.
    assert_eq!(
        v23("pushloc.v local.n / pushi.e 1 / add.i.v / pop.v.v local.n"),
        "var n;\nn = n + 1;"
    );
    // Post- and pre-increment as expressions.
    assert_eq!(
        v23("push.v self.a / dup.v 0 / push.e 1 / add.i.v / pop.v.v self.a / pop.v.v self.v"),
        "v = a++;"
    );
    assert_eq!(
        v23("push.v self.a / push.e 1 / sub.i.v / dup.v 0 / pop.v.v self.a / pop.v.v self.v"),
        "v = --a;"
    );
}

#[test]
fn dot_access_and_arrays() {
    assert_eq!(
        v23(
            "push.v self.box / pushi.e -9 / push.v [stacktop]self.item / pushi.e -9 / \
             push.v [stacktop]self.w / pop.v.v self.t"
        ),
        "t = box.item.w;"
    );
    assert_eq!(
        v23(
            "push.v self.box / pushi.e -9 / dup.i 4 / push.v [stacktop]self.w / pushi.e 2 / \
             add.i.v / pop.i.v [stacktop]self.w"
        ),
        "box.w += 2;"
    );
    assert_eq!(
        v23(
            "pushi.e 5 / conv.i.v / pushi.e -1 / push.v self.i / conv.v.i / \
             pop.v.v [array]self.arr"
        ),
        "arr[i] = 5;"
    );
    assert_eq!(
        v23("pushi.e -5 / pushi.e 2 / push.v [array]self.arr / pop.v.v self.v"),
        "v = global.arr[2];"
    );
    // 2.3 multi-dimensional.
    assert_eq!(
        v23(
            "pushi.e -1 / pushi.e 1 / push.v [multipush]self.m / pushi.e 2 / pushac.e / \
             pushi.e 3 / pushaf.e / pop.v.v self.v"
        ),
        "v = m[1][2][3];"
    );
    assert_eq!(
        v23(
            "pushi.e 7 / conv.i.v / pushi.e -1 / pushi.e 1 / push.v [multipushpop]self.m / \
             pushi.e 2 / popaf.e"
        ),
        "m[1][2] = 7;"
    );
    // Pre-2.3 two-index arrays (32000 stride).
    assert_eq!(
        gml(
            16,
            2,
            0,
            "pushi.e -1 / push.v self.i / conv.v.i / chkindex.e / push.i 32000 / mul.i.i / \
             push.v self.j / conv.v.i / chkindex.e / add.i.i / push.v [array]self.a / \
             pop.v.v self.v"
        ),
        "v = a[i, j];"
    );
}

#[test]
fn short_circuit_and_ternary() {
    assert_eq!(
        v23(
            "push.v self.ok / conv.v.b / bf L1 / push.v self.n / pushi.e 0 / cmp.i.v GT / \
             bf L1 / push.v self.n / call.i f 1 / conv.v.b / b L2 / L1: / push.e 0 / L2: / \
             bf L3 / call.i g 0 / popz.v / L3:"
        ),
        "if (ok && n > 0 && f(n)) {\n    g();\n}"
    );
    assert_eq!(
        v23(
            "push.v self.a / conv.v.b / bt L1 / push.v self.b / conv.v.b / b L2 / L1: / \
             push.e 1 / L2: / pop.v.b self.v"
        ),
        "v = a || b;"
    );
    assert_eq!(
        v23(
            "push.v self.c / conv.v.b / bf L1 / pushi.e 1 / conv.i.v / b L2 / L1: / \
             push.v self.x / L2: / pop.v.v self.v"
        ),
        "v = c ? 1 : x;"
    );
    assert_eq!(
        gml(
            17,
            2022,
            1,
            "push.v self.a / isnullish.e / bf L1 / popz.v / pushi.e 0 / conv.i.v / L1: / \
             pop.v.v self.v"
        ),
        "v = a ?? 0;"
    );
    assert_eq!(
        gml(
            17,
            2022,
            1,
            "push.v self.a / isnullish.e / bf L1 / popz.v / pushi.e 7 / conv.i.v / \
             pop.v.v self.a / b L2 / L1: / popz.v / L2:"
        ),
        "a ??= 7;"
    );
}

#[test]
fn if_else_chain() {
    assert_eq!(
        v23(
            "push.v self.a / conv.v.b / bf L1 / pushi.e 1 / pop.v.i self.x / b L3 / L1: / \
             push.v self.b / conv.v.b / bf L2 / pushi.e 2 / pop.v.i self.x / b L3 / L2: / \
             pushi.e 3 / pop.v.i self.x / L3:"
        ),
        "if (a) {\n    x = 1;\n} else if (b) {\n    x = 2;\n} else {\n    x = 3;\n}"
    );
}

#[test]
fn loops() {
    // Appendix A, bc 16: the source's `for` (the same code as `i = 0; while (…) { …; i++; }`).
    let text = "pushi.e 0 / pop.v.i local.i / \
        L0: / pushloc.v local.i / push.v self.count / cmp.v.v LT / bf L9 / \
        pushi.e -1 / pushloc.v local.i / conv.v.i / push.v [array]self.items / \
        push.v self.target / cmp.v.v EQ / bf L1 / pushi.e 1 / pop.v.i self.found / b L9 / \
        L1: / push.v local.i / push.e 1 / add.i.v / pop.v.v local.i / b L0 / L9:";
    assert_eq!(
        gml(16, 2, 0, text),
        "for (var i = 0; i < count; i++) {\n    if (items[i] == target) {\n        found = 1;\n        break;\n    }\n}"
    );
    // do … until
    assert_eq!(
        v23(
            "L0: / push.v self.a / push.e 1 / add.i.v / pop.v.v self.a / push.v self.a / \
             pushi.e 10 / cmp.i.v GT / bf L0"
        ),
        "do {\n    a++;\n} until (a > 10);"
    );
    // for with a nested continue → the step is recognised. (A continue that ends a then-arm
    // reads as an if/else with the rest of the body: the same code.)
    assert_eq!(
        v23(
            "L0: / push.v self.i / pushi.e 3 / cmp.i.v LT / bf L9 / push.v self.i / \
             conv.v.b / bf L1 / push.v self.j / conv.v.b / bf L2 / b Lc / L2: / \
             call.i g 0 / popz.v / L1: / call.i f 0 / popz.v / Lc: / push.v self.i / \
             push.e 1 / add.i.v / pop.v.v self.i / b L0 / L9:"
        ),
        "for (; i < 3; i++) {\n    if (i) {\n        if (j) {\n            continue;\n        }\n        g();\n    }\n    f();\n}"
    );
    // repeat (pre-2022.11 tail)
    assert_eq!(
        v23(
            "push.v self.n / conv.v.i / dup.i 0 / push.i 0 / cmp.i.i LTE / bt L9 / L1: / \
             call.i f 0 / popz.v / push.i 1 / sub.i.i / dup.i 0 / conv.i.b / bt L1 / L9: / \
             popz.i"
        ),
        "repeat (n) {\n    f();\n}"
    );
    // with, with a break
    assert_eq!(
        v23(
            "pushi.e 12 / pushenv L8 / L1: / push.v self.hp / pushi.e 0 / cmp.i.v LTE / \
             bf L2 / b L7 / L2: / call.i f 0 / popz.v / L8: / popenv L1 / b L9 / L7: / \
             popenv <drop> / L9:"
        ),
        "with (12) {\n    if (hp <= 0) {\n        break;\n    }\n    f();\n}"
    );
}

#[test]
fn switch_statement() {
    let text = "push.v self.k / \
        dup.v 0 / pushi.e 1 / cmp.i.v EQ / bt Lc1 / \
        dup.v 0 / push.s \"x\" / cmp.s.v EQ / bt Lc2 / \
        dup.v 0 / pushi.e 2 / cmp.i.v EQ / bt Lc2 / \
        b Ld / b L9 / \
        Lc1: / call.i a 0 / popz.v / b L9 / \
        Lc2: / call.i b 0 / popz.v / \
        Ld: / call.i d 0 / popz.v / \
        L9: / popz.v";
    assert_eq!(
        v23(text),
        "switch (k) {\n    case 1:\n        a();\n        break;\n    case \"x\":\n    case 2:\n        b();\n    default:\n        d();\n}"
    );
}

#[test]
fn calls_methods_and_values() {
    assert_eq!(
        v23(
            "push.s \"hi\" / conv.s.v / push.v self.y0 / pushi.e 8 / conv.i.v / \
             call.i draw_text 3 / popz.v"
        ),
        "draw_text(8, y0, \"hi\");"
    );
    assert_eq!(
        v23(
            "push.v self.obj / pushi.e 5 / conv.i.v / dup.v 1 1 / dup.v 0 / \
             push.v stacktop.m / callv.v 1 / popz.v"
        ),
        "obj.m(5);"
    );
    assert_eq!(
        v23("pushi.e 5 / conv.i.v / call.i @@This@@ 0 / push.v builtin.cb / callv.v 1 / popz.v"),
        "cb(5);"
    );
    assert_eq!(
        v23(
            "pushi.e 2 / conv.i.v / pushi.e 1 / conv.i.v / call.i @@NewGMLArray@@ 2 / \
             pop.v.v self.a"
        ),
        "a = [1, 2];"
    );
    assert_eq!(
        v23(
            "pushi.e 2 / conv.i.v / pushi.e 1 / conv.i.v / push.i [function]gml_Script_Ctor / \
             conv.i.v / call.i @@NewGMLObject@@ 3 / pop.v.v self.a"
        ),
        "a = new Ctor(1, 2);"
    );
    assert_eq!(
        v23("push.v self.e / conv.v.v / call.i @@throw@@ 1"),
        "throw e;"
    );
    assert_eq!(
        v23("push.v self.a / conv.v.v / ret.v / exit.i"),
        "return a;\nexit;"
    );
}

#[test]
fn try_catch() {
    // Appendix C (offsets in bytes).
    let text = "push.i 108 / conv.i.v / push.i 52 / conv.i.v / call.i @@try_hook@@ 2 / popz.v / \
        call.i gml_Script_risky 0 / popz.v / b L108 / \
        pop.v.v local.e / call.i @@try_unhook@@ 0 / popz.v / \
        pushloc.v local.e / call.i gml_Script_log 1 / popz.v / \
        call.i @@finish_catch@@ 0 / popz.v / b L120 / \
        L108: / call.i @@try_unhook@@ 0 / popz.v / L120:";
    assert_eq!(
        v23(text),
        "try {\n    risky();\n} catch (e) {\n    log(e);\n}"
    );
}

#[test]
fn statics() {
    assert_eq!(
        v23(
            "isstaticok.e / bt L1 / pushi.e 0 / pop.v.i static.count / L1: / setstatic.e / \
             push.v static.count / push.e 1 / add.i.v / pop.v.v static.count"
        ),
        "static count = 0;\ncount++;"
    );
}
