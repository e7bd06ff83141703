//! One page from Python: `docview.extract`, `docview.Extractor` and the `Extraction` they return.
//! The same decoding, tag tree, cleaner and renderings as `docview extract`.

use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyDict, PyMemoryView, PyString, PyTuple};

use docview_clean::{
    CLEANERS, Cleaner, CleanerKind, DEFAULT_CLEANER, Favor, cleaner_with_model, topic_content_page,
};
use docview_extract::topic::TopicPage;
use docview_extract::{Keep, PageLimits, extract_page_in_site};
use docview_pipeline::{ClassifierChoice, Classifiers, SubjectChoice};
use docview_text::Analyzer;

use crate::error::{Error, Result, no_panic};

/// What the topic content is rendered as: the renderings `docview extract --format` prints.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// Plain text: headings on their own lines, paragraphs separated by blank lines.
    Text,
    /// Markdown, links and images with absolute URLs from the page's URL.
    Markdown,
    /// The topic content page (004 §4.2): the purified page in its original layout.
    Html,
    /// The JSON report: page type, title, charset, topic root, paragraphs and every block with
    /// its verdict and the reason.
    Json,
}

impl Format {
    /// Every format, in the order they are listed.
    pub const ALL: [Format; 4] = [Format::Text, Format::Markdown, Format::Html, Format::Json];

    /// Its name, as Python gives it.
    pub fn name(self) -> &'static str {
        match self {
            Format::Text => "text",
            Format::Markdown => "markdown",
            Format::Html => "html",
            Format::Json => "json",
        }
    }

    /// The format called `name`; an unknown name is an [`Error::Argument`] listing the known.
    pub fn parse(name: &str) -> Result<Format> {
        Format::ALL
            .into_iter()
            .find(|f| f.name() == name)
            .ok_or_else(|| {
                Error::argument(format!(
                    "format: unknown format {name:?} (known: {})",
                    Format::ALL.map(Format::name).join(", ")
                ))
            })
    }
}

/// The cleaner called `name` (one of docview's [`CLEANERS`]); an unknown name is an
/// [`Error::Argument`] listing the known.
pub fn cleaner_kind(name: &str) -> Result<CleanerKind> {
    CleanerKind::from_name(name).ok_or_else(|| {
        Error::argument(format!(
            "cleaner: unknown cleaner {name:?} (known: {})",
            CLEANERS.join(", ")
        ))
    })
}

/// What the learned cleaner favours, called `name` (one of [`Favor::NAMES`]); an unknown name
/// is an [`Error::Argument`] listing the known.
pub fn favor(name: &str) -> Result<Favor> {
    name.parse().map_err(|_| {
        Error::argument(format!(
            "favor: unknown setting {name:?} (known: {})",
            Favor::NAMES.join(", ")
        ))
    })
}

/// The classifiers inside the module (the ones `docview ingest` classifies the DocViews with
/// by default: the page's genre and its subject) and the names records give them; loaded once.
fn embedded_classifier() -> Result<Arc<Classifiers>> {
    type Loaded = std::result::Result<Arc<Classifiers>, String>;
    static CLASSIFIER: OnceLock<Loaded> = OnceLock::new();
    CLASSIFIER
        .get_or_init(
            || match ClassifierChoice::Embedded.load_with(&SubjectChoice::Embedded) {
                Ok(Some(loaded)) => Ok(Arc::new(loaded)),
                Ok(None) => Err("the embedded classifier is missing".to_string()),
                Err(e) => Err(e.to_string()),
            },
        )
        .clone()
        .map_err(|reason| Error::Failed(format!("the embedded classifiers: {reason}")))
}

/// What cleaning one page takes: the cleaner, and for the page's DocView type the content
/// classifier and an analyzer, as ingest's integration uses them.
struct PagePath {
    cleaner: Box<dyn Cleaner>,
    /// What the learned cleaner favours.
    favor: Favor,
    /// `None`: the page type is the cleaner's, and no classification is made.
    classifier: Option<Arc<Classifiers>>,
    analyzer: Analyzer,
    /// Where a page is cut.
    limits: PageLimits,
    /// What the text and Markdown keep of tables, links and images, and whether the comments
    /// are read.
    keep: Keep,
}

