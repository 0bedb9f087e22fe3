//! `UILR` (2024.13+, non-LTS): UI layers.
//!
//! Layout: a pointer list of root nodes; each node is an `i32` type (0 layer, 1 flex panel,
//! 3 object, 4 sequence instance, 5 sprite instance, 6 text item, 7 effect layer), a pointer to
//! its data, then for types 0/1 a pointer list of child nodes (else a `u32` 0), then the data.
//!
//! The node tree is typed ([`UiNode`]). The node data layouts are not documented: each node's
//! data is kept as uninterpreted bytes ([`UiNode::data`]), which makes the chunk opaque. Its
//! extent is known only when the nodes are stored as a contiguous pre-order tree (each node's
//! data right after its header, the next node in pre-order right after the data; the last data
//! runs to the chunk end, including any zero padding before it): that layout is checked first. A
//! chunk laid out otherwise is kept verbatim after the root count ([`RawUiNodes`]). Every corpus
//! file has an empty UILR.

use crate::chunk::{Chunk, ChunkName};
use crate::error::Result;
use crate::read::Reader;
use crate::version::{Detect, Version};
use crate::write::Writer;
use bytes::Bytes;

/// The `UILR` chunk: UI layer trees.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct UiLayers {
    /// The root nodes (empty when [`UiLayers::raw`] is used).
    pub roots: Vec<UiNode>,
    /// Fallback for a node area that is not a contiguous pre-order tree: kept verbatim (with
    /// absolute pointers, so only valid at its original position). `None` normally.
    pub raw: Option<RawUiNodes>,
}

/// A node area kept verbatim.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RawUiNodes {
    /// Number of root nodes.
    pub root_count: u32,
    /// Everything after the root count (pointer list and node records).
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::hex"))]
    pub bytes: Bytes,
}

/// One node of a UI layer tree.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct UiNode {
    /// Node type: 0 layer, 1 flex panel, 3 object, 4 sequence instance, 5 sprite instance,
    /// 6 text item, 7 effect layer.
    pub node_type: i32,
    /// Child nodes (types 0/1 only; `None` for other types, stored as a `u32` 0).
    pub children: Option<Vec<UiNode>>,
    /// The node data, uninterpreted (layout not documented), up to the next node in pre-order
    /// or the chunk end.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::hex"))]
    pub data: Bytes,
}

/// Whether a node of this type has a child list.
fn has_children(node_type: i32) -> bool {
    matches!(node_type, 0 | 1)
}

/// Deepest tree read as typed (deeper trees are kept verbatim).
const MAX_DEPTH: usize = 48;

/// One node found by the layout check.
struct Flat {
    addr: usize,
    data: usize,
    depth: usize,
}

