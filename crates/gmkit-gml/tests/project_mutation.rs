//! Mutation sweep of the project readers (the CI share of the `project_read` fuzz target): each
//! GameMaker project of `GMKIT_SOURCES` up to 1 MiB is copied (its text files) to a temporary
//! folder, one of its project files (`.yyp`, `.yy`, `.gmx`) is mutated (cut short, a byte
//! changed, a slice repeated, a path pointed out of the folder), and `check_source` reads and
//! compiles it against the corpus game it belongs to: a report or a one-line error, never a
//! panic, a hang, or a file read from outside the folder. Deterministic (xorshift) and bounded.

use gmkit_gml::Game;
use gmkit_gml::check::check_source;
use gmkit_testdata::{Rng, need, sources_dir};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};

/// Mutants per project.
const MUTANTS: usize = 6;
/// Projects larger than this (bytes of text) are left to the fuzz target.
const MAX_PROJECT_BYTES: u64 = 1 << 20;

/// Copies the text files of `from` below `to`, returning the project files among them and the
/// total size.
fn copy_text(from: &Path, to: &Path, project_files: &mut Vec<PathBuf>) -> u64 {
    let mut size = 0;
    let Ok(rd) = std::fs::read_dir(from) else {
        return 0;
    };
    let mut v: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
    v.sort();
    for p in v {
        let Ok(md) = std::fs::symlink_metadata(&p) else {
            continue;
        };
        let target = to.join(p.file_name().unwrap());
        if md.is_dir() {
            std::fs::create_dir_all(&target).unwrap();
            size += copy_text(&p, &target, project_files);
        } else if md.is_file() {
            let ext = p.extension().and_then(|e| e.to_str()).unwrap_or("");
            if matches!(ext, "yyp" | "yy" | "gmx" | "gml" | "txt" | "json" | "ini") {
                std::fs::copy(&p, &target).unwrap();
                size += md.len();
                if matches!(ext, "yyp" | "yy" | "gmx") {
                    project_files.push(target);
                }
            }
        }
    }
    size
}

fn mutate(text: &mut Vec<u8>, rng: &mut Rng) -> &'static str {
    let n = text.len().max(1);
    match rng.below(5) {
        0 => {
            text.truncate(rng.below(n));
            "cut short"
        }
        1 => {
            let at = rng.below(n).min(text.len().saturating_sub(1));
            const BYTES: &[u8] = b" \"{}[]<>/:,.0123456789-abz\\\n";
            if let Some(b) = text.get_mut(at) {
                *b = BYTES[rng.below(BYTES.len())];
            }
            "a byte changed"
        }
        2 => {
            let a = rng.below(n).min(text.len());
            let b = (a + 1 + rng.below(64)).min(text.len());
            let slice = text[a..b].to_vec();
            for _ in 0..rng.below(200) {
                text.splice(b..b, slice.iter().copied());
            }
            "a slice repeated"
        }
        3 => {
            // Point the first path-looking string out of the folder.
            let s = String::from_utf8_lossy(text).into_owned();
            let out = s
                .replacen("scripts\\", "..\\..\\..\\..\\etc\\", 1)
                .replacen("scripts/", "../../../../etc/", 1)
                .replacen("objects/", "/etc/", 1);
            *text = out.into_bytes();
            "a path out of the folder"
        }
        _ => {
            let at = rng.below(n).min(text.len());
            text.splice(at..at, std::iter::repeat_n(b'[', 10_000));
            "10,000 brackets inserted"
        }
    }
}

#[test]
fn mutated_projects_never_panic() {
    let sources = need!(sources_dir());
    let table = std::fs::read_to_string(sources.join("SOURCES.tsv")).expect("SOURCES.tsv");
    let mut lines = table.lines();
    let header: Vec<&str> = lines.next().expect("header").split('\t').collect();
    let col = |name: &str| header.iter().position(|h| *h == name).expect(name);
    let (c_dir, c_file) = (col("dir"), col("file"));
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let (mut checked, mut reports, mut errors) = (0, 0, 0);
    let mut failures = Vec::new();
    for line in lines {
        let f: Vec<&str> = line.split('\t').collect();
        let (Some(dir), Some(file)) = (f.get(c_dir), f.get(c_file)) else {
            continue;
        };
        let Some(bytes) = gmkit_testdata::corpus_file(file) else {
            return;
        };
        let data = gmkit_data::parse_bytes(bytes).expect("corpus file parses");
        let game = Game::new(&data);
        for k in 0..MUTANTS {
            let tmp = std::env::temp_dir().join(format!(
                "gmkit-project-mutation-{}-{dir}-{k}",
                std::process::id()
            ));
            let _ = std::fs::remove_dir_all(&tmp);
            std::fs::create_dir_all(&tmp).unwrap();
            let mut project_files = Vec::new();
            let size = copy_text(&sources.join(dir), &tmp, &mut project_files);
            if size > MAX_PROJECT_BYTES || project_files.is_empty() {
                let _ = std::fs::remove_dir_all(&tmp);
                break;
            }
            // The project file itself half of the time, another project file otherwise.
            let top: Vec<&PathBuf> = project_files
                .iter()
                .filter(|p| {
                    let n = p.to_string_lossy();
                    n.ends_with(".yyp") || n.ends_with(".project.gmx")
                })
                .collect();
            let victim = if rng.below(2) == 0 && !top.is_empty() {
                top[rng.below(top.len())].clone()
            } else {
                project_files[rng.below(project_files.len())].clone()
            };
            let mut text = std::fs::read(&victim).unwrap();
            let what = mutate(&mut text, &mut rng);
            std::fs::write(&victim, &text).unwrap();
            let r = catch_unwind(AssertUnwindSafe(|| check_source(&game, &tmp)));
            checked += 1;
            match r {
                Ok(Ok(_)) => reports += 1,
                Ok(Err(e)) => {
                    errors += 1;
                    let msg = e.to_string();
                    if msg.contains('\n') || msg.len() > 2000 {
                        failures.push(format!(
                            "{dir} #{k} ({what}): not one short line: {msg:.300}"
                        ));
                    }
                }
                Err(_) => failures.push(format!(
                    "{dir} #{k}: {what} in {}: panicked",
                    victim.strip_prefix(&tmp).unwrap_or(&victim).display()
                )),
            }
            let _ = std::fs::remove_dir_all(&tmp);
        }
    }
    println!("{checked} mutated projects: {reports} reports, {errors} errors");
    assert!(checked > 0, "no project was small enough to mutate");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
