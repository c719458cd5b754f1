//! What the crawl keeps of a page: the [`Record`] the pipeline builds, the
//! store keeps and export writes, and the [`Outcome`] every fetched (or
//! skipped) URL ends with. One type each, so a field is named once and the
//! schema in the README is this file.
//!
//! Fields are declared in alphabetical order: records are written as JSON
//! in declaration order, and the stores and exports written before this
//! type existed (a JSON map) are in that order too.

use std::collections::BTreeMap;
use std::time::{SystemTime, UNIX_EPOCH};

use serde::{Deserialize, Serialize};
use trawl_extract::PageType;

/// Seconds since the Unix epoch: the clock of `fetched_at` and every other
/// stored timestamp (0 if the system clock is before 1970).
pub fn now_secs() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// Seconds since the Unix epoch as an ISO 8601 UTC time
/// (`2026-11-25T01:48:04Z`), for messages people read.
pub fn iso_time(secs: u64) -> String {
    let rem = secs % 86_400;
    let (year, month, day) = trawl_extract::civil_from_days((secs / 86_400) as i64);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}Z",
        rem / 3600,
        rem / 60 % 60,
        rem % 60
    )
}

/// Longest interval accepted anywhere (a year), in seconds.
pub(crate) const MAX_INTERVAL: u64 = 365 * 86_400;

/// Parses a duration: `never` or `0` (off), a number of seconds, or a
/// number with a unit (`s`, `m`, `h`, `d`, `w`). Seconds, or why not.
pub(crate) fn parse_duration(s: &str) -> Result<u64, String> {
    let s = s.trim();
    if s.eq_ignore_ascii_case("never") || s == "0" {
        return Ok(0);
    }
    let (num, unit) = match s.find(|c: char| !c.is_ascii_digit()) {
        Some(i) => s.split_at(i),
        None => (s, "s"),
    };
    let per = match unit.trim() {
        "s" => 1,
        "m" => 60,
        "h" => 3600,
        "d" => 86_400,
        "w" => 7 * 86_400,
        _ => 0,
    };
    let secs = num.parse::<u64>().ok().map(|n| n.saturating_mul(per));
    match secs {
        Some(v) if per > 0 && v <= MAX_INTERVAL => Ok(v),
        Some(_) if per > 0 => Err(format!("{s:?} is longer than a year")),
        _ => Err(format!(
            "{s:?} is not a duration (e.g. 90s, 15m, 1h, 2d, 1w, a number of seconds, or never)"
        )),
    }
}

