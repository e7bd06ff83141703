//! `docview compare`: the three indexes of an ingest side by side, as tables and a report.

use anyhow::Result;
use docview::compare::{compare, write_report};

use crate::flags::CompareArgs;

/// `docview compare`.
pub fn run(args: CompareArgs) -> Result<()> {
    let options = args.options();
    let report = compare(&options)?;
    out!("{}", report.render_table());
    let out = args.out.unwrap_or(args.dir);
    write_report(&report, &out)?;
    eprintln!(
        "report written to {} and {}",
        out.join(docview::index::COMPARE_JSON).display(),
        out.join(docview::index::COMPARE_HTML).display()
    );
    Ok(())
}
