//! `docview classify train --scheme` and `docview classify eval --scheme`: the subject
//! classifier trained on labelled text and pages, scored, or cross-validated by site (topic
//! content against the raw page with `--compare-raw`, 004 Figure 5).

use std::io::Write;

use anyhow::{Result, bail};
use docview::classifier::{ClassReport, Source, SubjectClassifier, SubjectTraining};
use docview::classify::ClassPage;
use docview::output::write_atomically;
use docview::subjects::{self, SubjectCv, TextVector, cross_validate_subjects, macro_f1_over};

use super::super::{load_scored_set, write_json_lines};
use crate::flags::{ClassifyEvalArgs, ClassifyOpts, ClassifyTrainArgs, SubjectPlan};

/// A subject counts in the macro F1 of record when it has at least this many labelled pages.
const SUPPORTED_PAGES: usize = 20;

/// The languages reported one by one (every other language is in the totals).
const LANGUAGES: [&str; 3] = ["en", "de", "zh"];

/// The labelled texts of `--text` and the pages of the sets that `--subjects` names, read,
/// cleaned and vectorised (saying so on standard error).
fn inputs(opts: &ClassifyOpts, plan: &SubjectPlan) -> Result<(Vec<ClassPage>, Vec<TextVector>)> {
    let mut texts = Vec::new();
    for path in &opts.text {
        texts.extend(subjects::read_labelled_text(path, &plan.scheme)?);
    }
    let texts = subjects::text_vectors(&texts);
    let mut pages = Vec::new();
    if !opts.subjects.is_empty() {
        let labels = subjects::read_page_subjects(&opts.subjects, &plan.scheme)?;
        let mut sets = Vec::new();
        for set in &opts.sets {
            sets.push((set.display().to_string(), load_scored_set(set)?));
        }
        let total: usize = sets.iter().map(|s| s.1.len()).sum();
        eprintln!("cleaning and vectorising the pages of {total} with a subject");
        let (found, left_out) = subjects::subject_pages(&sets, &labels, opts.threads)?;
        eprintln!(
            "{} pages with a subject, {left_out} without one in --subjects (or no page in their HTML)",
            found.len(),
        );
        pages = found;
    }
    if pages.is_empty() && texts.is_empty() {
        bail!("nothing to train or score on: no labelled text (--text) and no page with a subject");
    }
    Ok((pages, texts))
}

/// What a setup reads, for reports.
fn setup_name(plan: &SubjectPlan, source: Source) -> String {
    let method = match plan.setup.training {
        SubjectTraining::Linear(p) => format!(
            "logistic regression on tf-idf ({} epochs, terms of at least {} examples)",
            p.epochs, p.min_df
        ),
        SubjectTraining::Neighbours(p) => format!(
            "chi-square and kNN (k = {}, {} terms a subject)",
            p.k, p.terms_per_class
        ),
    };
    format!(
        "{method} on {} vectors, labelled text at weight {}",
        source.as_str(),
        plan.setup.text_weight
    )
}

/// `docview classify train --scheme`.
pub fn train(args: &ClassifyTrainArgs, plan: SubjectPlan) -> Result<()> {
    let (pages, texts) = inputs(&args.opts, &plan)?;
    let start = std::time::Instant::now();
    let model = subjects::train_subjects(&plan.scheme, &pages, &texts, &plan.setup)?
        .with_threshold(plan.threshold);
    let bytes = model.to_bytes(args.out.extension().is_some_and(|e| e == "gz"))?;
    write_atomically(&args.out, |w| w.write_all(&bytes))?;
    outln!(
        "subject classifier of {} ({} of its {} subjects) on {} pages and {} labelled texts, {}, \
         threshold {}, trained in {:.2} s -> {}",
        plan.scheme.name,
        model.classes.len(),
        plan.scheme.subjects.len(),
        pages.len(),
        texts.len(),
        setup_name(&plan, plan.setup.source),
        plan.threshold,
        start.elapsed().as_secs_f64(),
        args.out.display()
    );
    Ok(())
}

/// The lines of a report of pages or texts: every subject, then the macro F1 over the
/// supported ones.
fn render(report: &ClassReport, plan: &SubjectPlan, supported: &[String]) -> String {
    let mut s = report.render();
    if !supported.is_empty() {
        s.push_str(&format!(
            "macro F1 over the {} subjects of at least {SUPPORTED_PAGES} pages: {:.4}\n",
            supported.len(),
            macro_f1_over(report, supported)
        ));
    }
    let labels: Vec<String> = report
        .classes
        .iter()
        .map(|c| {
            let label = plan.scheme.subject(c).map_or("", |s| s.label.as_str());
            format!("  {c} {label}")
        })
        .collect();
    s.push_str(&format!("subjects:\n{}\n", labels.join("\n")));
    s
}

