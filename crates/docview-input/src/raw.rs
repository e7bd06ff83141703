//! What the crawled-input readers hand out: a [`RawPage`] (the bytes of one page, not yet
//! decoded), or word that a record was skipped or malformed ([`InputEvent`]).

use std::fmt;
use std::path::Path;

/// One crawled page before decoding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawPage {
    /// `WARC-Target-URI` of a WARC record, `"url"` of a JSONL line, or the `file://` URL of the
    /// canonical absolute path of a file; empty for a page read whole from standard input
    /// ([`crate::Inputs::with_stdin_page`]), which has no address.
    pub url: String,
    /// The HTTP body (dechunked and decompressed per `Transfer-Encoding`/`Content-Encoding`), or
    /// the file's bytes (gunzipped when gzip), or the `"html"` of a JSONL line, at most
    /// 64 MiB (`MAX_PAGE_BYTES`).
    pub bytes: Vec<u8>,
    /// The `charset=` parameter of the HTTP `Content-Type` header (of a WARC `resource`
    /// record's `Content-Type`), if any.
    pub http_charset: Option<String>,
    /// Where the page came from, for messages: `path` (a file), `path:LINE` (JSONL, from 1),
    /// `path@OFFSET` (the byte offset of the WARC record in the file; for a `.warc.gz`, the
    /// offset of its gzip member, followed by `+N` when the record starts `N` uncompressed bytes
    /// into the member, as in a WARC compressed as a whole).
    pub origin: String,
    /// The WARC record's identity, for a page read from a WARC (boxed: an event stays small).
    pub warc: Option<Box<WarcIds>>,
    /// The other fields of a JSON line (a user's `id`, a `charset`), in the line's order,
    /// passed through to what docview writes of the page; `None` when there are none.
    pub fields: Option<Box<JsonFields>>,
    /// What `bytes` hold: HTML (every reader's pages), or plain text already cleaned elsewhere
    /// (a JSON line's text field, [`crate::JsonlKeys::text`]), which docview does not clean.
    pub kind: PageKind,
}

/// What a [`RawPage`]'s bytes hold.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PageKind {
    /// A page's HTML, to decode, parse and clean.
    #[default]
    Html,
    /// Plain text in UTF-8 that is the page's topic content as it stands (a collection cleaned
    /// by another tool, or docview's own Pyserini export read back).
    Text,
}

/// The fields of a JSON line other than its address and HTML, in the line's order.
pub type JsonFields = Vec<(String, serde_json::Value)>;

/// What identifies the WARC record a page was read from, as its header gives it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct WarcIds {
    /// `WARC-Record-ID`, as written (`<urn:uuid:...>`), if the record has one.
    pub record_id: Option<String>,
    /// `WARC-Date`, as written (ISO 8601, UTC), if the record has one.
    pub date: Option<String>,
}

/// Why a record that is not a page was passed over.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SkipReason {
    /// The HTTP `Content-Type` (a WARC `resource` record's) is not HTML (`text/html`,
    /// `application/xhtml+xml`); empty when the header is missing and the body does not start
    /// with `<`.
    NotHtml {
        /// The media type, lowercase, without parameters.
        content_type: String,
    },
    /// The HTTP status is not 2xx.
    HttpStatus(u16),
    /// A WARC record that may hold content but is neither a response nor a resource:
    /// `revisit`, `conversion`, `continuation` or an unknown type. (`warcinfo`, `request` and `metadata`
    /// records are passed over without an event.)
    NotResponse {
        /// The `WARC-Type`.
        warc_type: String,
    },
    /// A WARC `response` record that does not hold an HTTP response (a `dns:` lookup, ...).
    NotHttp {
        /// The WARC `Content-Type` of the record.
        content_type: String,
    },
    /// The HTTP body uses a `Content-Encoding` or `Transfer-Encoding` docview cannot undo.
    Encoding(String),
    /// A symbolic link in an input folder: not followed, so a walk never leaves the folder nor
    /// reads a page twice.
    Symlink,
    /// A FIFO, socket or device in an input folder.
    SpecialFile(&'static str),
    /// A file in an input folder that is neither a page (`.html`, `.htm`, `.xhtml`, with `.gz`)
    /// nor a crawl file (`.warc`, `.jsonl`).
    NotPageFile,
    /// A JSONL line's `"url"` or a WARC record's `WARC-Target-URI` that is empty or only white
    /// space: the page has no identifier for its record.
    NoUrl,
    /// A URL whose scheme addresses no page ([`NOT_PAGE_SCHEMES`]: `javascript:`, `data:`,
    /// `about:`, …): no identifier for a record, and a hazard as a link.
    NotPageUrl {
        /// The scheme, lowercase.
        scheme: String,
    },
}

