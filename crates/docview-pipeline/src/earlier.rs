//! Earlier runs of an incremental crawl (`--earlier DIR`): the kept pages of finished
//! `docview ingest` or `docview stages` output folders, which a new run's pages are checked
//! against before its own. The earlier pages were seen first, so they win: a new page that
//! repeats one is a replica of it, named with its run in `replicas.jsonl`, and is neither kept
//! nor indexed again.
//!
//! Owns the earlier pages' **order keys**: the replica detector numbers the earlier pages
//! `0, 1, …` (run after run, in each run's `seq` order) and the new run's page `seq` as
//! `earlier + seq`, so that "first seen wins" (an exact fingerprint remembered first, a MinHash
//! tie to the lower number) puts every earlier page before every new one. What is read of an
//! earlier run is its `state.json` (finished, with fingerprints that compare to this run's) and,
//! from `docviews.jsonl`, each kept page's URL, `seq` and fingerprints.

use std::collections::HashSet;
use std::path::Path;

use serde::Deserialize;

use crate::records::{DOCVIEWS, for_each_line};
use crate::replica::Fingerprints;
use crate::settings::IngestOptions;
use crate::state::{RunState, STATE_FILE, Status};
use crate::{EarlierRefusal, Error, Result};

/// A kept page of an earlier run, as a replica line names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EarlierPage {
    /// The run's number in `--earlier` order.
    pub run: usize,
    /// Its `seq` in that run.
    pub seq: u64,
    /// Its URL.
    pub url: Box<str>,
}

/// The kept pages of the earlier runs, by order key (see the module doc).
#[derive(Debug, Clone, Default)]
pub struct EarlierRuns {
    runs: Vec<String>,
    pages: Vec<EarlierPage>,
}

/// Who kept the page of an order key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeptBy<'a> {
    /// An earlier run (its label, and its page).
    Earlier(&'a str, &'a EarlierPage),
    /// This run: the page's `seq`.
    This(u64),
}

/// What is read of a kept record.
#[derive(Deserialize)]
struct Kept {
    identifier: String,
    seq: u64,
    fingerprints: Fingerprints,
}

impl EarlierRuns {
    /// Checks the earlier runs `options.earlier` without reading their pages: each is a
    /// finished docview output folder, none is named twice or is the run's own `--out`, and
    /// each took its fingerprints as `options` takes them (the same replica detection; the
    /// same MinHash shingles, permutations and seed, or keyword percentage and interval).
    pub fn check(options: &IngestOptions) -> Result<()> {
        let mut seen = HashSet::new();
        let out = std::fs::canonicalize(&options.out).ok();
        for dir in &options.earlier {
            let refuse = |why| {
                Err(Error::Earlier {
                    dir: dir.clone(),
                    why,
                })
            };
            let canonical = std::fs::canonicalize(dir).map_err(|e| Error::io(dir, e))?;
            if !seen.insert(canonical.clone()) {
                return refuse(EarlierRefusal::NamedTwice);
            }
            if out.as_ref() == Some(&canonical) {
                return refuse(EarlierRefusal::IsOut);
            }
            let state_path = dir.join(STATE_FILE);
            if !state_path.exists() {
                return refuse(EarlierRefusal::NotAnOutput);
            }
            let state = RunState::load(&state_path)?;
            if state.status != Status::Complete {
                return refuse(EarlierRefusal::Unfinished);
            }
            let differs = state.settings.fingerprint_differences(options);
            if !differs.is_empty() {
                return refuse(EarlierRefusal::FingerprintsDiffer(differs));
            }
        }
        Ok(())
    }

    /// Reads the kept pages of `options.earlier` (checked as [`EarlierRuns::check`] checks
    /// them), handing each page's order key and fingerprints to `each`, in order.
    pub fn load(
        options: &IngestOptions,
        mut each: impl FnMut(u64, &Fingerprints),
    ) -> Result<EarlierRuns> {
        Self::check(options)?;
        let mut runs = Vec::new();
        let mut pages = Vec::new();
        for (run, dir) in options.earlier.iter().enumerate() {
            runs.push(run_label(dir));
            // A finished run's records are in `seq` order (one process's and the stages' alike).
            for_each_line(&dir.join(DOCVIEWS), |k: Kept| {
                each(pages.len() as u64, &k.fingerprints);
                pages.push(EarlierPage {
                    run,
                    seq: k.seq,
                    url: k.identifier.into_boxed_str(),
                });
            })?;
        }
        Ok(EarlierRuns { runs, pages })
    }

    /// The earlier runs `runs` (their labels) and their `pages` in order-key order, as the
    /// sharded stages read them back from their own file.
    pub fn from_parts(runs: Vec<String>, pages: Vec<EarlierPage>) -> EarlierRuns {
        EarlierRuns { runs, pages }
    }

    /// The order key of this run's page `seq`: after every earlier page.
    pub fn key(&self, seq: u64) -> u64 {
        self.len() + seq
    }

    /// Who kept the page of order key `key`.
    pub fn kept_by(&self, key: u64) -> KeptBy<'_> {
        match usize::try_from(key).ok().and_then(|k| self.pages.get(k)) {
            Some(page) => KeptBy::Earlier(self.run_label(page.run), page),
            None => KeptBy::This(key - self.len()),
        }
    }

    /// The earlier runs as replica lines name them (the `--earlier` paths as given).
    pub fn runs(&self) -> &[String] {
        &self.runs
    }

    /// Earlier pages: the first order key of the new run's pages.
    pub fn len(&self) -> u64 {
        self.pages.len() as u64
    }

    /// The earlier pages, in order-key order.
    pub fn pages(&self) -> &[EarlierPage] {
        &self.pages
    }

    /// The label of run `run`.
    pub fn run_label(&self, run: usize) -> &str {
        self.runs.get(run).map_or("", String::as_str)
    }
}

/// How replica lines name an earlier run: its `--earlier` path as given.
pub fn run_label(dir: &Path) -> String {
    dir.display().to_string()
}
