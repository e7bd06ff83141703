//! Collection statistics (004 §3.2): what docview learns about a whole collection before it
//! integrates any page, in one serialisable value ([`CollectionStats`], saved as `stats.json`).
//!
//! - **Document frequencies** of the topic-content features, for the IDF that Formula 1 brings
//!   into the keyword weights of Formula 2.
//! - The **aggressive stop-word list**: features found in so many pages' topic content that they
//!   cannot tell pages apart (the paper builds it "by picking up the terms with high term
//!   frequency in a lot of documents").
//! - The **shared titles**: a `<title>` that every page of one site carries is the site's name,
//!   not a page title (§6, Title).
//! - The **site templates** ([`SiteTemplates`]): the text lines each web site repeats on its
//!   pages, which replica detection leaves out.
//!
//! A first pass over the collection feeds each page, in input order, to a [`StatsBuilder`];
//! [`StatsBuilder::finish`] makes the value.

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::output::{read_json, write_json_atomically};
pub mod template;

use crate::{Error, Result};
use template::{CopyKey, SiteTemplates, TemplateBuilder};

/// Version of the `stats.json` layout.
pub const STATS_VERSION: u32 = 3;

/// How common a feature must be to join the aggressive stop-word list, and on how many pages the
/// list may be judged at all.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct StopwordParams {
    /// Share of the pages whose topic content holds the feature.
    pub min_df_share: f32,
    /// Below this many pages the list stays empty: too few to tell a common word from a topic.
    pub min_pages: u64,
}

impl Default for StopwordParams {
    fn default() -> Self {
        StopwordParams {
            min_df_share: 0.3,
            min_pages: 50,
        }
    }
}

/// The statistics of one collection.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CollectionStats {
    /// Layout version ([`STATS_VERSION`]).
    pub version: u32,
    /// Pages counted.
    pub pages: u64,
    /// The parameters the stop-word list was chosen with.
    pub stopword_params: StopwordParams,
    /// Features on the aggressive stop-word list, sorted.
    pub aggressive_stopwords: Vec<String>,
    /// For each site (host, or folder for local files) whose pages all carry one title: that
    /// title.
    pub shared_titles: BTreeMap<String, String>,
    /// Number of pages whose topic content holds each feature, for features of two pages or
    /// more (a missing feature occurs in one page).
    pub document_frequency: BTreeMap<String, u64>,
    /// The templates of the web sites (hosts) with enough pages to show one.
    pub site_templates: SiteTemplates,
}

impl CollectionStats {
    /// Inverse document frequency of a feature: `ln(1 + N / df)`, Formula 1's `log(N/n)`
    /// smoothed so that no feature weighs zero. 1 when no pages were counted.
    pub fn idf(&self, term: &str) -> f32 {
        if self.pages == 0 {
            return 1.0;
        }
        let df = self
            .document_frequency
            .get(term)
            .copied()
            .unwrap_or(1)
            .max(1);
        (1.0 + self.pages as f64 / df as f64).ln() as f32
    }

    /// True when `title` is the one every page of `site` carries.
    pub fn is_shared_title(&self, site: &str, title: &str) -> bool {
        self.shared_titles.get(site).is_some_and(|t| t == title)
    }

    /// Reads statistics saved by [`CollectionStats::save`].
    pub fn load(path: &Path) -> Result<CollectionStats> {
        let stats: CollectionStats = read_json(path, "a docview stats file")?;
        if stats.version != STATS_VERSION {
            return Err(Error::bad_input(
                path.display().to_string(),
                format!(
                    "stats layout version {} (this docview reads {STATS_VERSION}); rebuild it",
                    stats.version
                ),
            ));
        }
        Ok(stats)
    }

    /// Writes the statistics as JSON, atomically.
    pub fn save(&self, path: &Path) -> Result<()> {
        write_json_atomically(path, self)
    }
}

/// What one site's pages have shown of their titles so far.
#[derive(Debug, Clone, PartialEq)]
struct SiteTitles {
    /// The first page's title.
    title: String,
    /// Pages seen.
    pages: u64,
    /// False once a page with another title was seen.
    all_same: bool,
}

/// Accumulates statistics page by page.
#[derive(Debug, Clone, Default)]
pub struct StatsBuilder {
    pages: u64,
    df: HashMap<String, u64>,
    sites: BTreeMap<String, SiteTitles>,
    templates: TemplateBuilder,
}

impl StatsBuilder {
    /// An empty builder (site templates learnt with the default [`TemplateParams`]).
    ///
    /// [`TemplateParams`]: crate::stats::template::TemplateParams
    pub fn new() -> Self {
        StatsBuilder::default()
    }

    /// Learns from one page of web site `host` (pages in input order): its visible text, lines
    /// as rendered, and its copy key.
    pub fn add_site_page(&mut self, host: &str, visible_text: &str, key: CopyKey) {
        self.templates.add_page(host, visible_text, key);
    }

    /// [`StatsBuilder::add_site_page`] with the page's distinct line keys computed already.
    pub fn add_site_page_lines(&mut self, host: &str, line_keys: Vec<u64>, key: CopyKey) {
        self.templates.add_page_lines(host, line_keys, key);
    }

    /// Adds document frequencies counted elsewhere (by the shards of a sharded run, each over
    /// its pages), without counting pages: those come with [`StatsBuilder::add_page`].
    pub fn add_document_frequencies(&mut self, df: impl IntoIterator<Item = (String, u64)>) {
        for (term, n) in df {
            *self.df.entry(term).or_insert(0) += n;
        }
    }

