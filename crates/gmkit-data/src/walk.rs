//! The one place that enumerates every typed reference of the model.
//!
//! [`walk`] visits each reference of a [`DataFile`] (string, texture page item, asset id, code
//! entry, variable, function) with the site it sits at; [`walk_mut`] visits the same references
//! mutably. Validation ([`crate::validate`]) and the add/remove helpers ([`crate::edit`]) are
//! visitors of this walk, so the two can never disagree about what refers to what.
//!
//! Two shapes of reference exist: single references ([`Visit::id`]: an object's sprite, a room
//! instance's object) and membership lists ([`Visit::list`]: the room order, the assets of a
//! texture group, a room's sequences), whose entries are dropped, not refused, when their asset
//! is removed.
//!
//! Stored ids are `i32`: a negative value refers to nothing (`-1` = none, `-100` = no parent,
//! ...). Bytecode operands are references only where the format types them (strings,
//! variables, functions); an asset index pushed as an integer constant is not typed in the file
//! and so is not a reference here.

use crate::chunk::ChunkName;
use crate::chunks::DataFile;
use crate::chunks::code::{CodeBody, ExtOperand, Instruction, PushValue};
use crate::chunks::object::Event;
use crate::chunks::object::action::Action;
use crate::chunks::room::{AssetLayer, LayerData, LayerEffect, Tile, TileSource};
use crate::chunks::sequence::Sequence;
use crate::chunks::sequence::track::{CurveRef, KeyframeData, Track};
use crate::chunks::sprite::SpecialBody;
use crate::chunks::texture_page_item::TpagRef;
use crate::chunks::ui_layer::UiNode;
use crate::refs::{AssetRef, Id, StringRef};

/// What a reference points at: an entry of one table of the file.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum AssetKind {
    /// A STRG entry.
    String,
    /// A TPAG item.
    TexturePageItem,
    /// A TXTR page.
    TexturePage,
    /// A SOND entry.
    Sound,
    /// An AGRP entry.
    AudioGroup,
    /// A SPRT entry.
    Sprite,
    /// A BGND entry (background or tileset).
    Background,
    /// A PATH entry.
    Path,
    /// A SCPT entry.
    Script,
    /// A SHDR entry.
    Shader,
    /// A FONT entry.
    Font,
    /// A TMLN entry.
    Timeline,
    /// An OBJT entry.
    Object,
    /// An ACRV entry.
    AnimCurve,
    /// A SEQN entry.
    Sequence,
    /// A ROOM entry.
    Room,
    /// A CODE entry.
    Code,
    /// A VARI entry.
    Variable,
    /// A FUNC entry.
    Function,
    /// A PSYS entry.
    ParticleSystem,
    /// A PSEM entry.
    ParticleEmitter,
    /// An AUDO entry (embedded audio).
    Audio,
}

/// Number of [`AssetKind`]s.
pub(crate) const KINDS: usize = 22;

impl AssetKind {
    /// Every kind.
    pub const ALL: [AssetKind; KINDS] = [
        AssetKind::String,
        AssetKind::TexturePageItem,
        AssetKind::TexturePage,
        AssetKind::Sound,
        AssetKind::AudioGroup,
        AssetKind::Sprite,
        AssetKind::Background,
        AssetKind::Path,
        AssetKind::Script,
        AssetKind::Shader,
        AssetKind::Font,
        AssetKind::Timeline,
        AssetKind::Object,
        AssetKind::AnimCurve,
        AssetKind::Sequence,
        AssetKind::Room,
        AssetKind::Code,
        AssetKind::Variable,
        AssetKind::Function,
        AssetKind::ParticleSystem,
        AssetKind::ParticleEmitter,
        AssetKind::Audio,
    ];

    /// The kind's name in messages ("sprite", "code entry", ...).
    pub fn name(self) -> &'static str {
        match self {
            AssetKind::String => "string",
            AssetKind::TexturePageItem => "texture page item",
            AssetKind::TexturePage => "texture page",
            AssetKind::Sound => "sound",
            AssetKind::AudioGroup => "audio group",
            AssetKind::Sprite => "sprite",
            AssetKind::Background => "background",
            AssetKind::Path => "path",
            AssetKind::Script => "script",
            AssetKind::Shader => "shader",
            AssetKind::Font => "font",
            AssetKind::Timeline => "timeline",
            AssetKind::Object => "object",
            AssetKind::AnimCurve => "animation curve",
            AssetKind::Sequence => "sequence",
            AssetKind::Room => "room",
            AssetKind::Code => "code entry",
            AssetKind::Variable => "variable",
            AssetKind::Function => "function",
            AssetKind::ParticleSystem => "particle system",
            AssetKind::ParticleEmitter => "particle emitter",
            AssetKind::Audio => "audio entry",
        }
    }

    /// The chunk holding the kind's table.
    pub fn chunk(self) -> ChunkName {
        ChunkName(*match self {
            AssetKind::String => b"STRG",
            AssetKind::TexturePageItem => b"TPAG",
            AssetKind::TexturePage => b"TXTR",
            AssetKind::Sound => b"SOND",
            AssetKind::AudioGroup => b"AGRP",
            AssetKind::Sprite => b"SPRT",
            AssetKind::Background => b"BGND",
            AssetKind::Path => b"PATH",
            AssetKind::Script => b"SCPT",
            AssetKind::Shader => b"SHDR",
            AssetKind::Font => b"FONT",
            AssetKind::Timeline => b"TMLN",
            AssetKind::Object => b"OBJT",
            AssetKind::AnimCurve => b"ACRV",
            AssetKind::Sequence => b"SEQN",
            AssetKind::Room => b"ROOM",
            AssetKind::Code => b"CODE",
            AssetKind::Variable => b"VARI",
            AssetKind::Function => b"FUNC",
            AssetKind::ParticleSystem => b"PSYS",
            AssetKind::ParticleEmitter => b"PSEM",
            AssetKind::Audio => b"AUDO",
        })
    }
}

