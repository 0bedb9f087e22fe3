//! The decompiler's names pass: a literal where the kind of value is known reads as its name
//! (built-in constants, assets before 2023.8, `noone`/`all`/`self`/`other`, `true`/`false`,
//! `ord("A")`), per kind and per version family; every case also compiles back to the very
//! instructions it came from (the names are ones the compiler maps to the same numbers).

mod common;
use common::Asm;
use gmkit_data::chunks::code::CodeBody;
use gmkit_gml::compile::{Names, compile_entry};
use gmkit_gml::{Game, decompile, parse, print};

/// GMS 1.4 (bytecode 14), GMS 2.2 (bc 17, 2.0), 2.3 (bc 17, 2.3, before typed booleans),
/// 2022 (typed booleans), 2023.8 (asset references).
const GMS1: (u8, u16, u16) = (14, 1, 0);
/// GMS 1.4 with bytecode 16 (`pushi`; `push.e` only for `++`/`--` and short-circuit ends).
const GMS1_16: (u8, u16, u16) = (16, 1, 0);
const V22: (u8, u16, u16) = (17, 2, 0);
const V23: (u8, u16, u16) = (17, 2, 3);
const V2022: (u8, u16, u16) = (17, 2022, 1);
const V2023_8: (u8, u16, u16) = (17, 2023, 8);

/// A file of version `v` with objects `obj_wall` (0), `obj_player` (1) and sprites
/// `spr_player` (0), `spr_wall` (1).
fn file(v: (u8, u16, u16)) -> Asm {
    common::with_assets(v)
}

/// Decompiles `asm` for version `v`, checks the text, and compiles the text back to `asm`.
#[track_caller]
fn named(v: (u8, u16, u16), asm: &str, expected: &str) {
    named_in(v, &[("gml_Object_test_Create_0", asm, expected)]);
}

/// Builds a file of version `v` with one code entry per `(name, asm, expected)`, decompiles
/// each, checks its text, and compiles the text back to its instructions.
#[track_caller]
fn named_in(v: (u8, u16, u16), entries: &[(&str, &str, &str)]) {
    let mut a = file(v);
    let mut code = Vec::new();
    for (name, asm, _) in entries {
        // GMS 1.4 has no `pushi` nor `pushloc`: its short integers are `push.e`, its locals
        // read with `push.v`.
        let asm = if v.0 <= 14 {
            asm.replace("pushi.e", "push.e")
        } else {
            asm.replace("push.v local.", "pushloc.v local.")
        };
        code.push((*name, a.asm(&asm)));
    }
    a.set_code(code);
    let game = Game::new(&a.file);
    let names = Names::new(&game);
    let dis = gmkit_data::chunks::code::asm::Disassembler::new(&a.file);
    for (i, (_, asm, expected)) in entries.iter().enumerate() {
        let d = decompile::decompile_entry(&game, i).expect("decompiles");
        assert_eq!(d.failures, 0, "{:?}", d.failure_notes);
        let text = print::print_stmts(&d.body);
        assert_eq!(text, *expected, "decompiling {asm:?} for {v:?}");
        let tree = parse::parse(&text).expect("the text parses");
        let got = compile_entry(&game, &names, i, &tree).expect("the text compiles");
        let CodeBody::Instructions(ins) = &a.file.code.as_ref().unwrap().entries[i].body else {
            unreachable!("built above")
        };
        assert_eq!(
            dis.instructions(&got),
            dis.instructions(ins),
            "compiling {text:?} back for {v:?}"
        );
    }
}

