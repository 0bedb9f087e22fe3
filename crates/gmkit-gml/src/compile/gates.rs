//! Version gates: what the game's GameMaker version cannot run is refused before any code is
//! generated, with the place in the text and the reason ("`??` needs GameMaker 2.3.7 or
//! later; this game is 2.3.1"), never written into a data file whose runner would then fail.
//!
//! Two passes, both driven by the game's [`Features`] (which version has which construct is
//! stated once there, [`Construct`]):
//!
//! - [`check_tree`] walks the parsed tree: constructs newer than the game (functions, `new`,
//!   `static`, `delete`, `try`, `throw`, struct literals, calls of a value, arrays of arrays,
//!   `??`/`??=`, template strings, array literals), built-in functions newer than the game
//!   (one whose result or a required argument is a struct, a method, a sequence or an
//!   animation curve cannot exist before structs and those assets did, 2.3), built-in
//!   functions used as values before 2.3, and assignments to read-only built-in variables
//!   (`fps = 3`, in every version: the manual's variable pages mark them,
//!   [`crate::builtins::variable`]). A name the game has as its own is never taken for a
//!   later built-in.
//! - [`check_text`] reads what the tree no longer shows: verbatim strings `@"..."`,
//!   template strings without fields `$"..."`; and walks the tree
//!   as written, before preprocessing lowers `delete v` to `v = undefined` or drops an
//!   `if (false)` branch.
//!
//! `#macro`, `#region` and `enum` are accepted in every version: preprocessing, they leave no
//! code (issue 16 asks for them in new code of every family).
//!
//! A refusal is a [`CompileError::Refused`]; inside a statement it is placed like every other
//! compile error ([`CompileError::InStatement`]), then at its own token within the statement
//! ([`Refusal::mark`]). The gates never refuse a game's own code: every corpus entry,
//! decompiled and printed for its version, passes both (test `compile_gates`).

use super::CompileError;
use crate::ast::{BinaryOp, Expr, Function, Stmt};
use crate::builtins::{self, Kind};
use crate::features::{Construct, Features};
use crate::game::{AssetKind, Game};
use crate::lex::{Tok, Token, lex_with};
use crate::limits::deep;
use std::collections::HashSet;

type R<T> = Result<T, CompileError>;

/// Why the game's version cannot run a piece of code, and where it is.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{what} {why}")]
pub struct Refusal {
    /// What the code uses (`` `??` ``, "the built-in function `method`").
    pub what: String,
    /// Why it is refused ("needs GameMaker 2.3.7 or later; this game is 2.3.1").
    pub why: String,
    /// The token it points at within its statement.
    pub mark: Mark,
    /// Its line and column, when the gate read the text itself ([`check_text`]).
    pub at: Option<(u32, u32)>,
}

/// The token a refusal points at, looked for from the start of its statement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Mark {
    /// A name or keyword (`function`, `fps`).
    Word(String),
    /// An operator or bracket (`??`, `{`).
    Punct(&'static str),
    /// A call of a function: its name, or the accessor it was written as (`s[$ k]` reads
    /// `variable_struct_get`).
    Call(String),
    /// An array literal's `[` (one that follows no value it could index).
    ArrayOpen,
    /// The second `[` of `a[i][j]`.
    SecondIndex,
    /// The statement itself.
    Statement,
}

/// How an error message names the game's version ("2.3.1", "GameMaker Studio 1.x (bytecode
/// 14)", "2022 LTS").
fn game_version(f: &Features) -> String {
    let v = f.version();
    if !v.is_gms2() {
        format!("GameMaker Studio 1.x (bytecode {})", v.bytecode)
    } else if v.lts {
        "2022 LTS".into()
    } else {
        v.format.to_string()
    }
}

/// The refusal of `what`, which needs construct `c` the game's version lacks.
fn too_new(f: &Features, c: Construct, what: impl Into<String>, mark: Mark) -> CompileError {
    CompileError::Refused(refusal(f, c, what, mark))
}

