"""Shared fixtures: the bundled samples (corpus-samples/) and one ingest of their WARC."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import docview

#: The repository's root: python/tests/ is two levels below it.
ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "corpus-samples"
WARC = SAMPLES / "warc" / "corpus-samples.warc.gz"


def sample_pages() -> list[dict]:
    """The samples' pages as pages.json lists them: id, file (under corpus-samples/), url,
    page_type (article, listing, gallery), main_content (paragraphs), with, without."""
    return json.loads((SAMPLES / "pages.json").read_text(encoding="utf-8"))["pages"]


@pytest.fixture(scope="session")
def pages() -> list[dict]:
    return sample_pages()


@pytest.fixture(scope="session")
def page_by_file(pages):
    """A page of pages.json by its file under sites/ (`harbor-gazette/ferry.html`), with its
    bytes under `bytes`."""

    def get(name: str) -> dict:
        for p in pages:
            if p["file"] == f"sites/{name}":
                return dict(p, bytes=(SAMPLES / p["file"]).read_bytes())
        raise KeyError(name)

    return get


@pytest.fixture(scope="session")
def ingested(tmp_path_factory):
    """One ingest of the samples' WARC (Parquet too), shared by the tests that read its
    output: (out folder, summary)."""
    out = tmp_path_factory.mktemp("ingest") / "out"
    summary = docview.ingest(str(WARC), out, threads=2, parquet=True)
    return out, summary
