//! Printing the syntax tree as GML text (four-space indentation, K&R braces, parentheses only
//! where precedence needs them or the tree keeps them).

use crate::ast::{BinaryOp, Case, Expr, Function, Literal, Stmt, UnaryOp, UpdateOp};
use crate::features::Features;
use std::fmt::Write;

/// Prints a list of statements (a code entry's body) as GML text, strings with escapes (GMS 2+
/// dialect; [`print_for`] writes a version's own).
pub fn print_stmts(stmts: &[Stmt]) -> String {
    let mut p = Printer::default();
    for s in stmts {
        p.stmt(s);
    }
    p.out
}

/// Prints a code entry's body in the GML dialect of a version: for GMS 1.x
/// ([`Features::escaped_strings`] false) strings are written without escapes ([`quote_gms1`]).
pub fn print_for(stmts: &[Stmt], features: &Features) -> String {
    let mut p = Printer {
        gms1_strings: !features.escaped_strings(),
        ..Printer::default()
    };
    for s in stmts {
        p.stmt(s);
    }
    p.out
}

/// Prints one expression.
pub fn print_expr(e: &Expr) -> String {
    let mut p = Printer::default();
    p.expr(e, 0);
    p.out
}

/// The function GameMaker 2024.14+ compiles a template string `$"a{x}"` to a call of (spec
/// §6.5; earlier versions call `string`).
const TEMPLATE_2024_14: &str = "@@string@@";

#[derive(Default)]
struct Printer {
    out: String,
    indent: usize,
    /// Strings in the GMS 1.x dialect ([`quote_gms1`]).
    gms1_strings: bool,
}

const UNARY_PREC: u8 = 12;
const POSTFIX_PREC: u8 = 13;

/// Writes a string literal with GML escapes (GMS2 style).
pub fn quote(s: &str) -> String {
    let mut o = String::with_capacity(s.len() + 2);
    o.push('"');
    for c in s.chars() {
        match c {
            '"' => o.push_str("\\\""),
            '\\' => o.push_str("\\\\"),
            '\n' => o.push_str("\\n"),
            '\r' => o.push_str("\\r"),
            '\t' => o.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let _ = write!(o, "\\x{:02x}", c as u32);
            }
            c => o.push(c),
        }
    }
    o.push('"');
    o
}

/// Writes a string literal as GMS 1.x reads it: every character as itself (GMS1 strings have
/// no escapes), between `"` or, when the string holds `"`, between `'`. A string holding a
/// backslash and no `'` goes between `'` too (`'C:\games\'`), so that no reader used to GMS 2
/// escapes takes its `\"` for an escaped quote. A string holding both
/// quotes is a parenthesised concatenation of runs (`("say " + '"' + "it's" + '"')`), which
/// the compiler folds back into the one constant (spec §3.3 folding); `wrap` false leaves out
/// the parentheses (a whole expression).
pub fn quote_gms1(s: &str, wrap: bool) -> String {
    // `'` delimits a string holding `"`, or a backslash and no `'`.
    let single = s.contains('"') || (s.contains('\\') && !s.contains('\''));
    if !single {
        return format!("\"{s}\"");
    }
    if !s.contains('\'') {
        return format!("'{s}'");
    }
    let mut parts: Vec<String> = Vec::new();
    let mut rest = s;
    while !rest.is_empty() {
        let (q, run_end) = if rest.starts_with('"') {
            ('\'', rest.find(|c| c != '"').unwrap_or(rest.len()))
        } else {
            ('"', rest.find('"').unwrap_or(rest.len()))
        };
        parts.push(format!("{q}{}{q}", &rest[..run_end]));
        rest = &rest[run_end..];
    }
    let joined = parts.join(" + ");
    if wrap { format!("({joined})") } else { joined }
}

/// Formats a real so that it reads back as the same `f64` and is not taken for an integer.
pub fn real(v: f64) -> String {
    if v.is_nan() {
        return "NaN".into();
    }
    if v.is_infinite() {
        return if v > 0.0 {
            "infinity".into()
        } else {
            "-infinity".into()
        };
    }
    let s = format!("{v:?}");
    if s.contains('e') {
        // GML has no exponent syntax: write it out.
        let t = format!("{v}");
        if t.contains('.') { t } else { format!("{t}.0") }
    } else {
        s
    }
}

