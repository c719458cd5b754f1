"""trawl's extractor: main text, Markdown and metadata of web pages, at Rust speed."""

from typing import Any, Dict, Iterable, Iterator, Optional, Tuple, Union

__version__: str

Html = Union[str, bytes]
Page = Union[Html, Tuple[Html, Optional[str]], Dict[str, Any]]

class ExtractError(Exception):
    """A page trawl cannot read (too large, too deep, binary, past its time limit)."""

def extract(
    html: Html,
    url: Optional[str] = None,
    *,
    algorithm: str = "auto",
    markdown: bool = True,
    html_out: bool = False,
    images: bool = True,
    charset: Optional[str] = None,
    fetched_at: Optional[int] = None,
    max_bytes: int = 16777216,
    time_limit_ms: int = 10000,
) -> Dict[str, Any]:
    """The page's record: the dict `trawl extract --format json` prints.

    Keys: text, markdown, title, author, date, date_published, date_modified,
    description, site_name, language, page_type, canonical, product, url, ...
    A str is taken as decoded; bytes are decoded as trawl decodes fetched
    pages (`charset`, when given, first). `algorithm`: auto, cetd-tpc, cc,
    article-std, list-rank, segment. `fetched_at`: seconds since the epoch, for
    relative dates ("3 hours ago"). `time_limit_ms=0`: no time limit.
    Raises ExtractError for a page it cannot read, TypeError for input that
    is neither str nor bytes, ValueError for a bad setting.
    """

def html_to_markdown(html: Html, url: Optional[str] = None, *, images: bool = True) -> str:
    """The whole document as Markdown, no main-content selection: headings
    ranked within the page, lists, GFM tables, fenced code, links made
    absolute against `url`."""

class Records(Iterator[Dict[str, Any]]):
    def __iter__(self) -> "Records": ...
    def __next__(self) -> Dict[str, Any]: ...

def extract_many(
    pages: Iterable[Page],
    *,
    threads: Optional[int] = None,
    algorithm: str = "auto",
    markdown: bool = True,
    html_out: bool = False,
    images: bool = True,
    fetched_at: Optional[int] = None,
    max_bytes: int = 16777216,
    time_limit_ms: int = 10000,
) -> Records:
    """Records of many pages, in input order, on `threads` Rust threads.

    `pages`: html, (html, url) tuples or {"html": ..., "url": ...} dicts,
    read a batch at a time (memory stays bounded). Default threads: every core.
    """
