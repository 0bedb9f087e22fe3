//! Hand-made rooms whose every expected pixel is known: a 16×16 texture page of solid colours
//! built in the test, sprites, a background and a tile set cut from it, and rooms placing them
//! (GMS1 rooms: `layers: None`; 2.x rooms: layers).

use gmkit_data::chunks::background::{Background, Backgrounds, Tileset};
use gmkit_data::chunks::object::{Object, Objects};
use gmkit_data::chunks::room::{
    AssetLayer, BackgroundLayer, Instance, Layer, LayerData, Room, RoomBackground, Rooms,
    SpriteInstance, Tile, TileLayer, TileSource, View,
};
use gmkit_data::chunks::sprite::{Sprite, Sprites};
use gmkit_data::chunks::texture::{PageData, TexturePage, Textures};
use gmkit_data::chunks::texture_page_item::{TexturePageItem, TpagRef};
use gmkit_data::{AssetRef, DataFile};
use gmkit_render::{PageCache, RenderError, RenderOptions, Rendered, render_room};

const R: [u8; 4] = [255, 0, 0, 255];
const G: [u8; 4] = [0, 255, 0, 255];
const B: [u8; 4] = [0, 0, 255, 255];
const W: [u8; 4] = [255, 255, 255, 255];
const T: [u8; 4] = [0, 0, 0, 0];
const BLACK: [u8; 4] = [0, 0, 0, 255];
/// The view outline colour.
const V: [u8; 4] = [255, 0, 255, 255];

/// The page: red, green, blue, white 4×4 squares on row 0; the 2×2 "quad" R G / B W at (0, 4);
/// the tile set at (0, 8): tile 0 transparent, tile 1 red, tile 2 green left half, blue right.
fn page() -> Vec<u8> {
    let mut px = vec![0u8; 16 * 16 * 4];
    let mut put = |x: usize, y: usize, c: [u8; 4]| px[(y * 16 + x) * 4..][..4].copy_from_slice(&c);
    for y in 0..4 {
        for x in 0..4 {
            put(x, y, R);
            put(4 + x, y, G);
            put(8 + x, y, B);
            put(12 + x, y, W);
            put(4 + x, 8 + y, R);
            put(8 + x, 8 + y, if x < 2 { G } else { B });
        }
    }
    put(0, 4, R);
    put(1, 4, G);
    put(0, 5, B);
    put(1, 5, W);
    px
}

fn item(source: [u16; 4], target: [u16; 4], bounding: [u16; 2]) -> Option<TexturePageItem> {
    Some(TexturePageItem {
        source,
        target,
        bounding,
        texture_page: 0,
    })
}

