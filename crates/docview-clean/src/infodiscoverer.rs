//! InfoDiscoverer, Lin and Ho (2002), *Discovering informative content blocks from web
//! documents* (`../shared/papers/000_fe2ea5ce938e9bfc.txt`): a site-aware cleaner. It learns
//! from the other pages of the page's site which features (keywords) every page repeats, and
//! keeps the content blocks whose features are distinctive.
//!
//! - **Page clusters (§4).** The pages of one site, as the paper assumes, split by template:
//!   the learner samples the first [`InfoDiscovererParams::max_pages`] of them and groups
//!   them by the similarity of their block paths (the tag paths of their text blocks,
//!   [`block_paths`]): each page joins the cluster whose first page's paths are most like
//!   its own (Jaccard), or starts one when none reaches
//!   [`InfoDiscovererParams::template_similarity`]. Each cluster of at least
//!   [`InfoDiscovererParams::min_pages`] pages gets its own entropies and threshold; a page
//!   is cleaned with the cluster most like it. A site without such a cluster has no model,
//!   and a page like none of its site's clusters has none either: the fallback (the default
//!   cleaner) cleans them.
//! - **Content blocks (§3, §4.1).** [`BlockTags::Table`], the paper's: the page is partitioned
//!   by `<TABLE>`; a block's content strings are the text under its table that is not inside a
//!   nested table (the page outside every table is the root block). [`BlockTags::Containers`],
//!   the refinement §3 proposes (title, headings, `<P>`, `<TR>`, `<TD>`): every container block
//!   of docview's tree is a content block with its own text. Users pick the partition by name:
//!   `--cleaner infodiscoverer` (containers, the default) or `infodiscoverer-table`. The `<TITLE>` is a block of its own
//!   (§3): its entropy is reported by [`InfoDiscoverer::explain`] (many sites give every page
//!   the same title), and it is not part of the topic content either way.
//! - **Features (§4.2).** Meaningful keywords: the terms of docview's analyser (stop words
//!   removed, stemmed; jieba's words for Chinese).
//! - **Feature entropy (§4.3).** The weight `wᵢⱼ` of feature `Fᵢ` in page `Dⱼ` is its term
//!   frequency in the page divided by its frequencies over the cluster, so that a row of the
//!   F-D matrix sums to 1; `H(Fᵢ) = -Σⱼ wᵢⱼ log_d wᵢⱼ` with `d` the number of pages, between 0
//!   (one page only) and 1 (equally in every page). Figure 3: a feature in both of two pages
//!   equally has entropy 1, a feature of one page 0 ([`feature_entropy`]).
//! - **Block entropy (§4.4):** `H(CB)`, the mean entropy of the block's features. A feature the
//!   model has not seen (the page is not in the sample) is one page's own: entropy 0.
//! - **Classification (§4.5).** A block is informative when `H(CB)` is at most the site's
//!   threshold, redundant above it; a block without features is not content. The threshold is
//!   found greedily for each site ([`greedy_threshold`]): raised from 0.1 by 0.1 up to 0.9, it
//!   stops at the first value after which raising it brings no more features into the
//!   informative blocks of the site's pages.

use std::collections::HashMap;
use std::hash::{Hash, Hasher};

use rustc_hash::FxHasher;

use docview_page::{Counts, NodeId, TagTree};
use docview_text::{Analyzer, Language, detect_language, language_from_tag};

use crate::site_evidence::{block_paths, jaccard};
use crate::{BlockEvidence, Cleaned, Cleaner, Decision, SiteLearner, SiteModel};

/// How a page is partitioned into content blocks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) enum BlockTags {
    /// By `<TABLE>`, as in the paper.
    Table,
    /// By every container tag of docview's tree, the refinement the paper proposes.
    #[default]
    Containers,
}

/// InfoDiscoverer's parameters.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct InfoDiscovererParams {
    /// How pages are partitioned into content blocks.
    pub blocks: BlockTags,
    /// Fewer pages than this in a site: no model, the fallback cleans them.
    pub min_pages: usize,
    /// At most this many pages of a site are learnt from (the first ones).
    pub max_pages: usize,
    /// Pages whose block paths are less alike than this (Jaccard) are of different templates,
    /// in different page clusters; 0 keeps each site whole.
    pub template_similarity: f32,
}

