"""docview: a search-engine indexing preprocessor, from Python.

docview cleans crawled web pages down to their topic content (dropping navigation, ads,
footers and other boilerplate), removes replicas, integrates each page into a DocView record
and indexes the collection three ways (full text, topic content, abstract), following Zhang,
Chen and Li (2004). This package runs docview's own Rust library in the Python process:

- ``extract(html, url)``: one page's topic content (text, Markdown, HTML or the JSON report),
  its title, page type, language and metadata.
- ``Extractor(cleaner)``: a cleaner loaded once, for many pages; thread-safe, and it releases
  the GIL while it works.
- ``ingest(inputs, out, **options)``: what ``docview ingest`` does, returning its summary.
- ``read_docviews(out)``: the DocView records an ingest wrote, one dict at a time.
- ``search(out, query)``: the ``docview query`` search over an ingest's indexes.

Errors are ``DocviewError``; a bad argument is also a ``ValueError`` (``ArgumentError``) and
a missing path also a ``FileNotFoundError`` (``PathNotFoundError``).
"""

from __future__ import annotations

from ._errors import ArgumentError, DocviewError, PathNotFoundError
from ._docview import (
    DEFAULT_CLEANER,
    DocViews,
    Extraction,
    Extractor,
    __version__,
    extract,
    ingest,
    read_docviews,
    search,
)
from ._docview import CLEANERS as _CLEANERS
from ._docview import FORMATS as _FORMATS

#: The cleaners' names, the default first: what ``cleaner=`` takes.
CLEANERS: tuple[str, ...] = tuple(_CLEANERS)
#: The formats of ``Extraction.content``: what ``format=`` takes.
FORMATS: tuple[str, ...] = tuple(_FORMATS)

__all__ = [
    "ArgumentError",
    "CLEANERS",
    "DEFAULT_CLEANER",
    "DocViews",
    "DocviewError",
    "Extraction",
    "Extractor",
    "FORMATS",
    "PathNotFoundError",
    "__version__",
    "extract",
    "ingest",
    "read_docviews",
    "search",
]