/// URL schemes that address no page: a record with such a URL is skipped
/// ([`SkipReason::NotPageUrl`]).
pub const NOT_PAGE_SCHEMES: [&str; 7] = [
    "javascript",
    "vbscript",
    "data",
    "about",
    "blob",
    "mailto",
    "tel",
];

impl SkipReason {
    /// What the skip is counted under: this reason without its detail.
    pub fn kind(&self) -> SkipKind {
        match self {
            SkipReason::NotHtml { .. } => SkipKind::NotHtml,
            SkipReason::HttpStatus(code) => SkipKind::HttpStatus(*code),
            SkipReason::NotResponse { warc_type } => SkipKind::NotResponse {
                warc_type: warc_type.clone(),
            },
            SkipReason::NotHttp { .. } => SkipKind::NotHttp,
            SkipReason::Encoding(_) => SkipKind::Encoding,
            SkipReason::Symlink => SkipKind::Symlink,
            SkipReason::SpecialFile(_) => SkipKind::SpecialFile,
            SkipReason::NotPageFile => SkipKind::NotPageFile,
            SkipReason::NoUrl => SkipKind::NoUrl,
            SkipReason::NotPageUrl { .. } => SkipKind::NotPageUrl,
        }
    }
}

/// What a skipped record is counted under: its [`SkipReason`] without the detail (the content
/// type, the encoding, the kind of file), so that skips group in counts. It is written as a
/// short label (`not HTML`, `HTTP status 404`, `WARC revisit record`), which parses back
/// ([`FromStr`](std::str::FromStr)).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum SkipKind {
    /// [`SkipReason::NotHtml`].
    NotHtml,
    /// [`SkipReason::HttpStatus`], with its status.
    HttpStatus(u16),
    /// [`SkipReason::NotResponse`], with its `WARC-Type`.
    NotResponse {
        /// The `WARC-Type`.
        warc_type: String,
    },
    /// [`SkipReason::NotHttp`].
    NotHttp,
    /// [`SkipReason::Encoding`].
    Encoding,
    /// [`SkipReason::Symlink`].
    Symlink,
    /// [`SkipReason::SpecialFile`].
    SpecialFile,
    /// [`SkipReason::NotPageFile`].
    NotPageFile,
    /// [`SkipReason::NoUrl`].
    NoUrl,
    /// [`SkipReason::NotPageUrl`].
    NotPageUrl,
}

impl SkipKind {
    /// The kinds whose label is fixed (the others hold a status or a WARC type).
    const FIXED: [SkipKind; 8] = [
        SkipKind::NotHtml,
        SkipKind::NotHttp,
        SkipKind::Encoding,
        SkipKind::Symlink,
        SkipKind::SpecialFile,
        SkipKind::NotPageFile,
        SkipKind::NoUrl,
        SkipKind::NotPageUrl,
    ];
}

impl fmt::Display for SkipKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SkipKind::NotHtml => f.write_str("not HTML"),
            SkipKind::HttpStatus(code) => write!(f, "HTTP status {code}"),
            SkipKind::NotResponse { warc_type } => write!(f, "WARC {warc_type} record"),
            SkipKind::NotHttp => f.write_str("response record without HTTP"),
            SkipKind::Encoding => f.write_str("unsupported content encoding"),
            SkipKind::Symlink => f.write_str("symbolic link (not followed)"),
            SkipKind::SpecialFile => f.write_str("not a regular file"),
            SkipKind::NotPageFile => f.write_str("not a page file"),
            SkipKind::NoUrl => f.write_str("no URL"),
            SkipKind::NotPageUrl => f.write_str("not a page URL"),
        }
    }
}

impl std::str::FromStr for SkipKind {
    type Err = UnknownSkipKind;

    /// The kind a label names (as [`Display`](fmt::Display) writes it).
    fn from_str(label: &str) -> Result<SkipKind, UnknownSkipKind> {
        if let Some(kind) = Self::FIXED.into_iter().find(|k| k.to_string() == label) {
            return Ok(kind);
        }
        // The digits only as the label writes them: not `HTTP status 0404` nor `+404`.
        if let Some(digits) = label.strip_prefix("HTTP status ")
            && let Ok(code) = digits.parse::<u16>()
            && code.to_string() == digits
        {
            return Ok(SkipKind::HttpStatus(code));
        }
        if let Some(warc_type) = label
            .strip_prefix("WARC ")
            .and_then(|rest| rest.strip_suffix(" record"))
        {
            return Ok(SkipKind::NotResponse {
                warc_type: warc_type.to_string(),
            });
        }
        Err(UnknownSkipKind(label.to_string()))
    }
}

/// A label that names no [`SkipKind`].
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown skip reason {0:?}")]
pub struct UnknownSkipKind(pub String);

