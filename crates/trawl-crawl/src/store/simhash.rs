//! SimHash (Charikar) over the words of the extracted text, for marking
//! near-duplicate pages (mirrors, print views, syndicated copies). Two texts
//! within 3 differing bits are near-duplicates; four 16-bit bands index the
//! hashes so that any such pair shares at least one band exactly.

use xxhash_rust::xxh3::xxh3_64;

/// The SimHash of a text, or `None` when it has too few words to mean anything.
pub(crate) fn simhash(text: &str) -> Option<u64> {
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
            if h >> bit & 1 == 1 {
                *acc += 1;
            } else {
                *acc -= 1;
            }
        }
    }
    Some(v.iter().enumerate().fold(
        0u64,
        |h, (bit, &acc)| if acc > 0 { h | 1 << bit } else { h },
    ))
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
}
