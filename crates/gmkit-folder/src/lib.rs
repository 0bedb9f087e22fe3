//! A GameMaker game as an editable folder, and back, byte for byte.
//!
//! [`unpack`] turns a data file (and its `audiogroupN.dat` files) into a [`Folder`]: one
//! pretty-printed JSON file per asset, the string table as JSON, texture pages and audio as the
//! files they are, and a small manifest; [`pack`] turns such a folder back into the data file.
//! An unmodified folder packs to the exact input. No command-line code lives here: the `gmkit`
//! CLI and any other front end call these functions. The layout is described in the README
//! (section "The folder layout") and in [`layout`].
//!
//! ```no_run
//! let game = gmkit_folder::Game::open("data.win")?;
//! let folder = gmkit_folder::unpack(&game)?;
//! folder.write_dir("mygame")?;
//! let back = gmkit_folder::pack(&gmkit_folder::Folder::read_dir("mygame")?)?;
//! assert_eq!(gmkit_data::build_bytes(&back.data)?, std::fs::read("data.win")?);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![warn(missing_docs)]

pub mod assets;
pub mod audio;
pub mod code;
pub mod diff;
mod error;
mod fields;
mod folder;
pub mod frames;
pub mod gml;
pub mod import;
mod incremental;
pub mod info;
pub mod layout;
mod lazy;
pub mod list;
pub mod masks;
pub mod names;
mod pack;
pub mod pages;
pub mod reader;
pub mod roundtrip;
pub mod sample;
pub mod strings;
mod unpack;

pub use error::{Error, MAX_QUOTED, Result, one_line, quote};
pub use folder::{Folder, PayloadCheck};
pub use pack::{audio_group_number, pack, pack_from};
pub use unpack::{
    UnpackOptions, Unpacked, unpack, unpack_into, unpack_into_with, unpack_to_dir,
    unpack_to_dir_with, unpack_with,
};

use gmkit_data::DataFile;
use std::path::{Path, PathBuf};

/// A game: its data file and the audio group files beside it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Game {
    /// The main data file (`data.win`, `game.unx`, ...).
    pub data: DataFile,
    /// `audiogroupN.dat` files: (file stem, e.g. `audiogroup1`, model).
    pub audio_groups: Vec<(String, DataFile)>,
}

impl Game {
    /// Reads a data file and the `audiogroupN.dat` files in its directory.
    pub fn open(path: impl AsRef<Path>) -> std::result::Result<Game, gmkit_data::Error> {
        let path = path.as_ref();
        let data = gmkit_data::parse_file(path)?;
        let mut audio_groups = Vec::new();
        for (stem, p) in audio_group_files(path) {
            audio_groups.push((stem, gmkit_data::parse_file(&p)?));
        }
        Ok(Game { data, audio_groups })
    }

