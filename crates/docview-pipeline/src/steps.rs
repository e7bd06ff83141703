//! What a worker does with one page: [`clean_page`] decodes, parses and cleans it into its
//! [`TopicPage`], from which the first pass counts the collection statistics
//! ([`page_features`]) and the second integrates it into a DocView and fingerprints it (MD5
//! and MinHash signature of its replica text, the keyword fingerprint of its topic content):
//! [`integrate_page`]. Plain functions over owned data, so pages run in parallel in any order.

use rustc_hash::FxHashMap;

use serde::{Deserialize, Serialize};

use crate::clean::{Cleaner, SiteModel};
use crate::extract::{PageLimits, extract_page_in_site};
use crate::input::{InputIds, PageKind, RawPage};
use crate::integrate::{Context, DocView, IntegrateParams, integrate};
use crate::records::Skip;
use crate::replica::{Fingerprints, KeywordParams, MinHasher};
use crate::site::PageUrl;
use crate::stats::CollectionStats;
use crate::stats::template::CopyKey;
use crate::text::Analyzer;
use crate::topic::TopicPage;

/// What every worker shares.
pub struct Worker<'a> {
    /// The cleaner.
    pub cleaner: &'a dyn Cleaner,
    /// Its site models, for a site-aware cleaner (else empty).
    pub sites: &'a crate::sites::SiteModels,
    /// The analyzer, with the collection's aggressive stop words.
    pub analyzer: Analyzer,
    /// The collection statistics.
    pub stats: &'a CollectionStats,
    /// λ, δ, θ, β.
    pub integrate: IntegrateParams,
    /// Percentage and Interval.
    pub keyword: KeywordParams,
    /// The MinHash functions, when MinHash signatures find near-replicas.
    pub minhash: Option<&'a MinHasher>,
    /// What one page may cost.
    pub limits: PageLimits,
    /// Render each record's topic content as Markdown too (`topic_markdown`).
    pub markdown: bool,
    /// The classifier of the classification code, if any.
    pub classifier: Option<crate::integrate::ClassifierRef<'a>>,
}

/// A page ready for replica removal and the outputs.
#[derive(Debug, Clone)]
pub struct Processed {
    /// Its sequence number in the run.
    pub seq: u64,
    /// Where it came from (file, record offset, line).
    pub origin: String,
    /// Its WARC record's identity and its JSON line's other fields.
    pub ids: InputIds,
    /// Bytes of HTML.
    pub html_bytes: u64,
    /// The record.
    pub docview: DocView,
    /// Fingerprints of its topic content.
    pub fingerprints: Fingerprints,
    /// All visible text of the raw page, for the fulltext index.
    pub fulltext: String,
}

/// A page that could not be read as HTML.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Unreadable {
    /// Where it came from.
    pub origin: String,
    /// Why it could not be read (the reason counted in the summary).
    pub reason: Skip,
}

/// Decodes, parses and cleans one page into its topic page (with its site's model, for a
/// site-aware cleaner). A page read as plain text ([`PageKind::Text`]) is not cleaned: its text
/// is its topic content ([`TopicPage::of_text`]).
pub fn clean_page(
    raw: &RawPage,
    cleaner: &dyn Cleaner,
    site: Option<&SiteModel>,
    limits: &PageLimits,
    markdown: bool,
) -> Result<TopicPage, Unreadable> {
    if raw.kind == PageKind::Text {
        // The JSON line's text is UTF-8 (its reader cut it at a character's start).
        let text = String::from_utf8_lossy(&raw.bytes);
        return TopicPage::of_text(&text, markdown).ok_or_else(|| Unreadable {
            origin: raw.origin.clone(),
            reason: Skip::NotAPage(crate::extract::NotAPage::Empty),
        });
    }
    extract_page_in_site(
        &raw.bytes,
        raw.http_charset.as_deref(),
        &raw.origin,
        Some(&raw.url),
        cleaner,
        site,
        limits,
    )
    .map(|page| {
        if markdown {
            TopicPage::with_markdown(&page)
        } else {
            TopicPage::of(&page)
        }
    })
    .map_err(|e| Unreadable {
        origin: raw.origin.clone(),
        reason: match &e {
            crate::extract::Error::NotAPage { why, .. } => Skip::NotAPage(*why),
            _ => Skip::Unreadable,
        },
    })
}

/// What the first pass learns from one page, for [`StatsBuilder`].
///
/// [`StatsBuilder`]: crate::stats::StatsBuilder
#[derive(Debug, Clone)]
pub struct PageFeatures {
    /// Its site (host or folder), for the shared titles.
    pub site: Option<String>,
    /// Its `<title>`.
    pub title: String,
    /// The distinct features of its topic content, sorted.
    pub terms: Vec<String>,
    /// Its web site, visible text and copy key, for the site templates.
    pub host_text: Option<(String, String, CopyKey)>,
}

