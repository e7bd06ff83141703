//! docview's collection layer: what is done with the cleaned pages of a whole crawl (Zhang, Chen
//! and Li, 2004, §5-§6 and the indexes of §7).
//!
//! It reads the page layer's [`TopicPage`](docview_extract::topic::TopicPage) and never a
//! labelled set (that is the lab's, `docview-lab`). Its stages, in the order data flows:
//!
//! - [`stats`]: the collection statistics of the first pass (document frequencies, aggressive
//!   stop words, shared titles) and the site templates ([`stats::template`]).
//! - [`minhash`]: MinHash signatures of word shingles and their LSH index, the near-copy
//!   primitive of the site templates' copy groups and of the replica detector.
//! - [`replica`]: the exact, keyword and MinHash fingerprints of the replica text and the replica
//!   detector, the one replica policy of ingest and of the benchmark.
//! - [`integrate`]: DocView records (identifier, type, classification code, title, keywords,
//!   abstract, topic content, relevant links).
//! - [`index`]: the three Tantivy indexes (full text, topic, abstract), docview's tokenizer and
//!   querying them.
//! - [`records`]: the record files of an ingest (`docviews.jsonl`, `replicas.jsonl`,
//!   `skipped.jsonl`, `docviews.parquet`) and the Parquet tables they and the sharded stages'
//!   work files are written with.
//! - [`site`]: a page's URL parsed once and the one definition of the site it belongs to.
//! - [`output`]: writing output files atomically; [`lock`]: one run at a time in a folder;
//!   [`owned`]: the marker of the folders docview owns, and clearing only what it wrote there;
//!   [`Error`]: the layer's error type.
//!
//! The pipeline that runs a crawl through these stages is the next layer's, `docview-pipeline`.

#![deny(missing_docs)]

// The page layer under the names of its stages, so that paths read as the stage table does
// (`crate::text::tokens`, `crate::clean::Cleaner`).
use docview_clean as clean;
use docview_extract as extract;
use docview_extract::topic;
use docview_measure as measure;
use docview_page as page;
use docview_text as text;

mod error;
pub mod index;
pub mod integrate;
pub mod lock;
pub mod minhash;
pub mod output;
pub mod owned;
pub mod records;
pub mod replica;
pub mod site;
pub mod stats;

pub use error::{Error, MAX_THREADS, Result, check_threads, thread_pool};
