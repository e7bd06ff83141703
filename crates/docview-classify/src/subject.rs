//! A page's subject from a formal scheme (004 §2, §7.1; issue 45): the classification code
//! as the paper means it, what the page is about (`medtop:15000000` sport), learned from
//! labelled text and pages. Two methods over the same Formula 2 vectors (of the topic content,
//! or of the raw page to compare, 004 Figure 5), one model file that names its scheme:
//!
//! - **Linear** ([`SubjectMethod::Linear`], the default): multinomial logistic regression
//!   on tf-idf. A vector's weights are multiplied by each term's inverse document frequency
//!   over the training examples (`ln((1 + N) / (1 + df)) + 1`), cut to the terms of at least
//!   [`LinearParams::min_df`] examples and made unit length again; the weights are learnt by
//!   AdaGrad over the examples in an order shuffled by a fixed seed, with L2 regularisation on
//!   the weights an example touches, each example weighed so that every subject counts as
//!   much as the others together (macro F1 is what is scored). A subject's score is its
//!   softmax probability.
//! - **Neighbours** ([`SubjectMethod::Neighbours`]): the paper's chi-square term selection and
//!   kNN ([`Classifier`]); a subject's score is its share of the neighbours' votes.
//!
//! Terms are the text layer's: jieba words for Chinese, stems elsewhere, so one model holds
//! every language it was trained on. A page gets the subject of highest score when that score
//! reaches the model's threshold; otherwise none, with the reason ([`NoSubject`]).

use serde::{Deserialize, Serialize};

use docview_measure::FeatureVector;

use crate::model::check_header;
use crate::{Classifier, Error, Params, Result, Subject, SubjectScheme};

/// The format name of a subject model file.
pub(crate) const SUBJECT_FORMAT: &str = "docview-subject-classifier";
/// The version of the subject model file format this build reads and writes.
pub(crate) const SUBJECT_VERSION: u32 = 1;

/// Which vector of a page a classifier reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    /// The Formula 2 vector of the page's topic content.
    #[default]
    Topic,
    /// The Formula 2 vector of the whole page (every visible block).
    Raw,
}

impl Source {
    /// The name a model records.
    pub fn as_str(self) -> &'static str {
        match self {
            Source::Topic => "topic",
            Source::Raw => "raw",
        }
    }
}

/// How a subject model decides.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SubjectMethod {
    /// Logistic regression on tf-idf (the default).
    #[default]
    Linear,
    /// The paper's chi-square and kNN.
    Neighbours,
}

impl SubjectMethod {
    /// Its name.
    pub fn as_str(self) -> &'static str {
        match self {
            SubjectMethod::Linear => "linear",
            SubjectMethod::Neighbours => "neighbours",
        }
    }
}

/// The linear model's training parameters.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct LinearParams {
    /// Passes over the examples.
    pub epochs: u32,
    /// AdaGrad's step.
    pub learning_rate: f32,
    /// L2 regularisation of the weights.
    pub l2: f32,
    /// A term is kept when at least this many examples hold it.
    pub min_df: u32,
    /// The seed of the examples' order.
    pub seed: u64,
}

impl Default for LinearParams {
    fn default() -> Self {
        LinearParams {
            epochs: 12,
            learning_rate: 0.5,
            l2: 1e-4,
            min_df: 2,
            seed: 0x005e_ed45,
        }
    }
}

/// How a subject model is trained.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum SubjectTraining {
    /// Logistic regression with these parameters.
    Linear(LinearParams),
    /// chi-square and kNN with these parameters (their structural weight is not used).
    Neighbours(Params),
}

impl SubjectTraining {
    /// Its method.
    pub fn method(&self) -> SubjectMethod {
        match self {
            SubjectTraining::Linear(_) => SubjectMethod::Linear,
            SubjectTraining::Neighbours(_) => SubjectMethod::Neighbours,
        }
    }
}

/// A labelled example to train on: a subject code of the scheme, a vector and the example's
/// weight (1 for a page; less for a short labelled sentence, say).
#[derive(Debug, Clone, PartialEq)]
pub struct SubjectExample {
    /// The subject's code.
    pub code: String,
    /// Its Formula 2 vector.
    pub vector: FeatureVector,
    /// Its weight in training.
    pub weight: f32,
}

