//! `docview ingest` cut into stages that read and write files, so that an engine that runs one
//! task per shard (Spark, a local process pool: `docview stages`) can run it on many machines
//! and still write the records, replicas, skipped inputs, statistics and indexes of one
//! process, byte for byte.
//!
//! The **plan** ([`Plan`], `plan.json` of the work folder) fixes the inputs' units
//! ([`InputUnit`]: each crawl file, each page file of an input folder) and the settings; shard
//! `r` of `n` takes units `r, r + n, r + 2n, …`. An event's place in the whole run is its
//! unit's number and its number inside the unit, so the global order is the order of one
//! process, and a page's `seq` is the number of pages before it in that order.
//!
//! | stage | tasks | reads | writes |
//! |---|---|---|---|
//! | `earlier` | one | the earlier runs (`--earlier`, an incremental crawl: [`crate::earlier`]) | `earlier.parquet` (their kept pages' order keys, runs, `seq`, URLs, fingerprints) and their band keys partitioned as the shards' (`earlier-bands-P.parquet`); nothing without earlier runs |
//! | `sites` | one per shard | the shard's units | (a site-aware cleaner only) each page's URL, and the raw pages a site sampler of the shard alone picks: a superset of what the run picks |
//! | `merge-sites` | one | every shard's URLs and picked pages | `sites.json`: the site models, the sampler replayed in global order |
//! | `stats` | one per shard | the shard's units | its cleaned pages (the spill of one process), each unit's events and pages, its pages' document frequencies and, in order, their titles and site-template lines |
//! | `merge-stats` | one | every shard's counts and rows | `stats.json` (templates replayed in global order under one budget, as one process learns them) and each unit's first `seq` |
//! | `pages` | one per shard | the shard's spill, `stats.json` | `pages.parquet` (key, URL, fingerprints, MinHash signature, the DocView record, the three index texts), the LSH band keys partitioned by band (`bands-P.parquet`), skipped inputs |
//! | `pairs` | one per band part | every shard's and the earlier runs' band keys and signatures | `pairs-P.parquet`: pages sharing a band whose estimated Jaccard reaches the threshold, by order key (earlier pages first, then `earlier + seq`) |
//! | `resolve` | one | every shard's and the earlier runs' fingerprints, all pairs | `decisions.parquet`: each replica and the kept page it repeats, named with its run when an earlier run kept it (first seen wins, the earlier pages first, then in global order: [`ReplicaDetector::check_pairs`]) |
//! | `finalise` | one per shard | the shard's pages, the decisions | the shard's kept records (`replicas` filled in), replica lines and three indexes |
//! | `merge` | one | every shard's outputs | the output folder of one process: `docviews.jsonl`, `replicas.jsonl`, `skipped.jsonl`, `stats.json`, the three indexes (merged whole: the BM25 statistics are sums), `state.json`, `summary.json` |
//!
//! A task's files are complete when it writes its completion marker (`done/STAGE-N`), last; a
//! task whose marker exists is skipped, and one without starts its files again, so a rerun
//! after a crash does only what was not done. The files other tasks read are put in place
//! atomically.
//! Replicas are decided after all pages are known (a chain of near-copies can cross shards),
//! and indexes are built after the decisions (merging indexes with deleted documents would
//! shift every BM25 score).

use std::collections::{BTreeMap, BinaryHeap, HashMap};
use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::time::Instant;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::clean::cleaner_with_model;
use crate::earlier::{EarlierPage, EarlierRuns, KeptBy};
use crate::event::Event;
use crate::folder::{STATS_FILE, SUMMARY_FILE, prepare_out_dir};
use crate::index::{IndexSet, index_docview, index_stats, merge_index_sets};
use crate::input::{InputUnit, Inputs};
use crate::lock::{FolderLock, LockMode};
use crate::records::table::{Column, Row, TableWriter, Values, read_table, rows, write_table};
use crate::records::{
    DOCVIEWS, REPLICAS, RecordLine, ReplicaLine, SKIPPED, SkippedLine, for_each_line,
    write_docviews_parquet, write_line,
};
use crate::replica::template::{CopyKey, distinct_line_keys};
use crate::replica::{
    Detection, Fingerprint, Fingerprints, MinHasher, ReplicaDetector, ReplicaKind, Signature,
};
use crate::settings::IngestOptions;
use crate::site::PageUrl;
use crate::sites::{SiteLearners, SiteModels, SiteSampler, sample_tree};
use crate::spill::{CleanedPage, SpillWriter, read_spill};
use crate::state::{Counters, RunState, STATE_FILE, Status};
use crate::stats::{CollectionStats, StatsBuilder};
use crate::steps::{Processed, Unreadable, Worker, clean_page, integrate_page, page_features};
use crate::summary::{SiteTemplateFigures, Summary};
use crate::text::Analyzer;
use crate::{Error, Result};

/// The plan file of a work folder.
pub const PLAN_FILE: &str = "plan.json";
/// Layout version of the plan and of every file the stages write.
pub const PLAN_VERSION: u32 = 2;
/// The folder of completion markers.
const DONE_DIR: &str = "done";
/// Pages per batch handed to the workers of a task.
const BATCH: usize = 64;
/// Pages per row group of `pages.parquet`: what a task holds of them at once.
const ROW_GROUP: usize = 1024;

/// A sharded run: its settings and inputs, and how many shards share them.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Plan {
    /// Layout version ([`PLAN_VERSION`]).
    pub version: u32,
    /// Shards (tasks of the per-shard stages, and parts of the band keys).
    pub shards: usize,
    /// The ingest's settings; `out` is where `merge` writes.
    pub options: IngestOptions,
    /// The inputs' units, in the order of one process.
    pub units: Vec<InputUnit>,
}

impl Plan {
    /// Plans `options` over `shards` shards: checks the settings and every input as `ingest`
    /// does, and splits the inputs into units.
    pub fn new(options: IngestOptions, shards: usize) -> Result<Plan> {
        options.validate()?;
        if shards == 0 {
            return Err(Error::setting("shards", "must be at least 1"));
        }
        if options.resume {
            return Err(Error::setting(
                "resume",
                "a sharded run resumes by running its stages again: finished tasks are skipped",
            ));
        }
        cleaner_with_model(options.cleaner, options.model.as_deref())?;
        options.classifier.load()?;
        EarlierRuns::check(&options)?;
        let units = Inputs::plan(&options.inputs)?;
        Ok(Plan {
            version: PLAN_VERSION,
            shards,
            options,
            units,
        })
    }

