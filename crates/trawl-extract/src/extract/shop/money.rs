//! Money as shops write it: amounts with the thousands and decimal
//! separators of many locales ("1.299,00", "1 299,00", "1'299.00",
//! "$1,646.00"), currency symbols and ISO 4217 codes, and the locale hints
//! that settle what a bare "$" or "kr" means. Everything here is pure text
//! work, shared by the structured-data and visible-page readers.

use std::sync::OnceLock;

use regex::Regex;

use crate::extract::char_class::NO_LETTER;

/// An amount normalised to a plain decimal with at least two decimals
/// (`"1299.00"`), from text in any common locale.
///
/// `structured` is for values from structured data, where schema.org asks
/// for a dot as the decimal mark: one dot there is always a decimal mark
/// ("1.299" is one point three), while on the visible page one separator
/// followed by exactly three digits groups thousands ("1.299 €", "$1,299").
pub(crate) fn parse_amount(text: &str, structured: bool) -> Option<String> {
    let text = &*ascii_number(text);
    // Keep the first run of digits and separators.
    let start = text.find(|c: char| c.is_ascii_digit())?;
    let run: String = text[start..]
        .chars()
        .take_while(|c| {
            c.is_ascii_digit() || matches!(c, '.' | ',' | '\'' | '’' | ' ' | '\u{a0}' | '\u{202f}')
        })
        .collect();
    let run = run.trim_end_matches(|c: char| !c.is_ascii_digit());
    // Spaces and apostrophes group thousands; a space followed by other than
    // three digits ends the number ("29 99" is two numbers).
    let mut digits = String::new();
    let mut groups = run.split([' ', '\u{a0}', '\u{202f}', '\'', '’']);
    digits.push_str(groups.next()?);
    for g in groups {
        let lead = g.chars().take_while(char::is_ascii_digit).count();
        if lead == 3 {
            digits.push_str(g);
        } else {
            break;
        }
    }
    let dots = digits.matches('.').count();
    let commas = digits.matches(',').count();
    let (int, frac) = match (dots, commas) {
        (0, 0) => (digits.clone(), String::new()),
        (_, 0) | (0, _) => {
            let sep = if dots > 0 { '.' } else { ',' };
            let count = dots + commas;
            let (head, tail) = digits.rsplit_once(sep)?;
            let grouping = count > 1
                || (tail.len() == 3
                    && !(structured && sep == '.')
                    && !head.trim_start_matches('0').is_empty());
            if grouping {
                (digits.replace(sep, ""), String::new())
            } else {
                (head.to_string(), tail.to_string())
            }
        }
        _ => {
            // Both: the last one is the decimal mark.
            let last_dot = digits.rfind('.')?;
            let last_comma = digits.rfind(',')?;
            let (sep, other) = if last_dot > last_comma {
                ('.', ',')
            } else {
                (',', '.')
            };
            let (head, tail) = digits.rsplit_once(sep)?;
            if head.contains(sep) {
                return None;
            }
            (head.replace(other, ""), tail.to_string())
        }
    };
    if int.is_empty() && frac.is_empty() {
        return None;
    }
    if !int.chars().all(|c| c.is_ascii_digit()) || !frac.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let int = int.trim_start_matches('0');
    let int = if int.is_empty() { "0" } else { int };
    if int.len() > 12 {
        return None;
    }
    let mut frac = frac;
    while frac.len() < 2 {
        frac.push('0');
    }
    Some(format!("{int}.{frac}"))
}

/// The zero of each run of ten decimal digits a shop may write its prices
/// in besides ASCII's: Arabic-Indic, Persian, Devanagari, Bengali,
/// Gurmukhi, Gujarati, Oriya, Tamil, Telugu, Kannada, Malayalam, Thai,
/// Lao, Tibetan, Myanmar, Khmer, Mongolian, fullwidth.
const DIGIT_ZEROS: [u32; 18] = [
    0x0660, 0x06F0, 0x0966, 0x09E6, 0x0A66, 0x0AE6, 0x0B66, 0x0BE6, 0x0C66, 0x0CE6, 0x0D66, 0x0E50,
    0x0ED0, 0x0F20, 0x1040, 0x17E0, 0x1810, 0xFF10,
];

/// `text` with its digits in ASCII and Arabic and fullwidth separators as
/// ASCII's ("١٬٢٩٩٫٥٠" → "1,299.50", "１，２８０" → "1,280"); borrowed
/// when it has none.
fn ascii_number(text: &str) -> std::borrow::Cow<'_, str> {
    let fold = |c: char| -> Option<char> {
        match c {
            '\u{66b}' | '\u{ff0e}' => return Some('.'),
            '\u{66c}' | '\u{ff0c}' => return Some(','),
            c if c.is_ascii() => return None,
            _ => {}
        }
        let u = u32::from(c);
        DIGIT_ZEROS
            .iter()
            .find(|&&z| (z..z + 10).contains(&u))
            .and_then(|&z| char::from_digit(u - z, 10))
    };
    if text.is_ascii() || !text.chars().any(|c| fold(c).is_some()) {
        return std::borrow::Cow::Borrowed(text);
    }
    text.chars().map(|c| fold(c).unwrap_or(c)).collect()
}

