//! Picture captions outside `<figcaption>`. Sites print the caption and the
//! photo credit of a picture in whatever element their editor emits: a
//! `<div class="image-subtitle">`, a `<small>` under the picture, an `<em>`
//! after a `<br>` in the picture's paragraph. Two signals say "caption"
//! without reading the words: the text repeats the picture's own `alt` or
//! `title`, or it is the first text after the picture, in the picture's own
//! paragraph, set in small or emphasised type.

use crate::extract::auto::article_body::comparable;
use crate::html::{Doc, Kind, NodeId, Tag};

/// Shortest `alt`/`title` (in comparable characters) matched against text:
/// "Foto" or "Logo" could be anything.
const MIN_ALT_CHARS: usize = 15;

/// Longest caption, in characters: a described picture, not a story.
const MAX_CAPTION_CHARS: u32 = 300;

/// Text nodes after a picture looked at for its caption ("Vergrößern" on a
/// zoom button can come first).
const LOOK_AHEAD: usize = 2;

const HEADINGS: [Tag; 6] = [Tag::H1, Tag::H2, Tag::H3, Tag::H4, Tag::H5, Tag::H6];

/// The picture's own description: the longer of its `alt` and `title`.
fn described(doc: &Doc, img: NodeId) -> String {
    let alt = doc.attr(img, "alt").map(comparable).unwrap_or_default();
    let title = doc.attr(img, "title").map(comparable).unwrap_or_default();
    if title.len() > alt.len() {
        title
    } else {
        alt
    }
}

/// The text repeats the description (or the description the text's start).
fn repeats(text: &str, description: &str) -> bool {
    if description.len() < MIN_ALT_CHARS || text.len() < MIN_ALT_CHARS {
        return false;
    }
    text.starts_with(description) || description.starts_with(text)
}

/// The nearest ancestor that is not inline (the picture's paragraph).
fn block_of(doc: &Doc, mut id: NodeId) -> NodeId {
    loop {
        let p = doc.nodes[id as usize].parent;
        if p == u32::MAX {
            return id;
        }
        id = p;
        if !doc.tag(id).is_inline() {
            return id;
        }
    }
}

/// Set in small or emphasised type, up to `block`.
fn set_apart(doc: &Doc, text: NodeId, block: NodeId) -> bool {
    let mut id = doc.nodes[text as usize].parent;
    while id != u32::MAX && id != block {
        let small = doc.tag(id) == Tag::Other && matches!(doc.name(id), "small" | "sub");
        if small || matches!(doc.tag(id), Tag::Em | Tag::I) {
            return true;
        }
        id = doc.nodes[id as usize].parent;
    }
    false
}

/// Characters a caption's block may hold beside it (a credit, a zoom
/// label). Swept 0 / 20 / 60 / unbounded: trafilatura-eval fp -10 / -11 /
/// -14 / -14; wcxb-dev's articles fell at 0 and unbounded (a product name
/// in bold at the head of its paragraph), rose at 20 and 60.
const ALONE_SLACK: u32 = 60;

/// The text is (nearly) all of its block's: a caption stands alone, a
/// name repeating the picture's alt at the head of a paragraph does not.
fn alone(doc: &Doc, text: NodeId) -> bool {
    let block = block_of(doc, text);
    doc.agg[block as usize].chars <= doc.nodes[text as usize].chars + ALONE_SLACK
}

/// An ancestor of `text` (up to its block) is named a caption
/// ("figure__caption").
fn named_caption(doc: &Doc, text: NodeId) -> bool {
    let block = block_of(doc, text);
    let mut id = doc.nodes[text as usize].parent;
    while id != u32::MAX {
        let names = crate::extract::noise::class_id_role(doc, id);
        if crate::extract::noise::matches_token(names, "caption") {
            return true;
        }
        if id == block {
            return false;
        }
        id = doc.nodes[id as usize].parent;
    }
    false
}

/// The largest element around `text` that holds nothing else.
fn caption_element(doc: &Doc, text: NodeId) -> NodeId {
    let own = doc.nodes[text as usize].chars;
    let mut id = text;
    loop {
        let p = doc.nodes[id as usize].parent;
        if p == u32::MAX || doc.agg[p as usize].chars > own || p == doc.body() {
            return id;
        }
        id = p;
    }
}

