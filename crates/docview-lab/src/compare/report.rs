//! The comparison report of `docview compare`: the data (what `compare.json` holds) and its
//! rendering as a terminal table. `html.rs` renders the same data as a self-contained page.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// Everything `docview compare` measured on one ingest output directory.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CompareReport {
    /// The ingest output directory compared.
    pub dir: String,
    /// Part 1: size of each index (the paper's Table 3), fulltext first.
    pub sizes: Vec<IndexSize>,
    /// Part 2: query cost (the paper's Figure 6), when a query set was available.
    pub query_cost: Option<QueryCost>,
    /// Part 3: retrieval quality, when a labelled set was given.
    pub retrieval: Option<Retrieval>,
    /// Part 4: ranked retrieval on a test collection, when topics and qrels were given.
    #[serde(default)]
    pub ranking: Option<super::ranking::Ranking>,
    /// The weights the DocView index's fields were searched with in parts 2 to 4.
    #[serde(default)]
    pub field_weights: crate::index::FieldWeights,
}

/// Bytes on disk of one index, split by what they hold (tantivy's space usage, summed over
/// segments; `other` is the meta files and whatever tantivy does not attribute).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ByteSplit {
    /// All files in the index folder.
    pub total: u64,
    /// Posting lists (document ids and term frequencies).
    pub postings: u64,
    /// Term positions (for phrase queries).
    pub positions: u64,
    /// The document store (stored url, title, body).
    pub store: u64,
    /// The term dictionaries.
    pub term_dictionary: u64,
    /// Fast fields and field norms.
    pub fast_fields_and_norms: u64,
    /// Meta files, deletes and anything else.
    pub other: u64,
}

/// Part 1 for one index.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct IndexSize {
    /// `fulltext`, `topic` or `abstract`.
    pub index: String,
    /// Documents.
    pub docs: u64,
    /// Sum of terms (tokens) in the indexed text.
    pub terms: u64,
    /// Distinct terms.
    pub distinct_terms: u64,
    /// Bytes on disk.
    pub bytes: ByteSplit,
    /// `terms` as a share of fulltext's.
    pub terms_ratio: f64,
    /// `bytes.total` as a share of fulltext's.
    pub bytes_ratio: f64,
}

/// Part 2: the cost of one query set on each index.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct QueryCost {
    /// Where the queries came from: `file PATH`, `labelled set`, `vocabulary (seed N)`.
    pub source: String,
    /// Number of queries.
    pub queries: usize,
    /// Warm runs of each query timed.
    pub runs: usize,
    /// Per index, fulltext first.
    pub per_index: Vec<IndexCost>,
}

/// Part 2 for one index.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct IndexCost {
    /// `fulltext`, `topic` or `abstract`.
    pub index: String,
    /// Mean posting-list entries read per query (the sum of the query terms' document
    /// frequencies): the disk-access proxy.
    pub postings_per_query: f64,
    /// Mean bytes of those posting lists per query.
    pub posting_bytes_per_query: f64,
    /// `postings_per_query` as a share of fulltext's.
    pub postings_ratio: f64,
    /// Median latency of a query, in milliseconds.
    pub latency_p50_ms: f64,
    /// 95th percentile latency, in milliseconds.
    pub latency_p95_ms: f64,
    /// Mean number of documents matched per query.
    pub matches_per_query: f64,
}

/// Part 3: retrieval quality on a labelled set.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Retrieval {
    /// The labelled set.
    pub set: String,
    /// Pages of the set found among the ingested documents.
    pub pages: usize,
    /// Pages of the set not in the indexes (removed as replicas, skipped, or not ingested).
    pub pages_missing: usize,
    /// Per index, fulltext first.
    pub per_index: Vec<IndexRetrieval>,
    /// The pages that cost the cleaned indexes most, worst first, per index: content snippets
    /// fulltext finds but the index does not (cleaning dropped content), and boilerplate
    /// snippets that still find the page (cleaning kept boilerplate).
    pub misses: Vec<PageMiss>,
}

/// A page the cleaned index does worse on than fulltext.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PageMiss {
    /// `topic` or `abstract`.
    pub index: String,
    /// The page's id in the labelled set.
    pub file_id: String,
    /// Its page type.
    pub page_type: String,
    /// `with` snippets that find the page in fulltext's top 10 but not in this index's.
    pub content_lost: usize,
    /// `without` snippets that find the page in this index's top 10.
    pub boilerplate_hits: usize,
}

/// Part 3 for one index.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct IndexRetrieval {
    /// `fulltext`, `topic` or `abstract`.
    pub index: String,
    /// All pages together.
    pub overall: RetrievalScores,
    /// By the set's page type.
    pub by_type: BTreeMap<String, RetrievalScores>,
}

/// Retrieval scores of one index over a group of pages.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct RetrievalScores {
    /// Pages in the group.
    pub pages: usize,
    /// `with` snippets (main content) asked.
    pub with_queries: usize,
    /// Share of `with` queries whose page is in the top 10.
    pub hit_at_10: f64,
    /// `without` snippets (boilerplate) asked.
    pub without_queries: usize,
    /// Share of `without` queries whose page is in the top 10 (it should not be).
    pub false_hit_at_10: f64,
    /// Reference titles asked as known-item queries.
    pub title_queries: usize,
    /// Mean reciprocal rank of the page for its title, within the top 10.
    pub mrr_at_10: f64,
}

/// `x` as a percentage with one decimal.
fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

