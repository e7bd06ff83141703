//! The `docview` command: a thin layer of clap commands over the docview library.

use std::io::Write;
use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use clap::{Parser, Subcommand, ValueEnum};

use docview::clean::{
    CLEANERS, CleanerKind, DEFAULT_CLEANER, MAX_TREE_DEPTH, TrainParams, cleaner_with_model,
    topic_content_page,
};
use docview::compare::{CompareOptions, compare, write_report};
use docview::eval::blocks::{
    all_blocks, cross_validate, load_sets, site_folds, train_model, write_blocks_csv, write_model,
};
use docview::eval::{SiteModels, evaluate_cleaner, load_set};
use docview::extract::{PageLimits, extract_page_in_site};
use docview::index::{Combine, IndexKind, OpenIndex};
use docview::input::read_page_bytes;
use docview::integrate::IntegrateParams;
use docview::output::write_atomically;
use docview::pipeline::stages::{Plan, Stage, TaskOutcome, run_stages, run_task};
use docview::pipeline::{Counters, IngestOptions, Phase, Progress, ingest};
use docview::replica::{Detection, KeywordParams, MinHashParams};
use docview::replica_benchmark::benchmark::{BuildOptions, Rules, build_benchmark};
use docview::replica_benchmark::evaluate::{evaluate_benchmark, minhash_detectors};
use docview::stats::StopwordParams;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// jemalloc rather than the system allocator: ingest allocates and frees small strings and
/// vectors all through every stage, and glibc's malloc took about a tenth of its time.
#[cfg(not(target_env = "msvc"))]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

/// docview: a search-engine indexing preprocessor. It cleans crawled pages down to their topic
/// content (dropping navigation, ads, footers and other boilerplate), removes replicas,
/// integrates each page into a DocView record and indexes the collection three ways (full text,
/// topic content, abstract), following the framework of Zhang, Chen and Li (2004).
#[derive(Debug, Parser)]
#[command(name = "docview", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Clean pages: print the topic content of each PAGE (text, a JSON report of every block
    /// kept or dropped and why, or the topic content page as HTML).
    Extract(ExtractArgs),
    /// Score a cleaner on a labelled corpus set (the layout of ../shared/corpus): word-level
    /// bag-of-words precision, recall and F1 per page, macro-averaged, overall and per page
    /// type, with pages/s and MB/s of HTML per core.
    Eval(EvalArgs),
    /// The main job: clean a crawled collection (WARC, folders of pages, JSONL), remove replicas,
    /// write one DocView record per kept page (OUT/docviews.jsonl), the removed replicas
    /// (OUT/replicas.jsonl), the collection statistics (OUT/stats.json) and three Tantivy
    /// indexes (OUT/index/fulltext, topic, abstract), then print a summary. Commits every
    /// --commit-every pages; an interrupted run continues with --resume.
    Ingest(IngestArgs),
    /// Search one of the indexes of an ingest: URL, title, score and a snippet per hit
    /// (matched terms in [[ ]]).
    Query(QueryArgs),
    /// Compare the three indexes of an ingest (the paper's Table 3 and Figure 6, and more):
    /// size, query cost and, with --corpus, retrieval quality; prints tables and writes
    /// compare.json and a self-contained compare.html.
    Compare(CompareArgs),
    /// Measure replica removal on real pages, the way the paper did (§7.2, Table 2): `build` a
    /// benchmark of base, near-replica and non-replica pages from a labelled set, then `eval`
    /// the fingerprints on it.
    Replicas(ReplicasArgs),
    /// Write the labelled blocks of labelled sets as CSV: one row per text block (a visible
    /// block with words of its own) with the set, page id, site, page type, node id, the
    /// learned cleaner's features, the block's own terms, the share of its tokens the
    /// reference holds in context, and its 0/1 label (1 when that share is at least 0.5).
    /// pandas and polars read it directly.
    Blocks(BlocksArgs),
    /// Train the learned cleaner's block model on labelled sets (gradient-boosted trees on the
    /// blocks that `docview blocks` writes) and write it as a model file for --model. Same
    /// sets and parameters, byte-identical model.
    TrainCleaner(TrainCleanerArgs),
    /// The content classifier of the DocView's classification code: gradient-boosted trees
    /// over each page's signals (markup, schema.org types, URL, phrases), or the paper's
    /// chi-square term selection and kNN over the Formula 2 vectors of each page's topic
    /// content or raw page (004 §7.1). `train` writes a model from labelled sets; `eval`
    /// scores a model, or cross-validates by site.
    Classify(ClassifyArgs),
    /// `ingest` cut into stages that read and write files, for an engine that runs one task
    /// per shard (Spark: scripts/spark_stages.py) or for the local process pool here. `plan`
    /// fixes the inputs and settings in a work folder, `run` runs one task of one stage,
    /// `pool` runs every stage with N processes at once. The output folder (--out of the
    /// plan) holds the same records, replicas, skipped inputs, statistics and indexes as
    /// `docview ingest` with the same inputs and flags.
    Stages(StagesArgs),
}

#[derive(Debug, clap::Args)]
struct StagesArgs {
    #[command(subcommand)]
    command: StagesCommand,
}

#[derive(Debug, Subcommand)]
enum StagesCommand {
    /// Plan a sharded ingest in a work folder: the inputs (each crawl file, each page file of
    /// a folder a unit; shard r of n takes units r, r+n, ...) and every ingest flag. Planning
    /// the same run again in the same folder keeps its finished tasks.
    Plan(Box<StagesPlanArgs>),
    /// Run one task of one stage (stats, merge-stats, pages, pairs, resolve, finalise,
    /// merge; the per-shard stages have one task per shard, the others one). A task whose
    /// completion marker (WORK/done/STAGE-TASK) exists is skipped.
    Run(StagesRunArgs),
    /// Run every stage of a planned work folder with a local pool of processes (each task a
    /// `docview stages run`), stage after stage; finished tasks are skipped, so a run stopped
    /// at any point continues where it was. Each task uses the plan's --threads (0: every
    /// core): plan with --threads 1 to run one task per core.
    Pool(StagesPoolArgs),
    /// The stages of a planned work folder in run order, each with its number of tasks (one
    /// line each, or --json), for an engine that schedules them (scripts/spark_stages.py).
    List(StagesListArgs),
}

#[derive(Debug, clap::Args)]
struct StagesListArgs {
    /// The work folder of a plan.
    #[arg(long, value_name = "DIR")]
    work: PathBuf,
    /// Print a JSON array of {"stage", "tasks"}.
    #[arg(long)]
    json: bool,
}

#[derive(Debug, clap::Args)]
struct StagesPlanArgs {
    /// The work folder: the plan, each shard's files and the completion markers.
    #[arg(long, value_name = "DIR")]
    work: PathBuf,
    /// Shards: tasks of the per-shard stages.
    #[arg(long, value_name = "N")]
    shards: usize,
    #[command(flatten)]
    ingest: IngestArgs,
}

#[derive(Debug, clap::Args)]
struct StagesRunArgs {
    /// The stage.
    #[arg(value_name = "STAGE")]
    stage: String,
    /// The work folder of a plan.
    #[arg(long, value_name = "DIR")]
    work: PathBuf,
    /// The task (the shard, or the part of the LSH bands for pairs), from 0.
    #[arg(long, value_name = "N", default_value_t = 0)]
    task: usize,
}

#[derive(Debug, clap::Args)]
struct StagesPoolArgs {
    /// The work folder of a plan.
    #[arg(long, value_name = "DIR")]
    work: PathBuf,
    /// Tasks run at once.
    #[arg(long, value_name = "N", default_value_t = 2)]
    workers: usize,
    /// No line per task.
    #[arg(long, short)]
    quiet: bool,
}

#[derive(Debug, clap::Args)]
struct ClassifyArgs {
    #[command(subcommand)]
    command: ClassifyCommand,
}

#[derive(Debug, Subcommand)]
enum ClassifyCommand {
    /// Train a classifier on labelled sets (the layout of ../shared/corpus) and write it as a
    /// model file. The class of a page is a string field of its ground truth (--label); pages
    /// without one are left out. Same sets and flags, byte-identical model.
    Train(ClassifyTrainArgs),
    /// Score a model on labelled sets (--model), or cross-validate (--folds N: N folds by
    /// site, no site on both sides, a model trained on the others scoring each fold): per
    /// class precision, recall and F1 (Formulas 4-6), macro F1, accuracy and the confusion
    /// matrix. With --compare-raw, the same for raw-page vectors beside it.
    Eval(ClassifyEvalArgs),
}

