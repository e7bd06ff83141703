//! Web page integration (004 §6): one cleaned page into a [`DocView`] record, the paper's eight
//! elements (identifier, type, classification code, title, keywords, abstract, topic content,
//! relevant hyperlinks) plus what a user of the records needs next to them (language, the
//! original title, the URLs of the page's replicas).
//!
//! Every element is computed from the one topic feature vector (Formula 2, with the
//! collection's IDF and stop words), so a page is measured once: keywords are its λ heaviest
//! features, the title falls back to the heaviest one or two, abstract sentences are weighed by
//! the θ heaviest, and hub blocks are judged by their cosine with it.

mod abstracts;
mod address;
mod links;
mod page_type;
mod title;

use std::collections::HashMap;

use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};
use url::Url;

use crate::site::{PageUrl, Site};

use crate::extract::Metadata;
use crate::measure::FeatureVector;
use crate::page::PageType;
use crate::stats::CollectionStats;
use crate::text::{Analyzer, Language};
use crate::text::{count_term, date_words, is_duration};
use crate::topic::TopicPage;
use docview_classify::{NoSubject, PageShape, SubjectClassifier, SubjectOf};

pub use abstracts::{allot_sentences, extract_abstract};
pub use address::{declared_address, web_address};
pub use links::{LinkBase, LinkBaseSource, RelevantLink, link_base, relevant_links};
pub use page_type::{
    HUB_CLASS_SHARE, HUB_CLASSES, HUB_LINK_SHARE, HubEvidence, ITEM_TERMS, LIST_LINK_SHARE,
    LIST_LINKS, ListClass, TILE_TERMS,
};
pub use title::{is_meaningless_title, title_of};

/// The user-tunable parameters of integration.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct IntegrateParams {
    /// λ: number of keywords.
    pub keywords: usize,
    /// δ: number of sentences in the abstract.
    pub sentences: usize,
    /// θ: number of keywords that weigh the sentences.
    pub theta: usize,
    /// β: a hub block's links are relevant when its cosine with the topic exceeds this.
    pub beta: f32,
}

impl Default for IntegrateParams {
    fn default() -> Self {
        IntegrateParams {
            keywords: 15,
            sentences: 15,
            theta: 15,
            beta: 0.1,
        }
    }
}

/// One page as a DocView record (004 §2): what `docviews.jsonl` holds, one per kept page.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DocView {
    /// The page's URL.
    pub identifier: String,
    /// Topic, hub or image: the cleaner's decision (§4.1) and the classifier's class together
    /// ([`HubEvidence::docview_type`]).
    #[serde(rename = "type")]
    pub page_type: PageType,
    /// The content classification code (§2): the page's subject, a code of the subject
    /// model's formal scheme (by default the IPTC Media Topics' top level,
    /// `medtop:15000000`); empty when the page has none (`subject` says why) or without a
    /// classifier.
    pub classification_code: String,
    /// The subject behind the code: scheme, code, label and score, or why there is none, and
    /// the model; `None` without a classifier.
    #[serde(default)]
    pub subject: Option<SubjectRecord>,
    /// The page's genre (wcxb-dev's page types by default: article, listing, product ...) from
    /// the genre classifier: scheme, class, score, whether it is by prior, and the model; it
    /// also decides the DocView type. `None` without a classifier.
    #[serde(alias = "classification")]
    pub genre: Option<Classification>,
    /// The `<title>`, or the one or two heaviest keywords when the title means nothing.
    pub title: String,
    /// The λ heaviest features of the topic content, as words of the page.
    pub keywords: Vec<String>,
    /// δ key sentences of the topic content's paragraphs, in page order.
    #[serde(rename = "abstract")]
    pub abstract_text: String,
    /// The topic content as plain text.
    pub topic_content: String,
    /// Links to pages relevant to the topic content.
    pub relevant_links: Vec<RelevantLink>,
    /// The language of the topic content (ISO 639-1 code, `und` when unknown).
    pub language: String,
    /// The `<title>` as the page gave it.
    pub original_title: String,
    /// True when `title` was made from keywords because the page's own meant nothing.
    pub title_from_keywords: bool,
    /// True when cleaning kept no text of the page (its topic content is empty).
    pub topic_content_empty: bool,
    /// How the page was cut to the page limits (`--max-page-mb`, `--max-page-tags`), when it
    /// was: only its first part was cleaned.
    pub truncated: Option<String>,
    /// The URL the page's relative links were resolved against (empty when none).
    pub link_base: String,
    /// Where `link_base` came from: the page's `<base href>`, its canonical link or `og:url`
    /// (a local file's web address), the record's URL, or none.
    pub link_base_source: LinkBaseSource,
    /// URLs of the pages removed as replicas of this one.
    pub replicas: Vec<String>,
    /// What the page declares about itself: author, published and modified dates (ISO
    /// 8601), site name, canonical URL, declared language, each with its source (`null` when
    /// it does not say).
    #[serde(default)]
    pub metadata: Metadata,
    /// The topic content as Markdown (`ingest --markdown`; absent otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub topic_markdown: Option<String>,
}

