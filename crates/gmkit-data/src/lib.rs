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

//!
//! Renaming the game (the README's example, run here on the sample game; `tests/readme.rs`
//! keeps the two the same):
//!
//! ```rust,standalone_crate
//! # let dir = std::env::temp_dir().join(format!("gmkit-readme-{}", std::process::id()));
//! # std::fs::create_dir_all(&dir).unwrap();
//! # std::env::set_current_dir(&dir).unwrap();
//! # gmkit_data::build_file(&gmkit_data::sample(), "data.win").unwrap();
//! # let shared = gmkit_data::parse_file("data.win").unwrap();
//! # let mut shared_names = shared.clone();
//! # let g = shared_names.general.as_mut().unwrap();
//! # g.display_name = g.name; // as in games whose display name shares GEN8's name entry
//! # gmkit_data::build_file(&shared_names, "data.win").unwrap();
//! # (|| -> gmkit_data::Result<()> {
//! let mut data = gmkit_data::parse_file("data.win")?;
//! println!("{}", data.version); // e.g. "2024.13 (bytecode 17, IDE 2.0.0.0)"
//!
//! // Rename the game: point its display name at an entry of its own. Strings are shared entries
//! // of the STRG table (in some games the display name's entry is also GEN8's `name` and
//! // `file_name`, which decide the save directory): `Strings::set` changes every field using it.
//! let title = data.intern("My mod");
//! data.general.as_mut().unwrap().display_name = title;
//!
//! gmkit_data::build_file(&data, "data.win")?; // written to a temporary file, then renamed
//! # Ok(()) })().unwrap();
//! # let back = gmkit_data::parse_file("data.win").unwrap();
//! # let g = back.general.as_ref().unwrap();
//! # assert_eq!(back.string(g.display_name).unwrap(), "My mod");
//! # assert_eq!(back.string(g.name).unwrap(), "gmkit sample");
//! # std::fs::remove_dir_all(&dir).unwrap();
//! ```

#![warn(missing_docs)]

mod chunk;
pub mod chunks;
pub mod code_entry;
mod container;
mod edit;
mod error;
mod model;
mod navigate;
mod options;
mod read;
mod refs;
mod sample;
#[cfg(feature = "serde")]
mod serde_names;
#[cfg(feature = "serde")]
pub mod serde_support;
#[cfg(feature = "serde")]
pub mod serde_values;
mod source;
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
pub use edit::{Asset, Reference, Removed};
pub use error::{Error, ErrorKind, Location, ModelProblem, Result};
pub use model::{KeptValue, Layout};
pub use options::ParseOptions;
pub use read::Warning;
pub use refs::{AssetRef, Id, Renumbering, StringRef, Target, id_from_i32, id_to_i32};
pub use sample::sample;
pub use source::Source;
pub use string::{GmStr, GmString};
pub use version::{EvidenceSource, FormatVersion, Version, VersionEvidence, VersionReport};
pub use walk::AssetKind;
pub use write::{Built, MAX_ALIGN};

use bytes::Bytes;
use std::path::Path;

/// Bytes a data file can be parsed from: owned buffers ([`Bytes`], `Vec<u8>`, `Box<[u8]>`)
/// are shared with the model without copying; borrowed ones (`&[u8]`, `&Vec<u8>`, `&[u8; N]`)
/// are copied once, since the model outlives the borrow.
///
/// ```
/// let bytes: Vec<u8> = gmkit_data::build_bytes(&gmkit_data::sample()).unwrap();
/// let borrowed = gmkit_data::parse_bytes(&bytes).unwrap();
/// let sliced = gmkit_data::parse_bytes(&bytes[..]).unwrap();
/// let owned = gmkit_data::parse_bytes(bytes).unwrap();
/// assert_eq!(borrowed, owned);
/// assert_eq!(sliced, owned);
/// ```
pub trait DataInput {
    /// The bytes, as a shared buffer.
    fn into_data(self) -> Bytes;
}

