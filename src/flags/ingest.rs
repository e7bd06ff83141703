//! The arguments of `docview ingest` (and of `docview stages plan`, which takes them all).

use std::path::PathBuf;

use clap::ValueEnum;
use docview::clean::{CleanerKind, DEFAULT_CLEANER, Favor};

use super::cleaner::cleaner_kind;
use super::favor::{FAVOR_HELP, favor};
use docview::integrate::IntegrateParams;
use docview::replica::{KeywordParams, MinHashParams};
use docview::stats::StopwordParams;

use super::limits::LimitArgs;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ReplicaDetection {
    /// Exact copies only: MD5 of the normalised replica text (the page's own text: its topic
    /// content, or its visible text where the cleaner kept too little of it, without the lines
    /// its web site repeats on other pages, learnt in the statistics pass; the topic content as
    /// it is where the site shows no template).
    Exact,
    /// Exact copies, and near-replicas by the paper's keyword fingerprint of the topic content
    /// (§5).
    Keyword,
    /// Exact copies, and near-replicas whose replica texts share enough 5-word shingles:
    /// MinHash signatures (128 min-hashes) in an LSH index (32 bands of 4), a replica when the
    /// estimated Jaccard similarity reaches --minhash-threshold.
    Minhash,
}

#[derive(Debug, clap::Args)]
pub struct IngestArgs {
    /// Crawled input: WARC or WARC.gz files (HTML response and resource records), folders of pages (recursive;
    /// .html, .htm and their .gz), JSONL files of {"url", "html"} lines, or `-` for JSONL on
    /// standard input.
    #[arg(required = true, value_name = "INPUT")]
    pub inputs: Vec<PathBuf>,
    /// Output directory: created, or empty (or an interrupted ingest with --resume).
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// The cleaner to use. A site-aware one (infodiscoverer, infodiscoverer-table, wisdom, and
    /// learned with a --model trained with site evidence; the shipped model has none) first
    /// reads the inputs to learn a model of each web site (each host's first 64 pages), then
    /// cleans each page with its site's model; the summary counts the pages that had one.
    #[arg(long, value_name = "NAME", default_value = DEFAULT_CLEANER, value_parser = cleaner_kind())]
    pub cleaner: CleanerKind,
    /// The learned cleaner's block model file, from `docview train-cleaner` (default: the model
    /// inside the binary).
    #[arg(long, value_name = "MODEL")]
    pub model: Option<PathBuf>,
    #[arg(long, value_name = "FAVOR", default_value = "balanced", value_parser = favor(), help = FAVOR_HELP)]
    pub favor: Favor,
    /// Clean every page alone, without learning site models first: one read of the inputs
    /// less; the learned cleaner then has no site evidence, infodiscoverer and wisdom clean by
    /// their fallback.
    #[arg(long)]
    pub pages_alone: bool,
    /// A classifier model from `docview classify train`, told by its file: a subject model
    /// (`--scheme`), which fills each DocView's classification code (default: the one inside
    /// the binary, the IPTC Media Topics' top level: `medtop:15000000`, ...), or a genre model
    /// (trees or kNN), which fills its `genre` and decides its type (default: the trees inside
    /// the binary, wcxb-dev's page types). Give it twice for one of each.
    #[arg(long, value_name = "MODEL", conflicts_with = "no_classifier")]
    pub classifier: Vec<PathBuf>,
    /// Leave the classification codes, subjects and genres empty (no classifier; the DocView
    /// type is the cleaner's).
    #[arg(long)]
    pub no_classifier: bool,
    /// Worker threads that clean and integrate pages (0: one per core). Beside them the input
    /// reader, the writer of records (which writes one batch while the workers process the
    /// next) and tantivy's indexing threads run; the output does not depend on it.
    #[arg(long, value_name = "N", default_value_t = 0, value_parser = super::threads)]
    pub threads: usize,
    /// λ: keywords per DocView, the heaviest features of the topic content.
    #[arg(long, value_name = "λ", default_value_t = IntegrateParams::default().keywords)]
    pub keywords: usize,
    /// δ: sentences in each abstract.
    #[arg(long, value_name = "δ", default_value_t = IntegrateParams::default().sentences)]
    pub sentences: usize,
    /// θ: keywords that weigh the sentences of the abstract.
    #[arg(long, value_name = "θ", default_value_t = IntegrateParams::default().theta)]
    pub theta: usize,
    /// β: a hub block's links are relevant when the cosine of its text with the topic content
    /// exceeds this (0 to 1).
    #[arg(long, value_name = "β", default_value_t = IntegrateParams::default().beta)]
    pub beta: f32,
    /// Which fingerprints find replicas (exact copies are always found first).
    #[arg(long, value_enum, default_value_t = ReplicaDetection::Minhash)]
    pub replicas: ReplicaDetection,
    /// With --replicas minhash: least estimated Jaccard similarity of the 5-word shingle sets
    /// of two replica texts for the later page to be a near-replica (above 0, at most 1).
    #[arg(long, value_name = "J", default_value_t = MinHashParams::default().threshold)]
    pub minhash_threshold: f32,
    /// Percentage: share of a page's features that make its keyword fingerprint (0 to 1).
    #[arg(long, value_name = "P", default_value_t = KeywordParams::default().percentage)]
    pub percentage: f32,
    /// Interval: the number of features hashed is a multiple of this.
    #[arg(long, value_name = "N", default_value_t = KeywordParams::default().interval)]
    pub interval: usize,
    /// Collection statistics (a stats.json of an earlier ingest) instead of a first pass over
    /// the inputs (which cleans every page and keeps the cleaned pages in DIR/pages.spill
    /// for the second pass until the run completes).
    #[arg(long, value_name = "FILE")]
    pub stats: Option<PathBuf>,
    /// An incremental crawl: the --out folder of a finished earlier run (ingest or stages),
    /// whose kept pages this run's pages are checked against first. A page that repeats one
    /// (exact copy or near-replica, with the same --replicas settings) is a replica of it,
    /// named with the run in replicas.jsonl (`replica_of_run`), and is not kept or indexed
    /// again. Repeat the flag for several runs, oldest first: each folder holds only the
    /// pages its own run kept.
    #[arg(long, value_name = "DIR")]
    pub earlier: Vec<PathBuf>,
    /// The key of a JSON Lines input's page address. A line's other fields (a user's `id`) go
    /// to its record, in `input_fields`.
    #[arg(long, value_name = "KEY", default_value = "url")]
    pub url_field: String,
    /// The key of a JSON Lines input's page HTML.
    #[arg(long, value_name = "KEY", default_value = "html")]
    pub html_field: String,
    /// The key of a JSON Lines input's plain text, for a collection cleaned elsewhere: each
    /// line's text is taken as its page's topic content as it stands (not parsed as HTML, not
    /// cleaned), then integrated, checked for replicas and indexed like any page. Pyserini's
    /// JSON collection (what `docview export` writes) is read with
    /// `--url-field id --text-field contents`. Other inputs (WARC, HTML files) stay HTML.
    #[arg(long, value_name = "KEY", conflicts_with = "html_field")]
    pub text_field: Option<String>,
    /// A feature found in more than this share of the pages' topic content joins the
    /// aggressive stop-word list (collections of 50 pages or more).
    #[arg(long, value_name = "SHARE", default_value_t = StopwordParams::default().min_df_share)]
    pub stopword_df: f32,
    /// Pages between commits (each commit makes the records and indexes durable).
    #[arg(long, value_name = "PAGES", default_value_t = 1000)]
    pub commit_every: u64,
    /// Continue the interrupted ingest in --out from its last commit (same inputs and
    /// settings).
    #[arg(long, conflicts_with = "overwrite")]
    pub resume: bool,
    /// Replace the whole docview output folder --out: everything an earlier ingest wrote there
    /// is removed first. Only a folder docview marked as its own (.docview.json) is cleared, and
    /// only when it holds nothing docview did not write; any other folder is refused untouched.
    #[arg(long)]
    pub overwrite: bool,
    /// Memory for each of the three index writers, in MB.
    #[arg(long, value_name = "MB", default_value_t = 64)]
    pub index_memory: usize,
    /// Also write the DocView records as OUT/docviews.parquet when the run completes (one row
    /// per kept page; keywords, relevant links and replicas as JSON text; the whole record in
    /// `record`), which Spark, DuckDB, pandas and polars read directly.
    #[arg(long)]
    pub parquet: bool,
    /// Also render each record's topic content as Markdown, in its `topic_markdown` field
    /// (headings, lists, tables, fenced code blocks, absolute links): what pipelines that feed
    /// language models store.
    #[arg(long)]
    pub markdown: bool,
    /// No progress bar or progress lines.
    #[arg(long, short)]
    pub quiet: bool,
    /// When standard error is not a terminal (cron, CI, nohup, a log file), print a plain
    /// progress line every SECS seconds instead of a bar.
    #[arg(long, value_name = "SECS", default_value_t = 30)]
    pub progress_every: u64,
    #[command(flatten)]
    pub limits: LimitArgs,
}
