//! The second classifier (issue 14, scope 1): one-vs-rest gradient-boosted trees over what a
//! page looks like rather than what it says. A page is one row of numbers: its
//! [`PageSignals`] (markup, schema.org types, class names, phrases, paragraphs, repeated
//! blocks), its URL's shape (depth, query, the last segment's words, dates and file endings,
//! words that name a kind of page), its [`PageShape`] after cleaning (the page type of §4.1,
//! topic words, paragraphs, hub blocks), and whether each of the training pages' most common
//! URL and title words is there.
//!
//! Each class has its own trees (a [`Stage`] of `docview-trees`, as the learned cleaner's block
//! model: the project carries one ML crate), trained on every training page with the class as
//! the positive label and each page weighted by the inverse of its class's size, so that the
//! small classes count as much as the articles. A page's class is the one whose trees give the
//! highest probability; its score is that probability's share of the sum over the classes.
//!
//! A page without a web address (a local file that declares none: [`PageShape::url`]) has no
//! URL features, and a file path must not stand in for them. Each class therefore has a second
//! set of trees, trained on the same pages with their URL features left blank (a constant, which
//! no tree splits on), and such a page is classified by those: on what it holds alone.
//!
//! Training is deterministic (no sampling; vocabularies sorted by count, then by word): the
//! same pages and parameters give the same bytes.

use std::collections::BTreeMap;

use docview_page::{PageSignals, SIGNAL_COUNT, signal_names};
use docview_trees::{BoostParams, Stage};
use serde::{Deserialize, Serialize};

use crate::{Classification, Error, PageShape, Result};

/// The format name of a trees classifier file.
pub(crate) const TREES_FORMAT: &str = "docview-classifier-trees";
/// The version of the trees classifier file format this build reads and writes.
pub(crate) const TREES_VERSION: u32 = 1;

/// A page as the trees read it.
#[derive(Debug, Clone, Copy)]
pub struct PageView<'a> {
    /// Its signals.
    pub signals: &'a PageSignals,
    /// Its shape after cleaning (with its web address, if it has one).
    pub shape: &'a PageShape,
    /// Its `<title>`.
    pub title: &'a str,
}

/// Parameters of the trees classifier.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct TreeParams {
    /// Boosting rounds per class.
    pub trees: usize,
    /// Depth limit of each tree.
    pub max_depth: usize,
    /// Shrinkage.
    pub learning_rate: f32,
    /// URL words and title words kept (each), the most common over the training pages.
    pub words: usize,
    /// A word must be in at least this many training pages to be kept.
    pub min_pages: usize,
}

impl Default for TreeParams {
    fn default() -> Self {
        TreeParams {
            trees: 500,
            max_depth: 3,
            learning_rate: 0.05,
            words: 100,
            min_pages: 5,
        }
    }
}

/// Words in URLs that name a kind of page, by kind (counted in the path and the host's first
/// label).
const URL_KINDS: &[(&str, &[&str])] = &[
    (
        "product",
        &[
            "product", "products", "item", "items", "shop", "store", "dp", "buy", "p", "sku",
        ],
    ),
    (
        "forum",
        &[
            "forum",
            "forums",
            "thread",
            "threads",
            "topic",
            "topics",
            "community",
            "discussion",
            "discussions",
            "questions",
            "question",
            "board",
            "viewtopic",
            "showthread",
            "t",
        ],
    ),
    (
        "docs",
        &[
            "docs",
            "doc",
            "documentation",
            "api",
            "reference",
            "guide",
            "guides",
            "manual",
            "wiki",
            "learn",
            "tutorial",
            "tutorials",
            "help",
            "kb",
            "support",
            "developer",
            "developers",
            "library",
        ],
    ),
    (
        "listing",
        &[
            "category",
            "categories",
            "collections",
            "collection",
            "tag",
            "tags",
            "search",
            "list",
            "catalog",
            "archive",
            "archives",
            "c",
            "browse",
            "all",
            "results",
        ],
    ),
    (
        "article",
        &[
            "blog", "news", "article", "articles", "post", "posts", "stories", "story",
        ],
    ),
    (
        "service",
        &[
            "services",
            "service",
            "about",
            "contact",
            "pricing",
            "solutions",
            "company",
            "features",
            "plans",
            "team",
            "careers",
        ],
    ),
];

