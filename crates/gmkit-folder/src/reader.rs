//! The one place that reads files from disk for pack, diff and import: regular files only,
//! each within a size limit.
//!
//! A folder someone shared is untrusted. [`Folder::read_dir`](crate::Folder::read_dir) reads
//! only regular files that lie inside the folder: a symbolic link (which could lead to
//! `/etc/passwd` or `/dev/zero`), a FIFO (which would block forever), a device or a socket is an
//! error naming the file. Files are opened without following a link and without blocking
//! (`O_NOFOLLOW | O_NONBLOCK` on Unix) and checked again on the open handle, so a file swapped
//! for a link after the directory listing is refused too. Each file is read through a reader
//! capped at its limit plus one byte, so a file that grows while being read cannot exceed it.

use crate::error::{Error, Result, one_line};
use std::io::Read;
use std::path::Path;

/// Largest text file of a folder (`.json`, `.asm`, `.gml`, `.txt`): far above any real asset
/// (a whole game's string table is a few MB), far below what would strain memory once parsed.
pub const MAX_TEXT_FILE: u64 = 16 << 20;
/// Largest binary file of a folder (a texture page, an audio file, a frame PNG).
pub const MAX_BINARY_FILE: u64 = 256 << 20;
/// Deepest directory nesting read (the layout needs 5: `audiogroups/X/sprites/S/0.png`).
pub const MAX_DEPTH: usize = 16;
/// Most files read from one folder.
pub const MAX_FILES: usize = 1_000_000;

/// The size limit of a folder file, by its name: [`MAX_TEXT_FILE`] for text, otherwise
/// [`MAX_BINARY_FILE`].
pub fn limit_for(name: &str) -> u64 {
    let ext = name.rsplit_once('.').map_or("", |(_, e)| e);
    if ["json", "asm", "gml", "txt"]
        .iter()
        .any(|t| ext.eq_ignore_ascii_case(t))
    {
        MAX_TEXT_FILE
    } else {
        MAX_BINARY_FILE
    }
}

/// Whether a path given on the command line may be a symbolic link.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Links {
    /// Refuse a link (a file inside a folder: a link could lead out of it).
    Refuse,
    /// Follow it (a path the user named explicitly); the target must still be a regular file.
    Follow,
}

/// Reads the regular file at `path`, at most `limit` bytes; errors name it as `shown`.
pub fn read_file(path: &Path, shown: &str, limit: u64, links: Links) -> Result<Vec<u8>> {
    let err = |m: String| Error::new(shown, "", m);
    let file = open(path, links).map_err(|e| {
        if e.raw_os_error() == Some(ELOOP) {
            err("expected a regular file, found a symbolic link (pack reads only files inside the folder)".into())
        } else {
            err(format!("cannot open: {e}"))
        }
    })?;
    let meta = file
        .metadata()
        .map_err(|e| err(format!("cannot stat: {e}")))?;
    if !meta.is_file() {
        return Err(err(format!(
            "expected a regular file, found {}",
            kind_name(&meta.file_type())
        )));
    }
    if meta.len() > limit {
        return Err(err(too_large(limit, meta.len().to_string())));
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| err(format!("cannot read: {e}")))?;
    if bytes.len() as u64 > limit {
        return Err(err(too_large(limit, format!("over {limit}"))));
    }
    Ok(bytes)
}

/// Reads a file named on the command line (`import --page 0=page.png`): links are followed,
/// the target must be a regular file within the limit for its name ([`limit_for`]).
pub fn read_input(path: &Path) -> Result<Vec<u8>> {
    let shown = one_line(&path.display().to_string(), crate::error::MAX_PART);
    let limit = limit_for(&path.to_string_lossy());
    read_file(path, &shown, limit, Links::Follow)
}

/// Checks the size of a file read later (its length from the directory listing) against the
/// limit for its name, so a folder too large is refused when read, as [`read_file`] would.
pub(crate) fn check_size(path: &Path, shown: &str) -> Result<()> {
    let limit = limit_for(shown);
    let meta = std::fs::symlink_metadata(path)
        .map_err(|e| Error::new(shown, "", format!("cannot stat: {e}")))?;
    if meta.len() > limit {
        return Err(Error::new(
            shown,
            "",
            too_large(limit, meta.len().to_string()),
        ));
    }
    Ok(())
}

fn too_large(limit: u64, found: String) -> String {
    format!(
        "expected at most {} MiB ({limit} bytes) for a file of this kind, found {found} bytes",
        limit >> 20
    )
}

/// What a file that is not regular is, for messages.
pub(crate) fn kind_name(t: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if t.is_char_device() || t.is_block_device() {
            return "a device";
        }
        if t.is_socket() {
            return "a socket";
        }
    }
    if t.is_symlink() {
        "a symbolic link (pack reads only files inside the folder)"
    } else if t.is_dir() {
        "a directory"
    } else {
        "something other than a regular file"
    }
}

#[cfg(unix)]
const ELOOP: i32 = libc::ELOOP;
#[cfg(not(unix))]
const ELOOP: i32 = -1;

#[cfg(unix)]
fn open(path: &Path, links: Links) -> std::io::Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    let nofollow = match links {
        Links::Refuse => libc::O_NOFOLLOW,
        Links::Follow => 0,
    };
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(nofollow | libc::O_NONBLOCK)
        .open(path)
}

#[cfg(not(unix))]
fn open(path: &Path, links: Links) -> std::io::Result<std::fs::File> {
    if links == Links::Refuse && std::fs::symlink_metadata(path)?.file_type().is_symlink() {
        return Err(std::io::Error::other("a symbolic link"));
    }
    std::fs::File::open(path)
}
