//! Read, edit and write GameMaker compiled data files (`data.win`, `game.unx`, `game.droid`,
//! `game.ios`, `audiogroupN.dat`) exactly.
//!
//! A data file is a `FORM` container of chunks (GEN8, STRG, SPRT, ROOM, CODE, TXTR, ...).
//! [`parse_bytes`] turns it into a [`DataFile`]: one typed model per chunk, with pointers turned
//! into typed references ([`StringRef`], [`Id`]). [`build_bytes`] writes the model back; an
//! unmodified model gives back the input byte for byte, and an edited one gets every pointer,
//! length, count and padding recomputed.
//!
//! Texture, audio and other embedded payloads are not copied: they are [`bytes::Bytes`] views of
//! the input, decoded only on demand.
//!
//! ```no_run
//! let data = gmkit_data::parse_file("data.win")?;
//! println!("version {}", data.version);
//! let bytes = gmkit_data::build_bytes(&data)?;
//! assert_eq!(bytes, std::fs::read("data.win")?);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![warn(missing_docs)]

mod chunk;
pub mod chunks;
pub mod code_entry;
mod container;
mod edit;
mod error;
mod model;
mod options;
mod read;
mod refs;
mod sample;
#[cfg(feature = "serde")]
pub mod serde_support;
mod string;
mod tables;
pub mod text;
mod validate;
mod version;
mod walk;
mod write;

pub use chunk::ChunkName;
pub use chunks::DataFile;
pub use container::ParseReport;
pub use edit::{Asset, Reference};
pub use error::{Error, ErrorKind, Location, ModelProblem, Result};
pub use model::Layout;
pub use options::ParseOptions;
pub use read::Warning;
pub use refs::{Id, StringRef, id_from_i32, id_to_i32};
pub use sample::sample;
pub use string::{GmStr, GmString};
pub use version::{EvidenceSource, FormatVersion, Version, VersionEvidence, VersionReport};
pub use walk::AssetKind;
pub use write::{Built, MAX_ALIGN};

use bytes::Bytes;
use std::path::Path;

/// Parses a data file from memory (strict mode).
///
/// Accepts anything that converts into [`Bytes`] (`Vec<u8>`, `Bytes`, `&'static [u8]`); the
/// model shares the buffer instead of copying payloads.
pub fn parse_bytes(data: impl Into<Bytes>) -> Result<DataFile> {
    parse_bytes_with(data, &ParseOptions::default()).map(|(f, _)| f)
}

/// Parses a data file from memory with options, returning the model and a [`ParseReport`].
pub fn parse_bytes_with(
    data: impl Into<Bytes>,
    options: &ParseOptions,
) -> Result<(DataFile, ParseReport)> {
    let data = data.into();
    container::parse(&data, options)
}

/// Parses a data file from disk (memory-mapped, so payloads are never copied).
pub fn parse_file(path: impl AsRef<Path>) -> Result<DataFile> {
    parse_file_with(path, &ParseOptions::default()).map(|(f, _)| f)
}

/// Parses a data file from disk with options.
pub fn parse_file_with(
    path: impl AsRef<Path>,
    options: &ParseOptions,
) -> Result<(DataFile, ParseReport)> {
    let file = std::fs::File::open(path.as_ref())?;
    // SAFETY: as in `map_file`.
    let map = unsafe { memmap2::Mmap::map(&file)? };
    container::parse_from(&Bytes::from_owner(map), options, Some(file))
}

/// A file's bytes, memory-mapped (pages are read from disk only when touched, and a parsed
/// model's payloads stay views of the map).
pub fn map_file(path: impl AsRef<Path>) -> std::io::Result<Bytes> {
    let file = std::fs::File::open(path.as_ref())?;
    // SAFETY: the map is read-only; like every reader of memory-mapped files, we rely on the file
    // not being truncated by another process while it is mapped.
    let map = unsafe { memmap2::Mmap::map(&file)? };
    Ok(Bytes::from_owner(map))
}

/// Detects the layout version of a data file without parsing its chunks, with the evidence
/// for it (the same detection [`parse_bytes`] runs; errors only when the chunk table itself is
/// unreadable).
///
/// ```
/// let report = gmkit_data::detect_version(&gmkit_data::build_bytes(&gmkit_data::sample()).unwrap()).unwrap();
/// assert!(!report.evidence.is_empty());
/// ```
pub fn detect_version(data: &[u8]) -> Result<VersionReport> {
    container::detect_version(data)
}

