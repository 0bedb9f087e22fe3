//! Asset indices in bytecode before 2023.8: the integer constants that code pushes where an
//! asset goes, found by simulating the stack of each root entry.
//!
//! Before 2023.8 GameMaker compiles an asset name to its index, a plain integer push
//! (`sprite_index = spr_wall` is `pushi.e 1 / pop.v.i self.sprite_index`). What makes that
//! integer an asset is where it goes, which the simulation follows (through conversions,
//! `dup`s, and the arms of a `? :` that meet at one place):
//!
//! - an argument of a built-in function whose signature ([`crate::builtins`]) takes an asset or
//!   an instance (`draw_sprite(1, ...)`, `instance_create(x, y, 0)`);
//! - a value stored into, or compared with, a built-in variable of such a kind (`sprite_index`,
//!   `object_index`, `room`, `mask_index`, ...) or a built-in call's result of such a kind, and
//!   the labels of a `switch` on one;
//! - the instance operand of a variable access or of `with` (`12.hp`, `with (12)`); an
//!   instance operand of 0 to 99 999 is an object index (room instances are 100 000 and up);
//! - the game's own variables and script parameters that the decompiler's naming pass finds
//!   holding objects (passed where a built-in takes one), as object indices.
//!
//! Besides those, the instruction's own instance field names an object (`push.v 12.hp`).
//!
//! An integer passed to one of the game's own scripts (or a method) whose parameter has no
//! known kind may or may not be an asset index: it is listed as [`Certainty::Unsure`].
//! Integers stored into the game's local or untyped variables and used later are not
//! followed (the simulation is per value, not per variable).

use crate::builtins::{self, Kind};
use crate::game::{AssetKind, Game};
use gmkit_data::chunks::code::{
    Comparison, DataType, ExtendedKind, InstanceType, Instruction, Opcode, PushValue, RefType,
    VariableRef,
};
use std::collections::HashMap;

/// Where in an instruction the asset index sits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Place {
    /// The integer a push instruction pushes (`pushi.e 12`, `push.i 70000`).
    Immediate,
    /// The instance field of a variable access (`push.v 12.hp`, `pop.v.v 12.hp`).
    InstanceField,
}

/// How sure the finder is that an operand is an asset index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Certainty {
    /// The place it goes takes that kind of asset.
    Typed,
    /// It goes to one of the game's scripts or a method, whose parameter has no known kind.
    Unsure,
}

/// One integer operand of the bytecode that is (or may be) an asset index.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Operand {
    /// The root code entry holding the instruction.
    pub entry: usize,
    /// That entry's name (`gml_Object_obj_player_Create_0`).
    pub entry_name: String,
    /// The instruction's index in the entry's instructions.
    pub instruction: usize,
    /// The instruction's byte offset in the entry's blob.
    pub offset: u32,
    /// Where in the instruction the index is.
    pub place: Place,
    /// The kind of asset (for [`Certainty::Unsure`]: the kind it would be, `Object` unless
    /// something says otherwise).
    pub kind: AssetKind,
    /// The index.
    pub index: u32,
    /// How sure the finder is.
    pub certainty: Certainty,
    /// Where the value goes (`argument 0 of draw_sprite`, `sprite_index`, `with`).
    pub context: String,
}

impl std::fmt::Display for Operand {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} instruction {} (offset {}): {:?} #{} ({})",
            self.entry_name, self.instruction, self.offset, self.kind, self.index, self.context
        )
    }
}

