//! Real source to syntax trees: a project's code units go through GameMaker's preprocessing
//! ([`crate::macros`]: `#macro`, `#region`, `enum`, all project-wide), the parser, and the
//! constant pass ([`crate::fold`]: enum members, built-in constants, asset names, folding),
//! ready for [`crate::compile::compile_entry`].

use crate::ast::{Literal, Stmt};
use crate::fold::{ConstNames, const_value, resolve};
use crate::game::{AssetKind, Game};
use crate::lex::{Tok, Token, lex_with};
use crate::macros::{Definitions, macro_budget, strip_directives};
use crate::parse::{ParseError, parse_expr_tokens, parse_tokens};
use crate::project::{CodeUnit, Format, Project};
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// An error in GML text: the file, the line and column in it, what was expected and what was
/// found.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{}:{line}:{col}: expected {expected}, found {found}", file.display())]
pub struct SourceError {
    /// The file.
    pub file: PathBuf,
    /// Line in the file (1-based).
    pub line: u32,
    /// Column (1-based).
    pub col: u32,
    /// What was expected.
    pub expected: String,
    /// What was found.
    pub found: String,
}

impl SourceError {
    fn new(unit: &CodeUnit, e: ParseError) -> Self {
        SourceError {
            file: unit.file.clone(),
            line: unit.line + e.line.saturating_sub(1),
            col: e.col,
            expected: e.expected,
            found: e.found,
        }
    }
}

/// A unit's tokens, or why its text does not lex.
type UnitTokens = Result<Vec<Token>, SourceError>;

/// A project prepared for compiling: its definitions collected, each unit's tokens ready.
pub struct Sources {
    defs: Definitions,
    consts: ConstNames,
    /// Per unit: the tokens after directives and enums were taken out, until
    /// [`Sources::tree`] takes them (a unit's tokens are kept once, not copied).
    tokens: Vec<Mutex<Option<UnitTokens>>>,
    /// Whether the project is GMS 1.x (how its text lexes).
    gms1: bool,
    /// Tokens macro expansion may still produce in the whole project (each unit also has its
    /// own budget): [`macro_budget`] of the project's tokens.
    expansion_left: AtomicUsize,
    /// Enum members whose value is not a constant.
    pub problems: Vec<String>,
}

impl Sources {
    /// Collects the macros and enums of every unit of `project` (and its GMS1 constants) and
    /// the names that compile to constants in `game`.
    pub fn new(project: &Project, game: &Game) -> Sources {
        let mut defs = Definitions::default();
        for (n, v) in &project.constants {
            defs.add_macro(n, v, false);
        }
        let gms1 = project.format == Some(Format::Gmx);
        if gms1 {
            // GMS 1.x fixes `os_browser` at compile time: a desktop build folds
            // `os_browser == browser_not_a_browser` (jtool's extension code: the source tests
            // it, the bytecode keeps only the desktop branch).
            defs.add_macro("os_browser", "-1", true);
        }
        let mut tokens = Vec::with_capacity(project.units.len());
        let mut enum_owner = Vec::new();
        for u in &project.units {
            let (text, macros) = strip_directives(&u.text);
            for (n, v, cfg) in macros {
                defs.add_macro(&n, &v, cfg);
            }
            let before = defs.enum_decls.len();
            let t = unit_tokens(&text, gms1, &mut defs).map_err(|e| SourceError::new(u, e));
            for _ in before..defs.enum_decls.len() {
                enum_owner.push(u.file.clone());
            }
            tokens.push(t);
        }
        let project_tokens: usize = tokens.iter().map(|t| t.as_ref().map_or(0, Vec::len)).sum();
        let tokens = tokens.into_iter().map(|t| Mutex::new(Some(t))).collect();
        let expansion_left = AtomicUsize::new(macro_budget(project_tokens));
        let mut assets = asset_constants(game);
        if !game.features.self_to_builtin() {
            // Before 2024.2 a room instance's name is its id as a plain number.
            for (n, id) in &project.instances {
                assets.entry(n.clone()).or_insert(i64::from(*id));
            }
        }
        let mut consts = ConstNames {
            enums: HashMap::new(),
            assets,
            enum_int64: !gms1,
            array_accessor_calls: gms1,
            locals_whole_entry: gms1,
            array_get_in_accessors: game.features.gml_v2(),
            array_get_internal: game.features.array_get_internal(),
            aliases: project.function_aliases.iter().cloned().collect(),
            self_other_id: game.features.new_opcodes() && !game.features.gml_v2(),
        };
        let mut problems = Vec::new();
        // Enum values may use other enums, declared anywhere: evaluate until nothing changes.
        let decls = std::mem::take(&mut defs.enum_decls);
        let mut pending: Vec<usize> = (0..decls.len()).collect();
        // Why an enum's value did not expand or parse (the first reason).
        let mut why: HashMap<usize, String> = HashMap::new();
        for round in 0..8 {
            let mut left = Vec::new();
            for &k in &pending {
                let (name, members) = &decls[k];
                let mut values = HashMap::new();
                let mut next = 0i64;
                let mut ok = true;
                for (m, toks) in members {
                    if !toks.is_empty() {
                        let v = expand_within(&defs, toks.clone(), &expansion_left)
                            .and_then(parse_expr_tokens)
                            .map_err(|e| {
                                why.entry(k).or_insert_with(|| format!("{name}.{m}: {e}"));
                            })
                            .ok()
                            .and_then(|mut e| {
                                // Earlier members of the same enum are visible by name.
                                let mut local = consts.clone();
                                local.enums.insert(name.clone(), values.clone());
                                const_value(&mut e, &local)
                            });
                        match v {
                            Some(Literal::Int(v) | Literal::Int64(v)) => next = v,
                            Some(Literal::Real(v)) => next = v as i64,
                            Some(Literal::Bool(b)) => next = b as i64,
                            _ => {
                                ok = false;
                                if round == 7 {
                                    problems.push(format!(
                                        "{}: line {}, column {}: enum {name}.{m}: expected a \
                                         constant value, found an expression that is not",
                                        enum_owner
                                            .get(k)
                                            .map_or(String::new(), |p| p.display().to_string()),
                                        toks[0].line,
                                        toks[0].col,
                                    ));
                                }
                            }
                        }
                    }
                    values.insert(m.clone(), next);
                    next = next.wrapping_add(1);
                }
                if ok || round == 7 {
                    consts.enums.insert(name.clone(), values);
                } else {
                    left.push(k);
                }
            }
            if left.is_empty() || left.len() == pending.len() && round > 0 {
                for &k in &left {
                    let (name, _) = &decls[k];
                    problems.push(match why.get(&k) {
                        Some(w) => format!(
                            "{}: enum {name}: a value is not a constant: {w}",
                            enum_owner
                                .get(k)
                                .map_or(String::new(), |p| p.display().to_string())
                        ),
                        None => format!("enum {name}: a value is not a constant"),
                    });
                }
                break;
            }
            pending = left;
        }
        Sources {
            defs,
            consts,
            tokens,
            gms1,
            expansion_left,
            problems,
        }
    }