/// The kinds of content classifier.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum ClassifyMethod {
    /// Gradient-boosted trees over the page's signals.
    Trees,
    /// The paper's kNN over Formula 2 vectors.
    Knn,
}

/// What the classifier is trained on and how.
#[derive(Debug, clap::Args)]
struct ClassifyOpts {
    /// Labelled set folders holding html/<id>.html.gz and ground-truth/<id>.json.
    #[arg(value_name = "SET", required = true)]
    sets: Vec<PathBuf>,
    /// The ground-truth field that holds each page's class.
    #[arg(long, value_name = "FIELD", default_value = "page_type")]
    label: String,
    /// The kind of classifier: `trees` (one-vs-rest gradient-boosted trees over the page's
    /// signals) or `knn` (the paper's chi-square terms and nearest neighbours).
    #[arg(long, value_enum, default_value_t = ClassifyMethod::Trees)]
    method: ClassifyMethod,
    /// Trees per class (--method trees).
    #[arg(long, value_name = "N", default_value_t = docview::classifier::TreeParams::default().trees)]
    trees: usize,
    /// Depth limit of each tree, 1 to 12 (--method trees).
    #[arg(long, value_name = "D", default_value_t = docview::classifier::TreeParams::default().max_depth)]
    depth: usize,
    /// The most common URL words and title words kept as features, each (--method trees).
    #[arg(long, value_name = "N", default_value_t = docview::classifier::TreeParams::default().words)]
    words: usize,
    /// Classify the raw page (every visible block) instead of its topic content (--method knn).
    #[arg(long)]
    raw: bool,
    /// Neighbours that vote (--method knn).
    #[arg(long, value_name = "K", default_value_t = docview::classifier::Params::default().k)]
    k: usize,
    /// Terms of highest chi-square kept per class, the vocabulary (--method knn).
    #[arg(long, value_name = "N", default_value_t = docview::classifier::Params::default().terms_per_class)]
    terms: usize,
    /// The weight of each structural term beside the text's (--method knn: the page type of §4.1, the
    /// words of the URL's path, the sizes of the page's parts); 0 classifies by text alone.
    #[arg(long, value_name = "W", default_value_t = docview::classifier::Params::default().structure)]
    structure: f32,
    /// Worker threads (0: one per core); the results do not depend on it.
    #[arg(long, value_name = "N", default_value_t = 0)]
    threads: usize,
}

#[derive(Debug, clap::Args)]
struct ClassifyTrainArgs {
    #[command(flatten)]
    opts: ClassifyOpts,
    /// The model file to write.
    #[arg(long, value_name = "MODEL")]
    out: PathBuf,
}

#[derive(Debug, clap::Args)]
struct ClassifyEvalArgs {
    #[command(flatten)]
    opts: ClassifyOpts,
    /// The model to score (its --raw, --k and --terms are its own).
    #[arg(
        long,
        value_name = "MODEL",
        conflicts_with = "folds",
        required_unless_present = "folds"
    )]
    model: Option<PathBuf>,
    /// Write each page's cross-validated prediction as JSON lines to FILE (set, id, class,
    /// predicted class, and the page's shape: its page type of §4.1, links, words, paragraphs,
    /// hub blocks, the links of its topic content and their anchor words); with --compare-raw,
    /// the first method's.
    #[arg(long, value_name = "FILE", requires = "folds")]
    predictions: Option<PathBuf>,
    /// Cross-validate with this many folds by site instead of scoring a model.
    #[arg(long, value_name = "N")]
    folds: Option<usize>,
    /// With --folds: the same cross-validation on raw-page vectors, beside the topic content's.
    #[arg(long, requires = "folds")]
    compare_raw: bool,
}

/// Parameters of training a block model.
#[derive(Debug, Clone, clap::Args)]
struct TrainOpts {
    /// Boosting rounds (trees).
    #[arg(long, value_name = "N", default_value_t = TrainParams::default().trees)]
    trees: usize,
    /// Depth limit of each tree, 1 to 12 (the scorer lays trees out complete to their depth).
    #[arg(long, value_name = "N", default_value_t = TrainParams::default().max_depth)]
    max_depth: usize,
    /// Shrinkage of each tree's values.
    #[arg(long, value_name = "RATE", default_value_t = TrainParams::default().learning_rate)]
    learning_rate: f32,
    /// Seed of any randomness in training.
    #[arg(long, value_name = "S", default_value_t = TrainParams::default().seed)]
    seed: u64,
    /// Also learn a lexicon: how much more often each word and word pair of the labelled
    /// pages stood in content than in boilerplate, four more features per block (cross-fitted
    /// by site in training). Off in the shipped model: cross-validated it gains 0.003 on
    /// wcxb-dev and dragnet-dev but loses 0.017 on zh-news-dev (README).
    #[arg(long)]
    lexicon: bool,
    /// Also train a site stage: what the other pages of a block's site repeat (its exact
    /// text, its tag path, the texts that path holds, common tokens) as five more features,
    /// read where the page's site has 4 or more pages and only to lower a block's score. The
    /// model's cleaner then learns each site's evidence first (eval, ingest). Off in the
    /// shipped model: cross-validated it gains 0.008 on dragnet-dev (0.014 on its sites of 5
    /// or more pages) but loses 0.005 on wcxb-dev's collection pages (README).
    #[arg(long)]
    site_evidence: bool,
}

impl TrainOpts {
    fn params(&self, threads: usize) -> Result<TrainParams> {
        if self.trees == 0 || !(1..=MAX_TREE_DEPTH).contains(&self.max_depth) {
            bail!(
                "--trees must be at least 1 and --max-depth from 1 to {MAX_TREE_DEPTH}, not {} and {}",
                self.trees,
                self.max_depth
            );
        }
        if !(self.learning_rate > 0.0 && self.learning_rate <= 1.0) {
            bail!(
                "--learning-rate must be in (0, 1], not {}",
                self.learning_rate
            );
        }
        Ok(TrainParams {
            trees: self.trees,
            max_depth: self.max_depth,
            learning_rate: self.learning_rate,
            seed: self.seed,
            lexicon: self.lexicon,
            site_evidence: self.site_evidence,
            threads,
        })
    }
}

#[derive(Debug, clap::Args)]
struct BlocksArgs {
    /// Labelled set folders holding html/<id>.html.gz and ground-truth/<id>.json.
    #[arg(required = true, value_name = "SET")]
    sets: Vec<PathBuf>,
    /// The CSV file to write.
    #[arg(long, value_name = "FILE.csv")]
    out: PathBuf,
    /// Worker threads (0: one per core); the output does not depend on it.
    #[arg(long, value_name = "N", default_value_t = 0)]
    threads: usize,
}

#[derive(Debug, clap::Args)]
struct TrainCleanerArgs {
    /// Labelled set folders holding html/<id>.html.gz and ground-truth/<id>.json.
    #[arg(required = true, value_name = "SET")]
    sets: Vec<PathBuf>,
    /// The model file to write (JSON; gzip-compressed when the name ends in .gz).
    #[arg(long, value_name = "MODEL")]
    out: PathBuf,
    #[command(flatten)]
    train: TrainOpts,
    /// Worker threads (0: one per core); the model does not depend on it.
    #[arg(long, value_name = "N", default_value_t = 0)]
    threads: usize,
}

#[derive(Debug, clap::Args)]
struct CompareArgs {
    /// The output directory of an ingest.
    #[arg(value_name = "DIR")]
    dir: PathBuf,
    /// A labelled set (layout of ../shared/corpus) whose pages were ingested into DIR: measures
    /// hit@10 of its content snippets, false-hit rate@10 of its boilerplate snippets and MRR@10
    /// of its titles; without --queries its titles are also the query set of the cost part.
    #[arg(long, value_name = "SET")]
    corpus: Option<PathBuf>,
    /// A query log for the cost part: one query a line (# comments and blank lines ignored).
    #[arg(long, value_name = "FILE")]
    queries: Option<PathBuf>,
    /// Without --queries and --corpus: draw this many queries of one to three words from the
    /// full-text vocabulary, by document frequency.
    #[arg(long, value_name = "N", default_value_t = 100)]
    vocabulary: usize,
    /// Seed of the vocabulary draw.
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// Timed warm runs of each query.
    #[arg(long, value_name = "N", default_value_t = 5)]
    runs: usize,
    /// Worker threads for the retrieval queries (0: one per core).
    #[arg(long, value_name = "N", default_value_t = 0)]
    threads: usize,
    /// Where to write compare.json and compare.html (default: DIR).
    #[arg(long, value_name = "OUT")]
    out: Option<PathBuf>,
}

