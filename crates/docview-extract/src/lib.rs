//! One crawled page through the whole cleaning stage: bytes to text in the page's charset, the
//! markup tag tree, a cleaner. What `docview extract` and `docview eval` run for each page.

#![deny(missing_docs)]

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use docview_clean::{Cleaned, Cleaner, SiteModel, Verdict};
use docview_input::{CharsetSource, MAX_PAGE_BYTES, decode_html, looks_binary};
use docview_measure::{FeatureVector, feature_vector};
use docview_page::{Hint, NodeId, PageType, TagTree, build, tag_limit_offset};
use docview_text::{Analyzer, Language, count_tokens, detect_language, language_from_tag};
mod address;
mod comments;
mod error;
mod markdown;
mod metadata;
pub mod topic;

pub use address::{declared_address, known_address};
pub use comments::comments_of;
pub use error::{Error, NotAPage, Result};
pub use markdown::{Keep, to_markdown};
pub use metadata::{
    Day, MetaSource, Metadata, SiteNames, Sourced, SourcedList, cut_site_name, iso_date,
    metadata_of, today,
};

/// Limits that bound what one page costs: html5ever's DOM of a page takes about 30 times its
/// size, and a page of tiny elements more, so a 50 MB page would take over 1.5 GB. A page past
/// a limit is cut there (its first part cleaned, as a browser shows what has loaded) and its
/// record says so.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct PageLimits {
    /// Most bytes of decoded HTML parsed.
    pub max_html_bytes: usize,
    /// Most elements (start tags) parsed.
    pub max_tags: usize,
}

impl Default for PageLimits {
    fn default() -> Self {
        PageLimits {
            max_html_bytes: 8 << 20,
            max_tags: 500_000,
        }
    }
}

impl PageLimits {
    /// Checks that both limits are at least 1.
    pub fn validate(&self) -> Result<()> {
        if self.max_html_bytes == 0 {
            return Err(Error::setting("max-page-mb", "must be at least 1"));
        }
        if self.max_tags == 0 {
            return Err(Error::setting("max-page-tags", "must be at least 1"));
        }
        Ok(())
    }

    /// `html` cut at the limits, and what was cut when it was; `page` is the size of the page
    /// `html` was decoded from, as the message tells it.
    pub fn apply<'a>(&self, html: &'a str, page: PageSize) -> (&'a str, Option<String>) {
        let mut cut = html;
        let mut why = None;
        if cut.len() > self.max_html_bytes {
            let mut at = self.max_html_bytes;
            while !cut.is_char_boundary(at) {
                at -= 1;
            }
            cut = &cut[..at];
            why = Some(format!("HTML cut at byte {at} of {page} (--max-page-mb)"));
        }
        if let Some(at) = tag_limit_offset(cut, self.max_tags) {
            cut = &cut[..at];
            why = Some(format!(
                "HTML cut after {} elements, at byte {at} of {page} (--max-page-tags)",
                self.max_tags
            ));
        }
        (cut, why)
    }
}

/// The size of a page before it was decoded, as a message about its cuts tells it: its bytes,
/// or at least so many when the reader kept only the first [`MAX_PAGE_BYTES`] of it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageSize {
    /// The bytes read of the page.
    pub bytes: usize,
    /// True when they are the whole page.
    pub whole: bool,
}

impl PageSize {
    /// The size of a page whose reader handed over `bytes` bytes: the whole page unless they
    /// are the reader's cap.
    pub fn of_read(bytes: usize) -> PageSize {
        PageSize {
            bytes,
            whole: bytes < MAX_PAGE_BYTES,
        }
    }
}

impl std::fmt::Display for PageSize {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if self.whole {
            write!(f, "a page of {} bytes", self.bytes)
        } else {
            write!(
                f,
                "a page of at least {} bytes (only its first {} MiB are read)",
                self.bytes,
                MAX_PAGE_BYTES >> 20
            )
        }
    }
}

/// A cleaned page with what it was made from.
#[derive(Debug, Clone)]
pub struct Extraction {
    /// The charset the bytes were decoded with.
    pub charset: &'static str,
    /// Where that charset came from.
    pub charset_source: CharsetSource,
    /// The page's markup tag tree.
    pub tree: TagTree,
    /// What the cleaner kept.
    pub cleaned: Cleaned,
    /// How the page was cut to its [`PageLimits`], when it was.
    pub truncated: Option<String>,
}

