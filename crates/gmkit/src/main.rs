//! `gmkit`: the command-line toolkit for GameMaker's binary formats.

mod cmd;
mod io;
mod studio;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// Keeps freed heap memory for the next file instead of handing it back to the system (glibc
/// returns freed memory above 128 KiB at once, so every file of a `gmkit check a.win b.win ...`
/// would fault its heap in again at ≈ 2.7 µs a 4 KiB page). Large blocks (≥ 32 MiB, the
/// payload-sized buffers of very large games) are still mapped and unmapped on their own.
#[cfg(all(target_os = "linux", target_env = "gnu"))]
fn keep_freed_heap() {
    // SAFETY: mallopt only sets glibc malloc's tuning parameters (it takes the allocator's own
    // lock); called first thing in main, and a refused setting leaves the default.
    unsafe {
        libc::mallopt(libc::M_TRIM_THRESHOLD, 1 << 30);
        libc::mallopt(libc::M_MMAP_THRESHOLD, 32 << 20);
    }
}
#[cfg(not(all(target_os = "linux", target_env = "gnu")))]
fn keep_freed_heap() {}

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
    after_help = "Examples:\n  gmkit demo\n  gmkit info data.win\n  gmkit unpack data.win mygame/ && gmkit pack mygame/ out.win\n  gmkit diff data.win out.win\n  gmkit check data.win\n  gmkit decompile data.win gml_Object_obj_player_Step_0\n  gmkit gml check-source data.win MyGame/\n  gmkit check --json game/*.win\n  gmkit ds decode 2F010000...\n  gmkit ds decode save.txt | gmkit ds encode\n  gmkit elephant decode --string save.txt\n  gmkit ini decode save.ini > save.json"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Show info, unpack, pack and compare on the built-in sample (or a file): the product in one command
    Demo(cmd::folder::DemoArgs),
    /// Parse, rebuild and compare data files (data.win, game.unx, ...)
    Check(cmd::check::Args),
    /// Name, version and why, chunk table, asset counts, VM or YYC
    Info(cmd::folder::InfoArgs),
    /// List the assets of one kind (sprites, sounds, rooms, code, strings, ...)
    Ls(cmd::folder::LsArgs),
    /// Unpack a data file into an editable folder (JSON, PNG, audio files)
    Unpack(cmd::folder::UnpackArgs),
    /// Pack a folder made by unpack back into a data file
    Pack(cmd::folder::PackArgs),
    /// Export some parts of a data file (strings, textures, sprites, ...) as files
    Export(cmd::folder::ExportArgs),
    /// Put strings, texture pages or sounds into a data file
    Import(cmd::folder::ImportArgs),
    /// Compare two data files or folders, asset by asset
    Diff(cmd::folder::DiffArgs),
    /// Decompile code entries to GML text
    Decompile(cmd::decompile::Args),
    /// GML source tools: check-source (compile a project against its data file)
    #[command(
        subcommand,
        after_help = "Examples:\n  gmkit gml check-source data.win MyGame/\n  gmkit gml check-source data.win src/ --json --only-failures"
    )]
    Gml(cmd::gml::Command),
    /// Decode and encode ds_* strings (ds_map_write, ds_list_write, ...)
    #[command(
        subcommand,
        after_help = "Examples:\n  gmkit ds decode save.txt > save.json\n  gmkit ds decode save.txt | gmkit ds encode"
    )]
    Ds(cmd::ds::Command),
    /// Decode and encode Elephant buffers and export strings
    #[command(
        subcommand,
        after_help = "Examples:\n  gmkit elephant decode --string save.txt > save.json\n  gmkit elephant decode save.bin | gmkit elephant encode -o again.bin"
    )]
    Elephant(cmd::elephant::Command),
    /// Expand or re-pack the ds_* strings inside a GameMaker .ini save file
    #[command(
        subcommand,
        after_help = "Examples:\n  gmkit ini decode save.ini > save.json\n  gmkit ini encode save.json -o save.ini"
    )]
    Ini(cmd::ini::Command),
    /// Open the game in a browser: browse, edit, save (a local server on 127.0.0.1)
    Studio(studio::Args),
}

fn main() -> ExitCode {
    keep_freed_heap();
    // `println!` panics when stdout cannot be written. A closed pipe (`gmkit ls x | head -3`)
    // means the reader wants no more: the command ends quietly (exit 0). A full disk ends like
    // an explicit stdout error, with one line and exit status 3.
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info.payload();
        let msg = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied())
            .unwrap_or("");
        if let Some(why) = msg.strip_prefix("failed printing to stdout") {
            if why.contains(io::BROKEN_PIPE_TEXT) {
                io::closed_pipe();
            }
            eprintln!("gmkit: stdout{why}");
            std::process::exit(3);
        }
        default_hook(info);
    }));
    let cli = Cli::parse();
    let code = match cli.command {
        Command::Check(args) => cmd::check::run(args),
        Command::Demo(a) => cmd::folder::demo(a),
        Command::Info(a) => cmd::folder::info(a),
        Command::Ls(a) => cmd::folder::ls(a),
        Command::Unpack(a) => cmd::folder::unpack(a),
        Command::Pack(a) => cmd::folder::pack(a),
        Command::Export(a) => cmd::folder::export(a),
        Command::Import(a) => cmd::folder::import(a),
        Command::Diff(a) => cmd::folder::diff(a),
        Command::Decompile(args) => cmd::decompile::run(args),
        Command::Gml(c) => cmd::gml::run(c),
        Command::Ds(c) => cmd::ds::run(c),
        Command::Elephant(c) => cmd::elephant::run(c),
        Command::Ini(c) => cmd::ini::run(c),
        Command::Studio(a) => studio::run(a),
    };
    ExitCode::from(code)
}
