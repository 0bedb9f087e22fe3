//! A minimal text assembler for tests: builds instructions (and the VARI/FUNC/STRG entries
//! they name) from the disassembly notation of the spec (`pushi.e 5`, `pop.v.v self.a`,
//! `bf L1`, `L1:`).

#![allow(dead_code)]

use gmkit_data::chunks::code::{
    Comparison, DataType, ExtendedKind, InstanceType, Instruction, Opcode, PushValue, RefType,
    VariableRef,
};
use gmkit_data::chunks::function::{Function, Functions};
use gmkit_data::chunks::string_table::Strings;
use gmkit_data::chunks::variable::{Variable, Variables};
use gmkit_data::{DataFile, FormatVersion, Id, Version};
use std::collections::HashMap;

/// A data file holding just the names the assembled code uses.
pub struct Asm {
    pub file: DataFile,
}

impl Asm {
    /// bc 17 with the given layout version (`(2, 3)` etc.), or bc `bc` for older.
    pub fn new(bc: u8, major: u16, minor: u16) -> Asm {
        let file = DataFile {
            version: Version {
                bytecode: bc,
                ide: [if major >= 2 { 2 } else { 1 }, 0, 0, 0],
                format: FormatVersion::new(major, minor, 0, 0),
                lts: false,
            },
            strings: Some(Strings::default()),
            variables: Some(Variables::default()),
            functions: Some(Functions::default()),
            ..DataFile::default()
        };
        Asm { file }
    }

    /// bc 17 at the full version `major.minor.release` (2024.14.4 and the like).
    pub fn full(major: u16, minor: u16, release: u16) -> Asm {
        let mut a = Asm::new(17, major, minor);
        a.file.version.format = FormatVersion::new(major, minor, release, 0);
        a
    }

    /// Gives the file these root code entries (name, instructions), in order: one local, no
    /// arguments.
    pub fn set_code(&mut self, entries: Vec<(&str, Vec<Instruction>)>) {
        let entries = entries
            .into_iter()
            .map(|(name, ins)| gmkit_data::chunks::code::CodeEntry {
                name: self.string(name),
                body: gmkit_data::chunks::code::CodeBody::Instructions(ins),
                locals_count: 1,
                arguments_count: 0,
                arguments_flag: false,
                execution_offset: 0,
            })
            .collect();
        self.file.code = Some(gmkit_data::chunks::code::CodeEntries {
            entries,
            empty_body: false,
        });
    }

    fn string(&mut self, s: &str) -> gmkit_data::StringRef {
        let t = self.file.strings.as_mut().unwrap();
        t.find(s).unwrap_or_else(|| t.push(s))
    }

    fn var(&mut self, name: &str) -> Id<Variable> {
        let r = self.string(name);
        let vs = self.file.variables.as_mut().unwrap();
        let i = vs
            .variables
            .iter()
            .position(|v| v.name == r)
            .unwrap_or_else(|| {
                vs.variables.push(Variable {
                    name: r,
                    instance_type: 0,
                    variable_id: 0,
                });
                vs.variables.len() - 1
            });
        Id::new(i as u32)
    }

    fn func(&mut self, name: &str) -> Id<Function> {
        let r = self.string(name);
        let fs = self.file.functions.as_mut().unwrap();
        let i = fs
            .functions
            .iter()
            .position(|f| f.name == r)
            .unwrap_or_else(|| {
                fs.functions.push(Function::new(r));
                fs.functions.len() - 1
            });
        Id::new(i as u32)
    }

    fn varref(&mut self, s: &str) -> VariableRef {
        let (ref_type, rest) = if let Some(r) = s.strip_prefix("[array]") {
            (RefType::ARRAY, r)
        } else if let Some(r) = s.strip_prefix("[stacktop]") {
            (RefType::STACKTOP, r)
        } else if let Some(r) = s.strip_prefix("[multipush]") {
            (RefType::ARRAY_PUSH_AF, r)
        } else if let Some(r) = s.strip_prefix("[multipushpop]") {
            (RefType::ARRAY_POP_AF, r)
        } else if let Some(r) = s.strip_prefix("[instance]") {
            (RefType::INSTANCE, r)
        } else {
            (RefType::NORMAL, s)
        };
        let (inst, name) = rest.split_once('.').expect("scope.name");
        let instance = InstanceType(match inst {
            "self" => -1,
            "other" => -2,
            "global" => -5,
            "builtin" => -6,
            "local" => -7,
            "stacktop" => -9,
            "arg" => -15,
            "static" => -16,
            n => n.parse().expect("instance"),
        });
        VariableRef {
            variable: self.var(name),
            instance,
            ref_type,
        }
    }

