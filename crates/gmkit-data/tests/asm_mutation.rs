//! Mutation sweep of the assembler: the disassembly of real code entries with flipped
//! characters, truncations, swapped tokens and dropped or repeated lines must assemble or fail
//! with an error that says where, never panic or hang. Deterministic (xorshift) and bounded.

use gmkit_data::chunks::code::asm::{Assembler, Disassembler};
use gmkit_data::parse_bytes;
use gmkit_testdata::{corpus_file, need};
use std::panic::{AssertUnwindSafe, catch_unwind};

use gmkit_testdata::Rng;

/// Characters the mutations insert: the notation's punctuation, digits, letters, extremes.
const ALPHABET: &[char] = &[
    '.', ':', '[', ']', '(', ')', '=', '-', '"', '\\', ' ', '\n', '0', '9', 'e', 'v', 'i', 'x',
    '#', '@', '$', '_', ',', 'é', '\u{0}',
];
const TOKENS: &[&str] = &[
    "4294967296",
    "-9223372036854775809",
    "99999999999999999999999",
    "1e400",
    "NaN",
    "[array]",
    "[object]",
    "(argc=65536)",
    "\"",
    "[",
    ":[0]",
    "builtin.",
    "self.",
    "global.",
];

fn mutate(rng: &mut Rng, text: &str) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    match rng.below(6) {
        0 => chars.truncate(rng.below(chars.len())),
        1 => {
            let i = rng.below(chars.len());
            chars[i] = ALPHABET[rng.below(ALPHABET.len())];
        }
        2 => {
            let i = rng.below(chars.len() + 1);
            chars.insert(i, ALPHABET[rng.below(ALPHABET.len())]);
        }
        _ => {
            // Token-level edits.
            let mut toks: Vec<String> = text
                .split_inclusive([' ', '\n'])
                .map(str::to_string)
                .collect();
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
                _ => toks[i] = format!("{} ", TOKENS[rng.below(TOKENS.len())]),
            }
            return toks.concat();
        }
    }
    chars.into_iter().collect()
}

#[test]
fn mutated_disassembly_never_panics_and_errors_say_where() {
    let mut rng = Rng(0x2545_F491_4F6C_DD1D);
    let (mut runs, mut errors) = (0usize, 0usize);
    for name in [
        "the-game.win",
        "tricking-the-vikings.win",
        "asteroid-destroyer.win",
        "platformermonster.win",
    ] {
        let file = parse_bytes(need!(corpus_file(name))).unwrap();
        let count = file.code.as_ref().map_or(0, |c| c.entries.len());
        let dis = Disassembler::new(&file);
        let texts: Vec<String> = (0..count)
            .filter_map(|i| dis.entry(i).ok())
            .filter(|t| (40..6000).contains(&t.len()))
            .take(12)
            .collect();
        assert!(!texts.is_empty(), "{name}: no code entries");
        let mut edited = file.clone();
        let mut asm = Assembler::new(&mut edited);
        for text in &texts {
            for _ in 0..50 {
                let m = mutate(&mut rng, text);
                let r = catch_unwind(AssertUnwindSafe(|| asm.assemble(&m)))
                    .unwrap_or_else(|_| panic!("{name}: assembler panicked on:\n{m}"));
                runs += 1;
                if let Err(e) = r {
                    errors += 1;
                    let lines = m.lines().count() as u32 + 1;
                    assert!(
                        e.line >= 1 && e.line <= lines && e.column >= 1,
                        "{name}: error outside the text ({lines} lines): {e}\n{m}"
                    );
                    assert!(!e.expected.is_empty(), "{name}: {e}");
                }
            }
        }
    }
    eprintln!("{runs} mutated texts assembled, {errors} errors");
    assert!(
        errors > 0 && errors < runs,
        "mutations that never (or always) fail test nothing"
    );
}
