//! The module's errors and the Python exception each becomes.
//!
//! Every error names its input (a path, a URL, the argument) and what was wrong, as docview's
//! own errors do. Python sees three classes, defined in `docview/_errors.py` so that each can
//! have two bases: `DocviewError` (every failure), `ArgumentError` (a `DocviewError` and a
//! `ValueError`: a bad argument, an unknown name, bytes that are no page) and
//! `PathNotFoundError` (a `DocviewError` and a `FileNotFoundError`: a path that is not there).
//! Which class an error gets is decided on the typed variants of docview's errors, never on
//! their messages.

use std::path::PathBuf;

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::PyType;

/// Result with the module's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// What can go wrong in a call from Python.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// An argument out of its domain: an unknown format, cleaner or index name, options that
    /// cannot go together.
    #[error("{0}")]
    Argument(String),
    /// A path that is not there.
    #[error("{path}: {what}")]
    NotFound {
        /// The path.
        path: PathBuf,
        /// What was looked for there, or the operating system's word for it.
        what: String,
    },
    /// docview's collection layer failed (ingest, the indexes, the record files); it wraps the
    /// page layer's errors.
    #[error(transparent)]
    Collection(#[from] docview_collection::Error),
    /// An ingest refused to run (a folder in use, nothing to resume, settings that differ
    /// from the run it resumes); its other failures are the collection layer's.
    #[error(transparent)]
    Pipeline(#[from] docview_pipeline::Error),
    /// One page could not be cleaned (no page, a bad limit).
    #[error(transparent)]
    Page(#[from] docview_extract::Error),
    /// A cleaner or its block model could not be had.
    #[error(transparent)]
    Clean(#[from] docview_clean::Error),
    /// A line of a record file is not the JSON it should be.
    #[error("{input}: {source}")]
    Json {
        /// The file and line.
        input: String,
        /// The parser's error.
        source: serde_json::Error,
    },
    /// Something docview needs could not be had (a model inside the module that does not
    /// load).
    #[error("{0}")]
    Failed(String),
    /// docview panicked: a bug, reported as an error rather than unwound into Python.
    #[error("{input}: docview failed unexpectedly ({message}); please report this as a bug")]
    Panic {
        /// What was being worked on.
        input: String,
        /// The panic's message.
        message: String,
    },
}

/// The Python class an error becomes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Class {
    /// `docview.DocviewError`.
    Docview,
    /// `docview.ArgumentError`.
    Argument,
    /// `docview.PathNotFoundError`, for this path.
    NotFound,
}

impl Error {
    /// A bad argument.
    pub fn argument(message: impl Into<String>) -> Self {
        Error::Argument(message.into())
    }

    /// The class of this error, and for a missing path the path and what is missing there.
    fn class(&self) -> (Class, Option<(PathBuf, String)>) {
        match self {
            Error::Argument(_) => (Class::Argument, None),
            Error::NotFound { path, what } => (Class::NotFound, Some((path.clone(), what.clone()))),
            Error::Collection(e) => collection_class(e),
            Error::Pipeline(docview_pipeline::Error::Collection(e)) => collection_class(e),
            Error::Pipeline(_) => (Class::Docview, None),
            Error::Page(e) => page_class(e),
            Error::Clean(e) => clean_class(e),
            Error::Json { .. } | Error::Failed(_) | Error::Panic { .. } => (Class::Docview, None),
        }
    }

    /// The Python exception of this error.
    pub fn into_pyerr(self, py: Python<'_>) -> PyErr {
        let (class, missing) = self.class();
        let message = self.to_string();
        let ty = match class {
            Class::Docview => DOCVIEW_ERROR.import(py, ERRORS_MODULE, "DocviewError"),
            Class::Argument => ARGUMENT_ERROR.import(py, ERRORS_MODULE, "ArgumentError"),
            Class::NotFound => NOT_FOUND_ERROR.import(py, ERRORS_MODULE, "PathNotFoundError"),
        };
        let ty = match ty {
            Ok(ty) => ty.clone(),
            // The package is broken (its Python half is missing): say so with the message.
            Err(e) => return e,
        };
        match missing {
            // As the operating system's FileNotFoundError: errno, what is wrong, the path
            // (`[Errno 2] no index here; run docview.ingest first: 'out/index/topic'`).
            Some((path, what)) => PyErr::from_type(ty, (ENOENT, what, path.display().to_string())),
            None => PyErr::from_type(ty, (message,)),
        }
    }
}

impl From<Error> for PyErr {
    fn from(e: Error) -> PyErr {
        Python::attach(|py| e.into_pyerr(py))
    }
}

/// The Python module that defines the exception classes.
const ERRORS_MODULE: &str = "docview._errors";
/// POSIX's "no such file or directory", the errno of a missing path on every platform Python
/// runs on.
const ENOENT: i32 = 2;

static DOCVIEW_ERROR: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static ARGUMENT_ERROR: PyOnceLock<Py<PyType>> = PyOnceLock::new();
static NOT_FOUND_ERROR: PyOnceLock<Py<PyType>> = PyOnceLock::new();

/// The class of an I/O error on `path`: a missing path, or any other failure.
fn io_class(path: &std::path::Path, source: &std::io::Error) -> (Class, Option<(PathBuf, String)>) {
    if source.kind() == std::io::ErrorKind::NotFound {
        (
            Class::NotFound,
            Some((path.to_path_buf(), "No such file or directory".to_string())),
        )
    } else {
        (Class::Docview, None)
    }
}

fn collection_class(e: &docview_collection::Error) -> (Class, Option<(PathBuf, String)>) {
    use docview_collection::Error as E;
    match e {
        E::Input(docview_input::Error::Io { path, source }) => io_class(path, source),
        E::Input(docview_input::Error::BadInput { .. }) => (Class::Docview, None),
        E::Page(e) => page_class(e),
        E::Clean(e) => clean_class(e),
        E::NoIndex { path } => (
            Class::NotFound,
            Some((
                path.clone(),
                "no index here; run docview.ingest first".to_string(),
            )),
        ),
        E::Query(_) | E::UnknownIndex(_) | E::FieldWeights { .. } | E::MinHash(_) => {
            (Class::Argument, None)
        }
        _ => (Class::Docview, None),
    }
}

fn page_class(e: &docview_extract::Error) -> (Class, Option<(PathBuf, String)>) {
    match e {
        // The bytes given are no page, or a limit is out of its range: the argument is wrong.
        docview_extract::Error::NotAPage { .. } | docview_extract::Error::Setting { .. } => {
            (Class::Argument, None)
        }
    }
}

fn clean_class(e: &docview_clean::Error) -> (Class, Option<(PathBuf, String)>) {
    match e {
        docview_clean::Error::Io { path, source } => io_class(path, source),
        docview_clean::Error::UnknownCleaner(..) | docview_clean::Error::UnknownFavor { .. } => {
            (Class::Argument, None)
        }
        docview_clean::Error::Model { .. } => (Class::Docview, None),
    }
}

/// Runs `work`, turning a panic in it into an [`Error::Panic`] that names `input`: docview's
/// libraries do not panic on any input by design, and should one, Python gets a `DocviewError`
/// rather than a `PanicException` that `except Exception` would not catch.
pub fn no_panic<T>(input: &str, work: impl FnOnce() -> Result<T>) -> Result<T> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(work)) {
        Ok(result) => result,
        Err(payload) => {
            let message = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "a panic without a message".to_string());
            Err(Error::Panic {
                input: input.to_string(),
                message,
            })
        }
    }
}
