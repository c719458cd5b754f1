//! WARC 1.1 records (ISO 28500:2017): headers, blocks, digests, and one
//! gzip member per record, as warcio, pywb and Common Crawl's tools expect.
//!
//! A record is `WARC/1.1`, its named fields, an empty line, the block, and
//! two CRLFs. Digests are `sha1:` plus the SHA-1 in base32 (RFC 4648, no
//! padding needed at 20 bytes): the block digest over the whole block, the
//! payload digest over the HTTP body of a response.

use std::io::Write;
use std::net::IpAddr;

use flate2::write::GzEncoder;
use flate2::{Compress, Compression, FlushCompress, Status};
use sha1::{Digest, Sha1};

/// The record types trawl writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// What the file is and who wrote it.
    Warcinfo,
    /// An HTTP request as sent.
    Request,
    /// An HTTP response as received.
    Response,
    /// Another form of a response's content: a page's DOM after its
    /// scripts ran in a browser (WARC-Refers-To names the response).
    Conversion,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Warcinfo => "warcinfo",
            Kind::Request => "request",
            Kind::Response => "response",
            Kind::Conversion => "conversion",
        }
    }
}

/// One record to write.
#[derive(Debug, Clone)]
pub struct Record<'a> {
    /// Its type.
    pub kind: Kind,
    /// `<urn:uuid:…>`.
    pub id: String,
    /// WARC-Date (`2026-11-25T05:05:04Z`).
    pub date: String,
    /// WARC-Target-URI (not for warcinfo).
    pub target: Option<&'a str>,
    /// WARC-IP-Address of the server.
    pub ip: Option<IpAddr>,
    /// WARC-Concurrent-To: the id of the other half of an exchange.
    pub concurrent_to: Option<&'a str>,
    /// WARC-Refers-To: the record this one was made from (conversions).
    pub refers_to: Option<&'a str>,
    /// WARC-Filename (warcinfo only).
    pub filename: Option<&'a str>,
    /// Content-Type of the block.
    pub content_type: &'a str,
    /// `WARC-Truncated: length` when the body was cut at the size limit.
    pub truncated: bool,
    /// Where the payload starts in the block (responses: after the HTTP
    /// headers), for the payload digest.
    pub payload_at: Option<usize>,
    /// The block.
    pub block: &'a [u8],
}

/// `sha1:` and the base32 SHA-1 of `data`.
pub fn sha1_digest(data: &[u8]) -> String {
    let hash = Sha1::digest(data);
    format!("sha1:{}", base32(&hash))
}

