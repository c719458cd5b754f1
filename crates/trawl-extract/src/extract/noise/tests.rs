//! Tests of the boilerplate vocabulary and the marking passes (kept apart
//! so `noise.rs` stays readable).

use super::widgets::HEADING_BLOCK_TAGS;
use super::*;

/// [`super::full`] with the page's own outbound marks.
fn full(doc: &Doc, profile: Profile) -> Vec<bool> {
    super::full(doc, profile, &Outbound::new(doc))
}

#[test]
fn token_matching() {
    assert!(matches_token("site-nav main", "nav"));
    assert!(matches_token("navbar", "nav"));
    assert!(!matches_token("canvas", "nav"));
    assert!(negative_name("sidebar "));
    assert!(!negative_name("article-sidebar-content "));
}

#[test]
fn donation_boxes_are_named_boilerplate() {
    // Regression (trafilatura-eval, wcxb-dev): "support this journalism"
    // boxes between the story and its comments.
    assert!(negative_name("reward rty-new-donation "));
    assert!(negative_name("donate-box "));
    // The content vocabulary still vetoes ("donation-content" is the page).
    assert!(!negative_name("donation-content "));
}

#[test]
fn a_block_holding_most_of_main_is_content_whatever_its_name() {
    // Regression (trafilatura-eval): the story sat in an <aside> inside
    // <main>, or in a wrapper named "box article modal-enabled", on pages
    // whose menus outweigh it; extraction came out empty.
    let story = "<p>A long paragraph of the story itself, with enough words in it.</p>".repeat(6);
    let menus = "<li>Section name and a few words more</li>".repeat(60);
    for wrapper in [
        "<aside class=pa>",
        "<div class='box article modal-enabled'>",
    ] {
        let close = if wrapper.starts_with("<aside") {
            "</aside>"
        } else {
            "</div>"
        };
        let doc = Doc::parse_str(&format!(
            "<body><ul>{menus}</ul><div role=main>{wrapper}{story}{close}\
             <div class=modal>Sign up for our newsletter</div></div><ul>{menus}</ul></body>"
        ));
        let noise = full(&doc, Profile::ARTICLE);
        let find = |f: &dyn Fn(NodeId) -> bool| (0..doc.len() as NodeId).find(|&i| f(i));
        let story = find(&|i| doc.tag(i) == Tag::P).expect("a paragraph");
        assert!(!noise[story as usize], "{wrapper}");
        let modal = find(&|i| doc.attr(i, "class") == Some("modal")).expect("the modal");
        assert!(noise[modal as usize], "{wrapper}");
    }
}

#[test]
fn a_block_holding_the_headline_and_the_paragraphs_is_content_whatever_its_name() {
    // Regression (trafilatura-eval): the story's box was named
    // "box article modal-enabled" and its share bar and "more stories"
    // made it link-dense; extraction came out empty.
    let story = "<p>A long paragraph of the story itself, with enough words in it to be \
                 one of its paragraphs, and a clause more to make sure of that.</p>"
        .repeat(4);
    let links = "<li><a href=/x>Another story with a long enough headline</a></li>".repeat(8);
    let menus = "<li>Section name and a few words more</li>".repeat(60);
    let html = format!(
        "<body><ul>{menus}</ul><div class='box article modal-enabled'>\
         <h1>The headline</h1>{story}<ul>{links}</ul></div>\
         <div class=modal>Sign up for our newsletter</div><ul>{menus}</ul></body>"
    );
    let doc = Doc::parse_str(&html);
    let kept = unmarked_texts(&doc, &full(&doc, Profile::ARTICLE)).concat();
    assert!(
        kept.contains("the story itself") && !kept.contains("Sign up"),
        "{kept}"
    );
    // Without the paragraphs, a box holding the headline is named as it is.
    let doc = Doc::parse_str(&format!(
        "<body><div class='modal'><h1>Sign up</h1>{links}</div>{story}</body>"
    ));
    let kept = unmarked_texts(&doc, &full(&doc, Profile::ARTICLE)).concat();
    assert!(!kept.contains("Sign up"), "{kept}");
}