/// Sprites: 0 red 4×4, 1 quad 2×2, 2 white 4×4, 3 green 4×4, 4 quad with origin (1, 1),
/// 5 red stored trimmed: a 4×4 frame whose item holds only its 2×2 middle.
/// Objects: one per sprite (object k shows sprite k), 6 invisible red, 7 no sprite.
/// Backgrounds: 0 the quad (2×2), 1 the tile set (12×4, three 4×4 tiles).
fn game() -> DataFile {
    let mut data = gmkit_data::sample();
    let blob = gmkit_media::encode_png(&gmkit_media::Image::new(16, 16, page()).unwrap()).unwrap();
    data.textures = Some(Textures {
        pages: vec![Some(TexturePage {
            data: PageData::Embedded(blob.into()),
            ..Default::default()
        })],
        end_align: 4,
    });
    let items = &mut data.texture_page_items.as_mut().unwrap().items;
    items.extend([
        item([0, 0, 4, 4], [0, 0, 4, 4], [4, 4]),    // 0 red
        item([0, 4, 2, 2], [0, 0, 2, 2], [2, 2]),    // 1 quad
        item([12, 0, 4, 4], [0, 0, 4, 4], [4, 4]),   // 2 white
        item([4, 0, 4, 4], [0, 0, 4, 4], [4, 4]),    // 3 green
        item([0, 8, 12, 4], [0, 0, 12, 4], [12, 4]), // 4 tile set
        item([0, 0, 2, 2], [1, 1, 2, 2], [4, 4]),    // 5 red, trimmed
    ]);
    let sprite = |name, w, h, frame: u32, origin: i32| {
        Some(Sprite {
            name,
            width: w,
            height: h,
            origin_x: origin,
            origin_y: origin,
            frames: vec![Some(TpagRef(frame))],
            ..Default::default()
        })
    };
    let n = data.intern("s");
    data.sprites = Some(Sprites {
        sprites: vec![
            sprite(n, 4, 4, 0, 0),
            sprite(n, 2, 2, 1, 0),
            sprite(n, 4, 4, 2, 0),
            sprite(n, 4, 4, 3, 0),
            sprite(n, 2, 2, 1, 1),
            sprite(n, 4, 4, 5, 0),
        ],
    });
    let object = |sprite: Option<u32>, visible, depth| {
        Some(Object {
            name: n,
            sprite: sprite.map_or(AssetRef::NONE, AssetRef::at),
            visible,
            depth,
            ..Default::default()
        })
    };
    data.objects = Some(Objects {
        objects: vec![
            object(Some(0), true, 0),
            object(Some(1), true, 0),
            object(Some(2), true, 0),
            object(Some(3), true, 0),
            object(Some(4), true, 0),
            object(Some(5), true, 0),
            object(Some(0), false, 0),
            object(None, true, 0),
        ],
    });
    data.backgrounds = Some(Backgrounds {
        backgrounds: vec![
            Some(Background {
                name: n,
                transparent: false,
                smooth: false,
                preload: false,
                texture: Some(TpagRef(1)),
                tileset: None,
            }),
            Some(Background {
                name: n,
                texture: Some(TpagRef(4)),
                tileset: Some(Tileset {
                    tile_width: 4,
                    tile_height: 4,
                    columns: 3,
                    frames_per_tile: 1,
                    tile_count: 3,
                    tile_ids: vec![0, 1, 2],
                    ..Default::default()
                }),
                transparent: false,
                smooth: false,
                preload: false,
            }),
        ],
        ..Default::default()
    });
    data
}

/// An instance of `object` at (x, y), scale 1, opaque white blend.
fn inst(object: u32, x: i32, y: i32) -> Instance {
    Instance {
        x,
        y,
        object: AssetRef::at(object),
        instance_id: 100000 + x as u32 * 100 + y as u32 + object * 10000,
        scale_x: 1.0,
        scale_y: 1.0,
        colour: 0xFFFF_FFFF,
        ..Default::default()
    }
}

/// A GMS1 room of `w × h` with a black background colour.
fn room(w: u32, h: u32) -> Room {
    Room {
        width: w,
        height: h,
        draw_background_colour: true,
        background_colour: 0,
        ..Default::default()
    }
}

fn layer(depth: i32, data: LayerData) -> Layer {
    Layer {
        depth,
        visible: true,
        data,
        ..Default::default()
    }
}

fn render_opts(
    data: &mut DataFile,
    room: Room,
    opts: &RenderOptions,
) -> Result<Rendered, RenderError> {
    data.rooms = Some(Rooms {
        rooms: vec![Some(room)],
    });
    render_room(data, 0, &mut PageCache::default(), opts)
}

fn render(room: Room) -> Rendered {
    render_opts(&mut game(), room, &RenderOptions::default()).expect("renders")
}

fn px(r: &Rendered, x: u32, y: u32) -> [u8; 4] {
    r.image.get_pixel(x, y).0
}

/// Asserts rows of pixels starting at (0, 0).
fn rows(r: &Rendered, expected: &[&[[u8; 4]]]) {
    for (y, row) in expected.iter().enumerate() {
        let got: Vec<[u8; 4]> = (0..row.len() as u32).map(|x| px(r, x, y as u32)).collect();
        assert_eq!(got, row.to_vec(), "row {y}");
    }
}

#[test]
fn background_colour_is_bgr() {
    let r = render(Room {
        background_colour: 0x00FF_8040,
        ..room(3, 2)
    });
    assert_eq!(px(&r, 2, 1), [0x40, 0x80, 0xFF, 255]);
    // Not drawn: transparent.
    let r = render(Room {
        draw_background_colour: false,
        ..room(3, 2)
    });
    assert_eq!(px(&r, 0, 0), T);
}

#[test]
fn instance_at_its_position() {
    let r = render(Room {
        instances: vec![inst(0, 2, 3)],
        ..room(8, 8)
    });
    assert_eq!(r.stats.instances_drawn, 1);
    for y in 0..8 {
        for x in 0..8 {
            let inside = (2..6).contains(&x) && (3..7).contains(&y);
            assert_eq!(px(&r, x, y), if inside { R } else { BLACK }, "({x}, {y})");
        }
    }
}

