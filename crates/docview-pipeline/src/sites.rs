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

use std::collections::BTreeMap;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use crate::Result;
use crate::batches::{input_events, stream_batches};
use crate::clean::{Cleaner, SiteLearner, SiteModel};
use crate::event::Event;
use crate::extract::{PageLimits, parse_page};
use crate::input::{Inputs, PageKind, RawPage};
use crate::site::PageUrl;
use docview_page::TagTree;

/// Pages of one host a site model is learnt from (its first ones, in input order).
pub const SITE_SAMPLE_PAGES: u64 = 64;

/// Pages learnt from over the whole collection.
pub const SITE_SAMPLE_BUDGET: u64 = 20_000;

/// What the site models of an ingest cover, for the summary.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SiteModelFigures {
    /// The site-aware cleaner.
    pub cleaner: crate::clean::CleanerKind,
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
#[derive(Debug, Default, Serialize, Deserialize)]
pub struct SiteModels {
    models: BTreeMap<String, SiteModel>,
    /// What they cover.
    pub figures: Option<SiteModelFigures>,
}

impl SiteModels {
    /// The model of the site of the page at `url`, if it has one.
    pub fn model_of(&self, url: &PageUrl<'_>) -> Option<&SiteModel> {
        url.web_host().and_then(|host| self.models.get(host))
    }
}

/// Which pages the site models are learnt from: offered every page in input order, it picks
/// each host's first [`SITE_SAMPLE_PAGES`] pages while fewer than [`SITE_SAMPLE_BUDGET`] were
/// picked in all (a host first seen after that has no model). One process and the sharded
/// stages pick with it alike.
#[derive(Debug, Default)]
pub struct SiteSampler {
    hosts: BTreeMap<String, HostCount>,
    pages_total: u64,
    sampled_total: u64,
}

/// What the sampler has seen of one host.
#[derive(Debug, Default)]
struct HostCount {
    sampled: u64,
    pages: u64,
}

impl SiteSampler {
    /// Offers the next page, found at `url`: its host when the page is to be learnt from.
    pub fn offer(&mut self, url: &str) -> Option<String> {
        self.pages_total += 1;
        let host = PageUrl::parse(url).web_host()?.to_string();
        let budget_left = self.sampled_total < SITE_SAMPLE_BUDGET;
        let entry = match self.hosts.get_mut(&host) {
            Some(entry) => entry,
            None if budget_left => self.hosts.entry(host.clone()).or_default(),
            None => return None,
        };
        entry.pages += 1;
        if entry.sampled < SITE_SAMPLE_PAGES && budget_left {
            entry.sampled += 1;
            self.sampled_total += 1;
            Some(host)
        } else {
            None
        }
    }

    /// The site models of `learners` (each host's fed its picked pages in input order), with
    /// what they cover.
    pub fn finish(self, learners: SiteLearners<'_>) -> SiteModels {
        let mut figures = SiteModelFigures {
            cleaner: learners.cleaner.kind(),
            hosts: self.hosts.len() as u64,
            pages_sampled: self.sampled_total,
            ..SiteModelFigures::default()
        };
        let mut models = BTreeMap::new();
        for (host, learner) in learners.learners {
            if let Some(model) = learner.finish() {
                figures.hosts_with_model += 1;
                figures.pages_with_model += self.hosts.get(&host).map_or(0, |h| h.pages);
                models.insert(host, model);
            }
        }
        figures.pages_without_model = self.pages_total - figures.pages_with_model;
        SiteModels {
            models,
            figures: Some(figures),
        }
    }
}

/// The site learners of a run, one per host, each created when its host's first page is picked.
pub struct SiteLearners<'a> {
    cleaner: &'a dyn Cleaner,
    learners: BTreeMap<String, Box<dyn SiteLearner>>,
}

impl<'a> SiteLearners<'a> {
    /// No learner yet; `cleaner` makes them.
    pub fn new(cleaner: &'a dyn Cleaner) -> Self {
        SiteLearners {
            cleaner,
            learners: BTreeMap::new(),
        }
    }

    /// Learns a picked page of `host` (its tag tree; `None` when it could not be parsed, which
    /// still gives the host its learner).
    pub fn add(&mut self, host: String, tree: Option<&TagTree>) {
        let learner = match self.learners.entry(host) {
            std::collections::btree_map::Entry::Occupied(e) => e.into_mut(),
            std::collections::btree_map::Entry::Vacant(e) => match self.cleaner.site_learner() {
                Some(learner) => e.insert(learner),
                None => return,
            },
        };
        if let Some(tree) = tree {
            learner.add(tree);
        }
    }
}

/// The tag tree a site learner reads of a picked page (`None` when it cannot be parsed).
pub fn sample_tree(page: &RawPage, limits: &PageLimits) -> Option<TagTree> {
    parse_page(
        &page.bytes,
        page.http_charset.as_deref(),
        &page.origin,
        limits,
    )
    .ok()
    .map(|parsed| TagTree {
        url: Some(page.url.clone()),
        ..parsed.tree
    })
}

/// Reads `inputs` once and learns the site model of each host with `cleaner`'s
/// [`SiteLearner`], from the pages a `SiteSampler` picks; parsing them in parallel on `pool`.
/// Empty for a cleaner that is not site-aware.
pub fn learn_site_models(
    inputs: Inputs,
    cleaner: &dyn Cleaner,
    limits: PageLimits,
    pool: &rayon::ThreadPool,
) -> Result<SiteModels> {
    if cleaner.site_learner().is_none() {
        return Ok(SiteModels::default());
    }
    let mut sampler = SiteSampler::default();
    let mut learners = SiteLearners::new(cleaner);
    stream_batches(
        move || input_events(inputs, 0),
        |p: &RawPage| p.bytes.len(),
        |batch| {
            let mut chosen: Vec<(&RawPage, String)> = Vec::new();
            for event in &batch.events {
                // A page read as text has no template to learn.
                if let Event::Page(page) = event
                    && page.kind == PageKind::Html
                    && let Some(host) = sampler.offer(&page.url)
                {
                    chosen.push((page, host));
                }
            }
            let trees: Vec<Option<TagTree>> = pool.install(|| {
                chosen
                    .par_iter()
                    .map(|(page, _)| sample_tree(page, &limits))
                    .collect()
            });
            for ((_, host), tree) in chosen.into_iter().zip(trees) {
                learners.add(host, tree.as_ref());
            }
            Ok(())
        },
    )?;
    Ok(sampler.finish(learners))
}