#[test]
fn colours_alignments_and_blend_modes_by_argument() {
    for v in [GMS1, V22, V23, V2022, V2023_8] {
        named(
            v,
            "push.i 16777215 / conv.i.v / call.i draw_set_colour 1 / popz.v",
            "draw_set_colour(c_white);",
        );
        named(
            v,
            "pushi.e 1 / conv.i.v / call.i draw_set_halign 1 / popz.v",
            "draw_set_halign(fa_center);",
        );
        named(
            v,
            "pushi.e 1 / conv.i.v / call.i draw_set_valign 1 / popz.v",
            "draw_set_valign(fa_middle);",
        );
    }
    // An unnamed colour stays a number; a colour of the other spelling reads in the
    // preferred one.
    named(
        V23,
        "push.i 123456 / conv.i.v / call.i draw_set_colour 1 / popz.v",
        "draw_set_colour(123456);",
    );
    named(
        V23,
        "push.i 12632256 / conv.i.v / call.i draw_set_color 1 / popz.v",
        "draw_set_color(c_ltgray);",
    );
    named(
        GMS1,
        "pushi.e 1 / conv.i.v / call.i draw_set_blend_mode 1 / popz.v",
        "draw_set_blend_mode(bm_add);",
    );
    named(
        V23,
        "pushi.e 6 / conv.i.v / pushi.e 5 / conv.i.v / call.i gpu_set_blendmode_ext 2 / popz.v",
        "gpu_set_blendmode_ext(bm_src_alpha, bm_inv_src_alpha);",
    );
}

#[test]
fn keys_and_mouse_buttons() {
    for v in [GMS1, V23, V2023_8] {
        named(
            v,
            "pushi.e 37 / conv.i.v / call.i keyboard_check 1 / conv.v.b / bf L / \
             pushi.e 1 / pop.v.i self.a / L:",
            "if (keyboard_check(vk_left)) {\n    a = 1;\n}",
        );
        named(
            v,
            "pushi.e 1 / conv.i.v / call.i mouse_check_button 1 / pop.v.v self.m",
            "m = mouse_check_button(mb_left);",
        );
    }
    // Letters and digits read `ord("A")`; other keys `vk_*`.
    named(
        V23,
        "pushi.e 90 / conv.i.v / call.i keyboard_check_pressed 1 / pop.v.v self.k",
        "k = keyboard_check_pressed(ord(\"Z\"));",
    );
    named(
        GMS1,
        "pushi.e 50 / conv.i.v / call.i keyboard_check 1 / pop.v.v self.k",
        "k = keyboard_check(ord(\"2\"));",
    );
    named(
        V23,
        "pushi.e 115 / conv.i.v / call.i keyboard_check 1 / pop.v.v self.k",
        "k = keyboard_check(vk_f4);",
    );
    // A built-in variable of key kind, compared and switched on.
    named(
        V23,
        "push.v self.keyboard_key / pushi.e 32 / cmp.i.v EQ / pop.v.b self.s",
        "s = keyboard_key == vk_space;",
    );
}

#[test]
fn assets_before_references() {
    for v in [GMS1, V22, V23, V2022] {
        named(
            v,
            "pushi.e 1 / pop.v.i self.sprite_index",
            "sprite_index = spr_wall;",
        );
        named(
            v,
            "pushi.e 0 / conv.i.v / push.v self.y / push.v self.x / \
             call.i instance_create 3 / popz.v",
            "instance_create(x, y, obj_wall);",
        );
    }
    named(
        V23,
        "push.v self.y / push.v self.x / pushi.e 0 / conv.i.v / pushi.e 1 / conv.i.v / \
         call.i draw_sprite 4 / popz.v",
        "draw_sprite(spr_wall, 0, x, y);",
    );
    // An index with no asset stays a number.
    named(
        V23,
        "pushi.e 7 / pop.v.i self.sprite_index",
        "sprite_index = 7;",
    );
    // From 2023.8 an asset is a `pushref`; a plain number there stays one.
    named(
        V2023_8,
        "pushi.e 1 / pop.v.i self.sprite_index",
        "sprite_index = 1;",
    );
}

