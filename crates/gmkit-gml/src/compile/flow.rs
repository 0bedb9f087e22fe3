//! `throw` (spec `gml-bytecode.md` §5.8): the value converted to a variable, then
//! `call.i @@throw@@ 1`, whose result is not popped; `a ?? b` and `a ??= v` (§4.3).

use super::{CompileError, Compiler, R};
use crate::ast::Expr;
use gmkit_data::chunks::code::{DataType, ExtendedKind, Instruction, Opcode, RefType};

impl Compiler<'_> {
    /// `throw e;`
    pub(super) fn throw_stmt(&mut self, e: &Expr) -> R<()> {
        let t = self.expr(e)?;
        self.conv(t, DataType::Variable);
        let function = self.func("@@throw@@")?;
        self.emit(Instruction::Call {
            t: DataType::Int32,
            argc: 1,
            function,
        });
        Ok(())
    }

    /// `a ?? b` (2.3.7+): `a`, `isnullish.e` (tests without popping), `bf` over the right
    /// side, which replaces the left value (`popz.v`); both sides converted to variables.
    pub(super) fn nullish(&mut self, l: &Expr, r: &Expr) -> R<DataType> {
        let t = self.expr(l)?;
        self.conv(t, DataType::Variable);
        self.ext(ExtendedKind::CHKNULLISH);
        let end = self.label();
        self.branch(Opcode::Bf, end);
        self.emit(Instruction::Unary {
            op: Opcode::Popz,
            t: DataType::Variable,
        });
        let t = self.expr(r)?;
        self.conv(t, DataType::Variable);
        self.place(end);
        Ok(DataType::Variable)
    }

    /// `a ??= v` on a variable: `<a> / isnullish.e / bf L1 / popz.v / <v> / pop a / b L2 /
    /// L1: popz.v / L2:`.
    pub(super) fn nullish_assign(&mut self, target: &Expr, value: &Expr) -> R<()> {
        if !matches!(target, Expr::Ident(_)) {
            return Err(CompileError::Unsupported(
                "??= on a non-simple target".into(),
            ));
        }
        let t = self.expr(target)?;
        self.conv(t, DataType::Variable);
        self.ext(gmkit_data::chunks::code::ExtendedKind::CHKNULLISH);
        let l1 = self.label();
        let l2 = self.label();
        self.branch(Opcode::Bf, l1);
        self.emit(Instruction::Unary {
            op: Opcode::Popz,
            t: DataType::Variable,
        });
        // The value is converted to v before the store.
        let t = self.expr(value)?;
        self.conv(t, DataType::Variable);
        let Expr::Ident(n) = target else {
            unreachable!("checked above")
        };
        let (vi, inst, _) = self.scope_of(n);
        let var = self.varref(n, vi, inst, RefType::NORMAL)?;
        self.emit(Instruction::Pop {
            t1: DataType::Variable,
            t2: DataType::Variable,
            var,
        });
        self.branch(Opcode::B, l2);
        self.place(l1);
        self.emit(Instruction::Unary {
            op: Opcode::Popz,
            t: DataType::Variable,
        });
        self.place(l2);
        Ok(())
    }
}
