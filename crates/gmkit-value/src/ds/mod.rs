//! GameMaker's `ds_*_write` / `ds_*_read` strings (ds_map, ds_list, ds_grid, ds_queue, ds_stack,
//! ds_priority).
//!
//! A ds_* string is upper-case hex text ([`hex`]) of a byte stream: a magic word naming the
//! structure and its format [`Generation`], a structure header, then value records
//! ([`record`]). [`decode`] turns a string into [`DsData`]: the structure's contents as a
//! [`DsValue`] plus the layout details needed to write the very same bytes again with
//! [`encode`].
//!
//! ```
//! use gmkit_value::ds::{self, DsKind, DsValue};
//! use gmkit_value::Value;
//!
//! let data = ds::decode("2F0100000100000000000000000000000000F03F", None)?;
//! assert_eq!(data.value.kind(), DsKind::List);
//! assert_eq!(data.value, DsValue::List(vec![Value::Real(1.0)]));
//! assert_eq!(ds::encode(&data)?, "2F0100000100000000000000000000000000F03F");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Nested maps: GameMaker cannot nest ds_* structures inside one string (a nested map is written
//! as its numeric id). Games that need nesting store the inner structure's own ds_* string as a
//! string value; the serde support ([`to_string`], [`from_str`]) does exactly that.
//!
//! Reading policies (see [`DecodeOptions`]): strict by default; [`DecodeOptions::html5`] mirrors
//! the HTML5 runner's lenient cases (unknown kinds read as undefined, strings cut at NUL,
//! duplicate map keys last-wins, negative counts as zero, legacy JSON form).

mod de;
mod error;
pub mod hex;
mod json_fallback;
pub mod record;
mod ser;
mod structure;
mod tagged;

pub use de::{from_ds_value, from_str, from_value};
pub use error::{DsError, EncodeError};
pub use ser::{SerdeError, to_ds_value, to_string, to_value};
pub use tagged::{
    ds_data_from_tagged_json, ds_data_to_tagged_json, ds_value_from_tagged_json,
    ds_value_to_tagged_json,
};

use crate::Value;
use std::fmt;
use std::str::FromStr;

/// The six ds_* structures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DsKind {
    /// `ds_map`: key/value pairs.
    Map,
    /// `ds_list`: a sequence.
    List,
    /// `ds_grid`: a width × height table.
    Grid,
    /// `ds_queue`: first in, first out.
    Queue,
    /// `ds_stack`: last in, first out.
    Stack,
    /// `ds_priority`: values with priorities.
    Priority,
}

impl DsKind {
    /// All kinds.
    pub const ALL: [DsKind; 6] = [
        DsKind::Map,
        DsKind::List,
        DsKind::Grid,
        DsKind::Queue,
        DsKind::Stack,
        DsKind::Priority,
    ];

    /// The magic word of this structure in a generation (e.g. 403 for a current map).
    ///
    /// ```
    /// use gmkit_value::ds::{DsKind, Generation};
    /// assert_eq!(DsKind::Map.magic(Generation::Current), 403);
    /// assert_eq!(DsKind::Stack.magic(Generation::Legacy), 102);
    /// ```
    pub fn magic(self, generation: Generation) -> u32 {
        let base = match self {
            DsKind::Stack => 100,
            DsKind::Queue => 200,
            DsKind::List => 300,
            DsKind::Map => 400,
            DsKind::Priority => 500,
            DsKind::Grid => 600,
        };
        base + match generation {
            Generation::Legacy => 2,
            Generation::Current => 3,
        }
    }

