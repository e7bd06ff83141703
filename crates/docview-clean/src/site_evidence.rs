//! Site evidence for the learned cleaner (issue 13, item 6): how much of each text block the
//! other pages of its web site repeat, learnt from a sample of the site's pages before any is
//! cleaned, and read as extra features of the block decision ([`SITE_NAMES`]).
//!
//! No single-page extractor has this evidence. A menu, a footer, a "most read" box or a
//! subscription notice looks different on every site, but on one site it is the same text at
//! the same place on page after page, while the topic content changes. InfoDiscoverer (000)
//! measures it as the entropy of a block's features over the site's pages, WISDOM (002) as the
//! site-level entropy of its terms; here it is measured in three ways, each a share of the
//! site's *other* sampled pages (a page in the sample does not count itself):
//!
//! - **text repeat**: the pages holding a text block of exactly this text (its tokens,
//!   lowercased);
//! - **path repeat** and **path variety**: the pages holding a text block at the same tag path
//!   (labels from the root, digits left out), and how many distinct texts that path holds per
//!   occurrence (a template slot holds one text, a content slot a new one on every page);
//! - **common tokens**: the share of the block's tokens that at least half the other pages
//!   hold somewhere in their text blocks (term entropy near 1 in WISDOM's terms).
//!
//! Memory: a site's model keeps only what repeats (texts and paths on 2 or more sampled pages,
//! tokens on a quarter of them), as sorted vectors of 64-bit hashes, plus one fingerprint per
//! sampled page; a text held by a single sampled page reads as held by none.

use std::hash::Hasher;

use rustc_hash::{FxHashMap, FxHashSet, FxHasher};

use super::features::token_hash;
use super::{SiteLearner, SiteModel};
use docview_page::{Item, NodeId, TagTree};
use docview_text::for_each_token_span;

/// Names of the site-evidence features, in row order; missing (NaN) when a page has no site
/// model.
pub const SITE_NAMES: &[&str] = &[
    "site_pages_log",
    "site_text_repeat",
    "site_path_repeat",
    "site_path_variety",
    "site_common_tokens",
];

/// Number of site-evidence features per row.
pub const N_SITE: usize = SITE_NAMES.len();

/// A site with fewer sampled pages than this has no model, when the model is learnt to train
/// on (the learned cleaner reads it from [`READ_MIN_PAGES`](crate::READ_MIN_PAGES)).
pub const MIN_PAGES: usize = 3;

/// Pages of a site a model is learnt from (the first ones handed to the learner).
pub(crate) const MAX_PAGES: usize = 64;

/// What the text blocks of one page look like to the site evidence.
#[derive(Debug, Clone, Default)]
pub struct PageSignature {
    /// Each text block (visible, with terms of its own), in document order.
    pub nodes: Vec<NodeId>,
    /// The hash of each block's own text (its tokens, ASCII-lowercased).
    pub texts: Vec<u64>,
    /// The hash of each block's tag path (labels from the root, digits left out).
    pub paths: Vec<u64>,
    /// The token hashes of each block, block after block.
    pub tokens: Vec<u64>,
    /// Where each block's tokens end in `tokens`.
    pub token_ends: Vec<u32>,
    /// A hash of all the blocks' texts: the same page seen twice has the same.
    pub fingerprint: u64,
}

/// The tag path hash of every node of `tree` (its parent's and its label, digits left out)
/// and whether a reader sees it ([`TagTree::visible_nodes`]), by node id.
fn paths_and_visibility(tree: &TagTree) -> (Vec<u64>, Vec<bool>) {
    let mut path = vec![0u64; tree.nodes.len()];
    for (i, node) in tree.nodes.iter().enumerate() {
        let parent_path = node
            .parent
            .map_or(0x9e37_79b9_7f4a_7c15, |p| path[p as usize]);
        let mut h = FxHasher::default();
        h.write_u64(parent_path);
        for b in node.label.bytes().filter(|b| !b.is_ascii_digit()) {
            h.write_u8(b);
        }
        path[i] = h.finish();
    }
    (path, tree.visible_nodes())
}

