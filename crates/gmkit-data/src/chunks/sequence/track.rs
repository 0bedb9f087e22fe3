//! Sequence tracks and their keyframes.
//!
//! Track: model-name string (decides the keyframe data type, so it is resolved while parsing),
//! name, `i32` builtin name, `i32` traits, bool32 creation track, `i32` tag count, `i32`
//! owned-resource count, `i32` sub-track count, the tags, the owned resources (the string
//! `GMAnimCurve` + a curve each), the sub-tracks, then the keyframes (4-aligned; colour and real
//! tracks first store an `i32` interpolation). Keyframe: `f32` key, `f32` length, bool32
//! stretch, bool32 disabled, `i32` channel count, then (`i32` channel, data) pairs.

use crate::chunks::anim_curve::AnimCurve;
use crate::error::{Result, invalid};
use crate::read::Reader;
use crate::chunks::font::Font;
use crate::chunks::object::Object;
use crate::chunks::particle_system::ParticleSystem;
use crate::chunks::sequence::Sequence;
use crate::chunks::sound::Sound;
use crate::chunks::sprite::Sprite;
use crate::refs::{AssetRef, StringRef};
use crate::version::Version;
use crate::write::Writer;

/// One keyframe: a time span and per-channel data.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Keyframe<T> {
    /// Start frame.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::float"))]
    pub key: f32,
    /// Length in frames.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::float"))]
    pub length: f32,
    /// Whether the content stretches over the length.
    pub stretch: bool,
    /// Whether the keyframe is disabled.
    pub disabled: bool,
    /// (channel, data) pairs.
    pub channels: Vec<(i32, T)>,
}

/// An animation curve reference of a real/colour keyframe.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum CurveRef {
    /// An animation curve asset (ACRV; stored -1 for none).
    Asset(AssetRef<AnimCurve>),
    /// A curve stored inline (stored as `i32` -1 followed by the curve without its name).
    Embedded(Box<AnimCurve>),
}

/// The data of one keyframe channel; the variant follows the track's model.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum KeyframeData {
    /// Audio track: sound id, an unknown word (0), play mode.
    Audio {
        /// The sound played (SOND; stored -1 for none).
        sound: AssetRef<Sound>,
        /// Unknown (0), kept as read.
        unknown: i32,
        /// Play mode.
        mode: i32,
    },
    /// A single `i32` that names no asset: a frame index (sprite frames track), a bool (bool
    /// track), or the value of a track model gmkit does not know.
    Int(i32),
    /// Instance track: the object instantiated (stored -1 for none).
    Object(AssetRef<Object>),
    /// Graphic track: the sprite drawn (stored -1 for none).
    Sprite(AssetRef<Sprite>),
    /// Sequence track: the sequence played (stored -1 for none).
    Sequence(AssetRef<Sequence>),
    /// Particle track: the particle system (stored -1 for none).
    ParticleSystem(AssetRef<ParticleSystem>),
    /// String track: a string.
    String(StringRef),
    /// Real track: value and curve.
    Real {
        /// Value.
        #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::float"))]
        value: f32,
        /// Curve.
        curve: CurveRef,
    },
    /// Colour track: colour (ABGR) and curve.
    Colour {
        /// Colour.
        value: u32,
        /// Curve.
        curve: CurveRef,
    },
    /// Text track (2022.2+).
    Text {
        /// The text.
        text: StringRef,
        /// Whether the text wraps.
        wrap: bool,
        /// Alignment.
        alignment: i32,
        /// The font (FONT; stored -1 for none).
        font: AssetRef<Font>,
        /// 2024.14+: wrap mode and origin.
        wrap_mode_origin: Option<[i32; 2]>,
    },
}

/// The keyframes of a track.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Keyframes {
    /// Interpolation mode (real and colour tracks only).
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_values::kinds::interpolation::option"))]
    pub interpolation: Option<i32>,
    /// The keyframes.
    pub list: Vec<Keyframe<KeyframeData>>,
}

