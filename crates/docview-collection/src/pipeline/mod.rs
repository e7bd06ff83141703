//! The collection pipeline behind `docview ingest` (004 Figure 1 and §7.3): crawled inputs
//! stream through page-parallel workers (cleaning, integration, fingerprints), then in input
//! order through replica removal into the DocView records and the three indexes.
//!
//! Two passes, and each page is parsed and cleaned once: the first cleans every page into its
//! [`TopicPage`](crate::topic::TopicPage), builds the collection statistics from them
//! (document frequencies, aggressive stop words, shared titles, site templates) and writes them
//! to its [`spill`]; the second reads them back, integrates, fingerprints and ingests them.
//! With a `--stats` file there is no first pass and the second cleans the pages itself. A
//! site-aware cleaner (`--cleaner infodiscoverer`, `wisdom`) adds a pass before them that
//! reads the inputs to learn each web site's model ([`learn_site_models`], bounded in memory,
//! parsing only the sampled pages); pages are then cleaned once, with their site's model. The
//! classifier of the classification code is loaded first of all. No pass
//! holds the collection: a reader thread hands out batches of pages, the workers process one
//! batch while the next is read and the calling thread writes out the one before
//! (`pipeline_batches`). Output order is the input order whatever the thread count. Commits
//! every `commit_every` pages make the outputs durable together (see [`state`]); a run stopped
//! at any point resumes from its last commit.

pub mod earlier;
mod process;
mod sink;
mod sites;
pub mod spill;
pub mod stages;
pub mod state;
mod summary;

use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, sync_channel};
use std::time::Instant;

use rayon::prelude::*;
use serde::Serialize;

use crate::clean::{Cleaner, CleanerKind, cleaner_with_model};
use crate::extract::PageLimits;
use crate::index::{IndexStats, index_stats};
use crate::input::{Inputs, RawPage};
use crate::integrate::IntegrateParams;
use crate::lock::FolderLock;
use crate::replica::{Detection, KeywordParams, MinHashParams, MinHasher};
use crate::stats::{CollectionStats, StatsBuilder, StopwordParams};
use crate::text::Analyzer;
use crate::{Error, Result};

pub use process::{
    PageFeatures, Processed, Unreadable, Worker, clean_page, host_of, integrate_page,
    page_features, process_page, site_of,
};
pub use sink::{
    DOCVIEWS, DOCVIEWS_PARQUET, REPLICAS, RecordLine, ReplicaLine, SKIPPED, SkippedLine,
    fill_replica_urls, for_each_line, write_docviews_parquet,
};
pub use state::{Counters, RunState, Status};
pub use summary::human_bytes;

use sink::Sink;
pub use sites::{
    SITE_SAMPLE_BUDGET, SITE_SAMPLE_PAGES, SiteLearners, SiteModelFigures, SiteModels, SiteSampler,
    learn_site_models, sample_tree,
};
use spill::{CleanedPage, Event, PageWork, SPILL_FILE, SpillWriter, read_spill};

/// Name of the run state file in the output directory.
pub const STATE_FILE: &str = "state.json";
/// Name of the collection statistics file in the output directory.
pub const STATS_FILE: &str = "stats.json";
/// Name of the summary file in the output directory.
pub const SUMMARY_FILE: &str = "summary.json";

/// The counted reason of a malformed input record.
pub const MALFORMED: &str = "malformed record";
/// Malformed records told on standard error, each with its offset; the rest are only counted
/// (all are in `skipped.jsonl`).
const MALFORMED_NOTES: u64 = 20;

/// Pages per batch handed to the workers.
const BATCH_PAGES: usize = 64;
/// Most HTML bytes per batch.
const BATCH_BYTES: usize = 32 << 20;

/// Which classifier fills the DocViews' classification codes.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
pub enum ClassifierChoice {
    /// The model inside the binary: wcxb-dev's page types.
    #[default]
    Embedded,
    /// A model file from `docview classify train`.
    File(PathBuf),
    /// None: the codes stay empty.
    Off,
}

impl ClassifierChoice {
    /// The classifier and the name its records give it; `None` for [`ClassifierChoice::Off`].
    pub fn load(
        &self,
    ) -> Result<Option<(std::sync::Arc<docview_classify::PageClassifier>, String)>> {
        let (model, path) = match self {
            ClassifierChoice::Off => return Ok(None),
            ClassifierChoice::Embedded => (docview_classify::PageClassifier::embedded()?, None),
            ClassifierChoice::File(p) => (
                std::sync::Arc::new(docview_classify::PageClassifier::load(p)?),
                Some(p.as_path()),
            ),
        };
        let digest = docview_classify::model_digest(path)?;
        let name = crate::integrate::classifier_name(&model, &digest);
        Ok(Some((model, name)))
    }

    /// The digest of the model's bytes, for a resumed run's settings.
    fn digest(&self) -> Result<Option<String>> {
        Ok(match self {
            ClassifierChoice::Off => None,
            ClassifierChoice::Embedded => Some(docview_classify::model_digest(None)?),
            ClassifierChoice::File(p) => Some(docview_classify::model_digest(Some(p))?),
        })
    }
}

