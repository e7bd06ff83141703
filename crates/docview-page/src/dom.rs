//! docview's own DOM for html5ever: the parsed document the tag tree is built from.
//!
//! html5ever's tree builder hands its nodes to a [`TreeSink`]; this one keeps them in a flat
//! arena (a `Vec` of nodes linked by parent, sibling and child indices), because the WHATWG
//! algorithm moves nodes after creating them (the adoption agency, foster parenting). An element
//! keeps its interned name and attributes as html5ever made them, so the walk compares tag and
//! attribute names as atoms (an integer compare) instead of strings. Text is one tendril per
//! node, adjacent text merged as the tree builder asks; the text of styles and of scripts other
//! than JSON-LD never reaches the DOM ([`crate::raw_text`]). Comments, processing instructions and
//! the doctype become content-free nodes, kept only where they separate text (`a<!---->b` is two
//! runs of text, as in the browser's DOM).
//!
//! The sink behaves as scraper's did (the DOM docview used before): a `<template>`'s contents
//! sit under a fragment node that is the template element's first child, and the tree builder's
//! optional hooks (declarative shadow roots, MathML integration points) keep their defaults, so
//! every page parses to the same tree.

use std::borrow::Cow;
use std::cell::{Cell, Ref, RefCell};

use html5ever::tendril::StrTendril;
use html5ever::tree_builder::{ElementFlags, NodeOrText, QuirksMode, TreeBuilder, TreeSink};
use html5ever::{Attribute, LocalName, ParseOpts, QualName, local_name, ns};

use rustc_hash::{FxHashMap, FxHashSet};

use crate::ParseCuts;
use crate::nesting::{MAX_PARSE_DEPTH, cap_nesting};
use crate::tokenizer::{Budget, End, MAX_ATTRIBUTES};

/// The index of a node in [`Dom`]; the document is 0.
pub(crate) type NodeIx = u32;

/// No node: the end of a sibling list, the parent of a detached node.
const NONE: NodeIx = NodeIx::MAX;

/// An element: its name and attributes, as html5ever made them.
#[derive(Debug)]
pub(crate) struct Element {
    /// The qualified name; the walk reads its local name.
    pub(crate) name: QualName,
    /// The attributes, in source order, no name twice.
    attrs: Vec<Attribute>,
}

impl Element {
    /// The element's tag name (its local name, lowercase for HTML elements).
    pub(crate) fn tag(&self) -> &LocalName {
        &self.name.local
    }

    /// True for a `<script type="application/ld+json">`, the one script whose text docview
    /// reads.
    pub(crate) fn is_json_ld(&self) -> bool {
        crate::raw_text::is_json_ld(&self.attrs)
    }

    /// The value of the attribute `name` (of no namespace), if the element has it.
    pub(crate) fn attr(&self, name: &LocalName) -> Option<&str> {
        attr_value(&self.attrs, name)
    }

    /// [`Element::attr`] by the name as text, for a name html5ever has no atom of (`data-src`):
    /// no atom made to look it up.
    pub(crate) fn attr_named(&self, name: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|a| &*a.name.local == name && a.name.ns == ns!() && a.name.prefix.is_none())
            .map(|a| &*a.value)
    }
}

/// The value of the attribute `name` (of no namespace) among `attrs`, an element's or a start
/// tag's.
pub(crate) fn attr_value<'a>(attrs: &'a [Attribute], name: &LocalName) -> Option<&'a str> {
    attrs
        .iter()
        .find(|a| a.name.local == *name && a.name.ns == ns!() && a.name.prefix.is_none())
        .map(|a| &*a.value)
}

/// What a node is.
#[derive(Debug)]
pub(crate) enum Data {
    /// The document (node 0).
    Document,
    /// An element.
    Element(Element),
    /// A run of text.
    Text(StrTendril),
    /// A comment, processing instruction, doctype or template fragment: no content docview
    /// reads.
    Other,
}

/// A node and its links.
#[derive(Debug)]
struct DomNode {
    parent: NodeIx,
    prev: NodeIx,
    next: NodeIx,
    first: NodeIx,
    last: NodeIx,
    data: Data,
}