/// One exported page: metadata, main text and, for product pages of an
/// e-commerce seed, the fields its site's template read.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// The extraction algorithm that chose the text.
    pub algorithm: String,
    /// Byline.
    pub author: Option<String>,
    /// `<link rel="canonical">`.
    pub canonical: Option<String>,
    /// xxh3-64 of the text, 16 hex digits.
    pub content_hash: String,
    /// The page's date, ISO 8601 where it could be read: the date it shows
    /// at its head, else its recorded publication date, else its URL's
    /// (see `trawl_extract::Extracted::date`).
    pub date: Option<String>,
    /// When it was first published, when the page says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date_published: Option<String>,
    /// When it was last updated, when the page says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date_modified: Option<String>,
    /// Which of the two `date` is (`published`, `updated`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub date_kind: Option<trawl_extract::DateKind>,
    /// Links from the seed to this page.
    pub depth: u16,
    /// `<meta name="description">` or `og:description`.
    pub description: Option<String>,
    /// The URL of an earlier record with a near-identical text (SimHash
    /// within 3 bits).
    pub duplicate_of: Option<String>,
    /// The extractor that made this record (`trawl-extract VERSION`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extractor: Option<String>,
    /// Seconds since the Unix epoch.
    pub fetched_at: u64,
    /// Product fields read by the site's template: field → values.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fields: Option<BTreeMap<String, Vec<String>>>,
    /// The URL after redirects.
    pub final_url: String,
    /// The main content as clean HTML (`extract.html`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub html: Option<String>,
    /// ISO 639-1 code of the text's language.
    pub language: Option<String>,
    /// The page's outgoing links (`crawl.record_links`; exported with `--links`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub links: Option<Vec<String>>,
    /// The main content as Markdown (CommonMark, GFM tables): what `text`
    /// says, with headings, lists, tables, code, links and images. Empty in
    /// records stored before it existed (`trawl reextract` fills it).
    #[serde(default)]
    pub markdown: String,
    /// article, forum, product, collection, listing, service or documentation.
    pub page_type: PageType,
    /// The record this one replaces (a revisit found the page changed, or
    /// `trawl reextract`): its `seq`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub previous: Option<u64>,
    /// The product record of a product page (name, price, currency, codes,
    /// …; see `trawl_extract::Product`), template or not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub product: Option<trawl_extract::Product>,
    /// Topic relevance in [0, 1], in a focused crawl.
    pub relevance: Option<f64>,
    /// The page was rendered in a headless browser (`render`): why, and
    /// what the render did. Absent for pages extracted as fetched.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rendered: Option<RenderNote>,
    /// Export cursor: records are numbered 1, 2, … in the order stored.
    /// Set by the store.
    #[serde(default)]
    pub seq: u64,
    /// `og:site_name` or the JSON-LD publisher.
    pub site_name: Option<String>,
    /// HTTP status of the final response.
    pub status: u16,
    /// The template that read [`Record::fields`] (site and cluster).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub template: Option<String>,
    /// How well the page fit the template, in [0, 1].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub template_match: Option<f64>,
    /// The template's version (it goes up when the site is re-learned).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub template_version: Option<u32>,
    /// Main content: blocks separated by a blank line.
    pub text: String,
    /// Where the text was read when not from the page's markup: the
    /// embedded state of an app shell (`__NEXT_DATA__`, a `window.__NAME__`
    /// global, an `application/json` script's id) or `json-ld`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text_source: Option<String>,
    /// Title or the article's own headline.
    pub title: Option<String>,
    /// `product` when the page has a product record or template fields.
    #[serde(rename = "type", default, skip_serializing_if = "Option::is_none")]
    pub kind: Option<RecordKind>,
    /// The URL as queued (before redirects).
    pub url: String,
    /// Which version of the page this record is (2, 3, …: the page changed
    /// since the record named by `previous`); absent on a page's first record.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub version: Option<u32>,
    /// Where the page's response is archived (`[warc]`): its WARC file
    /// (under `<data_dir>/warc/`) and the offset of the record's gzip member.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub warc: Option<WarcLocation>,
}

impl Record {
    /// Takes the extraction's fields (text, metadata, page type, product
    /// record) and says which extractor made them; the fetch's fields
    /// (URL, status, depth, times, links, archive location) stay.
    pub fn set_extracted(&mut self, ex: trawl_extract::Extracted) {
        self.content_hash = text_hash(&ex.text);
        self.algorithm = ex.algorithm.to_string();
        self.author = ex.author;
        self.canonical = ex.canonical;
        self.date = ex.date;
        self.date_published = ex.date_published;
        self.date_modified = ex.date_modified;
        self.date_kind = ex.date_kind;
        self.description = ex.description;
        self.language = ex.language;
        self.page_type = ex.page_type;
        self.kind = ex.product.as_ref().map(|_| RecordKind::Product);
        self.product = ex.product;
        self.site_name = ex.site_name;
        self.text = ex.text;
        self.markdown = ex.markdown;
        self.html = ex.html;
        self.text_source = ex.text_source;
        self.title = ex.title;
        self.extractor = Some(format!("trawl-extract {}", trawl_extract::VERSION));
    }
}

/// A record's `content_hash`: xxh3-64 of its text, 16 hex digits.
pub(crate) fn text_hash(text: &str) -> String {
    body_hash(text.as_bytes())
}

/// A feed's or a sitemap's `content_hash`: xxh3-64 of its body, 16 hex
/// digits (what tells a revisit that it changed).
pub(crate) fn body_hash(body: &[u8]) -> String {
    format!("{:016x}", xxhash_rust::xxh3::xxh3_64(body))
}

/// How a page was rendered in the browser.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RenderNote {
    /// Why: `always` (the mode), or what `auto` saw in the fetched HTML
    /// (`empty_shell`, `empty_app_root`, `noscript_notice`, `price_by_script`).
    pub reason: String,
    /// Requests of the page's scripts that were sent (each on its host's
    /// schedule, after robots.txt).
    pub requests: u32,
    /// Requests refused: images, fonts, media, stylesheets, frames, methods
    /// other than GET, robots.txt, private addresses.
    pub refused: u32,
    /// Scrolls made to load lazy content.
    pub scrolls: u32,
    /// How long the render took, in milliseconds.
    pub ms: u64,
    /// Where the rendered DOM is archived (`[warc]`): its `conversion`
    /// record, which `reextract` reads instead of the fetched shell.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub warc: Option<WarcLocation>,
}

