//! The tagged JSON form of [`Value`]: lossless, one single-key object per value.
//!
//! | value | JSON |
//! |---|---|
//! | real | `{"real": 1.5}`; integral reals up to 2⁵³ as integers; `"NaN"`, `"Infinity"`, `"-Infinity"`, `"-0"`; a NaN with other bits than the canonical `0x7FF8000000000000` as its bits, `"0xFFF8000000000000"` |
//! | string | `{"string": "text"}` |
//! | bool | `{"bool": true}` |
//! | int32 | `{"int32": -5}` |
//! | int64 | `{"int64": "-9007199254740993"}` (decimal string) |
//! | ptr | `{"ptr": "0x1234"}` |
//! | undefined | `{"undefined": null}` |
//! | array | `{"array": [v, ...]}` |
//! | legacy 2-D array | `{"array2d": [[v, ...], ...]}` (rows) |
//! | struct | `{"struct": [["name", v], ...]}` |
//! | constructed struct | `{"constructed": {"constructor": "Name", "fields": [["name", v], ...]}}` |
//!
//! A reference back to an array or struct that is being written (a cycle) is written as
//! `{"cycle": null}`, which does not read back. This is the notation of the ds_* test vectors.
//!
//! ```
//! use gmkit_value::{json, Value};
//! let v = Value::from(vec![Value::Real(1.0), Value::from("a"), Value::Real(-0.0)]);
//! let j = json::value_to_tagged_json(&v);
//! assert_eq!(j.to_string(), r#"{"array":[{"real":1},{"string":"a"},{"real":"-0"}]}"#);
//! assert_eq!(json::value_from_tagged_json(&j)?, v);
//! # Ok::<(), json::TaggedJsonError>(())
//! ```

use crate::{Array, Struct, StructData, Value};
use serde_json::{Map, Value as Json, json};

/// Deepest nesting [`value_from_tagged_json`] accepts.
pub const MAX_DEPTH: usize = 512;

/// A JSON document is not valid tagged JSON.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("tagged JSON at {}: expected {expected}, found {found}", path_string(.path))]
pub struct TaggedJsonError {
    /// JSON path segments from the root, outermost first.
    pub path: Vec<String>,
    /// What was expected.
    pub expected: String,
    /// What was found (abbreviated).
    pub found: String,
}

/// The JSON path of an error; a very deep one keeps its first and last segments only, so the
/// message stays one short line.
fn path_string(p: &[String]) -> String {
    const KEEP: usize = 6;
    let mut s = String::from("$");
    if p.len() > 3 * KEEP {
        p[..KEEP].iter().for_each(|seg| s.push_str(seg));
        s.push_str(&format!("…({} levels)…", p.len() - 2 * KEEP));
        p[p.len() - KEEP..].iter().for_each(|seg| s.push_str(seg));
        return s;
    }
    for seg in p {
        s.push_str(seg);
    }
    s
}

impl TaggedJsonError {
    /// An error at the current position.
    pub fn new(expected: impl Into<String>, found: &Json) -> Self {
        TaggedJsonError {
            path: Vec::new(),
            expected: expected.into(),
            found: describe(found),
        }
    }
    /// Prefixes the path with an object key.
    pub fn at_key(mut self, key: &str) -> Self {
        self.path.insert(0, format!(".{key}"));
        self
    }
    /// Prefixes the path with an array index.
    pub fn at_index(mut self, i: usize) -> Self {
        self.path.insert(0, format!("[{i}]"));
        self
    }
}

/// A short description of a JSON value for error messages.
pub fn describe(j: &Json) -> String {
    let s = j.to_string();
    if s.chars().count() > 60 {
        let head: String = s.chars().take(57).collect();
        format!("{head}...")
    } else {
        s
    }
}

const CANONICAL_NAN: u64 = 0x7FF8_0000_0000_0000;

/// The tagged JSON of a real (the part after `"real":`).
pub fn real_to_json(r: f64) -> Json {
    if r.is_nan() {
        if r.to_bits() == CANONICAL_NAN {
            return json!("NaN");
        }
        return json!(format!("0x{:016X}", r.to_bits()));
    }
    if r.is_infinite() {
        return json!(if r > 0.0 { "Infinity" } else { "-Infinity" });
    }
    if r == 0.0 && r.is_sign_negative() {
        return json!("-0");
    }
    if r.fract() == 0.0 && r.abs() <= 9_007_199_254_740_992.0 {
        return json!(r as i64);
    }
    json!(r)
}

