//! Page metadata: title, author, published date, canonical URL, description,
//! site name and language. Sources in order of trust: JSON-LD, OpenGraph,
//! other `<meta>` tags, then the visible page (`<h1>`, `<time>`, bylines).

use serde_json::Value;

use crate::extract::bylines;
use crate::extract::dates::{self, Order};
use crate::extract::values::clean;
use crate::html::{Doc, NodeId, Tag};

/// Metadata of one page.
#[derive(Debug, Default, Clone)]
pub(crate) struct Meta {
    pub title: Option<String>,
    pub author: Option<String>,
    /// The recorded publication date (JSON-LD, `<meta>`).
    pub date: Option<String>,
    /// The recorded update date (JSON-LD `dateModified`, `<meta>`).
    pub date_modified: Option<String>,
    pub canonical: Option<String>,
    pub description: Option<String>,
    pub site_name: Option<String>,
    pub html_lang: Option<String>,
    /// Every `@type` found in JSON-LD, lower-cased.
    pub ld_types: Vec<String>,
    /// `og:type`, lower-cased.
    pub og_type: Option<String>,
    /// The `description` of a JSON-LD `Product`: the seller's own text, for
    /// product pages whose visible description is drawn by scripts.
    pub product_description: Option<String>,
    /// Buy boxes outside the page's chrome, enabled and greyed out:
    /// counted once, when first asked (typing and the test for a browser
    /// both ask; `shop::buy_boxes`).
    pub cart_buttons: std::sync::OnceLock<(usize, usize)>,
}

/// Flattens JSON-LD documents (arrays, `@graph`) into their objects.
pub(crate) fn ld_objects(doc: &Doc) -> Vec<Value> {
    let mut out = Vec::new();
    for raw in &doc.meta.json_ld {
        let Some(v) = crate::extract::json_ld::value(raw) else {
            continue;
        };
        let mut stack = vec![v];
        while let Some(v) = stack.pop() {
            match v {
                Value::Array(items) => stack.extend(items),
                Value::Object(mut map) => {
                    if let Some(g) = map.remove("@graph") {
                        stack.push(g);
                    }
                    // A `WebPage` whose main entity is the article or thread.
                    if let Some(e) = map.get("mainEntity").filter(|e| e.is_object()) {
                        stack.push(e.clone());
                    }
                    out.push(Value::Object(map));
                }
                _ => {}
            }
        }
    }
    out
}

fn types(v: &Value) -> Vec<String> {
    match v.get("@type") {
        Some(Value::String(s)) => vec![s.to_ascii_lowercase()],
        Some(Value::Array(a)) => a
            .iter()
            .filter_map(Value::as_str)
            .map(str::to_ascii_lowercase)
            .collect(),
        _ => Vec::new(),
    }
}

fn name_of(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => clean(s),
        Value::Object(m) => m.get("name").and_then(name_of),
        Value::Array(a) => {
            let names: Vec<String> = a.iter().filter_map(name_of).collect();
            (!names.is_empty()).then(|| names.join(", "))
        }
        _ => None,
    }
}

const ARTICLE_TYPES: &[&str] = &[
    "article",
    "newsarticle",
    "blogposting",
    "report",
    "techarticle",
    "scholarlyarticle",
    "webpage",
    "discussionforumposting",
    "posting",
    "liveblogposting",
    "qapage",
    "howto",
    "recipe",
    "product",
];

pub(crate) fn meta_get<'a>(doc: &'a Doc, keys: &[&str]) -> Option<&'a str> {
    keys.iter().find_map(|k| {
        doc.meta
            .metas
            .iter()
            .find(|(name, v)| name == k && !v.trim().is_empty())
            .map(|(_, v)| v.as_str())
    })
}

/// `<meta>` names and properties that give a page's publication date.
pub(crate) const DATE_KEYS: &[&str] = &[
    "article:published_time",
    "og:published_time",
    "datepublished",
    "date",
    "pubdate",
    "publishdate",
    "dc.date",
    "dc.date.issued",
    "sailthru.date",
    "parsely-pub-date",
];

/// `<meta>` names and properties that give a page's last update.
const MODIFIED_KEYS: &[&str] = &[
    "article:modified_time",
    "og:updated_time",
    "datemodified",
    "dcterms.modified",
    "dc.date.modified",
    "last-modified",
    "lastmod",
];

