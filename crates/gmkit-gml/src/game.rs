//! The game as context for GML: names of variables, functions, strings and assets, the
//! version's features, and which code entries share a blob (nested functions).

use crate::features::Features;
use gmkit_data::DataFile;
use gmkit_data::chunks::code::{CodeBody, FunctionId, VariableId};
use gmkit_data::{GmStr, StringRef};
use std::collections::HashMap;

pub use gmkit_data::chunks::code::asm::AssetKind;

/// Names and facts of one data file, shared by every code entry's decompilation.
pub struct Game<'a> {
    /// The file.
    pub file: &'a DataFile,
    /// Its features.
    pub features: Features,
    vars: Vec<String>,
    funcs: Vec<String>,
    assets: HashMap<AssetKind, Vec<Option<String>>>,
    /// For each root entry index: the child entries sharing its blob, by execution offset.
    children: HashMap<usize, Vec<(u32, usize)>>,
    code_names: Vec<String>,
    /// Names the decompiler must not print for a value, collected on first use.
    name_index: std::sync::OnceLock<crate::decompile::names::NameIndex>,
    /// The game's names file (enums, macros and the places holding them), if given.
    names_file: Option<crate::names_file::NamesFile>,
}

fn lossy(s: Option<&GmStr>) -> String {
    s.map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default()
}

impl<'a> Game<'a> {
    /// Collects the names of `file`.
    pub fn new(file: &'a DataFile) -> Self {
        let strings = file.strings.as_ref();
        let s = |r: StringRef| lossy(strings.and_then(|t| t.get(r)));
        let vars = file
            .variables
            .as_ref()
            .map(|v| v.variables.iter().map(|v| s(v.name)).collect())
            .unwrap_or_default();
        let funcs: Vec<String> = file
            .functions
            .as_ref()
            .map(|v| v.functions.iter().map(|f| s(f.name)).collect())
            .unwrap_or_default();
        let mut assets = HashMap::new();
        macro_rules! list {
            ($kind:expr, $field:ident . $list:ident) => {
                if let Some(c) = file.$field.as_ref() {
                    assets.insert(
                        $kind,
                        c.$list
                            .iter()
                            // A name that is no identifier (empty, or edited into the
                            // file by hand) could not be written in GML: such an asset
                            // reads as unnamed (`sprite_86`), as in a stripped file.
                            .map(|a| {
                                a.as_ref()
                                    .map(|a| s(a.name))
                                    .filter(|n| crate::lex::is_identifier(n))
                            })
                            .collect(),
                    );
                }
            };
        }
        list!(AssetKind::Object, objects.objects);
        list!(AssetKind::Sprite, sprites.sprites);
        list!(AssetKind::Sound, sounds.sounds);
        list!(AssetKind::Room, rooms.rooms);
        list!(AssetKind::Background, backgrounds.backgrounds);
        list!(AssetKind::Path, paths.paths);
        list!(AssetKind::Script, scripts.scripts);
        list!(AssetKind::Font, fonts.fonts);
        list!(AssetKind::Timeline, timelines.timelines);
        list!(AssetKind::Shader, shaders.shaders);
        list!(AssetKind::Sequence, sequences.sequences);
        list!(AssetKind::AnimCurve, anim_curves.curves);
        list!(AssetKind::ParticleSystem, particle_systems.systems);
        let mut children: HashMap<usize, Vec<(u32, usize)>> = HashMap::new();
        let mut code_names = Vec::new();
        if let Some(code) = file.code.as_ref() {
            for (i, e) in code.entries.iter().enumerate() {
                code_names.push(s(e.name));
                if let CodeBody::Shared { parent } = e.body {
                    children
                        .entry(parent as usize)
                        .or_default()
                        .push((e.execution_offset, i));
                }
            }
        }
        for v in children.values_mut() {
            v.sort_unstable();
        }
        let typed_bools = file.code.as_ref().is_some_and(typed_bool_evidence);
        Game {
            file,
            features: {
                let ev = file
                    .code
                    .as_ref()
                    .map(|c| code_evidence(c, file.variables.as_ref()))
                    .unwrap_or_default();
                let (cow, bltn_self, end_static) = (ev.cow, ev.bltn_self, ev.end_static);
                let f = Features::with_evidence(file.version, typed_bools)
                    .with_self_to_builtin(ev.self_to_builtin)
                    .with_short_repeat_tail(ev.short_repeat);
                // A file with code shows whether it sets array owners; without code the
                // version's default stays.
                let f = if file.code.as_ref().is_some_and(|c| !c.entries.is_empty()) {
                    f.with_copy_on_write(cow)
                } else {
                    f
                };
                f.with_builtin_self(bltn_self)
                    .with_end_setstatic(end_static)
                    .with_function_refs(file.code.as_ref().is_none_or(function_ref_evidence))
                    .with_global_call(funcs.iter().any(|f| f == "@@Global@@"))
            },
            vars,
            funcs,
            assets,
            children,
            code_names,
            name_index: std::sync::OnceLock::new(),
            names_file: None,
        }
    }

