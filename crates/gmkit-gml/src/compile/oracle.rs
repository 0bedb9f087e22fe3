//! The delete-and-recompile oracle: does a compile grow the file's names as GameMaker did?
//!
//! For one root code entry of a game with its own source: the entry's code is removed, and
//! with it every VARI and FUNC entry and string only that code used (they are hidden from
//! the compile, which then numbers them after the file's tables); the original source is
//! compiled into that stripped file with [`super::compile_new`]. The result is GameMaker's
//! when the instructions are the entry's (new names mapped back to the entries they stand
//! for), the added VARI entries have the original's instance type and variable id, and the
//! added VARI and FUNC entries are exactly the removed ones. The order in which the names were
//! appended is reported apart.

use super::{Names, compile_new};
use crate::ast::Stmt;
use crate::game::Game;
use gmkit_data::DataFile;
use gmkit_data::Id;
use gmkit_data::chunks::code::{CodeBody, ExtOperand, Instruction, PushValue};
use std::collections::{HashMap, HashSet};

/// The outcome of [`delete_recompile`] for one entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Recompiled {
    /// Same instructions, VARI and FUNC entries as GameMaker's build.
    pub identical: bool,
    /// The appended names came in another order than the original's (reported apart).
    pub order_differs: bool,
    /// The first difference (empty when identical).
    pub why: String,
}

impl Recompiled {
    fn differs(why: impl Into<String>) -> Self {
        Recompiled {
            identical: false,
            order_differs: false,
            why: why.into(),
        }
    }
}

/// VARI, FUNC and STRG indices code refers to.
#[derive(Default)]
struct Refs {
    vars: Vec<u32>,
    funcs: Vec<u32>,
    strings: Vec<u32>,
}

fn refs_of(ins: &[Instruction], out: &mut Refs) {
    for i in ins {
        match i {
            Instruction::Pop { var, .. }
            | Instruction::Push {
                value: PushValue::Variable(var),
                ..
            } => out.vars.push(var.variable.0),
            Instruction::Push {
                value: PushValue::VariableId(v),
                ..
            } => out.vars.push(v.0),
            Instruction::Push {
                value: PushValue::Function(f),
                ..
            }
            | Instruction::Call { function: f, .. }
            | Instruction::Extended {
                operand: Some(ExtOperand::Function { function: f, .. }),
                ..
            } => out.funcs.push(f.0),
            Instruction::Push {
                value: PushValue::String(s),
                ..
            }
            | Instruction::CallByName { name: s, .. } => out.strings.push(s.0),
            _ => {}
        }
    }
}

fn remap(
    ins: &mut Instruction,
    s: &HashMap<u32, u32>,
    v: &HashMap<u32, u32>,
    f: &HashMap<u32, u32>,
) {
    let m = |map: &HashMap<u32, u32>, x: &mut u32| {
        if let Some(&y) = map.get(x) {
            *x = y;
        }
    };
    match ins {
        Instruction::Pop { var, .. }
        | Instruction::Push {
            value: PushValue::Variable(var),
            ..
        } => m(v, &mut var.variable.0),
        Instruction::Push {
            value: PushValue::VariableId(x),
            ..
        } => m(v, &mut x.0),
        Instruction::Push {
            value: PushValue::Function(x),
            ..
        }
        | Instruction::Call { function: x, .. }
        | Instruction::Extended {
            operand: Some(ExtOperand::Function { function: x, .. }),
            ..
        } => m(f, &mut x.0),
        Instruction::Push {
            value: PushValue::String(x),
            ..
        }
        | Instruction::CallByName { name: x, .. } => m(s, &mut x.0),
        _ => {}
    }
}

