//! Name tables shared by the disassembler and the assembler: which STRG/VARI/FUNC/asset entry a
//! name stands for. Both sides resolve a name through the same functions, so a name written
//! without `#id` always reads back as the entry it was written for.

use super::super::opcode::InstanceType;
use crate::DataFile;
use crate::refs::StringRef;
use std::collections::HashMap;

/// The kinds of asset a `pushref` operand (or, in a decompiler, an argument) can name. Their type
/// numbers changed in 2024.4; [`AssetKind::from_pushref`] states that once for every user.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum AssetKind {
    /// Objects.
    Object,
    /// Sprites.
    Sprite,
    /// Sounds.
    Sound,
    /// Rooms.
    Room,
    /// Backgrounds / tilesets.
    Background,
    /// Paths.
    Path,
    /// Scripts.
    Script,
    /// Fonts.
    Font,
    /// Timelines.
    Timeline,
    /// Shaders.
    Shader,
    /// Sequences.
    Sequence,
    /// Animation curves.
    AnimCurve,
    /// Particle systems.
    ParticleSystem,
    /// Room instances (by instance id).
    RoomInstance,
}

impl AssetKind {
    pub(crate) const ALL: [AssetKind; 14] = [
        AssetKind::Object,
        AssetKind::Sprite,
        AssetKind::Sound,
        AssetKind::Room,
        AssetKind::Background,
        AssetKind::Path,
        AssetKind::Script,
        AssetKind::Font,
        AssetKind::Timeline,
        AssetKind::Shader,
        AssetKind::Sequence,
        AssetKind::AnimCurve,
        AssetKind::ParticleSystem,
        AssetKind::RoomInstance,
    ];

    /// The name used in the assembly text (`[sprite]spr_player`).
    pub(crate) fn name(self) -> &'static str {
        use AssetKind::*;
        match self {
            Object => "object",
            Sprite => "sprite",
            Sound => "sound",
            Room => "room",
            Background => "background",
            Path => "path",
            Script => "script",
            Font => "font",
            Timeline => "timeline",
            Shader => "shader",
            Sequence => "sequence",
            AnimCurve => "animcurve",
            ParticleSystem => "particlesystem",
            RoomInstance => "roominstance",
        }
    }

    /// Position in [`AssetKind::ALL`].
    fn ordinal(self) -> usize {
        self as usize
    }

    pub(crate) fn from_name(s: &str) -> Option<AssetKind> {
        AssetKind::ALL.into_iter().find(|k| k.name() == s)
    }

    /// The `pushref` type number (format notes §5.6: renumbered in 2024.4).
    pub(crate) fn number(self, renumbered: bool) -> u8 {
        use AssetKind::*;
        match (self, renumbered) {
            (Object, _) => 0,
            (Sprite, _) => 1,
            (Sound, _) => 2,
            (Room, _) => 3,
            (Background, false) => 4,
            (Path, false) => 5,
            (Script, false) => 6,
            (Font, false) => 7,
            (Timeline, false) => 8,
            (Shader, false) => 10,
            (Sequence, false) => 11,
            (AnimCurve, false) => 12,
            (ParticleSystem, false) => 13,
            (Path, true) => 4,
            (Script, true) => 5,
            (Font, true) => 6,
            (Timeline, true) => 7,
            (Shader, true) => 8,
            (Sequence, true) => 9,
            (AnimCurve, true) => 10,
            (ParticleSystem, true) => 11,
            (Background, true) => 13,
            (RoomInstance, _) => 14,
        }
    }

    /// The kind a `pushref` asset type number stands for in a file of this version.
    pub fn from_pushref(n: u8, version: &crate::Version) -> Option<AssetKind> {
        AssetKind::from_number(n, pushref_renumbered(version))
    }

    pub(crate) fn from_number(n: u8, renumbered: bool) -> Option<AssetKind> {
        AssetKind::ALL
            .into_iter()
            .find(|k| k.number(renumbered) == n)
    }

    /// The names of the assets of this kind, by index (`None` for empty slots).
    fn names(self, file: &DataFile) -> Vec<Option<StringRef>> {
        macro_rules! list {
            ($chunk:ident . $field:ident) => {
                file.$chunk
                    .as_ref()
                    .map(|c| c.$field.iter().map(|a| a.as_ref().map(|a| a.name)).collect())
                    .unwrap_or_default()
            };
        }
        use AssetKind::*;
        match self {
            Object => list!(objects.objects),
            Sprite => list!(sprites.sprites),
            Sound => list!(sounds.sounds),
            Room => list!(rooms.rooms),
            Background => list!(backgrounds.backgrounds),
            Path => list!(paths.paths),
            Script => list!(scripts.scripts),
            Font => list!(fonts.fonts),
            Timeline => list!(timelines.timelines),
            Shader => list!(shaders.shaders),
            Sequence => list!(sequences.sequences),
            AnimCurve => list!(anim_curves.curves),
            ParticleSystem => list!(particle_systems.systems),
            RoomInstance => Vec::new(),
        }
    }
}

