//! Article evidence for the learned cleaner, after the extractors that lead on articles
//! (Readability, and dom_smoothie after it): every paragraph of the page gives a content score
//! to the containers above it (its parent in full, its grandparent half, the ones above a third
//! of their level), each container starting from what its tag and its class / id / ARIA name
//! say; a container's score is then scaled by the share of its text that is not link text. The
//! best-scored container is the *top candidate*, the article's element; siblings of it that
//! score close to it, or that are paragraphs of prose themselves, join it.
//!
//! The block features read this evidence ([`ArticleEvidence`]) rather than a decision: whether
//! a block lies in the top candidate or a sibling that joined it, its ancestors' scores beside
//! the top candidate's, how far it lies from the top candidate in reading order, and where it
//! stands against the first and last dense paragraph of the article (comments, related lists
//! and footers come after it; breadcrumbs and section labels before).

use docview_page::{Hint, TagTree};

use super::features::{PROSE_BLOCK_SENTENCES, PROSE_BLOCK_TERMS};

/// Characters a paragraph needs to score (Readability's 25).
const MIN_PARAGRAPH_CHARS: u32 = 25;
/// Levels of containers above a paragraph that it scores.
const ANCESTOR_LEVELS: usize = 5;
/// A sibling joins the top candidate from this share of its score …
const SIBLING_SHARE: f32 = 0.2;
/// … and never below this score.
const SIBLING_MIN_SCORE: f32 = 10.0;
/// A paragraph of prose ([`PROSE_BLOCK_TERMS`], [`PROSE_BLOCK_SENTENCES`]) is dense below this
/// share of link text.
const DENSE_MAX_ANCHOR: f32 = 0.3;

/// What the features need of a visible block's own text.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Paragraph {
    /// Characters of its own text (its tokens' and the spaces between them, roughly).
    pub(crate) chars: u32,
    /// Commas (`,`, `，`, `、`).
    pub(crate) commas: u32,
    /// Sentence ends.
    pub(crate) sentence_ends: u32,
}

/// The article evidence of one page, per node.
#[derive(Debug, Clone, Default)]
pub(crate) struct ArticleEvidence {
    /// Each container's content score (0 for a node no paragraph scored).
    pub(crate) score: Vec<f32>,
    /// The top candidate's score (0 when nothing scored).
    pub(crate) top_score: f32,
    /// Whether each node lies in the top candidate.
    pub(crate) in_top: Vec<bool>,
    /// Whether each node lies in the top candidate or a sibling that joined it.
    pub(crate) joined: Vec<bool>,
    /// The top candidate's span in reading order, in terms before its first and after its last
    /// term (`None` when nothing scored).
    pub(crate) top_span: Option<(u32, u32)>,
    /// Share of the page's terms in the top candidate.
    pub(crate) top_share: f32,
    /// The span of the article's dense paragraphs in reading order (terms before the first,
    /// terms before the end of the last): those in what joined the top candidate, else the
    /// page's.
    pub(crate) dense_span: Option<(u32, u32)>,
}

/// The score a container starts from: its tag's, and its name's (Readability's class weight).
fn initial_score(tag: &str, hint: Hint) -> f32 {
    let by_tag = match tag {
        "div" => 5.0,
        "pre" | "td" | "blockquote" => 3.0,
        "address" | "ol" | "ul" | "dl" | "dd" | "dt" | "li" | "form" => -3.0,
        "h1" | "h2" | "h3" | "h4" | "h5" | "h6" | "th" => -5.0,
        _ => 0.0,
    };
    let by_name = match hint {
        Hint::Content(_) => 25.0,
        Hint::Boilerplate(_) => -25.0,
        Hint::None => 0.0,
    };
    by_tag + by_name
}

/// The content score of a paragraph (0 below [`MIN_PARAGRAPH_CHARS`]).
pub(crate) fn paragraph_score(p: &Paragraph) -> f32 {
    if p.chars < MIN_PARAGRAPH_CHARS {
        return 0.0;
    }
    1.0 + p.commas as f32 + (p.chars / 100).min(3) as f32
}