/// Writes a model to bytes, after checking it ([`DataFile::validate`]: references in range,
/// null slots only where the version allows them, every room in the room order).
///
/// The checks run first, on the same thread: about 2 ns per reference (a few percent of the
/// build; checking on a second thread alongside the writer measured slower on a busy machine).
pub fn build_bytes(file: &DataFile) -> Result<Vec<u8>> {
    file.validate()?;
    container::build(file)
}

/// Writes a model to bytes without [`DataFile::validate`]: for writing back a half-broken file
/// exactly as it was read leniently. The writer still refuses references it cannot resolve.
pub fn build_bytes_unchecked(file: &DataFile) -> Result<Vec<u8>> {
    container::build(file)
}

/// Writes a model in parts: the written bytes with the large texture and audio payloads left as
/// views of the input, so that comparing the output with the input or streaming it to a file
/// never holds a second copy of the payloads. Checks the model first, like [`build_bytes`].
pub fn build(file: &DataFile) -> Result<Built> {
    file.validate()?;
    container::build_parts(file)
}

/// [`build`] without [`DataFile::validate`], like [`build_bytes_unchecked`].
pub fn build_unchecked(file: &DataFile) -> Result<Built> {
    container::build_parts(file)
}

/// Writes a model to a file without ever leaving a damaged one behind: the parts go to a
/// temporary file in the same directory (payloads streamed from their views, never gathered in
/// one buffer), which is synced, mapped, compared and parsed again, and only then renamed over
/// `path`. If any step fails, `path` is untouched. ([`stage_file`] then [`Staged::commit`].)
pub fn build_file(file: &DataFile, path: impl AsRef<Path>) -> Result<()> {
    stage_file(file, path)?.commit()
}

/// A data file written and checked beside its target but not yet in place: [`Staged::commit`]
/// renames it over the target; dropping it uncommitted removes the temporary file. Writing
/// several files (a game and its audio groups) stages them all before committing any, so a
/// failure in any of them leaves every target untouched.
#[derive(Debug)]
pub struct Staged {
    tmp: std::path::PathBuf,
    target: std::path::PathBuf,
    committed: bool,
}

impl Staged {
    /// The file this will replace.
    pub fn target(&self) -> &Path {
        &self.target
    }

    /// Renames the temporary file over the target.
    pub fn commit(mut self) -> Result<()> {
        std::fs::rename(&self.tmp, &self.target)?;
        self.committed = true;
        Ok(())
    }
}

impl Drop for Staged {
    fn drop(&mut self) {
        if !self.committed {
            let _ = std::fs::remove_file(&self.tmp);
        }
    }
}

/// The first half of [`build_file`]: builds `file`, writes it to a temporary file beside
/// `path`, syncs it, and checks that it reads back as written and parses. `path` is not touched
/// until [`Staged::commit`].
pub fn stage_file(file: &DataFile, path: impl AsRef<Path>) -> Result<Staged> {
    use std::io::Write;
    let built = build(file)?;
    let path = path.as_ref();
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let staged = Staged {
        tmp: dir.join(format!(".{name}.gmkit-tmp-{}", std::process::id())),
        target: path.to_owned(),
        committed: false,
    };
    let tmp = &staged.tmp;
    let f = std::fs::File::create(tmp)?;
    let mut out = std::io::BufWriter::with_capacity(1 << 20, f);
    built.write_to(&mut out)?;
    out.flush()?;
    let f = out.into_inner().map_err(|e| e.into_error())?;
    f.sync_all()?;
    drop(f);
    // Refuse to replace the target with something that does not read back.
    let back = std::fs::File::open(tmp)?;
    // SAFETY: read-only map of the file just written, private to this process's temp name.
    let map = unsafe { memmap2::Mmap::map(&back)? };
    if !built.eq_bytes(&map) {
        return Err(Error::at(
            0,
            ErrorKind::Io(format!("{name} did not read back as written")),
        ));
    }
    drop(built);
    parse_bytes(Bytes::from_owner(map))?;
    Ok(staged)
}
