//! What the stages' unit tests share: a small planned run over one sample site (ten pages, an
//! exact copy among them, each page a JSON Lines file of its own: a unit a page) and the
//! running of its stages in this thread.

use std::path::{Path, PathBuf};

use crate::settings::IngestOptions;

use super::plan::{Plan, Stage, TaskOutcome, run_task};

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

/// Runs every task of the stages of `work` up to `last`, in order, in this thread.
pub(super) fn run_through(work: &Path, last: Stage) {
    let plan = Plan::load(work).expect("the plan");
    for stage in Stage::ALL.into_iter().filter(|s| *s <= last) {
        for task in 0..plan.tasks(stage) {
            let outcome = run_task(work, stage, task)
                .unwrap_or_else(|e| panic!("{} task {task}: {e}", stage.as_str()));
            assert_eq!(outcome, TaskOutcome::Ran);
        }
    }
}
