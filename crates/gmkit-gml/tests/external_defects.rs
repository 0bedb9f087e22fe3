//! Cases for the defects an external suite of decompiler and compiler cases found (issue 16,
//! "Defects found by an external test suite"): per item, GML → the instructions GameMaker emits
//! (spec `gml-bytecode.md`) and/or instructions → the GML printed, which must parse back and
//! compile to the same instructions, per version family where the code differs.

mod common;
use common::{compiles_to, gml};

/// The names every case may use: variables `a b c d i o x y z`, functions `f g h`, and the
/// compiler's helper functions.
const NAMES: &str = "push.v self.a / push.v self.b / push.v self.c / push.v self.d / \
    push.v self.i / push.v self.o / push.v self.x / push.v self.y / push.v self.z / \
    call.i f 0 / call.i g 0 / call.i h 0 / call.i @@try_hook@@ 2 / call.i @@try_unhook@@ 0 / \
    call.i @@finish_finally@@ 0 / call.i @@finish_catch@@ 0 / call.i @@This@@ 0";

/// [`common::round_trip`] with this file's names.
fn round(bc: u8, major: u16, minor: u16, src: &str) -> String {
    common::round_trip(bc, major, minor, NAMES, src)
}

fn v23(src: &str) -> String {
    round(17, 2, 3, src)
}

fn v2023(src: &str) -> String {
    round(17, 2023, 1, src)
}

#[test]
fn int_div_compound_prints_as_plain_div() {
    // GML has no `div=`: `a = a div 2` (rem with no conv, the compound shape) prints plainly.
    for (bc, ma, mi) in [(14, 1, 0), (16, 2, 0), (17, 2, 3), (17, 2023, 1)] {
        assert_eq!(round(bc, ma, mi, "a = a div 2;"), "a = a div 2;");
    }
    assert_eq!(
        gml(
            17,
            2023,
            1,
            "push.v self.a / pushi.e 2 / rem.i.v / pop.v.v self.a"
        ),
        "a = a div 2;"
    );
    assert!(gmkit_gml::parse::parse("a div= 2;").is_err());
}

#[test]
fn for_step_is_an_update_only() {
    // A loop whose last statement is `exit` stays a `while` (`for (; c; exit;)` does not parse).
    assert_eq!(
        v2023("while (c) { g(); exit; }"),
        "while (c) {\n    g();\n    exit;\n}"
    );
    for s in [
        "for (; c; exit;) {}",
        "for (; c; break) {}",
        "for (; c; if (a) b = 1) {}",
    ] {
        assert!(gmkit_gml::parse::parse(s).is_err(), "{s}");
    }
}

#[test]
fn endless_for() {
    let want = "for (;;) {\n    f();\n    if (b) {\n        break;\n    }\n}";
    for (bc, ma, mi) in [(16, 2, 0), (17, 2, 3), (17, 2023, 1)] {
        assert_eq!(round(bc, ma, mi, "for (;;) { f(); if (b) break; }"), want);
    }
    // The condition GameMaker writes for a missing one: `push.l 1`, not `while (int64(1))`.
    assert_eq!(
        gml(
            17,
            2023,
            1,
            "L0: / push.l 1 / conv.l.b / bf L1 / call.i f 0 / popz.v / b L0 / L1:"
        ),
        "for (;;) {\n    f();\n}"
    );
}

#[test]
fn for_without_condition_with_continue() {
    assert_eq!(
        v2023("for (i = 0; ; i++) { if (a) continue; g(); if (c) break; }"),
        "for (i = 0; ; i++) {\n    if (a) {\n        continue;\n    }\n    g();\n    if (c) {\n        break;\n    }\n}"
    );
}

#[test]
fn continue_inside_with() {
    // `continue` inside `with` goes to the next instance (the `popenv`).
    for src in [
        "while (a) { with (o) { if (b) continue; h(); } }",
        "with (o) { if (b) continue; h(); }",
    ] {
        let text = v2023(src);
        assert!(text.contains("continue;"), "{text}");
        assert!(text.contains("with (o)"), "{text}");
    }
    let text = round(16, 2, 0, "with (o) { if (b) continue; h(); }");
    assert!(text.contains("continue;"), "{text}");
}

