//! Tile layers: a grid of tile values, stored raw before 2024.2 and run-length encoded since.
//!
//! RLE (2024.2+): a byte ≥ 128 means "repeat the next u32 (byte − 127) times", a byte < 128
//! means "that many literal u32s follow". GameMaker's encoder ends with an extra run of two
//! `0xFFFFFFFF` tiles when the last two tiles differ. From 2024.4 the data is padded to 4 bytes.

use crate::error::{Error, Result};
use crate::read::Reader;
use crate::refs::AssetRef;
use crate::version::Version;
use crate::write::Writer;
use bytes::Bytes;
use std::borrow::Cow;

/// A tile layer's data.
///
/// The tiles stay as the bytes stored in the file (raw before 2024.2, run-length encoded since)
/// until they are asked for: [`TileLayer::tiles`] decodes them on the fly and
/// [`TileLayer::tiles_mut`] decodes them once for editing. Unread layers are written back as
/// stored; edited ones are re-encoded the way GameMaker does.
#[derive(Clone, Debug, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct TileLayer {
    /// Tileset (BGND index; -1 = none).
    pub tileset: AssetRef<crate::chunks::background::Background>,
    /// Width in tiles.
    pub width: u32,
    /// Height in tiles.
    pub height: u32,
    /// The tile values, stored or decoded.
    data: TileData,
}

/// Where a tile layer's values are: the stored bytes (zero-copy views of the input) or a
/// decoded grid.
#[derive(Clone, Debug)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
enum TileData {
    /// As stored in the file.
    Stored(Stored),
    /// Decoded (read for editing through [`TileLayer::tiles_mut`], or built by
    /// [`TileLayer::new`]), with the stored bytes it came from: written instead of re-encoding
    /// while the tiles still equal what they decode to.
    Decoded { tiles: Vec<u32>, was: Option<Stored> },
}

/// Tile data as stored in the file.
#[derive(Clone, Debug, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
struct Stored {
    /// Before 2024.2 `count` little-endian u32s; since, RLE runs (checked when read) giving
    /// exactly `count` tiles, with GameMaker's trailing extra run when it wrote one.
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::hex"))]    bytes: Bytes,
    /// Whether `bytes` are RLE runs.
    rle: bool,
    /// The number of tiles the bytes hold.
    count: usize,
}

impl Stored {
    fn decode(&self) -> Result<Vec<u32>> {
        if !self.rle {
            return Ok(self
                .bytes
                .chunks_exact(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect());
        }
        match decode_rle(&self.bytes, self.count) {
            Some((tiles, _)) => Ok(tiles),
            None => Err(Error::at(
                0,
                crate::error::invalid(
                    "RLE tile data",
                    format!("runs giving exactly {} tiles", self.count),
                    "malformed or truncated runs",
                ),
            )),
        }
    }
}

impl Default for TileData {
    fn default() -> Self {
        TileData::Decoded {
            tiles: Vec::new(),
            was: None,
        }
    }
}

/// Two layers are equal when their fields and tile values are (however they are stored).
impl PartialEq for TileLayer {
    fn eq(&self, other: &Self) -> bool {
        if (self.tileset, self.width, self.height) != (other.tileset, other.width, other.height) {
            return false;
        }
        match (&self.data, &other.data) {
            (TileData::Stored(a), TileData::Stored(b)) if a == b => true,
            (TileData::Decoded { tiles: a, .. }, TileData::Decoded { tiles: b, .. }) => a == b,
            _ => match (self.tiles(), other.tiles()) {
                (Ok(a), Ok(b)) => a == b,
                _ => false,
            },
        }
    }
}

/// Whether tile data is run-length encoded (2024.2+).
pub(crate) fn is_rle(v: &Version) -> bool {
    v.at_least(2024, 2)
}

/// Whether RLE tile data is padded to 4 bytes (2024.4+).
pub(crate) fn is_rle_aligned(v: &Version) -> bool {
    v.at_least(2024, 4)
}

/// The extra run GameMaker appends when the last two tiles differ.
const EXTRA_RUN: [u8; 5] = [0x81, 0xFF, 0xFF, 0xFF, 0xFF];

/// Decodes `n` tiles from RLE data; returns the tiles and the number of bytes used (including
/// GameMaker's trailing extra run when present). `None` when the data is malformed.
pub fn decode_rle(data: &[u8], n: usize) -> Option<(Vec<u32>, usize)> {
    // Each 5-byte run yields at most 128 tiles: bound the allocation by the data size.
    let mut tiles = Vec::with_capacity(n.min(data.len().saturating_mul(26)));
    let mut at = 0usize;
    let word = |at: usize| -> Option<u32> {
        let b = data.get(at..at.checked_add(4)?)?;
        Some(u32::from_le_bytes(b.try_into().ok()?))
    };
    while tiles.len() < n {
        let b = *data.get(at)?;
        at += 1;
        if b >= 128 {
            let count = b as usize - 127;
            let v = word(at)?;
            at += 4;
            if tiles.len() + count > n {
                return None;
            }
            tiles.resize(tiles.len() + count, v);
        } else {
            let count = b as usize;
            if tiles.len() + count > n {
                return None;
            }
            let bytes = data.get(at..at.checked_add(count * 4)?)?;
            tiles.extend(
                bytes
                    .chunks_exact(4)
                    .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])),
            );
            at += count * 4;
        }
    }
    if data.get(at..at + 5) == Some(&EXTRA_RUN[..]) {
        at += 5;
    }
    Some((tiles, at))
}

