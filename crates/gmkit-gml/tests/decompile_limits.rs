//! Hostile bytecode through the decompiler (issue 15, round 2: F2, F3, F4, F4b). Limits on
//! tree depth and size, argument counts and argument indices make an entry fail with a message
//! saying which limit and where, in bounded memory; nothing overflows the stack, even on a thread
//! with a 256 KB stack.

mod common;

use common::Asm;
use gmkit_gml::limits::MAX_TREE_DEPTH;
use gmkit_gml::{Game, decompile, print};
use gmkit_testdata::alloc::{Counting, measure};
use gmkit_testdata::{need, repro_path};
use std::sync::Mutex;

#[global_allocator]
static GLOBAL: Counting = Counting;

/// The allocation counters are process-wide: one measuring test at a time.
static SERIAL: Mutex<()> = Mutex::new(());

/// 64 MiB: the memory bound of the issue for small inputs.
const MIB64: usize = 64 << 20;

/// A small thread stack: walks must not depend on the thread they run on.
const SMALL_STACK: usize = 256 * 1024;

/// Decompiles assembly `text` (for GameMaker 2.3, bytecode 17) and prints it: (failure notes,
/// text, peak bytes).
fn run(text: &str) -> (Vec<String>, String, usize) {
    let mut a = Asm::new(17, 2, 3);
    let ins = a.asm(text);
    let game = Game::new(&a.file);
    let _one = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let ((notes, printed), usage) = measure(|| {
        let d = decompile::decompile_instructions(&game, &ins);
        let printed = print::print_stmts(&d.body);
        assert_eq!(d.failures == 0, d.failure_notes.is_empty());
        (d.failure_notes.clone(), printed)
    });
    (notes, printed, usage.peak)
}

/// Runs `f` on a thread with a [`SMALL_STACK`].
fn on_small_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(SMALL_STACK)
        .spawn(f)
        .expect("thread")
        .join()
        .expect("no panic, no overflow")
}

fn repeat(head: &str, body: &str, n: usize, tail: &str) -> String {
    let mut s = String::with_capacity(head.len() + body.len() * n + tail.len());
    s.push_str(head);
    for _ in 0..n {
        s.push_str(body);
    }
    s.push_str(tail);
    s
}

#[test]
fn dup_copies_are_budgeted_f3() {
    // 30 `dup`+`add` pairs: each doubles the tree (2^30 nodes if copied in full).
    let text = repeat(
        "pushi.e 1\n",
        "dup.i 0\nadd.i.i\n",
        30,
        "pop.v.i builtin.points\n",
    );
    let (notes, printed, peak) = run(&text);
    assert!(
        notes.len() == 1 && notes[0].contains("past the limit of 1048576 nodes at instruction"),
        "{notes:?}"
    );
    assert!(printed.contains("past the limit"), "{printed}");
    assert!(peak < MIB64, "peak {peak} bytes");
    // A few doublings are real code (`a[i] += b` dups its operands): no failure.
    let text = repeat(
        "pushi.e 1\n",
        "dup.i 0\nadd.i.i\n",
        8,
        "pop.v.i builtin.points\n",
    );
    let (notes, printed, _) = run(&text);
    assert!(notes.is_empty(), "{notes:?}");
    assert_eq!(printed.matches('1').count(), 256, "{printed}");
}

#[test]
fn argument_counts_are_checked_against_the_stack_f4() {
    let text = "call.i abs 65535\npopz.v\n".repeat(200);
    let (notes, _, peak) = run(&text);
    assert_eq!(notes.len(), 200, "{:?}", &notes[..3.min(notes.len())]);
    assert!(
        notes[0].contains("a call with 65535 arguments where the stack holds 0 (instruction 0)"),
        "{notes:?}"
    );
    assert!(peak < 4 << 20, "peak {peak} bytes");
}

