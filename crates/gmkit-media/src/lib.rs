//! GameMaker media, decoded only when asked: texture pages, sprite/background/font frames,
//! collision masks and embedded audio of a [`gmkit_data::DataFile`].
//!
//! Parsing a data file never decodes an image; this crate does, one page at a time (or many in
//! parallel with [`decode_pages`]).
//!
//! - Texture pages: [`decode`] a blob (PNG, GameMaker QOI `fioq`, BZ2+QOI `2zoq`) to an RGBA8
//!   [`Image`]; [`encode`] an image back in a page's own format ([`Encoding::of`]). A page that
//!   cannot be decoded (DDS, external, unknown) gives an [`Error`] naming the page and the format,
//!   never a wrong picture.
//! - Frames: `frame::cut` cuts a sprite/background/font frame from its page through its
//!   texture page item, at full asset size; `frame::put` puts an edited frame back.
//! - Masks: [`mask`] converts sprite collision masks to and from 1-bit PNGs.
//! - Memory: every image size read from the input is checked against [`budget`] before
//!   anything is allocated (per image, and in total for the pages and frames alive at once).
//! - Audio: [`audio`] finds a sound's bytes (also in `audiogroupN.dat` files) and tells their
//!   file type.
//!
//! ```no_run
//! let data = gmkit_data::parse_file("data.win")?;
//! let textures = data.textures.as_ref().expect("a TXTR chunk");
//! let page = gmkit_media::decode_page(textures, 0)?;
//! println!("page 0: {}×{}", page.width(), page.height());
//! std::fs::write("page0.png", gmkit_media::encode_png(&page)?)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![warn(missing_docs)]

pub mod audio;
pub mod budget;
pub mod bz2qoi;
mod error;
pub mod frame;
pub mod mask;
mod png;
pub mod qoi;

pub use bz2qoi::Bz2Options;
pub use error::Error;
pub use gmkit_data::chunks::texture::BlobFormat;

use gmkit_data::chunks::texture::{PageData, TexturePage, Textures, blob_format};
use rayon::prelude::*;

/// Largest image gmkit decodes or creates, in pixels: [`budget::MAX_IMAGE_BYTES`] of RGBA
/// (8192 × 8192).
pub const MAX_PIXELS: u64 = budget::MAX_IMAGE_BYTES / 4;

/// An RGBA8 image: `width × height` pixels, row-major, 4 bytes per pixel, not premultiplied.
#[derive(Clone, PartialEq, Eq)]
pub struct Image {
    width: u32,
    height: u32,
    pixels: Vec<u8>,
}

impl std::fmt::Debug for Image {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Image({}×{})", self.width, self.height)
    }
}

/// Checks a declared image size against the per-image budget, before allocating.
pub(crate) fn check_size(w: u32, h: u32) -> Result<(), Error> {
    budget::check_image(w, h)
}

impl Image {
    /// An image from RGBA8 pixels; the length must be `width × height × 4`.
    pub fn new(width: u32, height: u32, pixels: Vec<u8>) -> Result<Image, Error> {
        check_size(width, height)?;
        let expected = width as usize * height as usize * 4;
        if pixels.len() != expected {
            return Err(Error::PixelLength {
                width,
                height,
                expected,
                found: pixels.len(),
            });
        }
        Ok(Image {
            width,
            height,
            pixels,
        })
    }
    /// A fully transparent image (all bytes 0).
    pub fn transparent(width: u32, height: u32) -> Result<Image, Error> {
        check_size(width, height)?;
        Ok(Image::from_raw(
            width,
            height,
            vec![0; width as usize * height as usize * 4],
        ))
    }
    pub(crate) fn from_raw(width: u32, height: u32, pixels: Vec<u8>) -> Image {
        debug_assert_eq!(pixels.len(), width as usize * height as usize * 4);
        Image {
            width,
            height,
            pixels,
        }
    }
    /// Width in pixels.
    pub fn width(&self) -> u32 {
        self.width
    }
    /// Height in pixels.
    pub fn height(&self) -> u32 {
        self.height
    }
    /// The RGBA8 pixels, row-major.
    pub fn pixels(&self) -> &[u8] {
        &self.pixels
    }
    /// The RGBA8 pixels, mutable.
    pub fn pixels_mut(&mut self) -> &mut [u8] {
        &mut self.pixels
    }
    /// Consumes the image, returning its pixels.
    pub fn into_pixels(self) -> Vec<u8> {
        self.pixels
    }
    /// The pixel at (x, y), `None` outside the image.
    pub fn pixel(&self, x: u32, y: u32) -> Option<[u8; 4]> {
        if x >= self.width || y >= self.height {
            return None;
        }
        let i = (y as usize * self.width as usize + x as usize) * 4;
        self.pixels[i..i + 4].try_into().ok()
    }
    /// Number of pixels that differ from `other` (`None` if the sizes differ).
    pub fn count_differences(&self, other: &Image) -> Option<usize> {
        if (self.width, self.height) != (other.width, other.height) {
            return None;
        }
        Some(
            self.pixels
                .chunks_exact(4)
                .zip(other.pixels.chunks_exact(4))
                .filter(|(a, b)| a != b)
                .count(),
        )
    }
}

