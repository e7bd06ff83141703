//! The topic content as Markdown, rendered from the blocks the cleaner kept in the tag tree:
//! headings as `#` lines, paragraphs, lists (`-` and `1.`, nested ones indented), data tables
//! as Markdown tables, `<pre>` blocks fenced and verbatim, inline code in backticks, bold
//! (`<strong>`, `<b>`) as `**`, italics (`<em>`, `<i>`) as `*` (not in headings or code), links
//! and images with absolute URLs (resolved against the page's URL, or its declared address, and
//! its `<base href>`). A table that lays a page out (a cell holding a list, a code block, another
//! table, or several paragraphs) is rendered as the blocks it holds, not as a table.
//! [`Keep`] leaves the data tables, the links' addresses or the images out (`--no-tables`,
//! `--no-links`, `--no-images`), of the Markdown and, for tables, of the plain text too.

use std::cell::RefCell;
use std::collections::HashSet;

use docview_clean::Cleaned;
use docview_page::{Flow, Item, NodeId, Show, Style, TagTree};
use url::Url;

use crate::Extraction;

/// What a rendering of the topic content keeps beside its text, as trafilatura's
/// `include_tables`, `include_links`, `include_images` and `include_comments` say: tables,
/// links and images by default, the comments when asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Keep {
    /// Data tables (those the Markdown sets as tables; a table that lays a page out is its
    /// blocks, and stays). Without them the plain text and the Markdown leave them out.
    pub tables: bool,
    /// Links: without them the Markdown keeps a link's text, not its address.
    pub links: bool,
    /// Images: without them the Markdown has none.
    pub images: bool,
    /// The page's comments, as a field of their own beside the topic content
    /// ([`comments_of`](crate::comments_of)); never in it.
    pub comments: bool,
}

impl Keep {
    /// Tables, links and images; no comments.
    pub const DEFAULT: Keep = Keep {
        tables: true,
        links: true,
        images: true,
        comments: false,
    };
}

impl Default for Keep {
    fn default() -> Keep {
        Keep::DEFAULT
    }
}

/// The topic content of `page` as Markdown (empty when the cleaner kept nothing).
pub fn to_markdown(page: &Extraction) -> String {
    markdown_of(&page.tree, &page.cleaned, Keep::DEFAULT)
}

/// [`to_markdown`] of a tree and what a cleaner kept of it, keeping what `keep` says.
pub(crate) fn markdown_of(tree: &TagTree, cleaned: &Cleaned, keep: Keep) -> String {
    let Some(root) = cleaned.topic_root else {
        return String::new();
    };
    let r = Renderer::new(tree, cleaned, base_url(tree), keep);
    let mut blocks = Vec::new();
    if !matches!(r.show(root), Show::Nothing) {
        r.block(root, &mut blocks);
    }
    let mut out = blocks.join("\n\n");
    if !out.is_empty() {
        out.push('\n');
    }
    out
}

/// The URL relative links resolve against: the page's URL (else its canonical or `og:url`
/// address when absolute), joined with its `<base href>`.
fn base_url(tree: &TagTree) -> Option<Url> {
    let page = tree
        .url
        .as_deref()
        .or(tree.canonical.as_deref())
        .or(tree.og_url.as_deref())
        .and_then(|u| Url::parse(u).ok());
    match (&page, tree.base_href.as_deref()) {
        (Some(p), Some(b)) => p.join(b).ok().or(page),
        (None, Some(b)) => Url::parse(b).ok(),
        _ => page,
    }
}

/// Longest cell text of a table rendered as a Markdown table, in bytes.
const MAX_CELL_BYTES: usize = 400;

struct Renderer<'t> {
    tree: &'t TagTree,
    cleaned: &'t Cleaned,
    base: Option<Url>,
    keep: Keep,
    /// The addresses of the images shown so far: a picture a page repeats (in its story and
    /// its lightbox, in two sizes under one address) is shown once.
    shown_images: RefCell<HashSet<String>>,
}

/// The data tables of the topic content of `tree` as `cleaned` keeps it: the `<table>`
/// blocks its Markdown sets as tables, in document order.
pub(crate) fn data_tables(tree: &TagTree, cleaned: &Cleaned) -> Vec<NodeId> {
    let r = Renderer::new(tree, cleaned, None, Keep::DEFAULT);
    (0..tree.nodes.len() as NodeId)
        .filter(|&id| {
            tree.node(id).tag.as_ref() == "table"
                && r.show(id) != Show::Nothing
                && r.table(id).is_some()
        })
        .collect()
}

