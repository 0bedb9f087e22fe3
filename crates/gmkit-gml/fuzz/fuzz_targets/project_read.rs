//! Fuzz target: a project folder built from the input is read and checked against the
//! built-in sample game: no panic, stack overflow or hang, and nothing read outside the folder.
//!
//! The input is a tiny archive: files separated by a line `\0@path`, each file's text following
//! its path line (the first file has no path line and is the project file, `p.yyp` or, when it
//! starts with `<`, `p.project.gmx`). Paths are written only when they stay inside the folder.
#![no_main]

use libfuzzer_sys::fuzz_target;
use std::path::{Component, Path, PathBuf};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};

fn sample() -> &'static gmkit_data::DataFile {
    static FILE: OnceLock<gmkit_data::DataFile> = OnceLock::new();
    FILE.get_or_init(gmkit_data::sample)
}

/// A fresh folder under the system's temporary folder.
fn scratch() -> PathBuf {
    static N: AtomicU64 = AtomicU64::new(0);
    let d = std::env::temp_dir().join(format!(
        "gmkit-fuzz-project-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn inside(p: &Path) -> bool {
    !p.as_os_str().is_empty() && p.components().all(|c| matches!(c, Component::Normal(_)))
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let dir = scratch();
    let mut parts = text.split("\0@");
    let first = parts.next().unwrap_or("");
    let project = if first.starts_with('<') { "p.project.gmx" } else { "p.yyp" };
    let _ = std::fs::write(dir.join(project), first);
    for part in parts.take(16) {
        let (path, body) = part.split_once('\n').unwrap_or((part, ""));
        let path = Path::new(path);
        if !inside(path) {
            continue;
        }
        let full = dir.join(path);
        if let Some(parent) = full.parent() {
            let _ = std::fs::create_dir_all(parent);
        }
        let _ = std::fs::write(&full, body);
    }
    let game = gmkit_gml::Game::new(sample());
    let _ = gmkit_gml::check::check_source(&game, &dir);
    let _ = std::fs::remove_dir_all(&dir);
});