/// Whether a `<meta>` name (or property) means the publication date, as a
/// family of names rather than a list of sites' ("published_on",
/// "publish-date", "publication_date", "dc.date.issued", "pub_date",
/// "release_date"): a word of publishing or issue, and no word of an update,
/// an expiry or an event.
fn names_publication(key: &str) -> bool {
    let k = key.to_ascii_lowercase();
    let publishing = holds_any(
        &k,
        &[
            "publi", "pubdate", "pub_date", "pub-date", "issued", "release",
        ],
    );
    let other = holds_any(
        &k,
        &[
            "modif", "updat", "expir", "revis", "event", "start", "end", "valid", "embargo",
        ],
    );
    let a_date = k == "published" || holds_any(&k, &["date", "time", "_on", "-on", "issued"]);
    publishing && a_date && !other
}

/// Whether `key` holds any of `words`.
fn holds_any(key: &str, words: &[&str]) -> bool {
    words.iter().any(|w| key.contains(w))
}

/// The first `<meta>` whose name the family `names` holds, as a date.
fn meta_family(doc: &Doc, names: fn(&str) -> bool, order: Order) -> Option<String> {
    doc.meta
        .metas
        .iter()
        .find_map(|(k, v)| names(k).then(|| normalize_date_in(v, order)).flatten())
}

/// `v` with each node that only refers to another (`{"@id": …}`, as
/// Yoast's graphs name an article's author) replaced by the node of the
/// page's JSON-LD that carries that `@id`.
fn referenced(v: &Value, ld: &[Value]) -> Value {
    match v {
        Value::Object(m) if !m.contains_key("name") => m
            .get("@id")
            .and_then(Value::as_str)
            .and_then(|id| {
                ld.iter().find(|o| {
                    o.get("@id").and_then(Value::as_str) == Some(id) && o.get("name").is_some()
                })
            })
            .unwrap_or(v)
            .clone(),
        Value::Array(items) => Value::Array(items.iter().map(|i| referenced(i, ld)).collect()),
        _ => v.clone(),
    }
}

/// Whether a `<meta>` name (or property, or itemprop) means the last
/// update, as a family ("last-updated", "dateUpdate", "revised_on"): a word
/// of an update and of a date, no word of publishing, expiry or an event.
fn names_update(key: &str) -> bool {
    let k = key.to_ascii_lowercase();
    let update = holds_any(&k, &["modif", "updat", "revis"]);
    let other = holds_any(
        &k,
        &[
            "publi", "expir", "event", "start", "end", "valid", "embargo", "next",
        ],
    );
    // ("update" holds "date": the date word is looked for beside it.)
    let rest = k.replace("update", "");
    let a_date = k.ends_with("updated")
        || k.ends_with("modified")
        || holds_any(&rest, &["date", "time", "_on", "-on", "_at", "-at"]);
    update && a_date && !other
}

/// The page's canonical URL (`<link rel=canonical>`), else its `og:url`.
pub(crate) fn canonical(doc: &Doc) -> Option<&str> {
    doc.meta
        .links
        .iter()
        .find(|(rel, _)| rel.split_whitespace().any(|r| r == "canonical"))
        .map(|(_, h)| h.trim())
        .or_else(|| meta_get(doc, &["og:url"]))
}

