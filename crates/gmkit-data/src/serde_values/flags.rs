//! Bit sets as lists of names: `"flags": ["enable_views", "clear_view_background"]`.
//!
//! A name stands for its mask (one bit, or several that are only ever set together); the bits no
//! name covers stay in the list as one number (`["embedded", 4096]`), so nothing is lost. Reading
//! takes names and numbers in any order and ORs them; the plain int of old folders is read too.
//! Each table below says where its names come from.

use super::NumberOrText;
use serde::Deserialize;
use serde::de::Deserializer;
use serde::ser::{SerializeSeq, Serializer};

/// The names of a bit set, in writing order (a mask of several bits before the bits it covers).
pub type Table = &'static [(&'static str, u64)];

/// An int field holding a bit set: `u32` or `u64`.
pub trait Bits: Copy {
    /// The field's width in bits.
    const WIDTH: u32;
    /// The bits, widened.
    fn to_bits(self) -> u64;
    /// The field from bits that fit its width.
    fn from_bits(b: u64) -> Self;
}

impl Bits for u32 {
    const WIDTH: u32 = 32;
    fn to_bits(self) -> u64 {
        u64::from(self)
    }
    fn from_bits(b: u64) -> Self {
        b as u32
    }
}

impl Bits for u64 {
    const WIDTH: u32 = 64;
    fn to_bits(self) -> u64 {
        self
    }
    fn from_bits(b: u64) -> Self {
        b
    }
}

/// Writes `v` as names of `table` plus the remaining bits as a number.
pub fn write<S: Serializer, T: Bits>(v: T, table: Table, s: S) -> Result<S::Ok, S::Error> {
    let mut rest = v.to_bits();
    let mut names = Vec::new();
    for &(name, mask) in table {
        if mask != 0 && rest & mask == mask {
            names.push(name);
            rest &= !mask;
        }
    }
    let mut seq = s.serialize_seq(Some(names.len() + usize::from(rest != 0)))?;
    for n in names {
        seq.serialize_element(n)?;
    }
    if rest != 0 {
        seq.serialize_element(&rest)?;
    }
    seq.end()
}

#[derive(Deserialize)]
#[serde(untagged)]
enum Wire {
    List(Vec<NumberOrText>),
    One(NumberOrText),
}

/// Reads a bit set written by [`write`] (or its int).
pub fn read<'de, D: Deserializer<'de>, T: Bits>(
    table: Table,
    what: &str,
    d: D,
) -> Result<T, D::Error> {
    let what = format!("{what} flag");
    let item = |n: NumberOrText| -> Result<u64, D::Error> {
        super::by_name_or_number(table, "", &what, T::WIDTH, n)
    };
    let bits = match Wire::deserialize(d)? {
        Wire::One(n) => item(n)?,
        Wire::List(l) => l.into_iter().try_fold(0u64, |acc, n| Ok(acc | item(n)?))?,
    };
    Ok(T::from_bits(bits))
}

