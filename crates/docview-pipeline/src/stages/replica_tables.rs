//! The row structs of the replica detection's work tables: the LSH band keys
//! (`bands-P.parquet`, `earlier-bands-P.parquet`, [`BandRow`]), the confirmed pairs
//! (`pairs-P.parquet`, [`PairRow`]) and the replica decisions (`decisions.parquet`,
//! [`DecisionRow`]). Each names its columns once, in its impl; the files are those the stages
//! always wrote, column for column.

use std::path::PathBuf;

use crate::records::table::{Column, Values};
use crate::replica::ReplicaKind;

use super::rows::{Cells, ReadRow, Result, WriteRows, write_rows};

/// One LSH band key (`bands-P.parquet`, `earlier-bands-P.parquet`): band `band` of page
/// `seq`'s signature (an order key in the earlier runs' files) falls in bucket `bucket`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct BandRow {
    pub(super) band: usize,
    pub(super) bucket: u64,
    pub(super) seq: u64,
}

impl BandRow {
    const BAND: &'static str = "band";
    const BUCKET: &'static str = "bucket";
    const SEQ: &'static str = "seq";

    /// Writes `rows` into `parts` files (part `p` as `path(p)`), band `b` into part
    /// `b % parts`, each in the order of `rows`.
    pub(super) fn write_parts(
        rows: &[BandRow],
        parts: usize,
        path: impl Fn(usize) -> PathBuf,
    ) -> Result<()> {
        for part in 0..parts {
            let mine = rows.iter().filter(|r| r.band % parts == part).copied();
            write_rows(&path(part), mine.collect())?;
        }
        Ok(())
    }
}

impl WriteRows for BandRow {
    fn into_columns(rows: Vec<BandRow>) -> Vec<Column> {
        vec![
            Column::int(Self::BAND, rows.iter().map(|r| r.band as i64)),
            Column::int(Self::BUCKET, rows.iter().map(|r| r.bucket as i64)),
            Column::int(Self::SEQ, rows.iter().map(|r| r.seq as i64)),
        ]
    }
}

impl ReadRow for BandRow {
    const PROJECTION: Option<&'static [&'static str]> = None;

    fn read(c: &Cells<'_>) -> Result<BandRow> {
        Ok(BandRow {
            band: c.usize(Self::BAND)?,
            bucket: c.u64(Self::BUCKET)?,
            seq: c.u64(Self::SEQ)?,
        })
    }
}

/// A confirmed pair (`pairs-P.parquet`): the page of order key `key` shares a band with the
/// earlier page of order key `of_key`, with this estimated Jaccard similarity.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) struct PairRow {
    pub(super) key: u64,
    pub(super) of_key: u64,
    /// An optional column that always has a value.
    pub(super) similarity: f32,
}

impl PairRow {
    const KEY: &'static str = "key";
    const OF_KEY: &'static str = "of_key";
    const SIMILARITY: &'static str = "similarity";
}

impl WriteRows for PairRow {
    fn into_columns(rows: Vec<PairRow>) -> Vec<Column> {
        vec![
            Column::int(Self::KEY, rows.iter().map(|r| r.key as i64)),
            Column::int(Self::OF_KEY, rows.iter().map(|r| r.of_key as i64)),
            Column::optional(
                Self::SIMILARITY,
                Values::Float(rows.iter().map(|r| Some(r.similarity)).collect()),
            ),
        ]
    }
}

impl ReadRow for PairRow {
    const PROJECTION: Option<&'static [&'static str]> = None;

    fn read(c: &Cells<'_>) -> Result<PairRow> {
        Ok(PairRow {
            key: c.u64(Self::KEY)?,
            of_key: c.u64(Self::OF_KEY)?,
            similarity: c.float(Self::SIMILARITY)?,
        })
    }
}

/// A replica decision (`decisions.parquet`): page `seq` repeats the kept page `of`.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct DecisionRow {
    pub(super) seq: u64,
    pub(super) url: String,
    /// The kept page's `seq`, in its run.
    pub(super) of: u64,
    pub(super) of_url: String,
    /// The earlier run that kept `of`, when it is not this run.
    pub(super) of_run: Option<String>,
    pub(super) kind: ReplicaKind,
    /// The fingerprint or signature that matched, by name.
    pub(super) detector: String,
    pub(super) similarity: Option<f32>,
}

impl DecisionRow {
    const SEQ: &'static str = "seq";
    const URL: &'static str = "url";
    const OF: &'static str = "of";
    const OF_URL: &'static str = "of_url";
    const OF_RUN: &'static str = "of_run";
    const KIND: &'static str = "kind";
    const DETECTOR: &'static str = "detector";
    const SIMILARITY: &'static str = "similarity";
}

impl WriteRows for DecisionRow {
    fn into_columns(rows: Vec<DecisionRow>) -> Vec<Column> {
        let (mut seq, mut url, mut of, mut of_url) = (vec![], vec![], vec![], vec![]);
        let (mut of_run, mut kind, mut detector, mut similarity) = (vec![], vec![], vec![], vec![]);
        for r in rows {
            seq.push(r.seq as i64);
            url.push(r.url);
            of.push(r.of as i64);
            of_url.push(r.of_url);
            of_run.push(r.of_run);
            kind.push(r.kind.as_str().to_string());
            detector.push(r.detector);
            similarity.push(r.similarity);
        }
        vec![
            Column::int(Self::SEQ, seq),
            Column::text(Self::URL, url),
            Column::int(Self::OF, of),
            Column::text(Self::OF_URL, of_url),
            Column::optional(Self::OF_RUN, Values::Text(of_run)),
            Column::text(Self::KIND, kind),
            Column::text(Self::DETECTOR, detector),
            Column::optional(Self::SIMILARITY, Values::Float(similarity)),
        ]
    }
}

