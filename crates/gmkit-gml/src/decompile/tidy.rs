//! Source shapes recovered from a structured body, where GameMaker's compiler emits the same
//! code for two spellings and the source usually has the other one:
//!
//! - `for` loops: `x = a; while (c) { …; x++; }` with no `continue` of its own compiles exactly
//!   like `for (x = a; c; x++) { … }`, and `while (int64(1))` is the condition `for (;;)`
//!   emits (`push.l 1`);
//! - `var x = e` where the local is first assigned: a `var` emits no code of its own, so the
//!   declaration moves from the top of the scope to the first assignment when nothing before it
//!   mentions the local (compiled earlier it would not be a local yet) and every later mention
//!   is in the same block, after it.
//! - a built-in array variable written without an index (`view_xview`, `background_htiled`):
//!   GameMaker reads and writes its element 0 with an int64 index (`push.l 0`), which a
//!   source `view_xview[0]` never gives (`pushi.e 0`); the compiler turns the bare name back
//!   into that element ([`crate::fold`]).

use crate::ast::{BinaryOp, Case, Expr, Function, Literal, Stmt, UnaryOp};
use crate::visit::{Visitor, VisitorMut, walk_block_mut, walk_expr, walk_expr_mut, walk_stmt};

/// The instance variables GameMaker Studio 2's drag-and-drop actions "Set Health", "Set Score"
/// and "Set Lives" keep their value in.
const DND_VARIABLES: [&str; 3] = ["__dnd_health", "__dnd_score", "__dnd_lives"];

/// `__dnd_health = real(100)` / `__dnd_health += real(-5)`: what GameMaker Studio 2's
/// drag-and-drop actions write (the compiler folds `real` of a number away), where a number is
/// stored in or added to one of [`DND_VARIABLES`]; not the `= 0` the same actions write when
/// the variable does not exist yet (`if (!variable_instance_exists(id, "__dnd_health"))`).
pub(super) fn dnd_reals(body: &mut [Stmt]) {
    crate::limits::deep(|| {
        for s in body.iter_mut() {
            if let Stmt::If(Expr::Unary(UnaryOp::Not, c), _, None) = s
                && matches!(&**c, Expr::Call(f, _) if matches!(&**f, Expr::Ident(n) if n == "variable_instance_exists"))
            {
                continue;
            }
            for b in child_blocks(s) {
                dnd_reals(b);
            }
            if let Stmt::Assign {
                target: Expr::Ident(n),
                op: None | Some(BinaryOp::Add),
                value,
            } = s
                && DND_VARIABLES.contains(&n.as_str())
                && match value {
                    Expr::Lit(Literal::Int(_) | Literal::Real(_)) => true,
                    Expr::Unary(UnaryOp::Neg, x) => {
                        matches!(**x, Expr::Lit(Literal::Int(_) | Literal::Real(_)))
                    }
                    _ => false,
                }
            {
                let v = std::mem::replace(value, Expr::Lit(Literal::Int(0)));
                *value = Expr::Call(Box::new(Expr::Ident("real".into())), vec![v]);
            }
        }
    })
}

/// `view_xview[int64(0)]` → `view_xview`: the element 0 of a built-in array variable with
/// the int64 index only a bare name compiles to ([`crate::fold::is_builtin_array`]), where no
/// local of `body` has that name.
pub(super) fn builtin_array_names(body: &mut [Stmt]) {
    /// The walk of [`builtin_array_names`].
    struct Bare<'a>(&'a std::collections::HashSet<String>);

    impl VisitorMut for Bare<'_> {
        fn visit_expr_mut(&mut self, e: &mut Expr) {
            walk_expr_mut(self, e);
            if let Expr::Index(b, idx) = e
                && let [Expr::Lit(Literal::Int64(0))] = idx.as_slice()
                && let Expr::Ident(n) = &**b
                && crate::fold::is_builtin_array(n)
                && !self.0.contains(n)
            {
                *e = Expr::Ident(n.clone());
            }
        }
    }

    let mut locals = std::collections::HashSet::new();
    crate::fold::collect_locals(body, true, &mut locals);
    walk_block_mut(&mut Bare(&locals), body);
}

