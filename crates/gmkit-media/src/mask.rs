//! Sprite collision masks as 1-bit PNGs.
//!
//! A mask is a bitmap of `ceil(w / 8)` bytes per row, most significant bit = leftmost pixel,
//! 1 = collision. That is exactly the row layout of a 1-bit greyscale PNG, so a mask exports as
//! one (white = collision) and a 1-bit PNG imports back byte for byte (padding bits included).
//! Other PNGs (an edited mask saved as RGBA, say) import by threshold: a pixel collides when it
//! is opaque (alpha ≥ 128) and light (grey level ≥ 128).
//!
//! The bitmap is the full sprite size before GameMaker 2024.6 and the bounding-box size from
//! 2024.6 ([`mask_size`]).
//!
//! ```
//! let mask = vec![0b1010_0000, 0b0100_0000]; // a 3×2 mask
//! let png = gmkit_media::mask::to_png(&mask, 3, 2)?;
//! assert_eq!(gmkit_media::mask::from_png(&png, 3, 2)?, mask);
//! # Ok::<(), gmkit_media::Error>(())
//! ```

use crate::Error;
use gmkit_data::Version;
use gmkit_data::chunks::sprite::Sprite;
use std::io::Cursor;

fn err(e: impl std::fmt::Display) -> Error {
    Error::Png(e.to_string())
}

/// Bytes of one `w × h` mask.
fn byte_len(w: u32, h: u32) -> usize {
    (w as usize).div_ceil(8) * h as usize
}

/// Width × height of a sprite's mask bitmaps under the file's version: the sprite's size before
/// 2024.6, its bounding box (right − left + 1, bottom − top + 1) from 2024.6.
pub fn mask_size(sprite: &Sprite, version: &Version) -> (u32, u32) {
    if version.at_least(2024, 6) {
        let side = |a: i32, b: i32| u32::try_from(b as i64 - a as i64 + 1).unwrap_or(0);
        (
            side(sprite.margin_left, sprite.margin_right),
            side(sprite.margin_top, sprite.margin_bottom),
        )
    } else {
        (sprite.width, sprite.height)
    }
}

/// Encodes a `w × h` mask as a 1-bit greyscale PNG (white = collision).
pub fn to_png(mask: &[u8], w: u32, h: u32) -> Result<Vec<u8>, Error> {
    if mask.len() != byte_len(w, h) {
        return Err(Error::corrupt(
            "mask",
            0,
            format!(
                "{} bytes for a {w}×{h} mask, found {}",
                byte_len(w, h),
                mask.len()
            ),
        ));
    }
    let mut out = Vec::with_capacity(mask.len() / 4 + 128);
    {
        let mut enc = ::png::Encoder::new(&mut out, w, h);
        enc.set_color(::png::ColorType::Grayscale);
        enc.set_depth(::png::BitDepth::One);
        enc.set_compression(::png::Compression::Fast);
        let mut wr = enc.write_header().map_err(err)?;
        wr.write_image_data(mask).map_err(err)?;
        wr.finish().map_err(err)?;
    }
    Ok(out)
}

/// Decodes a PNG into a `w × h` mask. The PNG must have exactly that size (its header is
/// checked first), and the mask must fit the per-image budget ([`crate::budget`]): a header
/// declaring a huge image is refused before anything is allocated.
pub fn from_png(png: &[u8], w: u32, h: u32) -> Result<Vec<u8>, Error> {
    let found = crate::png::header(png)?;
    if found != (w, h) {
        return Err(Error::Size {
            what: "collision mask".into(),
            expected_w: w,
            expected_h: h,
            found_w: found.0,
            found_h: found.1,
        });
    }
    // The bitmap is 1 bit per pixel, but any other PNG is decoded to RGBA first: RGBA is what
    // the budget bounds.
    crate::check_size(w, h)?;
    let mut dec = ::png::Decoder::new(Cursor::new(png));
    dec.set_limits(::png::Limits {
        bytes: crate::png::MAX_DECODER_BYTES,
    });
    let reader = dec.read_info().map_err(err)?;
    let info = reader.info();
    if (info.width, info.height) != (w, h) {
        return Err(Error::Size {
            what: "collision mask".into(),
            expected_w: w,
            expected_h: h,
            found_w: info.width,
            found_h: info.height,
        });
    }
    if (info.color_type, info.bit_depth) == (::png::ColorType::Grayscale, ::png::BitDepth::One)
        && !info.interlaced
    {
        let mut reader = reader;
        let mut buf = vec![
            0u8;
            reader
                .output_buffer_size()
                .ok_or_else(|| err("too large"))?
        ];
        let o = reader.next_frame(&mut buf).map_err(err)?;
        buf.truncate(o.buffer_size());
        if buf.len() == byte_len(w, h) {
            return Ok(buf);
        }
    }
    // Any other PNG: threshold its pixels.
    let img = crate::decode_png(png)?;
    let stride = (w as usize).div_ceil(8);
    let mut mask = vec![0u8; byte_len(w, h)];
    for (i, p) in img.pixels().chunks_exact(4).enumerate() {
        let (x, y) = (i % w as usize, i / w as usize);
        let grey = (p[0] as u32 * 299 + p[1] as u32 * 587 + p[2] as u32 * 114) / 1000;
        if p[3] >= 128 && grey >= 128 {
            mask[y * stride + x / 8] |= 0x80 >> (x % 8);
        }
    }
    Ok(mask)
}
