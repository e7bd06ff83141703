//! The work tables' rows as structs: [`records::rows`](crate::records::rows) (the row traits
//! and a row's cells), with the cells only the work tables hold, fingerprints and MinHash
//! signatures ([`WorkCells`]).

pub(super) use crate::records::rows::{Cells, ReadRow, WriteRows, read_rows, write_rows};
use crate::replica::{Fingerprint, Signature};
/// The result of reading a row: the collection layer's, as the row traits give it.
pub(super) use docview_collection::Result;

use super::codec::{fingerprint_of_hex, signature_of_bytes};

/// The cells of a work table's row that hold replica fingerprints.
pub(super) trait WorkCells {
    /// An optional fingerprint, as its hex digits.
    fn opt_fingerprint(&self, name: &str) -> Result<Option<Fingerprint>>;

    /// An optional MinHash signature, as its bytes.
    fn opt_signature(&self, name: &str) -> Result<Option<Signature>>;
}

impl WorkCells for Cells<'_> {
    fn opt_fingerprint(&self, name: &str) -> Result<Option<Fingerprint>> {
        self.opt_text(name)?
            .map(|hex| fingerprint_of_hex(&hex).ok_or_else(|| self.error(name, "a fingerprint")))
            .transpose()
    }

    fn opt_signature(&self, name: &str) -> Result<Option<Signature>> {
        self.opt_bytes(name)?
            .map(|b| signature_of_bytes(&b).ok_or_else(|| self.error(name, "a signature")))
            .transpose()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::records::table::{Column, Values, read_table, write_table};

    #[test]
    fn a_cell_that_is_no_fingerprint_or_signature_is_an_error_naming_file_and_column() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p.parquet");
        write_table(
            &path,
            &[
                Column::optional("exact", Values::Text(vec![Some("zz".into()), None])),
                Column::optional("minhash", Values::Bytes(vec![Some(vec![1, 2, 3]), None])),
            ],
        )
        .unwrap();
        let rows = read_table(&path).unwrap();
        let bad = Cells::new(&rows[0], &path);
        for err in [
            bad.opt_fingerprint("exact").map(|_| ()).err(),
            bad.opt_signature("minhash").map(|_| ()).err(),
        ] {
            let err = err.expect("an error").to_string();
            assert!(
                err.contains("p.parquet") && err.contains("column "),
                "{err}"
            );
        }
        let missing = Cells::new(&rows[1], &path);
        assert_eq!(missing.opt_fingerprint("exact").unwrap(), None);
        assert_eq!(missing.opt_signature("minhash").unwrap(), None);
    }
}