#[test]
fn origin_moves_the_sprite() {
    // Origin (1, 1) at (2, 2): the quad covers (1..3, 1..3).
    let r = render(Room {
        instances: vec![inst(4, 2, 2)],
        ..room(4, 4)
    });
    rows(
        &r,
        &[
            &[BLACK; 4],
            &[BLACK, R, G, BLACK],
            &[BLACK, B, W, BLACK],
            &[BLACK; 4],
        ],
    );
}

#[test]
fn rotation_is_counter_clockwise() {
    let at = |angle: f32| Instance {
        rotation: angle,
        ..inst(1, 2, 2)
    };
    // 0°: R G / B W at (2..4, 2..4).
    let r = render(Room {
        instances: vec![at(0.0)],
        ..room(4, 4)
    });
    rows(
        &r,
        &[
            &[BLACK; 4],
            &[BLACK; 4],
            &[BLACK, BLACK, R, G],
            &[BLACK, BLACK, B, W],
        ],
    );
    // 90° counter-clockwise about (2, 2): G W / R B at (2..4, 0..2).
    let r = render(Room {
        instances: vec![at(90.0)],
        ..room(4, 4)
    });
    rows(
        &r,
        &[
            &[BLACK, BLACK, G, W],
            &[BLACK, BLACK, R, B],
            &[BLACK; 4],
            &[BLACK; 4],
        ],
    );
    // 180°: W B / G R at (0..2, 0..2).
    let r = render(Room {
        instances: vec![at(180.0)],
        ..room(4, 4)
    });
    rows(
        &r,
        &[
            &[W, B, BLACK, BLACK],
            &[G, R, BLACK, BLACK],
            &[BLACK; 4],
            &[BLACK; 4],
        ],
    );
    // 270° (and -90°): B R / W G at (0..2, 2..4).
    for a in [270.0, -90.0] {
        let r = render(Room {
            instances: vec![at(a)],
            ..room(4, 4)
        });
        rows(
            &r,
            &[
                &[BLACK; 4],
                &[BLACK; 4],
                &[B, R, BLACK, BLACK],
                &[W, G, BLACK, BLACK],
            ],
        );
    }
}

#[test]
fn scale_and_mirror() {
    let r = render(Room {
        instances: vec![Instance {
            scale_x: 2.0,
            scale_y: 2.0,
            ..inst(1, 0, 0)
        }],
        ..room(4, 4)
    });
    rows(
        &r,
        &[&[R, R, G, G], &[R, R, G, G], &[B, B, W, W], &[B, B, W, W]],
    );
    // Scale −1 × 1 at (2, 0): mirrored to the left of x = 2.
    let r = render(Room {
        instances: vec![Instance {
            scale_x: -1.0,
            ..inst(1, 2, 0)
        }],
        ..room(4, 2)
    });
    rows(&r, &[&[G, R, BLACK, BLACK], &[W, B, BLACK, BLACK]]);
}

#[test]
fn blend_colour_and_alpha() {
    // White sprite, blend red (0xAABBGGRR).
    let r = render(Room {
        instances: vec![Instance {
            colour: 0xFF00_00FF,
            ..inst(2, 0, 0)
        }],
        ..room(4, 4)
    });
    assert_eq!(px(&r, 1, 1), R);
    // White at alpha 0x80 over black: 128 grey, opaque.
    let r = render(Room {
        instances: vec![Instance {
            colour: 0x80FF_FFFF,
            ..inst(2, 0, 0)
        }],
        ..room(4, 4)
    });
    assert_eq!(px(&r, 0, 0), [128, 128, 128, 255]);
    // Green at alpha 0x80 over red.
    let r = render(Room {
        instances: vec![
            inst(0, 0, 0),
            Instance {
                colour: 0x80FF_FFFF,
                ..inst(3, 0, 0)
            },
        ],
        ..room(4, 4)
    });
    assert_eq!(px(&r, 3, 3), [127, 128, 0, 255]);
}

#[test]
fn trimmed_frames_keep_their_offset() {
    let r = render(Room {
        instances: vec![inst(5, 0, 0)],
        ..room(4, 4)
    });
    rows(
        &r,
        &[
            &[BLACK; 4],
            &[BLACK, R, R, BLACK],
            &[BLACK, R, R, BLACK],
            &[BLACK; 4],
        ],
    );
}

