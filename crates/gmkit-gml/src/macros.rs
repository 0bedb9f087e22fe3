//! The preprocessing GameMaker applies to source text before compiling it: `#macro`
//! definitions (token substitution, project-wide), `#region`/`#endregion` lines (ignored) and
//! `enum` declarations (project-wide; members become int64 constants, spec §3.1, §5.11).
//! Nothing of these survives into bytecode except the substituted tokens.

use crate::lex::{Tok, Token, lex, shown};
use crate::parse::ParseError;
use std::collections::HashMap;

/// An enum declaration before evaluation: its name and members with their value tokens
/// (empty: the previous value + 1).
pub type EnumDecl = (String, Vec<(String, Vec<Token>)>);

/// Project-wide definitions: macros (name → tokens) and enums (name → member → value).
#[derive(Clone, Debug, Default)]
pub struct Definitions {
    /// `#macro NAME tokens` (and GMS1 project constants).
    pub macros: HashMap<String, Vec<Tok>>,
    /// Enum declarations before evaluation: name → members with their value tokens.
    pub enum_decls: Vec<EnumDecl>,
    /// Evaluated enums.
    pub enums: HashMap<String, HashMap<String, i64>>,
}

/// Maximum depth of macro expansion (a macro using itself must not loop forever).
const MAX_EXPANSION: usize = 32;

/// Tokens macro expansion may always produce for one piece of code, however short: 32
/// doubling macros written in 1 KB must not ask for 2^31 tokens.
pub const MACRO_TOKENS_FLOOR: usize = 1 << 18;

/// Tokens macro expansion may produce per token of the code it expands (when that allows more
/// than [`MACRO_TOKENS_FLOOR`]): real code's macros are names of constants and short
/// expressions, far below.
pub const MACRO_TOKENS_PER_INPUT_TOKEN: usize = 8;

/// The most tokens expanding `n` tokens of code may produce.
pub fn macro_budget(n: usize) -> usize {
    MACRO_TOKENS_FLOOR.max(n.saturating_mul(MACRO_TOKENS_PER_INPUT_TOKEN))
}

/// Blanks the directive lines of `text` (`#macro`, `#region`, `#endregion`), keeping line
/// numbers, and returns the macros it defines as (name, value text). A value continues on the
/// next line after a trailing `\`. `#macro CONFIG:NAME value` (a configuration-specific value)
/// is kept only when no plain definition of NAME exists.
pub fn strip_directives(text: &str) -> (String, Vec<(String, String, bool)>) {
    let mut out = String::with_capacity(text.len());
    let mut macros = Vec::new();
    let mut cont: Option<(String, String, bool)> = None;
    for line in text.split_inclusive('\n') {
        let nl = if line.ends_with('\n') { "\n" } else { "" };
        let body = line.trim_end_matches(['\n', '\r']);
        if let Some((name, mut value, cfg)) = cont.take() {
            let (part, more) = match body.strip_suffix('\\') {
                Some(p) => (p, true),
                None => (body, false),
            };
            value.push('\n');
            value.push_str(part);
            if more {
                cont = Some((name, value, cfg));
            } else {
                macros.push((name, value, cfg));
            }
            out.push_str(nl);
            continue;
        }
        let t = body.trim_start();
        if let Some(rest) = t.strip_prefix("#macro") {
            let rest = rest.trim_start();
            let name_end = rest.find(|c: char| c.is_whitespace()).unwrap_or(rest.len());
            let mut name = rest[..name_end].to_string();
            let mut cfg = false;
            if let Some((_, n)) = name.split_once(':') {
                name = n.to_string();
                cfg = true;
            }
            let value = rest[name_end..].trim();
            match value.strip_suffix('\\') {
                Some(v) => cont = Some((name, v.to_string(), cfg)),
                None => macros.push((name, value.to_string(), cfg)),
            }
            out.push_str(nl);
            continue;
        }
        if t.starts_with("#region") || t.starts_with("#endregion") {
            out.push_str(nl);
            continue;
        }
        out.push_str(line);
    }
    if let Some(m) = cont {
        macros.push(m);
    }
    (out, macros)
}

/// A macro use being expanded: the name written in the code, where, and the budget of tokens
/// for the whole piece of code.
struct Expansion<'a> {
    name: &'a str,
    line: u32,
    col: u32,
    budget: usize,
}

