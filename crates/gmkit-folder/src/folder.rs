//! A folder: relative paths to file contents. Unpack fills one, pack reads one;
//! [`Folder::read_dir`] and [`Folder::write_dir`] move it to and from disk, so a front end without
//! a file system (a browser page) can use the same unpack and pack.
//!
//! Memory stays bounded by deferred files: a texture page's PNG is produced (decoded from its
//! stored blob and encoded as PNG) only when the folder is written, one page per thread at a
//! time; a stored page blob is a view of the parsed model's bytes, never a copy; and a folder
//! read from disk leaves its texture images on disk until pack reads them, one at a time.
//! [`Folder::files`] holds the other files; [`Folder::read`] reads any file, deferred or not,
//! and [`Folder::materialize`] turns every deferred file into bytes (in-memory use).
//!
//! A folder made to be written to disk can hold no file at all: [`Folder::spilling`] writes
//! each file as it is inserted into a temporary directory (unpack's JSON, code and frames go
//! to disk as they are produced instead of waiting in memory), and [`Folder::read_dir_lazy`]
//! leaves every payload (page images, stored blobs, audio) and the JSON of the elements pack
//! reads one at a time (rooms, scripts, sounds, ...: see `crate::lazy`) on disk until pack
//! reads it.

use crate::error::{Error, Result};
use crate::reader;
use bytes::Bytes;
use serde_json::Value;
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The files of an unpacked game: `/`-separated relative paths to their bytes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Folder {
    /// Files by relative path (`sprites/0003_spr_player.json`).
    pub files: BTreeMap<String, Vec<u8>>,
    /// Files produced or read only when needed (see the module's notes), by path.
    deferred: BTreeMap<String, Deferred>,
    /// Where inserted files go when they are written as they come ([`Folder::spilling`]).
    spill: Option<Spill>,
    /// The files [`Folder::read_bytes`] mapped, to check they did not change.
    mapped: Mapped,
    /// Unpacked for a comparison ([`Folder::for_diff`]): sprite frames and audio files stay
    /// deferred too, produced only where the other side differs.
    pub(crate) for_diff: bool,
}

/// What identifies a file mapped by [`Folder::read_bytes`]: (folder path, full path, size,
/// modification time).
type Stamp = (String, PathBuf, u64, Option<std::time::SystemTime>);

/// The files [`Folder::read_bytes`] mapped (shared by clones; never part of equality).
#[derive(Clone, Debug, Default)]
struct Mapped(std::sync::Arc<std::sync::Mutex<Vec<Stamp>>>);

impl PartialEq for Mapped {
    fn eq(&self, _: &Mapped) -> bool {
        true
    }
}

impl Eq for Mapped {}

/// The files a folder's payloads were mapped from ([`Folder::payload_check`]): the payloads of a
/// packed model are views of them until the model is written.
#[derive(Clone, Debug, Default)]
pub struct PayloadCheck(Vec<Stamp>);

impl PayloadCheck {
    /// `Ok` while every mapped file has the size and modification time it had when mapped;
    /// otherwise an error naming the first that changed (what was built from it may hold
    /// zeros where the file was cut: build again).
    pub fn check(&self) -> Result<()> {
        for (rel, full, len, modified) in &self.0 {
            let now = std::fs::symlink_metadata(full).map(|m| (m.len(), m.modified().ok()));
            match now {
                Ok((l, m)) if l == *len && m == *modified => {}
                Ok((l, _)) => {
                    return Err(Error::new(
                        rel,
                        "",
                        format!(
                            "changed on disk while it was packed (its size was {len} bytes, now {l}): pack again"
                        ),
                    ));
                }
                Err(e) => {
                    return Err(Error::new(
                        rel,
                        "",
                        format!("changed on disk while it was packed ({e}): pack again"),
                    ));
                }
            }
        }
        Ok(())
    }
}

/// The files a [`Folder::spilling`] folder wrote to its directory.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Spill {
    /// The directory the files go to.
    root: PathBuf,
    /// Files written: path → size.
    written: BTreeMap<String, u64>,
    /// Directories made under `root`.
    dirs: std::collections::BTreeSet<String>,
    /// The first write that failed (later inserts are dropped).
    error: Option<Error>,
    /// Notes of the sprites' frame records written ([`crate::frames::note_of`]).
    notes: Vec<(String, String)>,
}

