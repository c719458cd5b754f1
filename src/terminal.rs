//! Text a person reads on a terminal comes partly from strangers (a page's
//! title, its text, a server's error): escape sequences in it could rewrite
//! the screen or the terminal's title, so control characters are removed
//! before printing (line breaks and tabs kept where text has lines). An
//! error is printed with its causes on one line.

use std::borrow::Cow;

/// `s` without control characters (C0, DEL, C1); with `lines`, `\n` and
/// `\t` stay.
pub fn printable(s: &str, lines: bool) -> Cow<'_, str> {
    let bad = |c: char| c.is_control() && !(lines && (c == '\n' || c == '\t'));
    if !s.contains(bad) {
        return Cow::Borrowed(s);
    }
    Cow::Owned(s.chars().filter(|&c| !bad(c)).collect())
}

/// The error and its causes on one line, each said once: library errors
/// already name their cause in their own message.
pub(crate) fn error_message(e: &anyhow::Error) -> String {
    let mut msg = e.to_string();
    for cause in e.chain().skip(1) {
        let text = cause.to_string();
        if !msg.contains(&text) {
            msg.push_str(": ");
            msg.push_str(&text);
        }
    }
    msg
}

#[cfg(test)]
mod tests {
    use super::printable;

    #[test]
    fn escape_sequences_are_removed() {
        assert_eq!(
            printable("a\u{1b}]0;pwned\u{7}b\u{1b}[2Jc", false),
            "a]0;pwnedb[2Jc"
        );
        assert_eq!(printable("x\u{9b}31my", false), "x31my");
        assert_eq!(printable("p1\n\tp2\r", true), "p1\n\tp2");
        assert_eq!(printable("p1\np2", false), "p1p2");
        assert!(matches!(
            printable("plain", false),
            std::borrow::Cow::Borrowed(_)
        ));
    }
}
