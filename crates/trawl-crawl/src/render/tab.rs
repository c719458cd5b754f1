//! One page in one tab: every request paused and answered (the page's own
//! HTML from the crawl's fetch, the rest through the [`Gate`] or refused),
//! then a wait for the network to go idle or the main content to settle,
//! whichever comes first, scrolls for lazy content, and the DOM.

use std::sync::atomic::{AtomicU32, AtomicUsize, Ordering::Relaxed};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use base64::Engine;
use chromiumoxide::cdp::browser_protocol::fetch::{
    EventRequestPaused, FailRequestParams, FulfillRequestParams, HeaderEntry,
};
use chromiumoxide::cdp::browser_protocol::network::{ErrorReason, ResourceType};
use chromiumoxide::cdp::browser_protocol::page::{
    AddScriptToEvaluateOnNewDocumentParams, NavigateParams,
};
use chromiumoxide::Page;
use futures_util::StreamExt;

use super::job::{Answer, Gate, Job, RenderError, Rendered, Settings};

/// Run in every document before its own scripts: the ways out that request
/// interception does not see are gone from the page's world. WebRTC
/// (UDP to any address; the browser's WebRTC policy flags stop it too),
/// WebSocket, WebTransport and EventSource (long-lived connections),
/// workers and service workers (their requests are not the tab's).
const SEALED: &str = "(() => {\
  for (const n of ['RTCPeerConnection', 'webkitRTCPeerConnection', 'RTCDataChannel',\
      'RTCIceTransport', 'RTCRtpSender', 'RTCRtpReceiver', 'WebSocket', 'WebTransport',\
      'EventSource', 'SharedWorker', 'Worker']) {\
    try { Object.defineProperty(window, n, {value: undefined, writable: false, configurable: false}); } catch (e) {}\
  }\
  try { Object.defineProperty(Navigator.prototype, 'serviceWorker', {get: () => undefined, configurable: false}); } catch (e) {}\
})();";

/// Between two looks at the page.
const TICK: Duration = Duration::from_millis(100);
/// A look at the page (a script that never yields makes it hang) at most.
const PROBE_TIMEOUT: Duration = Duration::from_secs(3);
/// Text this long that stops changing is the main content, settled.
const SETTLED_TEXT_CHARS: u64 = 500;
/// Looks in a row the text must stay the same.
const STABLE_LOOKS: u32 = 4;

/// What the requests of a page are doing, shared with the task answering
/// them.
#[derive(Default)]
struct Traffic {
    in_flight: AtomicUsize,
    answered: AtomicU32,
    refused: AtomicU32,
    /// When a request last started or ended.
    last: Mutex<Option<Instant>>,
}

impl Traffic {
    fn touch(&self) {
        if let Ok(mut l) = self.last.lock() {
            *l = Some(Instant::now());
        }
    }

    fn quiet_for(&self) -> Duration {
        self.last
            .lock()
            .ok()
            .and_then(|l| *l)
            .map_or(Duration::MAX, |t| t.elapsed())
    }
}

/// Renders `job` in `page` (a fresh tab); the caller bounds the time.
pub(super) async fn render(
    page: &Page,
    job: &Job<'_>,
    gate: Arc<dyn Gate>,
    s: &Settings,
) -> Result<Rendered, RenderError> {
    let started = Instant::now();
    let paused = page
        .event_listener::<EventRequestPaused>()
        .await
        .map_err(|e| RenderError::Crashed(format!("listening to the tab: {e}")))?;
    let traffic = Arc::new(Traffic::default());
    let main = MainDocument {
        status: job.status,
        headers: job.headers.clone(),
        body: job.body.to_vec(),
    };
    let answering = tokio::spawn(answer_requests(
        page.clone(),
        paused,
        main,
        gate,
        traffic.clone(),
    ));
    page.execute(AddScriptToEvaluateOnNewDocumentParams::new(SEALED))
        .await
        .map_err(|e| RenderError::Crashed(format!("preparing the tab: {e}")))?;
    let result = load(page, job.url, s, &traffic).await;
    answering.abort();
    let (html, scrolls) = result?;
    Ok(Rendered {
        html,
        requests: traffic.answered.load(Relaxed),
        refused: traffic.refused.load(Relaxed),
        scrolls,
        took: started.elapsed(),
    })
}

