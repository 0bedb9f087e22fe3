//! Opcodes, data types, instance types and the other small vocabularies of the bytecode, with
//! their numbering in both bytecode families (bc ≤ 14 "old", bc ≥ 15 "new").

use std::fmt;

/// An operation, named after the bc ≥ 15 numbering. Comparisons are one opcode ([`Opcode::Cmp`])
/// whose kind is a [`Comparison`] (in bc ≤ 14 the kind is part of the opcode byte).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[repr(u8)]
pub enum Opcode {
    /// Converts the top of the stack from one type to another.
    Conv = 0x07,
    /// Multiplication.
    Mul = 0x08,
    /// Division.
    Div = 0x09,
    /// Remainder (`%`).
    Rem = 0x0A,
    /// Integer modulo (`mod`).
    Mod = 0x0B,
    /// Addition.
    Add = 0x0C,
    /// Subtraction.
    Sub = 0x0D,
    /// Bitwise/logical and.
    And = 0x0E,
    /// Bitwise/logical or.
    Or = 0x0F,
    /// Bitwise/logical xor.
    Xor = 0x10,
    /// Negation.
    Neg = 0x11,
    /// Logical/bitwise not.
    Not = 0x12,
    /// Shift left.
    Shl = 0x13,
    /// Shift right.
    Shr = 0x14,
    /// Comparison (kind in byte 1; bc ≤ 14: opcodes 0x11–0x16).
    Cmp = 0x15,
    /// Stores into a variable (or the swap form).
    Pop = 0x45,
    /// Duplicates stack entries.
    Dup = 0x86,
    /// Calls the function on the stack.
    CallV = 0x99,
    /// Returns a value.
    Ret = 0x9C,
    /// Exits without a value.
    Exit = 0x9D,
    /// Discards the top of the stack.
    Popz = 0x9E,
    /// Unconditional branch.
    B = 0xB6,
    /// Branch if true.
    Bt = 0xB7,
    /// Branch if false.
    Bf = 0xB8,
    /// Starts a `with` block.
    PushEnv = 0xBA,
    /// Ends a `with` block iteration.
    PopEnv = 0xBB,
    /// Pushes a constant or variable.
    Push = 0xC0,
    /// Pushes a local variable (bc ≥ 15).
    PushLoc = 0xC1,
    /// Pushes a global variable (bc ≥ 15).
    PushGlb = 0xC2,
    /// Pushes a builtin variable (bc ≥ 15).
    PushBltn = 0xC3,
    /// Pushes an int16 constant (bc ≥ 15).
    PushI = 0x84,
    /// Calls a function.
    Call = 0xD9,
    /// Extended operations (subtype in the low 16 bits).
    Extended = 0xFF,
}

impl Opcode {
    /// Two-type operations without operand (`Instruction::Binary`).
    #[inline]
    pub const fn is_binary(self) -> bool {
        use Opcode::*;
        matches!(self, Conv | Mul | Div | Rem | Mod | Add | Sub | And | Or | Xor | Shl | Shr)
    }
    /// One-type operations without operand (`Instruction::Unary`).
    #[inline]
    pub const fn is_unary(self) -> bool {
        use Opcode::*;
        matches!(self, Neg | Not | Ret | Exit | Popz)
    }
    /// Branches, whose low 24 bits are a word offset (`Instruction::Branch`).
    #[inline]
    pub const fn is_branch(self) -> bool {
        use Opcode::*;
        matches!(self, B | Bt | Bf | PushEnv | PopEnv)
    }
    /// The push family (`Instruction::Push`).
    #[inline]
    pub const fn is_push(self) -> bool {
        use Opcode::*;
        matches!(self, Push | PushLoc | PushGlb | PushBltn | PushI)
    }
    /// The opcode byte in the bc ≥ 15 numbering.
    #[inline]
    pub const fn new_code(self) -> u8 {
        self as u8
    }

