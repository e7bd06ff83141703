//! The markup tag tree (004 §3.1): docview's own compact tree of a page's content blocks.
//!
//! Container tags (TABLE, TR, TD, P, DIV and the HTML5 sectioning tags the paper predates) become
//! nodes; weighty tags (B, STRONG, H1-H6, ...), text, anchors and images are attached to their
//! container node as attributes, with counts of terms, anchor terms, links and images. Each node is
//! typed topic / hub / image by its anchor-term and image ratios. Scripts, styles, templates,
//! comments and hidden elements are dropped.
//!
//! The tree is built from html5ever's parse (into docview's own compact DOM, `dom.rs`) by an
//! explicit stack, never by recursion, and container depth is capped at 200 (`MAX_DEPTH`), so a
//! page of 100,000 nested elements costs neither seconds nor the stack.

#![deny(missing_docs)]

mod build;
mod declared;
mod dom;
mod hint;
mod markup;
mod nesting;
mod raw_text;
mod render;
mod signals;
mod tokenizer;

use serde::{Deserialize, Serialize};

pub use build::build;
pub use declared::{Declared, DeclaredField, DeclaredSource};
pub use hint::Hint;
pub use markup::{MARKUP_TAGS, Markup, NAME_WORDS, SCHEMA_TYPES};
pub use nesting::{MAX_PARSE_DEPTH, cap_nesting, tag_limit_offset};
pub use render::{Rendered, Show, Step, escape_html_into, render, walk};
pub use signals::{PageSignals, SIGNAL_COUNT, signal_names};
pub use tokenizer::MAX_ATTRIBUTES;

/// Index of a node in [`TagTree::nodes`]; the root (the `<body>`, or the document) is 0.
pub type NodeId = u32;

/// Container nodes deeper than this are folded into their ancestor at this depth.
pub(crate) const MAX_DEPTH: usize = 200;

/// The type of a content block or of a whole page (004 §2, §3.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PageType {
    /// Its theme is expressed concretely through text.
    Topic,
    /// Mostly links to pages about its topic.
    Hub,
    /// Its main content is images.
    Image,
}

impl PageType {
    /// The lowercase name used in JSON and reports.
    pub fn as_str(self) -> &'static str {
        match self {
            PageType::Topic => "topic",
            PageType::Hub => "hub",
            PageType::Image => "image",
        }
    }
}

/// A block is of hub type when more than this share of its terms is anchor text (§3.1).
pub const HUB_ANCHOR_RATIO: f32 = 0.5;
/// A block is of image type when it has at least one image per this many terms (§3.1).
pub(crate) const IMAGE_TERMS_PER_IMAGE: u32 = 5;

/// How a run of text is set: inside an anchor, inside a heading, inside other weighty tags.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Style {
    /// Inside `<a href>`.
    pub anchor: bool,
    /// 1-6 inside `<h1>`-`<h6>`, else 0.
    pub heading: u8,
    /// Inside a weighty tag other than a heading (b, strong, em, ...).
    pub weighty: bool,
    /// Inside inline code (`code`, `kbd`, `samp`, `tt`).
    pub code: bool,
    /// Inside `<strong>` or `<b>`: bold, as Markdown's `**`.
    pub strong: bool,
    /// Inside `<em>` or `<i>`: italic, as Markdown's `*`.
    pub em: bool,
}

/// One piece of a node's content, in document order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Item {
    /// A run of text: a byte range of [`TagTree::text`], whitespace already folded.
    Text {
        /// Start byte in [`TagTree::text`].
        start: u32,
        /// End byte in [`TagTree::text`].
        end: u32,
        /// How it is set.
        style: Style,
    },
    /// A line break inside the block (`<br>`, the edges of a heading or list item).
    Break,
    /// An image; its alt text is a byte range of [`TagTree::text`] (may be empty).
    Image {
        /// Start byte of the alt text.
        start: u32,
        /// End byte of the alt text.
        end: u32,
        /// Its `src`: an index into [`TagTree::images`].
        src: u32,
    },
    /// A child container node.
    Child(NodeId),
}

