//! Part 2 of the comparison: what a query set costs on each index (the paper's Figure 6). The
//! disk-access proxy is the posting lists a query reads: the entries (documents per term) and
//! bytes of its terms' lists; latency is timed over warm runs of a top-10 search.

use std::time::Instant;

use super::queries::QuerySet;
use super::{IndexCost, QueryCost, ratio};
use crate::Result;
use crate::index::{Combine, OpenIndex};

/// The cost of `set` on each index, fulltext first; each query runs once to warm up, then `runs`
/// times timed. Words combine as in web search: a page must hold all of them.
pub fn query_cost(indexes: &[OpenIndex], set: &QuerySet, runs: usize) -> Result<QueryCost> {
    let runs = runs.max(1);
    let mut per_index = Vec::with_capacity(indexes.len());
    for index in indexes {
        per_index.push(index_cost(index, set, runs)?);
    }
    let full_postings = per_index.first().map_or(0.0, |c| c.postings_per_query);
    for cost in &mut per_index {
        cost.postings_ratio = ratio(cost.postings_per_query, full_postings);
    }
    Ok(QueryCost {
        source: set.source.clone(),
        queries: set.queries.len(),
        runs,
        per_index,
    })
}

fn index_cost(index: &OpenIndex, set: &QuerySet, runs: usize) -> Result<IndexCost> {
    let (mut entries, mut bytes, mut matches) = (0u64, 0u64, 0u64);
    let mut timings_ms: Vec<f64> = Vec::with_capacity(set.queries.len() * runs);
    for text in &set.queries {
        let Ok(query) = index.body_query(text, Combine::All) else {
            continue;
        };
        let cost = index.postings_cost(query.as_ref())?;
        entries += cost.entries;
        bytes += cost.bytes;
        matches += index.count(query.as_ref())? as u64;
        index.search_top(query.as_ref(), 10)?;
        for _ in 0..runs {
            let start = Instant::now();
            std::hint::black_box(index.search_top(query.as_ref(), 10)?);
            timings_ms.push(start.elapsed().as_secs_f64() * 1e3);
        }
    }
    let n = set.queries.len().max(1) as f64;
    timings_ms.sort_by(f64::total_cmp);
    Ok(IndexCost {
        index: index.kind().as_str().to_string(),
        postings_per_query: entries as f64 / n,
        posting_bytes_per_query: bytes as f64 / n,
        postings_ratio: 0.0,
        latency_p50_ms: percentile(&timings_ms, 0.50),
        latency_p95_ms: percentile(&timings_ms, 0.95),
        matches_per_query: matches as f64 / n,
    })
}

/// The `q` quantile of sorted `values` (nearest rank), 0 for none.
fn percentile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1]
}

#[cfg(test)]
mod tests {
    use super::percentile;

    #[test]
    fn nearest_rank_percentiles() {
        let v: Vec<f64> = (1..=20).map(f64::from).collect();
        assert_eq!(percentile(&v, 0.5), 10.0);
        assert_eq!(percentile(&v, 0.95), 19.0);
        assert_eq!(percentile(&[3.0], 0.95), 3.0);
        assert_eq!(percentile(&[], 0.5), 0.0);
    }
}