/// Decodes, parses and cleans one page within the default [`PageLimits`]. `input` names the
/// page in errors (a path, a URL).
///
/// Empty input and binary data (an image, an archive) are errors; anything else gives a
/// best-effort result, however broken its markup.
pub fn extract_page(
    bytes: &[u8],
    http_charset: Option<&str>,
    input: &str,
    cleaner: &dyn Cleaner,
) -> Result<Extraction> {
    extract_page_within(bytes, http_charset, input, cleaner, &PageLimits::default())
}

/// [`extract_page`] within `limits`.
pub fn extract_page_within(
    bytes: &[u8],
    http_charset: Option<&str>,
    input: &str,
    cleaner: &dyn Cleaner,
    limits: &PageLimits,
) -> Result<Extraction> {
    extract_page_in_site(bytes, http_charset, input, None, cleaner, None, limits)
}

/// [`extract_page_within`] for a page of a site whose model a site-aware cleaner learnt
/// ([`Cleaner::clean_in_site`]); `None` is a page alone. `url`, the page's URL when known,
/// becomes its tree's [`TagTree::url`].
pub fn extract_page_in_site(
    bytes: &[u8],
    http_charset: Option<&str>,
    input: &str,
    url: Option<&str>,
    cleaner: &dyn Cleaner,
    site: Option<&SiteModel>,
    limits: &PageLimits,
) -> Result<Extraction> {
    let mut parsed = parse_page(bytes, http_charset, input, limits)?;
    parsed.tree.url = url.map(str::to_string);
    let cleaned = cleaner.clean_in_site(&parsed.tree, site);
    Ok(Extraction {
        charset: parsed.charset,
        charset_source: parsed.charset_source,
        tree: parsed.tree,
        cleaned,
        truncated: parsed.truncated,
    })
}

/// A page decoded and parsed into its tag tree, not yet cleaned.
#[derive(Debug, Clone)]
pub struct Parsed {
    /// The charset the bytes were decoded with.
    pub charset: &'static str,
    /// Where that charset came from.
    pub charset_source: CharsetSource,
    /// The page's markup tag tree.
    pub tree: TagTree,
    /// How the page was cut to its [`PageLimits`], when it was.
    pub truncated: Option<String>,
}

/// Decodes and parses one page within `limits`: what [`extract_page_within`] does before it
/// cleans, for callers that look at the tree itself (block labelling, training).
pub fn parse_page(
    bytes: &[u8],
    http_charset: Option<&str>,
    input: &str,
    limits: &PageLimits,
) -> Result<Parsed> {
    if bytes.iter().all(|b| b.is_ascii_whitespace()) {
        return Err(Error::NotAPage {
            input: input.to_string(),
            why: NotAPage::Empty,
        });
    }
    if looks_binary(bytes) {
        return Err(Error::NotAPage {
            input: input.to_string(),
            why: NotAPage::Binary,
        });
    }
    // Decoding makes at most two bytes of UTF-8 of most single bytes: twice the limit of raw
    // bytes is all the decoded limit can use, and decoding no more bounds the copy.
    let raw_limit = limits.max_html_bytes.saturating_mul(2);
    let page = PageSize::of_read(bytes.len());
    let (bytes, raw_cut) = match bytes.get(..raw_limit) {
        Some(head) if head.len() < bytes.len() => (head, true),
        _ => (bytes, false),
    };
    let decoded = decode_html(bytes, http_charset);
    let (html, mut truncated) = limits.apply(&decoded.text, page);
    if raw_cut && truncated.is_none() {
        truncated = Some(format!(
            "HTML cut at byte {raw_limit} of {page} before decoding (--max-page-mb)"
        ));
    }
    let tree = build(html);
    if let Some(cuts) = tree.cuts.describe(html.len()) {
        truncated = Some(match truncated {
            Some(why) => format!("{why}; {cuts}"),
            None => cuts,
        });
    }
    Ok(Parsed {
        charset: decoded.encoding.name(),
        charset_source: decoded.source,
        tree,
        truncated,
    })
}

