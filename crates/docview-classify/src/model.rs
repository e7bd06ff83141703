//! Model files: JSON with a format name and a version, of either kind of classifier
//! ([`PageClassifier::load`] tells them by their format name); a file of another version is a
//! clear error. The default model is inside the binary ([`PageClassifier::embedded`]), and a
//! model is named by the digest of its file ([`model_digest`]).

use std::path::Path;

use docview_measure::FeatureVector;
use serde::Deserialize;

use crate::knn::{MODEL_FORMAT, MODEL_VERSION};
use crate::trees::{TREES_FORMAT, TREES_VERSION};
use crate::{Classification, Classifier, Error, PageView, Result, TreeClassifier};

/// The default classifier, inside the binary: trees for wcxb-dev's page types (article,
/// collection, documentation, forum, listing, product, service), built by
/// `docview classify train ../shared/corpus/wcxb-dev --out models/page-type-classifier.json`
/// and `gzip -9n`.
static EMBEDDED: &[u8] = include_bytes!("../../../models/page-type-classifier.json.gz");

/// The MD5 (hex) of bytes: what names a model in the records and in a resumed run's settings.
fn md5_hex(bytes: &[u8]) -> String {
    use md5::{Digest, Md5};
    Md5::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The digest of a model file's bytes, or of the model inside the binary (`None`).
pub fn model_digest(path: Option<&Path>) -> Result<String> {
    digest_of(path, EMBEDDED)
}

/// The MD5 (hex) of the file at `path`, or of `embedded` (`None`): a model of either role
/// named by its bytes.
pub(crate) fn digest_of(path: Option<&Path>, embedded: &[u8]) -> Result<String> {
    match path {
        Some(p) => std::fs::read(p)
            .map(|bytes| md5_hex(&bytes))
            .map_err(|source| Error::Io {
                path: p.display().to_string(),
                source,
            }),
        None => Ok(md5_hex(embedded)),
    }
}

/// Checks that `json` is a model file of `format` and `version`.
pub(crate) fn check_header(
    json: &str,
    format: &str,
    version: u32,
    source_name: &str,
) -> Result<()> {
    #[derive(Deserialize)]
    struct Header {
        format: String,
        version: u32,
    }
    let bad = |reason: String| Error::Model {
        source_name: source_name.to_string(),
        reason,
    };
    let header: Header =
        serde_json::from_str(json).map_err(|e| bad(format!("not a model file: {e}")))?;
    if header.format != format {
        return Err(bad(format!(
            "format {:?}, expected {format:?}",
            header.format
        )));
    }
    if header.version != version {
        return Err(bad(format!(
            "version {} but this docview reads version {version}: retrain it with \
             `docview classify train`",
            header.version
        )));
    }
    Ok(())
}

/// A page classifier of either kind, as model files hold them and integration uses them.
pub enum PageClassifier {
    /// The paper's kNN over Formula 2 vectors ([`Classifier`]).
    Neighbours(Classifier),
    /// Gradient-boosted trees over the page's signals ([`TreeClassifier`]).
    Trees(TreeClassifier),
}

impl std::fmt::Debug for PageClassifier {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PageClassifier")
            .field("format", &self.format_version())
            .field("scheme", &self.scheme())
            .field("classes", &self.classes())
            .finish()
    }
}

impl PageClassifier {
    /// Reads a model of either kind from JSON (by its format name); `source_name` names it in
    /// errors.
    pub fn from_json(json: &str, source_name: &str) -> Result<PageClassifier> {
        #[derive(Deserialize)]
        struct Format {
            format: String,
        }
        let format: Format = serde_json::from_str(json).map_err(|e| Error::Model {
            source_name: source_name.to_string(),
            reason: format!("not a model file: {e}"),
        })?;
        if format.format == TREES_FORMAT {
            TreeClassifier::from_json(json, source_name).map(PageClassifier::Trees)
        } else {
            Classifier::from_json(json, source_name).map(PageClassifier::Neighbours)
        }
    }

