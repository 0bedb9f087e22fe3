//! Quirks of GameMaker's compiler (spec `gml-bytecode.md`), each GML -> the code it emits and
//! back: what a new entry's text compiles to in a file that has little beyond the names a game
//! always has, and how the decompiler writes it again.

mod common;
use common::{Asm, compiles_to};
use gmkit_data::DataFile;
use gmkit_data::chunks::code::asm::Disassembler;
use gmkit_data::chunks::code::{CodeBody, CodeEntry};
use gmkit_data::chunks::variable::Variable;
use gmkit_data::code_entry::{EntryTarget, EventType};
use gmkit_gml::{Game, decompile, entries, print};

/// A 2.3+ file of `major.minor` with what every game has for new entries: SCPT and GLOB, the
/// VARI header and FUNC's code-locals list, a local `arguments`, the FUNC entries `funcs`, and
/// an object `obj_host`.
fn game_file(major: u16, minor: u16, funcs: &[&str]) -> DataFile {
    let mut a = Asm::new(17, major, minor);
    for f in funcs {
        a.asm(&format!("call.i {f} 0"));
    }
    let mut file = a.file;
    file.code = Some(Default::default());
    file.scripts = Some(Default::default());
    file.global_init = Some(Default::default());
    file.objects = Some(Default::default());
    let name = file.intern("arguments");
    let vars = file.variables.as_mut().expect("made with VARI");
    vars.header = Some(Default::default());
    vars.variables.push(Variable {
        name,
        instance_type: -7,
        variable_id: name.0 as i32,
    });
    file.functions.as_mut().expect("made with FUNC").code_locals = Some(Vec::new());
    file.add_object("obj_host").expect("an object");
    file
}

/// Adds `src` as obj_host's Create event; its instructions' text and its decompiled print.
fn add_create(file: &mut DataFile, src: &str) -> Result<(String, String), String> {
    let target = EntryTarget::Event {
        object: gmkit_data::Id::new(0),
        event: EventType::Create,
        subtype: 0,
    };
    let added = entries::add_entry(file, &target, src).map_err(|e| e.to_string())?;
    let entry = added.root.entry;
    let ins = file
        .code
        .as_ref()
        .and_then(|c| c.instructions(entry).ok())
        .expect("compiled")
        .to_vec();
    let asm = Disassembler::new(file).instructions(&ins);
    let game = Game::new(file);
    let d = decompile::decompile_entry(&game, entry).expect("decompiles");
    assert_eq!(d.failures, 0, "{:?}", d.failure_notes);
    Ok((asm, print::print_stmts(&d.body)))
}

#[test]
fn a_name_assigned_to_itself_compiles_to_nothing_from_bytecode_15() {
    compiles_to(
        17,
        2022,
        1,
        "speed_now = speed_now;\nlast = speed_now;",
        "push.v self.speed_now / pop.v.v self.last",
    );
    compiles_to(15, 1, 4, "hp = hp;", "");
    // Bytecode 14 stores it; a dotted or compound one is no plain self-assignment.
    compiles_to(14, 1, 4, "hp = hp;", "push.v self.hp / pop.v.v self.hp");
    compiles_to(
        17,
        2022,
        1,
        "self.hp = hp;\nhp += hp;",
        "push.v self.hp / pop.v.v self.hp / push.v self.hp / push.v self.hp / add.v.v / pop.v.v self.hp",
    );
}

#[test]
fn compiler_made_locals_of_a_new_entry_are_its_own() {
    // The catch variable and `__yy_breakExN` (N counts the entry's try statements) are
    // locals the compiler makes: a new entry's text with them compiles.
    let mut file = game_file(2023, 1, &[]);
    let (asm, gml) = add_create(
        &mut file,
        "try { risky = 1; } catch (err) { caught = err; }\n\
         repeat (2) { try { if (risky) break; } finally { tidy = 1; } }",
    )
    .expect("compiles");
    assert!(asm.contains("pop.v.v local.err"), "{asm}");
    assert!(asm.contains("pop.v.i local.__yy_breakEx1"), "{asm}");
    assert!(gml.contains("catch (err)"), "{gml}");
}