/// A whole-number argument `name` of at least `least`, as a `usize`; a smaller one is an
/// [`Error::Argument`] (not Python's `OverflowError`).
pub fn count(name: &str, value: i64, least: i64) -> Result<usize> {
    if value < least {
        return Err(Error::argument(format!(
            "{name}: expected a whole number of at least {least}, not {value}"
        )));
    }
    usize::try_from(value).map_err(|_| Error::argument(format!("{name}: {value} is too large")))
}

/// The page limits of `max_page_mb` and `max_page_tags` (None: the default), each at least 1,
/// as `--max-page-mb` and `--max-page-tags` give them.
pub fn page_limits(max_page_mb: Option<i64>, max_page_tags: Option<i64>) -> Result<PageLimits> {
    let default = PageLimits::default();
    Ok(PageLimits {
        max_html_bytes: match max_page_mb {
            Some(mb) => count("max_page_mb", mb, 1)?.saturating_mul(1 << 20),
            None => default.max_html_bytes,
        },
        max_tags: match max_page_tags {
            Some(tags) => count("max_page_tags", tags, 1)?,
            None => default.max_tags,
        },
    })
}

/// The charset label `label` when docview knows it (a WHATWG label: `utf-8`, `gbk`,
/// `windows-1252`, ...); else an [`Error::Argument`].
pub fn charset_label(label: Option<String>) -> Result<Option<String>> {
    match label {
        Some(l) if !docview_input::known_charset(&l) => Err(Error::argument(format!(
            "charset: unknown charset {l:?} (a label such as \"utf-8\", \"gbk\", \"windows-1252\")"
        ))),
        other => Ok(other),
    }
}

impl PagePath {
    /// The cleaner called `name`, with the block model file `model` (the learned cleaner only)
    /// or the model inside the module, deciding as the setting called `favor` asks, and the
    /// embedded classifier when `classify`.
    fn load(
        name: &str,
        model: Option<&Path>,
        favor_name: &str,
        classify: bool,
        limits: PageLimits,
        keep: Keep,
    ) -> Result<PagePath> {
        let favor = favor(favor_name)?;
        Ok(PagePath {
            limits,
            keep,
            cleaner: cleaner_with_model(cleaner_kind(name)?, model, favor)?,
            favor,
            classifier: if classify {
                Some(embedded_classifier()?)
            } else {
                None
            },
            analyzer: Analyzer::new(),
        })
    }
}

/// One page as Python passes it: the bytes of a page as crawled, or text already decoded.
enum Html<'a> {
    /// Bytes (`bytes` borrowed; a `bytearray` or a `memoryview` copied, as Python may change
    /// them while the GIL is released): their charset is found as `docview extract` finds it.
    Bytes(std::borrow::Cow<'a, [u8]>),
    /// Text: decoded already, handed on as UTF-8.
    Text(String),
}

impl<'a> Html<'a> {
    /// `html` as `str`, `bytes`, `bytearray` or `memoryview`; anything else is a `TypeError`
    /// naming its type.
    fn of(html: &'a Bound<'_, PyAny>) -> PyResult<Html<'a>> {
        if let Ok(bytes) = html.cast::<PyBytes>() {
            return Ok(Html::Bytes(std::borrow::Cow::Borrowed(bytes.as_bytes())));
        }
        if let Ok(text) = html.cast::<PyString>() {
            return Ok(Html::Text(text.to_cow()?.into_owned()));
        }
        if let Ok(array) = html.cast::<PyByteArray>() {
            return Ok(Html::Bytes(std::borrow::Cow::Owned(array.to_vec())));
        }
        if html.is_instance_of::<PyMemoryView>() {
            // Its bytes, through Python (the buffer protocol is not in the stable ABI of
            // Python 3.9, which the module is built for); a view of anything but bytes is
            // refused as Python refuses it.
            let bytes = html.call_method0("tobytes")?;
            let bytes = bytes.cast::<PyBytes>()?;
            return Ok(Html::Bytes(std::borrow::Cow::Owned(
                bytes.as_bytes().to_vec(),
            )));
        }
        Err(pyo3::exceptions::PyTypeError::new_err(format!(
            "html: expected str, bytes, bytearray or memoryview, not {}",
            html.get_type().name()?
        )))
    }

    fn bytes(&self) -> &[u8] {
        match self {
            Html::Bytes(b) => b,
            Html::Text(t) => t.as_bytes(),
        }
    }

    /// The charset to decode with: the caller's, else UTF-8 for text (whatever its `<meta>`
    /// declares: it is decoded already), else none (found from the bytes).
    fn charset<'c>(&self, given: Option<&'c str>) -> Option<&'c str> {
        match (given, self) {
            (Some(c), _) => Some(c),
            (None, Html::Text(_)) => Some("utf-8"),
            (None, Html::Bytes(_)) => None,
        }
    }
}

