//! Typed references between assets.
//!
//! Pointers in the file become indices in the model: a [`StringRef`] is the index of a STRG entry,
//! an [`Id`] is the index of an asset in its chunk's list. Resolving one is a slice index, O(1);
//! writing turns them back into pointers or resource ids.

use std::fmt;
use std::marker::PhantomData;

/// A reference to an entry of the string table (STRG), by position.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug, Default)]
pub struct StringRef(pub u32);

impl StringRef {
    /// The entry's index in the string table.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A typed index of an asset of kind `T` in its chunk's list.
pub struct Id<T>(pub u32, PhantomData<fn() -> T>);

impl<T> Id<T> {
    /// A reference to element `index`.
    pub const fn new(index: u32) -> Self {
        Id(index, PhantomData)
    }
    /// The index.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}
impl<T> Clone for Id<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for Id<T> {}
impl<T> PartialEq for Id<T> {
    fn eq(&self, o: &Self) -> bool {
        self.0 == o.0
    }
}
impl<T> Eq for Id<T> {}
impl<T> std::hash::Hash for Id<T> {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.0.hash(h)
    }
}
impl<T> PartialOrd for Id<T> {
    fn partial_cmp(&self, o: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(o))
    }
}
impl<T> Ord for Id<T> {
    fn cmp(&self, o: &Self) -> std::cmp::Ordering {
        self.0.cmp(&o.0)
    }
}
impl<T> fmt::Debug for Id<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = std::any::type_name::<T>()
            .rsplit("::")
            .next()
            .unwrap_or("?");
        write!(f, "Id<{name}>({})", self.0)
    }
}

/// Converts a resource id as stored (`-1` = none) to an optional [`Id`].
pub fn id_from_i32<T>(v: i32) -> Option<Id<T>> {
    (v >= 0).then(|| Id::new(v as u32))
}
/// Converts an optional [`Id`] back to a stored resource id (`-1` = none).
pub fn id_to_i32<T>(v: Option<Id<T>>) -> i32 {
    v.map_or(-1, |i| i.0 as i32)
}
