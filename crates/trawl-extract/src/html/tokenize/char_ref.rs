//! Character references (`&amp;`, `&#233;`, `&#x1F600;`), decoded as
//! html5ever's char-ref tokenizer decodes them, in text and in attribute
//! values: longest named match, the attribute rule for names without `;`,
//! and the numeric replacements (C1 controls, surrogates, out of range).

use std::borrow::Cow;

use html5ever::data::{C1_REPLACEMENTS, NAMED_ENTITIES};
use html5ever::tendril::StrTendril;
use html5ever::tokenizer::{Token, TokenSink};

use super::bytes::utf8_len;
use super::Tok;

impl<S: TokenSink> Tok<'_, S> {
    /// A character reference in text, `pos` just after the `&`.
    pub(super) fn char_ref(&mut self) {
        let mut s = std::mem::take(&mut self.text);
        self.char_ref_into(false, &mut s);
        self.text = s;
    }

    /// Decodes a character reference (`pos` just after the `&`) into `out`,
    /// as html5ever's char-ref tokenizer does; a reference that does not
    /// decode leaves `&` and the input after it to be read again.
    pub(super) fn char_ref_into(&mut self, in_attribute: bool, out: &mut StrTendril) {
        match self.at(self.pos) {
            Some(b'#') => self.numeric_ref(in_attribute, out),
            Some(c) if c.is_ascii_alphanumeric() => self.named_ref(in_attribute, out),
            _ => out.push_char('&'),
        }
    }

    fn numeric_ref(&mut self, in_attribute: bool, out: &mut StrTendril) {
        let mut i = self.pos + 1;
        let base = match self.at(i) {
            Some(b'x' | b'X') => {
                i += 1;
                16
            }
            _ => 10,
        };
        let digits_from = i;
        let mut num: u32 = 0;
        let mut too_big = false;
        while let Some(d) = self.at(i).and_then(|c| (c as char).to_digit(base)) {
            num = num.wrapping_mul(base);
            if num > 0x10FFFF {
                too_big = true;
            }
            num = num.wrapping_add(d);
            i += 1;
        }
        if i == digits_from {
            // No digits: "&#" (and the x) are text.
            self.report(in_attribute, out);
            out.push_char('&');
            return;
        }
        let mut error = false;
        if self.at(i) == Some(b';') {
            i += 1;
        } else {
            error = true;
        }
        self.pos = i;
        let conv = |n: u32| char::from_u32(n).unwrap_or('\u{fffd}');
        let (c, bad) = match num {
            n if n > 0x10FFFF || too_big => ('\u{fffd}', true),
            0x00 | 0xD800..=0xDFFF => ('\u{fffd}', true),
            0x80..=0x9F => match C1_REPLACEMENTS[(num - 0x80) as usize] {
                Some(c) => (c, true),
                None => (conv(num), true),
            },
            0x01..=0x08 | 0x0B | 0x0D..=0x1F | 0x7F | 0xFDD0..=0xFDEF => (conv(num), true),
            n if (n & 0xFFFE) == 0xFFFE => (conv(n), true),
            n => (conv(n), false),
        };
        if error || bad {
            self.report(in_attribute, out);
        }
        out.push_char(c);
    }

    /// A parse error in text is reported to the sink (it can keep a newline
    /// after `<pre>`); `out` is the pending text, flushed first.
    fn report(&mut self, in_attribute: bool, out: &mut StrTendril) {
        if in_attribute {
            return;
        }
        if !out.is_empty() {
            let text = std::mem::take(out);
            let _ = self.sink.process_token(Token::CharacterTokens(text), 1);
        }
        let _ = self
            .sink
            .process_token(Token::ParseError(Cow::Borrowed("")), 1);
    }

    fn named_ref(&mut self, in_attribute: bool, out: &mut StrTendril) {
        // Longest name in the table that the input starts with; the table
        // holds every prefix of a name (with a zero value).
        let start = self.pos;
        // The common case in one lookup: a whole "name;" in the table is the
        // longest match (every prefix of it is in the table, and no name
        // goes on after its ';').
        let run = self.b[start..]
            .iter()
            .take(LONGEST_NAME)
            .take_while(|c| c.is_ascii_alphanumeric())
            .count();
        if self.at(start + run) == Some(b';') {
            if let Some(&(c1, c2)) = self
                .src
                .get(start..start + run + 1)
                .and_then(|name| NAMED_ENTITIES.get(name))
                .filter(|m| m.0 != 0)
            {
                push_code_points(out, c1, c2);
                self.pos = start + run + 1;
                return;
            }
        }
        let mut i = start;
        let mut matched: Option<(usize, (u32, u32))> = None;
        let end_char;
        loop {
            let Some(c) = self.at(i) else {
                end_char = None;
                break;
            };
            let len = utf8_len(c);
            let Some(name) = self.src.get(start..i + len) else {
                end_char = None;
                break;
            };
            i += len;
            match NAMED_ENTITIES.get(name) {
                Some(&m) => {
                    if m.0 != 0 {
                        matched = Some((i, m));
                    }
                }
                None => {
                    end_char = Some(c);
                    break;
                }
            }
        }
        let Some((mend, (c1, c2))) = matched else {
            // No entity: the name is text. A name of letters and digits
            // ending in ';' is an error.
            match end_char {
                Some(c) if c.is_ascii_alphanumeric() => {
                    let mut j = i;
                    while self.at(j).is_some_and(|c| c.is_ascii_alphanumeric()) {
                        j += 1;
                    }
                    if self.at(j) == Some(b';') {
                        self.report(in_attribute, out);
                    }
                }
                Some(b';') if i - start > 1 => self.report(in_attribute, out),
                _ => {}
            }
            out.push_char('&');
            return;
        };
        let last = self.b[mend - 1];
        // The character after the match (none when the match ran to EOF).
        let next = if mend < i { self.at(mend) } else { None };
        if last != b';' {
            if in_attribute && next.is_some_and(|c| c == b'=' || c.is_ascii_alphanumeric()) {
                out.push_char('&');
                return;
            }
            self.report(in_attribute, out);
        }
        push_code_points(out, c1, c2);
        self.pos = mend;
    }
}

/// Longer than any entity name ("CounterClockwiseContourIntegral;" is 32).
const LONGEST_NAME: usize = 40;

/// An entity's one or two code points (the second is 0 when there is one).
fn push_code_points(out: &mut StrTendril, c1: u32, c2: u32) {
    if let Some(c) = char::from_u32(c1) {
        out.push_char(c);
    }
    if c2 != 0 {
        if let Some(c) = char::from_u32(c2) {
            out.push_char(c);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_entity_name_fits_the_one_lookup_scan() {
        assert!(NAMED_ENTITIES.keys().all(|k| k.len() < LONGEST_NAME));
    }
}
