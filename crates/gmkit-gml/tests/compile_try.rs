//! `try` / `catch` / `finally` with escapes (spec `gml-bytecode.md` §5.7–§5.9): GML → the
//! instructions GameMaker emits. The hook's operands are byte offsets in the code blob
//! (push.i 8 bytes, pushi.e / conv / popz / branches / cmp / dup / ret 4, variable and call
//! operands 8).

mod common;
use common::compiles_to;

/// 2023.1: typed booleans; every break/continue inside a try is rewritten (before 2024.11);
/// `throw` inlines the finally body (before 2024.6).
fn v2023(source: &str, expected: &str) {
    compiles_to(17, 2023, 1, source, expected)
}

const HOOK_NO_CATCH: &str = "conv.i.v / push.i -1 / conv.i.v / call.i @@try_hook@@ 2 / popz.v";

#[test]
fn return_through_finally() {
    // The value goes to `copyVar`, the finally body runs, then the temp pattern with the
    // unhook call (not popped); the finally section follows at byte 96.
    v2023(
        "try { return 7; } finally { done = 1; }",
        &format!(
            "push.i 96 / {HOOK_NO_CATCH} / \
             pushi.e 7 / pop.v.i local.copyVar / pushi.e 1 / pop.v.i self.done / \
             pushloc.v local.copyVar / pop.v.v local.$$$$temp$$$$ / call.i @@try_unhook@@ 0 / \
             push.v local.$$$$temp$$$$ / ret.v / \
             call.i @@try_unhook@@ 0 / popz.v / pushi.e 1 / pop.v.i self.done / \
             call.i @@finish_finally@@ 0 / popz.v / b N / N:"
        ),
    );
}

#[test]
fn exit_and_nested_finally_bodies() {
    // `exit` in the inner try: both finally bodies inlined, innermost first, then the inner
    // try's unhook call (not popped) and `exit.i`.
    v2023(
        "try { try { exit; } finally { a = 1; } } finally { b = 2; }",
        &format!(
            "push.i 148 / {HOOK_NO_CATCH} / push.i 108 / {HOOK_NO_CATCH} / \
             pushi.e 1 / pop.v.i self.a / pushi.e 2 / pop.v.i self.b / \
             call.i @@try_unhook@@ 0 / exit.i / \
             call.i @@try_unhook@@ 0 / popz.v / pushi.e 1 / pop.v.i self.a / \
             call.i @@finish_finally@@ 0 / popz.v / b N1 / N1: / \
             call.i @@try_unhook@@ 0 / popz.v / pushi.e 2 / pop.v.i self.b / \
             call.i @@finish_finally@@ 0 / popz.v / b N2 / N2:"
        ),
    );
}

/// In a `repeat` (2023.1): break/continue set `__yy_breakEx0` / `__yy_continueEx0`, each
/// block with one sits in a one-shot `while (true)` loop, and after the try the flags are
/// passed on to the repeat (`continue` to its decrement, `break` past its `popz.i`).
#[test]
fn break_and_continue_in_repeat() {
    v2023(
        "repeat (3) { try { if (a) break; hit = 1; } catch (e) { continue; } }",
        "pushi.e 3 / dup.i 0 / push.i 0 / cmp.i.i LTE / bt END / \
         L1: / pushi.e 0 / pop.v.i local.__yy_breakEx0 / pushi.e 0 / \
         pop.v.i local.__yy_continueEx0 / \
         push.i 256 / conv.i.v / push.i 168 / conv.i.v / call.i @@try_hook@@ 2 / popz.v / \
         W: / pushi.e 1 / bf WE / pushloc.v local.__yy_continueEx0 / conv.v.b / bf X1 / b WE / \
         X1: / push.v self.a / conv.v.b / bf X2 / pushi.e 1 / pop.v.i local.__yy_breakEx0 / \
         b WE / X2: / pushi.e 1 / pop.v.i self.hit / b WE / b W / \
         WE: / b SKIP / \
         pop.v.v local.e / call.i @@try_unhook@@ 0 / popz.v / \
         CW: / pushi.e 1 / bf CWE / pushloc.v local.__yy_continueEx0 / conv.v.b / bf Y1 / \
         b CWE / Y1: / pushi.e 1 / pop.v.i local.__yy_continueEx0 / b CW / b CWE / b CW / \
         CWE: / call.i @@finish_catch@@ 0 / popz.v / b AFTER / \
         SKIP: / call.i @@try_unhook@@ 0 / popz.v / \
         AFTER: / pushloc.v local.__yy_continueEx0 / conv.v.b / bf Z1 / b CONT / \
         Z1: / pushloc.v local.__yy_breakEx0 / conv.v.b / bf CONT / b END / \
         CONT: / pushi.e 1 / sub.i.i / dup.i 0 / bt L1 / END: / popz.i",
    );
}

