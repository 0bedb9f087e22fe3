//! Assembly text → instructions.

use super::super::instruction::{ExtOperand, Instruction, PushValue, VariableRef};
use super::super::opcode::{Comparison, DataType, ExtendedKind, InstanceType, Opcode, RefType};
use super::symbols::{AssetKind, INSTANCE_KEYWORDS, Scope, Symbols, text, var_class};
use super::{AsmError, ident_char, ident_start};
use crate::DataFile;
use crate::GmString;
use crate::chunks::function::Function;
use crate::chunks::variable::{Variable, VariablesHeader};
use crate::refs::{Id, StringRef};
use std::collections::HashMap;

/// What [`Assembler::assemble`] gives back.
#[derive(Clone, Debug, PartialEq)]
pub struct Assembled {
    /// The instructions.
    pub instructions: Vec<Instruction>,
    /// The `.entry NAME` markers: each child entry's name and the byte offset where it starts
    /// (its execution offset), in text order.
    pub entries: Vec<(GmString, u32)>,
}

/// Turns assembly text into instructions, resolving names against a data file and adding the
/// strings, variables and functions the text names that the file does not have yet. The name
/// tables are built once, in [`Assembler::new`]; reuse one assembler for many entries.
pub struct Assembler<'f> {
    file: &'f mut DataFile,
    sym: Symbols,
    scope: Scope,
}

/// Table sizes before an assembly, to undo its additions when it fails.
struct Saved {
    strings: usize,
    variables: usize,
    header: Option<VariablesHeader>,
    functions: usize,
}

impl<'f> Assembler<'f> {
    /// An assembler adding to `file`.
    pub fn new(file: &'f mut DataFile) -> Self {
        let sym = Symbols::new(file);
        Assembler {
            file,
            sym,
            scope: Scope::default(),
        }
    }

    /// An assembler adding to `file`'s strings, variables and functions, resolving asset names
    /// against `assets`: `file` may then be a copy of only the version and those three tables
    /// of `assets` (what assembling reads and changes), so that several threads can each
    /// assemble against their own copy without copying the whole model.
    pub fn with_assets_of(file: &'f mut DataFile, assets: &DataFile) -> Self {
        let sym = Symbols::with_assets_of(file, assets);
        Assembler {
            file,
            sym,
            scope: Scope::default(),
        }
    }

    /// The data file (with whatever entries the assembled texts added).
    pub fn file(&self) -> &DataFile {
        self.file
    }

    /// Assembles one entry's text. On error nothing is added to the file.
    pub fn assemble(&mut self, text: &str) -> Result<Assembled, AsmError> {
        let saved = Saved {
            strings: self.file.strings.as_ref().map_or(0, |s| s.len()),
            variables: self.file.variables.as_ref().map_or(0, |v| v.variables.len()),
            header: self.file.variables.as_ref().and_then(|v| v.header),
            functions: self.file.functions.as_ref().map_or(0, |f| f.functions.len()),
        };
        let r = self.run(text);
        if r.is_err() {
            let added = self.file.strings.as_ref().map_or(0, |s| s.len()) != saved.strings
                || self.file.variables.as_ref().map_or(0, |v| v.variables.len()) != saved.variables
                || self.file.functions.as_ref().map_or(0, |f| f.functions.len()) != saved.functions;
            if added {
                if let Some(s) = &mut self.file.strings {
                    s.truncate(saved.strings);
                }
                if let Some(v) = &mut self.file.variables {
                    v.variables.truncate(saved.variables);
                    v.header = saved.header;
                }
                if let Some(f) = &mut self.file.functions {
                    f.functions.truncate(saved.functions);
                }
                self.sym.refill_tables(self.file);
            }
        }
        r
    }