/// A page's subject as a record carries it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SubjectClass {
    /// The subject's code in the scheme (`medtop:15000000`).
    pub code: String,
    /// Its label (`sport`).
    pub label: String,
    /// How sure the model is, 0 to 1 (the linear model's probability, the kNN's share of
    /// votes).
    pub score: f32,
}

/// Why a page has no subject.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum NoSubject {
    /// No term of the page is one the model knows (no text, or a language it was not trained
    /// on).
    NoKnownTerm,
    /// The best subject's score is below the model's threshold.
    BelowThreshold,
}

impl NoSubject {
    /// Its name, as records write it.
    pub fn as_str(self) -> &'static str {
        match self {
            NoSubject::NoKnownTerm => "no-known-term",
            NoSubject::BelowThreshold => "below-threshold",
        }
    }
}

/// What a subject model says of a page.
#[derive(Debug, Clone, PartialEq)]
pub enum SubjectOf {
    /// Its subject.
    Subject(SubjectClass),
    /// None, why, and the best subject when there was one.
    None {
        /// Why not.
        reason: NoSubject,
        /// The subject of highest score (below the threshold), if any.
        best: Option<SubjectClass>,
    },
}

impl SubjectOf {
    /// The subject, if there is one.
    pub fn subject(&self) -> Option<&SubjectClass> {
        match self {
            SubjectOf::Subject(s) => Some(s),
            SubjectOf::None { .. } => None,
        }
    }

    /// The subject of highest score, whether or not it reaches the threshold (none when no
    /// term is known): what a cross-validation scores.
    pub fn best(&self) -> Option<&SubjectClass> {
        match self {
            SubjectOf::Subject(s) => Some(s),
            SubjectOf::None { best, .. } => best.as_ref(),
        }
    }
}

/// The learnt weights of the linear method.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Linear {
    params: LinearParams,
    /// The terms, sorted.
    vocabulary: Vec<String>,
    /// Each term's inverse document frequency.
    idf: Vec<f32>,
    /// Term-major: the weights of term `t` for each class at `t * classes ..`.
    weights: Vec<f32>,
    /// Each class's bias.
    bias: Vec<f32>,
}

/// The model of either method.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "method", rename_all = "lowercase")]
enum Body {
    Linear(Linear),
    Neighbours(Classifier),
}

/// A trained subject model (see the module documentation).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SubjectClassifier {
    format: String,
    version: u32,
    /// Its scheme, whole: the codes and labels a record may carry.
    pub scheme: SubjectScheme,
    /// The codes it was trained on (the scheme's that had examples), in the scheme's order.
    pub classes: Vec<String>,
    /// Which vector of a page it reads.
    pub source: Source,
    /// A subject is given when its score reaches this.
    pub threshold: f32,
    body: Body,
}

/// The subject model inside the binary (see [`SubjectClassifier::embedded`]).
static EMBEDDED: &[u8] = include_bytes!("../../../models/subject-classifier.json.gz");

/// The default threshold of a subject's score.
pub const DEFAULT_SUBJECT_THRESHOLD: f32 = 0.4;

