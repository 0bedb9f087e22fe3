//! Global functions named as values (spec `gml-bytecode.md` §6.3): `f = scr_fn` pushes the
//! function's id (`push.i [function]gml_Script_scr_fn`, type int) in 2.3 – 2024.1 and a
//! function reference (`pushref.i`, type variable) from 2024.2 on; `self`/`other`/`global` as
//! values; chained method calls.

use super::{Compiler, R};
use crate::ast::Expr;
use crate::game::AssetKind;
use gmkit_data::Id;
use gmkit_data::chunks::code::{
    DataType, ExtOperand, ExtendedKind, Instruction, Opcode, PushValue, RefType,
};

impl Compiler<'_> {
    /// `self`, `other`, `global` as values in 2.3+ (spec §3.2): `call.i @@This@@ 0`,
    /// `@@Other@@`, and `@@Global@@` from 2023.11 (`pushi.e -5` before).
    pub(super) fn special_value(&mut self, n: &str) -> R<Option<DataType>> {
        if !self.f().gml_v2() || self.locals.contains(n) {
            return Ok(None);
        }
        let helper = match n {
            "self" => "@@This@@",
            "other" => "@@Other@@",
            "global" if self.f().global_call() => "@@Global@@",
            "global" => return Ok(Some(self.push_int(-5))),
            _ => return Ok(None),
        };
        let function = self.func(helper)?;
        self.emit(Instruction::Call {
            t: DataType::Int32,
            argc: 0,
            function,
        });
        Ok(Some(DataType::Variable))
    }

    /// `f(a).m(b)` before 2024.14.4 (spec §6.2): this call's arguments first, then the inner
    /// call, `dup.v 0`, `pushi.e -9`, `push.v [stacktop]self.m`, `callv.v N`.
    pub(super) fn chained_call(&mut self, inner: &Expr, m: &str, args: &[Expr]) -> R<DataType> {
        for a in args.iter().rev() {
            let t = self.expr(a)?;
            self.conv(t, DataType::Variable);
        }
        self.expr(inner)?;
        self.emit(Instruction::Dup {
            t: DataType::Variable,
            count: 0,
            extra: 0,
        });
        self.push_int(-9);
        let var = self.varref(m, -1, 0, RefType::STACKTOP)?;
        self.emit(Instruction::Push {
            op: Opcode::Push,
            value: PushValue::Variable(var),
        });
        self.emit(Instruction::CallV {
            t: DataType::Variable,
            argc: args.len() as u16,
        });
        Ok(DataType::Variable)
    }

    /// Whether the owner `o` of `o.arr[i]` is pushed as a value (`@@This@@` etc. then `-9`):
    /// `self`/`other` from 2024.2, `global` from 2023.11 (spec §4.7).
    pub(super) fn owner_by_call(&self, o: &Expr) -> bool {
        match o {
            Expr::Ident(n) if n == "global" => self.f().global_call(),
            Expr::Ident(n) if n == "self" || n == "other" => self.f().self_to_builtin(),
            _ => false,
        }
    }

    /// The value of bare name `n` when it names a global script function (not shadowed by a
    /// local); `None` otherwise, with nothing emitted.
    pub(super) fn function_value(&mut self, n: &str) -> Option<DataType> {
        if !self.f().gml_v2() || self.locals.contains(n) {
            return None;
        }
        let Some(&f) = self.names.funcs.get(&format!("gml_Script_{n}")) else {
            // A built-in function as a value (`f = draw_self`): its id, in every version.
            if self.names.vars_by_name.contains_key(n) || n.starts_with("@@") {
                return None;
            }
            let &f = self.names.funcs.get(n)?;
            self.emit(Instruction::Push {
                op: Opcode::Push,
                value: PushValue::Function(Id::new(f)),
            });
            return Some(DataType::Int32);
        };
        let function = Id::new(f);
        if self.f().function_refs() {
            let asset_type = self.game.pushref_type(AssetKind::Script)?;
            self.emit(Instruction::Extended {
                kind: ExtendedKind::PUSHREF,
                t: DataType::Int32,
                operand: Some(ExtOperand::Function {
                    function,
                    asset_type,
                }),
            });
            Some(DataType::Variable)
        } else {
            self.emit(Instruction::Push {
                op: Opcode::Push,
                value: PushValue::Function(function),
            });
            Some(DataType::Int32)
        }
    }
}