#[test]
fn return_inside_try_with_finally_decompiles_as_written() {
    let mut file = game_file(2023, 1, &[]);
    let (asm, gml) = add_create(
        &mut file,
        "try { if (quit) { return 42; } } finally { cleaned = true; }",
    )
    .expect("compiles");
    assert!(asm.contains("pop.v.i local.copyVar"), "{asm}");
    assert!(gml.contains("return 42;"), "{gml}");
    assert!(!gml.contains("copyVar"), "{gml}");
    // Before 2024.6 a throw runs the finally block first: its copy is not the try's code.
    let mut file = game_file(2023, 1, &[]);
    let (asm, gml) =
        add_create(&mut file, "try { throw \"bad\"; } finally { cleaned = 7; }").expect("compiles");
    assert_eq!(asm.matches("pop.v.i self.cleaned").count(), 2, "{asm}");
    assert_eq!(gml.matches("cleaned = 7").count(), 1, "{gml}");
}

#[test]
fn a_call_of_no_function_calls_the_variable() {
    // 2.3+: `handler(3)` with no function `handler` is a call of the variable (`callv`);
    // a near miss of one of the file's functions stays an error (the likely typo).
    let mut file = game_file(2023, 1, &["show_debug_message"]);
    let (asm, gml) = add_create(&mut file, "handler(3);").expect("compiles");
    assert!(asm.contains("call.i @@This@@(argc=0)"), "{asm}");
    assert!(asm.contains("push.v builtin.handler"), "{asm}");
    assert!(asm.contains("callv.v 1"), "{asm}");
    assert!(gml.contains("handler(3);"), "{gml}");
    let mut file = game_file(2023, 1, &["show_debug_message"]);
    let e = add_create(&mut file, "show_debug_mesage(3);").expect_err("a typo");
    assert!(e.contains("show_debug_mesage"), "{e}");
}

#[test]
fn an_event_function_is_called_directly_after_its_declaration() {
    // 2.3 - 2024.8: the event's root code after `function Spawn` calls and references the
    // function; code before the declaration reads the variable (2024.11 sees it everywhere).
    let mut file = game_file(2023, 1, &[]);
    let (asm, gml) = add_create(
        &mut file,
        "early = Spawn;\nfunction Spawn() constructor {\n}\nlate = Spawn;\nthing = new Spawn();\nSpawn();",
    )
    .expect("compiles");
    let child = "gml_Script_Spawn_gml_Object_obj_host_Create_0";
    assert!(
        asm.contains("push.v self.Spawn\npop.v.v self.early"),
        "{asm}"
    );
    assert_eq!(
        asm.matches(&format!("push.i [function]{child}")).count(),
        3,
        "{asm}"
    );
    assert!(asm.contains(&format!("call.i {child}(argc=0)")), "{asm}");
    assert!(gml.contains("late = Spawn;"), "{gml}");
    assert!(gml.contains("thing = new Spawn();"), "{gml}");
    assert!(!gml.contains("gml_Object"), "{gml}");
}

#[test]
fn struct_keys_that_are_no_names_print_quoted() {
    let tree = gmkit_gml::parse::parse("s = { plain: 1, \"two words\": 2 };").expect("parses");
    let text = print::print_stmts(&tree);
    assert!(text.contains("plain: 1, \"two words\": 2"), "{text}");
    assert_eq!(gmkit_gml::parse::parse(&text).expect("reparses"), tree);
}

#[test]
fn arrays_of_arrays_are_refused_before_2_3() {
    // GMS 2 before 2.3 has no arrays of arrays (`a[i, j]` is its 2-D array).
    let mut a = Asm::new(16, 2, 2);
    a.asm("push.v self.grid / push.v self.i / push.v self.j");
    let game = Game::new(&a.file);
    let names = gmkit_gml::compile::Names::new(&game);
    let tree = gmkit_gml::parse::parse("grid[i][j] = 5;").expect("parses");
    let e = gmkit_gml::compile::compile_entry(&game, &names, 0, &tree).expect_err("refused");
    assert!(e.to_string().contains("2.3 or later"), "{e}");
    let tree = gmkit_gml::parse::parse("grid[i, j] = 5;").expect("parses");
    gmkit_gml::compile::compile_entry(&game, &names, 0, &tree).expect("a 2-D array");
}

#[test]
fn an_event_constructor_inherits_one_declared_above() {
    let mut file = game_file(2022, 1, &[]);
    let (asm, gml) = add_create(
        &mut file,
        "function Base(n) constructor {\n    size = n;\n}\nfunction Derived(n) : Base(n * 2) constructor {\n}",
    )
    .expect("compiles");
    let base = "gml_Script_Base_gml_Object_obj_host_Create_0";
    assert!(asm.contains(&format!("call.i {base}(argc=1)")), "{asm}");
    assert!(gml.contains(": Base("), "{gml}");
}

