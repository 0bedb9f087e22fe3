//! `SCPT`: scripts (a name bound to a code entry).
//!
//! Layout: a pointer list of scripts; script = name, i32 code id. From 2.3 the top bit of the id
//! marks a constructor and the id is the remaining 31 bits.

use crate::chunk::{Chunk, ChunkName};
use crate::error::Result;
use crate::read::Reader;
use crate::chunks::code::CodeEntry;
use crate::refs::{AssetRef, StringRef};
use crate::version::{Detect, Version};
use crate::write::Writer;

/// A script asset.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Script {
    /// Asset name.
    pub name: StringRef,
    /// Index of the script's CODE entry (-1 = none; stored without the constructor bit).
    pub code_id: AssetRef<CodeEntry>,
    /// Whether the script is a constructor (2.3+: top bit of the stored id).
    pub constructor: bool,
}

/// The `SCPT` chunk.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Scripts {
    /// The scripts (`None`: stripped asset, 2024.11+).
    pub scripts: Vec<Option<Script>>,
}

/// Whether the top bit of the code id means "constructor" (2.3+).
fn has_constructor_bit(v: &Version) -> bool {
    v.at_least(2, 3)
}

impl Chunk for Scripts {
    const NAME: ChunkName = ChunkName(*b"SCPT");

    fn read(r: &mut Reader) -> Result<Self> {
        let ctor = has_constructor_bit(r.version());
        let scripts = r.pointer_list_elements("script", |r| {
            let name = r.string()?;
            let raw = r.i32()?;
            let constructor = ctor && raw < 0 && raw != -1;
            let code_id = if constructor { raw & 0x7FFF_FFFF } else { raw };
            Ok(Script {
                name,
                code_id: AssetRef::from_stored(code_id, -1),
                constructor,
            })
        })?;
        r.check_nulls("script pointer", &scripts)?;
        Ok(Scripts { scripts })
    }

    fn write(&self, w: &mut Writer) -> Result<()> {
        w.pointer_list(
            &self.scripts,
            |_| {},
            |w, s| {
                w.string(s.name);
                let raw = if s.constructor {
                    (s.code_id.to_stored(-1) as u32 | 0x8000_0000) as i32
                } else {
                    s.code_id.to_stored(-1)
                };
                w.i32(raw);
                Ok(())
            },
        )
    }
}

/// No layout checks in SCPT.
pub(crate) fn detect(_d: &Detect, _v: &mut Version) {}
