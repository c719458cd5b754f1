//! A loopback news site simulator for freshness tests: a front page, two
//! section pages, an RSS feed and a sitemap, where a new article appears
//! every `every` and an older article is edited every `edit_every`. Pages
//! carry an `ETag` (the sitemap a `Last-Modified` too) and answer a
//! matching `If-None-Match` / `If-Modified-Since` with 304. Every request
//! is logged with its arrival time, its status and whether it was
//! conditional.
#![allow(dead_code)]

use std::io::{BufReader, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// One article of the site.
#[derive(Clone, Debug)]
pub struct Article {
    pub id: usize,
    /// When it appeared (the simulator's clock).
    pub published: Instant,
    /// Edits so far, and when the last one was made.
    pub edits: u32,
    pub edited: Option<Instant>,
    /// Wall-clock seconds of its last change (for dates in the feed and sitemap).
    pub changed_secs: u64,
    /// Wall-clock seconds of its publication.
    pub published_secs: u64,
}

/// Where the site announces an edit (issue 53, item 5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Announce {
    /// The feed lists the newest articles dated by their last change; no
    /// sitemap `<lastmod>` (the first freshness tests' site).
    FeedDates,
    /// Only the sitemap: each `<url>` has the `<lastmod>` of its last
    /// change; the feed dates entries by publication, the front page lists
    /// the newest.
    Sitemap,
    /// Only the feed: it lists the ten most recently changed articles,
    /// dated by their change.
    Feed,
    /// Only the front page: it lists the ten most recently changed
    /// articles, the last changed first.
    Front,
}

/// A request the site answered.
#[derive(Clone, Debug)]
pub struct Hit {
    pub path: String,
    pub at: Instant,
    pub status: u16,
    pub conditional: bool,
    /// Bytes sent: the head and the body.
    pub bytes: usize,
}

struct State {
    announce: Announce,
    articles: Vec<Article>,
    log: Vec<Hit>,
}

/// The running site.
pub struct NewsSite {
    pub addr: SocketAddr,
    state: Arc<Mutex<State>>,
    stop: Arc<std::sync::atomic::AtomicBool>,
}

fn now_secs() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// An HTTP date (RFC 9110 IMF-fixdate), from trawl's ISO 8601 clock.
fn http_date(secs: u64) -> String {
    const DAYS: [&str; 7] = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"];
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    // 2026-11-25T01:48:04Z
    let iso = trawl_crawl::iso_time(secs);
    let month: usize = iso[5..7].parse().unwrap_or(1);
    format!(
        "{}, {} {} {} {} GMT",
        DAYS[(secs / 86_400 % 7) as usize],
        &iso[8..10],
        MONTHS[month.clamp(1, 12) - 1],
        &iso[..4],
        &iso[11..19]
    )
}

fn words(id: usize, edits: u32) -> String {
    let base = [
        "council", "harbour", "budget", "rainfall", "library", "railway", "school", "market",
        "bridge", "festival", "museum", "clinic",
    ];
    let mut s = String::new();
    for k in 0..60 {
        s.push_str(base[(id * 7 + k * 3) % base.len()]);
        s.push(' ');
    }
    format!(
        "Story {id} reports that the {} {} reopened after a long review. {s} \
         Revision {edits} of this report.",
        base[id % base.len()],
        base[(id + 5) % base.len()]
    )
}

impl NewsSite {
    /// Starts the site on `ip` with `initial` articles, a new one every
    /// `every`, and an edit of an older one every `edit_every`.
    pub fn start(ip: &str, initial: usize, every: Duration, edit_every: Duration) -> NewsSite {
        Self::announcing(ip, initial, every, edit_every, Announce::FeedDates)
    }

