//! Quantitative measure (004 §3.2): block weight by Algorithm 1, feature vectors by Formula 2 and
//! the cosine of Formula 3.

#![deny(missing_docs)]

use rustc_hash::FxHashMap;
use serde::Serialize;

use docview_page::{Item, NodeId, TagTree};
use docview_text::{Analyzer, Language};

/// The force a leaf block passes to its parent and to each sibling ("pforce" of Algorithm 1).
///
/// The paper leaves pforce to its Figure 2; docview passes on half of the force above 1, so a
/// block with no weighty tag (force 1) changes nothing and a heading block lifts its neighbours
/// less than itself.
fn pforce(force: f32) -> f32 {
    1.0 + (force - 1.0) / 2.0
}

/// The force of a block: the sum of its weighty tags' forces, or 1 when it has none (lines 4-9).
fn block_force(tree: &TagTree, id: NodeId) -> f32 {
    let f = tree.node(id).force;
    if f > 0.0 { f } else { 1.0 }
}

/// Block weights of every node by Algorithm 1.
///
/// Every weight starts at 1. Each leaf block multiplies its own weight by its force, and its
/// parent's and each sibling's weight by its pforce. Siblings are handled per parent in one pass
/// (the product of the leaf children's pforces, divided by a leaf's own), so a block with
/// thousands of children costs linear time.
pub fn block_weights(tree: &TagTree) -> Vec<f32> {
    let n = tree.nodes.len();
    let mut bw = vec![1.0f32; n];
    for (i, node) in tree.nodes.iter().enumerate() {
        if node.is_leaf() {
            bw[i] *= block_force(tree, i as NodeId);
        }
    }
    for (p, node) in tree.nodes.iter().enumerate() {
        if node.children.is_empty() {
            continue;
        }
        let leaf_pforce = |c: NodeId| {
            let child = tree.node(c);
            if child.is_leaf() {
                pforce(block_force(tree, c))
            } else {
                1.0
            }
        };
        let product: f32 = node.children.iter().map(|&c| leaf_pforce(c)).product();
        bw[p] *= product;
        for &c in &node.children {
            bw[c as usize] *= product / leaf_pforce(c);
        }
    }
    bw
}

/// A page (or part of one) as a feature vector (Formula 2): each feature's weight is the sum over
/// blocks of block weight times the feature's count in the block, normalised to unit length.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct FeatureVector {
    /// Features and their weights, sorted by feature.
    pub features: Vec<(String, f32)>,
}

impl FeatureVector {
    /// The `n` features of highest weight, ties broken by feature (the keywords of §6).
    pub fn top(&self, n: usize) -> Vec<(String, f32)> {
        let mut all = self.features.clone();
        all.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        all.truncate(n);
        all
    }

    /// The vector with each feature's weight multiplied by `factor(feature)` (an IDF, which
    /// brings Formula 1's collection knowledge into Formula 2), normalised to unit length again.
    pub fn scaled_by(mut self, factor: impl Fn(&str) -> f32) -> FeatureVector {
        for (term, w) in &mut self.features {
            *w *= factor(term);
        }
        self.normalised()
    }

    /// The vector scaled to unit length (left as it is when it has no weight), its norm
    /// summed in feature order.
    pub fn normalised(mut self) -> FeatureVector {
        let norm = self.features.iter().map(|f| f.1 * f.1).sum::<f32>().sqrt();
        if norm > 0.0 {
            for f in &mut self.features {
                f.1 /= norm;
            }
        }
        self
    }

    /// True when the vector has no feature.
    pub fn is_empty(&self) -> bool {
        self.features.is_empty()
    }

    /// Cosine similarity with another vector (Formula 3); 0 when either is empty.
    pub fn cosine(&self, other: &FeatureVector) -> f32 {
        let (mut i, mut j, mut dot) = (0, 0, 0.0f32);
        while i < self.features.len() && j < other.features.len() {
            match self.features[i].0.cmp(&other.features[j].0) {
                std::cmp::Ordering::Less => i += 1,
                std::cmp::Ordering::Greater => j += 1,
                std::cmp::Ordering::Equal => {
                    dot += self.features[i].1 * other.features[j].1;
                    i += 1;
                    j += 1;
                }
            }
        }
        let norm = |v: &FeatureVector| v.features.iter().map(|f| f.1 * f.1).sum::<f32>().sqrt();
        let (na, nb) = (norm(self), norm(other));
        if na == 0.0 || nb == 0.0 {
            0.0
        } else {
            dot / (na * nb)
        }
    }
}

/// The own text of a block (not its child blocks).
pub fn block_text(tree: &TagTree, id: NodeId) -> String {
    let mut text = String::new();
    for item in &tree.node(id).items {
        if let Item::Text { start, end, .. } = *item {
            text.push_str(tree.slice(start, end));
        } else if !text.ends_with(' ') {
            text.push(' ');
        }
    }
    text
}