/// Tiles given by a run by its header byte: `b − 127` repeats from 128, else `b` literals.
const RUN_TILES: [u8; 256] = {
    let mut t = [0u8; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = if b >= 128 { (b - 127) as u8 } else { b as u8 };
        b += 1;
    }
    t
};

/// Bytes of a run (header included) by its header byte: 5 for a repeat, `1 + 4b` for `b`
/// literals.
const RUN_BYTES: [u16; 256] = {
    let mut t = [0u16; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = if b >= 128 { 5 } else { 1 + 4 * b as u16 };
        b += 1;
    }
    t
};

/// Checks RLE data giving exactly `n` tiles without decoding it; returns the number of bytes
/// used (including GameMaker's trailing extra run when present). `None` when malformed.
pub fn scan_rle(data: &[u8], n: usize) -> Option<usize> {
    /// A window of the data whose first half holds the run headers read without a bounds
    /// check each (a run is at most 509 bytes).
    const WINDOW: usize = 2048;
    let mut have = 0usize;
    let mut at = 0usize;
    // `have` and `at` only grow, so a run giving too many tiles or reaching past the data is
    // caught once, after the loop (a run starting past the data already fails the `get`).
    // Two runs at a time while more than one run's worth of tiles (128) is still needed.
    let two = n.saturating_sub(128);
    while have < n {
        if let Some(w) = data.get(at..).and_then(|s| s.first_chunk::<WINDOW>()) {
            let mut k = 0;
            while k < WINDOW / 4 && have < two {
                let b = w[k] as usize;
                have += RUN_TILES[b] as usize;
                k += RUN_BYTES[b] as usize;
                let b = *w.get(k).unwrap_or(&0) as usize;
                have += RUN_TILES[b] as usize;
                k += RUN_BYTES[b] as usize;
            }
            while k < WINDOW / 2 && have < n {
                let b = w[k] as usize;
                have += RUN_TILES[b] as usize;
                k += RUN_BYTES[b] as usize;
            }
            at += k;
            continue;
        }
        let b = *data.get(at)? as usize;
        have += RUN_TILES[b] as usize;
        at += RUN_BYTES[b] as usize;
    }
    if have != n || at > data.len() {
        return None;
    }
    if data.get(at..at + 5) == Some(&EXTRA_RUN[..]) {
        at += 5;
    }
    Some(at)
}

