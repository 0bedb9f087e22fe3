//! Validation of models before writing, and asset removal that keeps references right.
//!
//! Every corpus file validates; each kind of invalid edit fails the build with a message naming
//! the chunk, element, field, expectation and finding; removing assets from real files keeps
//! every reference pointing at the same named asset; adding then removing gives the file back.

use gmkit_data::chunks::background::Background;
use gmkit_data::chunks::font::Font;
use gmkit_data::chunks::object::Object;
use gmkit_data::chunks::path::Path;
use gmkit_data::chunks::room::Room;
use gmkit_data::chunks::script::Script;
use gmkit_data::chunks::sound::Sound;
use gmkit_data::chunks::sprite::Sprite;
use gmkit_data::{
    Asset, AssetKind, AssetRef, DataFile, ErrorKind, Id, StringRef, build_bytes, parse_bytes,
};

mod common;
use common::*;

/// A 2022.9 file with objects, rooms with instances, sprites and sounds.
const PRE_2024_11: &str = "tiktaktoe-gm-network.win";
/// A 2024.11 file (null slots allowed).
const POST_2024_11: &str = "asteroid-destroyer.win";

fn load(name: &str) -> Option<DataFile> {
    Some(parse_bytes(corpus_file(name)?).expect("corpus file parses"))
}

/// The build error of an invalid model, as its four parts and its display.
fn build_error(file: &DataFile) -> (String, String, String, String, String) {
    let e = build_bytes(file).expect_err("invalid model must not build");
    let shown = e.to_string();
    match e.kind {
        ErrorKind::InvalidModel(p) => (p.element, p.field, p.expected, p.found, shown),
        other => panic!("expected an invalid-model error, got {other:?} ({shown})"),
    }
}

fn text(file: &DataFile, s: StringRef) -> String {
    file.strings.as_ref().unwrap().get(s).unwrap().to_string()
}

#[test]
fn every_corpus_file_validates() {
    let files = need!(gmkit_testdata::corpus_all());
    let mut checked = 0;
    for (name, bytes) in files {
        // Parsing is the corpus test's business; a file that does not parse is reported there.
        let Ok(mut f) = parse_bytes(bytes) else {
            eprintln!("{name}: does not parse (see the corpus test)");
            continue;
        };
        let p = f.problems();
        assert!(
            p.is_empty(),
            "{name}: {} problems, first: {}",
            p.len(),
            p[0]
        );
        // With every code entry decoded, the instruction operands are checked too.
        if let Some(code) = f.code.as_mut() {
            code.decode_all().unwrap();
        }
        let p = f.problems();
        assert!(p.is_empty(), "{name} (decoded): {}", p[0]);
        checked += 1;
    }
    assert!(checked > 0);
}

fn first_object_with_sprite(f: &DataFile) -> usize {
    f.objects
        .as_ref()
        .unwrap()
        .objects
        .iter()
        .position(|o| o.as_ref().is_some_and(|o| o.sprite.id().is_some()))
        .expect("an object with a sprite")
}

#[test]
fn out_of_range_sprite_id_fails_the_build() {
    let mut f = need!(load(PRE_2024_11));
    let n = f.sprites.as_ref().unwrap().sprites.len();
    let i = first_object_with_sprite(&f);
    let obj = f.objects.as_mut().unwrap().objects[i].as_mut().unwrap();
    obj.sprite = AssetRef::at(9_999_999);
    let obj_name = text(
        &f,
        f.objects.as_ref().unwrap().objects[i]
            .as_ref()
            .unwrap()
            .name,
    );
    let (element, field, expected, found, shown) = build_error(&f);
    assert_eq!(element, format!("object #{i} {obj_name:?}"));
    assert_eq!(field, "sprite");
    assert!(
        expected.contains(&format!("sprite index below {n}")),
        "{shown}"
    );
    assert_eq!(found, "9999999");
    assert!(shown.contains("chunk OBJT"), "{shown}");
}

#[test]
fn out_of_range_instance_object_fails_the_build() {
    let mut f = need!(load(PRE_2024_11));
    let rooms = f.rooms.as_mut().unwrap();
    let r = rooms
        .rooms
        .iter()
        .position(|r| r.as_ref().is_some_and(|r| r.instances.len() > 1))
        .expect("a room with instances");
    rooms.rooms[r].as_mut().unwrap().instances[1].object = AssetRef::at(70_000);
    let (element, field, _, found, shown) = build_error(&f);
    assert!(element.starts_with(&format!("room #{r} ")), "{shown}");
    assert_eq!(field, "instances[1].object");
    assert_eq!(found, "70000");
}