#[test]
fn instances_noone_all_self() {
    for v in [GMS1, V23] {
        named(
            v,
            "pushi.e 1 / conv.i.v / push.v self.y / push.v self.x / \
             call.i place_meeting 3 / pop.v.v self.h",
            "h = place_meeting(x, y, obj_player);",
        );
        named(
            v,
            "pushi.e -3 / conv.i.v / call.i instance_exists 1 / pop.v.v self.e",
            "e = instance_exists(all);",
        );
        // -4 compared with a variable of no known kind is `noone`.
        named(
            v,
            "push.v self.target / pushi.e -4 / cmp.i.v NEQ / pop.v.b self.t",
            "t = target != noone;",
        );
    }
    // `self` as a value: -1 before 2.3 (a call of `@@This@@` after).
    named(
        GMS1,
        "pushi.e -1 / conv.i.v / call.i instance_exists 1 / pop.v.v self.e",
        "e = instance_exists(self);",
    );
    named(
        V23,
        "pushi.e -1 / conv.i.v / call.i instance_exists 1 / pop.v.v self.e",
        "e = instance_exists(-1);",
    );
}

#[test]
fn booleans_before_typed_booleans() {
    // A boolean built-in compared with 1; a boolean built-in variable assigned 0.
    for v in [GMS1, V22, V23] {
        named(
            v,
            "pushi.e 1 / conv.i.v / call.i instance_exists 1 / pushi.e 1 / cmp.i.v EQ / \
             pop.v.b self.e",
            "e = instance_exists(obj_player) == true;",
        );
        named(v, "pushi.e 0 / pop.v.i self.visible", "visible = false;");
    }
    // From 2.3.7 a boolean is typed in the bytecode: an untyped 1 was written `1`.
    named(V2022, "pushi.e 0 / pop.v.i self.visible", "visible = 0;");
    named(
        V2022,
        "pushi.e 0 / pop.v.b self.visible",
        "visible = false;",
    );
}

#[test]
fn variables_used_as_booleans_game_wide() {
    // `flag` is stored only 0/1 and read as a condition: it is a boolean everywhere.
    named(
        GMS1,
        "pushi.e 1 / pop.v.i self.flag / push.v self.flag / conv.v.b / bf L / \
         pushi.e 0 / pop.v.i self.flag / L:",
        "flag = true;\nif (flag) {\n    flag = false;\n}",
    );
    // `n` is also incremented: a number.
    named(
        GMS1,
        "pushi.e 1 / pop.v.i self.n / push.v self.n / conv.v.b / bf L / \
         push.v self.n / push.e 1 / add.i.v / pop.v.v self.n / L:",
        "n = 1;\nif (n) {\n    n += 1;\n}",
    );
}

#[test]
fn booleans_that_hold_one_another() {
    // `start` is only stored 0/1 and copied into `flag`, which is read as a condition: both
    // hold booleans (jtool's `djump = global.restartWithDJump`).
    named(
        GMS1,
        "pushi.e 1 / pop.v.i self.start / push.v self.start / pop.v.v self.flag / \
         push.v self.flag / conv.v.b / bf L / pushi.e 0 / pop.v.i self.flag / L:",
        "start = true;\nflag = start;\nif (flag) {\n    flag = false;\n}",
    );
    // A copy of a counter (`start` also stores a sum) is not a boolean, nor is the copy.
    named(
        GMS1,
        "pushi.e 1 / pop.v.i self.start / push.v self.start / push.e 1 / add.i.v / \
         pop.v.v self.start / push.v self.start / pop.v.v self.flag / \
         push.v self.flag / conv.v.b / bf L / pushi.e 0 / pop.v.i self.flag / L:",
        "start = 1;\nstart += 1;\nflag = start;\nif (flag) {\n    flag = 0;\n}",
    );
}