#[test]
fn an_articles_disclaimer_goes_and_an_offers_terms_stay() {
    // Regression (trafilatura-eval): "The views expressed are the
    // author's own" boxes named "disclaimer" under articles.
    let story = "<p>A long paragraph of the story itself, with enough words in it.</p>".repeat(6);
    let html = format!(
        "<body><article>{story}<div class='post-disclaimer'>The views expressed here \
         are the author's own.</div></article></body>"
    );
    let doc = Doc::parse_str(&html);
    let kept = unmarked_texts(&doc, &full(&doc, Profile::ARTICLE)).concat();
    assert!(
        kept.contains("the story itself") && !kept.contains("views expressed"),
        "{kept}"
    );
    // On other pages (an offer's terms) and when long, it stays.
    let service = Profile {
        bylines_are_noise: false,
        ..Profile::ARTICLE
    };
    let kept = unmarked_texts(&doc, &full(&doc, service)).concat();
    assert!(kept.contains("views expressed"), "{kept}");
    let long = html.replace(
        "are the author's own.",
        &"are the author's own. ".repeat(30),
    );
    let doc = Doc::parse_str(&long);
    let kept = unmarked_texts(&doc, &full(&doc, Profile::ARTICLE)).concat();
    assert!(kept.contains("views expressed"), "{kept}");
}

#[test]
fn short_footer_names_count_only_whole() {
    // Regression (multilingual-dev zh-0066): a news page's footer
    // (address, licence numbers, "版权所有") is a div named "foot".
    assert!(negative_name("foot "));
    assert!(negative_name("wrap ft "));
    // A font class, a guide's prefix, footnotes: not footers.
    for name in [
        "kb-ft-rob-reg ",
        "ft-guide row ",
        "footnotes ",
        "page-foot-note ",
    ] {
        assert!(!negative_name(name), "{name}");
    }
    let doc = Doc::parse_str(&format!(
        "<body><div class=story><p>{}</p></div><div class=foot><div id=main>\
         <p>地址：南京市建邺区 邮编：210092</p></div><p>版权所有</p></div></body>",
        "A long paragraph of the story itself, with enough words in it. ".repeat(6)
    ));
    let noise = full(&doc, Profile::ARTICLE);
    let foot = (0..doc.len() as NodeId)
        .find(|&i| doc.attr(i, "class") == Some("foot"))
        .expect("fixture class");
    assert!(noise[foot as usize]);
}

#[test]
fn tooltips_and_popovers_are_noise() {
    // A term's hover card sat inside the sentence: "outperform your
    // competitionCompetition Businesses that…".
    let doc = Doc::parse_str(
        "<body><p>Outperform your <span><dfn>competition</dfn>\
         <span class='Term_tooltip__8VNIW'><strong>Competition</strong> Businesses \
         selling the same products.</span></span> this year.</p>\
         <div class='c-popover'>Saved to your list</div>\
         <p>Pricing, service and reach decide who wins a market like this one. \
         Pricing, service and reach decide who wins a market like this one.</p></body>",
    );
    let noise = full(&doc, Profile::ARTICLE);
    let kept = unmarked_texts(&doc, &noise).concat();
    assert_eq!(
        kept,
        "Outperform your competition this year.\
         Pricing, service and reach decide who wins a market like this one. \
         Pricing, service and reach decide who wins a market like this one."
    );
}

