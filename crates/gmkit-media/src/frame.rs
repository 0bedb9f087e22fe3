//! Sprite, background/tileset and font frames cut from their texture pages.
//!
//! A texture page item (TPAG) stores only the trimmed part of a frame: the *source* rectangle on
//! the page is drawn at the *target* rectangle inside the full frame, whose size is the asset's
//! (a sprite's width × height; for backgrounds and fonts the item's bounding size). [`cut`]
//! rebuilds the full frame (transparent outside the target rectangle), so an exported frame
//! always has the asset's size; [`put`] writes an edited full-size frame back into its page.
//!
//! When the source and target rectangles differ in size (a scaled page) pixels are mapped by
//! nearest neighbour both ways; the round trip is then lossy.
//!
//! ```
//! use gmkit_data::chunks::texture_page_item::TexturePageItem;
//! use gmkit_media::{Image, frame};
//! // A 4×4 page holding a 2×2 region that sits at (1, 1) of a 4×3 sprite frame.
//! let mut page = Image::transparent(4, 4)?;
//! page.pixels_mut()[..4].copy_from_slice(&[255, 0, 0, 255]);
//! let item = TexturePageItem {
//!     source: [0, 0, 2, 2], target: [1, 1, 2, 2], bounding: [4, 3], texture_page: 0,
//! };
//! let f = frame::cut(&page, &item, 4, 3)?;
//! assert_eq!((f.width(), f.height()), (4, 3));
//! assert_eq!(f.pixel(1, 1), Some([255, 0, 0, 255]));
//! assert_eq!(f.pixel(0, 0), Some([0, 0, 0, 0]));
//! // Put it back unchanged: no page pixel changes.
//! assert_eq!(frame::put(&mut page, &item, &f)?, 0);
//! # Ok::<(), gmkit_media::Error>(())
//! ```

use crate::budget::Budget;
use crate::{Error, Image};
use gmkit_data::DataFile;
use gmkit_data::chunks::texture::Textures;
use gmkit_data::chunks::texture_page_item::{TexturePageItem, TpagRef};
use std::sync::OnceLock;

/// The item a reference points at, if it exists.
pub fn item(file: &DataFile, r: TpagRef) -> Option<&TexturePageItem> {
    file.texture_page_items
        .as_ref()?
        .items
        .get(r.0 as usize)?
        .as_ref()
}

/// Checks the item's source rectangle lies on its page, of `page_width × page_height` (known
/// from the page's header before decoding it).
pub fn check_source(
    item: &TexturePageItem,
    page_width: u32,
    page_height: u32,
) -> Result<(), Error> {
    // u16 + u16 cannot overflow a u32.
    let [sx, sy, sw, sh] = item.source.map(u32::from);
    if sx + sw > page_width || sy + sh > page_height {
        return Err(Error::Item {
            what: "source rectangle",
            detail: format!(
                "x {sx}..{}, y {sy}..{} does not fit the {page_width}×{page_height} page {}",
                sx + sw,
                sy + sh,
                item.texture_page
            ),
        });
    }
    Ok(())
}

/// Checks the item's target rectangle lies inside a `width × height` frame (the asset's size):
/// otherwise part of what the page stores would not show in the frame [`cut`] makes.
pub fn check_target(item: &TexturePageItem, width: u32, height: u32) -> Result<(), Error> {
    // u16 + u16 cannot overflow a u32.
    let [tx, ty, tw, th] = item.target.map(u32::from);
    if tx + tw > width || ty + th > height {
        return Err(Error::Item {
            what: "target rectangle",
            detail: format!(
                "x {tx}..{}, y {ty}..{} does not fit the {width}×{height} frame",
                tx + tw,
                ty + th
            ),
        });
    }
    Ok(())
}

/// For target offset `t` (0..tlen) the source offset (nearest neighbour when scaled).
#[inline]
fn map(t: u32, tlen: u32, slen: u32) -> u32 {
    if tlen == slen {
        t
    } else {
        (t as u64 * slen as u64 / tlen.max(1) as u64) as u32
    }
}

