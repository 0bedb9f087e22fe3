//! Compiler cases for 2.3+ functions: GML → expected assembly (the shapes of spec
//! `gml-bytecode.md` §5.10, §6.3, §6.4, §7), and the same assembly decompiled back to the GML.
//! Each case is a code entry with its child entries (the nested functions' headers) in a
//! small data file.

mod common;
use common::Asm;
use gmkit_data::chunks::code::{CodeBody, CodeEntries, CodeEntry, Instruction, PushValue};
use gmkit_gml::compile::{ChildEntry, Names, compile_entry_with_children};
use gmkit_gml::{Game, decompile, parse, print};

/// A root entry `root` whose instructions are `asm`, with child entries `(name, label)`
/// starting at those labels; `(major, minor)` is the layout version.
struct Case {
    asm: Asm,
    ins: Vec<Instruction>,
}

fn case(major: u16, minor: u16, root: &str, children: &[(&str, &str)], asm: &str) -> Case {
    let mut a = Asm::new(17, major, minor);
    let ins = a.asm(asm);
    let strings = a.file.strings.as_mut().expect("strings");
    let mut name = |s: &str| strings.find(s).unwrap_or_else(|| strings.push(s));
    let mut entries = vec![CodeEntry {
        name: name(root),
        body: CodeBody::Instructions(ins.clone()),
        locals_count: 1,
        arguments_count: 0,
        arguments_flag: false,
        execution_offset: 0,
    }];
    let mut pending = Vec::new();
    for (child, label) in children {
        let at = asm.find(&format!("{label}:")).expect("label");
        pending.push((name(child), &asm[..at]));
    }
    for (n, prefix) in pending {
        let offset: usize = a.asm(prefix).iter().map(|i| i.size()).sum();
        entries.push(CodeEntry {
            name: n,
            body: CodeBody::Shared { parent: 0 },
            locals_count: 0,
            arguments_count: 0,
            arguments_flag: false,
            execution_offset: offset as u32,
        });
    }
    // Builtin variables (read through `builtin.`) carry the builtin variable id.
    let builtin: Vec<usize> = ins
        .iter()
        .filter_map(|i| match i {
            Instruction::Push {
                value: PushValue::Variable(v),
                ..
            } if v.instance.0 == -6 => Some(v.variable.index()),
            _ => None,
        })
        .collect();
    let vars = a.file.variables.as_mut().expect("variables");
    for k in builtin {
        vars.variables[k].variable_id = -6;
    }
    a.file.code = Some(CodeEntries {
        entries,
        empty_body: false,
    });
    Case { asm: a, ins }
}

impl Case {
    /// Compiles `gml` and checks the instructions; returns the child headers.
    fn compiles(&self, gml: &str) -> Vec<ChildEntry> {
        let game = Game::new(&self.asm.file);
        let names = Names::new(&game);
        let tree = parse::parse(gml).expect("parse");
        let (ins, children) =
            compile_entry_with_children(&game, &names, 0, &tree).expect("compile");
        let show = |v: &[Instruction]| {
            v.iter()
                .map(|i| i.display(&self.asm.file).to_string())
                .collect::<Vec<_>>()
                .join("\n")
        };
        assert_eq!(show(&ins), show(&self.ins));
        assert_eq!(ins, self.ins);
        children
    }

    /// Decompiles the root entry.
    fn decompiles(&self) -> String {
        let game = Game::new(&self.asm.file);
        let d = decompile::decompile_entry(&game, 0).expect("decompile");
        assert_eq!(d.failures, 0, "{:?}", d.failure_notes);
        print::print_stmts(&d.body)
    }
}

/// Spec §7.1: a named function in a global script (2.3 – 2024.1): `-6` as the store's
/// instance unless the function is named like the script.
#[test]
fn function_declaration() {
    let asm = "b L2 / F: / push.v arg.argument0 / push.v arg.argument1 / add.v.v / ret.v / \
        exit.i / L2: / push.i [function]gml_Script_add / conv.i.v / pushi.e -1 / conv.i.v / \
        call.i method 2 / dup.v 0 / pushi.e -6 / pop.v.v [stacktop]0.add / popz.v";
    let c = case(
        2,
        3,
        "gml_GlobalScript_scr_math",
        &[("gml_Script_add", "F")],
        asm,
    );
    let children = c.compiles("function add(p, q) { return p + q; }");
    assert_eq!(
        children,
        vec![ChildEntry {
            name: "gml_Script_add".into(),
            offset: 4,
            arguments: 2,
            locals: 0,
        }]
    );
    assert_eq!(
        c.decompiles(),
        "function add(arg0, arg1) {\n    return arg0 + arg1;\n}"
    );
    // Named like the script: -1.
    let own = asm.replace("pushi.e -6", "pushi.e -1");
    let c = case(
        2,
        3,
        "gml_GlobalScript_add",
        &[("gml_Script_add", "F")],
        &own,
    );
    c.compiles("function add(p, q) { return p + q; }");
    // 2024.2+: always -1.
    let c = case(
        2024,
        2,
        "gml_GlobalScript_scr_math",
        &[("gml_Script_add", "F")],
        &own,
    );
    c.compiles("function add(p, q) { return p + q; }");
    // A new function (no existing child entry) gets GameMaker's name for it.
    let c = case(2, 3, "gml_GlobalScript_scr_math", &[], asm);
    c.compiles("function add(p, q) { return p + q; }");
}

