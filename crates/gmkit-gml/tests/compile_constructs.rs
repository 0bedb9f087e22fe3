//! Compiler cases: GML → the exact instructions GameMaker emits (spec `gml-bytecode.md`),
//! construct by construct and version by version; and the decompiler cases that the round trip
//! depends on for them.

mod common;
use common::{compiles_to, compiles_to_in, gml};

/// 2023.1: GMLv2, typed booleans, no copy-on-write, no self→builtin.
fn v2023(source: &str, expected: &str) {
    compiles_to(17, 2023, 1, source, expected)
}

#[test]
fn compound_on_arrays_and_members() {
    // 2.3+: the owner and index are duplicated with `dup.i 1`, the store is `pop.i.v`.
    v2023(
        "arr[0] += 1;",
        "pushi.e -1 / pushi.e 0 / dup.i 1 / push.v [array]0.arr / pushi.e 1 / add.i.v / \
         pop.i.v [array]0.arr",
    );
    // A stacktop owner (`-9` over the value): `dup.i 5`.
    v2023(
        "o.arr[i] -= 2;",
        "push.v self.o / pushi.e -9 / push.v self.i / conv.v.i / dup.i 5 / \
         push.v [array]0.arr / pushi.e 2 / sub.i.v / pop.i.v [array]0.arr",
    );
    // Dot target: `-9` marker, `dup.i 4` (2.3); `conv.v.i`, `dup.i 0` before.
    v2023(
        "box.w += 2;",
        "push.v self.box / pushi.e -9 / dup.i 4 / push.v [stacktop]0.w / pushi.e 2 / \
         add.i.v / pop.i.v [stacktop]0.w",
    );
    compiles_to(
        16,
        2,
        0,
        "box.w += 2;",
        "push.v self.box / conv.v.i / dup.i 0 / push.v [stacktop]0.w / pushi.e 2 / add.i.v / \
         pop.i.v [stacktop]0.w",
    );
    // A constant instance is folded into the reference: a simple compound.
    v2023(
        "global.n *= 3;",
        "push.v global.n / pushi.e 3 / mul.i.v / pop.v.v global.n",
    );
    // `&= |= ^=`: int64 right side from 2.3.2.
    v2023(
        "flags |= 4;",
        "push.v self.flags / pushi.e 4 / conv.i.l / or.l.v / pop.v.v self.flags",
    );
}

#[test]
fn increments_on_arrays_by_version() {
    // bc 15/16: `dup.l 0`; 2.3+: `dup.i 1` (spec §4.7).
    compiles_to(
        16,
        2,
        0,
        "arr[0]++;",
        "pushi.e -1 / pushi.e 0 / dup.l 0 / push.v [array]0.arr / push.e 1 / add.i.v / \
         pop.i.v [array]0.arr",
    );
    v2023(
        "arr[0]--;",
        "pushi.e -1 / pushi.e 0 / dup.i 1 / push.v [array]0.arr / push.e 1 / sub.i.v / \
         pop.i.v [array]0.arr",
    );
    // Expression forms keep the old (post) or new (pre) value below the operands.
    v2023(
        "v = a[i]++;",
        "pushi.e -1 / push.v self.i / conv.v.i / dup.i 1 / push.v [array]0.a / dup.v 0 / \
         dup.i 4 6 / push.e 1 / add.i.v / pop.i.v [array]0.a / pop.v.v self.v",
    );
    v2023(
        "v = ++o.n;",
        "push.v self.o / pushi.e -9 / dup.i 4 / push.v [stacktop]0.n / push.e 1 / add.i.v / \
         dup.v 0 / dup.i 4 9 / pop.i.v [stacktop]0.n / pop.v.v self.v",
    );
    compiles_to(
        16,
        2,
        0,
        "v = o.n++;",
        "push.v self.o / conv.v.i / dup.i 0 / push.v [stacktop]0.n / dup.v 0 / pop.e.v 5 / \
         push.e 1 / add.i.v / pop.i.v [stacktop]0.n / pop.v.v self.v",
    );
}

#[test]
fn multi_dimensional_arrays() {
    v2023(
        "v = m[1][2][3];",
        "pushi.e -1 / pushi.e 1 / push.v [multipush]0.m / pushi.e 2 / pushac.e / pushi.e 3 / \
         pushaf.e / pop.v.v self.v",
    );
    v2023(
        "m[1][2] = 7;",
        "pushi.e 7 / conv.i.v / pushi.e -1 / pushi.e 1 / push.v [multipushpop]0.m / \
         pushi.e 2 / popaf.e",
    );
    v2023(
        "m[1][2] += 7;",
        "pushi.e -1 / pushi.e 1 / push.v [multipushpop]0.m / pushi.e 2 / dup.i 4 / \
         savearef.e / pushaf.e / pushi.e 7 / add.i.v / restorearef.e / dup.i 4 5 / popaf.e",
    );
}