    /// [`NewsSite::start`], announcing edits where `announce` says.
    pub fn announcing(
        ip: &str,
        initial: usize,
        every: Duration,
        edit_every: Duration,
        announce: Announce,
    ) -> NewsSite {
        let listener =
            TcpListener::bind(format!("{ip}:0")).unwrap_or_else(|e| panic!("bind {ip}: {e}"));
        let addr = listener.local_addr().unwrap_or_else(|e| panic!("{e}"));
        let t0 = Instant::now();
        let state = Arc::new(Mutex::new(State {
            announce,
            // The initial articles appeared an hour apart, the last one now.
            articles: (0..initial)
                .map(|id| Article {
                    id,
                    published: t0,
                    edits: 0,
                    edited: None,
                    changed_secs: now_secs().saturating_sub((initial - 1 - id) as u64 * 3600),
                    published_secs: now_secs().saturating_sub((initial - 1 - id) as u64 * 3600),
                })
                .collect(),
            log: Vec::new(),
        }));
        let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let (st, halt) = (state.clone(), stop.clone());
        std::thread::spawn(move || {
            let (mut next_new, mut next_edit) = (t0 + every, t0 + edit_every);
            let mut edit_turn = 0usize;
            while !halt.load(std::sync::atomic::Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(20));
                let now = Instant::now();
                let mut s = st.lock().unwrap_or_else(|e| e.into_inner());
                if now >= next_new {
                    let id = s.articles.len();
                    s.articles.push(Article {
                        id,
                        published: now,
                        edits: 0,
                        edited: None,
                        changed_secs: now_secs(),
                        published_secs: now_secs(),
                    });
                    next_new += every;
                }
                if now >= next_edit {
                    // The older half of the site, in turn.
                    let n = (s.articles.len() / 2).max(1);
                    let a = &mut s.articles[edit_turn % n];
                    a.edits += 1;
                    a.edited = Some(now);
                    a.changed_secs = now_secs();
                    edit_turn += 1;
                    next_edit += edit_every;
                }
            }
        });
        let st = state.clone();
        std::thread::spawn(move || {
            for conn in listener.incoming() {
                let Ok(conn) = conn else { continue };
                let st = st.clone();
                std::thread::spawn(move || serve(conn, &st));
            }
        });
        NewsSite { addr, state, stop }
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// Stops making news (the server keeps answering).
    pub fn freeze(&self) {
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
    }

    pub fn articles(&self) -> Vec<Article> {
        self.state
            .lock()
            .map(|s| s.articles.clone())
            .unwrap_or_default()
    }

    pub fn hits(&self) -> Vec<Hit> {
        self.state.lock().map(|s| s.log.clone()).unwrap_or_default()
    }
}

