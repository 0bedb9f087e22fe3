//! Syntax tree → instructions, following the shapes GameMaker's compiler emits (spec
//! `gml-bytecode.md` §2–§6): `conv` placement by compile-time type tracking, short-circuit
//! chains, loop and switch layouts, per-version variable encodings.
//!
//! A root code entry compiles with its nested functions, constructors, struct literals and
//! `static` blocks in place (module `function`; the child entries' headers come from
//! [`compile_entry_with_children`]). [`compile_entry`] resolves names against the data file's
//! existing VARI/FUNC/STRG entries (a name the file does not have is reported);
//! [`compile_new`] and [`compile_text`] add what the code needs as GameMaker's compiler
//! would ([`Additions`], module `grow`); [`delete_recompile`] is the oracle that checks it.
//! What is not emitted yet reports [`CompileError::Unsupported`].

use crate::ast::{BinaryOp, Case, Expr, Literal, Stmt, UnaryOp, UpdateOp};
use crate::game::{AssetKind, Game};
use gmkit_data::Id;
use gmkit_data::StringRef;
use gmkit_data::chunks::code::{
    Comparison, DataType, ExtendedKind, InstanceType, Instruction, Opcode, PushValue, RefType,
    VariableRef,
};
use std::collections::{HashMap, HashSet};

mod assign;
mod flow;
mod function;
pub mod gates;
mod grow;
mod oracle;
mod owner;
mod refs;
mod text;
mod try_catch;
mod try_lower;
pub use function::ChildEntry;
pub use grow::{Additions, NewVariable};
pub use oracle::{Recompiled, delete_recompile};
use std::cell::RefCell;
pub use text::{CodeError, compile_text, locate, locate_statement, prepare};

/// Why a tree could not be compiled.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CompileError {
    /// A construct this compiler does not emit yet.
    #[error("unsupported: {0}")]
    Unsupported(String),
    /// A name the data file has no entry for ([`compile_entry`]), or, growing, a function
    /// that is neither built-in nor a script of the game.
    #[error("unknown {kind} `{name}`")]
    UnknownName {
        /// variable, function or string.
        kind: &'static str,
        /// The name.
        name: String,
    },
    /// `break`/`continue` outside a loop, and similar.
    #[error("{0}")]
    Invalid(String),
    /// What the game's GameMaker version cannot run ([`gates`]: a construct or built-in newer
    /// than the game, a read-only built-in variable assigned).
    #[error("{0}")]
    Refused(gates::Refusal),
    /// An error of the statement it arose in, printed as GML: what [`locate_statement`]
    /// places in the text (line and column).
    #[error("{error} in `{statement}`")]
    InStatement {
        /// The first line of the innermost statement, printed ([`crate::print::print_stmts`]).
        statement: String,
        /// The first lines of the statements around it, innermost first.
        within: Vec<String>,
        /// The error.
        error: Box<CompileError>,
    },
}

impl CompileError {
    /// The error itself, without the statement it arose in.
    pub fn cause(&self) -> &CompileError {
        match self {
            CompileError::InStatement { error, .. } => error.cause(),
            e => e,
        }
    }

    /// The error placed in statement `s`, or one more statement around the place (an
    /// unknown name is placed by the name itself, [`locate`]).
    fn in_statement(self, s: &Stmt) -> CompileError {
        let printed = || first_line(&crate::print::print_stmts(std::slice::from_ref(s)));
        match self {
            CompileError::UnknownName { .. } => self,
            CompileError::InStatement {
                statement,
                mut within,
                error,
            } => {
                within.push(printed());
                CompileError::InStatement {
                    statement,
                    within,
                    error,
                }
            }
            e => CompileError::InStatement {
                statement: printed(),
                within: Vec::new(),
                error: Box::new(e),
            },
        }
    }
}

/// The first line of a printed statement, cut to 80 characters.
fn first_line(s: &str) -> String {
    let line = s.lines().next().unwrap_or("").trim();
    match line.char_indices().nth(80) {
        Some((i, _)) => format!("{}…", &line[..i]),
        None => line.to_string(),
    }
}

type R<T> = Result<T, CompileError>;

/// Name tables of one data file, built once and shared by every entry compiled against it.
pub struct Names {
    strings: HashMap<String, u32>,
    /// (name, VARI instance type) → index.
    vars: HashMap<(String, i32), u32>,
    vars_by_name: HashMap<String, u32>,
    /// Names whose VARI entry is a builtin (variable id -6).
    builtin: HashSet<String>,
    /// Names the file's own code reads with `pushbltn` (global built-ins beyond the list).
    bltn_reads: HashSet<String>,
    funcs: HashMap<String, u32>,
    /// Whether the game has a script or function of its own named `ord` (then `ord("A")` is
    /// a call of it, not the built-in GameMaker folds).
    own_ord: bool,
    /// The same for `real` (`real(5)` folds to `5`).
    own_real: bool,
    objects: HashMap<String, usize>,
    /// (name, VARI instance type, variable id) → index (locals share a name across entries).
    vars_by_id: HashMap<(String, i32, i32), u32>,
    /// Code entry name → its locals (name → slot) from FUNC's code-locals lists.
    code_locals: HashMap<String, HashMap<String, u32>>,
    /// Asset name → (pushref type number, index) (2023.8+ asset references).
    assets: HashMap<String, (u8, u32)>,
}

impl Names {
    /// Collects the tables of `game`'s file.
    pub fn new(game: &Game) -> Names {
        let file = game.file;
        let mut strings = HashMap::new();
        if let Some(t) = file.strings.as_ref() {
            for (i, s) in t.iter().enumerate() {
                strings
                    .entry(s.to_string_lossy().into_owned())
                    .or_insert(i as u32);
            }
        }
        let mut vars = HashMap::new();
        let mut vars_by_name = HashMap::new();
        let mut builtin = HashSet::new();
        let mut vars_by_id = HashMap::new();
        if let Some(vs) = file.variables.as_ref() {
            for (i, v) in vs.variables.iter().enumerate() {
                let name = game.var_name(Id::new(i as u32)).to_string();
                vars_by_id
                    .entry((name.clone(), v.instance_type, v.variable_id))
                    .or_insert(i as u32);
                vars.entry((name.clone(), v.instance_type))
                    .or_insert(i as u32);
                vars_by_name.entry(name.clone()).or_insert(i as u32);
                if v.variable_id == -6 {
                    builtin.insert(name);
                }
            }
        }
        let mut funcs = HashMap::new();
        if let Some(fs) = file.functions.as_ref() {
            for i in 0..fs.functions.len() {
                funcs
                    .entry(game.func_name(Id::new(i as u32)).to_string())
                    .or_insert(i as u32);
            }
        }
        let mut objects = HashMap::new();
        if let Some(os) = file.objects.as_ref() {
            for i in 0..os.objects.len() {
                if let Some(n) = game.asset_name(AssetKind::Object, i) {
                    objects.entry(n.to_string()).or_insert(i);
                }
            }
        }
        let mut code_locals = HashMap::new();
        if let Some(list) = file.functions.as_ref().and_then(|f| f.code_locals.as_ref()) {
            for cl in list {
                let s = |r| {
                    file.strings
                        .as_ref()
                        .and_then(|t| t.get(r))
                        .map(|g| g.to_string_lossy().into_owned())
                        .unwrap_or_default()
                };
                let m: HashMap<String, u32> =
                    cl.locals.iter().map(|l| (s(l.name), l.index)).collect();
                code_locals.insert(s(cl.code_name), m);
            }
        }
        let mut bltn_reads = HashSet::new();
        if let Some(code) = file.code.as_ref() {
            for (i, e) in code.entries.iter().enumerate() {
                if !e.body.is_root() {
                    continue;
                }
                let Ok(ins) = code.instructions(i) else {
                    continue;
                };
                for x in ins.iter() {
                    if let Instruction::Push {
                        op: Opcode::PushBltn,
                        value: PushValue::Variable(v),
                    } = x
                    {
                        bltn_reads.insert(game.var_name(v.variable).to_string());
                    }
                }
            }
        }
        let mut assets = HashMap::new();
        for (kind, i, n) in game.assets() {
            if let Some(t) = game.pushref_type(kind) {
                assets.entry(n.to_string()).or_insert((t, i as u32));
            }
        }
        Names {
            bltn_reads,
            assets,
            vars_by_id,
            code_locals,
            strings,
            vars,
            vars_by_name,
            builtin,
            funcs,
            own_ord: game.defines_function("ord"),
            own_real: game.defines_function("real"),
            objects,
        }
    }
}

/// A number literal, negated or not (`5`, `-1.5`).
fn is_number_literal(e: &Expr) -> bool {
    match e {
        Expr::Lit(Literal::Int(_) | Literal::Real(_)) => true,
        Expr::Unary(crate::ast::UnaryOp::Neg, x) => {
            matches!(**x, Expr::Lit(Literal::Int(_) | Literal::Real(_)))
        }
        _ => false,
    }
}

/// Builtin variables that live on the global scope (read with `pushbltn` from bc 15 on),
/// from the manual's lists of global built-in variables.
fn is_global_builtin(n: &str) -> bool {
    matches!(
        n,
        "room"
            | "room_width"
            | "room_height"
            | "room_speed"
            | "room_caption"
            | "room_persistent"
            | "room_first"
            | "room_last"
            | "score"
            | "lives"
            | "health"
            | "mouse_x"
            | "mouse_y"
            | "mouse_button"
            | "mouse_lastbutton"
            | "keyboard_key"
            | "keyboard_lastkey"
            | "keyboard_lastchar"
            | "keyboard_string"
            | "current_time"
            | "current_year"
            | "current_month"
            | "current_day"
            | "current_weekday"
            | "current_hour"
            | "current_minute"
            | "current_second"
            | "fps"
            | "fps_real"
            | "delta_time"
            | "instance_count"
            | "argument_count"
            | "argument"
            | "undefined"
            | "os_type"
            | "os_device"
            | "os_browser"
            | "os_version"
            | "browser_width"
            | "browser_height"
            | "display_aa"
            | "async_load"
            | "event_type"
            | "event_number"
            | "event_object"
            | "event_action"
            | "game_id"
            | "game_display_name"
            | "game_project_name"
            | "game_save_id"
            | "working_directory"
            | "program_directory"
            | "temp_directory"
            | "background_colour"
            | "background_color"
            | "background_showcolour"
            | "background_showcolor"
            | "view_enabled"
            | "view_current"
            | "view_visible"
            | "view_xview"
            | "view_yview"
            | "view_wview"
            | "view_hview"
            | "view_xport"
            | "view_yport"
            | "view_wport"
            | "view_hport"
            | "view_angle"
            | "view_object"
            | "view_camera"
            | "view_surface_id"
            | "application_surface"
            | "error_last"
            | "error_occurred"
            | "debug_mode"
            | "cursor_sprite"
            | "iap_data"
            | "secure_mode"
            | "show_score"
            | "show_lives"
            | "show_health"
            | "caption_score"
            | "caption_lives"
            | "caption_health"
            | "transition_kind"
            | "transition_steps"
            | "webgl_enabled"
            | "rollback_current_frame"
            | "rollback_event_id"
            | "rollback_event_param"
            | "player_id"
            | "player_local"
            | "player_avatar_url"
            | "player_avatar_sprite"
            | "player_type"
    ) || n
        .strip_prefix("argument")
        .is_some_and(|k| !k.is_empty() && k.bytes().all(|b| b.is_ascii_digit()))
}

