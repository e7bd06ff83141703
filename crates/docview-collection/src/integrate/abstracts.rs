//! The abstract element (004 §6): δ key sentences taken from the topic content's paragraphs,
//! each paragraph giving a share by its size, each sentence weighed by the θ heaviest keywords.

use std::collections::HashMap;

use crate::text::count_tokens;
use crate::text::{Analyzer, Language};

/// How many of `delta` sentences each paragraph gives (δ_i), by its size in terms: largest
/// remainders, never more than a paragraph holds; what a short paragraph cannot give goes to the
/// others in order of size. `paragraphs` holds (terms, sentences) per paragraph.
pub fn allot_sentences(paragraphs: &[(usize, usize)], delta: usize) -> Vec<usize> {
    let mut allotted = vec![0usize; paragraphs.len()];
    let available: usize = paragraphs.iter().map(|p| p.1).sum();
    let mut left = delta.min(available);
    // Rounds of proportional allotment among paragraphs that still have sentences to give.
    while left > 0 {
        let open: Vec<usize> = (0..paragraphs.len())
            .filter(|&i| allotted[i] < paragraphs[i].1)
            .collect();
        let size: usize = open.iter().map(|&i| paragraphs[i].0.max(1)).sum();
        let mut shares: Vec<(usize, f64)> = Vec::with_capacity(open.len());
        let mut given = 0;
        for &i in &open {
            let exact = left as f64 * paragraphs[i].0.max(1) as f64 / size as f64;
            let room = paragraphs[i].1 - allotted[i];
            let whole = (exact.floor() as usize).min(room);
            allotted[i] += whole;
            given += whole;
            shares.push((i, exact - exact.floor()));
        }
        let mut rest = left - given;
        // Largest remainders first; ties to the earlier paragraph.
        shares.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        for &(i, _) in &shares {
            if rest == 0 {
                break;
            }
            if allotted[i] < paragraphs[i].1 {
                allotted[i] += 1;
                rest -= 1;
            }
        }
        if rest == left {
            break; // nothing could be given: no room anywhere
        }
        left = rest;
    }
    allotted
}

/// The abstract of a topic content split into `paragraphs`: `delta` sentences in all, weighed
/// by the `keywords` (feature, weight) in them, joined in page order.
pub fn extract_abstract(
    paragraphs: &[String],
    keywords: &[(String, f32)],
    delta: usize,
    analyzer: &Analyzer,
    lang: Language,
) -> String {
    let weights: HashMap<&str, f32> = keywords.iter().map(|(t, w)| (t.as_str(), *w)).collect();
    let sentences: Vec<Vec<&str>> = paragraphs.iter().map(|p| analyzer.sentences(p)).collect();
    let sizes: Vec<(usize, usize)> = paragraphs
        .iter()
        .zip(&sentences)
        .map(|(p, s)| (count_tokens(p), s.len()))
        .collect();
    let allotted = allot_sentences(&sizes, delta);
    let mut picked: Vec<&str> = Vec::new();
    for (sents, &n) in sentences.iter().zip(&allotted) {
        if n == 0 {
            continue;
        }
        let mut scored: Vec<(usize, f32)> = sents
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let mut w = 0.0;
                analyzer.for_each_term(s, lang, |t| w += weights.get(t).copied().unwrap_or(0.0));
                (i, w)
            })
            .collect();
        scored.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        let mut chosen: Vec<usize> = scored.iter().take(n).map(|s| s.0).collect();
        chosen.sort_unstable();
        picked.extend(chosen.into_iter().map(|i| sents[i]));
    }
    join_sentences(&picked)
}

/// Sentences joined by a space, or by nothing after a sentence ending in CJK punctuation or an
/// ideograph.
fn join_sentences(sentences: &[&str]) -> String {
    let mut out = String::new();
    for s in sentences {
        let wide = out
            .chars()
            .next_back()
            .is_some_and(|c| !c.is_ascii() && (crate::text::is_cjk(c) || is_wide_punct(c)));
        if !out.is_empty() && !wide {
            out.push(' ');
        }
        out.push_str(s);
    }
    out
}

fn is_wide_punct(c: char) -> bool {
    matches!(c, '\u{3000}'..='\u{303F}' | '\u{FF00}'..='\u{FFEF}')
}
