//! Array copy-on-write (spec `gml-bytecode.md` §4.8): with the option on (every 2.3 – 2022.1
//! game, later games that enable it), a statement that writes an array is preceded by
//! `push <owner id>; setowner.e`, skipped when the id equals the last one emitted on the path.
//!
//! The ids are GameMaker-internal (a per-function part and a per-variable number that no public
//! source derives), so they are taken from the game: the entry's own code maps each written
//! variable to its id; a variable the entry never wrote gets the entry's per-function part and
//! a number hashed from its name.

use super::Compiler;
use crate::Game;
use crate::ast::{Expr, Stmt};
use gmkit_data::chunks::code::{ExtendedKind, Instruction, Opcode, PushValue, RefType};
use std::collections::HashMap;

/// Functions whose direct calls write arrays.
const ARRAY_WRITERS: &[&str] = &[
    "array_set",
    "array_set_pre",
    "array_set_post",
    "array_set_2D",
    "array_set_2D_pre",
    "array_set_2D_post",
    "array_create",
    "@@NewGMLArray@@",
];

/// The owner ids of one code entry and the last id emitted on the current path.
#[derive(Default)]
pub(super) struct Owners {
    /// (code entry, written variable or `call:<function>`) → owner id, from the entry's code
    /// (nested functions have ids of their own).
    ids: HashMap<(String, String), i64>,
    /// The per-function part of each code entry's ids.
    base: HashMap<String, i64>,
    /// The id of the first `setowner.e` pair of each code entry (see `call_id`).
    pair: HashMap<String, i64>,
    /// The code entry (root or nested function) being compiled.
    context: String,
    /// The id last emitted on this path (`None`: unknown after a merge).
    pub last: Option<i64>,
    /// The id to set again right before the next array literal (the second of a call pair
    /// when the literal is in a branch of a `?:` argument).
    pub at_literal: Option<i64>,
    /// The entry's code repeats an id in straight-line code: this compiler generation does
    /// not skip repeated ids (seen in early 2.3 builds).
    repeats: bool,
    /// The id to set right before every array literal of the current statement (a call
    /// passing array literals).
    pub each_literal: Option<i64>,
}

