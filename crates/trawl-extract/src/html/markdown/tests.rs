//! The Markdown per element type, its escaping, and a property: for random
//! documents it parses and renders to the words of the plain text.

use super::*;
use crate::html::render::render;

fn md_of(html: &str, url: Option<&str>, images: bool) -> String {
    let doc = Doc::parse_str(html);
    let sel = Selection::subtree(&doc, 0);
    let opts = MarkdownOptions {
        images,
        url: url.and_then(|u| url::Url::parse(u).ok()),
    };
    markdown(&doc, &sel, &opts).finish()
}

pub(super) fn md(html: &str) -> String {
    md_of(html, Some("https://ex.test/a/b.html"), true)
}

/// The words a CommonMark + GFM renderer shows for `md`.
fn rendered_words(md: &str) -> Vec<String> {
    use pulldown_cmark::{Event, Options, Parser, Tag, TagEnd};
    let mut text = String::new();
    let mut in_image = 0;
    for ev in Parser::new_ext(md, Options::ENABLE_TABLES | Options::ENABLE_STRIKETHROUGH) {
        match ev {
            Event::Start(Tag::Image { .. }) => in_image += 1,
            Event::End(TagEnd::Image) => in_image -= 1,
            Event::Text(t) | Event::Code(t) if in_image == 0 => {
                text.push_str(&t);
                text.push(' ');
            }
            Event::SoftBreak | Event::HardBreak | Event::End(_) => text.push(' '),
            _ => {}
        }
    }
    words(&text)
}

fn words(s: &str) -> Vec<String> {
    let mut w: Vec<String> = s
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    w.sort();
    w
}

#[test]
fn headings_rank_within_the_page() {
    assert_eq!(
        md("<h1>Title</h1><p>a</p><h3>Part</h3><p>b</p><h4>Sub</h4>"),
        "# Title\n\na\n\n## Part\n\nb\n\n### Sub"
    );
    // A heading that is a paragraph in large type stays a paragraph.
    let long = "word ".repeat(60);
    assert!(!md(&format!("<h2>{long}</h2>")).starts_with('#'));
    // A heading inside a list item is the item's line, its link kept
    // (regression, wcxb-dev 0068: "- ## Fluke 117", the link lost).
    assert_eq!(
        md("<ul><li><h2><a href=/p/1>Fluke 117</a></h2></li><li><h3>Klein</h3><p>Strips</p></li></ul>"),
        "- [Fluke 117](https://ex.test/p/1)\n- Klein\n\n  Strips"
    );
    // A heading over an <article> in an item is a story card's heading
    // (regression, wcxb-dev 2934: sixty reviews' titles written as items).
    let card = md("<ul><li><article><h3><a href=/r/1>The best arms</a></h3>\
        <p>We tested a dozen.</p></article></li></ul>");
    // (One item of blocks is a wrapper: written as its blocks.)
    assert!(card.starts_with("# The best arms\n"), "{card}");
    // An item holding sections of its own keeps them as headings
    // (regression, wcxb-dev 4601: each ranked review's name, "Product
    // Specs" and "What we like" were items' lines).
    let review = md(
        "<ol><li><h3>1. SimpliSafe</h3><p>A camera.</p><h3>Product Specs</h3>\
        <p>Wireless.</p><h4>What we like</h4><p>Agents.</p></li></ol>",
    );
    assert!(review.contains("# 1\\. SimpliSafe\n"), "{review}");
    assert!(review.contains("## What we like\n"), "{review}");
}

#[test]
fn lists_keep_order_and_nesting() {
    assert_eq!(
        md("<ul><li>a<ul><li>b</li><li>c<ol start=4><li>d</li></ol></li></ul></li><li>e</li></ul>"),
        // A list numbered from 4 cannot start on the line after "c".
        "- a\n  - b\n  - c\n\n    4. d\n- e"
    );
    assert_eq!(
        md("<ul><li><input type=checkbox checked> done</li></ul>"),
        "- [x] done"
    );
    assert_eq!(
        md("<dl><dt>Term</dt><dd>Its meaning</dd></dl>"),
        "**Term**\n\nIts meaning"
    );
}

