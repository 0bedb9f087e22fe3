//! Walks over the syntax tree ([`crate::ast`]): one place that knows which statements and
//! expressions a node holds, so that a pass over the tree says only what it does at the nodes
//! it cares about.
//!
//! [`Visitor`] walks a tree by shared reference, [`VisitorMut`] by mutable reference. Each
//! method has a default that recurses into the node's children through the free function of
//! the same name (`visit_stmt` → [`walk_stmt`]); a pass overrides the methods of the nodes it
//! handles and calls the `walk_*` function where it wants the children visited (before or
//! after its own work, or not at all), as `syn::visit` and naga's IR walkers do.
//!
//! Children are visited in source order: `if` condition, then branch, else branch; a `for`
//! header's initialisation, condition and step before its body; `do … until` body before the
//! condition; a `switch` value, then each case's label and body; an assignment's target before
//! its value; a function's parameter defaults, its parent constructor's arguments, then its
//! body.
//!
//! Depth: [`walk_stmt`] and [`walk_expr`] (and their mutable twins) enter each level through
//! [`crate::limits::deep`], so a walk of a hostile deep tree grows the stack on the heap
//! instead of overflowing it. An override that recurses on its own, without calling a
//! `walk_*` function, enters through `deep` itself.

use crate::ast::{Expr, Function, Stmt};
use crate::limits::deep;

/// A pass over a syntax tree by shared reference. Every method defaults to visiting the
/// node's children ([`walk_block`], [`walk_stmt`], [`walk_expr`], [`walk_function`]).
pub trait Visitor {
    /// A list of statements (a body or a branch).
    fn visit_block(&mut self, body: &[Stmt]) {
        walk_block(self, body)
    }

    /// One statement.
    fn visit_stmt(&mut self, s: &Stmt) {
        walk_stmt(self, s)
    }

    /// One expression.
    fn visit_expr(&mut self, e: &Expr) {
        walk_expr(self, e)
    }

    /// A function: a declaration ([`Stmt::Function`]) or a literal ([`Expr::Function`]).
    fn visit_function(&mut self, f: &Function) {
        walk_function(self, f)
    }
}

/// A pass over a syntax tree that may change it. Every method defaults to visiting the node's
/// children ([`walk_block_mut`], [`walk_stmt_mut`], [`walk_expr_mut`],
/// [`walk_function_mut`]); an override may replace the node it is given.
pub trait VisitorMut {
    /// A list of statements (a body or a branch); an override may add or remove statements.
    fn visit_block_mut(&mut self, body: &mut Vec<Stmt>) {
        walk_block_mut(self, body)
    }

    /// One statement.
    fn visit_stmt_mut(&mut self, s: &mut Stmt) {
        walk_stmt_mut(self, s)
    }

    /// One expression.
    fn visit_expr_mut(&mut self, e: &mut Expr) {
        walk_expr_mut(self, e)
    }

    /// A function: a declaration ([`Stmt::Function`]) or a literal ([`Expr::Function`]).
    fn visit_function_mut(&mut self, f: &mut Function) {
        walk_function_mut(self, f)
    }
}

