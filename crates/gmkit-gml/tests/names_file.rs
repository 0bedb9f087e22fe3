//! The game's names file (docs/names-file.md): parsing (hand-written cases, errors with line
//! and column), and on two corpus games with their own source, a names file made from the
//! project's own constants and enums: the decompiler prints the names where the places say,
//! and every entry still compiles back to its own instructions through
//! `NamesFile::parse_code`. Kinds (`/// @holds PLACE TYPE`, GameMaker's Feather type names):
//! hand-written cases per kind family (asset, constant, boolean, instance) and per place
//! (variable, global, parameter, result, local), in a GMS 1 and a 2.x game, each compiling
//! back to its own instructions.

mod common;
use gmkit_data::chunks::code::CodeBody;
use gmkit_gml::ast::{Expr, Literal, Stmt};
use gmkit_gml::builtins::Kind;
use gmkit_gml::compile::{Names, compile_entry};
use gmkit_gml::names_file::{Family, NamesFile, Place};
use gmkit_gml::{Game, decompile, parse, print};

const SAMPLE: &str = "\
// names of a game
enum State { idle, walk = 4, jump }
#macro MODE_A 1
#macro MODE_B -2
#macro TITLE \"x\"
/// @holds global.state State
/// @holds mode MODE_*
/// @holds set_mode(1) MODE_*
/// @holds get_mode() MODE_*
";

#[test]
fn parses_declarations_and_places() {
    let f = NamesFile::parse(SAMPLE).expect("parses");
    assert_eq!(
        f.family(&Place::Global("state".into())),
        Some(&Family::Enum("State".into()))
    );
    assert_eq!(
        f.family(&Place::Parameter("set_mode".into(), 1)),
        Some(&Family::Macros("MODE_".into()))
    );
    assert_eq!(
        f.family(&Place::Result("get_mode".into())),
        Some(&Family::Macros("MODE_".into()))
    );
    assert_eq!(f.family(&Place::Variable("state".into())), None);
    let name = |fam: &Family, v| f.name_of(fam, v).map(|e| print::print_expr(&e));
    let state = Family::Enum("State".into());
    assert_eq!(name(&state, 0).as_deref(), Some("State.idle"));
    assert_eq!(name(&state, 5).as_deref(), Some("State.jump"));
    assert_eq!(name(&state, 1), None);
    let mode = Family::Macros("MODE_".into());
    assert_eq!(name(&mode, -2).as_deref(), Some("MODE_B"));
    assert_eq!(name(&mode, 3), None);
}

#[test]
fn parse_code_reads_the_names_back() {
    let f = NamesFile::parse(SAMPLE).expect("parses");
    let lit = |s: &Stmt| match s {
        Stmt::Assign { value, .. } => value.clone(),
        _ => panic!("not an assignment: {s:?}"),
    };
    // GameMaker 2 and later: enum members are int64; GMS 1: plain integers.
    let t = f.parse_code("global.state = State.jump;", true).unwrap();
    assert_eq!(lit(&t[0]), Expr::Lit(Literal::Int64(5)));
    let t = f.parse_code("global.state = State.jump;", false).unwrap();
    assert_eq!(lit(&t[0]), Expr::Lit(Literal::Int(5)));
    let t = f.parse_code("mode = MODE_A; s = TITLE;", false).unwrap();
    assert_eq!(lit(&t[0]), Expr::Lit(Literal::Int(1)));
    assert_eq!(lit(&t[1]), Expr::Lit(Literal::String("x".into())));
    // A field of the same name is not a macro.
    let t = f.parse_code("o.MODE_A = 3;", false).unwrap();
    assert_eq!(t, parse::parse("o.MODE_A = 3;").unwrap());
}

#[test]
fn refuses_bad_files_with_line_and_column() {
    for (text, line, expected) in [
        ("enum A { x = y }", 1, "integer value"),
        ("x = 1;", 1, "`enum`, `#macro`"),
        ("\n  /// @holds state", 2, "two words"),
        ("/// @holds 3x State\nenum State { a }", 1, "a place"),
        ("/// @holds f(99999999999) Bool", 1, "a place"),
        (
            "/// @holds state Nope",
            1,
            "enum declared in the names file",
        ),
        ("\n\n/// @holds state Asset.gmsprite", 3, "Asset.GMSprite"),
        ("enum A { x,\n  3 }", 2, "enum member"),
    ] {
        let e = NamesFile::parse(text).expect_err(text);
        assert_eq!(e.line, line, "{text}: {e}");
        assert!(e.expected.contains(expected), "{text}: {e}");
    }
}