/// Human name of a blob format.
pub fn format_name(f: BlobFormat) -> &'static str {
    match f {
        BlobFormat::Png => "PNG",
        BlobFormat::Qoi => "GameMaker QOI (fioq)",
        BlobFormat::Bz2Qoi => "BZ2+QOI (2zoq)",
        BlobFormat::Dds => "DDS",
        BlobFormat::Unknown => "unknown-format",
    }
}

/// How a page image is written: its format and the details a faithful re-encode keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// PNG (8-bit RGBA).
    Png,
    /// GameMaker QOI (`fioq`).
    Qoi,
    /// BZ2+QOI (`2zoq`) with its header layout and bzip2 block size.
    Bz2Qoi(Bz2Options),
}

impl Encoding {
    /// The encoding of an existing blob, so that an edited page is written in its own format.
    /// DDS and unknown formats cannot be written.
    pub fn of(blob: &[u8]) -> Result<Encoding, Error> {
        match blob_format(blob) {
            BlobFormat::Png => Ok(Encoding::Png),
            BlobFormat::Qoi => Ok(Encoding::Qoi),
            BlobFormat::Bz2Qoi => Ok(Encoding::Bz2Qoi(bz2qoi::header(blob)?.2)),
            f => Err(Error::unsupported(f, blob)),
        }
    }
    /// The encoding GameMaker uses for a new page of a file of this version: PNG before 2022.1,
    /// BZ2+QOI after (with the uncompressed-size field from 2022.5).
    pub fn for_version(v: &gmkit_data::Version) -> Encoding {
        if v.at_least(2022, 1) {
            Encoding::Bz2Qoi(Bz2Options {
                size_field: v.at_least(2022, 5),
                block_size: 9,
            })
        } else {
            Encoding::Png
        }
    }
    /// The blob format this encoding writes.
    pub fn format(&self) -> BlobFormat {
        match self {
            Encoding::Png => BlobFormat::Png,
            Encoding::Qoi => BlobFormat::Qoi,
            Encoding::Bz2Qoi(_) => BlobFormat::Bz2Qoi,
        }
    }
}

/// Decodes a texture blob (PNG, `fioq`, `2zoq`) to RGBA8. DDS and unknown formats give
/// [`Error::Unsupported`].
///
/// ```
/// let img = gmkit_media::Image::new(2, 1, vec![255, 0, 0, 255, 0, 0, 255, 128])?;
/// let blob = gmkit_media::encode(&img, gmkit_media::Encoding::Qoi)?;
/// assert_eq!(gmkit_media::decode(&blob)?, img);
/// # Ok::<(), gmkit_media::Error>(())
/// ```
pub fn decode(blob: &[u8]) -> Result<Image, Error> {
    match blob_format(blob) {
        BlobFormat::Png => png::decode(blob),
        BlobFormat::Qoi => qoi::decode(blob),
        BlobFormat::Bz2Qoi => bz2qoi::decode(blob),
        f => Err(Error::unsupported(f, blob)),
    }
}

/// Encodes an image as a texture blob.
pub fn encode(image: &Image, encoding: Encoding) -> Result<Vec<u8>, Error> {
    match encoding {
        Encoding::Png => png::encode(image),
        Encoding::Qoi => qoi::encode(image),
        Encoding::Bz2Qoi(o) => bz2qoi::encode(image, o),
    }
}

/// Encodes an image as a PNG file (8-bit RGBA), e.g. to export a page or frame.
pub fn encode_png(image: &Image) -> Result<Vec<u8>, Error> {
    png::encode(image)
}

