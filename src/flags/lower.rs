//! The arguments lowered to the library's option types: each command's flags to the options
//! its library call takes, with the checks of values the library leaves to its caller. The
//! value enums of the flags keep their own names and help texts; here is what each stands for.

use anyhow::{Result, bail};
use docview::classifier::{LinearParams, Params, SubjectScheme, SubjectTraining, TreeParams};
use docview::classify::{Method, Source};
use docview::clean::{MAX_TREE_DEPTH, TrainParams};
use docview::compare::CompareOptions;
use docview::compare::ranking::{DocIdField, RankingOptions};
use docview::extract::{Keep, PageLimits};
use docview::index::IndexKind;
use docview::input::JsonlKeys;
use docview::integrate::IntegrateParams;
use docview::pipeline::{ClassifierChoice, IngestOptions};
use docview::replica::{Detection, KeywordParams, MinHashParams};
use docview::replica_benchmark::benchmark::{BuildOptions, Rules};
use docview::stats::StopwordParams;
use docview::subjects::SubjectSetup;

use super::classify::{ClassifyMethod, ClassifyOpts};
use super::compare::CompareArgs;
use super::extract::ExtractArgs;
use super::ingest::{IngestArgs, ReplicaDetection};
use super::limits::LimitArgs;
use super::query::IndexArg;
use super::replicas::{BenchmarkRules, BuildArgs};
use super::train::TrainOpts;