/// ISO 4217 codes shops use, recognised when written out ("EUR 15.49", "20 USD").
const CODES: &[&str] = &[
    "USD", "EUR", "GBP", "JPY", "CNY", "RMB", "INR", "AUD", "CAD", "NZD", "CHF", "SEK", "NOK",
    "DKK", "ISK", "PLN", "CZK", "HUF", "RON", "BGN", "HRK", "RUB", "UAH", "TRY", "BRL", "MXN",
    "ARS", "CLP", "COP", "PEN", "ZAR", "KRW", "HKD", "TWD", "SGD", "MYR", "IDR", "THB", "VND",
    "PHP", "ILS", "AED", "SAR", "QAR", "KWD", "EGP", "NGN", "KES", "PKR", "BDT", "KZT", "RSD",
    "BYN", "GEL", "AZN", "MAD", "LKR", "NPR", "OMR", "BHD", "JOD",
];

/// The Open Graph (and Facebook catalogue) tags that state a product's
/// price, the sale price first.
pub(crate) const OPEN_GRAPH_PRICE_KEYS: [&str; 3] = [
    "product:sale_price:amount",
    "product:price:amount",
    "og:price:amount",
];

/// A currency the text names or implies, and how sure that is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Named {
    /// An ISO code or an unambiguous symbol (€, £, R$, zł).
    Sure(&'static str),
    /// A symbol several currencies share: `$`, `kr`, `¥`.
    Dollar,
    /// `kr`: Swedish, Norwegian, Danish or Icelandic krona/krone.
    Krona,
    /// `¥`/`￥`: yen or yuan.
    Yen,
    /// `Rs`: Indian, Pakistani, Sri Lankan or Nepalese rupee.
    Rupee,
    /// No symbol at all: an amount alone in an element named for a price,
    /// whose currency a stylesheet or an icon draws.
    Unshown,
}

/// Symbols and words, longest first so "US$" wins over "$".
const SYMBOLS: &[(&str, Named)] = &[
    ("US$", Named::Sure("USD")),
    ("CA$", Named::Sure("CAD")),
    ("AU$", Named::Sure("AUD")),
    ("NZ$", Named::Sure("NZD")),
    ("HK$", Named::Sure("HKD")),
    ("MX$", Named::Sure("MXN")),
    ("NT$", Named::Sure("TWD")),
    ("R$", Named::Sure("BRL")),
    ("C$", Named::Sure("CAD")),
    ("A$", Named::Sure("AUD")),
    ("S$", Named::Sure("SGD")),
    ("€", Named::Sure("EUR")),
    ("£", Named::Sure("GBP")),
    ("₹", Named::Sure("INR")),
    ("₩", Named::Sure("KRW")),
    ("₽", Named::Sure("RUB")),
    ("₺", Named::Sure("TRY")),
    ("₪", Named::Sure("ILS")),
    ("฿", Named::Sure("THB")),
    ("₫", Named::Sure("VND")),
    ("₱", Named::Sure("PHP")),
    ("₴", Named::Sure("UAH")),
    ("₸", Named::Sure("KZT")),
    ("₦", Named::Sure("NGN")),
    ("৳", Named::Sure("BDT")),
    ("₾", Named::Sure("GEL")),
    ("₼", Named::Sure("AZN")),
    // Words and abbreviations in their own scripts: tenge, won, hryvnia,
    // dong, Turkish lira, rupiah, ringgit, Swiss franc, Gulf currencies.
    ("тг.", Named::Sure("KZT")),
    ("тг", Named::Sure("KZT")),
    ("원", Named::Sure("KRW")),
    ("грн.", Named::Sure("UAH")),
    ("грн", Named::Sure("UAH")),
    ("đ", Named::Sure("VND")),
    ("TL", Named::Sure("TRY")),
    ("Rp", Named::Sure("IDR")),
    ("RM", Named::Sure("MYR")),
    ("SFr.", Named::Sure("CHF")),
    ("Fr.", Named::Sure("CHF")),
    ("ر.س", Named::Sure("SAR")),
    ("د.إ", Named::Sure("AED")),
    ("ج.م", Named::Sure("EGP")),
    ("ر.ق", Named::Sure("QAR")),
    ("د.ك", Named::Sure("KWD")),
    ("บาท", Named::Sure("THB")),
    ("zł", Named::Sure("PLN")),
    // East Africa's shillings (not Peru's "S/": "SAP S/4HANA").
    ("KSh", Named::Sure("KES")),
    ("Ksh", Named::Sure("KES")),
    ("USh", Named::Sure("UGX")),
    ("TSh", Named::Sure("TZS")),
    ("Kč", Named::Sure("CZK")),
    ("Ft", Named::Sure("HUF")),
    ("lei", Named::Sure("RON")),
    ("лв", Named::Sure("BGN")),
    ("руб", Named::Sure("RUB")),
    // The rouble's short form after an amount ("1 500 р."); see
    // [`find_prices`] for where it is not one.
    ("р.", Named::Sure("RUB")),
    ("元", Named::Sure("CNY")),
    ("円", Named::Sure("JPY")),
    ("Rs.", Named::Rupee),
    ("Rs", Named::Rupee),
    ("$", Named::Dollar),
    ("kr.", Named::Krona),
    ("kr", Named::Krona),
    // Whole kronor in Sweden's shorthand, after the amount: "1 299:-".
    (":-", Named::Krona),
    ("¥", Named::Yen),
    ("￥", Named::Yen),
];

