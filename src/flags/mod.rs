//! The command line: the top-level [`Cli`] and its [`Command`]s, and, one file a command or
//! group of commands, their clap arguments. `lower.rs` turns arguments into the library's
//! option types; the commands' bodies are in `crate::commands`.

use clap::{Parser, Subcommand};

mod classify;
mod cleaner;
mod compare;
mod eval;
mod export;
mod extract;
mod favor;
mod ingest;
mod limits;
mod lower;
pub use lower::{SubjectPlan, Target};
mod query;
mod replicas;
mod stages;
mod train;

pub use classify::{
    ClassifyArgs, ClassifyCommand, ClassifyEvalArgs, ClassifyOpts, ClassifyTrainArgs,
};
pub use compare::CompareArgs;
pub use eval::EvalArgs;
pub use export::{ExportArgs, ExportFormat};
pub use extract::{ExtractArgs, Format};
pub use ingest::IngestArgs;
pub use query::QueryArgs;
pub use replicas::{BuildArgs, ReplicasArgs, ReplicasCommand, ReplicasEvalArgs};
pub use stages::{
    StagesArgs, StagesCommand, StagesListArgs, StagesPlanArgs, StagesPoolArgs, StagesRunArgs,
};
pub use train::{BlocksArgs, TrainCleanerArgs};

/// The value of a `--threads` flag: a number of worker threads within the library's bound
/// ([`docview::MAX_THREADS`], checked by [`docview::check_threads`]), so that clap refuses an
/// absurd one before anything starts.
/// A `--charset` label docview decodes with; another is refused, naming some that are.
fn charset(value: &str) -> Result<String, String> {
    if docview::input::known_charset(value) {
        Ok(value.to_string())
    } else {
        Err(format!(
            "{value:?} is no charset docview knows (a WHATWG label such as utf-8, gbk, \
             windows-1252, shift_jis)"
        ))
    }
}

/// A record field `export --contents` names.
fn export_field(value: &str) -> Result<docview::records::ExportField, String> {
    docview::records::ExportField::named(value)
        .ok_or_else(|| format!("{value:?} is no record field (title, keywords, abstract, topic)"))
}

fn threads(value: &str) -> Result<usize, String> {
    let threads: usize = value
        .parse()
        .map_err(|e| format!("{value:?} is not a number of threads: {e}"))?;
    docview::check_threads(threads).map_err(|e| match e {
        docview::Error::Page(docview::extract::Error::Setting { reason, .. }) => reason,
        other => other.to_string(),
    })
}

/// The DocView index's field weights of `--field-weights`.
fn field_weights(value: &str) -> Result<docview::index::FieldWeights, String> {
    value.parse().map_err(|e: docview::Error| e.to_string())
}

