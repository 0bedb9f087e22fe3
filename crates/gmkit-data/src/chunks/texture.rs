//! `TXTR`: texture pages.
//!
//! Layout: a pointer list of page records, then the image blobs of the embedded pages, each
//! starting on a 128-byte boundary (absolute), in page order; the body ends 4-aligned.
//!
//! A page record is: `u32` scaled; [2.0.6] `u32` generated mip levels; [2022.3] `u32` blob size;
//! [2022.9] `u32` width, height, index in its texture group; pointer to the blob (0 = the page
//! lives in an external file, 2022.9+).
//!
//! Blobs are kept as [`Bytes`] views of the input (never copied, never decoded while parsing).
//! Their length is the stored blob size (2022.3+), or found from the image format: PNG by walking
//! its chunks to `IEND`, GameMaker QOI (`fioq`) from its header, BZ2+QOI (`2zoq`) by locating the
//! bzip2 end-of-stream marker, anything else by trimming the zero padding before the next blob.

use crate::chunk::{Chunk, ChunkName};
use crate::error::Result;
use crate::read::Reader;
use crate::version::{Detect, FormatVersion, Version};
use crate::write::Writer;
use bytes::Bytes;

/// Blobs start on this (absolute) alignment.
const BLOB_ALIGN: usize = 128;

/// The `TXTR` chunk: texture pages.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Textures {
    /// The pages, in file order (`None`: null pointer of a stripped page, 2024.11+).
    pub pages: Vec<Option<TexturePage>>,
    /// Alignment of the end of the chunk content (4 in every known file; 1 when the file has no
    /// room for it).
    pub end_align: usize,
}

impl Default for Textures {
    fn default() -> Self {
        Textures {
            pages: Vec::new(),
            end_align: 4,
        }
    }
}

/// One texture page.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct TexturePage {
    /// Scale flag / value as stored (0 or 1 in known files).
    pub scaled: u32,
    /// Number of generated mip levels (2.0.6+; `None` before).
    pub generated_mips: Option<u32>,
    /// Width, height and index of the page inside its texture group (2022.9+; `None` before).
    pub group_info: Option<PageGroupInfo>,
    /// The image data.
    pub data: PageData,
}

/// Size and position of a page in its texture group (2022.9+ record fields).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PageGroupInfo {
    /// Page width in pixels.
    pub width: u32,
    /// Page height in pixels.
    pub height: u32,
    /// Index of the page inside its texture group (used to name external page files).
    pub index_in_group: u32,
}

/// Where a page's image is.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum PageData {
    /// Stored in the data file: the blob bytes (PNG, QOI, BZ2+QOI, DDS, ...). Its 2022.3+ size
    /// field is recomputed on write.
    Embedded(#[cfg_attr(feature = "serde", serde(with = "crate::serde_support::hex"))] Bytes),
    /// Stored in a separate file next to the game (2022.9+, null blob pointer); see the page's
    /// texture group for the file name.
    External {
        /// The blob size field as stored (kept verbatim).
        blob_size: u32,
    },
}

impl Default for PageData {
    fn default() -> Self {
        PageData::Embedded(Bytes::new())
    }
}

/// Image format of a texture blob, decided by its magic bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum BlobFormat {
    /// PNG.
    Png,
    /// GameMaker's QOI variant (`fioq`).
    Qoi,
    /// bzip2-compressed GameMaker QOI (`2zoq`).
    Bz2Qoi,
    /// DirectDraw Surface (`DDS `).
    Dds,
    /// Anything else.
    Unknown,
}

const PNG_MAGIC: &[u8; 8] = b"\x89PNG\r\n\x1a\n";

/// The format of a blob, from its magic bytes.
pub fn blob_format(b: &[u8]) -> BlobFormat {
    if b.starts_with(PNG_MAGIC) {
        BlobFormat::Png
    } else if b.starts_with(b"fioq") {
        BlobFormat::Qoi
    } else if b.starts_with(b"2zoq") {
        BlobFormat::Bz2Qoi
    } else if b.starts_with(b"DDS ") {
        BlobFormat::Dds
    } else {
        BlobFormat::Unknown
    }
}

