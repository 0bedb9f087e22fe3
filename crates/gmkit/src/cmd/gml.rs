//! `gmkit gml`: GML source tools. `check-source` compiles a GameMaker project's scripts and
//! events against the data file built from it and compares the bytecode entry by entry.

use crate::exit;
use gmkit_data::parse_file;
use gmkit_gml::Game;
use gmkit_gml::check::{Status, check_source};
use serde::Serialize;
use std::path::PathBuf;

/// `gmkit gml` subcommands.
#[derive(clap::Subcommand)]
pub enum Command {
    /// Compile a project's GML (.yyp or .project.gmx folder) against a data file, entry by entry
    #[command(
        name = "check-source",
        after_help = "Examples:\n  gmkit gml check-source data.win MyGame/           # the folder with MyGame.yyp\n  gmkit gml check-source data.win src/ --json | jq .summary\n\nEvery root code entry of the data file gets one status: identical, differs (the first\ndiffering instruction, as `gmkit` disassembles it), error (the GML does not parse, with file,\nline and column, or uses a construct the compiler does not emit yet) or missing (no script or\nevent of the project compiles to that entry). Units of the project the data file lacks are\nlisted as extra.\n\nExit status: 0 when every entry is identical, 1 when some entry is not, 3 when the data file\nor the project cannot be read."
    )]
    CheckSource(CheckSourceArgs),
}

/// Arguments of `gmkit gml check-source`.
#[derive(clap::Args)]
pub struct CheckSourceArgs {
    /// The data file (data.win, game.unx, game.droid, game.ios)
    pub file: PathBuf,
    /// The project folder (holding the .yyp or .project.gmx)
    pub project: PathBuf,
    /// Print one JSON object (entries, extra, problems, summary, kinds)
    #[arg(long)]
    pub json: bool,
    /// Print only the entries that are not identical (and the summary)
    #[arg(long)]
    pub only_failures: bool,
}

#[derive(Serialize)]
struct JsonEntry<'a> {
    entry: &'a str,
    status: &'static str,
    file: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    at: Option<usize>,
    #[serde(skip_serializing_if = "Option::is_none")]
    expected: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    found: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<&'a str>,
    #[serde(skip_serializing_if = "str::is_empty")]
    kind: &'a str,
}

#[derive(Serialize)]
struct JsonSummary {
    entries: usize,
    identical: usize,
    differs: usize,
    error: usize,
    missing: usize,
    extra: usize,
    identical_percent: f64,
}

/// Runs a `gmkit gml` subcommand.
pub fn run(cmd: Command) -> u8 {
    match cmd {
        Command::CheckSource(a) => check(a),
    }
}

fn check(args: CheckSourceArgs) -> u8 {
    let file = match parse_file(&args.file) {
        Ok(f) => f,
        Err(e) => {
            eprintln!(
                "gmkit gml check-source: {}",
                crate::io::file_error(&args.file, &e)
            );
            return exit::IO;
        }
    };
    if file.code.as_ref().is_none_or(|c| c.entries.is_empty()) {
        eprintln!(
            "gmkit gml check-source: {}: no bytecode (no CODE chunk: a YYC build?)",
            args.file.display()
        );
        return exit::FAILED;
    }
    let game = Game::new(&file);
    let report = match check_source(&game, &args.project) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("gmkit gml check-source: {e}");
            return exit::IO;
        }
    };
    let summary = JsonSummary {
        entries: report.entries.len(),
        identical: report.count("identical"),
        differs: report.count("differs"),
        error: report.count("error"),
        missing: report.count("missing"),
        extra: report.extra.len(),
        identical_percent: (report.identical_percent() * 10.0).round() / 10.0,
    };
    if args.json {
        let entries: Vec<JsonEntry> = report
            .entries
            .iter()
            .filter(|e| !args.only_failures || e.status != Status::Identical)
            .map(|e| {
                let (at, expected, found, error) = match &e.status {
                    Status::Differs {
                        at,
                        expected,
                        found,
                    } => (Some(*at), expected.as_deref(), found.as_deref(), None),
                    Status::Error(m) => (None, None, None, Some(m.as_str())),
                    _ => (None, None, None, None),
                };
                JsonEntry {
                    entry: &e.entry,
                    status: e.status.word(),
                    file: e.file.as_ref().map(|p| p.display().to_string()),
                    at,
                    expected,
                    found,
                    error,
                    kind: &e.kind,
                }
            })
            .collect();
        let extra: Vec<serde_json::Value> = report
            .extra
            .iter()
            .map(|(n, p)| serde_json::json!({"entry": n, "file": p.display().to_string()}))
            .collect();
        let kinds: Vec<serde_json::Value> = report
            .kinds()
            .into_iter()
            .map(|(k, n)| serde_json::json!({"kind": k, "count": n}))
            .collect();
        let out = serde_json::json!({
            "file": args.file.display().to_string(),
            "project": args.project.display().to_string(),
            "format": report.format,
            "entries": entries,
            "extra": extra,
            "problems": report.problems,
            "summary": summary,
            "kinds": kinds,
        });
        println!("{out}");
    } else {
        for e in &report.entries {
            match &e.status {
                Status::Identical if args.only_failures => {}
                Status::Identical | Status::Missing => {
                    println!("{:10} {}", e.status.word(), e.entry)
                }
                Status::Differs {
                    at,
                    expected,
                    found,
                } => println!(
                    "{:10} {}  at instruction {at}: expected `{}`, found `{}`",
                    "differs",
                    e.entry,
                    expected.as_deref().unwrap_or("(end of code)"),
                    found.as_deref().unwrap_or("(end of code)")
                ),
                Status::Error(m) => println!("{:10} {}  {m}", "error", e.entry),
            }
        }
        for (n, p) in &report.extra {
            println!(
                "{:10} {n}  ({}: not in the data file)",
                "extra",
                p.display()
            );
        }
        for p in &report.problems {
            println!("problem    {p}");
        }
        println!(
            "summary: {} entries ({}): {} identical ({:.1} %), {} differ, {} error, {} missing; {} extra",
            summary.entries,
            report.format,
            summary.identical,
            summary.identical_percent,
            summary.differs,
            summary.error,
            summary.missing,
            summary.extra
        );
        for (k, n) in report.kinds() {
            println!("  {n:5}  {k}");
        }
    }
    if summary.identical == summary.entries {
        exit::OK
    } else {
        exit::FAILED
    }
}