/// Per language: pages (or texts), macro F1.
fn by_language(report_of: impl Fn(Option<&str>) -> ClassReport, what: &str) -> String {
    let mut s = String::new();
    for lang in LANGUAGES {
        let r = report_of(Some(lang));
        let present: Vec<String> = r
            .classes
            .iter()
            .zip(&r.actual)
            .filter(|(_, n)| **n > 0)
            .map(|(c, _)| c.clone())
            .collect();
        if r.pages > 0 {
            s.push_str(&format!(
                "  {lang}: {} {what}, {} subjects, macro F1 {:.4} over them, accuracy {:.4}\n",
                r.pages,
                present.len(),
                macro_f1_over(&r, &present),
                r.accuracy
            ));
        }
    }
    s
}

/// `docview classify eval --scheme`.
pub fn eval(args: &ClassifyEvalArgs, plan: SubjectPlan) -> Result<()> {
    let (pages, texts) = inputs(&args.opts, &plan)?;
    if let Some(path) = &args.model {
        let model = SubjectClassifier::load(path)?;
        if model.scheme.name != plan.scheme.name {
            bail!(
                "{} is a model of the scheme {}, not {}",
                path.display(),
                model.scheme.name,
                plan.scheme.name
            );
        }
        let best =
            |v: &docview::measure::FeatureVector| model.classify(v).best().map(|s| s.code.clone());
        outln!("{} ({}):", path.display(), model.format_version());
        if !pages.is_empty() {
            let pairs: Vec<(String, Option<String>)> = pages
                .iter()
                .map(|p| (p.label.clone(), best(&p.vector(model.source, 0.0))))
                .collect();
            outln!("pages:");
            out!("{}", render(&ClassReport::of(&pairs), &plan, &[]));
        }
        if !texts.is_empty() {
            let pairs: Vec<(String, Option<String>)> = texts
                .iter()
                .map(|t| (t.code.clone(), best(&t.vector)))
                .collect();
            outln!("labelled texts:");
            out!("{}", render(&ClassReport::of(&pairs), &plan, &[]));
        }
        return Ok(());
    }
    let folds = args.folds.unwrap_or(5);
    if folds < 2 {
        bail!("--folds must be at least 2");
    }
    if pages.is_empty() {
        bail!("cross-validation by site needs labelled pages: give the sets and --subjects");
    }
    let mut sources = vec![plan.setup.source];
    if args.compare_raw {
        if plan.setup.source == Source::Raw {
            bail!("--compare-raw sets the raw page beside the topic content: leave out --raw");
        }
        sources.push(Source::Raw);
    }
    let mut done: Vec<(Source, SubjectCv)> = Vec::new();
    for source in sources {
        let mut setup = plan.setup;
        setup.source = source;
        let cv = cross_validate_subjects(&plan.scheme, &pages, &texts, &setup, folds)?;
        let supported = cv.supported(SUPPORTED_PAGES);
        outln!(
            "{folds}-fold cross-validation by site, {} ({} pages; labelled texts of the train and \
             dev splits in every fold):",
            setup_name(&plan, source),
            pages.len()
        );
        let report = cv.page_report(None);
        out!("{}", render(&report, &plan, &supported));
        out!("{}", by_language(|l| cv.page_report(l), "pages"));
        let (given, right) = cv.given();
        outln!(
            "at the threshold {}: {given} of {} pages given a subject, {right} of them right \
             ({:.4})",
            plan.threshold,
            pages.len(),
            right as f64 / given.max(1) as f64
        );
        if !cv.texts.is_empty() {
            let r = cv.text_report(None);
            outln!(
                "labelled texts of the test split, by a model of every page and the other \
                 splits: macro F1 {:.4}, accuracy {:.4} ({} texts)",
                r.macro_f1,
                r.accuracy,
                r.pages
            );
            out!("{}", by_language(|l| cv.text_report(l), "texts"));
        }
        if let (true, Some(path)) = (done.is_empty(), &args.predictions) {
            write_json_lines(path, &cv.predictions)?;
        }
        done.push((source, cv));
    }
    if let [(_, topic), (_, raw)] = &done[..] {
        let (t, r) = (topic.page_report(None), raw.page_report(None));
        let supported = topic.supported(SUPPORTED_PAGES);
        outln!("F1 per subject, topic content against the raw page (004 Figure 5):");
        outln!(
            "{:<16} {:>6} {:>8} {:>8}  label",
            "subject",
            "pages",
            "topic",
            "raw"
        );
        for (i, c) in t.classes.iter().enumerate() {
            if t.actual[i] == 0 {
                continue;
            }
            let raw_f1 = r
                .classes
                .iter()
                .position(|x| x == c)
                .map_or(0.0, |j| r.per_class[j].2);
            outln!(
                "{c:<16} {:>6} {:>8.4} {raw_f1:>8.4}  {}",
                t.actual[i],
                t.per_class[i].2,
                plan.scheme.subject(c).map_or("", |s| s.label.as_str())
            );
        }
        outln!(
            "macro F1 over the {} subjects of at least {SUPPORTED_PAGES} pages: topic {:.4}, raw {:.4}",
            supported.len(),
            macro_f1_over(&t, &supported),
            macro_f1_over(&r, &supported)
        );
    }
    Ok(())
}
