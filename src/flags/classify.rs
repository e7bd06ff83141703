//! The arguments of `docview classify train` and `docview classify eval`, the content
//! classifiers: a page's genre from a ground-truth field, or its subject from a formal scheme
//! (`--scheme`).

use std::path::PathBuf;

use clap::Subcommand;

#[derive(Debug, clap::Args)]
pub struct ClassifyArgs {
    #[command(subcommand)]
    pub command: ClassifyCommand,
}

#[derive(Debug, Subcommand)]
pub enum ClassifyCommand {
    /// Train a classifier on labelled sets (SET/html/ID.html.gz and SET/ground-truth/ID.json, as
    /// docs/data.md describes) and write it as a model file. The class of a page is a string
    /// field of its ground truth (--label); pages without one are left out. With --scheme, a
    /// subject classifier instead: trained on labelled text (--text) and on the sets' pages
    /// that --subjects gives a subject. Same inputs and flags, byte-identical model.
    Train(ClassifyTrainArgs),
    /// Score a model on labelled sets (--model), or cross-validate (--folds N: N folds by
    /// site, no site on both sides, a model trained on the others scoring each fold): per
    /// class precision, recall and F1 (Formulas 4-6), macro F1, accuracy and the confusion
    /// matrix. With --compare-raw, the same for raw-page vectors beside it.
    Eval(ClassifyEvalArgs),
}

/// The kinds of content classifier.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ClassifyMethod {
    /// Gradient-boosted trees over the page's signals.
    Trees,
    /// The paper's kNN over Formula 2 vectors.
    Knn,
    /// Logistic regression on tf-idf of the Formula 2 vectors (--scheme only).
    Linear,
}

/// What the classifier is trained on and how.
#[derive(Debug, clap::Args)]
pub struct ClassifyOpts {
    /// Labelled set folders holding html/<id>.html.gz and ground-truth/<id>.json.
    #[arg(value_name = "SET", required_unless_present = "text")]
    pub sets: Vec<PathBuf>,
    /// The ground-truth field that holds each page's class.
    #[arg(long, value_name = "FIELD", default_value = "page_type")]
    pub label: String,
    /// Classify pages by subject in this scheme instead of by a ground-truth field: `iptc` (the
    /// top level of the IPTC Media Topics, 17 subjects, built in) or a scheme file of
    /// `code<TAB>label` lines (`# scheme: NAME` names it).
    #[arg(long, value_name = "SCHEME")]
    pub scheme: Option<String>,
    /// With --scheme: a file of labelled text to train on, JSON Lines (gzipped if it ends in
    /// .gz) of {"text", "subject": CODE} and optionally "lang", "group", "split" (train, dev or
    /// test: test lines are held out and scored). May be given more than once.
    #[arg(long, value_name = "FILE", requires = "scheme")]
    pub text: Vec<PathBuf>,
    /// With --scheme: the subjects of the sets' pages, JSON Lines of {"set": FOLDER NAME, "id":
    /// FILE ID, "subject": CODE} (models/subjects/read-labels.jsonl names pages of the
    /// development sets that docs/data.md lists, labelled by reading them); pages no file names
    /// are left out. May be given more than once (a page in two files is an error).
    #[arg(long, value_name = "FILE", requires = "scheme")]
    pub subjects: Vec<PathBuf>,
    /// With --scheme: the weight of a labelled text in training (a page's is 1).
    #[arg(long, value_name = "W", default_value_t = 1.0, requires = "scheme")]
    pub text_weight: f32,
    /// With --scheme: a page gets a subject when its score reaches this (0 to 1); otherwise
    /// none, with the reason.
    #[arg(long, value_name = "S", default_value_t = docview::classifier::DEFAULT_SUBJECT_THRESHOLD, requires = "scheme")]
    pub threshold: f32,
    /// Passes over the examples (--method linear).
    #[arg(long, value_name = "N", default_value_t = docview::classifier::LinearParams::default().epochs)]
    pub epochs: u32,
    /// L2 regularisation of the weights (--method linear).
    #[arg(long, value_name = "X", default_value_t = docview::classifier::LinearParams::default().l2)]
    pub l2: f32,
    /// A term is kept when at least this many training examples hold it (--method linear).
    #[arg(long, value_name = "N", default_value_t = docview::classifier::LinearParams::default().min_df)]
    pub min_df: u32,
    /// The kind of classifier: `trees` (one-vs-rest gradient-boosted trees over the page's
    /// signals; the default without --scheme), `knn` (the paper's chi-square terms and nearest
    /// neighbours) or `linear` (logistic regression on tf-idf; the default with --scheme).
    #[arg(long, value_enum)]
    pub method: Option<ClassifyMethod>,
    /// Trees per class (--method trees).
    #[arg(long, value_name = "N", default_value_t = docview::classifier::TreeParams::default().trees)]
    pub trees: usize,
    /// Depth limit of each tree, 1 to 12 (--method trees).
    #[arg(long, value_name = "D", default_value_t = docview::classifier::TreeParams::default().max_depth)]
    pub depth: usize,
    /// The most common URL words and title words kept as features, each (--method trees).
    #[arg(long, value_name = "N", default_value_t = docview::classifier::TreeParams::default().words)]
    pub words: usize,
    /// Classify the raw page (every visible block) instead of its topic content (--method knn).
    #[arg(long)]
    pub raw: bool,
    /// Neighbours that vote (--method knn).
    #[arg(long, value_name = "K", default_value_t = docview::classifier::Params::default().k)]
    pub k: usize,
    /// Terms of highest chi-square kept per class, the vocabulary (--method knn).
    #[arg(long, value_name = "N", default_value_t = docview::classifier::Params::default().terms_per_class)]
    pub terms: usize,
    /// The weight of each structural term beside the text's (--method knn: the page type of §4.1, the
    /// words of the URL's path, the sizes of the page's parts); 0 classifies by text alone.
    #[arg(long, value_name = "W", default_value_t = docview::classifier::Params::default().structure)]
    pub structure: f32,
    /// Worker threads (0: one per core); the results do not depend on it.
    #[arg(long, value_name = "N", default_value_t = 0, value_parser = super::threads)]
    pub threads: usize,
}

#[derive(Debug, clap::Args)]
pub struct ClassifyTrainArgs {
    #[command(flatten)]
    pub opts: ClassifyOpts,
    /// The model file to write.
    #[arg(long, value_name = "MODEL")]
    pub out: PathBuf,
}

#[derive(Debug, clap::Args)]
pub struct ClassifyEvalArgs {
    #[command(flatten)]
    pub opts: ClassifyOpts,
    /// The model to score (its --raw, --k and --terms are its own).
    #[arg(
        long,
        value_name = "MODEL",
        conflicts_with = "folds",
        required_unless_present = "folds"
    )]
    pub model: Option<PathBuf>,
    /// Write each page's cross-validated prediction as JSON lines to FILE (set, id, class,
    /// predicted class, and the page's shape: its page type of §4.1, links, words, paragraphs,
    /// hub blocks, the links of its topic content and their anchor words); with --compare-raw,
    /// the first method's.
    #[arg(long, value_name = "FILE", requires = "folds")]
    pub predictions: Option<PathBuf>,
    /// Cross-validate with this many folds by site instead of scoring a model.
    #[arg(long, value_name = "N")]
    pub folds: Option<usize>,
    /// With --folds: the same cross-validation on raw-page vectors, beside the topic content's.
    #[arg(long, requires = "folds")]
    pub compare_raw: bool,
}