macro_rules! flag_set {
    ($(#[$doc:meta])* $module:ident, $what:literal, $table:expr) => {
        $(#[$doc])*
        pub mod $module {
            use serde::{Deserializer, Serializer};
            /// The names, in writing order.
            pub const TABLE: super::Table = $table;
            /// Serializes the bit set as names.
            pub fn serialize<S: Serializer, T: super::Bits>(v: &T, s: S) -> Result<S::Ok, S::Error> {
                super::write(*v, TABLE, s)
            }
            /// Deserializes the bit set from names, numbers, or its int.
            pub fn deserialize<'de, D: Deserializer<'de>, T: super::Bits>(d: D) -> Result<T, D::Error> {
                super::read(TABLE, $what, d)
            }
        }
    };
}

flag_set!(
    /// A room's flags (ROOM). The names are those of the room's view settings in a GameMaker
    /// project (`.yy` `viewSettings`: `enableViews`, `clearViewBackground`,
    /// `clearDisplayBuffer`, stored inverted), and the bits the IDE sets by version: `gms2` and
    /// `gms2_3` in every room of the GMS2 / 2.3 to 2024.11 corpus files, `gm2024_13` alone in
    /// their place in every room of the 2024.13+ ones (no `.yy` setting differs: a format mark).
    room,
    "room",
    &[
        ("enable_views", 0x1),
        ("clear_view_background", 0x2),
        ("no_clear_display_buffer", 0x4),
        ("gms2_3", 0x1_0000),
        ("gms2", 0x2_0000),
        ("gm2024_13", 0x4_0000),
    ]
);

flag_set!(
    /// The game's info flags (GEN8): the project's window options (`option_windows_*` /
    /// Global Game Settings: start in full screen, interpolate pixels, keep aspect ratio, show
    /// cursor, allow resizing, F4 full-screen key, borderless window, Steam) and the vertical
    /// sync and IDE version bits beside them.
    general_info,
    "info",
    &[
        ("fullscreen", 0x1),
        ("sync_vertex_1", 0x2),
        ("sync_vertex_2", 0x4),
        ("interpolate_pixels", 0x8),
        ("scale", 0x10),
        ("show_cursor", 0x20),
        ("sizeable", 0x40),
        ("screen_key", 0x80),
        ("sync_vertex_3", 0x100),
        ("studio_version_1", 0x200),
        ("studio_version_2", 0x400),
        ("studio_version_4", 0x800),
        ("steam_enabled", 0x1000),
        ("local_data_enabled", 0x2000),
        ("borderless_window", 0x4000),
        ("javascript_mode", 0x8000),
        ("licence_exclusions", 0x1_0000),
    ]
);

flag_set!(
    /// A sound's flags (SOND): embedded, compressed, and the mask every GMS 1.4+ sound carries
    /// ([`crate::chunks::sound::FLAG_REGULAR`], three bits always set together).
    sound,
    "sound",
    &[
        ("regular", crate::chunks::sound::FLAG_REGULAR as u64),
        ("embedded", crate::chunks::sound::FLAG_EMBEDDED as u64),
        ("compressed", crate::chunks::sound::FLAG_COMPRESSED as u64),
    ]
);

flag_set!(
    /// The game options' bit set (OPTN, the layout that starts with `0x80000000`). Bits 0 to 23
    /// are the old layout's fields in their order (the names of
    /// [`crate::chunks::options::OldOptionFlags`], the Global Game Settings of GMS 1.4); the
    /// later bits are the main options of a GameMaker project (`options_main.yy`:
    /// `option_copy_on_write_enabled`, `option_legacy_json_parsing`,
    /// `option_legacy_number_conversion`, `option_legacy_other_behaviour`,
    /// `option_audio_error_behaviour`, ...), checked against the corpus files whose project is in
    /// the sources (longdog's four `true` legacy/audio options are exactly bits 30 to 33).
    options,
    "option",
    &[
        ("full_screen", 0x1),
        ("interpolate_pixels", 0x2),
        ("use_new_audio", 0x4),
        ("no_border", 0x8),
        ("show_cursor", 0x10),
        ("sizeable", 0x20),
        ("stay_on_top", 0x40),
        ("change_resolution", 0x80),
        ("no_buttons", 0x100),
        ("screen_key", 0x200),
        ("help_key", 0x400),
        ("quit_key", 0x800),
        ("save_key", 0x1000),
        ("screenshot_key", 0x2000),
        ("close_sec", 0x4000),
        ("freeze_on_lost_focus", 0x8000),
        ("show_progress", 0x1_0000),
        ("load_transparent", 0x2_0000),
        ("scale_progress", 0x4_0000),
        ("display_errors", 0x8_0000),
        ("write_errors", 0x10_0000),
        ("abort_errors", 0x20_0000),
        ("variable_errors", 0x40_0000),
        ("creation_event_order", 0x80_0000),
        ("use_front_touch", 0x100_0000),
        ("use_rear_touch", 0x200_0000),
        ("use_fast_collision", 0x400_0000),
        ("fast_collision_compatibility", 0x800_0000),
        ("disable_sandbox", 0x1000_0000),
        ("copy_on_write_enabled", 0x2000_0000),
        ("legacy_json_parsing", 0x4000_0000),
        ("legacy_number_conversion", 0x8000_0000),
        ("legacy_other_behaviour", 0x1_0000_0000),
        ("audio_error_behaviour", 0x2_0000_0000),
        ("allow_instance_change", 0x4_0000_0000),
        ("legacy_primitive_drawing", 0x8_0000_0000),
    ]
);
