//! The sharded stages (`docview stages`) against one process: the same `docviews.jsonl`,
//! `replicas.jsonl`, `skipped.jsonl` and `stats.json` byte for byte, and merged indexes with
//! the same documents, token totals and top-10 hits (URLs and scores) on 100 seeded queries, at
//! 1, 2 and 3 shards: on the samples, on a hand-made chain of near-copies spread over three
//! shards, and on two shards of `../shared/corpus/wcxb-dev` (skipped when absent).

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::{
    CORPUS, DOCVIEW, SAMPLES, check_records, docview, docview_succeeds, ingest_checked,
};
use docview::index::{IndexKind, index_stats, search};
use docview::lock::{FolderLock, LockMode};
use docview::pipeline::stages::{
    PLAN_FILE, Plan, Stage, TaskOutcome, run_stages, run_task, task_lock,
};
use docview::pipeline::{IngestOptions, RunState, STATE_FILE, STATS_FILE, Status};
use docview::records::rows::read_rows;
use docview::records::table;
use docview::records::{
    DOCVIEWS, DOCVIEWS_PARQUET, DocViewRow, REPLICAS, RecordLine, ReplicaLine, SKIPPED,
    for_each_line, read_docviews_parquet,
};
use docview::replica::ReplicaKind;

/// Runs every stage of `work` in this process, two tasks at once.
fn run_all(work: &Path) {
    let run = |stage: Stage, task: usize| run_task(work, stage, task);
    run_stages(work, 2, &run, &|_, _, _, _| {}).expect("stages");
    check_records(&Plan::load(work).expect("the plan").options.out);
}

/// Ingests `options` in one process into `one`, and in `shards` shards into `many`.
pub(crate) fn both(options: &IngestOptions, one: &Path, many: &Path, shards: usize) {
    let mut single = options.clone();
    single.out = one.to_path_buf();
    if !one.join(DOCVIEWS).exists() {
        ingest_checked(&single);
    }
    let mut sharded = options.clone();
    sharded.out = many.to_path_buf();
    let work = many.with_extension("work");
    let plan = Plan::new(sharded, shards).expect("plan");
    plan.save(&work, false).expect("save plan");
    run_all(&work);
}

/// `n` queries from the kept records' keywords and titles, the same for the same records.
fn seeded_queries(out: &Path, n: usize) -> Vec<String> {
    let mut words: Vec<String> = Vec::new();
    for_each_line(&out.join(DOCVIEWS), |r: RecordLine| {
        words.extend(r.docview.keywords.iter().cloned());
        words.extend(r.docview.title.split_whitespace().map(str::to_string));
    })
    .unwrap();
    assert!(!words.is_empty(), "no words to query in {}", out.display());
    let mut state = 0x2545_f491_4f6c_dd1du64;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state as usize
    };
    (0..n)
        .map(|i| {
            let a = &words[next() % words.len()];
            if i % 2 == 0 {
                a.clone()
            } else {
                format!("{a} {}", words[next() % words.len()])
            }
        })
        .collect()
}

/// Asserts that the sharded output `many` is the single-process output `one`.
pub(crate) fn assert_same(one: &Path, many: &Path) {
    check_records(one);
    check_records(many);
    for file in [DOCVIEWS, REPLICAS, SKIPPED, STATS_FILE, DOCVIEWS_PARQUET] {
        if file == DOCVIEWS_PARQUET && !one.join(file).exists() {
            continue;
        }
        let (a, b) = (
            std::fs::read(one.join(file)).unwrap(),
            std::fs::read(many.join(file)).unwrap(),
        );
        assert!(
            a == b,
            "{file} differs between {} and {}",
            one.display(),
            many.display()
        );
    }
    let (a, b) = (index_stats(one).unwrap(), index_stats(many).unwrap());
    for (x, y) in a.iter().zip(&b) {
        assert_eq!((x.kind, x.docs, x.terms), (y.kind, y.docs, y.terms));
    }
    let queries = seeded_queries(one, 100);
    for kind in IndexKind::ALL {
        for q in &queries {
            // A keyword with no word in it (a dash, a comma) is refused by both alike.
            let hits = |dir: &Path| -> Result<Vec<(String, f32)>, String> {
                match search(dir, kind, q, 10) {
                    Ok(hits) => Ok(hits.into_iter().map(|h| (h.url, h.score)).collect()),
                    Err(docview::Error::Query(e)) => Err(e.to_string()),
                    Err(e) => panic!("{kind:?} index, query {q:?}: {e}"),
                }
            };
            assert_eq!(hits(one), hits(many), "{kind:?} index, query {q:?}");
        }
    }
}