#[test]
fn finally_is_printed_once() {
    assert_eq!(
        v2023("try { f(); exit; } finally { g(); }"),
        "try {\n    f();\n    exit;\n} finally {\n    g();\n}"
    );
    assert_eq!(
        v2023("try { f(); } finally { g(); } exit;"),
        "try {\n    f();\n} finally {\n    g();\n}\nexit;"
    );
}

#[test]
fn pre_23_increment_as_value_on_member_and_element() {
    for (bc, ma, mi) in [(14, 1, 0), (16, 2, 0)] {
        for src in ["d = ++a.b;", "d = a.b--;", "d = ++a[1];", "d = a[1]--;"] {
            assert_eq!(round(bc, ma, mi, src), src, "bc {bc}");
        }
    }
    // The pre-2.3 shape: the pop swap `pop.e.v 5` after a stacktop target.
    compiles_to(
        16,
        2,
        0,
        "d = ++a.b;",
        "push.v self.a / conv.v.i / dup.i 0 / push.v [stacktop]0.b / push.e 1 / add.i.v / \
         dup.v 0 / pop.e.v 5 / pop.i.v [stacktop]0.b / pop.v.v self.d",
    );
    assert_eq!(v23("d = ++a.b;"), "d = ++a.b;");
}

#[test]
fn compound_on_multi_dimensional_element() {
    assert_eq!(v2023("a[1][2] += 3;"), "a[1][2] += 3;");
    assert_eq!(v2023("a[i][2] *= x;"), "a[i][2] *= x;");
    assert_eq!(round(16, 2, 0, "a[1, 2] += 3;"), "a[1, 2] += 3;");
    assert_eq!(round(14, 1, 0, "a[i, 2] -= 3;"), "a[i, 2] -= 3;");
}

#[test]
fn instance_ids_are_unsigned() {
    // The 16-bit instance field holds id - 100000 ([instance]) or a plain id: both unsigned.
    assert_eq!(
        gml(16, 2, 0, "push.v [instance]-32768.x / pop.v.v self.y"),
        "y = (132768).x;"
    );
    assert_eq!(
        gml(16, 2, 0, "push.v [instance]32767.x / pop.v.v self.y"),
        "y = (132767).x;"
    );
    assert_eq!(
        gml(16, 2, 0, "push.v -25536.x / pop.v.v self.y"),
        "y = (40000).x;"
    );
    assert_eq!(
        round(16, 2, 0, "(132768).x = 1; y = (132767).x; z = (40000).x;"),
        "(132768).x = 1;\ny = (132767).x;\nz = (40000).x;"
    );
}

#[test]
fn switch_on_booleans() {
    assert_eq!(
        v2023("switch (true) { case true: f(); break; case false: g(); }"),
        "switch (true) {\n    case true:\n        f();\n        break;\n    case false:\n        g();\n}"
    );
}

#[test]
fn empty_switch_and_default_kept() {
    for (bc, ma, mi) in [(16, 2, 0), (17, 2023, 1)] {
        assert_eq!(round(bc, ma, mi, "switch (a) { }"), "switch (a) {\n}");
        assert_eq!(
            round(bc, ma, mi, "switch (a) { default: }"),
            "switch (a) {\n    default:\n}"
        );
        assert_eq!(
            round(bc, ma, mi, "switch (a) { case 1: g(); break; default: }"),
            "switch (a) {\n    case 1:\n        g();\n        break;\n    default:\n}"
        );
    }
}

#[test]
fn enum_syntax_is_checked() {
    for bad in [
        "enum { A }",
        "enum E;",
        "enum E A, B;",
        "enum E { A B }",
        "enum E { , A }",
        "enum E { A,, B }",
        "enum E { A: 1 }",
        "enum E { 1 }",
        "enum E { A = x }",
        "enum E { A",
    ] {
        let e = gmkit_gml::parse::parse(bad).expect_err(bad);
        assert!(e.to_string().contains("enum"), "{bad}: {e}");
    }
    for good in [
        "enum E { A, B, }",
        "enum E { }",
        "enum E { A = 1 + 2, B = -3 }",
    ] {
        assert!(gmkit_gml::parse::parse(good).is_ok(), "{good}");
    }
    assert_eq!(v2023("enum E { A, B = 5, C } x = E.C;"), "x = int64(6);");
}

