"""POST /extract on a running daemon against `trawl extract`, on one
dataset's pages (issue 57's bench): requests/s and latency p50/p99 with
CLIENTS concurrent clients, then `trawl extract` one process per page (what
a program without the API does) and one batch process for every page.

usage: python3 scripts/api_extract_bench.py TRAWL_BIN DATASET_DIR [CLIENTS]
Loopback only: the daemon gets an empty seed file and crawls nothing."""

import gzip
import http.client
import os
import pathlib
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

binary, root = sys.argv[1], pathlib.Path(sys.argv[2])
clients = int(sys.argv[3]) if len(sys.argv) > 3 else 8
files = sorted((root / "html").glob("*.html*"))
pages = [gzip.decompress(f.read_bytes()) if f.suffix == ".gz" else f.read_bytes() for f in files]
print(f"{len(pages)} pages, {sum(map(len, pages)) / 1e6:.1f} MB, from {root}; {clients} clients")

work = pathlib.Path(tempfile.mkdtemp(prefix="trawl-api-bench-"))
sock = socket.socket()
sock.bind(("127.0.0.1", 0))
port = sock.getsockname()[1]
sock.close()
(work / "seeds").mkdir()
(work / "seeds" / "none.txt").write_text("")
(work / "config.toml").write_text(
    f'[crawl]\ndata_dir = "{work}/data"\nseeds_dir = "{work}/seeds"\n'
    f'status_addr = "127.0.0.1:{port}"\n[api]\nmax_concurrent = {clients}\n'
)
token = "bench-token"
env = dict(os.environ, TRAWL_API_TOKEN=token, RUST_LOG="warn")
daemon = subprocess.Popen(
    [binary, "--config", str(work / "config.toml"), "crawl", "--seeds", str(work / "seeds" / "none.txt")],
    env=env,
    stdout=subprocess.DEVNULL,
    stderr=subprocess.DEVNULL,
)


def post(conn, body):
    conn.request(
        "POST",
        "/extract",
        body=body,
        headers={"Authorization": f"Bearer {token}", "Content-Type": "text/html"},
    )
    r = conn.getresponse()
    r.read()
    return r.status


try:
    for _ in range(200):
        try:
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            c.request("GET", "/status")
            c.getresponse().read()
            break
        except OSError:
            time.sleep(0.1)
    latencies = []
    errors = []
    lock = threading.Lock()
    next_page = iter(range(len(pages)))

    def client():
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        mine = []
        while True:
            with lock:
                i = next(next_page, None)
            if i is None:
                break
            t = time.perf_counter()
            status = post(conn, pages[i])
            mine.append(time.perf_counter() - t)
            if status != 200:
                errors.append(status)
        with lock:
            latencies.extend(mine)

    start = time.perf_counter()
    threads = [threading.Thread(target=client) for _ in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    secs = time.perf_counter() - start
    latencies.sort()
    q = lambda p: latencies[min(len(latencies) - 1, int(p * len(latencies)))] * 1000
    print("| way | pages | seconds | pages/s | p50 ms | p99 ms |")
    print("|---|---|---|---|---|---|")
    print(
        f"| POST /extract, {clients} clients, one daemon | {len(latencies)} | {secs:.1f} | "
        f"{len(latencies) / secs:.0f} | {q(0.5):.1f} | {q(0.99):.1f} |"
    )
    if errors:
        print(f"non-200 answers: {len(errors)} ({sorted(set(errors))})")
finally:
    daemon.send_signal(signal.SIGTERM)
    daemon.wait()

# trawl extract, one process per page (the first 300 pages), then one batch.
tmp = work / "pages"
tmp.mkdir()
paths = []
for i, p in enumerate(pages):
    path = tmp / f"{i:05}.html"
    path.write_bytes(p)
    paths.append(str(path))
cfg = ["--config", str(work / "config.toml")]
some = paths[:300]
lat = []
start = time.perf_counter()
for p in some:
    t = time.perf_counter()
    subprocess.run([binary, *cfg, "extract", "--jsonl", p], stdout=subprocess.DEVNULL, check=False)
    lat.append(time.perf_counter() - t)
secs = time.perf_counter() - start
lat.sort()
print(
    f"| trawl extract, a process per page, one at a time | {len(some)} | {secs:.1f} | "
    f"{len(some) / secs:.0f} | {lat[len(lat) // 2] * 1000:.1f} | {lat[int(0.99 * len(lat))] * 1000:.1f} |"
)
start = time.perf_counter()
subprocess.run([binary, *cfg, "extract", "--jsonl", "-j", "2", *paths], stdout=subprocess.DEVNULL, check=False)
secs = time.perf_counter() - start
print(f"| trawl extract -j 2, one process for every page | {len(paths)} | {secs:.1f} | {len(paths) / secs:.0f} | – | – |")
shutil.rmtree(work, ignore_errors=True)
