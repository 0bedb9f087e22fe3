//! Asset references by name in the serde form (cargo feature `serde`).
//!
//! While a [`NameScope`] is active on the thread ([`NameScope::enter`]), an [`AssetRef`] is
//! written as the name of the asset it points to (`"sprite": "spr_player"`), `null` for none,
//! and `{"index": 12}` when the index has no name that names it alone (a duplicate name, a
//! null slot, an index past the table, a kind whose table the scope does not hold). A value a
//! real file holds that is neither "none" nor an index is `{"stored": -5}`. Reading accepts
//! each of these forms and a plain integer (a non-negative one is an index, a negative one a
//! stored value: folders of format 1 wrote references so). A name the scope does not hold is
//! an error that says which kind was expected and the nearest name.
//!
//! Outside a scope (a library user serializing a model) a reference is its index, `null` for
//! none, or `{"stored": v}`.

use crate::chunks::DataFile;
use crate::refs::{AssetRef, Id, Target};
use crate::walk::{AssetKind, KINDS};
use serde::de::{self, Deserializer, MapAccess, Visitor};
use serde::ser::{SerializeMap, Serializer};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::cell::RefCell;
use std::collections::HashMap;
use std::fmt;
use std::sync::Arc;

/// The names of one kind's entries.
#[derive(Debug, Default)]
struct Table {
    /// Whether the scope holds this kind's table.
    present: bool,
    /// Name of each entry (`None`: a null slot or an entry without a usable name).
    names: Vec<Option<String>>,
    /// Name → index, for names that occur once; `u32::MAX` for a duplicate.
    by_name: HashMap<String, u32>,
}

/// The asset names a thread resolves [`AssetRef`]s against while (de)serializing: one table
/// of names per [`AssetKind`] (sprites, objects, rooms, code entries, ...).
///
/// Build one per data file ([`NameScope::of_file`], or [`NameScope::with`] from names read
/// elsewhere, e.g. a folder's files), then [`NameScope::enter`] it on every thread that
/// serializes or deserializes parts of that file.
#[derive(Debug)]
pub struct NameScope {
    tables: Vec<Table>,
}

thread_local! {
    static NAMES: RefCell<Option<Arc<NameScope>>> = const { RefCell::new(None) };
}

impl Default for NameScope {
    fn default() -> Self {
        NameScope {
            tables: (0..KINDS).map(|_| Table::default()).collect(),
        }
    }
}

impl NameScope {
    /// A scope with no tables: every reference takes the `{"index": n}` form.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds (or replaces) the table of `kind`: the name of each entry, `None` for a null slot.
    pub fn with(mut self, kind: AssetKind, names: Vec<Option<String>>) -> Self {
        let mut by_name = HashMap::with_capacity(names.len());
        for (i, n) in names.iter().enumerate() {
            if let Some(n) = n {
                by_name
                    .entry(n.clone())
                    .and_modify(|v| *v = u32::MAX)
                    .or_insert(i as u32);
            }
        }
        self.tables[kind as usize] = Table {
            present: true,
            names,
            by_name,
        };
        self
    }

    /// The names of every named table of `file` (assets and code entries); a name that is not
    /// UTF-8 or not in the string table counts as no name.
    ///
    /// ```
    /// use gmkit_data::{AssetKind, chunks::path::Path, serde_support::NameScope};
    /// let mut data = gmkit_data::sample();
    /// data.paths.get_or_insert_with(Default::default);
    /// let name = data.intern("path_a");
    /// data.add_asset(Path { name, ..Default::default() }).unwrap();
    /// let scope = NameScope::of_file(&data);
    /// assert_eq!(scope.index_of(AssetKind::Path, "path_a"), Ok(0));
    /// assert_eq!(scope.unique_name(AssetKind::Path, 0), Some("path_a"));
    /// let e = scope.index_of(AssetKind::Path, "path_b").unwrap_err();
    /// assert!(e.contains("did you mean \"path_a\""), "{e}");
    /// ```
    pub fn of_file(file: &DataFile) -> Self {
        let mut scope = Self::new();
        for kind in AssetKind::ALL {
            let Some(names) = crate::tables::names(file, kind) else {
                continue;
            };
            let names = names
                .into_iter()
                .map(|n| {
                    let s = file.strings.as_ref()?.get(n?)?;
                    s.to_str().ok().map(str::to_owned)
                })
                .collect();
            scope = scope.with(kind, names);
        }
        scope
    }