#[test]
fn dangling_string_ref_fails_the_build() {
    let mut f = need!(load(PRE_2024_11));
    let n = f.strings.as_ref().unwrap().len();
    let room = f
        .rooms
        .as_ref()
        .unwrap()
        .rooms
        .iter()
        .position(Option::is_some)
        .unwrap();
    f.rooms.as_mut().unwrap().rooms[room].as_mut().unwrap().name = StringRef(n as u32 + 5);
    let (element, field, expected, found, shown) = build_error(&f);
    // The element's own name is the dangling string, so it is shown by index only.
    assert_eq!(element, format!("room #{room}"));
    assert_eq!(field, "name");
    assert!(
        expected.contains(&format!("string index below {n}")),
        "{shown}"
    );
    assert_eq!(found, (n + 5).to_string());
    assert!(shown.contains("chunk ROOM"), "{shown}");
}

#[test]
fn null_slot_before_2024_11_fails_the_build() {
    let mut f = need!(load(PRE_2024_11));
    assert!(!f.version.allows_null_slots());
    let i = f.objects.as_ref().unwrap().objects.len() - 1;
    f.objects.as_mut().unwrap().objects[i] = None;
    let (element, field, expected, found, shown) = build_error(&f);
    assert_eq!(element, format!("object #{i}"));
    assert_eq!(field, "slot");
    assert!(expected.contains("2024.11"), "{shown}");
    assert_eq!(found, "a null slot");
    // strip_asset refuses the same edit up front.
    let mut g = need!(load(PRE_2024_11));
    assert!(g.strip_asset(Id::<Object>::new(i as u32)).is_err());
}

#[test]
fn null_slot_from_2024_11_builds() {
    let mut f = need!(load(POST_2024_11));
    assert!(f.version.allows_null_slots());
    let i = f.objects.as_ref().unwrap().objects.len() - 1;
    // References to a stripped slot stay valid.
    f.strip_asset(Id::<Object>::new(i as u32)).unwrap();
    let back = parse_bytes(build_bytes(&f).unwrap()).unwrap();
    assert!(back.objects.as_ref().unwrap().objects[i].is_none());
}

#[test]
fn room_missing_from_room_order_fails_the_build() {
    let mut f = need!(load(PRE_2024_11));
    let order = &mut f.general.as_mut().unwrap().room_order;
    let missing = order.pop().unwrap().index().unwrap();
    let name = text(
        &f,
        f.rooms.as_ref().unwrap().rooms[missing]
            .as_ref()
            .unwrap()
            .name,
    );
    let (element, _, expected, found, shown) = build_error(&f);
    assert_eq!(element, format!("room #{missing} {name:?}"));
    assert!(expected.contains("room order"), "{shown}");
    assert!(found.contains("missing from the room order"), "{shown}");
    assert!(shown.contains("chunk ROOM"), "{shown}");
}

#[test]
fn out_of_range_room_order_entry_fails_the_build() {
    let mut f = need!(load(PRE_2024_11));
    f.general
        .as_mut()
        .unwrap()
        .room_order
        .push(AssetRef::at(500));
    let (element, field, _, found, _) = build_error(&f);
    assert_eq!(element, "general info #0");
    assert_eq!(
        field,
        format!(
            "room_order[{}]",
            f.general.as_ref().unwrap().room_order.len() - 1
        )
    );
    assert_eq!(found, "500");
}

/// Every reference of the model as (kind, field site, name of the target or its index).
fn resolved(f: &DataFile) -> Vec<(AssetKind, String, String, String)> {
    f.references()
        .into_iter()
        .map(|r| {
            let target = target_name(f, r.kind, r.target);
            (r.kind, r.element, r.field, target)
        })
        .collect()
}

/// The name of a named asset, else a marker that does not depend on numbering for the kinds
/// removed here (other kinds keep their numbers).
fn target_name(f: &DataFile, kind: AssetKind, i: u32) -> String {
    fn n<T: Asset>(f: &DataFile, i: u32) -> String {
        f.asset_name(Id::<T>::new(i))
            .unwrap_or_else(|| format!("<unnamed #{i}>"))
    }
    match kind {
        AssetKind::Sprite => n::<Sprite>(f, i),
        AssetKind::Sound => n::<Sound>(f, i),
        AssetKind::Object => n::<Object>(f, i),
        AssetKind::Room => n::<Room>(f, i),
        AssetKind::Background => n::<Background>(f, i),
        AssetKind::Font => n::<Font>(f, i),
        AssetKind::Path => n::<Path>(f, i),
        AssetKind::Script => n::<Script>(f, i),
        _ => format!("#{i}"),
    }
}