impl DataInput for Bytes {
    fn into_data(self) -> Bytes {
        self
    }
}
impl DataInput for &Bytes {
    fn into_data(self) -> Bytes {
        self.clone()
    }
}
impl DataInput for Vec<u8> {
    fn into_data(self) -> Bytes {
        Bytes::from(self)
    }
}
impl DataInput for Box<[u8]> {
    fn into_data(self) -> Bytes {
        Bytes::from(self)
    }
}
impl DataInput for &Vec<u8> {
    fn into_data(self) -> Bytes {
        Bytes::copy_from_slice(self)
    }
}
impl DataInput for &[u8] {
    fn into_data(self) -> Bytes {
        Bytes::copy_from_slice(self)
    }
}
impl<const N: usize> DataInput for &[u8; N] {
    fn into_data(self) -> Bytes {
        Bytes::copy_from_slice(self)
    }
}

/// Parses a data file from memory (strict mode).
///
/// Accepts any [`DataInput`]: an owned buffer (`Vec<u8>`, `Bytes`) is shared with the model
/// instead of copying payloads; a borrowed slice is copied.
///
/// ```
/// let bytes = gmkit_data::build_bytes(&gmkit_data::sample()).unwrap();
/// let data = gmkit_data::parse_bytes(&bytes).unwrap();
/// assert_eq!(data.general.as_ref().unwrap().bytecode_version, 17);
/// ```
pub fn parse_bytes(data: impl DataInput) -> Result<DataFile> {
    parse_bytes_with(data, &ParseOptions::default()).map(|(f, _)| f)
}

/// Parses a data file from memory with options, returning the model and a [`ParseReport`].
///
/// ```
/// let bytes = gmkit_data::build_bytes(&gmkit_data::sample()).unwrap();
/// let options = gmkit_data::ParseOptions { lenient: true, ..Default::default() };
/// let (data, report) = gmkit_data::parse_bytes_with(bytes, &options).unwrap();
/// assert!(report.warnings.is_empty());
/// assert!(data.strings.is_some());
/// ```
pub fn parse_bytes_with(
    data: impl DataInput,
    options: &ParseOptions,
) -> Result<(DataFile, ParseReport)> {
    let data = data.into_data();
    container::parse(&data, options)
}

/// Parses a data file from disk, without copying its payloads, safely.
///
/// The model's payloads (texture pages, audio) and strings stay views of the file, so that a
/// 1 GB game parses in a fraction of a second with a small resident set. What happens to the
/// file while the model lives cannot corrupt anything:
///
/// - On Linux the file is memory-mapped under a guard: should another process truncate it, a
///   read past the new end sees zeros instead of killing the process with `SIGBUS` (the guard
///   is a `SIGBUS` handler installed once, which passes every other fault to the handler that
///   was there before).
/// - The file's size, inode and modification time are noted when it is opened:
///   [`build_bytes`], [`build`] (and [`Built::write_to`]), [`build_file`] and [`stage_file`]
///   check them before and after reading the payloads, and fail with
///   [`ErrorKind::SourceChanged`] once the file was truncated, rewritten in place (e.g. by
///   `std::fs::write(path, ..)`) or otherwise modified: parse it again. Replacing the file by a
///   rename, as [`build_file`] does, does not touch the file the model views, so a model can
///   be written back to the path it came from any number of times.
/// - Elsewhere than on Linux, the file is read into memory.
///
/// [`parse_file_mapped`] is the unguarded map, for a caller that can promise the file stays as
/// it is.
///
/// ```
/// let path = std::env::temp_dir().join(format!("gmkit-doc-parse-{}.win", std::process::id()));
/// gmkit_data::build_file(&gmkit_data::sample(), &path).unwrap();
/// let data = gmkit_data::parse_file(&path).unwrap();
/// // Written back by a rename: the file `data` views is left alone.
/// gmkit_data::build_file(&data, &path).unwrap();
/// let again = gmkit_data::parse_file(&path).unwrap();
/// std::fs::write(&path, b"FORM").unwrap(); // rewritten in place under `again`
/// let e = gmkit_data::build_bytes(&again).unwrap_err();
/// assert!(matches!(e.kind, gmkit_data::ErrorKind::SourceChanged(_)), "{e}");
/// assert!(gmkit_data::build_bytes(&data).is_ok());
/// # std::fs::remove_file(&path).unwrap();
/// ```
pub fn parse_file(path: impl AsRef<Path>) -> Result<DataFile> {
    parse_file_with(path, &ParseOptions::default()).map(|(f, _)| f)
}

