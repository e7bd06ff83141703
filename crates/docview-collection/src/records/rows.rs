//! Rows of a Parquet table as structs, over the columns of [`table`](super::table): a table's
//! row struct writes its rows as the table's columns ([`WriteRows`]) and reads itself, or a
//! view of some of its columns, from one row ([`ReadRow`]), naming each column once, in its
//! impl. [`Cells`] gives a row's values by kind, with one error naming the file and the column
//! when a column is missing or holds another kind. `docviews.parquet`
//! ([`DocViewRow`](super::DocViewRow)) and the sharded stages' work tables are written and
//! read this way.

use std::path::Path;
use std::str::FromStr;

use super::table::{Column, Row, rows, write_table};
use crate::{Error, Result};

/// A table's row struct: its rows as the table's columns.
pub trait WriteRows: Sized {
    /// `rows` as the table's columns, in file order, one value a row.
    fn into_columns(rows: Vec<Self>) -> Vec<Column>;
}

/// A struct read from one row of a table: the whole row, or a view of some columns.
pub trait ReadRow: Sized {
    /// The columns read, when not all of them (the others are not decoded).
    const PROJECTION: Option<&'static [&'static str]>;

    /// The struct of one row.
    fn read(cells: &Cells<'_>) -> Result<Self>;
}

/// Writes `rows` as the table `path`, atomically, in one row group.
pub fn write_rows<T: WriteRows>(path: &Path, rows: Vec<T>) -> Result<()> {
    write_table(path, &T::into_columns(rows))
}

/// The rows of the table `path` as `T`, in order, as a stream.
pub fn read_rows<T: ReadRow>(path: &Path) -> Result<impl Iterator<Item = Result<T>> + use<T>> {
    let stream = rows(path, T::PROJECTION)?;
    let path = path.to_path_buf();
    Ok(stream.map(move |row| {
        let row = row?;
        T::read(&Cells {
            row: &row,
            path: &path,
        })
    }))
}

/// One row of a table file: its values by column and kind.
pub struct Cells<'a> {
    row: &'a Row,
    path: &'a Path,
}

