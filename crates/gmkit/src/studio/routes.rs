//! The routes of `gmkit studio` (see docs/studio.md): the embedded page and the JSON API, each
//! handler a call of [`Studio`] run off the async thread.

use super::security::{self, Guard};
use super::state::{Answer, Failure, Studio};
use axum::Router;
use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde_json::{Value, json};
use std::sync::{Arc, Mutex};

const INDEX_HTML: &str = include_str!("web/index.html");
const APP_JS: &str = include_str!("web/app.js");
const APP_CSS: &str = include_str!("web/app.css");

/// Largest request body (a frame PNG, a sound file).
const MAX_BODY: usize = 256 << 20;

#[derive(Clone)]
struct App {
    studio: Arc<Mutex<Studio>>,
    guard: Arc<Guard>,
    quit: Arc<tokio::sync::Notify>,
}

/// The router: every route behind [`security::check`].
pub fn router(
    studio: Arc<Mutex<Studio>>,
    guard: Arc<Guard>,
    quit: Arc<tokio::sync::Notify>,
) -> Router {
    let app = App {
        studio,
        guard: guard.clone(),
        quit,
    };
    Router::new()
        .route("/", get(index))
        .route("/app.js", get(app_js))
        .route("/app.css", get(app_css))
        .route("/api/info", get(info))
        .route("/api/tree", get(tree))
        .route("/api/sprites/{i}", get(sprite))
        .route("/api/sprites/{i}/frames/{f}", get(frame).post(set_frame))
        .route("/api/textures/{i}", get(texture))
        .route("/api/backgrounds/{i}", get(background))
        .route("/api/fonts/{i}", get(font))
        .route("/api/sounds/{i}", get(sound))
        .route("/api/sounds/{i}/audio", get(sound_audio).post(set_sound))
        .route("/api/strings", get(strings))
        .route("/api/strings/{i}", post(set_string))
        .route("/api/objects/{i}", get(object))
        .route("/api/scripts/{i}", get(script))
        .route("/api/code/{name}", get(code).post(set_code))
        .route("/api/code/{name}/check", post(check_code))
        .route("/api/rooms/{i}", get(room))
        .route("/api/diff", get(diff))
        .route("/api/save", post(save))
        .route("/api/download", get(download))
        .route("/api/quit", post(quit_server))
        .fallback(not_found)
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .layer(axum::middleware::from_fn_with_state(guard, security::check))
        .with_state(app)
}

/// Runs `f` on the studio on a blocking thread (decoding and compiling must not stall the
/// server's one async thread).
async fn with<T: Send + 'static>(
    app: &App,
    f: impl FnOnce(&mut Studio) -> Answer<T> + Send + 'static,
) -> Answer<T> {
    let studio = app.studio.clone();
    tokio::task::spawn_blocking(move || {
        let mut s = studio.lock().unwrap_or_else(|p| p.into_inner());
        f(&mut s)
    })
    .await
    .unwrap_or_else(|e| Err(Failure::new(500, format!("the request failed: {e}"))))
}

