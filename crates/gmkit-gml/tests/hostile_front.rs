//! Hostile GML for the front end (issue 15, cases F9–F11, F13, F14, F28 of
//! `../shared/repro/round2`): chains and nesting past [`MAX_TREE_DEPTH`] are refused where they
//! start; the deepest tree accepted parses, folds and compiles on a thread with a 256 KB stack;
//! macro expansion is bounded; project readers read only regular files inside the project;
//! room instances are read in linear time.

mod common;

use gmkit_gml::fold::{ConstNames, resolve};
use gmkit_gml::limits::MAX_TREE_DEPTH;
use gmkit_gml::macros::{Definitions, MACRO_TOKENS_FLOOR};
use gmkit_gml::parse::{ParseError, parse};

#[global_allocator]
static GLOBAL: gmkit_testdata::alloc::Counting = gmkit_testdata::alloc::Counting;

/// Serialises the tests that read the allocator's counters.
static MEASURE: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Hostile shapes: a statement whose tree is about `n` levels deep, and the column the error
/// names: where a chain starts, or the statement holding too deep nesting.
fn shape(kind: &str, n: usize) -> (String, u32) {
    let text = match kind {
        "member" => format!("x = a{};", ".b".repeat(n)),
        "index" => format!("x = a{};", "[0]".repeat(n)),
        "calls" => format!("x = f{};", "()".repeat(n)),
        "add" => format!("x = a{};", " + a".repeat(n)),
        "lt" => format!("x = a{};", " < a".repeat(n)),
        "nullish" => format!("x = a{};", " ?? a".repeat(n)),
        "mixed" => format!("x = a{};", ".b[0] + f()".repeat(n / 4)),
        "parens" => format!("x = {}a{};", "(".repeat(n), ")".repeat(n)),
        "neg" => format!("x = {}a;", "-".repeat(n)),
        "ternary" => format!("x = {}a{};", "a ? ".repeat(n), " : a".repeat(n)),
        "blocks" => format!("{}x = a;{}", "{".repeat(n), "}".repeat(n)),
        "ifs" => format!("{}x = a;", "if (a) ".repeat(n)),
        "arrays" => format!("x = {}{};", "[".repeat(n), "]".repeat(n)),
        "functions" => format!("{}{}", "function g() {".repeat(n), "}".repeat(n)),
        _ => unreachable!(),
    };
    let col = match kind {
        "member" | "index" | "calls" | "add" | "lt" | "nullish" | "mixed" => 5,
        _ => 1,
    };
    (text, col)
}

const KINDS: &[&str] = &[
    "member",
    "index",
    "calls",
    "add",
    "lt",
    "nullish",
    "mixed",
    "parens",
    "neg",
    "ternary",
    "blocks",
    "ifs",
    "arrays",
    "functions",
];

/// The largest `n` for which `kind` parses.
fn deepest(kind: &str) -> usize {
    let (mut ok, mut bad) = (1, 4 * MAX_TREE_DEPTH);
    assert!(parse(&shape(kind, ok).0).is_ok(), "{kind} of 1 parses");
    assert!(
        parse(&shape(kind, bad).0).is_err(),
        "{kind} of {bad} is refused"
    );
    while bad - ok > 1 {
        let mid = (ok + bad) / 2;
        if parse(&shape(kind, mid).0).is_ok() {
            ok = mid;
        } else {
            bad = mid;
        }
    }
    ok
}

#[test]
fn chains_and_nesting_past_the_limit_are_refused_where_they_start() {
    for kind in KINDS {
        let (text, col) = shape(kind, 20_000);
        let e: ParseError = parse(&text).unwrap_err();
        assert_eq!((e.line, e.col), (1, col), "{kind}: {e}");
        let msg = e.to_string();
        assert!(
            msg.contains(&MAX_TREE_DEPTH.to_string()) && !msg.contains('\n') && msg.len() < 300,
            "{kind}: {msg}"
        );
    }
}

#[test]
fn chains_count_each_link() {
    // A chain may be about as long as the limit: each link is one level, whatever the kind.
    for kind in ["member", "index", "calls", "add", "lt", "nullish"] {
        let n = deepest(kind);
        assert!(
            (MAX_TREE_DEPTH - 8..MAX_TREE_DEPTH).contains(&n),
            "{kind}: {n} links accepted"
        );
    }
}

