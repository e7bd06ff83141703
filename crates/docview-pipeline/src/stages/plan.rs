//! The plan of a sharded run and the running of its tasks: [`Plan`] (`plan.json`: the settings,
//! the inputs' units and the shards, shard `r` of `n` reading units `r, r + n, …`), the
//! [`Stage`]s in run order with their names and task counts, the completion markers
//! (`done/STAGE-N`), [`run_task`] (one task: its lock, its checks, what a killed run of it left
//! half-written cleared, its stage's body, its marker) and [`run_stages`] (every stage in
//! order, a pool of tasks at a time, under the pool's lock). The locks and the clearing are
//! [`super::guard`]'s, the stages' bodies their modules'; the files they share are named in
//! [`super::layout`].

use std::io::Write;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use serde::{Deserialize, Serialize};

use super::layout::WORK_LAYOUT;
use crate::clean::cleaner_with_model;
use crate::earlier::EarlierRuns;
use crate::input::{InputUnit, Inputs};
use crate::lock::FolderLock;

use super::guard::{pool_lock, remove_half_written, task_lock, task_name, work_lock};
use crate::settings::IngestOptions;
use crate::{Error, FolderInUse, Result};

/// The refusal of work folder `work`, which holds `why`.
fn in_use(work: &Path, why: FolderInUse) -> Error {
    Error::FolderInUse {
        folder: work.to_path_buf(),
        why,
    }
}

/// The plan file of a work folder.
pub const PLAN_FILE: &str = "plan.json";
/// Layout version of the plan and of every file the stages write (3: `pages.parquet` names the
/// page's number in its unit `unit_record`, no longer a second `record` column; 4: a shard's
/// output holds the DocView index beside the other three).
pub const PLAN_VERSION: u32 = 4;
/// The folder of completion markers.
pub(super) const DONE_DIR: &str = "done";
/// Pages per batch handed to the workers of a task.
pub(super) const BATCH: usize = 64;

/// A sharded run: its settings and inputs, and how many shards share them.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Plan {
    /// Layout version ([`PLAN_VERSION`]).
    pub version: u32,
    /// Shards (tasks of the per-shard stages, and parts of the band keys).
    pub shards: usize,
    /// The ingest's settings; `out` is where `merge` writes.
    pub options: IngestOptions,
    /// The inputs' units, in the order of one process.
    pub units: Vec<InputUnit>,
}

impl Plan {
    /// Plans `options` over `shards` shards: checks the settings and every input as `ingest`
    /// does, and splits the inputs into units.
    pub fn new(options: IngestOptions, shards: usize) -> Result<Plan> {
        options.validate()?;
        if shards == 0 {
            return Err(Error::setting("shards", "must be at least 1"));
        }
        if options.resume {
            return Err(Error::setting(
                "resume",
                "a sharded run resumes by running its stages again: finished tasks are skipped",
            ));
        }
        cleaner_with_model(options.cleaner, options.model.as_deref(), options.favor)?;
        options.classifier.load_with(&options.subjects)?;
        EarlierRuns::check(&options)?;
        let units = Inputs::plan(&options.inputs)?;
        Ok(Plan {
            version: PLAN_VERSION,
            shards,
            options,
            units,
        })
    }

