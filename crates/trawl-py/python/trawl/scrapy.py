"""trawl in a Scrapy project: an item pipeline that fills an item's text,
Markdown and metadata from the page it carries.

    # settings.py
    ITEM_PIPELINES = {"trawl.scrapy.TrawlPipeline": 300}

    # the spider
    def parse(self, response):
        yield {"url": response.url, "html": response.body}

The item gets `text`, `markdown`, `title`, `author`, `date`, `language`,
`page_type` (setting `TRAWL_FIELDS` chooses; a `scrapy.Item` gets only the
fields it declares) and loses `html` unless `TRAWL_KEEP_HTML = True`. An
item without `html` passes untouched. Settings: `TRAWL_HTML_FIELD`
("html"), `TRAWL_URL_FIELD` ("url"), `TRAWL_FIELDS`, `TRAWL_KEEP_HTML`,
`TRAWL_OPTIONS` (keyword arguments of `trawl.extract`). Scrapy itself is
not a dependency of trawl; `extract_response(response)` needs only the
response's `body` and `url`.
"""

from typing import Any, Dict, Iterable, Optional

from . import _trawl

#: The record fields an item gets by default.
FIELDS = ("text", "markdown", "title", "author", "date", "language", "page_type")


def extract_response(response: Any, **options: Any) -> Dict[str, Any]:
    """The record of a Scrapy response (its body and URL): `trawl.extract`."""
    return _trawl.extract(response.body, response.url, **options)


class TrawlPipeline:
    """A Scrapy item pipeline backed by `trawl.extract`."""

    def __init__(
        self,
        html_field: str = "html",
        url_field: str = "url",
        fields: Iterable[str] = FIELDS,
        keep_html: bool = False,
        options: Optional[Dict[str, Any]] = None,
    ) -> None:
        self.html_field = html_field
        self.url_field = url_field
        self.fields = tuple(fields)
        self.keep_html = keep_html
        self.options = dict(options or {})

    @classmethod
    def from_crawler(cls, crawler: Any) -> "TrawlPipeline":
        s = crawler.settings
        return cls(
            html_field=s.get("TRAWL_HTML_FIELD", "html"),
            url_field=s.get("TRAWL_URL_FIELD", "url"),
            fields=s.getlist("TRAWL_FIELDS") or FIELDS,
            keep_html=s.getbool("TRAWL_KEEP_HTML", False),
            options=s.getdict("TRAWL_OPTIONS"),
        )

    def process_item(self, item: Any, spider: Any = None) -> Any:
        from itemadapter import ItemAdapter  # Scrapy's own dependency

        adapter = ItemAdapter(item)
        html = adapter.get(self.html_field)
        if html is None:
            return item
        rec = _trawl.extract(html, adapter.get(self.url_field), **self.options)
        for field in self.fields:
            try:
                adapter[field] = rec.get(field)
            except KeyError:  # a scrapy.Item that does not declare it
                pass
        if not self.keep_html:
            try:
                del adapter[self.html_field]
            except KeyError:
                pass
        return item
