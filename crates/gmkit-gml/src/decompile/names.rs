//! Names for values: a pass over a decompiled entry that turns a literal into the name the
//! source most likely wrote, where the value's kind is known ([`crate::builtins`]):
//!
//! - arguments of a built-in function, by its signature (`draw_set_colour(c_red)`,
//!   `keyboard_check(vk_left)`, `instance_create(x, y, obj_enemy)`);
//! - the value assigned to or compared with a built-in variable (`sprite_index = spr_player`,
//!   `image_blend == c_red`), or compared with a built-in call's result
//!   (`instance_exists(o) == true`), and the labels of a `switch` on such a value;
//! - the kinds: constants of a family ([`crate::builtins::constant_for`]); assets by the game's
//!   names before 2023.8 (later they are `pushref`s, named already); `noone`, `all` (and
//!   `self`/`other` before 2.3) and objects where an instance goes; `true`/`false` where a
//!   boolean goes, before 2.3.7 (from 2.3.7 a boolean is typed in the bytecode and the
//!   decompiler reads it as one already).
//!
//! Only names that compile back to the same number are printed: a constant or an asset name
//! that is also one of the game's variables or functions, a local of the entry, or (assets)
//! the name of two assets stays a number.

use crate::ast::{BinaryOp, Case, Expr, Function, Literal, Stmt};
use crate::builtins::{self, Kind};
use crate::game::{AssetKind, Game};
use std::collections::{HashMap, HashSet};

pub(crate) use super::stack::fn_short_name;

/// The game's names a printed name must not collide with, built once per game.
#[derive(Debug, Default)]
pub struct NameIndex {
    /// Names of variables (VARI) and functions (FUNC, with and without `gml_Script_`).
    taken: HashSet<String>,
    /// How many assets have each name.
    assets: HashMap<String, u32>,
    /// Kinds of the game's own instance and global variables and script parameters.
    kinds: VariableKinds,
}

impl NameIndex {
    /// Collects the names of `game`.
    pub fn new(game: &Game) -> Self {
        let mut taken = HashSet::new();
        let file = game.file;
        if let Some(v) = file.variables.as_ref() {
            for i in 0..v.variables.len() {
                taken.insert(game.var_name(gmkit_data::Id::new(i as u32)).to_string());
            }
        }
        if let Some(f) = file.functions.as_ref() {
            for i in 0..f.functions.len() {
                let n = game.func_name(gmkit_data::Id::new(i as u32));
                taken.insert(super::stack::fn_short_name(n).to_string());
                taken.insert(n.to_string());
            }
        }
        let mut assets: HashMap<String, u32> = HashMap::new();
        for (_, _, n) in game.assets() {
            *assets.entry(n.to_string()).or_default() += 1;
        }
        let mut kinds = variable_kinds(game);
        if game.features.typed_booleans() {
            kinds.bools.clear();
        }
        NameIndex {
            taken,
            assets,
            kinds,
        }
    }
}

impl NameIndex {
    /// The kind the game's code gives its own (non-built-in) variable `name`: holding an
    /// instance, or passed where a built-in takes an object ([`Kind::Any`] otherwise).
    pub(crate) fn game_variable_kind(&self, name: &str) -> Kind {
        if self.kinds.instances.contains(name) {
            Kind::Instance
        } else if self.kinds.objects.contains(name) {
            Kind::Asset(AssetKind::Object)
        } else {
            Kind::Any
        }
    }

    /// Whether parameter `k` of script `script` is passed where a built-in takes an object.
    pub(crate) fn object_param(&self, script: &str, k: usize) -> bool {
        self.kinds
            .params
            .get(script)
            .is_some_and(|p| p.get(k) == Some(&true))
    }
}

/// What the bytecode shows of how a variable is used.
#[derive(Default, Clone, Copy)]
struct Use {
    /// Stores of a literal 0 or 1.
    literal: u32,
    /// Stores of -4 (`noone`).
    noone: u32,
    /// Stores of an instance (a built-in call returning one, `id`).
    instance: u32,
    /// Stores of a boolean expression (a comparison, `!`, a built-in returning a boolean).
    boolean: u32,
    /// Reads converted straight to a boolean (`if (v)`, `!v`).
    condition: u32,
    /// Reads compared with -4 (`v != noone`).
    compared_noone: u32,
    /// Reads passed where a built-in takes an object or an instance.
    object_argument: u32,
    /// A store of anything else (a number, an expression).
    other: bool,
}

