//! The local process pool of `docview stages pool`: each task of a planned work folder run as
//! a child process, `docview stages run`, up to `--workers` at once, stage after stage (the
//! library's `run_stages` schedules them), and the contract that tells the pool how each
//! child's task ended.
//!
//! # The contract between the pool and its children
//!
//! The pool runs `docview stages run STAGE --task N --work WORK --already-done-exit-code`
//! (the flag is hidden from `--help`: it is for the pool alone) and takes the task's outcome
//! from the child's exit status, never from what the child says:
//!
//! | exit status | outcome |
//! |---|---|
//! | 0 | the task ran |
//! | [`ALREADY_DONE_EXIT_CODE`] (3) | its completion marker was there: nothing to do |
//! | any other (1 an error, 2 a usage error), or none (killed by a signal) | the task failed; the child's standard error is the error's message |
//!
//! Without the flag (Spark's driver `scripts/spark_stages.py`, the scripts, a user's own
//! scheduler), `docview stages run` exits 0 whether its task ran or was already done, as it
//! always has.

use std::path::Path;
use std::process::Command;

use anyhow::{Context, Result};
use docview::pipeline::stages::{Stage, TaskOutcome, run_stages};

/// The exit status of `docview stages run --already-done-exit-code` whose task was already
/// done (its completion marker was there). docview's errors exit 1, clap's usage errors 2.
pub const ALREADY_DONE_EXIT_CODE: u8 = 3;

/// The long name of the hidden flag of `docview stages run` that asks for
/// [`ALREADY_DONE_EXIT_CODE`]: the pool passes it, the flag's definition takes its name.
pub const ALREADY_DONE_ARG: &str = "already-done-exit-code";

/// The exit status of a `docview stages run` whose task ended with `outcome`; `asked`: whether
/// it was run with `--already-done-exit-code`.
pub fn exit_code(outcome: TaskOutcome, asked: bool) -> u8 {
    match outcome {
        TaskOutcome::AlreadyDone if asked => ALREADY_DONE_EXIT_CODE,
        TaskOutcome::Ran | TaskOutcome::AlreadyDone => 0,
    }
}

/// The outcome a child's exit status tells (`None`: no status, killed by a signal); `None`
/// when the task failed.
fn outcome_of(code: Option<i32>) -> Option<TaskOutcome> {
    match code {
        Some(0) => Some(TaskOutcome::Ran),
        Some(code) if code == i32::from(ALREADY_DONE_EXIT_CODE) => Some(TaskOutcome::AlreadyDone),
        _ => None,
    }
}

/// Runs task `task` of `stage` of the plan in `work` as a child process of `exe`.
fn run_child(
    exe: &Path,
    work: &Path,
    stage: Stage,
    task: usize,
) -> docview::pipeline::Result<TaskOutcome> {
    let output = Command::new(exe)
        .args([
            "stages",
            "run",
            stage.as_str(),
            "--task",
            &task.to_string(),
            "--work",
        ])
        .arg(work)
        .arg(format!("--{ALREADY_DONE_ARG}"))
        .output()
        .map_err(|e| docview::pipeline::Error::io(exe, e))?;
    outcome_of(output.status.code()).ok_or_else(|| {
        let said = String::from_utf8_lossy(&output.stderr);
        docview::pipeline::Error::bad_input(
            format!("stage {} task {task}", stage.as_str()),
            said.trim().trim_start_matches("docview: ").to_string(),
        )
    })
}

/// Runs every stage of the plan in `work` with up to `workers` child processes at once, each
/// a task of this binary's `docview stages run`; stops after the first stage with a failed
/// task, giving its error. `progress` hears of each task as it ends.
pub fn run_pool(
    work: &Path,
    workers: usize,
    progress: &(dyn Fn(Stage, usize, TaskOutcome, f64) + Sync),
) -> Result<()> {
    let exe = std::env::current_exe().context("finding the docview binary")?;
    let run = |stage: Stage, task: usize| run_child(&exe, work, stage, task);
    run_stages(work, workers, &run, progress)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use clap::{CommandFactory, Parser};

    use super::*;
    use crate::flags::{Cli, Command, StagesCommand};

    #[test]
    fn each_outcome_comes_back_from_its_exit_status() {
        for outcome in [TaskOutcome::Ran, TaskOutcome::AlreadyDone] {
            let code = exit_code(outcome, true);
            assert_eq!(outcome_of(Some(code.into())), Some(outcome));
        }
        // Without the flag, a task already done is a success like any other.
        assert_eq!(exit_code(TaskOutcome::AlreadyDone, false), 0);
        for failed in [Some(1), Some(2), Some(101), None] {
            assert_eq!(outcome_of(failed), None);
        }
    }

    #[test]
    fn the_flag_the_pool_passes_is_the_hidden_flag_of_stages_run() {
        let flag = format!("--{ALREADY_DONE_ARG}");
        let cli = Cli::try_parse_from(["docview", "stages", "run", "merge", "--work", "w", &flag])
            .expect("the pool's flag parses");
        let Command::Stages(stages) = cli.command else {
            panic!("not a stages command");
        };
        let StagesCommand::Run(run) = stages.command else {
            panic!("not stages run");
        };
        assert!(run.already_done_exit_code);
        let mut cli = Cli::command();
        let help = cli
            .find_subcommand_mut("stages")
            .and_then(|s| s.find_subcommand_mut("run"))
            .map(|run| run.render_long_help().to_string())
            .expect("stages run has help");
        assert!(!help.contains(ALREADY_DONE_ARG), "{help}");
    }
}
