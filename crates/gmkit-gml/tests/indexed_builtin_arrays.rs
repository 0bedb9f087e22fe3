//! An edited entry's text goes through `entries::replace_code` (the folder's `.gml`, `gmkit
//! import --code`, the studio). A built-in array written with an index (`view_camera[0]`) is
//! that element; only a bare name (`view_xview`) means element 0 with an int64 index (spec
//! §4.7). Every corpus entry whose decompiled text indexes a built-in array, replaced by that
//! text, keeps its instructions (killstreak's `oBackground_Draw_0` once became
//! `view_camera[int64(0)][0]`).

mod common;

use gmkit_gml::Game;

/// Whether `text` indexes a built-in array (`view_…[` or `background_…[`).
fn indexes_a_builtin_array(text: &str) -> bool {
    ["view_", "background_"].iter().any(|p| {
        text.match_indices(p).any(|(i, _)| {
            let rest = &text[i..];
            let end = rest
                .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(rest.len());
            rest[end..].starts_with('[')
        })
    })
}

#[test]
fn indexed_builtin_arrays_compile_back_through_replace_code() {
    let corpus = gmkit_testdata::need!(gmkit_testdata::corpus_all());
    let mut checked = 0;
    for (name, bytes) in corpus {
        let Ok(file) = gmkit_data::parse_bytes(bytes) else {
            continue;
        };
        let Some(code) = file.code.as_ref() else {
            continue;
        };
        let game = Game::new(&file);
        let roots: Vec<(usize, String)> = (0..code.entries.len())
            .filter(|&i| code.entries[i].body.is_root() && game.children(i).is_empty())
            .filter_map(|i| {
                let d = gmkit_gml::decompile::decompile_entry(&game, i).ok()?;
                let text = gmkit_gml::print::print_stmts(&d.body);
                // A backslash in a GMS1 string reads differently through `compile_text` (no
                // escapes before 2.0), a separate matter: those entries are left out here.
                (indexes_a_builtin_array(&text) && !text.contains('\\')).then_some((i, text))
            })
            .collect();
        for (i, text) in roots {
            let entry = game.code_name(i).to_string();
            // Only entries whose text compiles back exactly by the round-trip path count.
            match common::replaced_difference(&file, i, &text) {
                Err(_) => continue,
                Ok(Some(d)) => panic!("{name} {entry}: {d}"),
                Ok(None) => {}
            }
            checked += 1;
        }
    }
    println!("entries indexing a built-in array, replaced by their own text: {checked}");
    assert!(checked > 0, "no corpus entry indexes a built-in array");
}
