//! Copies inside one page's topic content: a run of kept blocks that repeats, block for block,
//! a run the topic content already holds.
//!
//! Pages repeat a passage for layouts rather than readers: the article written once for wide
//! screens and once for narrow ones, an infinite-scroll page that loads the same story again,
//! a course description given in each of its sessions' tabs. Every copy scores as the first
//! does, so the learned cleaner keeps them all, and the topic content (and the index) holds the
//! passage two or more times where the page's reader reads it once. The paper's replicas (§5)
//! are copies between pages; these are copies within one.
//!
//! A block is compared by its tokens (the scorer's, [`BlockFeatures::tokens`]). A run is a copy
//! when at least [`MIN_COPY_RUN`] consecutive kept blocks equal, in order, consecutive kept
//! blocks before them, the run is not one block over and over, and it holds at least
//! [`MIN_COPY_TOKENS`] tokens: a single paragraph said twice ("Lorem ipsum ...", a refrain, a
//! call to action between sections) is the page's text as written and stays, and so do short
//! items that repeat in pairs, such as a table's "Yes" and "No" cells.

use std::hash::{Hash, Hasher};

use docview_page::NodeId;
use rustc_hash::{FxHashMap, FxHasher};

use super::features::BlockFeatures;

/// The fewest consecutive blocks that make a copied run: two, so that a paragraph said twice
/// is not a copy but a passage is (3 gained less: `docs/explain/learned-cleaner.md`, Copies).
pub(crate) const MIN_COPY_RUN: usize = 2;

/// The fewest tokens a copied run holds, all its blocks together: a sentence or two, well
/// above a pair of table cells or of a form's labels (12 and 40 measured alike).
pub(crate) const MIN_COPY_TOKENS: usize = 25;

/// The reason of a block dropped as a copy.
pub(crate) const COPY_REASON: &str = "repeats a run of blocks the topic content already holds";

/// The blocks of `features` that `own_kept` keeps (by node id) and that repeat an earlier run
/// of kept blocks, in document order. Linear in the blocks: each run is looked up by its first
/// two blocks, at the first place that pair of different blocks was kept.
pub(crate) fn copied_blocks(features: &BlockFeatures, own_kept: &[bool]) -> Vec<NodeId> {
    // Each kept block with tokens: its node, its key and its tokens.
    let kept: Vec<(NodeId, u64, usize)> = features
        .nodes
        .iter()
        .enumerate()
        .filter(|(_, id)| own_kept.get(**id as usize).copied().unwrap_or(false))
        .map(|(k, &id)| (id, features.tokens(k)))
        .filter(|(_, tokens)| !tokens.is_empty())
        .map(|(id, tokens)| (id, block_key(tokens), tokens.len()))
        .collect();
    let mut first_pair: FxHashMap<(u64, u64), usize> = FxHashMap::default();
    let mut copied = Vec::new();
    let mut i = 0;
    while i + 1 < kept.len() {
        let pair = (kept[i].1, kept[i + 1].1);
        if pair.0 == pair.1 {
            i += 1;
            continue;
        }
        match first_pair.get(&pair) {
            Some(&s) if s + 1 < i => {
                // Extend the copy while it matches and stays before the run it repeats.
                let mut len = 2;
                while i + len < kept.len() && s + len < i && kept[s + len].1 == kept[i + len].1 {
                    len += 1;
                }
                let tokens: usize = kept[i..i + len].iter().map(|b| b.2).sum();
                if len >= MIN_COPY_RUN && tokens >= MIN_COPY_TOKENS {
                    copied.extend(kept[i..i + len].iter().map(|b| b.0));
                    i += len;
                    continue;
                }
                i += 1;
            }
            Some(_) => i += 1,
            None => {
                first_pair.insert(pair, i);
                i += 1;
            }
        }
    }
    copied
}

/// A block's key: a hash of its tokens in order.
fn block_key(tokens: &[u32]) -> u64 {
    let mut h = FxHasher::default();
    tokens.hash(&mut h);
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Blocks of sixteen tokens each, given as one small integer a block (its "text").
    fn blocks(texts: &[u32]) -> (BlockFeatures, Vec<bool>) {
        let mut f = BlockFeatures::default();
        for (k, &t) in texts.iter().enumerate() {
            f.nodes.push(k as NodeId);
            f.token_hashes.extend((0..16).map(|j| t * 100 + j));
            f.token_ends.push(f.token_hashes.len() as u32);
        }
        (f, vec![true; texts.len()])
    }

    #[test]
    fn a_run_repeated_later_is_a_copy() {
        // An article of four paragraphs, a sidebar, then the article again.
        let (f, kept) = blocks(&[1, 2, 3, 4, 9, 1, 2, 3, 4]);
        assert_eq!(copied_blocks(&f, &kept), vec![5, 6, 7, 8]);
        // Dropped blocks take no part: the same page with its first copy dropped keeps the second.
        let mut first_dropped = kept.clone();
        first_dropped[..4].fill(false);
        assert!(copied_blocks(&f, &first_dropped).is_empty());
    }

    #[test]
    fn one_block_said_again_is_not_a_copy() {
        // The same paragraph over and over, or between other paragraphs.
        let (f, kept) = blocks(&[1, 1, 1, 1, 1]);
        assert!(copied_blocks(&f, &kept).is_empty());
        let (f, kept) = blocks(&[1, 2, 1, 3, 1, 4, 1]);
        assert!(copied_blocks(&f, &kept).is_empty());
        // Two blocks said again are a copy, next to the first or not.
        let (f, kept) = blocks(&[1, 2, 1, 2]);
        assert_eq!(copied_blocks(&f, &kept), vec![2, 3]);
        let (f, kept) = blocks(&[1, 2, 7, 1, 2]);
        assert_eq!(copied_blocks(&f, &kept), vec![3, 4]);
    }

    #[test]
    fn short_items_in_pairs_are_not_a_copy() {
        // A table's cells "Yes" and "No", row after row: one token each.
        let mut f = BlockFeatures::default();
        for (k, t) in [1u32, 2, 1, 2, 1, 2].into_iter().enumerate() {
            f.nodes.push(k as NodeId);
            f.token_hashes.push(t);
            f.token_ends.push(f.token_hashes.len() as u32);
        }
        assert!(copied_blocks(&f, &[true; 6]).is_empty());
    }

    #[test]
    fn empty_blocks_are_left_out_of_runs() {
        let mut f = BlockFeatures::default();
        for (k, t) in [Some(1), Some(2), None, Some(5), Some(1), None, Some(2)]
            .into_iter()
            .enumerate()
        {
            f.nodes.push(k as NodeId);
            f.token_hashes.extend(
                t.into_iter()
                    .flat_map(|t: u32| (0..16).map(move |j| t * 100 + j)),
            );
            f.token_ends.push(f.token_hashes.len() as u32);
        }
        assert_eq!(copied_blocks(&f, &[true; 7]), vec![4, 6]);
    }
}
