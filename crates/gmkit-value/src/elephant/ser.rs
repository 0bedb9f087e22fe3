//! serde serialization straight into Elephant 1.5.1 bytes (no intermediate [`crate::Value`]).

use super::datatype::Datatype as D;
use super::error::{Boxed, Error};

type Result<T, E = Boxed> = std::result::Result<T, E>;
use super::export::compress;
use super::read::DEFAULT_MAX_DEPTH;
use super::{FOOTER, HEADER, VERSION_1_5_1};
use serde::ser::{self, Serialize};

const ANY: u8 = D::Any as u8;
const ARRAY: u8 = D::Array as u8;
const STRUCT: u8 = D::Struct as u8;
const UNDEFINED: u8 = D::Undefined as u8;

/// How [`to_bytes_with`] writes Rust structs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Structs {
    /// Plain structs (`{ ... }`, datatype 206 with a member count), which every game reads back:
    /// the default. Enum variants with fields become one-member plain structs
    /// `{variant: content}`.
    #[default]
    Plain,
    /// Verbose constructed structs (`new Name()`, `0xFFFE`), named after the serde name of the
    /// type (`#[serde(rename = "...")]` sets it) or of the enum variant. The game must define a
    /// constructor of that name, or `ElephantImportString` fails ("Could not resolve constructor
    /// function").
    Constructed,
}

/// How the serde serializer ([`to_bytes_with`], [`to_export_string_with`], [`to_value_with`])
/// writes Rust types. Individual fields can override the choice with [`Plain`] and
/// [`Constructed`].
///
/// ```
/// use gmkit_value::elephant::{self, Options, Structs};
/// #[derive(serde::Serialize)]
/// struct Vec2 { x: f64, y: f64 }
/// let plain = elephant::to_value(&Vec2 { x: 1.0, y: 2.0 })?;
/// assert_eq!(plain.as_struct().unwrap().constructor(), None);
/// let opts = Options { structs: Structs::Constructed };
/// let made = elephant::to_value_with(&Vec2 { x: 1.0, y: 2.0 }, &opts)?;
/// assert_eq!(made.as_struct().unwrap().constructor().as_deref(), Some("Vec2"));
/// # Ok::<(), elephant::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Options {
    /// Plain or constructed structs for Rust structs (default: plain).
    pub structs: Structs,
}

impl Options {
    /// Options writing Rust structs as `structs`.
    ///
    /// ```
    /// use gmkit_value::elephant::{Options, Structs};
    /// assert_eq!(Options::new(Structs::Plain), Options::default());
    /// ```
    pub fn new(structs: Structs) -> Self {
        Options { structs }
    }
}

/// The serde name [`Constructed`] serializes under (a newtype the Elephant serializer
/// recognizes; other serializers see a transparent newtype).
const CONSTRUCTED_TOKEN: &str = "$gmkit_value::elephant::Constructed";
/// The serde name [`Plain`] serializes under.
const PLAIN_TOKEN: &str = "$gmkit_value::elephant::Plain";

/// Writes the struct inside as a verbose *constructed* struct named after its serde name,
/// whatever [`Options::structs`] says (a field attribute-like override). Reading accepts
/// either form; reading data written this way and writing it back keeps the form.
///
/// ```
/// use gmkit_value::elephant::{self, Constructed};
/// #[derive(serde::Serialize, serde::Deserialize, PartialEq, Debug)]
/// struct Vec2 { x: f64, y: f64 }
/// #[derive(serde::Serialize, serde::Deserialize, PartialEq, Debug)]
/// struct Save { name: String, pos: Constructed<Vec2> }
///
/// let save = Save { name: "Ada".into(), pos: Constructed(Vec2 { x: 1.0, y: 2.0 }) };
/// let bytes = elephant::to_bytes(&save)?;
/// let v = elephant::read(&bytes)?;
/// assert_eq!(v.as_struct().unwrap().constructor(), None); // Save: plain
/// assert_eq!(v.at("pos").as_struct().unwrap().constructor().as_deref(), Some("Vec2"));
/// let back: Save = elephant::from_bytes(&bytes)?;
/// assert_eq!(back, save);
/// assert_eq!(elephant::to_bytes(&back)?, bytes);
/// # Ok::<(), elephant::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Constructed<T>(pub T);

/// Writes the struct inside as a *plain* struct whatever [`Options::structs`] says.
///
/// ```
/// use gmkit_value::elephant::{self, Options, Plain, Structs};
/// #[derive(serde::Serialize)]
/// struct Stats { hp: f64 }
/// #[derive(serde::Serialize)]
/// struct Player { stats: Plain<Stats> }
/// let opts = Options::new(Structs::Constructed);
/// let v = elephant::to_value_with(&Player { stats: Plain(Stats { hp: 3.0 }) }, &opts)?;
/// assert_eq!(v.as_struct().unwrap().constructor().as_deref(), Some("Player"));
/// assert_eq!(v.at("stats").as_struct().unwrap().constructor(), None);
/// # Ok::<(), elephant::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Plain<T>(pub T);