/// One block of the tag tree as `docview extract --format json` reports it.
#[derive(Debug, Clone, Serialize)]
pub struct BlockReport<'a> {
    /// Node id.
    pub id: NodeId,
    /// Parent node id.
    pub parent: Option<NodeId>,
    /// `tag#id.class`.
    pub label: &'a str,
    /// Depth below the root.
    pub depth: u16,
    /// Block type from its own counts.
    #[serde(rename = "type")]
    pub block_type: PageType,
    /// Block weight (Algorithm 1).
    pub weight: f32,
    /// Sum of its weighty tags' forces (0 when none).
    pub force: f32,
    /// Terms of its own text.
    pub terms: u32,
    /// Of which inside anchors.
    pub anchor_terms: u32,
    /// Links.
    pub links: u32,
    /// Images.
    pub images: u32,
    /// What its names say.
    pub hint: Hint,
    /// Hidden from readers.
    pub hidden: bool,
    /// Kept, text dropped, or dropped.
    pub verdict: Verdict,
    /// Why.
    pub reason: &'static str,
    /// The learned cleaner's score of the block (text blocks only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score: Option<f32>,
    /// The features the score was computed from, by name (text blocks only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub block_features: Option<BTreeMap<&'static str, f32>>,
}

/// The whole-page report of `docview extract --format json`.
#[derive(Debug, Clone, Serialize)]
pub struct ExtractReport<'a> {
    /// The input as given.
    pub input: &'a str,
    /// The page's URL, when known.
    pub url: Option<&'a str>,
    /// The cleaner used.
    pub cleaner: &'static str,
    /// For a site-aware cleaner, the site model it cleaned with: one page alone has none, so
    /// infodiscoverer's or wisdom's fallback, the default cleaner, cleaned the page, or the
    /// learned cleaner cleaned it without site evidence (and says so here).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub site_model: Option<String>,
    /// Charset used and where it came from.
    pub charset: &'a str,
    /// Where the charset came from.
    pub charset_source: CharsetSource,
    /// Topic, hub or image.
    pub page_type: PageType,
    /// `<title>`.
    pub title: &'a str,
    /// The topic root block, if any.
    pub topic_root: Option<BlockReport<'a>>,
    /// The topic content as plain text.
    pub topic_content: &'a str,
    /// Its paragraphs.
    pub paragraphs: &'a [String],
    /// The language of the topic content (from `<html lang>`, else detected).
    pub language: Language,
    /// The 15 features of highest weight in the topic content's feature vector (Formula 2).
    pub features: Vec<(String, f32)>,
    /// What the page declares about itself: author, dates, site name, canonical URL,
    /// declared language, each with its source.
    pub metadata: Metadata,
    /// Every block of the tag tree with the verdict on it.
    pub blocks: Vec<BlockReport<'a>>,
}

/// Why a page's topic content is empty (no term in it, as the record's `topic_content_empty`
/// counts): what `docview extract` says on standard error.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EmptyTopic {
    /// A reader sees no text on the page: its markup holds none outside scripts, styles and
    /// hidden elements (a page a script writes).
    NoVisibleText,
    /// The cleaner kept none of the page's text blocks.
    NothingKept {
        /// The cleaner's name.
        cleaner: &'static str,
        /// The page's visible text blocks.
        blocks: usize,
    },
}

impl std::fmt::Display for EmptyTopic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EmptyTopic::NoVisibleText => f.write_str(
                "the page shows no text (its markup holds none outside scripts, styles and \
                 hidden elements)",
            ),
            EmptyTopic::NothingKept { cleaner, blocks } => write!(
                f,
                "the {cleaner} cleaner kept none of its {blocks} text block{} as topic content",
                if *blocks == 1 { "" } else { "s" }
            ),
        }
    }
}

impl Extraction {
    /// Why the topic content is empty, when it is; `cleaner` is the one that cleaned the page.
    pub fn empty_topic(&self, cleaner: &dyn Cleaner) -> Option<EmptyTopic> {
        if count_tokens(&self.cleaned.topic_text) > 0 {
            return None;
        }
        let blocks = self.tree.text_blocks().count();
        Some(if blocks == 0 {
            EmptyTopic::NoVisibleText
        } else {
            EmptyTopic::NothingKept {
                cleaner: cleaner.name(),
                blocks,
            }
        })
    }

