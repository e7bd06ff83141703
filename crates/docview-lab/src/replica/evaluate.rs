//! `docview replicas eval`: the paper's replica experiment (004 §7.2, Table 2) on a benchmark
//! made by [`build_benchmark`](super::benchmark::build_benchmark).
//!
//! The base pages are the kept collection. Each near-replica page is asked against it: a
//! **hit** when it is matched to its own base page (matched to another base page it is
//! **misplaced**). Each non-replica page too: an **error** when it is matched to any base page.
//! Every detector is run on three views of each page: the **raw** page (all its visible text),
//! its **topic** content (what the cleaner keeps), which checks the paper's claim that cleaning
//! first is what lets fingerprints see through templates, and its **replica** text (what
//! `docview ingest` fingerprints: the page's own text, without its site's template lines, see
//! [`template`](docview_collection::stats::template)). A page's site is its template's page: base and non-replica
//! page `i` are on site `i`, near-replica `i` on its template's site; the templates are learnt
//! from the whole benchmark, as ingest learns them from the whole collection.
//!
//! Detectors are [`NearDetector`]s: the exact MD5 fingerprint and MinHash as ingest runs them
//! ([`IngestDetector`]: ingest's own [`ReplicaDetector`] over [`Fingerprints::of`]), the
//! paper's keyword fingerprint alone over the grid Percentage 10%..100% × Interval 1..10, and
//! any others a caller adds (one factory call per view). Each page is cleaned once and its terms counted once per view; the
//! detectors only fingerprint those counts.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

use rayon::prelude::*;
use serde::Serialize;

use super::benchmark::{Pair, benchmark_file, read_pairs};
use crate::clean::Cleaner;
use crate::extract::extract_page;
use crate::input::read_page_bytes;
use crate::text::{Analyzer, Language};
use crate::{Error, Result};
use docview_collection::replica::{
    Detection, Fingerprint, Fingerprints, KeywordParams, MinHashParams, MinHasher, ReplicaDetector,
    keyword_fingerprint,
};
use docview_collection::stats::template::{CopyKey, TemplateBuilder, TemplateParams};

/// The grid's Percentage values, in tenths: 10% to 100%.
pub const PERCENTAGE_TENTHS: std::ops::RangeInclusive<u32> = 1..=10;
/// The grid's Interval values.
pub const INTERVALS: std::ops::RangeInclusive<usize> = 1..=10;

/// One view of a page, as the detectors see it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct PageText {
    /// The text.
    pub text: String,
    /// Its features (stop words removed, stemmed) and their counts, by decreasing count then
    /// alphabetically (Step 2 of the keyword fingerprint).
    pub term_counts: Vec<(String, u32)>,
}

impl PageText {
    /// The view of `text`, its terms counted with `analyzer` in language `lang`.
    pub fn new(text: String, analyzer: &Analyzer, lang: Language) -> PageText {
        let mut counts = HashMap::new();
        analyzer.term_counts(&text, lang, &mut counts);
        let mut term_counts: Vec<(String, u32)> = counts.into_iter().collect();
        term_counts.sort_unstable_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        PageText { text, term_counts }
    }
}

/// A replica detector under test: it learns the base pages, then is asked about other pages.
///
/// Implement this to add a row to `docview replicas eval` (pass a factory to
/// [`evaluate_benchmark`]).
pub trait NearDetector: Send {
    /// The row's name in reports.
    fn name(&self) -> String;
    /// Learns base page `id`.
    fn add_base(&mut self, id: u64, page: &PageText);
    /// The base page `page` repeats, with a similarity in 0..=1 (1 for fingerprint matches),
    /// or `None`.
    fn find(&self, page: &PageText) -> Option<(u64, f32)>;
}

/// A detector that matches pages with equal fingerprints, the first-learnt page winning.
#[derive(Debug, Default)]
struct FingerprintTable(HashMap<Fingerprint, u64>);

impl FingerprintTable {
    fn add(&mut self, id: u64, fingerprint: Option<Fingerprint>) {
        if let Some(f) = fingerprint {
            self.0.entry(f).or_insert(id);
        }
    }

    fn find(&self, fingerprint: Option<Fingerprint>) -> Option<(u64, f32)> {
        fingerprint
            .and_then(|f| self.0.get(&f))
            .map(|&id| (id, 1.0))
    }
}

