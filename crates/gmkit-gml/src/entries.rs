//! One call adds a code entry compiled from GML: a script, an object event, a room's or an
//! instance's creation code ([`add_entry`]).
//!
//! The wiring of the entry into the file (its name, SCPT/GLOB, the object's event list and
//! action, the room, the code-locals record) is gmkit-data's
//! ([`gmkit_data::code_entry`]), usable with assembly too; this module adds the compiling: the
//! text is parsed, compiled against the file, and the nested functions, anonymous functions
//! and struct literals it defines (2.3+) become child entries with their FUNC and SCPT
//! entries, as GameMaker wires them (`gml_GlobalScript_s` holds `gml_Script_f` for each
//! `function f`; a function declared in an event is `gml_Script_f_gml_Object_...` or, from
//! 2023.11, `gml_Script_f@gml_Object_...`; anonymous ones `gml_Script_anon_<P>_<n>_<P>` /
//! `gml_Script_anon@<n>@<P>`, struct literals `gml_Script____struct___<N>_<P>`, see
//! [`crate::compile`]). [`replace_code`] does the same for new code of an existing entry.
//!
//! Names the compiler reports as missing are added when the new entry itself defines them:
//! strings, the FUNC entry of each function it declares (and of `method`, which binds it) and
//! the self variable its declaration stores to. Any other missing name (a new instance or
//! global variable, a built-in the game never used) is added by the growing compiler
//! ([`crate::compile::compile_new`]) as GameMaker's compiler would add it; a name that is
//! neither built in nor the game's stays an error. The file is changed only when everything
//! succeeded.

use crate::ast::{Expr, Stmt};
use crate::compile::{ChildEntry, CompileError, Names};
use crate::game::Game;
use gmkit_data::DataFile;
use gmkit_data::chunks::code::{CodeBody, InstanceType, Instruction, PushValue};
use gmkit_data::chunks::function::{Function, Local};
use gmkit_data::chunks::variable::Variable;
pub use gmkit_data::code_entry::{EntryTarget, EventType, NewEntry};
use std::collections::{HashMap, HashSet};

/// Why an entry could not be added.
#[derive(Clone, Debug, thiserror::Error)]
pub enum AddEntryError {
    /// The text does not parse.
    #[error("line {line}, column {col}: expected {expected}, found {found}")]
    Parse {
        /// Line (1-based).
        line: u32,
        /// Column (1-based).
        col: u32,
        /// What the parser expected.
        expected: String,
        /// What it found.
        found: String,
    },
    /// The text does not compile against the file.
    #[error("{0}")]
    Compile(CompileError),
    /// The file cannot take the entry (no such object, the event exists already, ...).
    #[error("{}", data_message(.0))]
    Data(gmkit_data::Error),
}

/// A model problem as `element: expected X, found Y`; other errors as they print.
fn data_message(e: &gmkit_data::Error) -> String {
    match &e.kind {
        gmkit_data::ErrorKind::InvalidModel(p) if p.field.is_empty() => {
            format!("{}: expected {}, found {}", p.element, p.expected, p.found)
        }
        gmkit_data::ErrorKind::InvalidModel(p) => format!("{p}"),
        _ => e.to_string(),
    }
}

impl From<gmkit_data::Error> for AddEntryError {
    fn from(e: gmkit_data::Error) -> Self {
        AddEntryError::Data(e)
    }
}

/// The entries one [`add_entry`] call added.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Added {
    /// The root entry.
    pub root: NewEntry,
    /// Its child entries (2.3+ functions it defines), in CODE order.
    pub children: Vec<usize>,
}

/// VARI instance type of a local variable.
const LOCAL: i32 = -7;

/// Compiles `source` (GML text) into a new code entry of `target`, wired into `file` as
/// GameMaker wires it (see the module documentation). `file` is unchanged on error.
pub fn add_entry(
    file: &mut DataFile,
    target: &EntryTarget,
    source: &str,
) -> Result<Added, AddEntryError> {
    // Prepared as `compile_text` prepares an existing entry's text: the text's own `#macro`
    // and `enum` applied, constants folded as GameMaker's compiler folds them (`"a" + "b"` is
    // one string), asset names as numbers where the version pushes numbers.
    let tree = crate::compile::prepare(&Game::new(file), source).map_err(|e| {
        let (expected, found) = match e.message.strip_prefix("expected ") {
            Some(m) => match m.split_once(", found ") {
                Some((x, f)) => (x.to_string(), f.to_string()),
                None => (m.to_string(), String::new()),
            },
            None => (e.message.clone(), String::new()),
        };
        AddEntryError::Parse {
            line: e.line,
            col: e.col,
            expected,
            found,
        }
    })?;
    add_entry_inner(file, target, &tree, Some(source))
}