macro_rules! form_wrapper {
    ($t:ident, $token:ident) => {
        impl<T: Serialize> Serialize for $t<T> {
            fn serialize<S: ser::Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
                s.serialize_newtype_struct($token, &self.0)
            }
        }
        impl<'de, T: serde::Deserialize<'de>> serde::Deserialize<'de> for $t<T> {
            fn deserialize<D: serde::Deserializer<'de>>(
                d: D,
            ) -> std::result::Result<Self, D::Error> {
                T::deserialize(d).map($t)
            }
        }
        impl<T> std::ops::Deref for $t<T> {
            type Target = T;
            fn deref(&self) -> &T {
                &self.0
            }
        }
        impl<T> std::ops::DerefMut for $t<T> {
            fn deref_mut(&mut self) -> &mut T {
                &mut self.0
            }
        }
    };
}
form_wrapper!(Constructed, CONSTRUCTED_TOKEN);
form_wrapper!(Plain, PLAIN_TOKEN);

/// Serializes `value` as an Elephant 1.5.1 buffer with the default [`Options`] (Rust structs
/// as plain structs). See the [module docs](super) for the mapping of Rust types.
///
/// ```
/// #[derive(serde::Serialize, serde::Deserialize, PartialEq, Debug)]
/// struct Player { name: String, hp: f64 }
/// let p = Player { name: "Ada".into(), hp: 100.0 };
/// let bytes = gmkit_value::elephant::to_bytes(&p)?;
/// assert_eq!(gmkit_value::elephant::from_bytes::<Player>(&bytes)?, p);
/// # Ok::<(), gmkit_value::elephant::Error>(())
/// ```
pub fn to_bytes<T: Serialize + ?Sized>(value: &T) -> Result<Vec<u8>, Error> {
    to_bytes_with(value, &Options::default())
}

/// Serializes `value` as an Elephant 1.5.1 buffer, writing Rust structs as `opts` says.
///
/// ```
/// use gmkit_value::elephant::{self, Options, Structs};
/// #[derive(serde::Serialize, serde::Deserialize, PartialEq, Debug)]
/// struct Player { hp: f64 }
/// let bytes = elephant::to_bytes_with(&Player { hp: 1.0 }, &Options::new(Structs::Constructed))?;
/// // The game needs `function Player() constructor {}` to import this.
/// let v = elephant::read(&bytes)?;
/// assert_eq!(v.as_struct().unwrap().constructor().as_deref(), Some("Player"));
/// assert_eq!(elephant::from_bytes::<Player>(&bytes)?, Player { hp: 1.0 });
/// # Ok::<(), elephant::Error>(())
/// ```
pub fn to_bytes_with<T: Serialize + ?Sized>(value: &T, opts: &Options) -> Result<Vec<u8>, Error> {
    let mut s = Serializer {
        out: Vec::with_capacity(1024),
        cur: ArrayCtx::default(),
        ctors: Vec::new(),
        recent: [(0, 0, 0); RECENT],
        depth: 0,
        constructed: opts.structs == Structs::Constructed,
        force: None,
    };
    s.out.extend_from_slice(&HEADER.to_le_bytes());
    s.out.extend_from_slice(&VERSION_1_5_1.to_le_bytes());
    value.serialize(Ser::<false>(&mut s)).map_err(|e| *e.0)?;
    s.out.extend_from_slice(&FOOTER.to_le_bytes());
    Ok(s.out)
}

/// Serializes `value` as an Elephant export string (what `ElephantImportString` reads), with
/// the default [`Options`].
///
/// ```
/// let s = gmkit_value::elephant::to_export_string(&vec![1.0, 2.0])?;
/// assert_eq!(gmkit_value::elephant::from_export_string::<Vec<f64>>(&s)?, [1.0, 2.0]);
/// # Ok::<(), gmkit_value::elephant::Error>(())
/// ```
pub fn to_export_string<T: Serialize + ?Sized>(value: &T) -> Result<String, Error> {
    to_export_string_with(value, &Options::default())
}

/// [`to_export_string`] writing Rust structs as `opts` says.
///
/// ```
/// use gmkit_value::elephant::{self, Options, Structs};
/// #[derive(serde::Serialize)]
/// struct Player { hp: f64 }
/// let s = elephant::to_export_string_with(&Player { hp: 1.0 }, &Options::new(Structs::Constructed))?;
/// let v = elephant::import_string(&s)?;
/// assert_eq!(v.as_struct().unwrap().constructor().as_deref(), Some("Player"));
/// # Ok::<(), elephant::Error>(())
/// ```
pub fn to_export_string_with<T: Serialize + ?Sized>(
    value: &T,
    opts: &Options,
) -> Result<String, Error> {
    Ok(compress(&to_bytes_with(value, opts)?))
}

/// Serializes `value` into a [`Value`](crate::Value) graph, exactly as [`to_bytes`] then
/// [`read`](super::read()) would give (Rust structs as plain structs).
///
/// ```
/// #[derive(serde::Serialize)]
/// struct Player { name: String, hp: i32 }
/// let v = gmkit_value::elephant::to_value(&Player { name: "Ada".into(), hp: 3 })?;
/// assert_eq!(v.at("name").as_str(), Some("Ada"));
/// assert_eq!(v.at("hp").as_i32(), Some(3));
/// # Ok::<(), gmkit_value::elephant::Error>(())
/// ```
pub fn to_value<T: Serialize + ?Sized>(value: &T) -> Result<crate::Value, Error> {
    to_value_with(value, &Options::default())
}

