//! Names that compile to constants, and constant folding (spec `gml-bytecode.md` §3.3, §8):
//! a syntax-tree pass between parsing real source and compiling it.
//!
//! - `Enum.Member` → its int64 value; built-in constants (`c_white`, [`crate::builtins`]) →
//!   their value; asset names → their index where the version pushes plain numbers (before
//!   2023.8; scripts only before 2.3, later they are functions).
//! - Folding: a left-associative chain of one precedence level is folded only while its two
//!   leftmost operands are constants (`1 + 2 + x` → `3 + x`, `x + 1 + 2` unchanged); unary
//!   operators on constants; `ord("A")`, `chr(65)`, `real("1")`/`string("s")` (GMS1 1539+ and
//!   every GMS2); integral reals become integers (`1.0` → `pushi.e 1`); `if (<constant>)`
//!   keeps only the branch taken.
//!
//! Locals (`var` names and parameters) shadow constants and assets.

use crate::ast::{BinaryOp, Expr, Function, Literal, Stmt, UnaryOp};
use crate::builtins::{ConstValue, constant};
use crate::parse::{ACCESSOR, ARRAY_GET, ARRAY_SET};
use crate::visit::{Visitor, VisitorMut, walk_expr_mut, walk_function, walk_stmt, walk_stmt_mut};
use std::collections::{HashMap, HashSet};

/// What names compile to constants in one game.
#[derive(Clone, Debug, Default)]
pub struct ConstNames {
    /// Enum name → member → value.
    pub enums: HashMap<String, HashMap<String, i64>>,
    /// Asset names compiled as their index.
    pub assets: HashMap<String, i64>,
    /// Enum members are int64 constants (`push.l`); GMS 1.4 pushes plain integers.
    pub enum_int64: bool,
    /// `a[@ i]` reads and writes call `array_get`/`array_set` (GMS 1.x, seen in
    /// j2l-expansion); later versions index plainly.
    pub array_accessor_calls: bool,
    /// Array reads inside a data-structure accessor (`m[? a[i]]`) call `array_get` (2.3+:
    /// tiktaktoe's `SatelliteReset`, 2022.9).
    pub array_get_in_accessors: bool,
    /// ... through `@@array_get@@` instead (2024.14+).
    pub array_get_internal: bool,
    /// A `var` declares its names for the whole entry, before the declaration too (GMS 1.x).
    pub locals_whole_entry: bool,
    /// Functions called by another name (GMS1 extension functions): name → script name.
    pub aliases: HashMap<String, String>,
    /// `self` and `other` used as values read their `id` (`push.v other.id`): bytecode 15 –
    /// 2.2, seen in every GMS 1.4 and GMS2 2.0 file of the corpus for `with (other)`.
    pub self_other_id: bool,
}

/// Resolves constant names and folds constants in a code entry's statements.
pub fn resolve(body: &mut Vec<Stmt>, names: &ConstNames) {
    let mut locals = HashSet::new();
    collect_locals(body, false, &mut locals);
    if names.locals_whole_entry && !locals.is_empty() {
        // GMS 1.x: a `var` anywhere makes the name local in the whole entry, also before
        // the declaration (j2l-expansion's oPlayer Step: `h = 0;` … `var h = R;`). An
        // uninitialised declaration first emits no code and declares them all.
        let mut all: Vec<String> = locals.iter().cloned().collect();
        all.sort();
        body.insert(0, Stmt::Var(all.into_iter().map(|n| (n, None)).collect()));
    }
    let mut cx = Cx { names, locals };
    cx.visit_block_mut(body);
}

/// Folds and resolves one expression (an enum member's value); `None` when it is not a
/// constant.
pub fn const_value(e: &mut Expr, names: &ConstNames) -> Option<Literal> {
    let mut cx = Cx {
        names,
        locals: HashSet::new(),
    };
    cx.visit_expr_mut(e);
    match e {
        Expr::Lit(l) => Some(l.clone()),
        _ => None,
    }
}

