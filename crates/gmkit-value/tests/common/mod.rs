//! Shared helpers for the tests that read the shared test vectors.
#![allow(dead_code)]

/// One line of `ds.jsonl`.
pub struct Vector {
    pub name: String,
    pub kind: String,
    pub hex: String,
    pub value: Option<serde_json::Value>,
    pub error: bool,
    pub canonical: bool,
    pub profile: Option<String>,
}

/// Reads all ds vectors; `None` (the test skips) when the shared vectors are absent.
pub fn ds_vectors() -> Option<Vec<Vector>> {
    let path = gmkit_testdata::vectors_dir()?.join("ds.jsonl");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "the ds test vectors are required but {} cannot be read ({e}); \
             set GMKIT_VECTORS to the directory holding ds.jsonl",
            path.display()
        )
    });
    let vectors = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .enumerate()
        .map(|(i, l)| {
            let j: serde_json::Value =
                serde_json::from_str(l).unwrap_or_else(|e| panic!("ds.jsonl line {}: {e}", i + 1));
            let s = |k: &str| j.get(k).and_then(|v| v.as_str()).map(str::to_owned);
            let b = |k: &str| j.get(k).and_then(|v| v.as_bool()).unwrap_or(false);
            Vector {
                name: s("name").unwrap_or_else(|| format!("line {}", i + 1)),
                kind: s("kind").expect("kind"),
                hex: s("hex").expect("hex"),
                value: j.get("value").cloned(),
                error: b("error"),
                canonical: b("canonical"),
                profile: s("profile"),
            }
        })
        .collect();
    Some(vectors)
}
