//! Instructions → assembly text.

use super::super::instruction::{ExtOperand, Instruction, PushValue, VariableRef};
use super::super::opcode::{InstanceType, RefType};
use super::super::{CodeBody, CodeEntries};
use super::symbols::{AssetKind, Scope, Symbols, instance_keyword, text};
use super::{ident_char, ident_start};
use crate::DataFile;
use crate::refs::StringRef;
use std::fmt::Write;

/// Turns code entries of one data file into assembly text (the name tables are built once, in
/// [`Disassembler::new`]; reuse one disassembler for many entries).
pub struct Disassembler<'a> {
    file: &'a DataFile,
    sym: Symbols,
}

impl<'a> Disassembler<'a> {
    /// A disassembler for the entries of `file`.
    pub fn new(file: &'a DataFile) -> Self {
        Disassembler {
            file,
            sym: Symbols::new(file),
        }
    }

    /// The text of code entry `entry` (an index into [`CodeEntries::entries`]). For a root
    /// entry, all of its instructions (from byte 0, whatever its execution offset); the child entries that share its instructions are marked with `.entry NAME`
    /// lines where they start; a child entry gives the instructions it executes (from its
    /// execution offset to the end of the shared blob). Fails when the instructions cannot be
    /// decoded.
    pub fn entry(&self, entry: usize) -> crate::Result<String> {
        let Some(code) = &self.file.code else {
            return Ok(String::new());
        };
        // A root's text is its whole blob, whatever its own execution offset (which its
        // header keeps): cutting it there would lose the instructions before it.
        let (ins, children) = match code.entries.get(entry) {
            Some(e) if e.body.is_root() => match e.body.instructions() {
                Some(all) => (all?, children(code, entry)),
                None => (code.instructions(entry)?, Vec::new()),
            },
            _ => (code.instructions(entry)?, Vec::new()),
        };
        let mut out = String::with_capacity(ins.len() * 24);
        self.write(&ins, &children, &mut out);
        Ok(out)
    }

    /// The text of a list of instructions (no `.entry` markers).
    pub fn instructions(&self, ins: &[Instruction]) -> String {
        let mut out = String::with_capacity(ins.len() * 24);
        self.write(ins, &[], &mut out);
        out
    }

    /// Writes `ins` with labels, and `.entry` lines at the given byte offsets.
    fn write(&self, ins: &[Instruction], entries: &[(u32, StringRef)], out: &mut String) {
        let mut pos = Vec::with_capacity(ins.len() + 1);
        let mut p = 0u32;
        for i in ins {
            pos.push(p);
            p += i.size() as u32;
        }
        pos.push(p);
        // Branch targets that fall on an instruction (or the end) get labels, numbered in
        // address order.
        let mut targets: Vec<u32> = ins
            .iter()
            .zip(&pos)
            .filter_map(|(i, &at)| match i {
                Instruction::Branch { offset, .. } => target(&pos, at, *offset),
                _ => None,
            })
            .collect();
        targets.sort_unstable();
        targets.dedup();
        let label = |t: u32| targets.binary_search(&t).ok();
        let mut scope = Scope::default();
        let mut next_entry = 0;
        for (k, &at) in pos.iter().enumerate() {
            while let Some(&(off, name)) = entries.get(next_entry) {
                if off > at {
                    break;
                }
                if off == at {
                    out.push_str(".entry ");
                    self.name(out, text(self.file, name), None);
                    out.push('\n');
                } else {
                    // Not on an instruction boundary: cannot be marked.
                    let _ = write!(out, "; entry starts inside an instruction at byte {off}: ");
                    self.name(out, text(self.file, name), None);
                    out.push('\n');
                }
                next_entry += 1;
            }
            if let Some(l) = label(at) {
                let _ = writeln!(out, ":[{l}]");
            }
            if let Some(i) = ins.get(k) {
                self.instruction(out, &mut scope, i, at, &pos, &label);
                out.push('\n');
            }
        }
    }

