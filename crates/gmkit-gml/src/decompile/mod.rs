//! Bytecode → syntax tree.
//!
//! The instructions of a code entry are split into regions by pattern (GameMaker lays blocks out
//! in source order and every construct has a fixed shape, spec §10): a region is walked
//! linearly, simulating the VM stack with expressions (the `stack` module); branches are recognised as
//! the construct they belong to (short-circuit chain, `if`/`?:`, loops, `switch`, `with`,
//! `repeat`, `??`, `static`, function declarations) and their sub-regions decompiled
//! recursively. What cannot be structured becomes a [`Stmt::Unstructured`] and is counted.

mod cfg;
pub(crate) mod names;
mod stack;
pub(crate) use stack::{dup_start, type_size};
mod tidy;

use crate::ast::{BinaryOp, Case, Expr, Function, Literal, Stmt, UnaryOp};
use crate::game::Game;
use crate::limits::MAX_TREE_DEPTH;
use cfg::Cfg;
use gmkit_data::chunks::code::{
    CodeBody, Comparison, DataType, ExtendedKind, InstanceType, Instruction, Opcode, PushValue,
};
use stack::{Size, Val};
use std::collections::HashMap;
use std::fmt::Write;

/// Most expression nodes one code entry may decompile into, copies made by `dup` included
/// (each `dup` of a value copies its whole tree, so 30 `dup`+`add` pairs would ask for 2^30
/// nodes). Real entries stay far below: the largest entry of the corpus builds about 11,000
/// nodes (and the deepest expression of the corpus is 40 levels).
pub const MAX_ENTRY_NODES: u64 = 1 << 20;

/// Highest argument index (`argumentN`) taken as an argument of a function: a call passes at
/// most 65,535 arguments (its count is 16 bits).
pub const MAX_ARGUMENT_INDEX: usize = u16::MAX as usize;

/// Stack the decompiler makes sure it has before starting (on a new segment when the calling
/// thread has less left): copying, comparing and dropping trees [`MAX_TREE_DEPTH`] deep is
/// recursive, at a few hundred bytes a level.
const TREE_STACK: usize = 4 << 20;

/// Runs `f` with at least [`TREE_STACK`] of stack.
fn with_tree_stack<R>(f: impl FnOnce() -> R) -> R {
    stacker::maybe_grow(TREE_STACK, TREE_STACK * 2, f)
}

/// The decompilation of one code entry. Dropping it is safe on any thread, however small its
/// stack: a body as decompiled with deep expressions, or dropped where little stack is left,
/// is dropped on a stack of `TREE_STACK` bytes (a tree made deeper after decompiling is the
/// caller's to drop safely).
#[derive(Clone, Debug, PartialEq)]
pub struct Decompiled {
    /// The statements of the entry (for a function entry: its body).
    pub body: Vec<Stmt>,
    /// Constructs that could not be structured (each is a [`Stmt::Unstructured`] or a marked
    /// placeholder expression in `body`).
    pub failures: usize,
    /// What failed, one line each.
    pub failure_notes: Vec<String>,
    /// The deepest expression of `body` (statement nesting is bounded by `MAX_DEPTH`
    /// regions): whether dropping it needs a stack of its own.
    deepest: u32,
}

/// Deepest expression a [`Decompiled`] drops on the calling thread's stack (when at least
/// [`SHALLOW_STACK`] of it is left): a few hundred bytes a level, with at most `MAX_DEPTH`
/// nested statements, stays far below. Deeper results are dropped on a stack of
/// [`TREE_STACK`] bytes; allocating that segment for every entry would cost more than the
/// decompilation of a typical one.
const SHALLOW_DEPTH: u32 = 256;

/// Stack a shallow [`Decompiled`] needs left on the calling thread to be dropped there.
const SHALLOW_STACK: usize = 1 << 20;

impl Drop for Decompiled {
    fn drop(&mut self) {
        let body = std::mem::take(&mut self.body);
        if body.is_empty() {
            return;
        }
        let room = stacker::remaining_stack().is_some_and(|r| r >= SHALLOW_STACK);
        if self.deepest <= SHALLOW_DEPTH && room {
            drop(body);
        } else {
            with_tree_stack(move || drop(body));
        }
    }
}

/// Why an entry could not be decompiled at all.
#[derive(Debug, thiserror::Error)]
pub enum DecompileError {
    /// The data file has no CODE chunk.
    #[error("the data file has no code (no CODE chunk, or a YYC build)")]
    NoCode,
    /// No such entry.
    #[error("no code entry #{0}")]
    NoEntry(usize),
    /// The bytecode did not decode.
    #[error("code entry {name}: {source}")]
    Decode {
        /// Entry name (quoted, control characters escaped, shortened).
        name: String,
        /// The decoding error.
        source: Box<gmkit_data::Error>,
    },
    /// The entry would decompile into a tree past a limit ([`MAX_TREE_DEPTH`],
    /// [`MAX_ENTRY_NODES`]).
    #[error("code entry {name}: {what}")]
    Limit {
        /// Entry name (control characters escaped, shortened).
        name: String,
        /// Which limit, and the instruction (index and byte offset) where it was passed.
        what: String,
    },
}

/// `s` for a one-line message: quoted, control characters escaped, at most 120 characters.
pub(crate) fn quoted(s: &str) -> String {
    gmkit_data::text::quoted(s, 120)
}

/// Decompiles code entry `entry` (a root entry with its nested functions in place; a child
/// entry as its own function body).
pub fn decompile_entry(game: &Game, entry: usize) -> Result<Decompiled, DecompileError> {
    with_tree_stack(|| decompile_entry_here(game, entry))
}

fn decompile_entry_here(game: &Game, entry: usize) -> Result<Decompiled, DecompileError> {
    decompile_entry_raw(game, entry, true)
}

/// The kinds the naming pass gives the locals of code entry `entry` (empty when it does not
/// decompile): what [`crate::assets`] needs to follow asset numbers through locals as the
/// decompiler names them.
pub(crate) fn entry_local_kinds(
    game: &Game,
    entry: usize,
) -> std::collections::HashMap<String, crate::builtins::Kind> {
    with_tree_stack(|| match decompile_entry_raw(game, entry, false) {
        Ok(d) => names::local_kinds(game, Some(entry), &d.body),
        Err(_) => Default::default(),
    })
}