    /// The same game, its code decompiled with the names of `file` where they apply
    /// ([`crate::names_file`]).
    pub fn with_names_file(mut self, file: crate::names_file::NamesFile) -> Self {
        self.names_file = Some(file);
        self
    }

    /// The names file given with [`Game::with_names_file`].
    pub fn names_file(&self) -> Option<&crate::names_file::NamesFile> {
        self.names_file.as_ref()
    }

    /// Whether enum members are int64 literals in this game's code (GameMaker Studio 2 and
    /// later; GMS 1 pushes plain integers).
    pub fn enum_int64(&self) -> bool {
        self.file.version.at_least(2, 0)
    }

    /// The game's names a decompiled value's name must not collide with (built once).
    pub(crate) fn name_index(&self) -> &crate::decompile::names::NameIndex {
        self.name_index
            .get_or_init(|| crate::decompile::names::NameIndex::new(self))
    }

    /// A variable's name.
    pub fn var_name(&self, v: VariableId) -> &str {
        self.vars.get(v.index()).map_or("?", |s| s.as_str())
    }

    /// A function's name as stored (`gml_Script_f`, `draw_text`, `@@This@@`).
    pub fn func_name(&self, f: FunctionId) -> &str {
        self.funcs.get(f.index()).map_or("?", |s| s.as_str())
    }

    /// A string of the string table.
    pub fn string(&self, r: StringRef) -> String {
        lossy(self.file.strings.as_ref().and_then(|t| t.get(r)))
    }

    /// An asset's name.
    pub fn asset_name(&self, kind: AssetKind, index: usize) -> Option<&str> {
        self.assets.get(&kind)?.get(index)?.as_deref()
    }

    /// Whether asset `index` of `kind` exists and has no name (stripped files).
    pub fn asset_unnamed(&self, kind: AssetKind, index: usize) -> bool {
        self.assets
            .get(&kind)
            .and_then(|l| l.get(index))
            .is_some_and(Option::is_none)
    }

    /// The asset kind of a `pushref` asset-type number (renumbered in 2024.4).
    pub fn pushref_kind(&self, t: u8) -> Option<AssetKind> {
        AssetKind::from_pushref(t, &self.file.version)
    }

    /// The `pushref` asset-type number of `kind` (inverse of [`Game::pushref_kind`]).
    pub fn pushref_type(&self, kind: AssetKind) -> Option<u8> {
        (0u8..=14).find(|&t| self.pushref_kind(t) == Some(kind))
    }

