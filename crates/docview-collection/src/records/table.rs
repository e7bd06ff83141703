//! The Parquet files of the sharded stages: a table of named columns written in one go
//! (atomically, one row group) and read back row by row. Only the column kinds the stages need:
//! 64-bit integers, 32-bit floats, UTF-8 text and bytes, each required or optional. Spark,
//! DuckDB, pandas and polars read these files as they are.

use std::fs::File;
use std::path::Path;
use std::sync::Arc;

use parquet::basic::Compression;
use parquet::data_type::{ByteArray, ByteArrayType, FloatType, Int64Type};
use parquet::file::properties::WriterProperties;
use parquet::file::reader::{FileReader, SerializedFileReader};
use parquet::file::writer::SerializedFileWriter;
use parquet::record::Field;
use parquet::record::reader::RowIter;
use parquet::schema::parser::parse_message_type;
use parquet::schema::types::Type;

use crate::{Error, Result};

/// The values of one column, `None` for a missing value (an optional column).
#[derive(Debug, Clone)]
pub enum Values {
    /// 64-bit integers.
    Int(Vec<Option<i64>>),
    /// 32-bit floats.
    Float(Vec<Option<f32>>),
    /// UTF-8 text.
    Text(Vec<Option<String>>),
    /// Bytes.
    Bytes(Vec<Option<Vec<u8>>>),
}

impl Values {
    fn len(&self) -> usize {
        match self {
            Values::Int(v) => v.len(),
            Values::Float(v) => v.len(),
            Values::Text(v) => v.len(),
            Values::Bytes(v) => v.len(),
        }
    }

    fn has_none(&self) -> bool {
        match self {
            Values::Int(v) => v.iter().any(Option::is_none),
            Values::Float(v) => v.iter().any(Option::is_none),
            Values::Text(v) => v.iter().any(Option::is_none),
            Values::Bytes(v) => v.iter().any(Option::is_none),
        }
    }
}

/// A named column; `optional` columns may hold missing values.
#[derive(Debug, Clone)]
pub struct Column {
    /// Its name.
    pub name: &'static str,
    /// May a value be missing.
    pub optional: bool,
    /// Its values, one per row.
    pub values: Values,
}

impl Column {
    /// A column of required 64-bit integers.
    pub fn int(name: &'static str, values: impl IntoIterator<Item = i64>) -> Column {
        Column {
            name,
            optional: false,
            values: Values::Int(values.into_iter().map(Some).collect()),
        }
    }

    /// An optional column of any kind.
    pub fn optional(name: &'static str, values: Values) -> Column {
        Column {
            name,
            optional: true,
            values,
        }
    }

    /// A column of required text.
    pub fn text(name: &'static str, values: impl IntoIterator<Item = String>) -> Column {
        Column {
            name,
            optional: false,
            values: Values::Text(values.into_iter().map(Some).collect()),
        }
    }
}

fn parquet_error(path: &Path, e: impl std::fmt::Display) -> Error {
    Error::io(path, std::io::Error::other(e.to_string()))
}

/// Writes `columns` (all of one length) as the Parquet file `path`, atomically: a reader sees
/// the whole table or the file as it was.
pub fn write_table(path: &Path, columns: &[Column]) -> Result<()> {
    TableWriter::create(path)?.finish(columns)
}

/// The Parquet schema of `columns`, checked: all of one length, no missing value in a required
/// column.
fn schema_of(path: &Path, columns: &[Column]) -> Result<Arc<parquet::schema::types::Type>> {
    let rows = columns.first().map_or(0, |c| c.values.len());
    let mut fields = String::new();
    for c in columns {
        if c.values.len() != rows {
            return Err(parquet_error(
                path,
                format!("column {} is not {rows} long", c.name),
            ));
        }
        if !c.optional && c.values.has_none() {
            return Err(parquet_error(
                path,
                format!("column {} misses values", c.name),
            ));
        }
        let repetition = if c.optional { "OPTIONAL" } else { "REQUIRED" };
        let (kind, logical) = match c.values {
            Values::Int(_) => ("INT64", ""),
            Values::Float(_) => ("FLOAT", ""),
            Values::Text(_) => ("BYTE_ARRAY", " (UTF8)"),
            Values::Bytes(_) => ("BYTE_ARRAY", ""),
        };
        fields.push_str(&format!("{repetition} {kind} {}{logical}; ", c.name));
    }
    Ok(Arc::new(
        parse_message_type(&format!("message docview {{ {fields}}}"))
            .map_err(|e| parquet_error(path, e))?,
    ))
}

/// A Parquet file written one row group at a time (so a task never holds all its rows), into a
/// temporary file that replaces `path` at [`TableWriter::finish`].
pub struct TableWriter {
    path: std::path::PathBuf,
    tmp: tempfile::NamedTempFile,
    writer: Option<SerializedFileWriter<std::io::BufWriter<File>>>,
}

