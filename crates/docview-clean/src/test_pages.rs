//! Hand-made pages for the decision rules' unit tests: prose of a given length, and the blocks
//! a rule drops on a page whose blocks are all kept.

use docview_page::{Item, NodeId, TagTree, build};

use crate::Framework;
use crate::features::{BlockFeatures, block_features};
use crate::framework::Analysis;

/// `n` words `word`, a sentence end after every tenth.
pub(crate) fn words(n: usize, word: &str) -> String {
    (1..=n)
        .map(|i| {
            if i % 10 == 0 {
                format!("{word}.")
            } else {
                word.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// A page's tree, the framework's analysis and its feature rows.
pub(crate) fn rows(html: &str) -> (TagTree, Analysis, BlockFeatures) {
    let tree = build(html);
    let analysis = Framework::default().analyse(&tree).unwrap();
    let features = block_features(&tree, &analysis);
    (tree, analysis, features)
}

/// The own text of each block `rule` drops on `html`, every block kept, in its order.
pub(crate) fn dropped_texts(
    html: &str,
    rule: fn(&TagTree, &BlockFeatures, &[bool]) -> Vec<NodeId>,
) -> Vec<String> {
    let (tree, _, features) = rows(html);
    let kept = vec![true; tree.nodes.len()];
    rule(&tree, &features, &kept)
        .into_iter()
        .map(|id| {
            let mut text = String::new();
            for item in &tree.node(id).items {
                if let Item::Text { start, end, .. } = *item {
                    text.push_str(tree.slice(start, end));
                }
            }
            text
        })
        .collect()
}

/// The first `n` words of each block `rule` drops on `html`, every block kept, in its order.
pub(crate) fn dropped_words(
    html: &str,
    rule: fn(&TagTree, &BlockFeatures, &[bool]) -> Vec<NodeId>,
    n: usize,
) -> Vec<String> {
    dropped_texts(html, rule)
        .iter()
        .map(|text| {
            text.split_whitespace()
                .take(n)
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect()
}
