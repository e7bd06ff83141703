"""Builds a retrieval dev collection from ../shared/corpus and an ingest of its pages.

    python dev_queries.py CORPUS INGEST OUT

CORPUS is ../shared/corpus (its sets' html/ and ground-truth/ folders), INGEST the output
folder of `docview ingest CORPUS/*/html`, OUT a folder for topics.jsonl and qrels.txt.

Two kinds of topics, each judged on the ingest's own records (document ids: their
identifiers):

- known-item: each page whose reference title has at least 3 words (4 characters in Chinese)
  and that the ingest kept (not a replica) is a topic of its reference title, the page its one
  relevant document (grade 2);
- section: each declared section (a record's metadata categories: article:section, JSON-LD
  articleSection) that at least 3 kept pages of one site declare is a topic of the section's
  name, those pages relevant (grade 1). Distant labels: other pages on the subject are not
  judged (Judged@10 says how much that matters).

Deterministic: topics in set, page and section order.
"""

import json
import os
import re
import sys
from collections import defaultdict
from urllib.parse import urlparse

HAN = re.compile(r"[\u4e00-\u9fff]")


def enough(title):
    if HAN.search(title):
        return len(HAN.findall(title)) >= 4
    return len(title.split()) >= 3


def main(corpus, ingest, out):
    records = {}
    for line in open(os.path.join(ingest, "docviews.jsonl"), encoding="utf-8"):
        r = json.loads(line)
        records[os.path.normpath(r["origin"])] = r
    os.makedirs(out, exist_ok=True)
    topics, qrels = [], []
    sections = defaultdict(list)
    for name in sorted(os.listdir(corpus)):
        truth = os.path.join(corpus, name, "ground-truth")
        if not os.path.isdir(truth):
            continue
        for f in sorted(os.listdir(truth)):
            page = f[: -len(".json")]
            origin = os.path.normpath(os.path.join(corpus, name, "html", page + ".html.gz"))
            r = records.get(origin)
            if r is None:
                continue
            gt = json.load(open(os.path.join(truth, f), encoding="utf-8"))
            title = ((gt.get("ground_truth") or {}).get("title") or "").strip()
            if title and enough(title):
                qid = f"ki-{name}-{page}"
                topics.append({"qid": qid, "query": title})
                qrels.append(f"{qid} 0 {r['identifier']} 2")
            cats = ((r.get("metadata") or {}).get("categories") or {}).get("values") or []
            host = urlparse(r["identifier"]).netloc or os.path.dirname(origin)
            for c in cats:
                c = c.strip()
                if c:
                    sections[(host, c)].append(r["identifier"])
    n = 0
    for (host, section), pages in sorted(sections.items()):
        if len(pages) < 3:
            continue
        n += 1
        qid = f"sec-{n}"
        topics.append({"qid": qid, "query": section})
        qrels.extend(f"{qid} 0 {p} 1" for p in sorted(set(pages)))
    with open(os.path.join(out, "topics.jsonl"), "w", encoding="utf-8") as t:
        for topic in topics:
            t.write(json.dumps(topic, ensure_ascii=False) + "\n")
    with open(os.path.join(out, "qrels.txt"), "w", encoding="utf-8") as q:
        q.write("\n".join(qrels) + "\n")
    print(f"{len(topics) - n} known-item topics, {n} section topics, {len(qrels)} judgments")


if __name__ == "__main__":
    main(*sys.argv[1:])