/// Everything `docview ingest` is asked to do (saved in a sharded run's plan).
#[derive(Debug, Clone, Serialize, serde::Deserialize)]
pub struct IngestOptions {
    /// WARC files, folders of pages, JSONL files, `-`.
    pub inputs: Vec<PathBuf>,
    /// The output directory.
    pub out: PathBuf,
    /// The cleaner.
    pub cleaner: CleanerKind,
    /// The learned cleaner's model file (`None`: the model inside the binary).
    pub model: Option<PathBuf>,
    /// The classifier that fills each DocView's classification code.
    pub classifier: ClassifierChoice,
    /// Clean every page alone: no site models, even for a site-aware cleaner.
    pub pages_alone: bool,
    /// Worker threads (0: one per core).
    pub threads: usize,
    /// λ, δ, θ, β.
    pub integrate: IntegrateParams,
    /// Percentage and Interval of the keyword fingerprint.
    pub keyword: KeywordParams,
    /// Which fingerprints find replicas.
    pub detection: Detection,
    /// Shingles, permutations, bands, threshold and seed of MinHash detection.
    pub minhash: MinHashParams,
    /// How the aggressive stop-word list is chosen.
    pub stopwords: StopwordParams,
    /// Collection statistics to use instead of a first pass.
    pub stats_file: Option<PathBuf>,
    /// Pages between commits.
    pub commit_every: u64,
    /// Continue an interrupted run in `out`.
    pub resume: bool,
    /// Replace an earlier ingest's output in `out` (never a folder that is not one).
    pub overwrite: bool,
    /// Memory budget of each index writer, in bytes.
    pub index_heap_bytes: usize,
    /// What one page may cost: pages past a limit are cut there (their records say so).
    pub limits: PageLimits,
    /// Also write the records as `docviews.parquet` when the run completes.
    #[serde(default)]
    pub parquet: bool,
    /// Render each record's topic content as Markdown too (`topic_markdown`).
    #[serde(default)]
    pub markdown: bool,
    /// Finished runs whose kept pages this run's pages are checked against first (an
    /// incremental crawl: see [`earlier`]).
    #[serde(default)]
    pub earlier: Vec<PathBuf>,
}

impl IngestOptions {
    /// Options with the defaults for `inputs` into `out`.
    pub fn new(inputs: Vec<PathBuf>, out: PathBuf) -> Self {
        IngestOptions {
            inputs,
            out,
            cleaner: CleanerKind::default(),
            model: None,
            classifier: ClassifierChoice::default(),
            pages_alone: false,
            threads: 0,
            integrate: IntegrateParams::default(),
            keyword: KeywordParams::default(),
            detection: Detection::default(),
            minhash: MinHashParams::default(),
            stopwords: StopwordParams::default(),
            stats_file: None,
            commit_every: 1000,
            resume: false,
            overwrite: false,
            index_heap_bytes: 64 << 20,
            limits: PageLimits::default(),
            parquet: false,
            markdown: false,
            earlier: Vec::new(),
        }
    }

    /// Checks that every setting is in its range; the error names the setting (as the
    /// command line does, without the dashes) and what is wrong.
    pub fn validate(&self) -> Result<()> {
        if self.out.as_os_str() == "-" {
            return Err(Error::setting(
                "out",
                "`-` is not a folder: ingest writes a folder (the records, the replicas, the \
                 statistics and three indexes), not a stream; name a folder, or use `docview \
                 extract --format json` to stream each page's cleaning to standard output",
            ));
        }
        let share = |name: &'static str, v: f32, zero: bool| {
            if (zero && (0.0..=1.0).contains(&v)) || (v > 0.0 && v <= 1.0) {
                Ok(())
            } else {
                let range = if zero { "[0, 1]" } else { "(0, 1]" };
                Err(Error::setting(name, format!("{v} is not in {range}")))
            }
        };
        share("beta", self.integrate.beta, true)?;
        share("percentage", self.keyword.percentage, false)?;
        share("stopword-df", self.stopwords.min_df_share, false)?;
        if self.keyword.interval == 0 {
            return Err(Error::setting("interval", "must be at least 1"));
        }
        if self.commit_every == 0 {
            return Err(Error::setting("commit-every", "must be at least 1 page"));
        }
        self.limits.validate()?;
        if self.detection == Detection::MinHash {
            self.minhash.validate()?;
        }
        Ok(())
    }

    /// What a resumed run must find unchanged: the docview version, the inputs (and their
    /// size, so that a file that grew or shrank is noticed), the block model's bytes and every
    /// setting that shapes the outputs, the fixed ones (framework, site templates) included.
    fn settings(&self, input_bytes: Option<u64>) -> Result<serde_json::Value> {
        let model = if self.cleaner.uses_block_model() {
            Some(crate::clean::model_digest(self.model.as_deref())?)
        } else {
            None
        };
        Ok(serde_json::json!({
            "docview_version": env!("CARGO_PKG_VERSION"),
            "model_digest": model,
            "classifier_digest": self.classifier.digest()?,
            "framework": crate::clean::FrameworkParams::default(),
            "templates": crate::stats::template::TemplateParams::default(),
            // Canonical paths: the same folder named another way is the same input.
            "inputs": self.inputs.iter().map(|p| setting_path(p)).collect::<Vec<_>>(),
            "input_bytes": input_bytes,
            "cleaner": self.cleaner,
            "pages_alone": self.pages_alone,
            "model": self.model.as_deref().map(setting_path),
            "integrate": self.integrate,
            "keyword": self.keyword,
            "detection": self.detection,
            "minhash": self.minhash,
            "stopwords": self.stopwords,
            "stats_file": self.stats_file.as_ref().map(|p| p.display().to_string()),
            "limits": self.limits,
            "markdown": self.markdown,
            "earlier": self.earlier.iter().map(|p| setting_path(p)).collect::<Vec<_>>(),
            // Not `parquet`: it adds a file at the end and changes no record, so a resumed
            // run may ask for it or not.
        }))
    }
}

