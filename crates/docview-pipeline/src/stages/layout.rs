//! The work folder's layout: the name of every file a stage writes there and another reads, in
//! one place. The plan (`plan.json`), the completion markers (`done/STAGE-N`) and the locks
//! (`.docview.lock` of the folder, `.docview-pool.lock` of `stages pool`, `locks/STAGE-N.lock`
//! of each task) are the plan's ([`super::plan`]); the spill of cleaned pages is
//! [`crate::spill`]'s; the statistics are `stats.json` ([`crate::STATS_FILE`]), as in an
//! output folder. Who writes a folder decides which temporary files a task that runs again
//! removes: a shard's folder is its per-shard tasks' alone, the files at the top are the
//! one-task stages' but for the `pairs` parts' files.
//!
//! ```text
//! WORK/
//!   plan.json  done/STAGE-N  locks/STAGE-N.lock  .docview-pool.lock   the plan, markers, locks
//!   earlier.parquet  earlier.json  earlier-bands-P.parquet     stage earlier
//!   sites.json                                                 stage merge-sites
//!   stats.json  unit-seqs.json                                 stage merge-stats
//!   pairs-P.parquet  pairs-P.json                              stage pairs, band part P
//!   decisions.parquet                                          stage resolve
//!   shard-S/
//!     site-pages.jsonl  site-samples.parquet                   stage sites
//!     counts.json  stat-rows.jsonl  (the spill)                stage stats
//!     pages.parquet  bands-P.parquet  skipped-events.jsonl     stage pages
//!     out/  final-counts.json                                  stage finalise
//! ```

use std::path::{Path, PathBuf};

use super::guard::{LOCKS_DIR, POOL_LOCK_FILE};
use super::plan::{DONE_DIR, PLAN_FILE, PLAN_VERSION};
use crate::STATS_FILE;
use crate::owned::{FolderKind, Layout};

/// The layout of a work folder: its version (the plan's, [`PLAN_VERSION`]), written in the
/// folder's marker, and the entries the plan and the stages write at its top, which are all
/// `stages plan --overwrite` removes.
pub(super) const WORK_LAYOUT: Layout = Layout {
    kind: FolderKind::Work,
    version: PLAN_VERSION,
    owns: work_owns,
};

/// Whether `name` is an entry the plan or a stage writes at the top of a work folder.
fn work_owns(name: &str) -> bool {
    let numbered = |prefix: &str, suffix: &str| {
        name.strip_prefix(prefix)
            .and_then(|rest| rest.strip_suffix(suffix))
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    };
    [
        PLAN_FILE,
        DONE_DIR,
        LOCKS_DIR,
        POOL_LOCK_FILE,
        EARLIER,
        EARLIER_RUNS,
        SITES_FILE,
        STATS_FILE,
        UNIT_SEQS,
        DECISIONS,
    ]
    .contains(&name)
        || numbered("shard-", "")
        || numbered("earlier-bands-", ".parquet")
        || numbered("pairs-", ".parquet")
        || numbered("pairs-", ".json")
}

/// The kept pages of the earlier runs: their order keys (`key`, see [`crate::earlier`]), runs,
/// `seq`, URLs and fingerprints.
pub(super) const EARLIER: &str = "earlier.parquet";
/// The earlier runs' labels and page count.
pub(super) const EARLIER_RUNS: &str = "earlier.json";
/// The site models of the run.
pub(super) const SITES_FILE: &str = "sites.json";
/// Each unit's first `seq`.
pub(super) const UNIT_SEQS: &str = "unit-seqs.json";
/// The replica decisions.
pub(super) const DECISIONS: &str = "decisions.parquet";

/// A shard's pages as the site sampler sees them (key and URL), in order.
pub(super) const SITE_PAGES: &str = "site-pages.jsonl";
/// The raw pages a site sampler of the shard alone picks.
pub(super) const SITE_SAMPLES: &str = "site-samples.parquet";
/// A shard's units' event and page counts, and its pages' document frequencies.
pub(super) const SHARD_COUNTS: &str = "counts.json";
/// What the statistics learn of each readable page of a shard, in order.
pub(super) const STAT_ROWS: &str = "stat-rows.jsonl";
/// A shard's integrated and fingerprinted pages.
pub(super) const PAGES: &str = "pages.parquet";
/// A shard's skipped inputs, keyed by their place in the run.
pub(super) const SKIPPED_EVENTS: &str = "skipped-events.jsonl";
/// What a shard's finalise counted.
pub(super) const FINAL_COUNTS: &str = "final-counts.json";

/// The folder of shard `shard`'s files.
pub(super) fn shard_dir(work: &Path, shard: usize) -> PathBuf {
    work.join(format!("shard-{shard}"))
}

