//! A game's names file: what no table of built-in names can know about one game, written by
//! the person modding it (docs/names-file.md).
//!
//! GameMaker compiles enum members and macros away: `global.state == State.idle` and
//! `global.state == STATE_IDLE` both leave `global.state == 0` in the bytecode. A names file
//! declares them again, in GML, together with the places that hold them:
//!
//! ```gml
//! enum State { idle, walk, jump = 5 }
//! #macro STATE_MENU 7
//! /// @holds global.state State
//! /// @holds mode MODE_*
//! /// @holds set_mode(0) MODE_*
//! /// @holds get_mode() MODE_*
//! /// @holds my_spr Asset.GMSprite
//! /// @holds is_ready() Bool
//! ```
//!
//! A place may also hold a *kind* of value, named as GameMaker's Feather names its data types
//! ([`TYPES`]: `Bool`, `Asset.GMSprite`, `Constant.Colour`, `Id.Instance`, ...): the
//! decompiler's naming pass ([`crate::decompile`]) then takes that kind as given, over what it
//! infers from the bytecode, and prints the value's built-in or asset name.
//!
//! The decompiler ([`crate::decompile::decompile_entry`] on a [`crate::Game`] given the file
//! with [`crate::Game::with_names_file`]) prints a number as the name where it is stored in,
//! compared with, or switched on such a place, passed as such a parameter or returned as
//! such a result. The compiler reads the names back through [`NamesFile::parse_code`], so
//! `compile(decompile(entry))` stays exact.

use crate::ast::{Expr, Literal, Stmt, UnaryOp};
use crate::builtins::Kind;
use crate::game::AssetKind;
use crate::lex::{Tok, Token, lex};
use crate::macros::strip_directives;
use crate::parse::{ParseError, parse_tokens};
use crate::visit::{VisitorMut, walk_expr_mut, walk_stmt_mut};
use std::collections::HashMap;

/// An enum of the file: its name and members (name, value) in order.
type EnumDecl = (String, Vec<(String, i64)>);

/// Where a kind of value lives.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Place {
    /// An instance or local variable of this name, on any instance (`state`, `other.state`).
    Variable(String),
    /// A global variable (`global.state`).
    Global(String),
    /// Parameter `k` (0-based) of a script or function (`set_mode(0)`).
    Parameter(String, usize),
    /// The result of a script or function (`get_mode()`).
    Result(String),
}

/// The names a place's numbers read by.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Family {
    /// The members of an enum of the file.
    Enum(String),
    /// The macros of the file whose names start with this prefix (`MODE_*`).
    Macros(String),
    /// Values of a kind, named as GameMaker's Feather types ([`TYPES`]: `Asset.GMSprite`,
    /// `Constant.Colour`, `Bool`, ...): the decompiler's naming pass takes it as the place's
    /// kind. A kind without names (`Real`, `String`, `Any`) says "print a number".
    Kind(Kind),
    /// The elements of an array literal stored in the place are of this kind (`Array<T>`).
    Elements(Kind),
}