impl Owners {
    /// Learns the ids of code `ins`: each `setowner.e` belongs to the variable the statement
    /// after it stores to (or to the array-writing call of a call statement).
    pub fn learn(game: &Game, root: usize, ins: &[Instruction]) -> Owners {
        let mut o = Owners {
            context: game.code_name(root).to_string(),
            ..Owners::default()
        };
        // Spans of the nested functions: from the child's first instruction to the target of
        // the `b` before it.
        let mut addr = Vec::with_capacity(ins.len() + 1);
        let mut a = 0i64;
        for x in ins {
            addr.push(a);
            a += x.size() as i64;
        }
        let mut spans: Vec<(usize, usize, String)> = Vec::new();
        for &(off, child) in game.children(root) {
            let Ok(s) = addr.binary_search(&(off as i64)) else {
                continue;
            };
            let Some(Instruction::Branch {
                op: Opcode::B,
                offset,
            }) = s.checked_sub(1).map(|p| ins[p])
            else {
                continue;
            };
            let to = addr[s - 1] + offset as i64 * 4;
            let e = addr.partition_point(|&x| x < to);
            spans.push((s, e, game.code_name(child).to_string()));
        }
        let context_of = |k: usize| -> String {
            spans
                .iter()
                .filter(|(s, e, _)| *s <= k && k < *e)
                .max_by_key(|(s, _, _)| *s)
                .map_or_else(|| o.context.clone(), |(_, _, n)| n.clone())
        };
        // Branch targets: where paths merge, the last id is unknown (GameMaker sets it
        // again), as after a branch.
        let mut targets = vec![false; ins.len() + 1];
        for (p, x) in ins.iter().enumerate() {
            if let Instruction::Branch { offset, .. } = x {
                let to = addr[p] + *offset as i64 * 4;
                if let Ok(t) = addr.binary_search(&to) {
                    targets[t] = true;
                }
            }
        }
        let mut prev: Option<i64> = None;
        for k in 1..ins.len() {
            if matches!(ins[k], Instruction::Branch { .. }) || targets[k] {
                prev = None;
            }
            if !matches!(
                ins[k],
                Instruction::Extended {
                    kind: ExtendedKind::SETOWNER,
                    ..
                }
            ) {
                continue;
            }
            let id = match ins[k - 1] {
                Instruction::Push {
                    value: PushValue::Int16(v),
                    ..
                } => v as i64,
                Instruction::Push {
                    value: PushValue::Int32(v),
                    ..
                } => v as i64,
                _ => continue,
            };
            let ctx = context_of(k);
            o.base.entry(ctx.clone()).or_insert(id & !0xFFFF);
            // `push id / setowner.e` twice in a row is the pair before a statement that passes
            // an array literal to a call (see `Compiler::set_owner`), not a repeat.
            let pair = matches!(ins.get(k + 2), Some(Instruction::Extended { kind, .. }) if *kind == ExtendedKind::SETOWNER)
                && ins.get(k + 1).is_some_and(|x| push_int(x) == Some(id));
            let second = k >= 3
                && matches!(ins[k - 2], Instruction::Extended { kind, .. } if kind == ExtendedKind::SETOWNER)
                && push_int(&ins[k - 3]) == Some(id);
            if prev == Some(id) && !pair && !second {
                o.repeats = true;
            }
            prev = Some(id);
            if pair || second {
                o.pair.entry(ctx).or_insert(id);
                continue;
            }
            let mut call = None;
            // The statement's own instructions: a nested function or struct body between
            // (`a[0] = { x: 1 }`: the owner is set before the struct's body) is not its store.
            let own = ins
                .iter()
                .enumerate()
                .skip(k + 1)
                .filter(|&(p, _)| {
                    !spans
                        .iter()
                        .any(|(s, e, _)| *s <= p && p < *e && !(*s <= k && k < *e))
                })
                .take(400);
            for (p, x) in own {
                let key = match x {
                    // `i++` / `++i` used as a value inside the statement (`a[i++] = v`) stores
                    // to `i` before the statement's own store.
                    Instruction::Pop { .. } if increment_as_value(ins, p) => continue,
                    // A struct literal's constructor registered in `static` on the way.
                    Instruction::Pop { var, .. }
                        if game.var_name(var.variable).starts_with("___struct___") =>
                    {
                        continue;
                    }
                    Instruction::Pop { var, .. } if var.ref_type == RefType::ARRAY => {
                        let dot = if array_store_through_dot(ins, p) {
                            "."
                        } else {
                            ""
                        };
                        format!("{dot}{}[]", game.var_name(var.variable))
                    }
                    // `v = array_create(n)`: the owner is the call's (variable part 0), as in a
                    // call statement (wild 2.3.2: fauxton3D sets the entry's per-function id
                    // there and a per-variable one for `v = [..]`).
                    Instruction::Pop { .. }
                        if call.as_deref().is_some_and(|c| {
                            ARRAY_WRITERS.contains(&c) && c != "@@NewGMLArray@@"
                        }) =>
                    {
                        format!("call:{}", call.take().unwrap_or_default())
                    }
                    Instruction::Pop { var, .. } => {
                        let dot = if matches!(var.instance.0, -1 | -7 | -6 | -15) {
                            ""
                        } else {
                            "."
                        };
                        format!("{dot}{}", game.var_name(var.variable))
                    }
                    Instruction::Push {
                        value: PushValue::Variable(var),
                        ..
                    } if var.ref_type == RefType::ARRAY_POP_AF => {
                        let dot = if array_store_through_dot(ins, p) {
                            "."
                        } else {
                            ""
                        };
                        format!("{dot}{}[]", game.var_name(var.variable))
                    }
                    Instruction::Call { function, .. } => {
                        call = Some(game.func_name(*function).to_string());
                        continue;
                    }
                    Instruction::Unary {
                        op: Opcode::Popz, ..
                    } => match call.take() {
                        Some(c) => format!("call:{c}"),
                        None => continue,
                    },
                    _ => continue,
                };
                o.ids.entry((ctx.clone(), key)).or_insert(id);
                break;
            }
        }
        o
    }