#[test]
fn a_long_block_named_like_a_tooltip_is_not_a_hint() {
    // Regression: an old forum's post table is class "tooltipbg"; as
    // never content, the thread lost its first post (1,300 characters).
    let post = "这部电影讲述了八路军挺进抗日前线的故事，场面宏大。".repeat(50);
    // Replies: the first post is under a quarter of the page.
    let replies = format!("<div>{post}</div>").repeat(4);
    let doc = Doc::parse_str(&format!(
        "<body><table class=tooltipbg><tr><td>{post}</td></tr></table>\
         <span class=tooltip>Copied</span>{replies}</body>"
    ));
    let kept = unmarked_texts(&doc, &full(&doc, Profile::ARTICLE));
    assert_eq!(kept.iter().filter(|t| t.contains("八路军")).count(), 5);
    assert!(!kept.concat().contains("Copied"));
}

#[test]
fn a_javascript_warning_is_noise_even_alone() {
    // Regression: an app shell's only text became its extraction.
    let doc = Doc::parse_str(
        "<body><noscript>You need to enable JavaScript to run this app.</noscript>\
         <div id=root></div></body>",
    );
    assert!(full(&doc, Profile::ARTICLE).iter().any(|&n| n));
    let doc = Doc::parse_str("<body><noscript><p>The whole thread</p></noscript></body>");
    assert!(!full(&doc, Profile::ARTICLE).iter().any(|&n| n));
}

#[test]
fn escaped_markup_in_noscript_is_noise_real_markup_is_not() {
    // Regression: a tracking pixel escaped into a <noscript> came out as a
    // line of tags.
    let doc = Doc::parse_str(
        "<body><p>Story text.</p><noscript>&lt;img src=\"//px.invalid/a.gif\"/&gt;</noscript></body>",
    );
    assert_eq!(
        unmarked_texts(&doc, &full(&doc, Profile::ARTICLE)),
        ["Story text."]
    );
    let doc = Doc::parse_str("<body><noscript><p>&lt;b&gt; is bold</p></noscript></body>");
    assert!(!full(&doc, Profile::ARTICLE).iter().any(|&n| n));
}

#[test]
fn a_dialog_is_noise_even_when_it_is_most_of_the_page() {
    // Regression: a privacy policy dialog in the footer outweighed a
    // product's text and became its extraction.
    let policy = "We process personal information for legitimate purposes. ".repeat(30);
    let doc = Doc::parse_str(&format!(
        "<body><p>Wool runner, soft and washable.</p>\
         <div role=dialog id=privacy><p>{policy}</p></div></body>"
    ));
    let noise = full(&doc, Profile::ARTICLE);
    let kept = unmarked_texts(&doc, &noise).concat();
    assert_eq!(kept, "Wool runner, soft and washable.");
}

#[test]
fn weakly_named_link_lists_are_content_on_list_pages() {
    // Regression: a category page's "search-results" grid is links.
    let cards = "<div><a href=/p>Roc Loc 5 LED Light, a helmet light</a> $34.95</div>".repeat(6);
    let doc = Doc::parse_str(&format!(
        "<body><div class='search-results'>{cards}</div><p>{}</p></body>",
        "An introduction to helmet lights, long enough to be the page. ".repeat(12)
    ));
    let list = Profile {
        links_are_noise: false,
        ..Profile::ARTICLE
    };
    assert!(!full(&doc, list).iter().any(|&n| n));
    assert!(full(&doc, Profile::ARTICLE).iter().any(|&n| n));
}

#[test]
fn placeholder_text_is_noise() {
    let doc = Doc::parse_str(
        "<body><p>Carbon fiber wallet, holds 12 cards.</p><div><h3>Yada</h3>\
         <p>Lorem ipsum dolor sit amet, consectetur adipiscing elit.</p></div>\
         <p>The phrase lorem ipsum comes from Cicero, as this article explains.</p></body>",
    );
    let noise = full(&doc, Profile::ARTICLE);
    let kept = unmarked_texts(&doc, &noise);
    assert_eq!(
        kept,
        [
            "Carbon fiber wallet, holds 12 cards.",
            "Yada",
            "The phrase lorem ipsum comes from Cicero, as this article explains."
        ]
    );
}

