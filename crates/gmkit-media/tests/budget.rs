//! The decoding memory budget (issue 15, F1, F5, F8, F20): sizes declared by a header are
//! checked before anything is allocated, a texture item's rectangles are checked before use,
//! and a budget bounds the images alive at once.

use gmkit_data::chunks::texture::{PageData, TexturePage, Textures};
use gmkit_data::chunks::texture_page_item::TexturePageItem;
use gmkit_media::budget::{Budget, MAX_IMAGE_BYTES, check_image};
use gmkit_media::{Error, Image, frame};
use std::sync::Mutex;

#[global_allocator]
static GLOBAL: gmkit_testdata::alloc::Counting = gmkit_testdata::alloc::Counting;

/// The allocation counters are process-wide: tests that measure run one at a time.
static MEASURE: Mutex<()> = Mutex::new(());

/// Runs `f` and returns its result and its peak of live bytes.
fn peak<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let _one = MEASURE.lock().unwrap_or_else(|e| e.into_inner());
    let (out, usage) = gmkit_testdata::alloc::measure(f);
    (out, usage.peak)
}

/// A chunk of a PNG file.
fn chunk(kind: &[u8; 4], data: &[u8]) -> Vec<u8> {
    let mut c = (data.len() as u32).to_be_bytes().to_vec();
    c.extend_from_slice(kind);
    c.extend_from_slice(data);
    let crc = crc32(&c[4..]);
    c.extend_from_slice(&crc.to_be_bytes());
    c
}

fn crc32(b: &[u8]) -> u32 {
    let mut c = !0u32;
    for &x in b {
        c ^= x as u32;
        for _ in 0..8 {
            c = if c & 1 != 0 {
                0xEDB8_8320 ^ (c >> 1)
            } else {
                c >> 1
            };
        }
    }
    !c
}

/// A PNG whose header declares `w × h` (colour type `ct`, depth `depth`) over a tiny IDAT: a
/// decoder that trusts the header allocates for `w × h` before it finds the data short.
fn png_declaring(w: u32, h: u32, depth: u8, ct: u8) -> Vec<u8> {
    let mut ihdr = w.to_be_bytes().to_vec();
    ihdr.extend_from_slice(&h.to_be_bytes());
    ihdr.extend_from_slice(&[depth, ct, 0, 0, 0]);
    // A zlib stream of 1000 zero bytes (stored block).
    let mut z = vec![0x78, 0x01, 0x01, 0xE8, 0x03, 0x17, 0xFC];
    z.extend(std::iter::repeat_n(0u8, 1000));
    z.extend_from_slice(&[0, 0, 0, 0]);
    let mut png = b"\x89PNG\r\n\x1a\n".to_vec();
    png.extend(chunk(b"IHDR", &ihdr));
    png.extend(chunk(b"IDAT", &z));
    png.extend(chunk(b"IEND", &[]));
    png
}

/// A `fioq` header declaring `w × h` with a stream of 2-byte maximal runs.
fn fioq_declaring(w: u16, h: u16, ops: usize) -> Vec<u8> {
    let mut b = b"fioq".to_vec();
    b.extend_from_slice(&w.to_le_bytes());
    b.extend_from_slice(&h.to_le_bytes());
    b.extend_from_slice(&((ops * 2) as u32).to_le_bytes());
    for _ in 0..ops {
        b.extend_from_slice(&[0x7F, 0xFF]);
    }
    b
}

fn over_budget(e: &Error) -> bool {
    matches!(e, Error::OverBudget { .. })
        || matches!(e, Error::Page { source, .. } if over_budget(source))
}

#[test]
fn the_per_image_budget_is_256_mib_of_rgba() {
    assert_eq!(MAX_IMAGE_BYTES, 256 << 20);
    assert!(check_image(8192, 8192).is_ok());
    assert!(check_image(8193, 8192).is_err());
    assert!(check_image(u32::MAX, u32::MAX).is_err());
    let e = check_image(16384, 16384).unwrap_err().to_string();
    assert_eq!(
        e,
        "a 16384×16384 image needs 1024 MiB of RGBA, over the 256 MiB per-image budget"
    );
    assert!(Image::transparent(16384, 16384).is_err());
}