impl fmt::Display for SkipReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SkipReason::NotHtml { content_type } if content_type.is_empty() => {
                f.write_str("no content type and the body is not markup")
            }
            SkipReason::NotHtml { content_type } => write!(f, "not HTML ({content_type})"),
            SkipReason::HttpStatus(code) => write!(f, "HTTP status {code}"),
            SkipReason::NotResponse { warc_type } => write!(f, "WARC {warc_type} record"),
            SkipReason::NotHttp { content_type } => {
                write!(f, "response record without HTTP ({content_type})")
            }
            SkipReason::Encoding(coding) => write!(f, "unsupported content encoding {coding}"),
            SkipReason::Symlink => f.write_str("symbolic link (not followed)"),
            SkipReason::SpecialFile(kind) => write!(f, "not a regular file ({kind})"),
            SkipReason::NotPageFile => {
                f.write_str("not a page file (.html, .htm, .xhtml) nor a crawl file")
            }
            SkipReason::NoUrl => f.write_str("no URL (empty or white space): no identifier"),
            SkipReason::NotPageUrl { scheme } => {
                write!(f, "not a page URL ({scheme}: addresses no page)")
            }
        }
    }
}

/// What the readers of crawled input yield, in input order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum InputEvent {
    /// A page to process.
    Page(RawPage),
    /// A record that is not a page, counted but not processed.
    Skipped {
        /// Where it came from, as in [`RawPage::origin`].
        origin: String,
        /// Why it was passed over.
        reason: SkipReason,
    },
    /// A broken record, line or file: reported, and reading goes on after it.
    Malformed {
        /// Where it came from, as in [`RawPage::origin`] (a WARC record's offset is where it
        /// started).
        origin: String,
        /// What was wrong.
        message: String,
    },
}

impl InputEvent {
    /// Where the page or record came from.
    pub fn origin(&self) -> &str {
        match self {
            InputEvent::Page(page) => &page.origin,
            InputEvent::Skipped { origin, .. } | InputEvent::Malformed { origin, .. } => origin,
        }
    }
}

impl fmt::Display for InputEvent {
    /// One line: the origin, then what happened.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InputEvent::Page(page) => write!(f, "{}: page {}", page.origin, page.url),
            InputEvent::Skipped { origin, reason } => write!(f, "{origin}: skipped: {reason}"),
            InputEvent::Malformed { origin, message } => {
                write!(f, "{origin}: malformed: {message}")
            }
        }
    }
}

/// The identifier of a page whose input gives it `url` (a JSONL line's `"url"`, a WARC
/// record's `WARC-Target-URI`): `url` without the white space and control characters around
/// it (as a browser reads a URL), control characters inside it percent-encoded; or why the
/// page is skipped: an empty URL ([`SkipReason::NoUrl`]) or one whose scheme addresses no page
/// ([`SkipReason::NotPageUrl`], told after removing the tabs and line breaks a browser
/// removes, so `java\tscript:` is caught). Any other text stays the identifier as given: a URL
/// of another scheme, or a name that is no URL at all.
pub fn page_url(url: &str) -> Result<String, SkipReason> {
    let trimmed = url.trim_matches(|c: char| c.is_whitespace() || c.is_control());
    if trimmed.is_empty() {
        return Err(SkipReason::NoUrl);
    }
    let unbroken: String = trimmed
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
        .collect();
    if let Some((scheme, _)) = unbroken.split_once(':') {
        let is_scheme = scheme.starts_with(|c: char| c.is_ascii_alphabetic())
            && scheme
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.'));
        let scheme = scheme.to_ascii_lowercase();
        if is_scheme && NOT_PAGE_SCHEMES.contains(&scheme.as_str()) {
            return Err(SkipReason::NotPageUrl { scheme });
        }
    }
    Ok(clean_url(trimmed))
}

/// A page URL as records and terminals may show it: control characters (which no valid URL
/// holds, and which would reach a terminal through `docview query`) percent-encoded.
fn clean_url(url: &str) -> String {
    if !url.chars().any(char::is_control) {
        return url.to_string();
    }
    let mut out = String::with_capacity(url.len() + 8);
    for c in url.chars() {
        if c.is_control() {
            let mut buf = [0u8; 4];
            for b in c.encode_utf8(&mut buf).bytes() {
                out.push_str(&format!("%{b:02X}"));
            }
        } else {
            out.push(c);
        }
    }
    out
}