#[test]
fn variables_stored_booleans_without_a_condition_read() {
    // `hit` stores 0 and a boolean built-in's result (never read as a condition here): a
    // boolean (jtool's `nudgeBlockCheck = false; nudgeBlockCheck = place_meeting(…)`).
    for v in [GMS1, V22] {
        named(
            v,
            "pushi.e 0 / pop.v.i self.hit / pushi.e 1 / conv.i.v / push.v self.y / \
             push.v self.x / call.i place_meeting 3 / pop.v.v self.hit",
            "hit = false;\nhit = place_meeting(x, y, obj_player);",
        );
        // Also added to: a number.
        named(
            v,
            "pushi.e 0 / pop.v.i self.hit / pushi.e 1 / conv.i.v / push.v self.y / \
             push.v self.x / call.i place_meeting 3 / pop.v.v self.hit / \
             push.v self.hit / pushi.e 2 / add.i.v / pop.v.v self.hit",
            "hit = 0;\nhit = place_meeting(x, y, obj_player);\nhit += 2;",
        );
    }
    // A predicate script's result stored in it counts as a boolean; another script's does not.
    named_in(
        GMS1,
        &[
            (
                "gml_Script_scr_ok",
                "push.v self.a / conv.v.b / bf L / pushi.e 1 / conv.i.v / ret.v / L: / \
                 pushi.e 0 / conv.i.v / ret.v",
                "if (a) {\n    return true;\n}\nreturn false;",
            ),
            (
                "gml_Script_scr_num",
                "push.v self.a / conv.v.b / bf L / pushi.e 2 / conv.i.v / ret.v / L: / \
                 pushi.e 0 / conv.i.v / ret.v",
                "if (a) {\n    return 2;\n}\nreturn 0;",
            ),
            (
                "gml_Object_a_Create_0",
                "pushi.e 0 / pop.v.i self.ok / call.i scr_ok 0 / pop.v.v self.ok / \
                 pushi.e 0 / pop.v.i self.n / call.i scr_num 0 / pop.v.v self.n",
                "ok = false;\nok = scr_ok();\nn = 0;\nn = scr_num();",
            ),
        ],
    );
}

#[test]
fn scripts_returning_instances_return_noone() {
    // Every return is an instance (`id`, `instance_create`) or -4: the -4 is `noone`.
    for v in [GMS1, V23] {
        named(
            v,
            "push.v self.a / conv.v.b / bf L / push.v self.id / ret.v / L: / \
             pushi.e -4 / conv.i.v / ret.v",
            "if (a) {\n    return id;\n}\nreturn noone;",
        );
        // Another number among the returns: -4 stays a number.
        named(
            v,
            "push.v self.a / conv.v.b / bf L / push.v self.id / ret.v / L: / \
             push.v self.a / conv.v.b / bf M / pushi.e 5 / conv.i.v / ret.v / M: / \
             pushi.e -4 / conv.i.v / ret.v",
            "if (a) {\n    return id;\n}\nif (a) {\n    return 5;\n}\nreturn -4;",
        );
    }
}

#[test]
fn predicate_scripts_return_booleans() {
    named(
        GMS1,
        "push.v self.a / conv.v.b / bf L / pushi.e 1 / conv.i.v / ret.v / L: / \
         pushi.e 0 / conv.i.v / ret.v",
        "if (a) {\n    return true;\n}\nreturn false;",
    );
    // Returning 1 only: not a predicate.
    named(GMS1, "pushi.e 1 / conv.i.v / ret.v", "return 1;");
}

#[test]
fn names_the_game_uses_stay_numbers() {
    // The game has a variable named like the constant: the number stays.
    named(
        V23,
        "pushi.e 1 / pop.v.i self.c_red / pushi.e 255 / conv.i.v / \
         call.i draw_set_colour 1 / popz.v",
        "c_red = 1;\ndraw_set_colour(255);",
    );
    // A local named like an asset: the number stays.
    named(
        V23,
        "pushi.e 0 / pop.v.i local.spr_wall / pushi.e 1 / pop.v.i self.sprite_index",
        "var spr_wall = 0;\nsprite_index = 1;",
    );
}

