//! `gmkit check`: parse, rebuild and compare data files.

/// Arguments of `gmkit check`.
#[derive(clap::Args)]
pub struct Args {
    /// Data files to check (data.win, game.unx, game.droid, game.ios, audiogroupN.dat)
    pub files: Vec<std::path::PathBuf>,
    /// Print one JSON object per file
    #[arg(long)]
    pub json: bool,
}

pub fn run(_args: Args) -> u8 {
    eprintln!("gmkit check: not implemented yet");
    crate::exit::FAILED
}
