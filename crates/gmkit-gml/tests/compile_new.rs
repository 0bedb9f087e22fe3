//! New code compiles (issue 16, bar 3): GML with names the game never had (instance, global
//! and local variables, built-in functions, variables and constants it never used, `enum`,
//! `#macro`, `globalvar`) compiled into one corpus game per version family with the growing
//! compiler (`compile::compile_text`), the additions applied, the file rebuilt (which runs
//! `validate`), parsed again, and the entry decompiled back to text that compiles to the same
//! instructions with nothing left to add.

mod common;
use gmkit_data::DataFile;
use gmkit_data::chunks::code::{CodeBody, Instruction, PushValue};
use gmkit_gml::compile::{Compiled, Names, compile_text};
use gmkit_gml::{Game, decompile, print};

use common::{FAMILY_GAMES as GAMES, load};

/// The first object event without nested functions: where the new code goes.
fn target(file: &DataFile) -> usize {
    let game = Game::new(file);
    let code = file.code.as_ref().expect("code");
    (0..code.entries.len())
        .find(|&i| {
            code.entries[i].body.is_root()
                && game.code_name(i).starts_with("gml_Object_")
                && game.children(i).is_empty()
        })
        .expect("an object event")
}

/// Compiles `text` into entry `entry` of `file`, applies the additions and puts the code in
/// place; returns the rebuilt-and-reparsed file and what the compile produced.
fn put(file: &DataFile, entry: usize, text: &str) -> (DataFile, Compiled) {
    let game = Game::new(file);
    let names = Names::new(&game);
    let c = compile_text(&game, &names, entry, text).unwrap_or_else(|e| panic!("{e}"));
    let mut out = file.clone();
    c.additions.apply(&mut out).expect("additions apply");
    out.code.as_mut().expect("code").entries[entry].body =
        CodeBody::Instructions(c.instructions.clone());
    let bytes = gmkit_data::build_bytes(&out).expect("rebuilt file validates and writes");
    let back = gmkit_data::parse_bytes(bytes).expect("rebuilt file parses");
    (back, c)
}

fn var_entries(file: &DataFile, name: &str) -> Vec<(i32, i32)> {
    let strings = file.strings.as_ref().expect("strings");
    file.variables
        .as_ref()
        .expect("VARI")
        .variables
        .iter()
        .filter(|v| strings.get(v.name).is_some_and(|s| s == name))
        .map(|v| (v.instance_type, v.variable_id))
        .collect()
}

fn has_func(file: &DataFile, name: &str) -> bool {
    let strings = file.strings.as_ref().expect("strings");
    file.functions
        .as_ref()
        .expect("FUNC")
        .functions
        .iter()
        .any(|f| strings.get(f.name).is_some_and(|s| s == name))
}

/// Decompiles `entry` of `file` and compiles the text again: the same instructions, nothing
/// new to add. Returns the text.
fn decompiles_back(file: &DataFile, entry: usize) -> String {
    round_trip(file, entry).unwrap_or_else(|e| panic!("{e}"))
}

/// [`decompiles_back`], saying what differs instead of failing.
fn round_trip(file: &DataFile, entry: usize) -> Result<String, String> {
    let game = Game::new(file);
    let d = decompile::decompile_entry(&game, entry).map_err(|e| format!("decompile: {e:?}"))?;
    let text = print::print_stmts(&d.body);
    if d.failures != 0 {
        return Err(format!("unstructured decompile:\n{text}"));
    }
    let names = Names::new(&game);
    let c = compile_text(&game, &names, entry, &text)
        .map_err(|e| format!("decompiled text compiles: {e}\n{text}"))?;
    let orig = file.code.as_ref().unwrap().instructions(entry).unwrap();
    if c.instructions.as_slice() != orig.as_ref() {
        return Err(format!("compiles to other instructions:\n{text}"));
    }
    if !c.additions.is_empty() {
        return Err(format!("adds names again: {:?}", c.additions));
    }
    Ok(text)
}

const NEW_CODE: &str = "my_new_counter = 0;
my_new_counter += 1;
global.my_new_global = \"a brand new string\";
var tmp_new = my_new_counter * 2;
image_angle = tmp_new;
draw_set_halign(fa_center);
if (keyboard_check(vk_space))
{
    image_blend = c_red;
}
x = ord(keyboard_string);
";

