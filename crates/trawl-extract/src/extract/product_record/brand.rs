//! The brand a product page shows, for pages whose markup names none.
//!
//! Shops show a brand in a few ways, strongest first:
//! - a specification row whose label means brand or maker, in any of the
//!   languages below ("Brand", "Marke", "Marque", "品牌"), or a short
//!   labelled line ("Brand: Acme");
//! - a short element named for it (`class="product-brand"`,
//!   `product__vendor`) near the product's heading, outside the page's
//!   chrome and the blocks beside the product;
//! - the heading's first piece as a link (`<h1><a>Acme</a> Kettle</h1>`): the
//!   brand's page;
//! - a marketplace's "Visit the Acme Store" link.
//!
//! A shop's own name is the brand only when the product's name or the
//! page's title opens with it and goes on ("iFixit Pro Tech Toolkit" on
//! ifixit.com, "Solo Stove Bonfire" where `og:site_name` is "Solo Stove"):
//! a retailer does not open the names of what it sells with its own, and a
//! title that opens with the site's name and then a separator ("Acme |
//! Kettle") is the site's, not the product's.

use std::sync::OnceLock;

use crate::extract::shop::visible::{clean, in_chrome};
use crate::html::{Doc, Kind, NodeId, Tag};

/// Labels of a brand or maker row, lower-cased, without the colon.
const LABELS: &[&str] = &[
    "brand",
    "brand name",
    "manufacturer",
    "manufactured by",
    "maker",
    "marke",
    "hersteller",
    "marque",
    "fabricant",
    "marca",
    "fabricante",
    "merk",
    "fabrikant",
    "marchio",
    "produttore",
    "märke",
    "varumärke",
    "tillverkare",
    "merke",
    "mærke",
    "producent",
    "marka",
    "valmistaja",
    "бренд",
    "производитель",
    "品牌",
    "牌子",
    "ブランド",
    "メーカー",
    "브랜드",
    "제조사",
    "značka",
    "výrobce",
    "výrobca",
    "proizvođač",
    "proizvajalec",
    "márka",
    "gyártó",
    "producător",
    "üretici",
    "марка",
    "виробник",
    "μάρκα",
    "κατασκευαστής",
    "merek",
    "thương hiệu",
    "ยี่ห้อ",
    "แบรนด์",
    "廠牌",
    "制造商",
    "製造商",
    "מותג",
    "יצרן",
    "الماركة",
    "العلامة التجارية",
    "الشركة المصنعة",
];

/// Most characters (and words) of a brand.
const MAX_CHARS: usize = 40;
const MAX_WORDS: usize = 5;
/// How far (visible characters) from the heading a named element may be.
const NEAR_HEADING: u64 = 600;

pub(super) fn is_label(label: &str) -> bool {
    // The longest label is 31 bytes ("العلامة التجارية"): most texts stop here.
    let l = label.trim();
    if l.len() > 32 {
        return false;
    }
    let l = l.trim_end_matches([':', '：']).trim_end();
    let labels = labels();
    // Most texts open with a byte no label opens with.
    if !l
        .as_bytes()
        .first()
        .is_some_and(|&b| labels.first_bytes[usize::from(b.to_ascii_lowercase())])
    {
        return false;
    }
    if l.is_ascii() {
        // Lower-cased on the stack: no string is built for most texts.
        let mut buf = [0u8; 32];
        let low = &mut buf[..l.len()];
        low.copy_from_slice(l.as_bytes());
        low.make_ascii_lowercase();
        std::str::from_utf8(low).is_ok_and(|low| labels.sorted.binary_search(&low).is_ok())
    } else {
        labels
            .sorted
            .binary_search(&l.to_lowercase().as_str())
            .is_ok()
    }
}

/// [`LABELS`] sorted for a binary search, and the bytes they open with.
struct Labels {
    sorted: Vec<&'static str>,
    first_bytes: [bool; 256],
}

