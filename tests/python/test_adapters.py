"""The adapters against the frameworks they plug into (optional extras,
installed only in the test venv): trawl.datatrove.TrawlExtractor in a
datatrove pipeline, trawl.scrapy.TrawlPipeline in a Scrapy crawl of a page
served on loopback."""

import http.server
import threading

import pytest

import trawl

from helpers import need

ARTICLE = (
    "<html><head><title>Tide pools | Shore</title>"
    "<meta name='author' content='Ana Reyes'></head><body><nav><a href='/'>Home</a></nav>"
    "<article><h1>Tide pools</h1><p>The tide pools stay full of life all winter long, "
    "and the anemones close when the water leaves them.</p>"
    "<h2>When to go</h2><p>Go at low tide, an hour before the lowest point, and walk "
    "only on bare rock so nothing living is crushed.</p></article>"
    "<footer>© Shore</footer></body></html>"
)


def need_module(name):
    try:
        __import__(name)
    except ImportError:
        need(False, f"{name} not installed (.ci/run installs it)")


def test_the_datatrove_step_is_a_callable_without_datatrove():
    from trawl.datatrove import TrawlExtractor

    step = TrawlExtractor()
    assert step.extract(ARTICLE) == trawl.extract(ARTICLE, markdown=False)["text"]
    assert step(ARTICLE).startswith("The tide pools stay")
    md = TrawlExtractor(output="markdown")(ARTICLE)
    assert "## When to go" in md
    with pytest.raises(ValueError, match="output"):
        TrawlExtractor(output="xml")


def test_the_datatrove_step_runs_in_a_pipeline():
    need_module("datatrove")
    from datatrove.data import Document
    from datatrove.pipeline.extractors.base import BaseExtractor

    from trawl.datatrove import TrawlExtractor

    step = TrawlExtractor(threads=2)
    assert isinstance(step, BaseExtractor)
    docs = [
        Document(text=ARTICLE, id="a", metadata={"url": "https://shore.test/tide-pools"}),
        Document(text="<html><body></body></html>", id="empty", metadata={}),
        Document(text=ARTICLE.replace("Tide pools", "Rock pools"), id="b", metadata={}),
    ]
    out = list(step.run(iter(docs)))
    assert [d.id for d in out] == ["a", "b"], "a page with no text is dropped"
    assert out[0].text == trawl.extract(ARTICLE, "https://shore.test/tide-pools")["text"]
    assert out[0].metadata["title"] == "Tide pools"
    assert out[0].metadata["author"] == "Ana Reyes"
    assert out[0].metadata["url"] == "https://shore.test/tide-pools"
    assert step.stats["forwarded"].total == 2


class _Page(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        body = ARTICLE.encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def test_the_scrapy_pipeline_fills_items_in_a_crawl():
    need_module("scrapy")
    import scrapy
    from scrapy.crawler import CrawlerProcess

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Page)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/tide-pools"
    items = []

    class Spider(scrapy.Spider):
        name = "pools"
        start_urls = [url]

        def parse(self, response):
            yield {"url": response.url, "html": response.body}

    class Collect:
        def process_item(self, item, spider=None):
            items.append(dict(item))
            return item

    globals()["Collect"] = Collect
    process = CrawlerProcess(settings={
        "ITEM_PIPELINES": {"trawl.scrapy.TrawlPipeline": 300, f"{__name__}.Collect": 400},
        "TRAWL_OPTIONS": {"images": False},
        "LOG_ENABLED": False,
        "ROBOTSTXT_OBEY": False,
        "TELNETCONSOLE_ENABLED": False,
    })
    process.crawl(Spider)
    process.start()
    server.shutdown()
    assert len(items) == 1, items
    item = items[0]
    assert "html" not in item
    assert item["title"] == "Tide pools"
    assert item["author"] == "Ana Reyes"
    assert item["text"] == trawl.extract(ARTICLE, url)["text"]
    assert "## When to go" in item["markdown"]


def test_the_scrapy_pipeline_alone():
    need_module("scrapy")
    import scrapy

    from trawl.scrapy import TrawlPipeline, extract_response

    class Book(scrapy.Item):
        url = scrapy.Field()
        html = scrapy.Field()
        title = scrapy.Field()

    item = TrawlPipeline(keep_html=True).process_item(Book(url="https://s.test/", html=ARTICLE))
    assert item["title"] == "Tide pools" and "text" not in item and item["html"] == ARTICLE
    untouched = {"url": "https://s.test/"}
    assert TrawlPipeline().process_item(dict(untouched)) == untouched
    response = scrapy.http.HtmlResponse("https://s.test/p", body=ARTICLE.encode(), encoding="utf-8")
    assert extract_response(response)["title"] == "Tide pools"
