//! Escapes from `try` / `catch` blocks, rewritten as GameMaker's compiler rewrites them
//! before emitting code (spec `gml-bytecode.md` §5.9, §5.7, §5.8):
//!
//! - `return e` inside a try with a `finally`: `var copyVar = e;`, a copy of every enclosing
//!   finally body (innermost first), `return copyVar;` (which then takes the temp pattern
//!   with `@@try_unhook@@` / `@@finish_catch@@`). `exit` likewise inlines the finally bodies.
//! - `throw e` inside a try with a `finally` (before 2024.6): a copy of the innermost finally
//!   body first, when the try block has an escape statement or the try has no catch (in the
//!   catch block: when the catch has an escape or a `throw`).
//! - `break` / `continue`: `__yy_breakExN = 1; break;` (`__yy_continueExN` likewise). A try
//!   or catch block with such a statement is wrapped in a one-shot
//!   `while (true) { if (__yy_continueExN) break; BODY; break; }`; both locals are set to 0
//!   before the try, and after it, when the try sits in a `for`, `repeat` or `with`,
//!   `if (__yy_continueExN) continue; if (__yy_breakExN) break;`. Before 2024.11 every
//!   break/continue lexically inside the try is rewritten (except one directly in a `switch`),
//!   even one that belongs to a loop inside the try; from 2024.11 only those that leave the
//!   try (a `while`/`do` inside the try is a quirk: after a `while`, later ones in the same
//!   block are no longer rewritten).
//! - `break` / `continue` / `return` / `exit` inside a finally block are errors.
//!
//! Nested function bodies are rewritten when they are compiled (each function has its own
//! finally list); the counter `N` runs over the whole code entry.

use super::{CompileError, R};
use crate::ast::{Expr, Literal, Stmt};

/// The local a `return` value is kept in while finally bodies run.
const COPY_VAR: &str = "copyVar";

struct TryCtx {
    brk: String,
    cont: String,
    has_finally: bool,
    /// A break/continue variable was set in the block being rewritten.
    used: bool,
    /// 2024.11+: break/continue here leave the try (no loop in between).
    escaping: bool,
    /// A `throw` gets the innermost finally body first.
    throw_finally: bool,
}

/// The rewriting state of one function body.
pub(super) struct Lower<'a> {
    /// 2024.11+: only break/continue that leave the try are rewritten.
    escaping_only: bool,
    /// Before 2024.6: `throw` inlines the innermost finally body.
    finally_before_throw: bool,
    /// The per-entry counter of try statements.
    counter: &'a mut u32,
    tries: Vec<TryCtx>,
    /// Enclosing finally bodies (rewritten), outermost first.
    finallies: Vec<Vec<Stmt>>,
    in_switch: bool,
    /// Inside a `for`, `repeat` or `with` (break/continue propagate past the try).
    loop_context: bool,
    /// Inside a finally block (escapes are errors); `loops` counts loops inside it.
    in_finally: bool,
    finally_loops: usize,
}

/// Whether `body` (nested functions aside) has a `try`.
pub(super) fn has_try(body: &[Stmt]) -> bool {
    super::try_catch::has(body, &|s| matches!(s, Stmt::Try { .. }))
}