    /// Every named asset: (kind, index, name).
    pub fn assets(&self) -> impl Iterator<Item = (AssetKind, usize, &str)> + '_ {
        self.assets.iter().flat_map(|(k, list)| {
            list.iter()
                .enumerate()
                .filter_map(move |(i, n)| Some((*k, i, n.as_deref()?)))
        })
    }

    /// The child entries (nested functions, struct bodies) sharing root entry `root`'s blob:
    /// (execution offset, entry index), by offset.
    pub fn children(&self, root: usize) -> &[(u32, usize)] {
        self.children.get(&root).map_or(&[], |v| v.as_slice())
    }

    /// A code entry's name.
    pub fn code_name(&self, entry: usize) -> &str {
        self.code_names.get(entry).map_or("?", |s| s.as_str())
    }

    /// Number of code entries.
    pub fn code_count(&self) -> usize {
        self.code_names.len()
    }

    /// Whether the game defines a script or function named `name` itself (a script asset, or
    /// a code entry `gml_Script_<name>` / `gml_GlobalScript_<name>`), so that a call of `name`
    /// is the game's, not the built-in of that name.
    pub fn defines_function(&self, name: &str) -> bool {
        let script = self
            .assets
            .get(&AssetKind::Script)
            .is_some_and(|l| l.iter().any(|n| n.as_deref() == Some(name)));
        script
            || self.code_names.iter().any(|c| {
                c.strip_prefix("gml_Script_")
                    .or_else(|| c.strip_prefix("gml_GlobalScript_"))
                    == Some(name)
            })
    }
}

/// What the file's code shows: whether some code sets an array owner (`setowner.e`: the game
/// compiles with array copy-on-write), and whether global built-ins are read as
/// `pushbltn.v self.x` (instance -1) rather than `builtin.x`, and whether a function ends
/// with a lone `setstatic.e` (right before `exit.i`, not after a static's store).
fn code_evidence(
    code: &gmkit_data::chunks::code::CodeEntries,
    vari: Option<&gmkit_data::chunks::variable::Variables>,
) -> CodeEvidence {
    use gmkit_data::chunks::code::{
        DataType, ExtendedKind, Instruction, Opcode, PushValue, RefType,
    };
    let mut ev = CodeEvidence::default();
    // A VARI entry of the game's own (not a built-in: variable id -6).
    let own = |v: &gmkit_data::chunks::code::VariableRef| {
        vari.and_then(|t| t.variables.get(v.variable.index()))
            .is_some_and(|x| x.variable_id != -6)
    };
    for i in 0..code.entries.len() {
        if !code.entries[i].body.is_root() {
            continue;
        }
        let Ok(ins) = code.instructions(i) else {
            continue;
        };
        for (k, x) in ins.iter().enumerate() {
            match x {
                Instruction::Extended {
                    kind: ExtendedKind::SETOWNER,
                    ..
                } => ev.cow = true,
                // A repeat loop's tail without `conv.i.b` (`pushi.e 1 / sub.i.i / dup.i 0 /
                // bt`): the 2022.11 form.
                Instruction::Push {
                    op: Opcode::PushI,
                    value: PushValue::Int16(1),
                } if matches!(
                    ins.get(k + 1..k + 4),
                    Some([
                        Instruction::Binary {
                            op: Opcode::Sub,
                            t1: DataType::Int32,
                            t2: DataType::Int32,
                        },
                        Instruction::Dup {
                            t: DataType::Int32,
                            count: 0,
                            extra: 0,
                        },
                        Instruction::Branch { op: Opcode::Bt, .. },
                    ])
                ) =>
                {
                    ev.short_repeat = true
                }
                Instruction::Extended {
                    kind: ExtendedKind::SETSTATIC,
                    ..
                } if matches!(
                    ins.get(k + 1),
                    Some(Instruction::Unary {
                        op: Opcode::Exit,
                        ..
                    })
                ) && k > 0
                    && !matches!(&ins[k - 1], Instruction::Pop { var, .. } if var.instance.0 == -16) =>
                {
                    ev.end_static = true
                }
                Instruction::Push {
                    op: Opcode::PushBltn,
                    value: PushValue::Variable(v),
                } if v.instance.0 == -1 => ev.bltn_self = true,
                Instruction::Push {
                    op: Opcode::Push,
                    value: PushValue::Variable(v),
                } if v.instance.0 == -6
                    && v.ref_type == RefType::NORMAL
                    && own(v)
                    // A function or constructor held by a variable is read `builtin.f` in
                    // every 2.3+ version (`call.i @@This@@ 0 / push.v builtin.f / callv.v`,
                    // `new f()`: `push.v builtin.f / call.i @@NewGMLObject@@`).
                    && !matches!(
                        ins.get(k + 1),
                        Some(Instruction::CallV { .. } | Instruction::Call { .. })
                    ) =>
                {
                    ev.self_to_builtin = true
                }
                Instruction::Pop { var: v, .. }
                    if v.instance.0 == -6 && v.ref_type == RefType::NORMAL && own(v) =>
                {
                    ev.self_to_builtin = true
                }
                _ => {}
            }
        }
        if ev.cow && ev.bltn_self && ev.end_static && ev.self_to_builtin && ev.short_repeat {
            break;
        }
    }
    ev
}

