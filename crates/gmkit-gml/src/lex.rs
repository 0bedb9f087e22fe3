//! GML text → tokens, each with its line and column.

use crate::parse::ParseError;

/// A token kind.
#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    /// A name or keyword.
    Ident(String),
    /// An integer literal (decimal, `0x`, `$`).
    Int(i64),
    /// A real literal.
    Real(f64),
    /// A string literal (escapes resolved).
    Str(String),
    /// Punctuation or an operator (`+=`, `(`, `??`, ...).
    Punct(&'static str),
    /// End of the text.
    Eof,
}

/// Longest GML text read as one piece of code (a `.gml` file, a code entry): 16 MiB. Memory
/// grows with the text (tokens, tree, bytecode: tens of bytes per byte of text), so hostile
/// text is refused before any of it is built; the longest code entry of the corpus is under
/// 1 MiB of text.
pub const MAX_SOURCE_BYTES: usize = 16 << 20;

/// Longest text quoted whole in an error message: longer text is cut, marked with `…`.
pub const MAX_QUOTED_CHARS: usize = 64;

/// `s` as an error message quotes it: in backticks, control characters escaped, at most
/// [`MAX_QUOTED_CHARS`] characters of it.
pub fn shown(s: &str) -> String {
    format!("`{}`", gmkit_data::text::one_line(s, MAX_QUOTED_CHARS))
}

impl Tok {
    /// How the token reads in an error message.
    pub fn describe(&self) -> String {
        match self {
            Tok::Ident(s) => shown(s),
            Tok::Int(v) => format!("number {v}"),
            Tok::Real(v) => format!("number {v}"),
            Tok::Str(_) => "a string".into(),
            Tok::Punct(p) => format!("`{p}`"),
            Tok::Eof => "the end of the text".into(),
        }
    }
}

/// A token and where it starts (1-based line and column).
#[derive(Clone, Debug, PartialEq)]
pub struct Token {
    /// The token.
    pub tok: Tok,
    /// Line.
    pub line: u32,
    /// Column (in characters).
    pub col: u32,
}

const PUNCT: &[&str] = &[
    "??=", "<<=", ">>=", "??", "++", "--", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "==",
    "!=", "<=", ">=", "<<", ">>", "&&", "||", "^^", "[@", "[|", "[?", "[#", "[$", ":=", "<>", "+",
    "-", "*", "/", "%", "&", "|", "^", "~", "!", "<", ">", "=", "(", ")", "[", "]", "{", "}", ",",
    ";", ":", ".", "?",
];

/// Callee name of a template string `$"a{x}"` with fields, lexed as
/// `@@template@@("a{0}", (x))`: the compiler calls `string` (2023.4+) or `@@string@@`
/// (2024.14+) with the format string and the fields (spec §6.5).
pub const TEMPLATE: &str = "@@template@@";

/// Deepest nesting of template strings inside fields (`$"a{$"b{c}"}"` is 2 deep) the lexer
/// accepts; deeper text is an error naming the outermost template, never unbounded recursion.
pub const MAX_TEMPLATE_NESTING: usize = 16;

/// Reads the rest of a template string after `$"` from `*i`: the format string (each field
/// replaced by `{k}`) and the fields' source text. A field may hold strings, braces and
/// template strings of its own (as GameMaker's compiler accepts), `depth` deep so far.
fn template(
    chars: &[char],
    i: &mut usize,
    escapes: bool,
    depth: usize,
) -> Result<(String, Vec<String>), String> {
    let mut fmt = String::new();
    let mut fields = Vec::new();
    loop {
        let Some(&c) = chars.get(*i) else {
            return Err("the end of the text".into());
        };
        *i += 1;
        match c {
            '"' => return Ok((fmt, fields)),
            '\\' if escapes => {
                let Some(&e) = chars.get(*i) else {
                    return Err("the end of the text".into());
                };
                *i += 1;
                fmt.push(match e {
                    'n' => '\n',
                    't' => '\t',
                    'r' => '\r',
                    other => other,
                });
            }
            '{' => {
                let start = *i;
                let mut braces = 1usize;
                // The open quote of a string in the field, and whether `\` escapes in it
                // (`"a\"b"`; not in `'...'` or verbatim `@"..."`).
                let mut quote: Option<(char, bool)> = None;
                while braces > 0 {
                    let Some(&d) = chars.get(*i) else {
                        return Err("the end of the text inside a field".into());
                    };
                    *i += 1;
                    match (quote, d) {
                        (Some((_, true)), '\\') => *i += 1,
                        (Some((q, _)), d) if d == q => quote = None,
                        (Some(_), _) => {}
                        (None, '"') if *i >= 2 && chars.get(*i - 2) == Some(&'$') => {
                            // A template string inside the field: skipped whole here, its
                            // text lexed with the field's.
                            if depth + 1 >= MAX_TEMPLATE_NESTING {
                                return Err(format!(
                                    "template strings nested more than {MAX_TEMPLATE_NESTING} deep"
                                ));
                            }
                            template(chars, i, escapes, depth + 1)?;
                        }
                        (None, '"') => {
                            let verbatim = *i >= 2 && chars.get(*i - 2) == Some(&'@');
                            quote = Some(('"', escapes && !verbatim));
                        }
                        (None, '\'') => quote = Some(('\'', false)),
                        (None, '{') => braces += 1,
                        (None, '}') => braces -= 1,
                        _ => {}
                    }
                }
                fmt.push_str(&format!("{{{}}}", fields.len()));
                fields.push(chars[start..*i - 1].iter().collect());
            }
            c => fmt.push(c),
        }
    }
}