#[test]
fn switch_labels_take_the_kind_of_the_value() {
    named(
        V23,
        "push.v self.keyboard_key / dup.v 0 / pushi.e 37 / cmp.i.v EQ / bt A / \
         dup.v 0 / pushi.e 39 / cmp.i.v EQ / bt B / b E / \
         A: / pushi.e 1 / pop.v.i self.d / b E / B: / pushi.e 2 / pop.v.i self.d / b E / \
         E: / popz.v",
        "switch (keyboard_key) {\n    case vk_left:\n        d = 1;\n        break;\n    \
         case vk_right:\n        d = 2;\n        break;\n}",
    );
}

#[test]
fn kinds_through_locals() {
    for v in [GMS1, V22, V23] {
        // A local stored a value of known kind: the literals stored in it take that kind.
        named(
            v,
            "push.v self.image_blend / pop.v.v local.c / pushi.e 255 / pop.v.i local.c / \
             push.v local.c / call.i draw_set_colour 1 / popz.v",
            "var c = image_blend;\nc = c_red;\ndraw_set_colour(c);",
        );
        // A local passed where an object goes.
        named(
            v,
            "pushi.e 1 / pop.v.i local.o / push.v local.o / push.v self.y / push.v self.x / \
             call.i instance_create 3 / popz.v",
            "var o = obj_player;\ninstance_create(x, y, o);",
        );
        // Also used in arithmetic: a number, the literal stays.
        named(
            v,
            "pushi.e 1 / pop.v.i local.o / push.v local.o / push.v self.y / push.v self.x / \
             call.i instance_create 3 / popz.v / push.v local.o / pushi.e 2 / mul.i.v / \
             pop.v.v self.z",
            "var o = 1;\ninstance_create(x, y, o);\nz = o * 2;",
        );
    }
    // A `switch` on a local of key kind.
    named(
        V23,
        "push.v self.keyboard_key / pop.v.v local.k / push.v local.k / dup.v 0 / \
         pushi.e 37 / cmp.i.v EQ / bt A / b E / A: / pushi.e 1 / pop.v.i self.d / b E / \
         E: / popz.v",
        "var k = keyboard_key;\nswitch (k) {\n    case vk_left:\n        d = 1;\n        \
         break;\n}",
    );
    // A local read as a condition and stored 0/1: a boolean (before typed booleans).
    named(
        GMS1,
        "pushi.e 0 / pop.v.i local.f / push.v self.a / conv.v.b / bf L / pushi.e 1 / \
         pop.v.i local.f / L: / push.v local.f / conv.v.b / bf M / pushi.e 1 / \
         pop.v.i self.b / M:",
        "var f = false;\nif (a) {\n    f = true;\n}\nif (f) {\n    b = 1;\n}",
    );
}

#[test]
fn game_variables_of_any_named_kind() {
    // `key_fire` is passed to `keyboard_check` somewhere: its stores read as keys.
    named_in(
        GMS1,
        &[
            (
                "gml_Object_a_Create_0",
                "pushi.e 32 / pop.v.i self.key_fire",
                "key_fire = vk_space;",
            ),
            (
                "gml_Object_a_Step_0",
                "push.v self.key_fire / call.i keyboard_check 1 / pop.v.v self.k",
                "k = keyboard_check(key_fire);",
            ),
        ],
    );
}

