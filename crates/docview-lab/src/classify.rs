//! Training and scoring the content classifier (issue 14, 004 §7.1) on labelled sets: each
//! page's Formula 2 vector of its topic content (cleaned by the default cleaner) and of the
//! raw page, its class from a field of its ground truth, and site-grouped k-fold
//! cross-validation (no site on both sides of a fold, as the learned cleaner's).

use std::collections::BTreeMap;
use std::path::Path;

use rayon::prelude::*;
use serde::Serialize;

use crate::Result;
use crate::eval::LabelledPage;
use crate::eval::blocks::{page_site, site_folds_of};
use crate::extract::topic::TopicPage;
use crate::extract::{PageLimits, extract_page_within};
use crate::input::read_page_bytes;
pub use docview_classify::Source;
use docview_classify::{
    ClassReport, Classification, Classifier, PageClassifier, PageShape, PageView, Params,
    TreeClassifier, TreeParams, with_shape,
};
use docview_collection::integrate::{HubEvidence, ListClass, page_shape};
use docview_measure::{FeatureVector, block_weights, feature_vector};
use docview_page::{PageSignals, PageType};
use docview_text::{Analyzer, Language};

/// One labelled page as the classifier sees it.
#[derive(Debug, Clone)]
pub struct ClassPage {
    /// Its labelled set's folder name.
    pub set: String,
    /// Its file id in the set.
    pub id: String,
    /// Its site (registered domain), for the folds.
    pub site: String,
    /// Its class.
    pub label: String,
    /// The vector of its topic content.
    pub topic: FeatureVector,
    /// The vector of the whole page.
    pub raw: FeatureVector,
    /// Its structural features.
    pub shape: PageShape,
    /// How much of its topic content is links, for its DocView type.
    pub hub: HubEvidence,
    /// Its signals, for the trees.
    pub signals: PageSignals,
    /// Its `<title>`.
    pub title: String,
    /// The language of its topic content.
    pub language: Language,
}

impl ClassPage {
    /// The vector of `source` with the structural terms at `structure` each.
    pub fn vector(&self, source: Source, structure: f32) -> FeatureVector {
        let v = match source {
            Source::Topic => &self.topic,
            Source::Raw => &self.raw,
        };
        with_shape(v.clone(), &self.shape, structure)
    }

    /// The page as the trees read it.
    pub fn view(&self) -> PageView<'_> {
        PageView {
            signals: &self.signals,
            shape: &self.shape,
            title: &self.title,
        }
    }
}

/// How a classifier is trained.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Method {
    /// The paper's kNN over the Formula 2 vectors of `Source`.
    Neighbours(Source, Params),
    /// Gradient-boosted trees over the pages' signals.
    Trees(TreeParams),
}

/// The class of `page` from the ground-truth field `field` (`page_type` is read with the
/// set; any other string field is read from the page's ground-truth file); `None` when it
/// has none.
fn label_of(page: &LabelledPage, field: &str) -> Result<Option<String>> {
    if field == "page_type" {
        return Ok(
            (page.page_type != crate::eval::UNKNOWN_PAGE_TYPE).then(|| page.page_type.clone())
        );
    }
    let truth = page.html_path.parent().and_then(Path::parent).map(|set| {
        set.join("ground-truth")
            .join(format!("{}.json", page.file_id))
    });
    let Some(truth) = truth else {
        return Ok(None);
    };
    let text = std::fs::read_to_string(&truth).map_err(|e| crate::Error::io(&truth, e))?;
    let json: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| crate::Error::Corpus {
            path: truth.clone(),
            reason: format!("malformed ground truth: {e}"),
        })?;
    Ok(json
        .get(field)
        .and_then(|v| v.as_str())
        .filter(|s| !s.is_empty())
        .map(str::to_string))
}

/// Reads, cleans and vectorises the pages of `sets` (each set's name and pages) whose ground
/// truth has `field`, on `threads` threads, in set and page order. Returns them and the number
/// of pages left out: without a label, or whose HTML cannot be read or is no page (empty,
/// binary), as `docview eval` counts its errors.
pub fn class_pages(
    sets: &[(String, Vec<LabelledPage>)],
    field: &str,
    threads: usize,
) -> Result<(Vec<ClassPage>, usize)> {
    labelled_pages(sets, threads, |_, page| label_of(page, field))
}

