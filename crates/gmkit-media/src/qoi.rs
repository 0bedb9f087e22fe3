//! GameMaker's QOI variant (`fioq`): an early draft of the QOI image format.
//!
//! Layout: magic `fioq`, `u16` width, `u16` height, `u32` length of the op stream (little-endian),
//! then the op stream. The stream starts from the pixel r=g=b=0, a=255 and a 64-entry colour
//! index (all zero) hashed by `(r ^ g ^ b ^ a) % 64`. Ops, by their top bits:
//!
//! | bits | op |
//! |---|---|
//! | `00iiiiii` | the colour at index `i` |
//! | `010nnnnn` | the previous pixel, `n + 1` times |
//! | `011nnnnn nnnnnnnn` | the previous pixel, `n + 33` times (13-bit `n`) |
//! | `10rrggbb` | RGB deltas, 2 bits each (alpha unchanged) |
//! | `110rrrrr ggggbbbb` | RGB deltas, 5/4/4 bits (alpha unchanged) |
//! | `1110rrrr rgggggbb bbbaaaaa` | RGBA deltas, 5 bits each |
//! | `1111rgba` | then one byte for each flagged channel |
//!
//! Deltas are two's-complement fields added with wraparound (QOI 1.0 and other drafts use a
//! bias instead). Every op's pixel is stored in the index. The stored length is the exact op
//! stream: GameMaker writes no end padding (checked on every page of the corpus).
//!
//! [`encode`] reproduces GameMaker's encoder: deltas are plain differences (no wraparound), the
//! smallest op that fits is chosen (index, then 2-, 5/4/4-, 5-bit deltas, then the changed
//! channels), runs are cut at 8224 pixels and at the image end.
//!
//! Unlike QOI 1.0 the header is little-endian and shorter, there is no channel/colour-space
//! field, and the op set differs, so generic QOI decoders cannot read it.

use crate::{Error, Image};

/// Magic bytes of a GameMaker QOI image.
pub const MAGIC: &[u8; 4] = b"fioq";
/// Header size: magic, width, height, stream length.
pub const HEADER_LEN: usize = 12;
/// Longest run one op can hold (`0x1FFF + 33`).
const MAX_RUN: usize = 0x2020;
/// Most pixels one stream byte can produce (a 2-byte run op of [`MAX_RUN`]).
const MAX_PIXELS_PER_BYTE: usize = MAX_RUN / 2;

const OP_INDEX: u8 = 0x00;
const OP_RUN_8: u8 = 0x40;
const OP_RUN_16: u8 = 0x60;
const OP_DIFF_8: u8 = 0x80;
const OP_DIFF_16: u8 = 0xC0;
const OP_DIFF_24: u8 = 0xE0;
const OP_COLOR: u8 = 0xF0;

/// The low `bits` bits of `v` as a two's-complement number, as a wrapping `u8` delta.
#[inline]
fn sext(v: u8, bits: u32) -> u8 {
    (((v << (8 - bits)) as i8) >> (8 - bits)) as u8
}

/// The low `bits` bits of a delta (two's complement).
#[inline]
fn field(v: i32, bits: u32) -> u32 {
    (v as u32) & ((1 << bits) - 1)
}

#[inline]
fn hash(p: [u8; 4]) -> usize {
    ((p[0] ^ p[1] ^ p[2] ^ p[3]) & 63) as usize
}

/// Width, height and total blob length (header + stream) of a `fioq` image, from its header.
pub fn header(blob: &[u8]) -> Result<(u32, u32, usize), Error> {
    if blob.len() < HEADER_LEN || &blob[..4] != MAGIC {
        return Err(Error::corrupt(
            "QOI",
            0,
            format!(
                "a 12-byte header starting with `fioq`, found {} bytes",
                blob.len().min(12)
            ),
        ));
    }
    let w = u16::from_le_bytes([blob[4], blob[5]]) as u32;
    let h = u16::from_le_bytes([blob[6], blob[7]]) as u32;
    let len = u32::from_le_bytes([blob[8], blob[9], blob[10], blob[11]]) as usize;
    Ok((w, h, HEADER_LEN.saturating_add(len)))
}

