//! `LANG`: localisation tables.
//!
//! Layout: u32 unknown (1); u32 language count; u32 entry count; the entry ids (strings); then
//! per language its name, region, and one string per entry.

use crate::chunk::{Chunk, ChunkName};
use crate::error::Result;
use crate::read::Reader;
use crate::refs::StringRef;
use crate::version::{Detect, Version};
use crate::write::Writer;

/// One language: a name, a region and one translated string per entry id.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Language {
    /// Language name.
    pub name: StringRef,
    /// Region name.
    pub region: StringRef,
    /// One string per entry of [`Languages::entry_ids`].
    pub entries: Vec<StringRef>,
}

/// The `LANG` chunk.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Languages {
    /// Unknown leading word (1 in known files; kept as read).
    pub unknown: u32,
    /// Entry ids (keys of the translation table).
    pub entry_ids: Vec<StringRef>,
    /// The languages.
    pub languages: Vec<Language>,
}

impl Chunk for Languages {
    const NAME: ChunkName = ChunkName(*b"LANG");

    fn read(r: &mut Reader) -> Result<Self> {
        let unknown = r.u32()?;
        let lang_count = r.count("language", 8)?;
        let entry_count = r.count("language entry", 4)?;
        let mut entry_ids = Vec::with_capacity(entry_count);
        for _ in 0..entry_count {
            entry_ids.push(r.string()?);
        }
        let per_language = entry_count.saturating_add(2);
        r.check_count(
            r.pos(),
            "language",
            lang_count,
            per_language.saturating_mul(4),
        )?;
        let mut languages = Vec::with_capacity(lang_count);
        for i in 0..lang_count {
            let prev = r.set_element("language", i);
            let name = r.string()?;
            let region = r.string()?;
            let mut entries = Vec::with_capacity(entry_count);
            for _ in 0..entry_count {
                entries.push(r.string()?);
            }
            languages.push(Language {
                name,
                region,
                entries,
            });
            r.restore_element(prev);
        }
        Ok(Languages {
            unknown,
            entry_ids,
            languages,
        })
    }

    fn write(&self, w: &mut Writer) -> Result<()> {
        w.u32(self.unknown);
        w.u32(self.languages.len() as u32);
        w.u32(self.entry_ids.len() as u32);
        for &s in &self.entry_ids {
            w.string(s);
        }
        for l in &self.languages {
            if l.entries.len() != self.entry_ids.len() {
                return Err(w.unwritable(
                    "language",
                    format!(
                        "has {} entries but the table has {} entry ids",
                        l.entries.len(),
                        self.entry_ids.len()
                    ),
                ));
            }
            w.string(l.name);
            w.string(l.region);
            for &s in &l.entries {
                w.string(s);
            }
        }
        Ok(())
    }
}

/// No layout checks in LANG.
pub(crate) fn detect(_d: &Detect, _v: &mut Version) {}
