//! Special sprite kinds (SWF, Spine, vector; vector sprites also occur in `killstreak.win`, see
//! `newest_layouts.rs`): add them to a real file through the model, rebuild, re-parse and
//! compare; and decode hand-assembled Spine bodies.

use bytes::Bytes;
use gmkit_data::chunks::sprite::spine::{deobfuscate, obfuscate};
use gmkit_data::chunks::sprite::vector::shape::{
    Fill, GradientFill, GradientRecord, Rgba, StyleGroup, SubShape,
};
use gmkit_data::chunks::sprite::{
    NineSlice, SpecialBody, SpecialHeader, SpineSprite, SpineTexture, SpineTextureData,
    SpineTextures, Sprite, SwfSprite, VectorMasks, VectorShape, VectorSprite,
};
use gmkit_data::chunks::texture_page_item::{TexturePageItem, TpagRef};
use gmkit_data::{DataFile, build_bytes, parse_bytes};
use gmkit_testdata::{corpus_file, need};

/// Adds `n` new texture page items and returns references to them.
fn new_items(file: &mut DataFile, n: u16) -> Vec<Option<TpagRef>> {
    let tpag = file.texture_page_items.as_mut().expect("TPAG");
    (0..n)
        .map(|i| {
            tpag.items.push(Some(TexturePageItem {
                source: [i, 2 * i, 16, 16],
                target: [0, 0, 16, 16],
                bounding: [16, 16],
                texture_page: 0,
            }));
            Some(TpagRef((tpag.items.len() - 1) as u32))
        })
        .collect()
}

fn special_sprite(file: &DataFile, header_version: u32, body: SpecialBody) -> Sprite {
    let name = file
        .sprites
        .as_ref()
        .and_then(|s| s.sprites.iter().flatten().next())
        .map(|s| s.name)
        .unwrap_or_default();
    Sprite {
        name,
        width: 16,
        height: 16,
        margin_right: 15,
        margin_bottom: 15,
        transparent: true,
        special: Some(Box::new(SpecialHeader {
            version: header_version,
            sprite_type: body.sprite_type().unwrap(),
            playback: file.version.is_gms2().then_some((1.0, 0)),
            sequence: None,
            nine_slice: None,
        })),
        special_body: Some(Box::new(body)),
        ..Default::default()
    }
}

/// Rebuilds, re-parses and checks the model and a second build.
fn round_trip(file: &DataFile) -> DataFile {
    let out = build_bytes(file).expect("build");
    let again = parse_bytes(out.clone()).expect("re-parse");
    assert_eq!(again.layout.size_hint, out.len());
    assert_eq!(again.version, file.version);
    assert_eq!(again.sprites, file.sprites);
    assert_eq!(again.texture_page_items, file.texture_page_items);
    let mut same = again.clone();
    same.layout.size_hint = file.layout.size_hint;
    assert!(same == *file, "some other part of the model changed");
    assert_eq!(build_bytes(&again).expect("second build"), out);
    again
}

