//! Errors of the collection layer (and of docview's page layer, which it wraps). Every error names the input it is about and what was wrong.

use std::path::PathBuf;

/// Result with docview's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// What can go wrong while reading, decoding, cleaning or scoring pages.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Reading or writing a file failed, or an input could not be turned into pages (the
    /// input layer's error, which the rest of docview reuses for its own files).
    #[error(transparent)]
    Input(#[from] docview_input::Error),
    /// A page could not be cleaned (no HTML page), or a setting is out of its range (the
    /// one-page path's error, which the rest of docview reuses for its own settings).
    #[error(transparent)]
    Page(#[from] docview_extract::Error),
    /// The worker threads could not be started.
    #[error("cannot start {threads} worker threads: {reason}")]
    ThreadPool {
        /// How many threads were asked for (0: one per core).
        threads: usize,
        /// Why they could not be started.
        reason: String,
    },
    /// Choosing a cleaner or handling its block model failed.
    #[error(transparent)]
    Clean(#[from] docview_clean::Error),
    /// The content classifier's model cannot be read.
    #[error(transparent)]
    Classify(#[from] docview_classify::Error),
    /// Creating, writing, reading or querying a Tantivy index failed.
    #[error("index {path}: {source}")]
    Index {
        /// The index folder.
        path: PathBuf,
        /// The underlying Tantivy error.
        source: tantivy::TantivyError,
    },
    /// An index to read or query does not exist.
    #[error(
        "{path}: no index here; run `docview ingest` first (a folder ingested by a docview \
         older than the DocView index has no `docview` index: ingest it again)"
    )]
    NoIndex {
        /// The folder where the index should be.
        path: PathBuf,
    },
    /// MinHash parameters that cannot work.
    #[error("minhash: {0}")]
    MinHash(#[from] crate::minhash::MinHashError),
    /// A query cannot be searched: nested too deep, too long, or nothing to search for.
    #[error(transparent)]
    Query(#[from] crate::index::QueryError),
    /// A folder a run would write that is not docview's to take, or to clear.
    #[error("{}: {why}", .folder.display())]
    Folder {
        /// The folder (`--out`, `--work`).
        folder: PathBuf,
        /// Why it is refused.
        why: crate::owned::FolderRefusal,
    },
    /// An unknown index name was asked for.
    #[error("unknown index {0:?} (known: fulltext, topic, abstract, docview)")]
    UnknownIndex(String),
    /// Field weights of the DocView index that cannot be read.
    #[error("field weights {given:?}: {why}")]
    FieldWeights {
        /// The text given.
        given: String,
        /// What is wrong with it.
        why: String,
    },
}

/// The most worker threads a command may be asked for (its `--threads`, the Python
/// functions' `threads`): more than the cores of any machine docview runs on, and far fewer
/// than the thousands of threads, and gigabytes of stacks, that a slip such as `--threads
/// 100000` would start. 0 (one per core) is always allowed.
pub const MAX_THREADS: usize = 256;

/// `threads` if it is at most [`MAX_THREADS`] (0: one per core); otherwise the refusal of
/// the setting `threads`, saying the bound.
pub fn check_threads(threads: usize) -> Result<usize> {
    if threads > MAX_THREADS {
        return Err(Error::setting(
            "threads",
            format!(
                "{threads} worker threads is more than the {MAX_THREADS} docview runs; give at \
                 most {MAX_THREADS}, or 0 for one per core"
            ),
        ));
    }
    Ok(threads)
}

/// A pool of `threads` worker threads (0: one per core) for a parallel command; more than
/// [`MAX_THREADS`] is refused.
pub fn thread_pool(threads: usize) -> Result<rayon::ThreadPool> {
    check_threads(threads)?;
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .map_err(|e| Error::ThreadPool {
            threads,
            reason: e.to_string(),
        })
}

impl Error {
    /// A setting out of its range.
    pub fn setting(name: &'static str, reason: impl Into<String>) -> Self {
        Error::Page(docview_extract::Error::setting(name, reason))
    }

    /// An I/O error on `path`.
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Input(docview_input::Error::io(path, source))
    }

    /// A bad input, named by `input`.
    pub fn bad_input(input: impl Into<String>, reason: impl Into<String>) -> Self {
        Error::Input(docview_input::Error::bad_input(input, reason))
    }

    /// Whether the error is a write that found no room: a full disk, or a quota spent.
    pub fn is_storage_full(&self) -> bool {
        let full = |e: &std::io::Error| {
            matches!(
                e.kind(),
                std::io::ErrorKind::StorageFull | std::io::ErrorKind::QuotaExceeded
            )
        };
        match self {
            Error::Input(docview_input::Error::Io { source, .. }) => full(source),
            Error::Index { source, .. } => match source {
                tantivy::TantivyError::IoError(e) => full(e),
                tantivy::TantivyError::OpenWriteError(
                    tantivy::directory::error::OpenWriteError::IoError { io_error, .. },
                ) => full(io_error),
                _ => false,
            },
            _ => false,
        }
    }
}
