//! Chunk names and the trait every typed chunk implements.

use crate::error::Result;
use crate::read::Reader;
use crate::write::Writer;
use std::fmt;

/// A four-character chunk name such as `GEN8` or `STRG`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ChunkName(pub [u8; 4]);

impl ChunkName {
    /// The name as text (non-ASCII bytes shown as `?`).
    pub fn as_str(&self) -> String {
        self.0
            .iter()
            .map(|&b| if b.is_ascii_graphic() { b as char } else { '?' })
            .collect()
    }
}

impl fmt::Display for ChunkName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.as_str())
    }
}

impl fmt::Debug for ChunkName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ChunkName({})", self.as_str())
    }
}

impl From<&[u8; 4]> for ChunkName {
    fn from(b: &[u8; 4]) -> Self {
        ChunkName(*b)
    }
}

/// A chunk with a typed model: read from its body, written back in the same layout.
///
/// `read` starts at the first byte of the chunk body and must stop at the end of its content
/// (the container treats what is left up to the chunk end as alignment padding). `write` mirrors
/// `read` field by field.
pub(crate) trait Chunk: Sized {
    /// The chunk's name.
    const NAME: ChunkName;
    /// Reading order: lower phases are read first and publish lookups (strings 0, texture
    /// page items 1, most chunks 2, bytecode 3).
    const PHASE: u8 = 2;
    /// Reads the body.
    fn read(r: &mut Reader) -> Result<Self>;
    /// Writes the body.
    fn write(&self, w: &mut Writer) -> Result<()>;
    /// Whether this model still carries the body as uninterpreted bytes.
    fn is_opaque(&self) -> bool {
        false
    }
}
