//! The newest layouts (`MANIFEST-next.tsv`) in the folder: a vector sprite's shapes and the UI
//! layer nodes are editable JSON, and an edit there survives pack → build → parse.

use gmkit_data::DataFile;
use gmkit_data::chunks::sprite::SpecialBody;
use gmkit_data::chunks::ui_layer::UiNode;
use gmkit_folder::{Folder, Game, pack, unpack};
use gmkit_testdata::{corpus_file, need};
use serde_json::Value;

fn load(name: &str) -> Option<Folder> {
    let data = gmkit_data::parse_bytes(corpus_file(name)?).expect("parses");
    Some(
        unpack(&Game {
            data,
            audio_groups: Vec::new(),
        })
        .expect("unpacks"),
    )
}

/// Packs the folder, builds the file and parses it again.
fn packed(f: &Folder) -> DataFile {
    let game = pack(f).unwrap_or_else(|e| panic!("pack: {e}"));
    let bytes = gmkit_data::build_bytes(&game.data).expect("builds");
    gmkit_data::parse_bytes(bytes).expect("re-parses")
}

fn json(f: &Folder, p: &str) -> Value {
    serde_json::from_slice(f.get(p).unwrap_or_else(|| panic!("{p} missing"))).unwrap()
}

fn put_json(f: &mut Folder, p: &str, v: &Value) {
    let mut b = serde_json::to_vec_pretty(v).unwrap();
    b.push(b'\n');
    f.insert(p, b);
}

#[test]
fn a_vector_shape_edited_in_json_survives_pack() {
    let mut folder = need!(load("killstreak.win"));
    // The first sprite file whose body is a vector sprite.
    let (path, mut v) = folder
        .under("sprites")
        .filter(|(p, _)| p.ends_with("/sprite.json"))
        .map(|(p, b)| (p.to_owned(), serde_json::from_slice::<Value>(b).unwrap()))
        .find(|(_, v)| v["special_body"]["Vector"].is_object())
        .expect("a vector sprite in killstreak.win");
    let name = v["name"].as_str().unwrap().to_owned();
    let shape = &mut v["special_body"]["Vector"]["shapes"][0];
    let sub = &mut shape["style_groups"][0]["sub_shapes"][0];
    let x = sub["points"][0][0]
        .as_f64()
        .expect("a point's x, as a number");
    sub["points"][0][0] = Value::from(x + 10.5);
    sub["triangles"]
        .as_array_mut()
        .expect("triangles, as a list")
        .push(serde_json::json!([0, 1, 2]));
    shape["style_groups"][0]["fills"][0] = serde_json::json!({ "Solid": [1, 2, 3, 4] });
    put_json(&mut folder, &path, &v);

    let data = packed(&folder);
    let strings = data.strings.as_ref().unwrap();
    let sprite = data
        .sprites
        .as_ref()
        .unwrap()
        .sprites
        .iter()
        .flatten()
        .find(|s| strings.get(s.name).is_some_and(|n| *n == *name.as_str()))
        .expect("the sprite, by name");
    let Some(SpecialBody::Vector(vs)) = sprite.special_body.as_deref() else {
        panic!("still a vector sprite");
    };
    let group = &vs.shapes[0].style_groups[0];
    let sub = &group.sub_shapes[0];
    assert_eq!(f64::from(sub.points[0][0]), f64::from((x + 10.5) as f32));
    assert_eq!(sub.triangles.last(), Some(&[0, 1, 2]));
    assert_eq!(format!("{:?}", group.fills[0]), "Solid(Rgba([1, 2, 3, 4]))");
}

#[test]
fn a_ui_node_edited_in_json_survives_pack() {
    let mut folder = need!(load("sapphic-horse-race.win"));
    let path = "ui_layers.json";
    let mut v = json(&folder, path);
    let layer = &mut v["roots"][0]["Layer"];
    assert!(layer.is_object(), "a UI layer at the root: {v}");
    let panel = &mut layer["children"][1]["FlexPanel"];
    panel["width"]["value"] = Value::from(640.0);
    let object = &mut panel["children"][0]["Object"];
    assert_eq!(object["instance"]["x"], Value::from(-580), "{object}");
    object["instance"]["x"] = Value::from(12);
    object["flex"]["keep_aspect"] = Value::from(true);
    put_json(&mut folder, path, &v);

    let data = packed(&folder);
    let ui = data.ui_layers.as_ref().expect("UILR");
    let [UiNode::Layer(layer)] = &ui.roots[..] else {
        panic!("one UI layer at the root");
    };
    let UiNode::FlexPanel(panel) = &layer.children[1] else {
        panic!("a flex panel");
    };
    assert_eq!(panel.width.value, 640.0);
    let UiNode::Object(o) = &panel.children[0] else {
        panic!("an object instance");
    };
    assert_eq!((o.instance.x, o.instance.y), (12, -114));
    assert!(o.flex.keep_aspect);
}
