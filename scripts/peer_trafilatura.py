#!/usr/bin/env python3
"""Predictions of trafilatura (the peer) on a dataset, in the JSONL form
`trawl eval --predictions` writes (`source`, `text`), for side-by-side runs:

  python3 -m venv /tmp/peers && /tmp/peers/bin/pip install trafilatura==2.3.1
  /tmp/peers/bin/python scripts/peer_trafilatura.py ../shared/datasets/trafilatura-eval out.jsonl
  trawl eval --dataset ../shared/datasets/trafilatura-eval --losses ours.jsonl out.jsonl

With `--metadata` it writes trafilatura's title, author and date instead
(`source`, `title`, `author`, `date`; each page with its URL from the
ground truth, as `trawl eval --metadata` extracts ours), for

  trawl eval --dataset ../shared/datasets/wcxb-dev --metadata --peer out.jsonl

Pages go in as bytes (trafilatura decodes them itself, as in its own
harness), or with `--decode` as text decoded the way the datasets' own
harness hands it to peers for multilingual-dev (UTF-8 when valid, else the
declared charset); library defaults otherwise (comments included), or
`--no-comments`. Uses every core. With `--rs` the peer is rs-trafilatura
(pip install rs-trafilatura; its `extract_bytes`, `main_content`) instead.
"""
import gzip
import json
import re
import sys
from multiprocessing import Pool
from pathlib import Path

import trafilatura

COMMENTS = "--no-comments" not in sys.argv
METADATA = "--metadata" in sys.argv
DECODE = "--decode" in sys.argv
RS = "--rs" in sys.argv
DECLARED = re.compile(rb"""(?:charset|encoding)\s*=\s*["']?([A-Za-z0-9_.:-]+)""")


def decode(data):
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    m = DECLARED.search(data[:4096])
    name = m.group(1).decode("ascii", "replace").lower() if m else "cp1252"
    if name in ("gb2312", "gbk"):
        name = "gb18030"
    try:
        return data.decode(name, errors="replace")
    except LookupError:
        return data.decode("cp1252", errors="replace")


def url_of(path):
    """The page's URL from its ground truth (wcxb-dev, trafilatura-eval)."""
    page_id = path.name.split(".")[0]
    truth = path.parent.parent / "ground-truth" / f"{page_id}.json"
    try:
        g = json.loads(truth.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return g.get("url") or (g.get("metadata") or {}).get("url")


def metadata(path, data):
    try:
        doc = trafilatura.bare_extraction(
            decode(data) if DECODE else data, url=url_of(path), with_metadata=True
        )
    except Exception as e:  # a peer's crash scores as nothing found
        print(f"{path.name}: {e}", file=sys.stderr)
        doc = None
    get = lambda k: getattr(doc, k, None) if doc is not None else None
    return {"source": str(path), "title": get("title"), "author": get("author"), "date": get("date")}


def one(path):
    data = path.read_bytes()
    if path.suffix == ".gz":
        data = gzip.decompress(data)
    if METADATA:
        return metadata(path, data)
    try:
        page = decode(data) if DECODE else data
        if RS:
            import rs_trafilatura

            got = rs_trafilatura.extract_bytes(data, include_comments=COMMENTS)
            text = getattr(got, "main_content", None) or ""
        else:
            text = trafilatura.extract(page, include_comments=COMMENTS) or ""
    except Exception as e:  # a peer's crash scores as an empty page
        print(f"{path.name}: {e}", file=sys.stderr)
        text = ""
    return {"source": str(path), "text": text}


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    dataset, out = Path(args[0]), Path(args[1])
    pages = sorted((dataset / "html").iterdir())
    with Pool() as pool, out.open("w", encoding="utf-8") as f:
        for row in pool.imap(one, pages, chunksize=4):
            f.write(json.dumps(row, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
