//! The GML value model shared by the ds_* and Elephant formats.
//!
//! Scalars are plain enum variants. Arrays and structs are *handles*: cloning an [`Array`] or a
//! [`Struct`] clones the reference, not the contents, exactly like assigning an array or struct in
//! GML 2.3+. Two handles to the same container are the same value ([`Array::ptr_eq`]), which is
//! how Elephant's shared and circular references are kept through a read → write.
//!
//! ```
//! use gmkit_value::{Array, Value};
//! let a = Array::new(vec![Value::Real(1.0), Value::from("two")]);
//! let v = Value::Array(a.clone());
//! a.push(Value::Bool(true));
//! assert_eq!(v.as_array().unwrap().len(), 3);
//! ```
//!
//! # Cycles: strong and weak handles
//!
//! A handle is *strong* (it keeps its container alive, like an `Arc`) or *weak* (a
//! back-reference that does not, like a `Weak`). Cycles of strong handles are never freed, so
//! the readers in this crate store every reference to a container that is still being read
//! (an *ancestor*: that is what closes a cycle) as a weak handle, and every other reference
//! (a child, or sharing of a finished container) as a strong one. The strong handles of a
//! decoded graph then form a tree with shared leaves (no cycle), and dropping the root frees
//! the whole graph, cycles included: a program that decodes save after save stays flat.
//!
//! What that means for users:
//! - Keep the root (or any strong handle) while you use a graph. A weak back-reference whose
//!   target has been freed reads as an empty array / empty plain struct
//!   ([`Array::is_alive`]); writers then write it as such.
//! - Handles taken out of a container with [`Array::get`] / [`Struct::get`] are strong
//!   ([`Value::to_strong`]), so what you take out stays alive while you hold it. `read()`
//!   shows the elements as stored (back-references weak); cloning a `Value` keeps its kind.
//! - Identity, equality and every writer treat a weak handle exactly like a strong handle to
//!   the same container: a round trip keeps shared and circular references.
//! - To build a cycle yourself, store the back-edge with [`Array::downgrade`] /
//!   [`Struct::downgrade`]; a cycle made only of strong handles leaks, as with `Arc`.
//!
//! ```
//! use gmkit_value::{Struct, Value};
//! let root = Struct::new(vec![]);
//! let child = Struct::new(vec![("parent".into(), Value::Struct(root.downgrade()))]);
//! root.set("child", Value::Struct(child));
//! let parent = root.get("child").unwrap().as_struct().unwrap().get("parent").unwrap();
//! assert!(parent.as_struct().unwrap().ptr_eq(&root));
//! drop(parent);
//! drop(root); // frees both structs
//! ```

use parking_lot::RwLock;
use std::collections::HashSet;
use std::fmt;
use std::ops::{Deref, DerefMut};
use std::sync::{Arc, Weak};

/// A GML value.
#[derive(Clone, Default)]
pub enum Value {
    /// `undefined`.
    #[default]
    Undefined,
    /// A boolean (GML `bool`, stored by ds_* as kind 13 and by Elephant as datatype 10).
    Bool(bool),
    /// A real number (GML `number`), any f64 bit pattern including NaN and -0.
    Real(f64),
    /// A 32-bit integer (GML `int32`).
    Int32(i32),
    /// A 64-bit integer (GML `int64`).
    Int64(i64),
    /// A pointer (GML `ptr`), kept as its 64 raw bits.
    Ptr(u64),
    /// A string.
    String(String),
    /// A shared reference to an array.
    Array(Array),
    /// A legacy two-dimensional array (pre-2.3 runners; ds_* legacy `x02` format): a list of rows.
    Array2d(Vec<Vec<Value>>),
    /// A shared reference to a struct.
    Struct(Struct),
}