/// 2024.14+: "optimized function declarations" store the method directly.
#[test]
fn function_declaration_2024_14() {
    let asm = "b L2 / F: / exit.i / L2: / push.i [function]gml_Script_f / conv.i.v / pushi.e -1 / \
        conv.i.v / call.i method 2 / dup.v 0 / pop.v.v self.f / popz.v";
    let c = case(
        2024,
        14,
        "gml_GlobalScript_scr",
        &[("gml_Script_f", "F")],
        asm,
    );
    c.compiles("function f() {}");
    assert_eq!(c.decompiles(), "function f() {\n}");
}

/// A function literal assigned to a variable: no store of its own (spec §7.1 variants).
#[test]
fn function_literal() {
    let asm = "b L2 / F: / pushi.e 1 / pop.v.i self.x / exit.i / L2: / \
        push.i [function]gml_Script_anon_E_1_E / conv.i.v / pushi.e -1 / conv.i.v / \
        call.i method 2 / pop.v.v self.f";
    let c = case(
        2,
        3,
        "gml_Object_o_Create_0",
        &[("gml_Script_anon_E_1_E", "F")],
        asm,
    );
    c.compiles("f = function() { x = 1; };");
    assert_eq!(c.decompiles(), "f = function() {\n    x = 1;\n};");
}

/// Constructor with a default argument, inheritance and a static (spec §5.10, §7.1).
#[test]
fn constructor() {
    let asm = "b L9 / F: / \
        push.v arg.argument1 / pushbltn.v builtin.undefined / cmp.v.v EQ / bf L1 / \
        pushi.e 2 / pop.v.i arg.argument1 / L1: / \
        push.v arg.argument0 / call.i gml_Script_A 1 / push.i [function]gml_Script_A / conv.i.v / \
        call.i @@CopyStatic@@ 1 / \
        isstaticok.e / bt L2 / pushi.e 0 / pop.v.i static.count / L2: / setstatic.e / \
        push.v arg.argument0 / pop.v.v self.hp / exit.i / \
        L9: / push.i [function]gml_Script_B / conv.i.v / call.i @@NullObject@@ 0 / \
        call.i method 2 / dup.v 0 / pushi.e -6 / pop.v.v [stacktop]0.B / popz.v";
    let c = case(2, 3, "gml_GlobalScript_scr", &[("gml_Script_B", "F")], asm);
    let children = c.compiles(
        "function B(a, b = 2) : A(a) constructor {\n    static count = 0;\n    hp = a;\n}",
    );
    assert_eq!(children[0].arguments, 2);
    assert_eq!(
        c.decompiles(),
        "function B(arg0, arg1 = 2) : A(arg0) constructor {\n    static count = 0;\n    \
         hp = arg0;\n}"
    );
}

/// 2024.11+: constructors start with `@@SetStatic@@`, defaults go through `builtin.argumentK`,
/// the static block sets its flag first.
#[test]
fn constructor_2024_11() {
    let asm = "b L9 / F: / \
        pushbltn.v builtin.argument0 / pushbltn.v builtin.undefined / cmp.v.v EQ / bf L1 / \
        pushi.e 2 / pop.v.i builtin.argument0 / L1: / call.i @@SetStatic@@ 0 / \
        isstaticok.e / bt L2 / setstatic.e / pushi.e 0 / pop.v.i static.count / L2: / \
        exit.i / \
        L9: / push.i [function]gml_Script_B / conv.i.v / call.i @@NullObject@@ 0 / \
        call.i method 2 / dup.v 0 / pushi.e -1 / pop.v.v [stacktop]0.B / popz.v";
    let c = case(
        2024,
        11,
        "gml_GlobalScript_scr",
        &[("gml_Script_B", "F")],
        asm,
    );
    c.compiles("function B(a = 2) constructor {\n    static count = 0;\n}");
}

/// Struct literal: non-constant values hoisted and read as `argument[i]` (spec §7.2).
#[test]
fn struct_literal() {
    let asm = "push.v self.name / conv.v.v / b L2 / F: / pushi.e 10 / pop.v.i self.hp / \
        pushi.e -15 / pushi.e 0 / push.v [array]0.argument / pop.v.v self.who / exit.i / \
        L2: / push.i [function]gml_Script____struct___1_E / conv.i.v / call.i @@NullObject@@ 0 / \
        call.i method 2 / dup.v 0 / pushi.e -16 / pop.v.v [stacktop]0.___struct___1 / \
        call.i @@NewGMLObject@@ 2 / pop.v.v self.s";
    // (`conv.v.v` is not emitted: the hoisted value is already a v.)
    let asm = asm.replace("conv.v.v / ", "");
    let c = case(
        2,
        3,
        "gml_Object_o_Create_0",
        &[("gml_Script____struct___1_E", "F")],
        &asm,
    );
    c.compiles("s = { hp: 10, who: name };");
    assert_eq!(c.decompiles(), "s = { hp: 10, who: name };");
}

