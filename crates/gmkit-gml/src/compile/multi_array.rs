//! Multi-dimensional array access (2.3+, spec §4.7): the first index through a `[multipush]`
//! (read) or `[multipushpop]` (write) reference, middle indices with `pushac.e`, the last with
//! `pushaf.e` (read) or `popaf.e` (write).

use super::{CompileError, Compiler, R};
use crate::ast::Expr;
use gmkit_data::chunks::code::{DataType, ExtendedKind, Instruction, Opcode, PushValue, RefType};

impl Compiler<'_> {
    /// Flattens `a[i][j]…` into the innermost base and its indices (outermost first).
    fn chain<'e>(e: &'e Expr, out: &mut Vec<&'e Expr>) -> &'e Expr {
        match e {
            Expr::Index(b, idx) if idx.len() == 1 => {
                let base = Self::chain(b, out);
                out.push(&idx[0]);
                base
            }
            e => e,
        }
    }

    /// Pushes the chain's owner, first index and reference, and the middle indices; returns
    /// the last index to be pushed by the caller.
    fn multi_prefix<'e>(&mut self, e: &'e Expr, write: bool) -> R<&'e Expr> {
        let mut idx = Vec::new();
        let base = Self::chain(e, &mut idx);
        if idx.len() < 2 {
            return Err(CompileError::Unsupported("array base".into()));
        }
        let (name, vi) = self.array_owner(base, std::slice::from_ref(idx[0]))?;
        let rt = if write {
            RefType(0x90)
        } else {
            RefType::ARRAY_PUSH_AF
        };
        let var = self.varref(&name, vi, 0, rt)?;
        self.emit(Instruction::Push {
            op: Opcode::Push,
            value: PushValue::Variable(var),
        });
        let last = idx.len() - 1;
        for i in &idx[1..last] {
            let t = self.expr(i)?;
            self.conv(t, DataType::Int32);
            self.ext(ExtendedKind::PUSHAC);
        }
        Ok(idx[last])
    }

    /// `a[i][j]…` as a value.
    pub(super) fn multi_read(&mut self, e: &Expr) -> R<DataType> {
        let last = self.multi_prefix(e, false)?;
        let t = self.expr(last)?;
        self.conv(t, DataType::Int32);
        self.ext(ExtendedKind::PUSHAF);
        Ok(DataType::Variable)
    }

    /// `a[i][j]… = value`.
    pub(super) fn multi_write(&mut self, target: &Expr, value: &Expr) -> R<()> {
        let t = self.expr(value)?;
        self.conv(t, DataType::Variable);
        let last = self.multi_prefix(target, true)?;
        let t = self.expr(last)?;
        self.conv(t, DataType::Int32);
        self.ext(ExtendedKind::POPAF);
        Ok(())
    }
}
