//! Round-trip shapes found on public games outside the corpus (issue 16, bar 1 on unseen
//! games): per shape, GML → the instructions GameMaker emits and/or those instructions → the
//! GML printed, which must parse back and compile to the same instructions, per version
//! family the shape concerns. No game's code is copied: each case is written from the rule.

mod common;
use common::{Asm, compiles_to, gml};

/// The names every case may use: variables `a b c d i x y z`, functions `f g`, the
/// accessors' functions and `array_get`.
const NAMES: &str = "push.v self.a / push.v self.b / push.v self.c / push.v self.d / \
    push.v self.i / push.v self.x / push.v self.y / push.v self.z / call.i f 0 / call.i g 0 / \
    call.i variable_struct_get 2 / call.i variable_struct_set 3 / call.i ds_list_find_value 2 / \
    call.i @@array_get@@ 2 / call.i array_get 2";

/// [`common::round_trip`] with this file's names.
fn round(bc: u8, major: u16, minor: u16, src: &str) -> String {
    common::round_trip(bc, major, minor, NAMES, src)
}

/// With typed booleans (2.3.7+), a `true`/`false` operand of `&&`/`||` needs no `conv.i.b`:
/// an unconverted `pushi.e 0` ending the operand is `false`, a converted one the int `0`.
#[test]
fn typed_boolean_short_circuit_operand() {
    let want = "push.v self.a / conv.v.b / bt L1 / pushi.e 0 / b L2 / L1: / push.e 1 / L2: / \
        pop.v.b self.x";
    compiles_to(17, 2023, 1, "x = a || false;", want);
    assert_eq!(gml(17, 2023, 1, want), "x = a || false;");
    for (src, printed) in [
        ("x = a || false;", "x = a || false;"),
        ("x = a || 0;", "x = a || 0;"),
        ("x = (1 && (a || false));", "x = 1 && (a || false);"),
    ] {
        assert_eq!(round(17, 2023, 1, src), printed);
    }
    // Before typed booleans `false` is the int 0, converted like it.
    assert_eq!(round(17, 2, 3, "x = a || false;"), "x = a || 0;");
}

/// A `true`/`false` compared (a `case` label, `==`) is typed boolean from 2.3.7
/// (`cmp.b.v`): printed as the boolean; before, the int (`cmp.i.v`).
#[test]
fn typed_boolean_compared() {
    let want = "call.i f 0 / dup.v 0 / pushi.e 1 / cmp.b.v EQ / bt L1 / b L2 / L1: / \
        call.i g 0 / popz.v / b L2 / L2: / popz.v";
    assert_eq!(
        gml(17, 2023, 1, want),
        "switch (f()) {\n    case true:\n        g();\n        break;\n}"
    );
    for v in [(2023, 1), (2024, 14)] {
        assert_eq!(
            round(17, v.0, v.1, "x = f() == false;"),
            "x = f() == false;"
        );
    }
    assert_eq!(round(17, 2, 3, "x = f() == false;"), "x = f() == 0;");
}

/// 2024.14+: an array element read in an accessor's keys or as its container, and an element
/// of a value that is no variable, call `@@array_get@@` (wild 2024.14 games); the accessor is
/// printed as written. Before, keys call `array_get` (2.3+) and the rest reads plainly.
#[test]
fn internal_array_get_from_2024_14() {
    compiles_to(
        17,
        2024,
        14,
        "x = a[$ b[i]];",
        "push.v builtin.i / push.v builtin.b / call.i @@array_get@@ 2 / push.v builtin.a / \
         call.i variable_struct_get 2 / pop.v.v builtin.x",
    );
    compiles_to(
        17,
        2024,
        14,
        "x = a[| i][1];",
        "pushi.e 1 / conv.i.v / push.v builtin.i / push.v builtin.a / \
         call.i ds_list_find_value 2 / call.i @@array_get@@ 2 / pop.v.v builtin.x",
    );
    compiles_to(
        17,
        2024,
        14,
        "a[i][$ b] = c;",
        "push.v builtin.c / push.v builtin.b / push.v builtin.i / push.v builtin.a / \
         call.i @@array_get@@ 2 / call.i variable_struct_set 3 / popz.v",
    );
    for (src, printed) in [
        ("x = a[$ b[i]];", "x = a[$ b[i]];"),
        ("x = a[| i][1];", "x = ds_list_find_value(a, i)[1];"),
        ("a[i][$ b] = c;", "a[i][$ b] = c;"),
        ("a[$ b[i] + 1] = c[1];", "a[$ b[i] + 1] = c[1];"),
        ("x = f()[0];", "x = f()[0];"),
        (
            "x = variable_struct_get(a, b[i]);",
            "x = variable_struct_get(a, b[i]);",
        ),
    ] {
        assert_eq!(round(17, 2024, 14, src), printed);
    }
    // 2.3 – 2024.13: keys call `array_get` (printed as the call), the container reads plainly.
    assert_eq!(
        round(17, 2024, 13, "x = a[$ b[i]];"),
        "x = a[$ array_get(b, i)];"
    );
    assert_eq!(round(17, 2024, 13, "a[i][$ b] = c;"), "a[i][$ b] = c;");
}