impl Value {
    /// The array handle, if this is an array.
    pub fn as_array(&self) -> Option<&Array> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }
    /// The struct handle, if this is a struct.
    pub fn as_struct(&self) -> Option<&Struct> {
        match self {
            Value::Struct(s) => Some(s),
            _ => None,
        }
    }
    /// The string, if this is a string.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }
    /// The value as a GML number, if it is one (real, int32, int64, bool).
    pub fn as_f64(&self) -> Option<f64> {
        match *self {
            Value::Real(r) => Some(r),
            Value::Int32(i) => Some(i as f64),
            Value::Int64(i) => Some(i as f64),
            Value::Bool(b) => Some(b as u8 as f64),
            _ => None,
        }
    }
    /// The same value with a container handle made strong (a weak back-reference whose target
    /// is alive becomes a strong handle to it); scalars are cloned.
    pub fn to_strong(&self) -> Value {
        match self {
            Value::Array(a) => Value::Array(Array(a.0.strong())),
            Value::Struct(s) => Value::Struct(Struct(s.0.strong())),
            v => v.clone(),
        }
    }
    /// The same value with a container handle made weak (a back-reference); scalars are cloned.
    pub fn downgrade(&self) -> Value {
        match self {
            Value::Array(a) => Value::Array(a.downgrade()),
            Value::Struct(s) => Value::Struct(s.downgrade()),
            v => v.clone(),
        }
    }
    /// GML's `typeof` name of this value.
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Undefined => "undefined",
            Value::Bool(_) => "bool",
            Value::Real(_) => "number",
            Value::Int32(_) => "int32",
            Value::Int64(_) => "int64",
            Value::Ptr(_) => "ptr",
            Value::String(_) => "string",
            Value::Array(_) | Value::Array2d(_) => "array",
            Value::Struct(_) => "struct",
        }
    }
}

impl From<f64> for Value {
    fn from(v: f64) -> Self {
        Value::Real(v)
    }
}
impl From<bool> for Value {
    fn from(v: bool) -> Self {
        Value::Bool(v)
    }
}
impl From<i32> for Value {
    fn from(v: i32) -> Self {
        Value::Int32(v)
    }
}
impl From<i64> for Value {
    fn from(v: i64) -> Self {
        Value::Int64(v)
    }
}
impl From<&str> for Value {
    fn from(v: &str) -> Self {
        Value::String(v.to_owned())
    }
}
impl From<String> for Value {
    fn from(v: String) -> Self {
        Value::String(v)
    }
}
impl From<Vec<Value>> for Value {
    fn from(v: Vec<Value>) -> Self {
        Value::Array(Array::new(v))
    }
}
impl From<Array> for Value {
    fn from(v: Array) -> Self {
        Value::Array(v)
    }
}
impl From<Struct> for Value {
    fn from(v: Struct) -> Self {
        Value::Struct(v)
    }
}

/// How a handle refers to its container: owning (strong) or as a back-reference (weak).
enum Link<T> {
    Strong(Arc<RwLock<T>>),
    Weak(Weak<RwLock<T>>),
}

impl<T> Clone for Link<T> {
    fn clone(&self) -> Self {
        match self {
            Link::Strong(a) => Link::Strong(a.clone()),
            Link::Weak(w) => Link::Weak(w.clone()),
        }
    }
}