/// What one page gave, before it becomes Python objects.
struct Extracted {
    text: String,
    content: String,
    format: Format,
    title: String,
    page_type: &'static str,
    cleaner_page_type: &'static str,
    genre: serde_json::Value,
    subject: serde_json::Value,
    language: &'static str,
    charset: &'static str,
    truncated: Option<String>,
    metadata: serde_json::Value,
    blocks: Option<serde_json::Value>,
    comments: Option<String>,
}

/// Cleans one page and renders it; runs without the GIL.
fn extract_one(
    path: &PagePath,
    bytes: &[u8],
    charset: Option<&str>,
    url: Option<&str>,
    format: Format,
    blocks: bool,
) -> Result<Extracted> {
    // The input as errors and the JSON report name it.
    let input = url.unwrap_or("<html>");
    let cleaner = path.cleaner.as_ref();
    no_panic(input, || {
        let page = extract_page_in_site(bytes, charset, input, url, cleaner, None, &path.limits)?;
        let report = (format == Format::Json || blocks).then(|| page.report(input, url, cleaner));
        let content = match format {
            Format::Text => page.text_keeping(path.keep).into_owned(),
            Format::Markdown => page.markdown_keeping(path.keep),
            Format::Html => topic_content_page(&page.tree, &page.cleaned),
            Format::Json => match &report {
                Some(report) => serde_json::to_string(report).map_err(|source| Error::Json {
                    input: input.to_string(),
                    source,
                })?,
                None => String::new(),
            },
        };
        let blocks = match (&report, blocks) {
            (Some(report), true) => Some(to_json(input, &report.blocks)?),
            _ => None,
        };
        // The DocView type, as ingest's integration decides it: the cleaner's type and the
        // content classifier's class together (docview_collection::integrate); without the
        // classifier, the cleaner's type.
        // The topic page carries the page's metadata: read once, whichever path reads it.
        let (genre, subject, page_type, metadata) = match &path.classifier {
            Some(loaded) => {
                let topic = TopicPage::of(&page);
                let c = loaded
                    .classifier_ref()
                    .classify_alone(url, &topic, &path.analyzer);
                (
                    to_json(input, &c.genre)?,
                    to_json(input, &c.subject)?,
                    c.page_type,
                    topic.metadata,
                )
            }
            None => (
                serde_json::Value::Null,
                serde_json::Value::Null,
                page.cleaned.page_type,
                page.metadata(),
            ),
        };
        Ok(Extracted {
            content,
            format,
            title: page.title_of(&metadata),
            page_type: page_type.as_str(),
            cleaner_page_type: page.cleaned.page_type.as_str(),
            genre,
            subject,
            language: page.language().code(),
            charset: page.charset,
            truncated: page.truncated.clone(),
            metadata: to_json(input, &metadata)?,
            blocks,
            comments: path
                .keep
                .comments
                .then(|| docview_extract::comments_of(&page.tree))
                .flatten(),
            text: page.cleaned.topic_text,
        })
    })
}

/// `value` as a JSON value, through its JSON text, so that its numbers are the ones the JSON
/// report prints (an `f32` as its shortest decimal, not widened to `f64`); an error names
/// `input`.
fn to_json<T: serde::Serialize>(input: &str, value: &T) -> Result<serde_json::Value> {
    serde_json::to_string(value)
        .and_then(|text| serde_json::from_str(&text))
        .map_err(|source| Error::Json {
            input: input.to_string(),
            source,
        })
}

