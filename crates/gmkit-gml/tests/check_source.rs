//! Bar 3 (measured): the games' own GML source (`../shared/sources`, `SOURCES.tsv`) compiled
//! against the data file built from it. For every `exact`-graded project: identical / differs /
//! error / missing per root code entry, and the differences by kind.

use gmkit_gml::Game;
use gmkit_gml::check::check_source;
use std::collections::BTreeMap;

#[test]
fn exact_projects_compile_to_their_bytecode() {
    let sources = gmkit_testdata::need!(gmkit_testdata::sources_dir());
    let table = std::fs::read_to_string(sources.join("SOURCES.tsv")).expect("SOURCES.tsv");
    let mut lines = table.lines();
    let header: Vec<&str> = lines.next().expect("header").split('\t').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).expect(name);
    let (c_dir, c_file, c_grade) = (col("dir"), col("file"), col("match_grade"));
    let mut kinds: BTreeMap<String, usize> = BTreeMap::new();
    let mut worst = 100.0f64;
    let mut projects = 0;
    for line in lines {
        let f: Vec<&str> = line.split('\t').collect();
        if f.get(c_grade) != Some(&"exact") {
            continue;
        }
        let name = f[c_file];
        let bytes = gmkit_testdata::need!(gmkit_testdata::corpus_file(name));
        let file = gmkit_data::parse_bytes(bytes).expect("corpus file parses");
        let game = Game::new(&file);
        let report = check_source(&game, &sources.join(f[c_dir])).expect("project reads");
        projects += 1;
        let pct = report.identical_percent();
        worst = worst.min(pct);
        println!(
            "{:24} {:10} entries {:4}  identical {:4}  differs {:4}  error {:4}  missing {:4}  extra {:3}  ({pct:.1} %)",
            f[c_dir],
            report.format,
            report.entries.len(),
            report.count("identical"),
            report.count("differs"),
            report.count("error"),
            report.count("missing"),
            report.extra.len(),
        );
        for p in &report.problems {
            println!("    problem: {p}");
        }
        for (k, n) in report.kinds() {
            *kinds.entry(k).or_default() += n;
        }
    }
    let mut by: Vec<_> = kinds.into_iter().collect();
    by.sort_by_key(|k| std::cmp::Reverse(k.1));
    for (k, n) in by {
        println!("{n:6}  {k}");
    }
    assert!(projects > 0, "SOURCES.tsv lists no exact project");
    // Floor at the measured rate of the worst project, so that it cannot regress.
    assert!(
        worst >= FLOOR,
        "a project's identical rate {worst:.1} % fell below {FLOOR} %"
    );
}

const FLOOR: f64 = 93.0;