fn be32(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_be_bytes(b.get(at..at.checked_add(4)?)?.try_into().ok()?))
}
fn le32(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(at..at.checked_add(4)?)?.try_into().ok()?))
}
fn le16(b: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes(b.get(at..at.checked_add(2)?)?.try_into().ok()?))
}

/// Width and height of a blob, read from its header (PNG `IHDR`, QOI / BZ2+QOI header, DDS
/// header). `None` for unknown formats or a truncated header.
pub fn blob_dimensions(b: &[u8]) -> Option<(u32, u32)> {
    match blob_format(b) {
        BlobFormat::Png if b.get(12..16) == Some(b"IHDR") => Some((be32(b, 16)?, be32(b, 20)?)),
        BlobFormat::Qoi | BlobFormat::Bz2Qoi => Some((le16(b, 4)? as u32, le16(b, 6)? as u32)),
        BlobFormat::Dds => Some((le32(b, 16)?, le32(b, 12)?)),
        _ => None,
    }
}

/// Length of a PNG stream at the start of `b`, by walking its chunks to `IEND`.
fn png_len(b: &[u8]) -> Option<usize> {
    let mut pos = PNG_MAGIC.len();
    loop {
        let len = be32(b, pos)? as usize;
        let kind = b.get(pos + 4..pos + 8)?;
        pos = pos.checked_add(12)?.checked_add(len)?;
        if pos > b.len() {
            return None;
        }
        if kind == b"IEND" {
            return Some(pos);
        }
    }
}

/// The last chunk of every PNG: empty `IEND` with its CRC.
const PNG_IEND: [u8; 12] = [0, 0, 0, 0, b'I', b'E', b'N', b'D', 0xAE, 0x42, 0x60, 0x82];

/// Length of a GameMaker QOI blob: 12-byte header + stored data length.
fn qoi_len(b: &[u8]) -> Option<usize> {
    let len = (le32(b, 8)? as usize).checked_add(12)?;
    (len <= b.len()).then_some(len)
}

/// The bzip2 end-of-stream marker (48 bits).
const BZ2_EOS: u64 = 0x1772_4538_5090;

/// End of the bzip2 stream inside `b` (which holds the stream followed by zero padding only):
/// the stream ends 80 bits after the start of the bit-aligned end-of-stream marker (marker and
/// 32-bit CRC), rounded up to a whole byte. Searches back from the last non-zero byte.
fn bz2_stream_end(b: &[u8], min: usize) -> Option<usize> {
    let nz_end = b.iter().rposition(|&x| x != 0)? + 1;
    // The marker's last set bit (bit 44 of 48) lies in a non-zero byte, and nothing non-zero
    // follows the CRC: the marker starts between 88 and 44 bits before the non-zero end.
    let hi = (nz_end * 8).checked_sub(44)?;
    let lo = (nz_end * 8).saturating_sub(88).max(min * 8);
    let bit = |i: usize| -> u64 { ((b[i / 8] >> (7 - (i % 8))) & 1) as u64 };
    for p in (lo..hi).rev() {
        if p + 80 > b.len() * 8 {
            continue;
        }
        let mut v = 0u64;
        for i in p..p + 48 {
            v = (v << 1) | bit(i);
        }
        if v == BZ2_EOS {
            let end = (p + 80).div_ceil(8);
            if end >= nz_end {
                return Some(end);
            }
        }
    }
    None
}

/// Length of a blob whose size is not stored, from its image format, inside `region` (from the
/// blob start to the next blob or the chunk end). `last`: no blob follows. `None` when the
/// image is truncated or damaged.
fn measured_len(region: &[u8], last: bool) -> Option<usize> {
    match blob_format(region) {
        // A PNG whose last non-zero bytes are its IEND chunk ends there: no need to walk (and
        // touch) every chunk of a large image.
        BlobFormat::Png => {
            let nz_end = region.iter().rposition(|&x| x != 0).map_or(0, |i| i + 1);
            match region.get(nz_end.saturating_sub(12)..nz_end) {
                Some(tail) if nz_end >= 20 && tail == PNG_IEND => Some(nz_end),
                _ => png_len(region),
            }
        }
        BlobFormat::Qoi => qoi_len(region),
        BlobFormat::Bz2Qoi => bz2_stream_end(region, 8),
        BlobFormat::Dds | BlobFormat::Unknown => Some(padded_len(region, last)),
    }
}

