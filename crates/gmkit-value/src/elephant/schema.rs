//! Schemas: the Rust side of `ELEPHANT_SCHEMA` (constructor → versioned field datatypes).

use super::datatype::Datatype;
use super::error::{Error, Result};
use crate::Value;
use std::collections::{BTreeMap, HashMap};

/// `ELEPHANT_FORCE_VERSION`'s key.
pub const FORCE_VERSION_KEY: &str = "__Elephant_Force_Version__";
/// `ELEPHANT_VERBOSE_EXCLUDE`'s key.
pub const VERBOSE_EXCLUDE_KEY: &str = "__Elephant_Verbose_Exclude__";
/// `ELEPHANT_VERSION_VERBOSE`'s key (inside a `v<N>` schema).
pub const VERSION_VERBOSE_KEY: &str = "__Elephant_Version_Verbose__";

/// One schema version (`v<N>`): field names and their datatypes.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct VersionSchema {
    /// Fields in declaration order (the order in which the schema lists them).
    fields: Vec<(String, Datatype)>,
    /// Fields sorted in ascending byte order of their names — the order of non-verbose data.
    sorted: Vec<(String, Datatype)>,
    /// `__Elephant_Version_Verbose__: true`: this version is written verbose.
    verbose: bool,
    /// Whether the `__Elephant_Version_Verbose__` key is present (at which key position).
    verbose_key_at: Option<usize>,
}

impl VersionSchema {
    /// A non-verbose schema version with these fields.
    pub fn new(fields: impl IntoIterator<Item = (impl Into<String>, Datatype)>) -> Self {
        let fields: Vec<(String, Datatype)> =
            fields.into_iter().map(|(k, d)| (k.into(), d)).collect();
        let mut sorted = fields.clone();
        sorted.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
        VersionSchema {
            fields,
            sorted,
            verbose: false,
            verbose_key_at: None,
        }
    }

    /// Marks this version verbose (`__Elephant_Version_Verbose__: true`).
    pub fn verbose(mut self) -> Self {
        self.verbose = true;
        if self.verbose_key_at.is_none() {
            self.verbose_key_at = Some(0);
        }
        self
    }

    /// Whether this version is written in verbose form.
    pub fn is_verbose(&self) -> bool {
        self.verbose
    }

    /// Fields in declaration order.
    pub fn fields(&self) -> &[(String, Datatype)] {
        &self.fields
    }

    /// Fields in the order of non-verbose data: ascending by name (byte order, like GameMaker's
    /// `array_sort` on strings).
    pub fn sorted_fields(&self) -> &[(String, Datatype)] {
        &self.sorted
    }

    /// The member names a verbose write of this version uses: the schema's keys, *including*
    /// the `__Elephant_Version_Verbose__` key itself (an Elephant 1.5.1 quirk).
    pub fn verbose_names(&self) -> Vec<&str> {
        let mut names: Vec<&str> = self.fields.iter().map(|(k, _)| k.as_str()).collect();
        if let Some(at) = self.verbose_key_at {
            names.insert(at.min(names.len()), VERSION_VERBOSE_KEY);
        }
        names
    }
}

/// Everything `ELEPHANT_SCHEMA` says about one constructor.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ConstructorSchema {
    /// Schema versions by number (`v1` … `v127`).
    pub versions: BTreeMap<u32, VersionSchema>,
    /// `ELEPHANT_FORCE_VERSION`: if set, it alone decides the version written (0 = no schema).
    pub force_version: Option<u32>,
    /// `ELEPHANT_VERBOSE_EXCLUDE`: member names dropped in verbose writes.
    pub verbose_exclude: Vec<String>,
    /// Member values a fresh `new Constructor()` has: the template for diffs-only writes.
    pub template: Option<Vec<(String, Value)>>,
}

impl ConstructorSchema {
    /// The version the 1.5.1 writer uses: the forced version, else the largest `v<N>`, else 0.
    pub fn latest_version(&self, constructor: &str) -> Result<u32> {
        if let Some(v) = self.force_version {
            if v != 0 && !self.versions.contains_key(&v) {
                return Err(Error::ForcedVersionWithoutData {
                    constructor: constructor.into(),
                    version: v,
                });
            }
            return Ok(v);
        }
        Ok(self.versions.keys().next_back().copied().unwrap_or(0))
    }

    /// The template value of member `name`.
    pub fn template_value(&self, name: &str) -> Option<&Value> {
        self.template
            .as_ref()?
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v)
    }
}

/// Constructor name → schema: what a GameMaker project declares with `ELEPHANT_SCHEMA`.
///
/// Needed to read non-verbose constructed structs (their field names and datatypes are not in the
/// data) and to write structs the way a project's schemas ask for. Verbose data needs none.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SchemaRegistry {
    constructors: HashMap<String, ConstructorSchema>,
}

impl SchemaRegistry {
    /// An empty registry.
    pub fn new() -> Self {
        Self::default()
    }

    /// Registers (or replaces) a constructor's schema.
    pub fn insert(&mut self, constructor: impl Into<String>, schema: ConstructorSchema) {
        self.constructors.insert(constructor.into(), schema);
    }

    /// The schema of `constructor`.
    pub fn get(&self, constructor: &str) -> Option<&ConstructorSchema> {
        self.constructors.get(constructor)
    }

