//! Functions, constructors, struct literals, `new` and `static` (2.3+; spec §5.10, §6.4, §7).
//!
//! A nested function's code lives inside the root entry's blob: `b` over the body, the body
//! (ending with `exit.i`), then the function value `method(self, function)` and, for a
//! declaration, its store. The body is the start of a child code entry. The compiler takes the
//! root's existing child entries in order of their offsets, which is the order in which bodies
//! are laid out (pre-order); a body beyond them is new code and gets the name GameMaker gives
//! it (spec §7.6): an anonymous function is numbered by the byte offset of its `function`
//! keyword in the source text with CRLF line endings (the compile must be given the text), a
//! struct literal by one more than the game's largest struct number, and a child's name ends
//! with its parent's child name (default argument values belong to the enclosing function).
//! The measured share of GameMaker's names: `compile_new_functions` in the tests.

use super::call_argc;
use super::{CompileError, Compiler, Frame, R};
use crate::ast::{Expr, Function, Literal, Stmt};
use crate::visit::{VisitorMut, walk_expr_mut};
use gmkit_data::Id;
use gmkit_data::chunks::code::{DataType, FunctionId, Instruction, Opcode, PushValue, RefType};
use std::collections::{HashMap, HashSet};

/// The code entry header of one nested function compiled into a root entry's blob.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChildEntry {
    /// The code entry's name (`gml_Script_f`, `gml_Script_anon@12@scr`, ...).
    pub name: String,
    /// Byte offset of its first instruction in the blob.
    pub offset: u32,
    /// Declared parameter count.
    pub arguments: u16,
    /// Locals of this function only (temporaries included).
    pub locals: u16,
}

/// Per-entry state of nested functions.
#[derive(Default)]
pub(super) struct FnState {
    /// Names of the root's child entries, by offset.
    children: Vec<String>,
    /// Which of `children` a function body of the code has taken.
    taken: Vec<bool>,
    /// For each of `children`, the name the root's current code declares it under
    /// (`function f() {}`; `None`: an anonymous function, a struct literal, or a shape not
    /// recognised).
    declared_as: Vec<Option<String>>,
    /// Compiled children: (name, index of the first body instruction, arguments, locals).
    pub(super) compiled: Vec<(String, usize, u16, u16)>,
    /// Nesting depth: 0 = the root's own code.
    pub(super) depth: usize,
    /// The named parameters of the current function (`argumentK` below it is one).
    params: usize,
    /// Compiling the value of a `static` initializer (function literals bind to `static`).
    in_static: bool,
    /// Compiling a function's header (default values, a constructor parent's arguments): code
    /// of the enclosing scope.
    header: bool,
    /// The current function is a constructor or struct body.
    constructor: bool,
    /// Static variables of the current function.
    pub(super) statics: HashSet<String>,
    /// The root entry is a global script named this (`gml_GlobalScript_<name>`).
    script: Option<String>,
    /// The root entry's name.
    entry: String,
    /// Enclosing try (`false`) and catch (`true`) blocks of the current function.
    pub(super) tries: Vec<bool>,
    /// Try statements rewritten so far in this entry (`__yy_breakExN`).
    pub(super) try_count: u32,
    /// The child name of the function being compiled (spec §7.6: its short name and its
    /// parent's child name or the root entry's name).
    current: Option<String>,
    /// The child name of the function enclosing the current one (default argument values
    /// are named as its code: tiktaktoe-gm-network's SnowState, `_struct = {}`).
    outer: Option<String>,
    /// The child name [`Compiler::next_child`] gave the function it named last.
    pending_child: Option<String>,
    /// The text the root's code was parsed from (anonymous functions are numbered by their
    /// place in it).
    pub(super) source: Option<String>,
    /// The next new struct literal's number (found on first use).
    next_struct: Option<u64>,
}

impl FnState {
    pub(super) fn new(game: &crate::Game, entry: usize) -> FnState {
        let children: Vec<String> = game
            .children(entry)
            .iter()
            .map(|&(_, e)| game.code_name(e).to_string())
            .collect();
        let declared_as = declarations(game, entry, &children);
        FnState {
            taken: vec![false; children.len()],
            declared_as,
            children,
            script: game
                .code_name(entry)
                .strip_prefix("gml_GlobalScript_")
                .map(str::to_string),
            entry: game.code_name(entry).to_string(),
            ..FnState::default()
        }
    }

    /// Compiles as new code: the root's existing child entries are not taken.
    pub(super) fn forget_children(&mut self) {
        self.children.clear();
        self.taken.clear();
        self.declared_as.clear();
    }
}

/// Which kind of function body is compiled.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Function,
    Struct,
}

