//! `gmkit decompile` and `unpack` on hostile bytecode and entry names (issue 15, round 2: F2,
//! F3, F4, F4b, F18, F19), each run as a child process under a memory limit: a one-line error
//! naming the entry, or every entry in its own file; bounded memory; never a crash.

use gmkit_testdata::limited::{Limits, Outcome, run};
use gmkit_testdata::{corpus_path, need, repro_path};
use std::path::{Path, PathBuf};
use std::process::Command;

/// 64 MiB: the memory bound of the issue for inputs under 1 MiB.
const MIB64: u64 = 64 << 20;

fn gmkit<I, S>(args: I) -> Outcome
where
    I: IntoIterator<Item = S>,
    S: AsRef<std::ffi::OsStr>,
{
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_gmkit"));
    cmd.args(args);
    run(cmd, Limits::default())
}

/// Asserts a one-line message on stderr that contains `want`, exit code `code`, bounded memory.
fn assert_fails(o: &Outcome, code: i32, want: &str) {
    assert!(o.exited_with(&[code]), "{o}");
    assert!(o.peak_rss < MIB64, "{o}");
    let lines: Vec<&str> = o.stderr.lines().collect();
    assert!(lines.len() == 1 && lines[0].contains(want), "{o}");
    assert!(lines[0].len() < 400, "{o}");
}

#[test]
fn dup_chain_is_an_error_for_its_entry_f3() {
    let f = need!(repro_path("round2/decompile-dup-add-x30.win"));
    let o = gmkit(["decompile".as_ref(), f.as_os_str(), "2".as_ref()]);
    assert_fails(
        &o,
        1,
        "code entry \"gml_Object_obj_game_Create_0\": expressions past the limit of 1048576 \
         nodes at instruction 37 (byte offset 148)",
    );
    assert!(
        o.stderr
            .starts_with(&format!("gmkit decompile: {}: ", f.display())),
        "{o}"
    );
}

#[test]
fn huge_argument_counts_and_indices_stay_small_f4() {
    let f = need!(repro_path("round2/decompile-call-argc65535-x200.win"));
    let o = gmkit(["decompile".as_ref(), f.as_os_str(), "2".as_ref()]);
    assert_fails(
        &o,
        1,
        "code entry \"gml_Object_obj_game_Create_0\": 200 part(s) not decompiled (the first: \
         a call with 65535 arguments where the stack holds 0 (instruction 0))",
    );
    let f = need!(repro_path("round2/decompile-argument-index-1e11.win"));
    let o = gmkit(["decompile".as_ref(), f.as_os_str(), "0".as_ref()]);
    assert_fails(
        &o,
        1,
        "1 part(s) not decompiled (the first: argument index 99999999999 past the limit 65535)",
    );
    assert!(o.stdout.contains("argument99999999999"), "{o}");
}

/// asteroid-destroyer.win with the code of `gml_Object_obj_game_Create_0` replaced by `text`
/// (what `mkwins.sh` builds through unpack and pack), written under `dir`.
fn with_code(dir: &Path, name: &str, text: &str) -> Option<PathBuf> {
    let src = corpus_path("asteroid-destroyer.win")?;
    let mut file = gmkit_data::parse_file(&src).expect("parses");
    let entry = (0..file.code.as_ref().unwrap().entries.len())
        .find(|&i| {
            let e = &file.code.as_ref().unwrap().entries[i];
            file.strings
                .as_ref()
                .unwrap()
                .get(e.name)
                .map(|s| s.as_bytes())
                == Some(b"gml_Object_obj_game_Create_0".as_slice())
        })
        .expect("the entry");
    let ins = gmkit_data::chunks::code::asm::assemble(text, &mut file).expect("assembles");
    file.code.as_mut().unwrap().entries[entry].body =
        gmkit_data::chunks::code::CodeBody::Instructions(ins);
    let path = dir.join(name);
    std::fs::write(&path, gmkit_data::build_bytes(&file).expect("builds")).unwrap();
    Some(path)
}

fn chain(head: &str, body: &str, n: usize, tail: &str) -> String {
    format!("{head}{}{tail}", body.repeat(n))
}

#[test]
fn long_chains_are_an_error_for_decompile_and_skipped_by_unpack_f2() {
    let dir = tempfile::tempdir().unwrap();
    let n = 100_000;
    let cases = [
        (
            "add",
            chain(
                "pushi.e 1\n",
                "pushi.e 1\nadd.i.i\n",
                n,
                "pop.v.i builtin.points\n",
            ),
        ),
        (
            "neg",
            chain("pushi.e 1\n", "neg.i\n", n, "pop.v.i builtin.points\n"),
        ),
        (
            "call",
            chain(
                "pushi.e 1\n",
                "conv.i.v\ncall.i abs(argc=1)\n",
                n,
                "pop.v.v builtin.points\n",
            ),
        ),
    ];
    for (what, text) in cases {
        let f = need!(with_code(dir.path(), &format!("{what}.win"), &text));
        let o = gmkit(["decompile".as_ref(), f.as_os_str(), "2".as_ref()]);
        assert_fails(
            &o,
            1,
            "code entry \"gml_Object_obj_game_Create_0\": an expression deeper than 4096 levels at instruction",
        );
        // 64x the input when that is more than 64 MiB.
        let input = std::fs::metadata(&f).unwrap().len();
        assert!(o.peak_rss < MIB64.max(64 * input), "{what}: {o}");
    }
    // unpack (decompile, print, parse, compile on worker threads) finishes and says why the
    // entry is kept as assembly.
    let f = need!(with_code(
        dir.path(),
        "add20k.win",
        &chain(
            "pushi.e 1\n",
            "pushi.e 1\nadd.i.i\n",
            20_000,
            "pop.v.i builtin.points\n"
        ),
    ));
    let out = dir.path().join("u");
    let o = gmkit(["unpack".as_ref(), f.as_os_str(), out.as_os_str()]);
    assert!(o.exited_with(&[0]), "{o}");
    // The object's Create event is in its folder; the entry's header in code/_chunk.json.
    assert!(out.join("objects/obj_game/Create_0.asm").is_file());
    let json = std::fs::read_to_string(out.join("code/_chunk.json")).expect("the code chunk");
    let chunk: serde_json::Value = serde_json::from_str(&json).unwrap();
    let v = chunk["in_assets"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["file"] == "objects/obj_game/Create_0")
        .expect("the entry's header")
        .clone();
    let skipped = v["gml"]["skipped"].as_str().unwrap_or_default();
    assert!(
        skipped.contains("an expression deeper than 4096 levels") && !skipped.contains('\n'),
        "{json}"
    );
}

