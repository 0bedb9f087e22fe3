//! The names layer: the one place where the folder turns asset references into names and back.
//!
//! Every typed reference of the model ([`gmkit_data::AssetRef`]: an object's sprite and parent,
//! a room instance's object and creation code, a script's code entry, the room order, ...) is
//! written in the folder's JSON as the name of the asset it points to (`"sprite": "spr_player"`),
//! `null` for none, and `{"index": 12}` where no name names the asset alone (a duplicate name, a
//! null slot). Unpack builds the names from the data file ([`of_file`]); pack builds them from the
//! folder's own files before it reads any reference ([`of_folder`]): each asset's `name`
//! field, and the names of the code entries read from `code/`. Deserializing inside the scope
//! resolves every name; a name no asset has is an error naming the file and the field, with the
//! nearest name. Collision events name their other object through the same tables
//! ([`objects`]).

use gmkit_data::chunks::string_table::Strings;
use gmkit_data::serde_support::NameScope;
use gmkit_data::{AssetKind, DataFile, StringRef};
use serde_json::{Map, Value};
use std::sync::Arc;

/// The kinds whose references are written by name (every named asset table and code entries).
pub const NAMED_KINDS: &[AssetKind] = &[
    AssetKind::Sound,
    AssetKind::AudioGroup,
    AssetKind::Sprite,
    AssetKind::Background,
    AssetKind::Path,
    AssetKind::Script,
    AssetKind::Shader,
    AssetKind::Font,
    AssetKind::Timeline,
    AssetKind::Object,
    AssetKind::AnimCurve,
    AssetKind::Sequence,
    AssetKind::Room,
    AssetKind::ParticleSystem,
    AssetKind::ParticleEmitter,
    AssetKind::Code,
];

/// The objects' names as a scope (in list order; `None` for an object without a name): what a
/// collision event file names its other object by (`Collision_obj_wall`), unpack and pack
/// alike. A name several objects have names none of them.
pub(crate) fn objects(names: impl IntoIterator<Item = Option<String>>) -> NameScope {
    NameScope::new().with(AssetKind::Object, names.into_iter().collect())
}

/// The names of a data file's assets and code entries (unpack).
pub fn of_file(file: &DataFile) -> Arc<NameScope> {
    Arc::new(NameScope::of_file(file))
}

/// The text of a serialized string reference: `"text"` or `{"index": n, "text": "..."}`.
fn name_text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Object(o) => o.get("text").and_then(Value::as_str).map(str::to_owned),
        _ => None,
    }
}

/// The names a folder gives its assets (pack): `top` is the model's JSON as pack assembled it
/// (each split chunk `{field: {key: [element, ...], ...}}`), `code` the code entries' name
/// references as read from `code/` (resolved against `strings`, then the texts `added` to it).
pub fn of_folder(
    top: &Map<String, Value>,
    code: Option<&[StringRef]>,
    strings: Option<&Strings>,
    added: &[String],
) -> Arc<NameScope> {
    let mut scope = NameScope::new();
    for &kind in NAMED_KINDS {
        if kind == AssetKind::Code {
            continue;
        }
        let Some(field) = DataFile::chunk_field(kind.chunk()) else {
            continue;
        };
        let Some(key) = crate::layout::split_key(field) else {
            continue;
        };
        let Some(list) = top
            .get(field)
            .and_then(|c| c.get(key))
            .and_then(Value::as_array)
        else {
            continue;
        };
        let names = list
            .iter()
            .map(|e| e.get("name").and_then(name_text))
            .collect();
        scope = scope.with(kind, names);
    }
    if let Some(code) = code {
        let len = strings.map_or(0, Strings::len);
        let names = code
            .iter()
            .map(|r| match r.index().checked_sub(len) {
                None => strings?.get(*r)?.to_str().ok().map(str::to_owned),
                Some(k) => added.get(k).cloned(),
            })
            .collect();
        scope = scope.with(AssetKind::Code, names);
    }
    Arc::new(scope)
}
