//! The arguments of `docview eval`: the labelled sets, the cleaner and its model, or the
//! cross-validation of the learned cleaner.

use std::path::PathBuf;

use docview::clean::{CLEANERS, DEFAULT_CLEANER, Favor};

use super::favor::{FAVOR_HELP, favor};

use super::train::TrainOpts;

#[derive(Debug, clap::Args)]
pub struct EvalArgs {
    /// Labelled set folders holding html/<id>.html.gz and ground-truth/<id>.json; each is
    /// scored on its own (with --folds, the folds are drawn over all of them together).
    #[arg(required = true, value_name = "SET")]
    pub sets: Vec<PathBuf>,
    /// Also print the scores per page type.
    #[arg(long)]
    pub by_type: bool,
    /// Write the predictions as JSON lines, {"file_id": ..., "main_content": ...}, for any other
    /// scorer to check.
    #[arg(long, value_name = "PRED.jsonl")]
    pub out: Option<PathBuf>,
    /// Write the whole report (per-page scores included) as JSON.
    #[arg(long, value_name = "REPORT.json")]
    pub report: Option<PathBuf>,
    /// The cleaner to score, or `all`: every cleaner on each SET, compared in one table
    /// (F1 overall and per page type, pages/s).
    #[arg(long, value_name = "NAME", default_value = DEFAULT_CLEANER, value_parser = eval_cleaner_names())]
    pub cleaner: String,
    /// The learned cleaner's block model file (default: the model inside the binary).
    #[arg(long, value_name = "MODEL")]
    pub model: Option<PathBuf>,
    #[arg(long, value_name = "FAVOR", default_value = "balanced", value_parser = favor(), help = FAVOR_HELP)]
    pub favor: Favor,
    /// Cross-validate the learned cleaner instead of scoring a model: split the pages of all
    /// SETs into N folds by site (no site in two folds: the ground truth's `site`, else the
    /// URL's registered domain), train a model on N-1 folds, score the pages of the last, for
    /// each fold. Prints the figures per set and page type; --report writes one report per set
    /// (REPORT with the set's name added before the extension).
    #[arg(long, value_name = "N")]
    pub folds: Option<usize>,
    /// Clean every page alone, without the model of its site: the learned cleaner without its
    /// site evidence, a site-aware cleaner such as infodiscoverer or wisdom by its fallback. To
    /// measure what the site models gain (with --folds too).
    #[arg(long)]
    pub pages_alone: bool,
    #[command(flatten)]
    pub train: TrainOpts,
    /// Worker threads (0: one per core).
    #[arg(long, value_name = "N", default_value_t = 0, value_parser = super::threads)]
    pub threads: usize,
}

/// The names `eval --cleaner` takes: every cleaner, and `all`.
fn eval_cleaner_names() -> clap::builder::PossibleValuesParser {
    clap::builder::PossibleValuesParser::new(CLEANERS.iter().copied().chain(["all"]))
}