/// Cuts the frame of `item` from its decoded `page`, placed at the item's target offset inside
/// a transparent `width × height` frame (the asset's full size). Parts of the target rectangle
/// outside the frame are dropped.
pub fn cut(page: &Image, item: &TexturePageItem, width: u32, height: u32) -> Result<Image, Error> {
    check_source(item, page.width(), page.height())?;
    let [sx, sy, sw, sh] = item.source.map(u32::from);
    let [tx, ty, tw, th] = item.target.map(u32::from);
    let mut out = Image::transparent(width, height)?;
    // Nothing to place: an empty source, or a target that starts outside the frame.
    if sw == 0 || sh == 0 || tx >= width || ty >= height {
        return Ok(out);
    }
    let pw = page.width() as usize;
    // u16 + u16 cannot overflow a u32. A target rectangle starting past the frame's edge shows
    // nothing.
    let x_end = (tx + tw).min(width);
    let y_end = (ty + th).min(height);
    if tx >= x_end || ty >= y_end {
        return Ok(out);
    }
    for fy in ty..y_end {
        let py = (sy + map(fy - ty, th, sh)) as usize;
        let row = &mut out.pixels_mut()[fy as usize * width as usize * 4..][..width as usize * 4];
        if tw == sw {
            let n = (x_end - tx) as usize;
            let from = (py * pw + sx as usize) * 4;
            row[tx as usize * 4..][..n * 4].copy_from_slice(&page.pixels()[from..from + n * 4]);
        } else {
            for fx in tx..x_end {
                let px = (sx + map(fx - tx, tw, sw)) as usize;
                let from = (py * pw + px) * 4;
                row[fx as usize * 4..][..4].copy_from_slice(&page.pixels()[from..from + 4]);
            }
        }
    }
    Ok(out)
}

/// For source offset `s` (0..slen) a target offset that [`map`] sends back to `s` (when the
/// target is at least as large as the source, which is how pages are scaled down).
#[inline]
fn unmap(s: u32, slen: u32, tlen: u32) -> u32 {
    if tlen == slen {
        s
    } else {
        (s as u64 * tlen as u64).div_ceil(slen.max(1) as u64) as u32
    }
}

/// Writes an edited full-size `frame` back into the item's region of `page`; returns how many
/// page pixels changed.
///
/// The frame must have the size it was cut at (target rectangle inside it), and every pixel
/// outside the item's target rectangle must be transparent (alpha 0): the page stores nothing
/// there. Otherwise [`Error::OutsideRegion`] says how many visible pixels lie outside and where,
/// and the page is left untouched.
pub fn put(page: &mut Image, item: &TexturePageItem, frame: &Image) -> Result<usize, Error> {
    check_source(item, page.width(), page.height())?;
    let (w, h) = (frame.width(), frame.height());
    let [sx, sy, sw, sh] = item.source.map(u32::from);
    let [tx, ty, tw, th] = item.target.map(u32::from);
    let (x_end, y_end) = ((tx + tw).min(w), (ty + th).min(h));
    // Visible pixels outside the stored region.
    let mut outside: Option<(usize, [u32; 2], [u32; 4])> = None;
    for y in 0..h {
        for x in 0..w {
            if (tx..x_end).contains(&x) && (ty..y_end).contains(&y) {
                continue;
            }
            let a = frame.pixels()[(y as usize * w as usize + x as usize) * 4 + 3];
            if a != 0 {
                let o = outside.get_or_insert((0, [x, y], [x, y, x, y]));
                o.0 += 1;
                o.2 = [o.2[0].min(x), o.2[1].min(y), o.2[2].max(x), o.2[3].max(y)];
            }
        }
    }
    if let Some((count, [first_x, first_y], [min_x, min_y, max_x, max_y])) = outside {
        return Err(Error::OutsideRegion {
            count,
            rx: tx,
            rx_end: x_end,
            ry: ty,
            ry_end: y_end,
            first_x,
            first_y,
            min_x,
            min_y,
            max_x,
            max_y,
        });
    }
    if sw == 0 || sh == 0 || tw == 0 || th == 0 {
        return Ok(0);
    }
    let pw = page.width() as usize;
    let mut changed = 0;
    for y in 0..sh {
        // The target row this page row shows (inverse nearest-neighbour map).
        let fy = ty + unmap(y, sh, th);
        if fy >= y_end {
            continue;
        }
        for x in 0..sw {
            let fx = tx + unmap(x, sw, tw);
            if fx >= x_end {
                continue;
            }
            let from = (fy as usize * w as usize + fx as usize) * 4;
            let to = ((sy + y) as usize * pw + (sx + x) as usize) * 4;
            let src = &frame.pixels()[from..from + 4];
            let dst = &mut page.pixels_mut()[to..to + 4];
            if dst != src {
                dst.copy_from_slice(src);
                changed += 1;
            }
        }
    }
    Ok(changed)
}

