//! Web page cleaning (004 §4): one [`Cleaner`] trait and the cleaners users pick by name
//! (`--cleaner NAME`). The default, `learned`, decides each block with a model trained on
//! labelled pages from the framework's measures; `framework` is the paper's cleaner alone;
//! `eem` keeps the block of maximum entropy of Nyein's Entropy Evaluation Model (003);
//! `keypattern` the blocks of enough important tags, cut at key patterns (001);
//! `infodiscoverer` learns from the other pages of a site which blocks repeat (000): a
//! site-aware cleaner ([`Cleaner::site_learner`], [`SiteModel`]); so is `wisdom`, which weighs
//! terms by their entropy over the site and mines each page's informative structure (002). The learned cleaner is
//! site-aware too when its model has a site stage: it reads what a site's pages repeat
//! ([`SiteRepeats`]) as more features of its block decision.

#![deny(missing_docs)]

mod candidates;
mod captions;
mod copies;
mod eem;
mod error;
mod favor;
mod features;
mod framework;
mod hidden;
mod infodiscoverer;
mod keypattern;
mod kind;
mod learned;
mod lexicon;
mod model;
mod next_article;
mod pictures;
mod purified;
mod site_evidence;
#[cfg(test)]
mod test_pages;
mod wisdom;

use serde::Serialize;

use docview_page::{NodeId, Show, TagTree};
use eem::Eem;
use infodiscoverer::{BlockTags, InfoDiscoverer, InfoDiscovererParams};
use keypattern::KeyPattern;
use wisdom::{Wisdom, WisdomParams};

pub use docview_page::PageType;
pub use docview_trees::{MAX_TREE_DEPTH, Stage};
pub use error::{Error, Result};
pub use favor::Favor;
pub use features::{
    BlockFeatures, FEATURE_NAMES, N_CONTEXT, N_FEATURES, block_features, context_rows, parents,
};
pub use framework::{Analysis, Framework, FrameworkParams};
pub use infodiscoverer::SiteClusters;
pub use kind::{CLEANERS, CleanerKind, DEFAULT_CLEANER};
pub use learned::{AFTER_REGION_SCORE, Explained, Learned, READ_MIN_PAGES};
pub use lexicon::Lexicon;
pub use model::{
    BlockModel, PROSE_THRESHOLD, SITE_WIDTH, THRESHOLD, TrainParams, joined_rows, model_digest,
    site_rows,
};
pub use purified::topic_content_page;
pub use site_evidence::{
    MIN_PAGES as SITE_MIN_PAGES, N_SITE, PageSignature, RepeatsLearner, SITE_NAMES, SiteRepeats,
};
pub use wisdom::SiteTerms;

/// What became of a block.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// Kept in the topic content.
    Kept,
    /// Its own text left out, its child blocks judged on their own.
    TextDropped,
    /// Its own text left out as a figure's caption, its pictures kept (in the Markdown and the
    /// topic content page), its child blocks judged on their own.
    PicturesKept,
    /// Left out with everything below it.
    Dropped,
}

/// Whether a block was kept in the topic content, and why.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Decision {
    /// What became of it.
    pub verdict: Verdict,
    /// Why, in a few words.
    pub reason: &'static str,
}

impl Decision {
    /// A kept block.
    pub fn kept(reason: &'static str) -> Self {
        Decision {
            verdict: Verdict::Kept,
            reason,
        }
    }

    /// A dropped block.
    pub fn dropped(reason: &'static str) -> Self {
        Decision {
            verdict: Verdict::Dropped,
            reason,
        }
    }

    /// A block whose own text is dropped.
    pub fn text_dropped(reason: &'static str) -> Self {
        Decision {
            verdict: Verdict::TextDropped,
            reason,
        }
    }

    /// A figure's block whose caption text is dropped and whose pictures stay.
    pub fn pictures_kept(reason: &'static str) -> Self {
        Decision {
            verdict: Verdict::PicturesKept,
            reason,
        }
    }

    /// A block outside the topic root.
    pub fn outside() -> Self {
        Decision::dropped("outside the topic root")
    }

    /// True unless the block is dropped with its subtree.
    pub fn is_kept(&self) -> bool {
        self.verdict != Verdict::Dropped
    }

