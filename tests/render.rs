//! Pages that need JavaScript, rendered in Debian's headless chromium
//! (`render`): a loopback site whose article text and product price come
//! from a JSON endpoint after load, an infinite-scroll listing, a page that
//! needs no rendering, a page whose script never finishes and one whose
//! script asks for a path robots.txt disallows. Under `render.mode =
//! "auto"` the first three are rendered and extracted right, the never-ending
//! one ends in an outcome, the disallowed request is never made, and the
//! plain page is not rendered. Needs chromium (`.ci/run` installs it); fails
//! under `TRAWL_REQUIRE_ALL=1` without it.

mod support;

use support::{config, crawl_once, export_lines, outcomes, scratch, Host, Reply};

fn js(body: &str) -> Reply {
    Reply::Status(
        200,
        vec![("Content-Type".into(), "application/javascript".into())],
        body.as_bytes().to_vec(),
    )
}

fn json(body: String) -> Reply {
    Reply::Status(
        200,
        vec![("Content-Type".into(), "application/json".into())],
        body.into_bytes(),
    )
}

const PROSE: &str = "The ferry across the sound was replaced in the spring by a wider boat with room for forty cars, and the timetable moved to every half hour so that commuters no longer wait on the quay.";

fn shell(title: &str, script: &str, extra: &str) -> String {
    format!(
        "<!doctype html><html><head><title>{title}</title><script src=\"{script}\" defer></script></head>\
         <body><div id=\"root\"></div>{extra}<noscript>You need to enable JavaScript to run this app.</noscript></body></html>"
    )
}

