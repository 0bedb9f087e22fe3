//! One module per chunk, named after what the chunk holds.
//!
//! The list below is the single place where chunks are registered: it declares the modules,
//! the [`DataFile`] fields, and the read/write dispatch.

pub mod raw;

use crate::error::Result;
use crate::read::Reader;

/// Reads `n` elements with `f` into a vector allocated once. `n` must be a count already
/// checked against the bytes left (`Reader::count`), so that the allocation is bounded by them.
#[inline]
pub(crate) fn read_n<'a, T>(
    r: &mut Reader<'a>,
    n: usize,
    mut f: impl FnMut(&mut Reader<'a>) -> Result<T>,
) -> Result<Vec<T>> {
    let mut v = Vec::with_capacity(n);
    for _ in 0..n {
        v.push(f(r)?);
    }
    Ok(v)
}

crate::model::chunk_list! {
    b"GEN8" => general: general::General,
    b"OPTN" => options: options::Options,
    b"LANG" => languages: language::Languages,
    b"EXTN" => extensions: extension::Extensions,
    b"SOND" => sounds: sound::Sounds,
    b"AGRP" => audio_groups: audio_group::AudioGroups,
    b"SPRT" => sprites: sprite::Sprites,
    b"BGND" => backgrounds: background::Backgrounds,
    b"PATH" => paths: path::Paths,
    b"SCPT" => scripts: script::Scripts,
    b"GLOB" => global_init: global_init::GlobalInit,
    b"GMEN" => game_end: game_end::GameEnd,
    b"SHDR" => shaders: shader::Shaders,
    b"FONT" => fonts: font::Fonts,
    b"TMLN" => timelines: timeline::Timelines,
    b"OBJT" => objects: object::Objects,
    b"FEDS" => filter_effects: filter_effect::FilterEffects,
    b"ACRV" => anim_curves: anim_curve::AnimCurves,
    b"SEQN" => sequences: sequence::Sequences,
    b"TAGS" => tags: tag::Tags,
    b"ROOM" => rooms: room::Rooms,
    b"UILR" => ui_layers: ui_layer::UiLayers,
    b"DAFL" => data_files: data_file::DataFiles,
    b"EMBI" => embedded_images: embedded_image::EmbeddedImages,
    b"TPAG" => texture_page_items: texture_page_item::TexturePageItems,
    b"TGIN" => texture_groups: texture_group::TextureGroups,
    b"CODE" => code: code::CodeEntries,
    b"VARI" => variables: variable::Variables,
    b"FUNC" => functions: function::Functions,
    b"FEAT" => feature_flags: feature_flag::FeatureFlags,
    b"STRG" => strings: string_table::Strings,
    b"TXTR" => textures: texture::Textures,
    b"AUDO" => audio: audio::EmbeddedAudio,
    b"PSYS" => particle_systems: particle_system::ParticleSystems,
    b"PSEM" => particle_emitters: particle_emitter::ParticleEmitters,
}
