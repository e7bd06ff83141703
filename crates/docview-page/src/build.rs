//! Building the markup tag tree from html5ever's DOM (docview's own, [`crate::dom`]),
//! iteratively.

use std::sync::OnceLock;

use html5ever::{LocalName, local_name};

use super::declared::{self, DeclaredSource};
use super::dom::{AtomMap, Data, Dom, Element, NodeIx};
use super::hint::{Hint, hint_of};
use super::markup::MarkupCounter;
use super::{Counts, Flow, Hiding, Item, Link, MAX_DEPTH, Node, NodeId, PageType, Style, TagTree};
use docview_text::count_tokens;

/// How an element takes part in the tag tree.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Role {
    /// Dropped with everything inside it.
    Drop,
    /// A container tag: a node of the tree.
    Container,
    /// A weighty tag, with its force.
    Weighty(f32),
    /// A heading: weighty, and on a line of its own.
    Heading(u8, f32),
    /// `<a>`.
    Anchor,
    /// `<img>`.
    Image,
    /// `<br>`, `<hr>`: a line break.
    Break,
    /// A block-level element that is not a container (dt, figcaption): a line of its own.
    Line,
    /// Any other element: its content belongs to the enclosing container.
    Inline,
    /// Inline code (`code`, `kbd`, `samp`, `tt`): inline, its text set as code.
    Code,
}

/// The roles of the tags that have one other than [`Role::Inline`].
const ROLES: &[(&[&str], Role)] = &[
    (
        &[
            "script", "style", "noscript", "template", "head", "svg", "math", "iframe", "object",
            "embed", "canvas", "select", "option", "optgroup", "datalist", "textarea", "input",
            "button", "audio", "video", "map", "dialog", "frameset", "frame", "title", "meta",
            "link", "base", "source", "track", "param",
        ],
        Role::Drop,
    ),
    (
        &[
            "html",
            "body",
            "table",
            "tr",
            "td",
            "th",
            "p",
            "div",
            "section",
            "article",
            "main",
            "aside",
            "nav",
            "header",
            "footer",
            "ul",
            "ol",
            "li",
            "dl",
            "dd",
            "form",
            "blockquote",
            "pre",
            "figure",
            "details",
            "fieldset",
            "address",
            "center",
            "caption",
            "menu",
            "hgroup",
            "search",
        ],
        Role::Container,
    ),
    (&["h1"], Role::Heading(1, 4.0)),
    (&["h2"], Role::Heading(2, 3.0)),
    (&["h3"], Role::Heading(3, 2.5)),
    (&["h4"], Role::Heading(4, 2.0)),
    (&["h5"], Role::Heading(5, 1.5)),
    (&["h6"], Role::Heading(6, 1.5)),
    (&["b", "strong", "big"], Role::Weighty(1.5)),
    (&["em", "i", "u", "mark", "font"], Role::Weighty(1.2)),
    (&["a"], Role::Anchor),
    (&["code", "kbd", "samp", "tt"], Role::Code),
    (&["img"], Role::Image),
    (&["br", "hr"], Role::Break),
    (
        &[
            "dt",
            "figcaption",
            "summary",
            "legend",
            "tbody",
            "thead",
            "tfoot",
            "label",
        ],
        Role::Line,
    ),
];

/// The role of an element by its tag name: one hash lookup of the interned name.
fn role_of(tag: &LocalName) -> Role {
    static MAP: OnceLock<AtomMap<Role>> = OnceLock::new();
    let map = MAP.get_or_init(|| {
        ROLES
            .iter()
            .flat_map(|(tags, role)| tags.iter().map(|t| (LocalName::from(*t), *role)))
            .collect()
    });
    map.get(tag).copied().unwrap_or(Role::Inline)
}

/// How the element's attributes hide it from readers, if they do.
fn hiding(el: &Element) -> Option<Hiding> {
    let mut invisible = false;
    if let Some(style) = el.attr(&local_name!("style")) {
        let s: String = style
            .chars()
            .filter(|c| !c.is_whitespace())
            .map(|c| c.to_ascii_lowercase())
            .collect();
        if s.contains("display:none") {
            return Some(Hiding::Removed);
        }
        invisible = s.contains("visibility:hidden");
    }
    let removed = el.attr(&local_name!("hidden")).is_some()
        || el
            .attr(&local_name!("aria-hidden"))
            .is_some_and(|v| v.eq_ignore_ascii_case("true"))
        || has_hiding_class(el);
    if removed {
        Some(Hiding::Removed)
    } else if invisible {
        Some(Hiding::Invisible)
    } else {
        None
    }
}

/// True when one of the element's classes is one that hides it.
fn has_hiding_class(el: &Element) -> bool {
    const HIDING: [&str; 5] = [
        "hidden",
        "sr-only",
        "screen-reader-text",
        "visually-hidden",
        "visuallyhidden",
    ];
    el.attr(&local_name!("class")).is_some_and(|class| {
        class
            .split_ascii_whitespace()
            .any(|c| HIDING.iter().any(|h| c.eq_ignore_ascii_case(h)))
    })
}

/// A step of the explicit-stack walk.
enum Step {
    Enter(NodeIx),
    Exit(Exit),
}

/// What to undo when leaving an element.
enum Exit {
    Container,
    Weighty {
        force: f32,
        container: NodeId,
        before: Counts,
        /// What it sets its text in, for Markdown: bold, italic, or neither.
        emphasis: Emphasis,
    },
    Heading {
        force: f32,
        container: NodeId,
        before: Counts,
    },
    /// Closes the link at this index of [`TagTree::links`].
    Anchor(usize),
    /// Leaving inline code: an inline element that also ends a run of code.
    Code,
    Line,
    /// Closes an inline element (span, time, ...).
    Inline,
    /// Nothing to undo.
    Nothing,
}