/// A file a [`Spill`] wrote: (path, size, its frame record's note).
type Written = (String, u64, Option<(String, String)>);

impl Spill {
    /// Makes the directories of `paths` under the root (each once).
    fn make_dirs<'p>(&mut self, paths: impl Iterator<Item = &'p str>) -> Result<()> {
        for p in paths {
            let Some((d, _)) = p.rsplit_once('/') else {
                continue;
            };
            if self.dirs.contains(d) {
                continue;
            }
            let full = self.root.join(d);
            std::fs::create_dir_all(&full)
                .map_err(|e| Error::new(d, "", format!("cannot create: {e}")))?;
            self.dirs.insert(d.to_owned());
        }
        Ok(())
    }

    /// Writes `files` under the root (in parallel), recording their sizes; the first failure
    /// is kept in `error` and every later write skipped.
    fn write_all(&mut self, files: Vec<(String, Vec<u8>)>) {
        use rayon::prelude::*;
        if self.error.is_some() {
            return;
        }
        if let Err(e) = self.make_dirs(files.iter().map(|(p, _)| p.as_str())) {
            self.error = Some(e);
            return;
        }
        let root = &self.root;
        let done: Vec<Result<Written>> = files
            .into_par_iter()
            .map(|(p, b)| {
                std::fs::write(root.join(&p), &b)
                    .map_err(|e| Error::new(&p, "", format!("cannot write: {e}")))?;
                let note = crate::frames::note_of(&p, &b);
                Ok((p, b.len() as u64, note))
            })
            .collect();
        for d in done {
            match d {
                Ok((p, n, note)) => {
                    self.notes.extend(note);
                    self.written.insert(p, n);
                }
                Err(e) => {
                    self.error.get_or_insert(e);
                }
            }
        }
    }
}

/// A file whose bytes are produced when needed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Deferred {
    /// A view of bytes held elsewhere (a stored page blob of the parsed model), written as is.
    Shared(Bytes),
    /// A texture page as PNG (this path) and its record: the stored blob is decoded and
    /// encoded as PNG when the folder is written, and the record (at `record_path`) gets the
    /// PNG's hash (see [`crate::pages`]).
    PagePng {
        /// The stored blob.
        blob: Bytes,
        /// The page's record, without the PNG's hash yet.
        record: Value,
        /// Where the record goes (`textures/0003.json`).
        record_path: String,
    },
    /// A file on disk, read when needed (a folder read by [`Folder::read_dir`]).
    Disk(PathBuf),
    /// A text file on disk read when needed (an element's JSON of a folder read by
    /// [`Folder::read_dir_lazy`]), and its size (part of [`Folder::size`]).
    Text(PathBuf, u64),
    /// An image cut from a texture page (a sprite frame, a background's or font's image) in a
    /// folder unpacked for a comparison ([`Folder::for_diff`]): the same page bytes, item and
    /// canvas give the same PNG.
    Frame(Box<crate::frames::LazyImage>),
}

impl Deferred {
    /// The files this entry produces: (path, bytes); a [`Deferred::PagePng`] gives its PNG (if
    /// the page can be decoded) and its record.
    pub(crate) fn produce(&self, path: &str) -> Result<Vec<(String, Vec<u8>)>> {
        match self {
            Deferred::Shared(b) => Ok(vec![(path.to_owned(), b.to_vec())]),
            Deferred::Disk(full) | Deferred::Text(full, _) => {
                let b =
                    reader::read_file(full, path, reader::limit_for(path), reader::Links::Refuse)?;
                Ok(vec![(path.to_owned(), b)])
            }
            Deferred::PagePng {
                blob,
                record,
                record_path,
            } => Ok(crate::pages::produce(blob, record, record_path, path)),
            Deferred::Frame(f) => Ok(f
                .produce()
                .map(|png| (path.to_owned(), png))
                .into_iter()
                .collect()),
        }
    }
}

impl Folder {
    /// The deferred page PNGs by the address of their stored blob, when inserted files are
    /// written as they come ([`Folder::spilling`]); empty otherwise (a folder held in memory
    /// keeps its page PNGs deferred, produced one at a time when written).
    pub(crate) fn spilled_page_pngs(&self) -> std::collections::HashMap<usize, String> {
        if self.spill.is_none() {
            return std::collections::HashMap::new();
        }
        self.deferred
            .iter()
            .filter_map(|(path, d)| match d {
                Deferred::PagePng { blob, .. } if !blob.is_empty() => {
                    Some((blob.as_ptr() as usize, path.clone()))
                }
                _ => None,
            })
            .collect()
    }