/// The samples, and `../shared/warc` (records skipped and malformed) when it is there.
fn samples() -> Vec<PathBuf> {
    let mut inputs = vec![
        Path::new(SAMPLES).join("sites"),
        Path::new(SAMPLES).join("warc/corpus-samples.warc.gz"),
    ];
    let shared = Path::new(CORPUS).join("../warc");
    if shared.is_dir() {
        inputs.push(shared);
    } else {
        eprintln!("{} is absent: the samples alone", shared.display());
    }
    inputs
}

#[test]
fn stages_give_one_process_output_on_the_samples_at_1_2_and_3_shards() {
    let dir = tempfile::tempdir().unwrap();
    // JSON Lines with keys of their own: the lines' other fields reach the records.
    let lines = dir.path().join("own-keys.jsonl");
    let own = [("https://own.example/a", 1), ("https://own.example/b", 2)]
        .map(|(url, id)| {
            let html = page(&format!("Own {id}"), &words(120, 30 + id as u64));
            // In this order (json! would sort the keys).
            let html = serde_json::to_string(&html).unwrap();
            format!(r#"{{"id": {id}, "body": {html}, "at": "{url}", "batch": "b7"}}"#)
        })
        .join("\n");
    std::fs::write(&lines, own).unwrap();
    let mut inputs = samples();
    inputs.push(lines);
    let mut options = IngestOptions::new(inputs, PathBuf::new());
    options.jsonl_keys = docview::input::JsonlKeys {
        url: "at".into(),
        html: "body".into(),
        text: None,
    };
    options.threads = 1;
    options.parquet = true;
    let one = dir.path().join("one");
    for shards in 1..=3 {
        let many = dir.path().join(format!("shards-{shards}"));
        both(&options, &one, &many, shards);
        assert_same(&one, &many);
    }
    // The records as Parquet: one row per record, the same values, and the record lines back.
    let parquet = one.join(DOCVIEWS_PARQUET);
    let rows: Vec<DocViewRow> = read_rows(&parquet).unwrap().map(Result::unwrap).collect();
    let lines: Vec<String> = std::fs::read_to_string(one.join(DOCVIEWS))
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    assert_eq!(rows.len(), lines.len());
    let mut records = Vec::new();
    for_each_line(&one.join(DOCVIEWS), |r: RecordLine| records.push(r)).unwrap();
    assert!(records.iter().any(|r| !r.docview.replicas.is_empty()));
    // Each page keeps its input's identity: a WARC record's id and date, a JSON line's fields.
    // (The samples' WARC repeats their folder: most of its pages are replicas.)
    let mut replicas = Vec::new();
    for_each_line(&one.join(REPLICAS), |r: ReplicaLine| {
        replicas.push((r.origin, r.ids))
    })
    .unwrap();
    let ids = records.iter().map(|r| (r.origin.clone(), r.ids.clone()));
    let warc: Vec<_> = ids
        .chain(replicas)
        .filter(|(origin, _)| origin.contains(".warc.gz@"))
        .collect();
    assert!(warc.len() >= 35, "{}", warc.len());
    for (origin, ids) in warc {
        let id = ids.warc_record_id.as_deref().unwrap_or_default();
        assert!(id.starts_with("<urn:uuid:"), "{origin}: {id}");
        assert!(ids.warc_date.is_some(), "{origin}");
    }
    let own: Vec<_> = records
        .iter()
        .filter(|r| r.docview.identifier.starts_with("https://own.example/"))
        .collect();
    assert_eq!(own.len(), 2);
    for (r, id) in own.iter().zip([1, 2]) {
        let fields = r.ids.input_fields.as_deref().unwrap();
        assert_eq!(
            fields,
            [
                ("id".to_string(), serde_json::json!(id)),
                ("batch".to_string(), serde_json::json!("b7"))
            ]
        );
    }
    let row = rows
        .iter()
        .find(|r| r.identifier == own[0].docview.identifier);
    let row = row.unwrap();
    assert_eq!(
        row.input_fields.as_deref(),
        Some(r#"{"id":1,"batch":"b7"}"#)
    );
    assert_eq!(row.warc_record_id, None);
    for ((row, r), line) in rows.iter().zip(&records).zip(&lines) {
        assert_eq!(row, &DocViewRow::of(r, line.clone()));
        assert_eq!(row.seq, r.seq);
        assert_eq!(row.identifier, r.docview.identifier);
        let replicas: Vec<String> = serde_json::from_str(&row.replicas).unwrap();
        assert_eq!(replicas, r.docview.replicas);
        let kind = serde_json::to_value(r.docview.page_type).unwrap();
        assert_eq!(Some(row.page_type.as_str()), kind.as_str());
    }
    let back: Vec<String> = read_docviews_parquet(&parquet)
        .unwrap()
        .map(Result::unwrap)
        .collect();
    assert_eq!(back, lines);
    // The column names as Spark and DuckDB see them.
    let first = &table::read_table(&parquet).unwrap()[0];
    assert_eq!(first.int("seq"), Some(records[0].seq as i64));
    assert_eq!(
        first.text("abstract"),
        Some(records[0].docview.abstract_text.clone())
    );
    // A site-aware cleaner learns its site models over the shards as one process does.
    let mut wisdom = options.clone();
    wisdom.cleaner = docview::clean::CleanerKind::Wisdom;
    let (one, many) = (dir.path().join("wisdom-one"), dir.path().join("wisdom-3"));
    both(&wisdom, &one, &many, 3);
    assert_same(&one, &many);
}

/// A text of `n` words drawn from a fixed list by a fixed sequence.
pub(crate) fn words(n: usize, seed: u64) -> Vec<String> {
    const VOCAB: &[&str] = &[
        "river", "harbor", "lantern", "meadow", "copper", "signal", "winter", "garden", "bridge",
        "market", "thunder", "orchard", "canvas", "pepper", "marble", "falcon", "ribbon", "cobalt",
        "saddle", "glacier", "timber", "velvet", "almond", "beacon", "cedar", "dune", "ember",
        "fjord", "granite", "hollow", "ivory", "juniper", "kettle", "lagoon", "mosaic", "nectar",
        "opal", "prairie", "quarry", "rustic", "summit", "tundra", "umber", "valley", "willow",
        "yonder", "zephyr", "anchor", "basalt", "cinder",
    ];
    let mut state = seed;
    (0..n)
        .map(|_| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            VOCAB[(state >> 33) as usize % VOCAB.len()].to_string()
        })
        .collect()
}

/// `text` with the words at `at` replaced.
pub(crate) fn edited(text: &[String], at: &[usize], seed: u64) -> Vec<String> {
    let mut out = text.to_vec();
    let fresh = words(at.len(), seed);
    for (i, &k) in at.iter().enumerate() {
        out[k] = format!("{}x{i}", fresh[i]);
    }
    out
}

pub(crate) fn page(title: &str, text: &[String]) -> String {
    let paragraphs: Vec<String> = text
        .chunks(60)
        .map(|c| format!("<p>{}.</p>", c.join(" ")))
        .collect();
    format!(
        "<html><head><title>{title}</title></head><body><nav><a href=\"/\">Home</a> \
         <a href=\"/news\">News</a></nav><article><h1>{title}</h1>{}</article>\
         <footer>Chain Gazette</footer></body></html>",
        paragraphs.concat()
    )
}

pub(crate) fn jsonl(path: &Path, pages: &[(&str, String)]) {
    let lines: Vec<String> = pages
        .iter()
        .map(|(url, html)| serde_json::json!({"url": url, "html": html}).to_string() + "\n")
        .collect();
    std::fs::write(path, lines.concat()).unwrap();
}

#[test]
fn a_chain_of_near_copies_over_three_shards_is_decided_as_one_process_decides_it() {
    let dir = tempfile::tempdir().unwrap();
    let inputs = dir.path().join("inputs");
    std::fs::create_dir_all(&inputs).unwrap();
    // A, its near-copy B (a few words changed), and C, a near-copy of B that is too far from
    // A: B repeats A, so C must be kept (B is no kept page). A shard that decided alone, or a
    // join that looked at pairs and not at kept pages, would remove C too.
    let a = words(600, 7);
    // 30 words each, 10 apart: about 0.6 from A to B and from B to C, 0.33 from A to C
    // (estimated Jaccard of 5-word shingles; the threshold is 0.5).
    let b = edited(&a, &(0..600).step_by(20).collect::<Vec<_>>(), 11);
    let c = edited(&b, &(10..600).step_by(20).collect::<Vec<_>>(), 13);
    let other = words(600, 99);
    // One unit per file: files 0 and 3 go to shard 0, 1 to shard 1, 2 to shard 2. Each story
    // has a title of its own: a headline three of chain.example's pages shared would be a line
    // of its template, left out of their replica text but not of the mirror's, whose copy of C
    // would then be near rather than exact.

    jsonl(
        &inputs.join("0.jsonl"),
        &[
            ("http://chain.example/a", page("Story a", &a)),
            ("http://chain.example/other", page("Other", &other)),
        ],
    );
    jsonl(
        &inputs.join("1.jsonl"),
        &[("http://chain.example/b", page("Story b", &b))],
    );
    jsonl(
        &inputs.join("2.jsonl"),
        &[
            ("http://chain.example/c", page("Story c", &c)),
            ("http://chain.example/empty", String::new()),
        ],
    );
    jsonl(
        &inputs.join("3.jsonl"),
        &[("http://mirror.example/c", page("Story c", &c))],
    );
    let mut options = IngestOptions::new(vec![inputs.clone()], PathBuf::new());
    options.threads = 1;
    let one = dir.path().join("one");
    for shards in 1..=3 {
        let many = dir.path().join(format!("shards-{shards}"));
        both(&options, &one, &many, shards);
        assert_same(&one, &many);
    }
    // The fixture does hold the chain.
    let mut replicas = Vec::new();
    for_each_line(&one.join(REPLICAS), |r: ReplicaLine| replicas.push(r)).unwrap();
    let found: Vec<(&str, &str, ReplicaKind)> = replicas
        .iter()
        .map(|r| (r.url.as_str(), r.replica_of.as_str(), r.kind))
        .collect();
    assert_eq!(
        found,
        [
            (
                "http://chain.example/b",
                "http://chain.example/a",
                ReplicaKind::Near
            ),
            (
                "http://mirror.example/c",
                "http://chain.example/c",
                ReplicaKind::Exact
            ),
        ],
        "{replicas:#?}"
    );
    let skipped = std::fs::read_to_string(one.join(SKIPPED)).unwrap();
    assert_eq!(skipped.lines().count(), 1, "{skipped}");
    // A merge that stopped half-way (its marker missing, its state `running`, a file cut
    // short) is run again from the start.
    let many = dir.path().join("shards-3");
    let work = many.with_extension("work");
    std::fs::remove_file(work.join("done/merge-0")).unwrap();
    let state_path = many.join(STATE_FILE);
    let mut state = RunState::load(&state_path).unwrap();
    state.status = Status::Running;
    state.save(&state_path).unwrap();
    std::fs::write(many.join(DOCVIEWS), "{\"cut\": ").unwrap();
    assert_eq!(run_task(&work, Stage::Merge, 0).unwrap(), TaskOutcome::Ran);
    assert_same(&one, &many);
}

#[test]
fn a_task_runs_once_and_not_before_the_stages_it_reads() {
    let dir = tempfile::tempdir().unwrap();
    let mut options = IngestOptions::new(samples(), dir.path().join("out"));
    options.threads = 1;
    let work = dir.path().join("work");
    Plan::new(options.clone(), 2)
        .unwrap()
        .save(&work, false)
        .unwrap();
    let early = run_task(&work, Stage::Pages, 0).unwrap_err().to_string();
    assert!(
        early.contains("stage pages cannot run before task 0 of stage earlier"),
        "{early}"
    );
    assert_eq!(
        run_task(&work, Stage::Earlier, 0).unwrap(),
        TaskOutcome::Ran
    );
    assert_eq!(run_task(&work, Stage::Sites, 1).unwrap(), TaskOutcome::Ran);
    assert_eq!(
        run_task(&work, Stage::Sites, 1).unwrap(),
        TaskOutcome::AlreadyDone
    );
    let err = run_task(&work, Stage::Sites, 2).unwrap_err().to_string();
    assert!(err.contains("2 tasks"), "{err}");
    // The same plan again keeps the finished task; another plan in the folder is refused.
    Plan::new(options.clone(), 2)
        .unwrap()
        .save(&work, false)
        .unwrap();
    assert_eq!(
        run_task(&work, Stage::Sites, 1).unwrap(),
        TaskOutcome::AlreadyDone
    );
    let other = Plan::new(options.clone(), 3).unwrap().save(&work, false);
    assert!(
        other
            .unwrap_err()
            .to_string()
            .contains("another sharded run")
    );
    // Standard input cannot be sharded.
    let mut stdin = options.clone();
    stdin.inputs = vec![PathBuf::from("-")];
    assert!(
        Plan::new(stdin, 2)
            .unwrap_err()
            .to_string()
            .contains("standard input")
    );
}

#[test]
fn a_plan_waits_for_running_tasks_and_the_merge_for_a_live_run_on_its_output() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let mut options = IngestOptions::new(samples(), out.clone());
    options.threads = 1;
    let work = dir.path().join("work");
    Plan::new(options.clone(), 1)
        .unwrap()
        .save(&work, false)
        .unwrap();
    // A task of the run holds the work folder's shared lock: a new plan is refused meanwhile.
    let task = FolderLock::take(&work, LockMode::Shared).unwrap();
    let mut replan = options.clone();
    replan.overwrite = true;
    let refused = Plan::new(replan.clone(), 2)
        .unwrap()
        .save(&work, true)
        .unwrap_err()
        .to_string();
    assert!(refused.contains("another docview run"), "{refused}");
    assert!(work.join(PLAN_FILE).exists(), "the plan is untouched");
    drop(task);

    // Another run holds the output folder: every stage runs, and the merge is refused
    // without touching what that run writes.
    let live = FolderLock::exclusive_for_run(&out, &docview::pipeline::OUTPUT_LAYOUT).unwrap();
    std::fs::write(out.join(STATE_FILE), b"the live run's state").unwrap();
    let run = |stage: Stage, task: usize| run_task(&work, stage, task);
    let refused = run_stages(&work, 1, &run, &|_, _, _, _| {})
        .unwrap_err()
        .to_string();
    assert!(refused.contains("another docview run"), "{refused}");
    assert!(refused.contains(&out.display().to_string()), "{refused}");
    assert_eq!(
        std::fs::read(out.join(STATE_FILE)).unwrap(),
        b"the live run's state"
    );
    assert!(!out.join(DOCVIEWS).exists());
    // Once it has ended, the merge goes on (a rerun does only what was not done).
    drop(live);
    std::fs::remove_file(out.join(STATE_FILE)).unwrap();
    run_stages(&work, 1, &run, &|_, _, _, _| {}).unwrap();
    check_records(&out);
}