/// Marks the captions of the page's pictures as noise.
pub(crate) fn mark(doc: &Doc, noise: &mut [bool]) {
    // The last picture seen, its description, and how many texts followed.
    let mut last: Option<(NodeId, String, usize)> = None;
    for i in 0..doc.len() {
        let id = i as NodeId;
        let node = &doc.nodes[i];
        if node.kind == Kind::Element && node.tag == Tag::Img {
            last = Some((id, described(doc, id), 0));
            continue;
        }
        if node.kind != Kind::Text || node.chars == 0 {
            continue;
        }
        let Some((img, description, seen)) = last.as_mut() else {
            continue;
        };
        *seen += 1;
        let (img, first) = (*img, *seen == 1);
        // A heading that repeats its picture's alt is a record's title (a
        // grid of product or show cards), not a caption.
        let heading = doc.tagged_below(id, doc.body(), &HEADINGS) && !named_caption(doc, id);
        let caption = !noise[i]
            && !heading
            && node.chars <= MAX_CAPTION_CHARS
            && ((repeats(&comparable(doc.text(id)), description) && alone(doc, id))
                || (first && {
                    let block = block_of(doc, img);
                    doc.contains(block, id) && set_apart(doc, id, block)
                }));
        if caption {
            let c = caption_element(doc, id);
            noise[c as usize..doc.nodes[c as usize].end as usize].fill(true);
            last = None;
        } else if *seen >= LOOK_AHEAD {
            last = None;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kept(html: &str) -> String {
        let doc = Doc::parse_str(html);
        let mut noise = vec![false; doc.len()];
        mark(&doc, &mut noise);
        crate::extract::noise::unmarked_texts(&doc, &noise)
            .into_iter()
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .collect::<Vec<_>>()
            .join("|")
    }

    const STORY: &str = "<p>The minister spoke to the press about the new budget.</p>";

    #[test]
    fn text_repeating_the_pictures_alt_is_its_caption() {
        // Regression (trafilatura-eval): captions in a <div class=image-subtitle>,
        // a <span class=img-metadata__title>, a <small> under the picture.
        let html = format!(
            "<body>{STORY}<div><a href=/b><img src=a.jpg alt='Roman Prymula, photo: Government archive'></a>\
             <div><span>Roman Prymula, photo: Government archive</span></div></div>{STORY}</body>"
        );
        assert_eq!(
            kept(&html),
            format!(
                "{0}|{0}",
                "The minister spoke to the press about the new budget."
            )
        );
        // A zoom button may come first.
        let html = "<body><a href=/z><img src=a.jpg title='A round notch for the camera in the display.'>\
             <b>Zoom</b></a><strong>A round notch for the camera in the display.</strong><p>Story.</p></body>";
        assert_eq!(kept(html), "Zoom|Story.");
    }

    #[test]
    fn a_name_heading_its_paragraph_is_not_a_caption() {
        // Regression (wcxb-dev): a service's name in bold opens the
        // paragraph under its logo.
        let html =
            "<body><p><img src=r.png alt='Amazon Rekognition'><strong>Amazon Rekognition</strong> \
             helps identify objects, people, scenes and text in images and videos, and flags \
             what is unsafe.</p></body>";
        assert_eq!(
            kept(html),
            "Amazon Rekognition|helps identify objects, people, scenes and text in images and \
             videos, and flags what is unsafe."
        );
    }

    #[test]
    fn small_type_after_a_picture_in_its_paragraph_is_its_caption() {
        let html = "<body><p><img src=g.png><br><em>(Credit: Clayton Aldern / Grist)</em></p>\
             <p><img src=h.png></p><p><em>Emphasised</em> opening of the next paragraph.</p></body>";
        assert_eq!(kept(html), "Emphasised|opening of the next paragraph.");
    }

    #[test]
    fn a_cards_heading_repeating_its_picture_is_not_a_caption() {
        let card = |name: &str| {
            format!(
                "<div class=card><a href=/s><img src=s.jpg alt='{name}'></a><h5>{name}</h5></div>"
            )
        };
        let html = format!(
            "<body>{}{}</body>",
            card("Voice Recording Bootcamp"),
            card("Space Capital Podcast")
        );
        assert_eq!(
            kept(&html),
            "Voice Recording Bootcamp|Space Capital Podcast"
        );
        // Unless the heading is named a caption.
        let html = "<body><div><img src=r.jpg alt='A turning point: the crowd becomes a mob.'>\
             <h2 class=figure__caption>A turning point: the crowd becomes a mob.</h2></div></body>";
        assert_eq!(kept(html), "");
    }
}