/// Where a page says it is: the language and region of its `<html lang>`,
/// the region else read from its address's country-code domain
/// (`shop.com.au`), as a reader takes a bare "$" on an Australian shop.
#[derive(Debug, Clone, Default)]
pub(crate) struct Place {
    primary: String,
    region: String,
}

impl Place {
    /// The place of a page with `<html lang>` `lang` at `url`.
    pub(crate) fn of(lang: Option<&str>, url: Option<&str>) -> Place {
        let lang = lang.unwrap_or("").trim().to_ascii_lowercase();
        let mut parts = lang.split(['-', '_']);
        let primary = parts.next().unwrap_or("").to_string();
        let region = match parts.next() {
            Some(r) if !r.is_empty() => r.to_string(),
            _ => url.and_then(country_domain).unwrap_or_default(),
        };
        Place { primary, region }
    }

    /// The currency the place pays in, when it says so alone: its region's
    /// (`nl-NL`, `.co.uk`), else a language spoken in one currency's lands
    /// only (`ja`, `pl`, `nl`; not `de`, `fr`, `es`, `en`, `ru`, `zh`).
    pub(crate) fn currency(&self) -> Option<&'static str> {
        let by_region = match self.region.as_str() {
            "at" | "be" | "cy" | "de" | "ee" | "es" | "fi" | "fr" | "gr" | "hr" | "ie" | "it"
            | "lt" | "lu" | "lv" | "mt" | "nl" | "pt" | "si" | "sk" => Some("EUR"),
            "gb" | "uk" => Some("GBP"),
            "us" => Some("USD"),
            "ca" => Some("CAD"),
            "au" => Some("AUD"),
            "nz" => Some("NZD"),
            "ch" => Some("CHF"),
            "jp" => Some("JPY"),
            "cn" => Some("CNY"),
            "kr" => Some("KRW"),
            "in" => Some("INR"),
            "pl" => Some("PLN"),
            "cz" => Some("CZK"),
            "hu" => Some("HUF"),
            "se" => Some("SEK"),
            "dk" => Some("DKK"),
            "no" => Some("NOK"),
            "tr" => Some("TRY"),
            "ua" => Some("UAH"),
            "il" => Some("ILS"),
            "th" => Some("THB"),
            "vn" => Some("VND"),
            "id" => Some("IDR"),
            "br" => Some("BRL"),
            "mx" => Some("MXN"),
            "za" => Some("ZAR"),
            "ro" => Some("RON"),
            _ => None,
        };
        by_region.or(match self.primary.as_str() {
            "nl" | "fi" | "el" | "et" | "lv" | "lt" | "sk" | "sl" => Some("EUR"),
            "ja" => Some("JPY"),
            "ko" => Some("KRW"),
            "pl" => Some("PLN"),
            "cs" => Some("CZK"),
            "hu" => Some("HUF"),
            "sv" => Some("SEK"),
            "da" => Some("DKK"),
            "nb" | "nn" | "no" => Some("NOK"),
            "tr" => Some("TRY"),
            "uk" => Some("UAH"),
            "he" => Some("ILS"),
            "th" => Some("THB"),
            "vi" => Some("VND"),
            "id" => Some("IDR"),
            "ro" => Some("RON"),
            _ => None,
        })
    }
}

/// The country code an address's host ends in (`www.shop.com.au` → "au"),
/// when it names a country. Codes sold as generic names (`.co`, `.io`,
/// `.tv`, `.me`, …) name none.
fn country_domain(url: &str) -> Option<String> {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let host = rest.split(['/', '?', '#']).next()?;
    let host = host.rsplit_once('@').map_or(host, |(_, h)| h);
    let host = host.split(':').next()?.trim_end_matches('.');
    let (name, tld) = host.rsplit_once('.')?;
    const GENERIC: [&str; 14] = [
        "co", "io", "tv", "me", "ai", "ly", "fm", "gg", "to", "cc", "ws", "la", "nu", "sh",
    ];
    let country = !name.is_empty()
        && tld.len() == 2
        && tld.bytes().all(|b| b.is_ascii_alphabetic())
        && !GENERIC.iter().any(|g| tld.eq_ignore_ascii_case(g));
    country.then(|| tld.to_ascii_lowercase())
}