/// Encodes tiles the way GameMaker does: runs of two or more equal tiles become repeat runs
/// (at most 128), everything else literal runs (at most 127), then the extra run when the last
/// two tiles differ.
pub fn encode_rle(tiles: &[u32], out: &mut Vec<u8>) {
    let n = tiles.len();
    let mut i = 0;
    while i < n {
        let mut j = i + 1;
        while j < n && tiles[j] == tiles[i] && j - i < 128 {
            j += 1;
        }
        if j - i >= 2 {
            out.push((127 + (j - i)) as u8);
            out.extend_from_slice(&tiles[i].to_le_bytes());
            i = j;
            continue;
        }
        let mut k = i;
        while k < n && k - i < 127 && !(k + 1 < n && tiles[k + 1] == tiles[k]) {
            k += 1;
        }
        out.push((k - i) as u8);
        for t in &tiles[i..k] {
            out.extend_from_slice(&t.to_le_bytes());
        }
        i = k;
    }
    if n >= 2 && tiles[n - 1] != tiles[n - 2] {
        out.extend_from_slice(&EXTRA_RUN);
    }
}

impl TileLayer {
    /// A tile layer holding `tiles` (row by row, `width × height` entries).
    pub fn new(tileset: AssetRef<crate::chunks::background::Background>, width: u32, height: u32, tiles: Vec<u32>) -> Self {
        TileLayer {
            tileset,
            width,
            height,
            data: TileData::Decoded { tiles, was: None },
        }
    }

