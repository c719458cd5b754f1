//! html5ever's tree builder writes into [`Sink`], a doubly linked arena that
//! supports its repairs (re-parenting, foster parenting); [`Guard`] sits
//! between the tokenizer and the tree builder and enforces the parse
//! [`Limits`] (nesting depth, token count, deadline). [`build`] runs both and
//! hands the arena to `dom`, which flattens it into a [`super::Doc`].

use std::borrow::Cow;
use std::cell::{Cell, Ref, RefCell};
use std::collections::HashMap;
use std::time::Instant;

use html5ever::tendril::StrTendril;
use html5ever::tokenizer::{
    BufferQueue, TagKind, Token, TokenSink, TokenSinkResult, Tokenizer, TokenizerOpts,
};
use html5ever::tree_builder::{
    ElementFlags, NodeOrText, QuirksMode, TreeBuilder, TreeBuilderOpts, TreeSink,
};
use html5ever::TokenizerResult;
use html5ever::{local_name, ns, Attribute, LocalName, QualName};

use crate::error::ExtractError;

/// No node (the arena's null index).
pub(super) const NONE: u32 = u32::MAX;

/// Resource limits for parsing one page.
#[derive(Clone, Debug)]
pub(crate) struct Limits {
    /// Elements nested deeper than this are flattened into their ancestor
    /// (browsers cap at 512 too).
    pub max_depth: usize,
    /// Maximum number of tokens (tags and text runs) the parser accepts.
    pub max_nodes: usize,
    /// Parsing stops with an error after this instant.
    pub deadline: Option<Instant>,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_depth: 512,
            max_nodes: 2_000_000,
            deadline: None,
        }
    }
}

pub(super) enum SData {
    Document,
    Element { attrs: Vec<Attribute> },
    Text(StrTendril),
    Other,
}

pub(super) struct SNode {
    pub(super) parent: u32,
    pub(super) first: u32,
    pub(super) last: u32,
    pub(super) prev: u32,
    pub(super) next: u32,
    pub(super) data: SData,
}

struct Sink {
    nodes: RefCell<Vec<SNode>>,
    /// Element names, parallel to `nodes` (empty for other nodes), kept apart so
    /// `elem_name` can hand out a `Ref` without borrowing node data.
    names: RefCell<Vec<QualName>>,
}

impl Sink {
    /// An arena with room for `capacity` nodes.
    fn new(capacity: usize) -> Sink {
        let doc = SNode {
            parent: NONE,
            first: NONE,
            last: NONE,
            prev: NONE,
            next: NONE,
            data: SData::Document,
        };
        let mut nodes = Vec::with_capacity(capacity.max(1));
        nodes.push(doc);
        let mut names = Vec::with_capacity(capacity.max(1));
        names.push(empty_name());
        Sink {
            nodes: RefCell::new(nodes),
            names: RefCell::new(names),
        }
    }

    fn push(&self, data: SData, name: QualName) -> u32 {
        let mut nodes = self.nodes.borrow_mut();
        let id = nodes.len() as u32;
        nodes.push(SNode {
            parent: NONE,
            first: NONE,
            last: NONE,
            prev: NONE,
            next: NONE,
            data,
        });
        self.names.borrow_mut().push(name);
        id
    }

    fn detach(nodes: &mut [SNode], id: u32) {
        let (parent, prev, next) = {
            let n = &nodes[id as usize];
            (n.parent, n.prev, n.next)
        };
        if parent == NONE {
            return;
        }
        if prev != NONE {
            nodes[prev as usize].next = next;
        } else {
            nodes[parent as usize].first = next;
        }
        if next != NONE {
            nodes[next as usize].prev = prev;
        } else {
            nodes[parent as usize].last = prev;
        }
        let n = &mut nodes[id as usize];
        n.parent = NONE;
        n.prev = NONE;
        n.next = NONE;
    }

