//! Finding a page's main content from its reference text, independent of any cleaner, and
//! moving main content from one page into another page's template: the two operations the
//! replica benchmark (`docview replicas build`) makes its near-replica and non-replica pages
//! with; under its transplant rules, also the head metadata that describes the content moved
//! with it ([`move_head_metadata`]) and the page's address removed ([`strip_url_metadata`]).
//!
//! The locator's rule: the reference and every element's visible text are tokenized as the
//! corpus scoring does (`\w+` runs lowercased, each CJK character one token). An element's
//! *coverage* is the share of the reference's token multiset its text holds (multiset overlap:
//! a token the reference holds twice counts twice, the min of the two counts). The main-content
//! node is, among the elements of `<body>` whose coverage is at least [`MIN_COVERAGE`] (80%),
//! the one with the fewest tokens; ties go to the deepest, then to the first in document order.
//! Text under `<script>`, `<style>`, `<noscript>`, `<template>` and `<head>` is not visible and
//! not counted. When only `<body>` itself (or nothing) qualifies, the content is not
//! separable from the template and the page is left out; so is a page whose text outside the
//! node still holds more than [`MAX_OUTSIDE_COVERAGE`] (half) of the reference's 5-word
//! shingles (passages, not shared vocabulary): it holds its main content twice (a print copy,
//! a republishing box, a second layout), and swapping one copy would leave the other in place.
//!
//! Coverage of every element is computed bottom-up in one pass, merging the children's token
//! counts small-to-large, so a page costs O(tokens × log tokens) whatever its depth.

use std::collections::{HashMap, HashSet};
use std::fmt;

use ego_tree::NodeId;
use scraper::{Html, Node};
use serde::Serialize;

use crate::text::for_each_lower_token;
use docview_collection::minhash::shingle_hashes;

/// Least share of the reference's tokens the main-content node must hold.
pub const MIN_COVERAGE: f32 = 0.8;

/// Most share of the reference's 5-word shingles the text outside the main-content node may
/// hold.
pub const MAX_OUTSIDE_COVERAGE: f32 = 0.5;

/// Words per shingle of the repeat check.
const REPEAT_SHINGLE: usize = 5;

/// Elements whose text is never visible.
const INVISIBLE: &[&str] = &["script", "style", "noscript", "template", "head"];

/// A page's main-content node and how well it matches the reference.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Located {
    /// The node in the parsed document.
    pub node: NodeId,
    /// The figures, for reports.
    pub figures: Coverage,
}

/// How a located node matches the reference.
#[derive(Debug, Clone, Copy, PartialEq, Serialize)]
pub struct Coverage {
    /// Share of the reference's tokens (multiset) in the node's text.
    pub coverage: f32,
    /// Share of the node's tokens that are reference tokens (multiset): 1 when the node holds
    /// nothing but main content.
    pub precision: f32,
    /// Tokens of the node's text.
    pub node_tokens: u32,
    /// Tokens of the reference.
    pub reference_tokens: u32,
    /// Tokens of the whole `<body>`.
    pub body_tokens: u32,
}

/// Why a page's main content could not be located.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum NotLocated {
    /// The reference has no token.
    EmptyReference,
    /// No element holds enough of the reference; `best` is the coverage of `<body>`.
    LowCoverage {
        /// The best coverage found.
        best: f32,
    },
    /// Only `<body>` (or `<html>`) holds enough of it: content and template are not apart.
    WholeBody,
    /// The text outside the node holds `outside` of the reference's shingles too: the page
    /// repeats its main content.
    Repeated {
        /// Share of the reference's 5-word shingles in the rest of `<body>`.
        outside: f32,
    },
}

impl NotLocated {
    /// The short reason counted in reports.
    pub fn reason(&self) -> &'static str {
        match self {
            NotLocated::EmptyReference => "empty reference",
            NotLocated::LowCoverage { .. } => "reference not found in the page",
            NotLocated::WholeBody => "only <body> holds the reference",
            NotLocated::Repeated { .. } => "main content repeated outside its node",
        }
    }
}

