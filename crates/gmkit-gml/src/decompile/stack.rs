//! Stack simulation: each instruction turns the expressions on a simulated VM stack into a
//! bigger expression or a statement.

use super::{Dec, MAX_ARGUMENT_INDEX};
use crate::ast::{BinaryOp, Expr, Function, Literal, Stmt, UnaryOp, UpdateOp};
use crate::game::AssetKind;
use gmkit_data::chunks::code::{
    Comparison, DataType, ExtOperand, ExtendedKind, FunctionId, InstanceType, Instruction, Opcode,
    PushValue, RefType, VariableRef,
};

/// What produced a binary-operation value (for `+=` and `++` recognition).
#[derive(Clone, Debug)]
pub(super) struct BinInfo {
    op: BinaryOp,
    /// The right operand was converted (`a = a / 2` has `conv.i.d`, `a /= 2` not).
    right_conv: bool,
    /// The right operand is the `push.e 1` of `++`/`--`.
    right_push_e1: bool,
    /// Duplicate group of the left operand.
    left_dup: u32,
    /// The left operand was read with plain `push` (compound assignments re-read so).
    left_plain: bool,
}

/// The size of an expression tree, kept with each stack slot so that limits are checked
/// without walking trees (a walk per instruction would be quadratic in a chain).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Size {
    /// Levels of the tree (a leaf is 1; 0 means not measured yet).
    pub depth: u32,
    /// Nodes of the tree.
    pub nodes: u64,
}

impl Size {
    /// A tree of one node.
    pub const LEAF: Size = Size { depth: 1, nodes: 1 };

    /// The size of a tree whose root is `levels` new levels (and as many nodes) above the
    /// trees `parts`.
    pub fn above(levels: u32, parts: &[Size]) -> Size {
        let depth = parts.iter().map(|p| p.depth).max().unwrap_or(0);
        Size {
            depth: depth.saturating_add(levels),
            nodes: parts
                .iter()
                .fold(levels as u64, |n, p| n.saturating_add(p.nodes)),
        }
    }
}

/// Levels and nodes charged for the new part of a value an instruction builds from the values
/// it pops: at most three (`(100005).x` is `Member(Paren(Lit))`, `a[i]` is
/// `Index(Member(owner, a), [i])`), one for operators and calls of a named function.
const FRESH_LEVELS: u32 = 3;

/// The levels instruction `ins` adds over the values it pops.
fn fresh_levels(ins: &Instruction) -> u32 {
    match ins {
        Instruction::Binary { .. }
        | Instruction::Compare { .. }
        | Instruction::Unary { .. }
        | Instruction::Call { .. }
        | Instruction::CallByName { .. } => 1,
        _ => FRESH_LEVELS,
    }
}

/// One simulated stack slot.
#[derive(Clone, Debug)]
pub(super) struct Val {
    /// The expression.
    pub e: Expr,
    /// The size of `e` (set by whatever built it: see [`Dec::measure_fresh`]).
    pub size: Size,
    /// Its compile-time type (decides its size for `dup`).
    pub ty: DataType,
    /// Duplicate group: copies made by `dup` share a non-zero id.
    pub dup: u32,
    /// Already consumed through a copy (do not turn into a statement).
    pub used: bool,
    /// Produced by a binary operation.
    pub bin: Option<Box<BinInfo>>,
    /// A plain `push.e 1` (bc ≥ 15 signature of `++`/`--`).
    pub push_e1: bool,
    /// Converted by `conv`.
    pub conv: bool,
    /// A variable read with plain `push` (not pushloc/pushglb/pushbltn).
    pub plain_read: bool,
    /// A plain `push.v self.x` of a bare name (instance -1): written `self.x` where a bare
    /// name compiles otherwise (the constructor of `new`, read as `builtin.x`).
    pub self_read: bool,
    /// A function literal: the code entry it was decompiled from.
    pub fn_entry: Option<String>,
    /// `@@NullObject@@` (the self of a constructor's `method`).
    pub null_object: bool,
    /// A function literal already bound by the compiler's own `method(-1, f)`: a further
    /// `method(x, f)` around it is the source's call.
    pub bound: bool,
    /// A struct literal's constructor, known by its registration in `static`/`global`.
    pub struct_ctor: bool,
    /// The copy a function declaration leaves (`function d() {}`, just emitted): stored
    /// elsewhere too, the two read `c = function d() {}`.
    pub decl_copy: bool,
}

impl Val {
    /// A value built by the instruction being simulated: its size is set when the
    /// instruction is done, from the sizes of the values it popped.
    pub fn new(e: Expr, ty: DataType) -> Val {
        Val::sized(e, ty, Size::default())
    }

    /// A value of known size.
    pub fn sized(e: Expr, ty: DataType, size: Size) -> Val {
        Val {
            e,
            size,
            ty,
            dup: 0,
            used: false,
            bin: None,
            push_e1: false,
            conv: false,
            plain_read: false,
            self_read: false,
            fn_entry: None,
            null_object: false,
            bound: false,
            struct_ctor: false,
            decl_copy: false,
        }
    }

    fn size(&self) -> usize {
        type_size(self.ty)
    }
}

/// Bytes a value of type `t` takes on the VM stack.
pub(crate) fn type_size(t: DataType) -> usize {
    match t {
        DataType::Variable => 16,
        DataType::Double | DataType::Int64 => 8,
        _ => 4,
    }
}

fn bias(t: DataType) -> u8 {
    match t {
        DataType::Variable => 2,
        DataType::Double | DataType::Int64 => 1,
        _ => 0,
    }
}

/// The result type of a binary operation on `a` and `b` (spec §2).
fn result_type(a: DataType, b: DataType) -> DataType {
    if bias(a) != bias(b) {
        if bias(a) > bias(b) { a } else { b }
    } else if (a as u8) <= (b as u8) {
        a
    } else {
        b
    }
}

/// A function's name as written in GML (`gml_Script_f` → `f`; a function declared in an
/// object event, `gml_Script_f@gml_Object_o_Create_0`, before 2023.11
/// `gml_Script_f_gml_Object_o_Create_0` → `f`).
pub(crate) fn fn_short_name(name: &str) -> &str {
    match name.strip_prefix("gml_Script_") {
        Some(s) => {
            let s = s.split('@').next().unwrap_or(s);
            match s.find("_gml_Object_") {
                Some(k) if k > 0 => &s[..k],
                _ => s,
            }
        }
        None => name,
    }
}

