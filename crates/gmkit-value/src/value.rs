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
    /// Whether this is `undefined`.
    ///
    /// ```
    /// use gmkit_value::Value;
    /// assert!(Value::Undefined.is_undefined());
    /// assert!(!Value::Real(0.0).is_undefined());
    /// ```
    pub fn is_undefined(&self) -> bool {
        matches!(self, Value::Undefined)
    }
    /// The boolean, if this is a bool (GML's numbers are not converted: see [`Value::as_f64`]).
    ///
    /// ```
    /// use gmkit_value::Value;
    /// assert_eq!(Value::Bool(true).as_bool(), Some(true));
    /// assert_eq!(Value::Real(1.0).as_bool(), None);
    /// ```
    pub fn as_bool(&self) -> Option<bool> {
        match *self {
            Value::Bool(b) => Some(b),
            _ => None,
        }
    }
    /// The real, if this is a real (GML `number`); see [`Value::as_f64`] for any number.
    ///
    /// ```
    /// use gmkit_value::Value;
    /// assert_eq!(Value::Real(1.5).as_real(), Some(1.5));
    /// assert_eq!(Value::Int32(1).as_real(), None);
    /// ```
    pub fn as_real(&self) -> Option<f64> {
        match *self {
            Value::Real(r) => Some(r),
            _ => None,
        }
    }
    /// The integer, if this is an `int32`.
    ///
    /// ```
    /// use gmkit_value::Value;
    /// assert_eq!(Value::Int32(-7).as_i32(), Some(-7));
    /// assert_eq!(Value::Real(7.0).as_i32(), None);
    /// ```
    pub fn as_i32(&self) -> Option<i32> {
        match *self {
            Value::Int32(i) => Some(i),
            _ => None,
        }
    }
    /// The integer, if this is an `int64` or an `int32` (widened).
    ///
    /// ```
    /// use gmkit_value::Value;
    /// assert_eq!(Value::Int64(1 << 40).as_i64(), Some(1 << 40));
    /// assert_eq!(Value::Int32(3).as_i64(), Some(3));
    /// assert_eq!(Value::Real(3.0).as_i64(), None);
    /// ```
    pub fn as_i64(&self) -> Option<i64> {
        match *self {
            Value::Int64(i) => Some(i),
            Value::Int32(i) => Some(i.into()),
            _ => None,
        }
    }
    /// The raw bits, if this is a `ptr`.
    ///
    /// ```
    /// use gmkit_value::Value;
    /// assert_eq!(Value::Ptr(0x1234).as_ptr(), Some(0x1234));
    /// ```
    pub fn as_ptr(&self) -> Option<u64> {
        match *self {
            Value::Ptr(p) => Some(p),
            _ => None,
        }
    }
    /// The array handle, if this is an array.
    ///
    /// ```
    /// use gmkit_value::Value;
    /// let v = Value::from(vec![Value::Real(1.0)]);
    /// assert_eq!(v.as_array().map(|a| a.len()), Some(1));
    /// ```
    pub fn as_array(&self) -> Option<&Array> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }
    /// The rows, if this is a legacy two-dimensional array.
    ///
    /// ```
    /// use gmkit_value::Value;
    /// let v = Value::Array2d(vec![vec![Value::Real(1.0)], vec![]]);
    /// assert_eq!(v.as_array2d().map(|rows| rows.len()), Some(2));
    /// ```
    pub fn as_array2d(&self) -> Option<&[Vec<Value>]> {
        match self {
            Value::Array2d(rows) => Some(rows),
            _ => None,
        }
    }
    /// The struct handle, if this is a struct.
    ///
    /// ```
    /// use gmkit_value::{Struct, Value};
    /// let v = Value::from(Struct::new(vec![]));
    /// assert!(v.as_struct().is_some());
    /// assert!(Value::Undefined.as_struct().is_none());
    /// ```
    pub fn as_struct(&self) -> Option<&Struct> {
        match self {
            Value::Struct(s) => Some(s),
            _ => None,
        }
    }
    /// The string, if this is a string.
    ///
    /// ```
    /// use gmkit_value::Value;
    /// assert_eq!(Value::from("hi").as_str(), Some("hi"));
    /// ```
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }
    /// The value as a GML number, if it is one (real, int32, int64, bool).
    ///
    /// ```
    /// use gmkit_value::Value;
    /// assert_eq!(Value::Int32(2).as_f64(), Some(2.0));
    /// assert_eq!(Value::Bool(true).as_f64(), Some(1.0));
    /// assert_eq!(Value::from("2").as_f64(), None);
    /// ```
    pub fn as_f64(&self) -> Option<f64> {
        match *self {
            Value::Real(r) => Some(r),
            Value::Int32(i) => Some(i as f64),
            Value::Int64(i) => Some(i as f64),
            Value::Bool(b) => Some(b as u8 as f64),
            _ => None,
        }
    }

    /// Struct member `key` or array element `i` (a strong handle for a container, see
    /// [`Array::get`]); `None` if this is neither, or there is no such member or element.
    /// A row of a legacy 2-D array comes back as a new array holding a copy of the row.
    ///
    /// The contents of arrays and structs sit behind shared handles (they are GML references),
    /// so lookups return values (cheap: a container is a handle) rather than references, and
    /// there is no `v["key"]` operator; [`Value::at`] is its equivalent.
    ///
    /// ```
    /// use gmkit_value::{Struct, Value};
    /// let v = Value::from(Struct::new(vec![("items".into(), Value::from(vec![Value::from("key")]))]));
    /// assert_eq!(v.get("items").and_then(|i| i.get(0)), Some(Value::from("key")));
    /// assert_eq!(v.get("missing"), None);
    /// assert_eq!(v.get(0), None); // not an array
    /// ```
    pub fn get<I: ValueIndex>(&self, index: I) -> Option<Value> {
        index.get_in(self)
    }

    /// Like [`Value::get`], but `undefined` when there is no such member or element (like
    /// serde_json's `v["key"]`, which gives `null`), so that lookups chain.
    ///
    /// ```
    /// use gmkit_value::{Struct, Value};
    /// let save = Value::from(Struct::new(vec![(
    ///     "player".into(),
    ///     Value::from(Struct::new(vec![("inventory".into(), Value::from(vec![Value::from("sword")]))])),
    /// )]));
    /// assert_eq!(save.at("player").at("inventory").at(0).as_str(), Some("sword"));
    /// assert!(save.at("player").at("gold").at(3).is_undefined());
    /// ```
    pub fn at<I: ValueIndex>(&self, index: I) -> Value {
        self.get(index).unwrap_or_default()
    }

    /// Write access to struct member `key` or array element `i`, if present. The container
    /// stays locked while the returned guard lives (do not read the same container through
    /// another handle meanwhile: that would wait forever).
    ///
    /// ```
    /// use gmkit_value::{Struct, Value};
    /// let v = Value::from(Struct::new(vec![("hp".into(), Value::Real(3.0))]));
    /// *v.get_mut("hp").unwrap() = Value::Real(10.0);
    /// assert_eq!(v.at("hp"), Value::Real(10.0));
    /// assert!(v.get_mut("mp").is_none());
    /// ```
    pub fn get_mut<I: ValueIndex>(&self, index: I) -> Option<ValueMut<'_>> {
        index.get_mut_in(self)
    }

    /// The value a JSON Pointer (RFC 6901) names: `""` is this value, `"/a/0/b"` is member
    /// `b` of element 0 of member `a` (`~1` stands for `/` and `~0` for `~` in names).
    ///
    /// ```
    /// use gmkit_value::{Struct, Value};
    /// let v = Value::from(Struct::new(vec![(
    ///     "a".into(),
    ///     Value::from(vec![Value::from(Struct::new(vec![("b".into(), Value::Int32(7))]))]),
    /// )]));
    /// assert_eq!(v.pointer("/a/0/b"), Some(Value::Int32(7)));
    /// assert_eq!(v.pointer("/a/1/b"), None);
    /// assert_eq!(v.pointer("a"), None); // must start with '/'
    /// ```
    pub fn pointer(&self, pointer: &str) -> Option<Value> {
        if pointer.is_empty() {
            return Some(self.to_strong());
        }
        let rest = pointer.strip_prefix('/')?;
        let mut cur = self.to_strong();
        for token in rest.split('/') {
            let name = token.replace("~1", "/").replace("~0", "~");
            cur = match &cur {
                Value::Struct(s) => s.get(&name)?,
                Value::Array(_) | Value::Array2d(_) => {
                    let valid = name == "0" || (!name.starts_with('0') && !name.starts_with('+'));
                    cur.get(name.parse::<usize>().ok().filter(|_| valid)?)?
                }
                _ => return None,
            };
        }
        Some(cur)
    }

    /// The same value with a container handle made strong (a weak back-reference whose target
    /// is alive becomes a strong handle to it); scalars are cloned.
    ///
    /// ```
    /// use gmkit_value::{Array, Value};
    /// let a = Array::new(vec![]);
    /// let weak = Value::Array(a.downgrade());
    /// assert!(!weak.to_strong().as_array().unwrap().is_weak());
    /// ```
    pub fn to_strong(&self) -> Value {
        match self {
            Value::Array(a) => Value::Array(Array(a.0.strong())),
            Value::Struct(s) => Value::Struct(Struct(s.0.strong())),
            v => v.clone(),
        }
    }
    /// The same value with a container handle made weak (a back-reference); scalars are cloned.
    ///
    /// ```
    /// use gmkit_value::{Array, Value};
    /// let v = Value::from(Array::new(vec![]));
    /// assert!(v.downgrade().as_array().unwrap().is_weak());
    /// assert_eq!(Value::Real(1.0).downgrade(), Value::Real(1.0));
    /// ```
    pub fn downgrade(&self) -> Value {
        match self {
            Value::Array(a) => Value::Array(a.downgrade()),
            Value::Struct(s) => Value::Struct(s.downgrade()),
            v => v.clone(),
        }
    }
    /// GML's `typeof` name of this value.
    ///
    /// ```
    /// use gmkit_value::Value;
    /// assert_eq!(Value::Real(1.0).type_name(), "number");
    /// assert_eq!(Value::from("a").type_name(), "string");
    /// ```
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

