//! Texture pages of the corpus: every page decodes, re-encodes in its own format to the same
//! pixels, and exports as a PNG the `image` crate opens at the page's size.

use gmkit_media::{BlobFormat, Encoding};

mod common;
use common::parse;

#[test]
fn every_corpus_page_decodes_and_round_trips() {
    let names = gmkit_testdata::need!(gmkit_testdata::corpus_names());
    let mut pages = 0;
    let mut exact = 0;
    let mut bz2 = 0;
    for name in &names {
        let path = gmkit_testdata::corpus_path(name).unwrap();
        let Some(data) = parse(&path) else { continue };
        let Some(tx) = &data.textures else { continue };
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
                gmkit_media::BlobFormat::Png == page.format(),
                enc.starts_with(b"\x89PNG")
            );
            assert_eq!(
                Encoding::of(&enc).unwrap(),
                Encoding::of(blob).unwrap(),
                "{name} page {i}"
            );
            let back = gmkit_media::decode(&enc).unwrap();
            assert!(
                back == img,
                "{name} page {i}: decode → encode → decode changed pixels"
            );
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
    }
    eprintln!(
        "{pages} pages decoded; all {bz2} BZ2+QOI pages have a byte-exact QOI re-encode; {exact} of them a byte-exact bzip2 re-encode too"
    );
    assert!(pages >= names.len());
}
