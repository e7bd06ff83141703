//! The one-process driver, `docview ingest`: the site models of a site-aware cleaner, the two
//! passes ([`first_pass`], [`second_pass`]) and the ordered [`sink`], resumable from its last
//! commit.
//!
//! Two passes, and each page is parsed and cleaned once: the first cleans every page into its
//! [`TopicPage`](crate::topic::TopicPage), builds the collection statistics from them
//! (document frequencies, aggressive stop words, shared titles, site templates) and writes them
//! to its spill; the second reads them back, integrates, fingerprints and ingests them.
//! With a `--stats` file there is no first pass and the second cleans the pages itself. A
//! site-aware cleaner (`--cleaner infodiscoverer`, `wisdom`) adds a pass before them that
//! reads the inputs to learn each web site's model (bounded in memory,
//! parsing only the sampled pages); pages are then cleaned once, with their site's model. The
//! classifier of the classification code is loaded first of all. No pass
//! holds the collection: a reader thread hands out batches of pages, the workers process one
//! batch while the next is read and the calling thread writes out the one before
//! (`pipeline_batches`). Output order is the input order whatever the thread count. Commits
//! every `commit_every` pages make the outputs durable together (see `state.rs`); a run stopped
//! at any point resumes from its last commit.

mod first_pass;
mod run;
mod second_pass;
mod sink;

pub use run::ingest;
