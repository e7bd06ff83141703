//! WISDOM, Kao, Ho and Chen (2005), *Web intrapage informative structure mining based on DOM*
//! (`../shared/papers/002_52569c68bfaf406b.txt`): a site-aware cleaner. It weighs every term by
//! its entropy over the site's pages, builds the page's information coverage tree, finds the
//! most informative blocks top-down and grows them into the page's informative structure (IS):
//! its article blocks and its table-of-contents (TOC) blocks.
//!
//! - **Term entropy (§3.1).** `EN(t) = -Σᵢ wᵢ logₙ wᵢ` over the site's `n` learnt pages, `wᵢ`
//!   the page's share of the term's frequency (the formula of InfoDiscoverer's features,
//!   [`crate::feature_entropy`]); learnt one page at a time by the paper's incremental update
//!   ([`incremental_entropy`]). A term's weight is `W(t) = 1 - EN(t)` ([`term_weight`]).
//!   Terms are docview's analyser's (stop words removed, stemmed; jieba's words for Chinese);
//!   numbers are left out, as the paper does. A term the learnt pages do not have (the page is
//!   not in the sample) is one page's own: `EN` 0, weight 1.
//! - **Node features (§3.1).** docview's container nodes are the DOM nodes. `CLEN` is the
//!   length of a node's own text outside anchors and `ALEN` inside them, in terms.
//!   `CII(N)` is the mean weight of the terms of `N`'s inner text. `API(N)` sums, over the
//!   anchors of `N`, `1 / EN(t)` for each term `t` of the anchor text that the linked page
//!   holds too, when the linked page is one of the site's learnt pages (the page's
//!   [`TagTree::url`] resolves its hrefs); a term of entropy 0 adds nothing (the paper's
//!   terms are in two pages at least). The text around an anchor is not counted.
//! - **Information coverage tree (§3.2.1).** Features aggregate bottom-up: `F_A(N) = F(N) +
//!   Σ F_A(child)`, Figure 7. A node that has text of its own and child nodes gets its own
//!   text as one more, leaf child, as a DOM text node would be.
//! - **SII (§3.1.3).** `SII(N, f) = -Σⱼ wⱼ logₘ wⱼ` over the `m` children with `f_A > 0`,
//!   `wⱼ` a child's share; 0 for a node with fewer than two such children (dummy children,
//!   whose feature is 0, are left out as the paper leaves out `<br>` and comments).
//! - **k-MIB (§3.2.2).** From the root, the node of largest `f_A` is popped; it is a block
//!   when its `SII(f_A)` exceeds `ST` or it is a leaf, and it joins the skeleton when it
//!   meets its type constraint; else its children are pushed. Article blocks search by
//!   `CLEN_A` with the constraint `CII(N) > 1 - TC_article`, TOC blocks by `API_A` with
//!   `API_A(N) / anchors(N) > TC_TOC`.
//! - **Expanding and condensing (§3.3).** DSTM merges a skeleton node's siblings that meet the
//!   type constraint and have a smaller `f_A`; k-CSTM does the same for the k-th ancestor
//!   that has a non-dummy sibling. Condensing removes, below the merged nodes, every subtree
//!   whose root is dummy (`CLEN_A` 0 for articles, `ALEN_A` 0 for TOCs) or fails the type
//!   constraint.
//! - **Defaults (§4.4):** k = 1, ST = 0.8, TC = (0.8, 1.25), DSTM and 1-CSTM.
//!
//! The topic content is the article blocks; a page without one (a hub) keeps its TOC blocks.
//! [`Wisdom::structure`] and [`Cleaner::explain_in_site`] report both. A site with fewer than
//! [`WisdomParams::min_pages`] pages has no model, and the fallback (the default cleaner)
//! cleans its pages.

use std::cmp::Ordering;
use std::collections::BinaryHeap;

use rustc_hash::FxHashMap;

use docview_page::{Counts, NodeId, TagTree};
use docview_text::{Analyzer, Language};

use crate::infodiscoverer::{feature_key, lowest_common_ancestor, page_language};
use crate::{BlockEvidence, Cleaned, Cleaner, Decision, SiteLearner, SiteModel};

/// WISDOM's parameters; the defaults are the paper's (§4.4).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct WisdomParams {
    /// `k` of k-MIB: at most this many skeleton blocks of each type.
    pub k: usize,
    /// `ST`, the SII threshold.
    pub st: f32,
    /// `TC_article`: an article block's mean term entropy stays below it (`CII > 1 - TC`).
    pub tc_article: f32,
    /// `TC_TOC`: a TOC block's `API_A` per anchor exceeds it.
    pub tc_toc: f32,
    /// The `k` of k-CSTM: collateral merging up to this many ancestors (0: DSTM only).
    pub cstm: usize,
    /// Fewer pages than this in a site: no model, the fallback cleans them.
    pub min_pages: usize,
    /// At most this many pages of a site are learnt from (the first ones).
    pub max_pages: usize,
}

impl Default for WisdomParams {
    fn default() -> Self {
        WisdomParams {
            k: 1,
            st: 0.8,
            tc_article: 0.8,
            tc_toc: 1.25,
            cstm: 1,
            min_pages: 3,
            max_pages: 64,
        }
    }
}