    fn run(&mut self, src: &str) -> Result<Assembled, AsmError> {
        self.scope = Scope::default();
        let mut ins: Vec<Instruction> = Vec::new();
        let mut labels: HashMap<&str, usize> = HashMap::new();
        // (instruction index, label, line, column)
        let mut fixups: Vec<(usize, &str, u32, u32)> = Vec::new();
        let mut entries: Vec<(GmString, usize)> = Vec::new();
        for (n, line) in src.lines().enumerate() {
            let mut c = Cur {
                s: line,
                pos: 0,
                line: n as u32 + 1,
            };
            c.ws();
            if c.at_end() {
                continue;
            }
            if c.eat_str(":[") {
                let at = c.pos;
                let name = c.take_while(|ch| ch != ']');
                if name.trim().is_empty() {
                    return Err(c.err_at(at, "a label name"));
                }
                c.expect(']', "`]` closing the label")?;
                c.end()?;
                if labels.insert(name.trim(), ins.len()).is_some() {
                    return Err(c.err_at(at, "a label not defined before"));
                }
                continue;
            }
            if c.eat_str(".entry") {
                c.ws();
                let at = c.pos;
                let tok = c.name("an entry name")?;
                let Some(name) = tok.text else {
                    return Err(c.err_at(at, "an entry name"));
                };
                c.end()?;
                entries.push((GmString(name.into()), ins.len()));
                continue;
            }
            let i = self.instruction(&mut c, &mut fixups, ins.len())?;
            c.end()?;
            ins.push(i);
        }
        let mut pos = Vec::with_capacity(ins.len() + 1);
        let mut p = 0u32;
        for i in &ins {
            pos.push(p);
            p = p.saturating_add(i.size() as u32);
        }
        pos.push(p);
        let limit: i64 = if self.sym.new_bytecode { 1 << 22 } else { 1 << 23 };
        for (k, label, line, column) in fixups {
            let Some(&t) = labels.get(label) else {
                return Err(AsmError {
                    line,
                    column,
                    expected: "a label defined with `:[name]`".into(),
                    found: format!("[{label}]"),
                });
            };
            let offset = (pos[t] as i64 - pos[k] as i64) / 4;
            if !(-limit..limit).contains(&offset) {
                return Err(AsmError {
                    line,
                    column,
                    expected: format!("a branch target within {limit} words"),
                    found: format!("{offset} words"),
                });
            }
            if let Instruction::Branch { offset: o, .. } = &mut ins[k] {
                *o = offset as i32;
            }
        }
        Ok(Assembled {
            instructions: ins,
            entries: entries.into_iter().map(|(n, k)| (n, pos[k])).collect(),
        })
    }

