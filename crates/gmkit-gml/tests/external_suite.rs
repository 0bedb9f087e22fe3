//! An external suite of decompiler and compiler cases (issue 16: "a held-back external suite
//! ... >= 90 % of its decompile cases and >= 90 % of its round trips agreeing, formatting
//! aside"). The suite is another project's (MPL-2.0) and stays outside this repository, like the
//! corpus: `scripts/external-suite.py CHECKOUT DIR` extracts its cases into `DIR/cases.jsonl`,
//! and this test runs them when `GMKIT_EXTERNAL_SUITE=DIR` is set (it skips with a message
//! otherwise; `GMKIT_REQUIRE_EXTERNAL_SUITE=1` makes it required).
//!
//! Three kinds of case:
//! - `decompile`: assembly -> the GML the suite expects;
//! - `roundtrip`: GML -> compile -> decompile -> the same GML (or the expected text);
//! - `bytecode`: GML -> the assembly GameMaker's compiler emits.
//!
//! A case's mock game states its version as feature flags (`UsingAssetReferences`, ...);
//! [`version_of`] turns them into the oldest GameMaker version that has them. GML agrees when
//! both texts parse and print the same with gmkit's parser and printer (formatting, comments,
//! braces and semicolons aside); bytecode agrees when the instructions are equal.
//!
//! Prints the share per kind, and with `GMKIT_SHOW_MISSES=1` every disagreement. Asserts only
//! that no case panics: the shares are measurements (docs/benchmarks.md).

use gmkit_data::chunks::code::asm::{Assembler, Disassembler};
use gmkit_data::chunks::code::{CodeBody, CodeEntries, CodeEntry, Instruction};
use gmkit_data::chunks::function::Functions;
use gmkit_data::chunks::string_table::Strings;
use gmkit_data::chunks::variable::Variables;
use gmkit_data::{DataFile, FormatVersion, Version};
use gmkit_gml::names_file::NamesFile;
use gmkit_gml::{Game, decompile, parse, print};
use serde_json::Value;
use std::collections::BTreeMap;
use std::panic::{AssertUnwindSafe, catch_unwind};

/// One case of `cases.jsonl`.
struct Case {
    file: String,
    test: String,
    index: u64,
    kind: String,
    texts: Vec<String>,
    global_script: bool,
    flags: BTreeMap<String, bool>,
    /// The test sets up more than the extractor reads (game-specific macro types).
    setup: bool,
    /// Decompiler settings the case sets (formatting ones are aside anyway).
    settings: BTreeMap<String, Value>,
    /// The mock game's assets: (type, index, name), e.g. `("Object", 123, "obj_test")`.
    assets: Vec<(String, u32, String)>,
    /// The mock game's global functions: (name, the suite's name of its function).
    functions: Vec<(String, String)>,
    /// The mock game's built-in functions (names).
    builtins: Vec<String>,
    /// The test's macro-type setup as a names file (`scripts/external-suite.py` translates
    /// what has a names-file form), given to the decompiler with `Game::with_names_file`.
    names: Option<String>,
    /// Why the setup has no names-file form, if it has none.
    names_missing: Option<String>,
}

impl Case {
    fn from_json(v: &Value) -> Option<Case> {
        let s = |k: &str| v.get(k).and_then(Value::as_str).unwrap_or("").to_string();
        Some(Case {
            file: s("file"),
            test: s("test"),
            index: v.get("index")?.as_u64()?,
            kind: s("kind"),
            texts: v
                .get("texts")?
                .as_array()?
                .iter()
                .filter_map(|t| t.as_str().map(str::to_string))
                .collect(),
            global_script: v.get("global_script")?.as_bool()?,
            flags: v
                .get("flags")?
                .as_object()?
                .iter()
                .filter_map(|(k, b)| Some((k.clone(), b.as_bool()?)))
                .collect(),
            setup: v.get("setup")?.as_bool()?,
            settings: v
                .get("settings")?
                .as_object()?
                .iter()
                .map(|(k, b)| (k.clone(), b.clone()))
                .collect(),
            assets: v
                .get("assets")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(|a| {
                    Some((
                        a.get(0)?.as_str()?.to_string(),
                        u32::try_from(a.get(1)?.as_u64()?).ok()?,
                        a.get(2)?.as_str()?.to_string(),
                    ))
                })
                .collect(),
            builtins: v
                .get("builtins")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(|b| Some(b.get(0)?.as_str()?.to_string()))
                .collect(),
            names: v.get("names").and_then(Value::as_str).map(str::to_string),
            names_missing: v
                .get("names_missing")
                .and_then(Value::as_str)
                .map(str::to_string),
            functions: v
                .get("functions")
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
                .filter_map(|f| {
                    Some((
                        f.get(0)?.as_str()?.to_string(),
                        f.get(1)?.as_str()?.to_string(),
                    ))
                })
                .collect(),
        })
    }

