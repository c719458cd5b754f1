//! Harvest rate of a focused crawl against breadth-first, at equal budgets,
//! on a generated topical web served on loopback (127.0.3.x).
//!
//! Page texts are real: the main contents of ../shared/datasets (wcxb-dev
//! ground truth and CleanEval gold), sorted into seven topics by a 25-word
//! lexicon per topic (a text joins a topic when that lexicon's density is at
//! least 2 per 100 words and twice any other's). The crawl is told only a
//! short keyword list for the target topic ("health"), not the lexicon.
//!
//! The web: HOSTS hosts, PAGES articles each. Every host leans to one topic
//! (70% of its articles), the rest are mixed. Articles link to six others:
//! mostly the same topic (on the same host or elsewhere), some anywhere; 15%
//! link nowhere (dead ends). Each host has a home page (sections and ten
//! recent articles) and a hub per topic; every page's navigation names all
//! sections, so off-topic pages carry topical words outside their main text.
//! Anchors are the linked article's title.
//!
//! A second web, `concentrated`, is the case where pages are the budget: the
//! target topic lives mostly on a few hosts (RICH of them lean to it, 85% of
//! their articles; the others lean to the other topics), hosts answer with a
//! politeness delay, and the crawl runs three ways: breadth-first, focused
//! with the default time budget, and focused with `focus.budget = "pages"`.
//! Beside them, an oracle: best-first by the true labels, free of
//! politeness, simulated on the same link graph (the ceiling).
//!
//! `cargo bench --bench focus -- [HOSTS] [PAGES] [BUDGET]` (defaults 80, 120,
//! 2000), `cargo bench --bench focus -- concentrated [HOSTS] [PAGES] [BUDGET]`
//! (defaults 40, 500, 5000; `FOCUS_DELAY_MS`, default 50, is the hosts'
//! politeness delay). Skips with a message when ../shared/datasets is absent.

#[path = "../tests/support/mod.rs"]
mod support;

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use support::{html, run_daemon, status, Host};

const TARGET: &str = "health";

const LEXICON: &[(&str, &str)] = &[
    ("health", "health patients patient medical doctor doctors disease treatment hospital symptoms cancer clinical medicine diabetes therapy drug drugs vaccine nurses care infection heart blood surgery mental diagnosis"),
    ("tech", "software data computer app apps users code developers cloud internet digital technology device devices online security network server ai algorithm programming platform api"),
    ("finance", "market markets investors stock stocks shares bank banks financial investment fund funds price prices revenue profit economy inflation interest rates tax earnings trading dollar"),
    ("sports", "game games team teams season player players league coach match win won score scored championship football basketball baseball soccer tournament goal goals fans"),
    ("food", "recipe recipes cook cooking food cup cups flour sugar butter oven minutes salt chicken sauce dish bake baking ingredients eat restaurant taste delicious"),
    ("travel", "travel hotel hotels trip visit visitors city beach tour tourists flight flights island destination museum guests resort vacation airport explore"),
    ("politics", "government president election minister party vote voters political congress senate law policy campaign court state officials democrats republicans parliament"),
];

/// What the user tells trawl.
const KEYWORDS: &str = "health = 1.0, medical = 1.0, patients = 1.0, disease = 1.0, treatment = 1.0, doctors = 1.0, hospital = 1.0, \"clinical trial\" = 2.0";

struct Doc {
    title: String,
    text: String,
}

fn words(t: &str) -> Vec<String> {
    t.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect()
}

fn topic_of(text: &str) -> Option<usize> {
    let toks = words(text);
    if toks.len() < 250 {
        return None;
    }
    let mut counts: HashMap<&str, usize> = HashMap::new();
    for t in &toks {
        *counts.entry(t.as_str()).or_default() += 1;
    }
    let mut scores: Vec<(usize, f64)> = LEXICON
        .iter()
        .enumerate()
        .map(|(i, (_, lex))| {
            let hits: usize = lex
                .split(' ')
                .map(|w| counts.get(w).copied().unwrap_or(0))
                .sum();
            (i, hits as f64 * 100.0 / toks.len() as f64)
        })
        .collect();
    scores.sort_by(|a, b| b.1.total_cmp(&a.1));
    (scores[0].1 >= 2.0 && scores[0].1 >= 2.0 * scores[1].1).then_some(scores[0].0)
}