impl<T: Default> Link<T> {
    fn new(v: T) -> Self {
        Link::Strong(Arc::new(RwLock::new(v)))
    }
    fn ptr(&self) -> *const RwLock<T> {
        match self {
            Link::Strong(a) => Arc::as_ptr(a),
            Link::Weak(w) => w.as_ptr(),
        }
    }
    fn upgrade(&self) -> Option<Arc<RwLock<T>>> {
        match self {
            Link::Strong(a) => Some(a.clone()),
            Link::Weak(w) => w.upgrade(),
        }
    }
    fn downgrade(&self) -> Self {
        match self {
            Link::Strong(a) => Link::Weak(Arc::downgrade(a)),
            Link::Weak(w) => Link::Weak(w.clone()),
        }
    }
    fn strong(&self) -> Self {
        match self {
            Link::Strong(a) => Link::Strong(a.clone()),
            Link::Weak(w) => w
                .upgrade()
                .map_or_else(|| Link::Weak(w.clone()), Link::Strong),
        }
    }
    fn is_weak(&self) -> bool {
        matches!(self, Link::Weak(_))
    }
    fn is_alive(&self) -> bool {
        match self {
            Link::Strong(_) => true,
            Link::Weak(w) => w.strong_count() > 0,
        }
    }
    fn read(&self) -> ReadGuard<'_, T> {
        ReadGuard(match self {
            Link::Strong(a) => Guard::Borrowed(a.read()),
            Link::Weak(w) => Guard::Owned(
                w.upgrade()
                    .unwrap_or_else(|| Arc::new(RwLock::new(T::default())))
                    .read_arc(),
            ),
        })
    }
    fn write(&self) -> WriteGuard<'_, T> {
        WriteGuard(match self {
            Link::Strong(a) => Guard::Borrowed(a.write()),
            Link::Weak(w) => Guard::Owned(
                w.upgrade()
                    .unwrap_or_else(|| Arc::new(RwLock::new(T::default())))
                    .write_arc(),
            ),
        })
    }
}

enum Guard<B, O> {
    Borrowed(B),
    Owned(O),
}

/// Shared read access to the contents of an [`Array`] or a [`Struct`] (derefs to them).
pub struct ReadGuard<'a, T>(
    Guard<
        parking_lot::RwLockReadGuard<'a, T>,
        parking_lot::ArcRwLockReadGuard<parking_lot::RawRwLock, T>,
    >,
);

/// Exclusive write access to the contents of an [`Array`] or a [`Struct`] (derefs to them).
pub struct WriteGuard<'a, T>(
    Guard<
        parking_lot::RwLockWriteGuard<'a, T>,
        parking_lot::ArcRwLockWriteGuard<parking_lot::RawRwLock, T>,
    >,
);

impl<T> Deref for ReadGuard<'_, T> {
    type Target = T;
    #[inline]
    fn deref(&self) -> &T {
        match &self.0 {
            Guard::Borrowed(g) => g,
            Guard::Owned(g) => g,
        }
    }
}

impl<T> Deref for WriteGuard<'_, T> {
    type Target = T;
    #[inline]
    fn deref(&self) -> &T {
        match &self.0 {
            Guard::Borrowed(g) => g,
            Guard::Owned(g) => g,
        }
    }
}

impl<T> DerefMut for WriteGuard<'_, T> {
    #[inline]
    fn deref_mut(&mut self) -> &mut T {
        match &mut self.0 {
            Guard::Borrowed(g) => &mut *g,
            Guard::Owned(g) => &mut *g,
        }
    }
}

/// A shared, mutable reference to a GML array (see [the module docs](self) on strong and
/// weak handles).
#[derive(Clone)]
pub struct Array(Link<Vec<Value>>);

impl Default for Array {
    fn default() -> Self {
        Array::new(Vec::new())
    }
}