    /// Decodes a bc ≥ 15 opcode byte.
    #[inline]
    pub const fn from_new(b: u8) -> Option<Opcode> {
        use Opcode::*;
        Some(match b {
            0x07 => Conv,
            0x08 => Mul,
            0x09 => Div,
            0x0A => Rem,
            0x0B => Mod,
            0x0C => Add,
            0x0D => Sub,
            0x0E => And,
            0x0F => Or,
            0x10 => Xor,
            0x11 => Neg,
            0x12 => Not,
            0x13 => Shl,
            0x14 => Shr,
            0x15 => Cmp,
            0x45 => Pop,
            0x86 => Dup,
            0x99 => CallV,
            0x9C => Ret,
            0x9D => Exit,
            0x9E => Popz,
            0xB6 => B,
            0xB7 => Bt,
            0xB8 => Bf,
            0xBA => PushEnv,
            0xBB => PopEnv,
            0xC0 => Push,
            0xC1 => PushLoc,
            0xC2 => PushGlb,
            0xC3 => PushBltn,
            0x84 => PushI,
            0xD9 => Call,
            0xFF => Extended,
            _ => return None,
        })
    }

    /// The opcode byte in the bc ≤ 14 numbering (`None` for operations that did not exist);
    /// for [`Opcode::Cmp`] the comparison kind is added by the encoder.
    #[inline]
    pub fn old_code(self) -> Option<u8> {
        use Opcode::*;
        Some(match self {
            Conv | Mul | Div | Rem | Mod | Add | Sub | And | Or | Xor | Neg | Not | Shl | Shr => {
                self as u8 - 4
            }
            Cmp => 0x10,
            Pop => 0x41,
            Dup => 0x82,
            Ret => 0x9D,
            Exit => 0x9E,
            Popz => 0x9F,
            B => 0xB7,
            Bt => 0xB8,
            Bf => 0xB9,
            PushEnv => 0xBB,
            PopEnv => 0xBC,
            Push => 0xC0,
            Call => 0xDA,
            Extended => 0xFF,
            CallV | PushLoc | PushGlb | PushBltn | PushI => return None,
        })
    }

    /// Decodes a bc ≤ 14 opcode byte; comparisons also give their kind.
    #[inline]
    pub const fn from_old(b: u8) -> Option<(Opcode, Option<Comparison>)> {
        use Opcode::*;
        Some(match b {
            0x03..=0x10 => match Opcode::from_new(b + 4) {
                Some(op) => (op, None),
                None => return None,
            },
            0x11..=0x16 => (Cmp, Comparison::from_u8(b - 0x10)),
            0x41 => (Pop, None),
            0x82 => (Dup, None),
            0x9D => (Ret, None),
            0x9E => (Exit, None),
            0x9F => (Popz, None),
            0xB7 => (B, None),
            0xB8 => (Bt, None),
            0xB9 => (Bf, None),
            0xBB => (PushEnv, None),
            0xBC => (PopEnv, None),
            0xC0 => (Push, None),
            0xDA => (Call, None),
            0xFF => (Extended, None),
            _ => return None,
        })
    }

    /// The mnemonic (`add`, `push`, `pushi`, ...).
    pub fn mnemonic(self) -> &'static str {
        use Opcode::*;
        match self {
            Conv => "conv",
            Mul => "mul",
            Div => "div",
            Rem => "rem",
            Mod => "mod",
            Add => "add",
            Sub => "sub",
            And => "and",
            Or => "or",
            Xor => "xor",
            Neg => "neg",
            Not => "not",
            Shl => "shl",
            Shr => "shr",
            Cmp => "cmp",
            Pop => "pop",
            Dup => "dup",
            CallV => "callv",
            Ret => "ret",
            Exit => "exit",
            Popz => "popz",
            B => "b",
            Bt => "bt",
            Bf => "bf",
            PushEnv => "pushenv",
            PopEnv => "popenv",
            Push => "push",
            PushLoc => "pushloc",
            PushGlb => "pushglb",
            PushBltn => "pushbltn",
            PushI => "pushi",
            Call => "call",
            Extended => "ext",
        }
    }
}

