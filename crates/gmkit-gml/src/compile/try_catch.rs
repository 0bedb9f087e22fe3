//! `try / catch / finally` (2.3+, spec §5.9 and Appendix C). The hook call takes the byte
//! offsets (in the code blob) of the catch block and of the finally section.
//!
//! `return`/`exit` inside a try or catch block call `@@try_unhook@@` / `@@finish_catch@@`
//! (result not popped) on the way out. Escapes (`return`, `exit`, `throw` with a `finally`,
//! `break`/`continue`) are rewritten beforehand by the `try_lower` module, as GameMaker does.

use super::{CompileError, Compiler, R};
use crate::ast::Stmt;
use gmkit_data::chunks::code::{DataType, Instruction, Opcode, PushValue, RefType};

/// Whether `body` has a statement `hit` accepts (nested functions aside).
pub(super) fn has(body: &[Stmt], hit: &dyn Fn(&Stmt) -> bool) -> bool {
    crate::limits::deep(|| has_inner(body, hit))
}

fn has_inner(body: &[Stmt], hit: &dyn Fn(&Stmt) -> bool) -> bool {
    body.iter().any(|s| {
        hit(s)
            || match s {
                Stmt::If(_, a, b) => has(a, hit) || b.as_deref().is_some_and(|b| has(b, hit)),
                Stmt::While(_, b)
                | Stmt::DoUntil(b, _)
                | Stmt::Repeat(_, b)
                | Stmt::With(_, b)
                | Stmt::Block(b)
                | Stmt::For(_, _, _, b) => has(b, hit),
                Stmt::Switch(_, cases) => cases.iter().any(|c| has(&c.body, hit)),
                Stmt::Try {
                    body,
                    catch,
                    finally,
                } => {
                    has(body, hit)
                        || catch.as_ref().is_some_and(|(_, b)| has(b, hit))
                        || finally.as_deref().is_some_and(|b| has(b, hit))
                }
                _ => false,
            }
    })
}

impl Compiler<'_> {
    /// Inside a try or catch block of the current function.
    pub(super) fn in_try(&self) -> bool {
        !self.fnc.tries.is_empty()
    }

    /// Leaving the innermost try (`@@try_unhook@@`) or catch (`@@finish_catch@@`) block by
    /// `return`/`exit`: the call, its result left on the stack.
    pub(super) fn try_leave_call(&mut self) -> R<()> {
        let Some(&catch) = self.fnc.tries.last() else {
            return Ok(());
        };
        let function = self.func(if catch {
            "@@finish_catch@@"
        } else {
            "@@try_unhook@@"
        })?;
        self.emit(Instruction::Call {
            t: DataType::Int32,
            argc: 0,
            function,
        });
        Ok(())
    }

    fn call0_popz(&mut self, name: &str) -> R<()> {
        let function = self.func(name)?;
        self.emit(Instruction::Call {
            t: DataType::Int32,
            argc: 0,
            function,
        });
        self.emit(Instruction::Unary {
            op: Opcode::Popz,
            t: DataType::Variable,
        });
        Ok(())
    }

    /// Pushes the byte address of `label` (patched when the code is finished) as a v.
    fn push_address(&mut self, label: usize) {
        self.fixups.push((self.out.len(), label));
        self.emit(Instruction::Push {
            op: Opcode::Push,
            value: PushValue::Int32(0),
        });
        self.conv(DataType::Int32, DataType::Variable);
    }

    /// `try { body } catch (e) { .. } finally { .. }`.
    pub(super) fn try_catch(
        &mut self,
        body: &[Stmt],
        catch: Option<&(String, Vec<Stmt>)>,
        finally: Option<&[Stmt]>,
    ) -> R<()> {
        if !self.f().gml_v2() {
            return Err(CompileError::Invalid(
                "try needs GameMaker 2.3 or later".into(),
            ));
        }
        let fin = self.label();
        let end = self.label();
        let lcatch = catch.map(|_| self.label());
        self.push_address(fin);
        match lcatch {
            Some(l) => self.push_address(l),
            // No catch: `push.i -1` (spec §5.9; a 32-bit operand like the offsets, not `pushi.e`).
            None => {
                self.emit(Instruction::Push {
                    op: Opcode::Push,
                    value: PushValue::Int32(-1),
                });
                self.conv(DataType::Int32, DataType::Variable);
            }
        }
        let hook = self.func("@@try_hook@@")?;
        self.emit(Instruction::Call {
            t: DataType::Int32,
            argc: 2,
            function: hook,
        });
        self.emit(Instruction::Unary {
            op: Opcode::Popz,
            t: DataType::Variable,
        });
        self.fnc.tries.push(false);
        let r = self.block(body);
        self.fnc.tries.pop();
        r?;
        if let (Some((name, cbody)), Some(l)) = (catch, lcatch) {
            self.branch(Opcode::B, fin);
            self.place(l);
            self.locals.insert(name.clone());
            let var = self.varref(name, -7, -7, RefType::NORMAL)?;
            self.emit(Instruction::Pop {
                t1: DataType::Variable,
                t2: DataType::Variable,
                var,
            });
            self.call0_popz("@@try_unhook@@")?;
            self.fnc.tries.push(true);
            let r = self.block(cbody);
            self.fnc.tries.pop();
            r?;
            self.call0_popz("@@finish_catch@@")?;
            self.branch(Opcode::B, end);
        }
        self.place(fin);
        self.call0_popz("@@try_unhook@@")?;
        self.place(end);
        if let Some(f) = finally {
            self.block(f)?;
            self.call0_popz("@@finish_finally@@")?;
            let next = self.label();
            self.branch(Opcode::B, next);
            self.place(next);
        }
        Ok(())
    }
}
