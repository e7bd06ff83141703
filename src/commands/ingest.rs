//! `docview ingest`: the whole pipeline over a crawled collection, with its progress display
//! and summary.

use std::path::PathBuf;

use anyhow::Result;
use docview::pipeline::ingest;

use crate::flags::IngestArgs;
use crate::progress::Bar;

/// `docview ingest`.
pub fn run(args: IngestArgs) -> Result<()> {
    let bar = Bar::new(args.quiet, args.progress_every);
    let options = args.into_options()?;
    crate::interrupt::on_ctrl_c(&options.interrupt);
    let summary = ingest(&options, &bar)?;
    out!("{}", summary.render());
    if summary.counters.pages_read == 0 {
        let skipped = summary.counters.skipped_total();
        let listed = if skipped > 0 {
            format!(
                " ({skipped} inputs skipped, each with its reason in {})",
                options.out.join(docview::records::SKIPPED).display()
            )
        } else {
            String::new()
        };
        eprintln!(
            "docview: warning: {}{listed}",
            no_page_warning(&options.inputs)
        );
    }
    Ok(())
}

/// What to tell of inputs that held no page: each input by name, with what was looked for in
/// it.
fn no_page_warning(inputs: &[PathBuf]) -> String {
    let each: Vec<String> = inputs
        .iter()
        .map(|input| {
            if input.as_os_str() == "-" {
                "standard input held no JSON Lines {\"url\", \"html\"} line".to_string()
            } else if input.is_dir() {
                format!(
                    "{} is a folder with no page: no .html, .htm, .warc or .jsonl file (or \
                     their .gz) in it",
                    input.display()
                )
            } else {
                format!(
                    "{} is a file with no page: no HTML response or resource record of a WARC \
                     or ARC file, no {{\"url\", \"html\"}} line of a JSON Lines file",
                    input.display()
                )
            }
        })
        .collect();
    format!("no page was read: {}", each.join("; "))
}
