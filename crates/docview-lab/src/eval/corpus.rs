//! Labelled corpora on disk: `<set>/ground-truth/<id>.json` paired with `<set>/html/<id>.html.gz`.
//!
//! The sets do not all fill every field: dragnet-dev and zh-news-dev have a null `title`, a null
//! `url` happens, one wcxb-dev file has no `file_id` (the file name gives it). Missing or null
//! text fields become empty, a missing `page_type` becomes [`UNKNOWN_PAGE_TYPE`]; only
//! `ground_truth.main_content` is required, and a null one (WCXB's test split has four) is an
//! empty reference, as the corpus README's rule reads it ([`LabelledPage::null_reference`]
//! tells which, for a warning).

use std::fs;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::{Error, Result};

/// The page type of pages whose ground truth has none.
pub const UNKNOWN_PAGE_TYPE: &str = "unknown";

/// One page of a labelled corpus: its ground truth and where its HTML is.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(from = "GroundTruthFile")]
pub struct LabelledPage {
    /// The page id, also the stem of its two file names.
    pub file_id: String,
    /// The URL the page was crawled from, or empty.
    pub url: String,
    /// The site the ground truth names (dragnet-dev has one), or empty.
    pub site: String,
    /// The set's page type (`article`, `forum`, ...), or [`UNKNOWN_PAGE_TYPE`].
    pub page_type: String,
    /// The reference title, or empty.
    pub title: String,
    /// The reference main content, scored against.
    pub main_content: String,
    /// True when the ground truth gave `"main_content": null` (read as empty).
    pub null_reference: bool,
    /// Snippets the main content must hold.
    pub with: Vec<String>,
    /// Snippets of boilerplate the main content must not hold.
    pub without: Vec<String>,
    /// The page's HTML file (set by [`load_set`]; empty when deserialized alone).
    pub html_path: PathBuf,
}

/// A ground-truth file as written.
#[derive(Deserialize)]
struct GroundTruthFile {
    #[serde(default)]
    url: Option<String>,
    #[serde(default)]
    file_id: Option<String>,
    #[serde(default)]
    page_type: Option<String>,
    #[serde(default)]
    site: Option<String>,
    ground_truth: GroundTruth,
}

#[derive(Deserialize)]
struct GroundTruth {
    #[serde(default)]
    title: Option<String>,
    /// Required, but may be null.
    #[serde(deserialize_with = "nullable")]
    main_content: Option<String>,
    #[serde(default)]
    with: Option<Vec<String>>,
    #[serde(default)]
    without: Option<Vec<String>>,
}

/// A field that must be present and may be null (serde takes a missing `Option` for `None`
/// unless a `deserialize_with` reads it).
fn nullable<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> std::result::Result<Option<String>, D::Error> {
    Option::<String>::deserialize(d)
}

impl From<GroundTruthFile> for LabelledPage {
    fn from(file: GroundTruthFile) -> Self {
        let truth = file.ground_truth;
        LabelledPage {
            file_id: file.file_id.unwrap_or_default(),
            url: file.url.unwrap_or_default(),
            site: file.site.unwrap_or_default(),
            page_type: file
                .page_type
                .filter(|t| !t.trim().is_empty())
                .unwrap_or_else(|| UNKNOWN_PAGE_TYPE.to_string()),
            title: truth.title.unwrap_or_default(),
            null_reference: truth.main_content.is_none(),
            main_content: truth.main_content.unwrap_or_default(),
            with: truth.with.unwrap_or_default(),
            without: truth.without.unwrap_or_default(),
            html_path: PathBuf::new(),
        }
    }
}

/// Loads the labelled pages of the set in `dir`, sorted by file id.
///
/// Errors ([`Error::Corpus`]) when `dir` lacks `ground-truth/` or `html/`, when there is no
/// ground truth, when a ground-truth file is malformed, names another `file_id` than its file
/// name, or has no `html/<id>.html.gz` (or `html/<id>.html`).
pub fn load_set(dir: &Path) -> Result<Vec<LabelledPage>> {
    let truth_dir = dir.join("ground-truth");
    let html_dir = dir.join("html");
    for sub in [&truth_dir, &html_dir] {
        if !sub.is_dir() {
            let reason = format!(
                "no {} folder (a set holds ground-truth/<id>.json and html/<id>.html.gz)",
                sub.display()
            );
            return Err(corpus_error(dir, reason));
        }
    }
    let mut pages = Vec::new();
    for entry in fs::read_dir(&truth_dir).map_err(|e| Error::io(&truth_dir, e))? {
        let path = entry.map_err(|e| Error::io(&truth_dir, e))?.path();
        if let Some(id) = json_stem(&path) {
            pages.push(load_page(&path, id, &html_dir)?);
        }
    }
    if pages.is_empty() {
        return Err(corpus_error(&truth_dir, "no <id>.json ground-truth file"));
    }
    pages.sort_by(|a, b| a.file_id.cmp(&b.file_id));
    Ok(pages)
}

/// Reads one ground-truth file and pairs it with its HTML file.
fn load_page(path: &Path, id: &str, html_dir: &Path) -> Result<LabelledPage> {
    let json = fs::read(path).map_err(|e| Error::io(path, e))?;
    let mut page: LabelledPage = serde_json::from_slice(&json)
        .map_err(|e| corpus_error(path, format!("malformed ground truth: {e}")))?;
    if page.file_id.is_empty() {
        page.file_id = id.to_string();
    } else if page.file_id != id {
        let reason = format!("file_id {:?} does not match the file name", page.file_id);
        return Err(corpus_error(path, reason));
    }
    page.html_path = html_file(html_dir, id).ok_or_else(|| {
        let expected = html_dir.join(format!("{id}.html.gz"));
        corpus_error(
            path,
            format!("no html file ({} missing)", expected.display()),
        )
    })?;
    Ok(page)
}