#[test]
fn a_boolean_switch_keeps_number_labels() {
    // Typed booleans (2.3.7+): `case true:` in a boolean switch is compared `cmp.b.b`,
    // `case 1:` `cmp.i.b` (the same `pushi.e 1`).
    let text = common::gml(
        17,
        2023,
        1,
        "pushi.e 1 / dup.b 0 / pushi.e 1 / cmp.b.b EQ / bt L1 / dup.b 0 / pushi.e 0 / \
         cmp.i.b EQ / bt L2 / b END / L1: / b END / L2: / b END / END: / popz.b",
    );
    assert_eq!(
        text,
        "switch (true) {\n    case true:\n        break;\n    case 0:\n        break;\n}"
    );
}

#[test]
fn an_element_of_a_qualified_array_of_arrays_is_its_own_call_self() {
    // `self.grid[0][1](7)`: the element's owner is pushed (`@@This@@`, -9) and the element
    // is the call's self (`dup.v 0`), as for one index; no second `@@This@@`.
    compiles_to(
        17,
        2023,
        1,
        "self.grid[0][1](7);",
        "pushi.e 7 / conv.i.v / call.i @@This@@ 0 / pushi.e -9 / pushi.e 0 / \
         push.v [multipush]0.grid / pushi.e 1 / pushaf.e / dup.v 0 / callv.v 1 / popz.v",
    );
}

/// A new entry's constants are folded as in an edited one (`compile_text`): GameMaker's compiler
/// emits `"left" + "right"` as one string and `4 * 5` as one number.
#[test]
fn a_new_entry_folds_constants() {
    let mut file = game_file(2023, 8, &[]);
    let (asm, gml) =
        add_create(&mut file, "label = \"left\" + \"right\";\narea = 4 * 5;").expect("compiles");
    assert!(asm.contains("push.s \"leftright\""), "{asm}");
    assert!(asm.contains("pushi.e 20"), "{asm}");
    assert!(!asm.contains("add.s.s") && !asm.contains("mul"), "{asm}");
    assert_eq!(gml, "label = \"leftright\";\narea = 20;");
}

/// A call instruction holds its argument count in 16 bits: a call with more arguments is
/// refused with the count, never cut to a wrong one.
#[test]
fn a_call_with_more_arguments_than_an_instruction_holds_is_refused() {
    let mut file = game_file(2023, 8, &["show_debug_message"]);
    let many = vec!["0"; 70_000].join(", ");
    let err = add_create(&mut file, &format!("show_debug_message({many});")).expect_err("refused");
    assert!(err.contains("70000 arguments"), "{err}");
    let fits = ["0"; 3].join(", ");
    add_create(&mut file, &format!("show_debug_message({fits});")).expect("three fit");
}

/// Compiles `source` as obj_host's new Create event (no code of its own to learn owner ids from) and returns
/// its assembly with each `push <id> / setowner.e` written `owner N`, N numbering the
/// distinct ids in order of appearance: which statements set an owner, and which share one.
fn new_code_owners(major: u16, minor: u16, source: &str) -> String {
    let mut file = game_file(major, minor, &[]);
    if (major, minor) < (2022, 2) {
        // A game of these versions sets array owners (copy-on-write): its code shows it.
        let mut a = Asm::new(17, major, minor);
        let body = a.asm("push.i 65536 / setowner.e / pushi.e 1 / pop.v.i self.k");
        let name = file.intern("gml_Object_obj_host_Step_0");
        file.code
            .as_mut()
            .expect("made with code")
            .entries
            .push(CodeEntry {
                name,
                body: CodeBody::Instructions(body),
                locals_count: 1,
                arguments_count: 0,
                arguments_flag: false,
                execution_offset: 0,
            });
    }
    let (text, _) = add_create(&mut file, source).expect("compiles");
    let lines: Vec<&str> = text.lines().collect();
    let mut ids: Vec<String> = Vec::new();
    let mut out = Vec::new();
    let mut k = 0;
    while k < lines.len() {
        if lines.get(k + 1) == Some(&"setowner.e") {
            let id = lines[k].rsplit(' ').next().unwrap_or("").to_string();
            let n = ids.iter().position(|i| *i == id).unwrap_or_else(|| {
                ids.push(id);
                ids.len() - 1
            });
            out.push(format!("owner {n}"));
            k += 2;
            continue;
        }
        out.push(lines[k].to_string());
        k += 1;
    }
    out.join(" / ")
}

