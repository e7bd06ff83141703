//! The ordered end of the pipeline: replica removal over the processed pages in input order,
//! then the outputs (`docviews.jsonl`, `replicas.jsonl`, the three indexes) and the commits that
//! make them durable together.

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::IngestOptions;
use super::earlier::{EarlierRuns, KeptBy};
use super::process::Processed;
use super::state::{Counters, RunState};
use crate::index::{IndexDoc, IndexKind, IndexSet};
use crate::integrate::DocView;
use crate::replica::{Fingerprints, ReplicaDetector, ReplicaKind};
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

/// The writers of one run.
pub struct Sink {
    dir: PathBuf,
    docviews: BufWriter<File>,
    replicas: BufWriter<File>,
    skipped: BufWriter<File>,
    docviews_bytes: u64,
    replicas_bytes: u64,
    skipped_bytes: u64,
    index: IndexSet,
    detector: ReplicaDetector,
    /// The earlier runs' kept pages: the detector knows a page of this run by its order key,
    /// `earlier.len() + seq`.
    earlier: EarlierRuns,
    /// URL of each kept page by sequence number, to name it in replica lines.
    kept_urls: HashMap<u64, Box<str>>,
    line: Vec<u8>,
}

impl Sink {
    /// Opens the outputs in `dir` as `state` left them: files cut back to the committed length,
    /// index documents past the committed sequence removed, the detector (MinHash with
    /// `minhash`, the parameters the workers use) filled with the kept pages of the earlier
    /// runs of `options` first, then refilled from the kept records' fingerprints.
    pub fn open(dir: &Path, state: &RunState, options: &IngestOptions) -> Result<Sink> {
        let docviews = open_at(&dir.join(DOCVIEWS), state.docviews_bytes)?;
        let replicas = open_at(&dir.join(REPLICAS), state.replicas_bytes)?;
        let skipped = open_at(&dir.join(SKIPPED), state.skipped_bytes)?;
        let mut detector = ReplicaDetector::new(options.detection, options.minhash)?;
        let earlier = EarlierRuns::load(options, |key, f| detector.remember(key, f))?;
        let mut kept_urls = HashMap::new();
        if state.docviews_bytes > 0 {
            for_each_line(&dir.join(DOCVIEWS), |r: RecordLine| {
                detector.remember(earlier.key(r.seq), &r.fingerprints);
                kept_urls.insert(r.seq, r.docview.identifier.into_boxed_str());
            })?;
        }
        let mut index = IndexSet::create_or_open(dir, options.index_heap_bytes, 1)?;
        // Documents past the checkpoint: committed by the indexes just before a crash that
        // kept state.json from recording them (none on a fresh run).
        index.roll_back_from(state.next_seq, &commit_payload(state))?;
        Ok(Sink {
            dir: dir.to_path_buf(),
            docviews: BufWriter::with_capacity(1 << 20, docviews),
            replicas: BufWriter::with_capacity(1 << 16, replicas),
            skipped: BufWriter::with_capacity(1 << 16, skipped),
            docviews_bytes: state.docviews_bytes,
            replicas_bytes: state.replicas_bytes,
            skipped_bytes: state.skipped_bytes,
            index,
            detector,
            earlier,
            kept_urls,
            line: Vec::new(),
        })
    }

    /// Replica removal and output for one page, in input order.
    pub fn accept(&mut self, page: Processed, counters: &mut Counters) -> Result<()> {
        counters.html_bytes += page.html_bytes;
        if let Some(m) = self
            .detector
            .check(self.earlier.key(page.seq), &page.fingerprints)
        {
            match m.kind {
                ReplicaKind::Exact => counters.replicas_exact += 1,
                ReplicaKind::Near => counters.replicas_near += 1,
            }
            let (replica_of, replica_of_seq, replica_of_run) = match self.earlier.kept_by(m.of) {
                KeptBy::Earlier(run, p) => (p.url.to_string(), p.seq, Some(run.to_string())),
                KeptBy::This(of) => {
                    let url = self.kept_urls.get(&of).map(|u| u.to_string());
                    (url.unwrap_or_default(), of, None)
                }
            };
            let line = ReplicaLine {
                url: page.docview.identifier,
                seq: page.seq,
                origin: page.origin,
                replica_of,
                replica_of_seq,
                replica_of_run,
                kind: m.kind,
                detector: m.matcher.as_str().to_string(),
                similarity: m.similarity,
                title: page.docview.title,
            };
            let n = write_line(&mut self.replicas, &mut self.line, &line)
                .map_err(|e| Error::io(self.dir.join(REPLICAS), e))?;
            self.replicas_bytes += n;
            return Ok(());
        }
        counters.kept += 1;
        if page.docview.topic_content_empty {
            counters.kept_empty += 1;
        }
        if page.docview.truncated.is_some() {
            counters.kept_truncated += 1;
        }
        self.index_page(&page)?;
        self.kept_urls
            .insert(page.seq, page.docview.identifier.clone().into_boxed_str());
        let record = RecordLine {
            docview: page.docview,
            seq: page.seq,
            origin: page.origin,
            fingerprints: page.fingerprints,
        };
        let n = write_line(&mut self.docviews, &mut self.line, &record)
            .map_err(|e| Error::io(self.dir.join(DOCVIEWS), e))?;
        self.docviews_bytes += n;
        Ok(())
    }