/// [`to_value`] writing Rust structs as `opts` says.
///
/// ```
/// use gmkit_value::elephant::{self, Options, Structs};
/// #[derive(serde::Serialize)]
/// struct Player { hp: f64 }
/// let v = elephant::to_value_with(&Player { hp: 1.0 }, &Options::new(Structs::Constructed))?;
/// assert_eq!(v.as_struct().unwrap().constructor().as_deref(), Some("Player"));
/// # Ok::<(), elephant::Error>(())
/// ```
pub fn to_value_with<T: Serialize + ?Sized>(
    value: &T,
    opts: &Options,
) -> Result<crate::Value, Error> {
    super::read(&to_bytes_with(value, opts)?)
}

const RECENT: usize = 16;

/// An array being written: its common datatype is decided by its elements as they come.
#[derive(Default, Clone, Copy)]
struct ArrayCtx {
    len_pos: usize,
    common_pos: usize,
    count: usize,
    common: u8,
}

/// The Elephant serializer (see [`to_bytes`]).
struct Serializer {
    out: Vec<u8>,
    /// The innermost open array (enclosing ones are saved in their [`Seq`]s).
    cur: ArrayCtx,
    /// Constructor name → (index, offset where its name was written).
    ctors: Vec<(&'static str, u16, usize)>,
    /// A direct-mapped cache of [`Self::ctors`] by name address: (address, length, index).
    recent: [(usize, usize, u16); RECENT],
    depth: usize,
    /// Rust structs are written constructed ([`Structs::Constructed`]).
    constructed: bool,
    /// A [`Plain`] / [`Constructed`] wrapper's choice for the struct that follows (taken by
    /// the next container opened).
    force: Option<bool>,
}

impl Serializer {
    /// Starts a value of datatype `dt`: its datatype byte, unless it is an array element
    /// covered by the array's common datatype.
    #[inline(always)]
    fn begin(&mut self, elem: bool, dt: u8) {
        if !elem {
            self.out.push(dt);
        } else {
            self.element(dt);
        }
    }

    #[inline(always)]
    fn element(&mut self, dt: u8) {
        let a = &mut self.cur;
        let n = a.count;
        a.count += 1;
        if n == 0 {
            a.common_pos = self.out.len();
            a.common = dt;
            self.out.push(dt);
        } else if a.common != dt {
            if a.common != ANY {
                self.switch_to_any();
            }
            self.out.push(dt);
        }
    }

    /// The innermost array's elements differ: give every element written so far its own
    /// datatype byte and switch the common datatype to `buffer_any`. The element boundaries are
    /// found by re-reading what was written (rare, so nothing is tracked on the fast path).
    #[cold]
    fn switch_to_any(&mut self) {
        let a = &mut self.cur;
        let (common, first, written) = (a.common, a.common_pos + 1, a.count - 1);
        self.out[a.common_pos] = ANY;
        a.common = ANY;
        let tail = self.out.split_off(first);
        let mut bounds = Vec::new();
        let mut p = 0;
        for _ in 0..written {
            let end = skip(&tail, p, common, &self.ctors, first);
            self.out.push(common);
            self.out.extend_from_slice(&tail[p..end]);
            bounds.push(end);
            p = end;
        }
        // Constructor names first written inside the moved elements moved too.
        for c in self.ctors.iter_mut().filter(|c| c.2 >= first) {
            let i = bounds.partition_point(|&e| e <= c.2 - first);
            c.2 += i + 1;
        }
    }

    /// Writes `s` and its NUL terminator (an error if `s` contains NUL).
    #[inline(always)]
    fn string(&mut self, s: &str) -> Result<()> {
        self.string_after::<false>(0, s)
    }

