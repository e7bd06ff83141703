//! The replica benchmark (004 §5, Table 2): [`locate`] finds a page's main content from its
//! reference text and moves it into another page's template, [`benchmark`] builds the paper's
//! base, near-replica and non-replica sets from a labelled set (`docview replicas build`), and
//! [`evaluate`] runs the paper's experiment on them with any [`evaluate::NearDetector`]
//! (`docview replicas eval`), ingest's own replica detector among them.

pub mod benchmark;
pub mod evaluate;
pub mod locate;