    fn instruction<'t>(
        &mut self,
        c: &mut Cur<'t>,
        fixups: &mut Vec<(usize, &'t str, u32, u32)>,
        index: usize,
    ) -> Result<Instruction, AsmError> {
        let start = c.pos;
        let mn = c.take_while(|ch| !ch.is_whitespace() && ch != ';');
        let mut parts = mn.split('.');
        let name = parts.next().unwrap_or_default();
        let mut types = Vec::new();
        for p in parts {
            match suffix(p) {
                Some(t) => types.push(t),
                None => {
                    return Err(c.err_at(
                        start,
                        "data type suffixes (d f i l b v s inst del und u e) after the mnemonic",
                    ));
                }
            }
        }
        let new = self.sym.new_bytecode;
        let types_n = |n: usize, c: &Cur| -> Result<(), AsmError> {
            if types.len() == n {
                Ok(())
            } else {
                Err(c.err_at(
                    start,
                    format!(
                        "`{name}` with {n} data type{}",
                        if n == 1 { "" } else { "s" }
                    ),
                ))
            }
        };
        let op = opcode(name);
        if let Some(kind) = op.is_none().then(|| extended_kind(name)).flatten() {
            types_n(1, c)?;
            let t = types[0];
            let operand = if t == DataType::Int32 {
                c.ws1()?;
                Some(self.ext_operand(c)?)
            } else {
                None
            };
            return Ok(Instruction::Extended { kind, t, operand });
        }
        let Some(op) = op else {
            return Err(c.err_at(start, "an instruction mnemonic"));
        };
        if !new && op.old_code().is_none() {
            return Err(c.err_at(start, "an instruction that exists in bytecode 14 and older"));
        }
        Ok(match op {
            op if op.is_binary() => {
                types_n(2, c)?;
                Instruction::Binary {
                    op,
                    t1: types[0],
                    t2: types[1],
                }
            }
            op if op.is_unary() => {
                types_n(1, c)?;
                Instruction::Unary { op, t: types[0] }
            }
            Opcode::Cmp => {
                types_n(2, c)?;
                c.ws1()?;
                let at = c.pos;
                let w = c.take_while(|ch| ch.is_ascii_alphabetic());
                let cmp = (1..=6)
                    .filter_map(Comparison::from_u8)
                    .find(|k| k.name() == w)
                    .ok_or_else(|| c.err_at(at, "a comparison (LT LTE EQ NEQ GTE GT)"))?;
                Instruction::Compare {
                    cmp,
                    t1: types[0],
                    t2: types[1],
                }
            }
            Opcode::Pop => {
                types_n(2, c)?;
                c.ws1()?;
                if types[0] == DataType::Int16 {
                    Instruction::PopSwap {
                        t2: types[1],
                        arg: c.int("a 16-bit argument")?,
                    }
                } else {
                    Instruction::Pop {
                        t1: types[0],
                        t2: types[1],
                        var: self.var_ref(c)?,
                    }
                }
            }
            Opcode::Dup => {
                types_n(1, c)?;
                c.ws1()?;
                let count = c.int("a count (0-255)")?;
                c.ws();
                let extra = if c.eat_str("raw:") {
                    c.int("a byte (0-255)")?
                } else if c.peek().is_some_and(|ch| ch.is_ascii_digit()) {
                    let m: u8 = c.int("a swap size (0-15)")?;
                    if m > 15 {
                        return Err(c.err_at(c.pos, "a swap size (0-15)"));
                    }
                    0x80 | m << 3
                } else {
                    0
                };
                Instruction::Dup {
                    t: types[0],
                    count,
                    extra,
                }
            }
            Opcode::CallV => {
                types_n(1, c)?;
                c.ws1()?;
                Instruction::CallV {
                    t: types[0],
                    argc: c.int("an argument count")?,
                }
            }
            op if op.is_branch() => {
                types_n(0, c)?;
                c.ws1()?;
                let at = c.pos;
                if c.eat('[') {
                    let l = c.take_while(|ch| ch != ']');
                    c.expect(']', "`]` closing the label")?;
                    fixups.push((index, l.trim(), c.line, c.column(at)));
                    Instruction::Branch { op, offset: 0 }
                } else if op == Opcode::PopEnv && c.eat_str("<drop>") {
                    if !new {
                        return Err(c.err_at(at, "a label (`popenv <drop>` needs bytecode 15+)"));
                    }
                    Instruction::PopEnvExit
                } else {
                    Instruction::Branch {
                        op,
                        offset: c.int("a label `[name]` or a word offset")?,
                    }
                }
            }
            op if op.is_push() => {
                types_n(1, c)?;
                c.ws1()?;
                let value = match types[0] {
                    DataType::Int16 => PushValue::Int16(c.int("a 16-bit integer")?),
                    DataType::Int32 => {
                        if c.eat_str("[function]") {
                            PushValue::Function(Id::new(self.func(c)?))
                        } else if c.eat_str("[variable]") {
                            let at = c.pos;
                            let tok = c.name("a variable name")?;
                            PushValue::VariableId(Id::new(self.var_id(c, at, tok, None)?))
                        } else {
                            PushValue::Int32(c.int(
                                "a 32-bit integer, `[function]name` or `[variable]name`",
                            )?)
                        }
                    }
                    DataType::Int64 => PushValue::Int64(c.int("a 64-bit integer")?),
                    DataType::Double => PushValue::Double(c.float64()?),
                    DataType::Float => PushValue::Float(c.float32()?),
                    DataType::String => PushValue::String(self.string(c)?),
                    DataType::Variable => PushValue::Variable(self.var_ref(c)?),
                    t => PushValue::Other {
                        t,
                        value: c.int("a 32-bit unsigned integer")?,
                    },
                };
                Instruction::Push { op, value }
            }
            Opcode::Call => {
                types_n(1, c)?;
                c.ws1()?;
                // `[by-name]"name"`: a call on no FUNC chain that names its callee by string.
                let by_name = c.eat_str("[by-name]");
                let callee = if by_name {
                    Err(self.string(c)?)
                } else {
                    Ok(Id::new(self.func(c)?))
                };
                if !c.eat_str("(argc=") {
                    return Err(c.err_at(c.pos, "`(argc=N)` after the function name"));
                }
                let argc = c.int("an argument count")?;
                c.expect(')', "`)`")?;
                match callee {
                    Ok(function) => Instruction::Call {
                        t: types[0],
                        argc,
                        function,
                    },
                    Err(name) => Instruction::CallByName {
                        t: types[0],
                        argc,
                        name,
                    },
                }
            }
            _ => return Err(c.err_at(start, "an instruction mnemonic")),
        })
    }

