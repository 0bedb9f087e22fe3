//! `gmkit studio FILE`: the game in a browser. A local web server (bound to 127.0.0.1 only)
//! serving one embedded page and a JSON API over the opened game; every answer is produced on
//! request through the libraries ([`state`]) and every request is checked ([`security`]).
//! The API and the page's DOM are described in docs/studio.md.

mod routes;
pub mod security;
pub mod state;

use std::io::Write;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use crate::exit;

/// Arguments of `gmkit studio`.
#[derive(clap::Args)]
#[command(
    after_help = "Examples:\n  gmkit studio data.win\n  gmkit studio data.win --out modded.win\n  gmkit studio data.win --in-place --port 8080 --no-open\n\nServes the game on 127.0.0.1 only; the first line printed is the page's URL with the session's\nrandom token (every request needs it). Save writes --out, or FILE with --in-place (the first\nsave keeps FILE.bak, never overwriting a backup); without either, use the page's download.\nRuns until interrupted (Ctrl-C) or the page's quit."
)]
pub struct Args {
    /// The data file (data.win, game.unx, ...)
    pub file: PathBuf,
    /// The port (default: a free one)
    #[arg(long, default_value_t = 0)]
    pub port: u16,
    /// Do not open a browser
    #[arg(long)]
    pub no_open: bool,
    /// Where save writes the edited game
    #[arg(long, value_name = "PATH", conflicts_with = "in_place")]
    pub out: Option<PathBuf>,
    /// Save replaces FILE (a backup is kept)
    #[arg(long)]
    pub in_place: bool,
}

/// The most pixels of a room picture the page gets (4096 × 4096): a larger room is drawn
/// scaled down to this, which a screen shows whole anyway and which keeps a drawing fast.
const ROOM_PICTURE_PIXELS: u64 = 4096 * 4096;

/// Draws room `index` as a PNG with the room renderer (crate gmkit-render), as `gmkit render
/// room` does. Pages are decoded into `pages`, which the state keeps between pictures (the
/// state also caches the PNG it returns).
pub fn render_room(
    game: &gmkit_folder::Game,
    index: usize,
    pages: &mut gmkit_render::PageCache,
) -> state::Answer<Vec<u8>> {
    let mut options = gmkit_render::RenderOptions {
        max_pixels: ROOM_PICTURE_PIXELS,
        ..Default::default()
    };
    let drawn = match gmkit_render::render_room(&game.data, index, pages, &options) {
        // A room over the picture limit is drawn smaller, to fit it.
        Err(gmkit_render::RenderError::TooLarge {
            width,
            height,
            max_pixels,
            max_side,
            ..
        }) => {
            let (w, h) = (f64::from(width.max(1)), f64::from(height.max(1)));
            let side = f64::from(max_side) / w.max(h);
            let area = (max_pixels as f64 / (w * h)).sqrt();
            options.scale = side.min(area) * 0.99;
            gmkit_render::render_room(&game.data, index, pages, &options)
        }
        other => other,
    }
    .map_err(|e| state::Failure::new(422, e.to_string()))?;
    gmkit_render::encode_png(&drawn.image).map_err(|e| state::Failure::new(500, e.to_string()))
}

/// Opens the system's browser on `url` (errors ignored: the URL is printed anyway).
fn open_browser(url: &str) {
    let cmd = if cfg!(target_os = "macos") {
        vec!["open", url]
    } else if cfg!(windows) {
        vec!["cmd", "/C", "start", "", url]
    } else {
        vec!["xdg-open", url]
    };
    let _ = std::process::Command::new(cmd[0])
        .args(&cmd[1..])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
}

/// `gmkit studio`.
pub fn run(a: Args) -> u8 {
    let target = match (&a.out, a.in_place) {
        (Some(o), _) => state::Target::Out(o.clone()),
        (None, true) => state::Target::InPlace,
        (None, false) => state::Target::None,
    };
    let studio = match state::Studio::open(a.file.clone(), target) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("gmkit studio: {e}");
            return exit::FAILED;
        }
    };
    let token = match security::new_token() {
        Ok(t) => t,
        Err(e) => {
            eprintln!("gmkit studio: {e}");
            return exit::FAILED;
        }
    };
    let rt = match tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .max_blocking_threads(4)
        .build()
    {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("gmkit studio: cannot start the server: {e}");
            return exit::FAILED;
        }
    };
    rt.block_on(async move {
        let listener = match tokio::net::TcpListener::bind(("127.0.0.1", a.port)).await {
            Ok(l) => l,
            Err(e) => {
                eprintln!("gmkit studio: cannot listen on 127.0.0.1:{}: {e}", a.port);
                return exit::IO;
            }
        };
        let port = match listener.local_addr() {
            Ok(addr) => addr.port(),
            Err(e) => {
                eprintln!("gmkit studio: {e}");
                return exit::IO;
            }
        };
        let url = format!("http://127.0.0.1:{port}/?token={token}");
        {
            let mut out = std::io::stdout().lock();
            let _ = writeln!(out, "gmkit studio: {url}");
            let _ = out.flush();
        }
        eprintln!(
            "gmkit studio: serving {} (Ctrl-C to stop)",
            a.file.display()
        );
        if !a.no_open {
            open_browser(&url);
        }
        let quit = Arc::new(tokio::sync::Notify::new());
        let app = routes::router(
            Arc::new(Mutex::new(studio)),
            Arc::new(security::Guard { token, port }),
            quit.clone(),
        );
        let stop = async move {
            tokio::select! {
                _ = quit.notified() => {},
                _ = tokio::signal::ctrl_c() => {},
            }
        };
        match axum::serve(listener, app)
            .with_graceful_shutdown(stop)
            .await
        {
            Ok(()) => exit::OK,
            Err(e) => {
                eprintln!("gmkit studio: {e}");
                exit::IO
            }
        }
    })
}
