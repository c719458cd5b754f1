//! `POST /seeds`, `GET /seeds`, `DELETE /seeds?url=` and `POST /urls`:
//! seed lines and URLs given to the running crawl, judged line by line,
//! appended to the API's seed file (`file.rs`) and read by the crawl from
//! there (into the shared frontier, in a cluster).
//!
//! A URL given to `/urls` is a seed of depth 0 (its page, no links): with
//! the config's options, or a registered seed's (`seed=`), which it takes
//! only when it is in that seed's scope (and on its site, when the seed
//! sends request settings: a header, a cookie file, credentials), at a
//! `priority` from 0 to 1 (default 1, ahead of links).

use axum::body::Bytes;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::{json, Value};
use trawl_crawl::seeds::{Registry, Seed, API_FILE};

use super::file;
use super::state::{body_text, error, one_url, says_json, unavailable, Api, Refusal};

/// A line of a request: its text, or its text and why it was refused.
type Given = Result<String, (String, String)>;

/// One line of a request, as answered.
struct Line {
    number: usize,
    /// The line to write to the seed file, when it is taken.
    write: Option<String>,
    answer: Value,
}

/// Parses `lines` (numbered from 1) as seed lines; each good one is
/// answered `added` (a new seed), `known` (its options replace the seed's)
/// or, in a cluster, `accepted`; `skip_known`: a known URL is left as it is
/// (POST /urls). A line given as `Err((text, why))` was refused before.
fn judge(api: &Api, lines: &[Given], skip_known: bool) -> Result<Vec<Line>, Refusal> {
    let max = api.config.api.max_lines as usize;
    let given = lines
        .iter()
        .filter(|l| l.as_ref().map_or(true, |l| is_seed_line(l)))
        .count();
    if given > max {
        return Err(Refusal(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("{given} lines; at most {max} a request (api.max_lines)"),
        ));
    }
    let store = api.observer.store();
    let cluster = api.cluster().is_some();
    let mut out = Vec::new();
    for (i, given) in lines.iter().enumerate() {
        let number = i + 1;
        let raw = match given {
            Ok(l) => l.trim(),
            Err((raw, why)) => {
                out.push(rejected(number, raw, why));
                continue;
            }
        };
        if !is_seed_line(raw) {
            continue;
        }
        if raw.starts_with('*') {
            let why = "`*` lines are not taken here: give the options on each line";
            out.push(rejected(number, raw, why));
            continue;
        }
        let (seeds, errors) = trawl_crawl::parse_seed_lines(&api.config, raw, "request");
        let seed = match (seeds.into_iter().next(), errors.into_iter().next()) {
            (Some(s), None) => s,
            (_, e) => {
                let why = e.map_or_else(|| "not a seed line".to_string(), |e| e.message);
                out.push(rejected(number, raw, &why));
                continue;
            }
        };
        let known = match (&store, cluster) {
            (Some(s), false) => Registry::of(s).id_of(&seed.url).ok().flatten().is_some(),
            _ => false,
        };
        let result = match (cluster, known) {
            (true, _) => "accepted",
            (false, true) => "known",
            (false, false) => "added",
        };
        let write = (!(known && skip_known)).then(|| raw.to_string());
        out.push(Line {
            number,
            write,
            answer: json!({"line": number, "url": seed.url, "result": result}),
        });
    }
    Ok(out)
}

fn is_seed_line(l: &str) -> bool {
    let l = l.trim();
    !l.is_empty() && !l.starts_with('#')
}

fn rejected(number: usize, raw: &str, why: &str) -> Line {
    let shown: String = raw.chars().take(200).collect();
    Line {
        number,
        write: None,
        answer: json!({"line": number, "text": shown, "result": "error", "error": why}),
    }
}

