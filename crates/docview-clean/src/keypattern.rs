//! Block importance by key patterns (`../shared/papers/001_39c087df163f3c14.txt`, after the
//! repetition-based segmentation it cites): a single-page cleaner that cuts a page into blocks
//! at the repetitions of its tag sequence and keeps the blocks with enough important tags.
//!
//! - **Preprocessing (§3.1).** The less meaningful tags (`a`, `b`, `span`, scripts, comments)
//!   are removed, their text kept: docview's tag tree already folds inline tags into the text
//!   of their block and drops scripts and comments. What is left are its container tags, the
//!   headings `h1`-`h6` and the images: the *important tags* of §3.6.
//! - **Sequence (§3.3).** The tags of the 1-depth children of a node, in order
//!   ([`child_sequence`]). A node whose only child is a container (a wrapper `<div>`, as
//!   nearly every page today puts one under `<body>`) is passed through to that child, so the
//!   sequence is the first level at which the page branches.
//! - **Repetitions and key patterns (§3.4).** A repetition is a subsequence of length `m`,
//!   `1 < m <= n/2`, occurring at least twice without overlap ([`repetitions`]; `a a a a`
//!   holds `a a` twice, not three times, Figure 3). A key pattern is a repetition not properly
//!   contained in a longer one ([`key_patterns`]: for `h2 p p ul p p h2 p p p p p p div`, the
//!   repetitions `h2 p`, `p p`, `h2 p p`, `p p p` give the key patterns `h2 p p` and `p p p`).
//!   docview looks for repetitions of at most [`MAX_PATTERN`] tags among the first
//!   [`MAX_SCANNED`] children, so a node with thousands of children stays cheap.
//! - **Virtual nodes (§3.5).** The sequence is cut at each match of the first key pattern (the
//!   longest, then the most frequent, then the first): a virtual node from each match up to the
//!   next ([`virtual_nodes`]). When every tag of the key pattern is the same, the matched run is
//!   one virtual node. Children before the first match stay blocks of their own. Each virtual
//!   node, and each child left alone, is a block.
//! - **Block importance (§3.6)**: the number of important tags in the block, its children and
//!   everything below them. **Elimination (§3.7)**: blocks whose importance is below the
//!   threshold `t` are noise. The paper leaves `t` open; [`KeyPatternParams::threshold`] is
//!   docview's default, chosen on wcxb-dev (README).
//!
//! The page type is the §3.1 type (004) of the kept blocks' counts, as the paper has none.

use std::collections::HashMap;

use docview_page::{Counts, Item, NodeId, TagTree};

use crate::{BlockEvidence, Cleaned, Cleaner, Decision};

/// The longest repetition docview looks for, in tags.
pub(crate) const MAX_PATTERN: usize = 32;

/// Key patterns are looked for in the first this many elements of a sequence (the virtual
/// nodes are then cut over all of it), so a node of 100,000 children costs no more than one
/// of 4,096.
pub(crate) const MAX_SCANNED: usize = 4096;

/// The key-pattern cleaner's parameters.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct KeyPatternParams {
    /// `t` of §3.7: a block with fewer important tags is noise.
    pub threshold: u32,
}

impl Default for KeyPatternParams {
    fn default() -> Self {
        KeyPatternParams { threshold: 32 }
    }
}

/// One element of a node's 1-depth child sequence.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Element<'a> {
    /// The tag, e.g. `p`, `h2`, `img`.
    pub tag: &'a str,
    /// The container node, for a child block; `None` for a heading or an image.
    pub node: Option<NodeId>,
}

/// The 1-depth child sequence of `id` (§3.3): its child containers, its headings (a run of
/// heading text of one level is one `hN`) and its images, in document order.
pub(crate) fn child_sequence(tree: &TagTree, id: NodeId) -> Vec<Element<'_>> {
    let mut out = Vec::new();
    for_each_child_element(tree, id, |e| out.push(e));
    out
}

