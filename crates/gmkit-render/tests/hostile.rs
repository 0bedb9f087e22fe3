//! Hostile room values: corpus rooms (GMS1 tiles and backgrounds, 2.x layers, RLE tile maps)
//! with fields replaced by extreme values (NaN, infinities, ±1e30, i32/u32 extremes, references
//! far out of range, random tile values) render without panicking, at the picture size asked
//! for, and within the work limit. A deterministic sweep (same inputs every run).

use gmkit_data::AssetRef;
use gmkit_data::DataFile;
use gmkit_data::chunks::room::{LayerData, Room, TileSource};
use gmkit_render::{PageCache, RenderOptions, render_room};
use gmkit_testdata::{Rng, corpus_path, need};

const FLOATS: [f32; 9] = [
    f32::NAN,
    f32::INFINITY,
    f32::NEG_INFINITY,
    1e30,
    -1e30,
    0.0,
    -1.0,
    1e-30,
    7.5,
];
const INTS: [i32; 6] = [i32::MIN, i32::MAX, -1, 0, 1 << 20, -(1 << 20)];

fn f(rng: &mut Rng) -> f32 {
    FLOATS[rng.below(FLOATS.len())]
}
fn i(rng: &mut Rng) -> i32 {
    INTS[rng.below(INTS.len())]
}

/// Replaces some fields of `room` with hostile values.
fn mutate(room: &mut Room, rng: &mut Rng) {
    for inst in &mut room.instances {
        match rng.below(8) {
            0 => inst.scale_x = f(rng),
            1 => inst.scale_y = f(rng),
            2 => inst.rotation = f(rng),
            3 => inst.x = i(rng),
            4 => inst.object = AssetRef::at(rng.next() as u32),
            5 => inst.image = Some((f(rng), i(rng))),
            6 => inst.colour = rng.next() as u32,
            _ => {}
        }
    }
    for t in &mut room.tiles {
        match rng.below(6) {
            0 => t.width = rng.next() as u32,
            1 => t.source_x = i(rng),
            2 => t.source = TileSource::Background(AssetRef::at(rng.next() as u32)),
            3 => t.scale_x = f(rng),
            4 => t.depth = i(rng),
            _ => {}
        }
    }
    for b in &mut room.backgrounds {
        if rng.below(2) == 0 {
            b.x = i(rng);
            b.stretch = rng.below(2) == 0;
            b.tiled_x = true;
        }
    }
    for l in room.layers.iter_mut().flatten() {
        match rng.below(5) {
            0 => l.x_offset = f(rng),
            1 => l.depth = i(rng),
            2 => l.visible = !l.visible,
            _ => {}
        }
        match &mut l.data {
            LayerData::Tiles(t) => {
                if let Ok(tiles) = t.tiles_mut() {
                    for v in tiles.iter_mut() {
                        if rng.below(4) == 0 {
                            *v = rng.next() as u32;
                        }
                    }
                }
                if rng.below(4) == 0 {
                    t.tileset = AssetRef::at(rng.next() as u32);
                }
            }
            LayerData::Assets(a) => {
                for s in &mut a.sprites {
                    s.scale_x = f(rng);
                    s.frame_index = f(rng);
                    s.asset = AssetRef::at(rng.next() as u32);
                }
            }
            LayerData::Background(b) => {
                b.first_frame = f(rng);
                b.stretch = rng.below(2) == 0;
                b.tiled_h = rng.below(2) == 0;
            }
            LayerData::Instances(ids) => {
                for id in ids.iter_mut() {
                    if rng.below(3) == 0 {
                        *id = rng.next() as u32;
                    }
                }
            }
            _ => {}
        }
    }
}

fn sweep(data: &DataFile, name: &str, rounds: usize) {
    let rooms: Vec<(usize, Room)> = data
        .rooms
        .iter()
        .flat_map(|r| r.rooms.iter().enumerate())
        .filter_map(|(k, r)| Some((k, r.clone()?)))
        .collect();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut cache = PageCache::new(64 << 20);
    let opts = RenderOptions {
        scale: 0.25,
        work_factor: 8,
        ..Default::default()
    };
    for round in 0..rounds {
        let (k, room) = &rooms[round % rooms.len()];
        let mut room = room.clone();
        mutate(&mut room, &mut rng);
        let mut d = data.clone();
        d.rooms.as_mut().unwrap().rooms[*k] = Some(room.clone());
        match render_room(&d, *k, &mut cache, &opts) {
            Ok(r) => {
                let side = |v: u32| ((v as f64 * 0.25).round() as u32).max(1);
                assert_eq!(
                    r.image.dimensions(),
                    (side(room.width), side(room.height)),
                    "{name} round {round}"
                );
            }
            Err(e) => assert!(
                matches!(e, gmkit_render::RenderError::TooLarge { .. }),
                "{name} round {round}: {e}"
            ),
        }
    }
}

#[test]
fn hostile_values_in_corpus_rooms() {
    // GMS1 (tiles, backgrounds), 2022.3 (raw tile map), 2024.4 (RLE tile maps), 2024.8 (layers).
    for (name, rounds) in [
        ("tricking-the-vikings.win", 20),
        ("multiplayer-tanks.win", 15),
        ("ooo-kaizo.win", 16),
        ("platformermonster.win", 20),
    ] {
        let path = need!(corpus_path(name));
        let data = gmkit_data::parse_file(&path).unwrap();
        sweep(&data, name, rounds);
    }
}