/// The type names a `@holds` line accepts for a kind, as GameMaker's Feather names its data
/// types (the manual's "Feather Data Types": base types, and specifiers after a dot), with the
/// kind each stands for. Base types are matched without regard to case, specifiers exactly
/// (the manual's rule). `Asset.GMBackground` (GameMaker Studio 1 backgrounds) and the
/// `Constant.` names Feather's table does not list are gmkit's choices, in Feather's style.
pub const TYPES: &[(&str, Kind)] = &[
    ("Any", Kind::Any),
    ("Real", Kind::Real),
    ("Bool", Kind::Bool),
    ("String", Kind::String),
    ("Array", Kind::Array),
    ("Struct", Kind::Struct),
    ("Function", Kind::Method),
    ("Pointer", Kind::Real),
    ("Id.Instance", Kind::Instance),
    ("Asset.GMObject", Kind::Asset(AssetKind::Object)),
    ("Asset.GMSprite", Kind::Asset(AssetKind::Sprite)),
    ("Asset.GMSound", Kind::Asset(AssetKind::Sound)),
    ("Asset.GMRoom", Kind::Asset(AssetKind::Room)),
    ("Asset.GMPath", Kind::Asset(AssetKind::Path)),
    ("Asset.GMScript", Kind::Asset(AssetKind::Script)),
    ("Asset.GMFont", Kind::Asset(AssetKind::Font)),
    ("Asset.GMTimeline", Kind::Asset(AssetKind::Timeline)),
    ("Asset.GMShader", Kind::Asset(AssetKind::Shader)),
    ("Asset.GMSequence", Kind::Asset(AssetKind::Sequence)),
    ("Asset.GMTileSet", Kind::Asset(AssetKind::Background)),
    ("Asset.GMBackground", Kind::Asset(AssetKind::Background)),
    ("Asset.GMAnimCurve", Kind::Asset(AssetKind::AnimCurve)),
    (
        "Asset.GMParticleSystem",
        Kind::Asset(AssetKind::ParticleSystem),
    ),
    ("Constant.Colour", Kind::Colour),
    ("Constant.Color", Kind::Colour),
    ("Constant.HAlign", Kind::HAlign),
    ("Constant.VAlign", Kind::VAlign),
    ("Constant.Cursor", Kind::Cursor),
    ("Constant.EventType", Kind::EventType),
    ("Constant.PrimitiveType", Kind::Primitive),
    ("Constant.VirtualKey", Kind::Key),
    ("Constant.MouseButton", Kind::MouseButton),
    ("Constant.BlendMode", Kind::BlendMode),
    ("Constant.BlendModeFactor", Kind::BlendFactor),
    ("Constant.BufferDataType", Kind::BufferType),
    ("Constant.BufferType", Kind::BufferKind),
    ("Constant.BufferSeek", Kind::BufferSeek),
    ("Constant.DsType", Kind::DsType),
    ("Constant.GamepadButton", Kind::Gamepad),
    ("Constant.GamepadAxis", Kind::Gamepad),
];

/// The kind a Feather type name stands for ([`TYPES`]): the base type (before the first dot)
/// matched without regard to case, the specifier exactly.
pub fn type_kind(name: &str) -> Option<Kind> {
    let (base, spec) = match name.split_once('.') {
        Some((b, s)) => (b, Some(s)),
        None => (name, None),
    };
    TYPES.iter().find_map(|(t, k)| {
        let (tb, ts) = match t.split_once('.') {
            Some((b, s)) => (b, Some(s)),
            None => (*t, None),
        };
        (tb.eq_ignore_ascii_case(base) && ts == spec).then_some(*k)
    })
}

/// The families one TYPE word of a `@holds` line stands for: types separated by commas, each
/// a Feather type ([`type_kind`]) or `Array<T>` (the elements of an array literal). `None`
/// names the first part that is neither.
fn type_families(word: &str) -> Result<Vec<Family>, &str> {
    let mut out = Vec::new();
    for part in word.split(',') {
        let elements = part
            .strip_prefix("Array<")
            .or_else(|| part.strip_prefix("array<"))
            .and_then(|p| p.strip_suffix('>'));
        match elements {
            Some(t) => out.push(Family::Elements(type_kind(t).ok_or(t)?)),
            None => out.push(Family::Kind(type_kind(part).ok_or(part)?)),
        }
    }
    Ok(out)
}

/// The accepted type name closest to `word` (by edit distance, case aside), if one is close.
fn closest_type(word: &str) -> Option<&'static str> {
    let w: Vec<char> = word.to_ascii_lowercase().chars().take(64).collect();
    let dist = |t: &str| {
        let t: Vec<char> = t.to_ascii_lowercase().chars().collect();
        let mut prev: Vec<usize> = (0..=t.len()).collect();
        for (i, a) in w.iter().enumerate() {
            let mut cur = vec![i + 1];
            for (j, b) in t.iter().enumerate() {
                let sub = prev[j] + usize::from(a != b);
                cur.push(sub.min(prev[j + 1] + 1).min(cur[j] + 1));
            }
            prev = cur;
        }
        prev[t.len()]
    };
    TYPES
        .iter()
        .map(|(t, _)| (dist(t), *t))
        .min()
        .filter(|(d, _)| *d <= (w.len() / 3).max(1))
        .map(|(_, t)| t)
}

