"""trawl as a datatrove extractor step, in place of `Trafilatura()`.

    from datatrove.pipeline.readers import WarcReader
    from trawl.datatrove import TrawlExtractor
    pipeline = [WarcReader("s3://commoncrawl/..."), TrawlExtractor(), ...]

Like datatrove's extractors it takes a document's text (the page's HTML)
and gives back the extracted text (`output="markdown"` for Markdown). Its
`run` extracts a batch of documents at a time on Rust threads (the page's
URL from `doc.metadata["url"]`), bounded by trawl's own time limit per page
rather than a subprocess; documents with no text left are dropped, as
datatrove's extractors do, and the record's title, author, date, language
and page type go into `doc.metadata`. datatrove itself is optional: without
it the class is a plain callable, `TrawlExtractor()(html) -> str`.
"""

from collections import deque
from typing import Any, Iterable, Iterator, Optional

from . import _trawl

try:
    from datatrove.pipeline.extractors.base import BaseExtractor as _Base
except ImportError:  # datatrove is an optional extra
    _Base = object

#: The record fields copied into `doc.metadata` (when not None).
METADATA = ("title", "author", "date", "language", "page_type")


class TrawlExtractor(_Base):  # type: ignore[misc, valid-type]
    """A datatrove extractor step backed by `trawl.extract`."""

    name = "🕸 trawl"
    type = "🛢 - EXTRAC"

    def __init__(
        self,
        output: str = "text",
        timeout: float = 1.0,
        keep_metadata: bool = True,
        threads: Optional[int] = None,
        **options: Any,
    ) -> None:
        """`output`: "text" or "markdown". `timeout`: seconds per page (trawl's
        `time_limit_ms`). `threads`: Rust threads for `run` (default: every
        core). Other keyword arguments go to `trawl.extract` (algorithm,
        images, max_bytes, ...)."""
        if output not in ("text", "markdown"):
            raise ValueError(f'output is {output!r}; it must be "text" or "markdown"')
        if _Base is not object:
            super().__init__(timeout)
        self.timeout = timeout
        self.output = output
        self.keep_metadata = keep_metadata
        self.threads = threads
        options.setdefault("time_limit_ms", max(1, int(timeout * 1000)))
        options.setdefault("markdown", output == "markdown")
        self.options = options

    def extract(self, text: str) -> str:
        """The page's extracted text (or Markdown): datatrove's extractor call."""
        rec = _trawl.extract(text, **self.options)
        return rec.get(self.output) or ""

    __call__ = extract

    def _stat(self, key: str) -> None:
        if _Base is not object:
            self.stat_update(key)

    def run(self, data: Iterable[Any], rank: int = 0, world_size: int = 1) -> Iterator[Any]:
        """The documents of `data` with their text extracted, in order."""
        waiting: deque = deque()

        def pages() -> Iterator[tuple]:
            for doc in data:
                waiting.append(doc)
                yield (doc.text, (getattr(doc, "metadata", None) or {}).get("url"))

        records = _trawl.extract_many(pages(), threads=self.threads, **self.options)
        while True:
            try:
                rec = next(records)
            except StopIteration:
                return
            except (_trawl.ExtractError, TypeError):  # unreadable, or text not str
                waiting.popleft()
                self._stat("total")
                self._stat("clean_error")
                continue
            doc = waiting.popleft()
            self._stat("total")
            doc.text = rec.get(self.output) or ""
            if self.keep_metadata and getattr(doc, "metadata", None) is not None:
                for key in METADATA:
                    if rec.get(key) is not None:
                        doc.metadata[key] = rec[key]
            if doc.text:
                self._stat("forwarded")
                if _Base is not object:
                    self.update_doc_stats(doc)
                yield doc
            else:
                self._stat("dropped")
