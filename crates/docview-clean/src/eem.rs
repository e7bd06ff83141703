//! The Entropy Evaluation Model (EEM) of Nyein, *Extraction of informative blocks from Myanmar
//! web pages based on entropy measure* (`../shared/papers/003_c090a29e11552d53.txt`): a
//! single-page cleaner that keeps the one block of maximum entropy, in two readings of the
//! paper ([`EemReading`]).
//!
//! - **Preprocessing (§3.1).** Tags a browser does not show (comments, scripts, styles, hidden
//!   elements) are gone already: docview's tag tree drops them while it is built.
//! - **Block tags (§3.3).** The paper's set is `div, p, br, li, ul, ol, td, tr, table, h1-6,
//!   hr`; [`BLOCK_TAGS`] holds those that are container nodes of docview's tree. `br` and `hr`
//!   are empty elements (line breaks in the tree): no element node, never a block.
//! - **Block entropy, equation (2):** `H(block) = -Σ (ENᵢ/W) log₂ (ENᵢ/W)` over `n` terms,
//!   `W = Σ ENᵢ` ([`entropy`]). The paper normalises the weights (`ENᵢ/W`), not the entropy: no
//!   division by `log₂ n`.
//! - **Block identification (§3.5).** The block with the maximum entropy is the informative
//!   block, everything else is dropped. The paper does not say how ties are broken; docview
//!   takes the heaviest block (largest `W`), then the first in document order
//!   ([`maximum_entropy`]), so a page whose blocks all score 0 keeps its largest block.
//!
//! The two readings differ in what `n`, `EN` and the blocks are:
//!
//! - **[`EemReading::Types`]** (`--cleaner eem`), the paper's "n is the number of type of
//!   element node (img, link, text)": a block's element nodes are of three types, text (a DOM
//!   text node outside any anchor that holds more than whitespace: the line breaks between
//!   tags, which the tree keeps as a space, are no text a reader sees), link (an `<a href>`,
//!   its words part of it) and image (an `<img>`); `EN` of a type is the number of its nodes
//!   in the block's subtree ([`ElementNodes`]), so `H` lies between 0 and log₂ 3. Each subtree
//!   under a block tag is a block, nested blocks included, so a block holding the headline and
//!   the body holds both; `h1`-`h6` are heading text inside a container, not blocks of their
//!   own.
//! - **[`EemReading::Nodes`]** (`--cleaner eem-nodes`), "EN is the weight of each element node
//!   in a block": `n` is the number of the block's element nodes and `EN` each one's weight,
//!   the words of a text node or of a link's text, 1 for an image ([`NodeBlock`]); `H` lies
//!   between 0 and log₂ n. The blocks are the segmentation's innermost ones: each element node
//!   belongs to its innermost block element (containers that are no block tag, like `section`
//!   or `span`, are passed through; the root holds what no block element does), and a run of
//!   heading text (`h1`-`h6`) is a block of its own, so a headline set apart from the body is
//!   missed, as the paper says of its Entertainment pages.
//!
//! Equation (2) measures how evenly a block mixes its element nodes, not how much it holds:
//! docs/explain/cleaners.md has each reading's figures and where each wins and fails.
//!
//! The page type is the §3.1 type of the kept block's counts (004), as the paper has none.

use docview_page::{Counts, NodeId, PageType, Show, Step, TagTree, render_steps, walk};
use docview_text::count_tokens;

use crate::{BlockEvidence, Cleaned, Cleaner, CleanerKind, Decision};

/// The container tags of docview's tree that are block tags of the paper (§3.3).
pub(crate) const BLOCK_TAGS: &[&str] = &["div", "p", "li", "ul", "ol", "td", "tr", "table"];

/// How equation (2) is read: what its `n` and `EN` count and what its blocks are (see the
/// module documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum EemReading {
    /// `n` the three types of element node, `EN` the number of nodes of each, blocks every
    /// subtree under a block tag (nested blocks included).
    Types,
    /// `n` the block's element nodes, `EN` the words of each (1 for an image), blocks the
    /// innermost block elements and the runs of heading text.
    Nodes,
}