/// Counts of what a block holds.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Counts {
    /// Terms (scoring tokens) of its text.
    pub terms: u32,
    /// Terms inside anchors.
    pub anchor_terms: u32,
    /// Hyperlinks.
    pub links: u32,
    /// Images.
    pub images: u32,
}

impl Counts {
    /// Adds `other`'s counts to these.
    pub fn add(&mut self, other: &Counts) {
        self.terms += other.terms;
        self.anchor_terms += other.anchor_terms;
        self.links += other.links;
        self.images += other.images;
    }

    /// Share of terms that are anchor text (0 when there are no terms).
    pub fn anchor_ratio(&self) -> f32 {
        if self.terms == 0 {
            0.0
        } else {
            self.anchor_terms as f32 / self.terms as f32
        }
    }

    /// The block type these counts give (§3.1): hub when anchor text dominates, image when
    /// images are many for the text, else topic.
    pub fn block_type(&self) -> PageType {
        if self.terms == 0 {
            if self.images > 0 {
                PageType::Image
            } else if self.links > 0 {
                PageType::Hub
            } else {
                PageType::Topic
            }
        } else if self.anchor_ratio() > HUB_ANCHOR_RATIO {
            PageType::Hub
        } else if self.images > 0 && self.terms <= self.images * IMAGE_TERMS_PER_IMAGE {
            PageType::Image
        } else {
            PageType::Topic
        }
    }
}

/// A container node: one content block.
#[derive(Debug, Clone)]
pub struct Node {
    /// The container tag (lowercase), e.g. `div`, `td`, `article`.
    pub tag: Box<str>,
    /// `tag#id.class` (shortened), for reports.
    pub label: Box<str>,
    /// The parent node; `None` for the root.
    pub parent: Option<NodeId>,
    /// Child container nodes, in document order.
    pub children: Vec<NodeId>,
    /// Depth below the root.
    pub depth: u16,
    /// Content in document order.
    pub items: Vec<Item>,
    /// What the block itself holds (not its child blocks).
    pub own: Counts,
    /// What the block and all its descendants hold.
    pub subtree: Counts,
    /// Sum of the forces of the (non pseudo-) weighty tags in the block; 0 when it has none.
    pub force: f32,
    /// Boilerplate or content evidence from the tag, class, id and ARIA role.
    pub hint: Hint,
    /// The block's type from its own counts (§3.1).
    pub block_type: PageType,
    /// Hidden from readers (`hidden`, `display:none`, ...): left out of the counts of its
    /// ancestors and of every rendering.
    pub hidden: bool,
    /// How its markup hides it, when it does but the tree shows it anyway (`hidden` is false):
    /// it holds more than 30% of the page's visible terms, as a page that hides its content
    /// until a script runs does.
    pub shown_hidden: Option<Hiding>,
    /// How it sits in its parent's text: a block of its own, or an inline element (`<span>`,
    /// `<code>`, ...) made a node for its name hint or its hiding, whose text the Markdown
    /// rendering keeps on its parent's line. (The plain text, which classification and
    /// replica fingerprints read, still starts a paragraph for it: keeping it on the line
    /// there moved wcxb-dev's listings typed hub from 82 to 80 of 101 and the replica
    /// benchmark's keyword hits.)
    pub flow: Flow,
}

/// How a node sits in its parent's text.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Flow {
    /// A block: its text starts a paragraph of its own.
    #[default]
    Block,
    /// An inline element: its text goes on with its parent's line.
    Inline,
    /// Inline code (`code`, `kbd`, `samp`, `tt`): inline, its text set as code.
    InlineCode,
}

