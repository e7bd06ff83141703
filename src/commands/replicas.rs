//! `docview replicas build` and `docview replicas eval`: the replica benchmark of real pages
//! and the fingerprints measured on it.

use anyhow::Result;
use docview::clean::{Favor, cleaner_with_model};
use docview::replica_benchmark::benchmark::build_benchmark;
use docview::replica_benchmark::evaluate::{evaluate_benchmark, minhash_detectors};

use crate::flags::{BuildArgs, ReplicasEvalArgs};

/// `docview replicas build`.
pub fn build(args: BuildArgs) -> Result<()> {
    let options = args.options()?;
    let start = std::time::Instant::now();
    let report = build_benchmark(&args.set, &args.out, &options)?;
    outln!(
        "{}: {} pages, {} usable: {} base pages (each with a near-replica and a non-replica), \
         {} donors; {} left out; {:.1} s",
        report.set,
        report.pages,
        report.usable,
        report.base,
        report.donors,
        report.skipped.len(),
        start.elapsed().as_secs_f64()
    );
    for (reason, n) in &report.skipped_by_reason {
        outln!("  left out, {reason}: {n}");
    }
    outln!("written to {}", args.out.display());
    Ok(())
}

/// `docview replicas eval`.
pub fn eval(args: ReplicasEvalArgs) -> Result<()> {
    let cleaner = cleaner_with_model(args.cleaner, args.model.as_deref(), Favor::default())?;
    let report = evaluate_benchmark(
        &args.dir,
        cleaner.as_ref(),
        args.threads,
        &minhash_detectors(&[0.3, 0.5, 0.7]),
    )?;
    out!("{}", report.render());
    outln!(
        "cleaning {:.1} s, detectors {:.1} s",
        report.extract_secs,
        report.detect_secs
    );
    let path = args.report.unwrap_or_else(|| args.dir.join("eval.json"));
    docview::output::write_json_atomically(&path, &report)?;
    outln!("report written to {}", path.display());
    Ok(())
}
