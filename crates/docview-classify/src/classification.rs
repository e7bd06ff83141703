//! What a classifier says of a page: a class and how sure it is.

use serde::{Deserialize, Serialize};

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