/// A parsed HTML document.
#[derive(Debug)]
pub(crate) struct Dom {
    nodes: Vec<DomNode>,
    /// The name [`TreeSink::elem_name`] gives a node that is no element (the tree builder never
    /// asks).
    no_name: QualName,
    /// What the parse left out to stay linear in the page's size.
    pub(crate) cuts: ParseCuts,
}

/// Elements and attributes the tree builder may make of a page of `len` bytes: one per byte,
/// and [`PARSE_BUDGET_BASE`] more. A tag is at least three bytes and an attribute two, so only
/// elements the tree builder makes itself pass it: formatting elements (`<b>`, `<font>`, …)
/// closed by a block's end and reopened for every later run of text, each time with a copy of
/// their attributes. A page of a few kilobytes could otherwise make gigabytes of them.
pub(crate) fn parse_budget(len: usize) -> usize {
    len.saturating_add(PARSE_BUDGET_BASE)
}

/// The elements and attributes any page may make, whatever its size.
const PARSE_BUDGET_BASE: usize = 100_000;

impl Dom {
    /// Parses a whole document as a browser would (scripting on: `<noscript>` holds text).
    /// The text of `<style>` elements and of scripts other than JSON-LD is passed over unread
    /// ([`crate::raw_text`]). A page whose elements nest deeper than [`MAX_PARSE_DEPTH`] is
    /// parsed with the deeper ones unwrapped ([`cap_nesting`]).
    ///
    /// A tag keeps its first [`MAX_ATTRIBUTES`] attributes, and the parse ends early when the
    /// tree builder has made more elements and attributes than [`parse_budget`] allows; both
    /// are told in [`Dom::cuts`].
    pub(crate) fn parse(html: &str) -> Dom {
        let (dom, complete) = Dom::parse_within(html, MAX_PARSE_DEPTH);
        if complete {
            return dom;
        }
        Dom::parse_within(&cap_nesting(html, MAX_PARSE_DEPTH), usize::MAX).0
    }

    /// The document `html` parsed, and true; or what was parsed of it and false, when its tags
    /// nest deeper than `max_depth` (counted as [`crate::nesting`] counts them).
    fn parse_within(html: &str, max_depth: usize) -> (Dom, bool) {
        let builder = TreeBuilder::new(Sink::new(), ParseOpts::default().tree_builder);
        let budget = Budget {
            made: &builder.sink.made,
            budget: parse_budget(html.len()),
        };
        let tokenized = crate::tokenizer::tokenize(html, &builder, max_depth, budget);
        let mut dom = builder.sink.finish();
        dom.cuts.attributes_dropped += tokenized.attributes_dropped;
        if let End::OverBudget(at) = tokenized.end {
            dom.cuts.stopped_at = Some(at);
        }
        (dom, tokenized.end != End::TooDeep)
    }

    /// [`Dom::parse`] by html5ever's own driver, every text kept: what the skipping is checked
    /// against.
    #[cfg(test)]
    pub(crate) fn parse_whole(html: &str) -> Dom {
        use html5ever::tendril::TendrilSink;
        html5ever::parse_document(Sink::new(), ParseOpts::default()).one(html)
    }

    /// The document node.
    pub(crate) const DOCUMENT: NodeIx = 0;

    /// What node `ix` is.
    pub(crate) fn data(&self, ix: NodeIx) -> &Data {
        &self.nodes[ix as usize].data
    }

    /// Node `ix` if it is an element.
    pub(crate) fn element(&self, ix: NodeIx) -> Option<&Element> {
        match self.data(ix) {
            Data::Element(el) => Some(el),
            _ => None,
        }
    }

    /// The parent of node `ix`, if it has one.
    pub(crate) fn parent(&self, ix: NodeIx) -> Option<NodeIx> {
        let parent = self.nodes[ix as usize].parent;
        (parent != NONE).then_some(parent)
    }

    /// The text of node `ix` and everything below it, in document order, a space between two
    /// text nodes (`Written by<a>Sir Nuno</a>` reads as two words).
    pub(crate) fn deep_text(&self, ix: NodeIx) -> String {
        let mut text = String::new();
        for d in self.descendants(ix) {
            if let Data::Text(t) = self.data(d) {
                if !text.is_empty() {
                    text.push(' ');
                }
                text.push_str(t);
            }
        }
        text
    }