/// A page's subject as its record carries it: a code of the subject model's scheme with its
/// label and score, or none and why.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SubjectRecord {
    /// The scheme's name (`iptc-mediatopic`).
    pub scheme: String,
    /// The subject's code, the record's classification code; `None` when it has none.
    pub code: Option<String>,
    /// The subject's label; `None` when it has none.
    pub label: Option<String>,
    /// The best subject's score, 0 to 1 (the model's probability or share of votes; 0 when no
    /// term of the page is one the model knows).
    pub score: f32,
    /// Why the page has no subject (`below-threshold`, `no-known-term`); `None` when it has one.
    pub reason: Option<NoSubject>,
    /// The model: format, version and the MD5 of its file.
    pub model: String,
}

/// A subject model as integration uses it: the model and the name its records give it.
#[derive(Debug, Clone, Copy)]
pub struct SubjectRef<'a> {
    /// The model.
    pub model: &'a SubjectClassifier,
    /// `docview-subject-classifier v1 <md5>`.
    pub name: &'a str,
}

impl SubjectRef<'_> {
    /// The subject of a page whose topic content's Formula 2 vector is `features`.
    pub fn subject_of(&self, features: &FeatureVector) -> SubjectRecord {
        let (code, label, score, reason) = match self.model.classify(features) {
            SubjectOf::Subject(s) => (Some(s.code), Some(s.label), s.score, None),
            SubjectOf::None { reason, best } => {
                (None, None, best.map_or(0.0, |b| b.score), Some(reason))
            }
        };
        SubjectRecord {
            scheme: self.model.scheme.name.clone(),
            code,
            label,
            score,
            reason,
            model: self.name.to_string(),
        }
    }
}

/// The DocView's classification code (§2) of a page whose subject is `subject`: the subject's
/// code, empty when the page has none or no subject model classified it.
pub fn classification_code(subject: Option<&SubjectRecord>) -> String {
    subject.and_then(|s| s.code.clone()).unwrap_or_default()
}

/// The name records give a subject model whose file (or embedded bytes) has MD5 `digest`.
pub fn subject_model_name(model: &SubjectClassifier, digest: &str) -> String {
    format!("{} {digest}", model.format_version())
}

/// What the classifiers say of a page: its genre, the DocView type it gives, and its subject
/// when there is a subject model.
#[derive(Debug, Clone, PartialEq)]
pub struct Classified {
    /// The genre.
    pub genre: Classification,
    /// The DocView type from the cleaner's type and the genre.
    pub page_type: PageType,
    /// The subject, with a subject model.
    pub subject: Option<SubjectRecord>,
}

/// What the genre classifier said of a page.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Classification {
    /// What the classes are (the ground-truth field the model was trained on).
    pub scheme: String,
    /// The class.
    pub class: String,
    /// How sure the model is, 0 to 1: for the trees, the class's probability as a share of
    /// all classes'; for the kNN, its share of the nearest training pages' votes (by prior:
    /// its share of the training pages).
    pub score: f32,
    /// kNN only: true when no training page shared a term with the topic content (an empty
    /// page, a language the training pages lack): the class is the model's most frequent.
    pub prior: bool,
    /// The model: format version and the MD5 of its file.
    pub model: String,
}

impl Classification {
    /// `scheme:class` (`page_type:article`).
    pub fn code(&self) -> String {
        format!("{}:{}", self.scheme, self.class)
    }
}

