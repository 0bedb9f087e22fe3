//! Draw a GameMaker room as the game's first frame would show it, before any code runs.
//!
//! [`render_room`] draws a room of a [`gmkit_data::DataFile`] into an [`image::RgbaImage`] of
//! the room's size:
//!
//! - the background colour, when the room says it is drawn (GMS1 rooms and the
//!   "draw background colour" flag), and 2.x background layers with no sprite (a solid colour);
//! - backgrounds: GMS1 background slots (position, tiling, stretch, foreground slots in front)
//!   and 2.x background layers (sprite frame, offsets, tiling, stretch, blend colour and alpha);
//! - tiles: GMS1 legacy tiles (a rectangle of a background, with depth, scale and blend), 2.x
//!   tile maps (stored raw or run-length encoded: decoded through gmkit-data) with their
//!   tile set's borders, columns and separation, and the mirror/flip/rotate flags;
//! - asset layers: legacy tiles and sprites placed on them (frame, scale, rotation, blend);
//! - instances: their object's sprite at the instance's position with the sprite's origin, the
//!   instance's scale, rotation, blend colour, alpha and image index; objects marked invisible
//!   are not drawn;
//! - draw order: 2.x layers from the highest depth to the lowest, hidden layers skipped; in
//!   GMS1 rooms the background colour, the background slots, then tiles and instances by depth
//!   (higher first; at equal depth tiles before instances, then in room order), then the
//!   foreground slots;
//! - views as 1-pixel rectangles on top ([`RenderOptions::views`]).
//!
//! It does **not** draw what code draws (Draw events, `draw_*` calls, creation code changing
//! positions or sprites: instances are drawn as the default Draw event would draw them),
//! shaders and layer effects, particles, sequences (on asset layers: skipped), text items and
//! fonts, surfaces, Spine/SWF/vector sprites without texture frames, tile and sprite animation
//! beyond the first frame, background scrolling, or view ports (the room is drawn at its own
//! size, not through a view). Tile-map flags are applied as mirror, then flip, then a quarter
//! turn clockwise. Pixels are sampled nearest-neighbour and blended source-over; GameMaker's
//! own texture filtering ("interpolate colours") is not reproduced.
//!
//! Texture pages are decoded on demand through gmkit-media, one at a time, into a
//! [`PageCache`] the caller owns and keeps between renders (a 1 GB game never decodes all of its
//! pages). Untrusted values never panic: a room larger than [`RenderOptions::max_pixels`] or
//! [`MAX_SIDE`] is refused with an error; an item with a NaN/infinite value, a reference
//! out of range, a frame on a page that cannot be decoded, or past the work limit is skipped
//! and listed in [`Rendered::skipped`].
//!
//! ```
//! let data = gmkit_data::sample();
//! assert!(gmkit_render::room_by_name(&data, "rm_none").is_none());
//! let mut cache = gmkit_render::PageCache::default();
//! let err = gmkit_render::render_room(&data, 0, &mut cache, &Default::default()).unwrap_err();
//! assert!(err.to_string().contains("room 0"));
//! ```

#![warn(missing_docs)]

pub mod blit;
pub mod cache;
mod room;
mod span;
mod sprite;

pub use cache::PageCache;
pub use room::render_room;
pub use sprite::render_sprite_frame;

use gmkit_data::DataFile;

/// Largest room side drawn, in pixels.
pub const MAX_SIDE: u32 = 16384;

/// Default largest room drawn, in pixels: 64 Mpixel (256 MiB of RGBA).
pub const DEFAULT_MAX_PIXELS: u64 = 64 << 20;

/// How a room is drawn.
#[derive(Clone, Debug)]
pub struct RenderOptions {
    /// Draw the room's enabled views as 1-pixel rectangles on top (when the room enables
    /// views).
    pub views: bool,
    /// Colour of the view rectangles (RGBA).
    pub view_colour: [u8; 4],
    /// What the canvas starts as where the room draws no background colour (RGBA; default
    /// transparent).
    pub clear: [u8; 4],
    /// Largest room drawn, in pixels (at most [`MAX_SIDE`] a side in any case).
    pub max_pixels: u64,
    /// Drawing scale: the picture is `round(width × scale) × round(height × scale)` (at least
    /// 1×1); below 1 a room too large to draw whole can be drawn smaller. Must be finite and
    /// above 0.
    pub scale: f64,
    /// Pixels the draws may visit in all, as a multiple of the room's area (at least 2²⁶):
    /// the items past it are skipped (a room of a million huge instances ends in bounded time).
    pub work_factor: u64,
}

impl Default for RenderOptions {
    fn default() -> Self {
        RenderOptions {
            views: false,
            view_colour: [255, 0, 255, 255],
            clear: [0, 0, 0, 0],
            max_pixels: DEFAULT_MAX_PIXELS,
            scale: 1.0,
            work_factor: 64,
        }
    }
}