impl fmt::Display for NotLocated {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotLocated::LowCoverage { best } => write!(
                f,
                "{} (best coverage {:.0}% < {:.0}%)",
                self.reason(),
                best * 100.0,
                MIN_COVERAGE * 100.0
            ),
            NotLocated::Repeated { outside } => write!(
                f,
                "{} ({:.0}% of the reference outside it)",
                self.reason(),
                outside * 100.0
            ),
            _ => f.write_str(self.reason()),
        }
    }
}

/// The reference's tokens: an id per distinct token and how often it occurs.
struct Reference {
    ids: HashMap<String, u32>,
    counts: Vec<u32>,
    total: u32,
}

impl Reference {
    fn new(text: &str) -> Reference {
        let mut ids = HashMap::new();
        let mut counts = Vec::new();
        let mut total = 0u32;
        for_each_lower_token(text, |token| {
            let next = ids.len() as u32;
            let id = *ids.entry(token.to_string()).or_insert(next);
            if id as usize == counts.len() {
                counts.push(0);
            }
            counts[id as usize] += 1;
            total += 1;
        });
        Reference { ids, counts, total }
    }
}

/// The reference tokens a subtree holds, with their multiset overlap with the reference.
#[derive(Default)]
struct Bag {
    counts: HashMap<u32, u32>,
    covered: u32,
    tokens: u32,
}

impl Bag {
    /// Adds `n` occurrences of reference token `id`.
    fn add(&mut self, id: u32, n: u32, reference: &Reference) {
        let cap = reference.counts[id as usize];
        let count = self.counts.entry(id).or_insert(0);
        let before = (*count).min(cap);
        *count += n;
        self.covered += (*count).min(cap) - before;
    }

    /// Merges `other` into `self`, small into large.
    fn merge(&mut self, mut other: Bag, reference: &Reference) {
        if other.counts.len() > self.counts.len() {
            std::mem::swap(self, &mut other);
        }
        self.tokens += other.tokens;
        for (id, n) in other.counts {
            self.add(id, n, reference);
        }
    }
}

/// One node of the document in pre-order.
struct Visit {
    id: NodeId,
    parent: Option<usize>,
    depth: u32,
    invisible: bool,
    /// Inside `<body>` (not `<body>` itself).
    in_body: bool,
    element: Option<String>,
}

/// The document's nodes in pre-order, each with its parent's position.
fn pre_order(doc: &Html) -> Vec<Visit> {
    let mut position: HashMap<NodeId, usize> = HashMap::new();
    let mut out: Vec<Visit> = Vec::new();
    for node in doc.tree.root().descendants() {
        let parent = node.parent().and_then(|p| position.get(&p.id()).copied());
        let (depth, parent_invisible) =
            parent.map_or((0, false), |p| (out[p].depth + 1, out[p].invisible));
        let element = node.value().as_element().map(|e| e.name().to_string());
        let invisible = parent_invisible
            || element
                .as_deref()
                .is_some_and(|name| INVISIBLE.contains(&name));
        let in_body =
            parent.is_some_and(|p| out[p].in_body || out[p].element.as_deref() == Some("body"));
        position.insert(node.id(), out.len());
        out.push(Visit {
            id: node.id(),
            parent,
            depth,
            invisible,
            in_body,
            element,
        });
    }
    out
}

/// The bag of a text node's tokens.
fn text_bag(text: &str, reference: &Reference) -> Bag {
    let mut bag = Bag::default();
    for_each_lower_token(text, |token| {
        bag.tokens += 1;
        if let Some(&id) = reference.ids.get(token) {
            bag.add(id, 1, reference);
        }
    });
    bag
}

/// An element's figures: (tokens, covered reference tokens).
type Figures = (u32, u32);

/// Every element's tokens and covered reference tokens, by pre-order position.
fn element_figures(doc: &Html, visits: &[Visit], reference: &Reference) -> Vec<Option<Figures>> {
    let mut bags: Vec<Option<Bag>> = visits.iter().map(|_| None).collect();
    let mut figures = vec![None; visits.len()];
    for i in (0..visits.len()).rev() {
        let visit = &visits[i];
        let mut bag = bags[i].take().unwrap_or_default();
        if !visit.invisible
            && let Some(Node::Text(text)) = doc.tree.get(visit.id).map(|n| n.value())
        {
            bag.merge(text_bag(text, reference), reference);
        }
        if visit.element.is_some() {
            figures[i] = Some((bag.tokens, bag.covered));
        }
        if let Some(p) = visit.parent {
            match &mut bags[p] {
                Some(parent) => parent.merge(bag, reference),
                slot => *slot = Some(bag),
            }
        }
    }
    figures
}