/// Turns `init; while (c) { …; step }` into `for` loops, at every level of `body`.
pub(super) fn for_loops(body: &mut Vec<Stmt>) {
    crate::limits::deep(|| for_loops_here(body))
}

fn for_loops_here(body: &mut Vec<Stmt>) {
    for s in body.iter_mut() {
        for b in child_blocks(s) {
            for_loops(b);
        }
    }
    let mut i = 0;
    while i < body.len() {
        let is_forever = |c: &Expr| matches!(c, Expr::Lit(Literal::Int64(1)));
        match &mut body[i] {
            Stmt::While(c, b) => {
                let cond = (!is_forever(c)).then(|| c.clone());
                let step_of = b.last().and_then(step_var).map(str::to_string);
                let init = i
                    .checked_sub(1)
                    .and_then(|k| init_var(&body[k]))
                    .map(str::to_string);
                let own_continue = match &body[i] {
                    Stmt::While(_, b) => has_own_continue(b),
                    _ => true,
                };
                match (step_of, init) {
                    (Some(x), Some(y))
                        if x == y
                            && !own_continue
                            && cond.as_ref().is_none_or(|c| expr_mentions(c, &x)) =>
                    {
                        let Stmt::While(_, mut b) = body.remove(i) else {
                            unreachable!("matched above")
                        };
                        let step = b.pop().map(Box::new);
                        let init = body.remove(i - 1);
                        i -= 1;
                        body.insert(i, Stmt::For(Some(Box::new(init)), cond, step, b));
                    }
                    _ if cond.is_none() => {
                        let Stmt::While(_, b) = body.remove(i) else {
                            unreachable!("matched above")
                        };
                        body.insert(i, Stmt::For(None, None, None, b));
                    }
                    _ => {}
                }
            }
            Stmt::For(None, c, step, _) => {
                if c.as_ref().is_some_and(is_forever) {
                    *c = None;
                }
                let updated = step.as_deref().and_then(step_var).map(str::to_string);
                // An `exit` step updates nothing: the loop is the condition's variable's.
                let exit_cond = match step.as_deref() {
                    Some(Stmt::Exit) => c.clone(),
                    _ => None,
                };
                let init = i
                    .checked_sub(1)
                    .and_then(|k| init_var(&body[k]))
                    .map(str::to_string);
                let step_of = match exit_cond {
                    Some(c) => init.clone().filter(|y| expr_mentions(&c, y)),
                    None => updated,
                };
                if let (Some(x), Some(y)) = (step_of, init)
                    && x == y
                {
                    let init = body.remove(i - 1);
                    i -= 1;
                    if let Stmt::For(slot, ..) = &mut body[i] {
                        *slot = Some(Box::new(init));
                    }
                }
            }
            _ => {}
        }
        i += 1;
    }
}

/// The variable a loop step updates (`x++`, `x += e`, `x = x - e`).
fn step_var(s: &Stmt) -> Option<&str> {
    match s {
        Stmt::Update {
            target: Expr::Ident(x),
            ..
        }
        | Stmt::Assign {
            target: Expr::Ident(x),
            op: Some(_),
            ..
        } => Some(x),
        Stmt::Assign {
            target: Expr::Ident(x),
            op: None,
            value,
        } if expr_mentions(value, x) => Some(x),
        _ => None,
    }
}

/// The variable a loop initialisation sets (`x = e`).
fn init_var(s: &Stmt) -> Option<&str> {
    match s {
        Stmt::Assign {
            target: Expr::Ident(x),
            op: None,
            ..
        } => Some(x),
        _ => None,
    }
}

