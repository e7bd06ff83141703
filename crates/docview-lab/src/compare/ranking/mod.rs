//! Ranked retrieval as IR researchers measure it: a test collection's topics run on each index
//! of an ingest, the runs scored against its relevance judgments (nDCG@10, P@10, AP, R@100,
//! RR@10, Judged@10: [`measures`]), each cleaned index tested against the full text (paired
//! randomization test), and the runs written as TREC run files (`qid Q0 docid rank score
//! tag`) for `trec_eval` or ir-measures.
//!
//! A topic's query is searched as a bag of words: what is not a letter or a digit (TREC titles'
//! colons, quotes, hyphens) is a space, so no topic reads as docview's query syntax; its words
//! are looked for in the title and the body, any of them, BM25-ranked (as `docview query`
//! searches). A run holds up to [`RUN_DEPTH`] documents a topic. Document ids are the records'
//! identifiers (the page's URL), or a field the user names ([`DocIdField`]).

pub mod measures;
pub mod topics;

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::index::{Combine, OpenIndex};
use crate::output::write_atomically;
pub use crate::records::DocIdField;
use crate::records::{DOCVIEWS, RecordLine, try_for_each_line};
use crate::{Error, Result};
pub use measures::{Measure, Measures, Ranked, mean, measure, randomization_p, trec_order};
pub use topics::{Judgments, Qrels, Topic, read_qrels, read_topics};

/// Documents a run holds for each topic (AP is over them).
pub const RUN_DEPTH: usize = 1000;

/// Topics listed as gaining and losing most, per cleaned index.
const MOVERS: usize = 5;

/// The document id of each kept page of the ingest in `dir`, by its URL (the indexes' key);
/// a page without the field, or whose value is no one word, is an error naming it, as a run
/// could not name it ([`DocIdField::of_checked`]).
pub fn document_ids(dir: &Path, field: &DocIdField) -> Result<HashMap<String, String>> {
    let file = dir.join(DOCVIEWS);
    let mut ids = HashMap::new();
    try_for_each_line(&file, |r: RecordLine| {
        let id = field.of_checked(&r, &file)?;
        ids.insert(r.docview.identifier, id);
        Ok(())
    })?;
    Ok(ids)
}

/// One topic's ranked documents, in [`trec_order`].
#[derive(Debug, Clone, PartialEq)]
pub struct TopicRun {
    /// The topic's id.
    pub qid: String,
    /// Its documents, best first.
    pub ranked: Vec<Ranked>,
}

