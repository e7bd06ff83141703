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
    /// The DocView record's title, keywords, abstract and topic content, each a field of its
    /// own, searched together with field weights (--field-weights).
    Docview,
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
    #[arg(
        value_name = "QUERY",
        allow_hyphen_values = true,
        required_unless_present = "batch",
        conflicts_with = "batch"
    )]
    pub query: Option<String>,
    /// Which index to search.
    #[arg(long, value_enum, default_value_t = IndexArg::Topic)]
    pub index: IndexArg,
    /// With --index docview: the weight of each of its fields in a hit's score, as
    /// `title=0.25,keywords=0,abstract=0,topic=1` (the default, chosen on docview's dev queries; fields not named keep their
    /// default weight, a weight of 0 leaves the field unsearched).
    #[arg(long, value_name = "WEIGHTS", value_parser = super::field_weights)]
    pub field_weights: Option<docview::index::FieldWeights>,
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
    /// Run a test collection's topics instead of one query (with --run): `qid<TAB>query`
    /// lines, TREC's <top> blocks (<num>, <title>), or JSON Lines of {"qid", "query"}. Each
    /// topic is searched as a bag of its words (title and body, any word), as `docview compare
    /// --topics` searches it.
    #[arg(long, value_name = "TOPICS", requires = "run", conflicts_with_all = ["json", "explain"])]
    pub batch: Option<PathBuf>,
    /// With --batch: write the run as a TREC run file (`qid Q0 docid rank score tag` lines),
    /// for trec_eval or ir-measures; replaced only once complete.
    #[arg(long, value_name = "FILE", requires = "batch")]
    pub run: Option<PathBuf>,
    /// With --batch: documents a topic (the run's depth).
    #[arg(long, value_name = "N", default_value_t = 1000, requires = "batch", value_parser = clap::value_parser!(u64).range(1..=100_000))]
    pub depth: u64,
    /// With --batch: the run's tag, its last column (default: docview-INDEX).
    #[arg(long, value_name = "TAG", requires = "batch")]
    pub tag: Option<String>,
    /// With --batch: the record field the run's document ids are: url (the record's
    /// identifier, the default), warc_record_id, or a field of the JSON lines ingested (a
    /// user's `id`).
    #[arg(long, value_name = "FIELD", default_value = "url", requires = "batch")]
    pub docid: String,
    /// With --batch: worker threads (0: one per core). The run is the same whatever the number.
    #[arg(long, value_name = "N", default_value_t = 0, requires = "batch", value_parser = super::threads)]
    pub threads: usize,
}