/// A struct literal's constructor known by the static it is stored in (`___struct___N`) when
/// its code entry is named otherwise.
#[test]
fn struct_literal_known_by_its_static() {
    let asm = "b L2 / F: / pushi.e 7 / pop.v.i self.lives / exit.i / \
        L2: / push.i [function]gml_Script_ctor_7 / conv.i.v / call.i @@NullObject@@ 0 / \
        call.i method 2 / dup.v 0 / pushi.e -16 / pop.v.v [stacktop]0.___struct___4 / \
        call.i @@NewGMLObject@@ 1 / pop.v.v self.save";
    let c = case(
        2,
        3,
        "gml_Object_o_Create_0",
        &[("gml_Script_ctor_7", "F")],
        asm,
    );
    assert_eq!(c.decompiles(), "save = { lives: 7 };");
}

/// A struct literal's constructor known by its registration in `global` (or `static`) while a
/// copy stays for `@@NewGMLObject@@`, whatever the names of its entry and static.
#[test]
fn struct_literal_known_by_its_registration() {
    let asm = "push.v self.count / b L2 / F: / pushi.e -15 / pushi.e 0 / \
        push.v [array]0.argument / pop.v.v self.slots / exit.i / \
        L2: / push.i [function]gml_Script_maker / conv.i.v / call.i @@NullObject@@ 0 / \
        call.i method 2 / dup.v 0 / pushi.e -5 / pop.v.v [stacktop]0.maker / \
        call.i @@NewGMLObject@@ 2 / pop.v.v self.bag";
    let c = case(
        2,
        3,
        "gml_Object_o_Create_0",
        &[("gml_Script_maker", "F")],
        asm,
    );
    assert_eq!(c.decompiles(), "bag = { slots: count };");
}

/// `c = function d() {}`: the function declared as `d`, its value stored in `c` too (the copy
/// the declaration leaves is stored, not dropped).
#[test]
fn named_function_as_a_value() {
    let asm = "b L2 / F: / exit.i / L2: / push.i [function]gml_Script_helper / conv.i.v / \
        pushi.e -1 / conv.i.v / call.i method 2 / dup.v 0 / pushi.e -6 / \
        pop.v.v [stacktop]0.helper / pop.v.v self.alias";
    let c = case(
        2,
        3,
        "gml_GlobalScript_scr_util",
        &[("gml_Script_helper", "F")],
        asm,
    );
    let gml = "alias = function helper() {\n};";
    assert_eq!(c.decompiles(), gml);
    c.compiles(gml);
}

/// Parameters are `argK` (GameMaker keeps no names); a local so named pushes the parameter to
/// `argK_`, and an instance variable so named is written `self.argK`.
#[test]
fn parameter_names() {
    let asm = "b L2 / F: / push.v arg.argument0 / push.v arg.argument1 / mul.v.v / \
        pop.v.v local.arg0 / pushi.e 2 / pop.v.i self.arg1 / pushloc.v local.arg0 / ret.v / \
        exit.i / L2: / push.i [function]gml_Script_area / conv.i.v / pushi.e -1 / conv.i.v / \
        call.i method 2 / dup.v 0 / pushi.e -6 / pop.v.v [stacktop]0.area / popz.v";
    let c = case(
        2,
        3,
        "gml_GlobalScript_scr_shapes",
        &[("gml_Script_area", "F")],
        asm,
    );
    let gml = "function area(arg0_, arg1) {\n    var arg0 = arg0_ * arg1;\n    self.arg1 = 2;\n    \
               return arg0;\n}";
    assert_eq!(c.decompiles(), gml);
    c.compiles(gml);
}

/// `new C(args)`: arguments last first, then the constructor (spec §6.4).
#[test]
fn new_expression() {
    let asm = "pushi.e 1 / conv.i.v / push.i [function]gml_Script_C / conv.i.v / \
        call.i @@NewGMLObject@@ 2 / pop.v.v self.c";
    let c = case(2, 3, "gml_Object_o_Create_0", &[], asm);
    c.compiles("c = new C(1);");
    assert_eq!(c.decompiles(), "c = new C(1);");
}

/// `++`/`--` as a value (spec §4.6) and function references (spec §6.3).
#[test]
fn update_values_and_function_references() {
    let asm = "push.v self.a / dup.v 0 / push.e 1 / add.i.v / pop.v.v self.a / pop.v.v self.v / \
        push.v self.a / push.e 1 / sub.i.v / dup.v 0 / pop.v.v self.a / pop.v.v self.w / \
        push.i [function]gml_Script_scr_fn / pop.v.i self.f";
    let c = case(2, 3, "gml_Object_o_Create_0", &[], asm);
    c.compiles("v = a++;\nw = --a;\nf = scr_fn;");
}