/// [`parse_file`] with options.
///
/// ```
/// let path = std::env::temp_dir().join(format!("gmkit-doc-parse-with-{}.win", std::process::id()));
/// gmkit_data::build_file(&gmkit_data::sample(), &path).unwrap();
/// let options = gmkit_data::ParseOptions { track_coverage: true, ..Default::default() };
/// let (_, report) = gmkit_data::parse_file_with(&path, &options).unwrap();
/// assert_eq!(report.unexplained, Some(vec![]));
/// # std::fs::remove_file(&path).unwrap();
/// ```
pub fn parse_file_with(
    path: impl AsRef<Path>,
    options: &ParseOptions,
) -> Result<(DataFile, ParseReport)> {
    let (bytes, source, reader) = source::open_guarded(path.as_ref())?;
    let parsed = container::parse_from(&bytes, options, Some(reader));
    // A change during the parse makes what was read meaningless.
    source.check()?;
    let (mut model, report) = parsed?;
    model.layout.source = Some(std::sync::Arc::new(source));
    Ok((model, report))
}

/// Parses a data file from disk through a plain memory map, with no guard and no check of the
/// file afterwards (the fastest way, on every platform).
///
/// # Safety
/// The file must not be truncated, nor modified in place, while the model or any bytes taken
/// from it (payloads, strings, clones of the model) live: a truncation makes the next read of
/// a lost page raise `SIGBUS`, which ends the process, and a modification changes bytes that
/// Rust code holds as immutable. Replacing the file by a rename (as [`build_file`] does) is
/// fine. Use [`parse_file`] unless you can promise this.
///
/// ```
/// let path = std::env::temp_dir().join(format!("gmkit-doc-mapped-{}.win", std::process::id()));
/// gmkit_data::build_file(&gmkit_data::sample(), &path).unwrap();
/// // SAFETY: nothing else touches this temporary file.
/// let data = unsafe { gmkit_data::parse_file_mapped(&path) }.unwrap();
/// assert_eq!(data.general, gmkit_data::sample().general);
/// # std::fs::remove_file(&path).unwrap();
/// ```
pub unsafe fn parse_file_mapped(path: impl AsRef<Path>) -> Result<DataFile> {
    // SAFETY: the caller's promise.
    let (bytes, file) = unsafe { source::map_unguarded(path.as_ref())? };
    container::parse_from(&bytes, &ParseOptions::default(), Some(file)).map(|(f, _)| f)
}

