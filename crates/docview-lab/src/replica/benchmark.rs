//! `docview replicas build`: a near-replica benchmark made from a labelled set's real pages, the
//! way the paper made its own (004 §7.2): a **base** set, a **near-replica** set (each base
//! page's main content in another base page's template) and a **non-replica** set (each base
//! page's template holding main content found in no base page).
//!
//! Main content is found from the reference text with [`locate_main_content`], never with a
//! cleaner, and moved with [`transplant`]. Pages whose main content cannot be located are left
//! out of all three sets and counted, and so are pages whose reference repeats an earlier
//! page's (same tokens: the set's own replicas, which would make a non-replica a replica). The
//! usable pages are shuffled with the seed (ChaCha8) and split: the first half (rounded up) is
//! the base set, the rest are **donors** whose main content fills the non-replica pages, so
//! that a non-replica's content is really in no base page (a donor from the base set would
//! make every correct content match an "error"). Near-replica templates are a seeded cyclic
//! permutation of the base pages (never the page itself); donors are dealt out in seeded
//! order, reused when there are fewer donors than base pages.
//!
//! Output, all UTF-8, byte-identical for the same set and seed whatever the threads:
//! `DIR/base/<id>.html`, `DIR/near/<id>.html`, `DIR/non/<id>.html`, `DIR/pairs.jsonl` (one
//! [`Pair`] per base page) and `DIR/benchmark.json` (a [`BuildReport`]).

use std::collections::{BTreeMap, HashMap};
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};

use ego_tree::NodeId;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use scraper::Html;
use serde::{Deserialize, Serialize};

use super::locate::{
    Coverage, MIN_COVERAGE, declare_utf8, locate_main_content, move_head_metadata,
    strip_url_metadata, transplant,
};
use crate::eval::{LabelledPage, UNKNOWN_PAGE_TYPE, load_set};
use crate::input::{decode_html, looks_binary, read_page_bytes};
use crate::{Error, Result};
use docview_collection::replica::{Fingerprint, exact_fingerprint};

/// The benchmark's page sets, by folder name.
pub const SETS: [&str; 3] = ["base", "near", "non"];

/// How the near-replica and non-replica pages are made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Rules {
    /// The paper's (004 §7.2): a page's main content moved into another page's template, the
    /// rest of that page (its head included) as it was.
    #[default]
    Paper,
    /// Harder, as an independent near-replica benchmark makes them: the head metadata that
    /// describes the content (title, description, Open Graph, JSON-LD...) moves with it, no
    /// page keeps its address (`<base>`, canonical link, `og:url`), and a near-replica's
    /// template is a page of another page type where the set has page types.
    Transplant,
}

/// How to build a benchmark.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BuildOptions {
    /// Seed of the split and of the pairings.
    pub seed: u64,
    /// Worker threads (0: one per core).
    pub threads: usize,
    /// Least share of the reference a main-content node must hold.
    pub min_coverage: f32,
    /// How the pages are made.
    pub rules: Rules,
}

impl Default for BuildOptions {
    fn default() -> Self {
        BuildOptions {
            seed: 1,
            threads: 0,
            min_coverage: MIN_COVERAGE,
            rules: Rules::Paper,
        }
    }
}

/// One base page and the two pages made for it (a line of `pairs.jsonl`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Pair {
    /// The base page's id.
    pub id: String,
    /// `base/<id>.html`: the page as it is.
    pub base: String,
    /// `near/<id>.html`: this page's main content in another base page's template.
    pub near: String,
    /// The base page whose template the near-replica uses.
    pub near_template: String,
    /// `non/<id>.html`: this page's template holding a donor's main content.
    pub non: String,
    /// The donor page (not in the base set) whose main content the non-replica holds.
    pub non_content: String,
    /// How the base page's main-content node matched its reference.
    pub coverage: CoverageFigures,
    /// The same for the near-replica's template page.
    pub near_template_coverage: CoverageFigures,
    /// The same for the donor.
    pub non_content_coverage: CoverageFigures,
}