    /// Writes the plan into the work folder `work` (created if needed). A folder that holds
    /// another plan is refused, unless `overwrite` (then its files are removed first); the same
    /// plan again is accepted, and its finished tasks stay finished.
    ///
    /// It holds the work folder's exclusive lock meanwhile: a plan is never replaced under
    /// running tasks (each holds a shared lock).
    pub fn save(&self, work: &Path, overwrite: bool) -> Result<()> {
        let path = work.join(PLAN_FILE);
        let absolute = |p: &Path| std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
        if absolute(work) == absolute(&self.options.out) {
            return Err(in_use(work, FolderInUse::WorkIsOut));
        }
        let _lock = FolderLock::exclusive_for_run(work, &WORK_LAYOUT)?;
        let same = path.exists()
            && Plan::load(work)
                .ok()
                .is_some_and(|p| serde_json::to_value(&p).ok() == serde_json::to_value(self).ok());
        if same {
            return Ok(());
        }
        if !crate::owned::is_empty(work)? {
            if overwrite {
                crate::owned::clear(work, &WORK_LAYOUT)?;
            } else if path.exists() {
                return Err(in_use(work, FolderInUse::OtherPlan));
            } else {
                return Err(in_use(work, FolderInUse::WorkNotEmpty));
            }
        }
        Ok(crate::output::write_json_atomically(&path, self)?)
    }

    /// The plan of work folder `work`.
    pub fn load(work: &Path) -> Result<Plan> {
        let path = work.join(PLAN_FILE);
        let plan: Plan = crate::output::read_json(&path, "a docview plan")?;
        if plan.version != PLAN_VERSION {
            return Err(Error::PlanVersion {
                path,
                found: plan.version,
                reads: PLAN_VERSION,
            });
        }
        Ok(plan)
    }

    /// The units of shard `shard`, with their numbers.
    pub(super) fn shard_units(&self, shard: usize) -> impl Iterator<Item = (usize, &InputUnit)> {
        self.units
            .iter()
            .enumerate()
            .skip(shard)
            .step_by(self.shards)
    }

    /// Tasks of `stage`.
    pub fn tasks(&self, stage: Stage) -> usize {
        match stage {
            Stage::Sites | Stage::Stats | Stage::Pages | Stage::Pairs | Stage::Finalise => {
                self.shards
            }
            Stage::Earlier
            | Stage::MergeSites
            | Stage::MergeStats
            | Stage::Resolve
            | Stage::Merge => 1,
        }
    }

    /// The cleaner of the run, and whether it learns site models first (as `ingest` does for
    /// a site-aware cleaner without `--pages-alone`).
    pub(super) fn cleaner(&self) -> Result<(Box<dyn crate::clean::Cleaner>, bool)> {
        let options = &self.options;
        let cleaner = cleaner_with_model(options.cleaner, options.model.as_deref(), options.favor)?;
        let site_aware = cleaner.site_learner().is_some() && !options.pages_alone;
        Ok((cleaner, site_aware))
    }

    /// The worker threads of a task (`--threads`).
    pub(super) fn pool(&self) -> Result<rayon::ThreadPool> {
        Ok(crate::thread_pool(self.options.threads)?)
    }
}

/// The stages of a sharded run, in the order they run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Stage {
    /// The kept pages of the earlier runs (`--earlier`), with their LSH band keys.
    Earlier,
    /// The pages each shard offers to the site models (a site-aware cleaner only).
    Sites,
    /// The site models, learnt from the pages picked in global order.
    MergeSites,
    /// Clean each shard's pages; count their statistics.
    Stats,
    /// The collection statistics of all shards, and each unit's first `seq`.
    MergeStats,
    /// Integrate and fingerprint each shard's pages.
    Pages,
    /// Confirm the candidate pairs of each part of the LSH bands.
    Pairs,
    /// Decide the replicas in global order.
    Resolve,
    /// Each shard's kept records, replica lines and indexes.
    Finalise,
    /// The output folder of one process.
    Merge,
}

impl Stage {
    /// Every stage, in order.
    pub const ALL: [Stage; 10] = [
        Stage::Earlier,
        Stage::Sites,
        Stage::MergeSites,
        Stage::Stats,
        Stage::MergeStats,
        Stage::Pages,
        Stage::Pairs,
        Stage::Resolve,
        Stage::Finalise,
        Stage::Merge,
    ];

