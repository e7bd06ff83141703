//! The learned cleaner, docview's default: the framework's tag tree and measures as evidence,
//! the keep-or-drop decision of each text block learned from labelled pages.
//!
//! For each page: the framework's [`Analysis`](super::framework::Analysis) (block weights,
//! noise blocks, central areas, page type, its own decisions), the [`features`](super::features)
//! of every text block, a score per block from the [`BlockModel`]. The threshold depends on
//! what the page is: on a [prose page](prose_page), whose likely content is mostly long
//! paragraphs (an article), the model's higher prose threshold drops the comments, teasers and
//! furniture that score near the middle; on a page of items (a listing, a product), the lower
//! threshold keeps short items. A page's topic content is one region of it: its
//! [main region](main_region) is the deepest element holding most of what reaches the
//! threshold, and a block outside it is kept only on strong evidence ([`BEFORE_REGION_SCORE`]
//! before it, where headlines stand, [`AFTER_REGION_SCORE`] after it, where comments, related
//! stories and sidebars do). The decision then
//! follows the tree: a block whose score reaches the page's threshold keeps its own text; a short
//! block between two kept blocks is kept with them (smoothing between neighbours); a block
//! with kept blocks below it but a low score of its own keeps only its children; a run of kept
//! blocks that repeats, block for block, a run kept before it is dropped as a
//! [copy](super::copies) (the article printed twice for two layouts); the topic
//! root is the lowest common ancestor of the kept blocks. The topic content stays a pruned tag
//! tree, so the topic content page, the topic root and its paragraphs work as with the
//! framework. A page where no block reaches the threshold has no topic content: the labelled
//! sets hold such pages, and keeping the framework's choice there scored lower (wcxb-dev
//! 0.852 against 0.855 cross-validated); except a short page, whose few blocks of prose are
//! kept ([`short_page_prose`](super::short_page_prose)).
//!
//! Site-aware when its model has a site stage (`train-cleaner --site-evidence`; the shipped
//! model has none): the cleaner learns each site's [`SiteRepeats`] (what the site's pages
//! repeat, [`site_evidence`](super::site_evidence)), and on a page whose site has one the
//! site stage, which reads that evidence beside the second stage's rows, may lower a block's
//! score. A page alone, or of a site of fewer than [`READ_MIN_PAGES`] pages, is scored as by
//! a model without a site stage.

use std::sync::Arc;

use super::captions::{CAPTION_REASON, caption_blocks};
use super::copies::{COPY_REASON, copied_blocks};
use super::favor::{Bars, CaptionRule, Favor};
use super::features::{
    BlockFeatures, FEATURE_NAMES, PROSE_BLOCK_SENTENCES, PROSE_BLOCK_TERMS, block_features,
    is_sentence_end,
};
use super::framework::Analysis;
use super::hidden::{HIDDEN_REASON, hidden_blocks, hidden_on_purpose};
use super::model::BlockModel;
use super::next_article::{NEXT_ARTICLE_REASON, next_article_blocks};
use super::pictures::{AROUND_PICTURE_REASON, PICTURE_REASON, article_pictures};
use super::site_evidence::{N_SITE, PageSignature, RepeatsLearner, SITE_NAMES, SiteRepeats};
use super::{
    BlockEvidence, Cleaned, Cleaner, Decision, Framework, SHORT_PAGE_REASON, SMALL_PAGE_KEPT_SHARE,
    SMALL_PAGE_REASON, SiteLearner, SiteModel, short_page_prose, small_page_whole,
};
use docview_page::{Item, NodeId, TagTree};

/// A block between two kept blocks is kept with them when its score reaches this share of the
/// threshold.
const SMOOTHING_SHARE: f32 = 0.5;

/// The site stage scores a page only when its site's model was learnt from this many pages or
/// more. It is trained on the evidence of every site of 3 or more pages, but read on sites of
/// 3 pages too it lost more than it won, cross-validated (wcxb-dev 0.8562 against 0.8565).
pub const READ_MIN_PAGES: u32 = 4;

/// The learned cleaner.
#[derive(Debug, Clone)]
pub struct Learned {
    model: Arc<BlockModel>,
    framework: Framework,
    favor: Favor,
}

/// The learned cleaner's view of one page, for `docview extract --format json`.
#[derive(Debug, Clone)]
pub struct Explained {
    /// The feature rows of the text blocks.
    pub features: BlockFeatures,
    /// The model's score of each row.
    pub scores: Vec<f32>,
    /// The site evidence of each row ([`N_SITE`] values), read by the site stage; empty when
    /// the page's site had no model or the model has no site stage.
    pub site: Vec<f32>,
    /// The threshold the page's blocks were decided with: the model's, or its prose threshold
    /// on a prose page (one whose kept blocks are mostly long paragraphs).
    pub threshold: f32,
    /// The cleaned page.
    pub cleaned: Cleaned,
}

