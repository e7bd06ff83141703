//! The row struct of `pages.parquet`, a shard's integrated and fingerprinted pages ([`PageRow`],
//! written by stage `pages`), and the views the later stages read of it: `pairs` the
//! signatures ([`PageSignature`]), `resolve` the fingerprints ([`PageFingerprints`]),
//! `finalise` the records and full texts ([`PageRecord`]). The columns are named once, in
//! [`PageRow`]'s impl. (Before plan layout 3 the page's number in its unit was a second
//! column named `record`, which hid it from readers by name and kept `finalise` from reading
//! only the columns it needs.)

use crate::records::Skip;
use crate::records::table::{Column, Values};
use crate::replica::{Fingerprint, Signature};

use super::codec::{fingerprint_hex, signature_bytes};
use super::rows::{Cells, ReadRow, Result, WorkCells, WriteRows};

/// One page of a shard (`pages.parquet`): an unreadable page has its key, `seq`, URL, origin,
/// size and `unreadable`, and nothing else.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct PageRow {
    /// Its unit's number.
    pub(super) unit: usize,
    /// Its number in the unit (for whoever reads the table; the stages go by `seq`).
    pub(super) unit_record: u64,
    pub(super) seq: u64,
    pub(super) url: String,
    pub(super) origin: String,
    pub(super) html_bytes: u64,
    /// Why it could not be read.
    pub(super) unreadable: Option<Skip>,
    pub(super) exact: Option<Fingerprint>,
    pub(super) keyword: Option<Fingerprint>,
    pub(super) minhash: Option<Signature>,
    pub(super) title: Option<String>,
    /// Its record line ([`crate::records::RecordLine`]) as JSON.
    pub(super) record_json: Option<String>,
    /// Its text for the fulltext index.
    pub(super) fulltext: Option<String>,
    /// Its topic content (the topic index's text).
    pub(super) topic: Option<String>,
    /// The abstract index's text.
    pub(super) abstract_text: Option<String>,
}

impl PageRow {
    const UNIT: &'static str = "unit";
    const UNIT_RECORD: &'static str = "unit_record";
    const SEQ: &'static str = "seq";
    const URL: &'static str = "url";
    const ORIGIN: &'static str = "origin";
    const HTML_BYTES: &'static str = "html_bytes";
    const UNREADABLE: &'static str = "unreadable";
    const EXACT: &'static str = "exact";
    const KEYWORD: &'static str = "keyword";
    const MINHASH: &'static str = "minhash";
    const TITLE: &'static str = "title";
    const RECORD_JSON: &'static str = "record";
    const FULLTEXT: &'static str = "fulltext";
    const TOPIC: &'static str = "topic";
    const ABSTRACT: &'static str = "abstract";
}

impl WriteRows for PageRow {
    fn into_columns(rows: Vec<PageRow>) -> Vec<Column> {
        let (mut unit, mut unit_record, mut seq) = (vec![], vec![], vec![]);
        let (mut url, mut origin, mut html_bytes) = (vec![], vec![], vec![]);
        let (mut unreadable, mut exact, mut keyword) = (vec![], vec![], vec![]);
        let (mut minhash, mut title, mut record_json) = (vec![], vec![], vec![]);
        let (mut fulltext, mut topic, mut abstract_text) = (vec![], vec![], vec![]);
        for r in rows {
            unit.push(r.unit as i64);
            unit_record.push(r.unit_record as i64);
            seq.push(r.seq as i64);
            url.push(r.url);
            origin.push(r.origin);
            html_bytes.push(r.html_bytes as i64);
            unreadable.push(r.unreadable.map(|why| why.to_string()));
            exact.push(r.exact.map(fingerprint_hex));
            keyword.push(r.keyword.map(fingerprint_hex));
            minhash.push(r.minhash.as_ref().map(signature_bytes));
            title.push(r.title);
            record_json.push(r.record_json);
            fulltext.push(r.fulltext);
            topic.push(r.topic);
            abstract_text.push(r.abstract_text);
        }
        vec![
            Column::int(Self::UNIT, unit),
            Column::int(Self::UNIT_RECORD, unit_record),
            Column::int(Self::SEQ, seq),
            Column::text(Self::URL, url),
            Column::text(Self::ORIGIN, origin),
            Column::int(Self::HTML_BYTES, html_bytes),
            Column::optional(Self::UNREADABLE, Values::Text(unreadable)),
            Column::optional(Self::EXACT, Values::Text(exact)),
            Column::optional(Self::KEYWORD, Values::Text(keyword)),
            Column::optional(Self::MINHASH, Values::Bytes(minhash)),
            Column::optional(Self::TITLE, Values::Text(title)),
            Column::optional(Self::RECORD_JSON, Values::Text(record_json)),
            Column::optional(Self::FULLTEXT, Values::Text(fulltext)),
            Column::optional(Self::TOPIC, Values::Text(topic)),
            Column::optional(Self::ABSTRACT, Values::Text(abstract_text)),
        ]
    }
}

/// A page's `seq` and signature, as `pairs` reads them.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct PageSignature {
    pub(super) seq: u64,
    pub(super) minhash: Option<Signature>,
}

impl ReadRow for PageSignature {
    const PROJECTION: Option<&'static [&'static str]> = Some(&[PageRow::SEQ, PageRow::MINHASH]);

    fn read(c: &Cells<'_>) -> Result<PageSignature> {
        Ok(PageSignature {
            seq: c.u64(PageRow::SEQ)?,
            minhash: c.opt_signature(PageRow::MINHASH)?,
        })
    }
}