    fn label(&self) -> String {
        format!(
            "{} {}#{} ({})",
            self.file.trim_end_matches(".cs"),
            self.test,
            self.index,
            self.kind
        )
    }
}

/// A GameMaker version as (bytecode, major, minor, release).
type Ver = (u8, u16, u16, u16);

/// The version each flag of the suite's mock game stands for: true from that version on (a
/// name starting with `!` is the flag's negation). Facts from the flags' documentation.
const FLAG_VERSIONS: &[(&str, Ver)] = &[
    ("UsingLongCompoundBitwise", (17, 2, 3, 2)),
    ("UsingNewArrayOwners", (17, 2, 3, 2)),
    ("UsingTypedBooleans", (17, 2, 3, 7)),
    ("UsingNullishOperator", (17, 2, 3, 7)),
    ("!UsingArrayCopyOnWrite", (17, 2022, 2, 0)),
    ("!UsingExtraRepeatInstruction", (17, 2022, 11, 0)),
    ("UsingTemplateStrings", (17, 2023, 4, 0)),
    ("UsingAssetReferences", (17, 2023, 8, 0)),
    ("UsingGlobalConstantFunction", (17, 2023, 11, 0)),
    ("UsingRoomInstanceReferences", (17, 2024, 2, 0)),
    ("UsingFunctionScriptReferences", (17, 2024, 2, 0)),
    ("UsingNewFunctionVariables", (17, 2024, 2, 0)),
    ("UsingSelfToBuiltin", (17, 2024, 2, 0)),
    ("!UsingFinallyBeforeThrow", (17, 2024, 6, 0)),
    ("UsingConstructorSetStatic", (17, 2024, 11, 0)),
    ("UsingObjectFunctionForesight", (17, 2024, 11, 0)),
    ("UsingBetterTryBreakContinue", (17, 2024, 11, 0)),
    ("UsingBuiltinDefaultArguments", (17, 2024, 11, 0)),
    ("!UsingReentrantStatic", (17, 2024, 11, 0)),
    ("UsingNewFunctionResolution", (17, 2024, 13, 0)),
    ("UsingOptimizedFunctionDeclarations", (17, 2024, 14, 0)),
    ("UsingModernTemplateStrings", (17, 2024, 14, 0)),
    ("UsingNewChainedFunctionArgumentOrder", (17, 2024, 14, 4)),
];

/// The mock game's defaults that hold together (2023.8: asset references, no self-to-builtin).
const DEFAULT_TRUE: &[&str] = &[
    "UsingLongCompoundBitwise",
    "UsingNewArrayOwners",
    "UsingTypedBooleans",
    "UsingNullishOperator",
    "!UsingArrayCopyOnWrite",
    "!UsingExtraRepeatInstruction",
    "UsingTemplateStrings",
    "UsingAssetReferences",
];

/// The oldest version with every flag the case sets true and none it sets false; the mock's
/// defaults raise it as far as they stay below what the case sets false.
fn version_of(flags: &BTreeMap<String, bool>) -> Ver {
    let get = |k: &str| flags.get(k).copied();
    if get("Bytecode14OrLower") == Some(true) {
        return (14, 1, 0, 0);
    }
    if get("UsingGMS2OrLater") == Some(false) {
        return (16, 1, 0, 0);
    }
    if get("UsingGMLv2") == Some(false) {
        return (16, 2, 0, 0);
    }
    // A flag's value as the case sets it, `!` names negated.
    let set = |name: &str| match name.strip_prefix('!') {
        Some(n) => get(n).map(|b| !b),
        None => get(name),
    };
    let mut lower: Ver = (17, 2, 3, 0);
    let mut upper: Option<Ver> = None;
    for &(name, v) in FLAG_VERSIONS {
        match set(name) {
            Some(true) => lower = lower.max(v),
            Some(false) => upper = Some(upper.map_or(v, |u| u.min(v))),
            None => {}
        }
    }
    for &name in DEFAULT_TRUE {
        if set(name).is_none() {
            let v = FLAG_VERSIONS
                .iter()
                .find(|f| f.0 == name)
                .expect("listed")
                .1;
            if upper.is_none_or(|u| v < u) {
                lower = lower.max(v);
            }
        }
    }
    lower
}

