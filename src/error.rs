//! Errors of the docview library. Every error names the input it is about and what was wrong.

use std::path::PathBuf;

/// Result with docview's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// What can go wrong while reading, decoding, cleaning or scoring pages.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Reading or writing a file failed.
    #[error("{path}: {source}")]
    Io {
        /// The file, or `-` for standard input.
        path: PathBuf,
        /// The underlying I/O error.
        source: std::io::Error,
    },
    /// The input could not be turned into a page.
    #[error("{input}: {reason}")]
    BadInput {
        /// Which input (a path, a URL, a record offset).
        input: String,
        /// What was wrong with it.
        reason: String,
    },
    /// Reading an input failed.
    #[error(transparent)]
    Input(#[from] docview_input::Error),
    /// A page could not be cleaned (no HTML page) or its limits are out of range.
    #[error(transparent)]
    Page(#[from] docview_extract::Error),
    /// A setting out of its range.
    #[error("setting {name}: {reason}")]
    Setting {
        /// The setting (as the command line names it, without the dashes).
        name: &'static str,
        /// What is wrong with its value.
        reason: String,
    },
    /// A labelled corpus is missing files or holds malformed ground truth.
    #[error("corpus {path}: {reason}")]
    Corpus {
        /// The corpus folder or file.
        path: PathBuf,
        /// What was wrong.
        reason: String,
    },
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
    /// Creating, writing, reading or querying a Tantivy index failed.
    #[error("index {path}: {source}")]
    Index {
        /// The index folder.
        path: PathBuf,
        /// The underlying Tantivy error.
        source: tantivy::TantivyError,
    },
    /// An index to read or query does not exist.
    #[error("{path}: no index here; run `docview ingest` first")]
    NoIndex {
        /// The folder where the index should be.
        path: PathBuf,
    },
    /// A replica benchmark cannot be built or read.
    #[error("replica benchmark {path}: {reason}")]
    Benchmark {
        /// The benchmark folder or the set it is built from.
        path: PathBuf,
        /// What was wrong.
        reason: String,
    },
    /// MinHash parameters that cannot work.
    #[error("minhash: {0}")]
    MinHash(#[from] crate::replica::MinHashError),
    /// An unknown index name was asked for.
    #[error("unknown index {0:?} (known: fulltext, topic, abstract)")]
    UnknownIndex(String),
}

/// A pool of `threads` worker threads (0: one per core) for a parallel command.
pub fn thread_pool(threads: usize) -> Result<rayon::ThreadPool> {
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
        Error::Setting {
            name,
            reason: reason.into(),
        }
    }

    /// An I/O error on `path`.
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Io {
            path: path.into(),
            source,
        }
    }

    /// A bad input, named by `input`.
    pub fn bad_input(input: impl Into<String>, reason: impl Into<String>) -> Self {
        Error::BadInput {
            input: input.into(),
            reason: reason.into(),
        }
    }
}
