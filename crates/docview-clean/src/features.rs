//! Block features for the learned cleaner: one row of numbers per text block of the tag tree,
//! computed in one walk of the tree per page.
//!
//! The rows hold the paper's quantities (block weight of Algorithm 1, the block's cosine to the
//! page's Formula 2 vector, the block type by anchor-term and image ratios, membership of the
//! framework's central areas and its decision) beside structure: depth, position in the page,
//! text length, punctuation and sentence density, link density of the block, its parent, its
//! grandparent and its neighbours, tag names, class / id / ARIA hint words, repeated sibling
//! items of the same shape, the distance to the block that repeats the page's `<title>`, and
//! the share of its words in the page's JSON-LD `articleBody`; and the article evidence of
//! [`candidates`](super::candidates) (Readability's candidate scores, whether the block lies
//! in the top candidate or a sibling that joined it, how far from it, and where it stands
//! against the article's first and last dense paragraph). Chinese pages get the same
//! features: terms are the scorer's tokens, one per ideograph.
//!
//! The last four features of a row are the block's [lexicon](super::lexicon) features: they
//! depend on what a model learnt, so they are 0 here and the model fills them before it scores
//! (from the token hashes each row carries).
//!
//! A *text block* is a visible node with terms of its own; only text blocks get a row, since
//! only their text reaches the topic content.

use std::hash::Hasher;

use rustc_hash::{FxHashMap, FxHashSet, FxHasher};

use super::candidates::{Paragraph, article_evidence, paragraph_score};
use super::framework::Analysis;
use docview_page::{Hint, Item, NodeId, PageType, TagTree};
use docview_text::for_each_token_span;

/// Names of the features, in row order. A model file lists the names it was trained on, so a
/// model of other features is refused instead of misread.
pub const FEATURE_NAMES: &[&str] = &[
    "own_terms_log",
    "own_anchor_ratio",
    "own_links_log",
    "own_images",
    "own_heading_share",
    "own_weighty_share",
    "punct_per_term",
    "sentence_ends_per_term",
    "sentence_ends_log",
    "mean_token_chars",
    "digit_token_share",
    "capitalised_share",
    "copyright_mark",
    "own_page_share",
    "sub_terms_log",
    "sub_anchor_ratio",
    "sub_links_log",
    "sub_images_log",
    "sub_page_share",
    "children_log",
    "depth",
    "position",
    "tag",
    "parent_tag",
    "hint",
    "ancestor_boilerplate_hint",
    "ancestor_content_hint",
    "in_article_or_main",
    "in_nav_aside_footer_header",
    "parent_anchor_ratio",
    "parent_page_share",
    "grandparent_anchor_ratio",
    "grandparent_page_share",
    "siblings_log",
    "same_shape_siblings_log",
    "same_shape_share",
    "block_weight",
    "page_cosine",
    "block_type",
    "in_text_area",
    "in_link_area",
    "framework_kept",
    "framework_page_type",
    "framework_noise",
    "title_overlap",
    "title_distance",
    "after_title",
    "json_ld_overlap",
    "prev_terms_log",
    "prev_anchor_ratio",
    "next_terms_log",
    "next_anchor_ratio",
    "page_terms_log",
    "page_anchor_ratio",
    "page_nodes_log",
    "cjk_share",
    "hint_family",
    "ancestor_hint_family",
    "comment_ancestor",
    "ancestor_repeat_log",
    // Article evidence (`candidates.rs`): Readability's candidate scores and the dense span.
    "paragraph_score_log",
    "in_top_candidate",
    "joined_top_candidate",
    "parent_candidate_ratio",
    "best_ancestor_candidate_ratio",
    "top_candidate_distance",
    "top_candidate_share",
    "dense_position",
    "before_dense_share",
    "after_dense_share",
    // Filled by the model's lexicon (`lexicon.rs`), 0 until then.
    "lexicon_word_mean",
    "lexicon_pair_mean",
    "lexicon_word_known",
    "lexicon_pair_known",
];

/// Number of features per row.
pub const N_FEATURES: usize = FEATURE_NAMES.len();

