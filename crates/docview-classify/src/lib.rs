//! Content classification (004 §2, §6 "Content category", §7.1): the class of a page from a
//! trained classifier. It fills the classification code of a DocView. Two kinds, one
//! [`PageClassifier`]:
//!
//! - **Trees** ([`TreeClassifier`], the default model): one-vs-rest gradient-boosted trees
//!   over what the page looks like ([`docview_page::PageSignals`], its URL and its shape after
//!   cleaning). On wcxb-dev's seven page types they are right far more often than the kNN
//!   (figures in the README).
//! - **kNN**, the paper's ([`Classifier`]), over the feature vector of the topic content
//!   (Formula 2), which the pipeline has already built:
//!
//! - **Features.** A page is its Formula 2 vector: terms weighted by block weight times term
//!   frequency, unit length ([`docview_measure::FeatureVector`]), of its topic content or, for
//!   comparison, of the raw page.
//! - **Feature selection (§7.1):** chi-square of each term against each class over the
//!   training pages (a term present or absent in a page, [`chi_square`]); the top
//!   [`Params::terms_per_class`] terms of each class make the vocabulary.
//! - **kNN (§7.1):** a page's vector, cut to the vocabulary and renormalised, is compared by
//!   cosine with every training page; the `k` most similar vote for their class with their
//!   similarity; the class with the most votes wins (ties: the first class in name order), and
//!   its share of the votes is the score ([`Classifier::classify`]).
//! - **Model files** are JSON with a format name and a version; a file of another version is
//!   a clear error ([`PageClassifier::load`] reads either kind).

#![deny(missing_docs)]

use std::collections::BTreeMap;
use std::path::Path;

use docview_measure::FeatureVector;
use serde::{Deserialize, Serialize};

mod trees;

pub use trees::{PageView, TREES_FORMAT, TREES_VERSION, TreeClassifier, TreeParams};

/// The format name of a classifier file.
pub const MODEL_FORMAT: &str = "docview-classifier";
/// The version of the classifier file format this build reads and writes.
pub const MODEL_VERSION: u32 = 1;

/// Result with this crate's [`Error`].
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// What can go wrong with a classifier.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Reading or writing a model file failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The underlying I/O error.
        source: std::io::Error,
    },
    /// A model file cannot be read or is of another version, or there is nothing to train on.
    #[error("classifier {source_name}: {reason}")]
    Model {
        /// The model file, or what was being trained.
        source_name: String,
        /// What was wrong.
        reason: String,
    },
}

/// The classifier's parameters.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Params {
    /// Neighbours that vote.
    pub k: usize,
    /// Terms of highest chi-square kept per class.
    pub terms_per_class: usize,
    /// The weight of each structural term ([`PageShape::terms`]) beside the text's terms
    /// before the vector is normalised; 0 leaves them out.
    #[serde(default)]
    pub structure: f32,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            k: 10,
            terms_per_class: 300,
            structure: 0.3,
        }
    }
}

/// What a page looks like beyond its words (issue 14's structural features), as terms the
/// vector holds beside the text's: its page type of §4.1, the words of its URL's path, and
/// the sizes of its parts in powers of two.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PageShape {
    /// The page's web address, as the record or the page gave it; `None` when it has none (a
    /// local file that declares no `<link rel=canonical>` nor `og:url`): its URL features are
    /// then left out, not read from a file path.
    pub url: Option<String>,
    /// Its page type (004 §4.1): `topic`, `hub` or `image`.
    pub page_type: String,
    /// Links of its kept and hub blocks.
    pub links: usize,
    /// Words of its visible text.
    pub visible_words: usize,
    /// Words of its topic content.
    pub topic_words: usize,
    /// Paragraphs of its topic content.
    pub paragraphs: usize,
    /// Its hub blocks (link lists beside the topic content).
    pub hub_blocks: usize,
}