/// Cleans `html` along `path` without holding the GIL, and makes the [`Extraction`].
fn extract_with(
    py: Python<'_>,
    path: &PagePath,
    html: &Bound<'_, PyAny>,
    url: Option<String>,
    format: Format,
    blocks: bool,
    charset: Option<String>,
) -> PyResult<Extraction> {
    let html = Html::of(html)?;
    let charset = charset_label(charset).map_err(|e| e.into_pyerr(py))?;
    let charset = html.charset(charset.as_deref());
    let bytes = html.bytes();
    let extracted = py
        .detach(|| extract_one(path, bytes, charset, url.as_deref(), format, blocks))
        .map_err(|e| e.into_pyerr(py))?;
    Extraction::of(py, extracted, url, path.cleaner.name())
}

/// The topic content of one page, and what docview found out about the page.
///
/// Made by `docview.extract` and `Extractor.extract`. Every attribute is read-only.
#[pyclass(frozen, module = "docview")]
pub struct Extraction {
    text: String,
    content: String,
    format: Format,
    title: String,
    page_type: String,
    cleaner_page_type: String,
    genre: Py<PyAny>,
    subject: Py<PyAny>,
    language: String,
    url: Option<String>,
    cleaner: String,
    charset: String,
    truncated: Option<String>,
    metadata: Py<PyAny>,
    blocks: Option<Py<PyAny>>,
    comments: Option<String>,
}

impl Extraction {
    fn of(
        py: Python<'_>,
        e: Extracted,
        url: Option<String>,
        cleaner: &str,
    ) -> PyResult<Extraction> {
        let metadata = pythonize::pythonize(py, &e.metadata)?.unbind();
        let genre = pythonize::pythonize(py, &e.genre)?.unbind();
        let subject = pythonize::pythonize(py, &e.subject)?.unbind();
        let blocks = match &e.blocks {
            Some(b) => Some(pythonize::pythonize(py, b)?.unbind()),
            None => None,
        };
        Ok(Extraction {
            text: e.text,
            content: e.content,
            format: e.format,
            title: e.title,
            page_type: e.page_type.to_string(),
            cleaner_page_type: e.cleaner_page_type.to_string(),
            genre,
            subject,
            language: e.language.to_string(),
            url,
            cleaner: cleaner.to_string(),
            charset: e.charset.to_string(),
            truncated: e.truncated,
            comments: e.comments,
            metadata,
            blocks,
        })
    }
}

#[pymethods]
impl Extraction {
    /// The topic content as plain text, whatever the format: headings on their own lines,
    /// paragraphs separated by blank lines (what `docview extract` prints).
    #[getter]
    fn text(&self) -> &str {
        &self.text
    }

    /// The topic content in the format asked for: plain text, Markdown, the topic content page
    /// as HTML, or the JSON report of `docview extract --format json` (as a str).
    #[getter]
    fn content(&self) -> &str {
        &self.content
    }