/// A path as the settings record it: canonical (the same file named another way is the same
/// setting), or as given when it cannot be resolved; `-` (standard input) stays `-`.
fn setting_path(p: &Path) -> String {
    if p.as_os_str() == "-" {
        return "-".to_string();
    }
    std::fs::canonicalize(p)
        .unwrap_or_else(|_| p.to_path_buf())
        .display()
        .to_string()
}

/// The phases a progress display shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// The first pass: collection statistics.
    Statistics,
    /// The second pass: cleaning, replicas, records, indexes.
    Ingest,
}

/// Where the pipeline reports progress (a progress bar in the binary).
pub trait Progress: Sync {
    /// A phase starts; `total_bytes` is the input size when known.
    fn start(&self, _phase: Phase, _total_bytes: Option<u64>) {}
    /// After each batch: the counts so far and the input bytes consumed.
    fn update(&self, _counters: &Counters, _input_bytes: u64) {}
    /// A remark for the user (resuming, loading statistics).
    fn note(&self, _message: &str) {}
    /// The phase ended.
    fn finish(&self) {}
}

/// A [`Progress`] that shows nothing.
pub struct Silent;

impl Progress for Silent {}

/// What an ingest did.
#[derive(Debug, Clone, Serialize)]
pub struct Summary {
    /// The output directory.
    pub out: PathBuf,
    /// Counts of pages.
    pub counters: Counters,
    /// Pages the collection statistics were built from.
    pub stats_pages: u64,
    /// Size of the aggressive stop-word list.
    pub aggressive_stopwords: usize,
    /// The site templates the replica texts were made with.
    pub site_templates: SiteTemplateFigures,
    /// Each index's documents, terms and bytes.
    pub indexes: Vec<IndexStats>,
    /// Seconds over all sessions of the run.
    pub elapsed_secs: f64,
    /// True when this session continued an interrupted run.
    pub resumed: bool,
    /// Memory of the replica detector's MinHash index at the end of the run (MinHash
    /// detection, when this session ingested pages).
    pub replica_index: Option<ReplicaIndexMemory>,
    /// What the site models of a site-aware cleaner covered (none for other cleaners).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub site_models: Option<SiteModelFigures>,
}

/// What the statistics learnt of site templates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct SiteTemplateFigures {
    /// Web sites with a template.
    pub sites: usize,
    /// Template lines over all of them.
    pub lines: usize,
    /// Bytes the templates take.
    pub bytes: usize,
    /// Pages learnt from.
    pub learnt_pages: u64,
    /// Pages not learnt from (the line budget was spent).
    pub unlearnt_pages: u64,
}

impl SiteTemplateFigures {
    fn of(t: &crate::stats::template::SiteTemplates) -> Self {
        SiteTemplateFigures {
            sites: t.sites(),
            lines: t.lines.len(),
            bytes: t.memory_bytes(),
            learnt_pages: t.learnt_pages,
            unlearnt_pages: t.unlearnt_pages,
        }
    }
}

/// What the MinHash LSH index held at the end of an ingest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct ReplicaIndexMemory {
    /// Kept pages with a signature.
    pub pages: usize,
    /// Bytes of the index.
    pub bytes: usize,
}

impl Summary {
    /// Index `kind`'s stats.
    pub fn index(&self, kind: crate::index::IndexKind) -> Option<&IndexStats> {
        self.indexes.iter().find(|s| s.kind == kind)
    }
}

/// A batch of events and how far into the inputs it reaches.
struct Batch<P> {
    events: Vec<Event<P>>,
    input_bytes: u64,
}

/// Reads events on this thread and sends them in batches.
fn send_batches<P>(
    events: impl Iterator<Item = Result<(Event<P>, u64)>>,
    bytes_of: impl Fn(&P) -> usize,
    tx: std::sync::mpsc::SyncSender<Result<Batch<P>>>,
) {
    let mut batch = Vec::with_capacity(BATCH_PAGES);
    let mut bytes = 0usize;
    let mut reached = 0u64;
    for item in events {
        let (event, input_bytes) = match item {
            Ok(e) => e,
            Err(e) => {
                let _ = tx.send(Err(e));
                return;
            }
        };
        reached = input_bytes;
        if let Event::Page(p) = &event {
            bytes += bytes_of(p);
        }
        batch.push(event);
        if batch.len() >= BATCH_PAGES || bytes >= BATCH_BYTES {
            let full = Batch {
                events: std::mem::replace(&mut batch, Vec::with_capacity(BATCH_PAGES)),
                input_bytes: reached,
            };
            bytes = 0;
            if tx.send(Ok(full)).is_err() {
                return;
            }
        }
    }
    if !batch.is_empty() {
        let _ = tx.send(Ok(Batch {
            events: batch,
            input_bytes: reached,
        }));
    }
}

/// The events of `inputs` after the first `skip`, each with the input bytes read so far.
fn input_events(
    mut inputs: Inputs,
    skip: u64,
) -> impl Iterator<Item = Result<(Event<RawPage>, u64)>> {
    let mut skipped = 0;
    while skipped < skip {
        if inputs.next().is_none() {
            break;
        }
        skipped += 1;
    }
    let consumed = inputs.progress();
    inputs.map(move |e| Ok((Event::of(e, |p| p), consumed.bytes_read())))
}

