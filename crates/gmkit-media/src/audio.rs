//! Embedded audio: the sound files a data file carries, as the files they are.
//!
//! Sounds (SOND) point at entries of an AUDO chunk by index: the data file's own AUDO for the
//! builtin audio group, else the AUDO of `audiogroupN.dat` beside the data file (from
//! GameMaker 2024.14 the AGRP entry names the file). [`AudioKind::detect`] tells WAV, OGG,
//! MP3, ... from the magic bytes, so each can be written with its extension.
//!
//! ```no_run
//! use gmkit_media::audio::{AudioGroupFiles, AudioKind, sound_bytes};
//! let path = std::path::Path::new("data.win");
//! let data = gmkit_data::parse_file(path)?;
//! let groups = AudioGroupFiles::load(path, &data)?;
//! if let Some(bytes) = sound_bytes(&data, &groups, 0)? {
//!     std::fs::write(format!("sound0.{}", AudioKind::detect(&bytes).extension()), &bytes)?;
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::Error;
use bytes::Bytes;
use gmkit_data::chunks::sound::{FLAG_EMBEDDED, GroupOrPreload, Sound};
use gmkit_data::{DataFile, Version};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The file type of an audio entry, from its magic bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AudioKind {
    /// RIFF WAVE.
    Wav,
    /// Ogg (Vorbis or Opus).
    Ogg,
    /// MPEG audio layer III (ID3 tag or frame sync).
    Mp3,
    /// FLAC.
    Flac,
    /// AIFF / AIFF-C.
    Aiff,
    /// MPEG-4 audio (`ftyp` box).
    M4a,
    /// Raw AAC in ADTS frames.
    Aac,
    /// Zero bytes only: a placeholder entry, no audio format (seen in real games).
    Blank,
    /// Not recognised.
    Unknown,
}

impl AudioKind {
    /// Detects the type from the first bytes.
    ///
    /// ```
    /// use gmkit_media::audio::AudioKind;
    /// assert_eq!(AudioKind::detect(b"OggS\0\x02"), AudioKind::Ogg);
    /// assert_eq!(AudioKind::detect(b"RIFF\x24\0\0\0WAVEfmt "), AudioKind::Wav);
    /// assert_eq!(AudioKind::Wav.extension(), "wav");
    /// ```
    pub fn detect(b: &[u8]) -> AudioKind {
        let at = |i: usize, m: &[u8]| b.get(i..i + m.len()) == Some(m);
        if at(0, b"RIFF") && at(8, b"WAVE") {
            AudioKind::Wav
        } else if at(0, b"OggS") {
            AudioKind::Ogg
        } else if at(0, b"fLaC") {
            AudioKind::Flac
        } else if at(0, b"FORM") && (at(8, b"AIFF") || at(8, b"AIFC")) {
            AudioKind::Aiff
        } else if at(4, b"ftyp") {
            AudioKind::M4a
        } else if at(0, b"ID3") {
            AudioKind::Mp3
        } else if b.len() >= 2 && b[0] == 0xFF && b[1] & 0xF6 == 0xF0 {
            AudioKind::Aac
        } else if b.len() >= 2 && b[0] == 0xFF && b[1] & 0xE0 == 0xE0 {
            AudioKind::Mp3
        } else if b.iter().all(|&x| x == 0) {
            AudioKind::Blank
        } else {
            AudioKind::Unknown
        }
    }
    /// The usual file extension (`bin` for blank and unknown entries).
    pub fn extension(self) -> &'static str {
        match self {
            AudioKind::Wav => "wav",
            AudioKind::Ogg => "ogg",
            AudioKind::Mp3 => "mp3",
            AudioKind::Flac => "flac",
            AudioKind::Aiff => "aiff",
            AudioKind::M4a => "m4a",
            AudioKind::Aac => "aac",
            AudioKind::Blank | AudioKind::Unknown => "bin",
        }
    }
}

/// The id of the builtin audio group (whose audio is in the data file itself): 0, or 1 in
/// GMS1 files before build 1250 (UndertaleModTool's threshold; DogScepter says 1354, the spec
/// notes leave it open).
pub fn builtin_group(v: &Version) -> i32 {
    match v.gms1_build() {
        Some(b) if b < 1250 => 1,
        _ => 0,
    }
}

/// Where a sound's audio is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SoundLocation {
    /// Entry `index` of the data file's own AUDO.
    Builtin {
        /// AUDO entry index.
        index: usize,
    },
    /// Entry `index` of the AUDO of audio group `group`'s file.
    Group {
        /// Audio group id (AGRP index).
        group: u32,
        /// AUDO entry index inside that group's file.
        index: usize,
    },
    /// Not in any data file: a file beside the game (streamed sounds), or no audio at all.
    NotEmbedded,
}

