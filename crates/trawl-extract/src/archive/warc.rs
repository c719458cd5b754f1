//! Reading WARC files, plain or gzip (one member per record, as written by
//! trawl, wget, Heritrix and Common Crawl), as a stream: one record in
//! memory at a time, whatever the file's size. A garbled record is an
//! error naming its offset; reading goes on at the next record.
//!
//! A file gzipped as one stream (some tools write it so) holds many records
//! in one member: they are all read, each given the member's offset, when
//! the member is at most [`MAX_RECORD_BYTES`] unpacked; a larger one is an
//! error saying so, never a silent stop after the first record.

use std::io::{BufRead, BufReader, Read};

use flate2::bufread::GzDecoder;

/// The largest record read (a bigger one is skipped with an error).
pub const MAX_RECORD_BYTES: u64 = 256 << 20;

/// One record read back.
#[derive(Debug, Clone)]
pub struct WarcRecord {
    /// Where it starts in the file (the gzip member's first byte).
    pub offset: u64,
    /// Its named fields, in order.
    pub headers: Vec<(String, String)>,
    /// Its block.
    pub block: Vec<u8>,
}

impl WarcRecord {
    /// A named field (case-insensitive).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    /// `WARC-Type`.
    pub fn kind(&self) -> &str {
        self.header("WARC-Type").unwrap_or("")
    }

    /// `WARC-Target-URI` (some writers wrap it in `<>`).
    pub fn target(&self) -> Option<&str> {
        self.header("WARC-Target-URI")
            .map(|t| t.trim_start_matches('<').trim_end_matches('>'))
    }
}

/// A record that could not be read.
#[derive(Debug, thiserror::Error)]
#[error("offset {offset}: {message}")]
pub struct WarcError {
    /// Where in the file.
    pub offset: u64,
    /// What is wrong.
    pub message: String,
}

/// Counts the bytes read from the file (member offsets).
struct Counting<R> {
    inner: R,
    n: u64,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let k = self.inner.read(buf)?;
        self.n += k as u64;
        Ok(k)
    }
}

/// The records of a file, in order.
pub struct Reader<R: Read> {
    src: BufReader<Counting<R>>,
    gzip: Option<bool>,
    done: bool,
    /// The `WARC/` line found when skipping a garbled record.
    pending: Option<(u64, Vec<u8>)>,
    /// Records after the first of a gzip member that held several.
    queued: std::collections::VecDeque<Result<WarcRecord, WarcError>>,
}

impl<R: Read> Reader<R> {
    /// Reads `inner` (gzip or not is told from its first bytes).
    pub fn new(inner: R) -> Reader<R> {
        Reader {
            src: BufReader::with_capacity(1 << 16, Counting { inner, n: 0 }),
            gzip: None,
            done: false,
            pending: None,
            queued: std::collections::VecDeque::new(),
        }
    }

    fn pos(&self) -> u64 {
        self.src.get_ref().n - self.src.buffer().len() as u64
    }

    /// Skips to the next gzip member header after a damaged member that
    /// started at `from`.
    fn resync_gzip(&mut self, from: u64) -> std::io::Result<bool> {
        // At least one byte past the damaged member's start.
        let mut skip = usize::from(self.pos() <= from);
        loop {
            let buf = self.src.fill_buf()?;
            if buf.len() <= skip {
                return Ok(false);
            }
            if let Some(i) = buf[skip..].windows(3).position(|w| w == [0x1f, 0x8b, 0x08]) {
                self.src.consume(skip + i);
                return Ok(true);
            }
            // Keep the last two bytes: a header may straddle the buffer.
            let keep = buf.len().saturating_sub(2).max(skip);
            self.src.consume(keep);
            skip = 0;
        }
    }

    fn next_gzip(&mut self) -> Option<Result<WarcRecord, WarcError>> {
        let offset = self.pos();
        match self.src.fill_buf() {
            Ok([]) => return None,
            Ok(_) => {}
            Err(e) => {
                self.done = true;
                return Some(Err(WarcError {
                    offset,
                    message: e.to_string(),
                }));
            }
        }
        let mut data = Vec::new();
        let read = GzDecoder::new(&mut self.src)
            .take(MAX_RECORD_BYTES)
            .read_to_end(&mut data);
        if let Err(e) = read {
            if !matches!(self.resync_gzip(offset), Ok(true)) {
                self.done = true;
            }
            return Some(Err(WarcError {
                offset,
                message: format!("damaged gzip member: {e}"),
            }));
        }
        let mut rest = &data[..];
        let first = parse(&mut rest, offset).and_then(|r| {
            r.ok_or_else(|| WarcError {
                offset,
                message: "empty gzip member".into(),
            })
        });
        if first.is_ok() && rest.iter().any(|b| !b.is_ascii_whitespace()) {
            if data.len() as u64 >= MAX_RECORD_BYTES {
                self.done = true;
                return Some(Err(WarcError {
                    offset,
                    message: format!(
                        "the file is gzipped as one stream of more than {MAX_RECORD_BYTES} bytes, \
                         not one gzip member per record; recompress it \
                         (`warcio recompress IN OUT`) or gunzip it first"
                    ),
                }));
            }
            // One stream of many records: the rest of them, in order.
            loop {
                while rest.first().is_some_and(|b| b.is_ascii_whitespace()) {
                    rest = &rest[1..];
                }
                match parse(&mut rest, offset) {
                    Ok(Some(r)) => self.queued.push_back(Ok(r)),
                    Ok(None) => break,
                    Err(e) => {
                        self.queued.push_back(Err(e));
                        break;
                    }
                }
            }
        }
        Some(first)
    }

