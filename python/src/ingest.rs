//! `docview.ingest`: the ingest `docview ingest` runs, its flags as keyword arguments.

use std::path::PathBuf;
use std::sync::mpsc::RecvTimeoutError;
use std::time::Duration;

use pyo3::exceptions::PyKeyboardInterrupt;
use pyo3::prelude::*;

use docview_collection::integrate::IntegrateParams;
use docview_collection::replica::{Detection, KeywordParams, MinHashParams};
use docview_collection::stats::StopwordParams;
use docview_extract::PageLimits;
use docview_pipeline::{ClassifierChoice, IngestOptions, Silent, ingest as run_ingest};

use crate::error::{Error, Result, no_panic};
use crate::extract::cleaner_kind;

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
/// classifier model file), no_classifier, keywords (λ, 15), sentences (δ, 15), theta (θ, 15),
/// beta (β, 0.1), replicas ("exact", "keyword" or "minhash"), minhash_threshold (0.5),
/// percentage, interval, stats (a stats.json to use instead of a first pass), earlier (the
/// out folders of earlier runs of an incremental crawl), stopword_df (0.3), commit_every
/// (1000), index_memory (MB per index writer, 64), parquet (also write docviews.parquet),
/// markdown (also write each record's topic content as Markdown), max_page_mb (8),
/// max_page_tags (500000). An unknown option is a TypeError naming it.
///
/// The GIL is released while ingest runs; it shows no progress. Ctrl-C (KeyboardInterrupt, or
/// any exception a signal handler raises) stops it after the batch at hand, with what it did
/// durable: the exception is raised then, and the same call with resume=True continues.
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
))]
#[allow(clippy::too_many_arguments)]
pub fn ingest<'py>(
    py: Python<'py>,
    inputs: &Bound<'py, PyAny>,
    out: PathBuf,
    threads: usize,
    cleaner: Option<String>,
    favor: Option<String>,
    model: Option<PathBuf>,
    pages_alone: bool,
    classifier: Option<PathBuf>,
    no_classifier: bool,
    keywords: Option<usize>,
    sentences: Option<usize>,
    theta: Option<usize>,
    beta: Option<f32>,
    replicas: Option<String>,
    minhash_threshold: Option<f32>,
    percentage: Option<f32>,
    interval: Option<usize>,
    stats: Option<PathBuf>,
    earlier: Option<Vec<PathBuf>>,
    stopword_df: Option<f32>,
    commit_every: Option<u64>,
    resume: bool,
    overwrite: bool,
    index_memory: Option<usize>,
    parquet: bool,
    markdown: bool,
    max_page_mb: Option<usize>,
    max_page_tags: Option<usize>,
) -> PyResult<Bound<'py, PyAny>> {
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
        options.classifier = match (classifier, no_classifier) {
            (Some(path), true) => {
                return Err(Error::argument(format!(
                    "classifier: {} given with no_classifier=True; give one or the other",
                    path.display()
                )));
            }
            (None, true) => ClassifierChoice::Off,
            (Some(path), false) => ClassifierChoice::File(path),
            (None, false) => ClassifierChoice::Embedded,
        };
        if resume && overwrite {
            return Err(Error::argument(
                "resume: resume=True continues the ingest in out, overwrite=True replaces it; \
                 give one or the other",
            ));
        }
        options.threads = threads;
        let integrate = IntegrateParams::default();
        options.integrate = IntegrateParams {
            keywords: keywords.unwrap_or(integrate.keywords),
            sentences: sentences.unwrap_or(integrate.sentences),
            theta: theta.unwrap_or(integrate.theta),
            beta: beta.unwrap_or(integrate.beta),
        };
        let keyword = KeywordParams::default();
        options.keyword = KeywordParams {
            percentage: percentage.unwrap_or(keyword.percentage),
            interval: interval.unwrap_or(keyword.interval),
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
        if let Some(n) = commit_every {
            options.commit_every = n;
        }
        options.resume = resume;
        options.overwrite = overwrite;
        if let Some(mb) = index_memory {
            options.index_heap_bytes = mb.max(16) << 20;
        }
        let limits = PageLimits::default();
        options.limits = PageLimits {
            max_html_bytes: max_page_mb
                .map_or(limits.max_html_bytes, |mb| mb.saturating_mul(1 << 20)),
            max_tags: max_page_tags.unwrap_or(limits.max_tags),
        };
        options.parquet = parquet;
        options.markdown = markdown;
        options.earlier = earlier.unwrap_or_default();
        Ok(())
    };
    settings().map_err(|e| e.into_pyerr(py))?;
    let out_name = options.out.display().to_string();
    let summary = run_interruptible(py, &options, || {
        no_panic(&out_name, || Ok(run_ingest(&options, &Silent)?))
    })?;
    Ok(pythonize::pythonize(py, &summary)?)
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
    run: impl FnOnce() -> Result<T> + Send,
) -> PyResult<T> {
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
                Ok(result) => return result.map_err(|e| e.into_pyerr(py)),
                Err(RecvTimeoutError::Timeout) => py.check_signals(),
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