/// A sequence track.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Track {
    /// Model name (`GMSpriteFramesTrack`, `GMRealTrack`, ...): decides the keyframe data.
    pub model: StringRef,
    /// Track name.
    pub name: StringRef,
    /// Builtin property the track drives.
    pub builtin_name: i32,
    /// Trait flags.
    pub traits: i32,
    /// Whether this is a creation track.
    pub creation_track: bool,
    /// Tags.
    pub tags: Vec<i32>,
    /// Owned animation curves (each stored after the string `GMAnimCurve`).
    pub owned_curves: Vec<(StringRef, AnimCurve)>,
    /// Sub-tracks.
    pub sub_tracks: Vec<Track>,
    /// Keyframes (`None` for group and clip-mask tracks, which store none).
    pub keyframes: Option<Keyframes>,
}

/// What a track model stores per keyframe channel.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    None,
    Audio,
    Int,
    Object,
    Sprite,
    Sequence,
    ParticleSystem,
    String,
    Real,
    Colour,
    Text,
}

fn kind_of(model: &[u8]) -> Option<Kind> {
    Some(match model {
        b"GMGroupTrack" | b"GMClipMaskTrack" | b"GMClipMask_Mask" | b"GMClipMask_Subject" => {
            Kind::None
        }
        b"GMAudioTrack" => Kind::Audio,
        b"GMInstanceTrack" => Kind::Object,
        b"GMGraphicTrack" => Kind::Sprite,
        b"GMSequenceTrack" => Kind::Sequence,
        b"GMParticleTrack" => Kind::ParticleSystem,
        b"GMSpriteFramesTrack" | b"GMBoolTrack" => Kind::Int,
        b"GMStringTrack" => Kind::String,
        b"GMRealTrack" => Kind::Real,
        b"GMColourTrack" => Kind::Colour,
        b"GMTextTrack" => Kind::Text,
        _ => return None,
    })
}

/// Whether text keyframes carry wrap mode and origin.
fn has_text_origin(v: &Version) -> bool {
    v.at_least(2024, 14)
}

/// The bytes of the STRG entry a string pointer at the current position refers to (for the
/// model names that decide layouts).
fn peek_string_text<'a>(r: &Reader<'a>) -> Option<&'a [u8]> {
    let file = r.file();
    let at = r.pos();
    let p = u32::from_le_bytes(file.get(at..at + 4)?.try_into().ok()?) as usize;
    let len = u32::from_le_bytes(file.get(p.checked_sub(4)?..p)?.try_into().ok()?) as usize;
    file.get(p..p.checked_add(len)?)
}

/// Reads a 4-aligned keyframe list whose channels hold `T`.
pub(crate) fn read_keyframe_list<T>(
    r: &mut Reader,
    mut data: impl FnMut(&mut Reader) -> Result<T>,
) -> Result<Vec<Keyframe<T>>> {
    r.align(4)?;
    let n = r.count("keyframe", 20)?;
    let mut out = Vec::with_capacity(n);
    for _ in 0..n {
        let mut k = Keyframe {
            key: r.f32()?,
            length: r.f32()?,
            stretch: r.bool32()?,
            disabled: r.bool32()?,
            channels: Vec::new(),
        };
        let at = r.pos();
        let c = r.i32()?;
        let c = usize::try_from(c)
            .map_err(|_| r.error_at(at, invalid("channel count", "a count ≥ 0", c)))?;
        r.check_count(at, "keyframe channel", c, 8)?;
        k.channels.reserve(c);
        for _ in 0..c {
            let ch = r.i32()?;
            k.channels.push((ch, data(r)?));
        }
        out.push(k);
    }
    Ok(out)
}

