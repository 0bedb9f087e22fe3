//! Every compile error says where (issue 16: "unsupported: assignment target" came without a
//! line or column): an error arising in a statement carries that statement
//! (`CompileError::InStatement`), placed in the text by `locate_statement`; `compile_text`,
//! `gml check-source` and the folder report its line and column.

mod common;
use gmkit_gml::compile::{CompileError, Names, compile_text, locate_statement};
use gmkit_gml::{Game, parse};

use common::{FAMILY_GAMES as GAMES, load, plain_root_entry as target};

/// (text, line, column, part of the message) compiling to an error in every version.
const CASES: &[(&str, u32, u32, &str)] = &[
    (
        "x = 1;\nif (x > 0) {\n    y = 2;\n    continue;\n}\n",
        4,
        5,
        "continue outside a loop",
    ),
    (
        "a = 1;\nwhile (a < 3) {\n    a += 1;\n}\nbreak;\n",
        5,
        1,
        "break",
    ),
    (
        "x = 1;\nrepeat (2) {\n  x += 1;\n  if (x) {\n    x = 2;\n  }\n  (x + 1) = 3;\n}\n",
        7,
        3,
        "assignment target",
    ),
];

#[test]
fn compile_errors_carry_line_and_column_in_every_family() {
    for name in GAMES {
        let file = gmkit_testdata::need!(load(name));
        let entry = target(&file);
        let game = Game::new(&file);
        let names = Names::new(&game);
        for (text, line, col, what) in CASES {
            let e = compile_text(&game, &names, entry, text).expect_err(text);
            assert_eq!((e.line, e.col), (*line, *col), "{name}: {e}\n{text}");
            assert!(e.message.contains(what), "{name}: {e}");
        }
    }
}

#[test]
fn version_errors_are_placed_too() {
    // GMS 1.4: no functions, no try; the statement is found after the ones around it.
    let file = gmkit_testdata::need!(load("bubblinaway.win"));
    let entry = target(&file);
    let game = Game::new(&file);
    let names = Names::new(&game);
    let text = "x = 1;\nwith (all) {\n    x = 2;\n    try {\n        x = 3;\n    } catch (e) {\n    }\n}\n";
    let e = compile_text(&game, &names, entry, text).expect_err("try before 2.3");
    assert_eq!((e.line, e.col), (4, 5), "{e}");
    assert!(e.message.contains("try needs GameMaker 2.3"), "{e}");
}

#[test]
fn the_error_names_its_statement_and_the_statements_around_it() {
    let file = gmkit_testdata::need!(load("longdog.win"));
    let game = Game::new(&file);
    let names = Names::new(&game);
    let text = "if (a) {\n    b = 1;\n} else {\n    with (c) {\n        (b) = 1;\n    }\n}\n";
    let tree = parse::parse(text).expect("parses");
    let e = gmkit_gml::compile::compile_new(&game, &names, target(&file), &tree)
        .expect_err("not a place");
    let CompileError::InStatement {
        statement, within, ..
    } = &e
    else {
        panic!("{e:?}");
    };
    assert_eq!(statement, "(b) = 1;");
    assert_eq!(within.len(), 2, "{within:?}");
    assert!(matches!(e.cause(), CompileError::Unsupported(_)), "{e:?}");
    // Alone, the statement is first found at line 2 (`b = 1`, parentheses aside): the
    // statements around it (the `if`, then the `with` after it) narrow the search to line 5.
    assert_eq!(locate_statement(text, &[statement], true), Some((2, 5)));
    let mut outermost_first: Vec<&str> = within.iter().rev().map(String::as_str).collect();
    outermost_first.push(statement);
    assert_eq!(locate_statement(text, &outermost_first, true), Some((5, 9)));
}
