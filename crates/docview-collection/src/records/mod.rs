//! The record files of an ingest, as the lab, the Python module and the pipeline read and
//! write them: `docviews.jsonl` ([`RecordLine`]), `replicas.jsonl` ([`ReplicaLine`]),
//! `skipped.jsonl` ([`SkippedLine`]) and `docviews.parquet` ([`DocViewRow`]); the line of a
//! page cleaned alone that `extract --format jsonl` writes ([`PageLine`]); the records handed
//! to other engines (Pyserini's JSON collection: [`export_pyserini`]) and a record's document
//! id ([`DocIdField`]); and the Parquet
//! tables that file and the sharded stages' work files are written in ([`table`], with
//! [`rows`] for a table's rows as structs).

mod export;
mod page_line;
mod parquet;
pub mod rows;
mod skip;
pub mod table;

use std::collections::HashMap;
use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::integrate::DocView;
use crate::replica::{Fingerprints, ReplicaKind};
use crate::{Error, Result};
use docview_input::InputIds;

pub use export::{DocIdField, ExportField, PyseriniLine, export_pyserini};
pub use page_line::{LINE_KEYS, LineContent, PageLine};
pub use parquet::{DOCVIEWS_PARQUET, DocViewRow, read_docviews_parquet, write_docviews_parquet};
pub use skip::{Skip, UnknownSkip};

/// One line of `docviews.jsonl`: the DocView and what the run knows of the page.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RecordLine {
    /// The DocView's elements.
    #[serde(flatten)]
    pub docview: DocView,
    /// The page's sequence number in the run.
    pub seq: u64,
    /// Where it was read from.
    pub origin: String,
    /// Its WARC record's `warc_record_id` and `warc_date` (for a page of a WARC) and the other
    /// fields of its JSON line in `input_fields` (a user's `id`), each left out when it has none.
    #[serde(flatten)]
    pub ids: InputIds,
    /// Fingerprints of its topic content.
    pub fingerprints: Fingerprints,
}

/// One line of `replicas.jsonl`: a page left out because it repeats a kept one.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ReplicaLine {
    /// The replica's URL.
    pub url: String,
    /// Its sequence number.
    pub seq: u64,
    /// Where it was read from.
    pub origin: String,
    /// Its WARC record's identity and its JSON line's other fields, as a record has them.
    #[serde(flatten)]
    pub ids: InputIds,
    /// The URL of the kept page it repeats.
    pub replica_of: String,
    /// The sequence number of that page (in its run).
    pub replica_of_seq: u64,
    /// The earlier run that kept that page (its `--earlier` path), when it is not this run.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub replica_of_run: Option<String>,
    /// Exact copy or near-replica.
    pub kind: ReplicaKind,
    /// What matched: `exact_md5`, `keyword_fingerprint` or `minhash_lsh`.
    pub detector: String,
    /// The estimated Jaccard similarity of the shingle sets (`minhash_lsh` only).
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub similarity: Option<f32>,
    /// Its title, to help a reader check the match.
    pub title: String,
}

/// One line of `skipped.jsonl`: an input that gave no page, and why.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SkippedLine {
    /// Where it was read from (file, record offset, line).
    pub origin: String,
    /// The counted reason.
    pub reason: Skip,
    /// More about it, when there is more.
    #[serde(skip_serializing_if = "String::is_empty", default)]
    pub detail: String,
}

/// The DocView records, one per kept page.
pub const DOCVIEWS: &str = "docviews.jsonl";
/// The pages removed as replicas.
pub const REPLICAS: &str = "replicas.jsonl";
/// The inputs that gave no page.
pub const SKIPPED: &str = "skipped.jsonl";

/// Serialises `value` as one JSON line; returns the bytes written.
pub fn write_line<T: Serialize>(
    w: &mut impl Write,
    buf: &mut Vec<u8>,
    value: &T,
) -> std::io::Result<u64> {
    buf.clear();
    serde_json::to_writer(&mut *buf, value).map_err(std::io::Error::other)?;
    buf.push(b'\n');
    w.write_all(buf)?;
    Ok(buf.len() as u64)
}

