//! A model parsed with `parse_file` whose file changes on disk while it lives: building from it
//! is an error, never a crash (`SIGBUS`) or a file written from bytes that are no longer what
//! was read. Also the errors about files: they name the file and say what it is.

use gmkit_data::{ErrorKind, build_bytes, build_file, parse_file, sample};
use std::path::PathBuf;

/// The sample game written to a fresh temporary file.
fn sample_file(tag: &str) -> PathBuf {
    let path = std::env::temp_dir().join(format!(
        "gmkit-source-{tag}-{}-{:?}.win",
        std::process::id(),
        std::thread::current().id()
    ));
    build_file(&sample(), &path).expect("sample writes");
    path
}

fn is_source_changed(e: &gmkit_data::Error) -> bool {
    matches!(e.kind, ErrorKind::SourceChanged(_))
}

/// `std::fs::write(path, build_bytes(&data)?)` rewrites the file the model views in place; an
/// edit saved again must be refused, not written from the new bytes at the old offsets.
#[test]
fn rewriting_in_place_then_saving_again_is_refused() {
    let path = sample_file("rewrite");
    let mut data = parse_file(&path).unwrap();
    let first = build_bytes(&data).unwrap();
    std::fs::write(&path, &first).unwrap();
    data.strings
        .as_mut()
        .unwrap()
        .push("added after the rewrite");
    let e = build_bytes(&data).expect_err("the source was rewritten under the model");
    assert!(is_source_changed(&e), "{e}");
    let shown = e.to_string();
    assert!(shown.contains(&path.display().to_string()), "{shown}");
    assert!(!shown.contains("byte offset"), "{shown}");
    let e = build_file(&data, &path).expect_err("and so is writing it to a file");
    assert!(is_source_changed(&e), "{e}");
    let e = gmkit_data::build(&data).expect_err("and building in parts");
    assert!(is_source_changed(&e), "{e}");
    assert_eq!(
        std::fs::read(&path).unwrap(),
        first,
        "the file is untouched"
    );
    // Parsed again, the model builds.
    let again = parse_file(&path).unwrap();
    assert_eq!(build_bytes(&again).unwrap(), first);
    std::fs::remove_file(&path).unwrap();
}

/// Writing a model back to the path it came from with `build_file` (a rename over the file)
/// leaves the file the model views alone: it can be saved again and again.
#[test]
fn saving_back_to_the_same_path_by_rename_keeps_working() {
    let path = sample_file("rename");
    let mut data = parse_file(&path).unwrap();
    for i in 0..3 {
        data.strings.as_mut().unwrap().push(format!("save {i}"));
        build_file(&data, &path).unwrap();
        let back = parse_file(&path).unwrap();
        assert_eq!(back.strings, data.strings, "save {i}");
    }
    std::fs::remove_file(&path).unwrap();
}

/// A `Built` whose payloads are views of a file that changed refuses to be written out.
#[test]
fn a_built_file_checks_its_source_when_written() {
    let path = sample_file("built");
    let data = parse_file(&path).unwrap();
    let built = gmkit_data::build(&data).unwrap();
    std::fs::write(&path, b"FORM\0\0\0\0").unwrap();
    let mut out = Vec::new();
    let e = built.write_to(&mut out).expect_err("the source changed");
    assert!(e.to_string().contains("changed on disk"), "{e}");
    assert!(built.check_source().is_err());
    std::fs::remove_file(&path).unwrap();
}

/// The child side of [`truncating_under_the_model_is_an_error_not_a_crash`]: truncates the
/// file, reads every string the model views (in the map, past the new end), then builds.
fn truncate_child(path: &str) {
    let data = parse_file(path).unwrap();
    std::fs::OpenOptions::new()
        .write(true)
        .open(path)
        .unwrap()
        .set_len(0)
        .unwrap();
    let strings = data.strings.as_ref().unwrap();
    let read: usize = strings.iter().map(|s| s.as_bytes().len()).sum();
    let sum: u64 = strings
        .iter()
        .flat_map(|s| s.as_bytes().iter())
        .map(|&b| u64::from(b))
        .sum();
    let e = build_bytes(&data).expect_err("the source was truncated");
    assert!(is_source_changed(&e), "{e}");
    println!("survived: read {read} bytes (sum {sum}); {e}");
}

/// Truncating the file under a live model: reading its strings sees zeros instead of `SIGBUS`,
/// and building fails. Run in a child process, where a crash is a failed test, not a dead
/// test runner.
#[test]
fn truncating_under_the_model_is_an_error_not_a_crash() {
    if let Ok(path) = std::env::var("GMKIT_SOURCE_TRUNCATE_CHILD") {
        truncate_child(&path);
        return;
    }
    let path = sample_file("truncate");
    let mut cmd = std::process::Command::new(std::env::current_exe().unwrap());
    cmd.args([
        "--exact",
        "truncating_under_the_model_is_an_error_not_a_crash",
        "--nocapture",
        "--test-threads=1",
    ])
    .env("GMKIT_SOURCE_TRUNCATE_CHILD", &path);
    let out = gmkit_testdata::limited::run(cmd, gmkit_testdata::limited::Limits::default());
    let _ = std::fs::remove_file(&path);
    assert!(out.exited_with(&[0]), "{out}");
    assert!(out.stdout.contains("survived"), "{out}\n{}", out.stdout);
    assert!(out.stdout.contains("changed on disk"), "{}", out.stdout);
}

/// I/O errors name the file and end without a byte offset; a directory is called one.
#[test]
fn file_errors_name_the_file() {
    let missing = std::env::temp_dir().join("gmkit-no-such-file.win");
    let shown = parse_file(&missing).unwrap_err().to_string();
    assert!(shown.contains("gmkit-no-such-file.win"), "{shown}");
    assert!(!shown.contains("byte offset"), "{shown}");
    let dir = std::env::temp_dir();
    let e = parse_file(&dir).unwrap_err();
    assert!(matches!(e.kind, ErrorKind::Io(_)), "{e}");
    let shown = e.to_string();
    assert!(shown.contains("is a directory"), "{shown}");
    assert!(!shown.contains("No such device"), "{shown}");
    assert!(!shown.contains("byte offset"), "{shown}");
}