/// F1: a page declaring 16384² is refused from its header, in every format, before the decoder
/// allocates for it.
#[test]
fn pages_declaring_too_much_are_refused_before_allocating() {
    // fioq: a stream long enough for 16384² pixels of runs (so only the budget refuses it).
    let q = fioq_declaring(16384, 16384, (16384 * 16384usize).div_ceil(0x2020));
    let (r, used) = peak(|| gmkit_media::decode(&q));
    assert!(over_budget(&r.unwrap_err()));
    assert!(used < 1 << 20, "fioq: {used} bytes allocated");
    // 2zoq: refused before the bzip2 stream is read.
    let mut z = b"2zoq".to_vec();
    z.extend_from_slice(&16384u16.to_le_bytes());
    z.extend_from_slice(&16384u16.to_le_bytes());
    z.extend_from_slice(b"BZh9");
    z.extend_from_slice(&[0; 64]);
    let (r, used) = peak(|| gmkit_media::decode(&z));
    assert!(over_budget(&r.unwrap_err()));
    assert!(used < 1 << 20, "2zoq: {used} bytes allocated");
    // PNG (greyscale, like pngbomb.py).
    let p = png_declaring(16384, 16384, 8, 0);
    let (r, used) = peak(|| gmkit_media::decode(&p));
    assert!(over_budget(&r.unwrap_err()));
    assert!(used < 1 << 20, "PNG: {used} bytes allocated");
    assert_eq!(gmkit_media::declared_size(&p).unwrap(), (16384, 16384));
}

/// F20: a frame or page PNG of the wrong size is refused from its header before decoding.
#[test]
fn a_png_of_the_wrong_size_is_refused_from_its_header() {
    let p = png_declaring(16384, 16384, 8, 0);
    let (r, used) = peak(|| gmkit_media::decode_png_sized(&p, 64, 60, "frame 0"));
    match r {
        Err(Error::Size {
            found_w: 16384,
            found_h: 16384,
            expected_w: 64,
            expected_h: 60,
            ..
        }) => {}
        other => panic!("expected a size error, found {other:?}"),
    }
    assert!(used < 1 << 20, "{used} bytes allocated");
    // Not a PNG at all: one line, no panic.
    let e = gmkit_media::decode_png_sized(b"\x89PNG", 1, 1, "frame 0").unwrap_err();
    assert!(e.to_string().contains("IHDR"), "{e}");
}

/// F8: a 74-byte mask PNG declaring 1M × 1M, for a sprite whose margins say the same: refused
/// by the budget, not a 128 GiB allocation.
#[test]
fn a_mask_declaring_a_huge_size_is_refused() {
    let p = png_declaring(1 << 20, 1 << 20, 1, 0);
    let (r, used) = peak(|| gmkit_media::mask::from_png(&p, 1 << 20, 1 << 20));
    assert!(over_budget(&r.unwrap_err()));
    assert!(used < 1 << 20, "{used} bytes allocated");
    // Against a small mask size, the header's size is refused.
    let r = gmkit_media::mask::from_png(&p, 64, 60);
    assert!(matches!(r, Err(Error::Size { .. })), "{r:?}");
}