/// Whether `body` has a `continue` of the loop it is the body of (not of a nested loop or
/// `with`).
fn has_own_continue(body: &[Stmt]) -> bool {
    crate::limits::deep(|| {
        body.iter().any(|s| match s {
            Stmt::Continue => true,
            Stmt::If(_, a, b) => has_own_continue(a) || b.as_deref().is_some_and(has_own_continue),
            Stmt::Switch(_, cases) => cases.iter().any(|c| has_own_continue(&c.body)),
            Stmt::Block(b) => has_own_continue(b),
            Stmt::Try {
                body,
                catch,
                finally,
            } => {
                has_own_continue(body)
                    || catch.as_ref().is_some_and(|(_, c)| has_own_continue(c))
                    || finally.as_deref().is_some_and(has_own_continue)
            }
            _ => false,
        })
    })
}

/// The statement lists directly inside `s` (not those of nested functions).
fn child_blocks(s: &mut Stmt) -> Vec<&mut Vec<Stmt>> {
    match s {
        Stmt::If(_, a, b) => {
            let mut v = vec![a];
            if let Some(b) = b {
                v.push(b);
            }
            v
        }
        Stmt::While(_, b)
        | Stmt::For(_, _, _, b)
        | Stmt::DoUntil(b, _)
        | Stmt::Repeat(_, b)
        | Stmt::With(_, b)
        | Stmt::Block(b) => vec![b],
        Stmt::Switch(_, cases) => cases.iter_mut().map(|c: &mut Case| &mut c.body).collect(),
        Stmt::Try {
            body,
            catch,
            finally,
        } => {
            let mut v = vec![body];
            if let Some((_, c)) = catch {
                v.push(c);
            }
            if let Some(f) = finally {
                v.push(f);
            }
            v
        }
        _ => Vec::new(),
    }
}

/// Moves the declaration of each of `locals` to its first assignment where that is the same
/// code (see the module doc); the rest are declared at the top, as before.
pub(super) fn place_vars(mut body: Vec<Stmt>, locals: Vec<String>) -> Vec<Stmt> {
    let mut hoisted = Vec::new();
    for n in locals {
        // A local never given a value (only read, or updated with `+=`/`++`) is declared
        // with the others at the top.
        if !assigned(&body, &n) {
            hoisted.push((n, None));
            continue;
        }
        if !crate::limits::deep(|| {
            declare_in(&mut body, &n, false)
                || declare_each(&mut body, &n)
                || declare_before(&mut body, &n)
        }) {
            hoisted.push((n, None));
        }
    }
    // Loop variables declared in a `for` header are declared again in the headers of later
    // loops that start them afresh, as sources do (`for (var i = 0; …)` twice): a `var`
    // emits no code of its own.
    let mut in_headers = Vec::new();
    crate::limits::deep(|| header_vars(&mut body, &mut in_headers, false));
    if !in_headers.is_empty() {
        crate::limits::deep(|| header_vars(&mut body, &mut in_headers, true));
    }
    if !hoisted.is_empty() {
        body.insert(0, Stmt::Var(hoisted));
    }
    body
}

/// Declares `x` (uninitialised) just before the first statement that mentions it, in the
/// innermost block holding every mention, as sources declare a local first assigned in
/// branches (`var c; if (a) c = 1; else c = 2;`) rather than at the top: a `var` without a
/// value emits no code. The block is not a loop's body (a value carried from one iteration to
/// the next is declared outside the loop). False when nothing in `list` mentions it.
fn declare_before(list: &mut Vec<Stmt>, x: &str) -> bool {
    let at: Vec<usize> = (0..list.len())
        .filter(|&k| stmt_mentions(&list[k], x))
        .collect();
    let Some(&first) = at.first() else {
        return false;
    };
    if let [k] = at.as_slice() {
        let s = &mut list[*k];
        if !header_mentions(s, x) {
            if matches!(
                s,
                Stmt::If(..)
                    | Stmt::Switch(..)
                    | Stmt::Block(_)
                    | Stmt::With(..)
                    | Stmt::Try { .. }
            ) {
                let mut blocks: Vec<&mut Vec<Stmt>> = child_blocks(s)
                    .into_iter()
                    .filter(|b| block_mentions(b, x))
                    .collect();
                if blocks.len() == 1 && crate::limits::deep(|| declare_before(blocks[0], x)) {
                    return true;
                }
            }
            if declare_in_pieces(s, x, true) {
                declare_in_pieces(s, x, false);
                return true;
            }
            // A loop's body holds no declaration of a value carried from one iteration to
            // the next, but pieces that each start it afresh declare it.
            if let Stmt::While(_, b)
            | Stmt::Repeat(_, b)
            | Stmt::For(_, _, _, b)
            | Stmt::DoUntil(b, _) = s
            {
                let inner: Vec<usize> = (0..b.len()).filter(|&j| stmt_mentions(&b[j], x)).collect();
                if let [j] = inner[..]
                    && declare_in_pieces(&mut b[j], x, true)
                {
                    declare_in_pieces(&mut b[j], x, false);
                    return true;
                }
            }
        }
    }
    // Two locals declared before the same statement share one `var`.
    match first.checked_sub(1).map(|k| &mut list[k]) {
        Some(Stmt::Var(v)) if v.iter().all(|(_, e)| e.is_none()) => v.push((x.to_string(), None)),
        _ => list.insert(first, Stmt::Var(vec![(x.to_string(), None)])),
    }
    true
}

