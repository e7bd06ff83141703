//! Part 3 of the comparison: retrieval quality on a labelled set whose pages were ingested
//! (layout of `../shared/corpus`). For every page in the indexes, per index:
//!
//! - each `with` snippet (main content) as a query: the page should be in the top 10 (hit@10);
//! - each `without` snippet (boilerplate) as a query: the page should not be (false-hit
//!   rate@10);
//! - the reference title as a known-item query: the reciprocal rank of the page in the top 10
//!   (MRR@10).
//!
//! Snippet queries require all their words (a page holding only some of them is not a match
//! for a phrase-like snippet); title queries take any word, ranked by BM25, as a known-item
//! search does. Queries search the body only: title and URL are the same in every index (the
//! DocView index's query searches all its fields, weighted, which is what it adds).

use std::collections::{BTreeMap, HashSet};
use std::path::Path;

use rayon::prelude::*;

use super::{IndexRetrieval, PageMiss, Retrieval, RetrievalScores};
use crate::eval::LabelledPage;
use crate::index::{Combine, OpenIndex};
use crate::input::file_url;
use crate::records::{DOCVIEWS, RecordLine, for_each_line};
use crate::{Error, Result};

/// Results of one page on one index.
#[derive(Debug, Clone, Default)]
struct PageOutcome {
    with_asked: usize,
    with_hits: usize,
    /// Which `with` snippets hit, by position.
    with_hit: Vec<bool>,
    without_asked: usize,
    without_hits: usize,
    title_asked: usize,
    reciprocal_rank: f64,
}

impl PageOutcome {
    fn add(&mut self, other: &PageOutcome) {
        self.with_asked += other.with_asked;
        self.with_hits += other.with_hits;
        self.without_asked += other.without_asked;
        self.without_hits += other.without_hits;
        self.title_asked += other.title_asked;
        self.reciprocal_rank += other.reciprocal_rank;
    }
}

/// Sums of outcomes over a group of pages.
#[derive(Debug, Clone, Default)]
struct Tally {
    pages: usize,
    sum: PageOutcome,
}

impl Tally {
    fn scores(&self) -> RetrievalScores {
        let share = |n: usize, d: usize| if d == 0 { 0.0 } else { n as f64 / d as f64 };
        RetrievalScores {
            pages: self.pages,
            with_queries: self.sum.with_asked,
            hit_at_10: share(self.sum.with_hits, self.sum.with_asked),
            without_queries: self.sum.without_asked,
            false_hit_at_10: share(self.sum.without_hits, self.sum.without_asked),
            title_queries: self.sum.title_asked,
            mrr_at_10: if self.sum.title_asked == 0 {
                0.0
            } else {
                self.sum.reciprocal_rank / self.sum.title_asked as f64
            },
        }
    }
}

/// The URL under which `page` was ingested, if it was kept: its file URL (a folder was
/// ingested) or its crawl URL (a WARC or JSONL was).
fn ingested_url(page: &LabelledPage, kept: &HashSet<String>) -> Option<String> {
    let by_file = std::fs::canonicalize(&page.html_path)
        .ok()
        .map(|p| file_url(&p));
    [by_file, Some(page.url.clone())]
        .into_iter()
        .flatten()
        .find(|url| kept.contains(url))
}

/// The URLs of the pages kept in `dir`'s records.
fn kept_urls(dir: &Path) -> Result<HashSet<String>> {
    let mut kept = HashSet::new();
    for_each_line(&dir.join(DOCVIEWS), |r: RecordLine| {
        kept.insert(r.docview.identifier);
    })?;
    Ok(kept)
}

fn ask_page(index: &OpenIndex, page: &LabelledPage, url: &str) -> Result<PageOutcome> {
    let mut out = PageOutcome::default();
    let in_top = |text: &str, combine: Combine| -> Result<Option<Option<usize>>> {
        match index.body_query(text, combine) {
            Err(_) => Ok(None),
            Ok(q) => Ok(Some(
                index
                    .top_urls(q.as_ref(), 10)?
                    .iter()
                    .position(|u| u == url),
            )),
        }
    };
    for snippet in &page.with {
        let hit = match in_top(snippet, Combine::All)? {
            Some(rank) => {
                out.with_asked += 1;
                rank.is_some()
            }
            None => false,
        };
        out.with_hits += usize::from(hit);
        out.with_hit.push(hit);
    }
    for snippet in &page.without {
        if let Some(rank) = in_top(snippet, Combine::All)? {
            out.without_asked += 1;
            out.without_hits += usize::from(rank.is_some());
        }
    }
    if !page.title.trim().is_empty()
        && let Some(rank) = in_top(&page.title, Combine::Any)?
    {
        out.title_asked = 1;
        out.reciprocal_rank = rank.map_or(0.0, |r| 1.0 / (r + 1) as f64);
    }
    Ok(out)
}

