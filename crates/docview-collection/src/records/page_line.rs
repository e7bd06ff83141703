//! One compact line per page (`docview extract --format jsonl`): what a batch extractor's user
//! reads of a page (where it came from, its title, its topic content as text or Markdown, its
//! DocView type, subject and genre, language and metadata), without the block report of
//! `--format json`, followed by the other fields of the JSON line the page came from (a user's
//! `id`). A page of its own, without a collection: no keywords, abstract or replicas.

use std::borrow::Cow;

use docview_input::{JsonFields, RawPage};
use serde::Serialize;

use crate::extract::{Extraction, Keep, Metadata};
use crate::integrate::{Classification, ClassifierRef, SubjectRecord, classification_code};
use crate::page::PageType;
use crate::text::{Analyzer, Language};
use crate::topic::TopicPage;

/// Which form of the topic content a [`PageLine`] carries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineContent {
    /// Plain text, in `text`.
    Text,
    /// Markdown, in `markdown`.
    Markdown,
}

/// One page's line.
#[derive(Debug, Clone, Serialize)]
pub struct PageLine<'a> {
    /// The page's address: the WARC record's target URI, the JSON line's `url`, a saved
    /// file's declared web address ([`known_address`](crate::extract::known_address)) else its `file://`
    /// URL; null for a page read whole from standard input without `--url`.
    pub url: Option<Cow<'a, str>>,
    /// Where it was read: `path`, `path:LINE` (JSON Lines), `path@OFFSET` (WARC).
    pub origin: &'a str,
    /// The WARC record's `WARC-Record-ID`, for a page read from a WARC.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub warc_record_id: Option<&'a str>,
    /// The WARC record's `WARC-Date`, for a page read from a WARC.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub warc_date: Option<&'a str>,
    /// The page's title without the site's name (`metadata.title`), else its `<title>`.
    pub title: String,
    /// The topic content as plain text (with [`LineContent::Text`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<Cow<'a, str>>,
    /// The topic content as Markdown (with [`LineContent::Markdown`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub markdown: Option<String>,
    /// The page's DocView type (topic, hub or image): the cleaner's type and the classifier's
    /// class together, as ingest's records have it; the cleaner's alone without a classifier.
    pub page_type: PageType,
    /// The classification code, the page's subject (`medtop:15000000`), with a classifier
    /// (empty when the page has none: `subject` says why).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub classification_code: Option<String>,
    /// The subject behind the code, with a classifier.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub subject: Option<SubjectRecord>,
    /// The page's genre (`article`, `listing` ...), with a classifier.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub genre: Option<Classification>,
    /// The page's language.
    pub language: Language,
    /// What the page says about itself (title, author, dates, site name, description, image,
    /// categories, tags, canonical URL, language).
    pub metadata: Metadata,
    /// The page's comment section as plain text, when asked for ([`Keep::comments`]) and the
    /// page shows one ([`comments_of`](crate::extract::comments_of)).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub comments: Option<String>,
    /// The other fields of the page's JSON line, written after docview's own
    /// ([`PageLine::to_json`]).
    #[serde(skip)]
    pub fields: Option<&'a JsonFields>,
}

/// The keys docview writes in a line; a passed-through field of the same name is left out.
pub const LINE_KEYS: [&str; 14] = [
    "url",
    "origin",
    "warc_record_id",
    "warc_date",
    "title",
    "text",
    "markdown",
    "page_type",
    "classification_code",
    "subject",
    "genre",
    "language",
    "metadata",
    "comments",
];

impl<'a> PageLine<'a> {
    /// The line of `page`, read as `raw`, with its topic content as `content` says (keeping
    /// what `keep` says of its tables, links and images, and its comments when it says so),
    /// classified by `classifier` when
    /// there is one (as ingest's integration classifies it); `url` stands for the page's
    /// address when `raw` has none.
    pub fn new(
        raw: &'a RawPage,
        page: &'a Extraction,
        url: Option<&'a str>,
        content: LineContent,
        keep: Keep,
        classifier: Option<(ClassifierRef<'_>, &Analyzer)>,
    ) -> PageLine<'a> {
        let warc = raw.warc.as_deref();
        let address = Some(raw.url.as_str()).filter(|u| !u.is_empty()).or(url);
        // The topic page carries the page's metadata: read once, whichever way it goes.
        let (metadata, page_type, genre, subject) = match classifier {
            Some((classifier, analyzer)) => {
                let topic = TopicPage::of(page);
                let c = classifier.classify_alone(address, &topic, analyzer);
                (topic.metadata, c.page_type, Some(c.genre), c.subject)
            }
            None => (page.metadata(), page.cleaned.page_type, None, None),
        };
        PageLine {
            url: address.map(|u| {
                let tree = &page.tree;
                crate::extract::known_address(u, tree.canonical.as_deref(), tree.og_url.as_deref())
                    .map_or(Cow::Borrowed(u), Cow::Owned)
            }),
            origin: &raw.origin,
            warc_record_id: warc.and_then(|w| w.record_id.as_deref()),
            warc_date: warc.and_then(|w| w.date.as_deref()),
            title: page.title_of(&metadata),
            text: (content == LineContent::Text).then(|| page.text_keeping(keep)),
            markdown: (content == LineContent::Markdown).then(|| page.markdown_keeping(keep)),
            page_type,
            classification_code: genre
                .as_ref()
                .map(|_| classification_code(subject.as_ref())),
            subject,
            genre,
            language: page.language(),
            metadata,
            comments: keep
                .comments
                .then(|| crate::extract::comments_of(&page.tree))
                .flatten(),
            fields: raw.fields.as_deref(),
        }
    }

    /// The line as one JSON object: docview's fields, then the passed-through ones whose names
    /// are not among [`LINE_KEYS`], in their line's order.
    pub fn to_json(&self) -> serde_json::Result<String> {
        let mut json = serde_json::to_string(self)?;
        let passed = self
            .fields
            .into_iter()
            .flatten()
            .filter(|(key, _)| !LINE_KEYS.contains(&key.as_str()));
        for (key, value) in passed {
            // Before the closing brace: `,"key":value`.
            json.pop();
            json.push(',');
            json.push_str(&serde_json::to_string(key)?);
            json.push(':');
            json.push_str(&serde_json::to_string(value)?);
            json.push('}');
        }
        Ok(json)
    }
}
