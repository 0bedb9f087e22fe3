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
    /// The mock game's assets: (type, index, name).
    assets: Vec<(String, usize, String)>,
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
                .map(|list| {
                    list.iter()
                        .filter_map(|a| {
                            let a = a.as_array()?;
                            Some((
                                a.first()?.as_str()?.to_string(),
                                usize::try_from(a.get(1)?.as_u64()?).ok()?,
                                a.get(2)?.as_str()?.to_string(),
                            ))
                        })
                        .collect()
                })
                .unwrap_or_default(),
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
/// names as real entry names ([`real_function_name`]), `[multipush]`/`[multipushpop]` as
/// `[arraypushaf]`/`[arraypopaf]`, `pushref.i 123 Object` as `pushref.i [object]123`,
/// `pushref.i f` as `pushref.i [function]f`, and before bytecode 15 `pushi.T` as `push.T`.
fn suite_notation(text: &str, bytecode: u8) -> String {
    let mut out = String::with_capacity(text.len() + 64);
    for line in text.lines() {
        let mut l = line
            .trim()
            .replace("[multipushpop]", "[arraypopaf]")
            .replace("[multipush]", "[arraypushaf]");
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
        let mut l = renamed;
        if let Some(arg) = l.strip_prefix("pushref.i ") {
            let parts: Vec<&str> = arg.split_whitespace().collect();
            l = match parts[..] {
                [n, kind] if n.parse::<i64>().is_ok() => {
                    format!("pushref.i [{}]{n}", kind.to_ascii_lowercase())
                }
                [f] if !f.starts_with('[') => format!("pushref.i [function]{f}"),
                _ => l.clone(),
            };
        }
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
    let game = Game::new(file);
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

/// The mock game's sprites and objects (at most 4096 of each: the suite's indices are small),
/// so that their numbers read as their names.
fn add_assets(file: &mut DataFile, assets: &[(String, usize, String)]) {
    for (kind, index, name) in assets {
        if *index >= 4096 {
            continue;
        }
        let name = file.intern(name);
        match kind.as_str() {
            "Sprite" => {
                let list = &mut file.sprites.get_or_insert_with(Default::default).sprites;
                if list.len() <= *index {
                    list.resize(index + 1, None);
                }
                list[*index] = Some(gmkit_data::chunks::sprite::Sprite {
                    name,
                    ..Default::default()
                });
            }
            "Object" => {
                let list = &mut file.objects.get_or_insert_with(Default::default).objects;
                if list.len() <= *index {
                    list.resize(index + 1, None);
                }
                list[*index] = Some(gmkit_data::chunks::object::Object {
                    name,
                    ..Default::default()
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
    let got = decompiled(&file, entry)?;
    Ok((agree(&got, want), got))
}

/// Compiles GML as a new entry (a global script, or an object's Create event) of an empty file
/// of the case's version; the file and the entry's index.
fn compile_case(c: &Case, src: &str) -> Result<(DataFile, usize), String> {
    let mut file = empty_file(version_of(&c.flags));
    let target = if c.global_script {
        gmkit_data::code_entry::EntryTarget::Script {
            name: "test".into(),
        }
    } else {
        let name = file.intern("obj_test");
        file.objects = Some(gmkit_data::chunks::object::Objects {
            objects: vec![Some(gmkit_data::chunks::object::Object {
                name,
                // Every event type of GMS 2.3+ (15); older versions have fewer, none below
                // Create.
                events: vec![Vec::new(); 15],
                ..Default::default()
            })],
        });
        gmkit_data::code_entry::EntryTarget::Event {
            object: gmkit_data::Id::new(0),
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
    let (file, entry) = compile_case(c, src)?;
    let got: Vec<Instruction> = file
        .code
        .as_ref()
        .and_then(|code| code.instructions(entry).ok())
        .ok_or("no compiled code")?
        .to_vec();
    let mut want_file = file.clone();
    let (ours, _) = convert_asm(asm);
    let want = Assembler::new(&mut want_file)
        .assemble(&ours)
        .map_err(|e| format!("expected assembly: {e}"))?
        .instructions;
    let dis = Disassembler::new(&want_file);
    let got_text = dis.instructions(&got);
    Ok((got_text == dis.instructions(&want), got_text))
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
    assert!(panics.is_empty(), "cases that panicked: {panics:?}");
}
