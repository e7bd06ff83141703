"""docview.ingest, docview.read_docviews and docview.search on the samples' WARC."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

import docview

from conftest import SAMPLES, WARC, check_records, sample_pages

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
    assert set(kinds) == {"fulltext", "topic", "abstract", "docview"}
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
    # The article from its first words on (a headline or kicker above it may come first), without the share bar.
    topic = ferry["topic_content"]
    assert 0 <= topic.find("From the archive: this report first appeared in The Harbor Gazette") < 80
    assert "Share this" not in topic
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
        assert page.genre == record["genre"], p["file"]
        assert page.subject == record["subject"], p["file"]
        assert record["classification_code"] == (record["subject"]["code"] or ""), p["file"]
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
    fields = docview.search(out, "lichen", index="docview")
    assert url_of("fieldnotes/lichens.html") in [h["url"] for h in fields]
    with pytest.raises(ValueError, match=r'index: unknown index "body" \(known: fulltext, topic, abstract, docview\)'):
        docview.search(out, "harbor", index="body")
    with pytest.raises(docview.ArgumentError):
        docview.search(out, "   ")
    with pytest.raises(FileNotFoundError) as e:
        docview.search(tmp_path, "harbor")
    assert isinstance(e.value, docview.PathNotFoundError)
    assert e.value.filename == str(tmp_path / "index" / "topic")
    assert "run docview.ingest first" in str(e.value)


def _files(folder: Path) -> dict:
    """Every file and folder under folder with its bytes and mode."""
    return {
        p.relative_to(folder): (p.read_bytes() if p.is_file() else b"", p.stat().st_mode)
        for p in sorted(folder.rglob("*"))
    }


def _write_bits(folder: Path, on: bool) -> None:
    for p in [folder, *folder.rglob("*")]:
        mode = p.stat().st_mode
        p.chmod(mode | 0o200 if on else mode & ~0o222)


def test_search_reads_an_ingest_it_may_not_write(ingested, tmp_path):
    """A copy of the output without tantivy's lock files and without write permission: search
    works and writes nothing there (tests may run as root, where permissions are not
    enforced, so nothing may be created, not even tantivy's lock file)."""
    out, _ = ingested
    copy = tmp_path / "read-only"
    shutil.copytree(out, copy, ignore=shutil.ignore_patterns(".tantivy-*.lock"))
    _write_bits(copy, False)
    try:
        before = _files(copy)
        for index in ("topic", "fulltext", "abstract", "docview"):
            hits = docview.search(copy, "harbor", index=index)
            assert hits == docview.search(out, "harbor", index=index)
            assert hits
        assert _files(copy) == before
    finally:
        _write_bits(copy, True)


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
    with pytest.raises(ValueError, match='favor: unknown setting "most"'):
        docview.ingest(WARC, tmp_path / "c", favor="most")
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
    check_records(out)
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
    check_records(out)


def test_ingest_markdown(tmp_path):
    out = tmp_path / "out"
    docview.ingest(WARC, out, markdown=True, threads=1)
    check_records(out)
    records = list(docview.read_docviews(out))
    lichens = next(r for r in records if r["identifier"] == url_of("fieldnotes/lichens.html"))
    markdown = lichens["topic_markdown"]
    assert "## A clock that grows in circles" in markdown.splitlines()
    # What extract renders of the page alone.
    page = docview.extract((SAMPLES / "sites/fieldnotes/lichens.html").read_bytes(), url_of("fieldnotes/lichens.html"), format="markdown")
    assert markdown == page.content


def test_ingest_favor_precision_cleans_as_extract_does(tmp_path):
    out = tmp_path / "out"
    docview.ingest(WARC, out, favor="precision", threads=1)
    check_records(out)
    lichens = next(r for r in docview.read_docviews(out) if r["identifier"] == url_of("fieldnotes/lichens.html"))
    page = docview.extract((SAMPLES / "sites/fieldnotes/lichens.html").read_bytes(), url_of("fieldnotes/lichens.html"), favor="precision")
    assert lichens["topic_content"] == page.text
    assert page.text != docview.extract((SAMPLES / "sites/fieldnotes/lichens.html").read_bytes(), url_of("fieldnotes/lichens.html"), favor="recall").text


def test_a_page_without_a_url_is_skipped_with_its_reason(tmp_path):
    """An empty, blank or javascript: URL gives no identifier: the page is skipped, and every
    record written passes the schema."""
    lines = tmp_path / "e.jsonl"
    html = "<p>some words here, and a few more of them</p>"
    urls = ["", "   ", "javascript:alert(1)", "http://a.example/words"]
    lines.write_text("".join(json.dumps({"url": u, "html": html}) + "\n" for u in urls))
    out = tmp_path / "out"
    summary = docview.ingest(lines, out, threads=1)
    assert check_records(out) == 1
    assert summary["counters"]["skipped"] == {"no URL": 2, "not a page URL": 1}
    assert [r["identifier"] for r in docview.read_docviews(out)] == ["http://a.example/words"]


def write_collection(path: Path, copies: int) -> None:
    """A JSON Lines collection big enough to take seconds: every sample page `copies` times
    under its own URL, most copies with a paragraph of their own."""
    pages = sorted((SAMPLES / "sites").glob("*/*.html"))
    with path.open("w", encoding="utf-8") as out:
        for copy in range(copies):
            for page in pages:
                html = page.read_bytes().decode("utf-8", "replace")
                if copy % 3:
                    note = f"<p>Copy {copy} of this page carries note {copy} about the harbour and the weather of week {copy}.</p></body>"
                    html = html.replace("</body>", note, 1)
                line = {"url": f"http://mirror{copy}.example/{page.name}", "html": html}
                out.write(json.dumps(line) + "\n")


def test_ctrl_c_stops_ingest_promptly_and_it_resumes(tmp_path):
    """Issue 41, item 8: Ctrl-C reached Python only once the whole ingest had finished. Now
    a SIGINT stops it after the batch at hand, with a KeyboardInterrupt that says how to
    resume, and resume=True continues to the records of a run never interrupted."""
    import signal
    import subprocess
    import sys
    import time

    collection = tmp_path / "collection.jsonl"
    write_collection(collection, 60)
    reference = tmp_path / "reference"
    docview.ingest(collection, reference, threads=1, commit_every=50)

    out = tmp_path / "out"
    script = (
        "import sys, docview\n"
        "docview.ingest(sys.argv[1], sys.argv[2], threads=1, commit_every=50)\n"
    )
    child = subprocess.Popen(
        [sys.executable, "-c", script, str(collection), str(out)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    state_path = out / "state.json"
    deadline = time.monotonic() + 300
    while True:
        try:
            state = json.loads(state_path.read_text())
        except (OSError, ValueError):
            state = {}
        if state.get("first_pass") or state.get("commits", 0) > 0:
            break
        assert child.poll() is None, "the ingest ended before its first checkpoint: make the input bigger"
        assert time.monotonic() < deadline, "no checkpoint within 300 s"
        time.sleep(0.02)
    child.send_signal(signal.SIGINT)
    _, err = child.communicate(timeout=60)
    assert child.returncode != 0
    assert "KeyboardInterrupt" in err, err
    assert "resume=True" in err, err
    state = json.loads(state_path.read_text())
    assert state["status"] == "running"

    summary = docview.ingest(collection, out, threads=1, commit_every=50, resume=True)
    assert summary["resumed"] is True
    assert check_records(out) == check_records(reference) == summary["counters"]["kept"]
    for name in ["docviews.jsonl", "replicas.jsonl", "skipped.jsonl", "stats.json"]:
        assert (out / name).read_bytes() == (reference / name).read_bytes(), name


def test_ingest_reports_its_progress_to_a_callback(tmp_path):
    reports = []
    summary = docview.ingest(WARC, tmp_path / "out", progress=reports.append)
    phases = [r["phase"] for r in reports]
    assert phases[0] == "statistics" and phases[-1] == "ingest", phases
    assert set(phases) == {"statistics", "ingest"}
    last = reports[-1]
    assert last["counters"] == summary["counters"]
    assert last["total_bytes"] == WARC.stat().st_size
    assert 0 < last["input_bytes"] <= last["total_bytes"]
    # Counts only grow within the phase.
    read = [r["counters"]["pages_read"] for r in reports if r["phase"] == "ingest"]
    assert read == sorted(read)


def test_a_callback_that_raises_stops_the_ingest_and_it_resumes(tmp_path):
    class Stop(Exception):
        pass

    def stop(report):
        if report["phase"] == "ingest":
            raise Stop("enough")

    collection = tmp_path / "collection.jsonl"
    write_collection(collection, 60)
    out = tmp_path / "out"
    with pytest.raises(Stop, match="enough"):
        docview.ingest(collection, out, threads=1, commit_every=50, progress=stop)
    assert json.loads((out / "state.json").read_text())["status"] == "running"
    summary = docview.ingest(collection, out, threads=1, commit_every=50, resume=True)
    assert summary["counters"]["pages_read"] == 60 * len(list((SAMPLES / "sites").glob("*/*.html")))
    check_records(out)


def test_ingest_keeps_each_pages_input_identity(tmp_path, ingested):
    # A page of a WARC keeps its record's id and date.
    out, _ = ingested
    records = list(docview.read_docviews(out))
    assert all(r["warc_record_id"].startswith("<urn:uuid:") for r in records)
    assert all(r["warc_date"].endswith("Z") for r in records)
    assert all("input_fields" not in r for r in records)
    # JSON Lines with other keys: the line's other fields go to the record, in their order.
    pages = tmp_path / "pages.jsonl"
    lines = []
    for i, name in enumerate(["fieldnotes/lichens.html", "fieldnotes/moths.html"]):
        html = (SAMPLES / "sites" / name).read_text(encoding="utf-8")
        lines.append(json.dumps({"doc_id": f"d-{i}", "body": html, "link": url_of(name), "tags": ["a", i]}))
    pages.write_text("\n".join(lines) + "\n", encoding="utf-8")
    jsonl_out = tmp_path / "jsonl-out"
    summary = docview.ingest(pages, jsonl_out, url_field="link", html_field="body", threads=1)
    assert summary["counters"]["kept"] == 2
    check_records(jsonl_out)
    records = list(docview.read_docviews(jsonl_out))
    assert [r["identifier"] for r in records] == [url_of("fieldnotes/lichens.html"), url_of("fieldnotes/moths.html")]
    assert [list(r["input_fields"].items()) for r in records] == [
        [("doc_id", "d-0"), ("tags", ["a", 0])],
        [("doc_id", "d-1"), ("tags", ["a", 1])],
    ]
    assert all("warc_record_id" not in r for r in records)
    # The same key for both is refused before anything is written.
    with pytest.raises(docview.ArgumentError, match="html-field"):
        docview.ingest(pages, tmp_path / "same", url_field="body", html_field="body")
    assert not (tmp_path / "same").exists()


def test_ingest_reads_text_cleaned_elsewhere(tmp_path, ingested):
    # A Pyserini collection of the records' topic content, as another tool would hand it over:
    # each line's text is its record's topic content, not cleaned again.
    out, _ = ingested
    records = list(docview.read_docviews(out))
    collection = tmp_path / "collection.jsonl"
    lines = [json.dumps({"id": r["identifier"], "contents": r["topic_content"]}) for r in records]
    collection.write_text("\n".join(lines) + "\n", encoding="utf-8")
    text_out = tmp_path / "text-out"
    summary = docview.ingest(collection, text_out, url_field="id", text_field="contents", threads=1)
    assert summary["counters"]["kept"] == len(records)
    check_records(text_out)
    again = list(docview.read_docviews(text_out))
    assert [(r["identifier"], r["topic_content"]) for r in again] == [
        (r["identifier"], r["topic_content"]) for r in records
    ]
    # Text with markup in it is words, not HTML.
    notes = tmp_path / "notes.jsonl"
    notes.write_text(json.dumps({"id": "n1", "contents": "A <b>bold</b> claim &amp; more"}) + "\n", encoding="utf-8")
    docview.ingest(notes, tmp_path / "notes", url_field="id", text_field="contents")
    assert next(iter(docview.read_docviews(tmp_path / "notes")))["topic_content"] == "A <b>bold</b> claim &amp; more"
    with pytest.raises(docview.ArgumentError, match="text_field"):
        docview.ingest(notes, tmp_path / "both", html_field="body", text_field="contents")
    with pytest.raises(docview.ArgumentError, match="text-field"):
        docview.ingest(notes, tmp_path / "same", url_field="id", text_field="id")