/// The site: `/` links to every page.
fn site(ip: &str) -> Host {
    Host::start(ip, |path, _| {
        match path {
        "/robots.txt" => Reply::Status(
            200,
            vec![("Content-Type".into(), "text/plain".into())],
            b"User-agent: *\nDisallow: /private/\n".to_vec(),
        ),
        "/" => support::html(
            "<html><head><title>Harbour news</title></head><body><h1>Harbour news</h1>\
             <ul><li><a href=/article>Article</a></li><li><a href=/shop/kettle>Kettle</a></li>\
             <li><a href=/list>List</a></li><li><a href=/plain>Plain</a></li>\
             <li><a href=/never>Never</a></li><li><a href=/peek>Peek</a></li>\
             <li><a href=/inline>Inline</a></li><li><a href=/module>Module</a></li><li><a href=/endbody>End</a></li></ul></body></html>",
        ),
        "/article" => support::html(&shell(
            "Ferry",
            "/js/article.js",
            "<img src=/img/photo.png alt=photo>",
        )),
        "/js/article.js" => js(
            "fetch('/api/article.json').then(r => r.json()).then(d => {\
               document.getElementById('root').innerHTML = '<article><h1>' + d.title + '</h1>' +\
                 d.paras.map(p => '<p>' + p + '</p>').join('') + '</article>'; });",
        ),
        "/api/article.json" => json(
            serde_json::json!({"title": "A wider ferry", "paras": [PROSE, format!("{PROSE} Tickets are cheaper too.")]})
                .to_string(),
        ),
        "/shop/kettle" => support::html(&format!(
            "<!doctype html><html><head><title>Blue kettle</title><script src=/js/price.js defer></script></head>\
             <body><header><a href=/>Shop</a></header><main><div itemscope itemtype=\"https://schema.org/Product\">\
             <h1 itemprop=name>Blue kettle</h1><p itemprop=description>{PROSE}</p><p>{PROSE}</p>\
             <div id=offer></div><button type=submit class=add-to-cart>Add to cart</button></div></main></body></html>"
        )),
        "/js/price.js" => js(
            "fetch('/api/price.json').then(r => r.json()).then(d => {\
               document.getElementById('offer').innerHTML = '<div itemprop=\"offers\" itemscope itemtype=\"https://schema.org/Offer\">' +\
                 '<span itemprop=\"price\" content=\"' + d.price + '\">$' + d.price + '</span>' +\
                 '<meta itemprop=\"priceCurrency\" content=\"USD\"></div>'; });",
        ),
        "/api/price.json" => json(r#"{"price": "24.99"}"#.into()),
        "/list" => support::html(&shell("Stories", "/js/list.js", "")),
        "/js/list.js" => js(
            "let next = 1, busy = false;\
             function more() { if (busy || next > 3) return; busy = true;\
               fetch('/api/list?page=' + next).then(r => r.json()).then(items => {\
                 const root = document.getElementById('root');\
                 for (const i of items) { const d = document.createElement('div'); d.style.height = '400px';\
                   d.innerHTML = '<a href=\"/item/' + i + '\">Story number ' + i + ' of the harbour</a>'; root.appendChild(d); }\
                 next += 1; busy = false; }); }\
             window.addEventListener('scroll', () => {\
               if (window.innerHeight + window.scrollY >= document.documentElement.scrollHeight - 100) more(); });\
             more();",
        ),
        p if p.starts_with("/api/list?page=") => {
            let page: u32 = p.rsplit('=').next().and_then(|n| n.parse().ok()).unwrap_or(1);
            let items: Vec<u32> = ((page - 1) * 10 + 1..=page * 10).collect();
            json(serde_json::to_string(&items).unwrap_or_default())
        }
        "/plain" => support::html(&format!(
            "<!doctype html><html><head><title>Quay</title><script src=/js/plain.js></script></head><body>\
             <article><h1>The quay</h1><p>{PROSE}</p><p>{PROSE}</p></article></body></html>"
        )),
        "/js/plain.js" => js("console.log('plain');"),
        "/never" => support::html(&shell("Spinner", "/js/never.js", "")),
        "/js/never.js" => js("while (true) {}"),
        "/peek" => support::html(&shell("Peek", "/js/peek.js", "")),
        "/js/peek.js" => js(
            "fetch('/private/secret.json').then(r => r.json()).then(d => { document.getElementById('root').textContent = d.secret; })\
             .catch(() => { document.getElementById('root').innerHTML = '<article><h1>Peek</h1><p>The data could not be read, so this page shows its own words instead: ' +\
               'the harbour master keeps the tide tables by the door, and anyone may read them there on a weekday morning.</p></article>'; });",
        ),
        // Issue 53, item 6: shells the old rule missed.
        "/inline" => support::html(
            "<!doctype html><html><head><title>Inline</title></head><body>\
             <noscript>You need to enable JavaScript to run this app.</noscript><div id=root></div>\
             <script>fetch('/api/article.json').then(r => r.json()).then(d => {\
               document.getElementById('root').innerHTML = '<article><h1>' + d.title + '</h1><p>' + d.paras[1] + '</p></article>'; });</script>\
             </body></html>",
        ),
        "/module" => support::html(
            "<!doctype html><html><head><title>Module</title>\
             <script type=module>import { mount } from '/js/mount.js'; mount();</script></head>\
             <body><div id=app></div></body></html>",
        ),
        "/js/mount.js" => js(
            "export function mount() { fetch('/api/article.json').then(r => r.json()).then(d => {\
               document.getElementById('app').innerHTML = '<article><h1>Module</h1><p>' + d.paras[1] + '</p></article>'; }); }",
        ),
        "/endbody" => support::html(&format!(
            "<!doctype html><html><head><title>End</title></head><body>\
             <header><a href=/>Harbour news</a> <a href=/list>Stories</a></header><main id=content></main>\
             <footer>{}</footer><script src=/js/end.js></script></body></html>",
            "Privacy policy. Terms of use. Cookie settings. Accessibility statement. ".repeat(4)
        )),
        "/js/end.js" => js(
            "fetch('/api/article.json').then(r => r.json()).then(d => {\
               document.getElementById('content').innerHTML = '<article><h1>End</h1><p>' + d.paras[1] + '</p></article>'; });",
        ),
        p if p.starts_with("/item/") => support::html(&format!("<html><body><h1>Item</h1><p>{PROSE}</p></body></html>")),
        _ => support::status(404),
    }
    })
}

/// The tests here take turns with the browser: a 2-core machine starting
/// several Chromiums at once took more than the launch's bound (CI, stop 63).
static BROWSER: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// This test's turn with the browser, or `None` (skipped) without one.
fn browser_turn() -> Option<std::sync::MutexGuard<'static, ()>> {
    if trawl_crawl::render::find_chromium("").is_err() {
        support::skip_or_fail(
            "chromium not installed (apt-get install chromium); render tests are not run",
        );
        return None;
    }
    // A failed test poisons the lock; the next one still takes its turn.
    Some(BROWSER.lock().unwrap_or_else(|e| e.into_inner()))
}