/// A budget counts live bytes; `wait_for` refuses only what could never fit.
#[test]
fn a_budget_bounds_the_bytes_alive_at_once() {
    let b = Budget::new(3 << 20);
    let a = b.reserve(512, 512).unwrap(); // 1 MiB
    let c = b.reserve(512, 1024).unwrap(); // 2 MiB
    assert_eq!(b.in_use(), 3 << 20);
    assert!(over_budget(&b.reserve(1, 1).unwrap_err()));
    drop(a);
    let d = b.wait_for(512, 512).unwrap();
    assert!(b.wait_for(1024, 1024).is_err(), "4 MiB can never fit 3 MiB");
    drop((c, d));
    assert_eq!(b.in_use(), 0);
    // Waiting: a grant dropped on another thread lets the waiter through.
    let b = Budget::new(1 << 20);
    let held = b.reserve(512, 512).unwrap();
    std::thread::scope(|s| {
        let t = s.spawn(|| b.wait_for(512, 512).map(|g| g.bytes()));
        std::thread::sleep(std::time::Duration::from_millis(20));
        drop(held);
        assert_eq!(t.join().unwrap().unwrap(), 1 << 20);
    });
}

fn page(blob: Vec<u8>) -> Option<TexturePage> {
    Some(TexturePage {
        data: PageData::Embedded(blob.into()),
        ..Default::default()
    })
}

/// Pages decoded within a budget: the one that would pass it is refused before decoding, and
/// a page alone over the per-image budget too.
#[test]
fn pages_within_a_budget() {
    let small = gmkit_media::encode(
        &Image::transparent(512, 512).unwrap(),
        gmkit_media::Encoding::Qoi,
    )
    .unwrap();
    let textures = Textures {
        pages: vec![
            page(small.clone()),
            page(small),
            page(fioq_declaring(16384, 16384, 1)),
        ],
        ..Default::default()
    };
    let pages = frame::Pages::with_budget(&textures, Budget::new(1 << 20));
    assert!(pages.get(0).is_ok());
    let e = pages.get(1).unwrap_err();
    assert!(over_budget(&e), "{e}");
    assert!(e.to_string().starts_with("texture page 1: "), "{e}");
    // One at a time, each dropped when done: both fit.
    let budget = Budget::new(1 << 20);
    for i in 0..2 {
        let (img, _grant) = gmkit_media::decode_page_within(&textures, i, &budget).unwrap();
        assert_eq!(img.width(), 512);
    }
    let e = gmkit_media::decode_page_within(&textures, 2, &budget).unwrap_err();
    assert!(over_budget(&e), "{e}");
}

/// F5: a texture item whose target lies past the frame's edge: no panic; `check_target` says
/// what is wrong.
#[test]
fn target_rectangles_past_the_frame_do_not_panic() {
    let mut pg = Image::transparent(8, 8).unwrap();
    pg.pixels_mut().fill(255);
    for target in [
        [200, 0, 4, 4],
        [0, 200, 4, 4],
        [65535, 65535, 65535, 65535],
        [3, 3, 65535, 2],
        [4, 4, 0, 0],
    ] {
        let item = TexturePageItem {
            source: [0, 0, 4, 4],
            target,
            bounding: [4, 4],
            texture_page: 0,
        };
        let f = frame::cut(&pg, &item, 4, 4).unwrap();
        assert_eq!((f.width(), f.height()), (4, 4));
        let visible = f.pixels().chunks_exact(4).filter(|p| p[3] != 0).count();
        assert!(frame::check_target(&item, 4, 4).is_err() || visible == 0);
        let mut p2 = pg.clone();
        let _ = frame::put(&mut p2, &item, &f);
    }
    let item = TexturePageItem {
        source: [0, 0, 4, 4],
        target: [200, 0, 64, 60],
        bounding: [64, 60],
        texture_page: 0,
    };
    let e = frame::check_target(&item, 64, 60).unwrap_err().to_string();
    assert_eq!(
        e,
        "texture page item target rectangle: x 200..264, y 0..60 does not fit the 64×60 frame"
    );
    // Source rectangles past the page: an error, before any pixel is read.
    let item = TexturePageItem {
        source: [65535, 0, 65535, 4],
        target: [0, 0, 4, 4],
        bounding: [4, 4],
        texture_page: 0,
    };
    assert!(frame::check_source(&item, 8, 8).is_err());
    assert!(frame::cut(&pg, &item, 4, 4).is_err());
}
