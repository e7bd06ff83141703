//! Captions: the text a `<figure>` sets beside its picture.
//!
//! A caption and its credit ("A mother and her children sell bread in Ecatepec ... (AP
//! Photo/...)") describe the picture, not the story: news extractors' references leave them
//! out (fundus-dev's per-publisher parsers), and a caption is often printed twice (in the
//! article and in the picture's lightbox). So captions go on an article, a post (a prose page:
//! [`CaptionRule::OnProsePages`](super::favor::CaptionRule), the default), where the labelled
//! sets' references leave them out of the story, though Readability's references and docview's
//! own labelled samples keep them; on every page when a user favours precision, on none when
//! they favour recall. A page of items (a listing, a product page) keeps its captions by
//! default: they are often its items' names.
//!
//! A kept block inside a `<figure>`, with no table, list, quotation or code between it and the
//! figure (WordPress sets its tables, pull quotes and embeds in `<figure>`), and no heading, is
//! a caption and is dropped, unless such blocks hold more than [`FIGURE_SHARE`] of what the
//! page keeps: then the figures are the page (a gallery, a page laid out in figure elements)
//! and stay. A dropped caption's block that holds the figure's picture keeps the picture
//! ([`Verdict::PicturesKept`](crate::Verdict::PicturesKept)): the Markdown and the topic content
//! page show it without the caption.

use docview_page::{NodeId, TagTree};

use super::features::BlockFeatures;

/// The largest share of the kept terms that captions may hold and still be dropped.
pub(crate) const FIGURE_SHARE: f32 = 0.2;

/// The reason of a block dropped as a caption.
pub(crate) const CAPTION_REASON: &str = "a caption inside a <figure>";

/// What a node is on the way up from a block to its `<figure>`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Place {
    /// Neither in a figure nor in a container a figure may hold.
    Outside,
    /// In a figure, with nothing but captions' containers between.
    Caption,
    /// In a table, a list, a quotation or code (inside a figure or not).
    Held,
}

/// The blocks that `own_kept` keeps (by node id) and that are captions, in document order;
/// empty when captions hold more than [`FIGURE_SHARE`] of the kept terms. Linear in the tree.
pub(crate) fn caption_blocks(
    tree: &TagTree,
    features: &BlockFeatures,
    own_kept: &[bool],
) -> Vec<NodeId> {
    // Each node's place (parents come before children): a figure makes a caption place, a
    // table, list, quotation or code block under it holds its text as the figure's content.
    let mut place = vec![Place::Outside; tree.nodes.len()];
    for (i, node) in tree.nodes.iter().enumerate() {
        let above = node.parent.map_or(Place::Outside, |p| place[p as usize]);
        place[i] = match &*node.tag {
            "figure" => Place::Caption,
            "table" | "tbody" | "thead" | "tr" | "td" | "th" | "ul" | "ol" | "li" | "dl"
            | "blockquote" | "pre" | "code"
                if above != Place::Outside =>
            {
                Place::Held
            }
            _ => above,
        };
    }
    let (mut kept_terms, mut caption_terms) = (0u64, 0u64);
    let mut captions = Vec::new();
    for (k, &id) in features.nodes.iter().enumerate() {
        if !own_kept.get(id as usize).copied().unwrap_or(false) {
            continue;
        }
        let terms = u64::from(tree.node(id).own.terms);
        kept_terms += terms;
        // A block of no terms of its own in a figure is its picture: it stays.
        if place[id as usize] == Place::Caption && terms > 0 && !features.is_heading(k) {
            caption_terms += terms;
            captions.push(id);
        }
    }
    if caption_terms as f64 > f64::from(FIGURE_SHARE) * kept_terms as f64 {
        return Vec::new();
    }
    captions
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_pages::{dropped_words, words as prose};

    /// The first word of each block `caption_blocks` drops on `html`, every block kept.
    fn dropped(html: &str) -> Vec<String> {
        dropped_words(html, caption_blocks, 1)
    }

    #[test]
    fn a_figures_caption_goes_its_table_list_and_quotation_stay() {
        let article = |figure: &str| {
            format!(
                "<body><article><h1>Tide pools</h1><p>{}</p>{figure}<p>{}</p></article></body>",
                prose(60, "tide"),
                prose(60, "pool")
            )
        };
        let caption = "<figure><img src=a.jpg><figcaption>Anemones at low tide. \
                       Photo: J. Harkness</figcaption></figure>";
        assert_eq!(dropped(&article(caption)), ["Anemones"]);
        let held = "<figure><table><tr><td>Crab</td><td>12</td></tr></table></figure>\
                    <figure><ul><li>Limpet</li><li>Whelk</li></ul></figure>\
                    <figure><blockquote><p>The sea gives and takes.</p></blockquote></figure>\
                    <figure><pre>tide --low</pre></figure>";
        assert!(dropped(&article(held)).is_empty());
        // A page of figures (a gallery): its captions are its text and stay.
        let gallery: String = (0..6)
            .map(|i| {
                format!(
                    "<figure><img src={i}.jpg><figcaption>{}</figcaption></figure>",
                    prose(20, "shell")
                )
            })
            .collect();
        assert!(dropped(&article(&gallery)).is_empty());
    }
}