/// Collects the locals `body` declares (`var`, `catch` variables, parameters of nested
/// function declarations; `static`s too where `statics`), anywhere in it.
pub(crate) fn collect_locals(body: &[Stmt], statics: bool, out: &mut HashSet<String>) {
    Locals { statics, out }.visit_block(body)
}

/// The names [`collect_locals`] collects.
struct Locals<'a> {
    statics: bool,
    out: &'a mut HashSet<String>,
}

impl Visitor for Locals<'_> {
    fn visit_stmt(&mut self, s: &Stmt) {
        match s {
            Stmt::Var(v) => self.out.extend(v.iter().map(|(n, _)| n.clone())),
            Stmt::Static(v) if self.statics => self.out.extend(v.iter().map(|(n, _)| n.clone())),
            Stmt::Try {
                catch: Some((n, _)),
                ..
            } => {
                self.out.insert(n.clone());
            }
            _ => {}
        }
        walk_stmt(self, s)
    }

    fn visit_function(&mut self, f: &Function) {
        self.out.extend(f.params.iter().map(|(n, _)| n.clone()));
        walk_function(self, f)
    }

    /// Expressions declare nothing (a function literal's locals are its own).
    fn visit_expr(&mut self, _: &Expr) {}
}

struct Cx<'a> {
    names: &'a ConstNames,
    locals: HashSet<String>,
}

impl VisitorMut for Cx<'_> {
    fn visit_stmt_mut(&mut self, s: &mut Stmt) {
        crate::limits::deep(|| self.stmt(s))
    }

    fn visit_expr_mut(&mut self, e: &mut Expr) {
        crate::limits::deep(|| self.expr(e))
    }
}

