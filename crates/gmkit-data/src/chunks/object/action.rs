//! The action record shared by object events (OBJT) and timeline moments (TMLN).
//!
//! Layout (56 bytes): u32 library id, u32 action id, u32 kind, bool32 relative-usable, bool32
//! is-question, bool32 apply-to-usable, u32 execution type, action-name string, i32 code id, u32
//! argument count, i32 who, bool32 relative, bool32 not, u32 unknown (0).

use crate::chunks::code::CodeEntry;
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
    /// Who the action applies to (-1 self, -2 other, or an object id).
    pub who: i32,
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
            who: f.i32(),
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
        w.i32(self.who);
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
