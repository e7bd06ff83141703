//! The arguments of `docview compare`: the ingest, the queries, the labelled set.

use std::path::PathBuf;

#[derive(Debug, clap::Args)]
pub struct CompareArgs {
    /// The output directory of an ingest.
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
    /// A labelled set (SET/html/ID.html.gz and SET/ground-truth/ID.json, as docs/data.md
    /// describes) whose pages were ingested into DIR: measures
    /// hit@10 of its content snippets, false-hit rate@10 of its boilerplate snippets and MRR@10
    /// of its titles; without --queries its titles are also the query set of the cost part.
    #[arg(long, value_name = "SET")]
    pub corpus: Option<PathBuf>,
    /// A query log for the cost part: one query a line (# comments and blank lines ignored).
    #[arg(long, value_name = "FILE")]
    pub queries: Option<PathBuf>,
    /// Without --queries and --corpus: draw this many queries of one to three words from the
    /// full-text vocabulary, by document frequency.
    #[arg(long, value_name = "N", default_value_t = 100)]
    pub vocabulary: usize,
    /// Seed of the vocabulary draw.
    #[arg(long, value_name = "S", default_value_t = 1)]
    pub seed: u64,
    /// Timed warm runs of each query.
    #[arg(long, value_name = "N", default_value_t = 5)]
    pub runs: usize,
    /// Worker threads for the retrieval queries (0: one per core).
    #[arg(long, value_name = "N", default_value_t = 0, value_parser = super::threads)]
    pub threads: usize,
    /// The weight of each field of the docview index in a hit's score, as
    /// `title=0.25,keywords=0,abstract=0,topic=1` (the default, chosen on docview's dev queries; fields not named keep their
    /// default weight, a weight of 0 leaves the field unsearched).
    #[arg(long, value_name = "WEIGHTS", value_parser = super::field_weights)]
    pub field_weights: Option<docview::index::FieldWeights>,
    /// Where to write compare.json and compare.html (default: DIR).
    #[arg(long, value_name = "OUT")]
    pub out: Option<PathBuf>,
    /// A test collection's topics, for ranked retrieval (with --qrels): `qid<TAB>query` lines,
    /// TREC's <top> blocks (<num>, <title>), or JSON Lines of {"qid", "query"}. Each topic is
    /// searched as a bag of its words in every index, up to 1,000 documents.
    #[arg(long, value_name = "FILE", requires = "qrels")]
    pub topics: Option<PathBuf>,
    /// The test collection's relevance judgments (with --topics), TREC's `qid iter docid rel`
    /// lines, graded (1 and up is relevant): gives nDCG@10, P@10, AP, R@100, RR@10 and
    /// Judged@10 per index, each cleaned index tested against fulltext (paired randomization
    /// test), and the topics that gain and lose most.
    #[arg(long, value_name = "FILE", requires = "topics")]
    pub qrels: Option<PathBuf>,
    /// The record field the qrels' document ids are: url (the record's identifier, the
    /// default), warc_record_id, or a field of the JSON lines ingested (a user's `id`).
    #[arg(long, value_name = "FIELD", default_value = "url", requires = "topics")]
    pub docid: String,
    /// With --topics: also write each index's run as a TREC run file, RUNS/INDEX.run (`qid
    /// Q0 docid rank score tag`, tagged docview-INDEX), for trec_eval or ir-measures.
    #[arg(long, value_name = "RUNS", requires = "topics")]
    pub run_dir: Option<PathBuf>,
}
