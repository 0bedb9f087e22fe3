//! Finds the test inputs that live outside the repository (`../shared/`): the corpus of real
//! game files, the value-format vectors, the games' GML sources and the hostile repro inputs.
//!
//! A fresh clone has no `../shared`: every finder then prints why the test is skipped and returns
//! `None`, so the test returns early and passes. With `GMKIT_REQUIRE_CORPUS=1` (which `.ci/run`
//! sets) a missing input is a failure instead, so CI always runs these tests.
//!
//! ```no_run
//! let Some(files) = gmkit_testdata::corpus() else { return };
//! for (name, bytes) in files {
//!     assert!(bytes.starts_with(b"FORM"), "{name}");
//! }
//! ```

use std::path::PathBuf;

pub mod alloc;
pub mod browser;
pub mod limited;

pub use browser::{Browser, browser, browser_required};

/// One kind of shared test input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shared {
    /// Real game files with `MANIFEST.tsv` (`GMKIT_CORPUS`).
    Corpus,
    /// `ds.jsonl` and `elephant.jsonl` (`GMKIT_VECTORS`).
    Vectors,
    /// The games' GML projects with `SOURCES.tsv` (`GMKIT_SOURCES`).
    Sources,
    /// Hostile inputs with a README (`GMKIT_REPRO`).
    Repro,
}

impl Shared {
    fn env_var(self) -> &'static str {
        match self {
            Shared::Corpus => "GMKIT_CORPUS",
            Shared::Vectors => "GMKIT_VECTORS",
            Shared::Sources => "GMKIT_SOURCES",
            Shared::Repro => "GMKIT_REPRO",
        }
    }
    fn folder(self) -> &'static str {
        match self {
            Shared::Corpus => "corpus",
            Shared::Vectors => "vectors",
            Shared::Sources => "sources",
            Shared::Repro => "repro",
        }
    }
    /// A file whose presence shows the directory is the right one.
    fn marker(self) -> &'static str {
        match self {
            Shared::Corpus => "MANIFEST.tsv",
            Shared::Vectors => "ds.jsonl",
            Shared::Sources => "SOURCES.tsv",
            Shared::Repro => "README.md",
        }
    }
}

/// True when missing shared inputs must fail the test (`GMKIT_REQUIRE_CORPUS=1`, set by CI).
pub fn required() -> bool {
    std::env::var("GMKIT_REQUIRE_CORPUS").is_ok_and(|v| !v.is_empty() && v != "0")
}

/// The directory of one kind of shared input: its environment variable, else `../shared/<kind>`
/// beside the repository. `None` (with a message on stderr) when it is absent and not
/// [`required`]; a panic when it is absent and required.
pub fn dir(kind: Shared) -> Option<PathBuf> {
    let dir = std::env::var_os(kind.env_var())
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                .join("../../../shared")
                .join(kind.folder())
        });
    if dir.join(kind.marker()).is_file() {
        return Some(dir);
    }
    let msg = format!(
        "shared {} not found at {} (no {}); set {} to its directory",
        kind.folder(),
        dir.display(),
        kind.marker(),
        kind.env_var()
    );
    if required() {
        panic!("{msg} (GMKIT_REQUIRE_CORPUS is set, so this test may not skip)");
    }
    eprintln!("skipping: {msg}");
    None
}

/// The corpus directory (holding `MANIFEST.tsv`).
pub fn corpus_dir() -> Option<PathBuf> {
    dir(Shared::Corpus)
}

/// The vectors directory (holding `ds.jsonl`).
pub fn vectors_dir() -> Option<PathBuf> {
    dir(Shared::Vectors)
}

/// The GML sources directory (holding `SOURCES.tsv`).
pub fn sources_dir() -> Option<PathBuf> {
    dir(Shared::Sources)
}

/// The hostile-input directory (holding its README).
pub fn repro_dir() -> Option<PathBuf> {
    dir(Shared::Repro)
}

/// The corpus manifests: `MANIFEST.tsv` (the established files) and `MANIFEST-next.tsv` (the
/// newest layouts, 2024.13 and later), in that order.
pub const MANIFESTS: [&str; 2] = ["MANIFEST.tsv", "MANIFEST-next.tsv"];

/// The file names one manifest of the corpus directory lists, in its order (the first column,
/// after the header line).
fn manifest_names(dir: &std::path::Path, manifest: &str) -> Vec<String> {
    let path = dir.join(manifest);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    text.lines()
        .skip(1)
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split('\t').next().unwrap_or_default().to_string())
        .collect()
}

/// The file names `MANIFEST.tsv` lists, in its order.
pub fn corpus_names() -> Option<Vec<String>> {
    let dir = corpus_dir()?;
    Some(manifest_names(&dir, MANIFESTS[0]))
}

/// The file names both manifests list ([`MANIFESTS`]: `MANIFEST.tsv`, then
/// `MANIFEST-next.tsv`), in their order. The exactness tests (parse, rebuild, coverage, folder
/// round trip, info snapshots) use this list, so that CI requires the newest layouts too.
pub fn corpus_names_all() -> Option<Vec<String>> {
    let dir = corpus_dir()?;
    Some(
        MANIFESTS
            .iter()
            .flat_map(|m| manifest_names(&dir, m))
            .collect(),
    )
}

/// The path of one corpus file (which must exist when the corpus does).
pub fn corpus_path(name: &str) -> Option<PathBuf> {
    let p = corpus_dir()?.join(name);
    assert!(p.is_file(), "corpus file {} is missing", p.display());
    Some(p)
}

/// The bytes of one corpus file.
pub fn corpus_file(name: &str) -> Option<Vec<u8>> {
    let p = corpus_path(name)?;
    Some(std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display())))
}

/// (file name, bytes) of every corpus file `MANIFEST.tsv` lists.
pub fn corpus() -> Option<Vec<(String, Vec<u8>)>> {
    Some(read_all(corpus_names()?))
}

/// (file name, bytes) of every corpus file both manifests list (see [`corpus_names_all`]).
pub fn corpus_all() -> Option<Vec<(String, Vec<u8>)>> {
    Some(read_all(corpus_names_all()?))
}

fn read_all(names: Vec<String>) -> Vec<(String, Vec<u8>)> {
    names
        .into_iter()
        .map(|n| {
            let bytes = corpus_file(&n).expect("corpus present");
            (n, bytes)
        })
        .collect()
}

/// The path of one hostile input in `../shared/repro`.
pub fn repro_path(name: &str) -> Option<PathBuf> {
    let p = repro_dir()?.join(name);
    assert!(p.is_file(), "repro input {} is missing", p.display());
    Some(p)
}

/// Unwraps one of this crate's `Option`s, or returns from the calling test (which then passes,
/// having printed why it skipped).
///
/// ```no_run
/// use gmkit_testdata::{corpus_file, need};
/// let bytes = need!(corpus_file("the-game.win"));
/// assert!(bytes.starts_with(b"FORM"));
/// ```
#[macro_export]
macro_rules! need {
    ($e:expr) => {
        match $e {
            Some(v) => v,
            None => return Default::default(),
        }
    };
}

/// A tiny deterministic RNG (xorshift64) for bounded mutation sweeps that must give the same
/// inputs on every run. The seed must not be zero.
///
/// ```
/// let mut rng = gmkit_testdata::Rng(0x9E37_79B9_7F4A_7C15);
/// assert!(rng.below(10) < 10);
/// ```
pub struct Rng(pub u64);

impl Rng {
    /// The next 64 random bits.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}