/// How an element's markup hides it from readers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Hiding {
    /// `hidden`, `aria-hidden="true"`, `display:none` or a hiding class (`sr-only`, ...):
    /// taken out of the layout.
    Removed,
    /// `visibility:hidden`: its box stays in the layout, empty.
    Invisible,
}

impl Node {
    /// True when the node has no child container: a leaf block of Algorithm 1.
    pub fn is_leaf(&self) -> bool {
        self.children.is_empty()
    }

    /// True when the node is a piece of code set inline, made a node of its own for its name
    /// (`<code class="inline text-code">`, a code listing's token `<span class="keyword">`):
    /// its text is its parent's, never boilerplate of its own, so renderings show it as they
    /// show its parent's text.
    pub fn is_inline_code(&self) -> bool {
        match self.flow {
            Flow::InlineCode => true,
            Flow::Inline => self
                .items
                .iter()
                .any(|i| matches!(i, Item::Text { style, .. } if style.code)),
            Flow::Block => false,
        }
    }
}

/// The markup tag tree of one page.
#[derive(Debug, Clone, Default)]
pub struct TagTree {
    /// All container nodes, in document (pre-)order: a child always comes after its parent.
    pub nodes: Vec<Node>,
    /// All text of the page, each run referenced by [`Item::Text`] ranges.
    pub text: String,
    /// The `<title>`, whitespace folded.
    pub title: String,
    /// The `lang` attribute of `<html>`, if any.
    pub lang: Option<String>,
    /// The longest `articleBody` of the page's JSON-LD, if any.
    pub json_ld_body: Option<String>,
    /// The `href` of the page's first `<base href>`, trimmed, not yet resolved.
    pub base_href: Option<String>,
    /// The `href` of the page's first `<link rel=canonical>`, trimmed, not yet resolved.
    pub canonical: Option<String>,
    /// The `content` of the page's first `<meta property=og:url>`, trimmed, not yet resolved.
    pub og_url: Option<String>,
    /// Every hyperlink (`<a href>`), in document order.
    pub links: Vec<Link>,
    /// The `src` of every image (`<img>`), in document order, trimmed, not yet resolved
    /// (empty when it has none); [`Item::Image`] indexes it.
    pub images: Vec<Box<str>>,
    /// The URL the page was fetched from, when its reader knows it. [`build`] leaves it
    /// `None`; the reader sets it. Cleaners that follow a page's links to other pages of its
    /// site (WISDOM's anchor precision) resolve hrefs against it.
    pub url: Option<String>,
    /// What the markup says about the page's kind beyond its blocks ([`Markup`]).
    pub markup: Markup,
    /// What the page declares about itself (author, dates, site name), as written, in
    /// document order.
    pub declared: Vec<Declared>,
    /// The text of each `<pre>` block as written, its whitespace kept (the block's items
    /// hold it folded, like all text): code listings rendered verbatim.
    pub verbatim: Vec<(NodeId, Box<str>)>,
    /// What the parser left out of the page to keep its cost in proportion to the page's size.
    pub cuts: ParseCuts,
}

/// What the parser leaves out of a page so that parsing costs time and memory in proportion to
/// the page's size, whatever its markup: attributes past the first [`MAX_ATTRIBUTES`] of an
/// element, and the rest of a page whose formatting elements the tree builder reopens so
/// often that it makes more elements and attributes than the page has bytes (and 100,000
/// more). Ordinary pages lose nothing.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ParseCuts {
    /// Attributes dropped past the first [`MAX_ATTRIBUTES`] of an element (duplicates, which
    /// the HTML standard drops, are not counted).
    pub attributes_dropped: u64,
    /// The byte of the HTML parsed where parsing stopped, when the tree builder made more than
    /// the page's budget; the text before it is the page.
    pub stopped_at: Option<usize>,
}

impl ParseCuts {
    /// True when nothing was left out.
    pub fn is_none(&self) -> bool {
        *self == ParseCuts::default()
    }