/// A parsed names file.
#[derive(Clone, Debug, Default)]
pub struct NamesFile {
    /// Enums in declaration order.
    enums: Vec<EnumDecl>,
    /// Macros whose value is one integer: (name, value), in order.
    int_macros: Vec<(String, i64)>,
    /// Every macro: name → its value tokens (substituted when compiling).
    macros: HashMap<String, Vec<Tok>>,
    /// `@holds` lines (a line with several types gives one entry for each).
    holds: Vec<(Place, Family)>,
    /// `@name f(k) NAME` lines: parameter `k` of function `f` prints as `NAME`.
    param_names: HashMap<(String, usize), String>,
}

/// A `@holds` line before the file's enums are known: its line, the column of its NAMES word,
/// the place and that word.
struct RawHolds {
    line: usize,
    col: usize,
    place: Place,
    word: String,
}

fn err(line: usize, col: usize, expected: &str, found: impl Into<String>) -> ParseError {
    ParseError {
        line: u32::try_from(line).unwrap_or(u32::MAX),
        col: u32::try_from(col).unwrap_or(u32::MAX),
        expected: expected.into(),
        found: found.into(),
    }
}

/// An integer literal of a declaration: `5`, `-3`, `$ff`/`0xff` (as lexed).
fn int_value(toks: &[Tok]) -> Option<i64> {
    match toks {
        [Tok::Int(v)] => Some(*v),
        [Tok::Punct("-"), Tok::Int(v)] => v.checked_neg(),
        _ => None,
    }
}

impl NamesFile {
    /// Parses the text of a names file: `enum` declarations (members with integer values or
    /// none: the previous value + 1), `#macro NAME value` lines and `/// @holds PLACE NAMES`
    /// lines (PLACE: `name`, `global.name`, `script(k)`, `script()`; NAMES: an enum of the
    /// file or a macro prefix ending in `*`). Anything else is an error with its line and
    /// column.
    pub fn parse(text: &str) -> Result<NamesFile, ParseError> {
        let mut out = NamesFile::default();
        let mut raw = Vec::new();
        for (n, line) in text.lines().enumerate() {
            let t = line.trim_start();
            let Some(rest) = t.strip_prefix("///") else {
                continue;
            };
            if let Some(h) = rest.trim_start().strip_prefix("@name") {
                let col = line.len() - t.len() + 1;
                let words = words_at(line, line.len() - h.len());
                let expected = "`/// @name FUNCTION(k) NAME`: a parameter (k from 0 to 65535) and \
                                the identifier it prints as";
                let [(_, place), (_, name)] = words[..] else {
                    return Err(err(n + 1, col, expected, h.trim()));
                };
                match parse_place(place) {
                    Some(Place::Parameter(f, k)) if crate::lex::is_identifier(name) => {
                        out.param_names.insert((f, k), name.to_string());
                    }
                    _ => return Err(err(n + 1, col, expected, h.trim())),
                }
                continue;
            }
            let Some(h) = rest.trim_start().strip_prefix("@holds") else {
                continue;
            };
            let col = line.len() - t.len() + 1;
            let words = words_at(line, line.len() - h.len());
            let [(_, place), (family_col, family)] = words[..] else {
                return Err(err(
                    n + 1,
                    col,
                    "`/// @holds PLACE NAMES` (two words after @holds)",
                    h.trim(),
                ));
            };
            let place = parse_place(place).ok_or_else(|| {
                err(
                    n + 1,
                    col,
                    "a place: `name`, `global.name`, `script(k)` (k from 0 to 65535) or `script()`",
                    place,
                )
            })?;
            raw.push(RawHolds {
                line: n + 1,
                col: family_col + 1,
                place,
                word: family.to_string(),
            });
        }
        let (rest, macros) = strip_directives(text);
        for (name, value, _) in macros {
            let toks: Vec<Tok> = lex(&value)?
                .into_iter()
                .map(|t| t.tok)
                .filter(|t| *t != Tok::Eof)
                .collect();
            if let Some(v) = int_value(&toks) {
                out.int_macros.push((name.clone(), v));
            }
            out.macros.insert(name, toks);
        }
        out.enums = parse_enums(&lex(&rest)?)?;
        for h in raw {
            // An enum of the file wins over a type of the same name: it is the user's word.
            if out.enums.iter().any(|(e, _)| *e == h.word) {
                out.holds.push((h.place, Family::Enum(h.word)));
                continue;
            }
            if let Some(p) = h.word.strip_suffix('*')
                && !p.is_empty()
            {
                out.holds.push((h.place, Family::Macros(p.to_string())));
                continue;
            }
            match type_families(&h.word) {
                Ok(fams) => out
                    .holds
                    .extend(fams.into_iter().map(|f| (h.place.clone(), f))),
                Err(bad) => {
                    let hint = closest_type(bad)
                        .map(|t| format!(" (did you mean `{t}`?)"))
                        .unwrap_or_default();
                    let list: Vec<&str> = TYPES.iter().map(|(t, _)| *t).collect();
                    let expected = format!(
                        "an enum declared in the names file, a macro prefix like `STATE_*`, \
                         or a type: {} (or `Array<TYPE>`; several separated by commas)",
                        list.join(", ")
                    );
                    return Err(err(h.line, h.col, &expected, format!("`{bad}`{hint}")));
                }
            }
        }
        Ok(out)
    }