/// Element names embed the element's own index, which shifts for the removed kind's own
/// elements: compare without it.
fn strip_index(s: &str) -> String {
    match s.split_once(" #") {
        Some((kind, rest)) => {
            let rest = rest.trim_start_matches(|c: char| c.is_ascii_digit());
            format!("{kind}{rest}")
        }
        None => s.to_string(),
    }
}

fn without_index(
    v: Vec<(AssetKind, String, String, String)>,
) -> Vec<(AssetKind, String, String, String)> {
    v.into_iter()
        .map(|(k, e, field, t)| {
            // Entries of membership lists (`room_order[3]`) move up when one is dropped.
            let field = match field.split_once('[') {
                Some((list, rest)) if !rest.contains('[') && rest.ends_with(']') => {
                    format!("{list}[]")
                }
                _ => field,
            };
            (k, strip_index(&e), field, t)
        })
        .collect()
}

/// Removes the first asset of kind `T` that nothing refers to (beyond membership lists), so
/// that every later one is renumbered; checks every reference still names the same asset.
fn remove_first_unreferenced<T: Asset>(f: &mut DataFile, file: &str) -> bool {
    // Typed bytecode operands (pushref) count as references: see them all.
    decode(f);
    let Some(table) = T::table(f) else {
        return false;
    };
    let len = table.len();
    // Assets referred to other than by a membership list (room order, texture groups).
    let used: std::collections::HashSet<u32> = f
        .references()
        .into_iter()
        .filter(|r| r.kind == T::KIND)
        .filter(|r| !(r.field.starts_with("room_order") || r.chunk.0 == *b"TGIN"))
        .map(|r| r.target)
        .collect();
    let candidate = (0..len).find(|&i| {
        table[i].is_some() && !used.contains(&(i as u32)) && (T::KIND != AssetKind::Room || len > 1)
    });
    let Some(i) = candidate else {
        return false;
    };
    let name = f.asset_name(Id::<T>::new(i as u32));
    let before = resolved(f);
    // The expected list: references to the removed asset (membership entries) disappear, and
    // references held by the removed asset itself.
    let expected: Vec<_> = before
        .iter()
        .filter(|(k, _, _, t)| !(*k == T::KIND && Some(t) == name.as_ref()))
        .filter(|(_, e, _, _)| {
            !e.starts_with(&format!("{} #{i} ", T::KIND.name()))
                && *e != format!("{} #{i}", T::KIND.name())
        })
        .cloned()
        .collect();
    let removed = f
        .remove_asset_ignoring_code(Id::<T>::new(i as u32))
        .unwrap();
    assert!(removed.asset.is_some());
    assert_eq!(removed.renumbering.removed(), Id::<T>::new(i as u32));
    let after = resolved(f);
    same(
        &without_index(after.clone()),
        &without_index(expected),
        &format!("{file}: removing {} #{i} {name:?}", T::KIND.name()),
    );
    true
}

/// Asserts two reference lists are equal, showing the first difference.
fn same<T: PartialEq + std::fmt::Debug>(a: &[T], b: &[T], what: &str) {
    if let Some(k) = (0..a.len().max(b.len())).find(|&k| a.get(k) != b.get(k)) {
        panic!(
            "{what}: lengths {} and {}, first difference at {k}: {:?} vs {:?}",
            a.len(),
            b.len(),
            a.get(k),
            b.get(k)
        );
    }
}

fn decode(f: &mut DataFile) {
    if let Some(c) = f.code.as_mut() {
        c.decode_all().unwrap();
    }
}

