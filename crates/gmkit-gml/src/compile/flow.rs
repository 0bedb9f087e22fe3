//! `throw` (spec `gml-bytecode.md` §5.8): the value converted to a variable, then
//! `call.i @@throw@@ 1`, whose result is not popped; `a ?? b` (§4.3).

use super::{Compiler, R};
use crate::ast::Expr;
use gmkit_data::chunks::code::{DataType, ExtendedKind, Instruction, Opcode};

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
}