fn by_path<'a>(
    rows: &'a [serde_json::Value],
    host: &Host,
    path: &str,
) -> Option<&'a serde_json::Value> {
    let url = host.url(path);
    rows.iter()
        .find(|r| r["url"].as_str() == Some(url.as_str()))
}

fn crawl(ip: &str, name: &str, extra: &str) -> (Host, std::path::PathBuf) {
    let host = site(ip);
    let dir = scratch(name);
    let seeds = dir.join("seeds/s.txt");
    std::fs::write(&seeds, format!("{} depth=1\n", host.url("/"))).expect("seeds");
    let cfg = config(&dir, extra);
    crawl_once(&cfg, &seeds);
    (host, cfg)
}

#[test]
fn auto_renders_what_needs_it_and_nothing_else() {
    let Some(_turn) = browser_turn() else {
        return;
    };
    let (host, cfg) = crawl(
        "127.0.0.117",
        "render-auto",
        "min_delay_ms = 20\n[render]\nmode = \"auto\"\ntimeout_secs = 8\nidle_ms = 300",
    );
    let records = export_lines(&cfg, &["--links"]);
    let outs = outcomes(&cfg);
    let paths = host.paths();

    let article = by_path(&records, &host, "/article").expect("article record");
    let text = article["text"].as_str().unwrap_or_default();
    assert!(
        text.contains("forty cars") && text.contains("Tickets are cheaper"),
        "{article}"
    );
    assert_eq!(article["rendered"]["reason"], "empty_shell", "{article}");
    assert!(
        article["rendered"]["requests"].as_u64() >= Some(2),
        "{article}"
    );

    let kettle = by_path(&records, &host, "/shop/kettle").expect("kettle record");
    assert_eq!(kettle["product"]["price"]["amount"], "24.99", "{kettle}");
    assert_eq!(kettle["rendered"]["reason"], "price_by_script", "{kettle}");
    shells_rendered(&records, &host);

    let list = by_path(&records, &host, "/list").expect("list record");
    let links: Vec<&str> = list["links"]
        .as_array()
        .map(|l| l.iter().filter_map(|v| v.as_str()).collect())
        .unwrap_or_default();
    assert!(
        links.iter().any(|l| l.ends_with("/item/30")),
        "scrolled to page 3: {links:?}"
    );
    assert!(list["rendered"]["scrolls"].as_u64() >= Some(2), "{list}");

    let plain = by_path(&records, &host, "/plain").expect("plain record");
    assert!(plain.get("rendered").is_none(), "{plain}");
    assert!(
        !paths.iter().any(|p| p == "/js/plain.js"),
        "the plain page's script was fetched"
    );

    let never = outs
        .iter()
        .find(|o| o["url"].as_str() == Some(host.url("/never").as_str()))
        .expect("an outcome for /never");
    assert_eq!(never["outcome"], "render_failed", "{never}");
    assert!(
        never["error"]
            .as_str()
            .unwrap_or_default()
            .contains("timed out"),
        "{never}"
    );
    assert!(by_path(&records, &host, "/never").is_none());

    let peek = by_path(&records, &host, "/peek").expect("peek record");
    assert!(
        peek["text"]
            .as_str()
            .unwrap_or_default()
            .contains("tide tables"),
        "{peek}"
    );
    assert!(peek["rendered"]["refused"].as_u64() >= Some(1), "{peek}");
    assert!(
        !paths.iter().any(|p| p.starts_with("/private/")),
        "a disallowed path was requested: {paths:?}"
    );
    // Images, the favicon and stylesheets are never loaded.
    assert!(
        !paths
            .iter()
            .any(|p| p.starts_with("/img/") || p == "/favicon.ico"),
        "{paths:?}"
    );
    // Every request the browser made waited its turn like the crawl's own.
    let gap = host.min_gap().expect("requests");
    assert!(gap >= std::time::Duration::from_millis(15), "gap {gap:?}");

    // The archive holds the fetched shell and, as a conversion record
    // referring to it, the rendered DOM; the XHR exchange is archived too.
    let data = cfg.parent().expect("dir").join("storage");
    let mut records = Vec::new();
    for f in support::warc_files(&data) {
        let file = std::fs::File::open(&f).expect("warc");
        records.extend(trawl_crawl::warc::Reader::new(file).map(|r| r.expect("record")));
    }
    let url = host.url("/article");
    let response = records
        .iter()
        .find(|r| r.kind() == "response" && r.target() == Some(url.as_str()))
        .expect("the shell's response record");
    let conversion = records
        .iter()
        .find(|r| r.kind() == "conversion" && r.target() == Some(url.as_str()))
        .expect("the rendered DOM's conversion record");
    assert_eq!(
        conversion.header("WARC-Refers-To"),
        response.header("WARC-Record-ID")
    );
    assert!(String::from_utf8_lossy(&conversion.block).contains("Tickets are cheaper"));
    let api = host.url("/api/article.json");
    assert!(records
        .iter()
        .any(|r| r.kind() == "response" && r.target() == Some(api.as_str())));
    if let Some(warcio) = support::warcio() {
        for f in support::warc_files(&data) {
            support::warcio_check(&warcio, &f);
        }
    }
    reextract_keeps_the_rendered_text(&cfg, &host);
}