#[test]
fn argument_indices_are_bounded_f4b() {
    let path = need!(repro_path("round2/decompile-argument-index-1e11.win"));
    let file = gmkit_data::parse_file(&path).expect("parses");
    let game = Game::new(&file);
    let _one = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let (notes, usage) = measure(|| {
        (0..game.code_count())
            .filter_map(|i| decompile::decompile_entry(&game, i).ok())
            .flat_map(|d| d.failure_notes.clone())
            .collect::<Vec<_>>()
    });
    assert!(
        notes
            .iter()
            .any(|n| n == "argument index 99999999999 past the limit 65535"),
        "{notes:?}"
    );
    assert!(usage.peak < MIB64, "peak {} bytes", usage.peak);
}

/// The chains of `mkwins.sh`, 100k terms each.
fn chains() -> Vec<(&'static str, String)> {
    let n = 100_000;
    vec![
        (
            "add",
            repeat(
                "pushi.e 1\n",
                "pushi.e 1\nadd.i.i\n",
                n,
                "pop.v.i builtin.points\n",
            ),
        ),
        (
            "right-deep add",
            repeat("", "pushi.e 1\n", n + 1, "")
                + &"add.i.i\n".repeat(n)
                + "pop.v.i builtin.points\n",
        ),
        (
            "neg",
            repeat("pushi.e 1\n", "neg.i\n", n, "pop.v.i builtin.points\n"),
        ),
        (
            "call",
            repeat(
                "pushi.e 1\n",
                "conv.i.v\ncall.i abs 1\n",
                n,
                "pop.v.v builtin.points\n",
            ),
        ),
    ]
}

#[test]
fn long_chains_stop_at_the_depth_limit_f2() {
    for (what, text) in chains() {
        let (notes, printed) = on_small_stack(move || {
            let (notes, printed, _) = run(&text);
            (notes, printed)
        });
        let want = format!("an expression deeper than {MAX_TREE_DEPTH} levels at instruction");
        assert!(
            notes.len() == 1 && notes[0].contains(&want),
            "{what}: {notes:?}"
        );
        assert!(
            printed.len() < 10_000,
            "{what}: {} bytes printed",
            printed.len()
        );
    }
}

#[test]
fn a_tree_of_the_largest_depth_decompiles_and_prints_on_a_small_stack() {
    // `1 + 1 + …`: a literal is counted 3 levels deep (as any value an instruction makes
    // from nothing), each `+` one more.
    let adds = MAX_TREE_DEPTH - 3;
    let (notes, printed) = on_small_stack(move || {
        let text = repeat(
            "pushi.e 1\n",
            "pushi.e 1\nadd.i.i\n",
            adds,
            "pop.v.i builtin.points\n",
        );
        let (notes, printed, _) = run(&text);
        (notes, printed)
    });
    assert!(notes.is_empty(), "{notes:?}");
    assert_eq!(printed.matches(" + 1").count(), adds);
    // One more level is past the limit.
    let (notes, _) = on_small_stack(move || {
        let text = repeat(
            "pushi.e 1\n",
            "pushi.e 1\nadd.i.i\n",
            adds + 1,
            "pop.v.i builtin.points\n",
        );
        let (notes, printed, _) = run(&text);
        (notes, printed)
    });
    assert!(
        notes.len() == 1 && notes[0].contains("deeper than"),
        "{notes:?}"
    );
}

#[test]
fn entry_errors_name_the_entry_and_the_instruction() {
    let path = need!(repro_path("round2/decompile-dup-add-x30.win"));
    let file = gmkit_data::parse_file(&path).expect("parses");
    let game = Game::new(&file);
    let errors: Vec<String> = (0..game.code_count())
        .filter_map(|i| decompile::decompile_entry(&game, i).err())
        .map(|e| e.to_string())
        .collect();
    assert_eq!(
        errors,
        [
            "code entry \"gml_Object_obj_game_Create_0\": expressions past the limit of 1048576 \
          nodes at instruction 37 (byte offset 148)"
        ]
    );
}
