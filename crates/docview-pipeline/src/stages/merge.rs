//! Stage `merge` (one task): the output folder of one process, under its exclusive lock, as
//! `ingest` writes it: every shard's records and replica lines merged by `seq`, the skipped
//! inputs ([`KeyedSkip`]) by their place in the run, `docviews.parquet` when asked for, the run's
//! `stats.json`, the shards' indexes merged whole (the BM25 statistics are sums), and
//! `state.json` and `summary.json` from the shards' counts ([`FinalCounts`]).

use std::path::{Path, PathBuf};
use std::time::Instant;

use serde::Deserialize;

use crate::Result;
use crate::folder::{OUTPUT_LAYOUT, STATS_FILE, SUMMARY_FILE, prepare_out_dir};
use crate::index::{index_stats, merge_index_sets};
use crate::input::InputUnit;
use crate::lock::FolderLock;
use crate::records::{
    DOCVIEWS, REPLICAS, SKIPPED, SkippedLine, for_each_line, write_docviews_parquet,
};
use crate::state::{Counters, RunState, STATE_FILE, Status};
use crate::stats::CollectionStats;
use crate::summary::{SiteTemplateFigures, Summary};

use super::finalise::FinalCounts;
use super::layout::{SKIPPED_EVENTS, shard_dir, shard_out};
use super::pages::KeyedSkip;
use super::plan::Plan;
use super::sites::load_sites;
use super::streams::merge_lines;

/// The sequence number of a record or replica line.
#[derive(Deserialize)]
struct SeqOf {
    seq: u64,
}

/// Stage `merge`: the output folder of one process.
pub(super) fn merge_task(work: &Path, plan: &Plan) -> Result<()> {
    let started = Instant::now();
    let options = &plan.options;
    let out = &options.out;
    let input_bytes = Some(plan.units.iter().map(InputUnit::size).sum());
    let settings = options.settings(input_bytes)?;
    let state_path = out.join(STATE_FILE);
    let _lock = FolderLock::exclusive_for_run(out, &OUTPUT_LAYOUT)?;
    // A merge of this run that stopped half-way (its state says `running` with these
    // settings) is started again; any other folder is left to `prepare_out_dir`'s rules.
    let ours = RunState::load(&state_path)
        .ok()
        .is_some_and(|s| s.settings == settings && s.status == Status::Running);
    if ours {
        crate::owned::clear(out, &OUTPUT_LAYOUT)?;
    }
    prepare_out_dir(out, options.overwrite)?;
    RunState::new(settings.clone()).save(&state_path)?;
    let shard_outs: Vec<PathBuf> = (0..plan.shards).map(|s| shard_out(work, s)).collect();
    // Records and replica lines go out as the shards wrote them, merged by `seq`.
    for file in [DOCVIEWS, REPLICAS] {
        merge_lines(
            &shard_outs.iter().map(|d| d.join(file)).collect::<Vec<_>>(),
            &out.join(file),
            |r: &SeqOf| r.seq,
            |line: &str, _| Ok(format!("{line}\n").into_bytes()),
        )?;
    }
    merge_lines(
        &(0..plan.shards)
            .map(|s| shard_dir(work, s).join(SKIPPED_EVENTS))
            .collect::<Vec<_>>(),
        &out.join(SKIPPED),
        |s: &KeyedSkip| s.key,
        |_, s: KeyedSkip| {
            let mut line = serde_json::to_vec(&s.line).map_err(std::io::Error::other)?;
            line.push(b'\n');
            Ok(line)
        },
    )?;
    if options.parquet {
        write_docviews_parquet(out)?;
    }
    let stats = CollectionStats::load(&work.join(STATS_FILE))?;
    stats.save(&out.join(STATS_FILE))?;
    merge_index_sets(&shard_outs, out)?;
    let mut counters = Counters::default();
    for shard in 0..plan.shards {
        add_counts(&mut counters, &FinalCounts::load(work, shard)?.counters);
    }
    for_each_line(&out.join(SKIPPED), |line: SkippedLine| {
        counters.skip(line.reason)
    })?;
    let mut state = RunState::new(settings);
    state.status = Status::Complete;
    state.counters = counters.clone();
    state.next_seq = counters.pages_read;
    state.elapsed_secs = started.elapsed().as_secs_f64();
    let state = state.with_note();
    state.save(&state_path)?;
    let summary = Summary {
        out: out.clone(),
        counters,
        stats_pages: stats.pages,
        aggressive_stopwords: stats.aggressive_stopwords.len(),
        site_templates: SiteTemplateFigures::of(&stats.site_templates),
        indexes: index_stats(out)?,
        elapsed_secs: state.elapsed_secs,
        resumed: false,
        replica_index: None,
        site_models: load_sites(work)?.figures,
        already_complete: false,
    };
    Ok(crate::output::write_json_atomically(
        &out.join(SUMMARY_FILE),
        &summary,
    )?)
}

