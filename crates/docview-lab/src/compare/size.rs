//! Part 1 of the comparison: the size of each index (the paper's Table 3).

use std::path::Path;

use super::{ByteSplit, IndexSize, ratio};
use crate::Result;
use crate::index::{OpenIndex, index_stats};

/// Documents, terms, distinct terms and bytes of each index, fulltext first, with ratios to
/// fulltext.
pub fn sizes(dir: &Path, indexes: &[OpenIndex]) -> Result<Vec<IndexSize>> {
    let stats = index_stats(dir)?;
    let mut out = Vec::with_capacity(stats.len());
    for (stat, index) in stats.iter().zip(indexes) {
        let space = index.space()?;
        let counted = space.postings
            + space.positions
            + space.store
            + space.term_dictionary
            + space.fast_fields_and_norms;
        out.push(IndexSize {
            index: stat.kind.as_str().to_string(),
            docs: stat.docs,
            terms: stat.terms,
            distinct_terms: stat.distinct_terms,
            bytes: ByteSplit {
                total: stat.bytes,
                postings: space.postings,
                positions: space.positions,
                store: space.store,
                term_dictionary: space.term_dictionary,
                fast_fields_and_norms: space.fast_fields_and_norms,
                other: stat.bytes.saturating_sub(counted),
            },
            terms_ratio: 0.0,
            bytes_ratio: 0.0,
        });
    }
    if let Some(full) = out.first().cloned() {
        for size in &mut out {
            size.terms_ratio = ratio(size.terms as f64, full.terms as f64);
            size.bytes_ratio = ratio(size.bytes.total as f64, full.bytes.total as f64);
        }
    }
    Ok(out)
}