    /// Its name on the command line.
    pub fn as_str(self) -> &'static str {
        match self {
            Stage::Earlier => "earlier",
            Stage::Sites => "sites",
            Stage::MergeSites => "merge-sites",
            Stage::Stats => "stats",
            Stage::MergeStats => "merge-stats",
            Stage::Pages => "pages",
            Stage::Pairs => "pairs",
            Stage::Resolve => "resolve",
            Stage::Finalise => "finalise",
            Stage::Merge => "merge",
        }
    }

    /// Runs task `task` of this stage (its body alone: no lock, check or marker).
    fn run(self, work: &Path, plan: &Plan, task: usize) -> Result<()> {
        match self {
            Stage::Earlier => super::earlier::earlier_task(work, plan),
            Stage::Sites => super::sites::sites_task(work, plan, task),
            Stage::MergeSites => super::sites::merge_sites_task(work, plan),
            Stage::Stats => super::stats::stats_task(work, plan, task),
            Stage::MergeStats => super::stats::merge_stats_task(work, plan),
            Stage::Pages => super::pages::pages_task(work, plan, task),
            Stage::Pairs => super::pairs::pairs_task(work, plan, task),
            Stage::Resolve => super::resolve::resolve_task(work, plan),
            Stage::Finalise => super::finalise::finalise_task(work, plan, task),
            Stage::Merge => super::merge::merge_task(work, plan),
        }
    }
}

impl FromStr for Stage {
    type Err = Error;

    fn from_str(s: &str) -> Result<Stage> {
        Stage::ALL
            .into_iter()
            .find(|stage| stage.as_str() == s)
            .ok_or_else(|| {
                let names: Vec<&str> = Stage::ALL.iter().map(|s| s.as_str()).collect();
                Error::setting(
                    "stage",
                    format!("{s:?} is not a stage ({})", names.join(", ")),
                )
            })
    }
}

/// What running a task did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TaskOutcome {
    /// It ran.
    Ran,
    /// Its completion marker was there: nothing to do.
    AlreadyDone,
}

/// The completion marker of task `task` of `stage`.
fn marker(work: &Path, stage: Stage, task: usize) -> PathBuf {
    work.join(DONE_DIR).join(task_name(stage, task))
}

/// Runs task `task` of `stage` in the work folder `work` (skipped when its marker says it was
/// done). The stages before it must be done: a missing input file is an error that names it.
///
/// The task holds the work folder's shared lock (tasks go side by side; a new plan waits for
/// them) and its own ([`task_lock`]: no second process runs it meanwhile), `merge` the output
/// folder's, as `ingest` does. It first clears what a killed run of it left half-written.
pub fn run_task(work: &Path, stage: Stage, task: usize) -> Result<TaskOutcome> {
    let _lock = work_lock(work)?;
    let plan = Plan::load(work)?;
    let tasks = plan.tasks(stage);
    if task >= tasks {
        return Err(Error::setting(
            "task",
            format!(
                "stage {} has {tasks} tasks, numbered from 0",
                stage.as_str()
            ),
        ));
    }
    let _task_lock = task_lock(work, stage, task)?;
    let done = marker(work, stage, task);
    if done.exists() {
        return Ok(TaskOutcome::AlreadyDone);
    }
    for before in Stage::ALL.into_iter().filter(|s| *s < stage) {
        for t in 0..plan.tasks(before) {
            if !marker(work, before, t).exists() {
                return Err(Error::StageOrder {
                    work: work.to_path_buf(),
                    stage: stage.as_str(),
                    before: before.as_str(),
                    task: t,
                });
            }
        }
    }
    remove_half_written(work, stage, task)?;
    stage.run(work, &plan, task)?;
    let dir = work.join(DONE_DIR);
    std::fs::create_dir_all(&dir).map_err(|e| Error::io(&dir, e))?;
    crate::output::write_atomically(&done, |w| w.write_all(b"done\n"))?;
    Ok(TaskOutcome::Ran)
}

