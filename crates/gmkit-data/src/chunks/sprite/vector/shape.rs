//! The shapes of a vector sprite: tessellated SVG artwork, ready to draw.
//!
//! Layout (public notes, checked against every vector sprite of the corpus): zero padding to 4;
//! `i32` shape version (3 or 4); `f32` bounds min X, max X, min Y, max Y; `u32` style group count
//! and the groups. A style group: `u32` fill count, line style count, sub-shape count, then the
//! fills, the line styles and the sub-shapes. A fill: `i32` type (1 solid: RGBA bytes; 2
//! gradient: `i32` gradient type, `i32` texture entry, 9 `f32` matrix, `u32` record count, each
//! record `i32` ratio + RGBA bytes; 3 bitmap: `i32` bitmap fill type, `i32` character id, 9 `f32`
//! matrix). A line style: RGBA bytes. A sub-shape: `i32` fill style 1, fill style 2, line style;
//! ten `u32` counts (points, point colours, 0, triangles, 0, 0, anti-alias lines, anti-alias
//! vectors, 0, 0: the zeros are lists the format reserves and no file fills, so they must be 0);
//! then the points (`f32` x, y), the point colours (`u32`), the triangles (3 `i32` point
//! indices each), the anti-alias lines (2 `i32` each) and the anti-alias vectors (`f32` x, y).
//!
//! No absolute pointer occurs inside a shape, so shapes move freely.

use crate::error::{Result, invalid};
use crate::read::Reader;
use crate::write::Writer;

/// A colour stored as four bytes: red, green, blue, alpha.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Rgba(pub [u8; 4]);

/// A 3×3 transformation matrix, row by row.
pub type Matrix = [f32; 9];

/// One shape of a vector sprite (a frame's artwork).
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct VectorShape {
    /// Shape data version (3 or 4).
    pub version: i32,
    /// Bounds: minimum X.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::float"))]
    pub min_x: f32,
    /// Bounds: maximum X.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::float"))]
    pub max_x: f32,
    /// Bounds: minimum Y.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::float"))]
    pub min_y: f32,
    /// Bounds: maximum Y.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::float"))]
    pub max_y: f32,
    /// The style groups, drawn in order.
    pub style_groups: Vec<StyleGroup>,
}

/// Fills and line styles, and the sub-shapes that use them (by index).
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct StyleGroup {
    /// Fill styles.
    pub fills: Vec<Fill>,
    /// Line styles (a colour each).
    pub line_styles: Vec<Rgba>,
    /// The tessellated sub-shapes.
    pub sub_shapes: Vec<SubShape>,
}

/// A fill style.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Fill {
    /// Type 1: one colour.
    Solid(Rgba),
    /// Type 2: a linear or radial gradient.
    Gradient(GradientFill),
    /// Type 3: a bitmap.
    Bitmap(BitmapFill),
}

/// A gradient fill.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct GradientFill {
    /// Gradient type (0 linear, 1 radial).
    pub kind: i32,
    /// Texture entry index of the pre-rendered gradient (-1 = none; stored since 2022.1, so
    /// always, vector sprites being 2024.13+).
    pub texture_entry: i32,
    /// Gradient transformation.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::float"))]
    pub matrix: Matrix,
    /// Colour stops.
    pub records: Vec<GradientRecord>,
}

/// One colour stop of a gradient.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct GradientRecord {
    /// Position along the gradient (0–255).
    pub ratio: i32,
    /// Colour at that position.
    pub colour: Rgba,
}

/// A bitmap fill.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BitmapFill {
    /// Bitmap fill type (0 repeat, 1 clamp, 2 repeat point, 3 clamp point).
    pub kind: i32,
    /// Character id of the bitmap.
    pub char_id: i32,
    /// Bitmap transformation.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::float"))]
    pub matrix: Matrix,
}

/// A tessellated sub-shape: triangles over points, with anti-aliasing edges.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct SubShape {
    /// First fill style (index into the group's fills, -1 = none).
    pub fill_style_1: i32,
    /// Second fill style (-1 = none).
    pub fill_style_2: i32,
    /// Line style (index into the group's line styles, -1 = none).
    pub line_style: i32,
    /// Vertices (x, y).
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::float"))]
    pub points: Vec<[f32; 2]>,
    /// Per-vertex colours (empty, or one per point).
    pub point_colours: Vec<u32>,
    /// Triangles (three point indices each).
    pub triangles: Vec<[i32; 3]>,
    /// Anti-aliasing edge lines (two indices each).
    pub aa_lines: Vec<[i32; 2]>,
    /// Anti-aliasing vectors (x, y).
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::float"))]
    pub aa_vectors: Vec<[f32; 2]>,
}

