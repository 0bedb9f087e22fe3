//! Tile layers: a grid of tile values, stored raw before 2024.2 and run-length encoded since.
//!
//! RLE (2024.2+): a byte ≥ 128 means "repeat the next u32 (byte − 127) times", a byte < 128
//! means "that many literal u32s follow". GameMaker's encoder ends with an extra run of two
//! `0xFFFFFFFF` tiles when the last two tiles differ. From 2024.4 the data is padded to 4 bytes.

use crate::error::Result;
use crate::read::Reader;
use crate::version::Version;
use crate::write::Writer;
use bytes::Bytes;

/// A tile layer's data.
#[derive(Clone, Debug, Default, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct TileLayer {
    /// Tileset (BGND index; -1 = none).
    pub tileset: i32,
    /// Width in tiles.
    pub width: u32,
    /// Height in tiles.
    pub height: u32,
    /// Tile values, row by row (`width × height` entries): tile index in the low bits plus
    /// flip/rotate flags in the high bits.
    pub tiles: Vec<u32>,
    /// 2024.2+: the RLE bytes as stored, kept only when gmkit's encoder would not reproduce them
    /// exactly. Written instead of re-encoding while they still decode to [`TileLayer::tiles`]
    /// (an edit of the tiles makes the writer re-encode).
    #[cfg_attr(feature = "serde", serde(with = "crate::serde_support::hex"))]
    pub encoded: Option<Bytes>,
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
    /// Reads a tile layer's data.
    pub(crate) fn read(r: &mut Reader) -> Result<Self> {
        let tileset = r.i32()?;
        let width = r.u32()?;
        let height = r.u32()?;
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
            let b = r.bytes_ref(n * 4, "tile data")?;
            let tiles = b
                .chunks_exact(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect();
            return Ok(TileLayer {
                tileset,
                width,
                height,
                tiles,
                encoded: None,
            });
        }
        let data = r.file().get(at..r.chunk_end()).unwrap_or(&[]);
        let Some((tiles, used)) = decode_rle(data, n) else {
            return Err(r.invalid(
                "RLE tile data",
                format!("runs giving exactly {n} tiles inside the chunk"),
                "malformed or truncated runs",
            ));
        };
        let raw = r.bytes(used, "RLE tile data")?;
        let mut again = Vec::with_capacity(used);
        encode_rle(&tiles, &mut again);
        let encoded = (again != raw[..]).then_some(raw);
        if is_rle_aligned(r.version()) {
            r.align(4)?;
        }
        Ok(TileLayer {
            tileset,
            width,
            height,
            tiles,
            encoded,
        })
    }

    /// Writes a tile layer's data.
    pub(crate) fn write(&self, w: &mut Writer) -> Result<()> {
        let n = (self.width as usize).checked_mul(self.height as usize);
        if n != Some(self.tiles.len()) {
            return Err(w.unwritable(
                "tile layer",
                format!(
                    "{} tiles for a {} × {} grid",
                    self.tiles.len(),
                    self.width,
                    self.height
                ),
            ));
        }
        w.i32(self.tileset);
        w.u32(self.width);
        w.u32(self.height);
        if !is_rle(w.version()) {
            for &t in &self.tiles {
                w.u32(t);
            }
            return Ok(());
        }
        let kept = self.encoded.as_ref().filter(|raw| {
            decode_rle(raw, self.tiles.len())
                .is_some_and(|(t, used)| used == raw.len() && t == self.tiles)
        });
        match kept {
            Some(raw) => w.bytes(raw),
            None => {
                let mut out = Vec::with_capacity(self.tiles.len() + 8);
                encode_rle(&self.tiles, &mut out);
                w.bytes(&out);
            }
        }
        if is_rle_aligned(w.version()) {
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
        }
        let mut long = Vec::new();
        encode_rle(&(0..400).collect::<Vec<u32>>(), &mut long);
        assert_eq!(
            decode_rle(&long, 400).unwrap().0,
            (0..400).collect::<Vec<u32>>()
        );
    }
}
