//! Stages `stats` (one task a shard) and `merge-stats` (one task): each shard cleans its pages
//! once, with their site's model, into its spill ([`crate::spill`]), and counts what the
//! statistics learn of them: each unit's events and pages and the pages' document frequencies
//! ([`ShardCounts`], `counts.json`), and, in order, each readable page's site, title and site
//! template lines ([`StatRow`], `stat-rows.jsonl`). The merge sums the frequencies, replays the
//! rows in global order under one budget, as one process learns them (`stats.json`, or the
//! `--stats` file as it is), and numbers the pages: each unit's first `seq`
//! (`unit-seqs.json`).

use std::collections::{BTreeMap, HashMap};
use std::io::{BufWriter, Write};
use std::path::Path;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::event::Event;
use crate::folder::STATS_FILE;
use crate::input::InputEvent;
use crate::records::{Skip, write_line};
use crate::replica::template::{CopyKey, distinct_line_keys};
use crate::site::PageUrl;
use crate::spill::{CleanedPage, SpillWriter};
use crate::stats::{CollectionStats, StatsBuilder};
use crate::steps::{Unreadable, clean_page, page_features};
use crate::text::Analyzer;
use crate::{Error, Result};

use super::layout::{SHARD_COUNTS, STAT_ROWS, UNIT_SEQS, shard_dir};
use super::plan::{BATCH, Plan};
use super::sites::load_sites;
use super::streams::{Stream, json_lines, merge_sorted};

/// How many events and pages one unit gave.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
pub(super) struct UnitCount {
    pub(super) unit: usize,
    pub(super) events: u64,
    pub(super) pages: u64,
}

/// What the statistics learn of one readable page, in global order.
#[derive(Debug, Serialize, Deserialize)]
pub(super) struct StatRow {
    key: (usize, u64),
    site: Option<String>,
    title: String,
    /// Its web site, distinct line keys and copy key, for the site templates.
    host: Option<(String, Vec<u64>, CopyKey)>,
}

/// A shard's units' counts and its pages' document frequencies.
#[derive(Debug, Default, Serialize, Deserialize)]
pub(super) struct ShardCounts {
    pub(super) units: Vec<UnitCount>,
    pub(super) df: BTreeMap<String, u64>,
}

impl ShardCounts {
    /// The counts of the shard whose folder is `dir`.
    pub(super) fn load(dir: &Path) -> Result<ShardCounts> {
        Ok(crate::output::read_json(
            &dir.join(SHARD_COUNTS),
            "a shard's counts",
        )?)
    }
}

/// Stage `stats`: cleans the shard's pages (into its spill) and counts their statistics.
pub(super) fn stats_task(work: &Path, plan: &Plan, shard: usize) -> Result<()> {
    let dir = shard_dir(work, shard);
    std::fs::create_dir_all(&dir).map_err(|e| Error::io(&dir, e))?;
    let options = &plan.options;
    let (cleaner, _) = plan.cleaner()?;
    let sites = load_sites(work)?;
    let analyzer = Analyzer::new();
    let pool = plan.pool()?;
    let mut spill = SpillWriter::create(&dir)?;
    let mut counts = ShardCounts::default();
    let mut df: HashMap<String, u64> = HashMap::new();
    let rows_path = dir.join(STAT_ROWS);
    let mut rows_tmp =
        crate::output::temp_file_for(&rows_path).map_err(|e| Error::io(&rows_path, e))?;
    {
        let mut rows = BufWriter::new(rows_tmp.as_file_mut());
        let mut line = Vec::new();
        for (unit_no, unit) in plan.shard_units(shard) {
            let mut count = UnitCount {
                unit: unit_no,
                events: 0,
                pages: 0,
            };
            let mut events = options.unit_inputs(std::slice::from_ref(unit)).peekable();
            while events.peek().is_some() {
                let batch: Vec<_> = events.by_ref().take(BATCH).collect();
                let cleaned: Vec<_> = pool.install(|| {
                    batch
                        .par_iter()
                        .map(|event| match event {
                            InputEvent::Page(p) => {
                                let url = PageUrl::parse(&p.url);
                                let topic = clean_page(
                                    p,
                                    cleaner.as_ref(),
                                    sites.model_of(&url),
                                    &options.limits,
                                    options.markdown,
                                );
                                let features = topic
                                    .as_ref()
                                    .ok()
                                    .map(|t| page_features(&url, t, &analyzer));
                                Some((topic, features))
                            }
                            _ => None,
                        })
                        .collect()
                });
                for (event, cleaned) in batch.into_iter().zip(cleaned) {
                    let record = count.events;
                    count.events += 1;
                    let event = Event::of(event, |raw| raw);
                    let event = match (event, cleaned) {
                        (Event::Page(raw), Some((topic, features))) => {
                            count.pages += 1;
                            if let Some(f) = features {
                                for term in f.terms {
                                    *df.entry(term).or_insert(0) += 1;
                                }
                                let row = StatRow {
                                    key: (unit_no, record),
                                    site: f.site,
                                    title: f.title,
                                    host: f.host_text.map(|(host, text, key)| {
                                        (host, distinct_line_keys(&text), key)
                                    }),
                                };
                                write_line(&mut rows, &mut line, &row)
                                    .map_err(|e| Error::io(&rows_path, e))?;
                            }
                            Event::Page(CleanedPage::of(raw, topic))
                        }
                        (event, _) => event.map(|raw| {
                            let topic = Err(Unreadable {
                                origin: raw.origin.clone(),
                                reason: Skip::Unreadable,
                            });
                            CleanedPage::of(raw, topic)
                        }),
                    };
                    spill.write(event, 0)?;
                }
            }
            counts.units.push(count);
        }
        rows.flush().map_err(|e| Error::io(&rows_path, e))?;
    }
    rows_tmp
        .as_file()
        .sync_all()
        .map_err(|e| Error::io(&rows_path, e))?;
    rows_tmp
        .persist(&rows_path)
        .map_err(|e| Error::io(&rows_path, e.error))?;
    spill.finish()?;
    counts.df = df.into_iter().collect();
    Ok(crate::output::write_json_atomically(
        &dir.join(SHARD_COUNTS),
        &counts,
    )?)
}