/// Reads, cleans and vectorises the pages of `sets` to which `label` (given the set's name and
/// the page) gives a class, as [`class_pages`] does with a ground-truth field.
pub fn labelled_pages(
    sets: &[(String, Vec<LabelledPage>)],
    threads: usize,
    label: impl Fn(&str, &LabelledPage) -> Result<Option<String>> + Sync,
) -> Result<(Vec<ClassPage>, usize)> {
    let cleaner = docview_clean::cleaner_of(docview_clean::CleanerKind::default())?;
    let analyzer = Analyzer::new();
    let pool = docview_collection::thread_pool(threads)?;
    let work: Vec<(&str, &LabelledPage)> = sets
        .iter()
        .flat_map(|(name, pages)| pages.iter().map(move |p| (name.as_str(), p)))
        .collect();
    let out: Vec<Result<Option<ClassPage>>> = pool.install(|| {
        work.par_iter()
            .map(|(set, page)| {
                let Some(label) = label(set, page)? else {
                    return Ok(None);
                };
                let extraction = read_page_bytes(&page.html_path)
                    .map_err(crate::Error::from)
                    .and_then(|bytes| {
                        Ok(extract_page_within(
                            &bytes,
                            None,
                            &page.file_id,
                            cleaner.as_ref(),
                            &PageLimits::default(),
                        )?)
                    });
                let Ok(extraction) = extraction else {
                    return Ok(None);
                };
                let topic_page = TopicPage::of(&extraction);
                let tree = &extraction.tree;
                let visible = tree.visible_nodes();
                let raw = feature_vector(
                    tree,
                    (0..tree.nodes.len() as u32).filter(|&i| visible[i as usize]),
                    &block_weights(tree),
                    &analyzer,
                    topic_page.language,
                );
                Ok(Some(ClassPage {
                    set: set.to_string(),
                    id: page.file_id.clone(),
                    site: page_site(page, set, tree),
                    label,
                    topic: topic_page.topic_features(&analyzer),
                    raw,
                    // Its web address: the URL its ground truth gives (five of wcxb-dev's
                    // pages have none, and none is given them).
                    shape: page_shape(
                        Some(page.url.as_str()).filter(|u| !u.is_empty()),
                        &topic_page,
                    ),
                    hub: HubEvidence::of(&topic_page),
                    signals: topic_page.signals.clone(),
                    title: topic_page.title.clone(),
                    language: topic_page.language,
                }))
            })
            .collect()
    });
    let mut pages = Vec::new();
    let mut left_out = 0;
    for r in out {
        match r? {
            Some(p) => pages.push(p),
            None => left_out += 1,
        }
    }
    Ok((pages, left_out))
}

