//! Template strings in decompiled text. GameMaker 2024.14 compiles `$"a{x}"` to a call of
//! `@@string@@` (earlier versions call `string`; found on public games gmkit had not seen,
//! /work/wild/REPORT.md), which the printer once wrote as a call the parser did not read. It
//! writes such a call, and the parser's own `@@template@@` call, as the template `$"..."`,
//! which parses back to the call the compiler lowers to `@@string@@` again; a call of another
//! shape stays `@@string@@(...)`, which the lexer reads as a name (GameMaker's internal names).

use gmkit_data::DataFile;
use gmkit_data::chunks::code::{CodeBody, Instruction};
use gmkit_gml::ast::{BinaryOp, Expr, Literal, Stmt};
use gmkit_gml::compile::{Names, compile_entry_with_children, compile_text};
use gmkit_gml::{Game, decompile, parse, print};

fn call(f: &str, args: Vec<Expr>) -> Expr {
    Expr::Call(Box::new(Expr::Ident(f.into())), args)
}

fn ident(n: &str) -> Expr {
    Expr::Ident(n.into())
}

fn string(s: &str) -> Expr {
    Expr::Lit(Literal::String(s.into()))
}

/// `x = e;` printed.
fn printed(e: Expr) -> String {
    print::print_stmts(&[Stmt::Assign {
        target: ident("x"),
        op: None,
        value: e,
    }])
}

/// Print, parse, print: the same text both times (the tree reads back as itself).
fn stable(text: &str) {
    let tree = parse::parse(text).unwrap_or_else(|e| panic!("{text}: {e}"));
    assert_eq!(print::print_stmts(&tree), text);
}

#[test]
fn internal_string_call_prints_as_a_template() {
    let e = call(
        "@@string@@",
        vec![
            string("hp {0}/{1}!"),
            ident("hp"),
            Expr::Binary(
                BinaryOp::Add,
                Box::new(ident("hp_max")),
                Box::new(Expr::Lit(Literal::Int(1))),
            ),
        ],
    );
    let text = printed(e);
    assert_eq!(text, "x = $\"hp {hp}/{hp_max + 1}!\";");
    stable(&text);
    // It parses as the template call the compiler lowers (`@@template@@`), with the same format.
    let tree = parse::parse(&text).unwrap();
    let Stmt::Assign { value, .. } = &tree[0] else {
        panic!("an assignment")
    };
    let Expr::Call(f, args) = value else {
        panic!("a call: {value:?}")
    };
    assert!(matches!(&**f, Expr::Ident(n) if n == "@@template@@"));
    assert!(matches!(&args[0], Expr::Lit(Literal::String(s)) if s == "hp {0}/{1}!"));
    assert_eq!(args.len(), 3);
}

#[test]
fn template_text_keeps_quotes_backslashes_braces_and_line_breaks() {
    let fmt = "say \"{0}\" \\ {not a field} }\n\t";
    let text = printed(call("@@string@@", vec![string(fmt), ident("a")]));
    assert_eq!(
        text,
        "x = $\"say \\\"{a}\\\" \\\\ \\{not a field} }\\n\\t\";"
    );
    stable(&text);
    let tree = parse::parse(&text).unwrap();
    let Stmt::Assign {
        value: Expr::Call(_, args),
        ..
    } = &tree[0]
    else {
        panic!("a call")
    };
    assert!(matches!(&args[0], Expr::Lit(Literal::String(s)) if s == fmt));
}

#[test]
fn a_field_may_hold_strings_braces_and_calls() {
    let text = "x = $\"{f(\"}\", { a: 1 })} and {g[0]}\";";
    stable(text);
}

#[test]
fn a_field_may_hold_a_template_string() {
    // GameMaker's compiler reads a template inside a field; it is a call in the outer call.
    let text = "x = $\"hp {$\"{hp}/{hp_max}\"} left\";";
    stable(text);
    let tree = parse::parse(text).unwrap();
    let Stmt::Assign {
        value: Expr::Call(_, args),
        ..
    } = &tree[0]
    else {
        panic!("a call")
    };
    assert!(matches!(&args[0], Expr::Lit(Literal::String(s)) if s == "hp {0} left"));
    let Expr::Paren(field) = &args[1] else {
        panic!("a field: {:?}", args[1])
    };
    let Expr::Call(inner, inner_args) = &**field else {
        panic!("a nested call: {:?}", args[1])
    };
    assert!(matches!(&**inner, Expr::Ident(n) if n == "@@template@@"));
    assert!(matches!(&inner_args[0], Expr::Lit(Literal::String(s)) if s == "{0}/{1}"));
    // A nested template without fields is its plain string; quotes and braces inside the
    // nested template's fields do not end the outer field.
    assert_eq!(
        parse::parse("x = $\"[{$\"\"}]\";").unwrap(),
        parse::parse("x = $\"[{\"\"}]\";").unwrap()
    );
    stable("x = $\"a{$\"b{f(\"}\", $\"{c}\")}\"}d\";");
    // Nesting is bounded: 15 templates deep reads, 40 deep is an error naming the place.
    let nest = |n: usize| {
        let mut t = "y".to_string();
        for _ in 0..n {
            t = format!("$\"<{{{t}}}>\"");
        }
        format!("x = {t};")
    };
    stable(&nest(15));
    let e = parse::parse(&nest(40)).expect_err("too deep");
    assert!(e.found.contains("nested"), "{e:?}");
    assert_eq!((e.line, e.col), (1, 5));
}