/// Locates the main-content node of `doc` from its `reference` text (see the module's rule).
pub fn locate_main_content(
    doc: &Html,
    reference_text: &str,
    min_coverage: f32,
) -> Result<Located, NotLocated> {
    let reference = Reference::new(reference_text);
    if reference.total == 0 {
        return Err(NotLocated::EmptyReference);
    }
    let visits = pre_order(doc);
    let figures = element_figures(doc, &visits, &reference);
    let needed = (f64::from(min_coverage) * f64::from(reference.total)).ceil() as u32;
    let body = visits
        .iter()
        .position(|v| v.element.as_deref() == Some("body"));
    let body_figures = body.and_then(|b| figures[b]).unwrap_or((0, 0));
    let best = (0..visits.len())
        .filter_map(|i| figures[i].map(|f| (i, f)))
        .filter(|&(_, (_, covered))| covered >= needed.max(1))
        .filter(|&(i, _)| visits[i].in_body)
        .min_by_key(|&(i, (tokens, _))| (tokens, std::cmp::Reverse(visits[i].depth), i));
    let Some((i, (tokens, covered))) = best else {
        let body_qualifies = body_figures.1 >= needed.max(1);
        return Err(if body_qualifies {
            NotLocated::WholeBody
        } else {
            NotLocated::LowCoverage {
                best: body_figures.1 as f32 / reference.total as f32,
            }
        });
    };
    let outside = outside_share(doc, &visits, i, reference_text);
    if outside > MAX_OUTSIDE_COVERAGE {
        return Err(NotLocated::Repeated { outside });
    }
    Ok(Located {
        node: visits[i].id,
        figures: Coverage {
            coverage: covered as f32 / reference.total as f32,
            precision: covered as f32 / tokens.max(1) as f32,
            node_tokens: tokens,
            reference_tokens: reference.total,
            body_tokens: body_figures.0,
        },
    })
}

/// Share of the 5-word shingles of `reference` found in the visible text of `doc`'s `<body>`
/// outside the node at pre-order position `node` of `visits` (0 for a reference shorter than a
/// shingle).
fn outside_share(doc: &Html, visits: &[Visit], node: usize, reference: &str) -> f32 {
    let wanted: HashSet<u64> = shingle_hashes(reference, REPEAT_SHINGLE, 0)
        .into_iter()
        .collect();
    if wanted.is_empty() {
        return 0.0;
    }
    // Pre-order: a parent's flag is set before its children ask for it.
    let mut inside = vec![false; visits.len()];
    let mut text = String::new();
    for (i, visit) in visits.iter().enumerate() {
        inside[i] = i == node || visit.parent.is_some_and(|p| inside[p]);
        if !inside[i]
            && visit.in_body
            && !visit.invisible
            && let Some(Node::Text(t)) = doc.tree.get(visit.id).map(|n| n.value())
        {
            text.push_str(t);
            text.push(' ');
        }
    }
    let found: HashSet<u64> = shingle_hashes(&text, REPEAT_SHINGLE, 0)
        .into_iter()
        .filter(|h| wanted.contains(h))
        .collect();
    found.len() as f32 / wanted.len() as f32
}

/// Replaces the children of `template`'s node `at` with copies of the children of `content`'s
/// node `from`: the template page now holds the content page's main content.
pub fn transplant(template: &mut Html, at: NodeId, content: &Html, from: NodeId) {
    clear_children(template, at);
    let Some(source) = content.tree.get(from) else {
        return;
    };
    let children: Vec<NodeId> = source.children().map(|c| c.id()).collect();
    for child in children {
        append_copy(template, at, content, child);
    }
}