    /// Writes the plan into the work folder `work` (created if needed). A folder that holds
    /// another plan is refused, unless `overwrite` (then its files are removed first); the same
    /// plan again is accepted, and its finished tasks stay finished.
    ///
    /// It holds the work folder's exclusive lock meanwhile: a plan is never replaced under
    /// running tasks (each holds a shared lock).
    pub fn save(&self, work: &Path, overwrite: bool) -> Result<()> {
        let path = work.join(PLAN_FILE);
        let absolute = |p: &Path| std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
        if absolute(work) == absolute(&self.options.out) {
            return Err(Error::bad_input(
                work.display().to_string(),
                "the work folder cannot be the output folder (--out): the merge writes the \
                 output of one process there; choose another --work",
            ));
        }
        let _lock = FolderLock::exclusive_for_run(work, PLAN_FILE)?;
        if path.exists() {
            let same = Plan::load(work)
                .ok()
                .is_some_and(|p| serde_json::to_value(&p).ok() == serde_json::to_value(self).ok());
            if same {
                return Ok(());
            }
            if !overwrite {
                return Err(Error::bad_input(
                    work.display().to_string(),
                    "it holds the plan of another sharded run; choose a new folder, or add \
                     --overwrite to replace it",
                ));
            }
            crate::lock::clear(work)?;
        } else if !crate::lock::is_empty(work)? {
            return Err(Error::bad_input(
                work.display().to_string(),
                "it is not empty and holds no plan; choose a new or empty folder",
            ));
        }
        crate::output::write_json_atomically(&path, self)
    }

    /// The plan of work folder `work`.
    pub fn load(work: &Path) -> Result<Plan> {
        let path = work.join(PLAN_FILE);
        let plan: Plan = crate::output::read_json(&path, "a docview plan")?;
        if plan.version != PLAN_VERSION {
            return Err(Error::bad_input(
                path.display().to_string(),
                format!(
                    "plan layout version {} (this docview reads {PLAN_VERSION}); plan the run again",
                    plan.version
                ),
            ));
        }
        Ok(plan)
    }

    /// The units of shard `shard`, with their numbers.
    fn shard_units(&self, shard: usize) -> impl Iterator<Item = (usize, &InputUnit)> {
        self.units
            .iter()
            .enumerate()
            .skip(shard)
            .step_by(self.shards)
    }

    /// Tasks of `stage`.
    pub fn tasks(&self, stage: Stage) -> usize {
        match stage {
            Stage::Sites | Stage::Stats | Stage::Pages | Stage::Pairs | Stage::Finalise => {
                self.shards
            }
            Stage::Earlier
            | Stage::MergeSites
            | Stage::MergeStats
            | Stage::Resolve
            | Stage::Merge => 1,
        }
    }

    /// The cleaner of the run, and whether it learns site models first (as `ingest` does for
    /// a site-aware cleaner without `--pages-alone`).
    fn cleaner(&self) -> Result<(Box<dyn crate::clean::Cleaner>, bool)> {
        let options = &self.options;
        let cleaner = cleaner_with_model(options.cleaner, options.model.as_deref())?;
        let site_aware = cleaner.site_learner().is_some() && !options.pages_alone;
        Ok((cleaner, site_aware))
    }
}

/// The stages of a sharded run, in the order they run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Stage {
    /// The kept pages of the earlier runs (`--earlier`), with their LSH band keys.
    Earlier,
    /// The pages each shard offers to the site models (a site-aware cleaner only).
    Sites,
    /// The site models, learnt from the pages picked in global order.
    MergeSites,
    /// Clean each shard's pages; count their statistics.
    Stats,
    /// The collection statistics of all shards, and each unit's first `seq`.
    MergeStats,
    /// Integrate and fingerprint each shard's pages.
    Pages,
    /// Confirm the candidate pairs of each part of the LSH bands.
    Pairs,
    /// Decide the replicas in global order.
    Resolve,
    /// Each shard's kept records, replica lines and indexes.
    Finalise,
    /// The output folder of one process.
    Merge,
}

impl Stage {
    /// Every stage, in order.
    pub const ALL: [Stage; 10] = [
        Stage::Earlier,
        Stage::Sites,
        Stage::MergeSites,
        Stage::Stats,
        Stage::MergeStats,
        Stage::Pages,
        Stage::Pairs,
        Stage::Resolve,
        Stage::Finalise,
        Stage::Merge,
    ];

    /// Its name on the command line.
    pub fn as_str(self) -> &'static str {
        match self {
            Stage::Earlier => "earlier",
            Stage::Sites => "sites",
            Stage::MergeSites => "merge-sites",
            Stage::Stats => "stats",
            Stage::MergeStats => "merge-stats",
            Stage::Pages => "pages",
            Stage::Pairs => "pairs",
            Stage::Resolve => "resolve",
            Stage::Finalise => "finalise",
            Stage::Merge => "merge",
        }
    }
}

impl FromStr for Stage {
    type Err = Error;

    fn from_str(s: &str) -> Result<Stage> {
        Stage::ALL
            .into_iter()
            .find(|stage| stage.as_str() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = Stage::ALL.iter().map(|s| s.as_str()).collect();
                Error::setting(
                    "stage",
                    format!("{s:?} is not a stage ({})", names.join(", ")),
                )
            })
    }
}

/// What running a task did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TaskOutcome {
    /// It ran.
    Ran,
    /// Its completion marker was there: nothing to do.
    AlreadyDone,
}

/// The shared lock of a planned work folder (one that does not exist is told by `Plan::load`).
fn work_lock(work: &Path) -> Result<Option<FolderLock>> {
    if work.join(PLAN_FILE).exists() {
        FolderLock::take(work, LockMode::Shared).map(Some)
    } else {
        Ok(None)
    }
}

fn marker(work: &Path, stage: Stage, task: usize) -> PathBuf {
    work.join(DONE_DIR)
        .join(format!("{}-{task}", stage.as_str()))
}

fn shard_dir(work: &Path, shard: usize) -> PathBuf {
    work.join(format!("shard-{shard}"))
}

/// Runs task `task` of `stage` in the work folder `work` (skipped when its marker says it was
/// done). The stages before it must be done: a missing input file is an error that names it.
///
/// The task holds the work folder's shared lock while it runs (tasks go side by side; a new
/// plan waits for them), and `merge` the output folder's exclusive lock, as `ingest` does.
pub fn run_task(work: &Path, stage: Stage, task: usize) -> Result<TaskOutcome> {
    let _lock = work_lock(work)?;
    let plan = Plan::load(work)?;
    let tasks = plan.tasks(stage);
    if task >= tasks {
        return Err(Error::setting(
            "task",
            format!(
                "stage {} has {tasks} tasks, numbered from 0",
                stage.as_str()
            ),
        ));
    }
    let done = marker(work, stage, task);
    if done.exists() {
        return Ok(TaskOutcome::AlreadyDone);
    }
    for before in Stage::ALL.into_iter().filter(|s| *s < stage) {
        for t in 0..plan.tasks(before) {
            if !marker(work, before, t).exists() {
                return Err(Error::bad_input(
                    work.display().to_string(),
                    format!(
                        "stage {} cannot run before task {t} of stage {} is done",
                        stage.as_str(),
                        before.as_str()
                    ),
                ));
            }
        }
    }
    match stage {
        Stage::Earlier => earlier_task(work, &plan)?,
        Stage::Sites => sites_task(work, &plan, task)?,
        Stage::MergeSites => merge_sites_task(work, &plan)?,
        Stage::Stats => stats_task(work, &plan, task)?,
        Stage::MergeStats => merge_stats_task(work, &plan)?,
        Stage::Pages => pages_task(work, &plan, task)?,
        Stage::Pairs => pairs_task(work, &plan, task)?,
        Stage::Resolve => resolve_task(work, &plan)?,
        Stage::Finalise => finalise_task(work, &plan, task)?,
        Stage::Merge => merge_task(work, &plan)?,
    }
    let dir = work.join(DONE_DIR);
    std::fs::create_dir_all(&dir).map_err(|e| Error::io(&dir, e))?;
    crate::output::write_atomically(&done, |w| w.write_all(b"done\n"))?;
    Ok(TaskOutcome::Ran)
}