/// An entry whose own code calls the compiler's helpers by name (`call.i [name]@@Global@@`:
/// code of a stripped object, no FUNC chain) gets them called by name again (wild, 2024.14).
#[test]
fn helper_called_by_name_stays_by_name() {
    use gmkit_data::chunks::code::{CodeBody, CodeEntries, CodeEntry, DataType, Instruction};
    let mut a = Asm::new(17, 2024, 14);
    let mut ins = a.asm(
        "call.i @@Global@@ 0 / pushi.e -9 / pushi.e 2 / push.v [array]0.a / \
         pop.v.v builtin.x",
    );
    let strings = a.file.strings.as_mut().unwrap();
    let name = strings.find("@@Global@@").unwrap();
    ins[0] = Instruction::CallByName {
        t: DataType::Int32,
        argc: 0,
        name,
    };
    let entry = strings.push("gml_Object_o_Create_0");
    a.file.code = Some(CodeEntries {
        entries: vec![CodeEntry {
            name: entry,
            body: CodeBody::Instructions(ins.clone()),
            locals_count: 1,
            arguments_count: 0,
            arguments_flag: false,
            execution_offset: 0,
        }],
        empty_body: false,
    });
    let game = gmkit_gml::Game::new(&a.file);
    let names = gmkit_gml::compile::Names::new(&game);
    let d = gmkit_gml::decompile::decompile_entry(&game, 0).unwrap();
    let text = gmkit_gml::print::print_stmts(&d.body);
    assert_eq!(text, "x = global.a[2];");
    let tree = gmkit_gml::parse::parse(&text).unwrap();
    let got = gmkit_gml::compile::compile_entry(&game, &names, 0, &tree).unwrap();
    assert_eq!(got, ins);
}

/// Copy-on-write (2.3 – 2022.1): an owner id set again where paths merge is no repeat in
/// straight-line code; the statement after it in the same branch still skips it (wild,
/// 2022.3: `alarm[0] = -1; f(); alarm[3] = 1;` in an `else`, `alarm[1] = c;` after).
#[test]
fn owner_set_again_after_a_merge() {
    let want = "push.v self.a / conv.v.b / bf L1 / pushi.e 1 / pop.v.i self.b / b L2 / L1: / \
        push.i 68029 / setowner.e / pushi.e -1 / conv.i.v / pushi.e -1 / pushi.e 0 / \
        pop.v.v [array]0.alarm / call.i f 0 / popz.v / pushi.e 1 / conv.i.v / pushi.e -1 / \
        pushi.e 3 / pop.v.v [array]0.alarm / L2: / push.i 68029 / setowner.e / \
        push.v self.c / pushi.e -1 / pushi.e 1 / pop.v.v [array]0.alarm";
    common::compiles_to_in(
        17,
        2022,
        1,
        "if (a) { b = 1; } else { alarm[0] = -1; f(); alarm[3] = 1; } alarm[1] = c;",
        want,
        Some(want),
    );
}

/// A boolean right side of a bitwise compound converts straight to int64 from 2.3.2
/// (`conv.b.l`), to int32 before (wild, 2022.9: `_gb |= v < t;`).
#[test]
fn bitwise_compound_with_a_boolean() {
    compiles_to(
        17,
        2023,
        1,
        "x |= a < b;",
        "push.v self.x / push.v self.a / push.v self.b / cmp.v.v LT / conv.b.l / or.l.v / \
         pop.v.v self.x",
    );
    compiles_to(
        17,
        2,
        3,
        "x |= a < b;",
        "push.v self.x / push.v self.a / push.v self.b / cmp.v.v LT / conv.b.i / or.i.v / \
         pop.v.v self.x",
    );
    for v in [(2, 3), (2023, 1)] {
        assert_eq!(round(17, v.0, v.1, "x |= a < b;"), "x |= a < b;");
    }
}

/// A 2023.8+ file with object `obj_wall` (0).
fn with_object(major: u16, minor: u16) -> Asm {
    use gmkit_data::chunks::object::{Object, Objects};
    let mut a = Asm::new(17, major, minor);
    let name = a.file.strings.as_mut().unwrap().push("obj_wall");
    a.file.objects = Some(Objects {
        objects: vec![Some(Object {
            name,
            ..Object::default()
        })],
    });
    a
}

fn compile_with(a: &Asm, src: &str) -> Vec<gmkit_data::chunks::code::Instruction> {
    let game = gmkit_gml::Game::new(&a.file);
    let names = gmkit_gml::compile::Names::new(&game);
    let tree = gmkit_gml::parse::parse(src).unwrap();
    gmkit_gml::compile::compile_entry(&game, &names, 0, &tree).unwrap()
}

