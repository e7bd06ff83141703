//! The row structs of the work folder's Parquet tables of pages that are not this run's
//! integrated pages: the raw pages the site samplers pick (`site-samples.parquet`,
//! [`SiteSampleRow`]) and the earlier runs' kept pages (`earlier.parquet`, [`EarlierRow`] and
//! its views). Each names its columns once, in its impl; the files are those the stages always
//! wrote, column for column. This run's pages are [`super::page_table`]'s, the band keys, pairs
//! and decisions [`super::replica_tables`]'.

use crate::input::RawPage;
use crate::records::table::{Column, Values};
use crate::replica::{Fingerprint, Signature};

use super::codec::{fingerprint_hex, signature_bytes};
use super::rows::{Cells, ReadRow, Result, WorkCells, WriteRows};

/// A raw page a shard's site sampler picked (`site-samples.parquet`).
#[derive(Debug, Clone, PartialEq)]
pub(super) struct SiteSampleRow {
    /// Its unit's number.
    pub(super) unit: usize,
    /// Its number in the unit.
    pub(super) record: u64,
    pub(super) url: String,
    pub(super) origin: String,
    /// The charset its HTTP headers named.
    pub(super) charset: Option<String>,
    /// Its bytes (an optional column that always has a value).
    pub(super) html: Vec<u8>,
}

impl SiteSampleRow {
    const UNIT: &'static str = "unit";
    const RECORD: &'static str = "record";
    const URL: &'static str = "url";
    const ORIGIN: &'static str = "origin";
    const CHARSET: &'static str = "charset";
    const HTML: &'static str = "html";

    /// The row of the page of `key` (unit, number in the unit).
    pub(super) fn of(key: (usize, u64), page: RawPage) -> SiteSampleRow {
        SiteSampleRow {
            unit: key.0,
            record: key.1,
            url: page.url,
            origin: page.origin,
            charset: page.http_charset,
            html: page.bytes,
        }
    }

    /// Its key (unit, number in the unit) and page.
    pub(super) fn into_page(self) -> ((usize, u64), RawPage) {
        let page = RawPage {
            kind: crate::input::PageKind::Html,
            url: self.url,
            bytes: self.html,
            http_charset: self.charset,
            origin: self.origin,
            // A site sample teaches a site model; its WARC record's identity is not kept.
            warc: None,
            fields: None,
        };
        ((self.unit, self.record), page)
    }
}

impl WriteRows for SiteSampleRow {
    fn into_columns(rows: Vec<SiteSampleRow>) -> Vec<Column> {
        let (mut unit, mut record, mut url) = (vec![], vec![], vec![]);
        let (mut origin, mut charset, mut html) = (vec![], vec![], vec![]);
        for r in rows {
            unit.push(r.unit as i64);
            record.push(r.record as i64);
            url.push(r.url);
            origin.push(r.origin);
            charset.push(r.charset);
            html.push(Some(r.html));
        }
        vec![
            Column::int(Self::UNIT, unit),
            Column::int(Self::RECORD, record),
            Column::text(Self::URL, url),
            Column::text(Self::ORIGIN, origin),
            Column::optional(Self::CHARSET, Values::Text(charset)),
            Column::optional(Self::HTML, Values::Bytes(html)),
        ]
    }
}

impl ReadRow for SiteSampleRow {
    const PROJECTION: Option<&'static [&'static str]> = None;

    fn read(c: &Cells<'_>) -> Result<SiteSampleRow> {
        Ok(SiteSampleRow {
            unit: c.usize(Self::UNIT)?,
            record: c.u64(Self::RECORD)?,
            url: c.text(Self::URL)?,
            origin: c.text(Self::ORIGIN)?,
            charset: c.opt_text(Self::CHARSET)?,
            html: c.bytes(Self::HTML)?,
        })
    }
}

/// A kept page of the earlier runs (`earlier.parquet`).
#[derive(Debug, Clone, PartialEq)]
pub(super) struct EarlierRow {
    /// Its order key (see [`crate::earlier`]).
    pub(super) key: u64,
    /// Its run's number in `--earlier` order.
    pub(super) run: usize,
    /// Its `seq` in that run.
    pub(super) seq: u64,
    pub(super) url: String,
    pub(super) exact: Option<Fingerprint>,
    pub(super) keyword: Option<Fingerprint>,
    pub(super) minhash: Option<Signature>,
}

impl EarlierRow {
    const KEY: &'static str = "key";
    const RUN: &'static str = "run";
    const SEQ: &'static str = "seq";
    const URL: &'static str = "url";
    const EXACT: &'static str = "exact";
    const KEYWORD: &'static str = "keyword";
    const MINHASH: &'static str = "minhash";
}