fn decompile_entry_raw(
    game: &Game,
    entry: usize,
    name: bool,
) -> Result<Decompiled, DecompileError> {
    let code = game.file.code.as_ref().ok_or(DecompileError::NoCode)?;
    let e = code
        .entries
        .get(entry)
        .ok_or(DecompileError::NoEntry(entry))?;
    let root = match e.body {
        CodeBody::Shared { parent } => parent as usize,
        _ => entry,
    };
    let ins = code
        .instructions(root)
        .map_err(|source| DecompileError::Decode {
            name: quoted(game.code_name(entry)),
            source: Box::new(source),
        })?;
    let mut d = Dec::new(game, &ins, root);
    let body = if root == entry {
        let b = d.region(0, ins.len(), &mut Vec::new(), &mut Vec::new());
        d.finish_scope(b, false)
    } else {
        let start = d.cfg.index_of(e.execution_offset);
        match start {
            Some(s) => {
                let end = d.function_end(s);
                let f = d.function_body(s, end, entry);
                f.body
            }
            None => {
                d.failures += 1;
                d.notes
                    .push("child entry offset is not an instruction".into());
                vec![Stmt::Unstructured(
                    "child entry offset is not an instruction".into(),
                )]
            }
        }
    };
    if let Some(what) = d.limit.take() {
        return Err(DecompileError::Limit {
            name: quoted(game.code_name(entry)),
            what,
        });
    }
    let mut body = body;
    if let Some(f) = game.names_file() {
        let script = game.code_name(entry).strip_prefix("gml_Script_");
        crate::names_file::name_literals(f, script, game.enum_int64(), &mut body);
    }
    if name {
        names::name_values(game, Some(entry), &mut body);
    }
    if game.file.version.at_least(2, 0) && !game.name_index().own_real {
        tidy::dnd_reals(&mut body);
    }
    tidy::builtin_array_names(&mut body);
    if let Some(f) = game.names_file() {
        crate::names_file::name_parameters(f, &mut body);
    }
    Ok(Decompiled {
        body,
        failures: d.failures,
        failure_notes: d.notes,
        deepest: d.deepest,
    })
}

/// Decompiles an instruction sequence without a data file's child entries (for tests and
/// tools): names come from `game`.
/// A limit passed ([`DecompileError::Limit`]) gives a body of one unstructured statement
/// saying which.
pub fn decompile_instructions(game: &Game, ins: &[Instruction]) -> Decompiled {
    with_tree_stack(|| decompile_instructions_here(game, ins))
}

fn decompile_instructions_here(game: &Game, ins: &[Instruction]) -> Decompiled {
    let mut d = Dec::new(game, ins, usize::MAX);
    let b = d.region(0, ins.len(), &mut Vec::new(), &mut Vec::new());
    let mut body = d.finish_scope(b, false);
    if let Some(what) = d.limit.take() {
        body = vec![Stmt::Unstructured(what.clone())];
        d.failures += 1;
        d.notes.push(what);
    } else {
        names::name_values(game, None, &mut body);
    }
    Decompiled {
        body,
        failures: d.failures,
        failure_notes: d.notes,
        deepest: d.deepest,
    }
}

/// What a `break`/`continue` inside a construct jumps to.
#[derive(Clone, Copy, Debug)]
enum Ctx {
    /// A loop: `break` → `brk`; `continue` → `cont`, or anywhere in `head..=latch` when
    /// `cont` is `None` (do-until, whose condition start is not known in advance).
    Loop {
        head: usize,
        latch: usize,
        brk: usize,
        cont: Option<usize>,
    },
    /// A switch: `break` → `brk`; `continue` → `cont` (the cleanup block), if any.
    Switch { brk: usize, cont: Option<usize> },
}

/// Per-function facts collected while decompiling its body.
#[derive(Default)]
struct Scope {
    /// Locals in order of first use.
    locals: Vec<String>,
    /// Highest named-argument index used + 1.
    args: usize,
    /// A 2.3+ function body (named arguments are `argN`, see [`param_name`]).
    function: bool,
    /// The locals this scope's own code names (nested functions aside): an instance
    /// variable of the same name is written `self.name`.
    own_locals: std::collections::HashSet<String>,
    /// The value saved in `$$$$temp$$$$` (return through cleanup).
    temp: Option<Expr>,
    /// Parent constructor call seen (`: Parent(args)`).
    inherits: Option<(String, Vec<Expr>)>,
    /// Loop continue targets seen that were not the loop head (for-loop steps).
    for_steps: HashMap<usize, usize>,
    /// The function's parameter count from its code entry header, when known: a built-in
    /// `argumentK` read past it is the written `argumentK`, not a parameter.
    declared: Option<usize>,
}

struct Dec<'g, 'i> {
    game: &'g Game<'g>,
    ins: &'i [Instruction],
    cfg: Cfg,
    /// Instruction index → child entry index (function bodies starting there).
    child_at: HashMap<usize, usize>,
    /// Decompiled nested functions (and their sizes) by code entry name.
    functions: HashMap<String, (Function, Size)>,
    scopes: Vec<Scope>,
    failures: usize,
    notes: Vec<String>,
    next_dup: u32,
    depth: usize,
    /// Sizes of the values popped by the instruction being simulated.
    took: Size,
    /// Expression nodes built so far (against [`MAX_ENTRY_NODES`]).
    nodes: u64,
    /// Deepest expression built so far.
    deepest: u32,
    /// The first limit passed: decompilation stops and the entry fails with this.
    limit: Option<String>,
}

/// Recursion limit for nested constructs (hostile input).
const MAX_DEPTH: usize = 200;

impl<'g, 'i> Dec<'g, 'i> {
    fn new(game: &'g Game<'g>, ins: &'i [Instruction], root: usize) -> Self {
        let cfg = Cfg::new(ins);
        let mut child_at = HashMap::new();
        for &(off, e) in game.children(root) {
            if let Some(i) = cfg.index_of(off) {
                child_at.entry(i).or_insert(e);
            }
        }
        let mut d = Dec {
            game,
            ins,
            cfg,
            child_at,
            functions: HashMap::new(),
            scopes: vec![Scope::default()],
            failures: 0,
            notes: Vec::new(),
            next_dup: 1,
            depth: 0,
            took: Size::default(),
            nodes: 0,
            deepest: 0,
            limit: None,
        };
        d.scopes[0].own_locals = d.own_locals(0, ins.len());
        d
    }

    /// Where instruction `at` is, for messages.
    fn place(&self, at: usize) -> String {
        match self.cfg.addr.get(at) {
            Some(a) => format!("instruction {at} (byte offset {a})"),
            None => format!("instruction {at}"),
        }
    }

    /// Stops decompiling with `what` at instruction `at` (the first limit passed is kept).
    fn stop(&mut self, what: String, at: usize) {
        if self.limit.is_none() {
            self.limit = Some(format!("{what} at {}", self.place(at)));
        }
    }

    /// Nodes that may still be built.
    fn room(&self) -> u64 {
        MAX_ENTRY_NODES.saturating_sub(self.nodes)
    }

    /// Counts `n` new nodes built at instruction `at`; false (and the entry stops) past
    /// [`MAX_ENTRY_NODES`].
    fn charge(&mut self, n: u64, at: usize) -> bool {
        if n > self.room() {
            self.nodes = MAX_ENTRY_NODES;
            self.stop(
                format!("expressions past the limit of {MAX_ENTRY_NODES} nodes"),
                at,
            );
            return false;
        }
        self.nodes += n;
        true
    }

    /// Notes a tree of `size` built at `at`; past [`MAX_TREE_DEPTH`] the entry stops.
    fn check_depth(&mut self, size: Size, at: usize) -> bool {
        self.deepest = self.deepest.max(size.depth);
        if size.depth as usize > MAX_TREE_DEPTH {
            self.stop(
                format!("an expression deeper than {MAX_TREE_DEPTH} levels"),
                at,
            );
            return false;
        }
        true
    }

