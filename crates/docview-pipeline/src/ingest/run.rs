//! A whole one-process run, [`ingest`]: the checks before anything is written, the folder's
//! lock, a new run or the one to resume, the site models, the first pass (or the statistics
//! given), the second pass and the end of the run (replica URLs, Parquet, summary).

use std::path::Path;
use std::time::Instant;

use super::first_pass::{Checkpoints, build_stats};
use super::second_pass::run_ingest;
use crate::clean::{Cleaner, cleaner_with_model};
use crate::earlier;
use crate::folder::{
    OUTPUT_LAYOUT, STATS_FILE, SUMMARY_FILE, nothing_to_resume, prepare_out_dir,
    remove_half_written, remove_spill,
};
use crate::index::index_stats;
use crate::input::Inputs;
use crate::lock::FolderLock;
use crate::progress::{Phase, Progress};
use crate::records::{fill_replica_urls, write_docviews_parquet};
use crate::settings::{Classifiers, IngestOptions, RunSettings};
use crate::sites::{SITE_SAMPLE_BUDGET, SITE_SAMPLE_PAGES, SiteModels, learn_site_models};
use crate::spill::SPILL_FILE;
use crate::state::{RunState, STATE_FILE, Status};
use crate::stats::CollectionStats;
use crate::steps::Cleaning;
use crate::summary::{SiteTemplateFigures, Summary};
use crate::{Error, Result};

/// Runs an ingest (or continues one with `options.resume`).
pub fn ingest(options: &IngestOptions, progress: &dyn Progress) -> Result<Summary> {
    options.validate()?;
    let started = Instant::now();
    let out = &options.out;
    let state_path = out.join(STATE_FILE);
    let cleaner = cleaner_with_model(options.cleaner, options.model.as_deref(), options.favor)?;
    // Loaded before anything is read: a bad model file is told at once.
    let classifier = options.classifier.load_with(&options.subjects)?;
    let pool = crate::thread_pool(options.threads)?;
    let from_stdin = options.inputs.iter().any(|i| i.as_os_str() == "-");
    let site_aware = cleaner.site_learner().is_some() && !options.pages_alone;
    if site_aware && cleaner.needs_site_models() && from_stdin {
        return Err(Error::ReadsTwice {
            cleaner: cleaner.kind(),
        });
    }
    // Every input is checked before anything is written: a bad path leaves no output behind.
    // The checked inputs serve the first pass, if there is one.
    let inputs = options.open_inputs()?;
    let input_bytes = inputs.total_bytes();
    let settings = options.settings(input_bytes)?;
    earlier::EarlierRuns::check(options)?;
    if options.resume && !state_path.exists() {
        // Nothing to resume, and nothing created to say so.
        return Err(nothing_to_resume(out));
    }
    // One run at a time in `out`, from before anything in it is touched to the end of the run.
    let _lock = FolderLock::exclusive_for_run(out, &OUTPUT_LAYOUT)?;
    let checked = Checked {
        started,
        cleaner,
        classifier,
        pool,
        from_stdin,
        site_aware,
        inputs,
        input_bytes,
        settings,
    };
    match run_locked(options, progress, checked) {
        Err(e) if e.is_storage_full() => Err(give_room_back(out, e)),
        result => result,
    }
}

/// What the checks before a run takes its folder give it.
struct Checked {
    started: Instant,
    cleaner: Box<dyn Cleaner>,
    classifier: Option<Classifiers>,
    pool: rayon::ThreadPool,
    from_stdin: bool,
    site_aware: bool,
    inputs: Inputs,
    input_bytes: Option<u64>,
    settings: RunSettings,
}

/// After a run stopped on a full disk (`full`): removes the first pass's spill, which may be
/// what filled it and is the one file of the run that the run can do without (a resumed run
/// cleans the pages again), and forgets the first pass's checkpoint in it.
fn give_room_back(out: &Path, full: Error) -> Error {
    let spill = out.join(SPILL_FILE);
    let Ok(freed) = std::fs::metadata(&spill).map(|m| m.len()) else {
        return full;
    };
    if remove_spill(out).is_err() {
        return full;
    }
    let state_path = out.join(STATE_FILE);
    if let Ok(mut state) = RunState::load(&state_path)
        && state.first_pass.take().is_some()
    {
        // Best effort: a resumed run also starts its first pass again when the spill is gone.
        let _ = state.with_note().save(&state_path);
    }
    Error::SpillRemoved {
        source: Box::new(full),
        freed,
    }
}

