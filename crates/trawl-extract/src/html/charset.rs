//! Bytes to text. Web pages lie about their encoding often enough that the
//! order matters: a byte-order mark wins, then what the caller knows (an HTTP
//! header or `--charset`), then a `<meta>` declaration in the first 1024 bytes,
//! then chardetng's guess (with the top-level domain as a hint), corrected to
//! a double-byte CJK encoding when chardetng falls back to windows-1252 on
//! text that is all runs of non-ASCII bytes.
//! A declared UTF-8 that does not validate falls through to detection.
//! Arabic presentation forms are folded to base letters (paper 001).

use std::borrow::Cow;

use chardetng::EncodingDetector;
use encoding_rs::{
    Encoding, BIG5, EUC_JP, EUC_KR, GBK, SHIFT_JIS, UTF_16BE, UTF_16LE, UTF_8, WINDOWS_1252,
};
use unicode_normalization::UnicodeNormalization;

use crate::error::ExtractError;

/// Text decoded from a page, with the encoding that was used.
#[derive(Debug)]
pub(crate) struct Decoded<'a> {
    /// Borrowed from the bytes when they were UTF-8 needing no repair.
    pub text: Cow<'a, str>,
    pub encoding: &'static Encoding,
    /// Where the encoding came from: "bom", "declared", "meta", "detected".
    #[cfg_attr(not(test), allow(dead_code))]
    pub source: &'static str,
}

/// A character encoding, by its WHATWG label.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Charset(pub(crate) &'static encoding_rs::Encoding);

impl Charset {
    /// Looks a label up ("utf-8", "gbk", "latin1", …).
    pub fn from_label(label: &str) -> Result<Charset, ExtractError> {
        encoding_for_label(label).map(Charset)
    }

    /// The `charset=` of a `Content-Type` header value, if it names a known one.
    pub fn from_content_type(value: &str) -> Option<Charset> {
        charset_from_content_type(value)
            .and_then(|l| encoding_for_label(l).ok())
            .map(Charset)
    }

    /// The encoding's canonical name ("UTF-8", "GBK", …).
    pub fn name(self) -> &'static str {
        self.0.name()
    }
}

/// Resolves a charset label (as in `Content-Type` or `--charset`).
pub(crate) fn encoding_for_label(label: &str) -> Result<&'static Encoding, ExtractError> {
    Encoding::for_label(label.trim().as_bytes())
        .ok_or_else(|| ExtractError::UnknownCharset(label.to_string()))
}

/// Extracts `charset=` from a Content-Type header value.
pub(crate) fn charset_from_content_type(value: &str) -> Option<&str> {
    let lower = value.to_ascii_lowercase();
    let at = lower.find("charset=")?;
    let rest = &value[at + 8..];
    let rest = rest.trim_start_matches(['"', '\'']);
    let end = rest.find(['"', '\'', ';', ' ']).unwrap_or(rest.len());
    Some(&rest[..end]).filter(|s| !s.is_empty())
}

/// Finds a `<meta charset>` or `http-equiv` declaration in the first 1024 bytes.
pub(crate) fn sniff_meta(bytes: &[u8]) -> Option<&'static Encoding> {
    let head = &bytes[..bytes.len().min(1024)];
    let lower: Vec<u8> = head.iter().map(u8::to_ascii_lowercase).collect();
    let mut from = 0;
    while let Some(pos) = find(&lower[from..], b"<meta") {
        let start = from + pos;
        let end = lower[start..]
            .iter()
            .position(|&b| b == b'>')
            .map_or(lower.len(), |e| start + e);
        let tag = &lower[start..end];
        if let Some(cs) = find(tag, b"charset") {
            let mut rest = &tag[cs + 7..];
            rest = trim_start(rest);
            if let Some(r) = rest.strip_prefix(b"=") {
                let r = trim_start(r);
                let r = r
                    .strip_prefix(b"\"")
                    .or_else(|| r.strip_prefix(b"'"))
                    .unwrap_or(r);
                let len = r
                    .iter()
                    .position(|&b| matches!(b, b'"' | b'\'' | b';' | b' ' | b'/' | b'>'))
                    .unwrap_or(r.len());
                if let Some(enc) = Encoding::for_label(&r[..len]) {
                    // A page cannot really be UTF-16 if we could read its meta as ASCII.
                    if enc == UTF_16LE || enc == UTF_16BE {
                        return Some(UTF_8);
                    }
                    return Some(enc);
                }
            }
        }
        from = end.max(start + 5);
        if from >= lower.len() {
            break;
        }
    }
    None
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