/// Every asset-index operand of the file's code (root entries, which hold every instruction),
/// in entry and instruction order. Empty for files from 2023.8 on (their asset references are
/// typed `pushref` operands, which gmkit-data renumbers itself) and files without bytecode.
///
/// Entries whose instructions do not decode are skipped (the file's own `validate` reports
/// them).
pub fn asset_operands(game: &Game) -> Vec<Operand> {
    let mut out = Vec::new();
    if game.features.asset_refs() {
        return out;
    }
    let Some(code) = game.file.code.as_ref() else {
        return out;
    };
    // The functions (2.3+ child entries) each root holds: (execution offset, script name).
    let mut children: HashMap<usize, Vec<(u32, &str)>> = HashMap::new();
    for (e, entry) in code.entries.iter().enumerate() {
        if let gmkit_data::chunks::code::CodeBody::Shared { parent } = entry.body
            && let Some(s) = game.code_name(e).strip_prefix("gml_Script_")
        {
            children
                .entry(parent as usize)
                .or_default()
                .push((entry.execution_offset, s));
        }
    }
    for e in 0..code.entries.len() {
        if !code.entries[e].body.is_root() {
            continue;
        }
        let Ok(ins) = code.instructions(e) else {
            continue;
        };
        let mut sim = Sim::new(game, e, &ins);
        sim.functions(children.get(&e).map_or(&[][..], Vec::as_slice));
        sim.run(&mut out);
    }
    out
}

/// A value on the simulated stack: the integer pushes it may be (through conversions and
/// `dup`s), its kind where known, and its compile-time type (for `dup` sizes).
#[derive(Clone, Debug)]
struct Slot {
    /// Instruction indices of the integer pushes this value is.
    pushes: Vec<usize>,
    /// The kind of the value (a built-in variable's, a built-in call's result).
    kind: Kind,
    /// The literal, if it is one (`-9` marks a stacktop instance in 2.3+).
    lit: Option<i64>,
    ty: DataType,
}

impl Slot {
    fn plain(ty: DataType) -> Slot {
        Slot {
            pushes: Vec::new(),
            kind: Kind::Any,
            lit: None,
            ty,
        }
    }
    fn kinded(kind: Kind, ty: DataType) -> Slot {
        Slot {
            kind,
            ..Slot::plain(ty)
        }
    }
    fn size(&self) -> usize {
        crate::decompile::type_size(self.ty)
    }
}

/// Most integer pushes one value may be (kept per merge): a bound on hostile input.
const MAX_PUSHES: usize = 64;

/// Deepest stack followed (real code stays far below; a deeper one is forgotten, so hostile
/// input cannot make the simulation keep many large copies at branch targets).
const MAX_DEPTH: usize = 256;

struct Sim<'a, 'g> {
    game: &'a Game<'g>,
    entry: usize,
    ins: &'a [Instruction],
    offsets: Vec<u32>,
    /// Stacks recorded at forward branch targets, by instruction index.
    pending: HashMap<usize, Vec<Slot>>,
    /// Found (push index, kind, certainty, context), deduplicated when emitted.
    found: Vec<(usize, Place, AssetKind, Certainty, String)>,
    script: Option<&'a str>,
    /// The functions the entry holds (2.3+): instruction range and script name, innermost
    /// last among those that overlap.
    functions: Vec<(std::ops::Range<usize>, &'a str)>,
    /// The value last stored into the cleanup temporary `$$$$temp$$$$` (a `return` inside a
    /// `switch` or `with` saves its value there, pops the switch value, then pushes it back).
    temp: Option<Slot>,
    /// The kinds the naming pass gives the entry's locals.
    local_kinds: HashMap<String, Kind>,
}

/// The local GameMaker saves a result in while it cleans up the stack before `ret`.
const CLEANUP_TEMP: &str = "$$$$temp$$$$";

impl<'a, 'g> Sim<'a, 'g> {
    fn new(game: &'a Game<'g>, entry: usize, ins: &'a [Instruction]) -> Self {
        let mut offsets = Vec::with_capacity(ins.len());
        let mut off = 0u32;
        for x in ins {
            offsets.push(off);
            off = off.saturating_add(x.size() as u32);
        }
        Sim {
            game,
            entry,
            ins,
            offsets,
            pending: HashMap::new(),
            found: Vec::new(),
            script: game.code_name(entry).strip_prefix("gml_Script_"),
            functions: Vec::new(),
            temp: None,
            local_kinds: crate::decompile::entry_local_kinds(game, entry),
        }
    }