fn labels() -> &'static Labels {
    static LABELS_READ: OnceLock<Labels> = OnceLock::new();
    LABELS_READ.get_or_init(|| {
        let mut sorted = LABELS.to_vec();
        sorted.sort_unstable();
        let mut first_bytes = [false; 256];
        // A label as listed and in capitals (`Б`, `Č` may open it).
        for l in &sorted {
            for b in [l.as_bytes().first(), l.to_uppercase().as_bytes().first()]
                .into_iter()
                .flatten()
            {
                first_bytes[usize::from(*b)] = true;
            }
        }
        Labels {
            sorted,
            first_bytes,
        }
    })
}

/// A brand-like value: short, a few words, some letters.
pub(super) fn plausible(value: &str) -> Option<String> {
    let v = value.trim().trim_start_matches([':', '：']).trim();
    let ok = !v.is_empty()
        && v.chars().count() <= MAX_CHARS
        && v.split_whitespace().count() <= MAX_WORDS
        && v.chars().any(char::is_alphabetic);
    ok.then(|| v.to_string())
}

/// A class or id token naming a brand or vendor block (its last part:
/// `product-brand`, `product__vendor`), not a site's logo (`navbar-brand`).
fn names_brand(names: &str) -> bool {
    // Most class lists name no brand: a cheap look before any work.
    let b = names.as_bytes();
    let may = b.windows(5).any(|w| {
        w.eq_ignore_ascii_case(b"brand")
            || w.eq_ignore_ascii_case(b"vendo")
            || w.eq_ignore_ascii_case(b"manuf")
    });
    if !may {
        return false;
    }
    names.split_ascii_whitespace().any(|token| {
        let t = token.to_ascii_lowercase();
        let last = t.rsplit(['-', '_']).next().unwrap_or_default();
        // Colour utilities name the brand's colour (`btn-solid-brand`,
        // `text-brand`), not the brand.
        let utility = [
            "btn", "button", "bg", "text", "border", "color", "fill", "hover",
        ]
        .iter()
        .any(|u| t.starts_with(u));
        // Home Depot's `product-details__brand-name`.
        (matches!(last, "brand" | "vendor" | "manufacturer" | "brandname")
            || t.ends_with("brand-name")
            || t.ends_with("brand_name"))
            && !utility
            && !t.contains("nav")
            && !t.contains("logo")
    })
}

