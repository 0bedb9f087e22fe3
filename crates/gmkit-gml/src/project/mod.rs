//! GameMaker project folders: the code units of a GMS 1.4 `.project.gmx` project ([`gmx`]) or
//! a GMS2 / 2.3+ / 2022+ `.yyp` project ([`yy`]), each with the code entry name GameMaker gives
//! it in the data file and its GML text.
//!
//! Names follow the data files: `gml_Object_<obj>_<Event>_<n>`, `gml_Script_<name>` (GMS1,
//! GMS2 before 2.3), `gml_GlobalScript_<name>` (2.3+), `gml_Room_<room>_Create`,
//! `gml_RoomCC_<room>_<n>_Create`. Some names depend on the data file (a GMS1 collision event
//! is named by the other object's index; instance creation code by a number the IDE assigns),
//! so reading takes the game as context ([`ProjectContext`]).

pub mod folder;
pub mod gmx;
pub mod yy;

pub use folder::{MAX_PROJECT_FILE_BYTES, ProjectFolder};

use crate::game::{AssetKind, Game};
use std::path::{Path, PathBuf};

/// The project formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// GMS 1.x: `*.project.gmx` with object XML and `scripts/*.gml`.
    Gmx,
    /// GMS2 before 2.3 (`.yyp`, `mvc 1.0`).
    Yy2,
    /// GMS 2.3 and later (`.yyp` with `resourceVersion`).
    Yy23,
}

impl Format {
    /// A short label.
    pub fn label(self) -> &'static str {
        match self {
            Format::Gmx => "gms1-gmx",
            Format::Yy2 => "gms2-yy",
            Format::Yy23 => "gms2.3-yy",
        }
    }
}

/// One piece of GML that compiles to one root code entry.
#[derive(Clone, Debug, PartialEq)]
pub struct CodeUnit {
    /// The code entry name GameMaker gives it.
    pub entry: String,
    /// The file the text comes from (for error messages).
    pub file: PathBuf,
    /// Line of `file` where `text` starts (1-based; a `#define` section or an XML action
    /// starts inside its file).
    pub line: u32,
    /// The GML text.
    pub text: String,
    /// Something the text alone does not compile to (a drag-and-drop action, ...): the unit
    /// is reported, not compiled.
    pub unsupported: Option<String>,
}

/// A project's code and its project-wide definitions.
#[derive(Clone, Debug, Default)]
pub struct Project {
    /// Format (`None` only for an empty project).
    pub format: Option<Format>,
    /// Every code unit.
    pub units: Vec<CodeUnit>,
    /// Project-wide constants (GMS1 `<constants>`: name and value text), used as macros.
    pub constants: Vec<(String, String)>,
    /// Extension functions called by another name than their script's (GMS1 extension GML:
    /// a call to `name` compiles to a call to the script `external name`): (name, external).
    pub function_aliases: Vec<(String, String)>,
    /// Room instances by name with their instance id in the data file (the name compiles to
    /// the id where the version pushes plain numbers).
    pub instances: Vec<(String, u32)>,
    /// Files that could not be read or understood, with why (the rest is still read).
    pub problems: Vec<String>,
}

/// Why a project folder could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ProjectError {
    /// No `.yyp` or `.project.gmx` in the folder.
    #[error("{}: no .yyp or .project.gmx project file in this folder", folder::shown_path(.0))]
    NotAProject(PathBuf),
    /// An I/O error.
    #[error("{}: {source}", folder::shown_path(path))]
    Io {
        /// The file.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// A file the readers do not read: outside the project folder, not a regular file, or
    /// too long ([`ProjectFolder::read_text`]).
    #[error("{}: not read: {why}", folder::shown_path(file))]
    Refused {
        /// The file, relative to the project folder (as the project names it).
        file: PathBuf,
        /// Why.
        why: String,
    },
}

/// What the reader needs to know about the data file the project was built into.
pub struct ProjectContext<'a> {
    game: &'a Game<'a>,
    entries: std::collections::HashSet<&'a str>,
}

impl<'a> ProjectContext<'a> {
    /// The context of `game`.
    pub fn new(game: &'a Game<'a>) -> Self {
        let entries = (0..game.code_count()).map(|i| game.code_name(i)).collect();
        ProjectContext { game, entries }
    }

    /// Whether the data file has a code entry named `name` (code GameMaker generates from
    /// the project's settings, like object variables' `PreCreate`, is produced only then).
    pub fn has_entry(&self, name: &str) -> bool {
        self.entries.contains(name)
    }

    /// An object's index by name.
    pub fn object_index(&self, name: &str) -> Option<usize> {
        self.game
            .assets()
            .find(|(k, _, n)| *k == AssetKind::Object && *n == name)
            .map(|(_, i, _)| i)
    }

