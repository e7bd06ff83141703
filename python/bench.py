"""Throughput of docview through Python against the docview command, on the same pages.

Three ways to clean the pages of a labelled set (default: corpus-samples/labelled), each with
the learned cleaner, one page at a time, on one thread:

- python:  docview.Extractor(classify=False).extract(html, url) in a loop over the pages,
           already in memory (the pages repeated --repeat times), timed around the loop: the
           work of the command (no page-type classifier), with the page's metadata besides;
- eval:    `docview eval SET --pages-alone --threads 1`, whose speed line times the extraction
           of each page (pages/s and MB/s of HTML per core), without reading or scoring;
- extract: `docview extract PAGE...` over the same pages' files (one process: start, the model,
           reading each file and printing its text), timed around the command.

The rounds are interleaved (python, eval, extract, python, ...) so that a slower or faster spell
of a shared machine falls on all three; the median of each is printed, with python's figure
over each command's. Not a test: it prints figures and asserts nothing.

    python python/bench.py [--set DIR] [--docview PATH] [--rounds 5] [--repeat 20]
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
# Run as `python python/bench.py`, Python puts python/ first on sys.path, where the package's
# source lies without its native module (unless `maturin develop` put it there): import the
# installed docview instead.
if sys.path and Path(sys.path[0] or ".").resolve() == HERE and not list((HERE / "docview").glob("_docview*")):
    del sys.path[0]

import docview  # noqa: E402


def load_set(folder: Path) -> list[tuple[Path, bytes, str | None]]:
    """(file, HTML bytes, URL) of each page of a labelled set, in id order."""
    pages = []
    for file in sorted((folder / "html").glob("*.html.gz")):
        page_id = file.name[: -len(".html.gz")]
        truth = folder / "ground-truth" / f"{page_id}.json"
        url = json.loads(truth.read_text(encoding="utf-8")).get("url") if truth.exists() else None
        pages.append((file, gzip.decompress(file.read_bytes()), url))
    if not pages:
        sys.exit(f"bench: {folder}: no html/*.html.gz pages")
    return pages


def find_docview(given: str | None) -> str:
    for candidate in [given, os.environ.get("DOCVIEW"), str(ROOT / "target" / "release" / "docview"), shutil.which("docview")]:
        if candidate and Path(candidate).is_file() and os.access(candidate, os.X_OK):
            return candidate
    sys.exit("bench: no docview binary: build it (cargo build --release) or give --docview PATH")


def python_round(extractor, pages, repeat: int) -> tuple[float, float]:
    """Pages/s and MB/s of Extractor.extract over the pages, repeated."""
    total_bytes = sum(len(html) for _, html, _ in pages) * repeat
    start = time.perf_counter()
    for _ in range(repeat):
        for _, html, url in pages:
            extractor.extract(html, url)
    secs = time.perf_counter() - start
    return len(pages) * repeat / secs, total_bytes / 1e6 / secs


SPEED = re.compile(r"speed: ([0-9.]+) pages/s, ([0-9.]+) MB/s")


def eval_round(binary: str, folder: Path) -> tuple[float, float]:
    """Pages/s and MB/s of the speed line of `docview eval`."""
    run = subprocess.run(
        [binary, "eval", str(folder), "--pages-alone", "--threads", "1"],
        capture_output=True,
        text=True,
        check=True,
    )
    match = SPEED.search(run.stdout + run.stderr)
    if not match:
        sys.exit(f"bench: no speed line in docview eval's output:\n{run.stdout}\n{run.stderr}")
    return float(match.group(1)), float(match.group(2))


def extract_round(binary: str, pages, repeat: int) -> tuple[float, float]:
    """Pages/s and MB/s of `docview extract` over the pages' files (repeated), timed around the
    command."""
    files = [str(f) for f, _, _ in pages] * repeat
    total_bytes = sum(len(html) for _, html, _ in pages) * repeat
    start = time.perf_counter()
    subprocess.run([binary, "extract", *files], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    secs = time.perf_counter() - start
    return len(files) / secs, total_bytes / 1e6 / secs


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--set", type=Path, default=ROOT / "corpus-samples" / "labelled", help="labelled set folder")
    parser.add_argument("--docview", help="the docview binary (default: target/release/docview, then PATH)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--repeat", type=int, default=20, help="times the Python loop and docview extract go over the pages")
    args = parser.parse_args()

    binary = find_docview(args.docview)
    pages = load_set(args.set)
    mb = sum(len(h) for _, h, _ in pages) / 1e6
    print(f"{len(pages)} pages, {mb:.2f} MB of HTML, from {args.set}")
    print(f"docview {docview.__version__} module {Path(docview._docview.__file__).name}; binary {binary}")
    extractor = docview.Extractor(classify=False)
    python_round(extractor, pages, 1)  # warm up: the model, the caches

    runs: dict[str, list[tuple[float, float]]] = {"python": [], "eval": [], "extract": []}
    for r in range(args.rounds):
        runs["python"].append(python_round(extractor, pages, args.repeat))
        runs["eval"].append(eval_round(binary, args.set))
        runs["extract"].append(extract_round(binary, pages, args.repeat))
        print(f"round {r + 1}: " + "  ".join(f"{k} {v[-1][0]:.1f} pages/s {v[-1][1]:.2f} MB/s" for k, v in runs.items()))

    med = {k: (statistics.median(p for p, _ in v), statistics.median(m for _, m in v)) for k, v in runs.items()}
    print()
    print(f"{'median of ' + str(args.rounds) + ' rounds':<44} {'pages/s':>9} {'MB/s':>8}")
    labels = {
        "python": "Python Extractor.extract (one thread)",
        "eval": "docview eval speed line (per core)",
        "extract": "docview extract PAGE... (whole command)",
    }
    for k, (p, m) in med.items():
        print(f"{labels[k]:<44} {p:>9.1f} {m:>8.2f}")
    print()
    for k in ("eval", "extract"):
        print(f"python / {k}: {med['python'][0] / med[k][0]:.2f} (pages/s), {med['python'][1] / med[k][1]:.2f} (MB/s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