/// Appends a copy of `content`'s node `from`, its subtree included, as the last child of
/// `template`'s node `at`.
fn append_copy(template: &mut Html, at: NodeId, content: &Html, from: NodeId) {
    // Depth-first copy with an explicit stack: no recursion, whatever the nesting.
    let mut stack = vec![(from, at)];
    while let Some((src, dst_parent)) = stack.pop() {
        let Some(src_node) = content.tree.get(src) else {
            continue;
        };
        let Some(mut parent) = template.tree.get_mut(dst_parent) else {
            continue;
        };
        let copy = parent.append(src_node.value().clone()).id();
        stack.extend(src_node.children().rev().map(|child| (child.id(), copy)));
    }
}

/// What a `<head>` element says about a page, for the transplant rules of the replica
/// benchmark.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum HeadMeta {
    /// It describes the page's content (its title, description, keywords, author, Open Graph,
    /// Twitter and article properties, JSON-LD): it moves with the content.
    Content,
    /// It gives the page's address (`<base>`, the canonical and short links, `og:url`): a
    /// page built from two pages has none.
    Url,
    /// Anything else (charset, viewport, style sheets, scripts): it stays with the template.
    Template,
}

/// What `element` says about its page.
fn head_meta(element: &scraper::node::Element) -> HeadMeta {
    match element.name() {
        "title" => HeadMeta::Content,
        "base" => HeadMeta::Url,
        "link" => {
            let rel = element.attr("rel").unwrap_or("").to_ascii_lowercase();
            if rel
                .split_ascii_whitespace()
                .any(|r| matches!(r, "canonical" | "shortlink" | "amphtml"))
            {
                HeadMeta::Url
            } else {
                HeadMeta::Template
            }
        }
        "meta" => {
            let key = element
                .attr("property")
                .or_else(|| element.attr("name"))
                .or_else(|| element.attr("itemprop"))
                .unwrap_or("")
                .trim()
                .to_ascii_lowercase();
            if matches!(key.as_str(), "og:url" | "twitter:url" | "url") {
                HeadMeta::Url
            } else if matches!(
                key.as_str(),
                "description" | "keywords" | "news_keywords" | "author" | "date" | "headline"
            ) || [
                "og:",
                "twitter:",
                "article:",
                "dc.",
                "dcterms.",
                "citation_",
            ]
            .iter()
            .any(|prefix| key.starts_with(prefix))
            {
                HeadMeta::Content
            } else {
                HeadMeta::Template
            }
        }
        "script"
            if element
                .attr("type")
                .is_some_and(|t| t.trim().eq_ignore_ascii_case("application/ld+json")) =>
        {
            HeadMeta::Content
        }
        _ => HeadMeta::Template,
    }
}

/// The page's `<head>` element and the elements in it of kind `kind`, in document order.
fn head_elements(doc: &Html, kind: HeadMeta) -> (Option<NodeId>, Vec<NodeId>) {
    let Some(head) = doc
        .tree
        .root()
        .descendants()
        .find(|n| n.value().as_element().is_some_and(|e| e.name() == "head"))
    else {
        return (None, Vec::new());
    };
    let found = head
        .descendants()
        .filter(|n| n.value().as_element().is_some_and(|e| head_meta(e) == kind))
        .map(|n| n.id())
        .collect();
    (Some(head.id()), found)
}

/// Detaches the nodes `ids` of `doc`.
fn detach_all(doc: &mut Html, ids: Vec<NodeId>) {
    for id in ids {
        if let Some(mut node) = doc.tree.get_mut(id) {
            node.detach();
        }
    }
}

/// Moves the head metadata that describes the content with it: `template`'s title,
/// description, keywords, author, Open Graph, Twitter and article properties and JSON-LD are
/// replaced by `content`'s.
pub fn move_head_metadata(template: &mut Html, content: &Html) {
    let (head, own) = head_elements(template, HeadMeta::Content);
    let Some(head) = head else {
        return;
    };
    detach_all(template, own);
    let (_, moved) = head_elements(content, HeadMeta::Content);
    for from in moved {
        append_copy(template, head, content, from);
    }
}