/// Ingest's replica detector ([`ReplicaDetector`]) as the benchmark runs it: the pages'
/// fingerprints made by [`Fingerprints::of`] from the view's text, matched by the same policy
/// (the exact fingerprint first, then, in MinHash mode, the most similar base page whose
/// estimated Jaccard reaches the threshold; the first-learnt page wins). So the figures of
/// `docview replicas eval` and of its gate are those of the detector `docview ingest` runs.
pub struct IngestDetector {
    detector: ReplicaDetector,
    hasher: Option<MinHasher>,
}

impl IngestDetector {
    /// Exact fingerprints only (`--replicas exact`).
    pub fn exact() -> Self {
        IngestDetector {
            detector: ReplicaDetector::exact_only(),
            hasher: None,
        }
    }

    /// Exact fingerprints, then MinHash with `params` (`--replicas minhash`, the default).
    pub fn minhash(params: MinHashParams) -> Result<Self> {
        Ok(IngestDetector {
            detector: ReplicaDetector::new(Detection::MinHash, params)?,
            hasher: Some(MinHasher::new(params)?),
        })
    }

    fn fingerprints(&self, page: &PageText) -> Fingerprints {
        // The keyword fingerprint plays no part in these two modes.
        Fingerprints::of(
            &page.text,
            &[],
            KeywordParams::default(),
            self.hasher.as_ref(),
        )
    }
}

impl NearDetector for IngestDetector {
    fn name(&self) -> String {
        match &self.hasher {
            None => "exact MD5".to_string(),
            Some(h) => format!("MinHash LSH, J >= {}", h.params().threshold),
        }
    }

    fn add_base(&mut self, id: u64, page: &PageText) {
        let fingerprints = self.fingerprints(page);
        self.detector.remember(id, &fingerprints);
    }

    fn find(&self, page: &PageText) -> Option<(u64, f32)> {
        self.detector
            .find(&self.fingerprints(page))
            .map(|m| (m.of, m.similarity.unwrap_or(1.0)))
    }
}

/// MinHash rows for `docview replicas eval`: the default parameters at a few thresholds.
pub fn minhash_detectors(thresholds: &[f32]) -> impl Fn(View) -> Vec<Box<dyn NearDetector>> + Sync {
    let thresholds = thresholds.to_vec();
    move |_view| {
        thresholds
            .iter()
            .filter_map(|&threshold| {
                let params = MinHashParams {
                    threshold,
                    ..MinHashParams::default()
                };
                IngestDetector::minhash(params)
                    .ok()
                    .map(|d| Box::new(d) as Box<dyn NearDetector>)
            })
            .collect()
    }
}

/// The paper's keyword fingerprint with one Percentage and Interval.
#[derive(Debug)]
pub struct KeywordDetector {
    params: KeywordParams,
    table: FingerprintTable,
}

impl KeywordDetector {
    /// An empty detector.
    pub fn new(params: KeywordParams) -> Self {
        KeywordDetector {
            params,
            table: FingerprintTable::default(),
        }
    }
}

impl NearDetector for KeywordDetector {
    fn name(&self) -> String {
        format!(
            "keyword P={:.0}% I={}",
            self.params.percentage * 100.0,
            self.params.interval
        )
    }

    fn add_base(&mut self, id: u64, page: &PageText) {
        self.table
            .add(id, keyword_fingerprint(&page.term_counts, self.params));
    }

    fn find(&self, page: &PageText) -> Option<(u64, f32)> {
        self.table
            .find(keyword_fingerprint(&page.term_counts, self.params))
    }
}

/// Which text of a page the detectors see.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum View {
    /// All visible text of the raw page.
    Raw,
    /// The topic content the cleaner keeps.
    Topic,
    /// The page's own text, without the site's template lines (ingest's replica text).
    Replica,
}

impl View {
    /// How reports name it.
    pub fn describe(self) -> &'static str {
        match self {
            View::Raw => "raw page (all visible text)",
            View::Topic => "topic content (cleaned first)",
            View::Replica => "replica text (own text, site-template lines left out, as ingest)",
        }
    }
}

/// Makes the extra detectors of one view (called once per view).
pub type DetectorFactory<'a> = &'a (dyn Fn(View) -> Vec<Box<dyn NearDetector>> + Sync);

/// No extra detectors.
pub fn no_extra_detectors(_: View) -> Vec<Box<dyn NearDetector>> {
    Vec::new()
}

