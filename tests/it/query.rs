//! `docview query` on bad queries and arguments, run as a user runs it (the binary on the
//! bundled sample WARC's ingest): a query nested too deep, a huge `-k`, a query with nothing to
//! search for, a query of only exclusions, a query starting with `-`. Each gets hits or an
//! error naming what is wrong, never an abort. And `query` and `compare` on an ingest they may
//! not write.

use crate::common::{DOCVIEW, ingested};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
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
        &["-ferry harbor", "--json", "-k", "100"][..],
        &["--json", "-k", "100", "-ferry harbor"][..],
        &["--index", "topic", "-ferry harbor", "--json", "-k", "100"][..],
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

#[test]
fn a_query_of_only_exclusions_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let ingest = ingested(dir.path());
    for args in [
        &["--", "-k"][..],
        &["-ferry"][..],
        &["NOT ferry", "--index", "fulltext"][..],
        &["-ferry -dock", "--json"][..],
        &["-(ferry dock)"][..],
    ] {
        let out = query(&ingest, args);
        assert_refused(&out, &["nothing to search for", "only words to exclude"]);
        assert!(stdout(&out).is_empty(), "{args:?}: {}", stdout(&out));
    }
}

/// Every file under `dir` (lock files too) with its bytes and permissions.
fn snapshot(dir: &Path) -> BTreeMap<PathBuf, (Vec<u8>, u32)> {
    use std::os::unix::fs::PermissionsExt;
    let mut files = BTreeMap::new();
    for entry in walkdir::WalkDir::new(dir) {
        let entry = entry.unwrap();
        let meta = entry.metadata().unwrap();
        let bytes = if meta.is_file() {
            std::fs::read(entry.path()).unwrap()
        } else {
            Vec::new()
        };
        let path = entry.path().strip_prefix(dir).unwrap().to_path_buf();
        files.insert(path, (bytes, meta.permissions().mode()));
    }
    files
}

/// Sets the write bits of everything under `dir` (`on`), or clears them (`chmod -R a-w`).
fn writable(dir: &Path, on: bool) {
    use std::os::unix::fs::PermissionsExt;
    for entry in walkdir::WalkDir::new(dir).contents_first(!on) {
        let entry = entry.unwrap();
        let mode = entry.metadata().unwrap().permissions().mode();
        let mode = if on { mode | 0o200 } else { mode & !0o222 };
        std::fs::set_permissions(entry.path(), std::fs::Permissions::from_mode(mode)).unwrap();
    }
}

/// `docview query` and `compare` on a copy of an ingest without write permission
/// (`chmod -R a-w`), once with the lock files tantivy's writer left and once without them.
/// Tests may run as root, for whom the permissions are not enforced, so each also checks that
/// nothing in the folder was created, changed or removed: with tantivy's own directory the
/// reader creates `.tantivy-meta.lock` (and fails on a folder it may not write).
#[test]
fn query_and_compare_read_an_ingest_they_may_not_write() {
    let dir = tempfile::tempdir().unwrap();
    let ingest = ingested(dir.path());
    let expected = urls(&query(&ingest, &["ferry", "--json"]));
    assert!(!expected.is_empty());
    let queries = dir.path().join("queries.txt");
    std::fs::write(&queries, "ferry dock\nharbor\n").unwrap();
    for keep_locks in [true, false] {
        let copy = dir.path().join(format!("read-only-{keep_locks}"));
        for entry in walkdir::WalkDir::new(&ingest) {
            let entry = entry.unwrap();
            let to = copy.join(entry.path().strip_prefix(&ingest).unwrap());
            let name = entry.file_name().to_string_lossy();
            if entry.file_type().is_dir() {
                std::fs::create_dir_all(&to).unwrap();
            } else if keep_locks || !name.ends_with(".lock") {
                std::fs::copy(entry.path(), &to).unwrap();
            }
        }
        let tantivy_locks = walkdir::WalkDir::new(&copy)
            .into_iter()
            .filter(|e| {
                e.as_ref()
                    .unwrap()
                    .file_name()
                    .to_string_lossy()
                    .starts_with(".tantivy-")
            })
            .count();
        assert_eq!(tantivy_locks > 0, keep_locks, "{}", copy.display());
        writable(&copy, false);
        let before = snapshot(&copy);
        for index in ["topic", "fulltext", "abstract", "docview"] {
            let out = query(&copy, &["ferry", "--json", "--index", index]);
            assert!(out.status.success(), "{index}: {}", stderr(&out));
            if index == "topic" {
                assert_eq!(urls(&out), expected);
            }
        }
        let report = dir.path().join(format!("compare-{keep_locks}"));
        let out = Command::new(DOCVIEW)
            .arg("compare")
            .arg(&copy)
            .arg("--queries")
            .arg(&queries)
            .args(["--runs", "1", "--out"])
            .arg(&report)
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
        assert!(report.join("compare.json").is_file());
        assert!(
            snapshot(&copy) == before,
            "{}: query or compare wrote in the folder",
            copy.display()
        );
        writable(&copy, true);
    }
}
