//! The block model of the learned cleaner: gradient-boosted trees (forust-ml) that score how
//! likely a text block is topic content, from its [`features`](super::features).
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

use forust_ml::objective::ObjectiveType;
use forust_ml::{GradientBooster, Matrix};
use serde::{Deserialize, Serialize};

use super::features::{
    BlockFeatures, CONTEXT_NAMES, FEATURE_NAMES, N_CONTEXT, N_FEATURES, context_rows, parents,
};
use super::lexicon::Lexicon;
use super::site_evidence::{N_SITE, SITE_NAMES};
use crate::{Error, Result};
use docview_page::TagTree;

/// The format name written in every model file.
pub const MODEL_FORMAT: &str = "docview-block-model";
/// The version of the model file layout and of the features; bumped whenever either changes.
pub const MODEL_VERSION: u32 = 3;

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
/// page that is not a [prose page](super::learned::prose_page). Below the 0.5 of a plain
/// probability: pages of lists, products and services gain recall, cross-validated by site
/// (the README gives the sweep).
pub const THRESHOLD: f32 = 0.45;

/// The threshold on a prose page: an article's comments, teasers and furniture score near 0.5,
/// and a higher bar drops them at little cost to recall (the README gives the sweep).
pub const PROSE_THRESHOLD: f32 = 0.6;

/// Parameters of training.
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
    /// Learn a [lexicon](super::lexicon) from the labelled blocks and fill each row's lexicon
    /// features from it; without, they stay 0 and the model has no lexicon.
    pub lexicon: bool,
    /// Train a site stage on the pages' [site evidence](super::site_evidence), read where a
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