    /// Assembles `text` (one instruction or label per line; `/` also separates).
    pub fn asm(&mut self, text: &str) -> Vec<Instruction> {
        let lines: Vec<&str> = text
            .split(['\n', '/'])
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        // First pass: sizes and labels.
        let mut labels = HashMap::new();
        let mut parsed = Vec::new();
        let mut addr = 0usize;
        for l in &lines {
            if let Some(lab) = l.strip_suffix(':') {
                labels.insert(lab.to_string(), addr);
                continue;
            }
            let ins = self.one(l, &HashMap::new(), 0);
            addr += ins.size();
            parsed.push(*l);
        }
        let mut out = Vec::new();
        let mut addr = 0usize;
        for l in parsed {
            let ins = self.one(l, &labels, addr);
            addr += ins.size();
            out.push(ins);
        }
        out
    }

    fn one(&mut self, l: &str, labels: &HashMap<String, usize>, addr: usize) -> Instruction {
        let (mn, arg) = l.split_once(' ').unwrap_or((l, ""));
        let arg = arg.trim();
        let mut parts = mn.split('.');
        let op = parts.next().unwrap();
        let t = |s: Option<&str>| -> DataType {
            match s.unwrap_or("v") {
                "d" => DataType::Double,
                "i" => DataType::Int32,
                "l" => DataType::Int64,
                "b" => DataType::Boolean,
                "v" => DataType::Variable,
                "s" => DataType::String,
                "e" => DataType::Int16,
                x => panic!("type {x}"),
            }
        };
        let t1 = t(parts.next());
        let t2 = t(parts.next());
        let target = |labels: &HashMap<String, usize>| -> i32 {
            let to = labels.get(arg).copied().unwrap_or(addr);
            (to as i32 - addr as i32) / 4
        };
        let binop = |o: Opcode| Instruction::Binary { op: o, t1, t2 };
        match op {
            "conv" => binop(Opcode::Conv),
            "mul" => binop(Opcode::Mul),
            "div" => binop(Opcode::Div),
            "rem" => binop(Opcode::Rem),
            "mod" => binop(Opcode::Mod),
            "add" => binop(Opcode::Add),
            "sub" => binop(Opcode::Sub),
            "and" => binop(Opcode::And),
            "or" => binop(Opcode::Or),
            "xor" => binop(Opcode::Xor),
            "shl" => binop(Opcode::Shl),
            "shr" => binop(Opcode::Shr),
            "neg" | "not" | "ret" | "exit" | "popz" => Instruction::Unary {
                op: match op {
                    "neg" => Opcode::Neg,
                    "not" => Opcode::Not,
                    "ret" => Opcode::Ret,
                    "exit" => Opcode::Exit,
                    _ => Opcode::Popz,
                },
                t: t1,
            },
            "cmp" => Instruction::Compare {
                cmp: match arg {
                    "LT" => Comparison::Lt,
                    "LTE" => Comparison::Le,
                    "EQ" => Comparison::Eq,
                    "NEQ" => Comparison::Ne,
                    "GTE" => Comparison::Ge,
                    _ => Comparison::Gt,
                },
                t1,
                t2,
            },
            "b" | "bt" | "bf" | "pushenv" => Instruction::Branch {
                op: match op {
                    "b" => Opcode::B,
                    "bt" => Opcode::Bt,
                    "bf" => Opcode::Bf,
                    _ => Opcode::PushEnv,
                },
                offset: target(labels),
            },
            "popenv" if arg == "<drop>" => Instruction::PopEnvExit,
            "popenv" => Instruction::Branch {
                op: Opcode::PopEnv,
                offset: target(labels),
            },
            "dup" => {
                let mut a = arg.split_whitespace();
                let count = a.next().unwrap().parse().unwrap();
                let extra = a
                    .next()
                    .map(|m| 0x80 | (m.parse::<u8>().unwrap() << 3))
                    .unwrap_or(0);
                Instruction::Dup {
                    t: t1,
                    count,
                    extra,
                }
            }
            "callv" => Instruction::CallV {
                t: t1,
                argc: arg.parse().unwrap(),
            },
            "call" => {
                let (name, n) = arg.rsplit_once(' ').unwrap();
                Instruction::Call {
                    t: t1,
                    argc: n.parse().unwrap(),
                    function: self.func(name),
                }
            }
            "pop" if t1 == DataType::Int16 => Instruction::PopSwap {
                t2,
                arg: arg.parse().unwrap(),
            },
            "pop" => Instruction::Pop {
                t1,
                t2,
                var: self.varref(arg),
            },
            "push" | "pushi" | "pushloc" | "pushglb" | "pushbltn" => {
                let op = match op {
                    "push" => Opcode::Push,
                    "pushi" => Opcode::PushI,
                    "pushloc" => Opcode::PushLoc,
                    "pushglb" => Opcode::PushGlb,
                    _ => Opcode::PushBltn,
                };
                let value = match t1 {
                    DataType::Int16 => PushValue::Int16(arg.parse().unwrap()),
                    DataType::Int32 => match arg.strip_prefix("[function]") {
                        Some(f) => PushValue::Function(self.func(f)),
                        None => PushValue::Int32(arg.parse().unwrap()),
                    },
                    DataType::Int64 => PushValue::Int64(arg.parse().unwrap()),
                    DataType::Double => PushValue::Double(arg.parse().unwrap()),
                    DataType::String => PushValue::String(self.string(arg.trim_matches('"'))),
                    DataType::Boolean => PushValue::Other {
                        t: DataType::Boolean,
                        value: arg.parse().unwrap(),
                    },
                    _ => PushValue::Variable(self.varref(arg)),
                };
                Instruction::Push { op, value }
            }
            // `pushref.i TYPE:INDEX`: an asset reference by its raw type number.
            "pushref" => {
                let (ty, index) = arg.split_once(':').expect("pushref TYPE:INDEX");
                Instruction::Extended {
                    kind: ExtendedKind::PUSHREF,
                    t: DataType::Int32,
                    operand: Some(gmkit_data::chunks::code::ExtOperand::Asset {
                        asset_type: ty.parse().expect("asset type"),
                        index: index.parse().expect("asset index"),
                    }),
                }
            }
            ext => {
                let kind = match ext {
                    "chkindex" => ExtendedKind::CHKINDEX,
                    "pushaf" => ExtendedKind::PUSHAF,
                    "popaf" => ExtendedKind::POPAF,
                    "pushac" => ExtendedKind::PUSHAC,
                    "setowner" => ExtendedKind::SETOWNER,
                    "isstaticok" => ExtendedKind::ISSTATICOK,
                    "setstatic" => ExtendedKind::SETSTATIC,
                    "savearef" => ExtendedKind::SAVEAREF,
                    "restorearef" => ExtendedKind::RESTOREAREF,
                    "isnullish" => ExtendedKind::CHKNULLISH,
                    x => panic!("unknown mnemonic {x}"),
                };
                Instruction::Extended {
                    kind,
                    t: DataType::Int16,
                    operand: None,
                }
            }
        }
    }
}

