//! Errors of every Elephant operation.

use std::fmt;

/// Result alias for Elephant operations.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Everything that can go wrong reading or writing Elephant data.
///
/// Read errors carry the byte `offset` (into the decoded buffer) where the problem was found;
/// write errors carry the offset in the output written so far.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// The input ended before a complete item could be read.
    #[error("truncated data at byte {offset}: expected {expected}, found only {available} byte(s)")]
    Truncated {
        /// Where the item starts.
        offset: usize,
        /// What was being read.
        expected: &'static str,
        /// How many bytes were left.
        available: usize,
    },
    /// The first four bytes are not Elephant's header.
    #[error("bad header at byte {offset}: expected 50 45 4C 45 (\"PELE\"), found {found}")]
    BadHeader {
        /// Offset of the header.
        offset: usize,
        /// The bytes found, in hex.
        found: String,
    },
    /// The four bytes after the root value are not Elephant's footer.
    #[error("bad footer at byte {offset}: expected 54 4E 41 48 (\"TNAH\"), found {found}")]
    BadFooter {
        /// Offset of the footer.
        offset: usize,
        /// The bytes found, in hex (or "end of data").
        found: String,
    },
    /// The version word is not one the 1.5.1 reader accepts.
    #[error(
        "unsupported Elephant version {major}.{minor}.{patch} at byte {offset} (word {word}): \
         expected 1.0.0, 1.1.0, 1.2.0, 1.2.1, 1.3.0, 1.4.0, 1.5.0 or 1.5.1"
    )]
    UnsupportedVersion {
        /// Offset of the version word.
        offset: usize,
        /// The raw version word.
        word: u32,
        /// Major part.
        major: u32,
        /// Minor part.
        minor: u32,
        /// Patch part.
        patch: u32,
    },
    /// A datatype byte that is neither a buffer type (1–13) nor an Elephant container code.
    #[error("unknown datatype code {code} at byte {offset}: expected 1-13 or {containers}")]
    UnknownDatatype {
        /// Offset of the datatype byte.
        offset: usize,
        /// The code found.
        code: u8,
        /// The container codes valid for this format version ("204-207" or "14-17").
        containers: &'static str,
    },
    /// A string that is not valid UTF-8.
    #[error("invalid UTF-8 in string at byte {offset}: expected UTF-8 text")]
    InvalidUtf8 {
        /// Offset of the first invalid byte.
        offset: usize,
    },
    /// A string without its NUL terminator.
    #[error(
        "missing string terminator: string at byte {offset} has no 0x00 before the end of data"
    )]
    MissingTerminator {
        /// Offset where the string starts.
        offset: usize,
    },
    /// A reference to a container id that has not been read (yet).
    #[error(
        "dangling reference at byte {offset}: expected a container id below {next_id}, found id {id}"
    )]
    DanglingReference {
        /// Offset of the reference marker.
        offset: usize,
        /// The id referred to.
        id: u16,
        /// The number of containers read so far.
        next_id: usize,
    },
    /// A constructor that the schema registry does not know (strict mode only).
    #[error(
        "could not resolve constructor function \"{name}\" at byte {offset}: expected a constructor registered in the schema registry"
    )]
    UnknownConstructor {
        /// Offset of the constructed struct.
        offset: usize,
        /// The constructor name.
        name: String,
    },
    /// A constructor index that was never introduced with a name (legacy data only).
    #[error(
        "unknown constructor index {index} at byte {offset}: expected an index introduced earlier with its name"
    )]
    UnknownConstructorIndex {
        /// Offset of the index.
        offset: usize,
        /// The index found.
        index: u16,
    },
    /// A non-verbose constructed struct whose constructor has no schema.
    #[error(
        "no Elephant schema found for constructor \"{constructor}\" at byte {offset}, but a schema is required for importing"
    )]
    MissingSchema {
        /// Offset of the struct (read) or output position (write).
        offset: usize,
        /// The constructor name.
        constructor: String,
    },
    /// A non-verbose constructed struct whose schema version is not in the registry.
    #[error(
        "no Elephant \"v{version}\" schema found for constructor \"{constructor}\" at byte {offset}"
    )]
    MissingSchemaVersion {
        /// Offset of the struct (read) or output position (write).
        offset: usize,
        /// The constructor name.
        constructor: String,
        /// The version asked for.
        version: u32,
    },
    /// A skip-list entry naming a field the schema does not have.
    #[error(
        "bad skip-list entry {entry} at byte {offset}: expected 1..={fields} for constructor \"{constructor}\""
    )]
    BadSkipEntry {
        /// Offset of the entry.
        offset: usize,
        /// The entry (sorted field index + 1).
        entry: u16,
        /// Number of schema fields.
        fields: usize,
        /// The constructor name.
        constructor: String,
    },
    /// Nesting deeper than the configured limit.
    #[error("nesting too deep at byte {offset}: expected at most {limit} levels")]
    TooDeep {
        /// Where the limit was exceeded.
        offset: usize,
        /// The limit.
        limit: usize,
    },
    /// The data would expand to more values than the reader allows for its size (arrays of
    /// `undefined` and empty containers cost almost no input bytes each).
    #[error(
        "too many values at byte {offset} ({what}): expected at most {limit} {unit} for this \
         {input}-byte input"
    )]
    TooManyValues {
        /// Where the budget ran out.
        offset: usize,
        /// What was being read.
        what: &'static str,
        /// The budget.
        limit: usize,
        /// What the budget counts, and how it follows from the input size.
        unit: &'static str,
        /// The input size.
        input: usize,
    },
    /// An array with 65535 or more elements (write).
    #[error("array length must be less than 65535 (was {len}) at output byte {offset}")]
    ArrayTooLong {
        /// Output position.
        offset: usize,
        /// The length.
        len: usize,
    },
    /// A struct with too many members (write).
    #[error(
        "structs must contain fewer than {limit} member variables (was {len}) at output byte {offset}"
    )]
    StructTooLarge {
        /// Output position.
        offset: usize,
        /// The member count.
        len: usize,
        /// The exclusive limit (65534 plain, 65536 verbose constructed).
        limit: usize,
    },
    /// A reference to a container whose id does not fit in u16 (write).
    #[error(
        "reference to container id {id} at output byte {offset}: expected an id below 65536 (Elephant ids are u16)"
    )]
    IdOverflow {
        /// Output position.
        offset: usize,
        /// The id.
        id: usize,
    },
    /// More than 65536 constructors in one buffer (write).
    #[error("too many constructors at output byte {offset}: expected at most 65536")]
    TooManyConstructors {
        /// Output position.
        offset: usize,
    },
    /// A string containing a NUL byte, which Elephant cannot store (write).
    #[error("string contains a NUL byte at output byte {offset}: expected text without 0x00")]
    NulInString {
        /// Output position.
        offset: usize,
    },
    /// A value that cannot be written with the datatype a schema asks for (write).
    #[error(
        "cannot write a {found} as {expected} (constructor \"{constructor}\", field \"{field}\") at output byte {offset}"
    )]
    TypeMismatch {
        /// Output position.
        offset: usize,
        /// The datatype required.
        expected: &'static str,
        /// GML `typeof` of the value.
        found: &'static str,
        /// Constructor name.
        constructor: String,
        /// Field name.
        field: String,
    },
    /// A schema field the struct does not have (write, non-verbose).
    #[error(
        "constructor \"{constructor}\" instance lacks schema field \"{field}\" (v{version}) at output byte {offset}"
    )]
    MissingField {
        /// Output position.
        offset: usize,
        /// Constructor name.
        constructor: String,
        /// Field name.
        field: String,
        /// Schema version.
        version: u32,
    },
    /// A forced schema version without a matching `v<N>` entry.
    #[error("forced schema version \"{version}\" has no data (constructor = \"{constructor}\")")]
    ForcedVersionWithoutData {
        /// Constructor name.
        constructor: String,
        /// The forced version.
        version: u32,
    },
    /// A malformed schema description.
    #[error("invalid schema: {0}")]
    InvalidSchema(String),
    /// Bad base64 in an export string.
    #[error("invalid base64 in export string at character {offset}: {message}")]
    Base64 {
        /// Offset into the (whitespace-stripped) string.
        offset: usize,
        /// What went wrong.
        message: String,
    },
    /// A broken zlib stream in an export string.
    #[error("invalid zlib stream at compressed byte {offset}: {message}")]
    Zlib {
        /// Offset into the compressed data.
        offset: usize,
        /// What went wrong.
        message: String,
    },
    /// Decompressed data larger than the cap.
    #[error("decompressed export string exceeds {limit} bytes (from {input} compressed bytes)")]
    TooLarge {
        /// The cap.
        limit: usize,
        /// The compressed size.
        input: usize,
    },
    /// A JSON document that does not follow the expected shape.
    #[error("invalid JSON at {path}: {message}")]
    Json {
        /// Where in the document.
        path: String,
        /// What was expected.
        message: String,
    },
    /// A value of the wrong type for the Rust type being deserialized (serde), e.g.
    /// `player.inventory[3].count: expected i32, found string "x"`.
    #[error("{}expected {expected}, found {found}{}", path_prefix(path), at_offset(*offset))]
    InvalidType {
        /// Where in the Rust value: field names and `[index]`es from the root (empty = the root).
        path: String,
        /// What the Rust type expects (serde's description).
        expected: String,
        /// What the data holds.
        found: String,
        /// Byte offset, when known.
        offset: Option<usize>,
    },
    /// A serde error (custom message from a `Serialize`/`Deserialize` impl: missing field,
    /// unknown variant, ...).
    #[error("{}{message}{}", path_prefix(path), at_offset(*offset))]
    Message {
        /// Where in the Rust value (see [`Error::InvalidType`]).
        path: String,
        /// The message.
        message: String,
        /// Byte offset, when known.
        offset: Option<usize>,
    },
}