impl PageShape {
    /// The structural terms, sorted: `§type:topic`, `§url:WORD` for each word of 3 to 20
    /// letters of the URL's path (and `§url:?` for a query; none without a URL), `§links:N`, `§words:N`,
    /// `§paragraphs:N`, `§hubs:N` with `N = ⌊log₂(count + 1)⌋`, and `§share:D`, the topic
    /// content's tenth of the visible words.
    pub fn terms(&self) -> Vec<String> {
        let log = |x: usize| (x as f64 + 1.0).log2().floor() as u32;
        let mut out = vec![format!("§type:{}", self.page_type)];
        let (path, _, query) = trees::url_parts(self.url.as_deref().unwrap_or(""));
        for w in trees::words(path, 3) {
            out.push(format!("§url:{w}"));
        }
        if query {
            out.push("§url:?".to_string());
        }
        out.push(format!("§links:{}", log(self.links)));
        out.push(format!("§words:{}", log(self.topic_words)));
        out.push(format!("§paragraphs:{}", log(self.paragraphs)));
        out.push(format!("§hubs:{}", log(self.hub_blocks)));
        let share = self.topic_words as f64 / self.visible_words.max(1) as f64;
        out.push(format!(
            "§share:{}",
            (share * 10.0).floor().min(10.0) as u32
        ));
        out.sort();
        out.dedup();
        out
    }
}

/// `v` with `shape`'s terms beside its own at `weight` each, normalised again; `v` itself
/// when `weight` is 0.
pub fn with_shape(v: FeatureVector, shape: &PageShape, weight: f32) -> FeatureVector {
    if weight <= 0.0 {
        return v;
    }
    let mut features = v.features;
    features.extend(shape.terms().into_iter().map(|t| (t, weight)));
    features.sort_by(|a, b| a.0.cmp(&b.0));
    features.dedup_by(|b, a| {
        if a.0 == b.0 {
            a.1 += b.1;
            true
        } else {
            false
        }
    });
    FeatureVector { features }.normalised()
}

/// A class and how sure the classifier is of it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Classification {
    /// The class.
    pub class: String,
    /// How sure the classifier is, 0 to 1: the kNN's share of the neighbours' votes (weighted
    /// by similarity; for a class by prior, its share of the training pages), the trees' share
    /// of the class probabilities.
    pub score: f32,
    /// True when no training page shares a term with the page (an empty page, a language the
    /// training pages lack): the class is then the most frequent of the training pages.
    pub prior: bool,
}

/// Chi-square of each term against each class (§7.1): for `docs` given as (class index,
/// distinct terms), `χ²(t, c) = N (AD - CB)² / ((A + C)(B + D)(A + B)(C + D))` with `A` the
/// pages of `c` holding `t`, `B` the other pages holding it, `C` the pages of `c` without it
/// and `D` the other pages without it. Returns, per class, the terms and their scores.
pub fn chi_square<'a>(
    docs: &[(usize, Vec<&'a str>)],
    classes: usize,
) -> Vec<BTreeMap<&'a str, f64>> {
    let n = docs.len() as f64;
    let mut per_class = vec![0f64; classes];
    let mut holding: BTreeMap<&str, Vec<f64>> = BTreeMap::new();
    for (class, terms) in docs {
        per_class[*class] += 1.0;
        for t in terms {
            holding.entry(t).or_insert_with(|| vec![0.0; classes])[*class] += 1.0;
        }
    }
    let mut out = vec![BTreeMap::new(); classes];
    for (term, in_class) in &holding {
        let with: f64 = in_class.iter().sum();
        for c in 0..classes {
            let a = in_class[c];
            let b = with - a;
            let cc = per_class[c] - a;
            let d = n - with - cc;
            let den = (a + cc) * (b + d) * (a + b) * (cc + d);
            let chi = if den > 0.0 {
                n * (a * d - cc * b).powi(2) / den
            } else {
                0.0
            };
            out[c].insert(*term, chi);
        }
    }
    out
}

