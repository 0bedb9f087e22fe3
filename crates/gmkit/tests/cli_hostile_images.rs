//! `gmkit unpack` and `gmkit pack` on hostile images (issue 15: F1, F5, F6, F8, F20, F27), each
//! run as a child process under a memory limit and a watchdog: the expected exit code, a peak
//! RSS under 64× the input or 64 MB (whichever is larger), the one-line note or error, and an
//! exact round trip (or nothing written).

use gmkit_testdata::limited::{Limits, Outcome, run};
use gmkit_testdata::{corpus_path, need, repro_path};
use std::path::Path;
use std::process::Command;

/// The memory bar for an input of `len` bytes.
fn rss_bar(len: u64) -> u64 {
    (64 * len).max(64 << 20)
}

fn gmkit(args: &[&Path]) -> Outcome {
    let mut c = Command::new(env!("CARGO_BIN_EXE_gmkit"));
    c.args(args);
    run(c, Limits::default())
}

/// Unpacks a repro file, checks the bars, packs it back and compares; returns unpack's stdout.
fn unpack_repro(name: &str) -> Option<String> {
    let input = repro_path(&format!("round2/{name}"))?;
    let len = std::fs::metadata(&input).unwrap().len();
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("u");
    let out = gmkit(&[Path::new("unpack"), &input, &dir]);
    assert!(out.exited_with(&[0]), "{name}: {out}");
    assert!(
        out.peak_rss < rss_bar(len),
        "{name}: peak RSS over {} KB: {out}",
        rss_bar(len) / 1024
    );
    let back = tmp.path().join("back.win");
    let p = gmkit(&[Path::new("pack"), &dir, &back]);
    assert!(p.exited_with(&[0]), "{name}: pack: {p}");
    assert!(
        std::fs::read(&back).unwrap() == std::fs::read(&input).unwrap(),
        "{name}: unpack → pack is not byte-identical"
    );
    Some(out.stdout)
}

/// The `note:` lines of unpack's output.
fn notes(stdout: &str) -> Vec<&str> {
    stdout.lines().filter(|l| l.starts_with("note: ")).collect()
}

#[test]
fn page_bombs_unpack_in_bounded_memory_with_notes() {
    for name in [
        "unpack-2zoq-page-bomb-3pages.win",
        "unpack-2zoq-page-bomb-64pages.win",
    ] {
        let out = need!(unpack_repro(name));
        let n = notes(&out);
        assert!(!n.is_empty(), "{name}: no note in {out}");
        assert!(
            n[0].contains("frames kept as stored texture items")
                && n[0].contains("over the 256 MiB per-image budget"),
            "{name}: {}",
            n[0]
        );
    }
}

#[test]
fn odd_items_huge_and_empty_sprites_unpack_with_notes() {
    for (name, says) in [
        (
            "unpack-frame-cut-panic-asteroid-u32-0x125c.win",
            "target rectangle",
        ),
        ("unpack-frame-cut-panic-the-game.win", "target rectangle"),
        ("unpack-tpag-target-x-200-panic.win", "target rectangle"),
        ("unpack-sprite-16384x16384-64frames.win", "16384×16384"),
        ("unpack-sprite-width-0.win", "0×60"),
    ] {
        let out = need!(unpack_repro(name));
        let n = notes(&out);
        assert_eq!(n.len(), 1, "{name}: {out}");
        assert!(n[0].contains(says), "{name}: {}", n[0]);
    }
}

/// Appends `n` bits of `v` (least significant first) to a deflate bit stream.
struct Bits {
    out: Vec<u8>,
    acc: u64,
    len: u32,
}

impl Bits {
    fn put(&mut self, v: u32, n: u32) {
        self.acc |= (v as u64) << self.len;
        self.len += n;
        while self.len >= 8 {
            self.out.push(self.acc as u8);
            self.acc >>= 8;
            self.len -= 8;
        }
    }
    /// A fixed-Huffman code (written most significant bit first).
    fn code(&mut self, code: u32, n: u32) {
        let rev = code.reverse_bits() >> (32 - n);
        self.put(rev, n);
    }
}

/// A valid zlib stream of `n` zero bytes (fixed Huffman: a literal, then matches of 258 at
/// distance 1), about 13 bits per 258 bytes.
fn zlib_zeros(n: u64) -> Vec<u8> {
    let mut b = Bits {
        out: vec![0x78, 0x01],
        acc: 0,
        len: 0,
    };
    b.put(1, 1); // BFINAL
    b.put(1, 2); // fixed Huffman
    b.code(0b0011_0000, 8); // literal 0
    let mut left = n - 1;
    while left > 0 {
        let m = left.min(258);
        if m < 3 {
            b.code(0b0011_0000, 8);
            left -= 1;
            continue;
        }
        if m == 258 {
            b.code(0b1100_0101, 8); // length code 285
        } else {
            // Lengths 3..=257 (only the tail): code 257 + (m - 3) for m ≤ 10, else literals.
            if m <= 10 {
                b.code(0b000_0001 + (m as u32 - 3), 7);
            } else {
                for _ in 0..m {
                    b.code(0b0011_0000, 8);
                }
                left -= m;
                continue;
            }
        }
        b.put(0, 5); // distance code 0: distance 1
        left -= m;
    }
    b.code(0, 7); // end of block
    if b.len > 0 {
        b.put(0, 8 - b.len);
    }
    // Adler-32 of zeros: a stays 1, b grows by 1 per byte.
    let adler = ((n % 65521) << 16) as u32 | 1;
    b.out.extend_from_slice(&adler.to_be_bytes());
    b.out
}

