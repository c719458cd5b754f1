"""trawl's extractor: main text, Markdown and metadata of web pages, at Rust speed."""

import os
from typing import Any, Dict, Iterable, Iterator, List, Optional, Tuple, Union

__version__: str

Html = Union[str, bytes]
Page = Union[Html, Tuple[Html, Optional[str]], Dict[str, Any]]

class ExtractError(Exception):
    """A page trawl cannot read (too large, too deep, binary, past its time limit)."""

class ArchiveError(Exception):
    """A WARC record or file trawl cannot read; the message names its offset."""

class TemplateError(Exception):
    """A template that cannot be learned from the pages given, or read back."""

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

class WarcPages(Iterator[Tuple[Optional[str], bytes, Dict[str, str]]]):
    def __iter__(self) -> "WarcPages": ...
    def __next__(self) -> Tuple[Optional[str], bytes, Dict[str, str]]: ...

def read_warc(
    path: Union[str, "os.PathLike[str]"], *, errors: str = "raise"
) -> WarcPages:
    """The HTML responses of a .warc / .warc.gz file as (url, body, headers).

    Requests, robots.txt files, images and non-2xx responses are passed over.
    A garbled record raises ArchiveError naming its offset (iteration can go
    on after it), or is skipped with errors="skip".
    """

def extract_warc(
    path: Union[str, "os.PathLike[str]"],
    *,
    threads: Optional[int] = None,
    errors: str = "raise",
    algorithm: str = "auto",
    markdown: bool = True,
    html_out: bool = False,
    images: bool = True,
    fetched_at: Optional[int] = None,
    max_bytes: int = 16777216,
    time_limit_ms: int = 10000,
) -> Records:
    """Records of a WARC file's HTML responses, in file order, as `trawl
    extract FILE.warc.gz` writes them (each with warc_record_id and
    warc_offset), extracted on `threads` Rust threads."""

class Template:
    """A shop's product template: where each field sits on its pages."""

    @staticmethod
    def learn(pages: Iterable[Page], *, site: Optional[str] = None, samples: int = 4) -> "Template":
        """Learns from product pages of one shop (at least 2; 4 samples is
        best; pages beyond `samples` check it). Raises TemplateError."""
    def apply(self, html: Html, url: Optional[str] = None) -> Dict[str, Any]:
        """{"values": {field: [str]}, "matched": float} for a page of the shop."""
    @property
    def fields(self) -> List[str]: ...
    @property
    def site(self) -> str: ...
    @property
    def is_used(self) -> bool: ...
    def to_json(self) -> str: ...
    @staticmethod
    def from_json(text: str) -> "Template": ...
