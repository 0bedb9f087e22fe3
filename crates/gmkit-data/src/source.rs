//! The file a model was parsed from: a memory map that a change on disk cannot turn into a
//! crash, and the file's identity, so that building from a model whose file changed under it
//! is an error instead of a silently wrong output.
//!
//! A model parsed from disk keeps its payloads (texture pages, audio, strings) as views of a
//! memory map of the file, so that a 1 GB game parses in a fraction of a second with a small
//! resident set. Two things can go wrong with a map while the model lives:
//!
//! - another process truncates the file: touching a page past the new end raises `SIGBUS`,
//!   which kills the process;
//! - the file is rewritten in place (`std::fs::write(path, ..)` truncates and writes the same
//!   inode): the views now show the new content at the old offsets.
//!
//! On Linux the map is *guarded*: a `SIGBUS` handler, installed once, replaces a faulting page
//! of a guarded map by a page of zeros and records the fault, so reads past a truncation see
//! zeros instead of killing the process (faults elsewhere go to the handler that was there
//! before). And the file's identity (size, inode and modification time) is taken when
//! it is opened; [`Source::check`] compares it with the open file, and the builders call it
//! before and after reading the payloads, so a model whose file changed refuses to build.
//! Elsewhere the safe entry points read the file into memory.

use crate::error::{Error, ErrorKind, Result};
use bytes::Bytes;
use std::fs::File;
use std::path::{Path, PathBuf};

/// What identifies a file's content without reading it.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Stamp {
    len: u64,
    modified: Option<std::time::SystemTime>,
    #[cfg(unix)]
    ids: (u64, u64),
}

impl Stamp {
    fn of(file: &File) -> std::io::Result<Stamp> {
        let m = file.metadata()?;
        #[cfg(unix)]
        let ids = {
            use std::os::unix::fs::MetadataExt;
            (m.dev(), m.ino())
        };
        Ok(Stamp {
            len: m.len(),
            modified: m.modified().ok(),
            #[cfg(unix)]
            ids,
        })
    }
}

/// The file a model was read from (see the module documentation).
#[derive(Debug)]
pub struct Source {
    file: File,
    path: PathBuf,
    stamp: Stamp,
    #[cfg(target_os = "linux")]
    region: Option<std::sync::Arc<guard::Region>>,
}

impl Source {
    /// The path the file was opened at.
    ///
    /// ```
    /// let path = std::env::temp_dir().join(format!("gmkit-doc-source-path-{}.win", std::process::id()));
    /// gmkit_data::build_file(&gmkit_data::sample(), &path).unwrap();
    /// let data = gmkit_data::parse_file(&path).unwrap();
    /// assert_eq!(data.layout.source.as_ref().unwrap().path(), path.as_path());
    /// # std::fs::remove_file(&path).unwrap();
    /// ```
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// `Ok` while the file is as it was when opened: same size, device, inode and modification
    /// time (a write or truncation sets it; not the change time, which unlinking the file by a
    /// rename over it also sets), and no read of the map past its end. Otherwise an [`ErrorKind::SourceChanged`]
    /// naming the file and what changed.
    ///
    /// ```
    /// let path = std::env::temp_dir().join(format!("gmkit-doc-source-check-{}.win", std::process::id()));
    /// gmkit_data::build_file(&gmkit_data::sample(), &path).unwrap();
    /// let data = gmkit_data::parse_file(&path).unwrap();
    /// let source = data.layout.source.as_ref().unwrap();
    /// assert!(source.check().is_ok());
    /// std::fs::write(&path, b"changed").unwrap();
    /// assert!(source.check().is_err());
    /// # std::fs::remove_file(&path).unwrap();
    /// ```
    pub fn check(&self) -> Result<()> {
        #[cfg(target_os = "linux")]
        if self.region.as_ref().is_some_and(|r| r.faulted()) {
            return Err(self.changed("it was truncated under the model (a read past its end)"));
        }
        match Stamp::of(&self.file) {
            Ok(now) if now == self.stamp => Ok(()),
            Ok(now) if now.len != self.stamp.len => Err(self.changed(&format!(
                "its size went from {} to {} bytes",
                self.stamp.len, now.len
            ))),
            Ok(_) => Err(self.changed("it was modified")),
            Err(e) => Err(self.changed(&format!("it cannot be examined: {e}"))),
        }
    }

    fn changed(&self, what: &str) -> Error {
        Error::at(
            0,
            ErrorKind::SourceChanged(format!(
                "{} changed on disk since it was parsed ({what}); the model's payloads and \
                 strings are views of it: parse it again",
                self.path.display()
            )),
        )
    }
}

/// An I/O error about `path`, saying what the path is when it is not a file.
pub(crate) fn io_error(path: &Path, e: std::io::Error) -> Error {
    let shown = path.display();
    let text = if path.is_dir() {
        format!("{shown} is a directory, not a data file")
    } else {
        format!("{shown}: {e}")
    };
    Error::at(0, ErrorKind::Io(text))
}

