#!/usr/bin/env python3
"""Write pages.jsonl: the selected dev pages as {"id","set","file_id","url","html"} lines.

Selection (fixed): all of fundus-dev; the first 40 of newspaper-dev by sorted file_id; the first
60 of wcxb-dev whose ground truth page_type is "article", by sorted file_id.
Decoding: UTF-8 (BOM honoured) if it decodes strictly, else the charset the page's <meta>
declares (first 4 KiB), else cp1252 with replacement. The same str goes to both tools.
"""
import codecs, glob, gzip, json, os, re, sys

CORPUS = os.environ.get("CORPUS", os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../../shared/corpus"))


def read_bytes(path):
    with open(path, "rb") as f:
        data = f.read()
    if data[:2] == b"\x1f\x8b":
        data = gzip.decompress(data)
    return data


META_CHARSET = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_\-:.]+)""", re.I)


def decode(data):
    if data.startswith(codecs.BOM_UTF8):
        return data[3:].decode("utf-8", "replace"), "utf-8-bom"
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        pass
    m = META_CHARSET.search(data[:4096])
    if m:
        label = m.group(1).decode("ascii", "ignore").lower()
        label = {"gb2312": "gb18030", "gbk": "gb18030", "iso-8859-1": "cp1252",
                 "latin1": "cp1252", "x-sjis": "shift_jis"}.get(label, label)
        try:
            return data.decode(label, "replace"), label
        except LookupError:
            pass
    return data.decode("cp1252", "replace"), "cp1252-fallback"


def html_path(s, fid):
    for ext in (".html.gz", ".html", ".htm.gz", ".htm"):
        p = f"{CORPUS}/{s}/html/{fid}{ext}"
        if os.path.exists(p):
            return p
    raise FileNotFoundError(f"{s}/{fid}")


def gt(s, fid):
    with open(f"{CORPUS}/{s}/ground-truth/{fid}.json", encoding="utf-8") as f:
        return json.load(f)


def selection():
    out = []
    ids = lambda s: sorted(os.path.basename(p)[:-5] for p in glob.glob(f"{CORPUS}/{s}/ground-truth/*.json"))
    out += [("fundus-dev", f) for f in ids("fundus-dev")]
    out += [("newspaper-dev", f) for f in ids("newspaper-dev")[:40]]
    arts = [f for f in ids("wcxb-dev") if gt("wcxb-dev", f).get("page_type") == "article"]
    out += [("wcxb-dev", f) for f in arts[:60]]
    return out


def main(dest):
    n = 0
    with open(dest, "w", encoding="utf-8") as w:
        for s, fid in selection():
            g = gt(s, fid)
            html, cs = decode(read_bytes(html_path(s, fid)))
            w.write(json.dumps({"id": f"{s}/{fid}", "set": s, "file_id": fid, "url": g["url"],
                                "decoded_as": cs, "html": html}, ensure_ascii=False) + "\n")
            n += 1
    print(f"pages: {n} -> {dest}", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "pages.jsonl")