/// Trains a classifier on `pages` by `method`; `scheme` names the classes; `threads` for the
/// trees (the model does not depend on it).
pub fn train(
    pages: &[ClassPage],
    method: Method,
    scheme: &str,
    threads: usize,
) -> Result<PageClassifier> {
    Ok(match method {
        Method::Neighbours(source, params) => {
            let data: Vec<(String, FeatureVector)> = pages
                .iter()
                .map(|p| (p.label.clone(), p.vector(source, params.structure)))
                .collect();
            PageClassifier::Neighbours(Classifier::train(&data, params, scheme, source.as_str())?)
        }
        Method::Trees(params) => {
            let data: Vec<(String, PageView<'_>)> =
                pages.iter().map(|p| (p.label.clone(), p.view())).collect();
            PageClassifier::Trees(TreeClassifier::train(&data, params, scheme, threads)?)
        }
    })
}

/// The class `model` gives `page`: by the vector of the kNN's source, or by its view.
fn predict(model: &PageClassifier, page: &ClassPage) -> Option<Classification> {
    match model {
        PageClassifier::Neighbours(m) => {
            let source = if m.source == Source::Raw.as_str() {
                Source::Raw
            } else {
                Source::Topic
            };
            m.classify_by_neighbours(&page.vector(source, m.params.structure))
        }
        PageClassifier::Trees(m) => Some(m.classify(page.view())),
    }
}

/// Scores `model` on `pages`.
pub fn evaluate(model: &PageClassifier, pages: &[ClassPage]) -> ClassReport {
    let pairs: Vec<(String, Option<String>)> = pages
        .par_iter()
        .map(|p| (p.label.clone(), predict(model, p).map(|c| c.class)))
        .collect();
    ClassReport::of(&pairs)
}

/// One page's class as a cross-validation predicted it, with the page's shape: a line of
/// `classify eval --predictions`, from which a rule that reads the class beside the cleaner's
/// evidence (the DocView's hub type) can be measured on classes the model did not learn from
/// the page.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Prediction {
    /// The page's set.
    pub set: String,
    /// Its file id.
    pub id: String,
    /// Its class.
    pub label: String,
    /// The class predicted by the model of the folds without its site (none: the model gave
    /// none).
    pub predicted: Option<String>,
    /// Its page type of §4.1 (the cleaner's topic, hub or image).
    pub page_type: String,
    /// Links of its kept and hub blocks.
    pub links: usize,
    /// Words of its visible text.
    pub visible_words: usize,
    /// Words of its topic content.
    pub topic_words: usize,
    /// Paragraphs of its topic content.
    pub paragraphs: usize,
    /// Its hub blocks.
    pub hub_blocks: usize,
    /// Links in its topic content.
    pub topic_links: usize,
    /// Terms of those links' anchor texts.
    pub anchor_terms: usize,
    /// Terms of its topic content (as the DocView type counts them).
    pub topic_terms: usize,
    /// Its DocView type from the cleaner's type and the predicted class
    /// ([`HubEvidence::docview_type`]).
    pub docview_type: PageType,
    /// What the model says of the classes of lists, which the DocView type reads
    /// ([`ListClass`]; none: the model gave no class).
    pub list_class: Option<ListClass>,
}

/// What a cross-validation gives: the report over all pages, the training seconds per fold
/// and each page's prediction, in page order.
#[derive(Debug, Clone)]
pub struct CrossValidation {
    /// The report over all pages.
    pub report: ClassReport,
    /// Training seconds per fold.
    pub train_secs: Vec<f64>,
    /// Each page's prediction.
    pub predictions: Vec<Prediction>,
}

impl CrossValidation {
    /// Per class of the truth, its pages typed hub in their DocView and all its pages.
    pub fn typed_hubs(&self) -> BTreeMap<&str, (usize, usize)> {
        let mut by_class: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
        for p in &self.predictions {
            let e = by_class.entry(p.label.as_str()).or_default();
            e.0 += usize::from(p.docview_type == PageType::Hub);
            e.1 += 1;
        }
        by_class
    }

    /// [`CrossValidation::typed_hubs`] as lines of text: `listing 81 of 101 (80.2%)`.
    pub fn render_typed_hubs(&self) -> String {
        let mut out = String::from(
            "DocView type hub, by class (the predicted class and the cleaner's type):\n",
        );
        for (class, (hubs, pages)) in self.typed_hubs() {
            out.push_str(&format!(
                "  {class:<16} {hubs:>5} of {pages:<5} ({:.1}%)\n",
                100.0 * hubs as f64 / pages.max(1) as f64
            ));
        }
        out
    }
}

