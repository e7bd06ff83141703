//! The quality gate: the F1 of each cleaner on each dev set, recorded in `quality/f1.json`, must
//! not go down. A change that lowers any recorded figure (overall or one page type) by more than
//! the recorded tolerance fails here; a change that raises one prints a note to record it.
//!
//! The `../shared/corpus` sets are skipped with a message when absent (a user's fresh clone);
//! the bundled `corpus-samples/labelled` set always runs. Beside the F1, the DocView type's
//! bar on wcxb-dev's listings and articles, cross-validated. Run in release (`cargo test --release`):
//! wcxb-dev is 416 MB of HTML.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use docview::clean::{TrainParams, cleaner_of};
use docview::eval::blocks::{FoldCleaning, all_blocks, cross_validate, load_sets};
use docview::eval::{EvalReport, evaluate_cleaner, load_set};

/// set -> page type (or "all") -> F1
type SetFigures = BTreeMap<String, BTreeMap<String, f64>>;

#[derive(serde::Deserialize)]
struct Baseline {
    tolerance: f64,
    /// cleaner -> set -> page type (or "all") -> F1
    cleaners: BTreeMap<String, SetFigures>,
    /// The learned cleaner's site-grouped cross-validation over the dev sets together.
    cross_validated: CrossValidated,
}

#[derive(serde::Deserialize)]
struct CrossValidated {
    folds: usize,
    /// How far a change may trade one set (or page type) against another.
    trade: Trade,
    /// set -> page type -> F1, the dev sets cross-validated together.
    learned: SetFigures,
    /// The same cross-validation on a fixed sample of the sets' pages, which `cargo test` runs.
    sample: Sample,
}

/// The fixed sample the CI's cross-validation reads: of each set, the `pages_per_set` pages
/// first by a hash of their file id (all of a smaller set), with their figures.
#[derive(serde::Deserialize)]
struct Sample {
    pages_per_set: usize,
    /// set -> page type -> F1, the sample cross-validated.
    learned: SetFigures,
}

/// The trade a change may make: the mean over the sets must not fall, and no set or page type
/// by more than these.
#[derive(serde::Deserialize)]
struct Trade {
    set: f64,
    page_type: f64,
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
    let cleaner = cleaner_of(cleaner.parse().expect("known cleaner")).expect("cleaner");
    let pages = load_set(dir).unwrap_or_else(|e| panic!("{e}"));
    // As `docview eval` scores it: a site-aware cleaner sees each site's pages together.
    evaluate_cleaner(&pages, cleaner.as_ref(), 0, false, true)
        .unwrap_or_else(|e| panic!("{e}"))
        .0
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
    compare(cleaner, set, &report, recorded, (tol, tol))
}