/// As [`add_entry`], from a parsed tree. A new anonymous function is numbered by its place in
/// the text it was parsed from, which a tree alone does not keep: use [`add_entry`] for those.
pub fn add_entry_tree(
    file: &mut DataFile,
    target: &EntryTarget,
    body: &[Stmt],
) -> Result<Added, AddEntryError> {
    add_entry_inner(file, target, body, None)
}

/// Compiles with the file's names (`growing` false) or adding what the code needs.
fn compile_with(
    work: &DataFile,
    entry: usize,
    body: &[Stmt],
    source: Option<&str>,
    growing: bool,
) -> Result<crate::compile::Compiled, CompileError> {
    let game = Game::new(work);
    let names = Names::new(&game);
    crate::limits::deep(|| match (growing, source) {
        (true, Some(t)) => crate::compile::compile_new_with_source(&game, &names, entry, body, t),
        (true, None) => crate::compile::compile_new(&game, &names, entry, body),
        (false, Some(t)) => crate::compile::compile_entry_with_source(
            &game, &names, entry, body, t,
        )
        .map(|(instructions, children)| crate::compile::Compiled {
            instructions,
            children,
            additions: Default::default(),
        }),
        (false, None) => crate::compile::compile_entry_with_children(&game, &names, entry, body)
            .map(|(instructions, children)| crate::compile::Compiled {
                instructions,
                children,
                additions: Default::default(),
            }),
    })
}

