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
    /// Each class's share of the probabilities (the trees) or of the neighbours' votes (the
    /// kNN), in the order of the model's classes, summing to 1; empty for a class by prior,
    /// which is no evidence. Not written with the class: what reads it (the DocView type,
    /// [`Classification::share_of`]) reads it where the page is classified.
    #[serde(skip)]
    pub shares: Vec<f32>,
}

impl Classification {
    /// The share of the classes named in `wanted` together, given the model's `classes` (in
    /// the order of [`Classification::shares`]); 0 for a class by prior.
    pub fn share_of(&self, classes: &[String], wanted: &[&str]) -> f32 {
        classes
            .iter()
            .zip(&self.shares)
            .filter(|(c, _)| wanted.contains(&c.as_str()))
            .map(|(_, s)| s)
            .sum()
    }
}
