//! Finds a headless browser for the studio's browser tests: `chromedriver` (WebDriver) and
//! Chromium, from the distribution's packages (`apt-get install chromium chromium-driver`).
//!
//! Like the corpus finders: on a machine without them [`browser`] prints why the tests skip and
//! returns `None`; with `GMKIT_REQUIRE_BROWSER=1` (which `.ci/run` sets after installing them)
//! a missing browser is a failure instead.

use std::path::{Path, PathBuf};

/// The two programs a WebDriver session needs.
#[derive(Clone, Debug)]
pub struct Browser {
    /// The WebDriver server (`chromedriver`, or `GMKIT_CHROMEDRIVER`).
    pub chromedriver: PathBuf,
    /// The browser it drives (`chromium`, `chromium-browser`, `google-chrome`, or `GMKIT_CHROMIUM`).
    pub chromium: PathBuf,
}

/// True when a missing browser must fail the test (`GMKIT_REQUIRE_BROWSER=1`, set by CI).
pub fn browser_required() -> bool {
    std::env::var("GMKIT_REQUIRE_BROWSER").is_ok_and(|v| !v.is_empty() && v != "0")
}

/// Chromedriver and Chromium: each from its environment variable when set, else the first of
/// its usual names found on `PATH`. `None` (with a message on stderr) when either is missing
/// and not [`browser_required`]; a panic when one is missing and required.
pub fn browser() -> Option<Browser> {
    let chromedriver = find("GMKIT_CHROMEDRIVER", &["chromedriver"]);
    let chromium = find(
        "GMKIT_CHROMIUM",
        &[
            "chromium",
            "chromium-browser",
            "google-chrome",
            "google-chrome-stable",
        ],
    );
    match (chromedriver, chromium) {
        (Ok(chromedriver), Ok(chromium)) => Some(Browser {
            chromedriver,
            chromium,
        }),
        (d, c) => {
            let missing: Vec<String> = [d.err(), c.err()].into_iter().flatten().collect();
            let msg = format!(
                "no headless browser: {} (install the packages chromium and chromium-driver)",
                missing.join("; ")
            );
            if browser_required() {
                panic!("{msg} (GMKIT_REQUIRE_BROWSER is set, so this test may not skip)");
            }
            eprintln!("skipping: {msg}");
            None
        }
    }
}

/// The program named by `var`, else the first of `names` on `PATH`; the error says what was
/// looked for where.
fn find(var: &str, names: &[&str]) -> Result<PathBuf, String> {
    if let Some(p) = std::env::var_os(var).filter(|p| !p.is_empty()) {
        let p = PathBuf::from(p);
        return if p.is_file() {
            Ok(p)
        } else {
            Err(format!("{var}={} is not a file", p.display()))
        };
    }
    let path = std::env::var_os("PATH").unwrap_or_default();
    for name in names {
        for dir in std::env::split_paths(&path) {
            let p = dir.join(name);
            if is_program(&p) {
                return Ok(p);
            }
        }
    }
    Err(format!(
        "none of {} on PATH (or set {var})",
        names.join(", ")
    ))
}

/// A regular file with an execute bit (on Unix; any file elsewhere).
fn is_program(p: &Path) -> bool {
    let Ok(meta) = std::fs::metadata(p) else {
        return false;
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        meta.is_file() && meta.permissions().mode() & 0o111 != 0
    }
    #[cfg(not(unix))]
    {
        meta.is_file()
    }
}