/// The address a page is known by in its record and in the statistics: the URL it was found
/// at, except a saved file's (`file:`) that declares its web address (`<link rel=canonical>`,
/// else `og:url`: [`declared_address`](crate::integrate::declared_address)), which is known by
/// that address, so that its record and its site do not depend on where it was saved (its path
/// stays in the record's `origin`). `None`: the URL as found.
pub fn declared_page_address(url: &PageUrl<'_>, page: &TopicPage) -> Option<String> {
    url.parsed()
        .filter(|u| u.scheme() == "file")
        .and_then(|file| crate::integrate::declared_address(file, page))
        .map(String::from)
}

/// First pass: what the statistics learn from a cleaned page found at `url` (known by its
/// [declared address](declared_page_address) where it has one).
pub fn page_features(url: &PageUrl<'_>, page: &TopicPage, analyzer: &Analyzer) -> PageFeatures {
    let declared = declared_page_address(url, page);
    let declared_url = declared.as_deref().map(PageUrl::parse);
    let url = declared_url.as_ref().unwrap_or(url);
    let mut counts = FxHashMap::default();
    analyzer.term_counts(&page.topic_text, page.language, &mut counts);
    let mut terms: Vec<String> = counts.into_keys().collect();
    terms.sort_unstable();
    PageFeatures {
        site: url.site().map(|s| s.name().to_string()),
        title: page.title.clone(),
        terms,
        host_text: url.web_host().map(|host| {
            let text = page.visible_text.clone();
            let key = CopyKey::of(&text, &page.topic_text);
            (host.to_string(), text, key)
        }),
    }
}

/// Second pass: cleans, integrates and fingerprints one page.
pub fn process_page(raw: RawPage, seq: u64, w: &Worker<'_>) -> Result<Processed, Unreadable> {
    let url = PageUrl::parse(&raw.url);
    let page = clean_page(
        &raw,
        w.cleaner,
        w.sites.model_of(&url),
        &w.limits,
        w.markdown,
    )?;
    let ids = InputIds::of(&raw);
    Ok(integrate_page(
        seq,
        raw.origin,
        ids,
        &url,
        raw.bytes.len() as u64,
        page,
        w,
    ))
}

/// Second pass: integrates and fingerprints one cleaned page (found at `url`, known by its
/// [declared address](declared_page_address) where it has one; `html_bytes` of HTML, the
/// `seq`-th page of the run).
pub fn integrate_page(
    seq: u64,
    origin: String,
    ids: InputIds,
    url: &PageUrl<'_>,
    html_bytes: u64,
    page: TopicPage,
    w: &Worker<'_>,
) -> Processed {
    let declared = declared_page_address(url, &page);
    let declared_url = declared.as_deref().map(PageUrl::parse);
    let url = declared_url.as_ref().unwrap_or(url);
    let cx = Context {
        analyzer: &w.analyzer,
        stats: w.stats,
        params: w.integrate,
        classifier: w.classifier,
    };
    let integrated = integrate(url, &page, cx);
    let fulltext = page.visible_text;
    let fingerprints = {
        let replica_text = w.stats.site_templates.replica_text(
            url.web_host(),
            &fulltext,
            &integrated.docview.topic_content,
        );
        Fingerprints::of(&replica_text, &integrated.term_counts, w.keyword, w.minhash)
    };
    Processed {
        seq,
        origin,
        ids,
        html_bytes,
        docview: integrated.docview,
        fingerprints,
        fulltext,
    }
}

/// The cleaner of a run and, for a site-aware cleaner, its site models.
#[derive(Clone, Copy)]
pub struct Cleaning<'a> {
    /// The cleaner.
    pub cleaner: &'a dyn Cleaner,
    /// Its site models (empty for a cleaner that judges pages alone).
    pub sites: &'a crate::sites::SiteModels,
    /// The classifier of the classification code, for the second pass (the first does not
    /// integrate).
    pub classifier: Option<crate::integrate::ClassifierRef<'a>>,
    /// Render each page's topic content as Markdown too (`ingest --markdown`), in the pass
    /// that cleans it.
    pub markdown: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_counts_under_its_site_and_a_web_site_learns_its_template() {
        let html = b"<html><head><title>Flood</title></head><body><p>The river rose over \
                     the bank in the night and the town woke to water.</p></body></html>";
        let cleaner = crate::clean::Framework::default();
        let page = |url: &str| {
            TopicPage::of(&crate::extract::extract_page(html, None, url, &cleaner).unwrap())
        };
        let analyzer = Analyzer::new();
        let web = PageUrl::parse("http://News.Example:8080/a/b.html");
        let f = page_features(&web, &page(web.as_str()), &analyzer);
        assert_eq!(f.site.as_deref(), Some("news.example"));
        assert_eq!(f.title, "Flood");
        assert!(f.terms.windows(2).all(|w| w[0] < w[1]), "{:?}", f.terms);
        let (host, text, _) = f.host_text.expect("a web site learns templates");
        assert_eq!(host, "news.example");
        assert!(text.contains("The river rose"), "{text}");
        // A saved file counts under its folder for titles, and learns no template.
        let file = PageUrl::parse("file:///data/crawl/site-a/page.html");
        let f = page_features(&file, &page(file.as_str()), &analyzer);
        assert_eq!(f.site.as_deref(), Some("/data/crawl/site-a"));
        assert!(f.host_text.is_none());
    }
}