/// The URL's own numbers, in row order.
const URL_NAMES: &[&str] = &[
    "url:depth",
    "url:query",
    "url:last_hyphens",
    "url:last_length",
    "url:numbers",
    "url:year",
    "url:file_ending",
];

/// The shape's numbers, in row order.
const SHAPE_NAMES: &[&str] = &[
    "shape:topic",
    "shape:hub",
    "shape:image",
    "shape:topic_words",
    "shape:paragraphs",
    "shape:links",
    "shape:hub_blocks",
    "shape:share",
];

/// The path of a URL (after the host, before `?` or `#`), its host, and whether it has a
/// query.
pub(crate) fn url_parts(url: &str) -> (&str, &str, bool) {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let (host, path) = rest.find('/').map_or((rest, ""), |i| rest.split_at(i));
    let path = path.split('#').next().unwrap_or("");
    let (path, query) = path
        .split_once('?')
        .map_or((path, false), |(p, _)| (p, true));
    (path, host, query)
}

/// The lowercase letter runs of `s` of `min` to 20 letters.
pub(crate) fn words(s: &str, min: usize) -> Vec<String> {
    s.split(|c: char| !c.is_ascii_alphabetic())
        .filter(|w| (min..=20).contains(&w.len()))
        .map(str::to_ascii_lowercase)
        .collect()
}

/// The words of a URL's path and of its host's first label.
fn url_words(url: &str) -> Vec<String> {
    let (path, host, _) = url_parts(url);
    let mut w = words(path, 1);
    w.extend(words(host.split('.').next().unwrap_or(""), 1));
    w.sort();
    w.dedup();
    w
}

/// The words of a title (three letters or more).
fn title_words(title: &str) -> Vec<String> {
    let mut w = words(title, 3);
    w.sort();
    w.dedup();
    w
}

/// The trees classifier.
#[derive(Serialize, Deserialize)]
pub struct TreeClassifier {
    /// Always `docview-classifier-trees`.
    pub format: String,
    /// The file format's version, this docview's when written by it (a model of another
    /// version is refused).
    pub version: u32,
    /// What the classes are (the ground-truth field trained on).
    pub scheme: String,
    /// The classes, sorted; `stages[i]` scores `classes[i]`.
    pub classes: Vec<String>,
    /// The row's feature names, to check a model against this build's signals.
    pub features: Vec<String>,
    /// URL words whose presence is a feature.
    pub url_words: Vec<String>,
    /// Title words whose presence is a feature.
    pub title_words: Vec<String>,
    /// The parameters.
    pub params: TreeParams,
    /// Training pages per class.
    pub counts: BTreeMap<String, usize>,
    stages: Vec<Stage>,
    /// The trees of the pages without a web address, one set per class, trained on rows whose
    /// URL features are blank. A model without them (written before them) classifies such a
    /// page by `stages` with blank URL features.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    without_url: Option<Vec<Stage>>,
}

/// The vocabularies of a model's rows.
struct Vocab<'a> {
    url: &'a [String],
    title: &'a [String],
}

/// The feature names of rows with these vocabularies.
fn feature_names(v: &Vocab<'_>) -> Vec<String> {
    let mut names: Vec<String> = signal_names().to_vec();
    names.extend(URL_NAMES.iter().map(|s| s.to_string()));
    names.extend(URL_KINDS.iter().map(|(k, _)| format!("url_kind:{k}")));
    names.extend(SHAPE_NAMES.iter().map(|s| s.to_string()));
    names.extend(v.url.iter().map(|w| format!("url_word:{w}")));
    names.extend(v.title.iter().map(|w| format!("title_word:{w}")));
    names
}

