//! docview's integration tests, one binary: the command line, ingest and its resume, incremental
//! runs, the sharded stages, compare, the replica commands, robustness on hostile pages, the
//! scripts, the fuzz targets' replay, and the corpus-wide checks and quality gates (which skip with a message
//! when `../shared/corpus` is absent). `cargo test --release`; one module:
//! `cargo test --release --test it resume`.

mod common;

mod cli;
mod compare;
mod decode_corpus;
mod docs;
mod eval_corpus;
mod fuzz_replay;
mod incremental;
mod ingest;
mod layout;
mod metadata_corpus;
mod quality_gate;
mod query;
mod replica_gate;
mod replicas;
mod resume;
mod robustness;
mod schema;
mod scripts;
mod stages;
mod subjects;
