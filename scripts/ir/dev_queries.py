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
  judged (Judged@10 says how much that matters);
- content (known-item, words of the body): for each kept page whose reference main content
  has at least 40 words (200 characters in Chinese), a topic of 3 words drawn from that
  content as a searcher remembering the page would (after Azzopardi, de Rijke and Balog,
  2007: each word drawn with probability proportional to its tf-idf in the reference, idf over
  all the references), leaving out stop words and words under 3 letters (the title's words
  may be drawn: they are the page's words too); Chinese pages draw 3 words of
  two characters or more of their Han text as jieba cuts it (PyPI's `jieba`, needed for
  them). The page is its one relevant document (grade 2).

Besides topics.jsonl (the known-item and section topics) it writes two halves of the
known-item and content topics, the pages' sites split by a hash of their host: dev.jsonl, for
choosing the DocView index's field weights, and test.jsonl, for reporting them on other
sites.

Deterministic: topics in set, page and section order; each content topic's draw seeded by its
page.
"""

import hashlib
import json
import math
import os
import random
import re
import sys
from collections import Counter, defaultdict
from urllib.parse import urlparse

HAN = re.compile(r"[\u4e00-\u9fff]")
HAN_RUN = re.compile(r"[\u4e00-\u9fff]+")
WORD = re.compile(r"[^\W\d_]{3,}")
STOP = set(
    """about above after again against all also among and any are because been before being
    below between both but can could did does doing down during each few for from further had
    has have having her here hers herself him himself his how into its itself just more most
    much must nor not now off once only other our ours out over own same she should some such
    than that the their theirs them then there these they this those through too under until
    very was were what when where which while who whom why will with would you your yours
    der die das und den dem des ein eine einer eines ist sich mit von auf für nicht als auch
    les des une pour dans par sur est qui que aux avec sont pas plus""".split()
)
WORDS_PER_TOPIC = 3


def content_terms(text):
    """The terms a content topic is drawn from: jieba's words of a Chinese text (two
    characters or more), or words."""
    if len(HAN.findall(text)) * 2 > len(text.replace(" ", "")):
        import jieba

        words = []
        for run in HAN_RUN.findall(text):
            words.extend(w for w in jieba.lcut(run) if len(w) >= 2)
        return words, True
    return [w.lower() for w in WORD.findall(text)], False


def draw_topic(terms, df, pages, seed):
    """WORDS_PER_TOPIC distinct terms drawn by tf-idf, or None when too few qualify."""
    tf = Counter(t for t in terms if t not in STOP)
    if len(tf) < WORDS_PER_TOPIC * 3:
        return None
    items = sorted(tf.items())
    weights = [n * math.log(pages / df[t]) for t, n in items]
    rng = random.Random(seed)
    chosen = []
    while len(chosen) < WORDS_PER_TOPIC and any(w > 0 for w in weights):
        i = rng.choices(range(len(items)), weights=weights)[0]
        chosen.append(items[i][0])
        weights[i] = 0.0
    return chosen if len(chosen) == WORDS_PER_TOPIC else None


def half(host):
    """dev or test, by a hash of the page's host (a saved file's folder)."""
    return "dev" if hashlib.sha1(host.encode()).digest()[0] % 2 == 0 else "test"


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
    contents = []
    halves = {"dev": [], "test": []}
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
            host = urlparse(r["identifier"]).netloc or os.path.dirname(origin)
            if title and enough(title):
                qid = f"ki-{name}-{page}"
                topics.append({"qid": qid, "query": title})
                halves[half(host)].append({"qid": qid, "query": title})
                qrels.append(f"{qid} 0 {r['identifier']} 2")
            cats = ((r.get("metadata") or {}).get("categories") or {}).get("values") or []
            body = ((gt.get("ground_truth") or {}).get("main_content") or "").strip()
            terms, han = content_terms(body)
            if len(terms) >= (200 if han else 40):
                contents.append((f"ct-{name}-{page}", host, terms, r["identifier"]))
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
    df = Counter()
    for _, _, terms, _ in contents:
        df.update(set(terms))
    content_topics = 0
    for qid, host, terms, identifier in contents:
        words = draw_topic(terms, df, len(contents), qid)
        if words is None:
            continue
        halves[half(host)].append({"qid": qid, "query": " ".join(words)})
        qrels.append(f"{qid} 0 {identifier} 2")
        content_topics += 1
    for name, half_topics in halves.items():
        with open(os.path.join(out, f"{name}.jsonl"), "w", encoding="utf-8") as t:
            for topic in half_topics:
                t.write(json.dumps(topic, ensure_ascii=False) + "\n")
    with open(os.path.join(out, "topics.jsonl"), "w", encoding="utf-8") as t:
        for topic in topics:
            t.write(json.dumps(topic, ensure_ascii=False) + "\n")
    with open(os.path.join(out, "qrels.txt"), "w", encoding="utf-8") as q:
        q.write("\n".join(qrels) + "\n")
    print(
        f"{len(topics) - n} known-item topics, {n} section topics, "
        f"{content_topics} content topics; dev.jsonl {len(halves['dev'])} and test.jsonl "
        f"{len(halves['test'])} known-item and content topics; {len(qrels)} judgments"
    )


if __name__ == "__main__":
    main(*sys.argv[1:])