impl CompareReport {
    /// The report as text tables for a terminal.
    pub fn render_table(&self) -> String {
        use std::fmt::Write;
        let mut s = String::new();
        let _ = writeln!(
            s,
            "docview compare {} (docview index's field weights: {})\n",
            self.dir, self.field_weights
        );
        let _ = writeln!(s, "1. Size (the paper's Table 3)");
        let _ = writeln!(
            s,
            "  {:<9} {:>8} {:>13} {:>9} {:>11} {:>11} {:>11} {:>11} {:>11} {:>8} {:>8}",
            "index",
            "docs",
            "sum of terms",
            "distinct",
            "bytes",
            "postings",
            "positions",
            "store",
            "term dict",
            "terms %",
            "bytes %"
        );
        for z in &self.sizes {
            let _ = writeln!(
                s,
                "  {:<9} {:>8} {:>13} {:>9} {:>11} {:>11} {:>11} {:>11} {:>11} {:>8} {:>8}",
                z.index,
                z.docs,
                z.terms,
                z.distinct_terms,
                z.bytes.total,
                z.bytes.postings,
                z.bytes.positions,
                z.bytes.store,
                z.bytes.term_dictionary,
                pct(z.terms_ratio),
                pct(z.bytes_ratio)
            );
        }
        match &self.query_cost {
            Some(c) => {
                let _ = writeln!(
                    s,
                    "\n2. Query cost (Figure 6): {} queries from {} (all words required), {} \
                     warm runs each",
                    c.queries, c.source, c.runs
                );
                let _ = writeln!(
                    s,
                    "  {:<9} {:>14} {:>14} {:>11} {:>9} {:>9} {:>10}",
                    "index",
                    "postings/query",
                    "bytes/query",
                    "postings %",
                    "p50 ms",
                    "p95 ms",
                    "matches"
                );
                for i in &c.per_index {
                    let _ = writeln!(
                        s,
                        "  {:<9} {:>14.0} {:>14.0} {:>11} {:>9.3} {:>9.3} {:>10.1}",
                        i.index,
                        i.postings_per_query,
                        i.posting_bytes_per_query,
                        pct(i.postings_ratio),
                        i.latency_p50_ms,
                        i.latency_p95_ms,
                        i.matches_per_query
                    );
                }
            }
            None => {
                let _ = writeln!(s, "\n2. Query cost: no query set");
            }
        }
        match &self.retrieval {
            Some(r) => {
                let _ = writeln!(
                    s,
                    "\n3. Retrieval on {} ({} pages in the indexes, {} not)",
                    r.set, r.pages, r.pages_missing
                );
                let _ = writeln!(
                    s,
                    "  {:<9} {:<14} {:>6} {:>8} {:>8} {:>10} {:>8}",
                    "index", "pages", "count", "hit@10", "with q", "false@10", "MRR@10"
                );
                for i in &r.per_index {
                    let rows = std::iter::once(("all", &i.overall))
                        .chain(i.by_type.iter().map(|(t, s)| (t.as_str(), s)));
                    for (group, sc) in rows {
                        let _ = writeln!(
                            s,
                            "  {:<9} {:<14} {:>6} {:>8} {:>8} {:>10} {:>8.3}",
                            i.index,
                            group,
                            sc.pages,
                            pct(sc.hit_at_10),
                            sc.with_queries,
                            pct(sc.false_hit_at_10),
                            sc.mrr_at_10
                        );
                    }
                }
            }
            None => {
                let _ = writeln!(s, "\n3. Retrieval: no labelled set (--corpus SET)");
            }
        }
        if let Some(r) = &self.retrieval
            && !r.misses.is_empty()
        {
            let _ = writeln!(
                s,
                "\n  pages the cleaned indexes lose most on (content snippets lost / boilerplate hits):"
            );
            for m in &r.misses {
                let _ = writeln!(
                    s,
                    "  {:<9} {:<10} {:<14} {:>3} lost {:>3} boilerplate",
                    m.index, m.file_id, m.page_type, m.content_lost, m.boilerplate_hits
                );
            }
        }
        if let Some(r) = &self.ranking {
            render_ranking(&mut s, r);
        }
        s
    }
}

/// Part 4 of the text report: each index's means, its test against the full text, and the
/// topics that move most.
fn render_ranking(s: &mut String, r: &super::ranking::Ranking) {
    use super::ranking::Measure;
    use std::fmt::Write;
    let _ = writeln!(
        s,
        "\n4. Ranked retrieval: {} judged topics of {} ({} without judgments left out), qrels {}, \
         document ids from {:?}; {} judged documents not in the indexes",
        r.judged_topics,
        r.topics_file,
        r.unjudged_topics.len(),
        r.qrels_file,
        r.docid,
        r.judged_not_indexed
    );
    let _ = write!(s, "  {:<9}", "index");
    for m in Measure::ALL {
        let _ = write!(s, " {:>10}", m.label());
    }
    let _ = writeln!(s);
    for i in &r.indexes {
        let _ = write!(s, "  {:<9}", i.index);
        for m in Measure::ALL {
            let _ = write!(s, " {:>10.4}", m.of(&i.mean));
        }
        let _ = writeln!(s);
        if !i.versus_fulltext.is_empty() {
            let _ = write!(s, "  {:<9}", "  p");
            for v in &i.versus_fulltext {
                let _ = write!(s, " {:>10.4}", v.p_value);
            }
            let _ = writeln!(s);
        }
    }
    let _ = writeln!(
        s,
        "  (p: two-sided paired randomization test against fulltext, {} permutations)",
        r.permutations
    );
    for i in &r.indexes {
        for (what, topics) in [("gains", &i.most_gained), ("loses", &i.most_lost)] {
            if topics.is_empty() {
                continue;
            }
            let _ = writeln!(s, "  {} {} most in nDCG@10 on:", i.index, what);
            for t in topics {
                let _ = writeln!(
                    s,
                    "    {:<10} {:.3} -> {:.3}  {}",
                    t.qid, t.fulltext, t.index, t.query
                );
            }
        }
    }
}
