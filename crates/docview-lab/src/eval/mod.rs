//! Scoring a cleaner against a labelled corpus, decoupled from cleaning: any function from the
//! raw bytes of a page to its main content can be scored.
//!
//! [`load_set`] reads a set's ground truth, [`run_eval`] runs an extractor over its pages in
//! parallel and scores each with the corpus rule ([`score`]: bag-of-words F1 per page,
//! macro-averaged), and [`EvalReport`] holds the figures, renders them and writes the
//! predictions.

pub mod blocks;
mod corpus;
mod report;
mod score;

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::time::Instant;

use rayon::prelude::*;

use crate::Result;
use crate::clean::{Cleaner, SiteLearner, SiteModel};
use crate::extract::{PageLimits, parse_page};
use crate::input::read_page_bytes;

pub use corpus::{LabelledPage, UNKNOWN_PAGE_TYPE, load_set};
pub use report::{EvalReport, PageScore};
pub use score::{Prf, score};

/// Runs `extract` on every page and scores it against the page's reference main content.
///
/// `extract` gets the raw (decompressed) bytes of the page, read with [`read_page_bytes`], and
/// returns the main content. Pages run in parallel on a pool of `threads` threads (0: one per
/// core); the report lists them in file id order whatever the scheduling. A page whose
/// extraction fails (returns an error, or panics) scores 0 and is counted in
/// [`EvalReport::errors`] with its message. Only the extract calls are timed for the speed
/// figures. With `keep_predictions`, each [`PageScore`] keeps the extracted text, for
/// [`EvalReport::write_predictions_jsonl`].
///
/// Errors when a page's HTML cannot be read (the corpus is broken, not the extractor) or when
/// the threads cannot be started.
pub fn run_eval<F>(
    pages: &[LabelledPage],
    extract: F,
    threads: usize,
    keep_predictions: bool,
) -> Result<EvalReport>
where
    F: Fn(&[u8]) -> Result<String> + Sync,
{
    run_eval_pages(pages, |_, bytes| extract(bytes), threads, keep_predictions)
}

/// [`run_eval`] with an extractor that also gets the labelled page (its site, its URL).
pub fn run_eval_pages<F>(
    pages: &[LabelledPage],
    extract: F,
    threads: usize,
    keep_predictions: bool,
) -> Result<EvalReport>
where
    F: Fn(&LabelledPage, &[u8]) -> Result<String> + Sync,
{
    let pool = docview_collection::thread_pool(threads)?;
    let start = Instant::now();
    let scores = pool.install(|| {
        pages
            .par_iter()
            .map(|page| eval_page(page, &extract, keep_predictions))
            .collect::<Result<Vec<_>>>()
    })?;
    let wall_secs = start.elapsed().as_secs_f64();
    Ok(EvalReport::from_pages(
        report::set_name(pages),
        scores,
        wall_secs,
    ))
}

/// The site of a labelled page, as site-aware cleaners group pages: the ground truth's `site`,
/// else the host of its URL, else none (the page is a site of its own).
pub fn site_key(page: &LabelledPage) -> Option<String> {
    if !page.site.is_empty() {
        return Some(page.site.clone());
    }
    url::Url::parse(&page.url)
        .ok()
        .and_then(|u| u.host_str().map(str::to_ascii_lowercase))
}

/// The site models a site-aware cleaner learnt from a labelled set, by site.
#[derive(Debug, Default)]
pub struct SiteModels {
    models: std::collections::HashMap<String, SiteModel>,
    /// Sites in the set (pages without a site count one each).
    pub sites: usize,
    /// Pages whose site has a model; after [`evaluate_cleaner`], the pages the cleaner cleaned
    /// with one ([`Cleaner::uses_site_model`]).
    pub pages_with_model: usize,
    /// The other pages, cleaned by the fallback: their site had too few pages, they have no
    /// site, or (after [`evaluate_cleaner`]) the cleaner found no part of its site's model
    /// for them.
    pub pages_without_model: usize,
    /// Seconds spent learning the models, summed over the sites (one core's time).
    pub learn_secs: f64,
}

impl SiteModels {
    /// The model of `page`'s site, if it has one.
    pub fn of(&self, page: &LabelledPage) -> Option<&SiteModel> {
        site_key(page).and_then(|site| self.models.get(&site))
    }
}

/// Learns `cleaner`'s model of every site of `pages` (grouped by [`site_key`], each site's pages
/// in file id order, sites in parallel on `threads` threads): what `docview eval` does before it
/// scores a site-aware cleaner, so that each site's pages are seen together. Empty for a cleaner
/// that judges pages alone. A page that cannot be parsed is left out of its site's model (its
/// evaluation reports the error).
pub fn learn_site_models(
    pages: &[LabelledPage],
    cleaner: &dyn Cleaner,
    threads: usize,
) -> Result<SiteModels> {
    learn_site_models_with(pages, &|| cleaner.site_learner(), threads)
}

