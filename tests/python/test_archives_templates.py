"""read_warc / extract_warc against a WARC file written by warcio (the
reference WARC library) and against the CLI's records of that file;
Template.learn / apply / to_json on SWDE's booksamillion pages. Run by
.ci/run against the installed wheel."""

import gzip
import io
import json
import subprocess

import pytest

import trawl

from helpers import BIN, SHARED, need



def wcxb_pages(step=40):
    d = SHARED / "wcxb-dev"
    need(d.is_dir(), f"{d} not found (../shared/datasets)")
    out = []
    for gt in sorted((d / "ground-truth").glob("*.json"))[::step]:
        url = json.loads(gt.read_text())["url"]
        out.append((url, gzip.decompress((d / "html" / (gt.stem + ".html.gz")).read_bytes())))
    return out


def write_warc(path, pages):
    """A .warc.gz as Common Crawl writes it (warcio: one gzip member per
    record), with a request, a robots.txt and a 404 among the pages."""
    try:
        from warcio.statusandheaders import StatusAndHeaders
        from warcio.warcwriter import WARCWriter
    except ImportError:
        need(False, "warcio not installed in this venv (.ci/run installs it)")
    with open(path, "wb") as f:
        w = WARCWriter(f, gzip=True)

        def response(url, body, status="200 OK", ctype="text/html; charset=utf-8"):
            headers = StatusAndHeaders(status, [("Content-Type", ctype), ("X-Test", "yes")],
                                       protocol="HTTP/1.1")
            w.write_record(w.create_warc_record(url, "response", payload=io.BytesIO(body),
                                                http_headers=headers))

        req = StatusAndHeaders("GET / HTTP/1.1", [("Host", "a.test")], is_http_request=True)
        w.write_record(w.create_warc_record("http://a.test/", "request",
                                            payload=io.BytesIO(b""), http_headers=req))
        response("http://a.test/robots.txt", b"User-agent: *\nDisallow:\n", ctype="text/plain")
        response("http://a.test/gone", b"<p>gone</p>", status="404 Not Found")
        for url, body in pages:
            response(url, body, ctype="text/html")


def test_read_warc_gives_the_html_responses_with_their_headers(tmp_path):
    pages = wcxb_pages()
    path = tmp_path / "pages.warc.gz"
    write_warc(path, pages)
    got = list(trawl.read_warc(path))
    assert [(u, b) for u, b, _ in got] == pages
    assert all(h["X-Test"] == "yes" and h["Content-Type"] == "text/html" for _, _, h in got)
    assert list(trawl.read_warc(str(path))) == got


def test_extract_warc_gives_the_cli_records(tmp_path):
    need(BIN.is_file(), f"{BIN} not built (cargo build --release)")
    pages = wcxb_pages()
    path = tmp_path / "pages.warc.gz"
    write_warc(path, pages)
    out = subprocess.run([str(BIN), "extract", "--format", "json", str(path)],
                         capture_output=True, check=True)
    cli = [json.loads(line) for line in out.stdout.splitlines()]
    for rec in cli:
        rec.pop("source")
    assert len(cli) == len(pages)
    assert list(trawl.extract_warc(path, threads=1)) == cli
    assert list(trawl.extract_warc(path, threads=3)) == cli
    assert all(r["warc_offset"] > 0 and r["warc_record_id"].startswith("<urn:") for r in cli)


def test_a_truncated_warc_raises_after_the_pages_before_the_damage(tmp_path):
    pages = wcxb_pages(step=80)
    path = tmp_path / "pages.warc.gz"
    write_warc(path, pages)
    data = path.read_bytes()
    cut = tmp_path / "cut.warc.gz"
    cut.write_bytes(data[: len(data) - 3000])
    seen = []
    with pytest.raises(trawl.ArchiveError, match="offset"):
        for url, _, _ in trawl.read_warc(cut):
            seen.append(url)
    assert seen == [u for u, _ in pages[:-1]]
    assert [u for u, _, _ in trawl.read_warc(cut, errors="skip")] == seen
    records = trawl.extract_warc(cut)
    got = []
    with pytest.raises(trawl.ArchiveError):
        for rec in records:
            got.append(rec["url"])
    assert len(got) == len(pages) - 1
    assert len(list(trawl.extract_warc(cut, errors="skip"))) == len(pages) - 1


def test_bad_archives_and_settings_raise_clearly(tmp_path):
    with pytest.raises(OSError, match="cannot open"):
        trawl.read_warc(tmp_path / "missing.warc")
    junk = tmp_path / "junk.warc"
    junk.write_bytes(b"this is not a WARC file\n" * 10)
    with pytest.raises(trawl.ArchiveError, match="not a WARC record"):
        list(trawl.read_warc(junk))
    with pytest.raises(ValueError, match="errors"):
        trawl.read_warc(junk, errors="ignore")
    with pytest.raises(TypeError):
        trawl.read_warc(None)


def book_pages():
    d = SHARED / "swde-book" / "booksamillion"
    need(d.is_dir(), f"{d} not found (../shared/datasets)")
    out = []
    for i in range(60):
        html = gzip.decompress((d / f"{i:04d}.htm.gz").read_bytes())
        first = html.split(b"\n", 1)[0]
        url = first.split(b'"')[1].decode() if b"<base" in first else None
        out.append((html, url))
    return out


def isbn_truth():
    p = SHARED / "swde-book" / "groundtruth" / "book-booksamillion-isbn_13.txt"
    rows = p.read_text(encoding="utf-8-sig").splitlines()[2:]
    return {int(r.split("\t")[0]): "".join(c for c in r.split("\t")[2] if c.isdigit())
            for r in rows}


def test_a_template_learned_from_a_shop_reads_its_other_pages():
    pages = book_pages()
    t = trawl.Template.learn(pages[:8])
    assert t.site == "www.booksamillion.com"
    assert {"name", "price", "gtin"} <= set(t.fields)
    truth = isbn_truth()
    right = sum(t.apply(h, u)["values"].get("gtin") == [truth[i]]
                for i, (h, u) in enumerate(pages) if i >= 8)
    assert right >= 0.9 * (len(pages) - 8), right
    assert t.apply(*pages[30])["matched"] > 0.5
    assert t.apply("<html><body><p>another layout</p></body></html>")["matched"] < 0.3


def test_a_template_survives_json_and_bad_ones_are_refused():
    pages = book_pages()
    t = trawl.Template.learn(pages[:4], site="books")
    kept = trawl.Template.from_json(t.to_json())
    assert kept == t and kept.site == "books"
    assert kept.apply(*pages[40]) == t.apply(*pages[40])
    with pytest.raises(trawl.TemplateError, match="at least 2"):
        trawl.Template.learn(pages[:1])
    with pytest.raises(trawl.TemplateError, match="not a trawl template"):
        trawl.Template.from_json("{}")
    with pytest.raises(TypeError):
        trawl.Template.learn([None, None])
