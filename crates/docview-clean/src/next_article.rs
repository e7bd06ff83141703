//! The next article of a page: what a page appends after its own article, in `<article>`
//! elements with headlines of their own.
//!
//! An article page has one article. Infinite-scroll news pages append the next story (or the
//! next several) to the one asked for, each in an `<article>` of its own with its own `<h1>`;
//! every paragraph of the next story is prose, scores as the first story's do, and the learned
//! cleaner kept both: on one Norwegian news page of fundus-dev the topic content held the
//! story and, after it, a longer one about a football manager. The page's own article is the
//! `<article>` that holds its headline (the block that repeats `<title>`) and at least one kept
//! paragraph of prose; a kept block after it, inside another `<article>` that holds an `<h1>`,
//! belongs to the next article and is dropped.
//!
//! A forum's replies, a blog's comments and a recipe's steps are also `<article>` elements after
//! the first, but without a headline of their own: they stay.

use docview_page::{Item, NodeId, TagTree};

use super::features::BlockFeatures;
use super::learned::is_prose;

/// The reason of a block dropped as part of the next article.
pub(crate) const NEXT_ARTICLE_REASON: &str =
    "inside a later <article> with its own headline (the next story of the page)";

/// The blocks that `own_kept` keeps (by node id) inside `<article>` elements after the one
/// holding the page's headline and holding an `<h1>` of their own, when the headline's
/// `<article>` holds a kept paragraph of prose. In document order; linear in the tree.
pub(crate) fn next_article_blocks(
    tree: &TagTree,
    features: &BlockFeatures,
    own_kept: &[bool],
) -> Vec<NodeId> {
    let Some(title) = features.title_block else {
        return Vec::new();
    };
    // The nearest `<article>` of each node, itself included (parents come before children).
    let n = tree.nodes.len();
    let mut article: Vec<Option<NodeId>> = vec![None; n];
    for (i, node) in tree.nodes.iter().enumerate() {
        article[i] = if &*node.tag == "article" {
            Some(i as NodeId)
        } else {
            node.parent.and_then(|p| article[p as usize])
        };
    }
    let Some(own) = article[title as usize] else {
        return Vec::new();
    };
    // Which nodes lie inside the page's own article (parents come before children).
    let mut inside = vec![false; n];
    for (i, node) in tree.nodes.iter().enumerate() {
        inside[i] = i == own as usize || node.parent.is_some_and(|p| inside[p as usize]);
    }
    let kept = |id: NodeId| own_kept.get(id as usize).copied().unwrap_or(false);
    let holds_prose = features
        .nodes
        .iter()
        .any(|&id| kept(id) && inside[id as usize] && is_prose(tree, id));
    if !holds_prose {
        return Vec::new();
    }
    // Whether each node's subtree holds `<h1>` text (children come after parents).
    let mut headline = vec![false; n];
    for i in (0..n).rev() {
        let node = &tree.nodes[i];
        headline[i] |= node
            .items
            .iter()
            .any(|item| matches!(item, Item::Text { style, .. } if style.heading == 1));
        if headline[i]
            && let Some(p) = node.parent
        {
            headline[p as usize] = true;
        }
    }
    features
        .nodes
        .iter()
        .copied()
        .filter(|&id| id > own && kept(id))
        .filter(|&id| {
            // The `<article>` holding the block: after the page's own (an `<article>` around
            // the page's own would come before it) and with its own headline.
            article[id as usize].is_some_and(|a| a > own && headline[a as usize])
                && !inside[id as usize]
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_pages::{dropped_words, words as prose};

    /// The first two words of each block `next_article_blocks` drops on `html`, every block kept.
    fn dropped(html: &str) -> Vec<String> {
        dropped_words(html, next_article_blocks, 2)
    }

    #[test]
    fn a_later_article_with_its_own_headline_is_dropped_replies_are_not() {
        let page = |next: &str| {
            format!(
                "<html><head><title>Tide pools at dawn</title></head><body><main>\
                 <article><h1>Tide pools at dawn</h1><p>{}</p><p>{}</p></article>{next}\
                 </main></body></html>",
                prose(40, "tide"),
                prose(35, "pool")
            )
        };
        // An infinite-scroll page's next story: its headline and its paragraphs go.
        let next = format!(
            "<article><h1>Moths of the salt marsh</h1><p>{}</p><p>{}</p></article>",
            prose(40, "moth"),
            prose(30, "marsh")
        );
        assert_eq!(
            dropped(&page(&next)),
            ["Moths of", "moth moth", "marsh marsh"]
        );
        // Replies or comments, articles without a headline of their own, stay.
        let replies = format!(
            "<article><p>{}</p></article><article><h3>Reply</h3><p>{}</p></article>",
            prose(30, "reply"),
            prose(20, "thanks")
        );
        assert!(dropped(&page(&replies)).is_empty());
        // A headline outside any article, or an article of its headline alone, decides
        // nothing: the article may be the second element.
        let outside = format!(
            "<html><head><title>Tide pools at dawn</title></head><body><h1>Tide pools at dawn</h1>\
             <article><h1>Elsewhere</h1><p>{}</p></article></body></html>",
            prose(40, "tide")
        );
        assert!(dropped(&outside).is_empty());
        let header_alone = format!(
            "<html><head><title>Tide pools at dawn</title></head><body>\
             <article><h1>Tide pools at dawn</h1></article>\
             <article><h1>Tide pools</h1><p>{}</p><p>{}</p></article></body></html>",
            prose(40, "tide"),
            prose(35, "pool")
        );
        assert!(dropped(&header_alone).is_empty());
    }
}