fn add_entry_inner(
    file: &mut DataFile,
    target: &EntryTarget,
    body: &[Stmt],
    source: Option<&str>,
) -> Result<Added, AddEntryError> {
    let mut work = file.clone();
    let root = work.add_code_entry(target)?;
    let mut declared = Declared::default();
    declared.block(body, 0);
    let mut local_names = vec!["arguments".to_string()];
    for n in &declared.all_vars {
        if !local_names.contains(n) {
            local_names.push(n.clone());
        }
    }
    let mut seeded = seed_locals(&mut work, root.entry, &local_names, None)?;
    let mut reseeds = 0;
    // Names the entry defines, added when the compiler reports them missing (each once).
    let mut added: HashSet<(&'static str, String)> = HashSet::new();
    let (ins, children) = loop {
        let result = compile_with(&work, root.entry, body, source, false)
            .map(|c| (c.instructions, c.children));
        let (kind, name) = match result {
            // The entry's locals in the order its code first uses them (temporaries such as
            // `$$$$temp$$$$` included), as GameMaker numbers them: seeded again and compiled
            // once more when that differs from the guess.
            Ok(r) => {
                let Some(range) = seeded.clone() else { break r };
                let used = first_use_locals(&work, &r.0);
                if used == local_names || reseeds >= 2 {
                    break r;
                }
                reseeds += 1;
                local_names = used;
                seeded = seed_locals(&mut work, root.entry, &local_names, Some(range))?;
                continue;
            }
            Err(CompileError::UnknownName { kind, name }) => (kind, name),
            Err(e) => return Err(AddEntryError::Compile(e)),
        };
        if !added.insert((kind, name.clone())) {
            return Err(AddEntryError::Compile(CompileError::UnknownName {
                kind,
                name,
            }));
        }
        match kind {
            "string" => {
                work.intern(&name);
            }
            // A function declaration binds its body with `method` (a built-in the game's
            // other code may never have called).
            "function"
                if (name.starts_with("gml_Script_")
                    && (declared.owns_function(&name) || is_child_of(&name, &root.name)))
                    || (name == "method" && !declared.functions.is_empty()) =>
            {
                let r = work.intern(&name);
                if let Some(f) = work.functions.as_mut() {
                    f.functions.push(Function::new(r));
                } else {
                    return Err(AddEntryError::Compile(CompileError::UnknownName {
                        kind,
                        name,
                    }));
                }
            }
            "variable" if declared.functions.contains_key(&name) => {
                add_self_variable(&mut work, &name)?
            }
            // A name neither the entry defines nor the game has (a new instance or global
            // variable, a built-in the game never used): the growing compiler adds it as
            // GameMaker's compiler would. The entry's own locals are left to the seeding above.
            _ => {
                let unknown = || {
                    AddEntryError::Compile(CompileError::UnknownName {
                        kind,
                        name: name.clone(),
                    })
                };
                let mut additions = compile_with(&work, root.entry, body, source, true)
                    .map_err(AddEntryError::Compile)?
                    .additions;
                // A local the compiler makes (a `catch` variable, `$$$$temp$$$$`,
                // `__yy_breakEx0`, ...): one of the entry's own, seeded as its `var`s are.
                if kind == "variable"
                    && seeded.is_some()
                    && !local_names.contains(&name)
                    && additions
                        .variables
                        .iter()
                        .any(|v| v.instance_type == LOCAL && v.name == name)
                {
                    local_names.push(name.clone());
                    seeded = seed_locals(&mut work, root.entry, &local_names, seeded.clone())?;
                    continue;
                }
                additions.locals.clear();
                additions.variables.retain(|v| v.instance_type != LOCAL);
                if additions.is_empty() {
                    return Err(unknown());
                }
                additions.apply(&mut work).map_err(AddEntryError::Compile)?;
            }
        }
    };
    let root_locals = code_locals(&mut work, root.entry, &ins, &declared)?;
    let code = work.code.as_mut().expect("the entry was added");
    code.entries[root.entry].body = CodeBody::Instructions(ins);
    if let Some(n) = root_locals {
        code.entries[root.entry].locals_count = n;
    }
    let mut kids = Vec::with_capacity(children.len());
    for ChildEntry {
        name,
        offset,
        arguments,
        locals,
    } in children
    {
        let ctor = declared.constructor(&name) || name.contains("___struct___");
        kids.push(work.add_child_entry(
            root.entry,
            &name,
            offset,
            arguments,
            locals,
            Some(ctor),
        )?);
    }
    *file = work;
    Ok(Added {
        root,
        children: kids,
    })
}

/// Replaces the code of root entry `entry` with GML `source` compiled by the growing compiler
/// ([`crate::compile::compile_text`]): the names it needs are added, its nested functions'
/// existing child entries get their new headers, and the functions it defines beyond them
/// become new child entries (with FUNC and SCPT entries, named as GameMaker names them).
/// A function the new text no longer defines keeps its child entry (and its FUNC and SCPT
/// entries), so every other entry keeps its index: the entry then starts at an `exit.i`
/// appended after the root's code, a function that returns at once. GameMaker's own build
/// would have no such entry: once every edited entry's code is in place,
/// [`remove_dropped_functions`] removes them, renumbering every reference. A renamed function
/// is a dropped one and a new one.
/// Returns the new child entries. `file` is unchanged on error.
pub fn replace_code(
    file: &mut DataFile,
    entry: usize,
    source: &str,
) -> Result<Vec<usize>, crate::compile::CodeError> {
    let fail = |message: String| crate::compile::CodeError {
        line: 0,
        col: 0,
        message,
        suggestion: None,
    };
    let is_root = file
        .code
        .as_ref()
        .and_then(|c| c.entries.get(entry))
        .is_some_and(|e| e.body.is_root());
    if !is_root {
        return Err(fail(format!(
            "expected a root code entry, found entry #{entry}"
        )));
    }
    let (compiled, existing) = {
        let game = Game::new(file);
        let names = Names::new(&game);
        let c = crate::compile::compile_text(&game, &names, entry, source)?;
        let existing: Vec<(String, usize)> = game
            .children(entry)
            .iter()
            .map(|&(_, k)| (game.code_name(k).to_string(), k))
            .collect();
        (c, existing)
    };
    // Functions the new text no longer defines: their child entries stay (every other entry
    // keeps its index) as functions that return at once (see below).
    let dropped: Vec<usize> = existing
        .iter()
        .filter(|(n, _)| !compiled.children.iter().any(|c| c.name == *n))
        .map(|&(_, k)| k)
        .collect();
    let mut work = file.clone();
    compiled
        .additions
        .apply(&mut work)
        .map_err(|e| fail(e.to_string()))?;
    let ctors = constructors(source);
    let mut kids = Vec::new();
    for ch in &compiled.children {
        if let Some(&(_, k)) = existing.iter().find(|(n, _)| *n == ch.name) {
            let e = &mut work.code.as_mut().expect("checked").entries[k];
            e.execution_offset = ch.offset;
            e.arguments_count = ch.arguments;
            e.locals_count = ch.locals;
            continue;
        }
        let ctor = ch.name.contains("___struct___")
            || ctors.iter().any(|c| {
                ch.name
                    .strip_prefix("gml_Script_")
                    .and_then(|r| r.strip_prefix(c.as_str()))
                    .is_some_and(|t| t.is_empty() || t.starts_with('_') || t.starts_with('@'))
            });
        let k = work
            .add_child_entry(
                entry,
                &ch.name,
                ch.offset,
                ch.arguments,
                ch.locals,
                Some(ctor),
            )
            .map_err(|e| fail(data_message(&e)))?;
        kids.push(k);
    }
    let mut instructions = compiled.instructions;
    if !dropped.is_empty() {
        // A dropped function's entry starts at an `exit.i` after the root's last instruction
        // (the root ends there as it would without it): calling it returns at once.
        let end: usize = instructions.iter().map(Instruction::size).sum();
        let end = u32::try_from(end)
            .map_err(|_| fail(format!("expected code under 4 GiB, found {end} bytes")))?;
        instructions.push(Instruction::Unary {
            op: gmkit_data::chunks::code::Opcode::Exit,
            t: gmkit_data::chunks::code::DataType::Int32,
        });
        let code = work.code.as_mut().expect("checked");
        for k in dropped {
            let e = &mut code.entries[k];
            e.execution_offset = end;
            e.locals_count = 0;
        }
    }
    if let Some(code) = work.code.as_mut() {
        code.entries[entry].body = CodeBody::Instructions(instructions);
    }
    *file = work;
    Ok(kids)
}

/// Removes the child entries [`replace_code`] kept for functions the new text of roots
/// `roots` no longer defines, as GameMaker's build would not have them: each with its SCPT
/// and FUNC entries, every reference to later code entries, scripts and functions renumbered
/// (gmkit-data's typed references; script indices pushed as plain integers before 2023.8
/// through [`crate::assets::remove_asset`]); the `exit.i` they started at leaves the root's
/// code. A function that other code still calls, pushes or names keeps its entry (it returns
/// at once). Returns the names of the entries removed; `file` is unchanged on error.
///
/// Call it once every entry's code is in place: it moves code entry and function indices.
pub fn remove_dropped_functions(
    file: &mut DataFile,
    roots: &[usize],
) -> Result<Vec<String>, AddEntryError> {
    let mut stubs = dropped_stubs(file, roots);
    if stubs.is_empty() {
        return Ok(Vec::new());
    }
    let before = file.clone();
    let removed = remove_stubs(file, &mut stubs).inspect_err(|_| *file = before)?;
    Ok(removed)
}

/// The child entries [`replace_code`] left for dropped functions under `roots`: those that
/// start at their root's last instruction, the `exit.i` it appended (a function's body is
/// always followed by its binding, so no compiled function starts there). (root, child), the
/// children in descending order.
fn dropped_stubs(file: &DataFile, roots: &[usize]) -> Vec<(usize, usize)> {
    let Some(code) = file.code.as_ref() else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for &root in roots {
        let Ok(ins) = code.instructions(root) else {
            continue;
        };
        let Some((last, head)) = ins.split_last() else {
            continue;
        };
        if !matches!(
            last,
            Instruction::Unary {
                op: gmkit_data::chunks::code::Opcode::Exit,
                ..
            }
        ) {
            continue;
        }
        let at: usize = head.iter().map(Instruction::size).sum();
        for (k, e) in code.entries.iter().enumerate() {
            if matches!(e.body, CodeBody::Shared { parent } if parent as usize == root)
                && e.execution_offset as usize == at
                && e.locals_count == 0
            {
                out.push((root, k));
            }
        }
    }
    out.sort_by_key(|s| std::cmp::Reverse(s.1));
    out.dedup();
    out
}

/// Removes `stubs` (descending child order) that nothing else uses; see
/// [`remove_dropped_functions`].
fn remove_stubs(
    file: &mut DataFile,
    stubs: &mut [(usize, usize)],
) -> Result<Vec<String>, AddEntryError> {
    use gmkit_data::chunks::script::Script;
    if let Some(code) = file.code.as_mut() {
        code.decode_all()?;
    }
    let mut removed = Vec::new();
    // Roots whose every stub left (their appended `exit.i` goes too).
    let mut kept_roots: HashSet<usize> = HashSet::new();
    for i in 0..stubs.len() {
        let (root, child) = stubs[i];
        let name = Game::new(file).code_name(child).to_string();
        let func = {
            let game = Game::new(file);
            file.functions
                .as_ref()
                .and_then(|f| f.functions.iter().position(|f| game.string(f.name) == name))
        };
        // Still called or pushed by other code: kept as a function that returns at once.
        if func.is_some_and(|f| {
            !file
                .references_to(gmkit_data::AssetKind::Function, f)
                .is_empty()
        }) {
            kept_roots.insert(root);
            continue;
        }
        let script = file.scripts.as_ref().and_then(|s| {
            s.scripts
                .iter()
                .position(|s| s.as_ref().is_some_and(|s| s.code_id.index() == Some(child)))
        });
        if let Some(id) = script {
            let id = gmkit_data::Id::<Script>::new(id as u32);
            if crate::assets::remove_asset(file, id).is_err() {
                // Code names the script (by index): it stays.
                kept_roots.insert(root);
                continue;
            }
        }
        if let Some(f) = func {
            file.remove_function(f)?;
        }
        file.remove_code_entry(child)?;
        removed.push(name);
        // Later stubs are at lower indices (descending order); roots above `child` moved down.
        for s in stubs[i + 1..].iter_mut() {
            if s.0 > child {
                s.0 -= 1;
            }
        }
        kept_roots = kept_roots
            .into_iter()
            .map(|r| if r > child { r - 1 } else { r })
            .collect();
    }
    let mut roots: Vec<usize> = stubs.iter().map(|s| s.0).collect();
    roots.sort_unstable();
    roots.dedup();
    for root in roots.into_iter().filter(|r| !kept_roots.contains(r)) {
        if let Some(code) = file.code.as_mut()
            && let CodeBody::Instructions(ins) = &mut code.entries[root].body
        {
            ins.pop();
        }
    }
    Ok(removed)
}

/// Names of the constructors `source` declares (`function C(...) constructor`).
fn constructors(source: &str) -> Vec<String> {
    let mut d = Declared::default();
    if let Ok(tree) = crate::parse::parse(source) {
        d.block(&tree, 0);
    }
    d.functions
        .into_iter()
        .filter(|(_, c)| *c)
        .map(|(n, _)| n)
        .collect()
}

/// Whether code entry `name` is a nested function GameMaker names after root entry `root`
/// (`gml_Script_<short>_<root>`, or from 2023.11 `gml_Script_<short>@<root>` with a global
/// script's `gml_GlobalScript_` left out; spec §7.6).
fn is_child_of(name: &str, root: &str) -> bool {
    let script = root.strip_prefix("gml_GlobalScript_").unwrap_or(root);
    name.len() > "gml_Script_".len() + root.len().min(script.len())
        && (name.ends_with(&format!("_{root}")) || name.ends_with(&format!("@{script}")))
}

/// Gives the new root its own local VARI entries, as GameMaker does for every code entry in
/// the files that show it (a local `arguments` entry beside the others'): `names` in order,
/// numbered by slot (before 2.3) or by the name's string index (2.3+), in place of the entries
/// of an earlier `seeded` range. The compiler takes the local entries an entry's current code
/// uses, so the root's placeholder code refers to them until it is compiled. Returns the range
/// of VARI entries they occupy (`None` when the file does not keep per-entry locals).
fn seed_locals(
    file: &mut DataFile,
    entry: usize,
    names: &[String],
    seeded: Option<std::ops::Range<usize>>,
) -> Result<Option<std::ops::Range<usize>>, AddEntryError> {
    let per_entry = seeded.is_some()
        || file.variables.as_ref().is_some_and(|v| {
            file.strings
                .as_ref()
                .and_then(|s| s.find("arguments"))
                .is_some_and(|a| {
                    v.variables
                        .iter()
                        .any(|x| x.instance_type == -7 && x.name == a)
                })
        });
    if !per_entry {
        return Ok(None);
    }
    let by_string = file.version.at_least(2, 3);
    let mut fresh = Vec::with_capacity(names.len());
    for (slot, n) in names.iter().enumerate() {
        let r = file.intern(n);
        fresh.push(Variable {
            name: r,
            instance_type: -7,
            variable_id: if by_string { r.0 as i32 } else { slot as i32 },
        });
    }
    let vars = file.variables.as_mut().expect("checked");
    let start = match seeded {
        Some(range) => {
            let start = range.start;
            vars.variables.splice(range, fresh);
            start
        }
        None => {
            let start = vars.variables.len();
            vars.variables.extend(fresh);
            start
        }
    };
    let mut placeholder = Vec::with_capacity(names.len());
    for index in start..start + names.len() {
        let index = u32::try_from(index).map_err(|_| {
            AddEntryError::Compile(CompileError::Invalid("too many variables".into()))
        })?;
        placeholder.push(Instruction::Push {
            op: gmkit_data::chunks::code::Opcode::Push,
            value: PushValue::Variable(gmkit_data::chunks::code::VariableRef {
                variable: gmkit_data::Id::new(index),
                instance: InstanceType::LOCAL,
                ref_type: gmkit_data::chunks::code::RefType::NORMAL,
            }),
        });
    }
    if let Some(code) = file.code.as_mut() {
        code.entries[entry].body = CodeBody::Instructions(placeholder);
    }
    Ok(Some(start..start + names.len()))
}

/// `arguments`, then the local variables `ins` uses, in order of first use, by name.
fn first_use_locals(file: &DataFile, ins: &[Instruction]) -> Vec<String> {
    let mut out = vec!["arguments".to_string()];
    let (Some(vars), Some(strings)) = (file.variables.as_ref(), file.strings.as_ref()) else {
        return out;
    };
    for i in ins {
        let Some(var) = i
            .variable_ref()
            .filter(|v| v.instance == InstanceType::LOCAL)
        else {
            continue;
        };
        if let Some(v) = vars.variables.get(var.variable.index()) {
            let n = strings
                .get(v.name)
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default();
            if !out.contains(&n) {
                out.push(n);
            }
        }
    }
    out
}

/// Adds a self (instance) variable `name`, numbered as the file numbers its instance and
/// global variables (the next id, the header's counts grown by one).
fn add_self_variable(file: &mut DataFile, name: &str) -> Result<(), AddEntryError> {
    let r = file.intern(name);
    let Some(vars) = file.variables.as_mut() else {
        return Err(AddEntryError::Compile(CompileError::UnknownName {
            kind: "variable",
            name: name.into(),
        }));
    };
    let next = vars
        .variables
        .iter()
        .filter(|v| v.instance_type != -7 && v.variable_id >= 0)
        .map(|v| v.variable_id + 1)
        .max()
        .unwrap_or(0);
    let id = match vars.header.as_mut() {
        Some(h) => {
            let id = (h.count_a as i32).max(next);
            h.count_a = h.count_a.max(id as u32 + 1);
            h.count_b = h.count_b.max(id as u32 + 1);
            id
        }
        None => next,
    };
    vars.variables.push(Variable {
        name: r,
        instance_type: -1,
        variable_id: id,
    });
    Ok(())
}

/// Rebuilds the new root's code-locals record from its compiled code (`arguments`, then every
/// local variable the blob uses, in order of first use, numbered by their VARI ids) and
/// returns the root's own locals count (its `arguments` and the `var`s outside functions),
/// when the version keeps code locals.
fn code_locals(
    file: &mut DataFile,
    entry: usize,
    ins: &[Instruction],
    declared: &Declared,
) -> Result<Option<u16>, AddEntryError> {
    let has_list = file
        .functions
        .as_ref()
        .is_some_and(|f| f.code_locals.is_some());
    if !has_list {
        return Ok(None);
    }
    let mut seen: Vec<(u32, gmkit_data::StringRef)> = Vec::new();
    if let Some(vars) = file.variables.as_ref() {
        for i in ins {
            let Some(var) = i
                .variable_ref()
                .filter(|v| v.instance == InstanceType::LOCAL)
            else {
                continue;
            };
            if let Some(v) = vars.variables.get(var.variable.index())
                && !seen.iter().any(|s| s.1 == v.name)
            {
                seen.push((v.variable_id.max(0) as u32, v.name));
            }
        }
    }
    let name = file
        .code
        .as_ref()
        .map(|c| c.entries[entry].name)
        .unwrap_or_default();
    let root_count = 1 + declared.root_vars.len();
    let list = file
        .functions
        .as_mut()
        .and_then(|f| f.code_locals.as_mut())
        .expect("checked");
    if let Some(cl) = list.iter_mut().rev().find(|c| c.code_name == name) {
        for (index, name) in seen {
            if !cl.locals.iter().any(|l| l.name == name) {
                cl.locals.push(Local { index, name });
            }
        }
    }
    if let Some(h) = file.variables.as_mut().and_then(|v| v.header.as_mut()) {
        h.max_locals = h.max_locals.max(root_count as u32);
    }
    Ok(Some(u16::try_from(root_count).unwrap_or(u16::MAX)))
}

/// What the new entry's text declares: functions (by name, with their constructor flag) and
/// the `var`s of its own code outside functions.
#[derive(Default)]
struct Declared {
    functions: HashMap<String, bool>,
    root_vars: Vec<String>,
    /// Every `var`, functions included, in order.
    all_vars: Vec<String>,
}

impl Declared {
    /// Walks statements; `depth` is 0 outside functions.
    fn block(&mut self, body: &[Stmt], depth: usize) {
        for s in body {
            self.stmt(s, depth);
        }
    }

    fn function(&mut self, f: &crate::ast::Function) {
        if let Some(n) = &f.name {
            self.functions.insert(n.clone(), f.constructor);
        }
        self.block(&f.body, 1);
    }

    fn expr(&mut self, e: &Expr) {
        if let Expr::Function(f) = e {
            self.function(f);
        }
    }

    fn stmt(&mut self, s: &Stmt, depth: usize) {
        crate::limits::deep(|| match s {
            Stmt::Function(f) => self.function(f),
            Stmt::Var(list) => {
                for (n, v) in list {
                    if depth == 0 && !self.root_vars.contains(n) {
                        self.root_vars.push(n.clone());
                    }
                    if !self.all_vars.contains(n) {
                        self.all_vars.push(n.clone());
                    }
                    if let Some(v) = v {
                        self.expr(v);
                    }
                }
            }
            Stmt::Assign { value, .. } => self.expr(value),
            Stmt::Static(list) => list.iter().for_each(|(_, v)| self.expr(v)),
            Stmt::If(_, a, b) => {
                self.block(a, depth);
                if let Some(b) = b {
                    self.block(b, depth);
                }
            }
            Stmt::While(_, b)
            | Stmt::DoUntil(b, _)
            | Stmt::Repeat(_, b)
            | Stmt::With(_, b)
            | Stmt::Block(b) => self.block(b, depth),
            Stmt::For(init, _, step, b) => {
                if let Some(i) = init {
                    self.stmt(i, depth);
                }
                if let Some(i) = step {
                    self.stmt(i, depth);
                }
                self.block(b, depth);
            }
            Stmt::Switch(_, cases) => cases.iter().for_each(|c| self.block(&c.body, depth)),
            Stmt::Try {
                body,
                catch,
                finally,
            } => {
                self.block(body, depth);
                if let Some((_, c)) = catch {
                    self.block(c, depth);
                }
                if let Some(f) = finally {
                    self.block(f, depth);
                }
            }
            _ => {}
        })
    }

    /// The declared function a child entry name (`gml_Script_f`, `gml_Script_f_<parent>`,
    /// `gml_Script_f@<parent>`) stands for: the longest declared name that fits.
    fn short_name<'a>(&'a self, entry: &str) -> Option<&'a str> {
        let rest = entry.strip_prefix("gml_Script_")?;
        self.functions
            .keys()
            .filter(|n| {
                rest == n.as_str()
                    || rest
                        .strip_prefix(n.as_str())
                        .is_some_and(|t| t.starts_with('_') || t.starts_with('@'))
            })
            .max_by_key(|n| n.len())
            .map(String::as_str)
    }

    fn owns_function(&self, entry: &str) -> bool {
        self.short_name(entry).is_some()
    }

    fn constructor(&self, entry: &str) -> bool {
        self.short_name(entry)
            .and_then(|n| self.functions.get(n))
            .copied()
            .unwrap_or(false)
    }
}
