"""docview.ingest, docview.read_docviews and docview.search on the samples' WARC."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import docview

from conftest import SAMPLES, WARC, sample_pages

#: Pages of the WARC that repeat another (corpus-samples/README.md, "Replica map"): of each
#: pair, the one later in the WARC's order (sorted paths) is the replica.
EXACT_REPLICAS = {"lanting-news/tea-harvest.html", "fieldnotes/dawn-chorus.html"}
NEAR_REPLICAS = {
    "harbor-gazette/ferry.html",
    "harbor-gazette/lighthouse.html",
    "xinyu-daily/bridge-reprint.html",
}


def url_of(name: str) -> str:
    return next(p["url"] for p in sample_pages() if p["file"] == f"sites/{name}")


def test_the_summary_counts_the_pages(ingested):
    out, summary = ingested
    c = summary["counters"]
    assert c["pages_read"] == 35
    assert c["replicas_exact"] == len(EXACT_REPLICAS)
    assert c["replicas_near"] == len(NEAR_REPLICAS)
    assert c["kept"] == 35 - len(EXACT_REPLICAS) - len(NEAR_REPLICAS)
    assert sum(c["skipped"].values()) == 0
    assert Path(summary["out"]) == out
    kinds = {i["kind"]: i for i in summary["indexes"]}
    assert set(kinds) == {"fulltext", "topic", "abstract"}
    assert all(i["docs"] == c["kept"] for i in kinds.values())
    # What the command writes too.
    assert json.loads((out / "summary.json").read_text())["counters"] == c


def test_read_docviews_yields_the_records_ingest_wrote(ingested):
    out, summary = ingested
    records = list(docview.read_docviews(out))
    assert len(records) == summary["counters"]["kept"]
    lines = [json.loads(l) for l in (out / "docviews.jsonl").read_text(encoding="utf-8").splitlines() if l.strip()]
    assert records == lines
    urls = [r["identifier"] for r in records]
    kept = [p["url"] for p in sample_pages() if p["file"][len("sites/"):] not in EXACT_REPLICAS | NEAR_REPLICAS]
    assert sorted(urls) == sorted(kept)
    # Input order (the WARC's: sorted paths), numbered in the run.
    assert [r["seq"] for r in records] == sorted(r["seq"] for r in records)
    for r in records:
        assert {"identifier", "type", "title", "keywords", "abstract", "topic_content", "language", "metadata"} <= r.keys()
        assert "topic_markdown" not in r  # markdown=False
    ferry = next(r for r in records if r["identifier"] == url_of("fieldnotes/ferry-from-the-archive.html"))
    assert ferry["topic_content"].startswith("From the archive: this report first appeared in The Harbor Gazette")
    assert ferry["language"] == "en"
    # The Gazette's original, later in the WARC, is its near-replica, listed on the kept page.
    assert ferry["replicas"] == [url_of("harbor-gazette/ferry.html")]


def test_the_records_types_are_extracts_page_types(ingested):
    out, _ = ingested
    by_url = {r["identifier"]: r for r in docview.read_docviews(out)}
    extractor = docview.Extractor()
    for p in sample_pages():
        if p["url"] not in by_url:
            continue
        record = by_url[p["url"]]
        page = extractor.extract((SAMPLES / p["file"]).read_bytes(), p["url"])
        # One page alone and in the collection: the same type, class and metadata.
        assert page.page_type == record["type"], p["file"]
        assert page.classification == record["classification"], p["file"]
        assert page.metadata == record["metadata"], p["file"]
        if p["page_type"] == "article":
            assert record["type"] == "topic", p["file"]
    for name in ["harbor-gazette/index.html", "fieldnotes/index.html", "lanting-news/index.html"]:
        assert by_url[url_of(name)]["type"] == "hub", name


def test_read_docviews_reads_the_parquet_records_too(ingested):
    out, _ = ingested
    from_jsonl = docview.read_docviews(out)
    assert from_jsonl.format == "jsonl"
    assert from_jsonl.path == out / "docviews.jsonl"
    from_parquet = docview.read_docviews(out / "docviews.parquet")
    assert from_parquet.format == "parquet"
    assert "parquet" in repr(from_parquet)
    assert list(from_parquet) == list(from_jsonl)
    # A file named in full reads as its own layout.
    assert list(docview.read_docviews(str(out / "docviews.jsonl"))) == list(docview.read_docviews(out))


def test_read_docviews_where_there_are_none(tmp_path):
    with pytest.raises(FileNotFoundError) as e:
        docview.read_docviews(tmp_path)
    assert isinstance(e.value, docview.PathNotFoundError)
    assert e.value.filename == str(tmp_path)
    assert "no DocView records here" in str(e.value)
    with pytest.raises(FileNotFoundError, match="No such file or directory"):
        docview.read_docviews(tmp_path / "docviews.jsonl")
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"url": "http://a.example/"}\n{not json\n')
    records = docview.read_docviews(bad)
    assert next(records) == {"url": "http://a.example/"}
    with pytest.raises(docview.DocviewError, match=r"bad\.jsonl:2: "):
        next(records)


def test_search_finds_a_page_by_a_phrase_of_its_topic_content(ingested):
    out, _ = ingested
    moths = url_of("fieldnotes/moths.html")
    hits = docview.search(out, '"pair of elephant hawk-moths"')
    assert [h["url"] for h in hits] == [moths]
    hit = hits[0]
    assert set(hit) == {"url", "title", "score", "snippet"}
    assert hit["score"] > 0
    assert "[[elephant]] [[hawk]]-[[moths]]" in hit["snippet"]
    assert hit["title"] == "A night at the porch light — Fieldnotes"
    # The phrase is in the record's topic content.
    record = next(r for r in docview.read_docviews(out) if r["identifier"] == moths)
    assert "pair of elephant hawk-moths" in record["topic_content"]


def test_search_leaves_boilerplate_out_of_the_topic_index(ingested):
    out, _ = ingested
    page = next(p for p in sample_pages() if p["file"] == "sites/fieldnotes/moths.html")
    # Navigation, comments, newsletter text of the page: in the full-text index, not the topic one.
    found = 0
    for snippet in page["without"]:
        query = f'"{snippet}"'
        topic = [h["url"] for h in docview.search(out, query, index="topic", k=50)]
        assert page["url"] not in topic, snippet
        fulltext = [h["url"] for h in docview.search(out, query, index="fulltext", k=50)]
        found += page["url"] in fulltext
    assert found >= 2


def test_search_options_and_errors(ingested, tmp_path):
    out, summary = ingested
    assert len(docview.search(out, "harbor", k=3)) == 3
    assert docview.search(out, "harbor", k=0) == []
    assert docview.search(out, "zzzunheardof") == []
    abstract = docview.search(out, "lichen", index="abstract")
    assert url_of("fieldnotes/lichens.html") in [h["url"] for h in abstract]
    with pytest.raises(ValueError, match=r'index: unknown index "body" \(known: fulltext, topic, abstract\)'):
        docview.search(out, "harbor", index="body")
    with pytest.raises(docview.ArgumentError):
        docview.search(out, "   ")
    with pytest.raises(FileNotFoundError) as e:
        docview.search(tmp_path, "harbor")
    assert isinstance(e.value, docview.PathNotFoundError)
    assert e.value.filename == str(tmp_path / "index" / "topic")
    assert "run docview.ingest first" in str(e.value)


def test_ingest_arguments_and_errors(tmp_path):
    with pytest.raises(TypeError, match="unexpected keyword argument 'thread'"):
        docview.ingest(WARC, tmp_path / "a", thread=2)
    missing = tmp_path / "missing.warc.gz"
    with pytest.raises(FileNotFoundError) as e:
        docview.ingest(missing, tmp_path / "b")
    assert isinstance(e.value, docview.PathNotFoundError)
    assert e.value.filename == str(missing)
    with pytest.raises(ValueError, match='cleaner: unknown cleaner "best"'):
        docview.ingest(WARC, tmp_path / "c", cleaner="best")
    with pytest.raises(ValueError, match='replicas: unknown replica detection "fuzzy"'):
        docview.ingest(WARC, tmp_path / "c", replicas="fuzzy")
    with pytest.raises(docview.ArgumentError, match="beta"):
        docview.ingest(WARC, tmp_path / "c", beta=2.0)
    with pytest.raises(docview.ArgumentError, match="no_classifier"):
        docview.ingest(WARC, tmp_path / "c", classifier=tmp_path / "m.json", no_classifier=True)
    with pytest.raises(docview.ArgumentError, match="give one or the other"):
        docview.ingest(WARC, tmp_path / "c", resume=True, overwrite=True)
    # Issue 41: an absurd thread count is refused before anything starts.
    with pytest.raises(docview.ArgumentError, match="threads: 100000 worker threads is more than the 256"):
        docview.ingest(WARC, tmp_path / "t", threads=100000)
    assert not (tmp_path / "t").exists()
    with pytest.raises(docview.ArgumentError, match="inputs: no input given"):
        docview.ingest([], tmp_path / "c")
    with pytest.raises(TypeError, match="inputs: expected a path"):
        docview.ingest(42, tmp_path / "c")


def test_ingest_of_a_folder_list_with_options(tmp_path):
    # Two sites' folders as a list of os.PathLike, exact replicas only, no classifier.
    out = tmp_path / "out"
    sites = [SAMPLES / "sites" / "harbor-gazette", SAMPLES / "sites" / "fieldnotes"]
    summary = docview.ingest(sites, out, threads=1, replicas="exact", no_classifier=True, keywords=5)
    c = summary["counters"]
    assert c["pages_read"] == 21
    assert c["replicas_exact"] == 1  # dawn-chorus-copy.html
    assert c["replicas_near"] == 0
    records = list(docview.read_docviews(out))
    assert len(records) == c["kept"] == 20
    assert all(len(r["keywords"]) <= 5 for r in records)
    assert all(r["classification_code"] == "" for r in records)
    # The folder holds an ingest now: a second run needs overwrite=True.
    with pytest.raises(docview.DocviewError) as e:
        docview.ingest(sites, out)
    assert str(out) in str(e.value)
    again = docview.ingest(sites, out, overwrite=True, threads=1)
    assert again["counters"]["pages_read"] == 21


def test_ingest_markdown(tmp_path):
    out = tmp_path / "out"
    docview.ingest(WARC, out, markdown=True, threads=1)
    records = list(docview.read_docviews(out))
    lichens = next(r for r in records if r["identifier"] == url_of("fieldnotes/lichens.html"))
    markdown = lichens["topic_markdown"]
    assert "## A clock that grows in circles" in markdown.splitlines()
    # What extract renders of the page alone.
    page = docview.extract((SAMPLES / "sites/fieldnotes/lichens.html").read_bytes(), url_of("fieldnotes/lichens.html"), format="markdown")
    assert markdown == page.content