#[test]
fn method_calls_on_call_and_element_results() {
    // Instance-first form (2.3 – 2023: corpus gml-simpledraw, vendaval).
    compiles_to(
        17,
        2023,
        1,
        "a.b(1).c(2);",
        "push.v self.a / pushi.e 1 / conv.i.v / dup.v 1 1 / dup.v 0 / push.v stacktop.b / \
         callv.v 1 / pushi.e 2 / conv.i.v / dup.v 1 1 / dup.v 0 / push.v stacktop.c / \
         callv.v 1 / popz.v",
    );
    // 2024.2 – 2024.14.3: a chain led by a call pushes every argument first (corpus ooo-kaizo).
    compiles_to(
        17,
        2024,
        14,
        "f(1).b(2);",
        "pushi.e 2 / conv.i.v / pushi.e 1 / conv.i.v / call.i f 1 / dup.v 0 / pushi.e -9 / \
         push.v [stacktop]0.b / callv.v 1 / popz.v",
    );
    // An array element called: `call.i @@This@@ 0` is the self, the element the function.
    compiles_to(
        17,
        2023,
        1,
        "a[0](1);",
        "pushi.e 1 / conv.i.v / call.i @@This@@ 0 / pushi.e -1 / pushi.e 0 / \
         push.v [array]0.a / callv.v 1 / popz.v",
    );
    for (ma, mi) in [(2023, 1), (2024, 14)] {
        for src in ["a.b(1).c(2);", "f(1).b(2);", "a[0](1);", "self.a[0](1);"] {
            assert_eq!(round(17, ma, mi, src), src, "{ma}.{mi}");
        }
    }
}

/// Compiles `src` at 2024.14.4 against the assembly `want`, then decompiles `want`: the
/// print is `src` again.
fn at_2024_14_4(src: &str, want: &str) {
    let mut a = common::Asm::full(2024, 14, 4);
    a.asm(NAMES);
    let want = a.asm(want);
    let game = gmkit_gml::Game::new(&a.file);
    let names = gmkit_gml::compile::Names::new(&game);
    let tree = gmkit_gml::parse::parse(src).expect("parses");
    let got = gmkit_gml::compile::compile_entry(&game, &names, 0, &tree).expect("compiles");
    let dis = gmkit_data::chunks::code::asm::Disassembler::new(&a.file);
    assert_eq!(dis.instructions(&got), dis.instructions(&want), "{src}");
    let d = gmkit_gml::decompile::decompile_instructions(&game, &want);
    assert_eq!(d.failures, 0, "{src}: {:?}", d.failure_notes);
    assert_eq!(gmkit_gml::print::print_stmts(&d.body), src);
}

#[test]
fn chained_call_arguments_after_the_callee_from_2024_14_4() {
    // The inner call, the method looked up on it, then this call's arguments moved below
    // the instance and the function by `dup.e 2 N` (a variable swap written the other way
    // round), also with no arguments.
    at_2024_14_4(
        "f(1).b(2);",
        "pushi.e 1 / conv.i.v / call.i f 1 / dup.v 0 / pushi.e -9 / push.v [stacktop]0.b / \
         pushi.e 2 / conv.i.v / dup.e 2 1 / callv.v 1 / popz.v",
    );
    at_2024_14_4(
        "f(1).b();",
        "pushi.e 1 / conv.i.v / call.i f 1 / dup.v 0 / pushi.e -9 / push.v [stacktop]0.b / \
         dup.e 2 0 / callv.v 0 / popz.v",
    );
    // Each link of a longer chain takes the same form; the outer call's arguments stay
    // before it.
    at_2024_14_4(
        "g(f(a).b(x, y).c(z));",
        "push.v builtin.a / call.i f 1 / dup.v 0 / pushi.e -9 / push.v [stacktop]0.b / \
         push.v builtin.y / push.v builtin.x / dup.e 2 2 / callv.v 2 / dup.v 0 / pushi.e -9 / \
         push.v [stacktop]0.c / push.v builtin.z / dup.e 2 1 / callv.v 1 / call.i g 1 / popz.v",
    );
    // A chain led by a variable keeps the instance-first form.
    at_2024_14_4(
        "a.b(1).c(2);",
        "push.v builtin.a / pushi.e 1 / conv.i.v / dup.v 1 1 / dup.v 0 / push.v stacktop.b / \
         callv.v 1 / pushi.e 2 / conv.i.v / dup.v 1 1 / dup.v 0 / push.v stacktop.c / \
         callv.v 1 / popz.v",
    );
}

