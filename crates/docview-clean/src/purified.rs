//! The topic content page (004 §4.2): the topic content reorganised into an HTML page in its
//! original layout. The kept container blocks keep their tags, nesting and order; headings stay
//! headings; images keep their `src` (as the page wrote it) and alt text. Two pages of one template give topic content pages of
//! one template.

use super::Cleaned;
use docview_page::escape_html_into;
use docview_page::{Item, NodeId, Show, TagTree};

/// The topic content page of a cleaned page, as a standalone UTF-8 HTML document.
pub fn topic_content_page(tree: &TagTree, cleaned: &Cleaned) -> String {
    let mut out = String::from("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>");
    escape_html_into(&mut out, &cleaned.title);
    out.push_str("</title></head>\n<body>\n");
    if let Some(root) = cleaned.topic_root {
        write_blocks(tree, cleaned, root, &mut out);
    }
    out.push_str("</body></html>\n");
    out
}

/// Writes the kept blocks under `root`, iteratively.
fn write_blocks(tree: &TagTree, cleaned: &Cleaned, root: NodeId, out: &mut String) {
    // (node, what it shows of itself, next item); a node is closed when its items run out.
    let mut stack: Vec<(NodeId, Show, usize)> = Vec::new();
    let open = |id: NodeId, out: &mut String| {
        let tag = html_tag(&tree.node(id).tag);
        out.push('<');
        out.push_str(tag);
        out.push('>');
    };
    match cleaned.decisions[root as usize].show() {
        Show::Nothing => return,
        show => {
            open(root, out);
            stack.push((root, show, 0));
        }
    }
    let mut heading = 0u8;
    while let Some((id, show, pos)) = stack.pop() {
        let own = show == Show::All;
        let node = tree.node(id);
        let Some(item) = node.items.get(pos) else {
            close_heading(&mut heading, out);
            out.push_str("</");
            out.push_str(html_tag(&node.tag));
            out.push_str(">\n");
            continue;
        };
        stack.push((id, show, pos + 1));
        match *item {
            Item::Text { start, end, style } if own => {
                if style.heading != heading {
                    close_heading(&mut heading, out);
                    if style.heading > 0 {
                        out.push_str(&format!("<h{}>", style.heading));
                        heading = style.heading;
                    }
                }
                escape_html_into(out, tree.slice(start, end));
            }
            Item::Break if own && heading == 0 => out.push_str("<br>"),
            Item::Image { start, end, src } if own || show == Show::Pictures => {
                out.push_str("<img");
                if let Some(src) = tree.images.get(src as usize).filter(|s| !s.is_empty()) {
                    out.push_str(" src=\"");
                    escape_html_into(out, src);
                    out.push('"');
                }
                out.push_str(" alt=\"");
                escape_html_into(out, tree.slice(start, end));
                out.push_str("\">");
            }
            Item::Child(child) => {
                let show = cleaned.decisions[child as usize].show();
                if !tree.node(child).hidden && show != Show::Nothing {
                    close_heading(&mut heading, out);
                    open(child, out);
                    stack.push((child, show, 0));
                }
            }
            _ => {}
        }
    }
}

fn close_heading(heading: &mut u8, out: &mut String) {
    if *heading > 0 {
        out.push_str(&format!("</h{heading}>"));
        *heading = 0;
    }
}

/// The tag written for a block: its own, except the document-level ones.
fn html_tag(tag: &str) -> &str {
    match tag {
        "html" | "body" => "div",
        t => t,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Cleaner, Framework};
    use docview_page::build;

    #[test]
    fn keeps_layout_and_escapes() {
        let html = "<html><head><title>T &amp; U</title></head><body>\
            <nav><a href=/>Home</a> <a href=/a>About</a></nav>\
            <article><p>A first paragraph with enough words to be the topic \
            content of this page, a &lt;b&gt; tag written as text.</p><div><h2>Heading</h2></div>\
            <p>A second paragraph follows it with more words about the same topic here.</p>\
            </article><footer>Copyright</footer></body></html>";
        let tree = build(html);
        let cleaned = Framework::default().clean(&tree);
        let page = topic_content_page(&tree, &cleaned);
        assert!(page.contains("<title>T &amp; U</title>"), "{page}");
        assert!(page.contains("<h2>Heading</h2>"), "{page}");
        assert!(page.contains("<p>A first paragraph"), "{page}");
        assert!(page.contains("a &lt;b&gt; tag"), "{page}");
        assert!(!page.contains("Home"), "{page}");
        assert!(!page.contains("Copyright"), "{page}");
    }

    #[test]
    fn images_keep_their_src() {
        let html = "<html><body><article><p>A paragraph with enough words to be the topic \
            content of this page, about the harbor and its boats.</p>\
            <p>The boats at dawn <img src=\" /img/boat.jpg?a=1&amp;b=2 \" alt=\"A boat\"> \
            <img alt=none> as the harbor master saw them from the pier this morning.</p>\
            <p>A second paragraph follows it with more words about the same harbor here.</p>\
            </article></body></html>";
        let tree = build(html);
        let cleaned = Framework::default().clean(&tree);
        let page = topic_content_page(&tree, &cleaned);
        assert!(
            page.contains("<img src=\"/img/boat.jpg?a=1&amp;b=2\" alt=\"A boat\">"),
            "{page}"
        );
        assert!(page.contains("<img alt=\"none\">"), "{page}");
    }
}