impl TableWriter {
    /// Starts the file `path`.
    pub fn create(path: &Path) -> Result<TableWriter> {
        let tmp = crate::output::temp_file_for(path).map_err(|e| Error::io(path, e))?;
        Ok(TableWriter {
            path: path.to_path_buf(),
            tmp,
            writer: None,
        })
    }

    /// Writes `columns` as the next row group (the first one fixes the schema).
    pub fn write(&mut self, columns: &[Column]) -> Result<()> {
        let path = self.path.clone();
        let err = |e: parquet::errors::ParquetError| parquet_error(&path, e);
        if self.writer.is_none() {
            let schema = schema_of(&path, columns)?;
            let props = Arc::new(
                WriterProperties::builder()
                    .set_compression(Compression::SNAPPY)
                    .set_created_by(format!("docview {}", env!("CARGO_PKG_VERSION")))
                    .build(),
            );
            let file = self
                .tmp
                .reopen()
                .map_err(|e| Error::io(self.tmp.path(), e))?;
            self.writer = Some(
                SerializedFileWriter::new(std::io::BufWriter::new(file), schema, props)
                    .map_err(err)?,
            );
        } else {
            schema_of(&path, columns)?;
        }
        let Some(writer) = self.writer.as_mut() else {
            return Ok(());
        };
        let mut group = writer.next_row_group().map_err(err)?;
        let mut i = 0;
        while let Some(mut column) = group.next_column().map_err(err)? {
            let Some(c) = columns.get(i) else {
                return Err(parquet_error(&path, "fewer columns than the schema"));
            };
            i += 1;
            let levels: Vec<i16> = match &c.values {
                Values::Int(v) => v.iter().map(|x| i16::from(x.is_some())).collect(),
                Values::Float(v) => v.iter().map(|x| i16::from(x.is_some())).collect(),
                Values::Text(v) => v.iter().map(|x| i16::from(x.is_some())).collect(),
                Values::Bytes(v) => v.iter().map(|x| i16::from(x.is_some())).collect(),
            };
            let levels = c.optional.then_some(levels.as_slice());
            match &c.values {
                Values::Int(v) => {
                    let values: Vec<i64> = v.iter().flatten().copied().collect();
                    column
                        .typed::<Int64Type>()
                        .write_batch(&values, levels, None)
                        .map_err(err)?;
                }
                Values::Float(v) => {
                    let values: Vec<f32> = v.iter().flatten().copied().collect();
                    column
                        .typed::<FloatType>()
                        .write_batch(&values, levels, None)
                        .map_err(err)?;
                }
                Values::Text(v) => {
                    let values: Vec<ByteArray> = v
                        .iter()
                        .flatten()
                        .map(|s| ByteArray::from(s.as_str()))
                        .collect();
                    column
                        .typed::<ByteArrayType>()
                        .write_batch(&values, levels, None)
                        .map_err(err)?;
                }
                Values::Bytes(v) => {
                    let values: Vec<ByteArray> = v
                        .iter()
                        .flatten()
                        .map(|b| ByteArray::from(b.clone()))
                        .collect();
                    column
                        .typed::<ByteArrayType>()
                        .write_batch(&values, levels, None)
                        .map_err(err)?;
                }
            }
            column.close().map_err(err)?;
        }
        group.close().map_err(err)?;
        Ok(())
    }

    /// Writes `last` (when it has rows, or when nothing was written yet: an empty table still
    /// has its schema), closes the file and puts it in place.
    pub fn finish(mut self, last: &[Column]) -> Result<()> {
        let rows = last.first().map_or(0, |c| c.values.len());
        if rows > 0 || self.writer.is_none() {
            self.write(last)?;
        }
        let path = self.path.clone();
        if let Some(writer) = self.writer.take() {
            let out = writer.into_inner().map_err(|e| parquet_error(&path, e))?;
            out.into_inner()
                .map_err(|e| Error::io(&path, e.into_error()))?
                .sync_all()
                .map_err(|e| Error::io(&path, e))?;
        }
        self.tmp
            .persist(&path)
            .map_err(|e| Error::io(&path, e.error))?;
        Ok(())
    }
}

/// One row read back: its fields by column name.
#[derive(Debug)]
pub struct Row {
    fields: Vec<(String, Field)>,
}