#[derive(Clone, Copy)]
enum Loop {
    /// while/for/do/repeat/with: break and continue jump lists (indices of `b`).
    Loop { with: bool, repeat: bool },
    Switch {
        ty: DataType,
        /// Compiling the `default:` case where an `exit`/`return` leaves the switch value on
        /// the stack ([`crate::Features::default_exit_keeps_switch_value`]).
        keep: bool,
    },
}

struct Frame {
    kind: Loop,
    breaks: Vec<usize>,
    continues: Vec<usize>,
}

/// Compiles statements for one code entry of `game`.
pub struct Compiler<'g> {
    game: &'g Game<'g>,
    names: &'g Names,
    out: Vec<Instruction>,
    /// (branch instruction index, target label).
    fixups: Vec<(usize, usize)>,
    /// Label → instruction index.
    labels: Vec<usize>,
    locals: HashSet<String>,
    frames: Vec<Frame>,
    /// This entry's local slots (name → slot), when the file lists them.
    slots: Option<&'g HashMap<String, u32>>,
    /// The VARI entries the entry's current code uses for its locals (bc 15 – 2.2 give every
    /// code entry its own local entries, which names alone cannot tell apart).
    own_locals: HashMap<String, u32>,
    /// Array owner ids (copy-on-write).
    owners: owner::Owners,
    /// The array being compiled is the left side of a dot.
    dot_owner: bool,
    /// Functions the entry's own code calls by name (no FUNC chain: stripped objects).
    by_name: HashSet<String>,
    /// (name, VARI instance type) → the VARI entry the entry's own code uses.
    own_vars: HashMap<(String, i32), u32>,
    /// Nested functions (child entries) of the entry.
    fnc: function::FnState,
    /// Growing mode ([`compile_new`]): the names this compile adds; `None`: a name the file
    /// does not have is an error.
    grow: Option<RefCell<grow::Grow>>,
    /// Names declared with `globalvar` (compiled as global variables).
    globalvars: HashSet<String>,
}

/// Compiles the root code of code entry `entry` (its statements) into instructions.
pub fn compile_entry(
    game: &Game,
    names: &Names,
    entry: usize,
    body: &[Stmt],
) -> R<Vec<Instruction>> {
    compile_entry_with_children(game, names, entry, body).map(|(ins, _)| ins)
}

/// As [`compile_entry`], with the headers of the nested functions' child entries.
pub fn compile_entry_with_children(
    game: &Game,
    names: &Names,
    entry: usize,
    body: &[Stmt],
) -> R<(Vec<Instruction>, Vec<ChildEntry>)> {
    compile_any(game, names, entry, body, false, None).map(|c| (c.instructions, c.children))
}

/// As [`compile_entry_with_children`], for a tree parsed from `source`: a new anonymous
/// function gets the name GameMaker gives it, numbered by its place in the text.
pub fn compile_entry_with_source(
    game: &Game,
    names: &Names,
    entry: usize,
    body: &[Stmt],
    source: &str,
) -> R<(Vec<Instruction>, Vec<ChildEntry>)> {
    compile_any(game, names, entry, body, false, Some(source)).map(|c| (c.instructions, c.children))
}

/// What [`compile_new`] produces: the entry's instructions, the headers of its nested
/// functions' entries, and the names to add to the data file first.
#[derive(Clone, Debug)]
pub struct Compiled {
    /// The root entry's instructions (they refer to the added names by their new indices).
    pub instructions: Vec<Instruction>,
    /// Headers of the nested functions' child entries.
    pub children: Vec<ChildEntry>,
    /// Strings, VARI and FUNC entries and locals to append ([`Additions::apply`]).
    pub additions: Additions,
}

/// Compiles code entry `entry` of `game` (its root statements), adding what the code needs
/// and the file lacks, as GameMaker's compiler would: strings, instance, global, local and
/// built-in variables (VARI entries with the version's instance type and variable id),
/// built-in functions and scripts the game never called (FUNC entries), and the entry's new
/// locals. Apply [`Compiled::additions`] to the same, unchanged file before putting the
/// instructions in place: they refer to the new names by the indices they get there.
///
/// A function that is neither built-in ([`crate::builtins::function`]) nor a script of the
/// game is an error ([`CompileError::UnknownName`], with a suggestion from the game's
/// names). The entry must exist (a new entry is added to CODE first, with no code).
pub fn compile_new(game: &Game, names: &Names, entry: usize, body: &[Stmt]) -> R<Compiled> {
    compile_any(game, names, entry, body, true, None)
}

/// As [`compile_new`], for a tree parsed from `source`: new nested functions and struct
/// literals get the child entry names GameMaker gives them (anonymous functions are numbered
/// by their place in the text), with their FUNC entries among the additions.
pub fn compile_new_with_source(
    game: &Game,
    names: &Names,
    entry: usize,
    body: &[Stmt],
    source: &str,
) -> R<Compiled> {
    compile_any(game, names, entry, body, true, Some(source))
}

/// The code entry names GameMaker gives the nested functions and struct literals of `body`
/// (parsed from `source`) compiled as new code into root entry `entry`, whatever child
/// entries it has now, in the order of their offsets. Struct literals are numbered after the
/// game's largest `___struct___N` (GameMaker numbers them game-wide in compile order).
pub fn new_child_names(
    game: &Game,
    names: &Names,
    entry: usize,
    body: &[Stmt],
    source: &str,
) -> R<Vec<String>> {
    let mut c = new_compiler(game, names, entry, true);
    c.fnc.source = Some(source.to_string());
    c.fnc.forget_children();
    run(&mut c, body)?;
    Ok(c.child_entries().into_iter().map(|e| e.name).collect())
}

fn compile_any(
    game: &Game,
    names: &Names,
    entry: usize,
    body: &[Stmt],
    growing: bool,
    source: Option<&str>,
) -> R<Compiled> {
    // What the game's version cannot run is refused first, with its place.
    if let Some(text) = source {
        gates::check_text(game, text)?;
    }
    gates::check_tree(game, body)?;
    let mut c = new_compiler(game, names, entry, growing);
    c.fnc.source = source.map(str::to_string);
    // `view_xview` without an index is its element 0 (spec §4.7).
    let elements = crate::fold::builtin_array_elements(body, game.features.background_arrays());
    run(&mut c, elements.as_deref().unwrap_or(body))?;
    let children = c.child_entries();
    let additions = c
        .grow
        .take()
        .map(|g| g.into_inner().add)
        .unwrap_or_default();
    Ok(Compiled {
        instructions: c.finish()?,
        children,
        additions,
    })
}

/// A compiler for root entry `entry` (growing: adding the names the code needs).
fn new_compiler<'a>(game: &'a Game, names: &'a Names, entry: usize, growing: bool) -> Compiler<'a> {
    let slots = names.code_locals.get(game.code_name(entry));
    let mut own_locals = HashMap::new();
    let mut owners = owner::Owners::default();
    let mut by_name = HashSet::new();
    let mut own_vars = HashMap::new();
    let vari = game.file.variables.as_ref().map(|v| v.variables.as_slice());
    if let Some(Ok(ins)) = game.file.code.as_ref().map(|c| c.instructions(entry)) {
        if game.features.copy_on_write() {
            owners = owner::Owners::learn(game, entry, &ins);
        }
        for i in ins.iter() {
            if let Instruction::CallByName { name, .. } = i {
                by_name.insert(game.string(*name));
                continue;
            }
            let Some(var) = i.variable_ref() else {
                continue;
            };
            if let Some(v) = vari.and_then(|v| v.get(var.variable.index())) {
                own_vars
                    .entry((game.var_name(var.variable).to_string(), v.instance_type))
                    .or_insert(var.variable.0);
            }
            if var.instance == InstanceType::LOCAL {
                own_locals
                    .entry(game.var_name(var.variable).to_string())
                    .or_insert(var.variable.0);
            }
        }
    }
    Compiler {
        own_vars,
        by_name,
        dot_owner: false,
        owners,
        own_locals,
        slots,
        game,
        names,
        out: Vec::new(),
        fixups: Vec::new(),
        labels: Vec::new(),
        locals: HashSet::new(),
        frames: Vec::new(),
        fnc: function::FnState::new(game, entry),
        grow: growing.then(|| RefCell::new(grow::Grow::new(game, names, game.code_name(entry)))),
        globalvars: HashSet::new(),
    }
}

/// Compiles the root statements `body` with `c`.
fn run(c: &mut Compiler<'_>, body: &[Stmt]) -> R<()> {
    if try_lower::has_try(body) {
        let f = c.f();
        let body = try_lower::Lower::new(f, &mut c.fnc.try_count).body(body)?;
        c.block(&body)
    } else {
        c.block(body)
    }
}

fn int_type(t: DataType) -> DataType {
    if t == DataType::Int16 {
        DataType::Int32
    } else {
        t
    }
}

fn bias(t: DataType) -> u8 {
    match t {
        DataType::Variable => 2,
        DataType::Double | DataType::Int64 => 1,
        _ => 0,
    }
}

/// A call's argument count as the instruction holds it (16 bits): more is refused, never cut.
pub(crate) fn call_argc(n: usize) -> R<u16> {
    u16::try_from(n).map_err(|_| {
        CompileError::Unsupported(format!(
            "a call with {n} arguments (a call instruction holds at most 65,535)"
        ))
    })
}

impl<'g> Compiler<'g> {
    fn finish(mut self) -> R<Vec<Instruction>> {
        let mut addr = Vec::with_capacity(self.out.len() + 1);
        let mut a = 0i64;
        for i in &self.out {
            addr.push(a);
            a += i.size() as i64;
        }
        addr.push(a);
        for &(at, label) in &self.fixups {
            let to = self.labels[label];
            let off = ((addr[to] - addr[at]) / 4) as i32;
            match &mut self.out[at] {
                Instruction::Branch { offset, .. } => *offset = off,
                // A code address pushed as a value (`try` hooks): the label's byte offset.
                Instruction::Push {
                    value: PushValue::Int32(v),
                    ..
                } => *v = addr[to] as i32,
                _ => {}
            }
        }
        Ok(self.out)
    }

    fn f(&self) -> crate::Features {
        self.game.features
    }