/// Removes root entry `entry`'s code from a copy of `file` with the names only it used, then
/// compiles `tree` (the entry's original source, ready to compile: [`super::prepare`] or
/// [`crate::source::Sources::tree`]) into that copy and compares with the original.
pub fn delete_recompile(file: &DataFile, entry: usize, tree: &[Stmt]) -> Recompiled {
    let Some(code) = file.code.as_ref() else {
        return Recompiled::differs("the file has no code");
    };
    let Ok(orig) = code.instructions(entry) else {
        return Recompiled::differs("the entry's bytecode does not decode");
    };
    let orig: Vec<Instruction> = orig.as_ref().to_vec();
    let mut mine = Refs::default();
    refs_of(&orig, &mut mine);
    let mut others = Refs::default();
    for i in 0..code.entries.len() {
        if i == entry || !code.entries[i].body.is_root() {
            continue;
        }
        if let Ok(ins) = code.instructions(i) {
            refs_of(&ins, &mut others);
        }
    }
    let other_vars: HashSet<u32> = others.vars.iter().copied().collect();
    let other_funcs: HashSet<u32> = others.funcs.iter().copied().collect();
    let mut own_vars: Vec<u32> = Vec::new();
    for &v in &mine.vars {
        if !other_vars.contains(&v) && !own_vars.contains(&v) {
            own_vars.push(v);
        }
    }
    let mut own_funcs: Vec<u32> = Vec::new();
    for &f in &mine.funcs {
        if !other_funcs.contains(&f) && !own_funcs.contains(&f) {
            own_funcs.push(f);
        }
    }
    // The stripped copy: the entry has no code.
    let mut stripped = file.clone();
    if let Some(c) = stripped.code.as_mut() {
        c.entries[entry].body = CodeBody::Instructions(Vec::new());
    }
    let game = Game::new(&stripped);
    let mut names = Names::new(&game);
    let vari = file
        .variables
        .as_ref()
        .map_or(&[][..], |v| &v.variables[..]);
    let str_of = |r: gmkit_data::StringRef| {
        file.strings
            .as_ref()
            .and_then(|t| t.get(r))
            .map(|g| g.to_string_lossy().into_owned())
            .unwrap_or_default()
    };
    // Strings only the entry used: its literals and the names of its own entries, unless
    // other code, another VARI/FUNC entry, a code entry or an asset names them.
    let mut kept: HashSet<String> = HashSet::new();
    for &s in &others.strings {
        kept.insert(str_of(gmkit_data::StringRef(s)));
    }
    for (i, v) in vari.iter().enumerate() {
        if !own_vars.contains(&(i as u32)) {
            kept.insert(str_of(v.name));
        }
    }
    let funcs = file
        .functions
        .as_ref()
        .map_or(&[][..], |f| &f.functions[..]);
    for (i, f) in funcs.iter().enumerate() {
        if !own_funcs.contains(&(i as u32)) {
            kept.insert(str_of(f.name));
        }
    }
    for i in 0..game.code_count() {
        kept.insert(game.code_name(i).to_string());
    }
    for (_, _, n) in game.assets() {
        kept.insert(n.to_string());
    }
    let mut own_strings: Vec<String> = Vec::new();
    let candidates = mine
        .strings
        .iter()
        .map(|&s| str_of(gmkit_data::StringRef(s)))
        .chain(own_vars.iter().map(|&v| str_of(vari[v as usize].name)))
        .chain(own_funcs.iter().map(|&f| str_of(funcs[f as usize].name)));
    for s in candidates {
        if !kept.contains(&s) && !own_strings.contains(&s) {
            own_strings.push(s);
        }
    }
    names.hide(
        &game,
        &own_strings,
        &own_vars,
        &own_funcs,
        game.code_name(entry),
    );
    let compiled = match compile_new(&game, &names, entry, tree) {
        Ok(c) => c,
        Err(e) => return Recompiled::differs(format!("compile: {e}")),
    };
    let mut compiled = compiled;
    if compiled.instructions.is_empty() && game.features.self_to_builtin() {
        // As [`crate::source::compile_unit`]: code with no instruction is a lone `exit.i`.
        compiled.instructions.push(Instruction::Unary {
            op: gmkit_data::chunks::code::Opcode::Exit,
            t: gmkit_data::chunks::code::DataType::Int32,
        });
    }
    let add = &compiled.additions;
    // Map the appended names back to the original entries.
    let mut orig_strings: HashMap<String, u32> = HashMap::new();
    if let Some(t) = file.strings.as_ref() {
        for (i, s) in t.iter().enumerate() {
            orig_strings
                .entry(s.to_string_lossy().into_owned())
                .or_insert(i as u32);
        }
    }
    let base = (
        file.strings.as_ref().map_or(0, |s| s.len()) as u32,
        vari.len() as u32,
        funcs.len() as u32,
    );
    let mut smap = HashMap::new();
    for (k, s) in add.strings.iter().enumerate() {
        match orig_strings.get(s) {
            Some(&i) => smap.insert(base.0 + k as u32, i),
            None => return Recompiled::differs(format!("added a string the build lacks: {s:?}")),
        };
    }
    let gml_v2 = game.features.gml_v2();
    let mut vmap = HashMap::new();
    let mut taken = HashSet::new();
    let mut var_order = Vec::new();
    for (k, v) in add.variables.iter().enumerate() {
        let id = if gml_v2 && v.variable_id >= 0 {
            smap.get(&(v.variable_id as u32))
                .map_or(v.variable_id, |&i| i as i32)
        } else {
            v.variable_id
        };
        let found = own_vars.iter().copied().find(|&o| {
            let ov = &vari[o as usize];
            !taken.contains(&o) && str_of(ov.name) == v.name && ov.instance_type == v.instance_type
        });
        let Some(o) = found else {
            return Recompiled::differs(format!(
                "added a VARI entry the build lacks: {} (type {}, id {})",
                v.name, v.instance_type, v.variable_id
            ));
        };
        let ov = &vari[o as usize];
        // Before 2.3 non-local ids are running counters: the stripped file's end differs.
        let id_matters = gml_v2 || v.instance_type == -7 || ov.variable_id == -6;
        if id_matters && ov.variable_id != id {
            return Recompiled::differs(format!(
                "VARI entry {}: expected id {}, found {}",
                v.name, ov.variable_id, id
            ));
        }
        taken.insert(o);
        var_order.push(o);
        vmap.insert(base.1 + k as u32, o);
    }
    let mut fmap = HashMap::new();
    let mut func_order = Vec::new();
    for (k, f) in add.functions.iter().enumerate() {
        let Some(o) = own_funcs
            .iter()
            .copied()
            .find(|&o| str_of(funcs[o as usize].name) == *f)
        else {
            return Recompiled::differs(format!("added a FUNC entry the build lacks: {f}"));
        };
        func_order.push(o);
        fmap.insert(base.2 + k as u32, o);
    }
    let mut ins = compiled.instructions;
    for i in &mut ins {
        remap(i, &smap, &vmap, &fmap);
    }
    if ins != orig {
        let at = ins
            .iter()
            .zip(orig.iter())
            .position(|(a, b)| a != b)
            .unwrap_or(ins.len().min(orig.len()));
        let show = |i: Option<&Instruction>| i.map_or("the end".to_string(), |i| format!("{i:?}"));
        return Recompiled::differs(format!(
            "instruction {at}: expected {}, found {}",
            show(orig.get(at)),
            show(ins.get(at))
        ));
    }
    if var_order.len() != own_vars.len() {
        let missing: Vec<String> = own_vars
            .iter()
            .filter(|o| !taken.contains(*o))
            .map(|&o| str_of(vari[o as usize].name))
            .collect();
        return Recompiled::differs(format!("VARI entries not added: {missing:?}"));
    }
    if func_order.len() != own_funcs.len() {
        return Recompiled::differs("FUNC entries not added");
    }
    let sorted = |v: &[u32]| v.windows(2).all(|w| w[0] < w[1]);
    let strings_sorted = add
        .strings
        .iter()
        .filter_map(|s| orig_strings.get(s).copied())
        .collect::<Vec<_>>();
    Recompiled {
        identical: true,
        order_differs: !(sorted(&var_order) && sorted(&func_order) && sorted(&strings_sorted)),
        why: String::new(),
    }
}

