//! Block labels from references, the rows the learned cleaner trains on, and its training and
//! cross-validation grouped by site.
//!
//! A block's label is the share of its own tokens (the scorer's tokens) that the reference holds
//! *in context*: a token counts when the token pair it starts or ends is a pair of the
//! reference (a one-token block: when the reference holds the token). Pairs, not single words,
//! so that "the" or "news" in a menu is not taken for content because the article uses them.
//! A block is content (label 1) when at least half its tokens count.
//!
//! Cross-validation puts every page of one site in the same fold: the site is the ground
//! truth's `site` field when it has one, else the URL's host, else the host of the page's own
//! canonical link, each cut to its registered domain (`news.example.co.uk` → `example.co.uk`).
//!
//! Site evidence (what the other pages of a page's site repeat) needs no label: each set's
//! sites are learnt first, grouped as `docview eval` groups them ([`site_key`](super::site_key)),
//! and the rows of a page whose site has a model carry its evidence for the site stage. Since
//! a site never straddles two folds, a page's evidence comes from pages on its own side.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;

use rayon::prelude::*;
use rustc_hash::FxHashSet;

use super::{
    EvalReport, LabelledPage, PageScore, SiteModels, learn_site_models_with, run_eval_pages,
};
use crate::clean::{
    BlockFeatures, BlockModel, Cleaner, FEATURE_NAMES, Favor, Framework, Learned, Lexicon,
    N_CONTEXT, N_FEATURES, N_SITE, PageSignature, RepeatsLearner, SITE_MIN_PAGES as MIN_PAGES,
    SITE_NAMES, SITE_WIDTH, SiteLearner, SiteModel, Stage, TrainParams, block_features,
    context_rows, joined_rows, parents, site_rows,
};
use crate::extract::{PageLimits, parse_page};
use crate::input::read_page_bytes;
use crate::page::{Item, NodeId, TagTree};
use crate::text::for_each_token_span;
use crate::{Error, Result};

/// A block is labelled content when at least this share of its tokens is in the reference.
pub const CONTENT_SHARE: f32 = 0.5;

/// A block outside the page's joined top candidate (Readability's article element and the
/// siblings that join it) is labelled content only from this share of its tokens. A teaser,
/// a caption or a related story shares many words with the article it stands beside, so half
/// of its tokens are often in the reference without the block being in it; inside the
/// article's element half is enough. Cross-validated over the eight sets (issue 42), with the
/// copies rule and pages of items decided at 0.35: the mean 0.9332 -> 0.9393, precision up on
/// every set.
pub const OUTSIDE_CONTENT_SHARE: f32 = 0.75;

/// The labelled blocks of one page.
#[derive(Debug, Clone)]
pub struct PageBlocks {
    /// The set the page belongs to (its folder name).
    pub set: String,
    /// The page id.
    pub file_id: String,
    /// The page's site (registered domain), for grouping.
    pub site: String,
    /// The set's page type.
    pub page_type: String,
    /// The features of each text block.
    pub features: BlockFeatures,
    /// Share of each block's own tokens the reference holds in context.
    pub shares: Vec<f32>,
    /// Own terms of each block.
    pub terms: Vec<u32>,
    /// The parent of every node of the page's tree (for the context features).
    pub parents: Vec<Option<NodeId>>,
    /// The site evidence of each block ([`N_SITE`] values), when the page's site has a model;
    /// else empty.
    pub evidence: Vec<f32>,
}

/// Lowercased tokens of a text.
fn lower_tokens(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for_each_token_span(text, |s, e| out.push(text[s..e].to_lowercase()));
    out
}

/// The reference's tokens and token pairs.
struct Reference {
    tokens: FxHashSet<String>,
    pairs: FxHashSet<(String, String)>,
}

impl Reference {
    fn new(text: &str) -> Reference {
        let toks = lower_tokens(text);
        let pairs = toks
            .windows(2)
            .map(|w| (w[0].clone(), w[1].clone()))
            .collect();
        Reference {
            tokens: toks.into_iter().collect(),
            pairs,
        }
    }