/// `try`/`catch` (spec Appendix C: the hook takes the blob offsets of the finally section and
/// of the catch block) and `throw` (not popped, spec §5.8).
#[test]
fn try_catch_and_throw() {
    let asm = "push.i 108 / conv.i.v / push.i 52 / conv.i.v / call.i @@try_hook@@ 2 / popz.v / \
        call.i gml_Script_risky 0 / popz.v / b L108 / \
        pop.v.v local.e / call.i @@try_unhook@@ 0 / popz.v / \
        pushloc.v local.e / call.i gml_Script_log 1 / popz.v / \
        call.i @@finish_catch@@ 0 / popz.v / b L120 / \
        L108: / call.i @@try_unhook@@ 0 / popz.v / L120: / \
        push.s \"bad\" / conv.s.v / call.i @@throw@@ 1";
    let c = case(2, 3, "gml_Object_o_Create_0", &[], asm);
    let gml = "try {\n    risky();\n} catch (e) {\n    log(e);\n}\nthrow \"bad\";";
    c.compiles(gml);
    assert_eq!(c.decompiles(), gml);
}

/// `continue` inside a switch leaves through the switch's cleanup block (spec §5.6); `++` on
/// `global.x` as a value reads it like a simple variable (spec §4.6).
#[test]
fn continue_in_switch_and_global_update() {
    let asm = "L0: / push.v self.c / conv.v.b / bf L9 / \
        push.v self.v / dup.v 0 / pushi.e 1 / cmp.i.v EQ / bt C1 / b S9 / \
        C1: / b K / b S9 / K: / popz.v / b L0 / S9: / popz.v / b L0 / L9: / \
        push.v global.n / push.e 1 / add.i.v / dup.v 0 / pop.v.v global.n / pop.v.v self.hp";
    let c = case(2, 3, "gml_Object_o_Create_0", &[], asm);
    let gml = "while (c) {\n    switch (v) {\n        case 1:\n            continue;\n    }\n}\n\
               hp = ++global.n;";
    c.compiles(gml);
    assert_eq!(c.decompiles(), gml);
}

/// Every `.gml` file of the games' sources that parses compiles against a 2.3 and a 2024 game
/// (as their first code entry) to instructions or to an error: never a panic. Real source
/// exercises what the corpus round trip cannot (named parameters, statics read by name, new
/// functions without an existing child entry).
#[test]
fn sources_compile_without_panic() {
    let dir = gmkit_testdata::need!(gmkit_testdata::sources_dir());
    let mut files = Vec::new();
    let mut stack = vec![dir];
    while let Some(d) = stack.pop() {
        let Ok(rd) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in rd.flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "gml") {
                files.push(p);
            }
        }
    }
    files.sort();
    let mut games = Vec::new();
    for name in ["deltarun.win", "tebak-lagu.win"] {
        let bytes = gmkit_testdata::need!(gmkit_testdata::corpus_file(name));
        games.push(gmkit_data::parse_bytes(bytes).expect("corpus file parses"));
    }
    let (mut parsed, mut compiled) = (0, 0);
    for file in &games {
        let game = Game::new(file);
        let names = Names::new(&game);
        for p in &files {
            let Ok(text) = std::fs::read_to_string(p) else {
                continue;
            };
            let Ok(tree) = parse::parse(&text) else {
                continue;
            };
            parsed += 1;
            let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                compile_entry_with_children(&game, &names, 0, &tree)
            }));
            match r {
                Ok(Ok(_)) => compiled += 1,
                Ok(Err(e)) => {
                    if std::env::var_os("GMKIT_SHOW_ERRORS").is_some() {
                        eprintln!("compile error: {e}");
                    }
                }
                Err(_) => panic!("compiler panicked on {}", p.display()),
            }
        }
    }
    eprintln!("{parsed} parsed sources, {compiled} compiled");
    assert!(parsed > 0);
}

/// `return` inside try and catch blocks: through `$$$$temp$$$$`, with `@@try_unhook@@` /
/// `@@finish_catch@@` left unpopped (spec §5.9).
#[test]
fn return_inside_try() {
    let asm = "b L9 / F: / push.i 152 / conv.i.v / push.i 80 / conv.i.v / call.i @@try_hook@@ 2 / \
        popz.v / call.i gml_Script_risky 0 / pop.v.v local.$$$$temp$$$$ / call.i @@try_unhook@@ 0 / \
        push.v local.$$$$temp$$$$ / ret.v / b L96 / \
        pop.v.v local.e / call.i @@try_unhook@@ 0 / popz.v / pushi.e 0 / conv.i.v / \
        pop.v.v local.$$$$temp$$$$ / call.i @@finish_catch@@ 0 / push.v local.$$$$temp$$$$ / ret.v / \
        call.i @@finish_catch@@ 0 / popz.v / b L108 / \
        L96: / call.i @@try_unhook@@ 0 / popz.v / L108: / exit.i / \
        L9: / push.i [function]gml_Script_safe / conv.i.v / pushi.e -1 / conv.i.v / \
        call.i method 2 / dup.v 0 / pushi.e -6 / pop.v.v [stacktop]0.safe / popz.v";
    let c = case(
        2,
        3,
        "gml_GlobalScript_scr",
        &[("gml_Script_safe", "F")],
        asm,
    );
    let gml = "function safe() {\n    try {\n        return risky();\n    } catch (e) {\n        \
               return 0;\n    }\n}";
    let children = c.compiles(gml);
    // `e` and `$$$$temp$$$$`.
    assert_eq!(children[0].locals, 2);
    assert_eq!(c.decompiles(), gml);
}