/// The feature rows of one page: one per text block, in document order.
#[derive(Debug, Clone, Default)]
pub struct BlockFeatures {
    /// The text block of each row.
    pub nodes: Vec<NodeId>,
    /// The rows, row after row, [`N_FEATURES`] values each.
    pub values: Vec<f32>,
    /// The hashes of the blocks' tokens (the scorer's tokens, ASCII lowercased; one per CJK
    /// ideograph), block after block, for the [lexicon](crate::Lexicon).
    pub token_hashes: Vec<u32>,
    /// Where each block's tokens end in `token_hashes`.
    pub token_ends: Vec<u32>,
    /// The block that repeats the page's `<title>` (its headline), if any.
    pub title_block: Option<NodeId>,
}

impl BlockFeatures {
    /// Number of rows.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// True when the page has no text block.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The features of row `i`.
    pub fn row(&self, i: usize) -> &[f32] {
        &self.values[i * N_FEATURES..(i + 1) * N_FEATURES]
    }

    /// The token hashes of row `i`'s block.
    pub fn tokens(&self, i: usize) -> &[u32] {
        let start = if i == 0 { 0 } else { self.token_ends[i - 1] };
        &self.token_hashes[start as usize..self.token_ends[i] as usize]
    }

    /// True when row `i`'s block lies in the page's joined top candidate (Readability's
    /// article element and the siblings that join it, as `candidates.rs` scores them).
    pub fn in_joined_top_candidate(&self, i: usize) -> bool {
        self.row(i)[JOINED_TOP_CANDIDATE] > 0.5
    }

    /// True when row `i`'s block comes before the block that repeats the page's `<title>` (its
    /// headline); false after it or on a page where no block repeats it.
    pub fn before_title(&self, i: usize) -> bool {
        self.row(i)[AFTER_TITLE] == 0.0
    }

    /// True when row `i`'s block is mostly heading text.
    pub fn is_heading(&self, i: usize) -> bool {
        self.row(i)[OWN_HEADING_SHARE] >= 0.5
    }
}

/// The column of `joined_top_candidate` in [`FEATURE_NAMES`].
const JOINED_TOP_CANDIDATE: usize = 62;
/// The column of `after_title` in [`FEATURE_NAMES`].
const AFTER_TITLE: usize = 46;
/// The column of `own_heading_share` in [`FEATURE_NAMES`].
const OWN_HEADING_SHARE: usize = 4;

/// Container tags with a code of their own; any other tag is code 0.
const TAGS: &[&str] = &[
    "body",
    "div",
    "p",
    "td",
    "th",
    "tr",
    "table",
    "li",
    "ul",
    "ol",
    "dl",
    "dd",
    "section",
    "article",
    "main",
    "aside",
    "nav",
    "header",
    "footer",
    "form",
    "blockquote",
    "pre",
    "figure",
    "details",
    "address",
    "center",
    "caption",
    "menu",
    "hgroup",
    "fieldset",
    "search",
    "html",
];

/// The code of a container tag (1-based position in [`TAGS`], 0 for others).
fn tag_code(tag: &str) -> f32 {
    TAGS.iter()
        .position(|t| *t == tag)
        .map_or(0.0, |i| (i + 1) as f32)
}

/// The family of a hint word: 0 none, 1 navigation, 2 footer, 3 sidebar, 4 comments, 5 sharing,
/// 6 related links, 7 advertising, 8 subscription, 9 header, 10 other boilerplate, 11 content.
fn hint_family(hint: Hint) -> f32 {
    match hint {
        Hint::None => 0.0,
        Hint::Content(_) => 11.0,
        Hint::Boilerplate(word) => match word {
            "nav" | "navbar" | "navigation" | "menu" | "menubar" | "submenu" | "megamenu"
            | "breadcrumb" | "breadcrumbs" | "pagination" | "pager" | "skip" | "toolbar" => 1.0,
            "footer" | "contentinfo" | "copyright" => 2.0,
            "sidebar" | "aside" | "complementary" | "widget" | "widgets" => 3.0,
            "comments" | "comment" | "disqus" | "respond" | "reply" | "replies" => 4.0,
            "share" | "sharing" | "social" => 5.0,
            "related" | "recommended" | "recommendations" | "outbrain" | "taboola" | "trending"
            | "popular" => 6.0,
            "advert" | "advertisement" | "ads" | "ad" | "adsense" | "sponsor" | "sponsored"
            | "promo" => 7.0,
            "newsletter" | "subscribe" | "subscription" | "signup" | "login" => 8.0,
            "banner" | "masthead" | "header" => 9.0,
            _ => 10.0,
        },
    }
}