/// The `file://` URL of `path`, which should be absolute: bytes other than unreserved
/// characters and `/` are percent-encoded (the path taken as UTF-8, lossily).
pub fn file_url(path: &Path) -> String {
    let text = path.to_string_lossy().replace('\\', "/");
    let mut url = String::from("file://");
    if !text.starts_with('/') {
        url.push('/');
    }
    for &b in text.as_bytes() {
        if b.is_ascii_alphanumeric() || b"/-._~!$&'()*+,;=:@".contains(&b) {
            url.push(char::from(b));
        } else {
            url.push_str(&format!("%{b:02X}"));
        }
    }
    url
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_urls_are_percent_encoded() {
        assert_eq!(file_url(Path::new("/a/b c.html")), "file:///a/b%20c.html");
        assert_eq!(
            file_url(Path::new("/新闻/x#1.htm")),
            "file:///%E6%96%B0%E9%97%BB/x%231.htm"
        );
    }

    #[test]
    fn a_page_url_is_trimmed_and_one_that_addresses_no_page_is_refused() {
        assert_eq!(
            page_url("http://a.example/x"),
            Ok("http://a.example/x".into())
        );
        assert_eq!(
            page_url("  http://a.example/x\n"),
            Ok("http://a.example/x".into())
        );
        assert_eq!(page_url("doc-17"), Ok("doc-17".into()));
        assert_eq!(
            page_url("urn:isbn:0451450523"),
            Ok("urn:isbn:0451450523".into())
        );
        assert_eq!(page_url("file:///a/b.html"), Ok("file:///a/b.html".into()));
        // A colon in a path or a query is no scheme.
        assert_eq!(page_url("a/b:javascript"), Ok("a/b:javascript".into()));
        for empty in ["", "   ", "\t\r\n", "\u{0}\u{85}"] {
            assert_eq!(page_url(empty), Err(SkipReason::NoUrl), "{empty:?}");
        }
        for (url, scheme) in [
            ("javascript:alert(1)", "javascript"),
            (" JavaScript:alert(1)", "javascript"),
            ("java\tscript:alert(1)", "javascript"),
            ("data:text/html,<p>x</p>", "data"),
            ("about:blank", "about"),
            ("mailto:a@b.example", "mailto"),
        ] {
            assert_eq!(
                page_url(url),
                Err(SkipReason::NotPageUrl {
                    scheme: scheme.into()
                }),
                "{url:?}"
            );
        }
        // What it gives passes again unchanged.
        for url in ["http://a.example/\u{1b}[31m", " x ", "doc-17"] {
            let once = page_url(url).unwrap();
            assert_eq!(page_url(&once), Ok(once.clone()));
        }
    }

    #[test]
    fn control_characters_in_urls_are_percent_encoded() {
        assert_eq!(clean_url("http://a.example/x"), "http://a.example/x");
        assert_eq!(
            clean_url("http://a.example/\u{1b}[31mred\u{85}"),
            "http://a.example/%1B[31mred%C2%85"
        );
    }

    #[test]
    fn events_display_in_one_line() {
        let skipped = InputEvent::Skipped {
            origin: "a.warc@10".into(),
            reason: SkipReason::HttpStatus(404),
        };
        assert_eq!(skipped.to_string(), "a.warc@10: skipped: HTTP status 404");
        assert_eq!(skipped.origin(), "a.warc@10");
        let not_html = SkipReason::NotHtml {
            content_type: "image/png".into(),
        };
        assert_eq!(not_html.to_string(), "not HTML (image/png)");
        let revisit = SkipReason::NotResponse {
            warc_type: "revisit".into(),
        };
        assert_eq!(revisit.to_string(), "WARC revisit record");
    }

    #[test]
    fn a_skip_is_counted_under_a_label_that_parses_back() {
        let reasons = [
            SkipReason::NotHtml {
                content_type: "image/png".into(),
            },
            SkipReason::HttpStatus(404),
            SkipReason::NotResponse {
                warc_type: "revisit".into(),
            },
            SkipReason::NotHttp {
                content_type: "text/dns".into(),
            },
            SkipReason::Encoding("br".into()),
            SkipReason::Symlink,
            SkipReason::SpecialFile("FIFO"),
            SkipReason::NotPageFile,
            SkipReason::NoUrl,
            SkipReason::NotPageUrl {
                scheme: "javascript".into(),
            },
        ];
        let labels: Vec<String> = reasons.iter().map(|r| r.kind().to_string()).collect();
        assert_eq!(
            labels,
            [
                "not HTML",
                "HTTP status 404",
                "WARC revisit record",
                "response record without HTTP",
                "unsupported content encoding",
                "symbolic link (not followed)",
                "not a regular file",
                "not a page file",
                "no URL",
                "not a page URL",
            ]
        );
        for (reason, label) in reasons.iter().zip(&labels) {
            assert_eq!(label.parse::<SkipKind>(), Ok(reason.kind()), "{label}");
        }
        for wrong in [
            "",
            "HTTP status",
            "HTTP status 0404",
            "HTTP status +404",
            "HTTP status 70000",
            "not html",
        ] {
            assert_eq!(
                wrong.parse::<SkipKind>(),
                Err(UnknownSkipKind(wrong.to_string()))
            );
        }
    }
}