/// The vocabulary of §7.1 from labelled vectors (class index, vector): the `per_class`
/// terms of highest [`chi_square`] of each class, sorted, without repeats.
fn select_terms<'a>(
    pages: impl Iterator<Item = (usize, &'a FeatureVector)>,
    classes: usize,
    per_class: usize,
) -> Vec<String> {
    let docs: Vec<(usize, Vec<&str>)> = pages
        .map(|(c, v)| (c, v.features.iter().map(|(t, _)| t.as_str()).collect()))
        .collect();
    let chi = chi_square(&docs, classes);
    let mut vocabulary: Vec<String> = Vec::new();
    for scores in &chi {
        let mut ranked: Vec<(&str, f64)> = scores.iter().map(|(t, s)| (*t, *s)).collect();
        ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(b.0)));
        vocabulary.extend(
            ranked
                .into_iter()
                .take(per_class)
                .map(|(t, _)| t.to_string()),
        );
    }
    vocabulary.sort();
    vocabulary.dedup();
    vocabulary
}

/// A training page as the classifier keeps it: its class and its vector on the vocabulary
/// (term index, weight), unit length.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Example {
    class: u16,
    terms: Vec<(u32, f32)>,
}

/// The default classifier, inside the binary: trees for wcxb-dev's page types (article,
/// collection, documentation, forum, listing, product, service), built by
/// `docview classify train ../shared/corpus/wcxb-dev --out models/page-type-classifier.json`
/// and `gzip -9n`.
static EMBEDDED: &[u8] = include_bytes!("../../../models/page-type-classifier.json.gz");

/// The MD5 (hex) of bytes: what names a model in the records and in a resumed run's settings.
fn md5_hex(bytes: &[u8]) -> String {
    use md5::{Digest, Md5};
    Md5::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The digest of a model file's bytes, or of the model inside the binary (`None`).
pub fn model_digest(path: Option<&Path>) -> Result<String> {
    match path {
        Some(p) => std::fs::read(p)
            .map(|bytes| md5_hex(&bytes))
            .map_err(|source| Error::Io {
                path: p.display().to_string(),
                source,
            }),
        None => Ok(md5_hex(EMBEDDED)),
    }
}

/// Checks that `json` is a model file of `format` and `version`.
pub(crate) fn check_header(
    json: &str,
    format: &str,
    version: u32,
    source_name: &str,
) -> Result<()> {
    #[derive(Deserialize)]
    struct Header {
        format: String,
        version: u32,
    }
    let bad = |reason: String| Error::Model {
        source_name: source_name.to_string(),
        reason,
    };
    let header: Header =
        serde_json::from_str(json).map_err(|e| bad(format!("not a model file: {e}")))?;
    if header.format != format {
        return Err(bad(format!(
            "format {:?}, expected {format:?}",
            header.format
        )));
    }
    if header.version != version {
        return Err(bad(format!(
            "version {} but this docview reads version {version}: retrain it with \
             `docview classify train`",
            header.version
        )));
    }
    Ok(())
}

/// A trained kNN classifier (see the module documentation).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Classifier {
    format: String,
    version: u32,
    /// The scheme: what the classes are (for example the ground-truth field trained on).
    pub scheme: String,
    /// What the vectors were built from: `topic` (topic content) or `raw` (the whole page).
    pub source: String,
    /// The parameters it was trained with.
    pub params: Params,
    /// The classes, sorted.
    pub classes: Vec<String>,
    /// The vocabulary, sorted.
    vocabulary: Vec<String>,
    examples: Vec<Example>,
    /// For each vocabulary term, the training pages holding it and its weight there (built
    /// from `examples`, not stored): a page is compared with those sharing a term only.
    #[serde(skip)]
    postings: Vec<Vec<(u32, f32)>>,
}

/// `v` cut to `vocabulary` (sorted) and renormalised, as (term index, weight).
fn project(v: &FeatureVector, vocabulary: &[String]) -> Vec<(u32, f32)> {
    let mut out: Vec<(u32, f32)> = v
        .features
        .iter()
        .filter_map(|(t, w)| {
            vocabulary
                .binary_search_by(|x| x.as_str().cmp(t))
                .ok()
                .map(|i| (i as u32, *w))
        })
        .collect();
    let norm = out.iter().map(|f| f.1 * f.1).sum::<f32>().sqrt();
    if norm > 0.0 {
        for f in &mut out {
            f.1 /= norm;
        }
    }
    out
}