/// The GML name of a special instance number.
pub(crate) fn instance_name(k: i32) -> Option<&'static str> {
    Some(match k {
        -1 => "self",
        -2 => "other",
        -3 => "all",
        -4 => "noone",
        -5 => "global",
        _ => return None,
    })
}

fn ident(s: &str) -> Expr {
    Expr::Ident(s.to_string())
}

fn member(target: Expr, name: &str) -> Expr {
    Expr::Member(Box::new(target), name.to_string())
}

fn lit_int(e: &Expr) -> Option<i64> {
    match e {
        Expr::Lit(Literal::Int(v)) => Some(*v),
        _ => None,
    }
}

impl Dec<'_, '_> {
    /// Pops a slot for the current instruction (noting its size: see [`Dec::measure_fresh`]).
    fn pop(&mut self, stack: &mut Vec<Val>, at: usize) -> Val {
        match stack.pop() {
            Some(v) => {
                self.took = Size::above(0, &[self.took, v.size]);
                v
            }
            None => Val::new(self.fail_expr("stack underflow", at), DataType::Variable),
        }
    }

    /// Sizes the values the instruction at `at` left on top of the stack unmeasured: each is
    /// at most [`fresh_levels`] over everything the instruction popped (a literal, which pops
    /// nothing, counts as that many). A value deeper than
    /// [`MAX_TREE_DEPTH`](crate::limits::MAX_TREE_DEPTH) stops the entry.
    fn measure_fresh(&mut self, at: usize, stack: &mut [Val]) {
        let levels = self.ins.get(at).map_or(FRESH_LEVELS, fresh_levels);
        let size = Size::above(levels, &[self.took]);
        for v in stack.iter_mut().rev() {
            if v.size.depth != 0 {
                break;
            }
            v.size = size;
            self.charge(levels as u64, at);
            self.check_depth(size, at);
        }
    }

    /// An instance given as a number: `self`, `global`, an object's name, a room instance id.
    fn instance_expr(&self, k: i64) -> Expr {
        if let Some(n) = instance_name(k as i32) {
            return ident(n);
        }
        if k >= 100_000 {
            return Expr::Lit(Literal::Int(k));
        }
        // From 2023.8 an object's name compiles to `pushref`: a plain number is no object
        // (wild, 2024.6: `push.v 0.option_id` is `(0).option_id`).
        if k >= 0
            && !self.game.features.asset_refs()
            && let Some(n) = self.game.asset_name(AssetKind::Object, k as usize)
        {
            return ident(n);
        }
        Expr::Lit(Literal::Int(k))
    }

    /// Pops the instance operand of a stacktop access or `pushenv`: an int, or 2.3's `-9`
    /// marker over the instance value.
    pub(super) fn instance_operand(&mut self, stack: &mut Vec<Val>, at: usize) -> Expr {
        let v = self.pop(stack, at);
        if lit_int(&v.e) == Some(-9) && self.game.features.gml_v2() && !stack.is_empty() {
            let inner = self.pop(stack, at);
            return inner.e;
        }
        match lit_int(&v.e) {
            Some(k) => self.instance_expr(k),
            None => v.e,
        }
    }

    pub(super) fn local(&mut self, name: &str) {
        let s = self.scope();
        if !s.locals.iter().any(|l| l == name) {
            s.locals.push(name.to_string());
        }
    }

    /// A named argument (`arg.argumentK` inside a 2.3 function).
    fn argument(&mut self, name: &str) -> Expr {
        let s = self.scope();
        if s.function
            && let Some(k) = name
                .strip_prefix("argument")
                .and_then(|k| k.parse::<usize>().ok())
        {
            if k > MAX_ARGUMENT_INDEX {
                // Not an argument GameMaker can pass: kept as the plain name.
                self.failures += 1;
                self.notes.push(format!(
                    "argument index {k} past the limit {MAX_ARGUMENT_INDEX}"
                ));
                return ident(name);
            }
            s.args = s.args.max(k + 1);
            return Expr::Ident(super::param_name(&s.own_locals, k));
        }
        ident(name)
    }

    /// `builtin.argumentK` (read plainly or as an array). In a function it is a parameter
    /// only from 2024.11 (default-argument code reads parameters so) and below the header's
    /// count; otherwise it is the written `argumentK`: 2.3 to 2024.10 read named parameters
    /// as `arg.argumentK` (owner -15) and a written `argumentK` as `builtin` (wild 2.3.2 and
    /// 2022.9 games, the corpus's 2.3 to 2022 files).
    fn builtin_argument(&mut self, name: &str) -> Expr {
        let f = self.game.features;
        let s = self.scope();
        let written = s.function
            && (f.gml_v2() && !f.builtin_default_arguments()
                || s.declared
                    .is_some_and(|d| name[8..].parse::<usize>().is_ok_and(|k| k >= d)));
        if written {
            ident(name)
        } else {
            self.argument(name)
        }
    }

    /// The variable `name` on the instance of a normal reference.
    fn scoped(&mut self, inst: InstanceType, name: &str, stack: &mut Vec<Val>, at: usize) -> Expr {
        match inst.0 {
            -1 => {
                // `self.name` where a local of the same name would take the bare name.
                let to_builtin = self.game.features.self_to_builtin();
                let s = self.scope();
                if to_builtin
                    || s.own_locals.contains(name)
                    || (s.function && super::is_param_name(&s.own_locals, name))
                {
                    member(ident("self"), name)
                } else {
                    ident(name)
                }
            }
            -6 if name.starts_with("argument") => self.builtin_argument(name),
            // An instance variable named like a parameter is `self.name` in that function.
            -6 if self.scope().function && super::is_param_name(&self.scope().own_locals, name) => {
                member(ident("self"), name)
            }
            -6 | -16 => ident(name),
            -7 => {
                self.local(name);
                ident(name)
            }
            -15 => self.argument(name),
            -9 => {
                let t = self.instance_operand(stack, at);
                member(t, name)
            }
            // Below the special instances (-16 to -1) the 16-bit field is an unsigned
            // instance or object number (32768 to 65535).
            k if k < -16 => member(self.instance_expr(k as u16 as i64), name),
            k => member(self.instance_expr(k as i64), name),
        }
    }