    /// Writes `s` and its NUL terminator, preceded by the datatype byte `dt` if `DT` (an error
    /// if `s` contains NUL). Strings of up to 32 bytes are written as two overlapping
    /// fixed-size words (also used to check for NUL) straight into reserved capacity, with one
    /// length update for the whole record.
    #[inline(always)]
    fn string_after<const DT: bool>(&mut self, dt: u8, s: &str) -> Result<()> {
        let b = s.as_bytes();
        let n = b.len();
        let start = self.out.len();
        let o = DT as usize;
        if n > 32 {
            if memchr::memchr(0, b).is_some() {
                return Err(self.nul_in_string(start + o));
            }
            if DT {
                self.out.push(dt);
            }
            self.out.extend_from_slice(b);
            self.out.push(0);
            return Ok(());
        }
        self.out.reserve(34);
        let spare = self.out.spare_capacity_mut();
        /// Writes `v` at `at` in `spare` (bounds-checked; `at + N <= 34` here).
        #[inline(always)]
        fn poke<const N: usize>(spare: &mut [std::mem::MaybeUninit<u8>], at: usize, v: [u8; N]) {
            for (d, x) in spare[at..at + N].iter_mut().zip(v) {
                d.write(x);
            }
        }
        if DT {
            poke(spare, 0, [dt]);
        }
        macro_rules! words {
            ($t:ty, $w:expr) => {{
                let lo = <$t>::from_le_bytes(b[..$w].try_into().expect("len checked"));
                let hi = <$t>::from_le_bytes(b[n - $w..].try_into().expect("len checked"));
                const L: $t = <$t>::MAX / 255;
                const H: $t = L << 7;
                let zero = (lo.wrapping_sub(L) & !lo) | (hi.wrapping_sub(L) & !hi);
                if zero & H != 0 {
                    return Err(self.nul_in_string(start + o));
                }
                poke(spare, o, lo.to_le_bytes());
                poke(spare, o + n - $w, hi.to_le_bytes());
            }};
        }
        match n {
            0 => {}
            1..=3 => {
                let (x, y, z) = (b[0], b[n / 2], b[n - 1]);
                if x == 0 || y == 0 || z == 0 {
                    return Err(self.nul_in_string(start + o));
                }
                // Positions 0, n / 2 and n - 1 cover every byte for n <= 3.
                poke(spare, o, [x]);
                poke(spare, o + n / 2, [y]);
                poke(spare, o + n - 1, [z]);
            }
            4..=7 => words!(u32, 4),
            8..=15 => words!(u64, 8),
            _ => words!(u128, 16),
        }
        poke(spare, o + n, [0]);
        // SAFETY: the `o + n + 1` bytes after the length were all just written: the datatype
        // byte (if `DT`), the string's bytes (covered by the words or bytes
        // above) and the terminator; `poke` is bounds-checked against the spare capacity.
        unsafe { self.out.set_len(start + o + n + 1) };
        Ok(())
    }

    #[cold]
    fn nul_in_string(&self, offset: usize) -> Boxed {
        Error::NulInString { offset }.into()
    }

    #[inline]
    fn enter(&mut self) -> Result<()> {
        if self.depth >= DEFAULT_MAX_DEPTH {
            return Err(Error::TooDeep {
                offset: self.out.len(),
                limit: DEFAULT_MAX_DEPTH,
            }
            .into());
        }
        self.depth += 1;
        Ok(())
    }

    /// Starts an array; returns the enclosing array's state, restored by [`Self::close_array`].
    #[inline(always)]
    fn open_array(&mut self, elem: bool) -> Result<ArrayCtx> {
        self.begin(elem, ARRAY);
        self.enter()?;
        let len_pos = self.out.len();
        self.out.extend_from_slice(&[0, 0]);
        Ok(std::mem::replace(
            &mut self.cur,
            ArrayCtx {
                len_pos,
                common_pos: 0,
                count: 0,
                common: 0,
            },
        ))
    }

    #[inline(always)]
    fn close_array(&mut self, outer: ArrayCtx) -> Result<()> {
        let a = std::mem::replace(&mut self.cur, outer);
        self.depth -= 1;
        if a.count >= 0xFFFF {
            return Err(Error::ArrayTooLong {
                offset: a.len_pos,
                len: a.count,
            }
            .into());
        }
        self.out[a.len_pos..a.len_pos + 2].copy_from_slice(&(a.count as u16).to_le_bytes());
        Ok(())
    }

    /// `0xFFFE`, constructor index (+ name the first time), flags `0x80` (verbose, version 0),
    /// member count placeholder. Returns the count position.
    #[inline(always)]
    fn open_constructed(&mut self, elem: bool, name: &'static str) -> Result<usize> {
        self.begin(elem, STRUCT);
        self.enter()?;
        let (addr, len) = (name.as_ptr() as usize, name.len());
        let slot = &mut self.recent[(addr >> 3) % RECENT];
        let index = if slot.0 == addr && slot.1 == len {
            Some(slot.2)
        } else {
            let found = self.ctors.iter().find(|c| std::ptr::eq(c.0, name));
            found.map(|c| {
                *slot = (addr, len, c.1);
                c.1
            })
        };
        match index {
            Some(i) => {
                let [i0, i1] = i.to_le_bytes();
                self.out
                    .extend_from_slice(&[0xFE, 0xFF, i0, i1, 0x80, 0, 0]);
            }
            None => self.new_constructor(name)?,
        }
        Ok(self.out.len() - 2)
    }

    /// [`Self::open_constructed`] for a name not seen at this address: its index (+ name).
    #[cold]
    #[inline(never)]
    fn new_constructor(&mut self, name: &'static str) -> Result<()> {
        self.out.extend_from_slice(&[0xFE, 0xFF]);
        match self.ctors.iter().find(|c| c.0 == name) {
            Some(c) => {
                let i = c.1;
                self.out.extend_from_slice(&i.to_le_bytes());
            }
            None => {
                let i =
                    u16::try_from(self.ctors.len()).map_err(|_| Error::TooManyConstructors {
                        offset: self.out.len(),
                    })?;
                self.out.extend_from_slice(&i.to_le_bytes());
                self.ctors.push((name, i, self.out.len()));
                self.string(name)?;
            }
        }
        self.out.extend_from_slice(&[0x80, 0, 0]);
        Ok(())
    }

    #[inline(always)]
    fn open_plain(&mut self, elem: bool) -> Result<usize> {
        self.begin(elem, STRUCT);
        self.enter()?;
        let pos = self.out.len();
        self.out.extend_from_slice(&[0, 0]);
        Ok(pos)
    }