/// An empty data file of version `v`, with the tables assembling and compiling grow.
fn empty_file(v: Ver) -> DataFile {
    DataFile {
        version: Version {
            bytecode: v.0,
            ide: [if v.1 >= 2 { 2 } else { 1 }, 0, 0, 0],
            format: FormatVersion::new(v.1, v.2, v.3, 0),
            lts: false,
        },
        strings: Some(Strings::default()),
        variables: Some(Variables::default()),
        functions: Some(Functions::default()),
        code: Some(CodeEntries::default()),
        ..DataFile::default()
    }
}

/// The suite's assembly in gmkit's notation: `call.i f 2` -> `call.i f(argc=2)`,
/// `> name (locals=L, args=A)` -> `.entry name` (the counts are returned per child),
/// `isnullish.e` -> `chknullish.e`.
fn convert_asm(text: &str) -> (String, Vec<(String, u16, u16)>) {
    let mut out = String::with_capacity(text.len() + 64);
    let mut children = Vec::new();
    for line in text.lines() {
        let l = line.trim();
        if let Some(rest) = l.strip_prefix('>') {
            let rest = rest.trim();
            let (name, counts) = match rest.split_once('(') {
                Some((n, c)) => (n.trim(), c.trim_end_matches(')')),
                None => (rest, ""),
            };
            let count = |key: &str| {
                counts
                    .split(',')
                    .filter_map(|kv| kv.split_once('='))
                    .find(|(k, _)| k.trim() == key)
                    .and_then(|(_, v)| v.trim().parse().ok())
                    .unwrap_or(0)
            };
            children.push((name.to_string(), count("locals"), count("args")));
            out.push_str(&format!(".entry {name}\n"));
            continue;
        }
        let mut parts = l.splitn(2, ' ');
        let mn = parts.next().unwrap_or("");
        let arg = parts.next().unwrap_or("").trim();
        if mn.starts_with("call.")
            && let Some((f, n)) = arg.rsplit_once(' ')
            && n.parse::<u32>().is_ok()
        {
            out.push_str(&format!("{mn} {f}(argc={n})\n"));
            continue;
        }
        if mn == "isnullish.e" {
            out.push_str("chknullish.e\n");
            continue;
        }
        if let Some(line) = convert_operand(mn, arg) {
            out.push_str(&line);
            out.push('\n');
            continue;
        }
        out.push_str(l);
        out.push('\n');
    }
    (out, children)
}

/// The mock game's name of a function as a real game names its code entry: `regular_func_f`
/// and `global_func_f` -> `gml_Script_f`, `struct_func___struct__N` -> `gml_Script____struct___N`
/// (the struct literal's constructor), `anon_func_N` / `s_anon_func_N` -> `gml_Script_anon_N`;
/// other names as they are.
fn real_function_name(name: &str) -> String {
    if let Some(f) = name
        .strip_prefix("regular_func_")
        .or_else(|| name.strip_prefix("global_func_"))
    {
        return format!("gml_Script_{f}");
    }
    if let Some(n) = name.strip_prefix("struct_func___struct__") {
        return format!("gml_Script____struct___{n}");
    }
    if let Some((_, n)) = name.split_once("anon_func_")
        && !n.is_empty()
        && n.bytes().all(|b| b.is_ascii_digit())
    {
        return format!("gml_Script_anon_{n}");
    }
    name.to_string()
}