    /// The files [`Game::write`] writes: `path`, then `audiogroupN.dat` beside it for each
    /// audio group (names derived from validated numbers, see [`audio_group_number`]; a group
    /// whose stem is not `audiogroupN` is an error, so nothing else beside `path` is touched).
    pub fn output_paths(&self, path: impl AsRef<Path>) -> Result<Vec<PathBuf>> {
        let path = path.as_ref();
        let beside = |name: String| match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.join(name),
            _ => PathBuf::from(name),
        };
        let mut out = vec![path.to_owned()];
        for (stem, _) in &self.audio_groups {
            let n = audio_group_number(stem).ok_or_else(|| {
                Error::new(
                    format!("{}/{stem}", layout::AUDIO_GROUPS),
                    "",
                    format!(
                        "expected an audio group named audiogroupN, found {}",
                        quote(stem)
                    ),
                )
            })?;
            out.push(beside(format!("audiogroup{n}.dat")));
        }
        Ok(out)
    }

    /// Writes the game: the data file to `path`, audio groups beside it
    /// ([`Game::output_paths`]): [`Game::stage`], then each staged file renamed into place.
    pub fn write(&self, path: impl AsRef<Path>) -> Result<()> {
        commit(self.stage(path)?)
    }

    /// Builds every file of the game and writes each to a temporary file beside its target,
    /// read back and parsed ([`gmkit_data::stage_file`]), without replacing any target: if any
    /// part fails, the temporary files are removed and nothing is touched. [`commit`] then
    /// renames them into place (a caller can take backups in between). Errors about writing
    /// name the output file; errors about the model name the part.
    pub fn stage(&self, path: impl AsRef<Path>) -> Result<Vec<gmkit_data::Staged>> {
        let paths = self.output_paths(path)?;
        let parts = std::iter::once(&self.data).chain(self.audio_groups.iter().map(|g| &g.1));
        let mut staged = Vec::with_capacity(paths.len());
        for (data, target) in parts.zip(&paths) {
            staged.push(gmkit_data::stage_file(data, target).map_err(|e| stage_error(target, e))?);
        }
        Ok(staged)
    }

    /// [`Game::stage`] taking the game: each data file's model is dropped once built, before
    /// its output is read back and parsed ([`gmkit_data::stage_file_owned`]), so that staging
    /// a large game holds one model, not two.
    pub fn stage_owned(self, path: impl AsRef<Path>) -> Result<Vec<gmkit_data::Staged>> {
        let paths = self.output_paths(path)?;
        let parts = std::iter::once(self.data).chain(self.audio_groups.into_iter().map(|g| g.1));
        let mut staged = Vec::with_capacity(paths.len());
        for (data, target) in parts.zip(&paths) {
            staged.push(
                gmkit_data::stage_file_owned(data, target).map_err(|e| stage_error(target, e))?,
            );
        }
        Ok(staged)
    }
}

/// A staging error: writing names the output file; building names the part.
fn stage_error(target: &Path, e: gmkit_data::Error) -> Error {
    match e.kind {
        gmkit_data::ErrorKind::Io(_) => Error::new(
            target.display().to_string(),
            "",
            format!("cannot write: {e}"),
        ),
        _ => Error::new(
            "",
            "",
            format!(
                "cannot build {}: {e}",
                target
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default()
            ),
        ),
    }
}

/// Most backups kept of one file (`FILE.bak`, `FILE.bak.1`, ... `FILE.bak.999`).
pub const MAX_BACKUPS: usize = 1000;

/// Copies `path` to a backup that did not exist: `FILE.bak`, or when that exists `FILE.bak.1`,
/// `FILE.bak.2`, ... (an existing backup is never overwritten: it may be the only copy of the
/// original). Returns the backup's path.
pub fn backup(path: &Path) -> Result<PathBuf> {
    let shown = path.display().to_string();
    for k in 0..MAX_BACKUPS {
        let mut name = path.as_os_str().to_owned();
        name.push(if k == 0 {
            ".bak".to_owned()
        } else {
            format!(".bak.{k}")
        });
        let bak = PathBuf::from(name);
        let mut out = match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&bak)
        {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => {
                return Err(Error::new(
                    bak.display().to_string(),
                    "",
                    format!("cannot create the backup: {e}"),
                ));
            }
        };
        let copied = std::fs::File::open(path)
            .and_then(|mut src| std::io::copy(&mut src, &mut out))
            .and_then(|_| out.sync_all());
        if let Err(e) = copied {
            drop(out);
            let _ = std::fs::remove_file(&bak);
            return Err(Error::new(shown, "", format!("cannot keep a backup: {e}")));
        }
        return Ok(bak);
    }
    Err(Error::new(
        shown,
        "",
        format!("expected fewer than {MAX_BACKUPS} backups beside it (remove old .bak.N files)"),
    ))
}

/// Renames files staged by [`Game::stage`] over their targets, in order.
pub fn commit(staged: Vec<gmkit_data::Staged>) -> Result<()> {
    for s in staged {
        let shown = s.target().display().to_string();
        s.commit()
            .map_err(|e| Error::new(shown, "", format!("cannot rename into place: {e}")))?;
    }
    Ok(())
}

/// `audiogroupN.dat` files next to `data_file`, sorted by name: (stem, path).
pub fn audio_group_files(data_file: &Path) -> Vec<(String, PathBuf)> {
    let dir = data_file
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let mut out: Vec<(String, PathBuf)> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            let stem = name.strip_suffix(".dat")?;
            audio_group_number(stem).map(|_| (stem.to_owned(), e.path()))
        })
        .collect();
    out.sort();
    out
}
