//! The measures of a ranked run against a topic's judgments, as `trec_eval` computes them, and
//! the paired randomization test between two indexes.
//!
//! A run is ordered as `trec_eval` orders it: score descending, then document id descending
//! (byte order), so that docview's figures and those of `trec_eval` or ir-measures on the run
//! file docview writes are the same. A document is relevant when its grade is 1 or more.
//!
//! - nDCG@10 (`ndcg_cut_10`): the grades of the top 10 discounted by log2(rank + 1), over the
//!   same of the topic's judgments in grade order;
//! - P@10: relevant documents in the top 10, over 10;
//! - AP (`map`, over the run's up to 1,000 documents): the precision at each relevant
//!   document retrieved, summed, over the topic's relevant documents;
//! - Recall@100: relevant documents in the top 100 over the topic's relevant documents;
//! - RR@10: one over the rank of the first relevant document in the top 10, else 0;
//! - Judged@10: documents of the top 10 with a judgment (of any grade), over the documents
//!   of the top 10 (fewer when the run has fewer; 0 for none), as ir-measures has it.

use rand::RngExt;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use super::topics::Judgments;

/// One ranked document of a run.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Ranked {
    /// The document's id, as the qrels name documents.
    pub docid: String,
    /// Its retrieval score.
    pub score: f32,
}

/// Orders `run` as `trec_eval` does: score descending, then document id descending.
pub fn trec_order(run: &mut [Ranked]) {
    run.sort_by(|a, b| {
        b.score
            .total_cmp(&a.score)
            .then_with(|| b.docid.cmp(&a.docid))
    });
}

/// The measures of one topic (or their means over topics).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Measures {
    /// nDCG@10.
    #[serde(rename = "ndcg@10")]
    pub ndcg_10: f64,
    /// P@10.
    #[serde(rename = "p@10")]
    pub p_10: f64,
    /// Average precision over the run (up to 1,000 documents).
    #[serde(rename = "ap")]
    pub ap: f64,
    /// Recall@100.
    #[serde(rename = "recall@100")]
    pub recall_100: f64,
    /// Reciprocal rank of the first relevant document in the top 10.
    #[serde(rename = "rr@10")]
    pub rr_10: f64,
    /// The share of the top 10 (or of the run, when shorter) that is judged.
    #[serde(rename = "judged@10")]
    pub judged_10: f64,
}

/// Which of the [`Measures`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub enum Measure {
    /// nDCG@10.
    #[serde(rename = "ndcg@10")]
    Ndcg10,
    /// P@10.
    #[serde(rename = "p@10")]
    P10,
    /// Average precision.
    #[serde(rename = "ap")]
    Ap,
    /// Recall@100.
    #[serde(rename = "recall@100")]
    Recall100,
    /// RR@10.
    #[serde(rename = "rr@10")]
    Rr10,
    /// Judged@10.
    #[serde(rename = "judged@10")]
    Judged10,
}

impl Measure {
    /// Every measure, in the order reports list them.
    pub const ALL: [Measure; 6] = [
        Measure::Ndcg10,
        Measure::P10,
        Measure::Ap,
        Measure::Recall100,
        Measure::Rr10,
        Measure::Judged10,
    ];

    /// Its name in reports: `nDCG@10`, `P@10`, `AP`, `R@100`, `RR@10`, `Judged@10`.
    pub fn label(self) -> &'static str {
        match self {
            Measure::Ndcg10 => "nDCG@10",
            Measure::P10 => "P@10",
            Measure::Ap => "AP",
            Measure::Recall100 => "R@100",
            Measure::Rr10 => "RR@10",
            Measure::Judged10 => "Judged@10",
        }
    }

    /// Its value in `m`.
    pub fn of(self, m: &Measures) -> f64 {
        match self {
            Measure::Ndcg10 => m.ndcg_10,
            Measure::P10 => m.p_10,
            Measure::Ap => m.ap,
            Measure::Recall100 => m.recall_100,
            Measure::Rr10 => m.rr_10,
            Measure::Judged10 => m.judged_10,
        }
    }
}

/// The measures of `run` (in [`trec_order`]) against `judged`.
pub fn measure(run: &[Ranked], judged: &Judgments) -> Measures {
    let grade = |d: &Ranked| judged.get(&d.docid).copied().unwrap_or(0).max(0);
    let relevant = judged.values().filter(|&&g| g >= 1).count();
    let mut ideal: Vec<i32> = judged.values().copied().filter(|&g| g > 0).collect();
    ideal.sort_unstable_by(|a, b| b.cmp(a));
    let discount = |i: usize| 1.0 / ((i + 2) as f64).log2();
    let dcg: f64 = run
        .iter()
        .take(10)
        .enumerate()
        .map(|(i, d)| f64::from(grade(d)) * discount(i))
        .sum();
    let idcg: f64 = ideal
        .iter()
        .take(10)
        .enumerate()
        .map(|(i, &g)| f64::from(g) * discount(i))
        .sum();
    let share = |n: usize, d: usize| if d == 0 { 0.0 } else { n as f64 / d as f64 };
    let mut hits = 0usize;
    let mut precision_sum = 0.0;
    let mut first_relevant = None;
    let (mut in_10, mut in_100) = (0usize, 0usize);
    for (i, d) in run.iter().enumerate() {
        if grade(d) >= 1 {
            hits += 1;
            precision_sum += share(hits, i + 1);
            first_relevant.get_or_insert(i);
            in_10 += usize::from(i < 10);
            in_100 += usize::from(i < 100);
        }
    }
    Measures {
        ndcg_10: if idcg > 0.0 { dcg / idcg } else { 0.0 },
        p_10: share(in_10, 10),
        ap: if relevant == 0 {
            0.0
        } else {
            precision_sum / relevant as f64
        },
        recall_100: share(in_100, relevant),
        rr_10: first_relevant
            .filter(|&i| i < 10)
            .map_or(0.0, |i| 1.0 / (i + 1) as f64),
        judged_10: share(
            run.iter()
                .take(10)
                .filter(|d| judged.contains_key(&d.docid))
                .count(),
            run.len().min(10),
        ),
    }
}