/// The article evidence of `tree`: `visible` per node, `paragraphs` the own text of each node
/// (zero for one without), `before` the terms before each node in reading order.
pub(crate) fn article_evidence(
    tree: &TagTree,
    visible: &[bool],
    paragraphs: &[Paragraph],
    before: &[u32],
) -> ArticleEvidence {
    let n = tree.nodes.len();
    let mut evidence = ArticleEvidence {
        score: vec![0.0; n],
        in_top: vec![false; n],
        joined: vec![false; n],
        ..ArticleEvidence::default()
    };
    let mut started = vec![false; n];
    for (i, node) in tree.nodes.iter().enumerate() {
        if !visible[i] || node.own.terms == 0 {
            continue;
        }
        let score = paragraph_score(&paragraphs[i]);
        if score == 0.0 {
            continue;
        }
        let mut cur = node.parent;
        for level in 0..ANCESTOR_LEVELS {
            let Some(a) = cur else { break };
            let a = a as usize;
            if !started[a] {
                started[a] = true;
                evidence.score[a] = initial_score(&tree.nodes[a].tag, tree.nodes[a].hint);
            }
            let divider = match level {
                0 => 1.0,
                1 => 2.0,
                l => l as f32 * 3.0,
            };
            evidence.score[a] += score / divider;
            cur = tree.nodes[a].parent;
        }
    }
    let mut top: Option<usize> = None;
    for (i, _) in started.iter().enumerate().filter(|(_, started)| **started) {
        evidence.score[i] *= 1.0 - tree.nodes[i].subtree.anchor_ratio();
        if top.is_none_or(|t| evidence.score[i] > evidence.score[t]) {
            top = Some(i);
        }
    }
    let Some(top) = top.filter(|&t| evidence.score[t] > 0.0) else {
        return evidence;
    };
    evidence.top_score = evidence.score[top];
    let page_terms = tree.nodes.first().map_or(0, |r| r.subtree.terms);
    let top_node = &tree.nodes[top];
    evidence.top_share = if page_terms == 0 {
        0.0
    } else {
        top_node.subtree.terms as f32 / page_terms as f32
    };
    evidence.top_span = Some((before[top], before[top] + top_node.subtree.terms));
    // The siblings that join the top candidate (Readability's rule): the close-scored, and
    // paragraphs of prose.
    let threshold = SIBLING_MIN_SCORE.max(evidence.top_score * SIBLING_SHARE);
    let siblings: Vec<usize> = match top_node.parent {
        Some(p) => tree.nodes[p as usize]
            .children
            .iter()
            .map(|&c| c as usize)
            .collect(),
        None => vec![top],
    };
    let mut joins = vec![false; n];
    for &s in &siblings {
        let node = &tree.nodes[s];
        let p = &paragraphs[s];
        let prose_paragraph = node.children.is_empty()
            && node.own.terms > 0
            && ((p.chars > 80 && node.own.anchor_ratio() < 0.25)
                || (p.chars > 0 && node.own.anchor_terms == 0 && p.sentence_ends > 0));
        joins[s] = s == top || evidence.score[s] >= threshold || prose_paragraph;
    }
    // Top-down: a node is in what its ancestor is in.
    for (i, node) in tree.nodes.iter().enumerate() {
        let (in_top, joined) = match node.parent {
            Some(p) => (evidence.in_top[p as usize], evidence.joined[p as usize]),
            None => (false, false),
        };
        evidence.in_top[i] = in_top || i == top;
        evidence.joined[i] = joined || joins[i];
    }
    // The article's dense paragraphs: in what joined the top candidate, else anywhere.
    let dense = |i: usize, inside: bool| {
        let node = &tree.nodes[i];
        visible[i]
            && (!inside || evidence.joined[i])
            && node.own.terms >= PROSE_BLOCK_TERMS
            && paragraphs[i].sentence_ends >= PROSE_BLOCK_SENTENCES
            && node.own.anchor_ratio() < DENSE_MAX_ANCHOR
    };
    for inside in [true, false] {
        let mut span: Option<(u32, u32)> = None;
        for i in (0..n).filter(|&i| dense(i, inside)) {
            let end = before[i] + tree.nodes[i].own.terms;
            span = Some(span.map_or((before[i], end), |(s, _)| (s, end)));
        }
        if span.is_some() {
            evidence.dense_span = span;
            break;
        }
    }
    evidence
}

#[cfg(test)]
mod tests {
    use super::*;
    use docview_page::build;

    /// The evidence of a page, with paragraphs measured from each node's own text.
    fn evidence_of(tree: &TagTree) -> ArticleEvidence {
        let n = tree.nodes.len();
        let visible = vec![true; n];
        let mut paragraphs = vec![Paragraph::default(); n];
        let mut before = vec![0u32; n];
        let mut running = 0;
        for (i, node) in tree.nodes.iter().enumerate() {
            before[i] = running;
            running += node.own.terms;
            for item in &node.items {
                if let docview_page::Item::Text { start, end, .. } = *item {
                    let text = tree.slice(start, end);
                    paragraphs[i].chars += text.chars().count() as u32;
                    paragraphs[i].commas += text.matches([',', '，', '、']).count() as u32;
                    paragraphs[i].sentence_ends +=
                        text.matches(['.', '!', '?', '。', '！', '？']).count() as u32;
                }
            }
        }
        article_evidence(tree, &visible, &paragraphs, &before)
    }

    #[test]
    fn the_article_is_the_top_candidate_and_its_comments_are_not() {
        let para = "The council met on Tuesday, and after a long debate, it voted to repair \
                    the old ferry dock before the summer season begins. The work will take \
                    three months, and the ferry will run from the north pier meanwhile. ";
        let html = format!(
            "<body><nav><a href=/>Home</a> <a href=/news>News</a></nav>\
             <div class=article-body><p>{para}</p><p>{para}</p><p>{para}</p></div>\
             <div class=comments><p>Great news, finally.</p><p>About time, I say.</p></div>\
             <footer>Copyright the Gazette</footer></body>"
        );
        let tree = build(&html);
        let e = evidence_of(&tree);
        let by_label = |label: &str| {
            tree.nodes
                .iter()
                .position(|n| &*n.label == label)
                .unwrap_or_else(|| panic!("no {label}"))
        };
        let article = by_label("div.article-body");
        let comments = by_label("div.comments");
        assert!(e.top_score > 0.0);
        assert_eq!(
            e.score[article], e.top_score,
            "the article is the top candidate"
        );
        assert!(e.in_top[article] && !e.in_top[comments]);
        assert!(
            !e.joined[comments],
            "comments score below the bar and are no prose"
        );
        let (first, last) = e.dense_span.expect("three dense paragraphs");
        let comments_at = {
            let mut before = 0;
            for node in &tree.nodes[..comments] {
                before += node.own.terms;
            }
            before
        };
        assert!(
            first < last && last <= comments_at,
            "{first} {last} {comments_at}"
        );
        assert!(e.top_share > 0.5 && e.top_share < 1.0);
    }

    #[test]
    fn a_page_without_paragraphs_has_no_candidate() {
        let tree =
            build("<body><ul><li><a href=/a>A</a></li><li><a href=/b>B</a></li></ul></body>");
        let e = evidence_of(&tree);
        assert_eq!(e.top_score, 0.0);
        assert!(e.top_span.is_none() && e.dense_span.is_none());
        assert!(e.in_top.iter().all(|&t| !t));
    }
}