impl Classifier {
    /// Trains on `pages` (class, vector): chi-square selection of each class's top terms, and
    /// the pages kept on that vocabulary. `scheme` and `source` name what the classes and the
    /// vectors are. Deterministic: the same pages in the same order give the same model.
    pub fn train(
        pages: &[(String, FeatureVector)],
        params: Params,
        scheme: &str,
        source: &str,
    ) -> Result<Classifier> {
        let classes: Vec<String> = {
            let mut c: Vec<String> = pages.iter().map(|(l, _)| l.clone()).collect();
            c.sort();
            c.dedup();
            c
        };
        if classes.is_empty() {
            return Err(Error::Model {
                source_name: scheme.to_string(),
                reason: "no labelled pages to train on".to_string(),
            });
        }
        let index = |l: &str| classes.binary_search_by(|c| c.as_str().cmp(l)).unwrap_or(0);
        let vocabulary = select_terms(
            pages.iter().map(|(l, v)| (index(l), v)),
            classes.len(),
            params.terms_per_class,
        );
        let examples = pages
            .iter()
            .map(|(l, v)| Example {
                class: index(l) as u16,
                terms: project(v, &vocabulary),
            })
            .collect();
        Ok(Classifier {
            format: MODEL_FORMAT.to_string(),
            version: MODEL_VERSION,
            scheme: scheme.to_string(),
            source: source.to_string(),
            params,
            classes,
            vocabulary,
            examples,
            postings: Vec::new(),
        }
        .with_postings())
    }

    /// The classifier with its postings built.
    fn with_postings(mut self) -> Classifier {
        let mut postings = vec![Vec::new(); self.vocabulary.len()];
        for (i, e) in self.examples.iter().enumerate() {
            for &(t, w) in &e.terms {
                if let Some(list) = postings.get_mut(t as usize) {
                    list.push((i as u32, w));
                }
            }
        }
        self.postings = postings;
        self
    }

    /// The votes of the `k` training pages most similar to `v` (cosine on the vocabulary), by
    /// class index; ties in similarity go to the earlier training page.
    pub fn votes(&self, v: &FeatureVector) -> Vec<f32> {
        let q = project(v, &self.vocabulary);
        let mut acc = vec![0f32; self.examples.len()];
        for &(t, w) in &q {
            for &(i, x) in self.postings.get(t as usize).map_or(&[][..], Vec::as_slice) {
                acc[i as usize] += w * x;
            }
        }
        let mut sims: Vec<(f32, usize)> = acc
            .into_iter()
            .enumerate()
            .filter(|(_, s)| *s > 0.0)
            .map(|(i, s)| (s, i))
            .collect();
        sims.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        let mut votes = vec![0f32; self.classes.len()];
        for &(s, i) in sims.iter().take(self.params.k.max(1)) {
            if s > 0.0 {
                votes[self.examples[i].class as usize] += s;
            }
        }
        votes
    }

    /// The class of a page whose vector is `v` by its neighbours' votes; `None` when no
    /// neighbour shares a term with it (an empty page, another language).
    pub fn classify_by_neighbours(&self, v: &FeatureVector) -> Option<Classification> {
        let votes = self.votes(v);
        let total: f32 = votes.iter().sum();
        if total <= 0.0 {
            return None;
        }
        let mut best = 0;
        for (c, &w) in votes.iter().enumerate() {
            if w > votes[best] {
                best = c;
            }
        }
        Some(Classification {
            class: self.classes[best].clone(),
            score: votes[best] / total,
            prior: false,
        })
    }

    /// The class of a page whose text vector is `v` and whose shape is `shape` (the model's
    /// structural terms added at its weight, as it was trained): [`Classifier::classify`].
    pub fn classify_page(&self, v: &FeatureVector, shape: &PageShape) -> Classification {
        self.classify(&with_shape(v.clone(), shape, self.params.structure))
    }