/// Length of a blob of unknown extent: everything up to the zero padding, keeping enough
/// trailing zeros that the next blob still falls on the same 128-byte boundary.
fn padded_len(region: &[u8], last: bool) -> usize {
    let nz_end = region.iter().rposition(|&x| x != 0).map_or(0, |i| i + 1);
    if last {
        nz_end
    } else {
        nz_end.max(region.len().saturating_sub(BLOB_ALIGN - 1))
    }
}

impl TexturePage {
    /// The blob bytes, if the page is embedded.
    pub fn blob(&self) -> Option<&Bytes> {
        match &self.data {
            PageData::Embedded(b) => Some(b),
            PageData::External { .. } => None,
        }
    }
    /// The blob's image format ([`BlobFormat::Unknown`] for external pages).
    pub fn format(&self) -> BlobFormat {
        self.blob().map_or(BlobFormat::Unknown, |b| blob_format(b))
    }
    /// Width from the blob header, else from the 2022.9 record.
    pub fn width(&self) -> Option<u32> {
        self.blob()
            .and_then(|b| blob_dimensions(b))
            .map(|d| d.0)
            .or(self.group_info.map(|g| g.width))
    }
    /// Height from the blob header, else from the 2022.9 record.
    pub fn height(&self) -> Option<u32> {
        self.blob()
            .and_then(|b| blob_dimensions(b))
            .map(|d| d.1)
            .or(self.group_info.map(|g| g.height))
    }
    /// Replaces the image with an embedded blob. The 2022.9 record width and height follow the
    /// new blob's header when it has one.
    pub fn set_blob(&mut self, blob: Bytes) {
        if let (Some(g), Some((w, h))) = (&mut self.group_info, blob_dimensions(&blob)) {
            g.width = w;
            g.height = h;
        }
        self.data = PageData::Embedded(blob);
    }
}

/// 2.0.6+: records carry the generated mip count.
fn has_generated_mips(v: &Version) -> bool {
    v.at_least_full(2, 0, 6, 0)
}
/// 2022.3+: records carry the blob size.
fn has_blob_size(v: &Version) -> bool {
    v.at_least(2022, 3)
}
/// 2022.9+: records carry width, height, index in group; a null blob pointer is allowed.
fn has_group_info(v: &Version) -> bool {
    v.at_least(2022, 9)
}

impl Chunk for Textures {
    const NAME: ChunkName = ChunkName(*b"TXTR");

