//! `docview stages plan`, `run`, `pool` and `list`: the ingest cut into stages that read and
//! write files in a work folder. The pool's processes and their contract are in
//! [`crate::pool`].

use anyhow::Result;
use docview::pipeline::stages::{Plan, Stage, TaskOutcome, run_task};
use docview::pipeline::{RunState, STATE_FILE};

use crate::flags::{StagesListArgs, StagesPlanArgs, StagesPoolArgs, StagesRunArgs};
use crate::pool;

/// `docview stages plan`.
pub fn plan(args: StagesPlanArgs) -> Result<()> {
    let options = args.ingest.into_options()?;
    let plan = Plan::new(options, args.shards)?;
    plan.save(&args.work, plan.options.overwrite)?;
    outln!(
        "planned {} input units over {} shards in {}; run the stages with `docview stages pool \
         --work {}` (or one task each with `docview stages run STAGE --work {} --task N`)",
        plan.units.len(),
        plan.shards,
        args.work.display(),
        args.work.display(),
        args.work.display()
    );
    Ok(())
}

/// `docview stages list`.
pub fn list(args: StagesListArgs) -> Result<()> {
    let plan = Plan::load(&args.work)?;
    let stages: Vec<(Stage, usize)> = Stage::ALL.iter().map(|&s| (s, plan.tasks(s))).collect();
    if args.json {
        let list: Vec<serde_json::Value> = stages
            .iter()
            .map(|(s, n)| serde_json::json!({"stage": s.as_str(), "tasks": n}))
            .collect();
        outln!("{}", serde_json::Value::Array(list));
    } else {
        for (s, n) in stages {
            outln!("{} {n}", s.as_str());
        }
    }
    Ok(())
}

/// `docview stages run`: its exit status on success, 0, or [`pool::ALREADY_DONE_EXIT_CODE`]
/// for a task already done when the pool asks for it (see [`pool`]).
pub fn run(args: StagesRunArgs) -> Result<u8> {
    let stage: Stage = args.stage.parse()?;
    let started = std::time::Instant::now();
    let outcome = run_task(&args.work, stage, args.task)?;
    eprintln!(
        "{} {}: {} ({:.1} s)",
        stage.as_str(),
        args.task,
        said(outcome),
        started.elapsed().as_secs_f64()
    );
    Ok(pool::exit_code(outcome, args.already_done_exit_code))
}

/// `docview stages pool`.
pub fn pool(args: StagesPoolArgs) -> Result<()> {
    let quiet = args.quiet;
    let progress = |stage: Stage, task: usize, outcome: TaskOutcome, secs: f64| {
        if !quiet {
            let what = said(outcome);
            eprintln!("{} {task}: {what} ({secs:.1} s)", stage.as_str());
        }
    };
    let started = std::time::Instant::now();
    pool::run_pool(&args.work, args.workers, &progress)?;
    let plan = Plan::load(&args.work)?;
    let out = &plan.options.out;
    outln!(
        "all stages done in {:.1} s: {} holds the ingest's output",
        started.elapsed().as_secs_f64(),
        out.display()
    );
    let state = RunState::load(&out.join(STATE_FILE))?;
    super::ingest::refuse_unused_inputs(&state.counters, &plan.options.inputs, out)
}

/// What a task's line says of its outcome.
fn said(outcome: TaskOutcome) -> &'static str {
    match outcome {
        TaskOutcome::Ran => "done",
        TaskOutcome::AlreadyDone => "already done",
    }
}
