//! The DOM every extractor reads.
//!
//! html5ever builds the tree into a linked arena that supports the tree
//! builder's repairs (re-parenting, foster parenting; [`super::sink`]). We then flatten it once
//! into [`Doc`]: nodes in document (pre-order) order, each knowing where its
//! subtree ends. With that layout "the subtree of v" is the index range
//! `v..end(v)`, a post-order aggregate is one reverse loop, and no traversal in
//! trawl needs recursion, so a page nested 100,000 levels deep cannot overflow
//! the stack.
//!
//! Invisible parts (script, style, templates, `hidden` elements, comments) never
//! reach the flat tree; metadata they carry (JSON-LD, `<meta>`, `<title>`) is
//! collected on the way into [`RawMeta`].
//!
//! Parsing is guarded ([`Limits`], in [`super::sink`]): element nesting is capped like browsers do
//! (html5ever's tree builder is quadratic in nesting depth otherwise), and the
//! node count and wall time are bounded. Going over a limit is an error, never
//! a crash.

use html5ever::{local_name, Attribute, LocalName, QualName};
use rustc_hash::FxHashMap;

pub(crate) use super::head_meta::RawMeta;
use super::head_meta::{collect_head, collect_meta, scoped_meta};
use super::sink::{Limits, SData, SNode, NONE};
use super::tag::Tag;
use super::visibility::invisible_tag;
use crate::error::ExtractError;

/// Index of a node in a [`Doc`].
pub(crate) type NodeId = u32;
// ---------------------------------------------------------------------------
// The flat document.

/// What a flat node is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Element,
    Text,
}

/// One node of a [`Doc`], in document order.
#[derive(Debug)]
pub(crate) struct Node {
    /// Parent node, `u32::MAX` for the root.
    pub parent: NodeId,
    /// One past the last node of this node's subtree.
    pub end: NodeId,
    /// Distance from the root.
    pub depth: u32,
    /// Tag-path id (root-to-node sequence of element names); a text node has
    /// its parent's path.
    pub path: u32,
    pub kind: Kind,
    /// Element kind (`Other` for text nodes and unlisted elements).
    pub tag: Tag,
    /// Interned element name (index into [`Doc::name`]).
    pub name: u16,
    /// Inside `<pre>`: rendered with line breaks kept.
    pub pre: bool,
    /// Non-whitespace characters of a text node (0 for elements).
    pub chars: u32,
    text_start: u32,
    text_len: u32,
    attrs: Vec<Attribute>,
}

/// Subtree aggregates, computed once per page and shared by all algorithms.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Agg {
    /// Non-whitespace characters in the subtree.
    pub chars: u32,
    /// Of those, characters inside `<a>` elements.
    pub link_chars: u32,
    /// Elements in the subtree, the node itself included.
    pub tags: u32,
    /// `<a>` elements in the subtree.
    pub links: u32,
}

/// A parsed page in flat, document-order form.
pub struct Doc {
    pub(crate) nodes: Vec<Node>,
    pub(crate) agg: Vec<Agg>,
    text: String,
    names: Vec<LocalName>,
    path_count: u32,
    pub(crate) meta: RawMeta,
    /// What sits beside a product (reviews, carousels, other sellers), per
    /// node: computed by the extractor (`extract::shop::beside`)
    /// the first time a pass asks, then shared by every pass that reads it.
    pub(crate) beside: std::sync::OnceLock<Vec<bool>>,
    /// A view of the page a later stage computes once and several of its
    /// passes read (the shop's prices and codes by the product's heading,
    /// `extract::shop::visible::of`), kept here without this layer naming
    /// its type.
    pub(crate) view: std::sync::OnceLock<Box<dyn std::any::Any + Send + Sync>>,
    /// Every element's class, id and role ([`Doc::class_id_role`]).
    class_names: std::sync::OnceLock<super::class_names::ClassNames>,
    /// The elements carrying structured data, in order ([`Doc::structured`]).
    structured: Vec<NodeId>,
}

impl Doc {
    /// Parses decoded HTML.
    pub(crate) fn parse(html: &str, limits: &Limits) -> Result<Doc, ExtractError> {
        let (nodes, names) = super::sink::build(html, limits)?;
        Ok(flatten(nodes, names))
    }