/// The files in `dir`, sorted.
fn listing(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

#[test]
fn colliding_names_get_files_of_their_own_f18() {
    let f = need!(repro_path("round2/decompile-o-name-collisions.win"));
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("o");
    let o = gmkit([
        "decompile".as_ref(),
        f.as_os_str(),
        "-o".as_ref(),
        out.as_os_str(),
    ]);
    assert!(o.exited_with(&[0]) && o.stderr.is_empty(), "{o}");
    assert_eq!(
        listing(&out),
        [
            "dup.gml",
            "dup~4.gml",
            "gml_Object_obj_Rock_Collision_obj_bullets.gml",
            "gml_Object_obj_Rock_Create_0.gml",
            "gml_Object_obj_Rock_Step_0.gml",
            "gml_Object_obj_player_Collision_obj_Rock.gml",
            "gml_Object_obj_player_Step_0.gml",
            "gml_Script_a_b.gml",
            "gml_Script_a_b~0.gml",
            "gml_Script_a_b~2.gml",
        ]
    );
    // The same names when one entry is asked for.
    let out2 = dir.path().join("o2");
    let o = gmkit([
        "decompile".as_ref(),
        f.as_os_str(),
        "4".as_ref(),
        "-o".as_ref(),
        out2.as_os_str(),
    ]);
    assert!(o.exited_with(&[0]), "{o}");
    assert_eq!(listing(&out2), ["dup~4.gml"]);
    assert_eq!(
        std::fs::read(out.join("dup~4.gml")).unwrap(),
        std::fs::read(out2.join("dup~4.gml")).unwrap()
    );
}

#[test]
fn hostile_names_are_all_written_f19() {
    for (name, files) in [
        (
            "round2/decompile-o-nul-name.win",
            vec![
                "_._.._.._.._tmp_esc_t1_ESCAPED_code~0.gml".to_string(),
                "_tmp_esc_t1_ABS_code~1.gml".into(),
                "_._.._win_esc~2.gml".into(),
                "nul_byte.._~3.gml".into(),
                format!("{}~4.gml", "A".repeat(194)),
                "CON~5.gml".into(),
                "nul.txt~6.gml".into(),
                "trail._~7.gml".into(),
                "Same.gml".into(),
                "same~9.gml".into(),
            ],
        ),
        ("round2/decompile-o-300-byte-name.win", vec![]),
    ] {
        let f = need!(repro_path(name));
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("o");
        let o = gmkit([
            "decompile".as_ref(),
            f.as_os_str(),
            "-o".as_ref(),
            out.as_os_str(),
        ]);
        assert!(o.exited_with(&[0]) && o.stderr.is_empty(), "{name}: {o}");
        let got = listing(&out);
        assert_eq!(got.len(), 10, "{name}: {got:?}");
        assert!(
            got.iter().all(|n| n.len() <= 200 && n.ends_with(".gml")),
            "{got:?}"
        );
        if !files.is_empty() {
            let mut want = files.clone();
            want.sort();
            assert_eq!(got, want);
        }
        // Nothing outside the folder.
        assert_eq!(listing(dir.path()), ["o"]);
    }
}

#[test]
fn an_entry_that_cannot_be_written_is_reported_and_the_rest_written() {
    let f = need!(repro_path("round2/decompile-o-name-collisions.win"));
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("o");
    // A non-empty folder where one entry's file goes: that entry cannot be written.
    std::fs::create_dir_all(out.join("dup~4.gml/x")).unwrap();
    let o = gmkit([
        "decompile".as_ref(),
        f.as_os_str(),
        "-o".as_ref(),
        out.as_os_str(),
    ]);
    assert!(o.exited_with(&[3]), "{o}");
    let lines: Vec<&str> = o.stderr.lines().collect();
    assert_eq!(lines.len(), 1, "{o}");
    assert!(
        lines[0].starts_with(&format!(
            "gmkit decompile: {}: code entry \"dup\": cannot write {}: ",
            f.display(),
            out.join("dup~4.gml").display()
        )) && !lines[0].contains(".gmkit-decompile"),
        "{o}"
    );
    // The nine others, the folder in the way, and no temporary file left.
    assert_eq!(listing(&out).len(), 10, "{:?}", listing(&out));
    assert!(listing(&out).iter().all(|n| n.ends_with(".gml")));
}
