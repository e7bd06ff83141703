//! The second pass of the one-process ingest: from the run state's last commit to the end of
//! the inputs, each batch numbered, processed by the workers (cleaned unless the first pass
//! did, integrated, fingerprinted) and handed to the ordered [`Sink`] in input order, with a
//! commit every `commit_every` pages, and one after the batch at hand when the run is
//! interrupted.

use std::time::Instant;

use rayon::prelude::*;

use super::sink::Sink;
use crate::batches::{Batch, input_events, pipeline_batches};
use crate::event::Event;
use crate::progress::{Phase, Progress};
use crate::records::{Skip, SkippedLine};
use crate::replica::{Detection, MinHasher};
use crate::settings::IngestOptions;
use crate::spill::{PageWork, SPILL_FILE, read_spill};
use crate::state::{RunState, STATE_FILE};
use crate::stats::CollectionStats;
use crate::steps::{Cleaning, Processed, Unreadable, Worker, process_page};
use crate::summary::ReplicaIndexMemory;
use crate::text::Analyzer;
use crate::{Error, Interrupted, Result};

/// Malformed records told on standard error, each with its offset; the rest are only counted
/// (all are in `skipped.jsonl`).
const MALFORMED_NOTES: u64 = 20;

/// A batch of the second pass, its pages numbered: what the workers of [`run_ingest`] take.
struct NumberedBatch {
    /// Per event in input order: `None` for a page, else the line of a record passed over.
    order: Vec<Option<SkippedLine>>,
    /// The pages and their sequence numbers.
    pages: Vec<(u64, PageWork)>,
    /// Events in the batch.
    events: u64,
    /// How far into the inputs the batch reaches.
    input_bytes: u64,
}

/// A batch of the second pass, its pages processed: what [`run_ingest`] hands to the sink.
struct ProcessedBatch {
    /// As [`NumberedBatch::order`].
    order: Vec<Option<SkippedLine>>,
    /// Each page's outcome, in order.
    results: Vec<std::result::Result<Processed, Unreadable>>,
    /// Pages in the batch.
    pages: u64,
    /// Events in the batch.
    events: u64,
    /// How far into the inputs the batch reaches.
    input_bytes: u64,
}