    /// Removes the deferred page PNG at `path`: its record and the record's path.
    pub(crate) fn take_page_png(&mut self, path: &str) -> Option<(Value, String)> {
        match self.deferred.remove(path)? {
            Deferred::PagePng {
                record,
                record_path,
                ..
            } => Some((record, record_path)),
            other => {
                self.deferred.insert(path.to_owned(), other);
                None
            }
        }
    }

    /// Adds a file whose bytes are produced when needed (replacing any file at `path`).
    pub(crate) fn defer(&mut self, path: impl Into<String>, what: Deferred) {
        let path = path.into();
        self.files.remove(&path);
        self.deferred.insert(path, what);
    }

    /// Whether the folder has a file at `path` (deferred or not).
    pub fn contains(&self, path: &str) -> bool {
        self.files.contains_key(path)
            || self.deferred.contains_key(path)
            || self
                .spill
                .as_ref()
                .is_some_and(|s| s.written.contains_key(path))
    }

    /// An empty folder for [`crate::diff::diff_games`]: unpacking into it defers sprite frames
    /// and audio files as well as page PNGs (nothing decoded or copied until compared).
    pub(crate) fn for_diff() -> Folder {
        Folder {
            for_diff: true,
            ..Default::default()
        }
    }

    /// Takes the deferred files out (the folder keeps its other files).
    pub(crate) fn take_deferred(&mut self) -> BTreeMap<String, Deferred> {
        std::mem::take(&mut self.deferred)
    }

    /// A folder that writes every file inserted straight to `root` (an existing directory)
    /// instead of holding it: [`Folder::get`] and [`Folder::under`] do not see those files,
    /// [`Folder::read`], [`Folder::contains`] and [`Folder::paths_under`] do. Deferred files
    /// stay deferred until written ([`Folder::write_dir`] is not for such a folder: unpack
    /// writes them into `root` itself).
    pub(crate) fn spilling(root: impl Into<PathBuf>) -> Folder {
        Folder {
            spill: Some(Spill {
                root: root.into(),
                ..Default::default()
            }),
            ..Default::default()
        }
    }

    /// The first failed write of a [`Folder::spilling`] folder.
    pub(crate) fn spill_error(&self) -> Result<()> {
        match self.spill.as_ref().and_then(|s| s.error.clone()) {
            Some(e) => Err(e),
            None => Ok(()),
        }
    }

    /// The frame records' notes of the files a [`Folder::spilling`] folder wrote.
    pub(crate) fn spilled_notes(&self) -> &[(String, String)] {
        self.spill.as_ref().map_or(&[], |s| &s.notes)
    }

    /// Adds or replaces files, all at once (a spilling folder writes them in parallel).
    pub(crate) fn insert_all(&mut self, files: Vec<(String, Vec<u8>)>) {
        for (p, _) in &files {
            self.deferred.remove(p);
        }
        match &mut self.spill {
            Some(s) => s.write_all(files),
            None => self.files.extend(files),
        }
    }