/// [`Coverage`] as written in `pairs.jsonl`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct CoverageFigures {
    /// Share of the reference's tokens in the node.
    pub coverage: f32,
    /// Share of the node's tokens that are reference tokens.
    pub precision: f32,
    /// Tokens of the node.
    pub node_tokens: u32,
    /// Tokens of the reference.
    pub reference_tokens: u32,
    /// Tokens of `<body>`.
    pub body_tokens: u32,
}

impl From<Coverage> for CoverageFigures {
    fn from(c: Coverage) -> Self {
        CoverageFigures {
            coverage: c.coverage,
            precision: c.precision,
            node_tokens: c.node_tokens,
            reference_tokens: c.reference_tokens,
            body_tokens: c.body_tokens,
        }
    }
}

/// A page left out of the benchmark.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Skipped {
    /// Its id.
    pub id: String,
    /// Why, in full.
    pub reason: String,
}

/// `benchmark.json`: what was built from what.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BuildReport {
    /// The labelled set's folder name.
    pub set: String,
    /// The seed.
    pub seed: u64,
    /// The locator's least coverage.
    pub min_coverage: f32,
    /// How the pages were made (the paper's rules in a report written before there were
    /// others).
    #[serde(default)]
    pub rules: Rules,
    /// Pages in the set.
    pub pages: usize,
    /// Pages whose main content was located.
    pub usable: usize,
    /// Base pages (also near-replicas and non-replicas, one each).
    pub base: usize,
    /// Donor pages (their main content fills the non-replicas).
    pub donors: usize,
    /// Pages left out, by short reason.
    pub skipped_by_reason: BTreeMap<String, usize>,
    /// Pages left out, each with its reason.
    pub skipped: Vec<Skipped>,
}

/// A page whose main content was located: its decoded text and the figures.
struct Usable {
    id: String,
    /// Its page type in the set (empty where the set gives none).
    page_type: String,
    text: String,
    node: NodeId,
    figures: Coverage,
}

/// Builds the benchmark of the labelled set `set` into `out` (created, or empty).
pub fn build_benchmark(set: &Path, out: &Path, options: &BuildOptions) -> Result<BuildReport> {
    let pages = load_set(set)?;
    prepare_out_dir(out)?;
    let pool = docview_collection::thread_pool(options.threads)?;
    let located: Vec<std::result::Result<Usable, Skipped>> = pool.install(|| {
        pages
            .par_iter()
            .map(|page| usable_page(page, options.min_coverage))
            .collect()
    });
    let mut usable = Vec::new();
    let mut skipped = Vec::new();
    let mut references: HashMap<Fingerprint, String> = HashMap::new();
    for (page, located) in pages.iter().zip(located) {
        match located {
            Ok(located) => {
                match exact_fingerprint(&page.main_content).and_then(|f| references.get(&f)) {
                    Some(first) => skipped.push(Skipped {
                        id: located.id,
                        reason: format!("duplicate reference (the main content of {first})"),
                    }),
                    None => {
                        if let Some(f) = exact_fingerprint(&page.main_content) {
                            references.insert(f, located.id.clone());
                        }
                        usable.push(located);
                    }
                }
            }
            Err(skip) => skipped.push(skip),
        }
    }
    let mut plan = plan(usable.len(), options.seed).ok_or_else(|| Error::Benchmark {
        path: set.to_path_buf(),
        reason: format!(
            "{} pages with a located main content; at least 3 are needed",
            usable.len()
        ),
    })?;
    if options.rules == Rules::Transplant {
        let types: Vec<&str> = usable.iter().map(|u| u.page_type.as_str()).collect();
        templates_of_other_types(&mut plan, &types, options.seed);
    }
    let pairs = pool.install(|| {
        plan.base
            .par_iter()
            .enumerate()
            .map(|(b, &i)| write_triple(&usable, &plan, b, i, out, options.rules))
            .collect::<Result<Vec<Pair>>>()
    })?;
    write_pairs(&out.join("pairs.jsonl"), &pairs)?;
    let report = BuildReport {
        set: set_name(set),
        seed: options.seed,
        min_coverage: options.min_coverage,
        rules: options.rules,
        pages: pages.len(),
        usable: usable.len(),
        base: plan.base.len(),
        donors: plan.donors.len(),
        skipped_by_reason: count_reasons(&skipped),
        skipped,
    };
    crate::output::write_json_atomically(&out.join("benchmark.json"), &report)?;
    Ok(report)
}

