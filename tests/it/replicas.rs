//! `docview replicas build` and `docview replicas eval` end to end on the labelled samples
//! (`corpus-samples/labelled`, 35 pages): the benchmark's layout, byte-identical rebuilds for a
//! seed, other pairings for another seed, and the experiment's report in text and JSON.

use crate::common::{docview, docview_ok};
use std::fs;
use std::path::{Path, PathBuf};

use serde_json::Value;

const LABELLED: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/corpus-samples/labelled");

fn build(out: &Path, seed: &str) -> String {
    docview_ok(&[
        "replicas",
        "build",
        LABELLED,
        "--out",
        out.to_str().unwrap(),
        "--seed",
        seed,
    ])
}

/// Every file under `dir`, relative path and bytes, sorted.
fn files(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let rel = path.strip_prefix(dir).unwrap().to_path_buf();
                out.push((rel, fs::read(&path).unwrap()));
            }
        }
    }
    out.sort();
    out
}

fn json(path: &Path) -> Value {
    serde_json::from_slice(&fs::read(path).unwrap()).unwrap()
}

#[test]
fn build_is_reproducible_from_its_seed() {
    let tmp = tempfile::tempdir().unwrap();
    let (a, b, c) = (
        tmp.path().join("a"),
        tmp.path().join("b"),
        tmp.path().join("c"),
    );
    let printed = build(&a, "42");
    assert!(printed.contains("35 pages"), "{printed}");
    build(&b, "42");
    build(&c, "43");
    let (fa, fb) = (files(&a), files(&b));
    assert_eq!(fa, fb, "same seed, same bytes");
    let report = json(&a.join("benchmark.json"));
    let base = report["base"].as_u64().unwrap() as usize;
    assert!(base >= 10, "{report}");
    assert_eq!(
        report["pages"].as_u64().unwrap() as usize,
        report["usable"].as_u64().unwrap() as usize + report["skipped"].as_array().unwrap().len()
    );
    // base + near + non pages, pairs.jsonl, benchmark.json.
    assert_eq!(fa.len(), 3 * base + 2);
    let pairs_a = fs::read_to_string(a.join("pairs.jsonl")).unwrap();
    let pairs_c = fs::read_to_string(c.join("pairs.jsonl")).unwrap();
    assert_ne!(pairs_a, pairs_c, "another seed, other pairings");
    for line in pairs_a.lines() {
        let pair: Value = serde_json::from_str(line).unwrap();
        assert_ne!(pair["id"], pair["near_template"]);
        assert_ne!(pair["id"], pair["non_content"]);
        for key in ["base", "near", "non"] {
            let file = a.join(pair[key].as_str().unwrap());
            let html = String::from_utf8(fs::read(&file).unwrap()).expect("UTF-8 page");
            assert!(
                html.contains("<meta charset=\"utf-8\">"),
                "{}",
                file.display()
            );
        }
    }
}

#[test]
fn eval_reports_three_views_over_the_whole_grid() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("bench");
    build(&dir, "1");
    let text = docview_ok(&["replicas", "eval", dir.to_str().unwrap(), "--threads", "2"]);
    for needle in [
        "raw page (all visible text)",
        "topic content (cleaned first)",
        "replica text (own text, site-template lines left out, as ingest)",
        "P=10%",
        "P=100%",
        "I=10",
        "exact MD5: hits",
        "keyword P=40% I=5: hits",
    ] {
        assert!(text.contains(needle), "{needle} missing in\n{text}");
    }
    let report = json(&dir.join("eval.json"));
    let pairs = report["pairs"].as_u64().unwrap();
    assert!(pairs >= 10);
    // Each base page's template is on three pages (base, non, and a near page): all learnt.
    assert_eq!(report["template_sites"].as_u64(), Some(pairs));
    let minhash_hits = |view: &str| {
        report[view]["extra"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["detector"] == "MinHash LSH, J >= 0.5")
            .map(|s| s["hits"].as_u64().unwrap())
            .unwrap()
    };
    assert!(minhash_hits("replica") >= minhash_hits("topic"));
    assert!(minhash_hits("topic") > minhash_hits("raw"));
    for view in ["raw", "topic", "replica"] {
        let grid = report[view]["grid"].as_array().unwrap();
        assert_eq!(grid.len(), 100, "{view}");
        let cells: Vec<&Value> = grid
            .iter()
            .chain(std::iter::once(&report[view]["exact"]))
            .collect();
        for cell in cells {
            let n = |k: &str| cell[k].as_u64().unwrap();
            assert_eq!((n("near"), n("non")), (pairs, pairs), "{cell}");
            assert!(n("hits") + n("misplaced") <= pairs, "{cell}");
            assert!(n("errors") <= pairs, "{cell}");
        }
        let intervals: Vec<u64> = grid
            .iter()
            .map(|c| c["interval"].as_u64().unwrap())
            .collect();
        assert_eq!(intervals[0], 1);
        assert_eq!(intervals[99], 10);
    }
    // The same benchmark evaluated again gives the same figures.
    let again = docview_ok(&["replicas", "eval", dir.to_str().unwrap(), "--threads", "1"]);
    let strip = |t: &str| {
        t.lines()
            .filter(|l| !l.starts_with("cleaning "))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(strip(&text), strip(&again));
}

#[test]
fn build_refuses_a_full_folder_and_help_names_every_flag() {
    let tmp = tempfile::tempdir().unwrap();
    fs::write(tmp.path().join("x"), "x").unwrap();
    let out = docview(&[
        "replicas",
        "build",
        LABELLED,
        "--out",
        tmp.path().to_str().unwrap(),
    ]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("not empty"));
    let help = docview_ok(&["replicas", "build", "--help"]);
    for flag in ["--out", "--seed", "--min-coverage", "--threads"] {
        assert!(help.contains(flag), "{flag} missing in\n{help}");
    }
    let help = docview_ok(&["replicas", "eval", "--help"]);
    for flag in ["--cleaner", "--threads", "--report"] {
        assert!(help.contains(flag), "{flag} missing in\n{help}");
    }
}
