//! `audiogroupN.dat` files are FORM containers holding only an AUDO chunk. Build one from the
//! audio of a corpus game and check it parses and rebuilds byte for byte.

use gmkit_data::{build_bytes, parse_bytes};

mod common;
use common::*;

/// The body of a chunk of a FORM file.
fn chunk_body<'a>(data: &'a [u8], name: &[u8; 4]) -> &'a [u8] {
    let mut pos = 8;
    while pos + 8 <= data.len() {
        let len = u32::from_le_bytes(data[pos + 4..pos + 8].try_into().unwrap()) as usize;
        if &data[pos..pos + 4] == name {
            return &data[pos + 8..pos + 8 + len];
        }
        pos += 8 + len;
    }
    panic!("no {name:?} chunk");
}

#[test]
fn audio_group_file_round_trips() {
    let game = need!(corpus_file("patapon-like-compiled.win"));
    let audo = chunk_body(&game, b"AUDO");
    // AUDO holds absolute pointers: rebase them from the game's layout to the new file's.
    let old_start = audo.as_ptr() as usize - game.as_ptr() as usize;
    let new_start = 16;
    let mut body = audo.to_vec();
    let n = u32::from_le_bytes(body[0..4].try_into().unwrap()) as usize;
    assert!(n > 0);
    for i in 0..n {
        let at = 4 + 4 * i;
        let p = u32::from_le_bytes(body[at..at + 4].try_into().unwrap()) as usize;
        let rebased = (p - old_start + new_start) as u32;
        body[at..at + 4].copy_from_slice(&rebased.to_le_bytes());
    }
    let mut file = b"FORM".to_vec();
    file.extend_from_slice(&((body.len() + 8) as u32).to_le_bytes());
    file.extend_from_slice(b"AUDO");
    file.extend_from_slice(&(body.len() as u32).to_le_bytes());
    file.extend_from_slice(&body);

    let parsed = parse_bytes(file.clone()).expect("an AUDO-only file parses");
    assert!(parsed.general.is_none());
    let audio = parsed.audio.as_ref().expect("AUDO is typed");
    assert_eq!(audio.entries.len(), n);
    assert!(parsed.opaque_chunks().is_empty());
    assert_eq!(build_bytes(&parsed).unwrap(), file);
}