/// Whether `n` lexes as one identifier (ASCII letters, digits and `_`, not starting with a
/// digit), as every name GameMaker's IDE gives an asset does.
pub fn is_identifier(n: &str) -> bool {
    let mut b = n.bytes();
    b.next()
        .is_some_and(|c| c == b'_' || c.is_ascii_alphabetic())
        && b.all(|c| c == b'_' || c.is_ascii_alphanumeric())
}

/// Splits `src` into tokens (the last is [`Tok::Eof`]).
pub fn lex(src: &str) -> Result<Vec<Token>, ParseError> {
    lex_with(src, true)
}

/// As [`lex`]; `escapes: false` reads strings as GMS 1.x does, where `\` is an ordinary
/// character (`"C:\"` is a complete string).
pub fn lex_with(src: &str, escapes: bool) -> Result<Vec<Token>, ParseError> {
    lex_nested(src, escapes, 0)
}

/// As [`lex_with`] for text `depth` template strings deep (the field of a template).
fn lex_nested(src: &str, escapes: bool, depth: usize) -> Result<Vec<Token>, ParseError> {
    if src.len() > MAX_SOURCE_BYTES {
        return Err(ParseError {
            line: 1,
            col: 1,
            expected: format!("GML text of at most {MAX_SOURCE_BYTES} bytes"),
            found: format!("{} bytes", src.len()),
        });
    }
    let chars: Vec<char> = src.chars().collect();
    let mut out = Vec::new();
    let (mut i, mut line, mut col) = (0usize, 1u32, 1u32);
    let err = |line, col, expected: &str, found: String| ParseError {
        line,
        col,
        expected: expected.into(),
        found,
    };
    while i < chars.len() {
        let c = chars[i];
        let (l0, c0) = (line, col);
        let adv = |i: &mut usize, line: &mut u32, col: &mut u32, n: usize| {
            for _ in 0..n {
                if chars.get(*i) == Some(&'\n') {
                    *line += 1;
                    *col = 1;
                } else {
                    *col += 1;
                }
                *i += 1;
            }
        };
        if c.is_whitespace() {
            adv(&mut i, &mut line, &mut col, 1);
            continue;
        }
        if c == '/' && chars.get(i + 1) == Some(&'/') {
            while i < chars.len() && chars[i] != '\n' {
                adv(&mut i, &mut line, &mut col, 1);
            }
            continue;
        }
        if c == '/' && chars.get(i + 1) == Some(&'*') {
            adv(&mut i, &mut line, &mut col, 2);
            loop {
                if i >= chars.len() {
                    // GameMaker ends an unclosed comment at the end of the text.
                    break;
                }
                if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    adv(&mut i, &mut line, &mut col, 2);
                    break;
                }
                adv(&mut i, &mut line, &mut col, 1);
            }
            continue;
        }
        if c.is_ascii_alphabetic() || c == '_' {
            let s = i;
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_') {
                adv(&mut i, &mut line, &mut col, 1);
            }
            out.push(Token {
                tok: Tok::Ident(chars[s..i].iter().collect()),
                line: l0,
                col: c0,
            });
            continue;
        }
        if c == '$' && chars.get(i + 1) == Some(&'"') {
            adv(&mut i, &mut line, &mut col, 2);
            let s0 = i;
            let (fmt, fields) = template(&chars, &mut i, escapes, depth)
                .map_err(|what| err(l0, c0, "a template string ending in `\"`", what))?;
            // Line and column of what follows the template.
            for &ch in &chars[s0..i] {
                if ch == '\n' {
                    line += 1;
                    col = 1;
                } else {
                    col += 1;
                }
            }
            let t = |tok| Token {
                tok,
                line: l0,
                col: c0,
            };
            if fields.is_empty() {
                out.push(t(Tok::Str(fmt)));
                continue;
            }
            out.push(t(Tok::Ident(TEMPLATE.into())));
            out.push(t(Tok::Punct("(")));
            out.push(t(Tok::Str(fmt)));
            for f in fields {
                let mut inner = lex_nested(&f, escapes, depth + 1).map_err(|e| {
                    err(
                        l0,
                        c0,
                        &format!("a field of a template string: {}", e.expected),
                        e.found,
                    )
                })?;
                inner.pop(); // Eof
                out.push(t(Tok::Punct(",")));
                out.push(t(Tok::Punct("(")));
                out.extend(inner.into_iter().map(|mut x| {
                    x.line = l0;
                    x.col = c0;
                    x
                }));
                out.push(t(Tok::Punct(")")));
            }
            out.push(t(Tok::Punct(")")));
            continue;
        }
        let hex_start = if c == '$' && chars.get(i + 1).is_some_and(|d| d.is_ascii_hexdigit()) {
            Some(1)
        } else if c == '0' && matches!(chars.get(i + 1), Some('x' | 'X')) {
            Some(2)
        } else {
            None
        };
        if let Some(skip) = hex_start {
            adv(&mut i, &mut line, &mut col, skip);
            let s = i;
            while i < chars.len() && chars[i].is_ascii_hexdigit() {
                adv(&mut i, &mut line, &mut col, 1);
            }
            let text: String = chars[s..i].iter().collect();
            let v = u64::from_str_radix(&text, 16)
                .map_err(|_| err(l0, c0, "a hexadecimal number", shown(&text)))?;
            out.push(Token {
                tok: Tok::Int(v as i64),
                line: l0,
                col: c0,
            });
            continue;
        }
        if c.is_ascii_digit() || (c == '.' && chars.get(i + 1).is_some_and(|d| d.is_ascii_digit()))
        {
            let s = i;
            let mut real = false;
            while i < chars.len() && (chars[i].is_ascii_digit() || chars[i] == '.') {
                if chars[i] == '.' {
                    if real {
                        break;
                    }
                    real = true;
                }
                adv(&mut i, &mut line, &mut col, 1);
            }
            let text: String = chars[s..i].iter().collect();
            let tok = if real {
                Tok::Real(
                    text.parse()
                        .map_err(|_| err(l0, c0, "a number", shown(&text)))?,
                )
            } else {
                match text.parse::<i64>() {
                    Ok(v) => Tok::Int(v),
                    Err(_) => Tok::Real(
                        text.parse()
                            .map_err(|_| err(l0, c0, "a number", shown(&text)))?,
                    ),
                }
            };
            out.push(Token {
                tok,
                line: l0,
                col: c0,
            });
            continue;
        }
        if c == '"' || c == '\'' || (c == '@' && matches!(chars.get(i + 1), Some('"' | '\''))) {
            let verbatim = c == '@';
            if verbatim {
                adv(&mut i, &mut line, &mut col, 1);
            }
            let q = chars[i];
            adv(&mut i, &mut line, &mut col, 1);
            let mut s = String::new();
            loop {
                let Some(&ch) = chars.get(i) else {
                    return Err(err(l0, c0, "a closing quote", "the end of the text".into()));
                };
                adv(&mut i, &mut line, &mut col, 1);
                if ch == q {
                    break;
                }
                if ch == '\\' && escapes && !verbatim && q == '"' {
                    let Some(&e) = chars.get(i) else { continue };
                    adv(&mut i, &mut line, &mut col, 1);
                    match e {
                        'n' => s.push('\n'),
                        'r' => s.push('\r'),
                        't' => s.push('\t'),
                        '0' => s.push('\0'),
                        'x' => {
                            let h: String = chars[i..(i + 2).min(chars.len())].iter().collect();
                            let v = u32::from_str_radix(&h, 16)
                                .map_err(|_| err(line, col, "two hexadecimal digits", shown(&h)))?;
                            adv(&mut i, &mut line, &mut col, 2);
                            s.push(char::from_u32(v).unwrap_or('?'));
                        }
                        other => s.push(other),
                    }
                } else {
                    s.push(ch);
                }
            }
            out.push(Token {
                tok: Tok::Str(s),
                line: l0,
                col: c0,
            });
            continue;
        }
        let rest: String = chars[i..(i + 3).min(chars.len())].iter().collect();
        if let Some(p) = PUNCT.iter().find(|p| rest.starts_with(**p)) {
            adv(&mut i, &mut line, &mut col, p.chars().count());
            out.push(Token {
                tok: Tok::Punct(p),
                line: l0,
                col: c0,
            });
            continue;
        }
        return Err(err(l0, c0, "a token", shown(&c.to_string())));
    }
    out.push(Token {
        tok: Tok::Eof,
        line,
        col,
    });
    Ok(out)
}