#[test]
fn a_wrapper_of_main_is_never_noise() {
    // Regression: "layout__2-sidebars-inline" wrapped a docs page's
    // <main>; the page extracted as empty.
    let body = "Reference text of the interface with its methods. ".repeat(6);
    let doc = Doc::parse_str(&format!(
        "<body><div class='layout__2-sidebars-inline'><main><p>{body}</p></main>\
         <div class='sidebar'><a href=/a>A</a></div></div></body>"
    ));
    let noise = full(&doc, Profile::ARTICLE);
    let kept = unmarked_texts(&doc, &noise).concat();
    assert_eq!(kept.trim(), body.trim(), "the inner sidebar is still noise");
}

#[test]
fn a_wrapper_of_the_declared_article_body_is_never_noise() {
    // Regression (trafilatura-eval): a theme named the post's wrapper
    // "cb-sidebar-right" (the layout has a sidebar on the right); the
    // story inside its itemprop=articleBody was lost with it.
    let story = "The author talks about her novel and the work behind it. ".repeat(3);
    let menus = "<li><a href=/x>Section name and a few words more</a></li>".repeat(30);
    let page = |prop: &str| {
        format!(
            "<body><ul>{menus}</ul><div class='post-wrap cb-sidebar-right'>\
             <section {prop}><p>{story}</p></section>\
             <div class='sidebar'><a href=/a>Other posts</a></div></div><ul>{menus}</ul></body>"
        )
    };
    let doc = Doc::parse_str(&page("itemprop=articleBody"));
    let noise = full(&doc, Profile::ARTICLE);
    let kept = unmarked_texts(&doc, &noise).concat();
    assert_eq!(
        kept.trim(),
        story.trim(),
        "the inner sidebar is still noise"
    );
    // Without the declaration the class name decides, as before.
    let doc = Doc::parse_str(&page("class=x"));
    let noise = full(&doc, Profile::ARTICLE);
    assert!(!unmarked_texts(&doc, &noise).concat().contains("novel"));
}

#[test]
fn comments_under_an_answer_are_noise_on_a_forum_but_replies_are_not() {
    let doc = Doc::parse_str(
        "<body><div id=question-1 class=question><p>How do I focus the file pane?</p>\
         <div class=comments><p>Did you try Tab? – Leo</p></div></div>\
         <div class='answer js-answer'><p>Press F6 twice.</p>\
         <ul class=comments-list><li class=comment>Works, thanks!</li></ul></div>\
         <div class=comment><p>A reply in a plain thread.</p></div></body>",
    );
    let forum = Profile {
        comments_are_noise: false,
        ..Profile::ARTICLE
    };
    let kept = unmarked_texts(&doc, &full(&doc, forum));
    assert_eq!(
        kept,
        [
            "How do I focus the file pane?",
            "Press F6 twice.",
            "A reply in a plain thread."
        ]
    );
}

#[test]
fn bylines_and_author_boxes_are_noise_on_articles() {
    // Truths leave them out (wcxb-dev articles: +2.1 page-F1 over 129
    // pages, none losing more than 0.014); a service site's team page
    // keeps them.
    let body = "Walking lowers blood pressure, study after study finds. ".repeat(4);
    let doc = Doc::parse_str(&format!(
        "<body><p class=byline>By Maureen Salamon</p><p>{body}</p>\
         <div class='author-bio'><p>Maureen edits the Health Watch.</p></div>\
         <p class=authority-note>Reviewed by the board.</p></body>"
    ));
    let kept = unmarked_texts(&doc, &full(&doc, Profile::ARTICLE));
    assert_eq!(kept, [body.as_str(), "Reviewed by the board."]);
    let team = Profile {
        bylines_are_noise: false,
        ..Profile::ARTICLE
    };
    assert_eq!(unmarked_texts(&doc, &full(&doc, team)).len(), 4);
}

