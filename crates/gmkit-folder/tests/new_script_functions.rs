//! Issue 16 through the folder: a script's `.gml` edited to define two new functions beside
//! its existing ones, and an object event's `.gml` edited to call them, pack on a 2.3–2022
//! game (acrandomizer, 2022.9) and 2023+ games (longdog, 2024.13; killstreak, 2024.14): the
//! new functions get their child entries (`gml_Script_f`, children of the script), FUNC and
//! SCPT entries; the existing ones keep theirs; the call resolves to the new FUNC entry; the
//! file builds, parses again and validates, unpacks to `.gml` files with the functions, and
//! that folder packs to the same bytes.

use gmkit_data::chunks::code::{CodeBody, Instruction, PushValue};
use gmkit_folder::{Folder, Game, pack, unpack};
use gmkit_testdata::{corpus_file, need};

const NEW_FUNCTIONS: &str = "
function added_by_test_one(a)
{
    return a + 1;
}

function added_by_test_two() constructor
{
    value = 2;
}
";

const CALLS: &str =
    "result_by_test = added_by_test_one(3);\nmade_by_test = new added_by_test_two();\n";

fn unpacked(data: &gmkit_data::DataFile) -> Folder {
    unpack(&Game {
        data: data.clone(),
        audio_groups: Vec::new(),
    })
    .expect("unpacks")
}

/// The `.gml` path of root entry `entry`.
fn gml_of(folder: &Folder, entry: usize) -> String {
    let stem = gmkit_folder::code::entry_files(folder, "")
        .into_iter()
        .find(|e| e.index == entry)
        .expect("the entry's files")
        .stem;
    let path = format!("{stem}.gml");
    assert!(folder.get(&path).is_some(), "{path} unpacked");
    path
}

#[test]
fn a_script_gml_defining_new_functions_and_a_caller_pack() {
    for name in ["acrandomizer.win", "longdog.win", "killstreak.win"] {
        let data = gmkit_data::parse_bytes(need!(corpus_file(name))).unwrap();
        let game = gmkit_gml::Game::new(&data);
        let (script, kids): (usize, Vec<(usize, String)>) = (0..game.code_count())
            .filter(|&i| game.code_name(i).starts_with("gml_GlobalScript_"))
            .map(|i| {
                let kids = game
                    .children(i)
                    .iter()
                    .map(|&(_, k)| (k, game.code_name(k).to_string()))
                    .collect();
                (i, kids)
            })
            .find(|(_, c): &(usize, Vec<_>)| !c.is_empty())
            .expect("a script with nested functions");
        let caller = (0..game.code_count())
            .find(|&i| game.code_name(i).starts_with("gml_Object_") && game.children(i).is_empty())
            .expect("an object event");
        let before = game.code_count();
        let folder = unpacked(&data);
        let (script_gml, caller_gml) = (gml_of(&folder, script), gml_of(&folder, caller));
        let mut edited = folder.clone();
        let text = String::from_utf8(folder.get(&script_gml).unwrap().to_vec()).unwrap();
        edited.insert(&script_gml, format!("{text}{NEW_FUNCTIONS}").into_bytes());
        edited.insert(&caller_gml, CALLS.as_bytes().to_vec());
        let packed = pack(&edited).unwrap_or_else(|e| panic!("{name}: pack: {e}"));
        let bytes = gmkit_data::build_bytes(&packed.data).expect("builds (validates)");
        let again = gmkit_data::parse_bytes(bytes.clone()).expect("re-parses");
        again.validate().expect("validates");
        let g = gmkit_gml::Game::new(&again);
        assert_eq!(
            g.code_count(),
            before + 2,
            "{name}: two child entries added"
        );
        let code = again.code.as_ref().unwrap();
        for (k, f) in [
            (before, "gml_Script_added_by_test_one"),
            (before + 1, "gml_Script_added_by_test_two"),
        ] {
            assert_eq!(g.code_name(k), f, "{name}");
            assert!(
                matches!(code.entries[k].body, CodeBody::Shared { parent } if parent as usize == script),
                "{name}: {f} is a child of the script"
            );
            assert!(
                g.assets()
                    .any(|(kind, _, n)| kind == gmkit_gml::game::AssetKind::Script && n == f),
                "{name}: SCPT {f}"
            );
        }
        for (k, n) in &kids {
            assert_eq!(
                g.code_name(*k),
                n,
                "{name}: an existing function keeps its entry"
            );
        }
        // The caller's code calls the new function and pushes the new constructor.
        let used: Vec<String> = code
            .instructions(caller)
            .unwrap()
            .iter()
            .filter_map(|i| match i {
                Instruction::Call { function, .. }
                | Instruction::Push {
                    value: PushValue::Function(function),
                    ..
                } => Some(g.func_name(*function).to_string()),
                _ => None,
            })
            .collect();
        for f in [
            "gml_Script_added_by_test_one",
            "gml_Script_added_by_test_two",
        ] {
            assert!(used.iter().any(|u| u == f), "{name}: {f} in {used:?}");
        }
        // Unpacked again: the script's `.gml` has the functions; that folder packs to the
        // same bytes.
        let back = unpacked(&again);
        let text =
            String::from_utf8(back.get(&script_gml).expect("still a .gml").to_vec()).unwrap();
        for w in [
            "function added_by_test_one(",
            "function added_by_test_two() constructor",
        ] {
            assert!(text.contains(w), "{name}: {w} in\n{text}");
        }
        let repacked = pack(&back).expect("packs again");
        assert_eq!(
            gmkit_data::build_bytes(&repacked.data).unwrap(),
            bytes,
            "{name}: unpack -> pack identical"
        );
    }
}