    fn next_plain(&mut self) -> Option<Result<WarcRecord, WarcError>> {
        let parsed = if let Some((at, line)) = self.pending.take() {
            let mut rest = std::io::Cursor::new(line).chain(&mut self.src);
            (at, parse(&mut rest, at))
        } else {
            // Blank lines between records.
            loop {
                match self.src.fill_buf() {
                    Ok([]) => return None,
                    Ok(b) if b[0] == b'\r' || b[0] == b'\n' => self.src.consume(1),
                    Ok(_) => break,
                    Err(e) => {
                        self.done = true;
                        return Some(Err(WarcError {
                            offset: self.pos(),
                            message: e.to_string(),
                        }));
                    }
                }
            }
            let at = self.pos();
            (at, parse(&mut self.src, at))
        };
        match parsed.1 {
            Ok(Some(r)) => Some(Ok(r)),
            Ok(None) => None,
            Err(e) => {
                // Resynchronise on the next `WARC/` line, read next time.
                let mut line = Vec::new();
                loop {
                    line.clear();
                    match self.src.read_until(b'\n', &mut line) {
                        Ok(0) | Err(_) => {
                            self.done = true;
                            break;
                        }
                        Ok(n) if line.starts_with(b"WARC/") => {
                            let at = self.pos() - n as u64;
                            self.pending = Some((at, line));
                            break;
                        }
                        Ok(_) => {}
                    }
                }
                Some(Err(e))
            }
        }
    }
}

impl<R: Read> Iterator for Reader<R> {
    type Item = Result<WarcRecord, WarcError>;

    fn next(&mut self) -> Option<Self::Item> {
        if let Some(r) = self.queued.pop_front() {
            return Some(r);
        }
        if self.done {
            return None;
        }
        let gzip = match self.gzip {
            Some(g) => g,
            None => {
                let g = matches!(self.src.fill_buf(), Ok(b) if b.starts_with(&[0x1f, 0x8b]));
                self.gzip = Some(g);
                g
            }
        };
        if gzip {
            self.next_gzip()
        } else {
            self.next_plain()
        }
    }
}

/// Reads one record (`None` at the end of the input).
fn parse(r: &mut impl BufRead, offset: u64) -> Result<Option<WarcRecord>, WarcError> {
    let err = |m: String| WarcError { offset, message: m };
    let mut line = Vec::new();
    let n = r
        .read_until(b'\n', &mut line)
        .map_err(|e| err(e.to_string()))?;
    if n == 0 {
        return Ok(None);
    }
    if !line.starts_with(b"WARC/") {
        return Err(err(format!(
            "not a WARC record (starts with {:?})",
            String::from_utf8_lossy(&line[..line.len().min(20)])
        )));
    }
    let mut headers = Vec::new();
    loop {
        line.clear();
        let n = r
            .read_until(b'\n', &mut line)
            .map_err(|e| err(e.to_string()))?;
        if n == 0 {
            return Err(err("the record's headers end early".into()));
        }
        let text = String::from_utf8_lossy(&line);
        let text = text.trim_end_matches(['\r', '\n']);
        if text.is_empty() {
            break;
        }
        if let Some((k, v)) = text.split_once(':') {
            headers.push((k.trim().to_string(), v.trim().to_string()));
        } else if let Some(last) = headers.last_mut() {
            // A folded continuation line.
            last.1.push(' ');
            last.1.push_str(text.trim());
        }
    }
    let len: u64 = headers
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case("Content-Length"))
        .and_then(|(_, v)| v.parse().ok())
        .ok_or_else(|| err("no Content-Length".into()))?;
    if len > MAX_RECORD_BYTES {
        return Err(err(format!("a block of {len} bytes is over the limit")));
    }
    let mut block = Vec::with_capacity(len as usize);
    r.take(len)
        .read_to_end(&mut block)
        .map_err(|e| err(e.to_string()))?;
    if (block.len() as u64) < len {
        return Err(err(format!(
            "the block ends after {} of its {len} bytes",
            block.len()
        )));
    }
    // The two CRLFs after the block (tolerant of bare LFs).
    for _ in 0..2 {
        let mut crlf = Vec::new();
        let _ = r.read_until(b'\n', &mut crlf);
    }
    Ok(Some(WarcRecord {
        offset,
        headers,
        block,
    }))
}

/// An HTTP message in a record's block.
#[derive(Debug, Clone, PartialEq)]
pub struct HttpParts {
    /// The status code (0 for a request).
    pub status: u16,
    /// Its header fields, in order.
    pub headers: Vec<(String, String)>,
    /// Where its body starts in the block.
    pub body_at: usize,
}

impl HttpParts {
    /// A header field (case-insensitive).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

/// The HTTP message in a record's block (`None`: not one).
pub fn http_parts(block: &[u8]) -> Option<HttpParts> {
    let end = block
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .map(|i| i + 4)
        .or_else(|| block.windows(2).position(|w| w == b"\n\n").map(|i| i + 2))?;
    let head = String::from_utf8_lossy(&block[..end]);
    let mut lines = head.lines();
    let first = lines.next()?;
    let status = if first.starts_with("HTTP/") {
        first.split_whitespace().nth(1)?.parse().ok()?
    } else {
        0
    };
    let headers = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
        .collect();
    Some(HttpParts {
        status,
        headers,
        body_at: end,
    })
}
