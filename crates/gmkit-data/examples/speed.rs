//! Per-file parse and build speed and peak heap, warm (repeated in one process) or one-shot (the
//! first parse and build of a fresh process, as every CLI command does).
//!
//! ```text
//! cargo build --release -p gmkit-data --example speed
//! target/release/examples/speed ../shared/corpus/*.win            # warm: best of repeated runs
//! target/release/examples/speed --once ../shared/corpus/*.win    # one-shot: fresh processes
//! ```
//!
//! Prints one tab-separated line per file (name, size, parse and `build_bytes` ms and MB/s, peak
//! heap of parse + build in bytes and as a multiple of the file (the input buffer included),
//! whether both builds were identical, and `build` (in parts) ms and MB/s), then the corpus sums (total bytes
//! over total time) when more than one file is given. Warm figures are the fastest of repeated
//! runs (at least 5 and 0.3 s per file), which is the least disturbed by other processes.
//! `--once` with several files runs each file in fresh processes (`SPEED_ONCE_RUNS`, default 5)
//! and keeps the fastest of them per figure; the first parse's page faults and peak heap go to
//! stderr.

use std::time::Instant;

#[global_allocator]
static GLOBAL: gmkit_testdata::alloc::Counting = gmkit_testdata::alloc::Counting;

/// Minor page faults of this process so far (Linux; 0 elsewhere).
fn minor_faults() -> u64 {
    std::fs::read_to_string("/proc/self/stat")
        .ok()
        .and_then(|s| {
            let rest = &s[s.rfind(')')? + 2..];
            rest.split_whitespace().nth(7)?.parse().ok()
        })
        .unwrap_or(0)
}