impl Cx<'_> {
    fn stmt(&mut self, s: &mut Stmt) {
        if !self.names.array_accessor_calls
            && let Stmt::Expr(Expr::Call(f, args)) = s
            && matches!(&**f, Expr::Ident(n) if n == ARRAY_SET)
            && args.len() >= 3
        {
            let mut args = std::mem::take(args);
            let value = args.pop().expect("three arguments");
            let base = args.remove(0);
            *s = Stmt::Assign {
                target: Expr::Index(Box::new(base), args),
                op: None,
                value,
            };
        }
        // `gml_pragma(...)` directs the compiler and leaves no code; `delete v` is
        // `v = undefined` (spec §4.10).
        if let Stmt::Expr(Expr::Call(f, _)) = s
            && matches!(&**f, Expr::Ident(n) if n == "gml_pragma")
        {
            *s = Stmt::Block(Vec::new());
            return;
        }
        // (`delete l[| i]` is the accessor's setter call, `ds_list_set(l, i, undefined)`:
        // longdog's `VI_Core`.)
        if let Stmt::Delete(target) = s {
            let target = std::mem::replace(target, Expr::Ident(String::new()));
            *s = crate::parse::assignment(target, None, Expr::Ident("undefined".into()));
        }
        match s {
            Stmt::Assign { target, value, .. } => {
                self.lvalue(target);
                self.visit_expr_mut(value);
            }
            Stmt::Update { target, .. } => self.lvalue(target),
            _ => walk_stmt_mut(self, s),
        }
        // `if (<constant>)` keeps only the branch taken.
        if let Stmt::If(Expr::Lit(l), a, b) = s
            && let Some(t) = truth(l)
        {
            let taken = if t {
                std::mem::take(a)
            } else {
                b.take().unwrap_or_default()
            };
            *s = Stmt::Block(taken);
        }
    }

    /// An assigned place: a bare name stays a name.
    fn lvalue(&mut self, e: &mut Expr) {
        crate::limits::deep(|| self.lvalue_inner(e))
    }

    fn lvalue_inner(&mut self, e: &mut Expr) {
        match e {
            Expr::Ident(n) if is_builtin_array(n) && !self.locals.contains(n.as_str()) => {
                *e = element0(n);
            }
            Expr::Ident(_) => {}
            Expr::Member(o, _) => {
                if !matches!(&**o, Expr::Ident(n) if matches!(n.as_str(), "self" | "other" | "global"))
                {
                    self.visit_expr_mut(o)
                }
            }
            Expr::Index(b, idx) => {
                // An indexed built-in array (`view_camera[0]`) is that element: only a bare
                // name means element 0.
                if !matches!(&**b, Expr::Ident(_)) {
                    self.lvalue(b);
                }
                for i in idx.iter_mut() {
                    self.visit_expr_mut(i);
                }
            }
            e => self.visit_expr_mut(e),
        }
    }

    fn name_value(&self, n: &str) -> Option<Literal> {
        if self.locals.contains(n) {
            return None;
        }
        if let Some(c) = constant(n) {
            return Some(match c {
                ConstValue::Int(v) => Literal::Int(v),
                ConstValue::Real(v) => Literal::Real(v),
            });
        }
        self.names.assets.get(n).map(|&i| Literal::Int(i))
    }

    fn expr(&mut self, e: &mut Expr) {
        let folded = match e {
            Expr::Lit(Literal::Real(v)) => integral(*v).map(Literal::Int),
            Expr::Lit(_) => None,
            Expr::Ident(n) if self.names.self_other_id && (n == "self" || n == "other") => {
                *e = Expr::Member(Box::new(Expr::Ident(n.clone())), "id".into());
                None
            }
            Expr::Ident(n) if is_builtin_array(n) && !self.locals.contains(n.as_str()) => {
                *e = element0(n);
                None
            }
            Expr::Ident(n) => self.name_value(n),
            Expr::Member(o, m) => {
                if let Expr::Ident(en) = &**o
                    && !self.locals.contains(en)
                    && let Some(v) = self.names.enums.get(en).and_then(|m2| m2.get(m.as_str()))
                {
                    Some(if self.names.enum_int64 {
                        Literal::Int64(*v)
                    } else {
                        Literal::Int(*v)
                    })
                } else if matches!(&**o, Expr::Ident(n) if matches!(n.as_str(), "self" | "other" | "global"))
                {
                    None
                } else {
                    // An accessor is not a call in the source: a method called on it
                    // (`s[$ k].m()`) takes the instance-first form of a parenthesised value,
                    // not a chained call's (gml-simpledraw, 2023.8).
                    let accessor = matches!(&**o, Expr::Call(f, _)
                        if matches!(&**f, Expr::Ident(n) if n.starts_with(ACCESSOR)));
                    self.visit_expr_mut(o);
                    if accessor {
                        let inner = std::mem::replace(&mut **o, Expr::Ident(String::new()));
                        **o = Expr::Paren(Box::new(inner));
                    }
                    None
                }
            }
            Expr::Index(b, idx) => {
                if !matches!(&**b, Expr::Ident(_)) {
                    self.lvalue(b);
                }
                for i in idx.iter_mut() {
                    self.visit_expr_mut(i);
                }
                None
            }
            Expr::Call(callee, args)
                if !self.names.array_accessor_calls
                    && matches!(&**callee, Expr::Ident(n) if n == ARRAY_GET)
                    && args.len() >= 2 =>
            {
                let mut args = std::mem::take(args);
                let base = args.remove(0);
                *e = Expr::Index(Box::new(base), args);
                self.visit_expr_mut(e);
                return;
            }
            Expr::Call(callee, args) | Expr::New(callee, args) => {
                let mut accessor = false;
                if let Expr::Ident(n) = &mut **callee
                    && let Some(real) = n.strip_prefix(ACCESSOR)
                {
                    *n = real.to_string();
                    accessor = true;
                }
                match &mut **callee {
                    Expr::Ident(n) if n == ARRAY_GET || n == ARRAY_SET => {
                        *n = if n == ARRAY_GET {
                            "array_get"
                        } else {
                            "array_set"
                        }
                        .into();
                    }
                    Expr::Ident(n) => {
                        if let Some(a) = self.names.aliases.get(n.as_str()) {
                            *n = a.clone();
                        }
                    }
                    c => self.visit_expr_mut(c),
                }
                for a in args.iter_mut() {
                    self.visit_expr_mut(a);
                }
                if self.names.array_get_in_accessors && accessor {
                    let f = if self.names.array_get_internal {
                        "@@array_get@@"
                    } else {
                        "array_get"
                    };
                    accessor_key_array_reads(callee, args, f, self.names.array_get_internal);
                }
                match (&**callee, args.as_slice()) {
                    (Expr::Ident(f), [Expr::Lit(a)]) => intrinsic(f, a),
                    _ => None,
                }
            }
            Expr::Update { target, .. } => {
                self.lvalue(target);
                None
            }
            Expr::Unary(..)
            | Expr::Binary(..)
            | Expr::Paren(_)
            | Expr::Ternary(..)
            | Expr::Array(_)
            | Expr::Struct(_)
            | Expr::Function(_) => {
                walk_expr_mut(self, e);
                match e {
                    Expr::Unary(op, x) => match &**x {
                        Expr::Lit(l) => fold_unary(*op, l),
                        _ => None,
                    },
                    Expr::Binary(op, l, r) => match (&**l, &**r) {
                        (Expr::Lit(a), Expr::Lit(b)) => fold_binary(*op, a, b),
                        _ => None,
                    },
                    Expr::Paren(x) => match &**x {
                        Expr::Lit(l) => Some(l.clone()),
                        _ => None,
                    },
                    _ => None,
                }
            }
        };
        if let Some(l) = folded {
            *e = Expr::Lit(l);
        }
    }
}

