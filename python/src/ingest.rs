//! `docview.ingest`: the ingest `docview ingest` runs, its flags as keyword arguments.

use std::path::PathBuf;
use std::sync::mpsc::RecvTimeoutError;
use std::time::Duration;

use pyo3::exceptions::PyKeyboardInterrupt;
use pyo3::prelude::*;

use docview_collection::integrate::IntegrateParams;
use docview_collection::replica::{Detection, KeywordParams, MinHashParams};
use docview_collection::stats::StopwordParams;
use docview_pipeline::{
    ClassifierChoice, Counters, IngestOptions, Phase, Progress, ingest as run_ingest,
};

use crate::error::{Error, Result, no_panic};
use crate::extract::{cleaner_kind, count, page_limits};

/// The replica detection called `name`, as `--replicas` names it.
fn detection(name: &str) -> Result<Detection> {
    match name {
        "exact" => Ok(Detection::Exact),
        "keyword" => Ok(Detection::Keyword),
        "minhash" => Ok(Detection::MinHash),
        _ => Err(Error::argument(format!(
            "replicas: unknown replica detection {name:?} (known: exact, keyword, minhash)"
        ))),
    }
}

/// [`count`] of an optional argument.
fn optional_count(name: &str, value: Option<i64>, least: i64) -> Result<Option<usize>> {
    value.map(|v| count(name, v, least)).transpose()
}

/// `inputs` as paths: one path (str or os.PathLike) or a list of them.
fn input_paths(inputs: &Bound<'_, PyAny>) -> PyResult<Vec<PathBuf>> {
    if let Ok(one) = inputs.extract::<PathBuf>() {
        return Ok(vec![one]);
    }
    let many: Vec<PathBuf> = inputs.extract().map_err(|_| {
        pyo3::exceptions::PyTypeError::new_err(
            "inputs: expected a path (str or os.PathLike) or a list of paths",
        )
    })?;
    if many.is_empty() {
        return Err(Error::argument("inputs: no input given").into());
    }
    Ok(many)
}