fn trim_start(b: &[u8]) -> &[u8] {
    let n = b.iter().take_while(|c| c.is_ascii_whitespace()).count();
    &b[n..]
}

/// Signatures of compressed and image data that servers send as text/html
/// (a gzip body without its Content-Encoding header, a misnamed picture).
const BINARY_MAGIC: &[&[u8]] = &[
    b"\x1f\x8b",         // gzip
    b"\x28\xb5\x2f\xfd", // zstd
    b"PK\x03\x04",       // zip
    b"\x89PNG",          // png
    b"\xff\xd8\xff",     // jpeg
    b"BZh",              // bzip2 (followed by a digit)
];

/// A crude binary test on the first 4 KiB: a compressed or image signature,
/// NUL bytes past 1% of it, or more than 5% control bytes (UTF-16 text,
/// which has NULs, is recognised by its BOM or pattern first). Compressed
/// data is uniformly random: about 10% of its bytes are controls, so a 10%
/// bar let half of such bodies through as garbage text. A stray NUL in an
/// HTML page (a CMS's bug) does not make it binary.
pub(crate) fn looks_binary(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(4096)];
    if head.is_empty() {
        return false;
    }
    let magic = BINARY_MAGIC.iter().any(|m| {
        head.starts_with(m) && (*m != b"BZh" || head.get(3).is_some_and(u8::is_ascii_digit))
    });
    let nuls = head.iter().filter(|&&b| b == 0).count();
    if magic || nuls * 100 > head.len() {
        return true;
    }
    let controls = head
        .iter()
        .filter(|&&b| b < 0x09 || (b > 0x0d && b < 0x20 && b != 0x1b))
        .count();
    controls * 20 > head.len()
}

/// UTF-16 without a BOM: every other byte zero in ASCII-heavy markup.
fn sniff_utf16(bytes: &[u8]) -> Option<&'static Encoding> {
    let head = &bytes[..bytes.len().min(512) & !1];
    if head.len() < 8 {
        return None;
    }
    let even_zero = head.iter().step_by(2).filter(|&&b| b == 0).count();
    let odd_zero = head.iter().skip(1).step_by(2).filter(|&&b| b == 0).count();
    let half = head.len() / 2;
    if odd_zero * 10 > half * 7 && even_zero * 10 < half {
        Some(UTF_16LE)
    } else if even_zero * 10 > half * 7 && odd_zero * 10 < half {
        Some(UTF_16BE)
    } else {
        None
    }
}

/// Decodes page bytes. `declared` is a charset the caller trusts more than the
/// page (HTTP header, `--charset`); `tld` helps detection (e.g. "ru", "cn").
pub(crate) fn decode<'a>(
    bytes: &'a [u8],
    declared: Option<&'static Encoding>,
    tld: Option<&str>,
) -> Result<Decoded<'a>, ExtractError> {
    if bytes.iter().all(|b| b.is_ascii_whitespace()) {
        return Err(ExtractError::Empty);
    }
    let (encoding, source) = if let Some((enc, _)) = Encoding::for_bom(bytes) {
        (enc, "bom")
    } else if let Some(enc) = sniff_utf16(bytes) {
        (enc, "detected")
    } else {
        if looks_binary(bytes) {
            return Err(ExtractError::Binary(
                "compressed, image, NUL or control bytes in the first 4 KiB".into(),
            ));
        }
        match declared
            .map(|e| (e, "declared"))
            .or_else(|| sniff_meta(bytes).map(|e| (e, "meta")))
        {
            // Valid multi-byte UTF-8 under a legacy label (gb2312, EUC-JP,
            // latin-1, …) is UTF-8: legacy text is almost never valid UTF-8
            // by accident, and decoding it with the label garbles every
            // non-ASCII character.
            Some((enc, _)) if enc != UTF_8 && reads_as_utf8(bytes) => (UTF_8, "detected"),
            // A UTF-8 label on bytes that are not UTF-8 is a lie; detect instead.
            Some((enc, src)) if enc != UTF_8 || valid_utf8(bytes) => (enc, src),
            _ => (detect(bytes, tld), "detected"),
        }
    };
    let (text, _, _) = encoding.decode(bytes);
    // Each step copies only what it changes; a page that needs neither is
    // handed on as the bytes it came in.
    let text = through(text, fold_presentation_forms);
    let text = through(text, super::mojibake::repair);
    Ok(Decoded {
        text,
        encoding,
        source,
    })
}