/// Stage `merge-stats`: `stats.json` of the whole run, and each unit's first `seq`.
pub(super) fn merge_stats_task(work: &Path, plan: &Plan) -> Result<()> {
    let mut builder = StatsBuilder::new();
    let mut pages_of = vec![0u64; plan.units.len()];
    let mut streams: Vec<Stream<StatRow>> = Vec::new();
    for shard in 0..plan.shards {
        let dir = shard_dir(work, shard);
        let counts = ShardCounts::load(&dir)?;
        for u in &counts.units {
            pages_of[u.unit] = u.pages;
        }
        builder.add_document_frequencies(counts.df);
        streams.push(Box::new(json_lines::<StatRow>(&dir.join(STAT_ROWS))?));
    }
    let first_seq = first_seqs(&pages_of);
    let stats = match &plan.options.stats_file {
        Some(path) => CollectionStats::load(path)?,
        None => {
            merge_sorted(
                streams,
                |r: &StatRow| r.key,
                |row| {
                    builder.add_page(row.site.as_deref(), &row.title, std::iter::empty());
                    if let Some((host, lines, key)) = row.host {
                        builder.add_site_page_lines(&host, lines, key);
                    }
                    Ok(())
                },
            )?;
            builder.finish(plan.options.stopwords)
        }
    };
    stats.save(&work.join(STATS_FILE))?;
    Ok(crate::output::write_json_atomically(
        &work.join(UNIT_SEQS),
        &first_seq,
    )?)
}

/// Each unit's first `seq`: the pages of the units before it.
fn first_seqs(pages_of: &[u64]) -> Vec<u64> {
    pages_of
        .iter()
        .scan(0, |seq, pages| {
            let first = *seq;
            *seq += pages;
            Some(first)
        })
        .collect()
}

/// Each unit's first `seq`, as `merge-stats` wrote them.
pub(super) fn load_unit_seqs(work: &Path) -> Result<Vec<u64>> {
    Ok(crate::output::read_json(
        &work.join(UNIT_SEQS),
        "unit seqs",
    )?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stages::plan::Stage;
    use crate::stages::testing::{options, planned, run_through};

    #[test]
    fn units_are_numbered_after_the_pages_of_the_units_before() {
        assert_eq!(first_seqs(&[2, 0, 3, 1]), [0, 2, 2, 5]);
        assert!(first_seqs(&[]).is_empty());
    }

    #[test]
    fn shards_count_their_units_and_the_merge_numbers_them_in_global_order() {
        let dir = tempfile::tempdir().unwrap();
        let (plan, work) = planned(options(dir.path()), 3, dir.path());
        run_through(&work, Stage::MergeStats);
        let mut pages = vec![None; plan.units.len()];
        for shard in 0..3 {
            let dir = shard_dir(&work, shard);
            let counts = ShardCounts::load(&dir).unwrap();
            let units: Vec<usize> = counts.units.iter().map(|u| u.unit).collect();
            let planned: Vec<usize> = plan.shard_units(shard).map(|u| u.0).collect();
            assert_eq!(units, planned);
            for u in &counts.units {
                assert_eq!((u.events, u.pages), (1, 1), "a page a unit");
                pages[u.unit] = Some(u.pages);
            }
            assert!(!counts.df.is_empty());
            let rows: Vec<StatRow> = json_lines(&dir.join(STAT_ROWS))
                .unwrap()
                .collect::<Result<_>>()
                .unwrap();
            assert!(rows.windows(2).all(|w| w[0].key < w[1].key));
            assert!(rows.iter().all(|r| r.key.0 % 3 == shard));
        }
        assert!(pages.iter().all(Option::is_some));
        let seqs = load_unit_seqs(&work).unwrap();
        assert_eq!(seqs, (0..plan.units.len() as u64).collect::<Vec<_>>());
        let stats = CollectionStats::load(&work.join(STATS_FILE)).unwrap();
        assert_eq!(stats.pages, plan.units.len() as u64);
    }
}
