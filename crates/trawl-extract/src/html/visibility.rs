//! What a reader sees: which elements a desktop browser would not show
//! (scripts, styles, `hidden`, `display:none`, utility classes read per
//! breakpoint). The flat tree leaves them out; [`stays_hidden`] shows a few
//! of them back (loading masks, collapsed panels).

use html5ever::{local_name, Attribute, QualName};
use rustc_hash::FxHashSet;

use super::sink::{SData, SNode, NONE};

/// Elements that never show text.
pub(super) fn invisible_tag(name: &str) -> bool {
    matches!(
        name,
        "script"
            | "style"
            | "template"
            | "iframe"
            | "object"
            | "embed"
            | "svg"
            | "math"
            | "canvas"
            | "video"
            | "audio"
            | "select"
            | "textarea"
            | "head"
            | "title"
            | "meta"
            | "link"
            | "base"
            | "source"
            | "track"
            | "map"
            | "datalist"
            | "dialog"
            // Ruby annotations (furigana, pinyin) and their fallback
            // parentheses: a reading aid over the text, not the text.
            | "rt"
            | "rp"
    )
}

/// Hidden from view by `hidden`, styles, utility classes or an input's type.
pub(super) fn hidden_from_view(name: &str, attrs: &[Attribute]) -> bool {
    for a in attrs {
        let v = a.value.as_ref();
        let hidden = match a.name.local {
            local_name!("hidden") => !streamed_boundary(attrs),
            local_name!("style") => style_hides(v),
            local_name!("type") => name == "input" && v.eq_ignore_ascii_case("hidden"),
            local_name!("class") => may_hide(v) && class_hides(v),
            _ => false,
        };
        if hidden {
            return true;
        }
    }
    false
}

/// React's streaming renderer sends late content in `<div hidden id="S:n">`
/// and moves it into place with a script: what the reader sees.
fn streamed_boundary(attrs: &[Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.name.local == local_name!("id")
            && a.value
                .strip_prefix("S:")
                .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    })
}

/// Whether a class list holds a fragment every hiding class holds one of
/// ("hid", "Hid", "none", "invisible", "sr-only", "screen", "show-for"):
/// one pass over its bytes rules out most lists before their tokens are
/// parsed ([`class_hides`]).
fn may_hide(classes: &str) -> bool {
    let b = classes.as_bytes();
    let at = |i: usize, frag: &[u8]| b.get(i..i + frag.len()) == Some(frag);
    // A fragment's first byte, looked up in a table: most bytes are none,
    // and a table is cheaper than a `match` per byte (0.5% of a run).
    (0..b.len()).any(|i| {
        FRAGMENT_START[usize::from(b[i])]
            && match b[i] {
                b'h' | b'H' => at(i + 1, b"id"),
                b'n' => at(i + 1, b"one"),
                b'i' => at(i + 1, b"nvisible"),
                b's' => at(i + 1, b"r-only") || at(i + 1, b"creen") || at(i + 1, b"how-for"),
                _ => false,
            }
    })
}

/// The bytes a hiding fragment starts with: the first bytes of
/// [`may_hide`]'s `match` arms (a fragment added there is added here).
const FRAGMENT_START: [bool; 256] = {
    let mut t = [false; 256];
    t[b'h' as usize] = true;
    t[b'H' as usize] = true;
    t[b'n' as usize] = true;
    t[b'i' as usize] = true;
    t[b's' as usize] = true;
    t
};

/// Whether a class list hides the element on a desktop screen (1280 px, the
/// width readers and annotators see). Display utilities apply by breakpoint,
/// the widest one at or below the screen winning: Tailwind's `hidden lg:block`
/// and Bootstrap's `d-none d-md-flex` are shown there, `lg:hidden` (the
/// mobile copy of a menu) is not.
fn class_hides(classes: &str) -> bool {
    // (breakpoint rank, hidden) of the winning display utility so far.
    let mut display: Option<(u8, bool)> = None;
    for token in classes.split_ascii_whitespace() {
        let Some((rank, hidden)) = display_utility(token) else {
            continue;
        };
        if rank <= DESKTOP && display.is_none_or(|(r, _)| rank >= r) {
            display = Some((rank, hidden));
        }
    }
    display.is_some_and(|(_, hidden)| hidden)
}

/// Breakpoint rank of the desktop screen: `xl` (1280 px).
const DESKTOP: u8 = 4;

