//! Names of the folder's files: the one place that says where each part of a data file goes.

/// Chunks written as a directory with one JSON file per element: (model field = directory,
/// the field holding the list). The other fields of the chunk go to `DIR/_chunk.json`.
pub const SPLIT: &[(&str, &str)] = &[
    ("sounds", "sounds"),
    ("audio_groups", "groups"),
    ("sprites", "sprites"),
    ("backgrounds", "backgrounds"),
    ("paths", "paths"),
    ("scripts", "scripts"),
    ("shaders", "shaders"),
    ("fonts", "fonts"),
    ("timelines", "timelines"),
    ("objects", "objects"),
    ("rooms", "rooms"),
    ("extensions", "extensions"),
    ("anim_curves", "curves"),
    ("sequences", "sequences"),
    ("particle_systems", "systems"),
    ("particle_emitters", "emitters"),
    ("filter_effects", "effects"),
    ("texture_groups", "groups"),
    ("embedded_images", "images"),
];

/// The manifest: format marker, version, container layout, string-table layout.
pub const MANIFEST: &str = "manifest.json";
/// The string table.
pub const STRINGS: &str = "strings.json";
/// Texture pages: `textures/NNNN.json` (record), `textures/NNNN.png` (the page as PNG) and
/// `textures/stored/NNNN.<format>` (the image as stored; see [`crate::pages`]).
pub const TEXTURES: &str = "textures";
/// Folder of the stored page images, inside [`TEXTURES`].
pub const TEXTURES_STORED: &str = "stored";
/// Embedded audio no sound names: `audio/NNNN.<wav|ogg|...>`, `audio/NNNN.null` for a
/// stripped entry (the audio of a sound is beside it: `sounds/snd_jump.wav`).
pub const AUDIO: &str = "audio";
/// Audio group files (`audiogroupN.dat`), each a folder of its own.
pub const AUDIO_GROUPS: &str = "audiogroups";
/// The other fields of a split chunk.
pub const CHUNK_REST: &str = "_chunk.json";
/// Format marker written in the manifest: 4 since sprites, backgrounds and fonts are folders by
/// name holding their images, their texture page items in `frames.json` (see
/// [`crate::frames`]); 3 had sprites as `sprites/NNNN_name.json` with their frames in
/// `sprites/NNNN_name/` (objects, scripts, rooms and timelines already folders holding their
/// code, see [`crate::assets`]); 2 was the layout of `KIND/NNNN_name.json` with every code entry
/// under `code/`.
pub const FORMAT: u32 = 4;
/// The previous format marker (refused by pack with one line saying how to convert).
pub const FORMAT_PREVIOUS: u32 = 3;

/// The list field of a split chunk.
pub fn split_key(field: &str) -> Option<&'static str> {
    SPLIT.iter().find(|s| s.0 == field).map(|s| s.1)
}

/// `NNNN` (at least 4 digits).
pub fn index_name(i: usize) -> String {
    format!("{i:04}")
}

/// File stem of element `i` named `name`: `0003_spr_player` (characters outside
/// `[A-Za-z0-9_.-]` become `_`; at most 80 of them).
pub fn element_stem(i: usize, name: Option<&str>) -> String {
    match name {
        Some(n) if !n.is_empty() => {
            let clean: String = n
                .chars()
                .take(80)
                .map(|c| {
                    if c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.') {
                        c
                    } else {
                        '_'
                    }
                })
                .collect();
            format!("{}_{clean}", index_name(i))
        }
        _ => index_name(i),
    }
}

/// The index at the start of a file name (`0003_spr_player.json` → 3).
pub fn leading_index(file_name: &str) -> Option<usize> {
    let digits: &str = &file_name[..file_name.bytes().take_while(u8::is_ascii_digit).count()];
    digits.parse().ok()
}

/// File extension of a texture blob, by its format.
pub fn texture_ext(blob: &[u8]) -> &'static str {
    use gmkit_data::chunks::texture::{BlobFormat, blob_format};
    match blob_format(blob) {
        BlobFormat::Png => "png",
        BlobFormat::Qoi => "fioq",
        BlobFormat::Bz2Qoi => "2zoq",
        BlobFormat::Dds => "dds",
        BlobFormat::Unknown => "bin",
    }
}

/// File extension of an embedded audio file, by its magic bytes.
pub fn audio_ext(b: &[u8]) -> &'static str {
    if b.starts_with(b"RIFF") {
        "wav"
    } else if b.starts_with(b"OggS") {
        "ogg"
    } else if b.starts_with(b"ID3") || b.starts_with(&[0xFF, 0xFB]) {
        "mp3"
    } else {
        "bin"
    }
}