    /// [`Dom::deep_text`] when it is at most `max` bytes long (the spaces between text nodes
    /// counted); `None` as soon as it is longer, without reading the rest of the subtree.
    pub(crate) fn deep_text_upto(&self, ix: NodeIx, max: usize) -> Option<String> {
        let mut text = String::new();
        for d in self.descendants(ix) {
            if let Data::Text(t) = self.data(d) {
                if text.len() + t.len() > max {
                    return None;
                }
                if !text.is_empty() {
                    text.push(' ');
                }
                text.push_str(t);
            }
        }
        Some(text)
    }

    /// The children of node `ix`, in document order.
    pub(crate) fn children(&self, ix: NodeIx) -> impl Iterator<Item = NodeIx> + '_ {
        self.siblings(self.nodes[ix as usize].first, |n| n.next)
    }

    /// The children of node `ix`, last first.
    pub(crate) fn children_rev(&self, ix: NodeIx) -> impl Iterator<Item = NodeIx> + '_ {
        self.siblings(self.nodes[ix as usize].last, |n| n.prev)
    }

    /// Node `from` and the siblings `step` leads to from it, one after the other, until none.
    fn siblings(
        &self,
        from: NodeIx,
        step: fn(&DomNode) -> NodeIx,
    ) -> impl Iterator<Item = NodeIx> + '_ {
        let mut at = from;
        std::iter::from_fn(move || {
            let this = at;
            (this != NONE).then(|| {
                at = step(&self.nodes[this as usize]);
                this
            })
        })
    }

    /// Node `ix` and all its descendants, in document (pre-)order.
    pub(crate) fn descendants(&self, ix: NodeIx) -> impl Iterator<Item = NodeIx> + '_ {
        let mut at = ix;
        std::iter::from_fn(move || {
            let this = at;
            if this == NONE {
                return None;
            }
            let node = &self.nodes[this as usize];
            at = if node.first != NONE {
                node.first
            } else {
                // Up until a node with a next sibling, never above `ix`.
                let mut up = this;
                loop {
                    if up == ix {
                        break NONE;
                    }
                    let n = &self.nodes[up as usize];
                    if n.next != NONE {
                        break n.next;
                    }
                    up = n.parent;
                    if up == NONE {
                        break NONE;
                    }
                }
            };
            Some(this)
        })
    }

    /// The first element child of the document (`<html>`).
    pub(crate) fn root_element(&self) -> Option<NodeIx> {
        self.children(Self::DOCUMENT)
            .find(|&c| self.element(c).is_some())
    }

    /// The text children of node `ix`, concatenated (the raw text of a title, script or
    /// noscript).
    pub(crate) fn child_text(&self, ix: NodeIx) -> String {
        let mut text = String::new();
        for c in self.children(ix) {
            if let Data::Text(t) = self.data(c) {
                text.push_str(t);
            }
        }
        text
    }

    /// Adds a node without a parent.
    fn orphan(&mut self, data: Data) -> NodeIx {
        let ix = self.nodes.len() as NodeIx;
        self.nodes.push(DomNode {
            parent: NONE,
            prev: NONE,
            next: NONE,
            first: NONE,
            last: NONE,
            data,
        });
        ix
    }

    /// Takes node `ix` out of its parent's children.
    fn detach(&mut self, ix: NodeIx) {
        let DomNode {
            parent, prev, next, ..
        } = self.nodes[ix as usize];
        if parent == NONE {
            return;
        }
        let node = &mut self.nodes[ix as usize];
        (node.parent, node.prev, node.next) = (NONE, NONE, NONE);
        if prev != NONE {
            self.nodes[prev as usize].next = next;
        } else {
            self.nodes[parent as usize].first = next;
        }
        if next != NONE {
            self.nodes[next as usize].prev = prev;
        } else {
            self.nodes[parent as usize].last = prev;
        }
    }

    /// Makes `child` (taken from wherever it was) the last child of `parent`.
    fn append_node(&mut self, parent: NodeIx, child: NodeIx) {
        if parent == child || self.nodes[parent as usize].last == child {
            return;
        }
        self.detach(child);
        let last = self.nodes[parent as usize].last;
        let node = &mut self.nodes[child as usize];
        (node.parent, node.prev) = (parent, last);
        if last != NONE {
            self.nodes[last as usize].next = child;
        } else {
            self.nodes[parent as usize].first = child;
        }
        self.nodes[parent as usize].last = child;
    }

    /// Puts `new` (taken from wherever it was) right before `sibling`, which has a parent.
    fn insert_before(&mut self, sibling: NodeIx, new: NodeIx) {
        if sibling == new {
            return;
        }
        self.detach(new);
        let DomNode { parent, prev, .. } = self.nodes[sibling as usize];
        let node = &mut self.nodes[new as usize];
        (node.parent, node.prev, node.next) = (parent, prev, sibling);
        if prev != NONE {
            self.nodes[prev as usize].next = new;
        } else {
            self.nodes[parent as usize].first = new;
        }
        self.nodes[sibling as usize].prev = new;
    }

    /// Appends `text` to node `ix` when it is a text node; false when it is not.
    fn extend_text(&mut self, ix: NodeIx, text: &StrTendril) -> bool {
        match self.nodes.get_mut(ix as usize).map(|n| &mut n.data) {
            Some(Data::Text(t)) => {
                t.push_tendril(text);
                true
            }
            _ => false,
        }
    }
}