/// Declares `x` in each piece of `s` that starts it afresh with a plain assignment (or with
/// `dry` only says whether it could): both branches of an `if` (`if (a) { var c = 1; … }
/// else { var c = 2; … }`), or each run of `switch` cases that fall through into one another
/// and mention it (declared in the first case of the run that does), as `with` pieces are
/// ([`declare_each`]). False (and nothing changed) when some piece cannot.
fn declare_in_pieces(s: &mut Stmt, x: &str, dry: bool) -> bool {
    if header_mentions(s, x) {
        return false;
    }
    match s {
        Stmt::If(_, a, Some(b)) if block_mentions(a, x) && block_mentions(b, x) => {
            if !(declare_in_as(a, x, false, true) && declare_in_as(b, x, false, true)) {
                return false;
            }
            if !dry {
                declare_in(a, x, false);
                declare_in(b, x, false);
            }
            true
        }
        Stmt::Switch(_, cases) => {
            // The first case of each fall-through run that mentions `x`.
            let mut firsts = Vec::new();
            let mut run_has = false;
            for (k, c) in cases.iter().enumerate() {
                if !run_has && block_mentions(&c.body, x) {
                    firsts.push(k);
                    run_has = true;
                }
                if matches!(
                    c.body.last(),
                    Some(
                        Stmt::Break
                            | Stmt::Continue
                            | Stmt::Exit
                            | Stmt::Return(_)
                            | Stmt::Throw(_)
                    )
                ) {
                    run_has = false;
                }
            }
            if firsts.len() < 2
                || !firsts
                    .iter()
                    .all(|&k| declare_in_as(&mut cases[k].body, x, false, true))
            {
                return false;
            }
            if !dry {
                for k in firsts {
                    declare_in(&mut cases[k].body, x, false);
                }
            }
            true
        }
        _ => false,
    }
}

/// Whether the header of statement `s` (its condition, `for` clauses, `switch` value and
/// labels, `catch` name), not its blocks, names `x`; true for statements without blocks.
fn header_mentions(s: &Stmt, x: &str) -> bool {
    let e = |e: &Expr| expr_mentions(e, x);
    match s {
        Stmt::If(c, ..) | Stmt::While(c, _) | Stmt::Repeat(c, _) | Stmt::With(c, _) => e(c),
        Stmt::DoUntil(_, c) => e(c),
        Stmt::For(i, c, st, _) => {
            i.as_deref().is_some_and(|i| stmt_mentions(i, x))
                || c.as_ref().is_some_and(e)
                || st.as_deref().is_some_and(|s| stmt_mentions(s, x))
        }
        Stmt::Switch(v, cases) => e(v) || cases.iter().any(|c| c.label.as_ref().is_some_and(e)),
        Stmt::Try { catch, .. } => catch.as_ref().is_some_and(|(n, _)| n == x),
        Stmt::Block(_) => false,
        _ => true,
    }
}

