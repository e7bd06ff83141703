//! `docview.search`: the `query` command's search over an ingest's indexes.

use std::path::PathBuf;
use std::str::FromStr;

use pyo3::prelude::*;

use docview_collection::index::{IndexKind, search as search_index};

use crate::error::{Error, Result, no_panic};

/// Searches one of the four indexes of an ingest's output, as `docview query` does.
///
/// out is the out folder of docview.ingest; index is "topic" (the topic content, the
/// default), "fulltext" (all visible text of each raw page), "abstract" (title, abstract and
/// keywords) or "docview" (the DocView record's title, keywords, abstract and topic content,
/// each a field of its own, searched together with `docview query`'s default field weights);
/// k the most hits to return. The query is `docview query`'s: words (stemmed and
/// segmented as the index was), "phrases", +required, -excluded, title:word, (groups), AND,
/// OR, NOT.
///
/// Returns the hits best first, each a dict of url, title, score (BM25) and snippet (text
/// around the best matches, each matched term between [[ and ]]). Raises ArgumentError for an
/// unknown index or a query with nothing to search for, PathNotFoundError when out holds no
/// such index.
#[pyfunction]
#[pyo3(
    signature = (out, query, index = "topic".to_string(), k = 10),
    text_signature = "(out, query, index='topic', k=10)"
)]
pub fn search<'py>(
    py: Python<'py>,
    out: PathBuf,
    query: String,
    index: String,
    k: usize,
) -> PyResult<Bound<'py, PyAny>> {
    let kind = IndexKind::from_str(&index)
        .map_err(|_| {
            Error::argument(format!(
                "index: unknown index {index:?} (known: {})",
                IndexKind::ALL.map(IndexKind::as_str).join(", ")
            ))
        })
        .map_err(|e| e.into_pyerr(py))?;
    let input = format!("{} ({} index)", out.display(), kind.as_str());
    let hits = py
        .detach(|| -> Result<_> { no_panic(&input, || Ok(search_index(&out, kind, &query, k)?)) })
        .map_err(|e| e.into_pyerr(py))?;
    Ok(pythonize::pythonize(py, &hits)?)
}