/// `query` as a bag of words: what is neither a letter nor a digit becomes a space, and the
/// words the query syntax reads as operators (`AND`, `OR`, `NOT`) are lowercased, so that a
/// title such as "Crime AND Punishment" is its three words.
pub fn bag_of_words(query: &str) -> String {
    let spaced: String = query
        .chars()
        .map(|c| if c.is_alphanumeric() { c } else { ' ' })
        .collect();
    spaced
        .split_whitespace()
        .map(|w| match w {
            "AND" | "OR" | "NOT" => w.to_lowercase(),
            _ => w.to_string(),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The run of `topics` on `index`, up to `depth` documents a topic, named by `docids` (a
/// page missing from it, which no kept record names, is left out); a topic without a word to
/// search for has no documents. Topics run on `threads` threads (0: one per core), in
/// topic order whatever the number.
pub fn run_topics(
    index: &OpenIndex,
    topics: &[Topic],
    docids: &HashMap<String, String>,
    depth: usize,
    threads: usize,
) -> Result<Vec<TopicRun>> {
    let pool = docview_collection::thread_pool(threads)?;
    pool.install(|| {
        topics
            .par_iter()
            .map(|topic| {
                let ranked = match index.query(&bag_of_words(&topic.query), Combine::Any) {
                    Err(_) => Vec::new(),
                    Ok(query) => {
                        let mut ranked: Vec<Ranked> = index
                            .top_scored_urls(query.as_ref(), depth)?
                            .into_iter()
                            .filter_map(|(score, url)| {
                                Some(Ranked {
                                    docid: docids.get(&url)?.clone(),
                                    score,
                                })
                            })
                            .collect();
                        trec_order(&mut ranked);
                        ranked
                    }
                };
                Ok(TopicRun {
                    qid: topic.qid.clone(),
                    ranked,
                })
            })
            .collect()
    })
}

/// Writes `runs` as a TREC run file at `path` (`qid Q0 docid rank score tag` lines, ranks from
/// 1), replaced only once complete.
pub fn write_run(path: &Path, runs: &[TopicRun], tag: &str) -> Result<()> {
    write_atomically(path, |w| {
        for run in runs {
            for (rank, doc) in run.ranked.iter().enumerate() {
                writeln!(
                    w,
                    "{} Q0 {} {} {} {tag}",
                    run.qid,
                    doc.docid,
                    rank + 1,
                    doc.score
                )?;
            }
        }
        Ok(())
    })?;
    Ok(())
}

/// A topic's measures on one index.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TopicMeasures {
    /// The topic's id.
    pub qid: String,
    /// Documents retrieved (up to [`RUN_DEPTH`]).
    pub retrieved: usize,
    /// Its measures.
    #[serde(flatten)]
    pub measures: Measures,
}

/// A measure of a cleaned index against the full text's.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Versus {
    /// Which measure.
    pub measure: Measure,
    /// The cleaned index's mean minus the full text's.
    pub difference: f64,
    /// The two-sided p-value of the paired randomization test over the topics.
    pub p_value: f64,
}

/// A topic's nDCG@10 on a cleaned index and on the full text.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TopicChange {
    /// The topic's id.
    pub qid: String,
    /// Its query.
    pub query: String,
    /// nDCG@10 on the full text.
    pub fulltext: f64,
    /// nDCG@10 on this index.
    pub index: f64,
}

/// One index's ranked retrieval.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct IndexRanking {
    /// `fulltext`, `topic` or `abstract`.
    pub index: String,
    /// The means over the judged topics.
    pub mean: Measures,
    /// Each judged topic's measures, in topic order.
    pub topics: Vec<TopicMeasures>,
    /// Against the full text (empty for the full text).
    pub versus_fulltext: Vec<Versus>,
    /// The topics whose nDCG@10 rose most against the full text, most first.
    pub most_gained: Vec<TopicChange>,
    /// The topics whose nDCG@10 fell most against the full text, most first.
    pub most_lost: Vec<TopicChange>,
}

/// Ranked retrieval on a test collection: what `compare --topics --qrels` adds to the report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Ranking {
    /// The topics file.
    pub topics_file: String,
    /// The qrels file.
    pub qrels_file: String,
    /// The record field whose values are the document ids.
    pub docid: String,
    /// Topics measured: those with judgments.
    pub judged_topics: usize,
    /// Topics left out for having no judgment.
    pub unjudged_topics: Vec<String>,
    /// Judged documents that no kept record names (not ingested, or a replica).
    pub judged_not_indexed: usize,
    /// Randomization test permutations ([`measures::PERMUTATIONS`]).
    pub permutations: usize,
    /// Fulltext first.
    pub indexes: Vec<IndexRanking>,
}

/// What ranked retrieval is asked to do.
#[derive(Debug, Clone)]
pub struct RankingOptions {
    /// The topics file.
    pub topics: PathBuf,
    /// The qrels file.
    pub qrels: PathBuf,
    /// The record field whose values are the document ids.
    pub docid: DocIdField,
    /// Where to write each index's run (`INDEX.run`), if anywhere.
    pub runs: Option<PathBuf>,
}