    /// `[function]name`, `[function:N]name`, `[kind]name`, `[kind]index`, `[asset:N]index`.
    fn ext_operand(&mut self, c: &mut Cur) -> Result<ExtOperand, AsmError> {
        let at = c.pos;
        c.expect('[', "an asset reference `[kind]name` or `[function]name`")?;
        let word = c.take_while(|ch| ch != ']');
        c.expect(']', "`]`")?;
        if word == "function" || word.starts_with("function:") {
            let asset_type = match word.strip_prefix("function:") {
                Some(n) => n
                    .parse()
                    .map_err(|_| c.err_at(at, "an asset type number (0-255)"))?,
                None => self.sym.script_asset_type,
            };
            return Ok(ExtOperand::Function {
                function: Id::new(self.func(c)?),
                asset_type,
            });
        }
        if let Some(n) = word.strip_prefix("asset:") {
            let asset_type = n
                .parse()
                .map_err(|_| c.err_at(at, "an asset type number (0-255)"))?;
            let index = c.int("an asset index")?;
            return asset(c, at, asset_type, index);
        }
        let Some(kind) = AssetKind::from_name(word) else {
            return Err(c.err_at(
                at,
                "an asset kind (object sprite sound room background path script font timeline shader sequence animcurve particlesystem roominstance), `function` or `asset:N`",
            ));
        };
        let asset_type = kind.number(self.sym.renumbered);
        let index = if c.peek().is_some_and(|ch| ch.is_ascii_digit()) {
            c.int("an asset index")?
        } else {
            let nat = c.pos;
            let tok = c.name(&format!("the name of a {}", kind.name()))?;
            match tok.text.as_deref().and_then(|t| self.sym.resolve_asset(kind, t)) {
                Some(i) => i,
                None => return Err(c.err_at(nat, format!("the name of a {}", kind.name()))),
            }
        };
        asset(c, at, asset_type, index)
    }

    /// `[reftype]instance.name`.
    fn var_ref(&mut self, c: &mut Cur) -> Result<VariableRef, AsmError> {
        let mut ref_type = RefType::NORMAL;
        let at = c.pos;
        if c.eat('[') {
            let w = c.take_while(|ch| ch != ']');
            c.expect(']', "`]`")?;
            ref_type = match w {
                "array" => RefType::ARRAY,
                "stacktop" => RefType::STACKTOP,
                "instance" => RefType::INSTANCE,
                "arraypushaf" => RefType::ARRAY_PUSH_AF,
                "arraypopaf" => RefType::ARRAY_POP_AF,
                w => match w
                    .strip_prefix("0x")
                    .and_then(|h| u8::from_str_radix(h, 16).ok())
                {
                    Some(b) if b & 7 == 0 => RefType(b),
                    _ => {
                        return Err(c.err_at(
                            at,
                            "a reference type ([array] [stacktop] [instance] [arraypushaf] [arraypopaf] or [0xNN] with the low 3 bits clear)",
                        ));
                    }
                },
            };
        }
        let iat = c.pos;
        let instance = match c.peek() {
            Some(ch) if ch.is_ascii_digit() || ch == '-' => {
                InstanceType(c.int("an instance type number")?)
            }
            Some(ch) if ident_start(ch) => {
                let w = c.take_while(ident_char);
                match INSTANCE_KEYWORDS.iter().find(|(k, _)| *k == w) {
                    Some(&(_, v)) => InstanceType(v),
                    None => match self.sym.resolve_asset(AssetKind::Object, w.as_bytes()) {
                        Some(i) if i <= i16::MAX as u32 => InstanceType(i as i16),
                        _ => return Err(c.err_at(iat, INSTANCE_EXPECTED)),
                    },
                }
            }
            _ => return Err(c.err_at(iat, INSTANCE_EXPECTED)),
        };
        c.expect('.', "`.` between the instance and the variable name")?;
        let nat = c.pos;
        let tok = c.name("a variable name")?;
        let variable = Id::new(self.var_id(c, nat, tok, Some(instance))?);
        Ok(VariableRef {
            variable,
            instance,
            ref_type,
        })
    }