impl Array {
    /// A new array holding `items`.
    pub fn new(items: Vec<Value>) -> Self {
        Array(Link::new(items))
    }
    /// Number of elements.
    pub fn len(&self) -> usize {
        self.read().len()
    }
    /// Whether the array has no elements.
    pub fn is_empty(&self) -> bool {
        self.read().is_empty()
    }
    /// Element `i`; a container element comes back as a strong handle
    /// ([`Value::to_strong`]), so it stays alive as long as the caller keeps it.
    pub fn get(&self, i: usize) -> Option<Value> {
        self.read().get(i).map(Value::to_strong)
    }
    /// Appends an element.
    pub fn push(&self, v: Value) {
        self.write().push(v)
    }
    /// Shared read access to the elements (as stored: back-references stay weak).
    pub fn read(&self) -> ReadGuard<'_, Vec<Value>> {
        self.0.read()
    }
    /// Exclusive write access to the elements.
    pub fn write(&self) -> WriteGuard<'_, Vec<Value>> {
        self.0.write()
    }
    /// Whether two handles refer to the same array (GML identity), strong or weak.
    pub fn ptr_eq(&self, other: &Array) -> bool {
        std::ptr::eq(self.0.ptr(), other.0.ptr())
    }
    /// A stable identity for this array while it is alive (for reference tables).
    pub fn id(&self) -> usize {
        self.0.ptr() as *const () as usize
    }
    /// A weak handle to the same array: it does not keep the array alive. Store one to
    /// close a cycle (a child referring back to an ancestor) so that the graph can be freed.
    pub fn downgrade(&self) -> Array {
        Array(self.0.downgrade())
    }
    /// A strong handle to the same array, or `None` if this is a weak handle whose array has
    /// been freed.
    pub fn upgrade(&self) -> Option<Array> {
        self.0.upgrade().map(|a| Array(Link::Strong(a)))
    }
    /// Whether this handle is weak (a back-reference).
    pub fn is_weak(&self) -> bool {
        self.0.is_weak()
    }
    /// Whether the array is still alive (always true for a strong handle). A weak handle
    /// whose array was freed reads as an empty array.
    pub fn is_alive(&self) -> bool {
        self.0.is_alive()
    }
}

/// The contents of a struct.
#[derive(Clone, Default, Debug, PartialEq)]
pub struct StructData {
    /// The constructor name (`instanceof`) for structs made with `new`; `None` for plain structs.
    pub constructor: Option<String>,
    /// Members in order (data order when read; insertion order when built).
    pub fields: Vec<(String, Value)>,
    /// Format metadata recorded by a reader so that a writer can reproduce the same bytes
    /// (Elephant: schema version, verbose flag, skipped fields). Ignored by equality.
    pub meta: StructMeta,
}

/// Encoding details of a constructed struct, as read from (or to be written to) Elephant data.
#[derive(Clone, Default, Debug)]
pub struct StructMeta {
    /// Elephant schema version (0–127) the struct was written with.
    pub version: Option<u8>,
    /// Whether the struct was written in verbose form (names stored in the data).
    pub verbose: Option<bool>,
    /// Fields named in a diffs-only skip list.
    pub skipped: Vec<String>,
}

impl PartialEq for StructMeta {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl StructData {
    /// The value of member `name`.
    pub fn get(&self, name: &str) -> Option<&Value> {
        self.fields.iter().find(|(k, _)| k == name).map(|(_, v)| v)
    }
    /// Sets member `name`, replacing an existing one in place or appending a new one.
    pub fn set(&mut self, name: impl Into<String>, value: Value) {
        let name = name.into();
        match self.fields.iter_mut().find(|(k, _)| *k == name) {
            Some(slot) => slot.1 = value,
            None => self.fields.push((name, value)),
        }
    }
}

/// A shared, mutable reference to a GML struct (see [the module docs](self) on strong and
/// weak handles).
#[derive(Clone)]
pub struct Struct(Link<StructData>);

impl Default for Struct {
    fn default() -> Self {
        Struct::from_data(StructData::default())
    }
}

impl Struct {
    /// A new plain struct with these members.
    pub fn new(fields: Vec<(String, Value)>) -> Self {
        Struct::from_data(StructData {
            fields,
            ..Default::default()
        })
    }
    /// A new constructed struct (`new Constructor()`), with these members.
    pub fn constructed(constructor: impl Into<String>, fields: Vec<(String, Value)>) -> Self {
        Struct::from_data(StructData {
            constructor: Some(constructor.into()),
            fields,
            ..Default::default()
        })
    }
    /// Wraps struct contents in a new handle.
    pub fn from_data(data: StructData) -> Self {
        Struct(Link::new(data))
    }
    /// Member `name`; a container comes back as a strong handle ([`Value::to_strong`]).
    pub fn get(&self, name: &str) -> Option<Value> {
        self.read().get(name).map(Value::to_strong)
    }
    /// Sets member `name`.
    pub fn set(&self, name: impl Into<String>, value: Value) {
        self.write().set(name, value)
    }
    /// Shared read access (as stored: back-references stay weak).
    pub fn read(&self) -> ReadGuard<'_, StructData> {
        self.0.read()
    }
    /// Exclusive write access.
    pub fn write(&self) -> WriteGuard<'_, StructData> {
        self.0.write()
    }
    /// Whether two handles refer to the same struct (GML identity), strong or weak.
    pub fn ptr_eq(&self, other: &Struct) -> bool {
        std::ptr::eq(self.0.ptr(), other.0.ptr())
    }
    /// A stable identity for this struct while it is alive (for reference tables).
    pub fn id(&self) -> usize {
        self.0.ptr() as *const () as usize
    }
    /// A weak handle to the same struct: it does not keep the struct alive. Store one to close
    /// a cycle (a child referring back to an ancestor) so that the graph can be freed.
    pub fn downgrade(&self) -> Struct {
        Struct(self.0.downgrade())
    }
    /// A strong handle to the same struct, or `None` if this is a weak handle whose struct has
    /// been freed.
    pub fn upgrade(&self) -> Option<Struct> {
        self.0.upgrade().map(|a| Struct(Link::Strong(a)))
    }
    /// Whether this handle is weak (a back-reference).
    pub fn is_weak(&self) -> bool {
        self.0.is_weak()
    }
    /// Whether the struct is still alive (always true for a strong handle). A weak handle
    /// whose struct was freed reads as an empty plain struct.
    pub fn is_alive(&self) -> bool {
        self.0.is_alive()
    }
}

