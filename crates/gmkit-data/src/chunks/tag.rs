//! `TAGS` (2.3+): asset tags.
//!
//! Layout: zero padding to 4, `u32` chunk version (1), a simple list of every tag string, then a
//! pointer list of per-asset tag sets (`i32` asset id, simple list of strings).

use crate::chunk::{Chunk, ChunkName};
use crate::error::Result;
use crate::read::Reader;
use crate::refs::StringRef;
use crate::version::{Detect, Version};
use crate::write::Writer;

/// The `TAGS` chunk: tag names and the tags of each tagged asset.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Tags {
    /// Chunk format version (1).
    pub chunk_version: u32,
    /// Every tag used in the project.
    pub tags: Vec<StringRef>,
    /// Tags per asset (`None`: null pointer of a stripped entry).
    pub asset_tags: Vec<Option<AssetTags>>,
}

/// The tags of one asset.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct AssetTags {
    /// The asset: `(asset type << 24) | index` (scripts offset by 100000).
    pub asset_id: i32,
    /// Its tags.
    pub tags: Vec<StringRef>,
}

fn read_strings(r: &mut Reader, what: &'static str) -> Result<Vec<StringRef>> {
    let n = r.count(what, 4)?;
    super::read_n(r, n, Reader::string)
}

fn write_strings(w: &mut Writer, v: &[StringRef]) {
    w.u32(v.len() as u32);
    for &s in v {
        w.string(s);
    }
}

impl Chunk for Tags {
    const NAME: ChunkName = ChunkName(*b"TAGS");

    fn read(r: &mut Reader) -> Result<Self> {
        r.align(4)?;
        let chunk_version = r.u32()?;
        let tags = read_strings(r, "tag")?;
        let asset_tags = r.pointer_list_elements("asset tags", |r| {
            Ok(AssetTags {
                asset_id: r.i32()?,
                tags: read_strings(r, "asset tag")?,
            })
        })?;
        Ok(Tags {
            chunk_version,
            tags,
            asset_tags,
        })
    }

    fn write(&self, w: &mut Writer) -> Result<()> {
        w.align(4);
        w.u32(self.chunk_version);
        write_strings(w, &self.tags);
        w.pointer_list(
            &self.asset_tags,
            |_| {},
            |w, a| {
                w.i32(a.asset_id);
                write_strings(w, &a.tags);
                Ok(())
            },
        )
    }
}

/// No layout checks in TAGS.
pub(crate) fn detect(_d: &Detect, _v: &mut Version) {}
