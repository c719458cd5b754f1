//! Our tokenizer against html5ever's, as text: the tree each builds from the
//! same input, so a test, a generated-document run or a coverage-guided fuzz
//! target (`fuzz/`) can say whether they differ and show where.

use html5ever::QualName;

use super::sink::{build_with, Limits, SData, SNode, NONE};

/// The two trees (ours, html5ever's) for `html`, as indented text: elements
/// with their attributes in order, text, others. Equal when the tokenizers
/// agree; a build error is shown as the tree.
pub fn tree_dumps(html: &str) -> (String, String) {
    (dump(html, true), dump(html, false))
}

fn dump(html: &str, fast: bool) -> String {
    let (nodes, names) = match build_with(html, &Limits::default(), fast) {
        Ok(t) => t,
        Err(e) => return format!("error: {e}"),
    };
    let mut out = String::new();
    // Iterative walk: a fuzzer's deep nesting must not overflow the stack.
    let mut stack = vec![(0u32, 0usize)];
    while let Some((id, depth)) = stack.pop() {
        let Some(n) = nodes.get(id as usize) else {
            break;
        };
        out.push_str(&" ".repeat(depth));
        line(n, names.get(id as usize), &mut out);
        out.push('\n');
        let mut kids = Vec::new();
        let mut c = n.first;
        while c != NONE {
            kids.push(c);
            c = nodes.get(c as usize).map_or(NONE, |k| k.next);
        }
        stack.extend(kids.into_iter().rev().map(|k| (k, depth + 1)));
    }
    out
}

fn line(n: &SNode, name: Option<&QualName>, out: &mut String) {
    match &n.data {
        SData::Document => out.push_str("#document"),
        SData::Element { attrs } => {
            if let Some(name) = name {
                out.push_str(&format!("<{:?}:{}", name.ns, name.local));
            }
            for a in attrs {
                out.push_str(&format!(
                    " {:?}:{}={:?}",
                    a.name.ns, a.name.local, &*a.value
                ));
            }
            out.push('>');
        }
        SData::Text(t) => out.push_str(&format!("{:?}", &**t)),
        SData::Other => out.push_str("#other"),
    }
}
