//! The newest layouts of `MANIFEST-next.tsv`: vector sprite shapes (`killstreak.win`, 2024.14)
//! and UI layer nodes (`sapphic-horse-race.win`, 2024.13) are typed, and an edit of either
//! survives build → parse.

use gmkit_data::chunks::sprite::SpecialBody;
use gmkit_data::chunks::sprite::vector::shape::{Fill, Rgba};
use gmkit_data::chunks::ui_layer::{UiLayers, UiNode};
use gmkit_data::{DataFile, build_bytes, parse_bytes};

mod common;
use common::*;

/// Builds, re-parses, and checks that the model came back as it was edited.
fn rebuilt(file: &DataFile) -> DataFile {
    let out = build_bytes(file).expect("build");
    let mut again = parse_bytes(out).expect("re-parse");
    again.layout.size_hint = file.layout.size_hint;
    assert!(
        again == *file,
        "the re-parsed model differs from the edited one"
    );
    again
}

/// Indices of the vector sprites.
fn vector_sprites(file: &DataFile) -> Vec<usize> {
    let sprites = &file.sprites.as_ref().expect("SPRT").sprites;
    (0..sprites.len())
        .filter(|&i| {
            sprites[i]
                .as_ref()
                .is_some_and(|s| matches!(s.special_body.as_deref(), Some(SpecialBody::Vector(_))))
        })
        .collect()
}

#[test]
fn vector_sprite_shapes_are_typed_and_editable() {
    let mut file = parse_bytes(need!(corpus_file("killstreak.win"))).unwrap();
    assert!(file.version.at_least(2024, 14), "{}", file.version);
    assert!(
        file.opaque_chunks().is_empty(),
        "{:?}",
        file.opaque_chunks()
    );
    let list = vector_sprites(&file);
    assert_eq!(list.len(), 31, "vector sprites in killstreak.win");

    let i = list[0];
    let sprite = file.sprites.as_mut().unwrap().sprites[i].as_mut().unwrap();
    let Some(SpecialBody::Vector(v)) = sprite.special_body.as_deref_mut() else {
        unreachable!()
    };
    assert_eq!(v.version, 4);
    let shape = &mut v.shapes[0];
    assert!(matches!(shape.version, 3 | 4));
    let group = &mut shape.style_groups[0];
    let sub = &mut group.sub_shapes[0];
    assert!(!sub.triangles.is_empty() && !sub.points.is_empty());
    // Move a vertex, add a triangle, recolour the first fill, widen the bounds.
    sub.points[0][0] += 10.5;
    let t = sub.triangles[0];
    sub.triangles.push([t[2], t[1], t[0]]);
    group.fills[0] = Fill::Solid(Rgba([1, 2, 3, 4]));
    shape.max_x += 10.5;
    let again = rebuilt(&file);
    let Some(SpecialBody::Vector(v)) = again.sprites.as_ref().unwrap().sprites[i]
        .as_ref()
        .unwrap()
        .special_body
        .as_deref()
    else {
        panic!("still a vector sprite");
    };
    assert_eq!(
        v.shapes[0].style_groups[0].fills[0],
        Fill::Solid(Rgba([1, 2, 3, 4]))
    );
}

/// The UI tree of `sapphic-horse-race.win`: a layer with two flex panels, the second holding
/// two object instances.
fn objects(ui: &UiLayers) -> Vec<(i32, i32, u32)> {
    let mut out = Vec::new();
    let mut stack: Vec<&UiNode> = ui.roots.iter().collect();
    while let Some(n) = stack.pop() {
        if let UiNode::Object(o) = n {
            out.push((o.instance.x, o.instance.y, o.instance.instance_id));
        }
        stack.extend(n.children().into_iter().flatten());
    }
    out.sort_by_key(|o| o.2);
    out
}

