//! Enumerated values by name: `"bbox_mode": "manual"`, the number where no name exists.
//!
//! The names are GameMaker's own: the manual's constants without their prefix
//! (`bboxmode_manual` → `"manual"`), or the values of the matching `.yy` field of a GameMaker
//! project. Reading takes the name, the full constant (`"bboxmode_manual"`) or the number.

use super::NumberOrText;
use serde::de::Deserializer;
use serde::{Deserialize, Serializer};

/// The names of an enumeration: `(name, value)`.
pub type Table = &'static [(&'static str, u32)];

/// Writes `v` as its name in `table`, or as the number where none names it.
pub fn write<S: Serializer>(v: u32, table: Table, s: S) -> Result<S::Ok, S::Error> {
    match table.iter().find(|&&(_, x)| x == v) {
        Some((name, _)) => s.serialize_str(name),
        None => s.serialize_u32(v),
    }
}

/// Reads a value written by [`write`]: its name, `prefix` + its name, or a number.
pub fn read<'de, D: Deserializer<'de>>(
    table: Table,
    prefix: &str,
    what: &str,
    d: D,
) -> Result<u32, D::Error> {
    super::by_name_or_number(table, prefix, what, NumberOrText::deserialize(d)?)
}

macro_rules! kind {
    ($(#[$doc:meta])* $module:ident, $prefix:literal, $what:literal, $table:expr) => {
        $(#[$doc])*
        pub mod $module {
            use serde::{Deserializer, Serializer};
            /// The names and their values.
            pub const TABLE: super::Table = $table;
            /// Serializes the value by name.
            pub fn serialize<S: Serializer>(v: &u32, s: S) -> Result<S::Ok, S::Error> {
                super::write(*v, TABLE, s)
            }
            /// Deserializes the value from its name or number.
            pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
                super::read(TABLE, $prefix, $what, d)
            }
        }
    };
}

kind!(
    /// A sprite's bounding box mode: the manual's `bboxmode_*` constants (`sprite_get_bbox_mode`),
    /// valued as the `.yy` field `bboxMode` (0 automatic, 1 full image, 2 manual).
    bbox_mode,
    "bboxmode_",
    "bounding box mode",
    &[("automatic", 0), ("fullimage", 1), ("manual", 2)]
);

kind!(
    /// A sprite's type (the special header): the `type` of the manual's `sprite_get_info`
    /// (bitmap, SWF, Spine) and the 2024.13+ vector sprites.
    sprite_type,
    "",
    "sprite type",
    &[("bitmap", 0), ("swf", 1), ("spine", 2), ("vector", 3)]
);

kind!(
    /// An animation speed type: the manual's `spritespeed_*` constants
    /// (`sprite_get_speed_type`), valued as the `.yy` field `playbackSpeedType`.
    speed_type,
    "spritespeed_",
    "speed type",
    &[("framespersecond", 0), ("framespergameframe", 1)]
);

kind!(
    /// A sequence's playback: the manual's `seqplay_*` constants (sequence struct `loopmode`),
    /// valued as the `.yy` field `playback` (0 one shot, 1 loop, 2 ping-pong).
    playback_type,
    "seqplay_",
    "playback type",
    &[("oneshot", 0), ("loop", 1), ("pingpong", 2)]
);

kind!(
    /// An object's physics collision shape: the `.yy` field `physicsShape` (0 circle, 1 box,
    /// 2 shape), named as the object editor's Physics panel names them.
    physics_shape,
    "",
    "physics shape",
    &[("circle", 0), ("box", 1), ("shape", 2)]
);
