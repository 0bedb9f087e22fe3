//! API details of `gmkit_value::ds` not covered by the vectors.

use gmkit_value::ds::{
    self, DecodeOptions, DsData, DsError, DsKind, DsValue, EncodeError, EncodeOptions, Generation,
    Grid,
};
use gmkit_value::{Array, Struct, Value};

#[test]
fn kinds_and_magic() {
    for k in DsKind::ALL {
        for g in [Generation::Legacy, Generation::Current] {
            assert_eq!(DsKind::from_magic(k.magic(g)), Some((k, g)));
        }
        assert_eq!(k.name().parse::<DsKind>(), Ok(k));
        assert_eq!(format!("ds_{}", k.name()).parse::<DsKind>(), Ok(k));
    }
    assert!("dict".parse::<DsKind>().is_err());
    assert_eq!(DsKind::from_magic(404), None);
    assert_eq!(DsKind::from_magic(703), None);
}

#[test]
fn errors_name_offsets() {
    let e = ds::decode("2F0100000100000000000000DEADBEEF", None).unwrap_err();
    assert!(matches!(e, DsError::Truncated { offset: 12, .. }), "{e:?}");
    let msg = e.to_string();
    assert!(
        msg.contains("byte 12") && msg.contains("hex char 24"),
        "{msg}"
    );
    let e = ds::decode("2F0100000100000063000000", None).unwrap_err();
    assert!(
        matches!(
            e,
            DsError::UnknownKind {
                kind: 99,
                offset: 8
            }
        ),
        "{e:?}"
    );
    let e = ds::decode("2F010000FEFFFFFF", None).unwrap_err();
    assert!(
        matches!(e, DsError::NegativeCount { count: -2, .. }),
        "{e:?}"
    );
    let e = ds::decode("9301000000000000", Some(DsKind::List)).unwrap_err();
    assert!(
        e.to_string()
            .contains("302 (legacy ds_list) or 303 (ds_list)"),
        "{e}"
    );
    let e = ds::decode("2F01000001000000010000000200000061FF", None).unwrap_err();
    assert!(
        matches!(e, DsError::InvalidUtf8 { offset: 17, .. }),
        "{e:?}"
    );
    let e = ds::decode_with(
        "2F01000000000000AA",
        None,
        &DecodeOptions {
            reject_trailing: true,
            ..Default::default()
        },
    )
    .unwrap_err();
    assert!(
        matches!(
            e,
            DsError::Trailing {
                count: 1,
                offset: 8
            }
        ),
        "{e:?}"
    );
    let e = ds::decode("CB000000030000000400000005000000", None).unwrap_err();
    assert!(matches!(e, DsError::BadQueueHeader { .. }), "{e:?}");
    assert!(matches!(
        ds::decode("{}", Some(DsKind::Map)),
        Err(DsError::JsonNotEnabled { .. })
    ));
}

#[test]
fn html5_lenient_cases() {
    let h = DecodeOptions::html5();
    // negative count reads as empty
    let d = ds::decode_with("2F010000FEFFFFFF", None, &h).unwrap();
    assert_eq!(d.value, DsValue::List(vec![]));
    // lossy UTF-8
    let d = ds::decode_with("2F01000001000000010000000200000061FF", None, &h).unwrap();
    assert_eq!(d.value, DsValue::List(vec![Value::from("a\u{FFFD}")]));
    // JSON form needs the kind
    assert!(ds::decode_with("{\"a\":1}", None, &h).is_err());
    assert!(ds::decode_with("{\"a\":1}", Some(DsKind::List), &h).is_err());
    let d = ds::decode_with("{\"b\":[1,null],\"a\":{\"x\":true}}", Some(DsKind::Map), &h).unwrap();
    assert_eq!(d.value.len(), 2);
    assert_eq!(
        d.value.map_get(&Value::from("b")).unwrap(),
        &Value::from(vec![Value::Real(1.0), Value::Undefined])
    );
}

#[test]
fn grid_accessors() {
    let mut g = Grid::new(2, 3);
    *g.get_mut(1, 2).unwrap() = Value::from("z");
    assert_eq!(g.get(1, 2), Some(&Value::from("z")));
    assert_eq!(g.get(2, 0), None);
    assert_eq!(g.column(1).unwrap().len(), 3);
    assert_eq!(g.cells()[5], Value::from("z"));
    assert!(Grid::from_cells(2, 2, vec![]).is_none());
    let hex = ds::encode(&DsData::new(DsValue::Grid(g.clone()))).unwrap();
    assert_eq!(ds::decode(&hex, None).unwrap().value, DsValue::Grid(g));
}

#[test]
fn unsupported_values() {
    let s = Value::Struct(Struct::new(vec![("a".into(), Value::Real(1.0))]));
    let d = DsData::new(DsValue::List(vec![s.clone()]));
    // encode never writes what decode rejects: a struct is an error naming where it is ...
    let e = ds::encode(&d).unwrap_err();
    assert!(
        matches!(&e, EncodeError::Struct { path } if path.starts_with("list[0]")),
        "{e}"
    );
    let html5 = EncodeOptions {
        html5: true,
        ..Default::default()
    };
    assert!(matches!(
        ds::encode_with(&d, &html5),
        Err(EncodeError::Struct { .. })
    ));
    // ... also inside a map
    let m = DsData::new(DsValue::Map(vec![(Value::from("k"), s)]));
    assert!(matches!(ds::encode(&m), Err(EncodeError::Struct { .. })));
    // ... and GameMaker's own (unreadable) form is still available, by name
    assert_eq!(
        ds::encode_lossy(&d, &Default::default()),
        "2F0100000100000006000000"
    );
    assert!(ds::decode(&ds::encode_lossy(&d, &Default::default()), None).is_err());
    assert_eq!(ds::encode_lossy(&d, &html5), "2F0100000100000005000000");

    let a = Array::new(vec![]);
    a.push(Value::Array(a.clone()));
    let d = DsData::new(DsValue::List(vec![Value::Array(a.clone())]));
    // the lossy form writes the cyclic reference as undefined
    assert_eq!(
        ds::encode_lossy(&d, &Default::default()),
        "2F01000001000000020000000100000005000000"
    );
    let e = ds::encode(&d).unwrap_err();
    assert!(matches!(e, EncodeError::Cycle { .. }), "{e}");
    a.write().clear(); // break the cycle so the test does not leak
}

#[test]
fn generations_convert() {
    let legacy = ds::decode(
        "920100000100000001000000010000006702000000020000000200000000000000000000000000F03F000000000000000000000040010000000100000002000000723101000000",
        None,
    );
    // a legacy 2-D array becomes an array of row arrays in the current generation
    let legacy = match legacy {
        Ok(d) => d,
        Err(e) => panic!("{e}"),
    };
    let cur = ds::encode_with(
        &legacy,
        &EncodeOptions {
            generation: Some(Generation::Current),
            ..Default::default()
        },
    )
    .unwrap();
    let d = ds::decode(&cur, None).unwrap();
    assert_eq!(d.generation, Generation::Current);
    let rows = d
        .value
        .map_get(&Value::from("g"))
        .unwrap()
        .as_array()
        .unwrap()
        .len();
    assert_eq!(rows, 2);
}