#[test]
fn continue_inside_a_switch() {
    // The switch value is dropped in a block of its own before the loop's continue.
    v2023(
        "while (a) { switch (b) { case 1: continue; } }",
        "L0: / push.v self.a / conv.v.b / bf L9 / push.v self.b / dup.v 0 / pushi.e 1 / \
         cmp.i.v EQ / bt L1 / b L8 / L1: / b L7 / b L8 / L7: / popz.v / b L0 / L8: / popz.v / \
         b L0 / L9:",
    );
}

#[test]
fn references_and_values() {
    // A room instance id on the left of a dot is folded into an `[instance]` reference.
    v2023(
        "v = (100724).vspeed;",
        "push.v [instance]724.vspeed / pop.v.v self.v",
    );
    // A built-in function as a value: its id.
    v2023(
        "f = draw_self; draw_self();",
        "push.i [function]draw_self / pop.v.i self.f / call.i draw_self 0 / popz.v",
    );
    // `global.a[i]` from 2023.11: the owner is `@@Global@@` under the `-9` marker.
    compiles_to(
        17,
        2023,
        11,
        "v = global.a[0];",
        "call.i @@Global@@ 0 / pushi.e -9 / pushi.e 0 / push.v [array]0.a / pop.v.v self.v",
    );
    // 2024.4 (before 2024.14.4) a call on a call's result pushes the outer arguments first
    // (2023.8 does not: see compile_calls.rs).
    compiles_to(
        17,
        2024,
        4,
        "f(1).m(2);",
        "pushi.e 2 / conv.i.v / pushi.e 1 / conv.i.v / call.i f 1 / dup.v 0 / pushi.e -9 / \
         push.v [stacktop]0.m / callv.v 1 / popz.v",
    );
    // 2.3.2 still calls a method on a call's result instance-first (`dup.v N 1`).
    compiles_to(
        17,
        2,
        3,
        "f(1).m();",
        "pushi.e 1 / conv.i.v / call.i f 1 / dup.v 0 1 / dup.v 0 / push.v stacktop.m / \
         callv.v 0 / popz.v",
    );
    // `??`: the right side replaces the left value only when it is nullish.
    v2023(
        "v = a ?? 0;",
        "push.v self.a / isnullish.e / bf L1 / popz.v / pushi.e 0 / conv.i.v / L1: / \
         pop.v.v self.v",
    );
    // `throw`: the call's result is not popped.
    v2023(
        "throw \"bad\";",
        "push.s \"bad\" / conv.s.v / call.i @@throw@@ 1",
    );
}

#[test]
fn array_copy_on_write_owner_ids() {
    // 2.3.6: `setowner.e` before array writes, ids as in the entry's own code; a repeated id
    // on the same path is not emitted again; after an `if` that changed it, it is unknown.
    let code = "push.i 65536 / setowner.e / pushi.e 1 / conv.i.v / pushi.e -1 / pushi.e 0 / \
                pop.v.v [array]0.a / pushi.e 2 / conv.i.v / pushi.e -1 / pushi.e 1 / \
                pop.v.v [array]0.a / push.v self.c / conv.v.b / bf L1 / push.i 65540 / \
                setowner.e / pushi.e 3 / conv.i.v / pushi.e -1 / pushi.e 0 / pop.v.v [array]0.b / \
                L1: / push.i 65536 / setowner.e / pushi.e 4 / conv.i.v / pushi.e -1 / pushi.e 2 / \
                pop.v.v [array]0.a";
    compiles_to_in(
        17,
        2,
        3,
        "a[0] = 1; a[1] = 2; if (c) { b[0] = 3; } a[2] = 4;",
        code,
        Some(code),
    );
}

#[test]
fn decompiled_forms_the_compiler_needs() {
    // A plain store to an array element is not a compound assignment (bc 16 re-evaluates).
    assert_eq!(
        gml(
            16,
            2,
            0,
            "pushi.e -1 / pushi.e 7 / push.v [array]self.b / conv.v.l / pushi.e 128 / or.i.l / \
             pushi.e -1 / pushi.e 7 / pop.v.l [array]self.b"
        ),
        "b[7] = b[7] | 128;"
    );
    // A finished chain as the first operand of another keeps its own landing block.
    assert_eq!(
        gml(
            17,
            2,
            3,
            "push.v self.a / conv.v.b / bf L1 / push.v self.b / conv.v.b / b L2 / L1: / push.e 0 / \
             L2: / bf L3 / push.v self.c / conv.v.b / b L4 / L3: / push.e 0 / L4: / pop.v.b self.v"
        ),
        "v = (a && b) && c;"
    );
    // `case 0: break;` right after the switch's `b end`.
    assert_eq!(
        gml(
            17,
            2,
            3,
            "push.v self.k / dup.v 0 / pushi.e 0 / cmp.i.v EQ / bt L1 / dup.v 0 / pushi.e 1 / \
             cmp.i.v EQ / bt L2 / b L9 / L1: / b L9 / L2: / pushi.e 1 / pop.v.i self.x / b L9 / \
             L9: / popz.v"
        ),
        "switch (k) {\n    case 0:\n        break;\n    case 1:\n        x = 1;\n        break;\n}"
    );
    // An empty else: the then-arm's jump lands on the next instruction.
    assert_eq!(
        gml(
            17,
            2,
            3,
            "push.v self.c / conv.v.b / bf L1 / pushi.e 1 / pop.v.i self.x / b L1 / L1:"
        ),
        "if (c) {\n    x = 1;\n} else {\n}"
    );
    // A typed boolean reaches a branch unconverted.
    assert_eq!(
        gml(
            17,
            2023,
            1,
            "L0: / pushi.e 1 / bf L9 / pushi.e 1 / pop.v.i self.x / b L0 / L9:"
        ),
        "while (true) {\n    x = 1;\n}"
    );
    // 0/1 compared or stored as typed booleans.
    assert_eq!(
        gml(
            17,
            2023,
            1,
            "push.v self.a / pushi.e 0 / cmp.b.v EQ / pop.v.b self.v / pushi.e 1 / \
             push.v self.o / pushi.e -9 / pop.v.b [stacktop]0.w"
        ),
        "v = a == false;\no.w = true;"
    );
}

