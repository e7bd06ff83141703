"""The exceptions docview raises.

Every one is a DocviewError, so ``except docview.DocviewError`` catches them all; a bad
argument is also a ValueError and a missing path also a FileNotFoundError, so code that
catches those built-in classes works unchanged. Each message names the input (a path, a URL,
the argument) and what was wrong with it.
"""

from __future__ import annotations

__all__ = ["DocviewError", "ArgumentError", "PathNotFoundError"]


class DocviewError(Exception):
    """A docview call failed: the base class of every error docview raises."""


class ArgumentError(DocviewError, ValueError):
    """An argument docview cannot use: an unknown format, cleaner or index name, options that
    cannot go together, a setting out of its range, a query with nothing to search for, or
    bytes that are no HTML page (empty, binary data)."""


class PathNotFoundError(DocviewError, FileNotFoundError):
    """A path docview was given is not there: an input, a model file, an ingest's output
    folder without the records or the index asked for. ``filename`` holds the path,
    ``strerror`` what was looked for there."""
