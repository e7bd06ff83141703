//! The corpus scoring rule: word-level bag-of-words precision, recall and F1 of one page.
//!
//! Tokens are those of [`crate::text::tokens`] (`\w+` runs lowercased, each CJK ideograph and
//! kana one token); precision and recall count the multiset overlap (the smaller count of each
//! token). An extraction without tokens scores 0; a reference without tokens scores 1 only when
//! the extraction has none either.

use std::borrow::Cow;
use std::collections::HashMap;

use serde::Serialize;

use crate::text::{for_each_token_span, lower_token};

/// Precision, recall and F1 of one page, or their macro-average over pages.
#[derive(Debug, Clone, Copy, PartialEq, Default, Serialize)]
pub struct Prf {
    /// Share of the extracted tokens that are in the reference.
    pub precision: f64,
    /// Share of the reference tokens that were extracted.
    pub recall: f64,
    /// Harmonic mean of precision and recall (per page; averaged as is over pages).
    pub f1: f64,
}

impl Prf {
    /// All three at 0.
    pub const ZERO: Prf = Prf {
        precision: 0.0,
        recall: 0.0,
        f1: 0.0,
    };

    /// All three at 1.
    pub const PERFECT: Prf = Prf {
        precision: 1.0,
        recall: 1.0,
        f1: 1.0,
    };

    /// The scores of `overlap` shared tokens out of `predicted` extracted and `reference`
    /// reference tokens, with the corpus rules for empty sides.
    pub fn from_counts(overlap: u64, predicted: u64, reference: u64) -> Prf {
        match (predicted, reference) {
            (0, 0) => Prf::PERFECT,
            (0, _) | (_, 0) => Prf::ZERO,
            _ => {
                let precision = overlap as f64 / predicted as f64;
                let recall = overlap as f64 / reference as f64;
                let f1 = if overlap == 0 {
                    0.0
                } else {
                    2.0 * precision * recall / (precision + recall)
                };
                Prf {
                    precision,
                    recall,
                    f1,
                }
            }
        }
    }

    /// The macro-average (mean of each measure) of `scores`; zero when there are none.
    pub fn mean<'a>(scores: impl IntoIterator<Item = &'a Prf>) -> Prf {
        let (mut sum, mut n) = (Prf::ZERO, 0usize);
        for s in scores {
            sum.precision += s.precision;
            sum.recall += s.recall;
            sum.f1 += s.f1;
            n += 1;
        }
        if n == 0 {
            return Prf::ZERO;
        }
        let n = n as f64;
        Prf {
            precision: sum.precision / n,
            recall: sum.recall / n,
            f1: sum.f1 / n,
        }
    }
}

/// Scores an extraction against the reference main content of a page.
pub fn score(predicted: &str, reference: &str) -> Prf {
    let mut remaining: HashMap<Cow<'_, str>, u32> = HashMap::new();
    let mut reference_total = 0u64;
    for_each_token_span(reference, |s, e| {
        *remaining.entry(lower_token(&reference[s..e])).or_insert(0) += 1;
        reference_total += 1;
    });
    let (mut predicted_total, mut overlap) = (0u64, 0u64);
    for_each_token_span(predicted, |s, e| {
        predicted_total += 1;
        let token = lower_token(&predicted[s..e]);
        if let Some(left) = remaining.get_mut(token.as_ref()).filter(|left| **left > 0) {
            *left -= 1;
            overlap += 1;
        }
    });
    Prf::from_counts(overlap, predicted_total, reference_total)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::tokens;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    #[test]
    fn identical_is_one() {
        let text = "The quick brown fox, the lazy dog. 中文 text_1";
        assert_eq!(score(text, text), Prf::PERFECT);
        assert_eq!(score("THE Quick", "the quick"), Prf::PERFECT);
    }

    #[test]
    fn disjoint_is_zero() {
        assert_eq!(score("alpha beta", "gamma delta"), Prf::ZERO);
    }

    #[test]
    fn empty_sides() {
        assert_eq!(score("", ""), Prf::PERFECT);
        assert_eq!(score(" ,. ", "!!"), Prf::PERFECT);
        assert_eq!(score("", "some reference"), Prf::ZERO);
        assert_eq!(score("--", "some reference"), Prf::ZERO);
        assert_eq!(score("some extraction", ""), Prf::ZERO);
    }

    #[test]
    fn multiset_overlap_takes_min_counts() {
        // predicted: a a a b (4), reference: a b b c (4); overlap min(3,1)+min(1,2) = 2.
        let prf = score("a a a b", "a b b c");
        assert!(close(prf.precision, 0.5) && close(prf.recall, 0.5) && close(prf.f1, 0.5));
        // predicted: x y (2), reference: x y z w (4): P = 1, R = 0.5, F1 = 2/3.
        let prf = score("x y", "x y z w");
        assert!(close(prf.precision, 1.0) && close(prf.recall, 0.5));
        assert!(close(prf.f1, 2.0 / 3.0));
    }

    #[test]
    fn cjk_counts_per_character() {
        // 中文新闻 is 4 tokens; 中文 shares 2 of them.
        let prf = score("中文", "中文新闻");
        assert!(close(prf.precision, 1.0) && close(prf.recall, 0.5));
        let prf = score("新闻中文", "中文新闻");
        assert_eq!(prf, Prf::PERFECT);
        let prf = score("日本語のテキスト", "日本語");
        assert!(close(prf.recall, 1.0) && close(prf.precision, 3.0 / 8.0));
    }

    #[test]
    fn agrees_with_the_token_list() {
        let predicted = "Ünïcode WORDS and ΣΊΣΥΦΟΣ, 中文 Straße";
        let reference = "ünïcode words σίσυφος straße 中";
        let toks = tokens(predicted);
        let refs = tokens(reference);
        let mut left = refs.clone();
        let mut overlap = 0;
        for t in &toks {
            if let Some(i) = left.iter().position(|r| r == t) {
                left.swap_remove(i);
                overlap += 1;
            }
        }
        let expected = Prf::from_counts(overlap, toks.len() as u64, refs.len() as u64);
        assert_eq!(score(predicted, reference), expected);
    }

    #[test]
    fn mean_of_pages() {
        let scores = [Prf::PERFECT, Prf::ZERO];
        let mean = Prf::mean(&scores);
        assert!(close(mean.f1, 0.5) && close(mean.precision, 0.5));
        assert_eq!(Prf::mean(&[]), Prf::ZERO);
    }
}
