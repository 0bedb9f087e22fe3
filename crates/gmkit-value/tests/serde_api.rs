//! serde as a library user meets it: the shape of what is written (plain or constructed
//! structs), map keys, matchable errors with field paths, and the `Value` API.

use gmkit_value::elephant::{self, Constructed, Options, Plain, Structs};
use gmkit_value::{Array, Struct, Value, ds};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};

#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
struct Vec2 {
    x: f64,
    y: f64,
}

#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
struct Save {
    name: String,
    hp: f64,
    pos: Vec2,
}

/// A save as a game writes it with plain structs (`{ name: ..., pos: { x, y } }`).
fn plain_save_bytes() -> Vec<u8> {
    let pos = Struct::new(vec![
        ("x".into(), Value::Real(1.0)),
        ("y".into(), Value::Real(2.0)),
    ]);
    let root = Struct::new(vec![
        ("name".into(), Value::from("Ada")),
        ("hp".into(), Value::Real(100.0)),
        ("pos".into(), Value::from(pos)),
    ]);
    elephant::write(&Value::from(root)).unwrap()
}

#[test]
fn plain_struct_save_reads_and_writes_back_plain() {
    let bytes = plain_save_bytes();
    let save: Save = elephant::from_bytes(&bytes).unwrap();
    let again = elephant::to_bytes(&save).unwrap();
    // Same bytes: no constructor the game would have to resolve.
    assert_eq!(again, bytes);
    let v = elephant::read(&again).unwrap();
    assert_eq!(v.as_struct().unwrap().constructor(), None);
    assert_eq!(v.at("pos").as_struct().unwrap().constructor(), None);
    // The export string too.
    let s = elephant::to_export_string(&save).unwrap();
    assert_eq!(
        elephant::import_string(&s).unwrap(),
        elephant::read(&bytes).unwrap()
    );
}

#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
struct MixedSave {
    name: String,
    pos: Constructed<Vec2>,
    spawn: Option<Constructed<Vec2>>,
    path: Vec<Constructed<Vec2>>,
    score: Constructed<f64>,
}

#[test]
fn constructed_wrapper_keeps_constructed_structs() {
    let c = |x: f64| {
        Value::from(Struct::constructed(
            "Vec2",
            vec![("x".into(), Value::Real(x)), ("y".into(), Value::Real(0.0))],
        ))
    };
    let root = Struct::new(vec![
        ("name".into(), Value::from("Ada")),
        ("pos".into(), c(1.0)),
        ("spawn".into(), c(2.0)),
        ("path".into(), Value::from(vec![c(3.0), c(4.0)])),
        ("score".into(), Value::Real(5.0)),
    ]);
    let bytes = elephant::write(&Value::from(root)).unwrap();
    let save: MixedSave = elephant::from_bytes(&bytes).unwrap();
    assert_eq!(save.path[1].x, 4.0);
    assert_eq!(elephant::to_bytes(&save).unwrap(), bytes);
    // A wrapper around a non-struct changes nothing and does not leak to the next struct.
    let v = elephant::to_value(&save).unwrap();
    assert_eq!(v.as_struct().unwrap().constructor(), None);
    assert_eq!(
        v.at("spawn").as_struct().unwrap().constructor().as_deref(),
        Some("Vec2")
    );
}

#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
#[serde(rename = "PlayerData")]
struct Player {
    stats: Plain<Vec2>,
    items: Vec<Vec2>,
    state: State,
}

#[derive(Serialize, Deserialize, PartialEq, Debug, Clone)]
enum State {
    Idle,
    Walking { speed: f64 },
    Hit(f64),
}

