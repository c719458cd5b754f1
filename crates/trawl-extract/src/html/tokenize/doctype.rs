//! `<!DOCTYPE …>`: name, public and system identifiers and force-quirks,
//! which decide the tree builder's quirks mode.

use html5ever::tendril::StrTendril;
use html5ever::tokenizer::Doctype;

use super::bytes::{is_space, skip_spaces};

/// The doctype states on the text between `<!DOCTYPE` and `>`; `eof`: no `>`.
pub(super) fn parse(s: &str, eof: bool) -> Doctype {
    let b = s.as_bytes();
    let mut d = Doctype::default();
    // The doctype state skips one space and the next state the rest.
    let mut i = skip_spaces(b, 0);
    if i >= b.len() {
        // '>' (or EOF) before a name.
        d.force_quirks = true;
        return d;
    }
    let ns = i;
    while i < b.len() && !is_space(b[i]) {
        i += 1;
    }
    d.name = Some(StrTendril::from_slice(&s[ns..i].to_ascii_lowercase()));
    if i >= b.len() {
        d.force_quirks = eof;
        return d;
    }
    // After the name.
    i = skip_spaces(b, i);
    if i >= b.len() {
        d.force_quirks = eof;
        return d;
    }
    let rest = &b[i..];
    let public = rest.len() >= 6 && rest[..6].eq_ignore_ascii_case(b"public");
    let system = rest.len() >= 6 && rest[..6].eq_ignore_ascii_case(b"system");
    if !public && !system {
        d.force_quirks = true; // bogus doctype
        return d;
    }
    i += 6;
    // A quoted identifier from `i` (the quote); false when it runs to the
    // end ('>' inside it, or EOF).
    let id = |i: &mut usize, d: &mut Doctype, public: bool| -> bool {
        let q = b[*i];
        *i += 1;
        let from = *i;
        while *i < b.len() && b[*i] != q {
            *i += 1;
        }
        let v = Some(StrTendril::from_slice(&s[from..*i]));
        if public {
            d.public_id = v;
        } else {
            d.system_id = v;
        }
        if *i >= b.len() {
            // '>' inside the identifier (or EOF).
            d.force_quirks = true;
            return false;
        }
        *i += 1;
        true
    };
    // After the keyword: a space, or a quote right away (an error).
    match b.get(i) {
        None => {
            d.force_quirks = true;
            return d;
        }
        Some(&c) if is_space(c) => i = skip_spaces(b, i),
        Some(b'"' | b'\'') => {}
        Some(_) => {
            d.force_quirks = true;
            return d;
        }
    }
    match b.get(i) {
        Some(b'"' | b'\'') => {
            if !id(&mut i, &mut d, public) {
                return d;
            }
        }
        _ => {
            d.force_quirks = true;
            return d;
        }
    }
    // After the system identifier: spaces, then anything else is a bogus
    // doctype (without force-quirks); EOF right after it forces quirks.
    let after_system = |i: usize, d: &mut Doctype| {
        d.force_quirks = eof && skip_spaces(b, i) >= b.len();
    };
    if system {
        after_system(i, &mut d);
        return d;
    }
    // After the public identifier (a quote with or without spaces before
    // it starts the system identifier).
    i = skip_spaces(b, i);
    match b.get(i) {
        None => d.force_quirks = eof,
        Some(b'"' | b'\'') => {
            if id(&mut i, &mut d, false) {
                after_system(i, &mut d);
            }
        }
        Some(_) => d.force_quirks = true,
    }
    d
}