#[test]
fn script_parameters_and_results() {
    named_in(
        GMS1,
        &[
            // Parameter 0 goes where an object goes: callers pass objects.
            (
                "gml_Script_scr_spawn",
                "push.v self.argument0 / push.v self.y / push.v self.x / \
                 call.i instance_create 3 / popz.v",
                "instance_create(x, y, argument0);",
            ),
            (
                "gml_Object_a_Create_0",
                "pushi.e 1 / conv.i.v / call.i scr_spawn 1 / popz.v",
                "scr_spawn(obj_player);",
            ),
            // The result goes where an object goes: its returns are objects.
            (
                "gml_Script_scr_pick",
                "pushi.e 0 / conv.i.v / ret.v",
                "return obj_wall;",
            ),
            (
                "gml_Object_a_Step_0",
                "call.i scr_pick 0 / push.v self.y / push.v self.x / \
                 call.i instance_create 3 / popz.v",
                "instance_create(x, y, scr_pick());",
            ),
            // A parameter read as a condition: callers pass booleans.
            (
                "gml_Script_scr_flag",
                "push.v self.argument0 / conv.v.b / bf L / pushi.e 1 / pop.v.i self.b / L:",
                "if (argument0) {\n    b = 1;\n}",
            ),
            (
                "gml_Object_a_Draw_0",
                "pushi.e 0 / conv.i.v / call.i scr_flag 1 / popz.v",
                "scr_flag(false);",
            ),
            // A predicate script (returns 0 and 1): its result compared with 1 is `true`.
            (
                "gml_Script_scr_ok",
                "push.v self.a / conv.v.b / bf L / pushi.e 1 / conv.i.v / ret.v / L: / \
                 pushi.e 0 / conv.i.v / ret.v",
                "if (a) {\n    return true;\n}\nreturn false;",
            ),
            (
                "gml_Object_a_Alarm_0",
                "call.i scr_ok 0 / pushi.e 1 / cmp.i.v EQ / pop.v.b self.e",
                "e = scr_ok() == true;",
            ),
        ],
    );
}

#[test]
fn literal_conditions_are_booleans() {
    named(
        GMS1,
        "L: / pushi.e 1 / conv.i.b / bf E / pushi.e 1 / pop.v.i self.a / b L / E:",
        "while (true) {\n    a = 1;\n}",
    );
}

#[test]
fn ord_of_a_letter_where_the_game_also_calls_ord() {
    // GameMaker folds `ord("Z")` to 90 whether or not the game calls `ord` at run time
    // elsewhere (jtool: `keyboard_check_pressed(ord("A"))` beside `ord(string_char_at(..))`).
    for v in [GMS1, V22, V23] {
        named_in(
            v,
            &[
                (
                    "gml_Object_test_Create_0",
                    "pushi.e 90 / conv.i.v / call.i keyboard_check_pressed 1 / pop.v.v self.k",
                    "k = keyboard_check_pressed(ord(\"Z\"));",
                ),
                (
                    "gml_Object_test_Step_0",
                    "push.v self.s / call.i ord 1 / pop.v.v self.c",
                    "c = ord(s);",
                ),
            ],
        );
    }
    // A game with a script of its own named `ord`: its calls are calls; the key stays a number.
    named_in(
        V22,
        &[
            (
                "gml_Object_test_Create_0",
                "pushi.e 90 / conv.i.v / call.i keyboard_check_pressed 1 / pop.v.v self.k",
                "k = keyboard_check_pressed(90);",
            ),
            ("gml_Script_ord", "pushi.e 1 / pop.v.i self.z", "z = 1;"),
        ],
    );
}

#[test]
fn drag_and_drop_health_score_and_lives_read_real() {
    // GameMaker Studio 2's "Set Health" action writes `__dnd_health = real(100);` (and `+=`
    // when relative); the `= 0` it writes where the variable does not exist yet stays plain.
    for v in [V22, V23] {
        named(
            v,
            "pushi.e 100 / pop.v.i self.__dnd_health",
            "__dnd_health = real(100);",
        );
        named(
            v,
            "push.v self.__dnd_score / pushi.e -5 / add.i.v / pop.v.v self.__dnd_score",
            "__dnd_score += real(-5);",
        );
    }
    // Not in GMS 1 (no such actions) nor on other variables.
    named(
        GMS1,
        "pushi.e 100 / pop.v.i self.__dnd_health",
        "__dnd_health = 100;",
    );
    named(V22, "pushi.e 100 / pop.v.i self.health", "health = 100;");
}

