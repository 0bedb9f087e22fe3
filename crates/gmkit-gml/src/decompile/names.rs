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
//! Kinds also flow through the code ([`Ev`]: a value gets a kind only when every piece of
//! evidence agrees; arithmetic on it, or a plain number, string or array stored in it, says
//! "no kind"):
//!
//! - the entry's locals: from the values stored in them (`var c = image_blend`), the built-in
//!   places they go (`instance_create(x, y, o)`), what they are compared with, and conditions
//!   (a boolean); literals stored in or compared with them, and `switch (local)` labels, read
//!   by that kind;
//! - the game's own instance and global variables, game-wide from the bytecode (one scan per
//!   game, cached on [`Game`]): the built-in arguments they are passed as and the values of
//!   known kind stored in them;
//! - scripts (and from 2.3 their functions, the child entries): a parameter's kind from where
//!   the script passes it (directly or through a local holding it), from the conditions it
//!   is read in, and from what its callers pass; a result's kind from where callers pass it
//!   (directly or through a local); a script returning only 0/1 or comparisons is a
//!   predicate. Literal arguments of calls and literal `return` values read by those kinds.
//!
//! Only names that compile back to the same number are printed: a constant or an asset name
//! that is also one of the game's variables or functions, a local of the entry, or (assets)
//! the name of two assets stays a number.

use crate::ast::{BinaryOp, Expr, Function, Literal, Stmt};
use crate::builtins::{self, Kind};
use crate::game::{AssetKind, Game};
use crate::visit::{
    Visitor, VisitorMut, walk_block_mut, walk_expr, walk_expr_mut, walk_function_mut, walk_stmt,
    walk_stmt_mut,
};
use std::collections::{HashMap, HashSet};

/// The game's names a printed name must not collide with, built once per game.
#[derive(Debug, Default)]
pub struct NameIndex {
    /// Names of variables (VARI) and functions (FUNC, with and without `gml_Script_`).
    taken: HashSet<String>,
    /// How many assets have each name.
    assets: HashMap<String, u32>,
    /// Kinds of the game's own instance and global variables and script parameters.
    kinds: VariableKinds,
    /// Whether the game defines a script or function `ord` of its own
    /// ([`Game::defines_function`]).
    own_ord: bool,
    /// The same for `real`.
    pub(crate) own_real: bool,
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
            own_ord: game.defines_function("ord"),
            own_real: game.defines_function("real"),
        }
    }
}

/// The evidence of a value's kind: none yet, one kind every piece agrees on, or pieces that
/// disagree.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
enum Ev {
    /// No evidence.
    #[default]
    None,
    /// Every piece says this kind.
    Kind(Kind),
    /// Pieces disagree (or one says "a plain number").
    Conflict,
}

impl Ev {
    /// Evidence from a place the value goes (an argument, a comparison): a kind with names
    /// counts, any other kind says nothing.
    fn used_as(&mut self, k: Kind) {
        if k.has_names() {
            self.join(Ev::Kind(k));
        }
    }

    /// Evidence from a value stored: a kind with names counts, a plain number, string, array
    /// or function disagrees with every kind, an unknown kind says nothing.
    fn stored(&mut self, k: Kind) {
        match k {
            Kind::Any => {}
            k if k.has_names() => self.join(Ev::Kind(k)),
            _ => *self = Ev::Conflict,
        }
    }

    fn join(&mut self, o: Ev) {
        *self = match (*self, o) {
            (a, Ev::None) => a,
            (Ev::None, b) => b,
            (Ev::Kind(a), Ev::Kind(b)) if a == b => Ev::Kind(a),
            // An object index and an instance id name alike.
            (Ev::Kind(Kind::Instance), Ev::Kind(Kind::Asset(AssetKind::Object)))
            | (Ev::Kind(Kind::Asset(AssetKind::Object)), Ev::Kind(Kind::Instance)) => {
                Ev::Kind(Kind::Instance)
            }
            _ => Ev::Conflict,
        }
    }

    /// The agreed kind, [`Kind::Any`] without one.
    fn kind(self) -> Kind {
        match self {
            Ev::Kind(k) => k,
            _ => Kind::Any,
        }
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
    /// Stores of another of the game's own variables (`a = b`): boolean when every such `b` is.
    copies: u32,
    /// Stores of a value the bytecode does not type (a number read from a file or a map,
    /// `real(s)`, a script's result that is not a predicate): booleans hold such values
    /// too, so these count for no kind, but a variable with them needs a boolean store and a
    /// condition read besides to be one.
    opaque: u32,
    /// Reads compared with a number other than 0, 1 and -4 (`v == 3`, `v > 2`): not a boolean.
    compared_number: u32,
    /// A store of anything else (a number, an expression).
    other: bool,
    /// The kinds of the built-in places it is passed to and of the values stored in it.
    ev: Ev,
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
        self.copies += u.copies;
        self.opaque += u.opaque;
        self.compared_number += u.compared_number;
        self.other |= u.other;
        self.ev.join(u.ev);
    }

