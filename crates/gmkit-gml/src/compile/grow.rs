//! Names a compile adds to the data file, as GameMaker's compiler adds them (spec
//! `gml-bytecode.md` §4.4 "VARI bookkeeping", §7.5): strings appended to STRG in the order
//! the code first needs them, VARI entries (instance, global, local, built-in) with the
//! instance type and variable id of the version, FUNC entries for built-in functions and
//! scripts the game never called, and the compiled entry's new locals (FUNC code-locals
//! record, the entry's local count, VARI's maximum).
//!
//! A compile in growing mode ([`super::compile_new`]) numbers every new name from the end of
//! the file's tables, so its instructions are valid once [`Additions::apply`] appended them.

use super::{CompileError, Names};
use crate::game::Game;
use gmkit_data::DataFile;
use gmkit_data::chunks::function::{CodeLocals, Function, Local};
use gmkit_data::chunks::variable::Variable;
use std::collections::HashMap;

/// Variable id GameMaker gives built-in variables (`x`, `room`, ...).
pub const BUILTIN_ID: i32 = -6;

/// A VARI entry a compile adds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewVariable {
    /// Its name (a string of the file or of [`Additions::strings`]).
    pub name: String,
    /// VARI instance type: -1 self, -5 global, -7 local, -6 `argumentN`, -16 static (0 before
    /// bytecode 15, which stores none).
    pub instance_type: i32,
    /// Variable id: -6 for built-ins; a local's slot before 2.3; the name's STRG index from
    /// 2.3; a running counter in bytecode 15 – 2.2 (0 before bytecode 15).
    pub variable_id: i32,
}

/// Everything one compile adds to the data file, in the order GameMaker appends it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Additions {
    /// Lengths of STRG, VARI and FUNC the new entries are numbered after.
    base: (usize, usize, usize),
    /// Name of the code entry compiled (its locals go to its code-locals record).
    entry: String,
    /// New strings, appended to STRG.
    pub strings: Vec<String>,
    /// New VARI entries, appended to VARI.
    pub variables: Vec<NewVariable>,
    /// New FUNC entries (by name), appended to FUNC.
    pub functions: Vec<String>,
    /// New locals of the compiled entry with their code-locals index (slot before 2.3, the
    /// name's STRG index from 2.3).
    pub locals: Vec<(String, u32)>,
    /// VARI header counters after the additions (bytecode 15+).
    counts: Option<(u32, u32)>,
}

impl Additions {
    /// Whether the compile needed nothing new.
    pub fn is_empty(&self) -> bool {
        self.strings.is_empty()
            && self.variables.is_empty()
            && self.functions.is_empty()
            && self.locals.is_empty()
    }