    /// The structure and generation a magic word names, if any.
    ///
    /// Besides the twelve standard words, 601 ([`LEGACY_GRID_MAGIC_601`]) names a legacy grid:
    /// an older grid magic whose bytes are laid out exactly as 602.
    ///
    /// ```
    /// use gmkit_value::ds::{DsKind, Generation};
    /// assert_eq!(DsKind::from_magic(601), Some((DsKind::Grid, Generation::Legacy)));
    /// ```
    pub fn from_magic(magic: u32) -> Option<(DsKind, Generation)> {
        if magic == LEGACY_GRID_MAGIC_601 {
            return Some((DsKind::Grid, Generation::Legacy));
        }
        let generation = match magic % 100 {
            2 => Generation::Legacy,
            3 => Generation::Current,
            _ => return None,
        };
        let kind = match magic / 100 {
            1 => DsKind::Stack,
            2 => DsKind::Queue,
            3 => DsKind::List,
            4 => DsKind::Map,
            5 => DsKind::Priority,
            6 => DsKind::Grid,
            _ => return None,
        };
        Some((kind, generation))
    }

    /// The lower-case name used by the tagged JSON form and the CLI (`map`, `list`, ...).
    pub fn name(self) -> &'static str {
        match self {
            DsKind::Map => "map",
            DsKind::List => "list",
            DsKind::Grid => "grid",
            DsKind::Queue => "queue",
            DsKind::Stack => "stack",
            DsKind::Priority => "priority",
        }
    }
}

impl fmt::Display for DsKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "ds_{}", self.name())
    }
}

impl FromStr for DsKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let s = s.strip_prefix("ds_").unwrap_or(s);
        DsKind::ALL
            .into_iter()
            .find(|k| k.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| {
                format!("unknown ds kind {s:?}: expected map, list, grid, queue, stack or priority")
            })
    }
}

/// An older ds_grid magic word (seen in strings written by early GameMaker versions): the
/// bytes that follow are laid out as the legacy grid (602). Decoding keeps it in
/// [`DsData::magic`], so the string re-encodes byte for byte.
pub const LEGACY_GRID_MAGIC_601: u32 = 601;

/// The two generations of the format. They differ only in how arrays are stored.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Generation {
    /// Magic `x02` (pre-2.3 native runners): arrays are stored as rows (2-D arrays).
    Legacy,
    /// Magic `x03` (GameMaker 2.3+ and HTML5): arrays are 1-D, nested to any depth.
    #[default]
    Current,
}

/// The contents of a ds_* structure, in serialized order.
#[derive(Clone, Debug, PartialEq)]
pub enum DsValue {
    /// Map pairs `(key, value)` in the order they were written. Duplicate keys are kept as read
    /// (writers never produce them); [`DsValue::map_get`] returns the first, as native
    /// GameMaker's `ds_map_add` would keep.
    Map(Vec<(Value, Value)>),
    /// List items in index order.
    List(Vec<Value>),
    /// A grid.
    Grid(Grid),
    /// Queue items, head (next to dequeue) first.
    Queue(Vec<Value>),
    /// Stack items, bottom (first pushed) first; the last item is the top.
    Stack(Vec<Value>),
    /// Priority queue entries `(priority, value)` in the order they were written.
    Priority(Vec<(Value, Value)>),
}

impl DsValue {
    /// Which structure this is.
    pub fn kind(&self) -> DsKind {
        match self {
            DsValue::Map(_) => DsKind::Map,
            DsValue::List(_) => DsKind::List,
            DsValue::Grid(_) => DsKind::Grid,
            DsValue::Queue(_) => DsKind::Queue,
            DsValue::Stack(_) => DsKind::Stack,
            DsValue::Priority(_) => DsKind::Priority,
        }
    }

    /// An empty structure of a kind (a 0 × 0 grid for [`DsKind::Grid`]).
    pub fn empty(kind: DsKind) -> Self {
        match kind {
            DsKind::Map => DsValue::Map(Vec::new()),
            DsKind::List => DsValue::List(Vec::new()),
            DsKind::Grid => DsValue::Grid(Grid::default()),
            DsKind::Queue => DsValue::Queue(Vec::new()),
            DsKind::Stack => DsValue::Stack(Vec::new()),
            DsKind::Priority => DsValue::Priority(Vec::new()),
        }
    }

    /// Number of entries (pairs for map and priority, cells for a grid).
    pub fn len(&self) -> usize {
        match self {
            DsValue::Map(p) | DsValue::Priority(p) => p.len(),
            DsValue::List(v) | DsValue::Queue(v) | DsValue::Stack(v) => v.len(),
            DsValue::Grid(g) => g.cells().len(),
        }
    }