/// The HTML file of page `id`: `<id>.html.gz`, or else `<id>.html`.
fn html_file(html_dir: &Path, id: &str) -> Option<PathBuf> {
    [format!("{id}.html.gz"), format!("{id}.html")]
        .into_iter()
        .map(|name| html_dir.join(name))
        .find(|path| path.is_file())
}

/// The id of a ground-truth file: its name without `.json`; hidden files are skipped.
fn json_stem(path: &Path) -> Option<&str> {
    let name = path.file_name()?.to_str()?;
    let id = name.strip_suffix(".json")?;
    (!id.is_empty() && !name.starts_with('.')).then_some(id)
}

fn corpus_error(path: &Path, reason: impl Into<String>) -> Error {
    Error::Corpus {
        path: path.to_path_buf(),
        reason: reason.into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(path: &Path, text: &str) {
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
    }

    fn tiny_set(dir: &Path) {
        write(
            &dir.join("ground-truth/b.json"),
            r#"{"url": null, "file_id": "b", "page_type": "forum",
                "ground_truth": {"title": null, "main_content": "Beta text", "with": ["Beta"], "without": []}}"#,
        );
        write(
            &dir.join("ground-truth/a.json"),
            r#"{"schema_version": "2.0", "page_type": "article", "extra": {"x": 1},
                "ground_truth": {"title": "A", "main_content": "Alpha", "author": null}}"#,
        );
        write(
            &dir.join("ground-truth/c.json"),
            r#"{"url": "http://c/", "file_id": "c", "ground_truth": {"main_content": ""}}"#,
        );
        write(&dir.join("ground-truth/notes.txt"), "not ground truth");
        write(&dir.join("html/a.html.gz"), "<p>Alpha</p>");
        write(&dir.join("html/b.html"), "<p>Beta</p>");
        write(&dir.join("html/c.html.gz"), "<p>Gamma</p>");
    }

    #[test]
    fn loads_sorted_with_defaults() {
        let tmp = tempfile::tempdir().unwrap();
        tiny_set(tmp.path());
        let pages = load_set(tmp.path()).unwrap();
        let ids: Vec<&str> = pages.iter().map(|p| p.file_id.as_str()).collect();
        assert_eq!(ids, ["a", "b", "c"]);
        let a = &pages[0];
        assert_eq!(
            (a.title.as_str(), a.url.as_str(), a.page_type.as_str()),
            ("A", "", "article")
        );
        assert!(a.with.is_empty() && a.without.is_empty());
        assert!(a.html_path.ends_with("html/a.html.gz"));
        assert_eq!(pages[1].with, ["Beta"]);
        assert!(pages[1].html_path.ends_with("html/b.html"));
        assert_eq!(pages[2].page_type, UNKNOWN_PAGE_TYPE);
        assert_eq!(pages[2].url, "http://c/");
    }

    #[test]
    fn missing_folders() {
        let tmp = tempfile::tempdir().unwrap();
        let err = load_set(tmp.path()).unwrap_err();
        assert!(matches!(err, Error::Corpus { .. }), "{err:?}");
        assert!(err.to_string().contains("ground-truth"), "{err}");
        fs::create_dir(tmp.path().join("ground-truth")).unwrap();
        let err = load_set(tmp.path()).unwrap_err();
        assert!(err.to_string().contains("html"), "{err}");
        fs::create_dir(tmp.path().join("html")).unwrap();
        let err = load_set(tmp.path()).unwrap_err();
        assert!(err.to_string().contains("no <id>.json"), "{err}");
    }

    #[test]
    fn ground_truth_without_html_is_named() {
        let tmp = tempfile::tempdir().unwrap();
        tiny_set(tmp.path());
        fs::remove_file(tmp.path().join("html/b.html")).unwrap();
        let err = load_set(tmp.path()).unwrap_err().to_string();
        assert!(
            err.contains("b.json") && err.contains("b.html.gz missing"),
            "{err}"
        );
    }

    #[test]
    fn malformed_ground_truth_is_named() {
        let tmp = tempfile::tempdir().unwrap();
        tiny_set(tmp.path());
        write(
            &tmp.path().join("ground-truth/a.json"),
            r#"{"ground_truth": {}}"#,
        );
        let err = load_set(tmp.path()).unwrap_err().to_string();
        assert!(
            err.contains("a.json") && err.contains("main_content"),
            "{err}"
        );
        write(&tmp.path().join("ground-truth/a.json"), "{not json");
        let err = load_set(tmp.path()).unwrap_err().to_string();
        assert!(err.contains("malformed ground truth"), "{err}");
    }

    #[test]
    fn a_null_main_content_is_an_empty_reference() {
        let tmp = tempfile::tempdir().unwrap();
        tiny_set(tmp.path());
        write(
            &tmp.path().join("ground-truth/a.json"),
            r#"{"file_id": "a", "ground_truth": {"main_content": null}}"#,
        );
        let pages = load_set(tmp.path()).unwrap();
        let a = pages.iter().find(|p| p.file_id == "a").unwrap();
        assert_eq!(a.main_content, "");
        assert!(a.null_reference);
        assert_eq!(pages.iter().filter(|p| p.null_reference).count(), 1);
    }

    #[test]
    fn file_id_must_match_the_name() {
        let tmp = tempfile::tempdir().unwrap();
        tiny_set(tmp.path());
        write(
            &tmp.path().join("ground-truth/a.json"),
            r#"{"file_id": "z", "ground_truth": {"main_content": "x"}}"#,
        );
        let err = load_set(tmp.path()).unwrap_err().to_string();
        assert!(err.contains("\"z\" does not match"), "{err}");
    }
}