/// Settles an ambiguous symbol with what the page says of itself: a
/// currency its structured data declares, then its [`Place`] ("en-AU" or
/// `.com.au` → AUD, "sv" → SEK, "zh" → CNY). An unshown currency is the
/// declared one, if any.
pub(crate) fn settle(named: Named, declared: Option<&str>, place: &Place) -> Option<&'static str> {
    let (primary, region) = (place.primary.as_str(), place.region.as_str());
    let declared_is = |codes: &[&'static str]| {
        declared.and_then(|d| {
            codes
                .iter()
                .copied()
                .find(|c| c.eq_ignore_ascii_case(d.trim()))
        })
    };
    Some(match named {
        Named::Sure(code) => code,
        Named::Dollar => declared_is(&[
            "USD", "CAD", "AUD", "NZD", "HKD", "SGD", "MXN", "TWD", "ARS", "CLP", "COP",
        ])
        .unwrap_or(match region {
            "au" => "AUD",
            "ca" => "CAD",
            "nz" => "NZD",
            "hk" => "HKD",
            "sg" => "SGD",
            "mx" => "MXN",
            "tw" => "TWD",
            "ar" => "ARS",
            "cl" => "CLP",
            "co" => "COP",
            _ => "USD",
        }),
        Named::Krona => {
            declared_is(&["SEK", "NOK", "DKK", "ISK"]).unwrap_or(match (primary, region) {
                ("nb" | "nn" | "no", _) | (_, "no") => "NOK",
                ("da", _) | (_, "dk") => "DKK",
                ("is", _) | (_, "is") => "ISK",
                _ => "SEK",
            })
        }
        Named::Yen => {
            declared_is(&["JPY", "CNY"]).unwrap_or(if primary == "zh" || region == "cn" {
                "CNY"
            } else {
                "JPY"
            })
        }
        Named::Rupee => declared_is(&["INR", "PKR", "LKR", "NPR"]).unwrap_or(match region {
            "pk" => "PKR",
            "lk" => "LKR",
            "np" => "NPR",
            _ => "INR",
        }),
        Named::Unshown => return declared.and_then(code_of),
    })
}

/// A price found in a piece of text: the amount as written, normalised, and
/// the currency named next to it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Found {
    /// The matched text ("1.299,00 €").
    pub raw: String,
    /// Normalised amount ("1299.00").
    pub amount: String,
    /// The symbol or code beside the amount.
    pub named: Named,
    /// Byte offset of the match in the text searched.
    pub at: usize,
}

/// Any digit a shop writes a price in: ASCII's and [`DIGIT_ZEROS`]' runs,
/// the digits [`parse_amount`] reads (`\d`'s every script took 100 KB of
/// automata, for digits no amount could be read in).
fn digit_class() -> String {
    let mut class = String::from("[0-9");
    for z in DIGIT_ZEROS {
        class.push_str(&format!("\\x{{{z:X}}}-\\x{{{:X}}}", z + 9));
    }
    class.push(']');
    class
}

fn price_pattern() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| {
        let mut syms: Vec<String> = SYMBOLS.iter().map(|(s, _)| regex::escape(s)).collect();
        syms.extend(CODES.iter().map(|c| (*c).to_string()));
        let sym = syms.join("|");
        let codes = CODES.join("|");
        // Symbol before or after a number; a word boundary keeps "kr" out of
        // "krone" and codes out of longer words.
        // (`\d` is any script's digit `parse_amount` reads; Arabic and
        // fullwidth separators too.)
        // Indian grouping first: lakhs and crores in pairs ("₹1,29,999").
        // A whole amount may end in ",-" before its symbol ("1.234,- €",
        // "1.299,- kr.": German, Dutch and Nordic shops).
        let num = r"\d{1,2}(?:,\d{2})+,\d{3}(?:\.\d{1,2})?|\d{1,3}(?:[.,'’ \u{a0}\u{202f}\u{66c}\u{ff0c}]\d{3})+(?:[.,\u{66b}\u{ff0e}]\d{1,2})?|\d+(?:[.,\u{66b}\u{ff0e}]\d{1,2})?"
            .replace(r"\d", &digit_class());
        // South Africa's rand as a bare "R" before the amount, only in a
        // money's own form: thousands grouped or two decimals ("R1,299",
        // "R 1 299.00", "R89,95"), so a model ("EOS R5") is none.
        // ASCII digits and an ASCII word boundary keep the branch small.
        let rand = r"R\s?(?P<n3>[0-9]{1,3}(?:[, \u{a0}\u{202f}][0-9]{3})+(?:[.,][0-9]{2})?|[0-9]+[.,][0-9]{2})(?-u:\b)";
        Regex::new(&format!(
            r"(?:(?P<pre>{sym})\s?(?P<n1>{num})(?:\s?(?:{codes})\b)?)|(?:(?P<n2>{num})(?:[.,][-–])?\s?(?P<post>{sym})(?:{NO_LETTER}|$))|(?:{rand})"
        ))
        .unwrap_or_else(|e| panic!("price pattern: {e}"))
    })
}

