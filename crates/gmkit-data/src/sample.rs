//! A tiny, valid data file built in code: a demo input and a test fixture that needs no game.

use crate::DataFile;
use crate::chunks::general::{General, Gms2Info};
use crate::chunks::string_table::Strings;
use crate::chunks::texture_page_item::TexturePageItems;
use crate::model::Layout;
use crate::version::{FormatVersion, Version};

/// Builds a minimal GameMaker Studio 2 data file model (GEN8, TPAG, STRG).
///
/// ```
/// let file = gmkit_data::sample();
/// let bytes = gmkit_data::build_bytes(&file).unwrap();
/// let again = gmkit_data::parse_bytes(bytes.clone()).unwrap();
/// assert_eq!(gmkit_data::build_bytes(&again).unwrap(), bytes);
/// ```
pub fn sample() -> DataFile {
    let mut strings = Strings::default();
    let file_name = strings.push("sample");
    let config = strings.push("Default");
    let name = strings.push("gmkit sample");
    let display_name = strings.push("gmkit sample game");
    let general = General {
        debugger_disabled: 1,
        bytecode_version: 17,
        file_name,
        config,
        last_object_id: 100000,
        last_tile_id: 10000000,
        game_id: 1,
        name,
        ide_version: [2, 0, 0, 0],
        window_width: 640,
        window_height: 480,
        display_name,
        debugger_port: Some(6502),
        gms2: Some(Gms2Info {
            fps: 60.0,
            ..Default::default()
        }),
        ..Default::default()
    };
    DataFile {
        version: Version::gms2(FormatVersion::new(2, 0, 0, 0)),
        layout: Layout {
            order: Vec::new(),
            chunk_align: 16,
            ..Default::default()
        },
        general: Some(general),
        texture_page_items: Some(TexturePageItems::default()),
        strings: Some(strings),
        ..Default::default()
    }
}
