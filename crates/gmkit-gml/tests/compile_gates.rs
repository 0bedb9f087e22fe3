//! The compiler's version gates (`gmkit_gml::compile::gates`): what the game's GameMaker
//! version cannot run is refused with its line, column and reason, one case per gate on each
//! side of the version that brought it; and no game's own code is ever refused (every corpus
//! entry, decompiled and printed for its version).

mod common;
use gmkit_data::DataFile;
use gmkit_gml::compile::gates::{check_text, check_tree};
use gmkit_gml::compile::{CodeError, Names, compile_text};
use gmkit_gml::{Family, Game, decompile, parse, print};
use std::collections::BTreeMap;

/// Every root entry of every corpus file, decompiled and printed as `unpack` writes it (the
/// version's dialect), passes both gates: a gate never refuses what the game's own compiler
/// accepted. `GMKIT_CORPUS=/work/wild` runs it on the wild set.
#[test]
fn no_game_code_is_refused() {
    let corpus = gmkit_testdata::need!(gmkit_testdata::corpus_all());
    let mut refused: BTreeMap<String, usize> = BTreeMap::new();
    let mut checked: BTreeMap<Family, usize> = BTreeMap::new();
    for (name, bytes) in corpus {
        let Ok(file) = gmkit_data::parse_bytes(bytes) else {
            continue;
        };
        let Some(code) = file.code.as_ref() else {
            continue;
        };
        let game = Game::new(&file);
        for i in 0..code.entries.len() {
            if !code.entries[i].body.is_root() {
                continue;
            }
            let Ok(d) = decompile::decompile_entry(&game, i) else {
                continue;
            };
            let text = print::print_for(&d.body, &game.features);
            let Ok(tree) = parse::parse_for(&text, &game.features) else {
                continue;
            };
            *checked.entry(game.features.family()).or_default() += 1;
            let r = check_text(&game, &text).and_then(|_| check_tree(&game, &tree));
            if let Err(e) = r {
                println!("REFUSED {name} {}: {e}", game.code_name(i));
                let key = format!("{} {}", game.features.family().label(), e.cause());
                *refused.entry(key).or_default() += 1;
            }
        }
    }
    for (f, n) in &checked {
        println!("family {:10} entries checked {n}", f.label());
    }
    assert!(checked.values().sum::<usize>() > 0, "no entry checked");
    assert!(refused.is_empty(), "game code refused: {refused:#?}");
}

use common::{load, plain_root_entry as target};

/// `text` compiled as new code into `game`'s first plain root entry.
fn compile(file: &DataFile, text: &str) -> Result<(), CodeError> {
    let game = Game::new(file);
    let names = Names::new(&game);
    compile_text(&game, &names, target(file), text).map(|_| ())
}

/// GMS 1.4 (1.0.0.9999): no GMS2 syntax.
const GMS1: &str = "bubblinaway.win";
/// GMS2 2.0.6: array literals.
const GMS2: &str = "space-war-assignment.win";
/// 2.2.2: the last before 2.3.
const PRE_23: &str = "platformer.win";
/// 2.3.2: functions, structs, `try` ...; not yet `??`.
const GML_23: &str = "vendaval.win";
/// 2022.3: `??`; not yet template strings.
const GML_2022: &str = "multiplayer-tanks.win";
/// 2022 LTS: no template strings.
const LTS: &str = "deltarun.win";
/// 2023.4: template strings.
const GML_2023_4: &str = "gml-simpledraw.win";

/// One gate: text refused in the game just before the version (at `line`:`col`, the message
/// naming `needs`), compiled in the game from it.
struct Case {
    text: &'static str,
    line: u32,
    col: u32,
    needs: &'static str,
    before: &'static [&'static str],
    from: &'static str,
}