#[test]
fn new_code_sets_one_owner_per_written_variable() {
    // Copy-on-write (2.3 – 2022.1): every written variable has an owner id of its own (spec
    // §4.8: a per-function part plus a per-variable number), so new code sets the owner again
    // when another variable's array is written, and not for the same variable again; a target
    // reached through a dot has an id of its own (`o.cells[..]`, `slots[0].cells`), shared by
    // every dotted write of that name.
    assert_eq!(
        new_code_owners(
            2,
            3,
            "row[0] = 7;\nrow[1] = 8;\ngrid.cells[0] = 2;\nslots[0].cells = 3;\nrow[2] = 9;"
        ),
        "owner 0 / pushi.e 7 / conv.i.v / pushi.e -1 / pushi.e 0 / pop.v.v [array]0.row / \
         pushi.e 8 / conv.i.v / pushi.e -1 / pushi.e 1 / pop.v.v [array]0.row / \
         owner 1 / pushi.e 2 / conv.i.v / push.v self.grid / pushi.e -9 / pushi.e 0 / \
         pop.v.v [array]0.cells / \
         pushi.e 3 / pushi.e -1 / pushi.e 0 / push.v [array]0.slots / pushi.e -9 / \
         pop.v.i [stacktop]0.cells / \
         owner 0 / pushi.e 9 / conv.i.v / pushi.e -1 / pushi.e 2 / pop.v.v [array]0.row"
    );
    // An array literal passed to a call: the owner right before the literal, after the
    // arguments pushed before it; a call writing arrays has the per-function id (variable
    // part 0), told apart from the variables'.
    assert_eq!(
        new_code_owners(
            2022,
            0,
            "ds_list_add(l, [5, 6], 1);\nlist = array_create(3);\nlist[0] = 1;"
        ),
        "pushi.e 1 / conv.i.v / owner 0 / pushi.e 6 / conv.i.v / pushi.e 5 / conv.i.v / \
         call.i @@NewGMLArray@@(argc=2) / push.v self.l / call.i ds_list_add(argc=3) / popz.v / \
         owner 0 / pushi.e 3 / conv.i.v / call.i array_create(argc=1) / pop.v.v self.list / \
         owner 1 / pushi.e 1 / conv.i.v / pushi.e -1 / pushi.e 0 / pop.v.v [array]0.list"
    );
    // `a[i]++` again with the owner unchanged: GameMaker's compiler reads the element once
    // more first (spec §4.8); after another variable's write it does not.
    assert_eq!(
        new_code_owners(2, 3, "hits[0]++;\nhits[0]++;"),
        "owner 0 / pushi.e -1 / pushi.e 0 / dup.i 1 / push.v [array]0.hits / dup.v 0 / \
         dup.i 4 6 / push.e 1 / add.i.v / pop.i.v [array]0.hits / popz.v / \
         pushi.e -1 / pushi.e 0 / push.v [array]0.hits / popz.v / \
         pushi.e -1 / pushi.e 0 / dup.i 1 / push.v [array]0.hits / dup.v 0 / dup.i 4 6 / \
         push.e 1 / add.i.v / pop.i.v [array]0.hits / popz.v"
    );
    // No copy-on-write from 2022.2 (a game setting, off by default): no owners.
    assert!(!new_code_owners(2023, 1, "row[0] = 7;\ngrid.cells[0] = 2;").contains("owner"));
}

