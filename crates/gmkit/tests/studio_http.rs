//! `gmkit studio` at the HTTP level (issue 19): the binary is started with `--no-open`, its
//! first stdout line read for the URL, and raw HTTP/1.1 sent over a `TcpStream`. Security (the
//! token, the Host check, no CORS), the tree against `gmkit ls --json` on every corpus file,
//! frames against `gmkit export`'s PNGs pixel for pixel, and every edit (string, GML with an
//! error and fixed, frame, sound) seen by `/api/diff`, saved (`--out`, `--in-place` with a backup
//! never overwritten) and downloaded.

use gmkit_testdata::{corpus_names_all, corpus_path};
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

/// A running `gmkit studio`, killed when dropped.
struct Studio {
    child: Child,
    port: u16,
    token: String,
}

impl Drop for Studio {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An HTTP answer.
struct Answer {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

impl Answer {
    fn json(&self) -> Value {
        serde_json::from_slice(&self.body).unwrap_or_else(|e| {
            panic!(
                "expected JSON ({e}), found {}",
                String::from_utf8_lossy(&self.body)
            )
        })
    }
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

fn start(file: &Path, extra: &[&str]) -> Studio {
    let mut child = Command::new(env!("CARGO_BIN_EXE_gmkit"))
        .arg("studio")
        .arg(file)
        .arg("--no-open")
        .args(extra)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let url = line
        .trim()
        .strip_prefix("gmkit studio: http://127.0.0.1:")
        .unwrap_or_else(|| panic!("expected the URL line, found {line:?}"));
    let (port, token) = url.split_once("/?token=").unwrap();
    assert!(token.len() >= 32 && token.bytes().all(|b| b.is_ascii_alphanumeric()));
    Studio {
        child,
        port: port.parse().unwrap(),
        token: token.to_owned(),
    }
}

/// Sends one request (`Connection: close`) and reads the whole answer.
fn raw(port: u16, method: &str, target: &str, host: &str, extra: &str, body: &[u8]) -> Answer {
    let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
    let head = format!(
        "{method} {target} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\nContent-Length: {}\r\n{extra}\r\n",
        body.len()
    );
    s.write_all(head.as_bytes()).unwrap();
    s.write_all(body).unwrap();
    let mut all = Vec::new();
    s.read_to_end(&mut all).unwrap();
    let split = all
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("an HTTP head");
    let head = String::from_utf8_lossy(&all[..split]).into_owned();
    let mut lines = head.split("\r\n");
    let status: u16 = lines
        .next()
        .and_then(|l| l.split(' ').nth(1))
        .and_then(|c| c.parse().ok())
        .expect("a status line");
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_owned(), v.trim().to_owned()))
        .collect();
    let mut body = all[split + 4..].to_vec();
    let chunked = headers.iter().any(|(k, v)| {
        k.eq_ignore_ascii_case("transfer-encoding") && v.eq_ignore_ascii_case("chunked")
    });
    if chunked {
        let mut out = Vec::new();
        let mut rest = &body[..];
        loop {
            let nl = rest.windows(2).position(|w| w == b"\r\n").unwrap();
            let n = usize::from_str_radix(std::str::from_utf8(&rest[..nl]).unwrap().trim(), 16)
                .unwrap();
            if n == 0 {
                break;
            }
            out.extend_from_slice(&rest[nl + 2..nl + 2 + n]);
            rest = &rest[nl + 2 + n + 2..];
        }
        body = out;
    }
    Answer {
        status,
        headers,
        body,
    }
}

impl Studio {
    fn host(&self) -> String {
        format!("127.0.0.1:{}", self.port)
    }
    fn with_token(&self, path: &str) -> String {
        let sep = if path.contains('?') { '&' } else { '?' };
        format!("{path}{sep}token={}", self.token)
    }
    fn get(&self, path: &str) -> Answer {
        raw(
            self.port,
            "GET",
            &self.with_token(path),
            &self.host(),
            "",
            b"",
        )
    }
    fn post(&self, path: &str, body: &[u8]) -> Answer {
        raw(
            self.port,
            "POST",
            &self.with_token(path),
            &self.host(),
            "",
            body,
        )
    }
    fn post_json(&self, path: &str, v: Value) -> Answer {
        self.post(path, v.to_string().as_bytes())
    }
    fn ok_json(&self, path: &str) -> Value {
        let a = self.get(path);
        assert_eq!(
            a.status,
            200,
            "{path}: {}",
            String::from_utf8_lossy(&a.body)
        );
        a.json()
    }
}

fn gmkit(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_gmkit"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn sample_file(dir: &Path) -> PathBuf {
    let data = gmkit_folder::sample::sample_data().unwrap();
    let path = dir.join("sample.win");
    gmkit_data::build_file(&data, &path).unwrap();
    path
}

/// A copy of corpus file `name` in `dir` (edits and saves never touch the corpus).
fn copy_of(dir: &Path, name: &str) -> Option<PathBuf> {
    let src = corpus_path(name)?;
    let dst = dir.join("game.win");
    std::fs::copy(src, &dst).unwrap();
    Some(dst)
}

fn diff_text(s: &Studio) -> (String, u64) {
    let d = s.ok_json("/api/diff");
    (
        d["text"].as_str().unwrap().to_owned(),
        d["changes"].as_u64().unwrap(),
    )
}

#[test]
fn refuses_requests_without_the_token_or_from_another_host() {
    let dir = tempfile::tempdir().unwrap();
    let s = start(&sample_file(dir.path()), &[]);
    let host = s.host();
    for path in ["/", "/app.js", "/api/tree", "/api/info", "/api/download"] {
        // No token, a wrong token, a token one character short.
        assert_eq!(
            raw(s.port, "GET", path, &host, "", b"").status,
            403,
            "{path}"
        );
        let wrong = format!("{path}?token=0{}", &s.token[1..]);
        assert_eq!(raw(s.port, "GET", &wrong, &host, "", b"").status, 403);
        let short = format!("{path}?token={}", &s.token[1..]);
        assert_eq!(raw(s.port, "GET", &short, &host, "", b"").status, 403);
        // The right token, another Host (DNS rebinding), or another port.
        let good = s.with_token(path);
        for bad in [
            "evil.example",
            "evil.example:80",
            &format!("evil.example:{}", s.port),
            &format!("127.0.0.1:{}", s.port.wrapping_add(1)),
        ] {
            assert_eq!(raw(s.port, "GET", &good, bad, "", b"").status, 403, "{bad}");
        }
        let ok = raw(
            s.port,
            "GET",
            &good,
            &host,
            "Origin: http://evil.example\r\n",
            b"",
        );
        assert_eq!(ok.status, 200, "{path}");
        let local = format!("localhost:{}", s.port);
        assert_eq!(raw(s.port, "GET", &good, &local, "", b"").status, 200);
        assert!(ok.header("access-control-allow-origin").is_none());
    }
    // The token in a header works too; a POST without it changes nothing.
    let h = format!("X-Gmkit-Token: {}\r\n", s.token);
    assert_eq!(raw(s.port, "GET", "/api/tree", &host, &h, b"").status, 200);
    let body = br#"{"text":"x"}"#;
    assert_eq!(
        raw(s.port, "POST", "/api/strings/0", &host, "", body).status,
        403
    );
    assert_eq!(diff_text(&s).1, 0);
    // A CORS preflight gets no allowance.
    let pre = raw(
        s.port,
        "OPTIONS",
        &s.with_token("/api/strings/0"),
        &host,
        "Origin: http://evil.example\r\nAccess-Control-Request-Method: POST\r\n",
        b"",
    );
    assert!(pre.header("access-control-allow-origin").is_none());
    // Paths that look like files on disk are not served.
    for path in [
        "/../../etc/passwd",
        "/etc/passwd",
        "/api/code/..%2F..%2Fetc%2Fpasswd",
    ] {
        let a = s.get(path);
        assert_ne!(a.status, 200, "{path}");
        assert!(!String::from_utf8_lossy(&a.body).contains("root:"));
    }
    // The page embeds the token in its own links and loads nothing from elsewhere.
    let page = String::from_utf8(s.get("/").body).unwrap();
    assert!(page.contains(&s.token));
    for a in [&page, &String::from_utf8(s.get("/app.js").body).unwrap()] {
        assert!(
            !a.contains("http://") && !a.contains("https://"),
            "an outside URL"
        );
    }
}

#[test]
fn tree_counts_equal_gmkit_ls_on_every_corpus_file() {
    let Some(names) = corpus_names_all() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut files: Vec<PathBuf> = vec![sample_file(dir.path())];
    files.extend(names.iter().filter_map(|n| corpus_path(n)));
    for file in files {
        let s = start(&file, &[]);
        let tree = s.ok_json("/api/tree");
        let kinds = tree["kinds"].as_array().unwrap();
        assert_eq!(kinds.len(), gmkit_folder::list::KINDS.len());
        for k in kinds {
            let kind = k["kind"].as_str().unwrap();
            let o = gmkit(&["ls", "--json", file.to_str().unwrap(), kind]);
            assert!(o.status.success(), "{} {kind}", file.display());
            let rows: Vec<Value> = serde_json::from_slice(&o.stdout).unwrap();
            assert_eq!(
                k["count"].as_u64(),
                Some(rows.len() as u64),
                "{} {kind}",
                file.display()
            );
            let assets = k["assets"].as_array().unwrap();
            if kind == "strings" {
                // Strings are served by /api/strings, not in the tree.
                assert!(assets.is_empty());
                let listed = s.ok_json("/api/strings");
                let listed = listed.as_array().unwrap();
                assert_eq!(listed.len(), rows.len());
                for (a, r) in listed.iter().zip(&rows) {
                    assert_eq!(a["index"], r["index"]);
                    assert_eq!(a["text"], r["name"]);
                }
                continue;
            }
            assert_eq!(assets.len(), rows.len());
            for (a, r) in assets.iter().zip(&rows) {
                assert_eq!(a["index"], r["index"]);
                assert_eq!(a["name"], r["name"]);
            }
        }
    }
}

/// Decodes a PNG to (width, height, RGBA pixels).
fn pixels(png: &[u8]) -> (u32, u32, Vec<u8>) {
    let img = image::load_from_memory_with_format(png, image::ImageFormat::Png)
        .unwrap()
        .to_rgba8();
    (img.width(), img.height(), img.into_raw())
}

#[test]
fn sprite_frames_are_the_pixels_gmkit_export_writes() {
    let Some(names) = corpus_names_all() else {
        return;
    };
    let mut checked = 0;
    // Every third corpus file: each frame of each sprite against the exported PNG.
    for name in names.iter().step_by(3) {
        let Some(file) = corpus_path(name) else {
            return;
        };
        let out = tempfile::tempdir().unwrap();
        let o = gmkit(&[
            "export",
            file.to_str().unwrap(),
            out.path().join("x").to_str().unwrap(),
            "sprites",
        ]);
        assert!(o.status.success(), "{name}");
        let s = start(&file, &[]);
        let tree = s.ok_json("/api/tree");
        let sprites = tree["kinds"]
            .as_array()
            .unwrap()
            .iter()
            .find(|k| k["kind"] == "sprites")
            .unwrap()["assets"]
            .as_array()
            .unwrap()
            .clone();
        for sp in sprites.iter().take(40) {
            let i = sp["index"].as_u64().unwrap();
            let sprite_name = sp["name"].as_str().unwrap();
            let base = out.path().join("x/sprites");
            let Some(dir) = [
                base.join(format!("{i:04}_{sprite_name}")),
                base.join(sprite_name),
            ]
            .into_iter()
            .find(|d| d.is_dir()) else {
                continue;
            };
            let info = s.ok_json(&format!("/api/sprites/{i}"));
            for f in 0..info["frames"].as_u64().unwrap() {
                let Ok(exported) = std::fs::read(dir.join(format!("{f}.png"))) else {
                    continue;
                };
                let a = s.get(&format!("/api/sprites/{i}/frames/{f}.png"));
                assert_eq!(a.status, 200, "{name} sprite {i} frame {f}");
                assert_eq!(a.header("content-type"), Some("image/png"));
                assert_eq!(
                    pixels(&a.body),
                    pixels(&exported),
                    "{name} sprite {i} frame {f}"
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 0, "no frame compared");
}

/// The first object event with GML in the game.
fn first_event(s: &Studio) -> Option<(String, String)> {
    let tree = s.ok_json("/api/tree");
    let objects = tree["kinds"]
        .as_array()?
        .iter()
        .find(|k| k["kind"] == "objects")?["count"]
        .as_u64()?;
    for i in 0..objects {
        let o = s.ok_json(&format!("/api/objects/{i}"));
        for e in o["events"].as_array()? {
            if let (Some(code), Some(gml)) = (e["code"].as_str(), e["gml"].as_str())
                && gml.lines().count() >= 2
            {
                return Some((code.to_owned(), gml.to_owned()));
            }
        }
    }
    None
}

#[test]
fn edits_show_in_the_diff_and_save_writes_the_out_file() {
    let dir = tempfile::tempdir().unwrap();
    let Some(file) = copy_of(dir.path(), "platformer.win") else {
        return;
    };
    let out = dir.path().join("modded.win");
    let s = start(&file, &["--out", out.to_str().unwrap()]);
    assert_eq!(diff_text(&s), (String::new(), 0));

    // A string.
    let strings = s.ok_json("/api/strings");
    let i = strings
        .as_array()
        .unwrap()
        .iter()
        .position(|x| {
            x["text"]
                .as_str()
                .is_some_and(|t| t.len() > 3 && !t.contains('_'))
        })
        .unwrap();
    let old = strings[i]["text"].as_str().unwrap().to_owned();
    let a = s.post_json(
        &format!("/api/strings/{i}"),
        json!({"text": "Bonjour studio"}),
    );
    assert_eq!(a.status, 200, "{}", String::from_utf8_lossy(&a.body));
    let (text, n) = diff_text(&s);
    assert!(
        n >= 1 && text.contains("Bonjour studio") && text.contains(&old),
        "{text}"
    );
    assert_eq!(s.ok_json("/api/strings")[i]["text"], "Bonjour studio");

    // GML with a syntax error on line 2: the error at its line, nothing applied.
    let (code, gml) = first_event(&s).expect("an object event with GML");
    let mut lines: Vec<&str> = gml.lines().collect();
    lines.insert(1, "x = ;");
    let bad = lines.join("\n");
    let path = format!("/api/code/{code}/check");
    let c = s.post_json(&path, json!({"gml": bad}));
    assert_eq!(c.status, 200);
    let c = c.json();
    assert_eq!(c["ok"], false, "{c}");
    assert_eq!(c["errors"][0]["line"], 2, "{c}");
    let a = s.post_json(&format!("/api/code/{code}"), json!({"gml": bad}));
    assert_eq!(a.status, 422);
    assert_eq!(a.json()["errors"][0]["line"], 2);
    let before = diff_text(&s);
    // Fixed: checks clean, applies, and the diff names the entry.
    let good = format!("{gml}\nstudio_added = 1;\n");
    assert_eq!(s.post_json(&path, json!({"gml": good})).json()["ok"], true);
    let a = s.post_json(&format!("/api/code/{code}"), json!({"gml": good}));
    assert_eq!(a.status, 200, "{}", String::from_utf8_lossy(&a.body));
    let (text, n) = diff_text(&s);
    assert!(n > before.1 && text.contains(&code), "{text}");
    assert!(
        s.ok_json(&format!("/api/code/{code}"))["gml"]
            .as_str()
            .unwrap()
            .contains("studio_added")
    );

    // Save: written through a temporary file renamed into place; it parses and `gmkit diff`
    // shows the string; nothing else is left in the directory.
    let a = s.post("/api/save", b"");
    assert_eq!(a.status, 200, "{}", String::from_utf8_lossy(&a.body));
    gmkit_data::parse_file(&out).unwrap();
    let d = gmkit(&["diff", file.to_str().unwrap(), out.to_str().unwrap()]);
    let d = String::from_utf8_lossy(&d.stdout).into_owned();
    assert!(d.contains("Bonjour studio") && d.contains(&code), "{d}");
    let mut left: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert_eq!(left, ["game.win", "modded.win"]);
    // The original file is untouched.
    assert_eq!(
        std::fs::read(&file).unwrap(),
        std::fs::read(corpus_path("platformer.win").unwrap()).unwrap()
    );

    // Download: the same bytes as saved, as an attachment.
    let dl = s.get("/api/download");
    assert_eq!(dl.status, 200);
    assert!(
        dl.header("content-disposition")
            .unwrap()
            .starts_with("attachment")
    );
    assert_eq!(dl.body, std::fs::read(&out).unwrap());
    gmkit_data::parse_bytes(dl.body).unwrap();
}

#[test]
fn save_without_a_target_is_refused_download_and_room_pictures_work() {
    let dir = tempfile::tempdir().unwrap();
    let file = sample_file(dir.path());
    let s = start(&file, &[]);
    assert_eq!(s.post("/api/save", b"").status, 409);
    let dl = s.get("/api/download");
    assert_eq!(dl.status, 200);
    assert_eq!(dl.body, std::fs::read(&file).unwrap());
    // The room is drawn by gmkit-render: the same pixels as `gmkit render room`.
    let room = s.get("/api/rooms/0.png");
    assert_eq!(room.status, 200);
    let png = dir.path().join("room0.png");
    let cli = gmkit(&[
        "render",
        "room",
        "0",
        file.to_str().unwrap(),
        "-o",
        png.to_str().unwrap(),
    ]);
    assert!(cli.status.success(), "{cli:?}");
    assert_eq!(pixels(&room.body), pixels(&std::fs::read(&png).unwrap()));
    assert_eq!(s.ok_json("/api/rooms/0")["index"], 0);
    // Quit ends the process.
    let mut s = s;
    assert_eq!(s.post("/api/quit", b"").status, 200);
    let status = s.child.wait().unwrap();
    assert!(status.success());
}

#[test]
fn in_place_keeps_a_backup_that_is_never_overwritten() {
    let dir = tempfile::tempdir().unwrap();
    let Some(file) = copy_of(dir.path(), "longdog.win") else {
        return;
    };
    let original = std::fs::read(&file).unwrap();
    // An older backup exists: it must stay as it is.
    let bak = dir.path().join("game.win.bak");
    std::fs::write(&bak, b"an older backup").unwrap();
    let s = start(&file, &["--in-place"]);
    let a = s.post_json("/api/strings/1", json!({"text": "first save"}));
    assert_eq!(a.status, 200);
    assert_eq!(s.post("/api/save", b"").status, 200);
    assert_eq!(std::fs::read(&bak).unwrap(), b"an older backup");
    let bak1 = dir.path().join("game.win.bak.1");
    assert_eq!(std::fs::read(&bak1).unwrap(), original);
    assert_ne!(std::fs::read(&file).unwrap(), original);
    // A second save: the backups stay, none added.
    let a = s.post_json("/api/strings/1", json!({"text": "second save"}));
    assert_eq!(a.status, 200);
    assert_eq!(s.post("/api/save", b"").status, 200);
    assert_eq!(std::fs::read(&bak1).unwrap(), original);
    assert!(!dir.path().join("game.win.bak.2").exists());
    let saved = gmkit_data::parse_file(&file).unwrap();
    let strings = saved.strings.unwrap();
    assert_eq!(
        strings.iter().nth(1).unwrap().to_string_lossy(),
        "second save"
    );
}

#[test]
fn a_frame_png_and_a_sound_change_what_diff_reports() {
    let dir = tempfile::tempdir().unwrap();
    let Some(file) = copy_of(dir.path(), "longdog.win") else {
        return;
    };
    let s = start(&file, &[]);
    // Frame 0 of a small sprite with its first row painted opaque red (a large one may be
    // stored scaled down, where pixels cannot come back exactly).
    let count = |kind: &str| {
        s.ok_json("/api/tree")["kinds"]
            .as_array()
            .unwrap()
            .iter()
            .find(|k| k["kind"] == kind)
            .unwrap()["count"]
            .as_u64()
            .unwrap()
    };
    let sprite = (0..count("sprites"))
        .find(|i| {
            let j = s.ok_json(&format!("/api/sprites/{i}"));
            let area = j["width"].as_u64().unwrap() * j["height"].as_u64().unwrap();
            j["frames"].as_u64().unwrap() > 0 && (16 * 16..=128 * 128).contains(&area)
        })
        .expect("a small sprite");
    let frame_path = format!("/api/sprites/{sprite}/frames/0");
    let png = s.get(&format!("{frame_path}.png"));
    assert_eq!(png.status, 200);
    let (w, h, mut px) = pixels(&png.body);
    for x in 0..w as usize {
        px[4 * x..4 * x + 4].copy_from_slice(&[255, 0, 0, 255]);
    }
    let mut edited = Vec::new();
    image::RgbaImage::from_raw(w, h, px.clone())
        .unwrap()
        .write_to(
            &mut std::io::Cursor::new(&mut edited),
            image::ImageFormat::Png,
        )
        .unwrap();
    let a = s.post(&frame_path, &edited);
    assert_eq!(a.status, 200, "{}", String::from_utf8_lossy(&a.body));
    let (text, n) = diff_text(&s);
    assert!(n >= 1 && text.contains("frame 0"), "{text}");
    let (w2, h2, after) = pixels(&s.get(&format!("{frame_path}.png")).body);
    assert_eq!((w2, h2), (w, h));
    let differ: Vec<usize> = (0..px.len() / 4)
        .filter(|&k| px[4 * k..4 * k + 4] != after[4 * k..4 * k + 4])
        .collect();
    assert!(
        differ.is_empty(),
        "{} pixels differ from the PNG sent, first at {:?}: sent {:?}, served {:?}",
        differ.len(),
        differ.first().map(|&k| (k % w as usize, k / w as usize)),
        differ.first().map(|&k| &px[4 * k..4 * k + 4]),
        differ.first().map(|&k| &after[4 * k..4 * k + 4]),
    );
    // A PNG of another size is refused with a reason, nothing changed.
    let a = s.post(&frame_path, &png.body[..png.body.len() / 2]);
    assert_eq!(a.status, 422);
    assert_eq!(diff_text(&s).1, n);

    // The first sound with embedded audio gets a new WAV.
    let sounds = count("sounds");
    let wav = tiny_wav();
    let mut done = false;
    for i in 0..sounds {
        let a = s.get(&format!("/api/sounds/{i}/audio"));
        if a.status != 200 {
            continue;
        }
        assert!(a.header("content-type").unwrap().starts_with("audio/"));
        let p = s.post(&format!("/api/sounds/{i}/audio"), &wav);
        if p.status != 200 {
            continue;
        }
        assert_eq!(s.get(&format!("/api/sounds/{i}/audio")).body, wav);
        let (text, m) = diff_text(&s);
        assert!(m > n && text.contains("sound"), "{text}");
        done = true;
        break;
    }
    assert!(done, "no embedded sound could be replaced");
}

/// A 10 ms mono 16-bit WAV of silence.
fn tiny_wav() -> Vec<u8> {
    let samples = 441u32;
    let data = samples * 2;
    let mut w = Vec::new();
    w.extend_from_slice(b"RIFF");
    w.extend_from_slice(&(36 + data).to_le_bytes());
    w.extend_from_slice(b"WAVEfmt ");
    w.extend_from_slice(&16u32.to_le_bytes());
    w.extend_from_slice(&1u16.to_le_bytes());
    w.extend_from_slice(&1u16.to_le_bytes());
    w.extend_from_slice(&44100u32.to_le_bytes());
    w.extend_from_slice(&88200u32.to_le_bytes());
    w.extend_from_slice(&2u16.to_le_bytes());
    w.extend_from_slice(&16u16.to_le_bytes());
    w.extend_from_slice(b"data");
    w.extend_from_slice(&data.to_le_bytes());
    w.resize(w.len() + data as usize, 0);
    w
}

/// A corpus game with one embedded sound moved into `audiogroup1.dat` beside it (the sound's
/// group becomes 1, its audio entry 0 of the group file): the game's path and the sound's index
/// and original audio.
fn game_with_an_audio_group(dir: &Path) -> Option<(PathBuf, usize, Vec<u8>)> {
    use gmkit_data::chunks::audio::EmbeddedAudio;
    use gmkit_data::chunks::audio_group::{AudioGroup, AudioGroups};
    use gmkit_data::chunks::sound::GroupOrPreload;
    use gmkit_data::{AssetRef, DataFile};
    for name in corpus_names_all()? {
        let mut data = gmkit_data::parse_file(corpus_path(&name)?).unwrap();
        let Some((i, audio)) = data.sounds.as_ref().and_then(|s| {
            s.sounds.iter().enumerate().find_map(|(i, s)| {
                let s = s.as_ref()?;
                if !matches!(s.group, GroupOrPreload::Group(g) if g.index() == Some(0)) {
                    return None;
                }
                let bytes = data
                    .audio
                    .as_ref()?
                    .entries
                    .get(s.audio_id.index()?)?
                    .clone()?;
                Some((i, bytes))
            })
        }) else {
            continue;
        };
        let group_name = data.strings.as_mut().unwrap().push("audiogroup_test");
        let groups = data.audio_groups.get_or_insert_with(AudioGroups::default);
        while groups.groups.len() < 2 {
            groups.groups.push(Some(AudioGroup {
                name: group_name,
                path: None,
            }));
        }
        let sound = data.sounds.as_mut().unwrap().sounds[i].as_mut().unwrap();
        sound.group = GroupOrPreload::Group(AssetRef::at(1));
        sound.audio_id = AssetRef::at(0);
        let group = DataFile {
            audio: Some(EmbeddedAudio {
                entries: vec![Some(audio.clone())],
            }),
            ..Default::default()
        };
        let file = dir.join("game.win");
        std::fs::write(&file, gmkit_data::build_bytes(&data).unwrap()).unwrap();
        std::fs::write(
            dir.join("audiogroup1.dat"),
            gmkit_data::build_bytes(&group).unwrap(),
        )
        .unwrap();
        eprintln!("{name}: sound {i} moved into audiogroup1.dat");
        return Some((file, i, audio.to_vec()));
    }
    panic!("no corpus game has an embedded sound of the builtin audio group");
}

/// A sound of an audio group (`audiogroup1.dat` beside the game) is served, replaced by a
/// dropped file through the same library call as import, listed by the diff, and saved into
/// the audio group file written beside `--out`.
#[test]
fn a_sound_of_an_audio_group_is_replaced_and_saved_beside_the_game() {
    let dir = tempfile::tempdir().unwrap();
    let Some((file, i, original)) = game_with_an_audio_group(dir.path()) else {
        return;
    };
    let out = dir.path().join("out").join("game.win");
    std::fs::create_dir(out.parent().unwrap()).unwrap();
    let s = start(&file, &["--out", out.to_str().unwrap()]);
    assert_eq!(
        s.ok_json("/api/info")["audio_groups"],
        json!(["audiogroup1"])
    );
    let a = s.get(&format!("/api/sounds/{i}/audio"));
    assert_eq!(a.status, 200);
    assert_eq!(a.body, original);
    let wav = tiny_wav();
    let p = s.post(&format!("/api/sounds/{i}/audio"), &wav);
    assert_eq!(p.status, 200, "{}", String::from_utf8_lossy(&p.body));
    assert_eq!(s.get(&format!("/api/sounds/{i}/audio")).body, wav);
    let (text, n) = diff_text(&s);
    assert!(n >= 1 && text.contains("audio 0: changed"), "{text}");
    let saved = s.post("/api/save", b"");
    assert_eq!(
        saved.status,
        200,
        "{}",
        String::from_utf8_lossy(&saved.body)
    );
    assert_eq!(
        saved.json()["saved"],
        json!(["game.win", "audiogroup1.dat"])
    );
    let group = gmkit_data::parse_file(out.with_file_name("audiogroup1.dat")).unwrap();
    assert_eq!(
        group.audio.unwrap().entries[0].as_deref(),
        Some(&wav[..]),
        "the audio group file saved holds the new audio"
    );
    // The data file's own audio is untouched, and the opened game's group file too.
    let opened = gmkit_data::parse_file(dir.path().join("audiogroup1.dat")).unwrap();
    assert_eq!(
        opened.audio.unwrap().entries[0].as_deref(),
        Some(&original[..])
    );
}