#[test]
fn ui_nodes_are_typed_and_editable() {
    let mut file = parse_bytes(need!(corpus_file("sapphic-horse-race.win"))).unwrap();
    assert!(file.version.at_least(2024, 13), "{}", file.version);
    assert!(
        file.opaque_chunks().is_empty(),
        "{:?}",
        file.opaque_chunks()
    );
    let ui = file.ui_layers.as_mut().expect("UILR");
    assert_eq!(
        objects(ui),
        [(-580, -114, 100_000), (513, -125, 100_001)],
        "the two object instances of the UI layer"
    );
    let [UiNode::Layer(layer)] = &mut ui.roots[..] else {
        panic!("one UI layer at the root: {:?}", ui.roots);
    };
    assert_eq!(layer.children.len(), 2);
    let UiNode::FlexPanel(panel) = &mut layer.children[1] else {
        panic!("a flex panel");
    };
    assert_eq!(panel.width.value, 539.0);
    panel.width.value = 640.0;
    let UiNode::Object(o) = &mut panel.children[0] else {
        panic!("an object instance");
    };
    o.instance.x = 12;
    o.flex.keep_aspect = true;
    // A new leaf: one more object in the first panel.
    let copy = panel.children[1].clone();
    let UiNode::FlexPanel(first) = &mut layer.children[0] else {
        panic!("a flex panel");
    };
    first.children.push(copy);
    let again = rebuilt(&file);
    let ui = again.ui_layers.as_ref().unwrap();
    assert_eq!(objects(ui).len(), 3);
    assert!(objects(ui).contains(&(12, -114, 100_000)));
}

/// The body of the `name` chunk in `out`, as a mutable slice, and its absolute start.
fn chunk_mut<'a>(out: &'a mut [u8], name: &[u8; 4]) -> (&'a mut [u8], usize) {
    let (_, s, e) = chunk_table(out)
        .into_iter()
        .find(|c| &c.0 == name)
        .expect("the chunk");
    (&mut out[s..e], s)
}

/// A UI tree nested far deeper than [`MAX_UI_DEPTH`] (a chain of flex panels, hand-assembled
/// over a placeholder tree of the same size) is refused with one error line, not a stack
/// overflow; a model that deep cannot be written either.
#[test]
fn a_too_deep_ui_tree_is_refused() {
    use gmkit_data::chunks::ui_layer::{FlexPanel, MAX_UI_DEPTH, UiLayer};
    let mut file = parse_bytes(need!(corpus_file("sapphic-horse-race.win"))).unwrap();
    let panel = UiNode::FlexPanel(FlexPanel::default());
    let ui = file.ui_layers.as_mut().unwrap();
    ui.roots = vec![UiNode::Layer(UiLayer {
        children: vec![panel; 100],
        ..Default::default()
    })];
    let mut out = build_bytes(&file).unwrap();
    let (body, start) = chunk_mut(&mut out, b"UILR");
    body.fill(0);
    let word = |body: &mut [u8], at: usize, v: u32| {
        body[at..at + 4].copy_from_slice(&v.to_le_bytes());
    };
    word(body, 0, 1);
    word(body, 4, (start + 8) as u32);
    // Node i at 8 + 16 i: flex panel, no data pointer yet, one child: node i + 1.
    let nodes = (body.len() - 8) / 16 - 1;
    assert!(nodes > 4 * MAX_UI_DEPTH);
    for i in 0..nodes {
        let at = 8 + 16 * i;
        word(body, at, 1);
        word(body, at + 8, 1);
        word(body, at + 12, (start + at + 16) as u32);
    }
    let e = parse_bytes(out).expect_err("too deep").to_string();
    eprintln!("{e}");
    assert!(e.contains("UI node depth"), "{e}");
    assert!(!e.contains('\n') && e.len() < 400, "{e}");

    // The writer refuses the same depth.
    let mut deep = UiNode::FlexPanel(FlexPanel::default());
    for _ in 0..MAX_UI_DEPTH + 1 {
        deep = UiNode::FlexPanel(FlexPanel {
            children: vec![deep],
            ..Default::default()
        });
    }
    file.ui_layers.as_mut().unwrap().roots = vec![deep];
    let e = build_bytes(&file)
        .expect_err("too deep to write")
        .to_string();
    assert!(e.contains("deeper than"), "{e}");
}

