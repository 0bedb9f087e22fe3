//! Issue 8: unpack writes `.gml` beside `.asm` for entries that compile back exactly; pack
//! compiles the `.gml` files whose text changed.

mod common;
use common::{entry_texts, header_of};
use gmkit_folder::diff::{Change, diff};
use gmkit_folder::{Folder, Game, pack, unpack};
use gmkit_testdata::{corpus_file, need};

/// A VM game with object events.
const GAME: &str = "dangaliensreop.win";

fn load(name: &str) -> Option<(Vec<u8>, Folder)> {
    let bytes = corpus_file(name)?;
    let data = gmkit_data::parse_bytes(bytes.clone()).expect("parses");
    let folder = unpack(&Game {
        data,
        audio_groups: Vec::new(),
    })
    .expect("unpacks");
    Some((bytes, folder))
}

fn gml_files(f: &Folder) -> Vec<(String, String)> {
    entry_texts(f, "gml")
        .into_iter()
        .map(|(p, _)| {
            let t = String::from_utf8(f.get(&p).unwrap().to_vec()).unwrap();
            (p, t)
        })
        .collect()
}

#[test]
fn most_entries_get_gml_and_the_rest_say_why() {
    let (_, folder) = need!(load(GAME));
    let (mut with, mut without) = (0, 0);
    for (p, j) in entry_texts(&folder, "asm") {
        let b = folder.get(&p).unwrap();
        let g = &j["gml"];
        if folder.get(&p.replace(".asm", ".gml")).is_some() {
            with += 1;
            assert!(g["fnv1a64"].is_string(), "{p}: {j}");
        } else {
            without += 1;
            let why = g["skipped"].as_str().unwrap_or_else(|| panic!("{p}: {j}"));
            assert!(!why.is_empty() && !why.contains('\n'));
        }
        assert!(!b.is_empty());
    }
    assert!(
        with > 0 && with >= 9 * without,
        "{with} with .gml, {without} without"
    );
}

#[test]
fn skipped_reasons_are_one_readable_line() {
    // Games with entries that do not compile back today (2.3 – 2023+).
    let mut reasons = Vec::new();
    for name in ["vendaval.win", "tiktaktoe-gm-network.win", "longdog.win"] {
        let (_, folder) = need!(load(name));
        for e in gmkit_folder::code::entry_files(&folder, "") {
            let (p, j) = (e.stem, e.header);
            if let Some(why) = j["gml"]["skipped"].as_str() {
                reasons.push(format!("{name} {p}: {why}"));
            }
        }
    }
    assert!(!reasons.is_empty());
    for r in &reasons {
        // No Rust debug dump (`Push { op: Push, value: Int16(1) }`): assembly or words.
        assert!(
            !r.contains('\n') && !r.contains(" { ") && !r.contains("Some(") && r.len() < 400,
            "{r}"
        );
    }
}

#[test]
fn a_comment_added_packs_to_the_identical_file() {
    let (bytes, folder) = need!(load(GAME));
    let mut edited = folder.clone();
    let files = gml_files(&folder);
    assert!(!files.is_empty());
    for (p, t) in files.iter().take(20) {
        edited.insert(p, format!("// edited by a test\n{t}").into_bytes());
    }
    let game = pack(&edited).unwrap_or_else(|e| panic!("pack: {e}"));
    assert!(gmkit_data::build_bytes(&game.data).unwrap() == bytes);
}

/// The text with the first `= N;` (N a small integer) changed to another small integer.
fn edit_constant(text: &str) -> Option<String> {
    let mut out = String::with_capacity(text.len() + 1);
    let mut done = false;
    for line in text.split_inclusive('\n') {
        if !done
            && let Some(k) = line.find(" = ")
            && let Some(n) = line[k + 3..].trim_end().strip_suffix(';')
            && let Ok(n) = n.parse::<u16>()
            && n < 1000
        {
            out.push_str(&line[..k + 3]);
            out.push_str(&format!("{};\n", n + 1));
            done = true;
            continue;
        }
        out.push_str(line);
    }
    done.then_some(out)
}

#[test]
fn an_edited_constant_changes_exactly_that_entry() {
    let (_, folder) = need!(load(GAME));
    let (path, text) = gml_files(&folder)
        .into_iter()
        .filter(|(p, _)| p.starts_with("objects/"))
        .find_map(|(p, t)| Some((p, edit_constant(&t)?)))
        .expect("an object event assigning a small constant");
    let name = header_of(&folder, &path)["name"]
        .as_str()
        .unwrap()
        .to_owned();
    let mut edited = folder.clone();
    edited.insert(&path, text.into_bytes());
    let game = pack(&edited).unwrap_or_else(|e| panic!("pack: {e}"));
    let bytes = gmkit_data::build_bytes(&game.data).expect("builds");
    let again = gmkit_data::parse_bytes(bytes).expect("re-parses");
    let back = unpack(&Game {
        data: again,
        audio_groups: Vec::new(),
    })
    .expect("unpacks again");
    let d: Vec<String> = diff(&folder, &back).iter().map(Change::to_string).collect();
    assert_eq!(d, vec![format!("code {name}: 1 instruction changed")]);
}