    /// How a rendering shows the block.
    pub fn show(&self) -> Show {
        match self.verdict {
            Verdict::Kept => Show::All,
            Verdict::TextDropped => Show::ChildrenOnly,
            Verdict::PicturesKept => Show::Pictures,
            Verdict::Dropped => Show::Nothing,
        }
    }
}

/// What a cleaner produced for one page.
#[derive(Debug, Clone, Serialize)]
pub struct Cleaned {
    /// Topic, hub or image.
    pub page_type: PageType,
    /// The text of `<title>`, whitespace folded.
    pub title: String,
    /// The topic content as plain text: headings on their own lines, paragraphs separated by a
    /// blank line.
    pub topic_text: String,
    /// The topic root (§6): the block that embeds all topic content.
    pub topic_root: Option<NodeId>,
    /// The paragraphs of the topic content, in order (the topic root's kept blocks with text).
    pub paragraphs: Vec<String>,
    /// One decision per node of the tag tree, by node id.
    pub decisions: Vec<Decision>,
    /// Block weight of each node (Algorithm 1), by node id.
    pub weights: Vec<f32>,
}

impl Cleaned {
    /// The topic content under `topic_root`: the blocks `decisions` show, rendered (with their
    /// images on an image page).
    pub fn rendered(
        tree: &TagTree,
        page_type: PageType,
        topic_root: NodeId,
        decisions: Vec<Decision>,
        weights: Vec<f32>,
    ) -> Self {
        let rendered = Cleaned::render_topic(tree, page_type, topic_root, &decisions, &|_| false);
        Cleaned {
            page_type,
            title: tree.title.clone(),
            topic_text: rendered.text(),
            topic_root: Some(topic_root),
            paragraphs: rendered.paragraphs,
            decisions,
            weights,
        }
    }

    /// The topic content under `topic_root` of a page of `page_type`: the blocks `decisions`
    /// show, but those `left_out` says (with their images' alt texts on an image page). The
    /// one rendering of a cleaned page's text: [`Cleaned::rendered`]'s, and a text without
    /// some of its blocks (`extract --no-tables`).
    pub fn render_topic(
        tree: &TagTree,
        page_type: PageType,
        topic_root: NodeId,
        decisions: &[Decision],
        left_out: &dyn Fn(NodeId) -> bool,
    ) -> docview_page::Rendered {
        docview_page::render(
            tree,
            topic_root,
            page_type == PageType::Image,
            &|id| match decisions.get(id as usize) {
                Some(d) if !left_out(id) => d.show(),
                _ => Show::Nothing,
            },
        )
    }

    /// The result for a page with nothing in it.
    pub fn empty(tree: &TagTree) -> Self {
        Cleaned {
            page_type: PageType::Topic,
            title: tree.title.clone(),
            topic_text: String::new(),
            topic_root: None,
            paragraphs: Vec::new(),
            decisions: vec![Decision::outside(); tree.nodes.len()],
            weights: vec![1.0; tree.nodes.len()],
        }
    }
}

/// A page of at most this many visible text blocks is a short page ([`short_page_prose`]).
pub(crate) const SHORT_PAGE_BLOCKS: usize = 3;

/// A text block of a short page is prose when it has at least this many terms and is not a
/// hub block (mostly anchor text) nor an image block.
pub(crate) const SHORT_PAGE_MIN_TERMS: u32 = 5;

/// The reason of a block kept by the short-page rule.
pub(crate) const SHORT_PAGE_REASON: &str = "a short page's prose";

/// The prose blocks of a short page, the topic content a cleaner that kept nothing of it keeps
/// (issue 25: a one-paragraph page is not empty): when the page has at most
/// [`SHORT_PAGE_BLOCKS`] visible text blocks, those of them with [`SHORT_PAGE_MIN_TERMS`] terms
/// or more that are neither hub nor image blocks. Empty for any other page, and for a short
/// page of links, images or a few words.
pub(crate) fn short_page_prose(tree: &TagTree) -> Vec<NodeId> {
    let mut text_blocks = 0usize;
    let mut prose = Vec::new();
    for id in tree.text_blocks() {
        text_blocks += 1;
        if text_blocks > SHORT_PAGE_BLOCKS {
            return Vec::new();
        }
        let node = tree.node(id);
        if node.own.terms >= SHORT_PAGE_MIN_TERMS && node.block_type == PageType::Topic {
            prose.push(id);
        }
    }
    prose
}

