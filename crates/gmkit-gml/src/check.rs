//! `check-source`: compile every script and event of a GameMaker project against the data file
//! it was built into and compare, per code entry, with the entry's bytecode.
//!
//! Every root code entry of the data file gets one status: `identical`, `differs` (with the
//! first differing instruction, in the disassembler's text), `error` (the source does not
//! parse, or uses something the compiler does not emit yet) or `missing` (no code unit of the
//! project compiles to that entry). Units of the project that the data file has no entry for
//! are listed apart (`extra`).

use crate::compile::{CompileError, Names};
use crate::game::Game;
use crate::project::{ProjectContext, ProjectError, read_project};
use crate::source::Sources;
use gmkit_data::chunks::code::Instruction;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// The result for one code entry.
#[derive(Clone, Debug, PartialEq)]
pub enum Status {
    /// The compiled source equals the entry's instructions.
    Identical,
    /// The compiled source differs.
    Differs {
        /// Index of the first differing instruction.
        at: usize,
        /// The entry's instruction there (disassembly; `None`: the entry ends first).
        expected: Option<String>,
        /// The compiled instruction there (`None`: the compiled code ends first).
        found: Option<String>,
    },
    /// The source does not compile.
    Error(String),
    /// No code unit of the project compiles to this entry.
    Missing,
}

impl Status {
    /// The status word (`identical`, `differs`, `error`, `missing`).
    pub fn word(&self) -> &'static str {
        match self {
            Status::Identical => "identical",
            Status::Differs { .. } => "differs",
            Status::Error(_) => "error",
            Status::Missing => "missing",
        }
    }
}

/// One code entry's result.
#[derive(Clone, Debug)]
pub struct EntryResult {
    /// The code entry name.
    pub entry: String,
    /// The source file (none when missing).
    pub file: Option<PathBuf>,
    /// The status.
    pub status: Status,
    /// A short class of the difference, for summaries (`differs: expected pushi got push`,
    /// `error: unsupported: try`, ...); empty when identical.
    pub kind: String,
}

/// The whole check.
#[derive(Clone, Debug, Default)]
pub struct Report {
    /// The project format's label.
    pub format: String,
    /// One result per root code entry of the data file, in file order.
    pub entries: Vec<EntryResult>,
    /// Code units the data file has no entry for: (entry name, file).
    pub extra: Vec<(String, PathBuf)>,
    /// Files or definitions the reader could not use.
    pub problems: Vec<String>,
}

impl Report {
    /// Number of entries with status word `word`.
    pub fn count(&self, word: &str) -> usize {
        self.entries
            .iter()
            .filter(|e| e.status.word() == word)
            .count()
    }

    /// Share of identical entries, in percent.
    pub fn identical_percent(&self) -> f64 {
        100.0 * self.count("identical") as f64 / self.entries.len().max(1) as f64
    }

    /// Differences by kind, most frequent first.
    pub fn kinds(&self) -> Vec<(String, usize)> {
        let mut m: HashMap<&str, usize> = HashMap::new();
        for e in &self.entries {
            if !e.kind.is_empty() {
                *m.entry(e.kind.as_str()).or_default() += 1;
            }
        }
        let mut v: Vec<(String, usize)> = m.into_iter().map(|(k, n)| (k.to_string(), n)).collect();
        v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
        v
    }
}

