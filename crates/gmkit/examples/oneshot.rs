//! One-shot speed as a CLI user sees it: runs `gmkit check --json FILE...` (one process over all
//! the files, every file parsed and built once) several times and prints the parse and build
//! throughput per file and summed, for the best run and the median run.
//!
//! ```text
//! cargo build --release -p gmkit --bin gmkit --example oneshot
//! target/release/examples/oneshot ../shared/corpus/*.win
//! target/release/examples/oneshot --runs 15 --libgm libgm-once.tsv ../shared/corpus/*.win
//! ```
//!
//! Options: `--runs N` (measured runs, default 9), `--bin PATH` (the `gmkit` binary; default: the
//! one beside this example's directory, `target/release/gmkit`), `--libgm TSV` (a table with
//! columns `file size parse_ms build_ms ...`, e.g. libgm's figures: adds its build MB/s per file
//! and lists the files we build slower). One run before the measured ones brings the files into
//! the page cache and is not counted (reading from disk is not the parser's time).
//!
//! A run's figures are `gmkit check`'s own `parse_ms` (mapping the file included) and `build_ms`
//! (`build`: in parts, payloads as views of the input), summed over the files: MB/s = sum of
//! sizes / sum of times. Runs are ranked by their summed parse time for the parse figures and by
//! their summed build time for the build figures; "best" is the fastest run, "median" the middle
//! one. The per-file columns come from those runs.

use std::collections::HashMap;
use std::path::PathBuf;
use std::process::Command;

/// One file's figures in one run.
#[derive(Clone)]
struct Row {
    file: String,
    size: f64,
    parse_ms: f64,
    build_ms: f64,
}

/// One `gmkit check --json` run.
struct Run {
    rows: Vec<Row>,
    parse_ms: f64,
    build_ms: f64,
}

