//! GML text to a compile that grows the file's names: the text goes through GameMaker's
//! preprocessing (`#macro`, `enum`, built-in constants, asset names, folding: as a one-unit
//! project, [`crate::source`]), then [`super::compile_new`]; an error names the line and
//! column and, for an unknown name, suggests one of the game's names.

use super::{CompileError, Compiled, Names, compile_new_with_source};
use crate::ast::Stmt;
use crate::game::Game;
use crate::lex::{Tok, Token, lex, lex_with};
use crate::project::{CodeUnit, Format, Project};
use crate::source::Sources;
use std::path::PathBuf;

/// Why GML text did not compile: where in the text and what was expected and found.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {col}: {message}")]
pub struct CodeError {
    /// Line (1-based; 0 when the error has no place in the text).
    pub line: u32,
    /// Column (1-based).
    pub col: u32,
    /// What was expected and what was found.
    pub message: String,
    /// For an unknown name: a name of the game or a built-in it may have meant.
    pub suggestion: Option<String>,
}

/// Parses GML text of `game` ready to compile: `#macro` and `enum` declarations of the text
/// itself are applied, built-in constants (`c_red`, `vk_space`) become their values and asset
/// names their index where the version pushes numbers (before 2023.8).
pub fn prepare(game: &Game, text: &str) -> Result<Vec<Stmt>, CodeError> {
    // What the game's version cannot run and preprocessing will hide (`delete v` lowered).
    super::gates::check_text(game, text).map_err(|e| {
        let (line, col) = e
            .place(text, game.features.escaped_strings())
            .unwrap_or((0, 0));
        CodeError {
            line,
            col,
            message: e.to_string(),
            suggestion: None,
        }
    })?;
    let gms1 = !game.features.escaped_strings();
    let project = Project {
        format: Some(if gms1 {
            Format::Gmx
        } else if game.features.gml_v2() {
            Format::Yy23
        } else {
            Format::Yy2
        }),
        units: vec![CodeUnit {
            entry: String::new(),
            file: PathBuf::new(),
            line: 1,
            text: text.to_string(),
            unsupported: None,
        }],
        ..Project::default()
    };
    let sources = Sources::new(&project, game);
    if let Some(p) = sources.problems.first() {
        return Err(CodeError {
            line: 0,
            col: 0,
            message: p.trim_start_matches(": ").to_string(),
            suggestion: None,
        });
    }
    sources.tree(&project, 0).map_err(|e| CodeError {
        line: e.line,
        col: e.col,
        message: format!("expected {}, found {}", e.expected, e.found),
        suggestion: None,
    })
}

/// Compiles GML `text` as code entry `entry` of `game` ([`prepare`], then
/// [`super::compile_new_with_source`]); apply the result's additions to the file before its instructions.
pub fn compile_text(
    game: &Game,
    names: &Names,
    entry: usize,
    text: &str,
) -> Result<Compiled, CodeError> {
    let tree = prepare(game, text)?;
    compile_new_with_source(game, names, entry, &tree, text)
        .map_err(|e| located(game, names, text, e))
}

/// A compile error placed in `text`: an unknown name at its first use, with a suggestion.
fn located(game: &Game, names: &Names, text: &str, e: CompileError) -> CodeError {
    let (line, col) = e
        .place(text, game.features.escaped_strings())
        .unwrap_or((0, 0));
    let CompileError::UnknownName { kind, name } = &e else {
        return CodeError {
            line,
            col,
            message: e.to_string(),
            suggestion: None,
        };
    };
    let mut candidates: Vec<&str> = names
        .funcs
        .keys()
        .map(|f| f.strip_prefix("gml_Script_").unwrap_or(f))
        .collect();
    candidates.extend(game.assets().map(|(_, _, n)| n));
    if *kind != "function" {
        candidates.extend(names.vars_by_name.keys().map(String::as_str));
    }
    let suggestion = super::grow::suggest(name, candidates.into_iter());
    let what = if *kind == "function" {
        "a built-in function or a script of the game"
    } else {
        "a name of the game"
    };
    let mut message = format!("expected {what}, found {kind} `{name}`");
    if let Some(s) = &suggestion {
        message.push_str(&format!(" (did you mean `{s}`?)"));
    }
    CodeError {
        line,
        col,
        message,
        suggestion,
    }
}

