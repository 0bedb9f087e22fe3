//! `gmkit ini`.

/// Subcommands of `gmkit ini`.
#[derive(clap::Subcommand)]
pub enum Command {
    /// Decode to JSON
    Decode,
    /// Encode from JSON
    Encode,
}

pub fn run(_c: Command) -> u8 {
    eprintln!("gmkit ini: not implemented yet");
    crate::exit::FAILED
}
