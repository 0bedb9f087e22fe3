//! Errors of unpack and pack: each names the folder file, the field and what was expected.

use std::fmt;

/// Why a folder could not be packed (or a data file unpacked).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    /// The folder file at fault, relative to the folder (`/`-separated); empty when none.
    pub file: String,
    /// The field inside that file (`sprites[3].width`, `frames[2]`); empty when the whole file.
    pub field: String,
    /// What was expected and what was found.
    pub message: String,
}

impl Error {
    /// An error about `file`.
    pub fn new(
        file: impl Into<String>,
        field: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        Error {
            file: file.into(),
            field: field.into(),
            message: message.into(),
        }
    }
}

/// One line: `file: field: message`.
impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.file.is_empty() {
            write!(f, "{}: ", self.file)?;
        }
        if !self.field.is_empty() {
            write!(f, "{}: ", self.field)?;
        }
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

/// Result of this crate.
pub type Result<T> = std::result::Result<T, Error>;
