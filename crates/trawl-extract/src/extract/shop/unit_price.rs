//! Unit prices: the price of a measure ("2,98 € / kg", "(1 kg = 2,98 €)",
//! "Grundpreis: 5,96 € je 1 l", "Prix au kilo : 2,98 €", "100gあたり
//! ￥60"), which the law in the EU and elsewhere makes shops print beside
//! the price paid, often inside the same price block. It is never the price
//! paid; the buy box reads past it. The labels are the common phrases of the
//! languages shops write in, the measures the common units.

use super::money::Found;

/// Units a unit price is given per (lower-cased, as written after an
/// optional count: "kg", "100 g", "1 l").
const UNITS: &[&str] = &[
    "kg",
    "g",
    "gr",
    "mg",
    "l",
    "ltr",
    "ml",
    "cl",
    "dl",
    "lb",
    "lbs",
    "oz",
    "fl oz",
    "fl. oz",
    "m",
    "m²",
    "m2",
    "m³",
    "cm",
    "kilo",
    "kilogram",
    "kilogramm",
    "kilogramme",
    "gram",
    "gramm",
    "gramme",
    "grammes",
    "litre",
    "liter",
    "litro",
    "litr",
    "pound",
    "ounce",
    "quilo",
    "stück",
    "stk",
    "кг",
    "г",
    "л",
    "мл",
    "公斤",
    "克",
    "升",
];

/// Words that say "per" before a measure, after an amount or in a label
/// ("je kg", "le kilo", "al litro", "za 1 kg", "за кг").
const PER: &[&str] = &[
    "per", "je", "pro", "pr.", "le", "la", "au", "al", "por", "za", "за", "à", "a", "/",
];

/// Labels that end the text before a unit price ("Grundpreis:", "Unit
/// price", "Jämförpris").
const LABELS: &[&str] = &[
    "unit price",
    "price per unit",
    "grundpreis",
    "prix unitaire",
    "prix au kilo",
    "prix au litre",
    "prezzo unitario",
    "prezzo al kilo",
    "prezzo al litro",
    "precio unitario",
    "precio por kilo",
    "precio por litro",
    "eenheidsprijs",
    "kiloprijs",
    "literprijs",
    "cena jednostkowa",
    "jednotková cena",
    "jämförpris",
    "jämförelsepris",
    "jfr-pris",
    "jfr pris",
    "kilopris",
    "literpris",
    "enhetspris",
    "sammenligningspris",
    "yksikköhinta",
    "kilohinta",
    "litrahinta",
    "preço unitário",
    "preço por quilo",
    "birim fiyat",
    "单价",
    "単価",
    "단가",
];

/// `text` (lower-cased) opens with a measure: an optional count ("1",
/// "100", "1,5") and one of [`UNITS`], the unit not running on into a
/// letter ("kgs" is not read; "gold" is no "g").
fn opens_with_measure(text: &str) -> Option<usize> {
    let count = text
        .bytes()
        .take_while(|b| b.is_ascii_digit() || *b == b',' || *b == b'.')
        .count();
    let rest = &text[count..];
    let spaced = rest.len() - rest.trim_start().len();
    let rest = rest.trim_start();
    UNITS
        .iter()
        .filter(|u| {
            rest.strip_prefix(**u)
                .is_some_and(|after| !after.starts_with(char::is_alphanumeric))
        })
        .map(|u| count + spaced + u.len())
        .max()
}

/// `text` (lower-cased) ends with a measure ([`opens_with_measure`] read
/// from its last words).
fn ends_with_measure(text: &str) -> bool {
    let text = text.trim_end();
    // The measure's start: after the last "per" word, an "(" or "=", or at
    // one of the last two words.
    let mut starts: Vec<usize> = text
        .char_indices()
        .filter(|&(_, c)| c.is_whitespace() || c == '(')
        .map(|(i, c)| i + c.len_utf8())
        .collect();
    starts.insert(0, 0);
    starts
        .iter()
        .rev()
        .take(3)
        .any(|&s| opens_with_measure(&text[s..]).is_some_and(|n| s + n == text.len()))
}