    /// The number of arguments a call at `at` can take: `argc`, or what the stack holds when
    /// that is fewer (a failure, noted once).
    fn arg_count(&mut self, argc: u16, stack: &[Val], at: usize) -> usize {
        let argc = argc as usize;
        if argc > stack.len() {
            self.fail_expr(
                &format!(
                    "a call with {argc} arguments where the stack holds {}",
                    stack.len()
                ),
                at,
            );
            return stack.len();
        }
        argc
    }

    fn scope(&mut self) -> &mut Scope {
        if self.scopes.is_empty() {
            self.scopes.push(Scope::default());
        }
        self.scopes.last_mut().expect("one scope")
    }

    fn fail(&mut self, what: &str, from: usize, to: usize) -> Stmt {
        self.failures += 1;
        let mut s = format!("{what} (instructions {from}..{to})");
        self.notes.push(s.clone());
        let to = to.min(self.ins.len()).min(from + 40);
        for k in from.min(to)..to {
            let _ = write!(s, "\n{:5}: {}", k, self.ins[k].display(self.game.file));
        }
        Stmt::Unstructured(s)
    }

    fn fail_expr(&mut self, what: &str, at: usize) -> Expr {
        self.failures += 1;
        self.notes.push(format!("{what} (instruction {at})"));
        Expr::Ident("__gmkit_unknown__".into())
    }

    fn target(&self, i: usize) -> Option<usize> {
        self.cfg.target.get(i).copied().flatten()
    }

    fn is_branch(&self, i: usize, op: Opcode) -> bool {
        matches!(self.ins.get(i), Some(Instruction::Branch { op: o, .. }) if *o == op)
    }

    /// Declares the scope's locals (at their first assignment, or at the top), recovers `for`
    /// loops and closes the scope.
    fn finish_scope(&mut self, mut body: Vec<Stmt>, function: bool) -> Vec<Stmt> {
        let scope = self.scopes.pop().unwrap_or_default();
        if function && matches!(body.last(), Some(Stmt::Exit)) {
            body.pop();
        }
        tidy::try_escapes(&mut body);
        tidy::for_loops(&mut body);
        let locals: Vec<String> = scope
            .locals
            .into_iter()
            .filter(|n| n != "$$$$temp$$$$" && n != "arguments")
            .filter(|n| !tidy::is_try_flag(n) || body.iter().any(|s| tidy::stmt_mentions(s, n)))
            .filter(|n| !tidy::only_caught(&body, n))
            .collect();
        tidy::place_vars(body, locals)
    }

    /// The names of the locals `start..end` reads or writes, nested function bodies aside.
    fn own_locals(&self, start: usize, end: usize) -> std::collections::HashSet<String> {
        let mut out = std::collections::HashSet::new();
        let end = end.min(self.ins.len());
        let mut i = start;
        while i < end {
            if i > start && self.child_at.contains_key(&i) {
                let e = self.function_end(i);
                if e > i {
                    i = e;
                    continue;
                }
            }
            if let Some(v) = self.ins[i].variable_ref()
                && v.instance == InstanceType::LOCAL
            {
                out.insert(self.game.var_name(v.variable).to_string());
            }
            i += 1;
        }
        out
    }

    /// The end of the function body starting at `start`: the target of the jump-over branch
    /// just before it.
    fn function_end(&self, start: usize) -> usize {
        if start > 0
            && self.is_branch(start - 1, Opcode::B)
            && let Some(t) = self.target(start - 1)
            && t > start
        {
            return t;
        }
        self.ins.len()
    }

    /// Decompiles a nested function body `start..end` (child entry `entry`).
    fn function_body(&mut self, start: usize, end: usize, entry: usize) -> Function {
        let own_locals = self.own_locals(start, end);
        let header = self
            .game
            .file
            .code
            .as_ref()
            .and_then(|c| c.entries.get(entry))
            .map(|e| e.arguments_count as usize);
        self.scopes.push(Scope {
            function: true,
            own_locals: own_locals.clone(),
            declared: header,
            ..Scope::default()
        });
        let body = self.region(start, end, &mut Vec::new(), &mut Vec::new());
        let args = self.scopes.last().map_or(0, |s| s.args);
        let declared = header.unwrap_or(0);
        let inherits = self.scopes.last_mut().and_then(|s| s.inherits.take());
        let body = self.finish_scope(body, true);
        let (params, body) = extract_defaults(body, args.max(declared), &own_locals);
        Function {
            name: None,
            params,
            inherits,
            constructor: false,
            body,
            at: crate::ast::SourceAt::default(),
        }
    }

    /// Decompiles `start..end` as statements; values left on `stack` stay there.
    fn region(
        &mut self,
        start: usize,
        end: usize,
        stack: &mut Vec<Val>,
        ctx: &mut Vec<Ctx>,
    ) -> Vec<Stmt> {
        crate::limits::deep(|| self.region_here(start, end, stack, ctx))
    }

    fn region_here(
        &mut self,
        start: usize,
        end: usize,
        stack: &mut Vec<Val>,
        ctx: &mut Vec<Ctx>,
    ) -> Vec<Stmt> {
        let mut out = Vec::new();
        if self.depth > MAX_DEPTH {
            out.push(self.fail("nesting too deep", start, end));
            return out;
        }
        self.depth += 1;
        let end = end.min(self.ins.len());
        let mut i = start;
        while i < end && self.limit.is_none() {
            // Loops whose head is here.
            if let Some(j) = self.cfg.latch(i, end) {
                i = self.do_loop(i, j, stack, ctx, &mut out);
                continue;
            }
            i = self.step(i, end, stack, ctx, &mut out);
        }
        self.depth -= 1;
        out
    }

    /// Decompiles `start..end` as one expression.
    fn expr_region(&mut self, start: usize, end: usize, ctx: &mut Vec<Ctx>) -> Expr {
        self.value_region(start, end, ctx).e
    }

    /// Decompiles `start..end` as one value.
    fn value_region(&mut self, start: usize, end: usize, ctx: &mut Vec<Ctx>) -> Val {
        let mut st = Vec::new();
        let stmts = self.region(start, end, &mut st, ctx);
        match st.pop() {
            Some(v) if stmts.is_empty() && st.is_empty() => v,
            _ => Val::sized(
                self.fail_expr("expression region did not leave one value", start),
                DataType::Variable,
                Size::LEAF,
            ),
        }
    }