/// A trained block model.
#[derive(Serialize, Deserialize)]
pub struct BlockModel {
    /// Always [`MODEL_FORMAT`].
    pub format: String,
    /// The layout version, [`MODEL_VERSION`] when written by this docview.
    pub version: u32,
    /// The feature names, in row order.
    pub features: Vec<String>,
    /// A block is topic content when its score reaches this, except on a prose page.
    pub threshold: f32,
    /// The threshold on a prose page, whose blocks at or above `threshold` are mostly long
    /// paragraphs (the learned cleaner's [`prose_page`](super::learned::prose_page)). `None` in a
    /// model file written before it: every page of such a model uses `threshold`.
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

/// One stage of boosted trees, reading rows of a fixed width.
#[derive(Serialize, Deserialize)]
pub struct Stage {
    width: usize,
    booster: GradientBooster,
    /// The same trees, flattened for scoring (rebuilt from `booster` when a model is read).
    #[serde(skip)]
    flat: FlatTrees,
}

/// The trees of a booster as flat arrays, walked for each row: forust's `predict` copies the
/// rows column by column and makes a vector per tree, which on a page's few hundred rows costs
/// more than the walk. Every tree is laid out complete to the depth of the deepest one, breadth
/// first, so the children of split `i` are `2i + 1` and `2i + 2` and a walk is `depth` steps
/// with no child index to load: a split takes 8 bytes (forust's node over 70) and the 150 trees
/// of a stage of depth 6 fit in 113 kB. A leaf above the full depth heads a subtree of padding
/// splits that send every row left (a NaN split, missing values left) to copies of its value.
/// Splits are `f32`, rounded so that every `f32` row value goes the way forust's `f64`
/// comparison sends it: the scores are the same to the bit (a test checks it).
#[derive(Debug, Clone, Default)]
struct FlatTrees {
    base_score: f64,
    /// The depth every tree is laid out to (splits from the root to a leaf).
    depth: u32,
    /// `2^depth - 1` splits per tree, tree after tree.
    splits: Vec<FlatSplit>,
    /// `2^depth` leaves per tree, tree after tree.
    leaves: Vec<f32>,
}

/// The deepest trees a model may hold: the scorer lays every tree out complete to the depth of
/// the deepest, and a tree of depth 12 takes 48 kB.
pub const MAX_TREE_DEPTH: usize = 12;

#[derive(Debug, Clone, Copy)]
struct FlatSplit {
    /// Rows with a value below it go left ([`split_f32`]); NaN for padding.
    split: f32,
    /// The feature split on.
    feature: u16,
    /// 1 when a missing (NaN) value goes right.
    missing_right: u16,
}

impl FlatSplit {
    /// The step from split `at` to its child for `row`: `2 * at + 1` (left) or `+ 2` (right).
    /// A branch on a missing value, not a select: rows hardly ever miss one, so it is
    /// predicted, and the next split does not wait on the other side.
    #[inline]
    fn child(&self, at: usize, row: &[f32]) -> usize {
        let v = row[usize::from(self.feature)];
        let right = if v.is_nan() {
            usize::from(self.missing_right)
        } else {
            usize::from(v >= self.split)
        };
        2 * at + 1 + right
    }
}

/// The smallest `f32` at or above `split`: for every `f32` value `v`, `v < split_f32(s)`
/// exactly when `f64::from(v) < s`.
fn split_f32(split: f64) -> f32 {
    let rounded = split as f32;
    if f64::from(rounded) < split {
        rounded.next_up()
    } else {
        rounded
    }
}

impl FlatTrees {
    /// The trees of `booster`, which reads rows of `width` features; `None` when a tree splits
    /// on a feature past the row, names a node it does not have, sends missing values to a
    /// branch of their own or is deeper than [`MAX_TREE_DEPTH`].
    fn of(booster: &GradientBooster, width: usize) -> Option<FlatTrees> {
        let used = booster
            .prediction_iteration
            .unwrap_or(booster.trees.len())
            .min(booster.trees.len());
        let trees = &booster.trees[..used];
        if width > usize::from(u16::MAX) {
            return None;
        }
        // Each tree's depth, walked from its root (forust's nodes name their children).
        let mut depth = 0usize;
        for tree in trees {
            let mut stack = vec![(0usize, 0usize)];
            while let Some((old, d)) = stack.pop() {
                let node = tree.nodes.get(old)?;
                if d > MAX_TREE_DEPTH {
                    return None;
                }
                depth = depth.max(d);
                if !node.is_leaf {
                    stack.push((node.left_child, d + 1));
                    stack.push((node.right_child, d + 1));
                }
            }
        }
        let inner = (1usize << depth) - 1;
        let padding = FlatSplit {
            split: f32::NAN,
            feature: 0,
            missing_right: 0,
        };
        let mut flat = FlatTrees {
            base_score: booster.base_score,
            depth: depth as u32,
            splits: Vec::with_capacity(trees.len() * inner),
            leaves: Vec::with_capacity(trees.len() * (inner + 1)),
        };
        for tree in trees {
            let splits = flat.splits.len();
            let leaves = flat.leaves.len();
            flat.splits.resize(splits + inner, padding);
            flat.leaves.resize(leaves + inner + 1, 0.0);
            // (forust's node number, its place in the complete tree, its depth).
            let mut stack = vec![(0usize, 0usize, 0usize)];
            while let Some((old, place, d)) = stack.pop() {
                let node = tree.nodes.get(old)?;
                if node.is_leaf {
                    // The leaves under `place` at the full depth.
                    let span = 1usize << (depth - d);
                    let first = (place + 1) * span - 1 - inner;
                    flat.leaves[leaves + first..leaves + first + span].fill(node.weight_value);
                    continue;
                }
                let missing_right = if node.missing_node == node.left_child {
                    0
                } else if node.missing_node == node.right_child {
                    1
                } else {
                    return None;
                };
                if node.split_feature >= width {
                    return None;
                }
                flat.splits[splits + place] = FlatSplit {
                    split: split_f32(node.split_value),
                    feature: node.split_feature as u16,
                    missing_right,
                };
                stack.push((node.left_child, 2 * place + 1, d + 1));
                stack.push((node.right_child, 2 * place + 2, d + 1));
            }
        }
        Some(flat)
    }

    /// Splits per tree, `2^depth - 1`; a tree has one leaf more.
    fn inner(&self) -> usize {
        (1usize << self.depth) - 1
    }

    /// Trees held.
    fn len(&self) -> usize {
        self.leaves.len() / (self.inner() + 1)
    }