    fn emit(&mut self, i: Instruction) {
        // A call the entry's own code made by name (no FUNC chain: stripped objects) stays
        // one, also for the compiler's helpers (`call.i [name]@@Global@@`; wild, 2024.14).
        let i = match i {
            Instruction::Call { t, argc, function }
                if !self.by_name.is_empty()
                    && self.grow.is_none()
                    && self.by_name.contains(self.game.func_name(function)) =>
            {
                match self.string(self.game.func_name(function)) {
                    Ok(name) => Instruction::CallByName { t, argc, name },
                    Err(_) => i,
                }
            }
            i => i,
        };
        self.out.push(i);
    }

    fn label(&mut self) -> usize {
        self.labels.push(usize::MAX);
        self.labels.len() - 1
    }

    fn place(&mut self, l: usize) {
        self.labels[l] = self.out.len();
    }

    fn branch(&mut self, op: Opcode, l: usize) -> usize {
        self.fixups.push((self.out.len(), l));
        self.emit(Instruction::Branch { op, offset: 0 });
        self.out.len() - 1
    }

    fn conv(&mut self, from: DataType, to: DataType) -> DataType {
        let from = int_type(from);
        if from != to {
            self.emit(Instruction::Binary {
                op: Opcode::Conv,
                t1: from,
                t2: to,
            });
        }
        to
    }

    fn push_op(&self) -> Opcode {
        if self.f().new_opcodes() {
            Opcode::PushI
        } else {
            Opcode::Push
        }
    }

    /// `pushref.i` of asset `index` of pushref type `asset_type` (2023.8+): a variable.
    fn push_asset_ref(&mut self, asset_type: u8, index: u32) -> DataType {
        self.emit(Instruction::Extended {
            kind: ExtendedKind::PUSHREF,
            t: DataType::Int32,
            operand: Some(gmkit_data::chunks::code::ExtOperand::Asset { asset_type, index }),
        });
        DataType::Variable
    }

    fn push_int(&mut self, v: i64) -> DataType {
        if let Ok(s) = i16::try_from(v) {
            let op = self.push_op();
            self.emit(Instruction::Push {
                op,
                value: PushValue::Int16(s),
            });
            DataType::Int32
        } else if let Ok(w) = i32::try_from(v) {
            self.emit(Instruction::Push {
                op: Opcode::Push,
                value: PushValue::Int32(w),
            });
            DataType::Int32
        } else {
            self.emit(Instruction::Push {
                op: Opcode::Push,
                value: PushValue::Int64(v),
            });
            DataType::Int64
        }
    }

    /// `ord("A")` of one character as its code (GameMaker folds it, spec §8, whether or not the
    /// game also calls `ord` at run time), unless the game defines an `ord` of its own; what
    /// the decompiler prints for a key.
    fn ord_value(&mut self, n: &str, args: &[Expr]) -> Option<DataType> {
        let [Expr::Lit(Literal::String(s))] = args else {
            return None;
        };
        let mut c = s.chars();
        let (Some(ch), None) = (c.next(), c.next()) else {
            return None;
        };
        if n != "ord" || self.locals.contains(n) || self.names.own_ord {
            return None;
        }
        Some(self.push_int(ch as i64))
    }

    /// A name that is neither a local nor one of the game's variables, as the number it
    /// stands for (spec §8.2): a built-in constant (`c_red` → 255), or before 2023.8 an
    /// asset's index (`spr_player` → 3; what the decompiler's names pass prints).
    fn builtin_or_asset_value(&mut self, n: &str) -> Option<DataType> {
        if self.locals.contains(n) || self.names.vars_by_name.contains_key(n) {
            return None;
        }
        match crate::builtins::constant(n) {
            Some(crate::builtins::ConstValue::Int(v)) => return Some(self.push_int(v)),
            Some(crate::builtins::ConstValue::Real(v)) => {
                self.emit(Instruction::Push {
                    op: Opcode::Push,
                    value: PushValue::Double(v),
                });
                return Some(DataType::Double);
            }
            None => {}
        }
        if self.f().asset_refs() {
            return None;
        }
        let &(_, index) = self.names.assets.get(n)?;
        Some(self.push_int(index as i64))
    }

    /// A bare name that is a built-in constant the manual lists, where no local or variable
    /// of the game has that name, is refused rather than compiled as a new variable the game
    /// never sets: read (`store` false), a constant gmkit has no value for; stored, any
    /// built-in constant (GameMaker refuses assigning to one).
    fn refuse_builtin_constant(&self, n: &str, store: bool) -> R<()> {
        if self.locals.contains(n) || self.var_known(n) {
            return Ok(());
        }
        let valued = crate::builtins::constant(n).is_some();
        let family = crate::builtins::documented_constant(n);
        let of = |f: &str| match f {
            "" => String::new(),
            f => format!(" ({} constant)", f.replace('_', " ")),
        };
        let why = match (store, valued, family) {
            (true, _, f) if valued || f.is_some() => format!(
                "is a built-in constant{}: GameMaker refuses to assign it",
                of(f.unwrap_or_default())
            ),
            (false, false, Some(f)) => format!(
                "is a built-in constant{} whose value gmkit does not know: write its number",
                of(f)
            ),
            _ => return Ok(()),
        };
        Err(CompileError::Refused(gates::Refusal {
            what: format!("`{n}`"),
            why,
            mark: gates::Mark::Word(n.to_string()),
            at: None,
        }))
    }

    fn push_e1(&mut self) {
        self.emit(Instruction::Push {
            op: Opcode::Push,
            value: PushValue::Int16(1),
        });
    }

    fn string(&self, s: &str) -> R<StringRef> {
        if let Some(g) = &self.grow {
            return Ok(StringRef(g.borrow_mut().string(self.names, s)));
        }
        self.names
            .strings
            .get(s)
            .map(|&i| StringRef(i))
            .ok_or_else(|| CompileError::UnknownName {
                kind: "string",
                name: s.into(),
            })
    }

    fn func(&self, name: &str) -> R<Id<gmkit_data::chunks::function::Function>> {
        let name = if name == crate::lex::TEMPLATE {
            // Template strings (spec §6.5): `string(format, fields...)`, 2024.14+ `@@string@@`.
            let v = &self.game.file.version;
            if !v.non_lts_at_least(2023, 4) {
                return Err(CompileError::Invalid(
                    "template strings `$\"...\"` need GameMaker 2023.4 or later".into(),
                ));
            }
            if v.non_lts_at_least(2024, 14) {
                "@@string@@"
            } else {
                "string"
            }
        } else {
            name
        };
        let full = format!("gml_Script_{name}");
        // A built-in wins over a game's function of the same name (wild, 2024.6: the game's
        // own `string_split` is never called), when the file calls the built-in at all.
        if let Some(&i) = self.names.funcs.get(name)
            && self.names.funcs.contains_key(&full)
            && crate::builtins::function(name).is_some()
        {
            return Ok(Id::new(i));
        }
        self.names
            .funcs
            .get(&full)
            .filter(|_| self.f().gml_v2())
            .map(|&i| Id::new(i))
            .or_else(|| self.declared_here(name))
            .or_else(|| self.names.funcs.get(name).map(|&i| Id::new(i)))
            .map_or_else(|| self.new_func(name), Ok)
    }

    /// A function the file has no FUNC entry for: added in growing mode when it is a
    /// built-in, a compiler helper or a script of the game; an error otherwise.
    fn new_func(&self, name: &str) -> R<Id<gmkit_data::chunks::function::Function>> {
        let unknown = || CompileError::UnknownName {
            kind: "function",
            name: name.into(),
        };
        if self.grow.is_none() {
            return Err(unknown());
        }
        let script = format!("gml_Script_{name}");
        let full = if self.f().gml_v2() && self.known_func(&script) {
            script
        } else if (!self.f().gml_v2()
            && self
                .game
                .assets()
                .any(|(k, _, n)| k == AssetKind::Script && n == name))
            || self.known_func(name)
        {
            name.to_string()
        } else {
            return Err(unknown());
        };
        if let Some(&i) = self.names.funcs.get(&full) {
            return Ok(Id::new(i));
        }
        let g = self.grow.as_ref().ok_or_else(unknown)?;
        Ok(Id::new(g.borrow_mut().func(self.names, &full)))
    }

    /// Whether the file (or, growing, this compile) has a VARI entry named `n`.
    fn var_known(&self, n: &str) -> bool {
        self.names.vars_by_name.contains_key(n)
            || self.grow.as_ref().is_some_and(|g| g.borrow().has_var(n))
    }

    /// Whether a bare `n` may be a variable rather than an asset of that name: the file has
    /// an instance (or built-in) variable `n`; `global.n`, other entries' locals and statics
    /// do not hide the asset (wild, 2024.6: `room == introroom` beside `global.introroom`).
    /// Before bytecode 15 VARI entries have no kind: any.
    fn bare_var_known(&self, n: &str) -> bool {
        if !self.f().new_opcodes() {
            return self.var_known(n);
        }
        self.names.vars.contains_key(&(n.to_string(), -1))
            || self.names.vars.contains_key(&(n.to_string(), -6))
            || self.globalvars.contains(n)
            || self.grow.as_ref().is_some_and(|g| g.borrow().has_var(n))
    }

    /// Whether `full` names a function: a FUNC entry of the file or, in growing mode, of this
    /// compile, or one it may add (a built-in, a compiler helper `@@…@@`, a code entry, an
    /// extension function).
    fn known_func(&self, full: &str) -> bool {
        if self.names.funcs.contains_key(full) {
            return true;
        }
        let Some(g) = &self.grow else {
            return false;
        };
        let g = g.borrow();
        g.added_func(full).is_some()
            || g.callable.contains(full)
            || crate::builtins::function(full).is_some()
            || (full.len() > 4 && full.starts_with("@@") && full.ends_with("@@"))
    }

    /// The FUNC entry named exactly `full`: the file's, else (growing mode, when
    /// [`Self::known_func`]) a new one.
    fn func_named(&self, full: &str) -> Option<Id<gmkit_data::chunks::function::Function>> {
        if let Some(&i) = self.names.funcs.get(full) {
            return Some(Id::new(i));
        }
        if !self.known_func(full) {
            return None;
        }
        let g = self.grow.as_ref()?;
        Some(Id::new(g.borrow_mut().func(self.names, full)))
    }