impl<'a> Lower<'a> {
    pub(super) fn new(f: crate::Features, counter: &'a mut u32) -> Lower<'a> {
        Lower {
            escaping_only: f.try_break_escaping_only(),
            finally_before_throw: f.finally_before_throw(),
            counter,
            tries: Vec::new(),
            finallies: Vec::new(),
            in_switch: false,
            loop_context: false,
            in_finally: false,
            finally_loops: 0,
        }
    }

    /// Rewrites a function body (or a root entry's code).
    pub(super) fn body(&mut self, body: &[Stmt]) -> R<Vec<Stmt>> {
        body.iter().map(|s| self.stmt(s)).collect()
    }

    fn stmt(&mut self, s: &Stmt) -> R<Stmt> {
        crate::limits::deep(|| self.stmt_inner(s)).map_err(|e| e.in_statement(s))
    }

    fn escape_in_finally(&self, what: &str) -> R<()> {
        let loop_escape = (what == "break" || what == "continue") && self.finally_loops > 0;
        if self.in_finally && !loop_escape {
            return Err(CompileError::Invalid(format!(
                "`{what}` inside a finally block (GameMaker refuses it)"
            )));
        }
        Ok(())
    }

    fn stmt_inner(&mut self, s: &Stmt) -> R<Stmt> {
        Ok(match s {
            Stmt::Break | Stmt::Continue => {
                let brk = matches!(s, Stmt::Break);
                self.escape_in_finally(if brk { "break" } else { "continue" })?;
                let escaping_only = self.escaping_only;
                match self.tries.last_mut() {
                    Some(t) if !self.in_switch && (!escaping_only || t.escaping) => {
                        t.used = true;
                        let var = if brk { &t.brk } else { &t.cont };
                        Stmt::Block(vec![set(var, 1), s.clone()])
                    }
                    _ => s.clone(),
                }
            }
            Stmt::Return(v) => {
                self.escape_in_finally("return")?;
                match (v, self.tries.last()) {
                    (Some(e), Some(t)) if t.has_finally => {
                        let mut out = vec![Stmt::Var(vec![(COPY_VAR.into(), Some(e.clone()))])];
                        out.extend(self.finallies.iter().rev().cloned().map(Stmt::Block));
                        out.push(Stmt::Return(Some(Expr::Ident(COPY_VAR.into()))));
                        Stmt::Block(out)
                    }
                    (None, Some(t)) if t.has_finally => self.inline_finallies(s.clone()),
                    _ => s.clone(),
                }
            }
            Stmt::Exit => {
                self.escape_in_finally("exit")?;
                match self.tries.last() {
                    Some(t) if t.has_finally => self.inline_finallies(Stmt::Exit),
                    _ => s.clone(),
                }
            }
            Stmt::Throw(_) => match (self.tries.last(), self.finallies.last()) {
                (Some(t), Some(f))
                    if t.has_finally && t.throw_finally && self.finally_before_throw =>
                {
                    Stmt::Block(vec![Stmt::Block(f.clone()), s.clone()])
                }
                _ => s.clone(),
            },
            Stmt::If(c, a, b) => Stmt::If(
                c.clone(),
                self.body(a)?,
                b.as_ref().map(|b| self.body(b)).transpose()?,
            ),
            Stmt::Block(b) => Stmt::Block(self.body(b)?),
            Stmt::For(i, c, st, b) => {
                let b = self.in_loop(true, true, |l| l.body(b))?;
                Stmt::For(i.clone(), c.clone(), st.clone(), b)
            }
            Stmt::Repeat(n, b) => Stmt::Repeat(n.clone(), self.in_loop(true, true, |l| l.body(b))?),
            Stmt::With(e, b) => Stmt::With(e.clone(), self.in_loop(true, true, |l| l.body(b))?),
            Stmt::While(c, b) => Stmt::While(c.clone(), self.in_loop(false, true, |l| l.body(b))?),
            // GameMaker's `do … until` changes none of the flags.
            Stmt::DoUntil(b, c) => {
                Stmt::DoUntil(self.in_loop(false, false, |l| l.body(b))?, c.clone())
            }
            Stmt::Switch(v, cases) => {
                let saved = std::mem::replace(&mut self.in_switch, true);
                let r: R<Vec<_>> = cases
                    .iter()
                    .map(|c| {
                        Ok(crate::ast::Case {
                            label: c.label.clone(),
                            body: self.body(&c.body)?,
                        })
                    })
                    .collect();
                self.in_switch = saved;
                Stmt::Switch(v.clone(), r?)
            }
            Stmt::Try {
                body,
                catch,
                finally,
            } => self.try_stmt(body, catch.as_ref(), finally.as_deref())?,
            _ => s.clone(),
        })
    }

    /// `stmts` of every enclosing finally body (innermost first), then `last`.
    fn inline_finallies(&self, last: Stmt) -> Stmt {
        let mut out: Vec<Stmt> = self
            .finallies
            .iter()
            .rev()
            .cloned()
            .map(Stmt::Block)
            .collect();
        out.push(last);
        Stmt::Block(out)
    }

    /// A loop body: `full` loops (`for`, `repeat`, `with`) make break/continue propagate
    /// past a try and restore the try's state after; a `while` stops rewriting for the rest
    /// of the block (GameMaker's quirk); `do … until` changes nothing.
    fn in_loop<T>(&mut self, full: bool, flags: bool, f: impl FnOnce(&mut Self) -> R<T>) -> R<T> {
        let saved_switch = self.in_switch;
        let saved_context = self.loop_context;
        let saved_escaping = self.tries.last().map(|t| t.escaping);
        if flags {
            self.in_switch = false;
            if let Some(t) = self.tries.last_mut() {
                t.escaping = false;
            }
        }
        if full {
            self.loop_context = true;
        }
        self.finally_loops += usize::from(self.in_finally);
        let r = f(self);
        self.finally_loops -= usize::from(self.in_finally);
        self.in_switch = saved_switch;
        self.loop_context = saved_context;
        if full && let (Some(t), Some(e)) = (self.tries.last_mut(), saved_escaping) {
            t.escaping = e;
        }
        r
    }

    fn try_stmt(
        &mut self,
        body: &[Stmt],
        catch: Option<&(String, Vec<Stmt>)>,
        finally: Option<&[Stmt]>,
    ) -> R<Stmt> {
        let finally = match finally {
            Some(f) => {
                let saved = std::mem::replace(&mut self.in_finally, true);
                let saved_loops = std::mem::take(&mut self.finally_loops);
                let r = self.body(f);
                self.in_finally = saved;
                self.finally_loops = saved_loops;
                Some(r?)
            }
            None => None,
        };
        let n = *self.counter;
        *self.counter += 1;
        let escapes = |b: &[Stmt], throw: bool| {
            super::try_catch::has(b, &|s| {
                matches!(
                    s,
                    Stmt::Return(_) | Stmt::Exit | Stmt::Break | Stmt::Continue
                ) || (throw && matches!(s, Stmt::Throw(_)))
            })
        };
        self.tries.push(TryCtx {
            brk: format!("__yy_breakEx{n}"),
            cont: format!("__yy_continueEx{n}"),
            has_finally: finally.is_some(),
            used: false,
            escaping: true,
            throw_finally: escapes(body, false) || catch.is_none(),
        });
        if let Some(f) = &finally {
            self.finallies.push(f.clone());
        }
        let r = self.try_blocks(body, catch, escapes);
        let t = self.tries.pop().expect("pushed");
        if finally.is_some() {
            self.finallies.pop();
        }
        let (body, catch, any) = r?;
        let tried = Stmt::Try {
            body,
            catch,
            finally,
        };
        if !any {
            return Ok(tried);
        }
        let mut out = vec![
            Stmt::Var(vec![(t.brk.clone(), Some(int(0)))]),
            Stmt::Var(vec![(t.cont.clone(), Some(int(0)))]),
            tried,
        ];
        if self.loop_context {
            out.push(Stmt::If(Expr::Ident(t.cont), vec![Stmt::Continue], None));
            out.push(Stmt::If(Expr::Ident(t.brk), vec![Stmt::Break], None));
        }
        Ok(Stmt::Block(out))
    }

    #[allow(clippy::type_complexity)]
    fn try_blocks(
        &mut self,
        body: &[Stmt],
        catch: Option<&(String, Vec<Stmt>)>,
        escapes: impl Fn(&[Stmt], bool) -> bool,
    ) -> R<(Vec<Stmt>, Option<(String, Vec<Stmt>)>, bool)> {
        let mut any = false;
        let body = self.block_of_try(body, &mut any)?;
        let catch = match catch {
            Some((name, b)) => {
                if let Some(t) = self.tries.last_mut() {
                    t.throw_finally = escapes(b, true);
                }
                Some((name.clone(), self.block_of_try(b, &mut any)?))
            }
            None => None,
        };
        Ok((body, catch, any))
    }

    /// The try or catch block, wrapped in the one-shot loop if a break/continue was rewritten.
    fn block_of_try(&mut self, b: &[Stmt], any: &mut bool) -> R<Vec<Stmt>> {
        // A try directly in a `switch` keeps its breaks unrewritten (as GameMaker does).
        if let Some(t) = self.tries.last_mut() {
            t.escaping = true;
            t.used = false;
        }
        let b = self.body(b)?;
        let t = self.tries.last().expect("inside a try");
        if !t.used {
            return Ok(b);
        }
        *any = true;
        Ok(vec![Stmt::While(
            Expr::Lit(Literal::Bool(true)),
            vec![
                Stmt::If(Expr::Ident(t.cont.clone()), vec![Stmt::Break], None),
                Stmt::Block(b),
                Stmt::Break,
            ],
        )])
    }
}

fn int(v: i64) -> Expr {
    Expr::Lit(Literal::Int(v))
}

/// `name = v;` on a local declared before the try.
fn set(name: &str, v: i64) -> Stmt {
    Stmt::Assign {
        target: Expr::Ident(name.into()),
        op: None,
        value: int(v),
    }
}
