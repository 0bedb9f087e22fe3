//! Prints the disassembly and the decompiled GML of code entries whose name contains a pattern,
//! or failure notes of every entry (`--failures`).
//!
//! `cargo run -p gmkit-gml --example gml_dump -- FILE PATTERN [--asm]`

use gmkit_gml::{Game, decompile, print};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let file = gmkit_data::parse_file(&args[0]).expect("parse");
    let game = Game::new(&file);
    let pat = args.get(1).cloned().unwrap_or_default();
    let asm = args.iter().any(|a| a == "--asm");
    let code = file.code.as_ref().expect("code");
    for i in 0..code.entries.len() {
        let name = game.code_name(i);
        if pat == "--failures" {
            match decompile::decompile_entry(&game, i) {
                Ok(d) if d.failures > 0 => {
                    for n in &d.failure_notes {
                        println!("{name}: {n}");
                    }
                }
                Err(e) => println!("{name}: ERROR {e}"),
                _ => {}
            }
            continue;
        }
        if !name.contains(&pat) {
            continue;
        }
        println!("==== {name} (#{i})");
        if asm {
            let ins = code.instructions(i).expect("decode");
            let mut a = 0;
            for x in ins.iter() {
                println!("{a:6} {}", x.display(&file));
                a += x.size();
            }
            println!("----");
        }
        match decompile::decompile_entry(&game, i) {
            Ok(d) => {
                println!("{}", print::print_stmts(&d.body));
                for n in &d.failure_notes {
                    println!("!! {n}");
                }
            }
            Err(e) => println!("ERROR {e}"),
        }
    }
}