/// The classifiers as integration uses them: the genre model and the name its records give
/// it, and the subject model if any.
#[derive(Debug, Clone, Copy)]
pub struct ClassifierRef<'a> {
    /// The genre model.
    pub model: &'a docview_classify::PageClassifier,
    /// `docview-classifier-trees v1 <md5>`.
    pub name: &'a str,
    /// The subject model, which fills the classification code.
    pub subjects: Option<SubjectRef<'a>>,
}

impl ClassifierRef<'_> {
    /// The classification of a cleaned page found at `url` (its web address from the URL or
    /// the page's declared one, [`web_address`]) and the DocView type it gives with the
    /// page's topic content ([`HubEvidence::docview_type`]): what integration writes in the
    /// record, and what the Python module's `extract` gives. `evidence` is
    /// [`HubEvidence::of`] the page.
    pub fn classify_page(
        &self,
        url: &PageUrl<'_>,
        features: &FeatureVector,
        page: &TopicPage,
        evidence: &HubEvidence,
    ) -> Classified {
        let address = web_address(url, page);
        let shape = page_shape(address.as_deref(), page);
        let c = self.model.classify(
            features,
            docview_classify::PageView {
                signals: &page.signals,
                shape: &shape,
                title: &page.title,
            },
        );
        let page_type = evidence.docview_type(ListClass::of(&c, self.model.classes()));
        let genre = Classification {
            scheme: self.model.scheme().to_string(),
            class: c.class,
            score: c.score,
            prior: c.prior,
            model: self.name.to_string(),
        };
        Classified {
            genre,
            page_type,
            subject: self.subjects.map(|s| s.subject_of(features)),
        }
    }

    /// The classification of a page cleaned alone, outside a collection (`extract`'s lines,
    /// the Python module's `extract`), found at `url` (`None`: no address), as
    /// [`ClassifierRef::classify_page`] gives it in an ingest. The genre trees (the embedded
    /// model) read the page's signals, shape and title, not its Formula 2 vector, which costs
    /// a fifth of the page's time: it is computed for a kNN or a subject model only.
    pub fn classify_alone(
        &self,
        url: Option<&str>,
        page: &TopicPage,
        analyzer: &Analyzer,
    ) -> Classified {
        let needs_vector = self.subjects.is_some()
            || matches!(self.model, docview_classify::PageClassifier::Neighbours(_));
        let features = if needs_vector {
            page.topic_features(analyzer)
        } else {
            FeatureVector::default()
        };
        let url = PageUrl::parse(url.unwrap_or(""));
        self.classify_page(&url, &features, page, &HubEvidence::of(page))
    }
}

/// The structural features of a cleaned page whose web address is `address` (none: the
/// classifier reads no URL features; [`web_address`]), as the classifier reads them.
pub fn page_shape(address: Option<&str>, page: &TopicPage) -> PageShape {
    PageShape {
        url: address.map(str::to_string),
        page_type: page.page_type.as_str().to_string(),
        links: page.links.len(),
        visible_words: page.visible_text.split_whitespace().count(),
        topic_words: page.topic_text.split_whitespace().count(),
        paragraphs: page.paragraphs.len(),
        hub_blocks: page.hub_blocks.len(),
    }
}

/// The name records give `model`, whose file (or embedded bytes) has MD5 `digest`.
pub fn classifier_name(model: &docview_classify::PageClassifier, digest: &str) -> String {
    format!("{} {digest}", model.format_version())
}

/// A page's DocView with the measures replica removal needs.
#[derive(Debug, Clone)]
pub struct Integrated {
    /// The record.
    pub docview: DocView,
    /// The features of the topic content and their frequencies (Step 1 of §5), sorted by feature.
    pub term_counts: Vec<(String, u32)>,
}

/// What integration needs to know beyond the page.
#[derive(Debug, Clone, Copy)]
pub struct Context<'a> {
    /// The analyzer, with the collection's aggressive stop words.
    pub analyzer: &'a Analyzer,
    /// The collection statistics (IDF, shared titles).
    pub stats: &'a CollectionStats,
    /// The parameters.
    pub params: IntegrateParams,
    /// The classifier that fills the classification code, if any.
    pub classifier: Option<ClassifierRef<'a>>,
}

