//! `docview query` on bad queries and arguments, run as a user runs it (the binary on the
//! bundled sample WARC's ingest): a query nested too deep, a huge `-k`, a query with nothing to
//! search for, a query starting with `-`. Each gets hits or an error naming what is wrong,
//! never an abort.

use crate::common::{DOCVIEW, ingested};
use std::path::Path;
use std::process::{Command, Output};

fn query(dir: &Path, args: &[&str]) -> Output {
    Command::new(DOCVIEW)
        .arg("query")
        .arg(dir)
        .args(args)
        .output()
        .expect("run docview query")
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn stdout(out: &Output) -> String {
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Exit code 1 (an error, not a signal or an abort) and a message on stderr holding `needles`.
fn assert_refused(out: &Output, needles: &[&str]) {
    let err = stderr(out);
    assert_eq!(out.status.code(), Some(1), "{:?}: {err}", out.status);
    for needle in needles {
        assert!(err.contains(needle), "{needle:?} not in {err}");
    }
    assert!(
        !err.contains("panicked") && !err.contains("overflow"),
        "{err}"
    );
}

/// The URLs of `--json` hits.
fn urls(out: &Output) -> Vec<String> {
    stdout(out)
        .lines()
        .map(|l| {
            let hit: serde_json::Value = serde_json::from_str(l).expect("a JSON hit");
            hit["url"].as_str().expect("url").to_string()
        })
        .collect()
}

#[test]
fn deeply_nested_queries_are_refused_not_a_stack_overflow() {
    let dir = tempfile::tempdir().unwrap();
    let ingest = ingested(dir.path());
    for query in [
        "(".repeat(5000),
        "\"(".repeat(20_000),
        "ferry (".repeat(5000),
    ] {
        for index in ["topic", "fulltext"] {
            let out = query_with(&ingest, index, &query);
            assert_refused(&out, &["nested", "at most"]);
        }
    }
    // "NOT NOT NOT ..." nests too.
    let out = query_with(&ingest, "topic", &"NOT ".repeat(5000));
    assert_refused(&out, &["nested"]);
    // A few levels are a query like any other.
    let out = query_with(&ingest, "topic", "((ferry OR dock) AND NOT (river))");
    assert!(out.status.success(), "{}", stderr(&out));
}

fn query_with(dir: &Path, index: &str, text: &str) -> Output {
    query(dir, &["--index", index, "--", text])
}

#[test]
fn a_huge_k_is_capped_at_the_index_size() {
    let dir = tempfile::tempdir().unwrap();
    let ingest = ingested(dir.path());
    let out = query(&ingest, &["ferry", "-k", "1000000000", "--json"]);
    assert!(out.status.success(), "{:?}: {}", out.status, stderr(&out));
    let hits = urls(&out);
    assert!(!hits.is_empty() && hits.len() <= 40, "{}", hits.len());
    let out = query(
        &ingest,
        &["ferry", "-k", &usize::MAX.to_string(), "--explain"],
    );
    assert!(out.status.success(), "{:?}: {}", out.status, stderr(&out));
}

#[test]
fn a_query_with_nothing_to_search_for_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let ingest = ingested(dir.path());
    for (text, why) in [
        ("", "empty"),
        ("   ", "empty"),
        ("*", "`*`"),
        ("title:", "title"),
        ("。", "no word"),
    ] {
        let out = query_with(&ingest, "topic", text);
        assert_refused(&out, &["nothing to search for", why]);
        assert!(stdout(&out).is_empty(), "{text:?}: {}", stdout(&out));
    }
    let long = "ferry ".repeat(2000);
    let out = query_with(&ingest, "topic", &long);
    assert_refused(&out, &["12000 bytes", "at most"]);
}

#[test]
fn a_query_may_start_with_an_excluded_word() {
    let dir = tempfile::tempdir().unwrap();
    let ingest = ingested(dir.path());
    let ferry = urls(&query(&ingest, &["ferry", "--json"]));
    assert!(!ferry.is_empty());
    // No `--` needed, with flags before or after the query.
    for args in [
        &["-ferry", "--json", "-k", "100"][..],
        &["--json", "-k", "100", "-ferry"][..],
        &["--index", "topic", "-ferry", "--json", "-k", "100"][..],
    ] {
        let out = query(&ingest, args);
        assert!(out.status.success(), "{args:?}: {}", stderr(&out));
        let hits = urls(&out);
        assert!(!hits.is_empty(), "{args:?}");
        assert!(
            hits.iter().all(|u| !ferry.contains(u)),
            "{args:?}: {hits:?}"
        );
    }
    // A flag placed before the query is still a flag.
    let out = query(&ingest, &["-k", "1", "--json", "ferry"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(urls(&out).len(), 1);
    // An unknown flag is not silently a query when the query is there too.
    let out = query(&ingest, &["ferry", "--no-such-flag"]);
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
}