    /// Whether there are no entries.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The value of the first pair whose key equals `key`, for a map.
    ///
    /// ```
    /// use gmkit_value::{Value, ds::DsValue};
    /// let m = DsValue::Map(vec![(Value::from("hp"), Value::Real(3.0))]);
    /// assert_eq!(m.map_get(&Value::from("hp")), Some(&Value::Real(3.0)));
    /// ```
    pub fn map_get(&self, key: &Value) -> Option<&Value> {
        match self {
            DsValue::Map(pairs) => pairs.iter().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// Sets `key` in a map (the first pair with that key, in place, or a new pair at the end);
    /// returns the previous value. `None` and no change if this is not a map.
    ///
    /// ```
    /// use gmkit_value::{Value, ds::DsValue};
    /// let mut m = DsValue::Map(vec![]);
    /// assert_eq!(m.map_insert(Value::from("hp"), Value::Real(1.0)), None);
    /// assert_eq!(m.map_insert(Value::from("hp"), Value::Real(2.0)), Some(Value::Real(1.0)));
    /// assert_eq!(m.len(), 1);
    /// ```
    pub fn map_insert(&mut self, key: Value, value: Value) -> Option<Value> {
        let DsValue::Map(pairs) = self else {
            return None;
        };
        match pairs.iter_mut().find(|(k, _)| *k == key) {
            Some(slot) => Some(std::mem::replace(&mut slot.1, value)),
            None => {
                pairs.push((key, value));
                None
            }
        }
    }

    /// Removes the first pair whose key equals `key` from a map; returns its value.
    ///
    /// ```
    /// use gmkit_value::{Value, ds::DsValue};
    /// let mut m = DsValue::Map(vec![(Value::Real(1.0), Value::from("one"))]);
    /// assert_eq!(m.map_remove(&Value::Real(1.0)), Some(Value::from("one")));
    /// assert!(m.is_empty());
    /// ```
    pub fn map_remove(&mut self, key: &Value) -> Option<Value> {
        let DsValue::Map(pairs) = self else {
            return None;
        };
        let i = pairs.iter().position(|(k, _)| k == key)?;
        Some(pairs.remove(i).1)
    }
}

/// A ds_grid: `width × height` cells, stored column-major as GameMaker writes them
/// (`cell(x, y)` is at index `x * height + y`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Grid {
    width: usize,
    height: usize,
    cells: Vec<Value>,
}

impl Grid {
    /// A grid with every cell 0, like `ds_grid_create`.
    ///
    /// # Panics
    /// If `width * height` overflows `usize`.
    pub fn new(width: usize, height: usize) -> Self {
        let n = width
            .checked_mul(height)
            .expect("grid size overflows usize");
        Grid {
            width,
            height,
            cells: vec![Value::Real(0.0); n],
        }
    }

    /// A grid from its cells in column-major order; `None` unless `cells.len() == width * height`.
    pub fn from_cells(width: usize, height: usize, cells: Vec<Value>) -> Option<Self> {
        (width.checked_mul(height) == Some(cells.len())).then_some(Grid {
            width,
            height,
            cells,
        })
    }

    /// A grid from its columns (`columns[x][y]`); `None` unless all columns have `height` cells.
    pub fn from_columns(height: usize, columns: Vec<Vec<Value>>) -> Option<Self> {
        if columns.iter().any(|c| c.len() != height) {
            return None;
        }
        let width = columns.len();
        Some(Grid {
            width,
            height,
            cells: columns.into_iter().flatten().collect(),
        })
    }