#[test]
fn other_shapes_stay_calls() {
    // Fields out of order, a field missing, an unused argument, no field at all: no template
    // reads back as these calls, so they stay calls.
    for (fmt, n) in [("{1}{0}", 2), ("{0}{2}", 2), ("{0}", 2), ("plain", 0)] {
        let args: Vec<Expr> = std::iter::once(string(fmt))
            .chain((0..n).map(|k| ident(&format!("a{k}"))))
            .collect();
        let text = printed(call("@@string@@", args));
        assert!(text.contains("@@string@@("), "{fmt}: {text}");
        // GameMaker's internal names (`@@name@@`) read back as names.
        stable(&text);
    }
    // `@` starts a name only as `@@name@@`.
    for bad in ["x = @@string(a);", "x = @string@(a);", "x = @@@@(a);"] {
        assert!(parse::parse(bad).is_err(), "{bad}");
    }
    // `string("{0}", a)` (2023.4 – 2024.13 templates, or written so) stays as written.
    let text = printed(call("string", vec![string("{0}"), ident("a")]));
    assert_eq!(text, "x = string(\"{0}\", a);");
}

/// A 2024.14 corpus game (the corpus has no `@@string@@` call yet).
fn game_2024_14() -> Option<DataFile> {
    let bytes = gmkit_testdata::corpus_file("killstreak.win")?;
    let file = gmkit_data::parse_bytes(bytes).expect("corpus file parses");
    assert!(
        file.version.non_lts_at_least(2024, 14),
        "{:?}",
        file.version
    );
    Some(file)
}

/// The first object event without nested functions.
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

/// Compiles `text` into `entry` as new code, applies the additions, rebuilds and parses the
/// file; returns it with the names of the functions the entry calls.
fn put(file: &DataFile, entry: usize, text: &str) -> (DataFile, Vec<String>) {
    let game = Game::new(file);
    let names = Names::new(&game);
    let c = compile_text(&game, &names, entry, text).unwrap_or_else(|e| panic!("{e}"));
    let mut out = file.clone();
    c.additions.apply(&mut out).expect("additions apply");
    out.code.as_mut().expect("code").entries[entry].body =
        CodeBody::Instructions(c.instructions.clone());
    let bytes = gmkit_data::build_bytes(&out).expect("rebuilt file validates and writes");
    let back = gmkit_data::parse_bytes(bytes).expect("rebuilt file parses");
    let game = Game::new(&back);
    let funcs = back.functions.as_ref().expect("FUNC");
    let called = back
        .code
        .as_ref()
        .unwrap()
        .instructions(entry)
        .unwrap()
        .iter()
        .filter_map(|i| match i {
            Instruction::Call { function, .. } => {
                Some(game.string(funcs.functions[function.index()].name))
            }
            _ => None,
        })
        .collect();
    (back, called)
}

/// Decompiled, printed, parsed and compiled again (as `unpack` checks an entry): the same
/// instructions. Returns the text.
fn round_trip(file: &DataFile, entry: usize) -> String {
    let game = Game::new(file);
    let d = decompile::decompile_entry(&game, entry).expect("decompiles");
    assert_eq!(d.failures, 0);
    let text = print::print_stmts(&d.body);
    let tree = parse::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let names = Names::new(&game);
    let (ins, _) = compile_entry_with_children(&game, &names, entry, &tree)
        .unwrap_or_else(|e| panic!("{e}\n{text}"));
    let orig = file.code.as_ref().unwrap().instructions(entry).unwrap();
    assert_eq!(ins.as_slice(), orig.as_ref(), "{text}");
    text
}

#[test]
fn templates_in_a_2024_14_game_call_internal_string_and_read_back() {
    let file = gmkit_testdata::need!(game_2024_14());
    let entry = target(&file);
    let (back, called) = put(&file, entry, "x = $\"score {y} of {y * 2}\";\n");
    assert!(called.iter().any(|f| f == "@@string@@"), "{called:?}");
    assert!(!called.iter().any(|f| f == "string"), "{called:?}");
    let text = round_trip(&back, entry);
    assert!(text.contains("$\"score {y} of {y * 2}\""), "{text}");
    // A template inside a field: two calls, read back as written.
    let (back, called) = put(&file, entry, "x = $\"[{$\"{y}!\"}]\";\n");
    let n = called.iter().filter(|f| *f == "@@string@@").count();
    assert_eq!(n, 2, "{called:?}");
    let text = round_trip(&back, entry);
    assert!(text.contains("$\"[{$\"{y}!\"}]\""), "{text}");
}

#[test]
fn an_internal_string_call_that_is_no_template_reads_back() {
    // A 2024.14 game's `@@string@@` call with fields out of order is printed as that call,
    // which parses and compiles back to it.
    let file = gmkit_testdata::need!(game_2024_14());
    let entry = target(&file);
    let (back, called) = put(&file, entry, "x = @@string@@(\"{1} after {0}\", y, z);\n");
    assert!(called.iter().any(|f| f == "@@string@@"), "{called:?}");
    let text = round_trip(&back, entry);
    assert!(
        text.contains("@@string@@(\"{1} after {0}\", y, z)"),
        "{text}"
    );
}