/// docview: a search-engine indexing preprocessor. It cleans crawled pages down to their topic
/// content (dropping navigation, ads, footers and other boilerplate), removes replicas,
/// integrates each page into a DocView record and indexes the collection four ways (full text,
/// topic content, abstract, and the DocView's fields searched together), following the framework of Zhang, Chen and Li (2004).
#[derive(Debug, Parser)]
#[command(name = "docview", version, about, long_about = None)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Clean pages: print the topic content of each PAGE (text, a JSON report of every block
    /// kept or dropped and why, or the topic content page as HTML).
    Extract(ExtractArgs),
    /// Score a cleaner on a labelled set (SET/html/ID.html.gz and SET/ground-truth/ID.json, as
    /// docs/data.md describes): word-level
    /// bag-of-words precision, recall and F1 per page, macro-averaged, overall and per page
    /// type, with pages/s and MB/s of HTML per core.
    Eval(EvalArgs),
    /// The main job: clean a crawled collection (WARC, folders of pages, JSONL), remove replicas,
    /// write one DocView record per kept page (OUT/docviews.jsonl), the removed replicas
    /// (OUT/replicas.jsonl), the collection statistics (OUT/stats.json) and three Tantivy
    /// indexes (OUT/index/fulltext, topic, abstract), then print a summary. Commits every
    /// --commit-every pages; an interrupted run continues with --resume.
    Ingest(IngestArgs),
    /// Search one of the indexes of an ingest: URL, title, score and a snippet per hit
    /// (matched terms in [[ ]]).
    Query(QueryArgs),
    /// Compare the three indexes of an ingest (the paper's Table 3 and Figure 6, and more):
    /// size, query cost and, with --corpus, retrieval quality; prints tables and writes
    /// compare.json and a self-contained compare.html.
    Compare(CompareArgs),
    /// Hand an ingest's records to another engine: Anserini/Pyserini's JSON collection, one
    /// {"id", "contents"} line a record, `contents` the topic content (or the fields
    /// --contents names), so that it indexes exactly docview's cleaned text.
    Export(ExportArgs),
    /// Measure replica removal on real pages, the way the paper did (§7.2, Table 2): `build` a
    /// benchmark of base, near-replica and non-replica pages from a labelled set, then `eval`
    /// the fingerprints on it.
    Replicas(ReplicasArgs),
    /// Write the labelled blocks of labelled sets as CSV: one row per text block (a visible
    /// block with words of its own) with the set, page id, site, page type, node id, the
    /// learned cleaner's features, the block's own terms, the share of its tokens the
    /// reference holds in context, and its 0/1 label (1 when that share is at least 0.5 inside the
    /// page's joined top candidate, 0.75 outside it).
    /// pandas and polars read it directly.
    Blocks(BlocksArgs),
    /// Train the learned cleaner's block model on labelled sets (gradient-boosted trees on the
    /// blocks that `docview blocks` writes) and write it as a model file for --model. Same
    /// sets and parameters, byte-identical model.
    TrainCleaner(TrainCleanerArgs),
    /// The content classifier of the DocView's classification code: gradient-boosted trees
    /// over each page's signals (markup, schema.org types, URL, phrases), or the paper's
    /// chi-square term selection and kNN over the Formula 2 vectors of each page's topic
    /// content or raw page (004 §7.1). `train` writes a model from labelled sets; `eval`
    /// scores a model, or cross-validates by site.
    Classify(ClassifyArgs),
    /// `ingest` cut into stages that read and write files, for an engine that runs one task
    /// per shard (Spark: scripts/spark_stages.py) or for the local process pool here. `plan`
    /// fixes the inputs and settings in a work folder, `run` runs one task of one stage,
    /// `pool` runs every stage with N processes at once. The output folder (--out of the
    /// plan) holds the same records, replicas, skipped inputs, statistics and indexes as
    /// `docview ingest` with the same inputs and flags.
    Stages(StagesArgs),
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    use super::Cli;

    /// The long help of `command` and of every subcommand under it, with their paths.
    fn every_help(command: &mut clap::Command, path: &str, out: &mut Vec<(String, String)>) {
        out.push((path.to_string(), command.render_long_help().to_string()));
        for sub in command.get_subcommands_mut() {
            let name = format!("{path} {}", sub.get_name());
            every_help(sub, &name, out);
        }
    }

    /// The help speaks to a user of the binary: no path inside the repository's surroundings
    /// (`../shared`), no figure said to be in a README section that is not there, and every
    /// page of the docs it names exists.
    #[test]
    fn the_help_points_at_docs_that_exist() {
        let mut helps = Vec::new();
        every_help(&mut Cli::command(), "docview", &mut helps);
        assert!(helps.len() > 20, "{}", helps.len());
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
        let mut pages = 0;
        for (command, help) in &helps {
            for internal in ["../shared", "(README)", "shared/corpus"] {
                assert!(!help.contains(internal), "{command}: {internal}:\n{help}");
            }
            for word in help.split(|c: char| c.is_whitespace() || "(),;".contains(c)) {
                if let Some(at) = word.find("docs/") {
                    let page = word[at..].trim_end_matches(['.', ':']);
                    assert!(
                        root.join(page).is_file(),
                        "{command}: {page} does not exist"
                    );
                    pages += 1;
                }
            }
        }
        assert!(pages >= 4, "{pages}");
    }
}