/// The set's folder name.
fn set_name(set: &Path) -> String {
    set.canonicalize()
        .ok()
        .and_then(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_else(|| set.display().to_string())
}

/// Creates `out` and its three set folders; `out` must not exist or be empty.
fn prepare_out_dir(out: &Path) -> Result<()> {
    if out.exists() {
        let mut entries = fs::read_dir(out).map_err(|e| Error::io(out, e))?;
        if entries.next().is_some() {
            return Err(Error::Benchmark {
                path: out.to_path_buf(),
                reason: "the output folder is not empty".to_string(),
            });
        }
    }
    for set in SETS {
        let dir = out.join(set);
        fs::create_dir_all(&dir).map_err(|e| Error::io(&dir, e))?;
    }
    Ok(())
}

/// Reads, decodes and locates one labelled page.
fn usable_page(page: &LabelledPage, min_coverage: f32) -> std::result::Result<Usable, Skipped> {
    let skip = |reason: String| Skipped {
        id: page.file_id.clone(),
        reason,
    };
    let bytes = read_page_bytes(&page.html_path).map_err(|e| skip(format!("unreadable: {e}")))?;
    if looks_binary(&bytes) {
        return Err(skip("unreadable: binary data".to_string()));
    }
    let text = decode_html(&bytes, None).text;
    let doc = Html::parse_document(&text);
    let located = locate_main_content(&doc, &page.main_content, min_coverage)
        .map_err(|e| skip(e.to_string()))?;
    Ok(Usable {
        id: page.file_id.clone(),
        page_type: if page.page_type == UNKNOWN_PAGE_TYPE {
            String::new()
        } else {
            page.page_type.clone()
        },
        text,
        node: located.node,
        figures: located.figures,
    })
}

/// Counts the skipped pages by short reason (the full reason up to a parenthesis or colon).
fn count_reasons(skipped: &[Skipped]) -> BTreeMap<String, usize> {
    let mut counts = BTreeMap::new();
    for s in skipped {
        let short = s
            .reason
            .split([':', '('])
            .next()
            .unwrap_or(&s.reason)
            .trim();
        *counts.entry(short.to_string()).or_insert(0) += 1;
    }
    counts
}

/// Who goes where, as positions in the usable pages (sorted by id).
#[derive(Debug, Clone, PartialEq, Eq)]
struct Plan {
    /// The base pages, in id order.
    base: Vec<usize>,
    /// The donors, in dealing order.
    donors: Vec<usize>,
    /// For the b-th base page, the position in `base` of its near-replica's template.
    template: Vec<usize>,
}

impl Plan {
    /// The donor of the b-th base page.
    fn donor(&self, b: usize) -> usize {
        self.donors[b % self.donors.len()]
    }
}

/// Splits `n` usable pages into base and donors and pairs them; `None` below 3 pages.
fn plan(n: usize, seed: u64) -> Option<Plan> {
    if n < 3 {
        return None;
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut order: Vec<usize> = (0..n).collect();
    order.shuffle(&mut rng);
    let mut base = order[..n.div_ceil(2)].to_vec();
    base.sort_unstable();
    let donors = order[n.div_ceil(2)..].to_vec();
    let template = cyclic_permutation(base.len(), &mut rng);
    Some(Plan {
        base,
        donors,
        template,
    })
}

/// Gives each base page of a typed set a near-replica template of another page type, drawn
/// with the seed among the base pages (a template may serve more than one page); a page of no
/// type, or of the only type, keeps its cyclic template.
fn templates_of_other_types(plan: &mut Plan, types: &[&str], seed: u64) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x7472_616e_7370_6c61);
    for b in 0..plan.base.len() {
        let own = types[plan.base[b]];
        if own.is_empty() {
            continue;
        }
        let others: Vec<usize> = (0..plan.base.len())
            .filter(|&t| {
                let other = types[plan.base[t]];
                !other.is_empty() && other != own
            })
            .collect();
        if !others.is_empty() {
            plan.template[b] = others[rng.random_range(0..others.len())];
        }
    }
}

