//! The README's `gmkit-folder` example is the crate documentation's example (compiled by the doc
//! tests): the two stay the same.

/// The lines of the first Rust block of `text` holding `marker`.
fn block(text: &str, marker: &str) -> Vec<String> {
    let mut lines = Vec::new();
    let mut inside = false;
    for line in text.lines() {
        let t = line.trim_start();
        if t.starts_with("```") {
            if inside && lines.iter().any(|l: &String| l.contains(marker)) {
                return lines;
            }
            // `rust`, `rust,no_run` (README) or `no_run` (rustdoc, where Rust is the default).
            inside = t.starts_with("```rust") || t.starts_with("```no_run");
            lines.clear();
            continue;
        }
        if inside {
            lines.push(line.trim_end().to_owned());
        }
    }
    panic!("no Rust block holding {marker:?}");
}

#[test]
fn readme_folder_example_is_the_doc_test() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md")).unwrap();
    let docs: String = include_str!("../src/lib.rs")
        .lines()
        .filter_map(|l| l.strip_prefix("//!"))
        .map(|l| l.strip_prefix(' ').unwrap_or(l))
        .collect::<Vec<_>>()
        .join("\n");
    let marker = "gmkit_folder::unpack(&game)";
    assert_eq!(block(&readme, marker), block(&docs, marker));
}