    /// The owner of an array: the instance operand on the stack.
    fn array_base(&mut self, name: &str, stack: &mut Vec<Val>, at: usize) -> Expr {
        let owner = self.pop(stack, at);
        match lit_int(&owner.e) {
            Some(-9) if self.game.features.gml_v2() => {
                let inner = self.pop(stack, at);
                member(inner.e, name)
            }
            // A 2.3 function's parameter read as an array is the parameter (`arg1[i]`, as
            // in its plain reads).
            Some(-6) if name.starts_with("argument") => self.builtin_argument(name),
            Some(-1) | Some(-6) | Some(-16) => ident(name),
            Some(-7) => {
                self.local(name);
                ident(name)
            }
            Some(-15) => self.argument(name),
            Some(k) => member(self.instance_expr(k), name),
            None => member(owner.e, name),
        }
    }

    /// Reads a variable reference (pops its operands).
    fn read_var(&mut self, var: &VariableRef, stack: &mut Vec<Val>, at: usize) -> Expr {
        let name = self.game.var_name(var.variable).to_string();
        match var.ref_type {
            RefType::NORMAL => self.scoped(var.instance, &name, stack, at),
            RefType::STACKTOP => {
                let t = self.instance_operand(stack, at);
                member(t, &name)
            }
            // The 16-bit field is unsigned here: ids 100000 to 165535 (spec §2).
            RefType::INSTANCE => member(
                Expr::Paren(Box::new(Expr::Lit(Literal::Int(
                    var.instance.0 as u16 as i64 + 100_000,
                )))),
                &name,
            ),
            _ => {
                // Arrays: index on top, owner below.
                let idx = self.pop(stack, at);
                let base = self.array_base(&name, stack, at);
                Expr::Index(Box::new(base), split_2d(idx.e))
            }
        }
    }

    fn func_value(&mut self, f: FunctionId) -> Val {
        let name = self.game.func_name(f).to_string();
        // The first use after the body is the literal itself; later ones (`new f()`, `g = f`)
        // are references by name.
        if let Some((func, size)) = self.functions.remove(&name) {
            let mut v = Val::sized(Expr::Function(Box::new(func)), DataType::Int32, size);
            v.fn_entry = Some(name);
            return v;
        }
        Val::new(ident(fn_short_name(&name)), DataType::Int32)
    }

    fn push_value(&mut self, op: Opcode, value: PushValue, stack: &mut Vec<Val>, at: usize) -> Val {
        let f = self.game.features;
        match value {
            PushValue::Int16(v) => {
                let mut x = Val::new(Expr::Lit(Literal::Int(v as i64)), DataType::Int32);
                x.push_e1 = op == Opcode::Push && v == 1 && f.push_e_is_signature();
                x
            }
            PushValue::Int32(v) => Val::new(Expr::Lit(Literal::Int(v as i64)), DataType::Int32),
            PushValue::Int64(v) => Val::new(Expr::Lit(Literal::Int64(v)), DataType::Int64),
            PushValue::Double(v) => Val::new(
                if v == std::f64::consts::PI {
                    ident("pi")
                } else {
                    Expr::Lit(Literal::Real(v))
                },
                DataType::Double,
            ),
            PushValue::Float(v) => Val::new(Expr::Lit(Literal::Real(v as f64)), DataType::Double),
            PushValue::String(s) => Val::new(
                Expr::Lit(Literal::String(self.game.string(s))),
                DataType::String,
            ),
            PushValue::Variable(var) => {
                let e = self.read_var(&var, stack, at);
                let mut x = Val::new(e, DataType::Variable);
                x.plain_read = op == Opcode::Push;
                x.self_read = op == Opcode::Push
                    && var.ref_type == RefType::NORMAL
                    && var.instance.0 == -1
                    && matches!(x.e, Expr::Ident(_));
                x
            }
            PushValue::Function(func) => self.func_value(func),
            PushValue::VariableId(v) => Val::new(
                Expr::Call(
                    Box::new(ident("variable_get_hash")),
                    vec![Expr::Lit(Literal::String(
                        self.game.var_name(v).to_string(),
                    ))],
                ),
                DataType::Int32,
            ),
            PushValue::Other { t, value } => match t {
                DataType::Boolean => Val::new(Expr::Lit(Literal::Bool(value != 0)), t),
                _ => Val::new(
                    Expr::Lit(Literal::Int(value as i32 as i64)),
                    DataType::Int32,
                ),
            },
        }
    }

    /// Simulates instruction `i`.
    pub(super) fn sim(&mut self, i: usize, stack: &mut Vec<Val>, out: &mut Vec<Stmt>) {
        self.took = Size::default();
        self.sim_here(i, stack, out);
        self.measure_fresh(i, stack);
    }