/// Writes the base, near and non pages of the b-th base page (usable page `i`).
fn write_triple(
    usable: &[Usable],
    plan: &Plan,
    b: usize,
    i: usize,
    out: &Path,
    rules: Rules,
) -> Result<Pair> {
    let page = &usable[i];
    let template = &usable[plan.base[plan.template[b]]];
    let donor = &usable[plan.donor(b)];
    let base_file = format!("base/{}.html", page.id);
    let near_file = format!("near/{}.html", page.id);
    let non_file = format!("non/{}.html", page.id);
    write_page(&out.join(&base_file), &as_utf8(&page.text, rules))?;
    write_page(&out.join(&near_file), &compose(template, page, rules))?;
    write_page(&out.join(&non_file), &compose(page, donor, rules))?;
    Ok(Pair {
        id: page.id.clone(),
        base: base_file,
        near: near_file,
        near_template: template.id.clone(),
        non: non_file,
        non_content: donor.id.clone(),
        coverage: page.figures.into(),
        near_template_coverage: template.figures.into(),
        non_content_coverage: donor.figures.into(),
    })
}

/// A page re-serialized as UTF-8 (without its address under the transplant rules).
fn as_utf8(text: &str, rules: Rules) -> String {
    let mut doc = Html::parse_document(text);
    if rules == Rules::Transplant {
        strip_url_metadata(&mut doc);
    }
    declare_utf8(&mut doc);
    doc.html()
}

/// `template`'s page with its main content replaced by `content`'s (and, under the transplant
/// rules, its head metadata by `content`'s, and its address removed).
///
/// Parsing is deterministic, so the node ids found when the pages were located hold in a fresh
/// parse of the same text.
fn compose(template: &Usable, content: &Usable, rules: Rules) -> String {
    let mut doc = Html::parse_document(&template.text);
    let source = Html::parse_document(&content.text);
    transplant(&mut doc, template.node, &source, content.node);
    if rules == Rules::Transplant {
        move_head_metadata(&mut doc, &source);
        strip_url_metadata(&mut doc);
    }
    declare_utf8(&mut doc);
    doc.html()
}

/// Writes one page.
fn write_page(path: &Path, html: &str) -> Result<()> {
    fs::write(path, html).map_err(|e| Error::io(path, e))
}

/// Writes the pairs as JSON lines.
fn write_pairs(path: &Path, pairs: &[Pair]) -> Result<()> {
    crate::output::write_atomically(path, |w| {
        for pair in pairs {
            serde_json::to_writer(&mut *w, pair).map_err(std::io::Error::other)?;
            w.write_all(b"\n")?;
        }
        Ok(())
    })?;
    Ok(())
}

/// Reads `DIR/pairs.jsonl`.
pub fn read_pairs(dir: &Path) -> Result<Vec<Pair>> {
    let path = dir.join("pairs.jsonl");
    let text = fs::read_to_string(&path).map_err(|e| Error::io(&path, e))?;
    text.lines()
        .enumerate()
        .filter(|(_, line)| !line.trim().is_empty())
        .map(|(n, line)| {
            serde_json::from_str(line).map_err(|e| Error::Benchmark {
                path: path.clone(),
                reason: format!("line {}: {e}", n + 1),
            })
        })
        .collect()
}