    /// The id for `key` (learnt for a plain target, else for a dot target); `None` when the
    /// entry's code never set an owner for `key` while one
    /// is known on this path (GameMaker shares ids between variables in some versions, so the
    /// statement then found its id already set).
    fn id(&self, key: &str) -> Option<i64> {
        if let Some(&id) = self.ids.get(&(self.context.clone(), key.to_string())) {
            return Some(id);
        }
        if let Some(&id) = self.ids.get(&(self.context.clone(), format!(".{key}"))) {
            return Some(id);
        }
        if self.fresh() {
            return Some(fresh_id(key, false));
        }
        if self.last.is_some() {
            return None;
        }
        // FNV-1a of the name, in the per-variable part.
        let h = fnv(key);
        let base = self.base.get(&self.context).copied().unwrap_or(0);
        Some(base | (h & 0xFFFF) as i64)
    }

    /// The id learnt for `key` as the owner of a target that is (`dot`) or is not a dot access:
    /// GameMaker adds the per-function part once more for `o.a[i]` (wild 2.3.2 / 2.3.6:
    /// `second_level` 165831 and `other.second_level` 231367; `alarm` 68102 and `oMenu.alarm`
    /// 133638, per-function part 65536), so the two forms are learnt apart; when the entry
    /// shows only the other form, its id is taken.
    fn for_target(&self, key: &str, dot: bool) -> Option<i64> {
        if self.fresh() {
            return Some(fresh_id(key, dot));
        }
        if dot {
            let k = format!(".{key}");
            if let Some(&id) = self.ids.get(&(self.context.clone(), k)) {
                return Some(id);
            }
        }
        self.id(key)
    }

    /// The id of a call's owner in the current function: its per-function part (the
    /// variable part is 0); `None` when the entry's code shows no owner for this function.
    fn call_id(&self) -> Option<i64> {
        if self.fresh() {
            return Some(FRESH_BASE);
        }
        let ctx = &self.context;
        self.pair
            .get(ctx)
            .or_else(|| {
                self.ids
                    .iter()
                    .find(|((c, k), _)| c == ctx && k.starts_with("call:"))
                    .map(|(_, id)| id)
            })
            .or_else(|| self.base.get(ctx))
            .copied()
    }

    /// Whether the current code entry's code showed no owner ids (new code, or a function
    /// that never wrote an array): its ids are then made as GameMaker makes them
    /// ([`fresh_id`]), one per written variable.
    fn fresh(&self) -> bool {
        !self.base.contains_key(&self.context)
    }

    /// Enters nested function `name` (its own ids, nothing known on its path); returns what
    /// [`Owners::leave`] restores.
    pub fn enter(&mut self, name: &str) -> (String, Option<i64>) {
        let saved = (
            std::mem::replace(&mut self.context, name.to_string()),
            self.last,
        );
        self.last = None;
        saved
    }

    /// Leaves a nested function (the body was jumped over: the outer path is unchanged).
    pub fn leave(&mut self, (context, last): (String, Option<i64>)) {
        self.context = context;
        self.last = last;
    }
}

/// The per-function part of the owner ids of code whose own ids are unknown (GameMaker's is
/// the function's index shifted by 16 bits; the first function's is taken).
const FRESH_BASE: i64 = 1 << 16;

/// The owner id of `key` in code whose ids are unknown (spec §4.8, 2.3.2+): the per-function
/// part, once more when the target is reached through a dot (`o.a[i]`, `a[i].b`), plus a
/// per-variable number (GameMaker-internal, above 100000: here from the variable's name, so
/// that every variable has its own and `a[i] = ..` and `o.a[j] = ..` share `a`'s). An
/// array-writing call's (`call:f`) has no variable part.
fn fresh_id(key: &str, dot: bool) -> i64 {
    if key.starts_with("call:") {
        return FRESH_BASE;
    }
    let name = key.trim_start_matches('.').trim_end_matches("[]");
    FRESH_BASE * (1 + i64::from(dot)) + 100_000 + i64::from(fnv(name) & 0x7FFF)
}

