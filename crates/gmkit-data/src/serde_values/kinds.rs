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

/// An int field holding an enumerated value: `u32`, `i32` or `u8`.
pub trait Value: Copy {
    /// The field's width in bits.
    const WIDTH: u32;
    /// The value as the tables hold it (an `i32` by its bits).
    fn to_u32(self) -> u32;
    /// The field from bits that fit its width.
    fn from_bits(b: u64) -> Self;
    /// Writes the value as a plain number (an `i32` with its sign).
    fn write_number<S: Serializer>(self, s: S) -> Result<S::Ok, S::Error>;
}

impl Value for u32 {
    const WIDTH: u32 = 32;
    fn to_u32(self) -> u32 {
        self
    }
    fn from_bits(b: u64) -> Self {
        b as u32
    }
    fn write_number<S: Serializer>(self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u32(self)
    }
}

impl Value for i32 {
    const WIDTH: u32 = 32;
    fn to_u32(self) -> u32 {
        self as u32
    }
    fn from_bits(b: u64) -> Self {
        b as u32 as i32
    }
    fn write_number<S: Serializer>(self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_i32(self)
    }
}

impl Value for u8 {
    const WIDTH: u32 = 8;
    fn to_u32(self) -> u32 {
        u32::from(self)
    }
    fn from_bits(b: u64) -> Self {
        b as u8
    }
    fn write_number<S: Serializer>(self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u8(self)
    }
}

/// Writes `v` as its name in `table`, or as the number where none names it.
pub fn write<S: Serializer, T: Value>(v: T, table: Table, s: S) -> Result<S::Ok, S::Error> {
    match table.iter().find(|&&(_, x)| x == v.to_u32()) {
        Some((name, _)) => s.serialize_str(name),
        None => v.write_number(s),
    }
}

/// Reads a value written by [`write`]: its name, `prefix` + its name, or a number.
pub fn read<'de, D: Deserializer<'de>, T: Value>(
    table: Table,
    prefix: &str,
    what: &str,
    d: D,
) -> Result<T, D::Error> {
    let item = NumberOrText::deserialize(d)?;
    if let NumberOrText::Text(_) = item {
        let v = super::by_name_or_number(table, prefix, what, 32, item)?;
        // A table value that does not fit the field (none does today) is an error, not a wrap.
        return match T::WIDTH {
            32 => Ok(T::from_bits(v)),
            w if v < 1 << w => Ok(T::from_bits(v)),
            _ => Err(serde::de::Error::custom(format!(
                "{what}: {v} does not fit the field"
            ))),
        };
    }
    super::by_name_or_number(table, prefix, what, T::WIDTH, item).map(T::from_bits)
}

/// One value of an enumeration `K`, for the containers of [`option`], [`list`] and [`array`].
struct One<T, K>(T, std::marker::PhantomData<K>);

/// An enumeration's table, prefix and description, as the modules of `kind!` give them.
pub trait Enumeration {
    /// The names and their values.
    const TABLE: Table;
    /// The prefix of the manual's constants, accepted on read (`"bboxmode_"`).
    const PREFIX: &'static str;
    /// What the value is, for errors.
    const WHAT: &'static str;
}

impl<T: Value, K: Enumeration> serde::Serialize for One<T, K> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        write(self.0, K::TABLE, s)
    }
}

impl<'de, T: Value, K: Enumeration> Deserialize<'de> for One<T, K> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        read(K::TABLE, K::PREFIX, K::WHAT, d).map(|v| One(v, std::marker::PhantomData))
    }
}

/// Serializes an optional value by name (`null` for `None`).
pub fn write_option<S: Serializer, T: Value, K: Enumeration>(
    v: &Option<T>,
    s: S,
) -> Result<S::Ok, S::Error> {
    serde::Serialize::serialize(&v.map(|v| One::<T, K>(v, std::marker::PhantomData)), s)
}

/// Deserializes an optional value from its name, number or `null`.
pub fn read_option<'de, D: Deserializer<'de>, T: Value, K: Enumeration>(
    d: D,
) -> Result<Option<T>, D::Error> {
    Ok(Option::<One<T, K>>::deserialize(d)?.map(|o| o.0))
}

/// Serializes a list of values by name.
pub fn write_list<S: Serializer, T: Value, K: Enumeration>(
    v: &[T],
    s: S,
) -> Result<S::Ok, S::Error> {
    s.collect_seq(v.iter().map(|&v| One::<T, K>(v, std::marker::PhantomData)))
}

