//! `OPTN`: game options (window, display, loading screen, constants).
//!
//! Two layouts. The "new" one starts with the marker `0x80000000`: marker, i32 shader-extension
//! version, u64 option flags, i32 scale, u32 window colour, colour depth, resolution, frequency,
//! vertex sync, priority, three TPAG pointers (back, front, load image), u32 load alpha. The
//! "old" one is a fixed 140-byte record of bool32 flags interleaved with the same values. Both
//! end with the constants (simple list of name/value string pairs).

use crate::chunk::{Chunk, ChunkName};
use crate::chunks::texture_page_item::{TexturePageItems, TpagRef};
use crate::error::Result;
use crate::read::Reader;
use crate::refs::StringRef;
use crate::version::{Detect, Version};
use crate::write::Writer;

/// Marker that starts the new layout.
const NEW_MARKER: u32 = 0x8000_0000;

/// The `OPTN` chunk.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Options {
    /// The layout-specific flags (new: a bit set; old: individual fields).
    pub flags: OptionFlags,
    /// Window scale (negative values are aspect-ratio modes).
    pub scale: i32,
    /// Window background colour.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_values::colour"))]
    pub window_colour: u32,
    /// Colour depth.
    pub colour_depth: u32,
    /// Resolution.
    pub resolution: u32,
    /// Refresh frequency.
    pub frequency: u32,
    /// Vertex sync.
    pub vertex_sync: u32,
    /// Process priority.
    pub priority: u32,
    /// Loading-screen background image.
    pub back_image: Option<TpagRef>,
    /// Loading-screen foreground image.
    pub front_image: Option<TpagRef>,
    /// Loading-screen image.
    pub load_image: Option<TpagRef>,
    /// Loading-screen image alpha.
    pub load_alpha: u32,
    /// Game constants.
    pub constants: Vec<Constant>,
}

/// A game constant: a name and its value text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Constant {
    /// Constant name.
    pub name: StringRef,
    /// Value (as text).
    pub value: StringRef,
}

/// The flag part of OPTN, which differs between the two layouts.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum OptionFlags {
    /// New layout (first word `0x80000000`).
    New {
        /// Shader extension version (2 in known files).
        shader_extension_version: i32,
        /// Option flag bits.
        #[cfg_attr(feature = "serde", serde(with = "crate::serde_values::flags::options"))]
        flags: u64,
    },
    /// Old 140-byte layout.
    Old(OldOptionFlags),
}

impl Default for OptionFlags {
    fn default() -> Self {
        OptionFlags::New {
            shader_extension_version: 2,
            flags: 0,
        }
    }
}

/// The fields of the old layout that the new one folds into its flag bits (kept as stored).
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct OldOptionFlags {
    /// Start in full screen.
    pub full_screen: bool,
    /// Interpolate colours between pixels.
    pub interpolate_pixels: bool,
    /// Use the new audio engine.
    pub use_new_audio: bool,
    /// Borderless window.
    pub no_border: bool,
    /// Show the mouse cursor.
    pub show_cursor: bool,
    /// Window can be resized.
    pub sizeable: bool,
    /// Window stays on top.
    pub stay_on_top: bool,
    /// Change the display resolution.
    pub change_resolution: bool,
    /// No window buttons.
    pub no_buttons: bool,
    /// F4 toggles full screen.
    pub screen_key: bool,
    /// F1 shows help.
    pub help_key: bool,
    /// Escape quits.
    pub quit_key: bool,
    /// F5/F6 save and load.
    pub save_key: bool,
    /// F9 takes a screenshot.
    pub screenshot_key: bool,
    /// Treat the close button as Escape.
    pub close_sec: bool,
    /// Freeze when the window loses focus.
    pub freeze_on_lost_focus: bool,
    /// Show a loading progress bar.
    pub show_progress: bool,
    /// Loading image is transparent.
    pub load_transparent: bool,
    /// Scale the progress bar.
    pub scale_progress: bool,
    /// Display error messages.
    pub display_errors: bool,
    /// Write errors to a log.
    pub write_errors: bool,
    /// Abort on errors.
    pub abort_errors: bool,
    /// Treat uninitialised variables as 0.
    pub variable_errors: bool,
    /// Creation event order.
    pub creation_event_order: bool,
}

impl Chunk for Options {
    const NAME: ChunkName = ChunkName(*b"OPTN");