    fn do_loop(
        &mut self,
        head: usize,
        latch: usize,
        stack: &mut Vec<Val>,
        ctx: &mut Vec<Ctx>,
        out: &mut Vec<Stmt>,
    ) -> usize {
        let after = latch + 1;
        if self.is_branch(latch, Opcode::Bf) {
            // do … until (cond): the condition is the value left at the latch.
            ctx.push(Ctx::Loop {
                head,
                latch,
                brk: after,
                cont: None,
            });
            let mut st = Vec::new();
            let body = self.region(head, latch, &mut st, ctx);
            ctx.pop();
            let cond = match st.pop() {
                Some(v) => v.e,
                None => self.fail_expr("do-until without a condition", latch),
            };
            out.push(Stmt::DoUntil(body, cond));
            return after;
        }
        // while / for: the first `bf` to just after the latch ends the condition.
        let exit =
            (head..latch).find(|&k| self.is_branch(k, Opcode::Bf) && self.target(k) == Some(after));
        let (cond, body_start) = match exit {
            Some(c) => (self.expr_region(head, c, ctx), c + 1),
            None => (Expr::Lit(Literal::Bool(true)), head),
        };
        ctx.push(Ctx::Loop {
            head,
            latch,
            brk: after,
            cont: Some(head),
        });
        let mut st = Vec::new();
        let mut body = self.region(body_start, latch, &mut st, ctx);
        ctx.pop();
        let step = self.scope().for_steps.remove(&head);
        if step == Some(latch) {
            // `continue` jumps to the latch itself: a `for` loop with an empty step
            // (`for (; cond; )`), whose `continue` goes to where the step would be.
            out.push(Stmt::For(None, Some(cond), None, body));
            return after;
        }
        if let Some(step) = step.filter(|&s| s > body_start && s < latch) {
            // `continue` jumps to the step: a for loop.
            ctx.push(Ctx::Loop {
                head,
                latch,
                brk: after,
                cont: Some(step),
            });
            let mut st = Vec::new();
            body = self.region(body_start, step, &mut st, ctx);
            let mut st2 = Vec::new();
            let mut steps = self.region(step, latch, &mut st2, ctx);
            ctx.pop();
            self.scope().for_steps.remove(&head);
            // A `for` header holds one simple statement or `exit` as its step (never a block).
            match steps.as_slice() {
                [Stmt::Assign { .. } | Stmt::Update { .. } | Stmt::Expr(_) | Stmt::Exit] => {
                    let step_stmt = steps.pop().map(Box::new);
                    out.push(Stmt::For(None, Some(cond), step_stmt, body));
                }
                _ => out.push(self.fail(
                    "a loop whose continue target is not one simple statement",
                    head,
                    after,
                )),
            }
        } else {
            out.push(Stmt::While(cond, body));
        }
        let _ = stack;
        after
    }

    /// Classifies an unconditional forward/backward jump that no construct claimed.
    fn jump(&mut self, i: usize, t: usize, ctx: &[Ctx]) -> Option<Stmt> {
        let s = self.break_or_continue(t, ctx);
        if s.is_none() && t == i + 1 {
            return Some(Stmt::Block(Vec::new()));
        }
        s
    }

    fn break_or_continue(&mut self, t: usize, ctx: &[Ctx]) -> Option<Stmt> {
        self.loop_exit(t, ctx, false)
    }

    /// [`Self::break_or_continue`] for a jump that is surely one: to a loop's or switch's
    /// exit or continue target, or to a loop step or do-until condition (straight code up to
    /// the latch), not into the middle of its body.
    fn plain_break_or_continue(&mut self, t: usize, ctx: &[Ctx]) -> Option<Stmt> {
        self.loop_exit(t, ctx, true)
    }

    /// The `break` or `continue` a jump to `t` is inside the innermost enclosing loop or
    /// switch of `ctx`. A jump into a loop's step or do-until condition counts as `continue`;
    /// with `straight`, only when the code from `t` to the latch has no branch (short straight
    /// code, not the middle of the body).
    fn loop_exit(&mut self, t: usize, ctx: &[Ctx], straight: bool) -> Option<Stmt> {
        let reaches_latch = |d: &Self, from: usize, to: usize| {
            !straight
                || (to.saturating_sub(from) <= 16
                    && (from..to)
                        .all(|k| !matches!(d.ins.get(k), Some(Instruction::Branch { .. }))))
        };
        for c in ctx.iter().rev() {
            match *c {
                Ctx::Switch { brk, cont } => {
                    if t == brk {
                        return Some(Stmt::Break);
                    }
                    if Some(t) == cont {
                        return Some(Stmt::Continue);
                    }
                }
                Ctx::Loop {
                    head,
                    latch,
                    brk,
                    cont,
                } => {
                    if t == brk {
                        return Some(Stmt::Break);
                    }
                    return match cont {
                        Some(c) if t == c => Some(Stmt::Continue),
                        Some(c)
                            if c == head
                                && t > head
                                && t <= latch
                                && reaches_latch(self, t, latch) =>
                        {
                            self.scope().for_steps.insert(head, t);
                            Some(Stmt::Continue)
                        }
                        None if t >= head && t <= latch && reaches_latch(self, t, latch) => {
                            Some(Stmt::Continue)
                        }
                        _ => None,
                    };
                }
            }
        }
        None
    }

    /// One instruction (or one construct starting at it). Returns the next index.
    fn step(
        &mut self,
        i: usize,
        end: usize,
        stack: &mut Vec<Val>,
        ctx: &mut Vec<Ctx>,
        out: &mut Vec<Stmt>,
    ) -> usize {
        let ins = self.ins[i];
        match ins {
            Instruction::Branch { op, .. } => {
                let Some(t) = self.target(i) else {
                    out.push(self.fail("branch to no instruction", i, i + 1));
                    return i + 1;
                };
                match op {
                    Opcode::Bf | Opcode::Bt => self.conditional(i, t, end, op, stack, ctx, out),
                    Opcode::B => {
                        if let Some(&child) = self.child_at.get(&(i + 1))
                            && t > i + 1
                        {
                            let (nodes, deepest) = (self.nodes, self.deepest);
                            self.deepest = 0;
                            let f = self.function_body(i + 1, t, child);
                            // A literal's size: its statements' trees, a level each deeper
                            // (statement nesting, at most `MAX_DEPTH`, is bounded apart).
                            let size = Size {
                                depth: self.deepest.saturating_add(2),
                                nodes: self.nodes - nodes + 1,
                            };
                            self.deepest = self.deepest.max(deepest);
                            let name = self.game.code_name(child).to_string();
                            self.functions.insert(name, (f, size));
                            return t;
                        }
                        if let Some(next) = self.empty_switch(i, t, end, stack, ctx, out) {
                            return next;
                        }
                        match self.jump(i, t, ctx) {
                            Some(Stmt::Block(b)) if b.is_empty() => {}
                            Some(s) => {
                                self.flush(stack, out);
                                out.push(s)
                            }
                            None => out.push(self.fail("jump that is no break/continue", i, i + 1)),
                        }
                        i + 1
                    }
                    Opcode::PushEnv => self.with(i, t, stack, ctx, out),
                    // A stray popenv (the loop-back of a with handled elsewhere).
                    _ => i + 1,
                }
            }
            Instruction::Dup {
                t,
                count: 0,
                extra: 0,
            } => {
                if let Some(next) = self.try_switch(i, end, t, stack, ctx, out) {
                    return next;
                }
                if let Some(next) = self.try_repeat(i, stack, ctx, out) {
                    return next;
                }
                self.sim(i, stack, out);
                i + 1
            }
            Instruction::Extended { kind, .. } if kind == ExtendedKind::ISSTATICOK => {
                if self.is_branch(i + 1, Opcode::Bt)
                    && let Some(t) = self.target(i + 1)
                    && t > i + 1
                    && t <= end
                {
                    let mut st = Vec::new();
                    let inits = self.region(i + 2, t, &mut st, ctx);
                    let mut statics = Vec::new();
                    for s in inits {
                        match s {
                            Stmt::Assign {
                                target: Expr::Ident(n),
                                op: None,
                                value,
                            } => statics.push((n, value)),
                            Stmt::Function(f) => {
                                let n = f.name.clone().unwrap_or_default();
                                statics.push((n, Expr::Function(Box::new(f))));
                            }
                            other => out.push(other),
                        }
                    }
                    if !statics.is_empty() {
                        out.push(Stmt::Static(statics));
                    }
                    return t;
                }
                out.push(self.fail("isstaticok without its branch", i, i + 2));
                i + 1
            }
            Instruction::Call {
                function, argc: 2, ..
            } if self.game.func_name(function) == "@@try_hook@@" => {
                self.try_catch(i, end, stack, ctx, out)
            }
            Instruction::Extended { kind, .. } if kind == ExtendedKind::CHKNULLISH => {
                self.nullish(i, end, stack, ctx, out)
            }
            _ => {
                self.sim(i, stack, out);
                i + 1
            }
        }
    }