/// Decompiles every root entry of corpus file `data` with `names`; returns how many entries
/// print one of `marks`, after checking that each entry compiling back exactly without the
/// names file also does with it.
fn round_trip_with(data: &str, names: &str, marks: &[&str]) -> Option<usize> {
    let bytes = gmkit_testdata::corpus_file(data)?;
    let file = gmkit_data::parse_bytes(&bytes).expect("corpus file parses");
    let nf = NamesFile::parse(names).expect("names file parses");
    let plain = Game::new(&file);
    let game = Game::new(&file).with_names_file(nf.clone());
    let cn = Names::new(&game);
    let code = file.code.as_ref().expect("code");
    let mut named = 0;
    for i in 0..code.entries.len() {
        if !code.entries[i].body.is_root() {
            continue;
        }
        let orig = code.instructions(i).expect("decodes");
        let Ok(d) = decompile::decompile_entry(&plain, i) else {
            continue;
        };
        let before = parse::parse(&print::print_stmts(&d.body))
            .ok()
            .and_then(|t| compile_entry(&plain, &cn, i, &t).ok());
        if before.as_deref() != Some(orig.as_ref()) {
            continue;
        }
        let text = print::print_stmts(&decompile::decompile_entry(&game, i).unwrap().body);
        if marks.iter().any(|m| text.contains(m)) {
            named += 1;
        }
        let tree = nf
            .parse_code(&text, game.enum_int64())
            .unwrap_or_else(|e| panic!("{}: {e}\n{text}", game.code_name(i)));
        let ins = compile_entry(&game, &cn, i, &tree)
            .unwrap_or_else(|e| panic!("{}: {e}\n{text}", game.code_name(i)));
        assert_eq!(ins, orig.as_ref(), "{}:\n{text}", game.code_name(i));
    }
    Some(named)
}

/// A GMS 1 game: the project's constants (`<constant>` in the .project.gmx) as macros, with
/// the places the project compares and stores them in.
#[test]
fn gms1_project_constants_by_name() {
    let Some(src) = gmkit_testdata::sources_dir() else {
        return;
    };
    let project = std::fs::read_to_string(src.join("jtool/source.project.gmx")).expect("project");
    let mut names = String::new();
    for part in project.split("<constant name=\"").skip(1) {
        let (name, rest) = part.split_once("\">").expect("constant");
        let value = rest.split('<').next().unwrap_or_default();
        if value.trim().parse::<i64>().is_ok() {
            names.push_str(&format!("#macro {name} {}\n", value.trim()));
        }
    }
    names.push_str("/// @holds global.state globalstate_*\n/// @holds jumpstate jstate_*\n");
    let Some(n) = round_trip_with("jtool.win", &names, &["globalstate_", "jstate_"]) else {
        return;
    };
    assert!(n >= 30, "{n} entries print the project's constants");
}

/// A 2022 game: the project's enums (int64 members) by name.
#[test]
fn enums_by_name() {
    let Some(src) = gmkit_testdata::sources_dir() else {
        return;
    };
    let dir = src.join("tiktaktoe-gm-network");
    let mut names = String::new();
    for (file, e) in [
        (
            "scripts/scr_network_data_enum/scr_network_data_enum.gml",
            "NET_DATA",
        ),
        (
            "objects/obj_tictactoe_controller/Create_0.gml",
            "BOARD_DATA",
        ),
    ] {
        let text = std::fs::read_to_string(dir.join(file)).expect("source");
        let at = text.find(&format!("enum {e}")).expect("enum");
        let end = at + text[at..].find('}').expect("enum end") + 1;
        names.push_str(&text[at..end]);
        names.push('\n');
    }
    names.push_str("/// @holds class_id NET_DATA\n/// @holds player_board_data BOARD_DATA\n");
    let Some(n) = round_trip_with(
        "tiktaktoe-gm-network.win",
        &names,
        &["NET_DATA.", "BOARD_DATA."],
    ) else {
        return;
    };
    assert!(n >= 3, "{n} entries print the project's enums");
}

