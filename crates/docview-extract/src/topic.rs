//! The topic content of one cleaned page as an owned value, without its tag tree: what the
//! later stages read of a page (the collection statistics, integration into a DocView, the
//! replica fingerprints and the indexes), and nothing else.
//!
//! A [`TopicPage`] is made once per page from its [`Extraction`] (the tag tree and the
//! cleaner's decisions). It keeps the texts of the blocks that integration weighs (the topic
//! content's kept blocks, and the hub leaf blocks outside it that may give relevant links, §6)
//! with their block weights, and the links of those blocks, so that the feature vectors of §5
//! and §6 come out the same as from the tree, whatever analyzer (stop words) the collection
//! statistics give later. It is serializable: `docview ingest` writes each page's in its first
//! pass and reads them back in the second, so a page is parsed and cleaned once per ingest.

use serde::{Deserialize, Serialize};

use crate::Extraction;
use docview_clean::Verdict;
use docview_measure::{FeatureVector, block_text, text_feature_vector};
use docview_page::{NodeId, PageSignals, PageType};
use docview_text::{Analyzer, Language};

/// A block's own text and its block weight (Algorithm 1).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct WeighedBlock {
    /// The block's own text (empty when it has no terms).
    pub text: String,
    /// Its block weight (written as its bits, so that any value, NaN included, reads back the
    /// same).
    #[serde(with = "f32_bits")]
    pub weight: f32,
}

/// An `f32` as its bits.
mod f32_bits {
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(v: &f32, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u32(v.to_bits())
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f32, D::Error> {
        u32::deserialize(d).map(f32::from_bits)
    }
}

/// Where a link of a [`TopicPage`] stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum LinkPlace {
    /// In a block kept in the topic content.
    Topic,
    /// In the hub leaf block of this index in [`TopicPage::hub_blocks`].
    Hub(u32),
}

/// A hyperlink of a kept block or of a hub block.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PageLink {
    /// The `href` as written in the page (trimmed, not resolved).
    pub href: String,
    /// The anchor text, trimmed.
    pub anchor_text: String,
    /// Where it stands.
    pub place: LinkPlace,
}

/// One cleaned page: its topic content and what the stages after cleaning read of it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TopicPage {
    /// The text of `<title>`, whitespace folded.
    pub title: String,
    /// The page's language (its `<html lang>` when known, else detected from the topic
    /// content).
    pub language: Language,
    /// Topic, hub or image.
    pub page_type: PageType,
    /// The topic content as plain text.
    pub topic_text: String,
    /// The paragraphs of the topic content.
    pub paragraphs: Vec<String>,
    /// How the page was cut to its limits, when it was.
    pub truncated: Option<String>,
    /// The `href` of the page's first `<base href>`.
    pub base_href: Option<String>,
    /// The `href` of the page's first `<link rel=canonical>`.
    pub canonical: Option<String>,
    /// The `content` of the page's first `<meta property=og:url>`.
    pub og_url: Option<String>,
    /// All visible text of the page (what a naive engine indexes).
    pub visible_text: String,
    /// The blocks kept in the topic content, in document order.
    pub topic_blocks: Vec<WeighedBlock>,
    /// The visible hub leaf blocks with links outside the topic content, in document order.
    pub hub_blocks: Vec<WeighedBlock>,
    /// The links of the topic content and of the hub blocks, in document order.
    pub links: Vec<PageLink>,
    /// The page's signals of its kind, for the page-type classifier.
    pub signals: PageSignals,
}