#[test]
fn remove_keeps_references_on_the_same_named_assets() {
    let files = need!(corpus());
    let mut removed = [0usize; 8];
    for (name, bytes) in files {
        let Ok(original) = parse_bytes(bytes) else {
            continue;
        };
        let mut f = original.clone();
        let done = [
            remove_first_unreferenced::<Sprite>(&mut f, &name),
            remove_first_unreferenced::<Sound>(&mut f, &name),
            remove_first_unreferenced::<Object>(&mut f, &name),
            remove_first_unreferenced::<Room>(&mut f, &name),
            remove_first_unreferenced::<Background>(&mut f, &name),
            remove_first_unreferenced::<Font>(&mut f, &name),
            remove_first_unreferenced::<Path>(&mut f, &name),
            remove_first_unreferenced::<Script>(&mut f, &name),
        ];
        for (n, d) in removed.iter_mut().zip(done) {
            *n += d as usize;
        }
        // The file rebuilt after all removals reads back with the same references.
        let mut back = parse_bytes(build_bytes(&f).expect("rebuilds after removal")).unwrap();
        decode(&mut back);
        same(
            &resolved(&back),
            &resolved(&f),
            &format!("{name}: after rebuild"),
        );
    }
    // Every kind was exercised on some file.
    assert!(removed.iter().all(|&n| n > 0), "{removed:?}");
}

#[test]
fn remove_refuses_a_referenced_asset_and_leaves_the_model_unchanged() {
    let mut f = need!(load(PRE_2024_11));
    let original = f.clone();
    let i = first_object_with_sprite(&f);
    let sprite = f.objects.as_ref().unwrap().objects[i]
        .as_ref()
        .unwrap()
        .sprite
        .id()
        .unwrap();
    let e = f
        .remove_asset_ignoring_code(sprite)
        .expect_err("a sprite in use");
    let shown = e.to_string();
    assert!(shown.contains("which is being removed"), "{shown}");
    assert!(
        shown.contains("field sprite") || shown.contains("mask_sprite"),
        "{shown}"
    );
    assert_eq!(f, original);
}

#[test]
fn remove_renumbers_later_references() {
    let mut f = need!(load(PRE_2024_11));
    // Add a sprite at the front? Sprites are appended; instead remove an unreferenced one
    // before a referenced one and check the object follows.
    let i = first_object_with_sprite(&f);
    let s = f.objects.as_ref().unwrap().objects[i]
        .as_ref()
        .unwrap()
        .sprite
        .index()
        .unwrap();
    let unused = (0..s).find(|&k| {
        f.references_to(AssetKind::Sprite, k)
            .iter()
            .all(|r| r.chunk.0 == *b"TGIN")
    });
    let Some(unused) = unused else {
        return;
    };
    let name = f.asset_name(Id::<Sprite>::new(s as u32));
    f.remove_asset_ignoring_code(Id::<Sprite>::new(unused as u32))
        .unwrap();
    let now = f.objects.as_ref().unwrap().objects[i]
        .as_ref()
        .unwrap()
        .sprite
        .index()
        .unwrap();
    assert_eq!(now, s - 1);
    assert_eq!(f.asset_name(Id::<Sprite>::new(now as u32)), name);
}

#[test]
fn add_then_remove_gives_the_file_back() {
    let files = need!(corpus());
    let mut rounds = 0;
    for (name, bytes) in files {
        let Ok(original) = parse_bytes(bytes.clone()) else {
            continue;
        };
        let mut f = original.clone();
        let strings_before = f.strings.as_ref().unwrap().len();
        let s = f.strings.as_mut().unwrap().push("gmkit_added_asset");
        macro_rules! add {
            ($t:ty, $v:expr) => {
                match <$t as Asset>::table(&f) {
                    Some(_) => Some(f.add_asset::<$t>($v).unwrap()),
                    None => None,
                }
            };
        }
        let obj = match template_object(&original) {
            Some(o) => add!(Object, Object { name: s, ..o }),
            None => None,
        };
        let room = match template_room(&original) {
            Some(r) => add!(Room, Room { name: s, ..r }),
            None => None,
        };
        let path = add!(
            Path,
            Path {
                name: s,
                ..Default::default()
            }
        );
        let script = add!(
            Script,
            Script {
                name: s,
                code_id: AssetRef::NONE,
                ..Default::default()
            }
        );
        // The added assets survive a rebuild and are found by name.
        let back = parse_bytes(build_bytes(&f).unwrap_or_else(|e| panic!("{name}: {e}"))).unwrap();
        if obj.is_some() {
            assert_eq!(
                back.find_asset::<Object>("gmkit_added_asset"),
                obj,
                "{name}"
            );
        }
        if let Some(id) = room {
            assert_eq!(back.find_asset::<Room>("gmkit_added_asset"), room, "{name}");
            let r = AssetRef::to(id);
            assert!(back.general.as_ref().unwrap().room_order.contains(&r));
        }
        if let Some(id) = script {
            f.remove_asset_ignoring_code(id).unwrap();
        }
        if let Some(id) = path {
            f.remove_asset_ignoring_code(id).unwrap();
        }
        if let Some(id) = room {
            f.remove_asset_ignoring_code(id).unwrap();
        }
        if let Some(id) = obj {
            f.remove_asset_ignoring_code(id).unwrap();
        }
        f.strings.as_mut().unwrap().truncate(strings_before);
        let rebuilt = build_bytes(&f).unwrap();
        assert!(
            rebuilt == bytes,
            "{name}: add + remove does not give the file back"
        );
        rounds += 1;
    }
    assert!(rounds > 0);
}