/// Where `sound`'s audio is stored.
pub fn sound_location(file: &DataFile, sound: &Sound) -> SoundLocation {
    let Some(index) = sound.audio_id.index() else {
        return SoundLocation::NotEmbedded;
    };
    match sound.group {
        GroupOrPreload::Group(g) if g.index() != Some(builtin_group(&file.version) as usize) => {
            match g.index().and_then(|g| u32::try_from(g).ok()) {
                Some(group) => SoundLocation::Group { group, index },
                None => SoundLocation::NotEmbedded,
            }
        }
        GroupOrPreload::Preload(_) if sound.flags & FLAG_EMBEDDED == 0 => {
            SoundLocation::NotEmbedded
        }
        _ => SoundLocation::Builtin { index },
    }
}

/// The parsed `audiogroupN.dat` files of a game, by group id.
#[derive(Clone, Debug, Default)]
pub struct AudioGroupFiles {
    files: BTreeMap<u32, DataFile>,
}

impl AudioGroupFiles {
    /// No group files (sounds of other groups then have no bytes).
    pub fn new() -> Self {
        Self::default()
    }
    /// Adds (or replaces) the parsed file of group `id`.
    pub fn insert(&mut self, id: u32, file: DataFile) {
        self.files.insert(id, file);
    }
    /// The parsed file of group `id`.
    pub fn get(&self, id: u32) -> Option<&DataFile> {
        self.files.get(&id)
    }
    /// The group ids that have a file, ascending.
    pub fn ids(&self) -> impl Iterator<Item = u32> + '_ {
        self.files.keys().copied()
    }
    /// The expected path of each non-builtin group's file: `audiogroupN.dat` beside the data
    /// file, or the path the AGRP entry names (2024.14+), relative to the data file's folder.
    pub fn paths(data_path: &Path, file: &DataFile) -> Vec<(u32, PathBuf)> {
        let dir = data_path.parent().unwrap_or(Path::new(""));
        let builtin = builtin_group(&file.version);
        let Some(groups) = &file.audio_groups else {
            return Vec::new();
        };
        let strings = file.strings.as_ref();
        groups
            .groups
            .iter()
            .enumerate()
            .filter(|(i, g)| g.is_some() && *i as i64 != builtin as i64)
            .map(|(i, g)| {
                let named = g
                    .as_ref()
                    .and_then(|g| g.path)
                    .and_then(|p| strings?.get(p))
                    .map(|s| s.to_string_lossy().into_owned())
                    .filter(|s| !s.is_empty());
                let rel = named.unwrap_or_else(|| format!("audiogroup{i}.dat"));
                (i as u32, dir.join(rel))
            })
            .collect()
    }
    /// Parses the group files beside `data_path` that exist (a missing file is skipped: its
    /// sounds then have no bytes; a file that exists but does not parse is an error).
    pub fn load(data_path: &Path, file: &DataFile) -> Result<Self, Error> {
        let mut out = Self::new();
        for (id, path) in Self::paths(data_path, file) {
            if !path.is_file() {
                continue;
            }
            let parsed = gmkit_data::parse_file(&path).map_err(|e| Error::AudioGroup {
                path: path.display().to_string(),
                detail: e.to_string(),
            })?;
            out.insert(id, parsed);
        }
        Ok(out)
    }
}

/// The bytes of sound `index` (a SOND index): `Ok(None)` when the sound has no embedded audio
/// (streamed from a file beside the game, no audio id, a stripped slot, or its group's file was
/// not loaded); an error when the sound or its AUDO entry does not exist.
pub fn sound_bytes(
    file: &DataFile,
    groups: &AudioGroupFiles,
    index: usize,
) -> Result<Option<Bytes>, Error> {
    let sound = file
        .sounds
        .as_ref()
        .and_then(|s| s.sounds.get(index)?.as_ref())
        .ok_or_else(|| missing(format!("sound {index} does not exist")))?;
    let (audo, entry, whose) = match sound_location(file, sound) {
        SoundLocation::NotEmbedded => return Ok(None),
        SoundLocation::Builtin { index } => (file.audio.as_ref(), index, "the data file".into()),
        SoundLocation::Group { group, index } => match groups.get(group) {
            Some(g) => (
                g.audio.as_ref(),
                index,
                format!("audio group {group}'s file"),
            ),
            None => return Ok(None),
        },
    };
    let entries = audo.ok_or_else(|| missing(format!("sound {index}: {whose} has no AUDO")))?;
    match entries.entries.get(entry) {
        Some(e) => Ok(e.clone()),
        None => Err(missing(format!(
            "sound {index}: audio entry {entry} is past the {} entries of {whose}",
            entries.entries.len()
        ))),
    }
}

fn missing(detail: String) -> Error {
    Error::NotFound(detail)
}