/// Runs `each` over the batches of `events` while a scoped thread reads them.
fn stream_batches<P: Send, I>(
    events: impl FnOnce() -> I + Send,
    bytes_of: impl Fn(&P) -> usize + Send,
    mut each: impl FnMut(Batch<P>) -> Result<()>,
) -> Result<()>
where
    I: Iterator<Item = Result<(Event<P>, u64)>>,
{
    std::thread::scope(|scope| {
        let (tx, rx): (_, Receiver<Result<Batch<P>>>) = sync_channel(2);
        scope.spawn(move || send_batches(events(), bytes_of, tx));
        for batch in rx {
            each(batch?)?;
        }
        Ok(())
    })
}

/// Runs each batch of `events` through three steps: `prepare` on this thread, `work` in `pool`
/// (where it may go parallel), and `finish` back on this thread, one batch behind: the `finish`
/// of a batch (its sequential writing and counting) runs while the pool works on the next one,
/// so the workers do not stand idle through it. Batches reach `finish` in input order; at most
/// one batch's results wait for it.
fn pipeline_batches<P: Send, I, B: Send, W: Send>(
    events: impl FnOnce() -> I + Send,
    bytes_of: impl Fn(&P) -> usize + Send,
    pool: &rayon::ThreadPool,
    mut prepare: impl FnMut(Batch<P>) -> B,
    work: impl Fn(B) -> W + Sync,
    mut finish: impl FnMut(W) -> Result<()>,
) -> Result<()>
where
    I: Iterator<Item = Result<(Event<P>, u64)>>,
{
    let mut pending: Option<W> = None;
    stream_batches(events, bytes_of, |batch| {
        let prepared = prepare(batch);
        let mut done = None;
        let finished = pool.in_place_scope(|scope| {
            let (slot, work) = (&mut done, &work);
            scope.spawn(move |_| *slot = Some(work(prepared)));
            pending.take().map_or(Ok(()), &mut finish)
        });
        finished?;
        pending = done;
        Ok(())
    })?;
    pending.map_or(Ok(()), finish)
}

/// The cleaner of a run and, for a site-aware cleaner, its site models.
#[derive(Clone, Copy)]
pub struct Cleaning<'a> {
    /// The cleaner.
    pub cleaner: &'a dyn Cleaner,
    /// Its site models (empty for a cleaner that judges pages alone).
    pub sites: &'a SiteModels,
    /// The classifier of the classification code, for the second pass (the first does not
    /// integrate).
    pub classifier: Option<crate::integrate::ClassifierRef<'a>>,
    /// Render each page's topic content as Markdown too (`ingest --markdown`), in the pass
    /// that cleans it.
    pub markdown: bool,
}

/// The first pass: cleans every page of the inputs, builds the collection statistics, and
/// writes the cleaned pages to `spill` for the second pass.
pub fn build_stats(
    inputs: Inputs,
    cleaning: Cleaning<'_>,
    limits: PageLimits,
    params: StopwordParams,
    pool: &rayon::ThreadPool,
    progress: &dyn Progress,
    mut spill: Option<&mut SpillWriter>,
) -> Result<CollectionStats> {
    let analyzer = Analyzer::new();
    let mut builder = StatsBuilder::new();
    let mut counters = Counters::default();
    pipeline_batches(
        move || input_events(inputs, 0),
        |p: &RawPage| p.bytes.len(),
        pool,
        |batch| batch,
        |batch: Batch<RawPage>| {
            let cleaned: Vec<(std::result::Result<_, Unreadable>, Option<PageFeatures>)> = batch
                .events
                .par_iter()
                .filter_map(|e| match e {
                    Event::Page(p) => Some(p),
                    _ => None,
                })
                .map(|p| {
                    let topic = clean_page(
                        p,
                        cleaning.cleaner,
                        cleaning.sites.model_of(&p.url),
                        &limits,
                        cleaning.markdown,
                    );
                    let features = topic
                        .as_ref()
                        .ok()
                        .map(|t| page_features(&p.url, t, &analyzer));
                    (topic, features)
                })
                .collect();
            (batch, cleaned)
        },
        |(batch, cleaned)| {
            for event in &batch.events {
                match event {
                    Event::Page(p) => {
                        counters.pages_read += 1;
                        counters.html_bytes += p.bytes.len() as u64;
                    }
                    Event::Skipped { label, .. } => counters.skip(label.clone()),
                    Event::Malformed { .. } => counters.skip(MALFORMED),
                }
            }
            let mut cleaned = cleaned.into_iter();
            for event in batch.events {
                let event = event.map(|raw| {
                    let (topic, features) = cleaned.next().unwrap_or_else(|| {
                        (
                            Err(Unreadable {
                                origin: raw.origin.clone(),
                                reason: "unreadable page".into(),
                            }),
                            None,
                        )
                    });
                    if let Some(page) = features {
                        builder.add_page(page.site.as_deref(), &page.title, page.terms);
                        if let Some((host, text, key)) = page.host_text {
                            builder.add_site_page(&host, &text, key);
                        }
                    }
                    CleanedPage {
                        url: raw.url,
                        origin: raw.origin,
                        html_bytes: raw.bytes.len() as u64,
                        topic,
                    }
                });
                if let Some(spill) = spill.as_deref_mut() {
                    spill.write(event, batch.input_bytes)?;
                }
            }
            progress.update(&counters, batch.input_bytes);
            Ok(())
        },
    )?;
    Ok(builder.finish(params))
}