/// The distinct tag paths of a page's text blocks (visible, with terms of their own), hashed
/// as [`PageSignature::paths`] and sorted: the shape of the page's template, which tells the
/// templates of one site apart (InfoDiscoverer's page clusters).
pub(crate) fn block_paths(tree: &TagTree) -> Vec<u64> {
    let (path, visible) = paths_and_visibility(tree);
    let mut out: Vec<u64> = (0..tree.nodes.len())
        .filter(|&i| visible[i] && tree.nodes[i].own.terms > 0)
        .map(|i| path[i])
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// The Jaccard similarity of two sorted sets of hashes (1 for two empty sets).
pub(crate) fn jaccard(a: &[u64], b: &[u64]) -> f32 {
    let (mut i, mut j, mut both) = (0, 0, 0usize);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                both += 1;
                i += 1;
                j += 1;
            }
        }
    }
    let union = a.len() + b.len() - both;
    if union == 0 {
        1.0
    } else {
        both as f32 / union as f32
    }
}

impl PageSignature {
    /// The signature of `tree`'s text blocks.
    pub fn of(tree: &TagTree) -> PageSignature {
        let mut out = PageSignature::default();
        let (path, visible) = paths_and_visibility(tree);
        let mut page = FxHasher::default();
        for (i, node) in tree.nodes.iter().enumerate() {
            if !visible[i] || node.own.terms == 0 {
                continue;
            }
            let mut text = FxHasher::default();
            for item in &node.items {
                let Item::Text { start, end, .. } = *item else {
                    continue;
                };
                let run = tree.slice(start, end);
                for_each_token_span(run, |s, e| {
                    let token = token_hash(&run[s..e]);
                    text.write_u64(token);
                    out.tokens.push(token);
                });
            }
            let text = text.finish();
            page.write_u64(text);
            out.nodes.push(i as NodeId);
            out.texts.push(text);
            out.paths.push(path[i]);
            out.token_ends.push(out.tokens.len() as u32);
        }
        out.fingerprint = page.finish();
        out
    }

    /// The token hashes of block `k`.
    fn block_tokens(&self, k: usize) -> &[u64] {
        let start = if k == 0 { 0 } else { self.token_ends[k - 1] };
        &self.tokens[start as usize..self.token_ends[k] as usize]
    }
}

/// One site's evidence: what its sampled pages repeat.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SiteRepeats {
    /// Pages sampled.
    pub pages: u32,
    /// The fingerprints of the sampled pages, sorted.
    fingerprints: Vec<u64>,
    /// Block texts held by 2 or more sampled pages: (hash, pages), sorted.
    texts: Vec<(u64, u16)>,
    /// Block paths held by 2 or more sampled pages: (hash, pages, occurrences, distinct
    /// texts), sorted.
    paths: Vec<(u64, u16, u16, u16)>,
    /// Tokens held by at least a quarter of the sampled pages (and 2): (hash, pages), sorted.
    tokens: Vec<(u64, u16)>,
}

/// The entry of `key` in a vector sorted by key.
fn lookup<T: Copy>(sorted: &[(u64, T)], key: u64) -> Option<T> {
    sorted
        .binary_search_by_key(&key, |e| e.0)
        .ok()
        .map(|i| sorted[i].1)
}

