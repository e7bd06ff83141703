//! Stage `earlier` (one task): the kept pages of the earlier runs (`--earlier`, an incremental
//! crawl: [`crate::earlier`]) as `earlier.parquet` ([`EarlierRow`]: order key, run, `seq`,
//! URL, fingerprints), their LSH band keys partitioned as the shards' are
//! (`earlier-bands-P.parquet`, order keys in place of `seq`), and `earlier.json`
//! ([`EarlierFigures`]), which `pairs` and `resolve` read. Without earlier runs the tables are
//! empty.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::Result;
use crate::earlier::EarlierRuns;
use crate::replica::{Detection, Fingerprints};

use super::layout::{EARLIER, EARLIER_RUNS, earlier_bands_file};
use super::plan::Plan;
use super::replica_tables::BandRow;
use super::rows::write_rows;
use super::tables::EarlierRow;

/// What `earlier.json` says.
#[derive(Debug, Default, Serialize, Deserialize)]
pub(super) struct EarlierFigures {
    /// The runs, as replica lines name them.
    pub(super) runs: Vec<String>,
    /// Their kept pages: the first order key of this run's pages.
    pub(super) pages: u64,
}

/// What `earlier.json` of work folder `work` says.
pub(super) fn load_earlier(work: &Path) -> Result<EarlierFigures> {
    Ok(crate::output::read_json(
        &work.join(EARLIER_RUNS),
        "the earlier runs",
    )?)
}

/// Stage `earlier`: the earlier runs' kept pages, and their band keys partitioned as the
/// shards' are (order keys in place of `seq`).
pub(super) fn earlier_task(work: &Path, plan: &Plan) -> Result<()> {
    let params = plan.options.minhash;
    let mut found: Vec<(u64, Fingerprints)> = Vec::new();
    let mut bands: Vec<BandRow> = Vec::new();
    let earlier = EarlierRuns::load(&plan.options, |key, f| {
        if plan.options.detection == Detection::MinHash
            && let Some(sig) = &f.minhash
        {
            for (band, bucket) in sig.band_keys(&params).into_iter().enumerate() {
                bands.push(BandRow {
                    band,
                    bucket,
                    seq: key,
                });
            }
        }
        found.push((key, f.clone()));
    })?;
    let rows = found
        .into_iter()
        .zip(earlier.pages())
        .map(|((key, f), page)| EarlierRow {
            key,
            run: page.run,
            seq: page.seq,
            url: page.url.to_string(),
            exact: f.exact,
            keyword: f.keyword,
            minhash: f.minhash,
        })
        .collect();
    write_rows(&work.join(EARLIER), rows)?;
    BandRow::write_parts(&bands, plan.shards, |part| earlier_bands_file(work, part))?;
    Ok(crate::output::write_json_atomically(
        &work.join(EARLIER_RUNS),
        &EarlierFigures {
            runs: earlier.runs().to_vec(),
            pages: earlier.len(),
        },
    )?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stages::plan::Stage;
    use crate::stages::rows::read_rows;
    use crate::stages::testing::{options, planned, run_through};

    #[test]
    fn without_earlier_runs_the_tables_are_empty_and_there_are_no_pages_before() {
        let dir = tempfile::tempdir().unwrap();
        let (_, work) = planned(options(dir.path()), 2, dir.path());
        run_through(&work, Stage::Earlier);
        let figures = load_earlier(&work).unwrap();
        assert_eq!((figures.runs.len(), figures.pages), (0, 0));
        assert_eq!(
            read_rows::<EarlierRow>(&work.join(EARLIER))
                .unwrap()
                .count(),
            0
        );
        for part in 0..2 {
            let bands = read_rows::<BandRow>(&earlier_bands_file(&work, part)).unwrap();
            assert_eq!(bands.count(), 0);
        }
    }

    #[test]
    fn an_earlier_run_gives_its_kept_pages_order_keys_and_band_keys() {
        let dir = tempfile::tempdir().unwrap();
        let first = tempfile::tempdir().unwrap();
        let (_, first_work) = planned(options(first.path()), 1, first.path());
        run_through(&first_work, Stage::Merge);
        let mut o = options(dir.path());
        o.earlier = vec![first.path().join("out")];
        let (plan, work) = planned(o, 2, dir.path());
        run_through(&work, Stage::Earlier);
        let figures = load_earlier(&work).unwrap();
        let rows: Vec<EarlierRow> = read_rows(&work.join(EARLIER))
            .unwrap()
            .collect::<docview_collection::Result<_>>()
            .unwrap();
        assert_eq!(figures.runs.len(), 1);
        assert_eq!(figures.pages, rows.len() as u64);
        assert_eq!(rows.len(), 9, "ten pages, one an exact copy");
        for (i, row) in rows.iter().enumerate() {
            assert_eq!((row.key, row.run), (i as u64, 0));
            assert!(row.exact.is_some(), "{row:?}");
        }
        let bands = plan.options.minhash.bands;
        let mut keys = 0;
        for part in 0..2 {
            for band in read_rows::<BandRow>(&earlier_bands_file(&work, part)).unwrap() {
                let band = band.unwrap();
                assert_eq!(band.band % 2, part);
                assert!(band.seq < figures.pages);
                keys += 1;
            }
        }
        let signed = rows.iter().filter(|r| r.minhash.is_some()).count();
        assert!(signed > 0);
        assert_eq!(keys, signed * bands);
    }
}
