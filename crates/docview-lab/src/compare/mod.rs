//! Comparing the four indexes of an ingest (004 §7.3, and the DocView index searched with its
//! field weights): `docview compare`. What users run after
//! ingest to see how much smaller, cheaper and more precise the cleaned indexes are than the
//! full text:
//!
//! 1. **size** (the paper's Table 3): documents, terms, distinct terms, bytes on disk by
//!    component, ratios to fulltext ([`sizes`]);
//! 2. **query cost** (Figure 6): posting-list entries and bytes each query reads, and latency
//!    over warm runs, for a query set from a file, a labelled set's titles, or the collection's
//!    own vocabulary drawn by document frequency ([`query_cost`]);
//! 3. **retrieval quality** on a labelled set whose pages were ingested ([`retrieval`]):
//!    content snippets should find their page (hit@10), boilerplate snippets should not
//!    (false-hit rate@10), reference titles should rank it first (MRR@10);
//! 4. **ranked retrieval** on a test collection's topics and qrels ([`ranking`]): nDCG@10,
//!    P@10, AP, R@100, RR@10 and Judged@10 per index, each cleaned index tested against the
//!    full text, the runs written as TREC run files.
//!
//! [`CompareReport`] holds the figures; it renders as a terminal table, `compare.json` and a
//! self-contained `compare.html`.

mod cost;
mod html;
mod queries;
pub mod ranking;
mod report;
mod retrieval;
mod size;

use std::path::{Path, PathBuf};

pub use cost::query_cost;
pub use html::render_html;
pub use queries::{QuerySet, labelled_titles, queries_from_file, vocabulary_queries};
pub use report::*;
pub use retrieval::retrieval;
pub use size::sizes;

use crate::index::{COMPARE_HTML, COMPARE_JSON, FieldWeights, IndexKind, OpenIndex};
use crate::output::{create_folder, write_atomically, write_json_atomically};
use crate::{Error, Result};

/// What `docview compare` is asked to do.
#[derive(Debug, Clone)]
pub struct CompareOptions {
    /// The ingest output directory.
    pub dir: PathBuf,
    /// A labelled set whose pages were ingested, for retrieval quality (and, without
    /// `queries`, its titles as the query set).
    pub corpus: Option<PathBuf>,
    /// A query log: one query a line.
    pub queries: Option<PathBuf>,
    /// Queries drawn from the vocabulary when neither `queries` nor `corpus` gives them.
    pub vocabulary_queries: usize,
    /// Seed of the vocabulary draw.
    pub seed: u64,
    /// Warm runs of each query timed.
    pub runs: usize,
    /// Worker threads for the retrieval queries (0: one per core).
    pub threads: usize,
    /// A test collection's topics and qrels, for ranked retrieval.
    pub ranking: Option<ranking::RankingOptions>,
    /// The weights the DocView index's fields are searched with.
    pub field_weights: FieldWeights,
}

impl CompareOptions {
    /// Options with the defaults for `dir`.
    pub fn new(dir: PathBuf) -> Self {
        CompareOptions {
            dir,
            corpus: None,
            queries: None,
            vocabulary_queries: 100,
            seed: 1,
            runs: 5,
            threads: 0,
            ranking: None,
            field_weights: FieldWeights::default(),
        }
    }
}

/// The four indexes of `dir`, fulltext first, the DocView index searched with `weights`.
pub fn open_all(dir: &Path, weights: FieldWeights) -> Result<Vec<OpenIndex>> {
    IndexKind::ALL
        .into_iter()
        .map(|kind| {
            OpenIndex::open(dir, kind)
                .map(|index| index.with_weights(weights))
                .map_err(Error::from)
        })
        .collect()
}

/// Runs the comparison.
pub fn compare(options: &CompareOptions) -> Result<CompareReport> {
    let indexes = open_all(&options.dir, options.field_weights)?;
    let sizes = sizes(&options.dir, &indexes)?;
    let set = match &options.corpus {
        Some(path) => Some(crate::eval::load_set(path)?),
        None => None,
    };
    let query_set = if let Some(path) = &options.queries {
        Some(queries_from_file(path)?)
    } else if let Some(pages) = &set {
        Some(labelled_titles(pages))
    } else if options.vocabulary_queries > 0 {
        Some(vocabulary_queries(
            &indexes[0],
            options.vocabulary_queries,
            options.seed,
        )?)
    } else {
        None
    };
    let query_cost = match &query_set {
        Some(q) if !q.queries.is_empty() => Some(query_cost(&indexes, q, options.runs)?),
        _ => None,
    };
    let retrieval = match (&set, &options.corpus) {
        (Some(pages), Some(path)) => Some(retrieval(
            &options.dir,
            &indexes,
            pages,
            &path.display().to_string(),
            options.threads,
        )?),
        _ => None,
    };
    let ranking = match &options.ranking {
        Some(asked) => Some(ranking::ranking(
            &options.dir,
            &indexes,
            asked,
            options.threads,
        )?),
        None => None,
    };
    Ok(CompareReport {
        dir: options.dir.display().to_string(),
        sizes,
        query_cost,
        retrieval,
        ranking,
        field_weights: options.field_weights,
    })
}

/// Writes `compare.json` and `compare.html` into `out`.
pub fn write_report(report: &CompareReport, out: &Path) -> Result<()> {
    create_folder(out)?;
    write_json_atomically(&out.join(COMPARE_JSON), report)?;
    let html = render_html(report);
    write_atomically(&out.join(COMPARE_HTML), |w| {
        std::io::Write::write_all(w, html.as_bytes())
    })?;
    Ok(())
}

/// `part / whole`, 0 when `whole` is 0.
fn ratio(part: f64, whole: f64) -> f64 {
    if whole > 0.0 { part / whole } else { 0.0 }
}