/// A plan of the samples over `shards` shards in `dir/work`, one thread a task; its work folder.
fn planned_samples(dir: &Path, shards: usize) -> PathBuf {
    let mut options = IngestOptions::new(samples(), dir.join("out"));
    options.threads = 1;
    let work = dir.join("work");
    Plan::new(options, shards)
        .unwrap()
        .save(&work, false)
        .unwrap();
    work
}

/// `docview stages ARGS`.
fn stages(args: &[&str], work: &Path) -> std::process::Output {
    Command::new(DOCVIEW)
        .arg("stages")
        .args(args)
        .arg("--work")
        .arg(work)
        .output()
        .unwrap()
}

/// A second `docview stages pool` on a work folder where one runs is refused, naming the
/// folder, before it runs anything; and a task that a process runs is refused to any other
/// (the same task from a second pool, Spark's speculative copy), naming the task.
#[test]
fn a_second_pool_and_a_second_run_of_a_task_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let work = planned_samples(dir.path(), 2);
    // Another process holds task 0 of `earlier`: the binary's `stages run` of it is refused,
    // and nothing is written.
    let held = task_lock(&work, Stage::Earlier, 0).unwrap();
    let out = stages(&["run", "earlier", "--task", "0"], &work);
    let said = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(
        said.contains("task 0 of stage earlier is running in another process"),
        "{said}"
    );
    assert!(said.contains(&work.display().to_string()), "{said}");
    assert!(!work.join("done").exists(), "nothing done");
    drop(held);

    // While a pool runs (here this process's, through the library), the binary's pool is
    // refused at once, naming the folder; the first pool then ends as if alone.
    let second: std::sync::Mutex<Option<std::process::Output>> = std::sync::Mutex::new(None);
    let run = |stage: Stage, task: usize| {
        if (stage, task) == (Stage::Pages, 1) {
            *second.lock().unwrap() = Some(stages(&["pool", "--quiet"], &work));
        }
        run_task(&work, stage, task)
    };
    run_stages(&work, 2, &run, &|_, _, _, _| {}).expect("the first pool");
    let second = second
        .into_inner()
        .unwrap()
        .expect("a second pool was started");
    let said = String::from_utf8_lossy(&second.stderr);
    assert_eq!(second.status.code(), Some(1), "{said}");
    assert!(
        said.contains(&format!(
            "{}: another `docview stages pool` is running on this work folder",
            work.display()
        )),
        "{said}"
    );
    assert!(!said.contains(": done"), "{said}");
    let out = dir.path().join("out");
    check_records(&out);
    // Once it has ended, a pool goes through (and finds every task done).
    let again = stages(&["pool"], &work);
    let said = String::from_utf8_lossy(&again.stderr);
    assert!(again.status.success(), "{said}");
    assert!(said.contains("merge 0: already done"), "{said}");
}