    fn sim_here(&mut self, i: usize, stack: &mut Vec<Val>, out: &mut Vec<Stmt>) {
        // A 0/1 constant consumed as a boolean is `false`/`true`.
        let bool_next = matches!(
            self.ins.get(i + 1),
            Some(Instruction::Binary {
                op: Opcode::Conv,
                t1: DataType::Boolean,
                ..
            }) | Some(Instruction::Pop {
                t2: DataType::Boolean,
                ..
            }) | Some(Instruction::Compare {
                // The right operand of a comparison typed boolean (`case true:`).
                t1: DataType::Boolean,
                ..
            })
        ) || (self.game.features.typed_booleans()
            // Typed booleans reach a branch unconverted (`while (true)`), and the end of a
            // short-circuit operand (`x || false`: an int would be `conv.i.b` first).
            && matches!(
                self.ins.get(i + 1),
                Some(Instruction::Branch {
                    op: Opcode::Bf | Opcode::Bt | Opcode::B,
                    ..
                })
            )
            // Not a switch value jumping to the `popz` that drops it (`switch (1) {}`).
            && !(self.is_branch(i + 1, Opcode::B)
                && self.target(i + 1).is_some_and(|t| {
                    matches!(
                        self.ins.get(t),
                        Some(Instruction::Unary {
                            op: Opcode::Popz,
                            ..
                        })
                    )
                })));
        if bool_next
            && let Instruction::Push {
                op: Opcode::PushI,
                value: PushValue::Int16(v @ (0 | 1)),
            } = self.ins[i]
        {
            stack.push(Val::new(
                Expr::Lit(Literal::Bool(v == 1)),
                DataType::Boolean,
            ));
            return;
        }
        match self.ins[i] {
            Instruction::Push { op, value } => {
                let v = self.push_value(op, value, stack, i);
                stack.push(v);
            }
            Instruction::Binary {
                op: Opcode::Conv,
                t2,
                ..
            } => {
                if let Some(top) = stack.last_mut() {
                    if top.ty == DataType::Boolean
                        && let Expr::Lit(Literal::Int(v @ (0 | 1))) = top.e
                    {
                        top.e = Expr::Lit(Literal::Bool(v == 1));
                    }
                    top.ty = t2;
                    top.conv = true;
                } else {
                    self.fail_expr("conv on an empty stack", i);
                }
            }
            Instruction::Binary { op, t1, t2 } => {
                let r = self.pop(stack, i);
                let l = self.pop(stack, i);
                let logical = t1 == DataType::Boolean && t2 == DataType::Boolean;
                let bop = match op {
                    Opcode::Mul => BinaryOp::Mul,
                    Opcode::Div => BinaryOp::Div,
                    Opcode::Rem => BinaryOp::IntDiv,
                    Opcode::Mod => BinaryOp::Mod,
                    Opcode::Add => BinaryOp::Add,
                    Opcode::Sub => BinaryOp::Sub,
                    Opcode::And if logical => BinaryOp::And,
                    Opcode::Or if logical => BinaryOp::Or,
                    Opcode::Xor if logical => BinaryOp::Xor,
                    Opcode::And => BinaryOp::BitAnd,
                    Opcode::Or => BinaryOp::BitOr,
                    Opcode::Xor => BinaryOp::BitXor,
                    Opcode::Shl => BinaryOp::Shl,
                    _ => BinaryOp::Shr,
                };
                let info = BinInfo {
                    op: bop,
                    right_conv: r.conv,
                    right_push_e1: r.push_e1,
                    left_dup: l.dup,
                    left_plain: l.plain_read || !self.game.features.new_opcodes(),
                };
                let ty = if logical {
                    DataType::Boolean
                } else {
                    result_type(t1, t2)
                };
                let mut v = Val::new(Expr::Binary(bop, Box::new(l.e), Box::new(r.e)), ty);
                v.bin = Some(Box::new(info));
                stack.push(v);
            }
            Instruction::Compare { cmp, t1, t2 } => {
                let mut r = self.pop(stack, i);
                let mut l = self.pop(stack, i);
                // 0/1 compared as booleans are `false`/`true` (`f() == false`).
                if t1 == DataType::Boolean {
                    r.e = as_bool(r.e);
                }
                if t2 == DataType::Boolean {
                    l.e = as_bool(l.e);
                }
                let bop = match cmp {
                    Comparison::Lt => BinaryOp::Lt,
                    Comparison::Le => BinaryOp::Le,
                    Comparison::Eq => BinaryOp::Eq,
                    Comparison::Ne => BinaryOp::Ne,
                    Comparison::Ge => BinaryOp::Ge,
                    Comparison::Gt => BinaryOp::Gt,
                };
                stack.push(Val::new(
                    Expr::Binary(bop, Box::new(l.e), Box::new(r.e)),
                    DataType::Boolean,
                ));
            }
            Instruction::Unary { op, t } => match op {
                Opcode::Neg => {
                    let x = self.pop(stack, i);
                    // A real `neg` of a constant (the compiler folds `-5`): keep it apart.
                    let e = match x.e {
                        e @ Expr::Lit(Literal::Int(_) | Literal::Real(_)) => {
                            Expr::Unary(UnaryOp::Neg, Box::new(Expr::Paren(Box::new(e))))
                        }
                        e => Expr::Unary(UnaryOp::Neg, Box::new(e)),
                    };
                    stack.push(Val::new(e, x.ty));
                }
                Opcode::Not => {
                    let x = self.pop(stack, i);
                    let uop = if t == DataType::Boolean {
                        UnaryOp::Not
                    } else {
                        UnaryOp::BitNot
                    };
                    stack.push(Val::new(Expr::Unary(uop, Box::new(x.e)), x.ty));
                }
                Opcode::Ret => {
                    let x = self.pop(stack, i);
                    let e = match x.e {
                        Expr::Ident(n) if n == "$$$$temp$$$$" => {
                            self.scope().temp.take().unwrap_or(Expr::Ident(n))
                        }
                        e => e,
                    };
                    out.push(Stmt::Return(Some(e)));
                }
                Opcode::Exit => out.push(Stmt::Exit),
                _ => {
                    // popz
                    let Some(x) = stack.pop() else { return };
                    match x.e {
                        Expr::Call(..) | Expr::New(..) if !x.used => out.push(Stmt::Expr(x.e)),
                        Expr::Update { op, prefix, target } if !x.used => out.push(Stmt::Update {
                            op,
                            prefix,
                            target: *target,
                        }),
                        _ => {}
                    }
                }
            },
            Instruction::Pop { t1, t2, var } => self.store(i, (t1, t2), &var, stack, out),
            Instruction::PopSwap { arg, .. } => {
                // `pop.e.v 5|6` (pre-2.3 `v = ++a.b` / `++a[i]`): the copy on top moves below the
                // value under it (a variable, 16 bytes) and the 1 or 2 int operands of the
                // store (4 bytes each): `arg · 4` bytes in all (spec §4.6).
                let below = arg as usize * 4;
                self.swap_below(stack, below, i);
            }
            Instruction::Dup { t, count, extra } => self.dup(i, t, count, extra, stack),
            Instruction::CallV { argc, .. } => {
                let func = self.pop(stack, i);
                let this = self.pop(stack, i);
                let argc = self.arg_count(argc, stack, i);
                let args: Vec<Expr> = (0..argc).map(|_| self.pop(stack, i).e).collect();
                let callee = match (func.e, this.e) {
                    (f @ Expr::Member(..), _) => f,
                    (f, Expr::Ident(s)) if s == "self" => f,
                    (Expr::Ident(n), t) => member(t, &n),
                    (f, _) => f,
                };
                stack.push(Val::new(
                    Expr::Call(Box::new(callee), args),
                    DataType::Variable,
                ));
            }
            Instruction::Call { argc, function, .. } => {
                let name = self.game.func_name(function).to_string();
                self.call(i, name, argc, stack, out)
            }
            Instruction::CallByName { argc, name, .. } => {
                let name = self.game.string(name);
                self.call(i, name, argc, stack, out)
            }
            Instruction::Extended { kind, operand, .. } => match kind {
                ExtendedKind::PUSHAC | ExtendedKind::PUSHAF => {
                    let idx = self.pop(stack, i);
                    let base = self.pop(stack, i);
                    stack.push(Val::new(
                        Expr::Index(Box::new(base.e), vec![idx.e]),
                        DataType::Variable,
                    ));
                }
                ExtendedKind::POPAF => {
                    let idx = self.pop(stack, i);
                    let base = self.pop(stack, i);
                    let value = self.pop(stack, i);
                    // `m[i][j] += v` reads the element through copies of the owner and index
                    // (`dup.i 4 / savearef / pushaf`); `m[i][j] = m[i][j] + v` reads it again.
                    let dup_form = base.dup != 0 && idx.dup != 0;
                    let target = Expr::Index(Box::new(base.e), vec![idx.e]);
                    self.assign(target, value, stack, out, dup_form, true);
                }
                ExtendedKind::SETOWNER => {
                    self.pop(stack, i);
                }
                ExtendedKind::PUSHREF => {
                    let e = match operand {
                        Some(ExtOperand::Asset { asset_type, index }) => {
                            match self.game.pushref_kind(asset_type) {
                                // A room's instance: `inst_id_<id>`, the name the compiler
                                // reads back as this reference (rooms name none in the file).
                                Some(AssetKind::RoomInstance) => {
                                    ident(&crate::room_instance::name(index))
                                }
                                Some(k) => match self.game.asset_name(k, index as usize) {
                                    Some(n) => ident(n),
                                    // A stripped file's asset: `sprite_86`, unless an asset
                                    // has that name.
                                    None => match crate::room_instance::unnamed(k, index) {
                                        Some(n)
                                            if self.game.asset_unnamed(k, index as usize)
                                                && !self.game.assets().any(|(_, _, a)| a == n) =>
                                        {
                                            ident(&n)
                                        }
                                        _ => Expr::Lit(Literal::Int(index as i64)),
                                    },
                                },
                                None => Expr::Lit(Literal::Int(index as i64)),
                            }
                        }
                        Some(ExtOperand::Function { function, .. }) => {
                            let v = self.func_value(function);
                            stack.push(Val {
                                ty: DataType::Variable,
                                ..v
                            });
                            return;
                        }
                        None => Expr::Lit(Literal::Int(0)),
                    };
                    stack.push(Val::new(e, DataType::Variable));
                }
                ExtendedKind::ISSTATICOK => {
                    stack.push(Val::new(ident("__static_ok__"), DataType::Boolean));
                }
                _ => {}
            },
            Instruction::PopEnvExit | Instruction::Branch { .. } => {}
        }
    }