/// Cleans a crawled collection, removes its replicas, writes one DocView record per kept page
/// and indexes them three ways, into the folder out: what `docview ingest INPUTS --out OUT`
/// does, with its flags as keyword arguments (dashes as underscores). Returns the run's
/// summary as a dict (the counts of pages read, kept, replicas and skipped by reason; the
/// statistics; each index's documents, terms and bytes; seconds), as out/summary.json holds it.
///
/// inputs: a WARC or WARC.gz file, a folder of pages, a JSONL file of {"url", "html"} lines, or
/// a list of them. out: created, or empty; overwrite=True replaces a whole docview output folder
/// (everything an earlier ingest wrote there; a folder without docview's marker .docview.json,
/// or holding files docview did not write, is refused untouched), resume=True continues an
/// interrupted one.
///
/// Options, each the flag of the same name (None: the flag's default): threads (0: one per
/// core; at most 256, more is an ArgumentError), cleaner (docview.CLEANERS), favor ("precision", "balanced" or "recall"), model (a block model file), pages_alone, classifier (a
/// classifier model file from `docview classify train`: a subject model or a genre model, told
/// by its file), no_classifier, keywords (λ, 15), sentences (δ, 15), theta (θ, 15),
/// beta (β, 0.1), replicas ("exact", "keyword" or "minhash"), minhash_threshold (0.5),
/// percentage, interval, stats (a stats.json to use instead of a first pass), earlier (the
/// out folders of earlier runs of an incremental crawl), stopword_df (0.3), commit_every
/// (1000), index_memory (MB per index writer, 64), parquet (also write docviews.parquet),
/// markdown (also write each record's topic content as Markdown), max_page_mb (8),
/// max_page_tags (500000), url_field and html_field (the keys of a JSONL line's address and
/// HTML, "url" and "html"; the line's other fields go to its record's "input_fields"),
/// text_field (instead of html_field: the key of a JSONL line's plain text, cleaned elsewhere,
/// which is the page's topic content as it stands; a Pyserini collection reads with
/// url_field="id", text_field="contents"). An unknown option is a TypeError naming it.
///
/// progress, a callable, is called with a dict of how far the run is: "phase" ("statistics",
/// the first pass, or "ingest"), "counters" (pages_read, kept, replicas_exact, replicas_near,
/// skipped by reason, html_bytes, as the summary's), "input_bytes" read and "total_bytes"
/// (the inputs' size, None when unknown); at a phase's start and end and at most once a
/// second between, on the calling thread. An exception it raises stops the ingest as Ctrl-C
/// does, and is raised.
///
/// The GIL is released while ingest runs. Ctrl-C (KeyboardInterrupt, or any exception a
/// signal handler raises) stops it after the batch at hand, with what it did durable: the
/// exception is raised then, and the same call with resume=True continues.
#[pyfunction]
#[pyo3(signature = (
    inputs,
    out,
    *,
    threads = 0,
    cleaner = None,
    favor = None,
    model = None,
    pages_alone = false,
    classifier = None,
    no_classifier = false,
    keywords = None,
    sentences = None,
    theta = None,
    beta = None,
    replicas = None,
    minhash_threshold = None,
    percentage = None,
    interval = None,
    stats = None,
    earlier = None,
    stopword_df = None,
    commit_every = None,
    resume = false,
    overwrite = false,
    index_memory = None,
    parquet = false,
    markdown = false,
    max_page_mb = None,
    max_page_tags = None,
    url_field = None,
    html_field = None,
    text_field = None,
    progress = None,
))]
#[allow(clippy::too_many_arguments)]
pub fn ingest<'py>(
    py: Python<'py>,
    inputs: &Bound<'py, PyAny>,
    out: PathBuf,
    threads: i64,
    cleaner: Option<String>,
    favor: Option<String>,
    model: Option<PathBuf>,
    pages_alone: bool,
    classifier: Option<PathBuf>,
    no_classifier: bool,
    keywords: Option<i64>,
    sentences: Option<i64>,
    theta: Option<i64>,
    beta: Option<f32>,
    replicas: Option<String>,
    minhash_threshold: Option<f32>,
    percentage: Option<f32>,
    interval: Option<i64>,
    stats: Option<PathBuf>,
    earlier: Option<Vec<PathBuf>>,
    stopword_df: Option<f32>,
    commit_every: Option<i64>,
    resume: bool,
    overwrite: bool,
    index_memory: Option<i64>,
    parquet: bool,
    markdown: bool,
    max_page_mb: Option<i64>,
    max_page_tags: Option<i64>,
    url_field: Option<String>,
    html_field: Option<String>,
    text_field: Option<String>,
    progress: Option<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    if let Some(callback) = &progress
        && !callback.is_callable()
    {
        return Err(Error::argument(format!(
            "progress: expected a callable, not {}",
            callback.get_type().name()?
        ))
        .into_pyerr(py));
    }
    let inputs = input_paths(inputs)?;
    let mut options = IngestOptions::new(inputs, out);
    let settings = || -> Result<()> {
        if let Some(name) = cleaner {
            options.cleaner = cleaner_kind(&name)?;
        }
        if let Some(name) = favor {
            options.favor = crate::extract::favor(&name)?;
        }
        options.model = model;
        options.pages_alone = pages_alone;
        if let (Some(path), true) = (&classifier, no_classifier) {
            return Err(Error::argument(format!(
                "classifier: {} given with no_classifier=True; give one or the other",
                path.display()
            )));
        }
        (options.classifier, options.subjects) =
            ClassifierChoice::from_files(classifier.as_slice(), no_classifier)?;
        if resume && overwrite {
            return Err(Error::argument(
                "resume: resume=True continues the ingest in out, overwrite=True replaces it; \
                 give one or the other",
            ));
        }
        options.threads = count("threads", threads, 0)?;
        let integrate = IntegrateParams::default();
        options.integrate = IntegrateParams {
            keywords: optional_count("keywords", keywords, 0)?.unwrap_or(integrate.keywords),
            sentences: optional_count("sentences", sentences, 0)?.unwrap_or(integrate.sentences),
            theta: optional_count("theta", theta, 0)?.unwrap_or(integrate.theta),
            beta: beta.unwrap_or(integrate.beta),
        };
        let keyword = KeywordParams::default();
        options.keyword = KeywordParams {
            percentage: percentage.unwrap_or(keyword.percentage),
            interval: optional_count("interval", interval, 0)?.unwrap_or(keyword.interval),
        };
        if let Some(name) = replicas {
            options.detection = detection(&name)?;
        }
        let minhash = MinHashParams::default();
        options.minhash = MinHashParams {
            threshold: minhash_threshold.unwrap_or(minhash.threshold),
            ..minhash
        };
        let stopwords = StopwordParams::default();
        options.stopwords = StopwordParams {
            min_df_share: stopword_df.unwrap_or(stopwords.min_df_share),
            ..stopwords
        };
        options.stats_file = stats;
        if let Some(n) = optional_count("commit_every", commit_every, 0)? {
            options.commit_every = n as u64;
        }
        options.resume = resume;
        options.overwrite = overwrite;
        if let Some(mb) = optional_count("index_memory", index_memory, 0)? {
            options.index_heap_bytes = mb.max(16).saturating_mul(1 << 20);
        }
        options.limits = page_limits(max_page_mb, max_page_tags)?;
        options.parquet = parquet;
        options.markdown = markdown;
        options.earlier = earlier.unwrap_or_default();
        if let Some(key) = url_field {
            options.jsonl_keys.url = key;
        }
        if let Some(key) = html_field {
            if text_field.is_some() {
                return Err(Error::argument(
                    "html_field and text_field name the same thing (a line's page): give one",
                ));
            }
            options.jsonl_keys.html = key;
        }
        options.jsonl_keys.text = text_field;
        Ok(())
    };
    settings().map_err(|e| e.into_pyerr(py))?;
    let out_name = options.out.display().to_string();
    let shared = Shared::default();
    let summary = run_interruptible(py, &options, progress.as_ref(), &shared, || {
        no_panic(&out_name, || Ok(run_ingest(&options, &shared)?))
    })?;
    Ok(pythonize::pythonize(py, &summary)?)
}

