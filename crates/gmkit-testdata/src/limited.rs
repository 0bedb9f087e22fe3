//! Runs a command as a child process under a memory limit and a watchdog, for hostile-input
//! tests: a crash, abort, stack overflow or runaway allocation in the child fails the test with a
//! clear message instead of taking the test process (or the machine) down.
//!
//! ```no_run
//! use gmkit_testdata::limited::{Limits, run};
//! // In an integration test of the `gmkit` crate: `env!("CARGO_BIN_EXE_gmkit")`.
//! let mut cmd = std::process::Command::new("target/release/gmkit");
//! cmd.args(["unpack", "bomb.win", "/tmp/out"]);
//! let out = run(cmd, Limits::default());
//! assert!(out.exited_with(&[1, 3]), "{out}");
//! assert!(out.peak_rss < 64 << 20, "{out}");
//! ```

use std::fmt;
use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// What the child may use.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Address-space limit (`RLIMIT_AS`) in bytes: an allocation past it fails in the child.
    pub address_space: u64,
    /// Wall-clock time after which the child is killed (a generous watchdog for hangs, not a
    /// timing assertion).
    pub timeout: Duration,
}

impl Default for Limits {
    /// 2 GiB of address space and 60 s.
    fn default() -> Self {
        Limits {
            address_space: 2 << 30,
            timeout: Duration::from_secs(60),
        }
    }
}

/// How the child ended.
#[derive(Debug)]
pub struct Outcome {
    /// Exit code, or `None` when a signal ended it (crash, abort, stack overflow, watchdog).
    pub code: Option<i32>,
    /// The signal that ended it, if any.
    pub signal: Option<i32>,
    /// True when the watchdog killed it.
    pub timed_out: bool,
    /// Wall time.
    pub elapsed: Duration,
    /// Peak resident set size in bytes (from `wait4`'s rusage).
    pub peak_rss: u64,
    /// Standard output.
    pub stdout: String,
    /// Standard error.
    pub stderr: String,
}

impl Outcome {
    /// True when the child exited normally with one of `codes`.
    pub fn exited_with(&self, codes: &[i32]) -> bool {
        !self.timed_out && self.code.is_some_and(|c| codes.contains(&c))
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut err: String = self.stderr.chars().take(2000).collect();
        if err.len() < self.stderr.len() {
            err.push('…');
        }
        write!(
            f,
            "exit {:?}, signal {:?}{}, {:.2} s, peak RSS {} KB; stderr: {}",
            self.code,
            self.signal,
            if self.timed_out {
                " (killed by the watchdog)"
            } else {
                ""
            },
            self.elapsed.as_secs_f64(),
            self.peak_rss / 1024,
            err.trim_end()
        )
    }
}

/// Runs `cmd` (stdin closed, stdout and stderr captured) under `limits`.
#[cfg(unix)]
pub fn run(mut cmd: Command, limits: Limits) -> Outcome {
    use std::os::unix::process::{CommandExt, ExitStatusExt};
    let limit = limits.address_space;
    // SAFETY: setrlimit is async-signal-safe; nothing else runs between fork and exec.
    unsafe {
        cmd.pre_exec(move || {
            let r = libc::rlimit {
                rlim_cur: limit as libc::rlim_t,
                rlim_max: limit as libc::rlim_t,
            };
            if libc::setrlimit(libc::RLIMIT_AS, &r) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let start = Instant::now();
    let mut child = cmd
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start {cmd:?}: {e}"));
    let pid = child.id() as libc::pid_t;
    let mut out_pipe = child.stdout.take().expect("piped");
    let mut err_pipe = child.stderr.take().expect("piped");
    let out_t = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = out_pipe.read_to_end(&mut v);
        v
    });
    let err_t = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = err_pipe.read_to_end(&mut v);
        v
    });
    let mut timed_out = false;
    let (status, rusage) = loop {
        let mut status = 0;
        // SAFETY: plain FFI calls on our own child's pid with valid out-pointers.
        let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
        let r = unsafe { libc::wait4(pid, &mut status, libc::WNOHANG, &mut ru) };
        if r == pid {
            break (status, ru);
        }
        if r < 0 {
            panic!("wait4: {}", std::io::Error::last_os_error());
        }
        if start.elapsed() > limits.timeout && !timed_out {
            timed_out = true;
            // SAFETY: signals our own child.
            unsafe { libc::kill(pid, libc::SIGKILL) };
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let elapsed = start.elapsed();
    let st = std::process::ExitStatus::from_raw(status);
    let stdout = String::from_utf8_lossy(&out_t.join().unwrap_or_default()).into_owned();
    let stderr = String::from_utf8_lossy(&err_t.join().unwrap_or_default()).into_owned();
    // The child has been reaped by wait4; std's handle must not wait for it again.
    std::mem::forget(child);
    Outcome {
        code: st.code(),
        signal: st.signal(),
        timed_out,
        elapsed,
        peak_rss: rusage.ru_maxrss as u64 * 1024,
        stdout,
        stderr,
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    #[test]
    fn reports_exit_code_output_and_rss() {
        let mut c = Command::new("sh");
        c.args(["-c", "echo hi; echo oops >&2; exit 3"]);
        let o = run(c, Limits::default());
        assert!(o.exited_with(&[3]), "{o}");
        assert_eq!(o.stdout, "hi\n");
        assert_eq!(o.stderr, "oops\n");
        assert!(o.peak_rss > 0);
    }

    #[test]
    fn the_watchdog_kills_a_hang() {
        let mut c = Command::new("sleep");
        c.arg("30");
        let o = run(
            c,
            Limits {
                timeout: Duration::from_millis(200),
                ..Limits::default()
            },
        );
        assert!(o.timed_out && o.code.is_none(), "{o}");
    }
}