    /// Parses a piece of markup held in a page's data (a CMS field in
    /// embedded state), within small fixed limits.
    pub(crate) fn parse_fragment(html: &str) -> Result<Doc, ExtractError> {
        let limits = Limits {
            max_depth: 256,
            max_nodes: 200_000,
            deadline: None,
        };
        Doc::parse(html, &limits)
    }

    /// Parses an HTML string with default limits (handy in tests).
    #[cfg(test)]
    pub(crate) fn parse_str(html: &str) -> Doc {
        // Default limits have no deadline and a node cap far above any test page.
        Doc::parse(html, &Limits::default()).unwrap_or_else(|_| flatten(Vec::new(), Vec::new()))
    }

    /// Number of nodes; ids run from 0 to `len() - 1` in document order.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the page has no node at all.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Number of distinct tag paths in the page.
    pub(crate) fn path_count(&self) -> u32 {
        self.path_count
    }

    /// The text of a text node, whitespace-collapsed (kept as is under `<pre>`).
    pub fn text(&self, id: NodeId) -> &str {
        let n = &self.nodes[id as usize];
        let s = n.text_start as usize;
        &self.text[s..s + n.text_len as usize]
    }

    /// The local name of an element.
    pub fn name(&self, id: NodeId) -> &str {
        &self.names[self.nodes[id as usize].name as usize]
    }

    /// Whether a node is an element (else it is a text node).
    pub fn is_element(&self, id: NodeId) -> bool {
        self.nodes[id as usize].kind == Kind::Element
    }

    /// The element kind of a node.
    pub(crate) fn tag(&self, id: NodeId) -> Tag {
        self.nodes[id as usize].tag
    }

    /// An attribute's value.
    pub fn attr(&self, id: NodeId, name: &str) -> Option<&str> {
        // Length and first byte before the whole name: most attributes
        // differ there, and a call to memcmp per attribute was 3% of a run.
        let first = name.as_bytes().first();
        self.nodes[id as usize]
            .attrs
            .iter()
            .find(|a| {
                let have: &str = &a.name.local;
                have.len() == name.len() && have.as_bytes().first() == first && have == name
            })
            .map(|a| a.value.as_ref())
    }

    /// The elements carrying microdata or RDFa (`itemprop`, `itemtype`,
    /// `property`, `typeof`), in document order: what the structured-data
    /// readers walk instead of every element.
    pub(crate) fn structured(&self) -> &[NodeId] {
        &self.structured
    }

    /// An element's attribute values, in source order.
    pub(crate) fn attr_values(&self, id: NodeId) -> impl Iterator<Item = &str> {
        self.nodes[id as usize]
            .attrs
            .iter()
            .map(|a| a.value.as_ref())
    }

    /// `class` and `id` of an element, joined, for boilerplate pattern tests.
    pub fn class_id(&self, id: NodeId) -> (Option<&str>, Option<&str>) {
        let [class, ident, _] = self.class_id_role_attrs(id);
        (class, ident)
    }

    /// An element's `role`, read as [`Doc::class_id_role_attrs`] reads it
    /// (names compared as interned atoms, not letter by letter as
    /// [`Doc::attr`] must). Asked of every node when buy buttons are counted.
    pub(crate) fn role(&self, id: NodeId) -> Option<&str> {
        self.class_id_role_attrs(id)[2]
    }

    /// `class`, `id` and `role` of an element, in one look at each of its
    /// attributes.
    fn class_id_role_attrs(&self, id: NodeId) -> [Option<&str>; 3] {
        let mut parts = [None; 3];
        for a in &self.nodes[id as usize].attrs {
            let at = match a.name.local {
                local_name!("class") => 0,
                local_name!("id") => 1,
                local_name!("role") => 2,
                _ => continue,
            };
            parts[at] = Some(a.value.as_ref());
        }
        parts
    }

    /// An element's class, id and role, lower-cased and space separated;
    /// computed for every element the first time one is asked for.
    pub(crate) fn class_id_role(&self, id: NodeId) -> &str {
        self.names().get(id as usize)
    }

    /// The elements whose class, id or role (lower-cased, as
    /// [`Doc::class_id_role`] gives them) hold `word`, in order.
    pub(crate) fn names_holding(&self, word: &str) -> Vec<NodeId> {
        let nodes = self.names().holding(word);
        nodes.into_iter().map(|i| i as NodeId).collect()
    }