impl Compiler<'_> {
    /// A value that stays inside a struct literal's body (spec §7.2): decided on the written
    /// token (literals, function literals, asset and constant names), so a negative number is
    /// hoisted.
    fn struct_constant(&self, e: &Expr) -> bool {
        match e {
            Expr::Lit(Literal::Int(v) | Literal::Int64(v)) => *v >= 0,
            Expr::Lit(Literal::Real(v)) => *v >= 0.0,
            Expr::Lit(_) | Expr::Function(_) => true,
            Expr::Ident(n) => {
                matches!(n.as_str(), "noone" | "all" | "pi")
                    || (!self.locals.contains(n)
                        && !self.var_known(n)
                        && (self.names.assets.contains_key(n)
                            || self.names.objects.contains_key(n)))
            }
            _ => false,
        }
    }

    pub(super) fn call_named(&mut self, name: &str, argc: u16) -> R<()> {
        let function = self.func_exact(name)?;
        self.emit(Instruction::Call {
            t: DataType::Int32,
            argc,
            function,
        });
        Ok(())
    }

    /// The FUNC entry named exactly `name`.
    fn func_exact(&self, name: &str) -> R<FunctionId> {
        self.func_named(name)
            .ok_or_else(|| CompileError::UnknownName {
                kind: "function",
                name: name.into(),
            })
    }

    fn push_function(&mut self, f: FunctionId) {
        self.emit(Instruction::Push {
            op: Opcode::Push,
            value: PushValue::Function(f),
        });
        self.conv(DataType::Int32, DataType::Variable);
    }

    /// The code entry of the next function body: an existing child of the root that stands
    /// for it ([`Compiler::existing_child`]), else (new code) the name GameMaker gives it
    /// ([`Compiler::new_child`]).
    fn next_child(&mut self, f: &Function, kind: Kind) -> R<String> {
        if let Some(k) = self.existing_child(f, kind) {
            self.fnc.taken[k] = true;
            let name = self.fnc.children[k].clone();
            let child = self.child_name_of(&name);
            self.fnc.pending_child = Some(child);
            return Ok(name);
        }
        let (name, child) = self.new_child(f, kind)?;
        if let Some(g) = &self.grow {
            g.borrow_mut().callable.insert(name.clone());
        }
        self.fnc.pending_child = Some(child);
        Ok(name)
    }

    /// The root's existing child entry (its index among the root's children by offset) that
    /// the next function body stands for, so that an edit that adds, drops or renames
    /// functions leaves the others their entries (and their FUNC entries, which other code
    /// calls). A declared function `f` takes the child the root's code declares as `f` (the
    /// one GameMaker names after it first, spec §7.6, for two of that name), else the child
    /// of the name GameMaker gives it; an anonymous function or a struct literal takes the
    /// first free child that is not a declared function (bodies are laid out in pre-order,
    /// and GameMaker numbers these by their place, which an edit moves). `None`: the body is
    /// new code.
    fn existing_child(&mut self, f: &Function, kind: Kind) -> Option<usize> {
        let fnc = &self.fnc;
        let free = || (0..fnc.children.len()).filter(|&k| !fnc.taken[k]);
        let Some(name) = f.name.as_deref().filter(|_| kind == Kind::Function) else {
            return free().find(|&k| fnc.declared_as[k].is_none());
        };
        // A declared function's new name (naming one has no side effect, unlike a struct's).
        let want = self.new_child(f, kind).ok().map(|(n, _)| n);
        let fnc = &self.fnc;
        let free = || (0..fnc.children.len()).filter(|&k| !fnc.taken[k]);
        let as_name = |k: &usize| fnc.declared_as[*k].as_deref() == Some(name);
        let named = |k: &usize| want.as_deref() == Some(fnc.children[*k].as_str());
        free()
            .find(|k| as_name(k) && named(k))
            .or_else(|| free().find(as_name))
            .or_else(|| free().find(named))
    }

    /// The name GameMaker gives a new function body (spec §7.6, checked on the corpus) and
    /// its child name: a named function `f`, an anonymous one `anon_<P>_<n>` / `anon@<n>`
    /// (`n`: the byte offset of its `function` keyword in the source text with CRLF line
    /// endings), a struct literal `___struct___<N>` (`N`: one more than the game's largest),
    /// followed by `_<P>` / `@<P>` where P is the enclosing function's child name or the root
    /// entry's name; a function declared at a global script's root is `gml_Script_f`.
    fn new_child(&mut self, f: &Function, kind: Kind) -> R<(String, String)> {
        let at = self.f().at_child_names();
        let sep = if at { '@' } else { '_' };
        let root = if at {
            self.fnc
                .entry
                .strip_prefix("gml_GlobalScript_")
                .unwrap_or(&self.fnc.entry)
                .to_string()
        } else {
            self.fnc.entry.clone()
        };
        let parent = self.fnc.current.clone();
        let p_or_e = parent.clone().unwrap_or(root);
        let short = match (kind, &f.name) {
            (Kind::Struct, _) => {
                let n = self.next_struct_number();
                format!("___struct___{n}")
            }
            // A function written under its entry name (an extension's function:
            // `gml_Script_<prefix>_f`, printed so) is named so.
            (Kind::Function, Some(n)) => n.strip_prefix("gml_Script_").unwrap_or(n).to_string(),
            (Kind::Function, None) => {
                let Some(offset) = self.fnc.source.as_deref().and_then(|t| f.at.crlf_offset(t))
                else {
                    return Err(CompileError::Unsupported(
                        "a new anonymous function without its source text (GameMaker numbers it by its place in the text: compile the text)".into(),
                    ));
                };
                if at {
                    format!("anon@{offset}")
                } else {
                    format!("anon_{p_or_e}_{offset}")
                }
            }
        };
        let child = format!("{short}{sep}{p_or_e}");
        let name = if parent.is_none()
            && self.fnc.script.is_some()
            && kind == Kind::Function
            && f.name.is_some()
        {
            format!("gml_Script_{short}")
        } else {
            format!("gml_Script_{child}")
        };
        Ok((name, child))
    }

    /// The child name (spec §7.6) of an existing child entry: its name without `gml_Script_`,
    /// and for a function declared at a global script's root (`gml_Script_f`) `f` followed by
    /// the script's entry name.
    fn child_name_of(&self, entry: &str) -> String {
        let short = entry.strip_prefix("gml_Script_").unwrap_or(entry);
        if self.fnc.current.is_some() || self.fnc.script.is_none() {
            return short.to_string();
        }
        let at = self.f().at_child_names();
        let root = if at {
            self.fnc
                .entry
                .strip_prefix("gml_GlobalScript_")
                .unwrap_or(&self.fnc.entry)
        } else {
            &self.fnc.entry
        };
        let sep = if at { '@' } else { '_' };
        if short.ends_with(&format!("{sep}{root}")) {
            short.to_string()
        } else {
            format!("{short}{sep}{root}")
        }
    }

    /// The number of a new struct literal: one more than the largest `___struct___N` of the
    /// game's code entries and of this compile's earlier structs.
    fn next_struct_number(&mut self) -> u64 {
        let n = match self.fnc.next_struct {
            Some(n) => n,
            None => (0..self.game.code_count())
                .filter_map(|i| struct_number(self.game.code_name(i)))
                .map(|n| n + 1)
                .max()
                .unwrap_or(0),
        };
        self.fnc.next_struct = Some(n + 1);
        n
    }

    /// `b` over the body, the body, `exit.i`; returns the child's FUNC entry.
    fn function_body(&mut self, f: &Function, kind: Kind) -> R<FunctionId> {
        let name = self.next_child(f, kind)?;
        let id = self.func_exact(&name)?;
        let child = self.fnc.pending_child.take().unwrap_or_default();
        let saved_current = self.fnc.current.replace(child);
        let saved_outer = std::mem::replace(&mut self.fnc.outer, saved_current.clone());
        let skip = self.label();
        self.branch(Opcode::B, skip);
        let start = self.out.len();
        let saved_locals = std::mem::take(&mut self.locals);
        let saved_frames: Vec<Frame> = std::mem::take(&mut self.frames);
        let saved_statics = std::mem::take(&mut self.fnc.statics);
        let saved_tries = std::mem::take(&mut self.fnc.tries);
        let saved_static = std::mem::replace(&mut self.fnc.in_static, false);
        let saved_ctor = std::mem::replace(
            &mut self.fnc.constructor,
            f.constructor || kind == Kind::Struct,
        );
        self.fnc.depth += 1;
        let saved_params = std::mem::replace(&mut self.fnc.params, f.params.len());
        let saved_owner = self.owners.enter(&name);
        let r = self.function_inner(f, kind);
        self.owners.leave(saved_owner);
        self.fnc.depth -= 1;
        self.fnc.params = saved_params;
        let locals = self.locals.len() as u16;
        self.locals = saved_locals;
        self.frames = saved_frames;
        self.fnc.statics = saved_statics;
        self.fnc.tries = saved_tries;
        self.fnc.in_static = saved_static;
        self.fnc.constructor = saved_ctor;
        self.fnc.current = saved_current;
        self.fnc.outer = saved_outer;
        r?;
        self.fnc
            .compiled
            .push((name, start, f.params.len() as u16, locals));
        self.place(skip);
        Ok(id)
    }

    fn function_inner(&mut self, f: &Function, kind: Kind) -> R<()> {
        let map: HashMap<String, String> = f
            .params
            .iter()
            .enumerate()
            .map(|(k, (p, _))| (p.clone(), format!("argument{k}")))
            .collect();
        // A `var` of the same name shadows a parameter from that statement on; before it and
        // in its own initializer the name is the argument (corpus: tebak-lagu's
        // `var t = 2 * t / d;` reads `arg.argument0`, then stores `local.t`).
        let mut body = f.body.clone();
        // With named parameters, a written `argumentN` is not the argument (see
        // `EXPLICIT_ARGUMENT`).
        if !f.params.is_empty() {
            let explicit: HashMap<String, String> = (0..16)
                .map(|k| {
                    (
                        format!("argument{k}"),
                        format!("argument{k}{EXPLICIT_ARGUMENT}"),
                    )
                })
                .collect();
            for s in &mut body {
                rename_stmt(s, &explicit);
            }
        }
        let mut shadowed = map.clone();
        for s in &mut body {
            rename_stmt(s, &shadowed);
            if let Stmt::Var(v) = s {
                for (n, _) in v.iter() {
                    shadowed.remove(n);
                }
            }
        }
        if super::try_lower::has_try(&body) {
            let f = self.f();
            body = super::try_lower::Lower::new(f, &mut self.fnc.try_count).body(&body)?;
        }
        // Default arguments, in parameter order.
        for (k, (_, d)) in f.params.iter().enumerate() {
            let Some(d) = d else { continue };
            let mut d = d.clone();
            rename_expr(&mut d, &map);
            let inner = std::mem::replace(&mut self.fnc.current, self.fnc.outer.clone());
            let header = std::mem::replace(&mut self.fnc.header, true);
            let r = self.default_argument(k, &d);
            self.fnc.header = header;
            self.fnc.current = inner;
            r?;
        }
        if let Some((parent, args)) = &f.inherits {
            let mut args = args.clone();
            for a in &mut args {
                rename_expr(a, &map);
            }
            let header = std::mem::replace(&mut self.fnc.header, true);
            let r = self.call_arguments(&args);
            self.fnc.header = header;
            r?;
            let pf = match self.declared_above(parent, true) {
                Some(f) => f,
                None => self.func(parent)?,
            };
            self.emit(Instruction::Call {
                t: DataType::Int32,
                argc: call_argc(args.len())?,
                function: pf,
            });
            self.push_function(pf);
            self.call_named("@@CopyStatic@@", 1)?;
        }
        if (f.constructor || kind == Kind::Struct) && self.f().constructor_set_static() {
            self.call_named("@@SetStatic@@", 0)?;
        }
        // All `static` declarations form one initializer at the top (spec §5.10).
        let statics: Vec<(String, Expr)> = body
            .iter()
            .filter_map(|s| match s {
                Stmt::Static(v) => Some(v.clone()),
                _ => None,
            })
            .flatten()
            .collect();
        if !statics.is_empty() {
            self.static_block(&statics)?;
        }
        for s in &body {
            if !matches!(s, Stmt::Static(_)) {
                self.stmt(s)?;
            }
        }
        // Early 2.3 builds end every function without statics with `setstatic.e` (seen in
        // the file's code: honoo, 2.3).
        if statics.is_empty() && self.f().end_setstatic() {
            self.ext(gmkit_data::chunks::code::ExtendedKind::SETSTATIC);
        }
        self.emit(Instruction::Unary {
            op: Opcode::Exit,
            t: DataType::Int32,
        });
        Ok(())
    }

    /// Compares the value on the stack with `undefined` and branches past what follows when
    /// they differ (a default argument's test): the label to place after it.
    fn unless_undefined(&mut self) -> R<usize> {
        let t = self.expr(&Expr::Ident("undefined".into()))?;
        self.emit(Instruction::Compare {
            cmp: gmkit_data::chunks::code::Comparison::Eq,
            t1: super::int_type(t),
            t2: DataType::Variable,
        });
        let l = self.label();
        self.branch(Opcode::Bf, l);
        Ok(l)
    }

    /// `if (argumentK == undefined) argumentK = d;` (2024.11+: through `builtin.argumentK`).
    fn default_argument(&mut self, k: usize, d: &Expr) -> R<()> {
        if k >= MAX_ARGUMENT_VARIABLES {
            // Past `argument15`: the element of `argument` (spec §4.7a), in every version.
            let target = argument_element(k);
            let t = self.expr(&target)?;
            self.conv(t, DataType::Variable);
            let l = self.unless_undefined()?;
            self.set_owner(&Stmt::Assign {
                target: target.clone(),
                op: None,
                value: d.clone(),
            });
            self.assign(&target, d)?;
            self.place(l);
            return Ok(());
        }
        let name = format!("argument{k}");
        let (inst, op) = if self.f().builtin_default_arguments() {
            (-6, Opcode::PushBltn)
        } else {
            (-15, Opcode::Push)
        };
        let mut var = self.varref(&name, inst as i32, inst, RefType::NORMAL)?;
        if inst == -6 {
            // The builtin variable's own VARI entry (variable id -6), not the argument one.
            if let Some(&i) = self.names.vars_by_id.get(&(name.clone(), -1, -6)) {
                var.variable = Id::new(i);
            }
        }
        self.emit(Instruction::Push {
            op,
            value: PushValue::Variable(var),
        });
        let l = self.unless_undefined()?;
        // An array default value sets the array owner like any assignment (copy-on-write).
        self.set_owner(&Stmt::Assign {
            target: Expr::Ident(name.clone()),
            op: None,
            value: d.clone(),
        });
        let t = self.expr(d)?;
        self.emit(Instruction::Pop {
            t1: DataType::Variable,
            t2: super::int_type(t),
            var,
        });
        self.place(l);
        Ok(())
    }

    /// `isstaticok.e / bt L / [setstatic.e] / inits / L: [setstatic.e]`.
    fn static_block(&mut self, statics: &[(String, Expr)]) -> R<()> {
        self.emit(Instruction::Extended {
            kind: gmkit_data::chunks::code::ExtendedKind::ISSTATICOK,
            t: DataType::Int16,
            operand: None,
        });
        let l = self.label();
        self.branch(Opcode::Bt, l);
        let early = self.f().static_non_reentrant();
        if early {
            self.ext(gmkit_data::chunks::code::ExtendedKind::SETSTATIC);
        }
        for (n, v) in statics {
            self.fnc.in_static = true;
            let t = self.expr(v);
            self.fnc.in_static = false;
            let t = t?;
            self.fnc.statics.insert(n.clone());
            let var = self.varref(n, -16, -16, RefType::NORMAL)?;
            self.emit(Instruction::Pop {
                t1: DataType::Variable,
                t2: super::int_type(t),
                var,
            });
        }
        self.place(l);
        if !early {
            self.ext(gmkit_data::chunks::code::ExtendedKind::SETSTATIC);
        }
        Ok(())
    }

    /// `method(self, f)` around a compiled body: the function value (type v).
    fn method_value(&mut self, id: FunctionId, constructor: bool) -> R<()> {
        self.push_function(id);
        if constructor {
            self.call_named("@@NullObject@@", 0)?;
        } else {
            let k = if self.fnc.in_static { -16 } else { -1 };
            self.push_int(k);
            self.conv(DataType::Int32, DataType::Variable);
        }
        self.call_named("method", 2)
    }

    /// `function f(...) {...}` as a statement (spec §7.1, Appendix D).
    pub(super) fn function_decl(&mut self, f: &Function) -> R<()> {
        if !self.f().gml_v2() {
            return Err(CompileError::Invalid(
                "function declarations need GameMaker 2.3 or later".into(),
            ));
        }
        let Some(name) = f.name.clone() else {
            return Err(CompileError::Invalid(
                "a function declaration needs a name".into(),
            ));
        };
        let in_static = std::mem::replace(&mut self.fnc.in_static, false);
        let id = self.function_body(f, Kind::Function)?;
        self.fnc.in_static = in_static;
        self.method_value(id, f.constructor)?;
        self.declare_copy(&name)?;
        self.emit(Instruction::Unary {
            op: Opcode::Popz,
            t: DataType::Variable,
        });
        Ok(())
    }

    /// Stores a copy of the function value on the stack in the variable that declares it
    /// (`name`), leaving the value: the declaration part of `function name() {}`.
    fn declare_copy(&mut self, name: &str) -> R<()> {
        let name = name.to_string();
        self.emit(Instruction::Dup {
            t: DataType::Variable,
            count: 0,
            extra: 0,
        });
        if self.f().optimized_declarations() {
            let var = self.varref(&name, -1, -1, RefType::NORMAL)?;
            self.emit(Instruction::Pop {
                t1: DataType::Variable,
                t2: DataType::Variable,
                var,
            });
        } else {
            let own = self.fnc.depth == 0 && self.fnc.script.as_deref() == Some(name.as_str());
            // 2023+: a function named like a built-in function is stored as a global (wild,
            // 2023.11: `function lerp(...)` in a script, `function point_in_rectangle` in an
            // event). Earlier compilers knew fewer built-ins (corpus 2022.9: `function
            // string_concat` stores with -6), so the rule starts at 2023.
            let k = if own || self.f().declaration_stores_self() {
                -1
            } else if self.f().version().non_lts_at_least(2023, 1)
                && crate::builtins::function(&name).is_some()
            {
                -5
            } else {
                -6
            };
            self.push_int(k);
            let var = self.varref(&name, -1, 0, RefType::STACKTOP)?;
            self.emit(Instruction::Pop {
                t1: DataType::Variable,
                t2: DataType::Variable,
                var,
            });
        }
        Ok(())
    }

    /// A function literal as a value.
    pub(super) fn function_expr(&mut self, f: &Function) -> R<DataType> {
        if !self.f().gml_v2() {
            return Err(CompileError::Invalid(
                "function literals need GameMaker 2.3 or later".into(),
            ));
        }
        let in_static = std::mem::replace(&mut self.fnc.in_static, false);
        let id = self.function_body(f, Kind::Function);
        self.fnc.in_static = in_static;
        self.method_value(id?, f.constructor)?;
        // `c = function d() {}`: declared as `d` too, its value kept.
        if let Some(name) = &f.name {
            self.declare_copy(name)?;
        }
        Ok(DataType::Variable)
    }

    /// The value of a struct field as compiled inside the struct body: constants stay, other
    /// values are hoisted (pushed before the body, read inside as `argument[i]`); before
    /// 2024.11 an array literal stays inside with its non-constant elements hoisted one by one.
    fn hoist(&self, v: &Expr, hoisted: &mut Vec<Expr>) -> Expr {
        crate::limits::deep(|| self.hoist_inner(v, hoisted))
    }

    fn hoist_inner(&self, v: &Expr, hoisted: &mut Vec<Expr>) -> Expr {
        if self.struct_constant(v) {
            return v.clone();
        }
        if let Expr::Array(items) = v
            && !self.f().constructor_set_static()
        {
            return Expr::Array(items.iter().map(|x| self.hoist(x, hoisted)).collect());
        }
        // A nested struct literal is built inside too, its own struct function a child of
        // this one (gml-simpledraw, 2023.8: `___struct___1____struct___0_…`), its own
        // non-constant values hoisted on out to here (also after 2024.11, where arrays are
        // hoisted whole: longdog, 2024.13, `{current: {x: x, y: y}}`).
        if let Expr::Struct(fields) = v {
            return Expr::Struct(
                fields
                    .iter()
                    .map(|(k, x)| (k.clone(), self.hoist(x, hoisted)))
                    .collect(),
            );
        }
        hoisted.push(v.clone());
        Expr::Index(
            Box::new(Expr::Ident("argument".into())),
            vec![Expr::Lit(Literal::Int(hoisted.len() as i64 - 1))],
        )
    }

    /// `{ k: v, ... }` (spec §7.2).
    pub(super) fn struct_literal(&mut self, fields: &[(String, Expr)]) -> R<DataType> {
        if fields.is_empty() && self.f().optimized_declarations() {
            self.call_named("@@NewGMLObject@@", 0)?;
            return Ok(DataType::Variable);
        }
        let mut hoisted: Vec<Expr> = Vec::new();
        let inside: Vec<Expr> = fields
            .iter()
            .map(|(_, v)| self.hoist(v, &mut hoisted))
            .collect();
        for v in hoisted.iter().rev() {
            let t = self.expr(v)?;
            self.conv(t, DataType::Variable);
        }
        let body: Vec<Stmt> = fields
            .iter()
            .zip(inside)
            .map(|((n, _), value)| Stmt::Assign {
                target: Expr::Member(Box::new(Expr::Ident("self".into())), n.clone()),
                op: None,
                value,
            })
            .collect();
        let f = Function {
            body,
            constructor: true,
            ..Function::default()
        };
        let in_static = std::mem::replace(&mut self.fnc.in_static, false);
        let id = self.function_body(&f, Kind::Struct);
        self.fnc.in_static = in_static;
        let id = id?;
        let child = self
            .fnc
            .compiled
            .last()
            .map(|c| c.0.clone())
            .unwrap_or_default();
        let short = struct_name(&child);
        self.method_value(id, true)?;
        let global = self.f().declaration_stores_self();
        if self.f().optimized_declarations() {
            let var = self.varref(&short, -5, -5, RefType::NORMAL)?;
            self.emit(Instruction::Dup {
                t: DataType::Variable,
                count: 0,
                extra: 0,
            });
            self.emit(Instruction::Pop {
                t1: DataType::Variable,
                t2: DataType::Variable,
                var,
            });
        } else {
            self.emit(Instruction::Dup {
                t: DataType::Variable,
                count: 0,
                extra: 0,
            });
            let (k, vi) = if global { (-5, -5) } else { (-16, -16) };
            self.push_int(k);
            let var = self.varref(&short, vi, 0, RefType::STACKTOP)?;
            self.emit(Instruction::Pop {
                t1: DataType::Variable,
                t2: DataType::Variable,
                var,
            });
        }
        self.call_named("@@NewGMLObject@@", 1 + hoisted.len() as u16)?;
        Ok(DataType::Variable)
    }

    /// `new C(args)` (spec §6.4).
    pub(super) fn new_expr(&mut self, callee: &Expr, args: &[Expr]) -> R<DataType> {
        self.call_arguments(args)?;
        match callee {
            Expr::Ident(n)
                if !self.locals.contains(n) && self.known_func(&format!("gml_Script_{n}")) =>
            {
                let f = self.func(n)?;
                self.push_function(f);
            }
            // `new self.C()` / `new global.C()` of a function `new C()` calls directly is
            // that function too.
            Expr::Member(o, n)
                if matches!(&**o, Expr::Ident(g) if g == "global" || g == "self")
                    && !self.locals.contains(n)
                    && self.known_func(&format!("gml_Script_{n}")) =>
            {
                let f = self.func(n)?;
                self.push_function(f);
            }
            Expr::Member(o, n)
                if matches!(&**o, Expr::Ident(g) if g == "global" || g == "self")
                    && let Some(f) = self.declared_here(n) =>
            {
                self.push_function(f)
            }
            // 2024.11+: a constructor declared in this object event is its function
            // (`push.i [function]gml_Script_C@<entry>`; wild, 2024.13).
            Expr::Ident(n) if let Some(f) = self.declared_here(n) => self.push_function(f),
            // A constructor held in an instance variable is read like a called variable:
            // `push.v builtin.C` (corpus 2.3.2: `new Configuration(c)` in a method).
            Expr::Ident(n)
                if self.f().gml_v2()
                    && !self.locals.contains(n)
                    && self.function_scope_of(n).is_none()
                    && !self.globalvars.contains(n)
                    && self.scope_of(n).0 == -1 =>
            {
                let var = self.varref(n, -1, -6, RefType::NORMAL)?;
                self.emit(Instruction::Push {
                    op: Opcode::Push,
                    value: PushValue::Variable(var),
                });
            }
            e => {
                let t = self.expr(e)?;
                self.conv(t, DataType::Variable);
            }
        }
        self.call_named("@@NewGMLObject@@", 1 + call_argc(args.len())?)?;
        Ok(DataType::Variable)
    }

    /// A name that is not a variable, as a value (2.3+): `self`/`other` (`@@This@@`/`@@Other@@`,
    /// spec §3.2), or a global function (spec §6.3): `push.i [function]f` (type i), 2024.2+
    /// `pushref.i f` (type v) for script functions. `None` when `name` is a variable here.
    pub(super) fn named_value(&mut self, name: &str) -> R<Option<DataType>> {
        if !self.f().gml_v2() || self.locals.contains(name) || self.fnc.statics.contains(name) {
            return Ok(None);
        }
        match name {
            "self" => {
                self.call_named("@@This@@", 0)?;
                return Ok(Some(DataType::Variable));
            }
            "other" => {
                self.call_named("@@Other@@", 0)?;
                return Ok(Some(DataType::Variable));
            }
            "global" if self.f().global_as_call() => {
                self.call_named("@@Global@@", 0)?;
                return Ok(Some(DataType::Variable));
            }
            "global" => return Ok(Some(self.push_int(-5))),
            _ => {}
        }
        // Before 2024.11: a function the event's root code declared above
        // ([`Compiler::declared_here`]), `push.i [function]f_<entry>`.
        if !self.f().constructor_set_static()
            && let Some(function) = self.declared_here(name)
        {
            self.emit(Instruction::Push {
                op: Opcode::Push,
                value: PushValue::Function(function),
            });
            return Ok(Some(DataType::Int32));
        }
        // 2024.11+: the event's root code, and the headers of its functions, see every
        // function the event declares (spec §7.1), `push.i [function]f@<entry>`; 2024.13+
        // `pushref.i` of it.
        if let Some(function) = self.event_function_seen(name) {
            if self.f().local_function_refs() {
                self.pushref_function(function);
                return Ok(Some(DataType::Variable));
            }
            self.emit(Instruction::Push {
                op: Opcode::Push,
                value: PushValue::Function(function),
            });
            return Ok(Some(DataType::Int32));
        }
        Ok(self.function_ref(name))
    }

    fn function_ref(&mut self, name: &str) -> Option<DataType> {
        let script = format!("gml_Script_{name}");
        let is_script = self.known_func(&script);
        let function = match self.func_named(&script) {
            Some(f) => f,
            None if !self.var_known(name) && !name.starts_with("@@") && name != "undefined" => {
                self.func_named(name)?
            }
            None => return None,
        };
        if self.f().function_refs() && is_script {
            self.pushref_function(function);
            Some(DataType::Variable)
        } else {
            self.emit(Instruction::Push {
                op: Opcode::Push,
                value: PushValue::Function(function),
            });
            Some(DataType::Int32)
        }
    }

    /// A call of a computed function value (`arr[i](x)`, `f()(x)`, `(e)(x)`; spec §6.2):
    /// arguments, the call's `self` (`@@This@@`, or for an element of another instance's array
    /// the value itself), the value unconverted, `callv.v`.
    pub(super) fn value_call(&mut self, callee: &Expr, args: &[Expr]) -> R<DataType> {
        if !self.f().gml_v2() {
            return Err(CompileError::Invalid(
                "calling a value needs GameMaker 2.3 or later".into(),
            ));
        }
        self.call_arguments(args)?;
        // `a[0](1)`: `@@This@@` is the call's self; an element of a qualified array
        // (`self.a[0](1)`, `global.a[0](1)`, `o.a[0][1](1)`) is its own self (`dup.v 0`).
        let mut base = callee;
        while let Expr::Index(b, _) = base {
            base = b;
        }
        let own = !(matches!(callee, Expr::Index(..)) && matches!(base, Expr::Member(..)));
        if own {
            self.call_named("@@This@@", 0)?;
        }
        self.expr(callee)?;
        if !own {
            self.emit(Instruction::Dup {
                t: DataType::Variable,
                count: 0,
                extra: 0,
            });
        }
        self.emit(Instruction::CallV {
            t: DataType::Variable,
            argc: call_argc(args.len())?,
        });
        Ok(DataType::Variable)
    }

    /// 2024.11+: a function the object event declares, where the event's code sees it by
    /// name (its root code, and the headers of its functions).
    pub(super) fn event_function_seen(&self, name: &str) -> Option<FunctionId> {
        if !self.f().constructor_set_static() || !(self.fnc.depth == 0 || self.fnc.header) {
            return None;
        }
        self.declared_here(name)
    }

    /// `pushref.i [function]f` (a reference of the script asset kind, type v).
    fn pushref_function(&mut self, function: FunctionId) {
        let asset_type = self
            .game
            .pushref_type(crate::game::AssetKind::Script)
            .unwrap_or(0);
        self.emit(Instruction::Extended {
            kind: gmkit_data::chunks::code::ExtendedKind::PUSHREF,
            t: DataType::Int32,
            operand: Some(gmkit_data::chunks::code::ExtOperand::Function {
                function,
                asset_type,
            }),
        });
    }

    /// 2024.13+ ("new function resolution", spec §7.1): a call of a function an object
    /// event's root code declares, from the body of another of its functions (a function of
    /// an enclosing scope), is `call.i @@This@@ 0 / pushref.i f / callv.v N`, its arguments
    /// pushed first. True when the call was so compiled.
    pub(super) fn enclosing_function_call(&mut self, name: &str, argc: u16) -> R<bool> {
        if !self.f().local_function_refs()
            || self.fnc.depth == 0
            || self.fnc.header
            || self.fnc.script.is_some()
            || self.locals.contains(name)
        {
            return Ok(false);
        }
        let Some(function) = self.func_named(&format!("gml_Script_{name}@{}", self.fnc.entry))
        else {
            return Ok(false);
        };
        self.call_named("@@This@@", 0)?;
        self.pushref_function(function);
        self.emit(Instruction::CallV {
            t: DataType::Variable,
            argc,
        });
        Ok(true)
    }

    /// A function declared at the root of this (non-script) entry, called directly by name
    /// from 2024.11 on (object events "see" their own functions; spec §1, §7.1); before, in
    /// 2.3+, by the root's code after its declaration (earlier code reads the variable).
    pub(super) fn declared_here(&self, name: &str) -> Option<FunctionId> {
        self.declared_above(name, self.fnc.depth == 0)
    }

    /// [`Compiler::declared_here`], from any depth when `reachable` (a constructor's parent,
    /// `: P(...)`, is the function P wherever it is inherited).
    fn declared_above(&self, name: &str, reachable: bool) -> Option<FunctionId> {
        if !self.f().gml_v2() || self.fnc.script.is_some() || self.locals.contains(name) {
            return None;
        }
        if self.f().constructor_set_static() {
            let full = format!("gml_Script_{name}@{}", self.fnc.entry);
            return self.func_named(&full);
        }
        let sep = if self.f().at_child_names() { '@' } else { '_' };
        let full = format!("gml_Script_{name}{sep}{}", self.fnc.entry);
        if !reachable || !self.fnc.compiled.iter().any(|c| c.0 == full) {
            return None;
        }
        self.func_named(&full)
    }

    /// Where a bare name lives inside a function: arguments and statics (`None`: elsewhere).
    pub(super) fn function_scope_of(&self, name: &str) -> Option<(i32, i16, Opcode)> {
        if self.fnc.depth == 0 || !self.f().gml_v2() || self.locals.contains(name) {
            return None;
        }
        // A written `argumentN` in a function with named parameters: a self variable of that
        // name before 2022 (corpus 2.3.2: `push.v self.argument0`), a builtin one after
        // ([`Features::written_argument_builtin`]). (Built-ins take their VARI entry of type
        // self, id -6, not a parameter's.)
        if name.ends_with(EXPLICIT_ARGUMENT) {
            return Some(if self.f().written_argument_builtin() {
                (-1, -6, Opcode::PushBltn)
            } else {
                (-1, -1, Opcode::Push)
            });
        }
        // Early 2.3 builds read `argument[i]` like a global built-in (owner -1).
        if name == "argument" && self.f().builtin_globals_self() {
            return None;
        }
        if name == "argument" {
            return Some((-15, -15, Opcode::Push));
        }
        if let Some(k) = name
            .strip_prefix("argument")
            .filter(|k| !k.is_empty() && k.bytes().all(|b| b.is_ascii_digit()))
        {
            // A parameter (the body's parameters are renamed `argumentK`), or past them the
            // written built-in `argumentK` (wild games, 2.3.2 – 2024: `pushbltn.v
            // builtin.argument4` in a function without parameters).
            if k.parse::<usize>().is_ok_and(|k| k < self.fnc.params) {
                return Some((-15, -15, Opcode::Push));
            }
            let inst = if self.f().builtin_globals_self() {
                -1
            } else {
                -6
            };
            return Some((-1, inst, Opcode::PushBltn));
        }
        if self.fnc.statics.contains(name) {
            return Some((-16, -16, Opcode::Push));
        }
        None
    }

    /// The headers of the nested functions compiled so far, with byte offsets.
    pub(super) fn child_entries(&self) -> Vec<ChildEntry> {
        let mut addr = Vec::with_capacity(self.out.len() + 1);
        let mut a = 0u32;
        for i in &self.out {
            addr.push(a);
            a += i.size() as u32;
        }
        addr.push(a);
        let mut v: Vec<ChildEntry> = self
            .fnc
            .compiled
            .iter()
            .map(|(name, at, args, locals)| ChildEntry {
                name: name.clone(),
                offset: addr.get(*at).copied().unwrap_or(a),
                arguments: *args,
                locals: *locals,
            })
            .collect();
        v.sort_by_key(|c| c.offset);
        v
    }
}