    /// Share of `tokens` the reference holds in context.
    fn share(&self, tokens: &[String]) -> f32 {
        match tokens.len() {
            0 => 0.0,
            1 => {
                if self.tokens.contains(&tokens[0]) {
                    1.0
                } else {
                    0.0
                }
            }
            n => {
                let pair = |i: usize| {
                    self.pairs
                        .contains(&(tokens[i].clone(), tokens[i + 1].clone()))
                };
                let in_pair: Vec<bool> = (0..n - 1).map(pair).collect();
                let matched = (0..n)
                    .filter(|&i| (i > 0 && in_pair[i - 1]) || (i + 1 < n && in_pair[i]))
                    .count();
                matched as f32 / n as f32
            }
        }
    }
}

/// The own text of a block, its runs joined by spaces.
fn own_text(tree: &TagTree, id: NodeId) -> String {
    let mut text = String::new();
    for item in &tree.node(id).items {
        if let Item::Text { start, end, .. } = *item {
            text.push_str(tree.slice(start, end));
            text.push(' ');
        }
    }
    text
}

/// The label share of each block in `nodes` against the reference text.
pub fn block_shares(tree: &TagTree, nodes: &[NodeId], reference: &str) -> Vec<f32> {
    let reference = Reference::new(reference);
    nodes
        .iter()
        .map(|&id| reference.share(&lower_tokens(&own_text(tree, id))))
        .collect()
}

/// The registered domain of a host: the last two labels, or three under a two-letter country
/// code whose second level is generic (`co.uk`, `com.cn`).
pub fn registered_domain(host: &str) -> String {
    let host = host.trim().trim_end_matches('.').to_lowercase();
    let labels: Vec<&str> = host.split('.').filter(|l| !l.is_empty()).collect();
    let n = labels.len();
    if n <= 2 {
        return labels.join(".");
    }
    let generic = [
        "co", "com", "net", "org", "gov", "edu", "ac", "ne", "or", "go", "gob",
    ];
    let keep = if labels[n - 1].len() == 2 && generic.contains(&labels[n - 2]) {
        3
    } else {
        2
    };
    labels[n - keep..].join(".")
}

/// The host of a URL, if it has one.
fn url_host(url: &str) -> Option<String> {
    url::Url::parse(url.trim())
        .ok()?
        .host_str()
        .map(str::to_string)
}

/// The registered domain most of a page's absolute links point to (ties: the first in
/// alphabetical order).
fn main_link_domain(tree: &TagTree) -> Option<String> {
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for link in &tree.links {
        if let Some(host) = url_host(&link.href) {
            *counts.entry(registered_domain(&host)).or_insert(0) += 1;
        }
    }
    let mut best: Option<(String, usize)> = None;
    for (domain, n) in counts {
        if best.as_ref().is_none_or(|(_, b)| n > *b) {
            best = Some((domain, n));
        }
    }
    best.map(|(d, _)| d)
}

/// The site of a labelled page: its `site` field, its URL's host, its canonical link's host, or
/// the host most of its absolute links point to, as a registered domain; else `set/file_id` (a
/// site of its own).
pub fn page_site(page: &LabelledPage, set: &str, tree: &TagTree) -> String {
    let host = (!page.site.is_empty())
        .then(|| page.site.clone())
        .or_else(|| url_host(&page.url))
        .or_else(|| tree.canonical.as_deref().and_then(url_host))
        .or_else(|| main_link_domain(tree));
    match host {
        Some(h) if !h.is_empty() => registered_domain(&h),
        _ => format!("{set}/{}", page.file_id),
    }
}

