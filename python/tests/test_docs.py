"""The Python examples of the README and of docs/guides/python.md run, and print what their
comments say they print."""

from __future__ import annotations

import contextlib
import importlib.util
import io
import re
from pathlib import Path

import pytest

from conftest import ROOT, SAMPLES, check_records

DOCS = [ROOT / "README.md", ROOT / "docs" / "guides" / "python.md"]
BLOCK = re.compile(r"```python\n(.*?)```", re.S)


def documents():
    for doc in DOCS:
        if doc.exists() and BLOCK.search(doc.read_text(encoding="utf-8")):
            yield pytest.param(doc, id=str(doc.relative_to(ROOT)))


def expected_outputs(code: str) -> list[str]:
    """The comments of the lines that print: what each says it prints."""
    out = []
    for line in code.splitlines():
        if line.lstrip().startswith("print(") and "  # " in line:
            out.append(line.split("  # ", 1)[1].strip())
    return out


@pytest.mark.parametrize("doc", list(documents()))
def test_the_python_examples_run(doc, tmp_path, monkeypatch):
    # In a folder of their own with the samples in it, as at the root of a clone; what an
    # example writes (target/...) stays there.
    (tmp_path / "corpus-samples").symlink_to(SAMPLES)
    monkeypatch.chdir(tmp_path)
    # A document's examples are one session: each goes on from the ones before, as written
    # (no name is given to them).
    namespace: dict = {}
    for i, code in enumerate(BLOCK.findall(doc.read_text(encoding="utf-8")), 1):
        if "datatrove" in code and importlib.util.find_spec("datatrove") is None:
            # test_datatrove.py says why it skips.
            continue
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            exec(compile(code, f"{doc.name} example {i}", "exec"), namespace)
        for expected in expected_outputs(code):
            assert expected in printed.getvalue(), (i, expected, printed.getvalue()[:2000])
    # What an example ingested passes the schema, as every ingest of the tests does.
    for records in tmp_path.glob("target/**/docviews.jsonl"):
        check_records(records.parent)