    /// The VARI entry of a variable name, created when the file has none of that name.
    fn var_id(
        &mut self,
        c: &Cur,
        at: usize,
        tok: NameTok,
        inst: Option<InstanceType>,
    ) -> Result<u32, AsmError> {
        let n = self.file.variables.as_ref().map_or(0, |v| v.variables.len());
        let (t, id) = match (tok.text, tok.id) {
            (None, Some(id)) if (id as usize) < n => return Ok(id),
            (None, _) => return Err(c.err_at(at, format!("a variable number below {n}"))),
            (Some(t), Some(id)) if var_name(self.file, id) == Some(&t[..]) => (t, id),
            (Some(t), _) => match self.sym.scoped_var(&self.scope, &t, inst) {
                Some(id) => (t, id),
                None => {
                    let id = self.new_var(c, at, &t, inst)?;
                    (t, id)
                }
            },
        };
        self.sym.bind_var(&mut self.scope, &t, inst, id);
        Ok(id)
    }

    fn new_var(
        &mut self,
        c: &Cur,
        at: usize,
        t: &[u8],
        inst: Option<InstanceType>,
    ) -> Result<u32, AsmError> {
        if self.file.variables.is_none() {
            return Err(c.err_at(at, "a known variable (this file has no VARI chunk)"));
        }
        let name = self.string_ref(c, at, t)?;
        let v = &self.file.version;
        let (gms23, bc15) = (v.at_least(2, 3), v.bytecode == 15);
        let Some(vars) = &mut self.file.variables else {
            return Err(c.err_at(at, "a known variable (this file has no VARI chunk)"));
        };
        let class = inst.map_or(-1, var_class);
        let mut var = Variable {
            name,
            instance_type: 0,
            variable_id: 0,
        };
        if self.sym.new_bytecode {
            var.instance_type = class;
            let locals = vars
                .variables
                .iter()
                .filter(|v| v.instance_type == -7)
                .count() as i32;
            let h = vars.header.get_or_insert_with(Default::default);
            var.variable_id = if gms23 {
                // 2.3+: the name's STRG index, for locals and instance/global variables.
                if class != -7 && class != -6 {
                    h.count_a += 1;
                    h.count_b += 1;
                }
                name.0 as i32
            } else if class == -7 {
                locals
            } else if bc15 && class == -5 {
                h.count_a += 1;
                h.count_a as i32 - 1
            } else if bc15 {
                h.count_b += 1;
                h.count_b as i32 - 1
            } else {
                h.count_a += 1;
                h.count_b += 1;
                h.count_a as i32 - 1
            };
        }
        let index = vars.variables.len() as u32;
        let inst_type = var.instance_type;
        vars.variables.push(var);
        self.sym.add_var(self.file, index, name, inst_type);
        Ok(index)
    }

    /// A function name (with optional `#id`); a FUNC entry is created for an unknown name.
    fn func(&mut self, c: &mut Cur) -> Result<u32, AsmError> {
        let at = c.pos;
        let tok = c.name("a function name")?;
        let n = self.file.functions.as_ref().map_or(0, |f| f.functions.len());
        let (t, id) = match (tok.text, tok.id) {
            (None, Some(id)) if (id as usize) < n => return Ok(id),
            (None, _) => return Err(c.err_at(at, format!("a function number below {n}"))),
            (Some(t), Some(id)) if func_name(self.file, id) == Some(&t[..]) => (t, id),
            (Some(t), _) => match self.sym.scoped_func(&self.scope, &t) {
                Some(id) => (t, id),
                None => {
                    if self.file.functions.is_none() {
                        return Err(c.err_at(at, "a known function (this file has no FUNC chunk)"));
                    }
                    let name = self.string_ref(c, at, &t)?;
                    let Some(fs) = &mut self.file.functions else {
                        return Err(c.err_at(at, "a known function (this file has no FUNC chunk)"));
                    };
                    let index = fs.functions.len() as u32;
                    fs.functions.push(Function::new(name));
                    self.sym.add_func(self.file, index, name);
                    (t, index)
                }
            },
        };
        self.sym.bind_func(&mut self.scope, &t, id);
        Ok(id)
    }