/// How far a run is, as the pipeline reports it ([`Progress`]), for the Python callback: the
/// latest report, and the reports of each phase's start and end not yet given (kept so that a
/// phase quicker than a poll is still reported).
#[derive(Debug, Default)]
struct Shared(std::sync::Mutex<Reports>);

#[derive(Debug, Default)]
struct Reports {
    latest: Report,
    /// Changes since the start; the callback is given the latest when it changed.
    seen: u64,
    edges: Vec<Report>,
}

/// One report, as the callback is given it.
#[derive(Debug, Clone, Default, serde::Serialize)]
struct Report {
    phase: &'static str,
    counters: Counters,
    input_bytes: u64,
    total_bytes: Option<u64>,
}

impl Shared {
    fn with(&self, edge: bool, change: impl FnOnce(&mut Report)) {
        let mut reports = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        change(&mut reports.latest);
        reports.seen += 1;
        if edge {
            let latest = reports.latest.clone();
            reports.edges.push(latest);
        }
    }

    /// The reports to give now: the edges not given yet, then the latest when it changed since
    /// `seen` and `due`; `seen` is moved on.
    fn take(&self, seen: &mut u64, due: bool) -> Vec<Report> {
        let mut reports = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let mut out = std::mem::take(&mut reports.edges);
        if out.is_empty() && due && reports.seen != *seen && !reports.latest.phase.is_empty() {
            out.push(reports.latest.clone());
        }
        *seen = reports.seen;
        out
    }
}

impl Progress for Shared {
    fn start(&self, phase: Phase, total_bytes: Option<u64>) {
        self.with(true, |r| {
            r.phase = match phase {
                Phase::Statistics => "statistics",
                Phase::Ingest => "ingest",
            };
            r.total_bytes = total_bytes;
            r.input_bytes = 0;
        });
    }

    fn update(&self, counters: &Counters, input_bytes: u64) {
        self.with(false, |r| {
            r.counters = counters.clone();
            r.input_bytes = input_bytes;
        });
    }

