//! `ACRV` (2.3+): animation curves. The [`AnimCurve`] record is shared with sequence tracks,
//! which embed curves of their own.
//!
//! Layout: zero padding to 4, `u32` chunk version (1), pointer list of curves. Curve: name;
//! `u32` graph type; simple list of channels. Channel: name; `u32` curve type; `u32` iterations;
//! simple list of points: 12 bytes (X, value, a zero word) before 2.3.1, 24 bytes (X, value,
//! bezier x0, y0, x1, y1) from 2.3.1.

use crate::chunk::{Chunk, ChunkName};
use crate::error::Result;
use crate::read::Reader;
use crate::refs::StringRef;
use crate::version::{Detect, FormatVersion, Version};
use crate::write::Writer;

/// The `ACRV` chunk: animation curves.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct AnimCurves {
    /// Chunk format version (1).
    pub chunk_version: u32,
    /// The curves (`None`: null pointer of a stripped curve).
    pub curves: Vec<Option<AnimCurve>>,
}

/// An animation curve (an asset, or embedded in a sequence track).
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct AnimCurve {
    /// Curve name.
    pub name: StringRef,
    /// Graph type.
    pub graph_type: u32,
    /// Channels.
    pub channels: Vec<CurveChannel>,
}

/// One channel of a curve.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct CurveChannel {
    /// Channel name.
    pub name: StringRef,
    /// Curve type (linear, smooth, bezier).
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_values::kinds::curve_type"))]
    pub curve_type: u32,
    /// Iterations (smoothing resolution).
    pub iterations: u32,
    /// Points.
    pub points: Vec<CurvePoint>,
}

/// One point of a channel.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct CurvePoint {
    /// Position on the X axis.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::float"))]
    pub x: f32,
    /// Value.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::float"))]
    pub value: f32,
    /// 2.3.1+: bezier handles x0, y0, x1, y1. Before 2.3.1: `None`, and the record carries
    /// one word instead (see [`CurvePoint::pad`]).
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::float"))]
    pub bezier: Option<[f32; 4]>,
    /// Before 2.3.1: the third word of the point (0 in every known file), kept as read.
    pub pad: u32,
}

/// Placeholder name of curves stored without one.
const UNNAMED: StringRef = StringRef(u32::MAX);

/// Whether points carry bezier data (24-byte points).
fn has_bezier(v: &Version) -> bool {
    v.at_least_full(2, 3, 1, 0)
}

impl AnimCurve {
    /// Reads a curve record.
    pub(crate) fn read(r: &mut Reader) -> Result<Self> {
        let name = r.string()?;
        Self::read_body(r, name)
    }

    /// Reads a curve stored without its name (embedded in a keyframe); its `name` is then a
    /// placeholder (see [`AnimCurve::unnamed`]).
    pub(crate) fn read_unnamed(r: &mut Reader) -> Result<Self> {
        Self::read_body(r, UNNAMED)
    }

    fn read_body(r: &mut Reader, name: StringRef) -> Result<Self> {
        let graph_type = r.u32()?;
        let n = r.count("curve channel", 16)?;
        let bezier = has_bezier(r.version());
        let mut channels = Vec::with_capacity(n);
        for _ in 0..n {
            let mut c = CurveChannel {
                name: r.string()?,
                curve_type: r.u32()?,
                iterations: r.u32()?,
                points: Vec::new(),
            };
            let m = r.count("curve point", if bezier { 24 } else { 12 })?;
            c.points.reserve(m);
            for _ in 0..m {
                let x = r.f32()?;
                let value = r.f32()?;
                c.points.push(if bezier {
                    CurvePoint {
                        x,
                        value,
                        bezier: Some([r.f32()?, r.f32()?, r.f32()?, r.f32()?]),
                        pad: 0,
                    }
                } else {
                    CurvePoint {
                        x,
                        value,
                        bezier: None,
                        pad: r.u32()?,
                    }
                });
            }
            channels.push(c);
        }
        Ok(AnimCurve {
            name,
            graph_type,
            channels,
        })
    }

    /// Writes a curve record.
    pub(crate) fn write(&self, w: &mut Writer) {
        w.string(self.name);
        self.write_body(w);
    }

    /// Writes a curve without its name (embedded in a keyframe).
    pub(crate) fn write_unnamed(&self, w: &mut Writer) {
        self.write_body(w);
    }

    /// Whether this curve was stored without a name (embedded in a keyframe).
    pub fn unnamed(&self) -> bool {
        self.name == UNNAMED
    }

    fn write_body(&self, w: &mut Writer) {
        w.u32(self.graph_type);
        w.u32(self.channels.len() as u32);
        let bezier = has_bezier(w.version());
        for c in &self.channels {
            w.string(c.name);
            w.u32(c.curve_type);
            w.u32(c.iterations);
            w.u32(c.points.len() as u32);
            for p in &c.points {
                w.f32(p.x);
                w.f32(p.value);
                if bezier {
                    for v in p.bezier.unwrap_or_default() {
                        w.f32(v);
                    }
                } else {
                    w.u32(p.pad);
                }
            }
        }
    }
}

impl Chunk for AnimCurves {
    const NAME: ChunkName = ChunkName(*b"ACRV");

    fn read(r: &mut Reader) -> Result<Self> {
        r.align(4)?;
        let chunk_version = r.u32()?;
        let curves = r.pointer_list_elements("animation curve", AnimCurve::read)?;
        Ok(AnimCurves {
            chunk_version,
            curves,
        })
    }

    fn write(&self, w: &mut Writer) -> Result<()> {
        w.align(4);
        w.u32(self.chunk_version);
        w.pointer_list(
            &self.curves,
            |_| {},
            |w, c| {
                c.write(w);
                Ok(())
            },
        )
    }
}

/// 2.3.1: the first curve's first point carries bezier data (§1.3).
pub(crate) fn detect(d: &Detect, v: &mut Version) {
    if !v.at_least(2, 3) || has_bezier(v) {
        return;
    }
    if first_point_is_bezier(d) == Some(true) {
        v.raise(FormatVersion::new(2, 3, 1, 0));
    }
}

fn first_point_is_bezier(d: &Detect) -> Option<bool> {
    let (start, _) = d.chunk(b"ACRV")?;
    let base = start.next_multiple_of(4) + 4;
    let n = d.u32(base)?;
    // First non-null curve with a channel that has points.
    for i in 0..n.min(1024) as usize {
        let p = d.u32(base + 4 + 4 * i)? as usize;
        if p == 0 {
            continue;
        }
        let channels = d.u32(p + 8)?;
        let mut c = p + 12;
        if channels == 0 {
            continue;
        }
        let points = d.u32(c + 12)?;
        if points == 0 {
            continue;
        }
        c += 16;
        return Some(d.u32(c + 8)? != 0 || d.u32(c + 12)? == 0);
    }
    None
}
