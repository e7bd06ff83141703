//! The Entropy Evaluation Model (EEM) of Nyein, *Extraction of informative blocks from Myanmar
//! web pages based on entropy measure* (`../shared/papers/003_c090a29e11552d53.txt`): a
//! single-page cleaner that keeps the one block of maximum entropy.
//!
//! - **Preprocessing (§3.1).** Tags a browser does not show (comments, scripts, styles, hidden
//!   elements) are gone already: docview's tag tree drops them while it is built.
//! - **Page segmentation (§3.3).** Each subtree under a *block tag* is a block, nested blocks
//!   included, so a block holding the headline and the body holds both. The paper's set is
//!   `div, p, br, li, ul, ol, td, tr, table, h1-6, hr`; [`BLOCK_TAGS`] holds those that are
//!   container nodes of docview's tree. `br` and `hr` are empty elements (line breaks in the
//!   tree): no element node, never a block. `h1`-`h6` are heading text inside a container, not
//!   blocks of their own: a heading mixing text with a link or image could be one, but on the
//!   2,201 pages of the dev sets and the samples a heading's entropy passes the maximum block's
//!   on 2 only, and the heading alone is the worse pick on both.
//! - **Element-node weights (§3.4).** A block's element nodes are of three types: text
//!   (a DOM text node outside any anchor that holds more than whitespace: the line breaks
//!   between tags, which the tree keeps as a space, are no text a reader sees), link (an
//!   `<a href>`, its words part of it) and image (an `<img>`); the weight `EN` of a type is
//!   the number of its nodes in the block's subtree, `W` their sum.
//! - **Block entropy, equation (2):** `H(block) = -Σ (ENᵢ/W) log₂ (ENᵢ/W)` over the three types,
//!   between 0 (one type only) and log₂ 3 (as many of each). The paper's `n` is "the number of
//!   type of element node (img, link, text)" and a weight "the total number of links, images
//!   and text in each block"; it normalises the weights (`ENᵢ/W`), not the entropy (no
//!   division by log₂ n).
//! - **Block identification (§3.5).** The block with the maximum entropy is the informative
//!   block: its subtree is the topic content, everything else is dropped. The paper does not
//!   say how ties are broken; docview takes the heaviest block (largest `W`), then the first in
//!   document order, so a page whose blocks all hold text only keeps its largest block.
//!
//! Equation (2) measures how evenly a block mixes the three types, not how much it holds, so
//! small blocks (teaser cards, comments) win on today's pages: the eem paragraph of
//! `docs/explain/cleaners.md` has the figures and one page worked through.
//!
//! Another reading of §3.3-§3.4 was measured beside this one (issue 42) and dropped: `n` the
//! block's element nodes, `EN` the words of each text node or link (1 for an image), the
//! blocks the innermost block elements with each run of heading text a block of its own
//! (commit 62a9fe0, `--cleaner eem-nodes` there). It keeps a menu or one paragraph, and is
//! further from the paper's block precision and recall and lower in F1 on every set: the same
//! paragraph has its figures.
//!
//! The page type is the §3.1 type of the kept block's counts (004), as the paper has none.

use docview_page::{Item, NodeId, TagTree};

use crate::{BlockEvidence, Cleaned, Cleaner, Decision};

/// The container tags of docview's tree that are block tags of the paper (§3.3).
pub(crate) const BLOCK_TAGS: &[&str] = &["div", "p", "li", "ul", "ol", "td", "tr", "table"];

/// The element nodes of a block's subtree by type (§3.4).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct ElementNodes {
    /// Text nodes outside anchors that hold more than whitespace.
    pub text: u32,
    /// Hyperlinks.
    pub links: u32,
    /// Images.
    pub images: u32,
}

impl ElementNodes {
    /// `W`: the weight of all element nodes.
    pub(crate) fn total(&self) -> u32 {
        self.text + self.links + self.images
    }

    /// The block entropy of equation (2), in bits; 0 for a block without element nodes.
    pub(crate) fn entropy(&self) -> f32 {
        let total = self.total();
        if total == 0 {
            return 0.0;
        }
        let w = total as f64;
        let h: f64 = [self.text, self.links, self.images]
            .into_iter()
            .filter(|&n| n > 0)
            .map(|n| {
                let p = n as f64 / w;
                -p * p.log2()
            })
            .sum();
        h as f32
    }

