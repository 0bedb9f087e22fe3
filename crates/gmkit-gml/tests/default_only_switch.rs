//! A `switch` whose only label is `default:` and whose body is not empty:
//! `<v> b D; b E; D: body; E: popz` (found on public games gmkit had not seen,
//! /work/wild/REPORT.md: `switch (room) { default: return "rooftop"; break; }` and
//! `switch (_arg0) { default: break; }`, which decompiled to unstructured code). Per family:
//! the source compiles, decompiles to the same statements, and the print compiles back to the
//! same instructions.

mod common;

/// The names the cases use: variables `a b`, the temporary a `return` inside a `switch` keeps
/// its value in, functions `f g`.
const NAMES: &str =
    "push.v self.a / push.v self.b / push.v local.$$$$temp$$$$ / call.i f 0 / call.i g 0";

/// [`common::round_trip`] with this file's names.
fn round(bc: u8, major: u16, minor: u16, src: &str) -> String {
    common::round_trip(bc, major, minor, NAMES, src)
}

const FAMILIES: [(u8, u16, u16); 4] = [(16, 1, 0), (17, 2, 0), (17, 2, 3), (17, 2023, 1)];

#[test]
fn default_with_statements() {
    for (bc, ma, mi) in FAMILIES {
        assert_eq!(
            round(bc, ma, mi, "switch (a) { default: f(); b = 2; break; }"),
            "switch (a) {\n    default:\n        f();\n        b = 2;\n        break;\n}",
            "bytecode {bc}, {ma}.{mi}"
        );
        assert_eq!(
            round(bc, ma, mi, "switch (a) { default: g(); }"),
            "switch (a) {\n    default:\n        g();\n}",
            "bytecode {bc}, {ma}.{mi}"
        );
    }
}

#[test]
fn default_with_only_a_break() {
    for (bc, ma, mi) in FAMILIES {
        assert_eq!(
            round(bc, ma, mi, "switch (a) { default: break; }"),
            "switch (a) {\n    default:\n        break;\n}",
            "bytecode {bc}, {ma}.{mi}"
        );
    }
}

#[test]
fn default_returning_then_breaking() {
    // The `break` after the `return` is dead code GameMaker still emits (`b E`).
    for (bc, ma, mi) in FAMILIES {
        assert_eq!(
            round(bc, ma, mi, "switch (a) { default: return 1; break; }"),
            "switch (a) {\n    default:\n        return 1;\n        break;\n}",
            "bytecode {bc}, {ma}.{mi}"
        );
    }
}

#[test]
fn nested_in_a_loop_and_around_a_switch() {
    for (bc, ma, mi) in FAMILIES {
        assert_eq!(
            round(
                bc,
                ma,
                mi,
                "while (a) { switch (b) { default: switch (a) { case 1: f(); break; } break; } }"
            ),
            "while (a) {\n    switch (b) {\n        default:\n            switch (a) {\n                \
             case 1:\n                    f();\n                    break;\n            }\n            \
             break;\n    }\n}",
            "bytecode {bc}, {ma}.{mi}"
        );
    }
}