impl Names {
    /// Hides names from the compile (the oracle's stripped file): the strings, VARI and FUNC
    /// entries only the removed code used, and that entry's code locals.
    fn hide(&mut self, game: &Game, strings: &[String], vars: &[u32], funcs: &[u32], entry: &str) {
        for s in strings {
            self.strings.remove(s);
        }
        let vars: HashSet<u32> = vars.iter().copied().collect();
        let funcs: HashSet<u32> = funcs.iter().copied().collect();
        self.vars.clear();
        self.vars_by_name.clear();
        self.vars_by_id.clear();
        self.builtin.clear();
        if let Some(vs) = game.file.variables.as_ref() {
            for (i, v) in vs.variables.iter().enumerate() {
                if vars.contains(&(i as u32)) {
                    continue;
                }
                let name = game.var_name(Id::new(i as u32)).to_string();
                self.vars_by_id
                    .entry((name.clone(), v.instance_type, v.variable_id))
                    .or_insert(i as u32);
                self.vars
                    .entry((name.clone(), v.instance_type))
                    .or_insert(i as u32);
                self.vars_by_name.entry(name.clone()).or_insert(i as u32);
                if v.variable_id == -6 {
                    self.builtin.insert(name);
                }
            }
        }
        self.funcs.retain(|_, i| !funcs.contains(i));
        self.code_locals.remove(entry);
    }
}
