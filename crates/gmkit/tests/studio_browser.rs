//! `gmkit studio` in a real browser: headless Chromium driven over WebDriver (`chromedriver`,
//! through `fantoccini`), checking what a person would see and do, as docs/studio.md's contract
//! (DOM and API) describes it.
//!
//! One chromedriver and one browser session serve every case of this binary (start-up costs
//! seconds); each case opens a fresh `gmkit studio FILE --no-open --out TMP` from the built binary
//! and kills it when done, also when the case fails ([`Studio`]'s `Drop`). The cases run one after
//! another (`harness = false`: a small runner below, which takes name filters like libtest).
//!
//! Without chromedriver and Chromium the binary prints why and skips; `GMKIT_REQUIRE_BROWSER=1`
//! (set by `.ci/run`, which installs them) makes that a failure. Cases on real games need the
//! corpus like every corpus test (`GMKIT_CORPUS`); the edit cases run on the built-in sample game,
//! so they run in any clone that has a browser.
//!
//! `GMKIT_WRITE_GOLDEN=1` writes the reviewed screenshots (docs/img/studio-room.png,
//! docs/img/studio-object.png); without it they are taken and checked but not written.

use base64::Engine as _;
use fantoccini::wd::WebDriverCompatibleCommand;
use fantoccini::{Client, ClientBuilder, Locator};
use serde_json::{Value, json};
use std::future::Future;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::pin::Pin;
use std::process::{Child, Command, ExitCode, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

type R<T = ()> = anyhow::Result<T>;
type CaseFuture = Pin<Box<dyn Future<Output = R> + Send>>;

/// How long one wait for the page may take before the case fails (a hang guard, not a timing
/// check: a machine under load is still far below it).
const WAIT: Duration = Duration::from_secs(60);

/// The `gmkit ls` kinds a studio tree shows with a count (the contract's list; `ls` knows a few
/// more, checked too when the tree shows them).
const TREE_KINDS: &[&str] = &[
    "sprites",
    "sounds",
    "rooms",
    "objects",
    "scripts",
    "code",
    "strings",
    "fonts",
    "textures",
    "backgrounds",
];

/// Every kind `gmkit ls` lists.
const LS_KINDS: &[&str] = gmkit_folder::list::KINDS;

/// What every case gets: the browser session and where the built `gmkit` is.
struct Ctx {
    client: Client,
    gmkit: PathBuf,
}

/// One case of this binary.
struct Case {
    name: &'static str,
    run: fn(Arc<Ctx>) -> CaseFuture,
}

/// A [`Case`] named `name` running `run`.
macro_rules! case {
    ($name:literal, $run:ident) => {
        Case {
            name: $name,
            run: |c| Box::pin($run(c)),
        }
    };
}

fn cases() -> Vec<Case> {
    vec![
        case!(
            "every_corpus_file_opens_with_ls_counts_and_exact_frames",
            every_corpus_file_opens
        ),
        case!(
            "sprite_frame_shown_equals_exported_png",
            sprite_frame_equals_export
        ),
        case!(
            "string_edit_saved_shows_in_gmkit_diff_and_download",
            string_edit_saved_shows_in_diff
        ),
        case!(
            "gml_syntax_error_shown_at_its_line_then_fixed_gml_applies",
            gml_error_at_line_then_fix
        ),
        case!(
            "frame_and_sound_replaced_from_the_page",
            frame_and_sound_replaced
        ),
        case!("download_is_the_rebuilt_file", download_is_rebuilt_file),
        case!(
            "page_requests_only_loopback_and_weighs_under_300kb",
            only_loopback_requests
        ),
        case!(
            "request_without_token_from_the_page_is_refused",
            no_token_refused
        ),
        case!("search_filters_the_tree", search_filters_the_tree),
        case!(
            "golden_screenshots_of_a_room_and_an_object",
            golden_screenshots
        ),
    ]
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let filters: Vec<&str> = args
        .iter()
        .filter(|a| !a.starts_with('-'))
        .map(String::as_str)
        .collect();
    let exact = args.iter().any(|a| a == "--exact");
    let selected: Vec<Case> = cases()
        .into_iter()
        .filter(|c| {
            filters.is_empty()
                || filters.iter().any(|f| {
                    if exact {
                        c.name == *f
                    } else {
                        c.name.contains(f)
                    }
                })
        })
        .collect();
    if args.iter().any(|a| a == "--list") {
        for c in &selected {
            println!("{}: test", c.name);
        }
        return ExitCode::SUCCESS;
    }
    let filtered_out = cases().len() - selected.len();
    if selected.is_empty() {
        println!(
            "\nrunning 0 tests\n\ntest result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; {filtered_out} filtered out; finished in 0.00s\n"
        );
        return ExitCode::SUCCESS;
    }
    let Some(browser) = gmkit_testdata::browser() else {
        println!("\nrunning {} tests", selected.len());
        for c in &selected {
            println!("test {} ... ignored, no browser", c.name);
        }
        println!(
            "\ntest result: ok. 0 passed; 0 failed; {} ignored; 0 measured; {filtered_out} filtered out; finished in 0.00s\n",
            selected.len()
        );
        return ExitCode::SUCCESS;
    };
    let rt = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("tokio runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    let ok = rt.block_on(run_all(browser, selected, filtered_out));
    if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

/// Starts chromedriver and one session, runs the cases one by one, closes the session; prints
/// libtest's lines (so CI's reader and a person see the same summary as for the other tests).
async fn run_all(browser: gmkit_testdata::Browser, cases: Vec<Case>, filtered_out: usize) -> bool {
    let start = Instant::now();
    println!("\nrunning {} tests", cases.len());
    let profile = match tempfile::tempdir() {
        Ok(d) => d,
        Err(e) => {
            eprintln!("temporary profile directory: {e}");
            return false;
        }
    };
    let (driver, client) = match start_session(&browser, profile.path()).await {
        Ok(s) => s,
        Err(e) => {
            eprintln!("could not start a browser session: {e:#}");
            println!(
                "\ntest result: FAILED. 0 passed; {} failed; 0 ignored; 0 measured; {filtered_out} filtered out; finished in {:.2}s\n",
                cases.len(),
                start.elapsed().as_secs_f64()
            );
            return false;
        }
    };
    eprintln!(
        "browser session ready in {:.1}s ({} driving {})",
        start.elapsed().as_secs_f64(),
        browser.chromedriver.display(),
        browser.chromium.display()
    );
    let ctx = Arc::new(Ctx {
        client: client.clone(),
        gmkit: PathBuf::from(env!("CARGO_BIN_EXE_gmkit")),
    });
    let (mut passed, mut failed) = (0, Vec::new());
    for case in cases {
        let t = Instant::now();
        let outcome = tokio::spawn((case.run)(ctx.clone())).await;
        let secs = t.elapsed().as_secs_f64();
        match outcome {
            Ok(Ok(())) => {
                passed += 1;
                println!("test {} ... ok ({secs:.1}s)", case.name);
            }
            Ok(Err(e)) => {
                println!("test {} ... FAILED ({secs:.1}s)", case.name);
                failed.push((case.name, format!("{e:#}")));
            }
            Err(e) => {
                println!("test {} ... FAILED ({secs:.1}s)", case.name);
                failed.push((case.name, format!("panicked: {e}")));
            }
        }
    }
    drop(ctx);
    let _ = client.close().await;
    drop(driver);
    if !failed.is_empty() {
        println!("\nfailures:\n");
        for (name, why) in &failed {
            println!("---- {name} ----\n{why}\n");
        }
        println!("failures:");
        for (name, _) in &failed {
            println!("    {name}");
        }
    }
    println!(
        "\ntest result: {}. {passed} passed; {} failed; 0 ignored; 0 measured; {filtered_out} filtered out; finished in {:.2}s\n",
        if failed.is_empty() { "ok" } else { "FAILED" },
        failed.len(),
        start.elapsed().as_secs_f64()
    );
    failed.is_empty()
}

/// A child process killed (and reaped) when dropped.
struct KillOnDrop(Child);

impl Drop for KillOnDrop {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A free loopback port (bound and released: chromedriver takes it a moment later).
fn free_port() -> R<u16> {
    Ok(std::net::TcpListener::bind("127.0.0.1:0")?
        .local_addr()?
        .port())
}

/// Chromedriver on a free port and one headless Chromium session with the flags this machine
/// needs (no sandbox as root, no background networking), a new empty profile, and the
/// performance log on (the network requests of [`only_loopback_requests`]).
async fn start_session(
    browser: &gmkit_testdata::Browser,
    profile: &Path,
) -> R<(KillOnDrop, Client)> {
    let port = free_port()?;
    let driver = KillOnDrop(
        Command::new(&browser.chromedriver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| anyhow::anyhow!("{}: {e}", browser.chromedriver.display()))?,
    );
    let deadline = Instant::now() + WAIT;
    while std::net::TcpStream::connect(("127.0.0.1", port)).is_err() {
        anyhow::ensure!(
            Instant::now() < deadline,
            "chromedriver did not listen on port {port}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let caps = json!({
        "browserName": "chrome",
        "goog:chromeOptions": {
            "binary": browser.chromium,
            "args": [
                "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
                "--window-size=1280,800", "--hide-scrollbars",
                format!("--user-data-dir={}", profile.display()),
            ],
        },
        "goog:loggingPrefs": {"performance": "ALL", "browser": "ALL"},
    });
    let Value::Object(caps) = caps else {
        unreachable!()
    };
    let client = ClientBuilder::new(hyper_util::client::legacy::connect::HttpConnector::new())
        .capabilities(caps)
        .connect(&format!("http://127.0.0.1:{port}"))
        .await
        .map_err(|e| anyhow::anyhow!("WebDriver session: {e}"))?;
    Ok((driver, client))
}

/// One running `gmkit studio FILE --no-open --out OUT`, killed when dropped.
struct Studio {
    /// The process (killed and reaped on drop).
    _child: KillOnDrop,
    /// The page's URL with the token, as the first line of stdout gave it.
    url: String,
    /// `http://127.0.0.1:PORT`.
    origin: String,
    /// The session token.
    token: String,
    /// The opened file.
    file: PathBuf,
    /// The `--out` target.
    out: PathBuf,
    /// The server's stderr, shown when something fails.
    stderr: PathBuf,
    /// Holds `out` and `stderr` (removed on drop, after the process).
    _dir: tempfile::TempDir,
}

impl Studio {
    /// Starts the studio on `file` and reads the URL from the first line of its stdout.
    fn start(gmkit: &Path, file: &Path) -> R<Studio> {
        let dir = tempfile::tempdir()?;
        let out = dir.path().join("out.win");
        let stderr = dir.path().join("stderr.txt");
        let mut child = KillOnDrop(
            Command::new(gmkit)
                .arg("studio")
                .arg(file)
                .arg("--no-open")
                .arg("--out")
                .arg(&out)
                .stdin(Stdio::null())
                .stdout(Stdio::piped())
                .stderr(std::fs::File::create(&stderr)?)
                .spawn()?,
        );
        let stdout = child.0.stdout.take().expect("piped stdout");
        let (tx, rx) = std::sync::mpsc::channel();
        // reads the first line, then drains the rest so the server never writes to a closed pipe
        std::thread::spawn(move || {
            let mut lines = BufReader::new(stdout).lines();
            let _ = tx.send(lines.next());
            for _ in lines {}
        });
        let first = match rx.recv_timeout(WAIT) {
            Ok(Some(Ok(line))) => line,
            other => {
                let err = std::fs::read_to_string(&stderr).unwrap_or_default();
                anyhow::bail!(
                    "gmkit studio {}: expected a first line `gmkit studio: http://127.0.0.1:PORT/?token=TOKEN`, got {other:?}; stderr: {err}",
                    file.display()
                );
            }
        };
        let url = first
            .strip_prefix("gmkit studio: ")
            .filter(|u| u.starts_with("http://127.0.0.1:"))
            .ok_or_else(|| {
                anyhow::anyhow!("first line of stdout is not the contract's: {first:?}")
            })?
            .trim()
            .to_string();
        let (origin, token) = url
            .split_once("/?token=")
            .ok_or_else(|| anyhow::anyhow!("no /?token= in {url:?}"))?;
        anyhow::ensure!(
            token.len() >= 32 && token.bytes().all(|b| b.is_ascii_alphanumeric()),
            "token {token:?} is not 32+ characters of [A-Za-z0-9]"
        );
        Ok(Studio {
            origin: origin.to_string(),
            token: token.to_string(),
            url,
            _child: child,
            file: file.to_path_buf(),
            out,
            stderr,
            _dir: dir,
        })
    }

    /// An API path with the token, e.g. `api("/api/tree")`.
    fn api(&self, path: &str) -> String {
        let sep = if path.contains('?') { '&' } else { '?' };
        format!("{}{path}{sep}token={}", self.origin, self.token)
    }

    /// The server's stderr so far (for failure messages).
    fn stderr(&self) -> String {
        std::fs::read_to_string(&self.stderr).unwrap_or_default()
    }

    /// Opens the page and waits for `body[data-ready="1"]`.
    async fn open(&self, c: &Client) -> R {
        c.goto(&self.url).await?;
        wait_css(c, "body[data-ready=\"1\"]")
            .await
            .map_err(|e| anyhow::anyhow!("{e:#}; server stderr: {}", self.stderr()))?;
        Ok(())
    }
}

/// The text of `#error` (empty when there is none or it is blank).
async fn page_error(c: &Client) -> String {
    c.execute(
        "const e = document.querySelector('#error'); return e ? e.textContent.trim() : '';",
        vec![],
    )
    .await
    .ok()
    .and_then(|v| v.as_str().map(str::to_string))
    .unwrap_or_default()
}

/// Waits for an element matching `css`; the error names it and what `#error` says.
async fn wait_css(c: &Client, css: &str) -> R<fantoccini::elements::Element> {
    match c
        .wait()
        .at_most(WAIT)
        .every(Duration::from_millis(50))
        .for_element(Locator::Css(css))
        .await
    {
        Ok(e) => Ok(e),
        Err(e) => {
            let err = page_error(c).await;
            anyhow::bail!("waiting for `{css}`: {e}; #error says {err:?}")
        }
    }
}

/// Waits until `script` (a function body) returns true.
async fn wait_js(c: &Client, what: &str, script: &str, args: Vec<Value>) -> R {
    let deadline = Instant::now() + WAIT;
    loop {
        if c.execute(script, args.clone()).await? == Value::Bool(true) {
            return Ok(());
        }
        if Instant::now() > deadline {
            let err = page_error(c).await;
            anyhow::bail!("waiting for {what}; #error says {err:?}");
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Clicks the tree item of one asset as a person would: opening its kind first when the list
/// is folded, and typing its name into `#search` when the list is too long to show it.
async fn open_asset(c: &Client, kind: &str, index: usize, name: &str) -> R {
    let css = format!("#asset-tree [data-asset-kind=\"{kind}\"][data-asset-index=\"{index}\"]");
    if !displayed(c, &css).await {
        let summary = format!("#asset-tree [data-kind=\"{kind}\"] > summary");
        let k = wait_css(c, &summary).await?;
        let open = c
            .execute(
                "return document.querySelector(arguments[0]).parentElement.open;",
                vec![json!(summary)],
            )
            .await?;
        if open != Value::Bool(true) {
            k.click().await?;
        }
    }
    if !displayed(c, &css).await {
        let search = wait_css(c, "#search").await?;
        search.clear().await?;
        search.send_keys(name).await?;
    }
    let item = wait_css(c, &css).await?;
    item.click()
        .await
        .map_err(|e| anyhow::anyhow!("clicking {css}: {e}"))?;
    Ok(())
}

/// True when an element matching `css` exists and is displayed.
async fn displayed(c: &Client, css: &str) -> bool {
    match c.find(Locator::Css(css)).await {
        Ok(e) => e.is_displayed().await.unwrap_or(false),
        Err(_) => false,
    }
}

/// A response fetched by the page itself (`fetch` in its JavaScript).
#[derive(Debug)]
struct Fetched {
    status: u64,
    content_type: String,
    disposition: String,
    allow_origin: Option<String>,
    body: Vec<u8>,
}

/// Runs `fetch(url, {method, headers, body})` in the page and returns status, headers and body.
/// A network error (e.g. a cross-origin read refused) is an `Err` naming it.
async fn page_fetch(
    c: &Client,
    url: &str,
    method: &str,
    headers: Value,
    body: Option<&[u8]>,
) -> R<Fetched> {
    const JS: &str = r#"
const [url, method, headers, b64, done] = arguments;
let body;
if (b64 !== null) {
  const s = atob(b64);
  body = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) body[i] = s.charCodeAt(i);
}
fetch(url, {method, headers, body}).then(async r => {
  const u = new Uint8Array(await r.arrayBuffer());
  let s = '';
  for (let i = 0; i < u.length; i += 0x8000) s += String.fromCharCode.apply(null, u.subarray(i, i + 0x8000));
  done({status: r.status, type: r.headers.get('content-type') || '',
        disposition: r.headers.get('content-disposition') || '',
        acao: r.headers.get('access-control-allow-origin'), body: btoa(s)});
}).catch(e => done({error: String(e)}));
"#;
    let b64 = base64::engine::general_purpose::STANDARD;
    let arg_body = body.map_or(Value::Null, |b| Value::String(b64.encode(b)));
    let v = c
        .execute_async(JS, vec![json!(url), json!(method), headers, arg_body])
        .await?;
    if let Some(e) = v.get("error") {
        anyhow::bail!("{method} {url} from the page: {e}");
    }
    Ok(Fetched {
        status: v["status"].as_u64().unwrap_or(0),
        content_type: v["type"].as_str().unwrap_or_default().to_string(),
        disposition: v["disposition"].as_str().unwrap_or_default().to_string(),
        allow_origin: v["acao"].as_str().map(str::to_string),
        body: b64.decode(v["body"].as_str().unwrap_or_default())?,
    })
}

/// `gmkit ARGS...`: stdout on success, an error with stderr otherwise.
fn gmkit(ctx: &Ctx, args: &[&std::ffi::OsStr]) -> R<String> {
    let out = Command::new(&ctx.gmkit).args(args).output()?;
    anyhow::ensure!(
        out.status.success(),
        "gmkit {:?}: {}\n{}",
        args,
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    Ok(String::from_utf8(out.stdout)?)
}

/// The rows `gmkit ls --json FILE KIND` prints.
fn ls(ctx: &Ctx, file: &Path, kind: &str) -> R<Vec<Value>> {
    let text = gmkit(
        ctx,
        &[
            "ls".as_ref(),
            "--json".as_ref(),
            file.as_os_str(),
            kind.as_ref(),
        ],
    )?;
    match serde_json::from_str(&text)? {
        Value::Array(rows) => Ok(rows),
        other => anyhow::bail!(
            "gmkit ls --json {} {kind}: expected an array, got {other}",
            file.display()
        ),
    }
}

/// Writes the built-in sample game (a sprite, a sound, a room, an object with a create event)
/// into `dir` and returns its path.
fn sample_game(dir: &Path) -> R<PathBuf> {
    let data = gmkit_folder::sample::sample_data().map_err(anyhow::Error::msg)?;
    let bytes = gmkit_data::build_bytes(&data).map_err(|e| anyhow::anyhow!("{e}"))?;
    let path = dir.join("sample.win");
    std::fs::write(&path, bytes)?;
    Ok(path)
}

/// The kinds and counts the tree shows: `[data-kind]` elements with `data-count` in `#asset-tree`.
async fn tree_counts(c: &Client) -> R<Vec<(String, usize)>> {
    let v = c
        .execute(
            "return [...document.querySelectorAll('#asset-tree [data-kind][data-count]')]
                .map(e => [e.getAttribute('data-kind'), e.getAttribute('data-count')]);",
            vec![],
        )
        .await?;
    let mut out = Vec::new();
    for pair in v.as_array().into_iter().flatten() {
        let kind = pair[0].as_str().unwrap_or_default().to_string();
        let count = pair[1].as_str().unwrap_or_default();
        let n: usize = count
            .parse()
            .map_err(|_| anyhow::anyhow!("kind {kind}: data-count {count:?} is not a number"))?;
        out.push((kind, n));
    }
    Ok(out)
}

/// The frame the sprite view shows: which frame, its `src`, and the bytes of that `src` as the
/// page fetches them. Also checks the image has loaded at the sprite's size.
async fn shown_frame(c: &Client, sprite: usize) -> R<(usize, String, Vec<u8>)> {
    // the view of this sprite (not the one shown before it) with its frame loaded
    let path = format!("/api/sprites/{sprite}/frames/");
    wait_js(
        c,
        &format!("sprite {sprite}'s frame image in #view to load"),
        "const i = document.querySelector('#view img.frame[data-frame]');
         return !!i && (i.getAttribute('src') || '').includes(arguments[0])
             && i.complete && i.naturalWidth > 0;",
        vec![json!(path)],
    )
    .await?;
    // one script reads frame number and src together (an animated view changes both)
    let v = c
        .execute(
            "const i = document.querySelector('#view img.frame[data-frame]');
             return [i.getAttribute('data-frame'), i.getAttribute('src')];",
            vec![],
        )
        .await?;
    let frame: usize = v[0]
        .as_str()
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| anyhow::anyhow!("img.frame data-frame {:?}", v[0]))?;
    let src = v[1].as_str().unwrap_or_default().to_string();
    let want = format!("/api/sprites/{sprite}/frames/{frame}.png");
    anyhow::ensure!(
        src.contains(&want),
        "img.frame src {src:?} is not the frame URL {want}"
    );
    let got = page_fetch(c, &src, "GET", json!({}), None).await?;
    anyhow::ensure!(got.status == 200, "GET {src}: status {}", got.status);
    Ok((frame, src, got.body))
}

/// The PNG `gmkit export FILE DIR sprites` wrote for one frame of sprite `index` named `name`
/// (its folder is `NNNN_name` or `name`).
fn exported_frame(export: &Path, index: usize, name: &str, frame: usize) -> R<Vec<u8>> {
    let sprites = export.join("sprites");
    let candidates = [
        sprites.join(format!("{index:04}_{name}")),
        sprites.join(name),
    ];
    let dir = candidates.iter().find(|d| d.is_dir()).ok_or_else(|| {
        anyhow::anyhow!(
            "no exported folder for sprite {index} {name} under {}",
            sprites.display()
        )
    })?;
    let png = dir.join(format!("{frame}.png"));
    std::fs::read(&png).map_err(|e| anyhow::anyhow!("{}: {e}", png.display()))
}

/// Decodes both PNGs and requires the same size and the same RGBA pixels.
fn same_pixels(what: &str, shown: &[u8], exported: &[u8]) -> R {
    let a =
        gmkit_media::decode_png(shown).map_err(|e| anyhow::anyhow!("{what}: shown PNG: {e}"))?;
    let b = gmkit_media::decode_png(exported)
        .map_err(|e| anyhow::anyhow!("{what}: exported PNG: {e}"))?;
    anyhow::ensure!(
        (a.width(), a.height()) == (b.width(), b.height()),
        "{what}: shown {}×{}, exported {}×{}",
        a.width(),
        a.height(),
        b.width(),
        b.height()
    );
    if let Some(i) = a
        .pixels()
        .chunks(4)
        .zip(b.pixels().chunks(4))
        .position(|(p, q)| p != q)
    {
        let w = a.width() as usize;
        anyhow::bail!(
            "{what}: pixel ({}, {}) shown {:?}, exported {:?}",
            i % w,
            i / w,
            &a.pixels()[i * 4..i * 4 + 4],
            &b.pixels()[i * 4..i * 4 + 4]
        );
    }
    Ok(())
}

/// Opens sprite `index` in the page and compares the frame it shows with `gmkit export`'s PNG.
async fn check_sprite_frame(c: &Client, export: &Path, index: usize, name: &str) -> R {
    open_asset(c, "sprites", index, name).await?;
    let (frame, _src, shown) = shown_frame(c, index).await?;
    let exported = exported_frame(export, index, name, frame)?;
    same_pixels(
        &format!("sprite {index} {name} frame {frame}"),
        &shown,
        &exported,
    )
}

/// Bar 1: every corpus file opens; each kind's `data-count` equals `gmkit ls --json`'s rows;
/// the first and last sprite with frames show exactly the exported pixels.
async fn every_corpus_file_opens(ctx: Arc<Ctx>) -> R {
    let Some(names) = gmkit_testdata::corpus_names_all() else {
        return Ok(());
    };
    let c = &ctx.client;
    let tmp = tempfile::tempdir()?;
    let mut failures = Vec::new();
    let t0 = Instant::now();
    for name in &names {
        let path = gmkit_testdata::corpus_path(name).expect("corpus present");
        let t = Instant::now();
        let result: R<usize> = async {
            let studio = Studio::start(&ctx.gmkit, &path)?;
            studio.open(c).await?;
            let opened = t.elapsed();
            let counts = tree_counts(c).await?;
            let mut checked = 0;
            for kind in TREE_KINDS {
                let rows = ls(&ctx, &path, kind)?.len();
                match counts.iter().find(|(k, _)| k == kind) {
                    Some(&(_, n)) => anyhow::ensure!(n == rows, "{kind}: data-count {n}, gmkit ls {rows}"),
                    None => anyhow::ensure!(rows == 0, "{kind}: not in the tree, gmkit ls lists {rows}"),
                }
                checked += 1;
            }
            for (kind, n) in &counts {
                if LS_KINDS.contains(&kind.as_str()) && !TREE_KINDS.contains(&kind.as_str()) {
                    let rows = ls(&ctx, &path, kind)?.len();
                    anyhow::ensure!(*n == rows, "{kind}: data-count {n}, gmkit ls {rows}");
                    checked += 1;
                }
            }
            let sprites = ls(&ctx, &path, "sprites")?;
            let with_frames: Vec<&Value> = sprites
                .iter()
                .filter(|s| s["frames"].as_u64().unwrap_or(0) > 0)
                .collect();
            if let (Some(first), Some(last)) = (with_frames.first(), with_frames.last()) {
                let export = tmp.path().join(name);
                gmkit(&ctx, &["export".as_ref(), path.as_os_str(), export.as_os_str(), "sprites".as_ref()])?;
                for s in [first, last] {
                    let index = s["index"].as_u64().unwrap_or(0) as usize;
                    let sname = s["name"].as_str().unwrap_or_default();
                    check_sprite_frame(c, &export, index, sname).await?;
                }
                std::fs::remove_dir_all(&export)?;
            }
            eprintln!(
                "  {name}: tree in {} ms, {checked} kinds match gmkit ls, {} sprites compared, {:.1}s in all",
                opened.as_millis(),
                with_frames.len().min(2),
                t.elapsed().as_secs_f64()
            );
            Ok(checked)
        }
        .await;
        if let Err(e) = result {
            failures.push(format!("{name}: {e:#}"));
        }
    }
    eprintln!(
        "  {} corpus files opened in {:.1}s",
        names.len(),
        t0.elapsed().as_secs_f64()
    );
    anyhow::ensure!(
        failures.is_empty(),
        "{} of {} corpus files failed:\n{}",
        failures.len(),
        names.len(),
        failures.join("\n")
    );
    Ok(())
}

/// A sprite frame shown by the page equals `gmkit export`'s PNG, pixel for pixel (the sample,
/// so that a clone without the corpus checks it too).
async fn sprite_frame_equals_export(ctx: Arc<Ctx>) -> R {
    let c = &ctx.client;
    let tmp = tempfile::tempdir()?;
    let file = sample_game(tmp.path())?;
    let studio = Studio::start(&ctx.gmkit, &file)?;
    studio.open(c).await?;
    let export = tmp.path().join("export");
    gmkit(
        &ctx,
        &[
            "export".as_ref(),
            file.as_os_str(),
            export.as_os_str(),
            "sprites".as_ref(),
        ],
    )?;
    let sprites = ls(&ctx, &file, "sprites")?;
    anyhow::ensure!(!sprites.is_empty(), "the sample has a sprite");
    let name = sprites[0]["name"].as_str().unwrap_or_default().to_string();
    check_sprite_frame(c, &export, 0, &name).await
}

/// The text of `#diff-view` after asking for it (`#show-diff` or the tree's `diff` item), once it
/// contains `want`.
async fn diff_view_with(c: &Client, want: &str) -> R<String> {
    let shown = c
        .execute(
            "const b = document.querySelector('#show-diff') || document.querySelector('[data-kind=\"diff\"]');
             if (b) b.click();
             return !!b;",
            vec![],
        )
        .await?;
    anyhow::ensure!(
        shown == Value::Bool(true),
        "neither #show-diff nor [data-kind=diff] in the page"
    );
    wait_js(
        c,
        &format!("#diff-view to contain {want:?}"),
        "const d = document.querySelector('#diff-view'); return !!d && d.textContent.includes(arguments[0]);",
        vec![json!(want)],
    )
    .await?;
    Ok(c.execute(
        "return document.querySelector('#diff-view').textContent;",
        vec![],
    )
    .await?
    .as_str()
    .unwrap_or_default()
    .to_string())
}

/// Clicks `#save` and waits for the `--out` file to appear whole (its size stops changing).
async fn save(c: &Client, studio: &Studio) -> R {
    let before = std::fs::metadata(&studio.out)
        .ok()
        .and_then(|m| m.modified().ok());
    wait_css(c, "#save").await?.click().await?;
    let deadline = Instant::now() + WAIT;
    loop {
        let now = std::fs::metadata(&studio.out)
            .ok()
            .and_then(|m| m.modified().ok());
        if now.is_some() && now != before {
            // written through a temporary file then renamed: once the name exists it is whole
            return Ok(());
        }
        anyhow::ensure!(
            Instant::now() < deadline,
            "#save did not write {} (#error {:?}; server stderr: {})",
            studio.out.display(),
            page_error(c).await,
            studio.stderr()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// `gmkit diff ORIGINAL OUT` (exit status 1 says they differ, as diff(1)'s does).
fn cli_diff(ctx: &Ctx, studio: &Studio) -> R<String> {
    let out = Command::new(&ctx.gmkit)
        .arg("diff")
        .arg(&studio.file)
        .arg(&studio.out)
        .output()?;
    anyhow::ensure!(
        matches!(out.status.code(), Some(0 | 1)),
        "gmkit diff {} {}: {}\n{}",
        studio.file.display(),
        studio.out.display(),
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    Ok(String::from_utf8(out.stdout)?)
}

/// Bar 3: a string changed in the strings view and saved is in `gmkit diff original out`, the
/// diff view shows it, and the download is the saved file.
async fn string_edit_saved_shows_in_diff(ctx: Arc<Ctx>) -> R {
    let c = &ctx.client;
    let tmp = tempfile::tempdir()?;
    let file = sample_game(tmp.path())?;
    let studio = Studio::start(&ctx.gmkit, &file)?;
    studio.open(c).await?;
    wait_css(c, "#asset-tree [data-kind=\"strings\"]")
        .await?
        .click()
        .await?;
    wait_css(c, "#view #string-search").await?;
    wait_css(c, "#view input[data-string-index]").await?;
    let old = "Hello from the gmkit sample";
    let new = "Hello from a browser test";
    let index = c
        .execute(
            "const i = [...document.querySelectorAll('#view input[data-string-index]')]
                 .find(e => e.value === arguments[0]);
             return i ? i.getAttribute('data-string-index') : null;",
            vec![json!(old)],
        )
        .await?;
    let index = index
        .as_str()
        .ok_or_else(|| anyhow::anyhow!("no input[data-string-index] holds {old:?}"))?
        .to_string();
    let input = c
        .find(Locator::Css(&format!(
            "#view input[data-string-index=\"{index}\"]"
        )))
        .await?;
    input.clear().await?;
    input.send_keys(new).await?;
    wait_css(c, "#apply-string").await?.click().await?;
    let shown = diff_view_with(c, new).await?;
    save(c, &studio).await?;
    let diff = cli_diff(&ctx, &studio)?;
    anyhow::ensure!(
        diff.contains(new),
        "gmkit diff of the saved file does not show {new:?}:\n{diff}"
    );
    for line in diff.lines().filter(|l| l.contains(new)) {
        anyhow::ensure!(
            shown.contains(line.trim()),
            "#diff-view lacks gmkit diff's line {line:?}; it shows:\n{shown}"
        );
    }
    // the download after the edit is the saved file, byte for byte
    let href = download_href(c).await?;
    let got = page_fetch(c, &href, "GET", json!({}), None).await?;
    anyhow::ensure!(got.status == 200, "GET {href}: {}", got.status);
    let saved = std::fs::read(&studio.out)?;
    anyhow::ensure!(
        got.body == saved,
        "download ({} bytes) differs from the saved file ({} bytes)",
        got.body.len(),
        saved.len()
    );
    Ok(())
}

/// The `href` of `#download`, resolved against the page.
async fn download_href(c: &Client) -> R<String> {
    let v = c
        .execute(
            "const a = document.querySelector('#download'); return a ? a.href : null;",
            vec![],
        )
        .await?;
    v.as_str()
        .map(str::to_string)
        .ok_or_else(|| anyhow::anyhow!("no #download link with an href"))
}

/// Types into `#gml-editor` as a person would (clearing it first) and checks it holds the text.
async fn type_gml(c: &Client, text: &str) -> R {
    let editor = wait_css(c, "textarea#gml-editor").await?;
    editor.clear().await?;
    editor.send_keys(text).await?;
    let value = c
        .execute(
            "return document.querySelector('textarea#gml-editor').value;",
            vec![],
        )
        .await?;
    anyhow::ensure!(
        value.as_str() == Some(text),
        "#gml-editor holds {value} after typing {text:?}"
    );
    Ok(())
}

/// Bar 3: GML with a syntax error typed into an object's create event shows the error at its
/// line (the check runs as you type); fixed GML checks clean and applies, and the saved file's
/// `gmkit diff` shows the code changed. On the sample (bytecode 17) and, with the corpus, on a
/// real GameMaker 2024.8 game.
async fn gml_error_at_line_then_fix(ctx: Arc<Ctx>) -> R {
    let tmp = tempfile::tempdir()?;
    let mut games = vec![sample_game(tmp.path())?];
    if let Some(p) = gmkit_testdata::corpus_path("platformermonster.win") {
        games.push(p);
    }
    for file in games {
        gml_error_then_fix_on(&ctx, &file)
            .await
            .map_err(|e| anyhow::anyhow!("{}: {e:#}", file.display()))?;
    }
    Ok(())
}

/// [`gml_error_at_line_then_fix`] on one game: the create event of its first object.
async fn gml_error_then_fix_on(ctx: &Ctx, file: &Path) -> R {
    let c = &ctx.client;
    let studio = Studio::start(&ctx.gmkit, file)?;
    studio.open(c).await?;
    let object = ls(ctx, file, "objects")?[0]["name"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    open_asset(c, "objects", 0, &object).await?;
    wait_css(c, "#view [data-event=\"Create_0\"]")
        .await?
        .click()
        .await?;
    wait_css(c, "#gml-errors").await?;
    // the event's own GML stays below the typed lines (an entry's nested functions cannot be
    // removed yet, so replacing it whole would be refused for that reason)
    let original = c
        .execute(
            "return document.querySelector('textarea#gml-editor').value;",
            vec![],
        )
        .await?
        .as_str()
        .unwrap_or_default()
        .to_string();
    // line 3 has the error; no click on #gml-check: the debounced check must find it
    type_gml(
        c,
        &format!("var a = 1;\nvar b = 2;\nvar c = (a + ;\n{original}"),
    )
    .await?;
    let err = wait_css(c, "#gml-errors [data-error-line]").await?;
    let line = err.attr("data-error-line").await?.unwrap_or_default();
    anyhow::ensure!(
        line == "3",
        "the syntax error on line 3 is shown at line {line:?}: {:?}",
        err.text().await?
    );
    let fixed = format!("show_debug_message(\"fixed in a browser\");\n{original}");
    type_gml(c, &fixed).await?;
    wait_css(c, "#gml-check").await?.click().await?;
    wait_js(
        c,
        "#gml-errors to clear",
        "return document.querySelectorAll('#gml-errors [data-error-line]').length === 0;",
        vec![],
    )
    .await?;
    wait_css(c, "#gml-apply").await?.click().await?;
    diff_view_with(c, "Create_0").await?;
    save(c, &studio).await?;
    let diff = cli_diff(ctx, &studio)?;
    anyhow::ensure!(
        diff.contains("Create_0"),
        "gmkit diff of the saved file does not show the create event's code:\n{diff}"
    );
    let code = gmkit(ctx, &["decompile".as_ref(), studio.out.as_os_str()])?;
    anyhow::ensure!(
        code.contains("fixed in a browser"),
        "the saved file's code lacks the applied GML"
    );
    Ok(())
}

/// A 16-bit mono PCM WAV of `n` samples (a sound to drop in).
fn wav(n: u32) -> Vec<u8> {
    let data_len = n * 2;
    let mut w = Vec::new();
    w.extend_from_slice(b"RIFF");
    w.extend_from_slice(&(36 + data_len).to_le_bytes());
    w.extend_from_slice(b"WAVEfmt ");
    w.extend_from_slice(&16u32.to_le_bytes());
    w.extend_from_slice(&1u16.to_le_bytes()); // PCM
    w.extend_from_slice(&1u16.to_le_bytes()); // mono
    w.extend_from_slice(&22050u32.to_le_bytes());
    w.extend_from_slice(&44100u32.to_le_bytes());
    w.extend_from_slice(&2u16.to_le_bytes());
    w.extend_from_slice(&16u16.to_le_bytes());
    w.extend_from_slice(b"data");
    w.extend_from_slice(&data_len.to_le_bytes());
    for i in 0..n {
        let s = ((i % 50) as i16 - 25) * 1000;
        w.extend_from_slice(&s.to_le_bytes());
    }
    w
}

/// Bar 3: a sprite frame and a sound replaced by giving a file to the page's drop zones (their
/// file inputs, as WebDriver uploads a file), shown back by the page, and saved into the file
/// `gmkit diff` compares.
async fn frame_and_sound_replaced(ctx: Arc<Ctx>) -> R {
    let c = &ctx.client;
    let tmp = tempfile::tempdir()?;
    let file = sample_game(tmp.path())?;
    let studio = Studio::start(&ctx.gmkit, &file)?;
    studio.open(c).await?;
    let sprite = &ls(&ctx, &file, "sprites")?[0];
    let sprite_name = sprite["name"].as_str().unwrap_or_default();
    let (w, h) = (
        sprite["width"].as_u64().unwrap_or(0) as u32,
        sprite["height"].as_u64().unwrap_or(0) as u32,
    );
    let mut pixels = Vec::with_capacity((w * h * 4) as usize);
    for y in 0..h {
        for x in 0..w {
            let a = if (x + y) % 3 == 0 { 0 } else { 255 };
            pixels.extend_from_slice(&[(x * 8) as u8, (y * 8) as u8, 200, a]);
        }
    }
    let img = gmkit_media::Image::new(w, h, pixels).map_err(|e| anyhow::anyhow!("{e}"))?;
    let png = gmkit_media::encode_png(&img).map_err(|e| anyhow::anyhow!("{e}"))?;
    let png_path = tmp.path().join("new-frame.png");
    std::fs::write(&png_path, &png)?;
    open_asset(c, "sprites", 0, sprite_name).await?;
    // each view's drop zone by what it accepts (the view before it may still be in place)
    let drop = wait_css(c, "#view input[type=\"file\"][accept^=\"image\"]").await?;
    drop.send_keys(&png_path.to_string_lossy()).await?;
    diff_view_with(c, sprite_name).await?;
    let sound_name = ls(&ctx, &file, "sounds")?[0]["name"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let sound = wav(2205);
    let wav_path = tmp.path().join("new-sound.wav");
    std::fs::write(&wav_path, &sound)?;
    open_asset(c, "sounds", 0, &sound_name).await?;
    // the sound is playable: the page's <audio> loads it (its length known)
    wait_js(
        c,
        "the sound's <audio> to load",
        "const a = document.querySelector('#view audio');
         return !!a && a.readyState >= 1 && a.duration > 0;",
        vec![],
    )
    .await?;
    let drop = wait_css(c, "#view input[type=\"file\"][accept^=\"audio\"]").await?;
    drop.send_keys(&wav_path.to_string_lossy()).await?;
    diff_view_with(c, &sound_name).await?;
    let token = json!({"X-Gmkit-Token": studio.token});
    let back = page_fetch(c, "/api/sounds/0/audio", "GET", token, None).await?;
    anyhow::ensure!(
        back.status == 200 && back.body == sound,
        "GET the replaced sound: status {}, {} bytes (dropped {})",
        back.status,
        back.body.len(),
        sound.len()
    );
    anyhow::ensure!(
        back.content_type.starts_with("audio/"),
        "sound MIME type {:?}",
        back.content_type
    );
    // the sprite opened again (after the sound's view replaced its view) shows the new frame
    open_asset(c, "sprites", 0, sprite_name).await?;
    let (frame, _, shown) = shown_frame(c, 0).await?;
    anyhow::ensure!(frame == 0, "the one-frame sprite shows frame {frame}");
    same_pixels("replaced frame", &shown, &png)?;
    save(c, &studio).await?;
    let diff = cli_diff(&ctx, &studio)?;
    for name in [sprite_name, &sound_name] {
        anyhow::ensure!(
            diff.contains(name),
            "gmkit diff does not mention {name}:\n{diff}"
        );
    }
    Ok(())
}

/// Bar 3: `#download` hands over the rebuilt data file as an attachment; with nothing edited
/// it is the opened file byte for byte.
async fn download_is_rebuilt_file(ctx: Arc<Ctx>) -> R {
    let c = &ctx.client;
    let tmp = tempfile::tempdir()?;
    let file = match gmkit_testdata::corpus_path("platformermonster.win") {
        Some(p) => p,
        None => sample_game(tmp.path())?,
    };
    let studio = Studio::start(&ctx.gmkit, &file)?;
    studio.open(c).await?;
    let href = download_href(c).await?;
    anyhow::ensure!(href.contains("/api/download"), "#download href {href:?}");
    let got = page_fetch(c, &href, "GET", json!({}), None).await?;
    anyhow::ensure!(got.status == 200, "GET {href}: {}", got.status);
    anyhow::ensure!(
        got.disposition.starts_with("attachment"),
        "Content-Disposition {:?} is not an attachment",
        got.disposition
    );
    let original = std::fs::read(&file)?;
    anyhow::ensure!(
        got.body == original,
        "the unedited download ({} bytes) differs from the opened file ({} bytes)",
        got.body.len(),
        original.len()
    );
    Ok(())
}

/// Chromedriver's log of one type (`performance`: the DevTools events of the page).
#[derive(Debug)]
struct GetLog(&'static str);

impl WebDriverCompatibleCommand for GetLog {
    fn endpoint(
        &self,
        base: &url::Url,
        session: Option<&str>,
    ) -> Result<url::Url, url::ParseError> {
        base.join(&format!("session/{}/se/log", session.unwrap_or_default()))
    }
    fn method_and_body(&self, _: &url::Url) -> (http::Method, Option<String>) {
        (
            http::Method::POST,
            Some(json!({"type": self.0}).to_string()),
        )
    }
}

/// True for a URL the page may request: http(s) on 127.0.0.1, or one that never leaves the
/// page (`data:`, `blob:`, `about:`).
fn loopback_url(u: &str) -> bool {
    match url::Url::parse(u) {
        Ok(u) => match u.scheme() {
            "data" | "blob" | "about" => true,
            "http" | "https" | "ws" | "wss" => u.host_str() == Some("127.0.0.1"),
            _ => false,
        },
        Err(_) => false,
    }
}

/// Bar 4 and the page's weight (bar 2): after visiting every kind of view, every request the
/// page made (Chrome's performance log: all `Network.requestWillBeSent`, failed ones too; and
/// the Resource Timing entries) went to 127.0.0.1; HTML + CSS + JS weigh at most 300 KB.
async fn only_loopback_requests(ctx: Arc<Ctx>) -> R {
    let c = &ctx.client;
    let tmp = tempfile::tempdir()?;
    let file = match gmkit_testdata::corpus_path("platformermonster.win") {
        Some(p) => p,
        None => sample_game(tmp.path())?,
    };
    let studio = Studio::start(&ctx.gmkit, &file)?;
    // leave whatever page was open (at a session's start, Chromium's own new-tab page), then
    // drop what the log holds so far
    c.goto("about:blank").await?;
    let _ = c.issue_cmd(GetLog("performance")).await?;
    studio.open(c).await?;
    for kind in [
        "sprites",
        "sounds",
        "rooms",
        "objects",
        "scripts",
        "fonts",
        "backgrounds",
        "textures",
    ] {
        let rows = ls(&ctx, &file, kind)?;
        let Some(first) = rows.first() else {
            continue;
        };
        open_asset(c, kind, 0, first["name"].as_str().unwrap_or_default()).await?;
        wait_js(
            c,
            &format!("#view to show {kind} 0"),
            "const v = document.querySelector('#view'); return !!v && v.children.length > 0;",
            vec![],
        )
        .await?;
    }
    if let Ok(ev) = c.find(Locator::Css("#view [data-event]")).await {
        let _ = ev.click().await;
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    let log = c.issue_cmd(GetLog("performance")).await?;
    let mut urls = Vec::new();
    for entry in log.as_array().into_iter().flatten() {
        let Some(msg) = entry["message"].as_str() else {
            continue;
        };
        let Ok(msg) = serde_json::from_str::<Value>(msg) else {
            continue;
        };
        let method = msg["message"]["method"].as_str().unwrap_or_default();
        let params = &msg["message"]["params"];
        // requests of Chromium's own pages (chrome://new-tab-page loading lazily), not the studio's
        let document = params["documentURL"].as_str().unwrap_or_default();
        if document.starts_with("chrome://") || document.starts_with("chrome-untrusted://") {
            continue;
        }
        match method {
            "Network.requestWillBeSent" => urls.push(
                params["request"]["url"]
                    .as_str()
                    .unwrap_or_default()
                    .to_string(),
            ),
            "Network.webSocketCreated" => {
                urls.push(params["url"].as_str().unwrap_or_default().to_string())
            }
            _ => {}
        }
    }
    let resources = c
        .execute(
            "return performance.getEntriesByType('resource').map(e => [e.name, e.initiatorType, e.decodedBodySize])
                 .concat(performance.getEntriesByType('navigation').map(e => [e.name, 'navigation', e.decodedBodySize]));",
            vec![],
        )
        .await?;
    let mut weight = 0u64;
    for r in resources.as_array().into_iter().flatten() {
        urls.push(r[0].as_str().unwrap_or_default().to_string());
        let is_api = r[0].as_str().is_some_and(|u| u.contains("/api/"));
        if matches!(
            r[1].as_str(),
            Some("navigation" | "script" | "link" | "css")
        ) && !is_api
        {
            weight += r[2].as_u64().unwrap_or(0);
        }
    }
    anyhow::ensure!(
        urls.iter().any(|u| u.starts_with(&studio.origin)),
        "the logs show no request at all to the studio (the check would be empty): {urls:?}"
    );
    let outside: Vec<&String> = urls.iter().filter(|u| !loopback_url(u)).collect();
    anyhow::ensure!(
        outside.is_empty(),
        "the page requested outside 127.0.0.1: {outside:?}"
    );
    eprintln!(
        "  {} requests, all to 127.0.0.1; page weight (HTML, CSS, JS) {weight} bytes",
        urls.len()
    );
    anyhow::ensure!(
        weight > 0 && weight <= 300 * 1024,
        "page weight {weight} bytes (bar: 1..=300 KB)"
    );
    Ok(())
}

/// Bar 4 from the browser's side: from the page's own origin, a request without the token (or
/// with a wrong one) is refused with 403 and the token header is accepted; no answer carries
/// `Access-Control-Allow-Origin`, so another origin (here `localhost:PORT`) cannot read it.
async fn no_token_refused(ctx: Arc<Ctx>) -> R {
    let c = &ctx.client;
    let tmp = tempfile::tempdir()?;
    let file = sample_game(tmp.path())?;
    let studio = Studio::start(&ctx.gmkit, &file)?;
    studio.open(c).await?;
    for path in [
        "/api/info",
        "/api/tree",
        "/api/strings",
        "/api/download",
        "/",
    ] {
        let r = page_fetch(c, path, "GET", json!({}), None).await?;
        anyhow::ensure!(
            r.status == 403,
            "GET {path} without the token: status {}",
            r.status
        );
        let wrong = format!("{path}?token={}", "x".repeat(studio.token.len()));
        let r = page_fetch(c, &wrong, "GET", json!({}), None).await?;
        anyhow::ensure!(
            r.status == 403,
            "GET {path} with a wrong token: status {}",
            r.status
        );
    }
    let r = page_fetch(
        c,
        "/api/strings/0",
        "POST",
        json!({"Content-Type": "application/json"}),
        Some(br#"{"text":"x"}"#),
    )
    .await?;
    anyhow::ensure!(
        r.status == 403,
        "POST /api/strings/0 without the token: status {}",
        r.status
    );
    let r = page_fetch(
        c,
        "/api/info",
        "GET",
        json!({"X-Gmkit-Token": studio.token}),
        None,
    )
    .await?;
    anyhow::ensure!(
        r.status == 200,
        "GET /api/info with the token header: status {}",
        r.status
    );
    anyhow::ensure!(
        r.allow_origin.is_none(),
        "Access-Control-Allow-Origin: {:?}",
        r.allow_origin
    );
    let info: Value = serde_json::from_slice(&r.body)?;
    anyhow::ensure!(
        info.get("version").is_some(),
        "/api/info has no version: {info}"
    );
    // another origin (same server, other host name) cannot read an answer: no CORS
    let other = studio.api("/api/info").replace("127.0.0.1", "localhost");
    match page_fetch(c, &other, "GET", json!({}), None).await {
        Err(_) => {}
        Ok(r) => anyhow::bail!(
            "a cross-origin read of {other} succeeded: status {}",
            r.status
        ),
    }
    Ok(())
}

/// `#search` narrows the tree to the assets whose names hold the text, and emptying it brings
/// every kind back.
async fn search_filters_the_tree(ctx: Arc<Ctx>) -> R {
    let c = &ctx.client;
    let tmp = tempfile::tempdir()?;
    let file = match gmkit_testdata::corpus_path("platformermonster.win") {
        Some(p) => p,
        None => sample_game(tmp.path())?,
    };
    let studio = Studio::start(&ctx.gmkit, &file)?;
    studio.open(c).await?;
    let sprites = ls(&ctx, &file, "sprites")?;
    let name = sprites
        .last()
        .and_then(|s| s["name"].as_str())
        .ok_or_else(|| anyhow::anyhow!("no sprite"))?
        .to_string();
    let search = wait_css(c, "#search").await?;
    search.send_keys(&name).await?;
    let shown = "return [...document.querySelectorAll('#asset-tree [data-asset-kind]')]
        .filter(e => e.offsetParent !== null).map(e => e.getAttribute('title') || e.textContent);";
    wait_js(
        c,
        &format!("the tree to show only assets named like {name:?}"),
        &format!("const s = (() => {{ {shown} }})(); return s.length > 0 && s.every(t => t.toLowerCase().includes(arguments[0].toLowerCase()));"),
        vec![json!(name)],
    )
    .await?;
    search.clear().await?;
    search.send_keys(" ").await?; // an input event with no filter text
    wait_js(
        c,
        "the whole tree back",
        &format!("const s = (() => {{ {shown} }})(); return s.length > 1;"),
        vec![],
    )
    .await?;
    Ok(())
}

/// Saves a screenshot under docs/img/ when `GMKIT_WRITE_GOLDEN=1`, after checking it is a PNG
/// of the window's size, not blank, and under 300 KB.
fn golden(name: &str, png: &[u8]) -> R {
    let img = gmkit_media::decode_png(png).map_err(|e| anyhow::anyhow!("{name}: {e}"))?;
    anyhow::ensure!(
        img.width() >= 800 && img.height() >= 500,
        "{name}: {}×{}",
        img.width(),
        img.height()
    );
    let first = &img.pixels()[..4];
    anyhow::ensure!(
        img.pixels().chunks(4).any(|p| p != first),
        "{name}: a blank screenshot"
    );
    anyhow::ensure!(
        png.len() < 300 * 1024,
        "{name}: {} bytes (limit 300 KB)",
        png.len()
    );
    if std::env::var("GMKIT_WRITE_GOLDEN").is_ok_and(|v| v == "1") {
        let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("../../docs/img")
            .join(name);
        std::fs::create_dir_all(path.parent().expect("docs/img"))?;
        std::fs::write(&path, png)?;
        eprintln!("  wrote {}", path.display());
    }
    Ok(())
}

/// The README's pictures: a room drawn, and an object with its events and GML, on a small real
/// game (platformermonster); reviewed by eye, not pixel-compared.
async fn golden_screenshots(ctx: Arc<Ctx>) -> R {
    let Some(file) = gmkit_testdata::corpus_path("platformermonster.win") else {
        return Ok(());
    };
    let c = &ctx.client;
    let studio = Studio::start(&ctx.gmkit, &file)?;
    studio.open(c).await?;
    let rooms = ls(&ctx, &file, "rooms")?;
    // the room with the most instances (a level rather than a title screen)
    let room = (0..rooms.len())
        .max_by_key(|&i| (rooms[i]["instances"].as_u64().unwrap_or(0), usize::MAX - i))
        .unwrap_or(0);
    open_asset(
        c,
        "rooms",
        room,
        rooms[room]["name"].as_str().unwrap_or_default(),
    )
    .await?;
    // the room drawn, or the page's note that this build cannot draw it (then say so)
    wait_js(
        c,
        "the room's picture to load",
        "const i = document.querySelector('#view img.room');
         return !!i && ((i.complete && i.naturalWidth > 0) || i.hidden);",
        vec![],
    )
    .await?;
    let drawn = c
        .execute(
            "return !document.querySelector('#view img.room').hidden;",
            vec![],
        )
        .await?;
    if drawn == Value::Bool(true) {
        c.execute(
            "document.querySelector('#view img.room').scrollIntoView({block: 'start'});",
            vec![],
        )
        .await?;
    } else {
        eprintln!(
            "  note: the room is not drawn (GET /api/rooms/{room}.png failed: renderer not wired?)"
        );
    }
    golden("studio-room.png", &c.screenshot().await?)?;
    let objects = ls(&ctx, &file, "objects")?;
    let object = objects
        .iter()
        .position(|o| o["events"].as_u64().unwrap_or(0) >= 2 && !o["sprite"].is_null())
        .unwrap_or(0);
    open_asset(
        c,
        "objects",
        object,
        objects[object]["name"].as_str().unwrap_or_default(),
    )
    .await?;
    wait_css(c, "#view [data-event]").await?.click().await?;
    wait_css(c, "textarea#gml-editor").await?;
    tokio::time::sleep(Duration::from_millis(300)).await; // the highlighter's first paint
    golden("studio-object.png", &c.screenshot().await?)?;
    Ok(())
}