/// Builder state.
struct Builder {
    tree: TagTree,
    /// Stack of open container nodes.
    open: Vec<NodeId>,
    /// Depth of open anchors.
    anchors: u32,
    /// The markup inside `<noscript>` elements (html5ever keeps it as text).
    noscript: String,
    /// Dates shown as text read so far: the metadata reads the first
    /// [`declared::MAX_SHOWN_DATES`] only.
    shown_dates: usize,
    /// True once the page has declared a published date (JSON-LD, a meta tag, microdata):
    /// dates shown as text, which the metadata reads only where none is declared, are not
    /// looked for after it.
    date_declared: bool,
    /// Open headings (innermost level last).
    headings: Vec<u8>,
    /// Depth of open weighty tags.
    weighty: u32,
    /// Depth of open `<strong>`/`<b>` tags.
    strong: u32,
    /// Depth of open `<em>`/`<i>` tags.
    em: u32,
    /// Depth of open inline code tags.
    code: u32,
    /// True right after an inline element or anchor closed, before any text or other markup.
    after_inline: bool,
    /// True when an inline element opened right after another closed: the next text starts
    /// a new word (the browser lays such siblings out apart: `<span>2026</span><span>1h
    /// 54m</span>` is a year and a running time, not `20261h`).
    gap: bool,
    /// The markup facts of the page's elements.
    markup: MarkupCounter,
    /// The hidden nodes and how their markup hides each.
    hidden: Vec<(NodeId, Hiding)>,
}

/// Longest `<title>` kept, in characters (a title is a line, not a page: longer ones are cut).
pub(crate) const MAX_TITLE_CHARS: usize = 1_000;

/// A page whose visible text has fewer terms than this is rebuilt from its `<noscript>` markup
/// when that holds more (sites that render for crawlers there, like Discourse forums).
const NOSCRIPT_FALLBACK_TERMS: u32 = 50;

/// A hidden block holding more terms than this share of the page's visible terms is shown
/// anyway (and marked [`Node::shown_hidden`]): pages that hide their whole content until a
/// script runs, such as a paywall's article body.
const MAX_HIDDEN_SHARE: f32 = 0.3;

/// Builds the markup tag tree of an HTML document.
pub fn build(html: &str) -> TagTree {
    let (tree, noscript) = build_one(html);
    if tree.nodes[0].subtree.terms >= NOSCRIPT_FALLBACK_TERMS || noscript.len() < 64 {
        return tree;
    }
    let (mut alt, _) = build_one(&noscript);
    if alt.nodes[0].subtree.terms <= tree.nodes[0].subtree.terms {
        return tree;
    }
    alt.title = tree.title;
    alt.lang = tree.lang;
    alt.json_ld_body = tree.json_ld_body;
    alt.base_href = tree.base_href;
    alt.canonical = tree.canonical;
    alt.og_url = tree.og_url;
    alt.markup = tree.markup;
    alt.declared = tree.declared;
    alt.cuts = tree.cuts.and(alt.cuts);
    alt
}

/// Builds the tree of one document; also returns the markup of its `<noscript>` elements.
fn build_one(html: &str) -> (TagTree, String) {
    let dom = Dom::parse(html);
    let mut b = Builder {
        tree: TagTree {
            cuts: dom.cuts,
            ..TagTree::default()
        },
        open: Vec::new(),
        anchors: 0,
        noscript: String::new(),
        shown_dates: 0,
        date_declared: false,
        headings: Vec::new(),
        weighty: 0,
        strong: 0,
        em: 0,
        code: 0,
        after_inline: false,
        gap: false,
        markup: MarkupCounter::new(),
        hidden: Vec::new(),
    };
    let root = dom.root_element();
    b.read_head(&dom, root);
    b.new_node("body", "body".into(), Hint::None);
    let body = root.and_then(|r| child_element(&dom, r, &local_name!("body")));
    b.walk(&dom, body.unwrap_or(Dom::DOCUMENT));
    let noscript = std::mem::take(&mut b.noscript);
    (b.finish(), noscript)
}

/// Most bytes of a `<pre>` block's text kept verbatim.
const MAX_VERBATIM_BYTES: usize = 1 << 20;

/// The elements that start a line of their own inside a `<pre>`: code written one element a
/// line (`<div class="line">`, as react.dev and Stripe's docs write it).
const VERBATIM_LINES: [&str; 6] = ["div", "p", "li", "tr", "section", "table"];

/// The text of a `<pre>` element as written: its descendants' text, whitespace kept, one
/// newline for each `<br>` and before each element of [`VERBATIM_LINES`] that does not start
/// one already, at most [`MAX_VERBATIM_BYTES`].
fn verbatim_text(dom: &Dom, pre: NodeIx) -> String {
    let mut text = String::new();
    for node in dom.descendants(pre) {
        match dom.data(node) {
            Data::Text(t) => text.push_str(t),
            Data::Element(el) if *el.tag() == local_name!("br") => text.push('\n'),
            Data::Element(el)
                if VERBATIM_LINES.contains(&&**el.tag())
                    && !text.is_empty()
                    && !text.ends_with('\n') =>
            {
                text.push('\n')
            }
            _ => {}
        }
        if text.len() > MAX_VERBATIM_BYTES {
            let mut at = MAX_VERBATIM_BYTES;
            while !text.is_char_boundary(at) {
                at -= 1;
            }
            text.truncate(at);
            break;
        }
    }
    // A newline right after `<pre>` is not part of its content (HTML parsing drops it).
    text.strip_prefix('\n').map(str::to_string).unwrap_or(text)
}

/// The first child of `parent` that is a `tag` element.
fn child_element(dom: &Dom, parent: NodeIx, tag: &LocalName) -> Option<NodeIx> {
    dom.children(parent)
        .find(|&c| dom.element(c).is_some_and(|e| e.tag() == tag))
}