/// Instance-type keywords of the text, with their values.
pub(crate) const INSTANCE_KEYWORDS: [(&str, i16); 11] = [
    ("self", -1),
    ("other", -2),
    ("all", -3),
    ("noone", -4),
    ("global", -5),
    ("builtin", -6),
    ("local", -7),
    ("stacktop", -9),
    ("arg", -15),
    ("static", -16),
    ("undefined", 0),
];

/// The keyword of an instance type, if it has one (0 has none when written: it may be object 0).
pub(crate) fn instance_keyword(t: InstanceType) -> Option<&'static str> {
    INSTANCE_KEYWORDS
        .iter()
        .find(|(_, v)| *v == t.0 && *v != 0)
        .map(|(k, _)| *k)
}

/// The bytes of a STRG entry.
pub(crate) fn text(file: &DataFile, r: StringRef) -> Option<&[u8]> {
    file.strings.as_ref()?.get(r).map(|s| s.as_bytes())
}

/// Name → entry tables of one data file.
pub(crate) struct Symbols {
    /// Bytecode 15+ (VARI entries carry instance types).
    pub new_bytecode: bool,
    /// The 2024.4 `pushref` numbering.
    pub renumbered: bool,
    /// The `pushref` type number of scripts.
    pub script_asset_type: u8,
    /// First STRG entry with each text.
    pub strings: HashMap<Box<[u8]>, u32>,
    /// VARI entries with each name, in VARI order.
    pub vars: HashMap<Box<[u8]>, Vec<u32>>,
    /// Instance type of each VARI entry.
    pub var_inst: Vec<i32>,
    /// First FUNC entry with each name.
    pub funcs: HashMap<Box<[u8]>, u32>,
    /// First asset of each kind with each name (indexed like [`AssetKind::ALL`]).
    pub assets: Vec<HashMap<Box<[u8]>, u32>>,
    /// Names of the assets of each kind, by index (indexed like [`AssetKind::ALL`]).
    pub asset_names: Vec<Vec<Option<StringRef>>>,
}

impl Symbols {
    pub(crate) fn new(file: &DataFile) -> Symbols {
        Symbols::with_assets_of(file, file)
    }

    /// The string, variable and function tables of `file` with the asset names of `assets`
    /// (a file with the same string table: the model `file` copies the name tables of).
    pub(crate) fn with_assets_of(file: &DataFile, assets: &DataFile) -> Symbols {
        let v = &file.version;
        let renumbered = pushref_renumbered(v);
        let mut s = Symbols {
            new_bytecode: super::super::new_bytecode(v),
            renumbered,
            script_asset_type: AssetKind::Script.number(renumbered),
            strings: HashMap::new(),
            vars: HashMap::new(),
            var_inst: Vec::new(),
            funcs: HashMap::new(),
            assets: Vec::new(),
            asset_names: Vec::new(),
        };
        s.fill_tables(file);
        for kind in AssetKind::ALL {
            let names = kind.names(assets);
            let mut map = HashMap::with_capacity(names.len());
            for (i, n) in names.iter().enumerate() {
                if let Some(t) = n.and_then(|n| text(assets, n)) {
                    map.entry(t.into()).or_insert(i as u32);
                }
            }
            s.assets.push(map);
            s.asset_names.push(names);
        }
        s
    }

    /// Fills the string, variable and function maps again from `file` (after its tables were
    /// cut back), keeping the assets (an assembly never adds assets).
    pub(crate) fn refill_tables(&mut self, file: &DataFile) {
        self.strings.clear();
        self.vars.clear();
        self.var_inst.clear();
        self.funcs.clear();
        self.fill_tables(file);
    }

    /// Adds every entry of `file`'s string, variable and function tables.
    fn fill_tables(&mut self, file: &DataFile) {
        if let Some(t) = &file.strings {
            self.strings.reserve(t.len());
            for (i, e) in t.iter().enumerate() {
                self.strings.entry(e.as_bytes().into()).or_insert(i as u32);
            }
        }
        if let Some(vs) = &file.variables {
            for (i, var) in vs.variables.iter().enumerate() {
                self.add_var(file, i as u32, var.name, var.instance_type);
            }
        }
        if let Some(fs) = &file.functions {
            for (i, f) in fs.functions.iter().enumerate() {
                self.add_func(file, i as u32, f.name);
            }
        }
    }

    pub(crate) fn add_var(&mut self, file: &DataFile, index: u32, name: StringRef, inst: i32) {
        if self.var_inst.len() <= index as usize {
            self.var_inst.resize(index as usize + 1, 0);
        }
        self.var_inst[index as usize] = inst;
        if let Some(t) = text(file, name) {
            self.vars.entry(t.into()).or_default().push(index);
        }
    }

    pub(crate) fn add_func(&mut self, file: &DataFile, index: u32, name: StringRef) {
        if let Some(t) = text(file, name) {
            self.funcs.entry(t.into()).or_insert(index);
        }
    }

