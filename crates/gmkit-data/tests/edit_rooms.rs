//! Editing room tile layers: tiles stay stored bytes until asked for; changing one tile and
//! rebuilding changes exactly that tile, and every other layer is written as stored.

use gmkit_data::chunks::room::{LayerData, TileLayer};
use gmkit_data::{DataFile, build_bytes, parse_bytes};

mod common;
use common::*;

/// RLE tiles (2024.2+).
const FILES: &[&str] = &["ooo-kaizo.win"];

/// Every tile layer of the file, as (room, layer) positions.
fn tile_layers(f: &DataFile) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    for (ri, room) in f.rooms.as_ref().unwrap().rooms.iter().enumerate() {
        let Some(room) = room else { continue };
        for (li, layer) in room.layers.iter().flatten().enumerate() {
            if matches!(layer.data, LayerData::Tiles(_)) {
                out.push((ri, li));
            }
        }
    }
    out
}

fn tile_layer(f: &mut DataFile, (ri, li): (usize, usize)) -> &mut TileLayer {
    let room = f.rooms.as_mut().unwrap().rooms[ri].as_mut().unwrap();
    match &mut room.layers.as_mut().unwrap()[li].data {
        LayerData::Tiles(t) => t,
        _ => unreachable!("chosen as a tile layer"),
    }
}

#[test]
fn tiles_stay_stored_until_read() {
    for name in FILES {
        let f = parse_bytes(need!(corpus_file(name))).unwrap();
        let layers = tile_layers(&f);
        assert!(!layers.is_empty(), "{name}: no tile layer");
        let mut f = f;
        for &at in &layers {
            let t = tile_layer(&mut f, at);
            assert!(
                t.stored_bytes().is_some(),
                "{name}: {at:?} decoded at parse"
            );
            let tiles = t.tiles().unwrap();
            assert_eq!(tiles.len(), t.width as usize * t.height as usize);
        }
    }
}

#[test]
fn change_one_tile() {
    for name in FILES {
        let bytes = need!(corpus_file(name));
        let original = parse_bytes(bytes.clone()).unwrap();
        let mut edited = original.clone();
        // The largest tile layer, its middle tile.
        let at = *tile_layers(&original)
            .iter()
            .max_by_key(|&&at| {
                let mut o = original.clone();
                tile_layer(&mut o, at).tile_count()
            })
            .unwrap();
        let t = tile_layer(&mut edited, at);
        let tiles = t.tiles_mut().unwrap();
        let k = tiles.len() / 2;
        let new_value = tiles[k] ^ 0x5;
        tiles[k] = new_value;
        let before: Vec<u32> = tile_layer(&mut original.clone(), at)
            .tiles()
            .unwrap()
            .into_owned();

        let built = build_bytes(&edited).unwrap();
        assert_ne!(built, bytes, "{name}: the edit changed nothing");
        let mut again = parse_bytes(built.clone()).unwrap();
        let after = tile_layer(&mut again, at).tiles().unwrap().into_owned();
        assert_eq!(after.len(), before.len());
        let changed: Vec<usize> = (0..after.len())
            .filter(|&i| after[i] != before[i])
            .collect();
        assert_eq!(changed, vec![k], "{name}: only tile {k} changes");
        assert_eq!(after[k], new_value);
        // Every other layer, room and chunk is unchanged.
        let mut a = again.clone();
        *tile_layer(&mut a, at) = tile_layer(&mut original.clone(), at).clone();
        assert!(
            a.rooms == original.rooms,
            "{name}: something besides the tile changed"
        );
        assert_eq!(again.strings, original.strings);
        // The edited file is stable, and undoing the edit gives back the original bytes.
        assert_eq!(build_bytes(&again).unwrap(), built, "{name}: not stable");
        tile_layer(&mut again, at).tiles_mut().unwrap()[k] = before[k];
        assert_eq!(build_bytes(&again).unwrap(), bytes, "{name}: undo differs");
    }
}

#[test]
fn decoding_every_layer_rebuilds_identically() {
    // Decoding every tile layer for editing without changing a value writes each one back as
    // stored (GameMaker's encoder is not always reproduced exactly).
    for name in FILES {
        let bytes = need!(corpus_file(name));
        let mut f = parse_bytes(bytes.clone()).unwrap();
        for at in tile_layers(&f) {
            tile_layer(&mut f, at).tiles_mut().unwrap();
            assert!(tile_layer(&mut f, at).stored_bytes().is_none());
        }
        assert!(
            build_bytes(&f).unwrap() == bytes,
            "{name}: re-encoded differently"
        );
    }
}
