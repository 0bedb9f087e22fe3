//! Errors of unpack and pack: each names the folder file, the field and what was expected.
//!
//! Every message is one line of bounded length: [`Error`]'s display escapes control
//! characters and truncates each part ([`one_line`]), and names taken from the input are quoted
//! with [`quote`], so a hostile name (a newline, an escape sequence, a megabyte of text) cannot
//! forge lines or flood the terminal.

use std::fmt;

/// At most this many characters of a quoted name ([`quote`]).
pub const MAX_QUOTED: usize = 120;
/// At most this many characters of an error's file or field part.
pub const MAX_PART: usize = 240;
/// At most this many characters of an error's message part (a line stays under a screen).
pub const MAX_MESSAGE: usize = 600;

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

/// One line: `file: field: message`, control characters escaped, each part truncated.
impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.file.is_empty() {
            write!(f, "{}: ", one_line(&self.file, MAX_PART))?;
        }
        if !self.field.is_empty() {
            write!(f, "{}: ", one_line(&self.field, MAX_PART))?;
        }
        f.write_str(&one_line(&self.message, MAX_MESSAGE))
    }
}

impl std::error::Error for Error {}

/// Result of this crate.
pub type Result<T> = std::result::Result<T, Error>;

pub use gmkit_data::text::one_line;

/// A name from the input in double quotes, escaped like a Rust string (control characters,
/// quotes and backslashes) and truncated to [`MAX_QUOTED`] characters.
pub fn quote(name: &str) -> String {
    gmkit_data::text::quoted(name, MAX_QUOTED)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_and_control_text_stays_one_short_line() {
        let e = Error::new("a\nb.json", "x\u{1b}[2J", "z".repeat(1 << 20));
        let s = e.to_string();
        assert!(!s.contains('\n') && !s.contains('\u{1b}'), "{s}");
        assert!(s.len() < 1200, "{}", s.len());
        assert!(s.starts_with("a\\nb.json: x\\u{1b}[2J: zzz"), "{s}");
        assert!(s.ends_with(&format!("({} more characters)", (1 << 20) - MAX_MESSAGE)));
    }

    #[test]
    fn quote_escapes_and_truncates() {
        assert_eq!(quote("a\"b\n"), r#""a\"b\n""#);
        let q = quote(&"x".repeat(1000));
        assert!(q.len() < MAX_QUOTED + 40 && q.contains("880 more"), "{q}");
    }
}
