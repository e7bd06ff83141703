//! docview's gradient-boosted trees: one [`Stage`] of trees trained with forust-ml on rows of
//! a fixed width for a 0/1 label, scored by a walk over flat arrays, and written to model
//! files as forust's own JSON. The learned cleaner's block model (`docview-clean`: two or
//! three stages) and the page classifier's trees (`docview-classify`: a stage per class) are
//! both built of stages, so the project carries one ML crate and one scorer.
//!
//! - **Training** ([`Stage::train`]) is deterministic: the same rows, weights and
//!   [`BoostParams`] give the same trees (grown without sampling, histograms per feature in a
//!   fixed order), whatever the number of threads. A caller trains with its own parameters
//!   and its own error type through [`Training`].
//! - **Scoring** ([`Stage::scores`]) walks the trees laid out complete to the depth of the
//!   deepest, at most [`MAX_TREE_DEPTH`]: the same scores, to the bit, as forust's own
//!   prediction (a test checks it on the shipped models).
//! - **Serialisation**: a stage is `{"width": N, "booster": …}` in a model file; a stage read
//!   from one is made ready to score by [`Stage::prepare`].

#![deny(missing_docs)]

mod error;
mod flat;
mod stage;

pub use error::{Error, Result};
pub use flat::MAX_TREE_DEPTH;
pub use stage::{BoostParams, Stage, Training};