/// The brand the page shows, if it shows one. `specs` are the page's
/// specification rows; `anchor` its product heading; `beside` and the
/// chrome are left out.
pub(super) fn shown(
    doc: &Doc,
    specs: &[(String, String)],
    anchor: Option<NodeId>,
    beside: &dyn Fn(NodeId) -> bool,
) -> Option<String> {
    if let Some(b) = specs
        .iter()
        .find(|(l, _)| is_label(l))
        .and_then(|(_, v)| plausible(v))
    {
        return Some(b);
    }
    // Visible characters before each node (for distances to the heading),
    // counted only once a candidate turns up: most pages have none.
    let before = std::cell::OnceCell::new();
    let offset = |id: NodeId| -> u64 {
        let b: &Vec<u64> = before.get_or_init(|| {
            let mut b = vec![0u64; doc.len() + 1];
            for i in 0..doc.len() {
                b[i + 1] = b[i] + u64::from(doc.nodes[i].chars);
            }
            b
        });
        b[id as usize]
    };
    // Labelled lines and named elements, the nearest to the heading first.
    let mut best: Option<(u64, String, NodeId)> = None;
    // Links to brands' pages: (distance, brand).
    let mut links: Vec<(u64, String)> = Vec::new();
    for i in 0..doc.len() {
        let id = i as NodeId;
        let chars = doc.agg[i].chars as usize;
        if doc.nodes[i].kind != Kind::Element || chars > 60 {
            continue;
        }
        // A link to the brand's own page, named by its words or its logo.
        if doc.tag(id) == Tag::A {
            if let Some(found) = brand_page_link(doc, id) {
                if !in_chrome(doc, id) && !beside(id) {
                    let d = anchor.map_or(0, |a| offset(id).abs_diff(offset(a)));
                    links.push((d, found));
                }
                continue;
            }
        }
        if chars == 0 {
            // A block named for the brand showing only its logo
            // (`<div class="manufacturer"><a><img alt="Fender"></a></div>`).
            if let Some(found) = logo_alt(doc, id) {
                if !in_chrome(doc, id) && !beside(id) {
                    let d = anchor.map_or(0, |a| offset(id).abs_diff(offset(a)));
                    links.push((d, found));
                }
            }
            continue;
        }
        let (class, ident) = doc.class_id(id);
        let named = class.is_some_and(names_brand) || ident.is_some_and(names_brand);
        // Otherwise only an element opening with a brand label or a store
        // link's words is read (its text is built only then).
        if !named && !opens_like_brand(doc, id) {
            continue;
        }
        let button = doc.tag(id) == Tag::Button || doc.attr(id, "role") == Some("button");
        if (named && button) || in_chrome(doc, id) || beside(id) {
            continue;
        }
        let text = clean(&doc.plain_text(id));
        let found = if named {
            labelled(&text).or_else(|| plausible(&text))
        } else {
            labelled(&text).or_else(|| store_link(doc, id, &text))
        };
        let Some(found) = found else { continue };
        let d = anchor.map_or(0, |a| offset(id).abs_diff(offset(a)));
        if d > NEAR_HEADING {
            continue;
        }
        // A list or a table opening with "Brand: Acme" reads on into its
        // next row; its own row, as near, says only the brand.
        let inner = |b: &(u64, String, NodeId)| d == b.0 && doc.contains(b.2, id);
        if best.as_ref().is_none_or(|b| d < b.0 || inner(b)) {
            best = Some((d, found, id));
        }
    }
    // Links to one brand's page only (a "by Acme" and Acme's logo): a menu
    // of the brands a maker owns is no product's brand.
    let one = links
        .windows(2)
        .all(|w| spell(&[&w[0].1]) == spell(&[&w[1].1]));
    if let Some(link) = links
        .into_iter()
        .filter(|l| one && l.0 <= NEAR_HEADING)
        .min()
    {
        if best.as_ref().is_none_or(|b| link.0 < b.0) {
            return Some(link.1);
        }
    }
    best.map(|b| b.1)
        .or_else(|| anchor.and_then(|h| heading_link(doc, h)))
}

/// Host labels that name no one (`shop.example.com`, `m.example.com`).
const GENERIC_HOSTS: &[&str] = &[
    "shop", "store", "stores", "secure", "online", "buy", "m", "en", "us", "uk", "de", "fr",
];

/// The site's names, compact (letters and digits, lower-cased): its
/// `og:site_name` and its host's first label.
pub(super) fn site_names(doc: &Doc, url: Option<&str>) -> Vec<String> {
    let compact = |s: &str| spell(&[s]);
    let mut names: Vec<String> = Vec::new();
    let site = crate::extract::metadata::meta_get(doc, &["og:site_name"]).map(compact);
    let host = url
        .and_then(crate::extract::metadata::host_label)
        .filter(|h| !GENERIC_HOSTS.contains(&h.as_str()))
        .map(|h| compact(&h));
    for n in [site, host].into_iter().flatten() {
        if n.chars().count() >= 3 && !names.contains(&n) {
            names.push(n);
        }
    }
    names
}

/// The shop's own brand: the first of `names` (the product's name, the
/// page's titles) whose first one to three words spell one of the site's
/// `sites` names and more words follow, not after a separator.
pub(super) fn own(names: &[&str], sites: &[String]) -> Option<String> {
    if sites.is_empty() {
        return None;
    }
    for name in names {
        let words: Vec<&str> = name.split_whitespace().collect();
        // "Acme 2025 awards - Acme": a title signed with the site's name
        // at both ends is the site speaking, not a product of its make.
        let signed = words.len() >= 2
            && words[words.len() - 2].chars().all(|c| !c.is_alphanumeric())
            && sites.contains(&spell(&words[words.len() - 1..]));
        if signed {
            continue;
        }
        for k in 1..=3.min(words.len().saturating_sub(1)) {
            let lead = &words[..k];
            if !sites.contains(&spell(lead)) {
                continue;
            }
            let next = words[k];
            let cut = |w: &str| w.ends_with([':', '|', ',', '-', '–', '—', '»', '·', '/']);
            let separator = next.chars().all(|c| !c.is_alphanumeric());
            if lead.iter().any(|w| cut(w)) || separator {
                break;
            }
            return plausible(lead.join(" ").trim_end_matches(['®', '™', '©']));
        }
    }
    None
}