/// The containers a reader has created, for the references the data makes back to them.
///
/// A reference to a container that is still being filled (an ancestor of the value being read:
/// that is what closes a cycle) is handed out weak, any other reference strong, so that the
/// strong handles of the graph never form a cycle (see the module docs).
#[derive(Default)]
pub(crate) struct RefPool {
    entries: Vec<(Value, bool)>,
}

impl RefPool {
    /// Number of containers registered.
    pub fn len(&self) -> usize {
        self.entries.len()
    }
    /// Registers a container that is being filled; returns its index.
    pub fn open(&mut self, v: Value) -> usize {
        self.entries.push((v, false));
        self.entries.len() - 1
    }
    /// Marks container `i` as filled: references to it are strong from now on.
    pub fn finish(&mut self, i: usize) {
        if let Some(e) = self.entries.get_mut(i) {
            e.1 = true;
        }
    }
    /// A reference to container `i`: weak while it is being filled, strong after.
    pub fn get(&self, i: usize) -> Option<Value> {
        self.entries
            .get(i)
            .map(|(v, done)| if *done { v.clone() } else { v.downgrade() })
    }
}

/// Structural equality that terminates on cycles.
///
/// Two values are equal when they have the same shape and scalars; reals compare by bits so that
/// NaN equals the same NaN and `-0.0` differs from `0.0` (formats preserve bits). Shared
/// references compare structurally: a pair of containers already being compared is assumed equal
/// (bisimulation), which makes cyclic graphs comparable.
impl PartialEq for Value {
    fn eq(&self, other: &Self) -> bool {
        let mut seen = HashSet::new();
        eq_rec(self, other, &mut seen)
    }
}

