//! The article's pictures: a block of pictures alone inside the topic content.
//!
//! The block model decides blocks by their text, and a block that holds only a picture (a
//! `<figure>`'s `<div>` around its `<img>`, a paragraph of one image) has none: it is dropped,
//! and with it the story's photographs, which a reader of the article sees as a part of it
//! (issue 43: trafilatura kept 23 article photos on 40 news pages where docview kept none).
//! Such a block keeps its pictures ([`Verdict::PicturesKept`](crate::Verdict::PicturesKept))
//! when it lies inside the topic root and nothing between it and the nearest block that holds
//! kept text is the page's furniture: no block there was dropped by a rule after the model
//! (hidden on purpose, the next article, a copy, outside the main region), none is hidden or
//! named as boilerplate (`share`, `related`, `ad` ...), and the blocks there hold no more than
//! a caption's words ([`SURROUND_TERMS`]), no anchor text, and no link but to an image file (a
//! lightbox's full-size picture): a teaser of another story links to it and names it. The
//! blocks between show their children and not their text (the caption stays out, as the
//! caption rule has it), so the topic text has the same words with or without the pictures
//! (a picture between two lines of one block parts them into two paragraphs): only the
//! Markdown and the topic content page show them.

use docview_page::{NodeId, TagTree};

/// The most terms the blocks between a picture and the kept text may hold: a caption and its
/// credit.
pub(crate) const SURROUND_TERMS: u32 = 80;

/// The reason of a block kept for its pictures.
pub(crate) const PICTURE_REASON: &str = "a picture of the topic content";

/// The reason of a block between a picture and the kept text: it shows the picture, not its
/// own text.
pub(crate) const AROUND_PICTURE_REASON: &str = "holds a picture of the topic content";

/// The article's pictures under `topic_root`.
#[derive(Debug, Default)]
pub(crate) struct Pictures {
    /// The blocks whose pictures stay.
    pub blocks: Vec<NodeId>,
    /// The blocks between them and the nearest block that holds kept text.
    pub around: Vec<NodeId>,
}

/// The article's pictures under `topic_root`, with `holds` (by node id: the node or a block
/// below it is kept) and `ruled_out` (by node id: dropped by a rule after the model's
/// decision).
pub(crate) fn article_pictures(
    tree: &TagTree,
    topic_root: NodeId,
    holds: &[bool],
    ruled_out: &dyn Fn(NodeId) -> bool,
) -> Pictures {
    let mut pictures = Pictures::default();
    // Made when the first picture is found, and when a picture's surroundings first hold a
    // link: most pages have neither.
    let mut around: Option<Vec<bool>> = None;
    let mut other_links: Option<Vec<bool>> = None;
    // Node ids are in document order: the topic root's subtree is the run of ids up to its
    // last node.
    let last = tree.last_descendant(topic_root);
    for id in topic_root..=last {
        let node = tree.node(id);
        if node.own.images == 0 || node.own.terms > 0 || holds[id as usize] {
            continue;
        }
        // The blocks from the picture's up to the nearest that holds kept text.
        let mut path = vec![id];
        let mut up = node.parent;
        while let Some(p) = up.filter(|&p| !holds[p as usize]) {
            path.push(p);
            up = tree.node(p).parent;
        }
        // The topic root holds kept text, so the walk stops at or below it.
        let Some(top) = path.last().copied() else {
            continue;
        };
        let furniture = path.iter().any(|&p| {
            let n = tree.node(p);
            n.hidden || n.hint.is_boilerplate() || ruled_out(p)
        });
        let subtree = &tree.node(top).subtree;
        if furniture || subtree.terms > SURROUND_TERMS || subtree.anchor_terms > 0 {
            continue;
        }
        if subtree.links > 0
            && other_links.get_or_insert_with(|| other_links_below(tree))[top as usize]
        {
            continue;
        }
        pictures.blocks.push(id);
        let around = around.get_or_insert_with(|| vec![false; tree.nodes.len()]);
        for &p in &path[1..] {
            if !std::mem::replace(&mut around[p as usize], true) {
                pictures.around.push(p);
            }
        }
    }
    pictures
}

