//! Prints the assembly text of code entries: `cargo run --release -p gmkit-data --example disasm
//! -- FILE [ENTRY_NAME...]` (every entry when no name is given).

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let path = args.next().ok_or("usage: disasm FILE [ENTRY_NAME...]")?;
    let names: Vec<String> = args.collect();
    let data = gmkit_data::parse_file(&path)?;
    let Some(code) = &data.code else {
        return Err("no CODE chunk (a YYC game)".into());
    };
    let strings = data.strings.as_ref().ok_or("no STRG chunk")?;
    let dis = gmkit_data::chunks::code::asm::Disassembler::new(&data);
    for (i, e) in code.entries.iter().enumerate() {
        let name = strings
            .get(e.name)
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        if !names.is_empty() && !names.contains(&name) {
            continue;
        }
        println!("; ==== {name}");
        print!("{}", dis.entry(i)?);
    }
    Ok(())
}
