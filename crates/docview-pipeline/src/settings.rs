//! The settings of one run: what `docview ingest` (and a sharded run's plan) is asked to do
//! ([`IngestOptions`], checked by [`IngestOptions::validate`]), the classifier it fills the
//! classification codes with ([`ClassifierChoice`]), and what a resumed run must find unchanged
//! ([`RunSettings`], saved in `state.json`).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use docview_classify::SubjectClassifier;
use serde::{Deserialize, Serialize};

use crate::clean::{CleanerKind, Favor, FrameworkParams};
use crate::extract::PageLimits;
use crate::input::{InputUnit, Inputs, JsonlKeys};
use crate::integrate::IntegrateParams;
use crate::replica::{Detection, KeywordParams, MinHashParams};
use crate::stats::StopwordParams;
use crate::stats::template::TemplateParams;
use crate::{Error, Result};

/// Which classifier fills the DocViews' classification codes.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
pub enum ClassifierChoice {
    /// The model inside the binary: wcxb-dev's page types.
    #[default]
    Embedded,
    /// A model file from `docview classify train`.
    File(PathBuf),
    /// None: the codes stay empty.
    Off,
}

/// Which subject model fills the DocViews' classification codes (their subjects).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
pub enum SubjectChoice {
    /// The model inside the binary: the IPTC Media Topics' top level.
    #[default]
    Embedded,
    /// A subject model file from `docview classify train --scheme`.
    File(PathBuf),
}

impl SubjectChoice {
    /// The model and the name its records give it.
    fn load(&self) -> Result<(Arc<SubjectClassifier>, String)> {
        let (model, path) = match self {
            SubjectChoice::Embedded => (SubjectClassifier::embedded()?, None),
            SubjectChoice::File(p) => (Arc::new(SubjectClassifier::load(p)?), Some(p.as_path())),
        };
        if model.source != docview_classify::Source::Topic {
            return Err(docview_classify::Error::Model {
                source_name: path.map_or("embedded".into(), |p| p.display().to_string()),
                reason: "a model of raw pages cannot classify records, which keep only their \
                         topic content: train it without --raw"
                    .to_string(),
            }
            .into());
        }
        let digest = SubjectClassifier::digest(path)?;
        let name = crate::integrate::subject_model_name(&model, &digest);
        Ok((model, name))
    }

    /// The digest of the model's bytes, for a resumed run's settings.
    fn digest(&self) -> Result<String> {
        Ok(match self {
            SubjectChoice::Embedded => SubjectClassifier::digest(None)?,
            SubjectChoice::File(p) => SubjectClassifier::digest(Some(p))?,
        })
    }
}

/// The classifiers of a run, loaded: the genre model and the subject model, each with the
/// name its records give it.
#[derive(Debug, Clone)]
pub struct Classifiers {
    genre: (Arc<docview_classify::PageClassifier>, String),
    subjects: (Arc<SubjectClassifier>, String),
}

impl Classifiers {
    /// The classifiers as integration uses them.
    pub fn classifier_ref(&self) -> crate::integrate::ClassifierRef<'_> {
        crate::integrate::ClassifierRef {
            model: &self.genre.0,
            name: &self.genre.1,
            subjects: Some(crate::integrate::SubjectRef {
                model: &self.subjects.0,
                name: &self.subjects.1,
            }),
        }
    }
}

impl ClassifierChoice {
    /// The choices of a user's model files (`--classifier`, given once or twice), each told by
    /// its file: at most one genre model (trees or kNN) and one subject model; the models
    /// inside the binary for what is not given, nothing with `off` (which refuses files).
    pub fn from_files(paths: &[PathBuf], off: bool) -> Result<(ClassifierChoice, SubjectChoice)> {
        if let (true, Some(path)) = (off, paths.first()) {
            return Err(Error::setting(
                "classifier",
                format!(
                    "{} given with no classifier; give one or the other",
                    path.display()
                ),
            ));
        }
        let (mut genre, mut subjects) = (None, None);
        for path in paths {
            let (slot, kind) = if SubjectClassifier::is_subject_model(path)? {
                (&mut subjects, "subject")
            } else {
                (&mut genre, "genre")
            };
            if let Some(first) = slot.replace(path.clone()) {
                return Err(Error::setting(
                    "classifier",
                    format!(
                        "{} and {}: both are {kind} models; give one subject model and one \
                         genre model at most",
                        first.display(),
                        path.display()
                    ),
                ));
            }
        }
        let genre = match (off, genre) {
            (true, _) => ClassifierChoice::Off,
            (false, Some(path)) => ClassifierChoice::File(path),
            (false, None) => ClassifierChoice::Embedded,
        };
        Ok((
            genre,
            subjects.map_or(SubjectChoice::Embedded, SubjectChoice::File),
        ))
    }

