//! Mutation sweep of the GML parser and the decompiler: real GML (the games' sources, plus
//! built-in snippets) with flipped characters, truncations and swapped tokens must parse or fail
//! with an error that says where; mutated assembly of real code entries must decompile. Never a
//! panic, a stack overflow or a hang. Deterministic (xorshift) and bounded.

use std::panic::{AssertUnwindSafe, catch_unwind};

use gmkit_testdata::Rng;

const SNIPPETS: &[&str] = &[
    "var a = 1, b = \"x\"; if (a > b) { show_debug_message(a); } else b += 2;",
    "for (var i = 0; i < 10; i++) { with (obj_a) { x = y[i, 2]; } }",
    "switch (state) { case 1: case \"a\": break; default: exit; }",
    "function f(a, b = 2) constructor { static s = function() { return self.a ?? b; }; }",
    "do { a = b ? c : d; } until (!(a && b || c ^^ d));",
    "x = $FF + 0x1F + 1.5e3 + #123456; s = @'raw' + @\"raw\"; /* c */ // c",
    "a[@ 1] = b[? \"k\"]; c[| 0] = d[# 1, 2]; e = {x: 1, y: [1, 2, 3]};",
    "try { throw new Err(1); } catch (e) { delete e; } finally { enum E { A, B = 2 } }",
    "repeat (3) while (a--) if (++b) continue; else return;",
];

const CHARS: &[char] = &[
    '(', ')', '{', '}', '[', ']', ';', ',', '.', '"', '\'', '@', '$', '#', '/', '*', '?', ':', '=',
    '+', '-', '!', '&', '|', '^', '~', '<', '>', '\\', '\n', ' ', '0', 'x', 'e', 'é', '\u{0}',
];
const TOKENS: &[&str] = &[
    "function",
    "var",
    "if",
    "else",
    "case",
    "default",
    "with",
    "new",
    "static",
    "enum",
    "@\"",
    "/*",
    "#region",
    "0x",
    "1e999",
    "99999999999999999999999",
    "$",
    "[?",
    "[@",
    "??=",
    ".",
    "=>",
    "{",
    "}",
    "(",
    ")",
];

fn mutate(rng: &mut Rng, text: &str) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    match rng.below(6) {
        0 => chars.truncate(rng.below(chars.len())),
        1 if !chars.is_empty() => {
            let i = rng.below(chars.len());
            chars[i] = CHARS[rng.below(CHARS.len())];
        }
        2 => {
            let i = rng.below(chars.len() + 1);
            chars.insert(i, CHARS[rng.below(CHARS.len())]);
        }
        _ => {
            let mut toks: Vec<String> = text
                .split_inclusive([' ', '\n', ';', '('])
                .map(str::to_string)
                .collect();
            if toks.is_empty() {
                return TOKENS[rng.below(TOKENS.len())].to_string();
            }
            let (i, j) = (rng.below(toks.len()), rng.below(toks.len()));
            match rng.below(4) {
                0 => toks.swap(i, j),
                1 => {
                    toks.remove(i);
                }
                2 => {
                    let t = toks[i].clone();
                    toks.insert(j, t);
                }
                _ => toks.insert(i, format!("{} ", TOKENS[rng.below(TOKENS.len())])),
            }
            return toks.concat();
        }
    }
    chars.into_iter().collect()
}

/// A few `.gml` files of the games' sources (bounded), else none.
fn source_texts(limit: usize) -> Vec<String> {
    let Some(dir) = gmkit_testdata::sources_dir() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut stack = vec![dir];
    let mut files = Vec::new();
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "gml") {
                files.push(p);
            }
        }
    }
    files.sort();
    // Spread the picks over the sorted list (every game, not the first one only).
    let step = (files.len() / limit.max(1)).max(1);
    for p in files.iter().step_by(step).take(limit) {
        if let Ok(t) = std::fs::read_to_string(p)
            && (20..8000).contains(&t.len())
        {
            out.push(t);
        }
    }
    out
}