    /// Moves the top slot below the `bytes` bytes of slots under it.
    fn swap_below(&mut self, stack: &mut Vec<Val>, bytes: usize, at: usize) {
        let Some(top) = stack.pop() else {
            self.fail_expr("swap on an empty stack", at);
            return;
        };
        let mut acc = 0;
        let mut k = stack.len();
        while acc < bytes && k > 0 {
            k -= 1;
            acc += stack[k].size();
        }
        if acc != bytes {
            self.notes.push(format!("swap size mismatch at {at}"));
        }
        stack.insert(k, top);
    }

    fn dup(&mut self, _at: usize, t: DataType, count: u8, extra: u8, stack: &mut Vec<Val>) {
        if extra != 0 {
            // Swap form (`dup.T n m`, byte 1 = 0x80 | m << 3): the top n·size bytes move
            // below the m·size bytes under them.
            let m = ((extra & 0x7F) >> 3) as usize;
            let (top, below) = if t == DataType::Int16 {
                // 2024.14.4 `dup.e n m`: a variable swap with the sizes the other way round
                // (spec §6.2: a chained call's m arguments move below the instance and the
                // function, n = 2).
                (
                    m * type_size(DataType::Variable),
                    count as usize * type_size(DataType::Variable),
                )
            } else {
                (count as usize * type_size(t), m * type_size(t))
            };
            let n = stack.len();
            let Some(k1) = slots_for(stack, n, top) else {
                self.notes.push(format!("dup swap size mismatch at {_at}"));
                return;
            };
            let Some(k0) = slots_for(stack, k1, below) else {
                self.notes.push(format!("dup swap size mismatch at {_at}"));
                return;
            };
            let moved: Vec<Val> = stack.drain(k0..k1).collect();
            stack.extend(moved);
            return;
        }
        let k = dup_start(stack, t, count, Val::size);
        let n = stack.len();
        // Copies are trees of their own: their nodes count against the entry's budget.
        let cost = stack[k..n]
            .iter()
            .fold(0u64, |c, v| c.saturating_add(v.size.nodes));
        if !self.charge(cost, _at) {
            return;
        }
        let id = self.next_dup;
        self.next_dup += 1;
        for slot in &mut stack[k..n] {
            if slot.dup == 0 {
                slot.dup = id;
            }
        }
        let copies: Vec<Val> = stack[k..n].to_vec();
        stack.extend(copies);
    }

