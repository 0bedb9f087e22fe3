//! The legacy HTML5 JSON form: very old HTML5 builds stored maps and grids as JSON.
//!
//! Only taken when the input starts with `{` and [`DecodeOptions::json_fallback`] is set. Maps:
//! `{"key": value, ...}` → string keys in document order. Grids:
//! `{"width": W, "height": H, "body": [...]}` with `body` the flat cell list indexed
//! `x + y * W`. JSON values map naturally: numbers → real, strings, booleans → bool,
//! `null` → undefined, arrays → array, objects → struct. The other structures have no usable
//! JSON form in the runner and are rejected.

use super::{DecodeOptions, DsData, DsError, DsKind, DsValue, Grid};
use crate::Value;

pub(crate) fn decode(
    text: &str,
    kind: Option<DsKind>,
    opts: &DecodeOptions,
) -> Result<DsData, DsError> {
    if !opts.json_fallback {
        return Err(DsError::JsonNotEnabled {
            hint: "enable the legacy HTML5 JSON form (json_fallback / --html5) to read it",
        });
    }
    let kind = kind.ok_or(DsError::JsonNotEnabled {
        hint: "the JSON form has no magic word: give the structure kind (map or grid)",
    })?;
    let json_err = |expected: &str, found: String| DsError::Json {
        kind,
        expected: expected.to_owned(),
        found,
    };
    if !matches!(kind, DsKind::Map | DsKind::Grid) {
        return Err(json_err(
            "hex (only ds_map and ds_grid have a usable JSON form)",
            "'{'".into(),
        ));
    }
    let v: Value = serde_json::from_str(text)
        .map_err(|e| json_err("a valid JSON object", format!("a syntax error: {e}")))?;
    let fields = match &v {
        Value::Struct(s) => s.read().fields.clone(),
        other => return Err(json_err("a JSON object", other.type_name().into())),
    };
    let value = match kind {
        DsKind::Map => DsValue::Map(
            fields
                .into_iter()
                .map(|(k, v)| (Value::String(k), v))
                .collect(),
        ),
        _ => DsValue::Grid(grid(&fields).map_err(|(e, f)| json_err(e, f))?),
    };
    Ok(DsData::new(value))
}

fn grid(fields: &[(String, Value)]) -> Result<Grid, (&'static str, String)> {
    let get = |name: &str| fields.iter().find(|(k, _)| k == name).map(|(_, v)| v);
    let dim = |name: &'static str| -> Result<usize, (&'static str, String)> {
        match get(name) {
            Some(Value::Real(r)) if r.fract() == 0.0 && *r >= 0.0 && *r <= u32::MAX as f64 => {
                Ok(*r as usize)
            }
            other => Err((name, format!("{other:?}"))),
        }
    };
    let (w, h) = (dim("width")?, dim("height")?);
    let body = match get("body") {
        Some(Value::Array(a)) => a.read().clone(),
        other => return Err(("a \"body\" array", format!("{other:?}"))),
    };
    let n = w.checked_mul(h).filter(|&n| n == body.len()).ok_or((
        "a body of width × height cells",
        format!("{} cells", body.len()),
    ))?;
    // body is row-major (x + y*w); the grid is column-major.
    let cells = (0..n)
        .map(|i| {
            let (x, y) = (i / h.max(1), i % h.max(1));
            body.get(y * w + x).cloned().unwrap_or_default()
        })
        .collect();
    Grid::from_cells(w, h, cells).ok_or(("a consistent grid size", format!("{w} × {h}")))
}