    /// The VARI entry for `name` accessed with VARI instance type `inst`.
    fn var(&self, name: &str, inst: i32) -> R<Id<gmkit_data::chunks::variable::Variable>> {
        let name = name
            .strip_suffix(function::EXPLICIT_ARGUMENT)
            .unwrap_or(name);
        // Named parameters (`arg.argumentK`, -15) have VARI entries of type -6 (variable id
        // 0) in every 2.3+ file; a file can also hold a built-in `argumentK` (type self,
        // id -6), which they must not take.
        let want = match (self.f().new_opcodes(), inst) {
            (false, _) => 0,
            (true, -15) => -6,
            (true, i) => i,
        };
        if inst == -7
            && let Some(&i) = self.own_locals.get(name)
        {
            return Ok(Id::new(i));
        }
        // A built-in (`pushbltn`) takes the built-in's own entry (type self, id -6), not a
        // game variable of its name listed first (wild: `global.room = room;`).
        if inst == -6
            && self.f().new_opcodes()
            && let Some(&i) = self.names.vars_by_id.get(&(name.to_string(), -1, -6))
        {
            return Ok(Id::new(i));
        }
        if inst == -7
            && !self.f().gml_v2()
            && let Some(slot) = self.slots.and_then(|m| m.get(name))
            && let Some(&i) = self
                .names
                .vars_by_id
                .get(&(name.to_string(), -7, *slot as i32))
        {
            return Ok(Id::new(i));
        }
        // Files can hold several VARI entries of one name and kind: the one the entry's own
        // code used.
        if let Some(&i) = self.own_vars.get(&(name.to_string(), want)) {
            return Ok(Id::new(i));
        }
        if let Some(g) = &self.grow {
            return Ok(Id::new(self.grow_var(g, name, inst, want)));
        }
        self.names
            .vars
            .get(&(name.to_string(), want))
            .or_else(|| self.names.vars_by_name.get(name))
            .map(|&i| Id::new(i))
            .ok_or_else(|| CompileError::UnknownName {
                kind: "variable",
                name: name.into(),
            })
    }

    /// The VARI entry for `name` in growing mode: the file's (or this compile's) entry of
    /// that kind, else a new one. Locals are the entry's own (GameMaker gives every code
    /// entry its own local VARI entries).
    fn grow_var(&self, g: &RefCell<grow::Grow>, name: &str, inst: i32, want: i32) -> u32 {
        let old = !self.f().new_opcodes();
        // Named parameters (`arg.argumentK`, -15) have VARI entries of type -6, id 0;
        // built-ins (also reached as -6 in the instruction) entries of type self, id -6.
        let builtin = !matches!(inst, -7 | -5 | -15 | -16)
            && (is_global_builtin(name) || crate::builtins::variable(name).is_some());
        let want = match (old, inst, builtin) {
            (true, ..) => 0,
            (_, -15, _) => -6,
            (_, _, true) => -1,
            _ => want,
        };
        if let Some(i) = g.borrow().added_var(name, want) {
            return i;
        }
        if inst != -7 {
            if let Some(&i) = self.names.vars.get(&(name.to_string(), want)) {
                return i;
            }
            // A built-in's entry serves every way of reaching it; before bytecode 15 VARI
            // entries have no kind.
            if let Some(&i) = self.names.vars_by_name.get(name)
                && (old || self.names.builtin.contains(name))
            {
                return i;
            }
        }
        g.borrow_mut().add_var(self.names, name, want, builtin)
    }

    fn varref(
        &self,
        name: &str,
        vari_inst: i32,
        instance: i16,
        ref_type: RefType,
    ) -> R<VariableRef> {
        Ok(VariableRef {
            variable: self.var(name, vari_inst)?,
            instance: InstanceType(instance),
            ref_type,
        })
    }

    /// Compiles a loop body inside a new break/continue frame and returns that frame, whose
    /// jumps the caller patches once the loop's labels are placed.
    fn loop_body(&mut self, kind: Loop, body: &[Stmt]) -> R<Frame> {
        self.frames.push(Frame {
            kind,
            breaks: Vec::new(),
            continues: Vec::new(),
        });
        // Early 2.3 builds forget the array owner at the start of every loop body.
        if self.f().owner_forgotten_in_arms() {
            self.owners.last = None;
        }
        self.block(body)?;
        let fr = self.frames.pop().expect("pushed");
        // A loop left or restarted by `break`/`continue` merges paths GameMaker does not
        // compare: the owner after it is unknown (spec §4.8; wild 2022.0.3: `for` with
        // `continue`, then `a[i] = v` in the next loop sets the unchanged owner again).
        if !fr.breaks.is_empty() || !fr.continues.is_empty() {
            self.owners.last = None;
        }
        Ok(fr)
    }

    fn block(&mut self, body: &[Stmt]) -> R<()> {
        for s in body {
            self.stmt(s)?;
        }
        Ok(())
    }

    /// Where a bare name lives.
    fn scope_of(&self, name: &str) -> (i32, i16, Opcode) {
        let new = self.f().new_opcodes();
        if let Some(s) = self.function_scope_of(name) {
            return s;
        }
        if self.locals.contains(name) {
            return (-7, -7, if new { Opcode::PushLoc } else { Opcode::Push });
        }
        // 2024.2+: `argumentK` in an entry's own code (outside functions) is the argument
        // (`push.v arg.argument0`; wild, 2024.14), no longer the built-in.
        // So is `argument[i]` (wild, 2024.6 and 2024.14: `pushi.e -15` as the array's owner).
        if self.fnc.depth == 0
            && self.f().self_to_builtin()
            && name
                .strip_prefix("argument")
                .is_some_and(|k| k.bytes().all(|b| b.is_ascii_digit()))
        {
            return (-15, -15, Opcode::Push);
        }
        if self.globalvars.contains(name) {
            return (-5, -5, if new { Opcode::PushGlb } else { Opcode::Push });
        }
        // A built-in global the file never used (`room_speed`, `score`) in growing mode.
        if self.grow.is_some()
            && !self.names.vars_by_name.contains_key(name)
            && (is_global_builtin(name)
                || crate::builtins::variable(name)
                    .is_some_and(|v| v.scope == crate::builtins::Scope::Global))
        {
            let inst = if self.f().builtin_globals_self() {
                -1
            } else {
                -6
            };
            return (-6, inst, if new { Opcode::PushBltn } else { Opcode::Push });
        }
        if self.names.builtin.contains(name)
            && (is_global_builtin(name) || self.names.bltn_reads.contains(name))
        {
            let inst = if self.f().builtin_globals_self() {
                -1
            } else {
                -6
            };
            return (-6, inst, if new { Opcode::PushBltn } else { Opcode::Push });
        }
        // 2024.2+ encodes bare instance variables as builtin (-6); the VARI entry stays self.
        let inst = if self.f().self_to_builtin() { -6 } else { -1 };
        (-1, inst, Opcode::Push)
    }

    fn stmt(&mut self, s: &Stmt) -> R<()> {
        crate::limits::deep(|| self.stmt_inner(s))
    }

    /// `a[i]++;` with copy-on-write: compiled as the expression `a[i]++` and `popz.v`; when the
    /// owner was not set again (nothing emitted since `at`), GameMaker's compiler first reads
    /// the element once more and drops it (spec §4.8; wild 2.3.2: `v[i]--;` in a loop).
    fn copy_on_write_update(
        &mut self,
        at: usize,
        op: UpdateOp,
        prefix: bool,
        target: &Expr,
    ) -> R<()> {
        if self.out.len() == at {
            let t = self.expr(target)?;
            self.emit(Instruction::Unary {
                op: Opcode::Popz,
                t: int_type(t),
            });
        }
        let bop = if op == UpdateOp::Inc {
            BinaryOp::Add
        } else {
            BinaryOp::Sub
        };
        let one = Expr::Lit(Literal::Int(1));
        let usage = if prefix {
            assign::Use::Pre
        } else {
            assign::Use::Post
        };
        let t = self.read_modify_write(target, bop, &one, true, usage)?;
        self.emit(Instruction::Unary {
            op: Opcode::Popz,
            t: int_type(t),
        });
        Ok(())
    }

    fn stmt_inner(&mut self, s: &Stmt) -> R<()> {
        if let Stmt::Assign {
            target: Expr::Ident(a),
            op: None,
            value: Expr::Ident(b),
        } = s
            && a == b
            && self.f().drops_self_assignment()
        {
            return Ok(());
        }
        let at = self.out.len();
        self.set_owner(s);
        let before = self.owners.last;
        let done = match s {
            // With copy-on-write, `a[i]++;` is compiled as the expression `a[i]++` and
            // `popz.v` ([`Compiler::copy_on_write_update`]).
            Stmt::Update { op, prefix, target }
                if self.f().copy_on_write() && owner::has_index(target) =>
            {
                self.copy_on_write_update(at, *op, *prefix, target)
            }
            _ => self.stmt_kind(s),
        };
        done.map_err(|e| e.in_statement(s))?;
        // After a construct with several paths the last owner is known only if unchanged.
        if !matches!(
            s,
            Stmt::Expr(_)
                | Stmt::Assign { .. }
                | Stmt::Update { .. }
                | Stmt::Var(_)
                | Stmt::If(..)
                | Stmt::Block(_)
        ) && self.owners.last != before
        {
            self.owners.last = None;
        }
        Ok(())
    }

