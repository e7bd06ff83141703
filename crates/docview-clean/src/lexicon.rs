//! The block lexicon of the learned cleaner: how much more often each word, and each pair of
//! words, stood in topic content than in boilerplate on the pages a model was trained on.
//!
//! The tag tree and its measures say where a block sits and how it is built; they do not say
//! that "add to cart", "sign up for our newsletter" or "related posts" is what a shop, a blog or
//! a news site puts around its content. The lexicon learns those words from the labelled
//! blocks, as a log-odds weight per word: with `c` the training pages on which the word stood in
//! a content block, `b` those on which it stood in a boilerplate block, and `C`, `B` the pages
//! with any content block and with any boilerplate block, `ln((c + 1) / (b + 1)) -
//! ln((C + 1) / (B + 1))`. A page counts once per word and class, so one long page does not
//! make a word content. Words seen on fewer than [`MIN_PAGES`] pages are left out: they would name a page,
//! not a kind of block. Word pairs get weights the same way.
//!
//! A block's lexicon features are the mean weight of its known words and of its known pairs,
//! and the shares of its words and pairs that the lexicon knows. Blocks carry their tokens'
//! hashes in [`BlockFeatures`] (the scorer's tokens, ASCII lowercased); the model fills the four
//! features ([`LEXICON_NAMES`]) before it scores. In training, each page's features come from a
//! lexicon that did not see the page's site (cross-fitting, as for the second stage's scores).

use std::collections::BTreeMap;

use rustc_hash::{FxHashMap, FxHashSet};
use serde::{Deserialize, Serialize};

#[cfg(test)]
use super::features::FEATURE_NAMES;
use super::features::{BlockFeatures, N_FEATURES};

/// Names of the lexicon features: the last four of every feature row.
pub(crate) const LEXICON_NAMES: &[&str] = &[
    "lexicon_word_mean",
    "lexicon_pair_mean",
    "lexicon_word_known",
    "lexicon_pair_known",
];

/// Index of the first lexicon feature in a row.
pub(crate) const LEXICON_FIRST: usize = N_FEATURES - LEXICON_NAMES.len();

/// Fewest training pages a word or pair must stand on to get a weight.
pub(crate) const MIN_PAGES: u32 = 5;

/// Word and word-pair weights (see the module doc).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Lexicon {
    /// Word hashes and their weights (written in hash order).
    #[serde(serialize_with = "by_key")]
    words: FxHashMap<u32, f32>,
    /// Word-pair hashes and their weights (written in hash order).
    #[serde(serialize_with = "by_key")]
    pairs: FxHashMap<u32, f32>,
}

/// Writes a map in key order, so that the same weights give the same model bytes.
fn by_key<S: serde::Serializer>(map: &FxHashMap<u32, f32>, s: S) -> Result<S::Ok, S::Error> {
    map.iter().collect::<BTreeMap<_, _>>().serialize(s)
}

