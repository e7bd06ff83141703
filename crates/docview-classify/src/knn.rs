//! The paper's classifier (004 §7.1, the crate documentation's kNN): chi-square term selection
//! over the training pages' Formula 2 vectors, and the votes of a page's nearest training
//! pages on that vocabulary.

use std::collections::BTreeMap;

use docview_measure::FeatureVector;
use serde::{Deserialize, Serialize};

use crate::model::check_header;
use crate::{Classification, Error, PageShape, Result, with_shape};

/// The format name of a classifier file.
pub(crate) const MODEL_FORMAT: &str = "docview-classifier";
/// The version of the classifier file format this build reads and writes.
pub(crate) const MODEL_VERSION: u32 = 1;

/// The classifier's parameters.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Params {
    /// Neighbours that vote.
    pub k: usize,
    /// Terms of highest chi-square kept per class.
    pub terms_per_class: usize,
    /// The weight of each structural term ([`PageShape::terms`]) beside the text's terms
    /// before the vector is normalised; 0 leaves them out.
    #[serde(default)]
    pub structure: f32,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            k: 10,
            terms_per_class: 300,
            structure: 0.3,
        }
    }
}

/// Chi-square of each term against each class (§7.1): for `docs` given as (class index,
/// distinct terms), `χ²(t, c) = N (AD - CB)² / ((A + C)(B + D)(A + B)(C + D))` with `A` the
/// pages of `c` holding `t`, `B` the other pages holding it, `C` the pages of `c` without it
/// and `D` the other pages without it. Returns, per class, the terms and their scores.
pub(crate) fn chi_square<'a>(
    docs: &[(usize, Vec<&'a str>)],
    classes: usize,
) -> Vec<BTreeMap<&'a str, f64>> {
    let n = docs.len() as f64;
    let mut per_class = vec![0f64; classes];
    let mut holding: BTreeMap<&str, Vec<f64>> = BTreeMap::new();
    for (class, terms) in docs {
        per_class[*class] += 1.0;
        for t in terms {
            holding.entry(t).or_insert_with(|| vec![0.0; classes])[*class] += 1.0;
        }
    }
    let mut out = vec![BTreeMap::new(); classes];
    for (term, in_class) in &holding {
        let with: f64 = in_class.iter().sum();
        for c in 0..classes {
            let a = in_class[c];
            let b = with - a;
            let cc = per_class[c] - a;
            let d = n - with - cc;
            let den = (a + cc) * (b + d) * (a + b) * (cc + d);
            let chi = if den > 0.0 {
                n * (a * d - cc * b).powi(2) / den
            } else {
                0.0
            };
            out[c].insert(*term, chi);
        }
    }
    out
}

/// The vocabulary of §7.1 from labelled vectors (class index, vector): the `per_class`
/// terms of highest [`chi_square`] of each class, sorted, without repeats.
fn select_terms<'a>(
    pages: impl Iterator<Item = (usize, &'a FeatureVector)>,
    classes: usize,
    per_class: usize,
) -> Vec<String> {
    let docs: Vec<(usize, Vec<&str>)> = pages
        .map(|(c, v)| (c, v.features.iter().map(|(t, _)| t.as_str()).collect()))
        .collect();
    let chi = chi_square(&docs, classes);
    let mut vocabulary: Vec<String> = Vec::new();
    for scores in &chi {
        let mut ranked: Vec<(&str, f64)> = scores.iter().map(|(t, s)| (*t, *s)).collect();
        ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then_with(|| a.0.cmp(b.0)));
        vocabulary.extend(
            ranked
                .into_iter()
                .take(per_class)
                .map(|(t, _)| t.to_string()),
        );
    }
    vocabulary.sort();
    vocabulary.dedup();
    vocabulary
}

/// A training page as the classifier keeps it: its class and its vector on the vocabulary
/// (term index, weight), unit length.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Example {
    class: u16,
    terms: Vec<(u32, f32)>,
}

/// A trained kNN classifier (see the crate documentation).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Classifier {
    format: String,
    version: u32,
    /// The scheme: what the classes are (for example the ground-truth field trained on).
    pub scheme: String,
    /// What the vectors were built from: `topic` (topic content) or `raw` (the whole page).
    pub source: String,
    /// The parameters it was trained with.
    pub params: Params,
    /// The classes, sorted.
    pub classes: Vec<String>,
    /// The vocabulary, sorted.
    vocabulary: Vec<String>,
    examples: Vec<Example>,
    /// For each vocabulary term, the training pages holding it and its weight there (built
    /// from `examples`, not stored): a page is compared with those sharing a term only.
    #[serde(skip)]
    postings: Vec<Vec<(u32, f32)>>,
}

/// `v` cut to `vocabulary` (sorted) and renormalised, as (term index, weight).
fn project(v: &FeatureVector, vocabulary: &[String]) -> Vec<(u32, f32)> {
    project_weighed(v, vocabulary, |_, w| w)
}

