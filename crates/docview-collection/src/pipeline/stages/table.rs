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
use parquet::schema::parser::parse_message_type;

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
        let kind = match c.values {
            Values::Int(_) => "INT64",
            Values::Float(_) => "FLOAT",
            Values::Text(_) => "BYTE_ARRAY",
            Values::Bytes(_) => "BYTE_ARRAY",
        };
        let logical = if matches!(c.values, Values::Text(_)) {
            " (UTF8)"
        } else {
            ""
        };
        fields.push_str(&format!("{repetition} {kind} {}{logical}; ", c.name));
    }
    let schema = Arc::new(
        parse_message_type(&format!("message docview {{ {fields}}}"))
            .map_err(|e| parquet_error(path, e))?,
    );
    let props = Arc::new(
        WriterProperties::builder()
            .set_compression(Compression::SNAPPY)
            .set_created_by(format!("docview {}", env!("CARGO_PKG_VERSION")))
            .build(),
    );
    crate::output::write_atomically(path, |out| {
        let io = |e: parquet::errors::ParquetError| std::io::Error::other(e.to_string());
        let mut writer = SerializedFileWriter::new(out, schema, props).map_err(io)?;
        let mut group = writer.next_row_group().map_err(io)?;
        let mut i = 0;
        while let Some(mut column) = group.next_column().map_err(io)? {
            let c = &columns[i];
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
                        .map_err(io)?;
                }
                Values::Float(v) => {
                    let values: Vec<f32> = v.iter().flatten().copied().collect();
                    column
                        .typed::<FloatType>()
                        .write_batch(&values, levels, None)
                        .map_err(io)?;
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
                        .map_err(io)?;
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
                        .map_err(io)?;
                }
            }
            column.close().map_err(io)?;
        }
        group.close().map_err(io)?;
        writer.close().map_err(io)?;
        Ok(())
    })
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

/// Every row of the Parquet file `path`, in order.
pub fn read_table(path: &Path) -> Result<Vec<Row>> {
    let file = File::open(path).map_err(|e| Error::io(path, e))?;
    let reader = SerializedFileReader::new(file).map_err(|e| parquet_error(path, e))?;
    let mut rows = Vec::new();
    for row in reader
        .get_row_iter(None)
        .map_err(|e| parquet_error(path, e))?
    {
        let row = row.map_err(|e| parquet_error(path, e))?;
        rows.push(Row {
            fields: row.into_columns().into_iter().collect(),
        });
    }
    Ok(rows)
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
}