    /// The class of a page whose vector is `v`: by its neighbours' votes, else (no neighbour
    /// shares a term with it) the most frequent class of the training pages (the first of
    /// equals), marked as such.
    pub fn classify(&self, v: &FeatureVector) -> Classification {
        self.classify_by_neighbours(v).unwrap_or_else(|| {
            let mut count = vec![0usize; self.classes.len()];
            for e in &self.examples {
                count[e.class as usize] += 1;
            }
            let mut best = 0;
            for (c, &n) in count.iter().enumerate() {
                if n > count[best] {
                    best = c;
                }
            }
            Classification {
                class: self.classes.get(best).cloned().unwrap_or_default(),
                score: count.get(best).copied().unwrap_or(0) as f32
                    / self.examples.len().max(1) as f32,
                prior: true,
            }
        })
    }

    /// Terms in the vocabulary.
    pub fn vocabulary_len(&self) -> usize {
        self.vocabulary.len()
    }

    /// Reads a model from JSON; `source_name` names it in errors.
    pub fn from_json(json: &str, source_name: &str) -> Result<Classifier> {
        let bad = |reason: String| Error::Model {
            source_name: source_name.to_string(),
            reason,
        };
        check_header(json, MODEL_FORMAT, MODEL_VERSION, source_name)?;
        let model: Classifier =
            serde_json::from_str(json).map_err(|e| bad(format!("malformed: {e}")))?;
        if model.examples.iter().any(|e| {
            e.class as usize >= model.classes.len()
                || e.terms
                    .iter()
                    .any(|&(t, _)| t as usize >= model.vocabulary.len())
        }) {
            return Err(bad(
                "a training page out of the classes or vocabulary".to_string()
            ));
        }
        Ok(model.with_postings())
    }

    /// The model as JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

/// A page classifier of either kind, as model files hold them and integration uses them.
pub enum PageClassifier {
    /// The paper's kNN over Formula 2 vectors ([`Classifier`]).
    Neighbours(Classifier),
    /// Gradient-boosted trees over the page's signals ([`TreeClassifier`]).
    Trees(TreeClassifier),
}

impl std::fmt::Debug for PageClassifier {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PageClassifier")
            .field("format", &self.format_version())
            .field("scheme", &self.scheme())
            .field("classes", &self.classes())
            .finish()
    }
}

impl PageClassifier {
    /// Reads a model of either kind from JSON (by its format name); `source_name` names it in
    /// errors.
    pub fn from_json(json: &str, source_name: &str) -> Result<PageClassifier> {
        #[derive(Deserialize)]
        struct Format {
            format: String,
        }
        let format: Format = serde_json::from_str(json).map_err(|e| Error::Model {
            source_name: source_name.to_string(),
            reason: format!("not a model file: {e}"),
        })?;
        if format.format == TREES_FORMAT {
            TreeClassifier::from_json(json, source_name).map(PageClassifier::Trees)
        } else {
            Classifier::from_json(json, source_name).map(PageClassifier::Neighbours)
        }
    }

    /// Reads a model file of either kind.
    pub fn load(path: &Path) -> Result<PageClassifier> {
        let json = std::fs::read_to_string(path).map_err(|source| Error::Io {
            path: path.display().to_string(),
            source,
        })?;
        PageClassifier::from_json(&json, &path.display().to_string())
    }

    /// The classifier inside the binary (decoded once).
    pub fn embedded() -> Result<std::sync::Arc<PageClassifier>> {
        use std::io::Read;
        type Loaded = std::result::Result<std::sync::Arc<PageClassifier>, String>;
        static MODEL: std::sync::OnceLock<Loaded> = std::sync::OnceLock::new();
        MODEL
            .get_or_init(|| {
                let mut json = String::new();
                flate2::read::GzDecoder::new(EMBEDDED)
                    .read_to_string(&mut json)
                    .map_err(|e| e.to_string())?;
                PageClassifier::from_json(&json, "embedded")
                    .map(std::sync::Arc::new)
                    .map_err(|e| e.to_string())
            })
            .clone()
            .map_err(|reason| Error::Model {
                source_name: "embedded".to_string(),
                reason,
            })
    }

    /// What its classes are.
    pub fn scheme(&self) -> &str {
        match self {
            PageClassifier::Neighbours(m) => &m.scheme,
            PageClassifier::Trees(m) => &m.scheme,
        }
    }