    fn instruction(
        &self,
        out: &mut String,
        scope: &mut Scope,
        ins: &Instruction,
        at: u32,
        pos: &[u32],
        label: &dyn Fn(u32) -> Option<usize>,
    ) {
        let mn = ins.opcode().mnemonic();
        match *ins {
            Instruction::Binary { t1, t2, .. } => {
                let _ = write!(out, "{mn}.{}.{}", t1.suffix(), t2.suffix());
            }
            Instruction::Unary { t, .. } => {
                let _ = write!(out, "{mn}.{}", t.suffix());
            }
            Instruction::Compare { cmp, t1, t2 } => {
                let _ = write!(out, "{mn}.{}.{} {}", t1.suffix(), t2.suffix(), cmp.name());
            }
            Instruction::Pop { t1, t2, ref var } => {
                let _ = write!(out, "{mn}.{}.{} ", t1.suffix(), t2.suffix());
                self.var(out, scope, var);
            }
            Instruction::PopSwap { t2, arg } => {
                let _ = write!(out, "{mn}.e.{} {arg}", t2.suffix());
            }
            Instruction::Dup { t, count, extra } => {
                let _ = write!(out, "{mn}.{} {count}", t.suffix());
                if extra & 0x87 == 0x80 {
                    let _ = write!(out, " {}", (extra >> 3) & 0xF);
                } else if extra != 0 {
                    let _ = write!(out, " raw:{extra}");
                }
            }
            Instruction::CallV { t, argc } => {
                let _ = write!(out, "{mn}.{} {argc}", t.suffix());
            }
            Instruction::Branch { offset, .. } => {
                let _ = match target(pos, at, offset).and_then(label) {
                    Some(l) => write!(out, "{mn} [{l}]"),
                    None => write!(out, "{mn} {offset:+}"),
                };
            }
            Instruction::PopEnvExit => {
                let _ = write!(out, "{mn} <drop>");
            }
            Instruction::Push { value, .. } => {
                let _ = write!(out, "{mn}.{} ", value.data_type().suffix());
                match value {
                    PushValue::Int16(v) => {
                        let _ = write!(out, "{v}");
                    }
                    PushValue::Int32(v) => {
                        let _ = write!(out, "{v}");
                    }
                    PushValue::Int64(v) => {
                        let _ = write!(out, "{v}");
                    }
                    PushValue::Double(v) => {
                        if v.is_nan() && v.to_bits() != f64::NAN.to_bits() {
                            let _ = write!(out, "NaN:0x{:016X}", v.to_bits());
                        } else {
                            let _ = write!(out, "{v:?}");
                        }
                    }
                    PushValue::Float(v) => {
                        if v.is_nan() && v.to_bits() != f32::NAN.to_bits() {
                            let _ = write!(out, "NaN:0x{:08X}", v.to_bits());
                        } else {
                            let _ = write!(out, "{v:?}");
                        }
                    }
                    PushValue::String(s) => self.string(out, scope, s),
                    PushValue::Variable(ref v) => self.var(out, scope, v),
                    PushValue::Function(f) => {
                        out.push_str("[function]");
                        self.func(out, scope, f.0);
                    }
                    PushValue::VariableId(v) => {
                        out.push_str("[variable]");
                        self.var_name(out, scope, v.0, None);
                    }
                    PushValue::Other { value, .. } => {
                        let _ = write!(out, "{value}");
                    }
                }
            }
            Instruction::Call { t, argc, function } => {
                let _ = write!(out, "{mn}.{} ", t.suffix());
                self.func(out, scope, function.0);
                let _ = write!(out, "(argc={argc})");
            }
            Instruction::CallByName { t, argc, name } => {
                // A call on no FUNC chain, naming its callee by string:
                // `call.i [by-name]"name"(argc=N)`.
                let _ = write!(out, "{mn}.{} [by-name]", t.suffix());
                self.string(out, scope, name);
                let _ = write!(out, "(argc={argc})");
            }
            Instruction::Extended { kind, t, operand } => {
                let _ = match kind.name() {
                    Some(n) => write!(out, "{n}.{}", t.suffix()),
                    None => write!(out, "ext{}.{}", kind.0, t.suffix()),
                };
                match operand {
                    None => {}
                    Some(ExtOperand::Asset { asset_type, index }) => {
                        match AssetKind::from_number(asset_type, self.sym.renumbered) {
                            Some(kind) => {
                                let _ = write!(out, " [{}]", kind.name());
                                let name = self
                                    .sym
                                    .asset_name(kind, index)
                                    .and_then(|n| text(self.file, n))
                                    .filter(|n| {
                                        is_ident(n) && self.sym.resolve_asset(kind, n) == Some(index)
                                    });
                                match name {
                                    Some(n) => self.name(out, Some(n), None),
                                    None => {
                                        let _ = write!(out, "{index}");
                                    }
                                }
                            }
                            None => {
                                let _ = write!(out, " [asset:{asset_type}]{index}");
                            }
                        }
                    }
                    Some(ExtOperand::Function {
                        function,
                        asset_type,
                    }) => {
                        if asset_type == self.sym.script_asset_type {
                            out.push_str(" [function]");
                        } else {
                            let _ = write!(out, " [function:{asset_type}]");
                        }
                        self.func(out, scope, function.0);
                    }
                }
            }
        }
    }