/// The error for expansion past `budget` tokens, at the use of macro `name` (`None`: the
/// token after the macros that used it up).
fn at_budget(name: Option<&str>, line: u32, col: u32, budget: usize) -> ParseError {
    ParseError {
        line,
        col,
        expected: format!("macros expanding to at most {budget} tokens"),
        found: match name {
            Some(n) => format!("{} expanding to more", shown(n)),
            None => "more tokens after expansion".into(),
        },
    }
}

impl Definitions {
    /// Adds a macro (a configuration-specific one does not replace a plain one).
    pub fn add_macro(&mut self, name: &str, value: &str, config: bool) {
        if config && self.macros.contains_key(name) {
            return;
        }
        // A value that does not lex is kept as nothing (the use site then reports it).
        let toks = lex(value)
            .map(|t| {
                t.into_iter()
                    .map(|t| t.tok)
                    .filter(|t| *t != Tok::Eof)
                    .collect()
            })
            .unwrap_or_default();
        self.macros.insert(name.to_string(), toks);
    }

    /// Replaces macro names in `toks` by their tokens (at the use site's position), producing
    /// at most [`macro_budget`]`(toks.len())` tokens.
    pub fn expand(&self, toks: Vec<Token>) -> Result<Vec<Token>, ParseError> {
        let budget = macro_budget(toks.len());
        self.expand_within(toks, budget)
    }

    /// As [`Definitions::expand`], producing at most `budget` tokens: more is an error at the
    /// use of the macro that went past it.
    pub fn expand_within(&self, toks: Vec<Token>, budget: usize) -> Result<Vec<Token>, ParseError> {
        if self.macros.is_empty() {
            return Ok(toks);
        }
        let mut out = Vec::with_capacity(toks.len().min(budget));
        let mut after_dot = false;
        // Tokens are moved, not copied: the text's tokens are never held twice.
        for t in toks {
            let dot = t.tok == Tok::Punct(".");
            match &t.tok {
                Tok::Ident(n) if !after_dot && self.macros.contains_key(n) => {
                    let mut at = Expansion {
                        name: n,
                        line: t.line,
                        col: t.col,
                        budget,
                    };
                    self.expand_one(n, &mut at, 0, &mut out)?;
                }
                _ if out.len() >= budget => return Err(at_budget(None, t.line, t.col, budget)),
                _ => out.push(t),
            }
            after_dot = dot;
        }
        Ok(out)
    }

    fn expand_one(
        &self,
        name: &str,
        at: &mut Expansion<'_>,
        depth: usize,
        out: &mut Vec<Token>,
    ) -> Result<(), ParseError> {
        crate::limits::deep(|| self.expand_one_inner(name, at, depth, out))
    }

    fn expand_one_inner(
        &self,
        name: &str,
        at: &mut Expansion<'_>,
        depth: usize,
        out: &mut Vec<Token>,
    ) -> Result<(), ParseError> {
        let (line, col) = (at.line, at.col);
        if depth > MAX_EXPANSION {
            return Err(ParseError {
                line,
                col,
                expected: "a macro that does not expand into itself".into(),
                found: format!("{} nested more than {MAX_EXPANSION} times", shown(name)),
            });
        }
        let body = &self.macros[name];
        for (k, t) in body.iter().enumerate() {
            let after_dot = k > 0 && body[k - 1] == Tok::Punct(".");
            match t {
                Tok::Ident(n) if !after_dot && self.macros.contains_key(n) => {
                    self.expand_one(n, at, depth + 1, out)?;
                }
                _ if out.len() >= at.budget => {
                    return Err(at_budget(Some(at.name), line, col, at.budget));
                }
                t => out.push(Token {
                    tok: t.clone(),
                    line,
                    col,
                }),
            }
        }
        Ok(())
    }