    /// Statement-level values left before a jump: calls become statements.
    fn flush(&mut self, stack: &mut [Val], out: &mut Vec<Stmt>) {
        let _ = (stack, out);
    }

    #[allow(clippy::too_many_arguments)]
    fn conditional(
        &mut self,
        i: usize,
        t: usize,
        end: usize,
        op: Opcode,
        stack: &mut Vec<Val>,
        ctx: &mut Vec<Ctx>,
        out: &mut Vec<Stmt>,
    ) -> usize {
        let (cond, cond_size) = match stack.pop() {
            Some(v) => (v.e, v.size),
            None => (self.fail_expr("condition missing", i), Size::LEAF),
        };
        if t <= i {
            out.push(self.fail("backward conditional branch", i, i + 1));
            return i + 1;
        }
        // Short-circuit chain: landing block `push.e 0|1` preceded by `b landing+1`.
        if let Some(v) = self.landing_value(t)
            && t > i + 1
            && self.is_branch(t - 1, Opcode::B)
            && self.target(t - 1) == Some(t + 1)
        {
            let (and, want) = (v == 0, if v == 0 { Opcode::Bf } else { Opcode::Bt });
            if (op == Opcode::Bf) == and {
                let bop = if and { BinaryOp::And } else { BinaryOp::Or };
                // A first operand that is itself a finished chain of the same operator had its
                // own landing block: keep it apart (`(a && b) && c`).
                let mut acc = match cond {
                    e @ Expr::Binary(o, ..) if o == bop => Expr::Paren(Box::new(e)),
                    e => e,
                };
                let mut size = Size::above(1, &[cond_size]);
                let mut p = i + 1;
                loop {
                    let q = (p..t - 1)
                        .find(|&k| self.is_branch(k, want) && self.target(k) == Some(t))
                        .unwrap_or(t - 1);
                    let operand = self.value_region(p, q, ctx);
                    size = Size::above(1, &[size, operand.size]);
                    self.charge(1, q);
                    if !self.check_depth(size, q) {
                        break;
                    }
                    acc = Expr::Binary(bop, Box::new(acc), Box::new(operand.e));
                    if q >= t - 1 || self.limit.is_some() {
                        break;
                    }
                    p = q + 1;
                }
                stack.push(Val::sized(acc, DataType::Boolean, size));
                return t + 1;
            }
        }
        let cond = if op == Opcode::Bt { negate(cond) } else { cond };
        // `if (c) continue;` / `if (c) break;`: the then-arm is one jump of the enclosing loop
        // (the same code as an empty then-arm with an else that runs to the loop's end).
        if t == i + 2
            && t <= end
            && self.is_branch(i + 1, Opcode::B)
            && let Some(m) = self.target(i + 1)
            && m > i + 1
            && let Some(s) = self.plain_break_or_continue(m, ctx)
        {
            out.push(Stmt::If(cond, vec![s], None));
            return t;
        }
        if t > end {
            // A conditional exit from the region: `if (!c) break;` style.
            if let Some(s) = self.jump(i, t, ctx) {
                out.push(Stmt::If(negate(cond), vec![s], None));
                return i + 1;
            }
            out.push(self.fail("conditional branch out of its region", i, i + 1));
            return i + 1;
        }
        // Two arms: the then-arm ends with a forward jump over the else-arm.
        let else_jump = (t > i + 1 && self.is_branch(t - 1, Opcode::B))
            .then(|| self.target(t - 1))
            .flatten()
            // The jump over an else-arm belongs to the innermost if ending at t: when another
            // conditional inside jumps to t, the jump is the last statement of the then-arm
            // (`if (a) { if (c) continue; }`: `bf t; …; bf t; b cont; t:`), and for an empty
            // else (`b` to the next instruction) it belongs to that inner if.
            .filter(|&m| {
                (m > t && m <= end || m == t)
                    && !(i + 1..t - 1).any(|k| {
                        (self.is_branch(k, Opcode::Bf) || self.is_branch(k, Opcode::Bt))
                            && self.target(k) == Some(t)
                    })
            });
        match else_jump {
            Some(m) => {
                let mut st_a = Vec::new();
                let a = self.region(i + 1, t - 1, &mut st_a, ctx);
                let mut st_b = Vec::new();
                let b = self.region(t, m, &mut st_b, ctx);
                if a.is_empty() && b.is_empty() && st_a.len() == 1 && st_b.len() == 1 {
                    let (x, y) = (st_a.pop().expect("one"), st_b.pop().expect("one"));
                    let size = Size::above(1, &[cond_size, x.size, y.size]);
                    self.charge(1, i);
                    self.check_depth(size, i);
                    stack.push(Val::sized(
                        Expr::Ternary(Box::new(cond), Box::new(x.e), Box::new(y.e)),
                        DataType::Variable,
                        size,
                    ));
                } else {
                    let a = self.close_arm(a, st_a);
                    let b = self.close_arm(b, st_b);
                    out.push(Stmt::If(cond, a, Some(b)));
                }
                m
            }
            None => {
                let mut st = Vec::new();
                let a = self.region(i + 1, t, &mut st, ctx);
                let a = self.close_arm(a, st);
                out.push(Stmt::If(cond, a, None));
                t
            }
        }
    }

    /// Values left at the end of a statement arm: calls become statements, the rest is
    /// dropped (real code leaves values behind: spec §10).
    fn close_arm(&mut self, mut body: Vec<Stmt>, st: Vec<Val>) -> Vec<Stmt> {
        for v in st {
            if matches!(v.e, Expr::Call(..) | Expr::New(..)) && !v.used {
                body.push(Stmt::Expr(v.e));
            }
        }
        body
    }

    /// The value of a short-circuit landing block at `t` (`push.e 0` / `push.e 1`).
    fn landing_value(&self, t: usize) -> Option<i16> {
        match self.ins.get(t) {
            Some(Instruction::Push {
                op: Opcode::Push,
                value: PushValue::Int16(v @ (0 | 1)),
            }) => Some(*v),
            _ => None,
        }
    }

    fn is_dup0(&self, k: usize, t: DataType) -> bool {
        matches!(self.ins.get(k), Some(Instruction::Dup { t: tt, count: 0, extra: 0 }) if *tt == t)
    }