/// Fill type numbers.
const FILL_SOLID: i32 = 1;
const FILL_GRADIENT: i32 = 2;
const FILL_BITMAP: i32 = 3;

/// Positions (0-based) of the sub-shape counts that must be 0.
const RESERVED_COUNTS: [usize; 5] = [2, 4, 5, 8, 9];

fn rgba(r: &mut Reader) -> Result<Rgba> {
    Ok(Rgba(*r.array::<4>("colour")?))
}

fn matrix(r: &mut Reader) -> Result<Matrix> {
    let mut m = [0.0; 9];
    for x in &mut m {
        *x = r.f32()?;
    }
    Ok(m)
}

fn write_matrix(w: &mut Writer, m: &Matrix) {
    for &x in m {
        w.f32(x);
    }
}

fn len(w: &Writer, n: usize) -> Result<u32> {
    super::super::spine::u32_len(w, n)
}

impl VectorShape {
    /// Reads one shape (after its alignment).
    pub(crate) fn read(r: &mut Reader) -> Result<Self> {
        r.align(4)?;
        let at = r.pos();
        let version = r.i32()?;
        if !(3..=4).contains(&version) {
            return Err(r.error_at(at, invalid("vector shape version", "3 or 4", version)));
        }
        let (min_x, max_x, min_y, max_y) = (r.f32()?, r.f32()?, r.f32()?, r.f32()?);
        let n = r.count("vector style group", 12)?;
        let mut style_groups = Vec::with_capacity(n);
        for _ in 0..n {
            style_groups.push(StyleGroup::read(r)?);
        }
        Ok(VectorShape {
            version,
            min_x,
            max_x,
            min_y,
            max_y,
            style_groups,
        })
    }

    /// Writes the shape (after zero padding to 4).
    pub(crate) fn write(&self, w: &mut Writer) -> Result<()> {
        w.align(4);
        w.i32(self.version);
        for x in [self.min_x, self.max_x, self.min_y, self.max_y] {
            w.f32(x);
        }
        w.u32(len(w, self.style_groups.len())?);
        for g in &self.style_groups {
            g.write(w)?;
        }
        Ok(())
    }
}

impl StyleGroup {
    fn read(r: &mut Reader) -> Result<Self> {
        let (fills_at, lines_at, subs_at) = (r.pos(), r.pos() + 4, r.pos() + 8);
        let (nf, nl, ns) = (r.u32()? as usize, r.u32()? as usize, r.u32()? as usize);
        // Each fill takes at least 8 bytes, each line style 4, each sub-shape 52.
        r.check_count(fills_at, "vector fill", nf, 8)?;
        let mut fills = Vec::with_capacity(nf);
        for _ in 0..nf {
            fills.push(Fill::read(r)?);
        }
        r.check_count(lines_at, "vector line style", nl, 4)?;
        let mut line_styles = Vec::with_capacity(nl);
        for _ in 0..nl {
            line_styles.push(rgba(r)?);
        }
        r.check_count(subs_at, "vector sub-shape", ns, 52)?;
        let mut sub_shapes = Vec::with_capacity(ns);
        for _ in 0..ns {
            sub_shapes.push(SubShape::read(r)?);
        }
        Ok(StyleGroup {
            fills,
            line_styles,
            sub_shapes,
        })
    }

    fn write(&self, w: &mut Writer) -> Result<()> {
        w.u32(len(w, self.fills.len())?);
        w.u32(len(w, self.line_styles.len())?);
        w.u32(len(w, self.sub_shapes.len())?);
        for f in &self.fills {
            f.write(w)?;
        }
        for l in &self.line_styles {
            w.bytes(&l.0);
        }
        for s in &self.sub_shapes {
            s.write(w)?;
        }
        Ok(())
    }
}

impl Fill {
    /// The type number stored for this fill.
    pub fn type_number(&self) -> i32 {
        match self {
            Fill::Solid(_) => FILL_SOLID,
            Fill::Gradient(_) => FILL_GRADIENT,
            Fill::Bitmap(_) => FILL_BITMAP,
        }
    }

