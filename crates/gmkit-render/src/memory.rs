//! The canvas's memory: a zeroed picture buffer, backed by huge pages when it is large.
//!
//! A room picture is tens of megabytes (4096 × 4096 RGBA is 64 MiB). The allocator hands such
//! a buffer out as fresh pages the kernel zeroes on first touch; with 4 KiB pages that is one
//! page fault per 4 KiB, which costs more than drawing a large room. On Linux the buffer is
//! marked for transparent huge pages (`MADV_HUGEPAGE`, honoured when the system's
//! `transparent_hugepage` setting is `madvise` or `always`): one fault per 2 MiB.

/// Buffers from this size (bytes) are marked for huge pages.
const HUGE_FROM: usize = 8 << 20;

/// A zeroed buffer of `len` bytes for a picture.
pub fn zeroed(len: usize) -> Vec<u8> {
    let buf = vec![0u8; len];
    #[cfg(target_os = "linux")]
    if len >= HUGE_FROM {
        advise_huge_pages(&buf);
    }
    buf
}

/// Asks the kernel to back the whole pages inside `buf` with huge pages (a hint: nothing
/// changes when it cannot).
#[cfg(target_os = "linux")]
fn advise_huge_pages(buf: &[u8]) {
    // SAFETY: sysconf only reads a system constant.
    let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    let Ok(page) = usize::try_from(page) else {
        return;
    };
    if !page.is_power_of_two() {
        return;
    }
    let start = buf.as_ptr() as usize;
    let first = start.next_multiple_of(page);
    let end = (start + buf.len()) & !(page - 1);
    if end > first {
        // SAFETY: [first, end) lies inside `buf`, memory this function's caller owns;
        // MADV_HUGEPAGE changes only how the kernel backs those pages, never their contents.
        unsafe { libc::madvise(first as *mut libc::c_void, end - first, libc::MADV_HUGEPAGE) };
    }
}

#[cfg(test)]
mod tests {
    /// The buffer is zeroed whatever its size (the hint changes no byte).
    #[test]
    fn zeroed_is_zero() {
        for len in [0, 1, 4095, super::HUGE_FROM + 12345] {
            let b = super::zeroed(len);
            assert_eq!(b.len(), len);
            assert!(b.iter().all(|&v| v == 0));
        }
    }
}