impl Builder {
    /// Title, `lang`, `<base href>`, `<link rel=canonical>`, `og:url` and JSON-LD
    /// `articleBody` from the whole document (`root`: its `<html>` element).
    fn read_head(&mut self, dom: &Dom, root: Option<NodeIx>) {
        let Some(root) = root else {
            return;
        };
        if let Some(lang) = dom.element(root).and_then(|e| e.attr(&local_name!("lang"))) {
            self.tree.lang = Some(lang.trim().to_string());
        }
        let head = child_element(dom, root, &local_name!("head"));
        for node in head.iter().flat_map(|&h| dom.descendants(h)) {
            let Some(el) = dom.element(node) else {
                continue;
            };
            self.markup.element(el);
            self.read_declared(el);
            let tag = el.tag();
            if *tag == local_name!("title") {
                if self.tree.title.is_empty() {
                    let mut title = String::new();
                    push_folded(&mut title, &dom.child_text(node));
                    truncate_chars(&mut title, MAX_TITLE_CHARS);
                    self.tree.title = title.trim().to_string();
                }
            } else if *tag == local_name!("script") {
                self.read_script(dom, node, el);
            } else if *tag == local_name!("base") {
                first_href(&mut self.tree.base_href, el);
            } else if *tag == local_name!("link") {
                if is_canonical(el) {
                    first_href(&mut self.tree.canonical, el);
                }
            } else if *tag == local_name!("meta") && self.tree.og_url.is_none() {
                self.tree.og_url = og_url(el);
            }
        }
    }

    /// Keeps the longest JSON-LD `articleBody` of a `<script type="application/ld+json">` and
    /// counts its schema.org types.
    fn read_script(&mut self, dom: &Dom, node: NodeIx, el: &Element) {
        if !el.is_json_ld() {
            return;
        }
        let Ok(value) = serde_json::from_str::<serde_json::Value>(dom.child_text(node).trim())
        else {
            return;
        };
        self.markup.json_ld_types(&value);
        let before = self.tree.declared.len();
        declared::json_ld(&value, &mut self.tree.declared);
        self.note_declared_dates(before);
        if let Some(body) = json_ld_article_body(&value)
            && self
                .tree
                .json_ld_body
                .as_ref()
                .is_none_or(|b| b.len() < body.len())
        {
            self.tree.json_ld_body = Some(body);
        }
    }

    /// Sets `date_declared` when one of the declarations from `from` on is a published date
    /// the page declares (not one it shows).
    fn note_declared_dates(&mut self, from: usize) {
        self.date_declared = self.date_declared
            || self.tree.declared[from..].iter().any(|d| {
                d.field == declared::DeclaredField::Published && d.source < DeclaredSource::Visible
            });
    }

    /// Keeps what a meta tag or an `itemprop` with a `content` or `datetime` declares
    /// ([`declared`]).
    fn read_declared(&mut self, el: &Element) {
        let before = self.tree.declared.len();
        self.read_declared_values(el);
        if self.tree.declared.len() > before {
            self.note_declared_dates(before);
        }
    }

    /// [`Builder::read_declared`]'s reading.
    fn read_declared_values(&mut self, el: &Element) {
        if *el.tag() == local_name!("meta") {
            let key = el
                .attr(&local_name!("property"))
                .or_else(|| el.attr(&local_name!("name")))
                .or_else(|| el.attr(&local_name!("itemprop")));
            let (Some(key), Some(content)) = (key, el.attr(&local_name!("content"))) else {
                return;
            };
            let key = key.trim().to_ascii_lowercase();
            if key == "parsely-page" {
                declared::parsely_page(content, &mut self.tree.declared);
            } else if let Some((field, source)) = declared::meta_key(&key) {
                declared::push_meta(&mut self.tree.declared, field, content, source);
            } else if let Some(field) = declared::itemprop(&key) {
                declared::push_declared(
                    &mut self.tree.declared,
                    field,
                    content,
                    DeclaredSource::Microdata,
                );
            }
        } else if let Some(prop) = el.attr(&local_name!("itemprop"))
            && let Some(field) = declared::itemprop(prop)
            && let Some(value) = el
                .attr(&local_name!("datetime"))
                .or_else(|| el.attr(&local_name!("content")))
        {
            declared::push_declared(
                &mut self.tree.declared,
                field,
                value,
                DeclaredSource::Microdata,
            );
        }
    }

