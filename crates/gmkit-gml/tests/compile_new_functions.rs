//! Functions and struct literals in new code (issue 16, bar 3), 2.3–2022 (acrandomizer,
//! 2022.9) and 2023+ (longdog, 2024.13): a new script with named, anonymous and constructor
//! functions, `static` and `method(...)`; a new object event with a struct literal and a
//! method; an existing entry edited to define a new function. Each adds its child entries
//! (named as GameMaker names them), their FUNC and SCPT entries, builds, parses again,
//! validates, and decompiles to text that compiles back to the same instructions with nothing
//! left to add.

use gmkit_data::DataFile;
use gmkit_data::chunks::object::Object;
use gmkit_data::code_entry::{EntryTarget, EventType};
use gmkit_gml::compile::{Names, compile_text};
use gmkit_gml::entries::{add_entry, replace_code};
use gmkit_gml::{Game, decompile, print};

/// (corpus file, an object of it, the version's child-name separator).
const GAMES: &[(&str, &str, char)] = &[
    ("acrandomizer.win", "obj_button", '_'),
    ("longdog.win", "obPlayer", '@'),
];

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

fn code_names(file: &DataFile) -> Vec<String> {
    let game = Game::new(file);
    (0..game.code_count())
        .map(|i| game.code_name(i).to_string())
        .collect()
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

/// Decompiles root `entry` and compiles the text again: the same instructions, the same
/// child entries (names, offsets, arguments), nothing new to add. Returns the text.
fn decompiles_back(file: &DataFile, entry: usize, what: &str) -> String {
    let game = Game::new(file);
    let d = decompile::decompile_entry(&game, entry).expect("decompiles");
    assert_eq!(d.failures, 0, "{what}: structured decompile");
    let text = print::print_stmts(&d.body);
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

const SCRIPT: &str = "function NewPoint(_x, _y) constructor
{
    static count = 0;
    px = _x;
    py = _y;
    static norm = function()
    {
        return sqrt((px * px) + (py * py));
    };
    count += 1;
}

function new_point_sum(a, b = 2)
{
    var add = function(p, q)
    {
        return p + q;
    };
    return add(a, b);
}
";

#[test]
fn new_script_with_functions_constructor_and_static() {
    for &(name, _, sep) in GAMES {
        let mut file = gmkit_testdata::need!(load(name));
        let added = add_entry(
            &mut file,
            &EntryTarget::Script {
                name: "scr_new_points".into(),
            },
            SCRIPT,
        )
        .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(added.children.len(), 4, "{name}: {added:?}");
        let back = check(&file, name);
        let names = code_names(&back);
        let root = back
            .find_code_entry("gml_GlobalScript_scr_new_points")
            .expect("root");
        // Named functions at the script's root: gml_Script_f, with SCPT and FUNC entries.
        for f in ["gml_Script_NewPoint", "gml_Script_new_point_sum"] {
            assert!(names.iter().any(|n| n == f), "{name}: {f}");
            assert!(has_script(&back, f), "{name}: SCPT {f}");
            assert!(has_func(&back, f), "{name}: FUNC {f}");
        }
        // The anonymous functions: numbered by the byte offset of `function` (CRLF), named
        // after the enclosing function's child name.
        let norm = SCRIPT.find("function()").unwrap()
            + SCRIPT[..SCRIPT.find("function()").unwrap()]
                .matches('\n')
                .count();
        let anon = if sep == '@' {
            format!("gml_Script_anon@{norm}@NewPoint@scr_new_points")
        } else {
            let p = "NewPoint_gml_GlobalScript_scr_new_points";
            format!("gml_Script_anon_{p}_{norm}_{p}")
        };
        assert!(
            names.contains(&anon),
            "{name}: {anon} in {:?}",
            &names[names.len() - 5..]
        );
        assert!(has_func(&back, &anon), "{name}: FUNC {anon}");
        let text = decompiles_back(&back, root, name);
        for w in [
            "static count",
            "constructor",
            "function new_point_sum",
            "px = ",
        ] {
            assert!(text.contains(w), "{name}: {w} in\n{text}");
        }
        // The constructor flag on the constructor's script.
        let game = Game::new(&back);
        let ctor = back
            .scripts
            .as_ref()
            .unwrap()
            .scripts
            .iter()
            .flatten()
            .find(|s| game.string(s.name) == "gml_Script_NewPoint")
            .expect("script");
        assert!(ctor.constructor, "{name}");
    }
}

#[test]
fn new_event_with_struct_literal_and_method() {
    for &(name, object, sep) in GAMES {
        let mut file = gmkit_testdata::need!(load(name));
        let object_id = file
            .find_asset::<Object>(object)
            .unwrap_or_else(|| panic!("{name}: {object}"));
        // The next struct number: one more than the game's largest (0 when it has none).
        let next_struct = code_names(&file)
            .iter()
            .filter_map(|n| {
                let rest = &n[n.find("___struct___")? + "___struct___".len()..];
                let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
                digits.parse::<u64>().ok()
            })
            .map(|n| n + 1)
            .max()
            .unwrap_or(0);
        let text = "new_state = { hp: 10, who: \"me\", at: x };
new_cb = method(new_state, function() { return hp; });
new_total = new_cb() + new_state.hp;
";
        let added = add_entry(
            &mut file,
            &EntryTarget::Event {
                object: object_id,
                event: EventType::Alarm,
                subtype: 11,
            },
            text,
        )
        .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(added.children.len(), 2, "{name}");
        let back = check(&file, name);
        let names = code_names(&back);
        let root_name = &added.root.name;
        let off = text.find("function").unwrap() + 1; // one line ending before it
        let anon = if sep == '@' {
            format!("gml_Script_anon@{off}@{root_name}")
        } else {
            format!("gml_Script_anon_{root_name}_{off}_{root_name}")
        };
        assert!(names.contains(&anon), "{name}: {anon}");
        // The struct's number: one more than the game's largest.
        let st: Vec<&String> = names
            .iter()
            .filter(|n| n.contains("___struct___") && n.ends_with(root_name.as_str()))
            .collect();
        assert_eq!(st.len(), 1, "{name}: {st:?}");
        assert_eq!(
            *st[0],
            format!("gml_Script____struct___{next_struct}{sep}{root_name}"),
            "{name}"
        );
        let root = back.find_code_entry(root_name).expect("root");
        let text = decompiles_back(&back, root, name);
        for w in ["hp: 10", "new_cb", "method(new_state"] {
            assert!(text.contains(w), "{name}: {w} in\n{text}");
        }
    }
}

#[test]
fn an_edited_entry_defines_a_new_function() {
    for &(name, _, sep) in GAMES {
        let mut file = gmkit_testdata::need!(load(name));
        // A root entry with code, printed, with a new function appended.
        let (entry, text) = {
            let game = Game::new(&file);
            let entry = (0..game.code_count())
                .find(|&i| {
                    game.code_name(i).starts_with("gml_Object_") && game.children(i).is_empty()
                })
                .expect("an object event");
            let d = decompile::decompile_entry(&game, entry).expect("decompiles");
            (entry, print::print_stmts(&d.body))
        };
        let edited = format!("{text}\nnew_helper = function(v)\n{{\n    return v * 2;\n}};\n");
        let kids =
            replace_code(&mut file, entry, &edited).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(kids.len(), 1, "{name}");
        let back = check(&file, name);
        let root_name = Game::new(&back).code_name(entry).to_string();
        let at = edited.find("function(v)").unwrap()
            + edited[..edited.find("function(v)").unwrap()]
                .matches('\n')
                .count();
        let anon = if sep == '@' {
            format!("gml_Script_anon@{at}@{root_name}")
        } else {
            format!("gml_Script_anon_{root_name}_{at}_{root_name}")
        };
        assert!(code_names(&back).contains(&anon), "{name}: {anon}");
        let text = decompiles_back(&back, entry, name);
        assert!(text.contains("new_helper = function"), "{name}: {text}");
    }
}

/// Anonymous functions are numbered by the byte offset of their `function` keyword in the
/// source with CRLF line endings: the games' own sources give their entries' names.
#[test]
fn anonymous_numbers_follow_the_source() {
    let cases = [
        (
            "acrandomizer/objects/obj_button/Create_0.gml",
            vec![263u32, 289],
        ),
        (
            "longdog/scripts/VI_Cloth/VI_Cloth.gml",
            vec![1743, 1957, 2270],
        ),
    ];
    for (path, want) in cases {
        let dir = gmkit_testdata::need!(gmkit_testdata::sources_dir());
        let text = std::fs::read_to_string(dir.join(path)).expect("source");
        let tree = gmkit_gml::parse::parse(&text).expect("parses");
        let mut got = Vec::new();
        collect(&tree, &text, &mut got);
        for w in &want {
            assert!(got.contains(w), "{path}: {w} in {got:?}");
        }
    }
}

fn collect(body: &[gmkit_gml::ast::Stmt], text: &str, out: &mut Vec<u32>) {
    use gmkit_gml::ast::{Expr, Stmt};
    fn expr(e: &Expr, text: &str, out: &mut Vec<u32>) {
        if let Expr::Function(f) = e {
            if f.name.is_none() {
                out.extend(f.at.crlf_offset(text));
            }
            collect(&f.body, text, out);
        }
    }
    for s in body {
        match s {
            Stmt::Function(f) => collect(&f.body, text, out),
            Stmt::Assign { value, .. } => expr(value, text, out),
            Stmt::Var(v) => v
                .iter()
                .flat_map(|(_, e)| e)
                .for_each(|e| expr(e, text, out)),
            Stmt::Static(v) => v.iter().for_each(|(_, e)| expr(e, text, out)),
            _ => {}
        }
    }
}

/// `___struct___N` with its number left out (GameMaker numbers struct literals game-wide in
/// compile order, which one entry's compile cannot know).
fn without_struct_numbers(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut rest = name;
    while let Some(at) = rest.find("___struct___") {
        out.push_str(&rest[..at + "___struct___".len()]);
        rest = rest[at + "___struct___".len()..].trim_start_matches(|c: char| c.is_ascii_digit());
        out.push('N');
    }
    out.push_str(rest);
    out
}

/// The oracle for new child names: every root entry with nested functions of every exact
/// project (2.3+), its source compiled as new code (its child entries ignored): the names
/// must be GameMaker's (struct numbers aside), in offset order.
#[test]
fn new_child_names_are_gamemakers_on_exact_projects() {
    use gmkit_gml::compile::new_child_names;
    use gmkit_gml::project::{ProjectContext, read_project};
    use gmkit_gml::source::Sources;
    let sources = gmkit_testdata::need!(gmkit_testdata::sources_dir());
    let table = std::fs::read_to_string(sources.join("SOURCES.tsv")).expect("SOURCES.tsv");
    let mut lines = table.lines();
    let header: Vec<&str> = lines.next().expect("header").split('\t').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).expect(name);
    let (c_dir, c_file, c_grade) = (col("dir"), col("file"), col("match_grade"));
    let (mut all, mut same, mut all_shaped) = (0usize, 0usize, 0usize);
    for line in lines {
        let f: Vec<&str> = line.split('\t').collect();
        if f.get(c_grade) != Some(&"exact") {
            continue;
        }
        let bytes = gmkit_testdata::need!(gmkit_testdata::corpus_file(f[c_file]));
        let file = gmkit_data::parse_bytes(bytes).expect("corpus file parses");
        if !file.version.at_least(2, 3) {
            continue;
        }
        let game = Game::new(&file);
        let names = Names::new(&game);
        let cx = ProjectContext::new(&game);
        let project = read_project(&sources.join(f[c_dir]), &cx).expect("project reads");
        let src = Sources::new(&project, &game);
        let (mut n, mut ok, mut shaped) = (0usize, 0usize, 0usize);
        for (k, u) in project.units.iter().enumerate() {
            let Some(i) = file.find_code_entry(&u.entry) else {
                continue;
            };
            let kids = game.children(i);
            if kids.is_empty() || u.unsupported.is_some() || u.line != 1 {
                continue;
            }
            n += 1;
            let want: Vec<String> = kids
                .iter()
                .map(|&(_, e)| without_struct_numbers(game.code_name(e)))
                .collect();
            let Ok(tree) = src.tree(&project, k) else {
                continue;
            };
            let got: Vec<String> = match new_child_names(&game, &names, i, &tree, &u.text) {
                Ok(v) => v.iter().map(|s| without_struct_numbers(s)).collect(),
                Err(e) => {
                    println!("    {}: {e}", u.entry);
                    continue;
                }
            };
            if got == want {
                ok += 1;
                shaped += 1;
            } else if got
                .iter()
                .map(|s| without_numbers(s))
                .eq(want.iter().map(|s| without_numbers(s)))
            {
                shaped += 1;
                println!("    {}: numbers differ: {got:?} for {want:?}", u.entry);
            } else {
                println!("    {}: {got:?} for {want:?}", u.entry);
            }
        }
        println!(
            "{:24} entries with nested functions {n:4}  names as GameMaker's {ok:4}  numbers aside {shaped:4}",
            f[c_dir]
        );
        all += n;
        same += ok;
        all_shaped += shaped;
    }
    println!("all: {same} of {all} identical, {all_shaped} of {all} numbers aside");
    assert!(all > 0);
    assert!(same * 100 >= all * FLOOR, "{same} of {all}");
    assert!(
        all_shaped * 100 >= all * SHAPE_FLOOR,
        "{all_shaped} of {all}"
    );
}

/// A name with every digit run left out.
fn without_numbers(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.chars() {
        if !c.is_ascii_digit() {
            out.push(c);
        } else if !out.ends_with('#') {
            out.push('#');
        }
    }
    out
}

/// Measured shares (rounded down) of entries whose new child names are GameMaker's: exactly,
/// and with numbers aside (the sources of a few entries differ from what was built in
/// whitespace or comments, which moves the anonymous functions' numbers).
const FLOOR: usize = 80;
const SHAPE_FLOOR: usize = 95;
