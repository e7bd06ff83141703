//! The arguments of the learned cleaner's block model: `docview blocks`, `docview
//! train-cleaner`, and the training parameters they share with `docview eval --folds`.

use std::path::PathBuf;

use docview::clean::TrainParams;

/// Parameters of training a block model.
#[derive(Debug, Clone, clap::Args)]
pub struct TrainOpts {
    /// Boosting rounds (trees).
    #[arg(long, value_name = "N", default_value_t = TrainParams::default().trees)]
    pub trees: usize,
    /// Depth limit of each tree, 1 to 12 (the scorer lays trees out complete to their depth).
    #[arg(long, value_name = "N", default_value_t = TrainParams::default().max_depth)]
    pub max_depth: usize,
    /// Shrinkage of each tree's values.
    #[arg(long, value_name = "RATE", default_value_t = TrainParams::default().learning_rate)]
    pub learning_rate: f32,
    /// Seed of any randomness in training.
    #[arg(long, value_name = "S", default_value_t = TrainParams::default().seed)]
    pub seed: u64,
    /// Also learn a lexicon: how much more often each word and word pair of the labelled
    /// pages stood in content than in boilerplate, four more features per block (cross-fitted
    /// by site in training). Off in the shipped model: cross-validated it gains 0.003 on
    /// wcxb-dev and dragnet-dev but loses 0.017 on zh-news-dev (docs/explain/learned-cleaner.md,
    /// Lexicon).
    #[arg(long)]
    pub lexicon: bool,
    /// Also train a site stage: what the other pages of a block's site repeat (its exact
    /// text, its tag path, the texts that path holds, common tokens) as five more features,
    /// read where the page's site has 4 or more pages and only to lower a block's score. The
    /// model's cleaner then learns each site's evidence first (eval, ingest). Off in the
    /// shipped model: cross-validated it gains 0.008 on dragnet-dev (0.014 on its sites of 5
    /// or more pages) but loses 0.005 on wcxb-dev's collection pages (docs/explain/cleaners.md,
    /// Site evidence for the learned cleaner).
    #[arg(long)]
    pub site_evidence: bool,
}

#[derive(Debug, clap::Args)]
pub struct BlocksArgs {
    /// Labelled set folders holding html/<id>.html.gz and ground-truth/<id>.json.
    #[arg(required = true, value_name = "SET")]
    pub sets: Vec<PathBuf>,
    /// The CSV file to write.
    #[arg(long, value_name = "FILE.csv")]
    pub out: PathBuf,
    /// Worker threads (0: one per core); the output does not depend on it.
    #[arg(long, value_name = "N", default_value_t = 0, value_parser = super::threads)]
    pub threads: usize,
}

#[derive(Debug, clap::Args)]
pub struct TrainCleanerArgs {
    /// Labelled set folders holding html/<id>.html.gz and ground-truth/<id>.json.
    #[arg(required = true, value_name = "SET")]
    pub sets: Vec<PathBuf>,
    /// The model file to write (JSON; gzip-compressed when the name ends in .gz).
    #[arg(long, value_name = "MODEL")]
    pub out: PathBuf,
    #[command(flatten)]
    pub train: TrainOpts,
    /// Worker threads (0: one per core); the model does not depend on it.
    #[arg(long, value_name = "N", default_value_t = 0, value_parser = super::threads)]
    pub threads: usize,
}
