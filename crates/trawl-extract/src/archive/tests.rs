//! Reading WARC records and pages back, from files built here by hand (the
//! crawler's writer has its own round-trip tests in trawl-crawl).

use std::io::Write;

use super::*;

/// A response record holding `http` (an HTTP message).
fn record(target: &str, http: &str) -> Vec<u8> {
    format!(
        "WARC/1.1\r\nWARC-Type: response\r\nWARC-Record-ID: <urn:uuid:{target}>\r\n\
         WARC-Target-URI: {target}\r\nContent-Type: application/http; msgtype=response\r\n\
         Content-Length: {}\r\n\r\n{http}\r\n\r\n",
        http.len()
    )
    .into_bytes()
}

fn rec(target: &str, body: &str) -> Vec<u8> {
    record(
        target,
        &format!("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n{body}"),
    )
}

fn gzip(data: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    e.write_all(data).expect("gzip");
    e.finish().expect("gzip")
}

#[test]
fn gzip_members_are_read_with_their_offsets_and_a_damaged_one_is_skipped() {
    let a = gzip(&rec("http://a.test/", "one"));
    let mut b = gzip(&rec("http://b.test/", "two"));
    let c = gzip(&rec("http://c.test/", "three"));
    let len = b.len();
    b[len / 2] ^= 0xff; // garble the middle member
    let file = [a.clone(), b.clone(), c].concat();
    let out: Vec<_> = Reader::new(&file[..]).collect();
    assert_eq!(out.len(), 3, "{out:?}");
    let first = out[0].as_ref().expect("first");
    assert_eq!((first.offset, first.target()), (0, Some("http://a.test/")));
    let e = out[1].as_ref().expect_err("garbled");
    assert_eq!(e.offset, a.len() as u64);
    let third = out[2].as_ref().expect("third");
    assert_eq!(third.target(), Some("http://c.test/"));
    assert_eq!(third.offset, (a.len() + b.len()) as u64);
    let http = http_parts(&third.block).expect("http");
    assert_eq!(
        (http.status, &third.block[http.body_at..]),
        (200, &b"three"[..])
    );
    assert_eq!(http.header("content-type"), Some("text/html"));
}

#[test]
fn plain_files_read_too_and_a_bad_record_does_not_stop_the_rest() {
    let mut file = rec("http://a.test/", "one");
    file.extend_from_slice(b"garbage line\r\n\r\n");
    file.extend_from_slice(&rec("http://b.test/", "two"));
    let out: Vec<_> = Reader::new(&file[..]).collect();
    let targets: Vec<_> = out
        .iter()
        .filter_map(|r| r.as_ref().ok())
        .map(|r| r.target().unwrap_or(""))
        .collect();
    assert_eq!(targets, ["http://a.test/", "http://b.test/"], "{out:?}");
    assert!(out.iter().any(|r| r.is_err()));
}

/// Regression (issue 53): a WARC gzipped as one stream yielded its first
/// record only ("0 pages extracted" when that was a warcinfo).
#[test]
fn a_file_gzipped_as_one_stream_yields_every_record() {
    let plain = [
        rec("http://a.test/", "one"),
        rec("http://b.test/", "two"),
        rec("http://c.test/", "three"),
    ]
    .concat();
    let file = gzip(&plain);
    let out: Vec<_> = Reader::new(&file[..]).collect();
    let targets: Vec<_> = out
        .iter()
        .map(|r| {
            r.as_ref()
                .map(|r| r.target().unwrap_or(""))
                .unwrap_or("error")
        })
        .collect();
    assert_eq!(
        targets,
        ["http://a.test/", "http://b.test/", "http://c.test/"],
        "{out:?}"
    );
}

/// Regression (issue 53): robots.txt responses (`text/plain`) of a
/// crawl's WARC were extracted as pages.
#[test]
fn only_html_responses_are_pages() {
    assert!(is_html_response(Some("text/html; charset=utf-8"), b"x"));
    assert!(is_html_response(Some("application/xhtml+xml"), b"x"));
    assert!(!is_html_response(Some("text/plain"), b"User-agent: *"));
    assert!(!is_html_response(Some("application/rss+xml"), b"<rss>"));
    assert!(is_html_response(None, b"\n  <!doctype html><p>x"));
    assert!(!is_html_response(None, b"User-agent: *"));
}

#[test]
fn pages_carry_url_charset_headers_and_skip_what_is_not_a_page() {
    let file = [
        record(
            "http://a.test/",
            "HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=windows-1252\r\n\
             X-Seen: yes\r\n\r\n<p>caf\u{e9}",
        ),
        record(
            "http://a.test/robots.txt",
            "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nUser-agent: *",
        ),
        record(
            "http://a.test/gone",
            "HTTP/1.1 404 Not Found\r\nContent-Type: text/html\r\n\r\n<p>gone",
        ),
    ]
    .concat();
    let out: Vec<_> = warc_pages(&file[..]).collect();
    assert_eq!(out.len(), 3);
    let page = out[0].as_ref().expect("read").as_ref().expect("a page");
    assert_eq!(page.url.as_deref(), Some("http://a.test/"));
    assert_eq!(page.status, 200);
    assert_eq!(page.record_id.as_deref(), Some("<urn:uuid:http://a.test/>"));
    assert_eq!(page.offset, 0);
    assert_eq!(page.body, "<p>caf\u{e9}".as_bytes());
    assert_eq!(
        page.charset.map(|c| c.name()),
        Some("windows-1252"),
        "the Content-Type's charset"
    );
    assert!(page
        .headers
        .iter()
        .any(|(k, v)| k == "X-Seen" && v == "yes"));
    assert!(matches!(out[1], Ok(None)), "robots.txt is not a page");
    assert!(matches!(out[2], Ok(None)), "a 404 is not a page");
}

#[test]
fn a_gzip_body_kept_with_its_encoding_is_inflated() {
    let body = gzip(b"<p>packed");
    let mut http =
        b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Encoding: gzip\r\n\r\n".to_vec();
    http.extend_from_slice(&body);
    let mut file = format!(
        "WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: http://z.test/\r\n\
         Content-Length: {}\r\n\r\n",
        http.len()
    )
    .into_bytes();
    file.extend_from_slice(&http);
    file.extend_from_slice(b"\r\n\r\n");
    let pages: Vec<_> = warc_pages(&file[..]).flatten().flatten().collect();
    assert_eq!(pages.len(), 1);
    assert_eq!(pages[0].body, b"<p>packed");
}
