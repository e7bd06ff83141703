#!/usr/bin/env python3
"""Run trafilatura's metadata on pages.jsonl -> traf.jsonl (one line per page, input order).

bare_extraction(html, url=url, with_metadata=True, as_dict=True), each page in a worker process
with a time limit (TRAF_TIMEOUT seconds, default 60). A failure, a time-out or a None result gives
all fields null, with "error" saying why.
"""
import json, multiprocessing as mp, os, signal, sys, warnings
warnings.filterwarnings("ignore", category=DeprecationWarning)

FIELDS = ["title", "author", "date", "sitename", "description", "image", "categories", "tags"]
TIMEOUT = int(os.environ.get("TRAF_TIMEOUT", "60"))


class Timeout(Exception):
    pass


def _alarm(signum, frame):
    raise Timeout()


def one(args):
    pid, url, html = args
    signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(TIMEOUT)
    try:
        import trafilatura
        doc = trafilatura.bare_extraction(html, url=url, with_metadata=True, as_dict=True)
        signal.alarm(0)
        if doc is None:
            return {"id": pid, "error": "bare_extraction returned None", **{f: None for f in FIELDS}}
        if not isinstance(doc, dict):  # a Document
            doc = {f: getattr(doc, f, None) for f in FIELDS}
        return {"id": pid, "error": None, **{f: doc.get(f) for f in FIELDS}}
    except Timeout:
        return {"id": pid, "error": f"timeout {TIMEOUT}s", **{f: None for f in FIELDS}}
    except Exception as e:  # noqa
        signal.alarm(0)
        return {"id": pid, "error": "exception: " + repr(e)[:300], **{f: None for f in FIELDS}}


def pages(path):
    with open(path, encoding="utf-8") as f:
        for line in f:
            d = json.loads(line)
            yield d["id"], d["url"], d["html"]


def main(src, dest):
    import trafilatura
    n = int(os.environ.get("TRAF_PROCS", "2"))
    with mp.Pool(n, maxtasksperchild=20) as pool, open(dest + ".tmp", "w", encoding="utf-8") as w:
        for r in pool.imap(one, pages(src), chunksize=1):
            r["trafilatura_version"] = trafilatura.__version__
            w.write(json.dumps(r, ensure_ascii=False, default=str) + "\n")
    os.replace(dest + ".tmp", dest)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "pages.jsonl", sys.argv[2] if len(sys.argv) > 2 else "traf.jsonl")