    /// Runs `f` with this scope active on the current thread (the previous one is restored).
    pub fn enter<R>(self: &Arc<Self>, f: impl FnOnce() -> R) -> R {
        let prev = NAMES.with(|s| s.replace(Some(self.clone())));
        struct Restore(Option<Arc<NameScope>>);
        impl Drop for Restore {
            fn drop(&mut self) {
                let prev = self.0.take();
                NAMES.with(|s| *s.borrow_mut() = prev);
            }
        }
        let _restore = Restore(prev);
        f()
    }

    /// The name that names entry `index` of `kind` alone, if any.
    pub fn unique_name(&self, kind: AssetKind, index: u32) -> Option<&str> {
        let t = &self.tables[kind as usize];
        let name = t.names.get(index as usize)?.as_deref()?;
        (t.by_name.get(name) == Some(&index)).then_some(name)
    }

    /// The index of the one entry of `kind` named `name` (`None`: no entry, or several, have
    /// that name; see [`NameScope::index_of`] for the reason).
    pub fn lookup(&self, kind: AssetKind, name: &str) -> Option<u32> {
        self.tables[kind as usize]
            .by_name
            .get(name)
            .copied()
            .filter(|&i| i != u32::MAX)
    }

    /// The index `name` names among `kind`'s entries, or why it names none (a message saying
    /// what was expected, with the nearest name or the indices of a duplicate).
    pub fn index_of(&self, kind: AssetKind, name: &str) -> Result<u32, String> {
        let t = &self.tables[kind as usize];
        let what = kind.name();
        let a = if what.starts_with(['a', 'e', 'i', 'o', 'u']) {
            "an"
        } else {
            "a"
        };
        if !t.present {
            return Err(format!(
                "expected {{\"index\": N}} for {a} {what} (the game has no {} table to name it in), found the name {name:?}",
                kind.chunk()
            ));
        }
        match t.by_name.get(name) {
            Some(&u32::MAX) => {
                let all: Vec<String> = t
                    .names
                    .iter()
                    .enumerate()
                    .filter(|(_, n)| n.as_deref() == Some(name))
                    .take(8)
                    .map(|(i, _)| i.to_string())
                    .collect();
                Err(format!(
                    "expected a name that one {what} has, found {name:?}, which several have: write {{\"index\": N}} with N one of {}",
                    all.join(", ")
                ))
            }
            Some(&i) => Ok(i),
            None => {
                let hint = nearest(name, t.names.iter().flatten().map(String::as_str))
                    .map(|n| format!("; did you mean {n:?}?"))
                    .unwrap_or_default();
                Err(format!(
                    "expected the name of {a} {what}, found {name:?} (no {what} has this name{hint})"
                ))
            }
        }
    }
}

/// The name nearest to `name` (edit distance at most a third of its length, at least 2).
fn nearest<'a>(name: &str, names: impl Iterator<Item = &'a str>) -> Option<&'a str> {
    let a: Vec<char> = name.chars().take(128).collect();
    let limit = (a.len() / 3).max(2);
    let mut best: Option<(usize, &str)> = None;
    for n in names {
        let b: Vec<char> = n.chars().take(128).collect();
        if a.len().abs_diff(b.len()) > limit {
            continue;
        }
        let d = distance(&a, &b);
        if d <= limit && best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, n));
        }
    }
    best.map(|b| b.1)
}

/// Levenshtein distance.
fn distance(a: &[char], b: &[char]) -> usize {
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for (i, ca) in a.iter().enumerate() {
        cur[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != cb);
            cur[j + 1] = sub.min(prev[j + 1] + 1).min(cur[j] + 1);
        }
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

fn current() -> Option<Arc<NameScope>> {
    NAMES.with(|s| s.borrow().clone())
}

fn one_entry<S: Serializer, V: Serialize>(s: S, key: &str, v: V) -> Result<S::Ok, S::Error> {
    let mut m = s.serialize_map(Some(1))?;
    m.serialize_entry(key, &v)?;
    m.end()
}

impl<T: Target> Serialize for AssetRef<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        if let Some(v) = self.kept() {
            return one_entry(s, "stored", v);
        }
        match self.id() {
            Some(i) => serialize_index::<T, S>(i.0, s),
            None => s.serialize_none(),
        }
    }
}

