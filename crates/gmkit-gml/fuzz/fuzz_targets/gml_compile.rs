//! Fuzz target: any text goes through the whole front end (preprocessing with macros and enums,
//! parsing, constant folding, compiling against the built-in sample game) to bytecode or an
//! error; never a panic, a stack overflow, a hang or runaway memory.
#![no_main]

use gmkit_gml::project::{CodeUnit, Format, Project};
use libfuzzer_sys::fuzz_target;
use std::sync::OnceLock;

fn sample() -> &'static gmkit_data::DataFile {
    static FILE: OnceLock<gmkit_data::DataFile> = OnceLock::new();
    FILE.get_or_init(gmkit_data::sample)
}

fuzz_target!(|data: &[u8]| {
    let Ok(src) = std::str::from_utf8(data) else { return };
    let file = sample();
    let game = gmkit_gml::Game::new(file);
    let names = gmkit_gml::compile::Names::new(&game);
    // As a plain code entry.
    if let Ok(mut tree) = gmkit_gml::parse::parse(src) {
        gmkit_gml::fold::resolve(&mut tree, &gmkit_gml::fold::ConstNames::default());
        let _ = gmkit_gml::compile::compile_entry(&game, &names, 0, &tree);
    }
    // As a project's unit: `#macro`, `enum` and the project-wide budgets.
    let project = Project {
        format: Some(Format::Yy23),
        units: vec![CodeUnit {
            entry: "gml_Object_obj_ball_Create_0".into(),
            file: "fuzz.gml".into(),
            line: 1,
            text: src.to_string(),
            unsupported: None,
        }],
        ..Project::default()
    };
    let sources = gmkit_gml::source::Sources::new(&project, &game);
    if let Ok(tree) = sources.tree(&project, 0) {
        let _ = gmkit_gml::source::compile_unit(&game, &names, 0, &tree);
    }
});