    /// Used as a boolean: every store is 0, 1 or a boolean expression (a literal among them),
    /// and some read is a condition or some store a boolean expression (`hit = 0` and
    /// `hit = place_meeting(…)`); never compared with another number; with an untyped
    /// store ([`Use::opaque`]), both a boolean store and a condition read
    /// (`f = ini_read_real(…)`, `f = !f`, `if (f)`).
    fn is_bool(&self) -> bool {
        !self.other
            && self.noone == 0
            && self.instance == 0
            && self.compared_number == 0
            && self.literal > 0
            && (self.condition > 0 || self.boolean > 0)
            && (self.opaque == 0 || (self.condition > 0 && self.boolean > 0))
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

impl NameIndex {
    /// The kind the game's code gives its own (non-built-in) variable `name`, the same the
    /// naming pass prints by: holding instances, passed where a built-in takes an object, or
    /// another kind with names every use agrees on ([`Kind::Any`] otherwise). Used by
    /// [`crate::assets`] to find asset operands.
    pub(crate) fn game_variable_kind(&self, name: &str) -> Kind {
        if self.kinds.instances.contains(name) {
            Kind::Instance
        } else if self.kinds.objects.contains(name) {
            Kind::Asset(AssetKind::Object)
        } else {
            self.kinds.named.get(name).copied().unwrap_or(Kind::Any)
        }
    }

    /// The kind of parameter `k` of script `script` (from the built-in places the script
    /// passes it to and the values its callers pass), as the naming pass prints it.
    pub(crate) fn param_kind(&self, script: &str, k: usize) -> Kind {
        self.kinds
            .params
            .get(script)
            .and_then(|p| p.get(k).copied())
            .unwrap_or(Kind::Any)
    }

    /// The kind of the result of script `script`, as the naming pass prints it.
    pub(crate) fn script_result_kind(&self, script: &str) -> Kind {
        self.kinds.returns.get(script).copied().unwrap_or(Kind::Any)
    }
}

pub(crate) use super::stack::fn_short_name;

/// What the bytecode of the game's code says of its variables and script parameters.
#[derive(Debug, Default)]
struct VariableKinds {
    /// Used as booleans ([`Use::is_bool`]).
    bools: HashSet<String>,
    /// Holding instances ([`Use::is_instance`]).
    instances: HashSet<String>,
    /// Passed where a built-in takes an object or an instance (and neither of the above).
    objects: HashSet<String>,
    /// Other kinds with names: every built-in place the variable is passed to and every value
    /// of known kind stored in it agree ([`Ev`]).
    named: HashMap<String, Kind>,
    /// Script name → the kinds of its parameters (`argumentN`): of the built-in places the
    /// script passes them to and of the values its callers pass.
    params: HashMap<String, Vec<Kind>>,
    /// Script name → the kind of its result, from the built-in places its callers pass it to.
    returns: HashMap<String, Kind>,
}

/// Booleans that hold one another (`djump = global.restartWithDJump`, where only `djump` is
/// ever read as a condition): the variables whose every store is 0, 1, a boolean expression
/// or a copy of another such variable, grouped by their copies; a group where some variable
/// is read as a condition (and stores a 0 or 1) holds booleans throughout.
fn copied_booleans(
    by_name: &HashMap<&str, Use>,
    copy_sources: &HashMap<&str, Vec<&str>>,
    bools: &mut HashSet<String>,
) {
    let flag_only = |u: &Use| {
        !u.other
            && u.noone == 0
            && u.instance == 0
            && u.opaque == 0
            && u.compared_number == 0
            && u.literal + u.boolean + u.copies > 0
    };
    let mut set: HashSet<&str> = by_name
        .iter()
        .filter(|(n, u)| builtins::variable(n).is_none() && flag_only(u))
        .map(|(n, _)| *n)
        .collect();
    // Keep only those whose every copied source stays in the set (a worklist: a variable
    // dropped drops the variables copying it).
    let mut copiers: HashMap<&str, Vec<&str>> = HashMap::new();
    for (d, srcs) in copy_sources {
        for s in srcs {
            copiers.entry(s).or_default().push(d);
        }
    }
    let mut work: Vec<&str> = set
        .iter()
        .copied()
        .filter(|n| {
            copy_sources
                .get(n)
                .is_some_and(|v| v.iter().any(|s| !set.contains(s) && !bools.contains(*s)))
        })
        .collect();
    while let Some(n) = work.pop() {
        if set.remove(n) {
            for d in copiers.get(n).into_iter().flatten() {
                if set.contains(d) && !bools.contains(n) {
                    work.push(d);
                }
            }
        }
    }
    // Copy edges within the set, both ways.
    let mut edges: HashMap<&str, Vec<&str>> = HashMap::new();
    for (d, srcs) in copy_sources {
        if !set.contains(d) {
            continue;
        }
        for s in srcs.iter().filter(|s| set.contains(*s)) {
            edges.entry(d).or_default().push(s);
            edges.entry(s).or_default().push(d);
        }
    }
    let mut work: Vec<&str> = set
        .iter()
        .copied()
        .filter(|n| by_name[n].condition > 0 && by_name[n].literal > 0)
        .filter(|n| edges.contains_key(n))
        .collect();
    let mut seen: HashSet<&str> = work.iter().copied().collect();
    while let Some(n) = work.pop() {
        bools.insert(n.to_string());
        for m in edges.get(n).into_iter().flatten() {
            if seen.insert(m) {
                work.push(m);
            }
        }
    }
}

/// The last instruction of each value a `call` at `at` passes, argument 0 first, as far as
/// they are straight-line expressions (pushes, conversions, arithmetic, comparisons, calls).
fn call_args(
    ins: &[gmkit_data::chunks::code::Instruction],
    at: usize,
    argc: usize,
) -> Vec<gmkit_data::chunks::code::Instruction> {
    stack_values(ins, at, argc)
        .into_iter()
        .map(|k| ins[k])
        .collect()
}

/// The positions of the last instructions of the `n` values on the stack at `at` (the top
/// first), as far as they are straight-line expressions (pushes, conversions, arithmetic,
/// comparisons, calls).
fn stack_values(ins: &[gmkit_data::chunks::code::Instruction], at: usize, n: usize) -> Vec<usize> {
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
    for _ in 0..n.min(64) {
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
        out.push(last);
        end = k;
    }
    out
}

/// Notes script `s` (its root entry's instructions `ins`) among `out` if it is a predicate:
/// every `ret` gives 0, 1, a comparison, `!` or a short-circuit `&&`/`||`, and both 0 and 1
/// or one of the boolean expressions are among them.
fn predicate_returns(
    ins: &[gmkit_data::chunks::code::Instruction],
    s: &str,
    push_e_is_signature: bool,
    out: &mut HashSet<String>,
) {
    use gmkit_data::chunks::code::{Instruction, Opcode, PushValue};
    let mut seen = [false; 2];
    let mut boolean = false;
    for (j, x) in ins.iter().enumerate() {
        if !matches!(
            x,
            Instruction::Unary {
                op: Opcode::Ret,
                ..
            }
        ) {
            continue;
        }
        let prev = ins[..j].iter().rev().find(|p| {
            !matches!(
                p,
                Instruction::Binary {
                    op: Opcode::Conv,
                    ..
                }
            )
        });
        match prev {
            // The landing `push.e 0|1` of a short-circuit `&&`/`||` chain (a literal is a
            // `pushi`): a boolean.
            Some(x) if push_e_is_signature && is_short_circuit_end(x) => boolean = true,
            Some(Instruction::Push {
                value: PushValue::Int16(v @ (0 | 1)),
                ..
            }) => seen[*v as usize] = true,
            Some(Instruction::Push {
                value: PushValue::Int32(v @ (0 | 1)),
                ..
            }) => seen[*v as usize] = true,
            Some(Instruction::Compare { .. }) => boolean = true,
            Some(Instruction::Unary {
                op: Opcode::Not, ..
            }) => boolean = true,
            _ => return,
        }
    }
    if seen == [true, true] || boolean {
        out.insert(s.to_string());
    }
}

/// Whether built-in `f` gives back a number stored earlier (in a file, or written as a
/// string): `ini_read_real`, `real`, ... Such a number may be a saved boolean.
fn reads_stored_value(f: &str) -> bool {
    matches!(
        f,
        "ini_read_real" | "real" | "file_text_read_real" | "buffer_read" | "json_decode"
    )
}

/// Whether `x` is the `push.e 0` or `push.e 1` that ends a short-circuit `&&`/`||` chain:
/// the plain `push` opcode with a 16-bit value, where a literal 0 or 1 in the source is a
/// `pushi.e` (../shared/spec/gml-bytecode.md §4.2 and §10; from bytecode 15 on, see
/// [`crate::features::Features::push_e_is_signature`]).
fn is_short_circuit_end(x: &gmkit_data::chunks::code::Instruction) -> bool {
    use gmkit_data::chunks::code::{Instruction, Opcode, PushValue};
    matches!(
        x,
        Instruction::Push {
            op: Opcode::Push,
            value: PushValue::Int16(0 | 1),
        }
    )
}

/// Where a local's one value comes from.
enum Src {
    /// Parameter N of the script (`argumentN`).
    Param(usize),
    /// The result of a call of this script.
    Ret(String),
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
    let mut params: HashMap<String, Vec<Ev>> = HashMap::new();
    let mut returns: HashMap<String, Ev> = HashMap::new();
    let mut predicates: HashSet<String> = HashSet::new();
    // `push.e 0|1` ends a short-circuit chain (a literal is a `pushi.e`).
    let sig = game.features.push_e_is_signature();
    // Game variables passed straight to a script's parameter: (variable, script, parameter).
    let mut passed: Vec<(u32, String, usize)> = Vec::new();
    // Game variables stored straight into another: (destination, source).
    let mut copied: Vec<(u32, u32)> = Vec::new();
    // Game variables storing a script's result: (variable, script), a boolean when the script
    // is a predicate (known once every script is scanned).
    let mut script_stores: Vec<(u32, String)> = Vec::new();
    // The kind of the value an instruction leaves: a built-in variable's or a built-in call's.
    let kind_of = |x: &Instruction| -> Kind {
        match *x {
            Instruction::Push {
                value: PushValue::Variable(v),
                ..
            } if v.instance != InstanceType::LOCAL => {
                builtins::variable(game.var_name(v.variable)).map_or(Kind::Any, |b| b.kind)
            }
            Instruction::Call { function, .. } => {
                builtins::function(game.func_name(function)).map_or(Kind::Any, |f| f.returns)
            }
            _ => Kind::Any,
        }
    };
    // The script a call calls, if not a built-in.
    let script_of = |x: &Instruction| -> Option<&str> {
        match *x {
            Instruction::Call { function, .. } => {
                let n = game.func_name(function);
                builtins::function(n)
                    .is_none()
                    .then(|| super::stack::fn_short_name(n))
            }
            _ => None,
        }
    };
    // From 2.3 a script's functions are child entries (`gml_Script_<name>`) starting inside
    // their root's code: root → (start address, name).
    let mut children: HashMap<usize, Vec<(u32, &str)>> = HashMap::new();
    for (i, e) in code.entries.iter().enumerate() {
        if let gmkit_data::chunks::code::CodeBody::Shared { parent } = e.body
            && let Some(n) = game.code_name(i).strip_prefix("gml_Script_")
        {
            children
                .entry(parent as usize)
                .or_default()
                .push((e.execution_offset, n));
        }
    }
    for i in 0..code.entries.len() {
        if !code.entries[i].body.is_root() {
            continue;
        }
        let Ok(ins) = code.instructions(i) else {
            continue;
        };
        // The script each instruction belongs to: the entry's own name, or from each child's
        // start on, that child's function (up to the next child's start).
        let own = game.code_name(i).strip_prefix("gml_Script_");
        let mut owner: Vec<Option<&str>> = vec![own; ins.len()];
        if let Some(kids) = children.get_mut(&i) {
            kids.sort_unstable();
            let cfg = super::cfg::Cfg::new(&ins);
            let starts: Vec<(usize, &str)> = kids
                .iter()
                .filter_map(|&(a, n)| Some((cfg.index_of(a)?, n)))
                .collect();
            for (k, &(start, n)) in starts.iter().enumerate() {
                let end = starts.get(k + 1).map_or(ins.len(), |s| s.0);
                owner[start..end.max(start)]
                    .iter_mut()
                    .for_each(|o| *o = Some(n));
                predicate_returns(&ins[start..end.max(start)], n, sig, &mut predicates);
            }
        } else if let Some(s) = own {
            predicate_returns(&ins, s, sig, &mut predicates);
        }
        // Locals of this entry holding one script parameter or one script's result.
        let mut local_src: HashMap<u32, Option<Src>> = HashMap::new();
        for (j, x) in ins.iter().enumerate() {
            let script = owner[j];
            if let Instruction::Pop { var, .. } = x
                && var.instance == InstanceType::LOCAL
            {
                let prev = ins[..j].iter().rev().find(|p| {
                    !matches!(
                        p,
                        Instruction::Binary {
                            op: Opcode::Conv,
                            ..
                        }
                    )
                });
                let src = match prev {
                    Some(Instruction::Push {
                        value: PushValue::Variable(v),
                        ..
                    }) if v.instance != InstanceType::LOCAL => game
                        .var_name(v.variable)
                        .strip_prefix("argument")
                        .and_then(|d| d.parse::<usize>().ok())
                        .filter(|k| *k < 16 && script.is_some())
                        .map(Src::Param),
                    Some(p) => script_of(p).map(|s| Src::Ret(s.to_string())),
                    None => None,
                };
                local_src
                    .entry(var.variable.0)
                    .and_modify(|e| *e = None)
                    .or_insert(src);
            }
        }
        for (j, x) in ins.iter().enumerate() {
            let script = owner[j];
            match x {
                Instruction::Call { argc, function, .. } => {
                    let n = game.func_name(*function);
                    let args = call_args(&ins, j, *argc as usize);
                    let Some(f) = builtins::function(n) else {
                        // A script: the kinds of the values its callers pass.
                        let s = super::stack::fn_short_name(n);
                        for (a, p) in args.iter().enumerate().take(16) {
                            if let Instruction::Push {
                                value: PushValue::Variable(var),
                                ..
                            } = p
                                && var.instance != InstanceType::LOCAL
                                && builtins::variable(game.var_name(var.variable)).is_none()
                            {
                                passed.push((var.variable.0, s.to_string(), a));
                            }
                            let k = kind_of(p);
                            if k.has_names() && k != Kind::Bool {
                                let v = params.entry(s.to_string()).or_default();
                                if v.len() <= a {
                                    v.resize(a + 1, Ev::None);
                                }
                                v[a].used_as(k);
                            }
                        }
                        continue;
                    };
                    for (a, p) in args.iter().enumerate() {
                        let k = f.arg(a);
                        if let Some(s) = script_of(p)
                            && k.has_names()
                            && k != Kind::Bool
                        {
                            returns.entry(s.to_string()).or_default().used_as(k);
                        }
                        let Instruction::Push {
                            value: PushValue::Variable(var),
                            ..
                        } = p
                        else {
                            continue;
                        };
                        if !k.has_names() {
                            continue;
                        }
                        if var.instance == InstanceType::LOCAL {
                            // A local holding a parameter or a script's result.
                            match local_src.get(&var.variable.0) {
                                Some(Some(Src::Param(p))) => {
                                    if let Some(s) = script {
                                        let v = params.entry(s.to_string()).or_default();
                                        if v.len() <= *p {
                                            v.resize(p + 1, Ev::None);
                                        }
                                        v[*p].used_as(k);
                                    }
                                }
                                Some(Some(Src::Ret(s))) if k != Kind::Bool => {
                                    returns.entry(s.clone()).or_default().used_as(k)
                                }
                                _ => {}
                            }
                            continue;
                        }
                        let n = game.var_name(var.variable);
                        let param = n
                            .strip_prefix("argument")
                            .and_then(|d| d.parse::<usize>().ok());
                        match (param, script) {
                            (Some(p), Some(s)) if p < 16 => {
                                let v = params.entry(s.to_string()).or_default();
                                if v.len() <= p {
                                    v.resize(p + 1, Ev::None);
                                }
                                v[p].used_as(k);
                            }
                            (Some(_), _) => {}
                            // Passed where a built-in takes a boolean: read as one.
                            (None, _) if k == Kind::Bool => {
                                uses.entry(var.variable.0).or_default().condition += 1;
                            }
                            (None, _) => {
                                let u = uses.entry(var.variable.0).or_default();
                                u.ev.used_as(k);
                                if matches!(k, Kind::Instance | Kind::Asset(AssetKind::Object)) {
                                    u.object_argument += 1;
                                }
                            }
                        }
                    }
                }
                Instruction::Pop { var, t1, .. }
                    if matches!(
                        var.ref_type,
                        RefType::NORMAL | RefType::ARRAY | RefType::STACKTOP
                    ) && var.instance != InstanceType::LOCAL =>
                {
                    // Where the stored value's expression ends: right before the `pop`, or
                    // below the values naming the place (the value deepest; `pop.i.v` has it
                    // on top): an element's instance and index (`a[i] = v`, `pop.v.T
                    // [array]`), another instance's variable's owner (`o.v = x`, `pop.v.T
                    // [stacktop]`; from 2.3 with the -9 marker).
                    let mut k = j;
                    let place = match var.ref_type {
                        RefType::ARRAY => 2,
                        RefType::STACKTOP if game.features.gml_v2() => 2,
                        RefType::STACKTOP => 1,
                        _ => 0,
                    };
                    if place > 0 && *t1 != DataType::Int32 {
                        match stack_values(&ins, j, place + 1).get(place) {
                            Some(&end) => k = end + 1,
                            // A value with branches (`a[i] = c ? 1 : 2`): of no known type.
                            None => {
                                uses.entry(var.variable.0).or_default().opaque += 1;
                                continue;
                            }
                        }
                    }
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
                    // A script's result stored in a built-in variable.
                    let target = builtins::variable(game.var_name(var.variable));
                    if let (Some(s), Some(t)) = (prev.as_ref().and_then(script_of), target)
                        && t.kind.has_names()
                        && t.kind != Kind::Bool
                    {
                        returns.entry(s.to_string()).or_default().used_as(t.kind);
                    }
                    let u = uses.entry(var.variable.0).or_default();
                    let returns = |f| builtins::function(game.func_name(f)).map(|f| f.returns);
                    match prev {
                        Some(p) if sig && is_short_circuit_end(&p) => u.boolean += 1,
                        Some(Instruction::Push {
                            value: PushValue::Int16(0 | 1) | PushValue::Int32(0 | 1),
                            ..
                        }) => u.literal += 1,
                        Some(Instruction::Push {
                            value: PushValue::Int16(-4) | PushValue::Int32(-4),
                            ..
                        }) => u.noone += 1,
                        Some(Instruction::Push {
                            value: PushValue::Int16(_) | PushValue::Int32(_),
                            ..
                        }) => u.other = true,
                        Some(Instruction::Push {
                            value: PushValue::Variable(v),
                            ..
                        }) if game.var_name(v.variable) == "id" => u.instance += 1,
                        // Another of the game's own variables, of whatever kind it turns out.
                        Some(Instruction::Push {
                            value: PushValue::Variable(v),
                            ..
                        }) if v.instance != InstanceType::LOCAL
                            && builtins::variable(game.var_name(v.variable)).is_none()
                            && !game.var_name(v.variable).starts_with("argument") =>
                        {
                            u.copies += 1;
                            copied.push((var.variable.0, v.variable.0));
                        }
                        Some(
                            p @ Instruction::Push {
                                value: PushValue::Variable(_),
                                ..
                            },
                        ) => {
                            u.ev.stored(kind_of(&p));
                            u.other = true;
                        }
                        Some(Instruction::Compare { .. })
                        | Some(Instruction::Unary {
                            op: Opcode::Not, ..
                        }) => u.boolean += 1,
                        Some(Instruction::Call { function, .. }) => match returns(function) {
                            Some(Kind::Bool) => u.boolean += 1,
                            Some(Kind::Instance) => {
                                u.instance += 1;
                                u.ev.stored(Kind::Instance);
                            }
                            // A value read from a file or a data structure, or converted
                            // from a string, may be a boolean saved earlier.
                            Some(Kind::Any) => u.opaque += 1,
                            Some(Kind::Real) if reads_stored_value(game.func_name(function)) => {
                                u.opaque += 1
                            }
                            // Another number from a built-in may be of any kind.
                            Some(Kind::Real) => u.other = true,
                            Some(k) => {
                                u.ev.stored(k);
                                u.other = true;
                            }
                            None => match prev.as_ref().and_then(script_of) {
                                Some(s) => script_stores.push((var.variable.0, s.to_string())),
                                None => u.other = true,
                            },
                        },
                        Some(Instruction::Binary { .. } | Instruction::Unary { .. }) => {
                            u.ev = Ev::Conflict;
                            u.other = true;
                        }
                        _ => u.other = true,
                    }
                }
                Instruction::Push {
                    value: PushValue::Variable(var),
                    ..
                } if matches!(
                    ins.get(j + 1),
                    Some(Instruction::Binary {
                        op: Opcode::Conv,
                        t2: DataType::Boolean,
                        ..
                    })
                ) =>
                {
                    let n = game.var_name(var.variable);
                    let param = n
                        .strip_prefix("argument")
                        .and_then(|d| d.parse::<usize>().ok())
                        .filter(|p| *p < 16);
                    // A parameter read as a condition is a boolean.
                    let param = match (var.instance == InstanceType::LOCAL, param) {
                        (true, _) => match local_src.get(&var.variable.0) {
                            Some(Some(Src::Param(p))) => Some(*p),
                            _ => None,
                        },
                        (false, p) => p,
                    };
                    if let (Some(p), Some(s)) = (param, script) {
                        let v = params.entry(s.to_string()).or_default();
                        if v.len() <= p {
                            v.resize(p + 1, Ev::None);
                        }
                        v[p].used_as(Kind::Bool);
                    }
                    if var.instance != InstanceType::LOCAL {
                        uses.entry(var.variable.0).or_default().condition += 1;
                    }
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
                // Compared with another number (`v == 3`, `v > 0.5`).
                Instruction::Push {
                    value: PushValue::Variable(var),
                    ..
                } if var.instance != InstanceType::LOCAL
                    && matches!(
                        ins.get(j + 1),
                        Some(Instruction::Push {
                            value: PushValue::Int16(_)
                                | PushValue::Int32(_)
                                | PushValue::Int64(_)
                                | PushValue::Double(_),
                            ..
                        })
                    )
                    && !matches!(
                        ins.get(j + 1),
                        Some(Instruction::Push {
                            value: PushValue::Int16(0 | 1 | -4) | PushValue::Int32(0 | 1 | -4),
                            ..
                        })
                    )
                    && matches!(ins.get(j + 2), Some(Instruction::Compare { .. })) =>
                {
                    uses.entry(var.variable.0).or_default().compared_number += 1;
                }
                _ => {}
            }
        }
    }
    // A script's result stored in a variable: a boolean from a predicate, else any value.
    for (v, s) in script_stores {
        let u = uses.entry(v).or_default();
        if predicates.contains(&s) {
            u.boolean += 1;
        } else {
            u.opaque += 1;
        }
    }
    // A variable passed to a script's boolean parameter is read as a boolean.
    for (v, s, a) in passed {
        if params.get(&s).and_then(|p| p.get(a)).map(|e| e.kind()) == Some(Kind::Bool) {
            uses.entry(v).or_default().condition += 1;
        }
    }
    let mut by_name: HashMap<&str, Use> = HashMap::new();
    for (v, u) in uses {
        let n = game.var_name(gmkit_data::Id::new(v));
        by_name.entry(n).or_default().add(u);
    }
    let mut kinds = VariableKinds {
        params: params
            .into_iter()
            .map(|(s, v)| (s, v.into_iter().map(Ev::kind).collect()))
            .collect(),
        returns: returns
            .into_iter()
            .filter_map(|(s, e)| Some((s, e.kind())).filter(|(_, k)| *k != Kind::Any))
            .collect(),
        ..VariableKinds::default()
    };
    for s in predicates {
        kinds.returns.entry(s).or_insert(Kind::Bool);
    }
    // Booleans: without copies first, then those whose every copied source is a boolean, until
    // nothing changes.
    let copy_sources: HashMap<&str, Vec<&str>> =
        copied.iter().fold(HashMap::new(), |mut m, &(d, s)| {
            m.entry(game.var_name(gmkit_data::Id::new(d)))
                .or_default()
                .push(game.var_name(gmkit_data::Id::new(s)));
            m
        });
    loop {
        let before = kinds.bools.len();
        for (n, u) in &by_name {
            if builtins::variable(n).is_some() || kinds.bools.contains(*n) || !u.is_bool() {
                continue;
            }
            let sources = copy_sources.get(n).map_or(&[][..], |v| v.as_slice());
            if sources.iter().all(|s| kinds.bools.contains(*s)) {
                kinds.bools.insert(n.to_string());
            }
        }
        if kinds.bools.len() == before {
            break;
        }
    }
    copied_booleans(&by_name, &copy_sources, &mut kinds.bools);
    for (n, mut u) in by_name {
        if builtins::variable(n).is_some() || kinds.bools.contains(n) {
            continue;
        }
        // A copy of a variable that is not a boolean is a value of any kind.
        u.other |= u.copies > 0;
        let objectish = matches!(u.ev.kind(), Kind::Instance | Kind::Asset(AssetKind::Object));
        if u.is_instance() {
            kinds.instances.insert(n.to_string());
        } else if u.object_argument > 0
            && u.boolean == 0
            && (u.literal == 0 || (u.condition == 0 && objectish))
        {
            kinds.objects.insert(n.to_string());
        } else if objectish && u.boolean == 0 && u.condition == 0 && u.noone == 0 {
            // Stored an object (`object_index`) or an instance and never read as a condition.
            kinds.objects.insert(n.to_string());
        } else if u.boolean == 0
            && u.ev.kind().has_names()
            && u.ev.kind() != Kind::Bool
            && !objectish
        {
            kinds.named.insert(n.to_string(), u.ev.kind());
        }
    }
    kinds
}

/// Names the values of `body`, the code of entry `entry` if known (see the module's
/// documentation).
/// The naming pass's state for one entry, with the kinds of its locals worked out.
fn namer<'a, 'g>(game: &'a Game<'g>, entry: Option<usize>, body: &[Stmt]) -> Namer<'a, 'g> {
    let mut locals = HashSet::new();
    crate::fold::collect_locals(body, true, &mut locals);
    let script = entry.and_then(|e| game.code_name(e).strip_prefix("gml_Script_"));
    let index = game.name_index();
    let mut n = Namer {
        game,
        script,
        index,
        locals,
        local_kinds: HashMap::new(),
        ret: std::cell::Cell::new(script.map_or(Kind::Any, |s| index.kinds.ret(s))),
    };
    // Kinds of the entry's locals, twice so that a local copied from another gets its kind.
    for _ in 0..2 {
        let mut ev = HashMap::new();
        Evidence { n: &n, ev: &mut ev }.visit_block(body);
        n.local_kinds = ev
            .into_iter()
            .filter_map(|(v, e): (String, Ev)| Some((v, e.kind())).filter(|(_, k)| *k != Kind::Any))
            .collect();
    }
    n
}

/// The kinds of the locals of `body` (the unnamed decompilation of `entry`), as
/// [`name_values`] names by them.
pub(crate) fn local_kinds(
    game: &Game,
    entry: Option<usize>,
    body: &[Stmt],
) -> HashMap<String, Kind> {
    namer(game, entry, body).local_kinds
}

pub(crate) fn name_values(game: &Game, entry: Option<usize>, body: &mut [Stmt]) {
    let mut n = namer(game, entry, body);
    for s in body.iter_mut() {
        n.visit_stmt_mut(s);
    }
    if !game.features.typed_booleans() {
        bool_returns(body, &|e| n.stored_kind(e) == Kind::Bool);
    }
    noone_returns(body, &|e| n.stored_kind(e) == Kind::Instance);
}

/// A script whose every `return` gives an instance (`is_instance`: `id`, `instance_create(…)`)
/// or -4, with both among them, returns instances: its -4 reads `noone`.
fn noone_returns(body: &mut [Stmt], is_instance: &dyn Fn(&Expr) -> bool) {
    let (mut noone, mut instance, mut other) = (false, false, false);
    each_return(body, &mut |r| match r {
        Some(Expr::Lit(Literal::Int(-4))) => noone = true,
        Some(Expr::Ident(n)) if n == "noone" => {}
        Some(e) if is_instance(e) => instance = true,
        _ => other = true,
    });
    if other || !noone || !instance {
        return;
    }
    each_return(body, &mut |r| {
        if let Some(e @ Expr::Lit(Literal::Int(-4))) = r {
            *e = Expr::Ident("noone".into());
        }
    });
}

/// A script whose every `return` gives 0, 1 or a boolean (`is_bool`), with both 0 and 1 or
/// a boolean and a literal among them, is a predicate: its returns read `true`/`false` (before
/// typed booleans, where both compile alike).
fn bool_returns(body: &mut [Stmt], is_bool: &dyn Fn(&Expr) -> bool) {
    let mut seen = [false; 2];
    let mut other = false;
    let mut boolean = false;
    each_return(body, &mut |r| match r {
        Some(Expr::Lit(Literal::Int(v @ (0 | 1)))) => seen[*v as usize] = true,
        Some(Expr::Lit(Literal::Bool(_))) => {}
        Some(e) if is_bool(e) => boolean = true,
        _ => other = true,
    });
    let literal = seen[0] || seen[1];
    if other || !(seen == [true, true] || (boolean && literal)) {
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
    /// The walk of [`each_return`].
    struct Returns<'f>(&'f mut dyn FnMut(&mut Option<Expr>));

    impl VisitorMut for Returns<'_> {
        fn visit_stmt_mut(&mut self, s: &mut Stmt) {
            match s {
                Stmt::Return(e) => (self.0)(e),
                s => walk_stmt_mut(self, s),
            }
        }

        fn visit_expr_mut(&mut self, _: &mut Expr) {}

        fn visit_function_mut(&mut self, _: &mut Function) {}
    }

    walk_block_mut(&mut Returns(f), body)
}

struct Namer<'a, 'g> {
    game: &'a Game<'g>,
    /// The script whose entry this is (`gml_Script_<name>`).
    script: Option<&'a str>,
    index: &'a NameIndex,
    locals: HashSet<String>,
    /// Kinds of the entry's locals from their stores and uses ([`Ev`]).
    local_kinds: HashMap<String, Kind>,
    /// The kind of the result of the function being named.
    ret: std::cell::Cell<Kind>,
}

impl VariableKinds {
    /// The kind of the result of script `s`.
    fn ret(&self, s: &str) -> Kind {
        self.returns.get(s).copied().unwrap_or(Kind::Any)
    }

    /// The kind of parameter `k` of script `s`.
    fn param(&self, s: &str, k: usize) -> Kind {
        self.params
            .get(s)
            .and_then(|p| p.get(k).copied())
            .unwrap_or(Kind::Any)
    }
}

/// The naming pass: names the values stored in, compared with, switched on, passed to,
/// returned from or tested as a place of a known kind, once their own parts are named.
impl VisitorMut for Namer<'_, '_> {
    fn visit_stmt_mut(&mut self, s: &mut Stmt) {
        walk_stmt_mut(self, s);
        match s {
            Stmt::Return(Some(e)) => self.name(e, self.ret.get()),
            Stmt::Assign {
                target,
                op: None,
                value,
            } => {
                let k = self.place_kind(target);
                self.name(value, k);
            }
            Stmt::Var(v) => {
                for (n, e) in v.iter_mut() {
                    if let Some(e) = e {
                        let k = self.local_kinds.get(n).copied().unwrap_or(Kind::Any);
                        self.name(e, k);
                    }
                }
            }
            // A condition: a literal 0 or 1 there is a boolean (`while (true)`).
            Stmt::If(c, ..) | Stmt::While(c, _) | Stmt::DoUntil(_, c) => self.name(c, Kind::Bool),
            Stmt::Switch(e, cases) => {
                let k = self.value_kind(e);
                for l in cases.iter_mut().filter_map(|c| c.label.as_mut()) {
                    self.name(l, k);
                }
            }
            _ => {}
        }
    }

    /// A function's returns name by its own result kind.
    fn visit_function_mut(&mut self, f: &mut Function) {
        let outer = self.ret.replace(
            f.name
                .as_deref()
                .map_or(Kind::Any, |n| self.index.kinds.ret(n)),
        );
        walk_function_mut(self, f);
        self.ret.set(outer);
    }

    fn visit_expr_mut(&mut self, e: &mut Expr) {
        walk_expr_mut(self, e);
        match e {
            Expr::Call(callee, args) => {
                if let Some(f) = self.builtin_function(callee) {
                    for (i, a) in args.iter_mut().enumerate() {
                        self.name(a, f.arg(i));
                    }
                } else if let Expr::Ident(s) = &**callee {
                    for (i, a) in args.iter_mut().enumerate() {
                        self.name(a, self.index.kinds.param(s, i));
                    }
                }
            }
            Expr::Binary(BinaryOp::Eq | BinaryOp::Ne, l, r) => {
                let (kl, kr) = (self.value_kind(l), self.value_kind(r));
                self.name(r, kl);
                self.name(l, kr);
                // `v == -4`: a variable compared with -4 holds an instance.
                self.noone(r, kl, l);
                self.noone(l, kr, r);
            }
            _ => {}
        }
    }
}

impl Namer<'_, '_> {
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
            Expr::Ident(n) if self.locals.contains(n) => {
                return self.local_kinds.get(n).copied().unwrap_or(Kind::Any);
            }
            Expr::Ident(n) => n,
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
            None => match self.index.kinds.named.get(name.as_str()) {
                Some(k) => *k,
                None => self.param_kind(name),
            },
        }
    }