#[test]
fn new_names_in_every_family() {
    for name in GAMES {
        let file = gmkit_testdata::need!(load(name));
        let entry = target(&file);
        let bc = file.version.bytecode;
        let v2 = file.version.at_least(2, 3);
        let before = |n: &str| var_entries(&file, n).len();
        let (back, c) = put(&file, entry, NEW_CODE);
        // Strings, VARI and FUNC grew by exactly what the compile said.
        assert_eq!(
            back.strings.as_ref().unwrap().len(),
            file.strings.as_ref().unwrap().len() + c.additions.strings.len()
        );
        assert!(
            c.additions
                .strings
                .contains(&"a brand new string".to_string()),
            "{name}"
        );
        let counter = var_entries(&back, "my_new_counter");
        assert_eq!(counter.len(), before("my_new_counter") + 1, "{name}");
        let glob = var_entries(&back, "my_new_global");
        let tmp = var_entries(&back, "tmp_new");
        let angle = var_entries(&back, "image_angle");
        if bc >= 15 {
            let (t, id) = *counter.last().unwrap();
            assert_eq!(t, -1, "{name}: an instance variable is self");
            assert!(id >= 0, "{name}");
            assert_eq!(glob.last().unwrap().0, -5, "{name}: global");
            assert_eq!(tmp.last().unwrap().0, -7, "{name}: local");
            assert!(
                angle.iter().any(|&(t, id)| t == -1 && id == -6),
                "{name}: image_angle is a built-in: {angle:?}"
            );
            if v2 {
                // 2.3+: a variable's id is its name's STRG index.
                let strings = back.strings.as_ref().unwrap();
                let idx = strings.find("my_new_counter").unwrap().0 as i32;
                assert_eq!(id, idx, "{name}");
            }
        } else {
            assert_eq!(
                counter.last(),
                Some(&(0, 0)),
                "{name}: bytecode 14 stores no kind"
            );
        }
        for f in ["draw_set_halign", "keyboard_check", "ord"] {
            assert!(has_func(&back, f), "{name}: FUNC has {f}");
        }
        // The rebuilt file holds the compiled instructions, and the new entries are used.
        let ins = back.code.as_ref().unwrap().instructions(entry).unwrap();
        assert_eq!(ins.as_ref(), c.instructions.as_slice(), "{name}");
        let base = file.variables.as_ref().unwrap().variables.len() as u32;
        assert!(
            ins.iter().any(|i| matches!(i,
                Instruction::Pop { var, .. } if var.variable.0 >= base)),
            "{name}: a pop into a new VARI entry"
        );
        assert!(ins.iter().any(|i| matches!(
            i,
            Instruction::Push {
                value: PushValue::Int16(255) | PushValue::Int32(255),
                ..
            }
        )));
        let text = decompiles_back(&back, entry);
        for word in [
            "my_new_counter",
            "global.my_new_global",
            "tmp_new",
            "image_angle",
            "draw_set_halign",
            "keyboard_check",
            "a brand new string",
        ] {
            assert!(text.contains(word), "{name}: {word} in\n{text}");
        }
    }
}

#[test]
fn enum_macro_and_globalvar() {
    for name in GAMES {
        let file = gmkit_testdata::need!(load(name));
        let entry = target(&file);
        let text = "#macro NEW_SPEED 4
enum NewDir { Left, Right = 5, Up }
globalvar gv_brand_new;
gv_brand_new = NewDir.Up;
x = NEW_SPEED;
";
        let (back, c) = put(&file, entry, text);
        assert!(
            !c.additions
                .strings
                .iter()
                .any(|s| s == "NewDir" || s == "NEW_SPEED"),
            "{name}: enums and macros leave no name: {:?}",
            c.additions.strings
        );
        let gv = var_entries(&back, "gv_brand_new");
        assert_eq!(gv.len(), 1, "{name}");
        if file.version.bytecode >= 15 {
            assert_eq!(gv[0].0, -5, "{name}: globalvar names are global");
        }
        let ins = back.code.as_ref().unwrap().instructions(entry).unwrap();
        // `NewDir.Up` is 6: an int64 constant from GMS2 on.
        let six = ins.iter().any(|i| {
            matches!(
                i,
                Instruction::Push {
                    value: PushValue::Int64(6) | PushValue::Int16(6),
                    ..
                }
            )
        });
        assert!(six, "{name}: {ins:?}");
        let text = decompiles_back(&back, entry);
        assert!(text.contains("global.gv_brand_new"), "{name}: {text}");
    }
}