/// The failures of `report` against the recorded figures of one set: a figure below its
/// record by more than `tol` (`type_tol` for a page type, `tol` for the set).
fn compare(
    cleaner: &str,
    set: &str,
    report: &EvalReport,
    recorded: &BTreeMap<String, f64>,
    (tol, type_tol): (f64, f64),
) -> Vec<String> {
    let mut failures = Vec::new();
    for (kind, &want) in recorded {
        let tol = if kind == "all" { tol } else { type_tol };
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

/// A stable hash of a page's file id (FNV-1a), which orders a set's pages for the sample.
fn page_hash(file_id: &str) -> u64 {
    file_id.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The learned cleaner cross-validated by site over the eight dev sets together (a model per
/// fold trained on the other folds), on the fixed sample `cargo test` reads: of each set, the
/// `pages_per_set` pages first by a hash of their file id (`cross_validated.sample`). Issue 42's
/// rule holds on it as on all pages: the mean of the sets' F1 must not fall, no set by more than
/// the recorded `trade.set`, no page type by more than `trade.page_type`. The sample keeps CI's
/// cross-validation to a third of its work; the figures of record, the ones a change is
/// judged by, are those of all pages: [`cross_validated_f1_does_not_go_down_on_all_pages`].
#[test]
fn cross_validated_f1_does_not_go_down() {
    let base = baseline();
    let cv = &base.cross_validated;
    check_cross_validation(
        &cv.sample.learned,
        Some(cv.sample.pages_per_set),
        cv.folds,
        &cv.trade,
        base.tolerance,
    );
}

/// The cross-validation of record, over every page of the eight dev sets (about 18 minutes of
/// one core's time; `cargo test --release -- --ignored all_pages`, or `docview eval --folds 5`
/// over the sets as `cross_validated.about` says): run it before a change to the cleaner or its
/// training lands, and record its figures in `cross_validated.learned`.
#[test]
#[ignore = "the cross-validation of record takes 10 minutes on two cores; run it with --ignored before a cleaning change lands"]
fn cross_validated_f1_does_not_go_down_on_all_pages() {
    let base = baseline();
    let cv = &base.cross_validated;
    check_cross_validation(&cv.learned, None, cv.folds, &cv.trade, base.tolerance);
}

/// Cross-validates the learned cleaner over the sets `recorded` names (each cut to its first
/// `pages_per_set` pages by [`page_hash`] when given) and checks the figures against
/// `recorded` by issue 42's rule.
fn check_cross_validation(
    recorded: &SetFigures,
    pages_per_set: Option<usize>,
    folds: usize,
    trade: &Trade,
    tolerance: f64,
) {
    let dirs: Vec<PathBuf> = recorded.keys().map(|s| set_dir(s)).collect();
    if let Some(missing) = dirs.iter().find(|d| !d.is_dir()) {
        eprintln!(
            "skipping the cross-validation: {} not found (it needs every dev set)",
            missing.display()
        );
        return;
    }
    let mut sets = load_sets(&dirs).unwrap_or_else(|e| panic!("{e}"));
    if let Some(n) = pages_per_set {
        for set in &mut sets {
            set.pages
                .sort_by_key(|p| (page_hash(&p.file_id), p.file_id.clone()));
            set.pages.truncate(n);
            set.pages.sort_by(|a, b| a.file_id.cmp(&b.file_id));
        }
    }
    let blocks = all_blocks(&sets, 0).unwrap_or_else(|e| panic!("{e}"));
    let result = cross_validate(
        &sets,
        &blocks,
        folds,
        &TrainParams::default(),
        0,
        FoldCleaning {
            site_evidence: true,
            favor: docview::clean::Favor::Balanced,
        },
        |line| eprintln!("{line}"),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let mut failures = Vec::new();
    let mut means = (0.0, 0.0);
    for report in &result.reports {
        eprintln!(
            "learned, cross-validated, on {}:\n{}",
            report.set,
            report.render_table(true)
        );
        let recorded = &recorded[&report.set];
        means.0 += report.overall.f1 / result.reports.len() as f64;
        means.1 += recorded["all"] / result.reports.len() as f64;
        failures.extend(compare(
            "learned (cross-validated)",
            &report.set,
            report,
            recorded,
            (trade.set, trade.page_type),
        ));
    }
    let (got, want) = means;
    eprintln!("learned, cross-validated: mean F1 over the sets {got:.4} (recorded {want:.4})");
    if got < want - tolerance {
        failures.push(format!(
            "learned (cross-validated): the mean F1 over the sets {got:.4} is below the recorded \
             {want:.4}"
        ));
    }
    assert!(
        failures.is_empty(),
        "quality gate:\n{}",
        failures.join("\n")
    );
}

/// The shipped model has seen the dev sets: on each it scores at least its cross-validated
/// figure, and the learned cleaner beats the framework's on every set, cross-validated.
#[test]
fn shipped_and_cross_validated_figures_agree() {
    let base = baseline();
    let cv = &base.cross_validated.learned;
    let shipped = &base.cleaners["learned"];
    let framework = &base.cleaners["framework"];
    for (set, figures) in cv {
        // Sets the shipped model was trained on and recorded for.
        let (Some(shipped), Some(framework)) = (shipped.get(set), framework.get(set)) else {
            continue;
        };
        assert!(
            shipped["all"] >= figures["all"],
            "{set}: shipped {} below cross-validated {}",
            shipped["all"],
            figures["all"]
        );
        assert!(
            figures["all"] > framework["all"],
            "{set}: cross-validated {} not above the framework's {}",
            figures["all"],
            framework["all"]
        );
    }
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

/// The DocView type on wcxb-dev, cross-validated by site (5 folds, the trees classifier with
/// the default cleaner): at least 80% of the listing pages are typed hub and at most 2% of the
/// articles (issue 42 item 7), as `classify eval` prints them per class of the truth.
#[test]
fn the_docview_type_finds_listings_not_articles() {
    let dir = set_dir("wcxb-dev");
    if !dir.is_dir() {
        println!("skipping: {} not found", dir.display());
        return;
    }
    let out = std::process::Command::new(crate::common::DOCVIEW)
        .args(["classify", "eval", "--folds", "5"])
        .arg(&dir)
        .output()
        .expect("run docview classify eval");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let typed = |class: &str| -> (usize, usize) {
        let rest = text
            .split("DocView type hub, by class")
            .nth(1)
            .unwrap_or_else(|| panic!("no DocView type lines:\n{text}"));
        let line = rest
            .lines()
            .find(|l| l.split_whitespace().next() == Some(class))
            .unwrap_or_else(|| panic!("no {class} line:\n{rest}"));
        let words: Vec<&str> = line.split_whitespace().collect();
        (words[1].parse().unwrap(), words[3].parse().unwrap())
    };
    let (listings, all_listings) = typed("listing");
    let (articles, all_articles) = typed("article");
    println!("hubs: {listings} of {all_listings} listings, {articles} of {all_articles} articles");
    assert!(
        listings * 100 >= all_listings * 80,
        "{listings} of {all_listings} listings typed hub"
    );
    assert!(
        articles * 100 <= all_articles * 2,
        "{articles} of {all_articles} articles typed hub"
    );
}