/// Files of a directory in name order (none if it cannot be read).
fn sorted_files(dir: &Path) -> Vec<std::path::PathBuf> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .collect();
    files.sort();
    files
}

fn load(root: &Path) -> Vec<Vec<Doc>> {
    let mut by_topic: Vec<Vec<Doc>> = LEXICON.iter().map(|_| Vec::new()).collect();
    let mut add = |title: String, text: String| {
        if let Some(t) = topic_of(&text) {
            let title = if title.trim().is_empty() {
                text.split_whitespace()
                    .take(8)
                    .collect::<Vec<_>>()
                    .join(" ")
            } else {
                title
            };
            by_topic[t].push(Doc { title, text });
        }
    };
    for f in sorted_files(&root.join("wcxb-dev/ground-truth")) {
        let Ok(bytes) = std::fs::read(&f) else {
            continue;
        };
        let Ok(j) = serde_json::from_slice::<serde_json::Value>(&bytes) else {
            continue;
        };
        let gt = &j["ground_truth"];
        add(
            gt["title"].as_str().unwrap_or_default().to_string(),
            gt["main_content"].as_str().unwrap_or_default().to_string(),
        );
    }
    for f in sorted_files(&root.join("cleaneval/gold")) {
        let Ok(t) = std::fs::read_to_string(&f) else {
            continue;
        };
        let body: String = t
            .lines()
            .skip(1)
            .map(|l| {
                l.trim_start_matches("<p>")
                    .trim_start_matches("<h>")
                    .trim_start_matches("<l>")
            })
            .collect::<Vec<_>>()
            .join("\n");
        add(String::new(), body);
    }
    by_topic
}

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// One article of the web.
struct Article {
    topic: usize,
    doc: usize,
    links: Vec<(usize, usize)>, // (host, article)
}

struct Web {
    /// Base URL of each host (set once the servers are listening).
    bases: std::sync::OnceLock<Vec<String>>,
    docs: Vec<Vec<Doc>>,
    hosts: Vec<Vec<Article>>,
    /// Per host and topic, its articles of that topic.
    sections: Vec<Vec<Vec<usize>>>,
}