    /// The classifiers with `subjects`' model, `None` for [`ClassifierChoice::Off`] (which
    /// turns the subjects off too).
    pub fn load_with(&self, subjects: &SubjectChoice) -> Result<Option<Classifiers>> {
        let Some(genre) = self.load()? else {
            return Ok(None);
        };
        Ok(Some(Classifiers {
            genre,
            subjects: subjects.load()?,
        }))
    }

    /// The genre classifier and the name its records give it; `None` for
    /// [`ClassifierChoice::Off`].
    pub fn load(
        &self,
    ) -> Result<Option<(std::sync::Arc<docview_classify::PageClassifier>, String)>> {
        let (model, path) = match self {
            ClassifierChoice::Off => return Ok(None),
            ClassifierChoice::Embedded => (docview_classify::PageClassifier::embedded()?, None),
            ClassifierChoice::File(p) => (
                std::sync::Arc::new(docview_classify::PageClassifier::load(p)?),
                Some(p.as_path()),
            ),
        };
        let digest = docview_classify::model_digest(path)?;
        let name = crate::integrate::classifier_name(&model, &digest);
        Ok(Some((model, name)))
    }

    /// The digest of the model's bytes, for a resumed run's settings.
    fn digest(&self) -> Result<Option<String>> {
        Ok(match self {
            ClassifierChoice::Off => None,
            ClassifierChoice::Embedded => Some(docview_classify::model_digest(None)?),
            ClassifierChoice::File(p) => Some(docview_classify::model_digest(Some(p))?),
        })
    }
}

/// Everything `docview ingest` is asked to do (saved in a sharded run's plan).
#[derive(Debug, Clone, Serialize, serde::Deserialize)]
pub struct IngestOptions {
    /// WARC files, folders of pages, JSONL files, `-`.
    pub inputs: Vec<PathBuf>,
    /// The output directory.
    pub out: PathBuf,
    /// The cleaner.
    pub cleaner: CleanerKind,
    /// The learned cleaner's model file (`None`: the model inside the binary).
    pub model: Option<PathBuf>,
    /// What the learned cleaner favours (`--favor`).
    #[serde(default)]
    pub favor: Favor,
    /// The genre classifier, which decides each DocView's type; off, no classifier runs.
    pub classifier: ClassifierChoice,
    /// The subject model, which fills each DocView's classification code.
    #[serde(default)]
    pub subjects: SubjectChoice,
    /// Clean every page alone: no site models, even for a site-aware cleaner.
    pub pages_alone: bool,
    /// Worker threads (0: one per core).
    pub threads: usize,
    /// λ, δ, θ, β.
    pub integrate: IntegrateParams,
    /// Percentage and Interval of the keyword fingerprint.
    pub keyword: KeywordParams,
    /// Which fingerprints find replicas.
    pub detection: Detection,
    /// Shingles, permutations, bands, threshold and seed of MinHash detection.
    pub minhash: MinHashParams,
    /// How the aggressive stop-word list is chosen.
    pub stopwords: StopwordParams,
    /// Collection statistics to use instead of a first pass.
    pub stats_file: Option<PathBuf>,
    /// Pages between commits.
    pub commit_every: u64,
    /// Continue an interrupted run in `out`.
    pub resume: bool,
    /// Replace an earlier ingest's output in `out` (never a folder that is not one).
    pub overwrite: bool,
    /// Memory budget of each index writer, in bytes.
    pub index_heap_bytes: usize,
    /// What one page may cost: pages past a limit are cut there (their records say so).
    pub limits: PageLimits,
    /// Also write the records as `docviews.parquet` when the run completes.
    #[serde(default)]
    pub parquet: bool,
    /// Render each record's topic content as Markdown too (`topic_markdown`).
    #[serde(default)]
    pub markdown: bool,
    /// Finished runs whose kept pages this run's pages are checked against first (an
    /// incremental crawl: their kept pages win over this run's).
    #[serde(default)]
    pub earlier: Vec<PathBuf>,
    /// The keys of a JSON Lines input's page address and HTML (`url` and `html`).
    #[serde(default)]
    pub jsonl_keys: JsonlKeys,
    /// Asked to stop: the run ends at its next checkpoint with
    /// [`Error::Interrupted`](crate::Error::Interrupted), resumable. Not a setting (never saved).
    #[serde(skip)]
    pub interrupt: crate::Interrupt,
}