#[test]
fn skip_links_are_noise_but_sections_named_skip_are_not() {
    // Regression: an article's sections were `div.skip-item` (scroll
    // targets) and went as "skip to content" links.
    let part = "A mesh network is a local network of several nodes that relay traffic. ";
    let sections = format!("<div class=skip-item><p>{part}{part}</p></div>").repeat(5);
    let doc = Doc::parse_str(&format!(
        "<body><a class=skip-link href=#main>Skip to content</a>{sections}</body>"
    ));
    let kept = unmarked_texts(&doc, &full(&doc, Profile::ARTICLE)).concat();
    assert_eq!(kept, part.repeat(10));
}

#[test]
fn calls_to_action_are_noise_but_links_in_text_are_not() {
    let doc = Doc::parse_str(
        "<body><p>Our planters are thrown by hand in <a href=/s>our studio</a>.</p>\
         <a class='btn btn-primary' href=/shop>Shop now</a>\
         <a class=hero__button--large href=/more>Learn more</a></body>",
    );
    let kept = unmarked_texts(&doc, &full(&doc, Profile::ARTICLE)).concat();
    assert_eq!(kept, "Our planters are thrown by hand in our studio.");
}

#[test]
fn a_mega_menu_is_noise_however_large() {
    // Regression: a category page's <nav> held most of its text.
    let menu = "<a href=/p>Perennials by genus</a> <a href=/a>Achillea</a> ".repeat(40);
    let doc = Doc::parse_str(&format!(
        "<body><header><nav>{menu}</nav></header><p>Indoor pottery for bulbs.</p></body>"
    ));
    let list = Profile {
        links_are_noise: false,
        ..Profile::ARTICLE
    };
    let noise = full(&doc, list);
    let kept = unmarked_texts(&doc, &noise).concat();
    assert_eq!(kept, "Indoor pottery for bulbs.");
}

#[test]
fn a_block_holding_the_page_is_never_noise() {
    // Regression: ASP.NET wraps whole pages in <form>.
    let body = "<p>Long running text of the only article on this page, no links.</p>".repeat(5);
    let doc = Doc::parse_str(&format!("<body><form id=Form1>{body}</form></body>"));
    assert!(!structural(&doc).iter().any(|&n| n));
}

#[test]
fn full_marks_nav_and_named_boilerplate() {
    let body = "keep this long paragraph of article text ".repeat(10);
    let doc = Doc::parse_str(&format!(
        "<body><nav><a>x</a></nav><div class='share-buttons'>Share</div><article><p>{body}</p></article><footer>f</footer></body>"
    ));
    let noise = full(&doc, Profile::ARTICLE);
    let kept = unmarked_texts(&doc, &noise).concat();
    assert_eq!(kept.trim(), body.trim());
}

#[test]
fn php_error_messages_printed_into_the_page_are_noise() {
    // Regression (trafilatura-eval): a sidebar widget printed PHP warnings
    // (display_errors on); they came out as the page's text.
    let warning = "<br />\n<b>Warning</b>:  Use of undefined constant comments - assumed \
                   'comments' in <b>/htdocs/wp-content/plugins/recent.php</b> on line <b>928</b><br />";
    let doc = Doc::parse_str(&format!(
        "<body><p>The post itself.</p><ul><li>{warning}{warning}<a href=/c>A comment</a></li></ul>\
         <p><b>Warning</b>: the bridge is closed on line <b>4</b> of the tram.</p></body>"
    ));
    let noise = full(&doc, Profile::ARTICLE);
    let kept = unmarked_texts(&doc, &noise).concat();
    assert!(!kept.contains("undefined constant"), "{kept}");
    assert!(!kept.contains(".php"), "{kept}");
    assert!(kept.contains("The post itself."), "{kept}");
    // The same words without PHP's shape stay.
    assert!(kept.contains("the bridge is closed"), "{kept}");
}