/// What a `stages run` killed with SIGKILL leaves: docview's temporary file, made by the same
/// function the tasks write with, of each file it was writing.
fn left_by_a_killed_task(path: &Path) -> PathBuf {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let (_, kept) = docview::output::temp_file_for(path)
        .unwrap()
        .keep()
        .unwrap();
    kept
}

/// The temporary files anywhere under `dir`.
fn temp_files(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut dirs = vec![dir.to_path_buf()];
    while let Some(d) = dirs.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                dirs.push(p);
            } else if docview::output::is_temp_file_name(&p.file_name().unwrap().to_string_lossy())
            {
                found.push(p);
            }
        }
    }
    found.sort();
    found
}

/// A task that runs again removes the temporary files a killed run of it left (those of the
/// files it alone writes), and no other task's.
#[test]
fn a_task_run_again_clears_what_a_killed_run_of_it_left() {
    let dir = tempfile::tempdir().unwrap();
    let work = planned_samples(dir.path(), 2);
    for (stage, task) in [(Stage::Earlier, 0), (Stage::Sites, 0), (Stage::Sites, 1)] {
        run_task(&work, stage, task).unwrap();
    }
    run_task(&work, Stage::MergeSites, 0).unwrap();
    let shard0 = work.join("shard-0");
    let shard1 = work.join("shard-1");
    let stats0 = [
        left_by_a_killed_task(&shard0.join("stat-rows.jsonl")),
        left_by_a_killed_task(&shard0.join("counts.json")),
        left_by_a_killed_task(&work.join("done/stats-0")),
    ];
    // A temporary file of an older docview, which did not name its file.
    let older = shard0.join(".docview-AbC123.tmp");
    std::fs::write(&older, "half").unwrap();
    let others = [
        left_by_a_killed_task(&shard1.join("stat-rows.jsonl")),
        left_by_a_killed_task(&work.join("done/stats-1")),
    ];
    run_task(&work, Stage::Stats, 0).unwrap();
    for gone in stats0.iter().chain([&older]) {
        assert!(!gone.exists(), "{} is left", gone.display());
    }
    for kept in &others {
        assert!(kept.exists(), "{} was another task's", kept.display());
    }
    run_task(&work, Stage::Stats, 1).unwrap();
    assert_eq!(temp_files(&work), Vec::<PathBuf>::new());
    for (stage, task) in [(Stage::MergeStats, 0), (Stage::Pages, 0), (Stage::Pages, 1)] {
        run_task(&work, stage, task).unwrap();
    }
    // The `pairs` parts share the work folder: each clears only its own files.
    let pairs0 = [
        left_by_a_killed_task(&work.join("pairs-0.json")),
        left_by_a_killed_task(&work.join("pairs-0.parquet")),
    ];
    let pairs1 = [
        left_by_a_killed_task(&work.join("pairs-1.json")),
        left_by_a_killed_task(&work.join("pairs-1.parquet")),
    ];
    run_task(&work, Stage::Pairs, 0).unwrap();
    assert!(pairs0.iter().all(|p| !p.exists()));
    assert!(pairs1.iter().all(|p| p.exists()));
    run_task(&work, Stage::Pairs, 1).unwrap();
    assert_eq!(temp_files(&work), Vec::<PathBuf>::new());
    // A one-task stage writes the files at the top: what a killed run left there goes.
    let decisions = left_by_a_killed_task(&work.join("decisions.parquet"));
    run_task(&work, Stage::Resolve, 0).unwrap();
    assert!(!decisions.exists());
    let finalise = left_by_a_killed_task(&shard1.join("final-counts.json"));
    for task in 0..2 {
        run_task(&work, Stage::Finalise, task).unwrap();
    }
    assert!(!finalise.exists());
    run_task(&work, Stage::Merge, 0).unwrap();
    assert_eq!(temp_files(&work), Vec::<PathBuf>::new());
    check_records(&dir.path().join("out"));
}

