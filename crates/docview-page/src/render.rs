//! Rendering a subtree of the tag tree as plain text: headings and list items on lines of their
//! own, blocks separated by blank lines, like the `main_content` of the evaluation corpora.

use super::{Item, NodeId, Style, TagTree};

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
    /// Its pictures and its child blocks: its own text is left out, its own images stay (a
    /// figure whose caption is dropped). Text renderings show it as [`Show::ChildrenOnly`].
    Pictures,
    /// Nothing of it, nor of anything below it.
    Nothing,
}

/// What [`walk`] meets in a subtree, in document order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step<'t> {
    /// A run of text of a block whose own text is shown.
    Text(&'t str, Style),
    /// A line break inside a block (`<br>`, the edges of a heading or list item).
    Break,
    /// An image; its alt text (may be empty) when its block's own text is shown.
    Image(Option<&'t str>),
    /// A child block, `shown` when the walk goes into it next (it is not hidden, and `show`
    /// does not say [`Show::Nothing`]).
    Child {
        /// Whether the walk goes into it.
        shown: bool,
        /// Whether it is inline code of its own ([`Node::is_inline_code`]): a part of its
        /// parent's line, not a paragraph.
        ///
        /// [`Node::is_inline_code`]: crate::Node::is_inline_code
        inline: bool,
    },
    /// The end of a block the walk went into.
    End {
        /// Whether it is inline code of its own.
        inline: bool,
    },
}

/// Walks the subtree under `root`, asking `show` about each block (hidden blocks are never
/// shown), and hands each [`Step`] to `visit`: the one traversal of every rendering of a
/// subtree ([`render`], and the lines a page's headline is looked for in).
pub fn walk<'t>(
    tree: &'t TagTree,
    root: NodeId,
    show: &dyn Fn(NodeId) -> Show,
    mut visit: impl FnMut(Step<'t>),
) {
    if tree.nodes.is_empty() {
        return;
    }
    // Stack of (node, shows its own text, next item index).
    let mut stack: Vec<(NodeId, bool, usize)> = match show(root) {
        Show::Nothing => Vec::new(),
        s => vec![(root, s == Show::All, 0)],
    };
    while let Some((id, own, pos)) = stack.pop() {
        let Some(item) = tree.node(id).items.get(pos) else {
            let inline = tree.node(id).is_inline_code();
            visit(Step::End { inline });
            continue;
        };
        stack.push((id, own, pos + 1));
        match *item {
            Item::Text { start, end, style } if own => {
                visit(Step::Text(tree.slice(start, end), style));
            }
            Item::Text { .. } => {}
            Item::Break => visit(Step::Break),
            Item::Image { start, end, .. } => {
                visit(Step::Image(own.then(|| tree.slice(start, end))));
            }
            Item::Child(child) => {
                let node = tree.node(child);
                // Inline code made a node of its own for its name (a code token's span,
                // `<code class="inline">`) is a part of its parent's line, not a paragraph,
                // and is shown as its parent's own text is, whatever was decided of it,
                // unless hidden.
                let inline = node.is_inline_code();
                let show = if own && inline {
                    Show::All
                } else {
                    show(child)
                };
                let shown = !node.hidden
                    && match show {
                        Show::Nothing => false,
                        s => {
                            stack.push((child, s == Show::All, 0));
                            true
                        }
                    };
                visit(Step::Child { shown, inline });
            }
        }
    }
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
    walk(tree, root, show, |step| match step {
        Step::Text(text, _) => w.push(text),
        Step::Break => w.end_line(),
        Step::Image(Some(alt)) if with_alt && !alt.is_empty() => {
            w.end_line();
            w.push(alt);
            w.end_line();
        }
        Step::Image(_) | Step::Child { shown: false, .. } | Step::Child { inline: true, .. } => {}
        Step::End { inline: true } => {}
        Step::Child { shown: true, .. } | Step::End { inline: false } => w.end_paragraph(),
    });
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::build;

    /// The text of `html` with every node but the root left out by `show`, as a cleaner that
    /// kept only the paragraph's block would have it.
    fn kept_root_only(html: &str) -> String {
        let tree = build(html);
        let root = tree.root().unwrap();
        // The paragraph is the block that holds the text: keep it and its ancestors, decide
        // every other node out.
        let p = tree.nodes.iter().position(|n| &*n.tag == "p").unwrap() as NodeId;
        let mut kept = vec![false; tree.nodes.len()];
        let mut at = Some(p);
        while let Some(id) = at {
            kept[id as usize] = true;
            at = tree.node(id).parent;
        }
        let show = |id: NodeId| {
            if kept[id as usize] {
                Show::All
            } else {
                Show::Nothing
            }
        };
        render(&tree, root, false, &show).text()
    }

    #[test]
    fn inline_code_stays_on_its_parents_line_whatever_was_decided_of_it() {
        // Issue 43: inline code with a class of its own was a paragraph of its own.
        let text = kept_root_only(
            "<body><p>The second paragraph explains the <code class=\"inline text-code\">\
             ProductTable</code> component, which lists the products.</p></body>",
        );
        assert_eq!(
            text,
            "The second paragraph explains the ProductTable component, which lists the products."
        );
        // A code block's token spans, named by a class, are the code's own text.
        let text = kept_root_only(
            "<body><p><code><span class=\"code-diff_keyword\">import</span><span \
             class=\"code-diff_text\"> { </span><span class=\"code-diff_variable\">View</span>\
             <span class=\"code-diff_text\"> } </span><span class=\"code-diff_keyword\">from\
             </span><span class=\"code-diff_text\"> '</span>react<span \
             class=\"code-diff_text\">'</span></code></p></body>",
        );
        assert_eq!(text, "import { View } from 'react'");
        // A hidden one stays out (in a paragraph long enough for its hiding to count).
        let text = kept_root_only(
            "<body><p>Read the <span class=\"sr-only\">screen reader </span>guide, which says \
             how to set up the device and what each of its buttons does.</p></body>",
        );
        assert_eq!(
            text,
            "Read the guide, which says how to set up the device and what each of its buttons does."
        );
    }
}