#[test]
fn a_list_of_cards_is_written_as_their_blocks() {
    // Regression (wcxb-dev 0203, 2913: 865 and 25 items the truths write as
    // paragraphs): each item a picture, a heading and a summary.
    let card = |n: u32| {
        format!("<li><img src='/p{n}.jpg' alt='Pic {n}'><h3>Story {n}</h3><p>What story {n} says.</p></li>")
    };
    assert_eq!(
        md(&format!("<ul>{}{}</ul>", card(1), card(2))),
        "![Pic 1](https://ex.test/p1.jpg)\n\nStory 1\n\nWhat story 1 says.\n\n\
         ![Pic 2](https://ex.test/p2.jpg)\n\nStory 2\n\nWhat story 2 says."
    );
    // A list of one item holding blocks is a wrapper.
    assert_eq!(
        md("<ul><li><h3>Story</h3><p>What it says.</p></li></ul>"),
        "Story\n\nWhat it says."
    );
    // Steps shown with screenshots keep their numbers; lines parted by a
    // break and a quote inside an item are one block of it.
    assert_eq!(
        md("<ol><li><p>Click.</p><img src='/s.png' alt='S'></li><li>Save.</li></ol>"),
        "1. Click.\n\n   ![S](https://ex.test/s.png)\n2. Save."
    );
    assert_eq!(
        md("<ul><li>Line<br>next</li><li>Said<blockquote>this</blockquote></li></ul>"),
        "- Line\\\n  next\n- Said\n\n  > this"
    );
}

#[test]
fn tables_expand_spans_and_escape_cells() {
    let t = md("<table><tr><th>A</th><th align=right>B</th></tr>\
                <tr><td colspan=2>x | y</td></tr>\
                <tr><td rowspan=2>r</td><td>1</td></tr><tr><td>2</td></tr></table>");
    assert_eq!(
        t,
        "| A | B |\n| --- | --: |\n| x \\| y |  |\n| r | 1 |\n|  | 2 |"
    );
    // Layout: one column and no header; nested tables degrade to blocks.
    assert_eq!(
        md("<table><tr><td>one</td></tr><tr><td>two</td></tr></table>"),
        "one\n\ntwo"
    );
    let nested = md("<table><tr><td><table><tr><td>in</td><td>ner</td></tr></table></td><td>z</td></tr></table>");
    assert!(!nested.contains('|'), "{nested}");
    assert!(nested.contains("in") && nested.contains('z'));
}

#[test]
fn code_is_verbatim_and_fenced() {
    assert_eq!(
        md("<pre><code class=\"language-py\">def f():\n\n    return 1\n</code></pre>"),
        "```py\ndef f():\n\n    return 1\n```"
    );
    assert_eq!(md("<pre>a ``` b</pre>"), "````\na ``` b\n````");
    assert_eq!(md("<p>run <code>ls -l</code> now</p>"), "run `ls -l` now");
}

#[test]
fn links_and_images_are_absolute() {
    let html = "<head><base href=\"/docs/\"></head><p><a href=\"x.html\">X</a> \
                <a href=\"javascript:go()\">Go</a> <a href=\"\">Empty</a> \
                <img src=\"data:image/gif;base64,R0\" data-src=\"i.png\" alt=\"An [image]\"> \
                <img srcset=\"s.jpg 1x, t.jpg 2x\" alt=s></p>";
    assert_eq!(
        md(html),
        "[X](https://ex.test/docs/x.html) Go Empty ![An \\[image\\]](https://ex.test/docs/i.png) ![s](https://ex.test/docs/s.jpg)"
    );
    assert_eq!(
        md_of(html, Some("https://ex.test/a/b.html"), false),
        "[X](https://ex.test/docs/x.html) Go Empty"
    );
}

#[test]
fn a_link_around_blocks_links_its_first_block() {
    // A teaser card: the heading keeps its level and becomes the link;
    // the excerpt after it stays a paragraph.
    let html = "<p>Winner</p><a href=\"/p/boa\"><h4>Boa [Viagem]</h4><p>By an office</p></a>";
    assert_eq!(
        md(html),
        "Winner\n\n# [Boa \\[Viagem\\]](https://ex.test/p/boa)\n\nBy an office"
    );
    // Without a heading, the first paragraph is the link; a table is not.
    assert_eq!(
        md("<a href=\"/x\"><div>One</div><div>Two</div></a>"),
        "[One](https://ex.test/x)\n\nTwo"
    );
    assert!(!md("<a href=\"/x\"><table><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>2</td></tr></table></a>")
        .contains("](https://ex.test/x)"));
}