/// Decodes any PNG file (palette, grey, 16-bit, ...) to RGBA8, e.g. to import a page or frame.
pub fn decode_png(bytes: &[u8]) -> Result<Image, Error> {
    png::decode(bytes)
}

/// Decodes a PNG that must be `width × height` (a frame, a page being replaced): the size in its
/// header is compared first, so a wrong-sized PNG (however large it claims to be) is refused
/// with [`Error::Size`] naming `what` before anything is decoded.
pub fn decode_png_sized(bytes: &[u8], width: u32, height: u32, what: &str) -> Result<Image, Error> {
    let (w, h) = png::header(bytes)?;
    if (w, h) != (width, height) {
        return Err(Error::Size {
            what: what.to_owned(),
            expected_w: width,
            expected_h: height,
            found_w: w,
            found_h: h,
        });
    }
    png::decode(bytes)
}

/// The width and height a texture blob declares in its header (PNG `IHDR`, `fioq`, `2zoq`),
/// read without decoding, so the image can be checked against a [`budget`] first. DDS and
/// unknown formats give [`Error::Unsupported`].
pub fn declared_size(blob: &[u8]) -> Result<(u32, u32), Error> {
    match blob_format(blob) {
        BlobFormat::Png => png::header(blob),
        BlobFormat::Qoi => qoi::header(blob).map(|(w, h, _)| (w, h)),
        BlobFormat::Bz2Qoi => bz2qoi::header(blob).map(|(w, h, _, _)| (w, h)),
        f => Err(Error::unsupported(f, blob)),
    }
}

/// The page at `index`, or [`Error::NoPage`].
fn page_at(textures: &Textures, index: usize) -> Result<&TexturePage, Error> {
    textures
        .pages
        .get(index)
        .and_then(Option::as_ref)
        .ok_or(Error::NoPage)
}

/// Decodes one page of a data file; errors name the page.
pub fn decode_page(textures: &Textures, index: usize) -> Result<Image, Error> {
    page_at(textures, index)
        .and_then(decode_texture_page)
        .map_err(|e| e.in_page(index))
}

/// Decodes one page within `budget`: the size its header declares is reserved first (so a page
/// over the per-image budget, or over what is left of `budget`, is refused before it is
/// decoded); the bytes stay reserved until the returned grant is dropped (drop it with the
/// image). Errors name the page.
pub fn decode_page_within<'b>(
    textures: &Textures,
    index: usize,
    budget: &'b budget::Budget,
) -> Result<(Image, budget::Grant<'b>), Error> {
    (|| {
        let page = page_at(textures, index)?;
        let PageData::Embedded(blob) = &page.data else {
            return Err(external(page));
        };
        let (w, h) = declared_size(blob)?;
        let grant = budget.reserve(w, h)?;
        Ok((decode(blob)?, grant))
    })()
    .map_err(|e| e.in_page(index))
}

/// Decodes a page record (external pages give [`Error::External`]).
pub fn decode_texture_page(page: &TexturePage) -> Result<Image, Error> {
    match &page.data {
        PageData::Embedded(b) => decode(b),
        PageData::External { .. } => Err(external(page)),
    }
}

/// The error for a page whose image is not in the data file.
fn external(page: &TexturePage) -> Error {
    Error::External {
        index_in_group: page.group_info.map_or(0, |g| g.index_in_group),
    }
}

/// Encodes an image in the page's own format (PNG page → PNG, `fioq` → `fioq`, `2zoq` →
/// `2zoq` with the same header layout); errors name the page. Put the result in with
/// [`TexturePage::set_blob`].
pub fn encode_page(textures: &Textures, index: usize, image: &Image) -> Result<Vec<u8>, Error> {
    (|| {
        let page = page_at(textures, index)?;
        let blob = match &page.data {
            PageData::Embedded(b) => b,
            PageData::External { .. } => return Err(external(page)),
        };
        encode(image, Encoding::of(blob)?)
    })()
    .map_err(|e| e.in_page(index))
}

/// Decodes every page in parallel (rayon), in page order. Each page's result is independent:
/// one damaged or unsupported page does not stop the others.
pub fn decode_pages(textures: &Textures) -> Vec<Result<Image, Error>> {
    (0..textures.pages.len())
        .into_par_iter()
        .map(|i| decode_page(textures, i))
        .collect()
}
