//! Incremental crawls (`--earlier DIR`): a new run's pages checked against the pages earlier
//! runs kept. A page that repeats an earlier page is a replica naming that run, and is neither
//! kept nor indexed; the sharded stages decide it as one process does; a resumed run refills
//! the earlier pages before its own; a folder that cannot serve is refused with its reason.

use std::path::{Path, PathBuf};

use crate::common::{DOCVIEW, check_records, ingest_checked};
use crate::stages::{assert_same, both, edited, jsonl, page, words};
use docview::index::{IndexKind, search};
use docview::pipeline::{IngestOptions, RunState, STATE_FILE, Silent, Status, ingest};
use docview::records::{DOCVIEWS, REPLICAS, RecordLine, ReplicaLine, for_each_line};
use docview::replica::{Detection, ReplicaKind};

fn records(out: &Path) -> Vec<RecordLine> {
    let mut v = Vec::new();
    for_each_line(&out.join(DOCVIEWS), |r: RecordLine| v.push(r)).unwrap();
    v
}

fn replicas(out: &Path) -> Vec<ReplicaLine> {
    let mut v = Vec::new();
    for_each_line(&out.join(REPLICAS), |r: ReplicaLine| v.push(r)).unwrap();
    v
}

/// (URL, replica of, its run, kind) of each replica line.
fn found(out: &Path) -> Vec<(String, String, Option<String>, ReplicaKind)> {
    replicas(out)
        .into_iter()
        .map(|r| (r.url, r.replica_of, r.replica_of_run, r.kind))
        .collect()
}

fn options(inputs: &Path, out: PathBuf, earlier: &[&Path]) -> IngestOptions {
    let mut o = IngestOptions::new(vec![inputs.to_path_buf()], out);
    o.threads = 1;
    o.earlier = earlier.iter().map(|p| p.to_path_buf()).collect();
    o
}

/// Three crawls of the same sites: each is checked against the pages the ones before kept.
struct Crawls {
    dir: tempfile::TempDir,
}

