//! Credit lines of Chinese pages: "作者：宋怡 杨志华", "（记者 胡晓蓉）",
//! "本报记者 葛灵丹", "新京报记者 彭冲 山东冠县报道", "编辑：李楠". Chinese
//! news and blog pages credit their writers in the text, not in a byline
//! element or the markup, so the byline readers in `bylines.rs` find
//! nothing there. The writer (作者, 执笔) comes first, then the reporter
//! (记者), then the editor (编辑, 责任编辑) when no one else is named.
//!
//! Measured with `trawl eval --metadata` on multilingual-dev's Chinese pages
//! (50 with an author in their truth) and trafilatura-eval (two Chinese
//! pages with one): docs/BENCHMARKS.md.

use crate::html::{Doc, NodeId, Tag};

/// Text bytes of the body read for a credit line (a credit may follow a
/// long story: 12,000 characters on one page we measured).
const ZONE: usize = 60_000;

/// Labels, by who they credit: the writer first.
const LABELS: &[(&str, Credit)] = &[
    ("作者", Credit::Writer),
    ("执笔人", Credit::Writer),
    ("执笔", Credit::Writer),
    ("撰文", Credit::Writer),
    // "文：眉间尺": only where a line or a bracket opens it (not "原文：").
    ("文", Credit::Writer),
    ("记者", Credit::Reporter),
    ("责任编辑", Credit::Editor),
    ("责编", Credit::Editor),
    ("编辑", Credit::Editor),
];

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Credit {
    Writer,
    Reporter,
    Editor,
    /// A reporter credited for a picture ("新华社记者 才扬 摄").
    Photographer,
}

/// What may stand just before "记者" in a credit: the start, a bracket, a
/// space, or the end of an outlet's name ("本报", "新华社", "总台", "网").
const REPORTER_LEAD: &[char] = &['（', '(', ' ', '社', '报', '台', '网', '·', '】', ']', '□'];

/// What may follow a reporter's name: the end, a space, a bracket, a
/// slash ("马俊峰/文"), a comma, or "报道" / "发自" / "摄".
fn after_name_ok(rest: &str) -> bool {
    rest.is_empty()
        || rest.starts_with([' ', ')', '）', '/', '、', ',', '，', ']', '】'])
        || ["报道", "发自", "摄"].iter().any(|w| rest.starts_with(w))
}

/// A CJK unified ideograph (the characters of Chinese names).
pub(crate) fn han(c: char) -> bool {
    ('\u{4e00}'..='\u{9fff}').contains(&c)
}

/// The name(s) at the start of `text`: a run of two to four Han characters,
/// then more of two or three each after a space, "、" or a comma that end at
/// a boundary ("王建宏 张文攀"); or a Latin user name. Returns the names and
/// what follows them.
fn names_at(text: &str) -> Option<(Vec<String>, &str)> {
    let text = text.trim_start_matches(|c: char| c.is_whitespace() || "：:【[（(".contains(c));
    let run = |s: &str, max: usize| -> usize {
        s.chars()
            .take_while(|&c| han(c))
            .take(max)
            .map(char::len_utf8)
            .sum()
    };
    let first = run(text, 4);
    if first == 0 {
        let latin: usize = text
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '.' | '-'))
            .map(char::len_utf8)
            .sum();
        return (latin >= 2 && text[..latin].chars().any(|c| c.is_ascii_alphabetic()))
            .then(|| (vec![text[..latin].to_string()], &text[latin..]));
    }
    if text[..first].chars().count() < 2 {
        return None;
    }
    let mut names = vec![text[..first].to_string()];
    let mut rest = &text[first..];
    loop {
        let after_sep = rest.trim_start_matches(|c: char| c.is_whitespace() || "、,，".contains(c));
        if after_sep.len() == rest.len() {
            break;
        }
        let n = run(after_sep, 3);
        let next = &after_sep[n..];
        let boundary = next.is_empty()
            || next.starts_with(|c: char| c.is_whitespace() || "、,，)）]】/".contains(c));
        if after_sep[..n].chars().count() < 2 || !boundary {
            break;
        }
        names.push(after_sep[..n].to_string());
        rest = next;
    }
    Some((names, rest))
}