/// What a file's code shows about how it was compiled, beyond its detected version.
#[derive(Default)]
struct CodeEvidence {
    /// Array owners are set (`setowner.e`).
    cow: bool,
    /// Global built-ins are read `pushbltn.v self.x`.
    bltn_self: bool,
    /// A function without statics ends with a lone `setstatic.e`.
    end_static: bool,
    /// A variable of the game's own is read or written with instance -6 (`push.v
    /// builtin.hp`): the 2024.2 "self→builtin" encoding.
    self_to_builtin: bool,
    /// A repeat loop ends without `conv.i.b`: the 2022.11 form.
    short_repeat: bool,
}

/// Whether the code may reference functions with `pushref.i <func>` (2024.2+): some code does,
/// or no code pushes a function with `push.i [function]…` at all, so nothing shows the older
/// form. (A 2024.2+ file with function declarations but no function used as a value reads as
/// the older form; its code has no reference that could tell.)
fn function_ref_evidence(code: &gmkit_data::chunks::code::CodeEntries) -> bool {
    use gmkit_data::chunks::code::{ExtOperand, ExtendedKind, Instruction, PushValue};
    let mut push_i = false;
    for i in 0..code.entries.len() {
        if !code.entries[i].body.is_root() {
            continue;
        }
        let Ok(ins) = code.instructions(i) else {
            continue;
        };
        for x in ins.iter() {
            match x {
                Instruction::Extended {
                    kind: ExtendedKind::PUSHREF,
                    operand: Some(ExtOperand::Function { .. }),
                    ..
                } => return true,
                Instruction::Push {
                    value: PushValue::Function(_),
                    ..
                } => push_i = true,
                _ => {}
            }
        }
    }
    !push_i
}

/// Whether some code pushes a 0/1 constant as a typed boolean (`pushi.e 1; conv.b.v` or
/// `pushi.e 1; pop.v.b x`): the 2.3.7 typed-boolean code generation.
fn typed_bool_evidence(code: &gmkit_data::chunks::code::CodeEntries) -> bool {
    use gmkit_data::chunks::code::{DataType, Instruction, Opcode, PushValue};
    (0..code.entries.len())
        .filter(|&i| code.entries[i].body.is_root())
        .any(|i| {
            let Ok(ins) = code.instructions(i) else {
                return false;
            };
            let bool_const = |x: &Instruction| {
                matches!(
                    x,
                    Instruction::Push {
                        op: Opcode::PushI,
                        value: PushValue::Int16(0 | 1),
                    }
                )
            };
            ins.windows(2).any(|w| {
                bool_const(&w[0])
                    && matches!(
                        w[1],
                        Instruction::Binary {
                            op: Opcode::Conv,
                            t1: DataType::Boolean,
                            ..
                        } | Instruction::Pop {
                            t2: DataType::Boolean,
                            ..
                        }
                    )
            }) || ins.windows(3).any(|w| {
                // `a || false`: the right operand of a short circuit, unconverted (an int
                // there is `conv.i.b`; wild: a game whose chunks look 2.3.2).
                matches!(
                    w[0],
                    Instruction::Branch {
                        op: Opcode::Bt | Opcode::Bf,
                        ..
                    }
                ) && bool_const(&w[1])
                    && matches!(w[2], Instruction::Branch { op: Opcode::B, .. })
            })
        })
}