/// As [`too_new`], the refusal itself.
fn refusal(f: &Features, c: Construct, what: impl Into<String>, mark: Mark) -> Refusal {
    Refusal {
        what: what.into(),
        why: format!(
            "needs {} or later; this game is {}",
            c.since(),
            game_version(f)
        ),
        mark,
        at: None,
    }
}

/// Refuses what `game`'s version cannot compile in the tree `body` of one of its code entries
/// (see the module's documentation): the first refusal in text order, placed in its
/// statement. A name the game has as its own (a script, an asset, a variable of its code) is
/// the game's, not a built-in of that name from a later version.
pub fn check_tree(game: &Game, body: &[Stmt]) -> R<()> {
    let mut g = Gate {
        f: &game.features,
        game,
        locals: vec![declared(body, &[])],
        assigned: assigned(body),
    };
    g.block(body)
}

/// The bare names `body` assigns anywhere (`n = v`, `n += v`, `n++`): variables of the code,
/// whatever built-in a later version has of that name.
fn assigned(body: &[Stmt]) -> HashSet<String> {
    struct Names(HashSet<String>);
    impl crate::visit::Visitor for Names {
        fn visit_stmt(&mut self, s: &Stmt) {
            if let Stmt::Assign {
                target: Expr::Ident(n),
                ..
            }
            | Stmt::Update {
                target: Expr::Ident(n),
                ..
            } = s
            {
                self.0.insert(n.clone());
            }
            crate::visit::walk_stmt(self, s)
        }
    }
    let mut v = Names(HashSet::new());
    crate::visit::Visitor::visit_block(&mut v, body);
    v.0
}

/// Whether `name` is one of `game`'s own: a script or function it defines, an asset, or a
/// variable its code uses that is not a built-in (VARI's variable id -6, bytecode 15+).
fn games_own(game: &Game, name: &str) -> bool {
    if game.defines_function(name) || game.assets().any(|(_, _, n)| n == name) {
        return true;
    }
    let file = game.file;
    file.version.bytecode >= 15
        && file.variables.as_ref().is_some_and(|v| {
            v.variables.iter().enumerate().any(|(i, x)| {
                x.variable_id != -6 && game.var_name(gmkit_data::Id::new(i as u32)) == name
            })
        })
}

/// The names a function body (or a root entry) declares local: `var`, parameters, `catch`
/// variables (nested functions aside: they have their own).
fn declared(body: &[Stmt], params: &[(String, Option<Expr>)]) -> HashSet<String> {
    struct Vars(HashSet<String>);
    impl crate::visit::Visitor for Vars {
        fn visit_stmt(&mut self, s: &Stmt) {
            match s {
                Stmt::Var(v) => self.0.extend(v.iter().map(|(n, _)| n.clone())),
                Stmt::Try {
                    catch: Some((n, _)),
                    ..
                } => {
                    self.0.insert(n.clone());
                }
                Stmt::Function(_) => return,
                _ => {}
            }
            crate::visit::walk_stmt(self, s)
        }
        fn visit_expr(&mut self, e: &Expr) {
            if !matches!(e, Expr::Function(_)) {
                crate::visit::walk_expr(self, e)
            }
        }
    }
    let mut v = Vars(params.iter().map(|(n, _)| n.clone()).collect());
    crate::visit::Visitor::visit_block(&mut v, body);
    v.0
}

/// Read-only built-in variables the built-in tables do not list: `argument_count` ("the
/// read-only variable argument_count", the manual's page of `argument`).
const READ_ONLY: &[&str] = &["argument_count"];

/// The tree walk: the game's features and the local names of the functions around the place.
struct Gate<'a> {
    f: &'a Features,
    game: &'a Game<'a>,
    locals: Vec<HashSet<String>>,
    /// The bare names the code assigns ([`assigned`]).
    assigned: HashSet<String>,
}