/// Collects all metadata of a page.
pub(crate) fn collect(doc: &Doc) -> Meta {
    let ld = ld_objects(doc);
    let mut m = Meta {
        html_lang: doc.meta.lang.clone(),
        ..Meta::default()
    };
    for obj in &ld {
        m.ld_types.extend(types(obj));
    }
    let main_ld = ld
        .iter()
        .find(|o| {
            types(o)
                .iter()
                .any(|t| ARTICLE_TYPES.contains(&t.as_str()) && t != "webpage")
        })
        .or_else(|| ld.iter().find(|o| types(o).iter().any(|t| t == "webpage")));
    let ld_str = |key: &str| main_ld.and_then(|o| o.get(key)).and_then(name_of);

    m.title = ld_str("headline")
        .or_else(|| ld_str("name"))
        .or_else(|| meta_get(doc, &["og:title", "twitter:title"]).and_then(clean))
        .or_else(|| doc.meta.title.as_deref().and_then(clean))
        .or_else(|| first_text(doc, Tag::H1));
    let order = Order::of_lang(m.html_lang.as_deref());
    m.date = ld_str("datePublished")
        .or_else(|| ld_str("dateCreated"))
        .and_then(|d| normalize_date(&d))
        .or_else(|| meta_get(doc, DATE_KEYS).and_then(|d| normalize_date_in(d, order)))
        // Other names a site's software gives it ("published_on",
        // "w-published-date", "citation_publication_date").
        .or_else(|| meta_family(doc, names_publication, order))
        .or_else(|| microdata_date(doc, &["datepublished", "datecreated"]));
    m.date_modified = ld_str("dateModified")
        .and_then(|d| normalize_date(&d))
        .or_else(|| meta_get(doc, MODIFIED_KEYS).and_then(|d| normalize_date_in(d, order)))
        // Other names of the update ("last-updated", "dateUpdate").
        .or_else(|| meta_family(doc, names_update, order))
        .or_else(|| microdata_date(doc, &["datemodified"]));
    m.canonical = canonical(doc).map(str::to_string);
    m.description = meta_get(
        doc,
        &["og:description", "description", "twitter:description"],
    )
    .and_then(clean)
    .or_else(|| ld_str("description"));
    m.site_name = meta_get(doc, &["og:site_name", "application-name"])
        .and_then(clean)
        .or_else(|| main_ld.and_then(|o| o.get("publisher")).and_then(name_of));
    let ld_author = main_ld
        .and_then(|o| o.get("author").or_else(|| o.get("creator")))
        .map(|a| referenced(a, &ld));
    m.author = bylines::author(
        doc,
        ld_author.as_ref(),
        meta_get(
            doc,
            &[
                "author",
                "article:author",
                "dc.creator",
                "parsely-author",
                "sailthru.author",
            ],
        ),
        m.site_name.as_deref(),
        m.html_lang.as_deref(),
    );
    m.og_type = meta_get(doc, &["og:type"]).map(str::to_ascii_lowercase);
    m.product_description = ld
        .iter()
        .filter(|o| {
            types(o)
                .iter()
                .any(|t| t == "product" || t == "productgroup")
        })
        .find_map(|o| o.get("description").and_then(Value::as_str).and_then(clean));
    m
}

/// Separators between a page's title and its site's name ("Title | Site",
/// "Site - Title").
const TITLE_SEPARATORS: &[&str] = &[" | ", " - ", " – ", " — ", " · ", " :: ", " » ", " / "];

/// The host's first label past "www." ("example" of
/// `https://www.example.co.uk/x`), lower-cased: how a site names itself
/// when its pages give no `og:site_name`.
pub(crate) fn host_label(url: &str) -> Option<String> {
    let (_, rest) = url.split_once("://")?;
    let host = rest.split(['/', ':', '?', '#']).next().unwrap_or("");
    let host = host.rsplit('@').next().unwrap_or(host).to_lowercase();
    let host = host.trim_start_matches("www.");
    let label = host.split('.').next().unwrap_or(host);
    (!label.is_empty()).then(|| label.to_string())
}