impl IngestOptions {
    /// Options with the defaults for `inputs` into `out`.
    pub fn new(inputs: Vec<PathBuf>, out: PathBuf) -> Self {
        IngestOptions {
            inputs,
            out,
            cleaner: CleanerKind::default(),
            model: None,
            favor: Favor::default(),
            classifier: ClassifierChoice::default(),
            subjects: SubjectChoice::default(),
            pages_alone: false,
            threads: 0,
            integrate: IntegrateParams::default(),
            keyword: KeywordParams::default(),
            detection: Detection::default(),
            minhash: MinHashParams::default(),
            stopwords: StopwordParams::default(),
            stats_file: None,
            commit_every: 1000,
            resume: false,
            overwrite: false,
            index_heap_bytes: 64 << 20,
            limits: PageLimits::default(),
            parquet: false,
            markdown: false,
            earlier: Vec::new(),
            jsonl_keys: JsonlKeys::default(),
            interrupt: crate::Interrupt::default(),
        }
    }

    /// Checks that every setting is in its range; the error names the setting (as the
    /// command line does, without the dashes) and what is wrong.
    pub fn validate(&self) -> Result<()> {
        if self.out.as_os_str() == "-" {
            return Err(Error::setting(
                "out",
                "`-` is not a folder: ingest writes a folder (the records, the replicas, the \
                 statistics and three indexes), not a stream; name a folder, or use `docview \
                 extract --format json` to stream each page's cleaning to standard output",
            ));
        }
        let share = |name: &'static str, v: f32, zero: bool| {
            if (zero && (0.0..=1.0).contains(&v)) || (v > 0.0 && v <= 1.0) {
                Ok(())
            } else {
                let range = if zero { "[0, 1]" } else { "(0, 1]" };
                Err(Error::setting(name, format!("{v} is not in {range}")))
            }
        };
        share("beta", self.integrate.beta, true)?;
        share("percentage", self.keyword.percentage, false)?;
        share("stopword-df", self.stopwords.min_df_share, false)?;
        if self.keyword.interval == 0 {
            return Err(Error::setting("interval", "must be at least 1"));
        }
        if self.commit_every == 0 {
            return Err(Error::setting("commit-every", "must be at least 1 page"));
        }
        let (body_flag, body_key) = match &self.jsonl_keys.text {
            Some(text) => ("text-field", text),
            None => ("html-field", &self.jsonl_keys.html),
        };
        if &self.jsonl_keys.url == body_key {
            return Err(Error::setting(
                body_flag,
                format!(
                    "`{body_key}` is the key of the page's address too (--url-field): name two keys",
                ),
            ));
        }
        self.limits.validate()?;
        crate::check_threads(self.threads)?;
        if self.detection == Detection::MinHash {
            self.minhash.validate()?;
        }
        Ok(())
    }

    /// The inputs, checked as [`Inputs::open`] checks them, their JSON lines read with the
    /// run's keys.
    pub fn open_inputs(&self) -> Result<Inputs> {
        Ok(Inputs::open(&self.inputs)?.with_jsonl_keys(self.jsonl_keys.clone()))
    }

    /// The pages of the planned `units`, their JSON lines read with the run's keys.
    pub fn unit_inputs(&self, units: &[InputUnit]) -> Inputs {
        Inputs::of_units(units).with_jsonl_keys(self.jsonl_keys.clone())
    }

    /// What a resumed run must find unchanged: the docview version, the inputs (and their
    /// size, so that a file that grew or shrank is noticed), the block model's bytes and every
    /// setting that shapes the outputs, the fixed ones (framework, site templates) included.
    pub(crate) fn settings(&self, input_bytes: Option<u64>) -> Result<RunSettings> {
        let model_digest = if self.cleaner.uses_block_model() {
            Some(crate::clean::model_digest(self.model.as_deref())?)
        } else {
            None
        };
        Ok(RunSettings {
            classifier_digest: self.classifier.digest()?,
            subject_digest: match self.classifier {
                ClassifierChoice::Off => None,
                _ => Some(self.subjects.digest()?),
            },
            cleaner: self.cleaner,
            detection: self.detection,
            docview_version: env!("CARGO_PKG_VERSION").to_string(),
            earlier: self.earlier.iter().map(|p| setting_path(p)).collect(),
            favor: self.favor,
            framework: FrameworkParams::default(),
            input_bytes,
            // Canonical paths: the same folder named another way is the same input.
            inputs: self.inputs.iter().map(|p| setting_path(p)).collect(),
            integrate: self.integrate,
            jsonl_keys: self.jsonl_keys.clone(),
            keyword: self.keyword,
            limits: self.limits,
            markdown: self.markdown,
            minhash: self.minhash,
            model: self.model.as_deref().map(setting_path),
            model_digest,
            pages_alone: self.pages_alone,
            stats_file: self.stats_file.as_ref().map(|p| p.display().to_string()),
            stopwords: self.stopwords,
            templates: TemplateParams::default(),
        })
    }
}