/// The name each of `children` (child entries of root `entry`) is declared under in the
/// root's code: `push.i <function>`, its `method` binding (`call.i method`, after
/// `@@NullObject@@` for a constructor), `dup.v`, the store to the declared name (`pop.v.v`),
/// `popz.v` (spec §7.1; `name = function () {}` has no `dup.v`/`popz.v` and is anonymous).
fn declarations(game: &crate::Game, entry: usize, children: &[String]) -> Vec<Option<String>> {
    let mut out = vec![None; children.len()];
    let Some(Ok(ins)) = game.file.code.as_ref().map(|c| c.instructions(entry)) else {
        return out;
    };
    for (at, i) in ins.iter().enumerate() {
        let Instruction::Push {
            value: PushValue::Function(fid),
            ..
        } = i
        else {
            continue;
        };
        let Some(k) = children.iter().position(|c| c == game.func_name(*fid)) else {
            continue;
        };
        // The binding: at most a few instructions (the constructor's or instance's argument).
        let Some(call) = ins[at + 1..].iter().take(4).position(|i| {
            matches!(i, Instruction::Call { function, argc: 2, .. } if game.func_name(*function) == "method")
        }) else {
            continue;
        };
        let rest = &ins[at + 2 + call..];
        if !matches!(rest.first(), Some(Instruction::Dup { .. })) {
            continue;
        }
        // The store (after the instance pushed for a stacktop store), then `popz.v`.
        let Some(pop) = rest
            .iter()
            .take(4)
            .position(|i| matches!(i, Instruction::Pop { .. }))
        else {
            continue;
        };
        let (
            Some(Instruction::Pop { var, .. }),
            Some(Instruction::Unary {
                op: Opcode::Popz, ..
            }),
        ) = (rest.get(pop), rest.get(pop + 1))
        else {
            continue;
        };
        if out[k].is_none() {
            out[k] = Some(game.var_name(var.variable).to_string());
        }
    }
    out
}

