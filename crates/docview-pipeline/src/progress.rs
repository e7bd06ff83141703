//! How a run reports its progress: the [`Progress`] trait a display implements (a progress bar
//! in the binary), the [`Phase`]s it shows, and [`Silent`], which shows nothing.

use crate::state::Counters;

/// The phases a progress display shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// The first pass: collection statistics.
    Statistics,
    /// The second pass: cleaning, replicas, records, indexes.
    Ingest,
}

/// Where the pipeline reports progress (a progress bar in the binary).
pub trait Progress: Sync {
    /// A phase starts; `total_bytes` is the input size when known.
    fn start(&self, _phase: Phase, _total_bytes: Option<u64>) {}
    /// After each batch: the counts so far and the input bytes consumed.
    fn update(&self, _counters: &Counters, _input_bytes: u64) {}
    /// A remark for the user (resuming, loading statistics).
    fn note(&self, _message: &str) {}
    /// The phase ended.
    fn finish(&self) {}
}

/// A [`Progress`] that shows nothing.
pub struct Silent;

impl Progress for Silent {}
