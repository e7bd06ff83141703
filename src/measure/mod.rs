//! Quantitative measure (004 §3.2): block weight by Algorithm 1, feature vectors by Formula 2 and
//! the cosine of Formula 3.

use crate::page::{NodeId, TagTree};

/// The force a leaf block passes to its parent and to each sibling ("pforce" of Algorithm 1).
///
/// The paper leaves pforce to its Figure 2; docview passes on half of the force above 1, so a
/// block with no weighty tag (force 1) changes nothing and a heading block lifts its neighbours
/// less than itself.
pub fn pforce(force: f32) -> f32 {
    1.0 + (force - 1.0) / 2.0
}

/// The force of a block: the sum of its weighty tags' forces, or 1 when it has none (lines 4-9).
pub fn block_force(tree: &TagTree, id: NodeId) -> f32 {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::build;

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
}