/// `a[i]` → `array_get(a, i)` in an expression (not inside calls).
/// The array element reads of an accessor call's keys (not a setter's value; the container
/// too with `container`, 2024.14+) as calls of `f` (`array_get`, 2024.14+ `@@array_get@@`).
pub(crate) fn accessor_key_array_reads(callee: &Expr, args: &mut [Expr], f: &str, container: bool) {
    let setter = matches!(callee, Expr::Ident(f) if f.ends_with("_set"));
    let end = args.len() - usize::from(setter);
    let from = usize::from(!container);
    for a in args.iter_mut().take(end).skip(from) {
        array_reads_as_calls(a, f);
    }
}

fn array_reads_as_calls(e: &mut Expr, f: &str) {
    crate::limits::deep(|| array_reads_as_calls_inner(e, f))
}

fn array_reads_as_calls_inner(e: &mut Expr, f: &str) {
    match e {
        Expr::Index(b, idx) if idx.len() == 1 => {
            array_reads_as_calls(b, f);
            let mut args = vec![std::mem::replace(&mut **b, Expr::Ident(String::new()))];
            args.append(idx);
            *e = Expr::Call(Box::new(Expr::Ident(f.into())), args);
        }
        Expr::Binary(_, l, r) => {
            array_reads_as_calls(l, f);
            array_reads_as_calls(r, f);
        }
        Expr::Unary(_, x) | Expr::Paren(x) => array_reads_as_calls(x, f),
        _ => {}
    }
}

/// Built-in array variables that, written without an index, mean element 0 (spec §4.7:
/// read and written with an int64 index 0).
pub(crate) fn is_builtin_array(n: &str) -> bool {
    (n.starts_with("view_")
        && matches!(
            &n[5..],
            "xview"
                | "yview"
                | "wview"
                | "hview"
                | "xport"
                | "yport"
                | "wport"
                | "hport"
                | "angle"
                | "hborder"
                | "vborder"
                | "hspeed"
                | "vspeed"
                | "object"
                | "visible"
                | "surface_id"
                | "camera"
        ))
        || (n.starts_with("background_")
            && matches!(
                &n[11..],
                "visible"
                    | "foreground"
                    | "index"
                    | "x"
                    | "y"
                    | "htiled"
                    | "vtiled"
                    | "xscale"
                    | "yscale"
                    | "hspeed"
                    | "vspeed"
                    | "blend"
                    | "alpha"
            ))
}