/// What a record describes beyond a page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RecordKind {
    /// Product fields read with a learned template.
    Product,
}

/// How a URL's fetch ended: the typed half of a page outcome (its `error`
/// says the details in words).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// Fetched with a 2xx and processed (a record unless `noindex`).
    Fetched,
    /// Fetched, but the body was cut at `crawl.max_body_bytes`; the part
    /// read was processed.
    Truncated,
    /// A sitemap was read; its URLs were queued.
    Sitemap,
    /// A feed (RSS, Atom, JSON Feed) was read; its entries were queued.
    Feed,
    /// A revisit answered 304 Not Modified: no body, no new record.
    NotModified,
    /// The page asked not to be indexed (`noindex` or `none` in
    /// `<meta name="robots">`, `<meta name="AGENT">` or `X-Robots-Tag`): no
    /// record; `error` says which, and whether its links were followed.
    Noindex,
    /// A revisit fetched the page again and its main text had not changed:
    /// no new record.
    Unchanged,
    /// The final response was not 2xx (after retries for 429/503/5xx).
    HttpError,
    /// No response (connection, timeout, TLS) after retries.
    TransportError,
    /// robots.txt forbids the URL.
    RobotsDenied,
    /// robots.txt stayed unreachable (5xx or no answer), so the URL was set
    /// aside (RFC 9309: unreachable means disallowed) and is offered again
    /// after `crawl.host_stop_cooldown_secs` or at the next start.
    RobotsUnavailable,
    /// A redirect loop, too many hops, a bad `Location`, or a redirect out
    /// of scope or disallowed by robots.txt.
    RedirectError,
    /// Redirected to another host: the target was queued as its own URL.
    Redirected,
    /// `Content-Length` over `crawl.max_body_bytes`: the body was not read.
    TooLarge,
    /// Not HTML (`Content-Type`); not processed.
    NotHtml,
    /// The body could not be decoded or parsed (binary, over a limit).
    ExtractionError,
    /// Processing the page failed inside trawl (a caught panic).
    InternalError,
    /// The queued URL does not parse.
    BadUrl,
    /// Not fetched: its host was stopped (error budget spent); `error`
    /// says why and until when. Offered again after
    /// `crawl.host_stop_cooldown_secs` or at the next start.
    HostStopped,
    /// The site answered with a challenge or block page (a bot-defence
    /// interstitial, a captcha) each time it was asked; `error` names the
    /// family. The host was held with backoff between tries; no record.
    BlockedBySite,
    /// Not fetched: the crawl's, the seed's or the host's page budget is
    /// spent. Offered again at the next start (a raised budget fetches it).
    BudgetSpent,
    /// Not fetched: the host resolves to (or is) a private, loopback or
    /// link-local address that no seed names (`crawl.allow_private`).
    BlockedAddress,
    /// The page needed a browser (`render`) and rendering failed: it timed
    /// out (a script that never finishes), the browser crashed, or there is
    /// none; `error` says which. Its response is archived; no record.
    RenderFailed,
    /// Written by a trawl that did not record outcome kinds.
    #[default]
    Unknown,
}

/// Where a record is in the WARC archive: its file's name and offset.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WarcLocation {
    /// The file's name (in `<data_dir>/warc/`; a cluster worker's name is in it).
    pub file: String,
    /// The offset of the record's gzip member in the file.
    pub offset: u64,
}