    /// The syntax tree of unit `k` of the project, ready to compile.
    pub fn tree(&self, project: &Project, k: usize) -> Result<Vec<Stmt>, SourceError> {
        let unit = &project.units[k];
        let taken = self.tokens[k]
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .take();
        let toks = match taken {
            Some(t) => t?,
            // Asked again: the unit's text is read again (its enums were collected already).
            None => {
                let (text, _) = strip_directives(&unit.text);
                unit_tokens(&text, self.gms1, &mut Definitions::default())
                    .map_err(|e| SourceError::new(unit, e))?
            }
        };
        let toks = expand_within(&self.defs, toks, &self.expansion_left)
            .map_err(|e| SourceError::new(unit, e))?;
        let mut tree = parse_tokens(toks).map_err(|e| SourceError::new(unit, e))?;
        resolve(&mut tree, &self.consts);
        Ok(tree)
    }
}

/// The tokens of a unit's text (directives blanked), its enum declarations taken into `defs`.
fn unit_tokens(text: &str, gms1: bool, defs: &mut Definitions) -> Result<Vec<Token>, ParseError> {
    let t = lex_with(text, !gms1)?;
    defs.take_enums(if gms1 { begin_end(t) } else { t })
}

/// Expands the macros of `toks` within their own budget and what is `left` of the project's,
/// taking what they produce from `left`.
fn expand_within(
    defs: &Definitions,
    toks: Vec<Token>,
    left: &AtomicUsize,
) -> Result<Vec<Token>, ParseError> {
    let budget = macro_budget(toks.len()).min(left.load(Ordering::Relaxed));
    let out = defs.expand_within(toks, budget)?;
    // Units may be expanded on several threads: a race only lets one unit use its own budget.
    let _ = left.fetch_update(Ordering::Relaxed, Ordering::Relaxed, |l| {
        Some(l.saturating_sub(out.len()))
    });
    Ok(out)
}

/// Asset names that compile to their index: every asset before 2023.8 (which pushes
/// references instead), scripts only before 2.3 (later they are functions).
fn asset_constants(game: &Game) -> HashMap<String, i64> {
    let f = game.features;
    if f.asset_refs() {
        return HashMap::new();
    }
    let mut list: Vec<(u8, AssetKind, usize, &str)> = game
        .assets()
        .filter(|(kind, _, _)| !(*kind == AssetKind::Script && f.gml_v2()))
        // Objects first: a name shared by two kinds means the object in instance contexts.
        .map(|(k, i, n)| (u8::from(k != AssetKind::Object), k, i, n))
        .collect();
    list.sort_by_key(|&(p, _, i, n)| (p, n, i));
    let mut out = HashMap::new();
    for (_, _, i, name) in list {
        out.entry(name.to_string()).or_insert(i as i64);
    }
    out
}

/// GMS 1.x reads `begin` and `end` as `{` and `}`.
fn begin_end(mut toks: Vec<Token>) -> Vec<Token> {
    for t in &mut toks {
        if let Tok::Ident(w) = &t.tok {
            match w.as_str() {
                "begin" => t.tok = Tok::Punct("{"),
                "end" => t.tok = Tok::Punct("}"),
                _ => {}
            }
        }
    }
    toks
}

/// Compiles a unit's tree as code entry `entry` ([`crate::compile::compile_entry`]). An entry
/// whose source produces no instruction (a script holding only enums or macros) is a lone
/// `exit.i` in 2024.13 (longdog's `VI_Enums`) and empty in 2022.x (tiktaktoe's enum scripts);
/// where between the two it changed is not known: taken as 2024.2.
pub fn compile_unit(
    game: &Game,
    names: &crate::compile::Names,
    entry: usize,
    tree: &[Stmt],
) -> Result<Vec<gmkit_data::chunks::code::Instruction>, crate::compile::CompileError> {
    use gmkit_data::chunks::code::{DataType, Instruction, Opcode};
    let mut out = crate::compile::compile_entry(game, names, entry, tree)?;
    if out.is_empty() && game.features.self_to_builtin() {
        out.push(Instruction::Unary {
            op: Opcode::Exit,
            t: DataType::Int32,
        });
    }
    Ok(out)
}