#[test]
fn quotes_breaks_rules_and_emphasis() {
    assert_eq!(
        md("<blockquote><p>one<br>two</p><p>three</p></blockquote><hr><p><b>b</b> <em>e</em> <del>d</del> x<sup>2</sup></p>"),
        "> one\\\n> two\n>\n> three\n\n---\n\n**b** *e* ~~d~~ x2"
    );
}

#[test]
fn text_that_looks_like_markdown_renders_as_itself() {
    for text in [
        "# not a heading",
        "1. not a list",
        "- not an item",
        "* * *",
        "===",
        "> not a quote",
        "a *b* _c_ `d` [e](f) <g> h|i ~~j~~ &amp; \\k",
        "2024. A year",
    ] {
        let html = format!("<p>{}</p>", text.replace('&', "&amp;").replace('<', "&lt;"));
        let out = md(&html);
        let parsed = rendered_words(&out);
        assert_eq!(parsed, words(text), "{text:?} -> {out:?}");
        // And no block structure: one paragraph of text.
        let blocks = pulldown_cmark::Parser::new(&out)
            .filter(|e| {
                matches!(
                    e,
                    pulldown_cmark::Event::Start(pulldown_cmark::Tag::Paragraph)
                )
            })
            .count();
        assert_eq!(blocks, 1, "{text:?} -> {out:?}");
    }
}

#[test]
fn dropped_lines_drop_their_units() {
    let doc = Doc::parse_str("<h2>Keep</h2><p>Share</p><ul><li>one</li><li>Share</li></ul>");
    let sel = Selection::subtree(&doc, 0);
    let opts = MarkdownOptions {
        images: true,
        url: None,
    };
    let mut m = markdown(&doc, &sel, &opts);
    let text = render(&doc, &sel);
    let drop: Vec<bool> = text.split('\n').map(|l| l == "Share").collect();
    m.drop_like(&text, &drop);
    assert_eq!(m.finish(), "# Keep\n\n- one");
}

/// A small seeded generator (no randomness crate needed).
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[(self.next() % xs.len() as u64) as usize]
    }
}

fn random_html(rng: &mut Rng, depth: usize) -> String {
    const WORDS: &[&str] = &[
        "alpha",
        "beta*",
        "_gamma_",
        "#delta",
        "1.",
        "[eps]",
        "zeta|eta",
        "`theta`",
        "iota-",
        "+kappa",
        "lambda\\",
        "mu&amp;nu",
        "&lt;xi&gt;",
        "omicron!",
        "pi~",
        "2024.",
        "rho=",
        "sigma>",
    ];
    const TAGS: &[&str] = &[
        "p",
        "div",
        "b",
        "i",
        "em",
        "strong",
        "a href=\"/x\"",
        "code",
        "span",
        "ul",
        "ol",
        "li",
        "blockquote",
        "h2",
        "h3",
        "table",
        "tr",
        "td",
        "th",
        "pre",
        "del",
        "sup",
        "br",
        "img src=\"/i.png\" alt=\"A\"",
    ];
    let mut out = String::new();
    let n = 1 + rng.next() % 4;
    for _ in 0..n {
        if depth > 4 || rng.next() % 3 == 0 {
            out.push_str(rng.pick(WORDS));
            out.push(' ');
            continue;
        }
        let tag = rng.pick(TAGS);
        let name = tag.split(' ').next().unwrap_or(tag);
        if matches!(name, "br" | "img") {
            out.push_str(&format!("<{tag}>"));
            continue;
        }
        out.push_str(&format!("<{tag}>{}</{name}>", random_html(rng, depth + 1)));
    }
    out
}

#[test]
fn random_documents_render_to_the_words_of_the_text() {
    let mut rng = Rng(0x2718_2818_2845_9045);
    for case in 0..3000 {
        let html = random_html(&mut rng, 0);
        let doc = Doc::parse_str(&html);
        let sel = Selection::subtree(&doc, 0);
        let text = render(&doc, &sel);
        let out = md(&html);
        let (got, want) = (rendered_words(&out), words(&text));
        if got != want {
            let count = |v: &[String], w: &String| v.iter().filter(|x| *x == w).count();
            let extra: Vec<_> = got
                .iter()
                .filter(|w| count(&got, w) > count(&want, w))
                .collect();
            let missing: Vec<_> = want
                .iter()
                .filter(|w| count(&want, w) > count(&got, w))
                .collect();
            panic!(
                "case {case}: extra {extra:?} missing {missing:?} ({} vs {} words)\n{html}\n---\n{out}\n---\n{text}",
                got.len(),
                want.len()
            );
        }
    }
}
