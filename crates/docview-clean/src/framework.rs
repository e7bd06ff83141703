//! The framework's cleaner (004 §4): the page type from the central area, then the topic content
//! tree (topic pages), the central hub blocks (hub pages) or the images with their text (image
//! pages), and the topic root with its paragraphs (§6).
//!
//! What is the paper's: the tag tree, block types by anchor-term and image ratios, block weight
//! (Algorithm 1) lifting weighty blocks, the central area deciding the page type, pruning hub and
//! image blocks from a topic page, the topic root as the lowest common ancestor of the topic
//! content and its children as paragraphs. What docview adds, because modern pages are div soup
//! and the paper leaves its thresholds open: the central area is the subtree with the largest net
//! text mass (text terms count for it, anchor terms and boilerplate-named blocks against it);
//! boilerplate class / id / ARIA names and HTML5 `nav` / `aside` / `footer` tags mark blocks as
//! noise; link density is judged on whole subtrees, not only on leaf blocks.

use super::{Cleaned, Cleaner, Decision};
use docview_measure::block_weights;
use docview_page::{NodeId, PageType, TagTree};

/// Tunable parameters of the framework cleaner.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct FrameworkParams {
    /// How much an anchor term counts against a subtree being the central area (text terms
    /// count +1 each).
    pub anchor_penalty: f32,
    /// How much a term in a boilerplate-named block counts against it.
    pub noise_penalty: f32,
    /// A page is a hub page when more than this share of the central area's terms sits in hub
    /// blocks (§4.1).
    pub hub_page_ratio: f32,
    /// A page is an image page when it has at least one image per this many central terms.
    pub image_page_terms_per_image: u32,
    /// A boilerplate name is not trusted on a block holding more than this share of the page.
    pub max_noise_share: f32,
    /// Drop hub blocks under the topic root of a topic page.
    pub drop_hub_blocks: bool,
    /// The topic text of a topic page starts at its first block of this many terms; the short
    /// blocks before it are dropped (0: keep them).
    pub lead_block_terms: u32,
}

impl Default for FrameworkParams {
    fn default() -> Self {
        FrameworkParams {
            anchor_penalty: 1.0,
            noise_penalty: 1.0,
            hub_page_ratio: 0.6,
            image_page_terms_per_image: 15,
            max_noise_share: 0.5,
            drop_hub_blocks: true,
            lead_block_terms: 16,
        }
    }
}

/// The framework of Zhang, Chen and Li (2004), with docview's added evidence.
#[derive(Debug, Clone, Default)]
pub struct Framework {
    /// Its parameters.
    pub params: FrameworkParams,
}

impl Cleaner for Framework {
    fn kind(&self) -> crate::CleanerKind {
        crate::CleanerKind::Framework
    }

    fn clean(&self, tree: &TagTree) -> Cleaned {
        match self.analyse(tree) {
            Some(a) => a.into_cleaned(tree),
            None => Cleaned::empty(tree),
        }
    }
}

/// The framework's reading of one page, before rendering: what the learned cleaner takes as
/// evidence, and what [`Framework::clean`] renders.
#[derive(Debug, Clone)]
pub struct Analysis {
    /// Block weight of each node (Algorithm 1).
    pub weights: Vec<f32>,
    /// Blocks in a boilerplate-named subtree.
    pub noise: Vec<bool>,
    /// The central area by text mass (the topic root of a topic page).
    pub text_area: NodeId,
    /// The central area when anchor text counts for it (the topic root of hub and image pages).
    pub link_area: NodeId,
    /// The page type (§4.1).
    pub page_type: PageType,
    /// The topic root chosen for that page type.
    pub topic_root: NodeId,
    /// One decision per node.
    pub decisions: Vec<Decision>,
}

impl Analysis {
    /// Renders the kept blocks as the framework's topic content.
    pub fn into_cleaned(self, tree: &TagTree) -> Cleaned {
        Cleaned::rendered(
            tree,
            self.page_type,
            self.topic_root,
            self.decisions,
            self.weights,
        )
    }
}

