//! The built-in sample (what `gmkit demo` runs on): a valid file that parses back, rebuilds
//! byte for byte, and unpacks into a folder with a sprite frame and mask, a sound, a room and
//! an object with code, which packs back to the same bytes.

use gmkit_folder::{Game, pack, unpack};

#[test]
fn the_sample_round_trips_through_bytes_and_folder() {
    let data = gmkit_folder::sample::sample_data().unwrap_or_else(|e| panic!("sample: {e}"));
    let bytes = gmkit_data::build_bytes(&data).unwrap_or_else(|e| panic!("build: {e}"));
    let again = gmkit_data::parse_bytes(bytes.clone()).unwrap_or_else(|e| panic!("parse: {e}"));
    assert_eq!(gmkit_data::build_bytes(&again).unwrap(), bytes);
    let folder = unpack(&Game {
        data: again,
        audio_groups: Vec::new(),
    })
    .unwrap();
    for want in [
        "sprites/spr_ball/sprite.json",
        "sprites/spr_ball/0.png",
        "sprites/spr_ball/mask_0.png",
        "sounds/snd_beep.json",
        "sounds/snd_beep.wav",
        "rooms/rm_start/room.json",
        "objects/obj_ball/object.json",
        "objects/obj_ball/Create_0.asm",
    ] {
        assert!(
            folder.get(want).is_some(),
            "{want} in {:?}",
            folder.files.keys()
        );
    }
    let asm = std::str::from_utf8(folder.get("objects/obj_ball/Create_0.asm").unwrap()).unwrap();
    assert!(
        asm.contains("push.s \"Hello from the gmkit sample\""),
        "{asm}"
    );
    let frame = gmkit_media::decode_png(folder.get("sprites/spr_ball/0.png").unwrap()).unwrap();
    assert_eq!((frame.width(), frame.height()), (32, 32));
    let back = pack(&folder).unwrap_or_else(|e| panic!("pack: {e}"));
    assert_eq!(gmkit_data::build_bytes(&back.data).unwrap(), bytes);
}