/// The page at `path` now: (content type, body, etag, last-modified), or None.
fn render(s: &State, path: &str) -> Option<(&'static str, String, String, Option<String>)> {
    let newest: Vec<&Article> = s.articles.iter().rev().take(10).collect();
    let mut by_change: Vec<&Article> = s.articles.iter().collect();
    by_change.sort_by_key(|a| std::cmp::Reverse((a.changed_secs, a.edited, a.id)));
    by_change.truncate(10);
    let edits: u32 = s.articles.iter().map(|a| a.edits).sum();
    let latest = s.articles.len();
    let list = |arts: &[&Article]| -> String {
        arts.iter()
            .map(|a| format!("<li><a href=\"/article/{}\">Story {}</a></li>", a.id, a.id))
            .collect()
    };
    let html = |title: &str, body: String| {
        format!(
            "<!doctype html><html><head><title>{title}</title>\
             <link rel=\"alternate\" type=\"application/rss+xml\" href=\"/feed.xml\"></head>\
             <body><nav><a href=\"/\">Home</a> <a href=\"/section/0\">Town</a> \
             <a href=\"/section/1\">County</a></nav><h1>{title}</h1>{body}</body></html>"
        )
    };
    match path {
        "/" if s.announce == Announce::Front => Some((
            "text/html; charset=utf-8",
            html("Front page", format!("<ul>{}</ul>", list(&by_change))),
            format!("\"front-{latest}-{edits}\""),
            None,
        )),
        "/" => Some((
            "text/html; charset=utf-8",
            html("Front page", format!("<ul>{}</ul>", list(&newest))),
            format!("\"front-{latest}\""),
            None,
        )),
        "/section/0" | "/section/1" => {
            let k = usize::from(path.ends_with('1'));
            let arts: Vec<&Article> = s
                .articles
                .iter()
                .rev()
                .filter(|a| a.id % 2 == k)
                .take(10)
                .collect();
            let newest_id = arts.first().map_or(0, |a| a.id);
            Some((
                "text/html; charset=utf-8",
                html(&format!("Section {k}"), format!("<ul>{}</ul>", list(&arts))),
                format!("\"section-{k}-{newest_id}\""),
                None,
            ))
        }
        "/feed.xml" => {
            let (listed, dated_by_change) = match s.announce {
                Announce::FeedDates => (&newest, true),
                Announce::Feed => (&by_change, true),
                Announce::Sitemap | Announce::Front => (&newest, false),
            };
            // Oldest first: a reader must not rely on the feed's order.
            let items: String = listed
                .iter()
                .rev()
                .map(|a| {
                    format!(
                        "<item><title>Story {id}</title><link>/article/{id}</link>\
                         <pubDate>{date}</pubDate></item>",
                        id = a.id,
                        date = http_date(if dated_by_change {
                            a.changed_secs
                        } else {
                            a.published_secs
                        })
                    )
                })
                .collect();
            Some((
                "application/rss+xml",
                format!(
                    "<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><title>News</title>\
                     <link>/</link><description>d</description>{items}</channel></rss>"
                ),
                format!(
                    "\"feed-{latest}-{}\"",
                    s.articles.iter().map(|a| a.edits).sum::<u32>()
                ),
                None,
            ))
        }
        "/sitemap.xml" => {
            let urls: String = s
                .articles
                .iter()
                .map(|a| match s.announce {
                    Announce::Sitemap => format!(
                        "<url><loc>/article/{}</loc><lastmod>{}</lastmod></url>",
                        a.id,
                        trawl_crawl::iso_time(a.changed_secs)
                    ),
                    _ => format!("<url><loc>/article/{}</loc></url>", a.id),
                })
                .collect();
            let changed = s.articles.iter().map(|a| a.changed_secs).max().unwrap_or(0);
            let edits: u32 = s.articles.iter().map(|a| a.edits).sum();
            Some((
                "application/xml",
                format!(
                    "<?xml version=\"1.0\"?><urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">{urls}</urlset>"
                ),
                format!("\"sitemap-{latest}-{edits}\""),
                Some(http_date(changed)),
            ))
        }
        p => {
            let id: usize = p.strip_prefix("/article/")?.parse().ok()?;
            let a = s.articles.get(id)?;
            Some((
                "text/html; charset=utf-8",
                format!(
                    "<!doctype html><html><head><title>Story {id}</title></head><body>\
                     <nav><a href=\"/\">Home</a></nav><article><h1>Story {id}</h1>\
                     <p>{}</p></article></body></html>",
                    words(id, a.edits)
                ),
                format!("\"a{id}-v{}\"", a.edits),
                None,
            ))
        }
    }
}

fn serve(conn: TcpStream, state: &Mutex<State>) {
    let _ = conn.set_nodelay(true);
    let mut reader = BufReader::new(match conn.try_clone() {
        Ok(c) => c,
        Err(_) => return,
    });
    loop {
        let Some((path, fields)) = super::read_request(&mut reader) else {
            return;
        };
        let field = |name: &str| {
            fields
                .iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.clone())
        };
        let (inm, ims) = (field("if-none-match"), field("if-modified-since"));
        let mut s = state.lock().unwrap_or_else(|e| e.into_inner());
        let (status, head, body) = match render(&s, &path) {
            None => (404, String::new(), b"not found".to_vec()),
            Some((ct, body, etag, lm)) => {
                let fresh = match (&inm, &ims) {
                    (Some(i), _) => *i == etag,
                    (None, Some(m)) => lm.as_ref() == Some(m),
                    _ => false,
                };
                let mut head = format!("ETag: {etag}\r\n");
                if let Some(lm) = &lm {
                    head.push_str(&format!("Last-Modified: {lm}\r\n"));
                }
                if fresh {
                    (304, head, Vec::new())
                } else {
                    head.push_str(&format!("Content-Type: {ct}\r\n"));
                    (200, head, body.into_bytes())
                }
            }
        };
        let msg = format!(
            "HTTP/1.1 {status} X\r\nContent-Length: {}\r\n{head}\r\n",
            body.len()
        );
        s.log.push(Hit {
            path: path.clone(),
            at: Instant::now(),
            status,
            conditional: inm.is_some() || ims.is_some(),
            bytes: msg.len() + body.len(),
        });
        drop(s);
        let mut w = &conn;
        if w.write_all(msg.as_bytes()).is_err() || w.write_all(&body).is_err() {
            return;
        }
    }
}