/// Whether the text right after an amount (as written) gives the measure
/// it is the price of: "/ kg", "/100g", "je 1 kg", "le kilo", "за кг".
/// Most prices are followed by nothing of the kind, and their text is
/// lower-cased only when it opens as a word of [`PER`] does.
pub(super) fn per_measure(after: &str) -> bool {
    let a = after.trim_start();
    let Some(first) = a.chars().next() else {
        return false;
    };
    let first = first.to_lowercase().next().unwrap_or(first);
    if !PER.iter().any(|p| p.starts_with(first)) {
        return false;
    }
    let a = a.to_lowercase();
    PER.iter().any(|p| {
        a.strip_prefix(p).is_some_and(|rest| {
            let spaced = rest.starts_with(char::is_whitespace);
            // A word ("je", "le") needs its space; a slash does not.
            (spaced || *p == "/") && opens_with_measure(rest.trim_start()).is_some()
        })
    })
}

/// Whether price `k` of a box's `text` (its prices `found`) is a unit
/// price: labelled so since the price before it ([`labelled`]) or followed
/// by its measure ([`per_measure`]).
pub(super) fn of_measure(text: &str, found: &[Found], k: usize) -> bool {
    let Some(f) = found.get(k) else {
        return false;
    };
    let from = k
        .checked_sub(1)
        .and_then(|j| found.get(j))
        .map_or(0, |last| last.at + last.raw.len());
    let before = text.get(from..f.at).unwrap_or_default();
    let after = text.get(f.at + f.raw.len()..).unwrap_or_default();
    (!before.trim().is_empty() && labelled(&before.to_lowercase())) || per_measure(after)
}

/// Whether the text before an amount (lower-cased) labels it a unit price:
/// a label of [`LABELS`] ("Grundpreis:"), a measure and "=" ("(1 kg ="),
/// a label ending with a measure ("Price per kg:", "Prix au kg :"), or a
/// measure before Japanese "あたり" ("100gあたり").
pub(super) fn labelled(before: &str) -> bool {
    let b = before.trim_end_matches([':', '：', ' ', '(', '\u{a0}']);
    if b.is_empty() {
        return false;
    }
    let label_ends = LABELS.iter().any(|l| {
        b.strip_suffix(l)
            .is_some_and(|rest| !rest.ends_with(char::is_alphanumeric) || !l.is_ascii())
    });
    if label_ends {
        return true;
    }
    if let Some(m) = b.strip_suffix('=') {
        return ends_with_measure(m);
    }
    if let Some(m) = b
        .strip_suffix("あたり")
        .or_else(|| b.strip_suffix("当たり"))
    {
        return ends_with_measure(m);
    }
    // "Price per kg", "Prix au kg", "Cena za 1 kg": a word of price, "per"
    // and a measure.
    ends_with_measure(b) && {
        let words: Vec<&str> = b.split_whitespace().collect();
        words
            .iter()
            .rev()
            .skip(1)
            .take(2)
            .any(|w| PER.contains(w) && *w != "/" && *w != "a")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_measure_after_an_amount() {
        for after in [
            "/kg",
            "/ 1 kg",
            " / 100 g",
            "/100g",
            "/lb",
            " je 1 kg",
            " pro kg",
            " le kilo",
            " al litro",
            " za 1 kg",
            " за кг",
            " per 100 ml",
        ] {
            assert!(per_measure(after), "{after}");
        }
        for after in [
            "/month",
            " per month",
            "",
            " 2 items",
            " je Monat",
            " le prix",
            "/mo",
        ] {
            assert!(!per_measure(after), "{after}");
        }
    }

    #[test]
    fn a_unit_prices_label() {
        for before in [
            "grundpreis:",
            "(1 kg =",
            "1 l = ",
            "unit price",
            "prix au kilo :",
            "prezzo al kg:",
            "price per kg:",
            "cena za 1 kg",
            "100gあたり",
            "jämförpris",
            "(",
        ] {
            assert_eq!(labelled(before), before != "(", "{before}");
        }
        for before in ["price", "sale price", "2 for", "now", "1 =", "gold ="] {
            assert!(!labelled(before), "{before}");
        }
    }
}
