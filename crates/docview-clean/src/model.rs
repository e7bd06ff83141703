//! The block model of the learned cleaner: gradient-boosted trees (forust-ml, in stages of
//! `docview-trees`) that score how likely a text block is topic content, from its
//! [`features`](super::features).
//!
//! A model is a versioned JSON file: the format name, [`MODEL_VERSION`], the feature names it
//! was trained on, the decision thresholds (of a page and of a prose page), a line saying what
//! it was trained on, and the trees.
//! Loading a model of another version, or of other features, is an error that says so. One
//! model ships inside the binary ([`BlockModel::embedded`]); `--model FILE` replaces it.
//!
//! Training is deterministic: the same rows, weights and parameters give the same bytes (the
//! trees are grown without sampling, histograms per feature in a fixed order).

use std::io::Read;
use std::path::Path;
use std::sync::{Arc, OnceLock};

use docview_trees::{BoostParams, Stage, Training};
use serde::{Deserialize, Serialize};

use super::features::{
    BlockFeatures, CONTEXT_NAMES, FEATURE_NAMES, N_CONTEXT, N_FEATURES, context_rows, parents,
};
use super::lexicon::Lexicon;
use super::site_evidence::{N_SITE, SITE_NAMES};
use crate::{Error, Result};
use docview_page::TagTree;

/// The format name written in every model file.
pub(crate) const MODEL_FORMAT: &str = "docview-block-model";
/// The version of the model file layout and of the features; bumped whenever either changes.
pub(crate) const MODEL_VERSION: u32 = 3;

/// The model shipped inside the binary, gzip-compressed (built by `docview train-cleaner`, see
/// the README).
static EMBEDDED: &[u8] = include_bytes!("../../../models/block-model.json.gz");

/// The MD5 (hex) of a model file's bytes, or of the model inside the binary (`None`): what
/// names the model a run used, so that a resumed ingest is refused under another model.
pub fn model_digest(path: Option<&Path>) -> Result<String> {
    use md5::{Digest, Md5};
    let bytes = match path {
        Some(p) => std::fs::read(p).map_err(|source| Error::Io {
            path: p.to_path_buf(),
            source,
        })?,
        None => EMBEDDED.to_vec(),
    };
    Ok(Md5::digest(&bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect())
}

/// The threshold a model is trained with: a block scored at least this is topic content, on a
/// page that is not a prose page (see [`PROSE_THRESHOLD`]). Below the 0.5 of a plain
/// probability: pages of lists, products and services gain recall, cross-validated by site
/// (the README gives the sweep). 0.45 until the labels outside the article's element were
/// made stricter (issue 42), which lowered the scores of a list's items: cross-validated,
/// wcxb-dev's listings 0.667 at 0.45, 0.673 at 0.40, 0.677 at 0.35 (0.685 before the labels),
/// the other sets and page types alike (`docs/explain/learned-cleaner.md`, Labels).
pub const THRESHOLD: f32 = 0.35;

/// The threshold on a prose page: an article's comments, teasers and furniture score near 0.5,
/// and a higher bar drops them at little cost to recall (the README gives the sweep).
pub const PROSE_THRESHOLD: f32 = 0.6;

/// Parameters of training: the boosting of each [`Stage`] and what the block model learns
/// besides.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct TrainParams {
    /// Boosting rounds (trees).
    pub trees: usize,
    /// Depth limit of each tree.
    pub max_depth: usize,
    /// Shrinkage of each tree's values.
    pub learning_rate: f32,
    /// Seed of any randomness in training.
    pub seed: u64,
    /// Learn a [lexicon](crate::Lexicon) from the labelled blocks and fill each row's lexicon
    /// features from it; without, they stay 0 and the model has no lexicon.
    pub lexicon: bool,
    /// Train a site stage on the pages' [site evidence](crate::SiteRepeats), read where a
    /// page's site has a model; without, the model judges every page alone.
    #[serde(default)]
    pub site_evidence: bool,
    /// Threads for training (0: one per core); the result does not depend on it.
    #[serde(skip)]
    pub threads: usize,
}