    /// A file's bytes, deferred or not: a deferred file is produced or read from disk (errors
    /// name it). `None` when the folder has no such file.
    pub fn read(&self, path: &str) -> Result<Option<Cow<'_, [u8]>>> {
        if let Some(b) = self.files.get(path) {
            return Ok(Some(Cow::Borrowed(b)));
        }
        if let Some(s) = &self.spill
            && s.written.contains_key(path)
        {
            let full = s.root.join(path);
            let b = reader::read_file(&full, path, reader::limit_for(path), reader::Links::Refuse)?;
            return Ok(Some(Cow::Owned(b)));
        }
        match self.deferred.get(path) {
            None => Ok(None),
            Some(Deferred::Shared(b)) => Ok(Some(Cow::Borrowed(b))),
            Some(d) => Ok(d
                .produce(path)?
                .into_iter()
                .find(|(p, _)| p == path)
                .map(|(_, b)| Cow::Owned(b))),
        }
    }

    /// A file's bytes as [`Bytes`], for a payload the packed model keeps (a stored page, an
    /// audio file): a file left on disk ([`Folder::read_dir_lazy`]) is memory-mapped (its pages
    /// read only when the model is written, never copied; see [`gmkit_data::map_file`]) after
    /// the same checks as [`Folder::read`] (a regular file, within its size limit), and its size
    /// and time kept for [`Folder::payload_check`]. `None` when the folder has no such file.
    pub fn read_bytes(&self, path: &str) -> Result<Option<Bytes>> {
        if let Some(Deferred::Disk(full)) = self.deferred.get(path) {
            let meta = std::fs::symlink_metadata(full)
                .map_err(|e| Error::new(path, "", format!("cannot stat: {e}")))?;
            if !meta.file_type().is_file() {
                return Err(Error::new(
                    path,
                    "",
                    format!(
                        "expected a regular file, found {}",
                        reader::kind_name(&meta.file_type())
                    ),
                ));
            }
            reader::check_size(full, path)?;
            let bytes = gmkit_data::map_file(full)
                .map_err(|e| Error::new(path, "", format!("cannot read: {e}")))?;
            if bytes.len() as u64 != meta.len() {
                return Err(Error::new(
                    path,
                    "",
                    "changed on disk while it was read: pack again",
                ));
            }
            if let Ok(mut m) = self.mapped.0.lock() {
                m.push((
                    path.to_owned(),
                    full.clone(),
                    meta.len(),
                    meta.modified().ok(),
                ));
            }
            return Ok(Some(bytes));
        }
        if let Some(Deferred::Shared(b)) = self.deferred.get(path) {
            return Ok(Some(b.clone()));
        }
        Ok(self.read(path)?.map(|b| Bytes::from(b.into_owned())))
    }

    /// The check of the files [`Folder::read_bytes`] mapped so far: call its
    /// [`PayloadCheck::check`] after the model packed from them is written and before the
    /// output replaces anything.
    pub fn payload_check(&self) -> PayloadCheck {
        PayloadCheck(self.mapped.0.lock().map(|m| m.clone()).unwrap_or_default())
    }

    /// The paths of every file under `dir/` (deferred or not), in order.
    pub fn paths_under(&self, dir: &str) -> Vec<&str> {
        let prefix = format!("{dir}/");
        let mut out: Vec<&str> = self
            .files
            .range(prefix.clone()..)
            .map(|(k, _)| k.as_str())
            .take_while(|k| k.starts_with(&prefix))
            .collect();
        out.extend(
            self.deferred
                .range(prefix.clone()..)
                .map(|(k, _)| k.as_str())
                .take_while(|k| k.starts_with(&prefix)),
        );
        if let Some(s) = &self.spill {
            out.extend(
                s.written
                    .range(prefix.clone()..)
                    .map(|(k, _)| k.as_str())
                    .take_while(|k| k.starts_with(&prefix)),
            );
        }
        out.sort_unstable();
        out
    }

    /// The paths of every file (deferred or not), in order.
    pub fn paths(&self) -> Vec<&str> {
        let mut out: Vec<&str> = self.files.keys().map(String::as_str).collect();
        out.extend(self.deferred.keys().map(String::as_str));
        if let Some(s) = &self.spill {
            out.extend(s.written.keys().map(String::as_str));
        }
        out.sort_unstable();
        out
    }

    /// Number of files, deferred ones included.
    pub fn len(&self) -> usize {
        self.files.len() + self.deferred.len() + self.spill.as_ref().map_or(0, |s| s.written.len())
    }

    /// Whether the folder has no file.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Produces every deferred file into [`Folder::files`] (pages in parallel, each page's
    /// decoded image dropped once its PNG is encoded), so the whole folder is in memory.
    pub fn materialize(&mut self) -> Result<()> {
        use rayon::prelude::*;
        let deferred = std::mem::take(&mut self.deferred);
        let produced: Vec<Vec<(String, Vec<u8>)>> = deferred
            .par_iter()
            .map(|(p, d)| d.produce(p))
            .collect::<Result<_>>()?;
        for (p, b) in produced.into_iter().flatten() {
            self.files.insert(p, b);
        }
        Ok(())
    }

    /// Adds or replaces a file.
    pub fn insert(&mut self, path: impl Into<String>, bytes: Vec<u8>) {
        let path = path.into();
        self.deferred.remove(&path);
        match &mut self.spill {
            Some(s) => s.write_all(vec![(path, bytes)]),
            None => {
                self.files.insert(path, bytes);
            }
        }
    }

    /// A file's bytes (a file held in memory: not a deferred one, see [`Folder::read`]).
    pub fn get(&self, path: &str) -> Option<&[u8]> {
        self.files.get(path).map(|v| v.as_slice())
    }

    /// The files directly or indirectly under `dir/`, as (path, bytes).
    pub fn under<'a>(&'a self, dir: &str) -> impl Iterator<Item = (&'a str, &'a [u8])> + 'a {
        let prefix = format!("{dir}/");
        self.files
            .range(prefix.clone()..)
            .take_while(move |(k, _)| k.starts_with(&prefix))
            .map(|(k, v)| (k.as_str(), v.as_slice()))
    }

    /// Total size of the files in bytes (of a deferred file: its stored bytes when known,
    /// otherwise 0).
    pub fn size(&self) -> usize {
        self.files.values().map(Vec::len).sum::<usize>()
            + self
                .deferred
                .values()
                .map(|d| match d {
                    Deferred::Shared(b) => b.len(),
                    Deferred::Text(_, n) => *n as usize,
                    _ => 0,
                })
                .sum::<usize>()
            + self
                .spill
                .as_ref()
                .map_or(0, |s| s.written.values().map(|&n| n as usize).sum())
    }

    /// Reads every file under `dir` (hidden files and directories, like `.git`, are skipped)
    /// through [`crate::reader`]: regular files only (a symbolic link, FIFO, device or socket
    /// is an error naming it), each within its size limit, at most
    /// [`MAX_FILES`](crate::reader::MAX_FILES) files and [`MAX_DEPTH`](crate::reader::MAX_DEPTH)
    /// levels of directories. Errors name the file relative to `dir`. Texture page images
    /// (the files beside `textures/NNNN.json`) stay on disk until [`Folder::read`] reads them
    /// (pack reads them one at a time); [`Folder::materialize`] reads them all.
    pub fn read_dir(dir: impl AsRef<Path>) -> Result<Folder> {
        Folder::read_dir_with(dir.as_ref(), crate::pages::is_page_image)
    }

    /// [`Folder::read_dir`] leaving every payload on disk until [`Folder::read`] reads it:
    /// texture page images and stored blobs, audio files (`audio/NNNN.ext`, a sound's
    /// `sounds/NAME.ext`) and the JSON of the elements pack reads one at a time
    /// ([`is_element_json`]), so that pack holds one payload or element being read at a time
    /// besides the model. [`Folder::get`] and [`Folder::under`] do not see those files
    /// ([`Folder::read`], [`Folder::paths`] and [`Folder::paths_under`] do).
    pub fn read_dir_lazy(dir: impl AsRef<Path>) -> Result<Folder> {
        Folder::read_dir_with(dir.as_ref(), |rel| {
            crate::pages::is_page_image(rel) || is_audio_file(rel) || is_element_json(rel)
        })
    }

    /// Reads the files under `dir`, leaving those for which `later` holds on disk.
    fn read_dir_with(dir: &Path, later: fn(&str) -> bool) -> Result<Folder> {
        let paths = collect(dir)?;
        use rayon::prelude::*;
        let (later, now): (Vec<_>, Vec<_>) = paths.into_iter().partition(|(rel, _)| later(rel));
        let files = now
            .into_par_iter()
            .map(|(rel, full)| {
                let limit = reader::limit_for(&rel);
                reader::read_file(&full, &rel, limit, reader::Links::Refuse).map(|b| (rel, b))
            })
            .collect::<Result<BTreeMap<_, _>>>()?;
        let deferred = later
            .into_iter()
            .map(|(rel, full)| {
                reader::check_size(&full, &rel)?;
                if rel.ends_with(".json") {
                    let len = std::fs::symlink_metadata(&full).map_or(0, |m| m.len());
                    return Ok((rel, Deferred::Text(full, len)));
                }
                Ok((rel, Deferred::Disk(full)))
            })
            .collect::<Result<_>>()?;
        Ok(Folder {
            files,
            deferred,
            spill: None,
            mapped: Mapped::default(),
            for_diff: false,
        })
    }

    /// Writes the folder to `dir`, which must not exist or be empty. The files go to a temporary
    /// directory beside it first, which is renamed to `dir` when complete, so a failed write
    /// leaves nothing half-written behind.
    ///
    /// Deferred files are produced as they are written, in parallel on rayon's threads (one
    /// page per thread at a time), so the pages are never all in memory.
    pub fn write_dir(&self, dir: impl AsRef<Path>) -> Result<()> {
        self.write_dir_counted(dir).map(|_| ())
    }

    /// [`Folder::write_dir`], returning the number of files and bytes written.
    pub(crate) fn write_dir_counted(&self, dir: impl AsRef<Path>) -> Result<(usize, u64)> {
        let dir = dir.as_ref();
        let tmp = prepare(dir)?;
        let result = self
            .write_into(&tmp)
            .and_then(|n| place(&tmp, dir).map(|()| n));
        if result.is_err() {
            let _ = std::fs::remove_dir_all(&tmp);
        }
        result
    }

    /// Writes the files held and the deferred ones into `root` (an existing directory), the
    /// deferred ones produced in parallel (one page per thread at a time); returns the number
    /// of files and bytes, those a [`Folder::spilling`] folder wrote already included.
    pub(crate) fn write_into(&self, root: &Path) -> Result<(usize, u64)> {
        self.spill_error()?;
        let mut dirs: Vec<PathBuf> = self
            .files
            .keys()
            .chain(self.deferred.keys())
            .filter_map(|k| Path::new(k).parent().map(|p| root.join(p)))
            .collect();
        dirs.sort();
        dirs.dedup();
        for d in dirs {
            std::fs::create_dir_all(&d).map_err(|e| {
                Error::new(d.display().to_string(), "", format!("cannot create: {e}"))
            })?;
        }
        use rayon::prelude::*;
        let write = |k: &str, v: &[u8]| {
            std::fs::write(root.join(k), v)
                .map_err(|e| Error::new(k, "", format!("cannot write: {e}")))
        };
        self.files.par_iter().try_for_each(|(k, v)| write(k, v))?;
        let mut count = self.files.len();
        let mut bytes: u64 = self.files.values().map(|v| v.len() as u64).sum();
        if let Some(s) = &self.spill {
            count += s.written.len();
            bytes += s.written.values().sum::<u64>();
        }
        let produced: Vec<(usize, u64)> = self
            .deferred
            .par_iter()
            .map(|(k, d)| {
                if let Deferred::Shared(b) = d {
                    return write(k, b).map(|()| (1, b.len() as u64));
                }
                let mut n = (0, 0);
                for (p, b) in d.produce(k)? {
                    write(&p, &b)?;
                    n.0 += 1;
                    n.1 += b.len() as u64;
                }
                Ok(n)
            })
            .collect::<Result<_>>()?;
        for (n, b) in produced {
            count += n;
            bytes += b;
        }
        Ok((count, bytes))
    }
}