    /// The VARI entry a variable name stands for, accessed with instance type `inst` (`None`
    /// for `push.i [variable]name`): the first entry of that name whose own instance type is
    /// the one GameMaker gives such accesses, else the first entry of that name.
    pub(crate) fn resolve_var(&self, name: &[u8], inst: Option<InstanceType>) -> Option<u32> {
        let c = self.vars.get(name)?;
        if c.len() > 1
            && self.new_bytecode
            && let Some(inst) = inst
        {
            let want = var_class(inst);
            if let Some(&i) = c
                .iter()
                .find(|&&i| self.var_inst.get(i as usize) == Some(&want))
            {
                return Some(i);
            }
        }
        c.first().copied()
    }

    /// The FUNC entry a function name stands for (the first of that name).
    pub(crate) fn resolve_func(&self, name: &[u8]) -> Option<u32> {
        self.funcs.get(name).copied()
    }

    /// The STRG entry a string constant stands for (the first with that text).
    pub(crate) fn resolve_string(&self, text: &[u8]) -> Option<u32> {
        self.strings.get(text).copied()
    }

    /// The asset a name stands for (the first of that kind with that name).
    pub(crate) fn resolve_asset(&self, kind: AssetKind, name: &[u8]) -> Option<u32> {
        self.assets.get(kind.ordinal())?.get(name).copied()
    }

    /// The name of asset `index` of `kind`.
    pub(crate) fn asset_name(&self, kind: AssetKind, index: u32) -> Option<StringRef> {
        *self.asset_names.get(kind.ordinal())?.get(index as usize)?
    }
}

/// Names bound so far in one entry's text: once an instruction has referred to an entry by a
/// name, later plain uses of that name in the same text stand for the same entry (so a local
/// variable whose name several VARI entries share is marked `#id` once per entry, not at every
/// use).
///
/// Names are keyed by the first entry of that name in the file's tables (a name the tables do
/// not have cannot be bound).
#[derive(Default)]
pub(crate) struct Scope {
    vars: HashMap<(u32, i32), u32>,
    funcs: HashMap<u32, u32>,
    strings: HashMap<u32, u32>,
}

impl Symbols {
    /// The scope key of a variable access: the VARI instance class (bytecode 15+).
    fn var_key(&self, inst: Option<InstanceType>) -> i32 {
        match inst {
            _ if !self.new_bytecode => 0,
            None => i32::MIN,
            Some(i) => var_class(i),
        }
    }

    /// The variable a plain name stands for in `scope`.
    pub(crate) fn scoped_var(
        &self,
        scope: &Scope,
        name: &[u8],
        inst: Option<InstanceType>,
    ) -> Option<u32> {
        let key = *self.vars.get(name)?.first()?;
        match scope.vars.get(&(key, self.var_key(inst))) {
            Some(&v) => Some(v),
            None => self.resolve_var(name, inst),
        }
    }

    /// Records that `name` stood for variable `id` in `scope`.
    pub(crate) fn bind_var(
        &self,
        scope: &mut Scope,
        name: &[u8],
        inst: Option<InstanceType>,
        id: u32,
    ) {
        if let Some(&key) = self.vars.get(name).and_then(|v| v.first()) {
            scope.vars.insert((key, self.var_key(inst)), id);
        }
    }

    /// The function a plain name stands for in `scope`.
    pub(crate) fn scoped_func(&self, scope: &Scope, name: &[u8]) -> Option<u32> {
        let key = self.resolve_func(name)?;
        Some(scope.funcs.get(&key).copied().unwrap_or(key))
    }

    /// Records that `name` stood for function `id` in `scope`.
    pub(crate) fn bind_func(&self, scope: &mut Scope, name: &[u8], id: u32) {
        if let Some(key) = self.resolve_func(name) {
            scope.funcs.insert(key, id);
        }
    }

    /// The STRG entry a string constant stands for in `scope`.
    pub(crate) fn scoped_string(&self, scope: &Scope, text: &[u8]) -> Option<u32> {
        let key = self.resolve_string(text)?;
        Some(scope.strings.get(&key).copied().unwrap_or(key))
    }

    /// Records that constant `text` stood for STRG entry `id` in `scope`.
    pub(crate) fn bind_string(&self, scope: &mut Scope, text: &[u8], id: u32) {
        if let Some(key) = self.resolve_string(text) {
            scope.strings.insert(key, id);
        }
    }
}

/// The VARI instance type GameMaker gives the variable of an access with instance field `inst`
/// (bytecode 15+): locals, globals, builtins, statics and arguments have their own, everything
/// else (self, other, objects, stack-top) is an instance variable (-1).
pub(crate) fn var_class(inst: InstanceType) -> i32 {
    match inst.0 {
        -5 | -6 | -7 | -15 | -16 => inst.0 as i32,
        _ => -1,
    }
}

/// 2024.4 renumbered the `pushref` asset types (backgrounds moved to 13, the rest down).
pub(crate) fn pushref_renumbered(v: &crate::Version) -> bool {
    v.at_least(2024, 4)
}