/// Calls `f` with each element of [`child_sequence`], without collecting them.
fn for_each_child_element<'a>(tree: &'a TagTree, id: NodeId, mut f: impl FnMut(Element<'a>)) {
    let mut heading = 0u8;
    for item in &tree.node(id).items {
        match *item {
            Item::Child(child) if !tree.node(child).hidden => {
                heading = 0;
                f(Element {
                    tag: &tree.node(child).tag,
                    node: Some(child),
                });
            }
            Item::Child(_) => {}
            Item::Text { style, .. } => {
                if style.heading > 0 && style.heading != heading {
                    f(Element {
                        tag: HEADINGS[style.heading as usize - 1],
                        node: None,
                    });
                }
                heading = style.heading;
            }
            Item::Image { .. } => {
                heading = 0;
                f(Element {
                    tag: "img",
                    node: None,
                });
            }
            Item::Break => heading = 0,
        }
    }
}

const HEADINGS: [&str; 6] = ["h1", "h2", "h3", "h4", "h5", "h6"];

/// The repetitions of `seq` (§3.4): each subsequence of length `2..=min(n/2, MAX_PATTERN)`
/// occurring at least twice without overlap, with its non-overlapping count; longest first,
/// then by first occurrence.
pub(crate) fn repetitions<T: Eq + std::hash::Hash + Copy>(seq: &[T]) -> Vec<(Vec<T>, usize)> {
    let n = seq.len();
    let mut out = Vec::new();
    for m in (2..=(n / 2).min(MAX_PATTERN)).rev() {
        // Start positions of each window, in order.
        let mut starts: HashMap<&[T], Vec<usize>> = HashMap::new();
        let mut order: Vec<&[T]> = Vec::new();
        for i in 0..=n - m {
            let window = &seq[i..i + m];
            let positions = starts.entry(window).or_default();
            if positions.is_empty() {
                order.push(window);
            }
            positions.push(i);
        }
        for window in order {
            let count = non_overlapping(&starts[window], m);
            if count >= 2 {
                out.push((window.to_vec(), count));
            }
        }
    }
    out
}

/// How many of the (sorted) `starts` of a pattern of length `m` can be taken without two
/// overlapping, taken greedily from the left.
fn non_overlapping(starts: &[usize], m: usize) -> usize {
    let mut count = 0;
    let mut free = 0;
    for &s in starts {
        if s >= free {
            count += 1;
            free = s + m;
        }
    }
    count
}

/// The key patterns of `seq` (§3.4): its repetitions that no longer repetition contains;
/// longest first, then most frequent, then first.
pub(crate) fn key_patterns<T: Eq + std::hash::Hash + Copy>(seq: &[T]) -> Vec<(Vec<T>, usize)> {
    let reps = repetitions(seq);
    let mut keys: Vec<(Vec<T>, usize)> = reps
        .iter()
        .filter(|(p, _)| {
            !reps
                .iter()
                .any(|(q, _)| q.len() > p.len() && q.windows(p.len()).any(|w| w == p.as_slice()))
        })
        .cloned()
        .collect();
    // Stable: equal length and count keep their order of first occurrence.
    keys.sort_by(|a, b| b.0.len().cmp(&a.0.len()).then(b.1.cmp(&a.1)));
    keys
}

