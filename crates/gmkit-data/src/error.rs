//! Errors: what was expected, what was found, and where.

use crate::chunk::ChunkName;
use crate::version::VersionReport;
use std::fmt;

/// Where in a data file an error happened.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Location {
    /// The chunk being read or written, if any.
    pub chunk: Option<ChunkName>,
    /// The element (asset) being read, as (kind, index), if any.
    pub element: Option<(&'static str, usize)>,
    /// Absolute byte offset in the file.
    pub offset: usize,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(c) = self.chunk {
            write!(f, "chunk {c}, ")?;
        }
        if let Some((kind, i)) = self.element {
            write!(f, "{kind} #{i}, ")?;
        }
        if self.offset == 0 && self.chunk.is_some() {
            // A model error (nothing is written at offset 0 of a chunk).
            return write!(f, "in the model");
        }
        write!(f, "byte offset {} (0x{:X})", self.offset, self.offset)
    }
}

/// What went wrong.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum ErrorKind {
    /// The data ended before a field could be read.
    #[error("unexpected end of data: needed {needed} bytes for {what}, {available} available")]
    Truncated {
        /// What was being read.
        what: &'static str,
        /// Bytes needed.
        needed: usize,
        /// Bytes left.
        available: usize,
    },
    /// A value did not have the expected form.
    #[error("invalid {what}: expected {expected}, found {found}")]
    Invalid {
        /// The field.
        what: &'static str,
        /// What the format requires.
        expected: String,
        /// What the file holds.
        found: String,
    },
    /// A pointer or reference does not lead to a valid target.
    #[error("bad reference in {what}: {found} does not point to {expected}")]
    BadReference {
        /// The field.
        what: &'static str,
        /// What kind of target was expected.
        expected: &'static str,
        /// The pointer or index found.
        found: String,
    },
    /// A count is larger than the data can hold.
    #[error("{what} count {count} is too large for the {available} bytes left")]
    CountTooLarge {
        /// The list.
        what: &'static str,
        /// The count found.
        count: u64,
        /// Bytes available.
        available: usize,
    },
    /// A model could not be written (inconsistent references, values out of range).
    #[error("cannot write {what}: {reason}")]
    Unwritable {
        /// What was being written.
        what: &'static str,
        /// Why it cannot be.
        reason: String,
    },
    /// The model breaks a rule of the format: a reference out of range, a null slot the
    /// version does not allow, a room missing from the room order (found by
    /// [`crate::DataFile::validate`], which [`crate::build_bytes`] runs before writing).
    #[error("invalid model: {0}")]
    InvalidModel(Box<ModelProblem>),
    /// An I/O error while reading or writing a file (the text names the file).
    #[error("I/O error: {0}")]
    Io(String),
    /// The file a model was parsed from changed on disk while the model lived (see
    /// [`crate::parse_file`]): the model's views of it are no longer what was read.
    #[error("{0}")]
    SourceChanged(String),
}

/// A rule of the format that a model breaks (see [`ErrorKind::InvalidModel`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ModelProblem {
    /// The element (`object #3 "obj_player"`).
    pub element: String,
    /// The field (`instances[7].object`).
    pub field: String,
    /// What the format requires.
    pub expected: String,
    /// What the model holds.
    pub found: String,
}

impl fmt::Display for ModelProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ModelProblem {
            element,
            field,
            expected,
            found,
        } = self;
        write!(
            f,
            "{element}, field {field}: expected {expected}, found {found}"
        )
    }
}

/// An error with its location in the file.
#[derive(Clone, Debug, PartialEq)]
pub struct Error {
    /// What went wrong.
    pub kind: ErrorKind,
    /// Where it went wrong.
    pub location: Location,
    /// For a chunk that failed to parse: the version the rest of the file points to, and why.
    pub version: Option<Box<VersionReport>>,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.names_the_file() && self.location == Location::default() {
            // Not about a place in the data: the text names the file.
            write!(f, "{}", self.kind)?;
        } else {
            write!(f, "{} ({})", self.kind, self.location)?;
        }
        if let Some(v) = &self.version {
            write!(f, "; the file looks like {v}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Error {}

impl Error {
    /// Whether the message already names the file it is about (I/O errors and a source file
    /// that changed): a front end then adds no path of its own.
    pub fn names_the_file(&self) -> bool {
        matches!(self.kind, ErrorKind::Io(_) | ErrorKind::SourceChanged(_))
    }

    /// An error at a location.
    pub fn new(kind: ErrorKind, location: Location) -> Self {
        Error {
            kind,
            location,
            version: None,
        }
    }
    /// An error at a plain byte offset, with no chunk or element.
    pub fn at(offset: usize, kind: ErrorKind) -> Self {
        Error {
            kind,
            location: Location {
                offset,
                ..Default::default()
            },
            version: None,
        }
    }
    /// Adds the chunk name where not set yet.
    pub fn in_chunk(mut self, chunk: ChunkName) -> Self {
        self.location.chunk.get_or_insert(chunk);
        self
    }
}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Self {
        Error::at(0, ErrorKind::Io(e.to_string()))
    }
}

/// The result type of this crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Shorthand for an [`ErrorKind::Invalid`].
pub(crate) fn invalid(
    what: &'static str,
    expected: impl fmt::Display,
    found: impl fmt::Display,
) -> ErrorKind {
    ErrorKind::Invalid {
        what,
        expected: expected.to_string(),
        found: found.to_string(),
    }
}