/// Removes the page's address from its head: `<base>`, canonical, short and AMP links,
/// `og:url`.
pub fn strip_url_metadata(doc: &mut Html) {
    let (_, url) = head_elements(doc, HeadMeta::Url);
    detach_all(doc, url);
}

/// Detaches every child of `node`.
fn clear_children(doc: &mut Html, node: NodeId) {
    let children: Vec<NodeId> = doc
        .tree
        .get(node)
        .map(|n| n.children().map(|c| c.id()).collect())
        .unwrap_or_default();
    for child in children {
        if let Some(mut child) = doc.tree.get_mut(child) {
            child.detach();
        }
    }
}

/// Makes the page declare UTF-8: drops its `<meta charset>` and `<meta http-equiv=
/// content-type>` declarations and puts `<meta charset="utf-8">` first in `<head>`.
pub fn declare_utf8(doc: &mut Html) {
    let mut head = None;
    let mut declarations = Vec::new();
    for node in doc.tree.root().descendants() {
        let Some(element) = node.value().as_element() else {
            continue;
        };
        match element.name() {
            "head" if head.is_none() => head = Some(node.id()),
            "meta" if declares_charset(element) => declarations.push(node.id()),
            _ => {}
        }
    }
    for id in declarations {
        if let Some(mut node) = doc.tree.get_mut(id) {
            node.detach();
        }
    }
    let (Some(head), Some(meta)) = (head, utf8_meta()) else {
        return;
    };
    if let Some(mut head) = doc.tree.get_mut(head) {
        head.prepend(meta);
    }
}

/// True for a `<meta>` that declares a charset.
fn declares_charset(meta: &scraper::node::Element) -> bool {
    meta.attr("charset").is_some()
        || meta
            .attr("http-equiv")
            .is_some_and(|v| v.trim().eq_ignore_ascii_case("content-type"))
}

