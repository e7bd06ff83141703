//! An ingest's records handed to other engines: a record's document id as a test collection
//! or another engine names it ([`DocIdField`]: its identifier, its WARC record's id, or a
//! field of the JSON line it came from), and the records as Anserini/Pyserini's JSON
//! collection (`{"id", "contents"}` lines, [`export_pyserini`]), so that they index exactly
//! docview's cleaned text.

use std::io::Write;
use std::path::Path;

use serde::Serialize;

use super::{DOCVIEWS, RecordLine, try_for_each_line};
use crate::{Error, Result};

/// Which field of a record is its document id (in qrels, run files and exports).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DocIdField {
    /// The record's identifier: the page's URL (`url`).
    Identifier,
    /// The WARC record's `WARC-Record-ID` (`warc_record_id`).
    WarcRecordId,
    /// A field of the JSON line the page came from (a user's `id`).
    InputField(String),
}

impl DocIdField {
    /// The field called `name`: `url` (or `identifier`), `warc_record_id`, else a JSON line's
    /// field of that name.
    pub fn named(name: &str) -> DocIdField {
        match name {
            "url" | "identifier" => DocIdField::Identifier,
            "warc_record_id" => DocIdField::WarcRecordId,
            other => DocIdField::InputField(other.to_string()),
        }
    }

    /// Its name.
    pub fn name(&self) -> &str {
        match self {
            DocIdField::Identifier => "url",
            DocIdField::WarcRecordId => "warc_record_id",
            DocIdField::InputField(name) => name,
        }
    }

    /// The document id of `record`, if it has the field (a JSON value that is not a string
    /// as its JSON text).
    pub fn of(&self, record: &RecordLine) -> Option<String> {
        match self {
            DocIdField::Identifier => Some(record.docview.identifier.clone()),
            DocIdField::WarcRecordId => record.ids.warc_record_id.clone(),
            DocIdField::InputField(name) => record
                .ids
                .input_fields
                .as_ref()?
                .iter()
                .find(|(key, _)| key == name)
                .map(|(_, value)| match value {
                    serde_json::Value::String(s) => s.clone(),
                    other => other.to_string(),
                }),
        }
    }

    /// The document id of `record`; a record without the field, or whose value is empty or
    /// holds a space (a run file's id is one word), is an error naming the record and `file`.
    pub fn of_checked(&self, record: &RecordLine, file: &Path) -> Result<String> {
        let page = &record.docview.identifier;
        match self.of(record) {
            Some(id) if !id.is_empty() && !id.contains(char::is_whitespace) => Ok(id),
            Some(id) => Err(Error::bad_input(
                file.display().to_string(),
                format!(
                    "the {:?} of {page} is {id:?}: a document id is one word; name another \
                     field (url, warc_record_id, or a field of the JSON lines ingested)",
                    self.name()
                ),
            )),
            None => Err(Error::bad_input(
                file.display().to_string(),
                format!(
                    "{page} has no {:?} to be its document id; name another field (url, \
                     warc_record_id, or a field of the JSON lines ingested)",
                    self.name()
                ),
            )),
        }
    }
}

/// A part of a DocView record an export's `contents` is made of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExportField {
    /// The title.
    Title,
    /// The keywords, space-separated.
    Keywords,
    /// The abstract.
    Abstract,
    /// The topic content.
    Topic,
}

impl ExportField {
    /// Every field, in the order `contents` joins them.
    pub const ALL: [ExportField; 4] = [
        ExportField::Title,
        ExportField::Keywords,
        ExportField::Abstract,
        ExportField::Topic,
    ];

    /// Its name: `title`, `keywords`, `abstract`, `topic`.
    pub fn name(self) -> &'static str {
        match self {
            ExportField::Title => "title",
            ExportField::Keywords => "keywords",
            ExportField::Abstract => "abstract",
            ExportField::Topic => "topic",
        }
    }

    /// The field called `name`.
    pub fn named(name: &str) -> Option<ExportField> {
        ExportField::ALL.into_iter().find(|f| f.name() == name)
    }

    fn text(self, record: &RecordLine) -> String {
        let d = &record.docview;
        match self {
            ExportField::Title => d.title.clone(),
            ExportField::Keywords => d.keywords.join(" "),
            ExportField::Abstract => d.abstract_text.clone(),
            ExportField::Topic => d.topic_content.clone(),
        }
    }
}

/// One line of Anserini/Pyserini's JSON collection.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PyseriniLine {
    /// The document id.
    pub id: String,
    /// The text to index.
    pub contents: String,
}

/// Writes the records of the ingest in `dir` to `out` as Pyserini's JSON collection, one
/// `{"id", "contents"}` line a record in record order: `contents` the record's `fields` in
/// their order, each that is not empty, joined by a blank line; `id` the record's `docid`.
/// The number of lines written.
pub fn export_pyserini(
    dir: &Path,
    fields: &[ExportField],
    docid: &DocIdField,
    out: &mut dyn Write,
) -> Result<usize> {
    let file = dir.join(DOCVIEWS);
    let mut lines = 0usize;
    try_for_each_line(&file, |record: RecordLine| {
        let id = docid.of_checked(&record, &file)?;
        let parts: Vec<String> = fields
            .iter()
            .map(|f| f.text(&record))
            .filter(|t| !t.trim().is_empty())
            .collect();
        let line = PyseriniLine {
            id,
            contents: parts.join("\n\n"),
        };
        let json = serde_json::to_string(&line)
            .map_err(|e| Error::bad_input(file.display().to_string(), format!("JSON: {e}")))?;
        writeln!(out, "{json}").map_err(|e| Error::io("the export's output", e))?;
        lines += 1;
        Ok(())
    })?;
    Ok(lines)
}