    /// Keeps what a byline shows its reader ([`DeclaredSource::Visible`]): the `datetime` of a
    /// `<time>` with `pubdate` or inside a byline or dateline (the element or one of its three
    /// nearest ancestors has a class or id word of [`declared::byline_context`]; a comment's is
    /// not the page's), and the name of an `<a rel=author>` or of an element whose class or id
    /// says byline or author ([`declared::author_class`], [`declared::byline_name`]); the text
    /// of a microdata author or date without a `content` or `datetime`
    /// ([`DeclaredSource::Microdata`]); and, while the page has declared no date, the first
    /// [`declared::MAX_SHOWN_DATES`] dates it shows as text ([`DeclaredSource::VisibleText`]:
    /// a `<time>` without `datetime`, an element of a [`declared::date_class`]).
    fn read_visible(&mut self, dom: &Dom, node: NodeIx, el: &Element) {
        // The class and id words, lowercase, of the element and its three nearest ancestors;
        // a comment's (any of them says comment) are not the page's.
        let near = || {
            let mut words = Vec::new();
            let mut at = Some(node);
            while let Some(ix) = at.filter(|_| words.len() < 4) {
                if let Some(e) = dom.element(ix) {
                    let w = [local_name!("class"), local_name!("id")]
                        .iter()
                        .filter_map(|a| e.attr(a))
                        .collect::<Vec<_>>()
                        .join(" ")
                        .to_ascii_lowercase();
                    words.push(w);
                }
                at = dom.parent(ix);
            }
            words
        };
        let in_comment = |words: &[String]| words.iter().any(|w| w.contains("comment"));
        let tag = el.tag();
        // Every element comes here: its attributes are looked up once, and nothing is
        // allocated unless it may say something.
        let class = el.attr(&local_name!("class"));
        let id = el.attr(&local_name!("id"));
        let itemprop = el.attr(&local_name!("itemprop"));
        let datetime = el.attr(&local_name!("datetime"));
        let has_value = datetime.is_some() || el.attr(&local_name!("content")).is_some();
        // Microdata whose value is the element's text, not an attribute: a date
        // (`<span itemprop="datePublished">May 4, 2024</span>`) or an author.
        if let Some(field) = itemprop
            .filter(|_| !has_value)
            .and_then(declared::itemprop_in_text)
        {
            if !in_comment(&near()) {
                let value = dom
                    .deep_text_upto(node, 4 * declared::MAX_DATE_TEXT)
                    .map(|text| declared::fold_space(&text))
                    .filter(|text| text.len() <= declared::MAX_DATE_TEXT)
                    .and_then(|text| match field {
                        declared::DeclaredField::Author => declared::byline_name(&text),
                        _ => Some(text),
                    });
                if let Some(value) = value {
                    declared::push_declared(
                        &mut self.tree.declared,
                        field,
                        &value,
                        DeclaredSource::Microdata,
                    );
                }
            }
            return;
        }
        // A date the element shows as text: a <time> without `datetime`, an element whose
        // class or id says date (read only where the page's first such dates agree).
        let shows_date = self.shown_dates < declared::MAX_SHOWN_DATES
            && !self.date_declared
            && ((*tag == local_name!("time") && datetime.is_none())
                || class.is_some_and(declared::date_class)
                || id.is_some_and(declared::date_class));
        if shows_date && let Some(text) = dom.deep_text_upto(node, 4 * declared::MAX_DATE_TEXT) {
            let text = declared::fold_space(&text);
            if text.len() <= declared::MAX_DATE_TEXT
                && text.bytes().any(|b| b.is_ascii_digit())
                && !in_comment(&near())
            {
                self.shown_dates += 1;
                declared::push_declared(
                    &mut self.tree.declared,
                    declared::DeclaredField::Published,
                    &text,
                    DeclaredSource::VisibleText,
                );
            }
        }
        if *tag == local_name!("time") {
            let Some(datetime) = datetime else {
                return;
            };
            if itemprop.is_some() {
                return; // microdata, read as such
            }
            let words = near();
            let byline = el.attr(&LocalName::from("pubdate")).is_some()
                || words.iter().any(|w| declared::byline_context(w));
            if byline && !in_comment(&words) {
                declared::push_declared(
                    &mut self.tree.declared,
                    declared::DeclaredField::Published,
                    datetime,
                    DeclaredSource::Visible,
                );
            }
            return;
        }
        let rel_author = *tag == local_name!("a")
            && el.attr(&local_name!("rel")).is_some_and(|r| {
                r.split_whitespace()
                    .any(|w| w.eq_ignore_ascii_case("author"))
            });
        let named =
            class.is_some_and(declared::author_class) || id.is_some_and(declared::author_class);
        if (rel_author || named)
            && !in_comment(&near())
            && let Some(name) = declared::byline_name(&dom.deep_text(node))
        {
            declared::push_declared(
                &mut self.tree.declared,
                declared::DeclaredField::Author,
                &name,
                DeclaredSource::Visible,
            );
        }
    }

    /// Keeps the markup of a `<noscript>` element for the fallback of [`build`].
    fn read_noscript(&mut self, dom: &Dom, node: NodeIx) {
        self.noscript.push_str(&dom.child_text(node));
        self.noscript.push('\n');
    }

    fn current(&self) -> NodeId {
        *self.open.last().unwrap_or(&0)
    }

    fn new_node(&mut self, tag: &str, label: Box<str>, hint: Hint) -> NodeId {
        self.after_inline = false;
        self.gap = false;
        let id = self.tree.nodes.len() as NodeId;
        let parent = self.open.last().copied();
        let depth = self.open.len() as u16;
        if let Some(p) = parent {
            let pn = &mut self.tree.nodes[p as usize];
            pn.children.push(id);
            pn.items.push(Item::Child(id));
        }
        self.tree.nodes.push(Node {
            tag: tag.into(),
            label,
            parent,
            children: Vec::new(),
            depth,
            items: Vec::new(),
            own: Counts::default(),
            subtree: Counts::default(),
            force: 0.0,
            hint,
            block_type: PageType::Topic,
            hidden: false,
            shown_hidden: None,
            flow: Flow::Block,
        });
        self.open.push(id);
        id
    }

    fn push_item(&mut self, item: Item) {
        self.after_inline = false;
        self.gap = false;
        let cur = self.current() as usize;
        let items = &mut self.tree.nodes[cur].items;
        if item == Item::Break && matches!(items.last(), None | Some(Item::Break)) {
            return;
        }
        items.push(item);
    }

    fn push_text(&mut self, text: &str) {
        let gap = std::mem::take(&mut self.gap);
        self.after_inline = false;
        let start = self.tree.text.len();
        if gap
            && !self.tree.text.is_empty()
            && !self.tree.text.ends_with(' ')
            && text.starts_with(|c: char| !c.is_whitespace())
        {
            self.tree.text.push(' ');
        }
        push_folded(&mut self.tree.text, text);
        let end = self.tree.text.len();
        if start == end {
            return;
        }
        let terms = count_tokens(&self.tree.text[start..end]) as u32;
        let style = Style {
            anchor: self.anchors > 0,
            heading: self.headings.last().copied().unwrap_or(0),
            weighty: self.weighty > 0,
            code: self.code > 0,
            strong: self.strong > 0,
            em: self.em > 0,
        };
        let cur = self.current() as usize;
        let node = &mut self.tree.nodes[cur];
        node.own.terms += terms;
        if style.anchor {
            node.own.anchor_terms += terms;
        }
        node.items.push(Item::Text {
            start: start as u32,
            end: end as u32,
            style,
        });
    }

    /// Walks the children of `top` and everything below them.
    fn walk(&mut self, dom: &Dom, top: NodeIx) {
        let mut stack: Vec<Step> = dom.children_rev(top).map(Step::Enter).collect();
        while let Some(step) = stack.pop() {
            match step {
                Step::Exit(exit) => self.exit(exit),
                Step::Enter(node) => match dom.data(node) {
                    Data::Text(text) => self.push_text(text),
                    Data::Element(el) => {
                        self.markup.element(el);
                        self.read_declared(el);
                        self.read_visible(dom, node, el);
                        let tag = el.tag();
                        if *tag == local_name!("noscript") {
                            self.read_noscript(dom, node);
                        } else if *tag == local_name!("script") {
                            self.read_script(dom, node, el);
                        } else if let Some(exit) = self.enter(el) {
                            if *tag == local_name!("pre") && matches!(exit, Exit::Container) {
                                let text = verbatim_text(dom, node);
                                if !text.trim().is_empty() {
                                    let id = self.current();
                                    self.tree.verbatim.push((id, text.into()));
                                }
                            }
                            stack.push(Step::Exit(exit));
                            stack.extend(dom.children_rev(node).map(Step::Enter));
                        }
                    }
                    Data::Document | Data::Other => {}
                },
            }
        }
    }

