//! The corpus loader and scorer on the real development sets in `../shared/corpus`: all three
//! sets load, and an "extractor" that returns the ground truth itself scores F1 = 1 on every
//! wcxb-dev page (the loader, the page reading and the scorer agree). Skipped when the corpus is
//! not there.

use crate::common::CORPUS;
use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::{Path, PathBuf};

use docview::LabError as Error;
use docview::eval::{LabelledPage, Prf, load_set, run_eval};
use docview::input::read_page_bytes;
use rayon::prelude::*;

fn corpus() -> Option<PathBuf> {
    let dir = PathBuf::from(CORPUS);
    if dir.is_dir() {
        Some(dir)
    } else {
        println!("skipping: ../shared/corpus not found");
        None
    }
}

fn hash_bytes(bytes: &[u8]) -> u64 {
    let mut hasher = DefaultHasher::new();
    bytes.hash(&mut hasher);
    hasher.finish()
}

#[test]
fn all_sets_load() {
    let Some(corpus) = corpus() else {
        return;
    };
    for (set, expected, types) in [
        ("wcxb-dev", 1495, 7),
        ("dragnet-dev", 636, 1),
        ("zh-news-dev", 35, 1),
    ] {
        let pages = load_set(&corpus.join(set)).expect("load set");
        assert_eq!(pages.len(), expected, "{set}");
        assert!(
            pages.windows(2).all(|w| w[0].file_id < w[1].file_id),
            "{set} not sorted"
        );
        assert!(pages.iter().all(|p| p.html_path.is_file()));
        let mut by_type: HashMap<&str, usize> = HashMap::new();
        for p in &pages {
            *by_type.entry(p.page_type.as_str()).or_default() += 1;
        }
        println!("{set}: {} pages, types {by_type:?}", pages.len());
        assert_eq!(by_type.len(), types, "{set}: {by_type:?}");
    }
}

#[test]
fn ground_truth_scores_one_on_wcxb() {
    let Some(corpus) = corpus() else {
        return;
    };
    let pages = load_set(&corpus.join("wcxb-dev")).expect("load wcxb-dev");
    let truth = truth_by_html_hash(&pages);
    let extract = |html: &[u8]| -> Result<String, Error> {
        match truth.get(&hash_bytes(html)) {
            Some(Some(main)) => Ok(main.clone()),
            Some(None) => Err(Error::bad_input(
                "page",
                "same HTML as a page with another reference",
            )),
            None => Err(Error::bad_input("page", "not in the ground truth")),
        }
    };
    let report = run_eval(&pages, extract, 2, false).expect("run eval");
    print!("{}", report.render_table(true));
    let ambiguous: Vec<&str> = report
        .pages
        .iter()
        .filter(|p| p.error.is_some())
        .map(|p| p.file_id.as_str())
        .collect();
    println!("pages whose HTML is shared with a differently labelled page: {ambiguous:?}");
    // wcxb-dev holds two pages twice (crawled from two URLs), each copy labelled differently.
    assert_eq!(ambiguous, ["0463", "0670", "2863", "3035"]);
    for page in report.pages.iter().filter(|p| p.error.is_none()) {
        assert_eq!(page.prf, Prf::PERFECT, "{}", page.file_id);
    }
    assert_eq!(report.by_type.len(), 7);
}

/// The reference main content of each page by a hash of its HTML bytes; `None` when pages with
/// the same HTML have different references.
fn truth_by_html_hash(pages: &[LabelledPage]) -> HashMap<u64, Option<String>> {
    let entries: Vec<(u64, &str)> = pages
        .par_iter()
        .map(|p| (hash_bytes(&read(&p.html_path)), p.main_content.as_str()))
        .collect();
    let mut map: HashMap<u64, Option<String>> = HashMap::new();
    for (hash, main) in entries {
        map.entry(hash)
            .and_modify(|known| {
                if known.as_deref() != Some(main) {
                    *known = None;
                }
            })
            .or_insert_with(|| Some(main.to_string()));
    }
    map
}

fn read(path: &Path) -> Vec<u8> {
    read_page_bytes(path).expect("read page")
}