/// The inline content of one block being written: lines of the current paragraph.
#[derive(Default)]
struct Inline {
    /// The line being written.
    line: String,
    /// The heading level of its text (0: not a heading).
    heading: u8,
    /// The link open in `line`: its index in [`TagTree::links`].
    link: Option<usize>,
    /// The emphasis open in `line`, and where its markers begin.
    emphasis: Option<(Emphasis, usize)>,
}

/// Bold, italic or both, as a run of text is set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Emphasis {
    strong: bool,
    em: bool,
}

impl Emphasis {
    /// The emphasis Markdown shows of `style`: none in a heading (bold already) or in code.
    fn of(style: Style) -> Option<Emphasis> {
        (style.heading == 0 && !style.code && (style.strong || style.em)).then_some(Emphasis {
            strong: style.strong,
            em: style.em,
        })
    }

    /// Its opening markers (`**`, `*`, `***`); the closing ones are the same.
    fn markers(self) -> &'static str {
        match (self.strong, self.em) {
            (true, true) => "***",
            (true, false) => "**",
            _ => "*",
        }
    }
}

impl<'t> Renderer<'t> {
    fn new(tree: &'t TagTree, cleaned: &'t Cleaned, base: Option<Url>, keep: Keep) -> Self {
        Renderer {
            tree,
            cleaned,
            base,
            keep,
            shown_images: RefCell::default(),
        }
    }

    fn show(&self, id: NodeId) -> Show {
        if self.tree.node(id).hidden {
            return Show::Nothing;
        }
        self.cleaned
            .decisions
            .get(id as usize)
            .map_or(Show::Nothing, |d| d.show())
    }