/// A small xorshift generator: the examples' order, without an extra crate.
fn xorshift(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

impl Linear {
    /// `v` on the vocabulary, weighed by idf and unit length, as (term index, weight).
    fn project(&self, v: &FeatureVector) -> Vec<(u32, f32)> {
        crate::knn::project_weighed(v, &self.vocabulary, |i, w| w * self.idf[i])
    }

    /// The softmax of the classes' scores for a projected vector.
    fn probabilities(&self, x: &[(u32, f32)], out: &mut [f32]) {
        let k = self.bias.len();
        out.copy_from_slice(&self.bias);
        for &(t, w) in x {
            let row = &self.weights[t as usize * k..(t as usize + 1) * k];
            for (o, r) in out.iter_mut().zip(row) {
                *o += w * r;
            }
        }
        let max = out.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        let mut sum = 0.0;
        for o in out.iter_mut() {
            *o = (*o - max).exp();
            sum += *o;
        }
        for o in out.iter_mut() {
            *o /= sum;
        }
    }

    fn train(examples: &[(usize, &FeatureVector, f32)], classes: usize, p: LinearParams) -> Linear {
        // Document frequencies and the vocabulary.
        let mut df: std::collections::BTreeMap<&str, u32> = std::collections::BTreeMap::new();
        for (_, v, _) in examples {
            for (t, _) in &v.features {
                *df.entry(t.as_str()).or_insert(0) += 1;
            }
        }
        let n = examples.len() as f32;
        let kept: Vec<(&str, u32)> = df.into_iter().filter(|(_, d)| *d >= p.min_df).collect();
        let mut model = Linear {
            params: p,
            vocabulary: kept.iter().map(|(t, _)| t.to_string()).collect(),
            idf: kept
                .iter()
                .map(|(_, d)| ((1.0 + n) / (1.0 + *d as f32)).ln() + 1.0)
                .collect(),
            weights: vec![0.0; kept.len() * classes],
            bias: vec![0.0; classes],
        };
        let xs: Vec<Vec<(u32, f32)>> = examples.iter().map(|(_, v, _)| model.project(v)).collect();
        // Each subject's examples together weigh as much as any other's.
        let mut per_class = vec![0f32; classes];
        for (c, _, w) in examples {
            per_class[*c] += w;
        }
        let total: f32 = per_class.iter().sum();
        let balance: Vec<f32> = per_class
            .iter()
            .map(|&s| {
                if s > 0.0 {
                    total / (classes as f32 * s)
                } else {
                    0.0
                }
            })
            .collect();
        let mut g_w = vec![0f32; model.weights.len()];
        let mut g_b = vec![0f32; classes];
        let mut order: Vec<usize> = (0..examples.len()).collect();
        let mut state = p.seed | 1;
        let mut probs = vec![0f32; classes];
        const EPS: f32 = 1e-8;
        for _ in 0..p.epochs {
            for i in (1..order.len()).rev() {
                let j = (xorshift(&mut state) % (i as u64 + 1)) as usize;
                order.swap(i, j);
            }
            for &i in &order {
                let (class, _, weight) = examples[i];
                let x = &xs[i];
                model.probabilities(x, &mut probs);
                let scale = weight * balance[class];
                for c in 0..classes {
                    let g = scale * (probs[c] - if c == class { 1.0 } else { 0.0 });
                    g_b[c] += g * g;
                    model.bias[c] -= p.learning_rate * g / (g_b[c] + EPS).sqrt();
                    for &(t, xv) in x {
                        let at = t as usize * classes + c;
                        let grad = g * xv + p.l2 * model.weights[at];
                        g_w[at] += grad * grad;
                        model.weights[at] -= p.learning_rate * grad / (g_w[at] + EPS).sqrt();
                    }
                }
            }
        }
        model
    }
}

impl SubjectClassifier {
    /// Trains a model of `scheme` on `examples` (their codes must be the scheme's; a subject
    /// without examples is not a class of the model), reading pages' `source` vectors.
    /// Deterministic: the same examples in the same order give the same model.
    pub fn train(
        scheme: &SubjectScheme,
        examples: &[SubjectExample],
        training: SubjectTraining,
        source: Source,
    ) -> Result<SubjectClassifier> {
        let bad = |reason: String| Error::Model {
            source_name: format!("subjects of {}", scheme.name),
            reason,
        };
        for e in examples {
            if scheme.subject(&e.code).is_none() {
                return Err(bad(format!(
                    "the code {:?} is not one of the scheme's",
                    e.code
                )));
            }
        }
        let classes: Vec<String> = scheme
            .subjects
            .iter()
            .filter(|s| examples.iter().any(|e| e.code == s.code))
            .map(|s| s.code.clone())
            .collect();
        if classes.len() < 2 {
            return Err(bad(format!(
                "examples of {} subject(s): at least two are needed",
                classes.len()
            )));
        }
        let index = |code: &str| classes.iter().position(|c| c == code).unwrap_or(0);
        let body = match training {
            SubjectTraining::Linear(p) => {
                let labelled: Vec<(usize, &FeatureVector, f32)> = examples
                    .iter()
                    .filter(|e| !e.vector.is_empty() && e.weight > 0.0)
                    .map(|e| (index(&e.code), &e.vector, e.weight))
                    .collect();
                Body::Linear(Linear::train(&labelled, classes.len(), p))
            }
            SubjectTraining::Neighbours(p) => {
                let pages: Vec<(String, FeatureVector)> = examples
                    .iter()
                    .map(|e| (e.code.clone(), e.vector.clone()))
                    .collect();
                let params = Params {
                    structure: 0.0,
                    ..p
                };
                Body::Neighbours(Classifier::train(
                    &pages,
                    params,
                    &scheme.name,
                    source.as_str(),
                )?)
            }
        };
        Ok(SubjectClassifier {
            format: SUBJECT_FORMAT.to_string(),
            version: SUBJECT_VERSION,
            scheme: scheme.clone(),
            classes,
            source,
            threshold: DEFAULT_SUBJECT_THRESHOLD,
            body,
        })
    }

    /// Its method.
    pub fn method(&self) -> SubjectMethod {
        match self.body {
            Body::Linear(_) => SubjectMethod::Linear,
            Body::Neighbours(_) => SubjectMethod::Neighbours,
        }
    }

    /// Each class's score for a vector, in the order of [`SubjectClassifier::classes`],
    /// summing to 1; `None` when no term of it is one the model knows.
    pub fn scores(&self, v: &FeatureVector) -> Option<Vec<f32>> {
        match &self.body {
            Body::Linear(m) => {
                let x = m.project(v);
                if x.is_empty() {
                    return None;
                }
                let mut out = vec![0f32; self.classes.len()];
                m.probabilities(&x, &mut out);
                Some(out)
            }
            Body::Neighbours(m) => {
                // The kNN's classes are sorted codes; give them in the scheme's order.
                let votes = m.votes(v);
                let total: f32 = votes.iter().sum();
                if total <= 0.0 {
                    return None;
                }
                Some(
                    self.classes
                        .iter()
                        .map(|c| {
                            m.classes
                                .iter()
                                .position(|x| x == c)
                                .map_or(0.0, |i| votes[i] / total)
                        })
                        .collect(),
                )
            }
        }
    }

    /// The subject of a page whose vector is `v`: the class of highest score (ties: the
    /// scheme's earlier), when it reaches the threshold.
    pub fn classify(&self, v: &FeatureVector) -> SubjectOf {
        let Some(scores) = self.scores(v) else {
            return SubjectOf::None {
                reason: NoSubject::NoKnownTerm,
                best: None,
            };
        };
        let mut best = 0;
        for (i, &s) in scores.iter().enumerate() {
            if s > scores[best] {
                best = i;
            }
        }
        let code = &self.classes[best];
        let subject = SubjectClass {
            code: code.clone(),
            label: self
                .scheme
                .subject(code)
                .map(|s: &Subject| s.label.clone())
                .unwrap_or_default(),
            score: scores[best],
        };
        if subject.score >= self.threshold {
            SubjectOf::Subject(subject)
        } else {
            SubjectOf::None {
                reason: NoSubject::BelowThreshold,
                best: Some(subject),
            }
        }
    }

    /// The model with another threshold.
    pub fn with_threshold(mut self, threshold: f32) -> SubjectClassifier {
        self.threshold = threshold;
        self
    }

    /// Its file format and version, `docview-subject-classifier v1`.
    pub fn format_version(&self) -> String {
        format!("{SUBJECT_FORMAT} v{SUBJECT_VERSION}")
    }

    /// The model as JSON.
    pub fn to_json(&self) -> Result<String> {
        serde_json::to_string(self).map_err(|e| Error::Model {
            source_name: self.scheme.name.clone(),
            reason: e.to_string(),
        })
    }

    /// The model file's bytes: its JSON, gzipped when `gzip` (a file whose name ends in
    /// `.gz`, which [`SubjectClassifier::load`] reads back).
    pub fn to_bytes(&self, gzip: bool) -> Result<Vec<u8>> {
        let json = self.to_json()?;
        if !gzip {
            return Ok(json.into_bytes());
        }
        use std::io::Write;
        let mut z = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        let io = |source| Error::Io {
            path: self.scheme.name.clone(),
            source,
        };
        z.write_all(json.as_bytes()).map_err(io)?;
        z.finish().map_err(io)
    }

    /// Reads a model from JSON; `source_name` names it in errors.
    pub fn from_json(json: &str, source_name: &str) -> Result<SubjectClassifier> {
        check_header(json, SUBJECT_FORMAT, SUBJECT_VERSION, source_name)?;
        let mut model: SubjectClassifier =
            serde_json::from_str(json).map_err(|e| Error::Model {
                source_name: source_name.to_string(),
                reason: e.to_string(),
            })?;
        if let Body::Neighbours(m) = model.body {
            model.body = Body::Neighbours(m.with_postings());
        }
        let bad = |reason: String| Error::Model {
            source_name: source_name.to_string(),
            reason,
        };
        if let Some(c) = model
            .classes
            .iter()
            .find(|c| model.scheme.subject(c).is_none())
        {
            return Err(bad(format!("the class {c:?} is not in its scheme")));
        }
        if let Body::Linear(m) = &model.body {
            let k = model.classes.len();
            if m.bias.len() != k
                || m.idf.len() != m.vocabulary.len()
                || m.weights.len() != m.vocabulary.len() * k
            {
                return Err(bad("its weights do not match its classes and terms".into()));
            }
        }
        Ok(model)
    }

    /// The subject model inside the binary (decoded once): the IPTC Media Topics' top level,
    /// learnt on topic content from SIB-200's sentences and the corpus pages whose subject was
    /// read from them (the confident labels), built by
    /// `docview classify train --scheme iptc --text models/subjects/sib200.jsonl --subjects
    /// models/subjects/read-labels.jsonl <the eight development sets> --out
    /// models/subject-classifier.json.gz` (docs/figures/subjects.md).
    pub fn embedded() -> Result<std::sync::Arc<SubjectClassifier>> {
        type Loaded = std::result::Result<std::sync::Arc<SubjectClassifier>, String>;
        static MODEL: std::sync::OnceLock<Loaded> = std::sync::OnceLock::new();
        MODEL
            .get_or_init(|| {
                SubjectClassifier::from_bytes(EMBEDDED, "embedded")
                    .map(std::sync::Arc::new)
                    .map_err(|e| e.to_string())
            })
            .clone()
            .map_err(|reason| Error::Model {
                source_name: "embedded subject model".to_string(),
                reason,
            })
    }

    /// The digest of a subject model file's bytes, or of the model inside the binary
    /// (`None`): what names it in the records and in a resumed run's settings.
    pub fn digest(path: Option<&std::path::Path>) -> Result<String> {
        crate::model::digest_of(path, EMBEDDED)
    }

    /// Reads a model from a file's bytes: JSON, or gzipped JSON (told by its first bytes).
    fn from_bytes(bytes: &[u8], source_name: &str) -> Result<SubjectClassifier> {
        let json = if bytes.starts_with(&[0x1f, 0x8b]) {
            use std::io::Read;
            let mut s = String::new();
            flate2::read::GzDecoder::new(bytes)
                .read_to_string(&mut s)
                .map_err(|e| Error::Model {
                    source_name: source_name.to_string(),
                    reason: format!("not a gzipped model: {e}"),
                })?;
            s
        } else {
            String::from_utf8(bytes.to_vec()).map_err(|e| Error::Model {
                source_name: source_name.to_string(),
                reason: format!("not UTF-8: {e}"),
            })?
        };
        SubjectClassifier::from_json(&json, source_name)
    }

    /// Reads a model file (JSON, or gzipped JSON).
    pub fn load(path: &std::path::Path) -> Result<SubjectClassifier> {
        let bytes = std::fs::read(path).map_err(|source| Error::Io {
            path: path.display().to_string(),
            source,
        })?;
        SubjectClassifier::from_bytes(&bytes, &path.display().to_string())
    }

    /// Whether the model file at `path` is a subject model (by its format name), so that one
    /// flag can take a model of either kind.
    pub fn is_subject_model(path: &std::path::Path) -> Result<bool> {
        use std::io::Read;
        let io = |source| Error::Io {
            path: path.display().to_string(),
            source,
        };
        // The format name is at the start of the JSON: 256 bytes of it tell, read through
        // gzip when the file starts with gzip's magic, and no more of the file is read.
        let mut file = std::fs::File::open(path).map_err(io)?;
        let mut magic = Vec::with_capacity(2);
        (&mut file).take(2).read_to_end(&mut magic).map_err(io)?;
        let gzip = magic == [0x1f, 0x8b];
        let start = std::io::Read::chain(&magic[..], file);
        let mut head = Vec::with_capacity(256);
        let read = if gzip {
            flate2::read::GzDecoder::new(start)
                .take(256)
                .read_to_end(&mut head)
        } else {
            start.take(256).read_to_end(&mut head)
        };
        // A file that is not gzip nor JSON is no subject model; reading it says why later.
        if read.is_err() {
            return Ok(false);
        }
        Ok(String::from_utf8_lossy(&head).contains(&format!("\"format\":\"{SUBJECT_FORMAT}\"")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vector(words: &[&str]) -> FeatureVector {
        let mut features: Vec<(String, f32)> = Vec::new();
        for w in words {
            match features.iter_mut().find(|(t, _)| t == w) {
                Some(f) => f.1 += 1.0,
                None => features.push((w.to_string(), 1.0)),
            }
        }
        features.sort_by(|a, b| a.0.cmp(&b.0));
        FeatureVector { features }.normalised()
    }

    fn examples() -> Vec<SubjectExample> {
        let sport = [
            &["match", "goal", "team", "score"][..],
            &["team", "coach", "season", "goal"],
            &["match", "referee", "league", "team"],
            &["league", "season", "coach", "win"],
        ];
        let economy = [
            &["market", "bank", "shares", "price"][..],
            &["bank", "interest", "rate", "inflation"],
            &["shares", "investors", "market", "profit"],
            &["inflation", "price", "profit", "bank"],
        ];
        let mut out = Vec::new();
        for (code, docs) in [("medtop:15000000", sport), ("medtop:04000000", economy)] {
            for d in docs {
                out.push(SubjectExample {
                    code: code.to_string(),
                    vector: vector(d),
                    weight: 1.0,
                });
            }
        }
        out
    }

    #[test]
    fn both_methods_learn_two_subjects_and_say_why_a_page_has_none() {
        let scheme = SubjectScheme::iptc();
        for training in [
            SubjectTraining::Linear(LinearParams::default()),
            SubjectTraining::Neighbours(Params {
                k: 3,
                terms_per_class: 20,
                structure: 0.0,
            }),
        ] {
            let m =
                SubjectClassifier::train(&scheme, &examples(), training, Source::Topic).unwrap();
            assert_eq!(m.method(), training.method());
            assert_eq!(m.classes, ["medtop:04000000", "medtop:15000000"]);
            let s = m.classify(&vector(&["goal", "team", "win"]));
            let s = s.subject().expect("a subject");
            assert_eq!(
                (s.code.as_str(), s.label.as_str()),
                ("medtop:15000000", "sport")
            );
            let e = m.classify(&vector(&["bank", "inflation", "market"]));
            assert_eq!(e.subject().unwrap().code, "medtop:04000000");
            assert_eq!(
                m.classify(&vector(&["unknown", "words"])),
                SubjectOf::None {
                    reason: NoSubject::NoKnownTerm,
                    best: None
                }
            );
            let unsure = m.clone().with_threshold(1.01).classify(&vector(&["goal"]));
            assert!(matches!(
                unsure,
                SubjectOf::None {
                    reason: NoSubject::BelowThreshold,
                    best: Some(_)
                }
            ));
            // The file round-trips and is deterministic.
            let json = m.to_json().unwrap();
            let back = SubjectClassifier::from_json(&json, "m.json").unwrap();
            assert_eq!(back.to_json().unwrap(), json);
            let again =
                SubjectClassifier::train(&scheme, &examples(), training, Source::Topic).unwrap();
            assert_eq!(again.to_json().unwrap(), json);
            assert_eq!(
                back.classify(&vector(&["goal", "team", "win"])),
                m.classify(&vector(&["goal", "team", "win"]))
            );
        }
    }

    #[test]
    fn training_refuses_codes_outside_the_scheme_and_a_single_subject() {
        let scheme = SubjectScheme::iptc();
        let mut ex = examples();
        ex[0].code = "medtop:99000000".into();
        let e = SubjectClassifier::train(
            &scheme,
            &ex,
            SubjectTraining::Linear(LinearParams::default()),
            Source::Topic,
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("medtop:99000000"), "{e}");
        let one: Vec<SubjectExample> = examples().into_iter().take(3).collect();
        let e = SubjectClassifier::train(
            &scheme,
            &one,
            SubjectTraining::Linear(LinearParams::default()),
            Source::Topic,
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains("at least two"), "{e}");
        let e =
            SubjectClassifier::from_json("{\"format\":\"docview-classifier\",\"version\":1}", "x")
                .unwrap_err()
                .to_string();
        assert!(e.contains("format"), "{e}");
    }
}