/// Declares `x` in each statement of `list` that mentions it, where each of them can on its
/// own ([`declare_in`]): the local is used in separate pieces of code, each starting afresh
/// with a plain assignment (`with (a) { var d = …; } with (b) { var d = …; }`), as sources
/// declare it. False (and nothing changed) when some piece cannot.
fn declare_each(list: &mut [Stmt], x: &str) -> bool {
    let at: Vec<usize> = (0..list.len())
        .filter(|&k| stmt_mentions(&list[k], x))
        .collect();
    if at.len() < 2 {
        return false;
    }
    if !at
        .iter()
        .all(|&k| declare_in_as(std::slice::from_mut(&mut list[k]), x, false, true))
    {
        return false;
    }
    for k in at {
        declare_in(std::slice::from_mut(&mut list[k]), x, false);
    }
    true
}

/// Collects the locals declared in `for` headers (`redeclare` false), or declares those
/// locals in the headers of the loops that assign them plainly (`redeclare` true).
fn header_vars(body: &mut [Stmt], names: &mut Vec<String>, redeclare: bool) {
    for s in body.iter_mut() {
        if let Stmt::For(Some(init), ..) = s {
            match &mut **init {
                Stmt::Var(v) if !redeclare => {
                    if let [(x, Some(_))] = v.as_slice()
                        && !names.contains(x)
                    {
                        names.push(x.clone());
                    }
                }
                Stmt::Assign {
                    target: Expr::Ident(x),
                    op: None,
                    value,
                } if redeclare && names.contains(x) && !expr_mentions(value, x) => {
                    let value = std::mem::replace(value, Expr::Lit(Literal::Int(0)));
                    **init = Stmt::Var(vec![(x.clone(), Some(value))]);
                }
                _ => {}
            }
        }
        for b in child_blocks(s) {
            crate::limits::deep(|| header_vars(b, names, redeclare));
        }
    }
}

/// Declares `x` at its first mention in `list` if that is a plain assignment of it and every
/// later mention follows in `list` (or nested in it): `outer` says whether something after
/// `list` mentions it. False when it cannot.
fn declare_in(list: &mut [Stmt], x: &str, outer: bool) -> bool {
    declare_in_as(list, x, outer, false)
}

/// [`declare_in`], or with `dry` only whether it could (nothing changed).
fn declare_in_as(list: &mut [Stmt], x: &str, outer: bool, dry: bool) -> bool {
    let Some(k) = list.iter().position(|s| stmt_mentions(s, x)) else {
        return false;
    };
    let after = outer || list[k + 1..].iter().any(|s| stmt_mentions(s, x));
    let s = &mut list[k];
    match s {
        Stmt::Assign {
            target: Expr::Ident(t),
            op: None,
            value,
        } if t == x && !expr_mentions(value, x) => {
            if outer {
                return false;
            }
            if !dry {
                let value = std::mem::replace(value, Expr::Lit(Literal::Int(0)));
                *s = Stmt::Var(vec![(x.to_string(), Some(value))]);
            }
            true
        }
        Stmt::For(init, c, step, b) => {
            // `for (var x = a; …)`: later mentions in this list are in the same block.
            if let Some(i) = init
                && let Stmt::Assign {
                    target: Expr::Ident(t),
                    op: None,
                    value,
                } = &mut **i
                && t == x
                && !expr_mentions(value, x)
            {
                if outer {
                    return false;
                }
                if !dry {
                    let value = std::mem::replace(value, Expr::Lit(Literal::Int(0)));
                    **i = Stmt::Var(vec![(x.to_string(), Some(value))]);
                }
                return true;
            }
            if init.as_deref().is_some_and(|i| stmt_mentions(i, x))
                || c.as_ref().is_some_and(|c| expr_mentions(c, x))
                || step.as_deref().is_some_and(|s| stmt_mentions(s, x))
            {
                return false;
            }
            declare_in_as(b, x, after, dry)
        }
        Stmt::While(c, b) | Stmt::Repeat(c, b) | Stmt::With(c, b) => {
            !expr_mentions(c, x) && declare_in_as(b, x, after, dry)
        }
        Stmt::DoUntil(b, c) => declare_in_as(b, x, after || expr_mentions(c, x), dry),
        Stmt::Block(b) => declare_in_as(b, x, after, dry),
        Stmt::If(c, a, b) => {
            if expr_mentions(c, x) {
                return false;
            }
            match b {
                Some(b) if block_mentions(b, x) => {
                    !block_mentions(a, x) && declare_in_as(b, x, after, dry)
                }
                _ => declare_in_as(a, x, after, dry),
            }
        }
        _ => false,
    }
}

