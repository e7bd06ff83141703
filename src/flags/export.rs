//! The arguments of `docview export`: the ingest, the format, the fields, the output.

use std::path::PathBuf;

use clap::ValueEnum;

/// What `docview export` writes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ExportFormat {
    /// Anserini/Pyserini's JSON collection: one {"id", "contents"} line a record, for
    /// `python -m pyserini.index.lucene --collection JsonCollection`.
    Pyserini,
}

#[derive(Debug, clap::Args)]
pub struct ExportArgs {
    /// The output directory of an ingest.
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
    /// The format to write.
    #[arg(long, value_enum, default_value_t = ExportFormat::Pyserini)]
    pub format: ExportFormat,
    /// The record fields `contents` is made of, comma-separated, in order, joined by a blank
    /// line: title, keywords, abstract, topic (the topic content). `title,abstract,topic`
    /// gives an engine the DocView's text fields together.
    #[arg(
        long,
        value_name = "FIELDS",
        value_delimiter = ',',
        default_value = "topic",
        value_parser = super::export_field
    )]
    pub contents: Vec<docview::records::ExportField>,
    /// The record field each line's `id` is: url (the record's identifier, the default),
    /// warc_record_id, or a field of the JSON lines ingested (a user's `id`), as the qrels of
    /// `compare --topics` name documents.
    #[arg(long, value_name = "FIELD", default_value = "url")]
    pub docid: String,
    /// Write to FILE instead of standard output (replaced only once complete).
    #[arg(long, value_name = "FILE")]
    pub out: Option<PathBuf>,
}