impl Default for TrainParams {
    fn default() -> Self {
        TrainParams {
            trees: 150,
            max_depth: 6,
            learning_rate: 0.15,
            seed: 0,
            lexicon: false,
            site_evidence: false,
            threads: 0,
        }
    }
}

impl Training for TrainParams {
    type Error = Error;

    fn boosting(&self) -> BoostParams {
        BoostParams {
            trees: self.trees,
            max_depth: self.max_depth,
            learning_rate: self.learning_rate,
            seed: self.seed,
            threads: self.threads,
        }
    }
}

/// A trained block model.
#[derive(Serialize, Deserialize)]
pub struct BlockModel {
    /// Always `docview-block-model`.
    pub format: String,
    /// The layout version, this docview's when written by it (a model of another version is
    /// refused).
    pub version: u32,
    /// The feature names, in row order.
    pub features: Vec<String>,
    /// A block is topic content when its score reaches this, except on a prose page.
    pub threshold: f32,
    /// The threshold on a prose page, whose blocks at or above `threshold` are mostly long
    /// paragraphs (the page reads as one text, not as a list of items). `None` in a model file
    /// written before it: every page of such a model uses `threshold`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prose_threshold: Option<f32>,
    /// What it was trained on (sets, pages, blocks).
    pub trained_on: String,
    /// The training parameters.
    pub params: TrainParams,
    /// The first stage: a score per block from its own features.
    stage1: Stage,
    /// The second stage: a score per block from its features and the first-stage scores of
    /// its context ([`CONTEXT_NAMES`](super::features::CONTEXT_NAMES)).
    stage2: Stage,
    /// The stage for pages whose site has a model: it reads the second stage's rows and the
    /// blocks' [site evidence](super::site_evidence) besides, and a block's score is the lower
    /// of its and the second stage's. A model without one scores every page alone.
    #[serde(default)]
    site_stage: Option<Stage>,
    /// The word weights that fill the lexicon features of each row.
    lexicon: Lexicon,
}

/// The names of every feature a model reads, in row order: the block features, the context of
/// the second stage, the site evidence of the site stage.
fn all_feature_names() -> impl Iterator<Item = &'static str> {
    FEATURE_NAMES
        .iter()
        .chain(CONTEXT_NAMES)
        .chain(SITE_NAMES)
        .copied()
}

impl BlockModel {
    /// A model of trained stages: `stage1` on rows of [`N_FEATURES`], `stage2` on rows of
    /// [`N_FEATURES`] + [`N_CONTEXT`], and `site_stage`, if any, on rows of those and
    /// [`N_SITE`].
    pub fn from_stages(
        stage1: Stage,
        stage2: Stage,
        site_stage: Option<Stage>,
        lexicon: Lexicon,
        params: &TrainParams,
        trained_on: String,
    ) -> Result<BlockModel> {
        let site_width = site_stage.as_ref().map_or(SITE_WIDTH, |s| s.width());
        if stage1.width() != N_FEATURES
            || stage2.width() != N_FEATURES + N_CONTEXT
            || site_width != SITE_WIDTH
        {
            return Err(Error::Model {
                source_name: "training".into(),
                reason: format!(
                    "stages of {}, {} and (site) {site_width} features, expected {N_FEATURES}, \
                     {} and {SITE_WIDTH}",
                    stage1.width(),
                    stage2.width(),
                    N_FEATURES + N_CONTEXT
                ),
            });
        }
        Ok(BlockModel {
            format: MODEL_FORMAT.into(),
            version: MODEL_VERSION,
            features: all_feature_names().map(str::to_string).collect(),
            threshold: THRESHOLD,
            prose_threshold: Some(PROSE_THRESHOLD),
            trained_on,
            params: params.clone(),
            stage1,
            stage2,
            site_stage,
            lexicon,
        })
    }

