"""Shared fixtures: the bundled samples (corpus-samples/), one ingest of their WARC, and the
one check of an ingest's records against the DocView schema (schema/docview.schema.json),
which every test that writes docviews.jsonl runs on what it wrote, as the Rust tests do
(tests/it/schema.rs)."""

from __future__ import annotations

import functools
import json
from pathlib import Path

import jsonschema
import pytest

import docview

#: The repository's root: python/tests/ is two levels below it.
ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "corpus-samples"
WARC = SAMPLES / "warc" / "corpus-samples.warc.gz"
SCHEMA = ROOT / "schema" / "docview.schema.json"


@functools.lru_cache(maxsize=None)
def record_validator() -> jsonschema.protocols.Validator:
    """The DocView record schema, checked and compiled once."""
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    return cls(schema)


def check_records(out) -> int:
    """Checks every record of the output folder out (its docviews.jsonl) against the schema,
    failing with the line and what is wrong; how many records there are."""
    path = Path(out) / "docviews.jsonl"
    validator = record_validator()
    n = 0
    with open(path, encoding="utf-8") as lines:
        for i, line in enumerate(lines, 1):
            errors = [
                f"{e.message} at {list(e.absolute_path)}" for e in validator.iter_errors(json.loads(line))
            ]
            assert not errors, f"{path} line {i}: {errors}"
            n += 1
    return n


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
    check_records(out)
    return out, summary