#[test]
fn the_local_pool_runs_the_stages_as_processes() {
    let dir = tempfile::tempdir().unwrap();
    let (one, many, work) = (
        dir.path().join("one"),
        dir.path().join("many"),
        dir.path().join("work"),
    );
    let inputs: Vec<String> = samples().iter().map(|p| p.display().to_string()).collect();
    let mut ingest_args = vec!["ingest", "-q", "--threads", "1", "--out"];
    let one_s = one.display().to_string();
    ingest_args.push(&one_s);
    ingest_args.extend(inputs.iter().map(String::as_str));
    docview_succeeds(&ingest_args);
    let (many_s, work_s) = (many.display().to_string(), work.display().to_string());
    let mut plan_args = vec!["stages", "plan", "--shards", "3", "--threads", "1"];
    plan_args.extend(["--work", &work_s, "--out", &many_s]);
    plan_args.extend(inputs.iter().map(String::as_str));
    docview_succeeds(&plan_args);
    let out = docview_succeeds(&["stages", "pool", "--work", &work_s, "--workers", "2"]);
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("finalise 2: done"), "{said}");
    assert_same(&one, &many);
    // A second pool run finds every task done.
    let again = docview_succeeds(&["stages", "pool", "--work", &work_s]);
    let said = String::from_utf8_lossy(&again.stderr);
    assert!(!said.contains(": done"), "{said}");
    assert!(said.contains("merge 0: already done"), "{said}");
}

