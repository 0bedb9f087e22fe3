//! Hostile projects and `.gml` files (issue 15, `../shared/repro/round2` cases F9–F11, F13, F14,
//! F23, F28 and mkfolders.sh's `gml-*` folders), run as child processes under a memory limit and
//! a watchdog: `gml check-source` and `pack` end with the expected one-line error or report, in
//! bounded memory, and `pack` writes nothing when a `.gml` is refused. The inputs are built here.

use gmkit_testdata::limited::{Limits, Outcome, run};
use gmkit_testdata::{corpus_path, need};
use std::path::{Path, PathBuf};
use std::process::Command;

/// What a hostile case may use: 64 MiB above the ~30 MiB a check of a small game needs at rest.
const PEAK_RSS: u64 = 96 << 20;

fn gmkit(args: &[&std::ffi::OsStr]) -> Outcome {
    let mut c = Command::new(env!("CARGO_BIN_EXE_gmkit"));
    c.args(args);
    run(
        c,
        Limits {
            address_space: 2 << 30,
            ..Limits::default()
        },
    )
}

fn check_source(game: &Path, project: &Path) -> Outcome {
    gmkit(&[
        "gml".as_ref(),
        "check-source".as_ref(),
        game.as_os_str(),
        project.as_os_str(),
    ])
}

/// A 2.3 project whose obj_player Step event is `gml`.
fn yy_project(dir: &Path, gml: &str) -> PathBuf {
    let obj = dir.join("objects").join("obj_player");
    std::fs::create_dir_all(&obj).unwrap();
    std::fs::write(
        dir.join("p.yyp"),
        r#"{"resourceVersion":"1.0","resources":[{"id":{"name":"obj_player","path":"objects/obj_player/obj_player.yy"}}]}"#,
    )
    .unwrap();
    std::fs::write(
        obj.join("obj_player.yy"),
        r#"{"resourceVersion":"1.0","name":"obj_player"}"#,
    )
    .unwrap();
    let step = obj.join("Step_0.gml");
    std::fs::write(&step, gml).unwrap();
    step
}

fn one_line(s: &str) -> bool {
    s.trim_end().lines().count() == 1 && s.len() < 1000
}

#[test]
fn chains_in_a_project_are_errors_at_their_start() {
    let game = need!(corpus_path("asteroid-destroyer.win"));
    for (kind, text) in [
        ("add-100k", format!("x = 1{};\n", " + 1".repeat(100_000))),
        ("add-20k", format!("x = 1{};\n", " + 1".repeat(20_000))),
        ("member", format!("x = a{};\n", ".b".repeat(100_000))),
        ("index", format!("x = a{};\n", "[0]".repeat(100_000))),
        ("calls", format!("x = f{};\n", "()".repeat(100_000))),
        ("nullish", format!("x = a{};\n", " ?? a".repeat(100_000))),
    ] {
        let dir = tempfile::tempdir().unwrap();
        yy_project(dir.path(), &text);
        let o = check_source(&game, dir.path());
        assert!(o.exited_with(&[1]), "{kind}: {o}");
        assert!(
            o.stdout
                .contains("Step_0.gml:1:5: expected code nested at most 4096 levels deep"),
            "{kind}: {}",
            o.stdout.chars().take(2000).collect::<String>()
        );
        assert!(o.peak_rss < PEAK_RSS, "{kind}: {o}");
    }
}

#[test]
fn doubling_macros_are_bounded_also_through_an_enum() {
    let game = need!(corpus_path("asteroid-destroyer.win"));
    let mut macros = String::from("#macro M0 1\n");
    for i in 1..32 {
        macros.push_str(&format!("#macro M{i} M{}+M{}\n", i - 1, i - 1));
    }
    for (kind, tail, expect) in [
        (
            "use",
            "x = M31;\n",
            "Step_0.gml:33:5: expected macros expanding to at most",
        ),
        (
            "enum",
            "enum E { A = M31 }\n",
            "enum E: a value is not a constant",
        ),
    ] {
        let dir = tempfile::tempdir().unwrap();
        yy_project(dir.path(), &format!("{macros}{tail}"));
        let o = check_source(&game, dir.path());
        assert!(o.exited_with(&[1]), "{kind}: {o}");
        assert!(o.stdout.contains(expect), "{kind}: {}", o.stdout);
        assert!(o.peak_rss < PEAK_RSS, "{kind}: {o}");
    }
}