/// `E_{k+1}` of a term from `E_k` (its entropy over the first `k` pages, logarithm base `k`),
/// its total frequency `total` over them and its frequency `tf` in page `k + 1` (§3.1): with
/// `H = E_k ln k` the entropy in nats, `S = total ln total - total H` is `Σ f ln f` over the
/// pages, and `E_{k+1} = (ln T' - (S + tf ln tf) / T') / ln(k + 1)` with `T' = total + tf`;
/// when `tf` is 0 this is `E_k log_{k+1} k`.
pub(crate) fn incremental_entropy(previous: f64, total: u64, tf: u32, k: usize) -> f64 {
    let ln_next = ((k + 1) as f64).ln();
    if ln_next == 0.0 {
        return 0.0;
    }
    let h = if k >= 2 {
        previous * (k as f64).ln()
    } else {
        0.0
    };
    if tf == 0 {
        return h / ln_next;
    }
    let total = total as f64;
    let s = if total > 0.0 {
        total * total.ln() - total * h
    } else {
        0.0
    };
    let tf = tf as f64;
    let grown = total + tf;
    let h_next = grown.ln() - (s + tf * tf.ln()) / grown;
    (h_next / ln_next).clamp(0.0, 1.0)
}

/// `W(t) = 1 - EN(t)`: a term's weight (§3.1).
pub(crate) fn term_weight(entropy: f32) -> f32 {
    1.0 - entropy
}

/// The SII of a node (§3.1.3) from its children's aggregated feature values: the entropy of
/// their shares, logarithm base the number of children with a value above 0; 0 for fewer
/// than two of them.
pub(crate) fn structure_information(children: &[f64]) -> f32 {
    let m = children.iter().filter(|&&f| f > 0.0).count();
    let total: f64 = children.iter().filter(|&&f| f > 0.0).sum();
    if m < 2 || total <= 0.0 {
        return 0.0;
    }
    let ln_m = (m as f64).ln();
    let h: f64 = children
        .iter()
        .filter(|&&f| f > 0.0)
        .map(|&f| {
            let w = f / total;
            -w * w.ln() / ln_m
        })
        .sum();
    h.clamp(0.0, 1.0) as f32
}

/// What WISDOM learnt of one site: each term's entropy and each learnt page's terms (for
/// `API`). Terms and pages are 64-bit hashes (FxHash, deterministic), sorted.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SiteTerms {
    /// Pages learnt from (`n`).
    pub pages: usize,
    /// `EN(t)` of each term of the learnt pages, by term key, sorted by key.
    pub entropy: Vec<(u64, f32)>,
    /// The terms of each learnt page whose URL was known: (page key, its sorted term keys),
    /// sorted by page key.
    pub linked: Vec<(u64, Box<[u64]>)>,
}

impl SiteTerms {
    /// `EN(t)` of `term`; 0 for a term the learnt pages do not have (one page's own).
    pub fn entropy_of(&self, term: &str) -> f32 {
        self.entropy_of_key(feature_key(term))
    }

    fn entropy_of_key(&self, key: u64) -> f32 {
        self.entropy
            .binary_search_by_key(&key, |&(k, _)| k)
            .map_or(0.0, |i| self.entropy[i].1)
    }

    /// The term keys of the learnt page at `url_key`, if it is one.
    fn page_terms(&self, url_key: u64) -> Option<&[u64]> {
        self.linked
            .binary_search_by_key(&url_key, |(k, _)| *k)
            .ok()
            .map(|i| &*self.linked[i].1)
    }
}

/// The key a page is known by: its host, path and query (not its scheme or fragment).
fn page_key(url: &url::Url) -> u64 {
    let mut key = String::new();
    key.push_str(url.host_str().unwrap_or(""));
    key.push_str(url.path());
    if let Some(q) = url.query() {
        key.push('?');
        key.push_str(q);
    }
    feature_key(&key)
}

/// The URL a page's hrefs resolve against: its `<base href>` over its own URL.
fn base_url(tree: &TagTree) -> Option<url::Url> {
    let own = url::Url::parse(tree.url.as_deref()?).ok()?;
    match tree.base_href.as_deref() {
        Some(base) => own.join(base).ok().or(Some(own)),
        None => Some(own),
    }
}

/// Calls `emit` with the key of each term of `text` (numbers left out).
fn for_each_term_key(analyzer: &Analyzer, text: &str, lang: Language, mut emit: impl FnMut(u64)) {
    analyzer.for_each_term(text, lang, |term| {
        if !term.chars().all(char::is_numeric) {
            emit(feature_key(term));
        }
    });
}

/// One term's learning state: total frequency, entropy and the pages it has seen.
#[derive(Debug, Clone, Copy)]
struct TermState {
    total: u64,
    entropy: f64,
    /// Pages learnt when `entropy` was last brought up to date.
    at: usize,
}

impl TermState {
    /// The entropy after `k` pages, the pages since `at` without the term.
    fn entropy_at(&self, k: usize) -> f64 {
        if self.at < 2 || k <= self.at {
            return if k <= self.at { self.entropy } else { 0.0 };
        }
        self.entropy * (self.at as f64).ln() / (k as f64).ln()
    }
}

