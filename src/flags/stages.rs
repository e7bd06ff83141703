//! The arguments of `docview stages plan`, `run`, `pool` and `list`, the sharded ingest.

use std::path::PathBuf;

use clap::Subcommand;

use super::ingest::IngestArgs;

#[derive(Debug, clap::Args)]
pub struct StagesArgs {
    #[command(subcommand)]
    pub command: StagesCommand,
}

#[derive(Debug, Subcommand)]
pub enum StagesCommand {
    /// Plan a sharded ingest in a work folder: the inputs (each crawl file, each page file of
    /// a folder a unit; shard r of n takes units r, r+n, ...) and every ingest flag. Planning
    /// the same run again in the same folder keeps its finished tasks.
    Plan(Box<StagesPlanArgs>),
    /// Run one task of one stage (stats, merge-stats, pages, pairs, resolve, finalise,
    /// merge; the per-shard stages have one task per shard, the others one). A task whose
    /// completion marker (WORK/done/STAGE-TASK) exists is skipped.
    Run(StagesRunArgs),
    /// Run every stage of a planned work folder with a local pool of processes (each task a
    /// `docview stages run`), stage after stage; finished tasks are skipped, so a run stopped
    /// at any point continues where it was. Each task uses the plan's --threads (0: every
    /// core): plan with --threads 1 to run one task per core.
    Pool(StagesPoolArgs),
    /// The stages of a planned work folder in run order, each with its number of tasks (one
    /// line each, or --json), for an engine that schedules them (scripts/spark_stages.py).
    List(StagesListArgs),
}

#[derive(Debug, clap::Args)]
pub struct StagesListArgs {
    /// The work folder of a plan.
    #[arg(long, value_name = "DIR")]
    pub work: PathBuf,
    /// Print a JSON array of {"stage", "tasks"}.
    #[arg(long)]
    pub json: bool,
}

#[derive(Debug, clap::Args)]
pub struct StagesPlanArgs {
    /// The work folder: the plan, each shard's files and the completion markers.
    #[arg(long, value_name = "DIR")]
    pub work: PathBuf,
    /// Shards: tasks of the per-shard stages.
    #[arg(long, value_name = "N")]
    pub shards: usize,
    #[command(flatten)]
    pub ingest: IngestArgs,
}

#[derive(Debug, clap::Args)]
pub struct StagesRunArgs {
    /// The stage.
    #[arg(value_name = "STAGE")]
    pub stage: String,
    /// The work folder of a plan.
    #[arg(long, value_name = "DIR")]
    pub work: PathBuf,
    /// The task (the shard, or the part of the LSH bands for pairs), from 0.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub task: usize,
    // Hidden, for the local pool only: exit with `pool::ALREADY_DONE_EXIT_CODE` instead of 0
    // when the task's completion marker was there (the pool's contract with its children, see
    // `crate::pool`). Without it a task already done exits 0, as Spark and the scripts expect.
    #[arg(long = crate::pool::ALREADY_DONE_ARG, hide = true)]
    pub already_done_exit_code: bool,
}

#[derive(Debug, clap::Args)]
pub struct StagesPoolArgs {
    /// The work folder of a plan.
    #[arg(long, value_name = "DIR")]
    pub work: PathBuf,
    /// Tasks run at once.
    #[arg(long, value_name = "N", default_value_t = 2)]
    pub workers: usize,
    /// No line per task.
    #[arg(long, short)]
    pub quiet: bool,
}