fn check_parse(m: &str) -> bool {
    let r = catch_unwind(|| gmkit_gml::parse::parse(m))
        .unwrap_or_else(|_| panic!("parser panicked on:\n{m}"));
    match r {
        Ok(stmts) => {
            catch_unwind(AssertUnwindSafe(|| gmkit_gml::print::print_stmts(&stmts)))
                .unwrap_or_else(|_| panic!("printer panicked on the tree of:\n{m}"));
            false
        }
        Err(e) => {
            let lines = m.split('\n').count() as u32;
            assert!(
                e.line >= 1 && e.line <= lines && e.col >= 1,
                "error outside the text ({lines} lines): {e}\n{m}"
            );
            assert!(!e.expected.is_empty(), "{e}");
            true
        }
    }
}

#[test]
fn mutated_gml_never_panics_and_errors_say_where() {
    let mut rng = Rng(0xD1B5_4A32_D192_ED03);
    let mut texts: Vec<String> = SNIPPETS.iter().map(|s| s.to_string()).collect();
    texts.extend(source_texts(60));
    let (mut runs, mut errors) = (0usize, 0usize);
    for text in &texts {
        for _ in 0..60 {
            let mut m = mutate(&mut rng, text);
            if rng.below(4) == 0 {
                m = mutate(&mut rng, &m);
            }
            runs += 1;
            errors += check_parse(&m) as usize;
        }
    }
    eprintln!("{runs} mutated texts parsed, {errors} errors");
    assert!(errors > 0 && errors < runs);
}

/// Deep nesting must give an error (or a tree), not a stack overflow.
#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    for (open, close) in [
        ("(", ")"),
        ("{", "}"),
        ("[", "]"),
        ("-", ""),
        ("!", ""),
        ("if a ", ""),
        ("a[", "]"),
        ("f(", ")"),
        ("{a:", "}"),
        ("function() {", "}"),
        ("a ? b : ", "c"),
        ("with (a) ", ""),
    ] {
        let src = format!("x = {}1{};", open.repeat(100_000), close.repeat(100_000));
        check_parse(&src);
    }
}

/// Mutated assembly of real code entries, assembled and decompiled: any instruction list the
/// assembler accepts decompiles and prints without panicking.
#[test]
fn mutated_bytecode_decompiles_without_panic() {
    use gmkit_data::chunks::code::asm::{Assembler, Disassembler};
    let mut rng = Rng(0x94D0_49BB_1331_11EB);
    let (mut runs, mut decompiled) = (0usize, 0usize);
    for name in [
        "asteroid-destroyer.win",
        "platformermonster.win",
        "the-game.win",
    ] {
        let file =
            gmkit_data::parse_bytes(gmkit_testdata::need!(gmkit_testdata::corpus_file(name)))
                .unwrap();
        let count = file.code.as_ref().map_or(0, |c| c.entries.len());
        let dis = Disassembler::new(&file);
        let texts: Vec<String> = (0..count)
            .filter_map(|i| dis.entry(i).ok())
            .filter(|t| (40..4000).contains(&t.len()))
            .take(10)
            .collect();
        let mut edited = file.clone();
        let mut asm = Assembler::new(&mut edited);
        let mut lists = Vec::new();
        for text in &texts {
            for _ in 0..40 {
                // Line-level edits keep most lists assemblable: drop, repeat or swap lines.
                let mut lines: Vec<&str> = text.lines().collect();
                for _ in 0..1 + rng.below(3) {
                    let (i, j) = (rng.below(lines.len()), rng.below(lines.len()));
                    match rng.below(3) {
                        0 => {
                            lines.remove(i);
                        }
                        1 => lines.insert(j, lines[i]),
                        _ => lines.swap(i, j),
                    }
                    if lines.is_empty() {
                        break;
                    }
                }
                runs += 1;
                if let Ok(a) = asm.assemble(&lines.join("\n")) {
                    lists.push(a.instructions);
                }
            }
        }
        drop(asm);
        let game = gmkit_gml::Game::new(&edited);
        for ins in &lists {
            catch_unwind(AssertUnwindSafe(|| {
                let d = gmkit_gml::decompile::decompile_instructions(&game, ins);
                gmkit_gml::print::print_stmts(&d.body)
            }))
            .unwrap_or_else(|_| {
                panic!(
                    "{name}: decompiler panicked on:\n{}",
                    Disassembler::new(&edited).instructions(ins)
                )
            });
            decompiled += 1;
        }
    }
    eprintln!("{runs} mutated entries, {decompiled} assembled and decompiled");
    assert!(decompiled > 0);
}