#[test]
fn gms1_depth_order() {
    let mut data = game();
    // Red at depth 10 listed last, green at depth -10 listed first: green is on top.
    data.objects.as_mut().unwrap().objects[0]
        .as_mut()
        .unwrap()
        .depth = 10;
    data.objects.as_mut().unwrap().objects[3]
        .as_mut()
        .unwrap()
        .depth = -10;
    let r = render_opts(
        &mut data,
        Room {
            instances: vec![inst(3, 1, 0), inst(0, 0, 0)],
            ..room(5, 1)
        },
        &RenderOptions::default(),
    )
    .unwrap();
    rows(&r, &[&[R, G, G, G, G]]);
    // A tile at depth 0 goes between them: green (−10) > tile (0) > red (10).
    let r = render_opts(
        &mut data,
        Room {
            instances: vec![inst(3, 2, 0), inst(0, 0, 0)],
            tiles: vec![Tile {
                x: 1,
                y: 0,
                source: TileSource::Background(AssetRef::at(0)),
                source_x: 1,
                source_y: 0,
                width: 1,
                height: 1,
                depth: 0,
                scale_x: 3.0,
                scale_y: 1.0,
                colour: 0xFFFF_FFFF,
                ..Default::default()
            }],
            ..room(6, 1)
        },
        &RenderOptions::default(),
    )
    .unwrap();
    rows(&r, &[&[R, G, G, G, G, G]]);
    assert_eq!(r.stats.tiles_drawn, 1);
}

#[test]
fn legacy_tile_cuts_its_rectangle() {
    // Background 0 is the quad; the tile shows its bottom row (B W) at (1, 1).
    let r = render(Room {
        tiles: vec![Tile {
            x: 1,
            y: 1,
            source: TileSource::Background(AssetRef::at(0)),
            source_x: 0,
            source_y: 1,
            width: 2,
            height: 1,
            scale_x: 1.0,
            scale_y: 1.0,
            colour: 0xFFFF_FFFF,
            ..Default::default()
        }],
        ..room(4, 3)
    });
    rows(&r, &[&[BLACK; 4], &[BLACK, B, W, BLACK], &[BLACK; 4]]);
}

#[test]
fn gms1_backgrounds_tile_stretch_and_foreground() {
    let slot = |x, y, tiled, stretch, foreground| RoomBackground {
        enabled: true,
        foreground,
        background: AssetRef::at(0),
        x,
        y,
        tiled_x: tiled,
        tiled_y: tiled,
        stretch,
        ..Default::default()
    };
    // Tiled from (1, 0): pixel (x, y) shows quad[(x − 1) mod 2, y mod 2].
    let r = render(Room {
        backgrounds: vec![slot(1, 0, true, false, false)],
        ..room(5, 2)
    });
    rows(&r, &[&[G, R, G, R, G], &[W, B, W, B, W]]);
    // Stretched over a 4×4 room.
    let r = render(Room {
        backgrounds: vec![slot(0, 0, false, true, false)],
        ..room(4, 4)
    });
    rows(
        &r,
        &[&[R, R, G, G], &[R, R, G, G], &[B, B, W, W], &[B, B, W, W]],
    );
    // A foreground slot covers an instance; a background slot does not.
    let r = render(Room {
        backgrounds: vec![slot(0, 0, false, false, true)],
        instances: vec![inst(2, 0, 0)],
        ..room(4, 4)
    });
    rows(&r, &[&[R, G, W, W], &[B, W, W, W]]);
    let r = render(Room {
        backgrounds: vec![slot(0, 0, false, false, false)],
        instances: vec![inst(2, 0, 0)],
        ..room(4, 4)
    });
    assert_eq!(px(&r, 0, 0), W);
}

