//! What can go wrong with a classifier: a model file that cannot be read or written, or is
//! of another version, and training with nothing to train on.

/// Result with this crate's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// What can go wrong with a classifier.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Reading or writing a model file failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The underlying I/O error.
        source: std::io::Error,
    },
    /// A model file cannot be read or is of another version, or there is nothing to train on.
    #[error("classifier {source_name}: {reason}")]
    Model {
        /// The model file, or what was being trained.
        source_name: String,
        /// What was wrong.
        reason: String,
    },
    /// A scheme file that cannot be read as `code<TAB>label` lines.
    #[error("scheme {source_name}:{line}: {reason}")]
    Scheme {
        /// The scheme file.
        source_name: String,
        /// The line (1-based; 0 for the file as a whole).
        line: usize,
        /// What was wrong.
        reason: String,
    },
}