/// The block entropy of equation (2), in bits: `-Σ (ENᵢ/W) log₂ (ENᵢ/W)` over the weights
/// `ENᵢ` (those of 0 add nothing); 0 when `W` is 0.
pub(crate) fn entropy(weights: impl IntoIterator<Item = u32> + Clone) -> f32 {
    let total: u64 = weights.clone().into_iter().map(u64::from).sum();
    if total == 0 {
        return 0.0;
    }
    let w = total as f64;
    let h: f64 = weights
        .into_iter()
        .filter(|&n| n > 0)
        .map(|n| {
            let p = n as f64 / w;
            -p * p.log2()
        })
        .sum();
    h as f32
}

/// The informative block (§3.5) among `(H, W, block)` candidates: the maximum entropy; of
/// equal entropies, the largest `W`, then the first.
pub(crate) fn maximum_entropy<T>(candidates: impl IntoIterator<Item = (f32, u32, T)>) -> Option<T> {
    let mut best: Option<(f32, u32, T)> = None;
    for candidate in candidates {
        let better = match &best {
            None => true,
            Some((h, w, _)) => candidate.0 > *h || (candidate.0 == *h && candidate.1 > *w),
        };
        if better {
            best = Some(candidate);
        }
    }
    best.map(|(_, _, block)| block)
}

/// The element nodes of a block's subtree by type (§3.4), the [`EemReading::Types`] reading.
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

    /// The block entropy of equation (2) over the three types, in bits.
    pub(crate) fn entropy(&self) -> f32 {
        entropy([self.text, self.links, self.images])
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
                    matches!(item, docview_page::Item::Text { start, end, style }
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

/// The blocks of the [`EemReading::Types`] reading: each visible node under a block tag whose
/// subtree holds element nodes, by id.
fn type_blocks<'a>(
    tree: &'a TagTree,
    nodes: &'a [ElementNodes],
) -> impl Iterator<Item = NodeId> + 'a {
    tree.nodes
        .iter()
        .enumerate()
        .filter(|(id, node)| {
            !node.hidden && nodes[*id].total() > 0 && BLOCK_TAGS.contains(&&*node.tag)
        })
        .map(|(id, _)| id as NodeId)
}

/// The informative block of the [`EemReading::Types`] reading (§3.5). `None` when the page
/// has no block with element nodes.
pub(crate) fn informative_block(tree: &TagTree, nodes: &[ElementNodes]) -> Option<NodeId> {
    maximum_entropy(type_blocks(tree, nodes).map(|id| {
        let counts = nodes[id as usize];
        (counts.entropy(), counts.total(), id)
    }))
}

/// A block of the [`EemReading::Nodes`] reading: the element nodes whose innermost block
/// element is `node`, outside headings (`part` 0) or in its `part`-th run of heading text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct NodeBlock {
    /// The block element (the root for what no block element holds).
    pub node: NodeId,
    /// 0 for the content outside headings, k for the k-th run of heading text, in order.
    pub part: u32,
    /// `EN` of each element node with words, in document order: the words of a text node or
    /// of a link's text, 1 for an image.
    pub weights: Vec<u32>,
    /// What the block holds: its words, link words, links and images.
    pub counts: Counts,
}

impl NodeBlock {
    fn new(node: NodeId, part: u32) -> Self {
        NodeBlock {
            node,
            part,
            weights: Vec::new(),
            counts: Counts::default(),
        }
    }

    /// `W`: the weight of all its element nodes.
    pub(crate) fn total(&self) -> u32 {
        self.weights.iter().sum()
    }

    /// The block entropy of equation (2) over its element nodes, in bits.
    pub(crate) fn entropy(&self) -> f32 {
        entropy(self.weights.iter().copied())
    }
}

/// True when the [`EemReading::Nodes`] reading makes `id` a block element: a block tag, or
/// the root.
fn is_block_element(tree: &TagTree, id: NodeId) -> bool {
    id == 0 || BLOCK_TAGS.contains(&&*tree.node(id).tag)
}

