//! Round-trip inspection: for one data file, prints every root entry whose
//! `compile(parse(print(decompile(entry))))` differs from the original, with the GML text and
//! both instruction listings around the first difference.
//!
//! `cargo run --release -p gmkit-gml --example rtdiff -- data.win [KIND-SUBSTRING] [MAX]`

use gmkit_data::chunks::code::asm::Disassembler;
use gmkit_gml::compile::{Names, compile_entry};
use gmkit_gml::{Game, decompile, parse, print};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(path) = args.get(1) else {
        eprintln!("usage: rtdiff FILE [KIND] [MAX]");
        std::process::exit(2);
    };
    let filter = args.get(2).cloned().unwrap_or_default();
    let max: usize = args.get(3).and_then(|m| m.parse().ok()).unwrap_or(5);
    let file = gmkit_data::parse_file(path).expect("parse");
    let game = Game::new(&file);
    let names = Names::new(&game);
    let dis = Disassembler::new(&file);
    let code = file.code.as_ref().expect("code");
    let ctx: usize = std::env::var("RTDIFF_CTX")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(12);
    let mut shown = 0;
    for i in 0..code.entries.len() {
        if !code.entries[i].body.is_root() {
            continue;
        }
        let Ok(orig) = code.instructions(i) else {
            continue;
        };
        let Ok(d) = decompile::decompile_entry(&game, i) else {
            continue;
        };
        let text = print::print_stmts(&d.body);
        let kind;
        let mut listing = String::new();
        match parse::parse(&text) {
            Err(e) => kind = format!("text does not parse: {e:?}"),
            Ok(tree) => match compile_entry(&game, &names, i, &tree) {
                Ok(ins) if ins.as_slice() == orig.as_ref() => continue,
                Ok(ins) => {
                    let k = ins
                        .iter()
                        .zip(orig.iter())
                        .position(|(a, b)| a != b)
                        .unwrap_or(ins.len().min(orig.len()));
                    kind = match (orig.get(k), ins.get(k)) {
                        (Some(o), Some(n)) => format!(
                            "differs: expected {} got {}",
                            o.opcode().mnemonic(),
                            n.opcode().mnemonic()
                        ),
                        (Some(_), None) => "differs: compiled code too short".into(),
                        _ => "differs: compiled code too long".into(),
                    };
                    if let Ok(dir) = std::env::var("RTDIFF_DUMP") {
                        let name = game.code_name(i);
                        let _ = std::fs::write(
                            format!("{dir}/{name}.orig.asm"),
                            dis.instructions(&orig),
                        );
                        let _ =
                            std::fs::write(format!("{dir}/{name}.new.asm"), dis.instructions(&ins));
                        let _ = std::fs::write(format!("{dir}/{name}.gml"), &text);
                    }
                    let lo = k.saturating_sub(ctx);
                    let a = dis.instructions(&orig[lo..(k + ctx / 2).min(orig.len())]);
                    let b = dis.instructions(&ins[lo..(k + ctx / 2).min(ins.len())]);
                    listing =
                        format!("--- original (from {lo}, diff at {k})\n{a}\n--- compiled\n{b}\n");
                }
                Err(e) => {
                    kind = format!("{e}");
                    if let Ok(dir) = std::env::var("RTDIFF_DUMP") {
                        let name = game.code_name(i);
                        let _ = std::fs::write(
                            format!("{dir}/{name}.orig.asm"),
                            dis.instructions(&orig),
                        );
                        let _ = std::fs::write(format!("{dir}/{name}.gml"), &text);
                    }
                }
            },
        }
        let cow = orig.iter().any(|x| {
            matches!(
                x,
                gmkit_data::chunks::code::Instruction::Extended {
                    kind: gmkit_data::chunks::code::ExtendedKind::SETOWNER,
                    ..
                }
            )
        });
        let kind = if cow { format!("{kind} [cow]") } else { kind };
        if !kind.contains(&filter) {
            continue;
        }
        println!("===== {} : {kind}\n{text}\n{listing}", game.code_name(i));
        shown += 1;
        if shown >= max {
            break;
        }
    }
}
