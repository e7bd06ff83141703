//! Stage `resolve` (one task): decides the replicas as one process does, first seen wins, the
//! earlier runs' kept pages first ([`EarlierFingerprints`]), then every shard's pages in global
//! order ([`PageFingerprints`]), each checked against its confirmed pairs ([`PairRow`]) and the
//! fingerprints seen before it ([`ReplicaDetector::check_pairs`]); writes each replica and the
//! kept page it repeats, named with its run when an earlier run kept it (`decisions.parquet`,
//! [`DecisionRow`]).

use std::collections::HashMap;
use std::path::Path;

use crate::Result;
use crate::earlier::{EarlierPage, EarlierRuns, KeptBy};
use crate::replica::{Fingerprint, Fingerprints, ReplicaDetector};

use super::earlier::load_earlier;
use super::layout::{DECISIONS, EARLIER, PAGES, pairs_file, shard_dir};
use super::page_table::PageFingerprints;
use super::plan::Plan;
use super::replica_tables::{DecisionRow, PairRow};
use super::rows::{read_rows, write_rows};
use super::tables::EarlierFingerprints;

/// The fingerprints the detector compares (not the signatures: `pairs` compared them).
fn fingerprints(exact: Option<Fingerprint>, keyword: Option<Fingerprint>) -> Fingerprints {
    Fingerprints {
        exact,
        keyword,
        minhash: None,
    }
}

/// Stage `resolve`: the replica decisions, first seen wins in global order, after the earlier
/// runs' kept pages (seen before all of this run's).
pub(super) fn resolve_task(work: &Path, plan: &Plan) -> Result<()> {
    let mut detector = ReplicaDetector::of_pairs(plan.options.detection, plan.options.minhash)?;
    let mut earlier_pages: Vec<EarlierPage> = Vec::new();
    for row in read_rows::<EarlierFingerprints>(&work.join(EARLIER))? {
        let row = row?;
        detector.remember(row.key, &fingerprints(row.exact, row.keyword));
        earlier_pages.push(EarlierPage {
            run: row.run,
            seq: row.seq,
            url: row.url.into_boxed_str(),
        });
    }
    let earlier = EarlierRuns::from_parts(load_earlier(work)?.runs, earlier_pages);
    let mut pages: Vec<PageFingerprints> = Vec::new();
    for shard in 0..plan.shards {
        for row in read_rows::<PageFingerprints>(&shard_dir(work, shard).join(PAGES))? {
            let row = row?;
            if row.unreadable.is_none() {
                pages.push(row);
            }
        }
    }
    pages.sort_by_key(|p| p.seq);
    let mut pairs: HashMap<u64, Vec<(u64, f32)>> = HashMap::new();
    for part in 0..plan.shards {
        for row in read_rows::<PairRow>(&pairs_file(work, part))? {
            let row = row?;
            pairs
                .entry(row.key)
                .or_default()
                .push((row.of_key, row.similarity));
        }
    }
    for list in pairs.values_mut() {
        list.sort_by_key(|a| a.0);
        list.dedup_by_key(|p| p.0);
    }
    let url_of: HashMap<u64, &str> = pages.iter().map(|p| (p.seq, p.url.as_str())).collect();
    let mut decisions: Vec<DecisionRow> = Vec::new();
    for page in &pages {
        let key = earlier.key(page.seq);
        let candidates = pairs.get(&key).map_or(&[][..], Vec::as_slice);
        let prints = fingerprints(page.exact, page.keyword);
        let Some(m) = detector.check_pairs(key, &prints, candidates) else {
            continue;
        };
        let (of, of_url, of_run) = match earlier.kept_by(m.of) {
            KeptBy::Earlier(run, p) => (p.seq, p.url.to_string(), Some(run.to_string())),
            KeptBy::This(of) => (
                of,
                url_of.get(&of).map(|u| u.to_string()).unwrap_or_default(),
                None,
            ),
        };
        decisions.push(DecisionRow {
            seq: page.seq,
            url: page.url.clone(),
            of,
            of_url,
            of_run,
            kind: m.kind,
            detector: m.matcher.as_str().to_string(),
            similarity: m.similarity,
        });
    }
    Ok(write_rows(&work.join(DECISIONS), decisions)?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::replica::ReplicaKind;
    use crate::stages::plan::Stage;
    use crate::stages::testing::{options, planned, run_through};

    #[test]
    fn the_later_of_two_copies_is_the_replica_of_the_first() {
        let dir = tempfile::tempdir().unwrap();
        let (_, work) = planned(options(dir.path()), 2, dir.path());
        run_through(&work, Stage::Resolve);
        let decisions: Vec<DecisionRow> = read_rows(&work.join(DECISIONS))
            .unwrap()
            .collect::<docview_collection::Result<_>>()
            .unwrap();
        assert_eq!(decisions.len(), 1, "{decisions:?}");
        let d = &decisions[0];
        assert_eq!((d.seq, d.of, d.kind), (1, 0, ReplicaKind::Exact));
        assert!(d.url.ends_with("/dawn-chorus") && d.of_url.ends_with("/dawn-chorus-copy"));
        assert_eq!(d.of_run, None);
    }
}
