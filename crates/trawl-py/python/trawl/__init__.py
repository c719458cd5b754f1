"""trawl's extractor: main text, Markdown and metadata of web pages, at Rust speed.

    import trawl
    rec = trawl.extract(html, url="https://example.org/a")
    print(rec["title"], rec["date"], rec["markdown"])

`extract_many` and `extract_warc` stream many pages through Rust threads,
`read_warc` reads WARC archives, `Template` learns a shop's product
template. Adapters: `trawl.datatrove.TrawlExtractor` (a datatrove extractor
step) and `trawl.scrapy.TrawlPipeline` (a Scrapy item pipeline).
"""

from ._trawl import (
    ArchiveError,
    ExtractError,
    Records,
    Template,
    TemplateError,
    WarcPages,
    __version__,
    extract,
    extract_many,
    extract_warc,
    html_to_markdown,
    read_warc,
)

__all__ = [
    "ArchiveError",
    "ExtractError",
    "Records",
    "Template",
    "TemplateError",
    "WarcPages",
    "__version__",
    "extract",
    "extract_many",
    "extract_warc",
    "html_to_markdown",
    "read_warc",
]
