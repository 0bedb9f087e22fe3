use gmkit_data::chunks::code::{Instruction, Opcode, PushValue};
use std::collections::BTreeMap;
fn main() {
    for path in std::env::args().skip(1) {
        let Ok(file) = gmkit_data::parse_file(&path) else {
            continue;
        };
        let Some(code) = file.code.as_ref() else {
            continue;
        };
        let mut m: BTreeMap<i16, usize> = BTreeMap::new();
        for e in 0..code.entries.len() {
            if !code.entries[e].body.is_root() {
                continue;
            }
            let Ok(ins) = code.instructions(e) else {
                continue;
            };
            for x in ins.iter() {
                if let Instruction::Push {
                    op: Opcode::PushBltn,
                    value: PushValue::Variable(v),
                } = x
                {
                    *m.entry(v.instance.0).or_default() += 1;
                }
            }
        }
        let v = &file.version;
        println!(
            "{:40} bc{} {}.{}.{}.{} lts={} {:?}",
            path.rsplit('/').next().unwrap(),
            v.bytecode,
            v.format.major,
            v.format.minor,
            v.format.release,
            v.format.build,
            v.lts,
            m
        );
    }
}