impl SiteRepeats {
    /// The site-evidence rows ([`N_SITE`] values per block) of the text blocks `nodes` of a
    /// page whose signature is `page`; a block the signature lacks gets missing values.
    pub fn rows(&self, page: &PageSignature, nodes: &[NodeId]) -> Vec<f32> {
        let own = self.fingerprints.binary_search(&page.fingerprint).is_ok();
        let me = u32::from(own);
        let others = self.pages.saturating_sub(me).max(1) as f32;
        let at: FxHashMap<NodeId, usize> = page
            .nodes
            .iter()
            .enumerate()
            .map(|(k, &id)| (id, k))
            .collect();
        let mut out = Vec::with_capacity(nodes.len() * N_SITE);
        for id in nodes {
            let Some(&k) = at.get(id) else {
                out.extend([f32::NAN; N_SITE]);
                continue;
            };
            let share = |pages: u16| (u32::from(pages).saturating_sub(me)) as f32 / others;
            let text = lookup(&self.texts, page.texts[k]).map_or(0.0, share);
            let (path, variety) = match self.paths.binary_search_by_key(&page.paths[k], |e| e.0) {
                Ok(i) => {
                    let (_, pages, occurrences, distinct) = self.paths[i];
                    (
                        share(pages),
                        f32::from(distinct) / f32::from(occurrences.max(1)),
                    )
                }
                Err(_) => (0.0, f32::NAN),
            };
            let tokens = page.block_tokens(k);
            let half = others / 2.0;
            let common = tokens
                .iter()
                .filter(|&&t| {
                    lookup(&self.tokens, t)
                        .is_some_and(|p| (u32::from(p).saturating_sub(me)) as f32 >= half)
                })
                .count() as f32
                / tokens.len().max(1) as f32;
            out.extend([others.ln_1p(), text, path, variety, common]);
        }
        out
    }
}

/// Learns one site's [`SiteRepeats`] from its first pages (64 at most, `MAX_PAGES`).
#[derive(Debug, Default)]
pub struct RepeatsLearner {
    /// Fewer pages than this give no model.
    min_pages: usize,
    fingerprints: Vec<u64>,
    /// Pages holding each block text.
    texts: FxHashMap<u64, u16>,
    /// Per path: pages, occurrences, and the texts seen there.
    paths: FxHashMap<u64, (u16, u16, FxHashSet<u64>)>,
    /// Pages holding each token.
    tokens: FxHashMap<u64, u16>,
}

impl RepeatsLearner {
    /// A learner with nothing seen, whose site has a model from `min_pages` pages on (and at
    /// least 2: a page is compared with the others).
    pub fn new(min_pages: usize) -> RepeatsLearner {
        RepeatsLearner {
            min_pages: min_pages.max(2),
            ..RepeatsLearner::default()
        }
    }

    /// Takes one page's signature.
    pub fn add_signature(&mut self, page: &PageSignature) {
        if self.fingerprints.len() >= MAX_PAGES {
            return;
        }
        self.fingerprints.push(page.fingerprint);
        let mut seen: FxHashSet<u64> = FxHashSet::default();
        for &t in &page.texts {
            if seen.insert(t) {
                *self.texts.entry(t).or_insert(0) += 1;
            }
        }
        seen.clear();
        for (&p, &t) in page.paths.iter().zip(&page.texts) {
            let entry = self.paths.entry(p).or_default();
            if seen.insert(p) {
                entry.0 += 1;
            }
            entry.1 = entry.1.saturating_add(1);
            if entry.2.len() < usize::from(u16::MAX) {
                entry.2.insert(t);
            }
        }
        seen.clear();
        for &t in &page.tokens {
            if seen.insert(t) {
                *self.tokens.entry(t).or_insert(0) += 1;
            }
        }
    }

    /// The site's evidence; `None` when fewer pages than the learner's minimum were seen.
    pub fn repeats(self) -> Option<SiteRepeats> {
        let pages = self.fingerprints.len();
        if pages < self.min_pages {
            return None;
        }
        let mut fingerprints = self.fingerprints;
        fingerprints.sort_unstable();
        let mut texts: Vec<(u64, u16)> = self.texts.into_iter().filter(|e| e.1 >= 2).collect();
        texts.sort_unstable();
        let mut paths: Vec<(u64, u16, u16, u16)> = self
            .paths
            .into_iter()
            .filter(|e| e.1.0 >= 2)
            .map(|(h, (p, o, distinct))| (h, p, o, distinct.len() as u16))
            .collect();
        paths.sort_unstable();
        let floor = (pages as u16).div_ceil(4).max(2);
        let mut tokens: Vec<(u64, u16)> =
            self.tokens.into_iter().filter(|e| e.1 >= floor).collect();
        tokens.sort_unstable();
        Some(SiteRepeats {
            pages: pages as u32,
            fingerprints,
            texts,
            paths,
            tokens,
        })
    }
}