/// `??` and `??=` (spec §4.3).
#[test]
fn nullish() {
    let asm = "push.v self.a / isnullish.e / bf L1 / popz.v / pushi.e 0 / conv.i.v / L1: / \
        pop.v.v self.v / \
        push.v self.a / isnullish.e / bf L2 / popz.v / pushi.e 7 / conv.i.v / pop.v.v self.a / \
        b L3 / L2: / popz.v / L3:";
    let c = case(2022, 1, "gml_Object_o_Create_0", &[], asm);
    c.compiles("v = a ?? 0;\na ??= 7;");
    assert_eq!(c.decompiles(), "v = a ?? 0;\na ??= 7;");
}

/// Multi-dimensional arrays (2.3+, spec §4.7): `[multipush]`/`[multipushpop]`, `pushac.e`,
/// `pushaf.e`/`popaf.e`.
#[test]
fn multi_dimensional_arrays() {
    let asm = "pushi.e -1 / pushi.e 1 / push.v [multipush]0.m / pushi.e 2 / pushac.e / pushi.e 3 / \
        pushaf.e / pop.v.v self.v / \
        pushi.e 7 / conv.i.v / pushi.e -1 / pushi.e 1 / push.v [multipushpop]0.m / pushi.e 2 / \
        popaf.e";
    let c = case(2, 3, "gml_Object_o_Create_0", &[], asm);
    c.compiles("v = m[1][2][3];\nm[1][2] = 7;");
    assert_eq!(c.decompiles(), "v = m[1][2][3];\nm[1][2] = 7;");
}

/// A `var` named like a parameter shadows it from that statement on: its own initializer
/// and earlier statements read the argument (corpus: tebak-lagu's easing scripts).
#[test]
fn var_shadowing_a_parameter() {
    let asm = "b L9 / F: / \
        push.v arg.argument0 / pop.v.v self.before / \
        pushi.e 2 / push.v arg.argument0 / mul.v.i / pop.v.v local.t / \
        pushloc.v local.t / pop.v.v self.after / exit.i / \
        L9: / push.i [function]gml_Script_ease / conv.i.v / pushi.e -1 / conv.i.v / \
        call.i method 2 / dup.v 0 / pushi.e -6 / pop.v.v [stacktop]0.ease / popz.v";
    let c = case(
        2,
        3,
        "gml_GlobalScript_scr",
        &[("gml_Script_ease", "F")],
        asm,
    );
    c.compiles("function ease(t) {\n    before = t;\n    var t = 2 * t;\n    after = t;\n}");
}

/// With named parameters, a written `argument0` is a self variable of that name in 2.3
/// (corpus: vendaval's `argument0 -= range` in a function with parameters), while
/// `argument0[i]` stays the argument's array.
#[test]
fn written_argument_with_named_parameters() {
    let asm = "b L9 / F: / \
        push.v self.argument0 / pushi.e 1 / sub.i.v / pop.v.v self.argument0 / \
        pushi.e -15 / pushi.e 0 / push.v [array]0.argument0 / pop.v.v self.v / \
        push.v arg.argument1 / pop.v.v self.w / exit.i / \
        L9: / push.i [function]gml_Script_f / conv.i.v / pushi.e -1 / conv.i.v / \
        call.i method 2 / dup.v 0 / pushi.e -6 / pop.v.v [stacktop]0.f / popz.v";
    let c = case(2, 3, "gml_GlobalScript_scr", &[("gml_Script_f", "F")], asm);
    c.compiles("function f(a, b) {\n    argument0 -= 1;\n    v = argument0[0];\n    w = b;\n}");
}

/// 2022 – 2024.10: with named parameters, a written `argument1` is the built-in
/// (`pushbltn.v builtin.argument1`) and `argument1[i]` the built-in's array (owner -6),
/// while the parameter itself reads `arg.argument1` / owner -15: each prints as written
/// (wild 2022.9: a function of three parameters reading `argument0` to `argument2`).
#[test]
fn written_argument_with_named_parameters_from_2022() {
    let asm = "b L9 / F: / \
        pushbltn.v builtin.argument1 / pop.v.v self.u / \
        pushi.e -6 / pushi.e 2 / push.v [array]0.argument1 / pop.v.v self.v / \
        push.v arg.argument1 / pop.v.v self.w / \
        pushi.e -15 / pushi.e 3 / push.v [array]0.argument1 / pop.v.v self.z / exit.i / \
        L9: / push.i [function]gml_Script_g / conv.i.v / pushi.e -1 / conv.i.v / \
        call.i method 2 / dup.v 0 / pushi.e -6 / pop.v.v [stacktop]0.g / popz.v";
    for (major, minor) in [(2022, 9), (2023, 8)] {
        let c = case(
            major,
            minor,
            "gml_GlobalScript_scr",
            &[("gml_Script_g", "F")],
            asm,
        );
        let text = "function g(arg0, arg1) {\n    u = argument1;\n    v = argument1[2];\n    \
            w = arg1;\n    z = arg1[3];\n}";
        assert_eq!(c.decompiles(), text, "{major}.{minor}");
        c.compiles(text);
    }
}