/// Opens `path` for reading, refusing a directory by name.
fn open(path: &Path) -> Result<File> {
    if path.is_dir() {
        return Err(io_error(path, std::io::ErrorKind::IsADirectory.into()));
    }
    File::open(path).map_err(|e| io_error(path, e))
}

/// The bytes of `path` and the file they came from: a guarded map on Linux, the contents read
/// into memory elsewhere (or when no guard slot is free). The second file handle is for reads
/// beside payloads (see `ReadCtx::file`).
pub(crate) fn open_guarded(path: &Path) -> Result<(Bytes, Source, File)> {
    let file = open(path)?;
    let stamp = Stamp::of(&file).map_err(|e| io_error(path, e))?;
    let reader = file.try_clone().map_err(|e| io_error(path, e))?;
    #[cfg(target_os = "linux")]
    if let Some((bytes, region)) = guard::map(&file).map_err(|e| io_error(path, e))? {
        let source = Source {
            file,
            path: path.to_owned(),
            stamp,
            region: Some(region),
        };
        return Ok((bytes, source, reader));
    }
    let bytes = read_all(&file, stamp.len).map_err(|e| io_error(path, e))?;
    let source = Source {
        file,
        path: path.to_owned(),
        stamp,
        #[cfg(target_os = "linux")]
        region: None,
    };
    Ok((bytes, source, reader))
}

/// Reads a whole file (sized from its metadata, growing if it grew).
fn read_all(mut file: &File, len: u64) -> std::io::Result<Bytes> {
    use std::io::Read;
    let mut v = Vec::with_capacity(usize::try_from(len).unwrap_or(0));
    file.read_to_end(&mut v)?;
    Ok(Bytes::from(v))
}

/// A plain read-only map of `path` (no guard, no identity).
///
/// # Safety
/// As [`crate::parse_file_mapped`]: the file must not be truncated or modified while the bytes
/// live.
pub(crate) unsafe fn map_unguarded(path: &Path) -> Result<(Bytes, File)> {
    let file = open(path)?;
    // SAFETY: the caller promises the file stays as it is while the map lives.
    let map = unsafe { memmap2::Mmap::map(&file) }.map_err(|e| io_error(path, e))?;
    Ok((Bytes::from_owner(map), file))
}

#[cfg(target_os = "linux")]
mod guard {
    //! The `SIGBUS` guard: a table of guarded ranges, read by the signal handler.
    use bytes::Bytes;
    use std::fs::File;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    use std::sync::{Arc, Once, OnceLock};

    /// At most this many guarded maps live at once (more are read into memory instead): enough
    /// for every payload file of a large unpacked game (pack maps each texture page and audio
    /// file of the folder, see `gmkit-folder`).
    const SLOTS: usize = 16384;

    #[allow(clippy::declare_interior_mutable_const)]
    const ZERO: AtomicUsize = AtomicUsize::new(0);
    #[allow(clippy::declare_interior_mutable_const)]
    const NO: AtomicBool = AtomicBool::new(false);
    /// Start of each guarded range (0: free).
    static STARTS: [AtomicUsize; SLOTS] = [ZERO; SLOTS];
    /// End of each guarded range.
    static ENDS: [AtomicUsize; SLOTS] = [ZERO; SLOTS];
    /// Whether a slot is taken (claimed before its range is published).
    static TAKEN: [AtomicBool; SLOTS] = [NO; SLOTS];
    /// Whether a read of the range faulted (the file was truncated under it).
    static FAULTED: [AtomicBool; SLOTS] = [NO; SLOTS];
    /// Where the search for a free slot starts (after the last slot taken).
    static HINT: AtomicUsize = AtomicUsize::new(0);
    /// The page size.
    static PAGE: AtomicUsize = AtomicUsize::new(4096);
    /// The `SIGBUS` disposition before ours.
    static PREVIOUS: OnceLock<libc::sigaction> = OnceLock::new();
    static INSTALL: Once = Once::new();
    /// Whether the handler is in place.
    static INSTALLED: AtomicBool = AtomicBool::new(false);

    /// A guarded range's slot; freed when the map and the model's [`super::Source`] are gone.
    #[derive(Debug)]
    pub(super) struct Region {
        slot: usize,
    }

    impl Region {
        /// Whether a read of the range faulted.
        pub(super) fn faulted(&self) -> bool {
            FAULTED[self.slot].load(Ordering::Acquire)
        }
    }

    impl Drop for Region {
        fn drop(&mut self) {
            STARTS[self.slot].store(0, Ordering::Release);
            ENDS[self.slot].store(0, Ordering::Release);
            FAULTED[self.slot].store(false, Ordering::Release);
            TAKEN[self.slot].store(false, Ordering::Release);
        }
    }

    /// A map and its slot: the range is unpublished before the map is unmapped, and the slot
    /// is freed when the last of this and the `Source` is gone.
    struct Guarded {
        map: memmap2::Mmap,
        _region: Arc<Region>,
    }

    impl Drop for Guarded {
        fn drop(&mut self) {
            // Unpublished before the map goes: its addresses may be reused by other maps.
            let slot = self._region.slot;
            STARTS[slot].store(0, Ordering::Release);
            ENDS[slot].store(0, Ordering::Release);
        }
    }

