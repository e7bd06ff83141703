//! The arguments of `docview compare`: the ingest, the queries, the labelled set.

use std::path::PathBuf;

#[derive(Debug, clap::Args)]
pub struct CompareArgs {
    /// The output directory of an ingest.
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
    /// A labelled set (SET/html/ID.html.gz and SET/ground-truth/ID.json, as docs/data.md
    /// describes) whose pages were ingested into DIR: measures
    /// hit@10 of its content snippets, false-hit rate@10 of its boilerplate snippets and MRR@10
    /// of its titles; without --queries its titles are also the query set of the cost part.
    #[arg(long, value_name = "SET")]
    pub corpus: Option<PathBuf>,
    /// A query log for the cost part: one query a line (# comments and blank lines ignored).
    #[arg(long, value_name = "FILE")]
    pub queries: Option<PathBuf>,
    /// Without --queries and --corpus: draw this many queries of one to three words from the
    /// full-text vocabulary, by document frequency.
    #[arg(long, value_name = "N", default_value_t = 100)]
    pub vocabulary: usize,
    /// Seed of the vocabulary draw.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Timed warm runs of each query.
    #[arg(long, value_name = "N", default_value_t = 5)]
    pub runs: usize,
    /// Worker threads for the retrieval queries (0: one per core).
    #[arg(long, value_name = "N", default_value_t = 0, value_parser = super::threads)]
    pub threads: usize,
    /// Where to write compare.json and compare.html (default: DIR).
    #[arg(long, value_name = "OUT")]
    pub out: Option<PathBuf>,
}