impl<'a> Cells<'a> {
    /// The cells of `row`, read from the table `path` (which errors name).
    pub fn new(row: &'a Row, path: &'a Path) -> Cells<'a> {
        Cells { row, path }
    }

    /// The error of column `name`, which does not hold `what`.
    pub fn error(&self, name: &str, what: &str) -> Error {
        Error::bad_input(
            self.path.display().to_string(),
            format!("column {name} is missing or does not hold {what}"),
        )
    }

    /// A required integer.
    pub fn int(&self, name: &str) -> Result<i64> {
        self.row
            .int(name)
            .ok_or_else(|| self.error(name, "an integer"))
    }

    /// A required integer as a `u64`, bit for bit (written `as i64`: hashes round trip).
    pub fn u64(&self, name: &str) -> Result<u64> {
        Ok(self.int(name)? as u64)
    }

    /// A required integer as a `usize`.
    pub fn usize(&self, name: &str) -> Result<usize> {
        Ok(self.int(name)? as usize)
    }

    /// A required text.
    pub fn text(&self, name: &str) -> Result<String> {
        self.row.text(name).ok_or_else(|| self.error(name, "text"))
    }

    /// A value that an optional column always has, here of floats.
    pub fn float(&self, name: &str) -> Result<f32> {
        self.row
            .float(name)
            .ok_or_else(|| self.error(name, "a float"))
    }

    /// A value that an optional column always has, here of bytes.
    pub fn bytes(&self, name: &str) -> Result<Vec<u8>> {
        self.row
            .bytes(name)
            .ok_or_else(|| self.error(name, "bytes"))
    }

    fn optional<T>(
        &self,
        name: &str,
        what: &str,
        get: fn(&Row, &str) -> Option<T>,
    ) -> Result<Option<T>> {
        match get(self.row, name) {
            Some(v) => Ok(Some(v)),
            None if self.row.is_null(name) => Ok(None),
            None => Err(self.error(name, what)),
        }
    }

    /// An optional text.
    pub fn opt_text(&self, name: &str) -> Result<Option<String>> {
        self.optional(name, "text", Row::text)
    }

    /// An optional float.
    pub fn opt_float(&self, name: &str) -> Result<Option<f32>> {
        self.optional(name, "a float", Row::float)
    }

    /// Optional bytes.
    pub fn opt_bytes(&self, name: &str) -> Result<Option<Vec<u8>>> {
        self.optional(name, "bytes", Row::bytes)
    }

    /// An optional value written as text, parsed back (a reason, a kind); `what` names it in
    /// the error when it does not parse.
    pub fn opt_parsed<T: FromStr>(&self, name: &str, what: &str) -> Result<Option<T>> {
        self.opt_text(name)?
            .map(|text| text.parse().map_err(|_| self.error(name, what)))
            .transpose()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::Skip;
    use crate::records::table::{Values, read_table};

    /// Two columns of every kind, the second optional with one value missing.
    #[derive(Debug, PartialEq)]
    struct Probe {
        n: i64,
        s: String,
        t: Option<String>,
        f: Option<f32>,
        b: Option<Vec<u8>>,
    }

    impl WriteRows for Probe {
        fn into_columns(rows: Vec<Probe>) -> Vec<Column> {
            vec![
                Column::int("n", rows.iter().map(|r| r.n)),
                Column::text("s", rows.iter().map(|r| r.s.clone())),
                Column::optional(
                    "t",
                    Values::Text(rows.iter().map(|r| r.t.clone()).collect()),
                ),
                Column::optional("f", Values::Float(rows.iter().map(|r| r.f).collect())),
                Column::optional(
                    "b",
                    Values::Bytes(rows.iter().map(|r| r.b.clone()).collect()),
                ),
            ]
        }
    }

    impl ReadRow for Probe {
        const PROJECTION: Option<&'static [&'static str]> = None;

        fn read(c: &Cells<'_>) -> Result<Probe> {
            Ok(Probe {
                n: c.int("n")?,
                s: c.text("s")?,
                t: c.opt_text("t")?,
                f: c.opt_float("f")?,
                b: c.opt_bytes("b")?,
            })
        }
    }

    fn probes() -> Vec<Probe> {
        vec![
            Probe {
                n: -1,
                s: "a".into(),
                t: Some("x".into()),
                f: Some(0.5),
                b: Some(vec![1, 2, 3]),
            },
            Probe {
                n: i64::MAX,
                s: String::new(),
                t: None,
                f: None,
                b: None,
            },
        ]
    }

    #[test]
    fn struct_rows_round_trip() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p.parquet");
        write_rows(&path, probes()).unwrap();
        let back: Vec<Probe> = read_rows(&path).unwrap().collect::<Result<_>>().unwrap();
        assert_eq!(back, probes());
    }

    #[test]
    fn a_missing_or_mistyped_column_is_one_error_naming_file_and_column() {
        /// Reads text column `s` as an integer.
        struct Wrong;
        impl ReadRow for Wrong {
            const PROJECTION: Option<&'static [&'static str]> = Some(&["s"]);
            fn read(c: &Cells<'_>) -> Result<Wrong> {
                c.int("s").map(|_| Wrong)
            }
        }
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p.parquet");
        write_rows(&path, probes()).unwrap();
        let err = read_rows::<Wrong>(&path)
            .unwrap()
            .next()
            .unwrap()
            .err()
            .unwrap()
            .to_string();
        assert!(
            err.contains("p.parquet") && err.contains("column s"),
            "{err}"
        );
        let row = &read_table(&path).unwrap()[0];
        let cells = Cells::new(row, &path);
        for err in [
            cells.opt_bytes("t").err(),
            cells.opt_text("gone").err(),
            cells.int("gone").err(),
            cells.opt_parsed::<Skip>("t", "a skip reason").err(),
        ] {
            let err = err.expect("an error").to_string();
            assert!(
                err.contains("p.parquet") && err.contains("column "),
                "{err}"
            );
        }
        // A value in an optional column that must have one.
        let second = &read_table(&path).unwrap()[1];
        let cells = Cells::new(second, &path);
        assert!(cells.float("f").is_err());
        assert_eq!(cells.opt_float("f").unwrap(), None);
        assert_eq!(cells.u64("n").unwrap(), i64::MAX as u64);
    }
}