    /// The verbatim text of a `<pre>` block, if it has one.
    fn verbatim(&self, id: NodeId) -> Option<&'t str> {
        self.tree
            .verbatim
            .iter()
            .find(|(n, _)| *n == id)
            .map(|(_, t)| &**t)
    }

    /// True when block `id` shows its own text or holds a block below it that does.
    fn holds_kept(&self, id: NodeId) -> bool {
        match self.show(id) {
            Show::All => true,
            Show::Nothing => false,
            Show::ChildrenOnly | Show::Pictures => self
                .tree
                .node(id)
                .children
                .iter()
                .any(|&c| self.holds_kept(c)),
        }
    }

    /// Renders the block `id` (shown) into `out`, one entry per Markdown block.
    fn block(&self, id: NodeId, out: &mut Vec<String>) {
        let node = self.tree.node(id);
        let show = self.show(id);
        match &*node.tag {
            // Kept, or holding kept blocks (its lines written one element each): the whole
            // listing as written.
            "pre" if self.holds_kept(id) => {
                if let Some(code) = self.verbatim(id) {
                    out.push(fenced(code));
                    return;
                }
            }
            "ul" | "ol" => {
                self.list(id, node.tag.as_ref() == "ol", out);
                return;
            }
            "table" => {
                if let Some(table) = self.table(id) {
                    if self.keep.tables {
                        out.push(table);
                    }
                    return;
                }
            }
            "blockquote" => {
                let mut inner = Vec::new();
                self.children_and_text(id, show, &mut inner);
                if !inner.is_empty() {
                    out.push(quote(&inner.join("\n\n")));
                }
                return;
            }
            _ => {}
        }
        self.children_and_text(id, show, out);
    }

    /// The block's own text and pictures (as `show` says) as paragraphs and its shown child
    /// blocks, in order.
    fn children_and_text(&self, id: NodeId, show: Show, out: &mut Vec<String>) {
        let mut inline = Inline::default();
        let mut para: Vec<String> = Vec::new();
        self.items(id, show, false, &mut inline, &mut para, out);
        self.end_line(&mut inline, &mut para, out);
        flush(&mut para, out);
    }

    /// The items of block `id` (its own text when `show` is [`Show::All`], its pictures also
    /// when [`Show::Pictures`], as code when `code`) onto the current
    /// line and paragraph: a child block ends them, an inline element's text goes on with them.
    fn items(
        &self,
        id: NodeId,
        show: Show,
        code: bool,
        inline: &mut Inline,
        para: &mut Vec<String>,
        out: &mut Vec<String>,
    ) {
        for item in &self.tree.node(id).items {
            match *item {
                Item::Child(child) => {
                    let flow = self.tree.node(child).flow;
                    // Inline code is shown as its parent's text is (as the plain text does:
                    // `docview_page::render::walk`), unless hidden.
                    let child_show = if show == Show::All && self.tree.node(child).is_inline_code()
                    {
                        match self.show(child) {
                            Show::Nothing if self.tree.node(child).hidden => Show::Nothing,
                            _ => Show::All,
                        }
                    } else {
                        self.show(child)
                    };
                    if child_show == Show::Nothing {
                        continue;
                    }
                    if flow != Flow::Block {
                        let code = code || flow == Flow::InlineCode;
                        self.items(child, child_show, code, inline, para, out);
                        continue;
                    }
                    self.end_line(inline, para, out);
                    flush(para, out);
                    self.block(child, out);
                }
                Item::Image { .. } if !matches!(show, Show::All | Show::Pictures) => {}
                Item::Text { .. } | Item::Break if show != Show::All => {}
                Item::Text {
                    start,
                    end,
                    mut style,
                } => {
                    style.code |= code;
                    self.text(inline, para, out, start, end, style)
                }
                Item::Break => self.end_line(inline, para, out),
                Item::Image { start, end, src } => {
                    let alt = self.tree.slice(start, end);
                    if let Some(md) = self.image(alt, src) {
                        push_word(&mut inline.line, &md);
                    }
                }
            }
        }
    }

    /// Adds a run of text to the current line, opening and closing its link.
    fn text(
        &self,
        inline: &mut Inline,
        para: &mut Vec<String>,
        out: &mut Vec<String>,
        start: u32,
        end: u32,
        style: Style,
    ) {
        let raw = self.tree.slice(start, end);
        if style.heading != inline.heading && !inline.line.trim().is_empty() {
            self.end_line(inline, para, out);
        }
        inline.heading = style.heading;
        let link = if style.anchor && self.keep.links {
            self.link_at(start)
        } else {
            None
        };
        if inline.link.is_some() && inline.link != link {
            self.close_link(inline);
        }
        let emphasis = Emphasis::of(style);
        if inline.emphasis.map(|(e, _)| e) != emphasis {
            close_emphasis(inline);
        }
        let mut body = raw;
        if let Some(l) = link
            && inline.link.is_none()
            && self.href(l).is_some()
        {
            // An emphasis opens inside the link's brackets, and closes before them.
            close_emphasis(inline);
            let lead = raw.len() - raw.trim_start().len();
            inline.line.push_str(&raw[..lead]);
            inline.line.push('[');
            inline.link = Some(l);
            body = raw.trim_start();
        }
        if let Some(e) = emphasis
            && inline.emphasis.is_none()
            && !body.trim().is_empty()
        {
            let lead = body.len() - body.trim_start().len();
            if !inline.line.is_empty() {
                inline.line.push_str(&body[..lead]);
            }
            inline.emphasis = Some((e, inline.line.len()));
            inline.line.push_str(e.markers());
            body = body.trim_start();
        }
        push_inline(&mut inline.line, body, style.code);
        if let Some(l) = inline.link
            && self.tree.links[l].end <= end
        {
            self.close_link(inline);
        }
    }

    fn close_link(&self, inline: &mut Inline) {
        close_emphasis(inline);
        let Some(l) = inline.link.take() else {
            return;
        };
        let trail = inline.line.len() - inline.line.trim_end().len();
        let spaces = inline.line.split_off(inline.line.len() - trail);
        if inline.line.ends_with('[') {
            // A link without text: its brackets go.
            inline.line.pop();
        } else if let Some(href) = self.href(l) {
            inline.line.push_str("](");
            inline.line.push_str(&href);
            inline.line.push(')');
        }
        inline.line.push_str(&spaces);
    }

    /// The link whose anchor text starts at or before `at` and ends after it.
    fn link_at(&self, at: u32) -> Option<usize> {
        let links = &self.tree.links;
        let i = links.partition_point(|l| l.start <= at);
        (i > 0 && links[i - 1].end > at).then(|| i - 1)
    }

    fn href(&self, l: usize) -> Option<String> {
        resolve(self.base.as_ref(), &self.tree.links[l].href)
    }

    fn image(&self, alt: &str, src: u32) -> Option<String> {
        if !self.keep.images {
            return None;
        }
        let src = self.tree.images.get(src as usize)?;
        let url = resolve(self.base.as_ref(), src)
            .filter(|u| !u.starts_with("data:") && !is_furniture_image(u))?;
        let md = format!("![{}]({url})", escape(alt));
        self.shown_images.borrow_mut().insert(url).then_some(md)
    }

    /// Ends the current line: a heading becomes a block of its own, other lines join the
    /// paragraph.
    fn end_line(&self, inline: &mut Inline, para: &mut Vec<String>, out: &mut Vec<String>) {
        self.close_link(inline);
        let line = inline.line.trim().to_string();
        inline.line.clear();
        if line.is_empty() {
            return;
        }
        if inline.heading > 0 {
            flush(para, out);
            out.push(format!(
                "{} {}",
                "#".repeat(inline.heading as usize),
                line.replace('\n', " ")
            ));
        } else {
            para.push(line);
        }
    }

    /// A list: each shown `li` child as an item, `1.`-numbered for `ol`, its nested blocks
    /// indented under it.
    fn list(&self, id: NodeId, ordered: bool, out: &mut Vec<String>) {
        let mut items: Vec<String> = Vec::new();
        let mut n = 0;
        for &child in &self.tree.node(id).children {
            if self.show(child) == Show::Nothing {
                continue;
            }
            let mut blocks = Vec::new();
            self.block(child, &mut blocks);
            if blocks.is_empty() {
                continue;
            }
            n += 1;
            let marker = if ordered {
                format!("{n}. ")
            } else {
                "- ".to_string()
            };
            // A nested list follows its item's text directly (a tight list).
            let mut body = String::new();
            for b in &blocks {
                if !body.is_empty() {
                    body.push_str(if is_list(b) { "\n" } else { "\n\n" });
                }
                body.push_str(b);
            }
            let indent = " ".repeat(marker.len());
            let mut item = String::new();
            for (i, line) in body.lines().enumerate() {
                if i == 0 {
                    item.push_str(&marker);
                } else {
                    item.push('\n');
                    if !line.is_empty() {
                        item.push_str(&indent);
                    }
                }
                item.push_str(line);
            }
            items.push(item);
        }
        // The list's own text, if any, before its items.
        if self.show(id) == Show::All {
            let mut own = Vec::new();
            let mut inline = Inline::default();
            let mut para = Vec::new();
            for item in &self.tree.node(id).items {
                match *item {
                    Item::Text { start, end, style } => {
                        self.text(&mut inline, &mut para, &mut own, start, end, style)
                    }
                    Item::Break => self.end_line(&mut inline, &mut para, &mut own),
                    _ => {}
                }
            }
            self.end_line(&mut inline, &mut para, &mut own);
            flush(&mut para, &mut own);
            out.extend(own);
        }
        if !items.is_empty() {
            out.push(items.join("\n"));
        }
    }

    /// A data table as a Markdown table: its `tr` rows (the first one the header), cells
    /// padded to the widest row. `None` for a layout table.
    fn table(&self, id: NodeId) -> Option<String> {
        let mut rows: Vec<Vec<String>> = Vec::new();
        let tree = self.tree;
        for &tr in &tree.node(id).children {
            if tree.node(tr).tag.as_ref() == "caption" {
                continue;
            }
            if tree.node(tr).tag.as_ref() != "tr" {
                return None;
            }
            if self.show(tr) == Show::Nothing {
                continue;
            }
            let mut cells = Vec::new();
            for &cell in &tree.node(tr).children {
                let tag = tree.node(cell).tag.as_ref();
                if tag != "td" && tag != "th" {
                    return None;
                }
                let mut blocks = Vec::new();
                if self.show(cell) != Show::Nothing {
                    self.block(cell, &mut blocks);
                }
                // A cell of several blocks, or of a list, a table, code or a heading, lays
                // the page out. Known from the tree, not the rendering: a cell's text may
                // begin as a list item's does ("1. Jacksonville, FL" in a ranking).
                let layout = blocks.len() > 1
                    || tree.descendants(cell).into_iter().skip(1).any(|d| {
                        matches!(tree.node(d).tag.as_ref(), "ul" | "ol" | "table" | "pre")
                    })
                    || blocks.iter().any(|b| b.starts_with("```") || is_heading(b));
                let text = blocks.join(" ").replace('\n', " ").replace('|', "\\|");
                if layout || text.len() > MAX_CELL_BYTES {
                    return None;
                }
                cells.push(text);
            }
            if !cells.is_empty() {
                rows.push(cells);
            }
        }
        let width = rows.iter().map(Vec::len).max()?;
        if rows.len() < 2 && width < 2 {
            return None;
        }
        let mut out = String::new();
        for (i, row) in rows.iter().enumerate() {
            out.push('|');
            for c in 0..width {
                out.push(' ');
                out.push_str(row.get(c).map_or("", String::as_str));
                out.push_str(" |");
            }
            if i == 0 {
                out.push_str("\n|");
                for _ in 0..width {
                    out.push_str(" --- |");
                }
            }
            if i + 1 < rows.len() {
                out.push('\n');
            }
        }
        Some(out)
    }
}