/// `text` after `step`, which copies only what it changes: still borrowed
/// when the step changed nothing.
fn through<'a>(text: Cow<'a, str>, step: impl Fn(&str) -> Cow<'_, str>) -> Cow<'a, str> {
    let changed = match step(&text) {
        Cow::Owned(changed) => Some(changed),
        Cow::Borrowed(_) => None,
    };
    changed.map_or(text, Cow::Owned)
}

/// Valid multi-byte UTF-8 sequences and invalid bytes in `bytes`.
fn utf8_counts(mut bytes: &[u8]) -> (usize, usize) {
    let (mut multi, mut invalid) = (0, 0);
    loop {
        let (valid, rest) = match std::str::from_utf8(bytes) {
            Ok(s) => (s, None),
            Err(e) => {
                let (ok, bad) = bytes.split_at(e.valid_up_to());
                let skip = e.error_len().unwrap_or(bad.len());
                // `ok` is valid UTF-8 by construction.
                (std::str::from_utf8(ok).unwrap_or(""), Some((skip, bad)))
            }
        };
        multi += valid.chars().filter(|c| !c.is_ascii()).count();
        match rest {
            None => return (multi, invalid),
            Some((skip, bad)) => {
                invalid += skip;
                bytes = &bad[skip..];
            }
        }
    }
}

/// Bytes that are UTF-8 with non-ASCII text: valid throughout with at least
/// one multi-byte character, or (a cut body, one bad paste) with few broken
/// bytes among many multi-byte characters.
fn reads_as_utf8(bytes: &[u8]) -> bool {
    let (multi, invalid) = utf8_counts(bytes);
    (multi >= 1 && invalid == 0) || (multi >= 8 && invalid * 20 <= multi)
}

/// Whether a page's bytes are UTF-8 throughout (SIMD: the whole page is
/// checked, which `std::str::from_utf8` did at a third of the speed).
fn valid_utf8(bytes: &[u8]) -> bool {
    simdutf8::basic::from_utf8(bytes).is_ok()
}

fn detect(bytes: &[u8], tld: Option<&str>) -> &'static Encoding {
    if valid_utf8(bytes) {
        return UTF_8;
    }
    // UTF-8 with a few broken bytes (a cut body, one bad paste) is still
    // UTF-8: read as a legacy charset, every other character would break.
    let (multi, invalid) = utf8_counts(bytes);
    if multi >= 8 && invalid * 20 <= multi {
        return UTF_8;
    }
    let mut det = EncodingDetector::new(chardetng::Iso2022JpDetection::Allow);
    det.feed(bytes, true);
    let tld = tld
        .map(|t| t.as_bytes())
        .filter(|t| t.iter().all(u8::is_ascii_lowercase));
    let enc = det.guess(tld, chardetng::Utf8Detection::Allow);
    if enc == UTF_8 || enc == WINDOWS_1252 {
        // Invalid UTF-8 cannot be UTF-8; windows-1252 decodes every byte.
        double_byte(bytes).unwrap_or(WINDOWS_1252)
    } else {
        enc
    }
}

/// Share of non-ASCII bytes that must sit next to another non-ASCII byte for
/// the text to be read as written in a double-byte encoding: Western text in
/// windows-1252 has its accented letters alone between ASCII ones ("für"),
/// Chinese, Japanese and Korean text has nothing but runs of them.
const DOUBLE_BYTE_RUN_SHARE: f64 = 0.9;
/// Fewest non-ASCII bytes for that judgement.
const DOUBLE_BYTE_MIN_BYTES: usize = 64;
/// Most malformed sequences per 1000 non-ASCII bytes a double-byte reading
/// may have.
const DOUBLE_BYTE_MAX_ERRORS_PER_MILLE: usize = 10;

