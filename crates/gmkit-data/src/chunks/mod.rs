//! One module per chunk, named after what the chunk holds.
//!
//! The list below is the single place where chunks are registered: it declares the modules,
//! the [`DataFile`] fields, and the read/write dispatch.

pub mod raw;

crate::model::chunk_list! {
    b"GEN8" => general: general::General,
    b"OPTN" => options: options::Options,
    b"LANG" => language: language::Languages,
    b"EXTN" => extension: extension::Extensions,
    b"SOND" => sound: sound::Sounds,
    b"AGRP" => audio_group: audio_group::AudioGroups,
    b"SPRT" => sprite: sprite::Sprites,
    b"BGND" => background: background::Backgrounds,
    b"PATH" => path: path::Paths,
    b"SCPT" => script: script::Scripts,
    b"GLOB" => global_init: global_init::GlobalInit,
    b"GMEN" => game_end: game_end::GameEnd,
    b"SHDR" => shader: shader::Shaders,
    b"FONT" => font: font::Fonts,
    b"TMLN" => timeline: timeline::Timelines,
    b"OBJT" => object: object::Objects,
    b"FEDS" => filter_effect: filter_effect::FilterEffects,
    b"ACRV" => anim_curve: anim_curve::AnimCurves,
    b"SEQN" => sequence: sequence::Sequences,
    b"TAGS" => tag: tag::Tags,
    b"ROOM" => room: room::Rooms,
    b"UILR" => ui_layer: ui_layer::UiLayers,
    b"DAFL" => data_file: data_file::DataFiles,
    b"EMBI" => embedded_image: embedded_image::EmbeddedImages,
    b"TPAG" => texture_page_item: texture_page_item::TexturePageItems,
    b"TGIN" => texture_group: texture_group::TextureGroups,
    b"CODE" => code: code::CodeEntries,
    b"VARI" => variable: variable::Variables,
    b"FUNC" => function: function::Functions,
    b"FEAT" => feature_flag: feature_flag::FeatureFlags,
    b"STRG" => string_table: string_table::Strings,
    b"TXTR" => texture: texture::Textures,
    b"AUDO" => audio: audio::EmbeddedAudio,
    b"PSYS" => particle_system: particle_system::ParticleSystems,
    b"PSEM" => particle_emitter: particle_emitter::ParticleEmitters,
}
