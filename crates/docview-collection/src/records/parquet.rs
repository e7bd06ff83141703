//! `docviews.parquet`: the DocView records of `docviews.jsonl` again as a Parquet table, one
//! [`DocViewRow`] per kept page, for Spark, DuckDB, pandas and polars.

use std::path::Path;

use serde::Serialize;

use super::rows::{Cells, ReadRow, WriteRows, read_rows, write_rows};
use super::table::{Column, Values};
use super::{DOCVIEWS, RecordLine, for_each_line_with_text};
use crate::Result;

/// The DocView records as Parquet, beside `docviews.jsonl`.
pub const DOCVIEWS_PARQUET: &str = "docviews.parquet";

/// One row of `docviews.parquet`: the DocView's scalar elements as columns, its lists
/// (keywords, relevant links, replicas), its metadata and its JSON line's other fields as
/// JSON text, the WARC record's id and date as optional text, the published date and
/// the Markdown (when the run rendered it) as optional text, and the whole record line as
/// `record`.
#[derive(Debug, Clone, PartialEq)]
pub struct DocViewRow {
    /// The page's sequence number in the run.
    pub seq: u64,
    /// The DocView's identifier (its URL).
    pub identifier: String,
    /// Where the page was read from.
    pub origin: String,
    /// Its WARC record's `WARC-Record-ID`, for a page of a WARC.
    pub warc_record_id: Option<String>,
    /// Its WARC record's `WARC-Date`, for a page of a WARC.
    pub warc_date: Option<String>,
    /// The other fields of its JSON line, as a JSON object, when it had any.
    pub input_fields: Option<String>,
    /// The page type, as the record writes it (`topic`, `hub`, `image`).
    pub page_type: String,
    /// The classification code.
    pub classification_code: String,
    /// The title.
    pub title: String,
    /// The keywords, as a JSON list.
    pub keywords: String,
    /// The abstract.
    pub abstract_text: String,
    /// The topic content.
    pub topic_content: String,
    /// The relevant links, as a JSON list.
    pub relevant_links: String,
    /// The language.
    pub language: String,
    /// Whether the topic content is empty.
    pub topic_content_empty: bool,
    /// What the page limits cut, if anything.
    pub truncated: Option<String>,
    /// The URLs of the page's replicas, as a JSON list.
    pub replicas: String,
    /// The page's metadata, as a JSON object.
    pub metadata: String,
    /// The published date of the metadata, if any.
    pub published: Option<String>,
    /// The topic content as Markdown, when the run rendered it.
    pub topic_markdown: Option<String>,
    /// The whole record line of `docviews.jsonl`.
    pub record: String,
}

impl DocViewRow {
    const SEQ: &'static str = "seq";
    const IDENTIFIER: &'static str = "identifier";
    const ORIGIN: &'static str = "origin";
    const WARC_RECORD_ID: &'static str = "warc_record_id";
    const WARC_DATE: &'static str = "warc_date";
    const INPUT_FIELDS: &'static str = "input_fields";
    const TYPE: &'static str = "type";
    const CLASSIFICATION_CODE: &'static str = "classification_code";
    const TITLE: &'static str = "title";
    const KEYWORDS: &'static str = "keywords";
    const ABSTRACT: &'static str = "abstract";
    const TOPIC_CONTENT: &'static str = "topic_content";
    const RELEVANT_LINKS: &'static str = "relevant_links";
    const LANGUAGE: &'static str = "language";
    const TOPIC_CONTENT_EMPTY: &'static str = "topic_content_empty";
    const TRUNCATED: &'static str = "truncated";
    const REPLICAS: &'static str = "replicas";
    const METADATA: &'static str = "metadata";
    const PUBLISHED: &'static str = "published";
    const TOPIC_MARKDOWN: &'static str = "topic_markdown";
    const RECORD: &'static str = "record";

    /// The row of a record, read from the line `line` of `docviews.jsonl`.
    pub fn of(r: &RecordLine, line: String) -> DocViewRow {
        let d = &r.docview;
        DocViewRow {
            seq: r.seq,
            identifier: d.identifier.clone(),
            origin: r.origin.clone(),
            warc_record_id: r.ids.warc_record_id.clone(),
            warc_date: r.ids.warc_date.clone(),
            input_fields: r.ids.input_fields_json(),
            page_type: json_text(&d.page_type).trim_matches('"').to_string(),
            classification_code: d.classification_code.clone(),
            title: d.title.clone(),
            keywords: json_text(&d.keywords),
            abstract_text: d.abstract_text.clone(),
            topic_content: d.topic_content.clone(),
            relevant_links: json_text(&d.relevant_links),
            language: d.language.clone(),
            topic_content_empty: d.topic_content_empty,
            truncated: d.truncated.clone(),
            replicas: json_text(&d.replicas),
            metadata: json_text(&d.metadata),
            published: d.metadata.published.as_ref().map(|p| p.value.clone()),
            topic_markdown: d.topic_markdown.clone(),
            record: line,
        }
    }
}