/// What a walk of block element `block`'s own content shows: the block and the containers
/// inside it that are no block element; a nested block element is a block of its own.
fn own_content(tree: &TagTree, block: NodeId) -> impl Fn(NodeId) -> Show + '_ {
    move |id| {
        if id == block || !is_block_element(tree, id) {
            Show::All
        } else {
            Show::Nothing
        }
    }
}

/// Splits the steps of a block element's walk into its blocks: part 0 outside headings,
/// 1, 2, … for each run of heading text (a line break stays in its run; other text, an image
/// or a container ends it; a heading of another level starts a new one).
#[derive(Debug, Default)]
struct Parts {
    current: u32,
    runs: u32,
    level: u8,
}

impl Parts {
    fn part_of(&mut self, step: &Step<'_>) -> u32 {
        match step {
            Step::Text(_, style) if style.heading > 0 => {
                if style.heading != self.level {
                    self.runs += 1;
                    self.current = self.runs;
                    self.level = style.heading;
                }
            }
            Step::Break => {}
            _ => {
                self.current = 0;
                self.level = 0;
            }
        }
        self.current
    }
}

/// The link whose anchor text `run` (a run of [`TagTree::text`]) is part of, by index into
/// [`TagTree::links`].
fn link_of(tree: &TagTree, run: &str) -> Option<usize> {
    let at = tree.offset_of(run)?;
    let i = tree
        .links
        .partition_point(|l| l.start <= at)
        .checked_sub(1)?;
    (at < tree.links[i].end).then_some(i)
}

/// The blocks of the [`EemReading::Nodes`] reading that hold element nodes with words, in
/// document order. A link is one element node of the words of its runs of text (an image's
/// alt text inside it is no word a reader sees).
pub(crate) fn node_blocks(tree: &TagTree) -> Vec<NodeBlock> {
    let visible = tree.visible_nodes();
    let mut out = Vec::new();
    for id in 0..tree.nodes.len() as NodeId {
        if !visible[id as usize] || !is_block_element(tree, id) {
            continue;
        }
        let mut blocks = vec![NodeBlock::new(id, 0)];
        let mut parts = Parts::default();
        // The link of the last run of anchor text: (link, part, its element node).
        let mut last_link: Option<(usize, usize, usize)> = None;
        walk(tree, id, &own_content(tree, id), |step| {
            let part = parts.part_of(&step) as usize;
            if part == blocks.len() {
                blocks.push(NodeBlock::new(id, part as u32));
            }
            let block = &mut blocks[part];
            match step {
                Step::Text(run, style) => {
                    let words = count_tokens(run) as u32;
                    block.counts.terms += words;
                    if !style.anchor {
                        if words > 0 {
                            block.weights.push(words);
                        }
                        return;
                    }
                    block.counts.anchor_terms += words;
                    let link = link_of(tree, run);
                    match (link, last_link) {
                        (Some(l), Some((last, p, node))) if l == last && p == part => {
                            block.weights[node] += words;
                        }
                        _ => {
                            block.counts.links += 1;
                            block.weights.push(words);
                            last_link = link.map(|l| (l, part, block.weights.len() - 1));
                        }
                    }
                }
                Step::Image(_) => {
                    block.counts.images += 1;
                    block.weights.push(1);
                }
                Step::Break | Step::Child { .. } | Step::End => {}
            }
        });
        for mut block in blocks {
            // A link of no words (an image's, or whitespace) weighs nothing.
            block.weights.retain(|&w| w > 0);
            if block.total() > 0 {
                out.push(block);
            }
        }
    }
    out
}

/// The informative block of the [`EemReading::Nodes`] reading (§3.5), by index into `blocks`.
fn informative_node_block(blocks: &[NodeBlock]) -> Option<usize> {
    maximum_entropy(
        blocks
            .iter()
            .enumerate()
            .map(|(i, b)| (b.entropy(), b.total(), i)),
    )
}

/// The EEM cleaner (see the module documentation), in one reading.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Eem {
    reading: EemReading,
}

impl Eem {
    /// The cleaner of `reading`.
    pub(crate) const fn new(reading: EemReading) -> Self {
        Eem { reading }
    }

