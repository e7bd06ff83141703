//! docview's lab: measuring what the page and collection layers do, on labelled pages.
//!
//! - [`eval`]: a cleaner scored against a labelled set by the corpus rule (F1 per page and
//!   page type); block labels, the learned cleaner's training and its site-grouped
//!   cross-validation.
//! - [`replica`]: the paper's replica benchmark (§5) built from a labelled set, and the
//!   collection layer's replica detector run over it.
//! - [`classify`]: the content classifier (the DocView's classification code) trained and
//!   cross-validated by site on a labelled set, on topic content or raw pages.
//! - [`subjects`]: the subject classifier (the classification code from a formal scheme)
//!   trained on labelled text and pages, cross-validated by site, on topic content or raw pages.
//! - [`compare`]: the three indexes side by side: size, query cost, retrieval (§7).
//!
//! The lab may use every layer; no layer uses the lab.

#![deny(missing_docs)]

use docview_clean as clean;
use docview_collection::{index, output, records};
use docview_extract as extract;
use docview_input as input;
use docview_page as page;
use docview_text as text;

pub mod classify;
pub mod compare;
pub mod error;
pub mod eval;
pub mod replica;
pub mod subjects;

pub use error::{Error, Result};