#[test]
fn spine_swf_and_vector_sprites_round_trip() {
    let name = "beforetheafterinn.win";
    let mut file = parse_bytes(need!(corpus_file(name))).unwrap();
    // A 2024.13+ non-LTS file: 2023.1 Spine layout, vector sprites exist.
    assert!(
        file.version.non_lts_at_least(2024, 13),
        "{name}: {}",
        file.version
    );
    let vector_version = if file.version.at_least(2024, 14) {
        4
    } else {
        3
    };
    let items = new_items(&mut file, 6);

    let mut spine = SpineSprite {
        frames: Some(items[0..2].to_vec()),
        version: 3,
        cache_version: Some(1),
        textures: SpineTextures::Entries(vec![SpineTexture {
            width: 256,
            height: 128,
            data: SpineTextureData::Length(12345),
        }]),
        ..Default::default()
    };
    spine.set_json(br#"{"skeleton":{"hash":"x","spine":"4.1.17"},"bones":[{"name":"root"}]}"#);
    spine.set_atlas(b"\nskeleton.png\nsize: 256,128\nfilter: Linear,Linear\n");

    let swf = SwfSprite {
        swf_version: 8,
        frames: Some(vec![items[2]]),
        jpeg_flag: true,
        yyswf_version: 8,
        jpeg_table: Bytes::from_static(b"\xFF\xD8\xFF\xDB jpeg"),
        timeline: Bytes::from_static(&[3, 0, 0, 0, 1, 0, 0, 0, 0x10, 0x20, 0x30, 0x40]),
    };

    let vector = |frames: Vec<Option<TpagRef>>, shape: VectorShape| VectorSprite {
        version: vector_version,
        frame_shapes: (vector_version == 4).then(|| vec![0; frames.len()]),
        frames,
        shapes: vec![shape],
        masks: VectorMasks {
            width: 16,
            height: 16,
            masks: vec![Bytes::from_static(&[0x8F, 0xFF, 0x05])],
        },
    };
    let mut with_nine = special_sprite(
        &file,
        3,
        SpecialBody::Vector(vector(
            vec![items[3]],
            triangle(Fill::Solid(Rgba([255, 0, 0, 255]))),
        )),
    );
    with_nine.special.as_mut().unwrap().nine_slice = Some(NineSlice {
        left: 1,
        top: 2,
        right: 3,
        bottom: 4,
        enabled: true,
        tile_modes: [0, 1, 0, 1, 0],
    });
    let last = special_sprite(
        &file,
        3,
        SpecialBody::Vector(vector(
            items[4..6].to_vec(),
            triangle(Fill::Gradient(GradientFill {
                kind: 1,
                texture_entry: -1,
                matrix: [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0],
                records: vec![
                    GradientRecord {
                        ratio: 0,
                        colour: Rgba([0, 0, 0, 255]),
                    },
                    GradientRecord {
                        ratio: 255,
                        colour: Rgba([255, 255, 255, 255]),
                    },
                ],
            })),
        )),
    );

    let sprites = [
        special_sprite(&file, 3, SpecialBody::Spine(spine.clone())),
        special_sprite(&file, 3, SpecialBody::Swf(swf)),
        with_nine,
        last,
    ];
    let list = file.sprites.get_or_insert_with(Default::default);
    let first_new = list.sprites.len();
    list.sprites.extend(sprites.into_iter().map(Some));

    let again = round_trip(&file);
    let s = again.sprites.as_ref().unwrap();
    let Some(SpecialBody::Spine(sp)) = s.sprites[first_new]
        .as_ref()
        .unwrap()
        .special_body
        .as_deref()
    else {
        panic!("spine sprite expected");
    };
    assert!(sp.decode_json().starts_with(br#"{"skeleton""#));
    assert_eq!(sp.decode_atlas(), spine.decode_atlas());
    // The SWF timeline stays uninterpreted bytes; vector shapes are typed.
    assert!(file.opaque_chunks().iter().any(|c| c.as_str() == "SPRT"));
    let mut without_swf = again.clone();
    without_swf
        .sprites
        .as_mut()
        .unwrap()
        .sprites
        .remove(first_new + 1);
    assert!(without_swf.opaque_chunks().is_empty());
    round_trip(&without_swf);

    // A Spine-only file is fully typed, and an edit before the new sprites moves them safely.
    let mut only_spine = again.clone();
    only_spine
        .sprites
        .as_mut()
        .unwrap()
        .sprites
        .truncate(first_new + 1);
    assert!(only_spine.opaque_chunks().is_empty());
    if let Some(s) = only_spine.sprites.as_mut().unwrap().sprites[0]
        .as_mut()
        .filter(|s| s.special_body.is_none())
    {
        s.frames.push(items[5]);
        if s.masks.len() > 1 {
            let m = s.masks[0].clone();
            s.masks.push(m);
        }
    }
    round_trip(&only_spine);
}

/// A one-triangle shape filled with `fill`.
fn triangle(fill: Fill) -> VectorShape {
    VectorShape {
        version: 4,
        min_x: 0.0,
        max_x: 16.0,
        min_y: 0.0,
        max_y: 16.0,
        style_groups: vec![StyleGroup {
            fills: vec![fill],
            line_styles: vec![Rgba([0, 0, 0, 255])],
            sub_shapes: vec![SubShape {
                fill_style_1: 0,
                fill_style_2: -1,
                line_style: -1,
                points: vec![[0.0, 0.0], [16.0, 0.0], [0.0, 16.0]],
                point_colours: vec![0xFF00_00FF; 3],
                triangles: vec![[0, 1, 2]],
                aa_lines: vec![[0, 1]],
                aa_vectors: vec![[0.5, -0.5]],
            }],
        }],
    }
}

/// The obfuscation running key, straight from the notes.
fn keys(n: usize) -> Vec<u8> {
    let mut k: u8 = 42;
    (0..n)
        .map(|_| {
            let out = k;
            k = ((u32::from(k) * (u32::from(k) + 1)) % 256) as u8;
            out
        })
        .collect()
}

fn obf(plain: &[u8]) -> Vec<u8> {
    plain
        .iter()
        .zip(keys(plain.len()))
        .map(|(&b, k)| b.wrapping_add(k))
        .collect()
}

fn le(v: &[i32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

#[test]
fn obfuscation_matches_the_notes() {
    assert_eq!(keys(4), [42, 14, 210, 22]);
    let text = b"skeleton.png\nformat: RGBA8888\n";
    assert_eq!(obfuscate(text), obf(text));
    assert_eq!(deobfuscate(&obf(text)), text);
}

/// Hand-assembles Spine v1 and v2 bodies (pre-2023.1 layout, inline texture blobs) per the notes,
/// patches them into a built file over placeholders of the same size, and checks the reader's
/// fields and that the writer reproduces the bytes.
#[test]
fn hand_assembled_spine_bodies_decode() {
    let json: &[u8] = br#"{"skeleton":{"spine":"3.8.99"},"bones":[]}"#;
    let atlas: &[u8] = b"\nhero.png\nsize: 64,32\nformat: RGBA8888\n";
    let blob: &[u8] = b"\x89PNG\r\n\x1a\nnot really";
    for version in [1, 2] {
        let mut file = parse_bytes(need!(corpus_file("dieback.win"))).unwrap();
        assert!(!file.version.non_lts_at_least(2023, 1));
        let (jl, al, bl) = (json.len() as i32, atlas.len() as i32, blob.len() as i32);
        let mut hand = Vec::new();
        let placeholder_textures = if version == 1 {
            hand.extend(le(&[1, jl, al, bl, 64, 32]));
            hand.extend(obf(json));
            hand.extend(obf(atlas));
            hand.extend(blob);
            SpineTextures::Single {
                atlas_width: 0,
                atlas_height: 0,
                blob: vec![0; blob.len()].into(),
            }
        } else {
            hand.extend(le(&[2, jl, al, 1]));
            hand.extend(obf(json));
            hand.extend(obf(atlas));
            hand.extend(le(&[64, 32, bl]));
            hand.extend(blob);
            SpineTextures::Entries(vec![SpineTexture {
                width: 0,
                height: 0,
                data: SpineTextureData::Blob(vec![0; blob.len()].into()),
            }])
        };
        let placeholder = SpineSprite {
            frames: None,
            version,
            cache_version: None,
            json: vec![0; json.len()].into(),
            atlas: vec![0; atlas.len()].into(),
            textures: placeholder_textures,
        };
        let sprite = special_sprite(&file, 1, SpecialBody::Spine(placeholder));
        let list = file.sprites.get_or_insert_with(Default::default);
        let at_index = list.sprites.len();
        list.sprites.push(Some(sprite));
        let mut out = build_bytes(&file).unwrap();

        // The placeholder body: the header words followed by zeros.
        let head = &hand[..12];
        let starts: Vec<usize> = out
            .windows(hand.len())
            .enumerate()
            .filter(|(_, w)| {
                w.starts_with(head) && w[16..16 + json.len() + atlas.len()].iter().all(|&b| b == 0)
            })
            .map(|(i, _)| i)
            .collect();
        assert_eq!(starts.len(), 1, "placeholder body found once");
        out[starts[0]..starts[0] + hand.len()].copy_from_slice(&hand);

        let parsed = parse_bytes(out.clone()).unwrap();
        let s = parsed.sprites.as_ref().unwrap().sprites[at_index]
            .as_ref()
            .unwrap();
        let Some(SpecialBody::Spine(sp)) = s.special_body.as_deref() else {
            panic!("spine sprite expected");
        };
        assert_eq!(sp.version, version);
        assert_eq!(sp.cache_version, None);
        assert_eq!(sp.frames, None);
        assert_eq!(sp.decode_json(), json);
        assert_eq!(sp.decode_atlas(), atlas);
        assert_eq!(&sp.json[..], &obf(json)[..]);
        match &sp.textures {
            SpineTextures::Single {
                atlas_width,
                atlas_height,
                blob: b,
            } => {
                assert_eq!(version, 1);
                assert_eq!((*atlas_width, *atlas_height), (64, 32));
                assert_eq!(&b[..], blob);
            }
            SpineTextures::Entries(list) => {
                assert_eq!(version, 2);
                assert_eq!(list.len(), 1);
                assert_eq!((list[0].width, list[0].height), (64, 32));
                assert_eq!(list[0].data, SpineTextureData::Blob(Bytes::from(blob)));
            }
        }
        assert_eq!(
            build_bytes(&parsed).unwrap(),
            out,
            "writer reproduces the hand bytes"
        );
    }
}

/// A UI layer tree of every node kind, added to a file whose UILR is empty: rebuilt, re-parsed,
/// identical (`sapphic-horse-race.win` holds a real one, see `newest_layouts.rs`).
#[test]
fn ui_layer_tree_round_trips() {
    use gmkit_data::chunks::room::assets::{SpriteInstance, TextItem};
    use gmkit_data::chunks::room::instance::Instance;
    use gmkit_data::chunks::room::layer::{EffectProperty, LayerEffect};
    use gmkit_data::chunks::ui_layer::{FlexItem, FlexPanel, UiItem, UiLayer, UiNode};
    let mut file = parse_bytes(need!(corpus_file("beforetheafterinn.win"))).unwrap();
    let name = file.general.as_ref().unwrap().name;
    let flex = FlexItem {
        visible: true,
        anchor: 4,
        keep_aspect: true,
        ..Default::default()
    };
    let text = TextItem {
        name,
        font: gmkit_data::AssetRef::NONE,
        text: Some(name),
        wrap_mode_origin: file.version.at_least(2024, 14).then_some((1, 2)),
        paragraph_spacing: file.version.at_least(2024, 14).then_some(1.5),
        ..Default::default()
    };
    let instance = Instance {
        x: 5,
        y: -7,
        instance_id: 123_456,
        creation_code: gmkit_data::AssetRef::NONE,
        scale_x: 1.0,
        scale_y: 1.0,
        image: Some((1.0, 0)),
        colour: 0xFFFF_FFFF,
        pre_create_code: Some(gmkit_data::AssetRef::NONE),
        ..Default::default()
    };
    let panel = FlexPanel {
        name,
        flex_grow: 1.0,
        children: vec![
            UiNode::Object(UiItem { instance, flex }),
            UiNode::Sprite(UiItem {
                instance: SpriteInstance {
                    name,
                    asset: gmkit_data::AssetRef::NONE,
                    ..Default::default()
                },
                flex,
            }),
            UiNode::Sequence(UiItem {
                instance: SpriteInstance {
                    name,
                    asset: gmkit_data::AssetRef::NONE,
                    ..Default::default()
                },
                flex,
            }),
            UiNode::TextItem(UiItem {
                instance: text,
                flex,
            }),
        ],
        ..Default::default()
    };
    let root = UiNode::Layer(UiLayer {
        name,
        draw_space: 1,
        visible: true,
        children: vec![
            UiNode::FlexPanel(panel),
            UiNode::Effect(LayerEffect {
                enabled: true,
                effect_type: Some(name),
                properties: vec![EffectProperty {
                    kind: 0,
                    name,
                    value: Some(name),
                }],
            }),
            UiNode::FlexPanel(FlexPanel {
                name,
                ..Default::default()
            }),
        ],
        ..Default::default()
    });
    let ui = file.ui_layers.as_mut().expect("UILR");
    assert!(ui.roots.is_empty());
    ui.roots = vec![root.clone(), root];
    let again = round_trip(&file);
    assert!(again.opaque_chunks().is_empty());
    assert_eq!(again.ui_layers, file.ui_layers);
}
