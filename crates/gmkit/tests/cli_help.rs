//! Bar 7: `--help` of every subcommand shows an example.

#[test]
fn every_subcommand_help_has_an_example() {
    for sub in [
        "demo",
        "check",
        "info",
        "ls",
        "unpack",
        "pack",
        "export",
        "import",
        "diff",
        "decompile",
        "gml",
        "gml check-source",
        "ds",
        "ds decode",
        "ds encode",
        "elephant",
        "elephant decode",
        "elephant encode",
        "ini",
        "ini decode",
        "ini encode",
        "studio",
    ] {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_gmkit"))
            .args(sub.split(' ').chain(["--help"]))
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            text.contains("Example") || text.contains("example"),
            "gmkit {sub} --help:\n{text}"
        );
    }
}

#[test]
fn demo_runs_on_the_builtin_sample() {
    // demo leaves the folder it unpacked: here in a directory the test removes.
    let dir = tempfile::tempdir().unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_gmkit"))
        .arg("demo")
        .arg("--dir")
        .arg(dir.path().join("demo"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("byte-identical to the input"), "{text}");
    // The sample has one asset of each kind the README promises, code as assembly text.
    for want in [
        "sprites/spr_ball/0.png",
        "sprites/spr_ball/mask_0.png",
        "sounds/snd_beep.json",
        "sounds/snd_beep.wav",
        "rooms/rm_start/room.json",
        "objects/obj_ball/object.json",
        "objects/obj_ball/Create_0.asm",
    ] {
        assert!(text.contains(want), "{want} not listed:\n{text}");
    }
}