    /// Every element's class, id and role, built the first time one is
    /// asked for.
    fn names(&self) -> &super::class_names::ClassNames {
        self.class_names.get_or_init(|| {
            super::class_names::ClassNames::build(self.nodes.len(), |i| {
                self.class_id_role_attrs(i as NodeId)
            })
        })
    }

    /// Children of a node, in order.
    pub fn children(&self, id: NodeId) -> Children<'_> {
        Children {
            doc: self,
            next: id + 1,
            end: self.nodes[id as usize].end,
        }
    }

    /// The first `<body>`, or the root when there is none.
    pub fn body(&self) -> NodeId {
        self.nodes
            .iter()
            .take(64)
            .position(|n| n.tag == Tag::Body)
            .map_or(0, |i| i as NodeId)
    }

    /// The first node after `id`'s subtree.
    pub fn end(&self, id: NodeId) -> NodeId {
        self.nodes[id as usize].end
    }

    /// Whether `anc` is `node` or one of its ancestors.
    pub fn contains(&self, anc: NodeId, node: NodeId) -> bool {
        anc <= node && node < self.nodes[anc as usize].end
    }

    /// Whether `id` or one of its ancestors below `stop` (`stop` itself
    /// excluded) is one of `tags`.
    pub fn tagged_below(&self, id: NodeId, stop: NodeId, tags: &[Tag]) -> bool {
        let mut up = id;
        while up != u32::MAX && up != stop {
            if tags.contains(&self.tag(up)) {
                return true;
            }
            up = self.nodes[up as usize].parent;
        }
        false
    }

    /// All text of a subtree, concatenated with single spaces (no block
    /// structure). A `<wbr>` between two texts with no whitespace at the
    /// seam is a line-break opportunity inside a word, so they are joined
    /// without a space ("Zubeh<wbr>ör" is one word).
    pub fn plain_text(&self, id: NodeId) -> String {
        let mut out = String::new();
        self.plain_text_into(id, &mut out);
        out
    }

    /// [`Doc::plain_text`] written into `out` (cleared first), for callers
    /// that read many subtrees with one buffer.
    pub fn plain_text_into(&self, id: NodeId, out: &mut String) {
        out.clear();
        self.each_text(id, |t, glued| {
            if !out.is_empty() && !glued {
                out.push(' ');
            }
            out.push_str(t);
        });
    }

    /// The texts of a subtree in order, trimmed, as [`Doc::plain_text`]
    /// joins them (texts glued by a `<wbr>` are one piece).
    pub fn plain_pieces(&self, id: NodeId) -> Vec<String> {
        let mut pieces: Vec<String> = Vec::new();
        self.each_text(id, |t, glued| match pieces.last_mut() {
            Some(last) if glued => last.push_str(t),
            _ => pieces.push(t.to_string()),
        });
        pieces
    }

    /// Calls `f` with each non-empty trimmed text of a subtree and whether
    /// it continues the previous one without a space: the previous text of
    /// the same parent ended in a non-space and only `<wbr>` elements stand
    /// between them.
    fn each_text(&self, id: NodeId, mut f: impl FnMut(&str, bool)) {
        let mut glued: Option<NodeId> = None;
        for i in id..self.nodes[id as usize].end {
            match self.nodes[i as usize].kind {
                Kind::Text => {
                    let raw = self.text(i);
                    let t = raw.trim();
                    if !t.is_empty() {
                        let seam = glued.is_some_and(|g| {
                            self.nodes[g as usize].parent == self.nodes[i as usize].parent
                        }) && !raw.starts_with(char::is_whitespace);
                        f(t, seam);
                        glued = (!raw.ends_with(char::is_whitespace)).then_some(i);
                    }
                }
                Kind::Element if self.name(i) == "wbr" => {}
                Kind::Element => glued = None,
            }
        }
    }
}

/// Iterator over a node's children.
pub struct Children<'a> {
    doc: &'a Doc,
    next: NodeId,
    end: NodeId,
}

impl Iterator for Children<'_> {
    type Item = NodeId;
    fn next(&mut self) -> Option<NodeId> {
        if self.next >= self.end {
            return None;
        }
        let id = self.next;
        self.next = self.doc.nodes[id as usize].end;
        Some(id)
    }
}

