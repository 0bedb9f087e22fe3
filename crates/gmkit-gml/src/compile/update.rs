//! `++`/`--` used as a value (spec §4.6): the old (postfix) or new (prefix) value stays on the
//! stack as a duplicate of the re-read; `throw` (spec §5.8); calls the compiler replaces
//! (`variable_get_hash("k")`, spec §9); `??` and `??=` (2.3.7+, spec §4.3).

use super::{CompileError, Compiler, R};
use crate::ast::{Expr, Literal, UpdateOp};
use gmkit_data::chunks::code::{DataType, Instruction, Opcode, PushValue, RefType};

impl Compiler<'_> {
    /// `a++` / `++a` as an expression on a simple variable.
    pub(super) fn update_expr(&mut self, op: UpdateOp, prefix: bool, target: &Expr) -> R<DataType> {
        let var = match target {
            Expr::Ident(n) => {
                let (vi, inst, _) = self.scope_of(n);
                self.varref(n, vi, inst, RefType::NORMAL)?
            }
            // `global.x`, `self.x`, `obj.x`: a constant instance, read like a simple variable.
            Expr::Member(o, n) if self.instance_number_in(o, true).is_some() => {
                let k = self.instance_number_in(o, true).unwrap_or(-1);
                let vi = if k == -5 { -5 } else { -1 };
                self.varref(n, vi, k as i16, RefType::NORMAL)?
            }
            _ => {
                return Err(CompileError::Unsupported(
                    "++/-- as a value on a non-simple target".into(),
                ));
            }
        };
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

    /// `throw e;`: the value converted to v, `call.i @@throw@@ 1`, not popped.
    pub(super) fn throw(&mut self, e: &Expr) -> R<()> {
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

    /// Calls compiled to something else: 2024.2+ `variable_get_hash("k")` → `push.i
    /// [variable]k` (type i). `None`: an ordinary call.
    pub(super) fn intrinsic_call(&mut self, name: &str, args: &[Expr]) -> R<Option<DataType>> {
        if name == "variable_get_hash"
            && self.f().self_to_builtin()
            && !self.names.funcs.contains_key(name)
            && let [Expr::Lit(Literal::String(k))] = args
        {
            let var = self.var(k, -1)?;
            self.emit(Instruction::Push {
                op: Opcode::Push,
                value: PushValue::VariableId(var),
            });
            return Ok(Some(DataType::Int32));
        }
        Ok(None)
    }

    /// `a ?? b`: `<a> / isnullish.e / bf L / popz.v / <b> / L:` (the value stays when `a` is
    /// not nullish).
    pub(super) fn nullish(&mut self, l: &Expr, r: &Expr) -> R<DataType> {
        let t = self.expr(l)?;
        self.conv(t, DataType::Variable);
        self.ext(gmkit_data::chunks::code::ExtendedKind::CHKNULLISH);
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
