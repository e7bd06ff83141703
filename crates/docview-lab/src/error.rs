//! Errors of the lab: the collection layer's (which wraps the page layer's), and what is wrong
//! with a labelled set or a replica benchmark. Every error names the input it is about.

use std::path::PathBuf;

/// Result with the lab's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// What can go wrong while scoring, training, benchmarking or comparing.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Reading, cleaning, indexing or querying failed (the collection layer's error, which
    /// wraps the page layer's).
    #[error(transparent)]
    Collection(#[from] docview_collection::Error),
    /// A labelled corpus is missing files or holds malformed ground truth.
    #[error("corpus {path}: {reason}")]
    Corpus {
        /// The corpus folder or file.
        path: PathBuf,
        /// What was wrong.
        reason: String,
    },
    /// A line of a query file is a query that cannot be searched.
    #[error("{} line {line}: {source}", path.display())]
    Query {
        /// The query file.
        path: PathBuf,
        /// The line, from 1.
        line: usize,
        /// What is wrong with its query.
        source: docview_collection::index::QueryError,
    },
    /// A line of a query file that is not UTF-8 text.
    #[error(
        "{} line {line}: not UTF-8 text (byte {byte} of the line); save the file as UTF-8",
        path.display()
    )]
    QueryNotText {
        /// The query file.
        path: PathBuf,
        /// The line, from 1.
        line: usize,
        /// The first byte that is not UTF-8, from 1.
        byte: usize,
    },
    /// A line of a test collection's topics or qrels that cannot be read.
    #[error("{} line {line}: {reason}", path.display())]
    TestCollection {
        /// The topics or qrels file.
        path: PathBuf,
        /// The line, from 1.
        line: usize,
        /// What was wrong.
        reason: String,
    },
    /// A line of a file of labelled text or of pages' subjects that cannot be read.
    #[error("{} line {line}: {reason}", path.display())]
    Labels {
        /// The file.
        path: PathBuf,
        /// The line, from 1 (0: the file as a whole).
        line: usize,
        /// What was wrong.
        reason: String,
    },
    /// A replica benchmark cannot be built or read.
    #[error("replica benchmark {path}: {reason}")]
    Benchmark {
        /// The benchmark folder or the set it is built from.
        path: PathBuf,
        /// What was wrong.
        reason: String,
    },
}

/// The page layer's errors reach the lab through the collection layer's.
macro_rules! through_collection {
    ($($from:ty),*) => {$(
        impl From<$from> for Error {
            fn from(e: $from) -> Self {
                Error::Collection(e.into())
            }
        }
    )*};
}
through_collection!(
    docview_input::Error,
    docview_extract::Error,
    docview_clean::Error,
    docview_classify::Error,
    docview_collection::minhash::MinHashError
);

impl Error {
    /// A setting out of its range.
    pub fn setting(name: &'static str, reason: impl Into<String>) -> Self {
        Error::Collection(docview_collection::Error::setting(name, reason))
    }

    /// An I/O error on `path`.
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Collection(docview_collection::Error::io(path, source))
    }

    /// A bad input, named by `input`.
    pub fn bad_input(input: impl Into<String>, reason: impl Into<String>) -> Self {
        Error::Collection(docview_collection::Error::bad_input(input, reason))
    }
}