/// RFC 4648 base32 (upper case, `=` padding).
fn base32(data: &[u8]) -> String {
    const ALPHABET: &[u8; 32] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
    let mut out = String::with_capacity(data.len().div_ceil(5) * 8);
    for chunk in data.chunks(5) {
        let mut buf = [0u8; 5];
        buf[..chunk.len()].copy_from_slice(chunk);
        let n = u64::from_be_bytes([0, 0, 0, buf[0], buf[1], buf[2], buf[3], buf[4]]);
        let chars = (chunk.len() * 8).div_ceil(5);
        for i in 0..8 {
            if i < chars {
                let idx = ((n >> (35 - i * 5)) & 31) as usize;
                out.push(ALPHABET[idx] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// A new record id: `<urn:uuid:…>`, a random (version 4) UUID.
pub fn new_id() -> String {
    let mut b = [0u8; 16];
    if getrandom::fill(&mut b).is_err() {
        // No entropy source: time and a counter keep ids unique here.
        use std::sync::atomic::{AtomicU64, Ordering};
        static N: AtomicU64 = AtomicU64::new(0);
        let t = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        b[..8].copy_from_slice(&t.to_be_bytes());
        b[8..].copy_from_slice(&N.fetch_add(1, Ordering::Relaxed).to_be_bytes());
    }
    b[6] = (b[6] & 0x0f) | 0x40;
    b[8] = (b[8] & 0x3f) | 0x80;
    let h =
        |r: std::ops::Range<usize>| -> String { b[r].iter().map(|x| format!("{x:02x}")).collect() };
    format!(
        "<urn:uuid:{}-{}-{}-{}-{}>",
        h(0..4),
        h(4..6),
        h(6..8),
        h(8..10),
        h(10..16)
    )
}

/// The WARC-Date of a moment (seconds since the epoch), UTC.
pub fn warc_date(secs: u64) -> String {
    crate::record::iso_time(secs)
}

impl Record<'_> {
    /// The record, serialized (uncompressed).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut h = String::with_capacity(512);
        h.push_str("WARC/1.1\r\n");
        h.push_str(&format!("WARC-Type: {}\r\n", self.kind.name()));
        h.push_str(&format!("WARC-Record-ID: {}\r\n", self.id));
        h.push_str(&format!("WARC-Date: {}\r\n", self.date));
        if let Some(t) = self.target {
            h.push_str(&format!("WARC-Target-URI: {t}\r\n"));
        }
        if let Some(f) = self.filename {
            h.push_str(&format!("WARC-Filename: {f}\r\n"));
        }
        if let Some(ip) = self.ip {
            h.push_str(&format!("WARC-IP-Address: {ip}\r\n"));
        }
        if let Some(c) = self.concurrent_to {
            h.push_str(&format!("WARC-Concurrent-To: {c}\r\n"));
        }
        if let Some(r) = self.refers_to {
            h.push_str(&format!("WARC-Refers-To: {r}\r\n"));
        }
        h.push_str(&format!(
            "WARC-Block-Digest: {}\r\n",
            sha1_digest(self.block)
        ));
        if let Some(at) = self.payload_at {
            let payload = self.block.get(at..).unwrap_or(&[]);
            h.push_str(&format!(
                "WARC-Payload-Digest: {}\r\n",
                sha1_digest(payload)
            ));
        }
        if self.truncated {
            h.push_str("WARC-Truncated: length\r\n");
        }
        h.push_str(&format!("Content-Type: {}\r\n", self.content_type));
        h.push_str(&format!("Content-Length: {}\r\n\r\n", self.block.len()));
        let mut out = Vec::with_capacity(h.len() + self.block.len() + 4);
        out.extend_from_slice(h.as_bytes());
        out.extend_from_slice(self.block);
        out.extend_from_slice(b"\r\n\r\n");
        out
    }

    /// The record as one gzip member.
    pub fn to_gzip(&self) -> Vec<u8> {
        gzip(&self.to_bytes())
    }
}

/// A gzip member's header (RFC 1952) as flate2's `GzEncoder` writes it at
/// the fast level: no name or time, XFL 4 (fastest), OS unknown.
const GZIP_HEADER: [u8; 10] = [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 4, 0xff];

thread_local! {
    /// One deflate state per thread, reset per member: a new one allocates
    /// and clears some 300 KB, more than a small page's compression costs.
    /// The threads that compress are few (the runtime's workers, the
    /// writer), so are the states kept.
    static DEFLATE: std::cell::RefCell<Option<Compress>> = const { std::cell::RefCell::new(None) };
}

/// `data` as one gzip member (fast compression: the crawl's writer must
/// keep up with its fetchers), deflated by this thread's reused state.
pub fn gzip(data: &[u8]) -> Vec<u8> {
    DEFLATE
        .with(|cell| {
            let mut slot = cell.try_borrow_mut().ok()?;
            let c = slot.get_or_insert_with(|| Compress::new(Compression::fast(), false));
            let member = gzip_with(c, data);
            if member.is_none() {
                *slot = None;
            }
            member
        })
        .unwrap_or_else(|| gzip_anew(data))
}

/// `data` as one gzip member deflated by `c` (reset first); `None` if the
/// compressor failed.
fn gzip_with(c: &mut Compress, data: &[u8]) -> Option<Vec<u8>> {
    c.reset();
    let mut out = Vec::with_capacity(data.len() / 3 + 64);
    out.extend_from_slice(&GZIP_HEADER);
    if !deflate_into(c, data, &mut out) {
        return None;
    }
    let mut crc = flate2::Crc::new();
    crc.update(data);
    out.extend_from_slice(&crc.sum().to_le_bytes());
    // ISIZE: the length modulo 2^32 (RFC 1952).
    out.extend_from_slice(&(data.len() as u32).to_le_bytes());
    Some(out)
}

/// Deflates all of `data` onto `out` and ends the stream; false if the
/// compressor failed (the member is then made anew).
fn deflate_into(c: &mut Compress, data: &[u8], out: &mut Vec<u8>) -> bool {
    let start = c.total_in();
    loop {
        if out.capacity() - out.len() < 4096 {
            out.reserve(out.capacity().max(8192));
        }
        let read = (c.total_in() - start) as usize;
        let rest = data.get(read..).unwrap_or_default();
        match c.compress_vec(rest, out, FlushCompress::Finish) {
            Ok(Status::StreamEnd) => return true,
            Ok(Status::Ok | Status::BufError) => {}
            Err(_) => return false,
        }
    }
}

/// `data` as one gzip member through a new encoder.
fn gzip_anew(data: &[u8]) -> Vec<u8> {
    let mut enc = GzEncoder::new(Vec::with_capacity(data.len() / 3 + 64), Compression::fast());
    // Writing to a Vec cannot fail.
    let _ = enc.write_all(data);
    enc.finish().unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reused_deflate_state_writes_what_a_new_one_writes() {
        let mut noise = 0x2545_f491_4f6c_dd1du64;
        let random: Vec<u8> = (0..300_000)
            .map(|_| {
                noise ^= noise << 13;
                noise ^= noise >> 7;
                noise ^= noise << 17;
                noise as u8
            })
            .collect();
        let text = b"<p>Tide pools and rocky shores.</p>\r\n".repeat(5000);
        let inputs = [&b""[..], b"x", &text, &random, &text[..100]];
        // Twice over, so the second round runs on a state used before.
        let mut members = Vec::new();
        for _ in 0..2 {
            for data in inputs {
                let member = gzip(data);
                let fresh = gzip_with(&mut Compress::new(Compression::fast(), false), data);
                assert_eq!(Some(&member), fresh.as_ref(), "{} bytes", data.len());
                members.extend_from_slice(&member);
            }
        }
        // The members read back one after another, as a WARC file's do.
        let mut back = Vec::new();
        let read = std::io::Read::read_to_end(
            &mut flate2::read::MultiGzDecoder::new(&members[..]),
            &mut back,
        );
        assert!(read.is_ok());
        assert_eq!(back, inputs.concat().repeat(2));
        // Each member is whole: its own header, its length at the end.
        let member = gzip(&text);
        assert_eq!(member[..10], GZIP_HEADER);
        assert_eq!(
            member[member.len() - 4..],
            (text.len() as u32).to_le_bytes()
        );
    }

    #[test]
    fn base32_matches_rfc_4648_vectors() {
        assert_eq!(base32(b""), "");
        assert_eq!(base32(b"f"), "MY======");
        assert_eq!(base32(b"fo"), "MZXQ====");
        assert_eq!(base32(b"foo"), "MZXW6===");
        assert_eq!(base32(b"foob"), "MZXW6YQ=");
        assert_eq!(base32(b"fooba"), "MZXW6YTB");
        assert_eq!(base32(b"foobar"), "MZXW6YTBOI======");
    }

    #[test]
    fn a_sha1_digest_is_32_base32_characters() {
        // SHA-1 of the empty string, as warcio writes it.
        assert_eq!(sha1_digest(b""), "sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ");
    }

    #[test]
    fn ids_are_version_4_uuids() {
        let id = new_id();
        assert!(id.starts_with("<urn:uuid:") && id.ends_with('>'), "{id}");
        assert_eq!(&id[24..25], "4", "{id}");
        assert_ne!(new_id(), id);
    }

    #[test]
    fn a_record_declares_its_block_length_and_ends_with_two_crlfs() {
        let r = Record {
            kind: Kind::Response,
            id: new_id(),
            date: warc_date(0),
            target: Some("http://a.test/"),
            ip: Some("127.0.0.2".parse().unwrap()),
            concurrent_to: None,
            refers_to: None,
            filename: None,
            content_type: "application/http; msgtype=response",
            truncated: true,
            payload_at: Some(19),
            block: b"HTTP/1.1 200 OK\r\n\r\nhello",
        };
        let b = r.to_bytes();
        let text = String::from_utf8_lossy(&b);
        assert!(
            text.contains("Content-Length: 24\r\n\r\nHTTP/1.1 200 OK"),
            "{text}"
        );
        assert!(text.contains("WARC-Truncated: length"), "{text}");
        assert!(text.contains(&format!("WARC-Payload-Digest: {}", sha1_digest(b"hello"))));
        assert!(b.ends_with(b"hello\r\n\r\n"));
    }
}