/// N of the first `___struct___N` in a code entry name.
fn struct_number(entry: &str) -> Option<u64> {
    let at = entry.find("___struct___")?;
    let rest = &entry[at + "___struct___".len()..];
    let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
    digits.parse().ok()
}

/// `___struct___N` from a struct body's code entry name.
fn struct_name(entry: &str) -> String {
    let Some(at) = entry.find("___struct___") else {
        return entry.to_string();
    };
    let rest = &entry[at + "___struct___".len()..];
    let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
    format!("___struct___{digits}")
}

/// Marks a written `argumentN` inside a function with named parameters (stripped when the
/// VARI entry is looked up).
pub(super) const EXPLICIT_ARGUMENT: char = '\u{1}';

/// The arguments read as variables `argument0` ... `argument15`; later ones only as elements
/// of `argument` (spec §4.7a: a parameter k >= 16 is `argument[k]`).
const MAX_ARGUMENT_VARIABLES: usize = 16;

/// `argument[k]`.
fn argument_element(k: usize) -> Expr {
    Expr::Index(
        Box::new(Expr::Ident("argument".into())),
        vec![Expr::Lit(Literal::Int(k as i64))],
    )
}

/// Renames parameters to `argumentK` in a function body (not in nested functions, whose names
/// are their own).
fn rename_stmt(s: &mut Stmt, m: &HashMap<String, String>) {
    Rename(m).visit_stmt_mut(s)
}

/// [`rename_stmt`] in one expression.
fn rename_expr(e: &mut Expr, m: &HashMap<String, String>) {
    Rename(m).visit_expr_mut(e)
}

/// The walk of [`rename_stmt`]: names in the map become their value.
struct Rename<'m>(&'m HashMap<String, String>);

impl VisitorMut for Rename<'_> {
    fn visit_expr_mut(&mut self, e: &mut Expr) {
        match e {
            Expr::Ident(n) => {
                if let Some(r) = self.0.get(n) {
                    match r
                        .strip_prefix("argument")
                        .and_then(|k| k.parse::<usize>().ok())
                        .filter(|&k| k >= MAX_ARGUMENT_VARIABLES)
                    {
                        Some(k) => *e = argument_element(k),
                        None => *n = r.clone(),
                    }
                }
            }
            e => walk_expr_mut(self, e),
        }
    }

    /// A nested function's names are its own.
    fn visit_function_mut(&mut self, _: &mut Function) {}
}