    /// The kind of a value: a built-in variable's, or a built-in call's result.
    fn value_kind(&self, e: &Expr) -> Kind {
        match e {
            Expr::Call(callee, _) => match (self.builtin_function(callee), &**callee) {
                (Some(f), _) => f.returns,
                (None, Expr::Ident(s)) => self.index.kinds.ret(s),
                _ => Kind::Any,
            },
            Expr::Paren(x) => self.value_kind(x),
            e => self.place_kind(e),
        }
    }

    /// The kind of `argumentN` in a script, from where it and its callers pass it.
    fn param_kind(&self, name: &str) -> Kind {
        let k = name
            .strip_prefix("argument")
            .and_then(|d| d.parse::<usize>().ok());
        match (k, self.script) {
            (Some(k), Some(s)) => self.index.kinds.param(s, k),
            _ => Kind::Any,
        }
    }

    /// The kind a value stored in a variable says the variable has: its own kind, or a plain
    /// number for arithmetic, a boolean for a comparison; an integer literal says nothing.
    fn stored_kind(&self, e: &Expr) -> Kind {
        match e {
            Expr::Lit(Literal::Int(_)) => Kind::Any,
            Expr::Lit(Literal::Bool(_)) => Kind::Bool,
            Expr::Lit(Literal::String(_)) => Kind::String,
            Expr::Lit(_) => Kind::Real,
            Expr::Paren(x) => self.stored_kind(x),
            Expr::Unary(crate::ast::UnaryOp::Not, _) => Kind::Bool,
            Expr::Unary(..) => Kind::Real,
            Expr::Binary(op, ..) => match op {
                BinaryOp::Lt
                | BinaryOp::Le
                | BinaryOp::Eq
                | BinaryOp::Ne
                | BinaryOp::Ge
                | BinaryOp::Gt
                | BinaryOp::And
                | BinaryOp::Or
                | BinaryOp::Xor => Kind::Bool,
                BinaryOp::Nullish => Kind::Any,
                _ => Kind::Real,
            },
            Expr::Array(_) => Kind::Array,
            Expr::Struct(_) => Kind::Struct,
            Expr::Function(_) => Kind::Method,
            // A number from a built-in (`ini_read_real`) may be of any kind.
            e => match self.value_kind(e) {
                Kind::Real => Kind::Any,
                k => k,
            },
        }
    }

