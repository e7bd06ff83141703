//! `docview classify train` and `docview classify eval`: the content classifier trained,
//! scored, or cross-validated by site; a page's genre here, its subject in `subjects`.

mod subjects;

use anyhow::{Result, bail};
use docview::classify::{self, Method, Source};

use super::{load_scored_set, write_json_lines};
use crate::flags::{ClassifyEvalArgs, ClassifyOpts, ClassifyTrainArgs, Target};

/// The labelled pages of `opts.sets`, read, cleaned and vectorised (saying so on standard
/// error).
fn classify_pages(opts: &ClassifyOpts) -> Result<Vec<classify::ClassPage>> {
    let mut sets = Vec::new();
    for set in &opts.sets {
        let pages = load_scored_set(set)?;
        sets.push((set.display().to_string(), pages));
    }
    let total: usize = sets.iter().map(|s| s.1.len()).sum();
    eprintln!("cleaning and vectorising {total} pages");
    let (pages, left_out) = classify::class_pages(&sets, &opts.label, opts.threads)?;
    if left_out > 0 {
        eprintln!(
            "{left_out} pages left out: no {:?} in their ground truth, or no page in their HTML",
            opts.label
        );
    }
    if pages.is_empty() {
        bail!("no page has a {:?} field to train or score on", opts.label);
    }
    Ok(pages)
}

/// What a method reads, for reports.
fn method_name(method: Method) -> String {
    match method {
        Method::Neighbours(source, p) => format!(
            "kNN on {} vectors (k = {}, {} terms a class, structure {})",
            source.as_str(),
            p.k,
            p.terms_per_class,
            p.structure
        ),
        Method::Trees(p) => format!(
            "trees on page signals ({} a class, depth {}, {} URL and title words)",
            p.trees, p.max_depth, p.words
        ),
    }
}

/// `docview classify train`.
pub fn train(args: ClassifyTrainArgs) -> Result<()> {
    let method = match args.opts.target()? {
        Target::Genre(method) => method,
        Target::Subjects(plan) => return subjects::train(&args, plan),
    };
    let pages = classify_pages(&args.opts)?;
    let start = std::time::Instant::now();
    let model = classify::train(&pages, method, &args.opts.label, args.opts.threads)?;
    model.save(&args.out)?;
    outln!(
        "classifier of {} ({} classes: {}) on {} pages, {}, trained in {:.2} s -> {}",
        model.scheme(),
        model.classes().len(),
        model.classes().join(", "),
        pages.len(),
        method_name(method),
        start.elapsed().as_secs_f64(),
        args.out.display()
    );
    Ok(())
}

/// `docview classify eval`.
pub fn eval(args: ClassifyEvalArgs) -> Result<()> {
    let method = match args.opts.target()? {
        Target::Genre(method) => method,
        Target::Subjects(plan) => return subjects::eval(&args, plan),
    };
    let pages = classify_pages(&args.opts)?;
    if let Some(path) = &args.model {
        let model = docview::classifier::PageClassifier::load(path)?;
        let report = classify::evaluate(&model, &pages);
        outln!("{} ({}):", path.display(), model.format_version());
        out!("{}", report.render());
        return Ok(());
    }
    let folds = args.folds.unwrap_or(5);
    if folds < 2 {
        bail!("--folds must be at least 2");
    }
    let mut methods = vec![method];
    if args.compare_raw {
        match method {
            Method::Neighbours(Source::Topic, p) => {
                methods.push(Method::Neighbours(Source::Raw, p))
            }
            Method::Neighbours(..) => {}
            Method::Trees(_) => {
                bail!("--compare-raw compares the kNN's vectors: it needs --method knn")
            }
        }
    }
    for (n, method) in methods.into_iter().enumerate() {
        let cv =
            classify::cross_validate(&pages, method, &args.opts.label, folds, args.opts.threads)?;
        outln!(
            "{}-fold cross-validation by site, {} (training {:.2} s a fold):",
            folds,
            method_name(method),
            cv.train_secs.iter().sum::<f64>() / cv.train_secs.len().max(1) as f64
        );
        out!("{}", cv.report.render());
        if n == 0 {
            out!("{}", cv.render_typed_hubs());
        }
        if let (0, Some(path)) = (n, &args.predictions) {
            write_json_lines(path, &cv.predictions)?;
        }
    }
    Ok(())
}
