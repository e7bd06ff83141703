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

/// Writes `items` to `path` as JSON lines, whole or not at all (`classify eval --predictions`
/// of either classifier).
pub fn write_json_lines<T: serde::Serialize>(path: &std::path::Path, items: &[T]) -> Result<()> {
    docview::output::write_atomically(path, |w| {
        for item in items {
            serde_json::to_writer(&mut *w, item).map_err(std::io::Error::other)?;
            std::io::Write::write_all(w, b"\n")?;
        }
        Ok(())
    })?;
    Ok(())
}
