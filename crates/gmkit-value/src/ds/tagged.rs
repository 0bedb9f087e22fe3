//! The tagged JSON form of [`DsValue`] and [`DsData`].
//!
//! A structure is a single-key object, as in the ds_* test vectors:
//! `{"map": [[k, v], ...]}`, `{"list": [...]}`, `{"stack": [...]}` (bottom first),
//! `{"queue": [...]}` (head first), `{"priority": [[priority, value], ...]}`,
//! `{"grid": {"width": w, "height": h, "cells": [[cell(0,0), cell(0,1), ...], ...]}}`
//! (`cells[x][y]`; `[]` for a grid with no cells), with values in the tagged form of
//! [`crate::json`]. Arrays may nest 256 deep, the format's limit.
//!
//! [`DsData`] adds its layout as extra keys, present only when they differ from the default:
//! `"generation": "legacy"`, `"cesu8": true`, `"magic": 601` (an older grid magic), and for a
//! native queue
//! `"queue_slots": {"before": [...], "after": [...]}`.

use super::{DsData, DsKind, DsValue, Generation, Grid, QueueSlots};
use crate::Value;
use crate::json::{
    TaggedJsonError, expect_array, pairs_from_json_max, value_to_tagged_json, values_from_json_max,
};

/// Deepest array nesting the tagged form of a ds_* structure may hold: the format's own limit
/// ([`MAX_WRITE_DEPTH`](super::record::MAX_WRITE_DEPTH), also the reader's default).
const DS_MAX_DEPTH: usize = super::record::MAX_WRITE_DEPTH;

fn values_from_json(j: &Json, depth: usize) -> Result<Vec<Value>, TaggedJsonError> {
    values_from_json_max(j, depth, DS_MAX_DEPTH)
}

fn pairs_from_json(j: &Json, depth: usize) -> Result<Vec<(Value, Value)>, TaggedJsonError> {
    pairs_from_json_max(j, depth, DS_MAX_DEPTH)
}
use serde_json::{Map, Value as Json, json};

fn list(items: &[Value]) -> Json {
    Json::Array(items.iter().map(value_to_tagged_json).collect())
}

fn pairs(items: &[(Value, Value)]) -> Json {
    Json::Array(
        items
            .iter()
            .map(|(k, v)| json!([value_to_tagged_json(k), value_to_tagged_json(v)]))
            .collect(),
    )
}

/// The tagged JSON of a structure's contents.
///
/// ```
/// use gmkit_value::{Value, ds::{ds_value_to_tagged_json, DsValue}};
/// let j = ds_value_to_tagged_json(&DsValue::List(vec![Value::Real(3.0)]));
/// assert_eq!(j.to_string(), r#"{"list":[{"real":3}]}"#);
/// ```
pub fn ds_value_to_tagged_json(v: &DsValue) -> Json {
    let body = match v {
        DsValue::Map(p) | DsValue::Priority(p) => pairs(p),
        DsValue::List(items) | DsValue::Queue(items) | DsValue::Stack(items) => list(items),
        DsValue::Grid(g) => {
            // A grid without cells lists no columns: its width alone costs no bytes in the
            // data, so listing `width` empty columns would let 24 hex characters expand without
            // bound.
            let cols: Vec<Json> = if g.cells().is_empty() {
                Vec::new()
            } else {
                (0..g.width())
                    .map(|x| list(g.column(x).unwrap_or_default()))
                    .collect()
            };
            json!({"width": g.width(), "height": g.height(), "cells": cols})
        }
    };
    let mut m = Map::new();
    m.insert(v.kind().name().to_owned(), body);
    Json::Object(m)
}

/// The tagged JSON of decoded data: the contents plus any non-default layout keys.
pub fn ds_data_to_tagged_json(d: &DsData) -> Json {
    let mut j = ds_value_to_tagged_json(&d.value);
    if let Json::Object(m) = &mut j {
        if d.generation == Generation::Legacy {
            m.insert("generation".into(), json!("legacy"));
        }
        if d.cesu8 {
            m.insert("cesu8".into(), json!(true));
        }
        if let Some(magic) = d.magic {
            m.insert("magic".into(), json!(magic));
        }
        if let Some(s) = &d.queue_slots {
            m.insert(
                "queue_slots".into(),
                json!({"before": list(&s.before), "after": list(&s.after)}),
            );
        }
    }
    j
}

const LAYOUT_KEYS: [&str; 4] = ["generation", "cesu8", "queue_slots", "magic"];
const EXPECTED: &str = "a ds_* structure: an object with one of the keys map, list, grid, queue, \
                        stack, priority";

fn split(j: &Json) -> Result<(DsKind, &Json, &Map<String, Json>), TaggedJsonError> {
    let m = j
        .as_object()
        .ok_or_else(|| TaggedJsonError::new(EXPECTED, j))?;
    let mut found = None;
    for (k, v) in m {
        if LAYOUT_KEYS.contains(&k.as_str()) {
            continue;
        }
        match (k.parse::<DsKind>(), found) {
            (Ok(kind), None) if kind.name() == k => found = Some((kind, v)),
            _ => {
                return Err(TaggedJsonError::new(
                    format!("{EXPECTED} and optionally generation, cesu8, queue_slots, magic"),
                    &json!(k),
                ));
            }
        }
    }
    let (kind, body) = found.ok_or_else(|| TaggedJsonError::new(EXPECTED, j))?;
    Ok((kind, body, m))
}