/// Runs an ingest (or continues one with `options.resume`).
pub fn ingest(options: &IngestOptions, progress: &dyn Progress) -> Result<Summary> {
    options.validate()?;
    let started = Instant::now();
    let out = &options.out;
    let state_path = out.join(STATE_FILE);
    let cleaner = cleaner_with_model(options.cleaner, options.model.as_deref())?;
    // Loaded before anything is read: a bad model file is told at once.
    let classifier = options.classifier.load()?;
    let pool = crate::error::thread_pool(options.threads)?;
    let from_stdin = options.inputs.iter().any(|i| i.as_os_str() == "-");
    let site_aware = cleaner.site_learner().is_some() && !options.pages_alone;
    if site_aware && cleaner.needs_site_models() && from_stdin {
        return Err(Error::bad_input(
            "-",
            format!(
                "--cleaner {} learns a model of each site before cleaning, which reads the \
                 inputs twice; standard input can be read once: save it to a file first",
                cleaner.name()
            ),
        ));
    }
    // Every input is checked before anything is written: a bad path leaves no output behind.
    // The checked inputs serve the first pass, if there is one.
    let inputs = Inputs::open(&options.inputs)?;
    let input_bytes = inputs.total_bytes();
    let settings = options.settings(input_bytes)?;
    earlier::EarlierRuns::check(options)?;
    if options.resume && !state_path.exists() {
        // Nothing to resume, and nothing created to say so.
        return Err(nothing_to_resume(out));
    }
    // One run at a time in `out`, from before anything in it is touched to the end of the run.
    let _lock = FolderLock::exclusive_for_run(out, STATE_FILE)?;
    let mut state = if options.resume {
        let state = resume_state(out, &state_path, &settings)?;
        // What the killed run was writing when it stopped: no commit names it.
        remove_half_written(out)?;
        progress.note(&format!(
            "resuming {}: {} pages committed ({} kept), continuing after input event {}",
            out.display(),
            state.counters.pages_read,
            state.counters.kept,
            state.events_done
        ));
        state
    } else {
        prepare_out_dir(out, options.overwrite)?;
        // The state goes first, so a run stopped during the first pass can be resumed too.
        let state = RunState::new(settings);
        state.save(&state_path)?;
        state
    };
    let stats_path = out.join(STATS_FILE);
    // A site-aware cleaner needs its site models wherever pages are cleaned: in the first
    // pass, or in the second when there is no spill of cleaned pages to read.
    let cleans_pages = !stats_path.exists() || !out.join(SPILL_FILE).exists();
    if site_aware && from_stdin && cleans_pages {
        progress.note(&format!(
            "standard input can be read only once: --cleaner {} cleans each page without its \
             site's model",
            cleaner.name()
        ));
    }
    let sites = if site_aware && !from_stdin && state.status == Status::Running && cleans_pages {
        progress.note(&format!(
            "learning the site models of --cleaner {} (each host's first {SITE_SAMPLE_PAGES} \
             pages, {SITE_SAMPLE_BUDGET} pages in all)",
            cleaner.name()
        ));
        learn_site_models(
            Inputs::open(&options.inputs)?,
            cleaner.as_ref(),
            options.limits,
            &pool,
        )?
    } else {
        SiteModels::default()
    };
    let stats = if stats_path.exists() {
        CollectionStats::load(&stats_path)?
    } else if state.commits > 0 {
        return Err(Error::bad_input(
            out.display().to_string(),
            "stats.json is missing but pages were committed with it; start the ingest again \
             with --overwrite",
        ));
    } else {
        let stats = match &options.stats_file {
            Some(path) => {
                progress.note(&format!("collection statistics from {}", path.display()));
                CollectionStats::load(path)?
            }
            None => {
                progress.start(Phase::Statistics, input_bytes);
                let mut spill = SpillWriter::create(out)?;
                let stats = build_stats(
                    inputs,
                    Cleaning {
                        cleaner: cleaner.as_ref(),
                        sites: &sites,
                        classifier: None,
                        markdown: options.markdown,
                    },
                    options.limits,
                    options.stopwords,
                    &pool,
                    progress,
                    Some(&mut spill),
                )?;
                // Complete on disk before stats.json says the first pass is over.
                spill.finish()?;
                progress.finish();
                stats
            }
        };
        stats.save(&stats_path)?;
        // The first pass counts towards the run's time.
        state.elapsed_secs += started.elapsed().as_secs_f64();
        state.save(&state_path)?;
        stats
    };
    let resumed = options.resume;
    let mut replica_index = None;
    if state.status == Status::Running {
        replica_index = run_ingest(
            options,
            input_bytes,
            Cleaning {
                cleaner: cleaner.as_ref(),
                sites: &sites,
                classifier: classifier
                    .as_ref()
                    .map(|(model, name)| crate::integrate::ClassifierRef { model, name }),
                markdown: options.markdown,
            },
            &stats,
            &pool,
            &mut state,
            progress,
        )?;
    }
    if state.status != Status::Complete {
        state.status = Status::Finishing;
        state = state.with_note();
        state.save(&state_path)?;
        fill_replica_urls(out)?;
        if options.parquet {
            write_docviews_parquet(out)?;
        }
        state.status = Status::Complete;
        state = state.with_note();
        state.save(&state_path)?;
    }
    remove_spill(out)?;
    let summary = Summary {
        out: out.clone(),
        counters: state.counters.clone(),
        stats_pages: stats.pages,
        aggressive_stopwords: stats.aggressive_stopwords.len(),
        site_templates: SiteTemplateFigures::of(&stats.site_templates),
        indexes: index_stats(out)?,
        elapsed_secs: state.elapsed_secs,
        resumed,
        replica_index,
        site_models: sites.figures,
    };
    crate::output::write_json_atomically(&out.join(SUMMARY_FILE), &summary)?;
    Ok(summary)
}