/// [`learn_site_models`] with the learners `learner` makes (one per site; `None`: the pages
/// are judged alone).
pub fn learn_site_models_with(
    pages: &[LabelledPage],
    learner: &(dyn Fn() -> Option<Box<dyn SiteLearner>> + Sync),
    threads: usize,
) -> Result<SiteModels> {
    let mut by_site: std::collections::BTreeMap<String, Vec<&LabelledPage>> = Default::default();
    let mut alone = 0;
    for page in pages {
        match site_key(page) {
            Some(site) => by_site.entry(site).or_default().push(page),
            None => alone += 1,
        }
    }
    if learner().is_none() {
        return Ok(SiteModels {
            sites: by_site.len() + alone,
            pages_without_model: pages.len(),
            ..SiteModels::default()
        });
    }
    let pool = docview_collection::thread_pool(threads)?;
    let sites: Vec<(String, Vec<&LabelledPage>)> = by_site.into_iter().collect();
    let learnt: Vec<(String, usize, Option<SiteModel>, f64)> = pool.install(|| {
        sites
            .into_par_iter()
            .map(|(site, mut site_pages)| {
                site_pages.sort_by(|a, b| a.file_id.cmp(&b.file_id));
                let n = site_pages.len();
                let start = Instant::now();
                let Some(mut learner) = learner() else {
                    return (site, n, None, 0.0);
                };
                for page in site_pages {
                    let parsed = read_page_bytes(&page.html_path).ok().and_then(|bytes| {
                        parse_page(&bytes, None, &page.file_id, &PageLimits::default()).ok()
                    });
                    if let Some(mut parsed) = parsed {
                        parsed.tree.url = Some(page.url.clone()).filter(|u| !u.is_empty());
                        learner.add(&parsed.tree);
                    }
                }
                let model = learner.finish();
                (site, n, model, start.elapsed().as_secs_f64())
            })
            .collect()
    });
    let mut models = SiteModels {
        sites: learnt.len() + alone,
        pages_without_model: alone,
        ..SiteModels::default()
    };
    for (site, n, model, secs) in learnt {
        models.learn_secs += secs;
        match model {
            Some(model) => {
                models.pages_with_model += n;
                models.models.insert(site, model);
            }
            None => models.pages_without_model += n,
        }
    }
    Ok(models)
}

/// Scores `cleaner` on `pages`: a site-aware cleaner first learns each site's model
/// ([`learn_site_models`]) and cleans each page with its site's; a cleaner that judges pages
/// alone cleans them one by one. Returns the report and the site models' summary; the
/// report's speed figures include the time spent learning the models.
///
/// With `site_models` false, every page is cleaned alone, as by a cleaner that is not
/// site-aware (`docview eval --pages-alone`).
pub fn evaluate_cleaner(
    pages: &[LabelledPage],
    cleaner: &dyn Cleaner,
    threads: usize,
    keep_predictions: bool,
    site_models: bool,
) -> Result<(EvalReport, SiteModels)> {
    let start = Instant::now();
    let models = if site_models {
        learn_site_models(pages, cleaner, threads)?
    } else {
        learn_site_models_with(pages, &|| None, threads)?
    };
    let learn_wall = start.elapsed().as_secs_f64();
    let with_model = std::sync::atomic::AtomicUsize::new(0);
    let mut report = run_eval_pages(
        pages,
        |page, bytes| {
            let mut parsed = parse_page(bytes, None, "page", &PageLimits::default())?;
            parsed.tree.url = Some(page.url.clone()).filter(|u| !u.is_empty());
            let site = models.of(page);
            if cleaner.uses_site_model(&parsed.tree, site) {
                with_model.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            }
            Ok(cleaner.clean_in_site(&parsed.tree, site).topic_text)
        },
        threads,
        keep_predictions,
    )?;
    // Counted page by page: a site-aware cleaner may still hand a page of a modelled site to
    // its fallback.
    let mut models = models;
    models.pages_with_model = with_model.into_inner();
    models.pages_without_model = pages.len() - models.pages_with_model;
    report.extract_secs += models.learn_secs;
    report.wall_secs += learn_wall;
    Ok((report, models))
}