    fn stmt_kind(&mut self, s: &Stmt) -> R<()> {
        match s {
            Stmt::Expr(e) => {
                let t = self.expr(e)?;
                self.emit(Instruction::Unary {
                    op: Opcode::Popz,
                    t: int_type(t),
                });
            }
            Stmt::Assign {
                target,
                op: None,
                value,
            } => self.assign(target, value)?,
            Stmt::Assign {
                target,
                op: Some(BinaryOp::Nullish),
                value,
            } => self.nullish_assign(target, value)?,
            Stmt::Assign {
                target,
                op: Some(op),
                value,
            } => {
                self.read_modify_write(target, *op, value, false, assign::Use::Statement)?;
            }
            Stmt::Update { op, target, .. } => {
                let bop = if *op == UpdateOp::Inc {
                    BinaryOp::Add
                } else {
                    BinaryOp::Sub
                };
                let one = Expr::Lit(Literal::Int(1));
                self.read_modify_write(target, bop, &one, true, assign::Use::Statement)?;
            }
            Stmt::Var(vars) => {
                for (n, v) in vars {
                    self.locals.insert(n.clone());
                    if let Some(v) = v {
                        self.assign(&Expr::Ident(n.clone()), v)?;
                    }
                }
            }
            Stmt::If(c, a, b) => {
                self.cond(c)?;
                let l1 = self.label();
                self.branch(Opcode::Bf, l1);
                // Each arm starts from the owner known before it; after an if/else it is known
                // only if both arms end with the same one; after an if without else it is the
                // then-arm's (corpus: GameMaker does not merge with the skipped path).
                let entry = self.owners.last;
                // Early 2.3 builds forget it at the start of every arm.
                let forget = self.f().owner_forgotten_in_arms();
                if forget {
                    self.owners.last = None;
                }
                self.block(a)?;
                let then_last = std::mem::replace(&mut self.owners.last, entry);
                match b {
                    Some(b) => {
                        let l2 = self.label();
                        self.branch(Opcode::B, l2);
                        self.place(l1);
                        if forget {
                            self.owners.last = None;
                        }
                        self.block(b)?;
                        self.place(l2);
                    }
                    None => {
                        self.place(l1);
                        self.owners.last = then_last;
                    }
                }
                if self.owners.last != then_last {
                    self.owners.last = None;
                }
            }
            Stmt::While(c, body) => self.looped(false, Some(c), None, body)?,
            Stmt::For(init, c, step, body) => {
                if let Some(i) = init {
                    self.stmt(i)?;
                }
                self.looped(true, c.as_ref(), step.as_deref(), body)?;
            }
            Stmt::DoUntil(body, c) => {
                let l0 = self.label();
                self.place(l0);
                let fr = self.loop_body(
                    Loop::Loop {
                        with: false,
                        repeat: false,
                    },
                    body,
                )?;
                let lc = self.label();
                self.place(lc);
                self.cond(c)?;
                self.branch(Opcode::Bf, l0);
                let l9 = self.label();
                self.place(l9);
                self.patch(&fr.breaks, l9);
                self.patch(&fr.continues, lc);
            }
            Stmt::Repeat(n, body) => {
                let t = self.expr(n)?;
                self.conv(t, DataType::Int32);
                self.emit(Instruction::Dup {
                    t: DataType::Int32,
                    count: 0,
                    extra: 0,
                });
                self.emit(Instruction::Push {
                    op: Opcode::Push,
                    value: PushValue::Int32(0),
                });
                self.emit(Instruction::Compare {
                    cmp: Comparison::Le,
                    t1: DataType::Int32,
                    t2: DataType::Int32,
                });
                let l9 = self.label();
                self.branch(Opcode::Bt, l9);
                let l1 = self.label();
                self.place(l1);
                let fr = self.loop_body(
                    Loop::Loop {
                        with: false,
                        repeat: true,
                    },
                    body,
                )?;
                let lc = self.label();
                self.place(lc);
                if self.f().short_repeat_tail() {
                    let op = self.push_op();
                    self.emit(Instruction::Push {
                        op,
                        value: PushValue::Int16(1),
                    });
                } else {
                    self.emit(Instruction::Push {
                        op: Opcode::Push,
                        value: PushValue::Int32(1),
                    });
                }
                self.emit(Instruction::Binary {
                    op: Opcode::Sub,
                    t1: DataType::Int32,
                    t2: DataType::Int32,
                });
                self.emit(Instruction::Dup {
                    t: DataType::Int32,
                    count: 0,
                    extra: 0,
                });
                if !self.f().short_repeat_tail() {
                    self.conv(DataType::Int32, DataType::Boolean);
                }
                self.branch(Opcode::Bt, l1);
                self.place(l9);
                self.emit(Instruction::Unary {
                    op: Opcode::Popz,
                    t: DataType::Int32,
                });
                self.patch(&fr.breaks, l9);
                self.patch(&fr.continues, lc);
            }
            Stmt::With(e, body) => {
                // bc 15 – 2.2: `with (other)` reads `other.id` (fold.rs `self_other_id`).
                let other_id;
                let e = if self.f().new_opcodes()
                    && !self.f().gml_v2()
                    && matches!(e, Expr::Ident(n) if n == "other")
                {
                    other_id = Expr::Member(Box::new(e.clone()), "id".into());
                    &other_id
                } else {
                    e
                };
                self.instance(e)?;
                let l8 = self.label();
                self.branch(Opcode::PushEnv, l8);
                let l1 = self.label();
                self.place(l1);
                let fr = self.loop_body(
                    Loop::Loop {
                        with: true,
                        repeat: false,
                    },
                    body,
                )?;
                self.place(l8);
                self.branch(Opcode::PopEnv, l1);
                self.patch(&fr.continues, l8);
                if !fr.breaks.is_empty() {
                    let l9 = self.label();
                    self.branch(Opcode::B, l9);
                    let l7 = self.label();
                    self.place(l7);
                    self.emit(Instruction::PopEnvExit);
                    self.place(l9);
                    self.patch(&fr.breaks, l7);
                }
            }
            Stmt::Switch(v, cases) => self.switch(v, cases)?,
            Stmt::Break | Stmt::Continue => {
                let brk = matches!(s, Stmt::Break);
                let at = self.out.len();
                // A `continue` inside a switch goes to the switch's cleanup block (spec §5.6).
                if !brk
                    && !self
                        .frames
                        .iter()
                        .any(|f| matches!(f.kind, Loop::Loop { .. }))
                {
                    return Err(CompileError::Invalid("continue outside a loop".into()));
                }
                let Some(fr) = self.frames.last_mut() else {
                    return Err(CompileError::Invalid(
                        "break/continue outside a loop".into(),
                    ));
                };
                if brk {
                    fr.breaks.push(at);
                } else {
                    fr.continues.push(at);
                }
                self.emit(Instruction::Branch {
                    op: Opcode::B,
                    offset: 0,
                });
            }
            Stmt::Exit => {
                self.try_leave_call()?;
                self.cleanups(false);
                self.emit(Instruction::Unary {
                    op: Opcode::Exit,
                    t: DataType::Int32,
                });
            }
            Stmt::Return(None) => {
                self.try_leave_call()?;
                self.cleanups(false);
                self.emit(Instruction::Unary {
                    op: Opcode::Exit,
                    t: DataType::Int32,
                });
            }
            Stmt::Return(Some(e)) => {
                let t = self.expr(e)?;
                self.conv(t, DataType::Variable);
                if self.needs_cleanup() || self.in_try() {
                    // A real local: it counts in the function's locals.
                    self.locals.insert("$$$$temp$$$$".into());
                    let tmp = self.varref("$$$$temp$$$$", -7, -7, RefType::NORMAL)?;
                    self.emit(Instruction::Pop {
                        t1: DataType::Variable,
                        t2: DataType::Variable,
                        var: tmp,
                    });
                    self.cleanups(true);
                    self.try_leave_call()?;
                    self.emit(Instruction::Push {
                        op: Opcode::Push,
                        value: PushValue::Variable(tmp),
                    });
                }
                self.emit(Instruction::Unary {
                    op: Opcode::Ret,
                    t: DataType::Variable,
                });
            }
            Stmt::Block(b) => self.block(b)?,
            Stmt::Function(f) => self.function_decl(f)?,
            Stmt::Throw(e) => self.throw_stmt(e)?,
            Stmt::Try {
                body,
                catch,
                finally,
            } => self.try_catch(body, catch.as_ref(), finally.as_deref())?,
            // `globalvar` emits nothing: the names compile as global variables from here on.
            Stmt::GlobalVar(names) => self.globalvars.extend(names.iter().cloned()),
            other => {
                return Err(CompileError::Unsupported(
                    match other {
                        Stmt::Function(_) => "function declarations",
                        Stmt::Try { .. } => "try",
                        Stmt::Static(_) => "static",
                        Stmt::GlobalVar(_) => "globalvar",
                        Stmt::Throw(_) => "throw",
                        Stmt::Delete(_) => "delete",
                        Stmt::Unstructured(_) => "unstructured code",
                        _ => "statement",
                    }
                    .into(),
                ));
            }
        }
        Ok(())
    }

    fn needs_cleanup(&self) -> bool {
        self.frames.iter().any(|f| match f.kind {
            Loop::Switch { .. } => true,
            Loop::Loop { with, repeat } => with || (repeat && self.f().gml_v2()),
        })
    }

    /// Early-exit cleanup: pop switch values and repeat counters, leave with-loops.
    fn cleanups(&mut self, _value: bool) {
        let kinds: Vec<Loop> = self.frames.iter().rev().map(|f| f.kind).collect();
        for k in kinds {
            match k {
                Loop::Switch { ty, keep: false } => self.emit(Instruction::Unary {
                    op: Opcode::Popz,
                    t: ty,
                }),
                Loop::Switch { keep: true, .. } => {}
                Loop::Loop { with: true, .. } => self.emit(Instruction::PopEnvExit),
                Loop::Loop { repeat: true, .. } if self.f().gml_v2() => {
                    self.emit(Instruction::Unary {
                        op: Opcode::Popz,
                        t: DataType::Int32,
                    })
                }
                _ => {}
            }
        }
    }

    fn patch(&mut self, list: &[usize], label: usize) {
        for &at in list {
            self.fixups.push((at, label));
        }
    }

    /// while / for: `L0: cond; bf L9; body; Lc: step; b L0; L9:`.
    /// A `while` or `for` loop (`is_for`). `continue` goes to the step, which in a `for` loop
    /// with a condition but an empty step (`for (; c; )`) is the back jump itself; in a
    /// `while` loop and in `for (;;)` it goes to the condition.
    fn looped(
        &mut self,
        is_for: bool,
        c: Option<&Expr>,
        step: Option<&Stmt>,
        body: &[Stmt],
    ) -> R<()> {
        let l0 = self.label();
        self.place(l0);
        match c {
            Some(c) => self.cond(c)?,
            None => {
                self.emit(Instruction::Push {
                    op: Opcode::Push,
                    value: PushValue::Int64(1),
                });
                self.conv(DataType::Int64, DataType::Boolean);
            }
        }
        let l9 = self.label();
        self.branch(Opcode::Bf, l9);
        let fr = self.loop_body(
            Loop::Loop {
                with: false,
                repeat: false,
            },
            body,
        )?;
        let lc = self.label();
        self.place(lc);
        if let Some(s) = step {
            self.stmt(s)?;
        }
        self.branch(Opcode::B, l0);
        self.place(l9);
        self.patch(&fr.breaks, l9);
        let cont = if step.is_some() || (is_for && c.is_some()) {
            lc
        } else {
            l0
        };
        self.patch(&fr.continues, cont);
        Ok(())
    }

    fn switch(&mut self, v: &Expr, cases: &[Case]) -> R<()> {
        let ty = int_type(self.expr(v)?);
        let mut targets = Vec::new();
        for c in cases {
            let l = self.label();
            targets.push(l);
            if let Some(label) = &c.label {
                self.emit(Instruction::Dup {
                    t: ty,
                    count: 0,
                    extra: 0,
                });
                let lt = int_type(self.expr(label)?);
                self.emit(Instruction::Compare {
                    cmp: Comparison::Eq,
                    t1: lt,
                    t2: ty,
                });
                self.branch(Opcode::Bt, l);
            }
        }
        if let Some(d) = cases.iter().position(|c| c.label.is_none()) {
            self.branch(Opcode::B, targets[d]);
        }
        let l9 = self.label();
        self.branch(Opcode::B, l9);
        self.frames.push(Frame {
            kind: Loop::Switch { ty, keep: false },
            breaks: Vec::new(),
            continues: Vec::new(),
        });
        // Every case starts from the owner known before the switch; after it the owner is
        // known only if no case changed it (corpus: a case repeats the previous case's id).
        let entry = self.owners.last;
        let mut changed = false;
        let keep_in_default = self.f().default_exit_keeps_switch_value();
        for (c, l) in cases.iter().zip(&targets) {
            self.place(*l);
            self.owners.last = entry;
            if let Some(Frame {
                kind: Loop::Switch { keep, .. },
                ..
            }) = self.frames.last_mut()
            {
                *keep = keep_in_default && c.label.is_none();
            }
            self.block(&c.body)?;
            changed |= self.owners.last != entry;
        }
        self.owners.last = if changed { None } else { entry };
        let fr = self.frames.pop().expect("pushed");
        if !fr.continues.is_empty() {
            // `b end / Lk: popz.T / <continue of the enclosing construct>`.
            self.branch(Opcode::B, l9);
            let lk = self.label();
            self.place(lk);
            self.emit(Instruction::Unary {
                op: Opcode::Popz,
                t: ty,
            });
            self.stmt(&Stmt::Continue)?;
            self.patch(&fr.continues, lk);
        }
        self.place(l9);
        self.emit(Instruction::Unary {
            op: Opcode::Popz,
            t: ty,
        });
        self.patch(&fr.breaks, l9);
        Ok(())
    }