/// `v` cut to `vocabulary` (sorted), each kept term's weight given by `weigh(term index,
/// weight)`, and renormalised, as (term index, weight): the kNN's projection, and the linear
/// subject model's with its idf.
pub(crate) fn project_weighed(
    v: &FeatureVector,
    vocabulary: &[String],
    weigh: impl Fn(usize, f32) -> f32,
) -> Vec<(u32, f32)> {
    let mut out: Vec<(u32, f32)> = v
        .features
        .iter()
        .filter_map(|(t, w)| {
            vocabulary
                .binary_search_by(|x| x.as_str().cmp(t))
                .ok()
                .map(|i| (i as u32, weigh(i, *w)))
        })
        .collect();
    let norm = out.iter().map(|f| f.1 * f.1).sum::<f32>().sqrt();
    if norm > 0.0 {
        for f in &mut out {
            f.1 /= norm;
        }
    }
    out
}

impl Classifier {
    /// Trains on `pages` (class, vector): chi-square selection of each class's top terms, and
    /// the pages kept on that vocabulary. `scheme` and `source` name what the classes and the
    /// vectors are. Deterministic: the same pages in the same order give the same model.
    pub fn train(
        pages: &[(String, FeatureVector)],
        params: Params,
        scheme: &str,
        source: &str,
    ) -> Result<Classifier> {
        let classes: Vec<String> = {
            let mut c: Vec<String> = pages.iter().map(|(l, _)| l.clone()).collect();
            c.sort();
            c.dedup();
            c
        };
        if classes.is_empty() {
            return Err(Error::Model {
                source_name: scheme.to_string(),
                reason: "no labelled pages to train on".to_string(),
            });
        }
        let index = |l: &str| classes.binary_search_by(|c| c.as_str().cmp(l)).unwrap_or(0);
        let vocabulary = select_terms(
            pages.iter().map(|(l, v)| (index(l), v)),
            classes.len(),
            params.terms_per_class,
        );
        let examples = pages
            .iter()
            .map(|(l, v)| Example {
                class: index(l) as u16,
                terms: project(v, &vocabulary),
            })
            .collect();
        Ok(Classifier {
            format: MODEL_FORMAT.to_string(),
            version: MODEL_VERSION,
            scheme: scheme.to_string(),
            source: source.to_string(),
            params,
            classes,
            vocabulary,
            examples,
            postings: Vec::new(),
        }
        .with_postings())
    }

    /// The classifier with its postings built.
    pub(crate) fn with_postings(mut self) -> Classifier {
        let mut postings = vec![Vec::new(); self.vocabulary.len()];
        for (i, e) in self.examples.iter().enumerate() {
            for &(t, w) in &e.terms {
                if let Some(list) = postings.get_mut(t as usize) {
                    list.push((i as u32, w));
                }
            }
        }
        self.postings = postings;
        self
    }

    /// The votes of the `k` training pages most similar to `v` (cosine on the vocabulary), by
    /// class index; ties in similarity go to the earlier training page.
    pub fn votes(&self, v: &FeatureVector) -> Vec<f32> {
        let q = project(v, &self.vocabulary);
        let mut acc = vec![0f32; self.examples.len()];
        for &(t, w) in &q {
            for &(i, x) in self.postings.get(t as usize).map_or(&[][..], Vec::as_slice) {
                acc[i as usize] += w * x;
            }
        }
        let mut sims: Vec<(f32, usize)> = acc
            .into_iter()
            .enumerate()
            .filter(|(_, s)| *s > 0.0)
            .map(|(i, s)| (s, i))
            .collect();
        sims.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        let mut votes = vec![0f32; self.classes.len()];
        for &(s, i) in sims.iter().take(self.params.k.max(1)) {
            if s > 0.0 {
                votes[self.examples[i].class as usize] += s;
            }
        }
        votes
    }

    /// The class of a page whose vector is `v` by its neighbours' votes; `None` when no
    /// neighbour shares a term with it (an empty page, another language).
    pub fn classify_by_neighbours(&self, v: &FeatureVector) -> Option<Classification> {
        let votes = self.votes(v);
        let total: f32 = votes.iter().sum();
        if total <= 0.0 {
            return None;
        }
        let mut best = 0;
        for (c, &w) in votes.iter().enumerate() {
            if w > votes[best] {
                best = c;
            }
        }
        Some(Classification {
            class: self.classes[best].clone(),
            score: votes[best] / total,
            prior: false,
            shares: votes.iter().map(|w| w / total).collect(),
        })
    }

    /// The class of a page whose text vector is `v` and whose shape is `shape` (the model's
    /// structural terms added at its weight, as it was trained): [`Classifier::classify`].
    pub fn classify_page(&self, v: &FeatureVector, shape: &PageShape) -> Classification {
        self.classify(&with_shape(v.clone(), shape, self.params.structure))
    }