fn named_of(sym: &str) -> Option<Named> {
    if let Some((_, n)) = SYMBOLS.iter().find(|(s, _)| *s == sym) {
        return Some(*n);
    }
    CODES.iter().find(|c| **c == sym).map(|c| {
        Named::Sure(match *c {
            "RMB" => "CNY",
            other => other,
        })
    })
}

/// Every price written in `text` with a currency beside it, in order.
pub(crate) fn find_prices(text: &str) -> Vec<Found> {
    let mut out = Vec::new();
    for caps in price_pattern().captures_iter(text) {
        let (named, num) = match (
            caps.name("pre"),
            caps.name("n1"),
            caps.name("n2"),
            caps.name("post"),
        ) {
            // ":-" follows an amount, never opens one ("Temp:-5").
            // "р." follows an amount too ("р. Волга" is a river).
            (Some(s), Some(n), _, _) if !matches!(s.as_str(), ":-" | "р.") => {
                (named_of(s.as_str()), n)
            }
            // "2020 р." is a year in Ukrainian ("рік"), not a price.
            (_, _, Some(n), Some(s)) if s.as_str() != "р." || !year_like(n.as_str()) => {
                (named_of(s.as_str()), n)
            }
            _ => match caps.name("n3") {
                Some(n) => (Some(Named::Sure("ZAR")), n),
                None => continue,
            },
        };
        // A letter glued before a symbol word ("Ifrs") or before a number
        // ("A4") is not a price; scripts written without spaces glue every
        // word ("最低價$99元起").
        let before = text[..caps.get(0).map_or(0, |m| m.start())]
            .chars()
            .next_back();
        if before.is_some_and(|c| c.is_alphanumeric() && !unspaced(c)) {
            continue;
        }
        let (Some(named), Some(amount)) = (named, parse_amount(num.as_str(), false)) else {
            continue;
        };
        // The match ends with the character after a symbol that follows
        // its amount (the pattern's boundary): not part of the price.
        let start = caps.get(0).map_or(0, |m| m.start());
        let end = match caps.name("post") {
            Some(post) => post.end(),
            None => caps.get(0).map_or(start, |m| m.end()),
        };
        let whole = &text[start..end];
        out.push(Found {
            raw: whole.trim().to_string(),
            amount,
            named,
            at: caps.get(0).map_or(0, |m| m.start()),
        });
    }
    out
}

/// A bare four-digit number that reads as a year (1800–2100).
fn year_like(n: &str) -> bool {
    n.len() == 4 && n.parse::<u16>().is_ok_and(|y| (1800..=2100).contains(&y))
}

/// A letter of a script written without spaces between words (Chinese,
/// Japanese; Korean's words run into their particles and currency).
fn unspaced(c: char) -> bool {
    matches!(u32::from(c), 0x3040..=0x30FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xAC00..=0xD7AF | 0xF900..=0xFAFF)
}

/// Words and marks that join the two ends of a price range ("$10 – $20",
/// "30,000원~50,000원", "de 10 € à 20 €").
const RANGE_JOINS: &[&str] = &[
    "-", "–", "—", "~", "〜", "～", "to", "bis", "à", "a", "до", "-до",
];

/// The top of a range that `low` (one of `found`, read from `text`) opens:
/// the next price, joined to it by a dash or a word of range, above it.
pub(crate) fn range_top<'a>(text: &str, low: &Found, found: &'a [Found]) -> Option<&'a Found> {
    let end = low.at + low.raw.len();
    let next = found.iter().find(|f| f.at >= end)?;
    // The match may hold the mark after a currency ("30,000원~").
    let mark = low
        .raw
        .chars()
        .next_back()
        .filter(|c| "-–—~〜～".contains(*c));
    let between = text.get(end..next.at)?;
    let join = format!("{}{between}", mark.map(String::from).unwrap_or_default());
    joins_range(low, &join, next).then_some(next)
}

/// Whether `join` (the text between two prices) joins `low` to a `high`
/// above it as the ends of one range.
pub(crate) fn joins_range(low: &Found, join: &str, high: &Found) -> bool {
    let above = match (high.amount.parse::<f64>(), low.amount.parse::<f64>()) {
        (Ok(h), Ok(l)) => h > l,
        _ => false,
    };
    above && RANGE_JOINS.contains(&join.trim().to_lowercase().as_str())
}