fn block_mentions(b: &[Stmt], x: &str) -> bool {
    b.iter().any(|s| stmt_mentions(s, x))
}

/// Whether statement `s` names `x` (nested functions aside: their locals are their own).
pub(super) fn stmt_mentions(s: &Stmt, x: &str) -> bool {
    let mut m = Mentions { x, found: false };
    m.visit_stmt(s);
    m.found
}

/// Whether expression `e` names `x` as a variable.
pub(super) fn expr_mentions(e: &Expr, x: &str) -> bool {
    let mut m = Mentions { x, found: false };
    m.visit_expr(e);
    m.found
}

/// The walk of [`stmt_mentions`] and [`expr_mentions`]: stops looking once found.
struct Mentions<'x> {
    x: &'x str,
    found: bool,
}

impl Visitor for Mentions<'_> {
    fn visit_stmt(&mut self, s: &Stmt) {
        if self.found {
            return;
        }
        let x = self.x;
        self.found = match s {
            Stmt::Var(v) => v.iter().any(|(n, _)| n == x),
            Stmt::Static(v) => v.iter().any(|(n, _)| n == x),
            Stmt::GlobalVar(v) => v.iter().any(|n| n == x),
            Stmt::Try {
                catch: Some((n, _)),
                ..
            } => n == x,
            // Unknown code may name anything.
            Stmt::Unstructured(_) => true,
            _ => false,
        };
        walk_stmt(self, s)
    }

    fn visit_expr(&mut self, e: &Expr) {
        if self.found {
            return;
        }
        match e {
            Expr::Ident(n) => self.found = n == self.x,
            e => walk_expr(self, e),
        }
    }

    /// A nested function's parameters and defaults are its own.
    fn visit_function(&mut self, _: &Function) {}
}

/// Whether `body` gives local `x` a value with a plain assignment (`x = v`, also as a `for`
/// header's initialisation) or a `var x = v` (nested functions aside).
fn assigned(body: &[Stmt], x: &str) -> bool {
    let mut a = Assigned { x, found: false };
    a.visit_block(body);
    a.found
}

/// The walk of [`assigned`].
struct Assigned<'x> {
    x: &'x str,
    found: bool,
}

impl Visitor for Assigned<'_> {
    fn visit_stmt(&mut self, s: &Stmt) {
        if self.found {
            return;
        }
        self.found = match s {
            Stmt::Assign {
                target: Expr::Ident(t),
                op: None,
                ..
            } => t == self.x,
            // `x[i] = v` (an array made by its first store).
            Stmt::Assign {
                target: Expr::Index(b, _),
                op: None,
                ..
            } => matches!(&**b, Expr::Ident(t) if t == self.x),
            Stmt::Var(v) => v.iter().any(|(n, e)| n == self.x && e.is_some()),
            // Unknown code may assign anything.
            Stmt::Unstructured(_) => true,
            _ => false,
        };
        walk_stmt(self, s)
    }

    /// A nested function's locals are its own.
    fn visit_function(&mut self, _: &Function) {}
}

/// Whether local `x` is only a catch variable: some `catch (x)` names it and nothing outside
/// the blocks of such catches mentions it. `catch (x)` declares it, so it takes no `var`.
pub(super) fn only_caught(body: &[Stmt], x: &str) -> bool {
    let mut c = Caught {
        x,
        caught: false,
        outside: false,
    };
    c.visit_block(body);
    c.caught && !c.outside
}