impl Gate<'_> {
    fn need(&self, c: Construct, what: &str, mark: Mark) -> R<()> {
        if self.f.has(c) {
            Ok(())
        } else {
            Err(too_new(self.f, c, what, mark))
        }
    }

    fn local(&self, name: &str) -> bool {
        self.locals.last().is_some_and(|l| l.contains(name))
    }

    fn block(&mut self, body: &[Stmt]) -> R<()> {
        for s in body {
            deep(|| self.stmt(s)).map_err(|e| e.in_statement(s))?;
        }
        Ok(())
    }

    fn one(&mut self, s: &Stmt) -> R<()> {
        deep(|| self.stmt(s)).map_err(|e| e.in_statement(s))
    }

    fn stmt(&mut self, s: &Stmt) -> R<()> {
        match s {
            Stmt::Expr(e) => self.expr(e),
            Stmt::Assign { target, op, value } => {
                if *op == Some(BinaryOp::Nullish) {
                    self.need(Construct::Nullish, "`??=`", Mark::Punct("??="))?;
                }
                self.write(target)?;
                self.expr(value)
            }
            Stmt::Update { target, .. } => self.write(target),
            // (A local named as a built-in variable is a compile error in GameMaker, "cannot
            // re-declare a built-in variable", but runs as a local: not refused here.)
            Stmt::Var(v) => v
                .iter()
                .filter_map(|(_, e)| e.as_ref())
                .try_for_each(|e| self.expr(e)),
            Stmt::Static(v) => {
                self.need(Construct::GmlV2, "`static`", Mark::Word("static".into()))?;
                v.iter().try_for_each(|(_, e)| self.expr(e))
            }
            Stmt::GlobalVar(_) | Stmt::Break | Stmt::Continue | Stmt::Exit => Ok(()),
            Stmt::If(c, a, b) => {
                self.expr(c)?;
                self.block(a)?;
                b.as_deref().map_or(Ok(()), |b| self.block(b))
            }
            Stmt::While(c, b) | Stmt::Repeat(c, b) | Stmt::With(c, b) => {
                self.expr(c)?;
                self.block(b)
            }
            Stmt::DoUntil(b, c) => {
                self.block(b)?;
                self.expr(c)
            }
            Stmt::For(init, cond, step, body) => {
                if let Some(s) = init {
                    self.one(s)?;
                }
                if let Some(c) = cond {
                    self.expr(c)?;
                }
                if let Some(s) = step {
                    self.one(s)?;
                }
                self.block(body)
            }
            Stmt::Switch(v, cases) => {
                self.expr(v)?;
                for c in cases {
                    if let Some(l) = &c.label {
                        self.expr(l)?;
                    }
                    self.block(&c.body)?;
                }
                Ok(())
            }
            Stmt::Return(v) => v.as_ref().map_or(Ok(()), |e| self.expr(e)),
            Stmt::Throw(e) => {
                self.need(Construct::GmlV2, "`throw`", Mark::Word("throw".into()))?;
                self.expr(e)
            }
            Stmt::Delete(e) => {
                self.need(Construct::GmlV2, "`delete`", Mark::Word("delete".into()))?;
                self.expr(e)
            }
            Stmt::Try {
                body,
                catch,
                finally,
            } => {
                self.need(Construct::GmlV2, "try", Mark::Word("try".into()))?;
                self.block(body)?;
                if let Some((_, b)) = catch {
                    self.block(b)?;
                }
                finally.as_deref().map_or(Ok(()), |b| self.block(b))
            }
            Stmt::Function(f) => self.function(f),
            Stmt::Block(b) => self.block(b),
            Stmt::Unstructured(_) => Ok(()),
        }
    }

    fn function(&mut self, f: &Function) -> R<()> {
        let what = match (f.constructor, &f.name) {
            (true, _) => "a constructor".to_string(),
            (false, Some(n)) => format!("the function declaration `{n}`"),
            (false, None) => "a function literal".to_string(),
        };
        self.need(Construct::GmlV2, &what, Mark::Word("function".into()))?;
        self.locals.push(declared(&f.body, &f.params));
        let r = (|| {
            for (_, d) in &f.params {
                if let Some(d) = d {
                    self.expr(d)?;
                }
            }
            if let Some((_, args)) = &f.inherits {
                args.iter().try_for_each(|a| self.expr(a))?;
            }
            self.block(&f.body)
        })();
        self.locals.pop();
        r
    }

    /// An assigned place: a read-only built-in variable is refused.
    fn write(&mut self, target: &Expr) -> R<()> {
        let name = match target {
            Expr::Ident(n) => Some(n),
            Expr::Index(t, _) => match &**t {
                Expr::Ident(n) => Some(n),
                _ => None,
            },
            // Only the instance's own: GMS 1.4 compiles `argument0.id = v` (corpus: jtool).
            _ => None,
        };
        if let Some(n) = name
            && !self.local(n)
            && (builtins::variable(n).is_some_and(|v| v.read_only)
                || READ_ONLY.contains(&n.as_str()))
            && !games_own(self.game, n)
        {
            return Err(CompileError::Refused(Refusal {
                what: format!("`{n}`"),
                why: "is a read-only built-in variable: GameMaker refuses to assign it".into(),
                mark: Mark::Word(n.clone()),
                at: None,
            }));
        }
        self.place(target)
    }

    /// The parts of an assigned place that are read.
    fn place(&mut self, target: &Expr) -> R<()> {
        match target {
            Expr::Ident(_) => Ok(()),
            e => self.expr(e),
        }
    }

    fn expr(&mut self, e: &Expr) -> R<()> {
        deep(|| self.expr_inner(e))
    }

    fn expr_inner(&mut self, e: &Expr) -> R<()> {
        let f = self.f;
        match e {
            Expr::Lit(_) => Ok(()),
            Expr::Ident(n) => {
                // A built-in function's name as a value (2.3+: a method of it); before, a
                // compile error (scripts are assets then: their index).
                if !f.gml_v2()
                    && !self.local(n)
                    && builtins::function(n).is_some()
                    && builtins::variable(n).is_none()
                    && builtins::constant(n).is_none()
                    && !self.assigned.contains(n)
                    && !games_own(self.game, n)
                {
                    return Err(too_new(
                        f,
                        Construct::GmlV2,
                        format!("the built-in function `{n}` used as a value"),
                        Mark::Word(n.clone()),
                    ));
                }
                Ok(())
            }
            Expr::Member(t, _) => self.expr(t),
            Expr::Index(t, idx) => {
                if matches!(&**t, Expr::Index(..)) {
                    self.need(
                        Construct::GmlV2,
                        "an array of arrays `a[i][j]` (before: `a[i, j]`)",
                        Mark::SecondIndex,
                    )?;
                }
                self.place(t)?;
                idx.iter().try_for_each(|i| self.expr(i))
            }
            Expr::Call(callee, args) => {
                match &**callee {
                    Expr::Ident(n) if n == crate::lex::TEMPLATE => self.need(
                        Construct::TemplateString,
                        "a template string `$\"...\"`",
                        Mark::Word(n.clone()),
                    )?,
                    Expr::Ident(n) => self.builtin_call(n)?,
                    Expr::Member(t, m) => {
                        self.need(
                            Construct::GmlV2,
                            &format!("the method call `.{m}(...)`"),
                            Mark::Word(m.clone()),
                        )?;
                        self.expr(t)?;
                    }
                    c => {
                        self.need(Construct::GmlV2, "calling a value", Mark::Statement)?;
                        self.expr(c)?;
                    }
                }
                args.iter().try_for_each(|a| self.expr(a))
            }
            Expr::New(c, args) => {
                self.need(Construct::GmlV2, "`new`", Mark::Word("new".into()))?;
                if !matches!(&**c, Expr::Ident(_)) {
                    self.expr(c)?;
                }
                args.iter().try_for_each(|a| self.expr(a))
            }
            Expr::Unary(_, x) | Expr::Paren(x) => self.expr(x),
            Expr::Binary(op, a, b) => {
                if *op == BinaryOp::Nullish {
                    self.need(Construct::Nullish, "`??`", Mark::Punct("??"))?;
                }
                self.expr(a)?;
                self.expr(b)
            }
            Expr::Ternary(c, a, b) => {
                self.expr(c)?;
                self.expr(a)?;
                self.expr(b)
            }
            Expr::Update { target, .. } => self.write(target),
            Expr::Array(items) => {
                self.need(
                    Construct::ArrayLiteral,
                    "an array literal `[...]`",
                    Mark::ArrayOpen,
                )?;
                items.iter().try_for_each(|i| self.expr(i))
            }
            Expr::Struct(fields) => {
                self.need(
                    Construct::GmlV2,
                    "a struct literal `{...}`",
                    Mark::Punct("{"),
                )?;
                fields.iter().try_for_each(|(_, v)| self.expr(v))
            }
            Expr::Function(func) => self.function(func),
        }
    }

    /// A call of the built-in function `name` that cannot exist in the game's version: one
    /// whose result or a required argument is a struct, a method, a sequence or an animation
    /// curve (2.3 brought all four).
    fn builtin_call(&self, name: &str) -> R<()> {
        if self.f.gml_v2() || self.local(name) {
            return Ok(());
        }
        let Some(func) = builtins::function(name) else {
            return Ok(());
        };
        let v2 = |k: &Kind| {
            matches!(
                k,
                Kind::Struct
                    | Kind::Method
                    | Kind::Asset(AssetKind::Sequence | AssetKind::AnimCurve)
            )
        };
        // A trailing argument may be an optional one added later (`instance_create_layer`'s
        // struct, 2.3; the function is GMS2's): only a function's only argument counts.
        let args = match func.args.len() {
            1 => func.args,
            n => &func.args[..n.saturating_sub(1)],
        };
        // (The game's own name is looked up last: it scans the game's names.)
        if (v2(&func.returns) || args.iter().any(v2)) && !games_own(self.game, name) {
            return Err(too_new(
                self.f,
                Construct::GmlV2,
                format!("the built-in function `{name}`"),
                Mark::Call(name.into()),
            ));
        }
        Ok(())
    }
}