impl Printer {
    fn line(&mut self) {
        self.out.push('\n');
        for _ in 0..self.indent {
            self.out.push_str("    ");
        }
    }

    fn start(&mut self) {
        if !self.out.is_empty() {
            self.line();
        } else {
            for _ in 0..self.indent {
                self.out.push_str("    ");
            }
        }
    }

    fn block(&mut self, body: &[Stmt]) {
        self.out.push('{');
        self.indent += 1;
        for s in body {
            self.stmt(s);
        }
        self.indent -= 1;
        self.line();
        self.out.push('}');
    }

    fn stmt(&mut self, s: &Stmt) {
        self.start();
        self.stmt_inline(s);
    }

    /// A statement without its leading newline (for `else if`).
    fn stmt_inline(&mut self, s: &Stmt) {
        crate::limits::deep(|| self.stmt_inline_here(s))
    }

    fn stmt_inline_here(&mut self, s: &Stmt) {
        match s {
            Stmt::Expr(e) => {
                self.expr_stmt(e);
                self.out.push(';');
            }
            Stmt::Assign { .. } | Stmt::Update { .. } => {
                self.simple(s);
                self.out.push(';');
            }
            Stmt::Var(vars) => {
                self.out.push_str("var ");
                for (i, (n, v)) in vars.iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    self.out.push_str(n);
                    if let Some(v) = v {
                        self.out.push_str(" = ");
                        self.expr(v, 0);
                    }
                }
                self.out.push(';');
            }
            Stmt::Static(vars) => {
                for (i, (n, v)) in vars.iter().enumerate() {
                    if i > 0 {
                        self.start();
                    }
                    let _ = write!(self.out, "static {n} = ");
                    self.expr(v, 0);
                    self.out.push(';');
                }
            }
            Stmt::GlobalVar(names) => {
                let _ = write!(self.out, "globalvar {};", names.join(", "));
            }
            Stmt::If(c, a, b) => {
                self.out.push_str("if (");
                self.expr(c, 0);
                self.out.push_str(") ");
                self.block(a);
                if let Some(b) = b {
                    self.out.push_str(" else ");
                    match b.as_slice() {
                        [s @ Stmt::If(..)] => self.stmt_inline(s),
                        _ => self.block(b),
                    }
                }
            }
            Stmt::While(c, body) => {
                self.out.push_str("while (");
                self.expr(c, 0);
                self.out.push_str(") ");
                self.block(body);
            }
            Stmt::For(init, c, step, body) => {
                self.out.push_str("for (");
                if init.is_none() && c.is_none() && step.is_none() {
                    self.out.push_str(";;) ");
                    self.block(body);
                    return;
                }
                if let Some(i) = init {
                    self.simple(i);
                }
                self.out.push_str("; ");
                if let Some(c) = c {
                    self.expr(c, 0);
                }
                self.out.push_str("; ");
                if let Some(s) = step {
                    self.simple(s);
                }
                self.out.push_str(") ");
                self.block(body);
            }
            Stmt::DoUntil(body, c) => {
                self.out.push_str("do ");
                self.block(body);
                self.out.push_str(" until (");
                self.expr(c, 0);
                self.out.push_str(");");
            }
            Stmt::Repeat(n, body) => {
                self.out.push_str("repeat (");
                self.expr(n, 0);
                self.out.push_str(") ");
                self.block(body);
            }
            Stmt::With(e, body) => {
                self.out.push_str("with (");
                self.expr(e, 0);
                self.out.push_str(") ");
                self.block(body);
            }
            Stmt::Switch(e, cases) => self.switch(e, cases),
            Stmt::Break => self.out.push_str("break;"),
            Stmt::Continue => self.out.push_str("continue;"),
            Stmt::Exit => self.out.push_str("exit;"),
            Stmt::Return(None) => self.out.push_str("return;"),
            Stmt::Return(Some(e)) => {
                self.out.push_str("return ");
                self.expr(e, 0);
                self.out.push(';');
            }
            Stmt::Throw(e) => {
                self.out.push_str("throw ");
                self.expr(e, 0);
                self.out.push(';');
            }
            Stmt::Delete(e) => {
                self.out.push_str("delete ");
                self.expr(e, 0);
                self.out.push(';');
            }
            Stmt::Try {
                body,
                catch,
                finally,
            } => {
                self.out.push_str("try ");
                self.block(body);
                if let Some((v, c)) = catch {
                    let _ = write!(self.out, " catch ({v}) ");
                    self.block(c);
                }
                if let Some(f) = finally {
                    self.out.push_str(" finally ");
                    self.block(f);
                }
            }
            Stmt::Function(f) => self.function(f),
            Stmt::Block(b) => self.block(b),
            Stmt::Unstructured(text) => {
                self.out.push_str("/* gmkit: unstructured code");
                for l in text.lines() {
                    self.line();
                    self.out.push_str("   ");
                    self.out.push_str(&l.replace("*/", "* /"));
                }
                self.line();
                self.out.push_str("*/ __gmkit_unstructured__();");
            }
        }
    }

    /// Assignments and updates without the `;` (also used in `for` headers).
    fn simple(&mut self, s: &Stmt) {
        match s {
            Stmt::Assign {
                target,
                op: Some(BinaryOp::IntDiv),
                value,
            } => {
                // GML has no `div=`: the same code as `a = a div v` (spec §4.7).
                self.expr(target, 0);
                self.out.push_str(" = ");
                let e = Expr::Binary(
                    BinaryOp::IntDiv,
                    Box::new(target.clone()),
                    Box::new(value.clone()),
                );
                self.expr(&e, 0);
            }
            Stmt::Assign { target, op, value } => {
                self.expr(target, 0);
                match op {
                    None => self.out.push_str(" = "),
                    Some(op) => {
                        let _ = write!(self.out, " {}= ", op.symbol());
                    }
                }
                self.expr(value, 0);
            }
            Stmt::Update { op, prefix, target } => self.update(*op, *prefix, target),
            Stmt::Expr(e) => self.expr_stmt(e),
            Stmt::Exit => self.out.push_str("exit"),
            Stmt::Var(_) => {
                self.stmt_inline(s);
                self.out.pop();
            }
            other => {
                // Not expressible in a for header: print it as a block-ish statement.
                self.stmt_inline(other);
            }
        }
    }

    fn update(&mut self, op: UpdateOp, prefix: bool, target: &Expr) {
        let sym = match op {
            UpdateOp::Inc => "++",
            UpdateOp::Dec => "--",
        };
        if prefix {
            self.out.push_str(sym);
        }
        self.expr(target, POSTFIX_PREC);
        if !prefix {
            self.out.push_str(sym);
        }
    }

    fn switch(&mut self, e: &Expr, cases: &[Case]) {
        self.out.push_str("switch (");
        self.expr(e, 0);
        self.out.push_str(") {");
        self.indent += 1;
        for c in cases {
            self.line();
            match &c.label {
                Some(l) => {
                    self.out.push_str("case ");
                    self.expr(l, 0);
                    self.out.push(':');
                }
                None => self.out.push_str("default:"),
            }
            self.indent += 1;
            for s in &c.body {
                self.stmt(s);
            }
            self.indent -= 1;
        }
        self.indent -= 1;
        self.line();
        self.out.push('}');
    }

    fn function(&mut self, f: &Function) {
        self.out.push_str("function");
        if let Some(n) = &f.name {
            self.out.push(' ');
            self.out.push_str(n);
        }
        self.out.push('(');
        for (i, (n, d)) in f.params.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.out.push_str(n);
            if let Some(d) = d {
                self.out.push_str(" = ");
                self.expr(d, 0);
            }
        }
        self.out.push(')');
        if let Some((p, args)) = &f.inherits {
            let _ = write!(self.out, " : {p}");
            self.args(args);
        }
        if f.constructor {
            self.out.push_str(" constructor");
        }
        self.out.push(' ');
        self.block(&f.body);
    }

    /// An expression statement: a data-structure setter called with its accessor's arity is
    /// written as an assignment through the accessor (`ds_list_set(l, i, v)` as
    /// `l[| i] = v`), which is what the parser reads back as the same call.
    fn expr_stmt(&mut self, e: &Expr) {
        if let Expr::Call(c, args) = e
            && let Expr::Ident(f) = &**c
            && let Some((marked, name)) = unmarked(f)
            && let Some((open, arity)) = accessor_setter(name)
            && args.len() == arity + 1
            && (marked || accessor_fits(&args[..arity]))
        {
            self.accessor(open, &args[..arity]);
            self.out.push_str(" = ");
            self.expr(&args[arity], 0);
        } else {
            self.expr(e, 0);
        }
    }

    /// `base[| k]`, `base[# x, y]`: an accessor over `args` (the container first).
    fn accessor(&mut self, open: &str, args: &[Expr]) {
        self.expr(&args[0], POSTFIX_PREC);
        self.out.push_str(open);
        self.out.push(' ');
        for (i, k) in args[1..].iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.expr(k, 0);
        }
        self.out.push(']');
    }

    /// The object of `.name`, the callee of a call or the array of `[i]`: a data-structure
    /// read stays a call there (GameMaker compiles a method called on an accessor's value
    /// as on a parenthesised value, not as on a call's).
    fn postfix_base(&mut self, t: &Expr) {
        if let Expr::Call(c, args) = t
            && let Expr::Ident(f) = &**c
            && accessor_reader(f).is_some()
        {
            self.expr(c, POSTFIX_PREC);
            self.args(args);
        } else {
            self.expr(t, POSTFIX_PREC);
        }
    }

    /// A template string's call (`@@template@@` as the parser reads `$"..."`, `@@string@@` as
    /// GameMaker 2024.14+ compiles it) written as the template `$"a{x}b"`, when its format
    /// string holds every field once and in order (`{0}`, `{1}`, ...), the way the lexer makes
    /// it. Returns false, having written nothing, for any other shape, or when a field's text
    /// holds what a template field cannot (`\`, a template).
    fn template(&mut self, args: &[Expr]) -> bool {
        let Some((Expr::Lit(Literal::String(fmt)), fields)) = args.split_first() else {
            return false;
        };
        if fields.is_empty() {
            // `$"a"` without fields is a plain string, not a call.
            return false;
        }
        let chars: Vec<char> = fmt.chars().collect();
        let mut out = String::from("$\"");
        let (mut next, mut i) = (0usize, 0usize);
        while i < chars.len() {
            let c = chars[i];
            if c == '{' {
                let digits = chars[i + 1..]
                    .iter()
                    .take_while(|d| d.is_ascii_digit())
                    .count();
                let index: Option<usize> = chars[i + 1..i + 1 + digits]
                    .iter()
                    .collect::<String>()
                    .parse()
                    .ok();
                if digits > 0
                    && chars.get(i + 1 + digits) == Some(&'}')
                    && index == Some(next)
                    && next < fields.len()
                {
                    let field = match &fields[next] {
                        Expr::Paren(x) => &**x,
                        x => x,
                    };
                    let text = print_expr(field);
                    // A field may hold strings with escapes and templates of its own, as
                    // deep as the lexer reads back (counted generously: every `$"`).
                    if text.matches("$\"").count() + 1 >= crate::lex::MAX_TEMPLATE_NESTING {
                        return false;
                    }
                    out.push('{');
                    out.push_str(&text);
                    out.push('}');
                    next += 1;
                    i += 2 + digits;
                    continue;
                }
                // A brace of the text itself.
                out.push_str("\\{");
            } else {
                match c {
                    '"' => out.push_str("\\\""),
                    '\\' => out.push_str("\\\\"),
                    '\n' => out.push_str("\\n"),
                    '\r' => out.push_str("\\r"),
                    '\t' => out.push_str("\\t"),
                    c => out.push(c),
                }
            }
            i += 1;
        }
        if next != fields.len() {
            return false;
        }
        out.push('"');
        self.out.push_str(&out);
        true
    }

    fn args(&mut self, args: &[Expr]) {
        self.out.push('(');
        for (i, a) in args.iter().enumerate() {
            if i > 0 {
                self.out.push_str(", ");
            }
            self.expr(a, 0);
        }
        self.out.push(')');
    }

    /// Prints `e`; wraps it in parentheses when it binds looser than `min`.
    fn expr(&mut self, e: &Expr, min: u8) {
        crate::limits::deep(|| self.expr_here(e, min))
    }

    fn expr_here(&mut self, e: &Expr, min: u8) {
        match e {
            Expr::Lit(l) => match l {
                Literal::Int(v) => {
                    if *v < 0 && min > UNARY_PREC {
                        let _ = write!(self.out, "({v})");
                    } else {
                        let _ = write!(self.out, "{v}");
                    }
                }
                // Beyond int32 a plain number compiles to the same int64 push; 32-bit masks
                // and colours with alpha (`$FF0000FF`) are written in hexadecimal.
                Literal::Int64(v) if *v > i64::from(i32::MAX) && *v <= i64::from(u32::MAX) => {
                    let _ = write!(self.out, "${v:08X}");
                }
                Literal::Int64(v) if *v > i64::from(u32::MAX) => {
                    let _ = write!(self.out, "{v}");
                }
                Literal::Int64(v) => {
                    let _ = write!(self.out, "int64({v})");
                }
                Literal::Real(v) => {
                    let s = real(*v);
                    if s.starts_with('-') && min > UNARY_PREC {
                        let _ = write!(self.out, "({s})");
                    } else {
                        self.out.push_str(&s);
                    }
                }
                Literal::String(s) if self.gms1_strings => {
                    self.out.push_str(&quote_gms1(s, min > 0))
                }
                Literal::String(s) => self.out.push_str(&quote(s)),
                Literal::Bool(b) => self.out.push_str(if *b { "true" } else { "false" }),
            },
            Expr::Ident(n) => self.out.push_str(n),
            Expr::Member(t, n) => {
                // `(140000).x`: a number before `.` would read as a decimal point.
                if matches!(&**t, Expr::Lit(Literal::Int(_) | Literal::Real(_)))
                    || matches!(&**t, Expr::Lit(Literal::Int64(v)) if *v > i64::from(i32::MAX))
                {
                    self.out.push('(');
                    self.expr(t, 0);
                    self.out.push(')');
                } else if plain_accessor_read(t) {
                    // `l[| i].x`: compiles as the call's `.x` in every version.
                    self.expr(t, POSTFIX_PREC);
                } else {
                    self.postfix_base(t);
                }
                self.out.push('.');
                self.out.push_str(n);
            }
            Expr::Index(t, idx) => {
                self.postfix_base(t);
                self.out.push('[');
                for (i, x) in idx.iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    self.expr(x, 0);
                }
                self.out.push(']');
            }
            Expr::Call(c, args) => {
                if let Expr::Ident(f) = &**c
                    && (f == crate::lex::TEMPLATE || f == TEMPLATE_2024_14)
                    && self.template(args)
                {
                    // Written: `$"a{x}b"`.
                } else if let Expr::Ident(f) = &**c
                    && let Some((marked, name)) = unmarked(f)
                    && let Some((open, arity)) = accessor_reader(name)
                    && args.len() == arity
                    && (marked || accessor_fits(args))
                {
                    self.accessor(open, args);
                } else if let Expr::Ident(f) = &**c
                    && let Some((true, name)) = unmarked(f)
                {
                    self.out.push_str(name);
                    self.args(args);
                } else if let Expr::Member(t, n) = &**c
                    && plain_accessor_read(t)
                {
                    // A method of a data-structure read stays on the call (`postfix_base`).
                    self.postfix_base(t);
                    self.out.push('.');
                    self.out.push_str(n);
                    self.args(args);
                } else {
                    self.postfix_base(c);
                    self.args(args);
                }
            }
            Expr::New(c, args) => {
                let wrap = min > UNARY_PREC;
                if wrap {
                    self.out.push('(');
                }
                self.out.push_str("new ");
                self.expr(c, POSTFIX_PREC);
                self.args(args);
                if wrap {
                    self.out.push(')');
                }
            }
            Expr::Unary(op, x) => {
                let wrap = min > UNARY_PREC;
                if wrap {
                    self.out.push('(');
                }
                self.out.push_str(match op {
                    UnaryOp::Neg => "-",
                    UnaryOp::Not => "!",
                    UnaryOp::BitNot => "~",
                });
                // `- -x` and `-(-1)` must not print as `--x`.
                let nested_neg = *op == UnaryOp::Neg
                    && matches!(
                        **x,
                        Expr::Unary(UnaryOp::Neg, _)
                            | Expr::Lit(Literal::Int(i64::MIN..=-1))
                            | Expr::Update { prefix: true, .. }
                    );
                if nested_neg || matches!(&**x, Expr::Lit(Literal::Real(r)) if *r < 0.0) {
                    self.out.push('(');
                    self.expr(x, 0);
                    self.out.push(')');
                } else {
                    self.expr(x, UNARY_PREC);
                }
                if wrap {
                    self.out.push(')');
                }
            }
            Expr::Binary(op, l, r) => {
                let p = op.precedence();
                let wrap = p < min;
                if wrap {
                    self.out.push('(');
                }
                // Left-associative: the left side may have the same level, the right not.
                self.expr(l, p);
                let _ = write!(self.out, " {} ", op.symbol());
                self.expr(r, p + 1);
                if wrap {
                    self.out.push(')');
                }
            }
            Expr::Ternary(c, a, b) => {
                let wrap = min > 0;
                if wrap {
                    self.out.push('(');
                }
                self.expr(c, 1);
                self.out.push_str(" ? ");
                self.expr(a, 0);
                self.out.push_str(" : ");
                self.expr(b, 0);
                if wrap {
                    self.out.push(')');
                }
            }
            Expr::Update { op, prefix, target } => {
                let wrap = min > UNARY_PREC;
                if wrap {
                    self.out.push('(');
                }
                self.update(*op, *prefix, target);
                if wrap {
                    self.out.push(')');
                }
            }
            Expr::Array(items) => {
                self.out.push('[');
                for (i, a) in items.iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    self.expr(a, 0);
                }
                self.out.push(']');
            }
            Expr::Struct(fields) => {
                if fields.is_empty() {
                    self.out.push_str("{}");
                    return;
                }
                self.out.push_str("{ ");
                for (i, (k, v)) in fields.iter().enumerate() {
                    if i > 0 {
                        self.out.push_str(", ");
                    }
                    // A key that is no name (`"two words"`) is written as a string.
                    let name = k
                        .chars()
                        .next()
                        .is_some_and(|c| c.is_alphabetic() || c == '_')
                        && k.chars().all(|c| c.is_alphanumeric() || c == '_');
                    if name {
                        self.out.push_str(k);
                    } else {
                        self.out.push_str(&quote(k));
                    }
                    self.out.push_str(": ");
                    self.expr(v, 0);
                }
                self.out.push_str(" }");
            }
            Expr::Function(f) => {
                let wrap = min > 0;
                if wrap {
                    self.out.push('(');
                }
                self.function(f);
                if wrap {
                    self.out.push(')');
                }
            }
            Expr::Paren(x) => {
                self.out.push('(');
                self.expr(x, 0);
                self.out.push(')');
            }
        }
    }
}

