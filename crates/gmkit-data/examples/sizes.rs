use gmkit_data::chunks::code::instruction::Instruction;
fn main() {
    let path = std::env::args().nth(1).unwrap();
    let f = gmkit_data::parse_file(&path).unwrap();
    println!("Instruction {} bytes", std::mem::size_of::<Instruction>());
    if let Some(c) = &f.code {
        let n: usize = (0..c.entries.len())
            .map(|i| c.instructions(i).map_or(0, |v| v.len()))
            .sum();
        println!(
            "code entries {} instructions {} -> {} KB",
            c.entries.len(),
            n,
            n * std::mem::size_of::<Instruction>() / 1024
        );
    }
    if let Some(s) = &f.string_table {
        println!("strings {} -> {} KB", s.len(), s.len() * 32 / 1024);
    }
}