/// A block of at least this many own terms and [`PROSE_BLOCK_SENTENCES`] sentence ends is a
/// paragraph of prose: for the learned cleaner's prose page (`learned.rs`) and the article's
/// dense paragraphs (`candidates.rs`).
pub(crate) const PROSE_BLOCK_TERMS: u32 = 30;

/// See [`PROSE_BLOCK_TERMS`]. Two, so that a listing's one-sentence teaser is no paragraph of
/// prose, in Chinese above all, where each ideograph is a term.
pub(crate) const PROSE_BLOCK_SENTENCES: u32 = 2;

/// The elements of a page's chrome, around its content: navigation, sidebars, header and
/// footer.
pub(crate) fn is_chrome_tag(tag: &str) -> bool {
    matches!(tag, "nav" | "aside" | "footer" | "header")
}

/// True for the characters that end a sentence, in the scripts of the labelled sets.
pub(crate) fn is_sentence_end(c: char) -> bool {
    matches!(c, '.' | '!' | '?' | '。' | '！' | '？')
}

/// What the own text of one block holds, beyond the tree's counts.
#[derive(Debug, Clone, Copy, Default)]
struct TextStats {
    tokens: u32,
    heading: u32,
    weighty: u32,
    punct: u32,
    sentence_ends: u32,
    token_chars: u32,
    digit_tokens: u32,
    capitalised: u32,
    cjk: u32,
    copyright: bool,
    title_tokens: u32,
    json_ld_tokens: u32,
    chars: u32,
    commas: u32,
}

/// A token hash that ignores ASCII case, for the Formula 2 vectors, the title match and the
/// [site evidence](super::site_evidence).
pub(crate) fn token_hash(token: &str) -> u64 {
    let mut h = FxHasher::default();
    for b in token.bytes() {
        h.write_u8(b.to_ascii_lowercase());
    }
    h.finish()
}

/// The token hashes of a text, as a set.
fn token_set(text: &str) -> FxHashSet<u64> {
    let mut set = FxHashSet::default();
    for_each_token_span(text, |s, e| {
        set.insert(token_hash(&text[s..e]));
    });
    set
}

fn ratio(a: u32, b: u32) -> f32 {
    if b == 0 { 0.0 } else { a as f32 / b as f32 }
}

fn ln1p(x: u32) -> f32 {
    (x as f32).ln_1p()
}