/// What [`Value::get`], [`Value::at`] and [`Value::get_mut`] accept: a member name (`&str`,
/// `String`) or an element index (`usize`). Sealed.
pub trait ValueIndex: private::Sealed {
    #[doc(hidden)]
    fn get_in(&self, v: &Value) -> Option<Value>;
    #[doc(hidden)]
    fn get_mut_in<'a>(&self, v: &'a Value) -> Option<ValueMut<'a>>;
}

mod private {
    pub trait Sealed {}
    impl Sealed for usize {}
    impl Sealed for str {}
    impl Sealed for String {}
    impl<T: Sealed + ?Sized> Sealed for &T {}
}

impl ValueIndex for usize {
    fn get_in(&self, v: &Value) -> Option<Value> {
        match v {
            Value::Array(a) => a.get(*self),
            Value::Array2d(rows) => rows.get(*self).map(|r| Value::from(r.clone())),
            _ => None,
        }
    }
    fn get_mut_in<'a>(&self, v: &'a Value) -> Option<ValueMut<'a>> {
        match v {
            Value::Array(a) => {
                let guard = a.write();
                (*self < guard.len()).then(|| ValueMut(MutInner::Element(guard, *self)))
            }
            _ => None,
        }
    }
}

impl ValueIndex for str {
    fn get_in(&self, v: &Value) -> Option<Value> {
        v.as_struct()?.get(self)
    }
    fn get_mut_in<'a>(&self, v: &'a Value) -> Option<ValueMut<'a>> {
        let guard = v.as_struct()?.write();
        let i = guard.fields.iter().position(|(k, _)| k == self)?;
        Some(ValueMut(MutInner::Field(guard, i)))
    }
}

