//! Global functions named as values (spec `gml-bytecode.md` §6.3): `f = scr_fn` pushes the
//! function's id (`push.i [function]gml_Script_scr_fn`, type int) in 2.3 – 2024.1 and a
//! function reference (`pushref.i`, type variable) from 2024.2 on.

use super::Compiler;
use crate::game::AssetKind;
use gmkit_data::Id;
use gmkit_data::chunks::code::{
    DataType, ExtOperand, ExtendedKind, Instruction, Opcode, PushValue,
};

impl Compiler<'_> {
    /// The value of bare name `n` when it names a global script function (not shadowed by a
    /// local); `None` otherwise, with nothing emitted.
    pub(super) fn function_value(&mut self, n: &str) -> Option<DataType> {
        if !self.f().gml_v2() || self.locals.contains(n) {
            return None;
        }
        let &f = self.names.funcs.get(&format!("gml_Script_{n}"))?;
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