    /// A condition: the value converted to a boolean.
    fn cond(&mut self, c: &Expr) -> R<()> {
        let t = self.expr(c)?;
        self.conv(t, DataType::Boolean);
        Ok(())
    }

    /// An instance operand (`with`, dot access): an int, or a value converted. `true` when
    /// it is 2.3's `-9` marker over the value.
    fn instance(&mut self, e: &Expr) -> R<bool> {
        if let Some(k) = self.instance_number(e) {
            self.push_int(k);
            return Ok(false);
        }
        let t = self.expr(e)?;
        self.dot_owner = false;
        if t == DataType::Variable && self.f().gml_v2() {
            self.push_int(-9);
            Ok(true)
        } else {
            self.conv(t, DataType::Int32);
            Ok(false)
        }
    }

    /// The instance operand of a dot access. 2024.2+: an instance array on the left of a dot
    /// keeps owner -1 (`a[i].x`, unlike `with (a[i])`).
    fn dot_instance(&mut self, e: &Expr) -> R<bool> {
        self.dot_owner = matches!(e, Expr::Index(..));
        // A script function on the left of a dot is its statics: `static_get(f)` (2.3+;
        // wild, 2023.11: `f.v = ...`, which the decompiler prints back as `f.v`).
        if let Expr::Ident(n) = e
            && self.f().gml_v2()
            && self.instance_number(e).is_none()
        {
            // From 2024.2 a script function as a value is a `pushref`; on the left of a dot
            // it stays `push.i [function]f` for `static_get` (spec §6.3), as does a function
            // of the event its code sees (2024.11+).
            if self.f().function_refs()
                && !self.locals.contains(n)
                && self.function_scope_of(n).is_none()
                && let Some(function) = self
                    .func_named(&format!("gml_Script_{n}"))
                    .or_else(|| self.event_function_seen(n))
            {
                self.emit(Instruction::Push {
                    op: Opcode::Push,
                    value: PushValue::Function(function),
                });
                self.conv(DataType::Int32, DataType::Variable);
                self.call_named("static_get", 1)?;
                self.push_int(-9);
                return Ok(true);
            }
            let at = self.out.len();
            let t = self.expr(e)?;
            self.dot_owner = false;
            if self.out.len() == at + 1
                && matches!(
                    self.out[at],
                    Instruction::Push {
                        value: PushValue::Function(_),
                        ..
                    }
                )
                && self.known_func(&format!("gml_Script_{n}"))
            {
                self.conv(t, DataType::Variable);
                self.call_named("static_get", 1)?;
                self.push_int(-9);
                return Ok(true);
            }
            return Ok(if t == DataType::Variable {
                self.push_int(-9);
                true
            } else {
                self.conv(t, DataType::Int32);
                false
            });
        }
        self.instance(e)
    }

    /// `self`, `other`, an object name, a number: the instance as a constant.
    fn instance_number(&self, e: &Expr) -> Option<i64> {
        self.instance_number_in(e, false)
    }

    /// As [`Self::instance_number`]; `member`: the left side of a dot (`self.x` keeps -1).
    fn instance_number_in(&self, e: &Expr, member: bool) -> Option<i64> {
        crate::limits::deep(|| self.instance_number_in_inner(e, member))
    }

    fn instance_number_in_inner(&self, e: &Expr, member: bool) -> Option<i64> {
        match e {
            Expr::Ident(n) => match n.as_str() {
                "self" if !self.f().gml_v2() || member => Some(-1),
                "other" if !self.f().gml_v2() || member => Some(-2),
                "all" => Some(-3),
                "noone" => Some(-4),
                "global" if member || !self.f().global_as_call() => Some(-5),
                n if !self.locals.contains(n) && !self.f().asset_refs() => {
                    self.names.objects.get(n).map(|&i| i as i64)
                }
                _ => None,
            },
            // `[instance]` holds the id - 100000 in an unsigned 16-bit field.
            Expr::Lit(Literal::Int(v))
                if *v < u16::MAX as i64 + 1 || (100_000..100_000 + 65_536).contains(v) =>
            {
                Some(*v)
            }
            Expr::Paren(x) => self.instance_number_in(x, member),
            _ => None,
        }
    }

    fn assign(&mut self, target: &Expr, value: &Expr) -> R<()> {
        match target {
            Expr::Ident(n) => {
                self.refuse_builtin_constant(n, true)?;
                let t = self.expr(value)?;
                let (vi, inst, _) = self.scope_of(n);
                let var = self.varref(n, vi, inst, RefType::NORMAL)?;
                self.emit(Instruction::Pop {
                    t1: DataType::Variable,
                    t2: int_type(t),
                    var,
                });
            }
            Expr::Member(obj, n) => {
                let t = self.expr(value)?;
                if let Some(k) = self.instance_number_in(obj, true) {
                    let var = self.member_var(n, k)?;
                    self.emit(Instruction::Pop {
                        t1: DataType::Variable,
                        t2: int_type(t),
                        var,
                    });
                } else {
                    self.dot_instance(obj)?;
                    let var = self.varref(n, -1, 0, RefType::STACKTOP)?;
                    self.emit(Instruction::Pop {
                        t1: DataType::Variable,
                        t2: int_type(t),
                        var,
                    });
                }
            }
            Expr::Index(base, _) if matches!(**base, Expr::Index(..)) => {
                self.multi_store(target, value)?;
            }
            Expr::Index(base, idx) => {
                let mut t = self.expr(value)?;
                if self.f().gml_v2() {
                    t = self.conv(t, DataType::Variable);
                }
                let (name, vi, _) = self.array_owner(base, idx)?;
                let var = self.varref(&name, vi, 0, RefType::ARRAY)?;
                self.emit(Instruction::Pop {
                    t1: DataType::Variable,
                    t2: int_type(t),
                    var,
                });
            }
            other => {
                return Err(CompileError::Unsupported(format!(
                    "assignment target: expected a variable, a field or an array element, found `{}`",
                    crate::print::print_expr(other)
                )));
            }
        }
        Ok(())
    }

    /// Pushes the owner and index of `base[idx]`; returns the array variable's name and its
    /// VARI instance type (self in 2.3+, where the scope is on the stack; the real scope before),
    /// and whether the owner is 2.3's `-9` marker over a value.
    fn array_owner(&mut self, base: &Expr, idx: &[Expr]) -> R<(String, i32, bool)> {
        let v2 = self.f().gml_v2();
        let dot_owner = std::mem::take(&mut self.dot_owner);
        let (owner, name, vi) = match base {
            Expr::Ident(n) => {
                // `argumentN[i]` is the argument's array even with named parameters (the
                // decompiler writes a parameter's array that way).
                let explicit = n.strip_suffix(function::EXPLICIT_ARGUMENT);
                let n = &explicit.unwrap_or(n).to_string();
                let (vi, mut inst, _) = self.scope_of(n);
                // 2022 – 2024.10: a written `argumentN[i]` in a function with named
                // parameters is the built-in's array (`pushi.e -6`), as its plain read is
                // `pushbltn.v builtin.argumentN`.
                let f = self.f();
                if explicit.is_some()
                    && v2
                    && f.written_argument_builtin()
                    && !f.builtin_default_arguments()
                {
                    inst = -6;
                }
                if dot_owner && inst == -6 && vi == -1 {
                    inst = -1;
                }
                (
                    Some(inst as i64),
                    n.clone(),
                    if v2 || vi != -7 { -1 } else { -7 },
                )
            }
            Expr::Member(o, n) => {
                let k = if self.owner_by_call(o) {
                    None
                } else {
                    self.instance_number_in(o, true)
                };
                let vi = if !v2 && k == Some(-5) { -5 } else { -1 };
                (k, n.clone(), vi)
            }
            other => {
                return Err(CompileError::Unsupported(format!(
                    "array base: expected a variable or a field, found `{}`",
                    crate::print::print_expr(other)
                )));
            }
        };
        let rvalue = match owner {
            Some(k) => {
                self.push_int(k);
                false
            }
            None => {
                let Expr::Member(o, _) = base else {
                    unreachable!("only members have no constant owner")
                };
                self.dot_instance(o)?
            }
        };
        match idx {
            [i] => {
                let t = self.expr(i)?;
                self.conv(t, DataType::Int32);
            }
            [i, j] => {
                let t = self.expr(i)?;
                self.conv(t, DataType::Int32);
                self.ext(ExtendedKind::CHKINDEX);
                self.emit(Instruction::Push {
                    op: Opcode::Push,
                    value: PushValue::Int32(32000),
                });
                self.binop_ins(Opcode::Mul, DataType::Int32, DataType::Int32);
                let t = self.expr(j)?;
                self.conv(t, DataType::Int32);
                self.ext(ExtendedKind::CHKINDEX);
                self.binop_ins(Opcode::Add, DataType::Int32, DataType::Int32);
            }
            _ => {
                return Err(CompileError::Unsupported(format!(
                    "array index count: expected 1 or 2 indices, found {}",
                    idx.len()
                )));
            }
        }
        Ok((name, vi, rvalue))
    }

    fn ext(&mut self, kind: ExtendedKind) {
        self.emit(Instruction::Extended {
            kind,
            t: DataType::Int16,
            operand: None,
        });
    }

    fn binop_ins(&mut self, op: Opcode, t1: DataType, t2: DataType) {
        self.emit(Instruction::Binary { op, t1, t2 });
    }

    /// Compiles an expression; returns its compile-time type.
    fn expr(&mut self, e: &Expr) -> R<DataType> {
        crate::limits::deep(|| self.expr_inner(e))
    }