#[test]
fn project_paths_outside_the_folder_are_refused() {
    let game = need!(corpus_path("the-game.win"));
    for (kind, script, expect) in [
        (
            "traversal",
            "../../../../../../../etc/passwd",
            "../../../../../../../etc/passwd: not read: resolves outside the project folder",
        ),
        (
            "absolute",
            "/etc/hostname",
            "/etc/hostname: not read: resolves outside the project folder",
        ),
        (
            "device",
            "/dev/zero",
            "/dev/zero: not read: resolves outside the project folder",
        ),
    ] {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(
            dir.path().join("g.project.gmx"),
            format!(
                "<?xml version=\"1.0\"?>\n<assets><scripts><script>{script}</script></scripts></assets>\n"
            ),
        )
        .unwrap();
        let o = check_source(&game, dir.path());
        assert!(o.exited_with(&[3]), "{kind}: {o}");
        assert!(
            one_line(&o.stderr) && o.stderr.contains(expect),
            "{kind}: {o}"
        );
        assert!(o.stdout.is_empty(), "{kind}: {}", o.stdout);
    }
}

/// Puts a hostile file at the given path.
type Make = dyn Fn(&Path);

#[cfg(unix)]
#[test]
fn links_devices_and_fifos_in_a_project_are_refused() {
    let game = need!(corpus_path("asteroid-destroyer.win"));
    let cases: [(&str, &Make, &str); 4] = [
        (
            "link out",
            &|step| std::os::unix::fs::symlink("/etc/passwd", step).unwrap(),
            "resolves outside the project folder",
        ),
        (
            "link to a device",
            &|step| std::os::unix::fs::symlink("/dev/zero", step).unwrap(),
            "resolves outside the project folder",
        ),
        (
            "fifo",
            &|step| {
                let st = Command::new("mkfifo").arg(step).status().unwrap();
                assert!(st.success());
            },
            "not a regular file",
        ),
        (
            "too long",
            &|step| {
                let f = std::fs::File::create(step).unwrap();
                f.set_len(gmkit_gml::project::MAX_PROJECT_FILE_BYTES + 1)
                    .unwrap();
            },
            "more than the 16777216 a project file may hold",
        ),
    ];
    for (kind, make, expect) in cases {
        let dir = tempfile::tempdir().unwrap();
        let step = yy_project(dir.path(), "");
        std::fs::remove_file(&step).unwrap();
        make(&step);
        let o = check_source(&game, dir.path());
        assert!(o.exited_with(&[3]), "{kind}: {o}");
        assert!(
            one_line(&o.stderr)
                && o.stderr
                    .contains("objects/obj_player/Step_0.gml: not read: ")
                && o.stderr.contains(expect),
            "{kind}: {o}"
        );
        assert!(o.peak_rss < PEAK_RSS, "{kind}: {o}");
    }
    // A link that stays inside the project is read.
    let dir = tempfile::tempdir().unwrap();
    let step = yy_project(dir.path(), "x = 1;\n");
    std::fs::rename(&step, dir.path().join("step.txt")).unwrap();
    std::os::unix::fs::symlink("../../step.txt", &step).unwrap();
    let o = check_source(&game, dir.path());
    assert!(o.exited_with(&[1]), "{o}");
    assert!(
        o.stdout.contains("gml_Object_obj_player_Step_0"),
        "{}",
        o.stdout
    );
}