fn body_from_json(kind: DsKind, body: &Json) -> Result<DsValue, TaggedJsonError> {
    let v = match kind {
        DsKind::Map => DsValue::Map(pairs_from_json(body, 0)?),
        DsKind::Priority => DsValue::Priority(pairs_from_json(body, 0)?),
        DsKind::List => DsValue::List(values_from_json(body, 0)?),
        DsKind::Queue => DsValue::Queue(values_from_json(body, 0)?),
        DsKind::Stack => DsValue::Stack(values_from_json(body, 0)?),
        DsKind::Grid => DsValue::Grid(grid_from_json(body)?),
    };
    Ok(v)
}

fn grid_from_json(body: &Json) -> Result<Grid, TaggedJsonError> {
    let dim = |name: &str| {
        body.get(name)
            .and_then(Json::as_u64)
            .and_then(|n| usize::try_from(n).ok())
            .ok_or_else(|| TaggedJsonError::new(format!("a \"{name}\" integer >= 0"), body))
    };
    let (width, height) = (dim("width")?, dim("height")?);
    let cells = body
        .get("cells")
        .ok_or_else(|| TaggedJsonError::new("a \"cells\" list of columns", body))?;
    let cols = expect_array(cells, "a list of columns").map_err(|e| e.at_key("cells"))?;
    if cols.is_empty() && width.checked_mul(height) == Some(0) {
        return Ok(Grid::from_cells(width, height, Vec::new()).expect("no cells"));
    }
    if cols.len() != width {
        return Err(TaggedJsonError::new(
            format!("{width} columns (the width)"),
            &json!(format!("{} columns", cols.len())),
        )
        .at_key("cells"));
    }
    let columns = cols
        .iter()
        .enumerate()
        .map(|(x, c)| {
            let col = values_from_json(c, 0).map_err(|e| e.at_index(x).at_key("cells"))?;
            if col.len() != height {
                return Err(TaggedJsonError::new(
                    format!("{height} cells (the height)"),
                    &json!(format!("{} cells", col.len())),
                )
                .at_index(x)
                .at_key("cells"));
            }
            Ok(col)
        })
        .collect::<Result<Vec<_>, _>>()?;
    Grid::from_columns(height, columns)
        .ok_or_else(|| TaggedJsonError::new("columns of equal height", body))
}

/// Reads a structure's contents from tagged JSON (layout keys are not allowed here).
pub fn ds_value_from_tagged_json(j: &Json) -> Result<DsValue, TaggedJsonError> {
    let (kind, body, m) = split(j)?;
    if m.len() != 1 {
        return Err(TaggedJsonError::new(EXPECTED, j));
    }
    body_from_json(kind, body).map_err(|e| e.at_key(kind.name()))
}

/// Reads decoded data (contents and layout keys) from tagged JSON.
///
/// ```
/// use gmkit_value::ds::{self, ds_data_from_tagged_json, ds_data_to_tagged_json};
/// let hex = "CB000000030000000000000004000000000000000000000000005940000000000000000000006940\
///            000000000000000000C07240000000000000000000000000";
/// let d = ds::decode(hex, None)?;
/// let j = ds_data_to_tagged_json(&d);
/// assert!(j.get("queue_slots").is_some());
/// assert_eq!(ds::encode(&ds_data_from_tagged_json(&j).unwrap())?, hex);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn ds_data_from_tagged_json(j: &Json) -> Result<DsData, TaggedJsonError> {
    let (kind, body, m) = split(j)?;
    let value = body_from_json(kind, body).map_err(|e| e.at_key(kind.name()))?;
    let generation = match m.get("generation") {
        None => Generation::Current,
        Some(g) => match g.as_str() {
            Some("legacy") => Generation::Legacy,
            Some("current") => Generation::Current,
            _ => {
                return Err(
                    TaggedJsonError::new("\"legacy\" or \"current\"", g).at_key("generation")
                );
            }
        },
    };
    let cesu8 = match m.get("cesu8") {
        None => false,
        Some(b) => b
            .as_bool()
            .ok_or_else(|| TaggedJsonError::new("true or false", b).at_key("cesu8"))?,
    };
    let queue_slots = match m.get("queue_slots") {
        None => None,
        Some(_) if kind != DsKind::Queue => {
            return Err(TaggedJsonError::new(
                "queue_slots only on a queue",
                &json!(kind.name()),
            ));
        }
        Some(q) => {
            let part = |name: &str| -> Result<Vec<Value>, TaggedJsonError> {
                match q.get(name) {
                    None => Ok(Vec::new()),
                    Some(p) => values_from_json(p, 0).map_err(|e| e.at_key(name)),
                }
            };
            let s = QueueSlots {
                before: part("before").map_err(|e| e.at_key("queue_slots"))?,
                after: part("after").map_err(|e| e.at_key("queue_slots"))?,
            };
            Some(s)
        }
    };
    let magic = match m.get("magic") {
        None => None,
        Some(j) => {
            let ok = j
                .as_u64()
                .and_then(|n| u32::try_from(n).ok())
                .filter(|&n| super::DsKind::from_magic(n) == Some((kind, generation)));
            Some(ok.ok_or_else(|| {
                TaggedJsonError::new(
                    format!(
                        "a magic word of a {} grid of this generation (601)",
                        kind.name()
                    ),
                    j,
                )
                .at_key("magic")
            })?)
        }
    };
    Ok(DsData {
        value,
        generation,
        cesu8,
        queue_slots,
        magic,
    })
}