/// A callee's name without the parser's accessor marker, and whether it had it
/// ([`crate::parse::ACCESSOR`]: the source wrote the accessor); `None` for another name.
fn unmarked(f: &str) -> Option<(bool, &str)> {
    match f.strip_prefix(crate::parse::ACCESSOR) {
        Some(name) => Some((true, name)),
        None if !f.starts_with('@') => Some((false, f)),
        None => None,
    }
}

/// The accessor a data-structure read is written with and its number of arguments
/// (container and keys): sources write `l[| i]`, `m[? k]`, `g[# x, y]` and `s[$ k]` far
/// more often than the calls they compile to.
fn accessor_reader(f: &str) -> Option<(&'static str, usize)> {
    match f {
        "ds_list_find_value" => Some(("[|", 2)),
        "ds_map_find_value" => Some(("[?", 2)),
        "ds_grid_get" => Some(("[#", 3)),
        "variable_struct_get" => Some(("[$", 2)),
        _ => None,
    }
}

/// The accessor an assignment through it calls the setter of (the value comes last).
fn accessor_setter(f: &str) -> Option<(&'static str, usize)> {
    match f {
        "ds_list_set" => Some(("[|", 2)),
        "ds_map_set" => Some(("[?", 2)),
        "ds_grid_set" => Some(("[#", 3)),
        "variable_struct_set" => Some(("[$", 2)),
        _ => None,
    }
}

