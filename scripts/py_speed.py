"""In-process extraction speed of the Python package on one dataset, one
thread, against trafilatura (and rs_trafilatura when installed), plus
extract_many on every core and the CLI on the same pages.

usage: python scripts/py_speed.py DATASET_DIR [TRAWL_BIN]
(in a venv with the trawl wheel and trafilatura installed)."""

import gzip
import os
import pathlib
import subprocess
import sys
import time

import trawl

root = pathlib.Path(sys.argv[1])
files = sorted((root / "html").glob("*.html*"))
pages = [gzip.decompress(f.read_bytes()) if f.suffix == ".gz" else f.read_bytes() for f in files]
mb = sum(len(p) for p in pages) / 1e6
print(f"{len(pages)} pages, {mb:.1f} MB, from {root}")


def timed(name, fn):
    start = time.perf_counter()
    n = fn()
    secs = time.perf_counter() - start
    print(f"| {name} | {secs:.1f} | {n / secs:.0f} | {mb / secs:.1f} |")
    return secs


print("| extractor (in-process) | seconds | pages/s | MB/s |")
print("|---|---|---|---|")


def one_thread():
    for p in pages:
        trawl.extract(p)
    return len(pages)


def many():
    return sum(1 for _ in trawl.extract_many(pages))


timed("trawl.extract, 1 thread", one_thread)
timed(f"trawl.extract_many, {os.cpu_count()} threads", many)
if len(sys.argv) > 2:
    def cli():
        subprocess.run(
            [sys.argv[2], "extract", "--format", "json", "-j", "1", *map(str, files)],
            stdout=subprocess.DEVNULL, check=True,
        )
        return len(pages)
    timed("trawl extract CLI, -j 1 (process, reads .gz)", cli)
try:
    import trafilatura

    def traf():
        for p in pages:
            trafilatura.extract(p)
        return len(pages)
    timed(f"trafilatura {trafilatura.__version__}.extract", traf)
except ImportError:
    print("| trafilatura | not installed | | |")
try:
    import rs_trafilatura

    def rs():
        for p in pages:
            rs_trafilatura.extract_bytes(p)
        return len(pages)
    timed(f"rs_trafilatura {rs_trafilatura.__version__}.extract_bytes", rs)
except ImportError:
    print("| rs_trafilatura | not installed | | |")