/// The walk functions of one of the two traits: `[mut]` for [`VisitorMut`]'s (written
/// once, so that the two walks cannot drift apart).
macro_rules! walks {
    ($Visitor:ident, [$($m:tt)?]; $block:ident, $stmt:ident, $expr:ident, $function:ident;
     $walk_block:ident, $walk_stmt:ident, $walk_expr:ident, $walk_function:ident) => {
        /// Visits each statement of `body` in order.
        pub fn $walk_block<V: $Visitor + ?Sized>(v: &mut V, body: &$($m)? [Stmt]) {
            for s in body {
                v.$stmt(s);
            }
        }

        /// Visits the statements, expressions and functions directly inside `s`.
        pub fn $walk_stmt<V: $Visitor + ?Sized>(v: &mut V, s: &$($m)? Stmt) {
            deep(|| match s {
                Stmt::Expr(e) | Stmt::Throw(e) | Stmt::Delete(e) | Stmt::Return(Some(e)) => {
                    v.$expr(e)
                }
                Stmt::Assign { target, value, .. } => {
                    v.$expr(target);
                    v.$expr(value);
                }
                Stmt::Update { target, .. } => v.$expr(target),
                Stmt::Var(vars) => {
                    for (_, e) in vars {
                        if let Some(e) = e {
                            v.$expr(e);
                        }
                    }
                }
                Stmt::Static(vars) => {
                    for (_, e) in vars {
                        v.$expr(e);
                    }
                }
                Stmt::If(c, a, b) => {
                    v.$expr(c);
                    v.$block(a);
                    if let Some(b) = b {
                        v.$block(b);
                    }
                }
                Stmt::While(c, b) | Stmt::Repeat(c, b) | Stmt::With(c, b) => {
                    v.$expr(c);
                    v.$block(b);
                }
                Stmt::DoUntil(b, c) => {
                    v.$block(b);
                    v.$expr(c);
                }
                Stmt::For(init, c, step, b) => {
                    if let Some(i) = init {
                        v.$stmt(i);
                    }
                    if let Some(c) = c {
                        v.$expr(c);
                    }
                    if let Some(st) = step {
                        v.$stmt(st);
                    }
                    v.$block(b);
                }
                Stmt::Switch(e, cases) => {
                    v.$expr(e);
                    for c in cases {
                        if let Some(l) = &$($m)? c.label {
                            v.$expr(l);
                        }
                        v.$block(&$($m)? c.body);
                    }
                }
                Stmt::Try {
                    body,
                    catch,
                    finally,
                } => {
                    v.$block(body);
                    if let Some((_, b)) = catch {
                        v.$block(b);
                    }
                    if let Some(b) = finally {
                        v.$block(b);
                    }
                }
                Stmt::Function(f) => v.$function(f),
                Stmt::Block(b) => v.$block(b),
                Stmt::GlobalVar(_)
                | Stmt::Break
                | Stmt::Continue
                | Stmt::Exit
                | Stmt::Return(None)
                | Stmt::Unstructured(_) => {}
            })
        }

        /// Visits the expressions and functions directly inside `e`.
        pub fn $walk_expr<V: $Visitor + ?Sized>(v: &mut V, e: &$($m)? Expr) {
            deep(|| match e {
                Expr::Lit(_) | Expr::Ident(_) => {}
                Expr::Member(x, _) | Expr::Unary(_, x) | Expr::Paren(x) => v.$expr(x),
                Expr::Update { target, .. } => v.$expr(target),
                Expr::Index(x, items) | Expr::Call(x, items) | Expr::New(x, items) => {
                    v.$expr(x);
                    for i in items {
                        v.$expr(i);
                    }
                }
                Expr::Binary(_, l, r) => {
                    v.$expr(l);
                    v.$expr(r);
                }
                Expr::Ternary(c, a, b) => {
                    v.$expr(c);
                    v.$expr(a);
                    v.$expr(b);
                }
                Expr::Array(items) => {
                    for i in items {
                        v.$expr(i);
                    }
                }
                Expr::Struct(fields) => {
                    for (_, x) in fields {
                        v.$expr(x);
                    }
                }
                Expr::Function(f) => v.$function(f),
            })
        }

        /// Visits a function's parameter defaults, its parent constructor's arguments and its
        /// body.
        pub fn $walk_function<V: $Visitor + ?Sized>(v: &mut V, f: &$($m)? Function) {
            for (_, d) in &$($m)? f.params {
                if let Some(d) = d {
                    v.$expr(d);
                }
            }
            if let Some((_, args)) = &$($m)? f.inherits {
                for a in args {
                    v.$expr(a);
                }
            }
            v.$block(&$($m)? f.body);
        }
    };
}

walks!(Visitor, []; visit_block, visit_stmt, visit_expr, visit_function;
    walk_block, walk_stmt, walk_expr, walk_function);
