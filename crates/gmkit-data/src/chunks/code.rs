//! `CODE`: bytecode.

use crate::chunk::{Chunk, ChunkName};
use crate::chunks::raw::RawBody;
use crate::error::Result;
use crate::read::Reader;
use crate::version::{Detect, Version};
use crate::write::Writer;

/// The `CODE` chunk: bytecode. (Not typed yet: carried as its bytes.)
#[derive(Clone, Debug, Default)]
pub struct CodeEntries {
    /// The chunk body.
    pub raw: RawBody,
}

impl Chunk for CodeEntries {
    const NAME: ChunkName = ChunkName(*b"CODE");

    fn read(r: &mut Reader) -> Result<Self> {
        Ok(CodeEntries {
            raw: RawBody::read(r)?,
        })
    }

    fn write(&self, w: &mut Writer) -> Result<()> {
        self.raw.write(w);
        Ok(())
    }

    fn is_opaque(&self) -> bool {
        true
    }
}

/// Layout checks for the version detection (none yet).
pub(crate) fn detect(_d: &Detect, _v: &mut Version) {}

/// Bytecode state shared between CODE, VARI and FUNC while reading.
#[derive(Debug, Default)]
pub(crate) struct ReadState {}

/// Bytecode layout computed while writing CODE, used by VARI and FUNC.
#[derive(Debug, Default)]
pub(crate) struct WriteState {}