/// An item that was not drawn, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skipped {
    /// What it is (e.g. `instance 3 (id 100004) of obj_player`, `layer "Tiles_1" tile map`).
    pub item: String,
    /// Why it was not drawn.
    pub reason: String,
}

impl std::fmt::Display for Skipped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.item, self.reason)
    }
}

/// At most this many [`Skipped`] entries are kept ([`Rendered::skipped_total`] counts all).
pub const MAX_SKIPPED: usize = 256;

/// Counts of what was drawn.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Instances drawn with their sprite.
    pub instances_drawn: usize,
    /// Instances not drawn because their object has no sprite or is invisible.
    pub instances_without_sprite: usize,
    /// Tiles drawn (legacy tiles and tile-map cells).
    pub tiles_drawn: usize,
    /// Sprites drawn from asset layers.
    pub sprites_drawn: usize,
    /// Backgrounds drawn (GMS1 slots and background layers, a solid colour included).
    pub backgrounds_drawn: usize,
    /// Layers drawn (2.x rooms).
    pub layers_drawn: usize,
    /// Layers hidden (not drawn).
    pub layers_hidden: usize,
    /// Views outlined.
    pub views_drawn: usize,
    /// Texture pages decoded during this render (not already in the cache).
    pub pages_decoded: u64,
}

/// A drawn room.
#[derive(Clone, Debug)]
pub struct Rendered {
    /// The picture, room-sized.
    pub image: image::RgbaImage,
    /// What was drawn.
    pub stats: Stats,
    /// What was not drawn and why (the first [`MAX_SKIPPED`]).
    pub skipped: Vec<Skipped>,
    /// How many items were skipped in all.
    pub skipped_total: usize,
}

impl Rendered {
    /// Counts a drawn item in the statistic `stat` picks, or notes it as skipped with the
    /// reason its drawing gave.
    pub(crate) fn tally(
        &mut self,
        drawn: Result<(), String>,
        stat: fn(&mut Stats) -> &mut usize,
        item: impl FnOnce() -> String,
    ) {
        match drawn {
            Ok(()) => *stat(&mut self.stats) += 1,
            Err(e) => self.skip(item, e),
        }
    }

    /// Notes a skipped item.
    pub(crate) fn skip(&mut self, item: impl FnOnce() -> String, reason: impl Into<String>) {
        self.skipped_total += 1;
        if self.skipped.len() < MAX_SKIPPED {
            self.skipped.push(Skipped {
                item: item(),
                reason: reason.into(),
            });
        }
    }
}

/// Why a room could not be drawn at all.
#[derive(Debug, thiserror::Error)]
pub enum RenderError {
    /// No room at that index.
    #[error("room {index} does not exist (the file has {count} rooms)")]
    NoRoom {
        /// The index asked for.
        index: usize,
        /// How many rooms the file has.
        count: usize,
    },
    /// The room was stripped from the file (2024.11+ files keep a null entry).
    #[error("room {0} was stripped from the file (no data to draw)")]
    Stripped(usize),
    /// The room has no area.
    #[error("room {index} is {width}×{height}: nothing to draw")]
    Empty {
        /// The room.
        index: usize,
        /// Its width.
        width: u32,
        /// Its height.
        height: u32,
    },
    /// The scale asked for is not a finite number above 0.
    #[error("scale {0} is not a finite number above 0")]
    Scale(f64),
    /// The picture would be larger than the limit.
    #[error(
        "room {index} is {width}×{height}: larger than the {max_pixels}-pixel, {max_side}-a-side limit (a scale below 1 draws it smaller)"
    )]
    TooLarge {
        /// The room.
        index: usize,
        /// The picture's width (the room's, times the scale).
        width: u32,
        /// The picture's height.
        height: u32,
        /// The pixel limit in force.
        max_pixels: u64,
        /// The side limit.
        max_side: u32,
    },
    /// A sprite or frame asked of [`render_sprite_frame`] does not exist or cannot be drawn.
    #[error("{0}")]
    Sprite(String),
}

/// The index of the first room named `name`.
pub fn room_by_name(data: &DataFile, name: &str) -> Option<usize> {
    data.room(name).map(|(id, _)| id.index())
}

/// The room a command line names: its name, or its index when no room has that name.
pub fn room_by_name_or_index(data: &DataFile, what: &str) -> Option<usize> {
    room_by_name(data, what).or_else(|| {
        let i: usize = what.parse().ok()?;
        let rooms = data.rooms.as_ref()?;
        (i < rooms.rooms.len()).then_some(i)
    })
}

/// Encodes a rendered picture as a PNG file (8-bit RGBA).
pub fn encode_png(image: &image::RgbaImage) -> Result<Vec<u8>, image::ImageError> {
    let mut out = std::io::Cursor::new(Vec::new());
    image.write_to(&mut out, image::ImageFormat::Png)?;
    Ok(out.into_inner())
}
