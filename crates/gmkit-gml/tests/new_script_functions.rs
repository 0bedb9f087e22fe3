//! Issue 16, "new code compiles": a script's text that defines new functions beside (or
//! instead of) its existing ones, on a 2.3–2022 game (acrandomizer, 2022.9) and 2023+ games
//! (longdog, 2024.13; killstreak, 2024.14). Each new function gets its child code entry named
//! as GameMaker names a function at a script's root (`gml_Script_f`), its FUNC and SCPT
//! entries; the existing functions keep their entries; the file builds, parses again and
//! validates; a call of the new function from another entry resolves to its FUNC entry; the
//! script decompiles to text with the functions that compiles back to the same code.

use gmkit_data::DataFile;
use gmkit_data::chunks::code::{Instruction, PushValue};
use gmkit_gml::compile::{Names, compile_text};
use gmkit_gml::entries::replace_code;
use gmkit_gml::{Game, decompile, print};

/// One game of each version family with functions in scripts (2.3–2022, 2023+ before and
/// from 2024.14).
const GAMES: &[&str] = &["acrandomizer.win", "longdog.win", "killstreak.win"];

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

fn load(name: &str) -> Option<DataFile> {
    let bytes = gmkit_testdata::corpus_file(name)?;
    Some(gmkit_data::parse_bytes(bytes).expect("corpus file parses"))
}

/// Builds, parses again and validates (what `gmkit check` does); the rebuilt bytes are
/// identical to a second build.
fn check(file: &DataFile, what: &str) -> DataFile {
    let built = gmkit_data::build_bytes(file).unwrap_or_else(|e| panic!("{what}: builds: {e}"));
    let again =
        gmkit_data::parse_bytes(built.clone()).unwrap_or_else(|e| panic!("{what}: re-parses: {e}"));
    again
        .validate()
        .unwrap_or_else(|e| panic!("{what}: validates: {e}"));
    assert_eq!(
        gmkit_data::build_bytes(&again).expect("builds again"),
        built,
        "{what}: rebuilds identical"
    );
    again
}

/// The first global script with nested functions: (entry, its children's names by entry).
fn script_with_functions(file: &DataFile) -> (usize, Vec<(usize, String)>) {
    let game = Game::new(file);
    (0..game.code_count())
        .filter(|&i| game.code_name(i).starts_with("gml_GlobalScript_"))
        .map(|i| {
            let kids = game
                .children(i)
                .iter()
                .map(|&(_, k)| (k, game.code_name(k).to_string()))
                .collect::<Vec<_>>();
            (i, kids)
        })
        .find(|(_, c)| !c.is_empty())
        .expect("a script with nested functions")
}

fn printed(file: &DataFile, entry: usize) -> String {
    let game = Game::new(file);
    let d = decompile::decompile_entry(&game, entry).expect("decompiles");
    assert_eq!(d.failures, 0, "structured decompile");
    print::print_stmts(&d.body)
}

fn has_func(file: &DataFile, name: &str) -> bool {
    let game = Game::new(file);
    file.functions
        .as_ref()
        .expect("FUNC")
        .functions
        .iter()
        .any(|f| game.string(f.name) == name)
}

fn has_script(file: &DataFile, name: &str) -> bool {
    let game = Game::new(file);
    game.assets()
        .any(|(k, _, n)| k == gmkit_gml::game::AssetKind::Script && n == name)
}

/// Decompiles root `entry` and compiles the text again: the same instructions and child
/// headers, nothing to add. Returns the text.
fn decompiles_back(file: &DataFile, entry: usize, what: &str) -> String {
    let text = printed(file, entry);
    let game = Game::new(file);
    let names = Names::new(&game);
    let c = compile_text(&game, &names, entry, &text)
        .unwrap_or_else(|e| panic!("{what}: decompiled text compiles: {e}\n{text}"));
    let orig = file.code.as_ref().unwrap().instructions(entry).unwrap();
    assert_eq!(c.instructions.as_slice(), orig.as_ref(), "{what}:\n{text}");
    assert!(c.additions.is_empty(), "{what}: {:?}", c.additions);
    let code = file.code.as_ref().unwrap();
    for ch in &c.children {
        let k = file.find_code_entry(&ch.name).expect("child exists");
        assert_eq!(code.entries[k].execution_offset, ch.offset, "{what}");
        assert_eq!(code.entries[k].arguments_count, ch.arguments, "{what}");
    }
    text
}

/// The names of the functions root `entry`'s code calls or pushes (`new C()` pushes `C` for
/// `@@NewGMLObject@@`).
fn calls(file: &DataFile, entry: usize) -> Vec<String> {
    let game = Game::new(file);
    file.code
        .as_ref()
        .unwrap()
        .instructions(entry)
        .unwrap()
        .iter()
        .filter_map(|i| match i {
            Instruction::Call { function, .. }
            | Instruction::Push {
                value: PushValue::Function(function),
                ..
            } => Some(game.func_name(*function).to_string()),
            _ => None,
        })
        .collect()
}