impl ValueIndex for String {
    fn get_in(&self, v: &Value) -> Option<Value> {
        self.as_str().get_in(v)
    }
    fn get_mut_in<'a>(&self, v: &'a Value) -> Option<ValueMut<'a>> {
        self.as_str().get_mut_in(v)
    }
}

impl<T: ValueIndex + ?Sized> ValueIndex for &T {
    fn get_in(&self, v: &Value) -> Option<Value> {
        (**self).get_in(v)
    }
    fn get_mut_in<'a>(&self, v: &'a Value) -> Option<ValueMut<'a>> {
        (**self).get_mut_in(v)
    }
}

/// Write access to one element or member, from [`Value::get_mut`] (derefs to the [`Value`]);
/// its container stays locked while this lives.
pub struct ValueMut<'a>(MutInner<'a>);

enum MutInner<'a> {
    Element(WriteGuard<'a, Vec<Value>>, usize),
    Field(WriteGuard<'a, StructData>, usize),
}

impl Deref for ValueMut<'_> {
    type Target = Value;
    fn deref(&self) -> &Value {
        // The index was checked when the guard was taken, and the guard is exclusive.
        match &self.0 {
            MutInner::Element(g, i) => &g[*i],
            MutInner::Field(g, i) => &g.fields[*i].1,
        }
    }
}

