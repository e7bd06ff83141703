//! The arguments of `docview replicas build` and `docview replicas eval`, the replica
//! benchmark.

use std::path::PathBuf;

use clap::{Subcommand, ValueEnum};
use docview::clean::{CleanerKind, DEFAULT_CLEANER};

use super::cleaner::cleaner_kind;
use docview::replica_benchmark::benchmark::BuildOptions;

#[derive(Debug, clap::Args)]
pub struct ReplicasArgs {
    #[command(subcommand)]
    pub command: ReplicasCommand,
}

#[derive(Debug, Subcommand)]
pub enum ReplicasCommand {
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
pub struct BuildArgs {
    /// A labelled set folder holding html/<id>.html.gz and ground-truth/<id>.json.
    #[arg(value_name = "SET")]
    pub set: PathBuf,
    /// Output folder: created, or empty.
    #[arg(long, value_name = "DIR")]
    pub out: PathBuf,
    /// Seed of the base/donor split and of the pairings.
    #[arg(long, value_name = "N", default_value_t = BuildOptions::default().seed)]
    pub seed: u64,
    /// Least share of the reference's tokens the main-content node must hold (0 to 1).
    #[arg(long, value_name = "SHARE", default_value_t = BuildOptions::default().min_coverage)]
    pub min_coverage: f32,
    /// Worker threads (0: one per core); the output does not depend on it.
    #[arg(long, value_name = "N", default_value_t = 0, value_parser = super::threads)]
    pub threads: usize,
    /// How near-replicas and non-replicas are made: paper (the main content moved into
    /// another page's template, nothing else changed) or transplant (harder: the title,
    /// description, Open Graph and JSON-LD of the head move with the content, no page keeps
    /// its <base>, canonical link or og:url, and a near-replica's template is a page of another
    /// page type where the set has types).
    #[arg(long, value_enum, value_name = "RULES", default_value = "paper")]
    pub rules: BenchmarkRules,
}

/// The rules of `docview replicas build`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum BenchmarkRules {
    /// The paper's: the main content moved into another page's template.
    Paper,
    /// Also the head metadata moved, addresses removed, templates of other page types.
    Transplant,
}

#[derive(Debug, clap::Args)]
pub struct ReplicasEvalArgs {
    /// A benchmark folder made by `docview replicas build`.
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
    /// The cleaner that makes the topic content.
    #[arg(long, value_name = "NAME", default_value = DEFAULT_CLEANER, value_parser = cleaner_kind())]
    pub cleaner: CleanerKind,
    /// The learned cleaner's block model file, from `docview train-cleaner` (default: the model
    /// inside the binary).
    #[arg(long, value_name = "MODEL")]
    pub model: Option<PathBuf>,
    /// Worker threads (0: one per core).
    #[arg(long, value_name = "N", default_value_t = 0, value_parser = super::threads)]
    pub threads: usize,
    /// Where to write the JSON report (default: DIR/eval.json).
    #[arg(long, value_name = "FILE")]
    pub report: Option<PathBuf>,
}