    #[inline(always)]
    fn close_struct(&mut self, count_pos: usize, count: usize, limit: usize) -> Result<()> {
        self.depth -= 1;
        if count >= limit {
            return Err(Error::StructTooLarge {
                offset: count_pos,
                len: count,
                limit,
            }
            .into());
        }
        self.out[count_pos..count_pos + 2].copy_from_slice(&(count as u16).to_le_bytes());
        Ok(())
    }

    /// A scalar: its datatype byte (unless covered by the array's common datatype) and its
    /// bytes, written together when possible.
    #[inline(always)]
    fn s32(&mut self, elem: bool, v: i32) {
        let [a, b, c, d] = v.to_le_bytes();
        if elem {
            self.element(D::S32 as u8);
            self.out.extend_from_slice(&[a, b, c, d]);
        } else {
            self.out.extend_from_slice(&[D::S32 as u8, a, b, c, d]);
        }
    }
    #[inline(always)]
    fn f64(&mut self, elem: bool, v: f64) {
        self.eight(elem, D::F64 as u8, v.to_le_bytes());
    }
    #[inline(always)]
    fn i64(&mut self, elem: bool, v: i64) {
        self.eight(elem, D::U64 as u8, v.to_le_bytes());
    }
    #[inline(always)]
    fn eight(&mut self, elem: bool, dt: u8, [a, b, c, d, e, f, g, h]: [u8; 8]) {
        if elem {
            self.element(dt);
            self.out.extend_from_slice(&[a, b, c, d, e, f, g, h]);
        } else {
            self.out.extend_from_slice(&[dt, a, b, c, d, e, f, g, h]);
        }
    }
    #[inline(always)]
    fn bool(&mut self, elem: bool, v: bool) {
        if elem {
            self.element(D::Bool as u8);
            self.out.push(v as u8);
        } else {
            self.out.extend_from_slice(&[D::Bool as u8, v as u8]);
        }
    }
}

/// An open struct or map: where its member count goes and how many members it has.
struct Compound<'a> {
    s: &'a mut Serializer,
    count_pos: usize,
    count: usize,
    limit: usize,
    /// A struct variant inside its one-member `{variant: ...}` plain struct.
    wrapped: bool,
    /// Output position of the last map key written (read back for an error's path).
    key_start: usize,
}

/// An open array; `outer` is the enclosing array's state.
struct Seq<'a> {
    s: &'a mut Serializer,
    outer: ArrayCtx,
    /// For long sequences of known length: the length, until the first element is written and
    /// the output reserved for the rest (sized like the first), so that a large save grows its
    /// buffer once instead of doubling (and copying) it many times. 0 afterwards.
    hint: usize,
    /// Output position where the first element starts.
    start: usize,
    /// The number of elements written: the index in an error's path.
    index: usize,
}

/// Sequences shorter than this grow the output the ordinary way.
const RESERVE_MIN_LEN: usize = 64;

/// A variant wrapper `{variant: [..]}` around an array.
struct VariantSeq<'a> {
    seq: Seq<'a>,
}

/// The serializer in a context: `E` = the value is an element of the innermost open array.
struct Ser<'a, const E: bool>(&'a mut Serializer);

impl<'a, const E: bool> ser::Serializer for Ser<'a, E> {
    type Ok = ();
    type Error = Boxed;
    type SerializeSeq = Seq<'a>;
    type SerializeTuple = Seq<'a>;
    type SerializeTupleStruct = Seq<'a>;
    type SerializeTupleVariant = VariantSeq<'a>;
    type SerializeMap = Compound<'a>;
    type SerializeStruct = Compound<'a>;
    type SerializeStructVariant = Compound<'a>;