/// By node id: true when the node's subtree holds a link to anything but an image file. One
/// pass over the links and one up the tree (children come after their parents).
fn other_links_below(tree: &TagTree) -> Vec<bool> {
    let mut below = vec![false; tree.nodes.len()];
    for link in &tree.links {
        if !is_image_file(&link.href)
            && let Some(b) = below.get_mut(link.node as usize)
        {
            *b = true;
        }
    }
    for i in (1..tree.nodes.len()).rev() {
        if below[i]
            && let Some(p) = tree.nodes[i].parent
        {
            below[p as usize] = true;
        }
    }
    below
}

/// True when `href`'s path ends in an image file's extension.
fn is_image_file(href: &str) -> bool {
    let path = href.split(['?', '#']).next().unwrap_or("");
    let ext = path.rsplit_once('.').map_or("", |(_, e)| e);
    ["jpg", "jpeg", "png", "webp", "gif", "avif"]
        .iter()
        .any(|e| ext.eq_ignore_ascii_case(e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_pages::words as prose;
    use crate::{Cleaner, Learned, Verdict};

    /// The Markdown-visible pictures of a page cleaned by the learned cleaner: the `src` of
    /// each image in a block kept for its pictures.
    fn pictures(html: &str) -> Vec<String> {
        let tree = docview_page::build(html);
        let cleaned = Learned::embedded().expect("model").clean(&tree);
        let mut out = Vec::new();
        for (i, d) in cleaned.decisions.iter().enumerate() {
            if d.verdict != Verdict::PicturesKept {
                continue;
            }
            for item in &tree.nodes[i].items {
                if let docview_page::Item::Image { src, .. } = item {
                    out.push(tree.images[*src as usize].to_string());
                }
            }
        }
        out
    }

    fn article(middle: &str) -> String {
        format!(
            "<body><nav><a href=/>Home</a> <a href=/news>News</a></nav><main><article>\
             <h1>The harbour wall is mended</h1><p>{}</p>{middle}<p>{}</p><p>{}</p>\
             </article></main><footer><p>Copyright the harbour gazette</p></footer></body>",
            prose(70, "wall"),
            prose(70, "stone"),
            prose(70, "tide")
        )
    }

    #[test]
    fn the_storys_photo_stays_and_its_caption_stays_out_of_the_text() {
        let html = article(
            "<figure><div class=frame><img src=/photos/wall.jpg alt=\"The mended wall\"></div>\
             <figcaption>The wall at low tide. Photo: J. Harkness</figcaption></figure>",
        );
        assert_eq!(pictures(&html), ["/photos/wall.jpg"]);
        let tree = docview_page::build(&html);
        let cleaned = Learned::embedded().expect("model").clean(&tree);
        assert!(
            !cleaned.topic_text.contains("Harkness"),
            "{}",
            cleaned.topic_text
        );
        assert!(!cleaned.topic_text.contains("mended wall"));
        // A lightbox's link to the full-size picture is no teaser.
        let lightbox = article(
            "<figure><div class=frame><a href=/photos/wall-full.JPG?w=2000>\
             <img src=/photos/wall.jpg alt=\"\"></a></div></figure>",
        );
        assert_eq!(pictures(&lightbox), ["/photos/wall.jpg"]);
    }

    #[test]
    fn a_teaser_a_share_button_and_a_hidden_picture_go() {
        let teaser = article(
            "<figure class=inline-teaser><div><a href=/news/other-story>\
             <img src=/photos/other.jpg></a></div><div><a href=/news/other-story>\
             Read also: the lighthouse gets a new lamp</a></div></figure>",
        );
        assert!(pictures(&teaser).is_empty());
        let share = article("<div class=share><img src=/img/mail.png alt=Mail></div>");
        assert!(pictures(&share).is_empty());
        let hidden = article("<div hidden><img src=/photos/wall.jpg></div>");
        assert!(pictures(&hidden).is_empty());
        let linked = article("<div><a href=/gallery><img src=/photos/wall.jpg></a></div>");
        assert!(pictures(&linked).is_empty());
    }

    #[test]
    fn image_files_are_known_by_their_extension() {
        assert!(is_image_file("/a/b.webp?w=10#x"));
        assert!(is_image_file("https://x.example/p.PNG"));
        assert!(!is_image_file("/news/story.html"));
        assert!(!is_image_file("/photos/jpg"));
    }
}