fn png_chunk(kind: &[u8; 4], data: &[u8]) -> Vec<u8> {
    let mut c = (data.len() as u32).to_be_bytes().to_vec();
    c.extend_from_slice(kind);
    c.extend_from_slice(data);
    let mut crc = !0u32;
    for &x in &c[4..] {
        crc ^= x as u32;
        for _ in 0..8 {
            crc = if crc & 1 != 0 {
                0xEDB8_8320 ^ (crc >> 1)
            } else {
                crc >> 1
            };
        }
    }
    c.extend_from_slice(&(!crc).to_be_bytes());
    c
}

/// A valid `side × side` 8-bit greyscale PNG of black pixels (like `pngbomb.py`): about
/// 1.7 MB for 16384², 1.3 GB once decoded to RGBA.
fn png_bomb(side: u32) -> Vec<u8> {
    let mut ihdr = side.to_be_bytes().to_vec();
    ihdr.extend_from_slice(&side.to_be_bytes());
    ihdr.extend_from_slice(&[8, 0, 0, 0, 0]);
    let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
    png.extend(png_chunk(b"IHDR", &ihdr));
    png.extend(png_chunk(
        b"IDAT",
        &zlib_zeros(side as u64 * (side as u64 + 1)),
    ));
    png.extend(png_chunk(b"IEND", &[]));
    png
}

#[test]
fn the_png_bomb_is_a_valid_png() {
    // The generator itself, on a size the png crate decodes here.
    let img = gmkit_media::decode_png(&png_bomb(300)).unwrap();
    assert_eq!((img.width(), img.height()), (300, 300));
    assert!(img.pixels().chunks_exact(4).all(|p| p == [0, 0, 0, 255]));
}

/// Unpacks asteroid-destroyer to `dir` with the binary.
fn unpack_asteroid(dir: &Path) -> Option<()> {
    let input = corpus_path("asteroid-destroyer.win")?;
    let out = gmkit(&[Path::new("unpack"), &input, dir]);
    assert!(out.exited_with(&[0]), "{out}");
    Some(())
}

/// Packs `dir` (holding a hostile file of `len` bytes): exit 1, one line, bounded RSS, nothing
/// written; returns the error line.
fn pack_refused(dir: &Path, len: u64) -> String {
    let out_file = dir.with_extension("win");
    let out = gmkit(&[Path::new("pack"), dir, &out_file]);
    assert!(out.exited_with(&[1]), "{out}");
    assert!(out.peak_rss < rss_bar(len), "{out}");
    assert!(!out_file.exists(), "pack wrote {}", out_file.display());
    assert_eq!(out.stderr.lines().count(), 1, "{out}");
    out.stderr
}

/// F20: a valid 16384² frame PNG (1.7 MB, 1.3 GB decoded) is refused from its header.
#[test]
fn a_frame_png_bomb_is_refused_in_bounded_memory() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("f");
    need!(unpack_asteroid(&dir));
    let bomb = png_bomb(16384);
    std::fs::write(dir.join("sprites/spr_player/0.png"), &bomb).unwrap();
    let e = pack_refused(&dir, bomb.len() as u64);
    assert!(
        e.contains(
            "0.png: expected a 64×60 image (the sprite's width × height), found 16384×16384"
        ),
        "{e}"
    );
}

/// F8: a mask PNG declaring 1M × 1M, the sprite's margins saying the same.
#[test]
fn a_mask_png_bomb_is_refused_in_bounded_memory() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("m");
    need!(unpack_asteroid(&dir));
    let side = 1u32 << 20;
    let mut ihdr = side.to_be_bytes().to_vec();
    ihdr.extend_from_slice(&side.to_be_bytes());
    ihdr.extend_from_slice(&[1, 0, 0, 0, 0]);
    let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
    png.extend(png_chunk(b"IHDR", &ihdr));
    png.extend(png_chunk(b"IDAT", &zlib_zeros(1000)));
    png.extend(png_chunk(b"IEND", &[]));
    std::fs::write(dir.join("sprites/spr_player/mask_0.png"), &png).unwrap();
    let json = dir.join("sprites/spr_player/sprite.json");
    let mut v: serde_json::Value = serde_json::from_slice(&std::fs::read(&json).unwrap()).unwrap();
    v["masks"] = serde_json::json!(["mask_0.png"]);
    v["margin_left"] = 0.into();
    v["margin_top"] = 0.into();
    v["margin_right"] = (side - 1).into();
    v["margin_bottom"] = (side - 1).into();
    std::fs::write(&json, serde_json::to_vec_pretty(&v).unwrap()).unwrap();
    let e = pack_refused(&dir, png.len() as u64);
    assert!(e.contains("1048576×1048576") && e.contains("budget"), "{e}");
}