    /// Counts one page: its site, its `<title>` and the distinct features of its topic content.
    pub fn add_page(
        &mut self,
        site: Option<&str>,
        title: &str,
        features: impl IntoIterator<Item = String>,
    ) {
        self.pages += 1;
        for term in features {
            *self.df.entry(term).or_insert(0) += 1;
        }
        if let Some(site) = site {
            self.add_site(
                site,
                SiteTitles {
                    title: title.to_string(),
                    pages: 1,
                    all_same: true,
                },
            );
        }
    }

    fn add_site(&mut self, site: &str, seen: SiteTitles) {
        match self.sites.get_mut(site) {
            Some(s) => {
                s.all_same = s.all_same && seen.all_same && s.title == seen.title;
                s.pages += seen.pages;
            }
            None => {
                self.sites.insert(site.to_string(), seen);
            }
        }
    }

    /// Pages counted so far.
    pub fn pages(&self) -> u64 {
        self.pages
    }

    /// The statistics, with the stop-word list chosen by `params`.
    pub fn finish(self, params: StopwordParams) -> CollectionStats {
        let min_df = (params.min_df_share as f64 * self.pages as f64)
            .ceil()
            .max(2.0) as u64;
        let mut aggressive_stopwords: Vec<String> = if self.pages >= params.min_pages {
            self.df
                .iter()
                .filter(|(_, n)| **n >= min_df)
                .map(|(t, _)| t.clone())
                .collect()
        } else {
            Vec::new()
        };
        aggressive_stopwords.sort();
        // A title on copies of one page is that page's title, not the site's name: a web site
        // (host) needs two distinct pages among those its template was learnt from.
        let templates = &self.templates;
        let shared_titles = self
            .sites
            .into_iter()
            .filter(|(site, s)| {
                s.pages >= 2
                    && s.all_same
                    && !s.title.is_empty()
                    && templates.distinct_pages(site).is_none_or(|n| n >= 2)
            })
            .map(|(site, s)| (site, s.title))
            .collect();
        CollectionStats {
            version: STATS_VERSION,
            pages: self.pages,
            stopword_params: params,
            aggressive_stopwords,
            shared_titles,
            document_frequency: self.df.into_iter().filter(|(_, n)| *n >= 2).collect(),
            site_templates: self.templates.finish(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn terms(words: &[&str]) -> Vec<String> {
        words.iter().map(|w| w.to_string()).collect()
    }

    #[test]
    fn document_frequency_stopwords_and_shared_titles() {
        let mut a = StatsBuilder::new();
        for i in 0..60 {
            let mut words = vec!["common"];
            if i % 2 == 0 {
                words.push("even");
            }
            if i == 7 {
                words.push("rare");
            }
            let (site, title) = if i % 3 == 0 {
                ("a.example", "Site A".to_string())
            } else {
                ("b.example", format!("Story {i}"))
            };
            a.add_page(Some(site), &title, terms(&words));
            if i < 3 {
                let text = format!("Menu\n\nStory {i}");
                a.add_site_page("c.example", &text, CopyKey::default());
            }
        }
        let stats = a.finish(StopwordParams {
            min_df_share: 0.6,
            min_pages: 50,
        });
        assert_eq!(stats.pages, 60);
        assert_eq!(stats.aggressive_stopwords, ["common"]);
        assert_eq!(stats.document_frequency.get("even"), Some(&30));
        assert_eq!(
            stats.document_frequency.get("rare"),
            None,
            "df 1 not stored"
        );
        assert!(stats.idf("rare") > stats.idf("even"));
        assert!(stats.idf("even") > stats.idf("common"));
        assert!(stats.idf("common") > 0.0);
        assert!(stats.is_shared_title("a.example", "Site A"));
        assert!(!stats.shared_titles.contains_key("b.example"));
        assert!(stats.site_templates.is_template_line("c.example", "Menu"));
        assert!(
            !stats
                .site_templates
                .is_template_line("c.example", "Story 1")
        );
    }

    #[test]
    fn small_collections_get_no_stopword_list() {
        let mut b = StatsBuilder::new();
        for _ in 0..10 {
            b.add_page(None, "", terms(&["everywhere"]));
        }
        let stats = b.finish(StopwordParams::default());
        assert!(stats.aggressive_stopwords.is_empty());
        assert_eq!(stats.document_frequency.get("everywhere"), Some(&10));
    }

    #[test]
    fn save_and_load_round_trip_and_bad_files_name_the_path() {
        let dir = tempfile::tempdir().unwrap();
        let mut b = StatsBuilder::new();
        b.add_page(Some("s"), "T", terms(&["x", "y"]));
        b.add_page(Some("s"), "T", terms(&["x"]));
        for i in 0..3 {
            b.add_site_page("s", &format!("Menu\nPage {i}"), CopyKey::default());
        }
        let stats = b.finish(StopwordParams::default());
        let path = dir.path().join("stats.json");
        stats.save(&path).unwrap();
        assert_eq!(CollectionStats::load(&path).unwrap(), stats);
        std::fs::write(&path, "{not json").unwrap();
        let err = CollectionStats::load(&path).unwrap_err().to_string();
        assert!(err.contains("stats.json") && err.contains("not a docview stats file"));
        let err = CollectionStats::load(&dir.path().join("missing.json")).unwrap_err();
        assert!(err.to_string().contains("missing.json"));
    }
}
