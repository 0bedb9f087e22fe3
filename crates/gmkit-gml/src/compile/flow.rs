//! `throw` (spec `gml-bytecode.md` §5.8): the value converted to a variable, then
//! `call.i @@throw@@ 1`, whose result is not popped.

use super::{Compiler, R};
use crate::ast::Expr;
use gmkit_data::chunks::code::{DataType, Instruction};

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
}
