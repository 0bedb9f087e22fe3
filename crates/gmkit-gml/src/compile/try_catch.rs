//! `try / catch / finally` (2.3+, spec §5.9 and Appendix C). The hook call takes the byte
//! offsets (in the code blob) of the catch block and of the finally section.
//!
//! Escapes out of a protected block (`return`, `exit`, `break`, `continue`) are rewritten by
//! GameMaker (temporaries, inlined finally bodies); they are not compiled yet.

use super::{CompileError, Compiler, R};
use crate::ast::Stmt;
use gmkit_data::chunks::code::{DataType, Instruction, Opcode, PushValue, RefType};

/// Whether `body` leaves the block other than by its end (nested functions aside).
fn escapes(body: &[Stmt]) -> bool {
    body.iter().any(|s| match s {
        Stmt::Return(_) | Stmt::Exit | Stmt::Break | Stmt::Continue => true,
        Stmt::If(_, a, b) => escapes(a) || b.as_deref().is_some_and(escapes),
        Stmt::While(_, b)
        | Stmt::DoUntil(b, _)
        | Stmt::Repeat(_, b)
        | Stmt::With(_, b)
        | Stmt::Block(b)
        | Stmt::For(_, _, _, b) => escapes(b),
        Stmt::Switch(_, cases) => cases.iter().any(|c| escapes(&c.body)),
        Stmt::Try {
            body,
            catch,
            finally,
        } => {
            escapes(body)
                || catch.as_ref().is_some_and(|(_, b)| escapes(b))
                || finally.as_deref().is_some_and(escapes)
        }
        _ => false,
    })
}

impl Compiler<'_> {
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
        if escapes(body) || catch.is_some_and(|(_, b)| escapes(b)) || finally.is_some_and(escapes) {
            return Err(CompileError::Unsupported(
                "return/exit/break/continue inside try".into(),
            ));
        }
        let fin = self.label();
        let end = self.label();
        let lcatch = catch.map(|_| self.label());
        self.push_address(fin);
        match lcatch {
            Some(l) => self.push_address(l),
            None => {
                self.push_int(-1);
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
        self.block(body)?;
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
            self.block(cbody)?;
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