/// Parts of an image's address that mark it as the page's furniture rather than the article's
/// picture: share buttons (AddThis, ShareThis), icons, tracking pixels and spacers (and the
/// placeholders and spinners a lazy-loading page shows before its script swaps the picture
/// in), logos, print headers. Looked for in the address lowercased.
const FURNITURE_IMAGE_PARTS: [&str; 27] = [
    "addthis",
    "sharethis",
    "share-button",
    "sharebutton",
    "share_button",
    "/share/",
    "social-icon",
    "icon",
    "pixel.gif",
    "spacer.gif",
    "blank.gif",
    "1x1.",
    "trans.gif",
    "transparent.gif",
    "spinner",
    "loading",
    "placeholder",
    "/logo",
    "logo.",
    "-logo",
    "_logo",
    "print-header",
    "printheader",
    "facebook.com/tr",
    "doubleclick.net",
    "/tracking",
    "vgwort",
];

/// True when the image at `url` is the page's furniture ([`FURNITURE_IMAGE_PARTS`]).
fn is_furniture_image(url: &str) -> bool {
    let url = url.to_ascii_lowercase();
    FURNITURE_IMAGE_PARTS.iter().any(|part| url.contains(part))
}

/// True when a rendered block is a Markdown heading (`#` to `######` and a space).
fn is_heading(block: &str) -> bool {
    let hashes = block.len() - block.trim_start_matches('#').len();
    (1..=6).contains(&hashes) && block[hashes..].starts_with(' ')
}