impl Row {
    fn field(&self, name: &str) -> Option<&Field> {
        self.fields
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, f)| f)
            .filter(|f| !matches!(f, Field::Null))
    }

    /// True when the row has column `name` without a value (a missing value of an optional
    /// column); false when the value is there, or the row has no such column.
    pub fn is_null(&self, name: &str) -> bool {
        self.fields
            .iter()
            .find(|(n, _)| n == name)
            .is_some_and(|(_, f)| matches!(f, Field::Null))
    }

    /// An integer column's value.
    pub fn int(&self, name: &str) -> Option<i64> {
        match self.field(name)? {
            Field::Long(v) => Some(*v),
            _ => None,
        }
    }

    /// A float column's value.
    pub fn float(&self, name: &str) -> Option<f32> {
        match self.field(name)? {
            Field::Float(v) => Some(*v),
            _ => None,
        }
    }

    /// A text column's value.
    pub fn text(&self, name: &str) -> Option<String> {
        match self.field(name)? {
            Field::Str(v) => Some(v.clone()),
            _ => None,
        }
    }

    /// A bytes column's value.
    pub fn bytes(&self, name: &str) -> Option<Vec<u8>> {
        match self.field(name)? {
            Field::Bytes(v) => Some(v.data().to_vec()),
            _ => None,
        }
    }
}

/// The rows of the Parquet file `path`, in order, as a stream; with `columns`, only those
/// columns are read.
pub fn rows(
    path: &Path,
    columns: Option<&[&str]>,
) -> Result<impl Iterator<Item = Result<Row>> + use<>> {
    let file = File::open(path).map_err(|e| Error::io(path, e))?;
    let reader = SerializedFileReader::new(file).map_err(|e| parquet_error(path, e))?;
    let projection = match columns {
        None => None,
        Some(names) => {
            let schema = reader.metadata().file_metadata().schema();
            let fields: Vec<Arc<Type>> = schema
                .get_fields()
                .iter()
                .filter(|f| names.contains(&f.name()))
                .cloned()
                .collect();
            Some(
                Type::group_type_builder(schema.name())
                    .with_fields(fields)
                    .build()
                    .map_err(|e| parquet_error(path, e))?,
            )
        }
    };
    let rows = RowIter::from_file_into(Box::new(reader))
        .project(projection)
        .map_err(|e| parquet_error(path, e))?;
    let path = path.to_path_buf();
    Ok(rows.map(move |row| {
        let row = row.map_err(|e| parquet_error(&path, e))?;
        Ok(Row {
            fields: row.into_columns(),
        })
    }))
}

/// Every row of the Parquet file `path`, in order.
pub fn read_table(path: &Path) -> Result<Vec<Row>> {
    rows(path, None)?.collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_round_trips_with_missing_values() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.parquet");
        write_table(
            &path,
            &[
                Column::int("seq", [3, 1]),
                Column::optional("score", Values::Float(vec![Some(0.5), None])),
                Column::text("url", ["http://a/".to_string(), "http://b/".to_string()]),
                Column::optional("sig", Values::Bytes(vec![None, Some(vec![1, 2, 3])])),
            ],
        )
        .unwrap();
        assert_eq!(&std::fs::read(&path).unwrap()[..4], b"PAR1");
        let rows = read_table(&path).unwrap();
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].int("seq"), Some(3));
        assert_eq!(rows[0].float("score"), Some(0.5));
        assert_eq!(rows[1].float("score"), None);
        assert!(rows[1].is_null("score") && !rows[0].is_null("score"));
        assert!(!rows[0].is_null("no such column"));
        assert_eq!(rows[1].text("url").as_deref(), Some("http://b/"));
        assert_eq!(rows[0].bytes("sig"), None);
        assert_eq!(rows[1].bytes("sig"), Some(vec![1, 2, 3]));
        // A required column with a hole is refused before anything is written.
        let bad = write_table(
            &dir.path().join("bad.parquet"),
            &[Column {
                name: "x",
                optional: false,
                values: Values::Int(vec![None]),
            }],
        );
        assert!(bad.is_err());
        assert!(!dir.path().join("bad.parquet").exists());
    }

    #[test]
    fn row_groups_stream_in_and_columns_project_out() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("groups.parquet");
        let group = |from: i64| {
            vec![
                Column::int("seq", from..from + 3),
                Column::text("url", (from..from + 3).map(|i| format!("u{i}"))),
            ]
        };
        let mut writer = TableWriter::create(&path).unwrap();
        writer.write(&group(0)).unwrap();
        assert!(!path.exists(), "nothing in place before finish");
        writer.write(&group(3)).unwrap();
        writer.finish(&group(6)).unwrap();
        let seqs: Vec<Option<i64>> = rows(&path, Some(&["seq"]))
            .unwrap()
            .map(|r| r.unwrap().int("seq"))
            .collect();
        assert_eq!(seqs, (0..9).map(Some).collect::<Vec<_>>());
        let projected = rows(&path, Some(&["seq"]))
            .unwrap()
            .next()
            .unwrap()
            .unwrap();
        assert_eq!(projected.text("url"), None, "not read");
        // An empty table keeps its schema.
        let empty = dir.path().join("empty.parquet");
        TableWriter::create(&empty)
            .unwrap()
            .finish(&[Column::int("seq", [])])
            .unwrap();
        assert_eq!(read_table(&empty).unwrap().len(), 0);
    }
}
