"""Type stubs of docview: the signatures of docview/__init__.py and its native module."""

import os
import pathlib
from typing import Any, Callable, Dict, Iterator, List, Literal, Optional, Sequence, Tuple, Union

from ._errors import ArgumentError as ArgumentError
from ._errors import DocviewError as DocviewError
from ._errors import PathNotFoundError as PathNotFoundError

_Path = Union[str, "os.PathLike[str]"]
_Html = Union[str, bytes, bytearray, memoryview]
_Format = Literal["text", "markdown", "html", "json"]
_Favor = Literal["precision", "balanced", "recall"]
_Cleaner = Literal[
    "learned",
    "framework",
    "eem",
    "keypattern",
    "infodiscoverer",
    "infodiscoverer-table",
    "wisdom",
]
_Index = Literal["topic", "fulltext", "abstract", "docview"]
_Replicas = Literal["exact", "keyword", "minhash"]

__version__: str
CLEANERS: Tuple[str, ...]
DEFAULT_CLEANER: str
FORMATS: Tuple[str, ...]

class Extraction:
    """The topic content of one page, and what docview found out about the page. It pickles:
    an Extraction crosses to another process whole."""

    @property
    def text(self) -> str:
        """The topic content as plain text, whatever the format."""
    @property
    def content(self) -> str:
        """The topic content in the format asked for (the JSON report as a str for "json")."""
    @property
    def format(self) -> _Format:
        """The format of content."""
    @property
    def title(self) -> str:
        """The page's title without the site's name (metadata["title"]), else its <title>."""
    @property
    def page_type(self) -> Literal["topic", "hub", "image"]:
        """The page type as the DocView record gives it: the cleaner's type and the content
        classifier's class together."""
    @property
    def cleaner_page_type(self) -> Literal["topic", "hub", "image"]:
        """The cleaner's own page type (the JSON report's page_type)."""
    @property
    def genre(self) -> Optional[Dict[str, Any]]:
        """The page's genre: scheme ("page_type"), class ("article", ...), score, prior, model
        (None from an Extractor made with classify=False)."""
    @property
    def subject(self) -> Optional[Dict[str, Any]]:
        """The page's subject, the record's classification code: scheme ("iptc-mediatopic"),
        code ("medtop:15000000" or None), label, score, reason (why none: "below-threshold",
        "no-known-term"), model (None from an Extractor made with classify=False)."""
    @property
    def language(self) -> str:
        """The page's language as an ISO 639-1 code ("und" when unknown)."""
    @property
    def metadata(self) -> Dict[str, Any]:
        """author, published, modified, site_name, canonical_url, language: each a dict of
        its value and its source, or None."""
    @property
    def blocks(self) -> Optional[List[Dict[str, Any]]]:
        """Every block of the tag tree with its verdict (blocks=True), else None."""
    @property
    def url(self) -> Optional[str]:
        """The page's URL as given."""
    @property
    def cleaner(self) -> str:
        """The cleaner that cleaned the page."""
    @property
    def charset(self) -> str:
        """The charset the page was decoded with."""
    @property
    def truncated(self) -> Optional[str]:
        """How the page was cut to docview's page limits, or None."""
    @property
    def comments(self) -> Optional[str]:
        """The page's comment section as plain text (comments=True), else None."""
    def to_dict(self) -> Dict[str, Any]:
        """Every attribute in a new dict."""

class Extractor:
    """A cleaner loaded once, to clean many pages; safe to share between threads."""

    def __init__(
        self,
        cleaner: _Cleaner = "learned",
        model: Optional[_Path] = None,
        *,
        format: _Format = "text",
        favor: _Favor = "balanced",
        classify: bool = True,
        max_page_mb: Optional[int] = None,
        max_page_tags: Optional[int] = None,
        tables: bool = True,
        links: bool = True,
        images: bool = True,
        comments: bool = False,
    ) -> None:
        """classify=False skips the page-type classifier: page_type is then the cleaner's own
        and genre and subject None (the work of `docview extract`, for bulk cleaning)."""
    def extract(
        self,
        html: _Html,
        url: Optional[str] = None,
        *,
        format: Optional[_Format] = None,
        blocks: bool = False,
        charset: Optional[str] = None,
    ) -> Extraction:
        """Cleans one page with this extractor's cleaner (format None: the extractor's)."""
    @property
    def cleaner(self) -> str:
        """The cleaner's name."""
    @property
    def favor(self) -> _Favor:
        """What the learned cleaner favours."""
    @property
    def model(self) -> Optional[pathlib.Path]:
        """The block model file, or None for the model inside the module."""
    @property
    def format(self) -> _Format:
        """The default format of extract()."""

class DocViews(Iterator[Dict[str, Any]]):
    """The DocView records of an ingest's output, one dict at a time."""

    def __iter__(self) -> "DocViews": ...
    def __next__(self) -> Dict[str, Any]: ...
    @property
    def path(self) -> pathlib.Path:
        """The record file read."""
    @property
    def format(self) -> Literal["jsonl", "parquet"]:
        """Its layout."""

def extract(
    html: _Html,
    url: Optional[str] = None,
    *,
    format: _Format = "text",
    cleaner: _Cleaner = "learned",
    favor: _Favor = "balanced",
    blocks: bool = False,
    charset: Optional[str] = None,
    max_page_mb: Optional[int] = None,
    max_page_tags: Optional[int] = None,
    tables: bool = True,
    links: bool = True,
    images: bool = True,
    comments: bool = False,
) -> Extraction:
    """Cleans one page down to its topic content."""

def ingest(
    inputs: Union[_Path, Sequence[_Path]],
    out: _Path,
    *,
    threads: int = 0,
    cleaner: Optional[_Cleaner] = None,
    favor: Optional[_Favor] = None,
    model: Optional[_Path] = None,
    pages_alone: bool = False,
    classifier: Optional[_Path] = None,
    no_classifier: bool = False,
    keywords: Optional[int] = None,
    sentences: Optional[int] = None,
    theta: Optional[int] = None,
    beta: Optional[float] = None,
    replicas: Optional[_Replicas] = None,
    minhash_threshold: Optional[float] = None,
    percentage: Optional[float] = None,
    interval: Optional[int] = None,
    stats: Optional[_Path] = None,
    earlier: Optional[Sequence[_Path]] = None,
    stopword_df: Optional[float] = None,
    commit_every: Optional[int] = None,
    resume: bool = False,
    overwrite: bool = False,
    index_memory: Optional[int] = None,
    parquet: bool = False,
    markdown: bool = False,
    max_page_mb: Optional[int] = None,
    max_page_tags: Optional[int] = None,
    url_field: Optional[str] = None,
    html_field: Optional[str] = None,
    text_field: Optional[str] = None,
    progress: Optional[Callable[[Dict[str, Any]], Any]] = None,
) -> Dict[str, Any]:
    """Runs docview ingest over inputs into out and returns its summary."""

def read_docviews(path: _Path) -> DocViews:
    """Iterates the DocView records (dicts) of an ingest's output."""

def search(
    out: _Path,
    query: str,
    index: _Index = "topic",
    k: int = 10,
) -> List[Dict[str, Any]]:
    """Searches one of the four indexes of an ingest's output."""