#[test]
fn new_functions_beside_the_existing_ones_get_their_entries() {
    for name in GAMES {
        let mut file = gmkit_testdata::need!(load(name));
        let (root, kids) = script_with_functions(&file);
        let before = file.code.as_ref().unwrap().entries.len();
        let edited = format!("{}{NEW_FUNCTIONS}", printed(&file, root));
        let added =
            replace_code(&mut file, root, &edited).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(added, vec![before, before + 1], "{name}");
        let back = check(&file, name);
        let game = Game::new(&back);
        assert_eq!(game.code_count(), before + 2, "{name}");
        // Named at the script's root: `gml_Script_f`, children of the script, with FUNC and
        // SCPT entries; the constructor's script is marked so.
        for (k, f) in [
            (before, "gml_Script_added_by_test_one"),
            (before + 1, "gml_Script_added_by_test_two"),
        ] {
            assert_eq!(game.code_name(k), f, "{name}");
            assert!(
                game.children(root).iter().any(|&(_, c)| c == k),
                "{name}: {f}"
            );
            assert!(has_func(&back, f), "{name}: FUNC {f}");
            assert!(has_script(&back, f), "{name}: SCPT {f}");
        }
        let ctor = back
            .scripts
            .as_ref()
            .unwrap()
            .scripts
            .iter()
            .flatten()
            .find(|s| game.string(s.name) == "gml_Script_added_by_test_two")
            .expect("script");
        assert!(ctor.constructor, "{name}");
        // The existing functions keep their entries.
        for (k, n) in &kids {
            assert_eq!(game.code_name(*k), n, "{name}");
            assert!(
                game.children(root).iter().any(|&(_, c)| c == *k),
                "{name}: {n}"
            );
        }
        let text = decompiles_back(&back, root, name);
        for w in [
            "function added_by_test_one(",
            "function added_by_test_two() constructor",
        ] {
            assert!(text.contains(w), "{name}: {w} in\n{text}");
        }
    }
}

/// Another entry calls the new function: the call resolves to its FUNC entry (a new one, of
/// the entry added by the script's edit), and the file checks.
#[test]
fn a_call_of_a_new_function_from_another_entry_resolves_to_it() {
    for name in GAMES {
        let mut file = gmkit_testdata::need!(load(name));
        let (root, _) = script_with_functions(&file);
        let edited = format!("{}{NEW_FUNCTIONS}", printed(&file, root));
        replace_code(&mut file, root, &edited).unwrap_or_else(|e| panic!("{name}: {e}"));
        let caller = {
            let game = Game::new(&file);
            (0..game.code_count())
                .find(|&i| {
                    game.code_name(i).starts_with("gml_Object_") && game.children(i).is_empty()
                })
                .expect("an object event")
        };
        let text =
            "result_by_test = added_by_test_one(3);\nmade_by_test = new added_by_test_two();\n";
        replace_code(&mut file, caller, text).unwrap_or_else(|e| panic!("{name}: {e}"));
        let back = check(&file, name);
        let called = calls(&back, caller);
        assert!(
            called.iter().any(|c| c == "gml_Script_added_by_test_one"),
            "{name}: {called:?}"
        );
        assert!(
            called.iter().any(|c| c == "gml_Script_added_by_test_two"),
            "{name}: {called:?}"
        );
        let text = decompiles_back(&back, caller, name);
        assert!(text.contains("added_by_test_one(3)"), "{name}: {text}");
        assert!(text.contains("new added_by_test_two()"), "{name}: {text}");
    }
}

/// Text defining only new functions: each gets a new entry (none takes a dropped function's
/// entry, which stays as a function that returns at once).
#[test]
fn new_functions_instead_of_the_existing_ones_get_new_entries() {
    for name in GAMES {
        let mut file = gmkit_testdata::need!(load(name));
        let (root, kids) = script_with_functions(&file);
        let before = file.code.as_ref().unwrap().entries.len();
        let added =
            replace_code(&mut file, root, NEW_FUNCTIONS).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(added, vec![before, before + 1], "{name}");
        let back = check(&file, name);
        let game = Game::new(&back);
        assert_eq!(game.code_name(before), "gml_Script_added_by_test_one");
        assert_eq!(game.code_name(before + 1), "gml_Script_added_by_test_two");
        for (k, n) in &kids {
            assert_eq!(
                game.code_name(*k),
                n,
                "{name}: the dropped function keeps its entry"
            );
        }
        let text = printed(&back, root);
        assert!(
            text.contains("function added_by_test_one("),
            "{name}: {text}"
        );
    }
}

/// New functions between and before the existing ones, and an existing one moved: each
/// existing function keeps its own entry (its new code at its new place).
#[test]
fn reordered_and_interleaved_functions_keep_their_entries() {
    for name in GAMES {
        let mut file = gmkit_testdata::need!(load(name));
        let (root, kids) = script_with_functions(&file);
        let text = printed(&file, root);
        let edited = format!("{NEW_FUNCTIONS}\n{text}");
        replace_code(&mut file, root, &edited).unwrap_or_else(|e| panic!("{name}: {e}"));
        let back = check(&file, name);
        let game = Game::new(&back);
        // Each existing child is still the body its name stands for: its offset follows the
        // new ones' (which come first in the text now).
        let new_one = back
            .find_code_entry("gml_Script_added_by_test_one")
            .expect("new");
        let code = back.code.as_ref().unwrap();
        for (k, n) in &kids {
            assert_eq!(game.code_name(*k), n, "{name}");
            assert!(
                code.entries[*k].execution_offset > code.entries[new_one].execution_offset,
                "{name}: {n}"
            );
        }
        decompiles_back(&back, root, name);
    }
}