/// Learns one site's [`SiteTerms`], one page at a time, by the incremental update: a state per
/// distinct term of the site (24 bytes) and each learnt page's distinct terms (8 bytes each).
struct Learner {
    params: WisdomParams,
    analyzer: Analyzer,
    terms: FxHashMap<u64, TermState>,
    pages: usize,
    linked: Vec<(u64, Box<[u64]>)>,
}

impl SiteLearner for Learner {
    fn add(&mut self, tree: &TagTree) {
        if self.pages >= self.params.max_pages {
            return;
        }
        let lang = page_language(tree);
        let visible = tree.visible_nodes();
        let mut counts: FxHashMap<u64, u32> = FxHashMap::default();
        for (id, node) in tree.nodes.iter().enumerate() {
            if !visible[id] || node.own.terms == 0 {
                continue;
            }
            let text = docview_measure::block_text(tree, id as NodeId);
            for_each_term_key(&self.analyzer, &text, lang, |key| {
                *counts.entry(key).or_insert(0) += 1;
            });
        }
        let k = self.pages;
        for (&key, &tf) in &counts {
            let state = self.terms.entry(key).or_insert(TermState {
                total: 0,
                entropy: 0.0,
                at: k,
            });
            let before = state.entropy_at(k);
            state.entropy = incremental_entropy(before, state.total, tf, k);
            state.total += tf as u64;
            state.at = k + 1;
        }
        self.pages += 1;
        if let Some(url) = tree.url.as_deref().and_then(|u| url::Url::parse(u).ok()) {
            let mut keys: Vec<u64> = counts.into_keys().collect();
            keys.sort_unstable();
            self.linked.push((page_key(&url), keys.into_boxed_slice()));
        }
    }

    fn finish(self: Box<Self>) -> Option<SiteModel> {
        let n = self.pages;
        if n < self.params.min_pages.max(2) {
            return None;
        }
        let mut entropy: Vec<(u64, f32)> = self
            .terms
            .iter()
            .map(|(&key, state)| (key, state.entropy_at(n) as f32))
            .collect();
        entropy.sort_unstable_by_key(|e| e.0);
        let mut linked = self.linked;
        // The first learnt page of a URL stands for it.
        linked.sort_by_key(|e| e.0);
        linked.dedup_by_key(|e| e.0);
        Some(SiteModel::Wisdom(SiteTerms {
            pages: n,
            entropy,
            linked,
        }))
    }
}

/// The block types WISDOM mines.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum BlockKind {
    /// Article blocks: searched by `CLEN_A`, constrained by `CII`.
    Article,
    /// Table-of-contents blocks: searched by `API_A`, constrained by `API_A` per anchor.
    Toc,
}

/// A node of the information coverage tree: a container node, or the own text of one that
/// has child nodes too (then its first child).
#[derive(Debug, Clone, Default)]
struct IctNode {
    parent: Option<u32>,
    children: Vec<u32>,
    /// Its features, aggregated over its subtree (`CLEN_A`, `ALEN_A`, `API_A`, ...).
    f: Features,
}

/// A node's features (§3.1): its own before aggregation, its subtree's after.
#[derive(Debug, Clone, Copy, Default)]
struct Features {
    /// `CLEN`, `ALEN`, `API`.
    clen: f64,
    alen: f64,
    api: f64,
    /// Sum of the weights of the terms of the text and their number (`CII`).
    weight_sum: f64,
    terms: f64,
    /// Anchors.
    anchors: u32,
}

impl Features {
    fn has_content(&self) -> bool {
        self.clen > 0.0 || self.alen > 0.0 || self.anchors > 0
    }

    /// Adds a child's (aggregated) features: Figure 7's `F_A(N) = F(N) + Σ F_A(child)`.
    fn add(&mut self, child: &Features) {
        self.clen += child.clen;
        self.alen += child.alen;
        self.api += child.api;
        self.weight_sum += child.weight_sum;
        self.terms += child.terms;
        self.anchors += child.anchors;
    }
}

impl IctNode {
    fn feature(&self, kind: BlockKind) -> f64 {
        match kind {
            BlockKind::Article => self.f.clen,
            BlockKind::Toc => self.f.api,
        }
    }

    fn cii(&self) -> f32 {
        if self.f.terms > 0.0 {
            (self.f.weight_sum / self.f.terms) as f32
        } else {
            0.0
        }
    }

    fn is_dummy(&self, kind: BlockKind) -> bool {
        match kind {
            BlockKind::Article => self.f.clen <= 0.0,
            BlockKind::Toc => self.f.alen <= 0.0,
        }
    }
}

/// A page's information coverage tree (§3.2.1).
#[derive(Debug, Clone)]
struct Ict {
    nodes: Vec<IctNode>,
    /// The ICT node of each container node (`u32::MAX` for hidden ones).
    of_node: Vec<u32>,
    /// The own-text ICT node of each container that has one apart from itself.
    own_of: Vec<u32>,
}

const NONE: u32 = u32::MAX;