#[test]
fn array_owner_ids_in_switches_calls_and_returns() {
    // Every case starts from the owner known before the switch, and after a switch whose
    // cases changed it the owner is unknown (corpus 2023+: tebak-lagu's tween scripts).
    let code = "push.v self.k / dup.v 0 / pushi.e 1 / cmp.i.v EQ / bt C1 / dup.v 0 / pushi.e 2 / \
                cmp.i.v EQ / bt C2 / b E / \
                C1: / push.i 65536 / setowner.e / pushi.e 1 / conv.i.v / pushi.e -1 / pushi.e 0 / \
                pop.v.v [array]0.a / b E / \
                C2: / push.i 65536 / setowner.e / pushi.e 2 / conv.i.v / pushi.e -1 / pushi.e 1 / \
                pop.v.v [array]0.a / b E / \
                E: / popz.v / push.i 65536 / setowner.e / pushi.e 3 / conv.i.v / pushi.e -1 / \
                pushi.e 2 / pop.v.v [array]0.a";
    compiles_to_in(
        17,
        2,
        3,
        "switch (k) {\n    case 1:\n        a[0] = 1;\n        break;\n    case 2:\n        \
         a[1] = 2;\n        break;\n}\na[2] = 3;",
        code,
        Some(code),
    );
    // A call statement passing an array literal: the per-function id twice; `return [..]`:
    // once (corpus 2.3.2:
    // vendaval's `array_push(list, [a, b])`, `return [x, y, z]`).
    let code = "push.i 65536 / setowner.e / push.i 65536 / setowner.e / \
                pushi.e 2 / conv.i.v / pushi.e 1 / conv.i.v / call.i @@NewGMLArray@@ 2 / \
                push.v self.l / call.i array_push 2 / popz.v / \
                push.i 65536 / setowner.e / push.v self.x / call.i @@NewGMLArray@@ 1 / ret.v";
    compiles_to_in(
        17,
        2,
        3,
        "array_push(l, [1, 2]);\nreturn [x];",
        code,
        Some(code),
    );
}

#[test]
fn css_colour_literals() {
    // `#RRGGBB` (manual, Colour And Alpha) is the colour `$BBGGRR`: an int32 constant.
    v2023("tint = #FF8000;", "push.i 33023 / pop.v.i self.tint");
    v2023("tint = #0a0B0c;", "push.i 789258 / pop.v.i self.tint");
    // Not six hex digits, or more name characters after them: no colour.
    for bad in ["tint = #FF80;", "tint = #FF8000zz;"] {
        assert!(gmkit_gml::parse::parse(bad).is_err(), "{bad}");
    }
}

#[test]
fn multiples_and_fractions_of_pi() {
    // GameMaker's compiler folds `2 * pi`, `pi * 2` and `pi / 2` to one double (corpus:
    // vendaval's `2 * pi`, longdog's `pi * 2`); the decompiler writes such doubles so again.
    let folded = "push.d 6.283185307179586 / pop.v.d self.turn / push.d 1.5707963267948966 / \
                  pop.v.d self.quarter / push.d 12.566370614359172 / pop.v.d self.two_turns";
    v2023(
        "turn = 2 * pi;\nquarter = pi / 2;\ntwo_turns = pi * 4;",
        folded,
    );
    assert_eq!(
        gml(17, 2023, 1, folded),
        "turn = 2 * pi;\nquarter = pi / 2;\ntwo_turns = 4 * pi;"
    );
    // Any other double stays a number; `x * pi` with a variable is no constant.
    assert_eq!(
        gml(17, 2023, 1, "push.d 2.5 / pop.v.d self.half"),
        "half = 2.5;"
    );
    v2023(
        "arc = n * pi;",
        "push.v self.n / push.d 3.141592653589793 / mul.d.v / pop.v.v self.arc",
    );
}