/// `body` with each built-in array variable written without an index (`view_xview`, not a
/// local) made its element 0 with the int64 index GameMaker compiles it to, or `None` when
/// there is none: what compiling a game's entry does with a decompiled text
/// ([`crate::decompile`] prints that element as the bare name), as [`resolve`] does with a
/// project's source.
///
/// `backgrounds`: whether the version has the room-background arrays (`background_alpha`, ...;
/// GameMaker 1.x): from 2.0 those names are the game's own variables.
pub(crate) fn builtin_array_elements(body: &[Stmt], backgrounds: bool) -> Option<Vec<Stmt>> {
    /// Rewrites the bare names (`found`: some was).
    struct Bare {
        locals: HashSet<String>,
        found: bool,
        backgrounds: bool,
    }

    impl VisitorMut for Bare {
        fn visit_expr_mut(&mut self, e: &mut Expr) {
            match e {
                Expr::Ident(n)
                    if is_builtin_array(n)
                        && !self.locals.contains(n.as_str())
                        && (self.backgrounds || !n.starts_with("background_")) =>
                {
                    self.found = true;
                    *e = element0(n);
                }
                // An indexed element and a called name stay as they are.
                Expr::Index(b, idx) => {
                    if !matches!(&**b, Expr::Ident(_)) {
                        self.visit_expr_mut(b);
                    }
                    for i in idx.iter_mut() {
                        self.visit_expr_mut(i);
                    }
                }
                Expr::Call(f, args) | Expr::New(f, args) => {
                    if !matches!(&**f, Expr::Ident(_)) {
                        self.visit_expr_mut(f);
                    }
                    for a in args.iter_mut() {
                        self.visit_expr_mut(a);
                    }
                }
                e => walk_expr_mut(self, e),
            }
        }
    }

    /// Whether `body` names a built-in array anywhere (a cheap look before any copy).
    fn names_one(body: &[Stmt]) -> bool {
        struct Names(bool);
        impl Visitor for Names {
            fn visit_expr(&mut self, e: &Expr) {
                if let Expr::Ident(n) = e
                    && is_builtin_array(n)
                {
                    self.0 = true;
                }
                if !self.0 {
                    crate::visit::walk_expr(self, e);
                }
            }
        }
        let mut v = Names(false);
        v.visit_block(body);
        v.0
    }

    if !names_one(body) {
        return None;
    }
    let mut locals = HashSet::new();
    collect_locals(body, true, &mut locals);
    let mut out = body.to_vec();
    let mut b = Bare {
        locals,
        found: false,
        backgrounds,
    };
    b.visit_block_mut(&mut out);
    b.found.then_some(out)
}

fn element0(n: &str) -> Expr {
    Expr::Index(
        Box::new(Expr::Ident(n.to_string())),
        vec![Expr::Lit(Literal::Int64(0))],
    )
}

/// A real that is a whole number (in int64 range) as an integer.
fn integral(v: f64) -> Option<i64> {
    (v.is_finite() && v.fract() == 0.0 && v.abs() < 9.0e15).then_some(v as i64)
}

/// The truth of a constant condition (numbers: > 0.5).
fn truth(l: &Literal) -> Option<bool> {
    Some(match l {
        Literal::Bool(b) => *b,
        Literal::Int(v) | Literal::Int64(v) => *v as f64 > 0.5,
        Literal::Real(v) => *v > 0.5,
        Literal::String(_) => return None,
    })
}

#[derive(Clone, Copy)]
enum Num {
    I(i64, bool),
    F(f64),
}

fn num(l: &Literal) -> Option<Num> {
    Some(match l {
        // A literal beyond int32 (`$FF0000FF`) is an int64 constant.
        Literal::Int(v) => Num::I(*v, i32::try_from(*v).is_err()),
        Literal::Int64(v) => Num::I(*v, true),
        Literal::Bool(b) => Num::I(*b as i64, false),
        Literal::Real(v) => Num::F(*v),
        Literal::String(_) => return None,
    })
}

fn f(n: Num) -> f64 {
    match n {
        Num::I(v, _) => v as f64,
        Num::F(v) => v,
    }
}

fn int_lit(v: i64, wide: bool) -> Literal {
    if wide {
        Literal::Int64(v)
    } else {
        Literal::Int(v)
    }
}

fn real_lit(v: f64) -> Literal {
    match integral(v) {
        Some(i) => Literal::Int(i),
        None => Literal::Real(v),
    }
}

