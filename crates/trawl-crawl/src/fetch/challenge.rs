//! Challenge and block pages ("Just a moment…", "Access denied", "verify
//! you are human", captchas) are not the page asked for: storing them as
//! content is the complaint crawl4ai's users make most. A response is one
//! when a bot-defence service says so in its header fields, or when a page
//! with next to no text carries a challenge's machinery (a challenge
//! platform's script, a captcha widget) or a block page's title. Families
//! are told by structure and headers, not by one vendor's wording alone;
//! the crawl then holds the host with backoff and stores no record.

/// Text a block page has at most (visible characters): a real page that
/// merely loads a bot-defence script has far more.
const TINY_TEXT: usize = 600;
/// Bytes of the body looked at.
const LOOK: usize = 256 << 10;
/// Block pages are small (Akamai's 400 bytes, a Cloudflare challenge some
/// 30 KB): a larger body is a page, whatever little text it shows before
/// its scripts run (an app shell).
const BLOCK_PAGE_BYTES: usize = 128 << 10;

/// Header fields bot-defence services answer a challenge or a block with:
/// (field, value it contains or "" for any, family, only on an error status).
const HEADER_SIGNS: [(&str, &str, &str, bool); 5] = [
    ("cf-mitigated", "challenge", "Cloudflare challenge", false),
    ("x-datadome", "", "DataDome", true),
    ("x-amzn-waf-action", "", "AWS WAF", false),
    ("x-sucuri-block", "", "Sucuri firewall", false),
    ("x-iinfo", "", "Imperva", true),
];

/// Pieces of a challenge's machinery in the markup: (marker, family).
const MACHINERY: [(&str, &str); 12] = [
    // The challenge's own script and options (not the bot-management
    // script `/cdn-cgi/challenge-platform/scripts/jsd/` real pages load,
    // nor the Turnstile widget a login form loads).
    ("/cdn-cgi/challenge-platform/h/", "Cloudflare challenge"),
    ("cf_chl_opt", "Cloudflare challenge"),
    ("captcha-delivery.com", "DataDome"),
    ("px-captcha", "PerimeterX"),
    ("_incapsula_resource", "Imperva"),
    ("awswaf", "AWS WAF"),
    ("errors.edgesuite.net", "Akamai"),
    ("perfdrive.com", "Radware bot manager"),
    ("class=\"g-recaptcha", "captcha"),
    ("class=\"h-captcha", "captcha"),
    ("class=\"cf-turnstile", "captcha"),
    ("sucuri website firewall", "Sucuri firewall"),
];

/// Titles of block and challenge pages, lower case.
const TITLES: [&str; 12] = [
    "just a moment",
    "attention required",
    "access denied",
    "verify you are human",
    "are you a robot",
    "are you human",
    "security check",
    "checking your browser",
    "pardon our interruption",
    "request blocked",
    "bot verification",
    "you have been blocked",
];

/// Why a response is a challenge or block page (its family, in words), or
/// `None`. `header` gives a header field's values.
pub fn challenge(status: u16, header: impl Fn(&str) -> Vec<String>, body: &[u8]) -> Option<String> {
    let error = matches!(status, 401 | 403 | 405 | 429 | 503);
    for (name, contains, family, on_error) in HEADER_SIGNS {
        if on_error && !error {
            continue;
        }
        let hit = header(name)
            .iter()
            .any(|v| contains.is_empty() || v.to_ascii_lowercase().contains(contains));
        if hit {
            return Some(format!("{family} ({name} header, HTTP {status})"));
        }
    }
    // Every page is asked: a real one leaves here without a copy.
    if !error && body.len() > BLOCK_PAGE_BYTES {
        return None;
    }
    let head = &body[..body.len().min(LOOK)];
    let text = visible_chars(head);
    let tiny = text < TINY_TEXT && body.len() <= BLOCK_PAGE_BYTES;
    if !tiny && !error {
        return None;
    }
    let lower = String::from_utf8_lossy(head).to_ascii_lowercase();
    if let Some((marker, family)) = MACHINERY.iter().find(|(m, _)| lower.contains(m)) {
        if tiny {
            return Some(format!(
                "{family} (its markup, {marker:?}; {text} characters of text; HTTP {status})"
            ));
        }
    }
    let title = title_of(&lower);
    if tiny {
        if let Some(t) = TITLES.iter().find(|t| title.contains(*t)) {
            return Some(format!(
                "block page (title {t:?}; {text} characters of text; HTTP {status})"
            ));
        }
    }
    None
}

/// The text of the first `<title>` (lower case already).
fn title_of(lower: &str) -> &str {
    let Some(start) = lower.find("<title") else {
        return "";
    };
    let rest = &lower[start..];
    let Some(open) = rest.find('>') else {
        return "";
    };
    let rest = &rest[open + 1..];
    &rest[..rest.find("</title").unwrap_or(rest.len().min(300))]
}