impl Framework {
    /// The framework's analysis of a page: block weights, noise blocks, central areas, page
    /// type and the decision for each block. `None` for a page without nodes.
    pub fn analyse(&self, tree: &TagTree) -> Option<Analysis> {
        let root = tree.root()?;
        let weights = block_weights(tree);
        let noise = self.noise_blocks(tree, root);
        let text_area = self.central_area(tree, &noise, &weights, false);
        let link_area = self.central_area(tree, &noise, &weights, true);
        let page_type = self.page_type(tree, link_area, &noise);
        let topic_root = match page_type {
            PageType::Topic => text_area,
            PageType::Hub | PageType::Image => link_area,
        };
        let mut decisions = vec![Decision::outside(); tree.nodes.len()];
        let under_root = tree.descendants(topic_root);
        for &id in &under_root {
            decisions[id as usize] = self.decide(tree, id, topic_root, page_type, &noise);
        }
        // A block dropped takes its whole subtree with it (parents come first in the order).
        for &id in &under_root[1..] {
            let parent = tree.node(id).parent.unwrap_or(topic_root);
            if !decisions[parent as usize].is_kept() && decisions[id as usize].is_kept() {
                decisions[id as usize] = Decision::dropped("inside a dropped block");
            }
        }
        if page_type == PageType::Topic {
            self.drop_lead(tree, &under_root, &mut decisions);
        }
        Some(Analysis {
            weights,
            noise,
            text_area,
            link_area,
            page_type,
            topic_root,
            decisions,
        })
    }
}

impl Framework {
    /// Drops the short blocks that lead the topic text (headline, dateline, byline): the text
    /// starts at the first block of `lead_block_terms` terms or more. A page without such a
    /// block keeps its short blocks.
    fn drop_lead(&self, tree: &TagTree, under_root: &[NodeId], decisions: &mut [Decision]) {
        let limit = self.params.lead_block_terms;
        if limit == 0 {
            return;
        }
        let mut lead = Vec::new();
        let mut lead_terms = 0;
        let mut text_found = false;
        for &id in under_root {
            let own = tree.node(id).own;
            if !decisions[id as usize].is_kept() || own.terms == 0 {
                continue;
            }
            if own.terms >= limit {
                text_found = true;
                break;
            }
            lead_terms += own.terms;
            lead.push(id);
        }
        // A page with no block that long is all short blocks: they are its text, not a lead.
        if text_found && lead_terms <= 3 * limit {
            for id in lead {
                decisions[id as usize] =
                    Decision::text_dropped("headline or byline before the topic text");
            }
        }
    }

    /// Blocks in a boilerplate-named subtree, unless that subtree holds too much of the page to
    /// be boilerplate.
    fn noise_blocks(&self, tree: &TagTree, root: NodeId) -> Vec<bool> {
        let total = tree.node(root).subtree.terms.max(1) as f32;
        let mut noise = vec![false; tree.nodes.len()];
        for (i, node) in tree.nodes.iter().enumerate() {
            let inherited = node.parent.is_some_and(|p| noise[p as usize]);
            let named =
                node.hint.is_boilerplate() || (&*node.tag == "header" && !in_article(tree, i));
            let own = named && (node.subtree.terms as f32) <= self.params.max_noise_share * total;
            noise[i] = inherited || own;
        }
        noise
    }

    /// The central area: the subtree with the largest net mass of text. Each text term counts
    /// its block weight, each anchor term counts `-anchor_penalty` (or `+1` when `links_count`,
    /// for hub and image pages), each term of a noise block `-noise_penalty`.
    fn central_area(
        &self,
        tree: &TagTree,
        noise: &[bool],
        weights: &[f32],
        links_count: bool,
    ) -> NodeId {
        let p = &self.params;
        let mut net: Vec<f32> = tree
            .nodes
            .iter()
            .enumerate()
            .map(|(i, n)| {
                if noise[i] {
                    -(n.own.terms as f32) * p.noise_penalty
                } else {
                    let text = (n.own.terms - n.own.anchor_terms) as f32;
                    let anchors = n.own.anchor_terms as f32;
                    let w = weights[i].clamp(1.0, 2.0);
                    text * w
                        + if links_count {
                            anchors
                        } else {
                            -anchors * p.anchor_penalty
                        }
                }
            })
            .collect();
        for i in (1..tree.nodes.len()).rev() {
            if let Some(parent) = tree.nodes[i].parent {
                net[parent as usize] += net[i];
            }
        }
        let mut best = 0usize;
        for i in 0..net.len() {
            if net[i] >= net[best] && !noise[i] {
                best = i;
            }
        }
        best as NodeId
    }