#[test]
fn layers_draw_by_depth_and_visibility() {
    let instances = vec![inst(0, 0, 0), inst(3, 1, 0)];
    let (red, green) = (instances[0].instance_id, instances[1].instance_id);
    // Red's layer is nearer (lower depth) although listed first.
    let r = render(Room {
        instances: instances.clone(),
        layers: Some(vec![
            layer(0, LayerData::Instances(vec![red])),
            layer(100, LayerData::Instances(vec![green])),
        ]),
        ..room(5, 1)
    });
    rows(&r, &[&[R, R, R, R, G]]);
    assert_eq!(r.stats.layers_drawn, 2);
    // A hidden layer is not drawn.
    let mut hidden = layer(0, LayerData::Instances(vec![red]));
    hidden.visible = false;
    let r = render(Room {
        instances,
        layers: Some(vec![hidden, layer(100, LayerData::Instances(vec![green]))]),
        ..room(5, 1)
    });
    rows(&r, &[&[BLACK, G, G, G, G]]);
    assert_eq!(r.stats.layers_hidden, 1);
}

#[test]
fn invisible_objects_and_objects_without_sprite_are_not_drawn() {
    let r = render(Room {
        instances: vec![inst(6, 0, 0), inst(7, 0, 0)],
        ..room(4, 4)
    });
    assert_eq!(px(&r, 0, 0), BLACK);
    assert_eq!(r.stats.instances_drawn, 0);
    assert_eq!(r.stats.instances_without_sprite, 2);
    assert_eq!(r.skipped_total, 0);
}

#[test]
fn background_layer_colour_sprite_tiling() {
    // A colour-only background layer (ABGR), under a tiled sprite layer with an offset.
    let colour = layer(
        200,
        LayerData::Background(BackgroundLayer {
            visible: true,
            sprite: AssetRef::NONE,
            colour: 0xFF00_FF00,
            ..Default::default()
        }),
    );
    let mut tiled = layer(
        100,
        LayerData::Background(BackgroundLayer {
            visible: true,
            sprite: AssetRef::at(1),
            tiled_h: true,
            colour: 0xFFFF_FFFF,
            ..Default::default()
        }),
    );
    tiled.x_offset = 1.0;
    tiled.y_offset = 1.0;
    let r = render(Room {
        draw_background_colour: false,
        layers: Some(vec![colour, tiled]),
        ..room(5, 4)
    });
    rows(&r, &[&[G; 5], &[G, R, G, R, G], &[W, B, W, B, W], &[G; 5]]);
    // Stretched, and tinted blue.
    let r = render(Room {
        layers: Some(vec![layer(
            0,
            LayerData::Background(BackgroundLayer {
                visible: true,
                sprite: AssetRef::at(2),
                stretch: true,
                colour: 0xFFFF_0000,
                ..Default::default()
            }),
        )]),
        ..room(9, 3)
    });
    assert!(r.image.pixels().all(|p| p.0 == B));
}

#[test]
fn tile_map_cells_and_flags() {
    // 3 × 2 cells of 4×4: [1, 2, 0] / [2 mirrored, 2 flipped, 2 rotated].
    let tiles = vec![1, 2, 0, 2 | 1 << 28, 2 | 1 << 29, 2 | 1 << 30];
    let r = render(Room {
        layers: Some(vec![layer(
            0,
            LayerData::Tiles(TileLayer::new(AssetRef::at(1), 3, 2, tiles)),
        )]),
        ..room(12, 8)
    });
    assert_eq!(r.stats.tiles_drawn, 5);
    let row = |y: u32| (0..12).map(|x| px(&r, x, y)).collect::<Vec<_>>();
    let plain = [R, R, R, R, G, G, B, B, BLACK, BLACK, BLACK, BLACK];
    assert_eq!(row(0), plain);
    assert_eq!(row(3), plain);
    // Mirrored: blue then green; flipped (vertically): unchanged columns.
    assert_eq!(row(4)[..8], [B, B, G, G, G, G, B, B]);
    // Rotated a quarter turn clockwise: green on top, blue below.
    assert_eq!(row(4)[8..], [G; 4]);
    assert_eq!(row(5)[8..], [G; 4]);
    assert_eq!(row(6)[8..], [B; 4]);
    assert_eq!(row(7)[8..], [B; 4]);
}

#[test]
fn tile_map_with_offset_and_out_of_range_tile() {
    let mut l = layer(
        0,
        LayerData::Tiles(TileLayer::new(AssetRef::at(1), 2, 1, vec![1, 7])),
    );
    l.x_offset = 2.0;
    let r = render(Room {
        layers: Some(vec![l]),
        ..room(8, 1)
    });
    rows(&r, &[&[BLACK, BLACK, R, R, R, R, BLACK, BLACK]]);
    assert_eq!(r.stats.tiles_drawn, 1);
    assert_eq!(r.skipped_total, 1, "{:?}", r.skipped);
}

