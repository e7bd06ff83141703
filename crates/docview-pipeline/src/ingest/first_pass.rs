//! The first pass of the one-process ingest: every page cleaned (once), the collection
//! statistics built from the cleaned pages, and the pages written to the spill for the second
//! pass.

use rayon::prelude::*;

use crate::Result;
use crate::batches::{Batch, input_events, pipeline_batches};
use crate::event::Event;
use crate::extract::PageLimits;
use crate::input::{Inputs, RawPage};
use crate::progress::Progress;
use crate::records::Skip;
use crate::site::PageUrl;
use crate::spill::{CleanedPage, SpillWriter};
use crate::state::Counters;
use crate::stats::{CollectionStats, StatsBuilder, StopwordParams};
use crate::steps::{Cleaning, PageFeatures, Unreadable, clean_page, page_features};
use crate::text::Analyzer;

/// The first pass: cleans every page of the inputs, builds the collection statistics, and
/// writes the cleaned pages to `spill` for the second pass.
pub(super) fn build_stats(
    inputs: Inputs,
    cleaning: Cleaning<'_>,
    limits: PageLimits,
    params: StopwordParams,
    pool: &rayon::ThreadPool,
    progress: &dyn Progress,
    mut spill: Option<&mut SpillWriter>,
) -> Result<CollectionStats> {
    let analyzer = Analyzer::new();
    let mut builder = StatsBuilder::new();
    let mut counters = Counters::default();
    pipeline_batches(
        move || input_events(inputs, 0),
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
            for event in &batch.events {
                match event {
                    Event::Page(p) => {
                        counters.pages_read += 1;
                        counters.html_bytes += p.bytes.len() as u64;
                    }
                    Event::Skipped { reason, .. } => counters.skip(reason.clone()),
                    Event::Malformed { .. } => counters.skip(Skip::Malformed),
                }
            }
            let mut cleaned = cleaned.into_iter();
            for event in batch.events {
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
                        builder.add_page(page.site.as_deref(), &page.title, page.terms);
                        if let Some((host, text, key)) = page.host_text {
                            builder.add_site_page(&host, &text, key);
                        }
                    }
                    CleanedPage {
                        url: raw.url,
                        origin: raw.origin,
                        html_bytes: raw.bytes.len() as u64,
                        topic,
                    }
                });
                if let Some(spill) = spill.as_deref_mut() {
                    spill.write(event, batch.input_bytes)?;
                }
            }
            progress.update(&counters, batch.input_bytes);
            Ok(())
        },
    )?;
    Ok(builder.finish(params))
}