/// Computes the feature rows of every text block of `tree`, given the framework's analysis of
/// the same tree.
pub fn block_features(tree: &TagTree, analysis: &Analysis) -> BlockFeatures {
    let n = tree.nodes.len();
    let mut out = BlockFeatures::default();
    let Some(root) = tree.root() else {
        return out;
    };
    let page = tree.node(root).subtree;
    let page_terms = page.terms.max(1);

    // Visibility, ancestry flags and the subtrees of the framework's areas, top down.
    let mut visible = vec![true; n];
    let mut anc_boiler = vec![false; n];
    let mut anc_content = vec![false; n];
    let mut in_article = vec![false; n];
    let mut in_chrome = vec![false; n];
    let mut in_text_area = vec![false; n];
    let mut in_link_area = vec![false; n];
    let mut anc_family = vec![0f32; n];
    let mut comment = vec![false; n];
    for (i, node) in tree.nodes.iter().enumerate() {
        if let Some(p) = node.parent {
            let p = p as usize;
            let pf = hint_family(tree.nodes[p].hint);
            anc_family[i] = if pf > 0.0 { pf } else { anc_family[p] };
            comment[i] = comment[p];
        }
        if hint_family(node.hint) == 4.0 {
            comment[i] = true;
        }
        let (vis, ab, ac, ar, ch, ta, la) = match node.parent {
            Some(p) => {
                let p = p as usize;
                let pn = &tree.nodes[p];
                (
                    visible[p],
                    anc_boiler[p] || pn.hint.is_boilerplate(),
                    anc_content[p] || pn.hint.is_content(),
                    in_article[p] || matches!(&*pn.tag, "article" | "main"),
                    in_chrome[p] || is_chrome_tag(&pn.tag),
                    in_text_area[p],
                    in_link_area[p],
                )
            }
            None => (true, false, false, false, false, false, false),
        };
        visible[i] = vis && !node.hidden;
        anc_boiler[i] = ab;
        anc_content[i] = ac;
        in_article[i] = ar;
        in_chrome[i] = ch;
        in_text_area[i] = ta || i == analysis.text_area as usize;
        in_link_area[i] = la || i == analysis.link_area as usize;
    }

    // The own text of each block: statistics, and token hashes for the Formula 2 vectors.
    let title = token_set(&tree.title);
    let json_ld = tree.json_ld_body.as_deref().map(token_set);
    let mut stats = vec![TextStats::default(); n];
    let mut hashes: Vec<u64> = Vec::new();
    let mut spans: Vec<(u32, u32)> = vec![(0, 0); n];
    let mut page_vector: FxHashMap<u64, f32> = FxHashMap::default();
    for (i, node) in tree.nodes.iter().enumerate() {
        let from = hashes.len() as u32;
        if visible[i] && node.own.terms > 0 {
            let st = &mut stats[i];
            for item in &node.items {
                let Item::Text { start, end, style } = *item else {
                    continue;
                };
                let text = tree.slice(start, end);
                for c in text.chars() {
                    st.chars += 1;
                    match c {
                        c if is_sentence_end(c) => {
                            st.punct += 1;
                            st.sentence_ends += 1;
                        }
                        ',' | '，' | '、' => {
                            st.punct += 1;
                            st.commas += 1;
                        }
                        ';' | ':' | '；' | '：' => st.punct += 1,
                        '©' => st.copyright = true,
                        _ => {}
                    }
                }
                for_each_token_span(text, |s, e| {
                    let tok = &text[s..e];
                    st.tokens += 1;
                    if style.heading > 0 {
                        st.heading += 1;
                    }
                    if style.weighty {
                        st.weighty += 1;
                    }
                    let first = tok.chars().next().unwrap_or(' ');
                    if docview_text::is_cjk(first) {
                        st.cjk += 1;
                    }
                    st.token_chars += tok.chars().count() as u32;
                    if tok.bytes().all(|b| b.is_ascii_digit()) {
                        st.digit_tokens += 1;
                    }
                    if first.is_uppercase() {
                        st.capitalised += 1;
                    }
                    if tok.eq_ignore_ascii_case("copyright") {
                        st.copyright = true;
                    }
                    let h = token_hash(tok);
                    if title.contains(&h) {
                        st.title_tokens += 1;
                    }
                    if json_ld.as_ref().is_some_and(|j| j.contains(&h)) {
                        st.json_ld_tokens += 1;
                    }
                    hashes.push(h);
                });
            }
            let w = analysis.weights[i];
            for &h in &hashes[from as usize..] {
                *page_vector.entry(h).or_insert(0.0) += w;
            }
        }
        spans[i] = (from, hashes.len() as u32);
    }
    let page_norm = page_vector.values().map(|v| v * v).sum::<f32>().sqrt();

    // Terms before each block in document order, and the block that repeats the title.
    let mut before = vec![0u32; n];
    let mut running = 0u32;
    let mut title_block: Option<usize> = None;
    for (i, node) in tree.nodes.iter().enumerate() {
        before[i] = running;
        if visible[i] {
            running += node.own.terms;
            let st = &stats[i];
            if title_block.is_none()
                && st.tokens >= 2
                && st.heading * 2 >= st.tokens
                && st.title_tokens * 2 >= st.tokens
            {
                title_block = Some(i);
            }
        }
    }
    if title_block.is_none() {
        title_block = tree
            .nodes
            .iter()
            .enumerate()
            .find(|(i, node)| {
                visible[*i]
                    && node.own.terms > 0
                    && node
                        .items
                        .iter()
                        .any(|it| matches!(it, Item::Text { style, .. } if style.heading == 1))
            })
            .map(|(i, _)| i);
    }
    out.title_block = title_block.map(|t| t as NodeId);

    // Readability's candidates over the tree, and the article's dense span.
    let paragraphs: Vec<Paragraph> = stats
        .iter()
        .map(|st| Paragraph {
            chars: st.chars,
            commas: st.commas,
            sentence_ends: st.sentence_ends,
        })
        .collect();
    let article = article_evidence(tree, &visible, &paragraphs, &before);
    let candidate_ratio = |id: usize| {
        if article.top_score > 0.0 {
            article.score[id] / article.top_score
        } else {
            0.0
        }
    };

    // Siblings of the same shape (label) as each node, counted per parent in one pass.
    let mut same_shape = vec![0usize; n];
    let mut by_label: FxHashMap<&str, usize> = FxHashMap::default();
    for node in &tree.nodes {
        if node.children.len() < 2 {
            continue;
        }
        by_label.clear();
        for &c in &node.children {
            *by_label.entry(&tree.node(c).label).or_insert(0) += 1;
        }
        for &c in &node.children {
            same_shape[c as usize] = by_label[&*tree.node(c).label] - 1;
        }
    }

    // Text blocks in document order, for the neighbours' features.
    let text_blocks: Vec<usize> = (0..n)
        .filter(|&i| visible[i] && tree.nodes[i].own.terms > 0)
        .collect();
    let mut block_counts: FxHashMap<u64, f32> = FxHashMap::default();
    let cjk_total: u32 = text_blocks.iter().map(|&i| stats[i].cjk).sum();
    let token_total: u32 = text_blocks.iter().map(|&i| stats[i].tokens).sum();
    let page_features = [
        ln1p(page.terms),
        page.anchor_ratio(),
        ln1p(n as u32),
        ratio(cjk_total, token_total),
    ];

    out.nodes.reserve(text_blocks.len());
    out.values.reserve(text_blocks.len() * N_FEATURES);
    for (k, &i) in text_blocks.iter().enumerate() {
        let node = &tree.nodes[i];
        let st = &stats[i];
        let own = node.own;
        let sub = node.subtree;
        let parent = node.parent.map(|p| &tree.nodes[p as usize]);
        let grandparent = parent
            .and_then(|p| p.parent)
            .map(|g| &tree.nodes[g as usize]);
        let siblings = parent.map_or(0, |p| p.children.len().saturating_sub(1));
        let same_shape_of = |id: usize| same_shape[id];
        let same_shape = same_shape[i];
        let mut ancestor_repeat = 0;
        let mut best_candidate = 0f32;
        let mut cur = node.parent;
        for _ in 0..5 {
            let Some(a) = cur else { break };
            ancestor_repeat = ancestor_repeat.max(same_shape_of(a as usize));
            best_candidate = best_candidate.max(candidate_ratio(a as usize));
            cur = tree.node(a).parent;
        }
        let at = before[i];
        let share_of = |terms: u32| terms as f32 / page_terms as f32;
        let top_distance = match article.top_span {
            Some((start, _)) if at < start => -share_of(start - at),
            Some((_, end)) if at >= end => share_of(at - end),
            _ => 0.0,
        };
        let (dense_position, before_dense, after_dense) = match article.dense_span {
            Some((start, _)) if at < start => (-1.0, share_of(start - at), 0.0),
            Some((_, end)) if at >= end => (1.0, 0.0, share_of(at - end)),
            Some(_) => (0.0, 0.0, 0.0),
            None => (-2.0, 0.0, 0.0),
        };
        // Cosine of the block's term counts with the page's Formula 2 vector.
        block_counts.clear();
        let (from, to) = spans[i];
        for &h in &hashes[from as usize..to as usize] {
            *block_counts.entry(h).or_insert(0.0) += 1.0;
        }
        let (mut dot, mut norm) = (0.0f32, 0.0f32);
        for (h, c) in &block_counts {
            norm += c * c;
            dot += c * page_vector.get(h).copied().unwrap_or(0.0);
        }
        let cosine = if norm > 0.0 && page_norm > 0.0 {
            dot / (norm.sqrt() * page_norm)
        } else {
            0.0
        };
        let (title_distance, after_title) = match title_block {
            Some(t) => (
                (before[i] as f32 - before[t] as f32) / page_terms as f32,
                if i >= t { 1.0 } else { 0.0 },
            ),
            None => (0.0, -1.0),
        };
        let neighbour = |j: Option<&usize>| {
            j.map_or((0.0, -1.0), |&j| {
                let o = tree.nodes[j].own;
                (ln1p(o.terms), o.anchor_ratio())
            })
        };
        let (prev_terms, prev_anchor) =
            neighbour(k.checked_sub(1).and_then(|k| text_blocks.get(k)));
        let (next_terms, next_anchor) = neighbour(text_blocks.get(k + 1));
        let hint = if node.hint.is_boilerplate() {
            -1.0
        } else if node.hint.is_content() {
            1.0
        } else {
            0.0
        };
        let block_type = |t: PageType| match t {
            PageType::Topic => 0.0,
            PageType::Hub => 1.0,
            PageType::Image => 2.0,
        };
        let flag = |b: bool| if b { 1.0 } else { 0.0 };
        let row = [
            ln1p(own.terms),
            own.anchor_ratio(),
            ln1p(own.links),
            own.images as f32,
            ratio(st.heading, st.tokens),
            ratio(st.weighty, st.tokens),
            ratio(st.punct, own.terms),
            ratio(st.sentence_ends, own.terms),
            ln1p(st.sentence_ends),
            ratio(st.token_chars, st.tokens),
            ratio(st.digit_tokens, st.tokens),
            ratio(st.capitalised, st.tokens),
            flag(st.copyright),
            ratio(own.terms, page_terms),
            ln1p(sub.terms),
            sub.anchor_ratio(),
            ln1p(sub.links),
            ln1p(sub.images),
            ratio(sub.terms, page_terms),
            ln1p(node.children.len() as u32),
            node.depth as f32,
            ratio(before[i], page_terms),
            tag_code(&node.tag),
            parent.map_or(-1.0, |p| tag_code(&p.tag)),
            hint,
            flag(anc_boiler[i]),
            flag(anc_content[i]),
            flag(in_article[i]),
            flag(in_chrome[i]),
            parent.map_or(0.0, |p| p.subtree.anchor_ratio()),
            parent.map_or(0.0, |p| ratio(p.subtree.terms, page_terms)),
            grandparent.map_or(0.0, |g| g.subtree.anchor_ratio()),
            grandparent.map_or(0.0, |g| ratio(g.subtree.terms, page_terms)),
            ln1p(siblings as u32),
            ln1p(same_shape as u32),
            if siblings == 0 {
                0.0
            } else {
                same_shape as f32 / siblings as f32
            },
            analysis.weights[i],
            cosine,
            block_type(node.block_type),
            flag(in_text_area[i]),
            flag(in_link_area[i]),
            flag(analysis.decisions[i].verdict == super::Verdict::Kept),
            block_type(analysis.page_type),
            flag(analysis.noise[i]),
            ratio(st.title_tokens, st.tokens),
            title_distance,
            after_title,
            if json_ld.is_some() {
                ratio(st.json_ld_tokens, st.tokens)
            } else {
                -1.0
            },
            prev_terms,
            prev_anchor,
            next_terms,
            next_anchor,
            page_features[0],
            page_features[1],
            page_features[2],
            page_features[3],
            hint_family(node.hint),
            anc_family[i],
            flag(comment[i]),
            ln1p(ancestor_repeat as u32),
            paragraph_score(&paragraphs[i]).ln_1p(),
            flag(article.in_top[i]),
            flag(article.joined[i]),
            node.parent.map_or(0.0, |p| candidate_ratio(p as usize)),
            best_candidate,
            top_distance,
            article.top_share,
            dense_position,
            before_dense,
            after_dense,
            0.0,
            0.0,
            0.0,
            0.0,
        ];
        debug_assert_eq!(row.len(), N_FEATURES);
        out.nodes.push(i as NodeId);
        out.values.extend_from_slice(&row);
        let (from, to) = spans[i];
        out.token_hashes.extend(
            hashes[from as usize..to as usize]
                .iter()
                .map(|&h| (h >> 32) as u32),
        );
        out.token_ends.push(out.token_hashes.len() as u32);
    }
    out
}