    /// Records an input that gave no page.
    pub fn skip(&mut self, line: &SkippedLine, counters: &mut Counters) -> Result<()> {
        counters.skip(line.reason.clone());
        let n = write_line(&mut self.skipped, &mut self.line, line)
            .map_err(|e| Error::io(self.dir.join(SKIPPED), e))?;
        self.skipped_bytes += n;
        Ok(())
    }

    fn index_page(&mut self, page: &Processed) -> Result<()> {
        index_docview(&mut self.index, page.seq, &page.docview, &page.fulltext)
    }

    /// Makes everything accepted so far durable and records it in `state` (saved to
    /// `state_path` last).
    pub fn commit(&mut self, state: &mut RunState, state_path: &Path) -> Result<()> {
        for (w, name) in [
            (&mut self.docviews, DOCVIEWS),
            (&mut self.replicas, REPLICAS),
            (&mut self.skipped, SKIPPED),
        ] {
            w.flush()
                .and_then(|()| w.get_ref().sync_data())
                .map_err(|e| Error::io(self.dir.join(name), e))?;
        }
        state.docviews_bytes = self.docviews_bytes;
        state.replicas_bytes = self.replicas_bytes;
        state.skipped_bytes = self.skipped_bytes;
        state.commits += 1;
        self.index.commit(&commit_payload(state))?;
        *state = state.clone().with_note();
        state.save(state_path)
    }

    /// Kept pages and bytes of the MinHash LSH index (MinHash detection only).
    pub fn replica_index_memory(&self) -> Option<super::ReplicaIndexMemory> {
        self.detector.lsh().map(|lsh| super::ReplicaIndexMemory {
            pages: lsh.len(),
            bytes: lsh.memory_bytes(),
        })
    }

    /// Waits for the indexes' merges and closes them.
    pub fn finish(self) -> Result<()> {
        self.index.finish()
    }
}

/// The body of a page in the abstract index: its title, abstract and keywords.
pub fn abstract_body(d: &DocView) -> String {
    format!(
        "{}\n\n{}\n\n{}",
        d.title,
        d.abstract_text,
        d.keywords.join(" ")
    )
}

/// Adds the kept page `seq` to the three indexes: its `fulltext`, its topic content, its
/// [`abstract_body`].
pub fn index_docview(index: &mut IndexSet, seq: u64, d: &DocView, fulltext: &str) -> Result<()> {
    let abstract_body = abstract_body(d);
    for (kind, body) in [
        (IndexKind::Fulltext, fulltext),
        (IndexKind::Topic, d.topic_content.as_str()),
        (IndexKind::Abstract, abstract_body.as_str()),
    ] {
        let doc = IndexDoc {
            seq,
            url: &d.identifier,
            title: &d.title,
            body,
            lang: &d.language,
        };
        index.add(kind, &doc)?;
    }
    Ok(())
}

/// What each index commit records of the run state.
fn commit_payload(state: &RunState) -> String {
    serde_json::json!({
        "next_seq": state.next_seq,
        "events_done": state.events_done,
        "commits": state.commits,
    })
    .to_string()
}

/// Opens `path` for appending after cutting it to `len` bytes (creating it when `len` is 0).
pub(super) fn open_at(path: &Path, len: u64) -> Result<File> {
    let file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .read(true)
        .write(true)
        .open(path)
        .map_err(|e| Error::io(path, e))?;
    let actual = file.metadata().map_err(|e| Error::io(path, e))?.len();
    if actual < len {
        return Err(Error::bad_input(
            path.display().to_string(),
            format!("holds {actual} bytes but the last commit wrote {len}: the file was changed"),
        ));
    }
    file.set_len(len).map_err(|e| Error::io(path, e))?;
    let mut file = file;
    std::io::Seek::seek(&mut file, std::io::SeekFrom::End(0)).map_err(|e| Error::io(path, e))?;
    Ok(file)
}

/// Serialises `value` as one JSON line; returns the bytes written.
pub(super) fn write_line<T: Serialize>(
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
    use super::stages::table::{Column, Values, write_table};
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
