//! Prints VARI entries and code locals mentioning a name (debugging aid).
//!
//! `cargo run -p gmkit-gml --example gml_probe -- FILE NAME`
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let file = gmkit_data::parse_file(&args[0]).expect("parse");
    let game = gmkit_gml::Game::new(&file);
    let s = |r: gmkit_data::StringRef| {
        file.strings
            .as_ref()
            .unwrap()
            .get(r)
            .unwrap()
            .to_string_lossy()
            .into_owned()
    };
    for (i, v) in file
        .variables
        .as_ref()
        .unwrap()
        .variables
        .iter()
        .enumerate()
    {
        if s(v.name) == args[1] {
            println!("VARI #{i} inst {} id {}", v.instance_type, v.variable_id);
        }
    }
    if let Some(cl) = file.functions.as_ref().unwrap().code_locals.as_ref() {
        for c in cl {
            for l in &c.locals {
                if s(l.name) == args[1] {
                    println!("{} slot {}", s(c.code_name), l.index);
                }
            }
        }
    }
    let _ = game;
}
