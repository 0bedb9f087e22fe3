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
pub type Table = &'static [(&'static str, u32)];

/// Writes `v` as names of `table` plus the remaining bits as a number.
pub fn write<S: Serializer>(v: u32, table: Table, s: S) -> Result<S::Ok, S::Error> {
    let mut rest = v;
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
pub fn read<'de, D: Deserializer<'de>>(table: Table, what: &str, d: D) -> Result<u32, D::Error> {
    let what = format!("{what} flag");
    let item = |n: NumberOrText| -> Result<u32, D::Error> {
        super::by_name_or_number(table, "", &what, n)
    };
    match Wire::deserialize(d)? {
        Wire::One(n) => item(n),
        Wire::List(l) => l.into_iter().try_fold(0u32, |acc, n| Ok(acc | item(n)?)),
    }
}

macro_rules! flag_set {
    ($(#[$doc:meta])* $module:ident, $what:literal, $table:expr) => {
        $(#[$doc])*
        pub mod $module {
            use serde::{Deserializer, Serializer};
            /// The names, in writing order.
            pub const TABLE: super::Table = $table;
            /// Serializes the bit set as names.
            pub fn serialize<S: Serializer>(v: &u32, s: S) -> Result<S::Ok, S::Error> {
                super::write(*v, TABLE, s)
            }
            /// Deserializes the bit set from names, numbers, or its int.
            pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
                super::read(TABLE, $what, d)
            }
        }
    };
}

flag_set!(
    /// A room's flags (ROOM). The names are those of the room's view settings in a GameMaker
    /// project (`.yy` `viewSettings`: `enableViews`, `clearViewBackground`,
    /// `clearDisplayBuffer`, stored inverted), and the two bits the IDE sets for GMS2 and 2.3+
    /// rooms (seen in every GMS2 / 2.3+ corpus file).
    room,
    "room",
    &[
        ("enable_views", 0x1),
        ("clear_view_background", 0x2),
        ("no_clear_display_buffer", 0x4),
        ("gms2_3", 0x1_0000),
        ("gms2", 0x2_0000),
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
        ("regular", crate::chunks::sound::FLAG_REGULAR),
        ("embedded", crate::chunks::sound::FLAG_EMBEDDED),
        ("compressed", crate::chunks::sound::FLAG_COMPRESSED),
    ]
);