/// The second pass, from the state's last commit to the end of the inputs.
pub(super) fn run_ingest(
    options: &IngestOptions,
    input_bytes: Option<u64>,
    cleaning: Cleaning<'_>,
    stats: &CollectionStats,
    pool: &rayon::ThreadPool,
    state: &mut RunState,
    progress: &dyn Progress,
) -> Result<Option<ReplicaIndexMemory>> {
    let out = &options.out;
    let state_path = out.join(STATE_FILE);
    let session = Instant::now();
    let base_secs = state.elapsed_secs;
    let minhasher = match options.detection {
        Detection::MinHash => Some(MinHasher::new(options.minhash)?),
        Detection::Exact | Detection::Keyword => None,
    };
    if !options.earlier.is_empty() {
        progress.note(&format!(
            "reading the kept pages of {} earlier run(s)",
            options.earlier.len()
        ));
    }
    let mut sink = Sink::open(out, state, options)?;
    let worker = Worker {
        classifier: cleaning.classifier,
        cleaner: cleaning.cleaner,
        sites: cleaning.sites,
        analyzer: Analyzer::new().with_aggressive_stopwords(stats.aggressive_stopwords.clone()),
        stats,
        integrate: options.integrate,
        keyword: options.keyword,
        minhash: minhasher.as_ref(),
        limits: options.limits,
        markdown: options.markdown,
    };
    let mut counters = state.counters.clone();
    let mut next_seq = state.next_seq;
    let mut events_done = state.events_done;
    let mut since_commit = 0u64;
    progress.start(Phase::Ingest, input_bytes);
    let skip = state.events_done;
    let mut next_seq_done = state.next_seq;
    let mut malformed = counters.skipped.get(&Skip::Malformed).copied().unwrap_or(0);
    // Numbers the pages of a batch, in input order; notes its first malformed records.
    let prepare = |batch: Batch<PageWork>| -> NumberedBatch {
        let events = batch.events.len() as u64;
        // Each event's outcome goes out in input order: a skipped record's line between the
        // pages around it, whatever the batch size.
        let mut order: Vec<Option<SkippedLine>> = Vec::with_capacity(batch.events.len());
        let mut pages: Vec<(u64, PageWork)> = Vec::new();
        for event in batch.events {
            if let Event::Malformed { origin, message } = &event {
                if malformed < MALFORMED_NOTES {
                    progress.note(&format!("{origin}: {message} (skipped)"));
                }
                malformed += 1;
            }
            match event.into_page() {
                Ok(page) => {
                    pages.push((next_seq, page));
                    next_seq += 1;
                    order.push(None);
                }
                Err(line) => order.push(Some(line)),
            }
        }
        NumberedBatch {
            order,
            pages,
            events,
            input_bytes: batch.input_bytes,
        }
    };
    // Cleans (unless the first pass did) and integrates the pages of a batch, in parallel.
    let work = |batch: NumberedBatch| -> ProcessedBatch {
        let pages = batch.pages.len() as u64;
        let results = batch
            .pages
            .into_par_iter()
            .map(|(seq, page)| match page {
                PageWork::Raw(raw) => process_page(raw, seq, &worker),
                PageWork::Cleaned(c) => c.integrate(seq, &worker),
            })
            .collect();
        ProcessedBatch {
            order: batch.order,
            results,
            pages,
            events: batch.events,
            input_bytes: batch.input_bytes,
        }
    };
    // Hands a batch's outcomes to the sink in input order, and commits every so often.
    let finish = |batch: ProcessedBatch| -> Result<()> {
        counters.pages_read += batch.pages;
        since_commit += batch.pages;
        next_seq_done += batch.pages;
        let mut results = batch.results.into_iter();
        for skipped in batch.order {
            let result = match skipped {
                Some(line) => {
                    sink.skip(&line, &mut counters)?;
                    continue;
                }
                None => results.next(),
            };
            match result {
                Some(Ok(page)) => sink.accept(page, &mut counters)?,
                Some(Err(u)) => sink.skip(
                    &SkippedLine {
                        origin: u.origin,
                        reason: u.reason,
                        detail: String::new(),
                    },
                    &mut counters,
                )?,
                None => {}
            }
        }
        events_done += batch.events;
        progress.update(&counters, batch.input_bytes);
        let stop = options.interrupt.is_requested();
        if since_commit >= options.commit_every || stop {
            since_commit = 0;
            state.events_done = events_done;
            state.next_seq = next_seq_done;
            state.counters = counters.clone();
            state.elapsed_secs = base_secs + session.elapsed().as_secs_f64();
            sink.commit(state, &state_path)?;
        }
        if stop {
            return Err(Error::Interrupted {
                out: out.clone(),
                at: Interrupted::SecondPass(counters.pages_read),
            });
        }
        Ok(())
    };
    if out.join(SPILL_FILE).exists() {
        // The pages the first pass cleaned.
        let events = read_spill(out, skip)?;
        pipeline_batches(
            move || {
                events.map(|item| {
                    item.map(|(event, bytes)| {
                        (event.map(|c| PageWork::Cleaned(Box::new(c))), bytes)
                    })
                })
            },
            PageWork::bytes,
            pool,
            prepare,
            work,
            finish,
        )?;
    } else {
        let inputs = options.open_inputs()?;
        pipeline_batches(
            move || {
                input_events(inputs, skip).map(|item| item.map(|(e, b)| (e.map(PageWork::Raw), b)))
            },
            PageWork::bytes,
            pool,
            prepare,
            work,
            finish,
        )?;
    }
    state.events_done = events_done;
    state.next_seq = next_seq_done;
    state.counters = counters;
    state.elapsed_secs = base_secs + session.elapsed().as_secs_f64();
    sink.commit(state, &state_path)?;
    let memory = sink.replica_index_memory();
    sink.finish()?;
    progress.finish();
    Ok(memory)
}