impl Default for InfoDiscovererParams {
    fn default() -> Self {
        InfoDiscovererParams {
            blocks: BlockTags::default(),
            min_pages: 3,
            max_pages: 64,
            template_similarity: TEMPLATE_SIMILARITY,
        }
    }
}

/// The default [`InfoDiscovererParams::template_similarity`].
pub(crate) const TEMPLATE_SIMILARITY: f32 = 0.5;

/// One page cluster of a site (§4): its sampled pages of one template, and what was learnt
/// from them.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct PageCluster {
    /// The block paths of the cluster's first page ([`block_paths`]), which a page's own are
    /// compared with.
    pub paths: Vec<u64>,
    /// The cluster's feature entropies and threshold.
    pub entropy: SiteEntropy,
}

/// What InfoDiscoverer learnt of one site: a model per page cluster, in the order their first
/// pages were sampled.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SiteClusters {
    /// The clusters of enough pages.
    pub clusters: Vec<PageCluster>,
}

impl SiteClusters {
    /// The cluster most like a page whose block paths are `paths` (the first of equals) and
    /// the similarity, when it is at least `min_similarity`.
    pub fn cluster_of(&self, paths: &[u64], min_similarity: f32) -> Option<(&PageCluster, f32)> {
        let mut best: Option<(&PageCluster, f32)> = None;
        for c in &self.clusters {
            let s = jaccard(&c.paths, paths);
            if best.is_none_or(|(_, b)| s > b) {
                best = Some((c, s));
            }
        }
        best.filter(|&(_, s)| s >= min_similarity)
    }
}

/// Groups pages by template: each page (in order) joins the group whose first page's block
/// paths are most like its own (the first of equals) when that similarity is at least
/// `min_similarity`, else starts a group. Returns the groups as page indexes, in order.
pub(crate) fn template_clusters(paths: &[Vec<u64>], min_similarity: f32) -> Vec<Vec<usize>> {
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for (i, page) in paths.iter().enumerate() {
        let mut best: Option<(usize, f32)> = None;
        for (g, group) in groups.iter().enumerate() {
            let s = jaccard(&paths[group[0]], page);
            if best.is_none_or(|(_, b)| s > b) {
                best = Some((g, s));
            }
        }
        match best {
            Some((g, s)) if s >= min_similarity => groups[g].push(i),
            _ => groups.push(vec![i]),
        }
    }
    groups
}

/// What InfoDiscoverer learnt of one site: the entropy of each feature and the threshold.
/// Features are kept as 64-bit hashes of their text ([`feature_key`]), sorted, so a site's
/// model costs 16 bytes a feature.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct SiteEntropy {
    /// Pages learnt from (`d`).
    pub pages: usize,
    /// `H(F)` of each feature seen on the learnt pages, by feature key, sorted by key.
    pub entropy: Vec<(u64, f32)>,
    /// The site's threshold on `H(CB)` (§4.5).
    pub threshold: f32,
}

impl SiteEntropy {
    /// `H(F)` of `feature`; 0 for a feature the learnt pages do not have (one page's own).
    pub fn entropy_of(&self, feature: &str) -> f32 {
        self.entropy_of_key(feature_key(feature))
    }

    fn entropy_of_key(&self, key: u64) -> f32 {
        self.entropy
            .binary_search_by_key(&key, |&(k, _)| k)
            .map_or(0.0, |i| self.entropy[i].1)
    }
}

/// The key a feature is kept under: its FxHash (deterministic, no per-process seed).
pub(crate) fn feature_key(feature: &str) -> u64 {
    let mut h = FxHasher::default();
    feature.hash(&mut h);
    h.finish()
}

/// `H(F)` of §4.3 from a feature's frequencies in each of `d` pages (pages without it may be
/// left out): `-Σ w log_d w` with `w` the page's share of the frequencies.
pub(crate) fn feature_entropy(frequencies: &[u32], d: usize) -> f32 {
    let total: u64 = frequencies.iter().map(|&f| f as u64).sum();
    if total == 0 || d < 2 {
        return 0.0;
    }
    let ln_d = (d as f64).ln();
    let h: f64 = frequencies
        .iter()
        .filter(|&&f| f > 0)
        .map(|&f| {
            let w = f as f64 / total as f64;
            -w * w.ln() / ln_d
        })
        .sum();
    h.clamp(0.0, 1.0) as f32
}