const CASES: &[Case] = &[
    Case {
        text: "x = 1;\ny = [1, 2];\n",
        line: 2,
        col: 5,
        needs: "array literal `[...]` needs GameMaker Studio 2",
        before: &[GMS1],
        from: GMS2,
    },
    Case {
        text: "a[0] = 1;\nb = a[0] + array_length_1d([a[0], 2]);\n",
        line: 2,
        col: 28,
        needs: "array literal `[...]` needs GameMaker Studio 2",
        before: &[GMS1],
        from: GMS2,
    },
    Case {
        text: "x = 1;\nfunction twice(a) {\n    return a * 2;\n}\n",
        line: 2,
        col: 1,
        needs: "the function declaration `twice` needs GameMaker 2.3",
        before: &[GMS1, GMS2, PRE_23],
        from: GML_23,
    },
    Case {
        text: "x = 1;\nf = function(a) {\n    return a;\n};\n",
        line: 2,
        col: 5,
        needs: "a function literal needs GameMaker 2.3",
        before: &[PRE_23],
        from: GML_23,
    },
    Case {
        text: "function Point() constructor {\n    px = 0;\n}\np = new Point();\n",
        line: 1,
        col: 1,
        needs: "a constructor needs GameMaker 2.3",
        before: &[PRE_23],
        from: GML_23,
    },
    Case {
        text: "x = 1;\nif (x) {\n    p = new Point();\n}\nfunction Point() constructor {\n}\n",
        line: 3,
        col: 9,
        needs: "`new` needs GameMaker 2.3",
        before: &[PRE_23],
        from: GML_23,
    },
    Case {
        // (The accepting side: a `static` in a function, next case; GameMaker's 2.3 takes
        // none outside one.)
        text: "x = 1;\nstatic count = 0;\n",
        line: 2,
        col: 1,
        needs: "`static` needs GameMaker 2.3",
        before: &[PRE_23],
        from: "",
    },
    Case {
        text: "function counter() {\n    static count = 0;\n    count += 1;\n    return count;\n}\n",
        line: 1,
        col: 1,
        needs: "the function declaration `counter` needs GameMaker 2.3",
        before: &[PRE_23],
        from: GML_23,
    },
    Case {
        text: "s = 1;\ndelete s;\n",
        line: 2,
        col: 1,
        needs: "`delete` needs GameMaker 2.3",
        before: &[PRE_23],
        from: GML_23,
    },
    Case {
        text: "x = 1;\nwith (all) {\n    try {\n        x = 2;\n    } catch (e) {\n        x = 3;\n    }\n}\n",
        line: 3,
        col: 5,
        needs: "try needs GameMaker 2.3",
        before: &[GMS1, PRE_23],
        from: GML_23,
    },
    Case {
        text: "x = 1;\nif (x) {\n    throw \"bad\";\n}\n",
        line: 3,
        col: 5,
        needs: "`throw` needs GameMaker 2.3",
        before: &[PRE_23],
        from: GML_23,
    },
    Case {
        text: "x = 1;\ns = { a: 1, b: x };\n",
        line: 2,
        col: 5,
        needs: "a struct literal `{...}` needs GameMaker 2.3",
        before: &[GMS2, PRE_23],
        from: GML_23,
    },
    Case {
        text: "x = 1;\ns.step(1);\n",
        line: 2,
        col: 3,
        needs: "the method call `.step(...)` needs GameMaker 2.3",
        before: &[PRE_23],
        from: GML_23,
    },
    Case {
        text: "x = 1;\na[0](1);\n",
        line: 2,
        col: 1,
        needs: "calling a value needs GameMaker 2.3",
        before: &[PRE_23],
        from: GML_23,
    },
    Case {
        text: "x = 1;\nf = show_debug_message;\n",
        line: 2,
        col: 5,
        needs: "the built-in function `show_debug_message` used as a value needs GameMaker 2.3",
        before: &[GMS1, PRE_23],
        from: GML_23,
    },
    Case {
        text: "x = 1;\nb[1] = 0;\nb[0][1] = 2;\n",
        line: 3,
        col: 5,
        needs: "an array of arrays `a[i][j]` (before: `a[i, j]`) needs GameMaker 2.3",
        before: &[PRE_23],
        from: GML_23,
    },
    Case {
        text: "x = 1;\ns = @\"C:\\dir\";\n",
        line: 2,
        col: 5,
        needs: "a verbatim string `@\"...\"` needs GameMaker 2.3",
        before: &[GMS2, PRE_23],
        from: GML_23,
    },
    Case {
        text: "x = 1;\nv = variable_struct_get(x, \"a\");\n",
        line: 2,
        col: 5,
        needs: "the built-in function `variable_struct_get` needs GameMaker 2.3",
        before: &[GMS1, PRE_23],
        from: GML_23,
    },
    Case {
        text: "x = 1;\nv = x[$ \"a\"];\n",
        line: 2,
        col: 6,
        needs: "the built-in function `variable_struct_get` needs GameMaker 2.3",
        before: &[PRE_23],
        from: GML_23,
    },
    Case {
        text: "x = 1;\ny = x ?? 2;\n",
        line: 2,
        col: 7,
        needs: "`??` needs GameMaker 2.3.7",
        before: &[GML_23],
        from: GML_2022,
    },
    Case {
        text: "x = 1;\nfor (i = 0; i < 2; i += 1) {\n    y ??= i;\n}\n",
        line: 3,
        col: 7,
        needs: "`??=` needs GameMaker 2.3.7",
        before: &[GML_23],
        from: GML_2022,
    },
    Case {
        text: "x = 1;\ns = $\"x is {x}\";\n",
        line: 2,
        col: 5,
        needs: "a template string `$\"...\"` needs GameMaker 2023.4",
        before: &[GML_2022, LTS],
        from: GML_2023_4,
    },
    Case {
        text: "x = 1;\ns = $\"no fields\";\n",
        line: 2,
        col: 5,
        needs: "a template string `$\"...\"` needs GameMaker 2023.4",
        before: &[GML_2022, LTS],
        from: GML_2023_4,
    },
];