    fn finish(&self) {
        self.with(true, |_| {});
    }
}

/// How often the progress callback is given the latest report at most, between a phase's
/// start and end.
const PROGRESS_EVERY: Duration = Duration::from_secs(1);

/// Gives `callback`, when there is one, the reports of `shared` to give now: each phase's
/// start and end, and between them the latest at most every [`PROGRESS_EVERY`] since `last`.
fn call_back(
    py: Python<'_>,
    callback: Option<&Bound<'_, PyAny>>,
    shared: &Shared,
    last: &mut (u64, std::time::Instant),
) -> PyResult<()> {
    let Some(callback) = callback else {
        return Ok(());
    };
    let due = last.1.elapsed() >= PROGRESS_EVERY;
    let reports = shared.take(&mut last.0, due);
    if !reports.is_empty() {
        last.1 = std::time::Instant::now();
    }
    for report in reports {
        callback.call1((pythonize::pythonize(py, &report)?,))?;
    }
    Ok(())
}

/// How long the calling thread waits, without the GIL, between two looks at Python's signals
/// while an ingest runs.
const SIGNAL_POLL: Duration = Duration::from_millis(100);

/// Runs `run` (the ingest of `options`) on a thread of its own, without the GIL, while this
/// thread lets Python handle its signals every [`SIGNAL_POLL`]. When a handler raises (Ctrl-C's
/// `KeyboardInterrupt`), the ingest is asked to stop ([`docview_pipeline::Interrupt`]): it
/// makes what it did durable after the batch at hand, and the exception is raised then, saying
/// how to resume.
fn run_interruptible<T: Send>(
    py: Python<'_>,
    options: &IngestOptions,
    callback: Option<&Bound<'_, PyAny>>,
    shared: &Shared,
    run: impl FnOnce() -> Result<T> + Send,
) -> PyResult<T> {
    let mut last = (0, std::time::Instant::now());
    std::thread::scope(|scope| {
        let (tx, rx) = std::sync::mpsc::channel();
        scope.spawn(move || {
            let _ = tx.send(run());
        });
        // Waited on from inside `detach`, which takes only what may be shared between threads.
        let rx = std::sync::Mutex::new(rx);
        let recv = |timeout: Option<Duration>| {
            let rx = rx.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
            match timeout {
                Some(t) => rx.recv_timeout(t),
                None => rx.recv().map_err(|_| RecvTimeoutError::Disconnected),
            }
        };
        loop {
            let waited = py.detach(|| recv(Some(SIGNAL_POLL)));
            let result = match waited {
                Ok(result) => {
                    let result = result.map_err(|e| e.into_pyerr(py))?;
                    // The reports not given yet: the last phase's end.
                    call_back(py, callback, shared, &mut last)?;
                    return Ok(result);
                }
                Err(RecvTimeoutError::Timeout) => py
                    .check_signals()
                    .and_then(|()| call_back(py, callback, shared, &mut last)),
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(Error::Failed(format!(
                        "{}: the ingest ended without a result",
                        options.out.display()
                    ))
                    .into_pyerr(py));
                }
            };
            let Err(signalled) = result else { continue };
            options.interrupt.request();
            let ended = py.detach(|| recv(None));
            let said = match ended {
                Ok(Err(Error::Pipeline(docview_pipeline::Error::Interrupted { out, at }))) => {
                    format!(
                        "{}: interrupted {at}; call docview.ingest again with the same \
                         arguments and resume=True to continue from there",
                        out.display()
                    )
                }
                Ok(Ok(_)) => format!(
                    "{}: the ingest completed before it could stop",
                    options.out.display()
                ),
                // It failed on its own meanwhile: that error says more than the signal.
                Ok(Err(e)) => return Err(e.into_pyerr(py)),
                Err(_) => return Err(signalled),
            };
            if signalled.is_instance_of::<PyKeyboardInterrupt>(py) {
                return Err(PyKeyboardInterrupt::new_err(said));
            }
            return Err(signalled);
        }
    })
}