#[derive(Debug, clap::Args)]
struct ReplicasArgs {
    #[command(subcommand)]
    command: ReplicasCommand,
}

#[derive(Debug, Subcommand)]
enum ReplicasCommand {
    /// Build a near-replica benchmark from a labelled set. Each page's main content is located
    /// from its reference text (the smallest element of <body> holding at least
    /// --min-coverage of the reference's tokens); pages where it cannot be are left out. The
    /// rest are split by the seed into base pages and donors. Writes OUT/base/<id>.html (the
    /// page as it is), OUT/near/<id>.html (its main content in another base page's
    /// template), OUT/non/<id>.html (its template holding a donor's main content),
    /// OUT/pairs.jsonl and OUT/benchmark.json. Same set and seed, byte-identical output.
    Build(BuildArgs),
    /// Run the paper's experiment on a benchmark made by `build`: each near-replica and
    /// non-replica is asked against the base pages; prints hits (near-replicas matched to their
    /// own base page) and errors (non-replicas matched to any base page) for the exact
    /// fingerprint, for the keyword fingerprint over Percentage 10%..100% x Interval 1..10 and
    /// for MinHash LSH (J >= 0.3, 0.5, 0.7), on the raw pages, on their topic content and on
    /// their replica text (what ingest fingerprints: the page's own text, without the lines of
    /// its site's template, learnt from the benchmark; a page's site is its template's), and
    /// writes DIR/eval.json.
    Eval(ReplicasEvalArgs),
}

#[derive(Debug, clap::Args)]
struct BuildArgs {
    /// A labelled set folder holding html/<id>.html.gz and ground-truth/<id>.json.
    #[arg(value_name = "SET")]
    set: PathBuf,
    /// Output folder: created, or empty.
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Seed of the base/donor split and of the pairings.
    #[arg(long, value_name = "N", default_value_t = BuildOptions::default().seed)]
    seed: u64,
    /// Least share of the reference's tokens the main-content node must hold (0 to 1).
    #[arg(long, value_name = "SHARE", default_value_t = BuildOptions::default().min_coverage)]
    min_coverage: f32,
    /// Worker threads (0: one per core); the output does not depend on it.
    #[arg(long, value_name = "N", default_value_t = 0)]
    threads: usize,
    /// How near-replicas and non-replicas are made: paper (the main content moved into
    /// another page's template, nothing else changed) or transplant (harder: the title,
    /// description, Open Graph and JSON-LD of the head move with the content, no page keeps
    /// its <base>, canonical link or og:url, and a near-replica's template is a page of another
    /// page type where the set has types).
    #[arg(long, value_enum, value_name = "RULES", default_value = "paper")]
    rules: BenchmarkRules,
}

/// The rules of `docview replicas build`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum BenchmarkRules {
    /// The paper's: the main content moved into another page's template.
    Paper,
    /// Also the head metadata moved, addresses removed, templates of other page types.
    Transplant,
}

impl From<BenchmarkRules> for Rules {
    fn from(rules: BenchmarkRules) -> Rules {
        match rules {
            BenchmarkRules::Paper => Rules::Paper,
            BenchmarkRules::Transplant => Rules::Transplant,
        }
    }
}