#[test]
fn kinds_by_feather_type_names() {
    let f = NamesFile::parse(
        "/// @holds my_spr Asset.GMSprite\n\
         /// @holds global.target asset.GMObject\n\
         /// @holds scr_place(0) Id.Instance\n\
         /// @holds scr_col() Constant.Color\n\
         /// @holds ready BOOL\n\
         /// @holds sprs Array<Asset.GMSprite>,Asset.GMSprite\n\
         /// @holds bg Asset.GMBackground\n",
    )
    .expect("parses");
    use gmkit_gml::game::AssetKind as A;
    let kind = |p: Place| f.kind(&p);
    assert_eq!(
        kind(Place::Variable("my_spr".into())),
        Some(Kind::Asset(A::Sprite))
    );
    // Base types without regard to case, specifiers exactly.
    assert_eq!(
        kind(Place::Global("target".into())),
        Some(Kind::Asset(A::Object))
    );
    assert_eq!(
        kind(Place::Parameter("scr_place".into(), 0)),
        Some(Kind::Instance)
    );
    assert_eq!(kind(Place::Result("scr_col".into())), Some(Kind::Colour));
    assert_eq!(kind(Place::Variable("ready".into())), Some(Kind::Bool));
    assert_eq!(
        kind(Place::Variable("bg".into())),
        Some(Kind::Asset(A::Background))
    );
    // Several types: the place's own kind and its array literals' elements.
    let sprs = Place::Variable("sprs".into());
    assert_eq!(f.kind(&sprs), Some(Kind::Asset(A::Sprite)));
    assert_eq!(f.elements(&sprs), Some(Kind::Asset(A::Sprite)));
    // Kinds are not enum or macro families.
    assert_eq!(f.family(&Place::Variable("my_spr".into())), None);
    // Every listed type name is accepted, spelled as listed.
    for (t, k) in gmkit_gml::names_file::TYPES {
        let f = NamesFile::parse(&format!("/// @holds v {t}")).expect(t);
        assert_eq!(f.kind(&Place::Variable("v".into())), Some(*k), "{t}");
    }
}

#[test]
fn an_enum_of_the_file_wins_over_a_type_of_its_name() {
    let f = NamesFile::parse("enum Bool { no, yes }\n/// @holds flag Bool").expect("parses");
    let flag = Place::Variable("flag".into());
    assert_eq!(f.family(&flag), Some(&Family::Enum("Bool".into())));
    assert_eq!(f.kind(&flag), None);
}

#[test]
fn an_unknown_type_says_where_and_what_is_accepted() {
    let e = NamesFile::parse("enum E { a }\n   /// @holds my_spr  Asset.GMSprit").unwrap_err();
    assert_eq!((e.line, e.col), (2, 23), "{e}");
    assert!(e.found.contains("did you mean `Asset.GMSprite`"), "{e}");
    assert!(
        e.expected.contains("Constant.Colour") && e.expected.contains("Id.Instance"),
        "{e}"
    );
    // Underanalyzer's spelling is close enough to suggest Feather's.
    let e = NamesFile::parse("/// @holds s Asset.Sprite").unwrap_err();
    assert!(e.found.contains("`Asset.GMSprite`"), "{e}");
    // Nothing close: no suggestion, still the list.
    let e = NamesFile::parse("/// @holds s Zzzzzzzz").unwrap_err();
    assert!(!e.found.contains("did you mean"), "{e}");
    // An element type that is not one.
    let e = NamesFile::parse("/// @holds s Array<Sprite>").unwrap_err();
    assert!(e.found.contains("`Sprite`"), "{e}");
}

/// GMS 1.4 (bytecode 14), GMS 2.2, 2.3 (before typed booleans), 2022 (typed booleans).
const GMS1: (u8, u16, u16) = (14, 1, 0);
const V22: (u8, u16, u16) = (17, 2, 0);
const V23: (u8, u16, u16) = (17, 2, 3);
const V2022: (u8, u16, u16) = (17, 2022, 1);