/// What a run was asked to do, as its `state.json` records it and a resumed run (or a later
/// run naming it with `--earlier`) must find it again: every setting that shapes the outputs,
/// the fixed ones included, and the identity of the inputs and models. Not `parquet`: it adds
/// a file at the end and changes no record, so a resumed run may ask for it or not. Fields in
/// the order of their names, as the file lists them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RunSettings {
    /// The digest of the classifier model's bytes (none with the classifier off).
    pub classifier_digest: Option<String>,
    /// The cleaner.
    pub cleaner: CleanerKind,
    /// Which fingerprints find replicas.
    pub detection: Detection,
    /// The docview version that made the run.
    pub docview_version: String,
    /// The earlier runs, canonical paths.
    pub earlier: Vec<String>,
    /// What the learned cleaner favours (balanced in a run state from before it existed).
    #[serde(default)]
    pub favor: Favor,
    /// The framework cleaner's parameters.
    pub framework: FrameworkParams,
    /// The inputs' size in bytes, when known (not for standard input).
    pub input_bytes: Option<u64>,
    /// The inputs, canonical paths.
    pub inputs: Vec<String>,
    /// λ, δ, θ, β.
    pub integrate: IntegrateParams,
    /// The keys of a JSON line's address and HTML (`url` and `html` in a run state from
    /// before they could be named).
    #[serde(default)]
    pub jsonl_keys: JsonlKeys,
    /// The keyword fingerprint's parameters.
    pub keyword: KeywordParams,
    /// The page limits.
    pub limits: PageLimits,
    /// Markdown rendered into the records.
    pub markdown: bool,
    /// MinHash detection's parameters.
    pub minhash: MinHashParams,
    /// The block model file, canonical path (none: the model inside the binary).
    pub model: Option<String>,
    /// The digest of the block model's bytes (the learned cleaner only).
    pub model_digest: Option<String>,
    /// Every page cleaned alone.
    pub pages_alone: bool,
    /// The collection statistics file used instead of a first pass.
    pub stats_file: Option<String>,
    /// How the aggressive stop words are chosen.
    pub stopwords: StopwordParams,
    /// The digest of the subject model's bytes (none with the classifier off).
    #[serde(default)]
    pub subject_digest: Option<String>,
    /// The site templates' parameters.
    pub templates: TemplateParams,
}

/// Pushes `name: was X, now Y` for each field that differs between `was` and `now`, a nested
/// setting by its path (`integrate.keywords`).
macro_rules! differences {
    ($out:ident, $was:expr, $now:expr, $($field:ident),+ $(,)?) => {
        $(
            if $was.$field != $now.$field {
                describe(stringify!($field), &$was.$field, &$now.$field, &mut $out);
            }
        )+
    };
}

impl RunSettings {
    /// What differs from `now`, one entry per setting (nested ones by their path):
    /// `integrate.keywords: was 15, now 10`. Empty when the settings are the same.
    pub fn differences(&self, now: &RunSettings) -> Vec<String> {
        let mut out = Vec::new();
        differences!(
            out,
            self,
            now,
            classifier_digest,
            cleaner,
            detection,
            docview_version,
            earlier,
            favor,
            framework,
            input_bytes,
            inputs,
            integrate,
            jsonl_keys,
            keyword,
            limits,
            markdown,
            minhash,
            model,
            model_digest,
            pages_alone,
            stats_file,
            stopwords,
            subject_digest,
            templates,
        );
        out
    }