/// The double-byte encoding (GBK, Shift_JIS, EUC-KR, Big5, EUC-JP) that
/// reads `bytes` with (almost) no malformed sequences, for text that is in
/// runs of non-ASCII bytes. chardetng rules an encoding out on a single
/// malformed sequence, so a GBK page with one broken character (a cut
/// multi-byte pair, a stray byte from a paste) and no TLD hint comes back as
/// windows-1252 and every Chinese character turns into two Latin ones.
fn double_byte(bytes: &[u8]) -> Option<&'static Encoding> {
    let non_ascii = bytes.iter().filter(|b| !b.is_ascii()).count();
    if non_ascii < DOUBLE_BYTE_MIN_BYTES {
        return None;
    }
    let in_runs = (0..bytes.len())
        .filter(|&i| {
            !bytes[i].is_ascii()
                && ((i > 0 && !bytes[i - 1].is_ascii())
                    || bytes.get(i + 1).is_some_and(|b| !b.is_ascii()))
        })
        .count();
    if (in_runs as f64) < DOUBLE_BYTE_RUN_SHARE * non_ascii as f64 {
        return None;
    }
    [GBK, SHIFT_JIS, EUC_KR, BIG5, EUC_JP]
        .into_iter()
        .map(|enc| {
            let (text, _) = enc.decode_without_bom_handling(bytes);
            (text.chars().filter(|&c| c == '\u{FFFD}').count(), enc)
        })
        .filter(|(errors, _)| errors * 1000 <= DOUBLE_BYTE_MAX_ERRORS_PER_MILLE * non_ascii)
        .min_by_key(|(errors, _)| *errors)
        .map(|(_, enc)| enc)
}