/// Site-grouped `folds`-fold cross-validation: a classifier trained on the other folds
/// classifies each fold's pages; no site is on both sides.
pub fn cross_validate(
    pages: &[ClassPage],
    method: Method,
    scheme: &str,
    folds: usize,
    threads: usize,
) -> Result<CrossValidation> {
    let fold_of: BTreeMap<String, usize> =
        site_folds_of(pages.iter().map(|p| p.site.as_str()), folds);
    let mut pairs: Vec<(usize, String, Option<String>, Option<ListClass>)> = Vec::new();
    let mut train_secs = Vec::new();
    for f in 0..folds {
        let train_on: Vec<ClassPage> = pages
            .iter()
            .filter(|p| fold_of[&p.site] != f)
            .cloned()
            .collect();
        let start = std::time::Instant::now();
        let model = train(&train_on, method, scheme, threads)?;
        train_secs.push(start.elapsed().as_secs_f64());
        let scored: Vec<(usize, String, Option<String>, Option<ListClass>)> = pages
            .par_iter()
            .enumerate()
            .filter(|(_, p)| fold_of[&p.site] == f)
            .map(|(i, p)| {
                let c = predict(&model, p);
                let share = c.as_ref().and_then(|c| ListClass::of(c, model.classes()));
                (i, p.label.clone(), c.map(|c| c.class), share)
            })
            .collect();
        pairs.extend(scored);
    }
    pairs.sort_by_key(|p| p.0);
    let predictions = pairs
        .iter()
        .map(|(i, label, predicted, share)| {
            let page = &pages[*i];
            Prediction {
                set: page.set.clone(),
                id: page.id.clone(),
                label: label.clone(),
                predicted: predicted.clone(),
                page_type: page.shape.page_type.clone(),
                links: page.shape.links,
                visible_words: page.shape.visible_words,
                topic_words: page.shape.topic_words,
                paragraphs: page.shape.paragraphs,
                hub_blocks: page.shape.hub_blocks,
                topic_links: page.hub.topic_links,
                anchor_terms: page.hub.anchor_terms,
                topic_terms: page.hub.topic_terms,
                docview_type: page.hub.docview_type(*share),
                list_class: *share,
            }
        })
        .collect();
    let pairs: Vec<(String, Option<String>)> =
        pairs.into_iter().map(|(_, t, p, _)| (t, p)).collect();
    Ok(CrossValidation {
        report: ClassReport::of(&pairs),
        train_secs,
        predictions,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(site: &str, label: &str, terms: &[&str]) -> ClassPage {
        let n = (terms.len() as f32).sqrt();
        let mut features: Vec<(String, f32)> =
            terms.iter().map(|t| (t.to_string(), 1.0 / n)).collect();
        features.sort_by(|a, b| a.0.cmp(&b.0));
        let v = FeatureVector { features };
        ClassPage {
            set: "tiny-dev".to_string(),
            id: format!("{site}-{label}-{}", terms.join("-")),
            site: site.to_string(),
            label: label.to_string(),
            topic: v.clone(),
            raw: v,
            shape: PageShape::default(),
            hub: HubEvidence {
                cleaner_type: PageType::Topic,
                topic_links: 0,
                anchor_terms: 0,
                topic_terms: terms.len(),
                paragraphs: 1,
            },
            signals: PageSignals::default(),
            title: String::new(),
            language: Language::English,
        }
    }

    /// Six sites of two kinds: every page is scored by a model that never saw its site, and
    /// the words of each kind carry across sites.
    #[test]
    fn cross_validation_keeps_each_site_on_one_side() {
        let mut pages = Vec::new();
        for s in 0..3 {
            pages.push(page(
                &format!("shop{s}"),
                "shop",
                &["price", "cart", &format!("s{s}")],
            ));
            pages.push(page(
                &format!("shop{s}"),
                "shop",
                &["price", "basket", &format!("s{s}")],
            ));
            pages.push(page(
                &format!("news{s}"),
                "news",
                &["minister", "vote", &format!("n{s}")],
            ));
        }
        let params = Params {
            k: 3,
            terms_per_class: 10,
            structure: 0.0,
        };
        let method = Method::Neighbours(Source::Topic, params);
        let CrossValidation {
            report,
            train_secs,
            predictions,
        } = cross_validate(&pages, method, "kind", 3, 1).unwrap();
        assert_eq!(train_secs.len(), 3);
        assert_eq!(report.pages, 9);
        assert_eq!(report.accuracy, 1.0, "{}", report.render());
        // One prediction a page, in page order, each the page's own class here.
        assert_eq!(predictions.len(), pages.len());
        for (p, page) in predictions.iter().zip(&pages) {
            assert_eq!((&p.id, &p.label), (&page.id, &page.label));
            assert_eq!(p.predicted.as_ref(), Some(&page.label));
            assert_eq!(p.docview_type, PageType::Topic, "no links, no hub class");
        }
        let folds = site_folds_of(pages.iter().map(|p| p.site.as_str()), 3);
        assert_eq!(folds.len(), 6, "one fold per site");
    }
}