/// One page alone, bytes to DocView, with the default (learned) cleaner, the default limits
/// and no collection statistics: the whole page path in one call, which the fuzz target and
/// its stable replay test (`tests/it/fuzz_replay.rs`) drive.
pub fn page_docview(bytes: &[u8], url: &str) -> crate::Result<DocView> {
    let cleaner = crate::clean::cleaner_of(crate::clean::CleanerKind::default())?;
    let page = TopicPage::of(&crate::extract::extract_page(
        bytes,
        None,
        url,
        cleaner.as_ref(),
    )?);
    let analyzer = Analyzer::new();
    let stats = CollectionStats::default();
    let cx = Context {
        analyzer: &analyzer,
        stats: &stats,
        params: IntegrateParams::default(),
        classifier: None,
    };
    Ok(integrate(&PageUrl::parse(url), &page, cx).docview)
}

/// Integrates one cleaned page, found at `url` on `site`, into its DocView.
pub fn integrate(url: &PageUrl<'_>, page: &TopicPage, cx: Context<'_>) -> Integrated {
    let site = url.site().map(Site::name);
    let lang = page.language;
    let features = page.topic_features(cx.analyzer);
    // Its counts of links and terms, read once: the type and the empty flag both use them.
    let evidence = HubEvidence::of(page);
    let (genre, subject, page_type) = match cx.classifier {
        Some(c) => {
            let c = c.classify_page(url, &features, page, &evidence);
            (Some(c.genre), c.subject, c.page_type)
        }
        None => (None, None, evidence.docview_type(None)),
    };
    let vector = features.scaled_by(|t| cx.stats.idf(t));
    let topic = &page.topic_text;
    let ranked = ranked_features(&vector, topic, lang, cx);
    let TopicTerms {
        term_counts,
        surfaces,
    } = topic_terms(topic, lang, cx.analyzer, &ranked);
    let keywords: Vec<String> = ranked
        .iter()
        .take(cx.params.keywords)
        .map(|(t, _)| {
            surfaces
                .get(t.as_str())
                .cloned()
                .unwrap_or_else(|| t.clone())
        })
        .collect();
    let original_title = page.title.clone();
    let (title, title_from_keywords) = title_of(
        &original_title,
        page.headline.as_deref(),
        site,
        cx.stats,
        &keywords,
        lang,
    );
    let theta: Vec<(String, f32)> = ranked.iter().take(cx.params.theta).cloned().collect();
    let abstract_text = extract_abstract(
        &page.paragraphs,
        &theta,
        cx.params.sentences,
        cx.analyzer,
        lang,
    );
    let base = link_base(url, page);
    let relevant_links = relevant_links(&base, page, &vector, cx);
    Integrated {
        docview: DocView {
            identifier: url.as_str().to_string(),
            page_type,
            classification_code: classification_code(subject.as_ref()),
            subject,
            genre,
            title,
            keywords,
            abstract_text,
            topic_content: topic.clone(),
            relevant_links,
            language: lang.code().to_string(),
            original_title,
            title_from_keywords,
            topic_content_empty: evidence.topic_terms == 0,
            truncated: page.truncated.clone(),
            link_base: base.url.as_ref().map(Url::to_string).unwrap_or_default(),
            link_base_source: base.source,
            replicas: Vec::new(),
            metadata: page.metadata.clone(),
            topic_markdown: page.markdown.clone(),
        },
        term_counts,
    }
}

/// The `max(λ, θ)` heaviest features of the topic vector that are not dates or durations (a
/// listing's "Mar 07 · 4 min read" says when, not what: [`crate::text::date_words`]).
fn ranked_features(
    vector: &FeatureVector,
    topic: &str,
    lang: Language,
    cx: Context<'_>,
) -> Vec<(String, f32)> {
    let mut dates: Vec<String> = date_words(topic)
        .iter()
        .flat_map(|w| cx.analyzer.terms(w, lang))
        .collect();
    dates.sort_unstable();
    vector
        .top(usize::MAX)
        .into_iter()
        .filter(|(t, _)| !is_duration(t) && dates.binary_search(t).is_err())
        .take(cx.params.keywords.max(cx.params.theta))
        .collect()
}

/// What one reading of the topic content gives: its term counts and the surface forms of
/// the ranked features.
struct TopicTerms {
    /// The features of the text and their frequencies, sorted by feature.
    term_counts: Vec<(String, u32)>,
    /// For each of the ranked features, the word of the text it most often comes from
    /// (features are stems: `river` for "rivers"); features whose word is the feature itself
    /// are left out. Empty for Chinese and Japanese text, whose features are the words
    /// themselves (Latin words inside are rare enough to show stemmed).
    surfaces: HashMap<String, String>,
}