/// `--once` with several files: each file in fresh processes (this program with `--once FILE`),
/// the fastest of `SPEED_ONCE_RUNS` (default 5) processes per figure, then the corpus sums.
fn once_each(files: &[String]) -> Result<(), Box<dyn std::error::Error>> {
    let runs: usize = std::env::var("SPEED_ONCE_RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5);
    let exe = std::env::current_exe()?;
    println!(
        "file\tsize\tparse_ms\tbuild_ms\tparse_MBps\tbuild_MBps\tpeak_heap\tpeak_x\tidentical\tparts_ms\tparts_MBps"
    );
    let (mut total, mut sums) = (0usize, [0.0f64; 3]);
    for path in files {
        let mut best: Option<Vec<String>> = None;
        for _ in 0..runs.max(1) {
            let out = std::process::Command::new(&exe)
                .arg("--once")
                .arg(path)
                .output()?;
            if !out.status.success() {
                return Err(format!("{path}: {}", String::from_utf8_lossy(&out.stderr)).into());
            }
            let text = String::from_utf8_lossy(&out.stdout).into_owned();
            let row: Vec<String> = text
                .lines()
                .nth(1)
                .unwrap_or("")
                .split('\t')
                .map(String::from)
                .collect();
            if row.len() < 11 {
                return Err(format!("{path}: unexpected output {text:?}").into());
            }
            let b = best.get_or_insert_with(|| row.clone());
            // Fastest parse, build_bytes and build, each over the processes.
            for (col, mbps) in [(2, 4), (3, 5), (9, 10)] {
                let (new, old): (f64, f64) = (row[col].parse()?, b[col].parse()?);
                if new < old {
                    b[col] = row[col].clone();
                    b[mbps] = row[mbps].clone();
                }
            }
        }
        let b = best.unwrap_or_default();
        println!("{}", b.join("\t"));
        total += b[1].parse::<usize>()?;
        for (sum, col) in sums.iter_mut().zip([2, 3, 9]) {
            *sum += b[col].parse::<f64>()? / 1e3;
        }
    }
    let [p, b, q] = sums;
    println!(
        "sum\t{total}\t{:.3}\t{:.3}\t{:.0}\t{:.0}\t\t\t\t{:.3}\t{:.0}",
        p * 1e3,
        b * 1e3,
        total as f64 / p / 1e6,
        total as f64 / b / 1e6,
        q * 1e3,
        total as f64 / q / 1e6
    );
    Ok(())
}

/// The fastest of repeated runs of `f`, in seconds. What `f` returns is dropped after the
/// clock stops (a parse is timed to its model, as `gmkit check` times it; freeing the model is
/// not part of it).
fn best<T>(mut f: impl FnMut() -> T) -> f64 {
    let start = Instant::now();
    let mut best = f64::INFINITY;
    let mut runs = 0;
    while runs < 5 || start.elapsed().as_secs_f64() < 0.3 {
        let t = Instant::now();
        let out = std::hint::black_box(f());
        best = best.min(t.elapsed().as_secs_f64());
        drop(out);
        runs += 1;
    }
    best
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let once = args.first().is_some_and(|a| a == "--once");
    if once {
        args.remove(0);
    }
    if args.is_empty() {
        return Err("usage: speed [--once] FILE...".into());
    }
    if once && args.len() > 1 {
        return once_each(&args);
    }
    println!(
        "file\tsize\tparse_ms\tbuild_ms\tparse_MBps\tbuild_MBps\tpeak_heap\tpeak_x\tidentical"
    );
    let (mut total, mut parse_s, mut build_s, mut parts_s) = (0usize, 0.0f64, 0.0f64, 0.0f64);
    for path in &args {
        let input = bytes::Bytes::from(std::fs::read(path)?);
        let name = std::path::Path::new(path)
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let before = gmkit_testdata::alloc::live();
        gmkit_testdata::alloc::reset_peak();
        let faults = minor_faults();
        let t = Instant::now();
        let file = gmkit_data::parse_bytes(input.clone())?;
        let mut p = t.elapsed().as_secs_f64();
        let faults = minor_faults() - faults;
        let heap = gmkit_testdata::alloc::peak() - before;
        // `build` (in parts, as `gmkit check` and `build_file` do) first, as a one-shot command
        // would, then `build_bytes` (one buffer).
        let t = Instant::now();
        let parts = gmkit_data::build(&file)?;
        let mut q = t.elapsed().as_secs_f64();
        let parts_identical = parts.eq_bytes(&input);
        drop(parts);
        let t = Instant::now();
        let built = gmkit_data::build_bytes(&file)?;
        let mut b = t.elapsed().as_secs_f64();
        let peak = gmkit_testdata::alloc::peak() - before;
        let identical = built[..] == input[..] && parts_identical;
        drop(built);
        if once {
            eprintln!("{name}: first parse {faults} page faults, peak heap {heap} bytes");
        }
        if !once {
            p = best(|| gmkit_data::parse_bytes(input.clone()).unwrap());
            b = best(|| gmkit_data::build_bytes(&file).unwrap());
            q = best(|| gmkit_data::build(&file).unwrap());
        }
        let size = input.len() as f64;
        println!(
            "{name}\t{}\t{:.3}\t{:.3}\t{:.0}\t{:.0}\t{peak}\t{:.2}\t{identical}\t{:.3}\t{:.0}",
            input.len(),
            p * 1e3,
            b * 1e3,
            size / p / 1e6,
            size / b / 1e6,
            peak as f64 / size,
            q * 1e3,
            size / q / 1e6,
        );
        parts_s += q;
        total += input.len();
        parse_s += p;
        build_s += b;
    }
    if args.len() > 1 {
        println!(
            "sum\t{total}\t{:.3}\t{:.3}\t{:.0}\t{:.0}\t\t\t\t{:.3}\t{:.0}",
            parse_s * 1e3,
            build_s * 1e3,
            total as f64 / parse_s / 1e6,
            total as f64 / build_s / 1e6,
            parts_s * 1e3,
            total as f64 / parts_s / 1e6
        );
    }
    Ok(())
}