/// The [`TreeSink`] html5ever builds a [`Dom`] through.
struct Sink {
    dom: RefCell<Dom>,
    /// Elements and attributes made so far, for the tokenizer's [`Budget`].
    made: Cell<usize>,
}

impl Sink {
    fn new() -> Sink {
        let mut dom = Dom {
            nodes: Vec::with_capacity(1024),
            no_name: QualName::new(None, ns!(), local_name!("")),
            cuts: ParseCuts::default(),
        };
        dom.orphan(Data::Document);
        Sink {
            dom: RefCell::new(dom),
            made: Cell::new(0),
        }
    }

    /// Counts `n` elements or attributes made.
    fn count(&self, n: usize) {
        self.made.set(self.made.get().saturating_add(n));
    }
}

impl TreeSink for Sink {
    type Handle = NodeIx;
    type Output = Dom;
    type ElemName<'a> = Ref<'a, QualName>;

    fn finish(self) -> Dom {
        self.dom.into_inner()
    }

    fn parse_error(&self, _msg: Cow<'static, str>) {}

    fn get_document(&self) -> NodeIx {
        Dom::DOCUMENT
    }

    fn elem_name<'a>(&'a self, target: &'a NodeIx) -> Ref<'a, QualName> {
        Ref::map(self.dom.borrow(), |dom| match dom.data(*target) {
            Data::Element(el) => &el.name,
            _ => &dom.no_name,
        })
    }

    fn create_element(&self, name: QualName, attrs: Vec<Attribute>, _: ElementFlags) -> NodeIx {
        let template = name.expanded() == html5ever::expanded_name!(html "template");
        self.count(1 + attrs.len());
        let mut dom = self.dom.borrow_mut();
        let ix = dom.orphan(Data::Element(Element { name, attrs }));
        if template {
            let contents = dom.orphan(Data::Other);
            dom.append_node(ix, contents);
        }
        ix
    }

    fn create_comment(&self, _text: StrTendril) -> NodeIx {
        self.dom.borrow_mut().orphan(Data::Other)
    }

    fn create_pi(&self, _target: StrTendril, _data: StrTendril) -> NodeIx {
        self.dom.borrow_mut().orphan(Data::Other)
    }

    fn append(&self, parent: &NodeIx, child: NodeOrText<NodeIx>) {
        let mut dom = self.dom.borrow_mut();
        match child {
            NodeOrText::AppendNode(node) => dom.append_node(*parent, node),
            NodeOrText::AppendText(text) => {
                let last = dom.nodes[*parent as usize].last;
                if !dom.extend_text(last, &text) {
                    let node = dom.orphan(Data::Text(text));
                    dom.append_node(*parent, node);
                }
            }
        }
    }

    fn append_based_on_parent_node(
        &self,
        element: &NodeIx,
        prev_element: &NodeIx,
        child: NodeOrText<NodeIx>,
    ) {
        let has_parent = self.dom.borrow().nodes[*element as usize].parent != NONE;
        if has_parent {
            self.append_before_sibling(element, child);
        } else {
            self.append(prev_element, child);
        }
    }

    fn append_doctype_to_document(&self, _: StrTendril, _: StrTendril, _: StrTendril) {
        let mut dom = self.dom.borrow_mut();
        let node = dom.orphan(Data::Other);
        dom.append_node(Dom::DOCUMENT, node);
    }

    fn get_template_contents(&self, target: &NodeIx) -> NodeIx {
        let first = self.dom.borrow().nodes[*target as usize].first;
        if first == NONE { *target } else { first }
    }

    fn same_node(&self, x: &NodeIx, y: &NodeIx) -> bool {
        x == y
    }

    fn set_quirks_mode(&self, _mode: QuirksMode) {}

    fn append_before_sibling(&self, sibling: &NodeIx, new_node: NodeOrText<NodeIx>) {
        let mut dom = self.dom.borrow_mut();
        if let NodeOrText::AppendNode(node) = new_node {
            dom.detach(node);
        }
        if dom.nodes[*sibling as usize].parent == NONE {
            return;
        }
        match new_node {
            NodeOrText::AppendNode(node) => dom.insert_before(*sibling, node),
            NodeOrText::AppendText(text) => {
                let prev = dom.nodes[*sibling as usize].prev;
                if !dom.extend_text(prev, &text) {
                    let node = dom.orphan(Data::Text(text));
                    dom.insert_before(*sibling, node);
                }
            }
        }
    }

    /// A second `<html>` or `<body>` tag adds the attributes the element lacks, up to
    /// [`MAX_ATTRIBUTES`] in all (the names looked up in a set, so many such tags cost time in
    /// proportion to their attributes).
    fn add_attrs_if_missing(&self, target: &NodeIx, attrs: Vec<Attribute>) {
        let mut dom = self.dom.borrow_mut();
        let dom = &mut *dom;
        if let Some(DomNode {
            data: Data::Element(el),
            ..
        }) = dom.nodes.get_mut(*target as usize)
        {
            if attrs.is_empty() {
                return;
            }
            let mut names: FxHashSet<QualName> = el.attrs.iter().map(|a| a.name.clone()).collect();
            let before = el.attrs.len();
            for attr in attrs {
                if !names.insert(attr.name.clone()) {
                    continue;
                }
                if el.attrs.len() < MAX_ATTRIBUTES {
                    el.attrs.push(attr);
                } else {
                    dom.cuts.attributes_dropped += 1;
                }
            }
            self.count(el.attrs.len() - before);
        }
    }

    fn remove_from_parent(&self, target: &NodeIx) {
        self.dom.borrow_mut().detach(*target);
    }

    fn reparent_children(&self, node: &NodeIx, new_parent: &NodeIx) {
        let mut dom = self.dom.borrow_mut();
        if node == new_parent {
            return;
        }
        let (first, last) = {
            let n = &mut dom.nodes[*node as usize];
            let ends = (n.first, n.last);
            (n.first, n.last) = (NONE, NONE);
            ends
        };
        if first == NONE {
            return;
        }
        let mut c = first;
        while c != NONE {
            dom.nodes[c as usize].parent = *new_parent;
            c = dom.nodes[c as usize].next;
        }
        let old_last = dom.nodes[*new_parent as usize].last;
        if old_last == NONE {
            dom.nodes[*new_parent as usize].first = first;
        } else {
            dom.nodes[old_last as usize].next = first;
            dom.nodes[first as usize].prev = old_last;
        }
        dom.nodes[*new_parent as usize].last = last;
    }
}

/// A map keyed by tag or attribute names (an atom hashes as its one precomputed integer, which
/// Fx spreads with one multiplication).
pub(crate) type AtomMap<V> = FxHashMap<LocalName, V>;

#[cfg(test)]
impl Dom {
    /// The tree under the document, one node a line, indented by depth: elements with their
    /// namespace and attributes, text, other nodes; the text of an HTML `<style>` or non-JSON-LD
    /// `<script>` is left out (the one thing [`Dom::parse`] drops).
    pub(crate) fn shape(&self) -> String {
        let dom = self;
        let mut out = String::new();
        let mut stack = vec![(Dom::DOCUMENT, 0usize)];
        while let Some((ix, depth)) = stack.pop() {
            let parent = dom.nodes[ix as usize].parent;
            let line = match dom.data(ix) {
                Data::Document => "#document".to_string(),
                Data::Element(el) => {
                    let attrs: Vec<String> = el
                        .attrs
                        .iter()
                        .map(|a| format!("{:?}:{}={:?}", a.name.ns, a.name.local, &*a.value))
                        .collect();
                    format!("<{:?} {}> {}", el.name.ns, el.tag(), attrs.join(" "))
                }
                Data::Text(_)
                    if dom.element(parent).is_some_and(|p| {
                        p.name.ns == ns!(html)
                            && (*p.tag() == local_name!("style")
                                || (*p.tag() == local_name!("script") && !p.is_json_ld()))
                    }) =>
                {
                    continue;
                }
                Data::Text(t) => format!("{:?}", &**t),
                Data::Other => "#other".to_string(),
            };
            out.push_str(&" ".repeat(depth));
            out.push_str(&line);
            out.push('\n');
            let kids: Vec<NodeIx> = dom.children_rev(ix).collect();
            stack.extend(kids.into_iter().map(|k| (k, depth + 1)));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The tag names of the element children of `ix`.
    fn child_tags(dom: &Dom, ix: NodeIx) -> Vec<String> {
        dom.children(ix)
            .filter_map(|c| dom.element(c).map(|e| e.tag().to_string()))
            .collect()
    }

    fn find(dom: &Dom, tag: &str) -> NodeIx {
        dom.descendants(Dom::DOCUMENT)
            .find(|&n| dom.element(n).is_some_and(|e| &**e.tag() == tag))
            .expect("element present")
    }

    #[test]
    fn misnested_tags_are_moved_as_browsers_do() {
        // The adoption agency (`</b>` inside a `<p>`) and foster parenting (text in a table).
        let dom = Dom::parse("<b>1<p>2</b>3</p><table>stray<tr><td>x</td></tr></table>");
        let body = find(&dom, "body");
        assert_eq!(child_tags(&dom, body), ["b", "p", "table"]);
        let p = find(&dom, "p");
        assert_eq!(child_tags(&dom, p), ["b"]);
        assert_eq!(dom.child_text(p), "3");
        // The stray text is put before the table.
        let texts: Vec<String> = dom
            .children(body)
            .filter_map(|c| match dom.data(c) {
                Data::Text(t) => Some(t.to_string()),
                _ => None,
            })
            .collect();
        assert_eq!(texts, ["stray"]);
        let rev: Vec<NodeIx> = dom.children_rev(body).collect();
        let mut fwd: Vec<NodeIx> = dom.children(body).collect();
        fwd.reverse();
        assert_eq!(rev, fwd);
    }

    #[test]
    fn text_is_merged_but_comments_separate_it() {
        let dom = Dom::parse("<p>a&amp;b<!-- c -->d</p>");
        let p = find(&dom, "p");
        let kids: Vec<&Data> = dom.children(p).map(|c| dom.data(c)).collect();
        assert!(matches!(
            kids[..],
            [Data::Text(_), Data::Other, Data::Text(_)]
        ));
        assert_eq!(dom.child_text(p), "a&bd");
    }

    #[test]
    fn a_page_nested_too_deep_is_parsed_with_the_deepest_elements_unwrapped() {
        let nest = |n: usize| format!("{}x{}", "<div>".repeat(n), "</div>".repeat(n));
        let depth = |dom: &Dom| {
            let mut deepest = 0;
            for n in dom.descendants(Dom::DOCUMENT) {
                let (mut d, mut at) = (0, n);
                while at != Dom::DOCUMENT {
                    at = dom.nodes[at as usize].parent;
                    d += 1;
                }
                deepest = deepest.max(d);
            }
            deepest
        };
        // Within the limit: one parse, every element kept.
        let (dom, complete) = Dom::parse_within(&nest(MAX_PARSE_DEPTH), MAX_PARSE_DEPTH);
        assert!(complete);
        assert!(depth(&dom) > MAX_PARSE_DEPTH);
        // Past it: the tokenizer stops, and the page is parsed again capped.
        let deep = nest(3 * MAX_PARSE_DEPTH);
        assert!(!Dom::parse_within(&deep, MAX_PARSE_DEPTH).1);
        let dom = Dom::parse(&deep);
        assert!(depth(&dom) <= MAX_PARSE_DEPTH + 4, "{}", depth(&dom));
        assert_eq!(
            dom.child_text(
                dom.descendants(Dom::DOCUMENT)
                    .filter(|&n| dom.element(n).is_some())
                    .last()
                    .expect("an element")
            ),
            "x"
        );
    }

    #[test]
    fn attributes_and_template_contents() {
        let dom = Dom::parse(
            "<div ID=x data-a=1 id=dup><template><p class=in>t</p></template></div>\
             <svg><a xlink:href=/s href=/h></a></svg>",
        );
        let div = dom.element(find(&dom, "div")).expect("div");
        assert_eq!(div.attr(&local_name!("id")), Some("x"));
        assert_eq!(div.attr(&LocalName::from("data-a")), Some("1"));
        assert_eq!(div.attr(&local_name!("class")), None);
        // The template's contents sit under a fragment, its first child.
        let template = find(&dom, "template");
        let fragment = dom.children(template).next().expect("fragment");
        assert!(matches!(dom.data(fragment), Data::Other));
        assert_eq!(child_tags(&dom, fragment), ["p"]);
        // A namespaced attribute is not the plain one.
        let a = dom.element(find(&dom, "a")).expect("a");
        assert_eq!(a.attr(&local_name!("href")), Some("/h"));
        let descendants = dom.descendants(template).count();
        assert_eq!(descendants, 4, "template, fragment, p, text");
    }

    /// The elements of `dom`, and their attributes.
    fn elements_and_attributes(dom: &Dom) -> (usize, usize) {
        let elements: Vec<&Element> = dom
            .nodes
            .iter()
            .filter_map(|n| match &n.data {
                Data::Element(el) => Some(el),
                _ => None,
            })
            .collect();
        (elements.len(), elements.iter().map(|e| e.attrs.len()).sum())
    }

    #[test]
    fn reopened_formatting_elements_stay_within_the_page_budget() {
        // A `<b>` of 20,000 attributes closed by `</div>`, then reopened, with a copy of its
        // attributes, for the text of each of 2,000 later blocks: 40 million attributes
        // (12 s and 1.6 GB) for a page of 200 KB.
        let attrs: String = (0..20_000).map(|i| format!(" a{i}=x")).collect();
        let copies = format!(
            "<div><b{attrs}></div>{}<p>the end</p>",
            "<div>x</div>".repeat(2_000)
        );
        // A thousand formatting elements closed at once, all reopened for each paragraph.
        let many: String = (0..1_000).map(|i| format!("<b id=b{i}>")).collect();
        let nested = format!("<div>{many}</div>{}", "<p>x</p>".repeat(20_000));
        for html in [copies, nested] {
            let dom = Dom::parse(&html);
            let (elements, attributes) = elements_and_attributes(&dom);
            let made = elements + attributes;
            // The budget, and what one text run may reopen past it.
            let most = parse_budget(html.len()) + 1_000 * (1 + MAX_ATTRIBUTES);
            assert!(made <= most, "{made} made, {most} allowed");
            let at = dom.cuts.stopped_at.expect("stopped");
            assert!(at > 0 && at < html.len(), "{at}");
        }
    }

    #[test]
    fn ordinary_and_wide_pages_lose_nothing() {
        let attrs: String = (0..200).map(|i| format!(" data-a{i}=x")).collect();
        let html = format!(
            "<p><b>bold</p><p>again</p><p>and again</p><div{attrs}>wide</div>{}",
            "<p><i>x</i> y</p>".repeat(10_000)
        );
        let dom = Dom::parse(&html);
        assert_eq!(dom.cuts, ParseCuts::default());
        assert_eq!(elements_and_attributes(&dom).1, 200);
    }

    #[test]
    fn repeated_body_tags_add_at_most_max_attributes() {
        let tag = |p: &str| -> String {
            let attrs: String = (0..300).map(|i| format!(" {p}{i}=x")).collect();
            format!("<body{attrs}>")
        };
        let html = format!("{}{}{}text", tag("a"), tag("b"), tag("a").repeat(50));
        let dom = Dom::parse(&html);
        let body = dom.element(find(&dom, "body")).expect("body");
        assert_eq!(body.attrs.len(), MAX_ATTRIBUTES);
        assert_eq!(body.attr(&LocalName::from("a0")), Some("x"));
        // Each tag drops 44 of its 300; the second's other 256 find the body full.
        assert_eq!(dom.cuts.attributes_dropped, 52 * 44 + 256);
    }
}
