//! docview: a search-engine indexing preprocessor.
//!
//! For each crawled page docview builds a markup tag tree, weighs its blocks, decides the page type
//! (topic, hub or image) and keeps the topic content, dropping the boilerplate (Zhang, Chen and Li,
//! 2004, "A preprocessing framework and approach for web applications", §3-§4). Later stages remove
//! replicas, integrate each page into a DocView record and index it.
//!
//! The library is organised one module per stage, named with the paper's words:
//!
//! - [`input`]: bytes of a crawled page to text in its real charset.
//! - [`page`]: the markup tag tree (container tags as nodes, weighty tags, text, links and images
//!   as attributes) and the block types.
//! - [`text`]: tokens, terms, language, stop words.
//! - [`measure`]: block weight (Algorithm 1), feature vectors (Formula 2), cosine.
//! - [`clean`]: the [`clean::Cleaner`] trait and the framework's cleaner.
//! - [`extract`]: one page through decoding, the tag tree and a cleaner.
//! - [`eval`]: scoring a cleaner against a labelled corpus.

pub mod clean;
pub mod error;
pub mod eval;
pub mod extract;
pub mod input;
pub mod measure;
pub mod page;
pub mod text;

pub use error::{Error, Result};
