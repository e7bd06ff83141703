//! A page's comments: the readers' thread under an article, as a field of its own
//! (`extract --format jsonl --comments`, Python `extract(comments=True)`), as trafilatura's
//! `include_comments` gives them beside the text.
//!
//! The comment section is read from the markup, not from the cleaner's decision: the
//! outermost blocks whose class or id names them comments (`comments`, `comment-list`,
//! `disqus_thread`: the tag tree's [`Hint`] of that word), visible, not in code, of
//! [`MIN_TERMS`] terms or more and not mostly links (a "12 comments" link is no thread). The reply form inside
//! (WordPress's `comment-respond`, a `reply-form`) is left out. Each section is rendered as the
//! plain text is (blocks as paragraphs), the sections in document order with a blank line
//! between. A thread a script loads (Disqus, most news sites' own) is not in the page, and
//! there are then no comments to give.

use docview_page::{Hint, NodeId, Show, TagTree, render};

/// The fewest terms a comment section holds: fewer is its furniture alone ("0 Comments",
/// "Login to comment").
pub(crate) const MIN_TERMS: u32 = 12;

/// The words of a class or id that name a comment section ([`Hint::Boilerplate`]'s word).
const COMMENT_WORDS: [&str; 3] = ["comments", "comment", "disqus"];

/// Parts of a block's label (`tag#id.class`, lowercased) that mark the reply form of a
/// comment section.
const REPLY_FORM_PARTS: [&str; 4] = ["respond", "reply-form", "replyform", "comment-form"];

/// The comments of the page of `tree`, as plain text; `None` when it shows none.
pub fn comments_of(tree: &TagTree) -> Option<String> {
    let visible = tree.visible_nodes();
    let mut sections: Vec<String> = Vec::new();
    // The last node of the last section taken: node ids are in document order, so a block up
    // to it is a part of that section.
    let mut inside_to: Option<NodeId> = None;
    for (i, node) in tree.nodes.iter().enumerate() {
        let id = i as NodeId;
        if inside_to.is_some_and(|last| id <= last) {
            continue;
        }
        let section = matches!(node.hint, Hint::Boilerplate(w) if COMMENT_WORDS.contains(&w));
        if !section
            || !visible[i]
            || is_reply_form(tree, id)
            || in_code(tree, id)
            || node.subtree.terms < MIN_TERMS
            || node.subtree.anchor_terms * 2 > node.subtree.terms
        {
            continue;
        }
        inside_to = Some(tree.last_descendant(id));
        let text = render(tree, id, false, &|b| {
            if tree.node(b).hidden || is_reply_form(tree, b) {
                Show::Nothing
            } else {
                Show::All
            }
        })
        .text();
        if !text.trim().is_empty() {
            sections.push(text.trim().to_string());
        }
    }
    (!sections.is_empty()).then(|| sections.join("\n\n"))
}

/// True when the block `id` is code or inside it: a source code's comment (`<span
/// class="comment">` in a `<pre>`) is no reader's.
fn in_code(tree: &TagTree, id: NodeId) -> bool {
    let mut at = Some(id);
    while let Some(n) = at {
        let node = tree.node(n);
        if matches!(&*node.tag, "pre" | "code") {
            return true;
        }
        at = node.parent;
    }
    false
}

/// True when the block `id` is a comment section's reply form ([`REPLY_FORM_PARTS`]).
fn is_reply_form(tree: &TagTree, id: NodeId) -> bool {
    let label = tree.node(id).label.to_ascii_lowercase();
    REPLY_FORM_PARTS.iter().any(|part| label.contains(part))
}

#[cfg(test)]
mod tests {
    use super::*;
    use docview_page::build;

    const STORY: &str = "<h1>The harbour wall</h1><p>The harbour wall was mended this week \
        after the winter storms broke it in two places, the council said.</p>";

    #[test]
    fn a_wordpress_thread_without_its_reply_form() {
        let tree = build(&format!(
            "<body><article>{STORY}<a href=#comments>2 comments</a></article>\
             <div id=comments class=comments-area><h2>2 thoughts on the harbour wall</h2>\
             <ol class=comment-list><li class=comment><div class=comment-author>Mal</div>\
             <p>About time the wall was fixed, it has been broken since March.</p></li>\
             <li class=comment><p>The new stones do not match the old ones at all.</p></li>\
             </ol><div id=respond class=comment-respond><h3>Leave a Reply</h3>\
             <p>Your email address will not be published.</p></div></div>\
             <footer><p>Harbour Gazette</p></footer></body>"
        ));
        let comments = comments_of(&tree).expect("comments");
        assert!(
            comments.starts_with("2 thoughts on the harbour wall"),
            "{comments}"
        );
        assert!(comments.contains("About time the wall was fixed"));
        assert!(comments.contains("do not match the old ones"));
        assert!(!comments.contains("Leave a Reply"), "{comments}");
        assert!(!comments.contains("harbour wall was mended"), "{comments}");
        assert!(!comments.contains("2 comments"), "{comments}");
    }

    #[test]
    fn no_thread_no_comments() {
        let bare = build(&format!("<body><article>{STORY}</article></body>"));
        assert_eq!(comments_of(&bare), None);
        // A link to the comments, a code's comment, a hidden thread, an empty Disqus frame:
        // none is a thread.
        let tree = build(&format!(
            "<body><article>{STORY}<p class=comments><a href=#c>Read the 12 comments on this \
             story</a></p><pre><code>wall.mend() <span class=comment>// mend the harbour \
             wall, as the council asked, before the next winter storms</span></code></pre>\
             </article><div class=comments hidden><p>A hidden reader's comment \
             on the wall</p></div><div id=disqus_thread></div></body>"
        ));
        assert_eq!(comments_of(&tree), None);
    }
}
