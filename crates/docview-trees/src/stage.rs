//! A stage of boosted trees: training, scoring, and its place in a model file.

use forust_ml::objective::ObjectiveType;
use forust_ml::{GradientBooster, Matrix};
use serde::{Deserialize, Serialize};

use crate::Error;
use crate::flat::{FlatTrees, MAX_TREE_DEPTH};

/// The parameters of boosting a stage.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BoostParams {
    /// Boosting rounds (trees).
    pub trees: usize,
    /// Depth limit of each tree.
    pub max_depth: usize,
    /// Shrinkage of each tree's values.
    pub learning_rate: f32,
    /// Seed of any randomness in training.
    pub seed: u64,
    /// Threads for training (0: one per core); the result does not depend on it.
    pub threads: usize,
}

/// A caller's training parameters as [`Stage::train`] reads them: the [`BoostParams`] they
/// hold, and the caller's error type, which a failure to train becomes (so that `?` carries
/// it on where the caller's own errors go).
pub trait Training {
    /// The error a failure to train is reported as.
    type Error: From<Error>;
    /// The parameters of boosting.
    fn boosting(&self) -> BoostParams;
}

impl Training for BoostParams {
    type Error = Error;

    fn boosting(&self) -> BoostParams {
        *self
    }
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

/// The probability a logit stands for.
fn probability(logit: f64) -> f32 {
    (1.0 / (1.0 + (-logit).exp())) as f32
}

impl Stage {
    /// Trains a stage on `rows` (row after row, `width` values each) with 0/1 `labels` and
    /// per-row `weights`.
    pub fn train<P: Training + ?Sized>(
        rows: &[f32],
        width: usize,
        labels: &[f64],
        weights: &[f64],
        params: &P,
    ) -> Result<Stage, P::Error> {
        let params = params.boosting();
        let n = labels.len();
        let bad = |reason: String| Error::Train(reason);
        if n == 0 || rows.len() != n * width || weights.len() != n {
            return Err(bad(format!(
                "{} labels, {} weights and {} values do not make rows of {width} features",
                n,
                weights.len(),
                rows.len()
            ))
            .into());
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

    /// Each feature's share of the stage's total gain (forust's feature importance), by
    /// feature: [`Stage::width`] values, 0 for a feature no tree splits on.
    pub fn gains(&self) -> Vec<f32> {
        let gains = self.booster.calculate_feature_importance(
            forust_ml::gradientbooster::ImportanceMethod::TotalGain,
            true,
        );
        (0..self.width)
            .map(|i| gains.get(&i).copied().unwrap_or(0.0))
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
    use std::io::Read;

    use super::*;

    fn params(seed: u64) -> BoostParams {
        BoostParams {
            trees: 5,
            max_depth: 3,
            learning_rate: 0.15,
            seed,
            threads: 1,
        }
    }

    /// A small stage on synthetic rows of `width` (at least 2) features: positive when the
    /// first feature is above 0.5; the features past the second repeat the first.
    fn tiny_stage(width: usize, seed: u64) -> Stage {
        let n = 200;
        let mut rows = Vec::new();
        let mut labels = Vec::new();
        for i in 0..n {
            let x = i as f32 / n as f32;
            rows.push(x);
            rows.push((i % 7) as f32);
            rows.extend(std::iter::repeat_n(x, width - 2));
            labels.push(if x > 0.5 { 1.0 } else { 0.0 });
        }
        let weights = vec![1.0; n];
        Stage::train(&rows, width, &labels, &weights, &params(seed)).unwrap()
    }

    /// Rows of `width` values, some missing and some on the tiny stages' split points.
    fn test_rows(width: usize, n: usize) -> Vec<f32> {
        let mut rows = Vec::new();
        for i in 0..n {
            for j in 0..width {
                rows.push(match (i * 31 + j * 17) % 101 {
                    0 => f32::NAN,
                    k => k as f32 / 100.0,
                });
            }
        }
        rows.extend(std::iter::repeat_n(f32::NAN, width));
        rows
    }

    /// A stage through its serialised form and back, ready to score.
    fn round_trip(stage: &Stage) -> Stage {
        let json = serde_json::to_string(stage).unwrap();
        let mut back: Stage = serde_json::from_str(&json).unwrap();
        back.prepare().unwrap();
        back
    }

    #[test]
    fn stages_learn_and_score() {
        let stage = tiny_stage(4, 7);
        let low = [0.1, 0.0, 0.1, 0.1];
        let high = [0.9, 0.0, 0.9, 0.9];
        let scores = stage.scores(&[low, high].concat());
        assert!(scores[0] < 0.5 && scores[1] > 0.5, "{scores:?}");
        assert_eq!(stage.width(), 4);
        let gains = stage.gains();
        assert_eq!(gains.len(), 4);
        assert!(gains.iter().all(|g| (0.0..=1.0).contains(g)), "{gains:?}");
        assert!(gains[1] < 0.5, "the second feature says nothing: {gains:?}");
    }

    #[test]
    fn training_is_deterministic_and_survives_the_file_format() {
        let a = serde_json::to_string(&tiny_stage(6, 7)).unwrap();
        let b = serde_json::to_string(&tiny_stage(6, 7)).unwrap();
        assert_eq!(a, b, "same data and seed, same bytes");
        assert!(a.starts_with("{\"width\":6,\"booster\":"), "{}", &a[..40]);
        let back = round_trip(&tiny_stage(6, 7));
        assert_eq!(serde_json::to_string(&back).unwrap(), a);
    }

    #[test]
    fn flat_trees_score_as_forust_does() {
        for width in [4, 9] {
            let stage = tiny_stage(width, 3);
            let rows = test_rows(width, 50);
            assert_eq!(stage.scores(&rows), stage.scores_by_forust(&rows));
            // And after a round trip through the file format.
            assert_eq!(
                round_trip(&stage).scores(&rows),
                stage.scores_by_forust(&rows)
            );
            // A row alone (fewer than eight trees), with missing values.
            for row in rows.chunks_exact(width) {
                assert_eq!(stage.scores(row), stage.scores_by_forust(row));
            }
        }
    }

    #[test]
    fn trees_too_deep_or_cyclic_are_refused() {
        let mut stage = tiny_stage(4, 3);
        let width = stage.width;
        assert!(FlatTrees::of(&stage.booster, width).is_some());
        // A split whose left child is the root: a tree without end, deeper than any limit.
        let tree = &mut stage.booster.trees[0];
        let split = tree.nodes.iter().position(|n| !n.is_leaf).expect("a split");
        tree.nodes[split].left_child = 0;
        assert!(FlatTrees::of(&stage.booster, width).is_none());
        let err = stage.prepare().unwrap_err();
        assert!(err.contains("deeper than 12"), "{err}");
    }

    /// A caller's parameters, whose failures are its own [`MyError`].
    struct MyParams;

    /// A caller's error.
    #[derive(Debug)]
    struct MyError(String);

    impl Training for MyParams {
        type Error = MyError;
        fn boosting(&self) -> BoostParams {
            params(0)
        }
    }

    impl From<Error> for MyError {
        fn from(e: Error) -> MyError {
            MyError(format!("mine: {e}"))
        }
    }

    #[test]
    fn rows_that_do_not_match_are_an_error_of_the_callers_type() {
        let err = Stage::train(&[0.0; 5], 2, &[0.0, 1.0], &[1.0, 1.0], &params(0))
            .err()
            .unwrap();
        assert_eq!(
            err.to_string(),
            "2 labels, 2 weights and 5 values do not make rows of 2 features"
        );

        let err: MyError = Stage::train(&[], 2, &[], &[], &MyParams).err().unwrap();
        assert!(err.0.starts_with("mine: 0 labels"), "{}", err.0);
    }

    /// The stages of a shipped model file (gzip-compressed JSON): the block model's (`stage1`,
    /// `stage2`, `site_stage`) or the classifier's (`stages`, `without_url`), ready to score.
    fn shipped_stages(file: &str) -> Vec<Stage> {
        let path = format!("{}/../../models/{file}", env!("CARGO_MANIFEST_DIR"));
        let mut json = Vec::new();
        flate2::read::GzDecoder::new(std::fs::File::open(&path).unwrap())
            .read_to_end(&mut json)
            .unwrap();
        let model: serde_json::Value = serde_json::from_slice(&json).unwrap();
        let mut stages = Vec::new();
        for key in ["stage1", "stage2", "site_stage", "stages", "without_url"] {
            let values = match &model[key] {
                serde_json::Value::Array(a) => a.clone(),
                serde_json::Value::Null => Vec::new(),
                v => vec![v.clone()],
            };
            for value in values {
                let mut stage: Stage = serde_json::from_value(value).unwrap();
                stage.prepare().unwrap();
                stages.push(stage);
            }
        }
        assert!(!stages.is_empty(), "{file}");
        stages
    }

    /// Rows for `stage` whose values sit on, just above and just below its trees' split
    /// points, or are missing: every branch of many splits is taken.
    fn rows_on_the_splits(stage: &Stage, n: usize) -> Vec<f32> {
        let mut splits: Vec<Vec<f64>> = vec![Vec::new(); stage.width];
        for tree in &stage.booster.trees {
            for node in tree.nodes.iter().filter(|n| !n.is_leaf) {
                splits[node.split_feature].push(node.split_value);
            }
        }
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        let mut rows = Vec::with_capacity(n * stage.width);
        for _ in 0..n {
            for feature in &splits {
                let r = next();
                let value = match (feature.is_empty(), r % 8) {
                    (_, 0) => f32::NAN,
                    (true, _) => (r % 100) as f32 / 10.0,
                    (false, k) => {
                        let s = feature[(r >> 8) as usize % feature.len()] as f32;
                        match k {
                            1 | 2 => s.next_down(),
                            3 | 4 => s.next_up(),
                            _ => s,
                        }
                    }
                };
                rows.push(value);
            }
        }
        rows
    }

    #[test]
    fn the_shipped_models_score_as_forust_does_alone_and_in_a_batch() {
        for file in ["block-model.json.gz", "page-type-classifier.json.gz"] {
            for stage in shipped_stages(file) {
                let rows = rows_on_the_splits(&stage, 37);
                let batch = stage.scores(&rows);
                assert_eq!(batch, stage.scores_by_forust(&rows), "{file}");
                // A row alone walks eight trees side by side rather than eight rows.
                for (k, row) in rows.chunks_exact(stage.width).enumerate() {
                    assert_eq!(stage.scores(row), [batch[k]], "{file} row {k}");
                }
            }
        }
    }
}