#[test]
fn a_label_bound_to_a_control_is_noise() {
    // Regression (trafilatura-eval, wcxb-dev): "Sorted by:" over an answer
    // sort menu, a shop's filter checkboxes' labels, kept as text.
    let doc = Doc::parse_str(
        "<body><p>Six answers to the question, the best first.</p>\
         <label for=sort-menu>Sorted by:</label><select id=sort-menu><option>Score</option></select>\
         <label>Your own words, not bound to any field.</label></body>",
    );
    let kept = unmarked_texts(&doc, &structural(&doc)).concat();
    assert!(!kept.contains("Sorted by"), "{kept}");
    assert!(
        kept.contains("Six answers") && kept.contains("Your own words"),
        "{kept}"
    );
    let kept = unmarked_texts(&doc, &full(&doc, Profile::ARTICLE)).concat();
    assert!(!kept.contains("Sorted by"), "{kept}");
}

#[test]
fn links_around_a_named_body_are_not_a_link_farm() {
    // Regression (trafilatura-eval): a paywalled story's one paragraph sat
    // in "td-post-content" among share, tag and teaser links; the wrapper
    // was a link farm and the story went with it.
    let links: String = (0..12)
        .map(|k| format!("<a href=/t{k}>Another story headline number {k}</a> "))
        .collect();
    let para = "<p>A senior official has said in a sworn statement that anyone \
                determined enough could leave the building unseen, day or night.</p>";
    // The rest of the page outweighs the wrapper (which does not hold it).
    let rest = "<p>Other text of the page, in a column of its own beside it.</p>".repeat(40);
    for (body, kept) in [("td-post-content", true), ("td-post-extras", false)] {
        let doc = Doc::parse_str(&format!(
            "<body><div class=wrap>{links}<div class={body}>{para}</div>{links}</div>\
             <div class=rest>{rest}</div></body>"
        ));
        let text = unmarked_texts(&doc, &full(&doc, Profile::ARTICLE)).concat();
        assert_eq!(text.contains("sworn statement"), kept, "{body}: {text}");
    }
}

/// A blog's post titles link to their permalinks beside "email this" and
/// "print" icons (CleanEval 347: every title lost, text and Markdown). Such
/// a heading is a title, not a link farm; a heading of three worded links
/// is still a menu.
#[test]
fn a_linked_title_with_icon_links_is_not_a_link_farm() {
    let icons = "<a href=/p1#mail><img src=/m.gif alt='Email This Entry'></a>\
                 <a href=/p1/print title='Print This Article'><img src=/p.gif alt=Print></a>";
    let title =
        format!("<h3 class=title><a href=/p1>A post title of several words</a>{icons}</h3>");
    let menu = "<h3><a href=/a>Home</a> <a href=/b>Archive</a> <a href=/c>About</a></h3>";
    let body = "<p>The post's own text, long enough to be read as the content of it.</p>";
    let doc = Doc::parse_str(&format!("<body>{title}{body}{menu}{body}</body>"));
    let h3: Vec<NodeId> = (0..doc.len() as NodeId)
        .filter(|&i| doc.tag(i) == Tag::H3 && doc.is_element(i))
        .collect();
    assert_eq!(h3.len(), 2);
    let marked = structural(&doc);
    assert!(!marked[h3[0] as usize], "the linked title is kept");
    assert!(marked[h3[1] as usize], "the menu is noise");
    let opts = crate::Options::default();
    let page = format!(
        "<html><body><div id=posts>{}</div></body></html>",
        format!("<div class=post>{title}{body}{body}</div>").repeat(4)
    );
    let r = crate::extract(page.as_bytes(), &opts).expect("extracts");
    assert!(
        r.markdown.contains("A post title of several words"),
        "{}",
        r.markdown
    );
}