/// A named parameter (`arg.argumentK`, -15) reads the VARI entry of type -6 (id 0) that every
/// 2.3+ file gives parameters, also when the file lists a built-in `argumentK` (type self,
/// id -6) before it (wild games that read `argument4` as a built-in elsewhere).
#[test]
fn named_parameter_takes_the_parameter_vari_entry() {
    use gmkit_data::Id;
    use gmkit_data::chunks::variable::Variable;
    let asm = "b L2 / F: / push.v arg.argument0 / ret.v / exit.i / L2: / \
        push.i [function]gml_Script_same / conv.i.v / pushi.e -1 / conv.i.v / \
        call.i method 2 / dup.v 0 / pushi.e -6 / pop.v.v [stacktop]0.same / popz.v";
    let mut c = case(
        2,
        3,
        "gml_GlobalScript_scr",
        &[("gml_Script_same", "F")],
        asm,
    );
    let file = &mut c.asm.file;
    let vars = &mut file.variables.as_mut().expect("variables").variables;
    let k = (0..vars.len())
        .find(|&i| matches!(&c.ins[1], Instruction::Push { value: PushValue::Variable(v), .. } if v.variable.index() == i))
        .expect("argument0");
    let name = vars[k].name;
    vars[k] = Variable {
        name,
        instance_type: -1,
        variable_id: -6,
    };
    vars.push(Variable {
        name,
        instance_type: -6,
        variable_id: 0,
    });
    let m = Id::new(vars.len() as u32 - 1);
    if let Instruction::Push {
        value: PushValue::Variable(v),
        ..
    } = &mut c.ins[1]
    {
        v.variable = m;
    }
    for code in [true, false] {
        // With the parameter's entry in the entry's own code, and without (new code).
        let body = if code {
            c.ins.clone()
        } else {
            c.asm.asm("exit.i")
        };
        c.asm.file.code.as_mut().expect("code").entries[0].body = CodeBody::Instructions(body);
        let game = Game::new(&c.asm.file);
        let names = Names::new(&game);
        let tree = parse::parse("function same(p) { return p; }").expect("parse");
        let (ins, _) = compile_entry_with_children(&game, &names, 0, &tree).expect("compile");
        assert_eq!(ins[1], c.ins[1], "own code: {code}");
    }
}

/// A written `argumentK` in a function without (that many) named parameters is the built-in
/// (`pushbltn.v builtin.argument4`; wild games 2.3.2 – 2024.14), not a parameter: it prints
/// as `argumentK` with the header's parameters only, and compiles back to the built-in.
#[test]
fn written_argument_past_the_parameters_is_the_builtin() {
    for (major, minor) in [(2, 3), (2023, 8)] {
        let asm = "b L2 / F: / pushbltn.v builtin.argument4 / ret.v / exit.i / L2: / \
            push.i [function]gml_Script_f / conv.i.v / pushi.e -1 / conv.i.v / \
            call.i method 2 / dup.v 0 / pushi.e -6 / pop.v.v [stacktop]0.f / popz.v";
        let c = case(
            major,
            minor,
            "gml_GlobalScript_scr",
            &[("gml_Script_f", "F")],
            asm,
        );
        assert_eq!(c.decompiles(), "function f() {\n    return argument4;\n}");
        c.compiles("function f() {\n    return argument4;\n}");
    }
}

/// From 2024.2, `argumentK` in an entry's own code (outside functions) is the argument
/// (`push.v arg.argument0`; wild, 2024.14).
#[test]
fn argument_outside_functions_from_2024_2() {
    common::compiles_to(
        17,
        2024,
        2,
        "x = argument0;",
        "push.v arg.argument0 / pop.v.v builtin.x",
    );
    assert_eq!(
        common::gml(17, 2024, 2, "push.v arg.argument0 / pop.v.v builtin.x"),
        "x = argument0;"
    );
    // So is `argument[i]`: the array's owner is -15 (wild, 2024.6 and 2024.14).
    let want = "pushi.e -15 / pushi.e 0 / push.v [array]0.argument / pop.v.v builtin.x";
    common::compiles_to(17, 2024, 6, "x = argument[0];", want);
    assert_eq!(common::gml(17, 2024, 6, want), "x = argument[0];");
}

/// Copy-on-write (2.3 – 2022.1): the owner id set before `a[0] = { ... }` belongs to `a`,
/// whose store comes after the struct's body and its constructor's `static` registration
/// (wild, 2.3.6 room creation code): learnt from the entry's code, not hashed.
#[test]
fn array_owner_before_a_struct_literal() {
    let asm = "push.i 165573 / setowner.e / b L2 / F: / pushi.e 48 / pop.v.i self._x / \
        exit.i / L2: / push.i [function]gml_Script____struct___0_gml_RoomCC_r_0_Create / \
        conv.i.v / call.i @@NullObject@@ 0 / call.i method 2 / dup.v 0 / pushi.e -16 / \
        pop.v.v [stacktop]0.___struct___0 / call.i @@NewGMLObject@@ 1 / pushi.e -1 / \
        pushi.e 0 / pop.v.v [array]0.goto";
    let c = case(
        2,
        3,
        "gml_RoomCC_r_0_Create",
        &[("gml_Script____struct___0_gml_RoomCC_r_0_Create", "F")],
        asm,
    );
    assert_eq!(c.decompiles(), "goto[0] = { _x: 48 };");
    c.compiles("goto[0] = { _x: 48 };");
}