impl Ict {
    fn build(tree: &TagTree, site: &SiteTerms, analyzer: &Analyzer) -> Ict {
        let lang = page_language(tree);
        let visible = tree.visible_nodes();
        let mut own: Vec<Features> = vec![Features::default(); tree.nodes.len()];
        for (id, node) in tree.nodes.iter().enumerate() {
            if !visible[id] {
                continue;
            }
            let Counts {
                terms,
                anchor_terms,
                links,
                ..
            } = node.own;
            let o = &mut own[id];
            o.clen = terms.saturating_sub(anchor_terms) as f64;
            o.alen = anchor_terms as f64;
            o.anchors = links;
            if terms > 0 {
                let text = docview_measure::block_text(tree, id as NodeId);
                for_each_term_key(analyzer, &text, lang, |key| {
                    o.weight_sum += term_weight(site.entropy_of_key(key)) as f64;
                    o.terms += 1.0;
                });
            }
        }
        // API: each anchor whose linked page the site learnt.
        if let Some(base) = base_url(tree) {
            for link in &tree.links {
                let id = link.node as usize;
                if !visible.get(id).copied().unwrap_or(false) {
                    continue;
                }
                let Some(target) = base.join(&link.href).ok() else {
                    continue;
                };
                let Some(linked) = site.page_terms(page_key(&target)) else {
                    continue;
                };
                let mut matched: Vec<u64> = Vec::new();
                for_each_term_key(analyzer, tree.slice(link.start, link.end), lang, |key| {
                    if linked.binary_search(&key).is_ok() {
                        matched.push(key);
                    }
                });
                matched.sort_unstable();
                matched.dedup();
                own[id].api += matched
                    .iter()
                    .map(|&key| site.entropy_of_key(key) as f64)
                    .filter(|&en| en > 0.0)
                    .map(|en| 1.0 / en)
                    .sum::<f64>();
            }
        }
        let mut ict = Ict {
            nodes: Vec::with_capacity(tree.nodes.len()),
            of_node: vec![NONE; tree.nodes.len()],
            own_of: vec![NONE; tree.nodes.len()],
        };
        for (id, node) in tree.nodes.iter().enumerate() {
            if !visible[id] {
                continue;
            }
            let index = ict.nodes.len() as u32;
            ict.of_node[id] = index;
            let parent = node.parent.map(|p| ict.of_node[p as usize]);
            if let Some(p) = parent {
                ict.nodes[p as usize].children.push(index);
            }
            let with_children = node.children.iter().any(|&c| visible[c as usize]);
            let o = own[id];
            let apart = with_children && o.has_content();
            ict.nodes.push(IctNode {
                parent,
                children: Vec::new(),
                f: if apart { Features::default() } else { o },
            });
            if apart {
                let text = ict.nodes.len() as u32;
                ict.own_of[id] = text;
                ict.nodes[index as usize].children.push(text);
                ict.nodes.push(IctNode {
                    parent: Some(index),
                    children: Vec::new(),
                    f: o,
                });
            }
        }
        // Bottom-up aggregation: every child comes after its parent.
        for i in (1..ict.nodes.len()).rev() {
            let Some(p) = ict.nodes[i].parent else {
                continue;
            };
            let child = ict.nodes[i].f;
            ict.nodes[p as usize].f.add(&child);
        }
        ict
    }

    fn sii(&self, i: u32, kind: BlockKind) -> f32 {
        let values: Vec<f64> = self.nodes[i as usize]
            .children
            .iter()
            .map(|&c| self.nodes[c as usize].feature(kind))
            .collect();
        structure_information(&values)
    }

    fn meets(&self, i: u32, kind: BlockKind, params: &WisdomParams) -> bool {
        let n = &self.nodes[i as usize];
        if n.is_dummy(kind) {
            return false;
        }
        match kind {
            BlockKind::Article => n.cii() > 1.0 - params.tc_article,
            BlockKind::Toc => {
                n.f.anchors > 0 && n.f.api / n.f.anchors as f64 > params.tc_toc as f64
            }
        }
    }