    /// Number of columns.
    pub fn width(&self) -> usize {
        self.width
    }
    /// Number of rows.
    pub fn height(&self) -> usize {
        self.height
    }
    /// All cells, column-major.
    pub fn cells(&self) -> &[Value] {
        &self.cells
    }
    /// The cells of column `x`.
    pub fn column(&self, x: usize) -> Option<&[Value]> {
        let start = x.checked_mul(self.height)?;
        self.cells.get(start..start.checked_add(self.height)?)
    }
    /// Cell `(x, y)`.
    pub fn get(&self, x: usize, y: usize) -> Option<&Value> {
        self.index(x, y).and_then(|i| self.cells.get(i))
    }
    /// Mutable cell `(x, y)`.
    pub fn get_mut(&mut self, x: usize, y: usize) -> Option<&mut Value> {
        self.index(x, y).and_then(|i| self.cells.get_mut(i))
    }
    fn index(&self, x: usize, y: usize) -> Option<usize> {
        (x < self.width && y < self.height).then(|| x * self.height + y)
    }
}

/// The unused slots of a queue written by the native runner, which dumps its whole backing
/// array: `before` are the slots ahead of the head (`[0, first)`), `after` those past the tail
/// (`[last, slots)`). Keeping them lets a native queue string re-encode byte for byte.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct QueueSlots {
    /// Slots before the head.
    pub before: Vec<Value>,
    /// Slots after the tail.
    pub after: Vec<Value>,
}

/// A decoded ds_* string: the contents and the layout details needed to write the same bytes.
#[derive(Clone, Debug, PartialEq)]
pub struct DsData {
    /// The structure's contents.
    pub value: DsValue,
    /// Format generation (magic `x02` or `x03`).
    pub generation: Generation,
    /// Strings with characters outside the BMP were (or are to be) written as CESU-8 surrogate
    /// pairs, as the HTML5 runner does.
    pub cesu8: bool,
    /// For a queue in the native runner's layout: its unused slots. `None` = the HTML5 layout
    /// (`last = n, first = 0, slots = n`).
    pub queue_slots: Option<QueueSlots>,
    /// The magic word as read when it is not the standard one of its structure and generation
    /// (601, an older grid magic laid out as 602). Writing the same generation keeps it.
    pub magic: Option<u32>,
}

impl DsData {
    /// Current-generation data with no layout details.
    pub fn new(value: DsValue) -> Self {
        DsData {
            value,
            generation: Generation::Current,
            cesu8: false,
            queue_slots: None,
            magic: None,
        }
    }
}

impl From<DsValue> for DsData {
    fn from(value: DsValue) -> Self {
        DsData::new(value)
    }
}

/// How [`decode_with`] reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeOptions {
    /// Mirror the HTML5 runner's lenient cases: unknown value kinds read as `undefined` with no
    /// payload, strings end at their first NUL (and invalid UTF-8 is replaced), duplicate map keys
    /// keep the last value (at the first key's position), negative counts read as zero.
    pub html5_compat: bool,
    /// Accept the legacy HTML5 JSON form (input starting with `{`) for maps and grids.
    pub json_fallback: bool,
    /// Accept CESU-8 surrogate pairs (the HTML5 writer's form of characters outside the BMP);
    /// the data is then marked [`DsData::cesu8`] so that it re-encodes the same way.
    pub cesu8: bool,
    /// Reject bytes after the structure (GameMaker ignores them, so does the default).
    pub reject_trailing: bool,
    /// Deepest array nesting accepted (default 256, which is also the writer's limit). Each
    /// level takes stack space while reading and dropping, so keep it in the hundreds.
    pub max_depth: usize,
}

impl Default for DecodeOptions {
    fn default() -> Self {
        DecodeOptions {
            html5_compat: false,
            json_fallback: false,
            cesu8: true,
            reject_trailing: false,
            max_depth: 256,
        }
    }
}

impl DecodeOptions {
    /// The strict default.
    pub fn strict() -> Self {
        Self::default()
    }
    /// Read like the HTML5 runner where it is lenient (and accept its JSON form).
    pub fn html5() -> Self {
        DecodeOptions {
            html5_compat: true,
            json_fallback: true,
            ..Self::default()
        }
    }
}

/// How [`encode_with`] (and [`encode_lossy`]) write.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EncodeOptions {
    /// Write the HTML5 runner's form: queues as `last = n, first = 0, slots = n`, characters
    /// outside the BMP as CESU-8 (and, in [`encode_lossy`], structs as kind 5 (undefined)
    /// instead of the native runner's unreadable kind 6).
    pub html5: bool,
    /// Force a generation instead of [`DsData::generation`].
    pub generation: Option<Generation>,
}