    /// The local `e` names, if it is one.
    fn local<'e>(&self, e: &'e Expr) -> Option<&'e str> {
        match e {
            Expr::Ident(n) if self.locals.contains(n) => Some(n),
            Expr::Paren(x) => self.local(x),
            _ => None,
        }
    }

    /// `-4` compared with a variable    /// `-4` compared with a variable of no known kind (`other`) is `noone`.
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
            // A letter or digit key reads `ord("A")` (GameMaker's compiler folds it to the
            // key's code whether or not the game also calls `ord` at run time) where the game
            // has no `ord` of its own and no local hides the built-in.
            Kind::Key
                if (b'A'..=b'Z').chain(b'0'..=b'9').any(|c| c as i64 == v)
                    && !self.index.own_ord
                    && !self.locals.contains("ord") =>
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
            && crate::lex::is_identifier(n);
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

/// The evidence of the kinds of an entry's locals ([`Ev`]): what is stored in them and where
/// they are read.
struct Evidence<'n, 'a, 'g> {
    n: &'n Namer<'a, 'g>,
    ev: &'n mut HashMap<String, Ev>,
}

impl Evidence<'_, '_, '_> {
    /// `e`, if it is a local, is used as a value of kind `k`.
    fn uses(&mut self, e: &Expr, k: Kind) {
        if let Some(n) = self.n.local(e) {
            self.ev.entry(n.to_string()).or_default().used_as(k);
        }
    }

    /// `e`, if it is a local, is changed by arithmetic: it holds no kind with names.
    fn conflict(&mut self, e: &Expr) {
        if let Some(n) = self.n.local(e) {
            self.ev.insert(n.to_string(), Ev::Conflict);
        }
    }

    /// `value` is stored in `n`, if it is a local.
    fn store(&mut self, n: &str, value: &Expr) {
        if self.n.locals.contains(n) {
            self.ev
                .entry(n.to_string())
                .or_default()
                .stored(self.n.stored_kind(value));
        }
    }
}

