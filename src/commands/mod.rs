//! The body of each command, one file a command or group of commands; what they share.

use anyhow::{Result, bail};
use docview::eval::load_set;

pub mod blocks;
pub mod classify;
pub mod compare;
pub mod eval;
pub mod export;
pub mod extract;
pub mod ingest;
pub mod query;
pub mod replicas;
pub mod stages;
pub mod train_cleaner;

/// A labelled set's pages; a set without pages is an error naming it.
pub fn load_scored_set(set: &std::path::Path) -> Result<Vec<docview::eval::LabelledPage>> {
    let pages = load_set(set)?;
    if pages.is_empty() {
        bail!("{}: the set has no pages", set.display());
    }
    Ok(pages)
}
