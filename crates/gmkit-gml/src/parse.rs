//! GML text → syntax tree: a recursive-descent parser for statements and a precedence climber
//! for expressions. Errors give the line, the column, what was expected and what was found.

use crate::ast::{BinaryOp, Case, Expr, Function, Literal, Stmt, UnaryOp, UpdateOp};
use crate::features::Features;
use crate::lex::{Tok, Token, lex, lex_with};
use crate::limits::{MAX_TREE_DEPTH, deep};
use std::collections::HashMap;

/// A syntax error.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("line {line}, column {col}: expected {expected}, found {found}")]
pub struct ParseError {
    /// Line (1-based).
    pub line: u32,
    /// Column (1-based).
    pub col: u32,
    /// What the parser expected.
    pub expected: String,
    /// What it found.
    pub found: String,
}

/// Parses a code entry's text (a list of statements).
pub fn parse(src: &str) -> Result<Vec<Stmt>, ParseError> {
    parse_tokens(lex(src)?)
}

/// Parses a code entry's text in the GML dialect of a version: GMS 1.x strings have no escapes
/// ([`Features::escaped_strings`]; what [`crate::print::print_for`] writes).
pub fn parse_for(src: &str, features: &Features) -> Result<Vec<Stmt>, ParseError> {
    parse_tokens(lex_with(src, features.escaped_strings())?)
}

/// Parses tokens (ending with [`Tok::Eof`]) as a list of statements: text that went through
/// preprocessing (macros substituted, enums taken out; [`crate::macros`]).
pub fn parse_tokens(mut toks: Vec<Token>) -> Result<Vec<Stmt>, ParseError> {
    if toks.last().is_none_or(|t| t.tok != Tok::Eof) {
        let (line, col) = toks.last().map_or((1, 1), |t| (t.line, t.col));
        toks.push(Token {
            tok: Tok::Eof,
            line,
            col,
        });
    }
    let toks = inline_enums(toks)?;
    let mut p = Parser::new(toks);
    let mut out = Vec::new();
    while p.peek() != &Tok::Eof {
        out.push(p.stmt()?);
    }
    Ok(out)
}

/// Takes `enum NAME { A, B = expr, ... }` declarations out of `toks` and writes each use
/// `NAME.MEMBER` as the member's value, `int64(v)` (spec §5.11: enums produce no code, members
/// are int64 constants). A member's value may use earlier members and other enums of the
/// text; one that is not a constant is an error at the declaration. Project-wide enums (other
/// files) go through [`crate::source`] instead.
fn inline_enums(toks: Vec<Token>) -> Result<Vec<Token>, ParseError> {
    let has_enum = toks
        .iter()
        .any(|t| matches!(&t.tok, Tok::Ident(e) if e == "enum"));
    if !has_enum {
        return Ok(toks);
    }
    let at = toks
        .iter()
        .find(|t| matches!(&t.tok, Tok::Ident(e) if e == "enum"))
        .map_or((1, 1), |t| (t.line, t.col));
    let mut defs = crate::macros::Definitions::default();
    let toks = defs.take_enums(toks)?;
    let mut names = crate::fold::ConstNames {
        enum_int64: true,
        ..Default::default()
    };
    for (name, members) in std::mem::take(&mut defs.enum_decls) {
        let mut values = HashMap::new();
        let mut next = 0i64;
        for (m, value) in members {
            if !value.is_empty() {
                let mut e = parse_expr_tokens(value)?;
                let mut local = names.clone();
                local.enums.insert(name.clone(), values.clone());
                next = match crate::fold::const_value(&mut e, &local) {
                    Some(Literal::Int(v) | Literal::Int64(v)) => v,
                    Some(Literal::Real(v)) => v as i64,
                    Some(Literal::Bool(b)) => i64::from(b),
                    _ => {
                        return Err(ParseError {
                            line: at.0,
                            col: at.1,
                            expected: format!("a constant value for enum member {name}.{m}"),
                            found: "an expression that is not constant".into(),
                        });
                    }
                };
            }
            values.insert(m, next);
            next = next.wrapping_add(1);
        }
        names.enums.insert(name, values);
    }
    let mut out = Vec::with_capacity(toks.len());
    let mut i = 0;
    while i < toks.len() {
        if let (Tok::Ident(e), Some(Tok::Punct(".")), Some(Tok::Ident(m))) = (
            &toks[i].tok,
            toks.get(i + 1).map(|t| &t.tok),
            toks.get(i + 2).map(|t| &t.tok),
        ) && let Some(&v) = names.enums.get(e).and_then(|ms| ms.get(m))
            && !(i > 0 && toks[i - 1].tok == Tok::Punct("."))
        {
            let (line, col) = (toks[i].line, toks[i].col);
            let t = |tok| Token { tok, line, col };
            out.push(t(Tok::Ident("int64".into())));
            out.push(t(Tok::Punct("(")));
            if v < 0 {
                out.push(t(Tok::Punct("-")));
            }
            out.push(t(Tok::Int(v.unsigned_abs().min(i64::MAX as u64) as i64)));
            out.push(t(Tok::Punct(")")));
            i += 3;
            continue;
        }
        out.push(toks[i].clone());
        i += 1;
    }
    Ok(out)
}