/// A batch of the second pass, its pages numbered: what the workers of [`run_ingest`] take.
struct NumberedBatch {
    /// Per event in input order: `None` for a page, else the line of a record passed over.
    order: Vec<Option<SkippedLine>>,
    /// The pages and their sequence numbers.
    pages: Vec<(u64, PageWork)>,
    /// Events in the batch.
    events: u64,
    /// How far into the inputs the batch reaches.
    input_bytes: u64,
}

/// A batch of the second pass, its pages processed: what [`run_ingest`] hands to the sink.
struct ProcessedBatch {
    /// As [`NumberedBatch::order`].
    order: Vec<Option<SkippedLine>>,
    /// Each page's outcome, in order.
    results: Vec<std::result::Result<Processed, Unreadable>>,
    /// Pages in the batch.
    pages: u64,
    /// Events in the batch.
    events: u64,
    /// How far into the inputs the batch reaches.
    input_bytes: u64,
}

/// The second pass, from the state's last commit to the end of the inputs.
fn run_ingest(
    options: &IngestOptions,
    input_bytes: Option<u64>,
    cleaning: Cleaning<'_>,
    stats: &CollectionStats,
    pool: &rayon::ThreadPool,
    state: &mut RunState,
    progress: &dyn Progress,
) -> Result<Option<ReplicaIndexMemory>> {
    let out = &options.out;
    let state_path = out.join(STATE_FILE);
    let session = Instant::now();
    let base_secs = state.elapsed_secs;
    let minhasher = match options.detection {
        Detection::MinHash => Some(MinHasher::new(options.minhash)?),
        Detection::Exact | Detection::Keyword => None,
    };
    if !options.earlier.is_empty() {
        progress.note(&format!(
            "reading the kept pages of {} earlier run(s)",
            options.earlier.len()
        ));
    }
    let mut sink = Sink::open(out, state, options)?;
    let worker = Worker {
        classifier: cleaning.classifier,
        cleaner: cleaning.cleaner,
        sites: cleaning.sites,
        analyzer: Analyzer::new().with_aggressive_stopwords(stats.aggressive_stopwords.clone()),
        stats,
        integrate: options.integrate,
        keyword: options.keyword,
        minhash: minhasher.as_ref(),
        limits: options.limits,
        markdown: options.markdown,
    };
    let mut counters = state.counters.clone();
    let mut next_seq = state.next_seq;
    let mut events_done = state.events_done;
    let mut since_commit = 0u64;
    progress.start(Phase::Ingest, input_bytes);
    let skip = state.events_done;
    let mut next_seq_done = state.next_seq;
    let mut malformed = counters.skipped.get(MALFORMED).copied().unwrap_or(0);
    // Numbers the pages of a batch, in input order; notes its first malformed records.
    let prepare = |batch: Batch<PageWork>| -> NumberedBatch {
        let events = batch.events.len() as u64;
        // Each event's outcome goes out in input order: a skipped record's line between the
        // pages around it, whatever the batch size.
        let mut order: Vec<Option<SkippedLine>> = Vec::with_capacity(batch.events.len());
        let mut pages: Vec<(u64, PageWork)> = Vec::new();
        for event in batch.events {
            if let Event::Malformed { origin, message } = &event {
                if malformed < MALFORMED_NOTES {
                    progress.note(&format!("{origin}: {message} (skipped)"));
                }
                malformed += 1;
            }
            match event.into_page() {
                Ok(page) => {
                    pages.push((next_seq, page));
                    next_seq += 1;
                    order.push(None);
                }
                Err(line) => order.push(Some(line)),
            }
        }
        NumberedBatch {
            order,
            pages,
            events,
            input_bytes: batch.input_bytes,
        }
    };
    // Cleans (unless the first pass did) and integrates the pages of a batch, in parallel.
    let work = |batch: NumberedBatch| -> ProcessedBatch {
        let pages = batch.pages.len() as u64;
        let results = batch
            .pages
            .into_par_iter()
            .map(|(seq, page)| match page {
                PageWork::Raw(raw) => process_page(raw, seq, &worker),
                PageWork::Cleaned(c) => {
                    let c = *c;
                    c.topic.map(|topic| {
                        integrate_page(seq, c.origin, &c.url, c.html_bytes, topic, &worker)
                    })
                }
            })
            .collect();
        ProcessedBatch {
            order: batch.order,
            results,
            pages,
            events: batch.events,
            input_bytes: batch.input_bytes,
        }
    };
    // Hands a batch's outcomes to the sink in input order, and commits every so often.
    let finish = |batch: ProcessedBatch| -> Result<()> {
        counters.pages_read += batch.pages;
        since_commit += batch.pages;
        next_seq_done += batch.pages;
        let mut results = batch.results.into_iter();
        for skipped in batch.order {
            let result = match skipped {
                Some(line) => {
                    sink.skip(&line, &mut counters)?;
                    continue;
                }
                None => results.next(),
            };
            match result {
                Some(Ok(page)) => sink.accept(page, &mut counters)?,
                Some(Err(u)) => sink.skip(
                    &SkippedLine {
                        origin: u.origin,
                        reason: u.reason,
                        detail: String::new(),
                    },
                    &mut counters,
                )?,
                None => {}
            }
        }
        events_done += batch.events;
        if since_commit >= options.commit_every {
            since_commit = 0;
            state.events_done = events_done;
            state.next_seq = next_seq_done;
            state.counters = counters.clone();
            state.elapsed_secs = base_secs + session.elapsed().as_secs_f64();
            sink.commit(state, &state_path)?;
        }
        progress.update(&counters, batch.input_bytes);
        Ok(())
    };
    if out.join(SPILL_FILE).exists() {
        // The pages the first pass cleaned.
        let events = read_spill(out, skip)?;
        pipeline_batches(
            move || {
                events.map(|item| {
                    item.map(|(event, bytes)| {
                        (event.map(|c| PageWork::Cleaned(Box::new(c))), bytes)
                    })
                })
            },
            PageWork::bytes,
            pool,
            prepare,
            work,
            finish,
        )?;
    } else {
        let inputs = Inputs::open(&options.inputs)?;
        pipeline_batches(
            move || {
                input_events(inputs, skip).map(|item| item.map(|(e, b)| (e.map(PageWork::Raw), b)))
            },
            PageWork::bytes,
            pool,
            prepare,
            work,
            finish,
        )?;
    }
    state.events_done = events_done;
    state.next_seq = next_seq_done;
    state.counters = counters;
    state.elapsed_secs = base_secs + session.elapsed().as_secs_f64();
    sink.commit(state, &state_path)?;
    let memory = sink.replica_index_memory();
    sink.finish()?;
    progress.finish();
    Ok(memory)
}

