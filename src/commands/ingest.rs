//! `docview ingest`: the whole pipeline over a crawled collection, with its progress display
//! and summary.

use std::path::{Path, PathBuf};

use anyhow::{Result, bail};
use docview::pipeline::{Counters, ingest};

use crate::flags::IngestArgs;
use crate::progress::Bar;

/// `docview ingest`.
pub fn run(args: IngestArgs) -> Result<()> {
    let bar = Bar::new(args.quiet, args.progress_every);
    let options = args.into_options()?;
    crate::interrupt::on_ctrl_c(
        &options.interrupt,
        crate::interrupt::Said {
            stopping: "what it did is made durable".to_string(),
            at_once: "--resume continues from the last checkpoint".to_string(),
        },
    );
    let summary = ingest(&options, &bar)?;
    out!("{}", summary.render());
    refuse_unused_inputs(&summary.counters, &options.inputs, &options.out)
}

/// The error of a run that used nothing it read (no page kept, no replica found: see
/// [`Counters::used_nothing`]), naming each input with what was looked for in it and the
/// skips by reason; `Ok` for a run that used something. `docview stages pool` ends the same
/// way.
pub fn refuse_unused_inputs(counters: &Counters, inputs: &[PathBuf], out: &Path) -> Result<()> {
    if !counters.used_nothing() {
        return Ok(());
    }
    let skipped = counters.skipped_total();
    let listed = if skipped > 0 {
        let reasons: Vec<String> = counters
            .skipped
            .iter()
            .map(|(reason, n)| format!("{n} {reason}"))
            .collect();
        format!(
            "; {skipped} inputs skipped ({}), each with its reason in {}",
            reasons.join(", "),
            out.join(docview::records::SKIPPED).display()
        )
    } else {
        String::new()
    };
    let read = match counters.pages_read {
        0 => "no page was read".to_string(),
        n => format!("no page was kept of the {n} read"),
    };
    bail!("{read}: {}{listed}", no_page_reasons(inputs))
}

/// What to tell of inputs that gave no page: each input by name, with what was looked for in
/// it.
fn no_page_reasons(inputs: &[PathBuf]) -> String {
    const CRAWL: &str = "no HTML response or resource record of a WARC file, no {\"url\", \
                         \"html\"} line of a JSON Lines file, no HTML page";
    let each: Vec<String> = inputs
        .iter()
        .map(|input| {
            if input.as_os_str() == "-" {
                format!("standard input held no page ({CRAWL})")
            } else if input.is_dir() {
                format!(
                    "{} is a folder with no page: no .html or .htm page, no .warc or .jsonl \
                     file (or their .gz) that holds one",
                    input.display()
                )
            } else {
                format!("{} is a file with no page ({CRAWL})", input.display())
            }
        })
        .collect();
    each.join("; ")
}