/// The mean of each measure over `per_query` (all zero when it is empty).
pub fn mean(per_query: &[Measures]) -> Measures {
    let n = per_query.len().max(1) as f64;
    let sum = |f: fn(&Measures) -> f64| per_query.iter().map(f).sum::<f64>() / n;
    Measures {
        ndcg_10: sum(|m| m.ndcg_10),
        p_10: sum(|m| m.p_10),
        ap: sum(|m| m.ap),
        recall_100: sum(|m| m.recall_100),
        rr_10: sum(|m| m.rr_10),
        judged_10: sum(|m| m.judged_10),
    }
}

/// Random sign flips of the paired randomization test.
pub const PERMUTATIONS: usize = 10_000;

/// The seed of the randomization test: the same p-values on every run.
pub const SEED: u64 = 44;

/// The two-sided p-value of the paired randomization test (Fisher's, by random sign flips of
/// the per-topic differences `b - a`, [`PERMUTATIONS`] of them, seeded): the share of flips
/// whose mean difference is at least as far from 0 as the observed one, counting the observed.
/// 1 when there is no topic.
pub fn randomization_p(a: &[f64], b: &[f64]) -> f64 {
    let diffs: Vec<f64> = a.iter().zip(b).map(|(x, y)| y - x).collect();
    if diffs.is_empty() {
        return 1.0;
    }
    let observed = diffs.iter().sum::<f64>().abs();
    let mut rng = ChaCha8Rng::seed_from_u64(SEED);
    let mut at_least = 0usize;
    for _ in 0..PERMUTATIONS {
        let flipped: f64 = diffs
            .iter()
            .map(|&d| if rng.random::<bool>() { d } else { -d })
            .sum();
        // A tolerance for sums of the same values in another order.
        if flipped.abs() >= observed - 1e-12 {
            at_least += 1;
        }
    }
    (at_least + 1) as f64 / (PERMUTATIONS + 1) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(docs: &[(&str, f32)]) -> Vec<Ranked> {
        let mut run: Vec<Ranked> = docs
            .iter()
            .map(|&(d, s)| Ranked {
                docid: d.into(),
                score: s,
            })
            .collect();
        trec_order(&mut run);
        run
    }

    fn judged(rels: &[(&str, i32)]) -> Judgments {
        rels.iter().map(|&(d, g)| (d.to_string(), g)).collect()
    }

    #[test]
    fn ties_are_ordered_as_trec_eval_orders_them() {
        let r = run(&[("a", 1.0), ("c", 2.0), ("b", 1.0)]);
        let ids: Vec<&str> = r.iter().map(|d| d.docid.as_str()).collect();
        assert_eq!(ids, ["c", "b", "a"]);
    }

    #[test]
    fn measures_by_hand() {
        // Ranks: d1 (grade 2), d2 (unjudged), d3 (0), d4 (1); d5 (grade 1) not retrieved.
        let r = run(&[("d1", 4.0), ("d2", 3.0), ("d3", 2.0), ("d4", 1.0)]);
        let j = judged(&[("d1", 2), ("d3", 0), ("d4", 1), ("d5", 1)]);
        let m = measure(&r, &j);
        let dcg = 2.0 + 1.0 / 5f64.log2();
        let idcg = 2.0 + 1.0 / 3f64.log2() + 1.0 / 4f64.log2();
        assert!((m.ndcg_10 - dcg / idcg).abs() < 1e-12, "{m:?}");
        assert!((m.p_10 - 0.2).abs() < 1e-12);
        assert!((m.ap - (1.0 + 2.0 / 4.0) / 3.0).abs() < 1e-12);
        assert!((m.recall_100 - 2.0 / 3.0).abs() < 1e-12);
        assert!((m.rr_10 - 1.0).abs() < 1e-12);
        // 3 of the 4 documents retrieved are judged.
        assert!((m.judged_10 - 0.75).abs() < 1e-12);
        // Nothing relevant retrieved; nothing retrieved.
        let none = measure(&run(&[("d3", 1.0)]), &j);
        assert_eq!((none.ndcg_10, none.ap, none.rr_10), (0.0, 0.0, 0.0));
        assert_eq!(measure(&[], &j), Measures::default());
    }

    #[test]
    fn the_randomization_test_tells_a_steady_gain_from_noise() {
        let a = vec![0.2; 30];
        let steady: Vec<f64> = a.iter().map(|x| x + 0.1).collect();
        assert!(randomization_p(&a, &steady) < 0.001);
        let noise: Vec<f64> = (0..30)
            .map(|i| if i % 2 == 0 { 0.3 } else { 0.1 })
            .collect();
        assert!(randomization_p(&a, &noise) > 0.5);
        assert_eq!(randomization_p(&a, &a), 1.0);
        assert_eq!(randomization_p(&[], &[]), 1.0);
    }
}