impl Use {
    fn add(&mut self, u: Use) {
        self.literal += u.literal;
        self.noone += u.noone;
        self.instance += u.instance;
        self.boolean += u.boolean;
        self.condition += u.condition;
        self.compared_noone += u.compared_noone;
        self.object_argument += u.object_argument;
        self.other |= u.other;
    }

    /// Used as a boolean: every store is 0, 1 or a boolean expression (a literal among them),
    /// and some read is a condition.
    fn is_bool(&self) -> bool {
        !self.other
            && self.noone == 0
            && self.instance == 0
            && self.literal > 0
            && self.condition > 0
    }

    /// Holds an instance or `noone`: stores of `noone` and no 0/1 or boolean, and either every
    /// other store an instance (one seen) or some read compared with `noone`.
    fn is_instance(&self) -> bool {
        self.literal == 0
            && self.boolean == 0
            && self.noone > 0
            && ((!self.other && self.instance > 0) || self.compared_noone > 0)
    }
}

/// What the bytecode of the game's code says of its variables and script parameters.
#[derive(Debug, Default)]
struct VariableKinds {
    /// Used as booleans ([`Use::is_bool`]).
    bools: HashSet<String>,
    /// Holding instances ([`Use::is_instance`]).
    instances: HashSet<String>,
    /// Passed where a built-in takes an object or an instance (and neither of the above).
    objects: HashSet<String>,
    /// Script name → its parameters (`argumentN`) passed where a built-in takes an object.
    params: HashMap<String, Vec<bool>>,
}

/// The last instruction of each value a `call` at `at` passes, argument 0 first, as far as
/// they are straight-line expressions (pushes, conversions, arithmetic, comparisons, calls).
fn call_args(
    ins: &[gmkit_data::chunks::code::Instruction],
    at: usize,
    argc: usize,
) -> Vec<gmkit_data::chunks::code::Instruction> {
    use gmkit_data::chunks::code::{Instruction, Opcode, PushValue, RefType};
    // (values taken, values left) of an instruction, `None` for one that is not part of a
    // straight-line expression.
    let effect = |x: &Instruction| -> Option<(usize, usize)> {
        Some(match *x {
            Instruction::Push {
                value: PushValue::Variable(v),
                ..
            } => match v.ref_type {
                RefType::ARRAY => (2, 1),
                RefType::STACKTOP => (1, 1),
                RefType::NORMAL => (0, 1),
                _ => return None,
            },
            Instruction::Push { .. } => (0, 1),
            Instruction::Binary {
                op: Opcode::Conv, ..
            } => (1, 1),
            Instruction::Binary { .. } | Instruction::Compare { .. } => (2, 1),
            Instruction::Unary {
                op: Opcode::Neg | Opcode::Not,
                ..
            } => (1, 1),
            Instruction::Call { argc, .. } => (argc as usize, 1),
            _ => return None,
        })
    };
    let mut out = Vec::new();
    let mut end = at;
    for _ in 0..argc.min(64) {
        let Some(last) = end.checked_sub(1) else {
            break;
        };
        // Walk back to where this value's expression starts.
        let mut need = 1usize;
        let mut k = end;
        while need > 0 && k > 0 {
            k -= 1;
            let Some((take, leave)) = effect(&ins[k]) else {
                return out;
            };
            need = need.saturating_sub(leave) + take;
            if need > 64 {
                return out;
            }
        }
        if need > 0 {
            break;
        }
        out.push(ins[last]);
        end = k;
    }
    out
}