/// Pages listed per cleaned index as those it loses most on.
const MISSES_PER_INDEX: usize = 10;

/// For each index after the first (fulltext), the pages with the most content snippets fulltext
/// found and it did not, then the most boilerplate hits; ties in set order.
fn worst_pages(
    indexes: &[OpenIndex],
    found: &[(&LabelledPage, String)],
    outcomes: &[Vec<PageOutcome>],
) -> Vec<PageMiss> {
    let Some(full) = outcomes.first() else {
        return Vec::new();
    };
    let mut misses = Vec::new();
    for (index, results) in indexes.iter().zip(outcomes).skip(1) {
        let mut rows: Vec<PageMiss> = found
            .iter()
            .zip(full.iter().zip(results))
            .map(|((page, _), (f, r))| PageMiss {
                index: index.kind().as_str().to_string(),
                file_id: page.file_id.clone(),
                page_type: page.page_type.clone(),
                content_lost: f
                    .with_hit
                    .iter()
                    .zip(&r.with_hit)
                    .filter(|(a, b)| **a && !**b)
                    .count(),
                boilerplate_hits: r.without_hits,
            })
            .filter(|m| m.content_lost > 0 || m.boilerplate_hits > 0)
            .collect();
        rows.sort_by(|a, b| {
            (b.content_lost + b.boilerplate_hits)
                .cmp(&(a.content_lost + a.boilerplate_hits))
                .then(b.content_lost.cmp(&a.content_lost))
        });
        rows.truncate(MISSES_PER_INDEX);
        misses.extend(rows);
    }
    misses
}

/// Retrieval quality of each index (fulltext first) on the labelled `pages` of `set_name`, for
/// the pages the ingest in `dir` kept.
pub fn retrieval(
    dir: &Path,
    indexes: &[OpenIndex],
    pages: &[LabelledPage],
    set_name: &str,
    threads: usize,
) -> Result<Retrieval> {
    let kept = kept_urls(dir)?;
    let found: Vec<(&LabelledPage, String)> = pages
        .iter()
        .filter_map(|p| ingested_url(p, &kept).map(|u| (p, u)))
        .collect();
    if found.is_empty() && !pages.is_empty() {
        return Err(Error::Corpus {
            path: set_name.into(),
            reason: format!(
                "none of its {} pages is among the {} pages kept by the ingest in {} (was that \
                 ingest made from this set's html/ folder?)",
                pages.len(),
                kept.len(),
                dir.display()
            ),
        });
    }
    let pool = docview_collection::thread_pool(threads)?;
    let mut per_index = Vec::with_capacity(indexes.len());
    let mut all_outcomes: Vec<Vec<PageOutcome>> = Vec::with_capacity(indexes.len());
    for index in indexes {
        let outcomes: Vec<PageOutcome> = pool.install(|| {
            found
                .par_iter()
                .map(|(page, url)| ask_page(index, page, url))
                .collect::<Result<Vec<_>>>()
        })?;
        let mut overall = Tally::default();
        let mut by_type: BTreeMap<String, Tally> = BTreeMap::new();
        for ((page, _), outcome) in found.iter().zip(&outcomes) {
            for tally in [
                &mut overall,
                by_type.entry(page.page_type.clone()).or_default(),
            ] {
                tally.pages += 1;
                tally.sum.add(outcome);
            }
        }
        per_index.push(IndexRetrieval {
            index: index.kind().as_str().to_string(),
            overall: overall.scores(),
            by_type: by_type.into_iter().map(|(t, s)| (t, s.scores())).collect(),
        });
        all_outcomes.push(outcomes);
    }
    let misses = worst_pages(indexes, &found, &all_outcomes);
    Ok(Retrieval {
        set: set_name.to_string(),
        pages: found.len(),
        pages_missing: pages.len() - found.len(),
        per_index,
        misses,
    })
}