/// Decodes a `fioq` image to RGBA8. Bytes after the stored stream length are ignored.
pub fn decode(blob: &[u8]) -> Result<Image, Error> {
    let (w, h, total) = header(blob)?;
    crate::check_size(w, h)?;
    let Some(data) = blob.get(HEADER_LEN..total) else {
        return Err(Error::corrupt(
            "QOI",
            8,
            format!(
                "an op stream of {} bytes (header length field), found {}",
                total - HEADER_LEN,
                blob.len() - HEADER_LEN
            ),
        ));
    };
    let n = (w as usize) * (h as usize);
    if n > data.len().saturating_mul(MAX_PIXELS_PER_BYTE) {
        return Err(Error::corrupt(
            "QOI",
            4,
            format!(
                "a {w}×{h} image, but a {}-byte stream cannot hold {n} pixels",
                data.len()
            ),
        ));
    }
    let mut out = vec![0u8; n * 4];
    let mut index = [[0u8; 4]; 64];
    let mut px = [0u8, 0, 0, 255];
    let mut pos = 0usize;
    let mut i = 0usize;
    let truncated = |pos: usize, i: usize| {
        Error::corrupt(
            "QOI",
            HEADER_LEN + pos,
            format!("ops for {n} pixels, but the stream ended after {i}"),
        )
    };
    while i < n {
        let Some(&b1) = data.get(pos) else {
            return Err(truncated(pos, i));
        };
        let at = pos;
        pos += 1;
        let mut run = 1usize;
        if b1 & 0xC0 == OP_INDEX {
            px = index[(b1 & 63) as usize];
        } else if b1 & 0xE0 == OP_RUN_8 {
            run = (b1 & 0x1F) as usize + 1;
        } else if b1 & 0xE0 == OP_RUN_16 {
            let Some(&b2) = data.get(pos) else {
                return Err(truncated(pos, i));
            };
            pos += 1;
            run = ((((b1 & 0x1F) as usize) << 8) | b2 as usize) + 33;
        } else if b1 & 0xC0 == OP_DIFF_8 {
            px[0] = px[0].wrapping_add(sext(b1 >> 4, 2));
            px[1] = px[1].wrapping_add(sext(b1 >> 2, 2));
            px[2] = px[2].wrapping_add(sext(b1, 2));
        } else if b1 & 0xE0 == OP_DIFF_16 {
            let Some(&b2) = data.get(pos) else {
                return Err(truncated(pos, i));
            };
            pos += 1;
            px[0] = px[0].wrapping_add(sext(b1, 5));
            px[1] = px[1].wrapping_add(sext(b2 >> 4, 4));
            px[2] = px[2].wrapping_add(sext(b2, 4));
        } else if b1 & 0xF0 == OP_DIFF_24 {
            let (Some(&b2), Some(&b3)) = (data.get(pos), data.get(pos + 1)) else {
                return Err(truncated(pos, i));
            };
            pos += 2;
            let v = ((b1 as u32) << 16) | ((b2 as u32) << 8) | b3 as u32;
            px[0] = px[0].wrapping_add(sext((v >> 15) as u8, 5));
            px[1] = px[1].wrapping_add(sext((v >> 10) as u8, 5));
            px[2] = px[2].wrapping_add(sext((v >> 5) as u8, 5));
            px[3] = px[3].wrapping_add(sext(v as u8, 5));
        } else {
            for (c, bit) in [8u8, 4, 2, 1].into_iter().enumerate() {
                if b1 & bit != 0 {
                    let Some(&v) = data.get(pos) else {
                        return Err(truncated(pos, i));
                    };
                    pos += 1;
                    px[c] = v;
                }
            }
        }
        index[hash(px)] = px;
        if run > n - i {
            return Err(Error::corrupt(
                "QOI",
                HEADER_LEN + at,
                format!(
                    "a run of at most {} pixels (to the image end), found {run}",
                    n - i
                ),
            ));
        }
        for o in out[i * 4..(i + run) * 4].chunks_exact_mut(4) {
            o.copy_from_slice(&px);
        }
        i += run;
    }
    Ok(Image::from_raw(w, h, out))
}

