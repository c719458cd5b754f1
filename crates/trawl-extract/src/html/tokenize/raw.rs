//! RCDATA, RAWTEXT and script data: the text of `<title>`/`<textarea>`,
//! `<style>`/`<xmp>`/`<iframe>`/`<noembed>`/`<noframes>` and `<script>` runs
//! to the end tag of the element that opened it; in script data, `<!--` and
//! a nested `<script>` hide `</script>` as the spec's escape states do.

use html5ever::tokenizer::{TagKind, TokenSink};
use html5ever::LocalName;

use super::bytes::{is_space, utf8_len};
use super::{After, Mode, Tok};

impl<S: TokenSink> Tok<'_, S> {
    /// RCDATA and RAWTEXT: text up to the end tag of the element that
    /// opened them.
    pub(super) fn raw(&mut self) {
        let rcdata = self.mode == Mode::Rcdata;
        loop {
            let start = self.pos;
            let found = if rcdata {
                memchr::memchr2(b'<', b'&', &self.b[start..])
            } else {
                memchr::memchr(b'<', &self.b[start..])
            };
            let Some(k) = found else {
                self.push_text(start, self.b.len());
                self.pos = self.b.len();
                return;
            };
            let at = start + k;
            self.push_text(start, at);
            self.pos = at + 1;
            if self.b[at] == b'&' {
                let mut s = std::mem::take(&mut self.text);
                self.char_ref_into(false, &mut s);
                self.text = s;
                continue;
            }
            if let Some(after) = self.end_tag_at(at) {
                return self.finish_raw_end_tag(after);
            }
            self.text.push_char('<');
        }
    }

    /// If `at` (a `<`) starts the appropriate end tag (`</` + the last start
    /// tag's name + space, `/` or `>`), moves past the name and returns what
    /// follows it.
    fn end_tag_at(&self, at: usize) -> Option<(After, usize)> {
        if self.at(at + 1) != Some(b'/') {
            return None;
        }
        let last = self.last_start.as_ref()?;
        let n = last.len();
        let name = self.b.get(at + 2..at + 2 + n)?;
        if !name.eq_ignore_ascii_case(last.as_bytes()) || !name.iter().all(u8::is_ascii_alphabetic)
        {
            return None;
        }
        let after = match self.at(at + 2 + n)? {
            c if is_space(c) => After::Space,
            b'/' => After::Slash,
            b'>' => After::Close,
            _ => return None,
        };
        Some((after, at + 2 + n + 1))
    }

    fn finish_raw_end_tag(&mut self, (after, pos): (After, usize)) {
        self.pos = pos;
        let name = self
            .last_start
            .clone()
            .unwrap_or_else(|| LocalName::from(""));
        self.tag_rest(TagKind::EndTag, name, after);
    }

    /// Script data, with its escaped and double-escaped states: text up to
    /// the `</script>` that ends it.
    pub(super) fn script(&mut self) {
        #[derive(Clone, Copy, PartialEq)]
        enum S {
            Plain,
            Escaped,
            Double,
        }
        let start = self.pos;
        let mut s = S::Plain;
        let mut i = start;
        let b = self.b;
        let end = loop {
            let found = match s {
                S::Plain => memchr::memchr(b'<', &b[i..]),
                _ => memchr::memchr2(b'<', b'-', &b[i..]),
            };
            let Some(k) = found else {
                break None;
            };
            let at = i + k;
            i = at + 1;
            if b[at] == b'-' {
                // Escaped dash: a second dash (and more), then '>' closes
                // the escape; any other character is consumed.
                match b.get(i) {
                    Some(b'-') => {
                        i += 1;
                        if dash_run(b, &mut i) {
                            s = S::Plain;
                        }
                    }
                    Some(b'<') | None => {} // '<' is read again
                    Some(&c) => i += utf8_len(c),
                }
                continue;
            }
            // '<'
            match (s, b.get(i)) {
                (S::Plain | S::Escaped, Some(b'/')) => {
                    if let Some(after) = self.end_tag_at(at) {
                        break Some((at, after));
                    }
                    i += 1;
                    while b.get(i).is_some_and(u8::is_ascii_alphabetic) {
                        i += 1;
                    }
                }
                (S::Plain, Some(b'!')) if b.get(i + 1..i + 3) == Some(b"--") => {
                    i += 3;
                    s = if dash_run(b, &mut i) {
                        S::Plain
                    } else {
                        S::Escaped
                    };
                }
                (S::Plain, Some(b'!')) => {
                    i += 1;
                    if b.get(i) == Some(&b'-') {
                        i += 1;
                    }
                }
                (S::Escaped, Some(c)) if c.is_ascii_alphabetic() => {
                    s = if script_word(b, &mut i) { S::Double } else { s };
                }
                (S::Double, Some(b'/')) => {
                    i += 1;
                    s = if script_word(b, &mut i) {
                        S::Escaped
                    } else {
                        s
                    };
                }
                _ => {}
            }
        };
        match end {
            None => {
                self.push_text(start, b.len());
                self.pos = b.len();
            }
            Some((at, after)) => {
                self.push_text(start, at);
                self.finish_raw_end_tag(after);
            }
        }
    }
}

/// The escaped dash-dash state: more dashes, then `>` ends the escape (true);
/// `<` is left to be read again; any other character is consumed.
fn dash_run(b: &[u8], i: &mut usize) -> bool {
    while b.get(*i) == Some(&b'-') {
        *i += 1;
    }
    match b.get(*i) {
        Some(b'>') => {
            *i += 1;
            true
        }
        Some(b'<') | None => false,
        Some(&c) => {
            *i += utf8_len(c);
            false
        }
    }
}

/// The double-escape start and end states: letters, then a space, `/` or
/// `>` (consumed); true when the letters spell "script".
fn script_word(b: &[u8], i: &mut usize) -> bool {
    let from = *i;
    while b.get(*i).is_some_and(u8::is_ascii_alphabetic) {
        *i += 1;
    }
    match b.get(*i) {
        Some(&c) if is_space(c) || c == b'/' || c == b'>' => {
            *i += 1;
            b[from..*i - 1].eq_ignore_ascii_case(b"script")
        }
        _ => false,
    }
}