    /// [`EemReading::Types`]: the block of maximum entropy kept whole.
    fn clean_types(tree: &TagTree) -> Cleaned {
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

    /// [`EemReading::Nodes`]: the block of maximum entropy, its nested block elements (and
    /// its heading, or the block around a heading) left out.
    fn clean_nodes(tree: &TagTree) -> Cleaned {
        let blocks = node_blocks(tree);
        let Some(best) = informative_node_block(&blocks).map(|i| &blocks[i]) else {
            return Cleaned::empty(tree);
        };
        let root = best.node;
        let mut decisions = vec![Decision::outside(); tree.nodes.len()];
        let mut inside = vec![false; tree.nodes.len()];
        decisions[root as usize] = Decision::kept(if best.part == 0 {
            "the block of maximum entropy"
        } else {
            "holds the heading of maximum entropy"
        });
        inside[root as usize] = true;
        // Pre-order: a node's parent is decided before it.
        for id in root + 1..tree.nodes.len() as NodeId {
            let node = tree.node(id);
            if node.hidden || !node.parent.is_some_and(|p| inside[p as usize]) {
                continue;
            }
            if is_block_element(tree, id) {
                decisions[id as usize] = Decision::dropped("a block of its own");
            } else {
                inside[id as usize] = true;
                decisions[id as usize] = Decision::kept("inside the block of maximum entropy");
            }
        }
        let page_type = best.counts.block_type();
        let mut parts = Parts::default();
        let rendered = render_steps(
            tree,
            root,
            page_type == PageType::Image,
            &own_content(tree, root),
            |step| parts.part_of(step) == best.part,
        );
        Cleaned::with_rendering(
            tree,
            page_type,
            root,
            rendered,
            decisions,
            docview_measure::block_weights(tree),
        )
    }
}

impl Cleaner for Eem {
    fn kind(&self) -> CleanerKind {
        match self.reading {
            EemReading::Types => CleanerKind::Eem,
            EemReading::Nodes => CleanerKind::EemNodes,
        }
    }

    fn clean(&self, tree: &TagTree) -> Cleaned {
        match self.reading {
            EemReading::Types => Eem::clean_types(tree),
            EemReading::Nodes => Eem::clean_nodes(tree),
        }
    }