/// Removes the first pass's spill of `out`, if any.
fn remove_spill(out: &Path) -> Result<()> {
    let path = out.join(SPILL_FILE);
    match std::fs::remove_file(&path) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(Error::io(&path, e)),
    }
}

/// The state of the run to resume in `out`, checked against this run's settings.
fn resume_state(out: &Path, state_path: &Path, settings: &serde_json::Value) -> Result<RunState> {
    if !state_path.exists() {
        return Err(nothing_to_resume(out));
    }
    let state = RunState::load(state_path)?;
    if &state.settings != settings {
        return Err(Error::bad_input(
            out.display().to_string(),
            format!(
                "--resume needs the same inputs and settings as the interrupted run: {}",
                settings_diff(&state.settings, settings).join("; ")
            ),
        ));
    }
    Ok(state)
}

/// The refusal of `--resume` on a folder without a run state.
fn nothing_to_resume(out: &Path) -> Error {
    Error::bad_input(
        out.display().to_string(),
        "nothing to resume: no state.json (not a docview ingest output, or stopped before its \
         first checkpoint); run the ingest again without --resume",
    )
}

/// Removes the files a killed run left half-written in `out`: docview's own temporary files
/// (`output::TEMP_PREFIX`, anywhere in the folder) and Tantivy's (`.tmp…`, in the index
/// folders), which no commit names and which would otherwise stay, counted in the index sizes.
/// Called only under the folder's lock, when no run can be writing them.
fn remove_half_written(out: &Path) -> Result<()> {
    let mut dirs = vec![out.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        let in_index = dir.starts_with(out.join(crate::index::INDEX_DIR));
        let entries = std::fs::read_dir(&dir).map_err(|e| Error::io(&dir, e))?;
        for entry in entries {
            let entry = entry.map_err(|e| Error::io(&dir, e))?;
            let path = entry.path();
            let kind = entry.file_type().map_err(|e| Error::io(&path, e))?;
            if kind.is_dir() {
                dirs.push(path);
                continue;
            }
            let name = entry.file_name();
            let name = name.to_string_lossy();
            let ours = crate::output::is_temp_file_name(&name);
            let tantivys = in_index && name.starts_with(".tmp");
            if ours || tantivys {
                std::fs::remove_file(&path).map_err(|e| Error::io(&path, e))?;
            }
        }
    }
    Ok(())
}

/// What differs between the settings of the interrupted run and this one, one entry per
/// setting (nested ones by their path): `integrate.keywords: was 15, now 10`.
fn settings_diff(was: &serde_json::Value, now: &serde_json::Value) -> Vec<String> {
    fn walk(path: &str, was: &serde_json::Value, now: &serde_json::Value, out: &mut Vec<String>) {
        use serde_json::Value;
        if let (Value::Object(a), Value::Object(b)) = (was, now) {
            let keys: std::collections::BTreeSet<&String> = a.keys().chain(b.keys()).collect();
            for k in keys {
                let name = if path.is_empty() {
                    k.clone()
                } else {
                    format!("{path}.{k}")
                };
                let (x, y) = (
                    a.get(k).unwrap_or(&Value::Null),
                    b.get(k).unwrap_or(&Value::Null),
                );
                walk(&name, x, y, out);
            }
        } else if was != now {
            out.push(format!("{path}: was {was}, now {now}"));
        }
    }
    let mut out = Vec::new();
    walk("", was, now, &mut out);
    out
}