/// The labelled blocks of one page of `set`, with the evidence of its site's model if any.
pub fn page_blocks(page: &LabelledPage, set: &str, site: Option<&SiteModel>) -> Result<PageBlocks> {
    let bytes = read_page_bytes(&page.html_path)?;
    let parsed = parse_page(&bytes, None, &page.file_id, &PageLimits::default())?;
    let tree = parsed.tree;
    let features = match Framework::default().analyse(&tree) {
        Some(analysis) => block_features(&tree, &analysis),
        None => BlockFeatures::default(),
    };
    let shares = block_shares(&tree, &features.nodes, &page.main_content);
    let site_evidence = match site {
        Some(SiteModel::Repeats(repeats)) => {
            repeats.rows(&PageSignature::of(&tree), &features.nodes)
        }
        _ => Vec::new(),
    };
    let terms = features
        .nodes
        .iter()
        .map(|&id| tree.node(id).own.terms)
        .collect();
    Ok(PageBlocks {
        set: set.to_string(),
        file_id: page.file_id.clone(),
        site: page_site(page, set, &tree),
        page_type: page.page_type.clone(),
        features,
        shares,
        terms,
        parents: parents(&tree),
        evidence: site_evidence,
    })
}

/// A learner of the learned cleaner's site evidence, whatever its model: for training, from
/// sites of [`MIN_PAGES`] pages on (the cleaner reads it from
/// [`READ_MIN_PAGES`](crate::clean::READ_MIN_PAGES)).
fn repeats_learner() -> Option<Box<dyn SiteLearner>> {
    Some(Box::new(RepeatsLearner::new(MIN_PAGES)))
}

/// The site evidence of every site of `set` with enough pages, grouped as `docview eval`
/// groups them ([`learn_site_models_with`]).
pub fn site_evidence(set: &LabelledSet, threads: usize) -> Result<SiteModels> {
    learn_site_models_with(&set.pages, &repeats_learner, threads)
}

/// A labelled set: its name and pages.
#[derive(Debug, Clone)]
pub struct LabelledSet {
    /// The set's name (its folder name).
    pub name: String,
    /// Its pages.
    pub pages: Vec<LabelledPage>,
}

/// The labelled blocks of every page of `sets`, in set then page order, with their sites'
/// evidence. Pages whose HTML cannot be parsed (empty, binary) have no blocks.
pub fn all_blocks(sets: &[LabelledSet], threads: usize) -> Result<Vec<PageBlocks>> {
    let pool = docview_collection::thread_pool(threads)?;
    let evidence: Vec<SiteModels> = sets
        .iter()
        .map(|set| site_evidence(set, threads))
        .collect::<Result<_>>()?;
    let jobs: Vec<(&LabelledSet, &SiteModels, &LabelledPage)> = sets
        .iter()
        .zip(&evidence)
        .flat_map(|(s, e)| s.pages.iter().map(move |p| (s, e, p)))
        .collect();
    pool.install(|| {
        jobs.par_iter()
            .map(
                |(set, evidence, page)| match page_blocks(page, &set.name, evidence.of(page)) {
                    Err(Error::Collection(
                        docview_collection::Error::Input(crate::input::Error::BadInput { .. })
                        | docview_collection::Error::Page(crate::extract::Error::NotAPage { .. }),
                    )) => Ok(PageBlocks {
                        set: set.name.clone(),
                        file_id: page.file_id.clone(),
                        site: format!("{}/{}", set.name, page.file_id),
                        page_type: page.page_type.clone(),
                        features: BlockFeatures::default(),
                        shares: Vec::new(),
                        terms: Vec::new(),
                        parents: Vec::new(),
                        evidence: Vec::new(),
                    }),
                    other => other,
                },
            )
            .collect()
    })
}