/// The accessor a call of `name` may have been written as (`s[$ k]` reads
/// `variable_struct_get`).
fn accessor_of(name: &str) -> Option<&'static str> {
    match name {
        "variable_struct_get" | "variable_struct_set" => Some("[$"),
        _ => None,
    }
}

/// Refuses what the game's version cannot compile in GML `text` and the tree no longer shows:
/// verbatim strings `@"..."` before 2.3, template
/// strings (also those without fields, which read as plain strings) before 2023.4; then
/// [`check_tree`] on the tree as written. A refusal of the text itself carries its line and
/// column ([`Refusal::at`]). Text that does not lex is left to the parser.
pub fn check_text(game: &Game, text: &str) -> R<()> {
    let f = &game.features;
    // `#macro`, `#region` and `enum` are preprocessing: they leave no code, so every version
    // takes them in gmkit's text (issue 16 asks for them in new code of every family; GMS 1.x
    // itself has project constants instead).
    let blanked = blank_directives(text);
    let Ok(toks) = lex_with(&blanked, f.escaped_strings()) else {
        return Ok(());
    };
    // The character each token starts with, read by one cursor moving forward through the
    // text (tokens come in text order; a template's own tokens all sit at its `$`).
    let mut chars = blanked.chars().peekable();
    let mut at = (1u32, 1u32);
    let mut first_char = |t: &Token| {
        while at < (t.line, t.col) {
            match chars.next() {
                Some('\n') => at = (at.0 + 1, 1),
                Some(_) => at.1 += 1,
                None => return None,
            }
        }
        chars.peek().copied()
    };
    for t in &toks {
        if !matches!(t.tok, Tok::Str(_) | Tok::Ident(_)) {
            continue;
        }
        let c = match (&t.tok, first_char(t)) {
            (Tok::Str(_), Some('@')) => Some((Construct::GmlV2, "a verbatim string `@\"...\"`")),
            (Tok::Str(_) | Tok::Ident(_), Some('$')) => {
                Some((Construct::TemplateString, "a template string `$\"...\"`"))
            }
            _ => None,
        };
        if let Some((c, what)) = c
            && !f.has(c)
        {
            return Err(CompileError::Refused(Refusal {
                at: Some((t.line, t.col)),
                ..refusal(f, c, what, Mark::Statement)
            }));
        }
    }
    // The tree as written, before preprocessing lowers some of it (`delete v` is `v =
    // undefined`, an `if (false)` branch goes): text that does not parse yet (a project's
    // macros) is left to the tree gate after preprocessing.
    match crate::parse::parse_tokens(toks) {
        Ok(tree) => check_tree(game, &tree),
        Err(_) => Ok(()),
    }
}