/// Finds the kinds of [`VariableKinds`] in the bytecode of every root entry (one scan per
/// game).
fn variable_kinds(game: &Game) -> VariableKinds {
    use gmkit_data::chunks::code::{
        DataType, InstanceType, Instruction, Opcode, PushValue, RefType,
    };
    let Some(code) = game.file.code.as_ref() else {
        return Default::default();
    };
    let mut uses: HashMap<u32, Use> = HashMap::new();
    let mut params: HashMap<String, Vec<bool>> = HashMap::new();
    for i in 0..code.entries.len() {
        if !code.entries[i].body.is_root() {
            continue;
        }
        let Ok(ins) = code.instructions(i) else {
            continue;
        };
        let script = game.code_name(i).strip_prefix("gml_Script_");
        for (j, x) in ins.iter().enumerate() {
            match x {
                Instruction::Call { argc, function, .. } => {
                    let Some(f) = builtins::function(game.func_name(*function)) else {
                        continue;
                    };
                    let args = call_args(&ins, j, *argc as usize);
                    for (a, p) in args.iter().enumerate() {
                        let Instruction::Push {
                            value: PushValue::Variable(var),
                            ..
                        } = p
                        else {
                            continue;
                        };
                        if !matches!(f.arg(a), Kind::Instance | Kind::Asset(AssetKind::Object))
                            || var.instance == InstanceType::LOCAL
                        {
                            continue;
                        }
                        let n = game.var_name(var.variable);
                        let param = n
                            .strip_prefix("argument")
                            .and_then(|d| d.parse::<usize>().ok());
                        match (param, script) {
                            (Some(k), Some(s)) if k < 16 => {
                                let v = params.entry(s.to_string()).or_default();
                                if v.len() <= k {
                                    v.resize(k + 1, false);
                                }
                                v[k] = true;
                            }
                            (Some(_), _) => {}
                            (None, _) => {
                                uses.entry(var.variable.0).or_default().object_argument += 1
                            }
                        }
                    }
                }
                Instruction::Pop { var, .. }
                    if var.ref_type == RefType::NORMAL && var.instance != InstanceType::LOCAL =>
                {
                    let mut k = j;
                    let mut prev = None;
                    while k > 0 {
                        k -= 1;
                        match ins[k] {
                            Instruction::Binary {
                                op: Opcode::Conv, ..
                            } => continue,
                            p => {
                                prev = Some(p);
                                break;
                            }
                        }
                    }
                    let u = uses.entry(var.variable.0).or_default();
                    let returns = |f| builtins::function(game.func_name(f)).map(|f| f.returns);
                    match prev {
                        Some(Instruction::Push {
                            value: PushValue::Int16(0 | 1) | PushValue::Int32(0 | 1),
                            ..
                        }) => u.literal += 1,
                        Some(Instruction::Push {
                            value: PushValue::Int16(-4) | PushValue::Int32(-4),
                            ..
                        }) => u.noone += 1,
                        Some(Instruction::Push {
                            value: PushValue::Variable(v),
                            ..
                        }) if game.var_name(v.variable) == "id" => u.instance += 1,
                        Some(Instruction::Compare { .. })
                        | Some(Instruction::Unary {
                            op: Opcode::Not, ..
                        }) => u.boolean += 1,
                        Some(Instruction::Call { function, .. }) => match returns(function) {
                            Some(Kind::Bool) => u.boolean += 1,
                            Some(Kind::Instance) => u.instance += 1,
                            _ => u.other = true,
                        },
                        _ => u.other = true,
                    }
                }
                Instruction::Push {
                    value: PushValue::Variable(var),
                    ..
                } if var.instance != InstanceType::LOCAL
                    && matches!(
                        ins.get(j + 1),
                        Some(Instruction::Binary {
                            op: Opcode::Conv,
                            t2: DataType::Boolean,
                            ..
                        })
                    ) =>
                {
                    uses.entry(var.variable.0).or_default().condition += 1;
                }
                Instruction::Push {
                    value: PushValue::Variable(var),
                    ..
                } if var.instance != InstanceType::LOCAL
                    && matches!(
                        ins.get(j + 1),
                        Some(Instruction::Push {
                            value: PushValue::Int16(-4),
                            ..
                        })
                    )
                    && matches!(ins.get(j + 2), Some(Instruction::Compare { .. })) =>
                {
                    uses.entry(var.variable.0).or_default().compared_noone += 1;
                }
                _ => {}
            }
        }
    }
    let mut by_name: HashMap<&str, Use> = HashMap::new();
    for (v, u) in uses {
        let n = game.var_name(gmkit_data::Id::new(v));
        by_name.entry(n).or_default().add(u);
    }
    let mut kinds = VariableKinds {
        params,
        ..VariableKinds::default()
    };
    for (n, u) in by_name {
        if builtins::variable(n).is_some() {
            continue;
        }
        if u.is_bool() {
            kinds.bools.insert(n.to_string());
        } else if u.is_instance() {
            kinds.instances.insert(n.to_string());
        } else if u.object_argument > 0 && u.literal == 0 && u.boolean == 0 {
            kinds.objects.insert(n.to_string());
        }
    }
    kinds
}