/// Writes the blocks as CSV (one row per block: set, page, site, page type, node, features,
/// own terms, label share and 0/1 label), a table pandas and polars read directly. The lexicon
/// features are learnt from the labels, so each page's come from a lexicon learnt on the sites
/// of the other inner folds (3, by site), as in training: the rows are the ones the first stage
/// trains on.
pub fn write_blocks_csv(blocks: &[PageBlocks], out: &mut dyn Write) -> std::io::Result<()> {
    let pages: Vec<&PageBlocks> = blocks.iter().collect();
    let rows = cross_fitted_rows(&pages, &site_folds(blocks, INNER_FOLDS));
    write!(out, "set,page_id,site,page_type,node")?;
    for name in FEATURE_NAMES.iter().chain(SITE_NAMES) {
        write!(out, ",{name}")?;
    }
    writeln!(out, ",terms,label_share,label")?;
    for (page, features) in blocks.iter().zip(&rows) {
        let labels = content_labels(page);
        for (k, &node) in features.nodes.iter().enumerate() {
            write!(
                out,
                "{},{},{},{},{node}",
                csv_field(&page.set),
                csv_field(&page.file_id),
                csv_field(&page.site),
                csv_field(&page.page_type)
            )?;
            for v in features.row(k) {
                write!(out, ",{v}")?;
            }
            match page.evidence.get(k * N_SITE..(k + 1) * N_SITE) {
                Some(site) => {
                    for v in site {
                        write!(out, ",{v}")?;
                    }
                }
                None => write!(out, "{}", ",".repeat(N_SITE))?,
            }
            let share = page.shares[k];
            writeln!(out, ",{},{share},{}", page.terms[k], u8::from(labels[k]))?;
        }
    }
    Ok(())
}

/// A CSV field, quoted when it holds a comma, a quote or a line break.
fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// The weight of a block in training: its share of its page's terms, so that each page weighs
/// the same, as in the macro-average the scorer takes over pages, and inside a page each block
/// weighs its terms, as the page's F1 counts every token. (Weights by terms alone, where long
/// pages outweigh short ones, scored 0.855 / 0.904 / 0.899 cross-validated on wcxb-dev /
/// dragnet-dev / zh-news-dev; by share of the page, 0.854 / 0.905 / 0.932.) Scaled so that a
/// page weighs 1,000: forust's leaf-weight floor is in the same units.
fn row_weight(terms: u32, page_terms: f64) -> f64 {
    1000.0 * f64::from(terms.max(1)) / page_terms.max(1.0)
}

/// Folds of the first stage's cross-fitting inside a training run.
const INNER_FOLDS: usize = 3;

/// The 0/1 label of each block of a page.
fn content_labels(page: &PageBlocks) -> Vec<bool> {
    page.shares
        .iter()
        .enumerate()
        .map(|(k, &share)| {
            share
                >= if page.features.in_joined_top_candidate(k) {
                    CONTENT_SHARE
                } else {
                    OUTSIDE_CONTENT_SHARE
                }
        })
        .collect()
}

/// A lexicon learnt from `pages`.
fn train_lexicon(pages: &[&PageBlocks]) -> Lexicon {
    Lexicon::train(pages.iter().map(|p| (&p.features, content_labels(p))))
}

/// The feature rows of `pages` with their lexicon features filled from a lexicon that did not
/// see the page's site: for each fold of `folds` (sites to folds), one learnt on the others.
fn cross_fitted_rows(pages: &[&PageBlocks], folds: &BTreeMap<String, usize>) -> Vec<BlockFeatures> {
    let n_folds = folds.values().max().map_or(0, |&f| f + 1);
    let mut rows: Vec<BlockFeatures> = pages.iter().map(|p| p.features.clone()).collect();
    for fold in 0..n_folds {
        let others: Vec<&PageBlocks> = pages
            .iter()
            .filter(|p| folds[&p.site] != fold)
            .copied()
            .collect();
        let lexicon = train_lexicon(&others);
        for (p, r) in pages.iter().zip(rows.iter_mut()) {
            if folds[&p.site] == fold {
                lexicon.fill(r);
            }
        }
    }
    rows
}