#[test]
fn thirty_thousand_room_instances_read_in_bounded_memory() {
    // Quadratic matching took over 10 s; a timing assertion would be flaky, the watchdog and
    // the memory bound are not.
    let game = need!(corpus_path("asteroid-destroyer.win"));
    let dir = tempfile::tempdir().unwrap();
    let room = dir.path().join("rooms").join("Room1");
    std::fs::create_dir_all(&room).unwrap();
    std::fs::write(
        dir.path().join("p.yyp"),
        r#"{"resourceVersion":"1.0","resources":[{"id":{"name":"Room1","path":"rooms/Room1/Room1.yy"}}]}"#,
    )
    .unwrap();
    let n = 30_000;
    let inst: Vec<String> = (0..n)
        .map(|i| format!(r#"{{"name":"i{i}","hasCreationCode":true}}"#))
        .collect();
    let order: Vec<String> = (0..n).map(|i| format!(r#"{{"name":"i{i}"}}"#)).collect();
    std::fs::write(
        room.join("Room1.yy"),
        format!(
            r#"{{"layers":[{{"instances":[{}]}}],"instanceCreationOrder":[{}]}}"#,
            inst.join(","),
            order.join(",")
        ),
    )
    .unwrap();
    std::fs::write(room.join("InstanceCreationCode_i29999.gml"), "x = 1;\n").unwrap();
    let o = gmkit_testdata::limited::run(
        {
            let mut c = Command::new(env!("CARGO_BIN_EXE_gmkit"));
            c.args(["gml", "check-source"]).arg(&game).arg(dir.path());
            c
        },
        Limits {
            address_space: 2 << 30,
            timeout: std::time::Duration::from_secs(30),
        },
    );
    assert!(o.exited_with(&[1]), "{o}");
    assert!(
        o.stdout.contains("gml_RoomCC_Room1_i29999_Create"),
        "{}",
        o.stdout
    );
    assert!(o.peak_rss < PEAK_RSS, "{o}");
}

/// Unpacks asteroid-destroyer into `dir/base` and returns the path of obj_player's Step `.gml`.
fn unpacked(dir: &Path) -> Option<PathBuf> {
    let game = corpus_path("asteroid-destroyer.win")?;
    let base = dir.join("base");
    let o = gmkit(&["unpack".as_ref(), game.as_os_str(), base.as_os_str()]);
    assert!(o.exited_with(&[0]), "{o}");
    Some(base.join("objects").join("obj_player").join("Step_0.gml"))
}

#[test]
fn pack_refuses_deep_or_huge_gml_naming_file_line_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let gml = need!(unpacked(dir.path()));
    assert!(gml.is_file(), "{}", gml.display());
    let original = std::fs::read(&gml).unwrap();
    for (kind, text, expect) in [
        (
            "member-chain-20k",
            format!("x = a{};\n", ".b".repeat(20_000)),
            "line 1, column 5",
        ),
        (
            "add-chain-100k",
            format!("x = 1{};\n", " + 1".repeat(100_000)),
            "line 1, column 5",
        ),
        (
            "nullish-chain-100k",
            format!("x = a{};\n", " ?? a".repeat(100_000)),
            "line 1, column 5",
        ),
        (
            "17 MiB",
            "x = 1;\n".repeat((17 << 20) / 7),
            // The folder reader's per-file limit refuses it before the lexer's would.
            "expected at most 16 MiB (16777216 bytes) for a file of this kind",
        ),
    ] {
        std::fs::write(&gml, &text).unwrap();
        let out = dir.path().join("out.win");
        let o = gmkit(&[
            "pack".as_ref(),
            dir.path().join("base").as_os_str(),
            out.as_os_str(),
        ]);
        assert!(o.exited_with(&[1, 3]), "{kind}: {o}");
        assert!(
            one_line(&o.stderr)
                && o.stderr.contains("objects/obj_player/Step_0.gml")
                && o.stderr.contains(expect),
            "{kind}: {o}"
        );
        assert!(!out.exists(), "{kind}: pack wrote {}", out.display());
        assert!(
            o.peak_rss < (64 << 20).max(64 * text.len() as u64),
            "{kind}: {o}"
        );
    }
    std::fs::write(&gml, original).unwrap();
}