    /// The `cmp EQ` of a switch case test starting at `dup` index `k`.
    fn case_end(&self, k: usize, end: usize) -> Option<usize> {
        for q in k + 1..(k + 64).min(end) {
            match self.ins.get(q)? {
                Instruction::Compare {
                    cmp: Comparison::Eq,
                    ..
                } if self.is_branch(q + 1, Opcode::Bt) => return Some(q),
                // A case label is any expression: `case scr().field:` calls.
                Instruction::Push { .. }
                | Instruction::Call { .. }
                | Instruction::Binary { .. }
                | Instruction::Compare { .. }
                | Instruction::Unary {
                    op: Opcode::Neg | Opcode::Not,
                    ..
                }
                | Instruction::Extended { .. } => {}
                _ => return None,
            }
        }
        None
    }

    /// `switch`: `<v> dup.T 0 <case> cmp EQ bt L …; [b default]; b end; bodies; end: popz`.
    fn try_switch(
        &mut self,
        i: usize,
        end: usize,
        t: DataType,
        stack: &mut Vec<Val>,
        ctx: &mut Vec<Ctx>,
        out: &mut Vec<Stmt>,
    ) -> Option<usize> {
        // Quick shape check before committing.
        self.case_end(i, end)?;
        let value = stack.pop()?;
        let mut labels: Vec<(Expr, usize)> = Vec::new();
        let mut p = i;
        while self.is_dup0(p, t) {
            let Some(q) = self.case_end(p, end) else {
                break;
            };
            let mut e = self.expr_region(p + 1, q, ctx);
            let Some(tgt) = self.target(q + 1) else { break };
            // A boolean switch (`dup.b`, typed booleans) compares booleans: `switch (true) {
            // case true: }` pushes `true` as `pushi.e 1`, compared `cmp.b.b` (`case 1:` is
            // `cmp.i.b`). Before typed booleans both are `cmp.i.b`: read as booleans.
            if t == DataType::Boolean
                && (!self.game.features.typed_booleans()
                    || matches!(
                        self.ins[q],
                        Instruction::Compare {
                            t1: DataType::Boolean,
                            ..
                        }
                    ))
            {
                as_bool(&mut e);
            }
            labels.push((e, tgt));
            p = q + 2;
        }
        // p: `b default` and/or `b end`.
        let mut jumps = Vec::new();
        // A jump that is a case's target is that case's body (`case 0: break;`).
        while jumps.len() < 2
            && self.is_branch(p, Opcode::B)
            && (jumps.is_empty() || !labels.iter().any(|l| l.1 == p))
        {
            jumps.push(self.target(p)?);
            p += 1;
        }
        // `b default` lands before `b end`'s target; otherwise the second jump is the first
        // statement of a body (a `continue`/`break` as a case's only statement).
        if let [d, e] = jumps.as_slice()
            && d > e
        {
            jumps.pop();
            p -= 1;
        }
        let (default, brk) = match jumps.as_slice() {
            [e] => (None, *e),
            [d, e] => (Some(*d), *e),
            _ => {
                stack.push(value);
                return None;
            }
        };
        if brk > end || brk < p {
            out.push(self.fail("switch end outside its region", i, p));
            return Some(p);
        }
        // Bodies run p..bodies_end; a continue block `b end; popz; b cont` may precede end.
        let mut bodies_end = brk;
        let mut cont = None;
        if brk >= p + 3
            && self.is_branch(brk - 3, Opcode::B)
            && self.target(brk - 3) == Some(brk)
            && matches!(
                self.ins[brk - 2],
                Instruction::Unary {
                    op: Opcode::Popz,
                    ..
                }
            )
            && self.is_branch(brk - 1, Opcode::B)
        {
            cont = Some(brk - 2);
            bodies_end = brk - 3;
            // The continue goes to the enclosing loop (noting a for-loop step it targets).
            if let Some(t) = self.target(brk - 1) {
                let _ = self.break_or_continue(t, ctx);
            }
        }
        let mut starts: Vec<usize> = labels.iter().map(|l| l.1).collect();
        if let Some(d) = default {
            starts.push(d);
        }
        starts.push(bodies_end);
        starts.sort_unstable();
        starts.dedup();
        let mut cases = Vec::new();
        ctx.push(Ctx::Switch { brk, cont });
        for w in 0..starts.len() {
            let s = starts[w];
            if s > bodies_end {
                break;
            }
            for (e, tgt) in &labels {
                if *tgt == s {
                    cases.push(Case {
                        label: Some(e.clone()),
                        body: Vec::new(),
                    });
                }
            }
            if default == Some(s) {
                cases.push(Case {
                    label: None,
                    body: Vec::new(),
                });
            }
            let e = starts.get(w + 1).copied().unwrap_or(bodies_end);
            if s < e && s >= p {
                let mut st = Vec::new();
                let body = self.region(s, e, &mut st, ctx);
                let body = self.close_arm(body, st);
                match cases.last_mut() {
                    Some(c) => c.body = body,
                    None => out.extend(body),
                }
            }
        }
        ctx.pop();
        // Cases that jump past the end (empty trailing labels).
        for (e, tgt) in &labels {
            if *tgt > bodies_end {
                cases.push(Case {
                    label: Some(e.clone()),
                    body: Vec::new(),
                });
            }
        }
        // The value of a boolean switch likewise (its labels above).
        let mut value = value.e;
        if t == DataType::Boolean {
            as_bool(&mut value);
        }
        out.push(Stmt::Switch(value, cases));
        // Skip the `popz` that drops the switch value.
        let mut next = brk;
        if matches!(
            self.ins.get(next),
            Some(Instruction::Unary {
                op: Opcode::Popz,
                ..
            })
        ) {
            next += 1;
        }
        Some(next)
    }

    /// A `switch` without case tests: `<v> b L; L: popz` (`switch (v) {}`) or `<v> b D; b L;
    /// D: <default body> L: popz` (`switch (v) { default: … }`, the body empty when D = L;
    /// wild set: `default: return "rooftop"; break;`), L within the region ending at `end`.
    fn empty_switch(
        &mut self,
        i: usize,
        t: usize,
        end: usize,
        stack: &mut Vec<Val>,
        ctx: &mut Vec<Ctx>,
        out: &mut Vec<Stmt>,
    ) -> Option<usize> {
        let popz = |k: usize| {
            matches!(
                self.ins.get(k),
                Some(Instruction::Unary {
                    op: Opcode::Popz,
                    ..
                })
            )
        };
        if stack.is_empty() {
            return None;
        }
        if t == i + 1 && popz(t) {
            let v = stack.pop()?;
            out.push(Stmt::Switch(v.e, Vec::new()));
            return Some(t + 1);
        }
        let brk = self
            .target(i + 1)
            .filter(|&e| e >= t && e <= end && popz(e))?;
        if t != i + 2 || !self.is_branch(i + 1, Opcode::B) {
            return None;
        }
        let v = stack.pop()?;
        ctx.push(Ctx::Switch { brk, cont: None });
        let mut st = Vec::new();
        let body = self.region(t, brk, &mut st, ctx);
        let body = self.close_arm(body, st);
        ctx.pop();
        out.push(Stmt::Switch(v.e, vec![Case { label: None, body }]));
        Some(brk + 1)
    }