    /// What was left out, in words (for a record's `truncated`); `None` when nothing was.
    /// `parsed` is the length of the HTML parsed.
    pub fn describe(&self, parsed: usize) -> Option<String> {
        let mut said = Vec::new();
        if let Some(at) = self.stopped_at {
            said.push(format!(
                "HTML parsed up to byte {at} of {parsed}: the parser made more elements and \
                 attributes than the page has bytes (formatting elements reopened over and over)"
            ));
        }
        if self.attributes_dropped > 0 {
            said.push(format!(
                "{} attributes dropped past the first {MAX_ATTRIBUTES} of an element",
                self.attributes_dropped
            ));
        }
        (!said.is_empty()).then(|| said.join("; "))
    }

    /// These cuts and `other`'s, of a second parse of part of the page.
    fn and(self, other: ParseCuts) -> ParseCuts {
        ParseCuts {
            attributes_dropped: self.attributes_dropped + other.attributes_dropped,
            stopped_at: self.stopped_at.or(other.stopped_at),
        }
    }
}

/// A hyperlink: its target as written in the page and its anchor text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Link {
    /// The container node the anchor sits in.
    pub node: NodeId,
    /// The `href` attribute, trimmed, not yet resolved against the page URL.
    pub href: Box<str>,
    /// Start byte of the anchor text in [`TagTree::text`].
    pub start: u32,
    /// End byte of the anchor text in [`TagTree::text`].
    pub end: u32,
}

impl TagTree {
    /// The text of a byte range of [`TagTree::text`].
    pub fn slice(&self, start: u32, end: u32) -> &str {
        self.text.get(start as usize..end as usize).unwrap_or("")
    }

    /// The root node id (always 0 for a non-empty tree).
    pub fn root(&self) -> Option<NodeId> {
        if self.nodes.is_empty() { None } else { Some(0) }
    }

    /// The node with id `id`.
    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id as usize]
    }

    /// Ids of `id` and all its descendants, in document order.
    pub fn descendants(&self, id: NodeId) -> Vec<NodeId> {
        let mut out = Vec::new();
        let mut stack = vec![id];
        while let Some(n) = stack.pop() {
            out.push(n);
            stack.extend(self.node(n).children.iter().rev());
        }
        out
    }

    /// The last node of the subtree under `id`, in document order: node ids are in document
    /// order, so the subtree is the run of ids from `id` to it.
    pub fn last_descendant(&self, mut id: NodeId) -> NodeId {
        while let Some(&last) = self.node(id).children.last() {
            id = last;
        }
        id
    }

    /// All visible text of the page, blocks separated by blank lines: what a naive engine
    /// indexes.
    pub fn all_text(&self) -> String {
        match self.root() {
            Some(root) => render(self, root, false, &|_| Show::All).text(),
            None => String::new(),
        }
    }

    /// For each node, by id: true when a reader sees it (neither it nor an ancestor is
    /// hidden).
    pub fn visible_nodes(&self) -> Vec<bool> {
        let mut visible: Vec<bool> = Vec::with_capacity(self.nodes.len());
        for node in &self.nodes {
            let parent = node.parent.is_none_or(|p| visible[p as usize]);
            visible.push(parent && !node.hidden);
        }
        visible
    }

    /// The visible blocks that hold text of their own (a term or more), in document order: the
    /// text blocks a reader sees.
    pub fn text_blocks(&self) -> impl Iterator<Item = NodeId> + '_ {
        self.nodes
            .iter()
            .zip(self.visible_nodes())
            .enumerate()
            .filter(|(_, (node, visible))| *visible && node.own.terms > 0)
            .map(|(i, _)| i as NodeId)
    }

    /// True when `ancestor` is `node` or one of its ancestors.
    pub fn is_ancestor(&self, ancestor: NodeId, mut node: NodeId) -> bool {
        loop {
            if node == ancestor {
                return true;
            }
            match self.node(node).parent {
                Some(p) => node = p,
                None => return false,
            }
        }
    }
}