    /// The names of the file's enums, in declaration order.
    pub fn enum_names(&self) -> impl Iterator<Item = &str> {
        self.enums.iter().map(|(n, _)| n.as_str())
    }

    /// The name parameter `k` of function `function` prints as (`/// @name f(k) NAME`).
    pub fn param_name(&self, function: &str, k: usize) -> Option<&str> {
        self.param_names
            .get(&(function.to_string(), k))
            .map(String::as_str)
    }

    /// The places the file names and their families.
    pub fn holds(&self) -> &[(Place, Family)] {
        &self.holds
    }

    /// The name `v` reads by in `family`: `State.idle`, or the first macro of the prefix with
    /// that value (a kind's names are the decompiler's: `None` here).
    pub fn name_of(&self, family: &Family, v: i64) -> Option<Expr> {
        match family {
            Family::Enum(e) => {
                let (_, members) = self.enums.iter().find(|(n, _)| n == e)?;
                let (m, _) = members.iter().find(|(_, x)| *x == v)?;
                Some(Expr::Member(Box::new(Expr::Ident(e.clone())), m.clone()))
            }
            Family::Macros(p) => self
                .int_macros
                .iter()
                .find(|(n, x)| *x == v && n.starts_with(p.as_str()))
                .map(|(n, _)| Expr::Ident(n.clone())),
            Family::Kind(_) | Family::Elements(_) => None,
        }
    }

    /// The enum or macro family of `place`, if the file names one.
    pub fn family(&self, place: &Place) -> Option<&Family> {
        self.holds
            .iter()
            .find(|(p, f)| p == place && matches!(f, Family::Enum(_) | Family::Macros(_)))
            .map(|(_, f)| f)
    }

    /// The kind the file gives `place` (a `@holds` line with a type), if any.
    pub fn kind(&self, place: &Place) -> Option<Kind> {
        self.holds.iter().find_map(|(p, f)| match f {
            Family::Kind(k) if p == place => Some(*k),
            _ => None,
        })
    }