/// Lower-cased letters and digits, one space between words.
fn words_of(s: &str) -> String {
    s.to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Words at least in a title's first part for it to be the headline when
/// a shorter tail follows a separator ([`record_title`]).
const HEADLINE_WORDS: usize = 3;
/// Words at most in that tail.
const TAIL_WORDS: usize = 6;

/// The record's title: the page's headline. The first `<h1>` when the
/// recorded titles (JSON-LD headline, og:title, `<title>`) hold it, since
/// they add the site's name (" | Site") or a tagline around it; else the
/// recorded title with a part that names the site (its `og:site_name`, its
/// host) cut off, else its first part when a shorter tail follows a
/// separator. An `<h1>` that is only the site's name (a logo) is not
/// taken.
pub(crate) fn record_title(doc: &Doc, meta: &Meta, url: Option<&str>) -> Option<String> {
    let title = meta.title.clone()?;
    let site = meta.site_name.as_deref().map(words_of);
    let host = url.and_then(host_label).map(|h| words_of(&h));
    let names_site = |part: &str| {
        let w = words_of(part);
        !w.is_empty()
            && (site.as_deref() == Some(w.as_str())
                || host
                    .as_deref()
                    .is_some_and(|h| w.replace(' ', "") == h.replace(' ', "")))
    };
    let recorded: Vec<String> = [
        meta.title.clone(),
        meta_get(doc, &["og:title", "twitter:title"]).and_then(clean),
        doc.meta.title.as_deref().and_then(clean),
    ]
    .into_iter()
    .flatten()
    .collect();
    if let Some(h1) = first_text(doc, Tag::H1).filter(|h| h.split_whitespace().count() <= 30) {
        let w = words_of(&h1);
        let last_part = |t: &str| {
            TITLE_SEPARATORS
                .iter()
                .filter_map(|sep| t.rsplit_once(sep).map(|(_, last)| words_of(last)))
                .any(|last| last == w)
        };
        let held = recorded
            .iter()
            .any(|t| words_of(t).contains(&w) && !last_part(t));
        if !w.is_empty() && held && !names_site(&h1) {
            return Some(h1);
        }
    }
    // Cut a part naming the site off the title.
    for sep in TITLE_SEPARATORS {
        if let Some((head, last)) = title.rsplit_once(sep) {
            if names_site(last) && !head.trim().is_empty() {
                return Some(head.trim().to_string());
            }
        }
        if let Some((first, rest)) = title.split_once(sep) {
            if names_site(first) && !rest.trim().is_empty() {
                return Some(rest.trim().to_string());
            }
        }
    }
    // A headline and a shorter tail after a separator ("Muffin Grundrezept
    // | Rezepte", "Faire Lieferketten - Jugendwerk (ejw) - EJW"): the tail
    // names the site or its section, whatever the site calls itself.
    // trafilatura-eval title 0.801 -> 0.808, wcxb-dev 0.751 -> 0.770; alike
    // for 2 to 4 words of headline and 4 to 8 of tail, bars alone or dashes.
    // A tail as long as the headline stays ("Laptop vs. Desktop - Which
    // Uses More?"; taking it too: 0.809 and 0.774).
    // Not inside brackets ("Storm Prey (Audio CD - Unabridged)"), and not
    // in a script written without spaces, whose words cannot be counted so.
    if title.chars().any(crate::extract::credits::han) {
        return Some(title);
    }
    for sep in TITLE_SEPARATORS {
        if let Some((first, rest)) = title.split_once(sep) {
            let (fw, rw) = (
                first.split_whitespace().count(),
                rest.split_whitespace().count(),
            );
            let open = first.matches(['(', '[']).count() > first.matches([')', ']']).count();
            if fw >= HEADLINE_WORDS && rw <= TAIL_WORDS && fw > rw && !open {
                return Some(first.trim().to_string());
            }
        }
    }
    Some(title)
}

fn first_text(doc: &Doc, tag: Tag) -> Option<String> {
    let id = doc.nodes.iter().position(|n| n.tag == tag)?;
    clean(&doc.plain_text(id as NodeId))
}

/// The first date of the body's microdata with one of `props` (lower
/// case): `<time itemprop="dateCreated" datetime="…">` under a question,
/// `<meta itemprop="datePublished" content="…">` in an article.
fn microdata_date(doc: &Doc, props: &[&str]) -> Option<String> {
    let body = doc.body();
    let end = doc.end(body);
    let structured = doc.structured();
    let from = structured.partition_point(|&id| id < body);
    structured[from..]
        .iter()
        .take_while(|&&id| id < end)
        .find_map(|&id| {
            // Microdata's itemprop, or RDFa's property ("schema:dateCreated").
            let prop = doc.attr(id, "itemprop").or_else(|| {
                doc.attr(id, "property")
                    .map(|p| p.rsplit([':', '/']).next().unwrap_or(p))
            })?;
            if !props.iter().any(|p| prop.eq_ignore_ascii_case(p)) {
                return None;
            }
            let value = doc
                .attr(id, "datetime")
                .or_else(|| doc.attr(id, "content"))?;
            normalize_date(value)
        })
}

/// The first `<time datetime>` outside a quotation
/// ([`crate::extract::dates::quoted`]): it holds another's words and their
/// date (an embedded social post's).
pub(crate) fn time_element(doc: &Doc) -> Option<String> {
    doc.nodes
        .iter()
        .enumerate()
        .filter(|(_, n)| n.tag == Tag::Time)
        .filter(|&(i, _)| !crate::extract::dates::quoted(doc, i as NodeId))
        .find_map(|(i, _)| doc.attr(i as NodeId, "datetime").map(str::to_string))
}

const MONTHS: [&str; 12] = [
    "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
];

/// Normalises a date to ISO 8601: keeps `YYYY-MM-DD[Thh:mm[:ss][zone]]` as is
/// and converts "March 5, 2024", "5 March 2024", "2024/03/05".
pub fn normalize_date(raw: &str) -> Option<String> {
    let s = raw.trim();
    let b = s.as_bytes();
    let digits = |r: std::ops::Range<usize>| {
        b.get(r.clone())
            .is_some_and(|x| x.iter().all(u8::is_ascii_digit))
    };
    if digits(0..4)
        && matches!(b.get(4), Some(b'-' | b'/' | b'.'))
        && digits(5..7)
        && b.get(7) == b.get(4)
        && digits(8..10)
    {
        let date = format!("{}-{}-{}", &s[0..4], &s[5..7], &s[8..10]);
        if b.get(10) == Some(&b'T') && s.len() > 11 {
            let rest: String = s[10..].chars().take_while(|c| !c.is_whitespace()).collect();
            return Some(format!("{date}{rest}"));
        }
        return Some(date);
    }
    // Word dates.
    let lower = s.to_ascii_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| c.is_whitespace() || c == ',' || c == '.')
        .filter(|w| !w.is_empty())
        .collect();
    let month = words
        .iter()
        .position(|w| w.len() >= 3 && MONTHS.iter().any(|m| w.starts_with(m)))?;
    let m = MONTHS.iter().position(|mm| words[month].starts_with(mm))? + 1;
    let num = |w: &str| {
        w.trim_end_matches(|c: char| c.is_ascii_alphabetic())
            .parse::<u32>()
            .ok()
    };
    let year = words
        .iter()
        .filter_map(|w| num(w))
        .find(|&n| (1900..2200).contains(&n))?;
    let day = words
        .iter()
        .filter_map(|w| num(w))
        .find(|&n| (1..=31).contains(&n))?;
    Some(format!("{year:04}-{m:02}-{day:02}"))
}

