//! Fuzz target: any text parses (as statements and as one expression) to a tree or an error
//! with a position, never panics, overflows the stack or hangs; a tree prints.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(src) = std::str::from_utf8(data) else { return };
    match gmkit_gml::parse::parse(src) {
        Ok(stmts) => {
            let _ = gmkit_gml::print::print_stmts(&stmts);
        }
        Err(e) => assert!(e.line >= 1 && e.col >= 1, "{e}"),
    }
    if let Err(e) = gmkit_gml::parse::parse_expr(src) {
        assert!(e.line >= 1 && e.col >= 1, "{e}");
    }
});