/// Checks the project in `dir` against `game`'s code.
pub fn check_source(game: &Game, dir: &Path) -> Result<Report, ProjectError> {
    let cx = ProjectContext::new(game);
    let project = read_project(dir, &cx)?;
    let sources = Sources::new(&project, game);
    let names = Names::new(game);
    let mut report = Report {
        format: project.format.map_or("", |f| f.label()).to_string(),
        problems: project.problems.clone(),
        ..Report::default()
    };
    report.problems.extend(sources.problems.iter().cloned());
    let mut by_name: HashMap<&str, usize> = HashMap::new();
    for (k, u) in project.units.iter().enumerate() {
        by_name.entry(u.entry.as_str()).or_insert(k);
    }
    let Some(code) = game.file.code.as_ref() else {
        return Ok(report);
    };
    let mut used = vec![false; project.units.len()];
    for i in 0..code.entries.len() {
        if !code.entries[i].body.is_root() {
            continue;
        }
        let entry = game.code_name(i).to_string();
        let Some(&k) = by_name.get(entry.as_str()) else {
            report.entries.push(EntryResult {
                entry,
                file: None,
                status: Status::Missing,
                kind: "missing: no code unit in the project".into(),
            });
            continue;
        };
        used[k] = true;
        let unit = &project.units[k];
        let (status, kind) = check_one(game, &names, &sources, &project, k, i);
        report.entries.push(EntryResult {
            entry,
            file: Some(unit.file.clone()),
            status,
            kind,
        });
    }
    for (k, u) in project.units.iter().enumerate() {
        if !used[k] && !u.text.trim().is_empty() {
            report.extra.push((u.entry.clone(), u.file.clone()));
        }
    }
    Ok(report)
}

fn check_one(
    game: &Game,
    names: &Names,
    sources: &Sources,
    project: &crate::project::Project,
    k: usize,
    entry: usize,
) -> (Status, String) {
    let unit = &project.units[k];
    if let Some(why) = &unit.unsupported {
        return (
            Status::Error(why.clone()),
            format!("error: {}", why.split(" (").next().unwrap_or(why)),
        );
    }
    let Some(code) = game.file.code.as_ref() else {
        return (Status::Missing, "missing".into());
    };
    let orig = match code.instructions(entry) {
        Ok(o) => o,
        Err(e) => {
            return (
                Status::Error(format!("the entry's bytecode does not decode: {e}")),
                "error: bytecode does not decode".into(),
            );
        }
    };
    let tree = match sources.tree(project, k) {
        Ok(t) => t,
        Err(e) => return (Status::Error(e.to_string()), "error: syntax".into()),
    };
    match crate::source::compile_unit(game, names, entry, &tree) {
        Ok(ins) if ins.as_slice() == orig.as_ref() => (Status::Identical, String::new()),
        Ok(ins) => {
            let (status, kind) = difference(game, &orig, &ins);
            (status, kind)
        }
        Err(e) => {
            let kind = match e.cause() {
                CompileError::Unsupported(w) => format!("error: unsupported: {w}"),
                CompileError::UnknownName { kind, .. } => format!("error: unknown {kind}"),
                CompileError::Invalid(_) => "error: invalid".into(),
                _ => "error: compile".into(),
            };
            // File, line and column (the unit starts at line `unit.line` of its file).
            let place = match e.place(&unit.text, game.features.escaped_strings()) {
                Some((line, col)) => format!(":{}:{col}", unit.line + line.saturating_sub(1)),
                None => String::new(),
            };
            (
                Status::Error(format!("{}{place}: {e}", unit.file.display())),
                kind,
            )
        }
    }
}

/// The first difference between the entry's instructions and the compiled ones.
pub fn difference(game: &Game, orig: &[Instruction], ins: &[Instruction]) -> (Status, String) {
    let at = ins
        .iter()
        .zip(orig.iter())
        .position(|(a, b)| a != b)
        .unwrap_or(ins.len().min(orig.len()));
    let show = |i: &Instruction| i.display(game.file).to_string();
    let kind = match (orig.get(at), ins.get(at)) {
        (Some(o), Some(n)) => format!(
            "differs: expected {} got {}",
            o.opcode().mnemonic(),
            n.opcode().mnemonic()
        ),
        (Some(_), None) => "differs: compiled code too short".into(),
        _ => "differs: compiled code too long".into(),
    };
    (
        Status::Differs {
            at,
            expected: orig.get(at).map(show),
            found: ins.get(at).map(show),
        },
        kind,
    )
}
