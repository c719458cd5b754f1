//! `POST /extract`: a page's HTML in, its record out, with no network, on
//! the blocking pool; at most `api.max_concurrent` at once, as many again
//! waiting, 429 past that.

use std::sync::atomic::Ordering::Relaxed;

use axum::body::Bytes;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::Value;

use super::state::{busy, error, says_json, Api};

#[derive(Deserialize)]
pub(super) struct ExtractQuery {
    url: Option<String>,
}

#[derive(Deserialize)]
struct ExtractBody {
    url: Option<String>,
    html: String,
}

/// A page in, its record out: the HTML body (`?url=` helps page typing), or
/// `{"url", "html"}`. No network.
pub(super) async fn extract(
    State(api): State<Api>,
    q: Query<ExtractQuery>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let (url, html) = if says_json(&headers) {
        match serde_json::from_slice::<ExtractBody>(&body) {
            Ok(b) => (b.url, Bytes::from(b.html)),
            Err(e) => {
                return error(
                    StatusCode::BAD_REQUEST,
                    format!("{{\"url\", \"html\"}}: {e}"),
                )
            }
        }
    } else {
        (q.0.url, body)
    };
    // At most max_concurrent at once, as many again waiting.
    let permit = match api.slots.clone().try_acquire_owned() {
        Ok(p) => p,
        Err(_) => {
            if api.waiting.fetch_add(1, Relaxed) >= api.config.api.max_concurrent as usize {
                api.waiting.fetch_sub(1, Relaxed);
                return busy("extractions (api.max_concurrent)");
            }
            let p = api.slots.clone().acquire_owned().await;
            api.waiting.fetch_sub(1, Relaxed);
            match p {
                Ok(p) => p,
                Err(_) => return error(StatusCode::SERVICE_UNAVAILABLE, "stopping"),
            }
        }
    };
    let opts = api.config.extract_options().with_url_opt(url.clone());
    let done = tokio::task::spawn_blocking(move || {
        let _permit = permit;
        trawl_extract::extract(&html, &opts)
    })
    .await;
    match done {
        Ok(Ok(rec)) => {
            let mut v = serde_json::to_value(&rec).unwrap_or(Value::Null);
            if let (Some(o), Some(u)) = (v.as_object_mut(), url) {
                o.insert("url".into(), Value::String(u));
            }
            Json(v).into_response()
        }
        Ok(Err(e)) => error(StatusCode::UNPROCESSABLE_ENTITY, e.to_string()),
        Err(_) => error(StatusCode::INTERNAL_SERVER_ERROR, "the extraction failed"),
    }
}