    fn read(r: &mut Reader) -> Result<Self> {
        let first = r.u32()?;
        let mut o = Options::default();
        if first == NEW_MARKER {
            o.flags = OptionFlags::New {
                shader_extension_version: r.i32()?,
                flags: r.u64()?,
            };
            o.scale = r.i32()?;
            o.window_colour = r.u32()?;
            o.colour_depth = r.u32()?;
            o.resolution = r.u32()?;
            o.frequency = r.u32()?;
            o.vertex_sync = r.u32()?;
            o.priority = r.u32()?;
            o.back_image = TexturePageItems::read_ref(r)?;
            o.front_image = TexturePageItems::read_ref(r)?;
            o.load_image = TexturePageItems::read_ref(r)?;
            o.load_alpha = r.u32()?;
        } else {
            let full_screen = match first {
                0 => false,
                1 => true,
                v => return Err(r.invalid("OPTN first word", "0x80000000 or a bool32", v)),
            };
            let mut f = OldOptionFlags {
                full_screen,
                interpolate_pixels: r.bool32()?,
                use_new_audio: r.bool32()?,
                no_border: r.bool32()?,
                show_cursor: r.bool32()?,
                ..Default::default()
            };
            o.scale = r.i32()?;
            f.sizeable = r.bool32()?;
            f.stay_on_top = r.bool32()?;
            o.window_colour = r.u32()?;
            f.change_resolution = r.bool32()?;
            o.colour_depth = r.u32()?;
            o.resolution = r.u32()?;
            o.frequency = r.u32()?;
            f.no_buttons = r.bool32()?;
            o.vertex_sync = r.u32()?;
            f.screen_key = r.bool32()?;
            f.help_key = r.bool32()?;
            f.quit_key = r.bool32()?;
            f.save_key = r.bool32()?;
            f.screenshot_key = r.bool32()?;
            f.close_sec = r.bool32()?;
            o.priority = r.u32()?;
            f.freeze_on_lost_focus = r.bool32()?;
            f.show_progress = r.bool32()?;
            o.back_image = TexturePageItems::read_ref(r)?;
            o.front_image = TexturePageItems::read_ref(r)?;
            o.load_image = TexturePageItems::read_ref(r)?;
            f.load_transparent = r.bool32()?;
            o.load_alpha = r.u32()?;
            f.scale_progress = r.bool32()?;
            f.display_errors = r.bool32()?;
            f.write_errors = r.bool32()?;
            f.abort_errors = r.bool32()?;
            f.variable_errors = r.bool32()?;
            f.creation_event_order = r.bool32()?;
            o.flags = OptionFlags::Old(f);
        }
        let n = r.count("constant", 8)?;
        o.constants.reserve(n);
        for _ in 0..n {
            o.constants.push(Constant {
                name: r.string()?,
                value: r.string()?,
            });
        }
        Ok(o)
    }

    fn write(&self, w: &mut Writer) -> Result<()> {
        match &self.flags {
            OptionFlags::New {
                shader_extension_version,
                flags,
            } => {
                w.u32(NEW_MARKER);
                w.i32(*shader_extension_version);
                w.u64(*flags);
                w.i32(self.scale);
                w.u32(self.window_colour);
                w.u32(self.colour_depth);
                w.u32(self.resolution);
                w.u32(self.frequency);
                w.u32(self.vertex_sync);
                w.u32(self.priority);
                TexturePageItems::write_ref(w, self.back_image);
                TexturePageItems::write_ref(w, self.front_image);
                TexturePageItems::write_ref(w, self.load_image);
                w.u32(self.load_alpha);
            }
            OptionFlags::Old(f) => {
                w.bool32(f.full_screen);
                w.bool32(f.interpolate_pixels);
                w.bool32(f.use_new_audio);
                w.bool32(f.no_border);
                w.bool32(f.show_cursor);
                w.i32(self.scale);
                w.bool32(f.sizeable);
                w.bool32(f.stay_on_top);
                w.u32(self.window_colour);
                w.bool32(f.change_resolution);
                w.u32(self.colour_depth);
                w.u32(self.resolution);
                w.u32(self.frequency);
                w.bool32(f.no_buttons);
                w.u32(self.vertex_sync);
                w.bool32(f.screen_key);
                w.bool32(f.help_key);
                w.bool32(f.quit_key);
                w.bool32(f.save_key);
                w.bool32(f.screenshot_key);
                w.bool32(f.close_sec);
                w.u32(self.priority);
                w.bool32(f.freeze_on_lost_focus);
                w.bool32(f.show_progress);
                TexturePageItems::write_ref(w, self.back_image);
                TexturePageItems::write_ref(w, self.front_image);
                TexturePageItems::write_ref(w, self.load_image);
                w.bool32(f.load_transparent);
                w.u32(self.load_alpha);
                w.bool32(f.scale_progress);
                w.bool32(f.display_errors);
                w.bool32(f.write_errors);
                w.bool32(f.abort_errors);
                w.bool32(f.variable_errors);
                w.bool32(f.creation_event_order);
            }
        }
        w.u32(self.constants.len() as u32);
        for c in &self.constants {
            w.string(c.name);
            w.string(c.value);
        }
        Ok(())
    }
}

/// No layout checks in OPTN.
pub(crate) fn detect(_d: &Detect, _v: &mut Version) {}