    fn append_node(nodes: &mut [SNode], parent: u32, child: u32) {
        Self::detach(nodes, child);
        let last = nodes[parent as usize].last;
        {
            let c = &mut nodes[child as usize];
            c.parent = parent;
            c.prev = last;
            c.next = NONE;
        }
        if last != NONE {
            nodes[last as usize].next = child;
        } else {
            nodes[parent as usize].first = child;
        }
        nodes[parent as usize].last = child;
    }

    fn insert_before(nodes: &mut [SNode], sibling: u32, child: u32) {
        Self::detach(nodes, child);
        let (parent, prev) = {
            let s = &nodes[sibling as usize];
            (s.parent, s.prev)
        };
        if parent == NONE {
            return;
        }
        {
            let c = &mut nodes[child as usize];
            c.parent = parent;
            c.prev = prev;
            c.next = sibling;
        }
        nodes[sibling as usize].prev = child;
        if prev != NONE {
            nodes[prev as usize].next = child;
        } else {
            nodes[parent as usize].first = child;
        }
    }
}

fn empty_name() -> QualName {
    QualName::new(None, ns!(), local_name!(""))
}

impl TreeSink for Sink {
    type Handle = u32;
    type Output = Self;
    type ElemName<'a> = Ref<'a, QualName>;

    fn finish(self) -> Self {
        self
    }

    fn parse_error(&self, _msg: Cow<'static, str>) {
        // Real pages are full of parse errors; html5ever repairs them and so do we.
    }

    fn get_document(&self) -> u32 {
        0
    }

    fn elem_name<'a>(&'a self, target: &'a u32) -> Ref<'a, QualName> {
        Ref::map(self.names.borrow(), |names| &names[*target as usize])
    }

    fn create_element(&self, name: QualName, attrs: Vec<Attribute>, flags: ElementFlags) -> u32 {
        let id = self.push(SData::Element { attrs }, name);
        if flags.template {
            // Template contents are inert: they live in a detached fragment that
            // flattening never visits.
            self.push(SData::Other, empty_name());
        }
        id
    }

    fn create_comment(&self, _text: StrTendril) -> u32 {
        self.push(SData::Other, empty_name())
    }

    fn create_pi(&self, _target: StrTendril, _data: StrTendril) -> u32 {
        self.push(SData::Other, empty_name())
    }

    fn append(&self, parent: &u32, child: NodeOrText<u32>) {
        match child {
            NodeOrText::AppendNode(id) => {
                Self::append_node(&mut self.nodes.borrow_mut(), *parent, id);
            }
            NodeOrText::AppendText(text) => {
                {
                    let mut nodes = self.nodes.borrow_mut();
                    let last = nodes[*parent as usize].last;
                    if last != NONE {
                        if let SData::Text(t) = &mut nodes[last as usize].data {
                            t.push_tendril(&text);
                            return;
                        }
                    }
                }
                let id = self.push(SData::Text(text), empty_name());
                Self::append_node(&mut self.nodes.borrow_mut(), *parent, id);
            }
        }
    }

    fn append_based_on_parent_node(
        &self,
        element: &u32,
        prev_element: &u32,
        child: NodeOrText<u32>,
    ) {
        let has_parent = self.nodes.borrow()[*element as usize].parent != NONE;
        if has_parent {
            self.append_before_sibling(element, child);
        } else {
            self.append(prev_element, child);
        }
    }

    fn append_doctype_to_document(&self, _: StrTendril, _: StrTendril, _: StrTendril) {}

    fn get_template_contents(&self, target: &u32) -> u32 {
        // `create_element` pushed the contents fragment right after the template.
        target + 1
    }

    fn same_node(&self, x: &u32, y: &u32) -> bool {
        x == y
    }

    fn set_quirks_mode(&self, _mode: QuirksMode) {}

    fn append_before_sibling(&self, sibling: &u32, new_node: NodeOrText<u32>) {
        match new_node {
            NodeOrText::AppendNode(id) => {
                Self::insert_before(&mut self.nodes.borrow_mut(), *sibling, id);
            }
            NodeOrText::AppendText(text) => {
                {
                    let mut nodes = self.nodes.borrow_mut();
                    let prev = nodes[*sibling as usize].prev;
                    if prev != NONE {
                        if let SData::Text(t) = &mut nodes[prev as usize].data {
                            t.push_tendril(&text);
                            return;
                        }
                    }
                }
                let id = self.push(SData::Text(text), empty_name());
                Self::insert_before(&mut self.nodes.borrow_mut(), *sibling, id);
            }
        }
    }

