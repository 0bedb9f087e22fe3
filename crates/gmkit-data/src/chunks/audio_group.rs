//! `AGRP`: audio groups (bytecode ≥ 14).
//!
//! Layout: a pointer list of records: name; [2024.14] path of the group's `audiogroupN.dat`.

use crate::chunk::{Chunk, ChunkName};
use crate::error::Result;
use crate::read::Reader;
use crate::refs::StringRef;
use crate::version::{Detect, FormatVersion, Version};
use crate::write::Writer;

/// The `AGRP` chunk: audio groups. Group 0 is the builtin group (its audio is in this file's
/// AUDO); group N ≥ 1 lives in `audiogroupN.dat`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct AudioGroups {
    /// The groups, in id order (`None`: null pointer of a stripped group, 2024.11+).
    pub groups: Vec<Option<AudioGroup>>,
}

/// One audio group.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AudioGroup {
    /// Group name.
    pub name: StringRef,
    /// Path of the group's file, relative to the game (2024.14+; `None` before, or when null).
    pub path: Option<StringRef>,
}

/// 2024.14+: groups carry the path of their file.
fn has_path(v: &Version) -> bool {
    v.at_least(2024, 14)
}

impl Chunk for AudioGroups {
    const NAME: ChunkName = ChunkName(*b"AGRP");

    fn read(r: &mut Reader) -> Result<Self> {
        let v = *r.version();
        let groups = r.elements_in_order("audio group", |_| Ok(()), |r| {
            let name = r.string()?;
            let path = if has_path(&v) { r.string_opt()? } else { None };
            Ok(AudioGroup { name, path })
        })?;
        Ok(AudioGroups { groups })
    }

    fn write(&self, w: &mut Writer) -> Result<()> {
        let v = *w.version();
        w.pointer_list(
            &self.groups,
            |_| {},
            |w, g| {
                w.string(g.name);
                if has_path(&v) {
                    w.string_opt(g.path);
                }
                Ok(())
            },
        )
    }
}

/// Whether the pointer list of `chunk` (after `header` bytes) holds a null pointer. In a GMS2
/// file that is evidence of asset stripping, i.e. 2024.11+ (notes §2.5).
pub(crate) fn has_null_pointer(d: &Detect, chunk: &[u8; 4], header: usize) -> bool {
    let Some((start, end)) = d.chunk(chunk) else {
        return false;
    };
    let list = start + header;
    let Some(n) = d.count(list, 4, end) else {
        return false;
    };
    (0..n).any(|i| d.u32(list + 4 + 4 * i) == Some(0))
}

/// Raises a 2.3+ file to 2024.11 when the pointer list of `chunk` holds a null pointer.
pub(crate) fn detect_stripped(d: &Detect, v: &mut Version, chunk: &[u8; 4], header: usize) {
    if v.at_least(2, 3) && !v.at_least(2024, 11) && has_null_pointer(d, chunk, header) {
        v.raise(FormatVersion::new(2024, 11, 0, 0));
    }
}

/// AGRP check for 2024.14 (needs 2024.13): ≥ 2 groups: records are not 4 bytes apart (path
/// added); 1 group: the word after the name is non-zero.
///
/// Also 2024.11 (needs 2.3): a null pointer in the list (stripped group).
pub(crate) fn detect(d: &Detect, v: &mut Version) {
    detect_stripped(d, v, b"AGRP", 0);
    if !v.at_least(2024, 13) || v.at_least(2024, 14) {
        return;
    }
    let Some((start, end)) = d.chunk(b"AGRP") else {
        return;
    };
    let Some(n) = d.u32(start) else { return };
    let Some(p0) = d.u32(start + 4) else { return };
    if n == 0 || p0 == 0 {
        return;
    }
    let new = if n >= 2 {
        d.u32(start + 8)
            .is_some_and(|p1| p1 != 0 && p1 != p0.wrapping_add(4))
    } else {
        let at = p0 as usize + 4;
        at + 4 <= end && d.u32(at).is_some_and(|w| w != 0)
    };
    if new {
        v.raise(FormatVersion::new(2024, 14, 0, 0));
    }
}