    /// The model inside the binary, loaded once.
    pub fn embedded() -> Result<Arc<BlockModel>> {
        static MODEL: OnceLock<std::result::Result<Arc<BlockModel>, String>> = OnceLock::new();
        MODEL
            .get_or_init(|| {
                let mut json = Vec::new();
                flate2::read::GzDecoder::new(EMBEDDED)
                    .read_to_end(&mut json)
                    .map_err(|e| e.to_string())?;
                BlockModel::from_json(&json, "embedded")
                    .map(Arc::new)
                    .map_err(|e| e.to_string())
            })
            .clone()
            .map_err(|reason| Error::Model {
                source_name: "embedded".into(),
                reason,
            })
    }

    /// Reads a model file (JSON, or gzip-compressed JSON).
    pub fn load(path: &Path) -> Result<BlockModel> {
        let bytes = std::fs::read(path).map_err(|source| Error::Io {
            path: path.to_path_buf(),
            source,
        })?;
        let name = path.display().to_string();
        if bytes.starts_with(&[0x1f, 0x8b]) {
            let mut json = Vec::new();
            flate2::read::GzDecoder::new(&bytes[..])
                .read_to_end(&mut json)
                .map_err(|e| Error::Model {
                    source_name: name.clone(),
                    reason: format!("bad gzip data: {e}"),
                })?;
            BlockModel::from_json(&json, &name)
        } else {
            BlockModel::from_json(&bytes, &name)
        }
    }

    /// Parses a model from its JSON, checking format, version and features.
    pub fn from_json(json: &[u8], name: &str) -> Result<BlockModel> {
        let err = |reason: String| Error::Model {
            source_name: name.to_string(),
            reason,
        };
        // Read the header first, so a model of another version says so rather than failing on
        // a field it lacks.
        #[derive(Deserialize)]
        struct Header {
            format: Option<String>,
            version: Option<u32>,
        }
        let header: Header = serde_json::from_slice(json)
            .map_err(|e| err(format!("not a model file (JSON: {e})")))?;
        if header.format.as_deref() != Some(MODEL_FORMAT) {
            return Err(err(format!(
                "not a docview block model (format {:?}, expected {MODEL_FORMAT:?})",
                header.format.unwrap_or_default()
            )));
        }
        match header.version {
            Some(MODEL_VERSION) => {}
            Some(v) => {
                return Err(err(format!(
                    "model version {v}, this docview reads version {MODEL_VERSION}: \
                     retrain it with `docview train-cleaner`"
                )));
            }
            None => return Err(err("no version field".into())),
        }
        let mut model: BlockModel =
            serde_json::from_slice(json).map_err(|e| err(format!("malformed model: {e}")))?;
        if !model
            .features
            .iter()
            .map(String::as_str)
            .eq(all_feature_names())
        {
            return Err(err(format!(
                "trained on {} features that are not this docview's {SITE_WIDTH}",
                model.features.len(),
            )));
        }
        let site_stage = model.site_stage.as_mut().map(|s| (s, SITE_WIDTH, "site"));
        for (stage, width, name) in [
            (&mut model.stage1, N_FEATURES, "first"),
            (&mut model.stage2, N_FEATURES + N_CONTEXT, "second"),
        ]
        .into_iter()
        .chain(site_stage)
        {
            if stage.width() != width {
                return Err(err(format!(
                    "its {name} stage reads rows of {} features, expected {width}",
                    stage.width()
                )));
            }
            stage
                .prepare()
                .map_err(|e| err(format!("its {name} stage {e}")))?;
        }
        Ok(model)
    }

    /// The model as JSON bytes, as written to a model file.
    pub fn to_json(&self) -> Result<Vec<u8>> {
        serde_json::to_vec(self).map_err(|e| Error::Model {
            source_name: "writing".into(),
            reason: e.to_string(),
        })
    }