/// A display utility's breakpoint rank (0 = every width) and whether it hides.
fn display_utility(token: &str) -> Option<(u8, bool)> {
    const SHOWN: [&str; 6] = ["block", "flex", "grid", "inline", "table", "contents"];
    let shown = |v: &str| SHOWN.iter().any(|s| v.starts_with(s));
    let rank = |bp: &str| match bp {
        "sm" => Some(1),
        "md" => Some(2),
        "lg" => Some(3),
        "xl" => Some(4),
        "xxl" | "2xl" => Some(5),
        _ => None,
    };
    if let Some((prefix, value)) = token.split_once(':') {
        // Breakpoint variants only: `group-hover:block` is a hover menu.
        let r = rank(prefix)?;
        return match value {
            "hidden" => Some((r, true)),
            v if shown(v) => Some((r, false)),
            _ => None,
        };
    }
    if let Some(rest) = token.strip_prefix("d-") {
        let (r, value) = match rest.split_once('-') {
            Some((bp, v)) if rank(bp).is_some() => (rank(bp)?, v),
            _ => (0, rest),
        };
        return match value {
            "none" => Some((r, true)),
            v if shown(v) => Some((r, false)),
            _ => None,
        };
    }
    hiding_class(token).then_some((0, true))
}

/// Class tokens that hide an element in every viewport (utility classes of
/// common CSS frameworks and consent tools). Responsive variants such as
/// `hidden-xs` are visible elsewhere and do not count.
const HIDING_CLASSES: &[&str] = &[
    "hidden",
    "hide",
    "is-hidden",
    "d-none",
    "u-hidden",
    "invisible",
    "visually-hidden",
    "visuallyhidden",
    "sr-only",
    "screen-reader-text",
    "screenreader-only",
    "ot-hide",
    "display-none",
    "js-hidden",
    "no-js-hidden",
    "ipsHide",
    "uk-hidden",
    "slds-hide",
];

/// Responsive classes of Bootstrap 3 and Foundation that hide an element at
/// desktop width (1280 px): `hidden-lg`, `show-for-small-only`,
/// `hide-for-large`. Bootstrap 3's `visible-sm` is left alone: sites reuse
/// the name for their own "from small up" (a category page lost its grid).
const HIDDEN_ON_DESKTOP: &[&str] = &[
    "hidden-lg",
    "hide-for-large",
    "hide-for-large-up",
    "show-for-small-only",
    "show-for-medium-only",
    "show-for-small",
    "show-for-medium-down",
];

/// A class token of [`HIDING_CLASSES`] or [`HIDDEN_ON_DESKTOP`].
fn hiding_class(token: &str) -> bool {
    HIDING_CLASSES.contains(&token) || HIDDEN_ON_DESKTOP.contains(&token)
}

fn style_hides(style: &str) -> bool {
    // One pass over the bytes (`str::contains` built a searcher per call,
    // for every styled element).
    let b = style.as_bytes();
    let at = |i: usize, frag: &[u8]| b.get(i..i + frag.len()) == Some(frag);
    if !(0..b.len()).any(|i| match b[i] {
        b'n' => at(i, b"none"),
        b'h' => at(i, b"hidden"),
        _ => false,
    }) {
        return false;
    }
    let mut compact = String::with_capacity(style.len());
    for c in style.chars().filter(|c| !c.is_whitespace()) {
        compact.extend(c.to_lowercase());
    }
    compact.contains("display:none") || compact.contains("visibility:hidden")
}

/// Elements hidden by attributes that hold at least this share (percent) of
/// the page's text are shown. Hidden menus, tabs and mobile copies hold up
/// to about two thirds on wcxb-dev pages; loading masks 75-100%.
const MASK_SHARE_PCT: usize = 75;