/// A data type as stored in an instruction's type nibbles.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[repr(u8)]
pub enum DataType {
    /// 64-bit float (0).
    #[default]
    Double = 0,
    /// 32-bit float (1).
    Float = 1,
    /// 32-bit integer (2).
    Int32 = 2,
    /// 64-bit integer (3).
    Int64 = 3,
    /// Boolean (4).
    Boolean = 4,
    /// Variable (5).
    Variable = 5,
    /// String (6).
    String = 6,
    /// Instance (7, unused).
    Instance = 7,
    /// Delete (8).
    Delete = 8,
    /// Undefined (9).
    Undefined = 9,
    /// Unsigned 32-bit integer (10).
    UInt32 = 10,
    /// 16-bit integer (15): the value lives in the instruction word.
    Int16 = 15,
}

impl DataType {
    /// Decodes a type nibble.
    #[inline]
    pub const fn from_nibble(n: u8) -> Option<DataType> {
        use DataType::*;
        Some(match n {
            0 => Double,
            1 => Float,
            2 => Int32,
            3 => Int64,
            4 => Boolean,
            5 => Variable,
            6 => String,
            7 => Instance,
            8 => Delete,
            9 => Undefined,
            10 => UInt32,
            15 => Int16,
            _ => return None,
        })
    }

    /// The mnemonic suffix (`d f i l b v s inst del und u e`).
    pub fn suffix(self) -> &'static str {
        use DataType::*;
        match self {
            Double => "d",
            Float => "f",
            Int32 => "i",
            Int64 => "l",
            Boolean => "b",
            Variable => "v",
            String => "s",
            Instance => "inst",
            Delete => "del",
            Undefined => "und",
            UInt32 => "u",
            Int16 => "e",
        }
    }

    /// Size in bytes of the operand a `push` of this type carries.
    #[inline]
    pub const fn push_operand_size(self) -> usize {
        match self {
            DataType::Double | DataType::Int64 => 8,
            DataType::Int16 => 0,
            _ => 4,
        }
    }
}

/// Comparison kinds of [`Opcode::Cmp`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[repr(u8)]
pub enum Comparison {
    /// `<`
    Lt = 1,
    /// `<=`
    Le = 2,
    /// `==`
    Eq = 3,
    /// `!=`
    Ne = 4,
    /// `>=`
    Ge = 5,
    /// `>`
    Gt = 6,
}

impl Comparison {
    /// Decodes a comparison kind (1–6).
    pub const fn from_u8(b: u8) -> Option<Comparison> {
        use Comparison::*;
        Some(match b {
            1 => Lt,
            2 => Le,
            3 => Eq,
            4 => Ne,
            5 => Ge,
            6 => Gt,
            _ => return None,
        })
    }
    /// The name used in disassembly (`LT`, `LTE`, ...).
    pub fn name(self) -> &'static str {
        use Comparison::*;
        match self {
            Lt => "LT",
            Le => "LTE",
            Eq => "EQ",
            Ne => "NEQ",
            Ge => "GTE",
            Gt => "GT",
        }
    }
}

/// An instance type: a negative special value or (≥ 0) an object id.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct InstanceType(pub i16);

impl InstanceType {
    /// Undefined (0; also object 0 in some contexts).
    pub const UNDEFINED: InstanceType = InstanceType(0);
    /// `self`.
    pub const SELF: InstanceType = InstanceType(-1);
    /// `other`.
    pub const OTHER: InstanceType = InstanceType(-2);
    /// `all`.
    pub const ALL: InstanceType = InstanceType(-3);
    /// `noone`.
    pub const NOONE: InstanceType = InstanceType(-4);
    /// `global`.
    pub const GLOBAL: InstanceType = InstanceType(-5);
    /// A builtin variable.
    pub const BUILTIN: InstanceType = InstanceType(-6);
    /// A local variable.
    pub const LOCAL: InstanceType = InstanceType(-7);
    /// The instance on top of the stack.
    pub const STACKTOP: InstanceType = InstanceType(-9);
    /// An argument.
    pub const ARGUMENT: InstanceType = InstanceType(-15);
    /// A static variable.
    pub const STATIC: InstanceType = InstanceType(-16);
}