/// The greedy threshold of §4.5: `features(t)` is the number of features in the informative
/// blocks (`H(CB) <= t`) of the site's pages; `t` goes from 0.1 by 0.1 to 0.9 and stops at the
/// first value that has features and after which the next brings no more. 0.9 when every
/// step brings more.
pub(crate) fn greedy_threshold(features: impl Fn(f32) -> usize) -> f32 {
    let steps: Vec<f32> = (1..=9).map(|k| k as f32 / 10.0).collect();
    let counts: Vec<usize> = steps.iter().map(|&t| features(t)).collect();
    for k in 0..steps.len() - 1 {
        if counts[k] > 0 && counts[k + 1] == counts[k] {
            return steps[k];
        }
    }
    steps[steps.len() - 1]
}

/// One content block of a page: the node it stands for and its features with their
/// frequencies (sorted by feature).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ContentBlock {
    /// The block's node (the root block is node 0).
    pub node: NodeId,
    /// Its features and their frequencies in the block.
    pub features: Vec<(String, u32)>,
}

/// The language of a page, for its features (and WISDOM's terms).
pub(crate) fn page_language(tree: &TagTree) -> Language {
    tree.lang
        .as_deref()
        .and_then(language_from_tag)
        .unwrap_or_else(|| detect_language(&tree.text))
}

/// The content block each node belongs to (by node id) under `mode`.
fn block_of(tree: &TagTree, mode: BlockTags) -> Vec<NodeId> {
    let mut out: Vec<NodeId> = Vec::with_capacity(tree.nodes.len());
    for (id, node) in tree.nodes.iter().enumerate() {
        let own = match mode {
            BlockTags::Containers => true,
            BlockTags::Table => id == 0 || &*node.tag == "table",
        };
        let block = if own {
            id as NodeId
        } else {
            node.parent.map_or(0, |p| out[p as usize])
        };
        out.push(block);
    }
    out
}

/// The content blocks of a page (§4.1) with their features (§4.2), in document order; blocks
/// without text are left out.
pub(crate) fn content_blocks(
    tree: &TagTree,
    mode: BlockTags,
    analyzer: &Analyzer,
) -> Vec<ContentBlock> {
    blocks_of_owners(tree, &block_of(tree, mode), analyzer)
}

/// [`content_blocks`] with each node's block (`owner`, from [`block_of`]) already known.
fn blocks_of_owners(tree: &TagTree, owner: &[NodeId], analyzer: &Analyzer) -> Vec<ContentBlock> {
    let lang = page_language(tree);
    let mut counts: Vec<HashMap<String, u32>> = vec![HashMap::new(); tree.nodes.len()];
    for (id, node) in tree.nodes.iter().enumerate() {
        if node.hidden || node.own.terms == 0 {
            continue;
        }
        let text = docview_measure::block_text(tree, id as NodeId);
        analyzer.term_counts(&text, lang, &mut counts[owner[id] as usize]);
    }
    counts
        .into_iter()
        .enumerate()
        .filter(|(_, c)| !c.is_empty())
        .map(|(id, c)| {
            let mut features: Vec<(String, u32)> = c.into_iter().collect();
            features.sort_unstable();
            ContentBlock {
                node: id as NodeId,
                features,
            }
        })
        .collect()
}

/// The features of the `<TITLE>` block.
fn title_features(tree: &TagTree, analyzer: &Analyzer) -> Vec<(String, u32)> {
    let mut counts = HashMap::new();
    analyzer.term_counts(&tree.title, page_language(tree), &mut counts);
    let mut features: Vec<(String, u32)> = counts.into_iter().collect();
    features.sort_unstable();
    features
}