    /// `repeat`: `<n> dup.i 0; push 0; cmp.i.i LTE; bt end; body; <decrement> bt body; end: popz.i`.
    fn try_repeat(
        &mut self,
        i: usize,
        stack: &mut Vec<Val>,
        ctx: &mut Vec<Ctx>,
        out: &mut Vec<Stmt>,
    ) -> Option<usize> {
        let zero = matches!(
            self.ins.get(i + 1),
            Some(Instruction::Push {
                value: PushValue::Int32(0) | PushValue::Int16(0),
                ..
            })
        );
        let le = matches!(
            self.ins.get(i + 2),
            Some(Instruction::Compare {
                cmp: Comparison::Le,
                ..
            })
        );
        if !(zero && le && self.is_branch(i + 3, Opcode::Bt)) {
            return None;
        }
        let brk = self.target(i + 3)?;
        let body_start = i + 4;
        // The back edge: `bt body_start` just before `brk`.
        let latch = brk.checked_sub(1)?;
        if !(self.is_branch(latch, Opcode::Bt) && self.target(latch) == Some(body_start)) {
            return None;
        }
        let tail = if matches!(
            self.ins.get(latch - 1),
            Some(Instruction::Binary {
                op: Opcode::Conv,
                ..
            })
        ) {
            latch - 4
        } else {
            latch - 3
        };
        if tail < body_start {
            return None;
        }
        let count = stack.pop()?;
        ctx.push(Ctx::Loop {
            head: body_start,
            latch,
            brk,
            cont: Some(tail),
        });
        let mut st = Vec::new();
        let body = self.region(body_start, tail, &mut st, ctx);
        ctx.pop();
        let body = self.close_arm(body, st);
        out.push(Stmt::Repeat(count.e, body));
        let mut next = brk;
        if matches!(
            self.ins.get(next),
            Some(Instruction::Unary {
                op: Opcode::Popz,
                ..
            })
        ) {
            next += 1;
        }
        Some(next)
    }

    /// `with`: `<e> pushenv L8; body; L8: popenv body; [b L9; L7: popenv <drop>; L9:]`.
    fn with(
        &mut self,
        i: usize,
        t: usize,
        stack: &mut Vec<Val>,
        ctx: &mut Vec<Ctx>,
        out: &mut Vec<Stmt>,
    ) -> usize {
        let mut target = self.instance_operand(stack, i);
        // bc 15 – 2.2 compile `other` as a value to `other.id`: the same code as `with (other)`,
        // the usual spelling.
        let f = &self.game.features;
        if f.new_opcodes()
            && !f.gml_v2()
            && let Expr::Member(o, n) = &target
            && n == "id"
            && matches!(&**o, Expr::Ident(x) if x == "other")
        {
            target = Expr::Ident("other".into());
        }
        if t <= i || !self.is_branch(t, Opcode::PopEnv) {
            out.push(self.fail("pushenv without its popenv", i, i + 1));
            return i + 1;
        }
        let mut next = t + 1;
        let mut brk = t + 1;
        if self.is_branch(t + 1, Opcode::B)
            && matches!(self.ins.get(t + 2), Some(Instruction::PopEnvExit))
            && self.target(t + 1) == Some(t + 3)
        {
            brk = t + 2;
            next = t + 3;
        }
        ctx.push(Ctx::Loop {
            head: i + 1,
            latch: t,
            brk,
            cont: Some(t),
        });
        let mut st = Vec::new();
        let body = self.region(i + 1, t, &mut st, ctx);
        ctx.pop();
        let body = self.close_arm(body, st);
        out.push(Stmt::With(target, body));
        next
    }

    /// Whether instruction `k` calls the compiler helper `name`.
    fn calls(&self, k: usize, name: &str) -> bool {
        matches!(self.ins.get(k), Some(Instruction::Call { function, .. })
            if self.game.func_name(*function) == name)
    }

    /// `try`/`catch`/`finally` (spec §5.9), from the `@@try_hook@@(catch, finally)` call.
    fn try_catch(
        &mut self,
        i: usize,
        end: usize,
        stack: &mut Vec<Val>,
        ctx: &mut Vec<Ctx>,
        out: &mut Vec<Stmt>,
    ) -> usize {
        let catch_off = stack.pop().and_then(|v| lit_int(&v.e));
        let fin_off = stack.pop().and_then(|v| lit_int(&v.e));
        let idx = |o: Option<i64>| -> Option<usize> {
            let o = u32::try_from(o?).ok()?;
            self.cfg.index_of(o)
        };
        let fin = idx(fin_off).filter(|&f| f > i && f <= end);
        let catch = match catch_off {
            Some(-1) => None,
            o => idx(o).filter(|&c| c > i && fin.is_some_and(|f| c < f)),
        };
        let Some(fin) = fin else {
            out.push(self.fail("try hook with unknown offsets", i, i + 1));
            return i + 1;
        };
        if catch_off != Some(-1) && catch.is_none() {
            out.push(self.fail("try hook with a bad catch offset", i, i + 1));
            return i + 1;
        }
        let body_start = i + 2;
        let (body_end, catch_part) = match catch {
            Some(c) => {
                let var = match self.ins.get(c) {
                    Some(Instruction::Pop { var, .. }) => {
                        let n = self.game.var_name(var.variable).to_string();
                        self.local(&n);
                        n
                    }
                    _ => "e".to_string(),
                };
                let cend = if fin >= 3 && self.calls(fin - 3, "@@finish_catch@@") {
                    fin - 3
                } else {
                    fin
                };
                (c.saturating_sub(1), Some((var, c + 3, cend)))
            }
            None => (fin, None),
        };
        let mut st = Vec::new();
        let body = self.region(body_start, body_end, &mut st, ctx);
        let body = self.close_arm(body, st);
        let catch = catch_part.map(|(var, s, e)| {
            let mut st = Vec::new();
            let b = self.region(s.min(e), e, &mut st, ctx);
            (var, self.close_arm(b, st))
        });
        // `fin: try_unhook; popz` then an optional finally block ending in finish_finally.
        let mut next = fin;
        if self.calls(next, "@@try_unhook@@") {
            next += 1;
            if matches!(
                self.ins.get(next),
                Some(Instruction::Unary {
                    op: Opcode::Popz,
                    ..
                })
            ) {
                next += 1;
            }
        }
        let mut finally = None;
        let mut depth = 0usize;
        let mut found = None;
        for k in next..end {
            if self.calls(k, "@@try_hook@@") {
                depth += 1;
            }
            if self.calls(k, "@@finish_finally@@") {
                if depth == 0 {
                    found = Some(k);
                    break;
                }
                depth -= 1;
            }
        }
        if let Some(k) = found {
            let mut st = Vec::new();
            let b = self.region(next, k, &mut st, ctx);
            finally = Some(self.close_arm(b, st));
            next = k + 1;
            if matches!(
                self.ins.get(next),
                Some(Instruction::Unary {
                    op: Opcode::Popz,
                    ..
                })
            ) {
                next += 1;
            }
            if self.is_branch(next, Opcode::B) && self.target(next) == Some(next + 1) {
                next += 1;
            }
        }
        // GameMaker runs the finally block before each `exit`/`return`/`break`/`continue`
        // that leaves the try: that copy is the finally block's, not the body's.
        let (mut body, mut catch) = (body, catch);
        if let Some(f) = finally.as_deref().filter(|f| !f.is_empty()) {
            tidy::drop_finally_copies(&mut body, f);
            if let Some((_, c)) = &mut catch {
                tidy::drop_finally_copies(c, f);
            }
        }
        if finally.is_some() {
            let mut folded = tidy::fold_copy_var(&mut body);
            if let Some((_, c)) = &mut catch {
                folded |= tidy::fold_copy_var(c);
            }
            let left = body
                .iter()
                .chain(catch.iter().flat_map(|(_, c)| c.iter()))
                .any(|s| tidy::stmt_mentions(s, tidy::COPY_VAR));
            if folded && !left {
                self.scope().locals.retain(|n| n != tidy::COPY_VAR);
            }
        }
        out.push(Stmt::Try {
            body,
            catch,
            finally,
        });
        next
    }

