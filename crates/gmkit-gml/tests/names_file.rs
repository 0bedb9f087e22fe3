//! The game's names file (docs/names-file.md): parsing (hand-written cases, errors with line
//! and column), and on two corpus games with their own source, a names file made from the
//! project's own constants and enums: the decompiler prints the names where the places say,
//! and every entry still compiles back to its own instructions through
//! `NamesFile::parse_code`.

use gmkit_gml::ast::{Expr, Literal, Stmt};
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
        (
            "/// @holds state Nope",
            1,
            "enum declared in the names file",
        ),
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