/// Words as a compact name: their letters and digits, lower-cased.
pub(super) fn spell(words: &[&str]) -> String {
    words
        .iter()
        .map(|w| crate::extract::values::compact(w))
        .collect()
}

/// Whether the element's first text is a brand label ("Brand:", "Marke")
/// or opens a store link ("Visit the").
fn opens_like_brand(doc: &Doc, id: NodeId) -> bool {
    let end = doc.nodes[id as usize].end;
    let Some(first) = (id + 1..end).find(|&i| !doc.is_element(i) && !doc.text(i).trim().is_empty())
    else {
        return false;
    };
    let t = doc.text(first).trim();
    is_label(before_colon(t))
        || STORE_LINKS
            .iter()
            .any(|(open, _)| opens_with(t, open).is_some())
}

/// `t` up to its first colon (`:` or `：`). A label is at most 32 bytes,
/// so only the first bytes are searched: a longer text is no label
/// whatever follows.
fn before_colon(t: &str) -> &str {
    let window = &t.as_bytes()[..t.len().min(40)];
    let mut from = 0;
    // `：` is EF BC 9A in UTF-8.
    while let Some(at) = memchr::memchr2(b':', 0xEF, &window[from..]).map(|i| from + i) {
        if window[at] == b':' || window[at..].starts_with("：".as_bytes()) {
            return &t[..at];
        }
        from = at + 1;
    }
    t
}

/// A brand store's link as marketplaces word it, lower-cased: the words
/// before and after the brand ("Visit the Acme Store", "Shop All Acme
/// Products", "Alle Acme Produkte").
const STORE_LINKS: &[(&str, &str)] = &[
    ("visit the", "store"),
    ("shop all", "products"),
    ("see all", "products"),
    ("view all", "products"),
    ("alle", "produkte"),
];

/// The rest of `t` after the words `p` (lower-cased ASCII) in any case,
/// when `t` opens with them and they end a word ("All", not "Allen"). The
/// first byte rules out most texts before a comparison.
fn opens_with<'t>(t: &'t str, p: &str) -> Option<&'t str> {
    let first = p.as_bytes().first()?;
    if !t.as_bytes().first()?.eq_ignore_ascii_case(first) {
        return None;
    }
    let rest = t.get(p.len()..)?;
    (t[..p.len()].eq_ignore_ascii_case(p) && (rest.is_empty() || rest.starts_with(' ')))
        .then_some(rest)
}

/// Path segments under which shops keep their brands' pages
/// (`/brands/acme`, `/marken/acme`, Shopify's `/collections/vendors?q=Acme`).
const BRAND_DIRS: &[&str] = &[
    "brand",
    "brands",
    "marke",
    "marken",
    "marque",
    "marques",
    "marca",
    "marcas",
    "merk",
    "merken",
    "marchi",
    "marki",
    "vendor",
    "vendors",
    "manufacturer",
    "manufacturers",
];

/// Finds any of [`BRAND_DIRS`] in an address, case-blind, in one pass (the
/// plural forms hold the singular ones).
fn brand_dir_finder() -> &'static aho_corasick::AhoCorasick {
    static FINDER: OnceLock<aho_corasick::AhoCorasick> = OnceLock::new();
    FINDER.get_or_init(|| {
        aho_corasick::AhoCorasick::builder()
            .ascii_case_insensitive(true)
            .build(BRAND_DIRS)
            .unwrap_or_else(|e| panic!("brand directories: {e}"))
    })
}