impl WriteRows for EarlierRow {
    fn into_columns(rows: Vec<EarlierRow>) -> Vec<Column> {
        let (mut key, mut run, mut seq, mut url) = (vec![], vec![], vec![], vec![]);
        let (mut exact, mut keyword, mut minhash) = (vec![], vec![], vec![]);
        for r in rows {
            key.push(r.key as i64);
            run.push(r.run as i64);
            seq.push(r.seq as i64);
            url.push(r.url);
            exact.push(r.exact.map(fingerprint_hex));
            keyword.push(r.keyword.map(fingerprint_hex));
            minhash.push(r.minhash.as_ref().map(signature_bytes));
        }
        vec![
            Column::int(Self::KEY, key),
            Column::int(Self::RUN, run),
            Column::int(Self::SEQ, seq),
            Column::text(Self::URL, url),
            Column::optional(Self::EXACT, Values::Text(exact)),
            Column::optional(Self::KEYWORD, Values::Text(keyword)),
            Column::optional(Self::MINHASH, Values::Bytes(minhash)),
        ]
    }
}

impl ReadRow for EarlierRow {
    const PROJECTION: Option<&'static [&'static str]> = None;

    fn read(c: &Cells<'_>) -> Result<EarlierRow> {
        Ok(EarlierRow {
            key: c.u64(Self::KEY)?,
            run: c.usize(Self::RUN)?,
            seq: c.u64(Self::SEQ)?,
            url: c.text(Self::URL)?,
            exact: c.opt_fingerprint(Self::EXACT)?,
            keyword: c.opt_fingerprint(Self::KEYWORD)?,
            minhash: c.opt_signature(Self::MINHASH)?,
        })
    }
}

/// An [`EarlierRow`] without its signature, as `resolve` reads it.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct EarlierFingerprints {
    pub(super) key: u64,
    pub(super) run: usize,
    pub(super) seq: u64,
    pub(super) url: String,
    pub(super) exact: Option<Fingerprint>,
    pub(super) keyword: Option<Fingerprint>,
}

impl ReadRow for EarlierFingerprints {
    const PROJECTION: Option<&'static [&'static str]> = Some(&[
        EarlierRow::KEY,
        EarlierRow::RUN,
        EarlierRow::SEQ,
        EarlierRow::URL,
        EarlierRow::EXACT,
        EarlierRow::KEYWORD,
    ]);

    fn read(c: &Cells<'_>) -> Result<EarlierFingerprints> {
        Ok(EarlierFingerprints {
            key: c.u64(EarlierRow::KEY)?,
            run: c.usize(EarlierRow::RUN)?,
            seq: c.u64(EarlierRow::SEQ)?,
            url: c.text(EarlierRow::URL)?,
            exact: c.opt_fingerprint(EarlierRow::EXACT)?,
            keyword: c.opt_fingerprint(EarlierRow::KEYWORD)?,
        })
    }
}

/// An [`EarlierRow`]'s order key and signature, as `pairs` reads it.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct EarlierSignature {
    pub(super) key: u64,
    pub(super) minhash: Option<Signature>,
}

