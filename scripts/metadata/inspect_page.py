#!/usr/bin/env python3
"""Show what a page says about its title, author, date and site: a tool for judging cases.

usage: inspect_page.py SET/FILE_ID [FIELD ...] [--grep TEXT ...]
Prints <title>, og/twitter/meta declarations, JSON-LD fields, h1s, byline-like elements,
<time> elements, the reference evidence, and the values of both tools (from fields.csv).
"""
import csv, json, re, sys
from lxml import html as LH

PAGES = {}


def page(pid):
    if not PAGES:
        for line in open("pages.jsonl", encoding="utf-8"):
            d = json.loads(line)
            PAGES[d["id"]] = d
    return PAGES[pid]


def short(s, n=160):
    s = re.sub(r"\s+", " ", s or "").strip()
    return s if len(s) <= n else s[:n] + "…"


def jsonld_items(doc):
    out = []
    for s in doc.xpath('//script[contains(translate(@type,"LDJSON","ldjson"),"ld+json")]'):
        txt = s.text_content().strip()
        try:
            v = json.loads(txt)
        except Exception:
            try:
                v = json.loads(re.sub(r"[\x00-\x1f]", " ", txt))
            except Exception:
                out.append(("<unparsed json-ld>", short(txt, 200)))
                continue
        stack = [v]
        while stack:
            x = stack.pop()
            if isinstance(x, list):
                stack.extend(reversed(x))
            elif isinstance(x, dict):
                t = x.get("@type")
                for k in ("headline", "name", "author", "creator", "datePublished", "dateCreated",
                          "dateModified", "publisher", "articleSection", "keywords"):
                    if k in x:
                        val = x[k]
                        if isinstance(val, (dict, list)):
                            val = json.dumps(val, ensure_ascii=False)
                        out.append((f"{t}.{k}", short(str(val), 220)))
                for k in ("@graph", "mainEntity", "itemListElement", "mainEntityOfPage"):
                    if k in x:
                        stack.append(x[k])
    return out


def main():
    args = sys.argv[1:]
    greps = []
    if "--grep" in args:
        i = args.index("--grep")
        greps = args[i + 1:]
        args = args[:i]
    pid = args[0]
    fields = set(args[1:]) or {"title", "author", "date", "site_name"}
    p = page(pid)
    h = p["html"]
    doc = LH.fromstring(h.encode("utf-8"), parser=LH.HTMLParser(encoding="utf-8"))
    print(f"=== {pid}  {p['url']}")
    for r in csv.DictReader(open("fields.csv", encoding="utf-8")):
        if f"{r['set']}/{r['file_id']}" == pid and r["field"] in fields:
            print(f"  [{r['field']}] {r['status']} dv={short(r['docview_value'],120)!r} ({r['docview_source']}) "
                  f"traf={short(r['trafilatura_value'],120)!r}  REF={short(r['evidence'],120)!r}")
    if "title" in fields:
        print("  <title>:", short("".join(doc.xpath("//title[1]//text()"))))
        for h1 in doc.xpath("//h1")[:3]:
            print("  h1:", short(h1.text_content(), 160))
    metas = []
    for m in doc.xpath("//meta"):
        k = (m.get("property") or m.get("name") or m.get("itemprop") or "").lower()
        v = m.get("content") or ""
        want = []
        if "title" in fields: want += ["og:title", "twitter:title", "title", "headline"]
        if "author" in fields: want += ["author", "article:author", "byl", "dc.creator", "parsely-author", "sailthru.author", "twitter:creator", "citation_author", "dcterms.creator", "cxenseparse:author", "twitter:data1", "twitter:label1"]
        if "date" in fields: want += ["date", "article:published_time", "article:modified_time", "og:updated_time", "pubdate", "publishdate", "publish-date", "dc.date", "dc.date.issued", "dcterms.issued", "dcterms.created", "datepublished", "datemodified", "parsely-pub-date", "sailthru.date", "last-modified", "article:published", "date.available", "og:published_time", "published_time", "dcterms.modified", "citation_publication_date", "timestamp"]
        if "site_name" in fields: want += ["og:site_name", "application-name", "publisher", "twitter:site", "apple-mobile-web-app-title", "copyright"]
        if "description" in fields: want += ["description", "og:description", "twitter:description"]
        if "image" in fields: want += ["og:image", "twitter:image", "image", "thumbnail"]
        if "categories" in fields or "tags" in fields: want += ["keywords", "news_keywords", "article:section", "article:tag", "section", "category"]
        if k in want or (m.get("itemprop") or "").lower() in want:
            metas.append(f"{k}={short(v, 140)!r}" + (" (itemprop)" if m.get("itemprop") else ""))
    for x in metas[:30]:
        print("  meta", x)
    jl = jsonld_items(doc)
    keep = {"title": ("headline", "name"), "author": ("author", "creator"), "date": ("datePublished", "dateCreated", "dateModified"),
            "site_name": ("publisher", "name"), "categories": ("articleSection", "keywords"), "tags": ("keywords",)}
    ks = set()
    for f in fields:
        ks |= set(keep.get(f, ()))
    for k, v in jl:
        if k.split(".")[-1] in ks or k.startswith("<"):
            print("  ld", k, "=", v)
    if "author" in fields:
        seen = 0
        for el in doc.xpath('//*[@rel="author" or contains(translate(@class,"AUTHORBYLINE","authorbyline"),"author") or contains(translate(@class,"AUTHORBYLINE","authorbyline"),"byline") or contains(@itemprop,"author")]'):
            t = short(el.text_content(), 120)
            if t and seen < 6:
                print(f"  byline <{el.tag} class={short(el.get('class') or '',40)!r} rel={el.get('rel')} itemprop={el.get('itemprop')}>: {t!r}")
                seen += 1
    if "date" in fields:
        for el in doc.xpath("//time")[:6]:
            anc = el.getparent()
            cls = anc.get("class") if anc is not None else ""
            print(f"  <time datetime={el.get('datetime')!r} class={el.get('class')!r} parent.class={short(cls or '',40)!r}>: {short(el.text_content(),60)!r}")
        for el in doc.xpath('//*[@itemprop="datePublished" or @itemprop="dateModified"]')[:4]:
            print(f"  itemprop {el.get('itemprop')} <{el.tag}> content={el.get('content')!r} datetime={el.get('datetime')!r} text={short(el.text_content(),60)!r}")
    for g in greps:
        for m in list(re.finditer(re.escape(g), h, re.I))[:4]:
            print(f"  grep {g!r}@{m.start()}: {short(h[max(0, m.start()-150):m.end()+150], 400)!r}")


if __name__ == "__main__":
    main()
