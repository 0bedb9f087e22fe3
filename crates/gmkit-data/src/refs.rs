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

/// How many kept values the readers have made (process-wide): parsing compares it before and
/// after to know whether the model holds any ([`crate::model::Layout::kept`] records them then;
/// a concurrent parse only causes a needless look).
static KEPT_READ: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

#[cold]
fn kept_read() {
    KEPT_READ.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
}

/// The number of kept values read so far (see [`KEPT_READ`]).
pub(crate) fn kept_read_count() -> usize {
    KEPT_READ.load(std::sync::atomic::Ordering::Relaxed)
}

/// A kind of table an [`AssetRef`] can point into (sprites, objects, rooms, code entries, ...).
///
/// Implemented by every named asset type and by [`CodeEntry`](crate::chunks::code::CodeEntry);
/// it tells the folder's names layer which table's names a reference is written with.
pub trait Target {
    /// The kind of table.
    const KIND: crate::walk::AssetKind;
}

/// What an [`AssetRef`] holds.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum Held {
    /// Refers to nothing.
    None,
    /// Refers to entry `n` of the table.
    Index(u32),
    /// A stored value that is neither the field's "none" nor an index (a negative value some
    /// real file holds, e.g. `-1` where `-100` means no parent): kept exactly so that the file
    /// round-trips. Only the reader and deserialization make one.
    Stored(i32),
}

/// A reference from one asset to another (an object's sprite and parent, a room instance's
/// object and creation code, a script's code entry, ...): an index into the table of `T`'s
/// kind, or nothing.
///
/// The file stores such a reference as an `i32` with a "none" value chosen per field (`-1`
/// for most, `-100` for an object's parent); reading turns that value into
/// [`AssetRef::NONE`] and a non-negative value into an index, so code never compares with
/// sentinels. Any other value a real file holds is kept exactly ([`AssetRef::kept`]) and
/// written back unchanged; the API cannot make one, and [`DataFile::validate`](crate::DataFile::validate)
/// refuses an index past the table.
///
/// ```
/// use gmkit_data::{AssetRef, Id, chunks::sprite::Sprite};
/// let none: AssetRef<Sprite> = AssetRef::NONE;
/// assert!(none.is_none());
/// let r = AssetRef::to(Id::<Sprite>::new(3));
/// assert_eq!(r.id(), Some(Id::new(3)));
/// assert_eq!(r.index(), Some(3));
/// assert_eq!(AssetRef::<Sprite>::from(None), none);
/// ```
pub struct AssetRef<T>(Held, PhantomData<fn() -> T>);

impl<T> AssetRef<T> {
    /// A reference to nothing.
    pub const NONE: Self = AssetRef(Held::None, PhantomData);

    /// A reference to `id`.
    pub const fn to(id: Id<T>) -> Self {
        AssetRef(Held::Index(id.0), PhantomData)
    }

    /// A reference to entry `index` of the table.
    pub const fn at(index: u32) -> Self {
        AssetRef(Held::Index(index), PhantomData)
    }

    /// The asset referred to, if any.
    pub fn id(self) -> Option<Id<T>> {
        match self.0 {
            Held::Index(i) => Some(Id::new(i)),
            _ => None,
        }
    }

    /// The index referred to, if any.
    pub fn index(self) -> Option<usize> {
        self.id().map(Id::index)
    }

    /// Whether the reference refers to nothing (a [kept](AssetRef::kept) value is not "none").
    pub fn is_none(self) -> bool {
        self.0 == Held::None
    }

    /// The stored value, when the file held one that is neither the field's "none" nor an
    /// index (kept exactly so that the file round-trips).
    pub fn kept(self) -> Option<i32> {
        match self.0 {
            Held::Stored(v) => Some(v),
            _ => None,
        }
    }

    /// The reference a stored value denotes, `none` being the field's "none" value.
    pub(crate) fn from_stored(v: i32, none: i32) -> Self {
        AssetRef(
            if v == none {
                Held::None
            } else if v >= 0 {
                Held::Index(v as u32)
            } else {
                kept_read();
                Held::Stored(v)
            },
            PhantomData,
        )
    }

    /// The value stored for this reference, `none` being the field's "none" value (an index
    /// above `i32::MAX` wraps; [`DataFile::validate`](crate::DataFile::validate) refuses it first).
    pub(crate) fn to_stored(self, none: i32) -> i32 {
        match self.0 {
            Held::None => none,
            Held::Index(i) => i as i32,
            Held::Stored(v) => v,
        }
    }