#[derive(Debug, clap::Args)]
struct ReplicasEvalArgs {
    /// A benchmark folder made by `docview replicas build`.
    #[arg(value_name = "DIR")]
    dir: PathBuf,
    /// The cleaner that makes the topic content.
    #[arg(long, value_name = "NAME", default_value = DEFAULT_CLEANER, value_parser = clap::builder::PossibleValuesParser::new(CLEANERS))]
    cleaner: String,
    /// The learned cleaner's block model file, from `docview train-cleaner` (default: the model
    /// inside the binary).
    #[arg(long, value_name = "MODEL")]
    model: Option<PathBuf>,
    /// Worker threads (0: one per core).
    #[arg(long, value_name = "N", default_value_t = 0)]
    threads: usize,
    /// Where to write the JSON report (default: DIR/eval.json).
    #[arg(long, value_name = "FILE")]
    report: Option<PathBuf>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum ReplicaDetection {
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
struct IngestArgs {
    /// Crawled input: WARC or WARC.gz files (HTML response and resource records), folders of pages (recursive;
    /// .html, .htm and their .gz), JSONL files of {"url", "html"} lines, or `-` for JSONL on
    /// standard input.
    #[arg(required = true, value_name = "INPUT")]
    inputs: Vec<PathBuf>,
    /// Output directory: created, or empty (or an interrupted ingest with --resume).
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// The cleaner to use. A site-aware one (infodiscoverer, infodiscoverer-table, wisdom, and
    /// learned with a --model trained with site evidence; the shipped model has none) first
    /// reads the inputs to learn a model of each web site (each host's first 64 pages), then
    /// cleans each page with its site's model; the summary counts the pages that had one.
    #[arg(long, value_name = "NAME", default_value = DEFAULT_CLEANER, value_parser = clap::builder::PossibleValuesParser::new(CLEANERS))]
    cleaner: String,
    /// The learned cleaner's block model file, from `docview train-cleaner` (default: the model
    /// inside the binary).
    #[arg(long, value_name = "MODEL")]
    model: Option<PathBuf>,
    /// Clean every page alone, without learning site models first: one read of the inputs
    /// less; the learned cleaner then has no site evidence, infodiscoverer and wisdom clean by
    /// their fallback.
    #[arg(long)]
    pages_alone: bool,
    /// The classifier model that fills each DocView's classification code, from `docview
    /// classify train`, trees or kNN (default: the trees inside the binary, wcxb-dev's page
    /// types: `page_type:article`, ...).
    #[arg(long, value_name = "MODEL", conflicts_with = "no_classifier")]
    classifier: Option<PathBuf>,
    /// Leave the classification codes empty (no classifier).
    #[arg(long)]
    no_classifier: bool,
    /// Worker threads that clean and integrate pages (0: one per core). Beside them the input
    /// reader, the writer of records (which writes one batch while the workers process the
    /// next) and tantivy's indexing threads run; the output does not depend on it.
    #[arg(long, value_name = "N", default_value_t = 0)]
    threads: usize,
    /// λ: keywords per DocView, the heaviest features of the topic content.
    #[arg(long, value_name = "λ", default_value_t = IntegrateParams::default().keywords)]
    keywords: usize,
    /// δ: sentences in each abstract.
    #[arg(long, value_name = "δ", default_value_t = IntegrateParams::default().sentences)]
    sentences: usize,
    /// θ: keywords that weigh the sentences of the abstract.
    #[arg(long, value_name = "θ", default_value_t = IntegrateParams::default().theta)]
    theta: usize,
    /// β: a hub block's links are relevant when the cosine of its text with the topic content
    /// exceeds this (0 to 1).
    #[arg(long, value_name = "β", default_value_t = IntegrateParams::default().beta)]
    beta: f32,
    /// Which fingerprints find replicas (exact copies are always found first).
    #[arg(long, value_enum, default_value_t = ReplicaDetection::Minhash)]
    replicas: ReplicaDetection,
    /// With --replicas minhash: least estimated Jaccard similarity of the 5-word shingle sets
    /// of two replica texts for the later page to be a near-replica (above 0, at most 1).
    #[arg(long, value_name = "J", default_value_t = MinHashParams::default().threshold)]
    minhash_threshold: f32,
    /// Percentage: share of a page's features that make its keyword fingerprint (0 to 1).
    #[arg(long, value_name = "P", default_value_t = KeywordParams::default().percentage)]
    percentage: f32,
    /// Interval: the number of features hashed is a multiple of this.
    #[arg(long, value_name = "N", default_value_t = KeywordParams::default().interval)]
    interval: usize,
    /// Collection statistics (a stats.json of an earlier ingest) instead of a first pass over
    /// the inputs (which cleans every page and keeps the cleaned pages in DIR/pages.spill
    /// for the second pass until the run completes).
    #[arg(long, value_name = "FILE")]
    stats: Option<PathBuf>,
    /// An incremental crawl: the --out folder of a finished earlier run (ingest or stages),
    /// whose kept pages this run's pages are checked against first. A page that repeats one
    /// (exact copy or near-replica, with the same --replicas settings) is a replica of it,
    /// named with the run in replicas.jsonl (`replica_of_run`), and is not kept or indexed
    /// again. Repeat the flag for several runs, oldest first: each folder holds only the
    /// pages its own run kept.
    #[arg(long, value_name = "DIR")]
    earlier: Vec<PathBuf>,
    /// A feature found in more than this share of the pages' topic content joins the
    /// aggressive stop-word list (collections of 50 pages or more).
    #[arg(long, value_name = "SHARE", default_value_t = StopwordParams::default().min_df_share)]
    stopword_df: f32,
    /// Pages between commits (each commit makes the records and indexes durable).
    #[arg(long, value_name = "PAGES", default_value_t = 1000)]
    commit_every: u64,
    /// Continue the interrupted ingest in --out from its last commit (same inputs and
    /// settings).
    #[arg(long, conflicts_with = "overwrite")]
    resume: bool,
    /// Replace the output of an earlier ingest in --out (a folder that is not one is never
    /// touched).
    #[arg(long)]
    overwrite: bool,
    /// Memory for each of the three index writers, in MB.
    #[arg(long, value_name = "MB", default_value_t = 64)]
    index_memory: usize,
    /// Also write the DocView records as OUT/docviews.parquet when the run completes (one row
    /// per kept page; keywords, relevant links and replicas as JSON text; the whole record in
    /// `record`), which Spark, DuckDB, pandas and polars read directly.
    #[arg(long)]
    parquet: bool,
    /// Also render each record's topic content as Markdown, in its `topic_markdown` field
    /// (headings, lists, tables, fenced code blocks, absolute links): what pipelines that feed
    /// language models store.
    #[arg(long)]
    markdown: bool,
    /// No progress bar or progress lines.
    #[arg(long, short)]
    quiet: bool,
    /// When standard error is not a terminal (cron, CI, nohup, a log file), print a plain
    /// progress line every SECS seconds instead of a bar.
    #[arg(long, value_name = "SECS", default_value_t = 30)]
    progress_every: u64,
    #[command(flatten)]
    limits: LimitArgs,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum IndexArg {
    /// All visible text of each raw page: what a naive engine indexes.
    Fulltext,
    /// The topic content.
    Topic,
    /// Title, abstract and keywords.
    Abstract,
}

#[derive(Debug, clap::Args)]
struct QueryArgs {
    /// The output directory of an ingest.
    #[arg(value_name = "DIR")]
    dir: PathBuf,
    /// The query: words (stemmed and segmented as the index was), "phrases", +required,
    /// -excluded (also first: `-draft notes`), title:word, (groups), AND, OR, NOT. At most 64
    /// `(` and `NOT` and 4,096 bytes. A query that is also a flag of this command (`-k`,
    /// `--json`) needs `--` before it.
    #[arg(value_name = "QUERY", allow_hyphen_values = true)]
    query: String,
    /// Which index to search.
    #[arg(long, value_enum, default_value_t = IndexArg::Topic)]
    index: IndexArg,
    /// Number of hits (at most the index's documents).
    #[arg(short, long, value_name = "K", default_value_t = 10)]
    k: usize,
    /// Print the hits as JSON lines.
    #[arg(long)]
    json: bool,
    /// Also show the query's terms as indexed (lowercased, stemmed, segmented) and their
    /// posting lists: documents holding each and the bytes read.
    #[arg(long)]
    explain: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Format {
    /// The topic content as plain text: headings on their own lines, paragraphs separated by
    /// blank lines.
    Text,
    /// One JSON object per page: page type, title, charset, topic root, paragraphs, and every
    /// block of the tag tree with its weight, type, verdict and the reason.
    Json,
    /// The topic content page (004 §4.2): the purified page in its original layout.
    Html,
    /// The topic content as Markdown: headings, paragraphs, lists, tables, fenced code blocks
    /// kept verbatim, links and images with absolute URLs (resolved against --url, else the
    /// page's declared address).
    Markdown,
}

#[derive(Debug, clap::Args)]
struct ExtractArgs {
    /// Page files to clean: HTML, gzip-compressed HTML (found by content, whatever the name),
    /// or `-` for standard input.
    #[arg(required = true, value_name = "PAGE")]
    pages: Vec<PathBuf>,
    /// The page's URL (with one PAGE only): reported in JSON output, and what the Markdown
    /// output resolves relative links and images against.
    #[arg(long, value_name = "URL")]
    url: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    format: Format,
    /// The cleaner to use. A site-aware one (infodiscoverer, wisdom) has no site to learn from
    /// in a page alone and cleans it with the default cleaner (the JSON report's `site_model`
    /// says so); `docview eval` and `docview ingest` show it each site's pages together.
    #[arg(long, value_name = "NAME", default_value = DEFAULT_CLEANER, value_parser = clap::builder::PossibleValuesParser::new(CLEANERS))]
    cleaner: String,
    /// The learned cleaner's block model file, from `docview train-cleaner` (default: the model
    /// inside the binary).
    #[arg(long, value_name = "MODEL")]
    model: Option<PathBuf>,
    /// The charset the page was served with (an HTTP Content-Type charset). Without it the
    /// charset comes from the byte order mark, a UTF-8 check, the page's <meta> declaration,
    /// or detection, in that order.
    #[arg(long, value_name = "LABEL")]
    charset: Option<String>,
    #[command(flatten)]
    limits: LimitArgs,
}

/// What one page may cost; a page past a limit is cut there and its record says so.
#[derive(Debug, clap::Args)]
struct LimitArgs {
    /// Most decoded HTML parsed per page, in MiB; the rest of a bigger page is cut (parsing
    /// takes about 30 times a page's size in memory).
    #[arg(long, value_name = "MIB", default_value_t = PageLimits::default().max_html_bytes >> 20)]
    max_page_mb: usize,
    /// Most elements (start tags) parsed per page; the rest of the page is cut.
    #[arg(long, value_name = "N", default_value_t = PageLimits::default().max_tags)]
    max_page_tags: usize,
}

impl LimitArgs {
    fn limits(&self) -> Result<PageLimits> {
        let limits = PageLimits {
            max_html_bytes: self.max_page_mb.saturating_mul(1 << 20),
            max_tags: self.max_page_tags,
        };
        limits.validate()?;
        Ok(limits)
    }
}

#[derive(Debug, clap::Args)]
struct EvalArgs {
    /// Labelled set folders holding html/<id>.html.gz and ground-truth/<id>.json; each is
    /// scored on its own (with --folds, the folds are drawn over all of them together).
    #[arg(required = true, value_name = "SET")]
    sets: Vec<PathBuf>,
    /// Also print the scores per page type.
    #[arg(long)]
    by_type: bool,
    /// Write the predictions as JSON lines, {"file_id": ..., "main_content": ...}, for any other
    /// scorer to check.
    #[arg(long, value_name = "PRED.jsonl")]
    out: Option<PathBuf>,
    /// Write the whole report (per-page scores included) as JSON.
    #[arg(long, value_name = "REPORT.json")]
    report: Option<PathBuf>,
    /// The cleaner to score, or `all`: every cleaner on each SET, compared in one table
    /// (F1 overall and per page type, pages/s).
    #[arg(long, value_name = "NAME", default_value = DEFAULT_CLEANER, value_parser = eval_cleaner_names())]
    cleaner: String,
    /// The learned cleaner's block model file (default: the model inside the binary).
    #[arg(long, value_name = "MODEL")]
    model: Option<PathBuf>,
    /// Cross-validate the learned cleaner instead of scoring a model: split the pages of all
    /// SETs into N folds by site (no site in two folds: the ground truth's `site`, else the
    /// URL's registered domain), train a model on N-1 folds, score the pages of the last, for
    /// each fold. Prints the figures per set and page type; --report writes one report per set
    /// (REPORT with the set's name added before the extension).
    #[arg(long, value_name = "N")]
    folds: Option<usize>,
    /// Clean every page alone, without the model of its site: the learned cleaner without its
    /// site evidence, a site-aware cleaner such as infodiscoverer or wisdom by its fallback. To
    /// measure what the site models gain (with --folds too).
    #[arg(long)]
    pages_alone: bool,
    #[command(flatten)]
    train: TrainOpts,
    /// Worker threads (0: one per core).
    #[arg(long, value_name = "N", default_value_t = 0)]
    threads: usize,
}

/// Writes to standard output. Unlike `print!`, which panics, a closed pipe (`docview ... |
/// head`) comes back as an error, which `main` takes for the normal end of the output.
fn write_stdout(args: std::fmt::Arguments<'_>) -> std::io::Result<()> {
    std::io::stdout().lock().write_fmt(args)
}

/// `print!` that returns a closed pipe as an error (see [`write_stdout`]).
macro_rules! out {
    ($($arg:tt)*) => {
        write_stdout(format_args!($($arg)*))?
    };
}

/// `println!` that returns a closed pipe as an error (see [`write_stdout`]).
macro_rules! outln {
    ($($arg:tt)*) => {
        write_stdout(format_args!("{}\n", format_args!($($arg)*)))?
    };
}

/// True when the error comes from writing to a pipe whose reader has gone (`| head`).
fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|cause| {
        let kind = match cause.downcast_ref::<std::io::Error>() {
            Some(io) => Some(io.kind()),
            // serde_json's writer errors hold the I/O error without giving it as a source.
            None => cause
                .downcast_ref::<serde_json::Error>()
                .and_then(serde_json::Error::io_error_kind),
        };
        kind == Some(std::io::ErrorKind::BrokenPipe)
    })
}

fn main() {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Extract(args) => extract(args),
        Command::Eval(args) => eval(args),
        Command::Ingest(args) => run_ingest(args),
        Command::Query(args) => query(args),
        Command::Compare(args) => run_compare(args),
        Command::Blocks(args) => blocks(args),
        Command::TrainCleaner(args) => train_cleaner(args),
        Command::Classify(args) => match args.command {
            ClassifyCommand::Train(args) => classify_train(args),
            ClassifyCommand::Eval(args) => classify_eval(args),
        },
        Command::Stages(args) => match args.command {
            StagesCommand::Plan(args) => stages_plan(*args),
            StagesCommand::Run(args) => stages_run(args),
            StagesCommand::Pool(args) => stages_pool(args),
            StagesCommand::List(args) => stages_list(args),
        },
        Command::Replicas(args) => match args.command {
            ReplicasCommand::Build(args) => replicas_build(args),
            ReplicasCommand::Eval(args) => replicas_eval(args),
        },
    };
    let result = result.and_then(|()| Ok(std::io::stdout().flush()?));
    if let Err(e) = result {
        if is_broken_pipe(&e) {
            // The reader has all it wanted: a normal end, as for grep and ripgrep.
            std::process::exit(0);
        }
        eprintln!("docview: {}", error_chain(&e));
        std::process::exit(1);
    }
}

/// The error and its causes in one line, each cause left out when the message before already
/// says it (docview's errors name their input and include the underlying error's text).
fn error_chain(e: &anyhow::Error) -> String {
    let mut message = e.to_string();
    for cause in e.chain().skip(1) {
        let cause = cause.to_string();
        if !message.contains(&cause) {
            message.push_str(": ");
            message.push_str(&cause);
        }
    }
    message
}

fn extract(args: ExtractArgs) -> Result<()> {
    if args.url.is_some() && args.pages.len() > 1 {
        bail!(
            "--url names one page, but {} pages were given",
            args.pages.len()
        );
    }
    let cleaner = cleaner_with_model(args.cleaner.parse()?, args.model.as_deref())?;
    let limits = args.limits.limits()?;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut failed = 0usize;
    for (i, path) in args.pages.iter().enumerate() {
        let name = path.display().to_string();
        let page = read_page_bytes(path)
            .map_err(docview::Error::from)
            .and_then(|bytes| {
                let charset = args.charset.as_deref();
                Ok(extract_page_in_site(
                    &bytes,
                    charset,
                    &name,
                    args.url.as_deref(),
                    cleaner.as_ref(),
                    None,
                    &limits,
                )?)
            });
        let page = match page {
            Ok(page) => page,
            Err(e) => {
                eprintln!("docview: {e}");
                failed += 1;
                continue;
            }
        };
        if let Some(why) = &page.truncated {
            eprintln!("docview: {name}: {why}");
        }
        if let Some(why) = page.empty_topic(cleaner.as_ref()) {
            eprintln!("docview: {name}: the topic content is empty: {why}");
        }
        match args.format {
            Format::Text => {
                if args.pages.len() > 1 {
                    if i > 0 {
                        writeln!(out)?;
                    }
                    writeln!(out, "==> {name} <==")?;
                }
                writeln!(out, "{}", page.cleaned.topic_text)?;
            }
            Format::Json => {
                let report = page.report(&name, args.url.as_deref(), cleaner.as_ref());
                serde_json::to_writer(&mut out, &report)?;
                writeln!(out)?;
            }
            Format::Html => {
                write!(out, "{}", topic_content_page(&page.tree, &page.cleaned))?;
            }
            Format::Markdown => {
                if args.pages.len() > 1 {
                    if i > 0 {
                        writeln!(out)?;
                    }
                    writeln!(out, "==> {name} <==")?;
                }
                write!(out, "{}", page.markdown())?;
            }
        }
    }
    out.flush()?;
    if failed > 0 {
        bail!(
            "{failed} of {} pages could not be cleaned",
            args.pages.len()
        );
    }
    Ok(())
}

fn eval(args: EvalArgs) -> Result<()> {
    if let Some(folds) = args.folds {
        return eval_folds(&args, folds);
    }
    if args.out.is_some() && args.sets.len() > 1 {
        bail!(
            "--out takes the predictions of one SET, but {} were given",
            args.sets.len()
        );
    }
    if args.cleaner == "all" {
        return eval_all(&args);
    }
    let cleaner = cleaner_with_model(args.cleaner.parse()?, args.model.as_deref())?;
    for set in &args.sets {
        let pages = load_scored_set(set)?;
        let nulls = pages.iter().filter(|p| p.null_reference).count();
        if nulls > 0 {
            eprintln!(
                "docview: {}: {nulls} ground-truth files have \"main_content\": null, scored as \
                 empty references",
                set.display()
            );
        }
        let report = score_cleaner(
            &pages,
            set,
            cleaner.as_ref(),
            args.threads,
            args.out.is_some(),
            !args.pages_alone,
        )?;
        out!("{}", report.render_table(args.by_type));
        if let Some(out) = &args.out {
            report
                .write_predictions_jsonl(out)
                .with_context(|| format!("writing predictions to {}", out.display()))?;
            eprintln!("predictions written to {}", out.display());
        }
        if let Some(path) = &args.report {
            let path = report_path(path, &report.set, args.sets.len() > 1);
            write_report_json(&path, &report)?;
        }
    }
    Ok(())
}

/// A labelled set's pages; a set without pages is an error naming it.
fn load_scored_set(set: &std::path::Path) -> Result<Vec<docview::eval::LabelledPage>> {
    let pages = load_set(set)?;
    if pages.is_empty() {
        bail!("{}: the set has no pages", set.display());
    }
    Ok(pages)
}

/// Scores `cleaner` on the pages of `set`, saying so on standard error (and, for a site-aware
/// cleaner, how many pages had a site model).
fn score_cleaner(
    pages: &[docview::eval::LabelledPage],
    set: &std::path::Path,
    cleaner: &dyn docview::clean::Cleaner,
    threads: usize,
    keep_predictions: bool,
    site_models: bool,
) -> Result<docview::eval::EvalReport> {
    eprintln!(
        "scoring cleaner {} on {} pages of {}",
        cleaner.name(),
        pages.len(),
        set.display()
    );
    let (report, models) =
        evaluate_cleaner(pages, cleaner, threads, keep_predictions, site_models)?;
    say_site_models(cleaner, &models);
    Ok(report)
}

/// For a site-aware cleaner, how many pages had a site model (on standard error).
fn say_site_models(cleaner: &dyn docview::clean::Cleaner, models: &SiteModels) {
    if cleaner.site_learner().is_none() {
        return;
    }
    eprintln!(
        "{}: site models for {} pages; {} pages (sites of too few pages, no site, a template \
         too rare in its site's sample, or --pages-alone) cleaned without one; {} sites, \
         models learnt in {:.1} s",
        cleaner.name(),
        models.pages_with_model,
        models.pages_without_model,
        models.sites,
        models.learn_secs
    );
}

/// The names `eval --cleaner` takes: every cleaner, and `all`.
fn eval_cleaner_names() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(CLEANERS.iter().copied().chain(["all"]))
}

