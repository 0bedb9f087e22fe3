//! `SOND`: sounds.
//!
//! Layout: a pointer list of records: name; `u32` flags; type string; file string; `u32`
//! effects; `f32` volume; `f32` pitch; then either an `i32` audio group id (bytecode ≥ 14 and the
//! regular flag set) or a `bool32` preload flag; `i32` audio id; [2024.6] `f32` audio length.

use crate::chunk::{Chunk, ChunkName};
use crate::error::Result;
use crate::read::Reader;
use crate::chunks::audio::AudioEntry;
use crate::chunks::audio_group::AudioGroup;
use crate::refs::{AssetRef, StringRef};
use crate::version::{Detect, FormatVersion, Version};
use crate::write::Writer;

/// Sound flag: the audio data is embedded in the data file (AUDO).
pub const FLAG_EMBEDDED: u32 = 0x1;
/// Sound flag: the audio data is compressed.
pub const FLAG_COMPRESSED: u32 = 0x2;
/// Sound flag bits marking a "regular" sound (as written by every GameMaker since bytecode 14).
pub const FLAG_REGULAR: u32 = 0x64;

/// The `SOND` chunk: sounds.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Sounds {
    /// The sounds, in file order (`None`: null pointer of a stripped sound, 2024.11+).
    pub sounds: Vec<Option<Sound>>,
}

/// One sound.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Sound {
    /// Asset name.
    pub name: StringRef,
    /// Flags: [`FLAG_EMBEDDED`], [`FLAG_COMPRESSED`], [`FLAG_REGULAR`]. Together with the
    /// bytecode version they decide whether [`Sound::group`] is a group id or a preload flag.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_values::flags::sound"))]
    pub flags: u32,
    /// File type (extension such as `.ogg`), if any.
    pub kind: Option<StringRef>,
    /// Original file name, if any.
    pub file: Option<StringRef>,
    /// Effects bit set.
    pub effects: u32,
    /// Volume (0..1).
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::float"))]
    pub volume: f32,
    /// Pitch.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::float"))]
    pub pitch: f32,
    /// Audio group id or preload flag (which one depends on the flags and the bytecode).
    pub group: GroupOrPreload,
    /// The audio entry (stored -1 for none): an index into this file's AUDO when the group is
    /// the builtin group ([`Sound::audio_in_this_file`]), else into the AUDO of the group's
    /// `audiogroupN.dat`. Audio entries have no names: the index is the entry's name (the
    /// folder writes it as a number, and names the audio file after the sound).
    pub audio_id: AssetRef<AudioEntry>,
    /// Length in seconds (2024.6+; `None` before).
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::float"))]
    pub audio_length: Option<f32>,
}

/// The field after the pitch: an audio group id for regular sounds (bytecode ≥ 14), a preload
/// flag otherwise.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum GroupOrPreload {
    /// The audio group (AGRP; group 0, the builtin one, may be absent from AGRP in GMS1 files).
    Group(AssetRef<AudioGroup>),
    /// Whether the sound is preloaded.
    Preload(bool),
}

/// The builtin audio group's id: 0, or 1 in GMS1 files before build 1250.
pub fn builtin_group(v: &Version) -> u32 {
    match v.gms1_build() {
        Some(b) if b < 1250 => 1,
        _ => 0,
    }
}

impl Sound {
    /// Whether [`Sound::audio_id`] indexes this data file's AUDO (an embedded sound of the
    /// builtin group), not an audio group file's.
    pub fn audio_in_this_file(&self, v: &Version) -> bool {
        match self.group {
            GroupOrPreload::Group(g) => g.index() == Some(builtin_group(v) as usize),
            GroupOrPreload::Preload(_) => self.flags & FLAG_EMBEDDED != 0,
        }
    }
}

/// Whether a sound with these flags stores an audio group id (else a preload flag).
fn has_group_id(v: &Version, flags: u32) -> bool {
    v.bytecode >= 14 && flags & FLAG_REGULAR == FLAG_REGULAR
}
/// 2024.6+: sounds carry their length.
fn has_audio_length(v: &Version) -> bool {
    v.at_least(2024, 6)
}

impl Chunk for Sounds {
    const NAME: ChunkName = ChunkName(*b"SOND");

    fn read(r: &mut Reader) -> Result<Self> {
        let v = *r.version();
        let sounds = r.elements_in_order("sound", |_| Ok(()), |r| {
            let mut f = r.fields::<36>("sound")?;
            let name = f.string()?;
            let flags = f.u32();
            let kind = f.string_opt()?;
            let file = f.string_opt()?;
            let effects = f.u32();
            let volume = f.f32();
            let pitch = f.f32();
            let group = if has_group_id(&v, flags) {
                GroupOrPreload::Group(AssetRef::from_stored(f.i32(), -1))
            } else {
                GroupOrPreload::Preload(f.bool32()?)
            };
            let audio_id = AssetRef::from_stored(f.i32(), -1);
            let audio_length = if has_audio_length(&v) {
                Some(r.f32()?)
            } else {
                None
            };
            Ok(Sound {
                name,
                flags,
                kind,
                file,
                effects,
                volume,
                pitch,
                group,
                audio_id,
                audio_length,
            })
        })?;
        Ok(Sounds { sounds })
    }

    fn write(&self, w: &mut Writer) -> Result<()> {
        let v = *w.version();
        w.pointer_list(
            &self.sounds,
            |_| {},
            |w, s| {
                w.string(s.name);
                w.u32(s.flags);
                w.string_opt(s.kind);
                w.string_opt(s.file);
                w.u32(s.effects);
                w.f32(s.volume);
                w.f32(s.pitch);
                match (has_group_id(&v, s.flags), s.group) {
                    (true, GroupOrPreload::Group(g)) => w.i32(g.to_stored(-1)),
                    (false, GroupOrPreload::Preload(p)) => w.bool32(p),
                    (true, _) => {
                        return Err(w.unwritable(
                            "sound",
                            "a regular sound (flags 0x64, bytecode ≥ 14) needs an audio group id",
                        ));
                    }
                    (false, _) => {
                        return Err(w.unwritable(
                            "sound",
                            "this sound stores a preload flag, not an audio group id",
                        ));
                    }
                }
                w.i32(s.audio_id.to_stored(-1));
                if has_audio_length(&v) {
                    w.f32(s.audio_length.unwrap_or(0.0));
                }
                Ok(())
            },
        )
    }
}

/// SOND check for 2024.6 (needs 2023.2 non-LTS): records grew from 36 to 40 bytes (audio
/// length). ≥ 2 sounds: pointer delta 40; 1 sound: the word after the old 36-byte record is a
/// non-zero value inside the chunk.
///
/// Also 2024.11 (needs 2.3): a null pointer in the list (stripped asset).
pub(crate) fn detect(d: &Detect, v: &mut Version) {
    crate::chunks::audio_group::detect_stripped(d, v, b"SOND", 0);
    if !v.non_lts_at_least(2023, 2) || v.at_least(2024, 6) {
        return;
    }
    let Some((start, end)) = d.chunk(b"SOND") else {
        return;
    };
    let Some(n) = d.u32(start) else { return };
    let Some(p0) = d.u32(start + 4) else { return };
    if n == 0 || p0 == 0 {
        return;
    }
    let new = if n >= 2 {
        d.u32(start + 8).is_some_and(|p1| p1 == p0.wrapping_add(40))
    } else {
        let at = p0 as usize + 36;
        at + 4 <= end && d.u32(at).is_some_and(|w| w != 0)
    };
    if new {
        v.raise(FormatVersion::new(2024, 6, 0, 0));
    }
}
