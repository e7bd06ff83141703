//! The `docview` command: a thin layer of clap commands over the docview library.
//!
//! This file owns the allocator, parsing the command line, the dispatch to each command and
//! the end of the process: its exit status, the error on standard error, and a closed
//! standard output pipe taken for a normal end. The rest lives in modules, after ripgrep's
//! layout: [`flags`] the arguments of each command and their lowering to the library's option
//! types, [`commands`] each command's body, [`progress`] the progress display of an ingest,
//! [`pool`] the local process pool of `docview stages pool`, [`out`] writing to standard
//! output, [`interrupt`] Ctrl-C during an ingest.

use std::io::Write;

use anyhow::Result;
use clap::Parser;

// First: the `out!` and `outln!` macros it defines are used by the modules after it.
#[macro_use]
mod out;
mod commands;
mod flags;
mod interrupt;
mod pool;
mod progress;

use flags::{ClassifyCommand, Cli, Command, ReplicasCommand, StagesCommand};

/// jemalloc rather than the system allocator: ingest allocates and frees small strings and
/// vectors all through every stage, and glibc's malloc took about a tenth of its time.
#[cfg(not(target_env = "msvc"))]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

/// True when the error comes from writing to a pipe whose reader has gone (`| head`).
fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|cause| {
        let kind = match cause.downcast_ref::<std::io::Error>() {
            Some(io) => Some(io.kind()),
            // serde_json's writer errors hold the I/O error without giving it as a source.
            None => cause
                .downcast_ref::<serde_json::Error>()
                .and_then(serde_json::Error::io_error_kind),
        };
        kind == Some(std::io::ErrorKind::BrokenPipe)
    })
}

fn main() {
    let cli = Cli::parse();
    let result = run(cli.command).and_then(|code| {
        std::io::stdout().flush()?;
        Ok(code)
    });
    match result {
        Ok(0) => {}
        Ok(code) => std::process::exit(code.into()),
        Err(e) => {
            if is_broken_pipe(&e) {
                // The reader has all it wanted: a normal end, as for grep and ripgrep.
                std::process::exit(0);
            }
            eprintln!("docview: {}", error_chain(&e));
            let interrupted = e.chain().any(|cause| {
                cause.is::<interrupt::Stopped>()
                    || matches!(
                        cause.downcast_ref::<docview::pipeline::Error>(),
                        Some(docview::pipeline::Error::Interrupted { .. })
                    )
            });
            std::process::exit(if interrupted {
                interrupt::INTERRUPTED_EXIT_CODE
            } else {
                1
            });
        }
    }
}

/// Runs the command; the exit status of its success, 0 but for `docview stages run` asked by
/// the pool to tell a task already done (see [`pool`]).
fn run(command: Command) -> Result<u8> {
    match command {
        Command::Extract(args) => commands::extract::run(args)?,
        Command::Eval(args) => commands::eval::run(args)?,
        Command::Ingest(args) => commands::ingest::run(args)?,
        Command::Query(args) => commands::query::run(args)?,
        Command::Export(args) => commands::export::run(args)?,
        Command::Compare(args) => commands::compare::run(args)?,
        Command::Blocks(args) => commands::blocks::run(args)?,
        Command::TrainCleaner(args) => commands::train_cleaner::run(args)?,
        Command::Classify(args) => match args.command {
            ClassifyCommand::Train(args) => commands::classify::train(args)?,
            ClassifyCommand::Eval(args) => commands::classify::eval(args)?,
        },
        Command::Stages(args) => match args.command {
            StagesCommand::Plan(args) => commands::stages::plan(*args)?,
            StagesCommand::Run(args) => return commands::stages::run(args),
            StagesCommand::Pool(args) => commands::stages::pool(args)?,
            StagesCommand::List(args) => commands::stages::list(args)?,
        },
        Command::Replicas(args) => match args.command {
            ReplicasCommand::Build(args) => commands::replicas::build(args)?,
            ReplicasCommand::Eval(args) => commands::replicas::eval(args)?,
        },
    }
    Ok(0)
}

/// The error and its causes in one line, each cause left out when the message before already
/// says it (docview's errors name their input and include the underlying error's text).
fn error_chain(e: &anyhow::Error) -> String {
    let mut message = e.to_string();
    for cause in e.chain().skip(1) {
        let cause = cause.to_string();
        if !message.contains(&cause) {
            message.push_str(": ");
            message.push_str(&cause);
        }
    }
    message
}