/// Runs the topics on each of `indexes` (fulltext first) of the ingest in `dir` and measures
/// them.
pub fn ranking(
    dir: &Path,
    indexes: &[OpenIndex],
    options: &RankingOptions,
    threads: usize,
) -> Result<Ranking> {
    let topics = read_topics(&options.topics)?;
    let qrels = read_qrels(&options.qrels)?;
    let docids = document_ids(dir, &options.docid)?;
    let (judged, unjudged): (Vec<&Topic>, Vec<&Topic>) =
        topics.iter().partition(|t| qrels.contains_key(&t.qid));
    if judged.is_empty() {
        return Err(Error::bad_input(
            options.qrels.display().to_string(),
            format!(
                "no judgment for any topic of {}: are they the same collection's?",
                options.topics.display()
            ),
        ));
    }
    let indexed: std::collections::HashSet<&str> = docids.values().map(String::as_str).collect();
    let judged_not_indexed = judged
        .iter()
        .flat_map(|t| qrels[&t.qid].keys())
        .filter(|d| !indexed.contains(d.as_str()))
        .count();
    let judged_topics: Vec<Topic> = judged.iter().map(|t| (*t).clone()).collect();
    if let Some(runs) = &options.runs {
        crate::output::create_folder(runs)?;
    }
    let mut out: Vec<IndexRanking> = Vec::new();
    for index in indexes {
        let runs = run_topics(index, &topics, &docids, RUN_DEPTH, threads)?;
        if let Some(folder) = &options.runs {
            let kind = index.kind().as_str();
            write_run(
                &folder.join(format!("{kind}.run")),
                &runs,
                &format!("docview-{kind}"),
            )?;
        }
        let per_topic: Vec<TopicMeasures> = runs
            .iter()
            .filter_map(|run| {
                let judged = qrels.get(&run.qid)?;
                Some(TopicMeasures {
                    qid: run.qid.clone(),
                    retrieved: run.ranked.len(),
                    measures: measure(&run.ranked, judged),
                })
            })
            .collect();
        let means: Vec<Measures> = per_topic.iter().map(|t| t.measures).collect();
        let mut ranking = IndexRanking {
            index: index.kind().as_str().to_string(),
            mean: mean(&means),
            topics: per_topic,
            versus_fulltext: Vec::new(),
            most_gained: Vec::new(),
            most_lost: Vec::new(),
        };
        if let Some(full) = out.first() {
            versus(&mut ranking, full, &judged_topics);
        }
        out.push(ranking);
    }
    Ok(Ranking {
        topics_file: options.topics.display().to_string(),
        qrels_file: options.qrels.display().to_string(),
        docid: options.docid.name().to_string(),
        judged_topics: judged.len(),
        unjudged_topics: unjudged.iter().map(|t| t.qid.clone()).collect(),
        judged_not_indexed,
        permutations: measures::PERMUTATIONS,
        indexes: out,
    })
}

/// Fills `ranking`'s comparison with the full text's `full`, topic by topic.
fn versus(ranking: &mut IndexRanking, full: &IndexRanking, topics: &[Topic]) {
    let values = |r: &IndexRanking, m: Measure| -> Vec<f64> {
        r.topics.iter().map(|t| m.of(&t.measures)).collect()
    };
    ranking.versus_fulltext = Measure::ALL
        .iter()
        .map(|&m| Versus {
            measure: m,
            difference: m.of(&ranking.mean) - m.of(&full.mean),
            p_value: randomization_p(&values(full, m), &values(ranking, m)),
        })
        .collect();
    let mut changes: Vec<TopicChange> = ranking
        .topics
        .iter()
        .zip(&full.topics)
        .zip(topics)
        .map(|((mine, theirs), topic)| TopicChange {
            qid: mine.qid.clone(),
            query: topic.query.clone(),
            fulltext: theirs.measures.ndcg_10,
            index: mine.measures.ndcg_10,
        })
        .filter(|c| c.index != c.fulltext)
        .collect();
    // Largest change first; ties in topic order (a stable sort).
    changes.sort_by(|a, b| (b.index - b.fulltext).total_cmp(&(a.index - a.fulltext)));
    ranking.most_gained = changes
        .iter()
        .filter(|c| c.index > c.fulltext)
        .take(MOVERS)
        .cloned()
        .collect();
    let mut lost: Vec<TopicChange> = changes
        .into_iter()
        .filter(|c| c.index < c.fulltext)
        .collect();
    lost.sort_by(|a, b| (a.index - a.fulltext).total_cmp(&(b.index - b.fulltext)));
    lost.truncate(MOVERS);
    ranking.most_lost = lost;
}

#[cfg(test)]
mod tests {
    use super::bag_of_words;

    #[test]
    fn a_topic_is_its_words_whatever_the_query_syntax() {
        assert_eq!(
            bag_of_words("title:\"Crime AND (Punishment)\" -NOT +war's"),
            "title Crime and Punishment not war s"
        );
        assert_eq!(bag_of_words("清溪大桥，通车"), "清溪大桥 通车");
    }
}
