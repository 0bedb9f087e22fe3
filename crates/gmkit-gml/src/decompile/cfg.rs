//! The control-flow facts the structurer needs: byte address of each instruction, branch
//! targets as instruction indices, and loop heads (targets of backward branches) with their
//! latches.

use gmkit_data::chunks::code::{Instruction, Opcode};

/// Control-flow facts of one instruction sequence.
pub struct Cfg {
    /// Byte address of each instruction (relative to the first), plus the end address.
    pub addr: Vec<u32>,
    /// For each branch instruction, the index of its target (`None`: not a branch, or a target
    /// that is not an instruction boundary inside `0..=len`).
    pub target: Vec<Option<usize>>,
    /// Backward `b`/`bf` branches as (target, branch index), sorted: each target is the head
    /// of a while/for (`b`) or do-until (`bf`) loop.
    pub latches: Vec<(usize, usize)>,
    /// Basic-block leaders (instruction indices starting a block), ascending.
    #[allow(dead_code)]
    pub leaders: Vec<usize>,
}

impl Cfg {
    /// Computes the facts for `ins`.
    pub fn new(ins: &[Instruction]) -> Cfg {
        let mut addr = Vec::with_capacity(ins.len() + 1);
        let mut a = 0u32;
        for i in ins {
            addr.push(a);
            a = a.wrapping_add(i.size() as u32);
        }
        addr.push(a);
        let mut target = vec![None; ins.len()];
        let mut latches = Vec::new();
        let mut is_leader = vec![false; ins.len() + 1];
        is_leader[0] = true;
        for (i, x) in ins.iter().enumerate() {
            if let Instruction::Branch { op, offset } = *x {
                let t = addr[i] as i64 + offset as i64 * 4;
                let idx = if (0..=a as i64).contains(&t) {
                    addr.binary_search(&(t as u32)).ok()
                } else {
                    None
                };
                target[i] = idx;
                if let Some(t) = idx {
                    is_leader[t] = true;
                    is_leader[i + 1] = true;
                    if t <= i && matches!(op, Opcode::B | Opcode::Bf) {
                        latches.push((t, i));
                    }
                }
            }
        }
        latches.sort_unstable();
        let leaders = is_leader
            .iter()
            .enumerate()
            .filter(|(i, l)| **l && *i < ins.len())
            .map(|(i, _)| i)
            .collect();
        Cfg {
            addr,
            target,
            latches,
            leaders,
        }
    }

    /// Index of the instruction at byte address `a`.
    pub fn index_of(&self, a: u32) -> Option<usize> {
        self.addr.binary_search(&a).ok()
    }

    /// The loop latch for head `i` to use in a region ending at `end`: the last backward
    /// branch to `i` before `end`.
    pub fn latch(&self, i: usize, end: usize) -> Option<usize> {
        let lo = self.latches.partition_point(|&(h, _)| h < i);
        let hi = self.latches.partition_point(|&(h, _)| h <= i);
        self.latches[lo..hi]
            .iter()
            .rev()
            .map(|&(_, j)| j)
            .find(|&j| j < end)
    }
}