/// Checks that `out` is empty: an ingest never mixes with other files. With `overwrite`, an
/// earlier ingest's output (a folder holding `state.json`) is cleared first; any other folder
/// is left alone.
///
/// The caller holds `out`'s lock ([`FolderLock::exclusive_for_run`], which creates the folder),
/// so the lock file stays and no other run can be writing here.
fn prepare_out_dir(out: &Path, overwrite: bool) -> Result<()> {
    if crate::lock::is_empty(out)? {
        return Ok(());
    }
    let earlier_ingest = out.join(STATE_FILE).exists();
    if overwrite && earlier_ingest {
        return crate::lock::clear(out);
    }
    let hint = if earlier_ingest {
        "it holds a docview ingest; add --resume to continue an interrupted one, --overwrite to \
         replace it, or choose a new directory"
    } else {
        "it is not empty and not a docview ingest; choose a new or empty directory"
    };
    Err(Error::bad_input(out.display().to_string(), hint))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Events of `n` pages (each page its number), one input byte each.
    fn numbers(n: u64) -> impl Iterator<Item = Result<(Event<u64>, u64)>> {
        (0..n).map(|i| Ok((Event::Page(i), i + 1)))
    }

    #[test]
    fn pipelined_batches_finish_in_input_order_one_behind() {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .expect("pool");
        let (mut prepared, mut finished) = (Vec::new(), Vec::new());
        // Each batch's work squares its pages; finish sees them in order, once each.
        pipeline_batches(
            || numbers(1000),
            |_| 1,
            &pool,
            |batch: Batch<u64>| {
                prepared.push(batch.events.len());
                batch
            },
            |batch: Batch<u64>| -> Vec<u64> {
                batch
                    .events
                    .par_iter()
                    .map(|e| match e {
                        Event::Page(i) => i * i,
                        _ => u64::MAX,
                    })
                    .collect()
            },
            |squares| {
                finished.extend(squares);
                Ok(())
            },
        )
        .expect("no error");
        assert_eq!(finished, (0..1000u64).map(|i| i * i).collect::<Vec<_>>());
        assert_eq!(prepared.iter().sum::<usize>(), 1000);
        assert!(prepared.len() > 1, "more than one batch: {prepared:?}");
        // An error from finish stops the run and is returned.
        let mut calls = 0;
        let err = pipeline_batches(
            || numbers(1000),
            |_| 1,
            &pool,
            |batch: Batch<u64>| batch,
            |batch: Batch<u64>| batch.events.len(),
            |_| {
                calls += 1;
                Err(Error::bad_input("x", "stop"))
            },
        );
        assert!(err.is_err());
        assert_eq!(calls, 1);
    }

    #[test]
    fn every_setting_is_checked_in_the_library() {
        let ok = IngestOptions::new(vec!["a".into()], "out".into());
        ok.validate().unwrap();
        let named = |change: &dyn Fn(&mut IngestOptions)| {
            let mut o = ok.clone();
            change(&mut o);
            match o.validate() {
                Err(Error::Page(crate::extract::Error::Setting { name, .. })) => name.to_string(),
                Err(other) => other.to_string(),
                Ok(()) => "accepted".to_string(),
            }
        };
        assert_eq!(named(&|o| o.integrate.beta = 1.5), "beta");
        assert_eq!(named(&|o| o.integrate.beta = 0.0), "accepted");
        assert_eq!(named(&|o| o.keyword.percentage = 0.0), "percentage");
        assert_eq!(
            named(&|o| o.stopwords.min_df_share = f32::NAN),
            "stopword-df"
        );
        assert_eq!(named(&|o| o.keyword.interval = 0), "interval");
        assert_eq!(named(&|o| o.commit_every = 0), "commit-every");
        assert_eq!(named(&|o| o.limits.max_tags = 0), "max-page-tags");
        assert!(named(&|o| o.minhash.threshold = 0.0).contains("threshold"));
        // MinHash parameters matter only to MinHash detection.
        assert_eq!(
            named(&|o| {
                o.minhash.threshold = 0.0;
                o.detection = Detection::Exact;
            }),
            "accepted"
        );
    }

    #[test]
    fn resume_settings_name_the_version_and_the_model_bytes() {
        let dir = tempfile::tempdir().unwrap();
        let mut o = IngestOptions::new(vec![dir.path().to_path_buf()], dir.path().join("out"));
        let embedded = o.settings(None).unwrap();
        assert_eq!(embedded["docview_version"], env!("CARGO_PKG_VERSION"));
        assert_eq!(embedded["model_digest"].as_str().unwrap().len(), 32);
        assert!(embedded["templates"]["min_pages"].is_number());
        assert!(embedded["framework"]["lead_block_terms"].is_number());
        // A model file: its bytes name it, so a retrained file at the same path differs.
        let model = dir.path().join("model.json");
        std::fs::write(&model, "one").unwrap();
        o.model = Some(model.clone());
        let first = o.settings(None).unwrap();
        std::fs::write(&model, "two").unwrap();
        let second = o.settings(None).unwrap();
        assert_ne!(first["model_digest"], second["model_digest"]);
        assert_eq!(
            settings_diff(&first, &second),
            [format!(
                "model_digest: was {}, now {}",
                first["model_digest"], second["model_digest"]
            )]
        );
        // The framework cleaner uses no model.
        o.cleaner = CleanerKind::Framework;
        assert!(o.settings(None).unwrap()["model_digest"].is_null());
    }

    #[test]
    fn settings_diff_names_each_changed_setting() {
        let was = serde_json::json!({"inputs": ["/a"], "integrate": {"keywords": 15, "beta": 0.1}});
        let now = serde_json::json!({"inputs": ["/b"], "integrate": {"keywords": 10, "beta": 0.1}});
        assert_eq!(
            super::settings_diff(&was, &now),
            [
                "inputs: was [\"/a\"], now [\"/b\"]",
                "integrate.keywords: was 15, now 10"
            ]
        );
    }
}