    /// Mutable access to the schema of `constructor`, creating an empty one.
    pub fn entry(&mut self, constructor: impl Into<String>) -> &mut ConstructorSchema {
        self.constructors.entry(constructor.into()).or_default()
    }

    /// Whether the registry knows `constructor`.
    pub fn contains(&self, constructor: &str) -> bool {
        self.constructors.contains_key(constructor)
    }

    /// Number of constructors.
    pub fn len(&self) -> usize {
        self.constructors.len()
    }

    /// Whether the registry is empty.
    pub fn is_empty(&self) -> bool {
        self.constructors.is_empty()
    }

    /// Parses the JSON shape of the test vectors' `schemas` field:
    ///
    /// ```json
    /// { "Ctor": { "v1": {"a": 204, "b": 9},
    ///             "v2": {"__Elephant_Version_Verbose__": true, "x": 9},
    ///             "__Elephant_Force_Version__": 1,
    ///             "__Elephant_Verbose_Exclude__": ["a"] } }
    /// ```
    pub fn from_json_str(s: &str) -> Result<Self> {
        let v: serde_json::Value = serde_json::from_str(s).map_err(|e| Error::Json {
            path: format!("line {} column {}", e.line(), e.column()),
            message: e.to_string(),
        })?;
        Self::from_json(&v)
    }

    /// Like [`SchemaRegistry::from_json_str`], from a parsed document.
    pub fn from_json(v: &serde_json::Value) -> Result<Self> {
        let obj = v
            .as_object()
            .ok_or_else(|| Error::InvalidSchema("expected an object of constructors".into()))?;
        let mut reg = SchemaRegistry::new();
        for (ctor, spec) in obj {
            reg.insert(ctor.clone(), parse_constructor(ctor, spec)?);
        }
        Ok(reg)
    }
}

fn parse_constructor(ctor: &str, spec: &serde_json::Value) -> Result<ConstructorSchema> {
    let bad = |m: String| Error::InvalidSchema(format!("constructor \"{ctor}\": {m}"));
    let obj = spec
        .as_object()
        .ok_or_else(|| bad("expected an object".into()))?;
    let mut cs = ConstructorSchema::default();
    let mut loose_versions = Vec::new();
    for (key, val) in obj {
        match key.as_str() {
            FORCE_VERSION_KEY => {
                let n = val
                    .as_u64()
                    .and_then(|n| u32::try_from(n).ok())
                    .ok_or_else(|| bad(format!("{FORCE_VERSION_KEY} must be an integer")))?;
                cs.force_version = Some(n);
            }
            VERBOSE_EXCLUDE_KEY => {
                let arr = val
                    .as_array()
                    .ok_or_else(|| bad(format!("{VERBOSE_EXCLUDE_KEY} must be an array")))?;
                for n in arr {
                    let s = n.as_str().ok_or_else(|| {
                        bad(format!("{VERBOSE_EXCLUDE_KEY} must hold member names"))
                    })?;
                    cs.verbose_exclude.push(s.to_owned());
                }
            }
            VERSION_VERBOSE_KEY => {}
            _ => {
                let n = parse_version_tag(key).ok_or_else(|| {
                    bad(format!(
                        "schema version tag \"{key}\" is invalid: expected v1 … v127"
                    ))
                })?;
                if !(1..=127).contains(&n) {
                    loose_versions.push(key.clone());
                }
                cs.versions.insert(n, parse_version(ctor, key, val)?);
            }
        }
    }
    if cs.force_version.is_none() && !loose_versions.is_empty() {
        return Err(bad(format!(
            "schema version tag \"{}\" is invalid: versions must be 1 … 127",
            loose_versions[0]
        )));
    }
    Ok(cs)
}

/// `"v" + string(N)` for an integer N without leading zeros.
fn parse_version_tag(key: &str) -> Option<u32> {
    let digits = key.strip_prefix('v')?;
    if digits.is_empty()
        || !digits.bytes().all(|b| b.is_ascii_digit())
        || (digits.len() > 1 && digits.starts_with('0'))
    {
        return None;
    }
    digits.parse().ok()
}

fn parse_version(ctor: &str, key: &str, v: &serde_json::Value) -> Result<VersionSchema> {
    let bad = |m: String| Error::InvalidSchema(format!("constructor \"{ctor}\" {key}: {m}"));
    let obj = v
        .as_object()
        .ok_or_else(|| bad("expected an object of field datatypes".into()))?;
    let mut fields = Vec::new();
    let mut verbose = false;
    let mut verbose_key_at = None;
    for (name, dt) in obj {
        if name == VERSION_VERBOSE_KEY {
            verbose = dt
                .as_bool()
                .or_else(|| dt.as_f64().map(|x| x != 0.0))
                .ok_or_else(|| bad(format!("{VERSION_VERBOSE_KEY} must be a bool")))?;
            verbose_key_at = Some(fields.len());
            continue;
        }
        let code = dt
            .as_u64()
            .and_then(|c| u8::try_from(c).ok())
            .and_then(Datatype::from_code)
            .ok_or_else(|| {
                bad(format!(
                    "field \"{name}\": expected a datatype code 1-13 or 204-207, found {dt}"
                ))
            })?;
        fields.push((name.clone(), code));
    }
    let mut vs = VersionSchema::new(fields);
    vs.verbose = verbose;
    vs.verbose_key_at = verbose_key_at;
    Ok(vs)
}