/// One detector's results on one view.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Score {
    /// The detector's name.
    pub detector: String,
    /// Near-replicas matched to their own base page.
    pub hits: usize,
    /// Near-replicas matched to another base page.
    pub misplaced: usize,
    /// Non-replicas matched to a base page.
    pub errors: usize,
    /// Near-replicas asked.
    pub near: usize,
    /// Non-replicas asked.
    pub non: usize,
    /// `hits / near`, in percent.
    pub hit_rate: f64,
    /// `errors / non`, in percent.
    pub error_rate: f64,
    /// Same-host copies matched to their own base page.
    pub copy_hits: usize,
    /// Same-host copies asked.
    pub copies: usize,
    /// The near-replicas (by position in `pairs.jsonl`) not matched to their own base page,
    /// each with the base page it was matched to instead, if any; listed in
    /// [`BenchmarkEval::misses`] for the replica view's extra detectors.
    #[serde(skip)]
    pub missed: Vec<(usize, Option<usize>)>,
}

/// A cell of the keyword grid.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GridCell {
    /// Percentage, 0.1 to 1.
    pub percentage: f32,
    /// Interval.
    pub interval: usize,
    /// The results.
    #[serde(flatten)]
    pub score: Score,
}

/// All detectors' results on one view.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ViewEval {
    /// The view.
    pub view: View,
    /// Pages (base, near and non) whose view has no feature.
    pub pages_without_terms: usize,
    /// The exact fingerprint.
    pub exact: Score,
    /// The keyword grid, interval-major (I=1 with P=10%..100%, then I=2, ...).
    pub grid: Vec<GridCell>,
    /// The extra detectors.
    pub extra: Vec<Score>,
}

impl ViewEval {
    /// The grid cell for Percentage `tenths`/10 and `interval`.
    pub fn cell(&self, tenths: u32, interval: usize) -> Option<&GridCell> {
        self.grid
            .iter()
            .find(|c| c.interval == interval && (c.percentage * 10.0).round() as u32 == tenths)
    }
}

/// A page of the benchmark that could not be cleaned.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Unreadable {
    /// The file, relative to the benchmark folder.
    pub file: String,
    /// Why.
    pub reason: String,
}

/// `eval.json`: the whole experiment.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BenchmarkEval {
    /// The benchmark folder.
    pub dir: PathBuf,
    /// The cleaner that made the topic view.
    pub cleaner: String,
    /// Base pages (and near-replicas, and non-replicas).
    pub pairs: usize,
    /// Pages that could not be cleaned (they match nothing).
    pub unreadable: Vec<Unreadable>,
    /// Seconds reading and cleaning the pages and counting their terms.
    pub extract_secs: f64,
    /// Seconds running the detectors.
    pub detect_secs: f64,
    /// On the raw pages.
    pub raw: ViewEval,
    /// On the topic content.
    pub topic: ViewEval,
    /// Sites whose template was learnt (of `pairs`).
    pub template_sites: usize,
    /// On the replica text.
    pub replica: ViewEval,
    /// The near-replicas each extra detector (ingest's) missed on the replica view, with what
    /// the cleaner kept of them.
    pub misses: Vec<Miss>,
}

/// A near-replica a detector did not match to its base page.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Miss {
    /// The detector.
    pub detector: String,
    /// The base page's id.
    pub id: String,
    /// The page whose template the near-replica uses.
    pub near_template: String,
    /// The base page it was matched to instead, if any.
    pub matched: Option<String>,
    /// Characters of the base page's topic content.
    pub base_topic_chars: usize,
    /// Characters of the near-replica's topic content: far more than the base page's when the
    /// cleaner kept the template's furniture, far fewer when it lost the article.
    pub near_topic_chars: usize,
}

/// The views of one page.
#[derive(Debug, Clone)]
struct Views {
    raw: PageText,
    topic: PageText,
    replica: PageText,
    lang: Language,
}

impl Views {
    fn get(&self, view: View) -> &PageText {
        match view {
            View::Raw => &self.raw,
            View::Topic => &self.topic,
            View::Replica => &self.replica,
        }
    }
}

/// The benchmark's pages, cleaned: `None` for an unreadable page.
struct Pages {
    base: Vec<Option<Views>>,
    near: Vec<Option<Views>>,
    non: Vec<Option<Views>>,
    /// Same-host copies: the base page they copy and their views.
    copies: Vec<(usize, Views)>,
}