fn eval_page<F>(page: &LabelledPage, extract: &F, keep_predictions: bool) -> Result<PageScore>
where
    F: Fn(&LabelledPage, &[u8]) -> Result<String> + Sync,
{
    let html = read_page_bytes(&page.html_path)?;
    let start = Instant::now();
    let extracted = catch_unwind(AssertUnwindSafe(|| extract(page, &html)));
    let extract_secs = start.elapsed().as_secs_f64();
    let (predicted, error) = match extracted {
        Ok(Ok(text)) => (text, None),
        Ok(Err(e)) => (String::new(), Some(e.to_string())),
        Err(panic) => (String::new(), Some(panic_message(panic.as_ref()))),
    };
    let prf = match error {
        None => score(&predicted, &page.main_content),
        Some(_) => Prf::ZERO,
    };
    Ok(PageScore {
        file_id: page.file_id.clone(),
        page_type: page.page_type.clone(),
        prf,
        predicted_chars: predicted.chars().count(),
        error,
        html_bytes: html.len() as u64,
        extract_secs,
        predicted: keep_predictions.then_some(predicted),
    })
}

/// The message of a caught panic.
fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    let message = panic
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| panic.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("(no message)");
    format!("extractor panicked: {message}")
}

#[cfg(test)]
mod tests {
    use std::fs;

    use crate::Error;
    use std::io::Write;
    use std::path::Path;

    use flate2::Compression;
    use flate2::write::GzEncoder;

    use super::*;

    fn write_gz(path: &Path, text: &str) {
        let mut enc = GzEncoder::new(Vec::new(), Compression::default());
        enc.write_all(text.as_bytes()).unwrap();
        fs::write(path, enc.finish().unwrap()).unwrap();
    }

