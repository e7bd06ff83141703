//! docview's pipeline: a crawl through every stage of the collection layer, in one process
//! (`docview ingest`: [`ingest()`]) or cut into tasks that read and write files for an engine
//! that runs one task per shard (`docview stages`: [`stages`]). Both drivers run the same
//! per-page steps ([`Worker`], `clean_page`, `integrate_page`), the same site sampler,
//! statistics builder and replica detector, and write the same record files
//! (`docview_collection::records`), byte for byte.
//!
//! Its modules, in the order they build on each other (a module uses only those before it,
//! never the module that contains it): `settings` and `state` (what a run is asked to do,
//! and how far it got), progress and the summary, the input events and their batches, the
//! `spill` of cleaned pages, the site models, the per-page steps, the earlier runs of an
//! incremental crawl (`earlier`), then the two drivers, `ingest` and [`stages`], which never
//! reach into each other.
//!
//! Two passes, and each page is parsed and cleaned once: the first cleans every page into its
//! [`TopicPage`](crate::topic::TopicPage), builds the collection statistics from them
//! (document frequencies, aggressive stop words, shared titles, site templates) and writes them
//! to its `spill`; the second reads them back, integrates, fingerprints and ingests them.
//! With a `--stats` file there is no first pass and the second cleans the pages itself. A
//! site-aware cleaner (`--cleaner infodiscoverer`, `wisdom`) adds a pass before them that
//! reads the inputs to learn each web site's model (bounded in memory,
//! parsing only the sampled pages); pages are then cleaned once, with their site's model. The
//! classifier of the classification code is loaded first of all. No pass
//! holds the collection: a reader thread hands out batches of pages, the workers process one
//! batch while the next is read and the calling thread writes out the one before
//! (`pipeline_batches`). Output order is the input order whatever the thread count. Commits
//! every `commit_every` pages make the outputs durable together (see `state`), and the first
//! pass checkpoints its spill as often; a run stopped at any point resumes from its last
//! commit or checkpoint. A run asked to stop ([`Interrupt`], the binary's Ctrl-C) makes what
//! it did durable after the batch at hand and ends with [`Error::Interrupted`].

#![deny(missing_docs)]

// The layers below under the names of their stages, so that paths read as the stage table
// does (`crate::clean::Cleaner`, `crate::replica::ReplicaDetector`).
use docview_clean as clean;
use docview_collection::{
    check_threads, index, integrate, lock, output, owned, records, replica, site, stats,
    thread_pool,
};
use docview_extract as extract;
use docview_extract::topic;
use docview_input as input;
use docview_text as text;

mod batches;
mod earlier;
mod error;
mod event;
mod folder;
mod ingest;
mod interrupt;
mod progress;
mod settings;
mod sites;
mod spill;
pub mod stages;
mod state;
mod steps;
mod summary;

pub use error::{EarlierRefusal, Error, FolderInUse, Interrupted, Result};
pub use folder::{OUTPUT_LAYOUT, STATS_FILE, SUMMARY_FILE};
pub use ingest::ingest;
pub use interrupt::Interrupt;
pub use progress::{Phase, Progress, Silent};
pub use settings::{ClassifierChoice, Classifiers, IngestOptions, RunSettings, SubjectChoice};
pub use sites::{SiteModelFigures, SiteModels};
pub use spill::SPILL_FILE;
pub use state::{Counters, FirstPassCheckpoint, RunState, STATE_FILE, STATE_VERSION, Status};
pub use steps::{Processed, Unreadable, Worker, process_page};
pub use summary::{ReplicaIndexMemory, SiteTemplateFigures, Summary};