    /// The format of `content`: "text", "markdown", "html" or "json".
    #[getter]
    fn format(&self) -> &'static str {
        self.format.name()
    }

    /// The page's title without the site's name (`metadata["title"]`: its declared headline
    /// or its `<title>`, cut at the site's name), else its `<title>`, whitespace folded.
    #[getter]
    fn title(&self) -> &str {
        &self.title
    }

    /// The page type: "topic" (its theme told in text: an article), "hub" (links to pages
    /// about its topic: a listing) or "image" (a gallery). The DocView record's type, as
    /// `docview ingest` decides it: the cleaner's type and the content classifier's class
    /// together (a listing the cleaner kept as text is a hub when its topic content bears
    /// the class out).
    #[getter]
    fn page_type(&self) -> &str {
        &self.page_type
    }

    /// The cleaner's own page type (the "page_type" of the JSON report): the type of the
    /// page's central block (004 §4.1).
    #[getter]
    fn cleaner_page_type(&self) -> &str {
        &self.cleaner_page_type
    }

    /// The page's genre, as the DocView record gives it: a dict of scheme ("page_type"), class
    /// ("article", "listing", ...), score, prior and model; None from an Extractor made with
    /// classify=False.
    #[getter]
    fn genre(&self, py: Python<'_>) -> Py<PyAny> {
        self.genre.clone_ref(py)
    }

    /// The page's subject, as the DocView record gives it (its code is the record's
    /// classification code): a dict of scheme ("iptc-mediatopic"), code ("medtop:15000000"),
    /// label ("sport"), score, reason (why there is no subject: "below-threshold",
    /// "no-known-term"; None when there is one) and model; None from an Extractor made with
    /// classify=False.
    #[getter]
    fn subject(&self, py: Python<'_>) -> Py<PyAny> {
        self.subject.clone_ref(py)
    }

    /// The language of the page as an ISO 639-1 code ("en", "zh"; "und" when unknown): its
    /// `<html lang>` when docview knows it, else detected from the topic content.
    #[getter]
    fn language(&self) -> &str {
        &self.language
    }

    /// The page's metadata (author, published, modified, site_name, canonical_url, language),
    /// each a dict of its value and the markup it was read from, or None when the page has
    /// none.
    #[getter]
    fn metadata(&self, py: Python<'_>) -> Py<PyAny> {
        self.metadata.clone_ref(py)
    }

    /// Every block of the page's tag tree with the cleaner's verdict and its reason, as dicts
    /// (the "blocks" of the JSON report), when asked for with blocks=True; else None.
    #[getter]
    fn blocks(&self, py: Python<'_>) -> Option<Py<PyAny>> {
        self.blocks.as_ref().map(|b| b.clone_ref(py))
    }

    /// The page's URL as given, or None.
    #[getter]
    fn url(&self) -> Option<&str> {
        self.url.as_deref()
    }

    /// The cleaner that cleaned the page.
    #[getter]
    fn cleaner(&self) -> &str {
        &self.cleaner
    }

    /// The charset the page was decoded with.
    #[getter]
    fn charset(&self) -> &str {
        &self.charset
    }

    /// How the page was cut to docview's page limits (8 MiB of HTML, 500,000 elements), or
    /// None when it was not.
    #[getter]
    fn truncated(&self) -> Option<&str> {
        self.truncated.as_deref()
    }

    /// The page's comment section as plain text (its readers' thread, without its reply form),
    /// when asked for with comments=True and the page shows one; else None. Never a part of
    /// text or content.
    #[getter]
    fn comments(&self) -> Option<&str> {
        self.comments.as_deref()
    }

    /// Every attribute in a new dict.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("text", &self.text)?;
        d.set_item("content", &self.content)?;
        d.set_item("format", self.format.name())?;
        d.set_item("title", &self.title)?;
        d.set_item("page_type", &self.page_type)?;
        d.set_item("cleaner_page_type", &self.cleaner_page_type)?;
        d.set_item("genre", self.genre.bind(py))?;
        d.set_item("subject", self.subject.bind(py))?;
        d.set_item("language", &self.language)?;
        d.set_item("metadata", self.metadata.bind(py))?;
        d.set_item("blocks", self.blocks.as_ref().map(|b| b.bind(py)))?;
        d.set_item("url", self.url.as_deref())?;
        d.set_item("cleaner", &self.cleaner)?;
        d.set_item("charset", &self.charset)?;
        d.set_item("truncated", self.truncated.as_deref())?;
        d.set_item("comments", self.comments.as_deref())?;
        Ok(d)
    }

    /// What pickle stores of it (`to_dict()`) and how it makes it again: an Extraction crosses
    /// to another process (`ProcessPoolExecutor`, `multiprocessing`) whole.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, PyTuple>> {
        let py = slf.py();
        let rebuild = py.get_type::<Extraction>().getattr("_from_state")?;
        let state = slf.get().to_dict(py)?;
        PyTuple::new(py, [rebuild, PyTuple::new(py, [state])?.into_any()])
    }

    /// An Extraction from what `to_dict()` gave (pickle's way back; not for other use).
    #[staticmethod]
    fn _from_state(state: &Bound<'_, PyDict>) -> PyResult<Extraction> {
        let py = state.py();
        let item = |key: &str| -> PyResult<Bound<'_, PyAny>> {
            state.get_item(key)?.ok_or_else(|| {
                pyo3::exceptions::PyKeyError::new_err(format!("Extraction state: no {key:?}"))
            })
        };
        let text = |key: &str| -> PyResult<String> { item(key)?.extract() };
        let optional = |key: &str| -> PyResult<Option<String>> { item(key)?.extract() };
        let format = Format::parse(&text("format")?).map_err(|e| e.into_pyerr(py))?;
        let blocks = item("blocks")?;
        Ok(Extraction {
            text: text("text")?,
            content: text("content")?,
            format,
            title: text("title")?,
            page_type: text("page_type")?,
            cleaner_page_type: text("cleaner_page_type")?,
            genre: item("genre")?.unbind(),
            subject: item("subject")?.unbind(),
            language: text("language")?,
            url: optional("url")?,
            cleaner: text("cleaner")?,
            charset: text("charset")?,
            truncated: optional("truncated")?,
            comments: optional("comments")?,
            metadata: item("metadata")?.unbind(),
            blocks: (!blocks.is_none()).then(|| blocks.unbind()),
        })
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        const SHOWN: usize = 60;
        let mut start: String = self.text.chars().take(SHOWN).collect();
        if start.len() < self.text.len() {
            start.push('…');
        }
        let repr = |s: &str| -> PyResult<String> {
            Ok(PyString::new(py, s).repr()?.to_cow()?.into_owned())
        };
        Ok(format!(
            "Extraction(page_type={}, language={}, format={}, title={}, url={}, text={} ({} chars))",
            repr(&self.page_type)?,
            repr(&self.language)?,
            repr(self.format.name())?,
            repr(&self.title)?,
            match &self.url {
                Some(u) => repr(u)?,
                None => "None".to_string(),
            },
            repr(&start)?,
            self.text.chars().count()
        ))
    }
}