impl fmt::Display for InstanceType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = match self.0 {
            0 => "undefined",
            -1 => "self",
            -2 => "other",
            -3 => "all",
            -4 => "noone",
            -5 => "global",
            -6 => "builtin",
            -7 => "local",
            -9 => "stacktop",
            -15 => "arg",
            -16 => "static",
            n => return write!(f, "{n}"),
        };
        f.write_str(s)
    }
}

/// How a variable operand is accessed: the top 5 bits of the reference word (kept as the top
/// byte with the low 3 bits clear: `0xA0` normal, `0x00` array, `0x80` stack-top, `0xE0`
/// instance, `0x10` array push-af, `0x90` array pop-af).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct RefType(pub u8);

impl RefType {
    /// A plain variable access.
    pub const NORMAL: RefType = RefType(0xA0);
    /// An array element.
    pub const ARRAY: RefType = RefType(0x00);
    /// The instance is on the stack.
    pub const STACKTOP: RefType = RefType(0x80);
    /// Instance variable.
    pub const INSTANCE: RefType = RefType(0xE0);
    /// Multi-dimensional array push.
    pub const ARRAY_PUSH_AF: RefType = RefType(0x10);
    /// Multi-dimensional array pop.
    pub const ARRAY_POP_AF: RefType = RefType(0x90);

    /// A short name for disassembly (`None` for [`RefType::NORMAL`]).
    pub fn name(self) -> Option<&'static str> {
        match self.0 {
            0xA0 => None,
            0x00 => Some("array"),
            0x80 => Some("stacktop"),
            0xE0 => Some("instance"),
            0x10 => Some("arraypushaf"),
            0x90 => Some("arraypopaf"),
            _ => Some("?"),
        }
    }
}

impl Default for RefType {
    fn default() -> Self {
        RefType::NORMAL
    }
}

/// The subtype of an [`Opcode::Extended`] instruction (a signed 16-bit number).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ExtendedKind(pub i16);

impl ExtendedKind {
    /// -1: array index check.
    pub const CHKINDEX: ExtendedKind = ExtendedKind(-1);
    /// -2: push multi-dimensional array element.
    pub const PUSHAF: ExtendedKind = ExtendedKind(-2);
    /// -3: pop multi-dimensional array element.
    pub const POPAF: ExtendedKind = ExtendedKind(-3);
    /// -4: push array container.
    pub const PUSHAC: ExtendedKind = ExtendedKind(-4);
    /// -5: set array owner (copy-on-write arrays are on).
    pub const SETOWNER: ExtendedKind = ExtendedKind(-5);
    /// -6: whether statics are initialised.
    pub const ISSTATICOK: ExtendedKind = ExtendedKind(-6);
    /// -7: mark statics initialised.
    pub const SETSTATIC: ExtendedKind = ExtendedKind(-7);
    /// -8: save array reference.
    pub const SAVEAREF: ExtendedKind = ExtendedKind(-8);
    /// -9: restore array reference.
    pub const RESTOREAREF: ExtendedKind = ExtendedKind(-9);
    /// -10: nullish check (2.3.7).
    pub const CHKNULLISH: ExtendedKind = ExtendedKind(-10);
    /// -11: push an asset or function reference (2023.8).
    pub const PUSHREF: ExtendedKind = ExtendedKind(-11);

    /// The mnemonic (`chkindex`, ..., `pushref`; `ext<n>` for unknown subtypes).
    pub fn name(self) -> Option<&'static str> {
        Some(match self.0 {
            -1 => "chkindex",
            -2 => "pushaf",
            -3 => "popaf",
            -4 => "pushac",
            -5 => "setowner",
            -6 => "isstaticok",
            -7 => "setstatic",
            -8 => "savearef",
            -9 => "restorearef",
            -10 => "chknullish",
            -11 => "pushref",
            _ => return None,
        })
    }
}
