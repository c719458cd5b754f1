//! A hostile page in the browser (issue 52): it sends nothing trawl did
//! not decide (WebRTC's UDP to a private address, WebSockets), and its
//! tab's memory is capped for real (typed arrays live outside the
//! JavaScript heap the V8 flag bounds). One test, run alone in its binary:
//! it reads every renderer process's memory on the machine. Needs chromium
//! (`.ci/run` installs it); fails under `TRAWL_REQUIRE_ALL=1` without it.

mod support;

use std::net::{TcpListener, UdpSocket};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering::Relaxed};
use std::sync::Arc;
use std::time::Duration;

use support::{config, crawl_once, outcomes, scratch, Host, Reply};

const PROSE: &str = "The ferry across the sound was replaced in the spring by a wider boat with room for forty cars, and the timetable moved to every half hour so that commuters no longer wait on the quay.";

/// A page whose script draws its text, after `attack` ran.
fn scripted(title: &str, attack: &str) -> Reply {
    support::html(&format!(
        "<!doctype html><html><head><title>{title}</title></head><body><div id=root></div>\
         <noscript>You need to enable JavaScript to run this app.</noscript><script>\
         try {{ {attack} }} catch (e) {{}}\
         document.getElementById('root').innerHTML = '<article><h1>{title}</h1><p>{PROSE}</p><p>{PROSE}</p></article>';\
         </script></body></html>"
    ))
}

/// Largest resident size of any renderer process now, in MiB.
fn renderer_rss_mb() -> u64 {
    let mut most = 0;
    for e in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let p = e.path();
        let cmd = std::fs::read(p.join("cmdline")).unwrap_or_default();
        if !cmd.windows(15).any(|w| w == b"--type=renderer") {
            continue;
        }
        let status = std::fs::read_to_string(p.join("status")).unwrap_or_default();
        let kb = status
            .lines()
            .find(|l| l.starts_with("VmRSS:"))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|v| v.parse::<u64>().ok())
            .unwrap_or(0);
        most = most.max(kb / 1024);
    }
    most
}

/// Renderer processes now: (in our network namespace, in another one).
fn renderers_by_namespace() -> (u64, u64) {
    let ours = std::fs::read_link("/proc/self/ns/net").ok();
    let (mut same, mut other) = (0, 0);
    for e in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let p = e.path();
        let cmd = std::fs::read(p.join("cmdline")).unwrap_or_default();
        if !cmd.windows(15).any(|w| w == b"--type=renderer") {
            continue;
        }
        match std::fs::read_link(p.join("ns/net")).ok() {
            Some(ns) if Some(&ns) == ours.as_ref() => same += 1,
            Some(_) => other += 1,
            None => {}
        }
    }
    (same, other)
}