/// The blocks of `seq` cut by `key` (§3.5), as index ranges: a virtual node from each match of
/// `key` up to the next match, or, when every tag of `key` is the same, the run of its matches;
/// the elements outside any virtual node each a block of its own.
pub(crate) fn virtual_nodes<T: Eq + Copy>(seq: &[T], key: &[T]) -> Vec<std::ops::Range<usize>> {
    let m = key.len();
    let mut matches = Vec::new();
    let mut i = 0;
    while m > 0 && i + m <= seq.len() {
        if &seq[i..i + m] == key {
            matches.push(i);
            i += m;
        } else {
            i += 1;
        }
    }
    let Some(&first) = matches.first() else {
        return (0..seq.len()).map(|i| i..i + 1).collect();
    };
    let mut out: Vec<std::ops::Range<usize>> = (0..first).map(|i| i..i + 1).collect();
    if key.iter().all(|t| *t == key[0]) {
        // Runs of adjacent matches, each one virtual node; the rest alone.
        let mut at = first;
        let mut k = 0;
        while k < matches.len() {
            let start = matches[k];
            out.extend((at..start).map(|i| i..i + 1));
            let mut end = start + m;
            k += 1;
            while k < matches.len() && matches[k] == end {
                end += m;
                k += 1;
            }
            out.push(start..end);
            at = end;
        }
        out.extend((at..seq.len()).map(|i| i..i + 1));
    } else {
        for (k, &start) in matches.iter().enumerate() {
            let end = matches.get(k + 1).copied().unwrap_or(seq.len());
            out.push(start..end);
        }
    }
    out
}

/// The number of important tags of each node's subtree, the node's own tag not counted:
/// its child containers, headings and images, and theirs (hidden nodes count nothing).
pub(crate) fn tags_below(tree: &TagTree) -> Vec<u32> {
    let mut below: Vec<u32> = (0..tree.nodes.len())
        .map(|id| {
            let id = id as NodeId;
            let mut n = 0;
            if !tree.node(id).hidden {
                for_each_child_element(tree, id, |_| n += 1);
            }
            n
        })
        .collect();
    for id in (1..tree.nodes.len()).rev() {
        let node = &tree.nodes[id];
        if let Some(parent) = node.parent.filter(|_| !node.hidden) {
            below[parent as usize] += below[id];
        }
    }
    below
}

/// One block of the segmented node.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Block {
    /// Its elements, as a range of the node's child sequence.
    pub elements: std::ops::Range<usize>,
    /// Its importance: the important tags in it and below it (§3.6).
    pub importance: u32,
}

/// The page cut into blocks: the node whose child sequence is segmented, that sequence, and
/// its blocks.
#[derive(Debug, Clone)]
pub(crate) struct Segmentation<'a> {
    /// The segmented node: the first below the root with more than one child element.
    pub node: NodeId,
    /// Its child sequence.
    pub sequence: Vec<Element<'a>>,
    /// Its blocks, in order.
    pub blocks: Vec<Block>,
}

/// Segments the page (§3.3-§3.6).
pub(crate) fn segment(tree: &TagTree) -> Option<Segmentation<'_>> {
    if tree.nodes.is_empty() {
        return None;
    }
    let mut node: NodeId = 0;
    let mut sequence = child_sequence(tree, node);
    // Through wrappers: a node whose one child element is a container.
    while let [
        Element {
            node: Some(child), ..
        },
    ] = sequence.as_slice()
    {
        node = *child;
        sequence = child_sequence(tree, node);
    }
    let below = tags_below(tree);
    let tags: Vec<&str> = sequence.iter().map(|e| e.tag).collect();
    let ranges = match key_patterns(&tags[..tags.len().min(MAX_SCANNED)]).first() {
        Some((key, _)) => virtual_nodes(&tags, key),
        None => (0..tags.len()).map(|i| i..i + 1).collect(),
    };
    let blocks = ranges
        .into_iter()
        .map(|elements| {
            let importance = sequence[elements.clone()]
                .iter()
                .map(|e| 1 + e.node.map_or(0, |id| below[id as usize]))
                .sum();
            Block {
                elements,
                importance,
            }
        })
        .collect();
    Some(Segmentation {
        node,
        sequence,
        blocks,
    })
}

/// The key-pattern cleaner (see the module documentation).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct KeyPattern {
    /// Its parameters.
    pub params: KeyPatternParams,
}

impl Cleaner for KeyPattern {
    fn kind(&self) -> crate::CleanerKind {
        crate::CleanerKind::KeyPattern
    }