    fn add_attrs_if_missing(&self, target: &u32, attrs: Vec<Attribute>) {
        let mut nodes = self.nodes.borrow_mut();
        if let SData::Element { attrs: have } = &mut nodes[*target as usize].data {
            for a in attrs {
                if !have.iter().any(|h| h.name == a.name) {
                    have.push(a);
                }
            }
        }
    }

    fn remove_from_parent(&self, target: &u32) {
        Self::detach(&mut self.nodes.borrow_mut(), *target);
    }

    fn reparent_children(&self, node: &u32, new_parent: &u32) {
        let mut nodes = self.nodes.borrow_mut();
        let mut child = nodes[*node as usize].first;
        while child != NONE {
            let next = nodes[child as usize].next;
            Self::append_node(&mut nodes, *new_parent, child);
            child = next;
        }
    }
}

// ---------------------------------------------------------------------------
// The guard between tokenizer and tree builder.

// Names are matched as interned atoms (one integer compare each): every
// start tag asks both.
fn is_void(name: &LocalName) -> bool {
    matches!(
        *name,
        local_name!("area")
            | local_name!("base")
            | local_name!("br")
            | local_name!("col")
            | local_name!("embed")
            | local_name!("hr")
            | local_name!("img")
            | local_name!("input")
            | local_name!("link")
            | local_name!("meta")
            | local_name!("source")
            | local_name!("track")
            | local_name!("wbr")
            | local_name!("param")
            | local_name!("keygen")
    )
}

fn implicitly_closed(name: &LocalName) -> bool {
    matches!(
        *name,
        local_name!("p")
            | local_name!("li")
            | local_name!("dt")
            | local_name!("dd")
            | local_name!("option")
            | local_name!("optgroup")
            | local_name!("td")
            | local_name!("th")
            | local_name!("tr")
            | local_name!("rb")
            | local_name!("rt")
            | local_name!("rp")
    )
}

#[derive(Clone, Copy, Debug)]
enum Stop {
    Nodes,
    Time,
}

/// Forwards tokens to the tree builder while keeping an approximate stack of
/// open elements: start tags nested deeper than `max_depth` are dropped (with
/// their end tags), and the token count and clock are checked.
struct Guard<S> {
    inner: S,
    stack: RefCell<Vec<LocalName>>,
    dropped: RefCell<HashMap<LocalName, u32>>,
    tokens: Cell<usize>,
    stop: Cell<Option<Stop>>,
    limits: Limits,
}

impl<S: TokenSink> TokenSink for Guard<S> {
    type Handle = S::Handle;

    fn process_token(&self, token: Token, line: u64) -> TokenSinkResult<S::Handle> {
        if self.stop.get().is_some() {
            return TokenSinkResult::Continue;
        }
        let n = self.tokens.get() + 1;
        self.tokens.set(n);
        if n > self.limits.max_nodes {
            self.stop.set(Some(Stop::Nodes));
            return TokenSinkResult::Continue;
        }
        if n % 4096 == 0 {
            if let Some(deadline) = self.limits.deadline {
                if Instant::now() > deadline {
                    self.stop.set(Some(Stop::Time));
                    return TokenSinkResult::Continue;
                }
            }
        }
        if let Token::TagToken(tag) = &token {
            match tag.kind {
                TagKind::StartTag if !tag.self_closing && !is_void(&tag.name) => {
                    let mut stack = self.stack.borrow_mut();
                    if stack.last().is_some_and(implicitly_closed) {
                        stack.pop();
                    }
                    if stack.len() >= self.limits.max_depth {
                        *self
                            .dropped
                            .borrow_mut()
                            .entry(tag.name.clone())
                            .or_insert(0) += 1;
                        return TokenSinkResult::Continue;
                    }
                    stack.push(tag.name.clone());
                }
                TagKind::EndTag => {
                    let mut dropped = self.dropped.borrow_mut();
                    if let Some(count) = dropped.get_mut(&tag.name) {
                        if *count > 0 {
                            *count -= 1;
                            return TokenSinkResult::Continue;
                        }
                    }
                    let mut stack = self.stack.borrow_mut();
                    if let Some(pos) = stack.iter().rposition(|n| *n == tag.name) {
                        stack.truncate(pos);
                    }
                }
                _ => {}
            }
        }
        self.inner.process_token(token, line)
    }