/// Cleans one page down to its topic content.
///
/// html is the page as bytes (its charset found as `docview extract` finds it: byte order
/// mark, UTF-8 check, `<meta>`, detection) or as str (already decoded). url is the page's URL,
/// for the JSON report, Markdown's absolute links and the cleaners that read it. format is
/// "text", "markdown", "html" or "json"; cleaner one of docview.CLEANERS (default "learned");
/// favor what the learned cleaner favours: "precision" (less furniture, some of the article
/// may go), "balanced" (the default) or "recall" (the whole article, some furniture may stay),
/// as `--favor`. blocks=True also fills Extraction.blocks with every block and its verdict. charset names
/// the charset the bytes were served with (an HTTP Content-Type charset; an unknown label is an
/// ArgumentError). max_page_mb (8) and max_page_tags (500000) cut a larger page there, as
/// `--max-page-mb` and `--max-page-tags` do (Extraction.truncated says so). tables=False,
/// links=False and images=False leave the data tables out of the text and Markdown, and the
/// links' addresses and the images out of the Markdown, as `--no-tables`, `--no-links` and
/// `--no-images` do; comments=True fills Extraction.comments with the page's comment section,
/// as `--comments` does. html may be str, bytes, bytearray or a memoryview.
///
/// Returns an Extraction: the topic content as plain text (.text) and in the format asked
/// for (.content), the page's title, its type as the DocView record gives it (.page_type:
/// "topic", "hub" or "image"), its language, its metadata and, with blocks=True, its blocks.
///
/// Loads the cleaner on each call; to clean many pages, make one docview.Extractor.
/// Raises ArgumentError (a ValueError) for an unknown format, cleaner or favor and for bytes that are
/// no page (empty, binary), naming the url when given. Releases the GIL while it works.
#[pyfunction]
#[pyo3(
    signature = (html, url=None, *, format="text".to_string(), cleaner=DEFAULT_CLEANER.to_string(), favor="balanced".to_string(), blocks=false, charset=None, max_page_mb=None, max_page_tags=None, tables=true, links=true, images=true, comments=false),
    text_signature = "(html, url=None, *, format='text', cleaner='learned', favor='balanced', blocks=False, charset=None, max_page_mb=None, max_page_tags=None, tables=True, links=True, images=True, comments=False)"
)]
// Python's keyword arguments, one parameter each.
#[allow(clippy::too_many_arguments)]
pub fn extract(
    py: Python<'_>,
    html: &Bound<'_, PyAny>,
    url: Option<String>,
    format: String,
    cleaner: String,
    favor: String,
    blocks: bool,
    charset: Option<String>,
    max_page_mb: Option<i64>,
    max_page_tags: Option<i64>,
    tables: bool,
    links: bool,
    images: bool,
    comments: bool,
) -> PyResult<Extraction> {
    let format = Format::parse(&format).map_err(|e| e.into_pyerr(py))?;
    let limits = page_limits(max_page_mb, max_page_tags).map_err(|e| e.into_pyerr(py))?;
    let keep = Keep {
        tables,
        links,
        images,
        comments,
    };
    let path =
        PagePath::load(&cleaner, None, &favor, true, limits, keep).map_err(|e| e.into_pyerr(py))?;
    extract_with(py, &path, html, url, format, blocks, charset)
}

