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
    let names = gmkit_gml::compile::Names::new(&game);
    for i in 0..code.entries.len() {
        let name = game.code_name(i);
        if pat == "--cmp" {
            // `--cmp NAME`: the original and the recompiled listing of one entry, for `diff`.
            if args.get(2).map(String::as_str) != Some(name) {
                continue;
            }
            let orig = code.instructions(i).expect("decode");
            let d = decompile::decompile_entry(&game, i).expect("decompile");
            let text = print::print_stmts(&d.body);
            println!("{text}");
            let tree = gmkit_gml::parse::parse(&text).expect("parse");
            let ins = gmkit_gml::compile::compile_entry(&game, &names, i, &tree);
            let ins = ins.unwrap_or_default();
            for (tag, v) in [("want", &orig[..]), ("got", &ins[..])] {
                std::fs::write(
                    format!("/tmp/gml_{tag}.txt"),
                    v.iter()
                        .map(|x| format!("{}\n", x.display(&file)))
                        .collect::<String>(),
                )
                .expect("write");
            }
            continue;
        }
        if pat == "--roundtrip" {
            if !code.entries[i].body.is_root() {
                continue;
            }
            let orig = code.instructions(i).expect("decode");
            let d = decompile::decompile_entry(&game, i).expect("decompile");
            let text = print::print_stmts(&d.body);
            let tree = gmkit_gml::parse::parse(&text).expect("parse");
            match gmkit_gml::compile::compile_entry(&game, &names, i, &tree) {
                Ok(ins) if ins.as_slice() == orig.as_ref() => {}
                Ok(ins) => {
                    // The first difference other than a branch offset (a body that differs
                    // moves every branch over it), else the first difference.
                    use gmkit_data::chunks::code::Instruction as I;
                    let same_kind = |a: &I, b: &I| match (a, b) {
                        (I::Branch { op: x, .. }, I::Branch { op: y, .. }) => x == y,
                        _ => a == b,
                    };
                    let k = ins
                        .iter()
                        .zip(orig.iter())
                        .position(|(a, b)| !same_kind(a, b))
                        .or_else(|| ins.iter().zip(orig.iter()).position(|(a, b)| a != b))
                        .unwrap_or(ins.len().min(orig.len()));
                    let show = |v: &[gmkit_data::chunks::code::Instruction]| {
                        v[k.saturating_sub(3)..(k + 2).min(v.len())]
                            .iter()
                            .map(|x| x.display(&file).to_string())
                            .collect::<Vec<_>>()
                            .join(" / ")
                    };
                    let at = |v: &[gmkit_data::chunks::code::Instruction]| {
                        v.get(k)
                            .map_or("(end)".to_string(), |x| x.display(&file).to_string())
                    };
                    println!(
                        "{name} @{k}\n   want {}\n   got  {}\n   first: {} | {}",
                        show(&orig),
                        show(&ins),
                        at(&orig),
                        at(&ins)
                    );
                }
                Err(e) => println!("{name}: {e}"),
            }
            continue;
        }
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