    /// The kind the file gives the elements of an array literal stored in `place`
    /// (`Array<T>`), if any.
    pub fn elements(&self, place: &Place) -> Option<Kind> {
        self.holds.iter().find_map(|(p, f)| match f {
            Family::Elements(k) if p == place => Some(*k),
            _ => None,
        })
    }

    /// Parses code that may use the file's names: macros are substituted, `Enum.member` is
    /// written as its value (`int64(v)` where `enum_int64`, GameMaker 2 and later; a plain
    /// integer in GMS 1), then the code is parsed ([`crate::parse::parse_tokens`]). A
    /// local, variable or field of the same name is not touched (a name after `.` is a field).
    pub fn parse_code(&self, src: &str, enum_int64: bool) -> Result<Vec<Stmt>, ParseError> {
        self.parse_code_for(src, enum_int64, true)
    }

    /// As [`NamesFile::parse_code`], strings read with escapes or, `escapes` false, as GMS 1.x
    /// reads them ([`crate::Features::escaped_strings`]).
    pub fn parse_code_for(
        &self,
        src: &str,
        enum_int64: bool,
        escapes: bool,
    ) -> Result<Vec<Stmt>, ParseError> {
        let toks = crate::lex::lex_with(src, escapes)?;
        let mut out: Vec<Token> = Vec::with_capacity(toks.len());
        let mut i = 0;
        while i < toks.len() {
            let after_dot = i > 0 && toks[i - 1].tok == Tok::Punct(".");
            let (line, col) = (toks[i].line, toks[i].col);
            let t = |tok| Token { tok, line, col };
            if let Tok::Ident(name) = &toks[i].tok
                && !after_dot
            {
                if let (Some(Tok::Punct(".")), Some(Tok::Ident(m))) = (
                    toks.get(i + 1).map(|t| &t.tok),
                    toks.get(i + 2).map(|t| &t.tok),
                ) && let Some(v) = self.enum_value(name, m)
                {
                    if enum_int64 {
                        out.push(t(Tok::Ident("int64".into())));
                        out.push(t(Tok::Punct("(")));
                    }
                    if v < 0 {
                        out.push(t(Tok::Punct("-")));
                    }
                    out.push(t(Tok::Int(v.unsigned_abs().min(i64::MAX as u64) as i64)));
                    if enum_int64 {
                        out.push(t(Tok::Punct(")")));
                    }
                    i += 3;
                    continue;
                }
                if let Some(value) = self.macros.get(name) {
                    out.extend(value.iter().cloned().map(t));
                    i += 1;
                    continue;
                }
            }
            out.push(toks[i].clone());
            i += 1;
        }
        parse_tokens(out)
    }

    fn enum_value(&self, e: &str, m: &str) -> Option<i64> {
        let (_, members) = self.enums.iter().find(|(n, _)| n == e)?;
        members.iter().find(|(n, _)| n == m).map(|(_, v)| *v)
    }
}