    fn call(
        &mut self,
        at: usize,
        name: String,
        argc: u16,
        stack: &mut Vec<Val>,
        out: &mut Vec<Stmt>,
    ) {
        let n = self.arg_count(argc, stack, at);
        let mut args: Vec<Val> = (0..n).map(|_| self.pop(stack, at)).collect();
        let plain = |e: Expr| Val::new(e, DataType::Variable);
        let v = match name.as_str() {
            "@@This@@" => plain(ident("self")),
            "@@Other@@" => plain(ident("other")),
            "@@Global@@" => plain(ident("global")),
            "@@NullObject@@" => {
                let mut v = plain(ident("undefined"));
                v.null_object = true;
                v
            }
            "@@NewGMLArray@@" => plain(Expr::Array(args.into_iter().map(|a| a.e).collect())),
            "@@NewGMLObject@@" if !args.is_empty() => {
                let ctor = args.remove(0);
                match ctor.fn_entry.as_deref() {
                    Some(n) if ctor.struct_ctor || n.contains("___struct___") => {
                        let Expr::Function(f) = ctor.e else {
                            unreachable!("fn_entry is set on function literals only")
                        };
                        let sizes: Vec<u64> = args.iter().map(|a| a.size.nodes).collect();
                        // Fields are the body's values (a level under the literal) with hoisted
                        // values put in, inside an array at most.
                        let mut parts: Vec<Size> = args.iter().map(|a| a.size).collect();
                        parts.push(ctor.size);
                        let mut size = Size::above(3, &parts);
                        let mut copied = 0u64;
                        let room = self.room();
                        let e = struct_literal(
                            *f,
                            args.into_iter().map(|a| a.e).collect(),
                            &sizes,
                            room,
                            &mut copied,
                        );
                        self.charge(copied, at);
                        size.nodes = size.nodes.saturating_add(copied);
                        let mut v = plain(e);
                        v.size = size;
                        v
                    }
                    _ => plain(Expr::New(
                        // `new self.C()` reads `push.v self.C`; a bare `new C()` of an
                        // instance variable reads `builtin.C` (2.3+).
                        Box::new(match ctor.e {
                            Expr::Ident(n) if ctor.self_read => member(ident("self"), &n),
                            e => e,
                        }),
                        args.into_iter().map(|a| a.e).collect(),
                    )),
                }
            }
            "@@NewGMLObject@@" => plain(Expr::Struct(Vec::new())),
            // The compiler binds every function literal: to the current self (`pushi.e -1`),
            // a static (`-16`) or a constructor's new struct (`@@NullObject@@`).
            "method"
                if args.len() == 2
                    && args[1].fn_entry.is_some()
                    && !args[1].bound
                    && (args[0].null_object || matches!(lit_int(&args[0].e), Some(-1 | -16))) =>
            {
                let this = args.remove(0);
                let mut f = args.remove(0);
                f.bound = true;
                if this.null_object
                    && let Expr::Function(func) = &mut f.e
                {
                    func.constructor = true;
                }
                f.ty = DataType::Variable;
                f
            }
            "@@GetInstance@@" | "static_get" if args.len() == 1 => {
                let a = args.remove(0);
                // Before room-instance `pushref`s, a room instance is its id (from 100001).
                match a.e {
                    Expr::Lit(Literal::Int(id @ 100_001..=0xFFFF_FFFF))
                        if name == "@@GetInstance@@"
                            && !self.game.features.room_instance_refs() =>
                    {
                        plain(ident(&crate::room_instance::name(id as u32)))
                    }
                    e => plain(e),
                }
            }
            "@@CopyStatic@@" => {
                // `: Parent(args)`: the parent call is left on the stack below.
                if let Some(p) = stack.pop()
                    && let Expr::Call(c, a) = p.e
                    && let Expr::Ident(n) = *c
                {
                    self.scope().inherits = Some((n, a));
                }
                return;
            }
            "@@SetStatic@@" | "@@try_unhook@@" | "@@finish_catch@@" | "@@finish_finally@@"
            | "@@try_hook@@" => {
                let mut v = plain(ident("undefined"));
                v.used = true;
                v
            }
            "@@throw@@" if args.len() == 1 => {
                out.push(Stmt::Throw(args.remove(0).e));
                return;
            }
            // 2024.14+: an element of a value that is no variable (`l[| i][1]`, `f()[0]`).
            ARRAY_GET_INTERNAL if args.len() == 2 && !is_variable(&args[0].e) => {
                // Two arguments (the guard): the fallbacks are never taken.
                let i = args.pop().map_or_else(|| ident("undefined"), |a| a.e);
                let base = args.pop().map_or_else(|| ident("undefined"), |a| a.e);
                plain(Expr::Index(Box::new(base), vec![i]))
            }
            _ => {
                let mut args: Vec<Expr> = args.into_iter().map(|a| a.e).collect();
                let mut callee = fn_short_name(&name).to_string();
                // 2024.14+: array elements read in a data-structure accessor's keys
                // (`m[$ a[i]]`) call `@@array_get@@`: the accessor, written as such.
                if let Some(keys) = accessor_keys(&callee, args.len())
                    && (args[keys.clone()].iter().any(has_internal_array_get)
                        || is_internal_array_get(&args[0]))
                {
                    for k in &mut args[keys] {
                        internal_array_get_as_index(k);
                    }
                    if is_internal_array_get(&args[0]) {
                        internal_array_get_as_index(&mut args[0]);
                    }
                    callee = format!("{}{callee}", crate::parse::ACCESSOR);
                }
                plain(Expr::Call(Box::new(ident(&callee)), args))
            }
        };
        stack.push(v);
    }

