//! Structure layouts: the magic word, each structure's header and the order of its records.
//!
//! | structure | header | records |
//! |---|---|---|
//! | list | u32 n | n items |
//! | stack | u32 n | n items, bottom first |
//! | map | u32 n | n × (key, value) |
//! | priority | u32 n | n priorities, then n values |
//! | grid | u32 width, u32 height | width × height cells, column-major |
//! | queue | u32 last, u32 first, u32 slots | `slots` records; live items are `[first, last)` |

use super::record::{MIN_RECORD, Reader, Writer};
use super::{DecodeOptions, DsData, DsError, DsKind, DsValue, EncodeError, Grid, QueueSlots};
use crate::Value;
use std::collections::HashMap;

/// Reads a whole structure from its byte stream.
pub(crate) fn read(
    bytes: &[u8],
    want: Option<DsKind>,
    opts: &DecodeOptions,
) -> Result<DsData, DsError> {
    let mut r = Reader::new(bytes, opts);
    let magic = r.u32("magic word")?;
    let (kind, generation) = match (DsKind::from_magic(magic), want) {
        (Some((k, g)), None) => (k, g),
        (Some((k, g)), Some(w)) if k == w => (k, g),
        (_, Some(w)) => {
            return Err(DsError::BadMagic {
                expected: format!(
                    "{} (legacy {w}) or {} ({w})",
                    w.magic(super::Generation::Legacy),
                    w.magic(super::Generation::Current)
                ),
                found: magic,
            });
        }
        (None, None) => {
            return Err(DsError::BadMagic {
                expected: "a ds_* magic word: 102/103 stack, 202/203 queue, 302/303 list, \
                           402/403 map, 502/503 priority or 601/602/603 grid"
                    .into(),
                found: magic,
            });
        }
    };
    r.set_generation(generation);
    let mut queue_slots = None;
    let value = match kind {
        DsKind::List => DsValue::List(read_items(&mut r, "list count")?),
        DsKind::Stack => DsValue::Stack(read_items(&mut r, "stack count")?),
        DsKind::Map => DsValue::Map(read_map(&mut r)?),
        DsKind::Priority => DsValue::Priority(read_priority(&mut r)?),
        DsKind::Grid => DsValue::Grid(read_grid(&mut r)?),
        DsKind::Queue => {
            let (items, slots) = read_queue(&mut r)?;
            queue_slots = slots;
            DsValue::Queue(items)
        }
    };
    if opts.reject_trailing && r.remaining() > 0 {
        return Err(DsError::Trailing {
            count: r.remaining(),
            offset: r.pos(),
        });
    }
    Ok(DsData {
        value,
        generation,
        cesu8: r.saw_cesu8(),
        queue_slots,
        magic: (magic != kind.magic(generation)).then_some(magic),
    })
}

fn read_items(r: &mut Reader, what: &'static str) -> Result<Vec<Value>, DsError> {
    let n = r.count(what, MIN_RECORD)?;
    r.values(n)
}

fn read_map(r: &mut Reader) -> Result<Vec<(Value, Value)>, DsError> {
    let n = r.count("map count", 2 * MIN_RECORD)?;
    let mut pairs: Vec<(Value, Value)> = Vec::with_capacity(n);
    let html5 = r.opts().html5_compat;
    // HTML5's ds_map_add overwrites: the last duplicate wins, at the first's position.
    // Keys are indexed by a canonical form so that this stays linear.
    let mut index: HashMap<KeyId, usize> = HashMap::new();
    for _ in 0..n {
        let k = r.value()?;
        let v = r.value()?;
        if html5 {
            let id = KeyId::of(&k);
            if let Some(slot) = index.get(&id).and_then(|&i| pairs.get_mut(i)) {
                slot.1 = v;
                continue;
            }
            index.insert(id, pairs.len());
        }
        pairs.push((k, v));
    }
    Ok(pairs)
}

/// A hashable identity of a map key (equal ids ⇔ equal values).
#[derive(PartialEq, Eq, Hash)]
enum KeyId {
    Str(String),
    Bits(u8, u64),
    /// Arrays: their tagged JSON text, which is canonical (reals by their exact bits).
    Other(String),
}

impl KeyId {
    fn of(v: &Value) -> KeyId {
        match v {
            Value::String(s) => KeyId::Str(s.clone()),
            Value::Real(r) => KeyId::Bits(0, r.to_bits()),
            Value::Bool(b) => KeyId::Bits(1, (*b).into()),
            Value::Int32(i) => KeyId::Bits(2, *i as u64),
            Value::Int64(i) => KeyId::Bits(3, *i as u64),
            Value::Ptr(p) => KeyId::Bits(4, *p),
            Value::Undefined => KeyId::Bits(5, 0),
            other => KeyId::Other(crate::json::value_to_tagged_json(other).to_string()),
        }
    }
}