    /// Appends the additions to `file`: the strings, VARI and FUNC entries, the entry's new
    /// locals (its code-locals record, its local count and VARI's maximum) and VARI's
    /// counters. `file` must be the file compiled against, unchanged since (checked on the
    /// table lengths): the compiled instructions refer to the new entries by index.
    pub fn apply(&self, file: &mut DataFile) -> Result<(), CompileError> {
        let lens = (
            file.strings.as_ref().map_or(0, |s| s.len()),
            file.variables.as_ref().map_or(0, |v| v.variables.len()),
            file.functions.as_ref().map_or(0, |f| f.functions.len()),
        );
        if lens != self.base {
            return Err(CompileError::Invalid(format!(
                "expected the data file compiled against (STRG, VARI, FUNC lengths {:?}), found lengths {:?}",
                self.base, lens
            )));
        }
        if self.is_empty() {
            return Ok(());
        }
        let Some(strings) = file.strings.as_mut() else {
            return Err(CompileError::Invalid(
                "expected a string table (STRG) to add names to, found none".into(),
            ));
        };
        for s in &self.strings {
            strings.push(s.as_str());
        }
        let mut index: HashMap<String, u32> = HashMap::with_capacity(strings.len());
        for (i, s) in strings.iter().enumerate() {
            index
                .entry(s.to_string_lossy().into_owned())
                .or_insert(i as u32);
        }
        let find = |_: &(), s: &str| {
            index
                .get(s)
                .map(|&i| gmkit_data::StringRef(i))
                .ok_or_else(|| {
                    CompileError::Invalid(format!("expected the string `{s}` in STRG, found none"))
                })
        };
        let strings = &();
        if !self.variables.is_empty() {
            let Some(vari) = file.variables.as_mut() else {
                return Err(CompileError::Invalid(
                    "expected a VARI chunk to add variables to, found none".into(),
                ));
            };
            for v in &self.variables {
                vari.variables.push(Variable {
                    name: find(strings, &v.name)?,
                    instance_type: v.instance_type,
                    variable_id: v.variable_id,
                });
            }
        }
        if let (Some(h), Some((a, b))) = (
            file.variables.as_mut().and_then(|v| v.header.as_mut()),
            self.counts,
        ) {
            h.count_a = a;
            h.count_b = b;
        }
        if !self.functions.is_empty() {
            let Some(func) = file.functions.as_mut() else {
                return Err(CompileError::Invalid(
                    "expected a FUNC chunk to add functions to, found none".into(),
                ));
            };
            for f in &self.functions {
                func.functions.push(Function::new(find(strings, f)?));
            }
        }
        if self.locals.is_empty() {
            return Ok(());
        }
        let code_name = find(strings, &self.entry)?;
        let mut locals_count = None;
        if let Some(code) = file.code.as_mut()
            && let Some(e) = code.entries.iter_mut().find(|e| e.name == code_name)
        {
            e.locals_count = e.locals_count.saturating_add(self.locals.len() as u16);
            locals_count = Some(u32::from(e.locals_count));
        }
        if let (Some(h), Some(n)) = (
            file.variables.as_mut().and_then(|v| v.header.as_mut()),
            locals_count,
        ) {
            h.max_locals = h.max_locals.max(n);
        }
        if let Some(list) = file.functions.as_mut().and_then(|f| f.code_locals.as_mut()) {
            let k = match list.iter().position(|c| c.code_name == code_name) {
                Some(k) => k,
                None => {
                    list.push(CodeLocals {
                        code_name,
                        locals: Vec::new(),
                    });
                    list.len() - 1
                }
            };
            for (n, index) in &self.locals {
                let name = find(strings, n)?;
                list[k].locals.push(Local {
                    index: *index,
                    name,
                });
            }
        }
        Ok(())
    }
}

/// The growing side of a compile: the additions so far and their indices.
pub(super) struct Grow {
    pub(super) add: Additions,
    strings: HashMap<String, u32>,
    vars: HashMap<(String, i32), u32>,
    funcs: HashMap<String, u32>,
    /// Next local slot of the entry (before 2.3).
    next_slot: u32,
    /// Names that may get a FUNC entry beyond the built-ins: code entries (2.3+ functions)
    /// and extension functions.
    pub(super) callable: std::collections::HashSet<String>,
    /// VARI counters (bytecode 15+): (A, B).
    counts: (u32, u32),
    bytecode: u8,
    gml_v2: bool,
}

impl Grow {
    /// Growing state for code entry `entry` of `game`.
    pub(super) fn new(game: &Game, names: &Names, entry: &str) -> Grow {
        let file = game.file;
        let base = (
            file.strings.as_ref().map_or(0, |s| s.len()),
            file.variables.as_ref().map_or(0, |v| v.variables.len()),
            file.functions.as_ref().map_or(0, |f| f.functions.len()),
        );
        let counts = file
            .variables
            .as_ref()
            .and_then(|v| v.header)
            .map_or((0, 0), |h| (h.count_a, h.count_b));
        let next_slot = names
            .code_locals
            .get(entry)
            .map_or(1, |m| m.values().map(|&s| s + 1).max().unwrap_or(1).max(1));
        Grow {
            add: Additions {
                base,
                entry: entry.to_string(),
                ..Additions::default()
            },
            strings: HashMap::new(),
            vars: HashMap::new(),
            funcs: HashMap::new(),
            next_slot,
            callable: callable(game),
            counts,
            bytecode: file.version.bytecode,
            gml_v2: game.features.gml_v2(),
        }
    }

    /// The STRG index of `s`, added when new.
    pub(super) fn string(&mut self, names: &Names, s: &str) -> u32 {
        if let Some(&i) = names.strings.get(s) {
            return i;
        }
        if let Some(&i) = self.strings.get(s) {
            return i;
        }
        let i = (self.add.base.0 + self.add.strings.len()) as u32;
        self.add.strings.push(s.to_string());
        self.strings.insert(s.to_string(), i);
        i
    }

    /// The FUNC index this compile gave `name`, if any.
    pub(super) fn added_func(&self, name: &str) -> Option<u32> {
        self.funcs.get(name).copied()
    }

