//! The settings of one run: what `docview ingest` (and a sharded run's plan) is asked to do
//! ([`IngestOptions`], checked by [`IngestOptions::validate`]), the classifier it fills the
//! classification codes with ([`ClassifierChoice`]), and what a resumed run must find unchanged
//! ([`RunSettings`], saved in `state.json`).

use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::clean::CleanerKind;
use crate::extract::PageLimits;
use crate::integrate::IntegrateParams;
use crate::replica::{Detection, KeywordParams, MinHashParams};
use crate::stats::StopwordParams;
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

impl ClassifierChoice {
    /// The classifier and the name its records give it; `None` for [`ClassifierChoice::Off`].
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
    /// The classifier that fills each DocView's classification code.
    pub classifier: ClassifierChoice,
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
    /// incremental crawl: see [`earlier`]).
    #[serde(default)]
    pub earlier: Vec<PathBuf>,
}

impl IngestOptions {
    /// Options with the defaults for `inputs` into `out`.
    pub fn new(inputs: Vec<PathBuf>, out: PathBuf) -> Self {
        IngestOptions {
            inputs,
            out,
            cleaner: CleanerKind::default(),
            model: None,
            classifier: ClassifierChoice::default(),
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
        self.limits.validate()?;
        if self.detection == Detection::MinHash {
            self.minhash.validate()?;
        }
        Ok(())
    }

    /// What a resumed run must find unchanged: the docview version, the inputs (and their
    /// size, so that a file that grew or shrank is noticed), the block model's bytes and every
    /// setting that shapes the outputs, the fixed ones (framework, site templates) included.
    pub(crate) fn settings(&self, input_bytes: Option<u64>) -> Result<serde_json::Value> {
        let model = if self.cleaner.uses_block_model() {
            Some(crate::clean::model_digest(self.model.as_deref())?)
        } else {
            None
        };
        Ok(serde_json::json!({
            "docview_version": env!("CARGO_PKG_VERSION"),
            "model_digest": model,
            "classifier_digest": self.classifier.digest()?,
            "framework": crate::clean::FrameworkParams::default(),
            "templates": crate::stats::template::TemplateParams::default(),
            // Canonical paths: the same folder named another way is the same input.
            "inputs": self.inputs.iter().map(|p| setting_path(p)).collect::<Vec<_>>(),
            "input_bytes": input_bytes,
            "cleaner": self.cleaner,
            "pages_alone": self.pages_alone,
            "model": self.model.as_deref().map(setting_path),
            "integrate": self.integrate,
            "keyword": self.keyword,
            "detection": self.detection,
            "minhash": self.minhash,
            "stopwords": self.stopwords,
            "stats_file": self.stats_file.as_ref().map(|p| p.display().to_string()),
            "limits": self.limits,
            "markdown": self.markdown,
            "earlier": self.earlier.iter().map(|p| setting_path(p)).collect::<Vec<_>>(),
            // Not `parquet`: it adds a file at the end and changes no record, so a resumed
            // run may ask for it or not.
        }))
    }
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

/// What differs between the settings of the interrupted run and this one, one entry per
/// setting (nested ones by their path): `integrate.keywords: was 15, now 10`.
pub(crate) fn settings_diff(was: &serde_json::Value, now: &serde_json::Value) -> Vec<String> {
    fn walk(path: &str, was: &serde_json::Value, now: &serde_json::Value, out: &mut Vec<String>) {
        use serde_json::Value;
        if let (Value::Object(a), Value::Object(b)) = (was, now) {
            let keys: std::collections::BTreeSet<&String> = a.keys().chain(b.keys()).collect();
            for k in keys {
                let name = if path.is_empty() {
                    k.clone()
                } else {
                    format!("{path}.{k}")
                };
                let (x, y) = (
                    a.get(k).unwrap_or(&Value::Null),
                    b.get(k).unwrap_or(&Value::Null),
                );
                walk(&name, x, y, out);
            }
        } else if was != now {
            out.push(format!("{path}: was {was}, now {now}"));
        }
    }
    let mut out = Vec::new();
    walk("", was, now, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_setting_is_checked_in_the_library() {
        let ok = IngestOptions::new(vec!["a".into()], "out".into());
        ok.validate().unwrap();
        let named = |change: &dyn Fn(&mut IngestOptions)| {
            let mut o = ok.clone();
            change(&mut o);
            match o.validate() {
                Err(Error::Page(crate::extract::Error::Setting { name, .. })) => name.to_string(),
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
        assert_eq!(named(&|o| o.limits.max_tags = 0), "max-page-tags");
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
        assert_eq!(embedded["docview_version"], env!("CARGO_PKG_VERSION"));
        assert_eq!(embedded["model_digest"].as_str().unwrap().len(), 32);
        assert!(embedded["templates"]["min_pages"].is_number());
        assert!(embedded["framework"]["lead_block_terms"].is_number());
        // A model file: its bytes name it, so a retrained file at the same path differs.
        let model = dir.path().join("model.json");
        std::fs::write(&model, "one").unwrap();
        o.model = Some(model.clone());
        let first = o.settings(None).unwrap();
        std::fs::write(&model, "two").unwrap();
        let second = o.settings(None).unwrap();
        assert_ne!(first["model_digest"], second["model_digest"]);
        assert_eq!(
            settings_diff(&first, &second),
            [format!(
                "model_digest: was {}, now {}",
                first["model_digest"], second["model_digest"]
            )]
        );
        // The framework cleaner uses no model.
        o.cleaner = CleanerKind::Framework;
        assert!(o.settings(None).unwrap()["model_digest"].is_null());
    }

    #[test]
    fn settings_diff_names_each_changed_setting() {
        let was = serde_json::json!({"inputs": ["/a"], "integrate": {"keywords": 15, "beta": 0.1}});
        let now = serde_json::json!({"inputs": ["/b"], "integrate": {"keywords": 10, "beta": 0.1}});
        assert_eq!(
            settings_diff(&was, &now),
            [
                "inputs: was [\"/a\"], now [\"/b\"]",
                "integrate.keywords: was 15, now 10"
            ]
        );
    }
}