/// A bare asset name is the asset though the game has a global (or another entry's local)
/// variable of that name (wild, 2024.6: `room == introroom` beside `global.introroom`).
#[test]
fn asset_name_beside_a_global_of_that_name() {
    use gmkit_data::chunks::code::{ExtendedKind, Instruction};
    let mut a = with_object(2023, 8);
    a.asm("push.v self.x / pushglb.v global.obj_wall");
    a.file.variables.as_mut().unwrap().variables[1].instance_type = -5;
    let ins = compile_with(&a, "x = obj_wall;");
    assert!(
        matches!(
            ins[0],
            Instruction::Extended {
                kind: ExtendedKind::PUSHREF,
                ..
            }
        ),
        "{ins:?}"
    );
    // An instance variable of that name is the variable.
    a.file.variables.as_mut().unwrap().variables[1].instance_type = -1;
    let ins = compile_with(&a, "x = obj_wall;");
    assert!(matches!(ins[0], Instruction::Push { .. }), "{ins:?}");
}

/// From 2023.8 an object's name compiles to `pushref`: an instance number in a variable's
/// instance field is the number (wild, 2024.6: `push.v 0.option_id`).
#[test]
fn instance_number_is_no_object_from_2023_8() {
    let mut a = with_object(2023, 8);
    let ins = a.asm("push.v 0.x / pop.v.v self.y");
    let game = gmkit_gml::Game::new(&a.file);
    let d = gmkit_gml::decompile::decompile_instructions(&game, &ins);
    let text = gmkit_gml::print::print_stmts(&d.body);
    assert_eq!(text, "y = (0).x;");
    assert_eq!(compile_with(&a, &text), ins);
    // Before, the number is the object.
    let mut a = with_object(2023, 6);
    let ins = a.asm("push.v 0.x / pop.v.v self.y");
    let game = gmkit_gml::Game::new(&a.file);
    let d = gmkit_gml::decompile::decompile_instructions(&game, &ins);
    assert_eq!(gmkit_gml::print::print_stmts(&d.body), "y = obj_wall.x;");
}

/// A built-in function wins over a game's function of the same name when the file calls
/// the built-in (wild, 2024.6: the game's own `string_split` is never called).
#[test]
fn builtin_wins_over_a_game_function_of_its_name() {
    let mut a = Asm::new(17, 2024, 6);
    let want =
        a.asm("push.v builtin.b / push.v builtin.a / call.i string_split 2 / pop.v.v builtin.x");
    a.asm("call.i gml_Script_string_split 0");
    assert_eq!(compile_with(&a, "x = string_split(a, b);"), want);
}

/// A built-in read (`pushbltn`) takes the built-in's VARI entry (type self, id -6), not a
/// global of the same name listed before it (wild, 2024.8: `global.room = room;`).
#[test]
fn builtin_read_takes_the_builtin_entry() {
    use gmkit_data::chunks::variable::Variable;
    let mut a = Asm::new(17, 2024, 8);
    a.asm("pushglb.v global.room");
    let vars = &mut a.file.variables.as_mut().unwrap().variables;
    vars[0].instance_type = -5;
    let name = vars[0].name;
    vars.push(Variable {
        name,
        instance_type: -1,
        variable_id: -6,
    });
    let ins = compile_with(&a, "global.room = room;");
    let gmkit_data::chunks::code::Instruction::Push {
        value: gmkit_data::chunks::code::PushValue::Variable(v),
        ..
    } = ins[0]
    else {
        panic!("{ins:?}");
    };
    assert_eq!(v.variable.index(), 1, "{ins:?}");
}

/// Copy-on-write: a statement passing array literals to a call (also as an assignment's
/// value) sets the per-function owner id at the statement and again right before every array
/// literal, nested ones too (wild, 2.3.2: `menu = create_menu_page(["EXIT", 0, f], ...)`).
#[test]
fn owner_before_every_literal_passed_to_a_call() {
    let want = "push.i 65536 / setowner.e / push.i 65536 / setowner.e / push.s \"b\" / \
        conv.s.v / call.i @@NewGMLArray@@ 1 / push.i 65536 / setowner.e / push.i 65536 / \
        setowner.e / pushi.e 0 / conv.i.v / call.i @@NewGMLArray@@ 1 / push.s \"a\" / \
        conv.s.v / call.i @@NewGMLArray@@ 2 / call.i f 2 / pop.v.v self.m";
    common::compiles_to_in(17, 2, 3, "m = f([\"a\", [0]], [\"b\"]);", want, Some(want));
}