/// Round-trip mechanisms found in the corpus (bar 1): each entry decompiles to text showing
/// the construct and compiles back to its own instructions.
#[test]
fn corpus_round_trip_mechanisms() {
    use gmkit_gml::compile::{Names, compile_entry};
    let cases: &[(&str, &str, &[&str], bool)] = &[
        // The compiler's own binding `method(-1, f)` is the literal; a `method(x, f)` around
        // it is the source's call.
        (
            "ooo-kaizo.win",
            "gml_Object_oMapMenu_Create_0",
            &["method(oPlayer, function"],
            true,
        ),
        (
            "tiktaktoe-gm-network.win",
            "gml_GlobalScript_SnowState",
            &["method(_temp, function"],
            true,
        ),
        // A nested struct literal's values are hoisted out to the outermost literal.
        (
            "longdog.win",
            "gml_GlobalScript_VI_Core",
            &["position = { current: { x: arg0, y: arg1 }, previous: { x: arg0, y: arg1 } };"],
            true,
        ),
        // A local `_arg0` is a local beside parameter 0 (`arg0`).
        (
            "tebak-lagu.win",
            "gml_GlobalScript_EaseInOutQuad",
            &["(arg0, ", "var _arg0 = 2 * arg0"],
            true,
        ),
        // An instance variable named like a local is written `self.name`; a written
        // `argument2` as a method call's instance is `pushbltn` (2.3.2); the array owner of
        // `v = f(c ? x : [x])` is set at the statement and at the literal.
        (
            "vendaval.win",
            "gml_Object_Geometry_Create_0",
            &[
                "self.name = name;",
                "argument2.AddChild(self);",
                "texture = DefaultValue(is_array(arg1) ? arg1 : [arg1], -1);",
            ],
            true,
        ),
        // Array owners learnt past `idx++` used as an index.
        (
            "vendaval.win",
            "gml_GlobalScript_Matrices",
            &["arrayForm[idx++] = "],
            true,
        ),
        // A negative constant left inside a struct literal's body is a named one.
        (
            "killstreak.win",
            "gml_Object_oGame_Create_0",
            &["req: noone,"],
            true,
        ),
        // Early 2.3: a function without statics ends with `setstatic.e`.
        (
            "honoo.win",
            "gml_GlobalScript_ExecuteShell",
            &["function ExecuteShell()"],
            true,
        ),
    ];
    for &(file, entry, want, identical) in cases {
        let bytes = gmkit_testdata::need!(gmkit_testdata::corpus_file(file));
        let data = gmkit_data::parse_bytes(&bytes).expect("parses");
        let game = gmkit_gml::Game::new(&data);
        let i = (0..data.code.as_ref().map_or(0, |c| c.entries.len()))
            .find(|&i| game.code_name(i) == entry)
            .expect("entry");
        let d = gmkit_gml::decompile::decompile_entry(&game, i).expect("decompiles");
        let text = gmkit_gml::print::print_stmts(&d.body);
        for w in want {
            assert!(text.contains(w), "{entry}: {w:?} not in\n{text}");
        }
        if identical {
            let tree = gmkit_gml::parse::parse(&text).expect("parses");
            let names = Names::new(&game);
            let ins = compile_entry(&game, &names, i, &tree).expect("compiles");
            let orig = data
                .code
                .as_ref()
                .unwrap()
                .instructions(i)
                .expect("decodes");
            assert!(
                ins.as_slice() == orig.as_ref(),
                "{entry}: compiled code differs"
            );
        }
    }
}

