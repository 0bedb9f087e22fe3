//! The one drawing primitive: part of a frame (a texture page item) placed on the canvas by an
//! affine transform (position, origin, scale, rotation), optionally repeated across the canvas,
//! sampled nearest-neighbour, multiplied by a blend colour and alpha, and alpha-blended over
//! what is there.
//!
//! Every destination pixel is mapped back to the frame through the inverse transform at its
//! centre; only the pixels inside the transformed rectangle (clipped to the canvas) are
//! visited, so a huge scale costs at most the canvas's area. An axis-aligned draw works by
//! rows (spans, `span.rs`); a rotated one pixel by pixel.

use crate::span::{NO_COLUMN, alphas, gather, mul, over};
use gmkit_data::chunks::texture_page_item::TexturePageItem;
use gmkit_media::Image;
use image::RgbaImage;

/// A GameMaker colour (`0xAABBGGRR`) as RGBA.
pub fn gm_rgba(c: u32) -> [u8; 4] {
    [c as u8, (c >> 8) as u8, (c >> 16) as u8, (c >> 24) as u8]
}

/// The canvas area from which an axis-aligned draw is shared between threads (by rows).
const PARALLEL_AREA: u64 = 1 << 18;

/// The largest table of gathered page rows a large draw keeps (bytes).
const SPAN_TABLE_BYTES: u64 = 32 << 20;

/// Blends `src` (already tinted) over `dst`: source-over, non-premultiplied.
#[inline]
pub fn blend(dst: &mut [u8], src: [u8; 4]) {
    let sa = src[3] as u32;
    if sa == 0 {
        return;
    }
    if sa == 255 {
        dst.copy_from_slice(&src);
        return;
    }
    let da = dst[3] as u32;
    if da == 255 {
        for k in 0..3 {
            dst[k] = ((src[k] as u32 * sa + dst[k] as u32 * (255 - sa) + 127) / 255) as u8;
        }
        return;
    }
    // General "over": out_a = sa + da (1 - sa); colours weighted by their coverage.
    let oa = sa * 255 + da * (255 - sa); // out alpha × 255
    if oa == 0 {
        return;
    }
    for k in 0..3 {
        let c = src[k] as u32 * sa * 255 + dst[k] as u32 * da * (255 - sa);
        dst[k] = ((c + oa / 2) / oa) as u8;
    }
    dst[3] = ((oa + 127) / 255) as u8;
}

/// Multiplies a page pixel by a tint (blend colour and alpha).
#[inline]
fn tinted(p: &[u8], tint: [u8; 4]) -> [u8; 4] {
    if tint == [255; 4] {
        return [p[0], p[1], p[2], p[3]];
    }
    [0, 1, 2, 3].map(|k| mul(p[k].into(), tint[k].into()) as u8)
}

/// What is drawn: a rectangle of a frame (frame coordinates: the asset's full size, of which
/// the item stores the target rectangle) from a decoded page.
pub struct Source<'a> {
    /// The decoded page.
    pub page: &'a Image,
    /// The item placing the page's source rectangle inside the frame.
    pub item: &'a TexturePageItem,
    /// The rectangle of the frame drawn: x, y, width, height (frame coordinates).
    pub region: [i64; 4],
}

/// Where and how it is drawn.
#[derive(Clone, Copy, Debug)]
pub struct Place {
    /// Where the pivot lands on the canvas.
    pub x: f64,
    /// Where the pivot lands on the canvas.
    pub y: f64,
    /// The pivot (origin) in region coordinates.
    pub pivot: (f64, f64),
    /// Scale (negative mirrors).
    pub scale: (f64, f64),
    /// Rotation in degrees, counter-clockwise on screen (GameMaker's `image_angle`).
    pub angle: f64,
    /// Repeat across the canvas horizontally and vertically.
    pub tile: (bool, bool),
    /// Tile-map flags applied to the region before placing it: mirror, flip, rotate 90°
    /// clockwise (see [`crate`] docs for their order).
    pub flags: (bool, bool, bool),
    /// Blend colour and alpha multiplied into every pixel.
    pub tint: [u8; 4],
}

impl Place {
    /// At (x, y) with no origin, scale 1, no rotation, no tiling, no tint.
    pub fn at(x: f64, y: f64) -> Place {
        Place {
            x,
            y,
            pivot: (0.0, 0.0),
            scale: (1.0, 1.0),
            angle: 0.0,
            tile: (false, false),
            flags: (false, false, false),
            tint: [255; 4],
        }
    }
}

/// Why a draw was not done.
#[derive(Debug, PartialEq)]
pub enum Refused {
    /// A position, scale or angle is NaN or infinite.
    NotFinite,
    /// The work limit is spent.
    WorkLimit,
}