#[test]
fn a_broken_gml_file_gets_one_error_line_naming_file_and_line() {
    let (_, folder) = need!(load(GAME));
    let (path, text) = gml_files(&folder)
        .into_iter()
        .find(|(_, t)| t.len() > 40)
        .expect("a .gml file");
    let mut edited = folder.clone();
    let text = text.trim_end();
    edited.insert(&path, format!("{text}\nx = (1 + ;\n").into_bytes());
    let e = pack(&edited).unwrap_err();
    assert_eq!(e.file, path);
    let line = text.lines().count() + 1;
    assert!(e.field.starts_with(&format!("line {line}, column ")), "{e}");
    assert!(e.message.starts_with("expected "), "{e}");
    assert!(!e.to_string().contains('\n'));
}

#[test]
fn an_entry_with_both_asm_and_gml_edited_is_refused_when_they_differ() {
    let (bytes, folder) = need!(load(GAME));
    let (path, text) = gml_files(&folder).into_iter().next().expect("a .gml file");
    let asm = path.replace(".gml", ".asm");
    let a = String::from_utf8(folder.get(&asm).unwrap().to_vec()).unwrap();
    // Both edited the same way (comments only: the same instructions): taken.
    let mut edited = folder.clone();
    edited.insert(&path, format!("// x\n{text}").into_bytes());
    edited.insert(&asm, format!("; x\n{a}").into_bytes());
    let game = pack(&edited).unwrap_or_else(|e| panic!("{e}"));
    assert!(gmkit_data::build_bytes(&game.data).unwrap() == bytes);
    // The assembly given one more instruction pair, the GML only a comment: refused.
    edited.insert(&asm, format!("pushi.e 1\npopz.v\n{a}").into_bytes());
    let e = pack(&edited).map(|_| ()).unwrap_err();
    assert_eq!(e.file, path);
    assert!(
        e.message.contains("both") && e.message.contains("differ"),
        "{e}"
    );
}

#[test]
fn a_new_string_literal_is_added_to_the_string_table() {
    const NEW: &str = "gmkit: a string this game never had";
    let (_, folder) = need!(load(GAME));
    // The first object event with a string literal; its first literal gets new text.
    let (path, text) = gml_files(&folder)
        .into_iter()
        .filter(|(p, _)| p.starts_with("objects/"))
        .find_map(|(p, t)| {
            let a = t.find('"')?;
            let b = a + 1 + t[a + 1..].find('"')?;
            Some((p, format!("{}\"{NEW}\"{}", &t[..a], &t[b + 1..])))
        })
        .expect("an object event with a string literal");
    let name = header_of(&folder, &path)["name"]
        .as_str()
        .unwrap()
        .to_owned();
    let mut edited = folder.clone();
    edited.insert(&path, text.into_bytes());
    let game = pack(&edited).unwrap_or_else(|e| panic!("pack: {e}"));
    let bytes = gmkit_data::build_bytes(&game.data).expect("builds");
    let again = gmkit_data::parse_bytes(bytes).expect("re-parses");
    let strings = again.strings.as_ref().expect("a string table");
    assert!(
        strings.iter().any(|s| *s == *NEW),
        "the new literal is in the string table"
    );
    let back = unpack(&Game {
        data: again,
        audio_groups: Vec::new(),
    })
    .expect("unpacks again");
    let d: Vec<String> = diff(&folder, &back).iter().map(Change::to_string).collect();
    let code: Vec<&String> = d.iter().filter(|l| l.starts_with("code ")).collect();
    assert_eq!(
        code,
        vec![&format!("code {name}: 1 instruction changed")],
        "{d:?}"
    );
    assert!(
        d.iter().any(|l| l.contains(NEW)),
        "the diff names the new string: {d:?}"
    );
}

