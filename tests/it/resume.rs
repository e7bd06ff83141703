//! Crash safety of `docview ingest`: a child process is killed with SIGKILL in the middle of a
//! run; the output directory then holds its last commit and says so, and `--resume` finishes
//! the run with exactly the records, replicas and index documents of a run never interrupted,
//! without the files the killed run left half-written. And one run at a time: a second run
//! started on the folder of a live one is refused before it touches anything.

use crate::common::{DOCVIEW, SAMPLES, check_records};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use docview::index::index_stats;
use docview::lock::LOCK_FILE;
use docview::pipeline::SPILL_FILE;
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

/// A collection of `pages` pages written to `dir/collection.jsonl` and ingested once, without
/// interruption, into `dir/reference`, its records checked: (the collection, the reference).
fn collection_and_reference(dir: &Path, pages: usize) -> (PathBuf, PathBuf) {
    let input = dir.join("collection.jsonl");
    write_collection(&input, pages);
    let reference = dir.join("reference");
    let status = ingest_cmd(&input, &reference, false).status().unwrap();
    assert!(status.success());
    check_records(&reference);
    (input, reference)
}

/// Asserts that the record, replica, skip and statistics files of `out` are byte for byte
/// those of `reference`; `what` says which run `reference` is, for the message.
fn assert_same_output(out: &Path, reference: &Path, what: &str) {
    for file in [
        "docviews.jsonl",
        "replicas.jsonl",
        "skipped.jsonl",
        "stats.json",
    ] {
        assert!(
            read(out.join(file)) == read(reference.join(file)),
            "{file} differs from {what}"
        );
    }
}

#[test]
fn killed_ingest_resumes_without_losing_or_duplicating_pages() {
    let dir = tempfile::tempdir().unwrap();
    // The reference: one uninterrupted run.
    let (input, reference) = collection_and_reference(dir.path(), 60);
    // The copies with a paragraph of their own are near-replicas: the resumed run must refill
    // the LSH index from the records to find the same ones.
    let reference_replicas = String::from_utf8(read(reference.join("replicas.jsonl"))).unwrap();
    assert!(reference_replicas.contains("\"minhash_lsh\""));

    // The same run, killed once it has committed a few batches.
    let out = dir.path().join("killed");
    let mut child = ingest_cmd(&input, &out, false).spawn().unwrap();
    let killed_at = wait_for_commits(&mut child, &out, 3);
    child.kill().unwrap(); // SIGKILL on Unix
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

    // What a kill in the middle of a write leaves: Tantivy's and docview's temporary files
    // (the kill above may or may not have hit one; these stand for what it can leave). The
    // killed run's lock file stays, and must not block the resume.
    let leftovers = [
        out.join("index/fulltext/.tmpKILLED"),
        out.join("index/abstract/.tmpKILLED"),
        out.join(".docview-KILLED.tmp"),
    ];
    for path in &leftovers {
        std::fs::write(path, b"half written").unwrap();
    }
    assert!(out.join(LOCK_FILE).exists());

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
    check_records(&out);
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
    for path in &leftovers {
        assert!(!path.exists(), "{} left after the resume", path.display());
    }
    let index_dir = out.join("index");
    let mut stack = vec![index_dir];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            assert!(!name.starts_with(".tmp"), "{} left", p.display());
            if p.is_dir() {
                stack.push(p);
            }
        }
    }

    // Resuming a complete run changes nothing and says so (issue 41: it printed a "(resumed)"
    // summary); resuming with other inputs is refused.
    let summary = read(out.join("summary.json"));
    let again = ingest_cmd(&input, &out, true)
        .stdout(Stdio::piped())
        .output()
        .unwrap();
    assert!(again.status.success());
    let said = String::from_utf8_lossy(&again.stdout);
    assert!(said.contains("is complete; nothing to resume"), "{said}");
    assert!(!said.contains("(resumed)"), "{said}");
    assert!(
        read(out.join("summary.json")) == summary,
        "the summary is the run's own"
    );
    assert!(read(out.join("docviews.jsonl")) == read(reference.join("docviews.jsonl")));
    let other = ingest_cmd(&dir.path().join("other.jsonl"), &out, true)
        .output()
        .unwrap();
    assert!(!other.status.success());
}

/// Waits until the run of `child` on `out` has made `commits` commits, and gives its state
/// then; panics if it ends first.
fn wait_for_commits(child: &mut std::process::Child, out: &Path, commits: u64) -> RunState {
    wait_for(child, out, |state| state.commits >= commits)
}