/// The row of `page` with these vocabularies, appended to `row`; its URL features from `url`
/// (blank: zero, for a page without a web address).
fn push_row(row: &mut Vec<f32>, page: PageView<'_>, url: Option<&str>, vocab: &Vocab<'_>) {
    let signals = &page.signals.values;
    row.extend((0..SIGNAL_COUNT).map(|i| signals.get(i).copied().unwrap_or(0.0)));
    let url = url.unwrap_or("");
    let (path, _, query) = url_parts(url);
    let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    let last = segments.last().copied().unwrap_or("");
    let numbers = path
        .split(|c: char| !c.is_ascii_digit())
        .filter(|s| !s.is_empty())
        .count();
    let year = segments.iter().any(|s| {
        s.len() == 4
            && (s.starts_with("19") || s.starts_with("20"))
            && s.bytes().all(|b| b.is_ascii_digit())
    });
    let lower = path.to_ascii_lowercase();
    let ending = [".html", ".htm", ".php", ".aspx", ".asp", ".jsp"]
        .iter()
        .any(|e| lower.ends_with(e));
    row.extend([
        segments.len() as f32,
        f32::from(u8::from(query)),
        last.matches('-').count() as f32,
        last.len() as f32,
        numbers as f32,
        f32::from(u8::from(year)),
        f32::from(u8::from(ending)),
    ]);
    let uw = url_words(url);
    for (_, kind) in URL_KINDS {
        row.push(
            kind.iter()
                .filter(|k| uw.binary_search_by(|w| w.as_str().cmp(k)).is_ok())
                .count() as f32,
        );
    }
    let s = page.shape;
    row.extend([
        f32::from(u8::from(s.page_type == "topic")),
        f32::from(u8::from(s.page_type == "hub")),
        f32::from(u8::from(s.page_type == "image")),
        s.topic_words as f32,
        s.paragraphs as f32,
        s.links as f32,
        s.hub_blocks as f32,
        s.topic_words as f32 / s.visible_words.max(1) as f32,
    ]);
    row.extend(
        vocab
            .url
            .iter()
            .map(|w| f32::from(u8::from(uw.binary_search(w).is_ok()))),
    );
    let tw = title_words(page.title);
    row.extend(
        vocab
            .title
            .iter()
            .map(|w| f32::from(u8::from(tw.binary_search(w).is_ok()))),
    );
}

/// The `n` words in most of `pages`' word lists (at least `min` of them), sorted.
fn vocabulary(lists: &[Vec<String>], n: usize, min: usize) -> Vec<String> {
    let mut df: BTreeMap<&str, usize> = BTreeMap::new();
    for list in lists {
        for w in list {
            *df.entry(w.as_str()).or_default() += 1;
        }
    }
    let mut ranked: Vec<(&str, usize)> = df.into_iter().filter(|&(_, c)| c >= min).collect();
    ranked.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
    let mut vocab: Vec<String> = ranked
        .into_iter()
        .take(n)
        .map(|(w, _)| w.to_string())
        .collect();
    vocab.sort();
    vocab
}

