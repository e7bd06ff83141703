#!/usr/bin/env python3
"""Compare docview's page metadata with trafilatura's, field by field.

Reads pages.jsonl (ids and URLs only), dv.jsonl, traf.jsonl, the corpus ground truth (as
evidence) and judgements.csv; writes
  fields.csv   one row per page and field: both values, status, evidence, the judgement if any
  todo.csv     the cases that need a judgement and have none (new or changed values)
  table.md     the summary table (the prose part of table.md lives in notes.md and is appended)
and prints which cases are unjudged.

Normalisation and agreement rules (also written into table.md):
  text     NFKC, casefold, every run of non-word characters -> one space, trimmed.
  title    agree when the normalised strings are equal.
  author   each side split into names on  , ; | & / and the words "and", "und"; a name is
           normalised (text rule, a leading "by"/"von" dropped) into a set of words; two names
           match when one's word set contains the other's; the sides agree when every name of
           the side with fewer names matches a name of the other side ("subset" when the other
           side has names that match nothing, "exact" otherwise).
  date     the calendar day as written (first 10 characters of docview's ISO value, trafilatura's
           YYYY-MM-DD); agree when equal.
  site_name  text rule with the spaces removed and a leading "the" dropped; agree when equal.
  description  text rule; agree when equal or when one is a prefix of the other (>= 40 chars).
  image    resolved against the page URL, scheme and "www." dropped, host lowercased; agree when
           equal, or equal once the query string is dropped.
  categories, tags  sets of normalised strings; agree when the sets are equal.
Status per page and field: both_none, agree, differ, docview_only, trafilatura_only.
"""
import csv, collections, hashlib, json, os, re, sys, unicodedata
from urllib.parse import urljoin, urlsplit