    /// The class of a page whose vector is `v`: by its neighbours' votes, else (no neighbour
    /// shares a term with it) the most frequent class of the training pages (the first of
    /// equals), marked as such.
    pub fn classify(&self, v: &FeatureVector) -> Classification {
        self.classify_by_neighbours(v).unwrap_or_else(|| {
            let mut count = vec![0usize; self.classes.len()];
            for e in &self.examples {
                count[e.class as usize] += 1;
            }
            let mut best = 0;
            for (c, &n) in count.iter().enumerate() {
                if n > count[best] {
                    best = c;
                }
            }
            Classification {
                class: self.classes.get(best).cloned().unwrap_or_default(),
                score: count.get(best).copied().unwrap_or(0) as f32
                    / self.examples.len().max(1) as f32,
                prior: true,
                shares: Vec::new(),
            }
        })
    }

    /// Terms in the vocabulary.
    pub fn vocabulary_len(&self) -> usize {
        self.vocabulary.len()
    }

    /// Reads a model from JSON; `source_name` names it in errors.
    pub fn from_json(json: &str, source_name: &str) -> Result<Classifier> {
        let bad = |reason: String| Error::Model {
            source_name: source_name.to_string(),
            reason,
        };
        check_header(json, MODEL_FORMAT, MODEL_VERSION, source_name)?;
        let model: Classifier =
            serde_json::from_str(json).map_err(|e| bad(format!("malformed: {e}")))?;
        if model.examples.iter().any(|e| {
            e.class as usize >= model.classes.len()
                || e.terms
                    .iter()
                    .any(|&(t, _)| t as usize >= model.vocabulary.len())
        }) {
            return Err(bad(
                "a training page out of the classes or vocabulary".to_string()
            ));
        }
        Ok(model.with_postings())
    }

    /// The model as JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A unit vector of `terms`.
    pub(crate) fn vector(terms: &[(&str, f32)]) -> FeatureVector {
        let mut features: Vec<(String, f32)> =
            terms.iter().map(|(t, w)| (t.to_string(), *w)).collect();
        features.sort_by(|a, b| a.0.cmp(&b.0));
        FeatureVector { features }.normalised()
    }

    /// A kNN of five pages, two classes, `k` neighbours.
    pub(crate) fn trained(k: usize) -> Classifier {
        let pages = vec![
            ("shop".to_string(), vector(&[("price", 2.0), ("cart", 1.0)])),
            (
                "shop".to_string(),
                vector(&[("price", 1.0), ("basket", 1.0)]),
            ),
            (
                "news".to_string(),
                vector(&[("minister", 2.0), ("vote", 1.0)]),
            ),
            (
                "news".to_string(),
                vector(&[("minister", 1.0), ("price", 0.2)]),
            ),
            ("news".to_string(), vector(&[("vote", 1.0), ("poll", 1.0)])),
        ];
        Classifier::train(
            &pages,
            Params {
                structure: 0.0,
                k,
                terms_per_class: 3,
            },
            "kind",
            "topic",
        )
        .unwrap()
    }

    /// Four pages, two classes: `price` in both shop pages and no news page scores
    /// `χ² = N (AD - CB)² / ((A+C)(B+D)(A+B)(C+D)) = 4 (2·2 - 0·0)² / (2·2·2·2) = 4`; `the`,
    /// in every page, scores 0.
    #[test]
    fn chi_square_of_a_tiny_set() {
        let docs = vec![
            (0, vec!["price", "cart", "the"]),
            (0, vec!["price", "the"]),
            (1, vec!["minister", "the"]),
            (1, vec!["minister", "cart", "the"]),
        ];
        let chi = chi_square(&docs, 2);
        assert!((chi[0]["price"] - 4.0).abs() < 1e-9);
        assert!((chi[1]["price"] - 4.0).abs() < 1e-9);
        assert_eq!(chi[0]["the"], 0.0);
        // cart: A=1, B=1, C=1, D=1: no association.
        assert_eq!(chi[0]["cart"], 0.0);
    }

    /// kNN votes: the neighbours vote with their cosine; a page of `price` and `cart` is
    /// nearest the first shop page (1.0 against the vocabulary's vector), then the second.
    #[test]
    fn knn_votes_by_similarity() {
        let c = trained(2);
        assert_eq!(c.classes, vec!["news", "shop"]);
        let q = vector(&[("price", 2.0), ("cart", 1.0)]);
        let votes = c.votes(&q);
        assert_eq!(votes[0], 0.0, "no news page among the two nearest");
        assert!(votes[1] > 1.0, "{votes:?}");
        let got = c.classify(&q);
        assert!(!got.prior);
        assert_eq!(got.class, "shop");
        assert!((got.score - 1.0).abs() < 1e-6);
        // With all five voting, the news pages share a little of it.
        let wide = trained(5).classify(&q);
        assert_eq!(wide.class, "shop");
        assert!(wide.score < 1.0);
        let news = c.classify(&vector(&[("minister", 1.0), ("poll", 1.0)]));
        assert_eq!(news.class, "news");
        // No neighbour shares a term: the most frequent class (three of five), by prior.
        assert!(
            c.classify_by_neighbours(&vector(&[("unseen", 1.0)]))
                .is_none()
        );
        let prior = c.classify(&vector(&[("unseen", 1.0)]));
        assert_eq!(
            (prior.class.as_str(), prior.score, prior.prior),
            ("news", 0.6, true)
        );
    }
}