impl DerefMut for ValueMut<'_> {
    fn deref_mut(&mut self) -> &mut Value {
        match &mut self.0 {
            MutInner::Element(g, i) => &mut g[*i],
            MutInner::Field(g, i) => &mut g.fields[*i].1,
        }
    }
}

impl fmt::Debug for ValueMut<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        (**self).fmt(f)
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
    ///
    /// ```
    /// use gmkit_value::{Array, Value};
    /// let a = Array::new(vec![Value::Real(1.0)]);
    /// assert_eq!(a.len(), 1);
    /// ```
    pub fn new(items: Vec<Value>) -> Self {
        Array(Link::new(items))
    }
    /// Number of elements.
    ///
    /// ```
    /// use gmkit_value::{Array, Value};
    /// assert_eq!(Array::new(vec![Value::Undefined; 3]).len(), 3);
    /// ```
    pub fn len(&self) -> usize {
        self.read().len()
    }
    /// Whether the array has no elements.
    ///
    /// ```
    /// use gmkit_value::Array;
    /// assert!(Array::default().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.read().is_empty()
    }
    /// Element `i`; a container element comes back as a strong handle
    /// ([`Value::to_strong`]), so it stays alive as long as the caller keeps it.
    ///
    /// ```
    /// use gmkit_value::{Array, Value};
    /// let a = Array::new(vec![Value::from("x")]);
    /// assert_eq!(a.get(0), Some(Value::from("x")));
    /// assert_eq!(a.get(1), None);
    /// ```
    pub fn get(&self, i: usize) -> Option<Value> {
        self.read().get(i).map(Value::to_strong)
    }
    /// Appends an element.
    ///
    /// ```
    /// use gmkit_value::{Array, Value};
    /// let a = Array::default();
    /// a.push(Value::Bool(true));
    /// assert_eq!(a.get(0), Some(Value::Bool(true)));
    /// ```
    pub fn push(&self, v: Value) {
        self.write().push(v)
    }
    /// Shared read access to the elements (as stored: back-references stay weak).
    ///
    /// ```
    /// use gmkit_value::{Array, Value};
    /// let a = Array::new(vec![Value::Real(1.0), Value::Real(2.0)]);
    /// let sum: f64 = a.read().iter().filter_map(Value::as_f64).sum();
    /// assert_eq!(sum, 3.0);
    /// ```
    pub fn read(&self) -> ReadGuard<'_, Vec<Value>> {
        self.0.read()
    }
    /// Exclusive write access to the elements.
    ///
    /// ```
    /// use gmkit_value::{Array, Value};
    /// let a = Array::new(vec![Value::Real(1.0)]);
    /// a.write()[0] = Value::Real(5.0);
    /// a.write().insert(0, Value::Undefined);
    /// assert_eq!(a.get(1), Some(Value::Real(5.0)));
    /// ```
    pub fn write(&self) -> WriteGuard<'_, Vec<Value>> {
        self.0.write()
    }
    /// Whether two handles refer to the same array (GML identity), strong or weak.
    ///
    /// ```
    /// use gmkit_value::Array;
    /// let a = Array::default();
    /// assert!(a.ptr_eq(&a.clone()) && a.ptr_eq(&a.downgrade()));
    /// assert!(!a.ptr_eq(&Array::default()));
    /// ```
    pub fn ptr_eq(&self, other: &Array) -> bool {
        std::ptr::eq(self.0.ptr(), other.0.ptr())
    }
    /// A stable identity for this array while it is alive (for reference tables).
    ///
    /// ```
    /// use gmkit_value::Array;
    /// let a = Array::default();
    /// assert_eq!(a.id(), a.clone().id());
    /// ```
    pub fn id(&self) -> usize {
        self.0.ptr() as *const () as usize
    }
    /// A weak handle to the same array: it does not keep the array alive. Store one to
    /// close a cycle (a child referring back to an ancestor) so that the graph can be freed.
    ///
    /// ```
    /// use gmkit_value::Array;
    /// let a = Array::default();
    /// let w = a.downgrade();
    /// assert!(w.is_weak() && w.is_alive());
    /// drop(a);
    /// assert!(!w.is_alive());
    /// ```
    pub fn downgrade(&self) -> Array {
        Array(self.0.downgrade())
    }
    /// A strong handle to the same array, or `None` if this is a weak handle whose array has
    /// been freed.
    ///
    /// ```
    /// use gmkit_value::Array;
    /// let a = Array::default();
    /// let w = a.downgrade();
    /// assert!(w.upgrade().is_some());
    /// drop(a);
    /// assert!(w.upgrade().is_none());
    /// ```
    pub fn upgrade(&self) -> Option<Array> {
        self.0.upgrade().map(|a| Array(Link::Strong(a)))
    }
    /// Whether this handle is weak (a back-reference).
    ///
    /// ```
    /// use gmkit_value::Array;
    /// let a = Array::default();
    /// assert!(!a.is_weak() && a.downgrade().is_weak());
    /// ```
    pub fn is_weak(&self) -> bool {
        self.0.is_weak()
    }
    /// Whether the array is still alive (always true for a strong handle). A weak handle
    /// whose array was freed reads as an empty array.
    ///
    /// ```
    /// use gmkit_value::Array;
    /// let w = Array::default().downgrade(); // the only strong handle is gone
    /// assert!(!w.is_alive());
    /// assert_eq!(w.len(), 0); // reads as an empty array
    /// ```
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
    ///
    /// ```
    /// use gmkit_value::{StructData, Value};
    /// let d = StructData { fields: vec![("a".into(), Value::Real(1.0))], ..Default::default() };
    /// assert_eq!(d.get("a"), Some(&Value::Real(1.0)));
    /// ```
    pub fn get(&self, name: &str) -> Option<&Value> {
        self.fields.iter().find(|(k, _)| k == name).map(|(_, v)| v)
    }
    /// Sets member `name`, replacing an existing one in place or appending a new one.
    ///
    /// ```
    /// use gmkit_value::{StructData, Value};
    /// let mut d = StructData::default();
    /// d.set("a", Value::Real(1.0));
    /// d.set("a", Value::Real(2.0));
    /// assert_eq!(d.fields, [("a".to_string(), Value::Real(2.0))]);
    /// ```
    pub fn set(&mut self, name: impl Into<String>, value: Value) {
        self.insert(name, value);
    }
    /// Sets member `name` (in place, or appended if new); returns the previous value.
    ///
    /// ```
    /// use gmkit_value::{StructData, Value};
    /// let mut d = StructData::default();
    /// assert_eq!(d.insert("hp", Value::Real(1.0)), None);
    /// assert_eq!(d.insert("hp", Value::Real(2.0)), Some(Value::Real(1.0)));
    /// ```
    pub fn insert(&mut self, name: impl Into<String>, value: Value) -> Option<Value> {
        let name = name.into();
        match self.fields.iter_mut().find(|(k, _)| *k == name) {
            Some(slot) => Some(std::mem::replace(&mut slot.1, value)),
            None => {
                self.fields.push((name, value));
                None
            }
        }
    }
    /// Removes member `name` (the others keep their order); returns its value.
    ///
    /// ```
    /// use gmkit_value::{StructData, Value};
    /// let mut d = StructData::default();
    /// d.insert("hp", Value::Real(1.0));
    /// assert_eq!(d.remove("hp"), Some(Value::Real(1.0)));
    /// assert_eq!(d.remove("hp"), None);
    /// ```
    pub fn remove(&mut self, name: &str) -> Option<Value> {
        let i = self.fields.iter().position(|(k, _)| k == name)?;
        Some(self.fields.remove(i).1)
    }
}