/// `H(CB)` (§4.4): the mean entropy of the block's features under `site` (0 for a feature
/// the site's learnt pages do not have); `None` for a block without features.
pub(crate) fn block_entropy<'a>(
    features: impl IntoIterator<Item = &'a str>,
    site: &SiteEntropy,
) -> Option<f32> {
    let (mut sum, mut k) = (0f64, 0usize);
    for f in features {
        sum += site.entropy_of(f) as f64;
        k += 1;
    }
    (k > 0).then(|| (sum / k as f64) as f32)
}

/// A block's features as (key, frequency), sorted by key.
type KeyedFeatures = [(u64, u32)];

/// One learnt page's content blocks: each block's features' keys and frequencies, by key.
type PageBlocks = Vec<Vec<(u64, u32)>>;

/// Learns one site's [`SiteClusters`], one page at a time. Each learnt page is kept as its
/// block paths (8 bytes each) and its blocks' features (keys and frequencies), about 12 bytes
/// a feature of a block, until [`SiteLearner::finish`].
struct Learner {
    params: InfoDiscovererParams,
    analyzer: Analyzer,
    /// Per learnt page: its block paths and its blocks.
    pages: Vec<(Vec<u64>, PageBlocks)>,
}

impl SiteLearner for Learner {
    fn add(&mut self, tree: &TagTree) {
        if self.pages.len() >= self.params.max_pages {
            return;
        }
        let blocks = content_blocks(tree, self.params.blocks, &self.analyzer)
            .into_iter()
            .map(|block| {
                let mut keyed: Vec<(u64, u32)> = block
                    .features
                    .iter()
                    .map(|(f, tf)| (feature_key(f), *tf))
                    .collect();
                keyed.sort_unstable();
                keyed.dedup_by(|b, a| {
                    // Two features of one key (a hash collision) count as one.
                    if a.0 == b.0 {
                        a.1 += b.1;
                        true
                    } else {
                        false
                    }
                });
                keyed.shrink_to_fit();
                keyed
            })
            .collect();
        let mut paths = block_paths(tree);
        paths.shrink_to_fit();
        self.pages.push((paths, blocks));
    }

    fn finish(self: Box<Self>) -> Option<SiteModel> {
        let min = self.params.min_pages.max(2);
        if self.pages.len() < min {
            return None;
        }
        let paths: Vec<Vec<u64>> = self.pages.iter().map(|(p, _)| p.clone()).collect();
        let clusters: Vec<PageCluster> = template_clusters(&paths, self.params.template_similarity)
            .into_iter()
            .filter(|group| group.len() >= min)
            .map(|group| PageCluster {
                paths: paths[group[0]].clone(),
                entropy: cluster_entropy(
                    &group.iter().map(|&i| &self.pages[i].1).collect::<Vec<_>>(),
                ),
            })
            .collect();
        (!clusters.is_empty()).then_some(SiteModel::InfoDiscoverer(SiteClusters { clusters }))
    }
}

/// The feature entropies (§4.3) and the greedy threshold (§4.5) of one page cluster.
fn cluster_entropy(pages: &[&PageBlocks]) -> SiteEntropy {
    let d = pages.len();
    {
        // The F-D matrix as (feature, page, frequency), grouped by feature.
        let mut cells: Vec<(u64, u32, u32)> = Vec::new();
        for (page, blocks) in pages.iter().enumerate() {
            for block in blocks.iter() {
                cells.extend(block.iter().map(|&(key, tf)| (key, page as u32, tf)));
            }
        }
        cells.sort_unstable();
        let mut entropy: Vec<(u64, f32)> = Vec::new();
        let mut frequencies: Vec<u32> = Vec::new();
        let mut i = 0;
        while i < cells.len() {
            let key = cells[i].0;
            frequencies.clear();
            while i < cells.len() && cells[i].0 == key {
                let page = cells[i].1;
                let mut tf = 0;
                while i < cells.len() && cells[i].0 == key && cells[i].1 == page {
                    tf += cells[i].2;
                    i += 1;
                }
                frequencies.push(tf);
            }
            entropy.push((key, feature_entropy(&frequencies, d)));
        }
        drop(cells);
        let site = SiteEntropy {
            pages: d,
            entropy,
            threshold: 0.0,
        };
        // H(CB) of every learnt block, beside its features.
        let blocks: Vec<Vec<(f32, &KeyedFeatures)>> = pages
            .iter()
            .map(|page| {
                page.iter()
                    .map(|features| {
                        let sum: f64 = features
                            .iter()
                            .map(|&(key, _)| site.entropy_of_key(key) as f64)
                            .sum();
                        let h = sum / features.len().max(1) as f64;
                        (h as f32, features.as_slice())
                    })
                    .collect()
            })
            .collect();
        let threshold = greedy_threshold(|t| {
            blocks
                .iter()
                .map(|page| {
                    let mut seen: Vec<u64> = page
                        .iter()
                        .filter(|(h, _)| *h <= t)
                        .flat_map(|(_, features)| features.iter().map(|&(key, _)| key))
                        .collect();
                    seen.sort_unstable();
                    seen.dedup();
                    seen.len()
                })
                .sum()
        });
        SiteEntropy { threshold, ..site }
    }
}