/// `docview eval --cleaner all`: every cleaner on each set, one comparison table per set.
fn eval_all(args: &EvalArgs) -> Result<()> {
    if args.out.is_some() || args.report.is_some() {
        bail!("--out and --report take one cleaner's results; name it with --cleaner NAME");
    }
    let cleaners = CleanerKind::ALL
        .into_iter()
        .map(|kind| {
            cleaner_with_model(
                kind,
                args.model.as_deref().filter(|_| kind.uses_block_model()),
            )
        })
        .collect::<Result<Vec<_>, _>>()?;
    for set in &args.sets {
        let pages = load_scored_set(set)?;
        let mut reports = Vec::with_capacity(cleaners.len());
        for cleaner in &cleaners {
            let report = score_cleaner(
                &pages,
                set,
                cleaner.as_ref(),
                args.threads,
                false,
                !args.pages_alone,
            )?;
            reports.push((cleaner.name(), report));
        }
        let rows: Vec<(&str, &docview::eval::EvalReport)> =
            reports.iter().map(|(name, r)| (*name, r)).collect();
        out!("{}", docview::eval::EvalReport::render_comparison(&rows));
    }
    Ok(())
}

/// `path`, with `-SET` added before its extension when there are several reports.
fn report_path(path: &std::path::Path, set: &str, several: bool) -> PathBuf {
    if !several {
        return path.to_path_buf();
    }
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let name = match path.extension() {
        Some(ext) => format!("{stem}-{set}.{}", ext.to_string_lossy()),
        None => format!("{stem}-{set}"),
    };
    path.with_file_name(name)
}

