//! Tag and attribute names as interned atoms, the common ones without a
//! hash: `LocalName::from` hashes every name to find its static atom (a
//! million names on 300 pages, 1.5% of an extraction's instructions), while
//! `div`, `a`, `class` and `href` alone are most of a page's names.

use html5ever::{local_name, LocalName};

/// The atom of `name` (already lower case): the frequent names by their
/// length and bytes, any other by `LocalName::from`. Same atom either way.
pub(super) fn atom(name: &str) -> LocalName {
    let known = match name.len() {
        1 => match name {
            "a" => Some(local_name!("a")),
            "p" => Some(local_name!("p")),
            "i" => Some(local_name!("i")),
            "b" => Some(local_name!("b")),
            "d" => Some(local_name!("d")),
            "g" => Some(local_name!("g")),
            _ => None,
        },
        2 => match name {
            "li" => Some(local_name!("li")),
            "ul" => Some(local_name!("ul")),
            "td" => Some(local_name!("td")),
            "tr" => Some(local_name!("tr")),
            "id" => Some(local_name!("id")),
            "h2" => Some(local_name!("h2")),
            "h3" => Some(local_name!("h3")),
            "h4" => Some(local_name!("h4")),
            "br" => Some(local_name!("br")),
            "em" => Some(local_name!("em")),
            _ => None,
        },
        3 => match name {
            "div" => Some(local_name!("div")),
            "svg" => Some(local_name!("svg")),
            "img" => Some(local_name!("img")),
            "src" => Some(local_name!("src")),
            "rel" => Some(local_name!("rel")),
            "alt" => Some(local_name!("alt")),
            "nav" => Some(local_name!("nav")),
            "use" => Some(local_name!("use")),
            _ => None,
        },
        4 => match name {
            "span" => Some(local_name!("span")),
            "href" => Some(local_name!("href")),
            "path" => Some(local_name!("path")),
            "link" => Some(local_name!("link")),
            "meta" => Some(local_name!("meta")),
            "type" => Some(local_name!("type")),
            "name" => Some(local_name!("name")),
            "fill" => Some(local_name!("fill")),
            "role" => Some(local_name!("role")),
            _ => None,
        },
        5 => match name {
            "class" => Some(local_name!("class")),
            "style" => Some(local_name!("style")),
            "width" => Some(local_name!("width")),
            "input" => Some(local_name!("input")),
            "label" => Some(local_name!("label")),
            "value" => Some(local_name!("value")),
            "title" => Some(local_name!("title")),
            _ => None,
        },
        6 => match name {
            "script" => Some(local_name!("script")),
            "strong" => Some(local_name!("strong")),
            "option" => Some(local_name!("option")),
            "button" => Some(local_name!("button")),
            "height" => Some(local_name!("height")),
            "target" => Some(local_name!("target")),
            "figure" => Some(local_name!("figure")),
            _ => None,
        },
        7 => match name {
            "section" => Some(local_name!("section")),
            "content" => Some(local_name!("content")),
            "viewbox" => Some(local_name!("viewbox")),
            "loading" => Some(local_name!("loading")),
            _ => None,
        },
        8 => match name {
            "noscript" => Some(local_name!("noscript")),
            "decoding" => Some(local_name!("decoding")),
            _ => None,
        },
        10 => match name {
            "aria-label" => Some(local_name!("aria-label")),
            _ => None,
        },
        _ => None,
    };
    known.unwrap_or_else(|| LocalName::from(name))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fast_path_gives_the_interned_atom() {
        let names = [
            "a",
            "p",
            "i",
            "b",
            "d",
            "g",
            "li",
            "ul",
            "td",
            "tr",
            "id",
            "h2",
            "h3",
            "h4",
            "br",
            "em",
            "div",
            "svg",
            "img",
            "src",
            "rel",
            "alt",
            "nav",
            "use",
            "span",
            "href",
            "path",
            "link",
            "meta",
            "type",
            "name",
            "fill",
            "role",
            "class",
            "style",
            "width",
            "input",
            "label",
            "value",
            "title",
            "script",
            "strong",
            "option",
            "button",
            "height",
            "target",
            "figure",
            "section",
            "content",
            "viewbox",
            "loading",
            "noscript",
            "decoding",
            "aria-label",
            "article",
            "data-src",
            "x-custom",
            "",
            "q",
        ];
        for name in names {
            assert_eq!(atom(name), LocalName::from(name), "{name}");
            assert_eq!(&*atom(name), name);
        }
    }
}
