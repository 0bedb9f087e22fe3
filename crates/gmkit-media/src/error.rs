//! Errors of media decoding and encoding.

use gmkit_data::chunks::texture::BlobFormat;

/// Why a page, frame, mask or sound could not be decoded or encoded.
#[derive(Clone, Debug, thiserror::Error)]
pub enum Error {
    /// The error happened on one texture page (wraps the cause).
    #[error("texture page {page}: {source}")]
    Page {
        /// Index of the page in TXTR.
        page: usize,
        /// What went wrong.
        #[source]
        source: Box<Error>,
    },
    /// An image format gmkit cannot decode or encode (DDS, an unknown magic).
    #[error("{format} images are not supported{}", magic_note(.magic))]
    Unsupported {
        /// Human name of the format.
        format: &'static str,
        /// The first bytes of the blob (to tell what it is).
        magic: [u8; 4],
    },
    /// The page's image is not in the data file (2022.9+ external texture-group page).
    #[error(
        "the image is stored outside the data file (external texture page, index {index_in_group} of its texture group); load that file and decode its bytes"
    )]
    External {
        /// The page's index inside its texture group (names the external file).
        index_in_group: u32,
    },
    /// The page slot is empty (stripped asset, 2024.11+).
    #[error("no such texture page (index out of range or stripped slot)")]
    NoPage,
    /// A damaged or truncated stream.
    #[error("damaged {format} image at byte {offset}: expected {detail}")]
    Corrupt {
        /// Format being decoded.
        format: &'static str,
        /// Byte offset inside the blob (or the decompressed stream for BZ2+QOI's inner image).
        offset: usize,
        /// What was expected and found.
        detail: String,
    },
    /// An image too large for the format (or for gmkit's pixel limit).
    #[error(
        "a {width}×{height} image is too large for {format} (at most {max} per side / in total)"
    )]
    TooLarge {
        /// Format being written or read.
        format: &'static str,
        /// Width in pixels.
        width: u32,
        /// Height in pixels.
        height: u32,
        /// The limit.
        max: u32,
    },
    /// An image whose declared size does not fit the memory budget (see [`crate::budget`]):
    /// refused before anything is allocated.
    #[error(
        "a {width}×{height} image needs {} MiB of RGBA, over the {} MiB {what} budget",
        crate::budget::mib(*.bytes),
        crate::budget::mib(*.limit)
    )]
    OverBudget {
        /// Declared width in pixels.
        width: u32,
        /// Declared height in pixels.
        height: u32,
        /// Bytes it would take (for the live budget: with the images already alive).
        bytes: u64,
        /// The limit it would pass.
        limit: u64,
        /// Which budget: `per-image` or `live`.
        what: &'static str,
    },
    /// Pixel data whose length does not match the image size.
    #[error("pixel data of {found} bytes for a {width}×{height} RGBA image (expected {expected})")]
    PixelLength {
        /// Width in pixels.
        width: u32,
        /// Height in pixels.
        height: u32,
        /// Expected length (`width × height × 4`).
        expected: usize,
        /// Length given.
        found: usize,
    },
    /// An image of the wrong size for where it goes.
    #[error("{what}: expected a {expected_w}×{expected_h} image, found {found_w}×{found_h}")]
    Size {
        /// What the image is for.
        what: String,
        /// Expected width.
        expected_w: u32,
        /// Expected height.
        expected_h: u32,
        /// Found width.
        found_w: u32,
        /// Found height.
        found_h: u32,
    },
    /// A texture page item whose rectangle does not fit its page or frame.
    #[error("texture page item {what}: {detail}")]
    Item {
        /// Which rectangle.
        what: &'static str,
        /// What is wrong.
        detail: String,
    },
    /// An edited frame has visible pixels outside the region its texture page item stores.
    #[error(
        "{count} non-transparent pixels lie outside the stored region x {rx}..{rx_end}, y {ry}..{ry_end} (first at {first_x},{first_y}; they span x {min_x}..={max_x}, y {min_y}..={max_y}); the page item would have to grow"
    )]
    OutsideRegion {
        /// Number of pixels with alpha > 0 outside the region.
        count: usize,
        /// Region start x (target rectangle inside the frame).
        rx: u32,
        /// Region end x (exclusive).
        rx_end: u32,
        /// Region start y.
        ry: u32,
        /// Region end y (exclusive).
        ry_end: u32,
        /// First such pixel (row-major).
        first_x: u32,
        /// First such pixel (row-major).
        first_y: u32,
        /// Bounding box of those pixels.
        min_x: u32,
        /// Bounding box of those pixels.
        min_y: u32,
        /// Bounding box of those pixels.
        max_x: u32,
        /// Bounding box of those pixels.
        max_y: u32,
    },
    /// An asset or entry that does not exist (a sound, a sprite, an audio entry).
    #[error("{0}")]
    NotFound(String),
    /// PNG decoding or encoding failed.
    #[error("PNG: {0}")]
    Png(String),
    /// bzip2 decompression or compression failed.
    #[error("bzip2 stream at byte {offset}: {detail}")]
    Bzip2 {
        /// Offset of the bzip2 stream in the blob.
        offset: usize,
        /// What the decoder said.
        detail: String,
    },
    /// Reading an audio group file failed.
    #[error("audio group file {path}: {detail}")]
    AudioGroup {
        /// The file.
        path: String,
        /// What went wrong.
        detail: String,
    },
}

fn magic_note(m: &[u8; 4]) -> String {
    if m.iter().all(|b| b.is_ascii_graphic() || *b == b' ') {
        format!(" (magic `{}`)", String::from_utf8_lossy(m))
    } else {
        format!(
            " (first bytes {:02x} {:02x} {:02x} {:02x})",
            m[0], m[1], m[2], m[3]
        )
    }
}

impl Error {
    pub(crate) fn corrupt(format: &'static str, offset: usize, detail: impl Into<String>) -> Self {
        Error::Corrupt {
            format,
            offset,
            detail: detail.into(),
        }
    }

    pub(crate) fn unsupported(format: BlobFormat, blob: &[u8]) -> Self {
        let mut magic = [0u8; 4];
        for (m, b) in magic.iter_mut().zip(blob) {
            *m = *b;
        }
        Error::Unsupported {
            format: crate::format_name(format),
            magic,
        }
    }

    /// Wraps the error with the index of the texture page it concerns.
    pub(crate) fn in_page(self, page: usize) -> Self {
        match self {
            e @ Error::Page { .. } => e,
            e => Error::Page {
                page,
                source: Box::new(e),
            },
        }
    }
}