/// The suite's notation where it differs from gmkit's beyond [`convert_asm`]: mock function
/// names as real entry names ([`real_function_name`]), and before bytecode 15 `pushi.T` as
/// `push.T`.
fn suite_notation(text: &str, bytecode: u8) -> String {
    let mut out = String::with_capacity(text.len() + 64);
    for line in text.lines() {
        let mut l = line.trim().to_string();
        if bytecode < 15
            && let Some(rest) = l.strip_prefix("pushi.")
        {
            l = format!("push.{rest}");
        }
        // Identifiers (with `@`, as in `@@NewGMLObject@@`) renamed one by one.
        let mut renamed = String::with_capacity(l.len());
        let mut word = String::new();
        for ch in l.chars().chain(std::iter::once('\n')) {
            if ch.is_ascii_alphanumeric() || ch == '_' || ch == '@' {
                word.push(ch);
            } else {
                renamed.push_str(&real_function_name(&word));
                word.clear();
                if ch != '\n' {
                    renamed.push(ch);
                }
            }
        }
        let l = renamed;
        out.push_str(&l);
        out.push('\n');
    }
    out
}

/// Assembles the suite's assembly into `file` as a root entry named `root` with its child
/// entries; returns the root's index.
fn assemble_into(file: &mut DataFile, text: &str, root: &str) -> Result<usize, String> {
    let text = suite_notation(text, file.version.bytecode);
    let (ours, children) = convert_asm(&text);
    let assembled = Assembler::new(file)
        .assemble(&ours)
        .map_err(|e| format!("assembly: {e}"))?;
    let root_name = file.intern(root);
    let code = file.code.as_mut().expect("made with code");
    let at = code.entries.len();
    code.entries.push(CodeEntry {
        name: root_name,
        body: CodeBody::Instructions(assembled.instructions),
        locals_count: 1,
        arguments_count: 0,
        arguments_flag: false,
        execution_offset: 0,
    });
    for (name, offset) in assembled.entries {
        let (locals, args) = children
            .iter()
            .find(|c| name.as_bytes() == c.0.as_bytes())
            .map_or((1, 0), |c| (c.1, c.2));
        let code = file.code.as_mut().expect("made with code");
        code.entries.push(CodeEntry {
            name: gmkit_data::StringRef(0),
            body: CodeBody::Shared { parent: at as u32 },
            locals_count: locals,
            arguments_count: args,
            arguments_flag: false,
            execution_offset: offset,
        });
        let r = file.intern(&String::from_utf8_lossy(name.as_bytes()));
        file.code
            .as_mut()
            .expect("made with code")
            .entries
            .last_mut()
            .expect("pushed")
            .name = r;
    }
    Ok(at)
}

/// gmkit's print of the entry's decompiled code.
fn decompiled(file: &DataFile, entry: usize) -> Result<String, String> {
    decompiled_with(file, entry, None)
}

/// gmkit's print of the entry's decompiled code, with a names file if given.
fn decompiled_with(
    file: &DataFile,
    entry: usize,
    names: Option<&NamesFile>,
) -> Result<String, String> {
    let mut game = Game::new(file);
    if let Some(n) = names {
        game = game.with_names_file(n.clone());
    }
    let d = decompile::decompile_entry(&game, entry).map_err(|e| format!("decompile: {e}"))?;
    if d.failures > 0 {
        return Err(format!("decompile: {}", d.failure_notes.join("; ")));
    }
    Ok(print::print_stmts(&d.body))
}

/// Drops written parentheses ([`gmkit_gml::ast::Expr::Paren`]): the tree they group stays,
/// and the printer puts back the ones precedence needs.
struct NoParens;

impl gmkit_gml::visit::VisitorMut for NoParens {
    fn visit_expr_mut(&mut self, e: &mut gmkit_gml::ast::Expr) {
        while let gmkit_gml::ast::Expr::Paren(x) = e {
            let inner = std::mem::replace(&mut **x, gmkit_gml::ast::Expr::Ident(String::new()));
            *e = inner;
        }
        gmkit_gml::visit::walk_expr_mut(self, e);
    }
}

/// GML with formatting aside: gmkit's print of its parse, written parentheses aside (the
/// grouping is in the tree).
fn canonical(text: &str) -> Result<String, String> {
    let mut tree = parse::parse(text).map_err(|e| format!("{e}"))?;
    gmkit_gml::visit::VisitorMut::visit_block_mut(&mut NoParens, &mut tree);
    Ok(print::print_stmts(&tree))
}