    /// True when the model has a site stage: it reads site evidence where a page's site has a
    /// model.
    pub fn has_site_stage(&self) -> bool {
        self.site_stage.is_some()
    }

    /// The score (probability of topic content) of each text block of a page: the lexicon
    /// features filled in from the model's lexicon, then the first stage on the features and
    /// the second on the features and its context's first-stage scores.
    pub fn scores(&self, tree: &TagTree, features: &mut BlockFeatures) -> Vec<f32> {
        self.scores_in_site(tree, features, None)
    }

    /// [`BlockModel::scores`] for a page whose site has a model: `site` holds each block's
    /// [site evidence](crate::SiteRepeats) row ([`N_SITE`] values), read by the site stage,
    /// whose score replaces the second stage's where it is lower. Without `site`, or without a
    /// site stage, the second stage's scores.
    pub fn scores_in_site(
        &self,
        tree: &TagTree,
        features: &mut BlockFeatures,
        site: Option<&[f32]>,
    ) -> Vec<f32> {
        if features.is_empty() {
            return Vec::new();
        }
        self.lexicon.fill(features);
        let first = self.stage1.scores(&features.values);
        let terms: Vec<u32> = features
            .nodes
            .iter()
            .map(|&id| tree.node(id).own.terms)
            .collect();
        let context = context_rows(&parents(tree), features, &terms, &first);
        let joined = joined_rows(features, &context);
        let second = self.stage2.scores(&joined);
        match (&self.site_stage, site) {
            (Some(stage), Some(site)) if site.len() == features.len() * N_SITE => {
                // The site stage may only lower a score: a block the site's pages repeat is
                // boilerplate, but a block they do not repeat is not content for that (a
                // reader's comment, a one-off promotion are new on every page too). Taking
                // its score where it was higher kept the comments of the bundled samples
                // (0.9449 -> 0.9396); the lower of the two scores 0.9486 there.
                let with_site = stage.scores(&site_rows(&joined, N_FEATURES + N_CONTEXT, site));
                second
                    .iter()
                    .zip(with_site)
                    .map(|(&a, b)| a.min(b))
                    .collect()
            }
            _ => second,
        }
    }

    /// Each feature's share of a stage's total gain, largest first: stage 1 ranks the block
    /// features, stage 2 the block features and the context scores.
    /// Stage 3 is the site stage (empty when the model has none).
    pub fn importance(&self, stage: u8) -> Vec<(&'static str, f32)> {
        let (stage, names): (&Stage, Vec<&'static str>) = match stage {
            1 => (&self.stage1, FEATURE_NAMES.to_vec()),
            2 => (
                &self.stage2,
                FEATURE_NAMES.iter().chain(CONTEXT_NAMES).copied().collect(),
            ),
            _ => match &self.site_stage {
                Some(site) => (site, all_feature_names().collect()),
                None => return Vec::new(),
            },
        };
        let gains = stage.gains();
        let mut out: Vec<(&'static str, f32)> = names
            .into_iter()
            .enumerate()
            .map(|(i, name)| (name, gains.get(i).copied().unwrap_or(0.0)))
            .collect();
        out.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(b.0)));
        out
    }
}

impl std::fmt::Debug for BlockModel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BlockModel")
            .field("version", &self.version)
            .field("threshold", &self.threshold)
            .field("prose_threshold", &self.prose_threshold)
            .field("trained_on", &self.trained_on)
            .field("params", &self.params)
            .finish_non_exhaustive()
    }
}

/// The rows of the second stage: each block's features followed by its context row.
pub fn joined_rows(features: &BlockFeatures, context: &[f32]) -> Vec<f32> {
    let mut rows = Vec::with_capacity(features.len() * (N_FEATURES + N_CONTEXT));
    for k in 0..features.len() {
        rows.extend_from_slice(features.row(k));
        rows.extend_from_slice(&context[k * N_CONTEXT..(k + 1) * N_CONTEXT]);
    }
    rows
}