#[test]
fn asset_layer_sprites_and_legacy_tiles() {
    let a = AssetLayer {
        legacy_tiles: vec![Tile {
            x: 0,
            y: 0,
            source: TileSource::Sprite(AssetRef::at(1)), // a sprite in 2.x asset layers
            source_x: 1,
            source_y: 1,
            width: 1,
            height: 1,
            scale_x: 1.0,
            scale_y: 1.0,
            colour: 0xFFFF_FFFF,
            ..Default::default()
        }],
        sprites: vec![SpriteInstance {
            asset: AssetRef::at(1),
            x: 3,
            y: 2,
            scale_x: 1.0,
            scale_y: 1.0,
            colour: 0xFFFF_FFFF,
            rotation: 90.0,
            ..Default::default()
        }],
        sequences: Some(vec![SpriteInstance::default()]),
        ..Default::default()
    };
    let r = render(Room {
        layers: Some(vec![layer(0, LayerData::Assets(a))]),
        ..room(5, 2)
    });
    rows(
        &r,
        &[&[W, BLACK, BLACK, G, W], &[BLACK, BLACK, BLACK, R, B]],
    );
    assert_eq!((r.stats.tiles_drawn, r.stats.sprites_drawn), (1, 1));
    assert_eq!(r.skipped_total, 1, "the sequence is listed as not drawn");
    assert!(r.skipped[0].reason.contains("sequences"));
}

#[test]
fn views_are_outlined() {
    let view = View {
        enabled: true,
        view: [1, 1, 3, 3],
        ..Default::default()
    };
    let opts = RenderOptions {
        views: true,
        ..Default::default()
    };
    let r = render_opts(
        &mut game(),
        Room {
            flags: 1,
            views: vec![view],
            ..room(5, 5)
        },
        &opts,
    )
    .unwrap();
    rows(
        &r,
        &[
            &[BLACK; 5],
            &[BLACK, V, V, V, BLACK],
            &[BLACK, V, BLACK, V, BLACK],
            &[BLACK, V, V, V, BLACK],
            &[BLACK; 5],
        ],
    );
    assert_eq!(r.stats.views_drawn, 1);
}

#[test]
fn hostile_values_are_skipped_not_panicking() {
    let r = render(Room {
        instances: vec![
            Instance {
                scale_x: f32::NAN,
                ..inst(0, 0, 0)
            },
            Instance {
                rotation: f32::INFINITY,
                ..inst(0, 0, 0)
            },
            Instance {
                scale_x: 1e30,
                scale_y: -1e30,
                rotation: 33.0,
                ..inst(0, i32::MIN, i32::MAX)
            },
            Instance {
                object: AssetRef::at(999),
                ..inst(0, 0, 0)
            },
            Instance {
                image: Some((1.0, i32::MIN)),
                ..inst(0, 1, 1)
            },
        ],
        tiles: vec![Tile {
            source: TileSource::Background(AssetRef::at(77)),
            width: u32::MAX,
            height: u32::MAX,
            scale_x: 1.0,
            scale_y: 1.0,
            ..Default::default()
        }],
        layers: None,
        ..room(6, 6)
    });
    assert_eq!(r.skipped_total, 4, "{:#?}", r.skipped);
    assert_eq!(r.stats.instances_drawn, 2);
    assert_eq!(px(&r, 1, 1), R);
    // Out-of-range layer references.
    let r = render(Room {
        layers: Some(vec![
            layer(0, LayerData::Instances(vec![12345])),
            layer(
                0,
                LayerData::Background(BackgroundLayer {
                    visible: true,
                    sprite: AssetRef::at(500),
                    ..Default::default()
                }),
            ),
            layer(
                0,
                LayerData::Tiles(TileLayer::new(AssetRef::at(0), 1, 1, vec![1])),
            ),
            layer(
                0,
                LayerData::Tiles(TileLayer::new(AssetRef::at(1), 5, 5, vec![1])),
            ),
        ]),
        ..room(4, 4)
    });
    assert_eq!(r.skipped_total, 4, "{:#?}", r.skipped);
}