    /// The tile values, row by row (`width × height` entries when consistent): tile index in
    /// the low bits plus flip/rotate flags in the high bits. Stored layers are decoded on the
    /// fly (borrowed once decoded by [`TileLayer::tiles_mut`]).
    pub fn tiles(&self) -> Result<Cow<'_, [u32]>> {
        match &self.data {
            TileData::Decoded { tiles, .. } => Ok(Cow::Borrowed(tiles)),
            TileData::Stored(s) => s.decode().map(Cow::Owned),
        }
    }

    /// The tile values for editing (decoded once; the layer is re-encoded when written unless
    /// the values end up as stored).
    pub fn tiles_mut(&mut self) -> Result<&mut Vec<u32>> {
        if let TileData::Stored(s) = &self.data {
            let tiles = s.decode()?;
            let was = Some(s.clone());
            self.data = TileData::Decoded { tiles, was };
        }
        match &mut self.data {
            TileData::Decoded { tiles, .. } => Ok(tiles),
            TileData::Stored(_) => unreachable!("decoded just above"),
        }
    }

    /// The tile data exactly as stored in the file (raw u32s before 2024.2, RLE runs since), or
    /// `None` once decoded for editing.
    pub fn stored_bytes(&self) -> Option<&[u8]> {
        match &self.data {
            TileData::Stored(s) => Some(&s.bytes),
            TileData::Decoded { .. } => None,
        }
    }

    /// The number of tile values held.
    pub fn tile_count(&self) -> usize {
        match &self.data {
            TileData::Stored(s) => s.count,
            TileData::Decoded { tiles, .. } => tiles.len(),
        }
    }

    /// Reads a tile layer's data (checked, not decoded).
    pub(crate) fn read(r: &mut Reader) -> Result<Self> {
        let mut f = r.fields::<12>("tile layer")?;
        let tileset = AssetRef::from_stored(f.i32(), -1);
        let width = f.u32();
        let height = f.u32();
        let at = r.pos();
        let n = (width as usize)
            .checked_mul(height as usize)
            .ok_or_else(|| {
                r.invalid(
                    "tile layer size",
                    "width × height that fits in memory",
                    format!("{width} × {height}"),
                )
            })?;
        if !is_rle(r.version()) {
            r.check_count(at, "tile", n, 4)?;
            let bytes = r.bytes(n * 4, "tile data")?;
            return Ok(TileLayer {
                tileset,
                width,
                height,
                data: TileData::Stored(Stored {
                    bytes,
                    rle: false,
                    count: n,
                }),
            });
        }
        let data = r.file().get(at..r.chunk_end()).unwrap_or(&[]);
        let Some(used) = scan_rle(data, n) else {
            return Err(r.invalid(
                "RLE tile data",
                format!("runs giving exactly {n} tiles inside the chunk"),
                "malformed or truncated runs",
            ));
        };
        let bytes = r.bytes(used, "RLE tile data")?;
        if is_rle_aligned(r.version()) {
            r.align(4)?;
        }
        Ok(TileLayer {
            tileset,
            width,
            height,
            data: TileData::Stored(Stored {
                bytes,
                rle: true,
                count: n,
            }),
        })
    }

    /// Writes a tile layer's data: stored bytes as they are when the layout matches, decoded
    /// tiles encoded for the target version.
    pub(crate) fn write(&self, w: &mut Writer) -> Result<()> {
        let n = (self.width as usize).checked_mul(self.height as usize);
        if n != Some(self.tile_count()) {
            return Err(w.unwritable(
                "tile layer",
                format!(
                    "{} tiles for a {} × {} grid",
                    self.tile_count(),
                    self.width,
                    self.height
                ),
            ));
        }
        w.i32(self.tileset.to_stored(-1));
        w.u32(self.width);
        w.u32(self.height);
        let rle = is_rle(w.version());
        let kept = match &self.data {
            TileData::Stored(s) => Some(s),
            TileData::Decoded { tiles, was } => was
                .as_ref()
                .filter(|s| s.decode().is_ok_and(|t| t == *tiles)),
        };
        match kept.filter(|s| s.rle == rle) {
            Some(s) => w.bytes(&s.bytes),
            None if !rle => {
                for &t in self.tiles()?.iter() {
                    w.u32(t);
                }
            }
            None => {
                let tiles = self.tiles()?;
                let mut out = Vec::with_capacity(tiles.len() + 8);
                encode_rle(&tiles, &mut out);
                w.bytes(&out);
            }
        }
        if rle && is_rle_aligned(w.version()) {
            w.align(4);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rle_round_trip() {
        let cases: [&[u32]; 5] = [&[], &[7], &[1, 1, 1, 2, 3, 3], &[1, 2, 3, 4], &[5; 300]];
        for tiles in cases {
            let mut out = Vec::new();
            encode_rle(tiles, &mut out);
            let (back, used) = decode_rle(&out, tiles.len()).unwrap();
            assert_eq!(back, tiles);
            assert_eq!(used, out.len());
            assert_eq!(scan_rle(&out, tiles.len()), Some(out.len()));
        }
        assert_eq!(scan_rle(&[0x85, 1, 0, 0, 0], 7), None);
        assert_eq!(scan_rle(&[0x02, 1, 0, 0, 0], 2), None);
        // Long data (many windows of runs): the scan agrees with the decoder, and refuses a
        // tile count off by one either way and every truncation of the runs.
        let tiles: Vec<u32> = (0..20_000u32).map(|i| if i % 7 < 3 { 5 } else { i % 300 }).collect();
        let mut out = Vec::new();
        encode_rle(&tiles, &mut out);
        assert!(out.len() > 4096);
        let (back, used) = decode_rle(&out, tiles.len()).unwrap();
        assert_eq!(back, tiles);
        assert_eq!(scan_rle(&out, tiles.len()), Some(used));
        assert_eq!(scan_rle(&out, tiles.len() + 1), None);
        let short = scan_rle(&out, tiles.len() - 1);
        assert_eq!(short, decode_rle(&out, tiles.len() - 1).map(|(_, u)| u));
        for cut in [1, 2, 5, 6, 600, 2047, 2048, 3000] {
            let data = &out[..out.len() - cut];
            assert_eq!(
                scan_rle(data, tiles.len()),
                decode_rle(data, tiles.len()).map(|(_, u)| u),
                "cut {cut}"
            );
        }
        let mut long = Vec::new();
        encode_rle(&(0..400).collect::<Vec<u32>>(), &mut long);
        assert_eq!(
            decode_rle(&long, 400).unwrap().0,
            (0..400).collect::<Vec<u32>>()
        );
    }
}