/// A real from its tagged JSON (number, `"NaN"`, `"Infinity"`, `"-Infinity"`, `"-0"` or raw
/// bits `"0x..."`).
pub fn real_from_json(j: &Json) -> Result<f64, TaggedJsonError> {
    const EXPECTED: &str =
        "a number, \"NaN\", \"Infinity\", \"-Infinity\", \"-0\" or \"0x\" + 16 hex digits";
    match j {
        Json::Number(n) => n.as_f64().ok_or_else(|| TaggedJsonError::new(EXPECTED, j)),
        Json::String(s) => match s.as_str() {
            "NaN" => Ok(f64::from_bits(CANONICAL_NAN)),
            "Infinity" => Ok(f64::INFINITY),
            "-Infinity" => Ok(f64::NEG_INFINITY),
            "-0" => Ok(-0.0),
            _ => s
                .strip_prefix("0x")
                .filter(|h| h.len() == 16)
                .and_then(|h| u64::from_str_radix(h, 16).ok())
                .map(f64::from_bits)
                .ok_or_else(|| TaggedJsonError::new(EXPECTED, j)),
        },
        _ => Err(TaggedJsonError::new(EXPECTED, j)),
    }
}

fn tag(name: &str, v: Json) -> Json {
    let mut m = Map::new();
    m.insert(name.to_owned(), v);
    Json::Object(m)
}

/// Converts a value to its tagged JSON.
pub fn value_to_tagged_json(v: &Value) -> Json {
    let mut stack = Vec::new();
    to_json(v, &mut stack)
}

fn to_json(v: &Value, stack: &mut Vec<usize>) -> Json {
    match v {
        Value::Undefined => tag("undefined", Json::Null),
        Value::Bool(b) => tag("bool", json!(b)),
        Value::Real(r) => tag("real", real_to_json(*r)),
        Value::Int32(i) => tag("int32", json!(i)),
        Value::Int64(i) => tag("int64", json!(i.to_string())),
        Value::Ptr(p) => tag("ptr", json!(format!("0x{p:X}"))),
        Value::String(s) => tag("string", json!(s)),
        Value::Array2d(rows) => tag(
            "array2d",
            Json::Array(
                rows.iter()
                    .map(|r| Json::Array(r.iter().map(|x| to_json(x, stack)).collect()))
                    .collect(),
            ),
        ),
        Value::Array(a) => {
            if stack.contains(&a.id()) {
                return tag("cycle", Json::Null);
            }
            stack.push(a.id());
            let items = a.read().iter().map(|x| to_json(x, stack)).collect();
            stack.pop();
            tag("array", Json::Array(items))
        }
        Value::Struct(s) => {
            if stack.contains(&s.id()) {
                return tag("cycle", Json::Null);
            }
            stack.push(s.id());
            let d = s.read();
            let fields = Json::Array(
                d.fields
                    .iter()
                    .map(|(k, x)| Json::Array(vec![json!(k), to_json(x, stack)]))
                    .collect(),
            );
            let out = match &d.constructor {
                None => tag("struct", fields),
                Some(c) => tag("constructed", json!({ "constructor": c, "fields": fields })),
            };
            stack.pop();
            out
        }
    }
}

/// Reads a value from its tagged JSON.
pub fn value_from_tagged_json(j: &Json) -> Result<Value, TaggedJsonError> {
    from_json(j, 0, MAX_DEPTH)
}

/// The single `(tag, payload)` of a tagged object.
pub fn single_tag(j: &Json) -> Result<(&str, &Json), TaggedJsonError> {
    match j {
        Json::Object(m) if m.len() == 1 => {
            let (k, v) = m
                .iter()
                .next()
                .ok_or_else(|| TaggedJsonError::new("a tag", j))?;
            Ok((k.as_str(), v))
        }
        _ => Err(TaggedJsonError::new(
            "a tagged value: an object with one key (real, string, bool, int32, int64, ptr, \
             undefined, array, array2d, struct, constructed)",
            j,
        )),
    }
}

/// The elements of a JSON array.
pub fn expect_array<'a>(j: &'a Json, what: &str) -> Result<&'a Vec<Json>, TaggedJsonError> {
    j.as_array()
        .ok_or_else(|| TaggedJsonError::new(format!("{what} (a JSON array)"), j))
}

/// Reads a JSON array of tagged values.
pub fn values_from_json(j: &Json, depth: usize) -> Result<Vec<Value>, TaggedJsonError> {
    values_from_json_max(j, depth, MAX_DEPTH)
}

/// [`values_from_json`] with a nesting limit of `max` containers.
pub(crate) fn values_from_json_max(
    j: &Json,
    depth: usize,
    max: usize,
) -> Result<Vec<Value>, TaggedJsonError> {
    expect_array(j, "a list of tagged values")?
        .iter()
        .enumerate()
        .map(|(i, x)| from_json(x, depth, max).map_err(|e| e.at_index(i)))
        .collect()
}

/// Reads a JSON array of `[a, b]` pairs of tagged values.
pub fn pairs_from_json(j: &Json, depth: usize) -> Result<Vec<(Value, Value)>, TaggedJsonError> {
    pairs_from_json_max(j, depth, MAX_DEPTH)
}