/// `data["name"]`: the member, or `undefined` if there is none (like serde_json).
///
/// ```
/// use gmkit_value::{Struct, Value};
/// let s = Struct::new(vec![("hp".into(), Value::Real(3.0))]);
/// assert_eq!(s.read()["hp"], Value::Real(3.0));
/// assert!(s.read()["mp"].is_undefined());
/// ```
impl std::ops::Index<&str> for StructData {
    type Output = Value;
    fn index(&self, name: &str) -> &Value {
        static UNDEFINED: Value = Value::Undefined;
        self.get(name).unwrap_or(&UNDEFINED)
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
    ///
    /// ```
    /// use gmkit_value::{Struct, Value};
    /// let s = Struct::new(vec![("hp".into(), Value::Real(3.0))]);
    /// assert_eq!(s.constructor(), None);
    /// ```
    pub fn new(fields: Vec<(String, Value)>) -> Self {
        Struct::from_data(StructData {
            fields,
            ..Default::default()
        })
    }
    /// A new constructed struct (`new Constructor()`), with these members.
    ///
    /// ```
    /// use gmkit_value::Struct;
    /// let s = Struct::constructed("Vec2", vec![]);
    /// assert_eq!(s.constructor().as_deref(), Some("Vec2"));
    /// ```
    pub fn constructed(constructor: impl Into<String>, fields: Vec<(String, Value)>) -> Self {
        Struct::from_data(StructData {
            constructor: Some(constructor.into()),
            fields,
            ..Default::default()
        })
    }
    /// Wraps struct contents in a new handle.
    ///
    /// ```
    /// use gmkit_value::{Struct, StructData};
    /// let s = Struct::from_data(StructData { constructor: Some("P".into()), ..Default::default() });
    /// assert_eq!(s.constructor().as_deref(), Some("P"));
    /// ```
    pub fn from_data(data: StructData) -> Self {
        Struct(Link::new(data))
    }
    /// Member `name`; a container comes back as a strong handle ([`Value::to_strong`]).
    ///
    /// ```
    /// use gmkit_value::{Struct, Value};
    /// let s = Struct::new(vec![("hp".into(), Value::Real(3.0))]);
    /// assert_eq!(s.get("hp"), Some(Value::Real(3.0)));
    /// assert_eq!(s.get("mp"), None);
    /// ```
    pub fn get(&self, name: &str) -> Option<Value> {
        self.read().get(name).map(Value::to_strong)
    }
    /// Sets member `name`.
    ///
    /// ```
    /// use gmkit_value::{Struct, Value};
    /// let s = Struct::default();
    /// s.set("hp", Value::Real(1.0));
    /// assert_eq!(s.get("hp"), Some(Value::Real(1.0)));
    /// ```
    pub fn set(&self, name: impl Into<String>, value: Value) {
        self.write().set(name, value)
    }
    /// Sets member `name` (in place, or appended if new); returns the previous value.
    ///
    /// ```
    /// use gmkit_value::{Struct, Value};
    /// let s = Struct::new(vec![]);
    /// assert_eq!(s.insert("hp", Value::Real(1.0)), None);
    /// assert_eq!(s.insert("hp", Value::Real(2.0)), Some(Value::Real(1.0)));
    /// ```
    pub fn insert(&self, name: impl Into<String>, value: Value) -> Option<Value> {
        self.write().insert(name, value)
    }
    /// Removes member `name`; returns its value.
    ///
    /// ```
    /// use gmkit_value::{Struct, Value};
    /// let s = Struct::new(vec![("hp".into(), Value::Real(1.0))]);
    /// assert_eq!(s.remove("hp"), Some(Value::Real(1.0)));
    /// assert!(s.is_empty());
    /// ```
    pub fn remove(&self, name: &str) -> Option<Value> {
        self.write().remove(name)
    }
    /// Whether member `name` exists.
    ///
    /// ```
    /// use gmkit_value::{Struct, Value};
    /// let s = Struct::new(vec![("hp".into(), Value::Real(1.0))]);
    /// assert!(s.contains_key("hp") && !s.contains_key("mp"));
    /// ```
    pub fn contains_key(&self, name: &str) -> bool {
        self.read().get(name).is_some()
    }
    /// The member names, in order.
    ///
    /// ```
    /// use gmkit_value::{Struct, Value};
    /// let s = Struct::new(vec![("a".into(), Value::Undefined), ("b".into(), Value::Undefined)]);
    /// assert_eq!(s.keys(), ["a", "b"]);
    /// ```
    pub fn keys(&self) -> Vec<String> {
        self.read().fields.iter().map(|(k, _)| k.clone()).collect()
    }
    /// Number of members.
    ///
    /// ```
    /// use gmkit_value::Struct;
    /// assert_eq!(Struct::new(vec![]).len(), 0);
    /// ```
    pub fn len(&self) -> usize {
        self.read().fields.len()
    }
    /// Whether the struct has no members.
    ///
    /// ```
    /// use gmkit_value::Struct;
    /// assert!(Struct::default().is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.read().fields.is_empty()
    }
    /// The constructor name (`instanceof`) of a constructed struct; `None` for a plain one.
    ///
    /// ```
    /// use gmkit_value::Struct;
    /// assert_eq!(Struct::constructed("Vec2", vec![]).constructor().as_deref(), Some("Vec2"));
    /// assert_eq!(Struct::new(vec![]).constructor(), None);
    /// ```
    pub fn constructor(&self) -> Option<String> {
        self.read().constructor.clone()
    }
    /// Shared read access (as stored: back-references stay weak).
    ///
    /// ```
    /// use gmkit_value::{Struct, Value};
    /// let s = Struct::new(vec![("a".into(), Value::Real(1.0))]);
    /// assert_eq!(s.read().fields.len(), 1);
    /// ```
    pub fn read(&self) -> ReadGuard<'_, StructData> {
        self.0.read()
    }
    /// Exclusive write access.
    ///
    /// ```
    /// use gmkit_value::{Struct, Value};
    /// let s = Struct::new(vec![("a".into(), Value::Real(1.0))]);
    /// s.write().fields.reverse();
    /// s.write().constructor = Some("Made".into());
    /// assert_eq!(s.constructor().as_deref(), Some("Made"));
    /// ```
    pub fn write(&self) -> WriteGuard<'_, StructData> {
        self.0.write()
    }
    /// Whether two handles refer to the same struct (GML identity), strong or weak.
    ///
    /// ```
    /// use gmkit_value::Struct;
    /// let s = Struct::default();
    /// assert!(s.ptr_eq(&s.downgrade()) && !s.ptr_eq(&Struct::default()));
    /// ```
    pub fn ptr_eq(&self, other: &Struct) -> bool {
        std::ptr::eq(self.0.ptr(), other.0.ptr())
    }
    /// A stable identity for this struct while it is alive (for reference tables).
    ///
    /// ```
    /// use gmkit_value::Struct;
    /// let s = Struct::default();
    /// assert_eq!(s.id(), s.downgrade().id());
    /// ```
    pub fn id(&self) -> usize {
        self.0.ptr() as *const () as usize
    }
    /// A weak handle to the same struct: it does not keep the struct alive. Store one to close
    /// a cycle (a child referring back to an ancestor) so that the graph can be freed.
    ///
    /// ```
    /// use gmkit_value::Struct;
    /// let s = Struct::default();
    /// let w = s.downgrade();
    /// drop(s);
    /// assert!(!w.is_alive());
    /// ```
    pub fn downgrade(&self) -> Struct {
        Struct(self.0.downgrade())
    }
    /// A strong handle to the same struct, or `None` if this is a weak handle whose struct has
    /// been freed.
    ///
    /// ```
    /// use gmkit_value::Struct;
    /// let s = Struct::default();
    /// assert!(s.downgrade().upgrade().is_some_and(|u| u.ptr_eq(&s)));
    /// ```
    pub fn upgrade(&self) -> Option<Struct> {
        self.0.upgrade().map(|a| Struct(Link::Strong(a)))
    }
    /// Whether this handle is weak (a back-reference).
    ///
    /// ```
    /// use gmkit_value::Struct;
    /// assert!(Struct::default().downgrade().is_weak());
    /// ```
    pub fn is_weak(&self) -> bool {
        self.0.is_weak()
    }
    /// Whether the struct is still alive (always true for a strong handle). A weak handle
    /// whose struct was freed reads as an empty plain struct.
    ///
    /// ```
    /// use gmkit_value::Struct;
    /// assert!(Struct::default().is_alive());
    /// let w = Struct::default().downgrade(); // the only strong handle is gone
    /// assert!(!w.is_alive());
    /// ```
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
        write_rec(self, f, &mut Vec::new(), Style::Debug)
    }
}