/// The whitespace-separated words of `line` from byte `from` on, each with its byte offset.
fn words_at(line: &str, from: usize) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in line[from..].char_indices() {
        match (c.is_whitespace(), start) {
            (true, Some(s)) => {
                out.push((from + s, &line[from + s..from + i]));
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((from + s, &line[from + s..]));
    }
    out
}

fn is_name(s: &str) -> bool {
    let mut c = s.chars();
    c.next()
        .is_some_and(|f| f.is_ascii_alphabetic() || f == '_')
        && c.all(|x| x.is_ascii_alphanumeric() || x == '_')
}

fn parse_place(s: &str) -> Option<Place> {
    if let Some(g) = s.strip_prefix("global.") {
        return is_name(g).then(|| Place::Global(g.to_string()));
    }
    if let Some(call) = s.strip_suffix(')') {
        let (f, arg) = call.split_once('(')?;
        if !is_name(f) {
            return None;
        }
        return if arg.is_empty() {
            Some(Place::Result(f.to_string()))
        } else {
            // A call passes at most a 16-bit count of arguments.
            let k: usize = arg.parse().ok().filter(|k| *k <= usize::from(u16::MAX))?;
            Some(Place::Parameter(f.to_string(), k))
        };
    }
    is_name(s).then(|| Place::Variable(s.to_string()))
}

/// The `enum` declarations of `toks` (nothing else may appear outside them).
fn parse_enums(toks: &[Token]) -> Result<Vec<EnumDecl>, ParseError> {
    let mut out: Vec<EnumDecl> = Vec::new();
    let mut i = 0;
    let at = |i: usize| {
        toks.get(i)
            .map_or((1, 1), |t| (t.line as usize, t.col as usize))
    };
    let shown = |i: usize| toks.get(i).map_or("the end".into(), |t| t.tok.describe());
    let expect = |i: usize, what: &str| {
        let (l, c) = at(i);
        Err(err(l, c, what, shown(i)))
    };
    while i < toks.len() && toks[i].tok != Tok::Eof {
        if toks[i].tok == Tok::Punct(";") {
            i += 1;
            continue;
        }
        if !matches!(&toks[i].tok, Tok::Ident(e) if e == "enum") {
            return expect(i, "`enum`, `#macro` or a `/// @holds` comment");
        }
        let Some(Tok::Ident(name)) = toks.get(i + 1).map(|t| &t.tok) else {
            return expect(i + 1, "the enum's name");
        };
        if toks.get(i + 2).map(|t| &t.tok) != Some(&Tok::Punct("{")) {
            return expect(i + 2, "`{`");
        }
        i += 3;
        let mut members = Vec::new();
        let mut next = 0i64;
        loop {
            match toks.get(i).map(|t| &t.tok) {
                Some(Tok::Punct("}")) => {
                    i += 1;
                    break;
                }
                Some(Tok::Ident(m)) => {
                    i += 1;
                    if toks.get(i).map(|t| &t.tok) == Some(&Tok::Punct("=")) {
                        let start = i + 1;
                        let mut end = start;
                        while toks.get(end).is_some_and(|t| {
                            !matches!(t.tok, Tok::Punct(",") | Tok::Punct("}") | Tok::Eof)
                        }) {
                            end += 1;
                        }
                        let value: Vec<Tok> =
                            toks[start..end].iter().map(|t| t.tok.clone()).collect();
                        let Some(v) = int_value(&value) else {
                            return expect(start, "an integer value for the enum member");
                        };
                        next = v;
                        i = end;
                    }
                    members.push((m.clone(), next));
                    next = next.wrapping_add(1);
                    if toks.get(i).map(|t| &t.tok) == Some(&Tok::Punct(",")) {
                        i += 1;
                    }
                }
                _ => return expect(i, "an enum member or `}`"),
            }
        }
        out.push((name.clone(), members));
    }
    Ok(out)
}

/// Names the literals of `body` by `file` (see the module's documentation): `script` is the
/// script or function the body belongs to (for its parameters and result), `enum_int64`
/// whether enum members are int64 literals in this game.
pub(crate) fn name_literals(
    file: &NamesFile,
    script: Option<&str>,
    enum_int64: bool,
    body: &mut [Stmt],
) {
    if file.holds.is_empty() {
        return;
    }
    let mut n = Namer {
        file,
        script,
        params: &[],
        enum_int64,
    };
    for s in body {
        n.visit_stmt_mut(s);
    }
}

struct Namer<'a> {
    file: &'a NamesFile,
    /// The script or function the code belongs to.
    script: Option<&'a str>,
    /// Its named parameters (2.3+ functions), in order.
    params: &'a [(String, Option<Expr>)],
    enum_int64: bool,
}

