//! SimHash (Charikar) over the words of the extracted text, for marking
//! near-duplicate pages (mirrors, print views, syndicated copies). Two texts
//! within 3 differing bits are near-duplicates; four 16-bit bands index the
//! hashes so that any such pair shares at least one band exactly.

use xxhash_rust::xxh3::xxh3_64;

/// The SimHash of a text, or `None` when it has too few words to mean anything.
/// Each word (lowercased) votes with its xxh3 bits; a bit is set when more
/// than half the words have it. Stored hashes are compared with new ones,
/// so the value is fixed: `tests::the_hash_is_the_one_stores_hold` pins it.
pub(crate) fn simhash(text: &str) -> Option<u64> {
    let mut ones = [0u32; 64];
    // Eight bits at a time: byte `j` of a word's hash adds one to the
    // byte lanes of `lanes[j]` its set bits name (`SPREAD`), and the lanes
    // are emptied into `ones` before any can pass 255.
    let mut lanes = [0u64; 8];
    let mut in_lanes = 0u32;
    let mut words = 0u32;
    let mut lower = String::new();
    for w in text.split(|c: char| !c.is_alphanumeric()) {
        if w.is_empty() {
            continue;
        }
        // ASCII lowercases byte by byte into one buffer; other words take
        // Unicode's full rules (final sigma, İ) as `to_lowercase` gives them.
        let h = if w.is_ascii() {
            lower.clear();
            lower.push_str(w);
            lower.make_ascii_lowercase();
            xxh3_64(lower.as_bytes())
        } else {
            xxh3_64(w.to_lowercase().as_bytes())
        };
        words = words.saturating_add(1);
        for (j, lane) in lanes.iter_mut().enumerate() {
            *lane += SPREAD[(h >> (8 * j) & 0xff) as usize];
        }
        in_lanes += 1;
        if in_lanes == 255 {
            empty_lanes(&mut lanes, &mut ones);
            in_lanes = 0;
        }
    }
    empty_lanes(&mut lanes, &mut ones);
    if words < 8 {
        return None;
    }
    Some(ones.iter().enumerate().fold(0u64, |h, (bit, &n)| {
        if 2 * u64::from(n) > u64::from(words) {
            h | 1 << bit
        } else {
            h
        }
    }))
}

/// Each byte's bits spread one to a byte: bit `k` of `b` becomes byte `k`
/// of `SPREAD[b]` (0 or 1).
const SPREAD: [u64; 256] = {
    let mut t = [0u64; 256];
    let mut b = 0;
    while b < 256 {
        let mut k = 0;
        while k < 8 {
            if b >> k & 1 == 1 {
                t[b] |= 1 << (8 * k);
            }
            k += 1;
        }
        b += 1;
    }
    t
};

/// Adds the byte lanes' counts to the bit counters and clears the lanes:
/// lane `j`'s byte `k` counts bit `8j + k`.
fn empty_lanes(lanes: &mut [u64; 8], ones: &mut [u32; 64]) {
    for (j, lane) in lanes.iter_mut().enumerate() {
        for k in 0..8 {
            ones[8 * j + k] += (*lane >> (8 * k) & 0xff) as u32;
        }
        *lane = 0;
    }
}

/// The four 16-bit bands of a hash.
pub(crate) fn bands(h: u64) -> [u16; 4] {
    [
        (h >> 48) as u16,
        (h >> 32) as u16,
        (h >> 16) as u16,
        h as u16,
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn near_copies_are_close_and_different_texts_far() {
        let a = "The quick brown fox jumps over the lazy dog while the farmer sleeps under an old oak tree. \
                 In the warm afternoon sun he dreams of rain and of the harvest that the summer will bring. \
                 His neighbours mend the fences, the children carry water from the well, and the cattle \
                 wander slowly toward the river where the reeds grow tall and green every single year. \
                 By evening the wind turns cold, the lamps are lit in the village, and the baker sells \
                 the last loaves of bread to the travellers who arrive late from the city in the north.";
        // The same page with different whitespace and one extra word, as a mirror would serve it.
        let b = a
            .replace("old oak", "old  oak")
            .replace("last loaves", "very last loaves");
        let c = "Completely unrelated prose about compilers, registers and instruction scheduling in modern out of order processors with deep pipelines and branch predictors.";
        let (ha, hb, hc) = (simhash(a), simhash(&b), simhash(c));
        let d = |x: Option<u64>, y: Option<u64>| (x.unwrap_or(0) ^ y.unwrap_or(0)).count_ones();
        assert!(d(ha, hb) <= 3, "near copies: {}", d(ha, hb));
        assert!(d(ha, hc) > 10, "different texts: {}", d(ha, hc));
        assert_eq!(simhash("too short"), None);
    }

    /// The hash as the first stores wrote it: each word's bits added as
    /// +1/-1 to 64 counters, a bit set where its counter ends above zero.
    fn as_first_written(text: &str) -> Option<u64> {
        let words: Vec<String> = text
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .map(str::to_lowercase)
            .collect();
        if words.len() < 8 {
            return None;
        }
        let mut v = [0i32; 64];
        for w in &words {
            let h = xxh3_64(w.as_bytes());
            for (bit, acc) in v.iter_mut().enumerate() {
                *acc += if h >> bit & 1 == 1 { 1 } else { -1 };
            }
        }
        Some(v.iter().enumerate().fold(
            0u64,
            |h, (bit, &acc)| if acc > 0 { h | 1 << bit } else { h },
        ))
    }

    #[test]
    fn the_hash_is_the_one_stores_hold() {
        let texts = [
            "The Quick brown FOX jumps over the lazy dog, again and again and again.",
            "ΟΔΟΣ ΣΟΦΟΣ ΚΟΣΜΟΣ ΛΟΓΟΣ ΝΟΜΟΣ ΧΡΟΝΟΣ ΤΟΠΟΣ ΤΡΟΠΟΣ ΦΟΒΟΣ (final sigmas)",
            "İstanbul İzmir Işık STRASSE Straße ÉCOLE École naïve café crème brûlée 2024",
            "东京 大阪 京都 서울 부산 Москва ПИТЕР Київ 123 456 789 a b c d e f g h",
            "one two three four five six seven",
            "",
        ];
        for t in texts {
            assert_eq!(simhash(t), as_first_written(t), "{t}");
        }
        // Ties (as many words with a bit as without) leave the bit clear.
        let even = "alpha beta gamma delta alpha beta gamma delta";
        assert_eq!(simhash(even), as_first_written(even));
        let long: String = (0..5000).map(|i| format!("w{} ", i % 997)).collect();
        assert_eq!(simhash(&long), as_first_written(&long));
    }
}