/// Names the values of `body`, the code of entry `entry` if known (see the module's
/// documentation).
pub(crate) fn name_values(game: &Game, entry: Option<usize>, body: &mut [Stmt]) {
    let mut locals = HashSet::new();
    for s in body.iter() {
        collect_locals(s, &mut locals);
    }
    let n = Namer {
        game,
        script: entry.and_then(|e| game.code_name(e).strip_prefix("gml_Script_")),
        index: game.name_index(),
        locals,
    };
    n.stmts(body);
    if !game.features.typed_booleans() {
        bool_returns(body);
    }
}

/// A script whose every `return` gives 0 or 1, both of them, is a predicate: its returns read
/// `true`/`false` (before typed booleans, where both compile alike).
fn bool_returns(body: &mut [Stmt]) {
    let mut seen = [false; 2];
    let mut other = false;
    each_return(body, &mut |r| match r {
        Some(Expr::Lit(Literal::Int(v @ (0 | 1)))) => seen[*v as usize] = true,
        Some(Expr::Lit(Literal::Bool(_))) => {}
        _ => other = true,
    });
    if other || seen != [true, true] {
        return;
    }
    each_return(body, &mut |r| {
        if let Some(Expr::Lit(l @ Literal::Int(0 | 1))) = r {
            *l = Literal::Bool(*l == Literal::Int(1));
        }
    });
}

/// Calls `f` on the value of each `return` of `body` (not those of nested functions).
fn each_return(body: &mut [Stmt], f: &mut dyn FnMut(&mut Option<Expr>)) {
    for s in body {
        crate::limits::deep(|| match s {
            Stmt::Return(e) => f(e),
            Stmt::If(_, a, b) => {
                each_return(a, f);
                if let Some(b) = b {
                    each_return(b, f);
                }
            }
            Stmt::While(_, b)
            | Stmt::DoUntil(b, _)
            | Stmt::Repeat(_, b)
            | Stmt::With(_, b)
            | Stmt::Block(b)
            | Stmt::For(_, _, _, b) => each_return(b, f),
            Stmt::Switch(_, cases) => cases.iter_mut().for_each(|c| each_return(&mut c.body, f)),
            Stmt::Try {
                body,
                catch,
                finally,
            } => {
                each_return(body, f);
                if let Some((_, b)) = catch {
                    each_return(b, f);
                }
                if let Some(b) = finally {
                    each_return(b, f);
                }
            }
            _ => {}
        })
    }
}

fn collect_locals(s: &Stmt, out: &mut HashSet<String>) {
    crate::limits::deep(|| match s {
        Stmt::Var(v) => out.extend(v.iter().map(|(n, _)| n.clone())),
        Stmt::Static(v) => out.extend(v.iter().map(|(n, _)| n.clone())),
        Stmt::Function(f) => collect_fn_locals(f, out),
        Stmt::Try { catch, .. } => {
            if let Some((n, _)) = catch {
                out.insert(n.clone());
            }
            for_each_child(s, &mut |c| collect_locals(c, out));
        }
        _ => for_each_child(s, &mut |c| collect_locals(c, out)),
    })
}

fn collect_fn_locals(f: &Function, out: &mut HashSet<String>) {
    out.extend(f.params.iter().map(|(n, _)| n.clone()));
    for s in &f.body {
        collect_locals(s, out);
    }
}