/// A vector sub-shape whose point count exceeds the chunk is refused before allocating, with
/// the count and what is left in the error; a reserved count that is not 0 is refused too.
#[test]
fn vector_shape_counts_are_checked() {
    let mut file = parse_bytes(need!(corpus_file("killstreak.win"))).unwrap();
    let i = vector_sprites(&file)[0];
    let marker: i32 = 0x5EC7_0A11;
    let sprite = file.sprites.as_mut().unwrap().sprites[i].as_mut().unwrap();
    let Some(SpecialBody::Vector(v)) = sprite.special_body.as_deref_mut() else {
        unreachable!()
    };
    v.shapes[0].style_groups[0].sub_shapes[0].fill_style_1 = marker;
    let out = build_bytes(&file).unwrap();
    let at = out
        .windows(4)
        .position(|w| w == marker.to_le_bytes())
        .expect("the marker");
    // Sub-shape: fill 1, fill 2, line style, then the ten counts.
    for (count_at, value, expect) in [
        (at + 12, 0x7FFF_FFF0u32, "vector point"),
        (at + 12 + 4 * 2, 1, "reserved count"),
        (at + 12 + 4 * 3, u32::MAX, "vector triangle"),
    ] {
        let mut bad = out.clone();
        bad[count_at..count_at + 4].copy_from_slice(&value.to_le_bytes());
        let e = parse_bytes(bad).expect_err(expect).to_string();
        eprintln!("{e}");
        assert!(e.contains(expect), "{e}");
        assert!(!e.contains('\n') && e.len() < 400, "{e}");
    }
}

/// Seeded word mutations inside the new layouts (UILR of `sapphic-horse-race.win`, SPRT of
/// `killstreak.win`): strict and lenient parsing, and the build of whatever parses, never panic;
/// a file that parses strictly rebuilds identically.
#[test]
fn mutated_new_layouts_never_panic() {
    use gmkit_data::ParseOptions;
    use std::panic::{AssertUnwindSafe, catch_unwind};
    let mut failures = Vec::new();
    for (name, chunk) in [
        ("sapphic-horse-race.win", b"UILR"),
        ("killstreak.win", b"SPRT"),
    ] {
        let bytes = need!(corpus_file(name));
        let (_, s, e) = chunk_table(&bytes)
            .into_iter()
            .find(|c| &c.0 == chunk)
            .unwrap();
        let mut rng = gmkit_testdata::Rng(0x5EED_0000 ^ s as u64);
        for k in 0..800 {
            let mut m = bytes.clone();
            let at = s + 4 * rng.below((e - s) / 4);
            let old = u32::from_le_bytes(m[at..at + 4].try_into().unwrap());
            let new = match rng.below(6) {
                0 => 0,
                1 => u32::MAX,
                2 => 0x7FFF_FFFF,
                3 => old.wrapping_add(4),
                4 => old.wrapping_sub(4),
                _ => rng.next() as u32,
            };
            m[at..at + 4].copy_from_slice(&new.to_le_bytes());
            let r = catch_unwind(AssertUnwindSafe(|| {
                for lenient in [false, true] {
                    let opts = ParseOptions {
                        lenient,
                        ..Default::default()
                    };
                    let Ok((f, _)) = gmkit_data::parse_bytes_with(m.clone(), &opts) else {
                        continue;
                    };
                    let Ok(out) = build_bytes(&f) else { continue };
                    // What parses strictly rebuilds byte for byte (models are not compared:
                    // a mutated float may be a NaN).
                    assert!(
                        lenient || out == m,
                        "a strictly parsed file rebuilds differently"
                    );
                }
            }));
            if r.is_err() {
                failures.push(format!(
                    "{name}: mutation {k}: word at {at} set to {new:#x}"
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
