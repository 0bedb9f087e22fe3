use gmkit_data::chunks::code::{ExtendedKind, Instruction, PushValue};
use gmkit_gml::Game;
fn main() {
    for path in std::env::args().skip(1) {
        let file = gmkit_data::parse_file(&path).expect("parse");
        let game = Game::new(&file);
        let code = file.code.as_ref().unwrap();
        let vars = &file.variables.as_ref().unwrap().variables;
        println!("## {path} {:?}", file.version);
        for e in 0..code.entries.len() {
            let Ok(ins) = code.instructions(e) else {
                continue;
            };
            for k in 1..ins.len() {
                if let Instruction::Extended {
                    kind: ExtendedKind::SETOWNER,
                    ..
                } = ins[k]
                {
                    let id = match ins[k - 1] {
                        Instruction::Push {
                            value: PushValue::Int16(v),
                            ..
                        } => v as i64,
                        Instruction::Push {
                            value: PushValue::Int32(v),
                            ..
                        } => v as i64,
                        _ => -999999,
                    };
                    // next array variable
                    let mut next = String::new();
                    for j in k + 1..(k + 40).min(ins.len()) {
                        let var = match &ins[j] {
                            Instruction::Pop { var, .. } => Some(var),
                            Instruction::Push {
                                value: PushValue::Variable(var),
                                ..
                            } if var.ref_type.0 != 0xA0 => Some(var),
                            _ => None,
                        };
                        if let Some(v) = var {
                            if v.ref_type.0 == 0xA0 {
                                continue;
                            }
                            let vv = &vars[v.variable.0 as usize];
                            next = format!(
                                "{} vari={} str={} id={} rt={:x}",
                                game.var_name(v.variable),
                                v.variable.0,
                                vv.name.0,
                                vv.variable_id,
                                v.ref_type.0
                            );
                            break;
                        }
                    }
                    println!(
                        "{e:5} {:40} id={id} ({:#x}) hi={} lo={} -> {next}",
                        game.code_name(e),
                        id,
                        id >> 16,
                        id & 0xffff
                    );
                }
            }
        }
    }
}
