//! Stages `sites` (one task a shard) and `merge-sites` (one task), a site-aware cleaner's only
//! (`infodiscoverer`, `wisdom` without `--pages-alone`; the others do nothing): each shard
//! offers its pages to a site sampler of its own and keeps every URL ([`SitePage`],
//! `site-pages.jsonl`) and the raw pages its sampler picks (`site-samples.parquet`,
//! [`SiteSampleRow`]); the merge replays the sampler over every shard's URLs in global order and
//! learns each site's model from the pages it picks, in that order (`sites.json`, read back by
//! [`load_sites`]).

use std::collections::HashMap;
use std::path::Path;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::input::{InputEvent, PageKind, RawPage};
use crate::sites::{SiteLearners, SiteModels, SiteSampler, sample_tree};
use crate::{Error, Result};

use super::layout::{SITE_PAGES, SITE_SAMPLES, SITES_FILE, shard_dir};
use super::plan::{BATCH, Plan};
use super::rows::{read_rows, write_rows};
use super::streams::{Stream, json_lines, merge_sorted, write_json_lines};
use super::tables::SiteSampleRow;

/// A page offered to the site models.
#[derive(Debug, Serialize, Deserialize)]
pub(super) struct SitePage {
    /// Its unit's number and its number in the unit.
    key: (usize, u64),
    url: String,
}

/// The site models of the run (none when its cleaner does not learn any).
pub(super) fn load_sites(work: &Path) -> Result<SiteModels> {
    let path = work.join(SITES_FILE);
    if path.exists() {
        Ok(crate::output::read_json(
            &path,
            "the site models of a sharded run",
        )?)
    } else {
        Ok(SiteModels::default())
    }
}

/// Stage `sites`: every page of the shard as the site sampler sees it, and the raw pages a
/// sampler of this shard alone picks: a superset of those the whole run picks (a page among a
/// host's first pages in the run is among them in its shard, and the shard has picked fewer
/// pages than the run before it).
pub(super) fn sites_task(work: &Path, plan: &Plan, shard: usize) -> Result<()> {
    if !plan.cleaner()?.1 {
        return Ok(());
    }
    let dir = shard_dir(work, shard);
    std::fs::create_dir_all(&dir).map_err(|e| Error::io(&dir, e))?;
    let mut sampler = SiteSampler::default();
    let mut offered: Vec<SitePage> = Vec::new();
    let mut picked: Vec<SiteSampleRow> = Vec::new();
    for (unit_no, unit) in plan.shard_units(shard) {
        for (record, event) in plan
            .options
            .unit_inputs(std::slice::from_ref(unit))
            .enumerate()
        {
            // A page read as text has no template to learn (as in `ingest`'s sampling).
            let InputEvent::Page(page) = event else {
                continue;
            };
            if page.kind != PageKind::Html {
                continue;
            }
            let key = (unit_no, record as u64);
            let url = page.url.clone();
            if sampler.offer(&url).is_some() {
                picked.push(SiteSampleRow::of(key, page));
            }
            offered.push(SitePage { key, url });
        }
    }
    write_json_lines(&dir.join(SITE_PAGES), &offered)?;
    Ok(write_rows(&dir.join(SITE_SAMPLES), picked)?)
}

/// Stage `merge-sites`: the site models, from the pages a sampler picks over every shard's
/// pages in global order, each host's picked pages learnt in that order.
pub(super) fn merge_sites_task(work: &Path, plan: &Plan) -> Result<()> {
    let (cleaner, site_aware) = plan.cleaner()?;
    if !site_aware {
        return Ok(());
    }
    let mut streams: Vec<Stream<SitePage>> = Vec::new();
    for shard in 0..plan.shards {
        let path = shard_dir(work, shard).join(SITE_PAGES);
        streams.push(Box::new(json_lines::<SitePage>(&path)?));
    }
    let mut sampler = SiteSampler::default();
    let mut chosen: Vec<((usize, u64), String)> = Vec::new();
    merge_sorted(
        streams,
        |p: &SitePage| p.key,
        |page| {
            if let Some(host) = sampler.offer(&page.url) {
                chosen.push((page.key, host));
            }
            Ok(())
        },
    )?;
    let mut raw: HashMap<(usize, u64), RawPage> = HashMap::new();
    for shard in 0..plan.shards {
        let path = shard_dir(work, shard).join(SITE_SAMPLES);
        for row in read_rows::<SiteSampleRow>(&path)? {
            let (key, page) = row?.into_page();
            raw.insert(key, page);
        }
    }
    let pool = plan.pool()?;
    let limits = plan.options.limits;
    let mut learners = SiteLearners::new(cleaner.as_ref());
    for batch in chosen.chunks(BATCH) {
        let trees: Vec<Option<docview_page::TagTree>> = pool.install(|| {
            batch
                .par_iter()
                .map(|(key, _)| raw.get(key).and_then(|page| sample_tree(page, &limits)))
                .collect()
        });
        for ((key, host), tree) in batch.iter().zip(trees) {
            if !raw.contains_key(key) {
                return Err(Error::PickedPageMissing {
                    work: work.to_path_buf(),
                    unit: key.0,
                    record: key.1,
                });
            }
            learners.add(host.clone(), tree.as_ref());
        }
    }
    let models = sampler.finish(learners);
    Ok(crate::output::write_json_atomically(
        &work.join(SITES_FILE),
        &models,
    )?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::clean::CleanerKind;
    use crate::stages::plan::Stage;
    use crate::stages::testing::{options, planned, run_through};

    #[test]
    fn a_cleaner_without_site_models_writes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let (_, work) = planned(options(dir.path()), 2, dir.path());
        run_through(&work, Stage::MergeSites);
        assert!(!shard_dir(&work, 0).join(SITE_PAGES).exists());
        assert!(!work.join(SITES_FILE).exists());
        assert!(load_sites(&work).unwrap().figures.is_none());
    }

    #[test]
    fn shards_offer_every_page_and_the_merge_learns_the_site() {
        let dir = tempfile::tempdir().unwrap();
        let mut o = options(dir.path());
        o.cleaner = CleanerKind::InfoDiscoverer;
        let (plan, work) = planned(o, 2, dir.path());
        run_through(&work, Stage::MergeSites);
        let mut offered = 0;
        for shard in 0..2 {
            let dir = shard_dir(&work, shard);
            let pages: Vec<SitePage> = json_lines(&dir.join(SITE_PAGES))
                .unwrap()
                .collect::<Result<_>>()
                .unwrap();
            assert!(pages.windows(2).all(|w| w[0].key < w[1].key));
            assert!(pages.iter().all(|p| p.key.0 % 2 == shard));
            let picked = read_rows::<SiteSampleRow>(&dir.join(SITE_SAMPLES)).unwrap();
            assert!(picked.count() > 0);
            offered += pages.len();
        }
        assert_eq!(offered, plan.units.len());
        let figures = load_sites(&work).unwrap().figures.expect("figures");
        assert_eq!(figures.hosts, 1, "{figures:?}");
        assert!(figures.pages_sampled > 0, "{figures:?}");
    }
}