impl Namer<'_> {
    /// The family of the place `e` reads or writes.
    fn place(&self, e: &Expr) -> Option<&Family> {
        match e {
            Expr::Ident(n) => self.file.family(&Place::Variable(n.clone())).or_else(|| {
                let k = match self.params.iter().position(|(p, _)| p == n) {
                    Some(k) => k,
                    None => n.strip_prefix("argument")?.parse().ok()?,
                };
                self.file
                    .family(&Place::Parameter(self.script?.to_string(), k))
            }),
            Expr::Member(obj, n) => match &**obj {
                Expr::Ident(g) if g == "global" => self.file.family(&Place::Global(n.clone())),
                _ => self.file.family(&Place::Variable(n.clone())),
            },
            Expr::Call(f, _) => match &**f {
                Expr::Ident(s) => self.file.family(&Place::Result(s.clone())),
                _ => None,
            },
            Expr::Paren(x) => self.place(x),
            _ => None,
        }
    }

    /// Writes the literal `e` as its name in `family`, where one reads back as the same
    /// literal.
    fn name(&self, e: &mut Expr, family: &Family) {
        let v = match (&*e, family) {
            (Expr::Lit(Literal::Int64(v)), Family::Enum(_)) if self.enum_int64 => *v,
            (Expr::Lit(Literal::Int(v)), Family::Enum(_)) if !self.enum_int64 => *v,
            (Expr::Lit(Literal::Int(v)), Family::Macros(_)) => *v,
            (Expr::Unary(UnaryOp::Neg, x), Family::Macros(_)) => match &**x {
                Expr::Lit(Literal::Int(v)) => -*v,
                _ => return,
            },
            // Kinds are named by the decompiler's naming pass.
            _ => return,
        };
        if let Some(n) = self.file.name_of(family, v) {
            *e = n;
        }
    }
}

/// Names the values stored in, compared with or switched on a place of the file, and those
/// passed as its parameters or returned as its results, once their own parts are named.
impl VisitorMut for Namer<'_> {
    fn visit_stmt_mut(&mut self, s: &mut Stmt) {
        walk_stmt_mut(self, s);
        match s {
            Stmt::Assign {
                target,
                op: None,
                value,
            } => {
                if let Some(f) = self.place(target) {
                    self.name(value, f);
                }
            }
            Stmt::Var(vs) => {
                for (n, v) in vs {
                    if let Some(v) = v
                        && let Some(f) = self.file.family(&Place::Variable(n.clone()))
                    {
                        self.name(v, f);
                    }
                }
            }
            Stmt::Switch(e, cases) => {
                if let Some(f) = self.place(e).cloned() {
                    for l in cases.iter_mut().filter_map(|c| c.label.as_mut()) {
                        self.name(l, &f);
                    }
                }
            }
            Stmt::Return(Some(v)) => {
                if let Some(f) = self
                    .script
                    .and_then(|s| self.file.family(&Place::Result(s.to_string())))
                {
                    self.name(v, f);
                }
            }
            _ => {}
        }
    }

    /// A nested function: its parameters and results are its own (by its name).
    fn visit_function_mut(&mut self, f: &mut crate::ast::Function) {
        let mut inner = Namer {
            file: self.file,
            script: f.name.as_deref(),
            params: &f.params,
            enum_int64: self.enum_int64,
        };
        let mut body = std::mem::take(&mut f.body);
        inner.visit_block_mut(&mut body);
        f.body = body;
    }

    fn visit_expr_mut(&mut self, e: &mut Expr) {
        walk_expr_mut(self, e);
        match e {
            Expr::Call(f, args) | Expr::New(f, args) => {
                if let Expr::Ident(s) = &**f {
                    for (k, a) in args.iter_mut().enumerate() {
                        if let Some(fam) = self.file.family(&Place::Parameter(s.clone(), k)) {
                            self.name(a, fam);
                        }
                    }
                }
            }
            Expr::Binary(crate::ast::BinaryOp::Eq | crate::ast::BinaryOp::Ne, a, b) => {
                if let Some(f) = self.place(a).cloned() {
                    self.name(b, &f);
                } else if let Some(f) = self.place(b).cloned() {
                    self.name(a, &f);
                }
            }
            _ => {}
        }
    }
}