#[test]
fn a_hostile_page_in_the_browser_sends_nothing_and_is_held_to_its_memory() {
    if trawl_crawl::render::find_chromium("").is_err() {
        support::skip_or_fail("chromium not installed (apt-get install chromium); not run");
        return;
    }
    // What must hear nothing: a UDP listener (STUN/TURN) and a TCP one
    // (WebSocket) on private addresses no seed names.
    let udp = UdpSocket::bind("127.0.0.75:0").expect("udp");
    udp.set_read_timeout(Some(Duration::from_millis(200)))
        .expect("timeout");
    let udp_port = udp.local_addr().expect("addr").port();
    let tcp = TcpListener::bind("127.0.0.76:0").expect("tcp");
    tcp.set_nonblocking(true).expect("nonblocking");
    let tcp_port = tcp.local_addr().expect("addr").port();
    let done = Arc::new(AtomicBool::new(false));
    let (datagrams, connections, peak) = (
        Arc::new(AtomicU64::new(0)),
        Arc::new(AtomicU64::new(0)),
        Arc::new(AtomicU64::new(0)),
    );
    let (in_ours, in_own) = (Arc::new(AtomicU64::new(0)), Arc::new(AtomicU64::new(0)));
    let listener = {
        let (done, datagrams, connections, peak) = (
            done.clone(),
            datagrams.clone(),
            connections.clone(),
            peak.clone(),
        );
        let (in_ours, in_own) = (in_ours.clone(), in_own.clone());
        std::thread::spawn(move || {
            let mut buf = [0u8; 2048];
            while !done.load(Relaxed) {
                if udp.recv_from(&mut buf).is_ok() {
                    datagrams.fetch_add(1, Relaxed);
                }
                if tcp.accept().is_ok() {
                    connections.fetch_add(1, Relaxed);
                }
                peak.fetch_max(renderer_rss_mb(), Relaxed);
                let (same, other) = renderers_by_namespace();
                in_ours.fetch_max(same, Relaxed);
                in_own.fetch_max(other, Relaxed);
            }
        })
    };
    let rtc = format!(
        "const servers = {{iceServers: [{{urls: 'stun:127.0.0.75:{udp_port}'}}, \
         {{urls: 'turn:127.0.0.75:{udp_port}?transport=udp', username: 'u', credential: 'p'}}]}};\
         const open = P => {{ const pc = new P(servers); pc.createDataChannel('x'); \
           pc.createOffer().then(o => pc.setLocalDescription(o)); }};\
         try {{ open(RTCPeerConnection); }} catch (e) {{}}\
         const f = document.createElement('iframe'); document.body.appendChild(f);\
         try {{ open(f.contentWindow.RTCPeerConnection); }} catch (e) {{}}\
         try {{ new WebSocket('ws://127.0.0.76:{tcp_port}/'); }} catch (e) {{}}"
    );
    let hog = "const keep = []; for (let i = 0; i < 30; i++) { const a = new Uint8Array(50 << 20); a.fill(7); keep.push(a); } window.keep = keep;";
    let host = Host::start("127.0.0.77", move |path, _| match path {
        "/robots.txt" => support::status(404),
        "/" => support::html(
            "<html><head><title>Hub</title></head><body><a href=/rtc>rtc</a> <a href=/hog>hog</a> \
             <a href=/after>after</a></body></html>",
        ),
        "/rtc" => scripted("Talk", &rtc),
        "/hog" => scripted("Hog", hog),
        "/after" => scripted("After", ""),
        _ => support::status(404),
    });
    let dir = scratch("render-hostile");
    let seeds = dir.join("seeds/s.txt");
    std::fs::write(&seeds, format!("{} depth=1 render=always\n", host.url("/"))).expect("seeds");
    let cfg = config(
        &dir,
        "sitemaps = false\ntimeout_secs = 30\n[render]\ntabs = 1\ntab_memory_mb = 256\ntimeout_secs = 20\nidle_ms = 1500",
    );
    crawl_once(&cfg, &seeds);
    std::thread::sleep(Duration::from_secs(2));
    done.store(true, Relaxed);
    let _ = listener.join();
    let outs = outcomes(&cfg);
    let _ = std::fs::remove_dir_all(&dir);
    let of = |path: &str| {
        outs.iter()
            .find(|o| o["url"].as_str() == Some(host.url(path).as_str()))
            .cloned()
            .unwrap_or_else(|| panic!("no outcome for {path}: {outs:?}"))
    };
    assert_eq!(
        datagrams.load(Relaxed),
        0,
        "UDP datagrams reached a private address"
    );
    assert_eq!(
        connections.load(Relaxed),
        0,
        "a WebSocket reached a private address"
    );
    let hog = of("/hog");
    assert_eq!(hog["outcome"], "render_failed", "{hog}");
    assert!(
        hog["error"].as_str().unwrap_or("").contains("memory"),
        "{hog}"
    );
    let peak = peak.load(Relaxed);
    eprintln!("renderer peak {peak} MiB (render.tab_memory_mb = 256)");
    assert!(peak < 256 + 400, "a renderer reached {peak} MiB");
    assert_eq!(of("/after")["outcome"], "fetched", "the next page renders");
    assert_eq!(of("/rtc")["outcome"], "fetched");
    // Issue 52: where trawl may make one (root), the browser runs in a
    // network namespace of its own, where nothing but its loopback exists.
    // SAFETY: geteuid has no preconditions.
    if unsafe { libc::geteuid() } == 0 {
        assert_eq!(in_ours.load(Relaxed), 0, "a renderer shared our network");
        assert!(in_own.load(Relaxed) >= 1, "no renderer was seen");
    } else {
        support::skip_or_fail("not root: the browser's own network namespace is not checked");
    }
}