impl<'de, T: Target> Deserialize<'de> for AssetRef<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V<T>(std::marker::PhantomData<T>);
        impl<'de, T: Target> Visitor<'de> for V<T> {
            type Value = AssetRef<T>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                write!(
                    f,
                    "the name of a {}, null, {{\"index\": N}} or {{\"stored\": N}}",
                    T::KIND.name()
                )
            }
            fn visit_unit<E: de::Error>(self) -> Result<AssetRef<T>, E> {
                Ok(AssetRef::NONE)
            }
            fn visit_none<E: de::Error>(self) -> Result<AssetRef<T>, E> {
                Ok(AssetRef::NONE)
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<AssetRef<T>, E> {
                u32::try_from(v).map(AssetRef::at).map_err(|_| {
                    E::custom(format!(
                        "expected a {} index below 2^32, found {v}",
                        T::KIND.name()
                    ))
                })
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<AssetRef<T>, E> {
                if v >= 0 {
                    return self.visit_u64(v as u64);
                }
                i32::try_from(v)
                    .map(AssetRef::stored)
                    .map_err(|_| E::custom(format!("expected a 32-bit stored value, found {v}")))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<AssetRef<T>, E> {
                match current() {
                    Some(scope) => scope
                        .index_of(T::KIND, v)
                        .map(AssetRef::at)
                        .map_err(E::custom),
                    None => Err(E::custom(format!(
                        "expected a {} index, found the name {v:?} (names are read inside a names scope)",
                        T::KIND.name()
                    ))),
                }
            }
            fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<AssetRef<T>, A::Error> {
                let mut out = None;
                while let Some(k) = m.next_key::<Cow<'de, str>>()? {
                    match &*k {
                        "index" => out = Some(AssetRef::at(m.next_value::<u32>()?)),
                        "stored" => out = Some(AssetRef::stored(m.next_value::<i32>()?)),
                        other => {
                            return Err(de::Error::unknown_field(other, &["index", "stored"]));
                        }
                    }
                }
                out.ok_or_else(|| de::Error::missing_field("index"))
            }
        }
        d.deserialize_any(V(std::marker::PhantomData))
    }
}

/// Whether `kind`'s entries are not named by the folder (texture pages and their items have no
/// names: their index is their name; variables and functions are named by the code that uses
/// them): written as a plain number.
fn unnamed(kind: AssetKind) -> bool {
    matches!(
        kind,
        AssetKind::TexturePage
            | AssetKind::TexturePageItem
            | AssetKind::Variable
            | AssetKind::Function
            | AssetKind::String
            | AssetKind::Audio
    )
}

/// An index of `T`'s table as written: its unique name inside a scope, else `{"index": n}`
/// (a plain number for unnamed kinds and outside a scope).
fn serialize_index<T: Target, S: Serializer>(i: u32, s: S) -> Result<S::Ok, S::Error> {
    match current() {
        Some(scope) if !unnamed(T::KIND) => match scope.unique_name(T::KIND, i) {
            Some(name) => s.serialize_str(name),
            None => one_entry(s, "index", i),
        },
        _ => s.serialize_u32(i),
    }
}

/// An [`Id`] (an entry of a membership list: a texture group's sprites, a particle system's
/// emitters, ...) is written like an [`AssetRef`] that refers to something: the asset's name
/// inside a scope, `{"index": n}` where no name names it alone, a plain index outside a scope
/// and for texture pages (which have no names).
impl<T: Target> Serialize for Id<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        serialize_index::<T, S>(self.0, s)
    }
}

impl<'de, T: Target> Deserialize<'de> for Id<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let r = AssetRef::<T>::deserialize(d)?;
        match (r.id(), r.kept()) {
            (Some(id), _) => Ok(id),
            (None, Some(v)) => Err(de::Error::custom(format!(
                "expected a {} (name or index), found the stored value {v}",
                T::KIND.name()
            ))),
            (None, None) => Err(de::Error::custom(format!(
                "expected a {} (name or index), found null",
                T::KIND.name()
            ))),
        }
    }
}

/// `#[serde(with = "crate::serde_names::optional")]` for an `Option<AssetRef<T>>` whose
/// `None` means "the version has no such field": `None` is left out (skip it with
/// `skip_serializing_if = "Option::is_none"` and `default`), and `null` reads back as
/// `Some(AssetRef::NONE)`.
pub(crate) mod optional {
    use super::*;

    pub fn serialize<T: Target, S: Serializer>(
        v: &Option<AssetRef<T>>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        match v {
            Some(r) => r.serialize(s),
            None => s.serialize_none(),
        }
    }
    pub fn deserialize<'de, T: Target, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Option<AssetRef<T>>, D::Error> {
        AssetRef::deserialize(d).map(Some)
    }
}
