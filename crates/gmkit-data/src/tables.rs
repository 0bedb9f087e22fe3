//! Where each [`AssetKind`]'s table lives in a [`DataFile`]: its length, its null slots, its
//! entries' names, and removing or stripping an entry. Declared once, in [`tables!`].

use crate::chunks::DataFile;
use crate::refs::StringRef;
use crate::walk::AssetKind;

/// Declares the kinds whose table is a `Vec<Option<T>>` (pointer lists that may hold null
/// slots of stripped assets), with whether entries have a `name`.
macro_rules! tables {
    (
        named { $($kind:ident => $field:ident . $list:ident : $ty:ty),* $(,)? }
        unnamed { $($ukind:ident => $ufield:ident . $ulist:ident : $uty:ty),* $(,)? }
    ) => {
        $(impl crate::refs::Target for $ty {
            const KIND: AssetKind = AssetKind::$kind;
        })*
        $(impl crate::edit::Asset for $ty {
            const KIND: AssetKind = AssetKind::$kind;
            fn table(file: &DataFile) -> Option<&Vec<Option<Self>>> {
                file.$field.as_ref().map(|c| &c.$list)
            }
            fn table_mut(file: &mut DataFile) -> Option<&mut Vec<Option<Self>>> {
                file.$field.as_mut().map(|c| &mut c.$list)
            }
            fn name(&self) -> Option<StringRef> {
                Some(self.name)
            }
            fn name_mut(&mut self) -> Option<&mut StringRef> {
                Some(&mut self.name)
            }
        })*
        $(impl crate::refs::Target for $uty {
            const KIND: AssetKind = AssetKind::$ukind;
        })*
        $(impl crate::edit::Asset for $uty {
            const KIND: AssetKind = AssetKind::$ukind;
            fn table(file: &DataFile) -> Option<&Vec<Option<Self>>> {
                file.$ufield.as_ref().map(|c| &c.$ulist)
            }
            fn table_mut(file: &mut DataFile) -> Option<&mut Vec<Option<Self>>> {
                file.$ufield.as_mut().map(|c| &mut c.$ulist)
            }
            fn name(&self) -> Option<StringRef> {
                None
            }
        })*

        /// Number of entries (null slots included) of `kind`'s table; `None` when the file has
        /// no such table (the chunk is absent, or empty as in YYC games).
        pub(crate) fn table_len(file: &DataFile, kind: AssetKind) -> Option<usize> {
            let n = match kind {
                $(AssetKind::$kind => file.$field.as_ref().map(|c| c.$list.len()),)*
                $(AssetKind::$ukind => file.$ufield.as_ref().map(|c| c.$ulist.len()),)*
                AssetKind::String => file.strings.as_ref().map(|s| s.len()),
                AssetKind::Audio => file.audio.as_ref().map(|a| a.entries.len()),
                AssetKind::Code => file
                    .code
                    .as_ref()
                    .filter(|c| !c.empty_body)
                    .map(|c| c.entries.len()),
                AssetKind::Variable => file
                    .variables
                    .as_ref()
                    .filter(|c| !c.empty_body)
                    .map(|c| c.variables.len()),
                AssetKind::Function => file
                    .functions
                    .as_ref()
                    .filter(|c| !c.empty_body)
                    .map(|c| c.functions.len()),
            };
            // Group 0 is the builtin group, whether AGRP lists it (GMS2) or not (GMS1 files have
            // an empty AGRP and sounds in group 0).
            if kind == AssetKind::AudioGroup {
                return n.map(|n| n.max(1));
            }
            n
        }

        /// The names of `kind`'s entries (`None` for a null slot), for the named kinds and code
        /// entries; `None` when the file has no such table or its entries have no names.
        #[cfg_attr(not(feature = "serde"), allow(dead_code))]
        pub(crate) fn names(file: &DataFile, kind: AssetKind) -> Option<Vec<Option<StringRef>>> {
            match kind {
                $(AssetKind::$kind => Some(file.$field.as_ref()?.$list.iter().map(|e| e.as_ref().map(|e| e.name)).collect()),)*
                AssetKind::Code => Some(file.code.as_ref()?.entries.iter().map(|e| Some(e.name)).collect()),
                _ => None,
            }
        }

        /// The first null slot of `kind`'s table, if any.
        pub(crate) fn first_null(file: &DataFile, kind: AssetKind) -> Option<usize> {
            match kind {
                $(AssetKind::$kind => file.$field.as_ref()?.$list.iter().position(Option::is_none),)*
                $(AssetKind::$ukind => file.$ufield.as_ref()?.$ulist.iter().position(Option::is_none),)*
                _ => None,
            }
        }
    };
}

tables! {
    named {
        Sound => sounds.sounds: crate::chunks::sound::Sound,
        AudioGroup => audio_groups.groups: crate::chunks::audio_group::AudioGroup,
        Sprite => sprites.sprites: crate::chunks::sprite::Sprite,
        Background => backgrounds.backgrounds: crate::chunks::background::Background,
        Path => paths.paths: crate::chunks::path::Path,
        Script => scripts.scripts: crate::chunks::script::Script,
        Shader => shaders.shaders: crate::chunks::shader::Shader,
        Font => fonts.fonts: crate::chunks::font::Font,
        Timeline => timelines.timelines: crate::chunks::timeline::Timeline,
        Object => objects.objects: crate::chunks::object::Object,
        AnimCurve => anim_curves.curves: crate::chunks::anim_curve::AnimCurve,
        Sequence => sequences.sequences: crate::chunks::sequence::Sequence,
        Room => rooms.rooms: crate::chunks::room::Room,
        ParticleSystem => particle_systems.systems: crate::chunks::particle_system::ParticleSystem,
        ParticleEmitter => particle_emitters.emitters: crate::chunks::particle_emitter::ParticleEmitter,
    }
    unnamed {
        TexturePageItem => texture_page_items.items: crate::chunks::texture_page_item::TexturePageItem,
        TexturePage => textures.pages: crate::chunks::texture::TexturePage,
    }
}

/// Other pointer lists that hold null slots only for stripped entries (2024.11+): (chunk, what,
/// first null slot).
pub(crate) fn other_nulls(file: &DataFile) -> [(&'static [u8; 4], &'static str, Option<usize>); 5] {
    fn first<T>(v: Option<&Vec<Option<T>>>) -> Option<usize> {
        v?.iter().position(Option::is_none)
    }
    [
        (
            b"EXTN",
            "extension",
            first(file.extensions.as_ref().map(|c| &c.extensions)),
        ),
        (
            b"FEDS",
            "filter effect",
            first(file.filter_effects.as_ref().map(|c| &c.effects)),
        ),
        (
            b"TGIN",
            "texture group",
            first(file.texture_groups.as_ref().map(|c| &c.groups)),
        ),
        (
            b"TAGS",
            "asset tags",
            first(file.tags.as_ref().map(|c| &c.asset_tags)),
        ),
        (
            b"AUDO",
            "audio entry",
            first(file.audio.as_ref().map(|c| &c.entries)),
        ),
    ]
}

impl crate::refs::Target for crate::chunks::variable::Variable {
    const KIND: AssetKind = AssetKind::Variable;
}
impl crate::refs::Target for crate::chunks::function::Function {
    const KIND: AssetKind = AssetKind::Function;
}
impl crate::refs::Target for crate::chunks::code::CodeEntry {
    const KIND: AssetKind = AssetKind::Code;
}
