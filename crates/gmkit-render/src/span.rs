//! A span: the pixels one row of an axis-aligned draw covers. Its source pixels are gathered
//! from a page row through a column map and tinted, then blended over the canvas by the
//! cheapest rule that gives exactly what [`blend`] gives pixel by pixel:
//!
//! - every source pixel transparent: nothing to do;
//! - every source pixel opaque: a copy;
//! - every canvas pixel under the span opaque: one branch-free integer formula per pixel
//!   ([`over_opaque`]);
//! - otherwise [`blend`] per pixel.
//!
//! Pixels are handled as `u32` in little-endian RGBA order (red in the low byte).

use crate::blit::blend;

/// A column with no source pixel (outside the stored part of the frame).
pub const NO_COLUMN: u32 = u32::MAX;

/// `a × b / 255`, rounded (`a`, `b` ≤ 255).
#[inline]
pub fn mul(a: u32, b: u32) -> u32 {
    (a * b + 127) / 255
}

/// What a gathered span holds: the AND and the OR of its pixels' alphas.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Alphas {
    /// AND of the alphas: 255 when every pixel is opaque.
    pub all: u8,
    /// OR of the alphas: 0 when every pixel is transparent.
    pub any: u8,
}

/// Fills `out` (one pixel per column) with the pixels of `row` (a page row, RGBA bytes) that
/// `cols` names (pixel indices; [`NO_COLUMN`] or an index past the row gives a transparent
/// pixel), multiplied by `tint`. Returns the alphas gathered.
pub fn gather(out: &mut [u32], row: &[u8], cols: &[u32], tint: [u8; 4]) -> Alphas {
    let px = row.as_chunks::<4>().0;
    let fetch = |c: u32| px.get(c as usize).map_or(0, |p| u32::from_le_bytes(*p));
    if tint == [255; 4] {
        for (o, &c) in out.iter_mut().zip(cols) {
            *o = fetch(c);
        }
    } else {
        // One table per channel: `mul(v, t)` for every v.
        let luts =
            tint.map(|t| std::array::from_fn::<u8, 256, _>(|v| mul(v as u32, t.into()) as u8));
        for (o, &c) in out.iter_mut().zip(cols) {
            let p = fetch(c).to_le_bytes();
            *o = u32::from_le_bytes([
                luts[0][p[0] as usize],
                luts[1][p[1] as usize],
                luts[2][p[2] as usize],
                luts[3][p[3] as usize],
            ]);
        }
    }
    alphas(out)
}

/// The alphas of `src`.
pub fn alphas(src: &[u32]) -> Alphas {
    let (all, any) = src
        .iter()
        .fold((u32::MAX, 0u32), |(a, o), &p| (a & p, o | p));
    Alphas {
        all: (all >> 24) as u8,
        any: (any >> 24) as u8,
    }
}

/// Blends `src` (tinted pixels, with their [`Alphas`]) over `dst` (RGBA bytes, 4 per source
/// pixel): the same bytes as [`blend`] on every pixel. `opaque` says every pixel of `dst` is
/// known to be opaque (otherwise they are checked).
pub fn over(dst: &mut [u8], src: &[u32], a: Alphas, opaque: bool) {
    let dst = dst.as_chunks_mut::<4>().0;
    if a.any == 0 {
        return;
    }
    if a.all == 255 {
        for (d, &s) in dst.iter_mut().zip(src) {
            *d = s.to_le_bytes();
        }
        return;
    }
    if opaque || dst.iter().fold(255, |a, d| a & d[3]) == 255 {
        over_opaque(dst, src);
        return;
    }
    for (d, &s) in dst.iter_mut().zip(src) {
        blend(d, s.to_le_bytes());
    }
}

