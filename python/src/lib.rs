//! docview from Python: the native half of the `docview` package (`docview._docview`).
//!
//! One page through decoding, the tag tree and a cleaner (`extract`, `Extractor`), the ingest
//! of a collection (`ingest`), its records (`read_docviews`) and its indexes (`search`), each
//! over docview's own library crates, so a call does what the `docview` command does. Names
//! from Python (formats, cleaners, indexes, replica detections) are checked and turned into
//! docview's types where they come in; errors become the Python exceptions of `error.rs`.
//! Every call that works releases the GIL.

#![deny(missing_docs)]

use pyo3::prelude::*;

mod error;
mod extract;
mod ingest;
mod records;
mod search;

/// The native module; `docview/__init__.py` re-exports what users call.
#[pymodule]
fn _docview(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("CLEANERS", docview_clean::CLEANERS.to_vec())?;
    m.add("DEFAULT_CLEANER", docview_clean::DEFAULT_CLEANER)?;
    m.add(
        "FORMATS",
        extract::Format::ALL.map(extract::Format::name).to_vec(),
    )?;
    m.add_function(wrap_pyfunction!(extract::extract, m)?)?;
    m.add_class::<extract::Extractor>()?;
    m.add_class::<extract::Extraction>()?;
    m.add_function(wrap_pyfunction!(ingest::ingest, m)?)?;
    m.add_function(wrap_pyfunction!(records::read_docviews, m)?)?;
    m.add_class::<records::DocViews>()?;
    m.add_function(wrap_pyfunction!(search::search, m)?)?;
    Ok(())
}