/// `p.a++` with `p` a parameter: the store names the VARI entry of `a` of a parameter's kind,
/// a local's before 2024.2, a named parameter's (type -6, id 0) from 2024.2; the read, and the
/// store through any other owner, keep the self entry (wild 2.3 – 2024.14 games: GameMaker's
/// windblown-particles effect).
#[test]
fn update_through_a_parameter_stores_to_the_parameter_kind() {
    use gmkit_data::chunks::variable::Variable;
    let asm = "b L9 / F: / push.v arg.argument0 / pushi.e -9 / push.v [stacktop]0.a / \
        pushi.e 0 / pop.v.i local.t / exit.i / \
        L9: / push.i [function]gml_Script_bump / conv.i.v / pushi.e -1 / conv.i.v / \
        call.i method 2 / dup.v 0 / pushi.e -6 / pop.v.v [stacktop]0.bump / popz.v";
    for (major, minor, kind) in [(2, 3, -7), (2023, 8, -7), (2024, 14, -6)] {
        let mut c = case(
            major,
            minor,
            "gml_GlobalScript_scr",
            &[("gml_Script_bump", "F")],
            asm,
        );
        let file = &mut c.asm.file;
        let name_of =
            |file: &gmkit_data::DataFile, n: &str| file.strings.as_ref().unwrap().find(n).unwrap();
        let (a, arg, t) = (
            name_of(file, "a"),
            name_of(file, "argument0"),
            name_of(file, "t"),
        );
        let vars = &mut file.variables.as_mut().unwrap().variables;
        for v in vars.iter_mut() {
            v.instance_type = match v.name {
                n if n == arg => -6,
                n if n == t => -7,
                _ => -1,
            };
        }
        vars.push(Variable {
            name: a,
            instance_type: -7,
            variable_id: 1,
        });
        vars.push(Variable {
            name: a,
            instance_type: -6,
            variable_id: 0,
        });
        let game = Game::new(&c.asm.file);
        let names = Names::new(&game);
        let src = "function bump(p) {\n    var t = 0;\n    p.a++;\n    t.a++;\n}";
        let tree = parse::parse(src).expect("parse");
        let (ins, _) = compile_entry_with_children(&game, &names, 0, &tree).expect("compile");
        let pops: Vec<i32> = ins
            .iter()
            .filter_map(|i| match i {
                Instruction::Pop { var, .. }
                    if var.ref_type == gmkit_data::chunks::code::RefType::STACKTOP =>
                {
                    let v = &c.asm.file.variables.as_ref().unwrap().variables[var.variable.index()];
                    (v.name == a).then_some(v.instance_type)
                }
                _ => None,
            })
            .collect();
        assert_eq!(pops, vec![kind, -1], "{major}.{minor}");
        let reads = ins.iter().filter(|i| matches!(i, Instruction::Push { value: gmkit_data::chunks::code::PushValue::Variable(v), .. }
            if c.asm.file.variables.as_ref().unwrap().variables[v.variable.index()].name == a
                && c.asm.file.variables.as_ref().unwrap().variables[v.variable.index()].instance_type == -1)).count();
        assert_eq!(reads, 2, "{major}.{minor}");
    }
}

/// Default-argument blocks become header defaults while their parameters ascend; a block out
/// of that order stays an `if` statement, which compiles to the same instructions (wild
/// 2024.6: defaults emitted as 2, 3, 1).
#[test]
fn defaults_out_of_order_stay_statements() {
    // Parameter k defaults to k.
    let asm = |order: [usize; 3]| {
        let mut asm = "b L9 / F: / ".to_string();
        for k in order {
            asm += &format!(
                "push.v arg.argument{k} / pushbltn.v builtin.undefined / cmp.v.v EQ / bf L{k} / \
                pushi.e {k} / pop.v.i arg.argument{k} / L{k}: / "
            );
        }
        asm + "push.v arg.argument0 / pop.v.v self.hp / exit.i / \
            L9: / push.i [function]gml_Script_f / conv.i.v / pushi.e -1 / conv.i.v / \
            call.i method 2 / dup.v 0 / pushi.e -6 / pop.v.v [stacktop]0.f / popz.v"
    };
    let c = case(
        2023,
        8,
        "gml_GlobalScript_scr",
        &[("gml_Script_f", "F")],
        &asm([2, 3, 1]),
    );
    let text = c.decompiles();
    assert_eq!(
        text,
        "function f(arg0, arg1, arg2 = 2, arg3 = 3) {\n    if (arg1 == undefined) {\n        \
         arg1 = 1;\n    }\n    hp = arg0;\n}"
    );
    assert_eq!(c.compiles(&text)[0].arguments, 4);
    // In order, all are header defaults.
    let c = case(
        2023,
        8,
        "gml_GlobalScript_scr",
        &[("gml_Script_f", "F")],
        &asm([1, 2, 3]),
    );
    let text = c.decompiles();
    assert_eq!(
        text,
        "function f(arg0, arg1 = 1, arg2 = 2, arg3 = 3) {\n    hp = arg0;\n}"
    );
    c.compiles(&text);
}