/// Decodes a ds_* string with the default (strict) options.
///
/// `kind` restricts the accepted structure (like calling `ds_map_read`); `None` detects it from
/// the magic word.
///
/// ```
/// use gmkit_value::ds::{self, DsKind, DsValue};
/// let d = ds::decode("9301000000000000", None)?;
/// assert_eq!(d.value, DsValue::Map(vec![]));
/// assert!(ds::decode("9301000000000000", Some(DsKind::List)).is_err());
/// # Ok::<(), ds::DsError>(())
/// ```
pub fn decode(text: &str, kind: Option<DsKind>) -> Result<DsData, DsError> {
    decode_with(text, kind, &DecodeOptions::default())
}

/// Decodes a ds_* string.
///
/// ```
/// use gmkit_value::ds::{self, DecodeOptions, DsKind, DsValue};
/// use gmkit_value::Value;
/// // kind 6 (a struct) cannot be read strictly; HTML5 reads it as undefined with no payload
/// let text = "2F0100000100000006000000";
/// assert!(ds::decode(text, None).is_err());
/// let d = ds::decode_with(text, Some(DsKind::List), &DecodeOptions::html5())?;
/// assert_eq!(d.value, DsValue::List(vec![Value::Undefined]));
/// # Ok::<(), ds::DsError>(())
/// ```
pub fn decode_with(
    text: &str,
    kind: Option<DsKind>,
    opts: &DecodeOptions,
) -> Result<DsData, DsError> {
    if text.is_empty() {
        return Err(DsError::Empty);
    }
    if text.starts_with('{') {
        return json_fallback::decode(text, kind, opts);
    }
    let bytes = hex::decode_prefix(text.as_bytes());
    // Like GameMaker, the hex ends at the first pair that is not two hex digits. When the data
    // then ends early, that character is the real problem: report it rather than truncation.
    let stop = bad_character(text, bytes.len());
    if bytes.is_empty() {
        return Err(match stop {
            Some((ch, position)) => DsError::BadCharacter {
                ch,
                position,
                after: None,
            },
            None => DsError::NotHex {
                found: text.chars().take(8).collect(),
            },
        });
    }
    decode_bytes(&bytes, kind, opts).map_err(|e| match (stop, &e) {
        (Some((ch, position)), DsError::Truncated { .. } | DsError::CountTooLarge { .. }) => {
            DsError::BadCharacter {
                ch,
                position,
                after: Some(Box::new(e)),
            }
        }
        _ => e,
    })
}

/// The character that stopped the hex reader after `n` decoded bytes and its position (in
/// characters), if it was not the end of the text or an unpaired last digit.
fn bad_character(text: &str, n: usize) -> Option<(char, usize)> {
    let at = 2 * n;
    let rest = text.get(at..)?;
    let mut chars = rest.chars();
    let first = chars.next()?;
    let (ch, pos) = if !first.is_ascii_hexdigit() {
        (first, at)
    } else {
        (chars.next()?, at + 1)
    };
    // Everything before is ASCII hex, so the byte offset is the character position.
    Some((ch, pos))
}

/// Decodes the byte stream of a ds_* string (the hex text already decoded).
///
/// ```
/// use gmkit_value::ds::{self, DsValue};
/// let d = ds::decode_bytes(&[0x2F, 1, 0, 0, 0, 0, 0, 0], None, &Default::default())?;
/// assert_eq!(d.value, DsValue::List(vec![]));
/// # Ok::<(), ds::DsError>(())
/// ```
pub fn decode_bytes(
    bytes: &[u8],
    kind: Option<DsKind>,
    opts: &DecodeOptions,
) -> Result<DsData, DsError> {
    structure::read(bytes, kind, opts)
}

