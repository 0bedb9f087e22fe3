//! `gmkit decompile`: code entries as GML text.

mod files;

use crate::exit;
use gmkit_data::parse_file;
use gmkit_gml::{Game, decompile, print};
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

/// Arguments of `gmkit decompile`.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  gmkit decompile data.win gml_Object_obj_player_Step_0\n  gmkit decompile data.win -o src/          # one .gml file per code entry\n  gmkit decompile --json data.win > code.jsonl\n\nWithout entries, every root entry is decompiled (nested functions appear in place).\nParts that could not be structured are marked `/* gmkit: unstructured code ... */`.\nWith -o, each entry gets its own file: `<entry>.gml`, or `<safe name>~<index>.gml` for a name\nwith characters unsafe in file names, too long, or equal to another one ignoring case.\n\nExit status: 0 when every entry decompiled fully, 1 when some entry has unstructured parts,\ncannot be decompiled or does not exist, 3 on I/O or data-file errors (with -o, every other\nentry is still written)."
)]
pub struct Args {
    /// The data file (data.win, game.unx, game.droid, game.ios)
    pub file: PathBuf,
    /// Code entries to decompile, by name (`gml_Script_foo`) or index; default: all root entries
    pub entries: Vec<String>,
    /// Write one `<entry>.gml` file per entry into this folder instead of printing
    #[arg(short = 'o', long = "output")]
    pub output: Option<PathBuf>,
    /// Print one JSON object per entry (JSON lines: entry, failures, text)
    #[arg(long)]
    pub json: bool,
    /// The game's names file (enums, macros, and the places holding them or values of a
    /// kind; docs/names-file.md)
    #[arg(long = "names", value_name = "FILE")]
    pub names: Option<PathBuf>,
}

#[derive(Serialize)]
struct Entry<'a> {
    entry: &'a str,
    index: usize,
    failures: usize,
    text: &'a str,
}

/// Runs the command.
pub fn run(args: Args) -> u8 {
    let file = match parse_file(&args.file) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("gmkit decompile: {}", crate::io::file_error(&args.file, &e));
            return exit::IO;
        }
    };
    let Some(code) = file.code.as_ref() else {
        eprintln!(
            "gmkit decompile: {}: no bytecode (no CODE chunk: a YYC build?)",
            args.file.display()
        );
        return exit::FAILED;
    };
    let mut game = Game::new(&file);
    if let Some(path) = &args.names {
        let parsed = std::fs::read_to_string(path)
            .map_err(|e| e.to_string())
            .and_then(|t| gmkit_gml::names_file::NamesFile::parse(&t).map_err(|e| e.to_string()));
        match parsed {
            Ok(n) => game = game.with_names_file(n),
            Err(e) => {
                eprintln!("gmkit decompile: {}: {e}", path.display());
                return exit::FAILED;
            }
        }
    }
    let mut status = exit::OK;
    let mut list = Vec::new();
    if args.entries.is_empty() {
        list.extend((0..code.entries.len()).filter(|&i| code.entries[i].body.is_root()));
    } else {
        for e in &args.entries {
            let found = (0..game.code_count())
                .find(|&i| game.code_name(i) == e)
                .or_else(|| e.parse::<usize>().ok().filter(|&i| i < game.code_count()));
            match found {
                Some(i) => list.push(i),
                None => {
                    eprintln!(
                        "gmkit decompile: {}: no code entry named {}",
                        args.file.display(),
                        quoted(e)
                    );
                    status = exit::FAILED;
                }
            }
        }
    }
    if let Some(dir) = &args.output
        && let Err(e) = std::fs::create_dir_all(dir)
    {
        eprintln!("gmkit decompile: {}: {e}", dir.display());
        return exit::IO;
    }
    let bar = (args.output.is_some() && std::io::stderr().is_terminal()).then(|| {
        let b = ProgressBar::new(list.len() as u64);
        if let Ok(s) = ProgressStyle::with_template("{bar:40} {pos}/{len} {msg}") {
            b.set_style(s);
        }
        b
    });
    // File names for every entry of the file (not only those asked for), so that an entry's
    // file is the same whichever entries are decompiled.
    let file_names = args.output.as_ref().map(|_| {
        let names: Vec<&str> = (0..game.code_count()).map(|i| game.code_name(i)).collect();
        files::file_names(&names)
    });
    let input = args.file.display();
    for i in list {
        let name = game.code_name(i).to_string();
        if let Some(b) = &bar {
            b.inc(1);
        }
        let (text, failures) = match decompile::decompile_entry(&game, i) {
            Ok(d) => {
                if let Some(first) = d.failure_notes.first() {
                    eprintln!(
                        "gmkit decompile: {input}: code entry {}: {} part(s) not decompiled \
                         (the first: {})",
                        quoted(&name),
                        d.failures,
                        gmkit_data::text::one_line(first, 120)
                    );
                }
                (print::print_for(&d.body, &game.features), d.failures)
            }
            Err(e) => {
                eprintln!("gmkit decompile: {input}: {e}");
                status = status.max(exit::FAILED);
                continue;
            }
        };
        if failures > 0 {
            status = status.max(exit::FAILED);
        }
        if let (Some(dir), Some(fnames)) = (&args.output, &file_names) {
            let mut data = text.into_bytes();
            data.push(b'\n');
            if let Err(e) = write_entry(dir, &fnames[i], &data) {
                eprintln!(
                    "gmkit decompile: {input}: code entry {}: cannot write {}: {e}",
                    quoted(&name),
                    dir.join(&fnames[i]).display()
                );
                status = exit::IO;
            }
        } else if args.json {
            let j = Entry {
                entry: &name,
                index: i,
                failures,
                text: &text,
            };
            match serde_json::to_string(&j) {
                Ok(s) => println!("{s}"),
                Err(e) => eprintln!("gmkit decompile: {e}"),
            }
        } else {
            println!("// {name}");
            println!("{text}");
            println!();
        }
    }
    if let Some(b) = bar {
        b.finish_and_clear();
    }
    status
}

/// `s` quoted for a one-line message: control characters escaped, at most 120 characters.
fn quoted(s: &str) -> String {
    gmkit_data::text::quoted(s, 120)
}

/// Writes `data` to `dir/name` through a temporary file (whose name depends on neither the
/// entry nor `name`, so errors are about the file asked for), checking it reads back the same.
fn write_entry(dir: &Path, name: &str, data: &[u8]) -> std::io::Result<()> {
    let tmp = dir.join(format!(".gmkit-decompile-{}.tmp", std::process::id()));
    let target = dir.join(name);
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(data)?;
        f.sync_all()?;
        drop(f);
        if std::fs::read(&tmp)? != data {
            return Err(std::io::Error::other("the file read back differs"));
        }
        std::fs::rename(&tmp, &target)
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}