    fn add(&mut self, other: &ElementNodes) {
        self.text += other.text;
        self.links += other.links;
        self.images += other.images;
    }
}

/// The element nodes of each node's subtree, by node id (hidden nodes count nothing, and
/// nothing toward their ancestors).
pub(crate) fn element_nodes(tree: &TagTree) -> Vec<ElementNodes> {
    let mut out: Vec<ElementNodes> = tree
        .nodes
        .iter()
        .map(|node| {
            if node.hidden {
                return ElementNodes::default();
            }
            // A run of whitespace only is the line break between two tags, kept by the
            // tree as a space: no text a reader sees.
            let text = node
                .items
                .iter()
                .filter(|item| {
                    matches!(item, Item::Text { start, end, style }
                        if !style.anchor && !tree.slice(*start, *end).trim().is_empty())
                })
                .count() as u32;
            ElementNodes {
                text,
                links: node.own.links,
                images: node.own.images,
            }
        })
        .collect();
    // Children come after their parents: adding from the end gives subtree sums.
    for id in (1..tree.nodes.len()).rev() {
        let node = &tree.nodes[id];
        if let Some(parent) = node.parent.filter(|_| !node.hidden) {
            let child = out[id];
            out[parent as usize].add(&child);
        }
    }
    out
}

/// The informative block (§3.5): the block of maximum entropy; of equal entropies, the largest
/// `W`, then the first. `None` when the page has no block with element nodes.
pub(crate) fn informative_block(tree: &TagTree, nodes: &[ElementNodes]) -> Option<NodeId> {
    let mut best: Option<(f32, u32, NodeId)> = None;
    for (id, node) in tree.nodes.iter().enumerate() {
        let counts = nodes[id];
        if node.hidden || counts.total() == 0 || !BLOCK_TAGS.contains(&&*node.tag) {
            continue;
        }
        let candidate = (counts.entropy(), counts.total(), id as NodeId);
        let better = match best {
            None => true,
            Some((h, w, _)) => candidate.0 > h || (candidate.0 == h && candidate.1 > w),
        };
        if better {
            best = Some(candidate);
        }
    }
    best.map(|(_, _, id)| id)
}

/// The EEM cleaner (see the module documentation). It has no parameters.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Eem;

impl Cleaner for Eem {
    fn kind(&self) -> crate::CleanerKind {
        crate::CleanerKind::Eem
    }

    fn clean(&self, tree: &TagTree) -> Cleaned {
        let nodes = element_nodes(tree);
        // A page without any block tag (text straight in <body>) is its own block.
        let root = informative_block(tree, &nodes)
            .or_else(|| (!tree.nodes.is_empty() && nodes[0].total() > 0).then_some(0));
        let Some(root) = root else {
            return Cleaned::empty(tree);
        };
        let mut decisions = vec![Decision::outside(); tree.nodes.len()];
        let mut inside = vec![false; tree.nodes.len()];
        decisions[root as usize] = Decision::kept("the block of maximum entropy");
        inside[root as usize] = true;
        // Pre-order: a node's parent is decided before it.
        for id in root as usize + 1..tree.nodes.len() {
            if tree.nodes[id].parent.is_some_and(|p| inside[p as usize]) {
                inside[id] = true;
                decisions[id] = Decision::kept("inside the block of maximum entropy");
            }
        }
        let page_type = tree.node(root).subtree.block_type();
        Cleaned::rendered(
            tree,
            page_type,
            root,
            decisions,
            docview_measure::block_weights(tree),
        )
    }