/// Rows, 0/1 labels and weights of the blocks of `pages`, each with its feature rows.
fn stage1_data(pages: &[(&PageBlocks, &BlockFeatures)]) -> (Vec<f32>, Vec<f64>, Vec<f64>) {
    let rows: usize = pages.iter().map(|(_, f)| f.len()).sum();
    let mut values = Vec::with_capacity(rows * N_FEATURES);
    let mut labels = Vec::with_capacity(rows);
    let mut weights = Vec::with_capacity(rows);
    for (page, features) in pages {
        values.extend_from_slice(&features.values);
        labels.extend(content_labels(page).into_iter().map(f64::from));
        let total: f64 = page.terms.iter().map(|&t| f64::from(t.max(1))).sum();
        weights.extend(page.terms.iter().map(|&t| row_weight(t, total)));
    }
    (values, labels, weights)
}

/// Trains a block model on the blocks of `pages` (in any order: they are sorted by set and
/// page id first, so the same pages give the same model).
///
/// Two things a model learns from the pages feed the rows of later steps: the lexicon (the
/// lexicon features of every row) and the first stage (the context scores of the second).
/// Rows of pages those were learnt from would be overconfident, so both are cross-fitted: the
/// pages are split by site into 3 inner folds, and each fold's lexicon features come
/// from a lexicon learnt on the other folds, its first-stage scores from a first stage trained
/// on the other folds. The shipped lexicon and first stage are learnt from all pages.
pub fn train_model(pages: &[&PageBlocks], params: &TrainParams) -> Result<BlockModel> {
    // Rows in one order whatever the order of the sets given: sums of gradients depend on it.
    let mut pages = pages.to_vec();
    pages.sort_by(|a, b| (&a.set, &a.file_id).cmp(&(&b.set, &b.file_id)));
    let pages = &pages[..];
    let inner = site_folds(pages.iter().copied(), INNER_FOLDS);
    let fold_of = |p: &PageBlocks| inner[&p.site];
    // Each page with its rows: as labelled, or with the lexicon features filled in.
    let filled = params.lexicon.then(|| cross_fitted_rows(pages, &inner));
    let with_rows: Vec<(&PageBlocks, &BlockFeatures)> = match &filled {
        Some(rows) => pages.iter().copied().zip(rows).collect(),
        None => pages.iter().map(|p| (*p, &p.features)).collect(),
    };
    let mut first: Vec<Option<Vec<f32>>> = vec![None; pages.len()];
    for fold in 0..INNER_FOLDS {
        let train: Vec<(&PageBlocks, &BlockFeatures)> = with_rows
            .iter()
            .filter(|(p, _)| fold_of(p) != fold)
            .copied()
            .collect();
        let (values, labels, weights) = stage1_data(&train);
        if labels.is_empty() {
            continue;
        }
        let stage = Stage::train(&values, N_FEATURES, &labels, &weights, params)?;
        for (i, (p, r)) in with_rows.iter().enumerate() {
            if fold_of(p) == fold {
                first[i] = Some(stage.scores(&r.values));
            }
        }
    }
    let (values, labels, weights) = stage1_data(&with_rows);
    let stage1 = Stage::train(&values, N_FEATURES, &labels, &weights, params)?;
    drop(values);
    // With `site_evidence`, a site stage reads the second stage's rows and the site evidence.
    // It is trained on every page (the evidence missing where a page's site has no model) and
    // used only where a site has one. (A first stage of its own as well, whose scores would
    // carry the evidence into the context rows, scored wcxb-dev 0.8547 against 0.8562 and
    // dragnet-dev 0.9162 against 0.9155 cross-validated, measured before the site stage could
    // only lower scores.)
    let any_site = params.site_evidence && pages.iter().any(|p| !p.evidence.is_empty());
    let mut joined = Vec::with_capacity(labels.len() * (N_FEATURES + N_CONTEXT));
    let mut with_site = Vec::new();
    let mut missing: Vec<f32> = Vec::new();
    for (i, (p, r)) in with_rows.iter().enumerate() {
        let scores = match first[i].take() {
            Some(s) => s,
            None => stage1.scores(&r.values),
        };
        let context = context_rows(&p.parents, r, &p.terms, &scores);
        let rows = joined_rows(r, &context);
        if any_site {
            let evidence = if p.evidence.len() == r.len() * N_SITE {
                &p.evidence[..]
            } else {
                missing.resize(r.len() * N_SITE, f32::NAN);
                &missing[..]
            };
            with_site.extend(site_rows(&rows, N_FEATURES + N_CONTEXT, evidence));
        }
        joined.extend(rows);
    }
    let stage2 = Stage::train(&joined, N_FEATURES + N_CONTEXT, &labels, &weights, params)?;
    drop(joined);
    let site_stage = if any_site {
        Some(Stage::train(
            &with_site, SITE_WIDTH, &labels, &weights, params,
        )?)
    } else {
        None
    };
    let lexicon = if params.lexicon {
        train_lexicon(pages)
    } else {
        Lexicon::default()
    };
    let mut sets: BTreeMap<&str, usize> = BTreeMap::new();
    for page in pages {
        *sets.entry(&page.set).or_insert(0) += 1;
    }
    let site = if site_stage.is_some() {
        format!(
            ", a site stage ({} pages with site evidence)",
            pages.iter().filter(|p| !p.evidence.is_empty()).count()
        )
    } else {
        String::new()
    };
    let trained_on = format!(
        "{} pages ({}), {} blocks, {} lexicon words and pairs{site}",
        pages.len(),
        sets.iter()
            .map(|(s, n)| format!("{s}: {n}"))
            .collect::<Vec<_>>()
            .join(", "),
        labels.len(),
        lexicon.len()
    );
    Ok(BlockModel::from_stages(
        stage1, stage2, site_stage, lexicon, params, trained_on,
    )?)
}