/// The variable a target writes (`a`, `o.a`, `a[i]` → `a[]`, `a[i][j]` → `a[]`, `a[i].b` →
/// `b`).
fn written(target: &Expr) -> Option<String> {
    crate::limits::deep(|| written_inner(target))
}

fn written_inner(target: &Expr) -> Option<String> {
    fn root(e: &Expr) -> Option<&str> {
        crate::limits::deep(|| root_inner(e))
    }

    fn root_inner(e: &Expr) -> Option<&str> {
        match e {
            Expr::Ident(n) | Expr::Member(_, n) => Some(n),
            Expr::Index(b, _) | Expr::Paren(b) => root(b),
            _ => None,
        }
    }
    match target {
        Expr::Ident(n) | Expr::Member(_, n) => Some(n.clone()),
        Expr::Index(b, _) => root(b).map(|n| format!("{n}[]")),
        Expr::Paren(x) => written(x),
        _ => None,
    }
}

/// The array-writing function (not an array literal) a value directly calls: `array_create(n)`.
fn writer_call(e: &Expr) -> Option<&str> {
    match e {
        Expr::Call(c, _) => match &**c {
            Expr::Ident(n) if ARRAY_WRITERS.contains(&n.as_str()) && n != "@@NewGMLArray@@" => {
                Some(n)
            }
            _ => None,
        },
        _ => None,
    }
}

/// Whether the variable a target writes is reached through a dot (`o.a`, `o.a[i]`).
fn through_dot(target: &Expr) -> bool {
    crate::limits::deep(|| match target {
        Expr::Member(..) => true,
        Expr::Index(b, _) | Expr::Paren(b) => through_dot(b),
        _ => false,
    })
}

pub(super) fn has_index(target: &Expr) -> bool {
    crate::limits::deep(|| has_index_inner(target))
}

fn has_index_inner(target: &Expr) -> bool {
    match target {
        Expr::Index(..) => true,
        Expr::Member(b, _) | Expr::Paren(b) => has_index(b),
        _ => false,
    }
}

/// An array literal or a direct call of an array-writing function in `e`, not looking into
/// the arguments of other calls or into functions.
fn makes_array(e: &Expr) -> bool {
    crate::limits::deep(|| makes_array_inner(e))
}

fn makes_array_inner(e: &Expr) -> bool {
    match e {
        Expr::Array(_) => true,
        Expr::Call(c, args) => {
            matches!(&**c, Expr::Ident(n) if ARRAY_WRITERS.contains(&n.as_str()))
                || args.iter().any(|a| matches!(a, Expr::Array(_)))
        }
        Expr::Paren(x) | Expr::Unary(_, x) => makes_array(x),
        Expr::Binary(_, l, r) => makes_array(l) || makes_array(r),
        Expr::Ternary(c, a, b) => makes_array(c) || makes_array(a) || makes_array(b),
        _ => false,
    }
}

/// Whether the array store at `p` (`pop.v.T [array]`, or the `push.v [arraypopaf]` of a
/// multi-dimensional one) writes through a dot: its instance
/// operand, pushed before a one-instruction index (optionally converted), is neither self
/// (-1) nor local (-7) nor an argument (-15). Unknown shapes count as no dot.
fn array_store_through_dot(ins: &[Instruction], p: usize) -> bool {
    let at = |d: usize| p.checked_sub(d).and_then(|i| ins.get(i));
    let d = if matches!(
        at(1),
        Some(Instruction::Binary {
            op: Opcode::Conv,
            ..
        })
    ) {
        3
    } else {
        2
    };
    match at(d) {
        Some(Instruction::Push {
            op: Opcode::PushI,
            value: PushValue::Int16(v),
        }) => !matches!(*v, -1 | -7 | -15),
        _ => false,
    }
}