/// Parses one expression (the whole text).
pub fn parse_expr(src: &str) -> Result<Expr, ParseError> {
    parse_expr_tokens(lex(src)?)
}

/// Parses tokens as one expression (as [`parse_tokens`]).
pub fn parse_expr_tokens(mut toks: Vec<Token>) -> Result<Expr, ParseError> {
    if toks.last().is_none_or(|t| t.tok != Tok::Eof) {
        let (line, col) = toks.last().map_or((1, 1), |t| (t.line, t.col));
        toks.push(Token {
            tok: Tok::Eof,
            line,
            col,
        });
    }
    let mut p = Parser::new(toks);
    let e = p.expr()?;
    if p.peek() != &Tok::Eof {
        return Err(p.error("the end of the expression"));
    }
    Ok(e)
}

/// Prefix of the callee names accessors compile to (`m[? k]` is a call of
/// `@@accessor@@ds_map_find_value`): GameMaker compiles array reads inside an accessor's key
/// differently from the same call written out, so the tree keeps which one the source had.
/// [`crate::fold::resolve`] removes the prefix.
pub const ACCESSOR: &str = "@@accessor@@";

fn accessor_call(f: &str) -> String {
    if f.starts_with("@@") {
        f.to_string()
    } else {
        format!("{ACCESSOR}{f}")
    }
}

/// Marker callee of an `a[@ i]` read (see `accessor_reader`).
pub const ARRAY_GET: &str = "@@array_get@@";
/// Marker callee of an `a[@ i] = v` write.
pub const ARRAY_SET: &str = "@@array_set@@";

/// The function a data-structure accessor reads through (`[|`, `[?`, `[#`, `[$`).
fn accessor_reader(t: &Tok) -> Option<&'static str> {
    match t {
        Tok::Punct("[|") => Some("ds_list_find_value"),
        Tok::Punct("[?") => Some("ds_map_find_value"),
        Tok::Punct("[#") => Some("ds_grid_get"),
        Tok::Punct("[$") => Some("variable_struct_get"),
        // `a[@ i]`: GMS 1.x calls array_get/array_set, later versions index plainly; the
        // marker names are resolved by `fold` (as plain indexing when it is not run).
        Tok::Punct("[@") => Some(ARRAY_GET),
        _ => None,
    }
}

/// Whether an accessor's key reads an array element along operators (`m[? a[i] + 1]`): 2.3+
/// compiles such a read inside an accessor as a call of `array_get` ([`crate::fold`]).
/// A built-in array written without an index (`view_xview`, element 0) and `a[@ i]` count.
pub(crate) fn reads_array(e: &Expr) -> bool {
    crate::limits::deep(|| match e {
        Expr::Index(_, idx) => idx.len() == 1,
        Expr::Ident(n) => crate::fold::is_builtin_array(n),
        Expr::Call(f, _) => matches!(&**f, Expr::Ident(n) if n == ARRAY_GET),
        Expr::Binary(_, l, r) => reads_array(l) || reads_array(r),
        Expr::Unary(_, x) | Expr::Paren(x) => reads_array(x),
        _ => false,
    })
}

/// The setter matching an accessor's reader: `l[| i] = v` is `ds_list_set(l, i, v)`.
fn accessor_setter(reader: &str) -> Option<&'static str> {
    match reader {
        "ds_list_find_value" => Some("ds_list_set"),
        "ds_map_find_value" => Some("ds_map_set"),
        "ds_grid_get" => Some("ds_grid_set"),
        "variable_struct_get" => Some("variable_struct_set"),
        ARRAY_GET => Some(ARRAY_SET),
        _ => None,
    }
}

/// `target op= value` as a statement: a plain assignment to an accessor (`l[| i] = v`) is a
/// call of its setter (`ds_list_set(l, i, v)`).
pub(crate) fn assignment(target: Expr, op: Option<BinaryOp>, value: Expr) -> Stmt {
    if op.is_none()
        && let Expr::Call(f, args) = &target
        && let Expr::Ident(name) = &**f
        && let Some(setter) = accessor_setter(name.strip_prefix(ACCESSOR).unwrap_or(name))
    {
        let mut args = args.clone();
        args.push(value);
        let setter = if name.starts_with(ACCESSOR) {
            accessor_call(setter)
        } else {
            setter.to_string()
        };
        return Stmt::Expr(Expr::Call(Box::new(Expr::Ident(setter)), args));
    }
    Stmt::Assign { target, op, value }
}