/// True when a rendered block is a list.
fn is_list(block: &str) -> bool {
    block.starts_with("- ")
        || block
            .split_once(". ")
            .is_some_and(|(n, _)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// Closes the emphasis open on `inline`'s line, before its trailing spaces (`**bold** `).
fn close_emphasis(inline: &mut Inline) {
    let Some((e, at)) = inline.emphasis.take() else {
        return;
    };
    let trail = inline.line.len() - inline.line.trim_end().len();
    let spaces = inline.line.split_off(inline.line.len() - trail);
    if inline.line.len() == at + e.markers().len() {
        // Nothing was set in it: its opening markers go.
        inline.line.truncate(at);
    } else {
        inline.line.push_str(e.markers());
    }
    inline.line.push_str(&spaces);
}

/// Ends a paragraph: its lines joined as one Markdown block.
fn flush(para: &mut Vec<String>, out: &mut Vec<String>) {
    if !para.is_empty() {
        out.push(para.join("\n"));
        para.clear();
    }
}

/// Appends a run of text, escaped, or as inline code.
fn push_inline(line: &mut String, text: &str, code: bool) {
    if code && !text.trim().is_empty() {
        let lead = text.len() - text.trim_start().len();
        let trail = text.len() - text.trim_end().len();
        line.push_str(&text[..lead]);
        let body = text.trim();
        let ticks = "`".repeat(longest_run(body, '`') + 1);
        let pad = if body.starts_with('`') || body.ends_with('`') {
            " "
        } else {
            ""
        };
        line.push_str(&ticks);
        line.push_str(pad);
        line.push_str(body);
        line.push_str(pad);
        line.push_str(&ticks);
        line.push_str(&text[text.len() - trail..]);
    } else {
        let text = if line.is_empty() {
            text.trim_start()
        } else {
            text
        };
        line.push_str(&escape(text));
    }
}

/// Appends an image or other unit with a space before it when the line does not end in one.
fn push_word(line: &mut String, word: &str) {
    if !line.is_empty() && !line.ends_with(char::is_whitespace) {
        line.push(' ');
    }
    line.push_str(word);
}

/// Text with the characters Markdown would read as markup escaped.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(c, '\\' | '`' | '*' | '_' | '[' | ']' | '<') {
            out.push('\\');
        }
        out.push(c);
    }
    // A line that starts like a heading, a list item or a quote stays text.
    let mut chars = out.chars();
    let starts_block = matches!(
        (chars.next(), chars.next()),
        (Some('#' | '>'), _) | (Some('-' | '+' | '='), Some(' ') | None)
    );
    if starts_block {
        out.insert(0, '\\');
    }
    out
}

