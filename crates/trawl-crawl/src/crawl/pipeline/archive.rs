//! The crawl's WARC archive: every HTTP exchange the fetch stage makes
//! (pages, each redirect hop, robots.txt, sitemaps) becomes a `request`
//! and a `response` record as soon as its answer is in, built and
//! compressed where it was fetched; the writer thread appends what is
//! waiting and makes it durable before it commits the pages it belongs to,
//! and puts the location of each page's response in its record.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::Mutex;

use crate::fetch::Response;
use crate::record::now_secs;
use crate::warc::record::{new_id, warc_date, Kind, Record};
use crate::warc::{Location, WarcWriter};

/// One exchange waiting for the writer.
struct Pending {
    id: u64,
    /// The request's and the response's gzip members.
    bytes: Vec<u8>,
    /// Where the response's member starts in `bytes`.
    response_at: u64,
}

/// The run's archive: exchanges waiting, and the files they go to.
pub(in crate::crawl) struct Archive {
    pending: Mutex<Vec<Pending>>,
    next: AtomicU64,
    files: Mutex<Files>,
}

struct Files {
    writer: WarcWriter,
    /// Where archived responses went, until their page's completion asks.
    placed: HashMap<u64, Location>,
}

/// Exchanges placed but never asked for (robots.txt, redirect hops) are
/// forgotten after this many newer ones.
const KEEP_PLACED: u64 = 100_000;

impl Archive {
    /// An archive writing through `writer`.
    pub(in crate::crawl) fn new(writer: WarcWriter) -> Archive {
        Archive {
            pending: Mutex::new(Vec::new()),
            next: AtomicU64::new(1),
            files: Mutex::new(Files {
                writer,
                placed: HashMap::new(),
            }),
        }
    }

    /// Builds the records of one exchange with `url`; returns its number
    /// and the response record's WARC-Record-ID. Transport errors (no
    /// answer) leave no record.
    pub(in crate::crawl) fn exchange(&self, url: &str, r: &Response) -> Option<(u64, String)> {
        if r.is_transport_error() || r.head.is_empty() {
            return None;
        }
        let date = warc_date(now_secs());
        let response_id = new_id();
        let request_id = new_id();
        let mut block = Vec::with_capacity(r.head.len() + r.body.len());
        block.extend_from_slice(&r.head);
        block.extend_from_slice(&r.body);
        let response = Record {
            kind: Kind::Response,
            id: response_id.clone(),
            date: date.clone(),
            target: Some(url),
            ip: r.remote_ip,
            concurrent_to: None,
            refers_to: None,
            filename: None,
            content_type: "application/http; msgtype=response",
            truncated: r.truncated || r.oversize.is_some(),
            payload_at: Some(r.head.len()),
            block: &block,
        }
        .to_gzip();
        let request = Record {
            kind: Kind::Request,
            id: request_id,
            date,
            target: Some(url),
            ip: r.remote_ip,
            concurrent_to: Some(&response_id),
            refers_to: None,
            filename: None,
            content_type: "application/http; msgtype=request",
            truncated: false,
            payload_at: None,
            block: &r.request_head,
        }
        .to_gzip();
        let id = self.next.fetch_add(1, Relaxed);
        let mut bytes = request;
        let response_at = bytes.len() as u64;
        bytes.extend_from_slice(&response);
        if let Ok(mut p) = self.pending.lock() {
            p.push(Pending {
                id,
                bytes,
                response_at,
            });
        }
        Some((id, response_id))
    }

    /// A page's DOM after its scripts ran, as a `conversion` record of
    /// `url` that refers to the page's response record `refers_to`; returns
    /// its number (where it went: [`Archive::located`]).
    pub(in crate::crawl) fn conversion(
        &self,
        url: &str,
        refers_to: Option<&str>,
        html: &str,
    ) -> u64 {
        let record = Record {
            kind: Kind::Conversion,
            id: new_id(),
            date: warc_date(now_secs()),
            target: Some(url),
            ip: None,
            concurrent_to: None,
            refers_to,
            filename: None,
            content_type: "text/html; charset=utf-8",
            truncated: false,
            payload_at: None,
            block: html.as_bytes(),
        }
        .to_gzip();
        let id = self.next.fetch_add(1, Relaxed);
        if let Ok(mut p) = self.pending.lock() {
            p.push(Pending {
                id,
                bytes: record,
                response_at: 0,
            });
        }
        id
    }

    /// Appends every waiting exchange and makes the files durable (the
    /// writer, before it commits the pages they belong to).
    pub(in crate::crawl) fn flush(&self) -> std::io::Result<()> {
        let waiting = match self.pending.lock() {
            Ok(mut p) => std::mem::take(&mut *p),
            Err(_) => return Err(std::io::Error::other("archive queue poisoned")),
        };
        // What was appended before is durable already.
        if waiting.is_empty() {
            return Ok(());
        }
        let Ok(mut files) = self.files.lock() else {
            return Err(std::io::Error::other("archive files poisoned"));
        };
        let Files { writer, placed } = &mut *files;
        let mut last = 0;
        for i in 0..waiting.len() {
            let p = &waiting[i];
            let at = match writer.append(&p.bytes) {
                Ok(at) => at,
                Err(e) => {
                    // What was not written waits for the next try, first.
                    let mut rest: Vec<Pending> = waiting.into_iter().skip(i).collect();
                    if let Ok(mut q) = self.pending.lock() {
                        rest.append(&mut q);
                        *q = rest;
                    }
                    return Err(e);
                }
            };
            placed.insert(
                p.id,
                Location {
                    file: at.file,
                    offset: at.offset + p.response_at,
                },
            );
            last = p.id;
        }
        if last > KEEP_PLACED {
            placed.retain(|&id, _| id + KEEP_PLACED > last);
        }
        writer.sync()
    }

    /// Where exchange `id`'s response was written (once; `None` if it was
    /// not, or was asked for before).
    pub(in crate::crawl) fn located(&self, id: u64) -> Option<Location> {
        self.files.lock().ok()?.placed.remove(&id)
    }
}