struct Frame {
    cursor: u32,
    flat: u32,
    pre: bool,
}

/// An attribute of microdata or RDFa ([`Doc::structured`]).
fn is_structured(name: &LocalName) -> bool {
    *name == local_name!("itemprop")
        || *name == local_name!("itemtype")
        || *name == local_name!("property")
        || &**name == "typeof"
}

/// A document holding only its root, with room for `capacity` nodes.
fn rooted(capacity: usize) -> Doc {
    let mut doc = Doc {
        nodes: Vec::with_capacity(capacity),
        agg: Vec::new(),
        text: String::new(),
        names: vec![LocalName::from("#root")],
        path_count: 1,
        meta: RawMeta::default(),
        beside: std::sync::OnceLock::new(),
        view: std::sync::OnceLock::new(),
        class_names: std::sync::OnceLock::new(),
        structured: Vec::new(),
    };
    doc.nodes.push(Node {
        parent: NONE,
        end: 1,
        depth: 0,
        path: 0,
        kind: Kind::Element,
        tag: Tag::Other,
        name: 0,
        pre: false,
        chars: 0,
        text_start: 0,
        text_len: 0,
        attrs: Vec::new(),
    });
    doc
}

fn flatten(mut snodes: Vec<SNode>, names: Vec<QualName>) -> Doc {
    // Attribute checks are done once, here; flatten reads the result.
    let hidden = super::visibility::stays_hidden(&snodes, &names);
    let mut doc = rooted(snodes.len());
    if snodes.is_empty() {
        doc.agg = vec![Agg::default()];
        return doc;
    }
    // Keys are interned names and small numbers: a fast hash is safe here.
    let mut name_ids: FxHashMap<LocalName, u16> = FxHashMap::default();
    let mut path_ids: FxHashMap<(u32, u16), u32> = FxHashMap::default();
    let mut stack = vec![Frame {
        cursor: snodes[0].first,
        flat: 0,
        pre: false,
    }];
    while let Some(top) = stack.last_mut() {
        let cur = top.cursor;
        if cur == NONE {
            let flat = top.flat;
            doc.nodes[flat as usize].end = doc.nodes.len() as u32;
            stack.pop();
            continue;
        }
        top.cursor = snodes[cur as usize].next;
        let parent = top.flat;
        let pre = top.pre;
        let depth = stack.len() as u32;
        let parent_path = doc.nodes[parent as usize].path;
        let id = doc.nodes.len() as u32;
        let is_element = matches!(snodes[cur as usize].data, SData::Element { .. });
        let is_text = matches!(snodes[cur as usize].data, SData::Text(_));
        if is_element {
            {
                let qual = &names[cur as usize];
                let lname: &str = qual.local.as_ref();
                let attrs: &[Attribute] = match &snodes[cur as usize].data {
                    SData::Element { attrs } => attrs,
                    _ => &[],
                };
                if invisible_tag(lname) || hidden[cur as usize] {
                    // meta/link/title/script can sit in <body> too, and
                    // inside hidden blocks (microdata `<meta itemprop>`,
                    // JSON-LD in a display:none wrapper).
                    collect_meta(&mut doc.meta, lname, attrs, &snodes, cur);
                    if let Some(scope) = (lname == "meta")
                        .then(|| doc.attr(parent, "itemprop"))
                        .flatten()
                    {
                        let scope = scope.to_string();
                        scoped_meta(&mut doc.meta, &scope, attrs);
                    }
                    if lname == "head" || (hidden[cur as usize] && !invisible_tag(lname)) {
                        collect_head(&mut doc.meta, &snodes, &names, cur);
                    }
                    continue;
                }
                if lname == "html" {
                    collect_meta(&mut doc.meta, lname, attrs, &snodes, cur);
                }
            }
            {
                let local = &names[cur as usize].local;
                let lname: &str = local.as_ref();
                let attrs = match &mut snodes[cur as usize].data {
                    SData::Element { attrs } => std::mem::take(attrs),
                    _ => Vec::new(),
                };
                let next_name = name_ids.len() as u16 + 1;
                let name = *name_ids.entry(local.clone()).or_insert_with(|| {
                    doc.names.push(local.clone());
                    next_name
                });
                let next_path = doc.path_count;
                let path = *path_ids.entry((parent_path, name)).or_insert(next_path);
                if path == next_path {
                    doc.path_count += 1;
                }
                if attrs.iter().any(|a| is_structured(&a.name.local)) {
                    doc.structured.push(id);
                }
                let tag = Tag::from_name(lname);
                let is_pre = pre || tag == Tag::Pre;
                doc.nodes.push(Node {
                    parent,
                    end: id + 1,
                    depth,
                    path,
                    kind: Kind::Element,
                    tag,
                    name,
                    pre: is_pre,
                    chars: 0,
                    text_start: 0,
                    text_len: 0,
                    attrs,
                });
                let first = snodes[cur as usize].first;
                stack.push(Frame {
                    cursor: first,
                    flat: id,
                    pre: is_pre,
                });
            }
        } else if is_text {
            let SData::Text(t) = &snodes[cur as usize].data else {
                continue;
            };
            let start = doc.text.len();
            let chars = if pre {
                doc.text.push_str(&t.replace("\r\n", "\n"));
                t.chars().filter(|c| !c.is_whitespace()).count() as u32
            } else {
                super::whitespace::push_collapsed(&mut doc.text, t)
            };
            let len = doc.text.len() - start;
            if len == 0 {
                continue;
            }
            doc.nodes.push(Node {
                parent,
                end: id + 1,
                depth,
                path: parent_path,
                kind: Kind::Text,
                tag: Tag::Other,
                name: 0,
                pre,
                chars,
                text_start: start as u32,
                text_len: len as u32,
                attrs: Vec::new(),
            });
        }
    }
    doc.agg = aggregate(&doc);
    doc
}

