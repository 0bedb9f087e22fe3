//! Read-modify-write on every kind of target (spec `gml-bytecode.md` §4.5–§4.9): compound
//! assignment (`a[i] += 1`, `o.x -= 2`, `m[i][j] *= 3`), `++`/`--` as statements and as
//! expressions, and the multi-dimensional array accesses (2.3+) they share with plain reads
//! and stores.
//!
//! Every form follows one plan: push the target's operands (instance, owner, index), duplicate
//! them, re-read the target with a plain `push`, push the right side, apply the operator, and
//! store with `pop.i.v` (value on top of the kept operands). Expression forms keep a copy of
//! the old (`a++`) or new (`++a`) value below the operands with `dup.v 0` and a swap.

use super::{Compiler, R};
use crate::ast::{BinaryOp, Expr, Literal, UpdateOp};
use gmkit_data::chunks::code::{
    DataType, ExtendedKind, Instruction, Opcode, PushValue, RefType, VariableRef,
};

/// A target whose operands are on the stack.
enum Place {
    /// Addressed by the instruction alone (`a`, `global.a`, `other.a`, `obj.a`).
    Simple(VariableRef),
    /// `inst.a`: the instance on the stack; `rvalue`: 2.3's `-9` over the instance value;
    /// `pop_var`: the store's reference (for `++`/`--`, the VARI entry `a` has as a bare name).
    Stacktop {
        var: VariableRef,
        pop_var: VariableRef,
        rvalue: bool,
    },
    /// `arr[i]`: owner and index on the stack; `rvalue`: the owner is `-9` over a value;
    /// `pop_var`: the store's reference (the VARI entry of the real scope for `++`/`--`).
    Array {
        var: VariableRef,
        pop_var: VariableRef,
        rvalue: bool,
    },
    /// `m[i][j]...` (2.3+): array reference and last index on the stack.
    Multi,
}

/// How the value is used.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Use {
    /// A statement: nothing is left.
    Statement,
    /// `a++` / `a--` in an expression: the old value is left.
    Post,
    /// `++a` / `--a` in an expression: the new value is left.
    Pre,
}

