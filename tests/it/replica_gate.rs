//! The replica quality gate: the near-replica benchmark built from `../shared/corpus/wcxb-dev`
//! (seed 1) is evaluated, and each row recorded in `quality/replicas.json` must not find fewer
//! near-replicas nor make more errors than recorded (the counts are deterministic, so there is
//! no tolerance). A row that does better prints a note to record it.
//!
//! Skipped with a message when `../shared/corpus/wcxb-dev` is absent (a user's fresh clone). Run
//! in release (`cargo test --release`): about 25 s on two cores.

use std::collections::BTreeMap;
use std::path::PathBuf;

use docview::clean::cleaner_of;
use docview::replica_benchmark::benchmark::{BuildOptions, build_benchmark};
use docview::replica_benchmark::evaluate::{
    BenchmarkEval, ViewEval, evaluate_benchmark, minhash_detectors,
};

#[derive(serde::Deserialize)]
struct Row {
    hits: usize,
    errors: usize,
    /// Same-host copies matched to their own base page.
    copy_hits: usize,
}

#[derive(serde::Deserialize)]
struct Recorded {
    set: String,
    seed: u64,
    cleaner: String,
    pairs: usize,
    /// Same-host copies asked (of every fourth base page, four each).
    copies: usize,
    /// view -> detector -> counts
    views: BTreeMap<String, BTreeMap<String, Row>>,
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn recorded() -> Recorded {
    let path = root().join("quality/replicas.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn view<'a>(eval: &'a BenchmarkEval, name: &str) -> &'a ViewEval {
    match name {
        "raw" => &eval.raw,
        "topic" => &eval.topic,
        "replica" => &eval.replica,
        other => panic!("quality/replicas.json: unknown view {other}"),
    }
}

/// The counts of detector `name` on `v`: the exact row, a MinHash row or a keyword cell.
fn counts(v: &ViewEval, name: &str) -> Option<(usize, usize, usize)> {
    std::iter::once(&v.exact)
        .chain(&v.extra)
        .chain(v.grid.iter().map(|c| &c.score))
        .find(|s| s.detector == name)
        .map(|s| (s.hits, s.errors, s.copy_hits))
}

#[test]
fn replica_detection_does_not_get_worse() {
    let rec = recorded();
    let set = root().join("../shared/corpus").join(&rec.set);
    if !set.is_dir() {
        eprintln!("skipping the replica gate: {} not found", set.display());
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("bench");
    let options = BuildOptions {
        seed: rec.seed,
        ..BuildOptions::default()
    };
    build_benchmark(&set, &dir, &options).unwrap_or_else(|e| panic!("{e}"));
    let cleaner = cleaner_of(rec.cleaner.parse().unwrap()).unwrap();
    let eval = evaluate_benchmark(
        &dir,
        cleaner.as_ref(),
        0,
        &minhash_detectors(&[0.3, 0.5, 0.7]),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    eprintln!("{}", eval.render());
    assert_eq!(
        eval.pairs, rec.pairs,
        "the benchmark changed: rebuild the record"
    );
    assert_eq!(
        eval.replica.exact.copies, rec.copies,
        "the same-host copies changed: rebuild the record"
    );
    let mut failures = Vec::new();
    for (name, rows) in &rec.views {
        let v = view(&eval, name);
        for (detector, want) in rows {
            let Some((hits, errors, copy_hits)) = counts(v, detector) else {
                failures.push(format!("{name}: no row {detector:?}"));
                continue;
            };
            if hits < want.hits || errors > want.errors || copy_hits < want.copy_hits {
                failures.push(format!(
                    "{name} / {detector}: {hits} hits, {errors} errors and {copy_hits} copy \
                     hits, recorded {}, {} and {}",
                    want.hits, want.errors, want.copy_hits
                ));
            } else if hits > want.hits || errors < want.errors || copy_hits > want.copy_hits {
                eprintln!(
                    "note: {name} / {detector} does better ({hits} hits, {errors} errors, \
                     {copy_hits} copy hits); record it in quality/replicas.json"
                );
            }
        }
    }
    assert!(
        failures.is_empty(),
        "replica gate:\n{}",
        failures.join("\n")
    );
}

/// The bar of the replica issues, checked on the record itself so it cannot drift below it:
/// MinHash on the replica text finds at least 95% of the near-replicas with at most 1% errors,
/// and at least 95% of the same-host copies.
#[test]
fn recorded_figures_meet_the_bar() {
    let rec = recorded();
    let row = &rec.views["replica"]["MinHash LSH, J >= 0.5"];
    let pairs = rec.pairs as f64;
    assert!(row.hits as f64 >= 0.95 * pairs, "{} of {pairs}", row.hits);
    assert!(
        row.copy_hits as f64 >= 0.95 * rec.copies as f64,
        "{} of {} copies",
        row.copy_hits,
        rec.copies
    );
    assert!(
        row.errors as f64 <= 0.01 * pairs,
        "{} of {pairs}",
        row.errors
    );
}