    #[inline]
    fn serialize_bool(self, v: bool) -> Result<()> {
        self.0.bool(E, v);
        Ok(())
    }
    #[inline]
    fn serialize_i8(self, v: i8) -> Result<()> {
        self.0.s32(E, v as i32);
        Ok(())
    }
    #[inline]
    fn serialize_i16(self, v: i16) -> Result<()> {
        self.0.s32(E, v as i32);
        Ok(())
    }
    #[inline]
    fn serialize_i32(self, v: i32) -> Result<()> {
        self.0.s32(E, v);
        Ok(())
    }
    #[inline]
    fn serialize_i64(self, v: i64) -> Result<()> {
        self.0.i64(E, v);
        Ok(())
    }
    #[inline]
    fn serialize_u8(self, v: u8) -> Result<()> {
        self.0.s32(E, v as i32);
        Ok(())
    }
    #[inline]
    fn serialize_u16(self, v: u16) -> Result<()> {
        self.0.s32(E, v as i32);
        Ok(())
    }
    #[inline]
    fn serialize_u32(self, v: u32) -> Result<()> {
        self.0.f64(E, v as f64);
        Ok(())
    }
    #[inline]
    fn serialize_u64(self, v: u64) -> Result<()> {
        self.0.i64(E, v as i64);
        Ok(())
    }
    #[inline]
    fn serialize_f32(self, v: f32) -> Result<()> {
        self.0.f64(E, v as f64);
        Ok(())
    }
    #[inline]
    fn serialize_f64(self, v: f64) -> Result<()> {
        self.0.f64(E, v);
        Ok(())
    }
    #[inline]
    fn serialize_char(self, v: char) -> Result<()> {
        self.serialize_str(v.encode_utf8(&mut [0; 4]))
    }
    #[inline]
    fn serialize_str(self, v: &str) -> Result<()> {
        if E {
            self.0.element(D::String as u8);
            self.0.string(v)
        } else {
            self.0.string_after::<true>(D::String as u8, v)
        }
    }
    #[inline]
    fn serialize_bytes(self, v: &[u8]) -> Result<()> {
        self.0.begin(E, ARRAY);
        if v.len() >= 0xFFFF {
            return Err(Error::ArrayTooLong {
                offset: self.0.out.len(),
                len: v.len(),
            }
            .into());
        }
        self.0
            .out
            .extend_from_slice(&(v.len() as u16).to_le_bytes());
        if !v.is_empty() {
            self.0.out.push(D::U8 as u8);
            self.0.out.extend_from_slice(v);
        }
        Ok(())
    }
    #[inline]
    fn serialize_none(self) -> Result<()> {
        self.0.begin(E, UNDEFINED);
        Ok(())
    }
    #[inline]
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<()> {
        value.serialize(self)
    }
    #[inline]
    fn serialize_unit(self) -> Result<()> {
        self.0.begin(E, UNDEFINED);
        Ok(())
    }
    #[inline]
    fn serialize_unit_struct(self, _name: &'static str) -> Result<()> {
        self.0.begin(E, UNDEFINED);
        Ok(())
    }
    #[inline]
    fn serialize_unit_variant(
        self,
        _n: &'static str,
        _i: u32,
        variant: &'static str,
    ) -> Result<()> {
        self.serialize_str(variant)
    }
    #[inline]
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        value: &T,
    ) -> Result<()> {
        let force = if std::ptr::eq(name, CONSTRUCTED_TOKEN) || name == CONSTRUCTED_TOKEN {
            Some(true)
        } else if std::ptr::eq(name, PLAIN_TOKEN) || name == PLAIN_TOKEN {
            Some(false)
        } else {
            return value.serialize(self);
        };
        let s = self.0;
        s.force = force;
        let r = value.serialize(Ser::<E>(&mut *s));
        s.force = None;
        r
    }
    #[inline]
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _name: &'static str,
        _i: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<()> {
        self.0.force = None;
        let pos = self.0.open_plain(E)?;
        self.0.string(variant)?;
        value.serialize(Ser::<false>(&mut *self.0))?;
        self.0.close_struct(pos, 1, 0xFFFE)
    }
    #[inline(always)]
    fn serialize_seq(self, len: Option<usize>) -> Result<Seq<'a>> {
        self.0.force = None;
        let outer = self.0.open_array(E)?;
        let hint = len.filter(|&n| n >= RESERVE_MIN_LEN).unwrap_or(0);
        let start = self.0.out.len();
        Ok(Seq {
            s: self.0,
            outer,
            hint,
            start,
            index: 0,
        })
    }
    #[inline]
    fn serialize_tuple(self, _len: usize) -> Result<Seq<'a>> {
        self.0.force = None;
        let outer = self.0.open_array(E)?;
        Ok(Seq {
            s: self.0,
            outer,
            hint: 0,
            start: 0,
            index: 0,
        })
    }
    #[inline]
    fn serialize_tuple_struct(self, _name: &'static str, _len: usize) -> Result<Seq<'a>> {
        self.0.force = None;
        let outer = self.0.open_array(E)?;
        Ok(Seq {
            s: self.0,
            outer,
            hint: 0,
            start: 0,
            index: 0,
        })
    }
    #[inline]
    fn serialize_tuple_variant(
        self,
        _name: &'static str,
        _i: u32,
        variant: &'static str,
        _len: usize,
    ) -> Result<VariantSeq<'a>> {
        self.0.force = None;
        let pos = self.0.open_plain(E)?;
        self.0.out[pos] = 1;
        self.0.string(variant)?;
        let outer = self.0.open_array(false)?;
        Ok(VariantSeq {
            seq: Seq {
                s: self.0,
                outer,
                hint: 0,
                start: 0,
                index: 0,
            },
        })
    }
    #[inline]
    fn serialize_map(self, _len: Option<usize>) -> Result<Compound<'a>> {
        self.0.force = None;
        let count_pos = self.0.open_plain(E)?;
        Ok(Compound {
            s: self.0,
            count_pos,
            count: 0,
            limit: 0xFFFE,
            wrapped: false,
            key_start: 0,
        })
    }
    #[inline(always)]
    fn serialize_struct(self, name: &'static str, _len: usize) -> Result<Compound<'a>> {
        let constructed = self.0.force.take().unwrap_or(self.0.constructed);
        let (count_pos, limit) = if constructed {
            (self.0.open_constructed(E, name)?, 0x10000)
        } else {
            (self.0.open_plain(E)?, 0xFFFE)
        };
        Ok(Compound {
            s: self.0,
            count_pos,
            count: 0,
            limit,
            wrapped: false,
            key_start: 0,
        })
    }
    #[inline]
    fn serialize_struct_variant(
        self,
        _name: &'static str,
        _i: u32,
        variant: &'static str,
        len: usize,
    ) -> Result<Compound<'a>> {
        if self.0.force.take().unwrap_or(self.0.constructed) {
            self.0.force = Some(true);
            return self.serialize_struct(variant, len);
        }
        // `{variant: {fields}}`, like the other variants with content.
        let pos = self.0.open_plain(E)?;
        self.0.out[pos] = 1;
        self.0.string(variant)?;
        let count_pos = self.0.open_plain(false)?;
        Ok(Compound {
            s: self.0,
            count_pos,
            count: 0,
            limit: 0xFFFE,
            wrapped: true,
            key_start: 0,
        })
    }
}

