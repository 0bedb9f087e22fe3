//! Safe input and output helpers shared by all subcommands.
//!
//! Outputs are never written in place: [`write_atomic`] writes a temporary file beside the target,
//! lets the caller verify it, and renames it over the target only when that check passes.

use std::fs;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// Reads a whole input: a file path, or standard input for `-`.
pub fn read_input(path: &str) -> std::io::Result<Vec<u8>> {
    if path == "-" {
        let mut buf = Vec::new();
        std::io::stdin().read_to_end(&mut buf)?;
        Ok(buf)
    } else {
        fs::read(path)
    }
}

/// Writes `data` to `target` through a temporary file in the same directory.
///
/// `verify` is called with the bytes as written (re-read from the temporary file); when it returns
/// an error the temporary file is removed and the target is left untouched.
pub fn write_atomic(
    target: &Path,
    data: &[u8],
    verify: impl FnOnce(&[u8]) -> Result<(), String>,
) -> Result<(), String> {
    let dir = target
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = target
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "output".into());
    let tmp: PathBuf = dir.join(format!(".{name}.gmkit-tmp-{}", std::process::id()));
    let result = (|| {
        let mut f = fs::File::create(&tmp).map_err(|e| format!("{}: {e}", tmp.display()))?;
        f.write_all(data)
            .and_then(|_| f.sync_all())
            .map_err(|e| format!("{}: {e}", tmp.display()))?;
        drop(f);
        let back = fs::read(&tmp).map_err(|e| format!("{}: {e}", tmp.display()))?;
        verify(&back).map_err(|e| format!("refusing to write {}: {e}", target.display()))?;
        fs::rename(&tmp, target).map_err(|e| format!("{}: {e}", target.display()))
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}