    impl AsRef<[u8]> for Guarded {
        fn as_ref(&self) -> &[u8] {
            &self.map
        }
    }

    /// Maps `file` read-only under the guard; `None` when the guard cannot be had (no free
    /// slot, or the handler could not be installed).
    pub(super) fn map(file: &File) -> std::io::Result<Option<(Bytes, Arc<Region>)>> {
        install();
        if !INSTALLED.load(Ordering::Acquire) {
            return Ok(None);
        }
        let from = HINT.load(Ordering::Relaxed);
        let Some(slot) = (0..SLOTS).map(|k| (from + k) % SLOTS).find(|&i| {
            TAKEN[i]
                .compare_exchange(false, true, Ordering::AcqRel, Ordering::Relaxed)
                .is_ok()
        }) else {
            return Ok(None);
        };
        HINT.store((slot + 1) % SLOTS, Ordering::Relaxed);
        let region = Arc::new(Region { slot });
        // SAFETY: a read-only map; truncation of the file under it is made harmless by the
        // handler (a faulting page becomes zeros), and changes are caught by `Source::check`.
        let map = unsafe { memmap2::Mmap::map(file)? };
        let start = map.as_ptr() as usize;
        if start != 0 && !map.is_empty() {
            ENDS[slot].store(start + map.len(), Ordering::Release);
            STARTS[slot].store(start, Ordering::Release);
        }
        let guarded = Guarded {
            map,
            _region: region.clone(),
        };
        Ok(Some((Bytes::from_owner(guarded), region)))
    }

    /// Installs the handler once.
    fn install() {
        INSTALL.call_once(|| {
            // SAFETY: plain libc calls on zeroed structs; the handler only touches atomics,
            // calls `mmap` (a system call) and `sigaction`, or the previous handler.
            unsafe {
                let page = libc::sysconf(libc::_SC_PAGESIZE);
                if page > 0 {
                    PAGE.store(page as usize, Ordering::Relaxed);
                }
                let mut previous: libc::sigaction = std::mem::zeroed();
                if libc::sigaction(libc::SIGBUS, std::ptr::null(), &mut previous) != 0 {
                    return;
                }
                let _ = PREVIOUS.set(previous);
                let mut action: libc::sigaction = std::mem::zeroed();
                action.sa_sigaction = on_sigbus as *const () as usize;
                action.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK;
                libc::sigemptyset(&mut action.sa_mask);
                if libc::sigaction(libc::SIGBUS, &action, std::ptr::null_mut()) == 0 {
                    INSTALLED.store(true, Ordering::Release);
                }
            }
        });
    }

    /// The handler: a fault inside a guarded range gets a page of zeros in place of the lost
    /// one (the read is retried on return); any other goes to the previous disposition.
    extern "C" fn on_sigbus(sig: libc::c_int, info: *mut libc::siginfo_t, ctx: *mut libc::c_void) {
        // SAFETY: the kernel passes a valid `siginfo_t` to an `SA_SIGINFO` handler.
        let addr = unsafe { (*info).si_addr() } as usize;
        let page = PAGE.load(Ordering::Relaxed);
        for slot in 0..SLOTS {
            let start = STARTS[slot].load(Ordering::Acquire);
            if start == 0 || addr < start || addr >= ENDS[slot].load(Ordering::Acquire) {
                continue;
            }
            let at = addr & !(page - 1);
            // SAFETY: replaces one page of a live read-only map of ours (its owner is alive
            // while a read of it runs) by anonymous zeros; munmap of the whole map later
            // unmaps it too.
            let r = unsafe {
                libc::mmap(
                    at as *mut libc::c_void,
                    page,
                    libc::PROT_READ,
                    libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_FIXED,
                    -1,
                    0,
                )
            };
            if r != libc::MAP_FAILED {
                FAULTED[slot].store(true, Ordering::Release);
                return;
            }
        }
        // Not ours: what was there before (or the default action, which ends the process
        // when the faulting read is retried).
        match PREVIOUS.get() {
            Some(p) if p.sa_sigaction != libc::SIG_DFL && p.sa_sigaction != libc::SIG_IGN => {
                if p.sa_flags & libc::SA_SIGINFO != 0 {
                    // SAFETY: a handler installed with `SA_SIGINFO` has this signature.
                    let f: extern "C" fn(libc::c_int, *mut libc::siginfo_t, *mut libc::c_void) =
                        unsafe { std::mem::transmute(p.sa_sigaction) };
                    f(sig, info, ctx);
                } else {
                    // SAFETY: a handler installed without `SA_SIGINFO` has this signature.
                    let f: extern "C" fn(libc::c_int) =
                        unsafe { std::mem::transmute(p.sa_sigaction) };
                    f(sig);
                }
            }
            _ => {
                // SAFETY: resets the disposition to the default with a zeroed action.
                unsafe {
                    let mut dfl: libc::sigaction = std::mem::zeroed();
                    dfl.sa_sigaction = libc::SIG_DFL;
                    libc::sigaction(libc::SIGBUS, &dfl, std::ptr::null_mut());
                }
            }
        }
    }
}