/// Whether two GML texts agree, formatting aside.
fn agree(got: &str, want: &str) -> bool {
    match (canonical(got), canonical(want)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// The mock game's sprites, objects and scripts (at most 4096 of each: the suite's indices are
/// small), so that their numbers read as their names.
fn add_assets(file: &mut DataFile, assets: &[(String, u32, String)]) {
    use gmkit_data::chunks::{object, script, sprite};
    for (kind, index, name) in assets {
        let at = *index as usize;
        if at >= 4096 {
            continue;
        }
        let name = file.intern(name);
        match kind.as_str() {
            "Object" => {
                let list = &mut file.objects.get_or_insert_with(Default::default).objects;
                list.resize(list.len().max(at + 1), None);
                list[at] = Some(object::Object {
                    name,
                    events: vec![Vec::new(); 15],
                    ..Default::default()
                });
            }
            "Sprite" => {
                let list = &mut file.sprites.get_or_insert_with(Default::default).sprites;
                list.resize(list.len().max(at + 1), None);
                list[at] = Some(sprite::Sprite {
                    name,
                    ..Default::default()
                });
            }
            "Script" => {
                let list = &mut file.scripts.get_or_insert_with(Default::default).scripts;
                list.resize(list.len().max(at + 1), None);
                list[at] = Some(script::Script {
                    name,
                    code_id: gmkit_data::AssetRef::NONE,
                    constructor: false,
                });
            }
            _ => {}
        }
    }
}

fn run_decompile(c: &Case) -> Result<(bool, String), String> {
    let [asm, want] = &c.texts[..] else {
        return Err("expected two texts".into());
    };
    let mut file = empty_file(version_of(&c.flags));
    add_assets(&mut file, &c.assets);
    let root = if c.global_script {
        "gml_GlobalScript_test"
    } else {
        "root"
    };
    let entry = assemble_into(&mut file, asm, root)?;
    let Some(names) = &c.names else {
        let got = decompiled(&file, entry)?;
        return Ok((agree(&got, want), got));
    };
    let names = NamesFile::parse(names).map_err(|e| format!("names file: {e}"))?;
    let got = decompiled_with(&file, entry, Some(&names))?;
    // The suite appends the declarations of the enums it names by; a names file declares
    // them instead.
    let want = without_enums(want, &names.enum_names().collect::<Vec<_>>());
    Ok((agree(&got, &want), got))
}

/// `text` without the `enum NAME { ... }` declarations of `names`.
fn without_enums(text: &str, names: &[&str]) -> String {
    let mut out = text.to_string();
    for n in names {
        let head = format!("enum {n}");
        let Some(at) = out.find(&head) else {
            continue;
        };
        let Some(end) = out[at..].find('}') else {
            continue;
        };
        out.replace_range(at..at + end + 1, "");
    }
    out
}

/// The file a case compiles into: an empty file of its version shaped as a real game's is (SCPT,
/// GLOB from 2.3, VARI's header and FUNC's code-locals lists where the version has them, the
/// local `arguments` every game's entries have), with the case's mock assets at their indices.
fn compile_file(c: &Case) -> DataFile {
    use gmkit_data::chunks::script;
    let v = version_of(&c.flags);
    let mut file = empty_file(v);
    file.scripts = Some(script::Scripts::default());
    if (v.1, v.2) >= (2, 3) {
        file.global_init = Some(Default::default());
    }
    if v.0 >= 15 {
        if let Some(vars) = file.variables.as_mut() {
            vars.header = Some(Default::default());
        }
        if (v.1, v.2) < (2024, 8)
            && let Some(f) = file.functions.as_mut()
        {
            f.code_locals = Some(Vec::new());
        }
        let name = file.intern("arguments");
        let id = if (v.1, v.2) >= (2, 3) {
            name.0 as i32
        } else {
            0
        };
        if let Some(vars) = file.variables.as_mut() {
            vars.variables.push(gmkit_data::chunks::variable::Variable {
                name,
                instance_type: -7,
                variable_id: id,
            });
        }
    }
    // The mock game's array copy-on-write (2.3 - 2022.1, or set): shown by its code, as a
    // game's code shows it (`setowner.e`).
    let cow = c.flags.get("UsingArrayCopyOnWrite").copied();
    if (v.1, v.2) >= (2, 3) && cow.unwrap_or((v.1, v.2) < (2022, 2)) {
        let name = file.intern("gml_Script_suite_copy_on_write");
        if let Some(code) = file.code.as_mut() {
            code.entries.push(CodeEntry {
                name,
                body: CodeBody::Instructions(vec![
                    Instruction::Push {
                        op: gmkit_data::chunks::code::Opcode::Push,
                        value: gmkit_data::chunks::code::PushValue::Int32(1),
                    },
                    Instruction::Extended {
                        t: gmkit_data::chunks::code::DataType::Int16,
                        kind: gmkit_data::chunks::code::ExtendedKind::SETOWNER,
                        operand: None,
                    },
                ]),
                locals_count: 0,
                arguments_count: 0,
                arguments_flag: false,
                execution_offset: 0,
            });
        }
    }
    // The mock's built-in functions (the case's, and one every mock game has) and global
    // functions (script functions `gml_Script_<name>`): FUNC entries.
    let funcs = c.builtins.iter().cloned();
    let funcs = funcs.chain(["test_builtin_function".to_string()]).chain(
        c.functions
            .iter()
            .map(|(name, _)| format!("gml_Script_{name}")),
    );
    for name in funcs.collect::<Vec<_>>() {
        let r = file.intern(&name);
        if let Some(f) = file.functions.as_mut() {
            f.functions
                .push(gmkit_data::chunks::function::Function::new(r));
        }
    }
    add_assets(&mut file, &c.assets);
    file
}

/// Compiles GML as a new entry (a global script, or an object's Create event) of the case's
/// file ([`compile_file`]); the file and the entry's index.
fn compile_case(c: &Case, src: &str) -> Result<(DataFile, usize), String> {
    let mut file = compile_file(c);
    let target = if c.global_script {
        // The suite's mock name (a function of the script's own name is a quirk of its own).
        gmkit_data::code_entry::EntryTarget::Script {
            name: "GlobalScriptMockName".into(),
        }
    } else {
        // An object of its own after the mock ones, with every event type of GMS 2.3+ (15);
        // older versions have fewer, none below Create.
        let name = file.intern("obj_suite");
        let list = &mut file.objects.get_or_insert_with(Default::default).objects;
        list.push(Some(gmkit_data::chunks::object::Object {
            name,
            events: vec![Vec::new(); 15],
            ..Default::default()
        }));
        gmkit_data::code_entry::EntryTarget::Event {
            object: gmkit_data::Id::new((list.len() - 1) as u32),
            event: gmkit_data::code_entry::EventType::Create,
            subtype: 0,
        }
    };
    let added = gmkit_gml::entries::add_entry(&mut file, &target, src)
        .map_err(|e| format!("compile: {e}"))?;
    Ok((file, added.root.entry))
}

fn run_roundtrip(c: &Case) -> Result<(bool, String), String> {
    let src = c.texts.first().ok_or("expected a text")?;
    let want = c.texts.get(1).unwrap_or(src);
    let (file, entry) = compile_case(c, src)?;
    let got = decompiled(&file, entry)?;
    Ok((agree(&got, want), got))
}

fn run_bytecode(c: &Case) -> Result<(bool, String), String> {
    let [src, asm] = &c.texts[..] else {
        return Err("expected two texts".into());
    };
    // No assembly: GameMaker's compiler refuses the code.
    if asm.trim().is_empty() {
        return Ok(match compile_case(c, src) {
            Ok(_) => (false, "compiled (expected a refusal)".into()),
            Err(e) => (true, e),
        });
    }
    let (file, entry) = compile_case(c, src)?;
    let got: Vec<Instruction> = file
        .code
        .as_ref()
        .and_then(|code| code.instructions(entry).ok())
        .ok_or("no compiled code")?
        .to_vec();
    let mut want_file = file.clone();
    // Before bytecode 15 the suite's `pushi.T` is `push.T` (as in `suite_notation`).
    let asm = if file.version.bytecode < 15 {
        asm.replace("pushi.", "push.")
    } else {
        asm.clone()
    };
    let (ours, _) = convert_asm(&asm);
    let want = Assembler::new(&mut want_file)
        .assemble(&ours)
        .map_err(|e| format!("expected assembly: {e}"))?
        .instructions;
    let dis = Disassembler::new(&want_file);
    let mut names = suite_names(&file, entry, c.global_script);
    names.extend(
        c.functions
            .iter()
            .map(|(name, f)| (format!("gml_Script_{name}"), f.clone())),
    );
    let raw = dis.instructions(&got);
    // An anonymous function bound to a static variable `s` is the suite's `s_anon_func_N`.
    let lines: Vec<&str> = raw.lines().collect();
    for (gm, suite) in names.iter_mut() {
        if !suite.starts_with("anon_func_") {
            continue;
        }
        let at = lines
            .iter()
            .position(|l| l.strip_prefix("push.i [function]") == Some(gm.as_str()));
        if let Some(var) = at.and_then(|k| {
            lines[k..lines.len().min(k + 6)]
                .iter()
                .find_map(|l| l.strip_prefix("pop.v.v static."))
        }) {
            *suite = format!("{var}_{suite}");
        }
    }
    let got_text = comparable(&raw, &names);
    Ok((
        got_text == comparable(&dis.instructions(&want), &[]),
        got_text,
    ))
}

/// The names the suite's mock compiler gives the functions a compile defines, by gmkit's
/// (GameMaker's) names for them: `struct_func___struct__N` (struct literal N, its global
/// `__struct__N`), `anon_func_N` (the Nth anonymous function), `global_func_f` (a function of a
/// global script), `regular_func_f` (any other function `f`).
fn suite_names(file: &DataFile, root: usize, global_script: bool) -> Vec<(String, String)> {
    let game = Game::new(file);
    let mut out = Vec::new();
    let (mut anon, mut structs) = (0, 0);
    let mut children: Vec<(u32, String)> = file
        .code
        .as_ref()
        .map(|code| {
            code.entries
                .iter()
                .enumerate()
                .filter(|(_, e)| {
                    matches!(e.body, CodeBody::Shared { parent } if parent as usize == root)
                })
                .map(|(k, e)| (e.execution_offset, game.code_name(k).to_string()))
                .collect()
        })
        .unwrap_or_default();
    children.sort();
    for (_, name) in children {
        let Some(short) = name.strip_prefix("gml_Script_") else {
            continue;
        };
        if let Some(rest) = short.strip_prefix("___struct___") {
            let n: String = rest.chars().take_while(char::is_ascii_digit).collect();
            structs += 1;
            out.push((name.clone(), format!("struct_func___struct__{structs}")));
            out.push((format!("___struct___{n}"), format!("__struct__{structs}")));
            continue;
        }
        if short.starts_with("anon@") || short.starts_with("anon_") {
            anon += 1;
            out.push((name.clone(), format!("anon_func_{anon}")));
            continue;
        }
        let f = short
            .split_once("@gml_")
            .or_else(|| short.split_once("_gml_"))
            .map_or(short, |(f, _)| f);
        let f = f.split('@').next().unwrap_or(f);
        let kind = if global_script { "global" } else { "regular" };
        out.push((name.clone(), format!("{kind}_func_{f}")));
    }
    out
}

/// A disassembly with what the suite does not compare set aside: `#N` entry indices, the
/// instance field of references other than plain ones (the suite writes the variable's kind
/// there, GameMaker 0), and the array owner ids before `setowner.e` (the suite's mock makes
/// its own); `names` renamed (whole names).
fn comparable(text: &str, names: &[(String, String)]) -> String {
    let mut out = String::with_capacity(text.len());
    let lines: Vec<&str> = text.lines().collect();
    for (k, line) in lines.iter().enumerate() {
        if lines.get(k + 1) == Some(&"setowner.e")
            && (line.starts_with("push.i ") || line.starts_with("pushi.e "))
        {
            out.push_str("push <array owner id>\n");
            continue;
        }
        let (mn, arg) = line.split_once(' ').unwrap_or((line, ""));
        let mut arg = arg.to_string();
        if let Some(rest) = arg.strip_prefix('[')
            && let Some((kind, var)) = rest.split_once(']')
            && !kind.starts_with("instance")
            && !["function", "variable"].contains(&kind)
            && !mn.starts_with("pushref")
            && let Some((_, name)) = var.split_once('.')
        {
            arg = format!("[{kind}]_.{name}");
        }
        out.push_str(mn);
        if !arg.is_empty() {
            out.push(' ');
            out.push_str(&rename(&arg, names));
        }
        out.push('\n');
    }
    out
}

/// An instruction whose operand the suite writes otherwise: `pushref.i 123 Object` ->
/// `pushref.i [object]123`, `pushref.i f` -> `pushref.i [function]f`, `[multipush]` and
/// `[multipushpop]` references by their numbers.
fn convert_operand(mn: &str, arg: &str) -> Option<String> {
    if mn == "pushref.i" && !arg.starts_with('[') {
        return Some(match arg.split_once(' ') {
            Some((id, kind)) => format!("{mn} [{}]{id}", kind.trim().to_lowercase()),
            None => format!("{mn} [function]{arg}"),
        });
    }
    for (name, number) in [("[multipushpop]", "[0x90]"), ("[multipush]", "[0x10]")] {
        if let Some(rest) = arg.strip_prefix(name) {
            return Some(format!("{mn} {number}{rest}"));
        }
    }
    None
}

/// `text` with `#N` suffixes dropped and each whole name of `names` renamed.
fn rename(text: &str, names: &[(String, String)]) -> String {
    let word = |c: char| c.is_alphanumeric() || "_@$".contains(c);
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(c) = rest.chars().next() {
        if word(c) {
            let end = rest.find(|c| !word(c)).unwrap_or(rest.len());
            let w = &rest[..end];
            out.push_str(names.iter().find(|n| n.0 == w).map_or(w, |n| n.1.as_str()));
            rest = &rest[end..];
        } else if c == '#' && rest[1..].starts_with(|c: char| c.is_ascii_digit()) {
            let end = rest[1..]
                .find(|c: char| !c.is_ascii_digit())
                .map_or(rest.len(), |e| e + 1);
            rest = &rest[end..];
        } else {
            out.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    out
}

#[test]
fn external_suite() {
    let Ok(dir) = std::env::var("GMKIT_EXTERNAL_SUITE") else {
        assert!(
            std::env::var("GMKIT_REQUIRE_EXTERNAL_SUITE").is_err(),
            "GMKIT_REQUIRE_EXTERNAL_SUITE is set but GMKIT_EXTERNAL_SUITE is not"
        );
        eprintln!(
            "skipped: set GMKIT_EXTERNAL_SUITE to a directory made by scripts/external-suite.py"
        );
        return;
    };
    let text = std::fs::read_to_string(format!("{dir}/cases.jsonl"))
        .unwrap_or_else(|e| panic!("{dir}/cases.jsonl: {e}"));
    let show = std::env::var("GMKIT_SHOW_MISSES").is_ok();
    // kind -> (cases, agree, errors)
    let mut tally: BTreeMap<String, (u32, u32, u32)> = BTreeMap::new();
    let mut panics = Vec::new();
    let mut no_names_form = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let v: Value = serde_json::from_str(line).expect("a JSON case per line");
        let c = Case::from_json(&v).expect("a case with every field");
        let kind = if c.setup {
            format!("{} (game-specific setup)", c.kind)
        } else {
            c.kind.clone()
        };
        let result = catch_unwind(AssertUnwindSafe(|| match c.kind.as_str() {
            "decompile" => run_decompile(&c),
            "roundtrip" => run_roundtrip(&c),
            "bytecode" => run_bytecode(&c),
            k => Err(format!("unknown kind {k}")),
        }));
        if let Some(why) = &c.names_missing {
            no_names_form.push(format!("{} ({why})", c.label()));
        }
        let t = tally.entry(kind).or_default();
        t.0 += 1;
        match result {
            Ok(Ok((true, _))) => t.1 += 1,
            Ok(Ok((false, got))) => {
                if show {
                    let want = match c.kind.as_str() {
                        "roundtrip" => c.texts.get(1).or(c.texts.first()),
                        _ => c.texts.get(1),
                    };
                    eprintln!(
                        "MISS {} {:?} {:?}\n--- got\n{got}\n--- want\n{}\n",
                        c.label(),
                        version_of(&c.flags),
                        c.settings,
                        want.map_or("", String::as_str)
                    );
                }
            }
            Ok(Err(e)) => {
                t.2 += 1;
                if show {
                    eprintln!("ERROR {} {:?}: {e}\n", c.label(), version_of(&c.flags));
                }
            }
            Err(_) => panics.push(c.label()),
        }
    }
    for (kind, (n, ok, err)) in &tally {
        eprintln!(
            "external suite {kind}: {ok}/{n} agree ({:.1} %), {err} errors",
            100.0 * f64::from(*ok) / f64::from((*n).max(1))
        );
    }
    for n in &no_names_form {
        eprintln!("external suite: setup with no names-file form: {n}");
    }
    assert!(panics.is_empty(), "cases that panicked: {panics:?}");
}
