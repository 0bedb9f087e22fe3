//! BZ2+QOI (`2zoq`): a GameMaker QOI image compressed with bzip2.
//!
//! Layout: magic `2zoq`, `u16` width, `u16` height, [2022.5+] `u32` uncompressed size, then a
//! bzip2 stream whose content is a complete `fioq` image (header included). The stream's length
//! is not stored. The size field, when present, is the byte length of the inner `fioq` image.

use crate::{Error, Image, qoi};
use std::io::{Read, Write};

/// Magic bytes of a BZ2+QOI image.
pub const MAGIC: &[u8; 4] = b"2zoq";

/// The layout details of a `2zoq` blob that a faithful re-encode keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Bz2Options {
    /// Whether the header carries the uncompressed size (GameMaker 2022.5+).
    pub size_field: bool,
    /// bzip2 block size in units of 100 kB (1–9; GameMaker uses 9).
    pub block_size: u32,
}

impl Default for Bz2Options {
    fn default() -> Self {
        Bz2Options {
            size_field: true,
            block_size: 9,
        }
    }
}

/// Whether `b` starts a bzip2 stream (`BZh` + block size digit).
fn is_bzip2(b: &[u8]) -> bool {
    b.len() >= 4 && &b[..3] == b"BZh" && (b'1'..=b'9').contains(&b[3])
}

/// Width, height, the layout options and the offset of the bzip2 stream of a `2zoq` blob.
pub fn header(blob: &[u8]) -> Result<(u32, u32, Bz2Options, usize), Error> {
    if blob.len() < 8 || &blob[..4] != MAGIC {
        return Err(Error::corrupt(
            "BZ2+QOI",
            0,
            "an 8-byte header starting with `2zoq`",
        ));
    }
    let w = u16::from_le_bytes([blob[4], blob[5]]) as u32;
    let h = u16::from_le_bytes([blob[6], blob[7]]) as u32;
    let (size_field, at) = if is_bzip2(&blob[8..]) {
        (false, 8)
    } else if blob.len() >= 12 && is_bzip2(&blob[12..]) {
        (true, 12)
    } else {
        return Err(Error::corrupt(
            "BZ2+QOI",
            8,
            "a bzip2 stream (`BZh1`..`BZh9`) at byte 8 or, after the 2022.5 size field, at byte 12",
        ));
    };
    let block_size = (blob[at + 3] - b'0') as u32;
    Ok((
        w,
        h,
        Bz2Options {
            size_field,
            block_size,
        },
        at,
    ))
}

/// Decompresses the inner `fioq` image of a `2zoq` blob (reading no further than its stored
/// length, so a hostile stream cannot inflate without bound).
pub fn inner_qoi(blob: &[u8]) -> Result<Vec<u8>, Error> {
    let (w, h, _, at) = header(blob)?;
    // The declared size is checked before any decompression (the stream may be a bomb).
    crate::check_size(w, h)?;
    let bz = |e: std::io::Error| Error::Bzip2 {
        offset: at,
        detail: e.to_string(),
    };
    let mut dec = bzip2::read::BzDecoder::new(&blob[at..]);
    let mut head = [0u8; qoi::HEADER_LEN];
    dec.read_exact(&mut head).map_err(bz)?;
    let (iw, ih, total) = qoi::header(&head)?;
    if (iw, ih) != (w, h) {
        return Err(Error::corrupt(
            "BZ2+QOI",
            at,
            format!("an inner QOI image of the header's size {w}×{h}, found {iw}×{ih}"),
        ));
    }
    // The densest op (COLOR with four channels) takes 5 bytes per pixel.
    let max = (w as usize * h as usize)
        .saturating_mul(5)
        .saturating_add(qoi::HEADER_LEN + 8);
    if total > max {
        return Err(Error::corrupt(
            "BZ2+QOI",
            at,
            format!("an inner QOI stream of at most {max} bytes for {w}×{h}, found {total}"),
        ));
    }
    let mut out = head.to_vec();
    dec.take((total - qoi::HEADER_LEN) as u64)
        .read_to_end(&mut out)
        .map_err(bz)?;
    if out.len() != total {
        return Err(Error::corrupt(
            "BZ2+QOI",
            at,
            format!(
                "{total} decompressed bytes (inner QOI length), found {}",
                out.len()
            ),
        ));
    }
    Ok(out)
}

/// Decodes a `2zoq` image to RGBA8.
/// Damage inside the inner stream is reported at its offset in the decompressed stream (not
/// in the blob), and says so.
pub fn decode(blob: &[u8]) -> Result<Image, Error> {
    qoi::decode(&inner_qoi(blob)?).map_err(|e| match e {
        Error::Corrupt { offset, detail, .. } => Error::Corrupt {
            format: "BZ2+QOI (decompressed inner QOI stream)",
            offset,
            detail,
        },
        e => e,
    })
}

/// Encodes RGBA8 pixels as a `2zoq` image with the given layout.
pub fn encode(image: &Image, opts: Bz2Options) -> Result<Vec<u8>, Error> {
    let inner = qoi::encode(image)?;
    let mut out = Vec::with_capacity(inner.len() / 4 + 64);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&inner[4..8]);
    if opts.size_field {
        out.extend_from_slice(&(inner.len() as u32).to_le_bytes());
    }
    let offset = out.len();
    let bz = |e: std::io::Error| Error::Bzip2 {
        offset,
        detail: e.to_string(),
    };
    let level = bzip2::Compression::new(opts.block_size.clamp(1, 9));
    let mut enc = bzip2::write::BzEncoder::new(Vec::with_capacity(inner.len() / 4), level);
    enc.write_all(&inner).map_err(bz)?;
    let stream = enc.finish().map_err(bz)?;
    out.extend_from_slice(&stream);
    Ok(out)
}
