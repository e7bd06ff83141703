#!/usr/bin/env python3
"""Packs every page of sites/**/*.html into warc/corpus-samples.warc.gz.

WARC/1.1, one gzip member per record (gzip mtime 0), a warcinfo record first, then one
response record per page in sorted path order: URL http://<site-dir>.example/<path under the
site dir>, HTTP/1.1 200 with Content-Type text/html and the charset the page's bytes are really
in (the <meta> charset, or utf-8 when the bytes are valid UTF-8 with non-ASCII characters, as in
lanting-news/old-street.html). Dates and record ids are fixed (ids derived from the URL), so the
output is the same bytes on every run with the same zlib. Standard library only.

Usage: python3 corpus-samples/make_warc.py
"""

import base64
import gzip
import json
import hashlib
import re
import uuid
from pathlib import Path

HERE = Path(__file__).resolve().parent
SITES = HERE / "sites"
OUT = HERE / "warc" / "corpus-samples.warc.gz"
DATE = "2024-01-01T00:00:00Z"
META_CHARSET = re.compile(rb"""charset\s*=\s*["']?([A-Za-z0-9_.:-]+)""", re.I)


def record_id(name):
    return f"<urn:uuid:{uuid.uuid5(uuid.NAMESPACE_URL, name)}>"


def sha1(data):
    return "sha1:" + base64.b32encode(hashlib.sha1(data).digest()).decode("ascii")


def charset_of(page):
    """The charset the page's bytes are really in."""
    try:
        text = page.decode("utf-8")
        if not text.isascii():
            return "utf-8"
    except UnicodeDecodeError:
        pass
    found = META_CHARSET.search(page[:4096])
    if not found:
        raise SystemExit("no charset declared in a non-UTF-8 page")
    return found.group(1).decode("ascii").lower()


def record(fields, block):
    head = "WARC/1.1\r\n" + "".join(f"{name}: {value}\r\n" for name, value in fields)
    head += f"Content-Length: {len(block)}\r\n\r\n"
    data = head.encode("utf-8") + block + b"\r\n\r\n"
    return gzip.compress(data, compresslevel=9, mtime=0)


def warcinfo(count):
    block = (
        "software: corpus-samples/make_warc.py\r\n"
        "format: WARC File Format 1.1\r\n"
        f"description: the {count} pages of corpus-samples/sites, invented for docview (CC0)\r\n"
    ).encode("utf-8")
    return record(
        [
            ("WARC-Type", "warcinfo"),
            ("WARC-Date", DATE),
            ("WARC-Filename", OUT.name),
            ("WARC-Record-ID", record_id("warcinfo:" + OUT.name)),
            ("Content-Type", "application/warc-fields"),
        ],
        block,
    )


def response(url, page):
    head = (
        "HTTP/1.1 200 OK\r\n"
        f"Content-Type: text/html; charset={charset_of(page)}\r\n"
        f"Content-Length: {len(page)}\r\n\r\n"
    ).encode("ascii")
    block = head + page
    return record(
        [
            ("WARC-Type", "response"),
            ("WARC-Date", DATE),
            ("WARC-Record-ID", record_id(url)),
            ("WARC-Target-URI", url),
            ("WARC-Block-Digest", sha1(block)),
            ("WARC-Payload-Digest", sha1(page)),
            ("Content-Type", "application/http; msgtype=response"),
        ],
        block,
    )


def page_urls():
    """The invented URL of each page, from pages.json, by its path under corpus-samples/."""
    listed = json.loads((HERE / "pages.json").read_text(encoding="utf-8"))["pages"]
    return {page["file"]: page["url"] for page in listed}


def main():
    pages = sorted(SITES.rglob("*.html"))
    urls = page_urls()
    members = [warcinfo(len(pages))]
    for path in pages:
        rel = path.relative_to(HERE).as_posix()
        site, *rest = path.relative_to(SITES).parts
        url = urls.get(rel, f"http://{site}.example/{'/'.join(rest)}")
        members.append(response(url, path.read_bytes()))
    OUT.parent.mkdir(exist_ok=True)
    OUT.write_bytes(b"".join(members))
    print(f"{OUT.relative_to(HERE.parent)}: {len(pages)} pages, {OUT.stat().st_size} bytes")


if __name__ == "__main__":
    main()