/// A page's `seq`, URL and fingerprints but its signature, as `resolve` reads them (the pairs
/// stage has compared the signatures already).
#[derive(Debug, Clone, PartialEq)]
pub(super) struct PageFingerprints {
    pub(super) seq: u64,
    pub(super) url: String,
    pub(super) unreadable: Option<Skip>,
    pub(super) exact: Option<Fingerprint>,
    pub(super) keyword: Option<Fingerprint>,
}

impl ReadRow for PageFingerprints {
    const PROJECTION: Option<&'static [&'static str]> = Some(&[
        PageRow::SEQ,
        PageRow::URL,
        PageRow::UNREADABLE,
        PageRow::EXACT,
        PageRow::KEYWORD,
    ]);

    fn read(c: &Cells<'_>) -> Result<PageFingerprints> {
        Ok(PageFingerprints {
            seq: c.u64(PageRow::SEQ)?,
            url: c.text(PageRow::URL)?,
            unreadable: c.opt_parsed(PageRow::UNREADABLE, "a skip reason")?,
            exact: c.opt_fingerprint(PageRow::EXACT)?,
            keyword: c.opt_fingerprint(PageRow::KEYWORD)?,
        })
    }
}

/// A page's `seq`, size, record line and full text, as `finalise` reads them.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct PageRecord {
    pub(super) seq: u64,
    pub(super) html_bytes: u64,
    pub(super) unreadable: Option<Skip>,
    pub(super) record_json: Option<String>,
    pub(super) fulltext: Option<String>,
}

impl ReadRow for PageRecord {
    const PROJECTION: Option<&'static [&'static str]> = Some(&[
        PageRow::SEQ,
        PageRow::HTML_BYTES,
        PageRow::UNREADABLE,
        PageRow::RECORD_JSON,
        PageRow::FULLTEXT,
    ]);

    fn read(c: &Cells<'_>) -> Result<PageRecord> {
        Ok(PageRecord {
            seq: c.u64(PageRow::SEQ)?,
            html_bytes: c.u64(PageRow::HTML_BYTES)?,
            unreadable: c.opt_parsed(PageRow::UNREADABLE, "a skip reason")?,
            record_json: c.opt_text(PageRow::RECORD_JSON)?,
            fulltext: c.opt_text(PageRow::FULLTEXT)?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::table::TableWriter;
    use crate::stages::rows::{read_rows, write_rows};

    fn read_back<T: ReadRow>(path: &std::path::Path) -> Vec<T> {
        read_rows(path).unwrap().collect::<Result<_>>().unwrap()
    }

    fn pages() -> Vec<PageRow> {
        let readable = PageRow {
            unit: 2,
            unit_record: 5,
            seq: 11,
            url: "http://a.example/".into(),
            origin: "a.warc.gz@100".into(),
            html_bytes: 4096,
            unreadable: None,
            exact: Some(Fingerprint([7; 16])),
            keyword: Some(Fingerprint([8; 16])),
            minhash: Some(Signature::from_slots(&[3, 0x8001])),
            title: Some("A".into()),
            record_json: Some("{\"seq\":11}".into()),
            fulltext: Some("all the text".into()),
            topic: Some("the text".into()),
            abstract_text: Some("A the text".into()),
        };
        let unreadable = PageRow {
            unit: 2,
            unit_record: 6,
            seq: 12,
            url: "http://b.example/".into(),
            origin: "a.warc.gz@900".into(),
            html_bytes: 3,
            unreadable: Some(Skip::Unreadable),
            exact: None,
            keyword: None,
            minhash: None,
            title: None,
            record_json: None,
            fulltext: None,
            topic: None,
            abstract_text: None,
        };
        vec![readable, unreadable]
    }

    #[test]
    fn pages_round_trip_through_each_view() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("pages.parquet");
        write_rows(&path, pages()).unwrap();
        let sigs: Vec<PageSignature> = read_back(&path);
        let prints: Vec<PageFingerprints> = read_back(&path);
        let records: Vec<PageRecord> = read_back(&path);
        for (i, page) in pages().into_iter().enumerate() {
            assert_eq!((sigs[i].seq, &sigs[i].minhash), (page.seq, &page.minhash));
            let p = &prints[i];
            assert_eq!(
                (p.seq, &p.url, &p.unreadable, p.exact, p.keyword),
                (
                    page.seq,
                    &page.url,
                    &page.unreadable,
                    page.exact,
                    page.keyword
                )
            );
            let r = &records[i];
            assert_eq!(
                (
                    r.seq,
                    r.html_bytes,
                    &r.unreadable,
                    &r.record_json,
                    &r.fulltext
                ),
                (
                    page.seq,
                    page.html_bytes,
                    &page.unreadable,
                    &page.record_json,
                    &page.fulltext
                )
            );
        }
    }

    #[test]
    fn pages_stream_back_over_row_groups_as_the_stage_writes_them() {
        // Each group's rows, then the last.
        let dir = tempfile::tempdir().unwrap();
        let grouped = dir.path().join("grouped.parquet");
        let mut table = TableWriter::create(&grouped).unwrap();
        table.write(&PageRow::into_columns(pages())).unwrap();
        table.finish(&PageRow::into_columns(pages())).unwrap();
        let back: Vec<PageRecord> = read_back(&grouped);
        assert_eq!(back.len(), 4);
        assert_eq!(back[2].seq, pages()[0].seq);
    }

    #[test]
    fn the_number_in_the_unit_and_the_record_line_have_a_column_each() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("pages.parquet");
        write_rows(&path, pages()).unwrap();
        let row = &crate::records::table::read_table(&path).unwrap()[0];
        assert_eq!(row.int("unit_record"), Some(5));
        assert_eq!(row.text("record").as_deref(), Some("{\"seq\":11}"));
        // One column a name: the record line reads as a projection.
        let records: Vec<PageRecord> = read_back(&path);
        assert_eq!(records[0].record_json.as_deref(), Some("{\"seq\":11}"));
    }
}