    /// Notes the functions (child entries: execution offset, script name) the entry holds: a
    /// function's body runs from its offset to the target of the branch that skips it (the
    /// instruction before it), or to the end.
    fn functions(&mut self, children: &[(u32, &'a str)]) {
        for &(off, name) in children {
            let Ok(start) = self.offsets.binary_search(&off) else {
                continue;
            };
            let end = start
                .checked_sub(1)
                .and_then(|b| match self.ins[b] {
                    Instruction::Branch { offset, .. } => self.target(b, offset),
                    _ => None,
                })
                .filter(|&t| t > start)
                .unwrap_or(self.ins.len());
            self.functions.push((start..end, name));
        }
        // Innermost (shortest) last, so that a search from the end finds it first.
        self.functions
            .sort_by_key(|(r, _)| std::cmp::Reverse(r.end - r.start));
    }

    /// The script whose body instruction `i` is in: the innermost function holding it, else
    /// the entry's own script.
    fn script_at(&self, i: usize) -> Option<&'a str> {
        self.functions
            .iter()
            .rev()
            .find(|(r, _)| r.contains(&i))
            .map(|(_, n)| *n)
            .or(self.script)
    }

    /// The instruction index a branch at `at` with word offset `offset` goes to.
    fn target(&self, at: usize, offset: i32) -> Option<usize> {
        let to = i64::from(self.offsets[at]) + i64::from(offset) * 4;
        let to = u32::try_from(to).ok()?;
        self.offsets.binary_search(&to).ok()
    }

    fn record(&mut self, target: usize, stack: &[Slot]) {
        if stack.len() > MAX_DEPTH {
            return;
        }
        match self.pending.get_mut(&target) {
            Some(s) => merge(s, stack),
            None => {
                self.pending.insert(target, stack.to_vec());
            }
        }
    }

    fn run(mut self, out: &mut Vec<Operand>) {
        let mut stack: Vec<Slot> = Vec::new();
        let mut live = true;
        for i in 0..self.ins.len() {
            if let Some(s) = self.pending.remove(&i) {
                if live {
                    merge(&mut stack, &s);
                } else {
                    stack = s;
                }
            } else if !live {
                stack.clear();
            }
            live = true;
            self.step(i, &mut stack, &mut live);
            if stack.len() > MAX_DEPTH {
                // Nothing real grows so deep: stop following rather than grow.
                stack.clear();
            }
        }
        self.emit(out);
    }

    fn emit(self, out: &mut Vec<Operand>) {
        let name = self.game.code_name(self.entry).to_string();
        let mut seen = std::collections::HashSet::new();
        for (at, place, kind, certainty, context) in self.found {
            let index = match (place, self.ins[at]) {
                (Place::Immediate, Instruction::Push { value, .. }) => int_value(value),
                (Place::InstanceField, Instruction::Pop { var, .. })
                | (
                    Place::InstanceField,
                    Instruction::Push {
                        value: PushValue::Variable(var),
                        ..
                    },
                ) => Some(i64::from(var.instance.0)),
                _ => None,
            };
            let Some(index) = index.and_then(|v| u32::try_from(v).ok()) else {
                continue;
            };
            if !seen.insert((at, place, kind, certainty)) {
                continue;
            }
            out.push(Operand {
                entry: self.entry,
                entry_name: name.clone(),
                instruction: at,
                offset: self.offsets[at],
                place,
                kind,
                index,
                certainty,
                context,
            });
        }
    }

    fn pop(stack: &mut Vec<Slot>) -> Slot {
        stack
            .pop()
            .unwrap_or_else(|| Slot::plain(DataType::Variable))
    }

    /// Notes that `slot` goes where a value of kind `k` goes.
    fn goes(&mut self, slot: &Slot, k: Kind, context: impl Fn() -> String) {
        let Some(kind) = asset_of(k) else {
            return;
        };
        for &p in &slot.pushes {
            let Some(v) = self.ins.get(p).and_then(|x| match x {
                Instruction::Push { value, .. } => int_value(*value),
                _ => None,
            }) else {
                continue;
            };
            if v < 0 || (k == Kind::Instance && v >= 100_000) {
                continue;
            }
            self.found
                .push((p, Place::Immediate, kind, Certainty::Typed, context()));
        }
    }

    /// Notes that `slot` is passed to a function of the game's own whose parameter has no
    /// known kind.
    fn unsure(&mut self, slot: &Slot, context: impl Fn() -> String) {
        for &p in &slot.pushes {
            self.found.push((
                p,
                Place::Immediate,
                AssetKind::Object,
                Certainty::Unsure,
                context(),
            ));
        }
    }

    /// The kind of variable `var` as a place (built-in variable, or a game variable the
    /// naming pass typed); locals have none.
    fn var_kind(&self, var: &VariableRef) -> Kind {
        let name = self.game.var_name(var.variable);
        if var.instance == InstanceType::LOCAL {
            return self.local_kinds.get(name).copied().unwrap_or(Kind::Any);
        }
        if let Some(v) = builtins::variable(name) {
            return v.kind;
        }
        let index = self.game.name_index();
        match index.game_variable_kind(name) {
            Kind::Any => {}
            k => return k,
        }
        let param = name
            .strip_prefix("argument")
            .and_then(|d| d.parse::<usize>().ok());
        match (param, self.script) {
            (Some(k), Some(s)) => index.param_kind(s, k),
            _ => Kind::Any,
        }
    }

    /// Pops the operands a variable access takes (instance, array index), noting instance
    /// operands and the instruction's own instance field.
    fn access(&mut self, at: usize, var: &VariableRef, stack: &mut Vec<Slot>) {
        let n = self.game.var_name(var.variable).to_string();
        let gml_v2 = self.game.features.gml_v2();
        let instance = |sim: &mut Self, stack: &mut Vec<Slot>| {
            let mut v = Self::pop(stack);
            if v.lit == Some(-9) && gml_v2 && !stack.is_empty() {
                v = Self::pop(stack);
            }
            sim.goes(&v, Kind::Instance, || format!("the instance of .{n}"));
        };
        match var.ref_type {
            RefType::NORMAL => {
                if var.instance == InstanceType::STACKTOP {
                    instance(self, stack);
                } else if var.instance.0 >= 0 {
                    self.found.push((
                        at,
                        Place::InstanceField,
                        AssetKind::Object,
                        Certainty::Typed,
                        format!("the instance of .{n}"),
                    ));
                }
            }
            RefType::STACKTOP => instance(self, stack),
            RefType::INSTANCE => {}
            _ => {
                Self::pop(stack);
                instance(self, stack);
            }
        }
    }

    fn step(&mut self, i: usize, stack: &mut Vec<Slot>, live: &mut bool) {
        match self.ins[i] {
            Instruction::Push { value, .. } => {
                match value {
                    PushValue::Variable(var) => {
                        self.access(i, &var, stack);
                        let saved = (var.instance == InstanceType::LOCAL
                            && self.game.var_name(var.variable) == CLEANUP_TEMP)
                            .then(|| self.temp.clone())
                            .flatten();
                        stack.push(saved.unwrap_or_else(|| {
                            Slot::kinded(self.var_kind(&var), DataType::Variable)
                        }));
                    }
                    v => {
                        let lit = int_value(v);
                        let ty = match v {
                            PushValue::Int64(_) => DataType::Int64,
                            PushValue::Double(_) | PushValue::Float(_) => DataType::Double,
                            PushValue::String(_) => DataType::String,
                            _ => DataType::Int32,
                        };
                        stack.push(Slot {
                            pushes: if lit.is_some() { vec![i] } else { Vec::new() },
                            kind: Kind::Any,
                            lit,
                            ty,
                        });
                    }
                }
            }
            Instruction::Binary {
                op: Opcode::Conv,
                t2,
                ..
            } => {
                let mut v = Self::pop(stack);
                v.ty = t2;
                stack.push(v);
            }
            Instruction::Binary { t1, t2, .. } => {
                Self::pop(stack);
                Self::pop(stack);
                let ty = if t1 == DataType::Variable || t2 == DataType::Variable {
                    DataType::Variable
                } else if t1 == DataType::Double || t2 == DataType::Double {
                    DataType::Double
                } else {
                    t1
                };
                stack.push(Slot::plain(ty));
            }
            Instruction::Compare { cmp, .. } => {
                let b = Self::pop(stack);
                let a = Self::pop(stack);
                let c = match cmp {
                    Comparison::Eq => "==",
                    Comparison::Ne => "!=",
                    _ => "compared with",
                };
                if !matches!(b.kind, Kind::Any) {
                    self.goes(&a, b.kind, || format!("{c} a value of kind {:?}", b.kind));
                }
                if !matches!(a.kind, Kind::Any) {
                    self.goes(&b, a.kind, || format!("{c} a value of kind {:?}", a.kind));
                }
                stack.push(Slot::kinded(Kind::Bool, DataType::Boolean));
            }
            Instruction::Unary { op, t } => match op {
                Opcode::Neg | Opcode::Not => {
                    Self::pop(stack);
                    stack.push(Slot::plain(t));
                }
                Opcode::Ret | Opcode::Exit => {
                    // A script's result goes where its callers use it (the naming pass's
                    // result kind).
                    if op == Opcode::Ret
                        && let Some(s) = self.script_at(i)
                    {
                        let k = self.game.name_index().script_result_kind(s);
                        let v = Self::pop(stack);
                        self.goes(&v, k, || format!("the result of {s}"));
                    }
                    stack.clear();
                    *live = false;
                }
                _ => {
                    Self::pop(stack);
                }
            },
            Instruction::Pop { t1, var, .. } => {
                let value_on_top = t1 == DataType::Int32;
                let early = value_on_top.then(|| Self::pop(stack));
                self.access(i, &var, stack);
                let value = match early {
                    Some(v) => v,
                    None => Self::pop(stack),
                };
                let k = self.var_kind(&var);
                let n = self.game.var_name(var.variable).to_string();
                if var.instance == InstanceType::LOCAL && n == CLEANUP_TEMP {
                    self.temp = Some(value.clone());
                }
                self.goes(&value, k, || format!("stored into {n}"));
            }
            Instruction::PopSwap { .. } => stack.clear(),
            Instruction::Dup { t, count, extra } => {
                if extra != 0 {
                    // Swap forms only reorder: the values stay, their order is not modelled.
                    stack.clear();
                    return;
                }
                let k = crate::decompile::dup_start(stack, t, count, Slot::size);
                let copy: Vec<Slot> = stack[k..].to_vec();
                stack.extend(copy);
            }
            Instruction::CallV { argc, .. } => {
                Self::pop(stack);
                Self::pop(stack);
                // Arguments beyond the simulated stack are unknown (bounds the loop).
                for a in 0..(argc as usize).min(stack.len()) {
                    let v = Self::pop(stack);
                    self.unsure(&v, || format!("argument {a} of a method call"));
                }
                stack.push(Slot::plain(DataType::Variable));
            }
            Instruction::Call { argc, function, .. } => {
                let name = self.game.func_name(function).to_string();
                self.call(&name, argc, stack);
            }
            Instruction::CallByName { argc, name, .. } => {
                let name = self.game.string(name);
                self.call(&name, argc, stack);
            }
            Instruction::Branch { op, offset } => match op {
                Opcode::B => {
                    if let Some(t) = self.target(i, offset).filter(|&t| t > i) {
                        self.record(t, stack);
                    }
                    stack.clear();
                    *live = false;
                }
                Opcode::Bt | Opcode::Bf => {
                    Self::pop(stack);
                    if let Some(t) = self.target(i, offset).filter(|&t| t > i) {
                        self.record(t, stack);
                    }
                }
                Opcode::PushEnv => {
                    let v = Self::pop(stack);
                    self.goes(&v, Kind::Instance, || "with".to_string());
                    if let Some(t) = self.target(i, offset).filter(|&t| t > i) {
                        self.record(t, stack);
                    }
                }
                _ => {}
            },
            Instruction::PopEnvExit => {}
            Instruction::Extended { kind, .. } => match kind {
                ExtendedKind::CHKINDEX | ExtendedKind::CHKNULLISH => {}
                ExtendedKind::PUSHAC | ExtendedKind::PUSHAF => {
                    Self::pop(stack);
                    Self::pop(stack);
                    stack.push(Slot::plain(DataType::Variable));
                }
                ExtendedKind::POPAF => {
                    Self::pop(stack);
                    Self::pop(stack);
                    Self::pop(stack);
                }
                ExtendedKind::SETOWNER => {
                    Self::pop(stack);
                }
                ExtendedKind::ISSTATICOK => stack.push(Slot::plain(DataType::Boolean)),
                ExtendedKind::PUSHREF => stack.push(Slot::plain(DataType::Variable)),
                _ => {}
            },
        }
    }

    fn call(&mut self, name: &str, argc: u16, stack: &mut Vec<Slot>) {
        // By its GML name, as the decompiler reads it: a game script of a built-in's name (the
        // compatibility scripts of an imported GMS 1.4 project) takes what the built-in takes.
        let short = crate::decompile::names::fn_short_name(name).to_string();
        let builtin = builtins::function(&short);
        let index = self.game.name_index();
        // Arguments beyond the simulated stack are unknown (bounds the loop).
        for a in 0..(argc as usize).min(stack.len()) {
            let v = Self::pop(stack);
            if short == "@@GetInstance@@" {
                // 2.3+ `obj.method()`: the compiler's own call turning an object into the
                // instance the method is called on.
                self.goes(&v, Kind::Instance, || {
                    "the instance of a method call".to_string()
                });
                continue;
            }
            match builtin {
                Some(f) => {
                    let k = f.arg(a);
                    self.goes(&v, k, || format!("argument {a} of {name}"));
                }
                None => match index.param_kind(&short, a) {
                    k if k.has_names() => self.goes(&v, k, || {
                        format!("argument {a} of {short} (passed on as {k:?})")
                    }),
                    _ => self.unsure(&v, || format!("argument {a} of {short}")),
                },
            }
        }
        let returns = builtin.map_or_else(|| index.script_result_kind(&short), |f| f.returns);
        stack.push(Slot::kinded(returns, DataType::Variable));
    }
}

/// Merges the stack `other` (another path into the same instruction) into `into`: values of
/// the same depth may be either path's.
fn merge(into: &mut Vec<Slot>, other: &[Slot]) {
    if into.len() != other.len() {
        // Paths disagree: keep the deeper view, values unknown.
        let n = into.len().max(other.len());
        into.clear();
        into.resize(n, Slot::plain(DataType::Variable));
        return;
    }
    for (a, b) in into.iter_mut().zip(other) {
        for &p in &b.pushes {
            if !a.pushes.contains(&p) && a.pushes.len() < MAX_PUSHES {
                a.pushes.push(p);
            }
        }
        if a.kind != b.kind {
            a.kind = Kind::Any;
        }
        if a.lit != b.lit {
            a.lit = None;
        }
    }
}

/// The integer a push pushes, if it pushes one.
pub(crate) fn int_value(v: PushValue) -> Option<i64> {
    match v {
        PushValue::Int16(v) => Some(i64::from(v)),
        PushValue::Int32(v) => Some(i64::from(v)),
        PushValue::Int64(v) => Some(v),
        _ => None,
    }
}

/// The asset kind an integer of value kind `k` indexes, if any.
fn asset_of(k: Kind) -> Option<AssetKind> {
    match k {
        Kind::Instance => Some(AssetKind::Object),
        Kind::Asset(AssetKind::RoomInstance) => None,
        Kind::Asset(a) => Some(a),
        _ => None,
    }
}