/// A small page keeps all its text: at most this many visible text blocks …
pub(crate) const SMALL_PAGE_BLOCKS: usize = 30;
/// … of at most this many terms in all …
pub(crate) const SMALL_PAGE_TERMS: u32 = 150;
/// … and at most this share of them link text.
pub(crate) const SMALL_PAGE_ANCHOR_SHARE: f32 = 0.25;

/// The learned cleaner keeps a small page whole when what it kept of it holds less than this
/// share of its text.
pub(crate) const SMALL_PAGE_KEPT_SHARE: f32 = 0.6;

/// The reason of a block kept as part of a small page ([`small_page_whole`]).
pub(crate) const SMALL_PAGE_REASON: &str = "a small page without furniture, kept whole";

/// The text blocks of a small page with no furniture, all of which are its topic content
/// (issue 42: a page of a heading, a paragraph and a table kept only its table's header row): a page
/// of at most [`SMALL_PAGE_BLOCKS`] visible text blocks and [`SMALL_PAGE_TERMS`] terms, with
/// little link text, no block named or placed like boilerplate (navigation, header, footer,
/// sidebar, comments) and at least one paragraph of prose. Its blocks of images are left out.
/// `None` for any other page.
pub(crate) fn small_page_whole(tree: &TagTree) -> Option<Vec<NodeId>> {
    let root = tree.root()?;
    let page = tree.node(root).subtree;
    if page.terms > SMALL_PAGE_TERMS || page.anchor_ratio() > SMALL_PAGE_ANCHOR_SHARE {
        return None;
    }
    let visible = tree.visible_nodes();
    let mut furniture = vec![false; tree.nodes.len()];
    let (mut blocks, mut prose) = (Vec::new(), false);
    for (i, node) in tree.nodes.iter().enumerate() {
        let parent = node.parent.is_some_and(|p| furniture[p as usize]);
        furniture[i] = parent
            || node.hint.is_boilerplate()
            || features::is_chrome_tag(&node.tag)
            || &*node.tag == "form";
        if !visible[i] || node.own.terms == 0 {
            continue;
        }
        if furniture[i] {
            return None;
        }
        if blocks.len() >= SMALL_PAGE_BLOCKS {
            return None;
        }
        prose |= node.own.terms >= 12 && node.block_type == PageType::Topic;
        if node.block_type != PageType::Image {
            blocks.push(i as NodeId);
        }
    }
    prose.then_some(blocks)
}

/// A page cleaner: from a markup tag tree to its topic content.
pub trait Cleaner: Send + Sync {
    /// Which cleaner it is.
    fn kind(&self) -> CleanerKind;
    /// The name users pick it by (`--cleaner NAME`).
    fn name(&self) -> &'static str {
        self.kind().name()
    }
    /// Cleans one page.
    fn clean(&self, tree: &TagTree) -> Cleaned;
    /// The evidence behind each block's decision, for reports (`docview extract --format
    /// json`); none for a cleaner without per-block scores.
    fn explain(&self, _tree: &TagTree) -> Vec<BlockEvidence> {
        Vec::new()
    }
    /// A learner of this cleaner's model of a site, for a site-aware cleaner; `None` (the
    /// default) for a cleaner that judges each page alone.
    fn site_learner(&self) -> Option<Box<dyn SiteLearner>> {
        None
    }
    /// True for a site-aware cleaner whose method is its site models (without one it only
    /// hands pages to its fallback), false for one whose site models refine a method that
    /// works on each page alone (the learned cleaner's site evidence). Ingest refuses
    /// standard input, which it can read only once, for the first kind.
    fn needs_site_models(&self) -> bool {
        false
    }
    /// Cleans one page of a site with the site's model. A cleaner that judges each page alone
    /// ignores the model; a site-aware cleaner given none (the site had too few pages) cleans
    /// with its fallback, the default cleaner.
    fn clean_in_site(&self, tree: &TagTree, _site: Option<&SiteModel>) -> Cleaned {
        self.clean(tree)
    }
    /// True when [`Cleaner::clean_in_site`] cleans `tree` with `site`'s model; false when it
    /// hands the page to its fallback or judges it alone. By default, whenever there is a
    /// model; InfoDiscoverer hands a page like none of its site's page clusters to its
    /// fallback.
    fn uses_site_model(&self, _tree: &TagTree, site: Option<&SiteModel>) -> bool {
        site.is_some()
    }
    /// [`Cleaner::explain`] with the site's model.
    fn explain_in_site(&self, tree: &TagTree, _site: Option<&SiteModel>) -> Vec<BlockEvidence> {
        self.explain(tree)
    }
}

