"""docview as the extraction step of a datatrove pipeline.

datatrove (https://github.com/huggingface/datatrove) processes web crawls as pipelines of
steps over ``Document``s. Its ``WarcReader`` turns each HTML response of a WARC file into a
Document whose text is the page's HTML; the step here, ``DocviewExtract``, replaces that HTML
with the page's topic content as docview cleans it (text or Markdown) and adds what docview
found out about the page (title, page type, language, cleaner) to the Document's metadata.
Pages that are no HTML page, and pages whose topic content is empty, are dropped and counted
in the step's stats.

In a pipeline of your own::

    from docview.datatrove import DocviewExtract
    pipeline = [WarcReader("crawl/"), DocviewExtract(format="markdown"), JsonlWriter("out/")]

or over one WARC file from the command line::

    pip install docview datatrove warcio faust-cchardet python-magic orjson
    python -m docview.datatrove corpus-samples/warc/corpus-samples.warc.gz OUT

which writes OUT/00000.jsonl.gz, one JSON line per page kept, and logs each step's stats.
datatrove is not a dependency of docview: this module imports it, ``import docview`` does not.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Optional

from datatrove.data import DocumentsPipeline
from datatrove.executor import LocalPipelineExecutor
from datatrove.pipeline.base import PipelineStep
from datatrove.pipeline.readers import WarcReader
from datatrove.pipeline.writers import JsonlWriter

import docview


class DocviewExtract(PipelineStep):
    """Cleans each Document's HTML down to its topic content with docview.

    Args:
        cleaner: one of ``docview.CLEANERS`` (default "learned").
        format: what ``Document.text`` becomes: "text" or "markdown" (or "html", "json").
        min_chars: Documents whose topic content is shorter are dropped.
    """

    name = "🧹 docview"
    type = "🛢 - EXTRAC"
    _requires_dependencies = ["docview"]

    def __init__(self, cleaner: str = "learned", format: str = "text", min_chars: int = 1):
        super().__init__()
        if cleaner not in docview.CLEANERS:
            raise ValueError(f"cleaner: unknown cleaner {cleaner!r} (known: {', '.join(docview.CLEANERS)})")
        if format not in docview.FORMATS:
            raise ValueError(f"format: unknown format {format!r} (known: {', '.join(docview.FORMATS)})")
        self.cleaner = cleaner
        self.format = format
        self.min_chars = min_chars

    def run(self, data: DocumentsPipeline, rank: int = 0, world_size: int = 1) -> DocumentsPipeline:
        # The Extractor is made here, in the worker, not in __init__: datatrove copies and
        # pickles its steps to hand them to workers, and a loaded cleaner is neither.
        extractor = docview.Extractor(self.cleaner, format=self.format)
        for doc in data:
            self.stat_update("total")
            with self.track_time():
                try:
                    page = extractor.extract(doc.text, doc.metadata.get("url"))
                except docview.DocviewError:
                    # Not an HTML page (empty, binary): docview names it and why; count it.
                    self.stat_update("not_a_page")
                    continue
            if len(page.text.strip()) < self.min_chars:
                self.stat_update("empty_topic_content")
                continue
            doc.text = page.content
            doc.metadata.update(
                title=page.title,
                page_type=page.page_type,
                language=page.language,
                cleaner=page.cleaner,
            )
            # What the page says about itself, where it does (JSON-LD, Open Graph, its byline).
            for field in ("author", "published", "site_name", "description", "canonical_url"):
                declared = page.metadata.get(field)
                if declared is not None:
                    doc.metadata[field] = declared["value"]
            self.stat_update("forwarded")
            self.stat_update(f"page_type_{page.page_type}")
            self.update_doc_stats(doc)
            yield doc


def pipeline(warc: Path, out: Path, cleaner: str = "learned", format: str = "text") -> list:
    """The steps: read the WARC, clean each page with docview, write JSON Lines into out."""
    return [
        WarcReader(str(warc.parent), glob_pattern=warc.name),
        DocviewExtract(cleaner=cleaner, format=format),
        JsonlWriter(str(out)),
    ]


def run(warc: Path, out: Path, logs: Optional[Path] = None, cleaner: str = "learned", format: str = "text"):
    """Runs the pipeline in this process (one task, one worker) and returns its stats."""
    executor = LocalPipelineExecutor(
        pipeline=pipeline(warc, out, cleaner, format),
        tasks=1,
        workers=1,
        logging_dir=str(logs if logs is not None else out / "logs"),
        skip_completed=False,
    )
    return executor.run()


def main(argv: Optional[list] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("warc", type=Path, help="a WARC or WARC.gz file")
    parser.add_argument("out", type=Path, help="output folder for the JSON Lines")
    parser.add_argument("--cleaner", default="learned", choices=docview.CLEANERS)
    parser.add_argument("--format", default="text", choices=docview.FORMATS)
    args = parser.parse_args(argv)
    # The executor logs each step's stats when it is done.
    run(args.warc, args.out, cleaner=args.cleaner, format=args.format)
    return 0


if __name__ == "__main__":
    sys.exit(main())
