//! The relevant hyperlinks element (004 §6): the links inside the topic content, and, on a
//! topic page, the links of each hub-type leaf block outside it whose text is close enough to
//! the topic (cosine with the topic feature vector above β). Links to the page itself, scripts
//! and mail addresses are left out.
//!
//! Hrefs resolve against the page's **link base** ([`link_base`]), as a browser does: the
//! page's `<base href>`, resolved against its address; else its address. The address is the
//! record's URL, except for a local file (a `file://` URL) whose page declares its web address
//! (`<link rel=canonical>`, else `og:url`: [`declared_address`]): its links belong to that
//! address, not to the folder it was saved in.

use serde::{Deserialize, Serialize};
use url::Url;

use super::Context;
use super::address::declared_address;
use crate::measure::FeatureVector;
use crate::page::PageType;
use crate::topic::{LinkPlace, TopicPage};

/// A relevant hyperlink.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RelevantLink {
    /// The absolute URL.
    pub url: String,
    /// The anchor text.
    pub anchor_text: String,
    /// Why it is relevant: it sits in the topic content, or in a hub block close to the topic.
    pub source: LinkSource,
    /// For a hub block's link: the block's cosine with the topic.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub similarity: Option<f32>,
}

/// Where a relevant link was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LinkSource {
    /// Inside the topic content.
    TopicContent,
    /// In a hub block outside it whose cosine with the topic exceeds β.
    HubBlock,
}

/// Where a page's link base came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LinkBaseSource {
    /// The page's `<base href>`.
    BaseHref,
    /// The page's `<link rel=canonical>` or `og:url` (a local file's web address).
    Canonical,
    /// The record's URL.
    Url,
    /// Nothing usable: only absolute hrefs resolve.
    None,
}

/// The URL a page's relative hrefs resolve against, and the page's own addresses.
#[derive(Debug, Clone, PartialEq)]
pub struct LinkBase {
    /// The base URL, when there is one.
    pub url: Option<Url>,
    /// Where it came from.
    pub source: LinkBaseSource,
    /// The page's addresses (its URL, and its canonical address where that replaced a local
    /// file's), without fragment: links to them are self links.
    own: Vec<String>,
}

fn without_fragment(mut url: Url) -> String {
    url.set_fragment(None);
    url.to_string()
}

/// The link base of a page at `page_url` (see the module's rule).
pub fn link_base(page_url: &str, page: &TopicPage) -> LinkBase {
    let record = Url::parse(page_url).ok();
    let mut own: Vec<String> = record.iter().cloned().map(without_fragment).collect();
    let canonical = record
        .as_ref()
        .filter(|u| u.scheme() == "file")
        .and_then(|u| declared_address(u, page));
    let (address, source) = match (canonical, record) {
        (Some(c), _) => {
            own.push(without_fragment(c.clone()));
            (Some(c), LinkBaseSource::Canonical)
        }
        (None, Some(u)) => (Some(u), LinkBaseSource::Url),
        (None, None) => (None, LinkBaseSource::None),
    };
    let from_base = page.base_href.as_deref().and_then(|href| {
        match &address {
            Some(a) => a.join(href).ok(),
            None => Url::parse(href).ok(),
        }
        .filter(|u| matches!(u.scheme(), "http" | "https" | "file"))
    });
    let (url, source) = match from_base {
        Some(b) => (Some(b), LinkBaseSource::BaseHref),
        None => (address, source),
    };
    LinkBase { url, source, own }
}

/// The relevant links of a page whose topic feature vector is `topic`, resolved against
/// `base`.
pub fn relevant_links(
    base: &LinkBase,
    page: &TopicPage,
    topic: &FeatureVector,
    cx: Context<'_>,
) -> Vec<RelevantLink> {
    // Hub leaf blocks outside the topic content, judged once each (§6 algorithm).
    let mut accepted_hub: Vec<Option<f32>> = vec![None; page.hub_blocks.len()];
    if page.page_type == PageType::Topic && !topic.is_empty() {
        for (i, accepted) in accepted_hub.iter_mut().enumerate() {
            let block = page
                .hub_features(i, cx.analyzer)
                .scaled_by(|t| cx.stats.idf(t));
            let similarity = block.cosine(topic);
            if similarity > cx.params.beta {
                *accepted = Some(similarity);
            }
        }
    }
    let mut out: Vec<RelevantLink> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for link in &page.links {
        let (source, similarity) = match link.place {
            LinkPlace::Topic => (LinkSource::TopicContent, None),
            LinkPlace::Hub(i) => match accepted_hub.get(i as usize).copied().flatten() {
                Some(s) => (LinkSource::HubBlock, Some(s)),
                None => continue,
            },
        };
        let Some(url) = resolve(base, &link.href) else {
            continue;
        };
        if seen.insert(url.clone()) {
            out.push(RelevantLink {
                url,
                anchor_text: link.anchor_text.clone(),
                source,
                similarity,
            });
        }
    }
    out
}

/// The absolute URL of a link, without fragment; `None` for a link to the page itself, to a
/// script, a mail address or anything not http(s) (or file, for local pages).
fn resolve(base: &LinkBase, href: &str) -> Option<String> {
    let href = href.trim();
    if href.is_empty() || href.starts_with('#') {
        return None;
    }
    let url = match &base.url {
        Some(base) => base.join(href).ok()?,
        None => Url::parse(href).ok()?,
    };
    let local_ok = base.url.as_ref().is_some_and(|b| b.scheme() == "file");
    match url.scheme() {
        "http" | "https" => {}
        "file" if local_ok => {}
        _ => return None,
    }
    let url = without_fragment(url);
    (!base.own.contains(&url)).then_some(url)
}