/// The path of a benchmark file named in `pairs.jsonl`, refusing names that leave `dir`.
pub fn benchmark_file(dir: &Path, name: &str) -> Result<PathBuf> {
    let relative = Path::new(name);
    let inside = relative
        .components()
        .all(|c| matches!(c, std::path::Component::Normal(_)));
    if !inside {
        return Err(Error::Benchmark {
            path: dir.to_path_buf(),
            reason: format!("pairs.jsonl names a file outside the benchmark: {name:?}"),
        });
    }
    Ok(dir.join(relative))
}

/// A random permutation of `0..n` made of one cycle (Sattolo's algorithm): no `i` maps to
/// itself when `n` > 1, so no near-replica is put into its own template.
fn cyclic_permutation(n: usize, rng: &mut ChaCha8Rng) -> Vec<usize> {
    let mut p: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        let j = rng.random_range(0..i);
        p.swap(i, j);
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plan_splits_and_never_pairs_a_page_with_itself() {
        for n in [3, 4, 7, 40] {
            let p = plan(n, 7).unwrap();
            assert_eq!(p.base.len(), n.div_ceil(2));
            assert_eq!(p.base.len() + p.donors.len(), n);
            let mut all: Vec<usize> = p.base.iter().chain(&p.donors).copied().collect();
            all.sort_unstable();
            assert_eq!(all, (0..n).collect::<Vec<_>>());
            for (b, &t) in p.template.iter().enumerate() {
                assert_ne!(b, t, "n={n}");
            }
            for b in 0..p.base.len() {
                assert!(!p.base.contains(&p.donor(b)));
            }
            assert_eq!(plan(n, 7), Some(p));
        }
        assert_ne!(plan(40, 1), plan(40, 2));
        assert_eq!(plan(2, 1), None);
    }

    /// A page of site `s` (its own navigation and footer words) holding article `a`.
    fn site_page(s: usize, a: usize) -> (String, String) {
        let words = [
            "river", "harbor", "orchard", "glacier", "canyon", "meadow", "lagoon",
        ];
        let article = format!(
            "The {w} story number {a}: people came to the {w} at dawn and stayed until the {w} \
             was quiet again, and every {w} visitor wrote about the {w} in the book.",
            w = words[a % words.len()]
        );
        let html = format!(
            "<!DOCTYPE html><html><head><meta charset=\"iso-8859-1\"><title>Site {s}</title>\
             </head><body><nav><a href=\"/\">navword{s} home</a> <a href=\"/x\">navword{s} \
             more</a></nav><div class=\"content\"><article><p>{article}</p></article></div>\
             <footer>footword{s} caf\u{e9} rights</footer></body></html>"
        );
        (html, article)
    }

    fn write_set(dir: &Path, n: usize) {
        fs::create_dir_all(dir.join("html")).unwrap();
        fs::create_dir_all(dir.join("ground-truth")).unwrap();
        for i in 0..n {
            let (html, article) = site_page(i, i);
            let (bytes, _, _) = encoding_rs::WINDOWS_1252.encode(&html);
            fs::write(dir.join(format!("html/p{i}.html")), bytes).unwrap();
            let truth = serde_json::json!({"ground_truth": {"main_content": article}});
            fs::write(
                dir.join(format!("ground-truth/p{i}.json")),
                truth.to_string(),
            )
            .unwrap();
        }
        // A page whose reference is not on it, and one with an empty reference.
        fs::write(dir.join("html/q1.html"), "<p>nothing to see</p>").unwrap();
        fs::write(
            dir.join("ground-truth/q1.json"),
            r#"{"ground_truth": {"main_content": "a story found on no page at all"}}"#,
        )
        .unwrap();
        fs::write(dir.join("html/q2.html"), "<p>words</p>").unwrap();
        fs::write(
            dir.join("ground-truth/q2.json"),
            r#"{"ground_truth": {"main_content": ""}}"#,
        )
        .unwrap();
    }

    fn visible_text(path: &Path) -> String {
        let html = fs::read_to_string(path).unwrap();
        Html::parse_document(&html)
            .root_element()
            .text()
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn builds_the_three_sets_and_leaves_out_what_it_cannot_locate() {
        let tmp = tempfile::tempdir().unwrap();
        let set = tmp.path().join("tiny-dev");
        write_set(&set, 6);
        let out = tmp.path().join("bench");
        let report = build_benchmark(&set, &out, &BuildOptions::default()).unwrap();
        assert_eq!((report.pages, report.usable), (8, 6));
        assert_eq!((report.base, report.donors), (3, 3));
        assert_eq!(report.skipped_by_reason["empty reference"], 1);
        assert_eq!(
            report.skipped_by_reason["reference not found in the page"],
            1
        );
        let pairs = read_pairs(&out).unwrap();
        assert_eq!(pairs.len(), 3);
        let site = |id: &str| id.trim_start_matches('p').parse::<usize>().unwrap();
        for pair in &pairs {
            let i = site(&pair.id);
            let (_, article) = site_page(i, i);
            // Near: this page's article, the template's navigation and footer.
            let j = site(&pair.near_template);
            assert_ne!(i, j);
            let near = visible_text(&out.join(&pair.near));
            assert!(near.contains(&article), "{near}");
            assert!(near.contains(&format!("navword{j} home")), "{near}");
            assert!(near.contains(&format!("footword{j} café")), "{near}");
            assert!(!near.contains(&format!("navword{i} ")), "{near}");
            // Non: this page's template, the donor's article.
            let k = site(&pair.non_content);
            let non = visible_text(&out.join(&pair.non));
            assert!(non.contains(&format!("navword{i} home")), "{non}");
            assert!(non.contains(&site_page(k, k).1), "{non}");
            assert!(!non.contains(&article), "{non}");
            assert!(!pairs.iter().any(|p| p.id == pair.non_content));
            // Every page is UTF-8 and says so.
            for file in [&pair.base, &pair.near, &pair.non] {
                let html = fs::read_to_string(out.join(file)).unwrap();
                assert!(html.contains("<meta charset=\"utf-8\">"), "{file}");
                assert!(!html.contains("iso-8859-1"), "{file}");
            }
        }
        let err = build_benchmark(&set, &out, &BuildOptions::default()).unwrap_err();
        assert!(err.to_string().contains("not empty"), "{err}");
    }

    fn files(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
        let mut out: Vec<(PathBuf, Vec<u8>)> = walkdir::WalkDir::new(dir)
            .into_iter()
            .map(|e| e.unwrap())
            .filter(|e| e.file_type().is_file())
            .map(|e| {
                let rel = e.path().strip_prefix(dir).unwrap().to_path_buf();
                (rel, fs::read(e.path()).unwrap())
            })
            .collect();
        out.sort();
        out
    }

    #[test]
    fn same_seed_same_bytes_other_seed_other_pairs() {
        let tmp = tempfile::tempdir().unwrap();
        let set = tmp.path().join("tiny-dev");
        write_set(&set, 9);
        let build = |name: &str, seed: u64, threads: usize| {
            let out = tmp.path().join(name);
            let options = BuildOptions {
                seed,
                threads,
                ..BuildOptions::default()
            };
            build_benchmark(&set, &out, &options).unwrap();
            out
        };
        let a = files(&build("a", 5, 1));
        let b = files(&build("b", 5, 3));
        assert!(a.len() > 10);
        assert_eq!(a, b);
        let c = files(&build("c", 6, 2));
        let pairs = |f: &[(PathBuf, Vec<u8>)]| {
            f.iter()
                .find(|(p, _)| p == Path::new("pairs.jsonl"))
                .unwrap()
                .1
                .clone()
        };
        assert_ne!(pairs(&a), pairs(&c));
    }

    #[test]
    fn transplant_rules_move_the_head_with_the_content_and_drop_addresses() {
        let tmp = tempfile::tempdir().unwrap();
        let set = tmp.path().join("typed-dev");
        fs::create_dir_all(set.join("html")).unwrap();
        fs::create_dir_all(set.join("ground-truth")).unwrap();
        let types = [
            "article", "article", "listing", "forum", "article", "listing",
        ];
        for (i, kind) in types.iter().enumerate() {
            let (html, article) = site_page(i, i);
            let html = html.replace(
                "</head>",
                &format!(
                    "<link rel=\"canonical\" href=\"https://s{i}.example/a\">\
                     <meta property=\"og:url\" content=\"https://s{i}.example/a\">\
                     <meta property=\"og:title\" content=\"Story {i}\">\
                     <meta name=\"description\" content=\"about story {i}\">\
                     <base href=\"https://s{i}.example/\">\
                     <link rel=\"stylesheet\" href=\"/site{i}.css\"></head>"
                ),
            );
            fs::write(set.join(format!("html/p{i}.html")), html).unwrap();
            let truth =
                serde_json::json!({"page_type": kind, "ground_truth": {"main_content": article}});
            fs::write(
                set.join(format!("ground-truth/p{i}.json")),
                truth.to_string(),
            )
            .unwrap();
        }
        let out = tmp.path().join("bench");
        let options = BuildOptions {
            rules: Rules::Transplant,
            ..BuildOptions::default()
        };
        let report = build_benchmark(&set, &out, &options).unwrap();
        assert_eq!(report.rules, Rules::Transplant);
        let pairs = read_pairs(&out).unwrap();
        assert_eq!(pairs.len(), 3);
        let site = |id: &str| id.trim_start_matches('p').parse::<usize>().unwrap();
        let base_types: Vec<&str> = pairs.iter().map(|p| types[site(&p.id)]).collect();
        for pair in &pairs {
            let (i, j) = (site(&pair.id), site(&pair.near_template));
            // A template of another type, where the base pages have another type.
            if base_types.iter().any(|&t| t != types[i]) {
                assert_ne!(types[i], types[j], "{pair:?}");
            }
            let near = fs::read_to_string(out.join(&pair.near)).unwrap();
            // The content's title and descriptions came with it; the template's style sheet
            // stayed.
            assert!(near.contains(&format!("<title>Site {i}</title>")), "{near}");
            assert!(near.contains(&format!("content=\"Story {i}\"")), "{near}");
            assert!(near.contains(&format!("about story {i}")), "{near}");
            assert!(!near.contains(&format!("Story {j}\"")), "{near}");
            assert!(near.contains(&format!("/site{j}.css")), "{near}");
            assert!(near.contains(&format!("navword{j} home")), "{near}");
            // No page keeps an address.
            for file in [&pair.base, &pair.near, &pair.non] {
                let html = fs::read_to_string(out.join(file)).unwrap();
                for gone in ["canonical", "og:url", "<base"] {
                    assert!(!html.contains(gone), "{file}: {gone} in {html}");
                }
            }
            let base = fs::read_to_string(out.join(&pair.base)).unwrap();
            assert!(base.contains(&format!("<title>Site {i}</title>")), "{base}");
        }
    }

    #[test]
    fn files_outside_the_benchmark_are_refused() {
        let dir = Path::new("/tmp/bench");
        assert!(benchmark_file(dir, "near/a.html").is_ok());
        assert!(benchmark_file(dir, "../a.html").is_err());
        assert!(benchmark_file(dir, "/etc/passwd").is_err());
    }
}