/// The run, under the lock of its output folder.
fn run_locked(
    options: &IngestOptions,
    progress: &dyn Progress,
    checked: Checked,
) -> Result<Summary> {
    let Checked {
        started,
        cleaner,
        classifier,
        pool,
        from_stdin,
        site_aware,
        inputs,
        input_bytes,
        settings,
    } = checked;
    let out = &options.out;
    let state_path = out.join(STATE_FILE);
    let mut state = if options.resume {
        let state = resume_state(out, &state_path, &settings)?;
        if state.status == Status::Complete {
            let mut summary: Summary =
                crate::output::read_json(&out.join(SUMMARY_FILE), "a docview ingest summary")?;
            summary.already_complete = true;
            return Ok(summary);
        }
        // What the killed run was writing when it stopped: no commit names it.
        remove_half_written(out)?;
        progress.note(&format!(
            "resuming {}: {} pages committed ({} kept), continuing after input event {}",
            out.display(),
            state.counters.pages_read,
            state.counters.kept,
            state.events_done
        ));
        state
    } else {
        prepare_out_dir(out, options.overwrite)?;
        // The state goes first, so a run stopped during the first pass can be resumed too.
        let state = RunState::new(settings);
        state.save(&state_path)?;
        state
    };
    let stats_path = out.join(STATS_FILE);
    // A site-aware cleaner needs its site models wherever pages are cleaned: in the first
    // pass, or in the second when there is no spill of cleaned pages to read.
    let cleans_pages = !stats_path.exists() || !out.join(SPILL_FILE).exists();
    if site_aware && from_stdin && cleans_pages {
        progress.note(&format!(
            "standard input can be read only once: --cleaner {} cleans each page without its \
             site's model",
            cleaner.name()
        ));
    }
    let sites = if site_aware && !from_stdin && state.status == Status::Running && cleans_pages {
        progress.note(&format!(
            "learning the site models of --cleaner {} (each host's first {SITE_SAMPLE_PAGES} \
             pages, {SITE_SAMPLE_BUDGET} pages in all)",
            cleaner.name()
        ));
        learn_site_models(
            options.open_inputs()?,
            cleaner.as_ref(),
            options.limits,
            &pool,
        )?
    } else {
        SiteModels::default()
    };
    let stats = if stats_path.exists() {
        CollectionStats::load(&stats_path)?
    } else if state.commits > 0 {
        return Err(Error::StatsMissing {
            out: out.to_path_buf(),
        });
    } else {
        let base_secs = state.elapsed_secs;
        let stats = match &options.stats_file {
            Some(path) => {
                progress.note(&format!("collection statistics from {}", path.display()));
                CollectionStats::load(path)?
            }
            None => {
                progress.start(Phase::Statistics, input_bytes);
                let spilled = std::fs::metadata(out.join(SPILL_FILE)).map_or(0, |m| m.len());
                // Without its spill (removed on a full disk), a checkpoint is no use.
                let from = state.first_pass.filter(|c| c.spill_bytes <= spilled);
                if let Some(checkpoint) = from {
                    progress.note(&format!(
                        "resuming the first pass after {} input records (the spill's)",
                        checkpoint.events
                    ));
                }
                let mut save = |checkpoint| {
                    state.first_pass = Some(checkpoint);
                    state.elapsed_secs = base_secs + started.elapsed().as_secs_f64();
                    state.set_note();
                    state.save(&state_path)
                };
                // The spill is complete on disk when it returns, before stats.json says the
                // first pass is over.
                let stats = build_stats(
                    inputs,
                    Cleaning {
                        cleaner: cleaner.as_ref(),
                        sites: &sites,
                        classifier: None,
                        markdown: options.markdown,
                    },
                    options.limits,
                    options.stopwords,
                    &pool,
                    progress,
                    Checkpoints {
                        out,
                        from,
                        every: options.commit_every,
                        interrupt: &options.interrupt,
                        save: &mut save,
                    },
                )?;
                progress.finish();
                stats
            }
        };
        stats.save(&stats_path)?;
        // The first pass counts towards the run's time.
        state.elapsed_secs = base_secs + started.elapsed().as_secs_f64();
        state.first_pass = None;
        state = state.with_note();
        state.save(&state_path)?;
        stats
    };
    // A run stopped between stats.json and the state that follows it.
    state.first_pass = None;
    let resumed = options.resume;
    let mut replica_index = None;
    if state.status == Status::Running {
        replica_index = run_ingest(
            options,
            input_bytes,
            Cleaning {
                cleaner: cleaner.as_ref(),
                sites: &sites,
                classifier: classifier.as_ref().map(Classifiers::classifier_ref),
                markdown: options.markdown,
            },
            &stats,
            &pool,
            &mut state,
            progress,
        )?;
    }
    if state.status != Status::Complete {
        state.status = Status::Finishing;
        state = state.with_note();
        state.save(&state_path)?;
        fill_replica_urls(out)?;
        if options.parquet {
            write_docviews_parquet(out)?;
        }
        state.status = Status::Complete;
        state = state.with_note();
        state.save(&state_path)?;
    }
    remove_spill(out)?;
    let summary = Summary {
        out: out.clone(),
        counters: state.counters.clone(),
        stats_pages: stats.pages,
        aggressive_stopwords: stats.aggressive_stopwords.len(),
        site_templates: SiteTemplateFigures::of(&stats.site_templates),
        indexes: index_stats(out)?,
        elapsed_secs: state.elapsed_secs,
        resumed,
        replica_index,
        site_models: sites.figures,
        already_complete: false,
    };
    crate::output::write_json_atomically(&out.join(SUMMARY_FILE), &summary)?;
    Ok(summary)
}

