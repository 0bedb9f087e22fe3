//! A text form of GameMaker VM bytecode: [`disassemble`] writes a code entry as assembly text,
//! [`assemble`] reads it back. `assemble(disassemble(entry))` gives the entry's instructions
//! exactly, for every entry of every bytecode version, and an edited text builds into the file
//! with new strings, variables and functions added as needed.
//!
//! ```no_run
//! use gmkit_data::chunks::code::asm;
//! let mut data = gmkit_data::parse_file("data.win")?;
//! let code = data.code.as_ref().unwrap();
//! let entry = code.entries.iter().position(|e| e.body.is_root()).unwrap();
//! let text = asm::disassemble(&data, entry)?;
//! let edited = text.replacen("pushi.e 5", "pushi.e 6", 1);
//! let ins = asm::assemble(&edited, &mut data)?;
//! *data.code.as_mut().unwrap().instructions_mut(entry)? = ins;
//! gmkit_data::build_file(&data, "data.win")?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Syntax
//!
//! One instruction per line, in the mnemonics of the modding tools: `opcode.type[.type] operand`.
//! Spaces separate the mnemonic from its operand; indentation is free; `;` starts a comment
//! (outside quotes); blank lines are ignored.
//!
//! | form | meaning |
//! |---|---|
//! | `:[name]` | a label: the next instruction's address (`[0]`, `[1]`, ... when disassembled) |
//! | `.entry NAME` | a child entry (2.3+ functions sharing the blob) starts at the next instruction |
//! | `add.i.v`, `conv.i.v`, `mul.d.d`, ... | two-type operations: `conv mul div rem mod add sub and or xor shl shr` |
//! | `neg.i`, `not.b`, `ret.v`, `exit.i`, `popz.v` | one-type operations |
//! | `cmp.i.v EQ` | comparison: `LT LTE EQ NEQ GTE GT` |
//! | `pop.v.v global.score` | store into a variable |
//! | `pop.e.v 5` | the swap form of `pop` (int16 first type, 16-bit argument) |
//! | `dup.v 0`, `dup.v 4 5`, `dup.v 0 raw:136` | duplicate; the optional second number is the swap size (byte 1 = `0x80 \| m << 3`), `raw:` gives byte 1 as is |
//! | `callv.v 2` | call the function on the stack with 2 arguments |
//! | `b [label]`, `bt [label]`, `bf [label]` | branches |
//! | `pushenv [label]`, `popenv [label]`, `popenv <drop>` | `with` blocks (`<drop>`: leave the loop, bytecode 15+) |
//! | `b -3` | a branch by a raw word offset (targets outside the entry) |
//! | `pushi.e 5`, `push.e -1` | int16 constant |
//! | `push.i 70000`, `push.l 1`, `push.d 0.5`, `push.f 0.5` | int32, int64, double, float constants (`inf`, `-inf`, `NaN`, `NaN:0x7FF8000000000001` for other NaN bits) |
//! | `push.s "Hello\n"` | a string constant (escapes `\" \\ \n \r \t \xNN`; bytes that are not UTF-8 as `\xNN`) |
//! | `push.b 1`, `push.u 7`, ... | other 4-byte constants (`b inst del und u`), raw |
//! | `push.v self.x`, `pushloc.v local.i`, `pushglb.v global.g`, `pushbltn.v builtin.room` | push a variable |
//! | `push.i [function]scr_move` | a function reference as an int32 operand |
//! | `push.i [variable]hp` | a variable reference (its id) as an int32 operand |
//! | `call.i show_message(argc=1)` | call a function |
//! | `call.i [by-name]"name"(argc=1)` | a call on no FUNC chain (code of stripped objects), naming its callee by string |
//! | `chkindex.e`, `pushaf.e`, `popaf.e`, `pushac.e`, `setowner.e`, `isstaticok.e`, `setstatic.e`, `savearef.e`, `restorearef.e`, `chknullish.e` | extended operations (`ext-12.e` for an unknown subtype) |
//! | `pushref.i [sprite]spr_player`, `pushref.i [object]3` | asset reference by name or index; kinds: `object sprite sound room background path script font timeline shader sequence animcurve particlesystem roominstance` (type numbers follow the file's version), `[asset:N]index` for an unknown type |
//! | `pushref.i [function]gml_Script_f` | function reference (`[function:N]` when its asset type byte is not the script type) |
//!
//! Data types: `d` double, `f` float, `i` int32, `l` int64, `b` boolean, `v` variable, `s`
//! string, `inst` instance, `del` delete, `und` undefined, `u` uint32, `e` int16.
//!
//! Variables are `[reftype]instance.name`. The reference type is omitted for plain accesses,
//! else `[array]`, `[stacktop]`, `[instance]`, `[arraypushaf]`, `[arraypopaf]` (or `[0xNN]`).
//! The instance is `self other all noone global builtin local stacktop arg static`, an object
//! name (plain accesses only), or a number (`0`, `12`, `-8`).
//!
//! Names (variables, functions, assets, `.entry`) are written plain when they are identifiers
//! (letters, digits, `_ $ @`, not starting with a digit), else quoted like strings. A name
//! stands for the first entry with that name (for variables of bytecode 15+: the first whose
//! VARI instance type matches the access: local, global, builtin, static, argument, or
//! instance for everything else). Within one text, a name keeps standing for the entry it
//! last stood for (GameMaker gives each code entry its own VARI entries for locals: `local.i#475`
//! is marked once, later `local.i` in the same text are the same entry). When an instruction
//! refers to another entry than the name stands for, the disassembler appends `#N`, the entry's
//! index (`x#1234`, `"Hi"#88`); `#N` alone refers to an entry by index. An index whose entry has a different name is ignored: an
//! edited name (`push.s "Bonjour"#88`) stands for the new name.
//!
//! Assembling a name the file does not have adds it: a new STRG entry for a string constant;
//! a new VARI entry (instance type from the access, id per the version's rules) or FUNC entry
//! for a variable or function. Unknown asset names are errors. Errors give the line, the
//! column, what was expected and what was found.

mod disasm;
mod parse;
mod symbols;

pub use disasm::{Disassembler, quote};
pub use parse::{Assembled, Assembler, string_operand};
pub use symbols::AssetKind;

use super::instruction::Instruction;
use crate::DataFile;

/// An assembly error: where, what was expected, and what was found.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("line {line}, column {column}: expected {expected}, found {found}")]
pub struct AsmError {
    /// Line (from 1).
    pub line: u32,
    /// Column in characters (from 1).
    pub column: u32,
    /// What the assembler expected there.
    pub expected: String,
    /// What it found.
    pub found: String,
}

/// The assembly text of code entry `entry` (an index into
/// [`CodeEntries::entries`](super::CodeEntries::entries)). Builds the name tables for one call:
/// use a [`Disassembler`] for many entries.
pub fn disassemble(file: &DataFile, entry: usize) -> crate::Result<String> {
    Disassembler::new(file).entry(entry)
}

/// Assembles `text` into instructions, adding to `file` the strings, variables and functions
/// it names that the file does not have (nothing is added when it fails). Builds the name tables
/// for one call: use an [`Assembler`] for many entries.
pub fn assemble(text: &str, file: &mut DataFile) -> Result<Vec<Instruction>, AsmError> {
    Assembler::new(file).assemble(text).map(|a| a.instructions)
}

/// Characters that can start a plain name.
pub(crate) fn ident_start(c: char) -> bool {
    c.is_alphabetic() || c == '_' || c == '$' || c == '@'
}

/// Characters of a plain name.
pub(crate) fn ident_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_' || c == '$' || c == '@'
}
