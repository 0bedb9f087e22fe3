//! `gmkit`: the command-line toolkit for GameMaker's binary formats.

mod cmd;
mod io;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// Exit codes used by every subcommand.
pub mod exit {
    /// Everything worked.
    pub const OK: u8 = 0;
    /// At least one input failed (parse error, mismatch, invalid data).
    pub const FAILED: u8 = 1;
    /// The command line itself was wrong (clap also uses 2).
    pub const USAGE: u8 = 2;
    /// An I/O error: a file could not be read or written.
    pub const IO: u8 = 3;
}

#[derive(Parser)]
#[command(
    name = "gmkit",
    version,
    about = "Read, check and convert GameMaker data files, ds_* strings and Elephant buffers",
    after_help = "Examples:\n  gmkit check data.win\n  gmkit check --json game/*.win\n  gmkit decompile data.win gml_Object_obj_player_Step_0\n  gmkit ds decode 2F010000...\n  gmkit ds decode save.txt | gmkit ds encode\n  gmkit elephant decode --string save.txt\n  gmkit ini decode save.ini > save.json"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Parse, rebuild and compare data files (data.win, game.unx, ...)
    Check(cmd::check::Args),
    /// Decompile code entries to GML text
    Decompile(cmd::decompile::Args),
    /// Decode and encode ds_* strings (ds_map_write, ds_list_write, ...)
    #[command(subcommand)]
    Ds(cmd::ds::Command),
    /// Decode and encode Elephant buffers and export strings
    #[command(subcommand)]
    Elephant(cmd::elephant::Command),
    /// Expand or re-pack the ds_* strings inside a GameMaker .ini save file
    #[command(subcommand)]
    Ini(cmd::ini::Command),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let code = match cli.command {
        Command::Check(args) => cmd::check::run(args),
        Command::Decompile(args) => cmd::decompile::run(args),
        Command::Ds(c) => cmd::ds::run(c),
        Command::Elephant(c) => cmd::elephant::run(c),
        Command::Ini(c) => cmd::ini::run(c),
    };
    ExitCode::from(code)
}