#[test]
fn an_event_function_as_a_value_from_2024_11() {
    // 2024.11+: the event's root code sees the functions it declares anywhere, as do the
    // headers of its functions (default values, a parent's arguments: code of the event);
    // a reference is `push.i [function]f@<event>` (2024.11), `pushref.i` of it from 2024.13.
    // Inside another function's body (before 2024.13) the name is the variable.
    let src = "early = Spawn;\nfunction Spawn(kind) constructor {\n}\n\
               function Child(kind = Spawn) : Spawn(Spawn) constructor {\n    inner = Spawn;\n}\n\
               late = Spawn;";
    let child = "gml_Script_Spawn@gml_Object_obj_host_Create_0";
    for (minor, value, pop) in [
        (11, format!("push.i [function]{child}"), "pop.v.i"),
        (13, format!("pushref.i [function]{child}"), "pop.v.v"),
    ] {
        let mut file = game_file(2024, minor, &[]);
        let (asm, gml) = add_create(&mut file, src).expect("compiles");
        assert!(
            asm.contains(&format!("{value}\n{pop} builtin.early")),
            "{asm}"
        );
        assert!(
            asm.contains(&format!("{value}\n{pop} builtin.late")),
            "{asm}"
        );
        // The default value, and the parent's argument (converted as an argument).
        assert!(
            asm.contains(&format!("{value}\n{pop} builtin.argument0")),
            "{asm}"
        );
        let arg = if minor == 11 {
            format!("{value}\nconv.i.v\ncall.i {child}(argc=1)")
        } else {
            format!("{value}\ncall.i {child}(argc=1)")
        };
        assert!(asm.contains(&arg), "{asm}");
        if minor == 11 {
            assert!(
                asm.contains("push.v builtin.Spawn\npop.v.v builtin.inner"),
                "{asm}"
            );
        }
        assert!(gml.contains("early = Spawn;"), "{gml}");
        assert!(gml.contains("late = Spawn;"), "{gml}");
    }
}

#[test]
fn an_event_function_called_from_another_from_2024_13() {
    // 2024.13+: a function of the event called from the body of another of its functions is
    // called through a reference (`@@This@@`, `pushref.i`, `callv`); before, directly; the
    // event's root code calls it directly in every version.
    let src = "function helper(n) {\n    return n;\n}\nfunction user() {\n    return helper(2);\n}\n\
               helper(3);";
    let child = "gml_Script_helper@gml_Object_obj_host_Create_0";
    for minor in [11, 13] {
        let mut file = game_file(2024, minor, &[]);
        let (asm, gml) = add_create(&mut file, src).expect("compiles");
        let inner = if minor == 13 {
            format!("call.i @@This@@(argc=0)\npushref.i [function]{child}\ncallv.v 1\nret.v")
        } else {
            format!("call.i {child}(argc=1)\nret.v")
        };
        assert!(asm.contains(&inner), "{asm}");
        assert!(
            asm.contains(&format!("call.i {child}(argc=1)\npopz.v")),
            "{asm}"
        );
        assert!(gml.contains("return helper(2);"), "{gml}");
        // The text decompiled compiles to the same code.
        let mut again = game_file(2024, minor, &[]);
        let (asm2, _) = add_create(&mut again, &gml).expect("compiles again");
        assert_eq!(asm2, asm);
    }
}

#[test]
fn a_function_on_the_left_of_a_dot_is_its_statics() {
    // `f.v`: the function's statics, `static_get(f)` over `push.i [function]f` (wild 2023.11:
    // `process_camera_controls.follow_inst = id`), also from 2024.2 where `f` as a value is a
    // `pushref`, and for a function of the event its root code sees (2024.11+).
    let statics = |f: &str| {
        format!("push.i [function]{f}\nconv.i.v\ncall.i static_get(argc=1)\npushi.e -9\n")
    };
    for (major, minor) in [(2023, 11), (2024, 2), (2024, 11)] {
        let mut file = game_file(major, minor, &["gml_Script_scr_cam"]);
        let (asm, gml) =
            add_create(&mut file, "scr_cam.zoom = 2;\nview = scr_cam;").expect("compiles");
        assert!(
            asm.contains(&format!(
                "{}pop.v.i [stacktop]",
                statics("gml_Script_scr_cam")
            )),
            "{major}.{minor}: {asm}"
        );
        let value = if major == 2024 { "pushref.i" } else { "push.i" };
        assert!(asm.contains(&format!("{value} [function")), "{asm}");
        assert!(gml.contains("scr_cam.zoom = 2;"), "{gml}");
    }
    let mut file = game_file(2024, 11, &[]);
    let (asm, gml) =
        add_create(&mut file, "function Cam() {\n}\nCam.zoom += 1;").expect("compiles");
    assert!(
        asm.contains(&statics("gml_Script_Cam@gml_Object_obj_host_Create_0")),
        "{asm}"
    );
    assert!(gml.contains("Cam.zoom += 1;"), "{gml}");
}
