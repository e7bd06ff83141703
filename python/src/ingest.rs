//! `docview.ingest`: the ingest `docview ingest` runs, its flags as keyword arguments.

use std::path::PathBuf;

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
/// a list of them. out: created, or empty; overwrite=True replaces an earlier ingest's output
/// there, resume=True continues an interrupted one.
///
/// Options, each the flag of the same name (None: the flag's default): threads (0: one per
/// core; at most 256, more is an ArgumentError), cleaner (docview.CLEANERS), model (a block model file), pages_alone, classifier (a
/// classifier model file), no_classifier, keywords (λ, 15), sentences (δ, 15), theta (θ, 15),
/// beta (β, 0.1), replicas ("exact", "keyword" or "minhash"), minhash_threshold (0.5),
/// percentage, interval, stats (a stats.json to use instead of a first pass), earlier (the
/// out folders of earlier runs of an incremental crawl), stopword_df (0.3), commit_every
/// (1000), index_memory (MB per index writer, 64), parquet (also write docviews.parquet),
/// markdown (also write each record's topic content as Markdown), max_page_mb (8),
/// max_page_tags (500000). An unknown option is a TypeError naming it.
///
/// The GIL is released while ingest runs; it shows no progress.
#[pyfunction]
#[pyo3(signature = (
    inputs,
    out,
    *,
    threads = 0,
    cleaner = None,
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
    let summary = py
        .detach(|| no_panic(&out_name, || Ok(run_ingest(&options, &Silent)?)))
        .map_err(|e| e.into_pyerr(py))?;
    Ok(pythonize::pythonize(py, &summary)?)
}