/// Writes a 4-aligned keyframe list.
pub(crate) fn write_keyframe_list<T>(
    w: &mut Writer,
    list: &[Keyframe<T>],
    mut data: impl FnMut(&mut Writer, &T) -> Result<()>,
) -> Result<()> {
    w.align(4);
    w.u32(list.len() as u32);
    for k in list {
        w.f32(k.key);
        w.f32(k.length);
        w.bool32(k.stretch);
        w.bool32(k.disabled);
        w.i32(k.channels.len() as i32);
        for (ch, d) in &k.channels {
            w.i32(*ch);
            data(w, d)?;
        }
    }
    Ok(())
}

fn read_curve_ref(r: &mut Reader) -> Result<CurveRef> {
    let embedded = r.bool32()?;
    let at = r.pos();
    let id = r.i32()?;
    if !embedded {
        return Ok(CurveRef::Asset(AssetRef::from_stored(id, -1)));
    }
    if id != -1 {
        return Err(r.error_at(at, invalid("embedded curve marker", -1, id)));
    }
    Ok(CurveRef::Embedded(Box::new(AnimCurve::read_unnamed(r)?)))
}

fn write_curve_ref(w: &mut Writer, c: &CurveRef) {
    match c {
        CurveRef::Asset(id) => {
            w.bool32(false);
            w.i32(id.to_stored(-1));
        }
        CurveRef::Embedded(curve) => {
            w.bool32(true);
            w.i32(-1);
            curve.write_unnamed(w);
        }
    }
}

fn read_data(r: &mut Reader, kind: Kind) -> Result<KeyframeData> {
    Ok(match kind {
        Kind::Audio => KeyframeData::Audio {
            sound: AssetRef::from_stored(r.i32()?, -1),
            unknown: r.i32()?,
            mode: r.i32()?,
        },
        Kind::Int | Kind::None => KeyframeData::Int(r.i32()?),
        Kind::Object => KeyframeData::Object(AssetRef::from_stored(r.i32()?, -1)),
        Kind::Sprite => KeyframeData::Sprite(AssetRef::from_stored(r.i32()?, -1)),
        Kind::Sequence => KeyframeData::Sequence(AssetRef::from_stored(r.i32()?, -1)),
        Kind::ParticleSystem => KeyframeData::ParticleSystem(AssetRef::from_stored(r.i32()?, -1)),
        Kind::String => KeyframeData::String(r.string()?),
        Kind::Real => KeyframeData::Real {
            value: r.f32()?,
            curve: read_curve_ref(r)?,
        },
        Kind::Colour => KeyframeData::Colour {
            value: r.u32()?,
            curve: read_curve_ref(r)?,
        },
        Kind::Text => KeyframeData::Text {
            text: r.string()?,
            wrap: r.bool32()?,
            alignment: r.i32()?,
            font: AssetRef::from_stored(r.i32()?, -1),
            wrap_mode_origin: if has_text_origin(r.version()) {
                Some([r.i32()?, r.i32()?])
            } else {
                None
            },
        },
    })
}

fn write_data(w: &mut Writer, d: &KeyframeData) -> Result<()> {
    match d {
        KeyframeData::Audio {
            sound,
            unknown,
            mode,
        } => {
            w.i32(sound.to_stored(-1));
            w.i32(*unknown);
            w.i32(*mode);
        }
        KeyframeData::Int(v) => w.i32(*v),
        KeyframeData::Object(a) => w.i32(a.to_stored(-1)),
        KeyframeData::Sprite(a) => w.i32(a.to_stored(-1)),
        KeyframeData::Sequence(a) => w.i32(a.to_stored(-1)),
        KeyframeData::ParticleSystem(a) => w.i32(a.to_stored(-1)),
        KeyframeData::String(s) => w.string(*s),
        KeyframeData::Real { value, curve } => {
            w.f32(*value);
            write_curve_ref(w, curve);
        }
        KeyframeData::Colour { value, curve } => {
            w.u32(*value);
            write_curve_ref(w, curve);
        }
        KeyframeData::Text {
            text,
            wrap,
            alignment,
            font,
            wrap_mode_origin,
        } => {
            w.string(*text);
            w.bool32(*wrap);
            w.i32(*alignment);
            w.i32(font.to_stored(-1));
            if has_text_origin(w.version()) {
                for v in wrap_mode_origin.unwrap_or_default() {
                    w.i32(v);
                }
            }
        }
    }
    Ok(())
}