#[test]
fn shift_store_is_a_plain_assignment() {
    // GML has no `<<=` / `>>=`: a shift stored back prints `x = x << n` (same code).
    for (bc, ma, mi) in [(16, 2, 0), (17, 2, 3), (17, 2023, 1)] {
        assert_eq!(round(bc, ma, mi, "x = x << 3;"), "x = x << 3;");
        assert_eq!(round(bc, ma, mi, "y = y >> 1;"), "y = y >> 1;");
    }
    assert_eq!(
        gml(
            17,
            2023,
            1,
            "push.v self.z / pushi.e 2 / shl.i.v / pop.v.v self.z"
        ),
        "z = z << 2;"
    );
    // The other bitwise stores stay compound.
    assert_eq!(v2023("z |= 4;"), "z |= 4;");
}

#[test]
fn for_step_exit_inside_switch() {
    // A loop in a switch whose `continue` goes to `exit` (`popz.v` of the switch value, then
    // `exit.i`): the step is `exit`, printed and parsed back in the header.
    let want = "switch (o) {\n    case 7:\n        for (x = 0; x < 4; exit) {\n            f();\n            \
                continue;\n        }\n}";
    assert_eq!(
        v2023("switch (o) { case 7: for (x = 0; x < 4; exit) { f(); continue; } }"),
        want
    );
    assert_eq!(
        gml(
            17,
            2023,
            1,
            "push.v self.o / dup.v 0 / pushi.e 7 / cmp.i.v EQ / bt L2 / b L9 / \
             L2: / pushi.e 0 / pop.v.i self.x / \
             L3: / push.v self.x / pushi.e 4 / cmp.i.v LT / bf L9 / \
             call.i f 0 / popz.v / b L7 / \
             L7: / popz.v / exit.i / b L3 / \
             L9: / popz.v"
        ),
        want
    );
    assert!(gmkit_gml::parse::parse("for (; c; exit;) {}").is_err());
}

#[test]
fn catch_variable_takes_no_var() {
    // `catch (e)` declares its variable; a local used only there gets no `var`.
    let src = "try { f(); } catch (z) { c = z; }";
    assert_eq!(v2023(src), "try {\n    f();\n} catch (z) {\n    c = z;\n}");
    // Nested, and in both blocks.
    assert_eq!(
        v2023("try { try { g(); } catch (y) { d = y; } } catch (x) { try { h(); } catch (y) { } }"),
        "try {\n    try {\n        g();\n    } catch (y) {\n        d = y;\n    }\n} catch (x) {\n    \
         try {\n        h();\n    } catch (y) {\n    }\n}"
    );
    // Named outside its catch block too: declared as before.
    assert_eq!(
        v2023("try { f(); } catch (z) { c = z; } d = z;"),
        "var z;\ntry {\n    f();\n} catch (z) {\n    c = z;\n}\nd = z;"
    );
}

#[test]
fn locals_never_given_a_value_are_declared_first() {
    // Read or updated but never assigned: one `var` at the top.
    assert_eq!(
        v2023("var i, y; a = 1; if (b) { c = i; } y += 2;"),
        "var i, y;\na = 1;\nif (b) {\n    c = i;\n}\ny += 2;"
    );
    // Assigned: declared where it starts, as before.
    assert_eq!(
        v2023("a = 1; if (b) { var i = 2; c = i; }"),
        "a = 1;\nif (b) {\n    var i = 2;\n    c = i;\n}"
    );
}

#[test]
fn locals_declared_in_each_branch_and_loop_header() {
    // Both branches start the local afresh: declared in each.
    assert_eq!(
        v2023("if (a) { var i = 1; c = i; } else { var i = 2; d = i; }"),
        "if (a) {\n    var i = 1;\n    c = i;\n} else {\n    var i = 2;\n    d = i;\n}"
    );
    assert_eq!(
        v2023(
            "if (a) { for (var i = 0; i < 3; i++) { f(); } } else { for (var i = 0; i < 2; i++) { g(); } }"
        ),
        "if (a) {\n    for (var i = 0; i < 3; i++) {\n        f();\n    }\n} else {\n    \
         for (var i = 0; i < 2; i++) {\n        g();\n    }\n}"
    );
    // Restarted by a later loop: declared in both headers, as before.
    assert_eq!(
        v2023("for (var i = 0; i < 3; i++) { f(); } for (i = 0; i < 2; i++) { g(); }"),
        "for (var i = 0; i < 3; i++) {\n    f();\n}\nfor (var i = 0; i < 2; i++) {\n    g();\n}"
    );
}

