//! Edit tests for sprites and fonts: add a frame to a sprite (with a new texture page item and,
//! when the sprite has one mask per frame, a new mask), change a glyph's shift, rebuild,
//! re-parse, and check the change and that nothing else moved.

use gmkit_data::chunks::texture_page_item::TpagRef;
use gmkit_data::{build_bytes, parse_bytes};

mod common;
use common::*;

fn edit_and_check(name: &str) {
    let bytes = need!(corpus_file(name));
    let mut file = parse_bytes(bytes).unwrap();
    let before = file.clone();
    let sprites = file.sprites.as_mut().unwrap();

    // Prefer a sprite with one mask per frame (so the masks must grow too).
    let pick = sprites
        .sprites
        .iter()
        .position(|s| {
            s.as_ref()
                .is_some_and(|s| s.frames.len() > 1 && s.masks.len() == s.frames.len())
        })
        .or_else(|| {
            sprites
                .sprites
                .iter()
                .position(|s| s.as_ref().is_some_and(|s| !s.frames.is_empty()))
        })
        .expect("a sprite with frames");
    let sprite = sprites.sprites[pick].as_mut().unwrap();
    let old_frames = sprite.frames.len();
    let old_masks = sprite.masks.len();
    let per_frame_masks = old_masks > 1 && old_masks == old_frames;

    // A new texture page item, copied from the sprite's first frame and moved a bit.
    let tpag = file.texture_page_items.as_mut().unwrap();
    let first = sprite.frames[0].expect("first frame has an item").0 as usize;
    let mut item = tpag.items[first].unwrap();
    item.source[0] = item.source[0].wrapping_add(1);
    tpag.items.push(Some(item));
    let new_ref = TpagRef((tpag.items.len() - 1) as u32);
    sprite.frames.push(Some(new_ref));
    if per_frame_masks {
        let m = sprite.masks[0].clone();
        sprite.masks.push(m);
    }

    // Change a glyph's shift.
    let fonts = file.fonts.as_mut().unwrap();
    let (fi, gi) = fonts
        .fonts
        .iter()
        .enumerate()
        .find_map(|(i, f)| {
            f.as_ref()
                .and_then(|f| f.glyphs.iter().position(|g| g.is_some()).map(|g| (i, g)))
        })
        .expect("a font with glyphs");
    let glyph = fonts.fonts[fi].as_mut().unwrap().glyphs[gi]
        .as_mut()
        .unwrap();
    let old_shift = glyph.shift;
    glyph.shift = old_shift.wrapping_add(3);

    let out = build_bytes(&file).unwrap();
    let again = parse_bytes(out.clone()).unwrap();
    assert_eq!(
        build_bytes(&again).unwrap(),
        out,
        "{name}: rebuild is stable"
    );

    // The sprite has its new frame, pointing at the new item.
    let s2 = again.sprites.as_ref().unwrap();
    let edited = s2.sprites[pick].as_ref().unwrap();
    assert_eq!(edited.frames.len(), old_frames + 1, "{name}: frame count");
    assert_eq!(edited.frames.last(), Some(&Some(new_ref)));
    assert_eq!(
        again.texture_page_items.as_ref().unwrap().items[new_ref.0 as usize],
        Some(item)
    );
    let want_masks = if per_frame_masks {
        old_masks + 1
    } else {
        old_masks
    };
    assert_eq!(edited.masks.len(), want_masks, "{name}: mask count");
    // Every other sprite is unchanged.
    let orig = &before.sprites.as_ref().unwrap().sprites;
    assert_eq!(s2.sprites.len(), orig.len());
    for (i, (a, b)) in s2.sprites.iter().zip(orig).enumerate() {
        if i != pick {
            assert_eq!(a, b, "{name}: sprite {i} changed");
        }
    }
    let mut edited_back = edited.clone();
    edited_back.frames.pop();
    edited_back.masks.truncate(old_masks);
    assert_eq!(
        Some(&edited_back),
        orig[pick].as_ref(),
        "{name}: only the frame was added"
    );

    // The glyph has its new shift; everything else in the fonts is unchanged.
    let f2 = again.fonts.as_ref().unwrap();
    let g2 = f2.fonts[fi].as_ref().unwrap().glyphs[gi].as_ref().unwrap();
    assert_eq!(g2.shift, old_shift.wrapping_add(3), "{name}: glyph shift");
    let mut fonts_back = f2.clone();
    fonts_back.fonts[fi].as_mut().unwrap().glyphs[gi]
        .as_mut()
        .unwrap()
        .shift = old_shift;
    assert_eq!(
        &fonts_back,
        before.fonts.as_ref().unwrap(),
        "{name}: other font data"
    );

    // Untouched chunks stay equal.
    assert_eq!(again.sequences, before.sequences);
    assert_eq!(again.version, before.version);
}

#[test]
fn add_sprite_frame_and_change_glyph_pre_2_3() {
    edit_and_check("jtool.win");
}

#[test]
fn add_sprite_frame_and_change_glyph_2023() {
    edit_and_check("economic-journey-of-blocks.win");
}
