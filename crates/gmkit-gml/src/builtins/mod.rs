//! GML's built-in names: constants with their values ([`constant`]), functions with the kinds
//! of their arguments and result ([`function`]), and built-in variables ([`variable`]).
//!
//! One source for everything that needs to know what a built-in name means: the compiler
//! (is `image_angle` a built-in instance variable or a new one? is `ord` a built-in function?
//! what number is `c_red`?), the decompiler (`draw_set_colour(255)` reads as
//! `draw_set_colour(c_red)`, `instance_create(x, y, 3)` as `instance_create(x, y, obj_enemy)`)
//! and asset renumbering (which integer operands of old bytecode are asset indices).
//!
//! The tables are facts (names, argument and result kinds, values) taken from the GameMaker
//! manual's function pages and from what the corpus games compile to; never another tool's
//! data file. See each table module for its sources.

mod constants;
#[rustfmt::skip]
mod generated;
mod signatures;

pub use constants::{ConstValue, constant, constant_for, constant_kind, documented_constant};
pub use signatures::{Function, Scope, Variable, function, variable};

use crate::game::AssetKind;

/// What a value means, as far as naming it goes: the kind of a function's argument or result,
/// of a built-in variable, or the family a built-in constant belongs to.
///
/// A decompiler names a literal only inside a kind that has names (a colour, a key, an asset);
/// [`Kind::Any`] and the plain value kinds never turn a number into a name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Kind {
    /// Unknown or anything.
    Any,
    /// A number with no names.
    Real,
    /// `true` / `false`.
    Bool,
    /// A string.
    String,
    /// A colour (`c_*`, or `#RRGGBB` in GMS2+ source).
    Colour,
    /// A virtual key code (`vk_*`, or `ord("A")`).
    Key,
    /// A mouse button (`mb_*`).
    MouseButton,
    /// Horizontal text alignment (`fa_left`, `fa_center`, `fa_right`).
    HAlign,
    /// Vertical text alignment (`fa_top`, `fa_middle`, `fa_bottom`).
    VAlign,
    /// An event type (`ev_create`, `ev_step`, ...).
    EventType,
    /// A blend mode (`bm_normal`, `bm_add`, `bm_max`, `bm_subtract`).
    BlendMode,
    /// A blend factor of an extended blend mode (`bm_zero`, `bm_src_alpha`, ...).
    BlendFactor,
    /// A buffer's data type (`buffer_u8`, `buffer_string`, ...).
    BufferType,
    /// A buffer's kind (`buffer_fixed`, `buffer_grow`, ...).
    BufferKind,
    /// A buffer seek base (`buffer_seek_*`).
    BufferSeek,
    /// A ds type (`ds_type_*`).
    DsType,
    /// A cursor (`cr_*`).
    Cursor,
    /// A primitive type (`pr_*`).
    Primitive,
    /// A gamepad button or axis (`gp_*`).
    Gamepad,
    /// An asset of one kind (its index before 2023.8, a reference after).
    Asset(AssetKind),
    /// An object or an instance: an object index, an instance id, or `self`, `other`, `all`,
    /// `noone`.
    Instance,
    /// An array.
    Array,
    /// A struct.
    Struct,
    /// A function or method.
    Method,
}

impl Kind {
    /// Whether a number of this kind has names (constants or assets) a decompiler may use.
    pub fn has_names(self) -> bool {
        !matches!(
            self,
            Kind::Any | Kind::Real | Kind::String | Kind::Array | Kind::Struct | Kind::Method
        )
    }
}