/// A cleaner loaded once, to clean many pages.
///
/// Extractor(cleaner="learned", model=None, *, format="text", favor="balanced", classify=True,
/// max_page_mb=None, max_page_tags=None, tables=True, links=True, images=True,
/// comments=False):
/// cleaner is one of docview.CLEANERS; model a block model file from `docview train-cleaner`
/// for the learned cleaner (default: the model inside the module); format the default format
/// of extract(); favor what the learned cleaner favours ("precision", "balanced", "recall", as
/// `--favor`);
/// classify=False skips the classifiers (page_type is then the cleaner's own, genre and
/// subject None): the work of `docview extract`, for bulk cleaning; max_page_mb and
/// max_page_tags the page limits, tables, links and images what the text and Markdown keep,
/// and comments whether Extraction.comments is filled, as extract()'s.
///
/// extract() releases the GIL while it works, and one Extractor may be shared by any number
/// of threads: each call is independent and gives what a call alone gives.
#[pyclass(frozen, module = "docview")]
pub struct Extractor {
    path: PagePath,
    model: Option<PathBuf>,
    format: Format,
}

#[pymethods]
impl Extractor {
    #[new]
    #[pyo3(signature = (cleaner=DEFAULT_CLEANER.to_string(), model=None, *, format="text".to_string(), favor="balanced".to_string(), classify=true, max_page_mb=None, max_page_tags=None, tables=true, links=true, images=true, comments=false))]
    // Python's keyword arguments, one parameter each.
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        cleaner: String,
        model: Option<PathBuf>,
        format: String,
        favor: String,
        classify: bool,
        max_page_mb: Option<i64>,
        max_page_tags: Option<i64>,
        tables: bool,
        links: bool,
        images: bool,
        comments: bool,
    ) -> PyResult<Self> {
        let format = Format::parse(&format).map_err(|e| e.into_pyerr(py))?;
        let limits = page_limits(max_page_mb, max_page_tags).map_err(|e| e.into_pyerr(py))?;
        let keep = Keep {
            tables,
            links,
            images,
            comments,
        };
        let path = py
            .detach(|| PagePath::load(&cleaner, model.as_deref(), &favor, classify, limits, keep))
            .map_err(|e| e.into_pyerr(py))?;
        Ok(Extractor {
            path,
            model,
            format,
        })
    }

    /// Cleans one page, as docview.extract does with this extractor's cleaner; format None
    /// is the extractor's format.
    #[pyo3(signature = (html, url=None, *, format=None, blocks=false, charset=None))]
    fn extract(
        &self,
        py: Python<'_>,
        html: &Bound<'_, PyAny>,
        url: Option<String>,
        format: Option<String>,
        blocks: bool,
        charset: Option<String>,
    ) -> PyResult<Extraction> {
        let format = match format {
            Some(name) => Format::parse(&name).map_err(|e| e.into_pyerr(py))?,
            None => self.format,
        };
        extract_with(py, &self.path, html, url, format, blocks, charset)
    }

    /// The cleaner's name.
    #[getter]
    fn cleaner(&self) -> &'static str {
        self.path.cleaner.name()
    }

    /// What the learned cleaner favours ("precision", "balanced" or "recall").
    #[getter]
    fn favor(&self) -> &'static str {
        self.path.favor.name()
    }

    /// The block model file, or None for the model inside the module.
    #[getter]
    fn model(&self) -> Option<PathBuf> {
        self.model.clone()
    }

    /// The default format of extract().
    #[getter]
    fn format(&self) -> &'static str {
        self.format.name()
    }

    fn __repr__(&self) -> String {
        match &self.model {
            Some(m) => format!(
                "Extractor(cleaner={:?}, model={:?}, format={:?})",
                self.path.cleaner.name(),
                m.display().to_string(),
                self.format.name()
            ),
            None => format!(
                "Extractor(cleaner={:?}, format={:?})",
                self.path.cleaner.name(),
                self.format.name()
            ),
        }
    }
}