/// The parser's state. Depth is counted along the way down: every statement, expression and
/// unary level entered is one level ([`Parser::enter`]), and every link of a chain (`a.b.c`,
/// `a[0][1]`, `f()()`, `1 + 2 + 3`, `a ?? b ?? c`) one more ([`Parser::link`]), so that the
/// tree built is never deeper than [`MAX_TREE_DEPTH`] (counted levels bound the tree's depth
/// from above).
struct Parser {
    toks: Vec<Token>,
    pos: usize,
    /// Levels entered on the way to the current token.
    depth: usize,
    /// The deepest level reached by what was parsed since [`Parser::measured`] last began
    /// (at least `depth`): the height of a subtree is `high - depth` after it is parsed.
    high: usize,
    /// Where the outermost statement (or expression) being parsed starts: named when the
    /// code nests too deeply.
    top: (u32, u32),
}

/// Whether `s` is a word of GML's syntax (`if`, `var`, `function`, ...), no name.
pub(crate) fn is_keyword(s: &str) -> bool {
    matches!(
        s,
        "if" | "else"
            | "while"
            | "for"
            | "do"
            | "until"
            | "repeat"
            | "with"
            | "switch"
            | "case"
            | "default"
            | "break"
            | "continue"
            | "exit"
            | "return"
            | "var"
            | "globalvar"
            | "static"
            | "function"
            | "constructor"
            | "new"
            | "throw"
            | "try"
            | "catch"
            | "finally"
            | "delete"
            | "and"
            | "or"
            | "xor"
            | "not"
            | "div"
            | "mod"
            | "then"
    )
}

impl Parser {
    fn new(toks: Vec<Token>) -> Parser {
        let top = toks.first().map_or((1, 1), |t| (t.line, t.col));
        Parser {
            toks,
            pos: 0,
            depth: 0,
            high: 0,
            top,
        }
    }

    fn here(&self) -> (u32, u32) {
        let t = &self.toks[self.pos.min(self.toks.len() - 1)];
        (t.line, t.col)
    }

    /// The error for a tree deeper than [`MAX_TREE_DEPTH`], at `start` (where the too deep
    /// statement, expression or chain starts).
    fn too_deep(&self, start: (u32, u32), what: &str) -> ParseError {
        ParseError {
            line: start.0,
            col: start.1,
            expected: format!(
                "code nested at most {MAX_TREE_DEPTH} levels deep (each link of a chain such as \
                 `a.b.c`, `f()()` or `1 + 2 + 3` is a level)"
            ),
            found: format!("{what} starting here"),
        }
    }

    fn peek(&self) -> &Tok {
        &self.toks[self.pos.min(self.toks.len() - 1)].tok
    }

    fn peek_at(&self, k: usize) -> &Tok {
        &self.toks[(self.pos + k).min(self.toks.len() - 1)].tok
    }

    fn next(&mut self) -> Tok {
        // The parser never looks back: a consumed token is taken, not cloned.
        if self.pos < self.toks.len() - 1 {
            self.pos += 1;
            std::mem::replace(&mut self.toks[self.pos - 1].tok, Tok::Eof)
        } else {
            self.peek().clone()
        }
    }

    fn error(&self, expected: &str) -> ParseError {
        let t = &self.toks[self.pos.min(self.toks.len() - 1)];
        ParseError {
            line: t.line,
            col: t.col,
            expected: expected.into(),
            found: t.tok.describe(),
        }
    }

    fn is_punct(&self, p: &str) -> bool {
        matches!(self.peek(), Tok::Punct(q) if *q == p)
    }

    fn is_word(&self, w: &str) -> bool {
        matches!(self.peek(), Tok::Ident(q) if q == w)
    }

    fn eat_punct(&mut self, p: &str) -> bool {
        if self.is_punct(p) {
            self.next();
            true
        } else {
            false
        }
    }

    fn eat_word(&mut self, w: &str) -> bool {
        if self.is_word(w) {
            self.next();
            true
        } else {
            false
        }
    }

    fn expect_punct(&mut self, p: &str) -> Result<(), ParseError> {
        if self.eat_punct(p) {
            Ok(())
        } else {
            Err(self.error(&format!("`{p}`")))
        }
    }

    fn name(&mut self) -> Result<String, ParseError> {
        match self.peek().clone() {
            Tok::Ident(s) if !is_keyword(&s) => {
                self.next();
                Ok(s)
            }
            _ => Err(self.error("a name")),
        }
    }