    /// Removes `enum NAME { A, B = expr, ... }` declarations from `toks`, remembering them.
    pub fn take_enums(&mut self, toks: Vec<Token>) -> Result<Vec<Token>, ParseError> {
        let mut out = Vec::with_capacity(toks.len());
        let mut i = 0;
        while i < toks.len() {
            let is_enum = matches!(&toks[i].tok, Tok::Ident(w) if w == "enum")
                && matches!(toks.get(i + 1).map(|t| &t.tok), Some(Tok::Ident(_)))
                && toks.get(i + 2).map(|t| &t.tok) == Some(&Tok::Punct("{"));
            if !is_enum {
                // `enum` is a keyword: anything but `enum NAME {` is an error, not statements.
                if let Tok::Ident(w) = &toks[i].tok
                    && w == "enum"
                {
                    let t = toks.get(i + 1).unwrap_or(&toks[i]);
                    let named = matches!(t.tok, Tok::Ident(_));
                    let t = if named {
                        toks.get(i + 2).unwrap_or(t)
                    } else {
                        t
                    };
                    return Err(ParseError {
                        line: t.line,
                        col: t.col,
                        expected: if named {
                            "`{` after the enum's name".into()
                        } else {
                            "an enum name after `enum`".into()
                        },
                        found: t.tok.describe(),
                    });
                }
                out.push(toks[i].clone());
                i += 1;
                continue;
            }
            let Tok::Ident(name) = toks[i + 1].tok.clone() else {
                unreachable!("checked above")
            };
            i += 3;
            let mut members = Vec::new();
            // A member comes first and after each `,`; after a member, `,` or `}`.
            let mut after_member = false;
            loop {
                let Some(t) = toks.get(i) else {
                    let last = toks.last().map_or((1, 1), |t| (t.line, t.col));
                    return Err(ParseError {
                        line: last.0,
                        col: last.1,
                        expected: format!("`}}` closing enum {name}"),
                        found: "the end of the text".into(),
                    });
                };
                match &t.tok {
                    Tok::Punct("}") => {
                        i += 1;
                        break;
                    }
                    Tok::Punct(",") if after_member => {
                        after_member = false;
                        i += 1;
                    }
                    Tok::Ident(m) if !after_member => {
                        after_member = true;
                        let m = m.clone();
                        i += 1;
                        let mut value = Vec::new();
                        if toks.get(i).map(|t| &t.tok) == Some(&Tok::Punct("=")) {
                            i += 1;
                            let mut depth = 0i32;
                            while let Some(t) = toks.get(i) {
                                match t.tok {
                                    Tok::Punct("(") => depth += 1,
                                    Tok::Punct(")") => depth -= 1,
                                    Tok::Punct(",") | Tok::Punct("}") if depth <= 0 => break,
                                    Tok::Eof => break,
                                    _ => {}
                                }
                                value.push(t.clone());
                                i += 1;
                            }
                        }
                        members.push((m, value));
                    }
                    other => {
                        return Err(ParseError {
                            line: t.line,
                            col: t.col,
                            expected: if after_member {
                                format!("`,` or `}}` after a member of enum {name}")
                            } else {
                                format!("an enum member name or `}}` in enum {name}")
                            },
                            found: other.describe(),
                        });
                    }
                }
            }
            // An optional `;` after the declaration.
            if toks.get(i).map(|t| &t.tok) == Some(&Tok::Punct(";")) {
                i += 1;
            }
            self.enum_decls.push((name, members));
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directives_are_blanked() {
        let (t, m) =
            strip_directives("#macro A 5\n#region x\nb = A;\n#endregion\n#macro B 1 + \\\n 2\n");
        assert_eq!(t, "\n\nb = A;\n\n\n\n");
        assert_eq!(m[0], ("A".into(), "5".into(), false));
        assert_eq!(m[1], ("B".into(), "1 + \n 2".into(), false));
    }

    #[test]
    fn macros_expand_and_enums_are_taken() {
        let mut d = Definitions::default();
        d.add_macro("A", "B + 1", false);
        d.add_macro("B", "2", false);
        let toks = lex("x = A; enum E { p, q = 3 } o.A = 1;").unwrap();
        let toks = d.take_enums(d.expand(toks).unwrap()).unwrap();
        let words: Vec<String> = toks.iter().map(|t| t.tok.describe()).collect();
        assert_eq!(
            words.join(" "),
            "`x` `=` number 2 `+` number 1 `;` `o` `.` `A` `=` number 1 `;` the end of the text"
        );
        assert_eq!(d.enum_decls[0].0, "E");
        assert_eq!(d.enum_decls[0].1.len(), 2);
    }
}