#[test]
fn each_gate_refuses_just_before_its_version_and_accepts_from_it() {
    for case in CASES {
        for name in case.before {
            let file = gmkit_testdata::need!(load(name));
            let e = compile(&file, case.text).expect_err(case.text);
            assert!(e.message.contains(case.needs), "{name}: {e}\n{}", case.text);
            assert!(e.message.contains("; this game is "), "{name}: {e}");
            assert_eq!(
                (e.line, e.col),
                (case.line, case.col),
                "{name}: {e}\n{}",
                case.text
            );
        }
        if case.from.is_empty() {
            continue;
        }
        let file = gmkit_testdata::need!(load(case.from));
        if let Err(e) = compile(&file, case.text) {
            panic!("{}: {e}\n{}", case.from, case.text);
        }
    }
}

/// `#macro`, `#region` and `enum` are preprocessing and leave no code: taken in every
/// version (GMS 1.x included, whose own compiler has project constants instead).
#[test]
fn preprocessing_is_taken_in_every_version() {
    let text = "#macro SPEED 3\n  #region movement\nenum Dir { Left, Right }\nx += SPEED * Dir.Right;\n#endregion\n";
    for name in ["tricking-the-vikings.win", GMS1, GMS2, GML_23] {
        let file = gmkit_testdata::need!(load(name));
        compile(&file, text).unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}

#[test]
fn the_message_names_the_games_version() {
    let file = gmkit_testdata::need!(load(GML_23));
    let e = compile(&file, "y = x ?? 2;\n").expect_err("?? in 2.3.2");
    assert_eq!(
        e.message,
        "`??` needs GameMaker 2.3.7 or later; this game is 2.3.2 in `y = x ?? 2;`"
    );
    let file = gmkit_testdata::need!(load(GMS1));
    let e = compile(&file, "y = [1];\n").expect_err("array literal in GMS1");
    assert!(
        e.message
            .contains("this game is GameMaker Studio 1.x (bytecode 16)"),
        "{e}"
    );
}

/// Read-only built-in variables: GameMaker refuses to assign them in every version (the
/// manual's variable pages mark them; no corpus or wild game writes one); the game's own
/// variables and writable built-ins are assigned as before.
#[test]
fn read_only_built_in_variables_are_refused_in_every_family() {
    let games = [
        "tricking-the-vikings.win",
        GMS1,
        GMS2,
        PRE_23,
        GML_23,
        GML_2022,
        "longdog.win",
    ];
    for name in games {
        let file = gmkit_testdata::need!(load(name));
        for (text, line, col, var) in [
            ("x = 1;\nfps = 3;\n", 2, 1, "fps"),
            (
                "x = 1;\nif (x) {\n    instance_count = 0;\n}\n",
                3,
                5,
                "instance_count",
            ),
            ("room_first += 1;\n", 1, 1, "room_first"),
            ("x = 1;\nrepeat (2) {\n    mouse_x++;\n}\n", 3, 5, "mouse_x"),
            ("x = 1;\nargument_count = 2;\n", 2, 1, "argument_count"),
        ] {
            let e = compile(&file, text).expect_err(text);
            assert!(
                e.message
                    .contains(&format!("`{var}` is a read-only built-in variable")),
                "{name}: {e}"
            );
            assert_eq!((e.line, e.col), (line, col), "{name}: {e}\n{text}");
        }
        compile(
            &file,
            "image_angle = 3;\nmy_counter = fps + instance_count;\n",
        )
        .unwrap_or_else(|e| panic!("{name}: {e}"));
    }
}

/// The exact-graded and other projects of `../shared/sources`, their own text: every unit
/// passes the text gate and its tree the tree gate, with its game's features.
#[test]
fn the_games_own_sources_pass() {
    use gmkit_gml::project::{ProjectContext, read_project};
    use gmkit_gml::source::Sources;
    let sources = gmkit_testdata::need!(gmkit_testdata::sources_dir());
    let table = std::fs::read_to_string(sources.join("SOURCES.tsv")).expect("SOURCES.tsv");
    let mut lines = table.lines();
    let header: Vec<&str> = lines.next().expect("header").split('\t').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).expect(name);
    let (c_dir, c_file) = (col("dir"), col("file"));
    let mut units = 0;
    let mut refused = Vec::new();
    for line in lines {
        let f: Vec<&str> = line.split('\t').collect();
        let Some(bytes) = gmkit_testdata::corpus_file(f[c_file]) else {
            continue;
        };
        let file = gmkit_data::parse_bytes(bytes).expect("corpus file parses");
        let game = Game::new(&file);
        let cx = ProjectContext::new(&game);
        let Ok(project) = read_project(&sources.join(f[c_dir]), &cx) else {
            continue;
        };
        let src = Sources::new(&project, &game);
        for (k, u) in project.units.iter().enumerate() {
            if u.unsupported.is_some() {
                continue;
            }
            units += 1;
            if let Err(e) = check_text(&game, &u.text) {
                refused.push(format!("{} {}: {e}", f[c_dir], u.entry));
            }
            if let Ok(tree) = src.tree(&project, k)
                && let Err(e) = check_tree(&game, &tree)
            {
                refused.push(format!("{} {}: {e}", f[c_dir], u.entry));
            }
        }
    }
    println!("source units checked: {units}");
    assert!(units > 0);
    assert!(refused.is_empty(), "{refused:#?}");
}

