//! What a reader sees: which elements a desktop browser would not show
//! (scripts, styles, `hidden`, `display:none`, utility classes read per
//! breakpoint). The flat tree leaves them out; `dom::stays_hidden` shows a few
//! of them back (loading masks, collapsed panels).

use html5ever::Attribute;

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

/// Elements hidden by their attributes (`hidden`, styles, utility classes):
/// scripts may show them; some are shown all the same (`dom::stays_hidden`).
pub(super) fn hidden_by_attrs(name: &str, attrs: &[Attribute]) -> bool {
    aria_hidden(attrs) || hidden_from_view(name, attrs)
}

/// `aria-hidden="true"`: hidden from screen readers. A browser shows it, and
/// we leave it out as decoration (icons, a price drawn twice for the eye)
/// unless it holds structured data (`dom::stays_hidden`).
pub(super) fn aria_hidden(attrs: &[Attribute]) -> bool {
    attrs
        .iter()
        .any(|a| &*a.name.local == "aria-hidden" && a.value.eq_ignore_ascii_case("true"))
}

/// Hidden from view by `hidden`, styles, utility classes or an input's type.
pub(super) fn hidden_from_view(name: &str, attrs: &[Attribute]) -> bool {
    for a in attrs {
        let n = a.name.local.as_ref();
        let v = a.value.as_ref();
        let hidden = match n {
            "hidden" => !streamed_boundary(attrs),
            "style" => style_hides(v),
            "type" => name == "input" && v.eq_ignore_ascii_case("hidden"),
            "class" => class_hides(v),
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
        &*a.name.local == "id"
            && a.value
                .strip_prefix("S:")
                .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    })
}

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
fn hiding_class(token: &str) -> bool {
    matches!(
        token,
        "hidden"
            | "hide"
            | "is-hidden"
            | "d-none"
            | "u-hidden"
            | "invisible"
            | "visually-hidden"
            | "visuallyhidden"
            | "sr-only"
            | "screen-reader-text"
            | "screenreader-only"
            | "ot-hide"
            | "display-none"
            | "js-hidden"
            | "no-js-hidden"
            | "ipsHide"
            | "uk-hidden"
            | "slds-hide"
    ) || hidden_on_desktop(token)
}

/// Responsive classes of Bootstrap 3 and Foundation that hide an element at
/// desktop width (1280 px): `hidden-lg`, `show-for-small-only`,
/// `hide-for-large`. Bootstrap 3's `visible-sm` is left alone: sites reuse
/// the name for their own "from small up" (a category page lost its grid).
fn hidden_on_desktop(token: &str) -> bool {
    matches!(
        token,
        "hidden-lg"
            | "hide-for-large"
            | "hide-for-large-up"
            | "show-for-small-only"
            | "show-for-medium-only"
            | "show-for-small"
            | "show-for-medium-down"
    )
}

fn style_hides(style: &str) -> bool {
    if !style.contains("none") && !style.contains("hidden") {
        return false;
    }
    let compact: String = style
        .chars()
        .filter(|c| !c.is_whitespace())
        .flat_map(char::to_lowercase)
        .collect();
    compact.contains("display:none") || compact.contains("visibility:hidden")
}
