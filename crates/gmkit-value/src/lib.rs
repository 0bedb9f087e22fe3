//! GML values and the binary formats GameMaker games store them in.
//!
//! - [`Value`]: every value the ds_* and Elephant formats carry, with shared references so that
//!   identity and cycles survive a read → write.
//! - [`ds`]: the hex strings of `ds_map_write`, `ds_list_write`, `ds_grid_write`, ...
//! - [`elephant`]: the Elephant library's binary buffers and export strings.

#![warn(missing_docs)]

pub mod ds;
pub mod elephant;
pub mod json;
mod path;
pub mod value;
mod value_serde;

pub use value::{Array, Struct, StructData, Value, ValueIndex, ValueMut};

/// The README's examples run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