use crate::path::{prefix as path_prefix, prepend_field, prepend_index};

fn at_offset(offset: Option<usize>) -> String {
    offset.map(|o| format!(" at byte {o}")).unwrap_or_default()
}

impl Error {
    /// A message error without position.
    pub(crate) fn msg(m: impl fmt::Display) -> Self {
        Error::Message {
            path: String::new(),
            message: m.to_string(),
            offset: None,
        }
    }

    /// The path of a serde error (field names and `[index]`es from the root), if this is one.
    ///
    /// ```
    /// #[derive(serde::Serialize, serde::Deserialize, Debug)]
    /// struct Item { count: i32 }
    /// #[derive(serde::Serialize, serde::Deserialize)]
    /// struct Bad { count: String }
    /// #[derive(serde::Serialize, serde::Deserialize, Debug)]
    /// struct Save<T> { items: Vec<T> }
    /// use gmkit_value::elephant;
    /// let bytes = elephant::to_bytes(&Save { items: vec![Bad { count: "x".into() }] })?;
    /// let err = elephant::from_bytes::<Save<Item>>(&bytes).unwrap_err();
    /// assert_eq!(err.path(), Some("items[0].count"));
    /// assert!(matches!(err, elephant::Error::InvalidType { .. }));
    /// # Ok::<(), elephant::Error>(())
    /// ```
    pub fn path(&self) -> Option<&str> {
        match self {
            Error::InvalidType { path, .. } | Error::Message { path, .. } => Some(path),
            _ => None,
        }
    }