    /// The page type from the blocks of the central area (§4.1).
    fn page_type(&self, tree: &TagTree, central: NodeId, noise: &[bool]) -> PageType {
        let (mut hub_terms, mut terms, mut images) = (0u32, 0u32, 0u32);
        for id in tree.descendants(central) {
            if noise[id as usize] {
                continue;
            }
            let n = tree.node(id);
            terms += n.own.terms;
            images += n.own.images;
            if n.block_type == PageType::Hub {
                hub_terms += n.own.terms;
            }
        }
        if terms > 0 && hub_terms as f32 > self.params.hub_page_ratio * terms as f32 {
            PageType::Hub
        } else if images > 0 && terms <= images * self.params.image_page_terms_per_image {
            PageType::Image
        } else {
            PageType::Topic
        }
    }

    /// Keep or drop one block under the topic root.
    fn decide(
        &self,
        tree: &TagTree,
        id: NodeId,
        topic_root: NodeId,
        page_type: PageType,
        noise: &[bool],
    ) -> Decision {
        if noise[id as usize] {
            return Decision::dropped("boilerplate name");
        }
        if id == topic_root {
            return Decision::kept("topic root");
        }
        let sub = tree.node(id).subtree;
        match page_type {
            PageType::Topic => {
                if self.params.drop_hub_blocks
                    && sub.terms > 0
                    && sub.anchor_ratio() > docview_page::HUB_ANCHOR_RATIO
                {
                    Decision::dropped("hub block in a topic page")
                } else if sub.terms == 0 && sub.images > 0 {
                    Decision::dropped("image block in a topic page")
                } else {
                    Decision::kept("topic block")
                }
            }
            PageType::Hub => Decision::kept("central hub block"),
            PageType::Image => Decision::kept("image block"),
        }
    }
}

