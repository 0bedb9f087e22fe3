//! Replacing an entry's GML with text that drops, renames or adds nested functions, on a
//! 2.3–2022 game (acrandomizer, 2022.9) and a 2023+ game (longdog, 2024.13): a dropped
//! function's child entry stays (every other entry keeps its index) and starts at an `exit.i`
//! after the root's code; text naming other functions than the entry's compiles; the file
//! builds, parses again and validates.

use gmkit_data::DataFile;
use gmkit_data::chunks::code::{CodeBody, Instruction, Opcode};
use gmkit_gml::Game;
use gmkit_gml::entries::replace_code;

const GAMES: &[&str] = &["acrandomizer.win", "longdog.win"];

fn load(name: &str) -> Option<DataFile> {
    let bytes = gmkit_testdata::corpus_file(name)?;
    Some(gmkit_data::parse_bytes(bytes).expect("corpus file parses"))
}

/// Builds, parses again and validates.
fn check(file: &DataFile, what: &str) -> DataFile {
    let built = gmkit_data::build_bytes(file).unwrap_or_else(|e| panic!("{what}: builds: {e}"));
    let again = gmkit_data::parse_bytes(built).unwrap_or_else(|e| panic!("{what}: re-parses: {e}"));
    again
        .validate()
        .unwrap_or_else(|e| panic!("{what}: validates: {e}"));
    again
}

/// A root entry of a script (`gml_GlobalScript_*`) with nested functions: (entry, its
/// children's entries).
fn root_with_children(file: &DataFile) -> (usize, Vec<usize>) {
    let game = Game::new(file);
    (0..game.code_count())
        .filter(|&i| game.code_name(i).starts_with("gml_GlobalScript_"))
        .map(|i| {
            (
                i,
                game.children(i).iter().map(|&(_, k)| k).collect::<Vec<_>>(),
            )
        })
        .find(|(_, c)| !c.is_empty())
        .expect("a script with nested functions")
}

/// The root's instructions after a replace, and the byte offset of its last one.
fn root_code(file: &DataFile, entry: usize) -> (Vec<Instruction>, u32) {
    let ins = file
        .code
        .as_ref()
        .unwrap()
        .instructions(entry)
        .unwrap()
        .into_owned();
    let last = ins[..ins.len() - 1]
        .iter()
        .map(Instruction::size)
        .sum::<usize>();
    (ins, last as u32)
}

fn assert_dropped(file: &DataFile, root: usize, children: &[usize], what: &str) {
    let (ins, last) = root_code(file, root);
    assert!(
        matches!(
            ins.last(),
            Some(Instruction::Unary {
                op: Opcode::Exit,
                ..
            })
        ),
        "{what}: the root ends with exit.i"
    );
    let code = file.code.as_ref().unwrap();
    for &k in children {
        let e = &code.entries[k];
        assert!(
            matches!(e.body, CodeBody::Shared { parent } if parent as usize == root),
            "{what}: entry {k} is still a child of {root}"
        );
        assert_eq!(
            e.execution_offset, last,
            "{what}: entry {k} starts at the exit"
        );
    }
}

#[test]
fn dropping_every_nested_function_keeps_their_entries_as_empty_functions() {
    for name in GAMES {
        let Some(mut file) = load(name) else { return };
        let (root, children) = root_with_children(&file);
        let entries = file.code.as_ref().unwrap().entries.len();
        replace_code(&mut file, root, "x_dropped_by_test = 1;\n")
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(file.code.as_ref().unwrap().entries.len(), entries, "{name}");
        assert_dropped(&file, root, &children, name);
        let again = check(&file, name);
        assert_dropped(&again, root, &children, &format!("{name} (read back)"));
        // Replacing again (the stubs are still children the text does not define) works too.
        replace_code(&mut file, root, "x_dropped_by_test = 2;\n")
            .unwrap_or_else(|e| panic!("{name}: again: {e}"));
        check(&file, name);
    }
}

/// Text defining a function under another name than the entry's nested one: it compiles
/// (no refusal for the function the text no longer names), builds, parses again and validates.
#[test]
fn a_renamed_nested_function_compiles() {
    for name in GAMES {
        let Some(mut file) = load(name) else { return };
        let (root, _) = root_with_children(&file);
        let text = "function renamed_by_test(a) {\n    return a + 1;\n}\nfunction added_by_test() {\n    return 2;\n}\n";
        replace_code(&mut file, root, text).unwrap_or_else(|e| panic!("{name}: {e}"));
        check(&file, name);
    }
}

/// A syntax error in the new text is reported at its line and column (nothing changed).
#[test]
fn a_syntax_error_has_its_line_and_column() {
    for name in GAMES {
        let Some(mut file) = load(name) else { return };
        let (root, _) = root_with_children(&file);
        let before = file.clone();
        let e = replace_code(&mut file, root, "x = 1;\nfunction f( {\n").unwrap_err();
        assert_eq!(e.line, 2, "{name}: {e}");
        assert!(e.col > 0, "{name}: {e}");
        assert!(file == before, "{name}: unchanged on error");
    }
}
