//! Instances as values and chained method calls (spec `gml-bytecode.md` §3.2, §4.7, §6.2):
//! `self`/`other`/`global` as array owners, `f(a).m(b)`, `variable_get_hash`.

use super::call_argc;
use super::{Compiler, R};
use crate::ast::{Expr, Literal};
use gmkit_data::chunks::code::{DataType, Instruction, Opcode, PushValue, RefType};

/// Whether the leftmost element of the method-call chain `e` is a call (`f(a).m(b)`,
/// `f(a).m(b).n(c)`): only those chains push all arguments first; a chain on a variable
/// (`x.m(a).n(b)`) takes the instance-first form at every step (corpus, 2024.4).
pub(super) fn chain_starts_with_call(e: &Expr) -> bool {
    crate::limits::deep(|| match e {
        Expr::Call(c, _) => match &**c {
            Expr::Member(o, _) => matches!(&**o, Expr::Call(..)) && chain_starts_with_call(o),
            _ => true,
        },
        _ => false,
    })
}

impl Compiler<'_> {
    /// `f(a).m(b)` before 2024.14.4 (spec §6.2): this call's arguments first, then the inner
    /// call, `dup.v 0`, `pushi.e -9`, `push.v [stacktop]self.m`, `callv.v N`.
    pub(super) fn chained_call(&mut self, inner: &Expr, m: &str, args: &[Expr]) -> R<DataType> {
        self.call_arguments(args)?;
        self.method_of_value(inner, m)?;
        self.emit(Instruction::CallV {
            t: DataType::Variable,
            argc: call_argc(args.len())?,
        });
        Ok(DataType::Variable)
    }

    /// `f(a).m(b)` from 2024.14.4 (spec §6.2): the inner call, `dup.v 0`, `pushi.e -9`,
    /// `push.v [stacktop]self.m`, this call's arguments, `dup.e 2 N` (the arguments move
    /// below the instance and the function), `callv.v N`.
    pub(super) fn chained_call_args_last(
        &mut self,
        inner: &Expr,
        m: &str,
        args: &[Expr],
    ) -> R<DataType> {
        let n = u8::try_from(args.len())
            .ok()
            .filter(|&n| n <= 15)
            .ok_or_else(|| {
                super::CompileError::Unsupported(format!(
                    "a chained method call with {} arguments (`dup.e` moves at most 15)",
                    args.len()
                ))
            })?;
        self.method_of_value(inner, m)?;
        self.call_arguments(args)?;
        self.emit(Instruction::Dup {
            t: DataType::Int16,
            count: 2,
            extra: 0x80 | (n << 3),
        });
        self.emit(Instruction::CallV {
            t: DataType::Variable,
            argc: call_argc(args.len())?,
        });
        Ok(DataType::Variable)
    }

    /// A call's arguments, last first, each as a variable.
    pub(super) fn call_arguments(&mut self, args: &[Expr]) -> R<()> {
        for a in args.iter().rev() {
            let t = self.expr(a)?;
            self.conv(t, DataType::Variable);
        }
        Ok(())
    }

    /// Method `m` of the value of `inner` with that value kept as its self: `inner`, `dup.v 0`,
    /// `pushi.e -9`, `push.v [stacktop]self.m`.
    fn method_of_value(&mut self, inner: &Expr, m: &str) -> R<()> {
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
        Ok(())
    }

    /// `variable_get_hash("name")` from 2024.2 (spec §9): the variable's id as an int32
    /// operand (`push.i [variable]name`), no call.
    pub(super) fn variable_hash(&mut self, n: &str, args: &[Expr]) -> R<Option<DataType>> {
        if n != "variable_get_hash" || !self.f().variable_hash_refs() {
            return Ok(None);
        }
        let [Expr::Lit(Literal::String(s))] = args else {
            return Ok(None);
        };
        let var = self.var(s, -1)?;
        self.emit(Instruction::Push {
            op: Opcode::Push,
            value: PushValue::VariableId(var),
        });
        Ok(Some(DataType::Int32))
    }

    /// Whether the owner `o` of `o.arr[i]` is pushed as a value (`@@This@@`/`@@Other@@` then
    /// `-9`): `self`/`other` from 2.3 ([`crate::Features::gml_v2`]), `global` from 2023.11
    /// ([`crate::Features::global_as_call`]) (spec §4.7).
    pub(super) fn owner_by_call(&self, o: &Expr) -> bool {
        match o {
            Expr::Ident(n) if n == "global" => self.f().global_as_call(),
            Expr::Ident(n) if n == "self" || n == "other" => self.f().gml_v2(),
            _ => false,
        }
    }
}
