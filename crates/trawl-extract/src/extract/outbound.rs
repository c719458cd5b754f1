//! Links that leave the site. A block of nothing but links to the site's own
//! pages is its chrome (related posts, "next article", tag lists); a list
//! of links to other sites inside an article (the products it recommends,
//! its sources, the tools it reviews) is what the article says.

use std::cell::OnceCell;

use crate::html::{Doc, NodeId, Tag};

/// The site's host, from the page's canonical URL or `og:url`, without a
/// leading `www.`; `None` when the page names neither.
pub(crate) fn site_host(doc: &Doc) -> Option<String> {
    host(crate::extract::metadata::canonical(doc)?).map(str::to_ascii_lowercase)
}

/// The host of an absolute http(s) URL, without `www.`.
fn host(url: &str) -> Option<&str> {
    let url = url.trim();
    let rest = url
        .get(..8)
        .filter(|p| p.eq_ignore_ascii_case("https://"))
        .map(|_| &url[8..])
        .or_else(|| {
            url.get(..7)
                .filter(|p| p.eq_ignore_ascii_case("http://"))
                .map(|_| &url[7..])
        })?;
    let end = rest.find(['/', '?', '#', ':']).unwrap_or(rest.len());
    let h = &rest[..end];
    let h = h.strip_prefix("www.").unwrap_or(h);
    (!h.is_empty()).then_some(h)
}

/// Per node, whether every worded link below it leads to another site
/// than `site` (and at least one does): one pass up the tree.
pub(crate) fn outbound_blocks(doc: &Doc, site: &str) -> Vec<bool> {
    // 0: no worded link below; 1: only links leaving the site; 2: a link
    // to the site (or one not read as leaving it).
    let mut state = vec![0u8; doc.len()];
    for j in (0..doc.len() as NodeId).rev() {
        if doc.tag(j) == Tag::A && doc.agg[j as usize].chars > 0 {
            let leaves = doc
                .attr(j, "href")
                .and_then(host)
                .is_some_and(|h| !same_site(h, site));
            state[j as usize] = state[j as usize].max(if leaves { 1 } else { 2 });
        }
        let p = doc.nodes[j as usize].parent;
        if p != u32::MAX {
            state[p as usize] = state[p as usize].max(state[j as usize]);
        }
    }
    state.into_iter().map(|s| s == 1).collect()
}

/// Two hosts of one site: the same registered name, read as the last two
/// labels, or three under a country's second level (`example.co.uk`,
/// `example.com.au`): `zh.wikipedia.org` and `en.wikipedia.org` are one site.
fn same_site(a: &str, b: &str) -> bool {
    registered(a).eq_ignore_ascii_case(registered(b))
}

/// The registered name of a host ([`same_site`]).
fn registered(host: &str) -> &str {
    let mut labels = host.rsplitn(4, '.');
    let (tld, second, third) = (labels.next(), labels.next(), labels.next());
    let second_level = second.is_some_and(|l| {
        [
            "co", "com", "net", "org", "ac", "gov", "edu", "ne", "or", "go",
        ]
        .iter()
        .any(|s| l.eq_ignore_ascii_case(s))
    });
    let kept = match (tld, second, third) {
        (Some(t), Some(s), Some(r)) if t.len() == 2 && second_level => {
            t.len() + s.len() + r.len() + 2
        }
        (Some(t), Some(s), _) => t.len() + s.len() + 1,
        _ => host.len(),
    };
    &host[host.len() - kept..]
}

/// [`outbound_blocks`] read the first time a block is asked about (most
/// pages never are): a page without a canonical URL or `og:url` has no site
/// to leave, and no block is outbound.
pub(crate) struct Outbound<'a> {
    doc: &'a Doc,
    blocks: OnceCell<Option<Vec<bool>>>,
}

impl<'a> Outbound<'a> {
    pub(crate) fn new(doc: &'a Doc) -> Self {
        Outbound {
            doc,
            blocks: OnceCell::new(),
        }
    }

    /// Every worded link in `id` leaves the site.
    pub(crate) fn only(&self, id: NodeId) -> bool {
        self.blocks
            .get_or_init(|| site_host(self.doc).map(|s| outbound_blocks(self.doc, &s)))
            .as_ref()
            .is_some_and(|o| o[id as usize])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_and_sites() {
        assert_eq!(host("https://www.Example.com/a?b"), Some("Example.com"));
        assert_eq!(
            host("http://shop.example.com:8080/x"),
            Some("shop.example.com")
        );
        assert_eq!(host("/relative/path"), None);
        assert_eq!(host("javascript:void(0)"), None);
        assert!(same_site("shop.example.com", "example.com"));
        assert!(same_site("example.com", "blog.example.com"));
        assert!(same_site("zh.wikipedia.org", "en.wikipedia.org"));
        assert!(same_site("shop.example.co.uk", "example.co.uk"));
        assert!(!same_site("other.co.uk", "example.co.uk"));
        assert_eq!(registered("a.b.example.com.au"), "example.com.au");
        assert_eq!(registered("localhost"), "localhost");
        assert!(!same_site("notexample.com", "example.com"));
        assert!(!same_site("amazon.com", "example.com"));
    }

    #[test]
    fn a_block_is_outbound_when_every_worded_link_leaves_the_site() {
        let doc = Doc::parse_str(
            "<head><link rel=canonical href='https://www.tools.example/best'></head><body>\
             <ul id=picks><li><a href='https://shop.other/dp/1'>Meter one</a></li>\
             <li><a href='https://shop.other/dp/2'>Meter two</a><a href='/x'></a></li></ul>\
             <ul id=related><li><a href='/guide'>Our guide</a></li>\
             <li><a href='https://shop.other/dp/3'>Meter three</a></li></ul>\
             <ul id=plain><li>No link at all</li></ul></body>",
        );
        let outbound = Outbound::new(&doc);
        let by_id = |v: &str| {
            (0..doc.len() as NodeId)
                .find(|&i| doc.attr(i, "id") == Some(v))
                .expect("the list")
        };
        // An empty (icon) link to the site does not count; a worded one does.
        assert!(outbound.only(by_id("picks")));
        assert!(!outbound.only(by_id("related")));
        assert!(!outbound.only(by_id("plain")));
        // Without a canonical URL or og:url there is no site to leave.
        let doc = Doc::parse_str(
            "<body><ul id=picks><li><a href='https://a.other/'>A</a></li></ul></body>",
        );
        assert!(!Outbound::new(&doc).only(1));
    }
}
