//! Bar 5: `gmkit info --json` of every corpus file (both manifests) is kept in `tests/snapshots/` and compared.
//! After an intended change, regenerate with `GMKIT_BLESS=1 cargo test -p gmkit --test info_snapshots`.

use gmkit_testdata::{corpus_names_all, corpus_path, need};
use std::path::PathBuf;

#[test]
fn info_json_matches_the_snapshots() {
    let names = need!(corpus_names_all());
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots");
    let bless = std::env::var_os("GMKIT_BLESS").is_some();
    let mut failures = Vec::new();
    for name in names {
        let path = corpus_path(&name).unwrap();
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_gmkit"))
            .args(["info", "--json"])
            .arg(&path)
            .output()
            .unwrap();
        let got = String::from_utf8(out.stdout).unwrap();
        let snap = dir.join(format!("{name}.json"));
        if bless {
            std::fs::write(&snap, &got).unwrap();
            continue;
        }
        match std::fs::read_to_string(&snap) {
            Ok(want) if want == got => {}
            Ok(_) => failures.push(format!(
                "{name}: info --json differs from {}",
                snap.display()
            )),
            Err(e) => failures.push(format!("{name}: {}: {e}", snap.display())),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