fn esc(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// Builds a web of `hosts` hosts with `pages` articles each; `lean(h)` is
/// host h's topic and the share (percent) of its articles on it.
fn build(
    docs: Vec<Vec<Doc>>,
    hosts: usize,
    pages: usize,
    lean: impl Fn(usize) -> (usize, usize),
) -> Web {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let topics = docs.len();
    let mut web_hosts: Vec<Vec<Article>> = Vec::new();
    for h in 0..hosts {
        let (lean, share) = lean(h);
        let arts = (0..pages)
            .map(|_| {
                let topic = if rng.below(100) < share {
                    lean
                } else {
                    rng.below(topics)
                };
                Article {
                    topic,
                    doc: rng.below(docs[topic].len()),
                    links: Vec::new(),
                }
            })
            .collect();
        web_hosts.push(arts);
    }
    let mut sections = vec![vec![Vec::new(); topics]; hosts];
    let mut by_topic: Vec<Vec<(usize, usize)>> = vec![Vec::new(); topics];
    for (h, arts) in web_hosts.iter().enumerate() {
        for (i, a) in arts.iter().enumerate() {
            sections[h][a.topic].push(i);
            by_topic[a.topic].push((h, i));
        }
    }
    for (h, arts) in web_hosts.iter_mut().enumerate() {
        for art in arts.iter_mut() {
            if rng.below(100) < 15 {
                continue; // a dead end
            }
            let topic = art.topic;
            let mut links = Vec::new();
            for _ in 0..6 {
                let r = rng.below(100);
                let l = if r < 55 && !sections[h][topic].is_empty() {
                    (h, sections[h][topic][rng.below(sections[h][topic].len())])
                } else if r < 80 {
                    by_topic[topic][rng.below(by_topic[topic].len())]
                } else {
                    (rng.below(hosts), rng.below(pages))
                };
                links.push(l);
            }
            art.links = links;
        }
    }
    Web {
        bases: std::sync::OnceLock::new(),
        docs,
        hosts: web_hosts,
        sections,
    }
}

impl Web {
    fn title(&self, h: usize, i: usize) -> &str {
        let a = &self.hosts[h][i];
        &self.docs[a.topic][a.doc].title
    }

    fn nav(&self, h: usize) -> String {
        let links: String = LEXICON
            .iter()
            .enumerate()
            .filter(|(t, _)| !self.sections[h][*t].is_empty())
            .map(|(_, (name, _))| format!("<li><a href=\"/s/{name}\">{name} news</a></li>"))
            .collect();
        format!("<nav class=menu><ul><li><a href=\"/\">Home</a></li>{links}</ul></nav>")
    }

    fn link(&self, h: usize, (lh, li): (usize, usize)) -> String {
        let href = match self.bases.get() {
            Some(b) if lh != h => format!("{}/a/{li}", b[lh].trim_end_matches('/')),
            _ => format!("/a/{li}"),
        };
        format!(
            "<li><a href=\"{href}\">{}</a></li>",
            esc(self.title(lh, li))
        )
    }

    fn list_page(&self, h: usize, title: &str, items: &[(usize, usize)]) -> String {
        let list: String = items.iter().map(|&l| self.link(h, l)).collect();
        format!(
            "<!DOCTYPE html><html><head><meta charset=utf-8><title>{title}</title></head><body>{}\
             <main><h1>{title}</h1><ul class=list>{list}</ul></main><footer>Site {h}</footer></body></html>",
            self.nav(h)
        )
    }

    fn serve(&self, h: usize, path: &str) -> support::Reply {
        let pages = self.hosts[h].len();
        if path == "/" {
            let recent: Vec<(usize, usize)> = (0..10).map(|k| (h, (k * 7 + h) % pages)).collect();
            return html(&self.list_page(h, &format!("Site {h}"), &recent));
        }
        if let Some(name) = path.strip_prefix("/s/") {
            let Some(t) = LEXICON.iter().position(|(n, _)| *n == name) else {
                return status(404);
            };
            let items: Vec<(usize, usize)> = self.sections[h][t]
                .iter()
                .take(30)
                .map(|&i| (h, i))
                .collect();
            return html(&self.list_page(h, &format!("{name} news"), &items));
        }
        let Some(i) = path
            .strip_prefix("/a/")
            .and_then(|i| i.parse::<usize>().ok())
            .filter(|&i| i < pages)
        else {
            return status(404);
        };
        let a = &self.hosts[h][i];
        let d = &self.docs[a.topic][a.doc];
        let paras: String = d
            .text
            .split("\n\n")
            .filter(|p| !p.trim().is_empty())
            .map(|p| format!("<p>{}</p>", esc(p.trim())))
            .collect();
        let related: String = a.links.iter().map(|&l| self.link(h, l)).collect();
        html(&format!(
            "<!DOCTYPE html><html><head><meta charset=utf-8><title>{t}</title></head><body>{}\
             <main><article><h1>{t}</h1>{paras}</article><aside class=related><h2>Read next</h2><ul>{related}</ul></aside></main>\
             <footer>Site {h}</footer></body></html>",
            self.nav(h),
            t = esc(&d.title)
        ))
    }

    /// Whether a URL is a relevant page (an article of the target topic).
    fn relevant(&self, url: &str) -> bool {
        let target = LEXICON.iter().position(|(n, _)| *n == TARGET).unwrap_or(0);
        let h = host_of(url).unwrap_or(0);
        let Some(i) = url
            .split_once("/a/")
            .and_then(|(_, i)| i.parse::<usize>().ok())
        else {
            return false;
        };
        h >= 1
            && self
                .hosts
                .get(h - 1)
                .and_then(|a| a.get(i))
                .is_some_and(|a| a.topic == target)
    }
}

impl Web {
    /// Links of a page (home: `None` section and article; section:
    /// `Some(t)`, no article), as the served pages carry them.
    fn out_links(&self, h: usize, page: Page) -> Vec<Page> {
        let topics = self.sections[h].len();
        let mut out: Vec<Page> = (0..topics)
            .filter(|&t| !self.sections[h][t].is_empty())
            .map(|t| Page::Section(h, t))
            .collect();
        let pages = self.hosts[h].len();
        match page {
            Page::Home(_) => out.extend((0..10).map(|k| Page::Article(h, (k * 7 + h) % pages))),
            Page::Section(_, t) => out.extend(
                self.sections[h][t]
                    .iter()
                    .take(30)
                    .map(|&i| Page::Article(h, i)),
            ),
            Page::Article(_, i) => out.extend(
                self.hosts[h][i]
                    .links
                    .iter()
                    .map(|&(lh, li)| Page::Article(lh, li)),
            ),
        }
        out
    }

    /// The ceiling: best-first by the true labels (relevant articles
    /// first, the rest breadth-first), free of politeness, from every home
    /// page. Returns each fetched page's label in fetch order.
    fn oracle(&self, budget: usize) -> Vec<bool> {
        let target = LEXICON.iter().position(|(n, _)| *n == TARGET).unwrap_or(0);
        let label =
            |p: &Page| matches!(*p, Page::Article(h, i) if self.hosts[h][i].topic == target);
        let mut seen: std::collections::HashSet<Page> = std::collections::HashSet::new();
        let mut good = std::collections::VecDeque::new();
        let mut rest = std::collections::VecDeque::new();
        for h in 0..self.hosts.len() {
            seen.insert(Page::Home(h));
            rest.push_back(Page::Home(h));
        }
        let mut out = Vec::new();
        while out.len() < budget {
            let Some(p) = good.pop_front().or_else(|| rest.pop_front()) else {
                break;
            };
            out.push(label(&p));
            let h = match p {
                Page::Home(h) | Page::Section(h, _) | Page::Article(h, _) => h,
            };
            for l in self.out_links(h, p) {
                if seen.insert(l) {
                    if label(&l) {
                        good.push_back(l);
                    } else {
                        rest.push_back(l);
                    }
                }
            }
        }
        out
    }
}

/// The last octet of a bench URL's host (127.0.3.N): host N-1 of the web.
fn host_of(url: &str) -> Option<usize> {
    url.strip_prefix("http://127.0.3.")?
        .split([':', '/'])
        .next()?
        .parse()
        .ok()
}

/// A page of the web, for the oracle.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum Page {
    Home(usize),
    Section(usize, usize),
    Article(usize, usize),
}

