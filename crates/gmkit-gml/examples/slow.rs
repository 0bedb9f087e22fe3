use gmkit_gml::compile::{Names, compile_entry};
use gmkit_gml::{Game, decompile, parse, print};
use std::time::Instant;
fn main() {
    for path in std::env::args().skip(1) {
        let file = gmkit_data::parse_file(&path).expect("parse");
        let game = Game::new(&file);
        let names = Names::new(&game);
        let Some(code) = file.code.as_ref() else {
            continue;
        };
        let (mut td, mut tp, mut tc) = (0f64, 0f64, 0f64);
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
            td += (t1 - t0).as_secs_f64();
            tp += (t2 - t1).as_secs_f64();
            tc += (t3 - t2).as_secs_f64();
            worst.push((
                (t2 - t1).as_secs_f64(),
                format!("{} {}", game.code_name(i), text.len()),
            ));
        }
        worst.sort_by(|a, b| b.0.partial_cmp(&a.0).unwrap());
        println!(
            "{path}: decompile {td:.3}s parse {tp:.3}s compile {tc:.3}s; worst {:?}",
            &worst[..3.min(worst.len())]
        );
    }
}
