//! `FEAT` (2022.8+): feature flags the runner must enable.
//!
//! Layout: zero padding to 4, then a simple list of strings (no chunk version).

use crate::chunk::{Chunk, ChunkName};
use crate::error::Result;
use crate::read::Reader;
use crate::refs::StringRef;
use crate::version::{Detect, Version};
use crate::write::Writer;

/// The `FEAT` chunk: feature flag names.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FeatureFlags {
    /// The flags, in file order.
    pub flags: Vec<StringRef>,
}

impl Chunk for FeatureFlags {
    const NAME: ChunkName = ChunkName(*b"FEAT");

    fn read(r: &mut Reader) -> Result<Self> {
        r.align(4)?;
        let n = r.count("feature flag", 4)?;
        let flags = super::read_n(r, n, Reader::string)?;
        Ok(FeatureFlags { flags })
    }

    fn write(&self, w: &mut Writer) -> Result<()> {
        w.align(4);
        w.u32(self.flags.len() as u32);
        for &s in &self.flags {
            w.string(s);
        }
        Ok(())
    }
}

/// No layout checks in FEAT.
pub(crate) fn detect(_d: &Detect, _v: &mut Version) {}
