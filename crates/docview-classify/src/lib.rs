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
//!   training pages (a term present or absent in a page); the top
//!   [`Params::terms_per_class`] terms of each class make the vocabulary.
//! - **kNN (§7.1):** a page's vector, cut to the vocabulary and renormalised, is compared by
//!   cosine with every training page; the `k` most similar vote for their class with their
//!   similarity; the class with the most votes wins (ties: the first class in name order), and
//!   its share of the votes is the score ([`Classifier::classify`]).
//! - **Model files** are JSON with a format name and a version; a file of another version is
//!   a clear error ([`PageClassifier::load`] reads either kind).

#![deny(missing_docs)]

mod classification;
mod error;
mod knn;
mod model;
mod report;
mod scheme;
mod shape;
mod subject;
mod trees;

pub use classification::Classification;
pub use error::{Error, Result};
pub use knn::{Classifier, Params};
pub use model::{PageClassifier, model_digest};
pub use report::ClassReport;
pub use scheme::{IPTC_SCHEME, Subject, SubjectScheme};
pub use shape::{PageShape, with_shape};
pub use subject::{
    DEFAULT_SUBJECT_THRESHOLD, LinearParams, NoSubject, Source, SubjectClass, SubjectClassifier,
    SubjectExample, SubjectMethod, SubjectOf, SubjectTraining,
};
pub use trees::{PageView, TreeClassifier, TreeParams};