/// Gives the parameters of the functions declared in `body` the names the file gives them
/// (`/// @name f(k) NAME`; the decompiler writes `argK`, GameMaker keeping no parameter
/// names), where the name is free: no other name of the function (its parameters, any name
/// its body or a nested function uses) is that name, and it is no keyword or built-in. The
/// parameters compile by their position, so the renamed text compiles to the same code.
pub(crate) fn name_parameters(file: &NamesFile, body: &mut [Stmt]) {
    if file.param_names.is_empty() {
        return;
    }
    let mut p = ParamNamer { file };
    for s in body {
        p.visit_stmt_mut(s);
    }
}

struct ParamNamer<'a> {
    file: &'a NamesFile,
}

impl VisitorMut for ParamNamer<'_> {
    fn visit_function_mut(&mut self, f: &mut crate::ast::Function) {
        if let Some(name) = f.name.clone() {
            let mut used = Idents::default();
            for s in &f.body {
                crate::visit::Visitor::visit_stmt(&mut used, s);
            }
            for (_, d) in f.params.iter().filter_map(|(n, d)| Some((n, d.as_ref()?))) {
                crate::visit::Visitor::visit_expr(&mut used, d);
            }
            let mut taken: std::collections::HashSet<String> = used.0;
            taken.extend(f.params.iter().map(|(n, _)| n.clone()));
            let mut renames: HashMap<String, String> = HashMap::new();
            for (k, (old, _)) in f.params.iter().enumerate() {
                let Some(new) = self.file.param_name(&name, k) else {
                    continue;
                };
                let builtin = crate::builtins::constant(new).is_some()
                    || crate::builtins::variable(new).is_some()
                    || crate::builtins::function(new).is_some()
                    || crate::builtins::documented_constant(new).is_some()
                    || crate::parse::is_keyword(new);
                if taken.contains(new) || builtin {
                    continue;
                }
                taken.insert(new.to_string());
                renames.insert(old.clone(), new.to_string());
            }
            if !renames.is_empty() {
                for (n, d) in &mut f.params {
                    if let Some(d) = d {
                        Renamer(&renames).visit_expr_mut(d);
                    }
                    if let Some(new) = renames.get(n) {
                        *n = new.clone();
                    }
                }
                let mut r = Renamer(&renames);
                for s in &mut f.body {
                    r.visit_stmt_mut(s);
                }
            }
        }
        crate::visit::walk_function_mut(self, f);
    }
}

/// Every bare name a tree uses, nested functions included.
#[derive(Default)]
struct Idents(std::collections::HashSet<String>);

impl crate::visit::Visitor for Idents {
    fn visit_stmt(&mut self, s: &Stmt) {
        match s {
            Stmt::Var(v) => self.0.extend(v.iter().map(|(n, _)| n.clone())),
            Stmt::Static(v) => self.0.extend(v.iter().map(|(n, _)| n.clone())),
            Stmt::GlobalVar(v) => self.0.extend(v.iter().cloned()),
            Stmt::Try {
                catch: Some((n, _)),
                ..
            } => {
                self.0.insert(n.clone());
            }
            _ => {}
        }
        crate::visit::walk_stmt(self, s);
    }

    fn visit_expr(&mut self, e: &Expr) {
        if let Expr::Ident(n) = e {
            self.0.insert(n.clone());
        }
        crate::visit::walk_expr(self, e);
    }
}

/// Renames bare names in a function's own body (not in the functions nested in it: their
/// names are their own, GML functions see no outer locals).
struct Renamer<'a>(&'a HashMap<String, String>);

impl VisitorMut for Renamer<'_> {
    fn visit_expr_mut(&mut self, e: &mut Expr) {
        if let Expr::Ident(n) = e
            && let Some(new) = self.0.get(n.as_str())
        {
            *n = new.clone();
        }
        walk_expr_mut(self, e);
    }

    fn visit_function_mut(&mut self, _f: &mut crate::ast::Function) {}
}
