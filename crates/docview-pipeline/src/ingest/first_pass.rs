//! The first pass of the one-process ingest: every page cleaned (once), the collection
//! statistics built from the cleaned pages, and the pages written to the spill for the second
//! pass. Every `every` pages, and when the run is interrupted, it checkpoints: the spill synced
//! and its length recorded in the run state. A run stopped in its first pass resumes at its last
//! checkpoint: the statistics learn again from the spilled pages (no page is cleaned twice),
//! and the inputs go on after them.

use std::path::Path;

use rayon::prelude::*;

use crate::batches::{Batch, input_events, pipeline_batches};
use crate::event::Event;
use crate::extract::PageLimits;
use crate::input::{Inputs, RawPage};
use crate::interrupt::Interrupt;
use crate::progress::Progress;
use crate::records::Skip;
use crate::site::PageUrl;
use crate::spill::{CleanedPage, SpillWriter, read_spill};
use crate::state::{Counters, FirstPassCheckpoint};
use crate::stats::{CollectionStats, StatsBuilder, StopwordParams};
use crate::steps::{Cleaning, PageFeatures, Unreadable, clean_page, page_features};
use crate::text::Analyzer;
use crate::{Error, Interrupted, Result};

/// Spilled events whose features are computed together when a resumed first pass reads them
/// back.
const REPLAY_CHUNK: usize = 256;

/// Where the first pass starts and how it checkpoints.
pub(super) struct Checkpoints<'a> {
    /// The output folder (the spill's).
    pub(super) out: &'a Path,
    /// The checkpoint of an earlier session of the run to go on from.
    pub(super) from: Option<FirstPassCheckpoint>,
    /// Pages between checkpoints.
    pub(super) every: u64,
    /// Asked to stop: checkpoint after the batch at hand and end the run.
    pub(super) interrupt: &'a Interrupt,
    /// Records a checkpoint (in the run state), once the spill is synced up to it.
    pub(super) save: &'a mut dyn FnMut(FirstPassCheckpoint) -> Result<()>,
}

/// The first pass: cleans every page of the inputs, builds the collection statistics, and
/// writes the cleaned pages to the spill (complete and synced when it returns) for the second
/// pass.
pub(super) fn build_stats(
    inputs: Inputs,
    cleaning: Cleaning<'_>,
    limits: PageLimits,
    params: StopwordParams,
    pool: &rayon::ThreadPool,
    progress: &dyn Progress,
    checkpoints: Checkpoints<'_>,
) -> Result<CollectionStats> {
    let Checkpoints {
        out,
        from,
        every,
        interrupt,
        save,
    } = checkpoints;
    let analyzer = Analyzer::new();
    let mut builder = StatsBuilder::new();
    let mut counters = Counters::default();
    let mut spill = SpillWriter::open_at(out, from.map_or(0, |c| c.spill_bytes))?;
    let mut events_done = 0;
    if let Some(checkpoint) = from {
        let input_bytes = replay(
            out,
            checkpoint,
            &analyzer,
            pool,
            &mut builder,
            &mut counters,
        )?;
        events_done = checkpoint.events;
        progress.update(&counters, input_bytes);
    }
    let mut since_checkpoint = 0u64;
    pipeline_batches(
        move || input_events(inputs, events_done),
        |p: &RawPage| p.bytes.len(),
        pool,
        |batch| batch,
        |batch: Batch<RawPage>| {
            let cleaned: Vec<(std::result::Result<_, Unreadable>, Option<PageFeatures>)> = batch
                .events
                .par_iter()
                .filter_map(|e| match e {
                    Event::Page(p) => Some(p),
                    _ => None,
                })
                .map(|p| {
                    let url = PageUrl::parse(&p.url);
                    let topic = clean_page(
                        p,
                        cleaning.cleaner,
                        cleaning.sites.model_of(&url),
                        &limits,
                        cleaning.markdown,
                    );
                    let features = topic
                        .as_ref()
                        .ok()
                        .map(|t| page_features(&url, t, &analyzer));
                    (topic, features)
                })
                .collect();
            (batch, cleaned)
        },
        |(batch, cleaned)| {
            let events = batch.events.len() as u64;
            let mut cleaned = cleaned.into_iter();
            for event in batch.events {
                count(&event, &mut counters, |raw| raw.bytes.len() as u64);
                let event = event.map(|raw| {
                    let (topic, features) = cleaned.next().unwrap_or_else(|| {
                        (
                            Err(Unreadable {
                                origin: raw.origin.clone(),
                                reason: Skip::Unreadable,
                            }),
                            None,
                        )
                    });
                    if let Some(page) = features {
                        learn(&mut builder, page);
                    }
                    CleanedPage::of(raw, topic)
                });
                spill.write(event, batch.input_bytes)?;
            }
            events_done += events;
            since_checkpoint += events;
            progress.update(&counters, batch.input_bytes);
            let stop = interrupt.is_requested();
            if since_checkpoint >= every || stop {
                since_checkpoint = 0;
                let spill_bytes = spill.checkpoint()?;
                save(FirstPassCheckpoint {
                    events: events_done,
                    spill_bytes,
                })?;
            }
            if stop {
                return Err(Error::Interrupted {
                    out: out.to_path_buf(),
                    at: Interrupted::FirstPass(events_done),
                });
            }
            Ok(())
        },
    )?;
    spill.finish()?;
    Ok(builder.finish(params))
}

