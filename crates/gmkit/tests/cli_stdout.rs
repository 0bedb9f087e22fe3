//! Every command that prints ends with exit status 3 and one line on stderr when stdout cannot be
//! written (`/dev/full`), instead of a panic (exit 101) with a backtrace.

use std::process::{Command, Stdio};

#[test]
fn a_full_stdout_is_exit_3_with_one_line_for_every_printing_command() {
    let Ok(_) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        eprintln!("skipping: no /dev/full on this system");
        return;
    };
    let file = gmkit_testdata::need!(gmkit_testdata::corpus_path("the-game.win"));
    let file = file.to_str().unwrap();
    let runs: [&[&str]; 6] = [
        &["check"],
        &["demo"],
        &["info", file],
        &["ls", file, "strings"],
        &["decompile", file],
        &["check", "--json", file],
    ];
    for args in runs {
        let full = std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let o = Command::new(env!("CARGO_BIN_EXE_gmkit"))
            .args(args)
            .stdin(Stdio::null())
            .stdout(full)
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(3), "{args:?}: {err}");
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains("stdout"), "{args:?}: {err}");
    }
}