#[test]
fn predicates_returning_short_circuit_chains() {
    // `return a > 0 && b > 0` ends in the chain's landing `push.e 0`: a predicate, and a
    // variable stored 0 and its result holds booleans (jtool's `point_in_rect` and
    // `cursor_in_area`).
    named_in(
        GMS1_16,
        &[
            (
                "gml_Script_scr_inside",
                "push.v self.a / pushi.e 0 / cmp.i.v GT / bf L1 / push.v self.b / pushi.e 0 / \
                 cmp.i.v GT / b L2 / L1: / push.e 0 / L2: / conv.b.v / ret.v",
                "return a > 0 && b > 0;",
            ),
            (
                "gml_Object_a_Create_0",
                "pushi.e 0 / pop.v.i self.inside / call.i scr_inside 0 / pop.v.v self.inside",
                "inside = false;\ninside = scr_inside();",
            ),
        ],
    );
    // Before bytecode 15 every small integer is a `push.e`: the same script returning a
    // literal 0 is no predicate.
    named_in(
        GMS1,
        &[
            (
                "gml_Script_scr_zero",
                "push.v self.a / conv.v.b / bf L / pushi.e 2 / conv.i.v / ret.v / L: / \
                 pushi.e 0 / conv.i.v / ret.v",
                "if (a) {\n    return 2;\n}\nreturn 0;",
            ),
            (
                "gml_Object_a_Create_0",
                "pushi.e 0 / pop.v.i self.n / call.i scr_zero 0 / pop.v.v self.n",
                "n = 0;\nn = scr_zero();",
            ),
        ],
    );
}

#[test]
fn array_elements_used_as_booleans() {
    // Elements stored only 0/1 and read as a condition: booleans (jtool's
    // `killers[buttonCount] = true`).
    named(
        GMS1_16,
        "pushi.e 1 / pushi.e -1 / push.v self.i / conv.v.i / pop.v.i [array]0.k / \
         pushi.e 0 / pushi.e -1 / push.v self.i / conv.v.i / pop.v.i [array]0.k / \
         pushi.e -1 / push.v self.i / conv.v.i / push.v [array]0.k / conv.v.b / bf L / \
         pushi.e 2 / pop.v.i self.z / L:",
        "k[i] = true;\nk[i] = false;\nif (k[i]) {\n    z = 2;\n}",
    );
    // An element also stored 2: numbers.
    named(
        GMS1_16,
        "pushi.e 1 / pushi.e -1 / push.v self.i / conv.v.i / pop.v.i [array]0.k / \
         pushi.e 2 / pushi.e -1 / push.v self.i / conv.v.i / pop.v.i [array]0.k / \
         pushi.e -1 / push.v self.i / conv.v.i / push.v [array]0.k / conv.v.b / bf L / \
         pushi.e 2 / pop.v.i self.z / L:",
        "k[i] = 1;\nk[i] = 2;\nif (k[i]) {\n    z = 2;\n}",
    );
}