impl ser::SerializeSeq for Seq<'_> {
    type Ok = ();
    type Error = Boxed;
    #[inline(always)]
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        let i = self.index;
        value
            .serialize(Ser::<true>(&mut *self.s))
            .map_err(|e| e.in_element(i))?;
        self.index += 1;
        if self.hint != 0 {
            let first = self.s.out.len() - self.start;
            // Capped: a huge first element must not reserve absurd amounts.
            let rest = first.saturating_mul(self.hint - 1).min(1 << 30);
            self.s.out.reserve(rest);
            self.hint = 0;
        }
        Ok(())
    }
    #[inline(always)]
    fn end(self) -> Result<()> {
        self.s.close_array(self.outer)
    }
}

impl ser::SerializeTuple for Seq<'_> {
    type Ok = ();
    type Error = Boxed;
    #[inline]
    fn serialize_element<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        ser::SerializeSeq::serialize_element(self, value)
    }
    #[inline]
    fn end(self) -> Result<()> {
        ser::SerializeSeq::end(self)
    }
}

impl ser::SerializeTupleStruct for Seq<'_> {
    type Ok = ();
    type Error = Boxed;
    #[inline]
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        ser::SerializeSeq::serialize_element(self, value)
    }
    #[inline]
    fn end(self) -> Result<()> {
        ser::SerializeSeq::end(self)
    }
}

impl ser::SerializeTupleVariant for VariantSeq<'_> {
    type Ok = ();
    type Error = Boxed;
    #[inline]
    fn serialize_field<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        ser::SerializeSeq::serialize_element(&mut self.seq, value)
    }
    #[inline]
    fn end(self) -> Result<()> {
        let s = self.seq.s;
        s.close_array(self.seq.outer)?;
        s.depth -= 1;
        Ok(())
    }
}

impl ser::SerializeMap for Compound<'_> {
    type Ok = ();
    type Error = Boxed;
    #[inline]
    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<()> {
        self.count += 1;
        self.key_start = self.s.out.len();
        key.serialize(KeySerializer { s: self.s })
    }
    #[inline]
    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<()> {
        value.serialize(Ser::<false>(&mut *self.s)).map_err(|e| {
            // The key was written as a NUL-terminated name just before the value.
            let tail = self.s.out.get(self.key_start..).unwrap_or_default();
            let end = memchr::memchr(0, tail).unwrap_or(tail.len());
            e.in_field(&String::from_utf8_lossy(&tail[..end]))
        })
    }
    #[inline]
    fn end(self) -> Result<()> {
        self.s.close_struct(self.count_pos, self.count, self.limit)
    }
}

impl ser::SerializeStruct for Compound<'_> {
    type Ok = ();
    type Error = Boxed;
    #[inline(always)]
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<()> {
        self.count += 1;
        self.s.string(key)?;
        value
            .serialize(Ser::<false>(&mut *self.s))
            .map_err(|e| e.in_field(key))
    }
    #[inline]
    fn end(self) -> Result<()> {
        self.s.close_struct(self.count_pos, self.count, self.limit)
    }
}

impl ser::SerializeStructVariant for Compound<'_> {
    type Ok = ();
    type Error = Boxed;
    #[inline]
    fn serialize_field<T: Serialize + ?Sized>(
        &mut self,
        key: &'static str,
        value: &T,
    ) -> Result<()> {
        ser::SerializeStruct::serialize_field(self, key, value)
    }
    #[inline]
    fn end(self) -> Result<()> {
        let (s, wrapped) = (&mut *self.s, self.wrapped);
        s.close_struct(self.count_pos, self.count, self.limit)?;
        if wrapped {
            s.depth -= 1;
        }
        Ok(())
    }
}

/// Writes map keys as member names: strings, chars, integers, bools (as GML would stringify).
struct KeySerializer<'a> {
    s: &'a mut Serializer,
}

fn key_error() -> Boxed {
    Error::msg("struct member names must be strings, numbers, chars or bools").into()
}

