//! Bar 2 (measured): `compile(parse(print(decompile(entry))))` against the entry's own
//! instructions, per file and per version family; the differences are listed by kind.

use gmkit_data::chunks::code::Instruction;
use gmkit_gml::compile::{CompileError, Names, compile_entry_with_children};
use gmkit_gml::{Family, Game, decompile, parse, print};
use std::collections::BTreeMap;

#[derive(Default)]
struct Count {
    entries: usize,
    identical: usize,
}

#[test]
fn decompile_compile_round_trip() {
    // Every file both manifests list.
    let corpus = gmkit_testdata::need!(gmkit_testdata::corpus_all());
    let mut fam: BTreeMap<Family, Count> = BTreeMap::new();
    let mut kinds: BTreeMap<String, usize> = BTreeMap::new();
    let mut total = Count::default();
    let mut heads = Count::default();
    // GMKIT_SHOW_MISSES=1 prints every missed entry: file, entry name, kind, and around the
    // first differing instruction.
    let show = std::env::var_os("GMKIT_SHOW_MISSES").is_some();
    for (name, bytes) in corpus {
        let Ok(file) = gmkit_data::parse_bytes(bytes) else {
            continue;
        };
        let Some(code) = file.code.as_ref().filter(|c| !c.entries.is_empty()) else {
            continue;
        };
        let game = Game::new(&file);
        let names = Names::new(&game);
        let mut c = Count::default();
        for i in 0..code.entries.len() {
            if !code.entries[i].body.is_root() {
                continue;
            }
            c.entries += 1;
            let Ok(orig) = code.instructions(i) else {
                *kinds.entry("original does not decode".into()).or_default() += 1;
                continue;
            };
            let text = match decompile::decompile_entry(&game, i) {
                Ok(d) => print::print_stmts(&d.body),
                Err(_) => {
                    *kinds.entry("decompile error".into()).or_default() += 1;
                    continue;
                }
            };
            let tree = match parse::parse(&text) {
                Ok(t) => t,
                Err(e) => {
                    if show {
                        println!(
                            "MISS {name} {}: text does not parse: {e}",
                            game.code_name(i)
                        );
                    }
                    *kinds.entry("text does not parse".into()).or_default() += 1;
                    continue;
                }
            };
            let compiled = compile_entry_with_children(&game, &names, i, &tree);
            if let (true, Err(e)) = (show, &compiled) {
                println!("MISS {name} {}: {e}", game.code_name(i));
            }
            match compiled {
                Ok((ins, children)) if ins.as_slice() == orig.as_ref() => {
                    // The nested functions' code entry headers, against the file's: an entry
                    // counts as identical only with them.
                    let want = game.children(i);
                    if want.is_empty() {
                        c.identical += 1;
                    } else {
                        heads.entries += 1;
                        let got: Vec<_> = children
                            .iter()
                            .map(|h| (h.name.as_str(), h.offset, h.arguments, h.locals))
                            .collect();
                        let want: Vec<_> = want
                            .iter()
                            .map(|&(off, e)| {
                                let x = &code.entries[e];
                                (game.code_name(e), off, x.arguments_count, x.locals_count)
                            })
                            .collect();
                        if got == want {
                            heads.identical += 1;
                            c.identical += 1;
                        } else {
                            let k = got.iter().zip(&want).find(|(a, b)| a != b);
                            if show {
                                println!("MISS {name} {}: child header {k:?}", game.code_name(i));
                            }
                            if std::env::var_os("GMKIT_SHOW_HEADERS").is_some() {
                                println!("header {k:?}");
                            }
                            let what = match k {
                                Some((a, b)) if a.0 != b.0 || a.1 != b.1 => "name/offset",
                                Some((a, b)) if a.2 != b.2 => "arguments",
                                Some(_) => "locals",
                                None => "count",
                            };
                            *kinds
                                .entry(format!("(identical code) child header differs: {what}"))
                                .or_default() += 1;
                        }
                    }
                }
                Ok((ins, _)) => {
                    let k = ins
                        .iter()
                        .zip(orig.iter())
                        .position(|(a, b)| a != b)
                        .unwrap_or(ins.len().min(orig.len()));
                    let kind = match (orig.get(k), ins.get(k)) {
                        (Some(o), Some(n)) => format!(
                            "differs: expected {} got {}",
                            o.opcode().mnemonic(),
                            n.opcode().mnemonic()
                        ),
                        (Some(_), None) => "differs: compiled code too short".into(),
                        _ => "differs: compiled code too long".into(),
                    };
                    if std::env::var_os("GMKIT_SHOW_DIFFERS").is_some() {
                        println!("{name} {}: {kind} at instruction {k}", game.code_name(i));
                    }
                    // GMKIT_SHOW_ENTRY=<entry name>: both listings in full, side by side.
                    if std::env::var("GMKIT_SHOW_ENTRY").is_ok_and(|e| e == game.code_name(i)) {
                        let dis = gmkit_data::chunks::code::asm::Disassembler::new(&file);
                        let (a, b) = (dis.instructions(&orig), dis.instructions(&ins));
                        println!("TEXT\n{text}");
                        for (n, (x, y)) in a.lines().zip(b.lines()).enumerate() {
                            let mark = if x == y { ' ' } else { '*' };
                            println!("{mark}{n:5} {x:60} | {y}");
                        }
                    }
                    if show {
                        // The first difference other than a branch distance (a branch around
                        // a function body differs when something inside it does).
                        let same = |a: &Instruction, b: &Instruction| match (a, b) {
                            (
                                Instruction::Branch { op: x, .. },
                                Instruction::Branch { op: y, .. },
                            ) => x == y,
                            _ => a == b,
                        };
                        let k = ins
                            .iter()
                            .zip(orig.iter())
                            .position(|(a, b)| !same(a, b))
                            .unwrap_or(k);
                        println!("MISS {name} {}: {kind} at {k}", game.code_name(i));
                        let lo = k.saturating_sub(4);
                        for j in lo..(k + 4) {
                            println!(
                                "    {j:5} {:50} | {}",
                                orig.get(j).map(|x| format!("{x:?}")).unwrap_or_default(),
                                ins.get(j).map(|x| format!("{x:?}")).unwrap_or_default()
                            );
                        }
                    }
                    *kinds.entry(kind).or_default() += 1;
                }
                Err(CompileError::Unsupported(w)) => {
                    *kinds.entry(format!("unsupported: {w}")).or_default() += 1
                }
                Err(CompileError::UnknownName { kind, .. }) => {
                    *kinds.entry(format!("unknown {kind}")).or_default() += 1
                }
                Err(e) => *kinds.entry(format!("error: {e}")).or_default() += 1,
            }
        }
        let f = fam.entry(game.features.family()).or_default();
        f.entries += c.entries;
        f.identical += c.identical;
        total.entries += c.entries;
        total.identical += c.identical;
        println!(
            "{name:40} {:10} root entries {:6} identical {:6} ({:.1} %)",
            game.features.family().label(),
            c.entries,
            c.identical,
            100.0 * c.identical as f64 / c.entries.max(1) as f64
        );
    }
    for (f, c) in &fam {
        println!(
            "family {:10} root entries {:6} identical {:6} ({:.1} %)",
            f.label(),
            c.entries,
            c.identical,
            100.0 * c.identical as f64 / c.entries.max(1) as f64
        );
    }
    let pct = 100.0 * total.identical as f64 / total.entries.max(1) as f64;
    println!(
        "total root entries {} identical {} ({pct:.1} %)",
        total.entries, total.identical
    );
    println!(
        "child entry headers (name, offset, arguments, locals) of identical entries with nested \
         functions: {} of {} identical",
        heads.identical, heads.entries
    );
    let mut by: Vec<_> = kinds.into_iter().collect();
    by.sort_by_key(|k| std::cmp::Reverse(k.1));
    for (k, n) in by {
        println!("{n:6}  {k}");
    }
    // An entry whose code is identical but whose nested functions' headers differ is a miss
    // (listed by kind above); GMKIT_SHOW_HEADERS=1 shows them.
    // Floors at the measured rates (99.6 % in all; 98.7 % in 2.3-2022, the lowest family),
    // so that they cannot regress.
    assert!(
        pct >= FLOOR,
        "round-trip rate {pct:.1} % fell below {FLOOR} %"
    );
    for (f, c) in &fam {
        let p = 100.0 * c.identical as f64 / c.entries.max(1) as f64;
        assert!(
            p >= FAMILY_FLOOR,
            "round-trip rate of {} {p:.1} % fell below {FAMILY_FLOOR} %",
            f.label()
        );
    }
}

const FLOOR: f64 = 99.5;
const FAMILY_FLOOR: f64 = 98.5;