    /// What differs from the options `now` among the settings that shape fingerprints (read
    /// from the options themselves: no model digest is needed): the detection and,
    /// for MinHash, the shingles, permutations and seed of the signature (not the bands and
    /// threshold, which decide what counts as a near-replica), for keyword detection the
    /// keyword fingerprint's parameters. The pages of an earlier run compare to this run's
    /// when it is empty.
    pub fn fingerprint_differences(&self, now: &IngestOptions) -> Vec<String> {
        let mut out = Vec::new();
        differences!(out, self, now, detection);
        match now.detection {
            Detection::MinHash => {
                let (was, now) = (&self.minhash, &now.minhash);
                let mut minhash = Vec::new();
                differences!(minhash, was, now, shingle, permutations, seed);
                out.extend(minhash.into_iter().map(|d| format!("minhash.{d}")));
            }
            Detection::Keyword => differences!(out, self, now, keyword),
            Detection::Exact => {}
        }
        out
    }
}

/// `name: was X, now Y` for a setting, or one entry per differing field of a nested one.
fn describe<T: Serialize>(name: &str, was: &T, now: &T, out: &mut Vec<String>) {
    let value = |v: &T| serde_json::to_value(v).unwrap_or(serde_json::Value::Null);
    let (was, now) = (value(was), value(now));
    let mut found = Vec::new();
    json_differences(name, &was, &now, &mut found);
    if found.is_empty() {
        // Values that differ but serialise alike (a float's last bits): said whole.
        found.push(format!("{name}: was {was}, now {now}"));
    }
    out.extend(found);
}

/// A path as the settings record it: canonical (the same file named another way is the same
/// setting), or as given when it cannot be resolved; `-` (standard input) stays `-`.
fn setting_path(p: &Path) -> String {
    if p.as_os_str() == "-" {
        return "-".to_string();
    }
    std::fs::canonicalize(p)
        .unwrap_or_else(|_| p.to_path_buf())
        .display()
        .to_string()
}