impl CompileError {
    /// Line and column in `text` (the compiled text; `escapes`: its strings have escapes,
    /// [`crate::Features::escaped_strings`]) of what the error is about: an unknown name's
    /// first use ([`locate`]), the statement an error arose in ([`locate_statement`]).
    pub fn place(&self, text: &str, escapes: bool) -> Option<(u32, u32)> {
        match self {
            CompileError::UnknownName { kind, name } => locate(text, name, *kind == "function"),
            CompileError::InStatement {
                statement, within, ..
            } => {
                let outermost_first: Vec<&str> = within
                    .iter()
                    .rev()
                    .chain([statement])
                    .map(String::as_str)
                    .collect();
                let at = locate_statement(text, &outermost_first, escapes);
                match self.cause() {
                    CompileError::Refused(r) => super::gates::place(text, escapes, at, r),
                    _ => at,
                }
            }
            CompileError::Refused(r) => super::gates::place(text, escapes, None, r),
            _ => None,
        }
    }
}

/// Line and column in `text` of a statement given with the statements around it, outermost
/// first (each printed as GML, [`CompileError::InStatement`]). Each is looked for after the
/// place of the one around it: the first place where its leading tokens appear (parentheses
/// and semicolons aside; at most 8), fewer of them (at least two) when the compiled tree no
/// longer has the later ones as written (a constant folded, a macro expanded). The place of
/// the innermost statement found.
pub fn locate_statement(text: &str, statements: &[&str], escapes: bool) -> Option<(u32, u32)> {
    let significant = |t: &Token| !matches!(t.tok, Tok::Punct("(" | ")" | ";") | Tok::Eof);
    let all = lex_with(text, escapes).ok()?;
    let toks: Vec<&Token> = all.iter().filter(|t| significant(t)).collect();
    let mut from = 0;
    let mut found = None;
    for statement in statements {
        let Ok(want) = lex(statement) else { continue };
        let opening = want.iter().take_while(|t| t.tok == Tok::Punct("(")).count();
        let want: Vec<Tok> = want
            .into_iter()
            .filter(significant)
            .map(|t| t.tok)
            .take(8)
            .collect();
        let least = want.len().clamp(1, 2);
        let at = (least..=want.len()).rev().find_map(|n| {
            toks.get(from..)?
                .windows(n)
                .position(|w| w.iter().zip(&want).all(|(a, b)| a.tok == *b))
        });
        if let Some(k) = at {
            from += k;
            // A statement that opens with parentheses (`(a).b = 1`) starts at the first.
            let (line, col) = (toks[from].line, toks[from].col);
            let i = all.iter().position(|t| (t.line, t.col) == (line, col))?;
            let first = &all[i.saturating_sub(opening)..i];
            let start = match first.iter().all(|t| t.tok == Tok::Punct("(")) {
                true => first.first().unwrap_or(&all[i]),
                false => &all[i],
            };
            found = Some((start.line, start.col));
        }
    }
    found
}

/// Line and column of the first use of `name` in `text` (followed by `(` for a call; for a
/// function an accessor compiles to, such as `variable_struct_set`, the first such accessor).
pub fn locate(text: &str, name: &str, call: bool) -> Option<(u32, u32)> {
    let toks = lex(text).ok()?;
    let accessor = match name {
        "ds_list_find_value" | "ds_list_set" => Some("[|"),
        "ds_map_find_value" | "ds_map_set" => Some("[?"),
        "ds_grid_get" | "ds_grid_set" => Some("[#"),
        "variable_struct_get" | "variable_struct_set" => Some("[$"),
        "array_get" | "array_set" => Some("[@"),
        _ => None,
    };
    toks.windows(2)
        .find(|w| {
            matches!(&w[0].tok, Tok::Ident(n) if n == name)
                && (!call || w[1].tok == Tok::Punct("("))
        })
        .or_else(|| {
            toks.windows(2)
                .find(|w| matches!(&w[0].tok, Tok::Ident(n) if n == name))
        })
        .or_else(|| {
            let a = accessor?;
            toks.windows(2).find(|w| w[0].tok == Tok::Punct(a))
        })
        .map(|w| (w[0].line, w[0].col))
}

#[cfg(test)]
mod tests {
    use super::locate;

    #[test]
    fn a_function_written_as_an_accessor_is_placed_at_the_accessor() {
        let text = "x = 1;\n  s[$ \"k\"] = 2;\ny = l[| 0];\n";
        assert_eq!(locate(text, "variable_struct_set", true), Some((2, 4)));
        assert_eq!(locate(text, "ds_list_find_value", true), Some((3, 6)));
        assert_eq!(locate(text, "ds_map_find_value", true), None);
        assert_eq!(locate("f(1);\n", "f", true), Some((1, 1)));
    }
}