/// `text` with its `#macro`, `#region` and `#endregion` lines blanked (the lexer does not read
/// them), every other character in its place.
fn blank_directives(text: &str) -> String {
    let mut blanked = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        let body = line.trim_start();
        let word: String = body
            .chars()
            .skip(1)
            .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
            .collect();
        if body.starts_with('#') && matches!(word.as_str(), "macro" | "region" | "endregion") {
            blanked.extend(line.chars().map(|c| if c == '\n' { '\n' } else { ' ' }));
        } else {
            blanked.push_str(line);
        }
    }
    blanked
}

/// Line and column in `text` of refusal `r` whose statement starts at `from` (or the text's
/// start): its own place when the gate read the text, else the first token from there that
/// its [`Mark`] names (else `from` itself).
pub(super) fn place(
    text: &str,
    escapes: bool,
    from: Option<(u32, u32)>,
    r: &Refusal,
) -> Option<(u32, u32)> {
    if r.at.is_some() {
        return r.at;
    }
    let start = from.unwrap_or((1, 1));
    let found = (|| {
        let toks = lex_with(&blank_directives(text), escapes).ok()?;
        let k0 = toks.iter().position(|t| (t.line, t.col) >= start)?;
        let toks = &toks[k0..];
        let value_end = |t: &Tok| {
            matches!(
                t,
                Tok::Ident(_) | Tok::Int(_) | Tok::Real(_) | Tok::Str(_) | Tok::Punct(")" | "]")
            )
        };
        let k = match &r.mark {
            Mark::Word(w) => toks
                .iter()
                .position(|t| matches!(&t.tok, Tok::Ident(n) if n == w))?,
            Mark::Punct(p) => toks.iter().position(|t| t.tok == Tok::Punct(p))?,
            Mark::Call(name) => toks
                .iter()
                .position(|t| matches!(&t.tok, Tok::Ident(n) if n == name))
                .or_else(|| {
                    let a = accessor_of(name)?;
                    toks.iter().position(|t| t.tok == Tok::Punct(a))
                })?,
            Mark::ArrayOpen => (0..toks.len()).find(|&i| {
                toks[i].tok == Tok::Punct("[") && (i == 0 || !value_end(&toks[i - 1].tok))
            })?,
            Mark::SecondIndex => (1..toks.len())
                .find(|&i| toks[i].tok == Tok::Punct("[") && toks[i - 1].tok == Tok::Punct("]"))?,
            Mark::Statement => return None,
        };
        Some((toks[k].line, toks[k].col))
    })();
    found.or(from)
}