    fn path_mut(&mut self) -> Option<&mut String> {
        match self {
            Error::InvalidType { path, .. } | Error::Message { path, .. } => Some(path),
            _ => None,
        }
    }

    /// Attaches an offset to a serde error that has none.
    pub(crate) fn at(mut self, pos: usize) -> Self {
        if let Error::InvalidType { offset, .. } | Error::Message { offset, .. } = &mut self
            && offset.is_none()
        {
            *offset = Some(pos);
        }
        self
    }
}

impl serde::ser::Error for Error {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Error::msg(msg)
    }
}

impl serde::de::Error for Error {
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Error::msg(msg)
    }
    fn invalid_type(unexp: serde::de::Unexpected, exp: &dyn serde::de::Expected) -> Self {
        Error::InvalidType {
            path: String::new(),
            expected: exp.to_string(),
            found: unexp.to_string(),
            offset: None,
        }
    }
}

/// Hex of up to `n` bytes, or "end of data".
pub(crate) fn hex_preview(bytes: &[u8]) -> String {
    if bytes.is_empty() {
        return "end of data".into();
    }
    bytes
        .iter()
        .map(|b| format!("{b:02X}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// The error of the serde (de)serializers: boxed, so that the `Result`s passed through every
/// generated `Serialize`/`Deserialize` call stay one word wide.
#[derive(Debug)]
pub(crate) struct Boxed(pub(crate) Box<Error>);

impl From<Error> for Boxed {
    #[cold]
    fn from(e: Error) -> Self {
        Boxed(Box::new(e))
    }
}

impl fmt::Display for Boxed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl std::error::Error for Boxed {}

impl serde::ser::Error for Boxed {
    #[cold]
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Error::msg(msg).into()
    }
}

impl serde::de::Error for Boxed {
    #[cold]
    fn custom<T: fmt::Display>(msg: T) -> Self {
        Error::msg(msg).into()
    }
    #[cold]
    fn invalid_type(unexp: serde::de::Unexpected, exp: &dyn serde::de::Expected) -> Self {
        <Error as serde::de::Error>::invalid_type(unexp, exp).into()
    }
}

impl Boxed {
    /// The error happened inside field (or map key) `name`.
    #[cold]
    pub(crate) fn in_field(mut self, name: &str) -> Self {
        if let Some(p) = self.0.path_mut() {
            prepend_field(p, name);
        }
        self
    }
    /// The error happened inside element `i`.
    #[cold]
    pub(crate) fn in_element(mut self, i: usize) -> Self {
        if let Some(p) = self.0.path_mut() {
            prepend_index(p, i);
        }
        self
    }
}