/// Encodes RGBA8 pixels as a `fioq` image the way GameMaker does (see the module notes).
/// Images wider or taller than 65535 pixels cannot be stored.
pub fn encode(image: &Image) -> Result<Vec<u8>, Error> {
    let (w, h) = (image.width(), image.height());
    let (Ok(w16), Ok(h16)) = (u16::try_from(w), u16::try_from(h)) else {
        return Err(Error::TooLarge {
            format: "QOI",
            width: w,
            height: h,
            max: u16::MAX as u32,
        });
    };
    let px_all = image.pixels();
    let mut out = Vec::with_capacity(HEADER_LEN + px_all.len() / 4 + 64);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&w16.to_le_bytes());
    out.extend_from_slice(&h16.to_le_bytes());
    out.extend_from_slice(&[0; 4]);
    let mut index = [[0u8; 4]; 64];
    let mut prev = [0u8, 0, 0, 255];
    let mut run = 0usize;
    let n = px_all.len() / 4;
    for (k, p) in px_all.chunks_exact(4).enumerate() {
        let px = [p[0], p[1], p[2], p[3]];
        let same = px == prev;
        if same {
            run += 1;
        }
        if run > 0 && (run == MAX_RUN || !same || k + 1 == n) {
            if run < 33 {
                out.push(OP_RUN_8 | (run - 1) as u8);
            } else {
                let r = run - 33;
                out.push(OP_RUN_16 | (r >> 8) as u8);
                out.push(r as u8);
            }
            run = 0;
        }
        if !same {
            let h = hash(px);
            if index[h] == px {
                out.push(OP_INDEX | h as u8);
            } else {
                index[h] = px;
                let d = |c: usize| px[c] as i32 - prev[c] as i32;
                let (vr, vg, vb, va) = (d(0), d(1), d(2), d(3));
                let in5 = |v: i32| (-16..16).contains(&v);
                let in4 = |v: i32| (-8..8).contains(&v);
                let in2 = |v: i32| (-2..2).contains(&v);
                if in5(vr) && in5(vg) && in5(vb) && in5(va) {
                    if va == 0 && in2(vr) && in2(vg) && in2(vb) {
                        let f = (field(vr, 2) << 4) | (field(vg, 2) << 2) | field(vb, 2);
                        out.push(OP_DIFF_8 | f as u8);
                    } else if va == 0 && in4(vg) && in4(vb) {
                        out.push(OP_DIFF_16 | field(vr, 5) as u8);
                        out.push(((field(vg, 4) << 4) | field(vb, 4)) as u8);
                    } else {
                        let v = (field(vr, 5) << 15)
                            | (field(vg, 5) << 10)
                            | (field(vb, 5) << 5)
                            | field(va, 5);
                        out.push(OP_DIFF_24 | (v >> 16) as u8);
                        out.push((v >> 8) as u8);
                        out.push(v as u8);
                    }
                } else {
                    let mut op = OP_COLOR;
                    for (c, bit) in [8u8, 4, 2, 1].into_iter().enumerate() {
                        if px[c] != prev[c] {
                            op |= bit;
                        }
                    }
                    out.push(op);
                    for c in 0..4 {
                        if px[c] != prev[c] {
                            out.push(px[c]);
                        }
                    }
                }
            }
        }
        prev = px;
    }
    let len = (out.len() - HEADER_LEN) as u32;
    out[8..12].copy_from_slice(&len.to_le_bytes());
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn image(w: u32, h: u32, f: impl Fn(u32, u32) -> [u8; 4]) -> Image {
        let mut px = Vec::new();
        for y in 0..h {
            for x in 0..w {
                px.extend_from_slice(&f(x, y));
            }
        }
        Image::new(w, h, px).unwrap()
    }

    #[test]
    fn every_op_round_trips() {
        // Gradients (small and large deltas), alpha changes, long runs, repeated colours.
        let img = image(300, 40, |x, y| match y % 5 {
            0 => [x as u8, (x / 2) as u8, 3, 255],
            1 => [(x * 7) as u8, (x * 3) as u8, (x * 11) as u8, (x * 5) as u8],
            2 => [0, 0, 0, 0],
            3 => [(x % 3) as u8 * 9, 1, 2, if x % 2 == 0 { 255 } else { 250 }],
            _ => [(x * 13 + y) as u8, 200, (x / 9) as u8, 128],
        });
        let enc = encode(&img).unwrap();
        assert_eq!(&enc[..4], MAGIC);
        assert_eq!(decode(&enc).unwrap(), img);
        // A run longer than one op holds.
        let flat = image(100, 200, |_, _| [9, 9, 9, 9]);
        assert_eq!(decode(&encode(&flat).unwrap()).unwrap(), flat);
    }

    #[test]
    fn hostile_streams_fail_cleanly() {
        let ok = encode(&image(5, 5, |x, y| [x as u8 * 40, y as u8 * 40, 7, 255])).unwrap();
        for cut in 0..ok.len() {
            let _ = decode(&ok[..cut]);
        }
        // A header claiming a huge image with a tiny stream.
        let mut big = b"fioq\xff\xff\xff\xff\x02\0\0\0\x7f\x7f".to_vec();
        assert!(decode(&big).is_err());
        big.truncate(12);
        assert!(decode(&big).is_err());
        // A run past the end of the image.
        let over = b"fioq\x02\0\x01\0\x01\0\0\0\x45";
        assert!(decode(over).unwrap_err().to_string().contains("run"));
    }
}
