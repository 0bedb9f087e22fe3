//! Pack of a `.gml` that drops the nested functions of its entry (a 2.3–2022 and a 2023+
//! game): the growing compile keeps their child entries as functions that return at once
//! (`gmkit_gml::entries::replace_code`), instead of refusing the edit.

use gmkit_data::chunks::code::{CodeBody, Instruction, Opcode};
use gmkit_folder::{Game, pack, unpack};
use gmkit_testdata::{corpus_file, need};

#[test]
fn a_gml_file_dropping_its_functions_packs() {
    for name in ["acrandomizer.win", "longdog.win"] {
        let data = gmkit_data::parse_bytes(need!(corpus_file(name))).unwrap();
        let game = gmkit_gml::Game::new(&data);
        let (root, children): (usize, Vec<usize>) = (0..game.code_count())
            .filter(|&i| game.code_name(i).starts_with("gml_GlobalScript_"))
            .map(|i| (i, game.children(i).iter().map(|&(_, k)| k).collect()))
            .find(|(_, c): &(usize, Vec<usize>)| !c.is_empty())
            .expect("a script with nested functions");
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
        let code = packed.data.code.as_ref().unwrap();
        assert_eq!(
            code.entries.len(),
            data.code.as_ref().unwrap().entries.len()
        );
        let ins = code.instructions(root).unwrap();
        assert!(matches!(
            ins.last(),
            Some(Instruction::Unary {
                op: Opcode::Exit,
                ..
            })
        ));
        let end: usize = ins[..ins.len() - 1].iter().map(Instruction::size).sum();
        for k in children {
            assert!(
                matches!(code.entries[k].body, CodeBody::Shared { parent } if parent as usize == root)
            );
            assert_eq!(
                code.entries[k].execution_offset as usize, end,
                "{name}: entry {k}"
            );
        }
        let built = gmkit_data::build_bytes(&packed.data).unwrap();
        gmkit_data::parse_bytes(built).unwrap().validate().unwrap();
    }
}