impl Compiler<'_> {
    /// `target op= value`; `op` `None` with `update` for `++`/`--` (the `1` is `push.e 1`).
    pub(super) fn read_modify_write(
        &mut self,
        target: &Expr,
        op: BinaryOp,
        value: &Expr,
        update: bool,
        usage: Use,
    ) -> R<DataType> {
        let place = self.target_place(target, update)?;
        self.dup_operands(&place, update);
        if let Place::Multi = place {
            if !update {
                self.ext(ExtendedKind::SAVEAREF);
            }
            self.ext(ExtendedKind::PUSHAF);
        } else {
            let var = match &place {
                Place::Simple(v) => *v,
                Place::Stacktop { var, .. } | Place::Array { var, .. } => *var,
                Place::Multi => unreachable!("handled above"),
            };
            self.emit(Instruction::Push {
                op: Opcode::Push,
                value: PushValue::Variable(var),
            });
        }
        if usage == Use::Post {
            self.keep_copy(&place);
        }
        let rt = if update {
            self.push_e1();
            DataType::Int32
        } else {
            let mut t = super::int_type(self.expr(value)?);
            let bitwise = matches!(op, BinaryOp::BitAnd | BinaryOp::BitOr | BinaryOp::BitXor);
            // A boolean is an int32 first, except for a 2.3.2+ bitwise compound, which
            // converts it to int64 directly (`_gb |= a < b`: `conv.b.l`; wild, 2022.9).
            if t == DataType::Boolean && !(bitwise && self.f().compound_bitwise_int64()) {
                t = self.conv(t, DataType::Int32);
            }
            if bitwise {
                if self.f().compound_bitwise_int64() {
                    if t != DataType::Int64 {
                        t = self.conv(t, DataType::Int64);
                    }
                } else if !matches!(t, DataType::Int32 | DataType::Int64) {
                    t = self.conv(t, DataType::Int32);
                }
            }
            t
        };
        let opc = super::arith_opcode(op).ok_or_else(|| {
            super::CompileError::Unsupported(format!("compound operator {}", op.symbol()))
        })?;
        self.binop_ins(opc, rt, DataType::Variable);
        if usage == Use::Pre {
            self.keep_copy(&place);
        }
        match place {
            Place::Simple(var) => self.emit(Instruction::Pop {
                t1: DataType::Variable,
                t2: DataType::Variable,
                var,
            }),
            Place::Stacktop { pop_var, .. } => self.emit(Instruction::Pop {
                t1: DataType::Int32,
                t2: DataType::Variable,
                var: pop_var,
            }),
            Place::Array { pop_var, .. } => self.emit(Instruction::Pop {
                t1: DataType::Int32,
                t2: DataType::Variable,
                var: pop_var,
            }),
            Place::Multi => {
                if !update {
                    self.ext(ExtendedKind::RESTOREAREF);
                }
                self.swap(4, 5);
                self.ext(ExtendedKind::POPAF);
            }
        }
        Ok(DataType::Variable)
    }

    /// `dup.T n m` with the swap marker.
    fn swap(&mut self, n: u8, m: u8) {
        self.emit(Instruction::Dup {
            t: DataType::Int32,
            count: n,
            extra: 0x80 | (m << 3),
        });
    }

    /// Expression forms: `dup.v 0`, then the copy moves below the target's operands.
    fn keep_copy(&mut self, place: &Place) {
        self.emit(Instruction::Dup {
            t: DataType::Variable,
            count: 0,
            extra: 0,
        });
        let v2 = self.f().gml_v2();
        match place {
            Place::Simple(_) => {}
            Place::Stacktop { rvalue, .. } if v2 => self.swap(4, if *rvalue { 9 } else { 5 }),
            Place::Array { rvalue, .. } if v2 => self.swap(4, if *rvalue { 10 } else { 6 }),
            Place::Stacktop { .. } => self.emit(Instruction::PopSwap {
                t2: DataType::Variable,
                arg: 5,
            }),
            Place::Array { .. } => self.emit(Instruction::PopSwap {
                t2: DataType::Variable,
                arg: 6,
            }),
            Place::Multi => self.swap(4, 9),
        }
    }

    /// Duplicates the operands of `place` (the re-read consumes the copy).
    fn dup_operands(&mut self, place: &Place, update: bool) {
        let (t, count) = match place {
            Place::Simple(_) => return,
            Place::Stacktop { rvalue: true, .. } => (DataType::Int32, 4),
            Place::Stacktop { rvalue: false, .. } => (DataType::Int32, 0),
            Place::Array { rvalue: true, .. } => (DataType::Int32, 5),
            Place::Array { .. } if update && self.f().array_update_dup_long() => {
                (DataType::Int64, 0)
            }
            Place::Array { .. } => (DataType::Int32, 1),
            Place::Multi => (DataType::Int32, 4),
        };
        self.emit(Instruction::Dup { t, count, extra: 0 });
    }

    /// Pushes the operands of `target` and says how it is re-read and stored.
    fn target_place(&mut self, target: &Expr, update: bool) -> R<Place> {
        match target {
            Expr::Ident(n) => {
                self.refuse_builtin_constant(n, true)?;
                let (vi, inst, _) = self.scope_of(n);
                Ok(Place::Simple(self.varref(n, vi, inst, RefType::NORMAL)?))
            }
            Expr::Member(obj, n) => {
                if let Some(k) = self.instance_number_in(obj, true) {
                    return Ok(Place::Simple(self.member_var(n, k)?));
                }
                let rvalue = self.dot_instance(obj)?;
                let var = self.varref(n, -1, 0, RefType::STACKTOP)?;
                // 2.3+: the store of `p.a++` with `p` a function's parameter names the VARI
                // entry of `a` as a parameter's kind: a local's before 2024.2, a named
                // parameter's (type -6, id 0) after (wild, 2023.8 and 2024.13/14: GameMaker's
                // windblown-particles effect, `_arg0.num_segs++`; a local owner keeps self).
                let param = matches!(&**obj, Expr::Ident(o) if self.scope_of(o).0 == -15);
                let real = match (param, self.f().self_to_builtin()) {
                    (false, _) => -1,
                    (true, true) => -15,
                    (true, false) => -7,
                };
                let pop_var = if update && self.f().gml_v2() && real != -1 {
                    self.varref(n, real, 0, RefType::STACKTOP)?
                } else {
                    var
                };
                Ok(Place::Stacktop {
                    var,
                    pop_var,
                    rvalue,
                })
            }
            Expr::Index(base, _) if matches!(**base, Expr::Index(..)) => {
                self.multi_operands(target, true)?;
                Ok(Place::Multi)
            }
            Expr::Index(base, idx) => {
                let (name, vi, rvalue) = self.array_owner(base, idx)?;
                let var = self.varref(&name, vi, 0, RefType::ARRAY)?;
                // 2.3+: the store of `++`/`--` names the real scope's VARI entry.
                let real = match &**base {
                    Expr::Ident(n) => self.scope_of(n).0,
                    Expr::Member(o, _) if self.instance_number(o) == Some(-5) => -5,
                    // `global` read through `@@Global@@` (2024.x; wild 2024.13).
                    Expr::Member(o, _) if matches!(&**o, Expr::Ident(g) if g == "global") => -5,
                    _ => -1,
                };
                let pop_var = if update && self.f().gml_v2() && real != vi {
                    self.varref(&name, real, 0, RefType::ARRAY)?
                } else {
                    var
                };
                Ok(Place::Array {
                    var,
                    pop_var,
                    rvalue,
                })
            }
            _ => Err(super::CompileError::Unsupported(
                "compound assignment on this target".into(),
            )),
        }
    }

    /// `inst.n` with a constant instance `k`: folded into the reference (`other.n`,
    /// `global.n`, `12.n`; a room instance id ≥ 100000 as `[instance]`).
    pub(super) fn member_var(&self, n: &str, k: i64) -> R<VariableRef> {
        if k >= 100_000 {
            return self.varref(n, -1, (k - 100_000) as i16, RefType::INSTANCE);
        }
        let vi = if k == -5 { -5 } else { -1 };
        self.varref(n, vi, k as i16, RefType::NORMAL)
    }

    /// `m[i][j]...` (2.3+): pushes owner and first index, the `[multipush]` (read) or
    /// `[multipushpop]` (write) reference, each middle index with `pushac.e`, and the last index.
    pub(super) fn multi_operands(&mut self, target: &Expr, write: bool) -> R<()> {
        if !self.f().gml_v2() {
            return Err(super::CompileError::Invalid(
                "arrays of arrays (`a[i][j]`) need GameMaker 2.3 or later (before: `a[i, j]`)"
                    .into(),
            ));
        }
        let mut indices = Vec::new();
        let mut cur = target;
        while let Expr::Index(b, idx) = cur {
            let [i] = idx.as_slice() else {
                return Err(super::CompileError::Unsupported(
                    "two-index access in a chain".into(),
                ));
            };
            indices.push(i);
            cur = b;
        }
        indices.reverse();
        let (first, rest) = indices.split_first().expect("an index at least");
        let (name, vi, _) = self.array_owner(cur, std::slice::from_ref(*first))?;
        let rt = if write {
            RefType::ARRAY_POP_AF
        } else {
            RefType::ARRAY_PUSH_AF
        };
        let var = self.varref(&name, vi, 0, rt)?;
        self.emit(Instruction::Push {
            op: Opcode::Push,
            value: PushValue::Variable(var),
        });
        let n = rest.len();
        for (k, i) in rest.iter().enumerate() {
            let t = self.expr(i)?;
            self.conv(t, DataType::Int32);
            if k + 1 < n {
                self.ext(ExtendedKind::PUSHAC);
            }
        }
        Ok(())
    }

    /// Reads `m[i][j]...` (2.3+).
    pub(super) fn multi_read(&mut self, target: &Expr) -> R<DataType> {
        self.multi_operands(target, false)?;
        self.ext(ExtendedKind::PUSHAF);
        Ok(DataType::Variable)
    }

    /// Stores into `m[i][j]...` (2.3+): the value (converted to a variable) first.
    pub(super) fn multi_store(&mut self, target: &Expr, value: &Expr) -> R<()> {
        let t = self.expr(value)?;
        self.conv(t, DataType::Variable);
        self.multi_operands(target, true)?;
        self.ext(ExtendedKind::POPAF);
        Ok(())
    }

    /// `a++`, `--a`, ... inside an expression.
    pub(super) fn update_expr(&mut self, op: UpdateOp, prefix: bool, target: &Expr) -> R<DataType> {
        let bop = if op == UpdateOp::Inc {
            BinaryOp::Add
        } else {
            BinaryOp::Sub
        };
        let usage = if prefix { Use::Pre } else { Use::Post };
        self.read_modify_write(target, bop, &Expr::Lit(Literal::Int(1)), true, usage)
    }
}