    /// Whether the data file is 2.3+.
    pub fn gml_v2(&self) -> bool {
        self.game.features.gml_v2()
    }

    /// The instance ids of room `room`, in the room's instance order.
    pub fn instance_ids(&self, room: &str) -> Vec<u32> {
        let Some(rooms) = self.game.file.rooms.as_ref() else {
            return Vec::new();
        };
        rooms
            .rooms
            .iter()
            .enumerate()
            .find_map(|(i, r)| {
                (self.game.asset_name(AssetKind::Room, i) == Some(room))
                    .then_some(r.as_ref())
                    .flatten()
            })
            .map(|r| r.instances.iter().map(|i| i.instance_id).collect())
            .unwrap_or_default()
    }

    /// The creation-code entry names of the instances of room `room`, in the room's instance
    /// order (`pre`: the pre-create entries instead).
    pub fn instance_code_entries(&self, room: &str, pre: bool) -> Vec<String> {
        let file = self.game.file;
        let (Some(rooms), Some(code)) = (file.rooms.as_ref(), file.code.as_ref()) else {
            return Vec::new();
        };
        let Some(r) = rooms.rooms.iter().enumerate().find_map(|(i, r)| {
            (self.game.asset_name(AssetKind::Room, i) == Some(room))
                .then_some(r.as_ref())
                .flatten()
        }) else {
            return Vec::new();
        };
        r.instances
            .iter()
            .filter_map(|inst| {
                let id = if pre {
                    inst.pre_create_code?
                } else {
                    inst.creation_code
                };
                let i = id.index()?;
                (i < code.entries.len()).then(|| self.game.code_name(i).to_string())
            })
            .collect()
    }
}

/// Reads the project in `dir` (the folder holding the `.yyp` or `.project.gmx`).
pub fn read_project(dir: &Path, cx: &ProjectContext) -> Result<Project, ProjectError> {
    let rd = std::fs::read_dir(dir).map_err(|source| ProjectError::Io {
        path: dir.to_path_buf(),
        source,
    })?;
    let mut names: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
    names.sort();
    let is = |p: &Path, suffix: &str| {
        p.file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.to_ascii_lowercase().ends_with(suffix))
    };
    let folder = ProjectFolder::open(dir)?;
    let project = if let Some(yyp) = names.iter().find(|p| is(p, ".yyp")) {
        yy::read(&folder, yyp, cx)?
    } else if let Some(gmx) = names.iter().find(|p| is(p, ".project.gmx")) {
        gmx::read(&folder, gmx, cx)?
    } else {
        return Err(ProjectError::NotAProject(dir.to_path_buf()));
    };
    folder.finish()?;
    Ok(project)
}

/// Splits a GMS1 script file into its `#define NAME` sections: (name, first line, text).
/// Text before the first `#define` belongs to `default_name` (the file's own script).
pub fn split_defines(text: &str, default_name: &str) -> Vec<(String, u32, String)> {
    let mut out: Vec<(String, u32, String)> = Vec::new();
    let mut cur = (default_name.to_string(), 1u32, String::new());
    let mut seen_define = false;
    for (k, line) in text.split_inclusive('\n').enumerate() {
        let t = line.trim_start();
        if let Some(rest) = t.strip_prefix("#define") {
            let name = rest
                .trim()
                .split(|c: char| c.is_whitespace())
                .next()
                .unwrap_or("")
                .to_string();
            if seen_define || !cur.2.trim().is_empty() {
                out.push(std::mem::take(&mut cur));
            }
            seen_define = true;
            cur = (name, k as u32 + 2, String::new());
            continue;
        }
        cur.2.push_str(line);
    }
    if seen_define || !cur.0.is_empty() {
        out.push(cur);
    }
    out
}

/// The name an event gets in code entry names, from its type and number (GMS1 numbers).
pub fn event_name(event_type: u32) -> Option<&'static str> {
    Some(match event_type {
        0 => "Create",
        1 => "Destroy",
        2 => "Alarm",
        3 => "Step",
        4 => "Collision",
        5 => "Keyboard",
        6 => "Mouse",
        7 => "Other",
        8 => "Draw",
        9 => "KeyPress",
        10 => "KeyRelease",
        11 => "Trigger",
        12 => "CleanUp",
        13 => "Gesture",
        14 => "PreCreate",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defines_split_into_scripts() {
        let s = split_defines("#define a\nx = 1;\n#define b\ny = 2;\n", "file");
        assert_eq!(
            s,
            vec![
                ("a".into(), 2, "x = 1;\n".into()),
                ("b".into(), 4, "y = 2;\n".into())
            ]
        );
        let s = split_defines("z = 3;\n", "scr");
        assert_eq!(s, vec![("scr".into(), 1, "z = 3;\n".into())]);
    }
}