/// Builds a file of version `v` (objects `obj_wall` 0, `obj_player` 1; sprites `spr_player`
/// 0, `spr_wall` 1) with one code entry per `(name, asm, expected)`, decompiles each with the
/// names file `names`, checks its text, and compiles the text back to its instructions.
#[track_caller]
fn typed(v: (u8, u16, u16), names: &str, entries: &[(&str, &str, &str)]) {
    let mut a = common::with_assets(v);
    let mut code = Vec::new();
    for (name, asm, _) in entries {
        let asm = if v.0 <= 14 {
            asm.replace("pushi.e", "push.e")
        } else {
            asm.replace("push.v local.", "pushloc.v local.")
                .replace("push.v global.", "pushglb.v global.")
        };
        code.push((*name, a.asm(&asm)));
    }
    a.set_code(code);
    let nf = NamesFile::parse(names).expect("names file parses");
    let game = Game::new(&a.file).with_names_file(nf.clone());
    let cn = Names::new(&game);
    let dis = gmkit_data::chunks::code::asm::Disassembler::new(&a.file);
    for (i, (_, asm, expected)) in entries.iter().enumerate() {
        let d = decompile::decompile_entry(&game, i).expect("decompiles");
        assert_eq!(d.failures, 0, "{:?}", d.failure_notes);
        let text = print::print_stmts(&d.body);
        assert_eq!(
            text, *expected,
            "decompiling {asm:?} for {v:?} with {names:?}"
        );
        let tree = nf.parse_code(&text, game.enum_int64()).expect("parses");
        let got = compile_entry(&game, &cn, i, &tree).expect("the text compiles");
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
fn asset_kinds_of_variables_and_globals() {
    for v in [GMS1, V22, V23] {
        typed(
            v,
            "/// @holds my_spr Asset.GMSprite\n/// @holds global.target Asset.GMObject",
            &[
                (
                    "gml_Object_a_Create_0",
                    "pushi.e 1 / pop.v.i self.my_spr / pushi.e 0 / pop.v.i global.target",
                    "my_spr = spr_wall;\nglobal.target = obj_wall;",
                ),
                // Compared, on another instance, and in a `switch`.
                (
                    "gml_Object_a_Step_0",
                    "push.v global.target / pushi.e 1 / cmp.i.v EQ / bf L / \
                     pushi.e 0 / pop.v.i self.x / L:",
                    "if (global.target == obj_player) {\n    x = 0;\n}",
                ),
            ],
        );
    }
    // Without the file, the same code reads numbers (nothing in the bytecode says sprite).
    typed(
        GMS1,
        "",
        &[(
            "gml_Object_a_Create_0",
            "pushi.e 1 / pop.v.i self.my_spr",
            "my_spr = 1;",
        )],
    );
}

#[test]
fn constant_and_instance_kinds_of_parameters_and_results() {
    for v in [GMS1, V22] {
        typed(
            v,
            "/// @holds scr_place(0) Id.Instance\n/// @holds scr_place(1) Constant.HAlign\n\
             /// @holds scr_col() Constant.Colour",
            &[
                // A script called only with literals: nothing to infer from.
                (
                    "gml_Object_a_Create_0",
                    "pushi.e 2 / conv.i.v / pushi.e 1 / conv.i.v / call.i scr_place 2 / popz.v",
                    "scr_place(obj_player, fa_right);",
                ),
                (
                    "gml_Script_scr_col",
                    "pushi.e 255 / conv.i.v / ret.v",
                    "return c_red;",
                ),
                (
                    "gml_Object_a_Step_0",
                    "call.i scr_col 0 / push.i 65280 / cmp.i.v EQ / pop.v.b self.g",
                    "g = scr_col() == c_lime;",
                ),
                // Inside the script: its parameter compared with -4 and 1.
                (
                    "gml_Script_scr_place",
                    "push.v self.argument0 / pushi.e -4 / cmp.i.v NEQ / pop.v.b self.h / \
                     push.v self.argument1 / pushi.e 1 / cmp.i.v EQ / pop.v.b self.c",
                    "h = argument0 != noone;\nc = argument1 == fa_center;",
                ),
            ],
        );
    }
}

#[test]
fn booleans_before_typed_booleans() {
    for v in [GMS1, V23] {
        typed(
            v,
            "/// @holds done Bool\n/// @holds scr_ready() Bool",
            &[
                (
                    "gml_Object_a_Create_0",
                    "pushi.e 1 / pop.v.i self.done / pushi.e 0 / pop.v.i self.done",
                    "done = true;\ndone = false;",
                ),
                (
                    "gml_Script_scr_ready",
                    "pushi.e 1 / conv.i.v / ret.v",
                    "return true;",
                ),
            ],
        );
    }
    // With typed booleans, an integer 1 is not `true` (that compiles to a boolean push).
    typed(
        V2022,
        "/// @holds done Bool",
        &[(
            "gml_Object_a_Create_0",
            "pushi.e 1 / pop.v.i self.done",
            "done = 1;",
        )],
    );
}

#[test]
fn locals_of_a_typed_name() {
    for v in [GMS1, V23] {
        typed(
            v,
            "/// @holds col Constant.Colour",
            &[(
                "gml_Object_a_Create_0",
                "pushi.e 255 / pop.v.i local.col / push.v local.col / pop.v.v self.image_alpha",
                "var col = c_red;\nimage_alpha = col;",
            )],
        );
    }
}

#[test]
fn the_file_overrides_what_the_bytecode_shows() {
    // `keep` holds a sprite by the bytecode (it stores `sprite_index`); the file says it is a
    // plain number.
    let asm = "push.v self.sprite_index / pop.v.v self.keep / pushi.e 1 / pop.v.i self.keep";
    typed(
        V22,
        "",
        &[(
            "gml_Object_a_Create_0",
            asm,
            "keep = sprite_index;\nkeep = spr_wall;",
        )],
    );
    typed(
        V22,
        "/// @holds keep Real",
        &[(
            "gml_Object_a_Create_0",
            asm,
            "keep = sprite_index;\nkeep = 1;",
        )],
    );
    // And the other way: an object where the bytecode said sprite.
    typed(
        V22,
        "/// @holds keep Asset.GMObject",
        &[(
            "gml_Object_a_Create_0",
            asm,
            "keep = sprite_index;\nkeep = obj_player;",
        )],
    );
}

#[test]
fn array_literals_and_choose() {
    typed(
        V23,
        "/// @holds sprs Array<Asset.GMSprite>\n/// @holds pick Asset.GMObject",
        &[(
            "gml_Object_a_Create_0",
            "pushi.e 1 / conv.i.v / pushi.e 0 / conv.i.v / call.i @@NewGMLArray@@ 2 / \
             pop.v.v self.sprs / pushi.e 0 / conv.i.v / pushi.e 1 / conv.i.v / \
             call.i choose 2 / pop.v.v self.pick",
            "sprs = [spr_player, spr_wall];\npick = choose(obj_player, obj_wall);",
        )],
    );
}

#[test]
fn a_typed_name_still_prints_only_where_it_reads_back() {
    // The game has a variable named as the sprite: the number stays.
    typed(
        GMS1,
        "/// @holds my_spr Asset.GMSprite",
        &[(
            "gml_Object_a_Create_0",
            "pushi.e 1 / pop.v.i self.my_spr / pushi.e 0 / pop.v.i self.spr_wall",
            "my_spr = 1;\nspr_wall = 0;",
        )],
    );
}

/// Kinds a modder of jtool (GMS 1.4) would write: places the bytecode does not show the kind
/// of (a script called with literals, a local, a global set once): the names print, and every
/// entry still compiles back to its own instructions.
const JTOOL_KINDS: &str = "\
/// @holds comboBoxButton(6) Asset.GMSprite
/// @holds nsp_evaluate_long(1) Bool
/// @holds waterlock_spr Asset.GMSprite
/// @holds global.key_up Constant.VirtualKey
/// @holds rotating Bool
";

#[test]
fn gms1_kinds_by_name_on_a_corpus_game() {
    let marks = [
        "sMenuGrid)",
        "nsp_evaluate_long(grid, false)",
        "waterlock_spr = sMenuWaterLock",
        "global.key_up = vk_up",
        "rotating = false",
    ];
    let Some(n) = round_trip_with("jtool.win", JTOOL_KINDS, &marks) else {
        return;
    };
    assert!(n >= 5, "{n} entries print the kinds' names");
    // Without the kinds, none of these print.
    let Some(n) = round_trip_with("jtool.win", "", &marks) else {
        return;
    };
    assert_eq!(n, 0);
}

/// A 2.3+ script's functions (a 2022 game, acrandomizer: assets are numbers, booleans typed):
/// the kinds of a function's parameters name its callers' literals, its parameters' default
/// values and what the parameters are compared with; the script compiles back to its code.
#[test]
fn kinds_of_a_functions_parameters_in_a_2022_script() {
    let Some(bytes) = gmkit_testdata::corpus_file("acrandomizer.win") else {
        return;
    };
    let mut file = gmkit_data::parse_bytes(bytes).expect("corpus file parses");
    let src = "function kinds_mark(who, col = 255)\n{\n    if (who == 3)\n    {\n        \
               return col;\n    }\n    return 0;\n}\n\nkinds_mark(3, 65280);\n";
    let added = gmkit_gml::entries::add_entry(
        &mut file,
        &gmkit_data::code_entry::EntryTarget::Script {
            name: "kinds_test".into(),
        },
        src,
    )
    .expect("the script compiles");
    let entry = added.root.entry;
    let nf = NamesFile::parse(
        "/// @holds kinds_mark(0) Asset.GMObject\n/// @holds kinds_mark(1) Constant.Colour\n",
    )
    .expect("parses");
    let game = Game::new(&file).with_names_file(nf.clone());
    let obj = game
        .asset_name(gmkit_gml::game::AssetKind::Object, 3)
        .expect("object 3")
        .to_string();
    let d = decompile::decompile_entry(&game, entry).expect("decompiles");
    let text = print::print_stmts(&d.body);
    // (The parameters' names are the entry's locals'; a compiled-in entry may not keep them.)
    for want in [
        " = c_red) {".to_string(),
        format!(" == {obj}) {{"),
        format!("kinds_mark({obj}, c_lime);"),
    ] {
        assert!(text.contains(&want), "{want} in:\n{text}");
    }
    let cn = Names::new(&game);
    let tree = nf.parse_code(&text, game.enum_int64()).expect("parses");
    let ins = compile_entry(&game, &cn, entry, &tree).expect("compiles");
    let orig = file.code.as_ref().unwrap().instructions(entry).unwrap();
    assert_eq!(ins, orig.as_ref(), "{text}");
    // Without the file: numbers.
    let plain = print::print_stmts(
        &decompile::decompile_entry(&Game::new(&file), entry)
            .unwrap()
            .body,
    );
    assert!(plain.contains("kinds_mark(3, 65280)"), "{plain}");
}

/// `/// @name f(k) NAME` gives a function's parameter the name GameMaker did not keep: the
/// declaration and every read of it in the function's own body print it, and the entry
/// compiles back to its code. A name the function already uses, or a built-in's, is not
/// taken; a malformed line is refused with its line and column.
#[test]
fn parameter_names_from_the_file() {
    let Some(bytes) = gmkit_testdata::corpus_file("acrandomizer.win") else {
        return;
    };
    let file = gmkit_data::parse_bytes(bytes).expect("corpus file parses");
    let plain = Game::new(&file);
    let entry = (0..plain.code_count())
        .find(|&i| plain.code_name(i) == "gml_GlobalScript_arrayRand")
        .expect("arrayRand");
    let before = print::print_stmts(&decompile::decompile_entry(&plain, entry).unwrap().body);
    assert!(before.contains("function arrayRand(arg0)"), "{before}");
    let orig = file.code.as_ref().unwrap().instructions(entry).unwrap();
    for (names, want) in [
        (
            "/// @name arrayRand(0) list\n",
            "function arrayRand(list) {\n    return list[irandom(array_length(list) + -1)];",
        ),
        // A built-in's name, or a second name, is not taken.
        (
            "/// @name arrayRand(0) irandom\n",
            "function arrayRand(arg0) {",
        ),
        ("/// @name arrayRand(0) x\n", "function arrayRand(arg0) {"),
        (
            "/// @name arrayRand(1) other_one\n",
            "function arrayRand(arg0) {",
        ),
    ] {
        let nf = NamesFile::parse(names).expect("parses");
        let game = Game::new(&file).with_names_file(nf.clone());
        let text = print::print_stmts(&decompile::decompile_entry(&game, entry).unwrap().body);
        assert!(text.contains(want), "{names}: {text}");
        let cn = Names::new(&game);
        let tree = nf.parse_code(&text, game.enum_int64()).expect("parses");
        let ins = compile_entry(&game, &cn, entry, &tree).expect("compiles");
        assert_eq!(ins, orig.as_ref(), "{text}");
    }
    for bad in [
        "/// @name arrayRand 0\n",
        "/// @name arrayRand(0) 9x\n",
        "\n  /// @name f(0)\n",
    ] {
        let e = NamesFile::parse(bad).expect_err(bad);
        assert!(e.line >= 1 && e.col >= 1, "{bad}: {e}");
        assert!(e.expected.contains("@name"), "{bad}: {e}");
    }
    assert_eq!(
        NamesFile::parse("\n  /// @name f(0)\n").unwrap_err().line,
        2
    );
}