/// The longest run of `c` in `text`.
fn longest_run(text: &str, c: char) -> usize {
    let (mut best, mut run) = (0, 0);
    for ch in text.chars() {
        if ch == c {
            run += 1;
            best = best.max(run);
        } else {
            run = 0;
        }
    }
    best
}

/// A code block fenced with more backticks than it holds in a row, its text verbatim.
fn fenced(code: &str) -> String {
    let fence = "`".repeat(longest_run(code, '`').max(2) + 1);
    format!("{fence}\n{}\n{fence}", code.trim_end_matches(['\n', '\r']))
}

/// Markdown blocks as a block quote.
fn quote(text: &str) -> String {
    text.lines()
        .map(|l| {
            if l.is_empty() {
                ">".to_string()
            } else {
                format!("> {l}")
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// A link target as an absolute URL: joined to `base` when there is one; `None` for an empty
/// target and a script.
fn resolve(base: Option<&Url>, href: &str) -> Option<String> {
    let href = href.trim();
    if href.is_empty() || href.len() > 2048 {
        return None;
    }
    let lower = href.get(..11).unwrap_or(href).to_ascii_lowercase();
    if lower.starts_with("javascript:") {
        return None;
    }
    let url = match base {
        Some(b) => b.join(href).ok()?.to_string(),
        None => match Url::parse(href) {
            Ok(u) => u.to_string(),
            Err(_) => href.to_string(),
        },
    };
    // Parentheses and spaces would end a Markdown link target early.
    Some(
        url.replace(' ', "%20")
            .replace('(', "%28")
            .replace(')', "%29"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use docview_clean::Decision;
    use docview_page::{PageType, build};

    /// The Markdown of a page whose blocks are all kept but its `nav` and `footer`.
    fn markdown(html: &str, url: Option<&str>) -> String {
        let mut tree = build(html);
        tree.url = url.map(str::to_string);
        let decisions = tree
            .nodes
            .iter()
            .map(|n| match &*n.tag {
                "nav" | "footer" => Decision::dropped("furniture"),
                _ => Decision::kept("kept"),
            })
            .collect();
        let weights = vec![1.0; tree.nodes.len()];
        let cleaned = Cleaned::rendered(&tree, PageType::Topic, 0, decisions, weights);
        markdown_of(&tree, &cleaned, Keep::DEFAULT)
    }

    const FILLER: &str = "<p>The harbor board met on Tuesday evening to hear the engineers' \
        report on the ferry dock, which has settled by four inches since the spring storms.</p>";

    #[test]
    fn share_buttons_pixels_icons_and_logos_are_left_out_and_the_articles_photo_kept() {
        // Issue 43: an AddThis button was kept where the article's photos were not.
        let html = format!(
            "<html><body><article><h1>Ferry dock repairs</h1>{FILLER}\
             <p><img src=\"/uploads/2024/dock-at-low-tide.jpg\" alt=\"The dock at low tide\"> \
             The dock at low tide, photographed from the pier this week.</p>\
             <p>Share: <img src=\"https://s7.addthis.com/static/btn/v2/lg-share-en.gif\" \
             alt=\"Share\"> <img src=\"/img/pixel.gif\" alt=\"\"> <img \
             src=\"/static/common/img/blank.gif\" alt=\"A mug shot\"> <img \
             src=\"/theme/img/icons/star.svg\" alt=\"star\"> <img \
             src=\"/theme/harbor-logo.png\" alt=\"Harbor Notes\"> <img \
             src=\"/assets/icon-spinner-animated.svg\" alt=\"Loading...\"> \
             <img src=\"/uploads/2024/dock-at-low-tide.jpg\" alt=\"Zoom\"></p>\
             </article></body></html>"
        );
        let md = markdown(&html, Some("https://news.example.com/2024/dock.html"));
        assert!(
            md.contains(
                "![The dock at low tide](https://news.example.com/uploads/2024/dock-at-low-tide.jpg)"
            ),
            "{md}"
        );
        // The photo once, though the page shows it twice.
        assert_eq!(md.matches("![").count(), 1, "{md}");
        // A picture whose name says 1x1 as its shape stays.
        assert!(!is_furniture_image(
            "https://shop.example/files/Lifestyle_Desktop_1x1_478b.jpg?width=1024"
        ));
    }

    #[test]
    fn bold_and_italic_are_kept() {
        let md = markdown(
            "<html><body><article><h2>A <strong>bold</strong> head</h2><p>The dock is \
             <strong>closed</strong> until <em>further notice</em>; <b><i>both</i> and bold</b>, \
             <a href=\"/a\"><b>a bold link</b></a>, <em><a href=\"/b\">a link</a> in italics</em>, \
             <b> </b>an empty one, <strong>a * star</strong> and <code><b>code</b></code>.</p>\
             </article></body></html>",
            Some("https://harbor.example/"),
        );
        assert!(
            md.contains("## A bold head"),
            "no emphasis in a heading: {md}"
        );
        assert!(
            md.contains(
                "The dock is **closed** until *further notice*; ***both*** **and bold**, \
                 [**a bold link**](https://harbor.example/a), [*a link*](https://harbor.example/b) \
                 *in italics*, an empty one, **a \\* star** and `code`."
            ),
            "{md}"
        );
    }

    #[test]
    fn headings_paragraphs_links_and_images() {
        let html = format!(
            "<html><body><nav><a href=/>Home</a> <a href=/news>News</a></nav><article>\
             <h1>Ferry dock repairs</h1>{FILLER}\
             <p>Read the <a href=\"/reports/dock.pdf\">engineers' report</a> and the \
             <a href=\"https://example.org/minutes\">minutes</a> of the meeting, which ran long.</p>\
             <p><img src=\"img/dock.jpg\" alt=\"The dock at low tide\"> The dock at low tide, \
             photographed from the pier by the harbor master this week.</p>\
             </article><footer>© Harbor Notes</footer></body></html>"
        );
        let md = markdown(&html, Some("https://news.example.com/2024/dock.html"));
        assert!(md.starts_with("# Ferry dock repairs\n\n"), "{md}");
        assert!(
            md.contains("[engineers' report](https://news.example.com/reports/dock.pdf)"),
            "{md}"
        );
        assert!(
            md.contains("[minutes](https://example.org/minutes)"),
            "{md}"
        );
        assert!(
            md.contains("![The dock at low tide](https://news.example.com/2024/img/dock.jpg)"),
            "{md}"
        );
        assert!(!md.contains("Home"), "{md}");
    }

    #[test]
    fn lists_nested_and_numbered() {
        let html = format!(
            "<html><body><article><h2>Steps</h2>{FILLER}\
             <ol><li>Close the ramp to cars and foot traffic</li>\
             <li>Drive new piles<ul><li>steel on the east side</li><li>timber on the west</li></ul></li>\
             <li>Reopen after the load test</li></ol>{FILLER}</article></body></html>"
        );
        let md = markdown(&html, None);
        assert!(md.contains("1. Close the ramp to cars and foot traffic\n2. Drive new piles\n   - steel on the east side\n   - timber on the west\n3. Reopen after the load test"), "{md}");
    }

    #[test]
    fn data_tables_become_markdown_tables() {
        let html = format!(
            "<html><body><article>{FILLER}<table><thead><tr><th>Pier</th><th>Settling</th></tr></thead>\
             <tbody><tr><td>North</td><td>4 in</td></tr><tr><td>South | old</td><td>1 in</td></tr></tbody>\
             </table>{FILLER}</article></body></html>"
        );
        let md = markdown(&html, None);
        assert!(
            md.contains(
                "| Pier | Settling |\n| --- | --- |\n| North | 4 in |\n| South \\| old | 1 in |"
            ),
            "{md}"
        );
    }

    #[test]
    fn a_ranking_whose_cells_begin_as_list_items_is_a_table() {
        // wcxb-dev 0243: "1. Jacksonville, FL" in a cell is the rank, not a list.
        let html = format!(
            "<html><body><article><h1>Cities</h1>{FILLER}<table><tr><th>Bottom Large \
             Cities</th><th>Score</th></tr><tr><td>1. Jacksonville, FL</td><td>16.6</td></tr>\
             <tr><td>2. San Antonio, TX</td><td>18.3</td></tr><tr><td># of cities</td>\
             <td>15</td></tr></table>{FILLER}</article></body></html>"
        );
        let md = markdown(&html, None);
        assert!(md.contains("| 1. Jacksonville, FL | 16.6 |"), "{md}");
        assert!(md.contains("| \\# of cities | 15 |"), "{md}");
        assert!(is_heading("## Cities") && !is_heading("#1 pick") && !is_heading("####### x"));
    }

    #[test]
    fn layout_tables_stay_blocks() {
        let html = format!(
            "<html><body><table><tr><td>{FILLER}{FILLER}</td><td><ul><li>a</li><li>b</li></ul></td></tr>\
             </table></body></html>"
        );
        let md = markdown(&html, None);
        assert!(!md.contains("| --- |"), "{md}");
        assert!(md.contains("The harbor board met"), "{md}");
    }

    #[test]
    fn code_blocks_verbatim_and_inline_code() {
        let html = format!(
            "<html><body><article>{FILLER}<p>Run <code>dock --check</code> first, as the \
             engineers asked in their report to the harbor board.</p>\
             <pre><code>fn main() {{\n    let depth = 4; // inches\n    println!(\"{{depth}} * 2\");\n}}</code></pre>\
             {FILLER}</article></body></html>"
        );
        let md = markdown(&html, None);
        assert!(md.contains("Run `dock --check` first"), "{md}");
        assert!(
            md.contains("```\nfn main() {\n    let depth = 4; // inches\n    println!(\"{depth} * 2\");\n}\n```"),
            "{md}"
        );
    }

    /// An inline element made a node of its own (its class names content, or boilerplate)
    /// stays on its paragraph's line: react.dev's `<code class="inline text-code">`.
    #[test]
    fn inline_elements_with_a_class_stay_inline() {
        let html = format!(
            "<html><body><article>{FILLER}<p>The second paragraph explains the <code \
             class=\"inline text-code\">ProductTable</code> component, which renders the rows, and \
             the <span class=\"article-text\">header row</span> above them.</p>\
             </article></body></html>"
        );
        let tree = build(&html);
        let flows: Vec<(&str, Flow)> = tree
            .nodes
            .iter()
            .filter(|n| n.flow != Flow::Block)
            .map(|n| (&*n.tag, n.flow))
            .collect();
        assert_eq!(flows, [("code", Flow::InlineCode), ("span", Flow::Inline)]);
        let md = markdown(&html, None);
        assert!(
            md.contains(
                "The second paragraph explains the `ProductTable` component, which renders the \
                 rows, and the header row above them."
            ),
            "{md}"
        );
    }

    /// Code written one element a line (react.dev, Stripe's docs): one fenced block with
    /// every line, brackets included.
    #[test]
    fn code_written_one_element_a_line_is_one_fenced_block() {
        let html = format!(
            "<html><body><article>{FILLER}<pre><code><div class=\"line\">[</div>\
             <div class=\"line\">  {{ a: 1 }},</div><div class=\"line\">]</div></code></pre>\
             {FILLER}</article></body></html>"
        );
        let md = markdown(&html, None);
        assert!(md.contains("```\n[\n  { a: 1 },\n]\n```"), "{md}");
        assert_eq!(md.matches("a: 1").count(), 1, "{md}");
    }

    #[test]
    fn markdown_characters_in_text_are_escaped() {
        let html = format!(
            "<html><body><article>{FILLER}<p>Costs rose 5*2 times [est.] for the_dock in 2024, \
             the board heard from its treasurer on Tuesday.</p></article></body></html>"
        );
        let md = markdown(&html, None);
        assert!(md.contains("5\\*2 times \\[est.\\] for the\\_dock"), "{md}");
    }
}
