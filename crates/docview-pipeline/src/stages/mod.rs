//! `docview ingest` cut into stages that read and write files, so that an engine that runs one
//! task per shard (Spark, a local process pool: `docview stages`) can run it on many machines
//! and still write the records, replicas, skipped inputs, statistics and indexes of one
//! process, byte for byte.
//!
//! The **plan** ([`Plan`], `plan.json` of the work folder) fixes the inputs' units
//! ([`InputUnit`](crate::input::InputUnit): each crawl file, each page file of an input folder) and the settings; shard
//! `r` of `n` takes units `r, r + n, r + 2n, …`. An event's place in the whole run is its
//! unit's number and its number inside the unit, so the global order is the order of one
//! process, and a page's `seq` is the number of pages before it in that order.
//!
//! | stage | tasks | reads | writes |
//! |---|---|---|---|
//! | `earlier` | one | the earlier runs (`--earlier`, an incremental crawl) | `earlier.parquet` (their kept pages' order keys, runs, `seq`, URLs, fingerprints) and their band keys partitioned as the shards' (`earlier-bands-P.parquet`); nothing without earlier runs |
//! | `sites` | one per shard | the shard's units | (a site-aware cleaner only) each page's URL, and the raw pages a site sampler of the shard alone picks: a superset of what the run picks |
//! | `merge-sites` | one | every shard's URLs and picked pages | `sites.json`: the site models, the sampler replayed in global order |
//! | `stats` | one per shard | the shard's units | its cleaned pages (the spill of one process), each unit's events and pages, its pages' document frequencies and, in order, their titles and site-template lines |
//! | `merge-stats` | one | every shard's counts and rows | `stats.json` (templates replayed in global order under one budget, as one process learns them) and each unit's first `seq` |
//! | `pages` | one per shard | the shard's spill, `stats.json` | `pages.parquet` (key, URL, fingerprints, MinHash signature, the DocView record, the three index texts), the LSH band keys partitioned by band (`bands-P.parquet`), skipped inputs |
//! | `pairs` | one per band part | every shard's and the earlier runs' band keys and signatures | `pairs-P.parquet`: pages sharing a band whose estimated Jaccard reaches the threshold, by order key (earlier pages first, then `earlier + seq`) |
//! | `resolve` | one | every shard's and the earlier runs' fingerprints, all pairs | `decisions.parquet`: each replica and the kept page it repeats, named with its run when an earlier run kept it (first seen wins, the earlier pages first, then in global order: [`ReplicaDetector::check_pairs`](crate::replica::ReplicaDetector::check_pairs)) |
//! | `finalise` | one per shard | the shard's pages, the decisions | the shard's kept records (`replicas` filled in), replica lines and three indexes |
//! | `merge` | one | every shard's outputs | the output folder of one process: `docviews.jsonl`, `replicas.jsonl`, `skipped.jsonl`, `stats.json`, the three indexes (merged whole: the BM25 statistics are sums), `state.json`, `summary.json` |
//!
//! A task's files are complete when it writes its completion marker (`done/STAGE-N`), last; a
//! task whose marker exists is skipped, and one without starts its files again, so a rerun
//! after a crash does only what was not done. The files other tasks read are put in place
//! atomically. A task runs in one process at a time (its lock, `locks/STAGE-N.lock`), and
//! before it runs again it removes the temporary files a killed run of it left.
//! Replicas are decided after all pages are known (a chain of near-copies can cross shards),
//! and indexes are built after the decisions (merging indexes with deleted documents would
//! shift every BM25 score).
//!
//! Its modules: `plan` (the plan, the stages, the markers, [`run_task`] and [`run_stages`]),
//! `guard` (the locks of a task and of the pool, and the clearing of a killed task's files) and
//! `layout` (the work folder's file names); a module a stage (`earlier`, `sites` with
//! `merge-sites`, `stats` with `merge-stats`, `pages`, `pairs`, `resolve`, `finalise`, `merge`);
//! and what they share: the row structs of the Parquet tables (`rows`, the generic part;
//! `page_table`, `tables` and `replica_tables`, one struct a table, each naming its columns
//! once), the fingerprint and signature codecs (`codec`) and the JSON Lines streams and their
//! k-way merges (`streams`). This file only declares them and re-exports the public API; they
//! reach each other by their own paths (`super::plan::Plan`), never through it.

mod codec;
mod earlier;
mod finalise;
mod guard;
mod layout;
mod merge;
mod page_table;
mod pages;
mod pairs;
mod plan;
mod replica_tables;
mod resolve;
mod rows;
mod sites;
mod stats;
mod streams;
mod tables;
#[cfg(test)]
mod testing;

pub use guard::{POOL_LOCK_FILE, task_lock};
pub use plan::{PLAN_FILE, PLAN_VERSION, Plan, Stage, TaskOutcome, run_stages, run_task};