/// Characters of visible text: outside tags, scripts, styles and the
/// head's title, whitespace runs as one (UTF-8 read as bytes: a character
/// is a byte that does not continue one). Counting stops past [`TINY_TEXT`].
fn visible_chars(html: &[u8]) -> usize {
    let starts = |at: &[u8], p: &[u8]| at.len() >= p.len() && at[..p.len()].eq_ignore_ascii_case(p);
    let find = |hay: &[u8], p: &[u8]| hay.windows(p.len()).position(|w| w.eq_ignore_ascii_case(p));
    let mut n = 0;
    let mut rest = html;
    let mut space = true;
    while let Some(&c) = rest.first() {
        if n > TINY_TEXT {
            break;
        }
        if c == b'<' {
            let skipped = [&b"script"[..], b"style", b"title", b"noscript"]
                .into_iter()
                .find(|t| starts(&rest[1..], t));
            let end = match skipped {
                Some(t) => find(rest, &[b"</", t].concat()).map(|i| i + t.len() + 2),
                None => Some(0),
            };
            let after =
                end.and_then(|e| rest[e..].iter().position(|&b| b == b'>').map(|g| e + g + 1));
            match after {
                Some(a) => rest = &rest[a..],
                None => break,
            }
            continue;
        }
        if c.is_ascii_whitespace() {
            if !space {
                n += 1;
                space = true;
            }
        } else if c & 0xC0 != 0x80 {
            n += 1;
            space = false;
        }
        rest = &rest[1..];
    }
    n
}

#[cfg(test)]
mod tests {
    use super::*;

    fn none(_: &str) -> Vec<String> {
        Vec::new()
    }

    #[test]
    fn families_are_told_by_headers_and_structure() {
        let cf = br#"<!DOCTYPE html><html><head><title>Just a moment...</title></head><body><div id="challenge-running">Checking your browser</div><script>window._cf_chl_opt={cvId: '3'};</script><script src="/cdn-cgi/challenge-platform/h/g/orchestrate/jsch/v1"></script></body></html>"#;
        let h = |n: &str| {
            if n == "cf-mitigated" {
                vec!["challenge".to_string()]
            } else {
                vec![]
            }
        };
        assert!(challenge(403, h, cf).is_some_and(|w| w.contains("Cloudflare")));
        assert!(challenge(200, none, cf).is_some_and(|w| w.contains("Cloudflare")));
        let dd = br#"<html><head><title>example.com</title></head><body><iframe src="https://geo.captcha-delivery.com/captcha/?initialCid=x"></iframe></body></html>"#;
        assert!(challenge(403, none, dd).is_some_and(|w| w.contains("DataDome")));
        let px = br#"<html><head><title>Access to this page has been denied</title></head><body><div id="px-captcha"></div><p>Press &amp; Hold to confirm you are a human (and not a bot).</p></body></html>"#;
        assert!(challenge(200, none, px).is_some_and(|w| w.contains("PerimeterX")));
        let akamai = b"<HTML><HEAD>\n<TITLE>Access Denied</TITLE>\n</HEAD><BODY>\n<H1>Access Denied</H1>\n \nYou don't have permission to access \"http&#58;&#47;&#47;www&#46;example&#46;com&#47;\" on this server.<P>\nReference&#32;&#35;18&#46;a1b2&#46;1700000000&#46;deadbeef\n<P>https&#58;&#47;&#47;errors&#46;edgesuite&#46;net&#47;18&#46;a1b2</P>\n</BODY>\n</HTML>\n";
        assert!(challenge(403, none, akamai).is_some_and(|w| w.contains("block page")));
        let recaptcha = br#"<html><head><title>Please verify</title><script src="https://www.google.com/recaptcha/api.js"></script></head><body><form><div class="g-recaptcha" data-sitekey="x"></div></form></body></html>"#;
        assert!(challenge(200, none, recaptcha).is_some_and(|w| w.contains("captcha")));
        let waf = |n: &str| {
            if n == "x-amzn-waf-action" {
                vec!["captcha".to_string()]
            } else {
                vec![]
            }
        };
        assert!(challenge(405, waf, b"").is_some());
    }

    #[test]
    fn real_pages_with_a_defence_script_are_pages() {
        let prose = "<p>The ferry across the sound was replaced in the spring by a wider boat with room for forty cars, and the timetable moved to every half hour.</p>".repeat(8);
        let page = format!(
            "<html><head><title>Ferry news</title><script src=\"/cdn-cgi/challenge-platform/scripts/jsd/main.js\"></script></head><body><article>{prose}</article><form><div class=\"g-recaptcha\"></div></form></body></html>"
        );
        assert_eq!(challenge(200, none, page.as_bytes()), None);
        let login = "<html><head><title>Access denied - please sign in</title></head><body><main><h1>Members only</h1><p>This article is for members.</p></main></body></html>";
        // A short 200 page titled so is a block page (there is no content).
        assert!(challenge(200, none, login.as_bytes()).is_some());
        // A plain 404 is not one.
        assert_eq!(
            challenge(404, none, b"<title>Not found</title><p>No such page</p>"),
            None
        );
        let dd = |n: &str| {
            if n == "x-datadome" {
                vec!["protected".to_string()]
            } else {
                vec![]
            }
        };
        assert_eq!(
            challenge(200, dd, page.as_bytes()),
            None,
            "x-datadome on a 200 is every page"
        );
    }
}