/// Whether the store at `p` is the store of an increment whose value the statement uses
/// (`dup.v 0 / push.e 1 / add / pop` for `i++`, `push.e 1 / add / dup.v 0 / pop` for `++i`).
fn increment_as_value(ins: &[Instruction], p: usize) -> bool {
    let at = |d: usize| p.checked_sub(d).and_then(|i| ins.get(i));
    let dup = |x: Option<&Instruction>| {
        matches!(
            x,
            Some(Instruction::Dup {
                count: 0,
                extra: 0,
                ..
            })
        )
    };
    let one = |x: Option<&Instruction>| {
        matches!(
            x,
            Some(Instruction::Push {
                op: Opcode::Push,
                value: PushValue::Int16(1),
            })
        )
    };
    let step = |x: Option<&Instruction>| {
        matches!(
            x,
            Some(Instruction::Binary {
                op: Opcode::Add | Opcode::Sub,
                ..
            })
        )
    };
    (dup(at(1)) && step(at(2)) && one(at(3))) || (step(at(1)) && one(at(2)) && dup(at(3)))
}

/// The integer a `push` / `pushi` instruction pushes.
fn push_int(i: &Instruction) -> Option<i64> {
    match i {
        Instruction::Push {
            value: PushValue::Int16(v),
            ..
        } => Some(*v as i64),
        Instruction::Push {
            value: PushValue::Int32(v),
            ..
        } => Some(*v as i64),
        _ => None,
    }
}

/// A call (not of an array-writing function) with an array literal among its arguments.
fn passes_array_literal(e: &Expr) -> bool {
    match e {
        Expr::Call(c, args) => {
            !matches!(&**c, Expr::Ident(n) if ARRAY_WRITERS.contains(&n.as_str()))
                && args.iter().any(|a| matches!(a, Expr::Array(_)))
        }
        _ => false,
    }
}

/// A call (not an array writer) with an argument `c ? a : b` where `a` or `b` is an array
/// literal.
fn passes_literal_in_branch(e: &Expr) -> bool {
    let Expr::Call(c, args) = e else {
        return false;
    };
    !matches!(&**c, Expr::Ident(n) if ARRAY_WRITERS.contains(&n.as_str()))
        && args.iter().any(|a| {
            matches!(a, Expr::Ternary(_, x, y)
                if matches!(**x, Expr::Array(_)) || matches!(**y, Expr::Array(_)))
        })
}

/// FNV-1a of `s`.
fn fnv(s: &str) -> u32 {
    let mut h: u32 = 0x811c_9dc5;
    for b in s.bytes() {
        h = (h ^ b as u32).wrapping_mul(0x0100_0193);
    }
    h
}