/// What happened when a URL was fetched.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
pub struct PageOutcome {
    /// Outcome cursor: outcomes are numbered as written (a URL written again
    /// moves to the end); `export --outcomes --since N` starts after N.
    #[serde(default)]
    pub seq: u64,
    /// The URL as queued.
    pub url: String,
    /// Where redirects ended, when elsewhere.
    pub final_url: Option<String>,
    /// HTTP status of the final response (0: no response).
    pub status: u16,
    /// How the fetch ended ([`Outcome`]); `error` says the details.
    #[serde(default)]
    pub outcome: Outcome,
    /// Seconds since the Unix epoch.
    pub fetched_at: u64,
    /// Body bytes received.
    pub bytes: u64,
    /// The record's `content_hash` (xxh3-64 of its text) when a page was
    /// extracted; for a feed or a sitemap, xxh3-64 of its body: 16 hex
    /// digits.
    pub content_hash: Option<String>,
    /// What went wrong, in words.
    pub error: Option<String>,
    /// Redirect hops followed, in order.
    pub redirects: Vec<String>,
    /// Sequence number of the exported record, if one was made.
    pub record: Option<u64>,
    /// The final response's `Content-Type`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content_type: Option<String>,
    /// The final response's `Content-Length`, as declared.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content_length: Option<u64>,
    /// The final response's `Last-Modified`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub last_modified: Option<String>,
    /// The final response's `ETag`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub etag: Option<String>,
    /// Topic relevance of the main text, when the crawl is focused.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub relevance: Option<f32>,
    /// Whether that relevance reached the focus threshold.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub relevant: Option<bool>,
    /// When the URL is due to be visited again (seconds since the epoch).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub next_visit: Option<u64>,
    /// When a hub last said the page changed while its visit was queued or
    /// under way (seconds since the epoch): if that visit fetched it before
    /// then, another follows at once.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub changed_at: Option<u64>,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Record {
        Record {
            algorithm: "auto".into(),
            author: None,
            canonical: None,
            content_hash: "0123456789abcdef".into(),
            date: Some("2024-05-01".into()),
            date_published: None,
            date_modified: None,
            date_kind: None,
            depth: 1,
            description: None,
            duplicate_of: None,
            extractor: None,
            fetched_at: 1_700_000_000,
            fields: None,
            final_url: "http://a.test/x".into(),
            html: None,
            language: Some("en".into()),
            links: None,
            markdown: "Body".into(),
            previous: None,
            page_type: PageType::Article,
            product: None,
            relevance: None,
            rendered: None,
            seq: 7,
            site_name: None,
            status: 200,
            template: None,
            template_match: None,
            template_version: None,
            text: "Body".into(),
            text_source: None,
            title: Some("T".into()),
            kind: None,
            url: "http://a.test/x".into(),
            version: None,
            warc: None,
        }
    }

    #[test]
    fn durations_read_like_people_write_them() {
        assert_eq!(parse_duration("90s"), Ok(90));
        assert_eq!(parse_duration("15m"), Ok(900));
        assert_eq!(parse_duration("1h"), Ok(3600));
        assert_eq!(parse_duration("2d"), Ok(172_800));
        assert_eq!(parse_duration("1w"), Ok(604_800));
        assert_eq!(parse_duration("45"), Ok(45));
        assert_eq!(parse_duration("never"), Ok(0));
        assert!(parse_duration("1y").is_err());
        assert!(parse_duration("h").is_err());
        assert!(parse_duration("-5m").is_err());
        assert!(parse_duration("400d")
            .unwrap_err()
            .contains("longer than a year"));
    }

    #[test]
    fn iso_times() {
        assert_eq!(iso_time(0), "1970-01-01T00:00:00Z");
        assert_eq!(iso_time(1_795_571_284), "2026-11-25T01:48:04Z");
        assert_eq!(iso_time(951_782_400), "2000-02-29T00:00:00Z");
    }

    #[test]
    fn keys_are_written_in_sorted_order() {
        // Byte-identical to the JSON map records were written as before.
        let line = serde_json::to_string(&sample()).expect("json");
        let value: serde_json::Value = serde_json::from_str(&line).expect("parse");
        assert_eq!(serde_json::to_string(&value).expect("json"), line);
    }

    #[test]
    fn product_fields_round_trip() {
        let mut r = sample();
        r.kind = Some(RecordKind::Product);
        r.fields = Some(BTreeMap::from([("price".into(), vec!["$4".into()])]));
        r.template = Some("a.test#0".into());
        r.template_match = Some(f64::from(0.9f32));
        r.template_version = Some(2);
        let line = serde_json::to_string(&r).expect("json");
        assert!(line.contains(r#""type":"product""#), "{line}");
        let back: Record = serde_json::from_str(&line).expect("parse");
        assert_eq!(back, r);
        let value: serde_json::Value = serde_json::from_str(&line).expect("parse");
        assert_eq!(serde_json::to_string(&value).expect("json"), line);
    }

    #[test]
    fn outcome_kinds_are_snake_case_and_old_outcomes_read() {
        assert_eq!(
            serde_json::to_string(&Outcome::RobotsDenied).expect("json"),
            r#""robots_denied""#
        );
        // An outcome as stores wrote it before the `outcome` key existed.
        let old: PageOutcome = serde_json::from_str(
            r#"{"url":"http://a.test/","final_url":null,"status":200,"fetched_at":1,"bytes":9,
                "content_hash":null,"error":null,"redirects":[],"record":3}"#,
        )
        .expect("parse");
        assert_eq!(old.outcome, Outcome::Unknown);
    }
}