fn intrinsic(name: &str, a: &Literal) -> Option<Literal> {
    match (name, a) {
        ("ord", Literal::String(s)) => s.chars().next().map(|c| Literal::Int(c as i64)),
        ("chr", l) => {
            let v = f(num(l)?) as u32;
            char::from_u32(v).map(|c| Literal::String(c.to_string()))
        }
        ("real", Literal::String(s)) => s.trim().parse::<f64>().ok().map(real_lit),
        ("real", l @ (Literal::Int(_) | Literal::Real(_))) => Some(l.clone()),
        ("string", Literal::String(s)) => Some(Literal::String(s.clone())),
        _ => None,
    }
}

fn fold_unary(op: UnaryOp, l: &Literal) -> Option<Literal> {
    if let Literal::Bool(b) = l
        && op == UnaryOp::Not
    {
        return Some(Literal::Bool(!b));
    }
    let n = num(l)?;
    Some(match (op, n) {
        (UnaryOp::Neg, Num::I(v, w)) => int_lit(v.wrapping_neg(), w),
        (UnaryOp::Neg, Num::F(v)) => Literal::Real(-v),
        (UnaryOp::Not, n) => Literal::Int((f(n) <= 0.5) as i64),
        (UnaryOp::BitNot, Num::I(v, w)) => int_lit(!v, w),
        (UnaryOp::BitNot, Num::F(v)) => int_lit(!(v as i64), false),
    })
}