/// Han characters at most in the place of a bracketed report's credit
/// ("（姚峰 上海报道）").
const PLACE_CHARS: usize = 4;

/// Bytes before "报道" searched for the credit's opening bracket (names
/// and a place run to about 40).
const REPORT_BYTES: usize = 64;

/// The names of a bracketed report's credit without the word for
/// reporter: "（姚峰 上海报道）", "（王建宏 张文攀 北京报道）".
fn reported(text: &str) -> Option<Vec<String>> {
    for (at, _) in text.match_indices("报道") {
        let after = &text[at + "报道".len()..];
        if !after.starts_with(['）', ')']) {
            continue;
        }
        // The bracket is looked for in the bytes just before the word only:
        // a text of many "报道）" is not scanned back to its start each time.
        let mut from = at.saturating_sub(REPORT_BYTES);
        while !text.is_char_boundary(from) {
            from += 1;
        }
        let Some(open) = text[from..at].rfind(['（', '(']).map(|o| from + o) else {
            continue;
        };
        // Read up to the word, so that the place glued to it ("上海报道")
        // is not taken for a name.
        let inner = &text[open..at + "报道".len()];
        let Some((names, rest)) = names_at(inner) else {
            continue;
        };
        let Some(place) = rest.trim().strip_suffix("报道").map(str::trim) else {
            continue;
        };
        if place.chars().count() <= PLACE_CHARS && place.chars().all(han) {
            return Some(names);
        }
    }
    None
}

/// Whether text node `id` is inside a link (a menu's "记者博客").
fn in_link(doc: &Doc, id: NodeId) -> bool {
    let mut p = doc.nodes[id as usize].parent;
    for _ in 0..4 {
        if p == u32::MAX {
            return false;
        }
        if doc.tag(p) == Tag::A {
            return true;
        }
        p = doc.nodes[p as usize].parent;
    }
    false
}

