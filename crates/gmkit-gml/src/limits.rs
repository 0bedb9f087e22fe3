//! Limits that keep hostile GML and bytecode from exhausting the stack or memory.
//!
//! Games, projects and `.gml` files come from strangers. Every syntax tree this crate builds (by
//! the parser from text, or by the decompiler from bytecode) is at most [`MAX_TREE_DEPTH`] levels
//! deep, counting every link of a chain (`a.b.c`, `1 + 2 + 3`, `f(g(h()))`) as a level. Every
//! recursive walk over a tree (folding, printing, compiling, structuring) enters each level
//! through [`deep`], which grows the stack on the heap when little is left, so no input can
//! overflow the stack of any thread, whatever its size (rayon's worker threads included).

/// Deepest syntax tree accepted from text or built from bytecode: a longer chain or deeper
/// nesting is an error naming where it starts. Real code stays far below (the deepest
/// expression of the corpus is a few hundred links, long string concatenations).
pub const MAX_TREE_DEPTH: usize = 4096;

/// Stack left below which [`deep`] switches to a new segment.
const RED_ZONE: usize = 128 * 1024;

/// Size of each new stack segment [`deep`] allocates.
const SEGMENT: usize = 2 * 1024 * 1024;

/// Runs `f`, first growing the stack if less than a red zone of it is left. Call it at the
/// entry of every recursive walk over a tree; the cost when the stack is ample is one
/// comparison.
#[inline]
pub fn deep<R>(f: impl FnOnce() -> R) -> R {
    stacker::maybe_grow(RED_ZONE, SEGMENT, f)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn depth(n: usize) -> usize {
        if n == 0 { 0 } else { deep(|| 1 + depth(n - 1)) }
    }

    #[test]
    fn deep_recursion_survives_a_small_thread_stack() {
        let h = std::thread::Builder::new()
            .stack_size(64 * 1024 * 4)
            .spawn(|| depth(200_000))
            .unwrap();
        assert_eq!(h.join().unwrap(), 200_000);
    }
}