/// Marks the elements hidden by their attributes that stay hidden (indexed
/// like `snodes`); some attribute-hidden elements are shown all the same:
/// - a loading mask: a hidden element holding most of the page's text
///   (`visibility:hidden` until the styles arrive, `display:none` until a
///   script runs) that the reader never sees, so what is under it is the page;
///   so is a hidden `<main>`, or a hidden child holding most of `<main>`'s
///   text (a lock screen app hides the shop's content until its script runs,
///   while the header's menus hold more text than the product);
/// - a collapsed panel: an accordion answer or a tab that a control on the page
///   opens (`aria-controls` names its id). The reader opens them; they are
///   content (an FAQ's answers, a service's tabs).
pub(super) fn stays_hidden(snodes: &[SNode], names: &[QualName]) -> Vec<bool> {
    let mut out = vec![false; snodes.len()];
    if snodes.is_empty() {
        return out;
    }
    // Text length below each node, skipping never-shown tags; the
    // attribute-hidden elements with their ids; the ids that controls name.
    let mut text = vec![0usize; snodes.len()];
    let mut link_text = vec![0usize; snodes.len()];
    // Holds structured data (`itemprop`).
    let mut data = vec![false; snodes.len()];
    // (element, its id, hidden by aria-hidden alone)
    let mut hidden: Vec<(u32, Option<&str>, bool)> = Vec::new();
    let mut controlled: FxHashSet<&str> = FxHashSet::default();
    let mut with_id: Vec<(u32, &str)> = Vec::new();
    let mut mains: FxHashSet<u32> = FxHashSet::default();
    // Hidden from view by a screen reader's class (`sr-only`).
    let mut readers: FxHashSet<u32> = FxHashSet::default();
    // (node, next child to visit, inside a link)
    let mut stack = vec![(0u32, snodes[0].first, false)];
    while let Some(top) = stack.last_mut() {
        let (node, cur, in_link) = *top;
        if cur == NONE {
            stack.pop();
            if let Some(&(parent, _, _)) = stack.last() {
                text[parent as usize] += text[node as usize];
                link_text[parent as usize] += link_text[node as usize];
                data[parent as usize] |= data[node as usize];
            }
            continue;
        }
        top.1 = snodes[cur as usize].next;
        match &snodes[cur as usize].data {
            SData::Text(t) => {
                let n = t.len() - spaces(t.as_bytes());
                text[node as usize] += n;
                if in_link {
                    link_text[node as usize] += n;
                }
            }
            SData::Element { attrs } => {
                let name: &str = names[cur as usize].local.as_ref();
                if invisible_tag(name) {
                    continue;
                }
                // The attributes read in one pass, names compared as
                // interned atoms (one integer each); the first of a name wins.
                let (mut controls, mut id, mut role) = (None, None, None);
                let (mut itemprop, mut aria) = (false, false);
                for a in attrs.iter() {
                    let v: &str = &a.value;
                    match a.name.local {
                        local_name!("aria-controls") => _ = controls.get_or_insert(v),
                        local_name!("id") => _ = id.get_or_insert(v),
                        local_name!("role") => _ = role.get_or_insert(v),
                        local_name!("itemprop") => itemprop = true,
                        // Hidden from screen readers: a browser shows it,
                        // and we leave it out as decoration (icons, a price
                        // drawn twice for the eye) unless it holds
                        // structured data (below).
                        local_name!("aria-hidden") => aria |= v.eq_ignore_ascii_case("true"),
                        _ => {}
                    }
                }
                if let Some(ids) = controls {
                    controlled.extend(ids.split_ascii_whitespace());
                }
                // Structured data. Not controls: an off-canvas menu hidden
                // with aria-hidden holds a close button and a search form,
                // and showing it put a list of event dates at a page's head
                // (trafilatura-eval date 0.843 -> 0.842); showing a buy
                // box's form cost three wcxb-dev product pages their text
                // (store pickup panels; 0.054 page-F1 summed).
                if itemprop {
                    data[cur as usize] = true;
                }
                let from_view = hidden_from_view(name, attrs);
                if aria || from_view {
                    hidden.push((cur, id, aria && !from_view));
                }
                if from_view && !aria && for_readers(attrs) {
                    readers.insert(cur);
                }
                if let Some(id) = id {
                    with_id.push((cur, id));
                }
                if name == "main" || role == Some("main") {
                    mains.insert(cur);
                }
                stack.push((cur, snodes[cur as usize].first, in_link || name == "a"));
            }
            _ => {}
        }
    }
    // A panel's collapsing wrapper (`<div style="display:none"><div
    // id=panel-3>…`) opens with it: the ancestors that hold the panel's
    // text and nothing more count as the panel.
    let mut panel_wrapper = FxHashSet::default();
    for (node, id) in with_id {
        if !controlled.contains(id) {
            continue;
        }
        let mut up = snodes[node as usize].parent;
        while up != NONE && text[up as usize] == text[node as usize] {
            panel_wrapper.insert(up);
            up = snodes[up as usize].parent;
        }
    }
    let total = text[0];
    for (h, id, aria_only) in hidden {
        // Hidden from screen readers only, over a product's microdata: data
        // a browser shows; or beside its twin written for screen readers
        // alone (WooCommerce's `<del aria-hidden="true">$45.00</del><span
        // class="screen-reader-text">Original price was: $45.00.</span>`):
        // the eye's copy, which a browser shows.
        if aria_only && (data[h as usize] || has_reader_twin(snodes, h, &readers, &text)) {
            continue;
        }
        let (t, l) = (text[h as usize], link_text[h as usize]);
        // The page's `<main>` (or its one big child) hidden until a
        // script unlocks it is a mask too, whatever the menus hold.
        let parent = snodes[h as usize].parent;
        let main_mask = mains.contains(&h)
            || (parent != NONE
                && mains.contains(&parent)
                && t * 100 >= text[parent as usize] * MASK_SHARE_PCT);
        let mask = (total > 0 && t * 100 >= total * MASK_SHARE_PCT) || (t > 0 && main_mask);
        // A menu a button opens is links; an answer is text.
        let opens = id.is_some_and(|id| controlled.contains(id)) || panel_wrapper.contains(&h);
        let panel = opens && l * 2 < t;
        out[h as usize] = !(mask || panel);
    }
    out
}

