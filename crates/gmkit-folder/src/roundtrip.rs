//! The folder round trip of one data file, as a check: a file that parses and rebuilds
//! byte-identical (what `gmkit check` accepts) must either be refused by [`crate::unpack`] with
//! an error, or unpack to a folder that [`crate::pack`]s back to the identical bytes. The
//! mutation sweep test and the `unpack_pack` fuzz target both run this.

use crate::{Error, Game, pack, unpack};

/// What [`round_trip`] found for a file that did not fail it.
#[derive(Debug)]
pub enum Outcome {
    /// The bytes do not parse strictly, or do not rebuild identically: `check` rejects them, so
    /// the round trip owes them nothing. Holds the reason.
    NotChecked(String),
    /// Unpack refused the file (an error, nothing lost silently).
    UnpackRefused(Error),
    /// Unpack → pack → build gave back the identical bytes.
    Identical,
}

/// The stage of the round trip that broke it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Packing the folder unpack made failed.
    Pack,
    /// Writing the packed model failed.
    Build,
    /// The packed file differs from the input.
    Bytes,
}

/// A file that unpacked but did not come back identical.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// Where the round trip broke.
    pub stage: Stage,
    /// The error, or where the bytes first differ (with the chunk there).
    pub detail: String,
}

impl std::fmt::Display for Mismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}: {}", self.stage, self.detail)
    }
}

/// Parses `bytes` strictly; when they rebuild identically, unpacks them (in memory, no audio
/// groups) and packs the folder back: the result must be the same bytes.
pub fn round_trip(bytes: &[u8]) -> Result<Outcome, Mismatch> {
    let data = match gmkit_data::parse_bytes(bytes.to_vec()) {
        Ok(d) => d,
        Err(e) => return Ok(Outcome::NotChecked(format!("parse: {e}"))),
    };
    match gmkit_data::build_bytes(&data) {
        Ok(out) if out == bytes => {}
        Ok(_) => return Ok(Outcome::NotChecked("rebuilt file differs".into())),
        Err(e) => return Ok(Outcome::NotChecked(format!("build: {e}"))),
    }
    let folder = match unpack(&Game {
        data,
        audio_groups: Vec::new(),
    }) {
        Ok(f) => f,
        Err(e) => return Ok(Outcome::UnpackRefused(e)),
    };
    let game = pack(&folder).map_err(|e| Mismatch {
        stage: Stage::Pack,
        detail: e.to_string(),
    })?;
    let out = gmkit_data::build_bytes(&game.data).map_err(|e| Mismatch {
        stage: Stage::Build,
        detail: e.to_string(),
    })?;
    if out == bytes {
        return Ok(Outcome::Identical);
    }
    let at = out
        .iter()
        .zip(bytes)
        .position(|(a, b)| a != b)
        .unwrap_or(out.len().min(bytes.len()));
    Err(Mismatch {
        stage: Stage::Bytes,
        detail: format!(
            "packed {} bytes vs {} input, first difference at byte {at} (chunk {})",
            out.len(),
            bytes.len(),
            chunk_at(bytes, at).unwrap_or("?".into())
        ),
    })
}

/// The name of the chunk of a data file that holds byte `at`.
pub fn chunk_at(bytes: &[u8], at: usize) -> Option<String> {
    let mut off = 8usize;
    while off + 8 <= bytes.len() {
        let len = u32::from_le_bytes(bytes[off + 4..off + 8].try_into().ok()?) as usize;
        let end = off.checked_add(8)?.checked_add(len)?;
        if at < end {
            return Some(
                String::from_utf8_lossy(&bytes[off..off + 4])
                    .escape_debug()
                    .to_string(),
            );
        }
        off = end;
    }
    None
}
