//! Errors of the cleaners: a block model that cannot be read, written or trained, and an
//! unknown cleaner or favor name. Each names what it is about.

use std::path::PathBuf;

/// Result with the cleaners' [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// What can go wrong while choosing a cleaner or handling its block model.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Reading a model file failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The underlying I/O error.
        source: std::io::Error,
    },
    /// A block model file cannot be read, is of another version, or cannot be trained.
    #[error("block model {source_name}: {reason}")]
    Model {
        /// The model file, or `embedded` for the model inside the binary.
        source_name: String,
        /// What was wrong.
        reason: String,
    },
    /// An unknown cleaner name was asked for.
    #[error("unknown cleaner {0:?} (known: {1})")]
    UnknownCleaner(String, String),
    /// An unknown `--favor` was asked for.
    #[error("unknown favor {name:?} (known: {known})", known = crate::Favor::NAMES.join(", "))]
    UnknownFavor {
        /// The name asked for.
        name: String,
    },
}

/// A stage of the block model that cannot be trained.
impl From<docview_trees::Error> for Error {
    fn from(e: docview_trees::Error) -> Self {
        Error::Model {
            source_name: "training".into(),
            reason: e.to_string(),
        }
    }
}