    /// Runs `f` one level deeper (a statement, expression or unary level), on a stack grown
    /// as needed ([`deep`]); refuses to go past [`MAX_TREE_DEPTH`].
    fn enter<T>(
        &mut self,
        f: impl FnOnce(&mut Self) -> Result<T, ParseError>,
    ) -> Result<T, ParseError> {
        if self.depth == 0 {
            self.top = self.here();
        }
        if self.depth >= MAX_TREE_DEPTH {
            return Err(self.too_deep(self.top, "deeper nesting"));
        }
        self.depth += 1;
        self.high = self.high.max(self.depth);
        let r = deep(|| f(self));
        self.depth -= 1;
        r
    }

    /// Runs `f` and gives what it returns with the height it reached above the current level.
    fn measured<T>(
        &mut self,
        f: impl FnOnce(&mut Self) -> Result<T, ParseError>,
    ) -> Result<(T, usize), ParseError> {
        let outer = self.high;
        self.high = self.depth;
        let r = f(self);
        let h = self.high - self.depth;
        self.high = self.high.max(outer);
        r.map(|t| (t, h))
    }

    /// One more link of the chain starting at `start`: a node over the chain so far (of height
    /// `*h`) and a child of height `child`.
    fn link(&mut self, h: &mut usize, child: usize, start: (u32, u32)) -> Result<(), ParseError> {
        *h = (*h).max(child) + 1;
        let reach = self.depth + *h;
        if reach > MAX_TREE_DEPTH {
            return Err(self.too_deep(start, "a longer chain"));
        }
        self.high = self.high.max(reach);
        Ok(())
    }

    /// A statement or a `{}` block as a list.
    fn body(&mut self) -> Result<Vec<Stmt>, ParseError> {
        if self.is_punct("{") {
            self.block()
        } else {
            Ok(vec![self.stmt()?])
        }
    }

    fn block(&mut self) -> Result<Vec<Stmt>, ParseError> {
        self.expect_punct("{")?;
        let mut out = Vec::new();
        while !self.eat_punct("}") {
            if self.peek() == &Tok::Eof {
                return Err(self.error("`}`"));
            }
            out.push(self.stmt()?);
        }
        Ok(out)
    }

    fn semi(&mut self) {
        while self.eat_punct(";") {}
    }

    fn stmt(&mut self) -> Result<Stmt, ParseError> {
        self.enter(Self::stmt_inner)
    }