/// A currency code from structured data ("usd", " EUR "), or a symbol there.
pub(crate) fn code_of(value: &str) -> Option<&'static str> {
    let v = value.trim();
    if let Some(c) = CODES.iter().find(|c| c.eq_ignore_ascii_case(v)) {
        return Some(if *c == "RMB" { "CNY" } else { c });
    }
    match named_of(v)? {
        Named::Sure(c) => Some(c),
        _ => None,
    }
}

/// Two normalised amounts are the same price.
pub(crate) fn same_amount(a: &str, b: &str) -> bool {
    match (a.parse::<f64>(), b.parse::<f64>()) {
        (Ok(x), Ok(y)) => (x - y).abs() < 0.005,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pattern's own digit class and word edge, written as ranges: an
    /// amount in every script `parse_amount` reads is found, and a symbol
    /// glued to a letter after it is no currency (punctuation of every
    /// script the edge lists is).
    #[test]
    fn every_script_s_digits_and_the_edge_after_a_symbol() {
        for z in DIGIT_ZEROS {
            let digit = |d: u32| char::from_u32(z + d).unwrap_or('?');
            let amount: String = [1, 2, 9].into_iter().map(digit).collect();
            let f = find_prices(&format!("€ {amount}"));
            assert_eq!(
                f.first().map(|x| x.amount.as_str()),
                Some("129.00"),
                "{z:X}"
            );
        }
        for after in [" ", "،", "。", "）", "\u{a0}", "\u{feff}", "!", "📦", "״"] {
            let f = find_prices(&format!("129 kr{after}"));
            assert_eq!(f.len(), 1, "kr{after}");
        }
        for after in ["one", "é", "Ω", "ø", "ب", "語"] {
            assert!(
                find_prices(&format!("129 kr{after}")).is_empty(),
                "kr{after}"
            );
        }
    }

    #[test]
    fn amounts_in_many_locales() {
        let p = |s| parse_amount(s, false);
        assert_eq!(p("1.299,00 €").as_deref(), Some("1299.00"));
        assert_eq!(p("$1,646.00").as_deref(), Some("1646.00"));
        assert_eq!(p("1 299,00").as_deref(), Some("1299.00"));
        assert_eq!(p("1'299.50").as_deref(), Some("1299.50"));
        assert_eq!(p("59,99€").as_deref(), Some("59.99"));
        assert_eq!(p("$1,000").as_deref(), Some("1000.00"));
        assert_eq!(p("1.299 €").as_deref(), Some("1299.00"));
        assert_eq!(p("0,125").as_deref(), Some("0.125"));
        assert_eq!(p("2,5").as_deref(), Some("2.50"));
        assert_eq!(p("€132.34").as_deref(), Some("132.34"));
        assert_eq!(p("1.234.567,89").as_deref(), Some("1234567.89"));
        assert_eq!(p("free"), None);
        // Digits and separators of other scripts.
        assert_eq!(p("١٬٢٩٩٫٥٠ د.إ").as_deref(), Some("1299.50"));
        assert_eq!(p("۱۲۰٬۰۰۰").as_deref(), Some("120000.00"));
        assert_eq!(p("১২০০ ৳").as_deref(), Some("1200.00"));
        assert_eq!(p("￥１，２８０").as_deref(), Some("1280.00"));
        assert_eq!(p("₹ १,४९९").as_deref(), Some("1499.00"));
    }

    #[test]
    fn structured_amounts_use_a_dot() {
        assert_eq!(parse_amount("1.299", true).as_deref(), Some("1.299"));
        assert_eq!(parse_amount("17.0", true).as_deref(), Some("17.00"));
        assert_eq!(parse_amount("110", true).as_deref(), Some("110.00"));
        assert_eq!(parse_amount("0,00", true).as_deref(), Some("0.00"));
        assert_eq!(parse_amount("$1,779.00", true).as_deref(), Some("1779.00"));
    }

    #[test]
    fn prices_in_text() {
        let f = find_prices("Was £114.90 now £94.90 -17%, or 20 USD; 99,90€ and EUR 15.49");
        let got: Vec<_> = f.iter().map(|x| (x.amount.as_str(), x.named)).collect();
        assert_eq!(
            got,
            vec![
                ("114.90", Named::Sure("GBP")),
                ("94.90", Named::Sure("GBP")),
                ("20.00", Named::Sure("USD")),
                ("99.90", Named::Sure("EUR")),
                ("15.49", Named::Sure("EUR")),
            ]
        );
        // The character after a symbol that follows the amount is not the
        // price's.
        let raws: Vec<_> = f.iter().map(|x| x.raw.as_str()).collect();
        assert_eq!(raws[2], "20 USD");
        assert_eq!(find_prices("3,980円（税込）")[0].raw, "3,980円");
        assert!(find_prices("Model A4 costs nothing; 300mg in 30ct").is_empty());
        let f = find_prices("السعر ١٬٢٩٩٫٥٠ د.إ شامل الضريبة، ١٢٠ ر.س للشحن; দাম ১২০০ ৳");
        let got: Vec<_> = f.iter().map(|x| (x.amount.as_str(), x.named)).collect();
        assert_eq!(
            got,
            vec![
                ("1299.50", Named::Sure("AED")),
                ("120.00", Named::Sure("SAR")),
                ("1200.00", Named::Sure("BDT")),
            ]
        );
        assert_eq!(find_prices("From $1099 or $91.58/mo.")[0].amount, "1099.00");
        let d = find_prices("Only $29.95 today");
        assert_eq!(d[0].named, Named::Dollar);
        assert_eq!(d[0].raw, "$29.95");
    }

    /// Issue 59: the rouble's "р." after an amount is a price; before one
    /// (a river), or after a year ("у 2020 р.", Ukrainian), it is not.
    #[test]
    fn the_roubles_short_form_after_an_amount() {
        let f = find_prices("Цена: 1 500 р. и 990 р.");
        let got: Vec<_> = f.iter().map(|x| (x.amount.as_str(), x.named)).collect();
        assert_eq!(
            got,
            vec![
                ("1500.00", Named::Sure("RUB")),
                ("990.00", Named::Sure("RUB"))
            ]
        );
        assert!(find_prices("у 2020 р. на р. 12 кілометрів").is_empty());
    }

    /// Issue 59: currency words and symbols in their own scripts, after
    /// or before amounts in every grouping convention.
    #[test]
    fn currencies_in_their_own_scripts() {
        for (text, amount, code) in [
            ("44 890 тг.", "44890.00", "KZT"),
            ("₸ 5 000", "5000.00", "KZT"),
            ("294 元", "294.00", "CNY"),
            ("30,000원~", "30000.00", "KRW"),
            ("1.299,00 TL", "1299.00", "TRY"),
            ("Rp 150.000", "150000.00", "IDR"),
            ("RM 49.90", "49.90", "MYR"),
            ("150.000đ", "150000.00", "VND"),
            ("1 299 грн", "1299.00", "UAH"),
            ("120 ر.س", "120.00", "SAR"),
            ("Fr. 1'234.50", "1234.50", "CHF"),
            ("2 490 ₽", "2490.00", "RUB"),
            ("₦12,500", "12500.00", "NGN"),
            ("R1,299", "1299.00", "ZAR"),
            ("R 1 299.00", "1299.00", "ZAR"),
            ("R89.95", "89.95", "ZAR"),
            ("R1 299,95", "1299.95", "ZAR"),
            ("R89,95", "89.95", "ZAR"),
        ] {
            let f = find_prices(text);
            assert_eq!(f.len(), 1, "{text}: {f:?}");
            assert_eq!(f[0].amount, amount, "{text}");
            assert_eq!(f[0].named, Named::Sure(code), "{text}");
        }
        // Glued to the words before it in a script without spaces.
        let f = find_prices("最低價$99元起");
        assert_eq!((f.len(), f[0].amount.as_str()), (1, "99.00"), "{f:?}");
        // A word that merely holds the letters is no currency.
        assert!(find_prices("150.000 đồng").is_empty());
        assert!(find_prices("3 RMS units, 2 TLS hops").is_empty());
        // A bare "R" is the rand only before a money's own form.
        assert!(find_prices("Canon EOS R5, R 2 and R32").is_empty());
        assert!(find_prices("HR1,299 and FOR1,299").is_empty());
        // Sweden's whole kronor: a krona after the amount, never before one.
        let f = find_prices("1 299:- och 49:-");
        let got: Vec<_> = f.iter().map(|x| (x.amount.as_str(), x.named)).collect();
        assert_eq!(
            got,
            vec![("1299.00", Named::Krona), ("49.00", Named::Krona)]
        );
        assert!(find_prices("Temp:-5, Pris:-20").is_empty());
        // A whole amount's ",-" before the symbol after it.
        for (text, amount) in [
            ("1.234,- €", "1234.00"),
            ("1.299,- kr.", "1299.00"),
            ("49,– €", "49.00"),
        ] {
            let f = find_prices(text);
            assert_eq!(f.first().map(|x| x.amount.as_str()), Some(amount), "{text}");
        }
    }

    #[test]
    fn ranges_and_their_tops() {
        for (text, top) in [
            ("$10.00 – $20.00", Some("20.00")),
            ("€ 12,50 - € 18,00", Some("18.00")),
            ("30,000원~50,000원", Some("50000.00")),
            ("de 10 € à 20 €", Some("20.00")),
            ("от 1 200 ₽ до 3 400 ₽", Some("3400.00")),
            ("£114.90 £94.90", None),
            ("$20.00 – $10.00", None),
            ("$10.00, $20.00", None),
        ] {
            let f = find_prices(text);
            let got = f.first().and_then(|low| range_top(text, low, &f));
            assert_eq!(got.map(|t| t.amount.as_str()), top, "{text}: {f:?}");
        }
    }

    #[test]
    fn ambiguous_symbols_are_settled_by_the_page() {
        assert_eq!(
            settle(Named::Dollar, None, &Place::of(Some("en-AU"), None)),
            Some("AUD")
        );
        assert_eq!(
            settle(Named::Dollar, Some("cad"), &Place::of(Some("en-US"), None)),
            Some("CAD")
        );
        assert_eq!(
            settle(Named::Dollar, Some("EUR"), &Place::of(None, None)),
            Some("USD")
        );
        assert_eq!(
            settle(Named::Krona, None, &Place::of(Some("da-DK"), None)),
            Some("DKK")
        );
        assert_eq!(
            settle(Named::Yen, None, &Place::of(Some("zh-CN"), None)),
            Some("CNY")
        );
        // Issue 59: a Latin American "$" is the country's peso; "Rs" is
        // the rupee of the page's region.
        assert_eq!(
            settle(Named::Dollar, None, &Place::of(Some("es-CL"), None)),
            Some("CLP")
        );
        assert_eq!(
            settle(Named::Dollar, None, &Place::of(Some("es-AR"), None)),
            Some("ARS")
        );
        assert_eq!(
            settle(Named::Dollar, None, &Place::of(Some("es-CO"), None)),
            Some("COP")
        );
        assert_eq!(
            settle(Named::Rupee, None, &Place::of(Some("en-PK"), None)),
            Some("PKR")
        );
        assert_eq!(
            settle(Named::Rupee, None, &Place::of(Some("en"), None)),
            Some("INR")
        );
        assert_eq!(
            settle(Named::Rupee, Some("LKR"), &Place::of(None, None)),
            Some("LKR")
        );
        // Issue 59: without a region in `<html lang>`, the address's
        // country domain settles it; a region the page names wins.
        let at = |lang, url| Place::of(lang, Some(url));
        let dollar = |p: &Place| settle(Named::Dollar, None, p);
        assert_eq!(
            dollar(&at(Some("en"), "https://www.shop.com.au/p/1")),
            Some("AUD")
        );
        assert_eq!(dollar(&at(None, "https://shop.ca:8443/p")), Some("CAD"));
        assert_eq!(
            dollar(&at(Some("en-US"), "https://shop.com.au/p")),
            Some("USD")
        );
        assert_eq!(dollar(&at(Some("en"), "https://shop.co/p")), Some("USD"));
        assert_eq!(
            dollar(&at(Some("en"), "http://127.0.0.2:8080/p")),
            Some("USD")
        );
        let krona = |p: &Place| settle(Named::Krona, None, p);
        assert_eq!(
            krona(&at(Some("en"), "https://butikk.no/vare")),
            Some("NOK")
        );
        assert_eq!(krona(&at(None, "https://shop.dk/")), Some("DKK"));
        assert_eq!(krona(&at(Some("sv"), "https://shop.com/")), Some("SEK"));
        let yen = settle(Named::Yen, None, &at(None, "https://shop.cn/item"));
        assert_eq!(yen, Some("CNY"));
        // Issue 59: lakhs and crores are grouped in pairs.
        for (text, want) in [
            ("₹1,29,999", "129999.00"),
            ("Rs. 12,34,567.50", "1234567.50"),
            ("₹ 1,299", "1299.00"),
        ] {
            let f = find_prices(text);
            assert_eq!(f.first().map(|p| p.amount.as_str()), Some(want), "{text}");
        }
        // No symbol shown: the declared currency, or none.
        assert_eq!(
            settle(Named::Unshown, Some("eur"), &Place::of(Some("en"), None)),
            Some("EUR")
        );
        assert_eq!(
            settle(Named::Unshown, None, &Place::of(Some("en"), None)),
            None
        );
        // The currency a place pays in, when it says so alone.
        assert_eq!(Place::of(Some("nl-NL"), None).currency(), Some("EUR"));
        assert_eq!(Place::of(Some("ja"), None).currency(), Some("JPY"));
        assert_eq!(
            Place::of(Some("en"), Some("https://shop.co.uk/p")).currency(),
            Some("GBP")
        );
        assert_eq!(Place::of(Some("de"), None).currency(), None);
        assert_eq!(Place::of(Some("en"), None).currency(), None);
        assert_eq!(code_of(" eur "), Some("EUR"));
        assert_eq!(code_of("€"), Some("EUR"));
        assert!(same_amount("17.00", "17.0"));
    }
}
