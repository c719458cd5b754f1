#!/usr/bin/env python3
"""Scrapy + trafilatura (the peer pipeline) crawling a list of seed sites, for
the crawl bench's side-by-side run (`TRAWL_BENCH_PEER=PYTHON cargo bench
--bench crawl -- 50 101 on real`):

  python3 -m venv /tmp/peers && /tmp/peers/bin/pip install scrapy trafilatura==2.3.1
  /tmp/peers/bin/python scripts/peer_scrapy.py SEEDS OUT.jsonl [--in-flight 64] [--per-host 2]

SEEDS holds one URL a line. Each seed's host is the crawl's scope (Scrapy's
allowed_domains); robots.txt is obeyed, no delay, meta refresh off. Every
page goes through trafilatura (Markdown with metadata, the page's URL given:
the work trawl's records do) and out as one JSON line (`url`, `content`);
`--format txt` asks trafilatura for its default instead (plain text, no
metadata), the cheapest pipeline.
"""
import argparse
import json
from urllib.parse import urlsplit

import scrapy
import trafilatura
from scrapy.crawler import CrawlerProcess


class Sites(scrapy.Spider):
    name = "sites"

    def __init__(self, seeds, fmt, **kw):
        super().__init__(**kw)
        self.fmt = fmt
        self.start_urls = seeds
        self.allowed_domains = sorted({urlsplit(u).hostname for u in seeds})

    def parse(self, response):
        if not isinstance(response, scrapy.http.HtmlResponse):
            return
        if self.fmt == "txt":
            content = trafilatura.extract(response.body, url=response.url)
        else:
            content = trafilatura.extract(
                response.body,
                url=response.url,
                output_format="markdown",
                with_metadata=True,
            )
        yield {"url": response.url, "content": content or ""}
        # Links as a crawler follows them: http(s) only (`mailto:` and
        # `javascript:` would make Scrapy raise and lose the page's rest).
        for href in response.css("a::attr(href)").getall():
            url = response.urljoin(href.strip())
            if url.startswith(("http://", "https://")):
                yield scrapy.Request(url, callback=self.parse)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("seeds")
    ap.add_argument("out")
    ap.add_argument("--in-flight", type=int, default=64)
    ap.add_argument("--per-host", type=int, default=2)
    ap.add_argument("--format", choices=["markdown", "txt"], default="markdown")
    a = ap.parse_args()
    with open(a.seeds, encoding="utf-8") as f:
        seeds = [line.strip() for line in f if line.strip()]
    process = CrawlerProcess(
        settings={
            "CONCURRENT_REQUESTS": a.in_flight,
            "CONCURRENT_REQUESTS_PER_DOMAIN": a.per_host,
            "DOWNLOAD_DELAY": 0,
            "ROBOTSTXT_OBEY": True,
            "METAREFRESH_ENABLED": False,
            "TELNETCONSOLE_ENABLED": False,
            "LOG_LEVEL": "WARNING",
            "FEEDS": {a.out: {"format": "jsonlines", "overwrite": True}},
        }
    )
    process.crawl(Sites, seeds=seeds, fmt=a.format)
    process.start()
    with open(a.out, encoding="utf-8") as f:
        pages = sum(1 for _ in f)
    print(json.dumps({"pages": pages}))


if __name__ == "__main__":
    main()