impl Track {
    /// Reads a track (recursively with its sub-tracks).
    pub(crate) fn read(r: &mut Reader) -> Result<Self> {
        r.enter()?;
        let model_at = r.pos();
        let kind = peek_string_text(r).and_then(kind_of);
        let model = r.string()?;
        let Some(kind) = kind else {
            let text = peek_text_lossy(r, model_at);
            return Err(r.error_at(
                model_at,
                invalid("sequence track model", "a known track model", text),
            ));
        };
        let mut t = Track {
            model,
            name: r.string()?,
            builtin_name: r.i32()?,
            traits: r.i32()?,
            creation_track: r.bool32()?,
            ..Default::default()
        };
        let mut counts = [0usize; 3];
        for c in &mut counts {
            let at = r.pos();
            let v = r.i32()?;
            *c = usize::try_from(v)
                .map_err(|_| r.error_at(at, invalid("track list count", "a count ≥ 0", v)))?;
            r.check_count(at, "track list", *c, 4)?;
        }
        t.tags = (0..counts[0]).map(|_| r.i32()).collect::<Result<_>>()?;
        for _ in 0..counts[1] {
            let at = r.pos();
            let is_curve = peek_string_text(r) == Some(b"GMAnimCurve".as_slice());
            let s = r.string()?;
            if !is_curve {
                return Err(r.error_at(
                    at,
                    invalid("owned resource", "the string GMAnimCurve", "another string"),
                ));
            }
            t.owned_curves.push((s, AnimCurve::read(r)?));
        }
        for _ in 0..counts[2] {
            t.sub_tracks.push(Track::read(r)?);
        }
        if kind != Kind::None {
            r.align(4)?;
            let interpolation = if matches!(kind, Kind::Real | Kind::Colour) {
                Some(r.i32()?)
            } else {
                None
            };
            let list = read_keyframe_list(r, |r| read_data(r, kind))?;
            t.keyframes = Some(Keyframes {
                interpolation,
                list,
            });
        }
        r.leave();
        Ok(t)
    }

    /// Writes a track.
    pub(crate) fn write(&self, w: &mut Writer) -> Result<()> {
        w.string(self.model);
        w.string(self.name);
        w.i32(self.builtin_name);
        w.i32(self.traits);
        w.bool32(self.creation_track);
        w.i32(self.tags.len() as i32);
        w.i32(self.owned_curves.len() as i32);
        w.i32(self.sub_tracks.len() as i32);
        for &t in &self.tags {
            w.i32(t);
        }
        for (s, c) in &self.owned_curves {
            w.string(*s);
            c.write(w);
        }
        for t in &self.sub_tracks {
            t.write(w)?;
        }
        if let Some(k) = &self.keyframes {
            w.align(4);
            if let Some(i) = k.interpolation {
                w.i32(i);
            }
            write_keyframe_list(w, &k.list, write_data)?;
        }
        Ok(())
    }
}

fn peek_text_lossy(r: &Reader, at: usize) -> String {
    let file = r.file();
    let get = || -> Option<String> {
        let p = u32::from_le_bytes(file.get(at..at + 4)?.try_into().ok()?) as usize;
        let len = u32::from_le_bytes(file.get(p.checked_sub(4)?..p)?.try_into().ok()?) as usize;
        Some(String::from_utf8_lossy(file.get(p..p.checked_add(len)?)?).into_owned())
    };
    get().unwrap_or_else(|| "an unreadable string".into())
}
