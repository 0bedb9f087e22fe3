//! `gmkit decompile`: code entries as GML text.

use crate::exit;
use gmkit_data::parse_file;
use gmkit_gml::{Game, decompile, print};
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;
use std::io::IsTerminal;
use std::path::PathBuf;

/// Arguments of `gmkit decompile`.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  gmkit decompile data.win gml_Object_obj_player_Step_0\n  gmkit decompile data.win -o src/          # one .gml file per code entry\n  gmkit decompile --json data.win > code.jsonl\n\nWithout entries, every root entry is decompiled (nested functions appear in place).\nParts that could not be structured are marked `/* gmkit: unstructured code ... */`.\n\nExit status: 0 when every entry decompiled fully, 1 when some entry has unstructured parts\nor does not exist, 3 on I/O or data-file errors."
)]
pub struct Args {
    /// The data file (data.win, game.unx, game.droid, game.ios)
    pub file: PathBuf,
    /// Code entries to decompile, by name (`gml_Script_foo`) or index; default: all root entries
    pub entries: Vec<String>,
    /// Write `<entry>.gml` files into this folder instead of printing
    #[arg(short = 'o', long = "output")]
    pub output: Option<PathBuf>,
    /// Print one JSON object per entry (JSON lines: entry, failures, text)
    #[arg(long)]
    pub json: bool,
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
            eprintln!("gmkit decompile: {}: {e}", args.file.display());
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
    let game = Game::new(&file);
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
                    eprintln!("gmkit decompile: no code entry named {e}");
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
    for i in list {
        let name = game.code_name(i).to_string();
        let (text, failures) = match decompile::decompile_entry(&game, i) {
            Ok(d) => (print::print_stmts(&d.body), d.failures),
            Err(e) => {
                eprintln!("gmkit decompile: {name}: {e}");
                status = exit::FAILED;
                continue;
            }
        };
        if failures > 0 {
            status = exit::FAILED;
        }
        if let Some(b) = &bar {
            b.inc(1);
        }
        if let Some(dir) = &args.output {
            // Entry names are file-name safe except for separators some versions use.
            let fname: String = name
                .chars()
                .map(|c| {
                    if c == '/' || c == '\\' || c == ':' {
                        '_'
                    } else {
                        c
                    }
                })
                .collect();
            let path = dir.join(format!("{fname}.gml"));
            let mut data = text.clone().into_bytes();
            data.push(b'\n');
            let expect = data.clone();
            if let Err(e) = crate::io::write_atomic(&path, &data, |back| {
                (back == expect.as_slice())
                    .then_some(())
                    .ok_or_else(|| "the file read back differs".to_string())
            }) {
                eprintln!("gmkit decompile: {e}");
                return exit::IO;
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