/// The walk of [`only_caught`].
struct Caught<'x> {
    x: &'x str,
    caught: bool,
    outside: bool,
}

impl Visitor for Caught<'_> {
    fn visit_stmt(&mut self, s: &Stmt) {
        if self.outside {
            return;
        }
        match s {
            Stmt::Try {
                body,
                catch: Some((n, _)),
                finally,
            } if n == self.x => {
                self.caught = true;
                self.visit_block(body);
                if let Some(f) = finally {
                    self.visit_block(f);
                }
            }
            Stmt::Var(v) if v.iter().any(|(n, _)| n == self.x) => self.outside = true,
            Stmt::Static(v) if v.iter().any(|(n, _)| n == self.x) => self.outside = true,
            Stmt::Unstructured(_) => self.outside = true,
            s => walk_stmt(self, s),
        }
    }

    fn visit_expr(&mut self, e: &Expr) {
        if self.outside {
            return;
        }
        match e {
            Expr::Ident(n) if n == self.x => self.outside = true,
            e => walk_expr(self, e),
        }
    }

    /// A nested function's locals are its own.
    fn visit_function(&mut self, _: &Function) {}
}

/// Removes the copies of a `finally` block `f` that GameMaker puts before each statement
/// leaving the protected block (`exit`, `return`, `break`, `continue`), at every level of
/// `body` but nested `try` statements and functions.
pub(super) fn drop_finally_copies(body: &mut Vec<Stmt>, f: &[Stmt]) {
    crate::limits::deep(|| {
        for s in body.iter_mut() {
            if !matches!(s, Stmt::Try { .. }) {
                for b in child_blocks(s) {
                    drop_finally_copies(b, f);
                }
            }
        }
        let mut k = 0;
        while k < body.len() {
            if matches!(
                body[k],
                Stmt::Exit | Stmt::Return(_) | Stmt::Break | Stmt::Continue | Stmt::Throw(_)
            ) && k >= f.len()
                && body[k - f.len()..k] == *f
            {
                body.drain(k - f.len()..k);
                k -= f.len();
            }
            k += 1;
        }
    })
}

/// `break`/`continue` inside `try`, as the source has them: GameMaker (spec §5.9) sets
/// `__yy_breakExN = 0; __yy_continueExN = 0;` before such a try, wraps its try and catch blocks
/// in `while (true) { if (__yy_continueExN) break; …; break; }`, writes each `break` as
/// `__yy_breakExN = 1; break;` (`continue` likewise) and, inside a loop, follows the try with
/// `if (__yy_continueExN) continue; if (__yy_breakExN) break;`. The compiler rewrites the
/// source form the same way again. At every level of `body` (nested functions aside).
pub(super) fn try_escapes(body: &mut Vec<Stmt>) {
    crate::limits::deep(|| {
        for s in body.iter_mut() {
            for b in child_blocks(s) {
                try_escapes(b);
            }
        }
        let mut i = 0;
        while i < body.len() {
            if let Some(n) = flagged_try(body, i) {
                let (brk, cont) = flag_names(&n);
                let mut k = i + 1;
                for (flag, exit) in [(&cont, Stmt::Continue), (&brk, Stmt::Break)] {
                    if matches!(body.get(k), Some(Stmt::If(Expr::Ident(c), t, None))
                        if *c == *flag && *t == [exit.clone()])
                    {
                        body.remove(k);
                    } else {
                        k += 1;
                    }
                }
                if let Stmt::Try { body: b, catch, .. } = &mut body[i] {
                    unwrap_flags(b, &brk, &cont);
                    if let Some((_, c)) = catch {
                        unwrap_flags(c, &brk, &cont);
                    }
                }
                body.drain(i - 2..i);
                i -= 2;
            }
            i += 1;
        }
    })
}

/// `__yy_breakExN` and `__yy_continueExN` for `N`.
fn flag_names(n: &str) -> (String, String) {
    (format!("__yy_breakEx{n}"), format!("__yy_continueEx{n}"))
}