    fn clean(&self, tree: &TagTree) -> Cleaned {
        let Some(seg) = segment(tree) else {
            return Cleaned::empty(tree);
        };
        let mut decisions = vec![Decision::outside(); tree.nodes.len()];
        let mut kept = vec![false; tree.nodes.len()];
        let mut counts = Counts::default();
        let mut any = false;
        let (mut headings, mut kept_headings) = (0, 0);
        for block in &seg.blocks {
            let elements = &seg.sequence[block.elements.clone()];
            let block_headings = elements.iter().filter(|e| e.tag.starts_with('h')).count();
            headings += block_headings;
            if block.importance < self.params.threshold {
                continue;
            }
            any = true;
            kept_headings += block_headings;
            for element in elements {
                if let Some(id) = element.node {
                    kept[id as usize] = true;
                    counts.add(&tree.node(id).subtree);
                }
            }
        }
        if !any {
            return Cleaned::empty(tree);
        }
        let root = seg.node;
        // The segmented node's own text is its headings (and any loose text): shown when most
        // of its headings fall in kept blocks.
        decisions[root as usize] = if kept_headings * 2 >= headings {
            Decision::kept("the segmented node: its headings in kept blocks")
        } else {
            Decision::text_dropped("the segmented node: its headings in noise blocks")
        };
        // Pre-order: a node's parent is decided before it.
        for id in root as usize + 1..tree.nodes.len() {
            let Some(parent) = tree.nodes[id].parent else {
                continue;
            };
            if parent == root {
                if kept[id] {
                    decisions[id] = Decision::kept("a block of enough important tags");
                } else {
                    decisions[id] = Decision::dropped("a block below the importance threshold");
                }
            } else if kept[parent as usize] {
                kept[id] = true;
                decisions[id] = Decision::kept("inside a kept block");
            }
        }
        if decisions[root as usize].verdict == crate::Verdict::Kept {
            counts.add(&tree.node(root).own);
        }
        Cleaned::rendered(
            tree,
            counts.block_type(),
            root,
            decisions,
            docview_measure::block_weights(tree),
        )
    }