/// Deserializes a list of values from names or numbers.
pub fn read_list<'de, D: Deserializer<'de>, T: Value, K: Enumeration>(
    d: D,
) -> Result<Vec<T>, D::Error> {
    Ok(Vec::<One<T, K>>::deserialize(d)?
        .into_iter()
        .map(|o| o.0)
        .collect())
}

/// Deserializes an array of `N` values from names or numbers (another length is an error).
pub fn read_array<'de, D: Deserializer<'de>, T: Value, K: Enumeration, const N: usize>(
    d: D,
) -> Result<[T; N], D::Error> {
    let v = read_list::<D, T, K>(d)?;
    let n = v.len();
    v.try_into().map_err(|_| {
        serde::de::Error::custom(format!("{}: expected {N} values, found {n}", K::WHAT))
    })
}

macro_rules! kind {
    ($(#[$doc:meta])* $module:ident, $prefix:literal, $what:literal, $table:expr) => {
        $(#[$doc])*
        pub mod $module {
            use serde::{Deserializer, Serializer};
            /// The names and their values.
            pub const TABLE: super::Table = $table;
            /// This enumeration, for [`super::Enumeration`]'s containers.
            pub struct Kind;
            impl super::Enumeration for Kind {
                const TABLE: super::Table = TABLE;
                const PREFIX: &'static str = $prefix;
                const WHAT: &'static str = $what;
            }
            /// Serializes the value by name.
            pub fn serialize<S: Serializer, T: super::Value>(v: &T, s: S) -> Result<S::Ok, S::Error> {
                super::write(*v, TABLE, s)
            }
            /// Deserializes the value from its name or number.
            pub fn deserialize<'de, D: Deserializer<'de>, T: super::Value>(d: D) -> Result<T, D::Error> {
                super::read(TABLE, $prefix, $what, d)
            }
            /// An optional value (`#[serde(with = "...::option")]`).
            pub mod option {
                use serde::{Deserializer, Serializer};
                /// Serializes the value by name, `null` for `None`.
                pub fn serialize<S: Serializer, T: super::super::Value>(
                    v: &Option<T>,
                    s: S,
                ) -> Result<S::Ok, S::Error> {
                    super::super::write_option::<S, T, super::Kind>(v, s)
                }
                /// Deserializes the value from its name, number or `null`.
                pub fn deserialize<'de, D: Deserializer<'de>, T: super::super::Value>(
                    d: D,
                ) -> Result<Option<T>, D::Error> {
                    super::super::read_option::<D, T, super::Kind>(d)
                }
            }
            /// A list or an array of values (`#[serde(with = "...::list")]`).
            pub mod list {
                use serde::{Deserializer, Serializer};
                /// Serializes the values by name.
                pub fn serialize<S: Serializer, T: super::super::Value, C: AsRef<[T]>>(
                    v: &C,
                    s: S,
                ) -> Result<S::Ok, S::Error> {
                    super::super::write_list::<S, T, super::Kind>(v.as_ref(), s)
                }
                /// Deserializes the values from names or numbers.
                pub fn deserialize<'de, D: Deserializer<'de>, C: super::super::FromValues>(
                    d: D,
                ) -> Result<C, D::Error> {
                    C::read::<D, super::Kind>(d)
                }
            }
        }
    };
}

/// A container of values that the `list` module of each kind reads: a `Vec` or an array.
pub trait FromValues: Sized {
    /// Reads the container's values.
    fn read<'de, D: Deserializer<'de>, K: Enumeration>(d: D) -> Result<Self, D::Error>;
}

impl<T: Value> FromValues for Vec<T> {
    fn read<'de, D: Deserializer<'de>, K: Enumeration>(d: D) -> Result<Self, D::Error> {
        read_list::<D, T, K>(d)
    }
}

impl<T: Value, const N: usize> FromValues for [T; N] {
    fn read<'de, D: Deserializer<'de>, K: Enumeration>(d: D) -> Result<Self, D::Error> {
        read_array::<D, T, K, N>(d)
    }
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

kind!(
    /// A sprite's collision mask kind (the field `sep_masks`): the data file keeps 0 for an
    /// axis-aligned rectangle, 1 for precise masks and 2 for a rectangle with rotation. Named as
    /// the manual's `bboxkind_*` constants (`sprite_collision_mask`) and the `.yy` field
    /// `collisionKind` (rectangle, precise, rotated rectangle), matched sprite by sprite against
    /// the sources: `collisionKind` 1 and GMS 1.4's `<colkind>1` → 0, `<colkind>0` → 1,
    /// `collisionKind` 5 → 2.
    collision_kind,
    "bboxkind_",
    "collision mask kind",
    &[("rectangular", 0), ("precise", 1), ("rotated_rectangular", 2)]
);

kind!(
    /// A shader's language: the `.yy` field `type` (1 GLSL ES in every source project) and the
    /// languages of the shader editor (GLSL ES, GLSL, HLSL 9, HLSL 11, PSSL, Cg for the PS Vita
    /// and the PS3).
    shader_type,
    "",
    "shader type",
    &[
        ("glsl_es", 1),
        ("glsl", 2),
        ("hlsl9", 3),
        ("hlsl11", 4),
        ("pssl", 5),
        ("cg_psvita", 6),
        ("cg_ps3", 7),
    ]
);

kind!(
    /// An animation curve channel's interpolation: the manual's `animcurvetype_*` constants
    /// (`animcurve_channel_new`: linear, Catmull-Rom, Bezier, in that order; the corpus's ease
    /// curves with Bezier handles hold 2).
    curve_type,
    "animcurvetype_",
    "curve type",
    &[("linear", 0), ("catmullrom", 1), ("bezier", 2)]
);

kind!(
    /// A sequence track's keyframe interpolation: the manual's `seqinterpolation_*` constants
    /// (the track struct's `interpolation`; the `.yy` field of the same name).
    interpolation,
    "seqinterpolation_",
    "interpolation",
    &[("assign", 0), ("lerp", 1)]
);

kind!(
    /// A nine-slice part's tile mode: the manual's `nineslice_*` constants (Nine Slice struct
    /// `tilemode`, in the manual's order).
    tile_mode,
    "nineslice_",
    "nine-slice tile mode",
    &[
        ("stretch", 0),
        ("repeat", 1),
        ("mirror", 2),
        ("blank", 3),
        ("hide", 4),
    ]
);

kind!(
    /// A texture group's load type: the `.yyp` texture group field `loadType` (`"default"`: the
    /// pages are in the data file; `"dynamicpages"`: external page files).
    load_type,
    "",
    "texture group load type",
    &[("default", 0), ("dynamicpages", 1)]
);

kind!(
    /// A particle emitter's mode: the manual's `ps_mode_*` constants (`particle_get_info`; the
    /// `.yy` emitter field `mode`).
    emitter_mode,
    "ps_mode_",
    "emitter mode",
    &[("stream", 0), ("burst", 1)]
);

kind!(
    /// A particle emitter's region shape: the manual's `ps_shape_*` constants
    /// (`part_emitter_region`, in the manual's order; the `.yy` emitter field `shape`).
    emitter_shape,
    "ps_shape_",
    "emitter shape",
    &[("rectangle", 0), ("ellipse", 1), ("diamond", 2), ("line", 3)]
);

kind!(
    /// A particle emitter's distribution: the manual's `ps_distr_*` constants
    /// (`part_emitter_region`, in the manual's order; the `.yy` emitter field `distribution`).
    distribution,
    "ps_distr_",
    "emitter distribution",
    &[("linear", 0), ("gaussian", 1), ("invgaussian", 2)]
);

kind!(
    /// The unit of a particle emitter's delay and interval: the manual's
    /// `time_source_units_*` constants (seconds 0, frames 1; the `.yy` fields `emitDelayUnits`,
    /// `emitIntervalUnits`).
    time_unit,
    "time_source_units_",
    "time unit",
    &[("seconds", 0), ("frames", 1)]
);

kind!(
    /// An extension file's kind: the `.yy` extension file field `kind` (1 DLL, 2 GML, 3 action
    /// library, 4 generic / proxy, 5 JavaScript), as the extension editor names them.
    extension_file_kind,
    "",
    "extension file kind",
    &[
        ("dll", 1),
        ("gml", 2),
        ("action_library", 3),
        ("generic", 4),
        ("js", 5),
    ]
);

kind!(
    /// The type of an extension function's argument or result: the `.yy` fields `returnType`
    /// and `args` (1 string, 2 double), named as the extension editor's choices (`string`,
    /// `double`).
    value_type,
    "",
    "value type",
    &[("string", 1), ("double", 2)]
);

kind!(
    /// A particle emitter's built-in particle texture: the manual's `pt_shape_*` constants
    /// (`part_type_shape`, in the manual's order: pixel 0 to snow 13; the `.yy` emitter field
    /// `texture`).
    particle_shape,
    "pt_shape_",
    "particle shape",
    &[
        ("pixel", 0),
        ("disk", 1),
        ("square", 2),
        ("line", 3),
        ("star", 4),
        ("circle", 5),
        ("ring", 6),
        ("sphere", 7),
        ("flare", 8),
        ("spark", 9),
        ("explosion", 10),
        ("cloud", 11),
        ("smoke", 12),
        ("snow", 13),
    ]
);