    fn end(&self) {
        self.inner.end()
    }

    fn adjusted_current_node_present_but_not_in_html_namespace(&self) -> bool {
        self.inner
            .adjusted_current_node_present_but_not_in_html_namespace()
    }
}

/// Parses decoded HTML into the tree builder's arena: its nodes and, parallel
/// to them, the element names.
pub(super) fn build(
    html: &str,
    limits: &Limits,
) -> Result<(Vec<SNode>, Vec<QualName>), ExtractError> {
    build_with(html, limits, true)
}

/// [`build`], with our tokenizer (`fast`, where it can take the input) or
/// html5ever's; tests check that both give the same tree.
pub(super) fn build_with(
    html: &str,
    limits: &Limits,
    fast: bool,
) -> Result<(Vec<SNode>, Vec<QualName>), ExtractError> {
    // A crawler is a client without scripts: <noscript> content is what it
    // sees (Discourse serves whole threads there).
    let opts = TreeBuilderOpts {
        scripting_enabled: false,
        ..TreeBuilderOpts::default()
    };
    // Sized once: three pages in four have a node per 64 bytes or fewer
    // (wcxb-dev's median page, one per 89); growing by doubling copied
    // the arena 4 to 6 times a page.
    let capacity = (html.len() / 64).min(limits.max_nodes);
    let guard = Guard {
        inner: TreeBuilder::new(Sink::new(capacity), opts),
        stack: RefCell::new(Vec::new()),
        dropped: RefCell::new(HashMap::new()),
        tokens: Cell::new(0),
        stop: Cell::new(None),
        limits: limits.clone(),
    };
    if fast && super::tokenize::usable(html) {
        super::tokenize::run(html, &guard, |g| g.stop.get().is_some());
        return finish(&guard, limits);
    }
    let tokenizer = Tokenizer::new(guard, TokenizerOpts::default());
    let input = BufferQueue::default();
    const CHUNK: usize = 1 << 16;
    let mut rest = html;
    while !rest.is_empty() {
        let mut cut = rest.len().min(CHUNK);
        while !rest.is_char_boundary(cut) {
            cut += 1;
        }
        let (head, tail) = rest.split_at(cut);
        rest = tail;
        input.push_back(StrTendril::from_slice(head));
        // Script and encoding indicators pause the tokenizer; we already
        // decoded the bytes, so keep feeding until the chunk is consumed.
        while !matches!(tokenizer.feed(&input), TokenizerResult::Done) {}
        if tokenizer.sink.stop.get().is_some() {
            break;
        }
    }
    tokenizer.end();
    finish(&tokenizer.sink, limits)
}

/// The arena the tree builder filled, or the limit that stopped it.
fn finish(
    guard: &Guard<TreeBuilder<u32, Sink>>,
    limits: &Limits,
) -> Result<(Vec<SNode>, Vec<QualName>), ExtractError> {
    match guard.stop.get() {
        Some(Stop::Nodes) => {
            return Err(ExtractError::TooLarge(format!(
                "more than {} nodes",
                limits.max_nodes
            )))
        }
        Some(Stop::Time) => return Err(ExtractError::Timeout),
        None => {}
    }
    let sink = &guard.inner.sink;
    let nodes = std::mem::take(&mut *sink.nodes.borrow_mut());
    let names = std::mem::take(&mut *sink.names.borrow_mut());
    Ok((nodes, names))
}
