//! A folder held in memory: relative paths to file contents. Unpack fills one, pack reads one;
//! [`Folder::read_dir`] and [`Folder::write_dir`] move it to and from disk, so a front end without
//! a file system (a browser page) can use the same unpack and pack.

use crate::error::{Error, Result};
use crate::reader;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The files of an unpacked game: `/`-separated relative paths to their bytes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Folder {
    /// Files by relative path (`sprites/0003_spr_player.json`).
    pub files: BTreeMap<String, Vec<u8>>,
}

impl Folder {
    /// Adds or replaces a file.
    pub fn insert(&mut self, path: impl Into<String>, bytes: Vec<u8>) {
        self.files.insert(path.into(), bytes);
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

    /// Total size of the files in bytes.
    pub fn size(&self) -> usize {
        self.files.values().map(Vec::len).sum()
    }

    /// Reads every file under `dir` (hidden files and directories, like `.git`, are skipped)
    /// through [`crate::reader`]: regular files only (a symbolic link, FIFO, device or socket
    /// is an error naming it), each within its size limit, at most
    /// [`MAX_FILES`](crate::reader::MAX_FILES) files and [`MAX_DEPTH`](crate::reader::MAX_DEPTH)
    /// levels of directories. Errors name the file relative to `dir`.
    pub fn read_dir(dir: impl AsRef<Path>) -> Result<Folder> {
        let dir = dir.as_ref();
        let paths = collect(dir)?;
        use rayon::prelude::*;
        let files = paths
            .into_par_iter()
            .map(|(rel, full)| {
                let limit = reader::limit_for(&rel);
                reader::read_file(&full, &rel, limit, reader::Links::Refuse).map(|b| (rel, b))
            })
            .collect::<Result<BTreeMap<_, _>>>()?;
        Ok(Folder { files })
    }

    /// Writes the folder to `dir`, which must not exist or be empty. The files go to a temporary
    /// directory beside it first, which is renamed to `dir` when complete, so a failed write
    /// leaves nothing half-written behind.
    pub fn write_dir(&self, dir: impl AsRef<Path>) -> Result<()> {
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
                .filter_map(|k| Path::new(k).parent().map(|p| tmp.join(p)))
                .collect();
            dirs.dedup();
            for d in dirs {
                std::fs::create_dir_all(&d).map_err(|e| {
                    Error::new(d.display().to_string(), "", format!("cannot create: {e}"))
                })?;
            }
            use rayon::prelude::*;
            self.files.par_iter().try_for_each(|(k, v)| {
                std::fs::write(tmp.join(k), v)
                    .map_err(|e| Error::new(k.clone(), "", format!("cannot write: {e}")))
            })?;
            if dir.exists() {
                std::fs::remove_dir(dir)
                    .map_err(|e| Error::new(&shown, "", format!("cannot replace: {e}")))?;
            }
            std::fs::rename(&tmp, dir)
                .map_err(|e| Error::new(&shown, "", format!("cannot rename into place: {e}")))
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