/// How [`write_rec`] renders a value: Rust's debug form (`1.0`, `3i32`, `"s"`, `array2d[..]`,
/// `[<cycle>]`) or the JSON-like [`fmt::Display`] form (`1`, `3`, JSON-quoted strings and keys,
/// `<cycle>`).
#[derive(Clone, Copy, PartialEq)]
enum Style {
    Debug,
    Display,
}

/// Writes `v`; `stack` holds the ids of the containers being written, so that a reference back
/// to one is written as a cycle instead of recursing forever.
fn write_rec(
    v: &Value,
    f: &mut fmt::Formatter<'_>,
    stack: &mut Vec<usize>,
    style: Style,
) -> fmt::Result {
    let debug = style == Style::Debug;
    let list = |f: &mut fmt::Formatter<'_>, stack: &mut Vec<usize>, items: &[Value]| {
        f.write_str("[")?;
        for (i, item) in items.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write_rec(item, f, stack, style)?;
        }
        f.write_str("]")
    };
    let text = |f: &mut fmt::Formatter<'_>, s: &str| {
        if debug {
            write!(f, "{s:?}")
        } else {
            display_str(s, f)
        }
    };
    match v {
        Value::Undefined => f.write_str("undefined"),
        Value::Bool(b) => write!(f, "{b}"),
        Value::Real(r) if debug => write!(f, "{r:?}"),
        Value::Real(r) => write!(f, "{r}"),
        Value::Int32(i) if debug => write!(f, "{i}i32"),
        Value::Int64(i) if debug => write!(f, "{i}i64"),
        Value::Int32(i) => write!(f, "{i}"),
        Value::Int64(i) => write!(f, "{i}"),
        Value::Ptr(p) => write!(f, "ptr(0x{p:x})"),
        Value::String(s) => text(f, s),
        Value::Array2d(rows) => {
            if debug {
                f.write_str("array2d")?;
            }
            f.write_str("[")?;
            for (i, r) in rows.iter().enumerate() {
                if i > 0 {
                    f.write_str(", ")?;
                }
                list(f, stack, r)?;
            }
            f.write_str("]")
        }
        Value::Array(a) => {
            if stack.contains(&a.id()) {
                return f.write_str(if debug { "[<cycle>]" } else { "<cycle>" });
            }
            stack.push(a.id());
            let items = a.read().clone();
            list(f, stack, &items)?;
            stack.pop();
            Ok(())
        }
        Value::Struct(s) => {
            if stack.contains(&s.id()) {
                return f.write_str(if debug { "{<cycle>}" } else { "<cycle>" });
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
                if debug {
                    write!(f, "{k}")?;
                } else {
                    display_str(k, f)?;
                }
                f.write_str(": ")?;
                write_rec(item, f, stack, style)?;
            }
            stack.pop();
            f.write_str("}")
        }
    }
}

/// A readable, JSON-like rendering: strings quoted and escaped as in JSON, numbers as Rust
/// prints them (`1`, `1.5`, `NaN`, `inf`), `undefined`, `ptr(0x..)`, arrays `[a, b]`, structs
/// `{"a": 1}` (a constructed struct prefixed with its constructor name), a reference back to an
/// enclosing container as `<cycle>`.
///
/// ```
/// use gmkit_value::{Struct, Value};
/// let v = Value::from(Struct::constructed("Vec2", vec![
///     ("x".into(), Value::Real(1.0)),
///     ("tag".into(), Value::from("a\"b")),
///     ("n".into(), Value::Int32(-3)),
///     ("l".into(), Value::from(vec![Value::Undefined, Value::Bool(true)])),
/// ]));
/// assert_eq!(v.to_string(), r#"Vec2 {"x": 1, "tag": "a\"b", "n": -3, "l": [undefined, true]}"#);
/// ```
impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_rec(self, f, &mut Vec::new(), Style::Display)
    }
}

fn display_str(s: &str, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    match serde_json::to_string(s) {
        Ok(q) => f.write_str(&q),
        Err(_) => write!(f, "{s:?}"),
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