fn eq_rec(a: &Value, b: &Value, seen: &mut HashSet<(usize, usize)>) -> bool {
    use Value::*;
    match (a, b) {
        (Undefined, Undefined) => true,
        (Bool(x), Bool(y)) => x == y,
        (Real(x), Real(y)) => x.to_bits() == y.to_bits(),
        (Int32(x), Int32(y)) => x == y,
        (Int64(x), Int64(y)) => x == y,
        (Ptr(x), Ptr(y)) => x == y,
        (String(x), String(y)) => x == y,
        (Array2d(x), Array2d(y)) => {
            x.len() == y.len()
                && x.iter().zip(y).all(|(r, s)| {
                    r.len() == s.len() && r.iter().zip(s).all(|(p, q)| eq_rec(p, q, seen))
                })
        }
        (Array(x), Array(y)) => {
            if x.ptr_eq(y) || !seen.insert((x.id(), y.id())) {
                return true;
            }
            let (xs, ys) = (x.read().clone(), y.read().clone());
            xs.len() == ys.len() && xs.iter().zip(&ys).all(|(p, q)| eq_rec(p, q, seen))
        }
        (Struct(x), Struct(y)) => {
            if x.ptr_eq(y) || !seen.insert((x.id(), y.id())) {
                return true;
            }
            let (xd, yd) = (x.read().clone(), y.read().clone());
            xd.constructor == yd.constructor
                && xd.fields.len() == yd.fields.len()
                && xd
                    .fields
                    .iter()
                    .zip(&yd.fields)
                    .all(|((kx, vx), (ky, vy))| kx == ky && eq_rec(vx, vy, seen))
        }
        _ => false,
    }
}

impl fmt::Debug for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut seen = Vec::new();
        debug_rec(self, f, &mut seen)
    }
}

fn debug_rec(v: &Value, f: &mut fmt::Formatter<'_>, stack: &mut Vec<usize>) -> fmt::Result {
    match v {
        Value::Undefined => f.write_str("undefined"),
        Value::Bool(b) => write!(f, "{b}"),
        Value::Real(r) => write!(f, "{r:?}"),
        Value::Int32(i) => write!(f, "{i}i32"),
        Value::Int64(i) => write!(f, "{i}i64"),
        Value::Ptr(p) => write!(f, "ptr(0x{p:x})"),
        Value::String(s) => write!(f, "{s:?}"),
        Value::Array2d(rows) => {
            f.write_str("array2d")?;
            let mut l = f.debug_list();
            for r in rows {
                l.entry(&RowDebug(r));
            }
            l.finish()
        }
        Value::Array(a) => {
            if stack.contains(&a.id()) {
                return f.write_str("[<cycle>]");
            }
            stack.push(a.id());
            let items = a.read().clone();
            f.write_str("[")?;
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    f.write_str(", ")?;
                }
                debug_rec(item, f, stack)?;
            }
            stack.pop();
            f.write_str("]")
        }
        Value::Struct(s) => {
            if stack.contains(&s.id()) {
                return f.write_str("{<cycle>}");
            }
            stack.push(s.id());
            let d = s.read().clone();
            if let Some(c) = &d.constructor {
                write!(f, "{c} ")?;
            }
            f.write_str("{")?;
            for (i, (k, item)) in d.fields.iter().enumerate() {
                if i > 0 {
                    f.write_str(", ")?;
                }
                write!(f, "{k}: ")?;
                debug_rec(item, f, stack)?;
            }
            stack.pop();
            f.write_str("}")
        }
    }
}

struct RowDebug<'a>(&'a [Value]);
impl fmt::Debug for RowDebug<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.0.iter()).finish()
    }
}

impl fmt::Debug for Array {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        Value::Array(self.clone()).fmt(f)
    }
}
impl fmt::Debug for Struct {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        Value::Struct(self.clone()).fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cyclic_values_compare_and_print() {
        let a = Struct::new(vec![]);
        a.set("self", Value::Struct(a.clone()));
        let b = Struct::new(vec![]);
        b.set("self", Value::Struct(b.clone()));
        assert_eq!(Value::Struct(a.clone()), Value::Struct(b));
        assert_eq!(format!("{a:?}"), "{self: {<cycle>}}");
        let c = Struct::new(vec![("self".into(), Value::Real(1.0))]);
        assert_ne!(Value::Struct(a), Value::Struct(c));
    }

    #[test]
    fn reals_compare_by_bits() {
        assert_eq!(Value::Real(f64::NAN), Value::Real(f64::NAN));
        assert_ne!(Value::Real(0.0), Value::Real(-0.0));
        assert_ne!(Value::Real(1.0), Value::Int32(1));
    }
}