/// Issue 53, item 6: an inline script under 1 KB that fetches, an inline
/// module script, and a bundle at the end of `<body>` beside 200+
/// characters of header and footer: each shell is rendered.
fn shells_rendered(records: &[serde_json::Value], host: &Host) {
    for (path, reason) in [
        ("/inline", "empty_shell"),
        ("/module", "empty_shell"),
        ("/endbody", "empty_app_root"),
    ] {
        let rec = by_path(records, host, path).unwrap_or_else(|| panic!("{path}: no record"));
        assert_eq!(rec["rendered"]["reason"], reason, "{rec}");
        assert!(
            rec["text"]
                .as_str()
                .unwrap_or_default()
                .contains("Tickets are cheaper"),
            "{rec}"
        );
        // Where its rendered DOM is archived.
        assert!(rec["rendered"]["warc"]["file"].is_string(), "{rec}");
    }
}

/// Issue 53, item 2: `reextract` reads a rendered page's DOM from its
/// conversion record: the text stays (it re-read the shell: empty text,
/// a newer version, and a plain export gave the blank).
fn reextract_keeps_the_rendered_text(cfg: &std::path::Path, host: &Host) {
    let out = support::trawl()
        .arg("--config")
        .arg(cfg)
        .args(["reextract", "--restart"])
        .output()
        .expect("reextract");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    let records = export_lines(cfg, &[]);
    for path in ["/article", "/inline"] {
        let rec = by_path(&records, host, path).expect("record");
        assert!(
            rec["text"]
                .as_str()
                .unwrap_or_default()
                .contains("Tickets are cheaper"),
            "{path} after reextract: {rec}"
        );
    }
}

#[test]
fn never_extracts_the_shell_as_fetched() {
    let Some(_turn) = browser_turn() else {
        return;
    };
    let (host, cfg) = crawl("127.0.0.118", "render-never", "[render]\nmode = \"never\"");
    let records = export_lines(&cfg, &[]);
    let article = by_path(&records, &host, "/article").expect("article record");
    assert!(article.get("rendered").is_none());
    assert!(!host.paths().iter().any(|p| p.starts_with("/js/")));
}