/// The fields of two serialised settings that differ, each by its path under `path`.
fn json_differences(
    path: &str,
    was: &serde_json::Value,
    now: &serde_json::Value,
    out: &mut Vec<String>,
) {
    use serde_json::Value;
    if let (Value::Object(a), Value::Object(b)) = (was, now) {
        let keys: std::collections::BTreeSet<&String> = a.keys().chain(b.keys()).collect();
        for k in keys {
            let name = format!("{path}.{k}");
            let (x, y) = (
                a.get(k).unwrap_or(&Value::Null),
                b.get(k).unwrap_or(&Value::Null),
            );
            json_differences(&name, x, y, out);
        }
    } else if was != now {
        out.push(format!("{path}: was {was}, now {now}"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    #[test]
    fn every_setting_is_checked_in_the_library() {
        let ok = IngestOptions::new(vec!["a".into()], "out".into());
        ok.validate().unwrap();
        let named = |change: &dyn Fn(&mut IngestOptions)| {
            let mut o = ok.clone();
            change(&mut o);
            match o.validate() {
                Err(Error::Collection(docview_collection::Error::Page(
                    crate::extract::Error::Setting { name, .. },
                ))) => name.to_string(),
                Err(other) => other.to_string(),
                Ok(()) => "accepted".to_string(),
            }
        };
        assert_eq!(named(&|o| o.integrate.beta = 1.5), "beta");
        assert_eq!(named(&|o| o.integrate.beta = 0.0), "accepted");
        assert_eq!(named(&|o| o.keyword.percentage = 0.0), "percentage");
        assert_eq!(
            named(&|o| o.stopwords.min_df_share = f32::NAN),
            "stopword-df"
        );
        assert_eq!(named(&|o| o.keyword.interval = 0), "interval");
        assert_eq!(named(&|o| o.commit_every = 0), "commit-every");
        assert_eq!(named(&|o| o.jsonl_keys.html = "url".into()), "html-field");
        assert_eq!(
            named(&|o| o.jsonl_keys.text = Some("url".into())),
            "text-field"
        );
        assert_eq!(named(&|o| o.limits.max_tags = 0), "max-page-tags");
        assert_eq!(
            named(&|o| o.threads = docview_collection::MAX_THREADS + 1),
            "threads"
        );
        assert_eq!(
            named(&|o| o.threads = docview_collection::MAX_THREADS),
            "accepted"
        );
        assert!(named(&|o| o.minhash.threshold = 0.0).contains("threshold"));
        // MinHash parameters matter only to MinHash detection.
        assert_eq!(
            named(&|o| {
                o.minhash.threshold = 0.0;
                o.detection = Detection::Exact;
            }),
            "accepted"
        );
    }

    #[test]
    fn resume_settings_name_the_version_and_the_model_bytes() {
        let dir = tempfile::tempdir().unwrap();
        let mut o = IngestOptions::new(vec![dir.path().to_path_buf()], dir.path().join("out"));
        let embedded = o.settings(None).unwrap();
        assert_eq!(embedded.docview_version, env!("CARGO_PKG_VERSION"));
        assert_eq!(embedded.model_digest.as_deref().unwrap().len(), 32);
        assert_eq!(embedded.templates, TemplateParams::default());
        // Read back as it is written.
        let json = serde_json::to_string(&embedded).unwrap();
        assert_eq!(
            serde_json::from_str::<RunSettings>(&json).unwrap(),
            embedded
        );
        // A model file: its bytes name it, so a retrained file at the same path differs.
        let model = dir.path().join("model.json");
        std::fs::write(&model, "one").unwrap();
        o.model = Some(model.clone());
        let first = o.settings(None).unwrap();
        std::fs::write(&model, "two").unwrap();
        let second = o.settings(None).unwrap();
        assert_ne!(first.model_digest, second.model_digest);
        assert_eq!(
            first.differences(&second),
            [format!(
                "model_digest: was \"{}\", now \"{}\"",
                first.model_digest.as_deref().unwrap(),
                second.model_digest.as_deref().unwrap()
            )]
        );
        // The framework cleaner uses no model.
        o.cleaner = CleanerKind::Framework;
        assert!(o.settings(None).unwrap().model_digest.is_none());
    }

    #[test]
    fn differences_name_each_changed_setting_by_its_path() {
        let dir = tempfile::tempdir().unwrap();
        let o = IngestOptions::new(vec![dir.path().to_path_buf()], dir.path().join("out"));
        let was = o.settings(Some(10)).unwrap();
        assert!(was.differences(&was).is_empty());
        let mut now = was.clone();
        now.inputs = vec!["/b".to_string()];
        now.integrate.keywords = was.integrate.keywords - 5;
        now.cleaner = CleanerKind::Framework;
        assert_eq!(
            was.differences(&now),
            [
                "cleaner: was \"learned\", now \"framework\"".to_string(),
                format!("inputs: was [\"{}\"], now [\"/b\"]", was.inputs[0]),
                format!(
                    "integrate.keywords: was {}, now {}",
                    was.integrate.keywords, now.integrate.keywords
                ),
            ]
        );
    }

    #[test]
    fn only_the_settings_that_shape_fingerprints_must_match() {
        let now = IngestOptions::new(Vec::new(), PathBuf::new());
        let mut was = now.settings(None).unwrap();
        // The threshold and the bands decide what counts as a near-replica, not the signature.
        was.minhash.threshold = 0.9;
        was.minhash.bands = 16;
        was.keyword.interval = 7;
        was.integrate.keywords = 3;
        assert!(was.fingerprint_differences(&now).is_empty());
        was.minhash.seed += 1;
        was.minhash.permutations = 64;
        assert_eq!(
            was.fingerprint_differences(&now),
            [
                format!(
                    "minhash.permutations: was 64, now {}",
                    now.minhash.permutations
                ),
                format!(
                    "minhash.seed: was {}, now {}",
                    now.minhash.seed + 1,
                    now.minhash.seed
                ),
            ]
        );
        // In keyword mode the keyword fingerprint's parameters count instead.
        let mut keyword = now.clone();
        keyword.detection = Detection::Keyword;
        was.detection = Detection::Keyword;
        let differs = was.fingerprint_differences(&keyword);
        assert_eq!(differs, ["keyword.interval: was 7, now 5"], "{differs:?}");
    }
}