/// [`pairs_from_json`] with a nesting limit of `max` containers.
pub(crate) fn pairs_from_json_max(
    j: &Json,
    depth: usize,
    max: usize,
) -> Result<Vec<(Value, Value)>, TaggedJsonError> {
    expect_array(j, "a list of [key, value] pairs")?
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let pair = match p.as_array() {
                Some(a) if a.len() == 2 => a,
                _ => return Err(TaggedJsonError::new("a [key, value] pair", p).at_index(i)),
            };
            let k = from_json(&pair[0], depth, max).map_err(|e| e.at_index(0).at_index(i))?;
            let v = from_json(&pair[1], depth, max).map_err(|e| e.at_index(1).at_index(i))?;
            Ok((k, v))
        })
        .collect()
}

fn fields_from_json(
    j: &Json,
    depth: usize,
    max: usize,
) -> Result<Vec<(String, Value)>, TaggedJsonError> {
    expect_array(j, "a list of [name, value] fields")?
        .iter()
        .enumerate()
        .map(|(i, p)| match p.as_array().map(Vec::as_slice) {
            Some([Json::String(k), v]) => Ok((
                k.clone(),
                from_json(v, depth, max).map_err(|e| e.at_index(1).at_index(i))?,
            )),
            _ => Err(TaggedJsonError::new("a [\"name\", value] field", p).at_index(i)),
        })
        .collect()
}

/// Reads one tagged value `depth` containers deep; a container is refused when it would be
/// nested more than `max` deep.
fn from_json(j: &Json, depth: usize, max: usize) -> Result<Value, TaggedJsonError> {
    let (name, p) = single_tag(j)?;
    if depth >= max && matches!(name, "array" | "array2d" | "struct" | "constructed") {
        return Err(TaggedJsonError::new(
            format!("at most {max} nested arrays and structs"),
            &json!(format!("{name} nested {} deep", depth + 1)),
        ));
    }
    let d = depth + 1;
    let v = match name {
        "real" => real_from_json(p).map(Value::Real),
        "string" => p
            .as_str()
            .map(|s| Value::String(s.to_owned()))
            .ok_or_else(|| TaggedJsonError::new("a JSON string", p)),
        "bool" => p
            .as_bool()
            .map(Value::Bool)
            .ok_or_else(|| TaggedJsonError::new("true or false", p)),
        "int32" => p
            .as_i64()
            .and_then(|i| i32::try_from(i).ok())
            .map(Value::Int32)
            .ok_or_else(|| TaggedJsonError::new("an integer in the int32 range", p)),
        "int64" => match p {
            Json::String(s) => s.parse().ok(),
            Json::Number(n) => n.as_i64(),
            _ => None,
        }
        .map(Value::Int64)
        .ok_or_else(|| TaggedJsonError::new("a decimal string in the int64 range", p)),
        "ptr" => p
            .as_str()
            .and_then(|s| s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")))
            .and_then(|h| u64::from_str_radix(h, 16).ok())
            .map(Value::Ptr)
            .ok_or_else(|| TaggedJsonError::new("\"0x\" followed by up to 16 hex digits", p)),
        "undefined" => match p {
            Json::Null => Ok(Value::Undefined),
            _ => Err(TaggedJsonError::new("null", p)),
        },
        "array" => values_from_json_max(p, d, max).map(|v| Value::Array(Array::new(v))),
        "array2d" => expect_array(p, "a list of rows")?
            .iter()
            .enumerate()
            .map(|(i, r)| values_from_json_max(r, d, max).map_err(|e| e.at_index(i)))
            .collect::<Result<_, _>>()
            .map(Value::Array2d),
        "struct" => fields_from_json(p, d, max).map(|f| Value::Struct(Struct::new(f))),
        "constructed" => {
            let ctor = p
                .get("constructor")
                .and_then(Json::as_str)
                .ok_or_else(|| TaggedJsonError::new("a \"constructor\" name", p))?;
            let fields = p
                .get("fields")
                .ok_or_else(|| TaggedJsonError::new("a \"fields\" list", p))?;
            let fields = fields_from_json(fields, d, max).map_err(|e| e.at_key("fields"))?;
            Ok(Value::Struct(Struct::from_data(StructData {
                constructor: Some(ctor.to_owned()),
                fields,
                ..Default::default()
            })))
        }
        _ => Err(TaggedJsonError::new(
            "a value tag (real, string, bool, int32, int64, ptr, undefined, array, array2d, \
             struct, constructed)",
            &Json::String(name.to_owned()),
        )),
    };
    v.map_err(|e| e.at_key(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reals_keep_their_bits() {
        for r in [
            0.0,
            -0.0,
            1.5,
            f64::NAN,
            -f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            1e300,
            9007199254740993.0,
            f64::MIN_POSITIVE / 2.0,
        ] {
            let back = real_from_json(&real_to_json(r)).unwrap();
            assert_eq!(back.to_bits(), r.to_bits(), "{r}");
        }
    }

    #[test]
    fn errors_have_paths() {
        let j: Json = serde_json::from_str(r#"{"array":[{"real":1},{"int32":"x"}]}"#).unwrap();
        let e = value_from_tagged_json(&j).unwrap_err();
        assert_eq!(
            e.to_string().split(':').next(),
            Some("tagged JSON at $.array[1].int32")
        );
    }
}