fn fold_binary(op: BinaryOp, a: &Literal, b: &Literal) -> Option<Literal> {
    use BinaryOp::*;
    if let (Literal::String(x), Literal::String(y)) = (a, b) {
        return Some(match op {
            Add => Literal::String(format!("{x}{y}")),
            Eq => Literal::Bool(x == y),
            Ne => Literal::Bool(x != y),
            Lt => Literal::Bool(x < y),
            Le => Literal::Bool(x <= y),
            Gt => Literal::Bool(x > y),
            Ge => Literal::Bool(x >= y),
            _ => return None,
        });
    }
    let (x, y) = (num(a)?, num(b)?);
    let wide = matches!(x, Num::I(_, true)) || matches!(y, Num::I(_, true));
    let ints = match (x, y) {
        (Num::I(p, _), Num::I(q, _)) => Some((p, q)),
        _ => None,
    };
    Some(match op {
        Add | Sub | Mul => match ints {
            Some((p, q)) => int_lit(
                match op {
                    Add => p.wrapping_add(q),
                    Sub => p.wrapping_sub(q),
                    _ => p.wrapping_mul(q),
                },
                wide,
            ),
            None => Literal::Real(match op {
                Add => f(x) + f(y),
                Sub => f(x) - f(y),
                _ => f(x) * f(y),
            }),
        },
        Div => {
            if f(y) == 0.0 {
                return None;
            }
            // int64 operands keep an integral quotient int64 (`($FF0000FF >> 24) / $ff`).
            match (wide, integral(f(x) / f(y))) {
                (true, Some(q)) if ints.is_some() => Literal::Int64(q),
                _ => real_lit(f(x) / f(y)),
            }
        }
        IntDiv | Mod => match ints {
            Some((_, 0)) => return None,
            Some((p, q)) => int_lit(
                if op == IntDiv {
                    p.wrapping_div(q)
                } else {
                    p.wrapping_rem(q)
                },
                wide,
            ),
            None if f(y) == 0.0 => return None,
            None if op == IntDiv => real_lit((f(x) / f(y)).trunc()),
            None => Literal::Real(f(x) % f(y)),
        },
        BitAnd | BitOr | BitXor | Shl | Shr => {
            let (p, q) = (f(x) as i64, f(y) as i64);
            let v = match op {
                BitAnd => p & q,
                BitOr => p | q,
                BitXor => p ^ q,
                Shl => {
                    if !(0..64).contains(&q) {
                        0
                    } else {
                        p.wrapping_shl(q as u32)
                    }
                }
                _ => {
                    if !(0..64).contains(&q) {
                        0
                    } else {
                        p >> q
                    }
                }
            };
            int_lit(v, wide || i32::try_from(v).is_err())
        }
        Lt => Literal::Bool(f(x) < f(y)),
        Le => Literal::Bool(f(x) <= f(y)),
        Eq => Literal::Bool(f(x) == f(y)),
        Ne => Literal::Bool(f(x) != f(y)),
        Ge => Literal::Bool(f(x) >= f(y)),
        Gt => Literal::Bool(f(x) > f(y)),
        And => Literal::Int((f(x) > 0.5 && f(y) > 0.5) as i64),
        Or => Literal::Int((f(x) > 0.5 || f(y) > 0.5) as i64),
        Xor => Literal::Int(((f(x) > 0.5) != (f(y) > 0.5)) as i64),
        Nullish => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::parse::parse;
    use crate::print::print_stmts;

    fn run(src: &str) -> String {
        let mut names = ConstNames::default();
        names
            .enums
            .insert("E".into(), [("b".to_string(), 3i64)].into_iter().collect());
        names.assets.insert("spr_hero".into(), 42);
        names.enum_int64 = true;
        let mut t = parse(src).unwrap();
        resolve(&mut t, &names);
        print_stmts(&t)
    }

    #[test]
    fn chains_fold_only_from_the_left() {
        assert_eq!(run("a = 1 + 2 + x;"), "a = 3 + x;");
        assert_eq!(run("a = x + 1 + 2;"), "a = x + 1 + 2;");
        assert_eq!(run("a = x + 2 * 3;"), "a = x + 6;");
        assert_eq!(run("a = 1 / 4;"), "a = 0.25;");
        assert_eq!(run("a = \"a\" + \"b\";"), "a = \"ab\";");
    }

    #[test]
    fn names_become_constants() {
        assert_eq!(run("draw_set_color(c_red);"), "draw_set_color(255);");
        assert_eq!(run("s = spr_hero; v = E.b;"), "s = 42;\nv = int64(3);");
        assert_eq!(
            run("var c_red; c_red = 1; x = c_red;"),
            "var c_red;\nc_red = 1;\nx = c_red;"
        );
        assert_eq!(run("x = ord(\"A\") + 1.0;"), "x = 66;");
    }

    #[test]
    fn accessors_and_source_forms() {
        // Accessors are the data-structure calls (printed back as accessors).
        let mut t = parse("l[| i] = v;").unwrap();
        resolve(&mut t, &ConstNames::default());
        assert!(matches!(&t[..], [Stmt::Expr(Expr::Call(f, a))]
            if matches!(&**f, Expr::Ident(n) if n == "ds_list_set") && a.len() == 3));
        assert_eq!(run("l[| i] = v;"), "l[| i] = v;");
        assert_eq!(run("m[? \"k\"] = l[| 0];"), "m[? \"k\"] = l[| 0];");
        assert_eq!(
            run("for (var i = 0; i < 3; i++) {}"),
            "for (var i = 0; i < 3; i++) {\n}"
        );
        assert_eq!(run("f(a,, b);"), "f(a, undefined, b);");
        assert_eq!(run("a[@ 1] = 2;"), "a[1] = 2;");
        let mut t = parse("view_xview = 3;").unwrap();
        resolve(&mut t, &ConstNames::default());
        assert!(
            matches!(&t[..], [Stmt::Assign { target: Expr::Index(b, i), .. }]
            if matches!(&**b, Expr::Ident(n) if n == "view_xview")
                && matches!(i.as_slice(), [Expr::Lit(Literal::Int64(0))]))
        );
        assert_eq!(run("view_xview = 3;"), "view_xview[int64(0)] = 3;");
        let mut names = ConstNames {
            array_get_in_accessors: true,
            ..ConstNames::default()
        };
        names.array_accessor_calls = true;
        let mut t = parse("x = m[? a[i]] + g(a[i]); a[@ 0] = 1;").unwrap();
        resolve(&mut t, &names);
        assert_eq!(
            print_stmts(&t),
            "x = m[? array_get(a, i)] + g(a[i]);\narray_set(a, 0, 1);"
        );
    }

    #[test]
    fn constant_if_keeps_one_branch() {
        assert_eq!(run("if (0) { a(); } else { b(); }"), "{\n    b();\n}");
    }
}
