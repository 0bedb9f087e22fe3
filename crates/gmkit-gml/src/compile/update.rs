//! `++`/`--` used as a value (spec §4.6): the old (postfix) or new (prefix) value stays on the
//! stack as a duplicate of the re-read.

use super::{CompileError, Compiler, R};
use crate::ast::{Expr, UpdateOp};
use gmkit_data::chunks::code::{DataType, Instruction, Opcode, PushValue, RefType};

impl Compiler<'_> {
    /// `a++` / `++a` as an expression on a simple variable.
    pub(super) fn update_expr(&mut self, op: UpdateOp, prefix: bool, target: &Expr) -> R<DataType> {
        let Expr::Ident(n) = target else {
            return Err(CompileError::Unsupported(
                "++/-- as a value on a non-simple target".into(),
            ));
        };
        let (vi, inst, _) = self.scope_of(n);
        let var = self.varref(n, vi, inst, RefType::NORMAL)?;
        self.emit(Instruction::Push {
            op: Opcode::Push,
            value: PushValue::Variable(var),
        });
        let dup = Instruction::Dup {
            t: DataType::Variable,
            count: 0,
            extra: 0,
        };
        if !prefix {
            self.emit(dup);
        }
        self.push_e1();
        let opc = if op == UpdateOp::Inc {
            Opcode::Add
        } else {
            Opcode::Sub
        };
        self.binop_ins(opc, DataType::Int32, DataType::Variable);
        if prefix {
            self.emit(dup);
        }
        self.emit(Instruction::Pop {
            t1: DataType::Variable,
            t2: DataType::Variable,
            var,
        });
        Ok(DataType::Variable)
    }
}