impl Learned {
    /// The learned cleaner with the model shipped inside the binary.
    pub fn embedded() -> crate::Result<Learned> {
        Ok(Learned::with_model(BlockModel::embedded()?))
    }

    /// The learned cleaner with `model`.
    pub fn with_model(model: Arc<BlockModel>) -> Learned {
        Learned {
            model,
            framework: Framework::default(),
            favor: Favor::default(),
        }
    }

    /// The same cleaner deciding as `favor` asks.
    pub fn with_favor(self, favor: Favor) -> Learned {
        Learned { favor, ..self }
    }

    /// What it favours.
    pub fn favor(&self) -> Favor {
        self.favor
    }

    /// Its model.
    pub fn model(&self) -> &BlockModel {
        &self.model
    }

    /// Cleans a page and keeps the features and scores that decided it.
    pub fn explain(&self, tree: &TagTree) -> Explained {
        self.explain_with(tree, None)
    }

    /// [`Learned::explain`] with the evidence of the page's site, when it has a model.
    pub fn explain_with(&self, tree: &TagTree, site: Option<&SiteRepeats>) -> Explained {
        let Some(analysis) = self.framework.analyse(tree) else {
            return Explained {
                features: BlockFeatures::default(),
                scores: Vec::new(),
                site: Vec::new(),
                threshold: self.model.threshold,
                cleaned: Cleaned::empty(tree),
            };
        };
        let mut features = block_features(tree, &analysis);
        let site_rows = match site {
            Some(repeats) if self.model.has_site_stage() && repeats.pages >= READ_MIN_PAGES => {
                repeats.rows(&PageSignature::of(tree), &features.nodes)
            }
            _ => Vec::new(),
        };
        let scores = self.model.scores_in_site(
            tree,
            &mut features,
            (!site_rows.is_empty()).then_some(&site_rows[..]),
        );
        let bars = self.favor.bars();
        let threshold = page_threshold(&self.model, tree, &features, &scores, bars);
        let cleaned = decide(tree, analysis, &features, &scores, threshold, bars);
        Explained {
            features,
            scores,
            site: site_rows,
            threshold: threshold.value,
            cleaned,
        }
    }

    /// The block evidence of an explained page, by feature name.
    fn evidence(explained: Explained) -> Vec<BlockEvidence> {
        let f = &explained.features;
        f.nodes
            .iter()
            .enumerate()
            .map(|(k, &node)| {
                let mut features: Vec<(&'static str, f32)> = FEATURE_NAMES
                    .iter()
                    .copied()
                    .zip(f.row(k).iter().copied())
                    .collect();
                if let Some(site) = explained.site.get(k * N_SITE..(k + 1) * N_SITE) {
                    features.extend(SITE_NAMES.iter().copied().zip(site.iter().copied()));
                }
                BlockEvidence {
                    node,
                    score: explained.scores[k],
                    features,
                }
            })
            .collect()
    }
}

/// The site evidence in a site model, if it is the learned cleaner's.
fn repeats_of(site: Option<&SiteModel>) -> Option<&SiteRepeats> {
    match site {
        Some(SiteModel::Repeats(repeats)) => Some(repeats),
        _ => None,
    }
}

impl Cleaner for Learned {
    fn kind(&self) -> crate::CleanerKind {
        crate::CleanerKind::Learned
    }

    fn clean(&self, tree: &TagTree) -> Cleaned {
        self.explain(tree).cleaned
    }

    fn explain(&self, tree: &TagTree) -> Vec<BlockEvidence> {
        Learned::evidence(Learned::explain(self, tree))
    }

    /// A learner of the site evidence, when the model has a site stage to read it.
    fn site_learner(&self) -> Option<Box<dyn SiteLearner>> {
        self.model
            .has_site_stage()
            .then(|| Box::new(RepeatsLearner::new(READ_MIN_PAGES as usize)) as Box<dyn SiteLearner>)
    }

    fn clean_in_site(&self, tree: &TagTree, site: Option<&SiteModel>) -> Cleaned {
        self.explain_with(tree, repeats_of(site)).cleaned
    }

