//! Phrases matched at the start of a control's or a stock line's text
//! ("add to cart", "sold out"). Every short link of every page is read
//! against the add-to-cart list (about 200 phrases in many languages) and the
//! sold-out one, so the long lists are indexed once by their first byte:
//! a text is compared with the few phrases that can open it.

/// Whether `text` opens with one of `phrases` as a whole word: an ASCII
/// phrase must not run on into a letter or digit ("add to cartons"); a
/// phrase in another script may (Japanese writes no spaces).
pub(crate) fn starts(text: &str, phrases: &[&str]) -> bool {
    // The first byte rules out most phrases before a comparison is called.
    let first = text.as_bytes().first();
    phrases
        .iter()
        .any(|p| p.as_bytes().first() == first && opens(text, p))
}

/// `text` opens with phrase `p`, as [`starts`] reads it.
fn opens(text: &str, p: &str) -> bool {
    text.strip_prefix(p)
        .is_some_and(|rest| !rest.starts_with(char::is_alphanumeric) || !p.is_ascii())
}

/// A phrase list indexed by first byte, read as [`starts`] reads the list.
pub(crate) struct Phrases {
    /// The phrases, ordered by first byte (an empty phrase first).
    sorted: Vec<&'static str>,
    /// `sorted[at[b]..at[b + 1]]` open with byte `b`; the empty phrases
    /// come before `at[0]`.
    at: [u16; 257],
}

impl Phrases {
    /// Indexes `list`; the order within it does not matter to a match.
    pub(crate) fn new(list: &[&'static str]) -> Self {
        let mut sorted = list.to_vec();
        sorted.sort_by_key(|p| p.as_bytes().first().copied());
        let mut at = [0u16; 257];
        let empty = sorted.iter().take_while(|p| p.is_empty()).count();
        // at[b] counts the phrases that open below byte b, after the empty ones.
        let mut below = empty;
        for (b, slot) in at.iter_mut().enumerate() {
            while below < sorted.len() && usize::from(sorted[below].as_bytes()[0]) < b {
                below += 1;
            }
            *slot = u16::try_from(below).unwrap_or(u16::MAX);
        }
        Self { sorted, at }
    }

    /// [`starts`] against this list.
    pub(crate) fn starts(&self, text: &str) -> bool {
        let Some(&b) = text.as_bytes().first() else {
            return self.sorted.first().is_some_and(|p| p.is_empty());
        };
        let from = usize::from(self.at[usize::from(b)]);
        let to = usize::from(self.at[usize::from(b) + 1]);
        self.sorted
            .get(from..to)
            .is_some_and(|opening| opening.iter().any(|p| opens(text, p)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIST: &[&str] = &[
        "add to cart",
        "sold out",
        "añadir",
        "カートに入れる",
        "buy now",
        "add",
        "ｶｰﾄ",
        "zz",
        "\u{ff}",
    ];

    /// The index answers as the plain scan does, for texts opening with
    /// every byte, phrases that run on into a word and texts in other
    /// scripts.
    #[test]
    fn the_index_answers_as_the_scan() {
        let set = Phrases::new(LIST);
        let mut texts = vec![
            String::new(),
            "add to cart".into(),
            "add to cartons".into(),
            "add".into(),
            "adds".into(),
            "add €5".into(),
            "sold out!".into(),
            "añadir al carrito".into(),
            "カートに入れる".into(),
            "カートに入れるx".into(),
            "ｶｰﾄに".into(),
            "zz".into(),
            "z".into(),
            "\u{ff}x".into(),
        ];
        texts.extend((0u8..128).map(|b| format!("{}dd to cart", b as char)));
        for t in &texts {
            assert_eq!(set.starts(t), starts(t, LIST), "{t:?}");
        }
        assert!(set.starts("add to cart"));
        assert!(set.starts("カートに入れるx"));
        assert!(!set.starts("adds"));
        assert!(!set.starts(""));
        assert!(Phrases::new(&["", "a"]).starts(""));
    }
}
