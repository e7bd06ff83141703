//! Rendering a subtree of the tag tree as plain text: headings and list items on lines of their
//! own, blocks separated by blank lines, like the `main_content` of the evaluation corpora.

use super::{Item, NodeId, TagTree};

/// Text of a subtree, as paragraphs.
#[derive(Debug, Clone, Default)]
pub struct Rendered {
    /// One entry per block that holds text, in document order; lines inside joined by `\n`.
    pub paragraphs: Vec<String>,
}

impl Rendered {
    /// The paragraphs separated by blank lines.
    pub fn text(&self) -> String {
        self.paragraphs.join("\n\n")
    }
}

/// Accumulates lines and paragraphs.
#[derive(Default)]
struct Writer {
    out: Rendered,
    para: String,
    line: String,
}

impl Writer {
    fn push(&mut self, s: &str) {
        if self.line.is_empty() {
            self.line.push_str(s.trim_start());
        } else {
            self.line.push_str(s);
        }
    }

    fn end_line(&mut self) {
        let l = self.line.trim_end();
        if !l.is_empty() {
            if !self.para.is_empty() {
                self.para.push('\n');
            }
            self.para.push_str(l);
        }
        self.line.clear();
    }

    fn end_paragraph(&mut self) {
        self.end_line();
        if !self.para.is_empty() {
            self.out.paragraphs.push(std::mem::take(&mut self.para));
        }
    }
}

/// How much of a block a rendering shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Show {
    /// The block's own text and its child blocks (as they choose).
    All,
    /// Only its child blocks: its own text is left out.
    ChildrenOnly,
    /// Nothing of it, nor of anything below it.
    Nothing,
}

/// Renders the subtree under `root`, asking `show` about each block (hidden blocks are never
/// shown). Image alt texts are included when `with_alt` is set.
pub fn render(
    tree: &TagTree,
    root: NodeId,
    with_alt: bool,
    show: &dyn Fn(NodeId) -> Show,
) -> Rendered {
    let mut w = Writer::default();
    if tree.nodes.is_empty() {
        return w.out;
    }
    // Stack of (node, shows its own text, next item index).
    let mut stack: Vec<(NodeId, bool, usize)> = match show(root) {
        Show::Nothing => Vec::new(),
        s => vec![(root, s == Show::All, 0)],
    };
    while let Some((id, own, pos)) = stack.pop() {
        let node = tree.node(id);
        let Some(item) = node.items.get(pos) else {
            w.end_paragraph();
            continue;
        };
        stack.push((id, own, pos + 1));
        match *item {
            Item::Text { start, end, .. } if own => w.push(tree.slice(start, end)),
            Item::Text { .. } => {}
            Item::Break => w.end_line(),
            Item::Image { start, end, .. } => {
                if own && with_alt && start < end {
                    w.end_line();
                    w.push(tree.slice(start, end));
                    w.end_line();
                }
            }
            Item::Child(child) => {
                if tree.node(child).hidden {
                    continue;
                }
                match show(child) {
                    Show::Nothing => {}
                    s => {
                        w.end_paragraph();
                        stack.push((child, s == Show::All, 0));
                    }
                }
            }
        }
    }
    w.end_paragraph();
    w.out
}
/// Appends `text` with `&`, `<`, `>` and `"` escaped: safe in HTML element content and in
/// double-quoted attribute values.
pub fn escape_html_into(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
}
