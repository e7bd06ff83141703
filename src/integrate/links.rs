//! The relevant hyperlinks element (004 §6): the links inside the topic content, and, on a
//! topic page, the links of each hub-type leaf block outside it whose text is close enough to
//! the topic (cosine with the topic feature vector above β). Hrefs are resolved against the
//! page URL; links to the page itself, scripts and mail addresses are left out.

use serde::{Deserialize, Serialize};
use url::Url;

use super::Context;
use crate::clean::Verdict;
use crate::extract::Extraction;
use crate::measure::{FeatureVector, feature_vector};
use crate::page::{Link, NodeId, PageType};
use crate::text::Language;

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

/// The relevant links of a page at `page_url` whose topic feature vector is `topic`.
pub fn relevant_links(
    page_url: &str,
    page: &Extraction,
    topic: &FeatureVector,
    lang: Language,
    cx: Context<'_>,
) -> Vec<RelevantLink> {
    let tree = &page.tree;
    let decisions = &page.cleaned.decisions;
    let base = Url::parse(page_url).ok();
    let in_topic = |node: NodeId| {
        decisions
            .get(node as usize)
            .is_some_and(|d| d.verdict == Verdict::Kept)
    };
    // Hub leaf blocks outside the topic content, judged once each (§6 algorithm).
    let mut accepted_hub: Vec<(NodeId, f32)> = Vec::new();
    if page.cleaned.page_type == PageType::Topic && !topic.is_empty() {
        for (i, node) in tree.nodes.iter().enumerate() {
            let id = i as NodeId;
            if !node.is_leaf()
                || node.hidden
                || node.block_type != PageType::Hub
                || node.own.links == 0
                || in_topic(id)
            {
                continue;
            }
            let block = feature_vector(tree, [id], &page.cleaned.weights, cx.analyzer, lang)
                .scaled_by(|t| cx.stats.idf(t));
            let similarity = block.cosine(topic);
            if similarity > cx.params.beta {
                accepted_hub.push((id, similarity));
            }
        }
    }
    let mut out: Vec<RelevantLink> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for link in &tree.links {
        let (source, similarity) = if in_topic(link.node) {
            (LinkSource::TopicContent, None)
        } else if let Some(&(_, s)) = accepted_hub.iter().find(|(id, _)| *id == link.node) {
            (LinkSource::HubBlock, Some(s))
        } else {
            continue;
        };
        let Some(url) = resolve(base.as_ref(), page_url, link) else {
            continue;
        };
        if seen.insert(url.clone()) {
            out.push(RelevantLink {
                url,
                anchor_text: tree.slice(link.start, link.end).trim().to_string(),
                source,
                similarity,
            });
        }
    }
    out
}

/// The absolute URL of a link, without fragment; `None` for a link to the page itself, to a
/// script, a mail address or anything not http(s) (or file, for local pages).
fn resolve(base: Option<&Url>, page_url: &str, link: &Link) -> Option<String> {
    let href = link.href.trim();
    if href.is_empty() || href.starts_with('#') {
        return None;
    }
    let mut url = match base {
        Some(base) => base.join(href).ok()?,
        None => Url::parse(href).ok()?,
    };
    let local_ok = base.is_some_and(|b| b.scheme() == "file");
    match url.scheme() {
        "http" | "https" => {}
        "file" if local_ok => {}
        _ => return None,
    }
    url.set_fragment(None);
    let url = url.to_string();
    let page = page_url.split('#').next().unwrap_or(page_url);
    (url != page).then_some(url)
}
