//! Edit test for texture pages: replace one page's image with a PNG of a different size,
//! rebuild, re-parse, and check that only that page changed (and that its 2022.3+ blob size and
//! 2022.9+ width/height were recomputed).

use bytes::Bytes;
use gmkit_data::chunks::texture::{BlobFormat, PageData};
use gmkit_data::{DataFile, ErrorKind, build_bytes, build_bytes_unchecked, parse_bytes};

mod common;
use common::*;

/// A small RGBA PNG with a gradient.
fn make_png(width: u32, height: u32) -> Vec<u8> {
    let mut out = Vec::new();
    let mut enc = png::Encoder::new(&mut out, width, height);
    enc.set_color(png::ColorType::Rgba);
    enc.set_depth(png::BitDepth::Eight);
    let mut writer = enc.write_header().unwrap();
    let mut pixels = Vec::with_capacity((width * height * 4) as usize);
    for y in 0..height {
        for x in 0..width {
            pixels.extend_from_slice(&[(x * 7) as u8, (y * 11) as u8, (x ^ y) as u8, 255]);
        }
    }
    writer.write_image_data(&pixels).unwrap();
    writer.finish().unwrap();
    out
}

fn u32_at(data: &[u8], at: usize) -> u32 {
    u32::from_le_bytes(data[at..at + 4].try_into().unwrap())
}

fn dbg<T: std::fmt::Debug>(v: &T) -> String {
    format!("{v:?}")
}

/// Replaces page `index` of a corpus file and checks the result.
fn replace_page(file_name: &str, index: usize, expect_blob_size_field: bool) {
    let original_bytes = need!(corpus_file(file_name));
    let original = parse_bytes(original_bytes.clone()).unwrap();
    assert_eq!(
        original.version.at_least(2022, 3),
        expect_blob_size_field,
        "{file_name}: detected version {}",
        original.version
    );
    let pages = &original.textures.as_ref().unwrap().pages;
    assert!(index < pages.len(), "{file_name} has {} pages", pages.len());
    let old_page = pages[index].clone().unwrap();
    let (old_w, old_h) = (old_page.width().unwrap(), old_page.height().unwrap());
    let (new_w, new_h) = (old_w / 2 + 3, old_h / 4 + 5);
    let png = Bytes::from(make_png(new_w, new_h));

    let mut edited: DataFile = original.clone();
    edited.textures.as_mut().unwrap().pages[index]
        .as_mut()
        .unwrap()
        .set_blob(png.clone());
    // The smaller page leaves the items that were on it outside it: `validate` refuses that
    // (the runner would); the writer itself is checked without it.
    let e = build_bytes(&edited).expect_err("items outside the smaller page");
    match &e.kind {
        ErrorKind::InvalidModel(p) => assert!(
            p.element.starts_with("texture page item #") && p.field == "source",
            "{e}"
        ),
        _ => panic!("{e}"),
    }
    let out = build_bytes_unchecked(&edited).unwrap();
    assert_ne!(out, original_bytes);
    let reparsed = parse_bytes(out.clone()).unwrap();
    assert_eq!(reparsed.version, original.version, "{file_name}: version");

    // The new page.
    let new_pages = &reparsed.textures.as_ref().unwrap().pages;
    assert_eq!(new_pages.len(), pages.len());
    let page = new_pages[index].as_ref().unwrap();
    assert_eq!(page.blob(), Some(&png), "{file_name}: new blob bytes");
    assert_eq!(page.format(), BlobFormat::Png);
    assert_eq!((page.width(), page.height()), (Some(new_w), Some(new_h)));
    assert_eq!(page.scaled, old_page.scaled);
    assert_eq!(page.generated_mips, old_page.generated_mips);
    if let Some(g) = page.group_info {
        let old = old_page.group_info.unwrap();
        assert_eq!(
            (g.width, g.height),
            (new_w, new_h),
            "2022.9 record size follows"
        );
        assert_eq!(g.index_in_group, old.index_in_group);
    }

    // The stored blob size (2022.3+), read from the rebuilt bytes.
    let chunks = chunk_table(&out);
    let &(_, txtr, txtr_end) = chunks.iter().find(|c| &c.0 == b"TXTR").unwrap();
    let record = u32_at(&out, txtr + 4 + 4 * index) as usize;
    if expect_blob_size_field {
        assert_eq!(
            u32_at(&out, record + 8) as usize,
            png.len(),
            "blob size field"
        );
    }
    // Every embedded blob sits 128-aligned inside the chunk.
    let ptr_field = record
        + [8usize, 12, 16, 28][[
            original.version.at_least_full(2, 0, 6, 0),
            original.version.at_least(2022, 3),
            original.version.at_least(2022, 9),
        ]
        .iter()
        .filter(|&&b| b)
        .count()]
        - 4;
    let blob_ptr = u32_at(&out, ptr_field) as usize;
    assert_eq!(blob_ptr % 128, 0);
    assert!(blob_ptr > txtr && blob_ptr + png.len() <= txtr_end);
    assert_eq!(&out[blob_ptr..blob_ptr + png.len()], &png[..]);

    // Every other page is unchanged, bytes included.
    for (i, (a, b)) in pages.iter().zip(new_pages).enumerate() {
        if i != index {
            assert_eq!(a, b, "{file_name}: page {i} changed");
            if let Some(PageData::Embedded(blob)) = a.as_ref().map(|p| &p.data) {
                assert!(!blob.is_empty());
            }
        }
    }
    // Texture page items, sprites and the other chunks of this area are unchanged.
    assert_eq!(
        reparsed.texture_page_items, original.texture_page_items,
        "TPAG items"
    );
    assert_eq!(dbg(&reparsed.sprites), dbg(&original.sprites), "sprites");
    assert_eq!(reparsed.backgrounds, original.backgrounds);
    assert_eq!(reparsed.embedded_images, original.embedded_images);
    assert_eq!(reparsed.texture_groups, original.texture_groups);
    assert_eq!(reparsed.sounds, original.sounds);
    assert_eq!(reparsed.audio_groups, original.audio_groups);
    assert_eq!(reparsed.audio, original.audio);
    assert_eq!(reparsed.strings.clone(), original.strings.clone());
    // Chunks before TXTR are byte-identical.
    let old_chunks = chunk_table(&original_bytes);
    for (&(name, s, e), &(name2, s2, e2)) in old_chunks.iter().zip(&chunks) {
        assert_eq!(name, name2);
        if &name == b"TXTR" {
            break;
        }
        assert_eq!(
            &original_bytes[s..e],
            &out[s2..e2],
            "chunk {}",
            String::from_utf8_lossy(&name)
        );
    }
    // The edited model rebuilds to the same bytes again.
    assert_eq!(build_bytes_unchecked(&reparsed).unwrap(), out);
}

/// GMS 2.3 file (12-byte records, no blob size), 15 PNG pages: replace one in the middle.
#[test]
fn replace_png_page_pre_2022_3() {
    replace_page("vendaval.win", 3, false);
}

/// GMS1 file (8-byte records), one PNG page.
#[test]
fn replace_png_page_gms1() {
    replace_page("tricking-the-vikings.win", 0, false);
}

/// 2022.3 file (16-byte records with blob size), one BZ2+QOI page.
#[test]
fn replace_page_2022_3() {
    replace_page("multiplayer-tanks.win", 0, true);
}

/// 2022.9 file (28-byte records), three BZ2+QOI pages: replace the middle one.
#[test]
fn replace_page_2022_9() {
    replace_page("deltarun.win", 1, true);
}