/// Checks that `dir` is new or empty and makes a new temporary directory beside it (hidden,
/// named after it and this process), where a folder is written before [`place`] renames it.
pub(crate) fn prepare(dir: &Path) -> Result<PathBuf> {
    let shown = dir.display().to_string();
    if dir.exists() {
        let empty = std::fs::read_dir(dir)
            .map_err(|e| Error::new(&shown, "", format!("cannot read: {e}")))?
            .next()
            .is_none();
        if !empty {
            return Err(Error::new(
                &shown,
                "",
                "expected a new or empty directory (it holds files; unpack never mixes its files with others)",
            ));
        }
    }
    let parent = dir
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "folder".into());
    let tmp = parent.join(format!(".{name}.gmkit-tmp-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    std::fs::create_dir_all(&tmp)
        .map_err(|e| Error::new(tmp.display().to_string(), "", format!("cannot create: {e}")))?;
    Ok(tmp)
}

/// Renames the complete temporary directory `tmp` ([`prepare`]) to `dir` (replacing it when
/// it is an empty directory).
pub(crate) fn place(tmp: &Path, dir: &Path) -> Result<()> {
    let shown = dir.display().to_string();
    if dir.exists() {
        std::fs::remove_dir(dir)
            .map_err(|e| Error::new(&shown, "", format!("cannot replace: {e}")))?;
    }
    std::fs::rename(tmp, dir)
        .map_err(|e| Error::new(&shown, "", format!("cannot rename into place: {e}")))
}

/// A folder path relative to its data file's part of the folder: `rel` itself at the top, the
/// rest after `audiogroups/NAME/` in an audio group's folder (`None`: the group's folder itself).
fn in_group_or_top(rel: &str) -> Option<&str> {
    match rel
        .strip_prefix(crate::layout::AUDIO_GROUPS)
        .and_then(|r| r.strip_prefix('/'))
    {
        Some(r) => r.split_once('/').map(|(_, r)| r),
        None => Some(rel),
    }
}

/// Whether a folder path is an audio file: `audio/NNNN.ext` or a sound's own `sounds/NAME.ext`
/// (at the top or in an audio group's folder).
pub(crate) fn is_audio_file(rel: &str) -> bool {
    use crate::layout::AUDIO;
    let Some(rel) = in_group_or_top(rel) else {
        return false;
    };
    match rel.split_once('/') {
        Some((AUDIO, name)) => !name.contains('/'),
        Some(("sounds", name)) => !name.contains('/') && !name.ends_with(".json"),
        _ => false,
    }
}

/// Whether a folder path is the JSON of an element pack reads when the model reaches it (see
/// `crate::lazy`), at the top or in an audio group's folder: a split chunk's element
/// (`paths/0003_path_x.json`), a flat chunk's (`sounds/snd_jump.json`), or the element file of
/// a folder chunk whose JSON pack does not edit (`rooms/room_x/room.json`). Not a chunk's own
/// fields (`_chunk.json`), code headers, texture page records, or the objects', sprites',
/// backgrounds' and fonts' files (pack edits those as values first).
pub(crate) fn is_element_json(rel: &str) -> bool {
    use crate::layout::{CHUNK_REST, TEXTURES};
    let Some(rel) = in_group_or_top(rel) else {
        return false;
    };
    let segs: Vec<&str> = rel.split('/').collect();
    let edited = crate::pack::EDITED_BEFORE_READ;
    match segs.as_slice() {
        [field, file] => {
            file.ends_with(".json")
                && *file != CHUNK_REST
                && *field != crate::code::DIR
                && *field != TEXTURES
                && !edited.contains(field)
        }
        [field, _, file] => {
            !edited.contains(field) && crate::assets::folder_file(field) == Some(*file)
        }
        _ => false,
    }
}

/// The files under `dir` as (relative path, full path), walking directories without following
/// links (a link, FIFO, device or socket found is an error).
fn collect(dir: &Path) -> Result<Vec<(String, PathBuf)>> {
    let mut out = Vec::new();
    // (relative path, full path, depth): a stack, so that no nesting overflows the stack.
    let mut todo = vec![(String::new(), dir.to_owned(), 0usize)];
    while let Some((rel, full, depth)) = todo.pop() {
        let shown = if rel.is_empty() { "." } else { rel.as_str() };
        let rd = std::fs::read_dir(&full)
            .map_err(|e| Error::new(shown, "", format!("cannot read directory: {e}")))?;
        for entry in rd {
            let entry =
                entry.map_err(|e| Error::new(shown, "", format!("cannot read directory: {e}")))?;
            let name = entry.file_name().to_string_lossy().into_owned();
            if name.starts_with('.') {
                continue;
            }
            let r = if rel.is_empty() {
                name
            } else {
                format!("{rel}/{name}")
            };
            // The entry itself, never what a link points to.
            let ft = entry
                .file_type()
                .map_err(|e| Error::new(&r, "", format!("cannot stat: {e}")))?;
            if ft.is_dir() {
                if depth + 1 >= reader::MAX_DEPTH {
                    return Err(Error::new(
                        &r,
                        "",
                        format!(
                            "expected at most {} levels of directories (the folder layout uses 5)",
                            reader::MAX_DEPTH
                        ),
                    ));
                }
                todo.push((r, entry.path(), depth + 1));
            } else if ft.is_file() {
                if out.len() >= reader::MAX_FILES {
                    return Err(Error::new(
                        &r,
                        "",
                        format!("expected at most {} files in the folder", reader::MAX_FILES),
                    ));
                }
                out.push((r, entry.path()));
            } else {
                return Err(Error::new(
                    &r,
                    "",
                    format!(
                        "expected a regular file or a directory, found {}",
                        reader::kind_name(&ft)
                    ),
                ));
            }
        }
    }
    Ok(out)
}
