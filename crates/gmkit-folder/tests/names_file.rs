//! Issue 16: the game's names file lives in the unpacked folder. `unpack` with a names file
//! copies it as `names.gml` and decompiles with it (enum members and macros by name); `pack`
//! compiles edited `.gml` files with its declarations, and an unchanged folder packs identical.

use gmkit_folder::{Folder, Game, UnpackOptions, pack, unpack, unpack_with};
use gmkit_testdata::{corpus_file, sources_dir};

/// A names file for tiktaktoe-gm-network from its own project: two of its enums and the
/// places that hold them.
fn tiktaktoe_names() -> Option<String> {
    let dir = sources_dir()?.join("tiktaktoe-gm-network");
    let mut names = String::new();
    for (file, e) in [
        (
            "scripts/scr_network_data_enum/scr_network_data_enum.gml",
            "NET_DATA",
        ),
        (
            "objects/obj_tictactoe_controller/Create_0.gml",
            "BOARD_DATA",
        ),
    ] {
        let text = std::fs::read_to_string(dir.join(file)).ok()?;
        let at = text.find(&format!("enum {e}"))?;
        let end = at + text[at..].find('}')? + 1;
        names.push_str(&text[at..end]);
        names.push('\n');
    }
    names.push_str("/// @holds class_id NET_DATA\n/// @holds player_board_data BOARD_DATA\n");
    Some(names)
}

fn gml_files(f: &Folder) -> Vec<(String, String)> {
    f.files
        .iter()
        .filter(|(p, _)| p.ends_with(".gml") && p.as_str() != "names.gml")
        .map(|(p, b)| (p.clone(), String::from_utf8(b.to_vec()).unwrap()))
        .collect()
}

fn packed(f: &Folder) -> Vec<u8> {
    gmkit_data::build_bytes(&pack(f).unwrap_or_else(|e| panic!("packs: {e}")).data).unwrap()
}

#[test]
fn unpack_with_a_names_file_prints_names_and_packs_identical() {
    let (Some(bytes), Some(names)) = (corpus_file("tiktaktoe-gm-network.win"), tiktaktoe_names())
    else {
        assert!(!gmkit_testdata::required(), "corpus and sources required");
        return;
    };
    let game = || Game {
        data: gmkit_data::parse_bytes(bytes.clone()).unwrap(),
        audio_groups: Vec::new(),
    };
    let plain = unpack(&game()).unwrap();
    let named = unpack_with(
        &game(),
        &UnpackOptions {
            names_file: Some(names.clone()),
        },
    )
    .unwrap();
    assert_eq!(named.get("names.gml"), Some(names.as_bytes()));
    assert!(plain.get("names.gml").is_none());
    // Unchanged: identical, through the disk too.
    assert!(packed(&named) == bytes, "unpack --names -> pack identical");
    let dir = tempfile::tempdir().unwrap();
    named.write_dir(dir.path().join("g")).unwrap();
    let back = Folder::read_dir(dir.path().join("g")).unwrap();
    assert!(packed(&back) == bytes, "through the disk");

    // Entries printed with the enums' names where the plain folder has numbers.
    let plain_texts: std::collections::HashMap<String, String> =
        gml_files(&plain).into_iter().collect();
    let changed: Vec<(String, String)> = gml_files(&named)
        .into_iter()
        .filter(|(p, t)| plain_texts.get(p) != Some(t))
        .collect();
    eprintln!("{} entries print enum names", changed.len());
    assert!(!changed.is_empty());
    for (p, t) in &changed {
        assert!(
            t.contains("NET_DATA.") || t.contains("BOARD_DATA."),
            "{p}:\n{t}"
        );
    }

    // A person edits the plain folder: adds names.gml by hand and writes the enum names in
    // the entries: the same bytes as the numbers.
    let mut edited = plain.clone();
    edited.insert("names.gml", names.clone().into_bytes());
    for (p, t) in &changed {
        edited.insert(p.as_str(), t.clone().into_bytes());
    }
    assert!(
        packed(&edited) == bytes,
        "enum names compile to the numbers"
    );
    // Without the names file the text means something else (`NET_DATA` is then an unknown
    // name or a variable): never the original bytes.
    edited.files.remove("names.gml");
    if let Ok(g) = pack(&edited) {
        assert!(gmkit_data::build_bytes(&g.data).unwrap() != bytes);
    }
}

#[test]
fn a_broken_names_file_is_refused_in_its_own_file_before_any_gml_compiles() {
    let data = gmkit_folder::sample::sample_data().unwrap();
    let game = Game {
        data,
        audio_groups: Vec::new(),
    };
    let folder = unpack(&game).unwrap();
    // Not a names file: the error is in names.gml, with its line and column.
    let mut broken = folder.clone();
    broken.insert("names.gml", b"enum State { idle,\n".to_vec());
    let e = pack(&broken).unwrap_err().to_string();
    assert!(
        e.contains("names.gml") && e.contains("line 2, column 1"),
        "{e}"
    );
    // Not UTF-8: refused too, never ignored.
    let mut binary = folder.clone();
    binary.insert("names.gml", vec![b'e', 0xFF, b'\n']);
    let e = pack(&binary).unwrap_err().to_string();
    assert!(e.contains("names.gml") && e.contains("UTF-8"), "{e}");
    // A good one leaves the unchanged folder identical.
    let mut good = folder.clone();
    good.insert("names.gml", b"enum State { idle, walk }\n".to_vec());
    assert!(packed(&good) == packed(&folder));
}

/// A GMS 1.4 game unpacked with a names file that gives places kinds (`@holds PLACE TYPE`):
/// the entries print the asset and constant names, and the folder packs identical.
#[test]
fn unpack_with_kinds_prints_names_and_packs_identical() {
    let Some(bytes) = corpus_file("jtool.win") else {
        assert!(!gmkit_testdata::required(), "corpus required");
        return;
    };
    let names = "\
/// @holds comboBoxButton(6) Asset.GMSprite
/// @holds waterlock_spr Asset.GMSprite
/// @holds global.key_up Constant.VirtualKey
/// @holds rotating Bool
";
    let game = || Game {
        data: gmkit_data::parse_bytes(bytes.clone()).unwrap(),
        audio_groups: Vec::new(),
    };
    let plain = unpack(&game()).unwrap();
    let named = unpack_with(
        &game(),
        &UnpackOptions {
            names_file: Some(names.to_string()),
        },
    )
    .unwrap();
    assert_eq!(named.get("names.gml"), Some(names.as_bytes()));
    assert!(packed(&named) == bytes, "unpack --names -> pack identical");
    let plain_texts: std::collections::HashMap<String, String> =
        gml_files(&plain).into_iter().collect();
    let changed: Vec<(String, String)> = gml_files(&named)
        .into_iter()
        .filter(|(p, t)| plain_texts.get(p) != Some(t))
        .collect();
    let all: String = changed.iter().map(|(_, t)| t.as_str()).collect();
    for mark in [
        "sMenuGrid)",
        "waterlock_spr = sMenuWaterLock",
        "global.key_up = vk_up",
        "rotating = false",
    ] {
        assert!(all.contains(mark), "no entry prints {mark}");
    }
    // The named text is the folder's: packing it without names.gml still compiles (asset and
    // constant names are GameMaker's own), to the same bytes.
    let mut edited = plain.clone();
    for (p, t) in &changed {
        edited.insert(p.as_str(), t.clone().into_bytes());
    }
    assert!(packed(&edited) == bytes, "the names compile to the numbers");
}