#[test]
fn options_choose_the_form_and_reading_accepts_both() {
    let p = Player {
        stats: Plain(Vec2 { x: 1.0, y: 2.0 }),
        items: vec![Vec2 { x: 3.0, y: 4.0 }],
        state: State::Walking { speed: 2.0 },
    };
    let constructed = Options {
        structs: Structs::Constructed,
    };
    let v = elephant::to_value_with(&p, &constructed).unwrap();
    let ctor = |v: &Value| v.as_struct().unwrap().constructor();
    assert_eq!(ctor(&v).as_deref(), Some("PlayerData")); // the serde name
    assert_eq!(ctor(&v.at("stats")), None); // Plain<T> overrides
    assert_eq!(ctor(&v.at("items").at(0)).as_deref(), Some("Vec2"));
    assert_eq!(ctor(&v.at("state")).as_deref(), Some("Walking"));

    // Plain<T> around a struct variant keeps it plain under Structs::Constructed, and
    // Constructed<T> makes it constructed under the default.
    let walk = State::Walking { speed: 1.0 };
    let v = elephant::to_value_with(&Plain(walk.clone()), &constructed).unwrap();
    assert_eq!(ctor(&v), None);
    assert_eq!(v.pointer("/Walking/speed"), Some(Value::Real(1.0)));
    let v = elephant::to_value(&Constructed(walk)).unwrap();
    assert_eq!(ctor(&v).as_deref(), Some("Walking"));

    let plain = elephant::to_value(&p).unwrap();
    assert_eq!(ctor(&plain), None);
    assert_eq!(ctor(&plain.at("items").at(0)), None);
    // A struct variant is `{Walking: {speed: 2}}` in plain form.
    assert_eq!(
        plain.pointer("/state/Walking/speed"),
        Some(Value::Real(2.0))
    );

    for opts in [Options::default(), constructed] {
        for state in [State::Idle, State::Walking { speed: 1.5 }, State::Hit(3.0)] {
            let p = Player { state, ..p.clone() };
            let bytes = elephant::to_bytes_with(&p, &opts).unwrap();
            let back: Player = elephant::from_bytes(&bytes).unwrap();
            assert_eq!(back, p, "{opts:?}");
            assert_eq!(elephant::to_bytes_with(&back, &opts).unwrap(), bytes);
            assert_eq!(
                elephant::from_value::<Player>(&elephant::read(&bytes).unwrap()).unwrap(),
                p
            );
        }
    }
}

#[test]
fn integer_and_other_map_keys_round_trip() {
    let m: HashMap<i32, String> = HashMap::from([(1, "a".into()), (-20, "b".into())]);
    let bytes = elephant::to_bytes(&m).unwrap();
    assert_eq!(
        elephant::from_bytes::<HashMap<i32, String>>(&bytes).unwrap(),
        m
    );
    let v = elephant::read(&bytes).unwrap();
    assert_eq!(v.at("-20").as_str(), Some("b")); // GML sees the member "-20"

    let u: BTreeMap<u64, f64> = BTreeMap::from([(u64::MAX, 1.0), (0, 2.0)]);
    let s = elephant::to_export_string(&u).unwrap();
    assert_eq!(
        elephant::from_export_string::<BTreeMap<u64, f64>>(&s).unwrap(),
        u
    );

    let b: BTreeMap<bool, u8> = BTreeMap::from([(true, 1), (false, 0)]);
    let bytes = elephant::to_bytes(&b).unwrap();
    assert_eq!(
        elephant::from_bytes::<BTreeMap<bool, u8>>(&bytes).unwrap(),
        b
    );

    let i8s: BTreeMap<i8, i8> = BTreeMap::from([(-128, 1)]);
    let bytes = elephant::to_bytes(&i8s).unwrap();
    assert_eq!(
        elephant::from_bytes::<BTreeMap<i8, i8>>(&bytes).unwrap(),
        i8s
    );

    // A member name that is no number is an error naming it.
    let bytes = elephant::to_bytes(&HashMap::from([("abc", 1.0)])).unwrap();
    let e = elephant::from_bytes::<HashMap<i32, f64>>(&bytes).unwrap_err();
    assert!(
        matches!(&e, elephant::Error::InvalidType { path, .. } if path == "abc"),
        "{e}"
    );
}

