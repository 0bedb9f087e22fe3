//! `gmkit check`: parse, rebuild and compare data files.

use gmkit_data::{ParseOptions, build, parse_bytes_with};
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;
use std::path::PathBuf;
use std::time::Instant;

/// Arguments of `gmkit check`.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  gmkit check                      # the built-in sample\n  gmkit check data.win\n  gmkit check --json game/*.win > report.jsonl\n  gmkit check --exact data.win     # also list bytes no field explains\n\nExit status: 0 when every file parsed and rebuilt identically, 1 otherwise, 3 on I/O errors."
)]
pub struct Args {
    /// Data files to check (data.win, game.unx, game.droid, game.ios, audiogroupN.dat); without
    /// files, checks a small built-in sample
    pub files: Vec<PathBuf>,
    /// Print one JSON object per file (JSON lines)
    #[arg(long)]
    pub json: bool,
    /// Lenient parsing: integrity problems become warnings, and a chunk that fails to parse is
    /// kept as bytes (listed as opaque) so that the rest of the file is still checked
    #[arg(long)]
    pub lenient: bool,
    /// Also report byte ranges that no field of the model explains
    #[arg(long)]
    pub exact: bool,
}

/// The result for one file.
#[derive(Serialize)]
struct Report {
    file: String,
    size: usize,
    version: Option<String>,
    /// Why the version is what it is: each detection step (also when the parse fails).
    version_evidence: Vec<String>,
    parsed: bool,
    identical: bool,
    opaque_chunks: Vec<String>,
    parse_ms: f64,
    build_ms: f64,
    error: Option<String>,
    /// The chunk the parse error is in.
    error_chunk: Option<String>,
    /// The byte offset of the parse error.
    error_offset: Option<usize>,
    /// `--lenient`: chunks that failed to parse and were kept as bytes.
    failed_chunks: Vec<FailedChunk>,
    #[serde(skip_serializing_if = "Option::is_none")]
    unexplained_bytes: Option<usize>,
    warnings: usize,
}

/// A chunk that `--lenient` kept as bytes.
#[derive(Serialize)]
struct FailedChunk {
    chunk: Option<String>,
    offset: usize,
    error: String,
}

/// An error without the version it carries (reported in its own fields).
fn error_text(e: &gmkit_data::Error) -> String {
    format!("{} ({})", e.kind, e.location)
}

fn evidence(v: &gmkit_data::VersionReport) -> Vec<String> {
    v.evidence.iter().map(|e| e.to_string()).collect()
}

fn check_bytes(name: String, bytes: bytes::Bytes, args: &Args) -> Report {
    let size = bytes.len();
    let mut report = Report {
        file: name,
        size,
        version: None,
        version_evidence: Vec::new(),
        parsed: false,
        identical: false,
        opaque_chunks: Vec::new(),
        parse_ms: 0.0,
        build_ms: 0.0,
        error: None,
        error_chunk: None,
        error_offset: None,
        failed_chunks: Vec::new(),
        unexplained_bytes: None,
        warnings: 0,
    };
    let opts = ParseOptions {
        lenient: args.lenient,
        track_coverage: args.exact,
    };
    let original = bytes;
    let t = Instant::now();
    let parsed = parse_bytes_with(original.clone(), &opts);
    report.parse_ms = t.elapsed().as_secs_f64() * 1e3;
    let (file, parse_report) = match parsed {
        Ok(p) => p,
        Err(e) => {
            // The version the rest of the file points to, and why.
            let version = e
                .version
                .as_deref()
                .cloned()
                .or_else(|| gmkit_data::detect_version(&original).ok());
            if let Some(v) = version {
                report.version = Some(v.version.to_string());
                report.version_evidence = evidence(&v);
            }
            report.error = Some(error_text(&e));
            report.error_chunk = e.location.chunk.map(|c| c.to_string());
            report.error_offset = Some(e.location.offset);
            return report;
        }
    };
    report.parsed = true;
    report.version = Some(file.version.to_string());
    report.version_evidence = evidence(&parse_report.version);
    report.failed_chunks = parse_report
        .failed_chunks
        .iter()
        .map(|e| FailedChunk {
            chunk: e.location.chunk.map(|c| c.to_string()),
            offset: e.location.offset,
            error: error_text(e),
        })
        .collect();
    report.opaque_chunks = file.opaque_chunks().iter().map(|c| c.to_string()).collect();
    report.warnings = parse_report.warnings.len();
    report.unexplained_bytes = parse_report
        .unexplained
        .map(|gaps| gaps.iter().map(|(s, e)| e - s).sum());
    let t = Instant::now();
    // A file read leniently is written back as read: the model checks (null slots, references)
    // that strict reading enforces are what lenient reading relaxed.
    // In parts: the payloads stay views of the input (no copy, and they compare at once).
    let built = if args.lenient {
        gmkit_data::build_unchecked(&file)
    } else {
        build(&file)
    };
    report.build_ms = t.elapsed().as_secs_f64() * 1e3;
    match built {
        Ok(out) => {
            report.identical = out.eq_bytes(&original);
            if !report.identical {
                let out = out.into_vec();
                let first = out
                    .iter()
                    .zip(original.iter())
                    .position(|(a, b)| a != b)
                    .unwrap_or(out.len().min(original.len()));
                report.error = Some(format!(
                    "rebuilt file differs: {} bytes vs {} original, first difference at byte {first}",
                    out.len(),
                    original.len()
                ));
            }
        }
        Err(e) => report.error = Some(format!("build failed: {e}")),
    }
    report
}

