//! Editing strings: change an entry, add an entry and point a field at it; the rebuilt file
//! parses again, shows the change, and everything else is unchanged.

use gmkit_data::{build_bytes, parse_bytes};

mod common;
use common::*;

const FILES: &[&str] = &[
    "the-game.win",
    "dieback.win",
    "tricking-the-vikings.win",
    "beforetheafterinn.win",
    "teatree.win",
];

#[test]
fn change_a_string() {
    for name in FILES {
        let original = parse_bytes(need!(corpus_file(name))).unwrap();
        let mut edited = original.clone();
        let gen8 = edited.general.as_ref().unwrap();
        let display = gen8.display_name;
        let strings = edited.strings.as_mut().unwrap();
        strings
            .set(
                display,
                "A much longer window caption than the original one, Ünïcødé",
            )
            .unwrap();
        let bytes = build_bytes(&edited).unwrap();
        let again = parse_bytes(bytes.clone()).unwrap();
        let s = again.strings.as_ref().unwrap();
        assert_eq!(
            s.get(again.general.as_ref().unwrap().display_name).unwrap(),
            "A much longer window caption than the original one, Ünïcødé"
        );
        // Every other entry is unchanged, in the same order.
        let before = original.strings.as_ref().unwrap();
        assert_eq!(s.len(), before.len());
        for (i, (a, b)) in s.iter().zip(before.iter()).enumerate() {
            if i != display.index() {
                assert_eq!(a, b, "{name}: string {i} changed");
            }
        }
        assert_eq!(
            again.general, original.general,
            "{name}: GEN8 references changed"
        );
        // The edited file is itself stable.
        assert_eq!(
            build_bytes(&again).unwrap(),
            bytes,
            "{name}: rebuilt edit is not stable"
        );
    }
}

#[test]
fn add_a_string_and_reference_it() {
    for name in FILES {
        let original = parse_bytes(need!(corpus_file(name))).unwrap();
        let mut edited = original.clone();
        let new = edited.strings.as_mut().unwrap().push("gmkit was here");
        edited.general.as_mut().unwrap().name = new;
        let bytes = build_bytes(&edited).unwrap();
        let again = parse_bytes(bytes).unwrap();
        let s = again.strings.as_ref().unwrap();
        assert_eq!(s.len(), original.strings.as_ref().unwrap().len() + 1);
        assert_eq!(
            s.get(again.general.as_ref().unwrap().name).unwrap(),
            "gmkit was here"
        );
        assert_eq!(s.find("gmkit was here"), Some(new));
        let mut g = again.general.clone().unwrap();
        g.name = original.general.as_ref().unwrap().name;
        assert_eq!(
            Some(g),
            original.general,
            "{name}: other GEN8 fields changed"
        );
    }
}
