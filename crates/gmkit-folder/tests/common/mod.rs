//! Helpers shared by the folder tests: code entries wherever the layout puts them, and the
//! built-in sample with a room instance.
#![allow(dead_code)]

use gmkit_data::chunks::object::Object;
use gmkit_data::chunks::room::{Instance, Room};
use gmkit_data::{AssetRef, DataFile, Id, parse_bytes};
use gmkit_folder::{Folder, Game, unpack};
use serde_json::Value;

/// Places an instance of `object` (white, opaque, at 16, 32) in the sample's room `rm_start`.
pub fn add_sample_instance(data: &mut DataFile, object: Id<Object>) {
    let room: Id<Room> = data.find_asset("rm_start").unwrap();
    let v = data.version;
    data.asset_mut(room).unwrap().instances.push(Instance {
        x: 16,
        y: 32,
        object: AssetRef::to(object),
        instance_id: 100_001,
        creation_code: AssetRef::NONE,
        scale_x: 1.0,
        scale_y: 1.0,
        image: v.at_least_full(2, 2, 2, 302).then_some((1.0, 0)),
        colour: 0xFFFF_FFFF,
        rotation: 0.0,
        pre_create_code: (v.bytecode >= 16).then_some(AssetRef::NONE),
    });
}

/// The folder `unpack` makes of a data file's bytes (no audio groups).
pub fn unpack_bytes(bytes: &[u8]) -> Folder {
    unpack(&Game {
        data: parse_bytes(bytes.to_vec()).unwrap(),
        audio_groups: Vec::new(),
    })
    .unwrap()
}

/// Every code entry's text with extension `ext` (wherever the layout puts it) and its header.
pub fn entry_texts(f: &Folder, ext: &str) -> Vec<(String, Value)> {
    gmkit_folder::code::entry_files(f, "")
        .into_iter()
        .map(|e| (format!("{}.{ext}", e.stem), e.header))
        .filter(|(p, _)| f.get(p).is_some())
        .collect()
}

/// The header record of the code entry whose text is at `path`.
pub fn header_of(f: &Folder, path: &str) -> Value {
    let stem = path.rsplit_once('.').unwrap().0;
    gmkit_folder::code::entry_files(f, "")
        .into_iter()
        .find(|e| e.stem == stem)
        .unwrap_or_else(|| panic!("no entry for {path}"))
        .header
}