/// A stored reference: an index, or nothing.
pub(crate) trait Slot {
    /// The index referred to; `None` when the slot refers to nothing.
    fn get(&self) -> Option<u32>;
    /// Points the slot at `index`.
    fn set(&mut self, index: u32);
    /// The kept stored value of a typed reference ([`AssetRef::kept`]), if it holds one.
    #[inline]
    fn kept(&self) -> Option<i32> {
        None
    }
}

impl Slot for i32 {
    #[inline]
    fn get(&self) -> Option<u32> {
        u32::try_from(*self).ok()
    }
    #[inline]
    fn set(&mut self, index: u32) {
        *self = index as i32;
    }
}
impl Slot for u32 {
    #[inline]
    fn get(&self) -> Option<u32> {
        Some(*self)
    }
    #[inline]
    fn set(&mut self, index: u32) {
        *self = index;
    }
}
impl Slot for i16 {
    #[inline]
    fn get(&self) -> Option<u32> {
        u32::try_from(*self).ok()
    }
    #[inline]
    fn set(&mut self, index: u32) {
        *self = index as i16;
    }
}
impl Slot for StringRef {
    #[inline]
    fn get(&self) -> Option<u32> {
        Some(self.0)
    }
    #[inline]
    fn set(&mut self, index: u32) {
        self.0 = index;
    }
}
impl Slot for TpagRef {
    #[inline]
    fn get(&self) -> Option<u32> {
        Some(self.0)
    }
    #[inline]
    fn set(&mut self, index: u32) {
        self.0 = index;
    }
}
impl<T> Slot for Id<T> {
    #[inline]
    fn get(&self) -> Option<u32> {
        Some(self.0)
    }
    #[inline]
    fn set(&mut self, index: u32) {
        self.0 = index;
    }
}
impl<T> Slot for AssetRef<T> {
    #[inline]
    fn get(&self) -> Option<u32> {
        self.id().map(|i| i.0)
    }
    #[inline]
    fn kept(&self) -> Option<i32> {
        AssetRef::kept(*self)
    }
    #[inline]
    fn set(&mut self, index: u32) {
        self.set_index(index);
    }
}
impl Slot for crate::chunks::object::action::AppliesTo {
    #[inline]
    fn get(&self) -> Option<u32> {
        self.object().and_then(|r| Slot::get(&r))
    }
    #[inline]
    fn kept(&self) -> Option<i32> {
        self.object().and_then(AssetRef::kept)
    }
    #[inline]
    fn set(&mut self, index: u32) {
        if let crate::chunks::object::action::AppliesTo::Object(r) = self {
            r.set_index(index);
        }
    }
}
impl<S: Slot> Slot for Option<S> {
    #[inline]
    fn get(&self) -> Option<u32> {
        self.as_ref().and_then(Slot::get)
    }
    #[inline]
    fn kept(&self) -> Option<i32> {
        self.as_ref().and_then(Slot::kept)
    }
    #[inline]
    fn set(&mut self, index: u32) {
        if let Some(s) = self {
            s.set(index)
        }
    }
}

/// The element a reference belongs to: a top-level entry of a chunk.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Elem {
    /// Its chunk.
    pub chunk: ChunkName,
    /// What the element is ("object", "room", ...).
    pub kind: &'static str,
    /// Its index in the chunk's list.
    pub index: usize,
    /// Its name, where it has one.
    pub name: Option<StringRef>,
}

impl Elem {
    fn new(chunk: &[u8; 4], kind: &'static str, index: usize, name: Option<StringRef>) -> Self {
        Elem {
            chunk: ChunkName(*chunk),
            kind,
            index,
            name,
        }
    }
}

/// Where a reference sits: an element, a field path (`{}` stands for the indices in `sub`, in
/// order) and the indices of the nested lists on the way.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Site<'a> {
    /// The top-level element.
    pub elem: &'a Elem,
    /// The field, e.g. `instances[{}].object`.
    pub field: &'static str,
    /// Indices filling the `{}` of `field`.
    pub sub: [usize; 3],
}

impl Site<'_> {
    /// The field path with its indices filled in.
    pub fn path(&self) -> String {
        let mut out = String::new();
        let mut parts = self.field.split("{}");
        let mut subs = self.sub.iter();
        if let Some(first) = parts.next() {
            out.push_str(first);
        }
        for part in parts {
            out.push_str(&subs.next().copied().unwrap_or(0).to_string());
            out.push_str(part);
        }
        out
    }
}