impl TreeClassifier {
    /// Trains on labelled pages; `scheme` names the classes; `threads` for forust (0: one per
    /// core; the model does not depend on it).
    pub fn train(
        pages: &[(String, PageView<'_>)],
        params: TreeParams,
        scheme: &str,
        threads: usize,
    ) -> Result<TreeClassifier> {
        let bad = |reason: String| Error::Model {
            source_name: "training".to_string(),
            reason,
        };
        let mut counts: BTreeMap<String, usize> = BTreeMap::new();
        for (label, _) in pages {
            *counts.entry(label.clone()).or_default() += 1;
        }
        if counts.len() < 2 {
            return Err(bad(format!(
                "{} class(es) among {} pages: at least two are needed",
                counts.len(),
                pages.len()
            )));
        }
        let classes: Vec<String> = counts.keys().cloned().collect();
        let url_lists: Vec<Vec<String>> = pages
            .iter()
            .map(|(_, p)| url_words(p.shape.url.as_deref().unwrap_or("")))
            .collect();
        let title_lists: Vec<Vec<String>> =
            pages.iter().map(|(_, p)| title_words(p.title)).collect();
        let url_vocab = vocabulary(&url_lists, params.words, params.min_pages);
        let title_vocab = vocabulary(&title_lists, params.words, params.min_pages);
        let vocab = Vocab {
            url: &url_vocab,
            title: &title_vocab,
        };
        let features = feature_names(&vocab);
        let width = features.len();
        let mut rows = Vec::with_capacity(pages.len() * width);
        let mut blank = Vec::with_capacity(pages.len() * width);
        for (_, p) in pages {
            push_row(&mut rows, *p, p.shape.url.as_deref(), &vocab);
            push_row(&mut blank, *p, None, &vocab);
        }
        let n = pages.len() as f64;
        let weights: Vec<f64> = pages
            .iter()
            .map(|(l, _)| n / (classes.len() as f64 * counts[l] as f64))
            .collect();
        let train = BoostParams {
            trees: params.trees,
            max_depth: params.max_depth,
            learning_rate: params.learning_rate,
            seed: 0,
            threads,
        };
        let trees_of = |rows: &[f32], what: &str| {
            classes
                .iter()
                .map(|c| {
                    let labels: Vec<f64> = pages
                        .iter()
                        .map(|(l, _)| f64::from(u8::from(l == c)))
                        .collect();
                    Stage::train(rows, width, &labels, &weights, &train)
                        .map_err(|e| bad(format!("class {c}{what}: {e}")))
                })
                .collect::<Result<Vec<Stage>>>()
        };
        let stages = trees_of(&rows, "")?;
        let without_url = trees_of(&blank, " without URL")?;
        Ok(TreeClassifier {
            format: TREES_FORMAT.to_string(),
            version: TREES_VERSION,
            scheme: scheme.to_string(),
            classes,
            features,
            url_words: url_vocab,
            title_words: title_vocab,
            params,
            counts,
            stages,
            without_url: Some(without_url),
        })
    }

    fn vocab(&self) -> Vocab<'_> {
        Vocab {
            url: &self.url_words,
            title: &self.title_words,
        }
    }

    /// Each class's probability for `page`, in [`TreeClassifier::classes`] order: by the
    /// trees without URL features when it has no web address.
    pub fn probabilities(&self, page: PageView<'_>) -> Vec<f32> {
        let mut row = Vec::with_capacity(self.features.len());
        let url = page.shape.url.as_deref();
        push_row(&mut row, page, url, &self.vocab());
        let stages = match (url, &self.without_url) {
            (None, Some(blank)) => blank,
            _ => &self.stages,
        };
        stages
            .iter()
            .map(|s| s.scores(&row).first().copied().unwrap_or(0.0))
            .collect()
    }

    /// The class of `page`: the most probable; its score is its share of the probabilities
    /// (ties: the first class in name order).
    pub fn classify(&self, page: PageView<'_>) -> Classification {
        let p = self.probabilities(page);
        let mut best = 0;
        for (i, &x) in p.iter().enumerate() {
            if x > p[best] {
                best = i;
            }
        }
        let sum: f32 = p.iter().sum();
        let shares = if sum > 0.0 {
            p.iter().map(|x| x / sum).collect()
        } else {
            vec![0.0; p.len()]
        };
        Classification {
            class: self.classes[best].clone(),
            score: if sum > 0.0 { p[best] / sum } else { 0.0 },
            prior: false,
            shares,
        }
    }

    /// Reads a model from JSON; `source_name` names it in errors.
    pub fn from_json(json: &str, source_name: &str) -> Result<TreeClassifier> {
        let bad = |reason: String| Error::Model {
            source_name: source_name.to_string(),
            reason,
        };
        crate::model::check_header(json, TREES_FORMAT, TREES_VERSION, source_name)?;
        let mut model: TreeClassifier =
            serde_json::from_str(json).map_err(|e| bad(format!("malformed: {e}")))?;
        if model.features != feature_names(&model.vocab()) {
            return Err(bad(
                "its features are not this docview's page signals: retrain it with \
                 `docview classify train --method trees`"
                    .to_string(),
            ));
        }
        let blank = model.without_url.as_ref().map_or(0, Vec::len);
        if model.stages.len() != model.classes.len()
            || model.without_url.is_some() && blank != model.classes.len()
        {
            return Err(bad(format!(
                "{} classes but {} sets of trees ({blank} without URL)",
                model.classes.len(),
                model.stages.len()
            )));
        }
        let width = model.features.len();
        let blank_stages = model.without_url.iter_mut().flatten();
        let classes = model.classes.iter().chain(&model.classes);
        for (stage, class) in model.stages.iter_mut().chain(blank_stages).zip(classes) {
            if stage.width() != width {
                return Err(bad(format!(
                    "the trees of {class} read rows of another width"
                )));
            }
            stage
                .prepare()
                .map_err(|e| bad(format!("the trees of {class} {e}")))?;
        }
        Ok(model)
    }

    /// The model as JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::PageClassifier;

    /// A hand-made page of a kind, numbered: its signals from its tag tree, its shape, its
    /// title.
    fn page(kind: &str, n: usize) -> Page {
        let (url, title, body) = match kind {
            "product" => (
                format!("https://shop{n}.example/product/kettle-{n}"),
                format!("Steel kettle {n} | Shop"),
                format!(
                    "<div class=product><h1>Kettle {n}</h1><span class=price>${n}9.00</span>\
                     <form><select><option>1</option></select><button>Add to cart</button></form>\
                     <p>In stock. Free shipping.</p></div>"
                ),
            ),
            _ => (
                format!("https://forum{n}.example/thread/{n}/pump-seal"),
                format!("Pump seal leaking {n}"),
                (0..4)
                    .map(|i| {
                        format!(
                            "<div class=post><span class=user>user{i}</span> Joined Mar 3\
                             <p>Reply {i} about the pump and its seal on thread {n}.</p>\
                             <a href=/r>Reply</a></div>"
                        )
                    })
                    .collect(),
            ),
        };
        let html = format!("<html><head><title>{title}</title></head><body>{body}</body></html>");
        let tree = docview_page::build(&html);
        let shape = PageShape {
            url: Some(url),
            page_type: "topic".to_string(),
            links: tree.links.len(),
            visible_words: 40,
            topic_words: 30,
            paragraphs: 1,
            hub_blocks: 0,
        };
        (
            kind.to_string(),
            PageSignals::of(&tree),
            shape,
            tree.title.clone(),
        )
    }

    fn params() -> TreeParams {
        TreeParams {
            trees: 20,
            max_depth: 2,
            learning_rate: 0.3,
            words: 5,
            min_pages: 2,
        }
    }

    type Page = (String, PageSignals, PageShape, String);

    fn views(pages: &[Page]) -> Vec<(String, PageView<'_>)> {
        pages
            .iter()
            .map(|(l, signals, shape, title)| {
                (
                    l.clone(),
                    PageView {
                        signals,
                        shape,
                        title,
                    },
                )
            })
            .collect()
    }

    fn trained(pages: &[Page]) -> TreeClassifier {
        TreeClassifier::train(&views(pages), params(), "kind", 1).unwrap()
    }

    #[test]
    fn trees_tell_products_from_threads_and_round_trip() {
        let pages: Vec<_> = (0..6)
            .flat_map(|n| [page("product", n), page("forum", n)])
            .collect();
        let model = trained(&pages);
        assert_eq!(model.classes, vec!["forum", "product"]);
        assert!(
            model.url_words.contains(&"product".to_string()),
            "{:?}",
            model.url_words
        );
        for kind in ["product", "forum"] {
            let (_, signals, shape, title) = page(kind, 99);
            let c = model.classify(PageView {
                signals: &signals,
                shape: &shape,
                title: &title,
            });
            assert_eq!(c.class, kind);
            assert!(c.score > 0.5 && c.score <= 1.0 && !c.prior, "{c:?}");
        }
        // Same pages, same bytes; the file reads back to the same model.
        let json = model.to_json();
        assert_eq!(trained(&pages).to_json(), json);
        let back = PageClassifier::from_json(&json, "m.json").unwrap();
        assert_eq!(back.format_version(), "docview-classifier-trees v1");
        assert_eq!(back.to_json(), json);
        // Another version, or features this build does not compute, are clear errors.
        let old = json.replacen("\"version\":1", "\"version\":9", 1);
        let err = PageClassifier::from_json(&old, "old.json")
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("old.json") && err.contains("version 9"),
            "{err}"
        );
        let other = json.replacen("\"elements\"", "\"elements_v0\"", 1);
        let err = PageClassifier::from_json(&other, "x.json")
            .unwrap_err()
            .to_string();
        assert!(err.contains("page signals"), "{err}");
    }