/// A file of version (bytecode, major, minor) `v` with objects `obj_wall` (0), `obj_player`
/// (1) and sprites `spr_player` (0), `spr_wall` (1).
pub fn with_assets(v: (u8, u16, u16)) -> Asm {
    use gmkit_data::chunks::object::{Object, Objects};
    use gmkit_data::chunks::sprite::{Sprite, Sprites};
    let mut a = Asm::new(v.0, v.1, v.2);
    let mut s = |n: &str| a.file.strings.as_mut().unwrap().push(n);
    let objects = ["obj_wall", "obj_player"].map(|n| {
        Some(Object {
            name: s(n),
            ..Object::default()
        })
    });
    let sprites = ["spr_player", "spr_wall"].map(|n| {
        Some(Sprite {
            name: s(n),
            ..Sprite::default()
        })
    });
    a.file.objects = Some(Objects {
        objects: objects.to_vec(),
    });
    a.file.sprites = Some(Sprites {
        sprites: sprites.to_vec(),
    });
    a
}

/// Compiles GML `source` for the version and checks the result against the assembly
/// `expected`. With `entry`, the file gets one code entry holding `entry`'s assembly (the
/// compiler takes array-owner ids and similar from the entry's own code).
pub fn compiles_to(bc: u8, major: u16, minor: u16, source: &str, expected: &str) {
    compiles_to_in(bc, major, minor, source, expected, None)
}