/// `trawl fetch` (issue 57) renders a page that needs it, as the crawl does.
#[test]
fn fetch_renders_a_page_that_needs_it() {
    let Some(_turn) = browser_turn() else {
        return;
    };
    let host = site("127.0.0.162");
    let dir = scratch("render-fetch");
    let cfg = config(
        &dir,
        "min_delay_ms = 20\n[render]\nmode = \"auto\"\ntimeout_secs = 8\nidle_ms = 300",
    );
    let out = support::trawl()
        .args([
            "--config",
            &cfg.to_string_lossy(),
            "fetch",
            "--format",
            "text",
        ])
        .arg(host.url("/article"))
        .output()
        .expect("trawl fetch");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("forty cars"), "{text}");
    assert!(host.paths().iter().any(|p| p.starts_with("/js/")));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn no_browser_is_a_start_error_for_always_and_a_warning_for_auto() {
    let host = site("127.0.0.119");
    let dir = scratch("render-missing");
    let seeds = dir.join("seeds/s.txt");
    std::fs::write(&seeds, format!("{} depth=1\n", host.url("/"))).expect("seeds");
    let cfg = config(
        &dir,
        "[render]\nmode = \"always\"\nchromium = \"/nonexistent/chromium\"",
    );
    let out = support::crawl_once_output(&cfg, &seeds);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(
        err.contains("render.chromium") && err.contains("/nonexistent/chromium"),
        "{err}"
    );

    let dir = scratch("render-missing-auto");
    let seeds2 = dir.join("seeds/s.txt");
    std::fs::copy(&seeds, &seeds2).expect("seeds");
    let cfg = config(
        &dir,
        "[render]\nmode = \"auto\"\nchromium = \"/nonexistent/chromium\"",
    );
    let out = crawl_once(&cfg, &seeds2);
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no browser"), "{err}");
    let records = export_lines(&cfg, &[]);
    assert!(by_path(&records, &host, "/article").is_some_and(|r| r.get("rendered").is_none()));
}

/// Answers every request of the browser's with a refusal: the pages below
/// need no network.
struct NoNetwork;

impl trawl_crawl::render::Gate for NoNetwork {
    fn request(self: std::sync::Arc<Self>, _url: String) -> trawl_crawl::render::GateFuture {
        Box::pin(async { trawl_crawl::render::Answer::Refused("no network in this test".into()) })
    }
}

#[test]
fn a_killed_browser_is_replaced_and_rendering_goes_on() {
    use std::sync::atomic::Ordering::Relaxed;
    use std::sync::Arc;
    use std::time::Duration;
    use trawl_crawl::render::{Job, Renderer, Settings};

    let Some(_turn) = browser_turn() else {
        return;
    };
    let Ok(chromium) = trawl_crawl::render::find_chromium("") else {
        return;
    };
    let dir = scratch("render-crash");
    let rt = tokio::runtime::Runtime::new().expect("runtime");
    rt.block_on(async {
        let r = Renderer::new(Settings {
            chromium,
            tabs: 1,
            timeout: Duration::from_secs(15),
            idle: Duration::from_millis(200),
            scrolls: 0,
            restart_after: 100,
            tab_memory_mb: 256,
            profiles: dir.join("profiles"),
        });
        let body = b"<html><body><script>document.body.innerHTML = '<p>made by ' + 'script</p>'</script></body></html>";
        let job = || Job {
            url: "http://127.0.0.120:9/page",
            status: 200,
            headers: vec![("Content-Type".into(), "text/html".into())],
            body,
        };
        let first = r.render(job(), Arc::new(NoNetwork)).await.expect("first render");
        assert!(first.html.contains("made by script"), "{}", first.html);
        let pid = r.browser_pid().await.expect("the browser's pid");
        // SAFETY: kill(2) on the browser this test started.
        unsafe { libc::kill(pid as i32, libc::SIGKILL) };
        tokio::time::sleep(Duration::from_millis(300)).await;
        // A render that meets the dead browser fails with an error; the pool
        // starts a new browser for the next one.
        let mut failures = 0;
        let again = loop {
            match r.render(job(), Arc::new(NoNetwork)).await {
                Ok(page) => break page,
                Err(e) => {
                    failures += 1;
                    assert!(failures < 2, "the pool did not recover: {e}");
                }
            }
        };
        assert!(again.html.contains("made by script"));
        assert_eq!(r.counters.launches.load(Relaxed), 2);
        assert_ne!(r.browser_pid().await, Some(pid));
        r.close().await;
    });
}

