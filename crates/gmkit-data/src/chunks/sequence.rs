//! `SEQN` (2.3+): sequences. The [`Sequence`] record is shared with sprites, which may embed
//! one (special sprite version 2+).
//!
//! Layout: zero padding to 4, `u32` chunk version (1), pointer list of sequences (the chunk may
//! also be empty). Sequence: name; `u32` playback type; `f32` playback speed; `u32` speed type;
//! `f32` length; `i32` origin X, Y; `f32` volume; [2024.13] `f32` width, height; broadcast
//! messages (keyframes of string lists); tracks (simple list, see [`track`]); function ids
//! (`i32` count + (`i32` id, string) pairs); moments (keyframes of string lists).

pub mod track;

use crate::chunk::{Chunk, ChunkName};
use crate::error::Result;
use crate::read::Reader;
use crate::refs::StringRef;
use crate::version::{Detect, Version};
use crate::write::Writer;
pub use track::{Keyframe, KeyframeData, Keyframes, Track};

/// The `SEQN` chunk: sequences.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Sequences {
    /// Chunk format version (1); `None` for an empty (zero-length) chunk.
    pub chunk_version: Option<u32>,
    /// The sequences (`None`: null pointer of a stripped sequence).
    pub sequences: Vec<Option<Sequence>>,
}

/// A sequence: timed tracks of keyframes.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Sequence {
    /// Name.
    pub name: StringRef,
    /// Playback type (once, loop, ping-pong).
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_values::kinds::playback_type"))]
    pub playback_type: u32,
    /// Playback speed.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::float"))]
    pub playback_speed: f32,
    /// Speed type (frames per second / per game frame).
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_values::kinds::speed_type"))]
    pub speed_type: u32,
    /// Length in frames.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::float"))]
    pub length: f32,
    /// Origin X.
    pub origin_x: i32,
    /// Origin Y.
    pub origin_y: i32,
    /// Volume.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::float"))]
    pub volume: f32,
    /// 2024.13+: width and height.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::float"))]
    pub size: Option<[f32; 2]>,
    /// Broadcast messages: keyframes whose channels hold string lists.
    pub broadcast_messages: Vec<Keyframe<Vec<StringRef>>>,
    /// Tracks.
    pub tracks: Vec<Track>,
    /// Function ids: (id, function name).
    pub function_ids: Vec<(i32, StringRef)>,
    /// Moments: keyframes whose channels hold string lists.
    pub moments: Vec<Keyframe<Vec<StringRef>>>,
}

/// Whether sequences carry width and height.
fn has_size(v: &Version) -> bool {
    v.at_least(2024, 13)
}

fn read_string_list(r: &mut Reader) -> Result<Vec<StringRef>> {
    let n = r.count("string", 4)?;
    (0..n).map(|_| r.string()).collect()
}

fn write_string_list(w: &mut Writer, v: &[StringRef]) {
    w.u32(v.len() as u32);
    for &s in v {
        w.string(s);
    }
}

impl Sequence {
    /// Reads a sequence record.
    pub(crate) fn read(r: &mut Reader) -> Result<Self> {
        r.enter()?;
        let mut s = Sequence {
            name: r.string()?,
            playback_type: r.u32()?,
            playback_speed: r.f32()?,
            speed_type: r.u32()?,
            length: r.f32()?,
            origin_x: r.i32()?,
            origin_y: r.i32()?,
            volume: r.f32()?,
            ..Default::default()
        };
        if has_size(r.version()) {
            s.size = Some([r.f32()?, r.f32()?]);
        }
        s.broadcast_messages = track::read_keyframe_list(r, read_string_list)?;
        let n = r.count("track", 32)?;
        s.tracks = (0..n).map(|_| Track::read(r)).collect::<Result<_>>()?;
        let n = r.count("function id", 8)?;
        s.function_ids = (0..n)
            .map(|_| Ok((r.i32()?, r.string()?)))
            .collect::<Result<_>>()?;
        s.moments = track::read_keyframe_list(r, read_string_list)?;
        r.leave();
        Ok(s)
    }

    /// Writes a sequence record.
    pub(crate) fn write(&self, w: &mut Writer) -> Result<()> {
        w.string(self.name);
        w.u32(self.playback_type);
        w.f32(self.playback_speed);
        w.u32(self.speed_type);
        w.f32(self.length);
        w.i32(self.origin_x);
        w.i32(self.origin_y);
        w.f32(self.volume);
        if has_size(w.version()) {
            let [a, b] = self.size.unwrap_or_default();
            w.f32(a);
            w.f32(b);
        }
        track::write_keyframe_list(w, &self.broadcast_messages, |w, v| {
            write_string_list(w, v);
            Ok(())
        })?;
        w.u32(self.tracks.len() as u32);
        for t in &self.tracks {
            t.write(w)?;
        }
        w.u32(self.function_ids.len() as u32);
        for &(id, name) in &self.function_ids {
            w.i32(id);
            w.string(name);
        }
        track::write_keyframe_list(w, &self.moments, |w, v| {
            write_string_list(w, v);
            Ok(())
        })
    }
}

impl Chunk for Sequences {
    const NAME: ChunkName = ChunkName(*b"SEQN");

    fn read(r: &mut Reader) -> Result<Self> {
        if r.remaining() == 0 {
            return Ok(Sequences::default());
        }
        r.align(4)?;
        let chunk_version = Some(r.u32()?);
        let sequences = r.pointer_list_elements("sequence", Sequence::read)?;
        Ok(Sequences {
            chunk_version,
            sequences,
        })
    }

    fn write(&self, w: &mut Writer) -> Result<()> {
        let Some(v) = self.chunk_version else {
            return Ok(());
        };
        w.align(4);
        w.u32(v);
        w.pointer_list(&self.sequences, |_| {}, |w, s| s.write(w))
    }
}

/// No layout checks in SEQN (the 2022.2 text-track evidence is not needed: the FONT check
/// decides 2022.2).
pub(crate) fn detect(_d: &Detect, _v: &mut Version) {}