/// Counts an event for the progress display (`html_bytes` of its page, if any).
fn count<P>(event: &Event<P>, counters: &mut Counters, html_bytes: impl Fn(&P) -> u64) {
    match event {
        Event::Page(p) => {
            counters.pages_read += 1;
            counters.html_bytes += html_bytes(p);
        }
        Event::Skipped { reason, .. } => counters.skip(reason.clone()),
        Event::Malformed { .. } => counters.skip(Skip::Malformed),
    }
}

/// What the statistics learn of one cleaned page.
fn learn(builder: &mut StatsBuilder, page: PageFeatures) {
    builder.add_page(page.site.as_deref(), &page.title, page.terms);
    if let Some((host, text, key)) = page.host_text {
        builder.add_site_page(&host, &text, key);
    }
}

/// A resumed first pass: the statistics learn from the pages the spill holds up to
/// `checkpoint`, in input order, as they did before the run stopped. Gives how far into the
/// inputs they reach.
fn replay(
    out: &Path,
    checkpoint: FirstPassCheckpoint,
    analyzer: &Analyzer,
    pool: &rayon::ThreadPool,
    builder: &mut StatsBuilder,
    counters: &mut Counters,
) -> Result<u64> {
    let mut spilled = read_spill(out, 0)?;
    let mut read = 0u64;
    let mut input_bytes = 0u64;
    while read < checkpoint.events {
        let mut chunk = Vec::with_capacity(REPLAY_CHUNK);
        for item in spilled.by_ref() {
            let (event, bytes) = item?;
            input_bytes = bytes;
            chunk.push(event);
            read += 1;
            if chunk.len() == REPLAY_CHUNK || read == checkpoint.events {
                break;
            }
        }
        if chunk.is_empty() {
            return Err(Error::BrokenSpill {
                path: out.join(crate::spill::SPILL_FILE),
                why: format!(
                    "the first pass's checkpoint counts {} input records, the spill holds {read}",
                    checkpoint.events
                ),
            });
        }
        let features: Vec<Option<PageFeatures>> = pool.install(|| {
            chunk
                .par_iter()
                .map(|event| match event {
                    Event::Page(CleanedPage {
                        url,
                        topic: Ok(topic),
                        ..
                    }) => Some(page_features(&PageUrl::parse(url), topic, analyzer)),
                    _ => None,
                })
                .collect()
        });
        for (event, page) in chunk.iter().zip(features) {
            count(event, counters, |c| c.html_bytes);
            if let Some(page) = page {
                learn(builder, page);
            }
        }
    }
    Ok(input_bytes)
}