impl ReadRow for DecisionRow {
    const PROJECTION: Option<&'static [&'static str]> = None;

    fn read(c: &Cells<'_>) -> Result<DecisionRow> {
        let kind = match c.text(Self::KIND)?.as_str() {
            "exact" => ReplicaKind::Exact,
            "near" => ReplicaKind::Near,
            _ => return Err(c.error(Self::KIND, "a replica kind (exact, near)")),
        };
        Ok(DecisionRow {
            seq: c.u64(Self::SEQ)?,
            url: c.text(Self::URL)?,
            of: c.u64(Self::OF)?,
            of_url: c.text(Self::OF_URL)?,
            of_run: c.opt_text(Self::OF_RUN)?,
            kind,
            detector: c.text(Self::DETECTOR)?,
            similarity: c.opt_float(Self::SIMILARITY)?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::table::write_table;
    use crate::stages::rows::read_rows;

    fn read_back<T: ReadRow>(path: &std::path::Path) -> Vec<T> {
        read_rows(path).unwrap().collect::<Result<_>>().unwrap()
    }

    #[test]
    fn band_keys_round_trip_into_their_parts() {
        let dir = tempfile::tempdir().unwrap();
        let row = |band, bucket, seq| BandRow { band, bucket, seq };
        // A bucket key past i64::MAX goes through its bit pattern.
        let rows = [
            row(0, u64::MAX, 3),
            row(1, 7, 3),
            row(2, 9, 4),
            row(3, 1 << 63, 4),
        ];
        let path = |part: usize| dir.path().join(format!("b-{part}.parquet"));
        BandRow::write_parts(&rows, 2, path).unwrap();
        assert_eq!(read_back::<BandRow>(&path(0)), [rows[0], rows[2]]);
        assert_eq!(read_back::<BandRow>(&path(1)), [rows[1], rows[3]]);
        let old = dir.path().join("old.parquet");
        write_table(
            &old,
            &[
                Column::int("band", [0, 2]),
                Column::int("bucket", [u64::MAX as i64, 9]),
                Column::int("seq", [3, 4]),
            ],
        )
        .unwrap();
        assert_eq!(
            std::fs::read(&old).unwrap(),
            std::fs::read(path(0)).unwrap()
        );
        // No band key: an empty table still.
        BandRow::write_parts(&[], 1, path).unwrap();
        assert!(read_back::<BandRow>(&path(0)).is_empty());
    }

    #[test]
    fn pairs_round_trip() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("pairs.parquet");
        let rows = vec![
            PairRow {
                key: 9,
                of_key: 2,
                similarity: 0.75,
            },
            PairRow {
                key: 9,
                of_key: 4,
                similarity: 1.0,
            },
        ];
        write_rows(&path, rows.clone()).unwrap();
        assert_eq!(read_back::<PairRow>(&path), rows);
        let old = dir.path().join("old.parquet");
        write_table(
            &old,
            &[
                Column::int("key", [9, 9]),
                Column::int("of_key", [2, 4]),
                Column::optional("similarity", Values::Float(vec![Some(0.75), Some(1.0)])),
            ],
        )
        .unwrap();
        assert_eq!(std::fs::read(&old).unwrap(), std::fs::read(&path).unwrap());
    }

    fn decisions() -> Vec<DecisionRow> {
        vec![
            DecisionRow {
                seq: 4,
                url: "http://a.example/copy".into(),
                of: 1,
                of_url: "http://a.example/".into(),
                of_run: None,
                kind: ReplicaKind::Exact,
                detector: "exact_md5".into(),
                similarity: None,
            },
            DecisionRow {
                seq: 6,
                url: "http://b.example/".into(),
                of: 0,
                of_url: "http://old.example/".into(),
                of_run: Some("runs/january".into()),
                kind: ReplicaKind::Near,
                detector: "minhash".into(),
                similarity: Some(0.875),
            },
        ]
    }

    #[test]
    fn decisions_round_trip() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("decisions.parquet");
        write_rows(&path, decisions()).unwrap();
        assert_eq!(read_back::<DecisionRow>(&path), decisions());
        let old = dir.path().join("old.parquet");
        let text = |a: &str, b: &str| [a.to_string(), b.to_string()];
        write_table(
            &old,
            &[
                Column::int("seq", [4, 6]),
                Column::text("url", text("http://a.example/copy", "http://b.example/")),
                Column::int("of", [1, 0]),
                Column::text("of_url", text("http://a.example/", "http://old.example/")),
                Column::optional(
                    "of_run",
                    Values::Text(vec![None, Some("runs/january".into())]),
                ),
                Column::text("kind", text("exact", "near")),
                Column::text("detector", text("exact_md5", "minhash")),
                Column::optional("similarity", Values::Float(vec![None, Some(0.875)])),
            ],
        )
        .unwrap();
        assert_eq!(std::fs::read(&old).unwrap(), std::fs::read(&path).unwrap());
    }

    #[test]
    fn a_decision_of_no_known_kind_names_its_column() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("decisions.parquet");
        let mut columns = DecisionRow::into_columns(decisions());
        columns[5] = Column::text("kind", ["exact".to_string(), "twin".to_string()]);
        write_table(&path, &columns).unwrap();
        let mut rows = read_rows::<DecisionRow>(&path).unwrap();
        assert!(rows.next().unwrap().is_ok());
        let err = rows.next().unwrap().unwrap_err().to_string();
        assert!(
            err.contains("decisions.parquet") && err.contains("column kind"),
            "{err}"
        );
    }
}