/// Writes `model` to `path` as JSON, gzip-compressed when the name ends in `.gz` (the shipped
/// model's form; [`BlockModel::load`] reads both), atomically.
pub fn write_model(model: &BlockModel, path: &Path) -> Result<()> {
    let json = model.to_json()?;
    let gz = path.extension().is_some_and(|e| e == "gz");
    crate::output::write_atomically(path, |out| {
        if gz {
            let mut enc = flate2::write::GzEncoder::new(out, flate2::Compression::best());
            enc.write_all(&json)?;
            enc.finish()?;
            Ok(())
        } else {
            out.write_all(&json)
        }
    })?;
    Ok(())
}

/// The fold of each site: sites sorted by page count (largest first, then by name), each put in
/// the fold with the fewest pages so far. Deterministic, balanced, and no site in two folds.
pub fn site_folds<'a>(
    pages: impl IntoIterator<Item = &'a PageBlocks>,
    folds: usize,
) -> BTreeMap<String, usize> {
    site_folds_of(pages.into_iter().map(|b| b.site.as_str()), folds)
}

/// [`site_folds`] of pages given by their sites (one item a page).
pub fn site_folds_of<'a>(
    sites: impl IntoIterator<Item = &'a str>,
    folds: usize,
) -> BTreeMap<String, usize> {
    let mut pages_per_site: BTreeMap<&str, usize> = BTreeMap::new();
    for site in sites {
        *pages_per_site.entry(site).or_insert(0) += 1;
    }
    let mut sites: Vec<(&str, usize)> = pages_per_site.into_iter().collect();
    sites.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(b.0)));
    let mut load = vec![0usize; folds.max(1)];
    let mut out = BTreeMap::new();
    for (site, n) in sites {
        let fold = (0..load.len()).min_by_key(|&f| (load[f], f)).unwrap_or(0);
        load[fold] += n;
        out.insert(site.to_string(), fold);
    }
    out
}

/// The result of a cross-validation: one report per set, each page scored by the model of the
/// fold that did not train on its site.
#[derive(Debug)]
pub struct CrossValidation {
    /// One report per set, in the order of the sets given.
    pub reports: Vec<EvalReport>,
    /// Sites per fold.
    pub fold_sites: Vec<usize>,
    /// Pages per fold.
    pub fold_pages: Vec<usize>,
}

