//! A fast HTML tokenizer in front of html5ever's tree builder.
//!
//! html5ever's own tokenizer handles tags and attributes one character at a
//! time through a buffer queue, and on real pages (where most bytes are
//! markup) that was over half of all extraction time. This tokenizer runs the
//! same WHATWG state machine, state for state as html5ever 0.40 implements it,
//! but over the decoded `&str` with byte scans (`memchr`) for the runs inside
//! a state: text, tag names, attribute names and values, comments, raw text.
//! It feeds the same [`Token`]s to the same [`TokenSink`] (our `Guard` in
//! front of html5ever's `TreeBuilder`), obeying the tree builder's requests
//! to switch to RCDATA / RAWTEXT / script data / PLAINTEXT.
//!
//! Two differences, neither visible in the tree: text comes in fewer, longer
//! character tokens (the tree builder and our sink merge adjacent text), and
//! of the parse errors only those that can change the tree are reported: in
//! character references and for `</>` (an error token between `<pre>` and a
//! newline keeps that newline). One
//! difference is visible, and deliberate: html5ever drops a U+FEFF wherever its
//! tokenizer resumes (after every `</script>`), we drop only a leading one,
//! as the spec does. Input with NUL characters is left to html5ever's
//! tokenizer ([`usable`]).

use std::borrow::Cow;
use std::collections::HashSet;

use html5ever::tendril::StrTendril;
use html5ever::tokenizer::states::RawKind;
use html5ever::tokenizer::{Tag, TagKind, Token, TokenSink, TokenSinkResult};
use html5ever::{ns, Attribute, LocalName, QualName};

use bytes::{is_space, skip_spaces, utf8_len};

mod bytes;
mod char_ref;
mod doctype;
mod names;
mod raw;
#[cfg(test)]
mod tests;

/// Whether this tokenizer can take the input (html5ever's handles the rest):
/// no NUL, and short enough for a tendril's 32-bit offsets.
pub(super) fn usable(html: &str) -> bool {
    html.len() < u32::MAX as usize && memchr::memchr(0, html.as_bytes()).is_none()
}

/// The input as the tokenizer reads it, in one tendril: a leading U+FEFF
/// dropped, CRLF and lone CR become LF. Written straight into the tendril,
/// whose buffer the tokens then share: one copy of the page, not two.
fn normalized(html: &str) -> StrTendril {
    let html = html.strip_prefix('\u{feff}').unwrap_or(html);
    let Some(first) = memchr::memchr(b'\r', html.as_bytes()) else {
        return StrTendril::from_slice(html);
    };
    let mut out = StrTendril::with_capacity(u32::try_from(html.len()).unwrap_or(u32::MAX));
    let mut rest = html;
    let mut k = first;
    loop {
        out.push_slice(&rest[..k]);
        out.push_char('\n');
        rest = &rest[k + 1..];
        if let Some(tail) = rest.strip_prefix('\n') {
            rest = tail;
        }
        match memchr::memchr(b'\r', rest.as_bytes()) {
            Some(next) => k = next,
            None => break,
        }
    }
    out.push_slice(rest);
    out
}

#[derive(Clone, Copy, PartialEq, Debug)]
enum Mode {
    Data,
    Rcdata,
    Rawtext,
    Script,
    Plaintext,
}

/// Where attribute parsing starts after a tag name.
#[derive(Clone, Copy, PartialEq)]
enum After {
    Space,
    Slash,
    Close,
}

/// `s` in ASCII lower case, copied only when it has an upper-case letter.
pub(super) fn lowered(s: &str) -> Cow<'_, str> {
    if s.bytes().any(|b| b.is_ascii_uppercase()) {
        Cow::Owned(s.to_ascii_lowercase())
    } else {
        Cow::Borrowed(s)
    }
}

/// A tag's attributes as they are read: the first of a name wins.
struct Attrs {
    list: Vec<Attribute>,
    dup: bool,
    /// The names, once there are many (a hostile tag with thousands of
    /// attributes must not cost a scan of all of them per attribute).
    seen: Option<HashSet<LocalName>>,
}

impl Attrs {
    const SCAN: usize = 32;

    fn push(&mut self, name: &str, value: StrTendril) {
        if name.is_empty() {
            return;
        }
        let name = names::atom(name);
        let known = match &mut self.seen {
            Some(seen) => !seen.insert(name.clone()),
            None => self.list.iter().any(|a| a.name.local == name),
        };
        if known {
            self.dup = true;
            return;
        }
        self.list.push(Attribute {
            name: QualName::new(None, ns!(), name),
            value,
        });
        if self.seen.is_none() && self.list.len() >= Self::SCAN {
            self.seen = Some(self.list.iter().map(|a| a.name.local.clone()).collect());
        }
    }
}

/// The longest tendril stored inline (tendril's `MAX_INLINE_LEN`).
const INLINE: usize = 8;

