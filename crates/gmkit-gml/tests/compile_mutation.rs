//! Mutation sweep of the whole front end: the games' GML sources (`GMKIT_SOURCES`) with
//! truncations, flipped characters, and slices repeated hundreds of times (long chains, deep
//! nesting, doubling macros) go through preprocessing, parsing, folding and compiling against
//! the built-in sample game on a thread with a 1 MiB stack: a result or an error, never a panic,
//! a stack overflow or a hang. Deterministic (xorshift) and bounded: a few hundred mutants.

use gmkit_gml::project::{CodeUnit, Format, Project};
use gmkit_testdata::{Rng, need, sources_dir};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

/// Mutants in all.
const MUTANTS: usize = 400;

fn gml_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    let mut v: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
    v.sort();
    for p in v {
        if p.is_dir() {
            gml_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "gml") {
            out.push(p);
        }
    }
}

fn mutate(rng: &mut Rng, text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let n = chars.len();
    let at = rng.below(n + 1);
    let to = (at + 1 + rng.below(40)).min(n);
    let s = |a: usize, b: usize| chars[a..b].iter().collect::<String>();
    match rng.below(6) {
        0 => s(0, at),
        1 => format!(
            "{}{}{}",
            s(0, at),
            ['(', '.', '[', '{', '?', '#', '"'][rng.below(7)],
            s(at, n)
        ),
        2 => format!("{}{}", s(0, at), s(to, n)),
        // A slice repeated: chains and nesting of hundreds to thousands of levels.
        3 => format!(
            "{}{}{}",
            s(0, at),
            s(at, to).repeat(100 + rng.below(3000)),
            s(to, n)
        ),
        4 => format!(
            "{}{}{}",
            s(0, at),
            [
                " + a", ".b", "[0]", "()", " ?? a", "-", "!", "(", "{", "if (a) "
            ][rng.below(10)]
            .repeat(1000 + rng.below(8000)),
            s(at, n)
        ),
        _ => {
            let k = 1 + rng.below(31);
            let mut m = String::from("#macro M0 a\n");
            for i in 1..=k {
                m.push_str(&format!("#macro M{i} M{} + M{}\n", i - 1, i - 1));
            }
            format!("{m}{}M{k}{}", s(0, at), s(at, n))
        }
    }
}

/// The front end on one text, as `pack` and `check-source` run it.
fn front_end(file: &gmkit_data::DataFile, text: &str) {
    let game = gmkit_gml::Game::new(file);
    let names = gmkit_gml::compile::Names::new(&game);
    if let Ok(mut tree) = gmkit_gml::parse::parse(text) {
        gmkit_gml::fold::resolve(&mut tree, &gmkit_gml::fold::ConstNames::default());
        let _ = gmkit_gml::compile::compile_entry(&game, &names, 0, &tree);
    }
    let project = Project {
        format: Some(Format::Yy23),
        units: vec![CodeUnit {
            entry: "gml_Object_obj_ball_Create_0".into(),
            file: "mutant.gml".into(),
            line: 1,
            text: text.to_string(),
            unsupported: None,
        }],
        ..Project::default()
    };
    let sources = gmkit_gml::source::Sources::new(&project, &game);
    if let Ok(tree) = sources.tree(&project, 0) {
        let _ = gmkit_gml::source::compile_unit(&game, &names, 0, &tree);
    }
}

#[test]
fn mutated_sources_compile_or_fail_cleanly() {
    let dir = need!(sources_dir());
    let mut files = Vec::new();
    gml_files(&dir, &mut files);
    assert!(!files.is_empty(), "no .gml under {}", dir.display());
    let texts: Vec<(String, String)> = files
        .iter()
        .filter_map(|p| Some((p.display().to_string(), std::fs::read_to_string(p).ok()?)))
        .filter(|(_, t)| t.len() < 64 << 10)
        .collect();
    let worker = std::thread::Builder::new()
        .stack_size(1 << 20)
        .spawn(move || {
            let file = gmkit_data::sample();
            let mut rng = Rng(0x5EED_F00D_CAFE_0015);
            for k in 0..MUTANTS {
                let (name, text) = &texts[rng.below(texts.len())];
                let m = mutate(&mut rng, text);
                let r = catch_unwind(AssertUnwindSafe(|| front_end(&file, &m)));
                assert!(r.is_ok(), "mutant {k} of {name} panicked");
            }
        })
        .unwrap();
    worker
        .join()
        .expect("no panic or stack overflow on a 1 MiB stack");
}