impl SiteLearner for RepeatsLearner {
    fn add(&mut self, tree: &TagTree) {
        if self.fingerprints.len() < MAX_PAGES {
            self.add_signature(&PageSignature::of(tree));
        }
    }

    fn finish(self: Box<Self>) -> Option<SiteModel> {
        self.repeats().map(SiteModel::Repeats)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use docview_page::build;

    fn page(n: usize, story: &str) -> String {
        format!(
            "<html><body><nav><a href=/>Home</a> <a href=/news>News</a></nav>\
             <div id=post-{n}><h1>Story {story}</h1><p>{story} is told here in words of its own, \
             page {n}.</p></div><footer><p>Copyright the harbour desk</p></footer></body></html>"
        )
    }

    fn site(pages: usize) -> (Vec<TagTree>, SiteRepeats) {
        let stories = ["tides", "gulls", "boats", "storms", "nets"];
        let trees: Vec<TagTree> = (0..pages)
            .map(|n| build(&page(n, stories[n % 5])))
            .collect();
        let mut learner = RepeatsLearner::new(MIN_PAGES);
        for t in &trees {
            learner.add(t);
        }
        let repeats = learner.repeats().expect("enough pages");
        (trees, repeats)
    }

    fn row_of<'a>(tree: &TagTree, rows: &'a [f32], sig: &PageSignature, label: &str) -> &'a [f32] {
        let k = sig
            .nodes
            .iter()
            .position(|&id| &*tree.node(id).label == label)
            .unwrap_or_else(|| panic!("no block {label}"));
        &rows[k * N_SITE..(k + 1) * N_SITE]
    }

    #[test]
    fn template_blocks_repeat_and_stories_do_not() {
        let (trees, repeats) = site(4);
        assert_eq!(repeats.pages, 4);
        // A sampled page: the other three pages count.
        let tree = &trees[0];
        let sig = PageSignature::of(tree);
        let rows = repeats.rows(&sig, &sig.nodes);
        let nav = row_of(tree, &rows, &sig, "nav");
        assert_eq!(nav[0], 3f32.ln_1p());
        assert_eq!(nav[1], 1.0, "every other page has the menu");
        assert_eq!(nav[2], 1.0);
        assert_eq!(nav[3], 0.25, "one text in four occurrences of its path");
        let story = row_of(tree, &rows, &sig, "p");
        // The paragraph at div/p is another text on every page (the div's id digits are left
        // out of the path), and the footer's paragraph shares the label but not the path.
        assert_eq!(story[1], 0.0);
        assert_eq!(story[2], 1.0);
        assert_eq!(story[3], 1.0);
        // "is told here in words of its own page" is common; "tides" and the number are not.
        assert!(story[4] > 0.5 && story[4] < 1.0, "{story:?}");
    }

    #[test]
    fn a_page_outside_the_sample_counts_every_sampled_page() {
        let (_, repeats) = site(4);
        let tree = build(&page(9, "nets"));
        let sig = PageSignature::of(&tree);
        let rows = repeats.rows(&sig, &sig.nodes);
        let nav = row_of(&tree, &rows, &sig, "nav");
        assert_eq!(nav[0], 4f32.ln_1p());
        assert_eq!(nav[1], 1.0);
        // A block the signature lacks gets missing values.
        let none = repeats.rows(&sig, &[0]);
        assert!(none.iter().all(|v| v.is_nan()));
    }

    #[test]
    fn too_few_pages_have_no_model() {
        let mut learner = RepeatsLearner::new(MIN_PAGES);
        learner.add(&build(&page(1, "tides")));
        learner.add(&build(&page(2, "gulls")));
        assert!(learner.repeats().is_none());
    }
}
