//! Single-threaded time per stage of the round trip (decompile + print, parse, compile) over
//! the root entries of the given data files, with the slowest entries of each file: a CPU-time
//! check that does not depend on the machine's load (run it under `time`).
//!
//! `cargo run --release -p gmkit-gml --example stage_times -- /work/shared/corpus/*.win`

use gmkit_gml::compile::{Names, compile_entry};
use gmkit_gml::{Game, decompile, parse, print};
use std::time::Instant;

fn main() {
    let (mut entries, mut total) = (0usize, [0f64; 3]);
    for path in std::env::args().skip(1) {
        let Ok(file) = gmkit_data::parse_file(&path) else {
            eprintln!("{path}: not a data file");
            continue;
        };
        let game = Game::new(&file);
        let names = Names::new(&game);
        let Some(code) = file.code.as_ref() else {
            continue;
        };
        let mut t = [0f64; 3];
        let mut worst = Vec::new();
        for i in 0..code.entries.len() {
            if !code.entries[i].body.is_root() {
                continue;
            }
            let t0 = Instant::now();
            let Ok(d) = decompile::decompile_entry(&game, i) else {
                continue;
            };
            let text = print::print_stmts(&d.body);
            let t1 = Instant::now();
            let Ok(tree) = parse::parse(&text) else {
                continue;
            };
            let t2 = Instant::now();
            let _ = compile_entry(&game, &names, i, &tree);
            let t3 = Instant::now();
            t[0] += (t1 - t0).as_secs_f64();
            t[1] += (t2 - t1).as_secs_f64();
            t[2] += (t3 - t2).as_secs_f64();
            entries += 1;
            worst.push(((t3 - t0).as_secs_f64(), game.code_name(i).to_string()));
        }
        worst.sort_by(|a, b| b.0.total_cmp(&a.0));
        worst.truncate(3);
        println!(
            "{path}: decompile {:.3}s parse {:.3}s compile {:.3}s; slowest {worst:?}",
            t[0], t[1], t[2]
        );
        for k in 0..3 {
            total[k] += t[k];
        }
    }
    let sum: f64 = total.iter().sum();
    println!(
        "{entries} root entries: decompile {:.3}s parse {:.3}s compile {:.3}s, {:.0} entries/s on one thread",
        total[0],
        total[1],
        total[2],
        entries as f64 / sum.max(1e-9)
    );
}