    fn explain(&self, tree: &TagTree) -> Vec<BlockEvidence> {
        match self.reading {
            EemReading::Types => {
                let nodes = element_nodes(tree);
                type_blocks(tree, &nodes)
                    .map(|id| {
                        let n = nodes[id as usize];
                        BlockEvidence {
                            node: id,
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
            EemReading::Nodes => {
                // One block element's blocks are consecutive: report each element's best.
                let blocks = node_blocks(tree);
                blocks
                    .chunk_by(|a, b| a.node == b.node)
                    .filter_map(|same| same.get(informative_node_block(same)?))
                    .map(|b| BlockEvidence {
                        node: b.node,
                        score: b.entropy(),
                        features: vec![
                            ("element_nodes", b.weights.len() as f32),
                            ("weight", b.total() as f32),
                            ("heading", if b.part > 0 { 1.0 } else { 0.0 }),
                        ],
                    })
                    .collect()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const TYPES: Eem = Eem::new(EemReading::Types);
    const NODES: Eem = Eem::new(EemReading::Nodes);

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
        let cleaned = TYPES.clean(&t);
        assert!(cleaned.topic_text.contains("river rose two metres"));
        assert!(cleaned.topic_text.contains("last families"));
        assert!(!cleaned.topic_text.contains("Sport"));
        assert!(!cleaned.topic_text.contains("Copyright"));
        let root = cleaned.topic_root.expect("a root");
        assert!(t.node(root).label.contains("#story"));
        let evidence = TYPES.explain(&t);
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
        let cleaned = TYPES.clean(&t);
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
        let cleaned = TYPES.clean(&t);
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
        let empty = TYPES.clean(&tree("<html><body></body></html>"));
        assert!(empty.topic_text.is_empty() && empty.topic_root.is_none());
        // Text straight in <body>, no block tag: the body is the block.
        let bare = TYPES.clean(&tree("<body>Just a line of text.</body>"));
        assert_eq!(bare.topic_text.trim(), "Just a line of text.");
    }

    #[test]
    fn entropy_over_element_nodes() {
        assert_eq!(entropy([5u32]), 0.0);
        assert_eq!(entropy(Vec::<u32>::new()), 0.0);
        assert!(close(entropy([1u32, 1]), 1.0));
        // n equal weights: log2 n, the maximum for n nodes.
        assert!(close(entropy([4u32, 4, 4, 4]), 2.0));
        assert!(close(entropy([2u32, 1, 1]), 1.5));
        // A weight of 0 (a run of punctuation) adds nothing.
        assert!(close(entropy([3u32, 0, 3]), 1.0));
    }

    /// The blocks of element `label`, as (part, weights).
    fn blocks_of(t: &TagTree, label: &str) -> Vec<(u32, Vec<u32>)> {
        let id = node_labelled(t, label) as NodeId;
        node_blocks(t)
            .into_iter()
            .filter(|b| b.node == id)
            .map(|b| (b.part, b.weights))
            .collect()
    }

    #[test]
    fn the_node_reading_weighs_each_element_node_by_its_words() {
        let t = tree(
            "<body><div id=a>Intro of four words <section><span>two more</span> and              three</section><img src=x.jpg><p id=p>See <a href=/x>the <b>big</b> map</a>              now.</p></div></body>",
        );
        // The section is no block element: its text is the div's. The paragraph is a block of
        // its own; the link's three runs of text are one node of three words.
        assert_eq!(blocks_of(&t, "#a"), vec![(0, vec![4, 2, 2, 1])]);
        assert_eq!(blocks_of(&t, "#p"), vec![(0, vec![1, 3, 1])]);
        let p = node_blocks(&t)
            .into_iter()
            .find(|b| b.node == node_labelled(&t, "#p") as NodeId)
            .expect("the paragraph");
        assert!(close(p.entropy(), 1.370_950_6));
        assert_eq!(
            (p.total(), p.counts.links, p.counts.anchor_terms),
            (5, 1, 3)
        );
    }

    #[test]
    fn the_node_reading_keeps_one_innermost_block() {
        // The menu's items hold one link each and the paragraphs one text node (H = 0); the
        // story's own block holds its picture alone; the second paragraph, 8 words, a link of
        // 1 and a full stop, is the maximum: 0.503 bits.
        let t = tree(THREE_TYPES);
        let id = node_labelled(&t, "#story") as NodeId;
        assert_eq!(
            blocks_of(&t, "#story"),
            vec![(0, vec![1])],
            "the paragraphs are blocks of their own"
        );
        let blocks = node_blocks(&t);
        let best = &blocks[informative_node_block(&blocks).expect("a block")];
        assert!(close(best.entropy(), 0.503_258_3), "{}", best.entropy());
        assert_eq!(best.weights, vec![8, 1]);
        assert_eq!(t.node(best.node).parent, Some(id));
        let cleaned = NODES.clean(&t);
        assert_eq!(
            cleaned.topic_text,
            "Boats carried the last families out; see the map."
        );
        assert_eq!(cleaned.topic_root, Some(best.node));
        // Over the three types, the story is kept whole.
        assert!(TYPES.clean(&t).topic_text.contains("river rose two metres"));
        // The evidence of each block element is its best block.
        let evidence = NODES.explain(&t);
        let top = evidence
            .iter()
            .max_by(|a, b| a.score.total_cmp(&b.score))
            .expect("evidence");
        assert_eq!(top.node, best.node);
        assert!(evidence.iter().any(|e| e.node == id && e.score == 0.0));
    }

    #[test]
    fn a_heading_is_a_block_of_its_own_in_the_node_reading() {
        // The paper's caveat: a headline set apart from the body is missed. The story's text
        // (8 words, a link, 7 words: 1.27 bits) wins; its headline (5 words, 0 bits) is left
        // out. Over the three types the headline is text of the story, kept with it.
        let t = tree(
            "<body><div id=story><h1>The river rose two metres</h1>The lower town was              evacuated before dawn, the <a href=/council>council</a> said. Boats carried the              last families out.</div><div id=menu><a href=/>Home</a></div></body>",
        );
        assert_eq!(
            blocks_of(&t, "#story"),
            vec![(0, vec![8, 1, 7]), (1, vec![5])]
        );
        let cleaned = NODES.clean(&t);
        assert!(
            cleaned.topic_text.starts_with("The lower town"),
            "{}",
            cleaned.topic_text
        );
        assert!(cleaned.topic_text.ends_with("last families out."));
        assert!(!cleaned.topic_text.contains("two metres"));
        let blocks = node_blocks(&t);
        let best = &blocks[informative_node_block(&blocks).expect("a block")];
        assert!(close(best.entropy(), 1.271_782_2));
        assert!(
            TYPES
                .clean(&t)
                .topic_text
                .starts_with("The river rose two metres")
        );

        // A heading mixing words and links is the maximum: kept alone, without its block.
        let t = tree(
            "<body><div id=story><h2>Flood: the <a href=/r>river</a> rises              <a href=/a>again</a></h2><p>Boats carried the last families out.</p></div></body>",
        );
        assert_eq!(blocks_of(&t, "#story"), vec![(1, vec![2, 1, 1, 1])]);
        let cleaned = NODES.clean(&t);
        assert_eq!(cleaned.topic_text, "Flood: the river rises again");
        let evidence = NODES.explain(&t);
        let story = evidence
            .iter()
            .find(|e| e.node == node_labelled(&t, "#story") as NodeId)
            .expect("the story's evidence");
        assert!(close(story.score, 1.921_928));
        assert!(story.features.contains(&("heading", 1.0)));
    }

    #[test]
    fn node_reading_pages_without_blocks() {
        let empty = NODES.clean(&tree("<html><body></body></html>"));
        assert!(empty.topic_text.is_empty() && empty.topic_root.is_none());
        // Text straight in <body>: the root holds what no block element does.
        let bare = NODES.clean(&tree("<body>Just a line of text.</body>"));
        assert_eq!(bare.topic_text.trim(), "Just a line of text.");
        assert_eq!(bare.topic_root, Some(0));
    }

    /// A page of the bundled samples: `corpus-samples/sites/SITE/NAME`.
    fn sample(site: &str, name: &str) -> TagTree {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../corpus-samples/sites")
            .join(site)
            .join(name);
        let html =
            std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        tree(&html)
    }

    #[test]
    fn what_each_reading_keeps_of_a_news_page() {
        // 新屿日报's night market story: channel menu and footer in <header> and <footer>,
        // the story in <article class=detail> inside div.wrap, with a share bar and a ranking.
        let t = sample("xinyu-daily", "night-market.html");
        // Over the three types, div.wrap (16 text nodes, 11 links, an image: 1.16 bits) wins:
        // the story with its breadcrumb, share bar and ranking, without the menu and footer.
        let cleaned = TYPES.clean(&t);
        let root = cleaned.topic_root.expect("a root");
        assert_eq!(&*t.node(root).label, "div.wrap");
        let text = &cleaned.topic_text;
        assert!(
            text.contains("新屿渔港夜市重新开张 摊位增至八十个"),
            "{text}"
        );
        assert!(text.contains("停业整顿两个多月的新屿渔港夜市"), "{text}");
        assert!(text.contains("当前位置"), "{text}");
        assert!(!text.contains("关于我们"), "{text}");
        assert!(!text.contains("视频 图集"), "{text}");
        // Over element nodes, the links of the menu and the footer, which no block tag holds
        // (the root's own block: 11 nodes of 30 words, 3.37 bits), pass every paragraph of
        // the story, one text node each (0 bits).
        let cleaned = NODES.clean(&t);
        assert_eq!(cleaned.topic_root, Some(0));
        let text = &cleaned.topic_text;
        assert!(
            text.contains("首页 本地 财经 文旅 视频 图集 评论"),
            "{text}"
        );
        assert!(text.contains("关于我们 | 联系我们"), "{text}");
        assert!(!text.contains("夜市"), "{text}");
        let blocks = node_blocks(&t);
        let best = &blocks[informative_node_block(&blocks).expect("a block")];
        assert_eq!((best.weights.len(), best.total()), (11, 30));
        assert!(close(best.entropy(), 3.373_557_3), "{}", best.entropy());
    }
}