    fn read(r: &mut Reader) -> Result<Self> {
        let v = *r.version();
        let ptrs = r.pointer_list("texture page")?;
        let mut pages = Vec::with_capacity(ptrs.len());
        // (page index, blob pointer, stored size)
        let mut blobs: Vec<(usize, usize, Option<u32>)> = Vec::with_capacity(ptrs.len());
        for (i, &p) in ptrs.iter().enumerate() {
            if p == 0 {
                pages.push(None);
                continue;
            }
            let prev = r.set_element("texture page", i);
            r.expect_element_at(p, "page record pointer")?;
            let scaled = r.u32()?;
            let generated_mips = if has_generated_mips(&v) {
                Some(r.u32()?)
            } else {
                None
            };
            let blob_size = if has_blob_size(&v) {
                Some(r.u32()?)
            } else {
                None
            };
            let group_info = if has_group_info(&v) {
                Some(PageGroupInfo {
                    width: r.u32()?,
                    height: r.u32()?,
                    index_in_group: r.u32()?,
                })
            } else {
                None
            };
            let at = r.pos();
            let blob_ptr = r.u32()?;
            let data = if blob_ptr == 0 {
                if !has_group_info(&v) {
                    return Err(r.error_at(
                        at,
                        crate::error::invalid(
                            "blob pointer",
                            "a pointer (external pages exist from 2022.9)",
                            0,
                        ),
                    ));
                }
                PageData::External {
                    blob_size: blob_size.unwrap_or(0),
                }
            } else {
                blobs.push((i, blob_ptr as usize, blob_size));
                PageData::Embedded(Bytes::new())
            };
            pages.push(Some(TexturePage {
                scaled,
                generated_mips,
                group_info,
                data,
            }));
            r.restore_element(prev);
        }
        for k in 0..blobs.len() {
            let (i, p, size) = blobs[k];
            let prev = r.set_element("texture page", i);
            // The padding after the previous blob: read without touching the blob.
            r.align_cold(BLOB_ALIGN)?;
            if p != r.pos() {
                return Err(r.invalid(
                    "blob pointer",
                    format!(
                        "blobs stored 128-aligned in page order (next at {})",
                        r.pos()
                    ),
                    p,
                ));
            }
            let len = match size {
                Some(s) => s as usize,
                None => {
                    let last = k + 1 == blobs.len();
                    let limit = blobs.get(k + 1).map_or(r.chunk_end(), |b| b.1).min(r.chunk_end());
                    let region = r.file().get(p..limit.max(p)).unwrap_or(&[]);
                    let fits = |n: usize| {
                        region.get(n..).is_some_and(|rest| rest.iter().all(|&b| b == 0))
                            && (last || (p + n).next_multiple_of(BLOB_ALIGN) == limit)
                    };
                    match measured_len(region, last) {
                        Some(n) if fits(n) => n,
                        // Bytes after the image before the padding: kept as part of the blob.
                        Some(_) => padded_len(region, last),
                        None => {
                            r.check(
                                false,
                                "texture blob",
                                format!("a complete {:?} image", blob_format(region)),
                                "a truncated or damaged stream",
                            )?;
                            padded_len(region, last)
                        }
                    }
                }
            };
            let blob = r.bytes(len, "texture blob")?;
            if let Some(Some(page)) = pages.get_mut(i) {
                page.data = PageData::Embedded(blob);
            }
            r.restore_element(prev);
        }
        let end_align = if r.pos().next_multiple_of(4) <= r.chunk_end() && r.is_zero_padding(4) {
            4
        } else {
            1
        };
        r.align(end_align)?;
        Ok(Textures { pages, end_align })
    }

    fn write(&self, w: &mut Writer) -> Result<()> {
        let v = *w.version();
        let slots = w.pointer_slots(self.pages.len());
        // (page index, position of its blob pointer)
        let mut blob_slots = Vec::new();
        for (i, page) in self.pages.iter().enumerate() {
            let Some(page) = page else { continue };
            w.fill_slot(slots, i);
            w.u32(page.scaled);
            if has_generated_mips(&v) {
                w.u32(page.generated_mips.unwrap_or(0));
            }
            if has_blob_size(&v) {
                let size = match &page.data {
                    PageData::Embedded(b) => u32::try_from(b.len())
                        .map_err(|_| w.unwritable("texture blob", "larger than 4 GiB"))?,
                    PageData::External { blob_size } => *blob_size,
                };
                w.u32(size);
            }
            if has_group_info(&v) {
                let g = page.group_info.unwrap_or_default();
                w.u32(g.width);
                w.u32(g.height);
                w.u32(g.index_in_group);
            }
            match &page.data {
                PageData::Embedded(_) => blob_slots.push((i, w.pos())),
                PageData::External { .. } if has_group_info(&v) => {}
                PageData::External { .. } => {
                    return Err(w.unwritable(
                        "texture page",
                        format!("page {i} is external, which needs version 2022.9 or later"),
                    ));
                }
            }
            w.u32(0);
        }
        for (i, slot) in blob_slots {
            if let Some(Some(TexturePage {
                data: PageData::Embedded(blob),
                ..
            })) = self.pages.get(i)
            {
                w.align(BLOB_ALIGN);
                let p = w.pos32();
                w.patch_u32(slot, p);
                w.payload(blob);
            }
        }
        w.align(self.end_align.max(1));
        Ok(())
    }
}

/// Size of the first page record, from the pointer delta (≥ 2 pages) or, for one page, from the
/// candidate layout whose blob pointer points at the first 128-aligned position after it.
fn record_size(d: &Detect, start: usize, end: usize) -> Option<usize> {
    let n = d.u32(start)? as usize;
    if n == 0 || n > (end - start) / 4 {
        return None;
    }
    let p0 = d.u32(start + 4)? as usize;
    if p0 == 0 {
        return None;
    }
    if n >= 2 {
        let p1 = d.u32(start + 8)? as usize;
        if p1 >= p0.saturating_add(8) {
            return Some(p1 - p0);
        }
        return None;
    }
    for size in [28usize, 16, 12, 8] {
        let rec_end = p0.checked_add(size)?;
        if rec_end > end {
            continue;
        }
        let ptr = d.u32(rec_end - 4)? as usize;
        if ptr == rec_end.next_multiple_of(BLOB_ALIGN) && ptr < end {
            return Some(size);
        }
        // 2022.9 external page: null pointer and nothing but padding after the record.
        if size == 28
            && ptr == 0
            && end - rec_end < 16
            && d.data.get(rec_end..end).is_some_and(|b| b.iter().all(|&x| x == 0))
        {
            return Some(size);
        }
    }
    None
}

