//! Hidden on purpose: kept blocks that the page's markup hides from its readers although the
//! tag tree shows them.
//!
//! The tag tree shows a hidden element that holds more than 30% of the page's visible terms
//! ([`Node::shown_hidden`]), for pages that hide their content until a script runs: a paywall's
//! article body, a page shown once its scripts have loaded. Two kinds of such element are not
//! that content but text the page keeps out of sight, and no reader sees them (Readability's
//! references leave them out: its `hidden-nodes` and `visibility-hidden` tests):
//! - a paragraph (`<p hidden>`): a page that hides its content until a script runs hides the
//!   element that holds the content, not one of its paragraphs;
//! - an element hidden by `visibility:hidden` that holds less than [`INVISIBLE_PAGE_SHARE`] of
//!   the page's terms: scripts that show a page once loaded hide all of it (and keep its box
//!   in the layout so that it does not jump), while a part hidden so is hidden for good (the
//!   Washington Post's navigation bar on dragnet-dev).
//!
//! Such blocks are dropped after the model's decision, so the model reads the same rows it
//! was trained on. Hiding them in the tree changed what the model is trained on across the
//! sets (dragnet-dev's pages hide their navigation so), and the retrained models moved the
//! sets by up to 0.024 F1 either way although, with the models fixed, only two pages' output
//! changed (`docs/explain/learned-cleaner.md`, Hidden on purpose).
//!
//! [`Node::shown_hidden`]: docview_page::Node::shown_hidden

use docview_page::{Hiding, NodeId, TagTree};

use super::features::BlockFeatures;

/// The share of the page's terms a `visibility:hidden` element must hold to be the page's
/// content hidden until a script runs.
pub(crate) const INVISIBLE_PAGE_SHARE: f32 = 0.9;

/// The reason of a block dropped as hidden on purpose.
pub(crate) const HIDDEN_REASON: &str =
    "hidden by the page's markup (a hidden paragraph, or visibility:hidden on part of the page)";

/// Whether each node of `tree` is, or is inside, an element the tree shows although its markup
/// hides it on purpose. Linear in the tree.
pub(crate) fn hidden_on_purpose(tree: &TagTree) -> Vec<bool> {
    let page_terms = tree.nodes.first().map_or(0, |root| root.subtree.terms) as f32;
    let mut hidden = vec![false; tree.nodes.len()];
    // Parents come before their children.
    for (i, node) in tree.nodes.iter().enumerate() {
        let above = node.parent.is_some_and(|p| hidden[p as usize]);
        hidden[i] = above
            || match node.shown_hidden {
                None => false,
                Some(_) if &*node.tag == "p" => true,
                Some(Hiding::Invisible) => {
                    (node.subtree.terms as f32) < INVISIBLE_PAGE_SHARE * page_terms
                }
                Some(Hiding::Removed) => false,
            };
    }
    hidden
}

/// The blocks that `own_kept` keeps (by node id) and `hidden` ([`hidden_on_purpose`]) marks, in
/// document order.
pub(crate) fn hidden_blocks(
    features: &BlockFeatures,
    own_kept: &[bool],
    hidden: &[bool],
) -> Vec<NodeId> {
    features
        .nodes
        .iter()
        .copied()
        .filter(|&id| own_kept.get(id as usize).copied().unwrap_or(false) && hidden[id as usize])
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_pages::{dropped_words, words};

    /// The first word of each block `hidden_blocks` drops on a page of a headline, a paragraph
    /// of 40 words and `rest`, every block kept.
    fn dropped(rest: &str) -> Vec<String> {
        let html = format!(
            "<body><h1>Tide</h1><p>{}</p>{rest}</body>",
            words(40, "sand")
        );
        dropped_words(
            &html,
            |tree, features, kept| hidden_blocks(features, kept, &hidden_on_purpose(tree)),
            1,
        )
    }

    #[test]
    fn hidden_paragraphs_and_invisible_parts_go_a_hidden_article_body_stays() {
        // A hidden paragraph, shown by the tree because it is long, goes.
        let paragraph = format!("<p hidden>{}</p>", words(40, "secret"));
        assert_eq!(dropped(&paragraph), ["secret"]);
        let shown = format!("<p style='display:none'>{}</p>", words(40, "secret"));
        assert_eq!(dropped(&shown), ["secret"]);
        // So does every block of a part of the page hidden by `visibility:hidden`.
        let invisible = format!(
            "<div style='visibility: hidden'><p>{}</p><p>{}</p></div>",
            words(30, "menu"),
            words(30, "more")
        );
        assert_eq!(dropped(&invisible), ["menu", "more"]);
        // An article body hidden until a script runs stays: in a hidden container, or as
        // nearly the whole page under `visibility:hidden`.
        let paywall = format!(
            "<div class=paywall hidden><p>{}</p></div>",
            words(80, "story")
        );
        assert!(dropped(&paywall).is_empty());
        let whole = format!(
            "<div style='visibility:hidden'><p>{}</p></div>",
            words(400, "story")
        );
        assert!(dropped(&whole).is_empty());
        // A short hidden paragraph is not in the tree's counts at all: nothing to drop.
        assert!(dropped("<p hidden>short secret</p>").is_empty());
    }
}