/// A link to the brand's page (`<a href="/brands/acme">Acme</a>`, "by
/// Acme", or the brand's logo `<img alt="Acme">`): its path has a brands
/// segment, and the link's words spell the segment after it or the `q`
/// value (so "Shop all Acme" or "Brands" are not a brand).
fn brand_page_link(doc: &Doc, id: NodeId) -> Option<String> {
    let href = doc.attr(id, "href")?;
    // Most links lead elsewhere: one case-blind pass over the address
    // before any parsing (only a product page's short links get here).
    if !brand_dir_finder().is_match(href) {
        return None;
    }
    let lower = href.to_ascii_lowercase();
    let (path, query) = lower.split_once('?').unwrap_or((&lower, ""));
    let path = path.split('#').next().unwrap_or(path);
    let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    // `%XX` and `+` decoded, as in a form: the slug may be in the brand's
    // own script.
    let decoded = |s: &str| -> String {
        url::form_urlencoded::parse(format!("s={s}").as_bytes())
            .map(|(_, v)| v.into_owned())
            .next()
            .unwrap_or_default()
    };
    let slug = match segments.windows(2).find(|w| BRAND_DIRS.contains(&w[0])) {
        Some(w) => decoded(w[1].trim_end_matches(".html").trim_end_matches(".htm")),
        None => {
            let vendors = segments.last().is_some_and(|l| BRAND_DIRS.contains(l));
            let q = query.split('&').find_map(|kv| kv.strip_prefix("q="))?;
            if !vendors {
                return None;
            }
            decoded(q)
        }
    };
    let slug = crate::extract::values::compact(&slug);
    let text = if doc.agg[id as usize].chars > 0 {
        clean(&doc.plain_text(id))
    } else {
        let end = doc.end(id).min(id + 6);
        let img = (id + 1..end).find(|&n| doc.tag(n) == Tag::Img)?;
        clean(doc.attr(img, "alt")?)
    };
    let words = crate::extract::values::compact(&text);
    (words.chars().count() >= 2 && words == slug)
        .then(|| plausible(&text))
        .flatten()
}

/// Most elements of a block showing a brand's logo (the block, a link,
/// a picture and its sources).
const LOGO_BLOCK_TAGS: u32 = 5;

/// The brand a block named for it (`class="manufacturer"`) shows as its
/// one picture's `alt`, when the block has no words of its own.
fn logo_alt(doc: &Doc, id: NodeId) -> Option<String> {
    let tags = doc.agg[id as usize].tags;
    if !(2..=LOGO_BLOCK_TAGS).contains(&tags) {
        return None;
    }
    let (class, ident) = doc.class_id(id);
    if !class.is_some_and(names_brand) && !ident.is_some_and(names_brand) {
        return None;
    }
    let end = doc.nodes[id as usize].end;
    // The logo links to the brand's page: a site's own logo links home or
    // nowhere (Bootstrap's `navbar .brand`).
    let to_page = (id..end).any(|i| {
        doc.tag(i) == Tag::A
            && doc.attr(i, "href").is_some_and(|h| {
                let h = h.trim();
                !h.is_empty()
                    && h != "/"
                    && !h.starts_with(['#', '?'])
                    && !h.starts_with("javascript:")
            })
    });
    if !to_page {
        return None;
    }
    let mut imgs = (id + 1..end).filter(|&i| doc.tag(i) == Tag::Img);
    let (Some(img), None) = (imgs.next(), imgs.next()) else {
        return None;
    };
    let alt = doc.attr(img, "alt")?.trim();
    let alt = alt
        .strip_suffix(" logo")
        .or_else(|| alt.strip_suffix(" Logo"))
        .unwrap_or(alt);
    plausible(alt)
}

