//! Errors of reading inputs. Every error names the input it is about and what was wrong.

use std::path::PathBuf;

/// Result with the input layer's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// What can go wrong while reading crawled inputs.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Reading a file failed.
    #[error("{path}: {source}")]
    Io {
        /// The file, or `-` for standard input.
        path: PathBuf,
        /// The underlying I/O error.
        source: std::io::Error,
    },
    /// The input could not be turned into pages.
    #[error("{input}: {reason}")]
    BadInput {
        /// Which input (a path, a URL, a record offset).
        input: String,
        /// What was wrong with it.
        reason: String,
    },
}

impl Error {
    /// An I/O error on `path`.
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Io {
            path: path.into(),
            source,
        }
    }

    /// A bad input.
    pub fn bad_input(input: impl Into<String>, reason: impl Into<String>) -> Self {
        Error::BadInput {
            input: input.into(),
            reason: reason.into(),
        }
    }
}