/// [`normalize_date`], and numeric dates such as `Thu, 09/25/2025 - 11:38`
/// read in the page's `order`.
fn normalize_date_in(raw: &str, order: Order) -> Option<String> {
    normalize_date(raw).or_else(|| dates::find(raw, order).first().map(|f| f.day.iso()))
}

/// ISO 639-1 for whatlang's ISO 639-3 codes (the 3-letter code where 639-1
/// has none).
fn iso639_1(code: &'static str) -> &'static str {
    match code {
        "epo" => "eo",
        "eng" => "en",
        "rus" => "ru",
        "cmn" => "zh",
        "spa" => "es",
        "por" => "pt",
        "ita" => "it",
        "ben" => "bn",
        "fra" => "fr",
        "deu" => "de",
        "ukr" => "uk",
        "kat" => "ka",
        "ara" => "ar",
        "hin" => "hi",
        "jpn" => "ja",
        "heb" => "he",
        "yid" => "yi",
        "pol" => "pl",
        "amh" => "am",
        "jav" => "jv",
        "kor" => "ko",
        "nob" => "nb",
        "dan" => "da",
        "swe" => "sv",
        "fin" => "fi",
        "tur" => "tr",
        "nld" => "nl",
        "hun" => "hu",
        "ces" => "cs",
        "ell" => "el",
        "bul" => "bg",
        "bel" => "be",
        "mar" => "mr",
        "kan" => "kn",
        "ron" => "ro",
        "slv" => "sl",
        "hrv" => "hr",
        "srp" => "sr",
        "mkd" => "mk",
        "lit" => "lt",
        "lav" => "lv",
        "est" => "et",
        "tam" => "ta",
        "vie" => "vi",
        "urd" => "ur",
        "tha" => "th",
        "guj" => "gu",
        "uzb" => "uz",
        "pan" => "pa",
        "aze" => "az",
        "ind" => "id",
        "tel" => "te",
        "pes" => "fa",
        "mal" => "ml",
        "ori" => "or",
        "mya" => "my",
        "nep" => "ne",
        "sin" => "si",
        "khm" => "km",
        "tuk" => "tk",
        "aka" => "ak",
        "zul" => "zu",
        "sna" => "sn",
        "afr" => "af",
        "lat" => "la",
        "slk" => "sk",
        "cat" => "ca",
        "tgl" => "tl",
        "hye" => "hy",
        other => other,
    }
}

/// Language of the extracted text (ISO 639-1 from whatlang), falling back to
/// the page's `lang` attribute when the text is too short to tell.
pub(crate) fn language(text: &str, html_lang: Option<&str>) -> Option<String> {
    // The first 2,000 characters, borrowed (they were copied one by one).
    let end = text.char_indices().nth(2000).map_or(text.len(), |(i, _)| i);
    let sample = &text[..end];
    match whatlang::detect(sample) {
        Some(info) if info.is_reliable() || sample.chars().count() > 200 => {
            Some(iso639_1(info.lang().code()).to_string())
        }
        _ => html_lang
            .map(|l| l.split(['-', '_']).next().unwrap_or(l).to_ascii_lowercase())
            .filter(|l| !l.is_empty()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_author_named_by_reference_in_the_graph() {
        // Yoast's graph: the article names its author by `@id` only.
        let doc = Doc::parse_str(
            r#"<html><head><script type="application/ld+json">{"@context":"https://schema.org","@graph":[
            {"@type":"Article","headline":"Solopreneur","author":{"@id":"https://a.test/#/schema/person/1"}},
            {"@type":"Person","@id":"https://a.test/#/schema/person/1","name":"Doris Schuppe"}]}</script></head>
            <body><h1>Solopreneur</h1><p>Story.</p></body></html>"#,
        );
        assert_eq!(collect(&doc).author.as_deref(), Some("Doris Schuppe"));
        // A reference to nothing on the page names no one.
        let doc = Doc::parse_str(
            r#"<html><head><script type="application/ld+json">{"@type":"Article","headline":"H",
            "author":{"@id":"https://a.test/#/schema/person/9"}}</script></head><body><h1>H</h1></body></html>"#,
        );
        assert_eq!(collect(&doc).author, None);
    }

    #[test]
    fn json_ld_beats_opengraph_beats_title() {
        let doc = Doc::parse_str(
            r#"<html><head><title>Page title</title><meta property="og:title" content="OG title">
            <script type="application/ld+json">{"@context":"https://schema.org","@graph":[{"@type":"NewsArticle",
            "headline":"LD headline","author":[{"@type":"Person","name":"Ann Lee"}],"datePublished":"2024-03-05T10:00:00Z"}]}</script>
            <link rel="canonical" href="https://example.org/a"></head><body><h1>H1</h1></body></html>"#,
        );
        let m = collect(&doc);
        assert_eq!(m.title.as_deref(), Some("LD headline"));
        assert_eq!(m.author.as_deref(), Some("Ann Lee"));
        assert_eq!(m.date.as_deref(), Some("2024-03-05T10:00:00Z"));
        assert_eq!(m.canonical.as_deref(), Some("https://example.org/a"));
        assert!(m.ld_types.contains(&"newsarticle".to_string()));
    }

    #[test]
    fn product_description_from_json_ld() {
        let doc = Doc::parse_str(
            r#"<html><head><script type="application/ld+json">[{"@type":"Organization","description":"We roast."},
            {"@type":"Product","name":"Coffee","description":"Dark roast &amp; bold."}]</script></head><body></body></html>"#,
        );
        let m = collect(&doc);
        assert_eq!(m.product_description.as_deref(), Some("Dark roast & bold."));
    }

    #[test]
    fn visible_fallbacks() {
        let doc = Doc::parse_str(
            r#"<body><h1>Visible</h1><span class="byline">By Jo Ray</span><time datetime="2023-11-02">Nov 2</time></body>"#,
        );
        let m = collect(&doc);
        assert_eq!(m.title.as_deref(), Some("Visible"));
        assert_eq!(m.author.as_deref(), Some("Jo Ray"));
        assert_eq!(m.date, None, "nothing recorded");
    }

    #[test]
    fn the_record_title_is_the_headline_without_the_sites_name() {
        let title = |head: &str, body: &str, url: Option<&str>| {
            let doc = Doc::parse_str(&format!(
                "<html><head>{head}</head><body>{body}</body></html>"
            ));
            record_title(&doc, &collect(&doc), url)
        };
        // The <h1> the <title> holds.
        assert_eq!(
            title(
                "<title>Machine learning, explained | MIT Sloan</title>",
                "<h1>Machine learning, explained</h1>",
                None
            )
            .as_deref(),
            Some("Machine learning, explained")
        );
        // A logo <h1> that is the title's last part is not the headline;
        // the part naming the site (og:site_name) is cut off.
        assert_eq!(
            title(
                r#"<title>iPhone Parts | iFixit</title><meta property="og:site_name" content="iFixit">"#,
                "<h1>iFixit</h1>",
                None
            )
            .as_deref(),
            Some("iPhone Parts")
        );
        // The host's name, first or last.
        assert_eq!(
            title(
                "<title>Podium - 7 Plumbing Trends</title>",
                "",
                Some("https://www.podium.com/blog/trends")
            )
            .as_deref(),
            Some("7 Plumbing Trends")
        );
        // A shorter tail after the headline names the site or its section.
        assert_eq!(
            title(
                "<title>Was ist Virales Marketing? | DimidoBlog</title>",
                "",
                Some("https://web.archive.test/2014/dimido.de/marketing")
            )
            .as_deref(),
            Some("Was ist Virales Marketing?")
        );
        assert_eq!(
            title(
                "<title>Faire Lieferketten für alle Kinder - Jugendwerk - EJW</title>",
                "",
                None
            )
            .as_deref(),
            Some("Faire Lieferketten für alle Kinder")
        );
        // Not inside brackets, not in Chinese (no spaces to count words by).
        for t in [
            "Storm Prey by John Sandford (Audio Compact Disc - Unabridged): Books",
            "Joel on Software - 给计算机系学生的建议",
        ] {
            let html = format!("<title>{t}</title>");
            assert_eq!(title(&html, "", None).as_deref(), Some(t));
        }
        // A separator inside the headline stays.
        assert_eq!(
            title(
                "<title>Laptop vs. Desktop - Which Uses More?</title>",
                "",
                None
            )
            .as_deref(),
            Some("Laptop vs. Desktop - Which Uses More?")
        );
        // A JSON-LD headline that is a paragraph gives way to the <h1>
        // the other titles agree on.
        assert_eq!(
            title(
                r#"<title>Bake bread at home | Kitchen</title><script type="application/ld+json">{"@type":"Article","headline":"In this guide we walk through every step of baking a loaf at home, from starter to crust."}</script>"#,
                "<h1>Bake bread at home</h1>",
                None
            )
            .as_deref(),
            Some("Bake bread at home")
        );
    }

    #[test]
    fn entities_in_values_are_decoded() {
        assert_eq!(
            clean("Tom &amp; Jerry&#39;s &#x2019;x&#8217; &bogus; a&b").as_deref(),
            Some("Tom & Jerry's ’x’ &bogus; a&b")
        );
    }

    /// Issue 60's classes, each in more than one language: what `date` is
    /// when a page gives its publication and its update, dates after the
    /// fetch, two-digit years, meta names of the publication, RDFa.
    #[test]
    fn dates() {
        assert_eq!(
            normalize_date("March 5, 2024").as_deref(),
            Some("2024-03-05")
        );
        assert_eq!(
            normalize_date("5th Sept 2021").as_deref(),
            Some("2021-09-05")
        );
        assert_eq!(normalize_date("2020/01/31").as_deref(), Some("2020-01-31"));
        assert_eq!(normalize_date("yesterday"), None);
    }

    #[test]
    fn language_detection() {
        let en = "This is plainly an English sentence about the weather and the news of the day.";
        assert_eq!(language(en, None).as_deref(), Some("en"));
        assert_eq!(language("ok", Some("de-DE")).as_deref(), Some("de"));
    }
}
