//! Archives of fetched pages: WARC files (ISO 28500; trawl's own, wget's,
//! Heritrix's, Common Crawl's) read as a stream of records, and the HTML
//! responses among them as pages ready to extract, each with its URL and the
//! charset its Content-Type names. It lives in the extractor crate so that
//! every program extracting archived pages (the `trawl extract` command,
//! the crawl's `reextract`, the Python package) reads them one way, with no
//! network or storage code; writing WARC files is the crawler's business.

mod warc;

use std::io::Read;

pub use warc::{http_parts, HttpParts, Reader, WarcError, WarcRecord, MAX_RECORD_BYTES};

use crate::html::charset::Charset;

/// One HTML page of an archive: a `response` record with a 2xx status whose
/// Content-Type says HTML (or says nothing and whose body starts like
/// markup).
#[derive(Debug, Clone)]
pub struct ArchivedPage {
    /// `WARC-Target-URI`.
    pub url: Option<String>,
    /// The HTTP status.
    pub status: u16,
    /// The HTTP response's header fields, in order.
    pub headers: Vec<(String, String)>,
    /// The charset the Content-Type names, if any.
    pub charset: Option<Charset>,
    /// The response body (a gzip body some writers keep is inflated).
    pub body: Vec<u8>,
    /// `WARC-Record-ID`.
    pub record_id: Option<String>,
    /// Where the record starts in the file.
    pub offset: u64,
}

/// Whether an archived response is an HTML page: its Content-Type says
/// HTML (`text/html`, `application/xhtml+xml`), or it says nothing and the
/// body starts like markup. A robots.txt (`text/plain`), a feed or an image
/// is not a page (an archive of exchanges holds every robots.txt too).
fn is_html_response(ct: Option<&str>, body: &[u8]) -> bool {
    match ct.map(str::trim).filter(|c| !c.is_empty()) {
        Some(c) => c.to_ascii_lowercase().contains("html"),
        None => {
            let start = body
                .iter()
                .position(|b| !b.is_ascii_whitespace())
                .map_or(&[][..], |i| &body[i..]);
            let start = start.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(start);
            start.first() == Some(&b'<')
        }
    }
}

/// The page a record holds (`None`: not an HTML response).
pub fn archived_page(rec: WarcRecord) -> Option<ArchivedPage> {
    if rec.kind() != "response" {
        return None;
    }
    let http = http_parts(&rec.block)?;
    if !(200..=299).contains(&http.status) {
        return None;
    }
    let url = rec.target().map(str::to_string);
    let record_id = rec.header("WARC-Record-ID").map(str::to_string);
    let mut body = rec.block;
    body.drain(..http.body_at.min(body.len()));
    // A body kept with its Content-Encoding (some writers): inflated here.
    if body.starts_with(&[0x1f, 0x8b]) {
        let mut out = Vec::new();
        if flate2::read::MultiGzDecoder::new(&body[..])
            .take(MAX_RECORD_BYTES)
            .read_to_end(&mut out)
            .is_ok()
        {
            body = out;
        }
    }
    let ct = http.header("content-type");
    if !is_html_response(ct, &body) {
        return None;
    }
    Some(ArchivedPage {
        url,
        status: http.status,
        charset: ct.and_then(Charset::from_content_type),
        headers: http.headers,
        body,
        record_id,
        offset: rec.offset,
    })
}

/// The records of a WARC file read as pages, in order: `Ok(None)` for a
/// record that is not an HTML response (a request, a robots.txt, an image),
/// `Err` for a record that could not be read (reading goes on after it).
///
/// ```
/// let warc = b"WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: http://a.test/\r\n\
///     Content-Length: 49\r\n\r\nHTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<p>Hi\r\n\r\n";
/// let pages: Vec<_> = trawl_extract::warc_pages(&warc[..]).flatten().flatten().collect();
/// assert_eq!(pages[0].url.as_deref(), Some("http://a.test/"));
/// assert_eq!(pages[0].body, b"<p>Hi");
/// ```
pub fn warc_pages<R: Read>(
    file: R,
) -> impl Iterator<Item = Result<Option<ArchivedPage>, WarcError>> {
    Reader::new(file).map(|r| r.map(archived_page))
}

#[cfg(test)]
mod tests;
