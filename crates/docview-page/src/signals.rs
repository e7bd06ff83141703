//! A page's signals: one row of numbers that tells kinds of page apart (article, forum,
//! product, collection, listing, documentation, service: issue 14's page types), read from
//! its tag tree once, for the page-type classifier's trees.
//!
//! The row holds the [`Markup`](crate::Markup) facts (element counts, Open Graph and
//! schema.org types, a published date, class and id words), the tree's own counts (terms, the
//! share of anchor terms, links, images), paragraphs (their terms, the longest, how many are
//! long), the most repeated sibling blocks of one shape, prices and dates in the text, and
//! phrases that mark a kind of page ("add to cart", "reply", "sort by", "on this page").
//! [`signal_names`] names each value, in row order.

use std::sync::OnceLock;

use aho_corasick::{AhoCorasick, AhoCorasickBuilder};
use serde::{Deserialize, Serialize};

use crate::TagTree;
use crate::markup::{MARKUP_TAGS, NAME_WORDS, OG_TYPES, SCHEMA_TYPES};

/// Phrases counted in the page's text, case-insensitively.
pub(crate) const PHRASES: &[&str] = &[
    "add to bag",
    "add to cart",
    "buy now",
    "comments",
    "contact us",
    "copyright",
    "edit this page",
    "filter",
    "free trial",
    "get started",
    "in stock",
    "joined",
    "last post",
    "learn more",
    "members",
    "next",
    "on this page",
    "out of stock",
    "posted",
    "previous",
    "quantity",
    "quote",
    "read more",
    "replies",
    "reply",
    "report",
    "request",
    "results",
    "reviews",
    "share",
    "shipping",
    "showing",
    "sku",
    "sort by",
    "subscribe",
    "table of contents",
    "views",
];

/// Signals that are not one of the lists' entries, in row order after them.
const OWN: &[&str] = &[
    "terms",
    "anchor_share",
    "links",
    "images",
    "prices",
    "dates",
    "paragraph_terms",
    "paragraph_max",
    "paragraphs_long",
    "repeated_blocks",
    "title_terms",
];

/// A paragraph of at least this many terms counts as long.
const LONG_PARAGRAPH_TERMS: u32 = 40;

/// The name of each value of a [`PageSignals`] row, in order: `elements`, `tag:T`, `og:T`,
/// `published`, `schema:T`, `name:W`, `phrase:P`, then the page's own counts.
pub fn signal_names() -> &'static [String] {
    static NAMES: OnceLock<Vec<String>> = OnceLock::new();
    NAMES.get_or_init(|| {
        let mut names = vec!["elements".to_string()];
        names.extend(MARKUP_TAGS.iter().map(|t| format!("tag:{t}")));
        names.extend(OG_TYPES.iter().map(|t| format!("og:{t}")));
        names.push("published".to_string());
        names.extend(SCHEMA_TYPES.iter().map(|t| format!("schema:{t}")));
        names.extend(NAME_WORDS.iter().map(|w| format!("name:{w}")));
        names.extend(PHRASES.iter().map(|p| format!("phrase:{p}")));
        names.extend(OWN.iter().map(|s| s.to_string()));
        names
    })
}

/// The number of values of a [`PageSignals`] row.
pub const SIGNAL_COUNT: usize = 1
    + MARKUP_TAGS.len()
    + OG_TYPES.len()
    + 1
    + SCHEMA_TYPES.len()
    + NAME_WORDS.len()
    + PHRASES.len()
    + OWN.len();

/// One page's signals, a value per [`signal_names`] entry.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PageSignals {
    /// The values, in [`signal_names`] order.
    pub values: Vec<f32>,
}

fn phrase_matcher() -> &'static AhoCorasick {
    static M: OnceLock<AhoCorasick> = OnceLock::new();
    M.get_or_init(|| {
        AhoCorasickBuilder::new()
            .ascii_case_insensitive(true)
            .build(PHRASES)
            .expect("fixed phrase list builds")
    })
}

impl PageSignals {
    /// The signals of `tree`.
    pub fn of(tree: &TagTree) -> PageSignals {
        let m = &tree.markup;
        let mut v: Vec<f32> = Vec::with_capacity(SIGNAL_COUNT);
        v.push(m.elements as f32);
        v.extend(pad(&m.tags, MARKUP_TAGS.len()));
        v.extend(
            OG_TYPES
                .iter()
                .map(|t| f32::from(u8::from(!m.og_type.is_empty() && m.og_type.contains(t)))),
        );
        v.push(f32::from(u8::from(m.published)));
        v.extend(pad(&m.schema_types, SCHEMA_TYPES.len()));
        v.extend(pad(&m.name_words, NAME_WORDS.len()));
        let mut phrases = vec![0f32; PHRASES.len()];
        for hit in phrase_matcher().find_overlapping_iter(&tree.text) {
            phrases[hit.pattern().as_usize()] += 1.0;
        }
        v.extend(phrases);
        let root = tree.nodes.first().map(|n| n.subtree).unwrap_or_default();
        v.push(root.terms as f32);
        v.push(root.anchor_terms as f32 / root.terms.max(1) as f32);
        v.push(root.links as f32);
        v.push(root.images as f32);
        let (prices, dates) = prices_and_dates(&tree.text);
        v.push(prices as f32);
        v.push(dates as f32);
        let (mut p_terms, mut p_max, mut p_long) = (0u32, 0u32, 0u32);
        for n in tree.nodes.iter().filter(|n| &*n.tag == "p") {
            p_terms += n.subtree.terms;
            p_max = p_max.max(n.subtree.terms);
            p_long += u32::from(n.subtree.terms >= LONG_PARAGRAPH_TERMS);
        }
        v.push(p_terms as f32);
        v.push(p_max as f32);
        v.push(p_long as f32);
        v.push(repeated_blocks(tree) as f32);
        v.push(docview_text::count_tokens(&tree.title) as f32);
        debug_assert_eq!(v.len(), SIGNAL_COUNT);
        PageSignals { values: v }
    }
}

