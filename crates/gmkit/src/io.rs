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

/// Deepest JSON nesting accepted by [`parse_json`]: enough for the tagged form of the deepest
/// data the formats allow (256 nested ds_* arrays at two JSON levels each; 512 nested Elephant
/// structs at up to four levels each).
pub const MAX_JSON_DEPTH: usize = 4096;

/// Parses JSON that may nest deeper than serde_json's default limit of 128.
///
/// The nesting depth is measured first with a linear scan, so that a hostile document cannot
/// overflow the stack; only then is the recursion limit lifted.
pub fn parse_json(bytes: &[u8]) -> Result<serde_json::Value, String> {
    let (mut depth, mut max, mut in_str, mut escaped) = (0usize, 0usize, false, false);
    for &c in bytes {
        if in_str {
            match c {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_str = false,
                _ => {}
            }
            continue;
        }
        match c {
            b'"' => in_str = true,
            b'[' | b'{' => {
                depth += 1;
                max = max.max(depth);
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    if max > MAX_JSON_DEPTH {
        return Err(format!(
            "JSON nested {max} levels deep: expected at most {MAX_JSON_DEPTH}"
        ));
    }
    let mut de = serde_json::Deserializer::from_slice(bytes);
    de.disable_recursion_limit();
    let v =
        serde::Deserialize::deserialize(&mut de).map_err(|e| format!("input is not JSON: {e}"))?;
    de.end().map_err(|e| format!("input is not JSON: {e}"))?;
    Ok(v)
}

/// Reads a JSON document from a file or standard input (`-`), as [`parse_json`] does; the error
/// is the exit code to use ([`crate::exit::IO`] or [`crate::exit::FAILED`]) and a message naming
/// the input.
pub fn read_json(path: &str) -> Result<serde_json::Value, (u8, String)> {
    let bytes = read_input(path).map_err(|e| (crate::exit::IO, format!("{path}: {e}")))?;
    parse_json(&bytes).map_err(|e| (crate::exit::FAILED, format!("{path}: {e}")))
}

/// Writes `bytes` to standard output and flushes; a closed pipe or a full disk is an error
/// (never a panic, unlike `print!`).
pub fn write_stdout(bytes: &[u8]) -> std::io::Result<()> {
    let mut out = std::io::stdout().lock();
    out.write_all(bytes).and_then(|_| out.flush())
}

/// Prints a JSON document to standard output (pretty, or on one line with `compact`); returns
/// the exit code ([`crate::exit::IO`] when standard output cannot be written, e.g. a full
/// disk; a closed pipe ends the process quietly, see [`stdout_error`]).
pub fn print_json(j: &serde_json::Value, compact: bool) -> u8 {
    let text = if compact {
        j.to_string()
    } else {
        serde_json::to_string_pretty(j).unwrap_or_else(|_| j.to_string())
    };
    match write_stdout(format!("{text}\n").as_bytes()) {
        Ok(()) => crate::exit::OK,
        Err(e) => stdout_error("gmkit", &e),
    }
}

/// How the standard library words a closed pipe (`EPIPE`) in the message of a failed `print!`.
pub const BROKEN_PIPE_TEXT: &str = "Broken pipe";

/// Ends the process quietly because standard output's reader has gone (`gmkit ls x | head`):
/// no message, exit status 0, as the reader asked for no more.
pub fn closed_pipe() -> ! {
    std::process::exit(i32::from(crate::exit::OK))
}

/// The exit code for a failed write to standard output, after saying so on one line
/// (`<who>: stdout: <error>`); a closed pipe ends the process quietly instead ([`closed_pipe`]).
pub fn stdout_error(who: &str, e: &std::io::Error) -> u8 {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        closed_pipe();
    }
    eprintln!("{who}: stdout: {e}");
    crate::exit::IO
}

/// The message for an error opening or parsing data file `path`: the error's own text when it
/// names the file already (I/O errors), else the path, a colon and the text.
pub fn file_error(path: &std::path::Path, e: &gmkit_data::Error) -> String {
    if e.names_the_file() {
        e.to_string()
    } else {
        format!("{}: {e}", path.display())
    }
}