/// A `<meta charset="utf-8">` node.
fn utf8_meta() -> Option<Node> {
    let doc = Html::parse_document(r#"<meta charset="utf-8">"#);
    doc.tree
        .root()
        .descendants()
        .find(|n| n.value().as_element().is_some_and(|e| e.name() == "meta"))
        .map(|n| n.value().clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    const ARTICLE: &str = "The river rose twice in one night and the old bridge held. \
        Boats were tied to the town hall and the school stayed closed for a week.";

    fn page(nav: &str, article: &str, footer: &str) -> String {
        format!(
            "<html><head><title>T</title><meta charset='gbk'></head><body>\
             <nav><a href='/'>{nav}</a></nav>\
             <div id='wrap'><div id='main'><article><h1>Flood</h1><p>{article}</p></article>\
             </div><aside>Related: more stories</aside></div>\
             <footer>{footer}</footer><script>var x = 'the river rose';</script></body></html>"
        )
    }

    fn tag_of(doc: &Html, node: NodeId) -> String {
        let n = doc.tree.get(node).unwrap();
        n.value().as_element().unwrap().name().to_string()
    }

    #[test]
    fn finds_the_article_not_the_body() {
        let doc = Html::parse_document(&page("Home", ARTICLE, "Copyright 2024"));
        let reference = format!("Flood\n{ARTICLE}");
        let found = locate_main_content(&doc, &reference, 1.0).expect("located");
        assert_eq!(tag_of(&doc, found.node), "article");
        assert_eq!(found.figures.coverage, 1.0);
        assert_eq!(found.figures.precision, 1.0);
        assert!(found.figures.body_tokens > found.figures.node_tokens);
        // At 80% the <p> alone (all but the heading) is the smallest cover.
        let found = locate_main_content(&doc, &reference, MIN_COVERAGE).unwrap();
        assert_eq!(tag_of(&doc, found.node), "p");
        // Two wrappers with the same text: the deepest wins.
        let doc = Html::parse_document(&format!(
            "<body><nav>Menu</nav><main><section><div>{ARTICLE}</div></section></main></body>"
        ));
        let found = locate_main_content(&doc, ARTICLE, MIN_COVERAGE).unwrap();
        assert_eq!(tag_of(&doc, found.node), "div");
    }

    #[test]
    fn coverage_counts_the_multiset() {
        // The reference says "flood" three times; a node saying it once covers 1 of 3.
        let doc = Html::parse_document(
            "<body><div><p>flood</p><p>flood flood other words here</p></div></body>",
        );
        let found = locate_main_content(&doc, "flood flood flood", 1.0).unwrap();
        assert_eq!(tag_of(&doc, found.node), "div");
        let found = locate_main_content(&doc, "flood flood", 1.0).unwrap();
        assert_eq!(tag_of(&doc, found.node), "p");
        assert_eq!(found.figures.node_tokens, 5);
    }

    #[test]
    fn left_out_when_the_main_content_is_there_twice() {
        // A page that prints its article in full again (a print view, a second layout).
        let html = format!(
            "<body><nav>Home</nav><article><p>{ARTICLE}</p></article>\
             <div class='print'><p>{ARTICLE}</p></div><footer>Copyright</footer></body>"
        );
        let doc = Html::parse_document(&html);
        let err = locate_main_content(&doc, ARTICLE, MIN_COVERAGE).unwrap_err();
        assert_eq!(err, NotLocated::Repeated { outside: 1.0 });
        assert_eq!(err.reason(), "main content repeated outside its node");
        // A teaser of a few words elsewhere is not a repeat.
        let html = format!(
            "<body><nav>The river rose twice</nav><article><p>{ARTICLE}</p></article></body>"
        );
        let doc = Html::parse_document(&html);
        assert!(locate_main_content(&doc, ARTICLE, MIN_COVERAGE).is_ok());
    }

    #[test]
    fn left_out_when_the_reference_is_not_there() {
        let doc = Html::parse_document(&page("Home", ARTICLE, "Copyright 2024"));
        let err = locate_main_content(&doc, "An entirely different story about mountains", 0.8)
            .unwrap_err();
        assert!(
            matches!(err, NotLocated::LowCoverage { best } if best < 0.5),
            "{err:?}"
        );
        assert_eq!(
            locate_main_content(&doc, " -- ", 0.8),
            Err(NotLocated::EmptyReference)
        );
        // Script text is invisible: a reference only found in a script is not found.
        let err = locate_main_content(&doc, "var x", 0.8).unwrap_err();
        assert!(matches!(err, NotLocated::LowCoverage { .. }), "{err:?}");
        // Content spread over the nav and the footer: only <body> holds it.
        let err = locate_main_content(&doc, "Home Copyright 2024", 0.8).unwrap_err();
        assert_eq!(err, NotLocated::WholeBody);
    }

    #[test]
    fn transplant_puts_content_into_the_template() {
        let other = "Snow closed the mountain pass and the village waited for the ploughs.";
        let content = Html::parse_document(&page("Home", ARTICLE, "Copyright 2024"));
        let mut template = Html::parse_document(&page("Start", other, "Template footer"));
        let from = locate_main_content(&content, ARTICLE, 0.8).unwrap().node;
        let at = locate_main_content(&template, other, 0.8).unwrap().node;
        transplant(&mut template, at, &content, from);
        declare_utf8(&mut template);
        let html = template.html();
        assert!(html.contains(ARTICLE), "{html}");
        assert!(!html.contains("Snow closed"), "{html}");
        assert!(html.contains("Start") && html.contains("Template footer"));
        assert!(!html.contains("Copyright 2024"));
        assert!(html.contains(r#"<meta charset="utf-8">"#), "{html}");
        assert!(!html.contains("gbk"), "{html}");
    }

    #[test]
    fn deep_nesting_does_not_overflow() {
        let depth = 20_000;
        let html = format!(
            "<body>{}<p>deep words here</p>{}</body>",
            "<div>".repeat(depth),
            "</div>".repeat(depth)
        );
        let doc = Html::parse_document(&html);
        let found = locate_main_content(&doc, "deep words here", 0.8).unwrap();
        let mut copy = Html::parse_document("<body><main>x</main></body>");
        let at = locate_main_content(&copy, "x", 0.8).unwrap().node;
        transplant(&mut copy, at, &doc, found.node);
        assert!(copy.root_element().text().any(|t| t.contains("deep words")));
    }
}