#[test]
fn switch_on_a_one_with_no_cases() {
    // Typed booleans: a 0/1 before a branch is a boolean, but not a switch value jumping
    // straight to the `popz` that drops it.
    assert_eq!(
        gml(17, 2023, 8, "pushi.e 1 / b L1 / L1: / popz.i"),
        "switch (1) {\n}"
    );
    assert_eq!(v2023("switch (0) { }"), "switch (0) {\n}");
}

#[test]
fn room_instances_by_id() {
    // Before 2024.2 a room instance is its id, read through `@@GetInstance@@` as a method
    // call's owner; from 2024.2 a `pushref` of the room-instance kind (spec §5.6).
    let names = "push.v self.a / push.v self.b / push.v self.go / call.i @@GetInstance@@ 1";
    let at = |ma: u16, mi: u16, src: &str| common::round_trip(17, ma, mi, names, src);
    assert_eq!(at(2023, 8, "inst_id_100042.go();"), "inst_id_100042.go();");
    assert_eq!(at(2024, 2, "inst_id_100042.go();"), "inst_id_100042.go();");
    assert_eq!(
        at(2024, 2, "a = inst_id_100777.b; b = inst_id_100778;"),
        "a = inst_id_100777.b;\nb = inst_id_100778;"
    );
    // 2024.2+: the id as a number stays a number.
    assert_eq!(at(2024, 2, "(100042).go();"), "(100042).go();");
    assert_eq!(
        gml(
            17,
            2023,
            8,
            "push.i 100042 / conv.i.v / call.i @@GetInstance@@ 1 / dup.v 0 1 / dup.v 0 / \
             push.v stacktop.go / callv.v 0 / popz.v"
        ),
        "inst_id_100042.go();"
    );
    assert!(gmkit_gml::room_instance::id("inst_id_0123").is_none());
    assert_eq!(gmkit_gml::room_instance::id("inst_id_100001"), Some(100001));
}

#[test]
fn locals_declared_in_each_switch_run() {
    // Each run of cases falling into one another that starts the local afresh declares it
    // in its first case that names it.
    let src = "switch (o) {\n    case 1:\n        var i = 5;\n        c = i;\n    case 2:\n        \
               i = 6;\n        break;\n    case 3:\n        var i = 7;\n        d = i;\n}";
    assert_eq!(v2023(src), src);
    // Also inside a loop: no value is carried from one iteration to the next.
    let src = "while (a) {\n    switch (o) {\n        case 1:\n            var i = 2;\n            \
               break;\n        case 2:\n            var i = 3;\n            continue;\n    }\n}";
    assert_eq!(v2023(src), src);
    // A value read across runs is declared before the switch, as before.
    let src = "var i;\nswitch (o) {\n    case 1:\n        i = 2;\n        break;\n    case 2:\n        \
               c = i;\n        break;\n}";
    assert_eq!(v2023(src), src);
}

#[test]
fn integer_labels_of_a_boolean_switch() {
    // Typed booleans: `case false:` compares a boolean (`cmp.b.b`); `cmp.i.b` is a number.
    let text = |t: &str| {
        format!(
            "push.v self.c / push.v self.d / cmp.v.v GT / dup.b 0 / pushi.e 1 / cmp.{t}.b EQ / \
             bt L2 / b L3 / L2: / call.i g 0 / popz.v / b L3 / L3: / popz.b"
        )
    };
    assert_eq!(
        gml(17, 2023, 8, &text("i")),
        "switch (c > d) {\n    case 1:\n        g();\n        break;\n}"
    );
    assert_eq!(
        gml(17, 2023, 8, &text("b")),
        "switch (c > d) {\n    case true:\n        g();\n        break;\n}"
    );
    // Before typed booleans both are `cmp.i.b`: read as booleans.
    assert_eq!(
        gml(17, 2, 3, &text("i")),
        "switch (c > d) {\n    case true:\n        g();\n        break;\n}"
    );
}