impl TopicPage {
    /// The topic page of a cleaned page.
    pub fn of(page: &Extraction) -> TopicPage {
        let tree = &page.tree;
        let cleaned = &page.cleaned;
        let kept = |id: NodeId| {
            cleaned
                .decisions
                .get(id as usize)
                .is_some_and(|d| d.verdict == Verdict::Kept)
        };
        let weighed = |id: NodeId| WeighedBlock {
            text: if tree.node(id).own.terms == 0 {
                String::new()
            } else {
                block_text(tree, id)
            },
            weight: cleaned.weights.get(id as usize).copied().unwrap_or(1.0),
        };
        let mut topic_blocks = Vec::new();
        let mut hub_blocks = Vec::new();
        // The hub block index of each node, for its links.
        let mut hub_of: Vec<Option<u32>> = vec![None; tree.nodes.len()];
        for (i, node) in tree.nodes.iter().enumerate() {
            let id = i as NodeId;
            if kept(id) {
                if node.own.terms > 0 {
                    topic_blocks.push(weighed(id));
                }
            } else if node.is_leaf()
                && !node.hidden
                && node.block_type == PageType::Hub
                && node.own.links > 0
            {
                hub_of[i] = Some(hub_blocks.len() as u32);
                hub_blocks.push(weighed(id));
            }
        }
        let links = tree
            .links
            .iter()
            .filter_map(|link| {
                let place = if kept(link.node) {
                    LinkPlace::Topic
                } else {
                    LinkPlace::Hub(hub_of.get(link.node as usize).copied().flatten()?)
                };
                Some(PageLink {
                    href: link.href.to_string(),
                    anchor_text: tree.slice(link.start, link.end).trim().to_string(),
                    place,
                })
            })
            .collect();
        TopicPage {
            signals: PageSignals::of(tree),
            title: cleaned.title.clone(),
            language: page.language(),
            page_type: cleaned.page_type,
            topic_text: cleaned.topic_text.clone(),
            paragraphs: cleaned.paragraphs.clone(),
            truncated: page.truncated.clone(),
            base_href: tree.base_href.clone(),
            canonical: tree.canonical.clone(),
            og_url: tree.og_url.clone(),
            visible_text: tree.all_text(),
            topic_blocks,
            hub_blocks,
            links,
        }
    }

    /// The feature vector (Formula 2) of the topic content, with the terms of `analyzer`.
    pub fn topic_features(&self, analyzer: &Analyzer) -> FeatureVector {
        text_feature_vector(
            self.topic_blocks
                .iter()
                .map(|b| (b.text.as_str(), b.weight)),
            analyzer,
            self.language,
        )
    }

    /// The feature vector of hub block `i`, with the terms of `analyzer`.
    pub fn hub_features(&self, i: usize, analyzer: &Analyzer) -> FeatureVector {
        text_feature_vector(
            self.hub_blocks.get(i).map(|b| (b.text.as_str(), b.weight)),
            analyzer,
            self.language,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::extract_page;
    use docview_clean::Framework;
    use docview_measure::feature_vector;

    const PAGE: &str = "<html><head><title>Tide pools</title></head><body>\
        <nav><a href=/>Home</a> <a href=/about>About</a></nav>\
        <div id=main><h1>Tide pools</h1>\
        <p>Tide pools hold anemones, crabs and small fish between the tides. \
        Read <a href=/anemones>about anemones</a> and their stinging cells.</p>\
        <p>At low tide the pools warm up and the water grows salty as it evaporates.</p></div>\
        <ul class=related><li><a href=/crabs>Shore crabs of the tide pools</a></li>\
        <li><a href=/fish>Small fish of the pools</a></li></ul>\
        <footer>Copyright the field notes</footer></body></html>";

    #[test]
    fn features_match_those_of_the_tree() {
        let page = extract_page(PAGE.as_bytes(), None, "t", &Framework::default()).unwrap();
        let topic = TopicPage::of(&page);
        let analyzer = Analyzer::new();
        let lang = page.language();
        assert_eq!(topic.language, lang);
        assert_eq!(
            topic.topic_features(&analyzer),
            page.topic_features_with(&analyzer, lang)
        );
        assert!(topic.topic_text.contains("anemones"));
        assert!(topic.links.iter().any(|l| l.href == "/anemones"
            && l.anchor_text == "about anemones"
            && l.place == LinkPlace::Topic));
        assert!(
            !topic
                .links
                .iter()
                .any(|l| l.href == "/about" && l.place == LinkPlace::Topic),
            "the menu is not topic content"
        );
        // Each hub block's vector is the tree's vector of that node.
        let hubs: Vec<NodeId> = (0..page.tree.nodes.len() as NodeId)
            .filter(|&id| {
                let n = page.tree.node(id);
                n.is_leaf()
                    && !n.hidden
                    && n.block_type == PageType::Hub
                    && n.own.links > 0
                    && page.cleaned.decisions[id as usize].verdict != Verdict::Kept
            })
            .collect();
        assert_eq!(hubs.len(), topic.hub_blocks.len());
        assert!(!hubs.is_empty());
        for (i, &id) in hubs.iter().enumerate() {
            assert_eq!(
                topic.hub_features(i, &analyzer),
                feature_vector(&page.tree, [id], &page.cleaned.weights, &analyzer, lang)
            );
        }
        // A round trip through JSON gives the same page.
        let json = serde_json::to_string(&topic).unwrap();
        let back: TopicPage = serde_json::from_str(&json).unwrap();
        assert_eq!(back, topic);
    }
}
