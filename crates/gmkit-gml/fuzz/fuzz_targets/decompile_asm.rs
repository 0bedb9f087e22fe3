//! Fuzz target: arbitrary instruction lists through the decompiler. The input is assembly text,
//! assembled against `gmkit_data::sample()`; every list that assembles (any branch targets, any
//! stack shapes) must decompile and print without panicking or hanging.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(src) = std::str::from_utf8(data) else { return };
    let mut file = gmkit_data::sample();
    let Ok(ins) = gmkit_data::chunks::code::asm::assemble(src, &mut file) else { return };
    let game = gmkit_gml::Game::new(&file);
    let out = gmkit_gml::decompile::decompile_instructions(&game, &ins);
    let _ = gmkit_gml::print::print_stmts(&out.body);
});