/// `counts` as floats, `len` of them (a tree built by hand may have none).
fn pad(counts: &[u32], len: usize) -> impl Iterator<Item = f32> + '_ {
    (0..len).map(move |i| counts.get(i).copied().unwrap_or(0) as f32)
}

/// The most children of one node that share a label (tag, id and classes): the items of a
/// product grid, a result list or a thread of posts.
fn repeated_blocks(tree: &TagTree) -> usize {
    let mut best = 0;
    let mut labels: Vec<&str> = Vec::new();
    for n in &tree.nodes {
        if n.children.len() <= best {
            continue;
        }
        labels.clear();
        labels.extend(n.children.iter().map(|&c| &*tree.nodes[c as usize].label));
        labels.sort_unstable();
        let mut run = 0;
        for (i, l) in labels.iter().enumerate() {
            run = if i > 0 && labels[i - 1] == *l {
                run + 1
            } else {
                1
            };
            best = best.max(run);
        }
    }
    best
}

/// Prices (a currency sign before a digit: `$5`, `€ 12`) and dates (a month's name, full or
/// abbreviated, then a day: `Mar 4`, `September 12,`) in `text`.
fn prices_and_dates(text: &str) -> (usize, usize) {
    let prices = text
        .char_indices()
        .filter(|&(i, c)| {
            matches!(c, '$' | '€' | '£' | '¥') && {
                let rest = &text[i + c.len_utf8()..];
                let rest = rest.strip_prefix(' ').unwrap_or(rest);
                rest.starts_with(|d: char| d.is_ascii_digit())
            }
        })
        .count();
    let mut dates = 0;
    let mut words = text.split_whitespace().peekable();
    while let Some(w) = words.next() {
        let w = w.trim_end_matches(['.', ',']);
        if !(3..=9).contains(&w.len()) || !w.is_ascii() {
            continue;
        }
        // Lowercased on the stack: most words of a page are looked at here.
        let mut lower = [0u8; 9];
        let lower = &mut lower[..w.len()];
        lower.copy_from_slice(w.as_bytes());
        lower.make_ascii_lowercase();
        if std::str::from_utf8(lower).is_ok_and(docview_text::is_month)
            && words
                .peek()
                .is_some_and(|n| n.starts_with(|c: char| c.is_ascii_digit()))
        {
            dates += 1;
        }
    }
    (prices, dates)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn value(s: &PageSignals, name: &str) -> f32 {
        let i = signal_names().iter().position(|n| n == name).unwrap();
        s.values[i]
    }

    #[test]
    fn names_match_the_row() {
        assert_eq!(signal_names().len(), SIGNAL_COUNT);
        let s = PageSignals::of(&crate::build("<p>x</p>"));
        assert_eq!(s.values.len(), SIGNAL_COUNT);
        let mut names = signal_names().to_vec();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), SIGNAL_COUNT, "names are distinct");
    }

    #[test]
    fn prices_and_dates_in_text() {
        assert_eq!(
            prices_and_dates(
                "Now $5, was € 12; $ off. Posted Mar 4, 2026 and September 12. May be."
            ),
            (2, 2)
        );
    }

    #[test]
    fn a_forum_thread_s_signals() {
        let post = |who: &str| {
            format!(
                "<div class=\"post\"><span class=user>{who}</span> Joined Jan 2020\
                 <p>I had the same problem with the pump and the seal, and replacing the gasket \
                 fixed it for me after a week of trying other things that did not work at \
                 all, so try that first before you buy a new one.</p><a href=/r>Reply</a></div>"
            )
        };
        let html = format!(
            "<html><head><title>Pump seal leaking</title></head><body><div id=thread>{}{}{}</div></body></html>",
            post("ann"),
            post("bob"),
            post("cy")
        );
        let s = PageSignals::of(&crate::build(&html));
        assert_eq!(value(&s, "repeated_blocks"), 3.0);
        assert_eq!(value(&s, "phrase:reply"), 3.0);
        assert_eq!(value(&s, "phrase:joined"), 3.0);
        assert_eq!(value(&s, "dates"), 3.0);
        assert_eq!(value(&s, "paragraphs_long"), 3.0);
        assert_eq!(value(&s, "name:post"), 3.0);
        assert_eq!(value(&s, "name:thread"), 1.0);
        assert_eq!(value(&s, "tag:div"), 4.0);
        assert_eq!(value(&s, "title_terms"), 3.0);
        assert!(value(&s, "anchor_share") > 0.0 && value(&s, "anchor_share") < 0.1);
    }
}