#[derive(Serialize, Deserialize, Debug)]
struct Item<C> {
    count: C,
}
#[derive(Serialize, Deserialize, Debug)]
struct Inventory<C> {
    inventory: Vec<Item<C>>,
}
#[derive(Serialize, Deserialize, Debug)]
struct Root<C> {
    player: Inventory<C>,
}

fn bad_save() -> Root<String> {
    let item = |c: &str| Item { count: c.into() };
    Root {
        player: Inventory {
            inventory: vec![item("1"), item("2"), item("3"), item("x")],
        },
    }
}

#[test]
fn elephant_type_errors_name_the_field_path() {
    for opts in [Options::default(), Options::new(Structs::Constructed)] {
        let bytes = elephant::to_bytes_with(&bad_save(), &opts).unwrap();
        let e = elephant::from_bytes::<Root<i32>>(&bytes).unwrap_err();
        match &e {
            elephant::Error::InvalidType {
                path,
                expected,
                found,
                offset,
            } => {
                assert_eq!(path, "player.inventory[0].count");
                assert_eq!(expected, "i32");
                assert_eq!(found, "string \"1\"");
                assert!(offset.is_some());
            }
            other => panic!("{other:?}"),
        }
        assert!(
            e.to_string().starts_with(
                "player.inventory[0].count: expected i32, found string \"1\" at byte "
            ),
            "{e}"
        );
    }
    // A missing field names the struct it is missing from.
    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct Need {
        a: f64,
        b: f64,
    }
    #[derive(Deserialize, Debug)]
    #[allow(dead_code)]
    struct Outer {
        inner: Need,
    }
    let bytes =
        elephant::to_bytes(&HashMap::from([("inner", HashMap::from([("a", 1.0)]))])).unwrap();
    let e = elephant::from_bytes::<Outer>(&bytes).unwrap_err();
    assert_eq!(e.path(), Some("inner"));
    assert!(e.to_string().contains("missing field `b`"), "{e}");
    // An error that is not about the Rust value has no path.
    assert_eq!(
        elephant::from_bytes::<f64>(b"junk").unwrap_err().path(),
        None
    );
}

/// A value whose `Serialize` fails, as a user's type can.
struct Refuses;
impl Serialize for Refuses {
    fn serialize<S: serde::Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
        Err(serde::ser::Error::custom("cannot be saved"))
    }
}

#[test]
fn elephant_write_errors_name_the_field_path() {
    #[derive(Serialize)]
    struct Slot {
        item: Option<Refuses>,
    }
    #[derive(Serialize)]
    struct Bag {
        slots: Vec<Slot>,
        by_name: BTreeMap<String, Vec<Option<Refuses>>>,
    }
    let slot = |bad: bool| Slot {
        item: bad.then_some(Refuses),
    };
    for opts in [Options::default(), Options::new(Structs::Constructed)] {
        // In a struct field, in an array element.
        let bag = Bag {
            slots: vec![slot(false), slot(false), slot(true)],
            by_name: BTreeMap::new(),
        };
        let e = elephant::to_bytes_with(&bag, &opts).unwrap_err();
        assert_eq!(e.path(), Some("slots[2].item"), "{e}");
        assert_eq!(e.to_string(), "slots[2].item: cannot be saved");
        // In a map value: the key names the member.
        let bag = Bag {
            slots: vec![],
            by_name: BTreeMap::from([
                ("ok".to_string(), vec![None]),
                ("sword".to_string(), vec![None, Some(Refuses)]),
            ]),
        };
        let e = elephant::to_bytes_with(&bag, &opts).unwrap_err();
        assert_eq!(e.path(), Some("by_name.sword[1]"), "{e}");
    }
    // A map key that no member name can hold names the map.
    let bad_key = BTreeMap::from([("a", BTreeMap::from([((1, 2), 3)]))]);
    let e = elephant::to_bytes(&bad_key).unwrap_err();
    assert_eq!(e.path(), Some("a"), "{e}");
    assert!(e.to_string().contains("member names"), "{e}");
}