/// Runs every stage of the planned work folder `work`, stage after stage, with up to `workers`
/// tasks at once, each task a call of `run` (a child process, a thread…) that must run
/// [`run_task`] for that stage and task; stops after the first stage with a failed task,
/// giving its error. `progress` hears of each task as it ends. A second call on the same work
/// folder while one runs, in any process, is refused, naming the folder.
pub fn run_stages(
    work: &Path,
    workers: usize,
    run: &(dyn Fn(Stage, usize) -> Result<TaskOutcome> + Sync),
    progress: &(dyn Fn(Stage, usize, TaskOutcome, f64) + Sync),
) -> Result<()> {
    // Held from the first stage to the last: no new plan, no second pool meanwhile.
    let _lock = work_lock(work)?;
    let plan = Plan::load(work)?;
    let _pool = pool_lock(work)?;
    let workers = workers.max(1);
    for stage in Stage::ALL {
        let tasks = plan.tasks(stage);
        let next = AtomicUsize::new(0);
        let failure: Mutex<Option<Error>> = Mutex::new(None);
        std::thread::scope(|scope| {
            for _ in 0..workers.min(tasks) {
                scope.spawn(|| {
                    loop {
                        let task = next.fetch_add(1, Ordering::SeqCst);
                        if task >= tasks {
                            return;
                        }
                        if failure.lock().map(|f| f.is_some()).unwrap_or(true) {
                            return;
                        }
                        let started = Instant::now();
                        match run(stage, task) {
                            Ok(outcome) => {
                                progress(stage, task, outcome, started.elapsed().as_secs_f64())
                            }
                            Err(e) => {
                                if let Ok(mut f) = failure.lock() {
                                    f.get_or_insert(e);
                                }
                                return;
                            }
                        }
                    }
                });
            }
        });
        if let Some(e) = failure.into_inner().ok().flatten() {
            return Err(e);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stages::testing::{options, planned};

    #[test]
    fn stage_names_round_trip_in_run_order() {
        let names: Vec<&str> = Stage::ALL.iter().map(|s| s.as_str()).collect();
        assert_eq!(
            names.join(" "),
            "earlier sites merge-sites stats merge-stats pages pairs resolve finalise merge"
        );
        for (i, stage) in Stage::ALL.into_iter().enumerate() {
            assert_eq!(stage.as_str().parse::<Stage>().unwrap(), stage);
            assert!(Stage::ALL[..i].iter().all(|before| *before < stage));
        }
        let err = "merge_stats".parse::<Stage>().unwrap_err().to_string();
        assert!(
            err.contains("\"merge_stats\"") && err.contains("merge-stats"),
            "{err}"
        );
    }

    #[test]
    fn shards_take_every_nth_unit_and_run_a_task_each_of_the_per_shard_stages() {
        let dir = tempfile::tempdir().unwrap();
        let plan = Plan::new(options(dir.path()), 3).unwrap();
        assert_eq!(plan.units.len(), 10, "a unit a page file");
        let units = |shard| -> Vec<usize> { plan.shard_units(shard).map(|u| u.0).collect() };
        assert_eq!(units(0), [0, 3, 6, 9]);
        assert_eq!(units(1), [1, 4, 7]);
        assert_eq!(units(2), [2, 5, 8]);
        for (n, unit) in plan.shard_units(1) {
            assert_eq!(unit, &plan.units[n]);
        }
        let tasks: Vec<usize> = Stage::ALL.iter().map(|s| plan.tasks(*s)).collect();
        assert_eq!(tasks, [1, 3, 1, 3, 1, 3, 3, 1, 3, 1]);
        assert!(Plan::new(options(dir.path()), 0).is_err());
        let mut resume = options(dir.path());
        resume.resume = true;
        assert!(Plan::new(resume, 2).is_err());
    }

    #[test]
    fn a_plan_saves_loads_and_guards_its_folder() {
        let dir = tempfile::tempdir().unwrap();
        let (plan, work) = planned(options(dir.path()), 2, dir.path());
        let json = |p: &Plan| serde_json::to_value(p).unwrap();
        assert_eq!(json(&Plan::load(&work).unwrap()), json(&plan));
        assert_eq!(json(&plan)["version"], PLAN_VERSION);
        plan.save(&work, false).expect("the same plan again");
        let other = Plan::new(options(dir.path()), 3).unwrap();
        assert!(other.save(&work, false).is_err());
        other.save(&work, true).unwrap();
        assert_eq!(Plan::load(&work).unwrap().shards, 3);
        // A folder with other files, the output folder, another layout version.
        let busy = dir.path().join("busy");
        std::fs::create_dir_all(&busy).unwrap();
        std::fs::write(busy.join("x"), "x").unwrap();
        assert!(plan.save(&busy, false).is_err());
        assert!(plan.save(&plan.options.out, false).is_err());
        let mut old = json(&plan);
        old["version"] = (PLAN_VERSION - 1).into();
        std::fs::write(work.join(PLAN_FILE), old.to_string()).unwrap();
        let err = Plan::load(&work).unwrap_err().to_string();
        assert!(err.contains("plan layout version"), "{err}");
    }

    #[test]
    fn a_task_runs_once_after_the_stages_before_it() {
        let dir = tempfile::tempdir().unwrap();
        let (_, work) = planned(options(dir.path()), 2, dir.path());
        let err = run_task(&work, Stage::Merge, 1).unwrap_err().to_string();
        assert!(err.contains("stage merge has 1 tasks"), "{err}");
        let err = run_task(&work, Stage::Stats, 0).unwrap_err().to_string();
        assert!(err.contains("task 0 of stage earlier"), "{err}");
        assert_eq!(
            run_task(&work, Stage::Earlier, 0).unwrap(),
            TaskOutcome::Ran
        );
        assert_eq!(
            std::fs::read_to_string(work.join("done/earlier-0")).unwrap(),
            "done\n"
        );
        assert_eq!(
            run_task(&work, Stage::Earlier, 0).unwrap(),
            TaskOutcome::AlreadyDone
        );
        assert_eq!(run_task(&work, Stage::Sites, 0).unwrap(), TaskOutcome::Ran);
        let err = run_task(&work, Stage::MergeSites, 0)
            .unwrap_err()
            .to_string();
        assert!(err.contains("task 1 of stage sites"), "{err}");
    }

    #[test]
    fn run_stages_goes_stage_by_stage_and_stops_after_a_failed_one() {
        let dir = tempfile::tempdir().unwrap();
        let (_, work) = planned(options(dir.path()), 2, dir.path());
        let ran = Mutex::new(Vec::new());
        let run = |stage: Stage, task: usize| {
            ran.lock().unwrap().push((stage, task));
            if (stage, task) == (Stage::Pairs, 1) {
                return Err(Error::bad_input("pairs", "failed on purpose"));
            }
            Ok(TaskOutcome::Ran)
        };
        let heard = AtomicUsize::new(0);
        let progress = |_: Stage, _: usize, _: TaskOutcome, _: f64| {
            heard.fetch_add(1, Ordering::SeqCst);
        };
        let err = run_stages(&work, 2, &run, &progress).unwrap_err();
        assert!(err.to_string().contains("failed on purpose"));
        let mut ran = ran.into_inner().unwrap();
        // Within a stage tasks go side by side; stages one after another.
        assert!(ran.windows(2).all(|w| w[0].0 <= w[1].0), "{ran:?}");
        ran.sort();
        let pairs_and_before = 1 + 2 + 1 + 2 + 1 + 2 + 2;
        assert_eq!(ran.len(), pairs_and_before, "{ran:?}");
        assert_eq!(ran.last(), Some(&(Stage::Pairs, 1)));
        assert_eq!(heard.into_inner(), pairs_and_before - 1);
    }
}