impl ser::Serializer for KeySerializer<'_> {
    type Ok = ();
    type Error = Boxed;
    type SerializeSeq = ser::Impossible<(), Boxed>;
    type SerializeTuple = ser::Impossible<(), Boxed>;
    type SerializeTupleStruct = ser::Impossible<(), Boxed>;
    type SerializeTupleVariant = ser::Impossible<(), Boxed>;
    type SerializeMap = ser::Impossible<(), Boxed>;
    type SerializeStruct = ser::Impossible<(), Boxed>;
    type SerializeStructVariant = ser::Impossible<(), Boxed>;

    fn serialize_str(self, v: &str) -> Result<()> {
        self.s.string(v)
    }
    fn serialize_bool(self, v: bool) -> Result<()> {
        self.s.string(if v { "true" } else { "false" })
    }
    fn serialize_i8(self, v: i8) -> Result<()> {
        self.serialize_i64(v as i64)
    }
    fn serialize_i16(self, v: i16) -> Result<()> {
        self.serialize_i64(v as i64)
    }
    fn serialize_i32(self, v: i32) -> Result<()> {
        self.serialize_i64(v as i64)
    }
    fn serialize_i64(self, v: i64) -> Result<()> {
        self.s.string(&v.to_string())
    }
    fn serialize_u8(self, v: u8) -> Result<()> {
        self.serialize_u64(v as u64)
    }
    fn serialize_u16(self, v: u16) -> Result<()> {
        self.serialize_u64(v as u64)
    }
    fn serialize_u32(self, v: u32) -> Result<()> {
        self.serialize_u64(v as u64)
    }
    fn serialize_u64(self, v: u64) -> Result<()> {
        self.s.string(&v.to_string())
    }
    fn serialize_f32(self, v: f32) -> Result<()> {
        self.s.string(&v.to_string())
    }
    fn serialize_f64(self, v: f64) -> Result<()> {
        self.s.string(&v.to_string())
    }
    fn serialize_char(self, v: char) -> Result<()> {
        self.s.string(v.encode_utf8(&mut [0; 4]))
    }
    fn serialize_bytes(self, _v: &[u8]) -> Result<()> {
        Err(key_error())
    }
    fn serialize_none(self) -> Result<()> {
        Err(key_error())
    }
    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<()> {
        value.serialize(self)
    }
    fn serialize_unit(self) -> Result<()> {
        Err(key_error())
    }
    fn serialize_unit_struct(self, _n: &'static str) -> Result<()> {
        Err(key_error())
    }
    fn serialize_unit_variant(self, _n: &'static str, _i: u32, v: &'static str) -> Result<()> {
        self.s.string(v)
    }
    fn serialize_newtype_struct<T: Serialize + ?Sized>(
        self,
        _n: &'static str,
        v: &T,
    ) -> Result<()> {
        v.serialize(self)
    }
    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        _n: &'static str,
        _i: u32,
        _v: &'static str,
        _value: &T,
    ) -> Result<()> {
        Err(key_error())
    }
    fn serialize_seq(self, _len: Option<usize>) -> Result<Self::SerializeSeq> {
        Err(key_error())
    }
    fn serialize_tuple(self, _len: usize) -> Result<Self::SerializeTuple> {
        Err(key_error())
    }
    fn serialize_tuple_struct(
        self,
        _n: &'static str,
        _l: usize,
    ) -> Result<Self::SerializeTupleStruct> {
        Err(key_error())
    }
    fn serialize_tuple_variant(
        self,
        _n: &'static str,
        _i: u32,
        _v: &'static str,
        _l: usize,
    ) -> Result<Self::SerializeTupleVariant> {
        Err(key_error())
    }
    fn serialize_map(self, _len: Option<usize>) -> Result<Self::SerializeMap> {
        Err(key_error())
    }
    fn serialize_struct(self, _n: &'static str, _l: usize) -> Result<Self::SerializeStruct> {
        Err(key_error())
    }
    fn serialize_struct_variant(
        self,
        _n: &'static str,
        _i: u32,
        _v: &'static str,
        _l: usize,
    ) -> Result<Self::SerializeStructVariant> {
        Err(key_error())
    }
}

/// The end of the value of datatype `dt` starting at `p` in `buf` (bytes this serializer wrote;
/// `base` is the offset of `buf` in the whole output, for constructor-name positions).
fn skip(buf: &[u8], p: usize, dt: u8, ctors: &[(&'static str, u16, usize)], base: usize) -> usize {
    let u16_at = |p: usize| u16::from_le_bytes([buf[p], buf[p + 1]]) as usize;
    let string_end = |p: usize| p + memchr::memchr(0, &buf[p..]).expect("terminated") + 1;
    let pairs = |mut p: usize, n: usize| {
        for _ in 0..n {
            p = string_end(p);
            p = skip(buf, p + 1, buf[p], ctors, base);
        }
        p
    };
    match dt {
        1 | 2 | 10 => p + 1,
        3 | 4 | 7 => p + 2,
        5 | 6 | 8 => p + 4,
        9 | 12 => p + 8,
        11 | 13 => string_end(p),
        UNDEFINED => p,
        ARRAY => {
            let n = u16_at(p);
            let mut q = p + 2;
            if n > 0 {
                let c = buf[q];
                q += 1;
                for _ in 0..n {
                    q = if c == ANY {
                        skip(buf, q + 1, buf[q], ctors, base)
                    } else {
                        skip(buf, q, c, ctors, base)
                    };
                }
            }
            q
        }
        STRUCT => {
            let m = u16_at(p);
            if m == 0xFFFE {
                let mut q = p + 4;
                if ctors.iter().any(|c| c.2 == base + q) {
                    q = string_end(q);
                }
                pairs(q + 3, u16_at(q + 1))
            } else {
                pairs(p + 2, m)
            }
        }
        _ => unreachable!("the serializer writes no other datatype"),
    }
}
