//! Site models for a site-aware cleaner (issue 13): before the first pass, ingest reads its
//! inputs once more and hands each web site's pages (by host, in input order) to the cleaner's
//! [`SiteLearner`](crate::clean::SiteLearner); both passes then clean each page with its
//! site's model. Only a site-aware cleaner (`--cleaner infodiscoverer`, `wisdom`) costs this
//! extra read and parse; the others get an empty [`SiteModels`].
//!
//! Memory is bounded: each host is learnt from its first [`SITE_SAMPLE_PAGES`] pages, and at
//! most [`SITE_SAMPLE_BUDGET`] pages are learnt from over the whole collection (hosts first
//! seen after that have no model; their pages are cleaned by the default cleaner and counted).
//! Pages without a host (local files) have no site either.

use std::collections::{BTreeMap, HashMap};

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::process::host_of;
use super::{Event, input_events, stream_batches};
use crate::Result;
use crate::clean::{Cleaner, SiteLearner, SiteModel};
use crate::extract::{PageLimits, parse_page};
use crate::input::{Inputs, RawPage};
use crate::page::TagTree;

/// Pages of one host a site model is learnt from (its first ones, in input order).
pub const SITE_SAMPLE_PAGES: u64 = 64;

/// Pages learnt from over the whole collection.
pub const SITE_SAMPLE_BUDGET: u64 = 20_000;

/// What the site models of an ingest cover, for the summary.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SiteModelFigures {
    /// The site-aware cleaner.
    pub cleaner: String,
    /// Hosts learnt from.
    pub hosts: u64,
    /// Hosts with a model (enough pages).
    pub hosts_with_model: u64,
    /// Pages parsed to learn the models.
    pub pages_sampled: u64,
    /// Pages of a host with a model. The cleaner cleans each with the model, but for
    /// infodiscoverer's pages like none of their site's page clusters, which its fallback
    /// cleans (`docview eval` counts those apart).
    pub pages_with_model: u64,
    /// Pages cleaned by the default cleaner: no host, too few pages on their host, or a host
    /// first seen after the budget was spent.
    pub pages_without_model: u64,
}

/// The site models of one ingest, by host.
#[derive(Debug, Default)]
pub struct SiteModels {
    models: HashMap<String, SiteModel>,
    /// What they cover.
    pub figures: Option<SiteModelFigures>,
}

impl SiteModels {
    /// The model of the site of the page at `url`, if it has one.
    pub fn model_of(&self, url: &str) -> Option<&SiteModel> {
        if self.models.is_empty() {
            return None;
        }
        host_of(url).and_then(|host| self.models.get(&host))
    }
}

/// One host's learner and what it has seen.
struct HostLearner {
    learner: Box<dyn SiteLearner>,
    sampled: u64,
    pages: u64,
}

/// Reads `inputs` and learns `cleaner`'s model of each web site (see the module
/// documentation). Empty for a cleaner that judges pages alone.
pub fn learn_site_models(
    inputs: Inputs,
    cleaner: &dyn Cleaner,
    limits: PageLimits,
    pool: &rayon::ThreadPool,
) -> Result<SiteModels> {
    if cleaner.site_learner().is_none() {
        return Ok(SiteModels::default());
    }
    let mut hosts: BTreeMap<String, HostLearner> = BTreeMap::new();
    let (mut pages_total, mut sampled_total) = (0u64, 0u64);
    stream_batches(
        move || input_events(inputs, 0),
        |p: &RawPage| p.bytes.len(),
        |batch| {
            let mut chosen: Vec<(&RawPage, String)> = Vec::new();
            for event in &batch.events {
                let Event::Page(page) = event else {
                    continue;
                };
                pages_total += 1;
                let Some(host) = host_of(&page.url) else {
                    continue;
                };
                let entry = match hosts.get_mut(&host) {
                    Some(entry) => entry,
                    None if sampled_total < SITE_SAMPLE_BUDGET => {
                        let Some(learner) = cleaner.site_learner() else {
                            continue;
                        };
                        hosts.entry(host.clone()).or_insert(HostLearner {
                            learner,
                            sampled: 0,
                            pages: 0,
                        })
                    }
                    None => continue,
                };
                entry.pages += 1;
                if entry.sampled < SITE_SAMPLE_PAGES && sampled_total < SITE_SAMPLE_BUDGET {
                    entry.sampled += 1;
                    sampled_total += 1;
                    chosen.push((page, host));
                }
            }
            let trees: Vec<Option<crate::page::TagTree>> = pool.install(|| {
                chosen
                    .par_iter()
                    .map(|(page, _)| {
                        parse_page(
                            &page.bytes,
                            page.http_charset.as_deref(),
                            &page.origin,
                            &limits,
                        )
                        .ok()
                        .map(|parsed| TagTree {
                            url: Some(page.url.clone()),
                            ..parsed.tree
                        })
                    })
                    .collect()
            });
            // In input order: the same pages give the same models.
            for ((_, host), tree) in chosen.iter().zip(trees) {
                if let (Some(entry), Some(tree)) = (hosts.get_mut(host), tree) {
                    entry.learner.add(&tree);
                }
            }
            Ok(())
        },
    )?;
    let mut figures = SiteModelFigures {
        cleaner: cleaner.name().to_string(),
        hosts: hosts.len() as u64,
        pages_sampled: sampled_total,
        ..SiteModelFigures::default()
    };
    let mut models = HashMap::new();
    for (host, entry) in hosts {
        if let Some(model) = entry.learner.finish() {
            figures.hosts_with_model += 1;
            figures.pages_with_model += entry.pages;
            models.insert(host, model);
        }
    }
    figures.pages_without_model = pages_total - figures.pages_with_model;
    Ok(SiteModels {
        models,
        figures: Some(figures),
    })
}