/// The state of the run to resume in `out`, checked against this run's settings.
fn resume_state(out: &Path, state_path: &Path, settings: &RunSettings) -> Result<RunState> {
    if !state_path.exists() {
        return Err(nothing_to_resume(out));
    }
    let state = RunState::load(state_path)?;
    if &state.settings != settings {
        return Err(Error::ResumeDiffers {
            out: out.to_path_buf(),
            differences: state.settings.differences(settings),
        });
    }
    Ok(state)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::FirstPassCheckpoint;

    #[test]
    fn a_full_disk_gets_the_spill_s_room_back_and_the_checkpoint_is_forgotten() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path();
        std::fs::write(out.join(SPILL_FILE), vec![7u8; 4096]).unwrap();
        let options = IngestOptions::new(vec![out.to_path_buf()], out.to_path_buf());
        let mut state = RunState::new(options.settings(Some(1)).unwrap());
        state.first_pass = Some(FirstPassCheckpoint {
            events: 3,
            spill_bytes: 4096,
        });
        state.save(&out.join(STATE_FILE)).unwrap();
        let full = Error::io(
            out.join(SPILL_FILE),
            std::io::Error::from(std::io::ErrorKind::StorageFull),
        );
        assert!(full.is_storage_full());
        let told = give_room_back(out, full);
        assert!(told.is_storage_full());
        let message = told.to_string();
        assert!(message.contains("(4096 bytes) was removed"), "{message}");
        assert!(message.contains("--resume"), "{message}");
        assert!(!out.join(SPILL_FILE).exists());
        let state = RunState::load(&out.join(STATE_FILE)).unwrap();
        assert_eq!(state.first_pass, None);
        // Another error, or no spill: told as it is.
        let other = Error::io(out.join("x"), std::io::Error::other("no"));
        assert!(!other.is_storage_full());
        let again = Error::io(out.join("x"), std::io::ErrorKind::StorageFull.into());
        assert!(!matches!(
            give_room_back(out, again),
            Error::SpillRemoved { .. }
        ));
    }
}