    /// k-MIB (§3.2.2): the skeleton nodes of `kind`, in the order found.
    fn mib(&self, kind: BlockKind, params: &WisdomParams) -> Vec<u32> {
        /// A heap entry: the largest `f_A` first, then the first node.
        struct Entry(f64, u32);
        impl PartialEq for Entry {
            fn eq(&self, other: &Self) -> bool {
                self.cmp(other) == Ordering::Equal
            }
        }
        impl Eq for Entry {}
        impl PartialOrd for Entry {
            fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
                Some(self.cmp(other))
            }
        }
        impl Ord for Entry {
            fn cmp(&self, other: &Self) -> Ordering {
                self.0.total_cmp(&other.0).then(other.1.cmp(&self.1))
            }
        }
        let mut skeleton = Vec::new();
        if self.nodes.is_empty() {
            return skeleton;
        }
        let mut heap = BinaryHeap::new();
        heap.push(Entry(self.nodes[0].feature(kind), 0));
        while skeleton.len() < params.k {
            let Some(Entry(f, i)) = heap.pop() else {
                break;
            };
            if f <= 0.0 {
                break;
            }
            let node = &self.nodes[i as usize];
            let leaf = node
                .children
                .iter()
                .all(|&c| self.nodes[c as usize].feature(kind) <= 0.0);
            if leaf || self.sii(i, kind) > params.st {
                if self.meets(i, kind, params) {
                    skeleton.push(i);
                }
            } else {
                for &c in &node.children {
                    let f = self.nodes[c as usize].feature(kind);
                    if f > 0.0 {
                        heap.push(Entry(f, c));
                    }
                }
            }
        }
        skeleton
    }

    /// DSTM (§3.3): the siblings of `s` that meet the type constraint with a smaller `f_A`.
    fn dstm(&self, s: u32, kind: BlockKind, params: &WisdomParams) -> Vec<u32> {
        let Some(p) = self.nodes[s as usize].parent else {
            return Vec::new();
        };
        let f = self.nodes[s as usize].feature(kind);
        self.nodes[p as usize]
            .children
            .iter()
            .copied()
            .filter(|&c| {
                c != s && self.nodes[c as usize].feature(kind) < f && self.meets(c, kind, params)
            })
            .collect()
    }

    /// The `k`-th ancestor of `s` that has a non-dummy sibling (§3.3's `P_k`).
    fn nonsingleton_ancestor(&self, s: u32, k: usize, kind: BlockKind) -> Option<u32> {
        let mut found = 0;
        let mut at = self.nodes[s as usize].parent?;
        loop {
            let parent = self.nodes[at as usize].parent?;
            let siblings = self.nodes[parent as usize]
                .children
                .iter()
                .filter(|&&c| c != at && !self.nodes[c as usize].is_dummy(kind))
                .count();
            if siblings > 0 {
                found += 1;
                if found == k {
                    return Some(at);
                }
            }
            at = parent;
        }
    }

    /// The informative structure of `kind`: k-MIB's skeleton expanded by DSTM and k-CSTM,
    /// then condensed. Returns the kept ICT nodes (`true` by index).
    fn structure(&self, kind: BlockKind, params: &WisdomParams) -> Vec<bool> {
        let mut roots: Vec<u32> = Vec::new();
        for s in self.mib(kind, params) {
            roots.push(s);
            roots.extend(self.dstm(s, kind, params));
            for k in 1..=params.cstm {
                if let Some(p) = self.nonsingleton_ancestor(s, k, kind) {
                    roots.extend(self.dstm(p, kind, params));
                }
            }
        }
        let mut kept = vec![false; self.nodes.len()];
        let mut stack: Vec<(u32, bool)> = roots.into_iter().map(|r| (r, true)).collect();
        while let Some((i, root)) = stack.pop() {
            if kept[i as usize] || (!root && !self.meets(i, kind, params)) {
                continue;
            }
            kept[i as usize] = true;
            stack.extend(self.nodes[i as usize].children.iter().map(|&c| (c, false)));
        }
        kept
    }
}

/// A page's informative structure (§1): the container nodes of its article blocks and of its
/// TOC blocks whose own text is kept, in document order.
#[cfg(test)]
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct InformativeStructure {
    /// Nodes of the article blocks.
    pub article: Vec<NodeId>,
    /// Nodes of the TOC blocks.
    pub toc: Vec<NodeId>,
}

/// The WISDOM cleaner (see the module documentation).
pub(crate) struct Wisdom {
    /// Its parameters.
    pub params: WisdomParams,
    analyzer: Analyzer,
    fallback: Box<dyn Cleaner>,
}

impl std::fmt::Debug for Wisdom {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Wisdom")
            .field("params", &self.params)
            .field("fallback", &self.fallback.name())
            .finish()
    }
}

/// The container nodes whose own text `kept` (over `ict`'s nodes) holds, in document order.
fn own_text_kept(tree: &TagTree, ict: &Ict, kept: &[bool]) -> Vec<bool> {
    (0..tree.nodes.len())
        .map(|id| {
            let i = match ict.own_of[id] {
                NONE => ict.of_node[id],
                own => own,
            };
            i != NONE && kept[i as usize]
        })
        .collect()
}

impl Wisdom {
    /// WISDOM with `params`; pages of sites without a model are cleaned by `fallback`.
    pub(crate) fn new(params: WisdomParams, fallback: Box<dyn Cleaner>) -> Self {
        Wisdom {
            params,
            analyzer: Analyzer::new(),
            fallback,
        }
    }

    /// The page's article and TOC blocks under `site`.
    #[cfg(test)]
    pub(crate) fn structure(&self, tree: &TagTree, site: &SiteTerms) -> InformativeStructure {
        let ict = Ict::build(tree, site, &self.analyzer);
        let nodes = |kind| {
            let kept = own_text_kept(tree, &ict, &ict.structure(kind, &self.params));
            (0..tree.nodes.len() as NodeId)
                .filter(|&id| kept[id as usize] && tree.node(id).own.terms > 0)
                .collect()
        };
        InformativeStructure {
            article: nodes(BlockKind::Article),
            toc: nodes(BlockKind::Toc),
        }
    }