/// Appends the taken lines to the API's seed file and answers every line.
async fn take(api: &Api, lines: Vec<Line>) -> Response {
    let text: String = lines
        .iter()
        .filter_map(|l| l.write.as_deref())
        .map(|l| format!("{l}\n"))
        .collect();
    if let Err(r) = file::append(api, &text).await {
        return r.into_response();
    }
    let count = |r: &str| lines.iter().filter(|l| l.answer["result"] == r).count();
    let (added, known, accepted, errors) = (
        count("added"),
        count("known"),
        count("accepted"),
        count("error"),
    );
    let taken = lines.iter().filter(|l| l.write.is_some()).count();
    let status = if taken == 0 && errors > 0 {
        StatusCode::BAD_REQUEST
    } else {
        StatusCode::OK
    };
    let mut answers: Vec<(usize, Value)> =
        lines.into_iter().map(|l| (l.number, l.answer)).collect();
    answers.sort_by_key(|(n, _)| *n);
    let body = json!({
        "added": added,
        "known": known,
        "accepted": accepted,
        "errors": errors,
        "lines": answers.into_iter().map(|(_, a)| a).collect::<Vec<_>>(),
    });
    (status, Json(body)).into_response()
}

pub(super) async fn add_seeds(State(api): State<Api>, body: Bytes) -> Response {
    let text = match body_text(&body) {
        Ok(t) => t,
        Err(r) => return r.into_response(),
    };
    let lines: Vec<Given> = text.lines().map(|l| Ok(l.to_string())).collect();
    match judge(&api, &lines, false) {
        Ok(judged) => take(&api, judged).await,
        Err(r) => r.into_response(),
    }
}

#[derive(Deserialize)]
#[serde(untagged)]
enum UrlsBody {
    List(Vec<String>),
    Object {
        urls: Vec<String>,
        #[serde(default)]
        priority: Option<f32>,
        #[serde(default)]
        seed: Option<String>,
    },
}

/// `POST /urls`'s options (the query's, or the JSON object's).
#[derive(Deserialize, Default)]
pub(super) struct UrlOptions {
    /// The URLs' place in their host's queue, 0 to 1 (default 1).
    priority: Option<f32>,
    /// A seed whose options the URLs take (default: the config's).
    seed: Option<String>,
}

pub(super) async fn add_urls(
    State(api): State<Api>,
    q: Query<UrlOptions>,
    headers: HeaderMap,
    body: Bytes,
) -> Response {
    let text = match body_text(&body) {
        Ok(t) => t,
        Err(r) => return r.into_response(),
    };
    let json_body = says_json(&headers) || text.trim_start().starts_with(['[', '{']);
    let (urls, opts) = if json_body {
        match serde_json::from_str::<UrlsBody>(text) {
            Ok(UrlsBody::List(u)) => (u, q.0),
            Ok(UrlsBody::Object {
                urls,
                priority,
                seed,
            }) => (
                urls,
                UrlOptions {
                    priority: priority.or(q.0.priority),
                    seed: seed.or(q.0.seed),
                },
            ),
            Err(e) => {
                return error(
                    StatusCode::BAD_REQUEST,
                    format!(
                        "a JSON list of URLs or {{\"urls\": [...], \"priority\", \"seed\"}}: {e}"
                    ),
                )
            }
        }
    } else {
        (text.lines().map(str::to_string).collect(), q.0)
    };
    let base = match url_base(&api, &opts).await {
        Ok(b) => b,
        Err(r) => return r.into_response(),
    };
    let lines: Vec<Given> = urls.iter().map(|u| url_line(&base, u)).collect();
    match judge(&api, &lines, true) {
        Ok(judged) => take(&api, judged).await,
        Err(r) => r.into_response(),
    }
}

/// What a URL given to `/urls` is queued as: a seed of depth 0 with the
/// given seed's options (or none), at the given priority.
struct UrlBase {
    seed: Option<Seed>,
    priority: Option<f32>,
}

async fn url_base(api: &Api, opts: &UrlOptions) -> Result<UrlBase, Refusal> {
    if let Some(p) = opts.priority.filter(|p| !(0.0..=1.0).contains(p)) {
        let why = format!("priority {p} is not from 0 to 1");
        return Err(Refusal(StatusCode::BAD_REQUEST, why));
    }
    let seed = match &opts.seed {
        None => None,
        Some(url) => Some(known_seed(api, url).await?),
    };
    Ok(UrlBase {
        seed,
        priority: opts.priority,
    })
}