/// `break`/`continue`/`return`/`exit` leaving a `try` with `finally` compile, and the print
/// of the result compiles to the same instructions, in every 2.3+ version family.
#[test]
fn leaving_try_with_finally_in_every_family() {
    for (ma, mi) in [
        (2, 3),
        (2022, 1),
        (2023, 1),
        (2024, 6),
        (2024, 11),
        (2024, 14),
    ] {
        for src in [
            "while (a) { try { if (b) break; f(); } finally { g(); } }",
            "while (a) { try { if (b) continue; f(); } finally { g(); } }",
            "try { if (b) exit; f(); } finally { g(); }",
            "for (i = 0; i < 3; i++) { try { if (b) { break; } } catch (e) { f(); } finally { g(); } }",
        ] {
            let mut a = Asm::new(17, ma, mi);
            a.asm(NAMES);
            a.asm(
                "call.i @@try_hook@@ 2 / call.i @@try_unhook@@ 0 / \
                 call.i @@finish_finally@@ 0 / call.i @@finish_catch@@ 0 / \
                 pushloc.v local.__yy_breakEx0 / pushloc.v local.__yy_continueEx0 / \
                 pushloc.v local.e / pushloc.v local.$$$$temp$$$$",
            );
            let game = gmkit_gml::Game::new(&a.file);
            let names = gmkit_gml::compile::Names::new(&game);
            let compile = |text: &str| {
                let tree =
                    gmkit_gml::parse::parse(text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
                gmkit_gml::compile::compile_entry(&game, &names, 0, &tree)
                    .unwrap_or_else(|e| panic!("{ma}.{mi} {text:?}: {e}"))
            };
            let ins = compile(src);
            let d = gmkit_gml::decompile::decompile_instructions(&game, &ins);
            assert_eq!(d.failures, 0, "{ma}.{mi} {src:?}: {:?}", d.failure_notes);
            let text = gmkit_gml::print::print_stmts(&d.body);
            assert_eq!(compile(&text), ins, "{ma}.{mi} {src:?} printed as {text:?}");
        }
    }
}

/// `global.a[i]--` with `global` read through `@@Global@@` (2024.x): the store names the
/// global VARI entry of `a`, the re-read the self one, as with `global` as `-5` (wild, 2024.13).
#[test]
fn global_array_update_stores_to_the_global_entry() {
    use gmkit_data::chunks::code::{Instruction, PushValue, RefType};
    use gmkit_data::chunks::variable::Variable;
    for (major, minor) in [(2023, 8), (2024, 14)] {
        let mut a = Asm::new(17, major, minor);
        a.asm("push.v self.a / call.i @@Global@@ 0");
        let vars = &mut a.file.variables.as_mut().unwrap().variables;
        vars[0].instance_type = -1;
        let name = vars[0].name;
        vars.push(Variable {
            name,
            instance_type: -5,
            variable_id: vars[0].variable_id,
        });
        let ins = compile_with(&a, "global.a[1]--;");
        let kinds: Vec<(bool, i32)> = ins
            .iter()
            .filter_map(|i| match i {
                Instruction::Push {
                    value: PushValue::Variable(v),
                    ..
                } if v.ref_type == RefType::ARRAY => Some((false, v.variable)),
                Instruction::Pop { var, .. } if var.ref_type == RefType::ARRAY => {
                    Some((true, var.variable))
                }
                _ => None,
            })
            .map(|(pop, v)| (pop, vars_kind(&a, v.index())))
            .collect();
        assert_eq!(kinds, [(false, -1), (true, -5)], "{major}.{minor}: {ins:?}");
    }
}

fn vars_kind(a: &Asm, k: usize) -> i32 {
    a.file.variables.as_ref().unwrap().variables[k].instance_type
}

/// A script function on the left of a dot is its statics: `f.v` reads and writes through
/// `static_get(f)`, printed back as `f.v` (wild, 2023.11).
#[test]
fn script_function_left_of_a_dot_is_its_statics() {
    let want = "pushi.e 1 / push.i [function]gml_Script_f / conv.i.v / call.i static_get 1 / \
        pushi.e -9 / pop.v.i [stacktop]0.v";
    common::compiles_to(17, 2023, 8, "f.v = 1;", want);
    assert_eq!(gml(17, 2023, 8, want), "f.v = 1;");
}

/// Copy-on-write in early 2.3 builds (the ones reading global built-ins `pushbltn.v
/// self.room`): the last array owner is forgotten at the start of every `if` arm and loop
/// body, so each sets the same id again; later builds skip it (wild, 2.3 / 2.3.2 games:
/// consecutive `if (..) { alarm[k] = v; }` each set the owner).
#[test]
fn owner_forgotten_in_arms_of_early_builds() {
    let src = "if (a) { alarm[0] = 1; } if (b) { alarm[1] = 2; } while (c) { alarm[2] = 3; }";
    let arm = |again: &str| {
        format!(
            "push.v self.a / conv.v.b / bf L1 / \
             push.i 165536 / setowner.e / pushi.e 1 / conv.i.v / pushi.e -1 / pushi.e 0 / \
             pop.v.v [array]0.alarm / L1: / push.v self.b / conv.v.b / bf L2 / {again}\
             pushi.e 2 / conv.i.v / pushi.e -1 / pushi.e 1 / pop.v.v [array]0.alarm / L2: / \
             L3: / push.v self.c / conv.v.b / bf L4 / {again}pushi.e 3 / conv.i.v / \
             pushi.e -1 / pushi.e 2 / pop.v.v [array]0.alarm / b L3 / L4:"
        )
    };
    // The entry's code shows the build: `pushbltn.v self.room` (early) or `builtin.room`.
    let early = arm("push.i 165536 / setowner.e / ");
    let entry = format!("{early} / pushbltn.v self.room / popz.v");
    common::compiles_to_in(17, 2, 3, src, &early, Some(&entry));
    let later = arm("");
    let entry = format!("{later} / pushbltn.v builtin.room / popz.v");
    common::compiles_to_in(17, 2, 3, src, &later, Some(&entry));
}

/// Copy-on-write: the owner id of `o.a[i]` is not that of `a[i]` (GameMaker adds the
/// per-function part once more, wild 2.3.2 / 2.3.6), so both are learnt from the entry apart:
/// `alarm[0]` and `other.alarm[1]` in one entry set two ids.
#[test]
fn owner_of_a_dot_target_is_its_own() {
    let want = "push.i 165536 / setowner.e / pushi.e 1 / conv.i.v / pushi.e -1 / pushi.e 0 / \
        pop.v.v [array]0.alarm / push.i 231072 / setowner.e / pushi.e 2 / conv.i.v / \
        call.i @@Other@@ 0 / pushi.e -9 / pushi.e 1 / pop.v.v [array]0.alarm / push.i 231072 / setowner.e / \
        pushi.e 3 / conv.i.v / call.i @@Other@@ 0 / pushi.e -9 / pushi.e 2 / pop.v.v [array]0.alarm / \
        push.i 165536 / setowner.e / pushi.e 4 / conv.i.v / pushi.e -1 / pushi.e 3 / \
        pop.v.v [array]0.alarm";
    common::compiles_to_in(
        17,
        2,
        3,
        "alarm[0] = 1; other.alarm[1] = 2; other.alarm[2] = 3; alarm[3] = 4;",
        want,
        Some(want),
    );
}

/// Copy-on-write: `v = array_create(n)` sets the call's owner (the per-function id, variable
/// part 0) and `v = [..]` the variable's, also in `var` declarations (wild, 2.3.2).
#[test]
fn owner_of_an_array_create_value_is_the_calls() {
    let want = "push.i 65536 / setowner.e / pushi.e 3 / conv.i.v / call.i array_create 1 / \
        pop.v.v self.v / push.i 165536 / setowner.e / pushi.e 1 / conv.i.v / \
        call.i @@NewGMLArray@@ 1 / pop.v.v self.v / push.i 65536 / setowner.e / \
        pushi.e 2 / conv.i.v / call.i array_create 1 / pop.v.v local.w";
    common::compiles_to_in(
        17,
        2,
        3,
        "v = array_create(3); v = [1]; var w = array_create(2);",
        want,
        Some(want),
    );
}

/// The same for a multi-dimensional element (`push.v [arraypopaf]`, wild 2.3.2:
/// `other.second_level[1][c] = ..` next to `second_level[1][i] = ..`).
#[test]
fn owner_of_a_dot_target_is_its_own_in_two_dimensions() {
    let want = "push.i 165536 / setowner.e / pushi.e 5 / conv.i.v / pushi.e -1 / pushi.e 0 / \
        push.v [multipushpop]0.b / pushi.e 1 / popaf.e / push.i 231072 / setowner.e / \
        pushi.e 6 / conv.i.v / call.i @@Other@@ 0 / pushi.e -9 / pushi.e 0 / \
        push.v [multipushpop]0.b / pushi.e 2 / popaf.e";
    common::compiles_to_in(
        17,
        2,
        3,
        "b[0][1] = 5; other.b[0][2] = 6;",
        want,
        Some(want),
    );
}

/// Copy-on-write: after a loop left or restarted by `break`/`continue` the owner is unknown,
/// so the next array write sets it again even if unchanged (wild, 2022.0.3: a `for` with
/// `continue`, then `list[i] = v`); a loop without them keeps it.
#[test]
fn owner_unknown_after_a_loop_with_continue() {
    let want = "push.i 165536 / setowner.e / pushi.e 1 / conv.i.v / pushi.e -1 / pushi.e 0 / \
        pop.v.v [array]0.a / L0: / push.v self.b / conv.v.b / bf L9 / push.v self.c / \
        conv.v.b / bf L1 / b L0 / L1: / call.i f 0 / popz.v / b L0 / L9: / \
        push.i 165536 / setowner.e / pushi.e 2 / conv.i.v / pushi.e -1 / pushi.e 1 / \
        pop.v.v [array]0.a / L2: / push.v self.b / conv.v.b / bf L3 / call.i f 0 / popz.v / \
        b L2 / L3: / pushi.e 3 / conv.i.v / pushi.e -1 / pushi.e 2 / pop.v.v [array]0.a";
    common::compiles_to_in(
        17,
        2022,
        1,
        "a[0] = 1; while (b) { if (c) continue; f(); } a[1] = 2; while (b) { f(); } a[2] = 3;",
        want,
        Some(want),
    );
}

/// Copy-on-write: a statement `a[i]--;` is compiled as the expression `a[i]--` and `popz.v`
/// (wild 2.3.2); when the owner was not set again, the element is first read once more and
/// dropped (spec §4.8, GameMaker's compiler quirk).
#[test]
fn update_of_an_element_with_copy_on_write() {
    let want = "push.i 165536 / setowner.e / pushi.e -1 / push.v self.i / conv.v.i / dup.i 1 / \
        push.v [array]0.a / dup.v 0 / dup.i 4 6 / push.e 1 / sub.i.v / \
        pop.i.v [array]0.a / popz.v / pushi.e -1 / pushi.e 0 / push.v [array]0.a / popz.v / \
        pushi.e -1 / pushi.e 0 / dup.i 1 / push.v [array]0.a / \
        push.e 1 / add.i.v / dup.v 0 / dup.i 4 6 / pop.i.v [array]0.a / popz.v";
    common::compiles_to_in(17, 2, 3, "a[i]--; ++a[0];", want, Some(want));
    assert_eq!(gml(17, 2, 3, want), "a[i]--;\n++a[0];");
}

/// Typed booleans are also evidenced by a short circuit's unconverted `false` operand
/// (`bt L / pushi.e 0 / b`; wild: a game whose chunks look 2.3.2 compiles `a || false` so):
/// `false` then compiles without `conv.i.b` in that file.
#[test]
fn typed_booleans_evidenced_by_a_short_circuit() {
    let want = "push.v self.a / conv.v.b / bt L1 / pushi.e 0 / b L2 / L1: / push.e 1 / L2: / \
        bf L3 / call.i f 0 / popz.v / L3:";
    common::compiles_to_in(17, 2, 3, "if (a || false) { f(); }", want, Some(want));
    // Without the evidence `false` is the int 0, converted.
    let int = "push.v self.a / conv.v.b / bt L1 / pushi.e 0 / conv.i.b / b L2 / L1: / \
        push.e 1 / L2: / bf L3 / call.i f 0 / popz.v / L3:";
    common::compiles_to_in(17, 2, 3, "if (a || false) { f(); }", int, Some(int));
}

/// The room-background arrays (`background_alpha`, `background_index`, ...) are built-ins of
/// GameMaker 1.x only: there a bare name is element 0 (int64 index); from GameMaker 2 it is the
/// game's own variable (wild, 2022.9: `background_alpha += 0.125;`).
#[test]
fn background_names_are_own_variables_from_gms2() {
    compiles_to(
        16,
        1,
        4,
        "background_alpha = 1;",
        "pushi.e 1 / pushi.e -1 / push.l 0 / conv.l.i / pop.v.i [array]0.background_alpha",
    );
    for (ma, mi) in [(2, 0), (2, 3), (2022, 9)] {
        compiles_to(
            17,
            ma,
            mi,
            "background_alpha = 1;",
            "pushi.e 1 / pop.v.i self.background_alpha",
        );
    }
}

/// Copy-on-write in a build that sets no pairs (wild, 2023+ with the option on): a statement
/// passing an array literal to a call sets the per-function owner once, not again before the
/// literal, and the next such statement finds it set.
#[test]
fn owner_once_for_a_literal_passed_to_a_call_without_pairs() {
    let want = "push.i 65536 / setowner.e / push.v self.a / call.i @@NewGMLArray@@ 1 / \
        call.i f 1 / popz.v / push.v self.b / call.i @@NewGMLArray@@ 1 / call.i f 1 / popz.v";
    common::compiles_to_in(17, 2023, 1, "f([a]); f([b]);", want, Some(want));
}

/// 2024.2+: a room's instance (`pushref.i [roominstance]id`) reads `inst_id_<id>` and
/// compiles back to the reference (wild 2024.2: `instance_destroy(inst_id_101392)`); an int it
/// was not.
#[test]
fn room_instance_reference() {
    // Asset type 14: a room instance.
    let want = "pushref.i 14:101392 / pop.v.v builtin.a";
    assert_eq!(gml(17, 2024, 2, want), "a = inst_id_101392;");
    compiles_to(17, 2024, 2, "a = inst_id_101392;", want);
    assert_eq!(
        round(17, 2024, 2, "f(inst_id_101392);"),
        "f(inst_id_101392);"
    );
}

/// 2023.8+: a reference to an asset the file gives no name (stripped files) reads
/// `<kind>_<index>` and compiles back to the reference; a named one keeps its name (wild 2023+:
/// `choose(sprite_87, sprite_85)`).
#[test]
fn unnamed_asset_reference() {
    use gmkit_data::chunks::code::{ExtOperand, ExtendedKind, Instruction};
    use gmkit_data::chunks::sprite::{Sprite, Sprites};
    use gmkit_gml::game::AssetKind;
    let mut a = common::Asm::new(17, 2023, 8);
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
    let x = a.asm("pop.v.v self.x")[0];
    let game = gmkit_gml::Game::new(&a.file);
    let names = gmkit_gml::compile::Names::new(&game);
    let t = game.pushref_type(AssetKind::Sprite).expect("sprite refs");
    let r = |index| Instruction::Extended {
        kind: ExtendedKind::PUSHREF,
        t: gmkit_data::chunks::code::DataType::Int32,
        operand: Some(ExtOperand::Asset {
            asset_type: t,
            index,
        }),
    };
    let ins = vec![r(0), x, r(1), x];
    let d = gmkit_gml::decompile::decompile_instructions(&game, &ins);
    let text = gmkit_gml::print::print_stmts(&d.body);
    assert_eq!(text, "x = sprite_0;\nx = spr_wall;");
    let tree = gmkit_gml::parse::parse(&text).unwrap();
    assert_eq!(
        gmkit_gml::compile::compile_entry(&game, &names, 0, &tree).unwrap(),
        ins
    );
    // A name of that form for an asset that has a name, or none, is no reference.
    let tree = gmkit_gml::parse::parse("x = sprite_1;").unwrap();
    let got = gmkit_gml::compile::compile_entry(&game, &names, 0, &tree);
    assert!(
        !matches!(got.as_deref(), Ok([Instruction::Extended { .. }, ..])),
        "{got:?}"
    );
}

/// An asset whose name is no identifier (empty, or with a space: a file edited by hand) could
/// not be written in GML: it reads as unnamed (`sprite_1`) and compiles back to its reference,
/// and before 2023.8 it stays a number.
#[test]
fn an_asset_name_that_is_no_identifier_reads_as_unnamed() {
    use gmkit_data::chunks::code::{ExtOperand, ExtendedKind, Instruction};
    use gmkit_data::chunks::sprite::{Sprite, Sprites};
    use gmkit_gml::game::AssetKind;
    for bad in ["", "my sprite", "9lives"] {
        let mut a = common::Asm::new(17, 2023, 8);
        let name = a.file.strings.as_mut().unwrap().push(bad);
        a.file.sprites = Some(Sprites {
            sprites: vec![
                None,
                Some(Sprite {
                    name,
                    ..Sprite::default()
                }),
            ],
        });
        let x = a.asm("pop.v.v self.x")[0];
        let game = gmkit_gml::Game::new(&a.file);
        assert_eq!(game.asset_name(AssetKind::Sprite, 1), None, "{bad:?}");
        assert!(game.asset_unnamed(AssetKind::Sprite, 1), "{bad:?}");
        let names = gmkit_gml::compile::Names::new(&game);
        let t = game.pushref_type(AssetKind::Sprite).expect("sprite refs");
        let ins = vec![
            Instruction::Extended {
                kind: ExtendedKind::PUSHREF,
                t: gmkit_data::chunks::code::DataType::Int32,
                operand: Some(ExtOperand::Asset {
                    asset_type: t,
                    index: 1,
                }),
            },
            x,
        ];
        let d = gmkit_gml::decompile::decompile_instructions(&game, &ins);
        let text = gmkit_gml::print::print_stmts(&d.body);
        assert_eq!(text, "x = sprite_1;", "{bad:?}");
        let tree = gmkit_gml::parse::parse(&text).unwrap();
        assert_eq!(
            gmkit_gml::compile::compile_entry(&game, &names, 0, &tree).unwrap(),
            ins,
            "{bad:?}"
        );
    }
    // Before 2023.8 an object named so is no owner name: `(1).x`, not a broken identifier.
    let mut a = common::Asm::new(16, 1, 4);
    let name = a.file.strings.as_mut().unwrap().push("my obj");
    a.file.objects = Some(gmkit_data::chunks::object::Objects {
        objects: vec![
            None,
            Some(gmkit_data::chunks::object::Object {
                name,
                ..Default::default()
            }),
        ],
    });
    let ins = a.asm("pushi.e 5\npop.v.i 1.x");
    let game = gmkit_gml::Game::new(&a.file);
    let d = gmkit_gml::decompile::decompile_instructions(&game, &ins);
    let text = gmkit_gml::print::print_stmts(&d.body);
    assert!(!text.contains("my obj"), "{text}");
    gmkit_gml::parse::parse(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
}

/// `new self.c()` reads `push.v self.c` while a bare `new c()` of an instance variable reads
/// `builtin.c` (2.3+): the written `self.` is kept, so each reads back as itself.
#[test]
fn new_of_an_instance_variable_keeps_a_written_self() {
    let names = "push.v self.maker / push.v self.x / call.i @@NewGMLObject@@ 1";
    for (major, minor) in [(2, 3), (2023, 8), (2024, 2)] {
        for src in ["x = new self.maker(1);", "x = new maker(1);"] {
            let text = common::round_trip(17, major, minor, names, src);
            assert_eq!(text, src, "{major}.{minor}");
        }
        // The store is bare `x` (2024.2+: instance -6).
        let x = if major >= 2024 { "builtin" } else { "self" };
        let asm = format!("push.v self.maker / call.i @@NewGMLObject@@ 1 / pop.v.v {x}.x");
        let text = gml(17, major, minor, &asm);
        assert_eq!(text, "x = new self.maker();", "{major}.{minor}");
    }
}

/// `new global.f()` and `new self.f()` of a script function are the function itself, as
/// `new f()` is (`push.i [function]gml_Script_f`, not a read of a variable).
#[test]
fn new_of_a_qualified_script_function_is_the_function() {
    use gmkit_data::chunks::code::{Instruction, PushValue};
    for (major, minor) in [(2, 3), (2023, 8)] {
        let mut a = Asm::new(17, major, minor);
        a.asm("push.v self.x / call.i gml_Script_shape 0 / call.i @@NewGMLObject@@ 1");
        let bare = compile_with(&a, "x = new shape(2);");
        assert!(
            bare.iter().any(|i| matches!(
                i,
                Instruction::Push {
                    value: PushValue::Function(_),
                    ..
                }
            )),
            "{bare:?}"
        );
        for src in ["x = new global.shape(2);", "x = new self.shape(2);"] {
            assert_eq!(compile_with(&a, src), bare, "{major}.{minor}: {src}");
        }
        // A variable that is no function stays a read of the variable.
        let other = compile_with(&a, "x = new global.x(2);");
        assert_ne!(other, bare);
    }
}

/// A field of a data-structure read prints with the accessor (`l[| 0].x`, as sources write
/// it), which compiles as the call's field in every version; a method called on such a read
/// stays on the call.
#[test]
fn a_field_of_an_accessor_read_prints_with_the_accessor() {
    let names = "push.v self.l / push.v self.x / call.i ds_list_find_value 2 / \
                 call.i ds_map_find_value 2 / call.i ds_grid_get 3 / pop.v.v self.a / push.v self.m";
    for (bc, major, minor) in [
        (16, 1, 4),
        (17, 2, 2),
        (17, 2, 3),
        (17, 2023, 8),
        (17, 2024, 14),
    ] {
        for (src, want) in [
            ("a = ds_list_find_value(l, 0).x;", "a = l[| 0].x;"),
            ("a = ds_map_find_value(l, 2).x;", "a = l[? 2].x;"),
            ("a = ds_grid_get(l, 0, 1).x;", "a = l[# 0, 1].x;"),
            ("ds_list_find_value(l, 0).x = 1;", "l[| 0].x = 1;"),
            ("ds_list_find_value(l, 0).x += 1;", "l[| 0].x += 1;"),
        ] {
            let text = common::round_trip(bc, major, minor, names, src);
            assert_eq!(text, want, "{major}.{minor}");
        }
        if major >= 2023 || (major == 2 && minor >= 3) {
            let src = "a = ds_list_find_value(l, 0).m(1);";
            assert_eq!(common::round_trip(bc, major, minor, names, src), src);
        }
    }
}

/// 2023.8+ without function `pushref`s in the file's code: a script that declares no function
/// of its name is referred to by the FUNC entry of its bare name (`push.i [function]s`), as
/// GameMaker 2024.14 compiles it (wild: a menu's `[..., exit_game]` of a script whose code is
/// a plain statement), not by a script-asset `pushref`.
#[test]
fn a_script_without_its_function_is_its_bare_function_entry() {
    use gmkit_data::chunks::script::{Script, Scripts};
    for (major, minor) in [(2023, 8), (2024, 14)] {
        let mut a = common::Asm::new(17, major, minor);
        // (A bare `x` is stored as `builtin` from 2024.2.)
        let owner = if major >= 2024 { "builtin" } else { "self" };
        let ins = a.asm(&format!("push.i [function]exit_menu / pop.v.i {owner}.x"));
        // The file's own code is this entry: it shows functions pushed, not `pushref`.
        a.set_code(vec![("gml_Object_menu_Create_0", ins.clone())]);
        let name = a.file.strings.as_mut().unwrap().push("exit_menu");
        a.file.scripts = Some(Scripts {
            scripts: vec![Some(Script {
                name,
                ..Script::default()
            })],
        });
        let game = gmkit_gml::Game::new(&a.file);
        let d = gmkit_gml::decompile::decompile_instructions(&game, &ins);
        let text = gmkit_gml::print::print_stmts(&d.body);
        assert_eq!(text, "x = exit_menu;", "{major}.{minor}");
        let names = gmkit_gml::compile::Names::new(&game);
        let tree = gmkit_gml::parse::parse(&text).unwrap();
        assert_eq!(
            gmkit_gml::compile::compile_entry(&game, &names, 0, &tree).unwrap(),
            ins,
            "{major}.{minor}"
        );
    }
}
