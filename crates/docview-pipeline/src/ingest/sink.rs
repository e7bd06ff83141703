//! The ordered end of the pipeline: replica removal over the processed pages in input order,
//! then the outputs (`docviews.jsonl`, `replicas.jsonl`, the three indexes) and the commits that
//! make them durable together.

use std::collections::HashMap;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

use crate::earlier::{EarlierRuns, KeptBy};
use crate::index::{IndexSet, index_docview};
use crate::records::{
    DOCVIEWS, REPLICAS, RecordLine, ReplicaLine, SKIPPED, SkippedLine, for_each_line, write_line,
};
use crate::replica::{ReplicaDetector, ReplicaKind};
use crate::settings::IngestOptions;
use crate::state::{Counters, RunState, open_at};
use crate::steps::Processed;
use crate::summary::ReplicaIndexMemory;
use crate::{Error, Result};

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
                ids: page.ids,
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
            ids: page.ids,
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
        Ok(index_docview(
            &mut self.index,
            page.seq,
            &page.docview,
            &page.fulltext,
        )?)
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
        state.set_note();
        state.save(state_path)
    }

    /// Kept pages and bytes of the MinHash LSH index (MinHash detection only).
    pub fn replica_index_memory(&self) -> Option<ReplicaIndexMemory> {
        self.detector.lsh().map(|lsh| ReplicaIndexMemory {
            pages: lsh.len(),
            bytes: lsh.memory_bytes(),
        })
    }

    /// Waits for the indexes' merges and closes them.
    pub fn finish(self) -> Result<()> {
        Ok(self.index.finish()?)
    }
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
