//! The memory budget for decoded images: how large one image may be, and how many decoded bytes
//! may be alive at once.
//!
//! Image sizes come from the input (a page's header, a sprite's width and height, a PNG's
//! `IHDR`), and a few bytes can declare gigabytes: an 84-byte `2zoq` page can describe a 1 GiB
//! image. Every size is therefore checked against the budget *before* anything is allocated:
//!
//! - per image: at most [`MAX_IMAGE_BYTES`] of RGBA ([`check_image`]); every decoder and
//!   [`crate::Image`] constructor checks it from the declared size first;
//! - in total: a [`Budget`] counts the decoded bytes alive at once (pages of a
//!   [`crate::frame::Pages`] cache, frames being cut); [`Budget::reserve`] refuses an image that
//!   would take the total past its limit, [`Budget::wait_for`] waits until the bytes are free
//!   (for work spread over threads whose images are dropped when done).
//!
//! ```
//! use gmkit_media::budget::{Budget, MAX_IMAGE_BYTES, check_image};
//! assert!(check_image(8192, 8192).is_ok()); // 256 MiB
//! assert!(check_image(16384, 16384).is_err()); // 1 GiB: refused before any allocation
//! let budget = Budget::new(100 << 20);
//! let a = budget.reserve(4096, 4096)?; // 64 MiB
//! assert!(budget.reserve(4096, 4096).is_err()); // 128 MiB alive: over the limit
//! drop(a);
//! assert!(budget.reserve(4096, 4096).is_ok());
//! # Ok::<(), gmkit_media::Error>(())
//! ```

use crate::Error;
use std::sync::{Condvar, Mutex};

/// Largest image gmkit decodes or creates: 256 MiB of RGBA (8192 × 8192). GameMaker's largest
/// texture page is 8192 × 8192; the corpus's largest is 2048 × 4096.
pub const MAX_IMAGE_BYTES: u64 = 256 << 20;

/// Decoded bytes a [`Budget::default`] lets be alive at once: one largest page and two largest
/// frames being cut from it.
pub const MAX_LIVE_BYTES: u64 = 3 * MAX_IMAGE_BYTES;

/// Bytes of a `width × height` RGBA8 image (saturating: `u32 × u32 × 4` can pass `u64::MAX`).
pub fn rgba_bytes(width: u32, height: u32) -> u64 {
    (width as u64 * height as u64).saturating_mul(4)
}

/// Checks that a `width × height` RGBA image fits the per-image budget ([`MAX_IMAGE_BYTES`]).
pub fn check_image(width: u32, height: u32) -> Result<(), Error> {
    let bytes = rgba_bytes(width, height);
    if bytes > MAX_IMAGE_BYTES {
        return Err(Error::OverBudget {
            width,
            height,
            bytes,
            limit: MAX_IMAGE_BYTES,
            what: "per-image",
        });
    }
    Ok(())
}

/// A count of the decoded bytes alive at once, with a limit. Shared by reference between
/// threads; each [`Grant`] gives its bytes back when dropped.
#[derive(Debug)]
pub struct Budget {
    limit: u64,
    used: Mutex<u64>,
    freed: Condvar,
}

impl Default for Budget {
    /// A budget of [`MAX_LIVE_BYTES`].
    fn default() -> Self {
        Budget::new(MAX_LIVE_BYTES)
    }
}

impl Budget {
    /// A budget of `limit` bytes alive at once.
    pub fn new(limit: u64) -> Self {
        Budget {
            limit,
            used: Mutex::new(0),
            freed: Condvar::new(),
        }
    }

    /// The limit in bytes.
    pub fn limit(&self) -> u64 {
        self.limit
    }

    /// Bytes granted and not yet given back.
    pub fn in_use(&self) -> u64 {
        *self.used.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Reserves a `width × height` RGBA image, or says why not: over the per-image budget, or
    /// over what is left of this budget now.
    pub fn reserve(&self, width: u32, height: u32) -> Result<Grant<'_>, Error> {
        check_image(width, height)?;
        let bytes = rgba_bytes(width, height);
        let mut used = self.used.lock().unwrap_or_else(|e| e.into_inner());
        if used.saturating_add(bytes) > self.limit {
            return Err(Error::OverBudget {
                width,
                height,
                bytes: used.saturating_add(bytes),
                limit: self.limit,
                what: "live (decoded images alive at once)",
            });
        }
        *used += bytes;
        Ok(Grant {
            budget: self,
            bytes,
        })
    }

    /// Reserves a `width × height` RGBA image, waiting for other grants to be dropped when the
    /// budget is short. Fails (without waiting) only when the image could never fit: over the
    /// per-image budget or over the whole limit.
    ///
    /// Only for work whose grants are dropped without waiting on this budget themselves (for
    /// example frames cut in parallel, each dropped once encoded).
    pub fn wait_for(&self, width: u32, height: u32) -> Result<Grant<'_>, Error> {
        check_image(width, height)?;
        let bytes = rgba_bytes(width, height);
        if bytes > self.limit {
            return Err(Error::OverBudget {
                width,
                height,
                bytes,
                limit: self.limit,
                what: "live (decoded images alive at once)",
            });
        }
        let mut used = self.used.lock().unwrap_or_else(|e| e.into_inner());
        while *used + bytes > self.limit {
            used = self.freed.wait(used).unwrap_or_else(|e| e.into_inner());
        }
        *used += bytes;
        Ok(Grant {
            budget: self,
            bytes,
        })
    }
}

/// Bytes reserved from a [`Budget`]; given back when dropped.
#[derive(Debug)]
#[must_use = "the bytes are given back as soon as the grant is dropped"]
pub struct Grant<'a> {
    budget: &'a Budget,
    bytes: u64,
}

impl Grant<'_> {
    /// The bytes reserved.
    pub fn bytes(&self) -> u64 {
        self.bytes
    }
    /// Keeps the bytes counted for the rest of the budget's life (for a cache whose images live
    /// as long as its budget).
    pub fn keep(self) {
        std::mem::forget(self);
    }
}

impl Drop for Grant<'_> {
    fn drop(&mut self) {
        let mut used = self.budget.used.lock().unwrap_or_else(|e| e.into_inner());
        *used = used.saturating_sub(self.bytes);
        self.budget.freed.notify_all();
    }
}

/// Mebibytes, rounded up, for messages.
pub(crate) fn mib(bytes: u64) -> u64 {
    bytes.div_ceil(1 << 20)
}