/// The InfoDiscoverer cleaner (see the module documentation).
pub(crate) struct InfoDiscoverer {
    /// Its parameters.
    pub params: InfoDiscovererParams,
    analyzer: Analyzer,
    fallback: Box<dyn Cleaner>,
}

impl std::fmt::Debug for InfoDiscoverer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("InfoDiscoverer")
            .field("params", &self.params)
            .field("fallback", &self.fallback.name())
            .finish()
    }
}

impl InfoDiscoverer {
    /// InfoDiscoverer with `params`; pages of sites without a model are cleaned by `fallback`.
    pub(crate) fn new(params: InfoDiscovererParams, fallback: Box<dyn Cleaner>) -> Self {
        InfoDiscoverer {
            params,
            analyzer: Analyzer::new(),
            fallback,
        }
    }

    /// Each content block of `tree` with its `H(CB)` under `site`, in document order.
    pub(crate) fn block_entropies(&self, tree: &TagTree, site: &SiteEntropy) -> Vec<(NodeId, f32)> {
        self.entropies_of_owners(tree, &block_of(tree, self.params.blocks), site)
    }

    fn entropies_of_owners(
        &self,
        tree: &TagTree,
        owner: &[NodeId],
        site: &SiteEntropy,
    ) -> Vec<(NodeId, f32)> {
        blocks_of_owners(tree, owner, &self.analyzer)
            .iter()
            .filter_map(|b| {
                block_entropy(b.features.iter().map(|(f, _)| f.as_str()), site).map(|h| (b.node, h))
            })
            .collect()
    }

    fn clean_with(&self, tree: &TagTree, site: &SiteEntropy) -> Cleaned {
        let owner = block_of(tree, self.params.blocks);
        let mut informative = vec![false; tree.nodes.len()];
        for (node, h) in self.entropies_of_owners(tree, &owner, site) {
            informative[node as usize] = h <= site.threshold;
        }
        let mut decisions = Vec::with_capacity(tree.nodes.len());
        let mut counts = Counts::default();
        let mut kept: Vec<NodeId> = Vec::new();
        for (id, node) in tree.nodes.iter().enumerate() {
            if informative[owner[id] as usize] && !node.hidden {
                decisions.push(Decision::kept("a content block of distinctive features"));
                if node.own.terms > 0 {
                    kept.push(id as NodeId);
                    counts.add(&node.own);
                }
            } else {
                decisions.push(Decision::text_dropped(
                    "a redundant content block: its features repeat across the site",
                ));
            }
        }
        let Some(root) = lowest_common_ancestor(tree, &kept) else {
            return Cleaned::empty(tree);
        };
        Cleaned::rendered(
            tree,
            counts.block_type(),
            root,
            decisions,
            docview_measure::block_weights(tree),
        )
    }
}

/// The lowest common ancestor of `nodes` (`None` when there are none).
pub(crate) fn lowest_common_ancestor(tree: &TagTree, nodes: &[NodeId]) -> Option<NodeId> {
    let path = |mut id: NodeId| {
        let mut p = vec![id];
        while let Some(parent) = tree.node(id).parent {
            p.push(parent);
            id = parent;
        }
        p.reverse();
        p
    };
    let mut common = path(*nodes.first()?);
    for &n in &nodes[1..] {
        let other = path(n);
        let shared = common
            .iter()
            .zip(&other)
            .take_while(|(a, b)| a == b)
            .count();
        common.truncate(shared);
    }
    common.last().copied()
}