    /// An entry of a membership list as stored: an index, or a negative value kept exactly
    /// (lists have no "none").
    pub(crate) fn from_listed(v: i32) -> Self {
        AssetRef(
            if v >= 0 {
                Held::Index(v as u32)
            } else {
                kept_read();
                Held::Stored(v)
            },
            PhantomData,
        )
    }

    /// Points the reference at entry `index`.
    pub(crate) fn set_index(&mut self, index: u32) {
        self.0 = Held::Index(index);
    }

    /// A kept stored value (deserialization of `{"stored": v}` and of a negative integer).
    #[cfg_attr(not(feature = "serde"), allow(dead_code))]
    pub(crate) fn stored(v: i32) -> Self {
        AssetRef(Held::Stored(v), PhantomData)
    }
}

impl<T> Default for AssetRef<T> {
    fn default() -> Self {
        Self::NONE
    }
}
impl<T> Clone for AssetRef<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for AssetRef<T> {}
impl<T> PartialEq for AssetRef<T> {
    fn eq(&self, o: &Self) -> bool {
        self.0 == o.0
    }
}
impl<T> Eq for AssetRef<T> {}
impl<T> std::hash::Hash for AssetRef<T> {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.0.hash(h)
    }
}
impl<T> fmt::Debug for AssetRef<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            Held::None => f.write_str("None"),
            Held::Index(i) => Id::<T>::new(i).fmt(f),
            Held::Stored(v) => write!(f, "Kept({v})"),
        }
    }
}
impl<T> From<Id<T>> for AssetRef<T> {
    fn from(id: Id<T>) -> Self {
        AssetRef::to(id)
    }
}
impl<T> From<Option<Id<T>>> for AssetRef<T> {
    fn from(id: Option<Id<T>>) -> Self {
        id.map_or(AssetRef::NONE, AssetRef::to)
    }
}

/// How removing one asset renumbered its table: the asset at the removed index is gone, every
/// later one moved down by one, earlier ones kept their index. Returned by
/// [`DataFile::remove_asset`](crate::DataFile::remove_asset) (in [`crate::Removed`]); the model's
/// own typed references ([`AssetRef`], [`Id`] lists) have already followed it.
///
/// ```
/// use gmkit_data::{AssetRef, Id, Renumbering, chunks::path::Path};
/// let r: Renumbering<Path> = Renumbering::new(Id::new(2), 5);
/// assert_eq!(r.map(Id::new(1)), Some(Id::new(1)));
/// assert_eq!(r.map(Id::new(2)), None);
/// assert_eq!(r.map(Id::new(4)), Some(Id::new(3)));
/// assert_eq!(r.map(Id::new(5)), None); // past the old table
/// assert_eq!(r.apply(AssetRef::at(3)), AssetRef::at(2));
/// assert!(r.apply(AssetRef::at(2)).is_none());
/// ```
pub struct Renumbering<T> {
    removed: u32,
    old_len: u32,
    _t: PhantomData<fn() -> T>,
}

impl<T> Renumbering<T> {
    /// The renumbering of a table of `old_len` entries from which `removed` was taken.
    pub fn new(removed: Id<T>, old_len: usize) -> Self {
        Renumbering {
            removed: removed.0,
            old_len: u32::try_from(old_len).unwrap_or(u32::MAX),
            _t: PhantomData,
        }
    }

    /// The removed asset's old index.
    pub fn removed(&self) -> Id<T> {
        Id::new(self.removed)
    }

    /// The new index of the asset that had index `old`; `None` for the removed one (or an
    /// index past the old table).
    pub fn map(&self, old: Id<T>) -> Option<Id<T>> {
        match old.0 {
            i if i == self.removed || i >= self.old_len => None,
            i if i > self.removed => Some(Id::new(i - 1)),
            i => Some(Id::new(i)),
        }
    }

    /// A reference renumbered: none stays none, a kept stored value stays as it is, a
    /// reference to the removed asset becomes none.
    pub fn apply(&self, r: AssetRef<T>) -> AssetRef<T> {
        match r.id() {
            Some(id) => self.map(id).into(),
            None => r,
        }
    }

    /// Every (old index, new index) pair, in order; the removed asset maps to `None`.
    pub fn pairs(&self) -> impl Iterator<Item = (Id<T>, Option<Id<T>>)> + '_ {
        (0..self.old_len).map(|i| (Id::new(i), self.map(Id::new(i))))
    }
}

impl<T> Clone for Renumbering<T> {
    fn clone(&self) -> Self {
        Renumbering {
            removed: self.removed,
            old_len: self.old_len,
            _t: PhantomData,
        }
    }
}
impl<T> fmt::Debug for Renumbering<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "Renumbering {{ removed: {}, old_len: {} }}",
            self.removed, self.old_len
        )
    }
}