/// What a site-aware cleaner learnt from the pages of one site before cleaning any of them
/// (issue 13): one variant per site-aware cleaner.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum SiteModel {
    /// InfoDiscoverer's feature entropies and threshold, per page cluster.
    InfoDiscoverer(SiteClusters),
    /// What the site's pages repeat: the learned cleaner's site evidence.
    Repeats(SiteRepeats),
    /// WISDOM's term entropies and learnt pages' terms.
    Wisdom(SiteTerms),
}

/// Builds one site's [`SiteModel`] from its pages, one tag tree at a time, within the memory
/// the cleaner's parameters allow (a bounded sample of the site's pages).
pub trait SiteLearner: Send {
    /// Takes one page of the site.
    fn add(&mut self, tree: &TagTree);
    /// The model; `None` when the site had too few pages.
    fn finish(self: Box<Self>) -> Option<SiteModel>;
}

/// What a cleaner weighed to decide one block.
#[derive(Debug, Clone, PartialEq)]
pub struct BlockEvidence {
    /// The block.
    pub node: NodeId,
    /// Its score (for the learned cleaner: the model's probability of topic content).
    pub score: f32,
    /// Its features by name.
    pub features: Vec<(&'static str, f32)>,
}

/// The cleaner `kind`, with the shipped block model, balanced.
pub fn cleaner_of(kind: CleanerKind) -> crate::Result<Box<dyn Cleaner>> {
    cleaner_with_model(kind, None, Favor::Balanced)
}

/// The cleaner `kind`; the learned cleaner uses the model file `model` when given, else the
/// model shipped inside the binary, and decides as `favor` asks (so does the learned cleaner
/// that a site-aware cleaner falls back to). A model file with another cleaner is an error.
pub fn cleaner_with_model(
    kind: CleanerKind,
    model: Option<&std::path::Path>,
    favor: Favor,
) -> crate::Result<Box<dyn Cleaner>> {
    if let (Some(path), false) = (model, kind.uses_block_model()) {
        return Err(crate::Error::Model {
            source_name: path.display().to_string(),
            reason: format!(
                "a block model is for the learned cleaner, not {:?}",
                kind.name()
            ),
        });
    }
    let infodiscoverer = |blocks| -> crate::Result<Box<dyn Cleaner>> {
        Ok(Box::new(InfoDiscoverer::new(
            InfoDiscovererParams {
                blocks,
                ..InfoDiscovererParams::default()
            },
            Box::new(Learned::embedded()?.with_favor(favor)),
        )))
    };
    match kind {
        CleanerKind::Learned => Ok(Box::new(
            match model {
                Some(path) => Learned::with_model(std::sync::Arc::new(BlockModel::load(path)?)),
                None => Learned::embedded()?,
            }
            .with_favor(favor),
        )),
        CleanerKind::Framework => Ok(Box::new(Framework::default())),
        CleanerKind::Eem => Ok(Box::new(Eem)),
        CleanerKind::KeyPattern => Ok(Box::new(KeyPattern::default())),
        CleanerKind::InfoDiscoverer => infodiscoverer(BlockTags::Containers),
        CleanerKind::InfoDiscovererTable => infodiscoverer(BlockTags::Table),
        CleanerKind::Wisdom => Ok(Box::new(Wisdom::new(
            WisdomParams::default(),
            Box::new(Learned::embedded()?.with_favor(favor)),
        ))),
    }
}
