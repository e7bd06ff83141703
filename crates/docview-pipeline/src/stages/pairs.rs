//! Stage `pairs` (one task a band part): joins every shard's and the earlier runs' band keys of
//! part `P` ([`BandRow`]) on their buckets, reads the signatures of the pages that share one
//! ([`PageSignature`], [`EarlierSignature`]), and keeps the pairs whose band really is equal
//! and whose estimated Jaccard similarity reaches the threshold (`pairs-P.parquet`,
//! [`PairRow`]), with their figures (`pairs-P.json`). Pages go by order key: the earlier runs'
//! pages first, then this run's `seq` after them.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use crate::Result;
use crate::replica::{MinHashParams, Signature};

use super::earlier::load_earlier;
use super::layout::{
    EARLIER, PAGES, bands_file, earlier_bands_file, pairs_figures_file, pairs_file, shard_dir,
};
use super::page_table::PageSignature;
use super::plan::Plan;
use super::replica_tables::{BandRow, PairRow};
use super::rows::{read_rows, write_rows};
use super::tables::EarlierSignature;

/// Stage `pairs`: the candidate pairs of band part `part`, confirmed by their estimated
/// Jaccard. Pages go by order key: the earlier runs' pages first, then this run's `seq` after
/// them; a pair of two earlier pages is of no use (both stay kept).
pub(super) fn pairs_task(work: &Path, plan: &Plan, part: usize) -> Result<()> {
    let params = plan.options.minhash;
    let offset = load_earlier(work)?.pages;
    let mut keys: Vec<(u64, u64, u64)> = Vec::new();
    let band_files = std::iter::once((earlier_bands_file(work, part), 0))
        .chain((0..plan.shards).map(|shard| (bands_file(&shard_dir(work, shard), part), offset)));
    for (path, shift) in band_files {
        for row in read_rows::<BandRow>(&path)? {
            let row = row?;
            keys.push((row.band as u64, row.bucket, shift + row.seq));
        }
    }
    keys.sort_unstable();
    let candidates = candidates(&keys, offset);
    let mut wanted: Vec<u64> = candidates.iter().flat_map(|c| [c.0, c.1]).collect();
    wanted.sort_unstable();
    wanted.dedup();
    let mut signatures: HashMap<u64, Signature> = HashMap::new();
    if !wanted.is_empty() {
        let mut keep = |key: u64, sig: Option<Signature>| {
            if wanted.binary_search(&key).is_ok()
                && let Some(sig) = sig
            {
                signatures.insert(key, sig);
            }
        };
        for row in read_rows::<EarlierSignature>(&work.join(EARLIER))? {
            let row = row?;
            keep(row.key, row.minhash);
        }
        for shard in 0..plan.shards {
            for row in read_rows::<PageSignature>(&shard_dir(work, shard).join(PAGES))? {
                let row = row?;
                keep(offset + row.seq, row.minhash);
            }
        }
    }
    let mut distinct = candidates.iter().map(|c| (c.0, c.1)).collect::<Vec<_>>();
    distinct.sort_unstable();
    distinct.dedup();
    let pairs = confirm(candidates, &signatures, &params);
    crate::output::write_json_atomically(
        &pairs_figures_file(work, part),
        &serde_json::json!({
            "band_keys": keys.len(),
            "candidate_pairs": distinct.len(),
            "confirmed_pairs": pairs.len(),
        }),
    )?;
    let rows = pairs
        .into_iter()
        .map(|((key, of_key), similarity)| PairRow {
            key,
            of_key,
            similarity,
        })
        .collect();
    Ok(write_rows(&pairs_file(work, part), rows)?)
}

/// The candidate pairs (later, earlier, band) of the band keys `keys` (band, bucket, order
/// key), sorted: each page that shares a bucket with pages before it, with each of them, but
/// for a page of the earlier runs (order key below `offset`).
fn candidates(keys: &[(u64, u64, u64)], offset: u64) -> Vec<(u64, u64, u64)> {
    let mut candidates = Vec::new();
    for group in keys.chunk_by(|a, b| a.0 == b.0 && a.1 == b.1) {
        for (i, later) in group.iter().enumerate().filter(|(_, k)| k.2 >= offset) {
            for earlier in &group[..i] {
                candidates.push((later.2, earlier.2, later.0));
            }
        }
    }
    candidates
}

