//! `docview eval`: score a cleaner (or every cleaner) on labelled sets, or cross-validate the
//! learned cleaner by site.

use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use docview::clean::{CleanerKind, cleaner_with_model};
use docview::eval::blocks::{FoldCleaning, all_blocks, cross_validate, load_sets, site_folds};
use docview::eval::{SiteModels, evaluate_cleaner};
use docview::output::write_atomically;

use super::load_scored_set;
use crate::flags::EvalArgs;

/// `docview eval`.
pub fn run(args: EvalArgs) -> Result<()> {
    if let Some(folds) = args.folds {
        return eval_folds(&args, folds);
    }
    if args.out.is_some() && args.sets.len() > 1 {
        bail!(
            "--out takes the predictions of one SET, but {} were given",
            args.sets.len()
        );
    }
    if args.cleaner == "all" {
        return eval_all(&args);
    }
    let cleaner = cleaner_with_model(args.cleaner.parse()?, args.model.as_deref(), args.favor)?;
    for set in &args.sets {
        let pages = load_scored_set(set)?;
        let nulls = pages.iter().filter(|p| p.null_reference).count();
        if nulls > 0 {
            eprintln!(
                "docview: {}: {nulls} ground-truth files have \"main_content\": null, scored as \
                 empty references",
                set.display()
            );
        }
        let report = score_cleaner(
            &pages,
            set,
            cleaner.as_ref(),
            args.threads,
            args.out.is_some(),
            !args.pages_alone,
        )?;
        out!("{}", report.render_table(args.by_type));
        if let Some(out) = &args.out {
            report
                .write_predictions_jsonl(out)
                .with_context(|| format!("writing predictions to {}", out.display()))?;
            eprintln!("predictions written to {}", out.display());
        }
        if let Some(path) = &args.report {
            let path = report_path(path, &report.set, args.sets.len() > 1);
            write_report_json(&path, &report)?;
        }
    }
    Ok(())
}

/// Scores `cleaner` on the pages of `set`, saying so on standard error (and, for a site-aware
/// cleaner, how many pages had a site model).
fn score_cleaner(
    pages: &[docview::eval::LabelledPage],
    set: &std::path::Path,
    cleaner: &dyn docview::clean::Cleaner,
    threads: usize,
    keep_predictions: bool,
    site_models: bool,
) -> Result<docview::eval::EvalReport> {
    eprintln!(
        "scoring cleaner {} on {} pages of {}",
        cleaner.name(),
        pages.len(),
        set.display()
    );
    let (report, models) =
        evaluate_cleaner(pages, cleaner, threads, keep_predictions, site_models)?;
    say_site_models(cleaner, &models);
    Ok(report)
}

/// For a site-aware cleaner, how many pages had a site model (on standard error).
fn say_site_models(cleaner: &dyn docview::clean::Cleaner, models: &SiteModels) {
    if cleaner.site_learner().is_none() {
        return;
    }
    eprintln!(
        "{}: site models for {} pages; {} pages (sites of too few pages, no site, a template \
         too rare in its site's sample, or --pages-alone) cleaned without one; {} sites, \
         models learnt in {:.1} s",
        cleaner.name(),
        models.pages_with_model,
        models.pages_without_model,
        models.sites,
        models.learn_secs
    );
}

/// `docview eval --cleaner all`: every cleaner on each set, one comparison table per set.
fn eval_all(args: &EvalArgs) -> Result<()> {
    if args.out.is_some() || args.report.is_some() {
        bail!("--out and --report take one cleaner's results; name it with --cleaner NAME");
    }
    let cleaners = CleanerKind::ALL
        .into_iter()
        .map(|kind| {
            let model = args.model.as_deref().filter(|_| kind.uses_block_model());
            cleaner_with_model(kind, model, args.favor)
        })
        .collect::<Result<Vec<_>, _>>()?;
    for set in &args.sets {
        let pages = load_scored_set(set)?;
        let mut reports = Vec::with_capacity(cleaners.len());
        for cleaner in &cleaners {
            let report = score_cleaner(
                &pages,
                set,
                cleaner.as_ref(),
                args.threads,
                false,
                !args.pages_alone,
            )?;
            reports.push((cleaner.name(), report));
        }
        let rows: Vec<(&str, &docview::eval::EvalReport)> =
            reports.iter().map(|(name, r)| (*name, r)).collect();
        out!("{}", docview::eval::EvalReport::render_comparison(&rows));
    }
    Ok(())
}

/// `path`, with `-SET` added before its extension when there are several reports.
fn report_path(path: &std::path::Path, set: &str, several: bool) -> PathBuf {
    if !several {
        return path.to_path_buf();
    }
    let stem = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_default();
    let name = match path.extension() {
        Some(ext) => format!("{stem}-{set}.{}", ext.to_string_lossy()),
        None => format!("{stem}-{set}"),
    };
    path.with_file_name(name)
}

fn write_report_json(path: &std::path::Path, report: &docview::eval::EvalReport) -> Result<()> {
    write_atomically(path, |out| {
        serde_json::to_writer_pretty(&mut *out, report).map_err(std::io::Error::from)
    })?;
    eprintln!("report written to {}", path.display());
    Ok(())
}

/// `docview eval --folds N`: site-grouped cross-validation of the learned cleaner.
fn eval_folds(args: &EvalArgs, folds: usize) -> Result<()> {
    if folds < 2 {
        bail!("--folds needs at least 2 folds, not {folds}");
    }
    if args.cleaner != CleanerKind::Learned.name() || args.model.is_some() {
        bail!(
            "--folds trains its own models of the learned cleaner: leave out --cleaner and --model"
        );
    }
    if args.out.is_some() {
        bail!("--folds writes no predictions file: use --report for the per-page scores");
    }
    let params = args.train.params(args.threads)?;
    let sets = load_sets(&args.sets)?;
    let pages: usize = sets.iter().map(|s| s.pages.len()).sum();
    eprintln!(
        "labelling the blocks of {pages} pages of {} sets",
        sets.len()
    );
    let blocks = all_blocks(&sets, args.threads)?;
    let sites = site_folds(&blocks, folds).len();
    if sites < folds {
        bail!("the sets hold {sites} sites, fewer than --folds {folds}");
    }
    let cv = cross_validate(
        &sets,
        &blocks,
        folds,
        &params,
        args.threads,
        FoldCleaning {
            site_evidence: !args.pages_alone,
            favor: args.favor,
        },
        |line| eprintln!("{line}"),
    )?;
    outln!(
        "site-grouped {folds}-fold cross-validation over {pages} pages of {sites} sites \
         (sites per fold: {:?}, pages per fold: {:?})",
        cv.fold_sites,
        cv.fold_pages
    );
    for report in &cv.reports {
        out!("{}", report.render_table(args.by_type));
        if let Some(path) = &args.report {
            write_report_json(&report_path(path, &report.set, true), report)?;
        }
    }
    Ok(())
}