    /// A set of four pages: two articles, a forum page, one without a type.
    fn tiny_set(root: &Path) -> std::path::PathBuf {
        let dir = root.join("tiny-dev");
        fs::create_dir_all(dir.join("ground-truth")).unwrap();
        fs::create_dir_all(dir.join("html")).unwrap();
        let pages = [
            (
                "p1",
                Some("article"),
                "The main story",
                "<p>The main story</p>",
            ),
            (
                "p2",
                Some("article"),
                "Second story here",
                "<p>Second story</p><p>menu</p>",
            ),
            ("p3", Some("forum"), "中文 帖子", "<p>中文帖子</p>"),
            ("p4", None, "", "<p>nothing to keep</p>"),
        ];
        for (id, page_type, main, html) in pages {
            let page_type = page_type.map_or(String::new(), |t| format!(r#""page_type": "{t}","#));
            let json = format!(
                r#"{{"file_id": "{id}", {page_type} "ground_truth": {{"main_content": "{main}"}}}}"#
            );
            fs::write(dir.join(format!("ground-truth/{id}.json")), json).unwrap();
            write_gz(&dir.join(format!("html/{id}.html.gz")), html);
        }
        dir
    }

    /// Strips tags: `<p>a</p><p>b</p>` to `a b`.
    fn strip_tags(html: &[u8]) -> Result<String> {
        let text = String::from_utf8_lossy(html);
        let mut out = String::new();
        let mut in_tag = false;
        for c in text.chars() {
            match c {
                '<' => {
                    in_tag = true;
                    out.push(' ');
                }
                '>' => in_tag = false,
                c if !in_tag => out.push(c),
                _ => {}
            }
        }
        Ok(out.split_whitespace().collect::<Vec<_>>().join(" "))
    }

    #[test]
    fn trivial_extractor_on_a_tiny_set() {
        let tmp = tempfile::tempdir().unwrap();
        let pages = load_set(&tiny_set(tmp.path())).unwrap();
        let report = run_eval(&pages, strip_tags, 2, false).unwrap();
        assert_eq!(report.set, "tiny-dev");
        let ids: Vec<&str> = report.pages.iter().map(|p| p.file_id.as_str()).collect();
        assert_eq!(ids, ["p1", "p2", "p3", "p4"]);
        assert_eq!(report.pages[0].prf, Prf::PERFECT);
        // p2: extracted "second story menu", reference "second story here".
        let p2 = report.pages[1].prf;
        assert!((p2.precision - 2.0 / 3.0).abs() < 1e-12 && (p2.recall - 2.0 / 3.0).abs() < 1e-12);
        assert_eq!(report.pages[2].prf, Prf::PERFECT);
        // p4: empty reference, non-empty extraction.
        assert_eq!(report.pages[3].prf, Prf::ZERO);
        assert_eq!(report.errors, 0);
        assert_eq!(report.html_bytes, pages.iter().map(html_len).sum::<u64>());

        let types: Vec<(&str, usize)> = report
            .by_type
            .iter()
            .map(|(t, (n, _))| (t.as_str(), *n))
            .collect();
        assert_eq!(types, [("article", 2), ("forum", 1), ("unknown", 1)]);
        let article = report.by_type["article"].1;
        assert!((article.f1 - (1.0 + 2.0 / 3.0) / 2.0).abs() < 1e-12);
        assert!((report.overall.f1 - (1.0 + 2.0 / 3.0 + 1.0) / 4.0).abs() < 1e-12);

        let table = report.render_table(true);
        assert!(table.contains("tiny-dev: 4 pages, 0 errors"), "{table}");
        for line in ["all", "article", "forum", "unknown", "pages/s", "MB/s"] {
            assert!(table.contains(line), "{line} missing in\n{table}");
        }
        assert!(!report.render_table(false).contains("forum"));
    }

    fn html_len(page: &LabelledPage) -> u64 {
        read_page_bytes(&page.html_path).unwrap().len() as u64
    }

    #[test]
    fn deterministic_whatever_the_threads() {
        let tmp = tempfile::tempdir().unwrap();
        let pages = load_set(&tiny_set(tmp.path())).unwrap();
        let one = run_eval(&pages, strip_tags, 1, true).unwrap();
        let mut reversed = pages.clone();
        reversed.reverse();
        let two = run_eval(&reversed, strip_tags, 2, true).unwrap();
        let strip = |r: &EvalReport| {
            r.pages
                .iter()
                .map(|p| (p.file_id.clone(), p.prf, p.predicted.clone()))
                .collect::<Vec<_>>()
        };
        assert_eq!(strip(&one), strip(&two));
        assert_eq!(one.overall, two.overall);
        assert_eq!(one.by_type, two.by_type);
    }

    #[test]
    fn failing_pages_score_zero_and_are_counted() {
        let tmp = tempfile::tempdir().unwrap();
        let pages = load_set(&tiny_set(tmp.path())).unwrap();
        let extract = |html: &[u8]| -> Result<String> {
            let text = strip_tags(html)?;
            if text.contains("main story") {
                Err(Error::bad_input("page", "cannot clean"))
            } else if text.contains("中文") {
                panic!("boom")
            } else {
                Ok(text)
            }
        };
        let report = run_eval(&pages, extract, 2, true).unwrap();
        assert_eq!(report.errors, 2);
        assert_eq!(report.pages[0].prf, Prf::ZERO);
        assert_eq!(report.pages[0].error.as_deref(), Some("page: cannot clean"));
        assert_eq!(
            report.pages[2].error.as_deref(),
            Some("extractor panicked: boom")
        );
        assert_eq!(report.pages[0].predicted.as_deref(), Some(""));
        assert!(report.pages[1].error.is_none());
        assert!(report.render_table(false).contains("4 pages, 2 errors"));
    }

    #[test]
    fn unreadable_html_is_an_error() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tiny_set(tmp.path());
        let pages = load_set(&dir).unwrap();
        fs::remove_file(dir.join("html/p2.html.gz")).unwrap();
        let err = run_eval(&pages, strip_tags, 1, false).unwrap_err();
        assert!(err.to_string().contains("p2.html.gz"), "{err}");
    }

    #[test]
    fn predictions_round_trip() {
        let tmp = tempfile::tempdir().unwrap();
        let pages = load_set(&tiny_set(tmp.path())).unwrap();
        let report = run_eval(&pages, strip_tags, 2, true).unwrap();
        let out = tmp.path().join("pred.jsonl");
        report.write_predictions_jsonl(&out).unwrap();
        let text = fs::read_to_string(&out).unwrap();
        let lines: Vec<serde_json::Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.len(), 4);
        assert_eq!(lines[0]["file_id"], "p1");
        assert_eq!(lines[0]["main_content"], "The main story");
        assert_eq!(lines[2]["main_content"], "中文帖子");
        assert!(lines[0].get("error").is_none());
        // Nothing but the output is left in the folder.
        let leftovers: Vec<_> = fs::read_dir(tmp.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .filter(|n| n != "pred.jsonl" && n != "tiny-dev")
            .collect();
        assert!(leftovers.is_empty(), "{leftovers:?}");
    }

    #[test]
    fn predictions_need_keeping() {
        let tmp = tempfile::tempdir().unwrap();
        let pages = load_set(&tiny_set(tmp.path())).unwrap();
        let report = run_eval(&pages, strip_tags, 1, false).unwrap();
        let out = tmp.path().join("pred.jsonl");
        assert!(report.write_predictions_jsonl(&out).is_err());
        assert!(!out.exists());
    }

    #[test]
    fn no_pages() {
        let report = run_eval(&[], strip_tags, 1, true).unwrap();
        assert_eq!(report.overall, Prf::ZERO);
        assert_eq!(report.pages_per_sec(), 0.0);
        assert!(report.render_table(true).contains("0 pages"));
    }
}