/// Calls `f` on each statement directly inside `s`.
fn for_each_child(s: &Stmt, f: &mut dyn FnMut(&Stmt)) {
    match s {
        Stmt::If(_, a, b) => {
            a.iter().for_each(&mut *f);
            b.iter().flatten().for_each(f);
        }
        Stmt::While(_, b)
        | Stmt::DoUntil(b, _)
        | Stmt::Repeat(_, b)
        | Stmt::With(_, b)
        | Stmt::Block(b) => b.iter().for_each(f),
        Stmt::For(i, _, st, b) => {
            i.iter().map(|x| &**x).for_each(&mut *f);
            st.iter().map(|x| &**x).for_each(&mut *f);
            b.iter().for_each(f);
        }
        Stmt::Switch(_, cases) => cases.iter().flat_map(|c| &c.body).for_each(f),
        Stmt::Try {
            body,
            catch,
            finally,
        } => {
            body.iter().for_each(&mut *f);
            catch.iter().flat_map(|(_, b)| b).for_each(&mut *f);
            finally.iter().flatten().for_each(f);
        }
        _ => {}
    }
}

struct Namer<'a, 'g> {
    game: &'a Game<'g>,
    /// The script whose entry this is (`gml_Script_<name>`).
    script: Option<&'a str>,
    index: &'a NameIndex,
    locals: HashSet<String>,
}

impl Namer<'_, '_> {
    fn stmts(&self, body: &mut [Stmt]) {
        for s in body {
            self.stmt(s);
        }
    }

    fn stmt(&self, s: &mut Stmt) {
        crate::limits::deep(|| self.stmt_inner(s))
    }

    fn stmt_inner(&self, s: &mut Stmt) {
        match s {
            Stmt::Expr(e) | Stmt::Throw(e) | Stmt::Delete(e) => self.expr(e),
            Stmt::Return(e) => e.iter_mut().for_each(|e| self.expr(e)),
            Stmt::Assign { target, op, value } => {
                self.expr(target);
                self.expr(value);
                if op.is_none() {
                    let k = self.place_kind(target);
                    self.name(value, k);
                }
            }
            Stmt::Update { target, .. } => self.expr(target),
            Stmt::Var(v) => v
                .iter_mut()
                .filter_map(|(_, e)| e.as_mut())
                .for_each(|e| self.expr(e)),
            Stmt::Static(v) => v.iter_mut().for_each(|(_, e)| self.expr(e)),
            Stmt::GlobalVar(_) | Stmt::Break | Stmt::Continue | Stmt::Exit => {}
            Stmt::Unstructured(_) => {}
            Stmt::If(c, a, b) => {
                self.expr(c);
                self.stmts(a);
                if let Some(b) = b {
                    self.stmts(b);
                }
            }
            Stmt::While(c, b) | Stmt::Repeat(c, b) | Stmt::With(c, b) => {
                self.expr(c);
                self.stmts(b);
            }
            Stmt::DoUntil(b, c) => {
                self.stmts(b);
                self.expr(c);
            }
            Stmt::For(i, c, st, b) => {
                if let Some(i) = i {
                    self.stmt(i);
                }
                if let Some(c) = c {
                    self.expr(c);
                }
                if let Some(st) = st {
                    self.stmt(st);
                }
                self.stmts(b);
            }
            Stmt::Switch(e, cases) => {
                self.expr(e);
                let k = self.value_kind(e);
                for Case { label, body } in cases.iter_mut() {
                    if let Some(l) = label {
                        self.expr(l);
                        self.name(l, k);
                    }
                    self.stmts(body);
                }
            }
            Stmt::Try {
                body,
                catch,
                finally,
            } => {
                self.stmts(body);
                if let Some((_, b)) = catch {
                    self.stmts(b);
                }
                if let Some(b) = finally {
                    self.stmts(b);
                }
            }
            Stmt::Function(f) => self.function(f),
            Stmt::Block(b) => self.stmts(b),
        }
    }

    fn function(&self, f: &mut Function) {
        for (_, d) in f.params.iter_mut() {
            if let Some(d) = d {
                self.expr(d);
            }
        }
        if let Some((_, args)) = &mut f.inherits {
            args.iter_mut().for_each(|a| self.expr(a));
        }
        self.stmts(&mut f.body);
    }

    fn expr(&self, e: &mut Expr) {
        crate::limits::deep(|| self.expr_inner(e))
    }