/// Runs one crawl; returns the fetched pages in completion order with
/// trawl's relevance judgment. `extra`: more `[crawl]` lines, then `[focus]`
/// lines after a `|`.
fn crawl(
    web_hosts: &[Host],
    strategy: &str,
    budget: usize,
    extra: &str,
) -> (Vec<(String, f64)>, f64) {
    let dir = std::env::temp_dir().join(format!(
        "trawl-focus-bench-{}-{strategy}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir); // leftovers of an earlier run
    std::fs::create_dir_all(dir.join("seeds")).expect("scratch dir");
    let seeds: String = web_hosts.iter().map(|h| h.url("/") + "\n").collect();
    std::fs::write(dir.join("seeds/web.txt"), seeds).expect("seeds");
    let (crawl_extra, focus_extra) = extra.split_once('|').unwrap_or((extra, ""));
    // The loopback hosts stand for public sites: links between them are
    // followed (the private-network guard would refuse a link from one
    // seed's host to another's).
    let cfg_text = format!(
        "[crawl]\ndata_dir = \"{}\"\nseeds_dir = \"{}\"\nstatus_addr = \"\"\nmax_concurrent = 16\n\
         max_depth = 1000\nsitemaps = false\nmax_pages = {budget}\nscope = \"any\"\nallow_private = true\n{}\n\
         [focus]\nstrategy = \"{strategy}\"\nkeywords = {{ {KEYWORDS} }}\n{}\n{}\n",
        dir.join("storage").display(),
        dir.join("seeds").display(),
        crawl_extra.replace(';', "\n"),
        focus_extra.replace(';', "\n"),
        // Extra [focus] settings to compare (e.g. "learning_rate = 0.2").
        std::env::var("FOCUS_EXTRA").unwrap_or_default().replace(';', "\n")
    );
    let (snap, secs) = run_daemon(&cfg_text);
    if std::env::var("FOCUS_DEBUG").is_ok() {
        println!("  {}", snap.line());
    }
    let store = trawl_crawl::store::Store::open(&dir.join("storage"), 16 << 20).expect("store");
    let mut pages: Vec<(u64, String, f64)> = store
        .pages()
        .filter_map(Result::ok)
        .filter(|p| p.status == 200)
        .map(|p| {
            (
                p.fetched_at,
                p.url.clone(),
                f64::from(p.relevance.unwrap_or(0.0)),
            )
        })
        .collect();
    // Records are numbered in completion order; pages without one go last.
    let order: HashMap<String, u64> = store
        .records_after(0, usize::MAX)
        .expect("records")
        .into_iter()
        .map(|(seq, r)| (r.url, seq))
        .collect();
    pages.sort_by_key(|(_, u, _)| order.get(u).copied().unwrap_or(u64::MAX));
    if std::env::var("FOCUS_DEBUG").is_ok() {
        let outs = store.outcomes_after(0, usize::MAX).unwrap_or_default();
        let mut kinds: HashMap<String, usize> = HashMap::new();
        for o in &outs {
            let rich = host_of(&o.url).is_some_and(|h| h <= RICH);
            *kinds
                .entry(format!("{:?} rich={rich}", o.outcome))
                .or_default() += 1;
        }
        println!("  outcomes {kinds:?}");
        for o in outs
            .iter()
            .filter(|o| format!("{:?}", o.outcome) == "BlockedAddress")
            .take(3)
        {
            println!("  blocked {} {:?}", o.url, o.error);
        }
    }
    drop(store);
    let _ = std::fs::remove_dir_all(&dir); // the bench's scratch store
    (pages.into_iter().map(|(_, u, r)| (u, r)).collect(), secs)
}

/// Harvest at each mark (pages fetched so far) of a list of labels.
fn curve(labels: &[bool], marks: &[usize]) -> String {
    let mut rel = 0;
    let mut out = Vec::new();
    for (k, l) in labels.iter().enumerate() {
        rel += usize::from(*l);
        if marks.contains(&(k + 1)) {
            out.push(format!("{}:{:.3}", k + 1, rel as f64 / (k + 1) as f64));
        }
    }
    out.join(" ")
}

/// Runs the crawls and prints one line each.
fn report(
    web: &Web,
    servers: &[Host],
    runs: &[(&str, &str, &str)],
    budget: usize,
    marks: &[usize],
) {
    // FOCUS_RUNS=page: only the runs whose name holds that text.
    let only = std::env::var("FOCUS_RUNS").unwrap_or_default();
    for (name, strategy, extra) in runs.iter().filter(|r| r.0.contains(only.as_str())) {
        let (fetched, secs) = crawl(servers, strategy, budget, extra);
        let labels: Vec<bool> = fetched.iter().map(|(u, _)| web.relevant(u)).collect();
        let (mut tp, mut fp, mut fneg) = (0, 0, 0);
        for ((_, judged), truth) in fetched.iter().zip(&labels) {
            match (*truth, *judged >= 0.5) {
                (true, true) => tp += 1,
                (false, true) => fp += 1,
                (true, false) => fneg += 1,
                _ => {}
            }
        }
        let n = fetched.len();
        let rel = labels.iter().filter(|l| **l).count();
        if std::env::var("FOCUS_DEBUG").is_ok() {
            for (k, chunk) in fetched.chunks(500).enumerate() {
                let rich = chunk
                    .iter()
                    .filter(|(u, _)| host_of(u).is_some_and(|h| h <= RICH))
                    .count();
                let arts = chunk.iter().filter(|(u, _)| u.contains("/a/")).count();
                let good = chunk.iter().filter(|(u, _)| web.relevant(u)).count();
                println!(
                    "  pages {}..: rich hosts {rich}, articles {arts}, relevant {good}",
                    k * 500
                );
            }
        }
        println!(
            "{name}: {n} pages in {secs:.1} s ({:.0} pages/s); harvest {:.3} ({rel} relevant); curve {}; \
             judgment precision {:.2} recall {:.2}",
            n as f64 / secs.max(1e-9),
            rel as f64 / n.max(1) as f64,
            curve(&labels, marks),
            tp as f64 / (tp + fp).max(1) as f64,
            tp as f64 / (tp + fneg).max(1) as f64,
        );
    }
    let oracle = web.oracle(budget);
    println!(
        "oracle (labels known, no politeness): {} pages; curve {}",
        oracle.len(),
        curve(&oracle, marks)
    );
}

/// Rich hosts of the concentrated web.
const RICH: usize = 8;

fn main() {
    let mut args: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| a != "--bench")
        .collect();
    let concentrated = args.first().is_some_and(|a| a == "concentrated");
    if concentrated {
        args.remove(0);
    }
    let mut args = args.into_iter();
    let (dh, dp, db) = if concentrated {
        (40, 500, 5000)
    } else {
        (80, 120, 2000)
    };
    let hosts: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(dh);
    let pages: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(dp);
    let budget: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(db);
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/datasets");
    if !root.join("wcxb-dev").is_dir() {
        println!("skipped: ../shared/datasets is absent (the bench's page texts come from it)");
        return;
    }
    let docs = load(&root);
    for (t, (name, _)) in LEXICON.iter().enumerate() {
        print!("{name} {} · ", docs[t].len());
    }
    println!("texts per topic");
    let target = LEXICON.iter().position(|(n, _)| *n == TARGET).unwrap_or(0);
    let topics = docs.len();
    let web = Arc::new(if concentrated {
        // The first RICH hosts lean to the target; the others to the rest.
        build(docs, hosts, pages, |h| {
            if h < RICH {
                (target, 85)
            } else {
                let others: Vec<usize> = (0..topics).filter(|&t| t != target).collect();
                (others[h % others.len()], 70)
            }
        })
    } else {
        build(docs, hosts, pages, |h| (h % topics, 70))
    });
    let total_rel: usize = web
        .hosts
        .iter()
        .flatten()
        .filter(|a| a.topic == target)
        .count();
    println!(
        "web: {hosts} hosts x {pages} articles (+ home and section pages); {total_rel} of {} articles are on {TARGET} ({:.1}%)",
        hosts * pages,
        100.0 * total_rel as f64 / (hosts * pages) as f64
    );
    let servers: Vec<Host> = (0..hosts)
        .map(|h| {
            let web = web.clone();
            Host::start(&format!("127.0.3.{}", h + 1), move |path, _| {
                if path == "/robots.txt" {
                    return status(404);
                }
                web.serve(h, path)
            })
        })
        .collect();
    let _ = web.bases.set(servers.iter().map(|s| s.url("/")).collect()); // set once, here
    if concentrated {
        let delay: u64 = std::env::var("FOCUS_DELAY_MS")
            .ok()
            .and_then(|d| d.parse().ok())
            .unwrap_or(50);
        let d = format!("min_delay_ms = {delay}");
        let time = format!("{d}|");
        let pages_mode = format!("{d}|budget = \"pages\"");
        let runs = [
            ("bfs", "bfs", time.as_str()),
            ("focused, time budget", "focused", time.as_str()),
            ("focused, page budget", "focused", pages_mode.as_str()),
        ];
        println!("hosts' politeness delay {delay} ms");
        report(
            &web,
            &servers,
            &runs,
            budget,
            &[500, 1000, 2000, 3000, 5000],
        );
    } else {
        let runs = [
            ("bfs", "bfs", "min_delay_ms = 0|"),
            ("focused", "focused", "min_delay_ms = 0|"),
        ];
        report(
            &web,
            &servers,
            &runs,
            budget,
            &[100, 250, 500, 1000, 1500, 2000],
        );
    }
}