    /// The report of one block.
    pub fn block_report(&self, id: NodeId) -> BlockReport<'_> {
        let n = self.tree.node(id);
        let d = self.cleaned.decisions[id as usize];
        BlockReport {
            id,
            parent: n.parent,
            label: &n.label,
            depth: n.depth,
            block_type: n.block_type,
            weight: self.cleaned.weights[id as usize],
            force: n.force,
            terms: n.own.terms,
            anchor_terms: n.own.anchor_terms,
            links: n.own.links,
            images: n.own.images,
            hint: n.hint,
            hidden: n.hidden,
            verdict: d.verdict,
            reason: d.reason,
            score: None,
            block_features: None,
        }
    }

    /// The page's language: its `<html lang>` when docview knows it, else detected from the
    /// topic content.
    pub fn language(&self) -> Language {
        self.tree
            .lang
            .as_deref()
            .and_then(language_from_tag)
            .filter(|l| *l != Language::Other)
            .unwrap_or_else(|| detect_language(&self.cleaned.topic_text))
    }

    /// The feature vector (Formula 2) of the blocks kept in the topic content, with the terms
    /// of `lang`.
    pub fn topic_features(&self, lang: Language) -> FeatureVector {
        self.topic_features_with(&Analyzer::new(), lang)
    }

    /// [`Extraction::topic_features`] with the terms of `analyzer` (which may hold a
    /// collection's aggressive stop words).
    pub fn topic_features_with(&self, analyzer: &Analyzer, lang: Language) -> FeatureVector {
        let kept = self
            .cleaned
            .decisions
            .iter()
            .enumerate()
            .filter(|(_, d)| d.verdict == Verdict::Kept)
            .map(|(i, _)| i as NodeId);
        feature_vector(&self.tree, kept, &self.cleaned.weights, analyzer, lang)
    }

    /// The JSON report of the whole page; each block carries the evidence `cleaner` decided it
    /// on, when the cleaner has any (the learned cleaner's features and score).
    pub fn report<'a>(
        &'a self,
        input: &'a str,
        url: Option<&'a str>,
        cleaner: &dyn Cleaner,
    ) -> ExtractReport<'a> {
        let language = self.language();
        let mut blocks: Vec<BlockReport<'a>> = (0..self.tree.nodes.len() as NodeId)
            .map(|id| self.block_report(id))
            .collect();
        for evidence in cleaner.explain(&self.tree) {
            if let Some(block) = blocks.get_mut(evidence.node as usize) {
                block.score = Some(evidence.score);
                block.block_features = Some(evidence.features.into_iter().collect());
            }
        }
        ExtractReport {
            input,
            url,
            cleaner: cleaner.name(),
            site_model: cleaner.site_learner().map(|_| {
                if cleaner.needs_site_models() {
                    format!(
                        "none: one page alone has no site to learn from; cleaned by the default \
                         cleaner, {}",
                        docview_clean::DEFAULT_CLEANER
                    )
                } else {
                    "none: one page alone has no site to learn from; cleaned without site \
                     evidence"
                        .to_string()
                }
            }),
            charset: self.charset,
            charset_source: self.charset_source,
            page_type: self.cleaned.page_type,
            title: &self.cleaned.title,
            topic_root: self.cleaned.topic_root.map(|r| self.block_report(r)),
            topic_content: &self.cleaned.topic_text,
            paragraphs: &self.cleaned.paragraphs,
            language,
            features: self.topic_features(language).top(15),
            metadata: self.metadata(),
            blocks,
        }
    }

    /// What the page declares about itself ([`metadata_of`]), dates up to [`today`].
    pub fn metadata(&self) -> Metadata {
        metadata_of(
            &self.tree,
            &|| topic::headline(&self.tree, &self.cleaned),
            today(),
        )
    }

    /// The page's title: its title without the site's name ([`Metadata::title`]), else its
    /// `<title>`.
    pub fn title_of(&self, metadata: &Metadata) -> String {
        metadata
            .title
            .as_ref()
            .map_or_else(|| self.cleaned.title.clone(), |t| t.value.clone())
    }

    /// The topic content as Markdown ([`to_markdown`]).
    pub fn markdown(&self) -> String {
        to_markdown(self)
    }

    /// The topic content as Markdown, keeping what `keep` says.
    pub fn markdown_keeping(&self, keep: Keep) -> String {
        markdown::markdown_of(&self.tree, &self.cleaned, keep)
    }

    /// The topic content as plain text, keeping what `keep` says (of which only tables
    /// matter to plain text): the cleaner's text, or its blocks rendered again without the
    /// data tables ([`Keep::tables`]) when it holds any.
    pub fn text_keeping(&self, keep: Keep) -> std::borrow::Cow<'_, str> {
        let cleaned = &self.cleaned;
        let (Some(root), false) = (cleaned.topic_root, keep.tables) else {
            return std::borrow::Cow::Borrowed(&cleaned.topic_text);
        };
        let tables = markdown::data_tables(&self.tree, cleaned);
        if tables.is_empty() {
            return std::borrow::Cow::Borrowed(&cleaned.topic_text);
        }
        let rendered = Cleaned::render_topic(
            &self.tree,
            cleaned.page_type,
            root,
            &cleaned.decisions,
            &|id| tables.contains(&id),
        );
        std::borrow::Cow::Owned(rendered.text())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use docview_clean::Framework;

    #[test]
    fn bytes_that_are_no_page_are_typed_errors() {
        let why = |bytes: &[u8]| match parse_page(bytes, None, "p", &PageLimits::default()) {
            Err(Error::NotAPage { input, why }) => {
                assert_eq!(input, "p");
                Some(why)
            }
            _ => None,
        };
        assert_eq!(why(b" \n\t"), Some(NotAPage::Empty));
        assert_eq!(why(b"\x89PNG\r\n\x1a\n\0\0\0"), Some(NotAPage::Binary));
        assert_eq!(why(b"<p>text</p>"), None);
        // The message names the input and what it is; the label is what ingest counts.
        let err = parse_page(b"", None, "p.html", &PageLimits::default()).unwrap_err();
        assert_eq!(err.to_string(), "p.html: empty page: no bytes to parse");
        assert_eq!(NotAPage::Empty.label(), "empty page");
    }

    #[test]
    fn pages_past_the_limits_are_cut_and_say_so() {
        let limits = PageLimits {
            max_html_bytes: 1_000,
            max_tags: 10,
        };
        // Under both limits: untouched.
        let small = "<p>Ferry times</p>";
        let size = |html: &str| PageSize::of_read(html.len());
        assert_eq!(limits.apply(small, size(small)), (small, None));
        // Past the byte limit, cut at a character boundary.
        let long = format!("<p>{}</p>", "é".repeat(2_000));
        let (cut, why) = limits.apply(&long, size(&long));
        assert!(cut.len() <= 1_000 && cut.len() > 990, "{}", cut.len());
        assert!(why.unwrap().contains("--max-page-mb"));
        // Past the element limit, cut before the 11th start tag.
        let tags = "<p>a</p>".repeat(20);
        let (cut, why) = limits.apply(&tags, size(&tags));
        assert_eq!(cut, "<p>a</p>".repeat(10));
        assert!(why.unwrap().contains("after 10 elements"));
        // The extraction cleans the first part and reports the cut.
        let page = extract_page_within(
            tags.as_bytes(),
            None,
            "t.html",
            &Framework::default(),
            &limits,
        )
        .unwrap();
        assert!(page.truncated.is_some());
        assert_eq!(page.tree.all_text().matches('a').count(), 10);
    }

    /// A cleaner that keeps nothing.
    struct Nothing;

    impl Cleaner for Nothing {
        fn kind(&self) -> docview_clean::CleanerKind {
            docview_clean::CleanerKind::Framework
        }
        // A test cleaner, named apart from the cleaner it stands in for.
        fn name(&self) -> &'static str {
            "nothing"
        }
        fn clean(&self, tree: &TagTree) -> Cleaned {
            Cleaned::empty(tree)
        }
    }

    #[test]
    fn an_empty_topic_content_says_why() {
        let why = |html: &str, cleaner: &dyn Cleaner| {
            extract_page(html.as_bytes(), None, "p.html", cleaner)
                .unwrap()
                .empty_topic(cleaner)
        };
        let two = "<body><p>one short paragraph here.</p><div>and a second block</div></body>";
        assert_eq!(why(two, &Framework::default()), None);
        let nothing = why(two, &Nothing).expect("empty");
        assert_eq!(
            nothing,
            EmptyTopic::NothingKept {
                cleaner: "nothing",
                blocks: 2
            }
        );
        assert_eq!(
            nothing.to_string(),
            "the nothing cleaner kept none of its 2 text blocks as topic content"
        );
        // A page of scripts and images shows no text.
        let scripted = "<body><script>write('words')</script><img src=a.png></body>";
        assert_eq!(
            why(scripted, &Framework::default()),
            Some(EmptyTopic::NoVisibleText)
        );
    }
}