/// True when node `id` sits inside an `article` or `main` element.
fn in_article(tree: &TagTree, id: usize) -> bool {
    let mut cur = tree.nodes[id].parent;
    while let Some(p) = cur {
        let n = tree.node(p);
        if matches!(&*n.tag, "article" | "main") {
            return true;
        }
        cur = n.parent;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Verdict;
    use docview_page::build;

    const ARTICLE: &str = "<html><head><title>Tide pools</title></head><body>\
        <header><a href=/>Home</a> <a href=/news>News</a> <a href=/about>About us</a></header>\
        <nav><ul><li><a href=/a>Birds</a></li><li><a href=/b>Moths</a></li></ul></nav>\
        <div id=main><h1>Life in the tide pools</h1>\
        <p>At low tide the rock pools of the north shore fill with anemones, crabs and small \
        fish that wait for the sea to come back over them.</p>\
        <p>The pools warm quickly in the sun, and the animals living there have learned to \
        survive heat, salt and the beaks of hungry gulls every single day.</p>\
        <div class=share><a href=/s1>Share on a social site</a></div>\
        <p>Visitors should step only on bare rock and put back every stone they lift, so that \
        the creatures beneath it are not left to dry out.</p></div>\
        <aside><h3>Related</h3><a href=/r1>Salt marsh walk</a> <a href=/r2>Lichens</a></aside>\
        <footer>Copyright 2024 Fieldnotes. All rights reserved.</footer></body></html>";

    #[test]
    fn topic_page_keeps_paragraphs_and_drops_boilerplate() {
        let tree = build(ARTICLE);
        let c = Framework::default().clean(&tree);
        assert_eq!(c.page_type, PageType::Topic);
        assert_eq!(c.title, "Tide pools");
        let text = &c.topic_text;
        assert!(text.contains("At low tide the rock pools"), "{text}");
        assert!(text.contains("put back every stone"), "{text}");
        for boiler in ["Home", "Birds", "Share on", "Salt marsh", "Copyright"] {
            assert!(!text.contains(boiler), "{boiler} kept in {text}");
        }
        // The topic root is the div holding the paragraphs; its children are the paragraphs.
        let root = c.topic_root.expect("a topic root");
        assert_eq!(&*tree.node(root).label, "div#main");
        assert_eq!(c.paragraphs.len(), 3, "{:?}", c.paragraphs);
        let nav = tree.nodes.iter().position(|n| &*n.tag == "nav").unwrap();
        assert_eq!(c.decisions[nav].verdict, Verdict::Dropped);
    }

    #[test]
    fn hub_page_keeps_its_central_links() {
        let mut html = String::from(
            "<body><nav class=menu><a href=/>Home</a> <a href=/x>Shop</a></nav><ul id=list>",
        );
        for i in 0..12 {
            html.push_str(&format!(
                "<li><a href=/p{i}>Story number {i} about the harbour ferry timetable</a></li>"
            ));
        }
        html.push_str("</ul><footer>Contact the editors</footer></body>");
        let tree = build(&html);
        let c = Framework::default().clean(&tree);
        assert_eq!(c.page_type, PageType::Hub);
        assert!(c.topic_text.contains("Story number 0"), "{}", c.topic_text);
        assert!(c.topic_text.contains("Story number 11"), "{}", c.topic_text);
        assert!(!c.topic_text.contains("Shop"), "{}", c.topic_text);
        assert!(!c.topic_text.contains("Contact"), "{}", c.topic_text);
    }

    #[test]
    fn image_page_keeps_images_with_their_text() {
        let html = "<body><nav><a href=/>Home</a></nav><div class=gallery>\
            <figure><img src=a.jpg alt='Heron at dawn'><figcaption>A heron</figcaption></figure>\
            <figure><img src=b.jpg alt='Salt marsh'><figcaption>The marsh</figcaption></figure>\
            <figure><img src=c.jpg alt='Low tide'><figcaption>Low tide</figcaption></figure>\
            </div></body>";
        let tree = build(html);
        let c = Framework::default().clean(&tree);
        assert_eq!(c.page_type, PageType::Image);
        assert!(c.topic_text.contains("Heron at dawn"), "{}", c.topic_text);
        assert!(c.topic_text.contains("The marsh"), "{}", c.topic_text);
        assert!(!c.topic_text.contains("Home"), "{}", c.topic_text);
    }

    #[test]
    fn hidden_text_and_scripts_never_show() {
        let html = "<body><div><p>Visible words of the article that a reader can see on \
            the page and that make up its topic content for the index.</p>\
            <p style='display: none'>secret hidden promotion text</p>\
            <script>var x = 'script text';</script><style>p { color: red }</style>\
            <p>More visible words follow here so the block is long enough to be content.</p>\
            </div></body>";
        let c = Framework::default().clean(&build(html));
        assert!(c.topic_text.contains("Visible words"), "{}", c.topic_text);
        assert!(!c.topic_text.contains("secret"), "{}", c.topic_text);
        assert!(!c.topic_text.contains("script text"), "{}", c.topic_text);
        assert!(!c.topic_text.contains("color"), "{}", c.topic_text);
    }

    #[test]
    fn short_page_keeps_its_text() {
        // Two paragraphs of 10 and 5 terms: no block reaches the lead rule's 16 terms, so there
        // is no lead to drop; they are the page's text.
        let html = "<html><head><title>Closed</title></head><body><div id=main>\
            <p>The ferry office is closed on Monday for the harbour festival.</p>\
            <p>Tickets stay valid until Friday.</p></div></body></html>";
        let c = Framework::default().clean(&build(html));
        assert!(
            c.topic_text.contains("ferry office is closed"),
            "{}",
            c.topic_text
        );
        assert!(
            c.topic_text.contains("Tickets stay valid"),
            "{}",
            c.topic_text
        );
        // With a long block after them, short leading blocks are still a headline and byline.
        let html = "<body><div id=main><h1>Harbour festival</h1><p>By the desk</p>\
            <p>The ferry office is closed on Monday for the harbour festival, and the dock \
            repairs move to the following week when the boats are back on their summer \
            timetable.</p></div></body>";
        let c = Framework::default().clean(&build(html));
        assert!(!c.topic_text.contains("By the desk"), "{}", c.topic_text);
        assert!(c.topic_text.contains("dock repairs"), "{}", c.topic_text);
    }

    #[test]
    fn empty_page_gives_empty_content() {
        let c = Framework::default().clean(&build(""));
        assert!(c.topic_text.is_empty());
        assert_eq!(c.page_type, PageType::Topic);
    }
}
