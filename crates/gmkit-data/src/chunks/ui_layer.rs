//! `UILR` (2024.13+, non-LTS): UI layers.
//!
//! Layout: a pointer list of root nodes; each node is an `i32` type (0 layer, 1 flex panel,
//! 3 object, 4 sequence instance, 5 sprite instance, 6 text item, 7 effect layer), a pointer to
//! its data, then for types 0/1 a pointer list of child nodes (else a `u32` 0), then the data.
//! The node data layouts are not documented yet: the root list is typed, and a chunk with nodes
//! keeps the bytes after the root pointer list verbatim (reported as opaque). Every corpus file
//! has an empty UILR.

use crate::chunk::{Chunk, ChunkName};
use crate::error::Result;
use crate::read::Reader;
use crate::version::{Detect, Version};
use crate::write::Writer;
use bytes::Bytes;

/// The `UILR` chunk: UI layer trees.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct UiLayers {
    /// Number of root nodes.
    pub root_count: u32,
    /// Everything after the root count when there are nodes (pointer list and node records, with
    /// absolute pointers, so only valid at the original position). `None` when there are none.
    pub nodes_raw: Option<Bytes>,
}

impl Chunk for UiLayers {
    const NAME: ChunkName = ChunkName(*b"UILR");

    fn read(r: &mut Reader) -> Result<Self> {
        let at = r.pos();
        let root_count = r.u32()?;
        r.check_count(at, "UI root node", root_count as usize, 4)?;
        let nodes_raw = if root_count == 0 {
            None
        } else {
            let (s, e) = (r.pos(), r.chunk_end());
            let b = r.slice(s, e)?;
            r.seek(e)?;
            Some(b)
        };
        Ok(UiLayers {
            root_count,
            nodes_raw,
        })
    }

    fn write(&self, w: &mut Writer) -> Result<()> {
        w.u32(self.root_count);
        if let Some(b) = &self.nodes_raw {
            w.bytes(b);
        }
        Ok(())
    }

    fn is_opaque(&self) -> bool {
        self.nodes_raw.is_some()
    }
}

/// UILR proves the non-LTS branch (its presence sets the 2024.13 floor, §1.2).
pub(crate) fn detect(d: &Detect, v: &mut Version) {
    if d.has(b"UILR") {
        v.lts = false;
    }
}
