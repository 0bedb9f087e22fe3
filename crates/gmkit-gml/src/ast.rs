//! The GML syntax tree shared by the decompiler (bytecode → tree) and the compiler (tree →
//! bytecode), and produced by the parser (text → tree) and consumed by the printer (tree → text).
//!
//! The tree keeps the distinctions that survive into bytecode and can be written in source:
//! `a++` vs `a += 1` ([`Stmt::Update`] vs [`Stmt::Assign`] with an operator), an int64 literal
//! (written `int64(n)`), parentheses that change code (kept as [`Expr::Paren`]).

/// A literal value.
#[derive(Clone, Debug, PartialEq)]
pub enum Literal {
    /// An integer that fits in 32 bits (`5`, `-3`, `70000`).
    Int(i64),
    /// A 64-bit integer literal (an enum member or `int64(n)`; compiled to `push.l`).
    Int64(i64),
    /// A real number (`1.5`).
    Real(f64),
    /// A string (unescaped text).
    String(String),
    /// `true` / `false`.
    Bool(bool),
}

/// Unary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnaryOp {
    /// `-x`
    Neg,
    /// `!x`
    Not,
    /// `~x`
    BitNot,
}

/// Binary operators, in GML spelling.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    /// `*`
    Mul,
    /// `/`
    Div,
    /// `div` (integer division; the `rem` opcode)
    IntDiv,
    /// `%` / `mod`
    Mod,
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `&`
    BitAnd,
    /// `|`
    BitOr,
    /// `^`
    BitXor,
    /// `<<`
    Shl,
    /// `>>`
    Shr,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `>=`
    Ge,
    /// `>`
    Gt,
    /// `&&`
    And,
    /// `||`
    Or,
    /// `^^`
    Xor,
    /// `??`
    Nullish,
}

impl BinaryOp {
    /// The operator's spelling.
    pub fn symbol(self) -> &'static str {
        use BinaryOp::*;
        match self {
            Mul => "*",
            Div => "/",
            IntDiv => "div",
            Mod => "%",
            Add => "+",
            Sub => "-",
            BitAnd => "&",
            BitOr => "|",
            BitXor => "^",
            Shl => "<<",
            Shr => ">>",
            Lt => "<",
            Le => "<=",
            Eq => "==",
            Ne => "!=",
            Ge => ">=",
            Gt => ">",
            And => "&&",
            Or => "||",
            Xor => "^^",
            Nullish => "??",
        }
    }

    /// Binding strength (higher binds tighter), GML's precedence levels.
    pub fn precedence(self) -> u8 {
        use BinaryOp::*;
        match self {
            Nullish => 1,
            Or => 2,
            Xor => 3,
            And => 4,
            Lt | Le | Eq | Ne | Ge | Gt => 5,
            BitOr => 6,
            BitXor => 7,
            BitAnd => 8,
            Shl | Shr => 9,
            Add | Sub => 10,
            Mul | Div | IntDiv | Mod => 11,
        }
    }
}

/// `++` or `--`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UpdateOp {
    /// `++`
    Inc,
    /// `--`
    Dec,
}

/// An expression.
#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    /// A literal.
    Lit(Literal),
    /// A name: variable, function, asset, constant, or `self`/`other`/`global`/`noone`/`all`.
    Ident(String),
    /// `target.name`
    Member(Box<Expr>, String),
    /// `target[i]` (one index) or the legacy two-index form `target[i, j]`.
    Index(Box<Expr>, Vec<Expr>),
    /// `callee(args)`
    Call(Box<Expr>, Vec<Expr>),
    /// `new callee(args)`
    New(Box<Expr>, Vec<Expr>),
    /// Unary operation.
    Unary(UnaryOp, Box<Expr>),
    /// Binary operation.
    Binary(BinaryOp, Box<Expr>, Box<Expr>),
    /// `c ? a : b`
    Ternary(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `++x` / `x++` as an expression (`prefix` says which).
    Update {
        /// `++` or `--`.
        op: UpdateOp,
        /// Prefix form.
        prefix: bool,
        /// The variable.
        target: Box<Expr>,
    },
    /// `[a, b]`
    Array(Vec<Expr>),
    /// `{ k: v, ... }`
    Struct(Vec<(String, Expr)>),
    /// A function literal (`function (a) { ... }`), possibly named.
    Function(Box<Function>),
    /// Parentheses written in source that change the compiled code (`(a * b) / c`).
    Paren(Box<Expr>),
}