    fn expr_inner(&self, e: &mut Expr) {
        match e {
            Expr::Lit(_) | Expr::Ident(_) => {}
            Expr::Member(o, _) => self.expr(o),
            Expr::Index(b, idx) => {
                self.expr(b);
                idx.iter_mut().for_each(|i| self.expr(i));
            }
            Expr::Call(callee, args) => {
                self.expr(callee);
                args.iter_mut().for_each(|a| self.expr(a));
                if let Some(f) = self.builtin_function(callee) {
                    for (i, a) in args.iter_mut().enumerate() {
                        self.name(a, f.arg(i));
                    }
                } else if let Expr::Ident(s) = &**callee {
                    for (i, a) in args.iter_mut().enumerate() {
                        if self.script_param(s, i) {
                            self.name(a, Kind::Asset(AssetKind::Object));
                        }
                    }
                }
            }
            Expr::New(callee, args) => {
                self.expr(callee);
                args.iter_mut().for_each(|a| self.expr(a));
            }
            Expr::Unary(_, x) | Expr::Paren(x) => self.expr(x),
            Expr::Update { target, .. } => self.expr(target),
            Expr::Binary(op, l, r) => {
                self.expr(l);
                self.expr(r);
                if matches!(op, BinaryOp::Eq | BinaryOp::Ne) {
                    let (kl, kr) = (self.value_kind(l), self.value_kind(r));
                    self.name(r, kl);
                    self.name(l, kr);
                    // `v == -4`: a variable compared with -4 holds an instance.
                    self.noone(r, kl, l);
                    self.noone(l, kr, r);
                }
            }
            Expr::Ternary(c, a, b) => {
                self.expr(c);
                self.expr(a);
                self.expr(b);
            }
            Expr::Array(items) => items.iter_mut().for_each(|i| self.expr(i)),
            Expr::Struct(fields) => fields.iter_mut().for_each(|(_, v)| self.expr(v)),
            Expr::Function(f) => self.function(f),
        }
    }