/// The canvas with its remaining work (pixels that may still be visited).
pub struct Canvas {
    /// The image drawn on.
    image: RgbaImage,
    /// Every pixel is opaque (the canvas started or was filled opaque: blending over opaque
    /// pixels keeps them opaque), so spans need not check.
    opaque: bool,
    /// Pixels that may still be visited by draws.
    pub work_left: u64,
    /// Scratch column map reused between draws (page pixel x, or [`NO_COLUMN`]).
    cols: Vec<u32>,
    /// Scratch span reused between small draws.
    span: Vec<u32>,
    /// The colour of every pixel while the canvas is still one colour.
    uniform: Option<[u8; 4]>,
}

/// Calls `f` on every row of `image`, the rows shared between the cores when the image is
/// large.
fn for_rows(image: &mut RgbaImage, f: impl Fn(&mut [u8]) + Sync + Send) {
    let stride = image.width() as usize * 4;
    let large = image.width() as u64 * image.height() as u64 >= PARALLEL_AREA;
    let buf: &mut [u8] = image;
    if stride == 0 {
        return;
    }
    if large {
        use rayon::prelude::*;
        buf.par_chunks_mut(stride).for_each(f);
    } else {
        buf.chunks_mut(stride).for_each(f);
    }
}

/// Sets every pixel of `image` to `rgba`.
fn fill_rows(image: &mut RgbaImage, rgba: [u8; 4]) {
    for_rows(image, |row| row.as_chunks_mut::<4>().0.fill(rgba));
}

/// Sine and cosine of an angle in degrees, exact at multiples of 90°.
fn sin_cos(deg: f64) -> (f64, f64) {
    let a = deg.rem_euclid(360.0);
    if a == 0.0 {
        (0.0, 1.0)
    } else if a == 90.0 {
        (1.0, 0.0)
    } else if a == 180.0 {
        (0.0, -1.0)
    } else if a == 270.0 {
        (-1.0, 0.0)
    } else {
        a.to_radians().sin_cos()
    }
}

impl Canvas {
    /// A transparent canvas of `width × height` (the caller checks the size first) that may
    /// visit `work` pixels in all.
    pub fn new(width: u32, height: u32, work: u64) -> Canvas {
        Canvas::filled(width, height, [0; 4], work)
    }

    /// A canvas of `width × height` filled with `rgba`. The memory comes zeroed from the
    /// allocator (lazily, by the kernel, for a large picture); a colour other than transparent
    /// is written by rows shared between the cores.
    pub fn filled(width: u32, height: u32, rgba: [u8; 4], work: u64) -> Canvas {
        let mut image = RgbaImage::new(width, height);
        if rgba != [0; 4] {
            fill_rows(&mut image, rgba);
        }
        Canvas {
            image,
            work_left: work,
            cols: Vec::new(),
            span: Vec::new(),
            uniform: Some(rgba),
            opaque: rgba[3] == 255,
        }
    }

    /// The image drawn.
    pub fn image(&self) -> &RgbaImage {
        &self.image
    }

    /// The image drawn, taken out of the canvas.
    pub fn into_image(self) -> RgbaImage {
        self.image
    }

    /// Fills the whole canvas with a colour blended over it.
    pub fn fill(&mut self, rgba: [u8; 4]) {
        if rgba[3] == 255 {
            if self.uniform != Some(rgba) {
                fill_rows(&mut self.image, rgba);
                self.uniform = Some(rgba);
                self.opaque = true;
            }
            return;
        }
        self.uniform = None;
        let width = self.image.width() as usize;
        if width == 0 {
            return;
        }
        let src = vec![u32::from_le_bytes(rgba); width];
        let a = alphas(&src);
        let opaque = self.opaque;
        for_rows(&mut self.image, |row| over(row, &src, a, opaque));
    }

    /// Draws a 1-pixel outline of the rectangle (x, y, w, h).
    pub fn outline(&mut self, r: [i64; 4], rgba: [u8; 4]) {
        let (cw, ch) = (self.image.width() as i64, self.image.height() as i64);
        let [x, y, w, h] = r;
        if w <= 0 || h <= 0 {
            return;
        }
        let (x1, y1) = (x.saturating_add(w - 1), y.saturating_add(h - 1));
        self.uniform = None;
        let mut put = |px: i64, py: i64| {
            if (0..cw).contains(&px) && (0..ch).contains(&py) {
                blend(&mut self.image.get_pixel_mut(px as u32, py as u32).0, rgba);
            }
        };
        for px in x.max(0)..=x1.min(cw - 1) {
            put(px, y);
            if y1 != y {
                put(px, y1);
            }
        }
        for py in (y + 1).max(0)..=(y1 - 1).min(ch - 1) {
            put(x, py);
            if x1 != x {
                put(x1, py);
            }
        }
    }