/// A function (declaration, literal or constructor).
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Function {
    /// Name (`None` for an anonymous function literal).
    pub name: Option<String>,
    /// Parameters with their default values.
    pub params: Vec<(String, Option<Expr>)>,
    /// Parent constructor call (`: Parent(args)`).
    pub inherits: Option<(String, Vec<Expr>)>,
    /// A constructor.
    pub constructor: bool,
    /// The body.
    pub body: Vec<Stmt>,
    /// Where its `function` keyword is in the text it was parsed from (GameMaker numbers
    /// anonymous functions by it); not part of the tree's equality.
    pub at: SourceAt,
}

/// A place in GML text (line and column, 1-based; 0 when the tree was not parsed from text).
/// Two places always compare equal: a tree's meaning does not depend on where it was written.
#[derive(Clone, Copy, Debug, Default)]
pub struct SourceAt {
    /// Line (1-based).
    pub line: u32,
    /// Column in characters (1-based).
    pub col: u32,
}

impl PartialEq for SourceAt {
    fn eq(&self, _: &SourceAt) -> bool {
        true
    }
}

impl SourceAt {
    /// The byte offset of this place in `text` as GameMaker counts it: every line ending is
    /// two bytes (the IDE saves text with CRLF line endings; corpus: acrandomizer, longdog
    /// anonymous-function names against their sources). `None` when not inside `text`.
    pub fn crlf_offset(&self, text: &str) -> Option<u32> {
        if self.line == 0 || self.col == 0 {
            return None;
        }
        let mut offset = 0usize;
        for (k, line) in text.split('\n').enumerate() {
            let line = line.strip_suffix('\r').unwrap_or(line);
            if k + 1 == self.line as usize {
                let bytes: usize = line
                    .chars()
                    .take(self.col as usize - 1)
                    .map(char::len_utf8)
                    .sum();
                return u32::try_from(offset + bytes).ok();
            }
            offset += line.len() + 2;
        }
        None
    }
}

/// One label group of a `switch`.
#[derive(Clone, Debug, PartialEq)]
pub struct Case {
    /// `case v:` (`None` for `default:`).
    pub label: Option<Expr>,
    /// Statements up to the next label (falls through unless it ends with `break`).
    pub body: Vec<Stmt>,
}

/// A statement.
#[derive(Clone, Debug, PartialEq)]
pub enum Stmt {
    /// An expression evaluated for its effect (calls, `new`).
    Expr(Expr),
    /// `target = value` or a compound assignment (`target op= value`).
    Assign {
        /// The assigned place.
        target: Expr,
        /// `Some(op)` for `op=`.
        op: Option<BinaryOp>,
        /// The value.
        value: Expr,
    },
    /// `x++` / `--x` as a statement.
    Update {
        /// `++` or `--`.
        op: UpdateOp,
        /// Prefix form.
        prefix: bool,
        /// The variable.
        target: Expr,
    },
    /// `var a, b = 1;`
    Var(Vec<(String, Option<Expr>)>),
    /// `static a = 1;`
    Static(Vec<(String, Expr)>),
    /// `globalvar a, b;`
    GlobalVar(Vec<String>),
    /// `if (c) a else b`
    If(Expr, Vec<Stmt>, Option<Vec<Stmt>>),
    /// `while (c) body`
    While(Expr, Vec<Stmt>),
    /// `for (init; cond; step) body`
    For(
        Option<Box<Stmt>>,
        Option<Expr>,
        Option<Box<Stmt>>,
        Vec<Stmt>,
    ),
    /// `do body until (c);`
    DoUntil(Vec<Stmt>, Expr),
    /// `repeat (n) body`
    Repeat(Expr, Vec<Stmt>),
    /// `with (e) body`
    With(Expr, Vec<Stmt>),
    /// `switch (e) { cases }`
    Switch(Expr, Vec<Case>),
    /// `break;`
    Break,
    /// `continue;`
    Continue,
    /// `exit;`
    Exit,
    /// `return;` / `return e;`
    Return(Option<Expr>),
    /// `throw e;`
    Throw(Expr),
    /// `delete e;`
    Delete(Expr),
    /// `try {} catch (e) {} finally {}`
    Try {
        /// The protected block.
        body: Vec<Stmt>,
        /// Catch variable and block.
        catch: Option<(String, Vec<Stmt>)>,
        /// Finally block.
        finally: Option<Vec<Stmt>>,
    },
    /// A named function declaration (`function f(a) {}`).
    Function(Function),
    /// A `{ ... }` block.
    Block(Vec<Stmt>),
    /// Code the decompiler could not structure: shown as a marked comment with the
    /// instructions it covers. Never produced by the parser; the compiler refuses it.
    Unstructured(String),
}
