//! Pack of a `.gml` that drops the nested functions of its entry (a 2.3–2022 and a 2023+
//! game): the growing compile (`gmkit_gml::entries::replace_code`) takes the edit, and the
//! dropped functions' child entries leave the file with their SCPT and FUNC entries
//! (`gmkit_gml::entries::remove_dropped_functions`, every reference renumbered), except one
//! that other code still calls, which stays as a function that returns at once.

use gmkit_data::chunks::code::{CodeBody, Instruction, Opcode};
use gmkit_folder::{Game, pack, unpack};
use gmkit_testdata::{corpus_file, need};

#[test]
fn a_gml_file_dropping_its_functions_packs() {
    for name in ["acrandomizer.win", "longdog.win"] {
        let mut data = gmkit_data::parse_bytes(need!(corpus_file(name))).unwrap();
        data.code.as_mut().unwrap().decode_all().unwrap();
        let game = gmkit_gml::Game::new(&data);
        let (root, children): (usize, Vec<usize>) = (0..game.code_count())
            .filter(|&i| game.code_name(i).starts_with("gml_GlobalScript_"))
            .map(|i| (i, game.children(i).iter().map(|&(_, k)| k).collect()))
            .find(|(_, c): &(usize, Vec<usize>)| !c.is_empty())
            .expect("a script with nested functions");
        // Which children other entries still call or push (those stay).
        let used_elsewhere: Vec<(String, bool)> = children
            .iter()
            .map(|&k| {
                let n = game.code_name(k).to_string();
                let f = data
                    .functions
                    .as_ref()
                    .unwrap()
                    .functions
                    .iter()
                    .position(|f| game.string(f.name) == n)
                    .expect("FUNC entry");
                let elsewhere = data
                    .references_to(gmkit_data::AssetKind::Function, f)
                    .iter()
                    .any(|r| !r.element.contains(&format!("#{root} ")));
                (n, elsewhere)
            })
            .collect();
        let original_count = data.code.as_ref().unwrap().entries.len();
        let mut folder = unpack(&Game {
            data: data.clone(),
            audio_groups: Vec::new(),
        })
        .unwrap();
        let stem = gmkit_folder::code::entry_files(&folder, "")
            .into_iter()
            .find(|e| e.index == root)
            .expect("the root's files")
            .stem;
        let gml = format!("{stem}.gml");
        assert!(folder.get(&gml).is_some(), "{name}: {gml} unpacked");
        folder.insert(gml.clone(), b"x_dropped_by_test = 1;\n".to_vec());
        let packed = pack(&folder).unwrap_or_else(|e| panic!("{name}: {gml}: {e}"));
        let kept = used_elsewhere.iter().filter(|(_, u)| *u).count();
        let code = packed.data.code.as_ref().unwrap();
        assert_eq!(
            code.entries.len(),
            original_count - (children.len() - kept),
            "{name}: {used_elsewhere:?}"
        );
        let g = gmkit_gml::Game::new(&packed.data);
        let root = packed
            .data
            .find_code_entry(game.code_name(root))
            .expect("the root");
        let ins = code.instructions(root).unwrap();
        let end: usize = ins[..ins.len() - 1].iter().map(Instruction::size).sum();
        for (n, elsewhere) in &used_elsewhere {
            let entry = packed.data.find_code_entry(n);
            let func = packed
                .data
                .functions
                .as_ref()
                .unwrap()
                .functions
                .iter()
                .any(|f| g.string(f.name) == *n);
            let script = g
                .assets()
                .any(|(k, _, s)| k == gmkit_gml::game::AssetKind::Script && s == n);
            if *elsewhere {
                // Kept: starts at the `exit.i` after the root's code.
                let k = entry.unwrap_or_else(|| panic!("{name}: {n} kept"));
                assert!(matches!(
                    ins.last(),
                    Some(Instruction::Unary {
                        op: Opcode::Exit,
                        ..
                    })
                ));
                assert!(
                    matches!(code.entries[k].body, CodeBody::Shared { parent } if parent as usize == root)
                );
                assert_eq!(
                    code.entries[k].execution_offset as usize, end,
                    "{name}: {n}"
                );
                assert!(func && script, "{name}: {n}");
            } else {
                assert!(entry.is_none() && !func && !script, "{name}: {n} removed");
            }
        }
        let built = gmkit_data::build_bytes(&packed.data).unwrap();
        let again = gmkit_data::parse_bytes(built.clone()).unwrap();
        again.validate().unwrap();
        // The packed game unpacks and packs to the same bytes.
        let back = unpack(&Game {
            data: again,
            audio_groups: Vec::new(),
        })
        .unwrap();
        let repacked = pack(&back).unwrap();
        assert_eq!(
            gmkit_data::build_bytes(&repacked.data).unwrap(),
            built,
            "{name}"
        );
    }
}
