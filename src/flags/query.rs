//! The arguments of `docview query`: the ingest, the query, the index, the output.

use std::path::PathBuf;

use clap::ValueEnum;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum IndexArg {
    /// All visible text of each raw page: what a naive engine indexes.
    Fulltext,
    /// The topic content.
    Topic,
    /// Title, abstract and keywords.
    Abstract,
}

#[derive(Debug, clap::Args)]
pub struct QueryArgs {
    /// The output directory of an ingest.
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
    /// The query: words (stemmed and segmented as the index was), "phrases", +required,
    /// -excluded (also first: `-draft notes`), title:word, (groups), AND, OR, NOT. At most 64
    /// `(` and `NOT` and 4,096 bytes. A query that is also a flag of this command (`-k`,
    /// `--json`) needs `--` before it.
    #[arg(value_name = "QUERY", allow_hyphen_values = true)]
    pub query: String,
    /// Which index to search.
    #[arg(long, value_enum, default_value_t = IndexArg::Topic)]
    pub index: IndexArg,
    /// Number of hits (at most the index's documents).
    #[arg(short, long, value_name = "K", default_value_t = 10)]
    pub k: usize,
    /// Print the hits as JSON lines.
    #[arg(long)]
    pub json: bool,
    /// Also show the query's terms as indexed (lowercased, stemmed, segmented) and their
    /// posting lists: documents holding each and the bytes read.
    #[arg(long)]
    pub explain: bool,
}