/// Adds a shard's finalise counts to the run's (the skipped inputs are counted apart).
fn add_counts(counters: &mut Counters, c: &Counters) {
    counters.pages_read += c.pages_read;
    counters.kept += c.kept;
    counters.kept_empty += c.kept_empty;
    counters.kept_truncated += c.kept_truncated;
    counters.replicas_exact += c.replicas_exact;
    counters.replicas_near += c.replicas_near;
    counters.html_bytes += c.html_bytes;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::progress::Silent;
    use crate::stages::plan::{Stage, TaskOutcome, run_stages, run_task};
    use crate::stages::testing::schema::check_records;
    use crate::stages::testing::{options, planned};

    /// Runs every stage of `work`, two tasks at once; the outcomes.
    fn run_all(work: &Path) -> Vec<TaskOutcome> {
        let outcomes = std::sync::Mutex::new(Vec::new());
        let run = |stage: Stage, task: usize| run_task(work, stage, task);
        let progress = |_: Stage, _: usize, outcome: TaskOutcome, _: f64| {
            outcomes.lock().unwrap().push(outcome);
        };
        run_stages(work, 2, &run, &progress).expect("the stages");
        check_records(&Plan::load(work).expect("the plan").options.out);
        outcomes.into_inner().unwrap()
    }

    #[test]
    fn the_stages_write_the_output_of_one_process_byte_for_byte() {
        let dir = tempfile::tempdir().unwrap();
        let mut one = options(dir.path());
        one.out = dir.path().join("one");
        crate::ingest::ingest(&one, &Silent).expect("ingest");
        check_records(&one.out);
        for shards in [1, 3] {
            let many = tempfile::tempdir().unwrap();
            let mut sharded = options(dir.path());
            sharded.out = many.path().join("out");
            let (plan, work) = planned(sharded, shards, many.path());
            let ran = run_all(&work);
            let tasks: usize = Stage::ALL.iter().map(|s| plan.tasks(*s)).sum();
            assert_eq!(ran, vec![TaskOutcome::Ran; tasks]);
            for file in [DOCVIEWS, REPLICAS, SKIPPED, STATS_FILE] {
                let read = |d: &Path| std::fs::read(d.join(file)).unwrap();
                assert!(
                    read(&one.out) == read(&plan.options.out),
                    "{file}, {shards} shards"
                );
            }
            let state = RunState::load(&plan.options.out.join(STATE_FILE)).unwrap();
            assert_eq!(state.status, Status::Complete);
            assert_eq!(
                (state.counters.pages_read, state.counters.replicas_exact),
                (10, 1)
            );
            // Everything again: every task is done already.
            assert!(
                run_all(&work)
                    .iter()
                    .all(|o| *o == TaskOutcome::AlreadyDone)
            );
        }
    }

    #[test]
    fn shard_counts_add_up() {
        let mut total = Counters::default();
        let one = Counters {
            pages_read: 3,
            kept: 2,
            replicas_near: 1,
            html_bytes: 100,
            ..Counters::default()
        };
        add_counts(&mut total, &one);
        add_counts(&mut total, &one);
        assert_eq!(
            (
                total.pages_read,
                total.kept,
                total.replicas_near,
                total.html_bytes
            ),
            (6, 4, 2, 200)
        );
    }
}