/// A visitor of references (read-only walk).
pub(crate) trait Visit {
    /// One reference to an entry of `kind`.
    fn id<S: Slot>(&mut self, kind: AssetKind, site: Site<'_>, slot: &S);
    /// A membership list of entries of `kind` (a `Vec`, as in [`VisitMut::list`], so that one
    /// walk body serves both).
    #[allow(clippy::ptr_arg)]
    fn list<S: Slot>(&mut self, kind: AssetKind, site: Site<'_>, list: &Vec<S>);
}

/// A visitor of references (mutable walk).
pub(crate) trait VisitMut {
    /// One reference to an entry of `kind`.
    fn id<S: Slot>(&mut self, kind: AssetKind, site: Site<'_>, slot: &mut S);
    /// A membership list of entries of `kind`.
    fn list<S: Slot>(&mut self, kind: AssetKind, site: Site<'_>, list: &mut Vec<S>);
}

/// A site with no nested index.
#[inline]
fn at<'a>(elem: &'a Elem, field: &'static str) -> Site<'a> {
    Site {
        elem,
        field,
        sub: [0; 3],
    }
}
/// A site with nested indices.
#[inline]
fn at_n<'a>(elem: &'a Elem, field: &'static str, sub: [usize; 3]) -> Site<'a> {
    Site { elem, field, sub }
}

/// What a `pushref` operand's asset type refers to (the numbering, renumbered in 2024.4, is
/// stated once in [`AssetKind::from_pushref`](crate::chunks::code::asm::AssetKind::from_pushref));
/// room instances are not table entries.
pub(crate) fn pushref_kind(v: &crate::version::Version, t: u8) -> Option<AssetKind> {
    use crate::chunks::code::asm::AssetKind as P;
    use AssetKind as K;
    Some(match P::from_pushref(t, v)? {
        P::Object => K::Object,
        P::Sprite => K::Sprite,
        P::Sound => K::Sound,
        P::Room => K::Room,
        P::Background => K::Background,
        P::Path => K::Path,
        P::Script => K::Script,
        P::Font => K::Font,
        P::Timeline => K::Timeline,
        P::Shader => K::Shader,
        P::Sequence => K::Sequence,
        P::AnimCurve => K::AnimCurve,
        P::ParticleSystem => K::ParticleSystem,
        P::RoomInstance => return None,
    })
}

/// Generates the read-only and the mutable walk from one body: `& $($m)?` borrows shared or
/// unique alike.
macro_rules! walker {
    ($name:ident, $Visit:ident $(, $m:tt)?) => {
        /// Visits every reference of the model (see the module documentation).
        pub(crate) fn $name<V: $Visit>(file: & $($m)? DataFile, v: &mut V) {
            let version = file.version;
            let exported_sprite = file.version.at_least(2023, 8);
            let DataFile {
                general, options, languages, extensions, sounds, audio_groups, sprites,
                backgrounds, paths, scripts, global_init, game_end, shaders, fonts, timelines,
                objects, filter_effects, anim_curves, sequences, tags, rooms, embedded_images,
                texture_page_items, texture_groups, code, variables, functions, feature_flags,
                strings, particle_systems, particle_emitters, ui_layers, ..
            } = file;
            let strings = &*strings;
            use AssetKind as K;

            fn actions<V: $Visit>(
                v: &mut V,
                e: &Elem,
                field: &'static str,
                sub: [usize; 3],
                list: & $($m)? Vec<Action>,
            ) {
                for (k, a) in (& $($m)? *list).into_iter().enumerate() {
                    let sub = [sub[0], sub[1], k];
                    v.id(K::String, at_n(e, field, sub), & $($m)? a.action_name);
                    v.id(K::Code, at_n(e, field, sub), & $($m)? a.code_id);
                    v.id(K::Object, at_n(e, field, sub), & $($m)? a.who);
                }
            }
            fn effect<V: $Visit>(v: &mut V, e: &Elem, l: usize, fx: & $($m)? LayerEffect) {
                v.id(K::String, at_n(e, "layers[{}].effect.type", [l, 0, 0]), & $($m)? fx.effect_type);
                for (p, prop) in (& $($m)? fx.properties).into_iter().enumerate() {
                    let sub = [l, p, 0];
                    v.id(K::String, at_n(e, "layers[{}].effect.properties[{}].name", sub), & $($m)? prop.name);
                    v.id(K::String, at_n(e, "layers[{}].effect.properties[{}].value", sub), & $($m)? prop.value);
                }
            }
            fn tiles<V: $Visit>(
                v: &mut V,
                e: &Elem,
                field: &'static str,
                l: usize,
                list: & $($m)? Vec<Tile>,
            ) {
                for (t, tile) in (& $($m)? *list).into_iter().enumerate() {
                    match & $($m)? tile.source {
                        TileSource::Background(r) => v.id(K::Background, at_n(e, field, [l, t, 0]), r),
                        TileSource::Sprite(r) => v.id(K::Sprite, at_n(e, field, [l, t, 0]), r),
                    }
                }
            }
            fn asset_layer<V: $Visit>(v: &mut V, e: &Elem, l: usize, a: & $($m)? AssetLayer) {
                tiles(v, e, "layers[{}].assets.tiles[{}].asset", l, & $($m)? a.legacy_tiles);
                for (k, s) in (& $($m)? a.sprites).into_iter().enumerate() {
                    v.id(K::String, at_n(e, "layers[{}].assets.sprites[{}].name", [l, k, 0]), & $($m)? s.name);
                    v.id(K::Sprite, at_n(e, "layers[{}].assets.sprites[{}].sprite", [l, k, 0]), & $($m)? s.asset);
                }
                if let Some(list) = & $($m)? a.sequences {
                    for (k, s) in list.into_iter().enumerate() {
                        v.id(K::String, at_n(e, "layers[{}].assets.sequences[{}].name", [l, k, 0]), & $($m)? s.name);
                        v.id(K::Sequence, at_n(e, "layers[{}].assets.sequences[{}].sequence", [l, k, 0]), & $($m)? s.asset);
                    }
                }
                if let Some(list) = & $($m)? a.nine_slices {
                    for (k, s) in list.into_iter().enumerate() {
                        v.id(K::String, at_n(e, "layers[{}].assets.nine_slices[{}].name", [l, k, 0]), & $($m)? s.name);
                        v.id(K::Sprite, at_n(e, "layers[{}].assets.nine_slices[{}].sprite", [l, k, 0]), & $($m)? s.asset);
                    }
                }
                if let Some(list) = & $($m)? a.particle_systems {
                    for (k, s) in list.into_iter().enumerate() {
                        v.id(K::String, at_n(e, "layers[{}].assets.particle_systems[{}].name", [l, k, 0]), & $($m)? s.name);
                        v.id(K::ParticleSystem, at_n(e, "layers[{}].assets.particle_systems[{}].system", [l, k, 0]), & $($m)? s.system);
                    }
                }
                if let Some(list) = & $($m)? a.text_items {
                    for (k, s) in list.into_iter().enumerate() {
                        v.id(K::String, at_n(e, "layers[{}].assets.text_items[{}].name", [l, k, 0]), & $($m)? s.name);
                        v.id(K::String, at_n(e, "layers[{}].assets.text_items[{}].text", [l, k, 0]), & $($m)? s.text);
                        v.id(K::Font, at_n(e, "layers[{}].assets.text_items[{}].font", [l, k, 0]), & $($m)? s.font);
                    }
                }
            }
            fn curve<V: $Visit>(v: &mut V, e: &Elem, t: usize, k: usize, c: & $($m)? CurveRef) {
                match c {
                    CurveRef::Asset(id) => v.id(K::AnimCurve, at_n(e, "tracks[{}].keyframes[{}].curve", [t, k, 0]), id),
                    CurveRef::Embedded(curve) => {
                        for (c, ch) in (& $($m)? curve.channels).into_iter().enumerate() {
                            v.id(K::String, at_n(e, "tracks[{}].keyframes[{}].curve.channels[{}].name", [t, k, c]), & $($m)? ch.name);
                        }
                    }
                }
            }
            fn track<V: $Visit>(
                v: &mut V,
                e: &Elem,
                strings: &Option<crate::chunks::string_table::Strings>,
                t: usize,
                tr: & $($m)? Track,
            ) {
                v.id(K::String, at_n(e, "tracks[{}].model", [t, 0, 0]), & $($m)? tr.model);
                v.id(K::String, at_n(e, "tracks[{}].name", [t, 0, 0]), & $($m)? tr.name);
                for (c, (name, ac)) in (& $($m)? tr.owned_curves).into_iter().enumerate() {
                    v.id(K::String, at_n(e, "tracks[{}].owned_curves[{}].name", [t, c, 0]), name);
                    v.id(K::String, at_n(e, "tracks[{}].owned_curves[{}].curve_name", [t, c, 0]), & $($m)? ac.name);
                    for (h, ch) in (& $($m)? ac.channels).into_iter().enumerate() {
                        v.id(K::String, at_n(e, "tracks[{}].owned_curves[{}].channels[{}].name", [t, c, h]), & $($m)? ch.name);
                    }
                }
                if let Some(kf) = & $($m)? tr.keyframes {
                    for (k, key) in (& $($m)? kf.list).into_iter().enumerate() {
                        for (_, data) in (& $($m)? key.channels).into_iter() {
                            match data {
                                KeyframeData::Audio { sound, .. } => v.id(K::Sound, at_n(e, "tracks[{}].keyframes[{}].sound", [t, k, 0]), sound),
                                KeyframeData::Int(_) => {}
                                KeyframeData::Object(r) => v.id(K::Object, at_n(e, "tracks[{}].keyframes[{}].object", [t, k, 0]), r),
                                KeyframeData::Sprite(r) => v.id(K::Sprite, at_n(e, "tracks[{}].keyframes[{}].sprite", [t, k, 0]), r),
                                KeyframeData::Sequence(r) => v.id(K::Sequence, at_n(e, "tracks[{}].keyframes[{}].sequence", [t, k, 0]), r),
                                KeyframeData::ParticleSystem(r) => v.id(K::ParticleSystem, at_n(e, "tracks[{}].keyframes[{}].particle_system", [t, k, 0]), r),
                                KeyframeData::String(s) => v.id(K::String, at_n(e, "tracks[{}].keyframes[{}].string", [t, k, 0]), s),
                                KeyframeData::Real { curve: c, .. } | KeyframeData::Colour { curve: c, .. } => curve(v, e, t, k, c),
                                KeyframeData::Text { text, font, .. } => {
                                    v.id(K::String, at_n(e, "tracks[{}].keyframes[{}].text", [t, k, 0]), text);
                                    v.id(K::Font, at_n(e, "tracks[{}].keyframes[{}].font", [t, k, 0]), font);
                                }
                            }
                        }
                    }
                }
                for (s, sub) in (& $($m)? tr.sub_tracks).into_iter().enumerate() {
                    // Nested tracks report the outer track's index.
                    let _ = s;
                    track(v, e, strings, t, sub);
                }
            }
            fn sequence<V: $Visit>(
                v: &mut V,
                e: &Elem,
                strings: &Option<crate::chunks::string_table::Strings>,
                s: & $($m)? Sequence,
            ) {
                v.id(K::String, at(e, "name"), & $($m)? s.name);
                for (k, key) in (& $($m)? s.broadcast_messages).into_iter().enumerate() {
                    for (_, msgs) in (& $($m)? key.channels).into_iter() {
                        for m in msgs.into_iter() {
                            v.id(K::String, at_n(e, "broadcast_messages[{}]", [k, 0, 0]), m);
                        }
                    }
                }
                for (k, key) in (& $($m)? s.moments).into_iter().enumerate() {
                    for (_, msgs) in (& $($m)? key.channels).into_iter() {
                        for m in msgs.into_iter() {
                            v.id(K::String, at_n(e, "moments[{}]", [k, 0, 0]), m);
                        }
                    }
                }
                for (k, (_, name)) in (& $($m)? s.function_ids).into_iter().enumerate() {
                    v.id(K::String, at_n(e, "function_ids[{}].name", [k, 0, 0]), name);
                }
                for (t, tr) in (& $($m)? s.tracks).into_iter().enumerate() {
                    track(v, e, strings, t, tr);
                }
            }

            if let Some(g) = general {
                let e = Elem::new(b"GEN8", "general info", 0, None);
                v.id(K::String, at(&e, "file_name"), & $($m)? g.file_name);
                v.id(K::String, at(&e, "config"), & $($m)? g.config);
                v.id(K::String, at(&e, "name"), & $($m)? g.name);
                v.id(K::String, at(&e, "display_name"), & $($m)? g.display_name);
                v.list(K::Room, at(&e, "room_order"), & $($m)? g.room_order);
            }
            if let Some(o) = options {
                let e = Elem::new(b"OPTN", "options", 0, None);
                v.id(K::TexturePageItem, at(&e, "back_image"), & $($m)? o.back_image);
                v.id(K::TexturePageItem, at(&e, "front_image"), & $($m)? o.front_image);
                v.id(K::TexturePageItem, at(&e, "load_image"), & $($m)? o.load_image);
                for (i, c) in (& $($m)? o.constants).into_iter().enumerate() {
                    v.id(K::String, at_n(&e, "constants[{}].name", [i, 0, 0]), & $($m)? c.name);
                    v.id(K::String, at_n(&e, "constants[{}].value", [i, 0, 0]), & $($m)? c.value);
                }
            }
            if let Some(l) = languages {
                let e = Elem::new(b"LANG", "languages", 0, None);
                for (i, s) in (& $($m)? l.entry_ids).into_iter().enumerate() {
                    v.id(K::String, at_n(&e, "entry_ids[{}]", [i, 0, 0]), s);
                }
                for (i, lang) in (& $($m)? l.languages).into_iter().enumerate() {
                    let e = Elem::new(b"LANG", "language", i, Some(lang.name));
                    v.id(K::String, at(&e, "name"), & $($m)? lang.name);
                    v.id(K::String, at(&e, "region"), & $($m)? lang.region);
                    for (k, s) in (& $($m)? lang.entries).into_iter().enumerate() {
                        v.id(K::String, at_n(&e, "entries[{}]", [k, 0, 0]), s);
                    }
                }
            }
            if let Some(x) = extensions {
                for (i, ext) in (& $($m)? x.extensions).into_iter().enumerate() {
                    let Some(ext) = ext else { continue };
                    let e = Elem::new(b"EXTN", "extension", i, Some(ext.name));
                    v.id(K::String, at(&e, "folder_name"), & $($m)? ext.folder_name);
                    v.id(K::String, at(&e, "name"), & $($m)? ext.name);
                    v.id(K::String, at(&e, "version"), & $($m)? ext.version);
                    v.id(K::String, at(&e, "class_name"), & $($m)? ext.class_name);
                    for (f, file) in (& $($m)? ext.files).into_iter().enumerate() {
                        let sub = [f, 0, 0];
                        v.id(K::String, at_n(&e, "files[{}].file_name", sub), & $($m)? file.file_name);
                        v.id(K::String, at_n(&e, "files[{}].cleanup_script", sub), & $($m)? file.cleanup_script);
                        v.id(K::String, at_n(&e, "files[{}].init_script", sub), & $($m)? file.init_script);
                        for (k, func) in (& $($m)? file.functions).into_iter().enumerate() {
                            let sub = [f, k, 0];
                            v.id(K::String, at_n(&e, "files[{}].functions[{}].name", sub), & $($m)? func.name);
                            v.id(K::String, at_n(&e, "files[{}].functions[{}].external_name", sub), & $($m)? func.external_name);
                        }
                    }
                    if let Some(opts) = & $($m)? ext.options {
                        for (k, o) in opts.into_iter().enumerate() {
                            v.id(K::String, at_n(&e, "options[{}].name", [k, 0, 0]), & $($m)? o.name);
                            v.id(K::String, at_n(&e, "options[{}].value", [k, 0, 0]), & $($m)? o.value);
                        }
                    }
                }
            }
            let has_groups = audio_groups.is_some();
            if let Some(s) = sounds {
                for (i, snd) in (& $($m)? s.sounds).into_iter().enumerate() {
                    let Some(snd) = snd else { continue };
                    let e = Elem::new(b"SOND", "sound", i, Some(snd.name));
                    v.id(K::String, at(&e, "name"), & $($m)? snd.name);
                    v.id(K::String, at(&e, "type"), & $($m)? snd.kind);
                    v.id(K::String, at(&e, "file"), & $($m)? snd.file);
                    if let (true, crate::chunks::sound::GroupOrPreload::Group(g)) = (has_groups, & $($m)? snd.group) {
                        v.id(K::AudioGroup, at(&e, "audio_group"), g);
                    }
                    if snd.audio_in_this_file(&version) {
                        v.id(K::Audio, at(&e, "audio_id"), & $($m)? snd.audio_id);
                    }
                }
            }
            if let Some(a) = audio_groups {
                for (i, g) in (& $($m)? a.groups).into_iter().enumerate() {
                    let Some(g) = g else { continue };
                    let e = Elem::new(b"AGRP", "audio group", i, Some(g.name));
                    v.id(K::String, at(&e, "name"), & $($m)? g.name);
                    v.id(K::String, at(&e, "path"), & $($m)? g.path);
                }
            }
            if let Some(s) = sprites {
                for (i, spr) in (& $($m)? s.sprites).into_iter().enumerate() {
                    let Some(spr) = spr else { continue };
                    let e = Elem::new(b"SPRT", "sprite", i, Some(spr.name));
                    v.id(K::String, at(&e, "name"), & $($m)? spr.name);
                    for (f, t) in (& $($m)? spr.frames).into_iter().enumerate() {
                        v.id(K::TexturePageItem, at_n(&e, "frames[{}]", [f, 0, 0]), t);
                    }
                    if let Some(special) = & $($m)? spr.special {
                        if let Some(seq) = & $($m)? special.sequence {
                            sequence(v, &e, strings, & $($m)? seq.sequence);
                        }
                    }
                    if let Some(body) = & $($m)? spr.special_body {
                        let frames = match & $($m)? **body {
                            SpecialBody::Swf(s) => (& $($m)? s.frames).into_borrowed(),
                            SpecialBody::Spine(s) => (& $($m)? s.frames).into_borrowed(),
                            SpecialBody::Vector(s) => Some(& $($m)? s.frames),
                            SpecialBody::Unknown(_) => None,
                        };
                        for (f, t) in frames.into_iter().flatten().enumerate() {
                            v.id(K::TexturePageItem, at_n(&e, "special.frames[{}]", [f, 0, 0]), t);
                        }
                    }
                }
            }
            if let Some(b) = backgrounds {
                for (i, bg) in (& $($m)? b.backgrounds).into_iter().enumerate() {
                    let Some(bg) = bg else { continue };
                    let e = Elem::new(b"BGND", "background", i, Some(bg.name));
                    v.id(K::String, at(&e, "name"), & $($m)? bg.name);
                    v.id(K::TexturePageItem, at(&e, "texture"), & $($m)? bg.texture);
                    if let (true, Some(ts)) = (exported_sprite, & $($m)? bg.tileset) {
                        v.id(K::Sprite, at(&e, "tileset.exported_sprite"), & $($m)? ts.exported_sprite);
                    }
                }
            }
            if let Some(p) = paths {
                for (i, path) in (& $($m)? p.paths).into_iter().enumerate() {
                    let Some(path) = path else { continue };
                    let e = Elem::new(b"PATH", "path", i, Some(path.name));
                    v.id(K::String, at(&e, "name"), & $($m)? path.name);
                }
            }
            if let Some(s) = scripts {
                for (i, sc) in (& $($m)? s.scripts).into_iter().enumerate() {
                    let Some(sc) = sc else { continue };
                    let e = Elem::new(b"SCPT", "script", i, Some(sc.name));
                    v.id(K::String, at(&e, "name"), & $($m)? sc.name);
                    v.id(K::Code, at(&e, "code"), & $($m)? sc.code_id);
                }
            }
            if let Some(g) = global_init {
                let e = Elem::new(b"GLOB", "global init scripts", 0, None);
                v.list(K::Code, at(&e, "code_ids"), & $($m)? g.code_ids);
            }
            if let Some(g) = game_end {
                let e = Elem::new(b"GMEN", "game end scripts", 0, None);
                v.list(K::Code, at(&e, "code_ids"), & $($m)? g.code_ids);
            }
            if let Some(s) = shaders {
                for (i, sh) in (& $($m)? s.shaders).into_iter().enumerate() {
                    let Some(sh) = sh else { continue };
                    let e = Elem::new(b"SHDR", "shader", i, Some(sh.name));
                    v.id(K::String, at(&e, "name"), & $($m)? sh.name);
                    v.id(K::String, at(&e, "glsl_es_vertex"), & $($m)? sh.glsl_es_vertex);
                    v.id(K::String, at(&e, "glsl_es_fragment"), & $($m)? sh.glsl_es_fragment);
                    v.id(K::String, at(&e, "glsl_vertex"), & $($m)? sh.glsl_vertex);
                    v.id(K::String, at(&e, "glsl_fragment"), & $($m)? sh.glsl_fragment);
                    v.id(K::String, at(&e, "hlsl9_vertex"), & $($m)? sh.hlsl9_vertex);
                    v.id(K::String, at(&e, "hlsl9_fragment"), & $($m)? sh.hlsl9_fragment);
                    for (k, a) in (& $($m)? sh.vertex_attributes).into_iter().enumerate() {
                        v.id(K::String, at_n(&e, "vertex_attributes[{}]", [k, 0, 0]), a);
                    }
                }
            }
            if let Some(f) = fonts {
                for (i, font) in (& $($m)? f.fonts).into_iter().enumerate() {
                    let Some(font) = font else { continue };
                    let e = Elem::new(b"FONT", "font", i, Some(font.name));
                    v.id(K::String, at(&e, "name"), & $($m)? font.name);
                    v.id(K::String, at(&e, "display_name"), & $($m)? font.display_name);
                    v.id(K::TexturePageItem, at(&e, "texture"), & $($m)? font.texture);
                }
            }
            if let Some(t) = timelines {
                for (i, tl) in (& $($m)? t.timelines).into_iter().enumerate() {
                    let Some(tl) = tl else { continue };
                    let e = Elem::new(b"TMLN", "timeline", i, Some(tl.name));
                    v.id(K::String, at(&e, "name"), & $($m)? tl.name);
                    for (k, mo) in (& $($m)? tl.moments).into_iter().enumerate() {
                        actions(v, &e, "moments[{}].actions[{}]", [k, 0, 0], & $($m)? mo.actions);
                    }
                }
            }
            if let Some(o) = objects {
                for (i, obj) in (& $($m)? o.objects).into_iter().enumerate() {
                    let Some(obj) = obj else { continue };
                    let e = Elem::new(b"OBJT", "object", i, Some(obj.name));
                    v.id(K::String, at(&e, "name"), & $($m)? obj.name);
                    v.id(K::Sprite, at(&e, "sprite"), & $($m)? obj.sprite);
                    v.id(K::Object, at(&e, "parent"), & $($m)? obj.parent);
                    v.id(K::Sprite, at(&e, "mask_sprite"), & $($m)? obj.mask_sprite);
                    for (t, events) in (& $($m)? obj.events).into_iter().enumerate() {
                        for (k, ev) in (& $($m)? *events).into_iter().enumerate() {
                            let ev: & $($m)? Event = ev;
                            actions(v, &e, "events[{}][{}].actions[{}]", [t, k, 0], & $($m)? ev.actions);
                        }
                    }
                }
            }
            if let Some(f) = filter_effects {
                for (i, fx) in (& $($m)? f.effects).into_iter().enumerate() {
                    let Some(fx) = fx else { continue };
                    let e = Elem::new(b"FEDS", "filter effect", i, Some(fx.name));
                    v.id(K::String, at(&e, "name"), & $($m)? fx.name);
                    v.id(K::String, at(&e, "value"), & $($m)? fx.value);
                }
            }
            if let Some(a) = anim_curves {
                for (i, c) in (& $($m)? a.curves).into_iter().enumerate() {
                    let Some(c) = c else { continue };
                    let e = Elem::new(b"ACRV", "animation curve", i, Some(c.name));
                    v.id(K::String, at(&e, "name"), & $($m)? c.name);
                    for (k, ch) in (& $($m)? c.channels).into_iter().enumerate() {
                        v.id(K::String, at_n(&e, "channels[{}].name", [k, 0, 0]), & $($m)? ch.name);
                    }
                }
            }
            if let Some(s) = sequences {
                for (i, seq) in (& $($m)? s.sequences).into_iter().enumerate() {
                    let Some(seq) = seq else { continue };
                    let e = Elem::new(b"SEQN", "sequence", i, Some(seq.name));
                    sequence(v, &e, strings, seq);
                }
            }
            if let Some(t) = tags {
                let e = Elem::new(b"TAGS", "tags", 0, None);
                for (i, s) in (& $($m)? t.tags).into_iter().enumerate() {
                    v.id(K::String, at_n(&e, "tags[{}]", [i, 0, 0]), s);
                }
                for (i, a) in (& $($m)? t.asset_tags).into_iter().enumerate() {
                    let Some(a) = a else { continue };
                    for (k, s) in (& $($m)? a.tags).into_iter().enumerate() {
                        v.id(K::String, at_n(&e, "asset_tags[{}].tags[{}]", [i, k, 0]), s);
                    }
                }
            }
            if let Some(r) = rooms {
                for (i, room) in (& $($m)? r.rooms).into_iter().enumerate() {
                    let Some(room) = room else { continue };
                    let e = Elem::new(b"ROOM", "room", i, Some(room.name));
                    v.id(K::String, at(&e, "name"), & $($m)? room.name);
                    v.id(K::String, at(&e, "caption"), & $($m)? room.caption);
                    v.id(K::Code, at(&e, "creation_code"), & $($m)? room.creation_code);
                    for (k, b) in (& $($m)? room.backgrounds).into_iter().enumerate() {
                        v.id(K::Background, at_n(&e, "backgrounds[{}].background", [k, 0, 0]), & $($m)? b.background);
                    }
                    for (k, view) in (& $($m)? room.views).into_iter().enumerate() {
                        v.id(K::Object, at_n(&e, "views[{}].object", [k, 0, 0]), & $($m)? view.object);
                    }
                    for (k, inst) in (& $($m)? room.instances).into_iter().enumerate() {
                        let sub = [k, 0, 0];
                        v.id(K::Object, at_n(&e, "instances[{}].object", sub), & $($m)? inst.object);
                        v.id(K::Code, at_n(&e, "instances[{}].creation_code", sub), & $($m)? inst.creation_code);
                        v.id(K::Code, at_n(&e, "instances[{}].pre_create_code", sub), & $($m)? inst.pre_create_code);
                    }
                    tiles(v, &e, "tiles[{}].asset", 0, & $($m)? room.tiles);
                    if let Some(layers) = & $($m)? room.layers {
                        for (l, layer) in layers.into_iter().enumerate() {
                            v.id(K::String, at_n(&e, "layers[{}].name", [l, 0, 0]), & $($m)? layer.name);
                            if let Some(fx) = & $($m)? layer.effect {
                                effect(v, &e, l, fx);
                            }
                            match & $($m)? layer.data {
                                LayerData::Background(b) => {
                                    v.id(K::Sprite, at_n(&e, "layers[{}].background.sprite", [l, 0, 0]), & $($m)? b.sprite)
                                }
                                LayerData::Assets(a) => asset_layer(v, &e, l, a),
                                LayerData::Tiles(t) => {
                                    v.id(K::Background, at_n(&e, "layers[{}].tiles.tileset", [l, 0, 0]), & $($m)? t.tileset)
                                }
                                LayerData::Effect(Some(fx)) => effect(v, &e, l, fx),
                                _ => {}
                            }
                        }
                    }
                    if let Some(seqs) = & $($m)? room.sequences {
                        v.list(K::Sequence, at(&e, "sequences"), seqs);
                    }
                }
            }
            if let Some(u) = ui_layers {
                // Pre-order, iteratively: each node is an element, numbered in that order.
                let mut stack: Vec<_> = (& $($m)? u.roots).into_iter().rev().collect();
                let mut index = 0;
                while let Some(node) = stack.pop() {
                    let e = Elem::new(b"UILR", "UI node", index, node.name());
                    index += 1;
                    match node {
                        UiNode::Layer(l) => {
                            v.id(K::String, at(&e, "name"), & $($m)? l.name);
                            stack.extend((& $($m)? l.children).into_iter().rev());
                        }
                        UiNode::FlexPanel(p) => {
                            v.id(K::String, at(&e, "name"), & $($m)? p.name);
                            stack.extend((& $($m)? p.children).into_iter().rev());
                        }
                        UiNode::Object(o) => {
                            let inst = & $($m)? o.instance;
                            v.id(K::Object, at(&e, "instance.object"), & $($m)? inst.object);
                            v.id(K::Code, at(&e, "instance.creation_code"), & $($m)? inst.creation_code);
                            v.id(K::Code, at(&e, "instance.pre_create_code"), & $($m)? inst.pre_create_code);
                        }
                        UiNode::Sprite(s) => {
                            v.id(K::String, at(&e, "instance.name"), & $($m)? s.instance.name);
                            v.id(K::Sprite, at(&e, "instance.sprite"), & $($m)? s.instance.asset);
                        }
                        UiNode::Sequence(s) => {
                            v.id(K::String, at(&e, "instance.name"), & $($m)? s.instance.name);
                            v.id(K::Sequence, at(&e, "instance.sequence"), & $($m)? s.instance.asset);
                        }
                        UiNode::TextItem(t) => {
                            v.id(K::String, at(&e, "instance.name"), & $($m)? t.instance.name);
                            v.id(K::String, at(&e, "instance.text"), & $($m)? t.instance.text);
                            v.id(K::Font, at(&e, "instance.font"), & $($m)? t.instance.font);
                        }
                        UiNode::Effect(fx) => {
                            v.id(K::String, at(&e, "effect.type"), & $($m)? fx.effect_type);
                            for (p, prop) in (& $($m)? fx.properties).into_iter().enumerate() {
                                let sub = [p, 0, 0];
                                v.id(K::String, at_n(&e, "effect.properties[{}].name", sub), & $($m)? prop.name);
                                v.id(K::String, at_n(&e, "effect.properties[{}].value", sub), & $($m)? prop.value);
                            }
                        }
                    }
                }
            }
            if let Some(m) = embedded_images {
                for (i, img) in (& $($m)? m.images).into_iter().enumerate() {
                    let e = Elem::new(b"EMBI", "embedded image", i, Some(img.name));
                    v.id(K::String, at(&e, "name"), & $($m)? img.name);
                    v.id(K::TexturePageItem, at(&e, "texture"), & $($m)? img.texture);
                }
            }
            if let Some(t) = texture_page_items {
                for (i, item) in (& $($m)? t.items).into_iter().enumerate() {
                    let Some(item) = item else { continue };
                    let e = Elem::new(b"TPAG", "texture page item", i, None);
                    v.id(K::TexturePage, at(&e, "texture_page"), & $($m)? item.texture_page);
                }
            }
            if let Some(t) = texture_groups {
                for (i, g) in (& $($m)? t.groups).into_iter().enumerate() {
                    let Some(g) = g else { continue };
                    let e = Elem::new(b"TGIN", "texture group", i, Some(g.name));
                    v.id(K::String, at(&e, "name"), & $($m)? g.name);
                    if let Some(files) = & $($m)? g.files {
                        v.id(K::String, at(&e, "directory"), & $($m)? files.directory);
                        v.id(K::String, at(&e, "extension"), & $($m)? files.extension);
                    }
                    v.list(K::TexturePage, at(&e, "texture_pages"), & $($m)? g.texture_pages);
                    v.list(K::Sprite, at(&e, "sprites"), & $($m)? g.sprites);
                    if let Some(s) = & $($m)? g.spine_sprites {
                        v.list(K::Sprite, at(&e, "spine_sprites"), s);
                    }
                    v.list(K::Font, at(&e, "fonts"), & $($m)? g.fonts);
                    v.list(K::Background, at(&e, "tilesets"), & $($m)? g.tilesets);
                }
            }
            if let Some(c) = code {
                for (i, entry) in (& $($m)? c.entries).into_iter().enumerate() {
                    let e = Elem::new(b"CODE", "code entry", i, Some(entry.name));
                    v.id(K::String, at(&e, "name"), & $($m)? entry.name);
                    match & $($m)? entry.body {
                        CodeBody::Shared { parent } => v.id(K::Code, at(&e, "parent"), parent),
                        CodeBody::Instructions(list) => {
                            for (k, ins) in list.into_iter().enumerate() {
                                let sub = [k, 0, 0];
                                match ins {
                                    Instruction::Push { value, .. } => match value {
                                        PushValue::String(s) => v.id(K::String, at_n(&e, "instructions[{}].string", sub), s),
                                        PushValue::Variable(r) => v.id(K::Variable, at_n(&e, "instructions[{}].variable", sub), & $($m)? r.variable),
                                        PushValue::Function(f) => v.id(K::Function, at_n(&e, "instructions[{}].function", sub), f),
                                        PushValue::VariableId(r) => v.id(K::Variable, at_n(&e, "instructions[{}].variable", sub), r),
                                        _ => {}
                                    },
                                    Instruction::Pop { var, .. } => v.id(K::Variable, at_n(&e, "instructions[{}].variable", sub), & $($m)? var.variable),
                                    Instruction::Call { function, .. } => v.id(K::Function, at_n(&e, "instructions[{}].function", sub), function),
                                    Instruction::CallByName { name, .. } => v.id(K::String, at_n(&e, "instructions[{}].function_name", sub), name),
                                    Instruction::Extended { operand: Some(ExtOperand::Function { function, .. }), .. } => {
                                        v.id(K::Function, at_n(&e, "instructions[{}].function", sub), function)
                                    }
                                    Instruction::Extended { operand: Some(ExtOperand::Asset { asset_type, index }), .. } => {
                                        if let Some(kind) = pushref_kind(&version, *asset_type) {
                                            v.id(kind, at_n(&e, "instructions[{}].asset", sub), index)
                                        }
                                    }
                                    _ => {}
                                }
                            }
                        }
                        // Encoded blobs were checked when read; their operands are rewritten by
                        // the writer from the occurrence links.
                        CodeBody::Encoded(_) => {}
                    }
                }
            }
            if let Some(vars) = variables {
                for (i, var) in (& $($m)? vars.variables).into_iter().enumerate() {
                    let e = Elem::new(b"VARI", "variable", i, Some(var.name));
                    v.id(K::String, at(&e, "name"), & $($m)? var.name);
                }
            }
            if let Some(funcs) = functions {
                for (i, f) in (& $($m)? funcs.functions).into_iter().enumerate() {
                    let e = Elem::new(b"FUNC", "function", i, Some(f.name));
                    v.id(K::String, at(&e, "name"), & $($m)? f.name);
                }
                if let Some(locals) = & $($m)? funcs.code_locals {
                    for (i, cl) in locals.into_iter().enumerate() {
                        let e = Elem::new(b"FUNC", "code locals", i, Some(cl.code_name));
                        v.id(K::String, at(&e, "code_name"), & $($m)? cl.code_name);
                        for (k, l) in (& $($m)? cl.locals).into_iter().enumerate() {
                            v.id(K::String, at_n(&e, "locals[{}].name", [k, 0, 0]), & $($m)? l.name);
                        }
                    }
                }
            }
            if let Some(f) = feature_flags {
                let e = Elem::new(b"FEAT", "feature flags", 0, None);
                for (i, s) in (& $($m)? f.flags).into_iter().enumerate() {
                    v.id(K::String, at_n(&e, "flags[{}]", [i, 0, 0]), s);
                }
            }
            if let Some(p) = particle_systems {
                for (i, ps) in (& $($m)? p.systems).into_iter().enumerate() {
                    let Some(ps) = ps else { continue };
                    let e = Elem::new(b"PSYS", "particle system", i, Some(ps.name));
                    v.id(K::String, at(&e, "name"), & $($m)? ps.name);
                    v.list(K::ParticleEmitter, at(&e, "emitters"), & $($m)? ps.emitters);
                }
            }
            if let Some(p) = particle_emitters {
                for (i, em) in (& $($m)? p.emitters).into_iter().enumerate() {
                    let Some(em) = em else { continue };
                    let e = Elem::new(b"PSEM", "particle emitter", i, Some(em.name));
                    v.id(K::String, at(&e, "name"), & $($m)? em.name);
                    v.id(K::Sprite, at(&e, "sprite"), & $($m)? em.sprite);
                    v.id(K::ParticleEmitter, at(&e, "spawn_on_death"), & $($m)? em.spawn_on_death.0);
                    v.id(K::ParticleEmitter, at(&e, "spawn_on_update"), & $($m)? em.spawn_on_update.0);
                }
            }
        }
    };
}

/// `Option<Vec<T>>` as an optional borrow of the vector, shared or unique.
trait IntoBorrowed {
    type Out;
    fn into_borrowed(self) -> Self::Out;
}
impl<'a, T> IntoBorrowed for &'a Option<Vec<T>> {
    type Out = Option<&'a Vec<T>>;
    fn into_borrowed(self) -> Self::Out {
        self.as_ref()
    }
}
impl<'a, T> IntoBorrowed for &'a mut Option<Vec<T>> {
    type Out = Option<&'a mut Vec<T>>;
    fn into_borrowed(self) -> Self::Out {
        self.as_mut()
    }
}

walker!(walk, Visit);
walker!(walk_mut, VisitMut, mut);