    /// A page without a web address is classified by the trees that never read a URL. Here the
    /// two classes differ by their URLs alone: the URL trees tell them apart (and would call a
    /// page with blank URL features a forum), the trees without URL features cannot.
    #[test]
    fn pages_without_a_web_address_are_classified_without_url_features() {
        let tree = docview_page::build(
            "<html><head><title>Kettle</title></head><body><p>A kettle.</p></body></html>",
        );
        let signals = PageSignals::of(&tree);
        let shape = |url: Option<String>| PageShape {
            url,
            page_type: "topic".to_string(),
            links: 0,
            visible_words: 2,
            topic_words: 2,
            paragraphs: 1,
            hub_blocks: 0,
        };
        let pages: Vec<Page> = (0..6)
            .flat_map(|n| {
                [
                    (
                        "product",
                        format!("https://s{n}.example/product/kettle-{n}"),
                    ),
                    ("forum", format!("https://f{n}.example/thread/{n}")),
                ]
            })
            .map(|(kind, url)| {
                let s = shape(Some(url));
                (kind.to_string(), signals.clone(), s, tree.title.clone())
            })
            .collect();
        let model = trained(&pages);
        let blank = model.without_url.as_ref().expect("trees without URL");
        assert_eq!(blank.len(), model.classes.len());
        let with = |url: &str| {
            model.probabilities(PageView {
                signals: &signals,
                shape: &shape(Some(url.to_string())),
                title: &tree.title,
            })
        };
        let product = with("https://s9.example/product/kettle-9");
        assert!(product[1] > product[0], "{product:?}");
        let forum = with("https://f9.example/thread/9");
        assert!(forum[0] > forum[1], "{forum:?}");
        let shapeless = shape(None);
        let view = PageView {
            signals: &signals,
            shape: &shapeless,
            title: &tree.title,
        };
        let mut row = Vec::new();
        push_row(&mut row, view, None, &model.vocab());
        let by =
            |stages: &[Stage]| -> Vec<f32> { stages.iter().map(|s| s.scores(&row)[0]).collect() };
        let p = model.probabilities(view);
        assert_eq!(p, by(blank));
        assert!((p[0] - p[1]).abs() < 1e-3, "no URL, nothing to tell: {p:?}");
        let by_url_trees = by(&model.stages);
        assert!(by_url_trees[0] > by_url_trees[1] + 0.2, "{by_url_trees:?}");
        // A model written before them reads back and classifies such a page by its URL trees.
        let mut old = trained(&pages);
        old.without_url = None;
        let back = TreeClassifier::from_json(&old.to_json(), "old.json").unwrap();
        assert!(back.without_url.is_none());
        assert!(!back.to_json().contains("without_url"));
    }

    #[test]
    fn one_class_is_not_enough() {
        let pages = [page("product", 1), page("product", 2)];
        let err = TreeClassifier::train(&views(&pages), params(), "kind", 1)
            .err()
            .expect("an error")
            .to_string();
        assert!(err.contains("at least two"), "{err}");
    }

    #[test]
    fn url_parts_and_words() {
        assert_eq!(
            url_parts("https://docs.example.com/api/v2/index.html?x=1#top"),
            ("/api/v2/index.html", "docs.example.com", true)
        );
        assert_eq!(url_parts("http://a.example"), ("", "a.example", false));
        assert_eq!(
            url_words("https://docs.example.com/api/Get-Started"),
            vec!["api", "docs", "get", "started"]
        );
        assert_eq!(title_words("The API: a guide"), vec!["api", "guide", "the"]);
    }
}
