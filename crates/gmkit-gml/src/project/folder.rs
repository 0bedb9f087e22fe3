//! The project folder as a closed world. Projects come from strangers: the paths a `.yyp` or
//! `.project.gmx` names (`../../etc/passwd`, `/dev/zero`) and the symbolic links in the folder
//! may point anywhere. The readers read only regular files that resolve inside the project
//! folder, each at most [`MAX_PROJECT_FILE_BYTES`] long; any other file is refused, and the
//! whole project with it, with an error naming the file (relative to the project) and why.

use super::ProjectError;
use std::cell::RefCell;
use std::io::Read;
use std::path::{Path, PathBuf};

/// Largest file of a project the readers read (a `.gml`, `.yy`, `.yyp`, `.gmx`): as much as
/// one piece of GML may hold ([`crate::lex::MAX_SOURCE_BYTES`], 16 MiB); the largest files of
/// the projects in the test sources are under 1 MiB.
pub const MAX_PROJECT_FILE_BYTES: u64 = crate::lex::MAX_SOURCE_BYTES as u64;

/// Longest path quoted whole in an error message.
const MAX_SHOWN_PATH_CHARS: usize = 160;

/// `path` for an error message: control characters escaped, long paths cut (marked `…`).
pub fn shown_path(path: &Path) -> String {
    gmkit_data::text::one_line(&path.to_string_lossy(), MAX_SHOWN_PATH_CHARS)
}

/// A project folder the readers read files from.
pub struct ProjectFolder {
    /// The folder as given.
    root: PathBuf,
    /// The folder with every link resolved.
    canonical: PathBuf,
    /// The first file refused (it fails the whole project: [`ProjectFolder::finish`]).
    refused: RefCell<Option<(PathBuf, String)>>,
}

impl ProjectFolder {
    /// The folder `root`.
    pub fn open(root: &Path) -> Result<ProjectFolder, ProjectError> {
        let canonical = root.canonicalize().map_err(|source| ProjectError::Io {
            path: root.to_path_buf(),
            source,
        })?;
        Ok(ProjectFolder {
            root: root.to_path_buf(),
            canonical,
            refused: RefCell::new(None),
        })
    }

    /// `path` inside the folder (not checked: reading checks).
    pub fn join(&self, path: impl AsRef<Path>) -> PathBuf {
        self.root.join(path)
    }

    /// `path` relative to the folder, for messages (`path` itself when it is not inside).
    pub fn relative<'p>(&self, path: &'p Path) -> &'p Path {
        path.strip_prefix(&self.root).unwrap_or(path)
    }

    fn refuse(&self, path: &Path, why: String) -> ProjectError {
        let file = self.relative(path).to_path_buf();
        self.refused
            .borrow_mut()
            .get_or_insert_with(|| (file.clone(), why.clone()));
        ProjectError::Refused { file, why }
    }

    /// The text of file `path` (a byte-order mark dropped, invalid UTF-8 replaced): a file
    /// that does not exist is an I/O error; one that resolves outside the folder, is not a
    /// regular file, or is longer than [`MAX_PROJECT_FILE_BYTES`] is refused.
    pub fn read_text(&self, path: &Path) -> Result<String, ProjectError> {
        let io = |source| ProjectError::Io {
            path: self.relative(path).to_path_buf(),
            source,
        };
        let canonical = path.canonicalize().map_err(io)?;
        if !canonical.starts_with(&self.canonical) {
            return Err(self.refuse(path, "resolves outside the project folder".into()));
        }
        let meta = std::fs::metadata(&canonical).map_err(io)?;
        if !meta.is_file() {
            return Err(self.refuse(
                path,
                "not a regular file (a folder, device, FIFO or socket)".into(),
            ));
        }
        let too_long = |len: u64| {
            self.refuse(
                path,
                format!(
                    "{len} bytes, more than the {MAX_PROJECT_FILE_BYTES} a project file may hold"
                ),
            )
        };
        if meta.len() > MAX_PROJECT_FILE_BYTES {
            return Err(too_long(meta.len()));
        }
        let file = std::fs::File::open(&canonical).map_err(io)?;
        // The file may have changed since: the handle is checked again and read bounded.
        let meta = file.metadata().map_err(io)?;
        if !meta.is_file() {
            return Err(self.refuse(path, "not a regular file".into()));
        }
        let mut bytes = Vec::with_capacity(meta.len().min(MAX_PROJECT_FILE_BYTES) as usize);
        file.take(MAX_PROJECT_FILE_BYTES + 1)
            .read_to_end(&mut bytes)
            .map_err(io)?;
        if bytes.len() as u64 > MAX_PROJECT_FILE_BYTES {
            return Err(too_long(bytes.len() as u64));
        }
        let s = match String::from_utf8(bytes) {
            Ok(s) => s,
            Err(e) => String::from_utf8_lossy(e.as_bytes()).into_owned(),
        };
        Ok(match s.strip_prefix('\u{feff}') {
            Some(t) => t.to_string(),
            None => s,
        })
    }

    /// Fails when a file was refused while reading (the first one).
    pub fn finish(&self) -> Result<(), ProjectError> {
        match self.refused.borrow_mut().take() {
            Some((file, why)) => Err(ProjectError::Refused { file, why }),
            None => Ok(()),
        }
    }
}
