//! What the stages' unit tests share: a small planned run over one sample site (ten pages, an
//! exact copy among them, each page a JSON Lines file of its own: a unit a page), the running
//! of its stages in this thread, and the check of the records they write against the DocView
//! schema, the integration tests' own (`tests/it/schema.rs`).

use std::path::{Path, PathBuf};

use crate::settings::IngestOptions;

use super::layout::shard_out;
use super::plan::{Plan, Stage, TaskOutcome, run_task};

/// The integration tests' check of DocView records against the schema.
#[path = "../../../../tests/it/schema.rs"]
pub(super) mod schema;

/// The sample site `fieldnotes`: ten page files, `dawn-chorus-copy.html` a copy of
/// `dawn-chorus.html`.
pub(super) fn site() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus-samples/sites/fieldnotes")
}

/// The pages of [`site`] as JSON Lines files in `dir/inputs`, one a page, in file name order,
/// each under `http://www.fieldnotes.example/NAME`.
pub(super) fn inputs(dir: &Path) -> Vec<PathBuf> {
    let folder = dir.join("inputs");
    std::fs::create_dir_all(&folder).unwrap();
    let mut files: Vec<PathBuf> = std::fs::read_dir(site())
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    let mut inputs = Vec::new();
    for (i, file) in files.iter().enumerate() {
        let name = file.file_stem().unwrap().to_string_lossy();
        let line = serde_json::json!({
            "url": format!("http://www.fieldnotes.example/{name}"),
            "html": std::fs::read_to_string(file).unwrap(),
        });
        let path = folder.join(format!("{i:02}-{name}.jsonl"));
        std::fs::write(&path, format!("{line}\n")).unwrap();
        inputs.push(path);
    }
    inputs
}

/// The options of a run over [`inputs`] (written in `dir`) into `dir/out`, one thread.
pub(super) fn options(dir: &Path) -> IngestOptions {
    let mut options = IngestOptions::new(inputs(dir), dir.join("out"));
    options.threads = 1;
    options
}

/// A plan of `options` over `shards` shards, saved in `dir/work`; its work folder.
pub(super) fn planned(options: IngestOptions, shards: usize, dir: &Path) -> (Plan, PathBuf) {
    let plan = Plan::new(options, shards).expect("a plan");
    let work = dir.join("work");
    plan.save(&work, false).expect("the plan saved");
    (plan, work)
}

/// Runs every task of the stages of `work` up to `last`, in order, in this thread; the records
/// they wrote (each shard's, the output folder's) are then checked against the schema.
pub(super) fn run_through(work: &Path, last: Stage) {
    let plan = Plan::load(work).expect("the plan");
    for stage in Stage::ALL.into_iter().filter(|s| *s <= last) {
        for task in 0..plan.tasks(stage) {
            let outcome = run_task(work, stage, task)
                .unwrap_or_else(|e| panic!("{} task {task}: {e}", stage.as_str()));
            assert_eq!(outcome, TaskOutcome::Ran);
        }
    }
    if last >= Stage::Finalise {
        for shard in 0..plan.shards {
            schema::check_records(&shard_out(work, shard));
        }
    }
    if last >= Stage::Merge {
        schema::check_records(&plan.options.out);
    }
}