fn write_report_json(path: &std::path::Path, report: &docview::eval::EvalReport) -> Result<()> {
    write_atomically(path, |out| {
        serde_json::to_writer_pretty(&mut *out, report).map_err(std::io::Error::from)
    })?;
    eprintln!("report written to {}", path.display());
    Ok(())
}

/// `docview eval --folds N`: site-grouped cross-validation of the learned cleaner.
fn eval_folds(args: &EvalArgs, folds: usize) -> Result<()> {
    if folds < 2 {
        bail!("--folds needs at least 2 folds, not {folds}");
    }
    if args.cleaner != DEFAULT_CLEANER || args.model.is_some() {
        bail!(
            "--folds trains its own models of the learned cleaner: leave out --cleaner and --model"
        );
    }
    if args.out.is_some() {
        bail!("--folds writes no predictions file: use --report for the per-page scores");
    }
    let params = args.train.params(args.threads)?;
    let sets = load_sets(&args.sets)?;
    let pages: usize = sets.iter().map(|s| s.pages.len()).sum();
    eprintln!(
        "labelling the blocks of {pages} pages of {} sets",
        sets.len()
    );
    let blocks = all_blocks(&sets, args.threads)?;
    let sites = site_folds(&blocks, folds).len();
    if sites < folds {
        bail!("the sets hold {sites} sites, fewer than --folds {folds}");
    }
    let cv = cross_validate(
        &sets,
        &blocks,
        folds,
        &params,
        args.threads,
        !args.pages_alone,
        |line| eprintln!("{line}"),
    )?;
    outln!(
        "site-grouped {folds}-fold cross-validation over {pages} pages of {sites} sites \
         (sites per fold: {:?}, pages per fold: {:?})",
        cv.fold_sites,
        cv.fold_pages
    );
    for report in &cv.reports {
        out!("{}", report.render_table(args.by_type));
        if let Some(path) = &args.report {
            write_report_json(&report_path(path, &report.set, true), report)?;
        }
    }
    Ok(())
}

fn blocks(args: BlocksArgs) -> Result<()> {
    let sets = load_sets(&args.sets)?;
    let blocks = all_blocks(&sets, args.threads)?;
    write_atomically(&args.out, |out| write_blocks_csv(&blocks, out))?;
    let rows: usize = blocks.iter().map(|b| b.features.len()).sum();
    eprintln!(
        "{rows} blocks of {} pages written to {}",
        blocks.len(),
        args.out.display()
    );
    Ok(())
}

fn train_cleaner(args: TrainCleanerArgs) -> Result<()> {
    let params = args.train.params(args.threads)?;
    let sets = load_sets(&args.sets)?;
    let blocks = all_blocks(&sets, args.threads)?;
    let all: Vec<_> = blocks.iter().collect();
    let start = std::time::Instant::now();
    let model = train_model(&all, &params)?;
    eprintln!(
        "trained on {} in {:.1} s",
        model.trained_on,
        start.elapsed().as_secs_f64()
    );
    write_model(&model, &args.out)?;
    outln!("model written to {}", args.out.display());
    for (stage, what) in [
        (1, "block features"),
        (2, "block features and context scores"),
        (3, "the site stage: stage 2's rows and the site evidence"),
    ] {
        if stage == 3 && !model.has_site_stage() {
            continue;
        }
        outln!("stage {stage} ({what}), the 12 largest shares of its gain:");
        for (name, share) in model.importance(stage).iter().take(12) {
            outln!("  {name:<28} {share:.3}");
        }
    }
    Ok(())
}

/// The progress of an ingest on standard error: a bar on a terminal, else a plain line every
/// few seconds (a log has no use for a redrawn bar, and silence until the end tells nothing).
struct Bar {
    bar: ProgressBar,
    started: std::sync::Mutex<std::time::Instant>,
    /// Plain lines: how often, when the last was printed, and the phase's name.
    lines: Option<PlainLines>,
}

struct PlainLines {
    every: std::time::Duration,
    last: std::sync::Mutex<Option<std::time::Instant>>,
    phase: std::sync::Mutex<&'static str>,
    total_bytes: std::sync::Mutex<Option<u64>>,
}

impl Bar {
    fn new(quiet: bool, progress_every: u64) -> Bar {
        use std::io::IsTerminal;
        let terminal = std::io::stderr().is_terminal();
        let bar = ProgressBar::with_draw_target(
            None,
            if quiet || !terminal {
                ProgressDrawTarget::hidden()
            } else {
                ProgressDrawTarget::stderr()
            },
        );
        Bar {
            bar,
            started: std::sync::Mutex::new(std::time::Instant::now()),
            lines: (!quiet && !terminal).then(|| PlainLines {
                every: std::time::Duration::from_secs(progress_every),
                last: std::sync::Mutex::new(None),
                phase: std::sync::Mutex::new(""),
                total_bytes: std::sync::Mutex::new(None),
            }),
        }
    }

    fn elapsed_secs(&self) -> f64 {
        self.started
            .lock()
            .map(|t| t.elapsed().as_secs_f64())
            .unwrap_or(0.0)
            .max(1e-3)
    }
}

impl Progress for Bar {
    fn start(&self, phase: Phase, total_bytes: Option<u64>) {
        let label = match phase {
            Phase::Statistics => "statistics",
            Phase::Ingest => "ingest    ",
        };
        self.bar.reset();
        self.bar.set_length(total_bytes.unwrap_or(0));
        // The bar follows the input read (compressed bytes for gzip files); the rates in the
        // message are of HTML, decompressed.
        let template = if total_bytes.is_some() {
            "{prefix} [{elapsed_precise}] {wide_bar} {decimal_bytes}/{decimal_total_bytes} of input, {msg}"
        } else {
            "{prefix} [{elapsed_precise}] {spinner} {decimal_bytes} of input, {msg}"
        };
        if let Ok(style) = ProgressStyle::with_template(template) {
            self.bar.set_style(style);
        }
        self.bar.set_prefix(label);
        if let Ok(mut t) = self.started.lock() {
            *t = std::time::Instant::now();
        }
        if let Some(lines) = &self.lines {
            if let Ok(mut p) = lines.phase.lock() {
                *p = label.trim_end();
            }
            if let Ok(mut t) = lines.total_bytes.lock() {
                *t = total_bytes;
            }
            if let Ok(mut last) = lines.last.lock() {
                *last = Some(std::time::Instant::now());
            }
        }
    }

    fn update(&self, c: &Counters, input_bytes: u64) {
        self.bar.set_position(input_bytes);
        let secs = self.elapsed_secs();
        let rates = format!(
            "{} pages, {:.0} pages/s, {:.1} MB/s of HTML, {} replicas, {} skipped",
            c.pages_read,
            c.pages_read as f64 / secs,
            c.html_bytes as f64 / 1e6 / secs,
            c.replicas(),
            c.skipped_total()
        );
        if let Some(lines) = &self.lines {
            let due = lines.last.lock().ok().is_some_and(|mut last| {
                let due = last.is_none_or(|t| t.elapsed() >= lines.every);
                if due {
                    *last = Some(std::time::Instant::now());
                }
                due
            });
            if due {
                let phase = lines.phase.lock().map(|p| *p).unwrap_or("");
                let of = match lines.total_bytes.lock().ok().and_then(|t| *t) {
                    Some(total) => format!(" of {:.1}", total as f64 / 1e6),
                    None => String::new(),
                };
                eprintln!(
                    "docview: {phase} {secs:.0} s: {:.1}{of} MB of input read, {rates}",
                    input_bytes as f64 / 1e6
                );
            }
        }
        self.bar.set_message(rates);
    }

