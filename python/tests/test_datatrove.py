"""docview.datatrove, shipped in the package: docview as the extraction step of a datatrove
pipeline over the samples' WARC. Skips, saying why, where datatrove or its WARC reader's packages
are missing."""

from __future__ import annotations

import gzip
import importlib
import importlib.util
import json
import sys
from pathlib import Path

import pytest

from conftest import WARC, sample_pages

# datatrove's WarcReader needs warcio, cchardet (faust-cchardet) and magic (python-magic, over
# the system's libmagic); its JsonlWriter needs orjson.
for module in ["datatrove", "warcio", "cchardet", "magic", "orjson"]:
    try:
        importlib.import_module(module)
    except Exception as e:  # ImportError, or python-magic's OSError without libmagic
        pytest.skip(
            f"docview.datatrove not tested: {module} cannot be imported ({e}); "
            "pip install datatrove warcio faust-cchardet python-magic orjson",
            allow_module_level=True,
        )


def load_example():
    # The step as the installed package ships it.
    return importlib.import_module("docview.datatrove")


def test_docview_cleans_a_warc_in_a_datatrove_pipeline(tmp_path):
    example = load_example()
    out = tmp_path / "out"
    example.run(WARC, out, logs=tmp_path / "logs")
    files = sorted(out.glob("*.jsonl.gz"))
    assert files, list(out.iterdir())
    docs = [json.loads(line) for f in files for line in gzip.open(f, "rt", encoding="utf-8")]
    pages = {p["url"]: p for p in sample_pages()}
    # Every page of the WARC (35 HTML responses) came through, cleaned.
    assert len(docs) == len(pages)
    by_url = {d["metadata"]["url"]: d for d in docs}
    assert set(by_url) == set(pages)
    for url, doc in by_url.items():
        page = pages[url]
        meta = doc["metadata"]
        assert meta["cleaner"] == "learned"
        assert meta["page_type"] in ("topic", "hub", "image")
        assert meta["language"] in ("en", "zh")
        # The HTML is gone: the text is the topic content.
        assert "<html" not in doc["text"].lower() and "<div" not in doc["text"].lower(), page["file"]
        if page["page_type"] == "article":
            assert meta["page_type"] == "topic", page["file"]
            # Its body's paragraphs are there, its boilerplate is not.
            assert page["with"][1] in doc["text"], page["file"]
    moths = by_url[next(u for u, p in pages.items() if p["file"].endswith("moths.html"))]
    # The article from its first words on (its headline may come first).
    assert 0 <= moths["text"].find("On a warm, still night") <= len("A night at the porch light\n\n")
    assert moths["metadata"]["title"] == "A night at the porch light"
    assert moths["metadata"]["site_name"] == "Fieldnotes"
    listing = by_url[next(u for u, p in pages.items() if p["file"].endswith("harbor-gazette/index.html"))]
    assert listing["metadata"]["page_type"] == "hub"


def test_the_step_checks_its_arguments():
    example = load_example()
    with pytest.raises(ValueError, match="unknown cleaner 'best'"):
        example.DocviewExtract(cleaner="best")
    with pytest.raises(ValueError, match="unknown format 'pdf'"):
        example.DocviewExtract(format="pdf")


def test_the_step_runs_from_the_command_line(tmp_path):
    import subprocess

    out = tmp_path / "cli"
    done = subprocess.run(
        [sys.executable, "-m", "docview.datatrove", str(WARC), str(out)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    lines = [l for f in sorted(out.glob("*.jsonl.gz")) for l in gzip.open(f, "rt", encoding="utf-8")]
    assert len(lines) == len(sample_pages())
