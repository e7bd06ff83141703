#!/usr/bin/env python3
"""Build corpus-samples/labelled/ from corpus-samples/sites/ and pages.json.

labelled/ uses the layout of the evaluation corpora in /work/shared/corpus:

    labelled/html/<id>.html.gz          gzip of the page bytes exactly as in sites/ (charset untouched)
    labelled/ground-truth/<id>.json     {"schema_version", "url", "file_id",
                                         "ground_truth": {"title", "author", "publish_date",
                                                          "main_content", "with", "without"},
                                         "page_type"}

pages.json holds, per page, the site file, an invented URL, the page type and the
human reference: main content as a list of paragraphs (joined here with blank
lines), 3-5 `with` snippets from the main content and 3-5 `without` snippets of
boilerplate on that page.

Before writing, every page is checked: tags balance, the bytes decode (declared
non-ASCII bytes that are valid UTF-8 are taken as UTF-8 whatever the page
declares, otherwise the declared charset, with iso-8859-1 read as windows-1252
and gb2312 as GBK as browsers do), each main-content paragraph occurs in the
page's text, each `with` snippet occurs in the main content, and each `without`
snippet occurs in the page but not in the main content (ignoring case). Any
failure stops the build.

Usage:  python3 make_labelled.py            # check and (re)write labelled/
        python3 make_labelled.py --check    # check only
Output is byte-stable: gzip is written with mtime 0 and no file name.
"""
import gzip
import html
import json
import os
import re
import sys
from html.parser import HTMLParser

HERE = os.path.dirname(os.path.abspath(__file__))
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
        "param", "source", "track", "wbr"}
# WHATWG: these labels decode as windows-1252 / GBK.
CHARSET_ALIASES = {"iso-8859-1": "cp1252", "latin1": "cp1252", "latin-1": "cp1252",
                   "us-ascii": "cp1252", "gb2312": "gbk", "gb_2312-80": "gbk"}


def declared_charset(data):
    m = re.search(rb'<meta[^>]+charset=["\']?([A-Za-z0-9_\-]+)', data[:2048], re.I)
    return m.group(1).decode("ascii").lower() if m else None


def decode_page(data):
    """Return (text, declared, used)."""
    declared = declared_charset(data) or "utf-8"
    codec = CHARSET_ALIASES.get(declared, declared)
    # Declarations lie: non-ASCII bytes that are valid UTF-8 are taken as UTF-8.
    if codec != "utf-8" and re.search(rb"[\x80-\xff]", data):
        try:
            return data.decode("utf-8"), declared, "utf-8"
        except UnicodeDecodeError:
            pass
    return data.decode(codec), declared, codec


class PageText(HTMLParser):
    """Text of a page (scripts and styles left out, alt texts kept) and a tag-balance check."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts, self.stack, self.errors, self.skip = [], [], [], 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self.skip += 1
        if tag == "img":
            alt = dict(attrs).get("alt")
            if alt:
                self.parts.append(" " + alt + " ")
        if tag not in VOID:
            self.stack.append((tag, self.getpos()))
        self.parts.append(" ")

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.stack.pop()

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self.skip -= 1
        if tag in VOID:
            return
        if not self.stack or self.stack[-1][0] != tag:
            open_tag = self.stack[-1] if self.stack else None
            self.errors.append("</%s> at %s closes %s" % (tag, self.getpos(), open_tag))
            for i in range(len(self.stack) - 1, -1, -1):
                if self.stack[i][0] == tag:
                    del self.stack[i:]
                    break
        else:
            self.stack.pop()
        self.parts.append(" ")

    def handle_data(self, data):
        if not self.skip:
            self.parts.append(data)

    def result(self):
        for tag, pos in self.stack:
            self.errors.append("<%s> at %s never closed" % (tag, pos))
        return "".join(self.parts)


def norm(s):
    return re.sub(r"[\s\u3000\xa0]+", " ", s).strip()


def page_text(text):
    p = PageText()
    p.feed(text)
    p.close()
    return norm(html.unescape(p.result())), p.errors


def check(entry, data):
    problems = []
    text, declared, used = decode_page(data)
    ptext, errors = page_text(text)
    problems += ["tags: " + e for e in errors]
    main = "\n\n".join(entry["main_content"])
    for para in entry["main_content"]:
        if norm(para) not in ptext:
            problems.append("main paragraph not in page: %r" % para[:60])
    if not 3 <= len(entry["with"]) <= 5 or not 3 <= len(entry["without"]) <= 5:
        problems.append("need 3-5 with and 3-5 without snippets")
    for s in entry["with"]:
        if s not in main:
            problems.append("with snippet not in main content: %r" % s)
    for s in entry["without"]:
        if s not in ptext:
            problems.append("without snippet not in page: %r" % s)
        if norm(s).lower() in norm(main).lower():
            problems.append("without snippet inside main content: %r" % s)
    return problems, declared, used


def main():
    check_only = "--check" in sys.argv[1:]
    with open(os.path.join(HERE, "pages.json"), encoding="utf-8") as f:
        pages = json.load(f)["pages"]
    failed = False
    for e in pages:
        with open(os.path.join(HERE, e["file"]), "rb") as f:
            data = f.read()
        problems, declared, used = check(e, data)
        flag = "" if used == CHARSET_ALIASES.get(declared, declared) else "  (declares %s, bytes are %s)" % (declared, used)
        print("%s %-9s %6d B  %s%s" % (e["id"], e["page_type"], len(data), e["file"], flag))
        for p in problems:
            print("     !! " + p)
        failed |= bool(problems)
    if failed:
        sys.exit("check failed; labelled/ not written")
    if check_only:
        return
    out_html = os.path.join(HERE, "labelled", "html")
    out_gt = os.path.join(HERE, "labelled", "ground-truth")
    os.makedirs(out_html, exist_ok=True)
    os.makedirs(out_gt, exist_ok=True)
    keep = set()
    for e in pages:
        with open(os.path.join(HERE, e["file"]), "rb") as f:
            data = f.read()
        name = e["id"] + ".html.gz"
        keep.add(name)
        with open(os.path.join(out_html, name), "wb") as f:
            f.write(gzip.compress(data, compresslevel=9, mtime=0))
        gt = {
            "schema_version": "2.0",
            "url": e["url"],
            "file_id": e["id"],
            "ground_truth": {
                "title": e["title"],
                "author": e.get("author"),
                "publish_date": e.get("publish_date"),
                "main_content": "\n\n".join(e["main_content"]),
                "with": e["with"],
                "without": e["without"],
            },
            "page_type": e["page_type"],
        }
        name = e["id"] + ".json"
        keep.add(name)
        with open(os.path.join(out_gt, name), "w", encoding="utf-8") as f:
            json.dump(gt, f, ensure_ascii=False, indent=1)
    for d in (out_html, out_gt):
        for name in os.listdir(d):
            if name not in keep:
                os.remove(os.path.join(d, name))
    print("wrote %d pages to labelled/" % len(pages))


if __name__ == "__main__":
    main()