    /// The splits and leaves of tree `t`.
    fn tree(&self, t: usize) -> (&[FlatSplit], &[f32]) {
        let inner = self.inner();
        (
            &self.splits[t * inner..(t + 1) * inner],
            &self.leaves[t * (inner + 1)..(t + 1) * (inner + 1)],
        )
    }

    /// The logit of each row (row after row, `width` values each): [`LANES`] rows at a time
    /// through every tree, side by side (the last rows padded to a whole block with copies of
    /// the last one). Each row's leaves are added in tree order.
    fn logits(&self, rows: &[f32], width: usize) -> Vec<f64> {
        if width == 0 {
            return Vec::new();
        }
        let n = rows.len() / width;
        if n == 1 {
            return vec![self.logit_of_one(rows)];
        }
        let mut out: Vec<f64> = vec![self.base_score; n];
        let mut blocks = rows[..n * width].chunks_exact(LANES * width);
        let mut sums = out.chunks_exact_mut(LANES);
        for (block, sums) in (&mut blocks).zip(&mut sums) {
            self.walk_block(block, width, sums);
        }
        let tail = blocks.remainder();
        if let Some(last) = tail.rchunks_exact(width).next() {
            let mut padded = tail.to_vec();
            while padded.len() < LANES * width {
                padded.extend_from_slice(last);
            }
            let mut padded_sums = [self.base_score; LANES];
            self.walk_block(&padded, width, &mut padded_sums);
            let rest = sums.into_remainder();
            let k = rest.len();
            rest.copy_from_slice(&padded_sums[..k]);
        }
        out
    }

    /// Adds to `sums` ([`LANES`] of them) the leaves of every tree for the [`LANES`] rows of
    /// `block`, tree after tree. Rows and places are fixed arrays, so the walk is unrolled
    /// with the rows' places in registers (a loop over the rows' chunks compiled in one
    /// code-generation unit ran 1.4x as long), and the rows stay in the first-level cache for
    /// all the trees.
    fn walk_block(&self, block: &[f32], width: usize, sums: &mut [f64]) {
        let lanes: [&[f32]; LANES] = std::array::from_fn(|l| &block[l * width..(l + 1) * width]);
        let inner = self.inner();
        let mut block_sums = [0.0; LANES];
        block_sums.copy_from_slice(sums);
        for (splits, leaves) in (0..self.len()).map(|t| self.tree(t)) {
            let mut at = [0usize; LANES];
            for _ in 0..self.depth {
                for l in 0..LANES {
                    at[l] = splits[at[l]].child(at[l], lanes[l]);
                }
            }
            for l in 0..LANES {
                block_sums[l] += f64::from(leaves[at[l] - inner]);
            }
        }
        sums.copy_from_slice(&block_sums);
    }