    /// Reads a model file of either kind.
    pub fn load(path: &Path) -> Result<PageClassifier> {
        let json = std::fs::read_to_string(path).map_err(|source| Error::Io {
            path: path.display().to_string(),
            source,
        })?;
        PageClassifier::from_json(&json, &path.display().to_string())
    }

    /// The classifier inside the binary (decoded once).
    pub fn embedded() -> Result<std::sync::Arc<PageClassifier>> {
        use std::io::Read;
        type Loaded = std::result::Result<std::sync::Arc<PageClassifier>, String>;
        static MODEL: std::sync::OnceLock<Loaded> = std::sync::OnceLock::new();
        MODEL
            .get_or_init(|| {
                let mut json = String::new();
                flate2::read::GzDecoder::new(EMBEDDED)
                    .read_to_string(&mut json)
                    .map_err(|e| e.to_string())?;
                PageClassifier::from_json(&json, "embedded")
                    .map(std::sync::Arc::new)
                    .map_err(|e| e.to_string())
            })
            .clone()
            .map_err(|reason| Error::Model {
                source_name: "embedded".to_string(),
                reason,
            })
    }

    /// What its classes are.
    pub fn scheme(&self) -> &str {
        match self {
            PageClassifier::Neighbours(m) => &m.scheme,
            PageClassifier::Trees(m) => &m.scheme,
        }
    }

    /// Its classes, sorted.
    pub fn classes(&self) -> &[String] {
        match self {
            PageClassifier::Neighbours(m) => &m.classes,
            PageClassifier::Trees(m) => &m.classes,
        }
    }

    /// Its file format and version, `docview-classifier-trees v1`.
    pub fn format_version(&self) -> String {
        match self {
            PageClassifier::Neighbours(_) => format!("{MODEL_FORMAT} v{MODEL_VERSION}"),
            PageClassifier::Trees(_) => format!("{TREES_FORMAT} v{TREES_VERSION}"),
        }
    }

    /// The class of a page from its Formula 2 vector `v` (the kNN reads it, of the source the
    /// model was trained on) and its view (the trees read it; the kNN reads its shape).
    pub fn classify(&self, v: &FeatureVector, page: PageView<'_>) -> Classification {
        match self {
            PageClassifier::Neighbours(m) => m.classify_page(v, page.shape),
            PageClassifier::Trees(m) => m.classify(page),
        }
    }

    /// The model as JSON.
    pub fn to_json(&self) -> String {
        match self {
            PageClassifier::Neighbours(m) => m.to_json(),
            PageClassifier::Trees(m) => m.to_json(),
        }
    }

    /// Writes the model to `path`, whole or not at all (through a temporary file beside it).
    pub fn save(&self, path: &Path) -> Result<()> {
        let io = |source| Error::Io {
            path: path.display().to_string(),
            source,
        };
        let tmp = path.with_extension("json.partial");
        std::fs::write(&tmp, self.to_json()).map_err(io)?;
        std::fs::rename(&tmp, path).map_err(io)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::knn::tests::trained;

    #[test]
    fn model_round_trip_and_version_check() {
        let c = trained(3);
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("m.json");
        PageClassifier::Neighbours(c.clone()).save(&path).unwrap();
        let back = PageClassifier::load(&path).unwrap();
        assert_eq!(back.format_version(), "docview-classifier v1");
        assert!(matches!(back, PageClassifier::Neighbours(m) if m == c));
        // Same pages, same bytes.
        assert_eq!(trained(3).to_json(), c.to_json());
        let old = c.to_json().replace("\"version\":1", "\"version\":0");
        let err = Classifier::from_json(&old, "old.json")
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("old.json") && err.contains("version 0"),
            "{err}"
        );
        let err = Classifier::from_json("{}", "x").unwrap_err().to_string();
        assert!(err.contains("not a model file"), "{err}");
    }
}