    /// A string constant: `"text"`, `"text"#id` or `#id`.
    fn string(&mut self, c: &mut Cur) -> Result<StringRef, AsmError> {
        let at = c.pos;
        let tok = if c.peek() == Some('"') || c.peek() == Some('#') {
            c.name("a quoted string")?
        } else {
            return Err(c.err_at(at, "a quoted string"));
        };
        let n = self.file.strings.as_ref().map_or(0, |s| s.len());
        let (t, id) = match (tok.text, tok.id) {
            (None, Some(id)) if (id as usize) < n => return Ok(StringRef(id)),
            (None, _) => return Err(c.err_at(at, format!("a string number below {n}"))),
            (Some(t), Some(id)) if text(self.file, StringRef(id)) == Some(&t[..]) => {
                (t, StringRef(id))
            }
            (Some(t), _) => match self.sym.scoped_string(&self.scope, &t) {
                Some(id) => (t, StringRef(id)),
                None => {
                    let r = self.string_ref(c, at, &t)?;
                    (t, r)
                }
            },
        };
        self.sym.bind_string(&mut self.scope, &t, id.0);
        Ok(id)
    }

    /// The first STRG entry with text `t`, added when there is none.
    fn string_ref(&mut self, c: &Cur, at: usize, t: &[u8]) -> Result<StringRef, AsmError> {
        if let Some(i) = self.sym.resolve_string(t) {
            return Ok(StringRef(i));
        }
        let Some(s) = &mut self.file.strings else {
            return Err(c.err_at(at, "a known string (this file has no STRG chunk)"));
        };
        let r = s.push(GmString(t.to_vec().into()));
        self.sym.strings.insert(t.into(), r.0);
        Ok(r)
    }
}

fn var_name(f: &DataFile, id: u32) -> Option<&[u8]> {
    let v = f.variables.as_ref()?.variables.get(id as usize)?;
    text(f, v.name)
}

fn func_name(f: &DataFile, id: u32) -> Option<&[u8]> {
    let v = f.functions.as_ref()?.functions.get(id as usize)?;
    text(f, v.name)
}

const INSTANCE_EXPECTED: &str = "an instance (self other all noone global builtin local stacktop arg static, a number or an object name)";

fn asset(c: &Cur, at: usize, asset_type: u8, index: u32) -> Result<ExtOperand, AsmError> {
    if index > 0xFF_FFFF {
        return Err(c.err_at(at, "an asset index below 2^24"));
    }
    Ok(ExtOperand::Asset { asset_type, index })
}

fn suffix(s: &str) -> Option<DataType> {
    use DataType::*;
    Some(match s {
        "v" => Variable,
        "i" => Int32,
        "e" => Int16,
        "d" => Double,
        "b" => Boolean,
        "s" => String,
        "l" => Int64,
        "f" => Float,
        "inst" => Instance,
        "del" => Delete,
        "und" => Undefined,
        "u" => UInt32,
        _ => return None,
    })
}

fn opcode(name: &str) -> Option<Opcode> {
    use Opcode::*;
    Some(match name {
        "push" => Push,
        "pushi" => PushI,
        "pop" => Pop,
        "conv" => Conv,
        "call" => Call,
        "pushloc" => PushLoc,
        "pushglb" => PushGlb,
        "pushbltn" => PushBltn,
        "popz" => Popz,
        "b" => B,
        "bt" => Bt,
        "bf" => Bf,
        "cmp" => Cmp,
        "dup" => Dup,
        "add" => Add,
        "sub" => Sub,
        "mul" => Mul,
        "div" => Div,
        "rem" => Rem,
        "mod" => Mod,
        "and" => And,
        "or" => Or,
        "xor" => Xor,
        "neg" => Neg,
        "not" => Not,
        "shl" => Shl,
        "shr" => Shr,
        "callv" => CallV,
        "ret" => Ret,
        "exit" => Exit,
        "pushenv" => PushEnv,
        "popenv" => PopEnv,
        _ => return None,
    })
}