#[test]
fn work_limit_bounds_huge_rooms_of_huge_instances() {
    let big = Instance {
        scale_x: 1000.0,
        scale_y: 1000.0,
        ..inst(0, 0, 0)
    };
    let opts = RenderOptions {
        work_factor: 0,
        ..Default::default()
    };
    // 2²⁶ pixels of work at least: 64 full 1024² draws, then skipped.
    let r = render_opts(
        &mut game(),
        Room {
            instances: vec![big; 100],
            ..room(1024, 1024)
        },
        &opts,
    )
    .unwrap();
    assert_eq!(r.stats.instances_drawn, 64);
    assert_eq!(r.skipped_total, 36);
    assert!(r.skipped[0].reason.contains("work limit"));
}

#[test]
fn rooms_too_large_empty_or_missing_are_errors() {
    let mut data = game();
    let e = render_opts(&mut data, room(20000, 10), &RenderOptions::default()).unwrap_err();
    assert!(matches!(e, RenderError::TooLarge { .. }), "{e}");
    let opts = RenderOptions {
        max_pixels: 99,
        ..Default::default()
    };
    let e = render_opts(&mut data, room(10, 10), &opts).unwrap_err();
    assert!(e.to_string().contains("larger than the 99-pixel"), "{e}");
    let e = render_opts(&mut data, room(0, 10), &RenderOptions::default()).unwrap_err();
    assert!(matches!(e, RenderError::Empty { .. }));
    let e = render_room(
        &data,
        5,
        &mut PageCache::default(),
        &RenderOptions::default(),
    )
    .unwrap_err();
    assert_eq!(
        e.to_string(),
        "room 5 does not exist (the file has 1 rooms)"
    );
}

#[test]
fn page_cache_budget_and_reuse() {
    let mut data = game();
    data.rooms = Some(Rooms {
        rooms: vec![Some(Room {
            instances: vec![inst(0, 0, 0)],
            ..room(4, 4)
        })],
    });
    let mut cache = PageCache::new(16 * 16 * 4);
    let r = render_room(&data, 0, &mut cache, &RenderOptions::default()).unwrap();
    assert_eq!(r.stats.pages_decoded, 1);
    let again = render_room(&data, 0, &mut cache, &RenderOptions::default()).unwrap();
    assert_eq!(again.stats.pages_decoded, 0);
    assert_eq!(again.image, r.image);
    assert_eq!(cache.pages(), vec![0]);
    // A budget below the page: the instance is skipped with the reason.
    let mut small = PageCache::new(100);
    let r = render_room(&data, 0, &mut small, &RenderOptions::default()).unwrap();
    assert_eq!(r.stats.instances_drawn, 0);
    assert!(r.skipped[0].reason.contains("budget"), "{:?}", r.skipped);
    assert_eq!(small.bytes(), 0);
}

#[test]
fn sprite_frame_at_full_size() {
    let data = game();
    let f = gmkit_render::render_sprite_frame(&data, 5, 0, &mut PageCache::default()).unwrap();
    assert_eq!((f.width(), f.height()), (4, 4));
    assert_eq!(f.get_pixel(0, 0).0, T);
    assert_eq!(f.get_pixel(1, 2).0, R);
    assert!(gmkit_render::render_sprite_frame(&data, 5, 1, &mut PageCache::default()).is_err());
}

#[test]
fn scale_draws_a_smaller_picture() {
    let opts = RenderOptions {
        scale: 0.5,
        ..Default::default()
    };
    let r = render_opts(
        &mut game(),
        Room {
            instances: vec![inst(0, 2, 2)],
            ..room(8, 8)
        },
        &opts,
    )
    .unwrap();
    assert_eq!(r.image.dimensions(), (4, 4));
    rows(
        &r,
        &[
            &[BLACK; 4],
            &[BLACK, R, R, BLACK],
            &[BLACK, R, R, BLACK],
            &[BLACK; 4],
        ],
    );
    // A room too large whole fits at a smaller scale; bad scales are errors.
    let mut data = game();
    let big = room(20000, 20000);
    assert!(render_opts(&mut data, big.clone(), &RenderOptions::default()).is_err());
    let small = RenderOptions {
        scale: 0.25,
        ..Default::default()
    };
    let r = render_opts(&mut data, big, &small).unwrap();
    assert_eq!(r.image.dimensions(), (5000, 5000));
    for bad in [0.0, -1.0, f64::NAN, f64::INFINITY] {
        let o = RenderOptions {
            scale: bad,
            ..Default::default()
        };
        assert!(matches!(
            render_opts(&mut data, room(4, 4), &o),
            Err(RenderError::Scale(_))
        ));
    }
}

