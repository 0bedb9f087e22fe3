//! Edits of objects and rooms: renaming assets (through a new string and by editing the existing
//! string entry) and moving a room instance. Each edit is rebuilt, parsed again, found, and
//! every other part of the model is checked to be unchanged.

use gmkit_data::{DataFile, StringRef, build_bytes, parse_bytes};

mod common;
use common::*;

/// A file with objects and rooms with instances.
const FILE: &str = "tiktaktoe-gm-network.win";

/// Rebuilds and parses again.
fn round_trip(file: &DataFile) -> DataFile {
    let bytes = build_bytes(file).expect("edited model builds");
    parse_bytes(bytes).expect("edited file parses")
}

/// The whole model as text, with the one field that legitimately changes with the file size
/// normalised.
fn snapshot(file: &DataFile) -> String {
    let mut f = file.clone();
    f.layout.size_hint = 0;
    format!("{f:?}")
}

fn text(file: &DataFile, s: StringRef) -> String {
    file.strings
        .as_ref()
        .unwrap()
        .get(s)
        .unwrap()
        .to_string_lossy()
        .into_owned()
}

fn first_object_and_room(file: &DataFile) -> (usize, usize) {
    let objects = &file.objects.as_ref().unwrap().objects;
    let obj = objects.iter().position(Option::is_some).expect("an object");
    let rooms = &file.rooms.as_ref().unwrap().rooms;
    let room = rooms
        .iter()
        .position(|r| r.as_ref().is_some_and(|r| !r.instances.is_empty()))
        .expect("a room with instances");
    (obj, room)
}

#[test]
fn rename_object_and_room_with_new_strings() {
    let original = parse_bytes(need!(corpus_file(FILE))).unwrap();
    let (oi, ri) = first_object_and_room(&original);
    let mut edited = original.clone();
    let strings = edited.strings.as_mut().unwrap();
    let before = strings.len();
    let obj_name = strings.push("obj_renamed_by_gmkit");
    let room_name = strings.push("rm_renamed_by_gmkit");
    edited.objects.as_mut().unwrap().objects[oi]
        .as_mut()
        .unwrap()
        .name = obj_name;
    edited.rooms.as_mut().unwrap().rooms[ri]
        .as_mut()
        .unwrap()
        .name = room_name;

    let mut back = round_trip(&edited);
    let obj = back.objects.as_ref().unwrap().objects[oi].clone().unwrap();
    let room = back.rooms.as_ref().unwrap().rooms[ri].clone().unwrap();
    assert_eq!(text(&back, obj.name), "obj_renamed_by_gmkit");
    assert_eq!(text(&back, room.name), "rm_renamed_by_gmkit");

    // Undo the edit in the re-parsed model: everything else must equal the original.
    let orig_obj = original.objects.as_ref().unwrap().objects[oi]
        .as_ref()
        .unwrap()
        .name;
    let orig_room = original.rooms.as_ref().unwrap().rooms[ri]
        .as_ref()
        .unwrap()
        .name;
    back.objects.as_mut().unwrap().objects[oi]
        .as_mut()
        .unwrap()
        .name = orig_obj;
    back.rooms.as_mut().unwrap().rooms[ri]
        .as_mut()
        .unwrap()
        .name = orig_room;
    back.strings.as_mut().unwrap().truncate(before);
    assert_eq!(snapshot(&back), snapshot(&original));
}

#[test]
fn rename_object_and_room_by_editing_their_strings() {
    let original = parse_bytes(need!(corpus_file(FILE))).unwrap();
    let (oi, ri) = first_object_and_room(&original);
    let obj_ref = original.objects.as_ref().unwrap().objects[oi]
        .as_ref()
        .unwrap()
        .name;
    let room_ref = original.rooms.as_ref().unwrap().rooms[ri]
        .as_ref()
        .unwrap()
        .name;
    let (old_obj, old_room) = (text(&original, obj_ref), text(&original, room_ref));
    let mut edited = original.clone();
    let strings = edited.strings.as_mut().unwrap();
    strings.set(obj_ref, "obj_edited_in_place").unwrap();
    strings.set(room_ref, "rm_edited_in_place").unwrap();

    let mut back = round_trip(&edited);
    let obj = back.objects.as_ref().unwrap().objects[oi].clone().unwrap();
    let room = back.rooms.as_ref().unwrap().rooms[ri].clone().unwrap();
    assert_eq!(obj.name, obj_ref);
    assert_eq!(room.name, room_ref);
    assert_eq!(text(&back, obj.name), "obj_edited_in_place");
    assert_eq!(text(&back, room.name), "rm_edited_in_place");

    let strings = back.strings.as_mut().unwrap();
    strings.set(obj_ref, old_obj.as_str()).unwrap();
    strings.set(room_ref, old_room.as_str()).unwrap();
    assert_eq!(snapshot(&back), snapshot(&original));
}

#[test]
fn move_room_instance() {
    let original = parse_bytes(need!(corpus_file(FILE))).unwrap();
    let (_, ri) = first_object_and_room(&original);
    let mut edited = original.clone();
    let inst = &mut edited.rooms.as_mut().unwrap().rooms[ri]
        .as_mut()
        .unwrap()
        .instances[0];
    let (x, y) = (inst.x, inst.y);
    inst.x = x + 37;
    inst.y = y - 21;

    let mut back = round_trip(&edited);
    let inst = &mut back.rooms.as_mut().unwrap().rooms[ri]
        .as_mut()
        .unwrap()
        .instances[0];
    assert_eq!((inst.x, inst.y), (x + 37, y - 21));
    inst.x = x;
    inst.y = y;
    assert_eq!(snapshot(&back), snapshot(&original));
}

#[test]
fn unchanged_model_rebuilds_identically() {
    let bytes = need!(corpus_file(FILE));
    let file = parse_bytes(bytes.clone()).unwrap();
    assert_eq!(build_bytes(&file).unwrap(), bytes);
}