    /// `a ?? b` (`a; isnullish; bf L; popz; b; L:`) and `a ??= b`.
    fn nullish(
        &mut self,
        i: usize,
        end: usize,
        stack: &mut Vec<Val>,
        ctx: &mut Vec<Ctx>,
        out: &mut Vec<Stmt>,
    ) -> usize {
        let t = if self.is_branch(i + 1, Opcode::Bf) {
            self.target(i + 1)
        } else {
            None
        };
        let Some(t) = t.filter(|&t| t > i + 2 && t <= end) else {
            out.push(self.fail("isnullish without its branch", i, i + 2));
            return i + 1;
        };
        let Some(a_size) = stack.last().map(|v| v.size) else {
            out.push(self.fail("isnullish on an empty stack", i, i + 1));
            return i + 1;
        };
        // The value is copied for the arm (and once more for `??=`).
        if !self.charge(a_size.nodes.saturating_mul(2), i) {
            return i + 1;
        }
        let Some(mut a) = stack.last().cloned() else {
            return i + 1;
        };
        a.used = true;
        // `??=`: then-arm stores and jumps over `L: popz`.
        if self.is_branch(t - 1, Opcode::B)
            && self.target(t - 1) == Some(t + 1)
            && matches!(
                self.ins.get(t),
                Some(Instruction::Unary {
                    op: Opcode::Popz,
                    ..
                })
            )
        {
            let mut st = vec![a.clone()];
            let body = self.region(i + 2, t - 1, &mut st, ctx);
            stack.pop();
            if let [
                Stmt::Assign {
                    target,
                    op: None,
                    value,
                },
            ] = body.as_slice()
            {
                out.push(Stmt::Assign {
                    target: target.clone(),
                    op: Some(BinaryOp::Nullish),
                    value: value.clone(),
                });
            } else {
                out.push(self.fail("unrecognised ??= shape", i, t + 1));
            }
            return t + 1;
        }
        let mut st = vec![a];
        let body = self.region(i + 2, t, &mut st, ctx);
        if body.is_empty() && st.len() == 1 {
            let b = st.pop().expect("one");
            let a = stack.pop().expect("checked");
            let size = Size::above(1, &[a.size, b.size]);
            self.charge(1, i);
            self.check_depth(size, i);
            stack.push(Val::sized(
                Expr::Binary(BinaryOp::Nullish, Box::new(a.e), Box::new(b.e)),
                DataType::Variable,
                size,
            ));
        } else {
            out.push(self.fail("unrecognised ?? shape", i, t));
        }
        t
    }
}

/// `!c`, simplifying double negation and flipping comparisons.
fn negate(e: Expr) -> Expr {
    match e {
        Expr::Unary(UnaryOp::Not, x) => *x,
        e => Expr::Unary(UnaryOp::Not, Box::new(e)),
    }
}

/// The name of parameter `k` of a function whose own locals are `locals` (GameMaker keeps
/// no parameter names): `argK`, with `_` appended while a local has that name (a function's
/// `var arg0` is not its parameter 0).
pub(crate) fn param_name(locals: &std::collections::HashSet<String>, k: usize) -> String {
    let mut name = format!("arg{k}");
    while locals.contains(&name) {
        name.push('_');
    }
    name
}

/// Whether `name` is the name [`param_name`] gives some parameter of a function with these
/// locals: an instance variable so named is written `self.name` in that function.
pub(crate) fn is_param_name(locals: &std::collections::HashSet<String>, name: &str) -> bool {
    name.strip_prefix("arg")
        .map(|r| r.trim_end_matches('_'))
        .and_then(|k| {
            if k.is_empty() || !k.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            k.parse::<usize>().ok()
        })
        .is_some_and(|k| param_name(locals, k) == name)
}

/// Default-argument blocks at the top of a function body
/// (`if (p == undefined) p = v;`) become parameter defaults while their parameters ascend
/// (the order the compiler emits header defaults in); a block out of that order stays a
/// statement (wild, 2024.6: GameMaker emitted some functions' defaults in another order).
fn extract_defaults(
    body: Vec<Stmt>,
    args: usize,
    locals: &std::collections::HashSet<String>,
) -> (Vec<(String, Option<Expr>)>, Vec<Stmt>) {
    let mut params: Vec<(String, Option<Expr>)> =
        (0..args).map(|k| (param_name(locals, k), None)).collect();
    let mut rest = Vec::with_capacity(body.len());
    let mut it = body.into_iter().peekable();
    // Hoisted `var` declarations (no code of their own) stay first.
    if let Some(Stmt::Var(v)) = it.peek()
        && v.iter().all(|(_, e)| e.is_none())
    {
        rest.extend(it.next());
    }
    // Parameter `k` as the code names it: its name, or past the sixteenth `argument[k]`.
    let param = |e: &Expr, params: &[(String, Option<Expr>)]| -> Option<usize> {
        match e {
            Expr::Ident(p) => params.iter().position(|q| q.0 == *p),
            Expr::Index(a, i) => match (&**a, i.as_slice()) {
                (Expr::Ident(a), [Expr::Lit(Literal::Int(k))]) if a == "argument" => {
                    usize::try_from(*k)
                        .ok()
                        .filter(|&k| k >= 16 && k < params.len())
                }
                _ => None,
            },
            _ => None,
        }
    };
    while let Some(Stmt::If(Expr::Binary(BinaryOp::Eq, l, r), then, None)) = it.peek() {
        if !matches!(&**r, Expr::Ident(u) if u == "undefined") {
            break;
        }
        let [
            Stmt::Assign {
                target,
                op: None,
                value,
            },
        ] = then.as_slice()
        else {
            break;
        };
        let Some(k) = param(l, &params) else {
            break;
        };
        if param(target, &params) != Some(k) || params[k..].iter().any(|p| p.1.is_some()) {
            break;
        }
        params[k].1 = Some(value.clone());
        it.next();
    }
    rest.extend(it);
    (params, rest)
}

/// A `0`/`1` literal compared as a boolean becomes `false`/`true`.
fn as_bool(e: &mut Expr) {
    if let Expr::Lit(Literal::Int(v @ (0 | 1))) = e {
        *e = Expr::Lit(Literal::Bool(*v == 1));
    }
}

fn lit_int(e: &Expr) -> Option<i64> {
    match e {
        Expr::Lit(Literal::Int(v)) => Some(*v),
        _ => None,
    }
}