/// Every this many base pages, one gets same-host copies.
const COPIED_EVERY: usize = 4;
/// Same-host copies of such a base page.
const COPIES_PER_PAGE: usize = 4;

/// Copy `c` of a base page on its own host, as crawls meet them (tracking parameters, print
/// and AMP versions): the same page with one line of its own added, in both views.
fn same_host_copy(base: &Views, c: usize, analyzer: &Analyzer) -> Views {
    let line = format!("\nUpdate {c}: this version of the page was crawled again on day {c}.");
    Views {
        raw: PageText::new(format!("{}{line}", base.raw.text), analyzer, base.lang),
        topic: PageText::new(format!("{}{line}", base.topic.text), analyzer, base.lang),
        replica: PageText::default(),
        lang: base.lang,
    }
}

/// Runs the experiment on the benchmark in `dir`: the exact row, the keyword grid and the
/// detectors `extra` makes, each on the raw and the topic view. Pages are cleaned with
/// `cleaner` on `threads` threads (0: one per core).
pub fn evaluate_benchmark(
    dir: &Path,
    cleaner: &dyn Cleaner,
    threads: usize,
    extra: DetectorFactory<'_>,
) -> Result<BenchmarkEval> {
    let pairs = read_pairs(dir)?;
    if pairs.is_empty() {
        return Err(Error::Benchmark {
            path: dir.to_path_buf(),
            reason: "pairs.jsonl lists no page".to_string(),
        });
    }
    let pool = docview_collection::thread_pool(threads)?;
    let start = Instant::now();
    let (pages, unreadable, template_sites) = pool.install(|| read_pages(dir, &pairs, cleaner))?;
    let extract_secs = start.elapsed().as_secs_f64();
    let start = Instant::now();
    let raw = pool.install(|| evaluate_view(&pages, View::Raw, extra));
    let topic = pool.install(|| evaluate_view(&pages, View::Topic, extra));
    let replica = pool.install(|| evaluate_view(&pages, View::Replica, extra));
    let misses = misses(&replica, &pairs, &pages);
    Ok(BenchmarkEval {
        dir: dir.to_path_buf(),
        cleaner: cleaner.name().to_string(),
        pairs: pairs.len(),
        unreadable,
        extract_secs,
        detect_secs: start.elapsed().as_secs_f64(),
        raw,
        topic,
        template_sites,
        replica,
        misses,
    })
}

/// The misses of `view`'s extra detectors, in detector then pair order.
fn misses(view: &ViewEval, pairs: &[Pair], pages: &Pages) -> Vec<Miss> {
    let chars = |page: &Option<Views>| page.as_ref().map_or(0, |v| v.topic.text.chars().count());
    view.extra
        .iter()
        .flat_map(|score| {
            score.missed.iter().map(|&(i, matched)| Miss {
                detector: score.detector.clone(),
                id: pairs[i].id.clone(),
                near_template: pairs[i].near_template.clone(),
                matched: matched.map(|b| pairs[b].id.clone()),
                base_topic_chars: chars(&pages.base[i]),
                near_topic_chars: chars(&pages.near[i]),
            })
        })
        .collect()
}