/// Decoded pages of one data file, each decoded on first use and kept (thread-safe, so frames
/// can be cut in parallel), within a [`Budget`]: a page whose declared size would take the
/// pages kept past the budget is refused before it is decoded (an error for that page).
///
/// To go through many pages in bounded memory, decode them one at a time with
/// [`crate::decode_page_within`] and drop each when done, as unpack does.
pub struct Pages<'a> {
    textures: &'a Textures,
    budget: Budget,
    cells: Vec<OnceLock<Result<Image, Error>>>,
}

impl<'a> Pages<'a> {
    /// A cache over a TXTR chunk within the default budget ([`crate::budget::MAX_LIVE_BYTES`]
    /// of pages kept); nothing is decoded yet.
    pub fn new(textures: &'a Textures) -> Self {
        Pages::with_budget(textures, Budget::default())
    }
    /// A cache over a TXTR chunk within `budget`; nothing is decoded yet.
    pub fn with_budget(textures: &'a Textures, budget: Budget) -> Self {
        Pages {
            textures,
            budget,
            cells: (0..textures.pages.len()).map(|_| OnceLock::new()).collect(),
        }
    }
    /// The decoded page `index` (decoding it now if needed).
    pub fn get(&self, index: usize) -> Result<&Image, Error> {
        let Some(cell) = self.cells.get(index) else {
            return Err(Error::NoPage.in_page(index));
        };
        cell.get_or_init(|| {
            // The page is kept as long as the cache: so are its bytes in the budget.
            crate::decode_page_within(self.textures, index, &self.budget).map(|(img, grant)| {
                grant.keep();
                img
            })
        })
        .as_ref()
        .map_err(Clone::clone)
    }
    /// Decodes every page not yet decoded, in parallel.
    pub fn decode_all(&self) {
        use rayon::prelude::*;
        (0..self.cells.len()).into_par_iter().for_each(|i| {
            let _ = self.get(i);
        });
    }
    /// Cuts the frame of the item `r` at `width × height` (the asset's size; `None`: the
    /// item's bounding size).
    pub fn cut(
        &self,
        file: &DataFile,
        r: TpagRef,
        size: Option<(u32, u32)>,
    ) -> Result<Image, Error> {
        let it = item(file, r)
            .ok_or_else(|| Error::NotFound(format!("texture page item {} does not exist", r.0)))?;
        let page = usize::try_from(it.texture_page).map_err(|_| Error::Item {
            what: "texture page index",
            detail: format!("item {} has page {}", r.0, it.texture_page),
        })?;
        let (w, h) = size.unwrap_or((it.bounding[0].into(), it.bounding[1].into()));
        cut(self.get(page)?, it, w, h)
    }
}

/// The frames of sprite `index` at the sprite's width × height, in frame order (`None` for a
/// frame without an item). Special sprites (SWF, Spine, vector) list their TPAG frames too.
pub fn sprite_frames(
    file: &DataFile,
    pages: &Pages,
    index: usize,
) -> Result<Vec<Option<Image>>, Error> {
    let s = file
        .sprites
        .as_ref()
        .and_then(|s| s.sprites.get(index)?.as_ref())
        .ok_or_else(|| Error::NotFound(format!("sprite {index} does not exist")))?;
    s.frames
        .iter()
        .map(|f| {
            f.map(|r| pages.cut(file, r, Some((s.width, s.height))))
                .transpose()
        })
        .collect()
}