    fn explain_in_site(&self, tree: &TagTree, site: Option<&SiteModel>) -> Vec<BlockEvidence> {
        Learned::evidence(self.explain_with(tree, repeats_of(site)))
    }
}

/// A page is a prose page when at least this share of the terms of its blocks scored at or
/// above [`PROSE_PAGE_SCORE`] is in paragraphs of prose.
pub(crate) const PROSE_SHARE: f32 = 0.5;

/// The score from which a block counts when [`prose_page`] weighs what a page would keep: the
/// model's threshold before it was lowered to [`THRESHOLD`](crate::model::THRESHOLD)'s 0.35
/// for pages of items (issue 42), so that what is a prose page did not move with it.
pub(crate) const PROSE_PAGE_SCORE: f32 = 0.45;

/// True when a block is a paragraph of prose ([`PROSE_BLOCK_TERMS`]).
pub(crate) fn is_prose(tree: &TagTree, id: NodeId) -> bool {
    let node = tree.node(id);
    if node.own.terms < PROSE_BLOCK_TERMS {
        return false;
    }
    let mut ends = 0u32;
    for item in &node.items {
        if let Item::Text { start, end, .. } = *item {
            ends += tree
                .slice(start, end)
                .chars()
                .filter(|&c| is_sentence_end(c))
                .count() as u32;
            if ends >= PROSE_BLOCK_SENTENCES {
                return true;
            }
        }
    }
    false
}

/// True when the blocks `scores` would keep at `threshold` are mostly long paragraphs: the page
/// reads as one text (an article, a post, a documentation page) rather than as a list of
/// items: the learned cleaner's page type, known before its blocks are decided.
pub(crate) fn prose_page(
    tree: &TagTree,
    features: &BlockFeatures,
    scores: &[f32],
    threshold: f32,
) -> bool {
    let (mut kept, mut prose) = (0u32, 0u32);
    for (k, &id) in features.nodes.iter().enumerate() {
        if scores[k] >= threshold {
            let terms = tree.node(id).own.terms;
            kept += terms;
            if is_prose(tree, id) {
                prose += terms;
            }
        }
    }
    kept > 0 && prose as f32 >= PROSE_SHARE * kept as f32
}

/// The share of the terms of the blocks reaching a page's threshold that its
/// [main region](main_region) holds: the deepest node holding at least this share.
pub(crate) const MAIN_REGION_SHARE: f32 = 0.7;

/// A block before a page's [main region](main_region) (a headline, a dateline, but also
/// breadcrumbs and section labels) is kept from this score.
pub(crate) const BEFORE_REGION_SCORE: f32 = 0.75;

/// A block after a page's main region (comments, related stories, newsletter
/// boxes, sidebars, footers) is kept from this score: an article page has one article, a
/// listing one list.
pub const AFTER_REGION_SCORE: f32 = 0.95;

/// The threshold a page's blocks are decided at, and whether it is a prose page's.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct PageThreshold {
    /// The score a block must reach.
    pub(crate) value: f32,
    /// True when it is the model's prose threshold: the page reads as one text (an article, a
    /// post), and [`CaptionRule::OnProsePages`] drops its captions.
    pub(crate) prose: bool,
}

impl PageThreshold {
    /// The threshold of a page of items (not a prose page's).
    #[cfg(test)]
    pub(crate) fn items(value: f32) -> PageThreshold {
        PageThreshold {
            value,
            prose: false,
        }
    }
}

/// The threshold of a page's blocks: the model's prose threshold on a [prose page](prose_page)
/// where some block reaches it, else its threshold (a prose page none of whose blocks reaches
/// the prose threshold keeps what reaches the other, rather than nothing), each moved by the
/// bars' shift.
fn page_threshold(
    model: &BlockModel,
    tree: &TagTree,
    features: &BlockFeatures,
    scores: &[f32],
    bars: Bars,
) -> PageThreshold {
    let shift = bars.threshold_shift;
    match model.prose_threshold {
        Some(prose)
            if scores.iter().any(|&s| s >= prose + shift)
                && prose_page(tree, features, scores, PROSE_PAGE_SCORE + shift) =>
        {
            PageThreshold {
                value: prose + shift,
                prose: true,
            }
        }
        _ => PageThreshold {
            value: model.threshold + shift,
            prose: false,
        },
    }
}