/// Class tokens of text written for screen readers alone.
const READER_CLASSES: &[&str] = &[
    "sr-only",
    "screen-reader-text",
    "screenreader-only",
    "visually-hidden",
    "visuallyhidden",
];

/// Whether an element's class writes it for screen readers alone.
fn for_readers(attrs: &[Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.name.local == local_name!("class")
            && a.value
                .split_ascii_whitespace()
                .any(|t| READER_CLASSES.contains(&t))
    })
}

/// Whether the element next to `h` on either side (past blank text) is
/// text written for screen readers alone.
fn has_reader_twin(snodes: &[SNode], h: u32, readers: &FxHashSet<u32>, text: &[usize]) -> bool {
    if readers.is_empty() || text[h as usize] == 0 {
        return false;
    }
    let blank = |n: u32| matches!(&snodes[n as usize].data, SData::Text(t) if t.trim().is_empty());
    let twin = |mut n: u32, step: fn(&SNode) -> u32| {
        while n != NONE && blank(n) {
            n = step(&snodes[n as usize]);
        }
        n != NONE && readers.contains(&n) && text[n as usize] > 0
    };
    let node = &snodes[h as usize];
    twin(node.next, |s| s.next) || twin(node.prev, |s| s.prev)
}

/// How many bytes of `t` are ASCII whitespace. Counted branch-free in
/// byte lanes, 255 bytes at a time, so the compiler checks a vector of bytes
/// a step (the byte-by-byte count was a third of this pass).
fn spaces(t: &[u8]) -> usize {
    t.chunks(255)
        .map(|chunk| {
            let n = chunk.iter().fold(0u8, |n, &b| {
                n + u8::from(matches!(b, b' ' | b'\t' | b'\n' | b'\x0C' | b'\r'))
            });
            usize::from(n)
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spaces_are_counted_as_is_ascii_whitespace_counts_them() {
        let mut t: Vec<u8> = (0..=255u8).collect();
        t.extend("a b\tc\u{a0}d\x0be\r\n".repeat(300).bytes());
        for len in [0, 1, 254, 255, 256, 600, t.len()] {
            let want = t[..len].iter().filter(|b| b.is_ascii_whitespace()).count();
            assert_eq!(spaces(&t[..len]), want, "{len}");
        }
    }

    /// Issue 59: WooCommerce prints a sale as `<del aria-hidden>` and
    /// `<ins aria-hidden>`, each followed by its screen reader's twin; both
    /// copies hidden left the product page without a price.
    #[test]
    fn the_eyes_copy_beside_a_screen_readers_twin_is_shown() {
        let doc = crate::html::Doc::parse_str(
            r#"<h1>Hoodie</h1><p class=price><del aria-hidden="true">$45.00</del>
            <span class="screen-reader-text">Original price was: $45.00.</span><ins aria-hidden="true">$35.00</ins><span class="screen-reader-text">Current price is: $35.00.</span></p>
            <p><span aria-hidden="true">Decoration</span> <span>Shown</span></p>"#,
        );
        let text = doc.plain_text(doc.body());
        assert!(text.contains("$45.00") && text.contains("$35.00"), "{text}");
        assert!(!text.contains("Current price is"), "{text}");
        // Without a twin, aria-hidden text stays out.
        assert!(
            !text.contains("Decoration") && text.contains("Shown"),
            "{text}"
        );
    }

    #[test]
    fn every_hiding_class_passes_the_prefilter() {
        // Every listed class, and the breakpoint and Bootstrap utilities.
        let utilities = ["xl:hidden", "d-xl-none", "card lg:hidden"];
        let hiding = HIDING_CLASSES
            .iter()
            .chain(HIDDEN_ON_DESKTOP)
            .chain(&utilities);
        for class in hiding {
            assert!(class_hides(class), "{class}");
            assert!(may_hide(class), "{class}");
        }
        for class in [
            "card product-tile",
            "nav-main lg:block",
            "d-flex",
            "col-md-6",
        ] {
            assert!(!may_hide(class), "{class}");
            assert!(!class_hides(class), "{class}");
        }
    }
}
