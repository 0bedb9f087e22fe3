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
}

impl Deferred {
    /// The files this entry produces: (path, bytes); a [`Deferred::PagePng`] gives its PNG (if
    /// the page can be decoded) and its record.
    fn produce(&self, path: &str) -> Result<Vec<(String, Vec<u8>)>> {
        match self {
            Deferred::Shared(b) => Ok(vec![(path.to_owned(), b.to_vec())]),
            Deferred::Disk(full) => {
                let b =
                    reader::read_file(full, path, reader::limit_for(path), reader::Links::Refuse)?;
                Ok(vec![(path.to_owned(), b)])
            }
            Deferred::PagePng {
                blob,
                record,
                record_path,
            } => Ok(crate::pages::produce(blob, record, record_path, path)),
        }
    }
}

impl Folder {
    /// Adds a file whose bytes are produced when needed (replacing any file at `path`).
    pub(crate) fn defer(&mut self, path: impl Into<String>, what: Deferred) {
        let path = path.into();
        self.files.remove(&path);
        self.deferred.insert(path, what);
    }

    /// Whether the folder has a file at `path` (deferred or not).
    pub fn contains(&self, path: &str) -> bool {
        self.files.contains_key(path) || self.deferred.contains_key(path)
    }

    /// A file's bytes, deferred or not: a deferred file is produced or read from disk (errors
    /// name it). `None` when the folder has no such file.
    pub fn read(&self, path: &str) -> Result<Option<Cow<'_, [u8]>>> {
        if let Some(b) = self.files.get(path) {
            return Ok(Some(Cow::Borrowed(b)));
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
        out.sort_unstable();
        out
    }

    /// Number of files, deferred ones included.
    pub fn len(&self) -> usize {
        self.files.len() + self.deferred.len()
    }

    /// Whether the folder has no file.
    pub fn is_empty(&self) -> bool {
        self.files.is_empty() && self.deferred.is_empty()
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
        self.files.insert(path, bytes);
    }

    /// A file's bytes.
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
                    _ => 0,
                })
                .sum::<usize>()
    }

    /// Reads every file under `dir` (hidden files and directories, like `.git`, are skipped)
    /// through [`crate::reader`]: regular files only (a symbolic link, FIFO, device or socket
    /// is an error naming it), each within its size limit, at most
    /// [`MAX_FILES`](crate::reader::MAX_FILES) files and [`MAX_DEPTH`](crate::reader::MAX_DEPTH)
    /// levels of directories. Errors name the file relative to `dir`. Texture page images
    /// (the files beside `textures/NNNN.json`) stay on disk until [`Folder::read`] reads them
    /// (pack reads them one at a time); [`Folder::materialize`] reads them all.
    pub fn read_dir(dir: impl AsRef<Path>) -> Result<Folder> {
        let dir = dir.as_ref();
        let paths = collect(dir)?;
        use rayon::prelude::*;
        let (later, now): (Vec<_>, Vec<_>) = paths
            .into_iter()
            .partition(|(rel, _)| crate::pages::is_page_image(rel));
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
                Ok((rel, Deferred::Disk(full)))
            })
            .collect::<Result<_>>()?;
        Ok(Folder { files, deferred })
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
        let result = (|| {
            let _ = std::fs::remove_dir_all(&tmp);
            std::fs::create_dir_all(&tmp).map_err(|e| {
                Error::new(tmp.display().to_string(), "", format!("cannot create: {e}"))
            })?;
            let mut dirs: Vec<PathBuf> = self
                .files
                .keys()
                .chain(self.deferred.keys())
                .filter_map(|k| Path::new(k).parent().map(|p| tmp.join(p)))
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
                std::fs::write(tmp.join(k), v)
                    .map_err(|e| Error::new(k, "", format!("cannot write: {e}")))
            };
            self.files.par_iter().try_for_each(|(k, v)| write(k, v))?;
            let mut count = self.files.len();
            let mut bytes: u64 = self.files.values().map(|v| v.len() as u64).sum();
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
            if dir.exists() {
                std::fs::remove_dir(dir)
                    .map_err(|e| Error::new(&shown, "", format!("cannot replace: {e}")))?;
            }
            std::fs::rename(&tmp, dir)
                .map_err(|e| Error::new(&shown, "", format!("cannot rename into place: {e}")))?;
            Ok((count, bytes))
        })();
        if result.is_err() {
            let _ = std::fs::remove_dir_all(&tmp);
        }
        result
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
