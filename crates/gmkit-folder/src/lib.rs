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

pub mod code;
pub mod diff;
mod error;
mod folder;
pub mod frames;
pub mod gml;
pub mod import;
pub mod info;
pub mod layout;
pub mod list;
pub mod masks;
mod pack;
pub mod roundtrip;
pub mod sample;
pub mod strings;
mod unpack;

pub use error::{Error, Result};
pub use folder::Folder;
pub use pack::{pack, pack_from};
pub use unpack::{unpack, unpack_into};

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

    /// Writes the game: the data file to `path`, audio groups beside it, each through a
    /// temporary file that is read back and parsed before it replaces the target.
    pub fn write(&self, path: impl AsRef<Path>) -> std::result::Result<(), gmkit_data::Error> {
        let path = path.as_ref();
        gmkit_data::build_file(&self.data, path)?;
        let dir = path.parent().unwrap_or(Path::new("."));
        for (stem, g) in &self.audio_groups {
            gmkit_data::build_file(g, dir.join(format!("{stem}.dat")))?;
        }
        Ok(())
    }
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
            let n = stem.strip_prefix("audiogroup")?;
            (!n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
                .then(|| (stem.to_owned(), e.path()))
        })
        .collect();
    out.sort();
    out
}