#[test]
fn cluster_workers_render_with_their_own_browsers() {
    use support::cluster::{wait_all, Cluster};
    let Some(_turn) = browser_turn() else {
        return;
    };
    let Some(pg) = support::pg::Pg::start("render") else {
        return;
    };
    let hosts = vec![site("127.0.0.121"), site("127.0.0.122")];
    let c = Cluster::custom(
        "render-cluster",
        &pg,
        &hosts,
        "[cluster]\nlease_secs = 30\nmax_hosts = 1\n[render]\nmode = \"auto\"\ntimeout_secs = 8\nidle_ms = 300\n",
        |_| "depth=1".into(),
    );
    let mut workers: Vec<_> = (1..=2).map(|i| c.worker(&format!("w{i}"))).collect();
    wait_all(&mut workers, std::time::Duration::from_secs(180));
    let records = c.export();
    for h in &hosts {
        let article = by_path(&records, h, "/article").expect("article record");
        assert!(
            article["text"]
                .as_str()
                .unwrap_or_default()
                .contains("Tickets are cheaper"),
            "{article}"
        );
        assert_eq!(article["rendered"]["reason"], "empty_shell");
        shells_rendered(&records, h);
        let kettle = by_path(&records, h, "/shop/kettle").expect("kettle record");
        assert_eq!(kettle["product"]["price"]["amount"], "24.99", "{kettle}");
        assert!(!h.paths().iter().any(|p| p.starts_with("/private/")));
    }
}

/// Processes whose command line holds `needle`.
fn processes_with(needle: &str) -> usize {
    std::fs::read_dir("/proc")
        .map(|d| {
            d.flatten()
                .filter(|e| {
                    std::fs::read(e.path().join("cmdline"))
                        .is_ok_and(|c| String::from_utf8_lossy(&c).contains(needle))
                })
                .count()
        })
        .unwrap_or(0)
}

#[test]
fn the_browser_dies_with_a_killed_crawl() {
    let Some(_turn) = browser_turn() else {
        return;
    };
    let host = site("127.0.0.123");
    let dir = scratch("render-kill");
    let seeds = dir.join("seeds/s.txt");
    // The never-ending page keeps the browser busy for the whole timeout.
    std::fs::write(&seeds, format!("{} depth=0\n", host.url("/never"))).expect("seeds");
    let cfg = config(&dir, "[render]\nmode = \"auto\"\ntimeout_secs = 120");
    let mut child = support::spawn_crawl(&cfg, &seeds, false);
    let needle = format!("trawl-browser/profile-{}-", child.id());
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    // The browser is up and busy: it asked for the page's script.
    while !host.paths().iter().any(|p| p == "/js/never.js") {
        assert!(std::time::Instant::now() < deadline, "no browser started");
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    std::thread::sleep(std::time::Duration::from_millis(500));
    assert!(processes_with(&needle) > 0);
    // SAFETY: kill(2) on the crawl this test started.
    unsafe { libc::kill(child.id() as i32, libc::SIGKILL) };
    let _ = child.wait();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while processes_with(&needle) > 0 {
        assert!(
            std::time::Instant::now() < deadline,
            "the browser outlived the killed crawl"
        );
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
}
