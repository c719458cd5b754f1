//! A table as a GFM table: rows of cells, `colspan` and `rowspan` expanded
//! so every row has every column, the first row kept the header. A table
//! that is layout (one column or one row, `role="presentation"`) or holds
//! what GFM cannot (a nested table, a list, code, a quote) is not written
//! as one: the walk writes its cells as blocks instead. This module reads
//! the table's shape; the walk writes its rows.

use crate::html::dom::{Doc, Kind, NodeId};
use crate::html::render::Selection;
use crate::html::tag::Tag;

/// More columns than this is no table a reader reads.
const MAX_COLUMNS: usize = 64;
/// Most cells written as a table.
const MAX_CELLS: usize = 20_000;
/// Largest span honoured.
const MAX_SPAN: usize = 64;

/// What the walk needs to write a GFM table.
pub(super) struct Layout {
    /// The rows' cells on a grid (`None` where a span covers it).
    pub(super) grid: Vec<Vec<Option<NodeId>>>,
    pub(super) cols: usize,
    pub(super) caption: Option<NodeId>,
    /// `| --- | :-: |`
    pub(super) delimiter: String,
}

/// What the walk reads of a page: the document, the selection, and per
/// node whether its subtree holds selected words.
pub(super) struct Seen<'a> {
    pub(super) doc: &'a Doc,
    pub(super) sel: &'a Selection,
    pub(super) content: &'a [bool],
}

/// Table `id`'s layout as a GFM table; `None` when it is not one (the
/// caller writes its content as blocks).
pub(super) fn layout(w: &Seen<'_>, id: NodeId) -> Option<Layout> {
    let doc = w.doc;
    if doc
        .attr(id, "role")
        .is_some_and(|r| r.eq_ignore_ascii_case("presentation"))
    {
        return None;
    }
    let mut rows: Vec<NodeId> = Vec::new();
    let mut caption = None;
    for i in id + 1..doc.end(id) {
        let node = &doc.nodes[i as usize];
        if node.kind != Kind::Element || !w.content[i as usize] {
            continue;
        }
        match node.tag {
            Tag::Table | Tag::Ul | Tag::Ol | Tag::Pre | Tag::Blockquote | Tag::Dl => return None,
            Tag::Tr => rows.push(i),
            Tag::Caption if caption.is_none() => caption = Some(i),
            _ => {}
        }
    }
    let grid = grid(w, &rows)?;
    let cols = grid.iter().map(Vec::len).max().unwrap_or(0);
    // A one-column or one-row table is layout, unless it has a header row.
    let header = grid.first().is_some_and(|row| {
        row.iter()
            .flatten()
            .any(|&c| doc.nodes[c as usize].tag == Tag::Th || in_thead(w, c))
    });
    if cols == 0 || ((cols < 2 || grid.len() < 2) && !header) {
        return None;
    }
    // Words in the table but in no cell (a stray element the parser left
    // in a row) would be lost: then it is written as blocks.
    let words = |from: NodeId, to: NodeId| {
        (from..to)
            .filter(|&i| {
                doc.nodes[i as usize].kind == Kind::Text
                    && doc.nodes[i as usize].chars > 0
                    && w.sel.get(i)
            })
            .count()
    };
    let in_cells: usize = grid
        .iter()
        .flatten()
        .flatten()
        .chain(caption.iter())
        .map(|&c| words(c, doc.end(c)))
        .sum();
    if in_cells != words(id, doc.end(id)) {
        return None;
    }
    let delimiter = delimiter_row(w, grid.first().map(Vec::as_slice).unwrap_or(&[]), cols);
    Some(Layout {
        grid,
        cols,
        caption,
        delimiter,
    })
}

/// Whether a cell is in the table's `<thead>`.
fn in_thead(w: &Seen<'_>, cell: NodeId) -> bool {
    let doc = w.doc;
    let tr = doc.nodes[cell as usize].parent;
    let Some(up) = doc.nodes.get(tr as usize).map(|n| n.parent) else {
        return false;
    };
    doc.nodes
        .get(up as usize)
        .is_some_and(|n| n.tag == Tag::Thead)
}

/// `| --- | :-: |`: each column aligned as its header cell says (`align`
/// or a `text-align` style).
fn delimiter_row(w: &Seen<'_>, header: &[Option<NodeId>], cols: usize) -> String {
    let mut out = String::from("|");
    for col in 0..cols {
        let cell = header.get(col).copied().flatten();
        let align = cell.and_then(|c| {
            let style = w.doc.attr(c, "style").unwrap_or("").to_ascii_lowercase();
            let from_style = style
                .split(';')
                .filter_map(|d| d.split_once(':'))
                .find(|(k, _)| k.trim() == "text-align")
                .map(|(_, v)| v.trim().to_string());
            w.doc
                .attr(c, "align")
                .map(str::to_ascii_lowercase)
                .or(from_style)
        });
        out.push_str(match align.as_deref() {
            Some("left") => " :-- |",
            Some("center") => " :-: |",
            Some("right") => " --: |",
            _ => " --- |",
        });
    }
    out
}

/// The rows' cells on a grid (`None` where a span covers it); `None` when
/// the table is too large to write as one.
fn grid(w: &Seen<'_>, rows: &[NodeId]) -> Option<Vec<Vec<Option<NodeId>>>> {
    let doc = w.doc;
    let mut grid: Vec<Vec<Option<NodeId>>> = Vec::new();
    // Per column: rows still covered by a rowspan above.
    let mut covered: Vec<usize> = Vec::new();
    let mut cells = 0usize;
    for &tr in rows {
        let mut row: Vec<Option<NodeId>> = Vec::new();
        let mut col = 0;
        for cell in doc.children(tr) {
            let node = &doc.nodes[cell as usize];
            if node.kind != Kind::Element || !matches!(node.tag, Tag::Td | Tag::Th) {
                continue;
            }
            while covered.get(col).is_some_and(|&c| c > 0) {
                row.push(None);
                col += 1;
            }
            let span = |name: &str| {
                doc.attr(cell, name)
                    .and_then(|v| v.trim().parse::<usize>().ok())
                    .unwrap_or(1)
                    .clamp(1, MAX_SPAN)
            };
            let (colspan, rowspan) = (span("colspan"), span("rowspan"));
            for k in 0..colspan {
                row.push((k == 0).then_some(cell));
                if covered.len() <= col {
                    covered.resize(col + 1, 0);
                }
                covered[col] = rowspan;
                col += 1;
            }
            if col > MAX_COLUMNS {
                return None;
            }
        }
        while col < covered.len() {
            if covered[col] > 0 {
                row.push(None);
            }
            col += 1;
        }
        for c in covered.iter_mut() {
            *c = c.saturating_sub(1);
        }
        cells += row.len();
        if cells > MAX_CELLS {
            return None;
        }
        if row.iter().flatten().any(|&c| w.content[c as usize]) {
            grid.push(row);
        }
    }
    Some(grid)
}