/// Cleans every page of the benchmark, in parallel, and learns the sites' templates; also
/// gives the number of sites with a template.
fn read_pages(
    dir: &Path,
    pairs: &[Pair],
    cleaner: &dyn Cleaner,
) -> Result<(Pages, Vec<Unreadable>, usize)> {
    let analyzer = Analyzer::new();
    let files: Vec<(&str, &str)> = pairs
        .iter()
        .flat_map(|p| {
            [
                (p.base.as_str(), p.id.as_str()),
                (p.near.as_str(), p.near_template.as_str()),
                (p.non.as_str(), p.id.as_str()),
            ]
        })
        .collect();
    let mut read: Vec<std::result::Result<Views, Unreadable>> = files
        .par_iter()
        .map(|(file, _)| read_views(dir, file, cleaner, &analyzer))
        .collect::<Result<_>>()?;
    // Same-host copies of every COPIED_EVERY-th base page, learnt right after it: its site's
    // first pages then hold several copies of one page, as real crawls' do.
    let mut copies: Vec<(usize, Views)> = Vec::new();
    for (k, page) in read.iter().step_by(3).enumerate() {
        if let (0, Ok(base)) = (k % COPIED_EVERY, page) {
            copies.extend((0..COPIES_PER_PAGE).map(|c| (k, same_host_copy(base, c, &analyzer))));
        }
    }
    let mut templates = TemplateBuilder::new(TemplateParams::default());
    let mut learn = |site: &str, v: &Views| {
        templates.add_page(site, &v.raw.text, CopyKey::of(&v.raw.text, &v.topic.text));
    };
    let mut next_copy = 0;
    for (i, ((_, site), page)) in files.iter().zip(&read).enumerate() {
        if let Ok(views) = page {
            learn(site, views);
        }
        while i % 3 == 0 && copies.get(next_copy).is_some_and(|(k, _)| *k == i / 3) {
            learn(site, &copies[next_copy].1);
            next_copy += 1;
        }
    }
    let templates = templates.finish();
    let replica_of = |site: &str, v: &Views| {
        let text = templates.replica_text(Some(site), &v.raw.text, &v.topic.text);
        PageText::new(text.into_owned(), &analyzer, v.lang)
    };
    read.par_iter_mut()
        .zip(&files)
        .for_each(|(page, (_, site))| {
            if let Ok(v) = page {
                v.replica = replica_of(site, v);
            }
        });
    copies.par_iter_mut().for_each(|(k, v)| {
        v.replica = replica_of(files[3 * *k].1, v);
    });
    let mut unreadable = Vec::new();
    let mut views: Vec<Option<Views>> = Vec::with_capacity(read.len());
    for page in read {
        match page {
            Ok(v) => views.push(Some(v)),
            Err(u) => {
                unreadable.push(u);
                views.push(None);
            }
        }
    }
    let mut pages = Pages {
        base: Vec::new(),
        near: Vec::new(),
        non: Vec::new(),
        copies,
    };
    let mut views = views.into_iter();
    while let (Some(base), Some(near), Some(non)) = (views.next(), views.next(), views.next()) {
        pages.base.push(base);
        pages.near.push(near);
        pages.non.push(non);
    }
    Ok((pages, unreadable, templates.sites()))
}

/// Cleans one page (its replica view is left for [`read_pages`]); a missing file is an error
/// (the benchmark is broken), a page that cannot be cleaned is [`Unreadable`].
fn read_views(
    dir: &Path,
    file: &str,
    cleaner: &dyn Cleaner,
    analyzer: &Analyzer,
) -> Result<std::result::Result<Views, Unreadable>> {
    let path = benchmark_file(dir, file)?;
    let bytes = read_page_bytes(&path)?;
    let page = match extract_page(&bytes, None, file, cleaner) {
        Ok(page) => page,
        Err(e) => {
            return Ok(Err(Unreadable {
                file: file.to_string(),
                reason: e.to_string(),
            }));
        }
    };
    let lang = page.language();
    Ok(Ok(Views {
        raw: PageText::new(page.tree.all_text(), analyzer, lang),
        topic: PageText::new(page.cleaned.topic_text, analyzer, lang),
        replica: PageText::default(),
        lang,
    }))
}

/// The keyword detectors of the grid, interval-major.
fn grid_detectors() -> Vec<(KeywordParams, KeywordDetector)> {
    let mut out = Vec::new();
    for interval in INTERVALS {
        for tenths in PERCENTAGE_TENTHS {
            let params = KeywordParams {
                percentage: tenths as f32 / 10.0,
                interval,
            };
            out.push((params, KeywordDetector::new(params)));
        }
    }
    out
}

/// Runs every detector on one view, the detectors in parallel.
fn evaluate_view(pages: &Pages, view: View, extra: DetectorFactory<'_>) -> ViewEval {
    let grid = grid_detectors();
    let mut detectors: Vec<Box<dyn NearDetector>> = vec![Box::new(IngestDetector::exact())];
    let params: Vec<KeywordParams> = grid.iter().map(|(p, _)| *p).collect();
    detectors.extend(
        grid.into_iter()
            .map(|(_, d)| Box::new(d) as Box<dyn NearDetector>),
    );
    detectors.extend(extra(view));
    let mut scores: Vec<Score> = detectors
        .into_par_iter()
        .map(|mut d| score_detector(d.as_mut(), pages, view))
        .collect();
    let extra_scores = scores.split_off(1 + params.len());
    let grid_scores = scores.split_off(1);
    let exact = scores.pop().unwrap_or_else(|| empty_score("exact MD5"));
    let all = pages.base.iter().chain(&pages.near).chain(&pages.non);
    ViewEval {
        view,
        pages_without_terms: all
            .filter(|p| {
                p.as_ref()
                    .is_none_or(|v| v.get(view).term_counts.is_empty())
            })
            .count(),
        exact,
        grid: params
            .into_iter()
            .zip(grid_scores)
            .map(|(p, score)| GridCell {
                percentage: p.percentage,
                interval: p.interval,
                score,
            })
            .collect(),
        extra: extra_scores,
    }
}