    fn var_text(&self, index: u32) -> Option<&'a [u8]> {
        let v = self.file.variables.as_ref()?.variables.get(index as usize)?;
        text(self.file, v.name)
    }

    /// `[reftype]instance.name`.
    fn var(&self, out: &mut String, scope: &mut Scope, v: &VariableRef) {
        match v.ref_type.name() {
            None => {}
            Some("?") => {
                let _ = write!(out, "[0x{:02X}]", v.ref_type.0);
            }
            Some(n) => {
                let _ = write!(out, "[{n}]");
            }
        }
        self.instance(out, v.instance, v.ref_type == RefType::NORMAL);
        out.push('.');
        self.var_name(out, scope, v.variable.0, Some(v.instance));
    }

    /// A variable's name, with `#id` when the name alone stands for another entry.
    fn var_name(&self, out: &mut String, scope: &mut Scope, id: u32, inst: Option<InstanceType>) {
        let name = self.var_text(id);
        let mark = match name {
            Some(n) => {
                let mark = self.sym.scoped_var(scope, n, inst) != Some(id);
                self.sym.bind_var(scope, n, inst, id);
                mark
            }
            None => true,
        };
        self.name(out, name, mark.then_some(id));
    }

    /// An instance type: a keyword, an object name (plain accesses only) or a number.
    fn instance(&self, out: &mut String, t: InstanceType, objects: bool) {
        if let Some(k) = instance_keyword(t) {
            out.push_str(k);
            return;
        }
        if objects && t.0 >= 0 {
            let name = self
                .sym
                .asset_name(AssetKind::Object, t.0 as u32)
                .and_then(|n| text(self.file, n))
                .filter(|n| {
                    is_ident(n)
                        && !super::symbols::INSTANCE_KEYWORDS
                            .iter()
                            .any(|(k, _)| k.as_bytes() == *n)
                        && self.sym.resolve_asset(AssetKind::Object, n) == Some(t.0 as u32)
                });
            if let Some(n) = name {
                self.name(out, Some(n), None);
                return;
            }
        }
        let _ = write!(out, "{}", t.0);
    }

    fn func(&self, out: &mut String, scope: &mut Scope, index: u32) {
        let name = self
            .file
            .functions
            .as_ref()
            .and_then(|f| f.functions.get(index as usize))
            .and_then(|f| text(self.file, f.name));
        let mark = match name {
            Some(n) => {
                let mark = self.sym.scoped_func(scope, n) != Some(index);
                self.sym.bind_func(scope, n, index);
                mark
            }
            None => true,
        };
        self.name(out, name, mark.then_some(index));
    }

    fn string(&self, out: &mut String, scope: &mut Scope, s: StringRef) {
        match text(self.file, s) {
            Some(t) => {
                quote(out, t);
                if self.sym.scoped_string(scope, t) != Some(s.0) {
                    let _ = write!(out, "#{}", s.0);
                }
                self.sym.bind_string(scope, t, s.0);
            }
            None => {
                let _ = write!(out, "#{}", s.0);
            }
        }
    }

    /// A name (plain when it is an identifier, else quoted), then `#id` when given.
    fn name(&self, out: &mut String, name: Option<&[u8]>, id: Option<u32>) {
        match name {
            Some(n) if is_ident(n) => out.push_str(std::str::from_utf8(n).unwrap_or_default()),
            Some(n) => quote(out, n),
            None => {}
        }
        if let Some(id) = id {
            let _ = write!(out, "#{id}");
        }
    }
}

/// The child entries sharing root `root`'s instructions: (execution offset, name), by offset.
fn children(code: &CodeEntries, root: usize) -> Vec<(u32, StringRef)> {
    let mut v: Vec<(u32, StringRef)> = code
        .entries
        .iter()
        .filter(|e| matches!(e.body, CodeBody::Shared { parent } if parent as usize == root))
        .map(|e| (e.execution_offset, e.name))
        .collect();
    v.sort_by_key(|e| e.0);
    v
}

/// The byte offset a branch at `at` jumps to, when it is an instruction boundary (or the end).
fn target(pos: &[u32], at: u32, offset: i32) -> Option<u32> {
    let t = at as i64 + offset as i64 * 4;
    let t = u32::try_from(t).ok()?;
    pos.binary_search(&t).ok().map(|_| t)
}

/// Whether `n` can be written without quotes.
pub(crate) fn is_ident(n: &[u8]) -> bool {
    let Ok(s) = std::str::from_utf8(n) else {
        return false;
    };
    let mut c = s.chars();
    c.next().is_some_and(ident_start) && c.all(ident_char)
}

/// Writes `t` as a quoted string of the assembly syntax: `"` and `\` escaped, `\n \r \t`, other
/// control characters and bytes that are not UTF-8 as `\xNN` ([`string_operand`] reads it back).
///
/// [`string_operand`]: super::string_operand
///
/// ```
/// use gmkit_data::chunks::code::asm::{quote, string_operand};
/// let mut s = String::new();
/// quote(&mut s, b"say \"hi\"\n\xff");
/// assert_eq!(s, r#""say \"hi\"\n\xFF""#);
/// assert_eq!(string_operand(&s), Some((Some(b"say \"hi\"\n\xff".to_vec()), None, s.len())));
/// ```
pub fn quote(out: &mut String, t: &[u8]) {
    out.push('"');
    for chunk in t.utf8_chunks() {
        for c in chunk.valid().chars() {
            match c {
                '"' => out.push_str("\\\""),
                '\\' => out.push_str("\\\\"),
                '\n' => out.push_str("\\n"),
                '\r' => out.push_str("\\r"),
                '\t' => out.push_str("\\t"),
                c if (c as u32) < 0x20 || c as u32 == 0x7F => {
                    let _ = write!(out, "\\x{:02X}", c as u32);
                }
                c => out.push(c),
            }
        }
        for b in chunk.invalid() {
            let _ = write!(out, "\\x{b:02X}");
        }
    }
    out.push('"');
}
