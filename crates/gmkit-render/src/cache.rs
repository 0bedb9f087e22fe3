//! Texture pages decoded on demand, kept in a small cache the caller owns.
//!
//! A room draws from a few pages; a 1 GB game has hundreds. [`PageCache`] decodes a page the
//! first time a draw needs it and keeps the decoded pages within a byte budget, dropping the
//! least recently used page when a new one would not fit. The size a page declares in its
//! header is checked before it is decoded, so a page that could never fit is refused without
//! allocating anything.
//!
//! One cache serves one data file: after editing a page, or to reuse the cache for another
//! file, call [`PageCache::clear`] (or [`PageCache::forget`] for one page).

use gmkit_data::chunks::texture::Textures;
use gmkit_media::Image;

/// Default byte budget of a [`PageCache`]: 256 MiB of decoded RGBA, one largest page
/// (8192 × 8192) or eight 2048 × 4096 pages (the corpus's largest).
pub const DEFAULT_BUDGET: u64 = gmkit_media::budget::MAX_IMAGE_BYTES;

/// One decoded page.
struct Entry {
    page: usize,
    image: Image,
    bytes: u64,
    last_use: u64,
}

/// Decoded texture pages of one data file, within a byte budget (least recently used page
/// dropped first).
///
/// ```
/// let mut cache = gmkit_render::PageCache::new(64 << 20);
/// assert_eq!(cache.bytes(), 0);
/// assert_eq!(cache.decoded(), 0);
/// ```
pub struct PageCache {
    budget: u64,
    entries: Vec<Entry>,
    clock: u64,
    decoded: u64,
}

impl Default for PageCache {
    /// A cache of [`DEFAULT_BUDGET`] bytes.
    fn default() -> Self {
        PageCache::new(DEFAULT_BUDGET)
    }
}

impl PageCache {
    /// An empty cache keeping at most `budget` bytes of decoded pages.
    pub fn new(budget: u64) -> Self {
        PageCache {
            budget,
            entries: Vec::new(),
            clock: 0,
            decoded: 0,
        }
    }

    /// The byte budget.
    pub fn budget(&self) -> u64 {
        self.budget
    }

    /// Bytes of decoded pages kept now.
    pub fn bytes(&self) -> u64 {
        self.entries.iter().map(|e| e.bytes).sum()
    }

    /// How many pages this cache has decoded since it was made (a page dropped and needed again
    /// counts again).
    pub fn decoded(&self) -> u64 {
        self.decoded
    }

    /// The indices of the pages kept now.
    pub fn pages(&self) -> Vec<usize> {
        self.entries.iter().map(|e| e.page).collect()
    }

    /// Drops every decoded page.
    pub fn clear(&mut self) {
        self.entries.clear();
    }

    /// Drops page `page` (after it was edited).
    pub fn forget(&mut self, page: usize) {
        self.entries.retain(|e| e.page != page);
    }

    /// The decoded page `page` of `textures`, decoding it now when it is not kept (dropping
    /// the least recently used pages to make room). Errors say why the page cannot be drawn
    /// from: missing, external, an unsupported format, damaged, or larger than the budget.
    pub fn get(&mut self, textures: &Textures, page: usize) -> Result<&Image, String> {
        self.clock += 1;
        let now = self.clock;
        if let Some(i) = self.entries.iter().position(|e| e.page == page) {
            let e = &mut self.entries[i];
            e.last_use = now;
            return Ok(&e.image);
        }
        let record = textures
            .pages
            .get(page)
            .and_then(Option::as_ref)
            .ok_or_else(|| format!("texture page {page} does not exist"))?;
        let blob = record
            .blob()
            .ok_or_else(|| format!("texture page {page} is external (not in the data file)"))?;
        let (w, h) = gmkit_media::declared_size(blob).map_err(|e| format!("page {page}: {e}"))?;
        gmkit_media::budget::check_image(w, h).map_err(|e| format!("page {page}: {e}"))?;
        let bytes = gmkit_media::budget::rgba_bytes(w, h);
        if bytes > self.budget {
            return Err(format!(
                "texture page {page} ({w}×{h}) is larger than the page cache's budget of {} bytes",
                self.budget
            ));
        }
        while self.bytes() + bytes > self.budget {
            let Some(oldest) = self
                .entries
                .iter()
                .enumerate()
                .min_by_key(|(_, e)| e.last_use)
                .map(|(i, _)| i)
            else {
                break;
            };
            self.entries.swap_remove(oldest);
        }
        let image = gmkit_media::decode(blob).map_err(|e| format!("page {page}: {e}"))?;
        self.decoded += 1;
        let bytes = gmkit_media::budget::rgba_bytes(image.width(), image.height());
        self.entries.push(Entry {
            page,
            image,
            bytes,
            last_use: now,
        });
        Ok(&self.entries.last().expect("just pushed").image)
    }
}