    fn expr_inner(&mut self, e: &Expr) -> R<DataType> {
        match e {
            Expr::Lit(l) => Ok(match l {
                Literal::Int(v) => self.push_int(*v),
                Literal::Int64(v) => {
                    self.emit(Instruction::Push {
                        op: Opcode::Push,
                        value: PushValue::Int64(*v),
                    });
                    DataType::Int64
                }
                Literal::Real(v) => {
                    self.emit(Instruction::Push {
                        op: Opcode::Push,
                        value: PushValue::Double(*v),
                    });
                    DataType::Double
                }
                Literal::String(s) => {
                    let r = self.string(s)?;
                    self.emit(Instruction::Push {
                        op: Opcode::Push,
                        value: PushValue::String(r),
                    });
                    DataType::String
                }
                Literal::Bool(b) => {
                    self.push_int(*b as i64);
                    if self.f().typed_booleans() {
                        DataType::Boolean
                    } else {
                        DataType::Int32
                    }
                }
            }),
            Expr::Ident(n) => {
                if n == "pi" {
                    self.emit(Instruction::Push {
                        op: Opcode::Push,
                        value: PushValue::Double(std::f64::consts::PI),
                    });
                    return Ok(DataType::Double);
                }
                if !self.f().gml_v2()
                    && let Some(k) = match n.as_str() {
                        "self" => Some(-1),
                        "other" => Some(-2),
                        "all" => Some(-3),
                        "noone" => Some(-4),
                        "global" => Some(-5),
                        _ => None,
                    }
                {
                    return Ok(self.push_int(k));
                }
                if self.f().gml_v2() && (n == "noone" || n == "all") {
                    return Ok(self.push_int(if n == "noone" { -4 } else { -3 }));
                }
                // 2023.8+: `sprite_86` is a stripped file's unnamed sprite 86 (wild 2023+).
                if self.f().asset_refs()
                    && !self.locals.contains(n)
                    && !self.bare_var_known(n)
                    && !self.names.assets.contains_key(n)
                    && let Some((kind, index)) = crate::room_instance::unnamed_ref(n)
                        .filter(|&(k, i)| self.game.asset_unnamed(k, i as usize))
                    && let Some(asset_type) = self.game.pushref_type(kind)
                {
                    return Ok(self.push_asset_ref(asset_type, index));
                }
                // 2023.8+: a name of an asset reads the asset, though a global or another
                // entry's local has that name too (a local of this entry or an instance
                // variable of the name hides it: `bare_var_known`); a script's name that is a
                // variable, or (without function `pushref`s) a function, is the function it
                // declares (`push.i [function]gml_Script_…`) or, when it declares none of its
                // name, the FUNC entry of its bare name (`push.i [function]s`, wild 2024.14).
                if self.f().asset_refs()
                    && !self.locals.contains(n)
                    && !self.bare_var_known(n)
                    && let Some(&(asset_type, index)) = self.names.assets.get(n)
                    && (self.game.pushref_kind(asset_type) != Some(AssetKind::Script)
                        || !self.var_known(n)
                            && (self.f().function_refs()
                                || !self.known_func(&format!("gml_Script_{n}"))
                                    && !self.names.funcs.contains_key(n.as_str())))
                {
                    return Ok(self.push_asset_ref(asset_type, index));
                }
                if !self.locals.contains(n)
                    && !self.bare_var_known(n)
                    && let Some(&k) = self.names.objects.get(n)
                {
                    return Ok(self.push_int(k as i64));
                }
                // A room instance by its id (`inst_id_N`).
                if !self.locals.contains(n)
                    && !self.bare_var_known(n)
                    && let Some(id) = crate::room_instance::id(n)
                {
                    if self.f().room_instance_refs()
                        && let Some(asset_type) = self.game.pushref_type(AssetKind::RoomInstance)
                    {
                        return Ok(self.push_asset_ref(asset_type, id));
                    }
                    return Ok(self.push_int(i64::from(id)));
                }
                if let Some(t) = self.named_value(n)? {
                    return Ok(t);
                }
                if let Some(t) = self.builtin_or_asset_value(n) {
                    return Ok(t);
                }
                self.refuse_builtin_constant(n, false)?;
                let (vi, inst, op) = self.scope_of(n);
                let var = self.varref(n, vi, inst, RefType::NORMAL)?;
                self.emit(Instruction::Push {
                    op,
                    value: PushValue::Variable(var),
                });
                Ok(DataType::Variable)
            }
            Expr::Member(o, n) => {
                if let Some(k) = self.instance_number_in(o, true) {
                    let op = if k == -5 && self.f().new_opcodes() {
                        Opcode::PushGlb
                    } else {
                        Opcode::Push
                    };
                    let var = self.member_var(n, k)?;
                    self.emit(Instruction::Push {
                        op,
                        value: PushValue::Variable(var),
                    });
                } else {
                    self.dot_instance(o)?;
                    let var = self.varref(n, -1, 0, RefType::STACKTOP)?;
                    self.emit(Instruction::Push {
                        op: Opcode::Push,
                        value: PushValue::Variable(var),
                    });
                }
                Ok(DataType::Variable)
            }
            // 2024.14+: an element of a value that is no variable (`l[| i][1]`, `f()[0]`).
            Expr::Index(base, idx)
                if idx.len() == 1
                    && self.f().array_get_internal()
                    && !matches!(**base, Expr::Ident(_) | Expr::Member(..) | Expr::Index(..)) =>
            {
                let call = Expr::Call(
                    Box::new(Expr::Ident("@@array_get@@".into())),
                    vec![(**base).clone(), idx[0].clone()],
                );
                self.expr(&call)
            }
            Expr::Index(base, _) if matches!(**base, Expr::Index(..)) => self.multi_read(e),
            Expr::Update { op, prefix, target } => self.update_expr(*op, *prefix, target),
            Expr::Index(base, idx) => {
                let (name, vi, _) = self.array_owner(base, idx)?;
                let var = self.varref(&name, vi, 0, RefType::ARRAY)?;
                self.emit(Instruction::Push {
                    op: Opcode::Push,
                    value: PushValue::Variable(var),
                });
                Ok(DataType::Variable)
            }
            Expr::Call(callee, args) if self.f().gml_v2() && self.is_method_call(callee) => {
                self.method_call(callee, args)
            }
            Expr::Call(callee, args) => {
                let Expr::Ident(n) = &**callee else {
                    return self.value_call(callee, args);
                };
                // A data-structure accessor as written (`m[$ a[i]]`, marked by the parser):
                // its keys' array element reads call `array_get` (2.3+; 2024.14+
                // `@@array_get@@`), unlike the call written out.
                if let Some(real) = n.strip_prefix(crate::parse::ACCESSOR) {
                    let callee = Expr::Ident(real.to_string());
                    let mut args = args.clone();
                    if let Some(f) = self.f().accessor_array_get() {
                        let container = self.f().array_get_internal();
                        crate::fold::accessor_key_array_reads(&callee, &mut args, f, container);
                    }
                    return self.expr(&Expr::Call(Box::new(callee), args));
                }
                if let Some(t) = self.variable_hash(n, args)? {
                    return Ok(t);
                }
                if let Some(t) = self.ord_value(n, args) {
                    return Ok(t);
                }
                if n == "real"
                    && let [x] = args.as_slice()
                    && is_number_literal(x)
                    && !self.locals.contains(n)
                    && !self.names.own_real
                {
                    // GameMaker folds `real(5)` to the number (what GMS2's drag-and-drop
                    // actions write, and the decompiler prints there).
                    return self.expr(x);
                }
                self.call_arguments(args)?;
                let argc = call_argc(args.len())?;
                if self.enclosing_function_call(n, argc)? {
                    return Ok(DataType::Variable);
                }
                let found = if self.by_name.contains(n.as_str())
                    && !(self.grow.is_some() && self.names.funcs.contains_key(n.as_str()))
                {
                    Err(CompileError::UnknownName {
                        kind: "function",
                        name: n.clone(),
                    })
                } else {
                    self.func(n)
                };
                match found {
                    Ok(function) => self.emit(Instruction::Call {
                        t: DataType::Int32,
                        argc,
                        function,
                    }),
                    // Calls on no FUNC chain name their callee by string (quirks: code of
                    // stripped objects).
                    Err(e) => {
                        // Growing mode adds strings: only a callee the entry already called
                        // by name stays one.
                        if self.grow.is_some() && !self.by_name.contains(n.as_str()) {
                            return Err(e);
                        }
                        let name = self.string(n).map_err(|_| e)?;
                        self.emit(Instruction::CallByName {
                            t: DataType::Int32,
                            argc,
                            name,
                        });
                    }
                }
                Ok(DataType::Variable)
            }
            Expr::Paren(x) => self.expr(x),
            Expr::Unary(UnaryOp::Neg, x)
                if matches!(**x, Expr::Lit(Literal::Int(_) | Literal::Real(_))) =>
            {
                Ok(match **x {
                    Expr::Lit(Literal::Int(v)) => self.push_int(-v),
                    Expr::Lit(Literal::Real(v)) => {
                        self.emit(Instruction::Push {
                            op: Opcode::Push,
                            value: PushValue::Double(-v),
                        });
                        DataType::Double
                    }
                    _ => unreachable!("matched above"),
                })
            }
            Expr::Unary(op, x) => {
                let t = int_type(self.expr(x)?);
                Ok(match op {
                    UnaryOp::Neg => {
                        let t = if t == DataType::Boolean {
                            self.conv(t, DataType::Int32)
                        } else {
                            t
                        };
                        self.emit(Instruction::Unary { op: Opcode::Neg, t });
                        t
                    }
                    UnaryOp::Not => {
                        self.conv(t, DataType::Boolean);
                        self.emit(Instruction::Unary {
                            op: Opcode::Not,
                            t: DataType::Boolean,
                        });
                        DataType::Boolean
                    }
                    UnaryOp::BitNot => {
                        let t = if matches!(t, DataType::Variable | DataType::Double) {
                            self.conv(t, DataType::Int64)
                        } else {
                            t
                        };
                        self.emit(Instruction::Unary { op: Opcode::Not, t });
                        t
                    }
                })
            }
            Expr::Binary(BinaryOp::And | BinaryOp::Or, ..) => self.short_circuit(e),
            Expr::Binary(BinaryOp::Nullish, l, r) => self.nullish(l, r),
            Expr::Binary(op, l, r) => self.binary(*op, l, r),
            Expr::Ternary(c, a, b) => {
                self.cond(c)?;
                let l1 = self.label();
                let l2 = self.label();
                self.branch(Opcode::Bf, l1);
                let t = self.expr(a)?;
                self.conv(t, DataType::Variable);
                self.branch(Opcode::B, l2);
                self.place(l1);
                let t = self.expr(b)?;
                self.conv(t, DataType::Variable);
                self.place(l2);
                Ok(DataType::Variable)
            }
            Expr::Array(items) => {
                // The second of a call pair, at the literal (see `Compiler::set_owner`).
                if let Some(id) = self.owners.at_literal.take().or(self.owners.each_literal) {
                    self.push_int(id);
                    self.ext(ExtendedKind::SETOWNER);
                }
                for a in items.iter().rev() {
                    let t = self.expr(a)?;
                    self.conv(t, DataType::Variable);
                }
                let function = self.func("@@NewGMLArray@@")?;
                self.emit(Instruction::Call {
                    t: DataType::Int32,
                    argc: call_argc(items.len())?,
                    function,
                });
                Ok(DataType::Variable)
            }
            Expr::Function(f) => self.function_expr(f),
            Expr::Struct(fields) => self.struct_literal(fields),
            Expr::New(callee, args) => self.new_expr(callee, args),
        }
    }