/// [`compiles_to`] with the original code of the entry (for ids the compiler learns from it).
pub fn compiles_to_in(
    bc: u8,
    major: u16,
    minor: u16,
    source: &str,
    expected: &str,
    entry: Option<&str>,
) {
    let mut a = Asm::new(bc, major, minor);
    let want = a.asm(expected);
    if let Some(text) = entry {
        let ins = a.asm(text);
        a.set_code(vec![("gml_Object_test_Create_0", ins)]);
    }
    let game = gmkit_gml::Game::new(&a.file);
    let names = gmkit_gml::compile::Names::new(&game);
    let tree = gmkit_gml::parse::parse(source).expect("parses");
    let got = gmkit_gml::compile::compile_entry(&game, &names, 0, &tree).expect("compiles");
    let dis = gmkit_data::chunks::code::asm::Disassembler::new(&a.file);
    assert_eq!(
        dis.instructions(&got),
        dis.instructions(&want),
        "compiling {source:?}"
    );
}

/// Decompiles `text` for the version and prints it.
pub fn gml(bc: u8, major: u16, minor: u16, text: &str) -> String {
    let mut a = Asm::new(bc, major, minor);
    let ins = a.asm(text);
    let game = gmkit_gml::Game::new(&a.file);
    let d = gmkit_gml::decompile::decompile_instructions(&game, &ins);
    assert_eq!(d.failures, 0, "{:?}", d.failure_notes);
    gmkit_gml::print::print_stmts(&d.body)
}

/// Compiles `src` for the version in a file that knows `names` (assembly naming the variables
/// and functions the source uses), decompiles the result and prints it; the print must parse
/// and compile to the same instructions. Returns the print.
pub fn round_trip(bc: u8, major: u16, minor: u16, names: &str, src: &str) -> String {
    let mut a = Asm::new(bc, major, minor);
    a.asm(names);
    let game = gmkit_gml::Game::new(&a.file);
    let names = gmkit_gml::compile::Names::new(&game);
    let compile = |text: &str| {
        let tree = gmkit_gml::parse::parse(text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
        gmkit_gml::compile::compile_entry(&game, &names, 0, &tree)
            .unwrap_or_else(|e| panic!("{text:?}: {e}"))
    };
    let ins = compile(src);
    let d = gmkit_gml::decompile::decompile_instructions(&game, &ins);
    assert_eq!(d.failures, 0, "{src:?}: {:?}", d.failure_notes);
    let text = gmkit_gml::print::print_stmts(&d.body);
    assert_eq!(compile(&text), ins, "{src:?} printed as {text:?}");
    text
}

/// Replaces root entry `i`'s code in a copy of `file` with `text`
/// (`gmkit_gml::entries::replace_code`): an error when that fails, else the first instruction
/// that differs from the entry's own (`None`: identical), described.
pub fn replaced_difference(
    file: &DataFile,
    i: usize,
    text: &str,
) -> Result<Option<String>, String> {
    let code = file.code.as_ref().expect("a file with code");
    let before = code.instructions(i).expect("decodes");
    let mut edited = file.clone();
    gmkit_gml::entries::replace_code(&mut edited, i, text).map_err(|e| e.to_string())?;
    let after = edited
        .code
        .as_ref()
        .expect("code")
        .instructions(i)
        .expect("decodes");
    Ok((0..before.len().max(after.len()))
        .find(|&k| before.get(k) != after.get(k))
        .map(|k| {
            format!(
                "instruction {k}: {:?} became {:?}",
                before.get(k),
                after.get(k)
            )
        }))
}

/// One corpus game per family: GMS 1.4 (bytecode 14 and 16), GMS2 2.0–2.2, 2.3–2022, 2023+.
pub const FAMILY_GAMES: &[&str] = &[
    "tricking-the-vikings.win",
    "bubblinaway.win",
    "space-war-assignment.win",
    "acrandomizer.win",
    "longdog.win",
];

/// Corpus file `name`, parsed (`None` without a corpus: the caller skips with `need!`).
pub fn load(name: &str) -> Option<DataFile> {
    let bytes = gmkit_testdata::corpus_file(name)?;
    Some(gmkit_data::parse_bytes(bytes).expect("corpus file parses"))
}

/// The first root entry of `file` without nested functions.
pub fn plain_root_entry(file: &DataFile) -> usize {
    let game = gmkit_gml::Game::new(file);
    let code = file.code.as_ref().expect("code");
    (0..code.entries.len())
        .find(|&i| code.entries[i].body.is_root() && game.children(i).is_empty())
        .expect("a root entry")
}