impl TrainOpts {
    /// The training parameters, checked, with `threads` worker threads.
    pub fn params(&self, threads: usize) -> Result<TrainParams> {
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

impl LimitArgs {
    /// The page limits, checked.
    pub fn limits(&self) -> Result<PageLimits> {
        let limits = PageLimits {
            max_html_bytes: self.max_page_mb.saturating_mul(1 << 20),
            max_tags: self.max_page_tags,
        };
        limits.validate()?;
        Ok(limits)
    }
}

impl From<ReplicaDetection> for Detection {
    fn from(detection: ReplicaDetection) -> Detection {
        match detection {
            ReplicaDetection::Exact => Detection::Exact,
            ReplicaDetection::Keyword => Detection::Keyword,
            ReplicaDetection::Minhash => Detection::MinHash,
        }
    }
}

impl From<IndexArg> for IndexKind {
    fn from(index: IndexArg) -> IndexKind {
        match index {
            IndexArg::Fulltext => IndexKind::Fulltext,
            IndexArg::Topic => IndexKind::Topic,
            IndexArg::Abstract => IndexKind::Abstract,
            IndexArg::Docview => IndexKind::Docview,
        }
    }
}

impl From<BenchmarkRules> for Rules {
    fn from(rules: BenchmarkRules) -> Rules {
        match rules {
            BenchmarkRules::Paper => Rules::Paper,
            BenchmarkRules::Transplant => Rules::Transplant,
        }
    }
}

impl ExtractArgs {
    /// What the text and Markdown keep (`--no-tables`, `--no-links`, `--no-images`), and
    /// whether the lines carry the comments (`--comments`).
    pub fn keep(&self) -> Keep {
        Keep {
            tables: !self.no_tables,
            links: !self.no_links,
            images: !self.no_images,
            comments: self.comments,
        }
    }
}

impl IngestArgs {
    /// The ingest settings of the ingest flags (`--quiet` and `--progress-every` are the
    /// progress display's, not the library's).
    pub fn into_options(self) -> Result<IngestOptions> {
        let mut options = IngestOptions::new(self.inputs, self.out);
        options.cleaner = self.cleaner;
        options.model = self.model;
        options.favor = self.favor;
        options.pages_alone = self.pages_alone;
        (options.classifier, options.subjects) =
            ClassifierChoice::from_files(&self.classifier, self.no_classifier)?;
        options.threads = self.threads;
        options.integrate = IntegrateParams {
            keywords: self.keywords,
            sentences: self.sentences,
            theta: self.theta,
            beta: self.beta,
        };
        options.keyword = KeywordParams {
            percentage: self.percentage,
            interval: self.interval,
        };
        options.detection = self.replicas.into();
        options.minhash = MinHashParams {
            threshold: self.minhash_threshold,
            ..MinHashParams::default()
        };
        options.stopwords = StopwordParams {
            min_df_share: self.stopword_df,
            ..StopwordParams::default()
        };
        options.stats_file = self.stats;
        options.commit_every = self.commit_every;
        options.resume = self.resume;
        options.overwrite = self.overwrite;
        options.index_heap_bytes = self.index_memory.max(16) << 20;
        options.limits = self.limits.limits()?;
        options.parquet = self.parquet;
        options.markdown = self.markdown;
        options.earlier = self.earlier;
        options.jsonl_keys = JsonlKeys {
            url: self.url_field,
            html: self.html_field,
            text: self.text_field,
        };
        Ok(options)
    }
}

impl BuildArgs {
    /// The options of building a replica benchmark, checked.
    pub fn options(&self) -> Result<BuildOptions> {
        if !(self.min_coverage > 0.0 && self.min_coverage <= 1.0) {
            bail!("--min-coverage {} is not in (0, 1]", self.min_coverage);
        }
        Ok(BuildOptions {
            seed: self.seed,
            threads: self.threads,
            min_coverage: self.min_coverage,
            rules: self.rules.into(),
        })
    }
}

impl CompareArgs {
    /// The options of comparing the indexes of the ingest in `DIR`.
    pub fn options(&self) -> CompareOptions {
        let mut options = CompareOptions::new(self.dir.clone());
        options.corpus = self.corpus.clone();
        options.queries = self.queries.clone();
        options.vocabulary_queries = self.vocabulary;
        options.seed = self.seed;
        options.runs = self.runs;
        options.threads = self.threads;
        options.field_weights = self.field_weights.unwrap_or_default();
        options.ranking = match (&self.topics, &self.qrels) {
            (Some(topics), Some(qrels)) => Some(RankingOptions {
                topics: topics.clone(),
                qrels: qrels.clone(),
                docid: DocIdField::named(&self.docid),
                runs: self.run_dir.clone(),
            }),
            _ => None,
        };
        options
    }
}

impl ClassifyOpts {
    /// The kNN's parameters from the flags.
    fn params(&self) -> Result<Params> {
        let terms = self.terms;
        if self.k == 0 || terms == 0 {
            bail!("--k and --terms must be at least 1");
        }
        if !(0.0..=10.0).contains(&self.structure) {
            bail!("--structure must be between 0 and 10");
        }
        Ok(Params {
            k: self.k,
            terms_per_class: terms,
            structure: self.structure,
        })
    }

    /// The vectors `--raw` picks.
    fn source(&self) -> Source {
        if self.raw { Source::Raw } else { Source::Topic }
    }

    /// The genre classifier's method and its parameters from the flags (without --scheme).
    pub fn method(&self) -> Result<Method> {
        Ok(match self.method.unwrap_or(ClassifyMethod::Trees) {
            ClassifyMethod::Knn => Method::Neighbours(self.source(), self.params()?),
            ClassifyMethod::Linear => {
                bail!("--method linear classifies by subject: it needs --scheme")
            }
            ClassifyMethod::Trees => {
                if self.raw {
                    bail!("--raw chooses the kNN's vectors: it needs --method knn");
                }
                if self.trees == 0 || !(1..=MAX_TREE_DEPTH).contains(&self.depth) {
                    bail!(
                        "--trees must be at least 1 and --depth from 1 to {MAX_TREE_DEPTH}, not {} and {}",
                        self.trees,
                        self.depth
                    );
                }
                Method::Trees(TreeParams {
                    trees: self.trees,
                    max_depth: self.depth,
                    words: self.words,
                    ..TreeParams::default()
                })
            }
        })
    }

    /// What is classified: a ground-truth field's genre, or subjects of `--scheme` (read here:
    /// `iptc` or a scheme file).
    pub fn target(&self) -> Result<Target> {
        let Some(scheme) = &self.scheme else {
            return Ok(Target::Genre(self.method()?));
        };
        let scheme = if scheme == "iptc" {
            SubjectScheme::iptc()
        } else {
            SubjectScheme::read(std::path::Path::new(scheme))?
        };
        let training = match self.method.unwrap_or(ClassifyMethod::Linear) {
            ClassifyMethod::Linear => {
                if self.epochs == 0 || self.min_df == 0 || !(0.0..=1.0).contains(&self.l2) {
                    bail!(
                        "--epochs and --min-df must be at least 1 and --l2 from 0 to 1, not {}, {} and {}",
                        self.epochs,
                        self.min_df,
                        self.l2
                    );
                }
                SubjectTraining::Linear(LinearParams {
                    epochs: self.epochs,
                    l2: self.l2,
                    min_df: self.min_df,
                    ..LinearParams::default()
                })
            }
            ClassifyMethod::Knn => SubjectTraining::Neighbours(self.params()?),
            ClassifyMethod::Trees => bail!(
                "--method trees classifies by page signals, not subjects: give --method linear \
                 or knn with --scheme"
            ),
        };
        if !(0.0..=10.0).contains(&self.text_weight) {
            bail!(
                "--text-weight must be between 0 and 10, not {}",
                self.text_weight
            );
        }
        if !(0.0..=1.0).contains(&self.threshold) {
            bail!(
                "--threshold must be between 0 and 1, not {}",
                self.threshold
            );
        }
        if !self.sets.is_empty() && self.subjects.is_empty() {
            bail!("with --scheme, the sets' pages need their subjects: give --subjects FILE");
        }
        if self.sets.is_empty() && !self.subjects.is_empty() {
            bail!("--subjects names pages of labelled sets: give the sets (SET ...)");
        }
        Ok(Target::Subjects(SubjectPlan {
            scheme,
            setup: SubjectSetup {
                training,
                source: self.source(),
                text_weight: self.text_weight,
            },
            threshold: self.threshold,
        }))
    }
}

/// What `docview classify` trains or scores.
pub enum Target {
    /// The class of a ground-truth field by this method.
    Genre(Method),
    /// Subjects of a scheme.
    Subjects(SubjectPlan),
}

/// A subject classifier's scheme, training and threshold.
pub struct SubjectPlan {
    /// The scheme.
    pub scheme: SubjectScheme,
    /// How it is trained.
    pub setup: SubjectSetup,
    /// Its threshold.
    pub threshold: f32,
}
