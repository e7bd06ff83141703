//! The quality gate: the F1 of each cleaner on each dev set, recorded in `quality/f1.json`, must
//! not go down. A change that lowers any recorded figure (overall or one page type) by more than
//! the recorded tolerance fails here; a change that raises one prints a note to record it.
//!
//! The `../shared/corpus` sets are skipped with a message when absent (a user's fresh clone);
//! the bundled `corpus-samples/labelled` set always runs. Run in release (`cargo test --release`):
//! wcxb-dev is 416 MB of HTML.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use docview::clean::cleaner_by_name;
use docview::eval::{EvalReport, load_set, run_eval};
use docview::extract::extract_page;

#[derive(serde::Deserialize)]
struct Baseline {
    tolerance: f64,
    /// cleaner -> set -> page type (or "all") -> F1
    cleaners: BTreeMap<String, BTreeMap<String, BTreeMap<String, f64>>>,
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn baseline() -> Baseline {
    let path = root().join("quality/f1.json");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn set_dir(set: &str) -> PathBuf {
    match set {
        "corpus-samples" => root().join("corpus-samples/labelled"),
        other => root().join("../shared/corpus").join(other),
    }
}

fn evaluate(cleaner: &str, dir: &Path) -> EvalReport {
    let cleaner = cleaner_by_name(cleaner).expect("known cleaner");
    let pages = load_set(dir).unwrap_or_else(|e| panic!("{e}"));
    run_eval(
        &pages,
        |bytes| extract_page(bytes, None, "page", cleaner.as_ref()).map(|p| p.cleaned.topic_text),
        0,
        false,
    )
    .unwrap_or_else(|e| panic!("{e}"))
}

/// Checks one set against its recorded figures; returns the failures.
fn check_set(cleaner: &str, set: &str, recorded: &BTreeMap<String, f64>, tol: f64) -> Vec<String> {
    let dir = set_dir(set);
    if !dir.is_dir() {
        eprintln!("skipping {cleaner} on {set}: {} not found", dir.display());
        return Vec::new();
    }
    let report = evaluate(cleaner, &dir);
    eprintln!("{cleaner} on {set}:\n{}", report.render_table(true));
    let mut failures = Vec::new();
    for (kind, &want) in recorded {
        let got = if kind == "all" {
            report.overall.f1
        } else {
            match report.by_type.get(kind) {
                Some((_, prf)) => prf.f1,
                None => {
                    failures.push(format!("{cleaner} {set}: no pages of type {kind}"));
                    continue;
                }
            }
        };
        if got < want - tol {
            failures.push(format!(
                "{cleaner} {set} {kind}: F1 {got:.4} is below the recorded {want:.4}"
            ));
        } else if got > want + tol {
            eprintln!(
                "note: {cleaner} {set} {kind}: F1 {got:.4} is above the recorded {want:.4}; \
                 record it in quality/f1.json"
            );
        }
    }
    failures
}

#[test]
fn f1_does_not_go_down() {
    let base = baseline();
    let mut failures = Vec::new();
    for (cleaner, sets) in &base.cleaners {
        for (set, recorded) in sets {
            failures.extend(check_set(cleaner, set, recorded, base.tolerance));
        }
    }
    assert!(
        failures.is_empty(),
        "quality gate:\n{}",
        failures.join("\n")
    );
}

/// The bars of the cleaning issue, checked on the recorded figures themselves so the record
/// cannot drift below them.
#[test]
fn recorded_figures_meet_the_bars() {
    let base = baseline();
    let fw = &base.cleaners["framework"];
    let wcxb = &fw["wcxb-dev"];
    assert!(wcxb["all"] >= 0.82, "wcxb-dev overall {}", wcxb["all"]);
    for (kind, f1) in wcxb {
        assert!(*f1 >= 0.60, "wcxb-dev {kind} {f1}");
    }
    assert!(fw["zh-news-dev"]["all"] >= 0.90);
}
