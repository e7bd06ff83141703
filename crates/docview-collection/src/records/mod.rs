//! The record files of an ingest, as the lab, the Python module and the pipeline read and
//! write them: `docviews.jsonl` ([`RecordLine`]), `replicas.jsonl` ([`ReplicaLine`]),
//! `skipped.jsonl` ([`SkippedLine`]), and `docviews.parquet`, written from the records through
//! [`table`], the Parquet tables of the record file and of the sharded stages' work files.

pub mod table;

use std::collections::HashMap;
use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::integrate::DocView;
use crate::replica::{Fingerprints, ReplicaKind};
use crate::{Error, Result};

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
    pub reason: String,
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
    let file = File::open(path).map_err(|e| Error::io(path, e))?;
    for (i, line) in BufReader::new(file).lines().enumerate() {
        let line = line.map_err(|e| Error::io(path, e))?;
        if line.trim().is_empty() {
            continue;
        }
        let value = serde_json::from_str(&line).map_err(|e| {
            Error::bad_input(format!("{}:{}", path.display(), i + 1), e.to_string())
        })?;
        f(value);
    }
    Ok(())
}

/// The DocView records as Parquet, beside `docviews.jsonl`.
pub const DOCVIEWS_PARQUET: &str = "docviews.parquet";

/// Writes `docviews.jsonl` of `dir` again as `docviews.parquet` (atomically): one row per kept
/// page, the DocView's scalar elements as columns, its lists (keywords, relevant links,
/// replicas) and its metadata as JSON text, the published date and the Markdown (when the
/// run rendered it) as optional text, and the whole record as `record`. Spark, DuckDB, pandas and polars
/// read it directly.
pub fn write_docviews_parquet(dir: &Path) -> Result<()> {
    use table::{Column, Values, write_table};
    let mut seq = Vec::new();
    let mut text: [Vec<String>; 7] = Default::default();
    let mut truncated = Vec::new();
    let mut empty = Vec::new();
    let mut lists: [Vec<String>; 3] = Default::default();
    let mut record = Vec::new();
    let mut page_type = Vec::new();
    let mut metadata = Vec::new();
    let mut published = Vec::new();
    let mut markdown = Vec::new();
    let path = dir.join(DOCVIEWS);
    let file = File::open(&path).map_err(|e| Error::io(&path, e))?;
    for (i, line) in BufReader::new(file).lines().enumerate() {
        let line = line.map_err(|e| Error::io(&path, e))?;
        if line.trim().is_empty() {
            continue;
        }
        let r: RecordLine = serde_json::from_str(&line).map_err(|e| {
            Error::bad_input(format!("{}:{}", path.display(), i + 1), e.to_string())
        })?;
        let d = &r.docview;
        seq.push(r.seq as i64);
        for (col, value) in text.iter_mut().zip([
            &d.identifier,
            &r.origin,
            &d.classification_code,
            &d.title,
            &d.abstract_text,
            &d.topic_content,
            &d.language,
        ]) {
            col.push(value.clone());
        }
        lists[0].push(json_text(&d.keywords));
        lists[1].push(json_text(&d.relevant_links));
        lists[2].push(json_text(&d.replicas));
        page_type.push(json_text(&d.page_type).trim_matches('"').to_string());
        truncated.push(d.truncated.clone());
        empty.push(i64::from(d.topic_content_empty));
        metadata.push(json_text(&d.metadata));
        published.push(d.metadata.published.as_ref().map(|p| p.value.clone()));
        markdown.push(d.topic_markdown.clone());
        record.push(line);
    }
    let [
        identifier,
        origin,
        code,
        title,
        abstract_text,
        topic,
        language,
    ] = text;
    let [keywords, links, replicas] = lists;
    write_table(
        &dir.join(DOCVIEWS_PARQUET),
        &[
            Column::int("seq", seq),
            Column::text("identifier", identifier),
            Column::text("origin", origin),
            Column::text("type", page_type),
            Column::text("classification_code", code),
            Column::text("title", title),
            Column::text("keywords", keywords),
            Column::text("abstract", abstract_text),
            Column::text("topic_content", topic),
            Column::text("relevant_links", links),
            Column::text("language", language),
            Column::int("topic_content_empty", empty),
            Column::optional("truncated", Values::Text(truncated)),
            Column::text("replicas", replicas),
            Column::text("metadata", metadata),
            Column::optional("published", Values::Text(published)),
            Column::optional("topic_markdown", Values::Text(markdown)),
            Column::text("record", record),
        ],
    )
}

/// `value` as JSON text (values that always serialise: strings, lists, plain enums).
fn json_text<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_default()
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