/// The registered seed `url` names: 404 when there is none.
pub(super) async fn known_seed(api: &Api, url: &str) -> Result<Seed, Refusal> {
    let url = one_url(url)?;
    let (parsed, _) = trawl_crawl::parse_seed_lines(&api.config, url, "seed");
    let Some(norm) = parsed.into_iter().next().map(|s| s.url) else {
        return Err(Refusal(
            StatusCode::BAD_REQUEST,
            format!("not a URL: {url}"),
        ));
    };
    let found = match api.cluster() {
        Some(_) => api.db().await?.seed(&norm).await.map_err(unavailable)?,
        None => api.observer.store().and_then(|s| {
            let registry = Registry::of(&s);
            let id = registry.id_of(&norm).ok().flatten()?;
            registry.get(id).ok().flatten()
        }),
    };
    found.ok_or_else(|| {
        Refusal(
            StatusCode::NOT_FOUND,
            format!("{norm} is not a seed of this crawl"),
        )
    })
}

/// One URL as a seed line: the base seed's options (when the URL is in
/// that seed's scope and, if it sends request settings, on its site), depth
/// 0, no sitemaps.
fn url_line(base: &UrlBase, raw: &str) -> Given {
    let Some(url) = raw
        .split_whitespace()
        .next()
        .filter(|u| !u.starts_with(['#', '*']))
    else {
        return Ok(raw.to_string());
    };
    let mut line = match &base.seed {
        None => format!("{url} depth=0 sitemaps=false scope=any"),
        Some(seed) => scoped(seed, url).map_err(|why| (raw.to_string(), why))?,
    };
    if let Some(p) = base.priority {
        line.push_str(&format!(" priority={p}"));
    }
    Ok(line)
}

/// `url` with `seed`'s options, as a line.
fn scoped(seed: &Seed, url: &str) -> Result<String, String> {
    let parsed = url::Url::parse(url).map_err(|e| format!("not a URL: {e}"))?;
    if !seed.in_scope(&parsed) {
        return Err(format!("not in the scope of seed {}", seed.url));
    }
    if !seed.request.is_empty() && !seed.same_site(&parsed) {
        return Err(format!(
            "not on the site of seed {}, whose request settings it would take",
            seed.url
        ));
    }
    let mut s = seed.clone();
    s.url = url.to_string();
    s.max_depth = 0;
    s.sitemaps = false;
    s.priority = None;
    s.to_line()
}

/// The API's seeds, as the crawl reads them (later lines for one URL win).
pub(super) async fn list_seeds(State(api): State<Api>) -> Response {
    let file = api.file.lock().await;
    let text = file::read(&file);
    drop(file);
    let (seeds, _) = trawl_crawl::parse_seed_lines(&api.config, &text, API_FILE);
    let mut latest: Vec<Seed> = Vec::new();
    for s in seeds {
        latest.retain(|x| x.url != s.url);
        latest.push(s);
    }
    Json(json!({"seeds": latest})).into_response()
}

#[derive(Deserialize)]
pub(super) struct SeedUrl {
    url: String,
}

/// No new links from one of the API's seeds: its lines are replaced by one
/// of depth 0 (its queued URLs are still fetched).
pub(super) async fn stop_seed(State(api): State<Api>, q: Query<SeedUrl>) -> Response {
    let url = match one_url(&q.url) {
        Ok(u) => u,
        Err(r) => return r.into_response(),
    };
    let (seeds, _) = trawl_crawl::parse_seed_lines(&api.config, url, "url");
    let Some(target) = seeds.into_iter().next() else {
        return error(StatusCode::BAD_REQUEST, format!("not a URL: {}", q.url));
    };
    let file = api.file.lock().await;
    let text = file::read(&file);
    let mut kept = String::new();
    let mut found = false;
    for line in text.lines() {
        let (s, _) = trawl_crawl::parse_seed_lines(&api.config, line, API_FILE);
        if s.first().is_some_and(|s| s.url == target.url) {
            found = true;
        } else {
            kept.push_str(line);
            kept.push('\n');
        }
    }
    if !found {
        return error(
            StatusCode::NOT_FOUND,
            format!("{} is not a seed added through the API", target.url),
        );
    }
    kept.push_str(&format!("{} depth=0 sitemaps=false\n", target.url));
    if let Err(r) = file::replace(&api, &file, &kept) {
        return r.into_response();
    }
    Json(json!({"url": target.url, "result": "stopped"})).into_response()
}