/// `N` when `body[i]` is a try preceded by `__yy_breakExN = 0; __yy_continueExN = 0;`.
fn flagged_try(body: &[Stmt], i: usize) -> Option<String> {
    if i < 2 || !matches!(body[i], Stmt::Try { .. }) {
        return None;
    }
    let zero = |s: &Stmt, prefix: &str| match s {
        Stmt::Assign {
            target: Expr::Ident(v),
            op: None,
            value: Expr::Lit(Literal::Int(0)),
        } => v.strip_prefix(prefix).map(str::to_string),
        _ => None,
    };
    let n = zero(&body[i - 2], "__yy_breakEx")?;
    (zero(&body[i - 1], "__yy_continueEx")? == n).then_some(n)
}

/// A try or catch block `b` as written: the one-shot loop around it removed and each
/// `flag = 1; break;` / `continue;` pair back to its `break` / `continue`.
fn unwrap_flags(b: &mut Vec<Stmt>, brk: &str, cont: &str) {
    if let [Stmt::While(Expr::Lit(Literal::Int(1) | Literal::Bool(true)), inner)] = b.as_mut_slice()
        && matches!(inner.first(), Some(Stmt::If(Expr::Ident(c), t, None)) if c == cont && *t == [Stmt::Break])
        && matches!(inner.last(), Some(Stmt::Break))
    {
        let mut inner = std::mem::take(inner);
        inner.pop();
        inner.remove(0);
        *b = inner;
    }
    plain_escapes(b, brk, cont);
}

/// `flag = 1; break;` → `break;` (and `continue`) at every level of `b` but nested functions.
fn plain_escapes(b: &mut Vec<Stmt>, brk: &str, cont: &str) {
    crate::limits::deep(|| {
        for s in b.iter_mut() {
            for c in child_blocks(s) {
                plain_escapes(c, brk, cont);
            }
        }
        let mut k = 0;
        while k + 1 < b.len() {
            let set = |s: &Stmt, flag: &str| {
                matches!(s, Stmt::Assign {
                    target: Expr::Ident(v),
                    op: None,
                    value: Expr::Lit(Literal::Int(1)),
                } if v == flag)
            };
            if (set(&b[k], brk) && b[k + 1] == Stmt::Break)
                || (set(&b[k], cont) && b[k + 1] == Stmt::Continue)
            {
                b.remove(k);
            }
            k += 1;
        }
    })
}

/// A local GameMaker's compiler adds for `break`/`continue` inside `try` ([`try_escapes`]).
pub(super) fn is_try_flag(n: &str) -> bool {
    n.starts_with("__yy_breakEx") || n.starts_with("__yy_continueEx")
}

/// The local GameMaker keeps a `return` value in while the finally blocks run.
pub(super) const COPY_VAR: &str = "copyVar";

/// `return e;` as the source has it, inside a try with a finally block: GameMaker (spec §5.9)
/// writes it `copyVar = e;`, the finally blocks, `return copyVar;` ([`drop_finally_copies`]
/// took the finally blocks out). At every level of `body` (functions aside); whether any
/// was folded.
pub(super) fn fold_copy_var(body: &mut Vec<Stmt>) -> bool {
    crate::limits::deep(|| {
        let mut folded = false;
        for s in body.iter_mut() {
            for b in child_blocks(s) {
                folded |= fold_copy_var(b);
            }
        }
        let mut k = 1;
        while k < body.len() {
            let is_copy = |e: &Expr| matches!(e, Expr::Ident(n) if n == COPY_VAR);
            if matches!(&body[k], Stmt::Return(Some(r)) if is_copy(r))
                && let Stmt::Assign {
                    target,
                    op: None,
                    value,
                } = &body[k - 1]
                && is_copy(target)
            {
                let value = value.clone();
                body.drain(k - 1..=k);
                body.insert(k - 1, Stmt::Return(Some(value)));
                folded = true;
                continue;
            }
            k += 1;
        }
        folded
    })
}
