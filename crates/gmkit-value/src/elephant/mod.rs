//! The [Elephant](https://github.com/JujuAdams/Elephant) binary format: GameMaker structs and
//! arrays (with shared and circular references, constructors and schemas) in a buffer, and the
//! zlib + base64 "export strings" made from it.
//!
//! * [`read()`] / [`write()`]: buffers ↔ [`Value`](crate::Value) graphs, every format version from
//!   1.0.0 to 1.5.1 in, 1.5.1 out, byte-exact with Elephant 1.5.1's writer;
//! * [`SchemaRegistry`]: the `ELEPHANT_SCHEMA` declarations non-verbose data needs;
//! * [`export_string`] / [`import_string`]: `ElephantExportString` / `ElephantImportString`;
//! * [`to_json`] / [`from_json`] and [`duplicate`]: `ElephantToJSON`, `ElephantFromJSON`,
//!   `ElephantDuplicate`;
//! * [`to_bytes`] / [`from_bytes`] (and the export-string variants): serde, straight between
//!   Rust types and bytes; [`to_value`] / [`from_value`] between Rust types and
//!   [`Value`](crate::Value) graphs; [`Options`], [`Constructed`] and [`Plain`] choose plain or
//!   constructed structs.
//!
//! # serde
//!
//! ```
//! use serde::{Deserialize, Serialize};
//!
//! #[derive(Serialize, Deserialize, PartialEq, Debug)]
//! struct Player { name: String, hp: f64, inventory: Vec<String> }
//!
//! let p = Player { name: "Ada".into(), hp: 100.0, inventory: vec!["sword".into()] };
//! // A string `ElephantImportString` accepts: a plain struct (see [`Options`] and
//! // [`Constructed`] for constructed structs).
//! let s = gmkit_value::elephant::to_export_string(&p).unwrap();
//! assert_eq!(gmkit_value::elephant::from_export_string::<Player>(&s).unwrap(), p);
//! ```
//!
//! Mapping of Rust types (following Elephant's `datatype_of`):
//!
//! | Rust | Elephant |
//! |---|---|
//! | `f32`, `f64`, `u32` | f64 (9), a GML real |
//! | `i8`, `i16`, `i32`, `u8`, `u16` | s32 (6), a GML `int32` |
//! | `i64`, `u64` (`isize`, `usize`) | u64 (12), a GML `int64` (bits; read back signed) |
//! | `bool` | bool (10) |
//! | `String`, `&str`, `char`, unit enum variants | string (11) |
//! | `None`, `()`, unit structs | undefined (207) |
//! | `Vec`, slices, tuples, tuple structs | array (205) with a common datatype when all elements share one |
//! | `&[u8]` via `serialize_bytes` | array with common datatype u8 (1) |
//! | named structs | plain struct (206) by default; with [`Structs::Constructed`] or inside [`Constructed`]: constructed struct (206, `0xFFFE`), constructor = the serde name, verbose, version 0 |
//! | maps | plain struct (206); keys written as strings (integer, real and bool keys as their text, read back as numbers / bools) |
//! | struct enum variants | plain struct `{variant: {fields}}`; with [`Structs::Constructed`]: constructed struct named after the variant |
//! | newtype / tuple enum variants | plain struct `{variant: value}` |
//!
//! Deserializing accepts anything GameMaker writes: any numeric datatype for any number,
//! plain or constructed structs for structs and maps, references (a shared container is read
//! again for each use; cycles are an error), schema'd structs when a registry is given
//! ([`from_bytes_with`]).

mod callbacks;
pub mod datatype;
mod de;
mod duplicate;
mod error;
mod export;
mod json;
pub mod read;
mod schema;
mod ser;
pub mod tagged;
pub mod write;

pub use callbacks::{Callbacks, NoCallbacks};
pub use datatype::{Datatype, datatype_of};
pub use de::{from_bytes, from_bytes_with, from_export_string, from_value, from_value_with};
pub use duplicate::{duplicate, duplicate_with};
pub use error::{Error, Result};
pub use export::{
    DEFAULT_MAX_DECOMPRESSED, DEFLATE_MAX_RATIO, compress, decompress, export_string,
    export_string_with, import_string, import_string_with,
};
pub use json::{from_json, from_plain_json, to_json, to_json_with, to_plain_json};
pub use read::{ReadOptions, read, read_with};
pub use schema::{
    ConstructorSchema, FORCE_VERSION_KEY, SchemaRegistry, VERBOSE_EXCLUDE_KEY, VERSION_VERBOSE_KEY,
    VersionSchema,
};
pub use ser::{
    Constructed, Options, Plain, Structs, to_bytes, to_bytes_with, to_export_string,
    to_export_string_with, to_value, to_value_with,
};
pub use write::{WriteOptions, write, write_with};

/// The header word `0x454C4550` (bytes `50 45 4C 45`).
pub const HEADER: u32 = 0x454C_4550;
/// The footer word `0x48414E54` (bytes `54 4E 41 48`).
pub const FOOTER: u32 = 0x4841_4E54;
/// The header of 1.0.0 / 1.1.0 data (bytes `41 54 4D 43`, "ATMC").
pub const LEGACY_HEADER: u32 = 0x434D_5441;
/// The version word this crate writes: 1.5.1.
pub const VERSION_1_5_1: u32 = 0x0001_0501;