#[test]
fn ds_type_errors_are_matchable_and_name_the_field_path() {
    // ds stores numbers as reals; make items 0-2 numbers and item 3 a string.
    #[derive(Serialize)]
    #[serde(untagged)]
    enum Count {
        N(f64),
        S(String),
    }
    let counts = [
        Count::N(1.0),
        Count::N(2.0),
        Count::N(3.0),
        Count::S("x".into()),
    ];
    let root = Root {
        player: Inventory {
            inventory: counts.into_iter().map(|count| Item { count }).collect(),
        },
    };
    let hex = ds::to_string(&root).unwrap();
    let e = ds::from_str::<Root<i32>>(&hex).unwrap_err();
    assert!(
        matches!(&e, ds::SerdeError::InvalidType { path, expected, .. }
            if path == "player.inventory[3].count" && expected == "i32"),
        "{e:?}"
    );
    assert_eq!(
        e.to_string(),
        "player.inventory[3].count: expected i32, found string \"x\""
    );
    // Not a ds string at all: the decode error, matchable.
    let e = ds::from_str::<Root<i32>>("zz").unwrap_err();
    assert!(matches!(e, ds::SerdeError::Decode { .. }), "{e:?}");
    // Integer keys round-trip through ds too (written as real keys).
    let m: BTreeMap<i32, String> = BTreeMap::from([(-1, "a".into()), (7, "b".into())]);
    let hex = ds::to_string(&m).unwrap();
    assert_eq!(ds::from_str::<BTreeMap<i32, String>>(&hex).unwrap(), m);
    // A number key shows as [key].
    let m = ds::DsValue::Map(vec![(Value::Real(4.0), Value::from("x"))]);
    let e = ds::from_ds_value::<HashMap<i32, f64>>(m).unwrap_err();
    assert_eq!(e.path(), Some("[4]"));
    // The top level must be a container.
    assert!(matches!(
        ds::to_string(&1.0),
        Err(ds::SerdeError::TopLevel { .. })
    ));
    // A number no ds record holds names its field.
    #[derive(Serialize)]
    struct Big {
        gold: u64,
    }
    let e = ds::to_string(&Big { gold: u64::MAX }).unwrap_err();
    assert_eq!(e.path(), Some("gold"));
}

#[test]
fn ds_serde_never_writes_what_decode_rejects() {
    // A Value holding a struct inside a map goes in as a nested ds_map string, as games nest.
    let inner = Struct::new(vec![("hp".into(), Value::Real(3.0))]);
    let v = Value::from(Struct::new(vec![("player".into(), Value::from(inner))]));
    let hex = ds::to_string(&v).unwrap();
    let back = ds::decode(&hex, None).unwrap();
    let nested = back.value.map_get(&Value::from("player")).unwrap();
    let nested = ds::decode(nested.as_str().unwrap(), None).unwrap();
    assert_eq!(
        nested.value.map_get(&Value::from("hp")),
        Some(&Value::Real(3.0))
    );
    // Arrays nested deeper than the format allows are an error, not a string decode rejects.
    let mut deep = Value::Real(1.0);
    for _ in 0..300 {
        deep = Value::from(vec![deep]);
    }
    let e = ds::to_string(&vec![deep]).unwrap_err();
    assert!(
        matches!(e, ds::SerdeError::Encode(ds::EncodeError::TooDeep { .. })),
        "{e:?}"
    );
}