/// Teaches `detector` the base pages, then asks it about the near and non pages.
fn score_detector(detector: &mut dyn NearDetector, pages: &Pages, view: View) -> Score {
    for (id, page) in pages.base.iter().enumerate() {
        if let Some(page) = page {
            detector.add_base(id as u64, page.get(view));
        }
    }
    let find = |page: &Option<Views>| page.as_ref().and_then(|p| detector.find(p.get(view)));
    let mut score = empty_score(&detector.name());
    for (id, page) in pages.near.iter().enumerate() {
        match find(page) {
            Some((of, _)) if of == id as u64 => score.hits += 1,
            Some((of, _)) => {
                score.misplaced += 1;
                score.missed.push((id, usize::try_from(of).ok()));
            }
            None => score.missed.push((id, None)),
        }
    }
    score.errors = pages.non.iter().filter(|p| find(p).is_some()).count();
    score.copies = pages.copies.len();
    score.copy_hits = pages
        .copies
        .iter()
        .filter(|(k, v)| {
            detector
                .find(v.get(view))
                .is_some_and(|(of, _)| of == *k as u64)
        })
        .count();
    score.near = pages.near.len();
    score.non = pages.non.len();
    score.hit_rate = percent(score.hits, score.near);
    score.error_rate = percent(score.errors, score.non);
    score
}

fn empty_score(name: &str) -> Score {
    Score {
        detector: name.to_string(),
        hits: 0,
        misplaced: 0,
        errors: 0,
        near: 0,
        non: 0,
        hit_rate: 0.0,
        error_rate: 0.0,
        copy_hits: 0,
        copies: 0,
        missed: Vec::new(),
    }
}

fn percent(n: usize, of: usize) -> f64 {
    if of == 0 {
        0.0
    } else {
        100.0 * n as f64 / of as f64
    }
}

impl BenchmarkEval {
    /// The report as text: for each view, the grid as counts (`hits/errors`, like Table 2) and
    /// as percentages, then the exact and extra rows.
    pub fn render(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "{}: {} near-replicas and {} non-replicas against {} base pages; cleaner {}; \
             {} unreadable pages",
            self.dir.display(),
            self.pairs,
            self.pairs,
            self.pairs,
            self.cleaner,
            self.unreadable.len()
        );
        let _ = writeln!(
            out,
            "site templates learnt for {} of {} sites",
            self.template_sites, self.pairs
        );
        for view in [&self.raw, &self.topic, &self.replica] {
            out.push('\n');
            out.push_str(&view.render());
        }
        if !self.misses.is_empty() {
            let _ = writeln!(
                out,
                "\nnear-replicas missed on the replica view (topic characters of the base page \
                 and of the near-replica):"
            );
            for m in &self.misses {
                let _ = writeln!(
                    out,
                    "{}: {} in {}'s template{}, {} / {}",
                    m.detector,
                    m.id,
                    m.near_template,
                    m.matched
                        .as_ref()
                        .map_or(String::new(), |b| format!(" (matched {b})")),
                    m.base_topic_chars,
                    m.near_topic_chars
                );
            }
        }
        out
    }
}

impl ViewEval {
    /// This view's tables and rows.
    pub fn render(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(
            out,
            "== {} ({} pages without terms)",
            self.view.describe(),
            self.pages_without_terms
        );
        let _ = writeln!(out, "keyword fingerprint, hits/errors:");
        out.push_str(&self.grid_table(|s| format!("{}/{}", s.hits, s.errors)));
        let _ = writeln!(out, "keyword fingerprint, hit%/error%:");
        out.push_str(&self.grid_table(|s| format!("{:.0}/{:.1}", s.hit_rate, s.error_rate)));
        for score in std::iter::once(&self.exact).chain(&self.extra) {
            let _ = writeln!(out, "{}", score_line(score));
        }
        if let Some(cell) = self.cell(4, 5) {
            let _ = writeln!(out, "{} (the paper's system)", score_line(&cell.score));
        }
        out
    }

