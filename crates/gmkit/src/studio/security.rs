//! What every request must show: the session's token (`?token=` or `X-Gmkit-Token`) and a
//! `Host` of this server (`127.0.0.1:PORT` or `localhost:PORT`, against DNS rebinding).
//! Answers never carry `Access-Control-Allow-Origin`; they forbid framing, sniffing, referrers
//! (the token is in the URL) and any load from outside this server.

use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::sync::Arc;

/// Characters of a session token.
pub const TOKEN_LEN: usize = 40;

/// A random token of [`TOKEN_LEN`] characters of `[A-Za-z0-9]` from the system's generator.
pub fn new_token() -> Result<String, String> {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    let mut out = String::with_capacity(TOKEN_LEN);
    while out.len() < TOKEN_LEN {
        let mut buf = [0u8; 64];
        getrandom::fill(&mut buf).map_err(|e| format!("no random numbers: {e}"))?;
        // 248 = 4 × 62: bytes at or over it are dropped so each character is equally likely.
        out.extend(
            buf.iter()
                .filter(|&&b| b < 248)
                .map(|&b| ALPHABET[(b % 62) as usize] as char)
                .take(TOKEN_LEN - out.len()),
        );
    }
    Ok(out)
}

/// What a request is checked against.
pub struct Guard {
    /// The session token.
    pub token: String,
    /// The port the server listens on.
    pub port: u16,
}

/// Compares without stopping at the first difference.
fn same(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

impl Guard {
    /// Whether `host` names this server.
    pub fn host_ok(&self, host: Option<&HeaderValue>) -> bool {
        let Some(h) = host.and_then(|h| h.to_str().ok()) else {
            return false;
        };
        h == format!("127.0.0.1:{}", self.port) || h == format!("localhost:{}", self.port)
    }

    /// Whether the request carries the token (query parameter or header).
    pub fn token_ok(&self, query: Option<&str>, headers: &HeaderMap) -> bool {
        let want = self.token.as_bytes();
        if let Some(t) = headers.get("x-gmkit-token")
            && same(t.as_bytes(), want)
        {
            return true;
        }
        query.is_some_and(|q| {
            q.split('&')
                .filter_map(|kv| kv.strip_prefix("token="))
                .any(|t| same(t.as_bytes(), want))
        })
    }
}

fn refuse(why: &'static str) -> Response {
    let mut r = (StatusCode::FORBIDDEN, why).into_response();
    harden(r.headers_mut());
    r
}

/// Headers every answer carries.
pub fn harden(h: &mut HeaderMap) {
    h.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' blob:; media-src 'self' blob:; connect-src 'self'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'",
        ),
    );
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    h.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    h.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    h.remove(header::ACCESS_CONTROL_ALLOW_ORIGIN);
}

/// The middleware: Host first, then the token; 403 with one line otherwise.
pub async fn check(State(guard): State<Arc<Guard>>, req: Request, next: Next) -> Response {
    if !guard.host_ok(req.headers().get(header::HOST)) {
        return refuse("forbidden: the Host header must be 127.0.0.1:PORT or localhost:PORT\n");
    }
    if !guard.token_ok(req.uri().query(), req.headers()) {
        return refuse("forbidden: this request needs the session's token\n");
    }
    let mut r = next.run(req).await;
    harden(r.headers_mut());
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_are_long_random_alphanumerics() {
        let a = new_token().unwrap();
        let b = new_token().unwrap();
        assert_eq!(a.len(), TOKEN_LEN);
        assert!(a.bytes().all(|c| c.is_ascii_alphanumeric()));
        assert_ne!(a, b);
    }

    #[test]
    fn host_and_token_checks() {
        let g = Guard {
            token: "abc123".into(),
            port: 8080,
        };
        assert!(g.host_ok(Some(&HeaderValue::from_static("127.0.0.1:8080"))));
        assert!(g.host_ok(Some(&HeaderValue::from_static("localhost:8080"))));
        assert!(!g.host_ok(Some(&HeaderValue::from_static("evil.example:8080"))));
        assert!(!g.host_ok(Some(&HeaderValue::from_static("127.0.0.1:8081"))));
        assert!(!g.host_ok(None));
        let none = HeaderMap::new();
        assert!(g.token_ok(Some("a=1&token=abc123"), &none));
        assert!(!g.token_ok(Some("token=abc12"), &none));
        assert!(!g.token_ok(Some("token=abc1234"), &none));
        assert!(!g.token_ok(None, &none));
        let mut h = HeaderMap::new();
        h.insert("x-gmkit-token", HeaderValue::from_static("abc123"));
        assert!(g.token_ok(None, &h));
    }
}