#[test]
fn unknown_function_is_placed_and_suggested() {
    for name in GAMES {
        let file = gmkit_testdata::need!(load(name));
        let entry = target(&file);
        let game = Game::new(&file);
        let names = Names::new(&game);
        // A function the game calls, misspelled by one letter.
        let funcs = file.functions.as_ref().unwrap();
        let known = funcs
            .functions
            .iter()
            .map(|f| game.string(f.name))
            .find(|n| n.len() > 8 && !n.starts_with("@@") && !n.starts_with("gml_"))
            .expect("a built-in the game calls");
        let typo = format!("{}{}", &known[..3], &known[4..]);
        let text = format!("x = 1;\n  y = {typo}(2);\n");
        let e = compile_text(&game, &names, entry, &text).expect_err("unknown function");
        assert_eq!((e.line, e.col), (2, 7), "{name}: {e}");
        assert!(e.message.contains(&typo), "{name}: {e}");
        assert_eq!(e.suggestion.as_deref(), Some(known.as_str()), "{name}: {e}");
        assert!(e.to_string().contains("did you mean"), "{e}");
    }
}

/// A built-in constant the manual lists but gmkit has no value for is refused with its place,
/// never compiled as a new variable the game never sets; assigning to any built-in constant
/// is refused as GameMaker refuses it; a local of that name is the local.
#[test]
fn builtin_constants_without_a_value_are_refused_in_place() {
    assert_eq!(
        gmkit_gml::builtins::documented_constant("os_android"),
        Some("OS_Type")
    );
    assert!(gmkit_gml::builtins::constant("os_android").is_none());
    for name in GAMES {
        let file = gmkit_testdata::need!(load(name));
        let entry = target(&file);
        let game = Game::new(&file);
        let names = Names::new(&game);
        let e = compile_text(
            &game,
            &names,
            entry,
            "x = 1;\nif (y == os_android) {\n    x = 2;\n}\n",
        )
        .expect_err("a constant with no value");
        assert_eq!((e.line, e.col), (2, 10), "{name}: {e}");
        assert!(e.to_string().contains("os_android"), "{name}: {e}");
        assert!(e.to_string().contains("write its number"), "{name}: {e}");
        for text in ["c_red = 3;", "os_android = 3;"] {
            let e = compile_text(&game, &names, entry, text).expect_err("assigning a constant");
            assert!(e.to_string().contains("refuses to assign"), "{name}: {e}");
            assert_eq!((e.line, e.col), (1, 1), "{name}: {e}");
        }
        // A local of that name is the local; a constant with a value is its value.
        compile_text(
            &game,
            &names,
            entry,
            "var os_android = 3;\nx = os_android;\n",
        )
        .unwrap_or_else(|e| panic!("{name}: {e}"));
        compile_text(&game, &names, entry, "x = c_red;").unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}

#[test]
fn additions_refuse_another_file() {
    let file = gmkit_testdata::need!(load("space-war-assignment.win"));
    let entry = target(&file);
    let game = Game::new(&file);
    let names = Names::new(&game);
    let c = compile_text(&game, &names, entry, "brand_new_var = 1;").expect("compiles");
    let mut other = file.clone();
    other.strings.as_mut().unwrap().push("something else");
    let e = c.additions.apply(&mut other).expect_err("lengths differ");
    assert!(
        e.to_string()
            .contains("expected the data file compiled against"),
        "{e}"
    );
}

#[test]
fn the_parser_takes_enums_out_and_inlines_their_values() {
    use gmkit_gml::parse::parse;
    let with = parse(
        "enum Dir { Left, Right = 5, Up, Down = Dir.Up * 2 }\nenum Neg { A = -3, B }\nx = Dir.Up + Dir.Down;\ny = Neg.B;\nz = other.Dir;",
    )
    .expect("parses");
    let want = parse("x = int64(6) + int64(12);\ny = int64(-2);\nz = other.Dir;").expect("parses");
    assert_eq!(with, want);
    // No declaration left behind as statements.
    assert_eq!(with.len(), 3);
    let e = parse("enum E { A = x + 1 }").expect_err("not a constant");
    assert!(e.expected.contains("E.A"), "{e:?}");
    assert_eq!((e.line, e.col), (1, 1));
}

#[test]
fn template_strings_call_string_with_a_format() {
    use gmkit_gml::parse::parse;
    let t = parse("s = $\"hp {hp} of {max_hp + 1}!\";\nu = $\"plain\";").expect("parses");
    let printed = gmkit_gml::print::print_stmts(&t);
    // Printed back as the template it was (tests/template_strings.rs).
    assert!(
        printed.contains("s = $\"hp {hp} of {max_hp + 1}!\""),
        "{printed}"
    );
    assert!(printed.contains("u = \"plain\""), "{printed}");
    // A template inside a field is read as GameMaker reads it (tests/template_strings.rs).
    assert!(parse("s = $\"a {$\"b{x}\"} c\";").is_ok());
    assert!(parse("s = $\"open {x\";").is_err());
    // In a 2023+ game it compiles to `string(format, fields...)`; before 2023.4 it is refused.
    for (name, ok) in [("longdog.win", true), ("acrandomizer.win", false)] {
        let file = gmkit_testdata::need!(load(name));
        let entry = target(&file);
        let game = Game::new(&file);
        let names = Names::new(&game);
        let r = compile_text(&game, &names, entry, "s = $\"n={x}\";");
        assert_eq!(r.is_ok(), ok, "{name}: {r:?}");
        if let Ok(c) = r {
            let strings = &c.additions.strings;
            let has_fmt = strings.iter().any(|s| s == "n={0}")
                || file.strings.as_ref().unwrap().find("n={0}").is_some();
            assert!(has_fmt, "{name}: {strings:?}");
        }
    }
}

/// Whether the rebuilt file's entry calls the function `f`.
fn calls(file: &DataFile, entry: usize, f: &str) -> bool {
    let game = Game::new(file);
    let ins = file.code.as_ref().unwrap().instructions(entry).unwrap();
    ins.iter().any(|i| {
        matches!(i, Instruction::Call { function, .. }
            if game.string(file.functions.as_ref().unwrap().functions[function.index()].name) == f)
    })
}

/// Accessors in new code, in every family: `l[| i]`, `m[? k]`, `g[# i, j]` call the
/// data-structure function (a write its setter), `a[@ i]` is an array element, and from 2.3
/// `s[$ k]` calls `variable_struct_get`/`variable_struct_set` (the lowering the corpus shows:
/// every corpus entry using an accessor compiles back identical, `construct_census.rs`).
#[test]
fn accessors_in_every_family() {
    for name in GAMES {
        let file = gmkit_testdata::need!(load(name));
        let entry = target(&file);
        let v23 = file.version.at_least(2, 3);
        let mut text = String::from(
            "var l = ds_list_create();
l[| 0] = 5;
x = l[| 0];
var m = ds_map_create();
m[? \"new_key\"] = 1;
y = m[? \"new_key\"];
var g = ds_grid_create(2, 2);
g[# 1, 1] = 3;
x = g[# 1, 1];
new_arr[0] = 1;
new_arr[@ 1] = 2;
",
        );
        let mut funcs = vec![
            "ds_list_find_value",
            "ds_list_set",
            "ds_map_find_value",
            "ds_map_set",
            "ds_grid_get",
            "ds_grid_set",
        ];
        if v23 {
            text.push_str(
                "var s = new_holder;\ns[$ \"new_field\"] = 4;\ny = s[$ \"new_field\"];\n",
            );
            funcs.extend(["variable_struct_get", "variable_struct_set"]);
        }
        let (back, _) = put(&file, entry, &text);
        for f in &funcs {
            assert!(calls(&back, entry, f), "{name}: a call of {f}");
        }
        let out = decompiles_back(&back, entry);
        let mut want = vec!["l[| 0] = 5", "m[? \"new_key\"]", "g[# 1, 1] = 3", "new_arr"];
        if v23 {
            want.push("s[$ \"new_field\"] = 4");
        }
        for w in want {
            assert!(out.contains(w), "{name}: {w} in\n{out}");
        }
    }
}

/// `try`/`catch`/`finally` (2.3+) with `break`, `continue`, `throw` and `exit` leaving it, in
/// new code of a 2.3–2022 and a 2023+ game: the hook calls of GameMaker's runtime, the file
/// rebuilt, and the entry decompiled back to the source's statements, which compile to the same
/// instructions.
#[test]
fn try_with_escapes_in_new_code() {
    const CASES: &[(&str, &str)] = &[
        (
            "exit",
            "try\n{\n    if (x > 5)\n    {\n        exit;\n    }\n}\nfinally\n{\n    new_done = -1;\n}\n",
        ),
        (
            "throw, catch",
            "try\n{\n    throw \"new failure\";\n}\ncatch (err)\n{\n    new_caught = err;\n}\n",
        ),
        (
            "throw, finally",
            "try\n{\n    throw \"new failure\";\n}\ncatch (err)\n{\n    new_caught = err;\n}\nfinally\n{\n    new_done = 1;\n}\n",
        ),
        (
            "break, continue",
            "for (var i = 0; i < 3; i++)\n{\n    try\n    {\n        if (i == 1)\n        {\n            continue;\n        }\n        if (i == 2)\n        {\n            break;\n        }\n    }\n    finally\n    {\n        new_done = i;\n    }\n}\n",
        ),
        (
            "break in a loop inside try, continue in catch",
            "repeat (3)\n{\n    try\n    {\n        repeat (2)\n        {\n            if (x > 1)\n            {\n                break;\n            }\n        }\n    }\n    catch (err)\n    {\n        continue;\n    }\n}\n",
        ),
    ];
    // Before 2024.11 GameMaker rewrites `break` and `continue` inside `try` through
    // `__yy_breakEx`/`__yy_continueEx` flags and a one-shot loop: the decompiler reads it back
    // to the source's `break`/`continue` (printed as it is, it would compile to a second
    // rewriting).
    let open: &[(&str, &str)] = &[];
    let mut got = Vec::new();
    for name in ["acrandomizer.win", "longdog.win"] {
        let file = gmkit_testdata::need!(load(name));
        let entry = target(&file);
        for &(case, text) in CASES {
            let (back, _) = put(&file, entry, text);
            assert!(calls(&back, entry, "@@try_hook@@"), "{name} {case}");
            match round_trip(&back, entry) {
                Ok(out) => {
                    assert!(out.contains("try"), "{name} {case}: {out}");
                    assert!(!out.contains("__yy_"), "{name} {case}: {out}");
                    for w in ["catch (err)", "finally", "continue", "break", "exit"] {
                        assert_eq!(
                            text.contains(w),
                            out.contains(w),
                            "{name} {case}: {w}\n{out}"
                        );
                    }
                }
                Err(e) => {
                    println!("{name} {case}: {e}");
                    got.push((name, case));
                }
            }
        }
    }
    assert_eq!(got, open, "the cases that do not decompile back yet");
}

/// A template string in new code of a 2023+ game: `string(format, fields...)`, the format a new
/// string, rebuilt and decompiled back.
#[test]
fn template_strings_in_new_code() {
    let file = gmkit_testdata::need!(load("longdog.win"));
    let entry = target(&file);
    let (back, c) = put(
        &file,
        entry,
        "new_label = $\"hp {new_hp} of {new_hp + 1}\";\n",
    );
    assert!(
        c.additions.strings.iter().any(|s| s == "hp {0} of {1}"),
        "{:?}",
        c.additions.strings
    );
    assert!(calls(&back, entry, "string"));
    let out = decompiles_back(&back, entry);
    assert!(out.contains("new_label"), "{out}");
    assert!(out.contains("new_hp + 1"), "{out}");
}