/// Issue 41 item 10: a staged run whose inputs hold no page ends as `ingest` does, with status
/// 1 and the inputs named, once its output is merged.
#[test]
fn a_pool_whose_inputs_hold_no_page_fails_naming_them() {
    let dir = tempfile::tempdir().unwrap();
    let lines = dir.path().join("other-fields.jsonl");
    std::fs::write(&lines, "{\"id\": \"1\", \"contents\": \"<p>one</p>\"}\n").unwrap();
    let (out, work) = (dir.path().join("out"), dir.path().join("work"));
    let (lines, out, work) = (
        lines.to_str().unwrap(),
        out.to_str().unwrap(),
        work.to_str().unwrap(),
    );
    docview_succeeds(&[
        "stages",
        "plan",
        "--shards",
        "2",
        "--threads",
        "1",
        "--work",
        work,
        "--out",
        out,
        lines,
    ]);
    let pool = docview(&["stages", "pool", "-q", "--work", work]);
    let said = String::from_utf8_lossy(&pool.stderr);
    assert_eq!(pool.status.code(), Some(1), "{said}");
    assert!(said.contains("no page was read"), "{said}");
    assert!(
        said.contains(&format!("{lines} is a file with no page")),
        "{said}"
    );
    assert!(said.contains("1 malformed record"), "{said}");
    assert!(Path::new(out).join(STATE_FILE).exists());
}

#[test]
fn two_shards_of_wcxb_dev_give_one_process_output() {
    let set = Path::new(CORPUS).join("wcxb-dev/html");
    if !set.is_dir() {
        eprintln!("skipped: {} is absent", set.display());
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let options = IngestOptions::new(vec![set], PathBuf::new());
    let (one, many) = (dir.path().join("one"), dir.path().join("two"));
    both(&options, &one, &many, 2);
    assert_same(&one, &many);
}