    /// The built-in function `callee` calls (not shadowed by a game script of that name).
    fn builtin_function(&self, callee: &Expr) -> Option<&'static builtins::Function> {
        let Expr::Ident(n) = callee else {
            return None;
        };
        if self.locals.contains(n) {
            return None;
        }
        builtins::function(n)
    }

    /// The kind of the built-in variable a place names (`image_blend`, `other.sprite_index`,
    /// `alarm[0]`).
    fn place_kind(&self, e: &Expr) -> Kind {
        let name = match e {
            Expr::Ident(n) if !self.locals.contains(n) => n,
            Expr::Member(_, n) => n,
            Expr::Index(b, _) => return self.place_kind(b),
            _ => return Kind::Any,
        };
        match builtins::variable(name) {
            Some(v) => v.kind,
            None if self.index.kinds.bools.contains(name.as_str()) => Kind::Bool,
            None if self.index.kinds.instances.contains(name.as_str()) => Kind::Instance,
            None if self.index.kinds.objects.contains(name.as_str()) => {
                Kind::Asset(AssetKind::Object)
            }
            None => self.param_kind(name),
        }
    }

    /// The kind of a value: a built-in variable's, or a built-in call's result.
    fn value_kind(&self, e: &Expr) -> Kind {
        match e {
            Expr::Call(callee, _) => self
                .builtin_function(callee)
                .map_or(Kind::Any, |f| f.returns),
            Expr::Paren(x) => self.value_kind(x),
            e => self.place_kind(e),
        }
    }

    /// The kind of `argumentN` in a script whose parameter N is passed as an object.
    fn param_kind(&self, name: &str) -> Kind {
        let k = name
            .strip_prefix("argument")
            .and_then(|d| d.parse::<usize>().ok());
        let object = match (k, self.script) {
            (Some(k), Some(s)) => self.script_param(s, k),
            _ => false,
        };
        if object {
            Kind::Asset(AssetKind::Object)
        } else {
            Kind::Any
        }
    }

    /// Whether parameter `k` of script `s` is passed where a built-in takes an object.
    fn script_param(&self, s: &str, k: usize) -> bool {
        self.index
            .kinds
            .params
            .get(s)
            .is_some_and(|p| p.get(k) == Some(&true))
    }

    /// `-4` compared with a variable of no known kind (`other`) is `noone`.
    fn noone(&self, e: &mut Expr, k: Kind, other: &Expr) {
        let var = matches!(other, Expr::Ident(_) | Expr::Member(..) | Expr::Index(..));
        if k == Kind::Any && var && *e == Expr::Lit(Literal::Int(-4)) {
            *e = Expr::Ident("noone".into());
        }
    }

    /// Replaces the literal `e` with its name as a value of kind `k`, if it has one.
    fn name(&self, e: &mut Expr, k: Kind) {
        if !k.has_names() {
            return;
        }
        let Expr::Lit(Literal::Int(v)) = *e else {
            return;
        };
        if let Some(n) = self.name_of(k, v) {
            *e = n;
        }
    }

    fn name_of(&self, k: Kind, v: i64) -> Option<Expr> {
        let f = &self.game.features;
        let ident = |s: &str| Some(Expr::Ident(s.to_string()));
        match k {
            Kind::Bool if !f.typed_booleans() && (v == 0 || v == 1) => {
                Some(Expr::Lit(Literal::Bool(v == 1)))
            }
            Kind::Bool => None,
            Kind::Instance | Kind::Asset(AssetKind::Object) => match v {
                -4 => ident("noone"),
                -3 if k == Kind::Instance => ident("all"),
                -1 if k == Kind::Instance && !f.gml_v2() => ident("self"),
                -2 if k == Kind::Instance && !f.gml_v2() => ident("other"),
                0..100_000 => self.asset(AssetKind::Object, v),
                _ => None,
            },
            Kind::Asset(AssetKind::Script) => None,
            Kind::Asset(a) if v >= 0 => self.asset(a, v),
            Kind::Asset(_) => None,
            // A letter or digit key reads `ord("A")` (compiled to its code) where the game
            // has no `ord` of its own.
            Kind::Key
                if (b'A'..=b'Z').chain(b'0'..=b'9').any(|c| c as i64 == v) && self.free("ord") =>
            {
                Some(Expr::Call(
                    Box::new(Expr::Ident("ord".into())),
                    vec![Expr::Lit(Literal::String((v as u8 as char).to_string()))],
                ))
            }
            k => {
                let n = builtins::constant_for(k, v)?;
                let ok = self.free(n) && !self.index.assets.contains_key(n);
                ok.then(|| Expr::Ident(n.to_string()))
            }
        }
    }

    /// Whether `n` is free to print as a built-in or asset name: no local, variable or
    /// function of the game has it.
    fn free(&self, n: &str) -> bool {
        !self.locals.contains(n) && !self.index.taken.contains(n)
    }

    /// The name of asset `index` of kind `a`, where the name reads back as that index: before
    /// 2023.8, one asset of that name, and nothing else of the game named so.
    fn asset(&self, a: AssetKind, index: i64) -> Option<Expr> {
        if self.game.features.asset_refs() {
            return None;
        }
        let n = self.game.asset_name(a, usize::try_from(index).ok()?)?;
        let ok = self.index.assets.get(n) == Some(&1)
            && self.free(n)
            && builtins::constant(n).is_none()
            && builtins::variable(n).is_none()
            && builtins::function(n).is_none()
            && !KEYWORDS.contains(&n)
            && is_identifier(n);
        ok.then(|| Expr::Ident(n.to_string()))
    }
}

/// Words an asset name must not be printed as.
const KEYWORDS: &[&str] = &[
    "all",
    "and",
    "begin",
    "break",
    "case",
    "catch",
    "constructor",
    "continue",
    "default",
    "delete",
    "div",
    "do",
    "else",
    "end",
    "enum",
    "exit",
    "false",
    "finally",
    "for",
    "function",
    "global",
    "globalvar",
    "if",
    "mod",
    "new",
    "noone",
    "not",
    "or",
    "other",
    "repeat",
    "return",
    "self",
    "static",
    "switch",
    "then",
    "throw",
    "true",
    "try",
    "undefined",
    "until",
    "var",
    "while",
    "with",
    "xor",
];

/// Whether `n` lexes as one identifier.
fn is_identifier(n: &str) -> bool {
    let mut b = n.bytes();
    b.next()
        .is_some_and(|c| c == b'_' || c.is_ascii_alphabetic())
        && b.all(|c| c == b'_' || c.is_ascii_alphanumeric())
}