/// How many events and pages one unit gave.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
struct UnitCount {
    unit: usize,
    events: u64,
    pages: u64,
}

/// What the statistics learn of one readable page, in global order.
#[derive(Debug, Serialize, Deserialize)]
struct StatRow {
    key: (usize, u64),
    site: Option<String>,
    title: String,
    /// Its web site, distinct line keys and copy key, for the site templates.
    host: Option<(String, Vec<u64>, CopyKey)>,
}

/// A shard's document frequencies.
#[derive(Debug, Default, Serialize, Deserialize)]
struct ShardCounts {
    units: Vec<UnitCount>,
    df: BTreeMap<String, u64>,
}

const SHARD_COUNTS: &str = "counts.json";
const STAT_ROWS: &str = "stat-rows.jsonl";
const UNIT_SEQS: &str = "unit-seqs.json";
const PAGES: &str = "pages.parquet";
const SKIPPED_EVENTS: &str = "skipped-events.jsonl";
const DECISIONS: &str = "decisions.parquet";

fn bands_file(dir: &Path, part: usize) -> PathBuf {
    dir.join(format!("bands-{part}.parquet"))
}

fn pairs_file(work: &Path, part: usize) -> PathBuf {
    work.join(format!("pairs-{part}.parquet"))
}

fn pool(options: &IngestOptions) -> Result<rayon::ThreadPool> {
    crate::thread_pool(options.threads)
}

const SITE_PAGES: &str = "site-pages.jsonl";
const SITE_SAMPLES: &str = "site-samples.parquet";
const SITES_FILE: &str = "sites.json";

/// A page offered to the site models.
#[derive(Debug, Serialize, Deserialize)]
struct SitePage {
    key: (usize, u64),
    url: String,
}

/// The site models of the run (none when its cleaner does not learn any).
fn load_sites(work: &Path) -> Result<SiteModels> {
    let path = work.join(SITES_FILE);
    if path.exists() {
        crate::output::read_json(&path, "the site models of a sharded run")
    } else {
        Ok(SiteModels::default())
    }
}

/// Stage `sites`: every page of the shard as the site sampler sees it, and the raw pages a
/// sampler of this shard alone picks: a superset of those the whole run picks (a page among a
/// host's first pages in the run is among them in its shard, and the shard has picked fewer
/// pages than the run before it).
fn sites_task(work: &Path, plan: &Plan, shard: usize) -> Result<()> {
    if !plan.cleaner()?.1 {
        return Ok(());
    }
    let dir = shard_dir(work, shard);
    std::fs::create_dir_all(&dir).map_err(|e| Error::io(&dir, e))?;
    let mut sampler = SiteSampler::default();
    let mut offered: Vec<SitePage> = Vec::new();
    let mut picked = RawColumns::default();
    for (unit_no, unit) in plan.shard_units(shard) {
        for (record, event) in Inputs::of_units(std::slice::from_ref(unit)).enumerate() {
            let crate::input::InputEvent::Page(page) = event else {
                continue;
            };
            let key = (unit_no, record as u64);
            let url = page.url.clone();
            if sampler.offer(&url).is_some() {
                picked.push(key, page);
            }
            offered.push(SitePage { key, url });
        }
    }
    let path = dir.join(SITE_PAGES);
    crate::output::write_atomically(&path, |w| {
        let mut buf = Vec::new();
        for page in &offered {
            write_line(w, &mut buf, page)?;
        }
        Ok(())
    })?;
    write_table(&dir.join(SITE_SAMPLES), &picked.into_columns())
}

/// Raw pages as columns.
#[derive(Default)]
struct RawColumns {
    unit: Vec<i64>,
    record: Vec<i64>,
    url: Vec<String>,
    origin: Vec<String>,
    charset: Vec<Option<String>>,
    html: Vec<Option<Vec<u8>>>,
}

impl RawColumns {
    fn push(&mut self, key: (usize, u64), page: crate::input::RawPage) {
        self.unit.push(key.0 as i64);
        self.record.push(key.1 as i64);
        self.url.push(page.url);
        self.origin.push(page.origin);
        self.charset.push(page.http_charset);
        self.html.push(Some(page.bytes));
    }

    fn into_columns(self) -> Vec<Column> {
        vec![
            Column::int("unit", self.unit),
            Column::int("record", self.record),
            Column::text("url", self.url),
            Column::text("origin", self.origin),
            Column::optional("charset", Values::Text(self.charset)),
            Column::optional("html", Values::Bytes(self.html)),
        ]
    }
}

/// Stage `merge-sites`: the site models, from the pages a sampler picks over every shard's
/// pages in global order, each host's picked pages learnt in that order.
fn merge_sites_task(work: &Path, plan: &Plan) -> Result<()> {
    let (cleaner, site_aware) = plan.cleaner()?;
    if !site_aware {
        return Ok(());
    }
    let mut streams: Vec<Box<dyn Iterator<Item = Result<SitePage>>>> = Vec::new();
    for shard in 0..plan.shards {
        streams.push(Box::new(json_lines::<SitePage>(
            &shard_dir(work, shard).join(SITE_PAGES),
        )?));
    }
    let mut sampler = SiteSampler::default();
    let mut chosen: Vec<((usize, u64), String)> = Vec::new();
    merge_sorted(
        streams,
        |p: &SitePage| p.key,
        |page| {
            if let Some(host) = sampler.offer(&page.url) {
                chosen.push((page.key, host));
            }
            Ok(())
        },
    )?;
    let mut raw: HashMap<(usize, u64), crate::input::RawPage> = HashMap::new();
    for shard in 0..plan.shards {
        let path = shard_dir(work, shard).join(SITE_SAMPLES);
        for row in read_table(&path)? {
            let key = (
                int_of(&row, "unit", &path)? as usize,
                int_of(&row, "record", &path)? as u64,
            );
            raw.insert(
                key,
                crate::input::RawPage {
                    url: row.text("url").unwrap_or_default(),
                    bytes: row.bytes("html").unwrap_or_default(),
                    http_charset: row.text("charset"),
                    origin: row.text("origin").unwrap_or_default(),
                },
            );
        }
    }
    let pool = pool(&plan.options)?;
    let limits = plan.options.limits;
    let mut learners = SiteLearners::new(cleaner.as_ref());
    for batch in chosen.chunks(BATCH) {
        let trees: Vec<Option<docview_page::TagTree>> = pool.install(|| {
            batch
                .par_iter()
                .map(|(key, _)| raw.get(key).and_then(|page| sample_tree(page, &limits)))
                .collect()
        });
        for ((key, host), tree) in batch.iter().zip(trees) {
            if !raw.contains_key(key) {
                return Err(Error::bad_input(
                    work.display().to_string(),
                    format!(
                        "the page of unit {} record {} was picked for its site's model but no shard kept it",
                        key.0, key.1
                    ),
                ));
            }
            learners.add(host.clone(), tree.as_ref());
        }
    }
    let models = sampler.finish(learners);
    crate::output::write_json_atomically(&work.join(SITES_FILE), &models)
}