    /// Draws `src` placed by `at`. Returns whether anything could be visited (false when the
    /// placed rectangle misses the canvas or is empty).
    pub fn draw(&mut self, src: &Source, at: &Place) -> Result<bool, Refused> {
        let finite = [
            at.x, at.y, at.pivot.0, at.pivot.1, at.scale.0, at.scale.1, at.angle,
        ]
        .iter()
        .all(|v| v.is_finite());
        if !finite {
            return Err(Refused::NotFinite);
        }
        let [_, _, rw, rh] = src.region;
        if rw <= 0 || rh <= 0 || at.scale.0 == 0.0 || at.scale.1 == 0.0 {
            return Ok(false);
        }
        let (cw, ch) = (self.image.width() as i64, self.image.height() as i64);
        let (mut sin, mut cos) = sin_cos(at.angle);
        let (mut sx, mut sy) = at.scale;
        // 180°: the same as both scales negated.
        if sin == 0.0 && cos < 0.0 {
            (sx, sy, cos) = (-sx, -sy, 1.0);
        }
        if sin == 0.0 {
            sin = 0.0;
        }
        // The canvas box to visit.
        let corner = |u: f64, v: f64| {
            let (dx, dy) = ((u - at.pivot.0) * sx, (v - at.pivot.1) * sy);
            (at.x + cos * dx + sin * dy, at.y - sin * dx + cos * dy)
        };
        let cs = [
            corner(0.0, 0.0),
            corner(rw as f64, 0.0),
            corner(0.0, rh as f64),
            corner(rw as f64, rh as f64),
        ];
        let (mut x0, mut x1, mut y0, mut y1) = (0, cw, 0, ch);
        let rotated = sin != 0.0;
        if !(at.tile.0 || rotated && at.tile.1) {
            let lo = cs.iter().map(|c| c.0).fold(f64::INFINITY, f64::min);
            let hi = cs.iter().map(|c| c.0).fold(f64::NEG_INFINITY, f64::max);
            // Pixel centres inside [lo, hi): from round(lo) to round(hi).
            x0 = ((lo - 0.5).ceil() as i64).clamp(0, cw);
            x1 = ((hi - 0.5).ceil() as i64).clamp(0, cw);
        }
        if !(at.tile.1 || rotated && at.tile.0) {
            let lo = cs.iter().map(|c| c.1).fold(f64::INFINITY, f64::min);
            let hi = cs.iter().map(|c| c.1).fold(f64::NEG_INFINITY, f64::max);
            y0 = ((lo - 0.5).ceil() as i64).clamp(0, ch);
            y1 = ((hi - 0.5).ceil() as i64).clamp(0, ch);
        }
        if x0 >= x1 || y0 >= y1 {
            return Ok(false);
        }
        let area = (x1 - x0) as u64 * (y1 - y0) as u64;
        if area > self.work_left {
            self.work_left = 0;
            return Err(Refused::WorkLimit);
        }
        self.work_left -= area;
        self.uniform = None;

        let item = src.item;
        let [isx, isy, isw, ish] = item.source.map(i64::from);
        let [itx, ity, itw, ith] = item.target.map(i64::from);
        let (pw, ph) = (src.page.width() as i64, src.page.height() as i64);
        if isw == 0 || ish == 0 || itw == 0 || ith == 0 || isx + isw > pw || isy + ish > ph {
            return Ok(false);
        }
        // Region pixel (after tile flags) → page pixel offset, or None outside the stored part.
        let [rx, ry, _, _] = src.region;
        let page_x = |fx: i64| -> Option<i64> {
            let t = fx - itx;
            (0..itw)
                .contains(&t)
                .then(|| isx + if itw == isw { t } else { t * isw / itw })
        };
        let page_y = |fy: i64| -> Option<i64> {
            let t = fy - ity;
            (0..ith)
                .contains(&t)
                .then(|| isy + if ith == ish { t } else { t * ish / ith })
        };
        // Canvas offset → region coordinate along one axis (axis-aligned case).
        let wrap = |l: f64, len: i64, tile: bool| -> Option<i64> {
            let l = if tile { l.rem_euclid(len as f64) } else { l };
            let i = l.floor();
            (i >= 0.0 && i < len as f64).then_some(i as i64)
        };
        let pixels = src.page.pixels();
        let out_w = cw as usize;
        let (mirror, flip, rot) = at.flags;
        let buf: &mut [u8] = &mut self.image;

        if !rotated && !rot {
            // Axis-aligned: one column map, one row lookup per row; each row is a span
            // gathered from its page row and blended by the cheapest exact rule.
            self.cols.clear();
            for px in x0..x1 {
                let l = (px as f64 + 0.5 - at.x) / sx + at.pivot.0;
                let c = wrap(l, rw, at.tile.0)
                    .map(|u| if mirror { rw - 1 - u } else { u })
                    .and_then(|u| page_x(rx + u));
                self.cols
                    .push(c.and_then(|c| u32::try_from(c).ok()).unwrap_or(NO_COLUMN));
            }
            let cols = &self.cols[..];
            let opaque = self.opaque;
            let len = cols.len();
            let seg = x0 as usize * 4..x1 as usize * 4;
            let stride = out_w * 4;
            let page_row = |py: i64| -> Option<i64> {
                let l = (py as f64 + 0.5 - at.y) / sy + at.pivot.1;
                wrap(l, rh, at.tile.1)
                    .map(|v| if flip { rh - 1 - v } else { v })
                    .and_then(|v| page_y(ry + v))
            };
            let gather_row = |row: i64, span: &mut [u32]| {
                let from = &pixels[(row * pw * 4) as usize..][..(pw * 4) as usize];
                gather(span, from, cols, at.tint)
            };
            let rows = &mut buf[y0 as usize * stride..y1 as usize * stride];
            if area < PARALLEL_AREA {
                // A small draw (a sprite, a tile): on this thread, one span per row.
                let span = &mut self.span;
                span.resize(len, 0);
                for (k, out) in rows.chunks_mut(stride).enumerate() {
                    if let Some(row) = page_row(y0 + k as i64) {
                        let a = gather_row(row, span);
                        over(&mut out[seg.clone()], span, a, opaque);
                    }
                }
                return Ok(true);
            }
            // A large draw (a background over a big room): rows shared between the cores.
            // When canvas rows repeat page rows (a tiled or enlarged background), each page
            // row is gathered once into a table first.
            use rayon::prelude::*;
            let page_rows: Vec<Option<i64>> = (y0..y1).map(page_row).collect();
            let mut slot = vec![u32::MAX; ph as usize];
            let mut distinct = Vec::new();
            for &r in page_rows.iter().flatten() {
                if slot[r as usize] == u32::MAX {
                    slot[r as usize] = distinct.len() as u32;
                    distinct.push(r);
                }
            }
            let table_bytes = (distinct.len() * len * 4) as u64;
            if distinct.len() * 2 <= page_rows.len() && table_bytes <= SPAN_TABLE_BYTES {
                let mut table = vec![0u32; distinct.len() * len];
                let alphas: Vec<_> = table
                    .par_chunks_mut(len)
                    .zip(&distinct)
                    .map(|(span, &row)| gather_row(row, span))
                    .collect();
                rows.par_chunks_mut(stride)
                    .zip(&page_rows)
                    .for_each(|(out, row)| {
                        if let Some(row) = row {
                            let i = slot[*row as usize] as usize;
                            over(
                                &mut out[seg.clone()],
                                &table[i * len..][..len],
                                alphas[i],
                                opaque,
                            );
                        }
                    });
            } else {
                rows.par_chunks_mut(stride).zip(&page_rows).for_each_init(
                    || vec![0u32; len],
                    |span, (out, row)| {
                        if let Some(row) = row {
                            let a = gather_row(*row, span);
                            over(&mut out[seg.clone()], span, a, opaque);
                        }
                    },
                );
            }
            return Ok(true);
        }
        // General: the inverse transform at every pixel centre.
        for py in y0..y1 {
            let out = &mut buf[py as usize * out_w * 4..][..out_w * 4];
            let dy = py as f64 + 0.5 - at.y;
            for px in x0..x1 {
                let dx = px as f64 + 0.5 - at.x;
                let lu = (cos * dx - sin * dy) / sx + at.pivot.0;
                let lv = (sin * dx + cos * dy) / sy + at.pivot.1;
                let (Some(mut u), Some(mut v)) = (wrap(lu, rw, at.tile.0), wrap(lv, rh, at.tile.1))
                else {
                    continue;
                };
                if rot {
                    // Drawn turned 90° clockwise: canvas (u, v) shows region (v, h - 1 - u).
                    if rw != rh {
                        continue;
                    }
                    (u, v) = (v, rh - 1 - u);
                }
                if mirror {
                    u = rw - 1 - u;
                }
                if flip {
                    v = rh - 1 - v;
                }
                let (Some(cx), Some(cy)) = (page_x(rx + u), page_y(ry + v)) else {
                    continue;
                };
                let from = ((cy * pw + cx) * 4) as usize;
                let s = tinted(&pixels[from..from + 4], at.tint);
                let d = px as usize * 4;
                blend(&mut out[d..d + 4], s);
            }
        }
        Ok(true)
    }
}