    /// The logit of a single row (a page to classify), walking [`LANES`] trees side by side
    /// instead of rows: one row alone would wait on every split of every tree in turn. The
    /// leaves are added in tree order, so the sum is the one [`FlatTrees::logits`] makes.
    fn logit_of_one(&self, row: &[f32]) -> f64 {
        let inner = self.inner();
        let mut sum = self.base_score;
        for first in (0..self.len()).step_by(LANES) {
            let group = first..(first + LANES).min(self.len());
            let mut at = [0usize; LANES];
            for _ in 0..self.depth {
                for (i, t) in at.iter_mut().zip(group.clone()) {
                    *i = self.tree(t).0[*i].child(*i, row);
                }
            }
            for (&i, t) in at.iter().zip(group) {
                sum += f64::from(self.tree(t).1[i - inner]);
            }
        }
        sum
    }
}

/// The probability a logit stands for.
fn probability(logit: f64) -> f32 {
    (1.0 / (1.0 + (-logit).exp())) as f32
}

/// Rows walked through a tree side by side: their walks overlap in the processor, where one
/// row's walk waits on each node in turn (measured on 45,546 wcxb-dev rows through the shipped
/// first stage: 0.51 s against 0.62 s for one row at a time, 5 passes).
const LANES: usize = 8;

impl Stage {
    /// Trains a stage on `rows` (row after row, `width` values each) with 0/1 `labels` and
    /// per-row `weights`.
    pub fn train(
        rows: &[f32],
        width: usize,
        labels: &[f64],
        weights: &[f64],
        params: &TrainParams,
    ) -> Result<Stage> {
        let n = labels.len();
        let bad = |reason: String| Error::Model {
            source_name: "training".into(),
            reason,
        };
        if n == 0 || rows.len() != n * width || weights.len() != n {
            return Err(bad(format!(
                "{} labels, {} weights and {} values do not make rows of {width} features",
                n,
                weights.len(),
                rows.len()
            )));
        }
        let columns = to_columns(rows, n, width);
        let matrix = Matrix::new(&columns, n, width);
        let mut booster = GradientBooster::default()
            .set_objective_type(ObjectiveType::LogLoss)
            .set_iterations(params.trees)
            .set_max_depth(params.max_depth)
            .set_learning_rate(params.learning_rate)
            .set_seed(params.seed)
            .set_parallel(params.threads != 1)
            .set_num_threads((params.threads > 1).then_some(params.threads));
        booster
            .fit(&matrix, labels, weights, None)
            .map_err(|e| bad(e.to_string()))?;
        // The threads of training are not part of the model: the same rows give the same
        // bytes on any machine.
        let booster = booster.set_parallel(false).set_num_threads(None);
        let flat = FlatTrees::of(&booster, width).ok_or_else(|| {
            bad(format!(
                "forust grew a tree deeper than {MAX_TREE_DEPTH} or one that cannot be walked"
            ))
        })?;
        Ok(Stage {
            width,
            booster,
            flat,
        })
    }

    /// The width of the rows it reads.
    pub fn width(&self) -> usize {
        self.width
    }

    /// Makes a stage read from a model file ready to score (its trees flattened); an error
    /// says what is wrong with its trees.
    pub fn prepare(&mut self) -> std::result::Result<(), String> {
        let width = self.width;
        self.flat = FlatTrees::of(&self.booster, width).ok_or_else(|| {
            format!(
                "has a tree that splits on a feature past {width}, names a node it lacks, \
                 sends missing values to a branch of their own or is deeper than {MAX_TREE_DEPTH}"
            )
        })?;
        Ok(())
    }

    /// The probability of the positive class for each row (for the block model, of topic
    /// content).
    pub fn scores(&self, rows: &[f32]) -> Vec<f32> {
        self.flat
            .logits(rows, self.width)
            .into_iter()
            .map(probability)
            .collect()
    }

