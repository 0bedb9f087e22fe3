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