impl Compiler<'_> {
    /// Emits `setowner.e` before statement `s` when it writes an array and the file uses
    /// copy-on-write.
    pub(super) fn set_owner(&mut self, s: &Stmt) {
        if !self.f().copy_on_write() {
            return;
        }
        self.owners.each_literal = None;
        // A call statement or an `if` condition that passes an array literal to a call:
        // the entry's per-function id (variable part 0) at the statement, and again right
        // before every array literal of it, nested ones too (corpus, 2.3.2: `array_push(list,
        // [a, b]);`, `if (f(x, ["a", "b"]))`; wild, 2.3.2: `m = f(["a", 0, [0, 1]], ["b"]);`).
        let passes = match s {
            Stmt::Expr(e) | Stmt::If(e, ..) => passes_array_literal(e),
            // Also as the value of a plain assignment (wild, 2.3.2: `menu =
            // create_menu_page(["EXIT", 0, exit_game]);`).
            Stmt::Assign {
                target,
                value,
                op: None,
            } if !has_index(target) => passes_array_literal(value),
            _ => false,
        };
        if passes {
            let Some(id) = self.owners.call_id() else {
                return;
            };
            // Code with no ids of its own: the owner right before each literal only (spec
            // §4.8: the array literal is what writes an array).
            if self.owners.fresh() {
                self.owners.each_literal = Some(id);
                self.owners.last = Some(id ^ (i64::from(fnv("")) << 32));
                return;
            }
            let tag = id ^ (i64::from(fnv("")) << 32);
            if self.owners.last != Some(tag) || self.owners.repeats {
                self.push_int(id);
                self.ext(ExtendedKind::SETOWNER);
            }
            // The owner again before each literal only where the entry's code shows such
            // pairs (2.3.2); later builds set it once (wild, 2023+ with copy-on-write:
            // `shader_set_uniform_f_array(u, [a, b]);`).
            if self.owners.pair.contains_key(&self.owners.context) {
                self.owners.each_literal = Some(id);
            }
            self.owners.last = Some(tag);
            return;
        }
        // `v = f(c ? x : [x])`: the pair's first at the statement, its second right before
        // the literal, inside the branch (corpus, 2.3.2: vendaval's
        // `texture = DefaultValue(is_array(t) ? t : [t], -1)`).
        if let Stmt::Assign { target, value, .. } = s
            && !has_index(target)
            && passes_literal_in_branch(value)
        {
            let learnt = written(target).and_then(|k| {
                self.owners
                    .ids
                    .get(&(self.owners.context.clone(), k))
                    .copied()
            });
            let Some(id) = learnt.or_else(|| self.owners.call_id()) else {
                return;
            };
            self.push_int(id);
            self.ext(ExtendedKind::SETOWNER);
            self.owners.last = Some(id ^ (i64::from(fnv("")) << 32));
            self.owners.at_literal = Some(id);
            return;
        }
        // `return [..]`: the per-function id (variable part 0), once (corpus, 2.3.2).
        if let Stmt::Return(Some(e)) = s
            && makes_array(e)
        {
            let Some(id) = self.owners.call_id() else {
                return;
            };
            if self.owners.last != Some(id) || self.owners.repeats {
                self.push_int(id);
                self.ext(ExtendedKind::SETOWNER);
            }
            self.owners.last = Some(id);
            return;
        }
        let mut dot = false;
        let key = match s {
            // `v = array_create(n)`: the call's owner (see `Owners::learn`).
            Stmt::Assign {
                target,
                value,
                op: None,
            } if !has_index(target) && writer_call(value).is_some() => {
                writer_call(value).map(|f| format!("call:{f}"))
            }
            Stmt::Assign { target, value, .. } if has_index(target) || makes_array(value) => {
                dot = through_dot(target);
                written(target)
            }
            Stmt::Update { target, .. } if has_index(target) => {
                dot = through_dot(target);
                written(target)
            }
            Stmt::Var(vars) => vars
                .iter()
                .find(|(_, v)| v.as_ref().is_some_and(makes_array))
                .map(|(n, v)| match v.as_ref().and_then(writer_call) {
                    Some(f) => format!("call:{f}"),
                    None => n.clone(),
                }),
            Stmt::Expr(Expr::Call(c, _)) => match &**c {
                Expr::Ident(n) if ARRAY_WRITERS.contains(&n.as_str()) => Some(format!("call:{n}")),
                _ => None,
            },
            _ => None,
        };
        let Some(key) = key else { return };
        let Some(id) = self.owners.for_target(&key, dot) else {
            return;
        };
        // The path's last owner as GameMaker compares it: a call statement's owner (its
        // per-variable part is 0) is told apart from another function's and from a
        // variable's of the same id (corpus: `array_create` then `array_set` in a loop
        // both emit it).
        let tag = match key.strip_prefix("call:") {
            Some(f) => id ^ (i64::from(fnv(f)) << 32),
            None => id,
        };
        if self.owners.last == Some(tag) && !self.owners.repeats {
            return;
        }
        self.owners.last = Some(tag);
        self.push_int(id);
        self.ext(ExtendedKind::SETOWNER);
    }
}
