//! `AUDO`: embedded audio files (also the only chunk of `audiogroupN.dat` files).
//!
//! Layout: a pointer list of entries; an entry is a `u32` byte length and the file bytes (WAV,
//! OGG, ...). Every entry but the last is followed by zero padding to 4 bytes.

use crate::chunk::{Chunk, ChunkName};
use crate::error::Result;
use crate::read::Reader;
use crate::version::{Detect, Version};
use crate::write::Writer;
use bytes::Bytes;

/// The `AUDO` chunk: the audio files of the builtin audio group (or of an audio group file).
/// Sounds refer to entries by index.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct EmbeddedAudio {
    /// The audio files' bytes, in file order (zero-copy views of the input; `None`: null pointer
    /// of a stripped entry).
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::hex"))]
    pub entries: Vec<Option<Bytes>>,
}

/// An entry of [`EmbeddedAudio`], as the target of a sound's
/// [`audio_id`](crate::chunks::sound::Sound::audio_id) (a marker type: the entry itself is its
/// bytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AudioEntry {}

impl crate::refs::Target for AudioEntry {
    const KIND: crate::walk::AssetKind = crate::walk::AssetKind::Audio;
}

impl Chunk for EmbeddedAudio {
    const NAME: ChunkName = ChunkName(*b"AUDO");

    fn read(r: &mut Reader) -> Result<Self> {
        let ptrs = r.pointer_list("audio entry")?;
        let mut entries = Vec::with_capacity(ptrs.len());
        let mut first = true;
        for (i, &p) in ptrs.iter().enumerate() {
            if p == 0 {
                entries.push(None);
                continue;
            }
            let prev = r.set_element("audio entry", i);
            // Padding and length beside the payloads: read without touching them.
            if !first {
                r.align_cold(4)?;
            }
            first = false;
            r.expect_element_at(p, "audio entry pointer")?;
            let len = r.u32_cold()? as usize;
            entries.push(Some(r.bytes(len, "audio data")?));
            r.restore_element(prev);
        }
        Ok(EmbeddedAudio { entries })
    }

    fn write(&self, w: &mut Writer) -> Result<()> {
        let mut first = true;
        w.pointer_list(
            &self.entries,
            |w| {
                if !first {
                    w.align(4);
                }
                first = false;
            },
            |w, data| {
                let len = u32::try_from(data.len())
                    .map_err(|_| w.unwritable("audio entry", "larger than 4 GiB"))?;
                w.u32(len);
                w.payload(data);
                Ok(())
            },
        )
    }
}

/// No layout checks in AUDO.
pub(crate) fn detect(_d: &Detect, _v: &mut Version) {}