/// Folds Arabic presentation forms (U+FB50–U+FDFF, U+FE70–U+FEFE) to their
/// base letters with NFKC, leaving all other text untouched.
pub(crate) fn fold_presentation_forms(text: &str) -> Cow<'_, str> {
    let is_form = |c: char| matches!(c, '\u{FB50}'..='\u{FDFF}' | '\u{FE70}'..='\u{FEFE}');
    // Both blocks are three-byte sequences led by EF: a byte search finds
    // them without decoding the text (a page with a stray U+FEFF, EF BB BF,
    // was decoded character by character: 1% of a run).
    let bytes = text.as_bytes();
    if !memchr::memchr_iter(0xEF, bytes).any(|p| form_at(bytes, p)) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if is_form(c) {
            out.extend(std::iter::once(c).nfkc());
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// Whether the three bytes at `p` (a lead byte EF of valid UTF-8) encode
/// an Arabic presentation form: U+FB50–U+FDFF is EF AD 90 to EF B7 BF,
/// U+FE70–U+FEFE is EF B9 B0 to EF BB BE.
fn form_at(bytes: &[u8], p: usize) -> bool {
    let (Some(&b1), Some(&b2)) = (bytes.get(p + 1), bytes.get(p + 2)) else {
        return false;
    };
    match b1 {
        0xAD => b2 >= 0x90,
        0xAE..=0xB7 | 0xBA => true,
        0xB9 => b2 >= 0xB0,
        0xBB => b2 <= 0xBE,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_with_a_few_broken_bytes_is_not_read_as_a_legacy_charset() {
        // Regression: a UTF-8 page with one bad byte, labelled utf-8, was
        // decoded as windows-1252 and all its Chinese text became mojibake.
        let mut page = format!(
            "<meta charset=utf-8><p>{}</p>",
            "这是一个关于网络爬虫的中文页面，内容很长。".repeat(8)
        )
        .into_bytes();
        page.insert(40, 0xff);
        let d = decode(&page, None, None).expect("decodes");
        assert_eq!(d.encoding, UTF_8);
        assert!(d.text.contains("网络爬虫"), "{}", d.text);
        // Real windows-1252 with a UTF-8 label is still detected as such.
        let (latin, _, _) =
            WINDOWS_1252.encode("<meta charset=utf-8><p>déjà vu, garçon, crème brûlée</p>");
        let d = decode(&latin, None, None).expect("decodes");
        assert!(d.text.contains("crème brûlée"), "{}", d.text);
    }
    #[test]
    fn gbk_with_one_broken_pair_and_no_hint_is_still_gbk() {
        // Regression: chardetng rules GBK out on one malformed pair, so an
        // undeclared GBK page with a cut character on a .com host was read
        // as windows-1252 (each Chinese character two Latin ones).
        let text = "当前您在中关村在线论坛，主题：太行山上。感谢楼主分享，下载看看。";
        let html = format!("<p>{}</p>", text.repeat(6));
        let (gbk, _, _) = GBK.encode(&html);
        let mut page = gbk.into_owned();
        // A lead byte cut from its pair, between two whole characters.
        page.insert(21, 0x81);
        page.insert(22, 0x20);
        let d = decode(&page, None, None).expect("decodes");
        assert_eq!(d.encoding, GBK);
        assert!(d.text.contains("中关村在线论坛"), "{}", d.text);
        // Western text keeps its single-byte reading: its accented letters
        // sit alone between ASCII ones.
        let western = "<p>Für Mädchen und Jungen gibt es Größen, Übergänge und Käse.</p>".repeat(8);
        let (latin, _, _) = WINDOWS_1252.encode(&western);
        let d = decode(&latin, None, None).expect("decodes");
        assert_eq!(d.encoding, WINDOWS_1252);
        assert!(d.text.contains("Größen"), "{}", d.text);
    }
    use encoding_rs::{GBK, SHIFT_JIS, WINDOWS_1256};

    fn page(body: &str) -> String {
        format!("<html><body><p>{body}</p></body></html>")
    }

    #[test]
    fn compressed_bodies_are_binary() {
        // Regression (issue 14): a gzip body served as text/html without
        // Content-Encoding was extracted as garbage on some pages.
        use std::io::Write;
        let page = "<html><body><p>A page about tide pools and winter storms.</p></body></html>"
            .repeat(50);
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        gz.write_all(page.as_bytes()).expect("gzip");
        let body = gz.finish().expect("gzip");
        assert!(looks_binary(&body));
        assert!(matches!(
            decode(&body, None, None),
            Err(ExtractError::Binary(_))
        ));
        assert!(!looks_binary(page.as_bytes()));
        assert!(!looks_binary("<p>Grüße, 你好, \u{1b}[0m</p>".as_bytes()));
        // Regression (issue 53): one NUL in an HTML page's first 4 KiB.
        let mut page = format!(
            "<html><body>{}</body></html>",
            "<p>Words of a page.</p>".repeat(100)
        );
        page.insert(300, '\0');
        assert!(!looks_binary(page.as_bytes()));
        let elf: Vec<u8> = (0..4096u32)
            .map(|i| if i % 7 == 0 { 0 } else { b'a' })
            .collect();
        assert!(looks_binary(&elf));
    }

    #[test]
    fn valid_utf8_wins_over_a_legacy_label() {
        // Regression (issue 14): a UTF-8 Chinese page declaring gb2312 was
        // read as GBK and every character came out as mojibake.
        let html = "<meta charset=gb2312><p>今天天气很好，我们去公园散步。</p>";
        let d = decode(html.as_bytes(), None, Some("cn")).expect("decode");
        assert_eq!(d.encoding, UTF_8);
        assert!(d.text.contains("今天天气很好"));
        // The same from the HTTP header.
        let d = decode(html.as_bytes(), Some(encoding_rs::GBK), None).expect("decode");
        assert!(d.text.contains("今天天气很好"));
        // Real GBK keeps its label.
        let (gbk, _, _) = encoding_rs::GBK.encode(html);
        let d = decode(&gbk, None, None).expect("decode");
        assert_eq!(d.encoding, encoding_rs::GBK);
        assert!(d.text.contains("今天天气很好"));
        // ASCII-only pages keep the label too (nothing to tell them apart).
        let d = decode(b"<meta charset=iso-8859-2><p>plain</p>", None, None).expect("decode");
        assert_ne!(d.encoding, UTF_8);
    }

    #[test]
    fn bom_wins_over_meta() {
        let mut bytes = vec![0xEF, 0xBB, 0xBF];
        bytes.extend(b"<meta charset=\"iso-8859-1\"><p>caf\xC3\xA9</p>");
        let d = decode(&bytes, None, None).expect("decodes");
        assert!(d.text.contains("café"));
        assert_eq!(d.source, "bom");
    }

    #[test]
    fn windows_1252_by_meta() {
        let (bytes, _, _) =
            WINDOWS_1252.encode("<meta charset=windows-1252><p>naïve “quotes” €</p>");
        let d = decode(&bytes, None, None).expect("decodes");
        assert!(d.text.contains("naïve “quotes” €"), "{}", d.text);
    }

    #[test]
    fn windows_1256_detected_without_declaration() {
        let text = page(&"مرحبا بكم في موقعنا الإخباري ".repeat(20));
        let (bytes, _, _) = WINDOWS_1256.encode(&text);
        let d = decode(&bytes, None, None).expect("decodes");
        assert_eq!(d.encoding, WINDOWS_1256);
        assert!(d.text.contains("مرحبا"));
    }

    #[test]
    fn gbk_and_shift_jis_detected() {
        let zh = page(&"这是一个中文网页的正文内容，我们需要正确地解码它。".repeat(10));
        let (bytes, _, _) = GBK.encode(&zh);
        assert!(decode(&bytes, None, None)
            .expect("gbk")
            .text
            .contains("中文网页"));
        let ja = page(&"これは日本語のウェブページの本文です。正しく読めるでしょうか。".repeat(10));
        let (bytes, _, _) = SHIFT_JIS.encode(&ja);
        assert!(decode(&bytes, None, None)
            .expect("sjis")
            .text
            .contains("日本語"));
    }

    #[test]
    fn utf16_with_and_without_bom() {
        let text = page("hello wörld");
        let mut le: Vec<u8> = vec![0xFF, 0xFE];
        le.extend(text.encode_utf16().flat_map(|u| u.to_le_bytes()));
        assert!(decode(&le, None, None)
            .expect("le")
            .text
            .contains("hello wörld"));
        let be: Vec<u8> = text.encode_utf16().flat_map(|u| u.to_be_bytes()).collect();
        assert!(decode(&be, None, None)
            .expect("be")
            .text
            .contains("hello wörld"));
    }

    #[test]
    fn lying_meta_utf8_falls_back_to_detection() {
        let (bytes, _, _) = WINDOWS_1252.encode("<meta charset=utf-8><p>déjà vu, garçon</p>");
        let d = decode(&bytes, None, None).expect("decodes");
        assert!(d.text.contains("déjà vu, garçon"), "{}", d.text);
    }

    #[test]
    fn declared_charset_beats_meta() {
        let (bytes, _, _) = WINDOWS_1252.encode("<meta charset=koi8-r><p>café</p>");
        let d = decode(&bytes, Some(WINDOWS_1252), None).expect("decodes");
        assert!(d.text.contains("café"));
    }

    #[test]
    fn binary_and_empty_rejected() {
        let bin: Vec<u8> = (0..4096u32).map(|i| (i * 7 % 256) as u8).collect();
        assert!(matches!(
            decode(&bin, None, None),
            Err(ExtractError::Binary(_))
        ));
        assert!(matches!(
            decode(b"  \n ", None, None),
            Err(ExtractError::Empty)
        ));
    }

    #[test]
    fn the_byte_test_finds_exactly_the_presentation_forms() {
        // Every character UTF-8 writes with a lead byte EF (U+F000–U+FFFF).
        for c in '\u{F000}'..='\u{FFFF}' {
            let mut buf = [0u8; 4];
            let s = c.encode_utf8(&mut buf);
            let form = matches!(c, '\u{FB50}'..='\u{FDFF}' | '\u{FE70}'..='\u{FEFE}');
            assert_eq!(form_at(s.as_bytes(), 0), form, "{:X}", c as u32);
        }
        // A stray byte-order mark is not a form: the text is returned as is.
        assert!(matches!(
            fold_presentation_forms("\u{FEFF}a\u{FF01}"),
            Cow::Borrowed(_)
        ));
    }

    #[test]
    fn arabic_presentation_forms_folded() {
        // "سلام" written with presentation forms.
        let s = "\u{FEB3}\u{FEE0}\u{FE8E}\u{FEE1}";
        assert_eq!(fold_presentation_forms(s), "سلام");
        assert_eq!(fold_presentation_forms("plain"), "plain");
    }

    #[test]
    fn content_type_charset() {
        assert_eq!(
            charset_from_content_type("text/html; charset=\"Shift_JIS\""),
            Some("Shift_JIS")
        );
        assert_eq!(charset_from_content_type("text/html"), None);
    }
}