#[test]
fn new_variables_and_built_ins_in_a_gml_are_added() {
    let (_, folder) = need!(load(GAME));
    let (path, text) = gml_files(&folder)
        .into_iter()
        .find(|(p, _)| p.starts_with("objects/"))
        .expect("an object event");
    let mut edited = folder.clone();
    let added = "my_new_counter = 0;\nglobal.my_new_global = 2;\nvar tmp_new = my_new_counter + 1;\nimage_angle = tmp_new;\ndraw_set_halign(fa_center);\n";
    edited.insert(&path, format!("{text}{added}").into_bytes());
    let game = pack(&edited).unwrap_or_else(|e| panic!("pack: {e}"));
    let bytes = gmkit_data::build_bytes(&game.data).expect("builds (validates)");
    let again = gmkit_data::parse_bytes(bytes).expect("re-parses");
    let strings = again.strings.as_ref().expect("a string table");
    let vari = &again.variables.as_ref().expect("VARI").variables;
    for (name, inst) in [
        ("my_new_counter", -1),
        ("my_new_global", -5),
        ("tmp_new", -7),
    ] {
        assert!(
            vari.iter().any(
                |v| strings.get(v.name).is_some_and(|s| *s == *name) && v.instance_type == inst
            ),
            "VARI has {name} ({inst})"
        );
    }
    let back = unpack(&Game {
        data: again,
        audio_groups: Vec::new(),
    })
    .expect("unpacks again");
    let (_, text) = gml_files(&back)
        .into_iter()
        .find(|(p, _)| *p == path)
        .expect("the entry still gets a .gml");
    for w in [
        "my_new_counter",
        "global.my_new_global",
        "tmp_new",
        "draw_set_halign",
    ] {
        assert!(text.contains(w), "{w} in\n{text}");
    }
}

#[test]
fn an_unknown_function_names_line_column_and_a_suggestion() {
    let (bytes, folder) = need!(load(GAME));
    // A built-in function the game calls, misspelled by one letter.
    let data = gmkit_data::parse_bytes(bytes).expect("parses");
    let strings = data.strings.as_ref().expect("strings");
    let known = data
        .functions
        .as_ref()
        .expect("FUNC")
        .functions
        .iter()
        .filter_map(|f| {
            strings
                .get(f.name)
                .map(|s| s.to_string_lossy().into_owned())
        })
        .find(|n| n.len() > 8 && !n.starts_with("@@") && !n.starts_with("gml_"))
        .expect("a built-in the game calls");
    let typo = format!("{}{}", &known[..3], &known[4..]);
    let (path, text) = gml_files(&folder)
        .into_iter()
        .find(|(p, _)| p.starts_with("objects/"))
        .expect("an object event");
    let mut edited = folder.clone();
    let text = text.trim_end();
    edited.insert(&path, format!("{text}\nx = {typo}(1);\n").into_bytes());
    let e = pack(&edited).unwrap_err();
    assert_eq!(e.file, path);
    let line = text.lines().count() + 1;
    assert_eq!(e.field, format!("line {line}, column 5"), "{e}");
    assert!(e.message.contains(&typo), "{e}");
    assert!(
        e.message.contains(&format!("did you mean `{known}`?")),
        "{e}"
    );
}

/// Issue 16: an edited `.gml` may define new functions and struct literals (2.3+): pack adds
/// their child entries, named as GameMaker names them; the result validates, parses again and
/// unpacks to a `.gml` that has them.
#[test]
fn a_gml_edited_to_define_a_function_and_a_struct_packs() {
    for name in ["acrandomizer.win", "longdog.win"] {
        let (_, folder) = need!(load(name));
        let (path, text) = gml_files(&folder)
            .into_iter()
            .find(|(p, t)| p.starts_with("objects/") && !t.contains("function"))
            .expect("an object event without functions");
        let mut edited = folder.clone();
        let added =
            "new_helper = function(v)\n{\n    return v * 2;\n};\nnew_state = { hp: 10, at: x };\n";
        edited.insert(&path, format!("{text}{added}").into_bytes());
        let game = pack(&edited).unwrap_or_else(|e| panic!("{name}: pack: {e}"));
        let before = game.data.code.as_ref().unwrap().entries.len();
        let bytes = gmkit_data::build_bytes(&game.data).expect("builds (validates)");
        let again = gmkit_data::parse_bytes(bytes.clone()).expect("re-parses");
        again.validate().expect("validates");
        let again_folder = unpack(&Game {
            data: again.clone(),
            audio_groups: Vec::new(),
        })
        .expect("unpacks");
        let repacked = pack(&again_folder).expect("packs again");
        assert_eq!(
            gmkit_data::build_bytes(&repacked.data).unwrap(),
            bytes,
            "{name}: unpack -> pack identical"
        );
        let original = gmkit_data::parse_bytes(corpus_file(name).unwrap()).unwrap();
        assert_eq!(
            before,
            original.code.as_ref().unwrap().entries.len() + 2,
            "{name}: two child entries added"
        );
        let back = unpack(&Game {
            data: again,
            audio_groups: Vec::new(),
        })
        .expect("unpacks again");
        let (_, text) = gml_files(&back)
            .into_iter()
            .find(|(p, _)| *p == path)
            .expect("the entry still gets a .gml");
        for w in ["new_helper = function", "hp: 10"] {
            assert!(text.contains(w), "{name}: {w} in\n{text}");
        }
    }
}
