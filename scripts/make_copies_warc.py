#!/usr/bin/env python3
"""Builds a WARC.gz of many copies of real pages, for the same-host replica scenario of issue 10.

Usage: make_copies_warc.py SET_DIR OUT.warc.gz [--same-host N] [--mirrors N]

SET_DIR is a labelled set of ../shared/corpus (html/<id>.html.gz and ground-truth/<id>.json with
the page's URL; a page without one gets http://unknown-<id>.example/). Each page is written once at its own URL, then N copies on its own host (URL
variants: tracking parameters, ?print=1, /amp, ?page=1, as crawls meet them) and N copies on
mirror hosts (mirror<k>.example, 500 of them, shared by all pages), every copy with one
sentence of its own appended to the body ("Update <i>: ..."). The records are interleaved
page by page (page 0 and its copies, then page 1, ...), so each host's first pages, those its
template is learnt from, hold several copies of one page. Ids and dates are derived from the
URL and index: the same input gives the same bytes.

With dragnet-dev (636 pages) and the defaults (40 + 40), it writes 51,516 records (3.9 GB of
HTML). A correct ingest keeps one page per distinct content: every copy is a replica.
"""
import argparse
import gzip
import hashlib
import json
import os
import sys
from urllib.parse import urlsplit, urlunsplit

VARIANTS = ["?utm_source=feed{i}", "?print=1&v={i}", "/amp{i}", "?page=1&ref={i}"]


def record(url, body, index):
    payload = (
        b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: "
        + str(len(body)).encode()
        + b"\r\n\r\n"
        + body
    )
    rid = hashlib.sha1(f"{index} {url}".encode()).hexdigest()
    head = (
        "WARC/1.1\r\n"
        "WARC-Type: response\r\n"
        f"WARC-Record-ID: <urn:uuid:{rid[:8]}-{rid[8:12]}-{rid[12:16]}-{rid[16:20]}-{rid[20:32]}>\r\n"
        "WARC-Date: 2026-11-24T00:00:00Z\r\n"
        f"WARC-Target-URI: {url}\r\n"
        "Content-Type: application/http; msgtype=response\r\n"
        f"Content-Length: {len(payload)}\r\n\r\n"
    ).encode()
    return gzip.compress(head + payload + b"\r\n\r\n", compresslevel=1, mtime=0)


def with_sentence(html, i):
    sentence = f"<p>Update {i}: this copy was crawled again on day {i} of the test run.</p>".encode()
    at = html.rfind(b"</body>")
    if at < 0:
        return html + sentence
    return html[:at] + sentence + html[at:]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("set_dir")
    ap.add_argument("out")
    ap.add_argument("--same-host", type=int, default=40)
    ap.add_argument("--mirrors", type=int, default=40)
    args = ap.parse_args()
    gt_dir = os.path.join(args.set_dir, "ground-truth")
    ids = sorted(f[:-5] for f in os.listdir(gt_dir) if f.endswith(".json"))
    tmp = args.out + ".part"
    n = 0
    html_bytes = 0
    with open(tmp, "wb") as out:
        for p, page_id in enumerate(ids):
            with open(os.path.join(gt_dir, page_id + ".json"), encoding="utf-8") as f:
                url = json.load(f)["url"] or f"http://unknown-{page_id}.example/"
            with gzip.open(os.path.join(args.set_dir, "html", page_id + ".html.gz")) as f:
                html = f.read()
            parts = urlsplit(url)
            copies = [(url, html)]
            for i in range(args.same_host):
                variant = VARIANTS[i % len(VARIANTS)].format(i=i)
                if variant.startswith("/"):
                    u = urlunsplit((parts.scheme, parts.netloc, parts.path.rstrip("/") + variant, "", ""))
                else:
                    u = urlunsplit((parts.scheme, parts.netloc, parts.path, variant[1:], ""))
                copies.append((u, with_sentence(html, i)))
            for i in range(args.mirrors):
                host = f"mirror{(p * 7 + i) % 500}.example"
                u = urlunsplit(("http", host, f"/{page_id}" + parts.path, parts.query, ""))
                copies.append((u, with_sentence(html, args.same_host + i)))
            for u, body in copies:
                out.write(record(u, body, n))
                n += 1
                html_bytes += len(body)
    os.replace(tmp, args.out)
    print(f"{args.out}: {n} records, {html_bytes / 1e9:.2f} GB of HTML, {len(ids)} distinct pages",
          file=sys.stderr)


if __name__ == "__main__":
    main()
