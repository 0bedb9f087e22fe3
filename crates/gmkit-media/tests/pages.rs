//! Texture pages of the corpus: every page decodes, re-encodes in its own format to the same
//! pixels, and exports as a PNG the `image` crate opens at the page's size.

use gmkit_media::{BlobFormat, Encoding};

mod common;
use common::parse;

/// Checks every page of one corpus file; returns (pages, BZ2+QOI pages, byte-exact BZ2+QOI
/// re-encodes).
fn check_file(name: &str) -> (usize, usize, usize) {
    let (mut pages, mut bz2, mut exact) = (0, 0, 0);
    let path = gmkit_testdata::corpus_path(name).unwrap();
    let data = parse(&path);
    let Some(tx) = &data.textures else {
        return (0, 0, 0);
    };
    for (i, img) in gmkit_media::decode_pages(tx).into_iter().enumerate() {
        let page = tx.pages[i].as_ref().unwrap();
        let img = img.unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(
            (Some(img.width()), Some(img.height())),
            (page.width(), page.height()),
            "{name} page {i}: decoded size vs header"
        );
        let blob = page.blob().unwrap();
        let enc = gmkit_media::encode_page(tx, i, &img).unwrap();
        assert_eq!(
            Encoding::of(&enc).unwrap(),
            Encoding::of(blob).unwrap(),
            "{name} page {i}: re-encoded in another format"
        );
        // A byte-identical re-encode decodes to `img` by construction; anything else is
        // decoded again and compared.
        if enc[..] != blob[..] {
            let back = gmkit_media::decode(&enc).unwrap();
            assert!(
                back == img,
                "{name} page {i}: decode → encode → decode changed pixels"
            );
        }
        if page.format() == BlobFormat::Bz2Qoi {
            // GameMaker's QOI encoder is reproduced exactly: the inner image re-encodes to
            // the same bytes. (bzip2 output matches on all but rare pages.)
            let inner = gmkit_media::bz2qoi::inner_qoi(blob).unwrap();
            let mine = gmkit_media::qoi::encode(&img).unwrap();
            assert!(
                inner == mine,
                "{name} page {i}: QOI re-encode differs from GameMaker's"
            );
            bz2 += 1;
            if enc[..] == blob[..] {
                exact += 1;
            } else {
                eprintln!(
                    "{name} page {i}: bzip2 re-encode differs ({} vs {} bytes)",
                    enc.len(),
                    blob.len()
                );
            }
        }
        // Exported PNG opens with the image crate at the page's size.
        let png = gmkit_media::encode_png(&img).unwrap();
        let opened = image::load_from_memory_with_format(&png, image::ImageFormat::Png)
            .unwrap()
            .to_rgba8();
        assert_eq!(
            (opened.width(), opened.height()),
            (img.width(), img.height())
        );
        assert!(
            opened.as_raw() == img.pixels(),
            "{name} page {i}: PNG export changed pixels"
        );
        pages += 1;
    }
    (pages, bz2, exact)
}

#[test]
fn every_corpus_page_decodes_and_round_trips() {
    use rayon::prelude::*;
    let names = gmkit_testdata::need!(gmkit_testdata::corpus_names());
    let (pages, bz2, exact) = names
        .par_iter()
        .map(|n| check_file(n))
        .reduce(|| (0, 0, 0), |a, b| (a.0 + b.0, a.1 + b.1, a.2 + b.2));
    eprintln!(
        "{pages} pages decoded; all {bz2} BZ2+QOI pages have a byte-exact QOI re-encode; {exact} of them a byte-exact bzip2 re-encode too"
    );
    assert!(pages >= names.len());
}

/// Pages that cannot be decoded give an error naming the page and the format, never a picture.
#[test]
fn undecodable_pages_name_page_and_format() {
    use gmkit_data::chunks::texture::{PageData, PageGroupInfo, TexturePage, Textures};
    let page = |data| {
        Some(TexturePage {
            group_info: Some(PageGroupInfo {
                width: 4,
                height: 4,
                index_in_group: 3,
            }),
            data,
            ..Default::default()
        })
    };
    let mut dds = b"DDS \x7c\0\0\0".to_vec();
    dds.resize(128, 0);
    let tx = Textures {
        pages: vec![
            page(PageData::Embedded(dds.into())),
            page(PageData::External { blob_size: 0 }),
            page(PageData::Embedded(bytes::Bytes::from_static(
                b"RIFFxxxxWEBP",
            ))),
            None,
        ],
        ..Default::default()
    };
    let msgs: Vec<String> = gmkit_media::decode_pages(&tx)
        .into_iter()
        .map(|r| r.unwrap_err().to_string())
        .collect();
    assert!(
        msgs[0].starts_with("texture page 0: DDS images are not supported"),
        "{}",
        msgs[0]
    );
    assert!(
        msgs[1].starts_with("texture page 1: the image is stored outside"),
        "{}",
        msgs[1]
    );
    assert!(msgs[1].contains("index 3"), "{}", msgs[1]);
    assert!(
        msgs[2].starts_with("texture page 2: unknown-format images"),
        "{}",
        msgs[2]
    );
    assert!(msgs[2].contains("`RIFF`"), "{}", msgs[2]);
    assert!(
        msgs[3].starts_with("texture page 3: no such"),
        "{}",
        msgs[3]
    );
    let img = gmkit_media::Image::transparent(4, 4).unwrap();
    assert!(
        gmkit_media::encode_page(&tx, 0, &img)
            .unwrap_err()
            .to_string()
            .contains("DDS")
    );
}

/// Truncated or corrupted blobs of every format fail with an error (or, for a PNG cut after its
/// pixel data, give the same picture), never a panic or a picture of the wrong size.
#[test]
fn damaged_corpus_blobs_fail_cleanly() {
    let names = gmkit_testdata::need!(gmkit_testdata::corpus_names());
    let mut tried = 0;
    for name in &names {
        let path = gmkit_testdata::corpus_path(name).unwrap();
        let data = parse(&path);
        for page in data.textures.iter().flat_map(|t| t.pages.iter().flatten()) {
            let Some(blob) = page.blob() else { continue };
            if blob.len() > 40_000 {
                continue;
            }
            let (w, h) = (page.width().unwrap(), page.height().unwrap());
            let full = gmkit_media::decode(blob).unwrap();
            for k in 1..8 {
                let cut = &blob[..blob.len() * k / 8];
                // Either an error, or (a PNG cut after its pixel data) the same picture.
                if let Ok(img) = gmkit_media::decode(cut) {
                    assert!(
                        img == full,
                        "{name}: truncated to {} gave another picture",
                        cut.len()
                    );
                }
                let mut flipped = blob.to_vec();
                let at = 8 + (blob.len() - 8) * k / 8;
                flipped[at.min(blob.len() - 1)] ^= 0x5A;
                if let Ok(img) = gmkit_media::decode(&flipped) {
                    assert_eq!((img.width(), img.height()), (w, h));
                }
                tried += 1;
            }
        }
    }
    assert!(tried > 50);
}