#[test]
fn booleans_saved_and_read_back() {
    // A flag read back from a file (`ini_read_real`), toggled with `!` and read as a
    // condition: a boolean (j2l-expansion's `global.infinitejump`).
    for v in [GMS1_16, V22] {
        named(
            v,
            "pushi.e 0 / pop.v.i self.f / pushi.e 0 / conv.i.v / push.s \"k\" / conv.s.v / \
             push.s \"s\" / conv.s.v / call.i ini_read_real 3 / pop.v.v self.f / \
             push.v self.f / conv.v.b / not.b / pop.v.b self.f / \
             push.v self.f / conv.v.b / bf L / pushi.e 2 / pop.v.i self.z / L:",
            "f = false;\nf = ini_read_real(\"s\", \"k\", 0);\nf = !f;\nif (f) {\n    z = 2;\n}",
        );
        // Without a boolean stored in it, a number read back is any number.
        named(
            v,
            "pushi.e 0 / pop.v.i self.f / pushi.e 0 / conv.i.v / push.s \"k\" / conv.s.v / \
             push.s \"s\" / conv.s.v / call.i ini_read_real 3 / pop.v.v self.f / \
             push.v self.f / conv.v.b / bf L / pushi.e 2 / pop.v.i self.z / L:",
            "f = 0;\nf = ini_read_real(\"s\", \"k\", 0);\nif (f) {\n    z = 2;\n}",
        );
    }
    // Compared with another number (`f == 3`): not a boolean.
    named(
        GMS1_16,
        "pushi.e 1 / pop.v.i self.f / push.v self.f / conv.v.b / bf L / \
         pushi.e 0 / pop.v.i self.f / L: / push.v self.f / pushi.e 3 / cmp.i.v EQ / bf M / \
         pushi.e 2 / pop.v.i self.z / M:",
        "f = 1;\nif (f) {\n    f = 0;\n}\nif (f == 3) {\n    z = 2;\n}",
    );
}

#[test]
fn builtin_arrays_written_without_an_index() {
    // `view_xview` without an index is its element 0 with an int64 index (`push.l 0`);
    // `view_xview[0]` (`pushi.e 0`) keeps its index.
    named(
        GMS1_16,
        "pushi.e 5 / pushi.e -1 / push.l 0 / conv.l.i / pop.v.i [array]0.view_xview / \
         pushi.e -1 / push.l 0 / conv.l.i / push.v [array]0.view_yview / pop.v.v self.z / \
         pushi.e 6 / pushi.e -1 / pushi.e 0 / pop.v.i [array]0.view_xview",
        "view_xview = 5;\nz = view_yview;\nview_xview[0] = 6;",
    );
}

#[test]
fn values_stored_through_another_instance() {
    // `b.src = id` (a store through the owner on the stack) and `src = -4`: `src` holds
    // instances, so its -4 is `noone` (acrandomizer's `_btn.src = id`).
    named(
        GMS1_16,
        "push.v self.id / push.v self.b / conv.v.i / pop.v.v [stacktop]0.src / \
         pushi.e -4 / pop.v.i self.src",
        "b.src = id;\nsrc = noone;",
    );
    named(
        V23,
        "push.v self.id / push.v self.b / pushi.e -9 / pop.v.v [stacktop]0.src / \
         pushi.e -4 / pop.v.i self.src",
        "b.src = id;\nsrc = noone;",
    );
    // Stored a number through the owner too: a number.
    named(
        GMS1_16,
        "pushi.e 3 / push.v self.b / conv.v.i / pop.v.i [stacktop]0.src / \
         pushi.e -4 / pop.v.i self.src",
        "b.src = 3;\nsrc = -4;",
    );
}

#[test]
fn locals_owning_variables_hold_instances() {
    // Before 2.3 a local whose variable is read (`r.y`) holds an instance or an object: the
    // literal stored in it names the object (jtool's `var realplayer = oPlayer`).
    named(
        GMS1_16,
        "pushi.e 1 / pop.v.i local.r / push.v local.r / conv.v.i / push.v [stacktop]0.y / \
         pop.v.v self.z",
        "var r = obj_player;\nz = r.y;",
    );
    // The target of a `with` (jtool's `with (objectIndex)` after `objectIndex == oPlayerStart`).
    named(
        GMS1_16,
        "pushi.e 1 / pop.v.i local.r / push.v local.r / conv.v.i / pushenv L2 / L1: / \
         call.i f 0 / popz.v / L2: / popenv L1",
        "var r = obj_player;\nwith (r) {\n    f();\n}",
    );
    // From 2.3 the owner may be a struct: the number stays.
    named(
        V23,
        "pushi.e 1 / pop.v.i local.r / push.v local.r / pushi.e -9 / push.v [stacktop]0.y / \
         pop.v.v self.z",
        "var r = 1;\nz = r.y;",
    );
}