struct Tok<'a, S: TokenSink> {
    src: &'a str,
    /// The input once more, as one tendril: text runs and attribute values
    /// are handed on as slices of it, sharing its buffer, not each copied
    /// into an allocation of its own.
    whole: &'a StrTendril,
    b: &'a [u8],
    pos: usize,
    sink: &'a S,
    text: StrTendril,
    mode: Mode,
    last_start: Option<LocalName>,
    /// Attributes are read into this one buffer, then copied out at their
    /// count: a list grown per tag was 1% of a run in reallocations.
    attr_buf: Vec<Attribute>,
}

/// Tokenizes `html` (no NUL: see [`usable`]) into `sink`, then ends it.
/// `stop` is asked between constructs whether the sink gave up (limits).
pub(super) fn run<S: TokenSink>(html: &str, sink: &S, stop: impl Fn(&S) -> bool) {
    let whole = normalized(html);
    let html: &str = &whole;
    let mut t = Tok {
        src: html,
        whole: &whole,
        b: html.as_bytes(),
        pos: 0,
        sink,
        text: StrTendril::new(),
        mode: Mode::Data,
        last_start: None,
        attr_buf: Vec::new(),
    };
    t.go(&stop);
    t.flush();
    let _ = t.sink.process_token(Token::EOFToken, 1);
    t.sink.end();
}