fn word(data: &[u8], at: usize, end: usize) -> Option<u32> {
    let e = at.checked_add(4)?;
    if e > end {
        return None;
    }
    let b = data.get(at..e)?;
    Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

/// Checks that the nodes form a contiguous pre-order tree starting at `start` (the root count);
/// returns the nodes in pre-order.
fn scan(data: &[u8], start: usize, end: usize) -> Option<Vec<Flat>> {
    let n = word(data, start, end)? as usize;
    let mut expected = start.checked_add(4)?.checked_add(n.checked_mul(4)?)?;
    if expected > end {
        return None;
    }
    // Pending pointer lists: (position of the next pointer, pointers left, depth).
    let mut stack = vec![(start + 4, n, 0usize)];
    let mut out: Vec<Flat> = Vec::new();
    while let Some(top) = stack.last_mut() {
        if top.1 == 0 {
            stack.pop();
            continue;
        }
        let p = word(data, top.0, end)? as usize;
        let depth = top.2;
        top.0 += 4;
        top.1 -= 1;
        // The node must follow the previous node's data (or the root list) in file order.
        if p < expected || (out.is_empty() && p != expected) || depth > MAX_DEPTH {
            return None;
        }
        let node_type = word(data, p, end)? as i32;
        let data_ptr = word(data, p + 4, end)? as usize;
        let list = p + 8;
        let count = word(data, list, end)? as usize;
        let header_end = if has_children(node_type) {
            list.checked_add(4)?.checked_add(count.checked_mul(4)?)?
        } else if count == 0 {
            list + 4
        } else {
            return None;
        };
        if data_ptr != header_end || header_end > end {
            return None;
        }
        out.push(Flat {
            addr: p,
            data: data_ptr,
            depth,
        });
        expected = data_ptr;
        if has_children(node_type) && count > 0 {
            stack.push((list + 4, count, depth + 1));
        }
    }
    Some(out)
}

/// Reads node `*i` of the checked pre-order list (and its subtree).
fn read_node(r: &mut Reader, flat: &[Flat], i: &mut usize) -> Result<UiNode> {
    let Some(f) = flat.get(*i) else {
        return Err(r.invalid("UI node", "a node found by the layout check", *i));
    };
    r.seek(f.addr)?;
    let node_type = r.i32()?;
    r.u32()?; // the data pointer (checked: right after the header)
    let child_count = r.u32()?;
    for _ in 0..if has_children(node_type) { child_count } else { 0 } {
        r.u32()?; // child pointers (checked: pre-order)
    }
    let data_end = flat.get(*i + 1).map_or(r.chunk_end(), |n| n.addr);
    let data = r.bytes(data_end.saturating_sub(f.data), "UI node data")?;
    let depth = f.depth;
    *i += 1;
    let children = if has_children(node_type) {
        let mut c = Vec::new();
        for _ in 0..child_count {
            if flat.get(*i).is_none_or(|n| n.depth != depth + 1) {
                return Err(r.invalid("UI node", "a child node", "another node"));
            }
            c.push(read_node(r, flat, i)?);
        }
        Some(c)
    } else {
        None
    };
    Ok(UiNode {
        node_type,
        children,
        data,
    })
}

fn write_node(w: &mut Writer, n: &UiNode) -> Result<()> {
    w.i32(n.node_type);
    let data_slot = w.pos();
    w.u32(0);
    let slots = match (&n.children, has_children(n.node_type)) {
        (Some(c), true) => Some(w.pointer_slots(c.len())),
        (None, false) => {
            w.u32(0);
            None
        }
        _ => {
            return Err(w.unwritable(
                "UI node",
                "types 0/1 need a child list, other types none",
            ));
        }
    };
    let p = w.pos32();
    w.patch_u32(data_slot, p);
    w.bytes(&n.data);
    if let (Some(c), Some(slots)) = (&n.children, slots) {
        for (i, child) in c.iter().enumerate() {
            w.fill_slot(slots, i);
            write_node(w, child)?;
        }
    }
    Ok(())
}

impl Chunk for UiLayers {
    const NAME: ChunkName = ChunkName(*b"UILR");

    fn read(r: &mut Reader) -> Result<Self> {
        let at = r.pos();
        let (start, end) = (r.pos(), r.chunk_end());
        if let Some(flat) = scan(r.file(), start, end) {
            let n = r.count("UI root node", 12)?;
            r.bytes(n * 4, "UI root node pointers")?;
            let mut i = 0;
            let mut roots = Vec::with_capacity(n);
            while i < flat.len() {
                roots.push(read_node(r, &flat, &mut i)?);
            }
            return Ok(UiLayers { roots, raw: None });
        }
        let root_count = r.u32()?;
        r.check_count(at, "UI root node", root_count as usize, 4)?;
        let bytes = r.slice(r.pos(), end)?;
        r.seek(end)?;
        Ok(UiLayers {
            roots: Vec::new(),
            raw: Some(RawUiNodes { root_count, bytes }),
        })
    }

    fn write(&self, w: &mut Writer) -> Result<()> {
        if let Some(raw) = &self.raw {
            if !self.roots.is_empty() {
                return Err(w.unwritable("UI layers", "either typed roots or raw nodes, not both"));
            }
            w.u32(raw.root_count);
            w.bytes(&raw.bytes);
            return Ok(());
        }
        let slots = w.pointer_slots(self.roots.len());
        for (i, n) in self.roots.iter().enumerate() {
            w.fill_slot(slots, i);
            write_node(w, n)?;
        }
        Ok(())
    }

    fn is_opaque(&self) -> bool {
        fn has_data(n: &UiNode) -> bool {
            !n.data.is_empty() || n.children.iter().flatten().any(has_data)
        }
        self.raw.is_some() || self.roots.iter().any(has_data)
    }
}

/// UILR proves the non-LTS branch (its presence sets the 2024.13 floor, §1.2).
pub(crate) fn detect(d: &Detect, v: &mut Version) {
    if d.has(b"UILR") {
        v.lts = false;
    }
}
