//! Crash safety of `docview ingest`: a child process is killed with SIGKILL in the middle of a
//! run; the output directory then holds its last commit and says so, and `--resume` finishes
//! the run with exactly the records, replicas and index documents of a run never interrupted.

use crate::common::{DOCVIEW, SAMPLES};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use docview::index::index_stats;
use docview::pipeline::spill::SPILL_FILE;
use docview::pipeline::{RunState, STATE_FILE, Status};

/// A JSONL collection big enough to take seconds: every sample page `copies` times under its
/// own URL, each copy with a paragraph of its own (so most are kept, some are replicas).
fn write_collection(path: &Path, copies: usize) {
    let mut pages = Vec::new();
    for site in std::fs::read_dir(Path::new(SAMPLES).join("sites")).unwrap() {
        for page in std::fs::read_dir(site.unwrap().path()).unwrap() {
            let page = page.unwrap().path();
            if page.extension().is_some_and(|e| e == "html") {
                pages.push(page);
            }
        }
    }
    pages.sort();
    let mut out = std::io::BufWriter::new(std::fs::File::create(path).unwrap());
    for copy in 0..copies {
        for page in &pages {
            let bytes = std::fs::read(page).unwrap();
            let html = String::from_utf8_lossy(&bytes);
            let marker = format!(
                "<p>Copy {copy} of this page carries note {copy} about the harbour, the weather \
                 of week {copy} and the readers' letters number {copy}.</p></body>"
            );
            let html = if copy % 3 == 0 {
                html.into_owned()
            } else {
                html.replacen("</body>", &marker, 1)
            };
            let name = page.file_name().unwrap().to_string_lossy();
            let line = serde_json::json!({
                "url": format!("http://mirror{copy}.example/{name}"),
                "html": html,
            });
            writeln!(out, "{line}").unwrap();
        }
    }
}

fn ingest_cmd(input: &Path, out: &Path, resume: bool) -> Command {
    let mut cmd = Command::new(DOCVIEW);
    cmd.args([
        "ingest",
        "--quiet",
        "--threads",
        "1",
        "--commit-every",
        "50",
    ])
    .arg(input)
    .arg("--out")
    .arg(out);
    if resume {
        cmd.arg("--resume");
    }
    cmd.stdout(Stdio::null()).stderr(Stdio::piped());
    cmd
}

fn read(path: PathBuf) -> Vec<u8> {
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn killed_ingest_resumes_without_losing_or_duplicating_pages() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("collection.jsonl");
    write_collection(&input, 60);

    // The reference: one uninterrupted run.
    let reference = dir.path().join("reference");
    let status = ingest_cmd(&input, &reference, false).status().unwrap();
    assert!(status.success());
    // The copies with a paragraph of their own are near-replicas: the resumed run must refill
    // the LSH index from the records to find the same ones.
    let reference_replicas = String::from_utf8(read(reference.join("replicas.jsonl"))).unwrap();
    assert!(reference_replicas.contains("\"minhash_lsh\""));

    // The same run, killed once it has committed a few batches.
    let out = dir.path().join("killed");
    let mut child = ingest_cmd(&input, &out, false).spawn().unwrap();
    let deadline = Instant::now() + Duration::from_secs(300);
    let killed_at = loop {
        if let Ok(state) = RunState::load(&out.join(STATE_FILE))
            && state.commits >= 3
        {
            child.kill().unwrap(); // SIGKILL on Unix
            break state;
        }
        if let Some(status) = child.try_wait().unwrap() {
            panic!("the ingest ended ({status}) before it could be killed: make the input bigger");
        }
        assert!(Instant::now() < deadline, "no commit within 300 s");
        std::thread::sleep(Duration::from_millis(20));
    };
    child.wait().unwrap();

    // The directory holds the last commit and says so.
    let state = RunState::load(&out.join(STATE_FILE)).unwrap();
    assert_eq!(state.status, Status::Running);
    assert!(state.note.contains("--resume"), "{}", state.note);
    assert!(state.commits >= killed_at.commits);
    let reference_state = RunState::load(&reference.join(STATE_FILE)).unwrap();
    assert!(
        state.counters.pages_read < reference_state.counters.pages_read,
        "killed mid-run"
    );
    // The first pass's cleaned pages wait for the second on disk: the resumed run reads them
    // back instead of cleaning the pages again.
    assert!(
        out.join(SPILL_FILE).exists(),
        "the spill is kept until the run completes"
    );
    assert!(!reference.join(SPILL_FILE).exists(), "and removed then");

    // Resume, and compare with the uninterrupted run.
    let resumed = ingest_cmd(&input, &out, true).output().unwrap();
    assert!(
        resumed.status.success(),
        "{}",
        String::from_utf8_lossy(&resumed.stderr)
    );
    for file in ["docviews.jsonl", "replicas.jsonl", "stats.json"] {
        assert!(
            read(out.join(file)) == read(reference.join(file)),
            "{file} differs from the uninterrupted run's"
        );
    }
    let state = RunState::load(&out.join(STATE_FILE)).unwrap();
    assert_eq!(state.status, Status::Complete);
    assert!(!out.join(SPILL_FILE).exists());
    assert_eq!(state.counters, reference_state.counters);
    let docs = |d: &Path| {
        index_stats(d)
            .unwrap()
            .iter()
            .map(|s| (s.kind, s.docs, s.terms))
            .collect::<Vec<_>>()
    };
    assert_eq!(docs(&out), docs(&reference));
    assert_eq!(docs(&out)[0].1, state.counters.kept);

    // Resuming a complete run changes nothing; resuming with other inputs is refused.
    let again = ingest_cmd(&input, &out, true).output().unwrap();
    assert!(again.status.success());
    assert!(read(out.join("docviews.jsonl")) == read(reference.join("docviews.jsonl")));
    let other = ingest_cmd(&dir.path().join("other.jsonl"), &out, true)
        .output()
        .unwrap();
    assert!(!other.status.success());
}
