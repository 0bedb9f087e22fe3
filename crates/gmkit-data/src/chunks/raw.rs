//! Chunk bodies carried as uninterpreted bytes.

use crate::chunk::ChunkName;
use crate::error::Result;
use crate::read::Reader;
use crate::write::Writer;
use bytes::Bytes;

/// A chunk body kept as its bytes (used for chunks gmkit does not know).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RawBody(
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::hex"))] pub Bytes,
);

impl RawBody {
    /// Takes everything left in the chunk. The bytes are not counted as explained.
    pub(crate) fn read(r: &mut Reader) -> Result<Self> {
        let start = r.pos();
        let end = r.chunk_end();
        let b = r.slice(start, end)?;
        r.seek(end)?;
        Ok(RawBody(b))
    }
    /// Writes the bytes back.
    pub(crate) fn write(&self, w: &mut Writer) {
        w.bytes(&self.0);
    }
}

/// A chunk gmkit does not know, kept verbatim.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct UnknownChunk {
    /// The chunk's name.
    pub name: ChunkName,
    /// Its body.
    pub body: RawBody,
}