    /// Enters an element; returns what to do on leaving it, or `None` when it is dropped with
    /// its children (or has none to walk, like `<img>`).
    fn enter(&mut self, el: &Element) -> Option<Exit> {
        let tag = el.tag();
        let role = role_of(tag);
        if role == Role::Drop {
            return None;
        }
        let hiding = hiding(el);
        let hidden = hiding.is_some();
        let id = el.attr(&local_name!("id"));
        let class = el.attr(&local_name!("class"));
        let aria_role = el.attr(&local_name!("role"));
        let hint =
            if id.is_some() || class.is_some() || aria_role.is_some() || role == Role::Container {
                hint_of(tag, id, class, aria_role)
            } else {
                Hint::None
            };
        // A boilerplate-named or hidden element becomes a block of its own, whatever its tag,
        // so it can be pruned as one.
        let container = role == Role::Container
            || hidden
            || (hint != Hint::None && matches!(role, Role::Inline | Role::Code));
        if container {
            if self.open.len() > MAX_DEPTH {
                self.push_item(Item::Break);
                return Some(Exit::Line);
            }
            let label = make_label(tag, id, class);
            let nid = self.new_node(tag, label, hint);
            self.tree.nodes[nid as usize].flow = match role {
                Role::Code => Flow::InlineCode,
                Role::Inline | Role::Anchor | Role::Weighty(_) => Flow::Inline,
                _ => Flow::Block,
            };
            if let Some(hiding) = hiding {
                self.tree.nodes[nid as usize].hidden = true;
                self.hidden.push((nid, hiding));
            }
            return Some(Exit::Container);
        }
        if matches!(role, Role::Inline | Role::Anchor | Role::Code) && self.after_inline {
            self.gap = true;
        }
        let before = self.tree.nodes[self.current() as usize].own;
        match role {
            Role::Heading(level, force) => {
                self.push_item(Item::Break);
                self.headings.push(level);
                Some(Exit::Heading {
                    force,
                    container: self.current(),
                    before,
                })
            }
            Role::Weighty(force) => {
                self.weighty += 1;
                let emphasis = Emphasis::of(tag);
                match emphasis {
                    Emphasis::Strong => self.strong += 1,
                    Emphasis::Em => self.em += 1,
                    Emphasis::None => {}
                }
                Some(Exit::Weighty {
                    force,
                    container: self.current(),
                    before,
                    emphasis,
                })
            }
            Role::Anchor => {
                if let Some(href) = el.attr(&local_name!("href")) {
                    let cur = self.current();
                    self.tree.nodes[cur as usize].own.links += 1;
                    self.anchors += 1;
                    let at = self.tree.text.len() as u32;
                    self.tree.links.push(Link {
                        node: cur,
                        href: href.trim().into(),
                        start: at,
                        end: at,
                    });
                    Some(Exit::Anchor(self.tree.links.len() - 1))
                } else {
                    Some(Exit::Nothing)
                }
            }
            Role::Image => {
                self.after_inline = false;
                self.gap = false;
                let start = self.tree.text.len() as u32;
                if let Some(alt) = el.attr(&local_name!("alt")) {
                    push_folded(&mut self.tree.text, alt);
                }
                let end = self.tree.text.len() as u32;
                let src = self.tree.images.len() as u32;
                self.tree.images.push(image_source(el).into());
                let cur = self.current() as usize;
                self.tree.nodes[cur].own.images += 1;
                self.tree.nodes[cur]
                    .items
                    .push(Item::Image { start, end, src });
                None
            }
            Role::Break => {
                self.push_item(Item::Break);
                None
            }
            Role::Line => {
                self.push_item(Item::Break);
                Some(Exit::Line)
            }
            Role::Inline => Some(Exit::Inline),
            Role::Code => {
                self.code += 1;
                Some(Exit::Code)
            }
            Role::Container | Role::Drop => Some(Exit::Nothing),
        }
    }

    fn exit(&mut self, exit: Exit) {
        match exit {
            Exit::Container => {
                self.open.pop();
            }
            Exit::Line => self.push_item(Item::Break),
            Exit::Nothing => {}
            Exit::Inline => self.after_inline = true,
            Exit::Code => {
                self.code -= 1;
                self.after_inline = true;
            }
            Exit::Anchor(link) => {
                self.anchors -= 1;
                self.tree.links[link].end = self.tree.text.len() as u32;
                self.after_inline = true;
            }
            Exit::Weighty {
                force,
                container,
                before,
                emphasis,
            } => {
                self.weighty -= 1;
                match emphasis {
                    Emphasis::Strong => self.strong -= 1,
                    Emphasis::Em => self.em -= 1,
                    Emphasis::None => {}
                }
                self.add_force(container, before, force);
            }
            Exit::Heading {
                force,
                container,
                before,
            } => {
                self.headings.pop();
                self.add_force(container, before, force);
                self.push_item(Item::Break);
            }
        }
    }

    /// Adds a weighty tag's force to its container, unless it is pseudo-weighty (§3.2): its
    /// text is mostly anchor text, or it holds only images.
    fn add_force(&mut self, container: NodeId, before: Counts, force: f32) {
        if force <= 0.0 || container != self.current() {
            return;
        }
        let node = &mut self.tree.nodes[container as usize];
        let terms = node.own.terms - before.terms;
        let anchor_terms = node.own.anchor_terms - before.anchor_terms;
        let images = node.own.images - before.images;
        let pseudo = (terms == 0 && images > 0) || (terms > 0 && anchor_terms * 2 > terms);
        if terms > 0 && !pseudo {
            node.force += force;
        }
    }