/// 2024.11+: `new C()` of a constructor declared in the same object event pushes that
/// function (`push.i [function]gml_Script_C@<entry>`), not a variable `C` (wild, 2024.13).
#[test]
fn new_of_a_constructor_declared_in_the_event() {
    let asm = "b L2 / F: / exit.i / L2: / \
        push.i [function]gml_Script_C@gml_Object_o_Create_0 / conv.i.v / pop.v.v self.y / \
        push.v self.C / pop.v.v self.x / call.i @@SetStatic@@ 0 / call.i @@NewGMLObject@@ 1 / call.i @@NullObject@@ 0 / \
        call.i method 2 / popz.v";
    let c = case(
        2024,
        14,
        "gml_Object_o_Create_0",
        &[("gml_Script_C@gml_Object_o_Create_0", "F")],
        asm,
    );
    let game = Game::new(&c.asm.file);
    let names = Names::new(&game);
    let tree = parse::parse("function C() constructor {\n}\nx = new C();").expect("parse");
    let (ins, _) = compile_entry_with_children(&game, &names, 0, &tree).expect("compile");
    let text: Vec<String> = ins
        .iter()
        .map(|i| i.display(&c.asm.file).to_string())
        .collect();
    let at = text
        .iter()
        .position(|l| l.contains("@@NewGMLObject@@"))
        .expect("a new");
    assert_eq!(
        text[at - 2..at],
        [
            "push.i [function]gml_Script_C@gml_Object_o_Create_0",
            "conv.i.v"
        ],
        "{text:#?}"
    );
}

/// 2023+ (before 2024.2's self store): a function declaration named like a built-in function
/// stores to `global` (`pushi.e -5`); earlier, and for other names, `-6` (wild, 2023.11).
#[test]
fn declaration_named_like_a_builtin_function() {
    for (major, minor, name, k) in [
        (2023, 8, "lerp", -5),
        (2023, 8, "my_lerp", -6),
        (2022, 9, "lerp", -6),
    ] {
        let asm = format!(
            "b L2 / F: / push.v arg.argument0 / ret.v / exit.i / L2: / \
            push.i [function]gml_Script_{name} / conv.i.v / pushi.e -1 / conv.i.v / \
            call.i method 2 / dup.v 0 / pushi.e {k} / pop.v.v [stacktop]0.{name} / popz.v"
        );
        let c = case(
            major,
            minor,
            "gml_GlobalScript_scr",
            &[(&format!("gml_Script_{name}"), "F")],
            &asm,
        );
        c.compiles(&format!("function {name}(a) {{ return a; }}"));
    }
}

/// A parameter past the sixteenth (`argument15`) is an element of `argument` (spec §4.7a):
/// read, written and defaulted as `argument[k]` with owner -15, in every 2.3+ version (there is
/// no variable `argument16`); the earlier ones keep their version's forms.
#[test]
fn parameters_past_the_sixteenth() {
    let params = (0..17)
        .map(|k| format!("p{k}"))
        .collect::<Vec<_>>()
        .join(", ");
    let gml = format!("function wide({params} = 9) {{\n    total = p16 + p0;\n    p16 = 4;\n}}");
    let body = "pushi.e -15 / pushi.e 16 / push.v [array]0.argument / pushbltn.v builtin.undefined / \
        cmp.v.v EQ / bf D / pushi.e 9 / conv.i.v / pushi.e -15 / pushi.e 16 / \
        pop.v.v [array]0.argument / D: / pushi.e -15 / pushi.e 16 / push.v [array]0.argument / \
        push.v arg.argument0 / add.v.v / pop.v.v SCOPE.total / pushi.e 4 / conv.i.v / \
        pushi.e -15 / pushi.e 16 / pop.v.v [array]0.argument / exit.i";
    for (major, minor, scope, store) in [(2, 3, "self", -6), (2024, 11, "builtin", -1)] {
        let asm = format!(
            "b L2 / F: / {} / L2: / push.i [function]gml_Script_wide / conv.i.v / \
             pushi.e -1 / conv.i.v / call.i method 2 / dup.v 0 / pushi.e {store} / \
             pop.v.v [stacktop]0.wide / popz.v",
            body.replace("SCOPE", scope)
        );
        let mut c = case(
            major,
            minor,
            "gml_GlobalScript_scr_wide",
            &[("gml_Script_wide", "F")],
            &asm,
        );
        c.compiles(&gml);
        // Decompiled: the default is the parameter's again; the body reads the element.
        let code = c.asm.file.code.as_mut().expect("made with code");
        code.entries[1].arguments_count = 17;
        let args = (0..16).map(|k| format!("arg{k}, ")).collect::<String>();
        let back = format!(
            "function wide({args}arg16 = 9) {{\n    total = argument[16] + arg0;\n    \
             argument[16] = 4;\n}}"
        );
        assert_eq!(c.decompiles(), back);
        c.compiles(&back);
    }
}
