//! The lower-cased class, id and role of every element, space separated
//! (`"nav-main menu navigation "`): what boilerplate detection and the
//! product readers match names against. Built once per document, the first
//! time a pass asks, in one buffer: a string per element per pass was a
//! third of all allocations of an extraction.

/// Every node's names, in node order.
pub(crate) struct ClassNames {
    text: String,
    /// Where node i's names end in `text` (they start where node i-1's end).
    ends: Vec<u32>,
}

impl ClassNames {
    /// The names of `n` nodes, node i's parts (class, id, role) given by
    /// `parts(i)`.
    pub(crate) fn build<'a>(n: usize, parts: impl Fn(usize) -> [Option<&'a str>; 3]) -> ClassNames {
        let mut text = String::new();
        let mut ends = Vec::with_capacity(n);
        for i in 0..n {
            for part in parts(i).into_iter().flatten() {
                text.push_str(part);
                text.push(' ');
            }
            ends.push(u32::try_from(text.len()).unwrap_or(u32::MAX));
        }
        text.make_ascii_lowercase();
        ClassNames { text, ends }
    }

    /// Node `i`'s names ("" for a node without class, id or role).
    pub(crate) fn get(&self, i: usize) -> &str {
        let end = self.ends.get(i).map_or(0, |&e| e as usize);
        let start = match i {
            0 => 0,
            _ => self.ends.get(i - 1).map_or(end, |&e| e as usize),
        };
        self.text.get(start..end).unwrap_or("")
    }

    /// The nodes whose names hold `word` (lower case), in node order: one
    /// search over the whole buffer instead of a test per element.
    pub(crate) fn holding(&self, word: &str) -> Vec<usize> {
        let mut out: Vec<usize> = Vec::new();
        for at in memchr::memmem::find_iter(self.text.as_bytes(), word.as_bytes()) {
            // Node i's names end at ends[i]: the first end past `at`.
            let node = self.ends.partition_point(|&e| e as usize <= at);
            if out.last() != Some(&node) {
                out.push(node);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_node_gets_its_own_names_lowered() {
        let parts = [
            [Some("Nav Main"), Some("top"), None],
            [None, None, None],
            [None, None, Some("Navigation")],
        ];
        let names = ClassNames::build(parts.len(), |i| parts[i]);
        assert_eq!(names.get(0), "nav main top ");
        assert_eq!(names.get(1), "");
        assert_eq!(names.get(2), "navigation ");
        assert_eq!(names.get(3), "");
        assert_eq!(names.holding("nav"), vec![0, 2]);
        assert_eq!(names.holding("top"), vec![0]);
        assert_eq!(names.holding("main top"), vec![0]);
        assert!(names.holding("menu").is_empty());
    }
}