    /// Subtree counts (children come after parents, so a reverse pass sees children first),
    /// hidden blocks, and block types.
    fn finish(mut self) -> TagTree {
        let nodes = &mut self.tree.nodes;
        sum_subtrees(nodes);
        let total = nodes[0].subtree.terms as f32;
        for &(id, hiding) in &self.hidden {
            let n = &mut nodes[id as usize];
            if n.subtree.terms as f32 > MAX_HIDDEN_SHARE * total {
                n.hidden = false;
                n.shown_hidden = Some(hiding);
            }
        }
        sum_subtrees(nodes);
        for n in nodes.iter_mut() {
            n.block_type = n.own.block_type();
            // Weighty tags in link-dominated or image-only blocks carry no force (§3.2).
            if n.block_type != PageType::Topic {
                n.force = 0.0;
            }
        }
        self.tree.markup = self.markup.finish();
        self.tree
    }
}

/// Sets each node's subtree counts to its own plus those of its visible children.
fn sum_subtrees(nodes: &mut [Node]) {
    for n in nodes.iter_mut() {
        n.subtree = n.own;
    }
    for i in (1..nodes.len()).rev() {
        if let Some(p) = nodes[i].parent
            && !nodes[i].hidden
        {
            let sub = nodes[i].subtree;
            nodes[p as usize].subtree.add(&sub);
        }
    }
}

/// The address of a `srcset`'s first candidate (`a.jpg 1x, b.jpg 2x` gives `a.jpg`).
/// The standard's parsing: a run of characters up to a space is the address, commas at its end
/// not part of it (an address may hold commas: `w_100,h_100`).
fn first_candidate(set: &str) -> &str {
    let url = set.split_whitespace().next().unwrap_or("");
    url.trim_end_matches(',')
}

/// The attributes a lazy-loading page keeps an image's address in while `src` holds a
/// placeholder (a spacer, a spinner, a `data:` pixel) until a script swaps it in.
const LAZY_SOURCES: [&str; 5] = [
    "data-src",
    "data-lazy-src",
    "data-original",
    "data-lazy",
    "data-url",
];

/// An image's address as a reader's browser ends up showing it: a lazy-loading attribute's
/// ([`LAZY_SOURCES`]) before `src`, then `src`, then the first candidate of `srcset` or
/// `data-srcset` when `src` is empty or a `data:` URL; empty when none gives one.
fn image_source(el: &Element) -> &str {
    let usable = |v: &&str| !v.is_empty() && !v.starts_with("data:");
    let lazy = LAZY_SOURCES
        .iter()
        .filter_map(|name| el.attr_named(name))
        .map(str::trim)
        .find(usable);
    if let Some(src) = lazy {
        return src;
    }
    let src = el.attr(&local_name!("src")).unwrap_or("").trim();
    if usable(&src) {
        return src;
    }
    ["srcset", "data-srcset"]
        .iter()
        .filter_map(|name| el.attr_named(name))
        .map(first_candidate)
        .find(usable)
        .unwrap_or(src)
}

/// Sets `slot` to the trimmed, non-empty `href` of `el` unless an earlier element set it.
fn first_href(slot: &mut Option<String>, el: &Element) {
    if slot.is_some() {
        return;
    }
    let href = el.attr(&local_name!("href"));
    if let Some(href) = href.map(str::trim).filter(|h| !h.is_empty()) {
        *slot = Some(href.to_string());
    }
}

/// The trimmed `content` of a `<meta property=og:url>` (or `name=og:url`), if not empty.
fn og_url(el: &Element) -> Option<String> {
    let key = el
        .attr(&local_name!("property"))
        .or_else(|| el.attr(&local_name!("name")))?;
    key.trim()
        .eq_ignore_ascii_case("og:url")
        .then(|| el.attr(&local_name!("content")).map(str::trim))
        .flatten()
        .filter(|c| !c.is_empty())
        .map(str::to_string)
}

/// True for a `<link>` whose `rel` holds the `canonical` keyword.
fn is_canonical(el: &Element) -> bool {
    el.attr(&local_name!("rel")).is_some_and(|rel| {
        rel.split_ascii_whitespace()
            .any(|r| r.eq_ignore_ascii_case("canonical"))
    })
}

/// Appends `text` to `out` with runs of whitespace folded to one space. Control characters (C0,
/// DEL, C1: a reader sees none, and they would reach records and terminals) count as
/// whitespace, NUL as nothing.
fn push_folded(out: &mut String, text: &str) {
    let mut space = out.ends_with(' ') || out.is_empty();
    let bytes = text.as_bytes();
    // Start of the run of plain characters not yet copied: runs are copied whole.
    let mut run = 0;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        if b > b' ' && b < 0x7f {
            i += 1;
            continue;
        }
        let (len, plain, nul) = if b < 0x80 {
            (1, false, b == 0)
        } else {
            match text.get(i..).and_then(|t| t.chars().next()) {
                Some(c) => (c.len_utf8(), !(c.is_whitespace() || c.is_control()), false),
                None => break,
            }
        };
        if plain {
            i += len;
            continue;
        }
        if run < i {
            out.push_str(&text[run..i]);
            space = false;
        }
        i += len;
        run = i;
        if !nul && !space {
            out.push(' ');
            space = true;
        }
    }
    out.push_str(&text[run..]);
}

/// The first `max` characters of `text`.
fn truncate_chars(text: &mut String, max: usize) {
    if let Some((at, _)) = text.char_indices().nth(max) {
        text.truncate(at);
    }
}

/// `tag#id.class` for reports, shortened.
fn make_label(tag: &str, id: Option<&str>, class: Option<&str>) -> Box<str> {
    let mut s = String::from(tag);
    if let Some(id) = id.filter(|i| !i.is_empty()) {
        s.push('#');
        s.extend(id.chars().take(40));
    }
    if let Some(class) = class {
        for c in class.split_ascii_whitespace().take(3) {
            s.push('.');
            s.extend(c.chars().take(40));
        }
    }
    s.into_boxed_str()
}