/// The output folder of shard `shard`'s finalise: its records, replica lines and indexes.
pub(super) fn shard_out(work: &Path, shard: usize) -> PathBuf {
    shard_dir(work, shard).join("out")
}

/// Band part `part` of the band keys of a shard, in its folder `dir`.
pub(super) fn bands_file(dir: &Path, part: usize) -> PathBuf {
    dir.join(format!("bands-{part}.parquet"))
}

/// Band part `part` of the earlier runs' band keys.
pub(super) fn earlier_bands_file(work: &Path, part: usize) -> PathBuf {
    work.join(format!("earlier-bands-{part}.parquet"))
}

/// The confirmed pairs of band part `part`.
pub(super) fn pairs_file(work: &Path, part: usize) -> PathBuf {
    work.join(format!("pairs-{part}.parquet"))
}

/// The figures of band part `part`'s pairs (band keys, candidate and confirmed pairs).
pub(super) fn pairs_figures_file(work: &Path, part: usize) -> PathBuf {
    work.join(format!("pairs-{part}.json"))
}

#[cfg(test)]
mod tests {
    use super::super::plan::{PLAN_FILE, Plan};
    use super::super::testing::{options, planned};

    #[test]
    fn a_plan_overwrites_only_what_the_stages_wrote() {
        let dir = tempfile::tempdir().unwrap();
        let (plan, work) = planned(options(dir.path()), 2, dir.path());
        let other = Plan::new(options(dir.path()), 3).unwrap();
        // --overwrite removes what the plan and the stages wrote, never a file of the user's.
        std::fs::write(work.join("notes.txt"), "mine").unwrap();
        let err = other.save(&work, true).unwrap_err().to_string();
        assert!(err.contains("did not write: notes.txt"), "{err}");
        assert_eq!(Plan::load(&work).unwrap().shards, 2, "nothing removed");
        std::fs::remove_file(work.join("notes.txt")).unwrap();
        other.save(&work, true).unwrap();
        assert_eq!(Plan::load(&work).unwrap().shards, 3);
        // A folder docview did not mark, even one with a plan.json, is never touched.
        let busy = dir.path().join("busy");
        std::fs::create_dir_all(&busy).unwrap();
        std::fs::write(busy.join("x"), "x").unwrap();
        std::fs::write(busy.join(PLAN_FILE), "{}").unwrap();
        for overwrite in [false, true] {
            let err = plan.save(&busy, overwrite).unwrap_err().to_string();
            assert!(err.contains("not a folder docview wrote"), "{err}");
        }
        assert!(busy.join("x").exists() && !busy.join(crate::lock::LOCK_FILE).exists());
    }

    #[test]
    fn the_work_layout_owns_the_stages_files_and_nothing_else() {
        for name in [
            "plan.json",
            "done",
            "locks",
            ".docview-pool.lock",
            "shard-0",
            "shard-12",
            "pairs-3.parquet",
            "pairs-3.json",
            "earlier-bands-0.parquet",
            "decisions.parquet",
            "stats.json",
        ] {
            assert!(super::work_owns(name), "{name}");
        }
        for name in [
            "shard-",
            "shard-x",
            "pairs-.json",
            "notes.txt",
            "src",
            "state.json",
        ] {
            assert!(!super::work_owns(name), "{name}");
        }
    }

    use super::*;

    #[test]
    fn the_files_of_a_shard_and_a_part_keep_their_names() {
        let work = Path::new("/w");
        assert_eq!(shard_dir(work, 2), Path::new("/w/shard-2"));
        assert_eq!(shard_out(work, 0), Path::new("/w/shard-0/out"));
        assert_eq!(
            bands_file(&shard_dir(work, 1), 3),
            Path::new("/w/shard-1/bands-3.parquet")
        );
        assert_eq!(
            earlier_bands_file(work, 0),
            Path::new("/w/earlier-bands-0.parquet")
        );
        assert_eq!(pairs_file(work, 4), Path::new("/w/pairs-4.parquet"));
        assert_eq!(pairs_figures_file(work, 4), Path::new("/w/pairs-4.json"));
    }

    #[test]
    fn no_two_files_share_a_name() {
        let mut names = vec![
            EARLIER,
            EARLIER_RUNS,
            SITES_FILE,
            UNIT_SEQS,
            DECISIONS,
            SITE_PAGES,
            SITE_SAMPLES,
            SHARD_COUNTS,
            STAT_ROWS,
            PAGES,
            SKIPPED_EVENTS,
            FINAL_COUNTS,
            crate::STATS_FILE,
            crate::stages::plan::PLAN_FILE,
        ];
        let all = names.len();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), all);
    }
}