/// Names of the context features of the second stage, in row order: each text block's
/// first-stage score beside the scores of its neighbours in reading order and of the blocks
/// that share its parent, grandparent and great-grandparent (term-weighted means and the share
/// of their terms scored as content), and of the page.
pub(crate) const CONTEXT_NAMES: &[&str] = &[
    "score",
    "prev_score",
    "next_score",
    "prev2_score",
    "next2_score",
    "parent_mean_score",
    "parent_content_share",
    "grandparent_mean_score",
    "grandparent_content_share",
    "ancestor3_mean_score",
    "ancestor3_content_share",
    "page_mean_score",
    "page_max_score",
    "page_content_share",
    "content_before_share",
    "content_after_share",
];

/// Number of context features per row.
pub const N_CONTEXT: usize = CONTEXT_NAMES.len();

/// The parent of every node of `tree`, by node id: all the tree the context features need.
pub fn parents(tree: &TagTree) -> Vec<Option<NodeId>> {
    tree.nodes.iter().map(|n| n.parent).collect()
}

/// The context rows of a page ([`N_CONTEXT`] values per text block) from the first-stage
/// `scores` of its rows; `parents` is [`parents`] of the page's tree and `terms` the own terms
/// of each row.
pub fn context_rows(
    parents: &[Option<NodeId>],
    features: &BlockFeatures,
    terms: &[u32],
    scores: &[f32],
) -> Vec<f32> {
    let n = parents.len();
    let rows = features.len();
    let mut out = Vec::with_capacity(rows * N_CONTEXT);
    if rows == 0 {
        return out;
    }
    // Per node: terms, score-weighted terms and content terms of the text blocks below it.
    let mut sum_terms = vec![0f32; n];
    let mut sum_scored = vec![0f32; n];
    let mut sum_content = vec![0f32; n];
    for (k, &id) in features.nodes.iter().enumerate() {
        let t = terms[k] as f32;
        sum_terms[id as usize] += t;
        sum_scored[id as usize] += t * scores[k];
        if scores[k] >= 0.5 {
            sum_content[id as usize] += t;
        }
    }
    for i in (0..n).rev() {
        if let Some(p) = parents[i] {
            let p = p as usize;
            sum_terms[p] += sum_terms[i];
            sum_scored[p] += sum_scored[i];
            sum_content[p] += sum_content[i];
        }
    }
    let total_terms: f32 = terms.iter().map(|&t| t as f32).sum::<f32>().max(1.0);
    let page_content: f32 = features
        .nodes
        .iter()
        .enumerate()
        .filter(|(k, _)| scores[*k] >= 0.5)
        .map(|(k, _)| terms[k] as f32)
        .sum();
    let page_mean = features
        .nodes
        .iter()
        .enumerate()
        .map(|(k, _)| terms[k] as f32 * scores[k])
        .sum::<f32>()
        / total_terms;
    let page_max = scores.iter().copied().fold(0.0f32, f32::max);
    let ancestor = |id: NodeId, up: usize| {
        let mut cur = Some(id);
        for _ in 0..up {
            cur = cur.and_then(|c| parents[c as usize]);
        }
        cur
    };
    let mean_and_share = |a: Option<NodeId>| match a {
        Some(a) if sum_terms[a as usize] > 0.0 => {
            let a = a as usize;
            (sum_scored[a] / sum_terms[a], sum_content[a] / total_terms)
        }
        _ => (-1.0, 0.0),
    };
    let score_at = |k: isize| {
        if k < 0 || k as usize >= rows {
            -1.0
        } else {
            scores[k as usize]
        }
    };
    let mut content_before = 0f32;
    for (k, &id) in features.nodes.iter().enumerate() {
        let (pm, ps) = mean_and_share(ancestor(id, 1));
        let (gm, gs) = mean_and_share(ancestor(id, 2));
        let (am, as_) = mean_and_share(ancestor(id, 3));
        let own_content = if scores[k] >= 0.5 {
            terms[k] as f32
        } else {
            0.0
        };
        let ki = k as isize;
        out.extend_from_slice(&[
            scores[k],
            score_at(ki - 1),
            score_at(ki + 1),
            score_at(ki - 2),
            score_at(ki + 2),
            pm,
            ps,
            gm,
            gs,
            am,
            as_,
            page_mean,
            page_max,
            page_content / total_terms,
            content_before / total_terms,
            (page_content - content_before - own_content) / total_terms,
        ]);
        content_before += own_content;
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_columns_read_by_name_are_named_so() {
        assert_eq!(FEATURE_NAMES[JOINED_TOP_CANDIDATE], "joined_top_candidate");
        assert_eq!(FEATURE_NAMES[AFTER_TITLE], "after_title");
        assert_eq!(FEATURE_NAMES[OWN_HEADING_SHARE], "own_heading_share");
    }

    use super::*;
    use crate::Framework;
    use docview_page::build;

    fn feature(f: &BlockFeatures, row: usize, name: &str) -> f32 {
        let col = FEATURE_NAMES
            .iter()
            .position(|n| *n == name)
            .unwrap_or_else(|| panic!("no feature {name}"));
        f.row(row)[col]
    }

    #[test]
    fn feature_values_on_a_small_tree() {
        let html = "<html><head><title>Tide pools</title></head><body>\
            <nav class=menu><a href=/>Home</a> <a href=/news>News</a></nav>\
            <div id=main><h1>Tide pools</h1>\
            <p>At low tide, the pools fill. Crabs wait there!</p>\
            <p>Visitors step on bare rock, and put stones back.</p></div>\
            <footer>© 2024 Fieldnotes</footer></body></html>";
        let tree = build(html);
        let analysis = Framework::default().analyse(&tree).unwrap();
        let f = block_features(&tree, &analysis);
        let labels: Vec<&str> = f.nodes.iter().map(|&id| &*tree.node(id).label).collect();
        assert_eq!(
            labels,
            ["nav.menu", "div#main", "p", "p", "footer"],
            "{labels:?}"
        );
        assert_eq!(f.values.len(), f.len() * N_FEATURES);
        // The menu: two terms, both anchors, two links, named like boilerplate.
        assert_eq!(feature(&f, 0, "own_anchor_ratio"), 1.0);
        assert_eq!(feature(&f, 0, "own_links_log"), 2f32.ln_1p());
        assert_eq!(feature(&f, 0, "hint"), -1.0);
        assert_eq!(feature(&f, 0, "tag"), tag_code("nav"));
        // The headline repeats the title: it is the title block, all heading terms.
        assert_eq!(feature(&f, 1, "title_overlap"), 1.0);
        assert_eq!(feature(&f, 1, "own_heading_share"), 1.0);
        assert_eq!(feature(&f, 1, "title_distance"), 0.0);
        // The first paragraph: 9 terms, 2 sentence ends and 1 comma, after the title.
        assert_eq!(feature(&f, 2, "own_terms_log"), 9f32.ln_1p());
        assert_eq!(feature(&f, 2, "sentence_ends_per_term"), 2.0 / 9.0);
        assert_eq!(feature(&f, 2, "punct_per_term"), 3.0 / 9.0);
        assert_eq!(feature(&f, 2, "after_title"), 1.0);
        assert_eq!(feature(&f, 2, "capitalised_share"), 2.0 / 9.0);
        assert_eq!(feature(&f, 2, "parent_tag"), tag_code("div"));
        assert_eq!(feature(&f, 2, "same_shape_siblings_log"), 1f32.ln_1p());
        assert_eq!(feature(&f, 2, "in_text_area"), 1.0);
        assert!(feature(&f, 2, "position") > feature(&f, 1, "position"));
        assert!(feature(&f, 2, "page_cosine") > 0.0);
        // Neighbours: the paragraph before the second one has 9 terms and no anchors.
        assert_eq!(feature(&f, 3, "prev_terms_log"), 9f32.ln_1p());
        assert_eq!(feature(&f, 3, "prev_anchor_ratio"), 0.0);
        // The footer: a copyright mark in an HTML5 footer, outside the text area.
        assert_eq!(feature(&f, 4, "copyright_mark"), 1.0);
        assert_eq!(feature(&f, 4, "in_text_area"), 0.0);
        assert_eq!(feature(&f, 4, "digit_token_share"), 0.5);
        assert_eq!(feature(&f, 4, "json_ld_overlap"), -1.0);
    }

    #[test]
    fn chinese_blocks_count_ideographs_as_terms() {
        let html = "<body><div><p>今天天气很好。我们去公园散步，看见了很多花。</p></div></body>";
        let tree = build(html);
        let analysis = Framework::default().analyse(&tree).unwrap();
        let f = block_features(&tree, &analysis);
        assert_eq!(f.len(), 1);
        assert_eq!(feature(&f, 0, "own_terms_log"), 19f32.ln_1p());
        assert_eq!(feature(&f, 0, "cjk_share"), 1.0);
        assert_eq!(feature(&f, 0, "sentence_ends_per_term"), 2.0 / 19.0);
    }
}