/// The main region of a page whose blocks marked in `kept` are its topic content: the deepest
/// node holding at least [`MAIN_REGION_SHARE`] of their terms, widened to hold the first of
/// them that is a paragraph of prose (an article's comments may outweigh it, never precede
/// it). `None` when the kept blocks have no terms.
pub(crate) fn main_region(
    tree: &TagTree,
    features: &BlockFeatures,
    kept: &[bool],
) -> Option<NodeId> {
    let mut terms = vec![0u64; tree.nodes.len()];
    for &id in &features.nodes {
        if kept[id as usize] {
            terms[id as usize] = u64::from(tree.node(id).own.terms);
        }
    }
    // Children come after their parents.
    for i in (1..terms.len()).rev() {
        if let Some(p) = tree.nodes[i].parent {
            terms[p as usize] += terms[i];
        }
    }
    let mut root = tree.root()?;
    let total = terms[root as usize] as f64;
    if total == 0.0 {
        return None;
    }
    let enough = f64::from(MAIN_REGION_SHARE) * total;
    while let Some(&child) = tree
        .node(root)
        .children
        .iter()
        .find(|&&c| terms[c as usize] as f64 >= enough)
    {
        root = child;
    }
    let first_prose = features
        .nodes
        .iter()
        .copied()
        .find(|&id| kept[id as usize] && is_prose(tree, id));
    if let Some(first) = first_prose {
        while !tree.is_ancestor(root, first) {
            match tree.node(root).parent {
                Some(p) => root = p,
                None => break,
            }
        }
    }
    Some(root)
}

/// A kept block of at most this many terms that stands before the page's headline (the block
/// that repeats `<title>`), before it or inside its block ahead of its heading text, and is no
/// heading is a label over the article, not its text: a kicker ("Birds"), a section or
/// category name.
pub(crate) const KICKER_TERMS: u32 = 2;

/// True when `id` is a child block of `title_block` that comes before its heading text (a
/// kicker set inside the headline's block, as `<header><p>Birds</p><h1>...`).
fn before_headline_within(tree: &TagTree, title_block: NodeId, id: NodeId) -> bool {
    for item in &tree.node(title_block).items {
        match *item {
            Item::Child(child) if child == id => return true,
            Item::Text { style, .. } if style.heading > 0 => return false,
            _ => {}
        }
    }
    false
}

/// The reason of a block dropped as a label above the headline.
pub(crate) const KICKER_REASON: &str = "a label above the headline (kicker, section, category)";

/// The reason of a block that reached the threshold but was dropped outside the main region.
pub(crate) const OUTSIDE_REGION_REASON: &str = "outside the main region, model score below its bar";

/// The decisions of a page from its block scores, following the tree.
pub(crate) fn decide(
    tree: &TagTree,
    analysis: Analysis,
    features: &BlockFeatures,
    scores: &[f32],
    page: PageThreshold,
    bars: Bars,
) -> Cleaned {
    let threshold = page.value;
    let n = tree.nodes.len();
    let mut own_kept = vec![false; n];
    let mut kept_reason = "model score at or above the threshold";
    for (k, &id) in features.nodes.iter().enumerate() {
        own_kept[id as usize] = scores[k] >= threshold;
    }
    // Smoothing: a block between two kept blocks, with a score not far below the threshold.
    for k in 1..features.len().saturating_sub(1) {
        let id = features.nodes[k] as usize;
        if !own_kept[id]
            && scores[k] >= SMOOTHING_SHARE * threshold
            && own_kept[features.nodes[k - 1] as usize]
            && own_kept[features.nodes[k + 1] as usize]
        {
            own_kept[id] = true;
        }
    }
    // One region: what lies outside it needs stronger evidence.
    let mut dropped_as: Vec<Option<&'static str>> = vec![None; n];
    if let Some(region) = main_region(tree, features, &own_kept) {
        for (k, &id) in features.nodes.iter().enumerate() {
            let i = id as usize;
            if own_kept[i] && !tree.is_ancestor(region, id) {
                let bar = if id < region {
                    bars.before_region
                } else {
                    bars.after_region
                };
                if scores[k] < bar {
                    own_kept[i] = false;
                    dropped_as[i] = Some(OUTSIDE_REGION_REASON);
                }
            }
        }
    }
    // Copies: a run of kept blocks that repeats one the topic content already holds.
    let copies = copied_blocks(features, &own_kept);
    drop_blocks(&mut own_kept, &mut dropped_as, copies, COPY_REASON);
    // The next article: a later `<article>` with its own headline.
    let next = next_article_blocks(tree, features, &own_kept);
    drop_blocks(&mut own_kept, &mut dropped_as, next, NEXT_ARTICLE_REASON);
    // Hidden on purpose: what the markup hides and the tree shows all the same.
    let hidden = hidden_on_purpose(tree);
    let hidden_kept = hidden_blocks(features, &own_kept, &hidden);
    drop_blocks(&mut own_kept, &mut dropped_as, hidden_kept, HIDDEN_REASON);
    // Captions: the text a `<figure>` sets beside its picture.
    let drop_captions = match bars.captions {
        CaptionRule::Keep => false,
        CaptionRule::OnProsePages => page.prose,
        CaptionRule::Drop => true,
    };
    // A dropped caption's block that holds the figure's picture keeps it (in the Markdown and
    // the topic content page): the story's picture, without the text about it.
    let mut pictured = vec![false; n];
    if drop_captions {
        let captions = caption_blocks(tree, features, &own_kept);
        for &id in &captions {
            pictured[id as usize] = tree.node(id).own.images > 0;
        }
        drop_blocks(&mut own_kept, &mut dropped_as, captions, CAPTION_REASON);
    }
    // Labels over the headline: a kicker, a section or category name.
    for (k, &id) in features.nodes.iter().enumerate() {
        let i = id as usize;
        if own_kept[i]
            && tree.node(id).own.terms <= KICKER_TERMS
            && !features.is_heading(k)
            && (features.before_title(k)
                || features
                    .title_block
                    .is_some_and(|t| before_headline_within(tree, t, id)))
        {
            own_kept[i] = false;
            dropped_as[i] = Some(KICKER_REASON);
        }
    }
    if let Some(mut small) = small_page_whole(tree) {
        // A small page without furniture is its text, where the model kept too little of it;
        // what it hides on purpose is not.
        small.retain(|&id| !hidden[id as usize]);
        let terms = |id: &NodeId| tree.node(*id).own.terms;
        let all: u32 = small.iter().map(terms).sum();
        let kept: u32 = small
            .iter()
            .filter(|&&id| own_kept[id as usize])
            .map(terms)
            .sum();
        if (kept as f32) < SMALL_PAGE_KEPT_SHARE * all as f32 {
            for id in small {
                own_kept[id as usize] = true;
            }
            let reasons = hidden.iter().map(|&h| h.then_some(HIDDEN_REASON)).collect();
            let dropped = Dropped {
                reasons,
                pictured: vec![false; n],
            };
            return decided(tree, analysis, own_kept, dropped, SMALL_PAGE_REASON);
        }
    }
    if !own_kept.iter().any(|&k| k) {
        // A short page's prose is its topic content, whatever its score ([`short_page_prose`]).
        for id in short_page_prose(tree)
            .into_iter()
            .filter(|&id| !hidden[id as usize])
        {
            own_kept[id as usize] = true;
            kept_reason = SHORT_PAGE_REASON;
        }
    }
    let dropped = Dropped {
        reasons: dropped_as,
        pictured,
    };
    decided(tree, analysis, own_kept, dropped, kept_reason)
}

