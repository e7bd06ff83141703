//! What keeps a sharded run's tasks apart: the lock of each task (`locks/STAGE-N.lock`), so that
//! no two processes run one task at once, the lock of the process that runs every stage
//! (`.docview-pool.lock`), so that a second pool on a work folder is refused, and the clearing
//! of what a killed run of a task left half-written, which a task does under its lock before it
//! runs again ([`super::plan::run_task`]).

use std::path::{Path, PathBuf};

use crate::lock::{FolderLock, LockMode};
use crate::{Error, Result};

use super::plan::{DONE_DIR, PLAN_FILE, Stage};

/// The folder of the tasks' lock files.
pub(super) const LOCKS_DIR: &str = "locks";
/// The lock file of the process that runs every stage of a work folder
/// ([`super::plan::run_stages`]: `docview stages pool`).
pub const POOL_LOCK_FILE: &str = ".docview-pool.lock";

/// The shared lock of a planned work folder (one that does not exist is told by `Plan::load`).
pub(super) fn work_lock(work: &Path) -> Result<Option<FolderLock>> {
    if work.join(PLAN_FILE).exists() {
        Ok(FolderLock::take(work, LockMode::Shared).map(Some)?)
    } else {
        Ok(None)
    }
}

/// `STAGE-N`: the name of a task's marker and lock.
pub(super) fn task_name(stage: Stage, task: usize) -> String {
    format!("{}-{task}", stage.as_str())
}

/// The exclusive lock of the process that runs every stage of work folder `work`: a second one
/// is refused, naming the folder.
pub(super) fn pool_lock(work: &Path) -> Result<FolderLock> {
    Ok(FolderLock::exclusive_file(
        work,
        &work.join(POOL_LOCK_FILE),
        "another `docview stages pool` is running on this work folder",
    )?)
}

/// The exclusive lock of task `task` of `stage` in work folder `work`, held while it runs, so
/// that no two processes run one task at once (two pools, a pool and Spark, Spark's
/// speculative copy of a slow task): the second is refused, naming the task and the folder.
pub fn task_lock(work: &Path, stage: Stage, task: usize) -> Result<FolderLock> {
    let dir = work.join(LOCKS_DIR);
    std::fs::create_dir_all(&dir).map_err(|e| Error::io(&dir, e))?;
    let file = dir.join(format!("{}.lock", task_name(stage, task)));
    let held = format!(
        "task {task} of stage {} is running in another process",
        stage.as_str()
    );
    Ok(FolderLock::exclusive_file(work, &file, &held)?)
}

/// Removes what a killed run of task `task` of `stage` left half-written: docview's temporary
/// files of the files it alone writes (see [`super::layout`]). A per-shard task is the only
/// writer of its shard's folder while it runs (the stages before it are done, those after it
/// wait for it); a task of a one-task stage the only writer of the work folder's own files; a
/// `pairs` task shares the work folder with the other parts, so it removes only the temporary
/// files of its own two files. Each removes its marker's temporary file too. Called under the
/// task's lock; `merge` clears its output folder itself.
pub(super) fn remove_half_written(work: &Path, stage: Stage, task: usize) -> Result<()> {
    use super::layout::{pairs_figures_file, pairs_file, shard_dir};
    let name_of = |p: PathBuf| {
        p.file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    };
    let marker_name = task_name(stage, task);
    crate::folder::remove_temp_files(&work.join(DONE_DIR), |target| {
        target == Some(marker_name.as_str())
    })?;
    match stage {
        Stage::Sites | Stage::Stats | Stage::Pages | Stage::Finalise => {
            crate::folder::remove_temp_files(&shard_dir(work, task), |_| true)
        }
        Stage::Earlier | Stage::MergeSites | Stage::MergeStats | Stage::Resolve => {
            crate::folder::remove_temp_files(work, |_| true)
        }
        Stage::Pairs => {
            let own = [
                name_of(pairs_file(work, task)),
                name_of(pairs_figures_file(work, task)),
            ];
            crate::folder::remove_temp_files(work, |target| {
                target.is_some_and(|t| own.iter().any(|o| o == t))
            })
        }
        Stage::Merge => Ok(()),
    }
}