    fn clean_with(&self, tree: &TagTree, site: &SiteTerms) -> Cleaned {
        let ict = Ict::build(tree, site, &self.analyzer);
        let mut own = own_text_kept(tree, &ict, &ict.structure(BlockKind::Article, &self.params));
        let with_text = |own: &[bool]| {
            (0..tree.nodes.len() as NodeId)
                .filter(|&id| own[id as usize] && tree.node(id).own.terms > 0)
                .collect::<Vec<NodeId>>()
        };
        let mut kept = with_text(&own);
        let (article, toc) = (
            "an article block of the informative structure",
            "a TOC block of the informative structure",
        );
        let mut reason = article;
        if kept.is_empty() {
            own = own_text_kept(tree, &ict, &ict.structure(BlockKind::Toc, &self.params));
            kept = with_text(&own);
            reason = toc;
        }
        let Some(root) = lowest_common_ancestor(tree, &kept) else {
            return Cleaned::empty(tree);
        };
        // A node is rendered when its own text is kept, passed through when a descendant's is.
        let mut below = own.clone();
        for id in (1..tree.nodes.len()).rev() {
            if below[id]
                && let Some(p) = tree.nodes[id].parent
            {
                below[p as usize] = true;
            }
        }
        let mut counts = Counts::default();
        let decisions: Vec<Decision> = (0..tree.nodes.len())
            .map(|id| {
                if own[id] {
                    counts.add(&tree.nodes[id].own);
                    Decision::kept(reason)
                } else if below[id] {
                    Decision::text_dropped("outside the informative structure, above a block of it")
                } else {
                    Decision::dropped("outside the informative structure")
                }
            })
            .collect();
        Cleaned::rendered(
            tree,
            counts.block_type(),
            root,
            decisions,
            docview_measure::block_weights(tree),
        )
    }
}

impl Cleaner for Wisdom {
    fn kind(&self) -> crate::CleanerKind {
        crate::CleanerKind::Wisdom
    }

    /// A page alone has no site to learn from: the fallback cleans it.
    fn clean(&self, tree: &TagTree) -> Cleaned {
        self.fallback.clean(tree)
    }

    fn explain(&self, tree: &TagTree) -> Vec<BlockEvidence> {
        self.fallback.explain(tree)
    }

    fn site_learner(&self) -> Option<Box<dyn SiteLearner>> {
        Some(Box::new(Learner {
            params: self.params,
            analyzer: self.analyzer.clone(),
            terms: FxHashMap::default(),
            pages: 0,
            linked: Vec::new(),
        }))
    }

    fn needs_site_models(&self) -> bool {
        true
    }

    fn clean_in_site(&self, tree: &TagTree, site: Option<&SiteModel>) -> Cleaned {
        match site {
            Some(SiteModel::Wisdom(model)) => self.clean_with(tree, model),
            _ => self.fallback.clean(tree),
        }
    }

