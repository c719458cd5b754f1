"""The Python package against the installed wheel: records equal the CLI's,
threads change nothing, bad input raises a clear exception, an interrupt
stops extract_many. Run by .ci/run: pytest tests/python, with TRAWL_BIN (the
CLI) and the datasets in ../shared (skipped without them, failed under
TRAWL_REQUIRE_ALL=1)."""

import gzip
import json
import pathlib
import subprocess

import pytest

import trawl

from helpers import BIN, ROOT, SHARED, need

DATASET = SHARED / "wcxb-dev"


def sample(step=25):
    need(DATASET.is_dir(), f"{DATASET} not found (../shared/datasets)")
    pages = []
    for gt in sorted((DATASET / "ground-truth").glob("*.json"))[::step]:
        url = json.loads(gt.read_text())["url"]
        path = DATASET / "html" / (gt.stem + ".html.gz")
        pages.append((path, url))
    return pages


def test_the_wheel_is_what_is_imported():
    assert not str(pathlib.Path(trawl.__file__).resolve()).startswith(str(ROOT / "crates"))
    assert trawl.__version__.count(".") == 2


def test_records_equal_the_cli_records():
    need(BIN.is_file(), f"{BIN} not built (cargo build --release)")
    pages = sample()
    assert len(pages) >= 50
    for path, url in pages:
        out = subprocess.run(
            [str(BIN), "extract", "--format", "json", "--url", url, str(path)],
            capture_output=True, check=True,
        )
        cli = json.loads(out.stdout)
        cli.pop("source")
        got = trawl.extract(gzip.decompress(path.read_bytes()), url)
        assert got == cli, path


def test_threads_give_the_same_records_as_one():
    pages = [(gzip.decompress(p.read_bytes()), u) for p, u in sample(step=10)]
    one = [trawl.extract(h, u) for h, u in pages]
    assert list(trawl.extract_many(pages, threads=1)) == one
    assert list(trawl.extract_many(iter(pages), threads=4)) == one
    dicts = ({"html": h, "url": u} for h, u in pages)
    assert list(trawl.extract_many(dicts)) == one


def test_a_str_is_taken_as_decoded():
    html = "<html><head><meta charset='iso-8859-1'><title>Café</title></head><body><p>Crème brûlée</p></body></html>"
    rec = trawl.extract(html)
    assert rec["title"] == "Café"
    assert "Crème brûlée" in rec["text"]
    assert trawl.extract(html.encode("latin-1"))["title"] == "Café"


@pytest.mark.parametrize("bad", [None, 5, 3.5, ["<p>"], object()])
def test_input_that_is_not_a_page_is_a_type_error(bad):
    with pytest.raises(TypeError, match="str or bytes"):
        trawl.extract(bad)
    with pytest.raises(TypeError):
        list(trawl.extract_many([bad]))


def test_bad_settings_name_themselves():
    with pytest.raises(ValueError, match="algorithm"):
        trawl.extract("<p>x</p>", algorithm="nope")
    with pytest.raises(ValueError, match="max_bytes"):
        trawl.extract("<p>x</p>", max_bytes=1)
    with pytest.raises(ValueError, match="threads"):
        trawl.extract_many([], threads=0)
    with pytest.raises(ValueError):
        trawl.extract("<p>x</p>", charset="no-such-charset")


def test_huge_deep_and_broken_pages_end_cleanly():
    huge = "<div>" * (50 * 1024 * 1024 // 5)
    with pytest.raises(trawl.ExtractError):
        trawl.extract(huge)
    # Past max_depth and invalid UTF-8: a record, not a crash.
    rec = trawl.extract(b"<html><body><p>caf\xe9 \xff\xfe ok</p></body></html>")
    assert "ok" in rec["text"]
    deep = "<div>" * 100_000 + "<p>deep words here</p>"
    assert isinstance(trawl.extract(deep), dict)


def test_an_interrupt_stops_extract_many():
    def pages():
        for i in range(100):
            yield f"<p>page {i}</p>"
        raise KeyboardInterrupt

    it = trawl.extract_many(pages(), threads=2)
    with pytest.raises(KeyboardInterrupt):
        for _ in it:
            pass


def test_extract_many_streams():
    seen = []

    def pages():
        for i in range(10_000):
            seen.append(i)
            yield f"<p>page {i}</p>"

    it = trawl.extract_many(pages(), threads=2)
    first = next(it)
    assert "page 0" in first["text"]
    assert len(seen) < 10_000, "reads a batch, not the whole input"


def test_html_to_markdown_converts_the_whole_document():
    html = "<h2>Steps</h2><ol><li>Mix</li><li>Bake</li></ol><p><a href='/faq'>FAQ</a></p>"
    md = trawl.html_to_markdown(html, "https://ex.test/a/")
    assert md.startswith("# Steps\n\n1. Mix\n2. Bake"), md
    assert "[FAQ](https://ex.test/faq)" in md
    with pytest.raises(TypeError):
        trawl.html_to_markdown(None)