impl InfoDiscoverer {
    /// The page cluster of `site` most like `tree` and their similarity, when one is alike
    /// enough.
    fn cluster_of<'a>(
        &self,
        tree: &TagTree,
        site: Option<&'a SiteModel>,
    ) -> Option<(&'a PageCluster, f32)> {
        let Some(SiteModel::InfoDiscoverer(clusters)) = site else {
            return None;
        };
        clusters.cluster_of(&block_paths(tree), self.params.template_similarity)
    }
}

impl Cleaner for InfoDiscoverer {
    fn kind(&self) -> crate::CleanerKind {
        match self.params.blocks {
            BlockTags::Containers => crate::CleanerKind::InfoDiscoverer,
            BlockTags::Table => crate::CleanerKind::InfoDiscovererTable,
        }
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
            pages: Vec::new(),
        }))
    }

    fn needs_site_models(&self) -> bool {
        true
    }

    fn clean_in_site(&self, tree: &TagTree, site: Option<&SiteModel>) -> Cleaned {
        match self.cluster_of(tree, site) {
            Some((cluster, _)) => self.clean_with(tree, &cluster.entropy),
            None => self.fallback.clean(tree),
        }
    }

    fn uses_site_model(&self, tree: &TagTree, site: Option<&SiteModel>) -> bool {
        self.cluster_of(tree, site).is_some()
    }

    /// Each content block's `H(CB)` under the page's cluster, with the cluster's threshold and
    /// size, the page's similarity to it and the title's entropy.
    fn explain_in_site(&self, tree: &TagTree, site: Option<&SiteModel>) -> Vec<BlockEvidence> {
        let Some((cluster, similarity)) = self.cluster_of(tree, site) else {
            return self.fallback.explain(tree);
        };
        let model = &cluster.entropy;
        let title = title_features(tree, &self.analyzer);
        let title_h = block_entropy(title.iter().map(|(f, _)| f.as_str()), model);
        self.block_entropies(tree, model)
            .into_iter()
            .map(|(node, h)| BlockEvidence {
                node,
                score: h,
                features: vec![
                    ("block_entropy", h),
                    ("site_threshold", model.threshold),
                    ("title_entropy", title_h.unwrap_or(0.0)),
                    ("cluster_pages", model.pages as f32),
                    ("template_similarity", similarity),
                ],
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f32, b: f32) -> bool {
        (a - b).abs() < 1e-6
    }

    /// Figure 3 (two pages): F1-F6 appear in both pages alike, entropy 1; F7-F10 in one page
    /// only, entropy 0.
    #[test]
    fn feature_entropy_of_figure_three() {
        assert!(close(feature_entropy(&[1, 1], 2), 1.0));
        assert!(close(feature_entropy(&[3, 3], 2), 1.0));
        assert!(close(feature_entropy(&[1], 2), 0.0));
        assert!(close(feature_entropy(&[1, 0], 2), 0.0));
        // Base d: a feature in every one of 5 pages alike is 1 too; skewed is between.
        assert!(close(feature_entropy(&[2, 2, 2, 2, 2], 5), 1.0));
        let skewed = feature_entropy(&[8, 1, 1], 3);
        assert!(skewed > 0.0 && skewed < 1.0);
        // A block of F1 and F7: mean 0.5.
        let mut entropy = vec![(feature_key("f1"), 1.0), (feature_key("f7"), 0.0)];
        entropy.sort_unstable_by_key(|e| e.0);
        let site = SiteEntropy {
            pages: 2,
            entropy,
            threshold: 0.5,
        };
        assert_eq!(block_entropy(["f1", "f7"], &site), Some(0.5));
        assert_eq!(block_entropy(["new"], &site), Some(0.0));
        assert_eq!(block_entropy(Vec::<&str>::new(), &site), None);
    }

    #[test]
    fn greedy_threshold_stops_where_no_more_features_come_in() {
        // Features by threshold 0.1..0.9: 10, 20, 20, ...: stops at 0.2.
        let counts = [10, 20, 20, 25, 30, 30, 30, 30, 30];
        let t = greedy_threshold(|t| counts[(t * 10.0).round() as usize - 1]);
        assert!(close(t, 0.2));
        // Nothing at 0.1 and 0.2 does not stop it.
        let counts = [0, 0, 5, 5, 5, 5, 5, 5, 5];
        assert!(close(
            greedy_threshold(|t| counts[(t * 10.0).round() as usize - 1]),
            0.3
        ));
        // Always more: 0.9.
        assert!(close(greedy_threshold(|t| (t * 100.0) as usize), 0.9));
    }

    /// A site of four pages that share a menu and a footer word for word, each with its own
    /// story: the shared blocks have entropy 1 and are redundant, each story's words are its
    /// own (entropy 0) and it is kept.
    fn page(story: &str) -> String {
        format!(
            "<html><head><title>Valley Post</title></head><body>\
             <div id=menu><a href=/>Home</a> <a href=/news>News</a> <a href=/weather>Weather</a> \
             <a href=/sport>Sport</a></div>\
             <div id=story><p>{story}</p></div>\
             <div id=footer>Copyright Valley Post newspaper, all rights reserved</div>\
             </body></html>"
        )
    }

    const STORIES: [&str; 4] = [
        "Floodwater covered the orchard road after three nights of storms.",
        "Volunteers rebuilt the wooden footbridge across the mill stream.",
        "Beekeepers reported honey yields doubling since the lavender planting.",
        "Students launched a balloon carrying cameras above the hills.",
    ];

    fn trees() -> Vec<TagTree> {
        STORIES
            .iter()
            .map(|s| docview_page::build(&page(s)))
            .collect()
    }

    fn cleaner(blocks: BlockTags) -> InfoDiscoverer {
        InfoDiscoverer::new(
            InfoDiscovererParams {
                blocks,
                ..InfoDiscovererParams::default()
            },
            Box::new(crate::Framework::default()),
        )
    }

    #[test]
    fn site_model_keeps_each_pages_own_story_and_drops_the_template() {
        let c = cleaner(BlockTags::Containers);
        let mut learner = c.site_learner().expect("site-aware");
        for t in &trees() {
            learner.add(t);
        }
        let model = learner.finish().expect("four pages are enough");
        let SiteModel::InfoDiscoverer(clusters) = &model else {
            panic!("not InfoDiscoverer's model: {model:?}");
        };
        assert_eq!(clusters.clusters.len(), 1, "one template");
        let site = &clusters.clusters[0].entropy;
        assert_eq!(site.pages, 4);
        assert!(close(site.entropy_of("copyright"), 1.0));
        assert!(close(site.entropy_of("orchard"), 0.0));
        assert!(
            site.entropy.windows(2).all(|w| w[0].0 < w[1].0),
            "sorted by key"
        );
        for (tree, story) in trees().iter().zip(STORIES) {
            let cleaned = c.clean_in_site(tree, Some(&model));
            assert_eq!(cleaned.topic_text.trim(), story, "{}", cleaned.topic_text);
        }
        // The title block repeats on every page: entropy 1.
        let evidence = c.explain_in_site(&trees()[0], Some(&model));
        let title = evidence[0].features.iter().find(|f| f.0 == "title_entropy");
        assert!(close(title.expect("title").1, 1.0));
    }

    #[test]
    fn table_blocks_are_the_papers_partition() {
        let tree = docview_page::build(
            "<body><p>harbour lanterns</p><table><tr><td>ferry timetable<table><tr><td>\
             orchard cider</td></tr></table></td></tr></table></body>",
        );
        let analyzer = Analyzer::new();
        let blocks = content_blocks(&tree, BlockTags::Table, &analyzer);
        let words: Vec<Vec<&str>> = blocks
            .iter()
            .map(|b| b.features.iter().map(|(f, _)| f.as_str()).collect())
            .collect();
        assert_eq!(
            words,
            vec![
                vec!["harbour", "lantern"],
                vec!["ferri", "timet"],
                vec!["cider", "orchard"]
            ]
        );
        let by_container = content_blocks(&tree, BlockTags::Containers, &analyzer);
        assert!(by_container.len() >= blocks.len());
    }

    /// A forum template on the same site: another layout, its own notice on every page.
    fn forum_page(post: &str) -> String {
        format!(
            "<html><head><title>Valley Post forum</title></head><body><div id=forum>\
             <div class=notice>Members sign in to reply; guests may read every thread.</div>\
             <div class=post><p>{post}</p></div>\
             <div class=rules>Be kind and stay on the topic of the thread.</div></div>\
             </body></html>"
        )
    }

    const POSTS: [&str; 4] = [
        "Has anybody seen the heron nesting by the weir this spring?",
        "Our allotment lost three rows of leeks to the late frost.",
        "Looking for a second-hand canoe that fits two paddlers.",
        "The choir needs tenors for the harvest concert rehearsals.",
    ];

    #[test]
    fn template_clusters_group_pages_by_their_block_paths() {
        let paths = vec![vec![1, 2, 3], vec![1, 2, 3, 4], vec![7, 8], vec![1, 2]];
        assert_eq!(template_clusters(&paths, 0.5), vec![vec![0, 1, 3], vec![2]]);
        assert_eq!(template_clusters(&paths, 0.0), vec![vec![0, 1, 2, 3]]);
        assert_eq!(template_clusters(&paths, 0.9).len(), 4);
    }

    /// A site of two templates, news stories and forum posts, four pages each, interleaved:
    /// two page clusters of four pages, each page cleaned with its own template's cluster and
    /// keeping its own text; a page of a third template is like neither and goes to the
    /// fallback. A similarity of 0 keeps the site whole.
    #[test]
    fn a_site_of_two_templates_has_a_cluster_for_each() {
        let c = cleaner(BlockTags::Containers);
        let pages: Vec<(TagTree, &str)> = STORIES
            .iter()
            .zip(POSTS)
            .flat_map(|(story, post)| {
                [
                    (docview_page::build(&page(story)), *story),
                    (docview_page::build(&forum_page(post)), post),
                ]
            })
            .collect();
        let mut learner = c.site_learner().expect("site-aware");
        for (tree, _) in &pages {
            learner.add(tree);
        }
        let model = learner.finish().expect("a model");
        let SiteModel::InfoDiscoverer(clusters) = &model else {
            panic!("not InfoDiscoverer's model: {model:?}");
        };
        let sizes: Vec<usize> = clusters.clusters.iter().map(|k| k.entropy.pages).collect();
        assert_eq!(sizes, vec![4, 4]);
        for (tree, text) in &pages {
            assert!(c.uses_site_model(tree, Some(&model)));
            let cleaned = c.clean_in_site(tree, Some(&model));
            assert_eq!(cleaned.topic_text.trim(), *text, "{}", cleaned.topic_text);
        }
        let other = docview_page::build(
            "<html><body><table><tr><td>Timetable of the harbour ferries for the winter \
             months, with the night crossings</td></tr></table></body></html>",
        );
        assert!(!c.uses_site_model(&other, Some(&model)));
        assert_eq!(
            c.clean_in_site(&other, Some(&model)).topic_text,
            crate::Framework::default().clean(&other).topic_text
        );
        // One cluster when templates are not told apart.
        let whole = InfoDiscoverer::new(
            InfoDiscovererParams {
                template_similarity: 0.0,
                ..InfoDiscovererParams::default()
            },
            Box::new(crate::Framework::default()),
        );
        let mut learner = whole.site_learner().expect("site-aware");
        for (tree, _) in &pages {
            learner.add(tree);
        }
        let Some(SiteModel::InfoDiscoverer(one)) = learner.finish() else {
            panic!("a model");
        };
        assert_eq!(one.clusters.len(), 1);
        assert_eq!(one.clusters[0].entropy.pages, 8);
    }

    #[test]
    fn too_few_pages_have_no_model_and_the_fallback_cleans() {
        let c = cleaner(BlockTags::Containers);
        let mut learner = c.site_learner().expect("site-aware");
        for t in &trees()[..2] {
            learner.add(t);
        }
        assert!(learner.finish().is_none());
        let tree = &trees()[0];
        let alone = c.clean_in_site(tree, None);
        assert_eq!(
            alone.topic_text,
            crate::Framework::default().clean(tree).topic_text
        );
    }
}