fn human(r: &Report) -> String {
    use std::fmt::Write as _;
    let mut o = String::new();
    let status = if r.identical { "ok" } else { "FAILED" };
    let _ = writeln!(o, "{}: {status}", r.file);
    let _ = writeln!(o, "  size       {} bytes", r.size);
    if let Some(v) = &r.version {
        let _ = writeln!(o, "  version    {v}");
        let _ = writeln!(o, "  evidence   {}", r.version_evidence.join(", "));
    }
    let _ = writeln!(
        o,
        "  parse      {} ({:.2} ms)",
        if r.parsed { "ok" } else { "failed" },
        r.parse_ms
    );
    if r.parsed {
        let _ = writeln!(
            o,
            "  rebuild    {} ({:.2} ms)",
            if r.identical {
                "byte-identical"
            } else {
                "different"
            },
            r.build_ms
        );
        if !r.opaque_chunks.is_empty() {
            let _ = writeln!(o, "  opaque     {}", r.opaque_chunks.join(" "));
        }
        for f in &r.failed_chunks {
            let _ = writeln!(o, "  kept as bytes: {}", f.error);
        }
        if let Some(n) = r.unexplained_bytes {
            let _ = writeln!(o, "  unexplained {n} bytes");
        }
        if r.warnings > 0 {
            let _ = writeln!(o, "  warnings   {}", r.warnings);
        }
    }
    if let Some(e) = &r.error {
        let _ = writeln!(o, "  error      {e}");
    }
    o
}

pub fn run(args: Args) -> u8 {
    let mut code = crate::exit::OK;
    let inputs: Vec<Option<PathBuf>> = if args.files.is_empty() {
        vec![None]
    } else {
        args.files.iter().cloned().map(Some).collect()
    };
    let bar = if inputs.len() > 1 && !args.json {
        let b = ProgressBar::new(inputs.len() as u64);
        b.set_style(
            ProgressStyle::with_template("{bar:30} {pos}/{len} {msg}")
                .unwrap_or_else(|_| ProgressStyle::default_bar()),
        );
        b
    } else {
        ProgressBar::hidden()
    };
    for input in inputs {
        let (name, bytes) = match &input {
            None => (
                "<built-in sample>".to_string(),
                gmkit_data::build_bytes(&gmkit_data::sample())
                    .unwrap_or_default()
                    .into(),
            ),
            Some(path) => match gmkit_data::map_file(path) {
                Ok(b) => (path.display().to_string(), b),
                Err(e) => {
                    // `map_file`'s errors name the file.
                    bar.suspend(|| eprintln!("gmkit check: {e}"));
                    code = crate::exit::IO;
                    bar.inc(1);
                    continue;
                }
            },
        };
        bar.set_message(name.clone());
        let report = check_bytes(name, bytes, &args);
        if !report.identical && code == crate::exit::OK {
            code = crate::exit::FAILED;
        }
        let text = if args.json {
            format!("{}\n", serde_json::to_string(&report).unwrap_or_default())
        } else {
            human(&report)
        };
        if let Err(e) = bar
            .suspend(|| std::io::Write::write_all(&mut std::io::stdout().lock(), text.as_bytes()))
        {
            return crate::io::stdout_error("gmkit check", &e);
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    code
}
