//! `gmkit elephant`.

/// Subcommands of `gmkit elephant`.
#[derive(clap::Subcommand)]
pub enum Command {
    /// Decode to JSON
    Decode,
    /// Encode from JSON
    Encode,
}

pub fn run(_c: Command) -> u8 {
    eprintln!("gmkit elephant: not implemented yet");
    crate::exit::FAILED
}
