//! Datatype codes: GameMaker's buffer types 1–13 and Elephant's container codes 204–207.

use crate::Value;

/// A datatype code as it appears in Elephant data and schemas.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Datatype {
    /// `buffer_u8`.
    U8 = 1,
    /// `buffer_s8`.
    S8 = 2,
    /// `buffer_u16`.
    U16 = 3,
    /// `buffer_s16`.
    S16 = 4,
    /// `buffer_u32`.
    U32 = 5,
    /// `buffer_s32` (GML `int32`).
    S32 = 6,
    /// `buffer_f16`.
    F16 = 7,
    /// `buffer_f32`.
    F32 = 8,
    /// `buffer_f64` (GML reals).
    F64 = 9,
    /// `buffer_bool`.
    Bool = 10,
    /// `buffer_string`: UTF-8 then 0x00.
    String = 11,
    /// `buffer_u64` (GML `int64`, read back signed).
    U64 = 12,
    /// `buffer_text`: Elephant treats it as `buffer_string`.
    Text = 13,
    /// `buffer_any`: a datatype byte follows.
    Any = 204,
    /// `buffer_array`.
    Array = 205,
    /// `buffer_struct`.
    Struct = 206,
    /// `buffer_undefined`: no payload.
    Undefined = 207,
}

impl Datatype {
    /// The datatype for a code of the current (1.4.0+) format.
    pub fn from_code(code: u8) -> Option<Self> {
        use Datatype::*;
        Some(match code {
            1 => U8,
            2 => S8,
            3 => U16,
            4 => S16,
            5 => U32,
            6 => S32,
            7 => F16,
            8 => F32,
            9 => F64,
            10 => Bool,
            11 => String,
            12 => U64,
            13 => Text,
            204 => Any,
            205 => Array,
            206 => Struct,
            207 => Undefined,
            _ => return None,
        })
    }

    /// The datatype for a code of pre-1.4.0 data, where the containers were 14–17.
    pub fn from_legacy_code(code: u8) -> Option<Self> {
        match code {
            14 => Some(Datatype::Any),
            15 => Some(Datatype::Array),
            16 => Some(Datatype::Struct),
            17 => Some(Datatype::Undefined),
            1..=13 => Self::from_code(code),
            _ => None,
        }
    }

    /// The code written by the 1.5.1 writer.
    pub fn code(self) -> u8 {
        self as u8
    }

    /// The GameMaker / Elephant macro name (`buffer_u8`, `buffer_any`, …).
    pub fn name(self) -> &'static str {
        use Datatype::*;
        match self {
            U8 => "buffer_u8",
            S8 => "buffer_s8",
            U16 => "buffer_u16",
            S16 => "buffer_s16",
            U32 => "buffer_u32",
            S32 => "buffer_s32",
            F16 => "buffer_f16",
            F32 => "buffer_f32",
            F64 => "buffer_f64",
            Bool => "buffer_bool",
            String => "buffer_string",
            U64 => "buffer_u64",
            Text => "buffer_text",
            Any => "buffer_any",
            Array => "buffer_array",
            Struct => "buffer_struct",
            Undefined => "buffer_undefined",
        }
    }

    /// The short tag used by the tagged JSON form (`u8`, `f64`, `string`, …).
    pub fn tag(self) -> &'static str {
        use Datatype::*;
        match self {
            U8 => "u8",
            S8 => "s8",
            U16 => "u16",
            S16 => "s16",
            U32 => "u32",
            S32 => "s32",
            F16 => "f16",
            F32 => "f32",
            F64 => "f64",
            Bool => "bool",
            String | Text => "string",
            U64 => "u64",
            Any => "any",
            Array => "array",
            Struct => "struct",
            Undefined => "undefined",
        }
    }

    /// Fixed payload size in bytes of a scalar datatype (`None` for strings and containers).
    pub fn fixed_size(self) -> Option<usize> {
        use Datatype::*;
        match self {
            U8 | S8 | Bool => Some(1),
            U16 | S16 | F16 => Some(2),
            U32 | S32 | F32 => Some(4),
            F64 | U64 => Some(8),
            Undefined => Some(0),
            _ => None,
        }
    }

    /// The minimum number of bytes one value of this datatype occupies.
    pub fn min_size(self) -> usize {
        use Datatype::*;
        match self {
            String | Text | Any => 1,
            Array | Struct => 2,
            d => d.fixed_size().unwrap_or(1),
        }
    }
}

/// Elephant's `datatype_of`: the datatype the 1.5.1 writer uses for a value in a `buffer_any` slot.
///
/// Reals → f64 (9), `int32` → s32 (6), `int64`/`ptr` → u64 (12), bools → 10, strings → 11,
/// undefined → 207, arrays → 205, structs → 206.
pub fn datatype_of(v: &Value) -> Datatype {
    match v {
        Value::Undefined => Datatype::Undefined,
        Value::Bool(_) => Datatype::Bool,
        Value::Real(_) => Datatype::F64,
        Value::Int32(_) => Datatype::S32,
        Value::Int64(_) | Value::Ptr(_) => Datatype::U64,
        Value::String(_) => Datatype::String,
        Value::Array(_) | Value::Array2d(_) => Datatype::Array,
        Value::Struct(_) => Datatype::Struct,
    }
}