/// The page's own response, given to the browser for its navigation.
struct MainDocument {
    status: u16,
    headers: Vec<(String, String)>,
    body: Vec<u8>,
}

/// Answers every paused request of the tab until aborted.
async fn answer_requests(
    page: Page,
    mut paused: chromiumoxide::listeners::EventStream<EventRequestPaused>,
    main: MainDocument,
    gate: Arc<dyn Gate>,
    traffic: Arc<Traffic>,
) {
    let mut main = Some(main);
    let mut answers = tokio::task::JoinSet::new();
    loop {
        tokio::select! {
            ev = paused.next() => {
                let Some(ev) = ev else { break };
                let id = ev.request_id.clone();
                let doc = ev.resource_type == ResourceType::Document;
                if doc {
                    if let Some(m) = main.take() {
                        let _ = page.execute(fulfill(id, m.status, &m.headers, &m.body)).await;
                        continue;
                    }
                }
                if let Some(why) = refused(&ev) {
                    tracing::debug!(url = %ev.request.url, why, "browser request refused");
                    traffic.refused.fetch_add(1, Relaxed);
                    let _ = page
                        .execute(FailRequestParams::new(id, ErrorReason::BlockedByClient))
                        .await;
                    continue;
                }
                traffic.in_flight.fetch_add(1, Relaxed);
                traffic.touch();
                let (page, gate, traffic) = (page.clone(), gate.clone(), traffic.clone());
                let url = ev.request.url.clone();
                answers.spawn(async move {
                    let answer = gate.request(url.clone()).await;
                    let sent = match answer {
                        Answer::Response { status, headers, body } => {
                            traffic.answered.fetch_add(1, Relaxed);
                            page.execute(fulfill(id, status, &headers, &body)).await.map(|_| ())
                        }
                        Answer::Refused(why) => {
                            tracing::debug!(url = %url, why, "browser request refused");
                            traffic.refused.fetch_add(1, Relaxed);
                            page.execute(FailRequestParams::new(id, ErrorReason::BlockedByClient))
                                .await
                                .map(|_| ())
                        }
                    };
                    if let Err(e) = sent {
                        tracing::debug!(url = %url, error = %e, "answering the browser failed");
                    }
                    traffic.in_flight.fetch_sub(1, Relaxed);
                    traffic.touch();
                });
            }
            Some(_) = answers.join_next(), if !answers.is_empty() => {}
        }
    }
}

/// Why a request is refused before it reaches the gate: kinds a reader's
/// text does not need (images, fonts, media, stylesheets, frames, beacons,
/// prefetches, event streams), methods other than GET, schemes other than
/// http(s).
fn refused(ev: &EventRequestPaused) -> Option<&'static str> {
    use ResourceType as R;
    let r = &ev.request;
    if !matches!(ev.resource_type, R::Script | R::Xhr | R::Fetch) {
        return Some("kind not loaded");
    }
    if r.method != "GET" {
        return Some("only GET is sent");
    }
    if !(r.url.starts_with("http://") || r.url.starts_with("https://")) {
        return Some("not http(s)");
    }
    None
}

fn fulfill(
    id: chromiumoxide::cdp::browser_protocol::fetch::RequestId,
    status: u16,
    headers: &[(String, String)],
    body: &[u8],
) -> FulfillRequestParams {
    let mut p = FulfillRequestParams::new(id, i64::from(status));
    p.response_headers = Some(
        headers
            .iter()
            .map(|(k, v)| HeaderEntry::new(k.clone(), v.clone()))
            .collect(),
    );
    p.body = Some(
        base64::engine::general_purpose::STANDARD
            .encode(body)
            .into(),
    );
    p
}