walks!(VisitorMut, [mut]; visit_block_mut, visit_stmt_mut, visit_expr_mut, visit_function_mut;
    walk_block_mut, walk_stmt_mut, walk_expr_mut, walk_function_mut);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse;

    /// Records the names of the identifiers it meets, in visiting order.
    #[derive(Default)]
    struct Names(Vec<String>);

    impl Visitor for Names {
        fn visit_expr(&mut self, e: &Expr) {
            if let Expr::Ident(n) = e {
                self.0.push(n.clone());
            }
            walk_expr(self, e)
        }
    }

    #[test]
    fn visits_every_expression_in_source_order() {
        let src = "if (a) { b = c; } else { d(e); }\n\
                   for (f = g; h; i++) { with (j) { k = [l, {m: n}]; } }\n\
                   do { o = p ? q : r; } until (s);\n\
                   switch (t) { case u: v = w.x[y]; break; default: z = new Z(aa); }\n\
                   try { throw bb; } catch (cc) { return dd; } finally { delete ee; }\n\
                   var ff = gg, hh;\n\
                   function ii(jj = kk) { ll = function () { return mm; }; }\n\
                   repeat (nn) { oo++; }\n\
                   while (pp) { qq = -rr + (ss); }";
        let mut v = Names::default();
        v.visit_block(&parse(src).unwrap());
        let expected = "a b c d e f g h i j k l n o p q r s t u v w y z Z aa bb dd ee gg kk ll mm \
                        nn oo pp qq rr ss";
        assert_eq!(v.0.join(" "), expected);
    }

    /// Renames every identifier `a` to `b`, and drops `exit` statements from every block.
    struct Rename;

    impl VisitorMut for Rename {
        fn visit_block_mut(&mut self, body: &mut Vec<Stmt>) {
            body.retain(|s| !matches!(s, Stmt::Exit));
            walk_block_mut(self, body)
        }

        fn visit_expr_mut(&mut self, e: &mut Expr) {
            if let Expr::Ident(n) = e
                && n == "a"
            {
                *n = "b".into();
            }
            walk_expr_mut(self, e)
        }
    }

    #[test]
    fn a_mutable_walk_reaches_every_expression_and_block() {
        let mut t =
            parse("a = a + f(a); if (a) { exit; x = function (p = a) { exit; return a; }; }")
                .unwrap();
        Rename.visit_block_mut(&mut t);
        assert_eq!(
            t,
            parse("b = b + f(b); if (b) { x = function (p = b) { return b; }; }").unwrap()
        );
    }

    /// Counts the expressions it visits.
    struct Count(usize);

    impl Visitor for Count {
        fn visit_expr(&mut self, e: &Expr) {
            self.0 += 1;
            walk_expr(self, e)
        }
    }

    #[test]
    fn a_walk_of_a_very_deep_tree_does_not_overflow_a_small_stack() {
        // Deeper than the parser accepts: trees built by hand are walked too.
        let n = 100_000;
        let mut e = Expr::Ident("x".into());
        for _ in 0..n {
            e = Expr::Unary(crate::ast::UnaryOp::Neg, Box::new(e));
        }
        let mut s = Stmt::Expr(e);
        for _ in 0..n {
            s = Stmt::Block(vec![s]);
        }
        let h = std::thread::Builder::new()
            .stack_size(256 * 1024)
            .spawn(move || {
                let mut c = Count(0);
                c.visit_stmt(&s);
                let mut r = Rename;
                r.visit_stmt_mut(&mut s);
                // Dropping a deep tree recurses too: take it apart level by level.
                let mut e = loop {
                    match s {
                        Stmt::Block(mut b) => s = b.pop().unwrap_or(Stmt::Break),
                        Stmt::Expr(e) => break e,
                        _ => unreachable!("built above"),
                    }
                };
                while let Expr::Unary(_, x) = e {
                    e = *x;
                }
                c.0
            })
            .unwrap();
        assert_eq!(h.join().unwrap(), n + 1);
    }
}