    /// Its classes, sorted.
    pub fn classes(&self) -> &[String] {
        match self {
            PageClassifier::Neighbours(m) => &m.classes,
            PageClassifier::Trees(m) => &m.classes,
        }
    }

    /// Its file format and version, `docview-classifier-trees v1`.
    pub fn format_version(&self) -> String {
        match self {
            PageClassifier::Neighbours(_) => format!("{MODEL_FORMAT} v{MODEL_VERSION}"),
            PageClassifier::Trees(_) => format!("{TREES_FORMAT} v{TREES_VERSION}"),
        }
    }

    /// The class of a page from its Formula 2 vector `v` (the kNN reads it, of the source the
    /// model was trained on) and its view (the trees read it; the kNN reads its shape).
    pub fn classify(&self, v: &FeatureVector, page: PageView<'_>) -> Classification {
        match self {
            PageClassifier::Neighbours(m) => m.classify_page(v, page.shape),
            PageClassifier::Trees(m) => m.classify(page),
        }
    }

    /// The model as JSON.
    pub fn to_json(&self) -> String {
        match self {
            PageClassifier::Neighbours(m) => m.to_json(),
            PageClassifier::Trees(m) => m.to_json(),
        }
    }

    /// Writes the model to `path`, whole or not at all (through a temporary file beside it).
    pub fn save(&self, path: &Path) -> Result<()> {
        let io = |source| Error::Io {
            path: path.display().to_string(),
            source,
        };
        let tmp = path.with_extension("json.partial");
        std::fs::write(&tmp, self.to_json()).map_err(io)?;
        std::fs::rename(&tmp, path).map_err(io)
    }
}

/// Per-class precision, recall and F1 (Formulas 4-6), macro F1, accuracy and the confusion
/// matrix of predictions against the truth.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ClassReport {
    /// The classes, sorted (rows and columns of `confusion`).
    pub classes: Vec<String>,
    /// `confusion[truth][predicted]`: pages; a page given no class is in no column.
    pub confusion: Vec<Vec<usize>>,
    /// Per class: (precision, recall, F1).
    pub per_class: Vec<(f64, f64, f64)>,
    /// Per class: its pages (given a class or not).
    pub actual: Vec<usize>,
    /// The mean F1 over the classes.
    pub macro_f1: f64,
    /// Pages whose predicted class is their class, over all pages.
    pub accuracy: f64,
    /// Pages scored.
    pub pages: usize,
}

impl ClassReport {
    /// The report of `(truth, predicted)` pairs; the classes are those of the truth and the
    /// predictions.
    pub fn of(pairs: &[(String, Option<String>)]) -> ClassReport {
        let mut classes: Vec<String> = pairs
            .iter()
            .flat_map(|(t, p)| std::iter::once(t.clone()).chain(p.clone()))
            .collect();
        classes.sort();
        classes.dedup();
        let at = |c: &str| classes.binary_search_by(|x| x.as_str().cmp(c)).unwrap_or(0);
        let mut confusion = vec![vec![0usize; classes.len()]; classes.len()];
        let mut right = 0;
        for (t, p) in pairs {
            if let Some(p) = p {
                confusion[at(t)][at(p)] += 1;
                right += usize::from(t == p);
            }
        }
        let mut actual = vec![0usize; classes.len()];
        for (t, _) in pairs {
            actual[at(t)] += 1;
        }
        let per_class: Vec<(f64, f64, f64)> = (0..classes.len())
            .map(|c| {
                let tp = confusion[c][c] as f64;
                let predicted: usize = confusion.iter().map(|row| row[c]).sum();
                let actual = actual[c];
                let p = if predicted > 0 {
                    tp / predicted as f64
                } else {
                    0.0
                };
                let r = if actual > 0 { tp / actual as f64 } else { 0.0 };
                let f = if p + r > 0.0 {
                    2.0 * p * r / (p + r)
                } else {
                    0.0
                };
                (p, r, f)
            })
            .collect();
        let macro_f1 = if classes.is_empty() {
            0.0
        } else {
            per_class.iter().map(|c| c.2).sum::<f64>() / classes.len() as f64
        };
        ClassReport {
            classes,
            confusion,
            per_class,
            actual,
            macro_f1,
            accuracy: if pairs.is_empty() {
                0.0
            } else {
                right as f64 / pairs.len() as f64
            },
            pages: pairs.len(),
        }
    }