CORPUS = os.environ.get("CORPUS", os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../../shared/corpus"))
FIELDS = ["title", "author", "date", "site_name", "description", "image", "categories", "tags"]
JUDGED_FULL = {"title", "author", "date", "site_name"}   # every non-agreement judged
JUDGED_SAMPLE = {"description", "image", "categories", "tags"}  # a sample of 10 judged
SAMPLE_N = 10
TRAF_KEY = {"title": "title", "author": "author", "date": "date", "site_name": "sitename",
            "description": "description", "image": "image", "categories": "categories",
            "tags": "tags"}
JKEY = ["set", "file_id", "field", "docview_value", "trafilatura_value"]
JCOLS = JKEY + ["docview_ok", "trafilatura_ok", "docview_error", "trafilatura_error", "reason"]
OKS = {"right", "wrong", "undecidable", ""}


# ---------------------------------------------------------------- normalisation
def norm(s):
    s = unicodedata.normalize("NFKC", s or "").casefold()
    return re.sub(r"[\W_]+", " ", s).strip()


NAME_SPLIT = re.compile(r"\s*(?:,|;|\||&|/|\band\b|\bund\b)\s*", re.I)


def names(s):
    out = []
    for part in NAME_SPLIT.split(s or ""):
        n = norm(part)
        n = re.sub(r"^(by|von|author|autor)\s+", "", n)
        if n:
            out.append(frozenset(n.split()))
    return out


def author_cmp(a, b):
    A, B = names(a), names(b)
    if not A or not B:
        return False, "no names"
    small, big = (A, B) if len(A) <= len(B) else (B, A)
    m = lambda x, y: x <= y or y <= x
    if all(any(m(x, y) for y in big) for x in small):
        exact = all(any(m(y, x) for x in small) for y in big)
        return True, "exact" if exact else "subset"
    hits = sum(any(m(x, y) for y in big) for x in small)
    return False, f"{hits}/{len(small)} names match"


def day(v):
    m = re.match(r"(\d{4}-\d{2}-\d{2})", (v or "").strip())
    return m.group(1) if m else None


def site_norm(s):
    n = norm(s)
    n = re.sub(r"^the ", "", n)
    return n.replace(" ", "")


def img_norm(v, url):
    try:
        u = urlsplit(urljoin(url or "", v.strip()))
    except ValueError:
        return v, v
    host = (u.netloc or "").lower()
    host = host[4:] if host.startswith("www.") else host
    base = host + u.path
    return base + ("?" + u.query if u.query else ""), base


def as_list(v):
    if v is None:
        return []
    if isinstance(v, list):
        out = []
        for x in v:
            out += as_list(x)
        return out
    if isinstance(v, dict):
        return as_list(v.get("value", v.get("values", v.get("name"))))
    s = str(v).strip()
    return [s] if s else []


def display(v):
    """The value as one string (the key of a judgement); lists joined with ' ; '."""
    items = as_list(v)
    return " ; ".join(items)


def compare(field, a, b, url):
    """-> (status, detail) for docview value a, trafilatura value b (display strings)."""
    if not a and not b:
        return "both_none", ""
    if not b:
        return "docview_only", ""
    if not a:
        return "trafilatura_only", ""
    if field == "title":
        return ("agree", "") if norm(a) == norm(b) else ("differ", "")
    if field == "author":
        ok, det = author_cmp(a, b)
        return ("agree" if ok else "differ"), det
    if field == "date":
        da, db = day(a), day(b)
        return ("agree", "") if da and da == db else ("differ", f"{da} vs {db}")
    if field == "site_name":
        return ("agree", "") if site_norm(a) == site_norm(b) else ("differ", "")
    if field == "description":
        x, y = norm(a), norm(b)
        if x == y:
            return "agree", "exact"
        s, l = (x, y) if len(x) <= len(y) else (y, x)
        if len(s) >= 40 and l.startswith(s):
            return "agree", "prefix"
        return "differ", ""
    if field == "image":
        fa, ba = img_norm(a, url)
        fb, bb = img_norm(b, url)
        if fa == fb:
            return "agree", "exact"
        if ba == bb:
            return "agree", "query differs"
        return "differ", ""
    if field in ("categories", "tags"):
        A = {norm(x) for x in a.split(" ; ") if norm(x)}
        B = {norm(x) for x in b.split(" ; ") if norm(x)}
        if A == B:
            return "agree", ""
        j = len(A & B) / len(A | B) if A | B else 0
        return "differ", f"jaccard {j:.2f}"
    raise ValueError(field)


# ---------------------------------------------------------------- evidence
def evidence(s, fid):
    with open(f"{CORPUS}/{s}/ground-truth/{fid}.json", encoding="utf-8") as f:
        g = json.load(f)
    gt = g.get("ground_truth", {})
    ev = {}
    if s == "fundus-dev":
        fm = g.get("fundus_meta", {})
        ev["title"] = gt.get("title")
        if fm.get("authors"):
            ev["author"] = "; ".join(fm["authors"])
        elif "authors" in fm:
            ev["author"] = "<none>"
        if fm.get("publishing_date"):
            ev["date"] = fm["publishing_date"]
        if fm.get("topics"):
            ev["categories"] = " ; ".join(fm["topics"])
            ev["tags"] = ev["categories"]
    elif s == "wcxb-dev":
        ev["title"] = gt.get("title")
        # the labels: an empty one means the annotator found none
        if "author" in gt:
            ev["author"] = gt["author"] or "<none>"
        if "publish_date" in gt:
            ev["date"] = gt["publish_date"] or "<none>"
    elif s == "newspaper-dev":
        if not str(g.get("title_source", "")).startswith("page <title>"):
            ev["title"] = gt.get("title")
    return {k: v for k, v in ev.items() if v}


def matches_evidence(field, v, ev):
    """True/False/None (no evidence or no value)."""
    e = ev.get(field)
    if not e or not v:
        return None
    if field == "author":
        if e == "<none>":
            return False
        return author_cmp(v, e)[0]
    if field == "date":
        return e != "<none>" and day(v) == day(e)
    if field == "title":
        return norm(v) == norm(e)
    if field in ("categories", "tags"):
        A = {norm(x) for x in v.split(" ; ")}
        B = {norm(x) for x in e.split(" ; ")}
        return bool(A & B)
    return None


# ---------------------------------------------------------------- main
def load_jsonl(p):
    with open(p, encoding="utf-8") as f:
        return [json.loads(l) for l in f]


def sample_key(row):
    return hashlib.sha1("|".join(row[k] for k in JKEY).encode()).hexdigest()


def needs_judgement(r):
    """title, author, date, site_name: every disagreement, every agreement the reference does not
    confirm (no reference value, or a different one), an author agreement by subset only, and a
    page where both give nothing though the reference has a value. The other fields: the sample."""
    if r["field"] in JUDGED_FULL:
        if r["status"] in ("differ", "docview_only", "trafilatura_only"):
            return True
        if r["status"] == "agree":
            return r["docview_matches_evidence"] != "True" or r["detail"] == "subset"
        return r["evidence"] != "<none>"
    return r.get("in_sample") == "1"


def main():
    out = os.environ.get("OUT", ".")
    pages = []
    with open(os.path.join(out, "pages.jsonl"), encoding="utf-8") as f:
        for line in f:
            d = json.loads(line)
            pages.append((d["id"], d["set"], d["file_id"], d["url"]))
    dv = {d["id"]: d for d in load_jsonl(os.path.join(out, "dv.jsonl"))}
    tr = {d["id"]: d for d in load_jsonl(os.path.join(out, "traf.jsonl"))}
    assert len(dv) == len(pages) == len(tr), (len(dv), len(pages), len(tr))

    rows = []
    for pid, s, fid, url in pages:
        d, t = dv[pid], tr[pid]
        md = d.get("metadata") or {}
        ev = evidence(s, fid)
        for field in FIELDS:
            if field == "title":
                a_raw, src = d.get("title"), "title"
            else:
                key = "published" if field == "date" else field
                a_raw = md.get(key)
                src = a_raw.get("source", "") if isinstance(a_raw, dict) else ""
            a, b = display(a_raw), display(t.get(TRAF_KEY[field]))
            status, detail = compare(field, a, b, url)
            me = lambda v: {None: "", True: "True", False: "False"}[matches_evidence(field, v, ev)]
            rows.append({"set": s, "file_id": fid, "field": field, "docview_value": a,
                         "docview_source": src if a else "", "trafilatura_value": b,
                         "status": status, "detail": detail, "evidence": ev.get(field, ""),
                         "docview_matches_evidence": me(a), "trafilatura_matches_evidence": me(b),
                         "trafilatura_error": t.get("error") or "", "in_sample": ""})
    # the judged sample of the lighter fields: 10 disagreements each, chosen by a hash of the key
    for field in JUDGED_SAMPLE:
        dis = [r for r in rows if r["field"] == field and r["status"] in ("differ", "docview_only", "trafilatura_only")]
        for r in sorted(dis, key=sample_key)[:SAMPLE_N]:
            r["in_sample"] = "1"

    # judgements
    here = os.path.dirname(os.path.abspath(__file__))
    jpath = os.environ.get("JUDGEMENTS", os.path.join(here, "judgements.csv"))
    judg = {}
    if os.path.exists(jpath):
        with open(jpath, newline="", encoding="utf-8") as f:
            for j in csv.DictReader(f):
                assert j["docview_ok"] in OKS and j["trafilatura_ok"] in OKS, j
                judg[tuple(j[k] for k in JKEY)] = j
    todo, used = [], set()
    for r in rows:
        k = tuple(r[c] for c in JKEY)
        j = judg.get(k)
        r["needs_judgement"] = "1" if needs_judgement(r) else ""
        if j:
            used.add(k)
            for c in ("docview_ok", "trafilatura_ok", "docview_error", "trafilatura_error_kind", "reason"):
                r[c] = j.get(c if c != "trafilatura_error_kind" else "trafilatura_error", "")
        else:
            for c in ("docview_ok", "trafilatura_ok", "docview_error", "trafilatura_error_kind", "reason"):
                r[c] = ""
            if r["needs_judgement"]:
                todo.append(r)
        r["verdict"] = verdict(r)
    cols = list(rows[0].keys())
    with open(os.path.join(out, "fields.csv"), "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, cols)
        w.writeheader()
        w.writerows(rows)
    with open(os.path.join(out, "todo.csv"), "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, cols)
        w.writeheader()
        w.writerows(todo)
    stale = [k for k in judg if k not in used]
    write_table(rows, out, len(pages))
    by = collections.Counter(r["field"] for r in todo)
    print(f"pages {len(pages)}; judgements on file {len(judg)}, used {len(used)}, "
          f"no longer matching any case {len(stale)}", file=sys.stderr)
    if todo:
        print(f"NEW UNJUDGED disagreements: {len(todo)} ({dict(by)}) -> todo.csv", file=sys.stderr)
        for r in todo[:40]:
            print(f"  {r['set']}/{r['file_id']} {r['field']} [{r['status']}] dv={r['docview_value'][:70]!r} "
                  f"traf={r['trafilatura_value'][:70]!r}", file=sys.stderr)
    else:
        print("every case that needs a judgement has one", file=sys.stderr)


def verdict(r):
    a, b = r["docview_ok"], r["trafilatura_ok"]
    if r["status"] == "agree" and not r["needs_judgement"]:
        return "agree"
    if r["status"] == "both_none" and not a:
        return ""
    if not a and not b:
        return "unjudged" if r["needs_judgement"] else ""
    if "undecidable" in (a, b) and not (a == "right" and b == "wrong") and not (a == "wrong" and b == "right"):
        return "undecidable"
    if a == "right" and b == "right":
        return "both_right"
    if a == "right":
        return "docview_right"
    if b == "right":
        return "trafilatura_right"
    return "both_wrong"


def final_ok(r, who):
    """right / wrong / undecidable / "" for one tool on one row: the judgement if there is one,
    else an agreement the reference confirms (both right), else both none where the reference
    says none (both right)."""
    col = "docview_ok" if who == "docview" else "trafilatura_ok"
    if r[col]:
        return r[col]
    if r["field"] in JUDGED_FULL:
        if r["status"] == "agree" and r["docview_matches_evidence"] == "True" and r["detail"] != "subset":
            return "right"
        if r["status"] == "both_none" and r["evidence"] == "<none>":
            return "right"
    return ""


def write_table(rows, out, npages):
    L = []
    L.append(f"## Page metadata: docview vs trafilatura 2.3.1, {npages} pages\n")
    bin_txt = os.path.join(out, "dv-binary.txt")
    if os.path.exists(bin_txt):
        L.append(f"docview binary: `{open(bin_txt).read().strip()}`\n")
    L.append("Pages: fundus-dev (all 84), newspaper-dev (first 40 by file_id), wcxb-dev (first 60 pages "
             "of page_type article by file_id). A value is *right* when it is the page's correct value by "
             "my reading of the page and the reference evidence (rules below); a tool that gives nothing is "
             "right when the page has no such value. title, author, date and site_name: every page is decided "
             "(judged by hand, or an agreement the reference confirms, or both none where the reference says "
             "none). description, image, categories, tags: 10 disagreements each judged.\n")
    hdr = ("| field | pages | both none (right / wrong / undec.) | agree (right / wrong / undec.) | "
           "docview only: dv right / dv wrong / undec. | trafilatura only: tr right / tr wrong / undec. | "
           "differ: dv right / tr right / both right / both wrong / undec. | unjudged | "
           "**docview right** / wrong / undec. | **trafilatura right** / wrong / undec. |")
    L.append(hdr)
    L.append("|---|---:|---|---|---|---|---|---:|---|---|")
    for field in FIELDS:
        R = [r for r in rows if r["field"] == field]
        c = collections.Counter(r["status"] for r in R)
        for r in R:
            r["_dv"], r["_tr"] = final_ok(r, "docview"), final_ok(r, "trafilatura")
        def trio(st, key):
            X = [r for r in R if r["status"] == st]
            return f"{c[st]}: " + " / ".join(str(sum(r[key] == v for r in X)) for v in ("right", "wrong", "undecidable"))
        D = [r for r in R if r["status"] == "differ"]
        vc = collections.Counter(verdict_of(r["_dv"], r["_tr"]) for r in D)
        dif = f"{len(D)}: {vc['docview_right']} / {vc['trafilatura_right']} / {vc['both_right']} / {vc['both_wrong']} / {vc['undecidable']}"
        unj = sum(1 for r in R if r["verdict"] == "unjudged")
        sampled = field in JUDGED_SAMPLE
        def tot(key):
            if sampled:
                return "-"
            return " / ".join(str(sum(r[key] == v for r in R)) for v in ("right", "wrong", "undecidable"))
        name = field + (" (sample of 10 judged)" if sampled else "")
        L.append(f"| {name} | {len(R)} | {trio('both_none', '_dv')} | {trio('agree', '_dv')} | "
                 f"{trio('docview_only', '_dv')} | {trio('trafilatura_only', '_tr')} | {dif} | {unj} | "
                 f"{tot('_dv')} | {tot('_tr')} |")
    L.append("")
    L.append("Columns: *both none* and *agree* count docview's verdict (equal to trafilatura's there, except "
             "that an agreement by the author subset rule can be right for one tool only). *docview only*: "
             "docview's value judged; *trafilatura only*: trafilatura's value judged. Right / wrong totals "
             "include correct and wrong absences. Values counted right may still carry a \"(partial)\" note "
             "(first author only, an HTML entity left in), listed below. For the sampled fields only the "
             "judged cases carry a verdict (e.g. description: 181 trafilatura-only pages, 10 judged, all 10 right); "
             "the docview of before issue 43 gave none of these four fields.\n")
    L.append("### Right values per set (title, author, date, site_name)\n")
    L.append("| field | set | pages | docview right | trafilatura right | docview wrong | trafilatura wrong | undecidable (dv/tr) |")
    L.append("|---|---|---:|---:|---:|---:|---:|---|")
    for field in ("title", "author", "date", "site_name"):
        for st in ("fundus-dev", "newspaper-dev", "wcxb-dev"):
            R = [r for r in rows if r["field"] == field and r["set"] == st]
            n = lambda key, v: sum(r[key] == v for r in R)
            L.append(f"| {field} | {st} | {len(R)} | {n('_dv','right')} | {n('_tr','right')} | {n('_dv','wrong')} | "
                     f"{n('_tr','wrong')} | {n('_dv','undecidable')}/{n('_tr','undecidable')} |")
    L.append("")
    # evidence-based check (automatic, no judgement involved)
    L.append("### Against the reference evidence (automatic, no judgement)\n")
    L.append("Pages whose ground truth carries a value (fundus-dev: the fundus parser's authors, publishing_date "
             "and title; wcxb-dev: human title, author, publish_date labels; newspaper-dev: the title where it "
             "is not the page's <title>), and how many of each tool's values match it by the rules below. "
             "The references are not always right (see notes).\n")
    L.append("| field | set | pages with reference value | docview matches | trafilatura matches | docview none | trafilatura none |")
    L.append("|---|---|---:|---:|---:|---:|---:|")
    for field in ("title", "author", "date"):
        for st in ("fundus-dev", "wcxb-dev", "newspaper-dev"):
            R = [r for r in rows if r["field"] == field and r["set"] == st and r["evidence"] and r["evidence"] != "<none>"]
            if not R:
                continue
            L.append(f"| {field} | {st} | {len(R)} | {sum(r['docview_matches_evidence']=='True' for r in R)} | "
                     f"{sum(r['trafilatura_matches_evidence']=='True' for r in R)} | "
                     f"{sum(not r['docview_value'] for r in R)} | {sum(not r['trafilatura_value'] for r in R)} |")
    L.append("")
    L.append("### Error kinds of the judged cases (automatic grouping by the kind's text before any parenthesis)\n")
    L.append("| field | tool | error kind | count | file_ids |")
    L.append("|---|---|---|---:|---|")
    for field in FIELDS:
        for who, col in (("docview", "docview_error"), ("trafilatura", "trafilatura_error_kind")):
            ek = collections.defaultdict(list)
            for r in rows:
                if r["field"] == field and r.get(col):
                    ek[r[col].split(" (")[0] if not r[col].startswith("(") else r[col].split(")")[0] + ")"].append(r["file_id"])
            for k, ids in sorted(ek.items(), key=lambda x: (-len(x[1]), x[0])):
                shown = ", ".join(ids[:8]) + (f" … (+{len(ids) - 8})" if len(ids) > 8 else "")
                L.append(f"| {field} | {who} | {k} | {len(ids)} | {shown} |")
    L.append("")
    notes = os.path.join(os.path.dirname(os.path.abspath(__file__)), "notes.md")
    with open(os.path.join(out, "table.md"), "w", encoding="utf-8") as f:
        f.write("\n".join(L) + "\n")
        f.write("\n### Rules\n\n```\n" + __doc__.split("Normalisation and agreement rules (also written into table.md):\n")[1].strip() + "\n```\n")
        if os.path.exists(notes):
            f.write("\n" + open(notes, encoding="utf-8").read())


def verdict_of(a, b):
    if a == "right" and b == "wrong":
        return "docview_right"
    if a == "wrong" and b == "right":
        return "trafilatura_right"
    if a == "right" and b == "right":
        return "both_right"
    if a == "wrong" and b == "wrong":
        return "both_wrong"
    return "undecidable"


if __name__ == "__main__":
    main()
