//! `TMLN`: timelines (actions run at given steps).
//!
//! Layout: a pointer list of timelines. Timeline: name; i32 moment count; per moment an i32 step
//! and a pointer to its action list; then the action lists (pointer lists of [`Action`]s, the
//! same record as object events).

use crate::chunk::{Chunk, ChunkName};
use crate::chunks::object::Action;
use crate::error::Result;
use crate::read::Reader;
use crate::refs::StringRef;
use crate::version::{Detect, Version};
use crate::write::Writer;

/// A moment of a timeline: the step it runs at and its actions.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Moment {
    /// Step number.
    pub step: i32,
    /// Actions run at that step.
    pub actions: Vec<Action>,
}

/// A timeline asset.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Timeline {
    /// Asset name.
    pub name: StringRef,
    /// The moments, in file order.
    pub moments: Vec<Moment>,
}

/// The `TMLN` chunk.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Timelines {
    /// The timelines (`None`: stripped asset, 2024.11+).
    pub timelines: Vec<Option<Timeline>>,
}

impl Timeline {
    fn read(r: &mut Reader) -> Result<Self> {
        let name = r.string()?;
        let at = r.pos();
        let n = r.i32()?;
        let n =
            usize::try_from(n).map_err(|_| r.invalid("moment count", "a non-negative count", n))?;
        r.check_count(at, "moment", n, 8)?;
        let mut heads = Vec::with_capacity(n);
        for _ in 0..n {
            let step = r.i32()?;
            let ptr_at = r.pos();
            let p = r.u32()?;
            heads.push((step, ptr_at, p));
        }
        let mut moments = Vec::with_capacity(n);
        for (i, (step, ptr_at, p)) in heads.into_iter().enumerate() {
            let prev = r.set_element("moment", i);
            if p == 0 {
                return Err(r.error_at(
                    ptr_at,
                    crate::error::invalid("moment action list pointer", "a non-null pointer", 0),
                ));
            }
            r.seek(p as usize)?;
            moments.push(Moment {
                step,
                actions: Action::read_list(r)?,
            });
            r.restore_element(prev);
        }
        Ok(Timeline { name, moments })
    }

    fn write(&self, w: &mut Writer) -> Result<()> {
        w.string(self.name);
        let n =
            i32::try_from(self.moments.len()).map_err(|_| w.unwritable("moments", "too many"))?;
        w.i32(n);
        let mut slots = Vec::with_capacity(self.moments.len());
        for m in &self.moments {
            w.i32(m.step);
            slots.push(w.pos());
            w.u32(0);
        }
        for (m, slot) in self.moments.iter().zip(slots) {
            let p = w.pos32();
            w.patch_u32(slot, p);
            Action::write_list(w, &m.actions)?;
        }
        Ok(())
    }
}

impl Chunk for Timelines {
    const NAME: ChunkName = ChunkName(*b"TMLN");

    fn read(r: &mut Reader) -> Result<Self> {
        let timelines = r.pointer_list_elements("timeline", Timeline::read)?;
        r.check_nulls("timeline pointer", &timelines)?;
        Ok(Timelines { timelines })
    }

    fn write(&self, w: &mut Writer) -> Result<()> {
        w.pointer_list(&self.timelines, |_| {}, |w, t| t.write(w))
    }
}

/// No layout checks in TMLN.
pub(crate) fn detect(_d: &Detect, _v: &mut Version) {}
