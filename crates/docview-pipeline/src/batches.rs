//! Batches of input events, read on one thread while the workers process the batch before:
//! the streaming that both passes of the one-process ingest and the site models' pass run on.

use std::sync::mpsc::{Receiver, sync_channel};

use crate::Result;
use crate::event::Event;
use crate::input::{Inputs, RawPage};

/// Pages per batch handed to the workers.
const BATCH_PAGES: usize = 64;
/// Most HTML bytes per batch.
const BATCH_BYTES: usize = 32 << 20;

/// A batch of events and how far into the inputs it reaches.
pub(crate) struct Batch<P> {
    pub(crate) events: Vec<Event<P>>,
    pub(crate) input_bytes: u64,
}

/// Reads events on this thread and sends them in batches.
fn send_batches<P>(
    events: impl Iterator<Item = Result<(Event<P>, u64)>>,
    bytes_of: impl Fn(&P) -> usize,
    tx: std::sync::mpsc::SyncSender<Result<Batch<P>>>,
) {
    let mut batch = Vec::with_capacity(BATCH_PAGES);
    let mut bytes = 0usize;
    let mut reached = 0u64;
    for item in events {
        let (event, input_bytes) = match item {
            Ok(e) => e,
            Err(e) => {
                let _ = tx.send(Err(e));
                return;
            }
        };
        reached = input_bytes;
        if let Event::Page(p) = &event {
            bytes += bytes_of(p);
        }
        batch.push(event);
        if batch.len() >= BATCH_PAGES || bytes >= BATCH_BYTES {
            let full = Batch {
                events: std::mem::replace(&mut batch, Vec::with_capacity(BATCH_PAGES)),
                input_bytes: reached,
            };
            bytes = 0;
            if tx.send(Ok(full)).is_err() {
                return;
            }
        }
    }
    if !batch.is_empty() {
        let _ = tx.send(Ok(Batch {
            events: batch,
            input_bytes: reached,
        }));
    }
}

/// The events of `inputs` after the first `skip`, each with the input bytes read so far.
pub(crate) fn input_events(
    mut inputs: Inputs,
    skip: u64,
) -> impl Iterator<Item = Result<(Event<RawPage>, u64)>> {
    let mut skipped = 0;
    while skipped < skip {
        if inputs.next().is_none() {
            break;
        }
        skipped += 1;
    }
    let consumed = inputs.progress();
    inputs.map(move |e| Ok((Event::of(e, |p| p), consumed.bytes_read())))
}

/// Runs `each` over the batches of `events` while a scoped thread reads them.
pub(crate) fn stream_batches<P: Send, I>(
    events: impl FnOnce() -> I + Send,
    bytes_of: impl Fn(&P) -> usize + Send,
    mut each: impl FnMut(Batch<P>) -> Result<()>,
) -> Result<()>
where
    I: Iterator<Item = Result<(Event<P>, u64)>>,
{
    std::thread::scope(|scope| {
        let (tx, rx): (_, Receiver<Result<Batch<P>>>) = sync_channel(2);
        scope.spawn(move || send_batches(events(), bytes_of, tx));
        for batch in rx {
            each(batch?)?;
        }
        Ok(())
    })
}

/// Runs each batch of `events` through three steps: `prepare` on this thread, `work` in `pool`
/// (where it may go parallel), and `finish` back on this thread, one batch behind: the `finish`
/// of a batch (its sequential writing and counting) runs while the pool works on the next one,
/// so the workers do not stand idle through it. Batches reach `finish` in input order; at most
/// one batch's results wait for it.
pub(crate) fn pipeline_batches<P: Send, I, B: Send, W: Send>(
    events: impl FnOnce() -> I + Send,
    bytes_of: impl Fn(&P) -> usize + Send,
    pool: &rayon::ThreadPool,
    mut prepare: impl FnMut(Batch<P>) -> B,
    work: impl Fn(B) -> W + Sync,
    mut finish: impl FnMut(W) -> Result<()>,
) -> Result<()>
where
    I: Iterator<Item = Result<(Event<P>, u64)>>,
{
    let mut pending: Option<W> = None;
    stream_batches(events, bytes_of, |batch| {
        let prepared = prepare(batch);
        let mut done = None;
        let finished = pool.in_place_scope(|scope| {
            let (slot, work) = (&mut done, &work);
            scope.spawn(move |_| *slot = Some(work(prepared)));
            pending.take().map_or(Ok(()), &mut finish)
        });
        finished?;
        pending = done;
        Ok(())
    })?;
    pending.map_or(Ok(()), finish)
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::Error;
    use rayon::prelude::*;

    /// Events of `n` pages (each page its number), one input byte each.
    fn numbers(n: u64) -> impl Iterator<Item = Result<(Event<u64>, u64)>> {
        (0..n).map(|i| Ok((Event::Page(i), i + 1)))
    }

    #[test]
    fn pipelined_batches_finish_in_input_order_one_behind() {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .expect("pool");
        let (mut prepared, mut finished) = (Vec::new(), Vec::new());
        // Each batch's work squares its pages; finish sees them in order, once each.
        pipeline_batches(
            || numbers(1000),
            |_| 1,
            &pool,
            |batch: Batch<u64>| {
                prepared.push(batch.events.len());
                batch
            },
            |batch: Batch<u64>| -> Vec<u64> {
                batch
                    .events
                    .par_iter()
                    .map(|e| match e {
                        Event::Page(i) => i * i,
                        _ => u64::MAX,
                    })
                    .collect()
            },
            |squares| {
                finished.extend(squares);
                Ok(())
            },
        )
        .expect("no error");
        assert_eq!(finished, (0..1000u64).map(|i| i * i).collect::<Vec<_>>());
        assert_eq!(prepared.iter().sum::<usize>(), 1000);
        assert!(prepared.len() > 1, "more than one batch: {prepared:?}");
        // An error from finish stops the run and is returned.
        let mut calls = 0;
        let err = pipeline_batches(
            || numbers(1000),
            |_| 1,
            &pool,
            |batch: Batch<u64>| batch,
            |batch: Batch<u64>| batch.events.len(),
            |_| {
                calls += 1;
                Err(Error::bad_input("x", "stop"))
            },
        );
        assert!(err.is_err());
        assert_eq!(calls, 1);
    }
}