/// How each fold's model cleans its pages in a [`cross_validate`].
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct FoldCleaning {
    /// With a model that has a site stage (`TrainParams::site_evidence`): the pages are
    /// cleaned with their sites' evidence, else each alone (the models' first and second
    /// stages are the same either way).
    pub site_evidence: bool,
    /// What the cleaner favours (`--favor`).
    pub favor: Favor,
}

/// Site-grouped k-fold cross-validation of the learned cleaner over `sets` together: for each
/// fold, a model trained on the other folds' pages cleans this fold's pages, as `cleaning`
/// says.
pub fn cross_validate(
    sets: &[LabelledSet],
    blocks: &[PageBlocks],
    folds: usize,
    params: &TrainParams,
    threads: usize,
    cleaning: FoldCleaning,
    mut progress: impl FnMut(&str),
) -> Result<CrossValidation> {
    let FoldCleaning {
        site_evidence: site_evidence_on,
        favor,
    } = cleaning;
    let fold_of = site_folds(blocks, folds);
    let page_fold: BTreeMap<(&str, &str), usize> = blocks
        .iter()
        .map(|b| ((b.set.as_str(), b.file_id.as_str()), fold_of[&b.site]))
        .collect();
    let evidence: Vec<SiteModels> = sets
        .iter()
        .map(|set| {
            if site_evidence_on && params.site_evidence {
                site_evidence(set, threads)
            } else {
                learn_site_models_with(&set.pages, &|| None, threads)
            }
        })
        .collect::<Result<_>>()?;
    let mut scores: Vec<Vec<PageScore>> = vec![Vec::new(); sets.len()];
    let mut wall = vec![0.0f64; sets.len()];
    let mut fold_sites = vec![0usize; folds];
    for f in fold_of.values() {
        fold_sites[*f] += 1;
    }
    let mut fold_pages = vec![0usize; folds];
    for f in page_fold.values() {
        fold_pages[*f] += 1;
    }
    for (fold, &fold_size) in fold_pages.iter().enumerate() {
        let train: Vec<&PageBlocks> = blocks.iter().filter(|b| fold_of[&b.site] != fold).collect();
        progress(&format!(
            "fold {}/{folds}: training on {} pages, scoring {}",
            fold + 1,
            train.len(),
            fold_size
        ));
        let model = train_model(&train, params)?;
        let cleaner = Learned::with_model(std::sync::Arc::new(model)).with_favor(favor);
        for (s, set) in sets.iter().enumerate() {
            let pages: Vec<LabelledPage> = set
                .pages
                .iter()
                .filter(|p| page_fold.get(&(set.name.as_str(), p.file_id.as_str())) == Some(&fold))
                .cloned()
                .collect();
            if pages.is_empty() {
                continue;
            }
            let report = run_eval_pages(
                &pages,
                |page, bytes| {
                    let parsed = parse_page(bytes, None, "page", &PageLimits::default())?;
                    Ok(cleaner
                        .clean_in_site(&parsed.tree, evidence[s].of(page))
                        .topic_text)
                },
                threads,
                false,
            )?;
            wall[s] += report.wall_secs;
            scores[s].extend(report.pages);
        }
    }
    let reports = sets
        .iter()
        .zip(scores)
        .zip(wall)
        .map(|((set, mut pages), wall)| {
            pages.sort_by(|a, b| a.file_id.cmp(&b.file_id));
            EvalReport::from_pages(set.name.clone(), pages, wall)
        })
        .collect();
    Ok(CrossValidation {
        reports,
        fold_sites,
        fold_pages,
    })
}