    /// A call that goes through `callv`: a variable holding a function, or `obj.m(...)`.
    fn is_method_call(&self, callee: &Expr) -> bool {
        match callee {
            Expr::Ident(n) => {
                !self.known_func(n)
                    && !self.known_func(&format!("gml_Script_{n}"))
                    && self.declared_here(n).is_none()
                    && (self.var_known(n) || self.locals.contains(n) || self.unknown_callee(n))
            }
            Expr::Member(..) => true,
            _ => false,
        }
    }

    /// Whether a call of `n`, which names no function, variable or script the compile knows,
    /// is a call of the variable `n` (growing, 2.3+): GameMaker compiles it so (a function
    /// declared further down an event, before 2024.11, is one). A near miss of one of the
    /// file's functions stays an error, the likely typo ([`grow::suggest`]).
    fn unknown_callee(&self, n: &str) -> bool {
        self.grow.is_some()
            && self.f().gml_v2()
            && !self
                .game
                .assets()
                .any(|(k, _, a)| k == AssetKind::Script && a == n)
            && grow::suggest(
                n,
                self.names
                    .funcs
                    .keys()
                    .map(|f| f.strip_prefix("gml_Script_").unwrap_or(f)),
            )
            .is_none()
    }

    /// `f(args)` on a variable / `o.m(args)` (spec §6.2).
    fn method_call(&mut self, callee: &Expr, args: &[Expr]) -> R<DataType> {
        let call0 = |c: &mut Self, name: &str| -> R<()> {
            let function = c.func(name)?;
            c.emit(Instruction::Call {
                t: DataType::Int32,
                argc: 0,
                function,
            });
            Ok(())
        };
        let call0_1 = |c: &mut Self, name: &str| -> R<()> {
            let function = c.func(name)?;
            c.emit(Instruction::Call {
                t: DataType::Int32,
                argc: 1,
                function,
            });
            Ok(())
        };
        match callee {
            Expr::Ident(n) => {
                self.call_arguments(args)?;
                call0(self, "@@This@@")?;
                // A static function of the same function is called through `static.f` from
                // 2024.2 (seen in 2024.4 code), through `builtin.f` before (seen in 2022.9).
                let static_call = self.f().self_to_builtin();
                let (vi, inst, op) = if let Some(s) = self
                    .function_scope_of(n)
                    .filter(|s| s.1 == -15 || static_call)
                {
                    s
                } else if self.locals.contains(n) {
                    (-7, -7, Opcode::PushLoc)
                } else {
                    (-1, -6, Opcode::Push)
                };
                let var = self.varref(n, vi, inst, RefType::NORMAL)?;
                self.emit(Instruction::Push {
                    op,
                    value: PushValue::Variable(var),
                });
            }
            Expr::Member(o, m) => {
                match &**o {
                    Expr::Ident(s) if s == "self" => call0(self, "@@This@@")?,
                    Expr::Ident(s) if s == "other" => call0(self, "@@Other@@")?,
                    Expr::Ident(s) if s == "global" => call0(self, "@@Global@@")?,
                    o @ Expr::Call(..)
                        if self.f().chained_call_args_first()
                            && refs::chain_starts_with_call(o) =>
                    {
                        return self.chained_call(o, m, args);
                    }
                    o @ Expr::Call(..)
                        if self.f().chained_call_args_last() && refs::chain_starts_with_call(o) =>
                    {
                        return self.chained_call_args_last(o, m, args);
                    }
                    // A written `argumentN` (in a function with named parameters) as the
                    // instance of a method call is read as the built-in before 2023 (corpus
                    // vendaval, 2.3.2: `pushbltn.v self.argument2`), though a plain read is
                    // `push.v self.argument2`.
                    Expr::Ident(n)
                        if n.ends_with(function::EXPLICIT_ARGUMENT)
                            && self.fnc.depth > 0
                            && self.f().gml_v2()
                            && !self.f().written_argument_builtin() =>
                    {
                        let inst = if self.f().builtin_globals_self() {
                            -1
                        } else {
                            -6
                        };
                        let var = self.varref(n, -1, inst, RefType::NORMAL)?;
                        self.emit(Instruction::Push {
                            op: Opcode::PushBltn,
                            value: PushValue::Variable(var),
                        });
                    }
                    o => {
                        self.dot_owner = matches!(o, Expr::Index(..));
                        let t = self.expr(o)?;
                        self.dot_owner = false;
                        if t != DataType::Variable {
                            // An object index or instance id (spec §7.4).
                            self.conv(t, DataType::Variable);
                            call0_1(self, "@@GetInstance@@")?;
                        }
                    }
                }
                self.call_arguments(args)?;
                self.emit(Instruction::Dup {
                    t: DataType::Variable,
                    count: args.len() as u8,
                    extra: 0x88,
                });
                self.emit(Instruction::Dup {
                    t: DataType::Variable,
                    count: 0,
                    extra: 0,
                });
                let var = self.varref(m, -1, -9, RefType::NORMAL)?;
                self.emit(Instruction::Push {
                    op: Opcode::Push,
                    value: PushValue::Variable(var),
                });
            }
            other => {
                return Err(CompileError::Unsupported(format!(
                    "call of an expression: expected a function name or a method, found `{}`",
                    crate::print::print_expr(other)
                )));
            }
        }
        self.emit(Instruction::CallV {
            t: DataType::Variable,
            argc: call_argc(args.len())?,
        });
        Ok(DataType::Variable)
    }

    /// `a && b && c` / `a || b || c` (spec §4.2).
    fn short_circuit(&mut self, e: &Expr) -> R<DataType> {
        let Expr::Binary(op, ..) = e else {
            unreachable!("called on && / ||")
        };
        let op = *op;
        let mut operands = Vec::new();
        let mut cur = e;
        while let Expr::Binary(o, l, r) = cur
            && *o == op
        {
            operands.push(&**r);
            cur = l;
        }
        operands.push(cur);
        operands.reverse();
        let land = self.label();
        let end = self.label();
        let n = operands.len();
        for (k, x) in operands.into_iter().enumerate() {
            self.cond(x)?;
            if k + 1 < n {
                self.branch(
                    if op == BinaryOp::And {
                        Opcode::Bf
                    } else {
                        Opcode::Bt
                    },
                    land,
                );
            }
        }
        self.branch(Opcode::B, end);
        self.place(land);
        self.emit(Instruction::Push {
            op: Opcode::Push,
            value: PushValue::Int16(if op == BinaryOp::And { 0 } else { 1 }),
        });
        self.place(end);
        Ok(DataType::Boolean)
    }

    fn coerce(&mut self, t: DataType, op: BinaryOp) -> DataType {
        use BinaryOp::*;
        let t = int_type(t);
        match op {
            Add | Sub | Mul | IntDiv | Mod if t == DataType::Boolean => {
                self.conv(t, DataType::Int32)
            }
            Div if !matches!(t, DataType::Double | DataType::Variable) => {
                self.conv(t, DataType::Double)
            }
            Xor if t != DataType::Boolean => self.conv(t, DataType::Boolean),
            Shl | Shr if t != DataType::Int64 => self.conv(t, DataType::Int64),
            BitAnd | BitOr | BitXor if matches!(t, DataType::Variable | DataType::Double) => {
                self.conv(t, DataType::Int64)
            }
            BitAnd | BitOr | BitXor if matches!(t, DataType::Boolean | DataType::String) => {
                self.conv(t, DataType::Int32)
            }
            _ => t,
        }
    }

    fn binary(&mut self, op: BinaryOp, l: &Expr, r: &Expr) -> R<DataType> {
        if let Some(v) = pi_product(op, l, r) {
            self.emit(Instruction::Push {
                op: Opcode::Push,
                value: PushValue::Double(v),
            });
            return Ok(DataType::Double);
        }
        let cmp = matches!(
            op,
            BinaryOp::Lt | BinaryOp::Le | BinaryOp::Eq | BinaryOp::Ne | BinaryOp::Ge | BinaryOp::Gt
        );
        // The left operand continues a chain of the same level unless parenthesised.
        let chained = matches!(l, Expr::Binary(lo, ..) if lo.precedence() == op.precedence());
        let lt = self.expr(l)?;
        let lt = if cmp || chained {
            int_type(lt)
        } else {
            self.coerce(lt, op)
        };
        let rt = self.expr(r)?;
        let rt = if cmp {
            int_type(rt)
        } else {
            self.coerce(rt, op)
        };
        if cmp {
            self.emit(Instruction::Compare {
                cmp: match op {
                    BinaryOp::Lt => Comparison::Lt,
                    BinaryOp::Le => Comparison::Le,
                    BinaryOp::Eq => Comparison::Eq,
                    BinaryOp::Ne => Comparison::Ne,
                    BinaryOp::Ge => Comparison::Ge,
                    _ => Comparison::Gt,
                },
                t1: rt,
                t2: lt,
            });
            return Ok(DataType::Boolean);
        }
        let opc = arith_opcode(op)
            .ok_or_else(|| CompileError::Unsupported(format!("operator {}", op.symbol())))?;
        self.binop_ins(opc, rt, lt);
        Ok(if op == BinaryOp::Xor {
            DataType::Boolean
        } else if bias(lt) != bias(rt) {
            if bias(lt) > bias(rt) { lt } else { rt }
        } else if (lt as u8) <= (rt as u8) {
            lt
        } else {
            rt
        })
    }
}

fn arith_opcode(op: BinaryOp) -> Option<Opcode> {
    use BinaryOp::*;
    Some(match op {
        Mul => Opcode::Mul,
        Div => Opcode::Div,
        IntDiv => Opcode::Rem,
        Mod => Opcode::Mod,
        Add => Opcode::Add,
        Sub => Opcode::Sub,
        BitAnd | And => Opcode::And,
        BitOr | Or => Opcode::Or,
        BitXor | Xor => Opcode::Xor,
        Shl => Opcode::Shl,
        Shr => Opcode::Shr,
        _ => return None,
    })
}

/// `k * pi`, `pi * k` or `pi / k` with a whole number `k`: the double GameMaker's compiler
/// folds it to (corpus: `2 * pi` and `pi * 2` are one `push.d 6.283185307179586`, `pi/2` one
/// `push.d 1.5707963267948966`), as the decompiler writes such doubles.
fn pi_product(op: BinaryOp, l: &Expr, r: &Expr) -> Option<f64> {
    use std::f64::consts::PI;
    let is_pi = |e: &Expr| matches!(e, Expr::Ident(n) if n == "pi");
    let int = |e: &Expr| match e {
        Expr::Lit(Literal::Int(k)) => Some(*k as f64),
        _ => None,
    };
    match op {
        BinaryOp::Mul if is_pi(r) => int(l).map(|k| k * PI),
        BinaryOp::Mul if is_pi(l) => int(r).map(|k| PI * k),
        BinaryOp::Div if is_pi(l) => int(r).filter(|&k| k != 0.0).map(|k| PI / k),
        _ => None,
    }
}