/// The person a Chinese page credits for its text (see the module's
/// comment), names joined with a space as such lines write them.
pub(crate) fn credited(doc: &Doc) -> Option<String> {
    let body = doc.body();
    let texts: Vec<NodeId> = (body..doc.end(body))
        .filter(|&id| !doc.is_element(id))
        .scan(0usize, |read, id| {
            *read += doc.text(id).len();
            (*read <= ZONE).then_some(id)
        })
        .collect();
    let mut best: Option<(Credit, Vec<String>)> = None;
    for (k, &id) in texts.iter().enumerate() {
        // Most texts hold no label's first character, and most are ASCII
        // (checked a block at a time, before a search character by character).
        let t = doc.text(id);
        if t.is_ascii() || !t.contains(['作', '执', '记', '责', '编', '撰', '文', '报']) {
            continue;
        }
        let text = t.split_whitespace().collect::<Vec<_>>().join(" ");
        if best.as_ref().is_none_or(|(b, _)| *b > Credit::Reporter) {
            if let Some(names) = reported(&text) {
                best = Some((Credit::Reporter, names));
            }
        }
        for &(label, credit) in LABELS {
            if best.as_ref().is_some_and(|(b, _)| *b <= credit) {
                continue;
            }
            for (at, _) in text.match_indices(label) {
                let after = &text[at + label.len()..];
                let found = if credit == Credit::Reporter {
                    let lead = text[..at].chars().next_back();
                    let lead_ok = lead.is_none_or(|c| REPORTER_LEAD.contains(&c));
                    names_at(after)
                        .filter(|(_, rest)| lead_ok && !in_link(doc, id) && after_name_ok(rest))
                } else if label == "文"
                    && !text[..at]
                        .chars()
                        .next_back()
                        .is_none_or(|c| c.is_whitespace() || "（(【[|｜".contains(c))
                {
                    None
                } else if after.trim_start().starts_with(['：', ':']) {
                    // Not "编辑部" or "作者简介": a colon follows the label.
                    names_at(after).or_else(|| {
                        let empty = after
                            .trim_start_matches(|c: char| c.is_whitespace() || "：:".contains(c));
                        empty
                            .is_empty()
                            .then(|| texts.get(k + 1).and_then(|&n| names_at(doc.text(n))))
                            .flatten()
                    })
                } else {
                    None
                };
                if let Some((names, rest)) = found {
                    let photo = rest.trim_start().trim_start_matches('/').starts_with('摄');
                    let credit = if credit == Credit::Reporter && photo {
                        Credit::Photographer
                    } else {
                        credit
                    };
                    if best.as_ref().is_some_and(|(b, _)| *b <= credit) {
                        continue;
                    }
                    // A longer label holding a shorter one ("责任编辑"
                    // then "编辑") finds the same names.
                    best = Some((credit, names));
                    break;
                }
            }
        }
    }
    best.map(|(_, names)| names.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(body: &str) -> Option<String> {
        credited(&Doc::parse_str(&format!(
            "<html><body>{body}</body></html>"
        )))
    }

    #[test]
    fn credit_lines_as_chinese_pages_write_them() {
        assert_eq!(
            of("<p>来源：21世纪经济报道</p><p>作者：宋怡 杨志华</p>").as_deref(),
            Some("宋怡 杨志华")
        );
        assert_eq!(
            of("<span>作者：</span><a>安东尼</a> 7 分钟").as_deref(),
            Some("安东尼")
        );
        assert_eq!(
            of("<p>推动云南工业高质量发展。（记者 胡晓蓉） 责任编辑：孙重远</p>").as_deref(),
            Some("胡晓蓉")
        );
        assert_eq!(
            of("<p>本报记者罗科苏盈发自北京 23日下午</p>").as_deref(),
            Some("罗科苏盈")
        );
        assert_eq!(
            of("<p>新京报记者 彭冲 山东冠县报道</p>").as_deref(),
            Some("彭冲")
        );
        assert_eq!(
            of("<p>河南商报记者马俊峰/文受访者供图</p>").as_deref(),
            Some("马俊峰")
        );
        assert_eq!(
            of("<p>来源：新闻晨报 编辑：山石 相关报道：</p>").as_deref(),
            Some("山石")
        );
        assert_eq!(
            of("<p>作者：zboygirl 发表于 2005</p>").as_deref(),
            Some("zboygirl")
        );
        // A bracketed report's credit, with its place or without.
        assert_eq!(
            of("<p>该人士付之一笑。（姚峰 上海报道）</p>").as_deref(),
            Some("姚峰")
        );
        assert_eq!(
            of("<p>正文。(王建宏 张文攀 北京报道)</p>").as_deref(),
            Some("王建宏 张文攀")
        );
        assert_eq!(of("<p>据新华社报道）</p>"), None);
        assert_eq!(of("<p>正文。（新华社报道）</p>"), None);
        // A bracket further back than REPORT_BYTES opens no credit, however
        // many names stand in it (the search back is bounded).
        let far = format!("<p>（{}上海报道）</p>", "王建宏 ".repeat(12));
        assert_eq!(of(&far), None);
        // "文：" opening a line names the writer; "原文：" or "中文：" do not.
        assert_eq!(
            of("<p>文：眉间尺</p><p>正文。</p>").as_deref(),
            Some("眉间尺")
        );
        assert_eq!(of("<p>撰文：李建忠</p>").as_deref(), Some("李建忠"));
        assert_eq!(of("<p>原文：张三李四</p>"), None);
        assert_eq!(of("<p>英文：Hello</p>"), None);
        // A picture's credit gives way to the editor.
        assert_eq!(
            of("<p>留念。新华社记者 才扬 摄</p><p>正文。</p><span>责任编辑： </span><span>焦鹏 </span>")
                .as_deref(),
            Some("焦鹏")
        );
    }

    #[test]
    fn a_reporter_in_running_text_or_a_menu_is_no_credit() {
        assert_eq!(of("<p>他接受记者采访时称，这是第一次。</p>"), None);
        assert_eq!(of("<p>他向记者介绍，工厂去年扩建。</p>"), None);
        assert_eq!(
            of("<ul><li><a href=/b>记者博客</a></li><li><a href=/c>记者调查</a></li></ul>"),
            None
        );
        assert_eq!(of("<p>编辑部的话：欢迎投稿</p>"), None);
        assert_eq!(of("<p>An English page by Jane Doe.</p>"), None);
    }
}