/// What a look at the page saw.
#[derive(Debug, Default, Clone, Copy, PartialEq)]
struct Look {
    complete: bool,
    text: u64,
    height: u64,
    /// The window's height: a page no taller is not scrolled.
    view: u64,
}

async fn look(page: &Page) -> Result<Look, RenderError> {
    const JS: &str = "[document.readyState === 'complete', \
        document.body ? document.body.innerText.length : 0, \
        document.documentElement ? document.documentElement.scrollHeight : 0, \
        window.innerHeight]";
    let v = tokio::time::timeout(PROBE_TIMEOUT, page.evaluate_expression(JS))
        .await
        .map_err(|_| RenderError::Timeout(PROBE_TIMEOUT))?
        .map_err(|e| RenderError::Crashed(format!("reading the page: {e}")))?;
    let (complete, text, height, view): (bool, u64, u64, u64) = v
        .into_value()
        .map_err(|e| RenderError::Crashed(format!("reading the page: {e}")))?;
    Ok(Look {
        complete,
        text,
        height,
        view,
    })
}

/// Navigates, waits, scrolls; returns the DOM and the scrolls made.
async fn load(
    page: &Page,
    url: &str,
    s: &Settings,
    traffic: &Traffic,
) -> Result<(String, u32), RenderError> {
    let nav = page
        .execute(NavigateParams::new(url))
        .await
        .map_err(|e| RenderError::Navigation(e.to_string()))?;
    if let Some(err) = &nav.result.error_text {
        return Err(RenderError::Navigation(err.clone()));
    }
    traffic.touch();
    settle(page, s, traffic, true).await?;
    let mut scrolls = 0;
    let first = look(page).await?;
    let mut height = first.height;
    // A page that fits the window has nothing below to load.
    while scrolls < s.scrolls && height > first.view {
        let js = "window.scrollTo(0, document.documentElement.scrollHeight); true";
        tokio::time::timeout(PROBE_TIMEOUT, page.evaluate_expression(js))
            .await
            .map_err(|_| RenderError::Timeout(PROBE_TIMEOUT))?
            .map_err(|e| RenderError::Crashed(format!("scrolling: {e}")))?;
        scrolls += 1;
        traffic.touch();
        settle(page, s, traffic, false).await?;
        let now = look(page).await?.height;
        if now <= height {
            break;
        }
        height = now;
    }
    let js = "(document.doctype ? '<!DOCTYPE html>' : '') + \
        (document.documentElement ? document.documentElement.outerHTML : '')";
    let html: String = tokio::time::timeout(PROBE_TIMEOUT, page.evaluate_expression(js))
        .await
        .map_err(|_| RenderError::Timeout(PROBE_TIMEOUT))?
        .map_err(|e| RenderError::Crashed(format!("reading the DOM: {e}")))?
        .into_value()
        .map_err(|e| RenderError::Crashed(format!("reading the DOM: {e}")))?;
    Ok((html, scrolls))
}

/// Waits until the network is idle (the document loaded, nothing in
/// flight for `idle`) or, on first load, the text is long and has stopped
/// changing: whichever comes first.
async fn settle(
    page: &Page,
    s: &Settings,
    traffic: &Traffic,
    first: bool,
) -> Result<(), RenderError> {
    let mut last = Look::default();
    let mut stable = 0;
    loop {
        tokio::time::sleep(TICK).await;
        let now = match look(page).await {
            Ok(now) => now,
            // A script holding the page's thread: wait on, within the
            // page's own timeout (the caller's).
            Err(RenderError::Timeout(_)) => continue,
            Err(e) => return Err(e),
        };
        let idle = traffic.in_flight.load(Relaxed) == 0 && traffic.quiet_for() >= s.idle;
        if now.complete && idle {
            return Ok(());
        }
        stable = if now.text == last.text { stable + 1 } else { 0 };
        if first && now.text >= SETTLED_TEXT_CHARS && stable >= STABLE_LOOKS {
            return Ok(());
        }
        last = now;
    }
}