/// The candidate pairs whose band holds the same rows in both signatures and whose estimated
/// Jaccard reaches the threshold, each with that estimate (a pair once, by its first band).
fn confirm(
    candidates: Vec<(u64, u64, u64)>,
    signatures: &HashMap<u64, Signature>,
    params: &MinHashParams,
) -> BTreeMap<(u64, u64), f32> {
    let mut pairs: BTreeMap<(u64, u64), f32> = BTreeMap::new();
    for (later, earlier, band) in candidates {
        if pairs.contains_key(&(later, earlier)) {
            continue;
        }
        let (Some(a), Some(b)) = (signatures.get(&later), signatures.get(&earlier)) else {
            continue;
        };
        if !a.same_band(b, band as usize, params) {
            continue;
        }
        let j = a.jaccard(b);
        if j >= params.threshold {
            pairs.insert((later, earlier), j);
        }
    }
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stages::plan::Stage;
    use crate::stages::testing::{options, planned, run_through};

    #[test]
    fn pages_sharing_a_bucket_pair_with_each_page_before_them_but_earlier_with_earlier() {
        let mut keys = vec![
            (0, 7, 1),
            (0, 7, 3),
            (0, 7, 4),
            (0, 8, 5),
            (1, 7, 0),
            (1, 7, 4),
        ];
        keys.sort_unstable();
        assert_eq!(
            candidates(&keys, 0),
            [(3, 1, 0), (4, 1, 0), (4, 3, 0), (4, 0, 1)]
        );
        // Order keys 0 and 1 are the earlier runs': no pair of two of them.
        assert_eq!(
            candidates(&[(0, 7, 0), (0, 7, 1), (0, 7, 2)], 2),
            [(2, 0, 0), (2, 1, 0)]
        );
    }

    #[test]
    fn pairs_are_confirmed_by_their_band_and_their_similarity() {
        let params = MinHashParams {
            permutations: 4,
            bands: 2,
            threshold: 0.5,
            ..MinHashParams::default()
        };
        let sig = |s: [u16; 4]| Signature::from_slots(&s);
        let signatures: HashMap<u64, Signature> = [
            (1, sig([1, 2, 3, 4])),
            (2, sig([1, 2, 9, 9])),
            (3, sig([1, 2, 3, 9])),
            (4, sig([5, 6, 3, 4])),
        ]
        .into_iter()
        .collect();
        let pairs = confirm(
            vec![
                (2, 1, 0),
                (3, 1, 1),
                (3, 1, 0),
                (4, 1, 1),
                (4, 2, 0),
                (9, 1, 0),
            ],
            &signatures,
            &params,
        );
        // (2, 1): half the slots, at the threshold; (3, 1) by band 0 once band 1 differs;
        // (4, 1) half; (4, 2) does not share band 0; page 9 has no signature.
        let got: Vec<((u64, u64), f32)> = pairs.into_iter().collect();
        assert_eq!(got, [((2, 1), 0.5), ((3, 1), 0.75), ((4, 1), 0.5)]);
    }

    #[test]
    fn the_copy_of_a_page_is_a_confirmed_pair_across_shards() {
        let dir = tempfile::tempdir().unwrap();
        let (plan, work) = planned(options(dir.path()), 2, dir.path());
        run_through(&work, Stage::Pairs);
        let mut pairs = Vec::new();
        for part in 0..plan.shards {
            for row in read_rows::<PairRow>(&pairs_file(&work, part)).unwrap() {
                pairs.push(row.unwrap());
            }
            let figures: serde_json::Value =
                crate::output::read_json(&pairs_figures_file(&work, part), "figures").unwrap();
            assert!(figures["band_keys"].as_u64().unwrap() > 0, "{figures}");
        }
        // dawn-chorus-copy (unit 0, seq 0, shard 0) and dawn-chorus (unit 1, seq 1, shard 1).
        assert!(
            pairs
                .iter()
                .any(|p| (p.key, p.of_key) == (1, 0) && p.similarity == 1.0),
            "{pairs:?}"
        );
    }
}