/// The term counts of `text` and the surface forms of the `ranked` features (see
/// [`TopicTerms`]), from one reading of the text where it has no ideographs: each word's term
/// counts, and the term of its lowercased form (which the surface forms are keyed by) is the
/// same term for an ASCII word; a non-ASCII word is lowercased and analysed on its own, as is
/// every word of text with ideographs.
fn topic_terms(
    text: &str,
    lang: Language,
    analyzer: &Analyzer,
    ranked: &[(String, f32)],
) -> TopicTerms {
    let mut counts: FxHashMap<String, u32> = FxHashMap::default();
    let mut count = |term: &str| count_term(&mut counts, term);
    let mut surfaces = HashMap::new();
    if lang.writes_without_spaces() && !text.is_ascii() {
        analyzer.for_each_term(text, lang, count);
    } else {
        let mut forms = SurfaceForms::new(ranked);
        let read = analyzer.for_each_word_term(text, lang, |word, term| {
            if let Some(term) = term {
                count(term);
            }
            if word.is_ascii() {
                forms.ascii_word(word, term);
            } else {
                forms.word(word, lang, analyzer);
            }
        });
        if !read {
            analyzer.for_each_term(text, lang, count);
            forms = SurfaceForms::new(ranked);
            for word in unicode_segmentation::UnicodeSegmentation::unicode_words(text) {
                forms.word(word, lang, analyzer);
            }
        }
        surfaces = forms.finish(ranked);
    }
    let mut term_counts: Vec<(String, u32)> = counts.into_iter().collect();
    term_counts.sort_unstable();
    TopicTerms {
        term_counts,
        surfaces,
    }
}

/// The words of a text that give the ranked features, counted as the text is read word by word.
struct SurfaceForms<'a> {
    /// Each ranked feature and its rank.
    wanted: FxHashMap<&'a str, usize>,
    /// Per ranked feature: lowercased word -> (count, position of its first occurrence).
    seen: Vec<FxHashMap<String, (u32, usize)>>,
    /// Words read so far.
    position: usize,
}

impl<'a> SurfaceForms<'a> {
    fn new(ranked: &'a [(String, f32)]) -> SurfaceForms<'a> {
        SurfaceForms {
            wanted: ranked
                .iter()
                .enumerate()
                .map(|(i, (t, _))| (t.as_str(), i))
                .collect(),
            seen: vec![FxHashMap::default(); ranked.len()],
            position: 0,
        }
    }

    /// The next word, ASCII, whose term (as the text's reading gave it) is `term`: an ASCII
    /// word lowercased gives the same term, so it is not analysed again.
    fn ascii_word(&mut self, word: &str, term: Option<&str>) {
        self.position += 1;
        if let Some(&i) = term.and_then(|t| self.wanted.get(t)) {
            self.add(i, word.to_ascii_lowercase());
        }
    }

    /// The next word: lowercased, and its first ranked feature found by analysing it alone.
    fn word(&mut self, word: &str, lang: Language, analyzer: &Analyzer) {
        self.position += 1;
        let lower = word.to_lowercase();
        let mut feature = None;
        analyzer.for_each_term(&lower, lang, |t| {
            if feature.is_none() {
                feature = self.wanted.get(t).copied();
            }
        });
        if let Some(i) = feature {
            self.add(i, lower);
        }
    }

    fn add(&mut self, feature: usize, lower: String) {
        let entry = self.seen[feature]
            .entry(lower)
            .or_insert((0, self.position));
        entry.0 += 1;
    }

    /// Per ranked feature, its most frequent word (the first met among equals), unless that
    /// is the feature itself.
    fn finish(self, ranked: &[(String, f32)]) -> HashMap<String, String> {
        let mut out = HashMap::new();
        for (i, words) in self.seen.into_iter().enumerate() {
            let best = words
                .into_iter()
                .max_by(|a, b| a.1.0.cmp(&b.1.0).then_with(|| b.1.1.cmp(&a.1.1)));
            if let Some((word, _)) = best
                && word != ranked[i].0
            {
                out.insert(ranked[i].0.clone(), word);
            }
        }
        out
    }
}

#[cfg(test)]
pub(crate) mod tests;