/// Calls `f` with each line of a JSONL file of `T`.
pub fn for_each_line<T: for<'de> Deserialize<'de>>(
    path: &Path,
    mut f: impl FnMut(T),
) -> Result<()> {
    for_each_line_with_text(path, |value, _| f(value))
}

/// Calls `f` with each line of a JSONL file of `T` and the line's text (blank lines left
/// out); a line that is not a `T` is an error naming the file and the line.
pub(crate) fn for_each_line_with_text<T: for<'de> Deserialize<'de>>(
    path: &Path,
    mut f: impl FnMut(T, String),
) -> Result<()> {
    try_lines(path, |value, line| {
        f(value, line);
        Ok(())
    })
}

/// [`for_each_line`] with a callback that may fail: its first error ends the reading and is
/// returned.
pub fn try_for_each_line<T: for<'de> Deserialize<'de>>(
    path: &Path,
    mut f: impl FnMut(T) -> Result<()>,
) -> Result<()> {
    try_lines(path, |value, _| f(value))
}

/// The one loop over a JSONL file's lines of `T`, with each line's text.
fn try_lines<T: for<'de> Deserialize<'de>>(
    path: &Path,
    mut f: impl FnMut(T, String) -> Result<()>,
) -> Result<()> {
    let file = File::open(path).map_err(|e| Error::io(path, e))?;
    for (i, line) in BufReader::new(file).lines().enumerate() {
        let line = line.map_err(|e| Error::io(path, e))?;
        if line.trim().is_empty() {
            continue;
        }
        let value = serde_json::from_str(&line).map_err(|e| {
            Error::bad_input(format!("{}:{}", path.display(), i + 1), e.to_string())
        })?;
        f(value, line)?;
    }
    Ok(())
}

/// Completes the kept records with the URLs of their replicas (read from `replicas.jsonl`),
/// rewriting `docviews.jsonl` atomically. Running it twice gives the same file.
pub fn fill_replica_urls(dir: &Path) -> Result<()> {
    let mut of: HashMap<u64, Vec<String>> = HashMap::new();
    for_each_line(&dir.join(REPLICAS), |r: ReplicaLine| {
        // A page kept by an earlier run keeps its record there.
        if r.replica_of_run.is_none() {
            of.entry(r.replica_of_seq).or_default().push(r.url);
        }
    })?;
    if of.is_empty() {
        return Ok(());
    }
    let path = dir.join(DOCVIEWS);
    let source = File::open(&path).map_err(|e| Error::io(&path, e))?;
    crate::output::write_atomically(&path, |w| {
        let mut buf = Vec::new();
        for (i, line) in BufReader::new(source).lines().enumerate() {
            let line = line?;
            if line.trim().is_empty() {
                continue;
            }
            let bad = |e: serde_json::Error| {
                std::io::Error::other(format!("{}:{}: {e}", path.display(), i + 1))
            };
            // Most records have no replica and had none: their line goes out as it came,
            // read only for its number and replica list instead of whole (the whole read and
            // rewrite of every record was about 1% of an ingest).
            let head: RecordHead = serde_json::from_str(&line).map_err(bad)?;
            if head.replicas.is_empty() && !of.contains_key(&head.seq) {
                w.write_all(line.as_bytes())?;
                w.write_all(b"\n")?;
                continue;
            }
            let mut record: RecordLine = serde_json::from_str(&line).map_err(bad)?;
            record.docview.replicas = of.remove(&record.seq).unwrap_or_default();
            write_line(w, &mut buf, &record)?;
        }
        Ok(())
    })
}

/// What [`fill_replica_urls`] reads of a record's line to know whether it changes: its number
/// and its replicas (every other field skipped, not copied).
#[derive(Deserialize)]
struct RecordHead {
    seq: u64,
    replicas: Vec<serde::de::IgnoredAny>,
}