/// "Brand: Acme" in one short element, up to a bar that opens the line's
/// next label ("Thương hiệu: Acme | Mã sản phẩm: …").
fn labelled(text: &str) -> Option<String> {
    let (label, value) = text.split_once([':', '：'])?;
    if !is_label(label) {
        return None;
    }
    plausible(value.split(['|', '｜']).next().unwrap_or(value))
}

/// A marketplace's link to a brand's store ("Visit the Acme Store", "Shop
/// All Acme Products").
fn store_link(doc: &Doc, id: NodeId, text: &str) -> Option<String> {
    if doc.tag(id) != Tag::A {
        return None;
    }
    STORE_LINKS.iter().find_map(|(open, close)| {
        let rest = opens_with(text, open)?.strip_prefix(' ')?;
        let cut = rest.len().checked_sub(close.len() + 1)?;
        let tail = rest.get(cut..)?;
        (tail.starts_with(' ') && tail[1..].eq_ignore_ascii_case(close))
            .then(|| plausible(&rest[..cut]))
            .flatten()
    })
}

/// The heading's first piece when it is a link of its own and more follows
/// (`<h1><a>Acme</a> Kettle</h1>`, wrappers inside or around the link
/// allowed).
fn heading_link(doc: &Doc, h: NodeId) -> Option<String> {
    let end = doc.nodes[h as usize].end;
    let first_text =
        (h + 1..end).find(|&i| !doc.is_element(i) && !doc.text(i).trim().is_empty())?;
    // The text's nearest link, inside the heading.
    let mut link = doc.nodes[first_text as usize].parent;
    loop {
        if link == h || link == u32::MAX {
            return None;
        }
        if doc.tag(link) == Tag::A {
            break;
        }
        link = doc.nodes[link as usize].parent;
    }
    let all = clean(&doc.plain_text(h));
    let brand = clean(&doc.plain_text(link));
    (all.chars().count() > brand.chars().count() + 2)
        .then(|| plausible(&brand))
        .flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn brand(html: &str) -> Option<String> {
        let doc = Doc::parse_str(html);
        let specs = vec![];
        let h1 = (0..doc.len() as NodeId).find(|&i| doc.tag(i) == Tag::H1);
        shown(&doc, &specs, h1, &|_| false)
    }

    /// Issue 59: a link to the brand's own page near the heading ("by
    /// Acme", the brand's logo, Shopify's vendor link), and the heading's
    /// brand link inside wrappers (wcxb-dev 0625 read without its markup).
    #[test]
    fn a_link_to_the_brands_page_gives_the_brand() {
        let cases = [
            "<h1>Cordless Drill</h1><p>by <a href=/brand/dewalt>DEWALT</a></p><p>$129.00</p>",
            "<h1>Cordless Drill</h1><a href=/brands/dewalt><img src=/l.png alt=DeWalt></a>",
            "<h1>Cordless Drill</h1><a href=\"/collections/vendors?q=De+Walt\">De Walt</a>",
            "<h1>Cordless Drill</h1><a href=/marken/de-walt.html>De-Walt</a>",
        ];
        for html in cases {
            assert!(
                brand(html).is_some_and(|b| spell(&[&b]) == "dewalt"),
                "{html}: {:?}",
                brand(html)
            );
        }
        assert_eq!(
            brand(
                "<h1><div><a href=/bershka/ title=Bershka><span><span>Bershka</span></span></a></div>\
                 <span>Faux leather jacket</span></h1>"
            )
            .as_deref(),
            Some("Bershka")
        );
        // Words that do not spell the brand's page, and a menu of a
        // maker's brands, name no product's brand.
        for html in [
            "<h1>Cordless Drill</h1><a href=/brand/dewalt>Shop all DEWALT</a>",
            "<h1>Cordless Drill</h1><a href=/brands/>Brands</a>",
            "<h1>Chicken with rice</h1><ul><li><a href=/brand/maggi>MAGGI</a></li>\
             <li><a href=/brand/perrier>Perrier</a></li></ul>",
        ] {
            assert_eq!(brand(html), None, "{html}");
        }
    }

    /// Issue 59: a list of labelled lines opening with the brand gave the
    /// brand and the next line's words ("Acme Peso: 1,2 kg").
    #[test]
    fn a_labelled_line_in_a_list_gives_only_its_own_value() {
        for html in [
            "<h1>Taladro</h1><ul><li><b>Marca:</b> Acme</li><li><b>Peso:</b> 1,2 kg</li></ul>",
            "<h1>电钻</h1><ul><li>品牌：Acme</li><li>型号：GSR12</li></ul>",
        ] {
            assert_eq!(brand(html).as_deref(), Some("Acme"), "{html}");
        }
    }

    /// Issue 59: a block named for the maker showing only its logo (wcxb-dev
    /// 2947, 2985 read without their markup gave the shop's own name).
    #[test]
    fn a_named_block_showing_a_logo_gives_the_brand() {
        let html = "<h1>Player II Strat</h1><div class=manufacturer><a href=fender.html>\
                    <img src=/l/fender.gif alt=Fender></a></div><p>£675</p>";
        assert_eq!(brand(html).as_deref(), Some("Fender"));
        let two =
            "<h1>Strat</h1><div class=brand><a href=/f><img alt=Fender><img alt=Squier></a></div>";
        assert_eq!(brand(two), None);
        // A site's logo, linking home or nowhere, is not the product's brand.
        for site in [
            "<a class=brand data-toggle=collapse><img src=/logo.png alt='LV CC'></a>",
            "<div class=brand><a href=/><img src=/logo.png alt='LV CC'></a></div>",
        ] {
            assert_eq!(brand(&format!("<h1>Villa</h1>{site}")), None, "{site}");
        }
    }

    #[test]
    fn a_label_is_read_up_to_either_colon() {
        assert_eq!(before_colon("Brand: Acme"), "Brand");
        assert_eq!(before_colon("品牌：Acme"), "品牌");
        assert_eq!(before_colon("ブランド Acme"), "ブランド Acme");
        assert!(is_label(before_colon("MARKE : Acme")) && is_label("Производитель:"));
        assert!(!is_label(before_colon("Brandneu: der Kessel")));
        // Every label, as written and in capitals, is one.
        for l in LABELS {
            assert!(is_label(l) && is_label(&l.to_uppercase()), "{l}");
        }
    }

    #[test]
    fn rows_lines_names_and_links_give_the_brand() {
        let doc = Doc::parse_str("<h1>Kettle</h1>");
        let specs = vec![("Marke".to_string(), "Acme".to_string())];
        assert_eq!(
            shown(&doc, &specs, None, &|_| false).as_deref(),
            Some("Acme")
        );
        assert_eq!(
            brand("<h1>Kettle</h1><p>Brand: Acme Home</p><p>$20</p>").as_deref(),
            Some("Acme Home")
        );
        assert_eq!(
            brand("<div class=product-meta__vendor>Acme</div><h1>Kettle</h1>").as_deref(),
            Some("Acme")
        );
        assert_eq!(
            brand("<h1>Kettle</h1><p class=product-brand>Brand: Acme</p>").as_deref(),
            Some("Acme")
        );
        assert_eq!(
            brand("<h1><a href=/brands/acme>Acme</a> Steel Kettle</h1>").as_deref(),
            Some("Acme")
        );
        assert_eq!(
            brand("<h1>Kettle</h1><a href=/s>Visit the Acme Store</a>").as_deref(),
            Some("Acme")
        );
        // A marketplace's other wordings of the brand store's link
        // (wcxb-dev 0627: "Shop All <!-- -->EVGA<!-- --> Products").
        for link in [
            "<a href=/acme/BrandStore><strong>Shop All <!-- -->Acme<!-- --> Products</strong></a>",
            "<a href=/b>See all Acme products</a>",
            "<a href=/b>Alle Acme Produkte</a>",
        ] {
            let page = format!("<h1>Kettle</h1>{link}");
            assert_eq!(brand(&page).as_deref(), Some("Acme"), "{link}");
        }
        // A category's link is no brand's.
        assert_eq!(
            brand("<h1>Kettle</h1><a href=/k>Shop all kitchen</a>"),
            None
        );
        // A specification row's label in more languages.
        let doc = Doc::parse_str("<h1>Kettle</h1>");
        for label in [
            "Značka",
            "Gyártó",
            "Üretici",
            "Марка",
            "Thương hiệu",
            "ยี่ห้อ",
            "מותג",
            "العلامة التجارية:",
        ] {
            let specs = vec![(label.to_string(), "Acme".to_string())];
            assert_eq!(
                shown(&doc, &specs, None, &|_| false).as_deref(),
                Some("Acme"),
                "{label}"
            );
        }
    }

    #[test]
    fn logos_chrome_and_whole_heading_links_are_not_brands() {
        assert_eq!(
            brand("<nav><a class=navbar-brand href=/>Shop</a></nav><h1>Kettle</h1>"),
            None
        );
        assert_eq!(
            brand("<header><span class=brand>Shop</span></header><h1>Kettle</h1>"),
            None
        );
        assert_eq!(brand("<h1><a href=/k>Steel Kettle</a></h1>"), None);
        // A button in the theme's brand colour.
        assert_eq!(
            brand("<h1>Kettle</h1><button class='btn-solid-brand w-full'>Add to cart</button>"),
            None
        );
        assert_eq!(
            brand("<h1>Kettle</h1><div class='text-brand'>Free delivery</div>"),
            None
        );
        // A long text under a brand class is a description, not a name.
        assert_eq!(
            brand("<h1>Kettle</h1><div class=brand>Acme makes kettles in Sheffield since 1921 for every kitchen</div>"),
            None
        );
    }

    fn own_brand(names: &[&str], site_name: Option<&str>, url: &str) -> Option<String> {
        let head = site_name
            .map(|n| format!("<meta property=og:site_name content='{n}'>"))
            .unwrap_or_default();
        let doc = Doc::parse_str(&format!(
            "<html><head>{head}</head><body><h1>x</h1></body></html>"
        ));
        own(names, &site_names(&doc, Some(url)))
    }

    #[test]
    fn a_name_opening_with_the_shops_own_name_gives_the_brand() {
        let at = "https://www.ifixit.com/products/kit";
        assert_eq!(
            own_brand(&["iFixit Pro Tech Toolkit"], None, at).as_deref(),
            Some("iFixit")
        );
        // Two words spelling the site's name, a trade mark sign dropped.
        assert_eq!(
            own_brand(
                &["Solo Stove® Bonfire 2.0"],
                Some("Solo Stove"),
                "https://a.test/p"
            )
            .as_deref(),
            Some("Solo Stove")
        );
        // The title is read when the name is not the shop's.
        assert_eq!(
            own_brand(
                &["Wool Runners", "Allbirds Wool Runners, Men's"],
                None,
                "https://allbirds.com/p"
            )
            .as_deref(),
            Some("Allbirds")
        );
    }

    #[test]
    fn a_retailers_or_a_sites_own_name_is_not_a_brand() {
        // A retailer: the product's name opens with its maker's.
        assert_eq!(
            own_brand(
                &["ASUS ROG Strix RTX 4080"],
                Some("Newegg"),
                "https://www.newegg.com/p"
            ),
            None
        );
        // The site's name, then a separator: the site's title.
        assert_eq!(
            own_brand(
                &["Acme | Steel Kettle", "Acme: Kettles"],
                None,
                "https://acme.test/p"
            ),
            None
        );
        // A title signed with the site's name at both ends.
        assert_eq!(
            own_brand(
                &["Acme 2025 awards: kettles - Acme"],
                Some("Acme"),
                "https://a.test/x"
            ),
            None
        );
        // The name alone, nothing after it; a host label naming no one.
        assert_eq!(own_brand(&["Acme"], None, "https://acme.test/"), None);
        assert_eq!(
            own_brand(&["Shop Steel Kettle"], None, "https://shop.acme.test/p"),
            None
        );
    }
}