/// Loads each set folder as a [`LabelledSet`] named by its folder name.
pub fn load_sets(dirs: &[impl AsRef<Path>]) -> Result<Vec<LabelledSet>> {
    dirs.iter()
        .map(|d| {
            let pages = super::load_set(d.as_ref())?;
            Ok(LabelledSet {
                name: super::report::set_name(&pages),
                pages,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::page::build;

    #[test]
    fn blocks_are_labelled_by_the_reference_in_context() {
        let html = "<html><head><title>Tides</title></head><body>\
            <nav><a href=/>Home</a> <a href=/news>News</a> <a href=/about>About the tides</a></nav>\
            <div id=main><h1>Tides of the bay</h1>\
            <p>Twice a day the sea withdraws from the bay and leaves pools among the rocks.</p>\
            <p>Read more news about the tides</p></div>\
            <footer>Copyright 2024 the bay desk</footer></body></html>";
        let reference = "Tides of the bay\n\nTwice a day the sea withdraws from the bay and \
            leaves pools among the rocks.";
        let tree = build(html);
        let analysis = Framework::default().analyse(&tree).unwrap();
        let f = block_features(&tree, &analysis);
        let shares = block_shares(&tree, &f.nodes, reference);
        let by_label: Vec<(&str, f32)> = f
            .nodes
            .iter()
            .zip(&shares)
            .map(|(&id, &s)| (&*tree.node(id).label, s))
            .collect();
        assert_eq!(by_label.len(), 5, "{by_label:?}");
        // The menu's words "the" and "tides" are in the reference, but none of its pairs is.
        assert_eq!(by_label[0], ("nav", 0.0));
        assert_eq!(by_label[1], ("div#main", 1.0));
        assert_eq!(by_label[2], ("p", 1.0));
        // "Read more news about the tides": no pair of it is a pair of the reference.
        assert_eq!(by_label[3], ("p", 0.0));
        // "the bay" is a pair of the reference: 2 of the footer's 5 tokens count.
        assert_eq!(by_label[4], ("footer", 0.4));
    }

    #[test]
    fn one_token_blocks_count_when_the_reference_has_the_token() {
        let reference = Reference::new("Harbour news today");
        assert_eq!(reference.share(&["news".to_string()]), 1.0);
        assert_eq!(reference.share(&["menu".to_string()]), 0.0);
        assert_eq!(reference.share(&[]), 0.0);
    }

    #[test]
    fn registered_domains() {
        assert_eq!(registered_domain("www.example.com"), "example.com");
        assert_eq!(registered_domain("news.bbc.co.uk"), "bbc.co.uk");
        assert_eq!(registered_domain("finance.sina.com.cn"), "sina.com.cn");
        assert_eq!(registered_domain("Example.ORG."), "example.org");
        assert_eq!(registered_domain("localhost"), "localhost");
    }

    fn page(set: &str, id: &str, site: &str) -> PageBlocks {
        PageBlocks {
            set: set.into(),
            file_id: id.into(),
            site: site.into(),
            page_type: "article".into(),
            features: BlockFeatures::default(),
            shares: Vec::new(),
            terms: Vec::new(),
            parents: Vec::new(),
            evidence: Vec::new(),
        }
    }

    #[test]
    fn folds_never_split_a_site() {
        let mut pages = Vec::new();
        for s in 0..23 {
            for p in 0..(1 + s % 7) {
                pages.push(page("a", &format!("{s}-{p}"), &format!("site{s}.com")));
            }
        }
        let folds = site_folds(&pages, 5);
        assert_eq!(folds.len(), 23);
        // Every page of a site is in its site's one fold, and every fold has pages.
        let mut per_fold = [0usize; 5];
        for p in &pages {
            per_fold[folds[&p.site]] += 1;
        }
        assert!(per_fold.iter().all(|&n| n > 0), "{per_fold:?}");
        let (min, max) = (
            per_fold.iter().min().unwrap(),
            per_fold.iter().max().unwrap(),
        );
        assert!(max - min <= 7, "unbalanced folds {per_fold:?}");
        // Deterministic: the same pages in another order give the same folds.
        let mut reversed = pages.clone();
        reversed.reverse();
        assert_eq!(site_folds(&reversed, 5), folds);
    }
}
