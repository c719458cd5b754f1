#!/usr/bin/env python3
"""Peers' Markdown on a dataset, as JSONL (`source`, `markdown`) for

  trawl eval --dataset ../shared/datasets/wcxb-dev --structure \
      --structure-peer trafilatura=/tmp/md-trafilatura.jsonl ...

Set up once (test-only packages, in a venv):

  python3 -m venv /tmp/peers
  /tmp/peers/bin/pip install trafilatura==2.3.1
  /tmp/peers/bin/pip install html2text markdownify readability-lxml

Run:  /tmp/peers/bin/python scripts/peer_markdown.py TOOL DATASET OUT.jsonl
TOOL: trafilatura (output_format="markdown" with links, images, tables and
formatting on), readability (readability-lxml's summary through
markdownify, ATX headings), html2text (the whole page converted: a
converter with no main-content step, as users run it). Pages go in as
bytes decoded the way the datasets' harness hands them to peers (UTF-8
when valid, else the declared charset, else cp1252). Uses every core.
"""
import gzip
import json
import re
import sys
from multiprocessing import Pool
from pathlib import Path

TOOL = sys.argv[1]


def decode(raw):
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        m = re.search(rb'charset=["\']?([A-Za-z0-9_-]+)', raw[:4096])
        if m:
            try:
                return raw.decode(m.group(1).decode("ascii"), errors="replace")
            except LookupError:
                pass
        return raw.decode("cp1252", errors="replace")


def one(args):
    path, url = args
    raw = gzip.open(path).read() if str(path).endswith(".gz") else open(path, "rb").read()
    html = decode(raw)
    md = ""
    try:
        if TOOL == "trafilatura":
            import trafilatura
            md = trafilatura.extract(html, url=url, output_format="markdown", include_links=True,
                                     include_images=True, include_tables=True,
                                     include_formatting=True) or ""
        elif TOOL == "readability":
            from markdownify import markdownify
            from readability import Document
            md = markdownify(Document(html).summary(html_partial=True), heading_style="ATX")
        elif TOOL == "html2text":
            import html2text
            h = html2text.HTML2Text(baseurl=url or "")
            h.body_width = 0
            md = h.handle(html)
        else:
            sys.exit(f"unknown tool {TOOL}")
    except Exception as e:  # a peer's failure on a page is an empty answer
        print(f"{path}: {e}", file=sys.stderr)
    return {"source": str(path), "markdown": md}


def cases(dataset):
    d = Path(dataset)
    if (d / "ground-truth").is_dir():
        for g in sorted((d / "ground-truth").glob("*.json")):
            url = json.load(open(g)).get("url")
            yield d / "html" / f"{g.stem}.html.gz", url
    else:
        for g in sorted((d / "gold").glob("*.txt")):
            yield d / "html" / f"{g.stem}.html.gz", None


if __name__ == "__main__":
    with Pool() as pool, open(sys.argv[3], "w") as out:
        for line in pool.imap(one, list(cases(sys.argv[2])), chunksize=8):
            out.write(json.dumps(line) + "\n")