    /// Whether this compile added a VARI entry named `name` (of any kind).
    pub(super) fn has_var(&self, name: &str) -> bool {
        self.add.variables.iter().any(|v| v.name == name)
    }

    /// A VARI entry added earlier in this compile for (`name`, `inst`).
    pub(super) fn added_var(&self, name: &str, inst: i32) -> Option<u32> {
        self.vars.get(&(name.to_string(), inst)).copied()
    }

    /// Adds a VARI entry for `name` with VARI instance type `inst` (-1 self, -5 global, -7
    /// local, -6 argument, -16 static); `builtin`: a built-in variable (id -6).
    pub(super) fn add_var(&mut self, names: &Names, name: &str, inst: i32, builtin: bool) -> u32 {
        let s = self.string(names, name);
        let (instance_type, variable_id) = if self.bytecode < 15 {
            (0, 0)
        } else if builtin {
            (inst, BUILTIN_ID)
        } else if inst == -7 {
            let id = if self.gml_v2 {
                s
            } else {
                let slot = self.next_slot;
                self.next_slot += 1;
                slot
            };
            self.add.locals.push((name.to_string(), id));
            (inst, id as i32)
        } else if inst == -6 {
            (inst, 0)
        } else if self.gml_v2 {
            // 2.3+: the id is the name's STRG index; both counters follow the largest id.
            let n = (s + 1).max(self.counts.0);
            self.counts = (n, n.max(self.counts.1));
            self.add.counts = Some(self.counts);
            (inst, s as i32)
        } else if self.bytecode == 15 {
            // bytecode 15: globals and instance variables count separately.
            let id = if inst == -5 {
                let id = self.counts.0;
                self.counts.0 += 1;
                id
            } else {
                let id = self.counts.1;
                self.counts.1 += 1;
                id
            };
            self.add.counts = Some(self.counts);
            (inst, id as i32)
        } else {
            let id = self.counts.0;
            self.counts = (self.counts.0 + 1, self.counts.1 + 1);
            self.add.counts = Some(self.counts);
            (inst, id as i32)
        };
        let i = (self.add.base.1 + self.add.variables.len()) as u32;
        self.add.variables.push(NewVariable {
            name: name.to_string(),
            instance_type,
            variable_id,
        });
        self.vars.insert((name.to_string(), inst), i);
        i
    }

    /// The FUNC index of `name`, added when new.
    pub(super) fn func(&mut self, names: &Names, name: &str) -> u32 {
        if let Some(&i) = self.funcs.get(name) {
            return i;
        }
        self.string(names, name);
        let i = (self.add.base.2 + self.add.functions.len()) as u32;
        self.add.functions.push(name.to_string());
        self.funcs.insert(name.to_string(), i);
        i
    }
}

/// Code entry names and extension function names of `game`.
fn callable(game: &Game) -> std::collections::HashSet<String> {
    let mut out: std::collections::HashSet<String> = (0..game.code_count())
        .map(|i| game.code_name(i).to_string())
        .collect();
    if let Some(x) = game.file.extensions.as_ref() {
        for e in x.extensions.iter().flatten() {
            for f in &e.files {
                for func in &f.functions {
                    out.insert(game.string(func.name));
                }
            }
        }
    }
    out
}

/// The names of `names` closest to `name` (edit distance at most a third of its length), for
/// "did you mean".
pub(super) fn suggest<'a>(name: &str, candidates: impl Iterator<Item = &'a str>) -> Option<String> {
    let max = (name.chars().count() / 3).max(1);
    let mut best: Option<(usize, &str)> = None;
    for c in candidates {
        if c == name || c.starts_with("@@") || c.len() > name.len() + max + 1 {
            continue;
        }
        let d = distance(name, c);
        if d <= max && best.is_none_or(|(b, bn)| d < b || (d == b && c < bn)) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c.to_string())
}

/// Levenshtein distance (ASCII-case-insensitive), on short names only.
fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().map(|c| c.to_ascii_lowercase()).collect();
    let b: Vec<char> = b.chars().map(|c| c.to_ascii_lowercase()).collect();
    if a.len() > 64 || b.len() > 64 {
        return usize::MAX;
    }
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, cb) in b.iter().enumerate() {
            cur[j + 1] = (prev[j] + usize::from(ca != cb))
                .min(prev[j + 1] + 1)
                .min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}
