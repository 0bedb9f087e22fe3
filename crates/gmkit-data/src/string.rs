//! GameMaker strings: the entries of the STRG chunk.

use bytes::Bytes;
use std::borrow::Cow;
use std::fmt;

/// A string as stored in the file: bytes (normally UTF-8) shared with the input without copying.
///
/// ```
/// use gmkit_data::GmString;
/// let s = GmString::from("hello");
/// assert_eq!(s.to_str().unwrap(), "hello");
/// ```
#[derive(Clone, PartialEq, Eq, Hash, Default)]
pub struct GmString(pub Bytes);

impl GmString {
    /// The raw bytes (without the length prefix and the terminating zero).
    pub fn as_bytes(&self) -> &[u8] {
        &self.0
    }
    /// The text, if it is valid UTF-8.
    pub fn to_str(&self) -> Result<&str, std::str::Utf8Error> {
        std::str::from_utf8(&self.0)
    }
    /// The text, with invalid UTF-8 replaced.
    pub fn to_string_lossy(&self) -> Cow<'_, str> {
        String::from_utf8_lossy(&self.0)
    }
    /// Length in bytes.
    pub fn len(&self) -> usize {
        self.0.len()
    }
    /// Whether the string is empty.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl From<&str> for GmString {
    fn from(s: &str) -> Self {
        GmString(Bytes::copy_from_slice(s.as_bytes()))
    }
}
impl From<String> for GmString {
    fn from(s: String) -> Self {
        GmString(Bytes::from(s.into_bytes()))
    }
}
impl PartialEq<str> for GmString {
    fn eq(&self, o: &str) -> bool {
        &self.0[..] == o.as_bytes()
    }
}
impl PartialEq<&str> for GmString {
    fn eq(&self, o: &&str) -> bool {
        &self.0[..] == o.as_bytes()
    }
}
impl fmt::Display for GmString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_string_lossy())
    }
}
impl fmt::Debug for GmString {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.to_string_lossy())
    }
}