#[test]
fn value_navigation_like_serde_json() {
    let save: Value = elephant::to_value(&Root {
        player: Inventory {
            inventory: vec![Item { count: 3 }, Item { count: 5 }],
        },
    })
    .unwrap();
    assert_eq!(
        save.at("player").at("inventory").at(1).at("count"),
        Value::Int32(5)
    );
    assert_eq!(
        save.pointer("/player/inventory/1/count"),
        Some(Value::Int32(5))
    );
    assert_eq!(save.pointer("/player/inventory/01/count"), None); // no leading zeros
    assert_eq!(save.pointer("/player/nothing"), None);
    assert!(save.at("player").at(0).is_undefined());
    assert!(save.at("nothing").at("deeper").is_undefined());
    assert_eq!(save.get("player").map(|p| p.type_name()), Some("struct"));

    // get_mut writes through the shared handle.
    *save
        .pointer("/player/inventory/0")
        .unwrap()
        .get_mut("count")
        .unwrap() = Value::Int32(9);
    assert_eq!(
        save.pointer("/player/inventory/0/count"),
        Some(Value::Int32(9))
    );
    *save.at("player").at("inventory").get_mut(1).unwrap() = Value::from("gone");
    assert_eq!(
        save.pointer("/player/inventory/1"),
        Some(Value::from("gone"))
    );
    assert!(save.at("player").at("inventory").get_mut(2).is_none());

    // Insert / remove keep the other members' order.
    let player = save.at("player");
    let p = player.as_struct().unwrap();
    assert_eq!(p.insert("gold", Value::Real(1.0)), None);
    assert_eq!(p.insert("a/b~c", Value::Real(2.0)), None);
    assert_eq!(save.pointer("/player/a~1b~0c"), Some(Value::Real(2.0)));
    assert_eq!(p.keys(), ["inventory", "gold", "a/b~c"]);
    assert_eq!(p.remove("inventory").map(|v| v.type_name()), Some("array"));
    assert_eq!(p.keys(), ["gold", "a/b~c"]);

    // as_* per kind.
    let kinds = [
        Value::Undefined,
        Value::Bool(true),
        Value::Real(1.5),
        Value::Int32(2),
        Value::Int64(3),
        Value::Ptr(4),
        Value::from("s"),
        Value::from(Array::new(vec![])),
        Value::Array2d(vec![vec![Value::Real(1.0)]]),
        Value::from(Struct::new(vec![])),
    ];
    let hits: Vec<usize> = kinds
        .iter()
        .map(|v| {
            [
                v.is_undefined(),
                v.as_bool().is_some(),
                v.as_real().is_some(),
                v.as_i32().is_some(),
                v.as_i64().is_some(),
                v.as_ptr().is_some(),
                v.as_str().is_some(),
                v.as_array().is_some(),
                v.as_array2d().is_some(),
                v.as_struct().is_some(),
            ]
            .iter()
            .filter(|&&b| b)
            .count()
        })
        .collect();
    // Each kind has its accessor; int32 also widens to i64.
    assert_eq!(hits, [1, 1, 1, 2, 1, 1, 1, 1, 1, 1]);
    assert_eq!(kinds[8].at(0).at(0), Value::Real(1.0));
}

#[test]
fn value_display() {
    let s = Struct::new(vec![("n".into(), Value::Real(f64::NAN))]);
    s.set("me", Value::Struct(s.downgrade()));
    let v = Value::Struct(s.clone());
    assert_eq!(v.to_string(), r#"{"n": NaN, "me": <cycle>}"#);
    assert_eq!(Value::Ptr(255).to_string(), "ptr(0xff)");
    assert_eq!(Value::Int64(-1).to_string(), "-1");
    assert_eq!(
        Value::Array2d(vec![vec![Value::from("a\nb")], vec![]]).to_string(),
        r#"[["a\nb"], []]"#
    );
}

#[test]
fn to_value_is_to_bytes_then_read() {
    let save = MixedSave {
        name: "n".into(),
        pos: Constructed(Vec2 { x: 1.0, y: 2.0 }),
        spawn: None,
        path: vec![],
        score: Constructed(1.0),
    };
    let v = elephant::to_value(&save).unwrap();
    assert_eq!(
        v,
        elephant::read(&elephant::to_bytes(&save).unwrap()).unwrap()
    );
    assert_eq!(elephant::from_value::<MixedSave>(&v).unwrap(), save);
    // from_value reports type errors with the path too.
    let e = elephant::from_value::<Save>(&v).unwrap_err();
    assert!(e.path().is_some(), "{e}");
}