/// The hash of a word pair.
fn pair_hash(a: u32, b: u32) -> u32 {
    let x = (u64::from(a) << 32 | u64::from(b)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    (x >> 32) as u32
}

/// Page counts of one kind of key in the two classes, and of pages with each class.
#[derive(Default)]
struct Counts {
    content: FxHashMap<u32, u32>,
    boilerplate: FxHashMap<u32, u32>,
    content_pages: u32,
    boilerplate_pages: u32,
}

impl Counts {
    fn add(&mut self, content: &FxHashSet<u32>, boilerplate: &FxHashSet<u32>) {
        for &k in content {
            *self.content.entry(k).or_insert(0) += 1;
        }
        for &k in boilerplate {
            *self.boilerplate.entry(k).or_insert(0) += 1;
        }
        self.content_pages += u32::from(!content.is_empty());
        self.boilerplate_pages += u32::from(!boilerplate.is_empty());
    }

    /// The weights of the keys seen on at least [`MIN_PAGES`] pages.
    fn weights(&self) -> FxHashMap<u32, f32> {
        let mut keys: FxHashMap<u32, (u32, u32)> = FxHashMap::default();
        for (&k, &c) in &self.content {
            keys.entry(k).or_default().0 = c;
        }
        for (&k, &b) in &self.boilerplate {
            keys.entry(k).or_default().1 = b;
        }
        let prior = ((f64::from(self.content_pages) + 1.0)
            / (f64::from(self.boilerplate_pages) + 1.0))
            .ln();
        keys.into_iter()
            .filter(|&(_, (c, b))| c + b >= MIN_PAGES)
            .map(|(k, (c, b))| {
                let w = ((f64::from(c) + 1.0) / (f64::from(b) + 1.0)).ln() - prior;
                (k, w as f32)
            })
            .collect()
    }
}

impl Lexicon {
    /// Learns the weights from labelled pages: for each page, its feature rows (with their
    /// tokens) and whether each row is content.
    pub fn train<'a>(pages: impl IntoIterator<Item = (&'a BlockFeatures, Vec<bool>)>) -> Lexicon {
        let mut words = Counts::default();
        let mut pairs = Counts::default();
        for (features, content) in pages {
            let mut page_words = [FxHashSet::default(), FxHashSet::default()];
            let mut page_pairs = [FxHashSet::default(), FxHashSet::default()];
            for (k, &is_content) in content.iter().enumerate().take(features.len()) {
                let class = usize::from(!is_content);
                let tokens = features.tokens(k);
                page_words[class].extend(tokens.iter().copied());
                page_pairs[class].extend(tokens.windows(2).map(|w| pair_hash(w[0], w[1])));
            }
            words.add(&page_words[0], &page_words[1]);
            pairs.add(&page_pairs[0], &page_pairs[1]);
        }
        Lexicon {
            words: words.weights(),
            pairs: pairs.weights(),
        }
    }

    /// Words and pairs with a weight.
    pub fn len(&self) -> usize {
        self.words.len() + self.pairs.len()
    }

    /// True when the lexicon has no weight.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The four lexicon features of a block's tokens.
    pub fn block(&self, tokens: &[u32]) -> [f32; 4] {
        let mean = |keys: &mut dyn Iterator<Item = u32>, map: &FxHashMap<u32, f32>| {
            let (mut n, mut known, mut sum) = (0u32, 0u32, 0.0f32);
            for k in keys {
                n += 1;
                if let Some(w) = map.get(&k) {
                    known += 1;
                    sum += w;
                }
            }
            if known == 0 {
                (0.0, 0.0)
            } else {
                (sum / known as f32, known as f32 / n as f32)
            }
        };
        let (word_mean, word_known) = mean(&mut tokens.iter().copied(), &self.words);
        let (pair_mean, pair_known) = mean(
            &mut tokens.windows(2).map(|w| pair_hash(w[0], w[1])),
            &self.pairs,
        );
        [word_mean, pair_mean, word_known, pair_known]
    }

    /// Fills the lexicon features of every row of `features` (an empty lexicon leaves them as
    /// they are: 0 from [`block_features`](super::features::block_features)).
    pub fn fill(&self, features: &mut BlockFeatures) {
        if self.is_empty() {
            return;
        }
        for k in 0..features.len() {
            let values = self.block(features.tokens(k));
            let row = k * N_FEATURES + LEXICON_FIRST;
            features.values[row..row + LEXICON_NAMES.len()].copy_from_slice(&values);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Framework;
    use crate::features::block_features;
    use docview_page::{Item, build};

    #[test]
    fn lexicon_names_end_every_row() {
        assert_eq!(&FEATURE_NAMES[LEXICON_FIRST..], LEXICON_NAMES);
    }

    /// A shop page: a product description and the shop's cart, sign-up and footer lines.
    fn shop_page(product: &str, words: &str) -> String {
        format!(
            "<html><body><div class=top><p>Add to cart</p><p>Sign up for our newsletter</p></div>\
             <div class=product><h1>{product}</h1><p>{words}</p></div>\
             <footer><p>Free shipping on orders over fifty</p></footer></body></html>"
        )
    }

    #[test]
    fn words_of_boilerplate_blocks_weigh_against_content() {
        let descriptions = [
            "A wool runner with a soft sole for long walks in the city.",
            "A linen shirt cut loose for hot days, with a soft collar.",
            "A canvas bag with two pockets and a strap for long walks.",
            "A rain jacket with a hood, taped seams and a soft lining.",
            "A cotton cap with a curved brim for sunny days in the city.",
            "A leather belt with a brass buckle, cut by hand.",
        ];
        let mut pages = Vec::new();
        for (i, d) in descriptions.iter().enumerate() {
            let tree = build(&shop_page(&format!("Item {i}"), d));
            let analysis = Framework::default().analyse(&tree).unwrap();
            let f = block_features(&tree, &analysis);
            // Content: the product's heading and description.
            let content: Vec<bool> = f
                .nodes
                .iter()
                .map(|&id| {
                    let text: String = tree
                        .node(id)
                        .items
                        .iter()
                        .filter_map(|item| match *item {
                            Item::Text { start, end, .. } => Some(tree.slice(start, end)),
                            _ => None,
                        })
                        .collect();
                    text.contains("Item") || descriptions.iter().any(|d| text.contains(d))
                })
                .collect();
            assert_eq!(content.iter().filter(|&&c| c).count(), 2);
            pages.push((f, content));
        }
        let lexicon = Lexicon::train(pages.iter().map(|(f, c)| (f, c.clone())));
        // "cart", "sign", "shipping" are on 6 boilerplate blocks, no content one; "soft" on 3
        // pages only, under MIN_PAGES; "a" and "with" on all six descriptions.
        let hash = |w: &str| {
            let tree = build(&format!("<p>{w}</p>"));
            let analysis = Framework::default().analyse(&tree).unwrap();
            block_features(&tree, &analysis).tokens(0)[0]
        };
        let weight = |w: &str| lexicon.words.get(&hash(w)).copied();
        assert!(weight("cart").unwrap() < -1.0, "{:?}", weight("cart"));
        assert!(
            weight("for").unwrap() < 0.0,
            "4 pages of content, 6 of boilerplate"
        );
        assert!(weight("shipping").unwrap() < -1.0);
        assert!(weight("with").unwrap() > 1.0, "{:?}", weight("with"));
        assert_eq!(weight("soft"), None, "on 3 pages, under the minimum");
        // The block features of a new page: its cart line weighs against, its text for.
        let mut features = {
            let tree = build(&shop_page(
                "Item 9",
                "A felt hat with a wide brim, made for a long walk.",
            ));
            let analysis = Framework::default().analyse(&tree).unwrap();
            block_features(&tree, &analysis)
        };
        lexicon.fill(&mut features);
        let row = |k: usize| &features.row(k)[LEXICON_FIRST..];
        assert!(row(0)[0] < -1.0, "add to cart: {:?}", row(0));
        assert_eq!(row(0)[2], 1.0, "every word of 'add to cart' is known");
        assert!(row(0)[1] < -1.0, "and its pairs: {:?}", row(0));
        let description = features.len() - 2;
        assert!(row(description)[0] > 0.0, "{:?}", row(description));
        assert!(row(description)[2] < 1.0, "felt and hat are not known");
        // Deterministic, and the same after a round trip through JSON.
        let again = Lexicon::train(pages.iter().map(|(f, c)| (f, c.clone())));
        assert_eq!(again, lexicon);
        let json = serde_json::to_vec(&lexicon).unwrap();
        let back: Lexicon = serde_json::from_slice(&json).unwrap();
        assert_eq!(back, lexicon);
        assert_eq!(
            serde_json::to_vec(&back).unwrap(),
            json,
            "written in one order"
        );
    }
}