/// A file's bytes without copying: memory-mapped under the guard of [`parse_file`] on Linux
/// (pages are read from disk only when touched; should the file be truncated, the lost pages
/// read as zeros instead of crashing), read into memory elsewhere. Nothing notices a change of
/// the file afterwards: use [`parse_file`] for a model.
///
/// ```
/// let path = std::env::temp_dir().join(format!("gmkit-doc-map-{}.win", std::process::id()));
/// gmkit_data::build_file(&gmkit_data::sample(), &path).unwrap();
/// let bytes = gmkit_data::map_file(&path).unwrap();
/// assert_eq!(&bytes[..4], b"FORM");
/// # std::fs::remove_file(&path).unwrap();
/// ```
pub fn map_file(path: impl AsRef<Path>) -> std::io::Result<Bytes> {
    source::open_guarded(path.as_ref())
        .map(|(bytes, _, _)| bytes)
        .map_err(|e| std::io::Error::other(e.to_string()))
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
///
/// ```
/// let bytes = gmkit_data::build_bytes(&gmkit_data::sample()).unwrap();
/// assert_eq!(&bytes[..4], b"FORM");
/// let mut broken = gmkit_data::sample();
/// broken.general.as_mut().unwrap().name = gmkit_data::StringRef(9_999_999);
/// assert!(gmkit_data::build_bytes(&broken).is_err());
/// ```
pub fn build_bytes(file: &DataFile) -> Result<Vec<u8>> {
    file.validate()?;
    container::build(file)
}

/// Writes a model to bytes without [`DataFile::validate`]: for writing back a half-broken file
/// exactly as it was read leniently. The writer still refuses references it cannot resolve.
///
/// ```
/// let data = gmkit_data::sample();
/// assert_eq!(
///     gmkit_data::build_bytes_unchecked(&data).unwrap(),
///     gmkit_data::build_bytes(&data).unwrap()
/// );
/// ```
pub fn build_bytes_unchecked(file: &DataFile) -> Result<Vec<u8>> {
    container::build(file)
}

/// Writes a model in parts: the written bytes with the large texture and audio payloads left as
/// views of the input, so that comparing the output with the input or streaming it to a file
/// never holds a second copy of the payloads. Checks the model first, like [`build_bytes`].
///
/// ```
/// let data = gmkit_data::sample();
/// let built = gmkit_data::build(&data).unwrap();
/// let bytes = gmkit_data::build_bytes(&data).unwrap();
/// assert!(built.eq_bytes(&bytes));
/// assert_eq!(built.len(), bytes.len());
/// ```
pub fn build(file: &DataFile) -> Result<Built> {
    file.validate()?;
    container::build_parts(file)
}

/// [`build`] without [`DataFile::validate`], like [`build_bytes_unchecked`].
///
/// ```
/// let data = gmkit_data::sample();
/// let built = gmkit_data::build_unchecked(&data).unwrap();
/// assert_eq!(built.into_vec(), gmkit_data::build_bytes(&data).unwrap());
/// ```
pub fn build_unchecked(file: &DataFile) -> Result<Built> {
    container::build_parts(file)
}

/// Writes a model to a file without ever leaving a damaged one behind: the parts go to a
/// temporary file in the same directory (payloads streamed from their views, never gathered in
/// one buffer), which is synced, mapped, compared and parsed again, and only then renamed over
/// `path`. If any step fails, `path` is untouched. ([`stage_file`] then [`Staged::commit`].)
///
/// ```
/// let path = std::env::temp_dir().join(format!("gmkit-doc-build-file-{}.win", std::process::id()));
/// gmkit_data::build_file(&gmkit_data::sample(), &path).unwrap();
/// let back = gmkit_data::parse_file(&path).unwrap();
/// assert_eq!(back.strings, gmkit_data::sample().strings);
/// # std::fs::remove_file(&path).unwrap();
/// ```
pub fn build_file(file: &DataFile, path: impl AsRef<Path>) -> Result<()> {
    stage_file(file, path)?.commit()
}

/// Whether the file read back (`map`) equals what was built, compared window by window, each
/// window's pages let go of once compared (`MADV_DONTNEED` on the read-only map: the data stays
/// in the page cache), so that checking a 1 GB output adds at most one window to the resident
/// set instead of the whole file.
fn read_back_equal(built: &Built, map: &memmap2::Mmap) -> bool {
    /// Bytes compared before their pages are let go (a multiple of every page size).
    const WINDOW: usize = 32 << 20;
    if built.len() != map.len() {
        return false;
    }
    let mut at = 0;
    let mut released = 0;
    for part in built.parts() {
        for piece in part.chunks(WINDOW) {
            if piece != &map[at..at + piece.len()] {
                return false;
            }
            at += piece.len();
            let upto = at - at % WINDOW;
            if upto > released {
                // SAFETY: a read-only shared map of a file: dropping its pages only makes the
                // next read fault them in again from the file (no data of ours is lost).
                #[cfg(unix)]
                let _ = unsafe {
                    map.unchecked_advise_range(
                        memmap2::UncheckedAdvice::DontNeed,
                        released,
                        upto - released,
                    )
                };
                released = upto;
            }
        }
    }
    true
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
    ///
    /// ```
    /// let path = std::env::temp_dir().join(format!("gmkit-doc-target-{}.win", std::process::id()));
    /// let staged = gmkit_data::stage_file(&gmkit_data::sample(), &path).unwrap();
    /// assert_eq!(staged.target(), path.as_path());
    /// drop(staged); // uncommitted: the temporary file is removed
    /// assert!(!path.exists());
    /// ```
    pub fn target(&self) -> &Path {
        &self.target
    }

    /// Renames the temporary file over the target.
    ///
    /// ```
    /// let path = std::env::temp_dir().join(format!("gmkit-doc-commit-{}.win", std::process::id()));
    /// gmkit_data::stage_file(&gmkit_data::sample(), &path).unwrap().commit().unwrap();
    /// assert!(gmkit_data::parse_file(&path).is_ok());
    /// # std::fs::remove_file(&path).unwrap();
    /// ```
    pub fn commit(mut self) -> Result<()> {
        std::fs::rename(&self.tmp, &self.target).map_err(|e| source::io_error(&self.target, e))?;
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
///
/// ```
/// let path = std::env::temp_dir().join(format!("gmkit-doc-stage-{}.win", std::process::id()));
/// let staged = gmkit_data::stage_file(&gmkit_data::sample(), &path).unwrap();
/// assert!(!path.exists()); // not in place until committed
/// assert_eq!(staged.target(), path.as_path());
/// staged.commit().unwrap();
/// assert!(path.exists());
/// # std::fs::remove_file(&path).unwrap();
/// ```
pub fn stage_file(file: &DataFile, path: impl AsRef<Path>) -> Result<Staged> {
    stage_built(build(file)?, path.as_ref())
}

/// [`stage_file`] taking the model: it is dropped once built, before the file is written, read
/// back and parsed, so that checking a large output never holds two models (nor the payloads'
/// sources once written: they go with the built parts before the parse).
///
/// ```
/// let path = std::env::temp_dir().join(format!("gmkit-doc-stage-owned-{}.win", std::process::id()));
/// let staged = gmkit_data::stage_file_owned(gmkit_data::sample(), &path).unwrap();
/// assert!(!path.exists()); // not in place until committed
/// staged.commit().unwrap();
/// assert_eq!(gmkit_data::parse_file(&path).unwrap().strings, gmkit_data::sample().strings);
/// # std::fs::remove_file(&path).unwrap();
/// ```
pub fn stage_file_owned(file: DataFile, path: impl AsRef<Path>) -> Result<Staged> {
    let built = build(&file)?;
    drop(file);
    release_freed_memory();
    stage_built(built, path.as_ref())
}

/// Hands the heap memory freed so far back to the system (glibc keeps freed small blocks for
/// reuse, so a dropped model would still count in the resident set while a large file is
/// written and read back). Does nothing where the allocator has no such call.
pub fn release_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only returns free heap pages to the system; no live block is touched.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// Writes `built` to a temporary file beside `path`, syncs it, and checks that it reads back as
/// written and parses ([`stage_file`]).
fn stage_built(built: Built, path: &Path) -> Result<Staged> {
    use std::io::Write;
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
    let io = |e| source::io_error(tmp, e);
    let f = std::fs::File::create(tmp).map_err(io)?;
    let mut out = std::io::BufWriter::with_capacity(1 << 20, f);
    built
        .write_to(&mut out)
        .map_err(|e| built.check_source().err().unwrap_or_else(|| io(e)))?;
    out.flush().map_err(io)?;
    let f = out.into_inner().map_err(|e| io(e.into_error()))?;
    f.sync_all().map_err(io)?;
    drop(f);
    // Refuse to replace the target with something that does not read back.
    let back = std::fs::File::open(tmp).map_err(io)?;
    // SAFETY: read-only map of the file just written, private to this process's temp name.
    let map = unsafe { memmap2::Mmap::map(&back) }.map_err(io)?;
    if !read_back_equal(&built, &map) {
        return Err(Error::at(
            0,
            ErrorKind::Io(format!("{name} did not read back as written")),
        ));
    }
    let source = built.source.clone();
    drop(built);
    parse_bytes(Bytes::from_owner(map))?;
    // What was written came from the model's source as it was parsed.
    source.map_or(Ok(()), |s| s.check())?;
    Ok(staged)
}