/// Stage `stats`: cleans the shard's pages (into its spill) and counts their statistics.
fn stats_task(work: &Path, plan: &Plan, shard: usize) -> Result<()> {
    let dir = shard_dir(work, shard);
    std::fs::create_dir_all(&dir).map_err(|e| Error::io(&dir, e))?;
    let options = &plan.options;
    let (cleaner, _) = plan.cleaner()?;
    let sites = load_sites(work)?;
    let analyzer = Analyzer::new();
    let pool = pool(options)?;
    let mut spill = SpillWriter::create(&dir)?;
    let mut counts = ShardCounts::default();
    let mut df: HashMap<String, u64> = HashMap::new();
    let rows_path = dir.join(STAT_ROWS);
    let mut rows_tmp = crate::output::temp_file(&dir).map_err(|e| Error::io(&dir, e))?;
    {
        let mut rows = BufWriter::new(rows_tmp.as_file_mut());
        let mut line = Vec::new();
        for (unit_no, unit) in plan.shard_units(shard) {
            let mut count = UnitCount {
                unit: unit_no,
                events: 0,
                pages: 0,
            };
            let mut events = Inputs::of_units(std::slice::from_ref(unit)).peekable();
            while events.peek().is_some() {
                let batch: Vec<_> = events.by_ref().take(BATCH).collect();
                let cleaned: Vec<_> = pool.install(|| {
                    batch
                        .par_iter()
                        .map(|event| match event {
                            crate::input::InputEvent::Page(p) => {
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
                            Event::Page(CleanedPage {
                                url: raw.url,
                                origin: raw.origin,
                                html_bytes: raw.bytes.len() as u64,
                                topic,
                            })
                        }
                        (event, _) => event.map(|raw| CleanedPage {
                            topic: Err(Unreadable {
                                origin: raw.origin.clone(),
                                reason: "unreadable page".into(),
                            }),
                            url: raw.url,
                            origin: raw.origin,
                            html_bytes: raw.bytes.len() as u64,
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
    crate::output::write_json_atomically(&dir.join(SHARD_COUNTS), &counts)
}

/// Reads a JSON Lines file of `T` as a stream.
fn json_lines<T: for<'de> Deserialize<'de>>(
    path: &Path,
) -> Result<impl Iterator<Item = Result<T>> + use<T>> {
    let file = File::open(path).map_err(|e| Error::io(path, e))?;
    let path = path.to_path_buf();
    Ok(BufReader::with_capacity(1 << 16, file)
        .lines()
        .enumerate()
        .map(move |(i, line)| {
            let line = line.map_err(|e| Error::io(&path, e))?;
            serde_json::from_str(&line).map_err(|e| {
                Error::bad_input(format!("{}:{}", path.display(), i + 1), e.to_string())
            })
        }))
}

/// Merges streams each sorted by `key` into one sorted stream (ties to the earlier stream).
fn merge_sorted<T, K: Ord + Copy>(
    streams: Vec<Box<dyn Iterator<Item = Result<T>>>>,
    key: impl Fn(&T) -> K,
    mut each: impl FnMut(T) -> Result<()>,
) -> Result<()> {
    let mut streams = streams;
    let mut heads: Vec<Option<T>> = Vec::with_capacity(streams.len());
    let mut heap = BinaryHeap::new();
    for (i, s) in streams.iter_mut().enumerate() {
        let head = s.next().transpose()?;
        if let Some(h) = &head {
            heap.push(std::cmp::Reverse((key(h), i)));
        }
        heads.push(head);
    }
    while let Some(std::cmp::Reverse((_, i))) = heap.pop() {
        let item = heads[i].take();
        let next = streams[i].next().transpose()?;
        if let Some(h) = &next {
            heap.push(std::cmp::Reverse((key(h), i)));
        }
        heads[i] = next;
        if let Some(item) = item {
            each(item)?;
        }
    }
    Ok(())
}

/// Stage `merge-stats`: `stats.json` of the whole run, and each unit's first `seq`.
fn merge_stats_task(work: &Path, plan: &Plan) -> Result<()> {
    let mut builder = StatsBuilder::new();
    let mut first_seq = vec![0u64; plan.units.len()];
    let mut pages_of = vec![0u64; plan.units.len()];
    let mut streams: Vec<Box<dyn Iterator<Item = Result<StatRow>>>> = Vec::new();
    for shard in 0..plan.shards {
        let dir = shard_dir(work, shard);
        let counts: ShardCounts =
            crate::output::read_json(&dir.join(SHARD_COUNTS), "a shard's counts")?;
        for u in &counts.units {
            pages_of[u.unit] = u.pages;
        }
        builder.add_document_frequencies(counts.df);
        streams.push(Box::new(json_lines::<StatRow>(&dir.join(STAT_ROWS))?));
    }
    let mut seq = 0;
    for (first, pages) in first_seq.iter_mut().zip(&pages_of) {
        *first = seq;
        seq += pages;
    }
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
    crate::output::write_json_atomically(&work.join(UNIT_SEQS), &first_seq)
}

/// A skipped input, keyed by its place in the run.
#[derive(Debug, Serialize, Deserialize)]
struct KeyedSkip {
    key: (usize, u64),
    line: SkippedLine,
}

fn hex(f: Option<Fingerprint>) -> Option<String> {
    f.map(|f| f.to_string())
}

fn signature_bytes(sig: &Signature) -> Vec<u8> {
    sig.slots().iter().flat_map(|s| s.to_le_bytes()).collect()
}

fn signature_of(bytes: &[u8]) -> Signature {
    let slots: Vec<u16> = bytes
        .chunks_exact(2)
        .map(|b| u16::from_le_bytes([b[0], b[1]]))
        .collect();
    Signature::from_slots(&slots)
}

/// Stage `pages`: integrates and fingerprints the shard's cleaned pages.
fn pages_task(work: &Path, plan: &Plan, shard: usize) -> Result<()> {
    let dir = shard_dir(work, shard);
    let options = &plan.options;
    let stats = CollectionStats::load(&work.join(STATS_FILE))?;
    let first_seq: Vec<u64> = crate::output::read_json(&work.join(UNIT_SEQS), "unit seqs")?;
    let counts: ShardCounts =
        crate::output::read_json(&dir.join(SHARD_COUNTS), "a shard's counts")?;
    let (cleaner, _) = plan.cleaner()?;
    let classifier = options.classifier.load()?;
    let minhasher = match options.detection {
        Detection::MinHash => Some(MinHasher::new(options.minhash)?),
        Detection::Exact | Detection::Keyword => None,
    };
    let sites = load_sites(work)?;
    let worker = Worker {
        classifier: classifier
            .as_ref()
            .map(|(model, name)| crate::integrate::ClassifierRef { model, name }),
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
    let pool = pool(options)?;
    // Each event's key, from the units' counts.
    let keys = counts
        .units
        .iter()
        .flat_map(|u| (0..u.events).map(move |r| (u.unit, r)));
    let mut events = read_spill(&dir, 0)?.zip(keys);
    let mut skipped: Vec<KeyedSkip> = Vec::new();
    let mut cols = PageColumns::default();
    let mut bands: Vec<(usize, u64, u64)> = Vec::new();
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
                    let result = c.topic.map(|topic| {
                        integrate_page(
                            seq,
                            c.origin,
                            &PageUrl::parse(&c.url),
                            c.html_bytes,
                            topic,
                            &worker,
                        )
                    });
                    (key, seq, c.url, c.html_bytes, result)
                })
                .collect()
        });
        for (key, seq, url, html_bytes, result) in processed {
            match result {
                Ok(page) => cols.push_page(key, &url, html_bytes, page, &options.minhash)?,
                Err(u) => {
                    skipped.push(KeyedSkip {
                        key,
                        line: SkippedLine {
                            origin: u.origin.clone(),
                            reason: u.reason.clone(),
                            detail: String::new(),
                        },
                    });
                    cols.push_unreadable(key, seq, &url, u, html_bytes);
                }
            }
        }
        if cols.seq.len() >= ROW_GROUP {
            bands.append(&mut cols.bands);
            table.write(&std::mem::take(&mut cols).into_columns())?;
        }
    }
    skipped.sort_by_key(|s| s.key);
    let skipped_path = dir.join(SKIPPED_EVENTS);
    crate::output::write_atomically(&skipped_path, |w| {
        let mut buf = Vec::new();
        for s in &skipped {
            write_line(w, &mut buf, s)?;
        }
        Ok(())
    })?;
    bands.append(&mut cols.bands);
    table.finish(&cols.into_columns())?;
    write_band_parts(&bands, plan.shards, |part| bands_file(&dir, part))
}

/// Writes band keys `(band, bucket key, seq or order key)` into `parts` files, band `b` into
/// part `b % parts`.
fn write_band_parts(
    bands: &[(usize, u64, u64)],
    parts: usize,
    path: impl Fn(usize) -> PathBuf,
) -> Result<()> {
    for part in 0..parts {
        let rows: Vec<&(usize, u64, u64)> =
            bands.iter().filter(|(b, _, _)| b % parts == part).collect();
        write_table(
            &path(part),
            &[
                Column::int("band", rows.iter().map(|r| r.0 as i64)),
                Column::int("bucket", rows.iter().map(|r| r.1 as i64)),
                Column::int("seq", rows.iter().map(|r| r.2 as i64)),
            ],
        )?;
    }
    Ok(())
}

/// The kept pages of the earlier runs: their order keys (`key`, see
/// [`crate::earlier`]), runs, `seq`, URLs and fingerprints.
const EARLIER: &str = "earlier.parquet";
/// The earlier runs' labels and page count.
const EARLIER_RUNS: &str = "earlier.json";

fn earlier_bands_file(work: &Path, part: usize) -> PathBuf {
    work.join(format!("earlier-bands-{part}.parquet"))
}

/// What `earlier.json` says.
#[derive(Debug, Default, Serialize, Deserialize)]
struct EarlierFigures {
    /// The runs, as replica lines name them.
    runs: Vec<String>,
    /// Their kept pages: the first order key of this run's pages.
    pages: u64,
}

fn load_earlier(work: &Path) -> Result<EarlierFigures> {
    crate::output::read_json(&work.join(EARLIER_RUNS), "the earlier runs")
}

/// Stage `earlier`: the earlier runs' kept pages, and their band keys partitioned as the
/// shards' are (order keys in place of `seq`).
fn earlier_task(work: &Path, plan: &Plan) -> Result<()> {
    let params = plan.options.minhash;
    let (mut key, mut exact, mut keyword, mut minhash) = (vec![], vec![], vec![], vec![]);
    let mut bands: Vec<(usize, u64, u64)> = Vec::new();
    let earlier = EarlierRuns::load(&plan.options, |k, f| {
        key.push(k as i64);
        exact.push(hex(f.exact));
        keyword.push(hex(f.keyword));
        minhash.push(f.minhash.as_ref().map(signature_bytes));
        if plan.options.detection == Detection::MinHash
            && let Some(sig) = &f.minhash
        {
            for (band, bucket) in sig.band_keys(&params).into_iter().enumerate() {
                bands.push((band, bucket, k));
            }
        }
    })?;
    let pages = earlier.pages();
    write_table(
        &work.join(EARLIER),
        &[
            Column::int("key", key),
            Column::int("run", pages.iter().map(|p| p.run as i64)),
            Column::int("seq", pages.iter().map(|p| p.seq as i64)),
            Column::text("url", pages.iter().map(|p| p.url.to_string())),
            Column::optional("exact", Values::Text(exact)),
            Column::optional("keyword", Values::Text(keyword)),
            Column::optional("minhash", Values::Bytes(minhash)),
        ],
    )?;
    write_band_parts(&bands, plan.shards, |part| earlier_bands_file(work, part))?;
    crate::output::write_json_atomically(
        &work.join(EARLIER_RUNS),
        &EarlierFigures {
            runs: earlier.runs().to_vec(),
            pages: earlier.len(),
        },
    )
}

/// The columns of `pages.parquet`, filled page by page.
#[derive(Default)]
struct PageColumns {
    unit: Vec<i64>,
    record: Vec<i64>,
    seq: Vec<i64>,
    url: Vec<String>,
    origin: Vec<String>,
    html_bytes: Vec<i64>,
    unreadable: Vec<Option<String>>,
    exact: Vec<Option<String>>,
    keyword: Vec<Option<String>>,
    minhash: Vec<Option<Vec<u8>>>,
    title: Vec<Option<String>>,
    record_json: Vec<Option<String>>,
    fulltext: Vec<Option<String>>,
    topic: Vec<Option<String>>,
    abstract_text: Vec<Option<String>>,
    /// (band, bucket key, seq) of each signature's bands.
    bands: Vec<(usize, u64, u64)>,
}

impl PageColumns {
    fn push_key(&mut self, key: (usize, u64), seq: u64, url: &str, origin: &str, bytes: u64) {
        self.unit.push(key.0 as i64);
        self.record.push(key.1 as i64);
        self.seq.push(seq as i64);
        self.url.push(url.to_string());
        self.origin.push(origin.to_string());
        self.html_bytes.push(bytes as i64);
    }

    fn push_page(
        &mut self,
        key: (usize, u64),
        url: &str,
        html_bytes: u64,
        page: Processed,
        minhash: &crate::replica::MinHashParams,
    ) -> Result<()> {
        self.push_key(key, page.seq, url, &page.origin, html_bytes);
        self.unreadable.push(None);
        let f = &page.fingerprints;
        self.exact.push(hex(f.exact));
        self.keyword.push(hex(f.keyword));
        self.minhash.push(f.minhash.as_ref().map(signature_bytes));
        if let Some(sig) = &f.minhash {
            for (band, bucket) in sig.band_keys(minhash).into_iter().enumerate() {
                self.bands.push((band, bucket, page.seq));
            }
        }
        self.title.push(Some(page.docview.title.clone()));
        self.fulltext.push(Some(page.fulltext));
        self.topic.push(Some(page.docview.topic_content.clone()));
        self.abstract_text
            .push(Some(crate::index::abstract_body(&page.docview)));
        let record = RecordLine {
            docview: page.docview,
            seq: page.seq,
            origin: page.origin,
            fingerprints: page.fingerprints,
        };
        self.record_json
            .push(Some(serde_json::to_string(&record).map_err(|e| {
                Error::bad_input(url.to_string(), e.to_string())
            })?));
        Ok(())
    }

    fn push_unreadable(
        &mut self,
        key: (usize, u64),
        seq: u64,
        url: &str,
        u: Unreadable,
        bytes: u64,
    ) {
        self.push_key(key, seq, url, &u.origin, bytes);
        self.unreadable.push(Some(u.reason));
        for col in [
            &mut self.exact,
            &mut self.keyword,
            &mut self.title,
            &mut self.record_json,
            &mut self.fulltext,
            &mut self.topic,
            &mut self.abstract_text,
        ] {
            col.push(None);
        }
        self.minhash.push(None);
    }

    fn into_columns(self) -> Vec<Column> {
        vec![
            Column::int("unit", self.unit),
            Column::int("record", self.record),
            Column::int("seq", self.seq),
            Column::text("url", self.url),
            Column::text("origin", self.origin),
            Column::int("html_bytes", self.html_bytes),
            Column::optional("unreadable", Values::Text(self.unreadable)),
            Column::optional("exact", Values::Text(self.exact)),
            Column::optional("keyword", Values::Text(self.keyword)),
            Column::optional("minhash", Values::Bytes(self.minhash)),
            Column::optional("title", Values::Text(self.title)),
            Column::optional("record", Values::Text(self.record_json)),
            Column::optional("fulltext", Values::Text(self.fulltext)),
            Column::optional("topic", Values::Text(self.topic)),
            Column::optional("abstract", Values::Text(self.abstract_text)),
        ]
    }
}

fn int_of(row: &Row, name: &str, path: &Path) -> Result<i64> {
    row.int(name).ok_or_else(|| {
        Error::bad_input(path.display().to_string(), format!("a row without {name}"))
    })
}

/// Stage `pairs`: the candidate pairs of band part `part`, confirmed by their estimated
/// Jaccard. Pages go by order key: the earlier runs' pages first, then this run's `seq` after
/// them; a pair of two earlier pages is of no use (both stay kept).
fn pairs_task(work: &Path, plan: &Plan, part: usize) -> Result<()> {
    let params = plan.options.minhash;
    let offset = load_earlier(work)?.pages;
    let mut keys: Vec<(u64, u64, u64)> = Vec::new();
    let band_files = std::iter::once((earlier_bands_file(work, part), 0))
        .chain((0..plan.shards).map(|shard| (bands_file(&shard_dir(work, shard), part), offset)));
    for (path, shift) in band_files {
        for row in read_table(&path)? {
            keys.push((
                int_of(&row, "band", &path)? as u64,
                int_of(&row, "bucket", &path)? as u64,
                shift + int_of(&row, "seq", &path)? as u64,
            ));
        }
    }
    keys.sort_unstable();
    // Candidate pairs (later, earlier) with the band they share.
    let mut candidates: Vec<(u64, u64, u64)> = Vec::new();
    for group in keys.chunk_by(|a, b| a.0 == b.0 && a.1 == b.1) {
        for (i, later) in group.iter().enumerate().filter(|(_, k)| k.2 >= offset) {
            for earlier in &group[..i] {
                candidates.push((later.2, earlier.2, later.0));
            }
        }
    }
    let mut wanted: Vec<u64> = candidates.iter().flat_map(|c| [c.0, c.1]).collect();
    wanted.sort_unstable();
    wanted.dedup();
    let mut signatures: HashMap<u64, Signature> = HashMap::new();
    if !wanted.is_empty() {
        let tables = std::iter::once((work.join(EARLIER), "key", 0))
            .chain((0..plan.shards).map(|s| (shard_dir(work, s).join(PAGES), "seq", offset)));
        for (path, column, shift) in tables {
            for row in rows(&path, Some(&[column, "minhash"]))? {
                let row = row?;
                let key = shift + int_of(&row, column, &path)? as u64;
                if wanted.binary_search(&key).is_ok()
                    && let Some(bytes) = row.bytes("minhash")
                {
                    signatures.insert(key, signature_of(&bytes));
                }
            }
        }
    }
    let mut pairs: BTreeMap<(u64, u64), f32> = BTreeMap::new();
    let mut distinct = candidates.iter().map(|c| (c.0, c.1)).collect::<Vec<_>>();
    distinct.sort_unstable();
    distinct.dedup();
    for (later, earlier, band) in candidates {
        if pairs.contains_key(&(later, earlier)) {
            continue;
        }
        let (Some(a), Some(b)) = (signatures.get(&later), signatures.get(&earlier)) else {
            continue;
        };
        if !a.same_band(b, band as usize, &params) {
            continue;
        }
        let j = a.jaccard(b);
        if j >= params.threshold {
            pairs.insert((later, earlier), j);
        }
    }
    crate::output::write_json_atomically(
        &work.join(format!("pairs-{part}.json")),
        &serde_json::json!({
            "band_keys": keys.len(),
            "candidate_pairs": distinct.len(),
            "confirmed_pairs": pairs.len(),
        }),
    )?;
    write_table(
        &pairs_file(work, part),
        &[
            Column::int("key", pairs.keys().map(|k| k.0 as i64)),
            Column::int("of_key", pairs.keys().map(|k| k.1 as i64)),
            Column::optional(
                "similarity",
                Values::Float(pairs.values().map(|j| Some(*j)).collect()),
            ),
        ],
    )
}

/// One page as the resolve pass sees it.
struct Fingerprinted {
    seq: u64,
    url: String,
    fingerprints: Fingerprints,
}

fn fingerprint_of(hex: Option<String>) -> Option<Fingerprint> {
    hex.as_deref().and_then(Fingerprint::from_hex)
}

/// Stage `resolve`: the replica decisions, first seen wins in global order, after the earlier
/// runs' kept pages (seen before all of this run's).
fn resolve_task(work: &Path, plan: &Plan) -> Result<()> {
    let mut detector = ReplicaDetector::of_pairs(plan.options.detection, plan.options.minhash)?;
    let mut earlier_pages: Vec<EarlierPage> = Vec::new();
    let path = work.join(EARLIER);
    let columns = ["key", "run", "seq", "url", "exact", "keyword"];
    for row in rows(&path, Some(&columns))? {
        let row = row?;
        let fingerprints = Fingerprints {
            exact: fingerprint_of(row.text("exact")),
            keyword: fingerprint_of(row.text("keyword")),
            minhash: None,
        };
        detector.remember(int_of(&row, "key", &path)? as u64, &fingerprints);
        earlier_pages.push(EarlierPage {
            run: int_of(&row, "run", &path)? as usize,
            seq: int_of(&row, "seq", &path)? as u64,
            url: row.text("url").unwrap_or_default().into_boxed_str(),
        });
    }
    let earlier = EarlierRuns::from_parts(load_earlier(work)?.runs, earlier_pages);
    let mut pages: Vec<Fingerprinted> = Vec::new();
    for shard in 0..plan.shards {
        let path = shard_dir(work, shard).join(PAGES);
        // Not the signatures: the pairs stage has compared them already.
        let columns = ["seq", "url", "unreadable", "exact", "keyword"];
        for row in rows(&path, Some(&columns))? {
            let row = row?;
            if row.text("unreadable").is_some() {
                continue;
            }
            pages.push(Fingerprinted {
                seq: int_of(&row, "seq", &path)? as u64,
                url: row.text("url").unwrap_or_default(),
                fingerprints: Fingerprints {
                    exact: fingerprint_of(row.text("exact")),
                    keyword: fingerprint_of(row.text("keyword")),
                    minhash: None,
                },
            });
        }
    }
    pages.sort_by_key(|p| p.seq);
    let mut pairs: HashMap<u64, Vec<(u64, f32)>> = HashMap::new();
    for part in 0..plan.shards {
        let path = pairs_file(work, part);
        for row in read_table(&path)? {
            let key = int_of(&row, "key", &path)? as u64;
            let of = int_of(&row, "of_key", &path)? as u64;
            let j = row.float("similarity").unwrap_or(0.0);
            pairs.entry(key).or_default().push((of, j));
        }
    }
    for list in pairs.values_mut() {
        list.sort_by_key(|a| a.0);
        list.dedup_by_key(|p| p.0);
    }
    let url_of: HashMap<u64, &str> = pages.iter().map(|p| (p.seq, p.url.as_str())).collect();
    let mut d = DecisionColumns::default();
    for page in &pages {
        let key = earlier.key(page.seq);
        let candidates = pairs.get(&key).map_or(&[][..], Vec::as_slice);
        if let Some(m) = detector.check_pairs(key, &page.fingerprints, candidates) {
            d.seq.push(page.seq as i64);
            d.url.push(page.url.clone());
            match earlier.kept_by(m.of) {
                KeptBy::Earlier(run, p) => {
                    d.of.push(p.seq as i64);
                    d.of_url.push(p.url.to_string());
                    d.of_run.push(Some(run.to_string()));
                }
                KeptBy::This(of) => {
                    d.of.push(of as i64);
                    d.of_url
                        .push(url_of.get(&of).map(|u| u.to_string()).unwrap_or_default());
                    d.of_run.push(None);
                }
            }
            d.kind.push(m.kind.as_str().to_string());
            d.detector.push(m.matcher.as_str().to_string());
            d.similarity.push(m.similarity);
        }
    }
    write_table(
        &work.join(DECISIONS),
        &[
            Column::int("seq", d.seq),
            Column::text("url", d.url),
            Column::int("of", d.of),
            Column::text("of_url", d.of_url),
            Column::optional("of_run", Values::Text(d.of_run)),
            Column::text("kind", d.kind),
            Column::text("detector", d.detector),
            Column::optional("similarity", Values::Float(d.similarity)),
        ],
    )
}

#[derive(Default)]
struct DecisionColumns {
    seq: Vec<i64>,
    url: Vec<String>,
    of: Vec<i64>,
    of_url: Vec<String>,
    of_run: Vec<Option<String>>,
    kind: Vec<String>,
    detector: Vec<String>,
    similarity: Vec<Option<f32>>,
}

/// One replica decision.
struct Decision {
    of: u64,
    of_url: String,
    /// The earlier run that kept `of`, when it is not this run.
    of_run: Option<String>,
    kind: ReplicaKind,
    detector: String,
    similarity: Option<f32>,
}

/// What a shard's finalise counted.
#[derive(Debug, Default, Serialize, Deserialize)]
struct FinalCounts {
    counters: Counters,
}

const FINAL_COUNTS: &str = "final-counts.json";

/// Stage `finalise`: the shard's kept records, replica lines and indexes.
fn finalise_task(work: &Path, plan: &Plan, shard: usize) -> Result<()> {
    let dir = shard_dir(work, shard);
    let path = work.join(DECISIONS);
    let mut decisions: HashMap<u64, Decision> = HashMap::new();
    let mut replicas_of: HashMap<u64, Vec<(u64, String)>> = HashMap::new();
    for row in read_table(&path)? {
        let seq = int_of(&row, "seq", &path)? as u64;
        let of = int_of(&row, "of", &path)? as u64;
        let kind = match row.text("kind").as_deref() {
            Some("exact") => ReplicaKind::Exact,
            _ => ReplicaKind::Near,
        };
        let of_run = row.text("of_run");
        if of_run.is_none() {
            replicas_of
                .entry(of)
                .or_default()
                .push((seq, row.text("url").unwrap_or_default()));
        }
        decisions.insert(
            seq,
            Decision {
                of,
                of_url: row.text("of_url").unwrap_or_default(),
                of_run,
                kind,
                detector: row.text("detector").unwrap_or_default(),
                similarity: row.float("similarity"),
            },
        );
    }
    for list in replicas_of.values_mut() {
        list.sort();
    }
    let pages_path = dir.join(PAGES);
    let out = dir.join("out");
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
    for row in rows(&pages_path, None)? {
        let row = row?;
        counters.pages_read += 1;
        counters.html_bytes += int_of(&row, "html_bytes", &pages_path)? as u64;
        if row.text("unreadable").is_some() {
            // Its line is in the shard's skipped inputs, counted by `merge`.
            continue;
        }
        let seq = int_of(&row, "seq", &pages_path)? as u64;
        let json = row.text("record").unwrap_or_default();
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
            &row.text("fulltext").unwrap_or_default(),
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
    crate::output::write_json_atomically(&dir.join(FINAL_COUNTS), &FinalCounts { counters })
}

/// The sequence number of a record or replica line.
#[derive(Deserialize)]
struct SeqOf {
    seq: u64,
}

/// Merges the JSON Lines files `parts` (each sorted by `key`) into `path`, atomically.
fn merge_lines<K: Ord + Copy + 'static, T: for<'de> Deserialize<'de> + 'static>(
    parts: &[PathBuf],
    path: &Path,
    key: fn(&T) -> K,
    line_of: impl Fn(&str, T) -> std::io::Result<Vec<u8>>,
) -> Result<()> {
    let mut streams: Vec<KeyedLines<K, T>> = Vec::new();
    for part in parts {
        let file = File::open(part).map_err(|e| Error::io(part, e))?;
        let part = part.clone();
        streams.push(Box::new(BufReader::new(file).lines().map(move |line| {
            let line = line.map_err(|e| Error::io(&part, e))?;
            let value: T = serde_json::from_str(&line)
                .map_err(|e| Error::bad_input(part.display().to_string(), e.to_string()))?;
            Ok((key(&value), line, value))
        })));
    }
    crate::output::write_atomically(path, |w| {
        merge_sorted(
            streams,
            |item: &(K, String, T)| item.0,
            |(_, line, value)| {
                w.write_all(&line_of(&line, value).map_err(|e| Error::io(path, e))?)
                    .map_err(|e| Error::io(path, e))
            },
        )
        .map_err(std::io::Error::other)
    })
}

/// Lines of a JSON Lines file, each with its key and value.
type KeyedLines<K, T> = Box<dyn Iterator<Item = Result<(K, String, T)>>>;

/// Stage `merge`: the output folder of one process.
fn merge_task(work: &Path, plan: &Plan) -> Result<()> {
    let started = Instant::now();
    let options = &plan.options;
    let out = &options.out;
    let input_bytes = Some(plan.units.iter().map(InputUnit::size).sum());
    let settings = options.settings(input_bytes)?;
    let state_path = out.join(STATE_FILE);
    let _lock = FolderLock::exclusive_for_run(out, STATE_FILE)?;
    // A merge of this run that stopped half-way (its state says `running` with these
    // settings) is started again; any other folder is left to `prepare_out_dir`'s rules.
    let ours = RunState::load(&state_path)
        .ok()
        .is_some_and(|s| s.settings == settings && s.status == Status::Running);
    if ours {
        crate::lock::clear(out)?;
    }
    prepare_out_dir(out, options.overwrite)?;
    RunState::new(settings.clone()).save(&state_path)?;
    let shard_outs: Vec<PathBuf> = (0..plan.shards)
        .map(|s| shard_dir(work, s).join("out"))
        .collect();
    // Records and replica lines go out as the shards wrote them, merged by `seq`.
    for file in [DOCVIEWS, REPLICAS] {
        merge_lines(
            &shard_outs.iter().map(|d| d.join(file)).collect::<Vec<_>>(),
            &out.join(file),
            |r: &SeqOf| r.seq,
            |line: &str, _| Ok(format!("{line}\n").into_bytes()),
        )?;
    }
    merge_lines(
        &(0..plan.shards)
            .map(|s| shard_dir(work, s).join(SKIPPED_EVENTS))
            .collect::<Vec<_>>(),
        &out.join(SKIPPED),
        |s: &KeyedSkip| s.key,
        |_, s: KeyedSkip| {
            let mut line = serde_json::to_vec(&s.line).map_err(std::io::Error::other)?;
            line.push(b'\n');
            Ok(line)
        },
    )?;
    if options.parquet {
        write_docviews_parquet(out)?;
    }
    let stats = CollectionStats::load(&work.join(STATS_FILE))?;
    stats.save(&out.join(STATS_FILE))?;
    merge_index_sets(&shard_outs, out)?;
    let mut counters = Counters::default();
    for shard in 0..plan.shards {
        let dir = shard_dir(work, shard);
        let c: FinalCounts = crate::output::read_json(&dir.join(FINAL_COUNTS), "shard counts")?;
        counters.pages_read += c.counters.pages_read;
        counters.kept += c.counters.kept;
        counters.kept_empty += c.counters.kept_empty;
        counters.kept_truncated += c.counters.kept_truncated;
        counters.replicas_exact += c.counters.replicas_exact;
        counters.replicas_near += c.counters.replicas_near;
        counters.html_bytes += c.counters.html_bytes;
    }
    for_each_line(&out.join(SKIPPED), |line: SkippedLine| {
        counters.skip(line.reason)
    })?;
    let mut state = RunState::new(settings);
    state.status = Status::Complete;
    state.counters = counters.clone();
    state.next_seq = counters.pages_read;
    state.elapsed_secs = started.elapsed().as_secs_f64();
    let state = state.with_note();
    state.save(&state_path)?;
    let summary = Summary {
        out: out.clone(),
        counters,
        stats_pages: stats.pages,
        aggressive_stopwords: stats.aggressive_stopwords.len(),
        site_templates: SiteTemplateFigures::of(&stats.site_templates),
        indexes: index_stats(out)?,
        elapsed_secs: state.elapsed_secs,
        resumed: false,
        replica_index: None,
        site_models: load_sites(work)?.figures,
    };
    crate::output::write_json_atomically(&out.join(SUMMARY_FILE), &summary)
}

/// Runs every stage of the planned work folder `work`, stage after stage, with up to `workers`
/// tasks at once, each task a call of `run` (a child process, a thread…) that must run
/// [`run_task`] for that stage and task; stops after the first stage with a failed task,
/// giving its error. `progress` hears of each task as it ends.
pub fn run_stages(
    work: &Path,
    workers: usize,
    run: &(dyn Fn(Stage, usize) -> Result<TaskOutcome> + Sync),
    progress: &(dyn Fn(Stage, usize, TaskOutcome, f64) + Sync),
) -> Result<()> {
    // Held from the first stage to the last: no new plan between two stages.
    let _lock = work_lock(work)?;
    let plan = Plan::load(work)?;
    let workers = workers.max(1);
    for stage in Stage::ALL {
        let tasks = plan.tasks(stage);
        let next = std::sync::atomic::AtomicUsize::new(0);
        let failure: std::sync::Mutex<Option<Error>> = std::sync::Mutex::new(None);
        std::thread::scope(|scope| {
            for _ in 0..workers.min(tasks) {
                scope.spawn(|| {
                    loop {
                        let task = next.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                        if task >= tasks {
                            return;
                        }
                        if failure.lock().map(|f| f.is_some()).unwrap_or(true) {
                            return;
                        }
                        let started = Instant::now();
                        match run(stage, task) {
                            Ok(outcome) => {
                                progress(stage, task, outcome, started.elapsed().as_secs_f64())
                            }
                            Err(e) => {
                                if let Ok(mut f) = failure.lock() {
                                    f.get_or_insert(e);
                                }
                                return;
                            }
                        }
                    }
                });
            }
        });
        if let Some(e) = failure.into_inner().ok().flatten() {
            return Err(e);
        }
    }
    Ok(())
}
