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

/// A borrowed GameMaker string: bytes (normally UTF-8), as [`str`] is to [`String`].
///
/// ```
/// use gmkit_data::GmStr;
/// let s = GmStr::new(b"hello");
/// assert_eq!(s, "hello");
/// assert_eq!(s.to_str().unwrap(), "hello");
/// ```
#[derive(PartialEq, Eq, Hash)]
#[repr(transparent)]
pub struct GmStr([u8]);

impl GmStr {
    /// Wraps bytes.
    pub fn new(bytes: &[u8]) -> &GmStr {
        // SAFETY: `GmStr` is `repr(transparent)` over `[u8]`, so the two references have the same
        // layout and metadata (the same pattern as `std::path::Path` over `OsStr`).
        unsafe { &*(bytes as *const [u8] as *const GmStr) }
    }
    /// The raw bytes.
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

impl PartialEq<str> for GmStr {
    fn eq(&self, o: &str) -> bool {
        &self.0 == o.as_bytes()
    }
}
impl PartialEq<&str> for GmStr {
    fn eq(&self, o: &&str) -> bool {
        &self.0 == o.as_bytes()
    }
}
impl fmt::Display for GmStr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_string_lossy())
    }
}
impl fmt::Debug for GmStr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?}", self.to_string_lossy())
    }
}
impl std::ops::Deref for GmString {
    type Target = GmStr;
    fn deref(&self) -> &GmStr {
        GmStr::new(&self.0)
    }
}
impl std::borrow::Borrow<GmStr> for GmString {
    fn borrow(&self) -> &GmStr {
        self
    }
}
impl ToOwned for GmStr {
    type Owned = GmString;
    fn to_owned(&self) -> GmString {
        GmString(Bytes::copy_from_slice(&self.0))
    }
}