    fn stmt_inner(&mut self) -> Result<Stmt, ParseError> {
        if self.is_punct("{") {
            let b = self.block()?;
            return Ok(Stmt::Block(b));
        }
        if self.eat_punct(";") {
            return Ok(Stmt::Block(Vec::new()));
        }
        let word = match self.peek() {
            Tok::Ident(w) => w.clone(),
            _ => String::new(),
        };
        let s = match word.as_str() {
            "var" => {
                self.next();
                let mut vars = Vec::new();
                // GMS1 accepts an empty `var;`.
                while !self.is_punct(";") {
                    let n = self.name()?;
                    let v = if self.eat_punct("=") || self.eat_punct(":=") {
                        Some(self.expr()?)
                    } else {
                        None
                    };
                    vars.push((n, v));
                    if !self.eat_punct(",") {
                        break;
                    }
                }
                Stmt::Var(vars)
            }
            "globalvar" => {
                self.next();
                let mut names = vec![self.name()?];
                while self.eat_punct(",") {
                    names.push(self.name()?);
                }
                Stmt::GlobalVar(names)
            }
            "static" => {
                self.next();
                let mut vars = Vec::new();
                loop {
                    let n = self.name()?;
                    if !(self.eat_punct("=") || self.eat_punct(":=")) {
                        return Err(self.error("`=` and the static's value"));
                    }
                    vars.push((n, self.expr()?));
                    if !self.eat_punct(",") {
                        break;
                    }
                }
                Stmt::Static(vars)
            }
            "if" => {
                self.next();
                let c = self.cond()?;
                self.eat_word("then");
                let a = self.body()?;
                self.semi();
                let b = if self.eat_word("else") {
                    Some(self.body()?)
                } else {
                    None
                };
                return Ok(Stmt::If(c, a, b));
            }
            "while" => {
                self.next();
                let c = self.cond()?;
                self.eat_word("do");
                return Ok(Stmt::While(c, self.body()?));
            }
            "repeat" => {
                self.next();
                let c = self.cond()?;
                return Ok(Stmt::Repeat(c, self.body()?));
            }
            "with" => {
                self.next();
                let c = self.cond()?;
                return Ok(Stmt::With(c, self.body()?));
            }
            "do" => {
                self.next();
                let b = self.body()?;
                self.semi();
                if !self.eat_word("until") {
                    return Err(self.error("`until`"));
                }
                let c = self.cond()?;
                Stmt::DoUntil(b, c)
            }
            "for" => {
                self.next();
                self.expect_punct("(")?;
                let init = if self.is_punct(";") {
                    None
                } else {
                    Some(Box::new(self.simple_stmt()?))
                };
                self.expect_punct(";")?;
                let cond = if self.is_punct(";") {
                    None
                } else {
                    Some(self.expr()?)
                };
                self.expect_punct(";")?;
                let step = if self.is_punct(")") {
                    None
                } else if self.eat_word("exit") {
                    // GameMaker's compiler takes `exit` as a step (it runs when the body
                    // continues).
                    Some(Box::new(Stmt::Exit))
                } else {
                    Some(Box::new(self.simple_stmt()?))
                };
                self.expect_punct(")")?;
                return Ok(Stmt::For(init, cond, step, self.body()?));
            }
            "switch" => {
                self.next();
                let v = self.cond()?;
                self.expect_punct("{")?;
                let mut cases: Vec<Case> = Vec::new();
                while !self.eat_punct("}") {
                    if self.eat_word("case") {
                        let l = self.expr()?;
                        self.expect_punct(":")?;
                        cases.push(Case {
                            label: Some(l),
                            body: Vec::new(),
                        });
                    } else if self.eat_word("default") {
                        self.expect_punct(":")?;
                        cases.push(Case {
                            label: None,
                            body: Vec::new(),
                        });
                    } else if self.peek() == &Tok::Eof {
                        return Err(self.error("`}` closing the switch"));
                    } else {
                        let s = self.stmt()?;
                        match cases.last_mut() {
                            Some(c) => c.body.push(s),
                            None => return Err(self.error("`case` or `default`")),
                        }
                    }
                }
                return Ok(Stmt::Switch(v, cases));
            }
            "break" => {
                self.next();
                Stmt::Break
            }
            "continue" => {
                self.next();
                Stmt::Continue
            }
            "exit" => {
                self.next();
                Stmt::Exit
            }
            "return" => {
                self.next();
                if self.is_punct(";") || self.is_punct("}") || self.peek() == &Tok::Eof {
                    Stmt::Return(None)
                } else {
                    Stmt::Return(Some(self.expr()?))
                }
            }
            "throw" => {
                self.next();
                Stmt::Throw(self.expr()?)
            }
            "delete" => {
                self.next();
                Stmt::Delete(self.expr()?)
            }
            "try" => {
                self.next();
                let body = self.block()?;
                let catch = if self.eat_word("catch") {
                    self.expect_punct("(")?;
                    let n = self.name()?;
                    self.expect_punct(")")?;
                    Some((n, self.block()?))
                } else {
                    None
                };
                let finally = if self.eat_word("finally") {
                    Some(self.block()?)
                } else {
                    None
                };
                return Ok(Stmt::Try {
                    body,
                    catch,
                    finally,
                });
            }
            "function" if matches!(self.peek_at(1), Tok::Ident(_)) => {
                let at = self.source_at();
                self.next();
                let mut f = self.function_rest(true)?;
                f.at = at;
                return Ok(Stmt::Function(f));
            }
            _ => self.simple_stmt()?,
        };
        self.semi();
        Ok(s)
    }

    /// Assignment, `++`/`--` or an expression statement.
    fn simple_stmt(&mut self) -> Result<Stmt, ParseError> {
        if self.is_word("var") {
            // `for (var i = 0; ...`: the `;` belongs to the `for`.
            self.next();
            let mut vars = Vec::new();
            loop {
                let n = self.name()?;
                let v = if self.eat_punct("=") || self.eat_punct(":=") {
                    Some(self.expr()?)
                } else {
                    None
                };
                vars.push((n, v));
                if !self.eat_punct(",") {
                    break;
                }
            }
            return Ok(Stmt::Var(vars));
        }
        for (p, op) in [("++", UpdateOp::Inc), ("--", UpdateOp::Dec)] {
            if self.eat_punct(p) {
                let target = self.postfix()?;
                return Ok(Stmt::Update {
                    op,
                    prefix: true,
                    target,
                });
            }
        }
        let e = self.unary()?;
        if let Expr::Update { op, prefix, target } = e {
            return Ok(Stmt::Update {
                op,
                prefix,
                target: *target,
            });
        }
        let op = match self.peek() {
            Tok::Punct("=") | Tok::Punct(":=") => None,
            Tok::Punct("+=") => Some(BinaryOp::Add),
            Tok::Punct("-=") => Some(BinaryOp::Sub),
            Tok::Punct("*=") => Some(BinaryOp::Mul),
            Tok::Punct("/=") => Some(BinaryOp::Div),
            Tok::Punct("%=") => Some(BinaryOp::Mod),
            Tok::Punct("&=") => Some(BinaryOp::BitAnd),
            Tok::Punct("|=") => Some(BinaryOp::BitOr),
            Tok::Punct("^=") => Some(BinaryOp::BitXor),
            Tok::Punct("<<=") => Some(BinaryOp::Shl),
            Tok::Punct(">>=") => Some(BinaryOp::Shr),
            Tok::Punct("??=") => Some(BinaryOp::Nullish),
            _ => return Ok(Stmt::Expr(e)),
        };
        self.next();
        let value = self.expr()?;
        Ok(assignment(e, op, value))
    }