/// Waits until the run state of `child` on `out` is one `reached` accepts, and gives it; panics
/// if the run ends first.
fn wait_for(
    child: &mut std::process::Child,
    out: &Path,
    reached: impl Fn(&RunState) -> bool,
) -> RunState {
    let deadline = Instant::now() + Duration::from_secs(300);
    loop {
        if let Ok(state) = RunState::load(&out.join(STATE_FILE))
            && reached(&state)
        {
            return state;
        }
        if let Some(status) = child.try_wait().unwrap() {
            panic!("the ingest ended ({status}) before it got there: make the input bigger");
        }
        assert!(Instant::now() < deadline, "not there within 300 s");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Issue 41, item 7: Ctrl-C (SIGINT) in either pass stops the run cleanly, with exit status 130
/// and a message that says how to continue; `--resume` then continues from where it stopped,
/// the first pass included, and gives the records of a run never interrupted.
#[test]
fn ctrl_c_stops_either_pass_cleanly_and_the_run_resumes_where_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let (input, reference) = collection_and_reference(dir.path(), 60);

    type Reached = fn(&RunState) -> bool;
    let passes: [(&str, Reached, &str); 2] = [
        (
            "first",
            |s| s.first_pass.is_some(),
            "interrupted in the first pass",
        ),
        (
            "second",
            |s| s.commits >= 2,
            "interrupted in the second pass",
        ),
    ];
    for (pass, reached, said) in passes {
        let out = dir.path().join(pass);
        let mut child = ingest_cmd(&input, &out, false).spawn().unwrap();
        wait_for(&mut child, &out, reached);
        crate::common::ctrl_c(&child);
        let stopped = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&stopped.stderr);
        assert_eq!(stopped.status.code(), Some(130), "{pass}: {err}");
        assert!(
            err.contains(said) && err.contains("--resume"),
            "{pass}: {err}"
        );
        let state = RunState::load(&out.join(STATE_FILE)).unwrap();
        assert_eq!(state.status, Status::Running, "{pass}");
        assert!(state.note.contains("--resume"), "{}", state.note);
        if pass == "first" {
            // What the first pass cleaned is kept for the resumed run.
            let checkpoint = state.first_pass.expect("a checkpoint of the first pass");
            assert!(checkpoint.events > 0);
            assert_eq!(state.commits, 0);
            assert_eq!(
                std::fs::metadata(out.join(SPILL_FILE)).unwrap().len(),
                checkpoint.spill_bytes
            );
            assert!(!out.join("stats.json").exists());
        } else {
            assert!(
                state.first_pass.is_none() && state.commits >= 3,
                "{state:?}"
            );
        }

        let resumed = ingest_cmd(&input, &out, true).output().unwrap();
        assert!(
            resumed.status.success(),
            "{}",
            String::from_utf8_lossy(&resumed.stderr)
        );
        assert_same_output(
            &out,
            &reference,
            &format!("the uninterrupted run's (interrupted in the {pass})"),
        );
        let state = RunState::load(&out.join(STATE_FILE)).unwrap();
        assert_eq!(state.status, Status::Complete);
        assert!(state.first_pass.is_none());
        check_records(&out);
    }
}

#[test]
fn a_second_run_on_a_live_runs_folder_is_refused_and_harms_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let (input, reference) = collection_and_reference(dir.path(), 90);

    let out = dir.path().join("live");
    let mut live = ingest_cmd(&input, &out, false).spawn().unwrap();
    wait_for_commits(&mut live, &out, 1);
    // A second process on the same folder, with each way into an existing one.
    for flag in ["--overwrite", "--resume"] {
        let second = ingest_cmd(&input, &out, false).arg(flag).output().unwrap();
        let said = String::from_utf8_lossy(&second.stderr);
        assert_eq!(second.status.code(), Some(1), "{flag}: {said}");
        assert!(said.contains(&out.display().to_string()), "{flag}: {said}");
        assert!(said.contains("another docview run"), "{flag}: {said}");
    }
    assert!(
        live.try_wait().unwrap().is_none(),
        "the live run ended before the second ones were tried: make the input bigger"
    );

    // The live run ends as if it had been alone.
    let status = live.wait().unwrap();
    assert!(status.success());
    assert_same_output(&out, &reference, "a run that was alone");
    check_records(&out);
    let state = RunState::load(&out.join(STATE_FILE)).unwrap();
    assert_eq!(state.status, Status::Complete);
    // Once it has ended, its folder is free again: --overwrite goes through.
    let again = ingest_cmd(&input, &out, false)
        .arg("--overwrite")
        .output()
        .unwrap();
    assert!(
        again.status.success(),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
    assert!(read(out.join("docviews.jsonl")) == read(reference.join("docviews.jsonl")));
}

/// A tmpfs of its own for a test, unmounted when dropped.
struct Tmpfs(PathBuf);

impl Tmpfs {
    /// A tmpfs of `size` (`mount`'s form, `4m`) at `at`, or `None` where this process may not
    /// mount one (not root, or no such capability).
    fn mount(at: &Path, size: &str) -> Option<Tmpfs> {
        std::fs::create_dir_all(at).unwrap();
        let mounted = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(at)
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        mounted.then(|| Tmpfs(at.to_path_buf()))
    }

    fn resize(&self, size: &str) {
        let status = Command::new("mount")
            .args(["-o", &format!("remount,size={size}")])
            .arg(&self.0)
            .status()
            .unwrap();
        assert!(status.success());
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(&self.0).status();
    }
}

/// Issue 41, item 12: after a full disk the first pass's spill stayed and kept the disk full.
/// The error names the full disk, the spill is removed to give the room back, and once there
/// is room `--resume` ends as a run never stopped. Needs a small filesystem of its own: a
/// tmpfs, which only root may mount (skipped otherwise).
#[test]
fn a_full_disk_is_told_gives_the_spill_s_room_back_and_the_run_resumes() {
    let dir = tempfile::tempdir().unwrap();
    let Some(small) = Tmpfs::mount(&dir.path().join("small"), "2m") else {
        eprintln!("skipped: cannot mount a tmpfs here (root only) to fill a disk");
        return;
    };
    let (input, reference) = collection_and_reference(dir.path(), 60);

    let out = small.0.join("out");
    let full = ingest_cmd(&input, &out, false).output().unwrap();
    let err = String::from_utf8_lossy(&full.stderr);
    assert_eq!(full.status.code(), Some(1), "{err}");
    assert!(err.contains("No space left on device"), "{err}");
    assert!(err.contains("spill") && err.contains("--resume"), "{err}");
    assert!(
        !out.join(SPILL_FILE).exists(),
        "the spill's room given back"
    );

    small.resize("256m");
    check_records(&reference);
    let resumed = ingest_cmd(&input, &out, true).output().unwrap();
    assert!(
        resumed.status.success(),
        "{}",
        String::from_utf8_lossy(&resumed.stderr)
    );
    assert_same_output(&out, &reference, "the uninterrupted run's");
    check_records(&out);
}