/// Encodes with the default options (native form), in upper-case hex.
///
/// Fails, instead of writing something [`decode`] rejects, on values a ds_* string cannot hold:
/// a struct ([`EncodeError::Struct`]; GameMaker itself writes kind 6, which no runner reads
/// back: store a nested ds_map string instead, as the serde support does), an array that
/// contains itself, arrays nested deeper than 256 levels, counts over `u32`. Everything
/// [`decode`] returns encodes.
///
/// ```
/// use gmkit_value::ds::{self, DsData, DsValue, EncodeError};
/// use gmkit_value::{Struct, Value};
/// let data = ds::decode("2F0100000100000000000000000000000000F03F", None)?;
/// assert_eq!(ds::encode(&data)?, "2F0100000100000000000000000000000000F03F");
///
/// let with_struct = DsData::new(DsValue::Map(vec![(Value::from("s"), Value::from(Struct::new(vec![])))]));
/// assert!(matches!(ds::encode(&with_struct), Err(EncodeError::Struct { .. })));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn encode(data: &DsData) -> Result<String, EncodeError> {
    encode_with(data, &EncodeOptions::default())
}

/// Encodes in upper-case hex; fails like [`encode`] on values that cannot be read back.
///
/// ```
/// use gmkit_value::ds::{self, DsData, DsValue, EncodeOptions};
/// use gmkit_value::Value;
/// let data = DsData::new(DsValue::Queue(vec![Value::Real(1.0)]));
/// let html5 = EncodeOptions { html5: true, ..Default::default() };
/// let hex = ds::encode_with(&data, &html5)?;
/// assert_eq!(ds::decode(&hex, None)?.value, data.value);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn encode_with(data: &DsData, opts: &EncodeOptions) -> Result<String, EncodeError> {
    Ok(hex::encode(&encode_bytes(data, opts)?))
}

/// Encodes to the byte stream (before hex); fails like [`encode`].
///
/// ```
/// use gmkit_value::ds::{self, DsData, DsValue};
/// let bytes = ds::encode_bytes(&DsData::new(DsValue::List(vec![])), &Default::default())?;
/// assert_eq!(bytes, [0x2F, 1, 0, 0, 0, 0, 0, 0]);
/// # Ok::<(), ds::EncodeError>(())
/// ```
pub fn encode_bytes(data: &DsData, opts: &EncodeOptions) -> Result<Vec<u8>, EncodeError> {
    let mut w = record::Writer::new(data, opts, true);
    structure::write(&mut w, data)?;
    Ok(w.into_bytes())
}

/// Encodes the way GameMaker does, never failing, **even where the result cannot be read
/// back**: a struct is written as kind 6 with no payload (native runner; [`decode`] rejects it,
/// like every runner) or kind 5 (`undefined`, HTML5 form); a cyclic array reference, or arrays
/// nested deeper than 256 levels, as `undefined`. For reproducing a runner's output; use
/// [`encode_with`] otherwise.
///
/// ```
/// use gmkit_value::ds::{self, DsData, DsValue};
/// use gmkit_value::{Struct, Value};
/// let data = DsData::new(DsValue::List(vec![Value::from(Struct::new(vec![]))]));
/// let hex = ds::encode_lossy(&data, &Default::default());
/// assert_eq!(hex, "2F0100000100000006000000");
/// assert!(ds::decode(&hex, None).is_err());
/// ```
pub fn encode_lossy(data: &DsData, opts: &EncodeOptions) -> String {
    let mut w = record::Writer::new(data, opts, false);
    // A lenient writer does not fail.
    let _ = structure::write(&mut w, data);
    hex::encode(&w.into_bytes())
}

/// The structure a ds_* string holds, from its magic word (no full decode).
///
/// ```
/// use gmkit_value::ds::{detect, DsKind, Generation};
/// assert_eq!(detect("2e010000"), Some((DsKind::List, Generation::Legacy)));
/// assert_eq!(detect("hello"), None);
/// ```
pub fn detect(text: &str) -> Option<(DsKind, Generation)> {
    let head = text.as_bytes().get(..8)?;
    let b = hex::decode_prefix(head);
    let magic = u32::from_le_bytes(b.get(..4)?.try_into().ok()?);
    DsKind::from_magic(magic)
}