impl<S: TokenSink> Tok<'_, S> {
    fn flush(&mut self) {
        if !self.text.is_empty() {
            let text = std::mem::take(&mut self.text);
            let _ = self.sink.process_token(Token::CharacterTokens(text), 1);
        }
    }

    fn emit(&mut self, token: Token) -> TokenSinkResult<S::Handle> {
        self.flush();
        self.sink.process_token(token, 1)
    }

    fn at(&self, i: usize) -> Option<u8> {
        self.b.get(i).copied()
    }

    /// The input from `from` to `to` as a tendril sharing the input's
    /// buffer (a short one is stored inline).
    fn slice(&self, from: usize, to: usize) -> StrTendril {
        if to <= from {
            return StrTendril::new();
        }
        let copy = || StrTendril::from_slice(self.src.get(from..to).unwrap_or(""));
        // A tendril this short is stored inline either way: copying it
        // skips the shared slice's UTF-8 check at both ends.
        if to - from <= INLINE {
            return copy();
        }
        // `usable` keeps the input under u32::MAX bytes.
        let (Ok(at), Ok(len)) = (u32::try_from(from), u32::try_from(to - from)) else {
            return copy();
        };
        self.whole
            .try_subtendril(at, len)
            .unwrap_or_else(|_| copy())
    }

    fn push_text(&mut self, from: usize, to: usize) {
        if self.text.is_empty() {
            self.text = self.slice(from, to);
        } else if let Some(s) = self.src.get(from..to) {
            self.text.push_slice(s);
        }
    }

    fn go(&mut self, stop: &impl Fn(&S) -> bool) {
        while self.pos < self.b.len() && !stop(self.sink) {
            match self.mode {
                Mode::Data => self.data(),
                Mode::Rcdata | Mode::Rawtext => self.raw(),
                Mode::Script => self.script(),
                Mode::Plaintext => {
                    self.push_text(self.pos, self.b.len());
                    self.pos = self.b.len();
                }
            }
        }
    }

    /// The data state, up to and including the next markup construct.
    fn data(&mut self) {
        let start = self.pos;
        let Some(k) = memchr::memchr2(b'<', b'&', &self.b[start..]) else {
            self.push_text(start, self.b.len());
            self.pos = self.b.len();
            return;
        };
        let at = start + k;
        self.push_text(start, at);
        if self.b[at] == b'&' {
            self.pos = at + 1;
            self.char_ref();
            return;
        }
        self.pos = at + 1;
        match self.at(at + 1) {
            Some(b'!') => {
                self.pos = at + 2;
                self.markup_declaration();
            }
            Some(b'/') => match self.at(at + 2) {
                Some(c) if c.is_ascii_alphabetic() => {
                    self.pos = at + 2;
                    self.tag(TagKind::EndTag);
                }
                Some(b'>') => {
                    // "</>" is dropped with only a parse error, and that
                    // error token ends a `<pre>`'s newline skip, as in html5ever.
                    self.pos = at + 3;
                    let _ = self.emit(Token::ParseError(Cow::Borrowed("")));
                }
                None => {
                    self.text.push_slice("</");
                    self.pos = at + 2;
                }
                Some(_) => {
                    self.pos = at + 2;
                    self.bogus_comment();
                }
            },
            Some(c) if c.is_ascii_alphabetic() => {
                self.pos = at + 1;
                self.tag(TagKind::StartTag);
            }
            Some(b'?') => {
                self.pos = at + 1;
                self.bogus_comment();
            }
            _ => self.text.push_char('<'),
        }
    }

    /// `<!`: a comment, a doctype, a CDATA section (in foreign content) or a
    /// bogus comment.
    fn markup_declaration(&mut self) {
        let rest = &self.b[self.pos..];
        if rest.starts_with(b"--") {
            self.pos += 2;
            self.comment();
        } else if rest.len() >= 7 && rest[..7].eq_ignore_ascii_case(b"doctype") {
            self.pos += 7;
            self.doctype();
        } else if self
            .sink
            .adjusted_current_node_present_but_not_in_html_namespace()
            && rest.starts_with(b"[CDATA[")
        {
            self.pos += 7;
            let end = memchr::memmem::find(&self.b[self.pos..], b"]]>");
            let stop = end.map_or(self.b.len(), |e| self.pos + e);
            self.push_text(self.pos, stop);
            self.pos = end.map_or(self.b.len(), |_| stop + 3);
        } else {
            self.bogus_comment();
        }
    }

    fn bogus_comment(&mut self) {
        let start = self.pos;
        let end = memchr::memchr(b'>', &self.b[start..]).map(|e| start + e);
        let stop = end.unwrap_or(self.b.len());
        let body = self.slice(start, stop);
        self.pos = end.map_or(self.b.len(), |e| e + 1);
        let _ = self.emit(Token::CommentToken(body));
    }

    /// After `<!--`: ends at `>` or `->` right away, else at the first `-->`
    /// or `--!>`, else at the end of input.
    fn comment(&mut self) {
        let start = self.pos;
        let rest = &self.b[start..];
        let (stop, next) = if rest.starts_with(b">") {
            (start, start + 1)
        } else if rest.starts_with(b"->") {
            (start, start + 2)
        } else {
            let mut from = start;
            loop {
                match memchr::memmem::find(&self.b[from..], b"--") {
                    None => break (self.b.len(), self.b.len()),
                    Some(k) => {
                        let d = from + k;
                        // Skip a run of dashes: "--->" ends at its last two.
                        let mut e = d + 2;
                        while self.at(e) == Some(b'-') {
                            e += 1;
                        }
                        match self.at(e) {
                            Some(b'>') => break (e - 2, e + 1),
                            Some(b'!') if self.at(e + 1) == Some(b'>') => break (e - 2, e + 2),
                            _ => from = e,
                        }
                    }
                }
            }
        };
        let body = self.slice(start, stop);
        self.pos = next;
        let _ = self.emit(Token::CommentToken(body));
    }

    /// A tag whose name starts at `pos` (an ASCII letter).
    fn tag(&mut self, kind: TagKind) {
        let start = self.pos;
        let mut i = start;
        while i < self.b.len() && !matches!(self.b[i], b'\t' | b'\n' | 0x0C | b' ' | b'/' | b'>') {
            i += 1;
        }
        let Some(next) = self.at(i) else {
            self.pos = self.b.len(); // EOF in a tag: the tag is dropped
            return;
        };
        let name = lowered(self.src.get(start..i).unwrap_or(""));
        let name = names::atom(&name);
        self.pos = i + 1;
        let after = match next {
            b'/' => After::Slash,
            b'>' => After::Close,
            _ => After::Space,
        };
        self.tag_rest(kind, name, after);
    }

    /// Attributes and the end of a tag; emits it (or drops it at EOF).
    fn tag_rest(&mut self, kind: TagKind, name: LocalName, mut state: After) {
        let mut attrs = Attrs {
            list: std::mem::take(&mut self.attr_buf),
            dup: false,
            seen: None,
        };
        let mut self_closing = false;
        let closed = loop {
            state = match state {
                After::Close => break true,
                After::Slash => match self.at(self.pos) {
                    None => break false,
                    Some(b'>') => {
                        self.pos += 1;
                        self_closing = true;
                        break true;
                    }
                    // Read again before an attribute name.
                    Some(_) => After::Space,
                },
                After::Space => {
                    self.pos = self.skip_spaces(self.pos);
                    match self.at(self.pos) {
                        None => break false,
                        Some(b'/') => {
                            self.pos += 1;
                            After::Slash
                        }
                        Some(b'>') => {
                            self.pos += 1;
                            After::Close
                        }
                        Some(_) => match self.attribute(&mut attrs) {
                            Some(next) => next,
                            None => break false,
                        },
                    }
                }
            };
        };
        if !closed {
            self.pos = self.b.len(); // EOF in a tag: the tag is dropped
            return;
        }
        if kind == TagKind::StartTag {
            self.last_start = Some(name.clone());
        }
        let list: Vec<Attribute> = attrs.list.drain(..).collect();
        self.attr_buf = attrs.list;
        let token = Token::TagToken(Tag {
            kind,
            name,
            self_closing,
            had_duplicate_attributes: attrs.dup,
            attrs: list,
        });
        self.mode = Mode::Data;
        match self.emit(token) {
            TokenSinkResult::RawData(RawKind::Rcdata) => self.mode = Mode::Rcdata,
            TokenSinkResult::RawData(RawKind::Rawtext) => self.mode = Mode::Rawtext,
            TokenSinkResult::RawData(RawKind::ScriptData) => self.mode = Mode::Script,
            TokenSinkResult::RawData(RawKind::ScriptDataEscaped(_)) => self.mode = Mode::Script,
            TokenSinkResult::Plaintext => self.mode = Mode::Plaintext,
            _ => {}
        }
    }

    fn skip_spaces(&self, i: usize) -> usize {
        skip_spaces(self.b, i)
    }

    /// One attribute from `pos` (its name's first character, which may be
    /// `=`): pushes it and returns the state after it; `None` at EOF.
    fn attribute(&mut self, attrs: &mut Attrs) -> Option<After> {
        let start = self.pos;
        let mut j = start + utf8_len(self.b[start]);
        while j < self.b.len()
            && !matches!(self.b[j], b'\t' | b'\n' | 0x0C | b' ' | b'/' | b'>' | b'=')
        {
            j += 1;
        }
        let name = lowered(self.src.get(start..j.min(self.b.len())).unwrap_or(""));
        let k = self.skip_spaces(j);
        let (value, next) = match self.at(k)? {
            b'=' => {
                let v = self.skip_spaces(k + 1);
                match self.at(v)? {
                    b'>' => {
                        self.pos = v + 1;
                        (StrTendril::new(), After::Close)
                    }
                    q @ (b'"' | b'\'') => {
                        self.pos = v + 1;
                        let value = self.quoted_value(q)?;
                        (value, self.after_quoted()?)
                    }
                    _ => {
                        self.pos = v;
                        self.unquoted_value()?
                    }
                }
            }
            b'/' => {
                self.pos = k + 1;
                (StrTendril::new(), After::Slash)
            }
            b'>' => {
                self.pos = k + 1;
                (StrTendril::new(), After::Close)
            }
            // The next attribute's name (spaces came between).
            _ => {
                self.pos = k;
                (StrTendril::new(), After::Space)
            }
        };
        attrs.push(&name, value);
        Some(next)
    }

    /// The state after a quoted value; a character other than a space, `/`
    /// or `>` is read again before an attribute name.
    fn after_quoted(&mut self) -> Option<After> {
        let next = match self.at(self.pos)? {
            c if is_space(c) => After::Space,
            b'/' => After::Slash,
            b'>' => After::Close,
            _ => return Some(After::Space),
        };
        self.pos += 1;
        Some(next)
    }

    /// A quoted attribute value from `pos` (after the quote) to the closing
    /// quote, which it consumes; `None` at EOF.
    fn quoted_value(&mut self, q: u8) -> Option<StrTendril> {
        let mut value = StrTendril::new();
        loop {
            let start = self.pos;
            let k = memchr::memchr2(q, b'&', &self.b[start..])?;
            let at = start + k;
            let part = self.src.get(start..at).unwrap_or("");
            self.pos = at + 1;
            if self.b[at] == q {
                if value.is_empty() {
                    return Some(self.slice(start, at));
                }
                value.push_slice(part);
                return Some(value);
            }
            value.push_slice(part);
            self.char_ref_into(true, &mut value);
        }
    }

    /// An unquoted attribute value from `pos`; returns it and the state
    /// after it, `None` at EOF.
    fn unquoted_value(&mut self) -> Option<(StrTendril, After)> {
        let mut value = StrTendril::new();
        loop {
            let start = self.pos;
            let mut i = start;
            while i < self.b.len()
                && !matches!(self.b[i], b'\t' | b'\n' | 0x0C | b' ' | b'&' | b'>')
            {
                i += 1;
            }
            let c = self.at(i)?;
            value.push_slice(self.src.get(start..i).unwrap_or(""));
            self.pos = i + 1;
            match c {
                b'&' => {
                    self.char_ref_into(true, &mut value);
                }
                b'>' => return Some((value, After::Close)),
                _ => return Some((value, After::Space)),
            }
        }
    }

    /// After `<!DOCTYPE`: up to the first `>`, parsed as html5ever's doctype
    /// states do (name, public and system identifiers, force-quirks).
    fn doctype(&mut self) {
        let start = self.pos;
        let end = memchr::memchr(b'>', &self.b[start..]).map(|e| start + e);
        let stop = end.unwrap_or(self.b.len());
        self.pos = end.map_or(self.b.len(), |e| e + 1);
        let d = doctype::parse(self.src.get(start..stop).unwrap_or(""), end.is_none());
        let _ = self.emit(Token::DoctypeToken(d));
    }
}
