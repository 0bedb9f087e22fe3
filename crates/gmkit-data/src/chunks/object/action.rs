//! The action record shared by object events (OBJT) and timeline moments (TMLN).
//!
//! Layout (56 bytes): u32 library id, u32 action id, u32 kind, bool32 relative-usable, bool32
//! is-question, bool32 apply-to-usable, u32 execution type, action-name string, i32 code id, u32
//! argument count, i32 who, bool32 relative, bool32 not, u32 unknown (0).

use crate::chunks::code::CodeEntry;
use crate::chunks::object::Object;
use crate::error::Result;
use crate::read::Reader;
use crate::refs::{AssetRef, StringRef};
use crate::write::Writer;

/// One action of an event or timeline moment. In compiled games it is almost always a single
/// "execute code" action pointing at a CODE entry.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Action {
    /// Action library id (1 = main library).
    pub library_id: u32,
    /// Action id within the library (603 = execute code).
    pub action_id: u32,
    /// Action kind (7 = code).
    pub kind: u32,
    /// Whether the "relative" option may be used.
    pub relative_usable: bool,
    /// Whether the action is a question (condition).
    pub is_question: bool,
    /// Whether "applies to" may be used.
    pub apply_to_usable: bool,
    /// Execution type (2 = code).
    pub exe_type: u32,
    /// Action (function) name; often an empty string, sometimes absent.
    pub action_name: Option<StringRef>,
    /// CODE entry id (-1 = none).
    pub code_id: AssetRef<CodeEntry>,
    /// Number of arguments.
    pub argument_count: u32,
    /// Who the action applies to: the instance itself, the other instance of a collision, or
    /// every instance of an object.
    pub who: AppliesTo,
    /// Relative flag.
    pub relative: bool,
    /// Negated condition flag.
    pub not: bool,
    /// Unknown trailing word (0 in known files; kept as read).
    pub unknown: u32,
}

impl Action {
    /// Reads one action at the reader's position.
    pub(crate) fn read(r: &mut Reader) -> Result<Self> {
        let mut f = r.fields::<56>("action")?;
        Ok(Action {
            library_id: f.u32(),
            action_id: f.u32(),
            kind: f.u32(),
            relative_usable: f.bool32()?,
            is_question: f.bool32()?,
            apply_to_usable: f.bool32()?,
            exe_type: f.u32(),
            action_name: f.string_opt()?,
            code_id: AssetRef::from_stored(f.i32(), -1),
            argument_count: f.u32(),
            who: AppliesTo::from_stored(f.i32()),
            relative: f.bool32()?,
            not: f.bool32()?,
            unknown: f.u32(),
        })
    }

    /// Writes the action.
    pub(crate) fn write(&self, w: &mut Writer) {
        w.u32(self.library_id);
        w.u32(self.action_id);
        w.u32(self.kind);
        w.bool32(self.relative_usable);
        w.bool32(self.is_question);
        w.bool32(self.apply_to_usable);
        w.u32(self.exe_type);
        w.string_opt(self.action_name);
        w.i32(self.code_id.to_stored(-1));
        w.u32(self.argument_count);
        w.i32(self.who.to_stored());
        w.bool32(self.relative);
        w.bool32(self.not);
        w.u32(self.unknown);
    }

    /// Reads a pointer list of actions.
    pub(crate) fn read_list(r: &mut Reader) -> Result<Vec<Action>> {
        r.pointer_list_required("action", Action::read)
    }

    /// Writes a pointer list of actions.
    pub(crate) fn write_list(w: &mut Writer, actions: &[Action]) -> Result<()> {
        w.pointer_list_required(actions, |w, a| {
            a.write(w);
            Ok(())
        })
    }
}

