//! The README's "rename the game" example is the crate documentation's doc test (which runs it
//! on the sample game): the lines shown in the README are the doc test's shown lines.

/// The lines of the Rust block holding `marker`, less hidden (`# `) lines.
fn shown_lines(text: &str, marker: &str) -> Vec<String> {
    let mut block = Vec::new();
    let mut inside = false;
    for line in text.lines() {
        let t = line.trim_start();
        if t.starts_with("```") {
            if inside && block.iter().any(|l: &String| l.contains(marker)) {
                return block;
            }
            inside = t.starts_with("```rust");
            block.clear();
            continue;
        }
        if inside && !line.starts_with('#') {
            block.push(line.to_owned());
        }
    }
    panic!("no Rust block holding {marker:?}");
}

#[test]
fn readme_rename_example_is_the_doc_test() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md");
    let readme = std::fs::read_to_string(root).unwrap();
    let lib = include_str!("../src/lib.rs");
    let docs: String = lib
        .lines()
        .filter_map(|l| l.strip_prefix("//!"))
        .map(|l| l.strip_prefix(' ').unwrap_or(l))
        .collect::<Vec<_>>()
        .join("\n");
    let marker = "Rename the game";
    let from_readme = shown_lines(&readme, marker);
    assert!(
        from_readme.iter().any(|l| l.contains("data.intern(")),
        "{from_readme:#?}"
    );
    assert_eq!(from_readme, shown_lines(&docs, marker));
}