    /// After `function`: `[name](params) [: Parent(args)] [constructor] { body }`.
    fn function_rest(&mut self, named: bool) -> Result<Function, ParseError> {
        let name = if named || matches!(self.peek(), Tok::Ident(_)) {
            Some(self.name()?)
        } else {
            None
        };
        self.expect_punct("(")?;
        let mut params = Vec::new();
        while !self.eat_punct(")") {
            let n = self.name()?;
            let d = if self.eat_punct("=") {
                Some(self.expr()?)
            } else {
                None
            };
            params.push((n, d));
            if !self.eat_punct(",") {
                self.expect_punct(")")?;
                break;
            }
        }
        let inherits = if self.eat_punct(":") {
            let p = self.name()?;
            let args = self.args()?;
            Some((p, args))
        } else {
            None
        };
        let constructor = self.eat_word("constructor");
        let body = self.block()?;
        Ok(Function {
            name,
            params,
            inherits,
            constructor,
            body,
            at: crate::ast::SourceAt::default(),
        })
    }

    /// The place of the next token.
    fn source_at(&self) -> crate::ast::SourceAt {
        let (line, col) = self.here();
        crate::ast::SourceAt { line, col }
    }

    fn args(&mut self) -> Result<Vec<Expr>, ParseError> {
        self.expect_punct("(")?;
        let mut args = Vec::new();
        while !self.eat_punct(")") {
            // An omitted argument (`f(a,, b)`) is `undefined`.
            if self.is_punct(",") {
                args.push(Expr::Ident("undefined".into()));
            } else {
                args.push(self.expr()?);
            }
            if !self.eat_punct(",") {
                self.expect_punct(")")?;
                break;
            }
        }
        Ok(args)
    }

    /// A statement header's expression: the parentheses around it are syntax, not a group.
    fn cond(&mut self) -> Result<Expr, ParseError> {
        Ok(match self.expr()? {
            Expr::Paren(e) => *e,
            e => e,
        })
    }

    /// An expression (ternary level).
    fn expr(&mut self) -> Result<Expr, ParseError> {
        self.enter(Self::ternary)
    }

    fn ternary(&mut self) -> Result<Expr, ParseError> {
        let c = self.binary(1)?;
        if self.eat_punct("?") {
            let a = self.expr()?;
            self.expect_punct(":")?;
            let b = self.expr()?;
            return Ok(Expr::Ternary(Box::new(c), Box::new(a), Box::new(b)));
        }
        Ok(c)
    }

    fn binop(&self) -> Option<BinaryOp> {
        use BinaryOp::*;
        Some(match self.peek() {
            Tok::Punct(p) => match *p {
                "*" => Mul,
                "/" => Div,
                "%" => Mod,
                "+" => Add,
                "-" => Sub,
                "&" => BitAnd,
                "|" => BitOr,
                "^" => BitXor,
                "<<" => Shl,
                ">>" => Shr,
                "<" => Lt,
                "<=" => Le,
                "==" => Eq,
                "=" => Eq,
                "!=" | "<>" => Ne,
                ">=" => Ge,
                ">" => Gt,
                "&&" => And,
                "||" => Or,
                "^^" => Xor,
                "??" => Nullish,
                _ => return None,
            },
            Tok::Ident(w) => match w.as_str() {
                "div" => IntDiv,
                "mod" => Mod,
                "and" => And,
                "or" => Or,
                "xor" => Xor,
                _ => return None,
            },
            _ => return None,
        })
    }

    fn binary(&mut self, min: u8) -> Result<Expr, ParseError> {
        let start = self.here();
        let (mut l, mut h) = self.measured(Self::unary)?;
        while let Some(op) = self.binop() {
            // `=` inside an expression is a comparison (statements parse their target alone).
            let p = op.precedence();
            if p < min {
                break;
            }
            self.next();
            let (r, hr) = self.measured(|s| s.binary(p + 1))?;
            self.link(&mut h, hr, start)?;
            l = Expr::Binary(op, Box::new(l), Box::new(r));
        }
        Ok(l)
    }