/// Outside a `for`/`repeat`/`with` (here at the top level, and a `while` does not count) the
/// flags are set but not passed on; a break directly in a `switch` is not rewritten.
#[test]
fn break_outside_loops_and_in_switch() {
    // A break of a loop inside the try is rewritten before 2024.11 (it also sets the flag).
    v2023(
        "try { while (go) { break; } } catch (e) { }",
        "pushi.e 0 / pop.v.i local.__yy_breakEx0 / pushi.e 0 / pop.v.i local.__yy_continueEx0 / \
         push.i 172 / conv.i.v / push.i 136 / conv.i.v / call.i @@try_hook@@ 2 / popz.v / \
         W: / pushi.e 1 / bf WE / pushloc.v local.__yy_continueEx0 / conv.v.b / bf G / b WE / \
         G: / push.v self.go / conv.v.b / bf GE / pushi.e 1 / pop.v.i local.__yy_breakEx0 / \
         b GE / b G / GE: / b WE / b W / WE: / b SKIP / \
         pop.v.v local.e / call.i @@try_unhook@@ 0 / popz.v / \
         call.i @@finish_catch@@ 0 / popz.v / b AFTER / \
         SKIP: / call.i @@try_unhook@@ 0 / popz.v / AFTER:",
    );
    // 2024.11+: only escaping ones; the loop's own break stays a plain branch.
    compiles_to(
        17,
        2024,
        11,
        "try { while (go) { break; } } catch (e) { }",
        "push.i 100 / conv.i.v / push.i 64 / conv.i.v / call.i @@try_hook@@ 2 / popz.v / \
         G: / push.v builtin.go / conv.v.b / bf GE / b GE / b G / GE: / b SKIP / \
         pop.v.v local.e / call.i @@try_unhook@@ 0 / popz.v / \
         call.i @@finish_catch@@ 0 / popz.v / b AFTER / \
         SKIP: / call.i @@try_unhook@@ 0 / popz.v / AFTER:",
    );
    // Directly in a switch: the switch's own break.
    v2023(
        "try { switch (k) { default: break; } } catch (e) { }",
        "push.i 100 / conv.i.v / push.i 64 / conv.i.v / call.i @@try_hook@@ 2 / popz.v / \
         push.v self.k / b D / b S9 / D: / b S9 / S9: / popz.v / b SKIP / \
         pop.v.v local.e / call.i @@try_unhook@@ 0 / popz.v / \
         call.i @@finish_catch@@ 0 / popz.v / b AFTER / \
         SKIP: / call.i @@try_unhook@@ 0 / popz.v / AFTER:",
    );
}

/// Before 2024.6 a `throw` in a try with `finally` runs the finally body first when the try
/// has no catch (or the try block has an escape); from 2024.6 it does not.
#[test]
fn throw_with_finally_by_version() {
    let src = "try { throw 1; } finally { f = 2; }";
    let tail = |f: &str| {
        format!(
            "call.i @@try_unhook@@ 0 / popz.v / pushi.e 2 / pop.v.i {f}.f / \
             call.i @@finish_finally@@ 0 / popz.v / b N / N:"
        )
    };
    v2023(
        src,
        &format!(
            "push.i 64 / {HOOK_NO_CATCH} / pushi.e 2 / pop.v.i self.f / \
             pushi.e 1 / conv.i.v / call.i @@throw@@ 1 / {}",
            tail("self")
        ),
    );
    // (2024.2+ encodes the bare instance variable as builtin.)
    compiles_to(
        17,
        2024,
        6,
        src,
        &format!(
            "push.i 52 / {HOOK_NO_CATCH} / pushi.e 1 / conv.i.v / call.i @@throw@@ 1 / {}",
            tail("builtin")
        ),
    );
}

/// GameMaker refuses `return`, `exit`, `break` and `continue` that leave a finally block; a
/// loop inside the finally keeps its own.
#[test]
fn escapes_from_finally_are_errors() {
    let mut a = common::Asm::new(17, 2023, 1);
    let _ = a.asm("exit.i");
    let game = gmkit_gml::Game::new(&a.file);
    let names = gmkit_gml::compile::Names::new(&game);
    for src in [
        "try { } finally { exit; }",
        "try { } finally { return 1; }",
        "repeat (2) { try { } finally { break; } }",
        "repeat (2) { try { } finally { continue; } }",
    ] {
        let tree = gmkit_gml::parse::parse(src).expect("parses");
        let e = gmkit_gml::compile::compile_entry(&game, &names, 0, &tree)
            .expect_err(src)
            .to_string();
        assert!(e.contains("finally"), "{src}: {e}");
    }
    v2023(
        "try { } finally { while (w) { break; } }",
        &format!(
            "push.i 36 / {HOOK_NO_CATCH} / call.i @@try_unhook@@ 0 / popz.v / \
             W: / push.v self.w / conv.v.b / bf WE / b WE / b W / WE: / \
             call.i @@finish_finally@@ 0 / popz.v / b N / N:"
        ),
    );
}
