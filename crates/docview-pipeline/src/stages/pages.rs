//! Stage `pages` (one task a shard): reads the shard's spill back, numbers each page (its
//! unit's first `seq` from `merge-stats` and its place in the unit), integrates and fingerprints
//! it with the run's statistics, and writes `pages.parquet` ([`PageRow`]: key, URL,
//! fingerprints, MinHash signature, the record line, the three index texts), the signatures'
//! LSH band keys partitioned by band (`bands-P.parquet`, [`BandRow`]) and the shard's skipped
//! inputs ([`KeyedSkip`], `skipped-events.jsonl`).

use std::collections::HashMap;
use std::path::Path;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::folder::STATS_FILE;
use crate::records::table::TableWriter;
use crate::records::{RecordLine, SkippedLine};
use crate::replica::{Detection, MinHashParams, MinHasher};
use crate::settings::Classifiers;
use crate::spill::read_spill;
use crate::stats::CollectionStats;
use crate::steps::{Processed, Unreadable, Worker};
use crate::text::Analyzer;
use crate::{Error, Result};

use super::layout::{PAGES, SKIPPED_EVENTS, bands_file, shard_dir};
use super::page_table::PageRow;
use super::plan::{BATCH, Plan};
use super::replica_tables::BandRow;
use super::rows::WriteRows;
use super::sites::load_sites;
use super::stats::{ShardCounts, load_unit_seqs};
use super::streams::write_json_lines;

/// Pages per row group of `pages.parquet`: what a task holds of them at once.
const ROW_GROUP: usize = 1024;

/// A skipped input, keyed by its place in the run.
#[derive(Debug, Serialize, Deserialize)]
pub(super) struct KeyedSkip {
    /// Its unit's number and its number in the unit.
    pub(super) key: (usize, u64),
    pub(super) line: SkippedLine,
}

/// The row of integrated page `page` (of `key`, found at `url`), and its signature's band
/// keys. The row's URL is the record's identifier (a saved file's declared address, where it
/// has one), as the replicas name the page in a one-process run.
fn page_row(
    key: (usize, u64),
    url: &str,
    html_bytes: u64,
    page: Processed,
    minhash: &MinHashParams,
) -> Result<(PageRow, Vec<BandRow>)> {
    let f = &page.fingerprints;
    let bands = f.minhash.as_ref().map_or_else(Vec::new, |sig| {
        sig.band_keys(minhash)
            .into_iter()
            .enumerate()
            .map(|(band, bucket)| BandRow {
                band,
                bucket,
                seq: page.seq,
            })
            .collect()
    });
    let (exact, keyword, signature) = (f.exact, f.keyword, f.minhash.clone());
    let title = page.docview.title.clone();
    let topic = page.docview.topic_content.clone();
    let abstract_text = crate::index::abstract_body(&page.docview);
    let seq = page.seq;
    let record = RecordLine {
        docview: page.docview,
        seq,
        origin: page.origin,
        ids: page.ids,
        fingerprints: page.fingerprints,
    };
    let record_json = serde_json::to_string(&record)
        .map_err(|e| Error::bad_input(url.to_string(), e.to_string()))?;
    let row = PageRow {
        unit: key.0,
        unit_record: key.1,
        seq,
        url: record.docview.identifier.clone(),
        origin: record.origin,
        html_bytes,
        unreadable: None,
        exact,
        keyword,
        minhash: signature,
        title: Some(title),
        record_json: Some(record_json),
        fulltext: Some(page.fulltext),
        topic: Some(topic),
        abstract_text: Some(abstract_text),
    };
    Ok((row, bands))
}

/// The row of page `seq` (of `key`, at `url`) that could not be read.
fn unreadable_row(key: (usize, u64), seq: u64, url: &str, u: Unreadable, bytes: u64) -> PageRow {
    PageRow {
        unit: key.0,
        unit_record: key.1,
        seq,
        url: url.to_string(),
        origin: u.origin,
        html_bytes: bytes,
        unreadable: Some(u.reason),
        exact: None,
        keyword: None,
        minhash: None,
        title: None,
        record_json: None,
        fulltext: None,
        topic: None,
        abstract_text: None,
    }
}