fn extended_kind(name: &str) -> Option<ExtendedKind> {
    if let Some(n) = name.strip_prefix("ext") {
        return n.parse().ok().map(ExtendedKind);
    }
    (-11..=-1)
        .map(ExtendedKind)
        .find(|k| k.name() == Some(name))
}

/// A string constant operand at the start of `s`, as [`quote`](super::quote) writes it and the
/// assembler reads it: `"text"`, `"text"#N` or `#N` → (text bytes, N, length of the operand in
/// bytes); `None` when `s` does not start with one.
///
/// ```
/// use gmkit_data::chunks::code::asm::string_operand;
/// assert_eq!(string_operand(r##""a\tb"#7 ; c"##), Some((Some(b"a\tb".to_vec()), Some(7), 8)));
/// assert_eq!(string_operand("#3"), Some((None, Some(3), 2)));
/// assert_eq!(string_operand("x"), None);
/// ```
pub fn string_operand(s: &str) -> Option<(Option<Vec<u8>>, Option<u32>, usize)> {
    let mut c = Cur { s, pos: 0, line: 1 };
    let text = match c.peek() {
        Some('"') => Some(c.quoted().ok()?),
        _ => None,
    };
    let id = if c.eat('#') {
        Some(c.int::<u32>("an entry number").ok()?)
    } else {
        None
    };
    (text.is_some() || id.is_some()).then_some((text, id, c.pos))
}

/// A name as written: its text (plain or quoted) and/or `#id`.
struct NameTok {
    text: Option<Vec<u8>>,
    id: Option<u32>,
}

/// A cursor over one line.
struct Cur<'t> {
    s: &'t str,
    pos: usize,
    line: u32,
}