    fn unary(&mut self) -> Result<Expr, ParseError> {
        self.enter(Self::unary_inner)
    }

    fn unary_inner(&mut self) -> Result<Expr, ParseError> {
        let op = match self.peek() {
            Tok::Punct("-") => Some(UnaryOp::Neg),
            Tok::Punct("!") => Some(UnaryOp::Not),
            Tok::Punct("~") => Some(UnaryOp::BitNot),
            Tok::Ident(w) if w == "not" => Some(UnaryOp::Not),
            _ => None,
        };
        if let Some(op) = op {
            self.next();
            let x = self.unary()?;
            return Ok(Expr::Unary(op, Box::new(x)));
        }
        if self.eat_punct("+") {
            return self.unary();
        }
        for (p, op) in [("++", UpdateOp::Inc), ("--", UpdateOp::Dec)] {
            if self.eat_punct(p) {
                let t = self.unary()?;
                return Ok(Expr::Update {
                    op,
                    prefix: true,
                    target: Box::new(t),
                });
            }
        }
        if self.eat_word("new") {
            let start = self.here();
            let (callee, h) = self.measured(Self::primary)?;
            let (callee, mut h) = self.members(callee, h, false, start)?;
            let (args, ha) = self.measured(Self::args)?;
            self.link(&mut h, ha, start)?;
            return Ok(self
                .members(Expr::New(Box::new(callee), args), h, true, start)?
                .0);
        }
        self.postfix()
    }

    fn postfix(&mut self) -> Result<Expr, ParseError> {
        let start = self.here();
        let (p, h) = self.measured(Self::primary)?;
        let (e, _) = self.members(p, h, true, start)?;
        for (t, op) in [("++", UpdateOp::Inc), ("--", UpdateOp::Dec)] {
            if self.eat_punct(t) {
                return Ok(Expr::Update {
                    op,
                    prefix: false,
                    target: Box::new(e),
                });
            }
        }
        Ok(e)
    }

    /// `.name`, `[i]`, and (when `calls`) `(args)` suffixes after `e` (of height `h`, starting
    /// at `start`): the expression and its height.
    fn members(
        &mut self,
        mut e: Expr,
        mut h: usize,
        calls: bool,
        start: (u32, u32),
    ) -> Result<(Expr, usize), ParseError> {
        loop {
            if self.eat_punct(".") {
                let n = match self.next() {
                    Tok::Ident(n) => n,
                    _ => return Err(self.error("a name after `.`")),
                };
                self.link(&mut h, 0, start)?;
                e = Expr::Member(Box::new(e), n);
            } else if self.is_punct("[")
                || self.is_punct("[@")
                || self.is_punct("[|")
                || self.is_punct("[?")
                || self.is_punct("[#")
                || self.is_punct("[$")
            {
                let accessor = self.next();
                let (idx, hi) = self.measured(|s| {
                    let mut idx = vec![s.expr()?];
                    while s.eat_punct(",") {
                        idx.push(s.expr()?);
                    }
                    Ok(idx)
                })?;
                self.expect_punct("]")?;
                self.link(&mut h, hi, start)?;
                e = match accessor_reader(&accessor) {
                    // `l[| i]`, `m[? k]`, `g[# i, j]` read through the data-structure
                    // functions (assignments become the matching setter, `simple_stmt`).
                    // The call keeps the accessor's mark only where GameMaker compiles the
                    // accessor unlike the call written out: a key reading an array element
                    // (2.3+), a member of the value (`s[$ k].m()`); elsewhere it is the
                    // plain call, which every compile path takes as it is.
                    Some(f) => {
                        let mut args = vec![e];
                        args.extend(idx);
                        // (2024.14+ also reads an array element as the container through
                        // `@@array_get@@`: `a[i][$ k]`.)
                        let name = if self.is_punct(".")
                            || args[1..].iter().any(reads_array)
                            || matches!(args[0], Expr::Index(_, ref i) if i.len() == 1)
                        {
                            accessor_call(f)
                        } else {
                            f.to_string()
                        };
                        Expr::Call(Box::new(Expr::Ident(name)), args)
                    }
                    None => Expr::Index(Box::new(e), idx),
                };
            } else if calls && self.is_punct("(") {
                let (args, ha) = self.measured(Self::args)?;
                self.link(&mut h, ha, start)?;
                // `int64(n)` / `int64(-n)`: an int64 literal (as printed for enum values).
                let int64 = match args.as_slice() {
                    [Expr::Lit(Literal::Int(v))] => Some(*v),
                    [Expr::Unary(UnaryOp::Neg, x)] => match **x {
                        Expr::Lit(Literal::Int(v)) => Some(-v),
                        _ => None,
                    },
                    _ => None,
                };
                e = match (e, int64) {
                    (Expr::Ident(n), Some(v)) if n == "int64" => Expr::Lit(Literal::Int64(v)),
                    (e, _) => Expr::Call(Box::new(e), args),
                };
            } else {
                return Ok((e, h));
            }
        }
    }