impl WriteRows for DocViewRow {
    fn into_columns(rows: Vec<DocViewRow>) -> Vec<Column> {
        let (mut seq, mut identifier, mut origin) = (vec![], vec![], vec![]);
        let (mut warc_record_id, mut warc_date, mut input_fields) = (vec![], vec![], vec![]);
        let (mut page_type, mut code, mut title) = (vec![], vec![], vec![]);
        let (mut keywords, mut abstract_text, mut topic) = (vec![], vec![], vec![]);
        let (mut links, mut language, mut empty) = (vec![], vec![], vec![]);
        let (mut truncated, mut replicas, mut metadata) = (vec![], vec![], vec![]);
        let (mut published, mut markdown, mut record) = (vec![], vec![], vec![]);
        for r in rows {
            seq.push(r.seq as i64);
            identifier.push(r.identifier);
            origin.push(r.origin);
            warc_record_id.push(r.warc_record_id);
            warc_date.push(r.warc_date);
            input_fields.push(r.input_fields);
            page_type.push(r.page_type);
            code.push(r.classification_code);
            title.push(r.title);
            keywords.push(r.keywords);
            abstract_text.push(r.abstract_text);
            topic.push(r.topic_content);
            links.push(r.relevant_links);
            language.push(r.language);
            empty.push(i64::from(r.topic_content_empty));
            truncated.push(r.truncated);
            replicas.push(r.replicas);
            metadata.push(r.metadata);
            published.push(r.published);
            markdown.push(r.topic_markdown);
            record.push(r.record);
        }
        vec![
            Column::int(Self::SEQ, seq),
            Column::text(Self::IDENTIFIER, identifier),
            Column::text(Self::ORIGIN, origin),
            Column::optional(Self::WARC_RECORD_ID, Values::Text(warc_record_id)),
            Column::optional(Self::WARC_DATE, Values::Text(warc_date)),
            Column::optional(Self::INPUT_FIELDS, Values::Text(input_fields)),
            Column::text(Self::TYPE, page_type),
            Column::text(Self::CLASSIFICATION_CODE, code),
            Column::text(Self::TITLE, title),
            Column::text(Self::KEYWORDS, keywords),
            Column::text(Self::ABSTRACT, abstract_text),
            Column::text(Self::TOPIC_CONTENT, topic),
            Column::text(Self::RELEVANT_LINKS, links),
            Column::text(Self::LANGUAGE, language),
            Column::int(Self::TOPIC_CONTENT_EMPTY, empty),
            Column::optional(Self::TRUNCATED, Values::Text(truncated)),
            Column::text(Self::REPLICAS, replicas),
            Column::text(Self::METADATA, metadata),
            Column::optional(Self::PUBLISHED, Values::Text(published)),
            Column::optional(Self::TOPIC_MARKDOWN, Values::Text(markdown)),
            Column::text(Self::RECORD, record),
        ]
    }
}

impl ReadRow for DocViewRow {
    const PROJECTION: Option<&'static [&'static str]> = None;

    fn read(c: &Cells<'_>) -> Result<DocViewRow> {
        Ok(DocViewRow {
            seq: c.u64(Self::SEQ)?,
            identifier: c.text(Self::IDENTIFIER)?,
            origin: c.text(Self::ORIGIN)?,
            warc_record_id: c.opt_text(Self::WARC_RECORD_ID)?,
            warc_date: c.opt_text(Self::WARC_DATE)?,
            input_fields: c.opt_text(Self::INPUT_FIELDS)?,
            page_type: c.text(Self::TYPE)?,
            classification_code: c.text(Self::CLASSIFICATION_CODE)?,
            title: c.text(Self::TITLE)?,
            keywords: c.text(Self::KEYWORDS)?,
            abstract_text: c.text(Self::ABSTRACT)?,
            topic_content: c.text(Self::TOPIC_CONTENT)?,
            relevant_links: c.text(Self::RELEVANT_LINKS)?,
            language: c.text(Self::LANGUAGE)?,
            topic_content_empty: c.int(Self::TOPIC_CONTENT_EMPTY)? != 0,
            truncated: c.opt_text(Self::TRUNCATED)?,
            replicas: c.text(Self::REPLICAS)?,
            metadata: c.text(Self::METADATA)?,
            published: c.opt_text(Self::PUBLISHED)?,
            topic_markdown: c.opt_text(Self::TOPIC_MARKDOWN)?,
            record: c.text(Self::RECORD)?,
        })
    }
}

/// The record line of a row, read alone (the other columns are not decoded).
struct RecordOnly(String);

impl ReadRow for RecordOnly {
    const PROJECTION: Option<&'static [&'static str]> = Some(&[DocViewRow::RECORD]);

    fn read(c: &Cells<'_>) -> Result<RecordOnly> {
        c.text(DocViewRow::RECORD).map(RecordOnly)
    }
}

/// The record lines of the `docviews.parquet` file `path` (the lines of `docviews.jsonl`), in
/// order, as a stream; only the `record` column is read.
pub fn read_docviews_parquet(path: &Path) -> Result<impl Iterator<Item = Result<String>> + use<>> {
    Ok(read_rows::<RecordOnly>(path)?.map(|row| row.map(|RecordOnly(line)| line)))
}

/// Writes `docviews.jsonl` of `dir` again as `docviews.parquet` (atomically), one
/// [`DocViewRow`] per record.
pub fn write_docviews_parquet(dir: &Path) -> Result<()> {
    let mut rows = Vec::new();
    for_each_line_with_text(&dir.join(DOCVIEWS), |r: RecordLine, line| {
        rows.push(DocViewRow::of(&r, line));
    })?;
    write_rows(&dir.join(DOCVIEWS_PARQUET), rows)
}

/// `value` as JSON text (values that always serialise: strings, lists, plain enums).
fn json_text<T: Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_default()
}