/// The feature vector of `blocks` (Formula 2), with the block weights of Algorithm 1; stop
/// words (the language's and the analyzer's aggressive list) are filtered out.
pub fn feature_vector(
    tree: &TagTree,
    blocks: impl IntoIterator<Item = NodeId>,
    weights: &[f32],
    analyzer: &Analyzer,
    lang: Language,
) -> FeatureVector {
    let texts = blocks
        .into_iter()
        .filter(|&id| tree.node(id).own.terms > 0)
        .map(|id| {
            (
                block_text(tree, id),
                weights.get(id as usize).copied().unwrap_or(1.0),
            )
        });
    text_feature_vector(texts, analyzer, lang)
}

/// The feature vector (Formula 2) of blocks given as their own texts and block weights: what
/// [`feature_vector`] computes from the tree, for a page whose tree is gone
/// (a cleaned page kept as its weighed block texts).
pub fn text_feature_vector<S: AsRef<str>>(
    blocks: impl IntoIterator<Item = (S, f32)>,
    analyzer: &Analyzer,
    lang: Language,
) -> FeatureVector {
    let mut sums: FxHashMap<String, f32> = FxHashMap::default();
    let mut counts: FxHashMap<String, u32> = FxHashMap::default();
    for (text, bw) in blocks {
        counts.clear();
        analyzer.term_counts(text.as_ref(), lang, &mut counts);
        for (term, tf) in counts.drain() {
            *sums.entry(term).or_insert(0.0) += bw * tf as f32;
        }
    }
    // Sorted before the norm is summed: float sums in hash order would differ in the last bit
    // from run to run, and with them the order of near-tied keywords.
    let mut features: Vec<(String, f32)> = sums.into_iter().collect();
    features.sort_by(|a, b| a.0.cmp(&b.0));
    FeatureVector { features }.normalised()
}

#[cfg(test)]
mod tests {
    use super::*;
    use docview_page::build;

    /// A worked example of Algorithm 1: a body holding a div with three leaf paragraphs, the
    /// second of which is an `<h2>`-led block (force 3) and the third bold (force 1.5).
    #[test]
    fn algorithm_1_worked_example() {
        let tree = build(
            "<body><div><p>plain text here</p><div><h2>A heading</h2></div>\
             <p><b>bold words</b> and more</p></div></body>",
        );
        // nodes: 0 body, 1 div, 2 p(plain), 3 div(h2), 4 p(bold)
        assert_eq!(tree.nodes.len(), 5, "{:?}", tree.nodes);
        assert_eq!(block_force(&tree, 2), 1.0);
        assert_eq!(block_force(&tree, 3), 3.0);
        assert_eq!(block_force(&tree, 4), 1.5);
        let bw = block_weights(&tree);
        // pforce: p2 1.0, p3 2.0, p4 1.25.
        assert_eq!(bw[0], 1.0);
        assert_eq!(bw[1], 1.0 * 2.0 * 1.25);
        assert_eq!(bw[2], 1.0 * 2.0 * 1.25);
        assert_eq!(bw[3], 3.0 * 1.0 * 1.25);
        assert_eq!(bw[4], 1.5 * 1.0 * 2.0);
    }

    #[test]
    fn formula_2_weighs_terms_by_block_weight() {
        let tree = build(
            "<body><div><h2>Rivers</h2></div><p>rivers flow to the sea</p>\
             <p>the sea is salty</p></body>",
        );
        let bw = block_weights(&tree);
        let analyzer = Analyzer::new();
        let fv = feature_vector(
            &tree,
            0..tree.nodes.len() as NodeId,
            &bw,
            &analyzer,
            Language::English,
        );
        let norm: f32 = fv.features.iter().map(|f| f.1 * f.1).sum();
        assert!((norm - 1.0).abs() < 1e-5, "unit length, got {norm}");
        // "river" appears once in the heading block (weight 3 * 1 * 1) and once in a plain block
        // lifted by the heading's pforce; "salti" once in a plain block: river weighs most.
        let top = fv.top(1);
        assert_eq!(top[0].0, "river", "{fv:?}");
        assert!(
            fv.features.iter().all(|(t, _)| t != "the" && t != "is"),
            "{fv:?}"
        );
        assert!((fv.cosine(&fv) - 1.0).abs() < 1e-5);
        // An IDF that zeroes "river" leaves "sea" on top, still of unit length.
        let scaled = fv
            .clone()
            .scaled_by(|t| if t == "river" { 0.0 } else { 1.0 });
        assert_eq!(scaled.top(1)[0].0, "sea", "{scaled:?}");
        let norm: f32 = scaled.features.iter().map(|f| f.1 * f.1).sum();
        assert!((norm - 1.0).abs() < 1e-5);
        assert_eq!(fv.cosine(&FeatureVector::default()), 0.0);
    }
}