    fn read(r: &mut Reader) -> Result<Self> {
        let at = r.pos();
        Ok(match r.i32()? {
            FILL_SOLID => Fill::Solid(rgba(r)?),
            FILL_GRADIENT => {
                let kind = r.i32()?;
                let texture_entry = r.i32()?;
                let matrix = matrix(r)?;
                let n = r.count("vector gradient record", 8)?;
                let mut records = Vec::with_capacity(n);
                for _ in 0..n {
                    records.push(GradientRecord {
                        ratio: r.i32()?,
                        colour: rgba(r)?,
                    });
                }
                Fill::Gradient(GradientFill {
                    kind,
                    texture_entry,
                    matrix,
                    records,
                })
            }
            FILL_BITMAP => Fill::Bitmap(BitmapFill {
                kind: r.i32()?,
                char_id: r.i32()?,
                matrix: matrix(r)?,
            }),
            t => {
                return Err(r.error_at(
                    at,
                    invalid("vector fill type", "1 solid, 2 gradient or 3 bitmap", t),
                ));
            }
        })
    }

    fn write(&self, w: &mut Writer) -> Result<()> {
        w.i32(self.type_number());
        match self {
            Fill::Solid(c) => w.bytes(&c.0),
            Fill::Gradient(g) => {
                w.i32(g.kind);
                w.i32(g.texture_entry);
                write_matrix(w, &g.matrix);
                w.u32(len(w, g.records.len())?);
                for rec in &g.records {
                    w.i32(rec.ratio);
                    w.bytes(&rec.colour.0);
                }
            }
            Fill::Bitmap(b) => {
                w.i32(b.kind);
                w.i32(b.char_id);
                write_matrix(w, &b.matrix);
            }
        }
        Ok(())
    }
}

impl SubShape {
    fn read(r: &mut Reader) -> Result<Self> {
        let mut s = SubShape {
            fill_style_1: r.i32()?,
            fill_style_2: r.i32()?,
            line_style: r.i32()?,
            ..Default::default()
        };
        let counts_at = r.pos();
        let mut counts = [0usize; 10];
        for c in &mut counts {
            *c = r.u32()? as usize;
        }
        for i in RESERVED_COUNTS {
            if counts[i] != 0 {
                return Err(r.error_at(
                    counts_at + 4 * i,
                    invalid("vector sub-shape reserved count", 0, counts[i]),
                ));
            }
        }
        let field = |i: usize| counts_at + 4 * i;
        r.check_count(field(0), "vector point", counts[0], 8)?;
        s.points = (0..counts[0])
            .map(|_| Ok([r.f32()?, r.f32()?]))
            .collect::<Result<_>>()?;
        r.check_count(field(1), "vector point colour", counts[1], 4)?;
        s.point_colours = (0..counts[1]).map(|_| r.u32()).collect::<Result<_>>()?;
        r.check_count(field(3), "vector triangle", counts[3], 12)?;
        s.triangles = (0..counts[3])
            .map(|_| Ok([r.i32()?, r.i32()?, r.i32()?]))
            .collect::<Result<_>>()?;
        r.check_count(field(6), "vector anti-alias line", counts[6], 8)?;
        s.aa_lines = (0..counts[6])
            .map(|_| Ok([r.i32()?, r.i32()?]))
            .collect::<Result<_>>()?;
        r.check_count(field(7), "vector anti-alias vector", counts[7], 8)?;
        s.aa_vectors = (0..counts[7])
            .map(|_| Ok([r.f32()?, r.f32()?]))
            .collect::<Result<_>>()?;
        Ok(s)
    }

    fn write(&self, w: &mut Writer) -> Result<()> {
        w.i32(self.fill_style_1);
        w.i32(self.fill_style_2);
        w.i32(self.line_style);
        let mut counts = [0u32; 10];
        counts[0] = len(w, self.points.len())?;
        counts[1] = len(w, self.point_colours.len())?;
        counts[3] = len(w, self.triangles.len())?;
        counts[6] = len(w, self.aa_lines.len())?;
        counts[7] = len(w, self.aa_vectors.len())?;
        for c in counts {
            w.u32(c);
        }
        for p in &self.points {
            w.f32(p[0]);
            w.f32(p[1]);
        }
        for &c in &self.point_colours {
            w.u32(c);
        }
        for t in &self.triangles {
            for &i in t {
                w.i32(i);
            }
        }
        for l in &self.aa_lines {
            w.i32(l[0]);
            w.i32(l[1]);
        }
        for v in &self.aa_vectors {
            w.f32(v[0]);
            w.f32(v[1]);
        }
        Ok(())
    }
}