/// `a × b / 255`, rounded (a tint channel).
fn tint_channel(a: u8, b: u8) -> u8 {
    ((a as u32 * b as u32 + 127) / 255) as u8
}

/// The pixel source-over gives, by the per-pixel rule ([`gmkit_render::blit::blend`]).
fn over_px(mut dst: [u8; 4], src: [u8; 4]) -> [u8; 4] {
    gmkit_render::blit::blend(&mut dst, src);
    dst
}

/// Large draws (a quarter megapixel and more) share their rows between the cores, gather a
/// page row repeated down the picture once, and blend by whole rows: every pixel equals the
/// per-pixel rule, over an opaque and over a transparent canvas.
#[test]
fn large_tiled_translucent_background_is_exact() {
    let quad = [[R, G], [B, W]];
    let tint = [0xFF, 0x80, 0xFF, 0x40];
    for opaque in [true, false] {
        let mut layers = vec![];
        if opaque {
            layers.push(layer(
                200,
                LayerData::Background(BackgroundLayer {
                    visible: true,
                    sprite: AssetRef::NONE,
                    colour: 0xFF1A_2B3C,
                    ..Default::default()
                }),
            ));
        }
        let mut tiled = layer(
            100,
            LayerData::Background(BackgroundLayer {
                visible: true,
                sprite: AssetRef::at(1),
                tiled_h: true,
                tiled_v: true,
                colour: 0x40FF_80FF,
                ..Default::default()
            }),
        );
        tiled.x_offset = 1.0;
        tiled.y_offset = 1.0;
        layers.push(tiled);
        let r = render(Room {
            draw_background_colour: false,
            layers: Some(layers),
            ..room(640, 640)
        });
        let base = if opaque { [0x3C, 0x2B, 0x1A, 255] } else { T };
        for (x, y, p) in r.image.enumerate_pixels() {
            let q = quad[(y as usize + 1) % 2][(x as usize + 1) % 2];
            let src = [0, 1, 2, 3].map(|k| tint_channel(q[k], tint[k]));
            assert_eq!(
                p.0,
                over_px(base, src),
                "({x}, {y}), opaque canvas {opaque}"
            );
        }
    }
}

/// A large draw whose rows each show another page row (no row repeated): the whole 16×16 page
/// stretched 1024 times across a 16384×16 room at alpha 0x80, its transparent pixels leaving
/// the canvas as it was, over black and over a transparent canvas.
#[test]
fn large_stretched_translucent_sprite_is_exact() {
    let page = page();
    for opaque in [true, false] {
        let mut data = game();
        let items = &mut data.texture_page_items.as_mut().unwrap().items;
        items.push(item([0, 0, 16, 16], [0, 0, 16, 16], [16, 16]));
        let frame = items.len() as u32 - 1;
        let sprites = &mut data.sprites.as_mut().unwrap().sprites;
        sprites.push(Some(Sprite {
            width: 16,
            height: 16,
            frames: vec![Some(TpagRef(frame))],
            ..sprites[0].clone().unwrap()
        }));
        let sprite = sprites.len() as u32 - 1;
        let objects = &mut data.objects.as_mut().unwrap().objects;
        objects.push(Some(Object {
            sprite: AssetRef::at(sprite),
            ..objects[0].clone().unwrap()
        }));
        let object = objects.len() as u32 - 1;
        let room = Room {
            draw_background_colour: opaque,
            instances: vec![Instance {
                scale_x: 1024.0,
                colour: 0x80FF_FFFF,
                ..inst(object, 0, 0)
            }],
            ..room(16384, 16)
        };
        let r = render_opts(&mut data, room, &RenderOptions::default()).expect("renders");
        assert_eq!(r.stats.instances_drawn, 1);
        let base = if opaque { BLACK } else { T };
        for (x, y, p) in r.image.enumerate_pixels() {
            let at = (y as usize * 16 + x as usize / 1024) * 4;
            let q: [u8; 4] = page[at..at + 4].try_into().unwrap();
            let src = [q[0], q[1], q[2], tint_channel(q[3], 0x80)];
            assert_eq!(
                p.0,
                over_px(base, src),
                "({x}, {y}), opaque canvas {opaque}"
            );
        }
    }
}