/// What the rules after the model's decision dropped, by node id.
struct Dropped {
    /// The reason of a block dropped after the model's decision (for lying outside the main
    /// region, repeating a run of kept blocks, belonging to the next article, being hidden on
    /// purpose, being a caption or being a label over the headline).
    reasons: Vec<Option<&'static str>>,
    /// A dropped caption's block whose pictures stay ([`Verdict::PicturesKept`](crate::Verdict::PicturesKept)).
    pictured: Vec<bool>,
}

/// Drops the blocks `ids` from `own_kept`, each for `reason`: a rule's verdict after the model's.
fn drop_blocks(
    own_kept: &mut [bool],
    dropped_as: &mut [Option<&'static str>],
    ids: Vec<NodeId>,
    reason: &'static str,
) {
    for id in ids {
        own_kept[id as usize] = false;
        dropped_as[id as usize] = Some(reason);
    }
}

/// The cleaned page of the blocks marked in `own_kept`, kept for `kept_reason`, with what the
/// rules after the model's decision dropped.
fn decided(
    tree: &TagTree,
    analysis: Analysis,
    own_kept: Vec<bool>,
    dropped: Dropped,
    kept_reason: &'static str,
) -> Cleaned {
    let Dropped {
        reasons: dropped_as,
        pictured,
    } = dropped;
    let n = tree.nodes.len();
    if !own_kept.iter().any(|&k| k) {
        // No topic content: the labelled sets hold such pages (a chart of titles, a shop page
        // whose products load by script), and the pipeline keeps their visible text when it
        // must (`topic_content_empty`).
        let mut cleaned = Cleaned::empty(tree);
        cleaned.page_type = analysis.page_type;
        cleaned.weights = analysis.weights;
        return cleaned;
    }
    // Which subtrees hold a kept block (children come after their parents).
    let mut holds = own_kept.clone();
    for i in (1..n).rev() {
        if holds[i]
            && let Some(p) = tree.nodes[i].parent
        {
            holds[p as usize] = true;
        }
    }
    let topic_root = lowest_common_ancestor(tree, &own_kept);
    // The article's pictures: blocks of pictures alone, which the model (it scores text)
    // dropped.
    let pictures = article_pictures(tree, topic_root, &holds, &|id| {
        dropped_as[id as usize].is_some_and(|r| r != CAPTION_REASON)
    });
    let mut pictured_as: Vec<Option<&'static str>> = pictured
        .iter()
        .map(|&p| p.then_some(CAPTION_REASON))
        .collect();
    for &id in &pictures.blocks {
        pictured_as[id as usize].get_or_insert(PICTURE_REASON);
    }
    let mut around_picture = vec![false; n];
    for &id in &pictures.around {
        holds[id as usize] = true;
        around_picture[id as usize] = true;
    }
    // Outside the topic root, a block dropped after the model's decision keeps its reason.
    let mut decisions: Vec<Decision> = dropped_as
        .iter()
        .map(|reason| reason.map_or_else(Decision::outside, Decision::dropped))
        .collect();
    for id in tree.descendants(topic_root) {
        let i = id as usize;
        decisions[i] = if own_kept[i] {
            Decision::kept(kept_reason)
        } else if let Some(reason) = pictured_as[i] {
            Decision::pictures_kept(reason)
        } else if holds[i] {
            Decision::text_dropped(if around_picture[i] {
                AROUND_PICTURE_REASON
            } else {
                "kept blocks below, own text scored low"
            })
        } else if let Some(reason) = dropped_as[i] {
            Decision::dropped(reason)
        } else {
            Decision::dropped("model score below the threshold")
        };
    }
    Cleaned::rendered(
        tree,
        analysis.page_type,
        topic_root,
        decisions,
        analysis.weights,
    )
}

/// The lowest node whose subtree holds every node marked in `marked` (at least one is).
fn lowest_common_ancestor(tree: &TagTree, marked: &[bool]) -> NodeId {
    let mut lca: Option<NodeId> = None;
    for (i, &m) in marked.iter().enumerate() {
        if !m {
            continue;
        }
        let id = i as NodeId;
        lca = Some(match lca {
            None => id,
            Some(mut a) => {
                while !tree.is_ancestor(a, id) {
                    a = tree.node(a).parent.unwrap_or(0);
                }
                a
            }
        });
    }
    lca.unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_pages::{rows, words};
    use docview_page::{PageType, build};

    fn sample(name: &str) -> String {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../../corpus-samples/sites/fieldnotes")
            .join(name);
        std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    }

    #[test]
    fn the_embedded_model_loads_and_cleans_a_sample_page() {
        let cleaner = Learned::embedded().expect("the shipped model loads");
        assert_eq!(cleaner.model().version, crate::model::MODEL_VERSION);
        let tree = build(&sample("tide-pools.html"));
        let explained = cleaner.explain(&tree);
        let c = &explained.cleaned;
        assert_eq!(c.page_type, PageType::Topic);
        assert!(c.topic_text.contains("anemone"), "{}", c.topic_text);
        // The site's menu and footer are text blocks the model scores low.
        for (k, &id) in explained.features.nodes.iter().enumerate() {
            let node = tree.node(id);
            if matches!(&*node.tag, "nav" | "footer") {
                assert!(
                    explained.scores[k] < 0.5,
                    "{} scored {}",
                    node.label,
                    explained.scores[k]
                );
                assert_ne!(c.decisions[id as usize].verdict, crate::Verdict::Kept);
            }
        }
        // One score per text block, each a probability.
        assert_eq!(explained.scores.len(), explained.features.len());
        assert!(explained.scores.iter().all(|s| (0.0..=1.0).contains(s)));
    }

    #[test]
    fn decisions_follow_the_tree() {
        let html = "<body><div id=a><p>one two three</p><div id=b><p>four five six</p>\
            <p>seven eight nine</p></div></div><footer><p>ten eleven</p></footer></body>";
        let (tree, analysis, features) = rows(html);
        let labels: Vec<&str> = features
            .nodes
            .iter()
            .map(|&id| &*tree.node(id).label)
            .collect();
        assert_eq!(labels, ["p", "p", "p", "p"]);
        // Keep the 2nd and 3rd paragraphs; the 1st scores low, the footer lower.
        let c = decide(
            &tree,
            analysis.clone(),
            &features,
            &[0.2, 0.9, 0.8, 0.1],
            PageThreshold::items(0.5),
            Favor::Balanced.bars(),
        );
        assert_eq!(c.topic_text, "four five six\n\nseven eight nine");
        let root = c.topic_root.unwrap();
        assert_eq!(
            &*tree.node(root).label,
            "div#b",
            "the lowest common ancestor"
        );
        // A low block between two kept ones is kept when it is not far below the threshold.
        let c = decide(
            &tree,
            analysis.clone(),
            &features,
            &[0.9, 0.3, 0.8, 0.1],
            PageThreshold::items(0.5),
            Favor::Balanced.bars(),
        );
        assert_eq!(
            c.topic_text,
            "one two three\n\nfour five six\n\nseven eight nine"
        );
        let c = decide(
            &tree,
            analysis.clone(),
            &features,
            &[0.9, 0.2, 0.8, 0.1],
            PageThreshold::items(0.5),
            Favor::Balanced.bars(),
        );
        assert_eq!(c.topic_text, "one two three\n\nseven eight nine");
        assert_eq!(&*tree.node(c.topic_root.unwrap()).label, "div#a");
    }

    #[test]
    fn a_short_page_keeps_its_only_paragraph() {
        let cleaner = Learned::embedded().expect("the shipped model loads");
        let page = "<html><body><p>hello world, this is a one-paragraph page.</p></body></html>";
        let c = cleaner.clean(&build(page));
        assert_eq!(c.topic_text, "hello world, this is a one-paragraph page.");
        assert_eq!(c.paragraphs.len(), 1);
        // Kept by its score or, where no block reaches the threshold, as a short page's prose.
        let unscored = |html: &str| {
            let (tree, analysis, features) = rows(html);
            let none = vec![0.0; features.len()];
            decide(
                &tree,
                analysis,
                &features,
                &none,
                PageThreshold::items(0.5),
                Favor::Balanced.bars(),
            )
        };
        let c = unscored(page);
        assert_eq!(c.topic_text, "hello world, this is a one-paragraph page.");
        let root = c.topic_root.expect("a topic root");
        assert_eq!(c.decisions[root as usize].reason, crate::SHORT_PAGE_REASON);
        // The rule keeps no links: a short page of links only whose blocks reach no threshold
        // keeps nothing.
        let links = "<html><body><p><a href=/a>one page here</a> <a href=/b>another page \
            there</a></p></body></html>";
        let c = unscored(links);
        assert!(c.topic_root.is_none(), "{:?}", c.topic_text);
    }

    /// An article of two paragraphs of prose (40 and 35 terms) and a short line `after` them.
    fn article(after: &str) -> String {
        format!(
            "<body><article><p>{}</p><p>{}</p>{after}</article></body>",
            words(40, "tide"),
            words(35, "pool")
        )
    }

    #[test]
    fn a_caption_goes_on_a_prose_page_by_default_and_everywhere_under_precision() {
        let html = article(
            "<figure><img src=a.jpg><figcaption>Anemones at low tide. Photo: J. Harkness\
             </figcaption></figure>",
        );
        let (tree, analysis, features) = rows(&html);
        assert_eq!(features.len(), 3);
        let scores = [0.9, 0.9, 0.9];
        let kept = |page: PageThreshold, favor: Favor| {
            let c = decide(
                &tree,
                analysis.clone(),
                &features,
                &scores,
                page,
                favor.bars(),
            );
            assert!(c.topic_text.contains("tide") && c.topic_text.contains("pool"));
            c.topic_text.contains("Anemones")
        };
        let prose = PageThreshold {
            value: 0.6,
            prose: true,
        };
        let items = PageThreshold::items(0.6);
        assert!(!kept(prose, Favor::Balanced), "a prose page's caption goes");
        assert!(kept(items, Favor::Balanced), "a page of items keeps it");
        assert!(!kept(items, Favor::Precision));
        assert!(kept(prose, Favor::Recall));
    }

    #[test]
    fn a_page_of_long_paragraphs_is_a_prose_page_and_a_list_is_not() {
        let (tree, _, features) = rows(&article("<p>Related stories</p>"));
        assert_eq!(features.len(), 3);
        // The paragraphs hold 75 of the 77 terms scored as content: a prose page.
        assert!(prose_page(&tree, &features, &[0.9, 0.8, 0.5], 0.45));
        // Scored as content alone, the short label is no prose.
        assert!(!prose_page(&tree, &features, &[0.2, 0.2, 0.9], 0.45));
        // Nothing scored as content: no page type to read.
        assert!(!prose_page(&tree, &features, &[0.1, 0.1, 0.1], 0.45));

        let items: String = (0..8)
            .map(|i| format!("<li><a href=/s{i}>Story number {i} of the week</a></li>"))
            .collect();
        let listing = format!("<body><ul>{items}</ul><p>{}</p></body>", words(30, "about"));
        let (tree, _, features) = rows(&listing);
        let scores = vec![0.9; features.len()];
        // 8 items of 6 terms beside one paragraph of 30: the items outweigh it.
        assert!(!prose_page(&tree, &features, &scores, 0.45));
    }

    #[test]
    fn a_prose_page_is_decided_at_the_prose_threshold() {
        let shipped = BlockModel::embedded().unwrap().to_json().unwrap();
        let mut model = BlockModel::from_json(&shipped, "test").unwrap();
        assert_eq!(model.threshold, crate::model::THRESHOLD);
        assert_eq!(model.prose_threshold, Some(crate::model::PROSE_THRESHOLD));
        let (tree, analysis, features) = rows(&article("<p>Filed under tides</p>"));
        let scores = [0.9, 0.8, 0.55];
        let prose = page_threshold(&model, &tree, &features, &scores, Favor::Balanced.bars());
        assert_eq!(
            prose,
            PageThreshold {
                value: 0.6,
                prose: true
            }
        );
        let c = decide(
            &tree,
            analysis.clone(),
            &features,
            &scores,
            prose,
            Favor::Balanced.bars(),
        );
        assert!(!c.topic_text.contains("Filed"), "{}", c.topic_text);
        // A prose page none of whose blocks reaches the prose threshold keeps what reaches the
        // other rather than nothing.
        let low = [0.55, 0.5, 0.2];
        assert!(prose_page(&tree, &features, &low, PROSE_PAGE_SCORE));
        assert_eq!(
            page_threshold(&model, &tree, &features, &low, Favor::Balanced.bars()),
            PageThreshold::items(crate::model::THRESHOLD)
        );
        // A model file from before the prose threshold decides every page at its threshold.
        model.prose_threshold = None;
        let json = model.to_json().unwrap();
        assert!(!String::from_utf8_lossy(&json).contains("prose_threshold"));
        let old = BlockModel::from_json(&json, "old").unwrap();
        assert_eq!(old.prose_threshold, None);
        assert_eq!(
            page_threshold(&old, &tree, &features, &scores, Favor::Balanced.bars()),
            PageThreshold::items(old.threshold)
        );
    }

    /// A breadcrumb and a headline before the article's element, its two paragraphs (60 and 50
    /// terms), and two comments of `comment_terms` after it.
    fn article_with_comments(comment_terms: usize) -> String {
        format!(
            "<body><div id=crumbs><p>Home > Coast > Tides</p></div><div id=head><h1>The tide pools \
             of Point Ruth</h1></div><article><p>{}</p><p>{}</p></article><section id=comments><p>{}</p>\
             <p>{}</p></section></body>",
            words(60, "tide"),
            words(50, "pool"),
            words(comment_terms, "reply"),
            words(comment_terms, "answer")
        )
    }

    #[test]
    fn a_page_keeps_one_region() {
        let (tree, analysis, features) = rows(&article_with_comments(12));
        let labels: Vec<&str> = features
            .nodes
            .iter()
            .map(|&id| &*tree.node(id).label)
            .collect();
        assert_eq!(labels, ["p", "div#head", "p", "p", "p", "p"]);
        let all = vec![true; tree.nodes.len()];
        let region = main_region(&tree, &features, &all).expect("a region");
        assert_eq!(&*tree.node(region).label, "article");
        // Crumbs 0.7 and headline 0.8 before the article, comments 0.9 and 0.97 after it.
        let scores = [0.7, 0.8, 0.9, 0.9, 0.9, 0.97];
        let c = decide(
            &tree,
            analysis.clone(),
            &features,
            &scores,
            PageThreshold::items(0.6),
            Favor::Balanced.bars(),
        );
        let text = &c.topic_text;
        assert!(!text.contains("Home"), "{text}");
        assert!(text.starts_with("The tide pools of Point Ruth"), "{text}");
        assert!(text.contains("tide.") && text.contains("pool."), "{text}");
        assert!(!text.contains("reply"), "{text}");
        assert!(
            text.contains("answer"),
            "strong evidence after the article: {text}"
        );
        let crumbs = features.nodes[0] as usize;
        assert_eq!(c.decisions[crumbs].reason, OUTSIDE_REGION_REASON);
        // Scored as strongly as the article, the comments stay.
        let strong = [0.7, 0.8, 0.9, 0.9, 0.96, 0.97];
        let c = decide(
            &tree,
            analysis,
            &features,
            &strong,
            PageThreshold::items(0.6),
            Favor::Balanced.bars(),
        );
        assert!(c.topic_text.contains("reply"), "{}", c.topic_text);
    }

    #[test]
    fn comments_that_outweigh_the_article_do_not_take_its_place() {
        // Each comment longer than the article: the deepest element with 70% of the terms is
        // the comments' section, which does not hold the first paragraph of prose.
        let (tree, _, features) = rows(&article_with_comments(300));
        let all = vec![true; tree.nodes.len()];
        let region = main_region(&tree, &features, &all).expect("a region");
        let first = features.nodes[2];
        assert!(
            tree.is_ancestor(region, first),
            "{}",
            tree.node(region).label
        );
        // Nothing kept, no region.
        assert_eq!(
            main_region(&tree, &features, &vec![false; tree.nodes.len()]),
            None
        );
    }
}
