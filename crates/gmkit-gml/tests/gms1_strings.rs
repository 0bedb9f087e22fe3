//! GMS 1.x GML has its own string dialect: no escapes (a backslash is an ordinary character),
//! `"` or `'` around a string that cannot hold its own quote. The printer writes that dialect
//! for those versions ([`print::print_for`]) and the edit path reads it
//! ([`gmkit_gml::entries::replace_code`], the folder's `.gml`, `gmkit import --code`): every
//! GMS1 corpus entry with a backslash or a quote in a string keeps its instructions through
//! decompile → print → replace_code (jtool's `loadSkin` once changed).

mod common;

use gmkit_gml::entries::replace_code;
use gmkit_gml::print::{print_for, quote_gms1};
use gmkit_gml::{Features, Game, parse};

/// Whether the tree printed as GMS2 text holds a string with a backslash or a quote.
fn has_special_string(text: &str) -> bool {
    text.contains('\\') || text.contains('\'')
}

#[test]
fn gms1_strings_with_backslashes_or_quotes_survive_the_edit_path() {
    let corpus = gmkit_testdata::need!(gmkit_testdata::corpus_all());
    let (mut checked, mut files) = (0, 0);
    for (name, bytes) in corpus {
        let Ok(file) = gmkit_data::parse_bytes(bytes) else {
            continue;
        };
        let Some(code) = file.code.as_ref() else {
            continue;
        };
        let game = Game::new(&file);
        if game.features.escaped_strings() {
            continue;
        }
        files += 1;
        let roots: Vec<(usize, String)> = (0..code.entries.len())
            .filter(|&i| code.entries[i].body.is_root() && game.children(i).is_empty())
            .filter_map(|i| {
                let d = gmkit_gml::decompile::decompile_entry(&game, i).ok()?;
                if d.failures > 0 {
                    return None;
                }
                let gms2 = gmkit_gml::print::print_stmts(&d.body);
                has_special_string(&gms2).then(|| (i, print_for(&d.body, &game.features)))
            })
            .collect();
        for (i, text) in roots {
            let entry = game.code_name(i).to_string();
            match common::replaced_difference(&file, i, &text) {
                Err(e) => panic!("{name} {entry}: {e}\n{text}"),
                Ok(Some(d)) => panic!("{name} {entry}: {d}\n{text}"),
                Ok(None) => {}
            }
            checked += 1;
        }
    }
    println!("GMS1 files {files}, entries with a backslash or quote in a string: {checked}");
    assert!(checked > 0, "no GMS1 corpus entry has such a string");
}

/// A GMS 1.4 version (IDE 1.0.0.1763, bytecode 16).
fn gms1() -> Features {
    let mut v = gmkit_data::Version::gms2(Default::default());
    v.ide = [1, 0, 0, 1763];
    v.bytecode = 16;
    v.format = Default::default();
    Features::new(v)
}

#[test]
fn gms1_quoting_by_hand() {
    assert!(!gms1().escaped_strings());
    assert_eq!(quote_gms1("C:\\games\\", false), "'C:\\games\\'");
    assert_eq!(quote_gms1("it's C:\\", false), "\"it's C:\\\"");
    assert_eq!(quote_gms1("say \"hi\"", false), "'say \"hi\"'");
    assert_eq!(quote_gms1("it's", false), "\"it's\"");
    assert_eq!(quote_gms1("a\"b'c", true), "(\"a\" + '\"' + \"b'c\")");
    assert_eq!(quote_gms1("\"\"'", false), "'\"\"' + \"'\"");
    assert_eq!(quote_gms1("line\nbreak", false), "\"line\nbreak\"");
}

#[test]
fn gms1_text_prints_and_parses_in_its_own_dialect() {
    let f = gms1();
    for s in [
        "C:\\dir\\",
        "a\\nb",
        "q\"q",
        "it's",
        "both \" and '",
        "\\\"'",
        "",
        "\t\r\n",
    ] {
        let body = vec![gmkit_gml::ast::Stmt::Assign {
            target: gmkit_gml::ast::Expr::Ident("x".into()),
            op: None,
            value: gmkit_gml::ast::Expr::Binary(
                gmkit_gml::ast::BinaryOp::Add,
                Box::new(gmkit_gml::ast::Expr::Ident("y".into())),
                Box::new(gmkit_gml::ast::Expr::Lit(gmkit_gml::ast::Literal::String(
                    s.into(),
                ))),
            ),
        }];
        let text = print_for(&body, &f);
        let back = parse::parse_for(&text, &f).unwrap_or_else(|e| panic!("{text}: {e}"));
        // A concatenation reads back as a parenthesised sum of runs; folding makes it the one
        // constant again: compare the runs joined.
        let gml = gmkit_gml::print::print_stmts(&back);
        let joined: String = runs(&back).concat();
        assert_eq!(joined, s, "{text} read back as {gml}");
    }
}

/// The string constants of `x = y + <string or sum of strings>`, left to right.
fn runs(body: &[gmkit_gml::ast::Stmt]) -> Vec<String> {
    use gmkit_gml::ast::{Expr, Literal, Stmt};
    fn go(e: &Expr, out: &mut Vec<String>) {
        match e {
            Expr::Lit(Literal::String(s)) => out.push(s.clone()),
            Expr::Binary(_, a, b) => {
                go(a, out);
                go(b, out);
            }
            Expr::Paren(x) => go(x, out),
            _ => {}
        }
    }
    let mut out = Vec::new();
    if let [Stmt::Assign { value, .. }] = body {
        go(value, &mut out);
    }
    out
}

#[test]
fn a_gms1_string_with_both_quotes_compiles_to_one_constant() {
    let corpus = gmkit_testdata::need!(gmkit_testdata::corpus_all());
    let Some((name, file)) = corpus.iter().find_map(|(n, b)| {
        let f = gmkit_data::parse_bytes(b).ok()?;
        (f.code.is_some() && !Features::new(f.version).escaped_strings()).then_some((n, f))
    }) else {
        panic!("no GMS1 file in the corpus");
    };
    let game = Game::new(&file);
    let entry = (0..game.code_count())
        .find(|&i| file.code.as_ref().unwrap().entries[i].body.is_root())
        .unwrap();
    let s = "C:\\say \"it's\"\\";
    let body = parse::parse_for(&format!("x = {};", quote_gms1(s, false)), &game.features).unwrap();
    let text = print_for(&body, &game.features);
    assert_eq!(text, "x = 'C:\\say ' + '\"' + \"it's\" + '\"' + '\\';");
    let mut edited = file.clone();
    replace_code(&mut edited, entry, &text).unwrap_or_else(|e| panic!("{name}: {e}"));
    let ins = edited.code.as_ref().unwrap().instructions(entry).unwrap();
    let shown: Vec<String> = ins.iter().map(|i| i.display(&edited).to_string()).collect();
    assert!(
        shown[0].starts_with("push.s") && shown[0].contains("it's"),
        "{shown:?}"
    );
    assert!(
        shown.iter().filter(|l| l.starts_with("push.s")).count() == 1,
        "{shown:?}"
    );
    assert!(!shown.iter().any(|l| l.starts_with("add")), "{shown:?}");
}