/// TXTR layout checks: 2.0.6 (generated mips), 2022.3 (blob size), 2022.9 (group info) from the
/// record size; 2022.5 from the first BZ2+QOI blob (4-byte uncompressed size after the header).
///
/// Also 2024.11 (needs 2.3): a null pointer in the list (stripped asset).
pub(crate) fn detect(d: &Detect, v: &mut Version) {
    crate::chunks::audio_group::detect_stripped(d, v, b"TXTR", 0);
    let Some((start, end)) = d.chunk(b"TXTR") else {
        return;
    };
    let Some(size) = record_size(d, start, end) else {
        return;
    };
    if v.is_gms2() && !v.at_least_full(2, 0, 6, 0) && size >= 12 {
        v.raise(FormatVersion::new(2, 0, 6, 0));
    }
    if v.at_least(2, 3) && !v.at_least(2022, 3) && size >= 16 {
        v.raise(FormatVersion::new(2022, 3, 0, 0));
    }
    if v.at_least(2022, 3) && !v.at_least(2022, 9) && size >= 28 {
        v.raise(FormatVersion::new(2022, 9, 0, 0));
    }
    if v.at_least(2022, 3) && !v.at_least(2022, 5) {
        let n = d.u32(start).unwrap_or(0) as usize;
        for i in 0..n.min((end - start) / 4) {
            let Some(rec) = d.u32(start + 4 + 4 * i) else {
                return;
            };
            if rec == 0 {
                continue;
            }
            let Some(blob) = d.u32((rec as usize).saturating_add(size.saturating_sub(4))) else {
                return;
            };
            let blob = blob as usize;
            let Some(head) = d.data.get(blob..blob.saturating_add(18)) else {
                continue;
            };
            if blob == 0 || blob < start || blob >= end || !head.starts_with(b"2zoq") {
                continue;
            }
            let old = &head[8..];
            let is_bz2 = old.starts_with(b"BZh")
                && (b'1'..=b'9').contains(&old[3])
                && (old[4..10] == [0x31, 0x41, 0x59, 0x26, 0x53, 0x59]
                    || old[4..10] == [0x17, 0x72, 0x45, 0x38, 0x50, 0x90]);
            if !is_bz2 {
                v.raise(FormatVersion::new(2022, 5, 0, 0));
            }
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The measured length of every embedded blob of the corpus (bz2 end-of-stream scan, PNG
    /// walk) equals its real length, with or without trailing zero padding.
    #[test]
    fn measured_length_matches_corpus_blobs() {
        let Some(names) = gmkit_testdata::corpus_names() else {
            return;
        };
        let mut checked = 0;
        for name in names {
            let path = gmkit_testdata::corpus_path(&name).unwrap();
            let file = crate::parse_file(&path).unwrap();
            for page in file.textures.iter().flat_map(|t| t.pages.iter().flatten()) {
                let Some(blob) = page.blob() else { continue };
                for pad in [0usize, 1, 3, 17, 127, 200] {
                    let mut region = blob.to_vec();
                    region.resize(blob.len() + pad, 0);
                    let got = measured_len(&region, true);
                    assert_eq!(got, Some(blob.len()), "{}: {:?} + {pad} zeros", path.display(), page.format());
                }
                checked += 1;
            }
        }
        assert!(checked > 40);
    }

    #[test]
    fn bz2_scan_never_panics_on_short_input() {
        for n in 0..40 {
            let v = vec![0xFFu8; n];
            let _ = bz2_stream_end(&v, 0);
            let _ = measured_len(&v, false);
        }
        assert_eq!(bz2_stream_end(b"", 0), None);
    }
}