    fn primary(&mut self) -> Result<Expr, ParseError> {
        match self.peek().clone() {
            Tok::Int(v) => {
                self.next();
                Ok(Expr::Lit(Literal::Int(v)))
            }
            Tok::Real(v) => {
                self.next();
                Ok(Expr::Lit(Literal::Real(v)))
            }
            Tok::Str(s) => {
                self.next();
                Ok(Expr::Lit(Literal::String(s)))
            }
            Tok::Ident(w) => match w.as_str() {
                "true" | "false" => {
                    self.next();
                    Ok(Expr::Lit(Literal::Bool(w == "true")))
                }
                "function" => {
                    let at = self.source_at();
                    self.next();
                    let mut f = self.function_rest(false)?;
                    f.at = at;
                    Ok(Expr::Function(Box::new(f)))
                }
                w if is_keyword(w) => Err(self.error("an expression")),
                _ => {
                    self.next();
                    Ok(Expr::Ident(w))
                }
            },
            Tok::Punct("(") => {
                self.next();
                let e = self.expr()?;
                self.expect_punct(")")?;
                Ok(Expr::Paren(Box::new(e)))
            }
            Tok::Punct("[") => {
                self.next();
                let mut items = Vec::new();
                while !self.eat_punct("]") {
                    items.push(self.expr()?);
                    if !self.eat_punct(",") {
                        self.expect_punct("]")?;
                        break;
                    }
                }
                Ok(Expr::Array(items))
            }
            Tok::Punct("{") => {
                self.next();
                let mut fields = Vec::new();
                while !self.eat_punct("}") {
                    let k = match self.next() {
                        Tok::Ident(k) => k,
                        Tok::Str(k) => k,
                        _ => return Err(self.error("a struct key")),
                    };
                    self.expect_punct(":")?;
                    fields.push((k, self.expr()?));
                    if !self.eat_punct(",") {
                        self.expect_punct("}")?;
                        break;
                    }
                }
                Ok(Expr::Struct(fields))
            }
            _ => Err(self.error("an expression")),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::print::print_stmts;

    fn round(src: &str) -> String {
        print_stmts(&parse(src).unwrap())
    }

    #[test]
    fn statements_round_trip() {
        for src in [
            "a = b + c * 2;",
            "if (a < 3) {\n    break;\n} else if (b) {\n    exit;\n}",
            "var i, j;\nfor (i = 0; i < 10; i++) {\n    j += i;\n}",
            "switch (k) {\n    case 1:\n        a();\n        break;\n    default:\n        b();\n}",
            "with (obj) {\n    x = -(-1);\n}",
            "s = { a: 1, b: [1, 2] };\nf = function(arg0, arg1 = 2) {\n    return arg0;\n};",
            "function F(arg0) : G(arg0) constructor {\n    static n = 0;\n}",
            "try {\n    a();\n} catch (e) {\n    b(e);\n} finally {\n    c();\n}",
            "v = a ?? b;\na ??= 7;\nv = c ? 1 : int64(5);\nx = (new Foo(1)).bar;",
            "do {\n    a--;\n} until (a <= 0);",
            "v = (a * b) / c;\nv = a / b / c;",
        ] {
            assert_eq!(round(src), src);
        }
    }

    #[test]
    fn gml1_forms() {
        assert_eq!(
            round("if a = 1 then b = 2 else c = 3"),
            "if (a == 1) {\n    b = 2;\n} else {\n    c = 3;\n}"
        );
        assert_eq!(round("x = $FF + 0x10;"), "x = 255 + 16;");
        assert_eq!(round("x = 'it''s'"), "x = \"it\";\n\"s\";");
    }

    #[test]
    fn errors_say_where_and_what() {
        let e = parse("a = 1;\nif (b {\n}").unwrap_err();
        assert_eq!((e.line, e.col), (2, 7));
        assert_eq!(e.expected, "`)`");
        assert_eq!(e.found, "`{`");
        let e = parse("x = ;").unwrap_err();
        assert_eq!(e.expected, "an expression");
        assert!(parse(&"(".repeat(100_000)).is_err());
    }
}
