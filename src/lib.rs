//! docview: a search-engine indexing preprocessor.
//!
//! For each crawled page docview builds a markup tag tree, weighs its blocks, decides the page type
//! (topic, hub or image) and keeps the topic content, dropping the boilerplate (Zhang, Chen and Li,
//! 2004, "A preprocessing framework and approach for web applications", §3-§4). Later stages remove
//! replicas, integrate each page into a DocView record and index it.
//!
//! The library gathers docview's crates under one set of paths, one module per stage, named
//! with the paper's words (`ARCHITECTURE.md` maps each to its crate):
//!
//! - [`input`]: bytes of a crawled page to text in its real charset.
//! - [`page`]: the markup tag tree (container tags as nodes, weighty tags, text, links and images
//!   as attributes) and the block types.
//! - [`text`]: tokens, terms, language, stop words.
//! - [`measure`]: block weight (Algorithm 1), feature vectors (Formula 2), cosine.
//! - [`clean`]: the [`clean::Cleaner`] trait, the framework's cleaner, and the learned cleaner
//!   (the default): block features, the block model, the decision on the tree.
//! - [`extract`]: one page through decoding, the tag tree and a cleaner.
//! - [`stats`]: collection statistics (document frequencies, aggressive stop words, shared
//!   titles).
//! - [`minhash`]: MinHash signatures and their LSH index.
//! - [`replica`]: exact and keyword fingerprints and MinHash signatures of the replica text, and
//!   the replica detector.
//! - [`integrate`]: DocView records (identifier, type, classification code, title, keywords,
//!   abstract, topic content, relevant links).
//! - [`index`]: the three Tantivy indexes (full text, topic, abstract) and querying them.
//! - [`pipeline`]: `docview ingest` and `docview stages`: inputs through all stages, in parallel, resumable.
//! - [`eval`]: scoring a cleaner against a labelled corpus; block labels, training and
//!   site-grouped cross-validation of the learned cleaner.
//! - [`replica_benchmark`]: the paper's replica benchmark and the detectors run over it.
//! - [`compare`]: the three indexes side by side: size, query cost, retrieval.
//! - [`output`]: writing output files atomically.
//! - [`Error`]: the collection layer's error, which wraps the page layer's; the pipeline's
//!   (`pipeline::Error`, a run's refusals) and the lab's ([`LabError`]) wrap it in turn.
//!
//! Cleaning one page:
//!
//! ```
//! use docview::clean::Framework;
//! use docview::extract::extract_page;
//! use docview::page::PageType;
//!
//! let html = b"<html><head><title>Tides</title></head><body>\
//!     <nav><a href='/'>Home</a> <a href='/news'>News</a></nav>\
//!     <article><p>Twice a day the sea withdraws from the bay and leaves pools full of \
//!     anemones, crabs and small fish among the rocks of the north shore.</p>\
//!     <p>Visitors should step only on bare rock and put back every stone they lift.</p>\
//!     </article><footer>Copyright 2024</footer></body></html>";
//! let page = extract_page(html, None, "tides.html", &Framework::default())?;
//! assert_eq!(page.cleaned.page_type, PageType::Topic);
//! assert!(page.cleaned.topic_text.contains("anemones, crabs"));
//! assert!(!page.cleaned.topic_text.contains("Copyright"));
//! # Ok::<(), docview::Error>(())
//! ```

#![deny(missing_docs)]

// The page layer.
pub use docview_classify as classifier;
pub use docview_clean as clean;
pub use docview_extract as extract;
pub use docview_extract::topic;
pub use docview_input as input;
pub use docview_measure as measure;
pub use docview_page as page;
pub use docview_text as text;

// The collection layer.
pub use docview_collection::{
    Error, MAX_THREADS, Result, check_threads, index, integrate, lock, minhash, output, owned,
    records, replica, site, stats, thread_pool,
};

// The pipeline.
pub use docview_pipeline as pipeline;

// The lab.
pub use docview_lab::Error as LabError;
pub use docview_lab::replica as replica_benchmark;
pub use docview_lab::{classify, compare, eval, subjects};