    fn explain(&self, tree: &TagTree) -> Vec<BlockEvidence> {
        let nodes = element_nodes(tree);
        tree.nodes
            .iter()
            .enumerate()
            .filter(|(id, node)| {
                !node.hidden && nodes[*id].total() > 0 && BLOCK_TAGS.contains(&&*node.tag)
            })
            .map(|(id, _)| {
                let n = nodes[id];
                BlockEvidence {
                    node: id as NodeId,
                    score: n.entropy(),
                    features: vec![
                        ("text_nodes", n.text as f32),
                        ("link_nodes", n.links as f32),
                        ("image_nodes", n.images as f32),
                    ],
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(html: &str) -> TagTree {
        docview_page::build(html)
    }

    /// The first node of `t` whose label holds `label` (`#menu`).
    fn node_labelled(t: &TagTree, label: &str) -> usize {
        t.nodes
            .iter()
            .position(|n| n.label.contains(label))
            .expect(label)
    }

    fn close(a: f32, b: f32) -> bool {
        (a - b).abs() < 1e-6
    }

    #[test]
    fn entropy_of_equation_two() {
        // One type only: no uncertainty.
        assert_eq!(
            ElementNodes {
                text: 5,
                links: 0,
                images: 0
            }
            .entropy(),
            0.0
        );
        assert_eq!(ElementNodes::default().entropy(), 0.0);
        // As many of each of the three types: log2 3, the maximum.
        let three = ElementNodes {
            text: 2,
            links: 2,
            images: 2,
        };
        assert!(close(three.entropy(), 3f32.log2()));
        // Text 2, links 1, images 1: -(1/2 log2 1/2 + 2 * 1/4 log2 1/4) = 1.5 bits.
        assert!(close(
            ElementNodes {
                text: 2,
                links: 1,
                images: 1
            }
            .entropy(),
            1.5
        ));
        // Two types, equal: 1 bit.
        assert!(close(
            ElementNodes {
                text: 3,
                links: 3,
                images: 0
            }
            .entropy(),
            1.0
        ));
    }

    /// A page of three blocks: a menu (links only, H = 0), a footer (text only, H = 0) and a
    /// story with three runs of text, a link and a picture (three types, H = 1.37), which is kept alone.
    const THREE_TYPES: &str = "<html><head><title>Flood</title></head><body>\
        <ul id=menu><li><a href=/>Home</a></li><li><a href=/news>News</a></li>\
        <li><a href=/sport>Sport</a></li></ul>\
        <div id=story><p>The river rose two metres overnight and the lower town was \
        evacuated before dawn.</p><img src=flood.jpg alt=''>\
        <p>Boats carried the last families out; see the <a href=/map>map</a>.</p></div>\
        <div id=footer>Copyright 2024 The Valley Post</div></body></html>";

    #[test]
    fn counts_element_nodes_of_each_type_in_a_subtree() {
        let t = tree(THREE_TYPES);
        let nodes = element_nodes(&t);
        let id_of = |label: &str| node_labelled(&t, label);
        assert_eq!(
            nodes[id_of("#menu")],
            ElementNodes {
                text: 0,
                links: 3,
                images: 0
            }
        );
        assert_eq!(
            nodes[id_of("#footer")],
            ElementNodes {
                text: 1,
                links: 0,
                images: 0
            }
        );
        // Two runs of text in the second paragraph (before and after the anchor) and one in
        // the first.
        assert_eq!(
            nodes[id_of("#story")],
            ElementNodes {
                text: 3,
                links: 1,
                images: 1
            }
        );
        assert!(close(nodes[id_of("#story")].entropy(), 1.370_950_6));
    }

    #[test]
    fn keeps_the_block_of_maximum_entropy_and_drops_the_rest() {
        let t = tree(THREE_TYPES);
        let cleaned = Eem.clean(&t);
        assert!(cleaned.topic_text.contains("river rose two metres"));
        assert!(cleaned.topic_text.contains("last families"));
        assert!(!cleaned.topic_text.contains("Sport"));
        assert!(!cleaned.topic_text.contains("Copyright"));
        let root = cleaned.topic_root.expect("a root");
        assert!(t.node(root).label.contains("#story"));
        let evidence = Eem.explain(&t);
        let best = evidence
            .iter()
            .max_by(|a, b| a.score.total_cmp(&b.score))
            .expect("evidence");
        assert_eq!(best.node, root);
    }

    /// A news page as crawled: a menu and a strip of teasers written one tag per line, and a
    /// story (headline, paragraphs, a link, a picture) written without line breaks.
    const NEWS_PAGE: &str = "<html><head><title>Flood</title></head><body>
<ul id=menu>
<li><a href=/>Home</a></li>
<li><a href=/news>News</a></li>
<li><a href=/sport>Sport</a></li>
</ul>
<div id=teasers>
<a href=/t1><img src=t1.jpg>Bridge reopens</a>
<a href=/t2><img src=t2.jpg>School fair</a>
</div>
<div id=story><h1>The river rose two metres</h1><p>The lower town was evacuated before \
        dawn, the <a href=/council>council</a> said.</p><img src=flood.jpg alt=''>\
        <p>Boats carried the last families out.</p><p>Schools stay shut until Monday.</p></div>
</body></html>";

    #[test]
    fn whitespace_between_tags_is_no_text_node() {
        let t = tree(NEWS_PAGE);
        let nodes = element_nodes(&t);
        let id_of = |label: &str| node_labelled(&t, label);
        // The line breaks between the tags are not text a reader sees: the teasers hold two
        // links and two images (their text is the links'), the menu three links.
        assert_eq!(
            nodes[id_of("#teasers")],
            ElementNodes {
                text: 0,
                links: 2,
                images: 2
            }
        );
        assert_eq!(
            nodes[id_of("#menu")],
            ElementNodes {
                text: 0,
                links: 3,
                images: 0
            }
        );
        // Headline, the two runs around the link, two more paragraphs.
        assert_eq!(
            nodes[id_of("#story")],
            ElementNodes {
                text: 5,
                links: 1,
                images: 1
            }
        );
    }

    #[test]
    fn the_story_with_its_headline_wins_over_the_teasers() {
        let t = tree(NEWS_PAGE);
        let cleaned = Eem.clean(&t);
        let root = cleaned.topic_root.expect("a root");
        // 1.15 bits against the teasers' 1.0 (counted with the line breaks as text, the
        // teasers were 2 texts, 2 links, 2 images: log2 3, the maximum).
        assert!(
            t.node(root).label.contains("#story"),
            "{}",
            t.node(root).label
        );
        assert!(cleaned.topic_text.contains("The river rose two metres"));
        assert!(cleaned.topic_text.contains("Schools stay shut"));
        assert!(!cleaned.topic_text.contains("Bridge reopens"));
        assert!(!cleaned.topic_text.contains("Sport"));
    }

    #[test]
    fn text_only_blocks_tie_at_zero_and_the_largest_wins() {
        let t = tree(
            "<body><div id=a><p>Short note.</p></div>\
             <div id=b><p>One long paragraph of the article.</p><p>And a second one.</p></div>\
             </body>",
        );
        let cleaned = Eem.clean(&t);
        assert!(
            t.node(cleaned.topic_root.expect("root"))
                .label
                .contains("#b")
        );
        assert!(cleaned.topic_text.contains("second one"));
        assert!(!cleaned.topic_text.contains("Short note"));
    }

    #[test]
    fn pages_without_blocks() {
        let empty = Eem.clean(&tree("<html><body></body></html>"));
        assert!(empty.topic_text.is_empty() && empty.topic_root.is_none());
        // Text straight in <body>, no block tag: the body is the block.
        let bare = Eem.clean(&tree("<body>Just a line of text.</body>"));
        assert_eq!(bare.topic_text.trim(), "Just a line of text.");
    }

    #[test]
    fn keeps_the_story_of_a_sample_news_page() {
        // 新屿日报's night market story (corpus-samples): channel menu and footer in <header>
        // and <footer>, the story in <article class=detail> inside div.wrap, with a
        // breadcrumb, a share bar and a ranking. div.wrap (16 text nodes, 11 links, an image:
        // 1.16 bits) is the maximum: kept whole, without the menu and the footer.
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../corpus-samples/sites/xinyu-daily/night-market.html");
        let html =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let t = tree(&html);
        let nodes = element_nodes(&t);
        let root = informative_block(&t, &nodes).expect("a block");
        assert_eq!(&*t.node(root).label, "div.wrap");
        assert_eq!(
            nodes[root as usize],
            ElementNodes {
                text: 16,
                links: 11,
                images: 1
            }
        );
        assert!(close(nodes[root as usize].entropy(), 1.162_578_2));
        let cleaned = Eem.clean(&t);
        assert_eq!(cleaned.topic_root, Some(root));
        let text = &cleaned.topic_text;
        assert!(
            text.contains("新屿渔港夜市重新开张 摊位增至八十个"),
            "{text}"
        );
        assert!(text.contains("停业整顿两个多月的新屿渔港夜市"), "{text}");
        assert!(text.contains("当前位置"), "{text}");
        assert!(!text.contains("关于我们"), "{text}");
        assert!(!text.contains("视频 图集"), "{text}");
    }
}