    /// Each visible container with text: its aggregated features, CII, SII of `CLEN_A` and of
    /// `API_A`, and whether it is in the article or the TOC blocks. The score is its CII.
    fn explain_in_site(&self, tree: &TagTree, site: Option<&SiteModel>) -> Vec<BlockEvidence> {
        let Some(SiteModel::Wisdom(model)) = site else {
            return self.fallback.explain(tree);
        };
        let ict = Ict::build(tree, model, &self.analyzer);
        let article = own_text_kept(tree, &ict, &ict.structure(BlockKind::Article, &self.params));
        let toc = own_text_kept(tree, &ict, &ict.structure(BlockKind::Toc, &self.params));
        (0..tree.nodes.len())
            .filter(|&id| ict.of_node[id] != NONE && tree.nodes[id].subtree.terms > 0)
            .map(|id| {
                let i = ict.of_node[id];
                let n = &ict.nodes[i as usize];
                BlockEvidence {
                    node: id as NodeId,
                    score: n.cii(),
                    features: vec![
                        ("clen_a", n.f.clen as f32),
                        ("alen_a", n.f.alen as f32),
                        ("api_a", n.f.api as f32),
                        ("cii", n.cii()),
                        ("sii_clen_a", ict.sii(i, BlockKind::Article)),
                        ("sii_api_a", ict.sii(i, BlockKind::Toc)),
                        ("article_block", f32::from(u8::from(article[id]))),
                        ("toc_block", f32::from(u8::from(toc[id]))),
                    ],
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::infodiscoverer::feature_entropy;

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() < eps
    }

    /// Term weights of Figure 5, over four pages: `Term_a` twice in each of pages 1-3 weighs
    /// its IDF, `log₄ 4/3 = 0.2075`; `Term_b`, as often and in as many pages but four of its
    /// six times in page 3, weighs more, 0.3742.
    #[test]
    fn term_weights_of_figure_five() {
        let a = term_weight(feature_entropy(&[2, 2, 2, 0], 4)) as f64;
        let b = term_weight(feature_entropy(&[1, 1, 4, 0], 4)) as f64;
        assert!(close(a, 0.207519, 1e-5), "{a}");
        assert!(close(b, 0.374185, 1e-5), "{b}");
        assert!(close(a, (4.0f64 / 3.0).log(4.0), 1e-5));
        // The incremental update gives the same, page by page.
        for (tfs, want) in [([2, 2, 2, 0], a), ([1, 1, 4, 0], b)] {
            let (mut e, mut total) = (0.0, 0u64);
            for (k, &tf) in tfs.iter().enumerate() {
                e = incremental_entropy(e, total, tf, k);
                total += tf as u64;
            }
            assert!(close(1.0 - e, want, 1e-6), "{tfs:?}: {}", 1.0 - e);
        }
    }

    #[test]
    fn the_incremental_update_matches_the_direct_entropy() {
        let rows: [&[u32]; 4] = [&[3, 0, 1, 5, 0, 2], &[0, 0, 7], &[1, 1, 1, 1], &[9]];
        for tfs in rows {
            let (mut e, mut total) = (0.0, 0u64);
            for (k, &tf) in tfs.iter().enumerate() {
                e = incremental_entropy(e, total, tf, k);
                total += tf as u64;
                let direct = feature_entropy(&tfs[..=k], k + 1) as f64;
                assert!(close(e, direct, 1e-5), "{tfs:?} at {k}: {e} vs {direct}");
            }
        }
        // A term learnt lazily (pages without it caught up at once) agrees too.
        let state = TermState {
            total: 4,
            entropy: feature_entropy(&[2, 2], 2) as f64,
            at: 2,
        };
        let direct = feature_entropy(&[2, 2, 0, 0, 0], 5) as f64;
        assert!(close(state.entropy_at(5), direct, 1e-6));
    }

    #[test]
    fn sii_is_high_when_children_share_alike() {
        assert!((structure_information(&[5.0, 5.0, 5.0, 5.0]) - 1.0).abs() < 1e-6);
        let skewed = structure_information(&[40.0, 1.0, 1.0]);
        assert!(skewed > 0.0 && skewed < 0.3, "{skewed}");
        // Dummy children (0) do not count; one child is no distribution.
        assert_eq!(structure_information(&[7.0, 0.0]), 0.0);
        assert!((structure_information(&[3.0, 3.0, 0.0]) - 1.0).abs() < 1e-6);
    }

    fn no_site() -> SiteTerms {
        SiteTerms {
            pages: 4,
            entropy: Vec::new(),
            linked: Vec::new(),
        }
    }

    /// Figure 7: the node marked × has 3 of its own and children of 3 and 0: 6; the one marked
    /// ×× has 1 of its own and children of 1 and 6: 8.
    #[test]
    fn features_aggregate_bottom_up_as_in_figure_seven() {
        let tree = docview_page::build(
            "<body><div id=top>alpha <p>bravo</p><div id=x>charlie delta echo \
             <p>foxtrot golf hotel</p><p><img src=a.png alt=''></p></div></div></body>",
        );
        let ict = Ict::build(&tree, &no_site(), &Analyzer::new());
        let label = |l: &str| {
            let id = tree
                .nodes
                .iter()
                .position(|n| n.label.starts_with(l))
                .expect(l);
            &ict.nodes[ict.of_node[id] as usize]
        };
        assert_eq!(label("div#x").f.clen, 6.0);
        assert_eq!(label("div#top").f.clen, 8.0);
        // The own text of ×× is a leaf child of it, beside its two nodes.
        assert_eq!(label("div#top").children.len(), 3);
        // Unseen terms weigh 1: CII 1.
        assert_eq!(label("div#top").cii(), 1.0);
    }

    /// A news site of five pages: a front page of headlines linking to four stories, each
    /// story page with the site's menu, its story (with sharing links inside) and a footer.
    const STORIES: [(&str, &str, &str); 4] = [
        (
            "flood",
            "Orchard road flooded",
            "Floodwater covered the orchard road after three nights of storms. \
             Farmers moved their cattle to the upper pastures before dawn. \
             The county engineer said the culverts were blocked by fallen branches. \
             Crews expect to reopen the road once the river falls below the bridge.",
        ),
        (
            "bridge",
            "Volunteers rebuild footbridge",
            "Volunteers rebuilt the wooden footbridge across the mill stream. \
             Timber came from a sawmill that closed a decade ago. \
             Children from the village school painted the railings green. \
             The walking club will hold its spring meeting on the new deck.",
        ),
        (
            "honey",
            "Honey yields double",
            "Beekeepers reported honey yields doubling since the lavender planting. \
             The cooperative sold its whole harvest at the autumn fair. \
             A researcher from the college is counting the hives each month. \
             Neighbouring parishes asked for seedlings to plant on their verges.",
        ),
        (
            "balloon",
            "Students launch camera balloon",
            "Students launched a balloon carrying cameras above the hills. \
             It climbed for two hours before the envelope burst over the moor. \
             A farmer found the payload in a hedge and returned it to the school. \
             The photographs show the curve of the coast and the estuary sands.",
        ),
    ];

    fn menu() -> &'static str {
        "<ul id=menu><li><a href=/>Home</a></li><li><a href=/news>News</a></li>\
         <li><a href=/weather>Weather</a></li><li><a href=/sport>Sport</a></li></ul>"
    }

    fn story_page(i: usize) -> TagTree {
        let (slug, title, body) = STORIES[i];
        let paragraphs: String = body
            .split(". ")
            .map(|s| format!("<p>{}.</p>", s.trim_end_matches('.')))
            .collect();
        let html = format!(
            "<html><head><title>{title} - Valley Post</title></head><body>{}\
             <div id=main><h1>{title}</h1><div id=story>{paragraphs}\
             <ul id=share><li><a href=/share>Share</a></li><li><a href=/print>Print</a></li></ul>\
             </div></div>\
             <div id=footer>Copyright Valley Post newspaper, all rights reserved</div>\
             </body></html>",
            menu()
        );
        let mut tree = docview_page::build(&html);
        tree.url = Some(format!("https://valley.example/{slug}.html"));
        tree
    }

    fn front_page() -> TagTree {
        let headlines: String = STORIES
            .iter()
            .map(|s| format!("<li><a href=\"{}.html\">{}</a></li>", s.0, s.1))
            .collect();
        let html = format!(
            "<html><head><title>Valley Post</title></head><body>{}\
             <div id=main><ul id=headlines>{headlines}</ul></div>\
             <div id=footer>Copyright Valley Post newspaper, all rights reserved</div>\
             </body></html>",
            menu()
        );
        let mut tree = docview_page::build(&html);
        tree.url = Some("https://valley.example/".to_string());
        tree
    }

    fn site() -> (Wisdom, SiteModel) {
        let c = Wisdom::new(
            WisdomParams::default(),
            Box::new(crate::Framework::default()),
        );
        let mut learner = c.site_learner().expect("site-aware");
        learner.add(&front_page());
        for i in 0..STORIES.len() {
            learner.add(&story_page(i));
        }
        let model = learner.finish().expect("five pages are enough");
        (c, model)
    }

    #[test]
    fn the_site_model_weighs_what_every_page_repeats_low() {
        let (_, model) = site();
        let SiteModel::Wisdom(terms) = &model else {
            panic!("not WISDOM's model: {model:?}");
        };
        assert_eq!(terms.pages, 5);
        assert_eq!(terms.linked.len(), 5);
        assert!(terms.entropy.windows(2).all(|w| w[0].0 < w[1].0));
        // In every page alike: entropy 1; in one page only: 0.
        assert!((terms.entropy_of("copyright") - 1.0).abs() < 1e-5);
        assert_eq!(terms.entropy_of("cattl"), 0.0);
        // Once in the front page's headline, twice in its story page (heading and text):
        // -(1/3 log₅ 1/3 + 2/3 log₅ 2/3) = 0.3955.
        let orchard = terms.entropy_of("orchard");
        assert!((orchard - 0.3955).abs() < 1e-3, "{orchard}");
    }

    #[test]
    fn a_story_page_keeps_its_article_with_its_heading() {
        let (c, model) = site();
        for (i, (_, title, body)) in STORIES.iter().enumerate() {
            let tree = story_page(i);
            let cleaned = c.clean_in_site(&tree, Some(&model));
            let text = cleaned.topic_text.replace('\n', " ");
            let first = body.split(". ").next().expect("a sentence");
            assert!(text.contains(first), "{text}");
            // DSTM merged the heading beside the story.
            assert!(text.contains(title), "{text}");
            // Condensing took out the sharing links inside the story.
            for dropped in ["Copyright", "Weather", "Share", "Print"] {
                assert!(!text.contains(dropped), "{dropped} in {text}");
            }
            assert_eq!(cleaned.page_type, docview_page::PageType::Topic);
        }
    }

    #[test]
    fn the_front_page_is_a_toc_of_its_headlines() {
        let (c, model) = site();
        let SiteModel::Wisdom(terms) = &model else {
            unreachable!()
        };
        let tree = front_page();
        let structure = c.structure(&tree, terms);
        assert!(structure.article.is_empty(), "{structure:?}");
        let toc: Vec<&str> = structure
            .toc
            .iter()
            .map(|&id| &*tree.node(id).label)
            .collect();
        assert_eq!(toc.len(), STORIES.len(), "{toc:?}");
        let cleaned = c.clean_in_site(&tree, Some(&model));
        for (_, title, _) in STORIES {
            assert!(cleaned.topic_text.contains(title), "{}", cleaned.topic_text);
        }
        assert!(!cleaned.topic_text.contains("Weather"));
        assert_eq!(cleaned.page_type, docview_page::PageType::Hub);
        // The menu's anchors: three link to pages the site never learnt, and "Home", to the
        // front page, is a stop word: no anchor precision.
        let evidence = c.explain_in_site(&tree, Some(&model));
        let menu = tree
            .nodes
            .iter()
            .position(|n| n.label.starts_with("ul#menu"))
            .expect("menu");
        let e = evidence
            .iter()
            .find(|e| e.node as usize == menu)
            .expect("menu");
        let api = e.features.iter().find(|f| f.0 == "api_a").map(|f| f.1);
        assert_eq!(api, Some(0.0));
        assert_eq!(terms.entropy_of("home"), 0.0, "a stop word is no term");
        let toc_flag = |id: usize| {
            evidence
                .iter()
                .find(|e| e.node as usize == id)
                .and_then(|e| e.features.iter().find(|f| f.0 == "toc_block"))
                .map(|f| f.1)
        };
        assert_eq!(toc_flag(structure.toc[0] as usize), Some(1.0));
    }

    #[test]
    fn too_few_pages_have_no_model_and_the_fallback_cleans() {
        let c = Wisdom::new(
            WisdomParams::default(),
            Box::new(crate::Framework::default()),
        );
        let mut learner = c.site_learner().expect("site-aware");
        learner.add(&story_page(0));
        learner.add(&story_page(1));
        assert!(learner.finish().is_none());
        let tree = story_page(0);
        assert_eq!(
            c.clean_in_site(&tree, None).topic_text,
            crate::Framework::default().clean(&tree).topic_text
        );
    }
}