impl Crawls {
    fn new() -> Crawls {
        let dir = tempfile::tempdir().unwrap();
        let (a, other, fresh) = (words(600, 7), words(600, 99), words(600, 123));
        // B is a near-copy of A; C a near-copy of B too far from A (see the stages' chain test).
        let b = edited(&a, &(0..600).step_by(20).collect::<Vec<_>>(), 11);
        let c = edited(&b, &(10..600).step_by(20).collect::<Vec<_>>(), 13);
        // One unit per file, so that 2 and 3 shards spread a crawl.
        let crawl = |name: &str, files: &[&[(&str, String)]]| {
            let folder = dir.path().join(name);
            std::fs::create_dir_all(&folder).unwrap();
            for (i, pages) in files.iter().enumerate() {
                jsonl(&folder.join(format!("{i}.jsonl")), pages);
            }
        };
        crawl(
            "crawl-1",
            &[&[
                ("http://old.example/a", page("Story", &a)),
                ("http://old.example/other", page("Other", &other)),
            ]],
        );
        crawl(
            "crawl-2",
            &[
                &[
                    ("http://new.example/a-again", page("Story", &a)),
                    ("http://new.example/fresh", page("Fresh", &fresh)),
                ],
                &[("http://new.example/b", page("Story revised", &b))],
                &[("http://new.example/c", page("Story retold", &c))],
                &[
                    ("http://mirror.example/c", page("Story retold", &c)),
                    ("http://mirror.example/b", page("Story revised", &b)),
                ],
            ],
        );
        crawl(
            "crawl-3",
            &[&[
                ("http://third.example/c", page("Story retold", &c)),
                ("http://third.example/other", page("Other", &other)),
                ("http://third.example/new", page("New", &words(600, 555))),
            ]],
        );
        Crawls { dir }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    /// The first crawl ingested alone, into `run-1`.
    fn first_run(&self) -> PathBuf {
        let run1 = self.path("run-1");
        ingest_checked(&options(&self.path("crawl-1"), run1.clone(), &[]));
        run1
    }
}

#[test]
fn a_new_crawl_keeps_only_what_the_earlier_runs_did_not_keep() {
    let crawls = Crawls::new();
    let run1 = crawls.first_run();
    assert_eq!(records(&run1).len(), 2);

    let second = options(&crawls.path("crawl-2"), PathBuf::new(), &[&run1]);
    let run2 = crawls.path("run-2");
    for shards in 1..=3 {
        let many = crawls.path(&format!("run-2-shards-{shards}"));
        both(&second, &run2, &many, shards);
        assert_same(&run2, &many);
    }
    let label = Some(run1.display().to_string());
    let s = |x: &str| x.to_string();
    assert_eq!(
        found(&run2),
        [
            // The same page again: an exact copy of what the first run kept.
            (
                s("http://new.example/a-again"),
                s("http://old.example/a"),
                label.clone(),
                ReplicaKind::Exact
            ),
            // Its near-copy repeats the earlier page too.
            (
                s("http://new.example/b"),
                s("http://old.example/a"),
                label.clone(),
                ReplicaKind::Near
            ),
            // Replicas inside the run name no run.
            (
                s("http://mirror.example/c"),
                s("http://new.example/c"),
                None,
                ReplicaKind::Exact
            ),
            // B's copy is no copy of a kept page (B is a replica): it is near the earlier A.
            (
                s("http://mirror.example/b"),
                s("http://old.example/a"),
                label.clone(),
                ReplicaKind::Near
            ),
        ],
        "{:#?}",
        replicas(&run2)
    );
    let kept = records(&run2);
    let urls: Vec<&str> = kept.iter().map(|r| r.docview.identifier.as_str()).collect();
    assert_eq!(urls, ["http://new.example/fresh", "http://new.example/c"]);
    // A kept record lists the replicas of its own run only; the earlier run's page, kept
    // there, is not written again.
    assert_eq!(kept[1].docview.replicas, ["http://mirror.example/c"]);
    assert!(kept[0].docview.replicas.is_empty());
    // The index holds the new pages only.
    let hits = search(&run2, IndexKind::Fulltext, "Story", 10).unwrap();
    let hit_urls: Vec<String> = hits.into_iter().map(|h| h.url).collect();
    assert_eq!(hit_urls, ["http://new.example/c"]);

    // A third crawl against both, oldest first: each repeat names the run that kept it.
    let run3 = crawls.path("run-3");
    let third = options(&crawls.path("crawl-3"), PathBuf::new(), &[&run1, &run2]);
    both(&third, &run3, &crawls.path("run-3-shards-2"), 2);
    assert_same(&run3, &crawls.path("run-3-shards-2"));
    let got: Vec<(String, Option<String>)> = found(&run3)
        .into_iter()
        .map(|(url, _, run, _)| (url, run))
        .collect();
    assert_eq!(
        got,
        [
            (
                s("http://third.example/c"),
                Some(run2.display().to_string())
            ),
            (s("http://third.example/other"), label),
        ]
    );
    let kept: Vec<String> = records(&run3)
        .into_iter()
        .map(|r| r.docview.identifier)
        .collect();
    assert_eq!(kept, ["http://third.example/new"]);
}

#[test]
fn the_command_line_takes_earlier_runs() {
    let crawls = Crawls::new();
    let run1 = crawls.path("run-1");
    let run2 = crawls.path("run-2");
    for (inputs, out, earlier) in [("crawl-1", &run1, None), ("crawl-2", &run2, Some(&run1))] {
        let mut cmd = std::process::Command::new(DOCVIEW);
        cmd.args(["ingest", "--quiet", "--threads", "1"])
            .arg(crawls.path(inputs))
            .arg("--out")
            .arg(out);
        if let Some(dir) = earlier {
            cmd.arg("--earlier").arg(dir);
        }
        let done = cmd.output().unwrap();
        assert!(
            done.status.success(),
            "{}",
            String::from_utf8_lossy(&done.stderr)
        );
        check_records(out);
    }
    let runs: Vec<Option<String>> = replicas(&run2)
        .into_iter()
        .map(|r| r.replica_of_run)
        .collect();
    let label = Some(run1.display().to_string());
    assert_eq!(runs, [label.clone(), label.clone(), None, label]);
}

#[test]
fn a_resumed_incremental_run_refills_the_earlier_pages_first() {
    let crawls = Crawls::new();
    let run1 = crawls.first_run();
    let run2 = crawls.path("run-2");
    let mut second = options(&crawls.path("crawl-2"), run2.clone(), &[&run1]);
    ingest_checked(&second);
    let (docviews, replica_lines) = (
        std::fs::read(run2.join(DOCVIEWS)).unwrap(),
        std::fs::read(run2.join(REPLICAS)).unwrap(),
    );
    // The state of a run stopped after its first four pages (committed: `fresh` kept, `a-again`
    // and `b` earlier replicas, `c` kept), its outputs cut back there.
    let line_end = |bytes: &[u8], lines: usize| -> u64 {
        let mut seen = 0;
        for (i, b) in bytes.iter().enumerate() {
            if *b == b'\n' {
                seen += 1;
                if seen == lines {
                    return i as u64 + 1;
                }
            }
        }
        panic!("fewer than {lines} lines");
    };
    let state_path = run2.join(STATE_FILE);
    let mut state = RunState::load(&state_path).unwrap();
    state.status = Status::Running;
    state.events_done = 4;
    state.next_seq = 4;
    state.docviews_bytes = line_end(&docviews, 2);
    state.replicas_bytes = line_end(&replica_lines, 2);
    state.save(&state_path).unwrap();
    second.resume = true;
    ingest_checked(&second);
    // The resumed run still knows the earlier A (mirror of b repeats it) and its own C.
    assert_eq!(std::fs::read(run2.join(DOCVIEWS)).unwrap(), docviews);
    assert_eq!(std::fs::read(run2.join(REPLICAS)).unwrap(), replica_lines);
}

#[test]
fn a_folder_that_cannot_serve_as_an_earlier_run_is_refused_with_its_reason() {
    let crawls = Crawls::new();
    let inputs = crawls.path("crawl-1");
    let run1 = crawls.first_run();
    let refused = |o: IngestOptions, says: &str| {
        let out = o.out.clone();
        let err = ingest(&o, &Silent).unwrap_err().to_string();
        assert!(err.contains(says), "{err}");
        assert!(
            !out.join(STATE_FILE).exists(),
            "{} was written",
            out.display()
        );
        let plan = docview::pipeline::stages::Plan::new(o, 2)
            .unwrap_err()
            .to_string();
        assert!(plan.contains(says), "{plan}");
    };
    // Other fingerprints.
    let mut exact = options(&inputs, crawls.path("x1"), &[&run1]);
    exact.detection = Detection::Exact;
    refused(exact, "detection: was \"minhash\", now \"exact\"");
    // No docview output.
    refused(
        options(&inputs, crawls.path("x2"), &[&inputs]),
        "no state.json",
    );
    // Named twice.
    refused(
        options(&inputs, crawls.path("x3"), &[&run1, &run1]),
        "named twice",
    );
    // A run that did not finish.
    let state_path = run1.join(STATE_FILE);
    let mut state = RunState::load(&state_path).unwrap();
    state.status = Status::Running;
    state.save(&state_path).unwrap();
    refused(
        options(&inputs, crawls.path("x4"), &[&run1]),
        "did not finish",
    );
}