/// One reverse pass: children come after their parent, so adding each node's
/// totals into its parent's yields subtree sums.
fn aggregate(doc: &Doc) -> Vec<Agg> {
    let n = doc.nodes.len();
    let mut agg = vec![Agg::default(); n];
    let mut in_link = vec![false; n];
    for i in 0..n {
        let node = &doc.nodes[i];
        let parent_link = node.parent != NONE && in_link[node.parent as usize];
        in_link[i] = parent_link || node.tag == Tag::A;
    }
    for i in (0..n).rev() {
        let node = &doc.nodes[i];
        let a = &mut agg[i];
        match node.kind {
            Kind::Text => {
                a.chars += node.chars;
                if in_link[i] {
                    a.link_chars += node.chars;
                }
            }
            Kind::Element => {
                a.tags += 1;
                if node.tag == Tag::A {
                    a.links += 1;
                }
            }
        }
        let a = *a;
        if node.parent != NONE {
            let p = &mut agg[node.parent as usize];
            p.chars += a.chars;
            p.link_chars += a.link_chars;
            p.tags += a.tags;
            p.links += a.links;
        }
    }
    agg
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flattens_in_document_order_with_subtree_ranges() {
        let doc = Doc::parse_str(
            "<html><body><div><p>Hello <b>big</b> world</p></div><p>x</p></body></html>",
        );
        let body = doc.body();
        assert_eq!(doc.tag(body), Tag::Body);
        let kids: Vec<_> = doc.children(body).collect();
        assert_eq!(kids.len(), 2);
        assert_eq!(doc.tag(kids[0]), Tag::Div);
        assert_eq!(doc.plain_text(kids[0]), "Hello big world");
        let wbr = Doc::parse_str("<h1>Staubsaugerzub<wbr>ehör <b>Set</b><wbr> x</h1>");
        assert_eq!(wbr.plain_text(wbr.body()), "Staubsaugerzubehör Set x");
        let tags = Doc::parse_str("<p>Hello <b>big</b>world<br>again</p>");
        assert_eq!(tags.plain_text(tags.body()), "Hello big world again");
        assert_eq!(doc.agg[body as usize].chars, "Hellobigworldx".len() as u32);
    }

    #[test]
    fn json_ld_in_cdata_or_comment_wrappers_is_read() {
        // Regression: a product's JSON-LD behind /*<![CDATA[*/ was not parsed.
        for wrapped in [
            "/*<![CDATA[*/ {\"a\":1} /*]]>*/",
            "//<![CDATA[\n{\"a\":1}\n//]]>",
            "<!--{\"a\":1}-->",
            " {\"a\":1}; ",
        ] {
            let doc = Doc::parse_str(&format!(
                "<script type=\"application/ld+json\">{wrapped}</script>"
            ));
            assert_eq!(
                doc.meta.json_ld,
                vec![r#"{"a":1}"#.to_string()],
                "{wrapped}"
            );
        }
        // Regression: a type with parameters was not JSON-LD.
        let doc = Doc::parse_str(
            "<script type=\"application/ld+json; charset=utf-8\">{\"a\":1}</script>",
        );
        assert_eq!(doc.meta.json_ld, vec![r#"{"a":1}"#.to_string()]);
    }

    #[test]
    fn drops_invisible_parts_and_keeps_metadata() {
        let doc = Doc::parse_str(
            r#"<html lang="en"><head><title>T</title><meta property="og:title" content="OG">
            <script type="application/ld+json">{"a":1}</script><style>p{}</style></head>
            <body><script>var x=1;</script><p hidden>secret</p><div style="display: none">gone</div>
            <p>shown</p><template><p>inert</p></template></body></html>"#,
        );
        let body = doc.body();
        assert_eq!(doc.plain_text(body), "shown");
        assert_eq!(doc.meta.title.as_deref(), Some("T"));
        assert_eq!(doc.meta.json_ld, vec![r#"{"a":1}"#.to_string()]);
        assert_eq!(doc.meta.lang.as_deref(), Some("en"));
        assert!(doc
            .meta
            .metas
            .iter()
            .any(|(k, v)| k == "og:title" && v == "OG"));
    }

    #[test]
    fn link_aggregates() {
        let doc = Doc::parse_str("<body><div><a href=x>abc</a> de</div></body>");
        let div = doc.children(doc.body()).next().unwrap_or(0);
        let a = doc.agg[div as usize];
        assert_eq!((a.chars, a.link_chars, a.links, a.tags), (5, 3, 1, 2));
    }

    #[test]
    fn deep_nesting_is_capped_not_quadratic() {
        let html = format!(
            "<body>{}x{}",
            "<div>".repeat(100_000),
            "</div>".repeat(100_000)
        );
        let doc = Doc::parse(&html, &Limits::default()).expect("parses");
        assert!(doc.nodes.iter().all(|n| n.depth < 1000));
        assert_eq!(doc.plain_text(doc.body()), "x");
    }

    #[test]
    fn hiding_classes_drop_only_global_hiding() {
        let doc = Doc::parse_str(
            "<body><p class='sr-only'>Skip</p><div class='ot-hide'>Cookies</div><p class='hidden-xs'>Wide</p></body>",
        );
        assert_eq!(doc.plain_text(doc.body()), "Wide");
    }

    #[test]
    fn a_hidden_main_content_is_a_mask() {
        // Regression: `<main><div class=easylockdown-content style=display:none>`
        // hid a product page whose mega menu held most of the text; the page
        // extracted as empty. A small hidden part of main stays hidden.
        let menu = "<a href=/c>Coffee</a> <a href=/p>Pods</a> ".repeat(30);
        let doc = Doc::parse_str(&format!(
            "<body><header>{menu}</header><main><div style='display:none'>\
             <h1>Dark roast</h1><p>Bold, never bitter.</p></div><p hidden>Sold out</p></main></body>"
        ));
        let text = doc.plain_text(doc.body());
        assert!(text.ends_with("Dark roast Bold, never bitter."), "{text}");
        let doc = Doc::parse_str("<body><main hidden><p>All of it.</p></main><p>Footer</p></body>");
        assert_eq!(doc.plain_text(doc.body()), "All of it. Footer");
    }

    #[test]
    fn framework_hiding_classes_hide() {
        // Regression: Invision forums hide a post's menus and the hover card
        // with `ipsHide`; Bootstrap 3 and Foundation hide mobile copies at
        // desktop width. Bootstrap 3's `visible-sm` is a site's own name.
        let doc = Doc::parse_str(
            "<body><ul class='ipsMenu ipsHide'><li>Report post</li></ul>\
             <p class='col-12 hidden-md hidden-lg'>Call us</p><p class=show-for-small-only>Tap</p>\
             <p class=visible-sm>Grid</p><p class='ipsType_normal'>Post</p></body>",
        );
        assert_eq!(doc.plain_text(doc.body()), "Grid Post");
    }

    #[test]
    fn responsive_classes_show_what_a_hiding_class_hides() {
        // Regression: Tailwind's `hidden lg:block` is the desktop layout; a
        // product page lost its whole content to it.
        let doc = Doc::parse_str(
            "<body><div class='hidden lg:block'>Desktop</div><p class='d-none d-md-flex'>Wide</p>\
             <ul class='hidden group-hover:block'>Menu</ul><p class='hidden'>Gone</p>\
             <div class='block lg:hidden'>Mobile copy</div><p class='d-lg-none'>Small</p></body>",
        );
        assert_eq!(doc.plain_text(doc.body()), "Desktop Wide");
    }

    #[test]
    fn a_loading_mask_over_the_whole_page_is_shown() {
        // Regression: pages hidden until their styles load
        // (`visibility:hidden; min-height:100vh`) extracted as empty.
        let text = "Every word of the article sits under the mask. ".repeat(8);
        let doc = Doc::parse_str(&format!(
            "<body><div style='visibility:hidden'><p>{text}</p>\
             <ul class='hidden'><li>Menu entry</li></ul></div><p>Footer</p></body>"
        ));
        let shown = doc.plain_text(doc.body());
        assert!(shown.starts_with("Every word"), "{shown}");
        assert!(
            !shown.contains("Menu entry"),
            "hidden inside the mask: still hidden"
        );
        // A hidden block with a minor share of the text stays hidden.
        let doc = Doc::parse_str(&format!(
            "<body><p>{text}</p><div style='display:none'><p>Mobile menu</p></div></body>"
        ));
        assert!(!doc.plain_text(doc.body()).contains("Mobile menu"));
    }

    #[test]
    fn collapsed_panels_that_a_control_opens_are_shown() {
        // Regression: FAQ answers and tabs (hidden until their button is
        // pressed) were left out; WCXB's truths keep them. A menu a button
        // opens is links, and stays hidden.
        let doc = Doc::parse_str(
            "<body><button aria-controls='a1' aria-expanded='false'>Do you ship abroad?</button>\
             <div id='a1' hidden><p>Yes, to every country in the EU.</p></div>\
             <button aria-controls='m1'>Menu</button><ul id='m1' class='hidden'>\
             <li><a href=/a>Shop</a></li><li><a href=/b>About</a></li></ul>\
             <div id='x' hidden>Not controlled</div></body>",
        );
        assert_eq!(
            doc.plain_text(doc.body()),
            "Do you ship abroad? Yes, to every country in the EU. Menu"
        );
    }

    #[test]
    fn a_collapsed_panels_wrapper_opens_with_it() {
        // Regression: accordions hide a wrapper around the panel the button
        // names (`<div style="display:none"><div id=panel-1>`); the product's
        // description stayed hidden. A wrapper holding more stays hidden.
        let doc = Doc::parse_str(
            "<body><button aria-controls='panel-1'>Details</button>\
             <div class=collapse style='display:none;height:0'><div id='panel-1'>\
             <p>Steel cone, low smoke.</p></div></div>\
             <button aria-controls='panel-2'>Care</button>\
             <div style='display:none'><p>Other text</p><div id='panel-2'>Oil it.</div></div></body>",
        );
        assert_eq!(
            doc.plain_text(doc.body()),
            "Details Steel cone, low smoke. Care"
        );
    }

    #[test]
    fn react_streamed_content_is_visible() {
        // Regression: React 18 streams content into `<div hidden id="S:2">`
        // and a script shows it; a page's whole review was dropped.
        let doc = Doc::parse_str(
            "<body><div hidden id='S:2'><p>Streamed</p></div><div hidden id='S:x'>No</div></body>",
        );
        assert_eq!(doc.plain_text(doc.body()), "Streamed");
    }

    #[test]
    fn meta_charset_does_not_stop_parsing() {
        // Regression: html5ever pauses on <meta charset>; the rest was lost.
        let doc = Doc::parse_str("<head><meta charset=\"UTF-8\"></head><body><p>Hello</p>");
        assert_eq!(doc.plain_text(doc.body()), "Hello");
    }

    #[test]
    fn node_cap_is_an_error() {
        let html = "<p>a</p>".repeat(1000);
        let limits = Limits {
            max_nodes: 100,
            ..Limits::default()
        };
        assert!(matches!(
            Doc::parse(&html, &limits),
            Err(ExtractError::TooLarge(_))
        ));
    }
}
