//! `PATH`: paths (point lists that instances can follow).
//!
//! Layout: a pointer list of paths; path = name, bool32 smooth, bool32 closed, u32 precision,
//! simple list of points (f32 x, y, speed).

use crate::chunk::{Chunk, ChunkName};
use crate::error::Result;
use crate::read::Reader;
use crate::refs::StringRef;
use crate::version::{Detect, Version};
use crate::write::Writer;

/// One point of a path.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct PathPoint {
    /// X position.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::float"))]
    pub x: f32,
    /// Y position.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::float"))]
    pub y: f32,
    /// Speed factor at this point.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::float"))]
    pub speed: f32,
}

/// A path asset.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Path {
    /// Asset name.
    pub name: StringRef,
    /// Whether the path is a smooth curve (else straight segments).
    pub smooth: bool,
    /// Whether the path is closed.
    pub closed: bool,
    /// Curve precision (1–8).
    pub precision: u32,
    /// The points.
    pub points: Vec<PathPoint>,
}

/// The `PATH` chunk.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Paths {
    /// The paths (`None`: stripped asset, 2024.11+).
    pub paths: Vec<Option<Path>>,
}

impl Path {
    fn read(r: &mut Reader) -> Result<Self> {
        let mut f = r.fields::<16>("path")?;
        let name = f.string()?;
        let smooth = f.bool32()?;
        let closed = f.bool32()?;
        let precision = f.u32();
        let n = r.count("path point", 12)?;
        let points = r
            .bytes_ref(n * 12, "path point")?
            .chunks_exact(12)
            .map(|p| PathPoint {
                x: f32::from_le_bytes([p[0], p[1], p[2], p[3]]),
                y: f32::from_le_bytes([p[4], p[5], p[6], p[7]]),
                speed: f32::from_le_bytes([p[8], p[9], p[10], p[11]]),
            })
            .collect();
        Ok(Path {
            name,
            smooth,
            closed,
            precision,
            points,
        })
    }

    fn write(&self, w: &mut Writer) {
        w.string(self.name);
        w.bool32(self.smooth);
        w.bool32(self.closed);
        w.u32(self.precision);
        w.u32(self.points.len() as u32);
        for p in &self.points {
            w.f32(p.x);
            w.f32(p.y);
            w.f32(p.speed);
        }
    }
}

impl Chunk for Paths {
    const NAME: ChunkName = ChunkName(*b"PATH");

    fn read(r: &mut Reader) -> Result<Self> {
        let paths = r.pointer_list_elements("path", Path::read)?;
        r.check_nulls("path pointer", &paths)?;
        Ok(Paths { paths })
    }

    fn write(&self, w: &mut Writer) -> Result<()> {
        w.pointer_list(
            &self.paths,
            |_| {},
            |w, p| {
                p.write(w);
                Ok(())
            },
        )
    }
}

/// No layout checks in PATH.
pub(crate) fn detect(_d: &Detect, _v: &mut Version) {}
