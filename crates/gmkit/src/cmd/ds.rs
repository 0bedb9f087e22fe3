//! `gmkit ds`.

/// Subcommands of `gmkit ds`.
#[derive(clap::Subcommand)]
pub enum Command {
    /// Decode to JSON
    Decode,
    /// Encode from JSON
    Encode,
}

pub fn run(_c: Command) -> u8 {
    eprintln!("gmkit ds: not implemented yet");
    crate::exit::FAILED
}