fn read_priority(r: &mut Reader) -> Result<Vec<(Value, Value)>, DsError> {
    let n = r.count("priority count", 2 * MIN_RECORD)?;
    let priorities = r.values(n)?;
    let values = r.values(n)?;
    Ok(priorities.into_iter().zip(values).collect())
}

fn read_grid(r: &mut Reader) -> Result<Grid, DsError> {
    let offset = r.pos();
    let width = r.signed_count("grid width")?;
    let height = r.signed_count("grid height")?;
    let cells = (width as u64) * (height as u64);
    r.check_fits(
        "grid cell count (width × height)",
        cells,
        MIN_RECORD,
        offset,
    )?;
    let cells = r.values(cells as usize)?;
    Grid::from_cells(width, height, cells).ok_or(DsError::CountTooLarge {
        what: "grid cell count (width × height)",
        count: u64::MAX,
        max: 0,
        remaining: 0,
        offset,
    })
}

fn read_queue(r: &mut Reader) -> Result<(Vec<Value>, Option<QueueSlots>), DsError> {
    let offset = r.pos();
    let last = r.u32("queue last")? as i32;
    let first = r.u32("queue first")? as i32;
    let slots = r.u32("queue slot count")? as i32;
    let header_ok = 0 <= first && first <= last && last <= slots;
    if !header_ok {
        return Err(DsError::BadQueueHeader {
            last: last.into(),
            first: first.into(),
            slots: slots.into(),
            offset,
        });
    }
    let (first, last, slots) = (first as usize, last as usize, slots as usize);
    r.check_fits("queue slot count", slots as u64, MIN_RECORD, offset + 8)?;
    let before = r.values(first)?;
    let items = r.values(last - first)?;
    let after = r.values(slots - last)?;
    let layout = (!before.is_empty() || !after.is_empty()).then_some(QueueSlots { before, after });
    Ok((items, layout))
}

/// Writes a whole structure.
pub(crate) fn write(w: &mut Writer, data: &DsData) -> Result<(), EncodeError> {
    let kind = data.value.kind();
    let magic = match data.magic {
        // A non-standard magic word is kept while writing the generation it was read with.
        Some(m)
            if w.generation() == data.generation
                && DsKind::from_magic(m) == Some((kind, data.generation)) =>
        {
            m
        }
        _ => kind.magic(w.generation()),
    };
    w.u32(magic);
    match &data.value {
        DsValue::List(items) => write_items(w, "list", items),
        DsValue::Stack(items) => write_items(w, "stack", items),
        DsValue::Map(pairs) => {
            w.count(pairs.len())?;
            for (i, (k, v)) in pairs.iter().enumerate() {
                w.at = ("map key", i);
                w.value(k)?;
                w.at = ("map value", i);
                w.value(v)?;
            }
            Ok(())
        }
        DsValue::Priority(pairs) => {
            w.count(pairs.len())?;
            for (i, (p, _)) in pairs.iter().enumerate() {
                w.at = ("priority", i);
                w.value(p)?;
            }
            for (i, (_, v)) in pairs.iter().enumerate() {
                w.at = ("priority value", i);
                w.value(v)?;
            }
            Ok(())
        }
        DsValue::Grid(g) => {
            w.count(g.width())?;
            w.count(g.height())?;
            for (i, c) in g.cells().iter().enumerate() {
                w.at = ("grid cell", i);
                w.value(c)?;
            }
            Ok(())
        }
        DsValue::Queue(items) => {
            let empty = QueueSlots::default();
            let slots = match &data.queue_slots {
                Some(s) if !w.html5() => s,
                _ => &empty,
            };
            let first = slots.before.len();
            let last = first.saturating_add(items.len());
            w.count(last)?;
            w.count(first)?;
            w.count(last.saturating_add(slots.after.len()))?;
            for (name, part) in [
                ("queue slot", &slots.before),
                ("queue", items),
                ("queue slot", &slots.after),
            ] {
                for (i, v) in part.iter().enumerate() {
                    w.at = (name, i);
                    w.value(v)?;
                }
            }
            Ok(())
        }
    }
}

fn write_items(w: &mut Writer, name: &'static str, items: &[Value]) -> Result<(), EncodeError> {
    w.count(items.len())?;
    for (i, v) in items.iter().enumerate() {
        w.at = (name, i);
        w.value(v)?;
    }
    Ok(())
}