/// Stage `pages`: integrates and fingerprints the shard's cleaned pages.
pub(super) fn pages_task(work: &Path, plan: &Plan, shard: usize) -> Result<()> {
    let dir = shard_dir(work, shard);
    let options = &plan.options;
    let stats = CollectionStats::load(&work.join(STATS_FILE))?;
    let first_seq = load_unit_seqs(work)?;
    let counts = ShardCounts::load(&dir)?;
    let (cleaner, _) = plan.cleaner()?;
    let classifier = options.classifier.load_with(&options.subjects)?;
    let minhasher = match options.detection {
        Detection::MinHash => Some(MinHasher::new(options.minhash)?),
        Detection::Exact | Detection::Keyword => None,
    };
    let sites = load_sites(work)?;
    let worker = Worker {
        classifier: classifier.as_ref().map(Classifiers::classifier_ref),
        cleaner: cleaner.as_ref(),
        sites: &sites,
        analyzer: Analyzer::new().with_aggressive_stopwords(stats.aggressive_stopwords.clone()),
        stats: &stats,
        integrate: options.integrate,
        keyword: options.keyword,
        minhash: minhasher.as_ref(),
        limits: options.limits,
        markdown: options.markdown,
    };
    let pool = plan.pool()?;
    // Each event's key, from the units' counts.
    let keys = counts
        .units
        .iter()
        .flat_map(|u| (0..u.events).map(move |r| (u.unit, r)));
    let mut events = read_spill(&dir, 0)?.zip(keys);
    let mut skipped: Vec<KeyedSkip> = Vec::new();
    let mut rows: Vec<PageRow> = Vec::new();
    let mut bands: Vec<BandRow> = Vec::new();
    let mut table = TableWriter::create(&dir.join(PAGES))?;
    let mut page_in_unit: HashMap<usize, u64> = HashMap::new();
    loop {
        let mut batch = Vec::with_capacity(BATCH);
        for (event, key) in events.by_ref().take(BATCH) {
            batch.push((event?.0, key));
        }
        if batch.is_empty() {
            break;
        }
        let mut work_items = Vec::new();
        for (event, key) in batch {
            match event.into_page() {
                Ok(page) => {
                    let n = page_in_unit.entry(key.0).or_insert(0);
                    let seq = first_seq[key.0] + *n;
                    *n += 1;
                    work_items.push((key, seq, page));
                }
                Err(line) => skipped.push(KeyedSkip { key, line }),
            }
        }
        let processed: Vec<_> = pool.install(|| {
            work_items
                .into_par_iter()
                .map(|(key, seq, c)| {
                    let (url, html_bytes) = (c.url.clone(), c.html_bytes);
                    (key, seq, url, html_bytes, c.integrate(seq, &worker))
                })
                .collect()
        });
        for (key, seq, url, html_bytes, result) in processed {
            match result {
                Ok(page) => {
                    let (row, mut keys) = page_row(key, &url, html_bytes, page, &options.minhash)?;
                    rows.push(row);
                    bands.append(&mut keys);
                }
                Err(u) => {
                    skipped.push(KeyedSkip {
                        key,
                        line: SkippedLine {
                            origin: u.origin.clone(),
                            reason: u.reason.clone(),
                            detail: String::new(),
                        },
                    });
                    rows.push(unreadable_row(key, seq, &url, u, html_bytes));
                }
            }
        }
        if rows.len() >= ROW_GROUP {
            table.write(&PageRow::into_columns(std::mem::take(&mut rows)))?;
        }
    }
    skipped.sort_by_key(|s| s.key);
    write_json_lines(&dir.join(SKIPPED_EVENTS), &skipped)?;
    table.finish(&PageRow::into_columns(rows))?;
    Ok(BandRow::write_parts(&bands, plan.shards, |part| {
        bands_file(&dir, part)
    })?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stages::page_table::{PageFingerprints, PageRecord, PageSignature};
    use crate::stages::plan::Stage;
    use crate::stages::rows::{ReadRow, read_rows};
    use crate::stages::streams::json_lines;
    use crate::stages::testing::{options, planned, run_through};

    fn all<T: ReadRow>(path: &Path) -> Vec<T> {
        read_rows(path)
            .unwrap()
            .collect::<docview_collection::Result<_>>()
            .unwrap()
    }

    #[test]
    fn each_shard_numbers_integrates_and_fingerprints_its_pages() {
        let dir = tempfile::tempdir().unwrap();
        let (plan, work) = planned(options(dir.path()), 2, dir.path());
        run_through(&work, Stage::Pages);
        let mut seqs = Vec::new();
        for shard in 0..2 {
            let dir = shard_dir(&work, shard);
            let path = dir.join(PAGES);
            let prints: Vec<PageFingerprints> = all(&path);
            let records: Vec<PageRecord> = all(&path);
            let sigs: Vec<PageSignature> = all(&path);
            for ((p, r), s) in prints.iter().zip(&records).zip(&sigs) {
                assert_eq!((p.seq, r.seq), (s.seq, s.seq));
                assert!(p.unreadable.is_none() && p.exact.is_some());
                let line: RecordLine =
                    serde_json::from_str(r.record_json.as_ref().unwrap()).unwrap();
                assert_eq!(
                    (line.seq, line.docview.identifier.as_str()),
                    (p.seq, p.url.as_str())
                );
                seqs.push(p.seq);
                // Its band keys are in the parts of their bands.
                let n = s.minhash.as_ref().map_or(0, |_| plan.options.minhash.bands);
                let found: usize = (0..2)
                    .map(|part| {
                        all::<BandRow>(&bands_file(&dir, part))
                            .iter()
                            .filter(|b| b.seq == p.seq && b.band % 2 == part)
                            .count()
                    })
                    .sum();
                assert_eq!(found, n);
            }
            let skipped: Vec<KeyedSkip> = json_lines(&dir.join(SKIPPED_EVENTS))
                .unwrap()
                .collect::<Result<_>>()
                .unwrap();
            assert!(skipped.is_empty());
        }
        seqs.sort_unstable();
        assert_eq!(seqs, (0..plan.units.len() as u64).collect::<Vec<_>>());
    }
}
