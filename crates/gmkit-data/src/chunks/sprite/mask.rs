//! Collision masks of normal sprites: `u32` count, then each mask as rows of `ceil(w/8)` bytes
//! × `h` rows, all masks concatenated and padded with zeros to 4 bytes. `w × h` is the full
//! sprite size before 2024.6 and the bounding-box size (right−left+1, bottom−top+1) from 2024.6.

use super::SpriteInfo;
use crate::error::Result;
use crate::read::Reader;
use crate::version::{Detect, Version};
use crate::write::Writer;
use bytes::Bytes;

/// Whether masks are sized to the bounding box.
fn bbox_sized(v: &Version) -> bool {
    v.at_least(2024, 6)
}

fn size_of(w: i64, h: i64) -> Option<usize> {
    let (w, h) = (usize::try_from(w.max(0)).ok()?, usize::try_from(h.max(0)).ok()?);
    w.div_ceil(8).checked_mul(h)
}

/// Byte size of one mask: `margins` = left, right, bottom, top.
pub(crate) fn mask_size(v: &Version, full: (u32, u32), margins: [i32; 4]) -> Option<usize> {
    if bbox_sized(v) {
        let [l, r, b, t] = margins.map(i64::from);
        size_of(r - l + 1, b - t + 1)
    } else {
        size_of(full.0.into(), full.1.into())
    }
}

pub(crate) fn read_masks(r: &mut Reader, size: usize) -> Result<Vec<Bytes>> {
    let n = r.count("collision mask", size)?;
    let mut masks = Vec::with_capacity(n);
    for _ in 0..n {
        masks.push(r.bytes(size, "collision mask")?);
    }
    r.align(4)?;
    Ok(masks)
}

pub(crate) fn write_masks(w: &mut Writer, masks: &[Bytes], size: usize) -> Result<()> {
    w.u32(masks.len() as u32);
    for m in masks {
        if m.len() != size {
            return Err(w.unwritable(
                "collision mask",
                format!("{} bytes, expected {size} for the sprite's size", m.len()),
            ));
        }
        w.bytes(m);
    }
    w.align(4);
    Ok(())
}

/// For a normal sprite whose bounding box differs from its full size: whether its mask data
/// has the bbox-sized length (2024.6) rather than the full-size one. `None` if undecidable.
pub(crate) fn uses_bbox_masks(d: &Detect, s: &SpriteInfo, next: usize) -> Option<bool> {
    let [l, r, b, t] = s.margins.map(i64::from);
    let full = size_of(s.width.into(), s.height.into())?;
    let bbox = size_of(r - l + 1, b - t + 1)?;
    if full == bbox {
        return None;
    }
    let frames = d.u32(s.body)? as usize;
    let q = s.body.checked_add(4)?.checked_add(frames.checked_mul(4)?)?;
    let count = d.u32(q)? as usize;
    if count == 0 {
        return None;
    }
    let data = q + 4;
    let limit = if s.first_record != 0 {
        s.first_record
    } else {
        next
    };
    let avail = limit.checked_sub(data)?;
    let full_len = full.checked_mul(count)?.next_multiple_of(4);
    let bbox_len = bbox.checked_mul(count)?.next_multiple_of(4);
    if avail < full_len && avail >= bbox_len {
        Some(true)
    } else if avail >= full_len {
        Some(false)
    } else {
        None
    }
}