    /// [`Stage::scores`] through forust's own `GradientBooster::predict`, to check it against.
    #[cfg(test)]
    fn scores_by_forust(&self, rows: &[f32]) -> Vec<f32> {
        let n = rows.len() / self.width.max(1);
        let columns = to_columns(rows, n, self.width);
        let matrix = Matrix::new(&columns, n, self.width);
        self.booster
            .predict(&matrix, false)
            .into_iter()
            .map(probability)
            .collect()
    }
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
        let site_width = site_stage.as_ref().map_or(SITE_WIDTH, |s| s.width);
        if stage1.width != N_FEATURES
            || stage2.width != N_FEATURES + N_CONTEXT
            || site_width != SITE_WIDTH
        {
            return Err(Error::Model {
                source_name: "training".into(),
                reason: format!(
                    "stages of {}, {} and (site) {site_width} features, expected {N_FEATURES}, \
                     {} and {SITE_WIDTH}",
                    stage1.width,
                    stage2.width,
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
            if stage.width != width {
                return Err(err(format!(
                    "its {name} stage reads rows of {} features, expected {width}",
                    stage.width
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
    /// [site evidence](super::site_evidence) row ([`N_SITE`] values), read by the site stage,
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
        let (booster, names): (&GradientBooster, Vec<&'static str>) = match stage {
            1 => (&self.stage1.booster, FEATURE_NAMES.to_vec()),
            2 => (
                &self.stage2.booster,
                FEATURE_NAMES.iter().chain(CONTEXT_NAMES).copied().collect(),
            ),
            _ => match &self.site_stage {
                Some(site) => (&site.booster, all_feature_names().collect()),
                None => return Vec::new(),
            },
        };
        let gains = booster.calculate_feature_importance(
            forust_ml::gradientbooster::ImportanceMethod::TotalGain,
            true,
        );
        let mut out: Vec<(&'static str, f32)> = names
            .into_iter()
            .enumerate()
            .map(|(i, name)| (name, gains.get(&i).copied().unwrap_or(0.0)))
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

/// Row-major `f32` rows to the column-major `f64` layout forust reads.
fn to_columns(rows: &[f32], n: usize, width: usize) -> Vec<f64> {
    let mut columns = vec![0.0f64; n * width];
    for (r, row) in rows.chunks_exact(width).enumerate() {
        for (c, v) in row.iter().enumerate() {
            columns[c * n + r] = f64::from(*v);
        }
    }
    columns
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
    fn stages_learn_and_score() {
        let model = tiny_model(7);
        let mut low = vec![0.0f32; N_FEATURES];
        low[0] = 0.1;
        let mut high = vec![0.0f32; N_FEATURES];
        high[0] = 0.9;
        let scores = model.stage1.scores(&[low, high].concat());
        assert!(scores[0] < 0.5 && scores[1] > 0.5, "{scores:?}");
    }

    #[test]
    fn flat_trees_score_as_forust_does() {
        let model = tiny_model(3);
        let width = N_FEATURES + N_CONTEXT;
        let mut rows = Vec::new();
        for i in 0..50 {
            for j in 0..width {
                // Some missing values, and values on the tiny model's split points.
                rows.push(match (i * 31 + j * 17) % 101 {
                    0 => f32::NAN,
                    k => k as f32 / 100.0,
                });
            }
        }
        rows.extend(std::iter::repeat_n(f32::NAN, width));
        let first: Vec<f32> = rows
            .chunks_exact(width)
            .flat_map(|r| r[..N_FEATURES].to_vec())
            .collect();
        assert_eq!(
            model.stage1.scores(&first),
            model.stage1.scores_by_forust(&first)
        );
        assert_eq!(
            model.stage2.scores(&rows),
            model.stage2.scores_by_forust(&rows)
        );
        // And after a round trip through the file format.
        let back = BlockModel::from_json(&model.to_json().unwrap(), "m").unwrap();
        assert_eq!(
            back.stage2.scores(&rows),
            model.stage2.scores_by_forust(&rows)
        );
    }

    #[test]
    fn trees_too_deep_or_cyclic_are_refused() {
        let mut model = tiny_model(3);
        let width = model.stage1.width;
        let booster = &mut model.stage1.booster;
        assert!(FlatTrees::of(booster, width).is_some());
        // A split whose left child is the root: a tree without end, deeper than any limit.
        let tree = &mut booster.trees[0];
        let split = tree.nodes.iter().position(|n| !n.is_leaf).expect("a split");
        tree.nodes[split].left_child = 0;
        assert!(FlatTrees::of(booster, width).is_none());
    }

    #[test]
    fn a_row_alone_scores_as_in_a_batch_and_as_forust() {
        // The shipped model's 150 trees a stage: walked eight side by side, six in the last
        // group, for a row alone.
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
            assert_eq!(model.stage1.scores(row), model.stage1.scores_by_forust(row));
        }
        // Missing values, through the tiny model's trees (fewer than eight).
        let tiny = tiny_model(3);
        let width = N_FEATURES + N_CONTEXT;
        for i in 0..20 {
            let row: Vec<f32> = (0..width)
                .map(|j| match (i * 7 + j * 13) % 11 {
                    0 => f32::NAN,
                    k => k as f32 / 10.0,
                })
                .collect();
            assert_eq!(tiny.stage2.scores(&row), tiny.stage2.scores_by_forust(&row));
        }
    }

    #[test]
    fn f32_splits_send_every_value_the_way_the_f64_split_does() {
        for s in [
            0.1f64,
            0.5,
            1.0 / 3.0,
            -2.7,
            1e-40,
            3.5e38,
            1e300,
            -1e300,
            0.0,
        ] {
            let r = split_f32(s);
            let near = [r.next_down(), r, r.next_up(), s as f32, 0.0, -0.0];
            for v in near {
                assert_eq!(v < r, f64::from(v) < s, "split {s}, value {v}");
            }
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