    /// A store (`pop`).
    fn store(
        &mut self,
        at: usize,
        (t1, t2): (DataType, DataType),
        var: &VariableRef,
        stack: &mut Vec<Val>,
        out: &mut Vec<Stmt>,
    ) {
        let value_on_top = t1 == DataType::Int32;
        let early = value_on_top.then(|| self.pop(stack, at));
        let name = self.game.var_name(var.variable).to_string();
        let stacktop_decl = var.ref_type == RefType::STACKTOP;
        // The instance a store goes to: the operand's, or for `[stacktop]` the one on top.
        let store_inst = if stacktop_decl {
            stack.last().and_then(|v| lit_int(&v.e))
        } else {
            Some(i64::from(var.instance.0))
        };
        let target = self.read_var(var, stack, at);
        let mut value = match early {
            Some(v) => v,
            None => self.pop(stack, at),
        };
        // A 0/1 constant stored as a boolean is `false`/`true` (typed booleans).
        if t2 == DataType::Boolean {
            value.e = as_bool(value.e);
        }
        // The copy a declaration left, stored: `c = function d() {}`.
        if value.decl_copy
            && let Expr::Ident(n) = &value.e
            && matches!(out.last(), Some(Stmt::Function(f)) if f.name.as_deref() == Some(n.as_str()))
            && let Some(Stmt::Function(f)) = out.pop()
        {
            value.e = Expr::Function(Box::new(f));
            value.decl_copy = false;
        }
        if name == "$$$$temp$$$$" {
            self.local(&name);
            self.scope().temp = Some(value.e);
            return;
        }
        // Function declarations: `method(...)` result stored while a copy stays on the stack.
        if let Some(entry) = &value.fn_entry
            && let Expr::Function(f) = &value.e
        {
            let copy_left = value.dup != 0 && stack.last().is_some_and(|t| t.dup == value.dup);
            // A struct literal's constructor, registered in its `___struct___N` static (known
            // by its entry's name, by that static's, or as a constructor registered in
            // `static`/`global` while a copy stays for `@@NewGMLObject@@`).
            let struct_static = name.starts_with("___struct___")
                || (copy_left && f.constructor && matches!(store_inst, Some(-16 | -5)));
            if (entry.contains("___struct___") || struct_static) && (stacktop_decl || copy_left) {
                if struct_static
                    && copy_left
                    && let Some(top) = stack.last_mut()
                {
                    top.struct_ctor = true;
                }
                return;
            }
            // A declaration leaves a copy for its `popz.v`; a stacktop store without one is
            // `obj.f = function () {}`.
            if copy_left {
                let mut f = (**f).clone();
                f.name = Some(name.clone());
                if let Some(top) = stack.last_mut()
                    && top.dup == value.dup
                {
                    top.e = ident(&name);
                    top.size = Size::LEAF;
                    top.fn_entry = None;
                    top.used = true;
                    top.decl_copy = true;
                }
                out.push(Stmt::Function(f));
                return;
            }
        }
        // Targets with operands on the stack (arrays, `inst.x`) are compound only in the dup
        // form; a plain store re-evaluated them (`a[i] = a[i] | 1`).
        let operands = var.ref_type != RefType::NORMAL || var.instance.0 == -9;
        self.assign(target, value, stack, out, value_on_top, operands);
    }

    /// Emits `target = value`, recognising `op=`, `++`/`--` and their expression forms.
    fn assign(
        &mut self,
        target: Expr,
        value: Val,
        stack: &mut [Val],
        out: &mut Vec<Stmt>,
        dup_form: bool,
        operands: bool,
    ) {
        if let Some(info) = &value.bin
            && let Expr::Binary(op, l, r) = &value.e
            && **l == target
        {
            // A copy of the old or new value left below the store is `a++`/`++a` as a value
            // whatever pushed the 1 (before bc 15 `push.e` is no signature of `++`).
            let one = **r == Expr::Lit(Literal::Int(1));
            let kept = stack.last().is_some_and(|top| {
                (info.left_dup != 0 && top.dup == info.left_dup && top.e == target)
                    || (value.dup != 0 && top.dup == value.dup)
            });
            if (info.right_push_e1 || one && kept) && matches!(op, BinaryOp::Add | BinaryOp::Sub) {
                let uop = if *op == BinaryOp::Add {
                    UpdateOp::Inc
                } else {
                    UpdateOp::Dec
                };
                // Expression forms leave the old (post) or new (pre) value below.
                if let Some(top) = stack.last_mut() {
                    if info.left_dup != 0 && top.dup == info.left_dup && top.e == target {
                        top.e = Expr::Update {
                            op: uop,
                            prefix: false,
                            target: Box::new(target),
                        };
                        // Measured with the instruction's other new values.
                        top.size = Size::default();
                        top.dup = 0;
                        return;
                    }
                    if value.dup != 0 && top.dup == value.dup {
                        top.e = Expr::Update {
                            op: uop,
                            prefix: true,
                            target: Box::new(target),
                        };
                        top.size = Size::default();
                        top.dup = 0;
                        return;
                    }
                }
                out.push(Stmt::Update {
                    op: uop,
                    prefix: false,
                    target,
                });
                return;
            }
            // GML has no `<<=`/`>>=`: a plain shift store is `a = a << n`.
            let compound_ok = (info.op != BinaryOp::Div || !info.right_conv)
                && (dup_form
                    || (info.left_plain
                        && !operands
                        && !matches!(op, BinaryOp::Shl | BinaryOp::Shr)));
            if compound_ok {
                out.push(Stmt::Assign {
                    target,
                    op: Some(*op),
                    value: (**r).clone(),
                });
                return;
            }
        }
        out.push(Stmt::Assign {
            target,
            op: None,
            value: value.e,
        });
    }
}

/// `0`/`1` as `false`/`true`.
fn as_bool(e: Expr) -> Expr {
    match e {
        Expr::Lit(Literal::Int(v @ (0 | 1))) => Expr::Lit(Literal::Bool(v == 1)),
        e => e,
    }
}

/// The legacy 2-D index `i * 32000 + j` → `[i, j]`.
fn split_2d(idx: Expr) -> Vec<Expr> {
    if let Expr::Binary(BinaryOp::Add, l, r) = &idx
        && let Expr::Binary(BinaryOp::Mul, a, k) = &**l
        && **k == Expr::Lit(Literal::Int(32000))
    {
        return vec![(**a).clone(), (**r).clone()];
    }
    vec![idx]
}

/// A struct literal from its constructor body: each `key = value` is a field; `argument[i]`
/// stands for hoisted value `i`.
/// Copies of hoisted values cost their nodes (`sizes`), counted in `copied`; past `room` a
/// reference is left as `argument[i]`.
fn struct_literal(
    f: Function,
    hoisted: Vec<Expr>,
    sizes: &[u64],
    room: u64,
    copied: &mut u64,
) -> Expr {
    let mut fields = Vec::new();
    for s in f.body {
        if let Stmt::Assign {
            target,
            op: None,
            value,
        } = s
        {
            let key = match target {
                Expr::Ident(k) => k,
                Expr::Member(t, k) if *t == ident("self") => k,
                _ => continue,
            };
            // A negative literal is hoisted, so one left in the body was a named constant
            // (killstreak, 2024.14: `req: noone` is `pushi.e -4` inside).
            let value = match value {
                Expr::Lit(Literal::Int(-4)) => ident("noone"),
                Expr::Lit(Literal::Int(-3)) => ident("all"),
                v => v,
            };
            fields.push((
                key,
                substitute_hoisted(value, &hoisted, sizes, room, copied),
            ));
        }
    }
    Expr::Struct(fields)
}