/// Who an [`Action`] applies to ("Applies to" in GameMaker's action editor).
///
/// In the folder's JSON: `"self"`, `"other"`, or the object as any asset reference is written
/// (its name, `{"index": n}`, or `{"stored": v}` for another value a real file holds).
///
/// ```
/// use gmkit_data::chunks::object::action::AppliesTo;
/// assert_eq!(AppliesTo::from_stored(-2), AppliesTo::Other);
/// assert_eq!(AppliesTo::from_stored(7).object().and_then(|o| o.index()), Some(7));
/// assert_eq!(AppliesTo::from_stored(-1).to_stored(), -1);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum AppliesTo {
    /// The instance running the event (stored -1).
    #[default]
    Itself,
    /// The other instance of a collision event (stored -2).
    Other,
    /// Every instance of an object. A stored value that is no valid index (below -2) is kept
    /// exactly; an `Object` holding no object is stored as -1, which reads back as
    /// [`AppliesTo::Itself`].
    Object(AssetRef<Object>),
}

/// The stored value of [`AppliesTo::Itself`].
const SELF: i32 = -1;
/// The stored value of [`AppliesTo::Other`].
const OTHER: i32 = -2;

impl AppliesTo {
    /// The meaning of a stored value.
    pub fn from_stored(v: i32) -> Self {
        match v {
            SELF => AppliesTo::Itself,
            OTHER => AppliesTo::Other,
            v => AppliesTo::Object(AssetRef::from_stored(v, SELF)),
        }
    }

    /// The stored value.
    pub fn to_stored(self) -> i32 {
        match self {
            AppliesTo::Itself => SELF,
            AppliesTo::Other => OTHER,
            AppliesTo::Object(r) => r.to_stored(SELF),
        }
    }

    /// The object, for [`AppliesTo::Object`].
    pub fn object(self) -> Option<AssetRef<Object>> {
        match self {
            AppliesTo::Object(r) => Some(r),
            _ => None,
        }
    }
}

#[cfg(feature = "serde")]
mod applies_to_serde {
    use super::{AppliesTo, OTHER, SELF};
    use crate::chunks::object::Object;
    use crate::refs::AssetRef;
    use serde::de::{self, IntoDeserializer, MapAccess, Visitor};
    use serde::{Deserialize, Deserializer, Serialize, Serializer};
    use std::fmt;

    impl Serialize for AppliesTo {
        fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
            match self {
                AppliesTo::Itself => s.serialize_str("self"),
                AppliesTo::Other => s.serialize_str("other"),
                AppliesTo::Object(r) => r.serialize(s),
            }
        }
    }

    impl<'de> Deserialize<'de> for AppliesTo {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            struct V;
            impl<'de> Visitor<'de> for V {
                type Value = AppliesTo;
                fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                    f.write_str(
                        "\"self\", \"other\", an object's name, {\"index\": N} or {\"stored\": N}",
                    )
                }
                fn visit_str<E: de::Error>(self, v: &str) -> Result<AppliesTo, E> {
                    match v {
                        "self" => Ok(AppliesTo::Itself),
                        "other" => Ok(AppliesTo::Other),
                        name => AssetRef::<Object>::deserialize(name.into_deserializer())
                            .map(AppliesTo::Object),
                    }
                }
                fn visit_i64<E: de::Error>(self, v: i64) -> Result<AppliesTo, E> {
                    match i32::try_from(v) {
                        Ok(SELF) => Ok(AppliesTo::Itself),
                        Ok(OTHER) => Ok(AppliesTo::Other),
                        _ => AssetRef::<Object>::deserialize(v.into_deserializer())
                            .map(AppliesTo::Object),
                    }
                }
                fn visit_u64<E: de::Error>(self, v: u64) -> Result<AppliesTo, E> {
                    AssetRef::<Object>::deserialize(v.into_deserializer()).map(AppliesTo::Object)
                }
                fn visit_unit<E: de::Error>(self) -> Result<AppliesTo, E> {
                    Ok(AppliesTo::Itself)
                }
                fn visit_none<E: de::Error>(self) -> Result<AppliesTo, E> {
                    Ok(AppliesTo::Itself)
                }
                fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<AppliesTo, A::Error> {
                    AssetRef::<Object>::deserialize(de::value::MapAccessDeserializer::new(map))
                        .map(AppliesTo::Object)
                }
            }
            d.deserialize_any(V)
        }
    }
}
