//! Navigation (`data.sprites()`, `data.sprite(name)`, ... for every kind), renaming one asset
//! without touching what shared its string entry, and the code-entry accessors agreeing.

use gmkit_data::chunks::object::Object;
use gmkit_data::chunks::sprite::Sprite;
use gmkit_data::{DataFile, ErrorKind, Id, build_bytes, parse_bytes};

mod common;
use common::*;

/// Every corpus file (both manifests): the iterators yield each non-null entry once, with its
/// index and its name, and finding an entry by its name gives the first entry of that name.
#[test]
fn iterators_and_lookups_agree_with_the_tables() {
    let files = need!(corpus_all());
    for (name, bytes) in files {
        let f = parse_bytes(bytes).unwrap_or_else(|e| panic!("{name}: {e}"));
        let table = f.sprites.as_ref().map_or(&[][..], |s| &s.sprites[..]);
        let expected = table.iter().filter(|s| s.is_some()).count();
        assert_eq!(f.sprites().count(), expected, "{name}");
        for (id, s, n) in f.sprites() {
            assert!(
                std::ptr::eq(s, table[id.index()].as_ref().unwrap()),
                "{name}"
            );
            let n = n.unwrap().to_str().unwrap();
            let (first, _) = f.sprite(n).unwrap();
            assert!(first <= id, "{name}: {n}");
            assert_eq!(f.asset_name(first).as_deref(), Some(n), "{name}");
        }
        for (id, o, n) in f.objects() {
            assert_eq!(f.string(o.name), n, "{name}");
            let n = n.unwrap().to_str().unwrap();
            assert!(f.object(n).is_some_and(|(first, _)| first <= id), "{name}");
        }
        let code_len = f.code.as_ref().map_or(0, |c| c.entries.len());
        assert_eq!(f.code_entries().count(), code_len, "{name}");
        for (i, _, n) in f.code_entries().step_by(7) {
            let n = n.unwrap().to_str().unwrap();
            assert!(
                f.code_entry(n).is_some_and(|(first, _)| first <= i),
                "{name}"
            );
        }
        for (_, _, n) in f.scripts() {
            assert!(f.script(n.unwrap().to_str().unwrap()).is_some(), "{name}");
        }
        for (r, s) in f.strings().step_by(11) {
            if let Ok(text) = s.to_str() {
                assert!(
                    f.find_string(text).is_some_and(|first| first <= r),
                    "{name}"
                );
            }
        }
    }
}

/// Out-of-range code entries: `instructions` and `instructions_mut` both fail, with the
/// same message.
#[test]
fn instructions_of_an_unknown_entry_fail_both_ways() {
    let mut f = need!(corpus_file("dieback.win").map(|b| parse_bytes(b).unwrap()));
    let code = f.code.as_mut().unwrap();
    let n = code.entries.len();
    let shared = code.instructions(n + 9999).unwrap_err().to_string();
    let mutable = code.instructions_mut(n + 9999).unwrap_err().to_string();
    assert_eq!(shared, mutable);
    assert!(
        shared.contains(&format!("an entry index below {n}")),
        "{shared}"
    );
}

/// `parse_bytes` takes borrowed bytes too.
#[test]
fn parse_bytes_takes_slices_and_vectors() {
    let bytes = build_bytes(&gmkit_data::sample()).unwrap();
    let a = parse_bytes(&bytes).unwrap();
    let b = parse_bytes(&bytes[..]).unwrap();
    let c = parse_bytes(bytes.clone()).unwrap();
    assert_eq!(a, c);
    assert_eq!(b, c);
}

/// Games whose GEN8 display name is the entry of its `name` (and `file_name`): the README's
/// rename changes the display name only.
#[test]
fn renaming_the_game_leaves_name_and_file_name() {
    let files = need!(corpus_all());
    let mut shared = 0;
    for (name, bytes) in files {
        let mut f = parse_bytes(bytes).unwrap();
        let Some(g) = f.general.clone() else { continue };
        if g.display_name != g.name && g.display_name != g.file_name {
            continue;
        }
        shared += 1;
        let before = |f: &DataFile, r| f.string(r).unwrap().to_string();
        let (old_name, old_file) = (before(&f, g.name), before(&f, g.file_name));
        let title = f.intern("My mod");
        f.general.as_mut().unwrap().display_name = title;
        let back = parse_bytes(build_bytes(&f).unwrap()).unwrap();
        let g = back.general.as_ref().unwrap();
        assert_eq!(back.string(g.display_name).unwrap(), "My mod", "{name}");
        assert_eq!(back.string(g.name).unwrap().to_string(), old_name, "{name}");
        assert_eq!(
            back.string(g.file_name).unwrap().to_string(),
            old_file,
            "{name}"
        );
    }
    assert!(shared > 0, "no corpus game shares its display name's entry");
    eprintln!("{shared} corpus games share GEN8's display name entry");
}

/// `set_name` renames one sprite, even when its name entry is shared with code or another
/// asset: every other user keeps its text, and the file builds.
#[test]
fn set_name_renames_one_asset_only() {
    let mut f = need!(corpus_file("dangaliensreop.win").map(|b| parse_bytes(b).unwrap()));
    let (id, _, _) = f.sprites().next().unwrap();
    let old_entry = f.asset::<Sprite>(id).unwrap().name;
    // Make an object's name share the sprite's entry.
    let (oid, _, _) = f.objects().next().unwrap();
    f.asset_mut::<Object>(oid).unwrap().name = old_entry;
    let old = f.string(old_entry).unwrap().to_string();
    let before: Vec<String> = f.strings().map(|(_, s)| s.to_string()).collect();
    let entry = f.set_name(id, "spr_renamed").unwrap();
    assert_ne!(entry, old_entry);
    assert_eq!(f.asset_name(id).as_deref(), Some("spr_renamed"));
    assert_eq!(f.asset_name(oid).as_deref(), Some(old.as_str()));
    // No entry changed its text; one was added.
    let after: Vec<String> = f.strings().map(|(_, s)| s.to_string()).collect();
    assert_eq!(after[..before.len()], before[..]);
    assert_eq!(after.len(), before.len() + 1);
    let back = parse_bytes(build_bytes(&f).unwrap()).unwrap();
    assert_eq!(back.sprite("spr_renamed").map(|(i, _)| i), Some(id));
    // Renaming to a text already in the table reuses its entry.
    f.set_name(id, &old).unwrap();
    assert_eq!(f.asset::<Sprite>(id).unwrap().name, old_entry);
    // No such asset.
    let e = f.set_name(Id::<Sprite>::new(u32::MAX), "x").unwrap_err();
    assert!(matches!(e.kind, ErrorKind::Invalid { .. }), "{e}");
}