impl<'t> Cur<'t> {
    fn rest(&self) -> &'t str {
        &self.s[self.pos..]
    }
    fn peek(&self) -> Option<char> {
        self.rest().chars().next()
    }
    fn at_end(&self) -> bool {
        matches!(self.peek(), None | Some(';'))
    }
    fn column(&self, at: usize) -> u32 {
        self.s[..at].chars().count() as u32 + 1
    }
    fn err_at(&self, at: usize, expected: impl Into<String>) -> AsmError {
        let rest = &self.s[at..];
        let tok: String = rest
            .split(char::is_whitespace)
            .next()
            .unwrap_or_default()
            .chars()
            .take(40)
            .collect();
        AsmError {
            line: self.line,
            column: self.column(at),
            expected: expected.into(),
            found: if rest.trim().is_empty() {
                "the end of the line".into()
            } else {
                format!("`{tok}`")
            },
        }
    }
    fn ws(&mut self) {
        let r = self.rest();
        self.pos += r.len() - r.trim_start().len();
    }
    /// At least one space, then any more.
    fn ws1(&mut self) -> Result<(), AsmError> {
        if !self.peek().is_some_and(char::is_whitespace) {
            return Err(self.err_at(self.pos, "a space before the operand"));
        }
        self.ws();
        Ok(())
    }
    fn eat(&mut self, ch: char) -> bool {
        if self.peek() == Some(ch) {
            self.pos += ch.len_utf8();
            true
        } else {
            false
        }
    }
    fn eat_str(&mut self, s: &str) -> bool {
        if self.rest().starts_with(s) {
            self.pos += s.len();
            true
        } else {
            false
        }
    }
    fn expect(&mut self, ch: char, what: &str) -> Result<(), AsmError> {
        if self.eat(ch) {
            Ok(())
        } else {
            Err(self.err_at(self.pos, what))
        }
    }
    fn take_while(&mut self, f: impl Fn(char) -> bool) -> &'t str {
        let r = self.rest();
        let n = r.find(|ch| !f(ch)).unwrap_or(r.len());
        self.pos += n;
        &r[..n]
    }
    /// Nothing but spaces and a comment left.
    fn end(&mut self) -> Result<(), AsmError> {
        self.ws();
        if self.at_end() {
            Ok(())
        } else {
            Err(self.err_at(self.pos, "the end of the line (or a `;` comment)"))
        }
    }
    /// An integer (decimal, or hexadecimal with `0x`), checked against `T`'s range.
    fn int<T: TryFrom<i128>>(&mut self, what: &str) -> Result<T, AsmError> {
        let at = self.pos;
        let tok = self.take_while(|ch| ch.is_ascii_alphanumeric() || ch == '-' || ch == '+');
        let (neg, digits) = match tok.strip_prefix('-') {
            Some(d) => (true, d),
            None => (false, tok.strip_prefix('+').unwrap_or(tok)),
        };
        let v = match digits
            .strip_prefix("0x")
            .or_else(|| digits.strip_prefix("0X"))
        {
            Some(h) => i128::from_str_radix(h, 16),
            None => digits.parse::<i128>(),
        };
        match v.ok().filter(|_| !digits.starts_with(['-', '+'])) {
            Some(v) => {
                T::try_from(if neg { -v } else { v }).map_err(|_| self.err_at(at, what))
            }
            None => Err(self.err_at(at, what)),
        }
    }
    fn number_token(&mut self) -> &'t str {
        self.take_while(|ch| !ch.is_whitespace() && ch != ';')
    }
    fn float64(&mut self) -> Result<f64, AsmError> {
        let at = self.pos;
        let tok = self.number_token();
        let v = match tok.strip_prefix("NaN:0x") {
            Some(h) => u64::from_str_radix(h, 16).ok().map(f64::from_bits),
            None => tok.parse().ok(),
        };
        v.ok_or_else(|| self.err_at(at, "a number (e.g. 1.5, -2, 1e300, inf, NaN)"))
    }
    fn float32(&mut self) -> Result<f32, AsmError> {
        let at = self.pos;
        let tok = self.number_token();
        let v = match tok.strip_prefix("NaN:0x") {
            Some(h) => u32::from_str_radix(h, 16).ok().map(f32::from_bits),
            None => tok.parse().ok(),
        };
        v.ok_or_else(|| self.err_at(at, "a number (e.g. 1.5, -2, inf, NaN)"))
    }
    /// A name: an identifier or a quoted string, and/or `#id`.
    fn name(&mut self, what: &str) -> Result<NameTok, AsmError> {
        let at = self.pos;
        let text = match self.peek() {
            Some('"') => Some(self.quoted()?),
            Some(ch) if ident_start(ch) => Some(self.take_while(ident_char).as_bytes().to_vec()),
            _ => None,
        };
        let id = if self.eat('#') {
            Some(self.int("an entry number after `#`")?)
        } else {
            None
        };
        if text.is_none() && id.is_none() {
            return Err(self.err_at(at, what));
        }
        Ok(NameTok { text, id })
    }
    /// A quoted string with `\" \\ \n \r \t \xNN` escapes.
    fn quoted(&mut self) -> Result<Vec<u8>, AsmError> {
        let start = self.pos;
        self.expect('"', "`\"`")?;
        let mut out = Vec::new();
        loop {
            let at = self.pos;
            let Some(ch) = self.peek() else {
                return Err(self.err_at(start, "a closing `\"`"));
            };
            self.pos += ch.len_utf8();
            match ch {
                '"' => return Ok(out),
                '\\' => {
                    let Some(e) = self.peek() else {
                        return Err(self.err_at(at, "an escape (\\\" \\\\ \\n \\r \\t \\xNN)"));
                    };
                    self.pos += e.len_utf8();
                    match e {
                        '"' => out.push(b'"'),
                        '\\' => out.push(b'\\'),
                        'n' => out.push(b'\n'),
                        'r' => out.push(b'\r'),
                        't' => out.push(b'\t'),
                        'x' => {
                            let h = self.rest().get(..2).and_then(|h| u8::from_str_radix(h, 16).ok());
                            match h {
                                Some(b) => {
                                    out.push(b);
                                    self.pos += 2;
                                }
                                None => return Err(self.err_at(at, "two hex digits after \\x")),
                            }
                        }
                        _ => return Err(self.err_at(at, "an escape (\\\" \\\\ \\n \\r \\t \\xNN)")),
                    }
                }
                ch => {
                    let mut b = [0; 4];
                    out.extend_from_slice(ch.encode_utf8(&mut b).as_bytes());
                }
            }
        }
    }
}
