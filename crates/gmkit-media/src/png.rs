//! PNG pages and frames (the `png` crate), to and from RGBA8.

use crate::{Error, Image};
use std::io::Cursor;

/// Deflate's best ratio is about 1032:1; a PNG cannot hold more pixel bytes than that.
const MAX_INFLATE_RATIO: usize = 1040;

/// What the `png` decoder may allocate for itself (metadata chunks, row buffers): the image
/// buffer is gmkit's, checked against [`crate::budget`] from the header first.
pub(crate) const MAX_DECODER_BYTES: usize = 64 << 20;

fn err(e: impl std::fmt::Display) -> Error {
    Error::Png(e.to_string())
}

/// Width and height from a PNG's header (its first chunk, `IHDR`), without decoding.
pub fn header(blob: &[u8]) -> Result<(u32, u32), Error> {
    let be = |at: usize| {
        blob.get(at..at + 4)
            .map(|b| u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
    };
    match (blob.get(12..16), be(16), be(20)) {
        (Some(b"IHDR"), Some(w), Some(h)) if blob.starts_with(b"\x89PNG\r\n\x1a\n") => Ok((w, h)),
        _ => Err(Error::corrupt(
            "PNG",
            0,
            format!(
                "the PNG signature and an IHDR chunk in the first 24 bytes, found {} bytes{}",
                blob.len(),
                if blob.starts_with(b"\x89PNG\r\n\x1a\n") {
                    " with another first chunk"
                } else {
                    " without the signature"
                }
            ),
        )),
    }
}

/// Decodes any PNG (palette, grey, 16-bit, with or without alpha) to RGBA8.
pub fn decode(blob: &[u8]) -> Result<Image, Error> {
    let mut dec = ::png::Decoder::new(Cursor::new(blob));
    dec.set_transformations(::png::Transformations::EXPAND | ::png::Transformations::STRIP_16);
    // The declared size is checked before the decoder allocates anything for it.
    let (w, h) = header(blob)?;
    crate::check_size(w, h)?;
    dec.set_limits(::png::Limits {
        bytes: MAX_DECODER_BYTES,
    });
    let mut reader = dec.read_info().map_err(err)?;
    let size = reader
        .output_buffer_size()
        .ok_or_else(|| Error::Png(format!("a {w}×{h} image is too large")))?;
    if size
        > blob
            .len()
            .saturating_mul(MAX_INFLATE_RATIO)
            .saturating_add(1 << 16)
    {
        return Err(Error::corrupt(
            "PNG",
            16,
            format!(
                "a header size a {}-byte file can hold, found {w}×{h}",
                blob.len()
            ),
        ));
    }
    let mut buf = vec![0u8; size];
    let out = reader.next_frame(&mut buf).map_err(err)?;
    buf.truncate(out.buffer_size());
    let n = w as usize * h as usize;
    let rgba = match out.color_type {
        ::png::ColorType::Rgba => buf,
        ::png::ColorType::Rgb => {
            let mut v = Vec::with_capacity(n * 4);
            for p in buf.chunks_exact(3) {
                v.extend_from_slice(&[p[0], p[1], p[2], 255]);
            }
            v
        }
        ::png::ColorType::GrayscaleAlpha => {
            let mut v = Vec::with_capacity(n * 4);
            for p in buf.chunks_exact(2) {
                v.extend_from_slice(&[p[0], p[0], p[0], p[1]]);
            }
            v
        }
        ::png::ColorType::Grayscale => {
            let mut v = Vec::with_capacity(n * 4);
            for &g in &buf {
                v.extend_from_slice(&[g, g, g, 255]);
            }
            v
        }
        ::png::ColorType::Indexed => {
            return Err(Error::Png("palette was not expanded".into()));
        }
    };
    Image::new(w, h, rgba)
}

/// Encodes RGBA8 pixels as a PNG (8-bit RGBA, fast compression: fdeflate).
pub fn encode(image: &Image) -> Result<Vec<u8>, Error> {
    // A guess at the compressed size, capped: a mostly transparent 8192² frame compresses to
    // little, and its raw size is not reserved up front.
    let mut out = Vec::with_capacity((image.pixels().len() / 4).min(1 << 20) + 1024);
    {
        let mut enc = ::png::Encoder::new(&mut out, image.width(), image.height());
        enc.set_color(::png::ColorType::Rgba);
        enc.set_depth(::png::BitDepth::Eight);
        enc.set_compression(::png::Compression::Fast);
        let mut w = enc.write_header().map_err(err)?;
        w.write_image_data(image.pixels()).map_err(err)?;
        w.finish().map_err(err)?;
    }
    Ok(out)
}
