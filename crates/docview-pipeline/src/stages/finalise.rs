//! Stage `finalise` (one task a shard): applies the replica decisions ([`DecisionRow`]) to the
//! shard's pages ([`PageRecord`]): a replica becomes a replica line, a kept page a record with
//! its replicas named (in `seq` order) and an entry of the shard's three indexes, all in the
//! shard's `out/` folder in `seq` order, with what it counted ([`FinalCounts`],
//! `final-counts.json`). Indexes are built after the decisions: merging indexes with deleted
//! documents would shift every BM25 score.

use std::collections::HashMap;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::index::{IndexSet, index_docview};
use crate::records::{DOCVIEWS, REPLICAS, RecordLine, ReplicaLine, write_line};
use crate::replica::ReplicaKind;
use crate::state::Counters;
use crate::{Error, Result};

use super::layout::{DECISIONS, FINAL_COUNTS, PAGES, shard_dir, shard_out};
use super::page_table::PageRecord;
use super::plan::Plan;
use super::replica_tables::DecisionRow;
use super::rows::read_rows;

/// What a shard's finalise counted.
#[derive(Debug, Default, Serialize, Deserialize)]
pub(super) struct FinalCounts {
    pub(super) counters: Counters,
}

impl FinalCounts {
    /// What shard `shard` of work folder `work` counted.
    pub(super) fn load(work: &Path, shard: usize) -> Result<FinalCounts> {
        let path = shard_dir(work, shard).join(FINAL_COUNTS);
        Ok(crate::output::read_json(&path, "shard counts")?)
    }
}

/// Stage `finalise`: the shard's kept records, replica lines and indexes.
pub(super) fn finalise_task(work: &Path, plan: &Plan, shard: usize) -> Result<()> {
    let dir = shard_dir(work, shard);
    let mut decisions: HashMap<u64, DecisionRow> = HashMap::new();
    let mut replicas_of: HashMap<u64, Vec<(u64, String)>> = HashMap::new();
    for row in read_rows::<DecisionRow>(&work.join(DECISIONS))? {
        let row = row?;
        if row.of_run.is_none() {
            replicas_of
                .entry(row.of)
                .or_default()
                .push((row.seq, row.url.clone()));
        }
        decisions.insert(row.seq, row);
    }
    for list in replicas_of.values_mut() {
        list.sort();
    }
    let pages_path = dir.join(PAGES);
    let out = shard_out(work, shard);
    if out.exists() {
        std::fs::remove_dir_all(&out).map_err(|e| Error::io(&out, e))?;
    }
    std::fs::create_dir_all(&out).map_err(|e| Error::io(&out, e))?;
    let mut index = IndexSet::create_or_open(&out, plan.options.index_heap_bytes, 1)?;
    let mut counters = Counters::default();
    let mut docviews = BufWriter::new(
        File::create(out.join(DOCVIEWS)).map_err(|e| Error::io(out.join(DOCVIEWS), e))?,
    );
    let mut replicas = BufWriter::new(
        File::create(out.join(REPLICAS)).map_err(|e| Error::io(out.join(REPLICAS), e))?,
    );
    let mut buf = Vec::new();
    for row in read_rows::<PageRecord>(&pages_path)? {
        let row = row?;
        counters.pages_read += 1;
        counters.html_bytes += row.html_bytes;
        if row.unreadable.is_some() {
            // Its line is in the shard's skipped inputs, counted by `merge`.
            continue;
        }
        let seq = row.seq;
        let json = row.record_json.unwrap_or_default();
        let mut record: RecordLine = serde_json::from_str(&json)
            .map_err(|e| Error::bad_input(pages_path.display().to_string(), e.to_string()))?;
        if let Some(d) = decisions.get(&seq) {
            match d.kind {
                ReplicaKind::Exact => counters.replicas_exact += 1,
                ReplicaKind::Near => counters.replicas_near += 1,
            }
            let line = ReplicaLine {
                url: record.docview.identifier,
                seq,
                origin: record.origin,
                ids: record.ids,
                replica_of: d.of_url.clone(),
                replica_of_seq: d.of,
                replica_of_run: d.of_run.clone(),
                kind: d.kind,
                detector: d.detector.clone(),
                similarity: d.similarity,
                title: record.docview.title,
            };
            write_line(&mut replicas, &mut buf, &line)
                .map_err(|e| Error::io(out.join(REPLICAS), e))?;
            continue;
        }
        counters.kept += 1;
        if record.docview.topic_content_empty {
            counters.kept_empty += 1;
        }
        if record.docview.truncated.is_some() {
            counters.kept_truncated += 1;
        }
        record.docview.replicas = replicas_of
            .remove(&seq)
            .map(|l| l.into_iter().map(|(_, url)| url).collect())
            .unwrap_or_default();
        index_docview(
            &mut index,
            seq,
            &record.docview,
            &row.fulltext.unwrap_or_default(),
        )?;
        write_line(&mut docviews, &mut buf, &record)
            .map_err(|e| Error::io(out.join(DOCVIEWS), e))?;
    }
    for (w, name) in [(&mut docviews, DOCVIEWS), (&mut replicas, REPLICAS)] {
        w.flush()
            .and_then(|()| w.get_ref().sync_all())
            .map_err(|e| Error::io(out.join(name), e))?;
    }
    index.commit("{}")?;
    index.finish()?;
    Ok(crate::output::write_json_atomically(
        &dir.join(FINAL_COUNTS),
        &FinalCounts { counters },
    )?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::for_each_line;
    use crate::stages::plan::Stage;
    use crate::stages::testing::{options, planned, run_through};

    #[test]
    fn each_shard_keeps_its_records_and_writes_its_replica_lines() {
        let dir = tempfile::tempdir().unwrap();
        let (plan, work) = planned(options(dir.path()), 2, dir.path());
        run_through(&work, Stage::Finalise);
        let mut kept = Vec::new();
        let mut replicas = Vec::new();
        for shard in 0..2 {
            let out = shard_out(&work, shard);
            for_each_line(&out.join(DOCVIEWS), |r: RecordLine| kept.push(r)).unwrap();
            for_each_line(&out.join(REPLICAS), |r: ReplicaLine| replicas.push(r)).unwrap();
            let c = FinalCounts::load(&work, shard).unwrap().counters;
            assert_eq!(c.pages_read, plan.shard_units(shard).count() as u64);
        }
        assert_eq!(kept.len() + replicas.len(), plan.units.len());
        assert_eq!(replicas.len(), 1);
        assert_eq!((replicas[0].seq, replicas[0].replica_of_seq), (1, 0));
        // The kept page names its replica, though it is in another shard.
        let original = kept.iter().find(|r| r.seq == 0).unwrap();
        assert_eq!(original.docview.replicas, [replicas[0].url.clone()]);
    }
}