impl ReadRow for EarlierSignature {
    const PROJECTION: Option<&'static [&'static str]> =
        Some(&[EarlierRow::KEY, EarlierRow::MINHASH]);

    fn read(c: &Cells<'_>) -> Result<EarlierSignature> {
        Ok(EarlierSignature {
            key: c.u64(EarlierRow::KEY)?,
            minhash: c.opt_signature(EarlierRow::MINHASH)?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::table::write_table;
    use crate::stages::rows::{read_rows, write_rows};

    fn read_back<T: ReadRow>(path: &std::path::Path) -> Vec<T> {
        read_rows(path).unwrap().collect::<Result<_>>().unwrap()
    }

    fn samples() -> Vec<SiteSampleRow> {
        vec![
            SiteSampleRow::of(
                (3, 7),
                RawPage {
                    kind: crate::input::PageKind::Html,
                    url: "http://a.example/".into(),
                    bytes: b"<p>a</p>".to_vec(),
                    http_charset: Some("utf-8".into()),
                    origin: "a.warc.gz@12".into(),
                    warc: None,
                    fields: None,
                },
            ),
            SiteSampleRow::of(
                (4, 0),
                RawPage {
                    kind: crate::input::PageKind::Html,
                    url: "http://b.example/".into(),
                    bytes: Vec::new(),
                    http_charset: None,
                    origin: "b.html".into(),
                    warc: None,
                    fields: None,
                },
            ),
        ]
    }

    #[test]
    fn site_samples_round_trip_with_their_pages() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("s.parquet");
        write_rows(&path, samples()).unwrap();
        let back: Vec<SiteSampleRow> = read_back(&path);
        assert_eq!(back, samples());
        let (key, page) = back[0].clone().into_page();
        assert_eq!(key, (3, 7));
        assert_eq!(
            (
                page.url.as_str(),
                page.bytes.as_slice(),
                page.origin.as_str()
            ),
            ("http://a.example/", &b"<p>a</p>"[..], "a.warc.gz@12")
        );
        assert_eq!(page.http_charset.as_deref(), Some("utf-8"));
        // The bytes the stage wrote before it had a row struct.
        let old = dir.path().join("old.parquet");
        write_table(
            &old,
            &[
                Column::int("unit", [3, 4]),
                Column::int("record", [7, 0]),
                Column::text(
                    "url",
                    ["http://a.example/".into(), "http://b.example/".into()],
                ),
                Column::text("origin", ["a.warc.gz@12".into(), "b.html".into()]),
                Column::optional("charset", Values::Text(vec![Some("utf-8".into()), None])),
                Column::optional(
                    "html",
                    Values::Bytes(vec![Some(b"<p>a</p>".to_vec()), Some(Vec::new())]),
                ),
            ],
        )
        .unwrap();
        assert_eq!(std::fs::read(&old).unwrap(), std::fs::read(&path).unwrap());
    }

    fn earlier() -> Vec<EarlierRow> {
        let f = |b: u8| Fingerprint([b; 16]);
        vec![
            EarlierRow {
                key: 0,
                run: 0,
                seq: 5,
                url: "http://a.example/".into(),
                exact: Some(f(1)),
                keyword: Some(f(2)),
                minhash: Some(Signature::from_slots(&[1, 2, 0xfffe])),
            },
            EarlierRow {
                key: 1,
                run: 1,
                seq: 0,
                url: "http://b.example/".into(),
                exact: None,
                keyword: None,
                minhash: None,
            },
        ]
    }

    #[test]
    fn earlier_pages_round_trip_whole_and_as_views() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("earlier.parquet");
        write_rows(&path, earlier()).unwrap();
        assert_eq!(read_back::<EarlierRow>(&path), earlier());
        let views: Vec<EarlierFingerprints> = read_back(&path);
        let sigs: Vec<EarlierSignature> = read_back(&path);
        for ((row, view), sig) in earlier().into_iter().zip(views).zip(sigs) {
            assert_eq!(
                (row.key, row.run, row.seq, row.url, row.exact, row.keyword),
                (
                    view.key,
                    view.run,
                    view.seq,
                    view.url,
                    view.exact,
                    view.keyword
                )
            );
            assert_eq!((row.key, row.minhash), (sig.key, sig.minhash));
        }
        let old = dir.path().join("old.parquet");
        let hex = |b: u8| Some(Fingerprint([b; 16]).to_string());
        write_table(
            &old,
            &[
                Column::int("key", [0, 1]),
                Column::int("run", [0, 1]),
                Column::int("seq", [5, 0]),
                Column::text(
                    "url",
                    ["http://a.example/".into(), "http://b.example/".into()],
                ),
                Column::optional("exact", Values::Text(vec![hex(1), None])),
                Column::optional("keyword", Values::Text(vec![hex(2), None])),
                Column::optional(
                    "minhash",
                    Values::Bytes(vec![Some(vec![1, 0, 2, 0, 0xfe, 0xff]), None]),
                ),
            ],
        )
        .unwrap();
        assert_eq!(std::fs::read(&old).unwrap(), std::fs::read(&path).unwrap());
    }

    #[test]
    fn an_earlier_fingerprint_that_is_not_hex_names_its_column() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("earlier.parquet");
        write_table(
            &path,
            &[
                Column::int("key", [0]),
                Column::int("run", [0]),
                Column::int("seq", [0]),
                Column::text("url", ["u".to_string()]),
                Column::optional("exact", Values::Text(vec![Some("nothex".into())])),
                Column::optional("keyword", Values::Text(vec![None])),
            ],
        )
        .unwrap();
        let err = read_rows::<EarlierFingerprints>(&path)
            .unwrap()
            .next()
            .unwrap()
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("earlier.parquet") && err.contains("column exact"),
            "{err}"
        );
        // The whole row wants the signature column too.
        let err = read_rows::<EarlierRow>(&path)
            .unwrap()
            .next()
            .unwrap()
            .unwrap_err()
            .to_string();
        assert!(err.contains("column "), "{err}");
    }
}
