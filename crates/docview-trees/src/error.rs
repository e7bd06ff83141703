//! The error of training a stage.

/// Result with this crate's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// What can go wrong while training a stage.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Error {
    /// The rows, labels and weights do not match, forust failed, or it grew trees the scorer
    /// cannot walk.
    #[error("{0}")]
    Train(String),
}