    /// The grid with rows I=1..10 and columns P=10%..100%, each cell written by `cell`.
    fn grid_table(&self, cell: impl Fn(&Score) -> String) -> String {
        let mut out = format!("{:<5}", "");
        for tenths in PERCENTAGE_TENTHS {
            let _ = write!(out, " {:>9}", format!("P={}%", tenths * 10));
        }
        out.push('\n');
        for interval in INTERVALS {
            let _ = write!(out, "{:<5}", format!("I={interval}"));
            for tenths in PERCENTAGE_TENTHS {
                let text = self
                    .cell(tenths, interval)
                    .map_or(String::new(), |c| cell(&c.score));
                let _ = write!(out, " {text:>9}");
            }
            out.push('\n');
        }
        out
    }
}

/// `name: hits h/n (x%), misplaced m, errors e/n (y%)`.
fn score_line(s: &Score) -> String {
    format!(
        "{}: hits {}/{} ({:.1}%), misplaced {}, errors {}/{} ({:.1}%), same-host copies {}/{}",
        s.detector,
        s.hits,
        s.near,
        s.hit_rate,
        s.misplaced,
        s.errors,
        s.non,
        s.error_rate,
        s.copy_hits,
        s.copies
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(s: &str) -> PageText {
        PageText::new(s.to_string(), &Analyzer::new(), Language::English)
    }

    const ARTICLES: [&str; 4] = [
        "The harbor ferry crossed twice and the harbor master counted every ferry passenger",
        "Orchard growers picked apples early because orchard frost threatened the apples",
        "Glacier walkers met the glacier guide at the glacier hut before the storm",
        "Canyon riders followed the canyon river past the canyon wall to the camp",
    ];

    /// Site `s`'s boilerplate around `content`, in both views.
    fn views(s: usize, content: &str) -> Option<Views> {
        let boiler = format!("home news sport weather site{s} contact privacy terms about");
        Some(Views {
            raw: text(&format!("{boiler} {content} {boiler}")),
            topic: text(content),
            replica: text(content),
            lang: Language::English,
        })
    }

    /// Base i = site i + article i; near i = site (i+1)%3 + article i; non i = site i + article 3.
    fn make_pages() -> Pages {
        Pages {
            base: (0..3).map(|i| views(i, ARTICLES[i])).collect(),
            near: (0..3).map(|i| views((i + 1) % 3, ARTICLES[i])).collect(),
            non: (0..3).map(|i| views(i, ARTICLES[3])).collect(),
            copies: Vec::new(),
        }
    }

    #[test]
    fn page_text_counts_features_in_step_2_order() {
        let t = text("Rivers and the river; a bridge.");
        assert_eq!(
            t.term_counts,
            [("river".to_string(), 2), ("bridg".to_string(), 1)]
        );
    }

    fn figures() -> super::super::benchmark::CoverageFigures {
        super::super::benchmark::CoverageFigures {
            coverage: 1.0,
            precision: 1.0,
            node_tokens: 1,
            reference_tokens: 1,
            body_tokens: 1,
        }
    }

    #[test]
    fn hits_misplaced_and_errors_are_counted() {
        let pages = make_pages();
        let mut exact = IngestDetector::exact();
        let topic = score_detector(&mut exact, &pages, View::Topic);
        assert_eq!((topic.hits, topic.misplaced, topic.errors), (3, 0, 0));
        assert_eq!((topic.near, topic.non, topic.hit_rate), (3, 3, 100.0));
        // A same-host copy counts when it matches its own base page.
        let mut copied = make_pages();
        copied.base[0] = views(0, &ARTICLES.join(" and then "));
        let analyzer = Analyzer::new();
        let copy = same_host_copy(copied.base[0].as_ref().unwrap(), 0, &analyzer);
        copied.copies = vec![(0, copy.clone()), (1, copy)];
        let mut minhash = IngestDetector::minhash(MinHashParams::default()).unwrap();
        let s = score_detector(&mut minhash, &copied, View::Topic);
        assert_eq!((s.copy_hits, s.copies), (1, 2));
        let mut exact = IngestDetector::exact();
        let raw = score_detector(&mut exact, &pages, View::Raw);
        assert_eq!((raw.hits, raw.misplaced, raw.errors), (0, 0, 0));
        // A non-replica holding a base page's own content is an error.
        let mut same = make_pages();
        same.non[1] = views(1, ARTICLES[0]);
        let mut exact = IngestDetector::exact();
        let s = score_detector(&mut exact, &same, View::Topic);
        assert_eq!((s.errors, s.error_rate), (1, 100.0 / 3.0));
        // A near-replica matched to another base page is misplaced, not a hit.
        same.near[2] = views(0, ARTICLES[1]);
        let mut exact = IngestDetector::exact();
        let s = score_detector(&mut exact, &same, View::Topic);
        assert_eq!((s.hits, s.misplaced), (2, 1));
        assert_eq!(s.missed, [(2, Some(1))]);
        // Misses are listed with what the cleaner kept of the pages.
        let pairs: Vec<Pair> = (0..3)
            .map(|i| Pair {
                id: format!("p{i}"),
                base: String::new(),
                near: String::new(),
                near_template: format!("p{}", (i + 1) % 3),
                non: String::new(),
                non_content: String::new(),
                coverage: figures(),
                near_template_coverage: figures(),
                non_content_coverage: figures(),
            })
            .collect();
        let view = ViewEval {
            view: View::Replica,
            pages_without_terms: 0,
            exact: s.clone(),
            grid: Vec::new(),
            extra: vec![s.clone()],
        };
        let listed = misses(&view, &pairs, &same);
        assert_eq!(listed.len(), 1);
        assert_eq!(
            (listed[0].id.as_str(), listed[0].near_template.as_str()),
            ("p2", "p0")
        );
        assert_eq!(listed[0].matched.as_deref(), Some("p1"));
        assert_eq!(
            (listed[0].base_topic_chars, listed[0].near_topic_chars),
            (ARTICLES[2].len(), ARTICLES[1].len())
        );
        // Unreadable pages match nothing.
        same.near[0] = None;
        same.base[1] = None;
        let mut exact = IngestDetector::exact();
        let s = score_detector(&mut exact, &same, View::Topic);
        assert_eq!((s.hits, s.misplaced, s.errors), (0, 0, 1));
    }

    /// A detector that matches everything to base page 0: a stand-in for an added row.
    struct Always;

    impl NearDetector for Always {
        fn name(&self) -> String {
            "always page 0".to_string()
        }
        fn add_base(&mut self, _: u64, _: &PageText) {}
        fn find(&self, _: &PageText) -> Option<(u64, f32)> {
            Some((0, 0.5))
        }
    }

    #[test]
    fn grid_has_every_cell_and_extra_rows_are_scored() {
        let pages = make_pages();
        let extra = |view: View| -> Vec<Box<dyn NearDetector>> {
            match view {
                View::Raw => vec![Box::new(Always)],
                View::Topic | View::Replica => vec![Box::new(Always), Box::new(Always)],
            }
        };
        let raw = evaluate_view(&pages, View::Raw, &extra);
        let topic = evaluate_view(&pages, View::Topic, &extra);
        for v in [&raw, &topic] {
            assert_eq!(v.grid.len(), 100);
            for tenths in PERCENTAGE_TENTHS {
                for interval in INTERVALS {
                    let cell = v.cell(tenths, interval).unwrap();
                    assert_eq!(cell.score.near, 3);
                    assert!(cell.score.hits + cell.score.misplaced <= 3);
                    assert_eq!(
                        cell.score.detector,
                        format!("keyword P={}% I={interval}", tenths * 10)
                    );
                }
            }
            assert_eq!(v.exact.detector, "exact MD5");
            assert_eq!(v.pages_without_terms, 0);
        }
        assert_eq!(raw.extra.len(), 1);
        assert_eq!(topic.extra.len(), 2);
        let always = &topic.extra[0];
        assert_eq!((always.hits, always.misplaced, always.errors), (1, 2, 3));
        // Topic content: every near-replica found, no error, in every cell that fingerprints
        // these short articles (P=100%, I=1 uses all their features).
        assert_eq!(topic.cell(10, 1).unwrap().score.hits, 3);
        assert_eq!(topic.exact.hits, 3);
        let rendered = topic.render();
        assert!(
            rendered.contains("P=100%") && rendered.contains("I=10"),
            "{rendered}"
        );
        assert!(rendered.contains("always page 0: hits 1/3"), "{rendered}");
    }
}