fn run_check(bin: &PathBuf, files: &[String]) -> Result<Run, String> {
    let out = Command::new(bin)
        .args(["check", "--json"])
        .args(files)
        .output()
        .map_err(|e| format!("{}: {e}", bin.display()))?;
    if !out.status.success() {
        return Err(format!(
            "gmkit check exited with {}: {}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let mut rows = Vec::new();
    for line in String::from_utf8_lossy(&out.stdout).lines() {
        let v: serde_json::Value =
            serde_json::from_str(line).map_err(|e| format!("not JSON ({e}): {line}"))?;
        let num = |k: &str| {
            v.get(k)
                .and_then(|x| x.as_f64())
                .ok_or_else(|| format!("no {k} in {line}"))
        };
        rows.push(Row {
            file: v
                .get("file")
                .and_then(|f| f.as_str())
                .map(|f| {
                    std::path::Path::new(f)
                        .file_name()
                        .map_or(f.to_string(), |n| n.to_string_lossy().into_owned())
                })
                .unwrap_or_default(),
            size: num("size")?,
            parse_ms: num("parse_ms")?,
            build_ms: num("build_ms")?,
        });
    }
    if rows.len() != files.len() {
        return Err(format!("{} reports for {} files", rows.len(), files.len()));
    }
    Ok(Run {
        parse_ms: rows.iter().map(|r| r.parse_ms).sum(),
        build_ms: rows.iter().map(|r| r.build_ms).sum(),
        rows,
    })
}

/// `file -> build_ms` from a tab-separated table (`file size parse_ms build_ms ...`); lines whose
/// build time is not a positive number (a header, a file that failed) are skipped.
fn read_table(path: &str) -> Result<HashMap<String, f64>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    Ok(text
        .lines()
        .filter_map(|l| {
            let c: Vec<&str> = l.split('\t').collect();
            let ms: f64 = c.get(3)?.parse().ok()?;
            (ms > 0.0).then(|| (c[0].to_string(), ms))
        })
        .collect())
}

fn mbps(size: f64, ms: f64) -> f64 {
    size / ms / 1e3
}

fn main() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let (mut runs, mut bin, mut libgm, mut files) = (9usize, None, None, Vec::new());
    while let Some(a) = args.next() {
        match a.as_str() {
            "--runs" => {
                runs = args
                    .next()
                    .and_then(|n| n.parse().ok())
                    .filter(|&n| n > 0)
                    .ok_or("--runs needs a number > 0")?
            }
            "--bin" => bin = Some(PathBuf::from(args.next().ok_or("--bin needs a path")?)),
            "--libgm" => libgm = Some(args.next().ok_or("--libgm needs a path")?),
            "-h" | "--help" => {
                println!("usage: oneshot [--runs N] [--bin GMKIT] [--libgm TSV] FILE...");
                return Ok(());
            }
            _ => files.push(a),
        }
    }
    if files.is_empty() {
        return Err("usage: oneshot [--runs N] [--bin GMKIT] [--libgm TSV] FILE...".into());
    }
    let bin = match bin {
        Some(b) => b,
        None => {
            let exe = std::env::current_exe().map_err(|e| e.to_string())?;
            let dir = exe
                .parent()
                .and_then(|d| d.parent())
                .ok_or("cannot locate the gmkit binary: give --bin")?;
            dir.join(format!("gmkit{}", std::env::consts::EXE_SUFFIX))
        }
    };
    let libgm = libgm.as_deref().map(read_table).transpose()?;

    run_check(&bin, &files)?; // page cache
    let all: Vec<Run> = (0..runs)
        .map(|_| run_check(&bin, &files))
        .collect::<Result<_, _>>()?;
    // Parse and build ranked separately: the best parse run and the best build run (the runs
    // least disturbed by other processes), and the median of each.
    let rank = |f: fn(&Run) -> f64| {
        let mut order: Vec<&Run> = all.iter().collect();
        order.sort_by(|a, b| f(a).total_cmp(&f(b)));
        (order[0], order[order.len() / 2])
    };
    let (parse_best, parse_median) = rank(|r| r.parse_ms);
    let (build_best, build_median) = rank(|r| r.build_ms);
    let total: f64 = parse_best.rows.iter().map(|r| r.size).sum();

    print!("file\tsize\tparse_MBps\tmedian_parse_MBps\tbuild_MBps\tmedian_build_MBps");
    if libgm.is_some() {
        print!("\tlibgm_build_MBps");
    }
    println!();
    let (mut slow_parse, mut slow_build) = (Vec::new(), Vec::new());
    for i in 0..files.len() {
        let (pb, pm) = (&parse_best.rows[i], &parse_median.rows[i]);
        let (bb, bm) = (&build_best.rows[i], &build_median.rows[i]);
        let (size, file) = (pb.size, &pb.file);
        print!(
            "{file}\t{size}\t{:.0}\t{:.0}\t{:.0}\t{:.0}",
            mbps(size, pb.parse_ms),
            mbps(size, pm.parse_ms),
            mbps(size, bb.build_ms),
            mbps(size, bm.build_ms)
        );
        if mbps(size, pb.parse_ms.max(pm.parse_ms)) < 1000.0 {
            slow_parse.push(format!(
                "{file} {:.0}/{:.0}",
                mbps(size, pb.parse_ms),
                mbps(size, pm.parse_ms)
            ));
        }
        if let Some(theirs) = libgm.as_ref().and_then(|t| t.get(file)) {
            print!("\t{:.0}", mbps(size, *theirs));
            if bb.build_ms.max(bm.build_ms) >= *theirs {
                slow_build.push(format!(
                    "{file} {:.3}/{:.3} ms vs {theirs:.3}",
                    bb.build_ms, bm.build_ms
                ));
            }
        }
        println!();
    }
    let sum = |what: &str, run: &Run, ms: f64| {
        println!(
            "{what}\t{total}\t{:.0} MB/s\t{ms:.2} ms (run: parse {:.2} ms, build {:.2} ms)",
            mbps(total, ms),
            run.parse_ms,
            run.build_ms
        )
    };
    println!("sum over the files, {runs} runs:");
    sum("parse, best run", parse_best, parse_best.parse_ms);
    sum("parse, median run", parse_median, parse_median.parse_ms);
    sum("build, best run", build_best, build_best.build_ms);
    sum("build, median run", build_median, build_median.build_ms);
    let range = |f: fn(&Run) -> f64| {
        let v: Vec<f64> = all.iter().map(|r| mbps(total, f(r))).collect();
        let lo = v.iter().copied().fold(f64::INFINITY, f64::min);
        let hi = v.iter().copied().fold(0.0, f64::max);
        format!("{lo:.0}-{hi:.0}")
    };
    println!(
        "all runs: parse {} MB/s, build {} MB/s",
        range(|r| r.parse_ms),
        range(|r| r.build_ms)
    );
    println!(
        "parse below 1,000 MB/s (best/median run): {}",
        if slow_parse.is_empty() {
            "none".into()
        } else {
            slow_parse.join(", ")
        }
    );
    if libgm.is_some() {
        println!(
            "build not faster than libgm (best/median run): {}",
            if slow_build.is_empty() {
                "none".into()
            } else {
                slow_build.join(", ")
            }
        );
    }
    Ok(())
}