fn substitute_hoisted(
    e: Expr,
    hoisted: &[Expr],
    sizes: &[u64],
    room: u64,
    copied: &mut u64,
) -> Expr {
    crate::limits::deep(|| substitute_hoisted_here(e, hoisted, sizes, room, copied))
}

fn substitute_hoisted_here(
    e: Expr,
    hoisted: &[Expr],
    sizes: &[u64],
    room: u64,
    copied: &mut u64,
) -> Expr {
    if let Expr::Array(items) = e {
        return Expr::Array(
            items
                .into_iter()
                .map(|x| substitute_hoisted(x, hoisted, sizes, room, copied))
                .collect(),
        );
    }
    // A nested struct literal's own hoisted values are hoisted on out to the outermost
    // literal: inside, they read this literal's `argument[i]`.
    if let Expr::Struct(fields) = e {
        return Expr::Struct(
            fields
                .into_iter()
                .map(|(k, x)| (k, substitute_hoisted(x, hoisted, sizes, room, copied)))
                .collect(),
        );
    }
    if let Expr::Index(b, idx) = &e
        && **b == ident("argument")
        && let [Expr::Lit(Literal::Int(i))] = idx.as_slice()
        && let Some(h) = hoisted.get(*i as usize)
    {
        let cost = sizes.get(*i as usize).copied().unwrap_or(1);
        if copied.saturating_add(cost) > room {
            *copied = copied.saturating_add(cost);
            return e;
        }
        *copied += cost;
        // A literal that was hoisted was written as an expression (`ord("Q")`, folded):
        // parentheses keep it hoisted when compiled again.
        if matches!(h, Expr::Lit(_)) {
            return Expr::Paren(Box::new(h.clone()));
        }
        return h.clone();
    }
    e
}

/// The index `k` such that the slots `k..end` of `stack` take exactly `bytes` bytes.
fn slots_for(stack: &[Val], end: usize, bytes: usize) -> Option<usize> {
    slots_covering(stack, end, bytes, Val::size)
}

/// The first of the slots below `end` that together take `bytes` bytes of the VM stack, each
/// slot `size` bytes; `None` when the sizes do not add up to exactly that.
fn slots_covering<T>(
    stack: &[T],
    end: usize,
    bytes: usize,
    size: impl Fn(&T) -> usize,
) -> Option<usize> {
    let mut acc = 0;
    let mut k = end.min(stack.len());
    while acc < bytes && k > 0 {
        k -= 1;
        acc += size(&stack[k]);
    }
    (acc == bytes).then_some(k)
}

/// The first of the top slots a plain `dup.t count` copies: those taking (count + 1) values of
/// type `t`, or the top count + 1 slots when the sizes do not add up (unknown types). Shared by
/// the decompiler and the asset-operand finder, which simulate the same stack.
pub(crate) fn dup_start<T>(
    stack: &[T],
    t: DataType,
    count: u8,
    size: impl Fn(&T) -> usize,
) -> usize {
    let bytes = (count as usize + 1) * type_size(t);
    slots_covering(stack, stack.len(), bytes, size)
        .unwrap_or_else(|| stack.len().saturating_sub(count as usize + 1))
}

/// The function 2024.14+ calls for an array element read through an accessor's key or on a
/// value that is no variable (spec §4.7 addition, wild games).
const ARRAY_GET_INTERNAL: &str = "@@array_get@@";

/// Whether `e` is a variable an element can be read from directly (`a`, `o.a`, `a[i]`).
fn is_variable(e: &Expr) -> bool {
    matches!(e, Expr::Ident(_) | Expr::Member(..) | Expr::Index(..))
}

/// The key arguments of a data-structure accessor's function called with `n` arguments
/// (the container first; a setter's value last).
fn accessor_keys(f: &str, n: usize) -> Option<std::ops::Range<usize>> {
    let (arity, setter) = match f {
        "ds_list_find_value" | "ds_map_find_value" | "variable_struct_get" => (2, false),
        "ds_grid_get" => (3, false),
        "ds_list_set" | "ds_map_set" | "variable_struct_set" => (3, true),
        "ds_grid_set" => (4, true),
        _ => return None,
    };
    (n == arity).then(|| 1..arity - usize::from(setter))
}

/// Whether `e` is a call of `@@array_get@@` (an accessor's container `a[i][$ k]`).
fn is_internal_array_get(e: &Expr) -> bool {
    matches!(e, Expr::Call(c, a) if a.len() == 2 && matches!(&**c, Expr::Ident(n) if n == ARRAY_GET_INTERNAL))
}

/// Whether `e` calls `@@array_get@@` where a key's array reads are (through operators).
fn has_internal_array_get(e: &Expr) -> bool {
    crate::limits::deep(|| match e {
        Expr::Call(c, a) => {
            a.len() == 2 && matches!(&**c, Expr::Ident(n) if n == ARRAY_GET_INTERNAL)
        }
        Expr::Binary(_, l, r) => has_internal_array_get(l) || has_internal_array_get(r),
        Expr::Unary(_, x) | Expr::Paren(x) => has_internal_array_get(x),
        _ => false,
    })
}

/// `@@array_get@@(a, i)` → `a[i]` where a key's array reads are.
fn internal_array_get_as_index(e: &mut Expr) {
    crate::limits::deep(|| match e {
        Expr::Call(c, a)
            if a.len() == 2 && matches!(&**c, Expr::Ident(n) if n == ARRAY_GET_INTERNAL) =>
        {
            // Two arguments (the guard): the fallbacks are never taken.
            let i = a.pop().unwrap_or_else(|| ident("undefined"));
            let base = a.pop().unwrap_or_else(|| ident("undefined"));
            *e = Expr::Index(Box::new(base), vec![i]);
        }
        Expr::Binary(_, l, r) => {
            internal_array_get_as_index(l);
            internal_array_get_as_index(r);
        }
        Expr::Unary(_, x) | Expr::Paren(x) => internal_array_get_as_index(x),
        _ => {}
    })
}