    /// The report as a text table: per class P, R, F1 and pages, then macro F1 and accuracy,
    /// then the confusion matrix.
    pub fn render(&self) -> String {
        let mut s = String::new();
        let w = self
            .classes
            .iter()
            .map(|c| c.len())
            .max()
            .unwrap_or(5)
            .max(9);
        s.push_str(&format!(
            "{:<w$} {:>9} {:>9} {:>9} {:>6}\n",
            "class", "precision", "recall", "F1", "pages"
        ));
        for ((c, (p, r, f)), n) in self.classes.iter().zip(&self.per_class).zip(&self.actual) {
            s.push_str(&format!("{c:<w$} {p:>9.4} {r:>9.4} {f:>9.4} {n:>6}\n"));
        }
        s.push_str(&format!(
            "macro F1 {:.4}, accuracy {:.4} ({} pages)\n",
            self.macro_f1, self.accuracy, self.pages
        ));
        let unclassified = self.pages - self.confusion.iter().flatten().sum::<usize>();
        if unclassified > 0 {
            s.push_str(&format!(
                "{unclassified} pages given no class (no term of the vocabulary)\n"
            ));
        }
        s.push_str(&format!(
            "confusion (rows: truth, columns: predicted)\n{:<w$}",
            ""
        ));
        for c in &self.classes {
            s.push_str(&format!(" {:>6}", &c[..c.len().min(6)]));
        }
        s.push('\n');
        for (c, row) in self.classes.iter().zip(&self.confusion) {
            s.push_str(&format!("{c:<w$}"));
            for n in row {
                s.push_str(&format!(" {n:>6}"));
            }
            s.push('\n');
        }
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vector(terms: &[(&str, f32)]) -> FeatureVector {
        let mut features: Vec<(String, f32)> =
            terms.iter().map(|(t, w)| (t.to_string(), *w)).collect();
        features.sort_by(|a, b| a.0.cmp(&b.0));
        FeatureVector { features }.normalised()
    }

    /// Four pages, two classes: `price` in both shop pages and no news page scores
    /// `χ² = N (AD - CB)² / ((A+C)(B+D)(A+B)(C+D)) = 4 (2·2 - 0·0)² / (2·2·2·2) = 4`; `the`,
    /// in every page, scores 0.
    #[test]
    fn chi_square_of_a_tiny_set() {
        let docs = vec![
            (0, vec!["price", "cart", "the"]),
            (0, vec!["price", "the"]),
            (1, vec!["minister", "the"]),
            (1, vec!["minister", "cart", "the"]),
        ];
        let chi = chi_square(&docs, 2);
        assert!((chi[0]["price"] - 4.0).abs() < 1e-9);
        assert!((chi[1]["price"] - 4.0).abs() < 1e-9);
        assert_eq!(chi[0]["the"], 0.0);
        // cart: A=1, B=1, C=1, D=1: no association.
        assert_eq!(chi[0]["cart"], 0.0);
    }

    fn trained(k: usize) -> Classifier {
        let pages = vec![
            ("shop".to_string(), vector(&[("price", 2.0), ("cart", 1.0)])),
            (
                "shop".to_string(),
                vector(&[("price", 1.0), ("basket", 1.0)]),
            ),
            (
                "news".to_string(),
                vector(&[("minister", 2.0), ("vote", 1.0)]),
            ),
            (
                "news".to_string(),
                vector(&[("minister", 1.0), ("price", 0.2)]),
            ),
            ("news".to_string(), vector(&[("vote", 1.0), ("poll", 1.0)])),
        ];
        Classifier::train(
            &pages,
            Params {
                structure: 0.0,
                k,
                terms_per_class: 3,
            },
            "kind",
            "topic",
        )
        .unwrap()
    }

    /// kNN votes: the neighbours vote with their cosine; a page of `price` and `cart` is
    /// nearest the first shop page (1.0 against the vocabulary's vector), then the second.
    #[test]
    fn knn_votes_by_similarity() {
        let c = trained(2);
        assert_eq!(c.classes, vec!["news", "shop"]);
        let q = vector(&[("price", 2.0), ("cart", 1.0)]);
        let votes = c.votes(&q);
        assert_eq!(votes[0], 0.0, "no news page among the two nearest");
        assert!(votes[1] > 1.0, "{votes:?}");
        let got = c.classify(&q);
        assert!(!got.prior);
        assert_eq!(got.class, "shop");
        assert!((got.score - 1.0).abs() < 1e-6);
        // With all five voting, the news pages share a little of it.
        let wide = trained(5).classify(&q);
        assert_eq!(wide.class, "shop");
        assert!(wide.score < 1.0);
        let news = c.classify(&vector(&[("minister", 1.0), ("poll", 1.0)]));
        assert_eq!(news.class, "news");
        // No neighbour shares a term: the most frequent class (three of five), by prior.
        assert!(
            c.classify_by_neighbours(&vector(&[("unseen", 1.0)]))
                .is_none()
        );
        let prior = c.classify(&vector(&[("unseen", 1.0)]));
        assert_eq!(
            (prior.class.as_str(), prior.score, prior.prior),
            ("news", 0.6, true)
        );
    }

    #[test]
    fn a_page_shape_is_terms_of_its_type_url_and_sizes() {
        let shape = PageShape {
            url: Some("https://shop.example/products/garden-shears-2?ref=7".to_string()),
            page_type: "topic".to_string(),
            links: 12,
            visible_words: 1000,
            topic_words: 250,
            paragraphs: 3,
            hub_blocks: 0,
        };
        assert_eq!(
            shape.terms(),
            vec![
                "§hubs:0",
                "§links:3",
                "§paragraphs:2",
                "§share:2",
                "§type:topic",
                "§url:?",
                "§url:garden",
                "§url:products",
                "§url:shears",
                "§words:7",
            ]
        );
        // At weight 0 a vector is left as it is; above, the terms join it, unit length.
        let v = vector(&[("price", 1.0)]);
        assert_eq!(with_shape(v.clone(), &shape, 0.0), v);
        let with = with_shape(v, &shape, 0.3);
        assert_eq!(with.features.len(), 11);
        let norm: f32 = with.features.iter().map(|f| f.1 * f.1).sum();
        assert!((norm - 1.0).abs() < 1e-5);
    }

    #[test]
    fn model_round_trip_and_version_check() {
        let c = trained(3);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("m.json");
        PageClassifier::Neighbours(c.clone()).save(&path).unwrap();
        let back = PageClassifier::load(&path).unwrap();
        assert_eq!(back.format_version(), "docview-classifier v1");
        assert!(matches!(back, PageClassifier::Neighbours(m) if m == c));
        // Same pages, same bytes.
        assert_eq!(trained(3).to_json(), c.to_json());
        let old = c.to_json().replace("\"version\":1", "\"version\":0");
        let err = Classifier::from_json(&old, "old.json")
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("old.json") && err.contains("version 0"),
            "{err}"
        );
        let err = Classifier::from_json("{}", "x").unwrap_err().to_string();
        assert!(err.contains("not a model file"), "{err}");
    }

    #[test]
    fn class_report_follows_formulas_four_to_six() {
        let pairs: Vec<(String, Option<String>)> = [
            ("a", Some("a")),
            ("a", Some("b")),
            ("b", Some("b")),
            ("b", None),
        ]
        .iter()
        .map(|(t, p)| (t.to_string(), p.map(str::to_string)))
        .collect();
        let r = ClassReport::of(&pairs);
        assert_eq!(r.confusion, vec![vec![1, 1], vec![0, 1]]);
        // a: P 1/1, R 1/2; b: P 1/2, R 1/2.
        assert_eq!(r.per_class[0].0, 1.0);
        assert_eq!(r.per_class[0].1, 0.5);
        assert_eq!(r.per_class[1].0, 0.5);
        assert_eq!(r.per_class[1].1, 0.5);
        assert_eq!(r.accuracy, 0.5);
        assert!(r.render().contains("macro F1"));
    }
}
