//! The four per-struct callbacks of Elephant 1.5.1 (§8 of the spec).

use crate::Struct;

/// Hooks Elephant calls for every *constructed* struct (GML: the `__Elephant_Pre_Write_Method__`,
/// `__Elephant_Post_Write_Method__`, `__Elephant_Pre_Read_Method__` and
/// `__Elephant_Post_Read_Method__` methods of the instance).
///
/// `version` is what `ELEPHANT_SCHEMA_VERSION` holds during the call: the version being written
/// (writes) or the version found in the data (reads). Every method defaults to a no-op.
///
/// Order, as in Elephant 1.5.1:
/// * `pre_write`: after the flags byte is written, before the body (for verbose structs the member
///   list has already been taken, so members added here are not written);
/// * `post_write`: after the body;
/// * `pre_read`: after the flags byte is read and the struct registered, before its members are
///   read (the struct is still empty);
/// * `post_read`: after the whole buffer including the footer, for every constructed struct in
///   creation (pre-)order (readers of 1.0–1.3 data call it right after each struct instead).
pub trait Callbacks {
    /// Before a constructed struct's body is written.
    fn pre_write(&mut self, _s: &Struct, _version: u8) {}
    /// After a constructed struct's body is written.
    fn post_write(&mut self, _s: &Struct, _version: u8) {}
    /// Before a constructed struct's members are read.
    fn pre_read(&mut self, _s: &Struct, _version: u8) {}
    /// After everything has been read.
    fn post_read(&mut self, _s: &Struct, _version: u8) {}
}

/// Callbacks that do nothing.
#[derive(Debug, Default, Clone, Copy)]
pub struct NoCallbacks;

impl Callbacks for NoCallbacks {}