/// Whether `e` is a data-structure read the decompiler wrote as a call that may print as an
/// accessor ([`accessor_fits`]; a read the source wrote as an accessor prints as one anyway).
fn plain_accessor_read(e: &Expr) -> bool {
    matches!(e, Expr::Call(c, args)
        if matches!(&**c, Expr::Ident(f)
            if accessor_reader(f).is_some_and(|(_, arity)| arity == args.len()))
            && accessor_fits(args))
}

/// Whether a call written out may be printed as an accessor: its container is not a number
/// (`5[| i]`), and no key reads an array element (2.3+ compiles `m[? a[i]]` as
/// `m[? array_get(a, i)]`, `fold`), so that both forms compile alike in every version.
fn accessor_fits(args: &[Expr]) -> bool {
    !matches!(args[0], Expr::Lit(_)) && !args[1..].iter().any(crate::parse::reads_array)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ast::BinaryOp;
    use crate::ast::Expr::*;

    fn id(n: &str) -> Box<Expr> {
        Box::new(Ident(n.into()))
    }

    #[test]
    fn precedence_parentheses() {
        let e = Binary(
            BinaryOp::Mul,
            Box::new(Binary(BinaryOp::Add, id("a"), id("b"))),
            id("c"),
        );
        assert_eq!(print_expr(&e), "(a + b) * c");
        let e = Binary(
            BinaryOp::Sub,
            id("a"),
            Box::new(Binary(BinaryOp::Sub, id("b"), id("c"))),
        );
        assert_eq!(print_expr(&e), "a - (b - c)");
        let e = Unary(UnaryOp::Neg, Box::new(Lit(Literal::Int(-1))));
        assert_eq!(print_expr(&e), "-(-1)");
    }

    #[test]
    fn data_structure_accessors() {
        let call = |f: &str, args: Vec<Expr>| Call(id(f), args);
        let read = call(
            "ds_list_find_value",
            vec![Ident("l".into()), Ident("i".into())],
        );
        assert_eq!(print_expr(&read), "l[| i]");
        let grid = call(
            "ds_grid_get",
            vec![
                Ident("g".into()),
                Lit(Literal::Int(1)),
                Lit(Literal::Int(2)),
            ],
        );
        assert_eq!(print_expr(&grid), "g[# 1, 2]");
        // Nested: the container of one accessor is another.
        let nested = call(
            "ds_map_find_value",
            vec![read.clone(), Lit(Literal::String("k".into()))],
        );
        assert_eq!(print_expr(&nested), "l[| i][? \"k\"]");
        // A key reading an array element, a number as container, a wrong count of
        // arguments, or a member of the value stay calls.
        let keyed = call(
            "ds_map_find_value",
            vec![
                Ident("m".into()),
                Index(id("a"), vec![Lit(Literal::Int(0))]),
            ],
        );
        assert_eq!(print_expr(&keyed), "ds_map_find_value(m, a[0])");
        let number = call(
            "ds_list_find_value",
            vec![Lit(Literal::Int(3)), Ident("i".into())],
        );
        assert_eq!(print_expr(&number), "ds_list_find_value(3, i)");
        let three = call(
            "ds_list_find_value",
            vec![Ident("l".into()), Ident("i".into()), Ident("j".into())],
        );
        assert_eq!(print_expr(&three), "ds_list_find_value(l, i, j)");
        // A field of the value compiles alike in both forms; a method called on it does not.
        let member = Member(Box::new(read.clone()), "x".into());
        assert_eq!(print_expr(&member), "l[| i].x");
        let method = Call(Box::new(member), vec![]);
        assert_eq!(print_expr(&method), "ds_list_find_value(l, i).x()");
        // What the parser marks as written with an accessor prints as one.
        let marked = call(
            &format!("{}ds_map_find_value", crate::parse::ACCESSOR),
            vec![Ident("m".into()), Ident("k".into())],
        );
        assert_eq!(
            print_expr(&Member(Box::new(marked), "x".into())),
            "m[? k].x"
        );
        // Setters as statements are assignments through the accessor.
        let set = Stmt::Expr(call(
            "ds_map_set",
            vec![
                Ident("m".into()),
                Lit(Literal::String("k".into())),
                Lit(Literal::Int(1)),
            ],
        ));
        assert_eq!(print_stmts(&[set]), "m[? \"k\"] = 1;");
    }

    #[test]
    fn statements() {
        let s = vec![Stmt::If(
            Binary(BinaryOp::Lt, id("a"), Box::new(Lit(Literal::Int(3)))),
            vec![Stmt::Break],
            Some(vec![Stmt::If(Ident("b".into()), vec![Stmt::Exit], None)]),
        )];
        assert_eq!(
            print_stmts(&s),
            "if (a < 3) {\n    break;\n} else if (b) {\n    exit;\n}"
        );
    }

    #[test]
    fn literals() {
        assert_eq!(real(1.0), "1.0");
        assert_eq!(real(0.5), "0.5");
        assert_eq!(quote("a\"b\n"), "\"a\\\"b\\n\"");
    }
}
