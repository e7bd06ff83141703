//! The one check of DocView records against the schema, `schema/docview.schema.json`: every
//! line of an output folder's `docviews.jsonl` must be a valid record. Shared by the
//! integration tests (`common.rs` re-exports it) and the pipeline crate's unit tests (its
//! `stages/testing.rs` includes this file), so that every test that writes records, through an
//! ingest or the stages, checks what it wrote the same way.

use std::path::Path;
use std::sync::OnceLock;

/// The schema of a DocView record, compiled once.
pub fn record_schema() -> &'static jsonschema::Validator {
    static VALIDATOR: OnceLock<jsonschema::Validator> = OnceLock::new();
    VALIDATOR.get_or_init(|| {
        let text = include_str!("../../schema/docview.schema.json");
        let schema: serde_json::Value = serde_json::from_str(text).expect("the schema is JSON");
        jsonschema::validator_for(&schema).expect("the schema compiles")
    })
}

/// Checks every record of the output folder `out` (its `docviews.jsonl`) against the DocView
/// schema, failing the test with the line and what is wrong; how many records there are.
pub fn check_records(out: &Path) -> usize {
    let path = out.join("docviews.jsonl");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let validator = record_schema();
    let mut n = 0;
    for (i, line) in text.lines().enumerate() {
        let value: serde_json::Value = serde_json::from_str(line)
            .unwrap_or_else(|e| panic!("{} line {}: {e}", path.display(), i + 1));
        let errors: Vec<String> = validator
            .iter_errors(&value)
            .map(|e| format!("{} at {}", e, e.instance_path()))
            .collect();
        assert!(
            errors.is_empty(),
            "{} line {}: {errors:?} in {line}",
            path.display(),
            i + 1
        );
        n += 1;
    }
    n
}
