//! One crawled page through the whole cleaning stage: bytes to text in the page's charset, the
//! markup tag tree, a cleaner. What `docview extract` and `docview eval` run for each page.

use serde::Serialize;

use crate::clean::{Cleaned, Cleaner, Verdict};
use crate::input::{CharsetSource, decode_html, looks_binary};
use crate::measure::{FeatureVector, feature_vector};
use crate::page::{Hint, NodeId, PageType, TagTree, build};
use crate::text::{Analyzer, Language, detect_language, language_from_tag};
use crate::{Error, Result};

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
}

/// Decodes, parses and cleans one page. `input` names the page in errors (a path, a URL).
///
/// Empty input and binary data (an image, an archive) are errors; anything else gives a
/// best-effort result, however broken its markup.
pub fn extract_page(
    bytes: &[u8],
    http_charset: Option<&str>,
    input: &str,
    cleaner: &dyn Cleaner,
) -> Result<Extraction> {
    if bytes.iter().all(|b| b.is_ascii_whitespace()) {
        return Err(Error::bad_input(input, "empty page: no bytes to parse"));
    }
    if looks_binary(bytes) {
        return Err(Error::bad_input(
            input,
            "binary data, not an HTML page (NUL or control bytes at the start)",
        ));
    }
    let decoded = decode_html(bytes, http_charset);
    let tree = build(&decoded.text);
    let cleaned = cleaner.clean(&tree);
    Ok(Extraction {
        charset: decoded.encoding.name(),
        charset_source: decoded.source,
        tree,
        cleaned,
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
}

/// The whole-page report of `docview extract --format json`.
#[derive(Debug, Clone, Serialize)]
pub struct ExtractReport<'a> {
    /// The input as given.
    pub input: &'a str,
    /// The page's URL, when known.
    pub url: Option<&'a str>,
    /// The cleaner used.
    pub cleaner: &'a str,
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
    /// Every block of the tag tree with the verdict on it.
    pub blocks: Vec<BlockReport<'a>>,
}

impl Extraction {
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

    /// The JSON report of the whole page.
    pub fn report<'a>(
        &'a self,
        input: &'a str,
        url: Option<&'a str>,
        cleaner: &'a str,
    ) -> ExtractReport<'a> {
        let language = self.language();
        ExtractReport {
            input,
            url,
            cleaner,
            charset: self.charset,
            charset_source: self.charset_source,
            page_type: self.cleaned.page_type,
            title: &self.cleaned.title,
            topic_root: self.cleaned.topic_root.map(|r| self.block_report(r)),
            topic_content: &self.cleaned.topic_text,
            paragraphs: &self.cleaned.paragraphs,
            language,
            features: self.topic_features(language).top(15),
            blocks: (0..self.tree.nodes.len() as NodeId)
                .map(|id| self.block_report(id))
                .collect(),
        }
    }
}