    fn explain(&self, tree: &TagTree) -> Vec<BlockEvidence> {
        let Some(seg) = segment(tree) else {
            return Vec::new();
        };
        seg.blocks
            .iter()
            .flat_map(|block| {
                let elements = &seg.sequence[block.elements.clone()];
                let size = elements.len() as f32;
                elements.iter().filter_map(move |e| {
                    e.node.map(|node| BlockEvidence {
                        node,
                        score: block.importance as f32,
                        features: vec![("virtual_node_elements", size)],
                    })
                })
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seq(s: &str) -> Vec<&str> {
        s.split_whitespace().collect()
    }

    fn patterns(reps: &[(Vec<&str>, usize)]) -> Vec<String> {
        reps.iter().map(|(p, _)| p.join(" ")).collect()
    }

    /// §3.4's example: the repetitions of `h2 p p ul p p h2 p p p p p p div` are `h2 p`,
    /// `p p`, `h2 p p`, `p p p`, and its key patterns `h2 p p` and `p p p`.
    #[test]
    fn repetitions_and_key_patterns_of_the_papers_sequence() {
        let s = seq("h2 p p ul p p h2 p p p p p p div");
        let mut reps = patterns(&repetitions(&s));
        reps.sort();
        assert_eq!(reps, ["h2 p", "h2 p p", "p p", "p p p"]);
        assert_eq!(patterns(&key_patterns(&s)), ["h2 p p", "p p p"]);
    }

    /// Figure 2: in `A B C A B D` the only repetition is `A B`; Figure 3: a run of the same
    /// tag holds its repetitions without overlap (`a a a a`: `a a` twice, not three times).
    #[test]
    fn repetitions_do_not_overlap() {
        assert_eq!(repetitions(&seq("A B C A B D")), vec![(seq("A B"), 2)]);
        assert_eq!(repetitions(&seq("a a a a")), vec![(seq("a a"), 2)]);
        assert_eq!(repetitions(&seq("a a a")), Vec::<(Vec<&str>, usize)>::new());
        // m <= n/2: nothing in a sequence of three.
        assert!(repetitions(&seq("x y x")).is_empty());
    }

    /// §3.5: the key pattern `h2 p p` cuts the sequence at positions 1 and 7 into
    /// `h2 p p ul p p` and `h2 p p p p p p div`; the key pattern `p p p`, all one tag, groups
    /// the run `p p p p p p` into one virtual node.
    #[test]
    fn virtual_nodes_of_the_papers_example() {
        let s = seq("h2 p p ul p p h2 p p p p p p div");
        assert_eq!(virtual_nodes(&s, &seq("h2 p p")), vec![0..6, 6..14]);
        let second = &s[6..14];
        assert_eq!(virtual_nodes(second, &seq("p p p")), vec![0..1, 1..7, 7..8]);
        // No match: every element alone.
        assert_eq!(virtual_nodes(&seq("a b"), &seq("c d")), vec![0..1, 1..2]);
        // Elements before the first match stay alone.
        assert_eq!(
            virtual_nodes(&seq("x a b a b"), &seq("a b")),
            vec![0..1, 1..3, 3..5]
        );
    }

    #[test]
    fn long_sequences_stay_bounded() {
        let tags: Vec<u16> = (0..4000).map(|i| (i % 7) as u16).collect();
        let keys = key_patterns(&tags);
        assert_eq!(keys[0].0.len(), MAX_PATTERN);
    }

    /// A page under a wrapper: a menu (a list of five links: 6 important tags), a story (two
    /// sections of a heading and two paragraphs each, a repetition) and a footer. The wrapper is
    /// passed through; `h2 p p` is the key pattern; the story's virtual nodes hold 3 tags each
    /// with the threshold at 3, the menu (one `ul` with five `li`: 6) is kept too, the footer
    /// (1) is not.
    #[test]
    fn segments_below_the_wrapper_and_keeps_blocks_of_enough_tags() {
        let html = "<body><div id=wrap>\
            <ul id=menu><li><a href=/a>A</a></li><li><a href=/b>B</a></li><li><a href=/c>C</a></li>\
            <li><a href=/d>D</a></li><li><a href=/e>E</a></li></ul>\
            <h2>Rain</h2><p>It rained all week on the hills.</p><p>Rivers rose.</p>\
            <h2>Sun</h2><p>Then the sun came back.</p><p>Fields dried.</p>\
            <div id=footer>Copyright</div></div></body>";
        let tree = docview_page::build(html);
        let seg = segment(&tree).expect("segments");
        assert!(tree.node(seg.node).label.contains("#wrap"));
        let tags: Vec<&str> = seg.sequence.iter().map(|e| e.tag).collect();
        assert_eq!(tags, seq("ul h2 p p h2 p p div"));
        let blocks: Vec<(std::ops::Range<usize>, u32)> = seg
            .blocks
            .iter()
            .map(|b| (b.elements.clone(), b.importance))
            .collect();
        assert_eq!(blocks, vec![(0..1, 6), (1..4, 3), (4..8, 4)]);

        let strict = KeyPattern {
            params: KeyPatternParams { threshold: 5 },
        };
        let cleaned = strict.clean(&tree);
        assert!(cleaned.topic_text.contains('A') && !cleaned.topic_text.contains("Rain"));
        let lenient = KeyPattern {
            params: KeyPatternParams { threshold: 3 },
        };
        let cleaned = lenient.clean(&tree);
        for kept in ["Rain", "Rivers rose", "Sun", "Fields dried", "Copyright"] {
            assert!(
                cleaned.topic_text.contains(kept),
                "{kept}: {}",
                cleaned.topic_text
            );
        }
        // The footer rides with the second virtual node (h2 p p div): 4 tags.
        let none = KeyPattern {
            params: KeyPatternParams { threshold: 7 },
        };
        assert!(none.clean(&tree).topic_text.is_empty());
    }
}