impl IntoResponse for Failure {
    fn into_response(self) -> Response {
        let status = StatusCode::from_u16(self.status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        let body = if self.errors.is_empty() {
            json!({"error": self.message})
        } else {
            json!({"ok": false, "error": self.message, "errors": self.errors})
        };
        (status, axum::Json(body)).into_response()
    }
}

fn typed(mime: &'static str, body: impl IntoResponse) -> Response {
    let mut r = body.into_response();
    r.headers_mut()
        .insert(header::CONTENT_TYPE, HeaderValue::from_static(mime));
    r
}

fn json_of(v: Answer<impl serde::Serialize>) -> Response {
    match v {
        Ok(v) => axum::Json(v).into_response(),
        Err(f) => f.into_response(),
    }
}

fn png_of(v: Answer<Arc<Vec<u8>>>) -> Response {
    match v {
        Ok(v) => typed("image/png", (*v).clone()),
        Err(f) => f.into_response(),
    }
}

/// An index from the path (`3`, or `3.png` for an image route).
fn index_of(s: &str, suffix: &str) -> Answer<usize> {
    s.strip_suffix(suffix)
        .unwrap_or(s)
        .parse::<usize>()
        .map_err(|_| Failure::new(404, format!("expected an index, found {s:?}")))
}

fn png_index(s: &str) -> Answer<usize> {
    if !s.ends_with(".png") {
        return Err(Failure::new(404, format!("expected N.png, found {s:?}")));
    }
    index_of(s, ".png")
}

fn text_field(body: &[u8], key: &str) -> Answer<String> {
    let v: Value = serde_json::from_slice(body)
        .map_err(|e| Failure::new(400, format!("expected a JSON body: {e}")))?;
    v.get(key)
        .and_then(Value::as_str)
        .map(str::to_owned)
        .ok_or_else(|| Failure::new(400, format!("expected {{\"{key}\": \"...\"}}")))
}

async fn index(State(app): State<App>) -> Response {
    typed(
        "text/html; charset=utf-8",
        INDEX_HTML.replace("__TOKEN__", &app.guard.token),
    )
}

async fn app_js() -> Response {
    typed("text/javascript; charset=utf-8", APP_JS)
}

async fn app_css() -> Response {
    typed("text/css; charset=utf-8", APP_CSS)
}

async fn not_found() -> Response {
    Failure::new(404, "no such page").into_response()
}

async fn info(State(app): State<App>) -> Response {
    json_of(with(&app, |s| s.info()).await)
}

async fn tree(State(app): State<App>) -> Response {
    match with(&app, |s| s.tree()).await {
        Ok(v) => typed("application/json", (*v).clone()),
        Err(f) => f.into_response(),
    }
}

async fn sprite(State(app): State<App>, Path(i): Path<String>) -> Response {
    json_of(
        async {
            let i = index_of(&i, "")?;
            with(&app, move |s| s.sprite_json(i)).await
        }
        .await,
    )
}

async fn frame(State(app): State<App>, Path((i, f)): Path<(String, String)>) -> Response {
    png_of(
        async {
            let (i, f) = (index_of(&i, "")?, png_index(&f)?);
            with(&app, move |s| s.frame_png(i, f)).await
        }
        .await,
    )
}

async fn set_frame(
    State(app): State<App>,
    Path((i, f)): Path<(String, String)>,
    body: Bytes,
) -> Response {
    json_of(
        async {
            let (i, f) = (index_of(&i, "")?, index_of(&f, ".png")?);
            with(&app, move |s| s.set_frame(i, f, &body)).await?;
            Ok(json!({"ok": true}))
        }
        .await,
    )
}

async fn texture(State(app): State<App>, Path(i): Path<String>) -> Response {
    png_of(
        async {
            let i = png_index(&i)?;
            with(&app, move |s| s.texture_png(i)).await
        }
        .await,
    )
}

async fn background(State(app): State<App>, Path(i): Path<String>) -> Response {
    png_of(
        async {
            let i = png_index(&i)?;
            with(&app, move |s| s.background_png(i)).await
        }
        .await,
    )
}

async fn font(State(app): State<App>, Path(i): Path<String>) -> Response {
    png_of(
        async {
            let i = png_index(&i)?;
            with(&app, move |s| s.font_png(i)).await
        }
        .await,
    )
}

async fn sound(State(app): State<App>, Path(i): Path<String>) -> Response {
    json_of(
        async {
            let i = index_of(&i, "")?;
            with(&app, move |s| s.sound_json(i)).await
        }
        .await,
    )
}

async fn sound_audio(State(app): State<App>, Path(i): Path<String>) -> Response {
    let r = async {
        let i = index_of(&i, "")?;
        with(&app, move |s| s.sound_audio(i)).await
    }
    .await;
    match r {
        Ok((b, mime)) => typed(mime, b),
        Err(f) => f.into_response(),
    }
}

async fn set_sound(State(app): State<App>, Path(i): Path<String>, body: Bytes) -> Response {
    json_of(
        async {
            let i = index_of(&i, "")?;
            with(&app, move |s| s.set_sound(i, body.to_vec())).await?;
            Ok(json!({"ok": true}))
        }
        .await,
    )
}

async fn strings(State(app): State<App>) -> Response {
    json_of(with(&app, |s| Ok(s.strings())).await)
}

async fn set_string(State(app): State<App>, Path(i): Path<String>, body: Bytes) -> Response {
    json_of(
        async {
            let i = index_of(&i, "")?;
            let text = text_field(&body, "text")?;
            let n = with(&app, move |s| s.set_string(i, &text)).await?;
            Ok(json!({"ok": true, "changed": n}))
        }
        .await,
    )
}

async fn object(State(app): State<App>, Path(i): Path<String>) -> Response {
    json_of(
        async {
            let i = index_of(&i, "")?;
            with(&app, move |s| s.object_json(i)).await
        }
        .await,
    )
}

async fn script(State(app): State<App>, Path(i): Path<String>) -> Response {
    json_of(
        async {
            let i = index_of(&i, "")?;
            with(&app, move |s| s.script_json(i)).await
        }
        .await,
    )
}

async fn code(State(app): State<App>, Path(name): Path<String>) -> Response {
    json_of(with(&app, move |s| s.code_json(&name)).await)
}

async fn check_code(State(app): State<App>, Path(name): Path<String>, body: Bytes) -> Response {
    json_of(
        async {
            let gml = text_field(&body, "gml")?;
            let errors = with(&app, move |s| s.check_code(&name, &gml)).await?;
            Ok(json!({"ok": errors.is_empty(), "errors": errors}))
        }
        .await,
    )
}

async fn set_code(State(app): State<App>, Path(name): Path<String>, body: Bytes) -> Response {
    json_of(
        async {
            let gml = text_field(&body, "gml")?;
            with(&app, move |s| s.set_code(&name, &gml)).await?;
            Ok(json!({"ok": true, "errors": []}))
        }
        .await,
    )
}

async fn room(State(app): State<App>, Path(i): Path<String>) -> Response {
    if i.ends_with(".png") {
        return png_of(
            async {
                let i = png_index(&i)?;
                with(&app, move |s| s.room_png(i)).await
            }
            .await,
        );
    }
    json_of(
        async {
            let i = index_of(&i, "")?;
            with(&app, move |s| s.room_json(i)).await
        }
        .await,
    )
}

async fn diff(State(app): State<App>) -> Response {
    json_of(with(&app, |s| s.diff()).await)
}

async fn save(State(app): State<App>) -> Response {
    json_of(with(&app, |s| s.save()).await)
}

async fn download(State(app): State<App>) -> Response {
    match with(&app, |s| Ok((s.build()?, s.download_name()))).await {
        Ok((bytes, name)) => {
            let mut r = typed("application/octet-stream", bytes);
            if let Ok(v) = HeaderValue::from_str(&format!("attachment; filename=\"{name}\"")) {
                r.headers_mut().insert(header::CONTENT_DISPOSITION, v);
            }
            r
        }
        Err(f) => f.into_response(),
    }
}

async fn quit_server(State(app): State<App>) -> Response {
    app.quit.notify_one();
    axum::Json(json!({"ok": true})).into_response()
}