/// Before 2.3 a script's name used as a value is the script's index (scripts are assets:
/// GMS 1.4 code passes them to `script_execute`); a built-in function's name is refused.
#[test]
fn a_script_as_a_value_is_its_index_before_2_3() {
    use gmkit_data::chunks::code::{Instruction, PushValue};
    let file = gmkit_testdata::need!(load("jtool.win"));
    let game = Game::new(&file);
    let names = Names::new(&game);
    let c = compile_text(&game, &names, target(&file), "f = point_in_rect;\n")
        .unwrap_or_else(|e| panic!("{e}"));
    let pushes_one = c.instructions.iter().any(|i| {
        matches!(
            i,
            Instruction::Push {
                value: PushValue::Int16(1) | PushValue::Int32(1),
                ..
            }
        )
    });
    assert!(pushes_one, "{:?}", c.instructions);
    let e = compile(&file, "f = point_in_rectangle;\n").expect_err("a built-in as a value");
    assert!(
        e.message.contains(
            "the built-in function `point_in_rectangle` used as a value needs GameMaker 2.3"
        ),
        "{e}"
    );
    assert_eq!((e.line, e.col), (1, 5));
    // A name the code assigns is a variable of the game, whatever a later version calls it
    // (`method` is a 2.3 built-in function).
    compile(&file, "method = 3;\nx = method;\n").unwrap_or_else(|e| panic!("{e}"));
}

/// The text gate finds a construct after many tokens on one line and after lines of
/// directives and templates' own fields (one cursor through the text).
#[test]
fn the_text_gate_places_a_construct_on_a_long_line() {
    let file = gmkit_testdata::need!(load(PRE_23));
    let mut text = String::from("#macro N 3\nx = N;\n");
    let head = "s = \"a\"; ".repeat(2000);
    text.push_str(&head);
    text.push_str("t = @\"b\";\n");
    let e = compile(&file, &text).expect_err("verbatim string in 2.2");
    assert!(e.message.contains("verbatim string"), "{e}");
    assert_eq!((e.line, e.col), (3, head.chars().count() as u32 + 5), "{e}");
    // After a template string's fields (all placed at its `$`), in 2023.4.
    let file = gmkit_testdata::need!(load(GML_2022));
    let e = compile(&file, "a = 1;\nb = \"{\" + string(a);\n").map(|_| ());
    assert!(e.is_ok(), "{e:?}");
    let e = compile(&file, "a = 1; b = @\"x\" + $\"{a}\";\n").expect_err("template in 2022.3");
    assert!(e.message.contains("template string"), "{e}");
    assert_eq!((e.line, e.col), (1, 19), "{e}");
}
