//! How long `gmkit studio FILE` takes from process start to the answer of `/api/tree` (issue 19:
//! at most 300 ms on the largest corpus file, 1 s on the generated 1 GB game).
//!
//! ```sh
//! cargo build --release -p gmkit --example studio_open
//! target/release/examples/studio_open /work/shared/corpus/platformer.win /tmp/big.win
//! ```
//! Starts `target/release/gmkit` (beside this example's directory) `RUNS` times per file and
//! prints the fastest and the median time, and the tree's size.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const RUNS: usize = 5;

fn once(gmkit: &std::path::Path, file: &str) -> Result<(Duration, usize), String> {
    let t = Instant::now();
    let mut child = Command::new(gmkit)
        .args(["studio", file, "--no-open"])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| e.to_string())?;
    let mut line = String::new();
    let stdout = child.stdout.take().ok_or("no stdout")?;
    BufReader::new(stdout)
        .read_line(&mut line)
        .map_err(|e| e.to_string())?;
    let rest = line
        .trim()
        .strip_prefix("gmkit studio: http://127.0.0.1:")
        .ok_or_else(|| format!("expected the URL line, found {line:?}"))?;
    let (port, token) = rest.split_once("/?token=").ok_or("no token")?;
    let mut s = TcpStream::connect(format!("127.0.0.1:{port}")).map_err(|e| e.to_string())?;
    write!(
        s,
        "GET /api/tree?token={token} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n"
    )
    .map_err(|e| e.to_string())?;
    let mut answer = Vec::new();
    s.read_to_end(&mut answer).map_err(|e| e.to_string())?;
    let took = t.elapsed();
    let _ = child.kill();
    let _ = child.wait();
    if !answer.starts_with(b"HTTP/1.1 200") {
        return Err(String::from_utf8_lossy(&answer[..answer.len().min(200)]).into_owned());
    }
    Ok((took, answer.len()))
}

fn main() {
    let exe = std::env::current_exe().expect("the example's path");
    let gmkit = exe
        .parent()
        .and_then(|d| d.parent())
        .map(|d| d.join("gmkit"))
        .expect("target/release");
    for file in std::env::args().skip(1) {
        let mut times = Vec::new();
        let mut size = 0;
        for _ in 0..RUNS {
            match once(&gmkit, &file) {
                Ok((t, n)) => {
                    times.push(t);
                    size = n;
                }
                Err(e) => {
                    eprintln!("{file}: {e}");
                    std::process::exit(1);
                }
            }
        }
        times.sort();
        println!(
            "{file}: start -> /api/tree answered: fastest {:.0} ms, median {:.0} ms ({RUNS} runs, {:.1} KB answer)",
            times[0].as_secs_f64() * 1e3,
            times[RUNS / 2].as_secs_f64() * 1e3,
            size as f64 / 1e3
        );
    }
}