impl Visitor for Evidence<'_, '_, '_> {
    fn visit_stmt(&mut self, s: &Stmt) {
        crate::limits::deep(|| self.stmt(s))
    }

    fn visit_expr(&mut self, e: &Expr) {
        if let Expr::Function(f) = e {
            self.visit_block(&f.body);
            return;
        }
        walk_expr(self, e);
        self.expr(e);
    }
}

impl Evidence<'_, '_, '_> {
    fn stmt(&mut self, s: &Stmt) {
        if let Stmt::Function(f) = s {
            // A declared function: its parameters are used as its callers pass them, its
            // returns as its result's kind.
            let n = self.n;
            let outer = n.ret.replace(
                f.name
                    .as_deref()
                    .map_or(Kind::Any, |name| n.index.kinds.ret(name)),
            );
            if let Some(name) = &f.name {
                for (i, (p, _)) in f.params.iter().enumerate() {
                    let k = n.index.kinds.param(name, i);
                    self.ev.entry(p.clone()).or_default().used_as(k);
                }
            }
            self.visit_block(&f.body);
            n.ret.set(outer);
            return;
        }
        walk_stmt(self, s);
        match s {
            Stmt::Return(Some(e)) => self.uses(e, self.n.ret.get()),
            Stmt::Assign { target, op, value } => {
                match (op, target) {
                    (None, Expr::Ident(n)) => self.store(n, value),
                    (Some(_), Expr::Ident(n)) if self.n.locals.contains(n) => {
                        self.ev.insert(n.clone(), Ev::Conflict);
                    }
                    _ => {}
                }
                if op.is_none() && self.n.local(value).is_some() {
                    let k = self.n.place_kind(target);
                    self.uses(value, k);
                }
            }
            Stmt::Update { target, .. } => self.conflict(target),
            Stmt::Var(v) => {
                for (n, e) in v {
                    if let Some(e) = e {
                        self.store(n, e);
                    }
                }
            }
            // `with (o)`: before 2.3 an instance or an object.
            Stmt::With(o, _) if !self.n.game.features.gml_v2() => self.uses(o, Kind::Instance),
            // A condition: a local read as one is a boolean (weak evidence, as any use).
            Stmt::If(c, ..)
            | Stmt::While(c, _)
            | Stmt::DoUntil(_, c)
            | Stmt::For(_, Some(c), _, _) => self.uses(c, Kind::Bool),
            _ => {}
        }
    }

    /// The evidence an expression gives, once its parts have given theirs.
    fn expr(&mut self, e: &Expr) {
        match e {
            Expr::Call(callee, args) => {
                if let Some(f) = self.n.builtin_function(callee) {
                    for (i, a) in args.iter().enumerate() {
                        self.uses(a, f.arg(i));
                    }
                } else if let Expr::Ident(s) = &**callee {
                    for (i, a) in args.iter().enumerate() {
                        self.uses(a, self.n.index.kinds.param(s, i));
                    }
                }
            }
            // Before 2.3 the owner of a variable (`o.x`) is an instance or an object (later
            // it may be a struct).
            Expr::Member(o, _) if !self.n.game.features.gml_v2() => self.uses(o, Kind::Instance),
            Expr::Unary(crate::ast::UnaryOp::Not, x) => self.uses(x, Kind::Bool),
            Expr::Unary(_, x) => self.conflict(x),
            Expr::Update { target, .. } => self.conflict(target),
            Expr::Binary(op, l, r) => match op {
                BinaryOp::Eq | BinaryOp::Ne => {
                    self.uses(l, self.n.value_kind(r));
                    self.uses(r, self.n.value_kind(l));
                }
                BinaryOp::And | BinaryOp::Or | BinaryOp::Xor => {
                    self.uses(l, Kind::Bool);
                    self.uses(r, Kind::Bool);
                }
                BinaryOp::Lt | BinaryOp::Le | BinaryOp::Ge | BinaryOp::Gt | BinaryOp::Nullish => {}
                _ => {
                    self.conflict(l);
                    self.conflict(r);
                }
            },
            _ => {}
        }
    }
}
