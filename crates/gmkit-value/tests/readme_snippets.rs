//! The Rust snippets of the gmkit-value section of the workspace's library guide
//! (`docs/library.md`, moved there from the README) are doctested: each must be one of this
//! crate's README snippets, which run as doctests (`src/lib.rs` includes the crate README under
//! `cfg(doctest)`).

/// The ```rust blocks of `text`.
fn rust_blocks(text: &str) -> Vec<String> {
    let mut blocks = Vec::new();
    let mut cur: Option<Vec<&str>> = None;
    for line in text.lines() {
        match (&mut cur, line.trim_end()) {
            (None, "```rust") => cur = Some(Vec::new()),
            (Some(b), "```") => {
                blocks.push(b.join("\n"));
                cur = None;
            }
            (Some(b), l) => b.push(l),
            (None, _) => {}
        }
    }
    blocks
}

#[test]
fn workspace_readme_snippets_are_doctested() {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../../docs/library.md");
    let top = std::fs::read_to_string(root).expect("the workspace's docs/library.md");
    let start = top.find("\n## gmkit-value").expect("a gmkit-value section");
    let section = &top[start + 1..];
    let section = &section[..section[3..].find("\n## ").map_or(section.len(), |i| i + 3)];
    let ours = rust_blocks(include_str!("../README.md"));
    let theirs = rust_blocks(section);
    assert!(!theirs.is_empty(), "the section has Rust snippets");
    for b in &theirs {
        assert!(
            ours.contains(b),
            "docs/library.md snippet is not one of crates/gmkit-value/README.md's:\n{b}"
        );
    }
}