#[test]
fn a_page_builders_heading_widget_is_the_sections_heading() {
    // Regression (wcxb-dev 0353, 0097, 0095): Elementor wraps each section
    // heading in its own "elementor-widget elementor-widget-heading" block;
    // "widget" named it chrome, and the article lost every heading.
    let widget = |inner: &str| {
        format!(
            "<div class='elementor-widget elementor-widget-heading'>\
             <div class=elementor-widget-container>{inner}</div></div>"
        )
    };
    let para = "<div class='elementor-widget elementor-widget-text-editor'><p>A long \
                paragraph of the section, with words enough to be one of its paragraphs.</p></div>";
    let html = format!(
        "<body><article>{}{}{para}{}{para}{}</article></body>",
        widget("<h1>The page title</h1>"),
        widget("<h2>Working life</h2>"),
        // A sidebar's widget: a heading over a picture is the widget's chrome.
        widget("<h3>Fans</h3><img src=/counter.png>"),
        widget("<h3>Costs</h3>"),
    );
    let doc = Doc::parse_str(&html);
    let kept = unmarked_texts(&doc, &full(&doc, Profile::ARTICLE)).concat();
    assert!(
        kept.contains("Working life") && kept.contains("Costs"),
        "{kept}"
    );
    // The page's <h1> is left to the title; the widget over a picture stays out.
    assert!(
        !kept.contains("The page title") && !kept.contains("Fans"),
        "{kept}"
    );
}

#[test]
fn a_large_block_is_not_read_as_a_heading_widget() {
    // The test is bounded: a block of more elements than a widget has is
    // not walked (hostile nesting costs nothing), whatever it holds.
    let spans = "<span></span>".repeat(HEADING_BLOCK_TAGS as usize);
    let doc = Doc::parse_str(&format!(
        "<body><div class=widget>{spans}<h2>Costs</h2></div></body>"
    ));
    let block = (0..doc.len() as NodeId)
        .find(|&i| doc.attr(i, "class") == Some("widget"))
        .expect("the block");
    assert!(!heading_only(&doc, block));
    let doc = Doc::parse_str("<body><div class=widget><h2>Costs</h2></div></body>");
    let block = (0..doc.len() as NodeId)
        .find(|&i| doc.attr(i, "class") == Some("widget"))
        .expect("the block");
    assert!(heading_only(&doc, block));
}

#[test]
fn a_language_picker_in_the_main_column_is_noise_on_a_list_page() {
    // Regression (wcxb-dev 2904, 2905, 3010): an encyclopedia's list pages
    // opened their Markdown with the picker's fifty languages, as items.
    let picker: String = ["af", "ar", "de", "fr", "ja"]
        .iter()
        .map(|l| format!("<li><a href='https://{l}.x.org/wiki/L' hreflang={l}>Lang {l}</a></li>"))
        .collect();
    let entries = "<li><a href='/wiki/Ada'>Ada</a> and a few words of its own</li>".repeat(20);
    let html = format!(
        "<body><main><h1>List of languages</h1><div class=lang-btn><ul>{picker}</ul></div>\
         <p>An index of notable programming languages.</p><ul>{entries}</ul></main></body>"
    );
    let doc = Doc::parse_str(&html);
    let listing = Profile {
        links_are_noise: false,
        ..Profile::ARTICLE
    };
    let kept = unmarked_texts(&doc, &full(&doc, listing)).concat();
    assert!(kept.contains("Ada") && !kept.contains("Lang de"), "{kept}");
}

/// The one-pass reading answers as the pattern-by-pattern one does.
#[test]
fn matches_any_token_reads_as_matches_token() {
    let pats = ["compare", "was", "old-price", "msrp"];
    for names in [
        "",
        "price price--old ",
        "was-price",
        "item_compare-at",
        "oldprice x",
        "swas",
    ] {
        let by_each = pats.iter().any(|p| matches_token(names, p));
        assert_eq!(matches_any_token(names, &pats), by_each, "{names}");
        assert_eq!(matches_any_token(names, &[""]), matches_token(names, ""));
    }
}