/// An object shaped like the file's first one (version-dependent parts alike), with no
/// sprite, parent or events.
fn template_object(f: &DataFile) -> Option<Object> {
    let o = f.objects.as_ref()?.objects.iter().flatten().next()?;
    Some(Object {
        sprite: AssetRef::NONE,
        mask_sprite: AssetRef::NONE,
        parent: AssetRef::NONE,
        events: vec![Vec::new(); o.events.len()],
        ..o.clone()
    })
}

/// A room shaped like the file's first one (version-dependent parts alike), with nothing in
/// it.
fn template_room(f: &DataFile) -> Option<Room> {
    let r = f.rooms.as_ref()?.rooms.iter().flatten().next()?;
    let mut r = r.clone();
    r.creation_code = AssetRef::NONE;
    r.instances.clear();
    r.tiles.clear();
    if let Some(l) = r.layers.as_mut() {
        l.clear();
    }
    if let Some(s) = r.sequences.as_mut() {
        s.clear();
    }
    if let Some(c) = r.creation_order.as_mut() {
        c.clear();
    }
    Some(r)
}

/// A 1×1 PNG.
fn tiny_png() -> Vec<u8> {
    let mut out = Vec::new();
    let mut enc = png::Encoder::new(&mut out, 1, 1);
    enc.set_color(png::ColorType::Rgba);
    enc.set_depth(png::BitDepth::Eight);
    enc.write_header()
        .unwrap()
        .write_image_data(&[0, 0, 0, 0])
        .unwrap();
    out
}

/// A texture page replaced by a smaller image leaves its items outside it: refused, naming the
/// item, its rectangle and the page's size.
#[test]
fn items_outside_a_shrunk_page_fail_the_build() {
    let mut f = need!(load(PRE_2024_11));
    let page = f
        .texture_pages()
        .find(|(_, p)| p.width().is_some_and(|w| w > 1))
        .map(|(id, _)| id.index())
        .expect("an embedded page");
    let textures = f.textures.as_mut().unwrap();
    textures.pages[page]
        .as_mut()
        .unwrap()
        .set_blob(tiny_png().into());
    let (element, field, expected, found, shown) = build_error(&f);
    assert!(element.starts_with("texture page item #"), "{shown}");
    assert_eq!(field, "source");
    assert_eq!(
        expected,
        format!("a rectangle inside texture page {page} (1×1)")
    );
    assert!(found.starts_with('x'), "{shown}");
}

