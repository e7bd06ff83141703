//! `docview.read_docviews`: the DocView records of an ingest's output, one dict at a time,
//! from `docviews.jsonl` or the `record` column of `docviews.parquet`.

use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use pyo3::prelude::*;

use docview_collection::records::{DOCVIEWS, DOCVIEWS_PARQUET, read_docviews_parquet};

use crate::error::{Error, Result};

/// One record's JSON text and where it was read from (`file:line`, `file:row`).
type Line = Result<(String, String)>;

/// The record files docview writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Layout {
    /// `docviews.jsonl`: one record a line.
    Jsonl,
    /// `docviews.parquet`: the whole record in the `record` column.
    Parquet,
}

impl Layout {
    fn name(self) -> &'static str {
        match self {
            Layout::Jsonl => "jsonl",
            Layout::Parquet => "parquet",
        }
    }
}

/// The record file at `path` and its layout: an ingest's output folder (its docviews.jsonl,
/// else its docviews.parquet), a `.parquet` file, or a JSONL file.
fn locate(path: &Path) -> Result<(PathBuf, Layout)> {
    if path.is_dir() {
        for (name, layout) in [
            (DOCVIEWS, Layout::Jsonl),
            (DOCVIEWS_PARQUET, Layout::Parquet),
        ] {
            let file = path.join(name);
            if file.is_file() {
                return Ok((file, layout));
            }
        }
        return Err(Error::NotFound {
            path: path.to_path_buf(),
            what: format!(
                "no DocView records here (neither {DOCVIEWS} nor {DOCVIEWS_PARQUET}); run \
                 docview.ingest first"
            ),
        });
    }
    if !path.exists() {
        return Err(Error::NotFound {
            path: path.to_path_buf(),
            what: "No such file or directory".to_string(),
        });
    }
    let parquet = path
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("parquet"));
    Ok((
        path.to_path_buf(),
        if parquet {
            Layout::Parquet
        } else {
            Layout::Jsonl
        },
    ))
}

/// The records of `file` as JSON text, in order.
fn lines(file: &Path, layout: Layout) -> Result<Box<dyn Iterator<Item = Line> + Send>> {
    let name = file.display().to_string();
    match layout {
        Layout::Jsonl => {
            let f = File::open(file)
                .map_err(|e| docview_collection::Error::io(file, e))
                .map_err(Error::from)?;
            let path = file.to_path_buf();
            Ok(Box::new(
                BufReader::new(f)
                    .lines()
                    .enumerate()
                    .map(move |(i, line)| {
                        let at = format!("{name}:{}", i + 1);
                        line.map(|l| (at, l))
                            .map_err(|e| docview_collection::Error::io(&path, e).into())
                    })
                    .filter(|line| !matches!(line, Ok((_, l)) if l.trim().is_empty())),
            ))
        }
        Layout::Parquet => {
            let lines = read_docviews_parquet(file)?;
            Ok(Box::new(lines.enumerate().map(move |(i, line)| {
                Ok((format!("{name}: row {}", i + 1), line?))
            })))
        }
    }
}

/// The DocView records of an ingest's output, one dict at a time, in the order ingest wrote
/// them (the input order of the kept pages).
///
/// Made by docview.read_docviews(path). Each dict is one line of docviews.jsonl: the DocView's
/// elements (identifier, url, type, classification_code, title, keywords, abstract,
/// topic_content, relevant_links, language, ...) and what the run knows of the page (seq,
/// origin, fingerprints).
#[pyclass(frozen, module = "docview")]
pub struct DocViews {
    path: PathBuf,
    layout: Layout,
    lines: Mutex<Box<dyn Iterator<Item = Line> + Send>>,
}

#[pymethods]
impl DocViews {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        let next = {
            let mut lines = self.lines.lock().map_err(|_| Error::Panic {
                input: self.path.display().to_string(),
                message: "the reader panicked in another thread".to_string(),
            })?;
            lines.next()
        };
        let Some(line) = next else {
            return Ok(None);
        };
        let (at, text) = line.map_err(|e| e.into_pyerr(py))?;
        let value: serde_json::Value = serde_json::from_str(&text)
            .map_err(|source| Error::Json { input: at, source }.into_pyerr(py))?;
        Ok(Some(pythonize::pythonize(py, &value)?))
    }

    /// The record file read.
    #[getter]
    fn path(&self) -> PathBuf {
        self.path.clone()
    }

    /// Its layout: "jsonl" or "parquet".
    #[getter]
    fn format(&self) -> &'static str {
        self.layout.name()
    }

    fn __repr__(&self) -> String {
        format!(
            "DocViews(path={:?}, format={:?})",
            self.path.display().to_string(),
            self.layout.name()
        )
    }
}

/// Iterates the DocView records (dicts) of an ingest's output.
///
/// path is the out folder of docview.ingest (its docviews.jsonl, else its docviews.parquet), a
/// docviews.parquet file (ingest with parquet=True) or a docviews.jsonl file. Raises
/// PathNotFoundError (a FileNotFoundError) when there is no record file there.
#[pyfunction]
pub fn read_docviews(py: Python<'_>, path: PathBuf) -> PyResult<DocViews> {
    let open = || -> Result<DocViews> {
        let (file, layout) = locate(&path)?;
        let lines = lines(&file, layout)?;
        Ok(DocViews {
            path: file,
            layout,
            lines: Mutex::new(lines),
        })
    };
    open().map_err(|e| e.into_pyerr(py))
}