#[test]
fn the_deepest_trees_accepted_parse_fold_and_compile_on_a_256k_stack() {
    let texts: Vec<(String, String)> = KINDS
        .iter()
        .map(|k| (k.to_string(), shape(k, deepest(k)).0))
        .collect();
    let worker = std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(move || {
            let mut a = common::Asm::new(17, 2023, 1);
            // The names the texts use.
            a.asm(
                "push.v self.a / push.v self.b / pop.v.v self.x / call.i f 0 / call.i g 0 / popz.v",
            );
            let game = gmkit_gml::Game::new(&a.file);
            let names = gmkit_gml::compile::Names::new(&game);
            let mut compiled = 0;
            // The trees are dropped by the caller: dropping is recursive (the drop glue of
            // `Box<Expr>`), see `the_deepest_trees_drop_on_half_a_rayon_stack`.
            let mut trees = Vec::new();
            for (kind, text) in &texts {
                let mut tree = parse(text).unwrap_or_else(|e| panic!("{kind}: {e}"));
                resolve(&mut tree, &ConstNames::default());
                if gmkit_gml::compile::compile_entry(&game, &names, 0, &tree).is_ok() {
                    compiled += 1;
                }
                trees.push(tree);
            }
            (compiled, trees)
        })
        .unwrap();
    let (compiled, _trees) = worker.join().expect("no stack overflow on a 256 KB stack");
    assert!(compiled >= 8, "only {compiled} of the deep texts compiled");
}

#[test]
fn doubling_macros_are_bounded() {
    let _g = MEASURE.lock().unwrap_or_else(|e| e.into_inner());
    let mut d = Definitions::default();
    d.add_macro("M0", "1", false);
    for i in 1..32 {
        d.add_macro(&format!("M{i}"), &format!("M{} + M{}", i - 1, i - 1), false);
    }
    let toks = gmkit_gml::lex::lex("x = 1;\n\n  y = M31;").unwrap();
    let (r, usage) = gmkit_testdata::alloc::measure(|| d.expand(toks));
    let e = r.unwrap_err();
    assert_eq!((e.line, e.col), (3, 7), "{e}");
    assert!(e.to_string().contains("`M31`"), "{e}");
    assert!(
        usage.peak < 64 << 20,
        "expansion peaked at {} bytes",
        usage.peak
    );
    // Within the budget, expansion is exact.
    let toks = gmkit_gml::lex::lex("y = M10;").unwrap();
    let n = d.expand(toks).unwrap().len();
    assert_eq!(n, 3 + (2 * 1024 - 1) + 1);
    assert!(n < MACRO_TOKENS_FLOOR);
}

#[test]
fn a_macro_using_itself_is_an_error() {
    let mut d = Definitions::default();
    d.add_macro("A", "B", false);
    d.add_macro("B", "A + 1", false);
    let e = d
        .expand(gmkit_gml::lex::lex("x = A;").unwrap())
        .unwrap_err();
    assert!(e.to_string().contains("nested more than"), "{e}");
}

#[test]
fn huge_text_is_refused_before_lexing() {
    let _g = MEASURE.lock().unwrap_or_else(|e| e.into_inner());
    let text = "x = 1;\n".repeat(gmkit_gml::lex::MAX_SOURCE_BYTES / 7 + 1);
    let (r, usage) = gmkit_testdata::alloc::measure(|| parse(&text));
    let e = r.unwrap_err();
    assert_eq!((e.line, e.col), (1, 1));
    assert!(e.to_string().contains("bytes"), "{e}");
    assert!(usage.peak < 1 << 20, "{} bytes", usage.peak);
}

#[test]
fn long_names_in_errors_are_cut_and_escaped() {
    let name = format!("a{}", "b".repeat(100_000));
    let e = parse(&format!("x = (1 {name});")).unwrap_err().to_string();
    assert!(e.len() < 300, "{} bytes", e.len());
    let e = parse("x = \u{1};").unwrap_err().to_string();
    assert!(e.contains("\\u{1}") && !e.contains('\u{1}'), "{e}");
}

#[test]
fn the_deepest_trees_drop_on_half_a_rayon_stack() {
    // Rayon's workers (which compile in `pack`) have 2 MiB stacks: the deepest trees accepted,
    // and the partial trees a parse error drops, must drop within half of that.
    let worker = std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(|| {
            for kind in KINDS {
                let n = deepest(kind);
                drop(parse(&shape(kind, n).0).unwrap());
                // An error after the deepest chain drops it while unwinding the parse.
                assert!(parse(&format!("{} )", shape(kind, n).0.trim_end_matches(';'))).is_err());
            }
        })
        .unwrap();
    worker.join().expect("no stack overflow on a 1 MiB stack");
}