/// Source-over onto opaque pixels: `(s × sa + d × (255 − sa) + 127) / 255` per colour, alpha
/// stays 255 (which is also what a transparent or an opaque source gives). Red and blue are
/// computed together in the two 16-bit halves of one `u32`; `(y + 1 + (y >> 8)) >> 8` is
/// `y / 255` for every `y` below 65535 (here at most 255 × 255 + 127 + 255).
pub fn over_opaque(dst: &mut [[u8; 4]], src: &[u32]) {
    const RB: u32 = 0x00ff_00ff;
    for (d, &s) in dst.iter_mut().zip(src) {
        let dv = u32::from_le_bytes(*d);
        let sa = s >> 24;
        let ia = 255 - sa;
        let rb = (s & RB) * sa + (dv & RB) * ia + 0x007f_007f;
        let g = ((s >> 8) & 0xff) * sa + ((dv >> 8) & 0xff) * ia + 0x7f;
        let rb = ((rb + 0x0001_0001 + ((rb >> 8) & RB)) >> 8) & RB;
        let g = (g + 1 + (g >> 8)) >> 8;
        *d = (rb | g << 8 | 0xff00_0000).to_le_bytes();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The formula equals [`blend`] for every source colour and alpha over every opaque
    /// destination value (one channel sweeps, the others vary with it).
    #[test]
    fn over_opaque_is_blend() {
        for sa in 0..=255u32 {
            for s in 0..=255u32 {
                let src = s | (255 - s) << 8 | (s ^ 0x5a) << 16 | sa << 24;
                let mut fast: Vec<[u8; 4]> = (0..=255u8)
                    .map(|d| [d, 255 - d, d.wrapping_mul(7), 255])
                    .collect();
                let mut slow = fast.clone();
                over_opaque(&mut fast, &vec![src; 256]);
                for d in &mut slow {
                    blend(d, src.to_le_bytes());
                }
                assert_eq!(fast, slow, "source {src:08x}");
            }
        }
    }

    /// Every rule of [`over`] gives [`blend`]'s bytes: transparent, opaque, mixed sources over
    /// opaque and over translucent destinations.
    #[test]
    fn over_is_blend() {
        let sources: [&[u32]; 4] = [
            &[0, 0x0000_00ff, 0],
            &[0xff01_0203, 0xff40_5060, 0xffff_ffff],
            &[0x8010_2030, 0, 0xff00_00ff],
            &[0x0110_2030, 0xfe40_5060, 0x7f7f_7f7f],
        ];
        let dests: [[u8; 12]; 2] = [
            [1, 2, 3, 255, 200, 100, 50, 255, 0, 0, 0, 255],
            [1, 2, 3, 0, 200, 100, 50, 128, 9, 8, 7, 255],
        ];
        for src in sources {
            for dst in dests {
                let mut slow = dst;
                for (d, &s) in slow.as_chunks_mut::<4>().0.iter_mut().zip(src) {
                    blend(d, s.to_le_bytes());
                }
                // Told the destination is opaque only when it is.
                let opaque = dst.as_chunks::<4>().0.iter().all(|d| d[3] == 255);
                for known in [false, opaque] {
                    let mut fast = dst;
                    over(&mut fast, src, alphas(src), known);
                    assert_eq!(fast, slow, "{src:08x?} over {dst:?}, known opaque {known}");
                }
            }
        }
    }

    /// Gathering names page pixels by column, leaves missing ones transparent and tints.
    #[test]
    fn gather_tints_and_reports_alphas() {
        let row = [10, 20, 30, 255, 40, 50, 60, 128];
        let mut out = [1; 4];
        let a = gather(&mut out, &row, &[1, NO_COLUMN, 0, 7], [255; 4]);
        assert_eq!(out, [0x803c_3228, 0, 0xff1e_140a, 0]);
        assert_eq!(a, Alphas { all: 0, any: 255 });
        let a = gather(&mut out[..1], &row, &[0], [255, 0, 128, 16]);
        assert_eq!(out[0], 16 << 24 | 15 << 16 | 10);
        assert_eq!(a, Alphas { all: 16, any: 16 });
    }
}