/// A child code entry (a nested function) must start inside its parent's code, and in edited
/// code at an instruction.
#[test]
fn child_code_entries_outside_or_inside_an_instruction_fail_the_build() {
    use gmkit_data::chunks::code::CodeBody;
    let child_of = |f: &DataFile| {
        f.code_entries().find_map(|(i, e, _)| match e.body {
            CodeBody::Shared { parent } => Some((i, parent as usize)),
            _ => None,
        })
    };
    // The smallest corpus file with a child entry.
    let dir = need!(gmkit_testdata::corpus_dir());
    let mut names = gmkit_testdata::corpus_names_all().unwrap();
    names.sort_by_key(|n| std::fs::metadata(dir.join(n)).map_or(u64::MAX, |m| m.len()));
    let (mut f, (child, parent)) = names
        .iter()
        .filter_map(|n| load(n))
        .find_map(|f| child_of(&f).map(|c| (f, c)))
        .expect("a corpus file with a child code entry");
    let code = f.code.as_ref().unwrap();
    let CodeBody::Encoded(blob) = &code.entries[parent].body else {
        panic!("parent as read is encoded");
    };
    let size = blob.len() as u32;
    // Past the end of an encoded parent.
    let mut past = f.clone();
    past.code.as_mut().unwrap().entries[child].execution_offset = size + 4;
    let (element, field, expected, found, shown) = build_error(&past);
    assert!(
        element.starts_with(&format!("code entry #{child} ")),
        "{shown}"
    );
    assert_eq!(field, "execution_offset");
    assert_eq!(expected, format!("at most {size} (the parent's size)"));
    assert_eq!(found, (size + 4).to_string());
    // Inside an instruction of an edited parent.
    let code = f.code.as_mut().unwrap();
    let ins = code.instructions_mut(parent).unwrap();
    let mut at = 0u32;
    let mut inside = None;
    for i in ins.iter() {
        if i.size() > 4 {
            inside = Some(at + 4);
            break;
        }
        at += i.size() as u32;
    }
    let inside = inside.expect("an instruction with an operand");
    assert!(
        gmkit_data::build_bytes(&f).is_ok(),
        "decoded, it still builds"
    );
    f.code.as_mut().unwrap().entries[child].execution_offset = inside;
    let (_, field, expected, found, shown) = build_error(&f);
    assert_eq!(field, "execution_offset", "{shown}");
    assert!(expected.contains("an instruction of the parent"), "{shown}");
    assert_eq!(found, inside.to_string());
}

/// An object's sprite, mask or parent is typed: "none" is `AssetRef::NONE` (written -1, -100
/// for a parent, and read back as none); a value such as -5 cannot be made through the API; an
/// index past the table is refused naming the field.
#[test]
fn object_references_are_none_or_an_index() {
    let f = need!(load(PRE_2024_11));
    let i = first_object_with_sprite(&f);
    for field in ["sprite", "mask_sprite", "parent"] {
        let mut ok = f.clone();
        let mut bad = f.clone();
        {
            let o = ok.objects.as_mut().unwrap().objects[i].as_mut().unwrap();
            let b = bad.objects.as_mut().unwrap().objects[i].as_mut().unwrap();
            match field {
                "sprite" => (o.sprite, b.sprite) = (AssetRef::NONE, AssetRef::at(70_000)),
                "mask_sprite" => {
                    (o.mask_sprite, b.mask_sprite) = (AssetRef::NONE, AssetRef::at(70_000))
                }
                _ => (o.parent, b.parent) = (AssetRef::NONE, AssetRef::at(70_000)),
            }
        }
        let back = parse_bytes(build_bytes(&ok).expect("none builds")).unwrap();
        let o = back.objects.as_ref().unwrap().objects[i].as_ref().unwrap();
        let read = match field {
            "sprite" => o.sprite.is_none(),
            "mask_sprite" => o.mask_sprite.is_none(),
            _ => o.parent.is_none(),
        };
        assert!(read, "{field}: none reads back as none");
        let (element, got, _, found, shown) = build_error(&bad);
        assert!(element.starts_with(&format!("object #{i} ")), "{shown}");
        assert_eq!((got.as_str(), found.as_str()), (field, "70000"), "{shown}");
    }
}

/// Before 2023.8, bytecode pushes asset indices as plain integers that no typed field shows:
/// `remove_asset` refuses there (pointing to `gmkit_gml::assets::remove_asset`) instead of
/// shifting every later asset under the code, and leaves the model unchanged.
#[test]
fn remove_refuses_in_old_files_with_code() {
    let corpus = need!(gmkit_testdata::corpus_all());
    let mut seen = 0;
    for (name, bytes) in corpus {
        let Ok(mut f) = gmkit_data::parse_bytes(bytes.to_vec()) else {
            continue;
        };
        let has_code = f.code.as_ref().is_some_and(|c| !c.entries.is_empty());
        let sprites = f.sprites.as_ref().map_or(0, |s| s.sprites.len());
        if f.version.at_least(2023, 8) || !has_code || sprites == 0 {
            continue;
        }
        seen += 1;
        let before = gmkit_data::build_bytes(&f).unwrap();
        let e = f
            .remove_asset(Id::<Sprite>::new(0))
            .expect_err("refused in a pre-2023.8 file with code");
        assert!(
            e.to_string().contains("gmkit_gml::assets::remove_asset"),
            "{name}: {e}"
        );
        assert!(gmkit_data::build_bytes(&f).unwrap() == before, "{name}");
    }
    assert!(seen > 0, "no pre-2023.8 corpus file with code and sprites");
}