    fn note(&self, message: &str) {
        self.bar.suspend(|| eprintln!("docview: {message}"));
    }

    fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

fn stages_plan(args: StagesPlanArgs) -> Result<()> {
    let options = ingest_options(args.ingest)?;
    let plan = Plan::new(options, args.shards)?;
    plan.save(&args.work, plan.options.overwrite)?;
    outln!(
        "planned {} input units over {} shards in {}; run the stages with `docview stages pool \
         --work {}` (or one task each with `docview stages run STAGE --work {} --task N`)",
        plan.units.len(),
        plan.shards,
        args.work.display(),
        args.work.display(),
        args.work.display()
    );
    Ok(())
}

fn stages_list(args: StagesListArgs) -> Result<()> {
    let plan = Plan::load(&args.work)?;
    let stages: Vec<(Stage, usize)> = Stage::ALL.iter().map(|&s| (s, plan.tasks(s))).collect();
    if args.json {
        let list: Vec<serde_json::Value> = stages
            .iter()
            .map(|(s, n)| serde_json::json!({"stage": s.as_str(), "tasks": n}))
            .collect();
        outln!("{}", serde_json::Value::Array(list));
    } else {
        for (s, n) in stages {
            outln!("{} {n}", s.as_str());
        }
    }
    Ok(())
}

fn stages_run(args: StagesRunArgs) -> Result<()> {
    let stage: Stage = args.stage.parse()?;
    let started = std::time::Instant::now();
    let outcome = run_task(&args.work, stage, args.task)?;
    eprintln!(
        "{} {}: {} ({:.1} s)",
        stage.as_str(),
        args.task,
        match outcome {
            TaskOutcome::Ran => "done",
            TaskOutcome::AlreadyDone => "already done",
        },
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

fn stages_pool(args: StagesPoolArgs) -> Result<()> {
    let exe = std::env::current_exe().context("finding the docview binary")?;
    let work = args.work.clone();
    let run = |stage: Stage, task: usize| -> docview::Result<TaskOutcome> {
        let output = std::process::Command::new(&exe)
            .args([
                "stages",
                "run",
                stage.as_str(),
                "--task",
                &task.to_string(),
                "--work",
            ])
            .arg(&work)
            .output()
            .map_err(|e| docview::Error::io(&exe, e))?;
        let said = String::from_utf8_lossy(&output.stderr);
        if !output.status.success() {
            return Err(docview::Error::bad_input(
                format!("stage {} task {task}", stage.as_str()),
                said.trim().trim_start_matches("docview: ").to_string(),
            ));
        }
        Ok(if said.contains("already done") {
            TaskOutcome::AlreadyDone
        } else {
            TaskOutcome::Ran
        })
    };
    let quiet = args.quiet;
    let progress = |stage: Stage, task: usize, outcome: TaskOutcome, secs: f64| {
        if !quiet {
            let what = match outcome {
                TaskOutcome::Ran => "done",
                TaskOutcome::AlreadyDone => "already done",
            };
            eprintln!("{} {task}: {what} ({secs:.1} s)", stage.as_str());
        }
    };
    let started = std::time::Instant::now();
    run_stages(&args.work, args.workers, &run, &progress)?;
    let plan = Plan::load(&args.work)?;
    outln!(
        "all stages done in {:.1} s: {} holds the ingest's output",
        started.elapsed().as_secs_f64(),
        plan.options.out.display()
    );
    Ok(())
}

/// The ingest settings of the ingest flags.
fn ingest_options(args: IngestArgs) -> Result<IngestOptions> {
    let mut options = IngestOptions::new(args.inputs, args.out);
    options.cleaner = args.cleaner.parse()?;
    options.model = args.model;
    options.pages_alone = args.pages_alone;
    options.classifier = match (args.classifier, args.no_classifier) {
        (_, true) => docview::pipeline::ClassifierChoice::Off,
        (Some(path), false) => docview::pipeline::ClassifierChoice::File(path),
        (None, false) => docview::pipeline::ClassifierChoice::Embedded,
    };
    options.threads = args.threads;
    options.integrate = IntegrateParams {
        keywords: args.keywords,
        sentences: args.sentences,
        theta: args.theta,
        beta: args.beta,
    };
    options.keyword = KeywordParams {
        percentage: args.percentage,
        interval: args.interval,
    };
    options.detection = match args.replicas {
        ReplicaDetection::Exact => Detection::Exact,
        ReplicaDetection::Keyword => Detection::Keyword,
        ReplicaDetection::Minhash => Detection::MinHash,
    };
    options.minhash = MinHashParams {
        threshold: args.minhash_threshold,
        ..MinHashParams::default()
    };
    options.stopwords = StopwordParams {
        min_df_share: args.stopword_df,
        ..StopwordParams::default()
    };
    options.stats_file = args.stats;
    options.commit_every = args.commit_every;
    options.resume = args.resume;
    options.overwrite = args.overwrite;
    options.index_heap_bytes = args.index_memory.max(16) << 20;
    options.limits = args.limits.limits()?;
    options.parquet = args.parquet;
    options.markdown = args.markdown;
    options.earlier = args.earlier;
    Ok(options)
}

fn run_ingest(args: IngestArgs) -> Result<()> {
    let bar = Bar::new(args.quiet, args.progress_every);
    let options = ingest_options(args)?;
    let summary = ingest(&options, &bar)?;
    out!("{}", summary.render());
    if summary.counters.pages_read == 0 {
        let skipped = summary.counters.skipped_total();
        let listed = if skipped > 0 {
            format!(
                " ({skipped} inputs skipped, each with its reason in {})",
                options.out.join(docview::records::SKIPPED).display()
            )
        } else {
            String::new()
        };
        eprintln!(
            "docview: warning: {}{listed}",
            no_page_warning(&options.inputs)
        );
    }
    Ok(())
}

/// What to tell of inputs that held no page: each input by name, with what was looked for in
/// it.
fn no_page_warning(inputs: &[PathBuf]) -> String {
    let each: Vec<String> = inputs
        .iter()
        .map(|input| {
            if input.as_os_str() == "-" {
                "standard input held no JSON Lines {\"url\", \"html\"} line".to_string()
            } else if input.is_dir() {
                format!(
                    "{} is a folder with no page: no .html, .htm, .warc or .jsonl file (or \
                     their .gz) in it",
                    input.display()
                )
            } else {
                format!(
                    "{} is a file with no page: no HTML response or resource record of a WARC \
                     or ARC file, no {{\"url\", \"html\"}} line of a JSON Lines file",
                    input.display()
                )
            }
        })
        .collect();
    format!("no page was read: {}", each.join("; "))
}

fn query(args: QueryArgs) -> Result<()> {
    let kind = match args.index {
        IndexArg::Fulltext => IndexKind::Fulltext,
        IndexArg::Topic => IndexKind::Topic,
        IndexArg::Abstract => IndexKind::Abstract,
    };
    let index = OpenIndex::open(&args.dir, kind)?;
    let parsed = index.query(&args.query, Combine::Any)?;
    let hits = index.hits(parsed.as_ref(), args.k)?;
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    if args.explain {
        let terms = index.term_postings(parsed.as_ref())?;
        if args.json {
            serde_json::to_writer(&mut out, &serde_json::json!({ "explain": terms }))?;
            writeln!(out)?;
        } else {
            writeln!(
                out,
                "query {:?} in the {} index ({} documents):",
                args.query,
                kind.as_str(),
                index.num_docs()
            )?;
            for t in &terms {
                writeln!(
                    out,
                    "  {}:{:<20} {:>7} documents {:>9} posting bytes {:>9} position bytes",
                    t.field, t.term, t.doc_freq, t.posting_bytes, t.position_bytes
                )?;
            }
            writeln!(out)?;
        }
    }
    if args.json {
        for hit in &hits {
            serde_json::to_writer(&mut out, hit)?;
            writeln!(out)?;
        }
    } else if hits.is_empty() {
        writeln!(out, "no hits in the {} index", kind.as_str())?;
    } else {
        for (i, hit) in hits.iter().enumerate() {
            writeln!(out, "{:>2}. {:.3}  {}", i + 1, hit.score, hit.url)?;
            writeln!(out, "    {}", hit.title)?;
            if !hit.snippet.is_empty() {
                writeln!(out, "    {}", hit.snippet.replace('\n', " "))?;
            }
        }
    }
    out.flush()?;
    Ok(())
}

fn run_compare(args: CompareArgs) -> Result<()> {
    let mut options = CompareOptions::new(args.dir.clone());
    options.corpus = args.corpus;
    options.queries = args.queries;
    options.vocabulary_queries = args.vocabulary;
    options.seed = args.seed;
    options.runs = args.runs;
    options.threads = args.threads;
    let report = compare(&options)?;
    out!("{}", report.render_table());
    let out = args.out.unwrap_or(args.dir);
    write_report(&report, &out)?;
    eprintln!(
        "report written to {} and {}",
        out.join("compare.json").display(),
        out.join("compare.html").display()
    );
    Ok(())
}

fn replicas_build(args: BuildArgs) -> Result<()> {
    if !(args.min_coverage > 0.0 && args.min_coverage <= 1.0) {
        bail!("--min-coverage {} is not in (0, 1]", args.min_coverage);
    }
    let options = BuildOptions {
        seed: args.seed,
        threads: args.threads,
        min_coverage: args.min_coverage,
        rules: args.rules.into(),
    };
    let start = std::time::Instant::now();
    let report = build_benchmark(&args.set, &args.out, &options)?;
    outln!(
        "{}: {} pages, {} usable: {} base pages (each with a near-replica and a non-replica), \
         {} donors; {} left out; {:.1} s",
        report.set,
        report.pages,
        report.usable,
        report.base,
        report.donors,
        report.skipped.len(),
        start.elapsed().as_secs_f64()
    );
    for (reason, n) in &report.skipped_by_reason {
        outln!("  left out, {reason}: {n}");
    }
    outln!("written to {}", args.out.display());
    Ok(())
}

/// The labelled pages of `opts.sets`, read, cleaned and vectorised (saying so on standard
/// error).
fn classify_pages(opts: &ClassifyOpts) -> Result<Vec<docview::classify::ClassPage>> {
    let mut sets = Vec::new();
    for set in &opts.sets {
        let pages = load_scored_set(set)?;
        sets.push((set.display().to_string(), pages));
    }
    let total: usize = sets.iter().map(|s| s.1.len()).sum();
    eprintln!("cleaning and vectorising {total} pages");
    let (pages, left_out) = docview::classify::class_pages(&sets, &opts.label, opts.threads)?;
    if left_out > 0 {
        eprintln!(
            "{left_out} pages left out: no {:?} in their ground truth, or no page in their HTML",
            opts.label
        );
    }
    if pages.is_empty() {
        bail!("no page has a {:?} field to train or score on", opts.label);
    }
    Ok(pages)
}

/// The kNN's parameters from the flags.
fn classify_params(opts: &ClassifyOpts) -> Result<docview::classifier::Params> {
    let terms = opts.terms;
    if opts.k == 0 || terms == 0 {
        bail!("--k and --terms must be at least 1");
    }
    if !(0.0..=10.0).contains(&opts.structure) {
        bail!("--structure must be between 0 and 10");
    }
    Ok(docview::classifier::Params {
        k: opts.k,
        terms_per_class: terms,
        structure: opts.structure,
    })
}

/// The vectors `--raw` picks.
fn classify_source(raw: bool) -> docview::classify::Source {
    if raw {
        docview::classify::Source::Raw
    } else {
        docview::classify::Source::Topic
    }
}

/// The method and its parameters from the flags.
fn classify_method(opts: &ClassifyOpts) -> Result<docview::classify::Method> {
    Ok(match opts.method {
        ClassifyMethod::Knn => {
            docview::classify::Method::Neighbours(classify_source(opts.raw), classify_params(opts)?)
        }
        ClassifyMethod::Trees => {
            if opts.raw {
                bail!("--raw chooses the kNN's vectors: it needs --method knn");
            }
            if opts.trees == 0 || !(1..=MAX_TREE_DEPTH).contains(&opts.depth) {
                bail!(
                    "--trees must be at least 1 and --depth from 1 to {MAX_TREE_DEPTH}, not {} and {}",
                    opts.trees,
                    opts.depth
                );
            }
            docview::classify::Method::Trees(docview::classifier::TreeParams {
                trees: opts.trees,
                max_depth: opts.depth,
                words: opts.words,
                ..docview::classifier::TreeParams::default()
            })
        }
    })
}

/// What a method reads, for reports.
fn method_name(method: docview::classify::Method) -> String {
    match method {
        docview::classify::Method::Neighbours(source, p) => format!(
            "kNN on {} vectors (k = {}, {} terms a class, structure {})",
            source.as_str(),
            p.k,
            p.terms_per_class,
            p.structure
        ),
        docview::classify::Method::Trees(p) => format!(
            "trees on page signals ({} a class, depth {}, {} URL and title words)",
            p.trees, p.max_depth, p.words
        ),
    }
}

fn classify_train(args: ClassifyTrainArgs) -> Result<()> {
    let method = classify_method(&args.opts)?;
    let pages = classify_pages(&args.opts)?;
    let start = std::time::Instant::now();
    let model = docview::classify::train(&pages, method, &args.opts.label, args.opts.threads)?;
    model.save(&args.out)?;
    outln!(
        "classifier of {} ({} classes: {}) on {} pages, {}, trained in {:.2} s -> {}",
        model.scheme(),
        model.classes().len(),
        model.classes().join(", "),
        pages.len(),
        method_name(method),
        start.elapsed().as_secs_f64(),
        args.out.display()
    );
    Ok(())
}

fn classify_eval(args: ClassifyEvalArgs) -> Result<()> {
    let pages = classify_pages(&args.opts)?;
    if let Some(path) = &args.model {
        let model = docview::classifier::PageClassifier::load(path)?;
        let report = docview::classify::evaluate(&model, &pages);
        outln!("{} ({}):", path.display(), model.format_version());
        out!("{}", report.render());
        return Ok(());
    }
    let folds = args.folds.unwrap_or(5);
    if folds < 2 {
        bail!("--folds must be at least 2");
    }
    let method = classify_method(&args.opts)?;
    let mut methods = vec![method];
    if args.compare_raw {
        match method {
            docview::classify::Method::Neighbours(docview::classify::Source::Topic, p) => methods
                .push(docview::classify::Method::Neighbours(
                    docview::classify::Source::Raw,
                    p,
                )),
            docview::classify::Method::Neighbours(..) => {}
            docview::classify::Method::Trees(_) => {
                bail!("--compare-raw compares the kNN's vectors: it needs --method knn")
            }
        }
    }
    for (n, method) in methods.into_iter().enumerate() {
        let cv = docview::classify::cross_validate(
            &pages,
            method,
            &args.opts.label,
            folds,
            args.opts.threads,
        )?;
        outln!(
            "{}-fold cross-validation by site, {} (training {:.2} s a fold):",
            folds,
            method_name(method),
            cv.train_secs.iter().sum::<f64>() / cv.train_secs.len().max(1) as f64
        );
        out!("{}", cv.report.render());
        if n == 0 {
            out!("{}", cv.render_typed_hubs());
        }
        if let (0, Some(path)) = (n, &args.predictions) {
            write_atomically(path, |w| {
                for p in &cv.predictions {
                    serde_json::to_writer(&mut *w, p).map_err(std::io::Error::other)?;
                    w.write_all(b"\n")?;
                }
                Ok(())
            })?;
        }
    }
    Ok(())
}

fn replicas_eval(args: ReplicasEvalArgs) -> Result<()> {
    let cleaner = cleaner_with_model(args.cleaner.parse()?, args.model.as_deref())?;
    let report = evaluate_benchmark(
        &args.dir,
        cleaner.as_ref(),
        args.threads,
        &minhash_detectors(&[0.3, 0.5, 0.7]),
    )?;
    out!("{}", report.render());
    outln!(
        "cleaning {:.1} s, detectors {:.1} s",
        report.extract_secs,
        report.detect_secs
    );
    let path = args.report.unwrap_or_else(|| args.dir.join("eval.json"));
    docview::output::write_json_atomically(&path, &report)?;
    outln!("report written to {}", path.display());
    Ok(())
}