/// The longest `articleBody` string anywhere in a JSON-LD block.
fn json_ld_article_body(value: &serde_json::Value) -> Option<String> {
    let mut best: Option<&str> = None;
    let mut stack = vec![value];
    while let Some(v) = stack.pop() {
        match v {
            serde_json::Value::Object(map) => {
                for (k, v) in map {
                    if k == "articleBody"
                        && let Some(s) = v.as_str()
                        && best.is_none_or(|b| b.len() < s.len())
                    {
                        best = Some(s);
                    }
                    stack.push(v);
                }
            }
            serde_json::Value::Array(items) => stack.extend(items),
            _ => {}
        }
    }
    best.map(str::to_string)
}

/// What a weighty tag sets its text in, as Markdown shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Emphasis {
    /// `<strong>`, `<b>`.
    Strong,
    /// `<em>`, `<i>`.
    Em,
    /// `<big>`, `<u>`, `<mark>`, `<font>`: weighty, no Markdown of their own.
    None,
}

impl Emphasis {
    fn of(tag: &LocalName) -> Emphasis {
        if *tag == local_name!("strong") || *tag == local_name!("b") {
            Emphasis::Strong
        } else if *tag == local_name!("em") || *tag == local_name!("i") {
            Emphasis::Em
        } else {
            Emphasis::None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An image's address is the one a reader's browser ends up showing: a lazy-loading
    /// attribute's before a placeholder `src`, a `srcset`'s first candidate when `src` is empty.
    #[test]
    fn an_images_address_past_lazy_loading() {
        let tree = build(
            "<body><p>Photos <img src=/a.jpg> \
             <img src='data:image/gif;base64,R0lGOD' data-src=' /b.jpg '> \
             <img src=/img/1x1.trans.gif data-lazy-src=/c.jpg> \
             <img srcset='/d,w_100.jpg 1x, /d2.jpg 2x'> \
             <img src='' data-srcset='/e.jpg 640w'> \
             <img src='data:image/png;base64,iVBOR'> <img></p></body>",
        );
        let images: Vec<&str> = tree.images.iter().map(|s| &**s).collect();
        assert_eq!(
            images,
            [
                "/a.jpg",
                "/b.jpg",
                "/c.jpg",
                "/d,w_100.jpg",
                "/e.jpg",
                "data:image/png;base64,iVBOR",
                ""
            ]
        );
    }

    /// The addresses a page gives itself: the first canonical link and the first `og:url`.
    #[test]
    fn canonical_link_and_og_url() {
        let tree = build(
            "<html><head><meta property=og:type content=article>\
             <meta property='og:url' content=' https://a.example/x '>\
             <meta property=og:url content=https://b.example/>\
             <link rel='alternate canonical' href=/y><link rel=canonical href=/z></head>\
             <body><p>text</p></body></html>",
        );
        assert_eq!(tree.og_url.as_deref(), Some("https://a.example/x"));
        assert_eq!(tree.canonical.as_deref(), Some("/y"));
        let none = build("<html><head><meta property=og:url content=' '></head></html>");
        assert_eq!((none.og_url, none.canonical), (None, None));
    }

    /// Hidden elements stay out of the counts, except one that holds more than 30% of the
    /// page's visible terms (content a script would show), which is shown and says how its
    /// markup hides it.
    #[test]
    fn hidden_elements_and_the_content_a_script_would_show() {
        const WORDS: &str = "one two three four five six seven eight nine ten";
        let page = |hidden: &str| {
            build(&format!(
                "<body><h1>Title words</h1><p>{WORDS}</p>{hidden}</body>"
            ))
        };
        let visible_terms = |tree: &TagTree| tree.nodes[0].subtree.terms;
        assert_eq!(visible_terms(&page("")), 12);
        // A small hidden block stays hidden, however it is hidden.
        for attrs in [
            "hidden",
            "aria-hidden=true",
            "style='display: none'",
            "style='Visibility : Hidden'",
            "class='promo sr-only'",
        ] {
            let tree = page(&format!("<div {attrs}>secret words</div>"));
            assert_eq!(visible_terms(&tree), 12, "{attrs}");
            assert!(tree.nodes.iter().all(|n| n.shown_hidden.is_none()));
        }
        // A paywall's body, hidden until a script runs, is shown.
        let shown = |tree: &TagTree| -> Vec<(String, Option<Hiding>)> {
            tree.nodes
                .iter()
                .filter(|n| n.shown_hidden.is_some())
                .map(|n| (n.tag.to_string(), n.shown_hidden))
                .collect()
        };
        let body = page(&format!(
            "<div class=paywall hidden><p>{WORDS}</p><p>{WORDS}</p></div>"
        ));
        assert_eq!(visible_terms(&body), 32);
        assert_eq!(shown(&body), [("div".to_string(), Some(Hiding::Removed))]);
        let invisible = page(&format!("<p style='visibility:hidden'>{WORDS}</p>"));
        assert_eq!(visible_terms(&invisible), 22);
        assert_eq!(
            shown(&invisible),
            [("p".to_string(), Some(Hiding::Invisible))]
        );
        // `display:none` takes the box out of the layout, whatever the visibility.
        let both = page(&format!(
            "<p style='visibility:hidden;display:none'>{WORDS}</p>"
        ));
        assert_eq!(shown(&both), [("p".to_string(), Some(Hiding::Removed))]);
    }

    #[test]
    fn containers_weighty_tags_and_counts() {
        let tree = build(
            "<html lang=en><head><title> A  page </title></head><body><div>\
             <p>Plain words <b>bold words</b> here.</p>\
             <p><a href=/x>link text only</a></p>\
             <p><b><a href=/y>bold link</a></b> then four more words</p>\
             <p><img src=i.png alt=pic></p></div></body></html>",
        );
        assert_eq!(tree.title, "A page");
        assert_eq!(tree.lang.as_deref(), Some("en"));
        let tags: Vec<&str> = tree.nodes.iter().map(|n| &*n.tag).collect();
        assert_eq!(tags, ["body", "div", "p", "p", "p", "p"]);
        let p = &tree.nodes;
        assert_eq!(p[2].own.terms, 5);
        assert_eq!(p[2].force, 1.5, "bold is weighty");
        assert_eq!(p[3].own.anchor_terms, 3);
        assert_eq!(p[3].block_type, PageType::Hub);
        assert_eq!(p[4].force, 0.0, "bold around a link is pseudo-weighty");
        assert_eq!(p[5].block_type, PageType::Image);
        assert_eq!(p[1].subtree.terms, 5 + 3 + 6);
        assert_eq!(p[1].subtree.links, 2);
        let links: Vec<(NodeId, &str, &str)> = tree
            .links
            .iter()
            .map(|l| (l.node, &*l.href, tree.slice(l.start, l.end)))
            .collect();
        assert_eq!(links, [(3, "/x", "link text only"), (4, "/y", "bold link")]);
    }

    /// Folding copies runs of plain characters whole and gives what folding character by
    /// character gives.
    #[test]
    fn folding_by_runs_matches_folding_by_characters() {
        fn by_chars(out: &mut String, text: &str) {
            let mut space = out.ends_with(' ') || out.is_empty();
            for c in text.chars().filter(|&c| c != '\u{0}') {
                if c.is_whitespace() || c.is_control() {
                    if !space {
                        out.push(' ');
                        space = true;
                    }
                } else {
                    out.push(c);
                    space = false;
                }
            }
        }
        let texts = [
            "",
            " ",
            "\u{0}",
            "a\u{0}b",
            "  lead and trail  ",
            "tab\tnew\nline\r\n\u{b}\u{c}end",
            "del\u{7f}c1\u{85}\u{9b}nbsp\u{a0}ideo\u{3000}\u{2028}x",
            "héllo wörld — 東京\u{200b}zero-width stays",
            "\u{0} \u{0}x\u{0} ",
        ];
        for prefix in ["", "word", "word "] {
            for text in texts {
                let (mut fast, mut slow) = (prefix.to_string(), prefix.to_string());
                push_folded(&mut fast, text);
                by_chars(&mut slow, text);
                assert_eq!(fast, slow, "{prefix:?} + {text:?}");
            }
        }
        let mut out = String::new();
        push_folded(&mut out, "\n  High\u{0}\u{8} water\u{85}at  noon\t");
        assert_eq!(out, "High water at noon ");
    }

    #[test]
    fn control_characters_are_spaces_and_titles_are_capped() {
        let long = "t".repeat(5_000);
        let tree = build(&format!(
            "<head><title>Tide\u{7}\u{1b}[31m tables {long}</title></head>\
             <body><p>High\u{0}\u{8} water\u{85}at\u{9b}2J noon\u{7f}.</p></body>"
        ));
        assert_eq!(tree.title.chars().count(), MAX_TITLE_CHARS);
        assert!(
            tree.title.starts_with("Tide [31m tables ttt"),
            "{}",
            &tree.title[..30]
        );
        assert_eq!(tree.all_text().trim(), "High water at 2J noon .");
    }

    #[test]
    fn sibling_inline_elements_do_not_glue_words() {
        let tree = build(
            "<body><div><span>2026</span><span>1h 54m</span><span>R</span>\
             <a href=/a>Mar 07</a><a href=/b>4 min read</a></div>\
             <p><span class=dropcap>T</span>he tide, <b>st</b>rong and <i>l</i>ate.</p></body>",
        );
        let text = tree.all_text();
        assert!(text.contains("2026 1h 54m R Mar 07 4 min read"), "{text}");
        // Text and formatting inside a word stay glued, as the browser shows them.
        assert!(text.contains("The tide, strong and late."), "{text}");
        // Anchor text does not take the separating space.
        assert_eq!(
            tree.slice(tree.links[1].start, tree.links[1].end).trim(),
            "4 min read"
        );
    }

    #[test]
    fn noscript_fallback_and_json_ld() {
        let tree = build(
            "<head><script type='application/ld+json'>{\"@type\":\"NewsArticle\",\
             \"articleBody\":\"The body text.\"}</script></head><body><div id=app></div>\
             <noscript><div><p>Rendered for crawlers: the whole post with enough words to \
             count as a page, one two three four five six seven eight nine ten eleven twelve \
             thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty twenty-one \
             twenty-two twenty-three twenty-four twenty-five twenty-six twenty-seven \
             twenty-eight twenty-nine thirty thirty-one thirty-two.</p></div></noscript></body>",
        );
        assert_eq!(tree.json_ld_body.as_deref(), Some("The body text."));
        assert!(
            tree.all_text().contains("Rendered for crawlers"),
            "{}",
            tree.all_text()
        );
    }

    #[test]
    fn json_ld_in_the_body_counts_and_the_longest_body_wins() {
        let tree = build(
            "<head><title>T</title><script type=application/ld+json>{\"articleBody\":\"short\"}\
             </script></head><body><p>text</p><script type='application/LD+JSON'>\
             [{\"@graph\":[{\"articleBody\":\"the longer body\"}]}]</script></body>",
        );
        assert_eq!(tree.json_ld_body.as_deref(), Some("the longer body"));
        assert!(!tree.all_text().contains("articleBody"));
    }

    #[test]
    fn deep_nesting_is_capped() {
        let html = format!("{}deep text{}", "<div>".repeat(5000), "</div>".repeat(5000));
        let tree = build(&html);
        assert!(tree.nodes.len() <= MAX_DEPTH + 2, "{}", tree.nodes.len());
        assert!(tree.all_text().contains("deep text"));
    }

    #[test]
    fn pre_blocks_keep_their_text_verbatim_and_code_is_styled() {
        let html = "<html><body><p>Run <code>make  test</code> now.</p>\
            <pre>\nfn main() {\n    print(1);<br>}</pre></body></html>";
        let tree = build(html);
        let code: Vec<&str> = tree
            .nodes
            .iter()
            .flat_map(|n| &n.items)
            .filter_map(|i| match *i {
                Item::Text { start, end, style } if style.code => Some(tree.slice(start, end)),
                _ => None,
            })
            .collect();
        assert_eq!(code, ["make test"]);
        let pre = tree.nodes.iter().position(|n| &*n.tag == "pre").unwrap() as NodeId;
        assert_eq!(
            tree.verbatim,
            [(pre, "fn main() {\n    print(1);\n}".into())]
        );
        // The block's items hold the text folded, as every block's do.
        assert!(
            tree.all_text().contains("fn main() { print(1);"),
            "{}",
            tree.all_text()
        );
    }
}