/// Width of the site stage's rows.
pub const SITE_WIDTH: usize = N_FEATURES + N_CONTEXT + N_SITE;

/// Rows of `width` values (of `rows`), each followed by its block's site-evidence row (of
/// `site`, [`N_SITE`] values): the rows of a site stage.
pub fn site_rows(rows: &[f32], width: usize, site: &[f32]) -> Vec<f32> {
    let mut out = Vec::with_capacity(rows.len() / width.max(1) * (width + N_SITE));
    for (row, evidence) in rows.chunks_exact(width).zip(site.chunks_exact(N_SITE)) {
        out.extend_from_slice(row);
        out.extend_from_slice(evidence);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small model on synthetic rows: content when the first feature is above 0.5, with a
    /// second stage that reads the first-stage score too.
    fn tiny_model(seed: u64) -> BlockModel {
        let params = TrainParams {
            trees: 5,
            max_depth: 3,
            seed,
            threads: 1,
            ..TrainParams::default()
        };
        let n = 200;
        let mut rows = Vec::new();
        let mut joined = Vec::new();
        let mut labels = Vec::new();
        for i in 0..n {
            let x = i as f32 / n as f32;
            let mut row = vec![0.0f32; N_FEATURES];
            row[0] = x;
            row[1] = (i % 7) as f32;
            rows.extend_from_slice(&row);
            joined.extend_from_slice(&row);
            joined.extend(std::iter::repeat_n(x, N_CONTEXT));
            labels.push(if x > 0.5 { 1.0 } else { 0.0 });
        }
        let weights = vec![1.0; n];
        let s1 = Stage::train(&rows, N_FEATURES, &labels, &weights, &params).unwrap();
        let s2 = Stage::train(&joined, N_FEATURES + N_CONTEXT, &labels, &weights, &params).unwrap();
        BlockModel::from_stages(
            s1,
            s2,
            None,
            Lexicon::default(),
            &params,
            "200 synthetic rows".into(),
        )
        .unwrap()
    }

    /// The tiny model with a site stage, whose evidence decides: content when the second site
    /// feature (text repeat) is low, whatever the first block feature says.
    fn tiny_site_model() -> BlockModel {
        let params = TrainParams {
            trees: 5,
            max_depth: 3,
            seed: 1,
            threads: 1,
            ..TrainParams::default()
        };
        let n = 200;
        let (mut second, mut labels) = (Vec::new(), Vec::new());
        for i in 0..n {
            let repeat = if i % 2 == 0 { 0.0 } else { 1.0 };
            let mut row = vec![0.0f32; N_FEATURES];
            row[0] = i as f32 / n as f32;
            let evidence = [1.0, repeat, 1.0, 0.5, 0.5];
            second.extend_from_slice(&row);
            second.extend(std::iter::repeat_n(0.5, N_CONTEXT));
            second.extend_from_slice(&evidence);
            labels.push(1.0 - f64::from(repeat));
        }
        let weights = vec![1.0; n];
        let mut model = tiny_model(1);
        model.site_stage =
            Some(Stage::train(&second, SITE_WIDTH, &labels, &weights, &params).unwrap());
        model
    }

    #[test]
    fn the_site_stage_reads_the_evidence_and_survive_the_file_format() {
        let model = tiny_site_model();
        assert!(model.has_site_stage());
        let tree = docview_page::build(
            "<body><div><p>one two three four</p><p>five six seven eight</p></div></body>",
        );
        let analysis = crate::Framework::default().analyse(&tree).unwrap();
        let mut features = crate::features::block_features(&tree, &analysis);
        assert_eq!(features.len(), 2);
        // The first block repeats on every other page of its site, the second on none.
        let site = [[1.0, 1.0, 1.0, 0.5, 0.5], [1.0, 0.0, 1.0, 0.5, 0.5]].concat();
        let scores = model.scores_in_site(&tree, &mut features, Some(&site));
        assert!(scores[0] < 0.5 && scores[1] > 0.5, "{scores:?}");
        // Without evidence the first two stages score, as for any page alone.
        assert_eq!(
            model.scores_in_site(&tree, &mut features, None),
            model.scores(&tree, &mut features)
        );
        // Evidence of the wrong length is not read.
        assert_eq!(
            model.scores_in_site(&tree, &mut features, Some(&site[..N_SITE])),
            model.scores(&tree, &mut features)
        );
        let back = BlockModel::from_json(&model.to_json().unwrap(), "m").unwrap();
        assert!(back.has_site_stage());
        assert_eq!(
            back.scores_in_site(&tree, &mut features, Some(&site)),
            scores
        );
        assert_eq!(back.to_json().unwrap(), model.to_json().unwrap());
    }

    #[test]
    fn a_row_alone_scores_as_in_a_batch() {
        // The shipped model's 150 trees a stage: walked eight side by side, six in the last
        // group, for a row alone (docview-trees checks both walks against forust's own).
        let model = BlockModel::embedded().unwrap();
        let tree = docview_page::build(
            "<html><head><title>Tide pools</title></head><body>\
             <nav><a href=/>Home</a> <a href=/news>News</a></nav>\
             <article><h1>Tide pools</h1><p>At low tide, the pools fill. Crabs wait there!</p>\
             <p>Visitors step on bare rock, and put stones back.</p></article>\
             <footer>© 2024 Fieldnotes</footer></body></html>",
        );
        let analysis = crate::Framework::default().analyse(&tree).unwrap();
        let mut features = crate::features::block_features(&tree, &analysis);
        model.lexicon.fill(&mut features);
        assert!(features.len() >= 4);
        let batch = model.stage1.scores(&features.values);
        for (k, row) in features.values.chunks_exact(N_FEATURES).enumerate() {
            assert_eq!(model.stage1.scores(row), [batch[k]], "row {k}");
        }
    }

    #[test]
    fn round_trip_and_determinism() {
        let a = tiny_model(7).to_json().unwrap();
        let b = tiny_model(7).to_json().unwrap();
        assert_eq!(a, b, "same data and seed, same bytes");
        let back = BlockModel::from_json(&a, "a.json").unwrap();
        assert_eq!(back.to_json().unwrap(), a);
        assert_eq!(back.trained_on, "200 synthetic rows");
        // Gzip-compressed files load too.
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("m.json.gz");
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        std::io::Write::write_all(&mut enc, &a).unwrap();
        std::fs::write(&path, enc.finish().unwrap()).unwrap();
        assert_eq!(BlockModel::load(&path).unwrap().to_json().unwrap(), a);
    }

    #[test]
    fn other_versions_formats_and_features_are_refused() {
        let json = tiny_model(1).to_json().unwrap();
        let mut value: serde_json::Value = serde_json::from_slice(&json).unwrap();
        value["version"] = serde_json::json!(MODEL_VERSION + 1);
        let err = BlockModel::from_json(&serde_json::to_vec(&value).unwrap(), "old.json")
            .unwrap_err()
            .to_string();
        assert!(err.contains("old.json") && err.contains("version"), "{err}");
        assert!(err.contains("train-cleaner"), "{err}");

        value["version"] = serde_json::json!(MODEL_VERSION);
        value["features"][0] = serde_json::json!("something_else");
        let err = BlockModel::from_json(&serde_json::to_vec(&value).unwrap(), "f.json")
            .unwrap_err()
            .to_string();
        assert!(err.contains("features"), "{err}");

        let err = BlockModel::from_json(b"{\"format\": \"other\"}", "x.json")
            .unwrap_err()
            .to_string();
        assert!(err.contains("not a docview block model"), "{err}");
        let err = BlockModel::from_json(b"not json", "y.json")
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("y.json") && err.contains("not a model file"),
            "{err}"
        );
    }
}
