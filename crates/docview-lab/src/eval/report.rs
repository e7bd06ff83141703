//! The result of scoring a cleaner on a set: per-page scores, averages overall and per page type,
//! speed, a text table and the predictions as JSON lines.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::io::Write;
use std::path::Path;

use serde::Serialize;

use super::corpus::LabelledPage;
use super::score::Prf;
use crate::{Error, Result};

/// The score of one page.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PageScore {
    /// The page id.
    pub file_id: String,
    /// The set's page type.
    pub page_type: String,
    /// Precision, recall and F1 against the reference main content.
    pub prf: Prf,
    /// Characters of the extraction (0 on error).
    pub predicted_chars: usize,
    /// The extractor's error, if it failed (the page then scores 0).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    /// Bytes of HTML (decompressed) given to the extractor.
    pub html_bytes: u64,
    /// Seconds spent in the extractor.
    pub extract_secs: f64,
    /// The extraction itself, when kept (empty on error).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub predicted: Option<String>,
}

/// The scores of a cleaner on a set of labelled pages.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct EvalReport {
    /// The set's folder name (from the pages' HTML paths; `mixed` if they come from several).
    pub set: String,
    /// Every page, in file id order.
    pub pages: Vec<PageScore>,
    /// The macro-average over pages.
    pub overall: Prf,
    /// Per page type: how many pages, and their macro-average.
    pub by_type: BTreeMap<String, (usize, Prf)>,
    /// How many pages the extractor failed on.
    pub errors: usize,
    /// Total bytes of (decompressed) HTML given to the extractor.
    pub html_bytes: u64,
    /// Total seconds spent in the extractor, summed over pages (CPU time of one core).
    pub extract_secs: f64,
    /// Wall-clock seconds of the whole run, reading included.
    pub wall_secs: f64,
}

impl EvalReport {
    /// Builds the report from page scores (sorted here by file id).
    pub fn from_pages(set: String, mut pages: Vec<PageScore>, wall_secs: f64) -> Self {
        pages.sort_by(|a, b| a.file_id.cmp(&b.file_id));
        let overall = Prf::mean(pages.iter().map(|p| &p.prf));
        let by_type = by_type(&pages);
        EvalReport {
            set,
            overall,
            by_type,
            errors: pages.iter().filter(|p| p.error.is_some()).count(),
            html_bytes: pages.iter().map(|p| p.html_bytes).sum(),
            extract_secs: pages.iter().map(|p| p.extract_secs).sum(),
            wall_secs,
            pages,
        }
    }

    /// Pages per second of extractor time (one core).
    pub fn pages_per_sec(&self) -> f64 {
        per_sec(self.pages.len() as f64, self.extract_secs)
    }

    /// Megabytes (10^6 bytes) of HTML per second of extractor time (one core).
    pub fn mb_per_sec(&self) -> f64 {
        per_sec(self.html_bytes as f64 / 1e6, self.extract_secs)
    }

    /// A text table: precision, recall and F1 overall and, if `by_type`, per page type with
    /// page counts; then the speed figures.
    pub fn render_table(&self, by_type: bool) -> String {
        let mut out = String::new();
        let set = if self.set.is_empty() {
            "pages"
        } else {
            &self.set
        };
        let _ = writeln!(
            out,
            "{set}: {} pages, {} errors",
            self.pages.len(),
            self.errors
        );
        let _ = writeln!(
            out,
            "{:<16} {:>6} {:>9} {:>9} {:>9}",
            "type", "pages", "precision", "recall", "F1"
        );
        row(&mut out, "all", self.pages.len(), &self.overall);
        if by_type {
            for (page_type, (n, prf)) in &self.by_type {
                row(&mut out, page_type, *n, prf);
            }
        }
        let _ = writeln!(
            out,
            "speed: {:.1} pages/s, {:.2} MB/s of HTML per core ({:.1} MB in {:.2} s of extraction); wall {:.2} s",
            self.pages_per_sec(),
            self.mb_per_sec(),
            self.html_bytes as f64 / 1e6,
            self.extract_secs,
            self.wall_secs
        );
        out
    }

    /// One table comparing cleaners on one set: a row per cleaner (in the order given) with
    /// F1 overall, F1 per page type (a column per type any report has) and pages/s and MB/s of
    /// HTML per core. `reports` pairs each cleaner's name with its report on the set.
    pub fn render_comparison(reports: &[(&str, &EvalReport)]) -> String {
        let mut out = String::new();
        let Some((_, first)) = reports.first() else {
            return out;
        };
        let set = if first.set.is_empty() {
            "pages"
        } else {
            &first.set
        };
        let types: BTreeSet<&str> = reports
            .iter()
            .flat_map(|(_, r)| r.by_type.keys().map(String::as_str))
            .collect();
        let _ = writeln!(out, "{set}: {} pages, F1 per cleaner", first.pages.len());
        let _ = write!(out, "{:<10} {:>7}", "cleaner", "all");
        for t in &types {
            let _ = write!(out, " {:>13}", truncate(t, 13));
        }
        let _ = writeln!(out, " {:>8} {:>7} {:>6}", "pages/s", "MB/s", "errors");
        for (name, report) in reports {
            let _ = write!(out, "{name:<10} {:>7.4}", report.overall.f1);
            for t in &types {
                match report.by_type.get(*t) {
                    Some((_, prf)) => {
                        let _ = write!(out, " {:>13.4}", prf.f1);
                    }
                    None => {
                        let _ = write!(out, " {:>13}", "-");
                    }
                }
            }
            let _ = writeln!(
                out,
                " {:>8.1} {:>7.2} {:>6}",
                report.pages_per_sec(),
                report.mb_per_sec(),
                report.errors
            );
        }
        out
    }

    /// Writes the kept predictions, one JSON line per page in file id order:
    /// `{"file_id": ..., "main_content": ...}` (plus `"error"` for pages the extractor failed
    /// on). The file is written to a temporary file in the same folder and renamed, so a crash
    /// never leaves it half-written.
    ///
    /// Errors when the report was made without keeping predictions.
    pub fn write_predictions_jsonl(&self, path: &Path) -> Result<()> {
        if self.pages.iter().any(|p| p.predicted.is_none()) {
            let reason = "predictions were not kept (run the evaluation with keep_predictions)";
            return Err(Error::bad_input(path.display().to_string(), reason));
        }
        crate::output::write_atomically(path, |out| self.write_lines(out))?;
        Ok(())
    }

    fn write_lines(&self, out: &mut impl Write) -> std::io::Result<()> {
        for page in &self.pages {
            let line = PredictionLine {
                file_id: &page.file_id,
                main_content: page.predicted.as_deref().unwrap_or_default(),
                error: page.error.as_deref(),
            };
            serde_json::to_writer(&mut *out, &line)?;
            out.write_all(b"\n")?;
        }
        Ok(())
    }
}

/// One line of the predictions file.
#[derive(Serialize)]
struct PredictionLine<'a> {
    file_id: &'a str,
    main_content: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<&'a str>,
}

/// The set name shared by all pages: the folder above `html/`; `mixed` if they differ.
pub(crate) fn set_name(pages: &[LabelledPage]) -> String {
    let names: BTreeSet<String> = pages
        .iter()
        .filter_map(|p| p.html_path.parent()?.parent()?.file_name())
        .map(|name| name.to_string_lossy().into_owned())
        .collect();
    match names.len() {
        1 => names.into_iter().next().unwrap_or_default(),
        0 => String::new(),
        _ => "mixed".to_string(),
    }
}

fn by_type(pages: &[PageScore]) -> BTreeMap<String, (usize, Prf)> {
    let mut groups: BTreeMap<&str, Vec<Prf>> = BTreeMap::new();
    for p in pages {
        groups.entry(&p.page_type).or_default().push(p.prf);
    }
    groups
        .into_iter()
        .map(|(t, scores)| (t.to_string(), (scores.len(), Prf::mean(&scores))))
        .collect()
}

/// The first `n` characters of `s`.
fn truncate(s: &str, n: usize) -> &str {
    s.char_indices().nth(n).map_or(s, |(i, _)| &s[..i])
}

fn row(out: &mut String, label: &str, pages: usize, prf: &Prf) {
    let _ = writeln!(
        out,
        "{label:<16} {pages:>6} {:>9.4} {:>9.4} {:>9.4}",
        prf.precision, prf.recall, prf.f1
    );
}

fn per_sec(amount: f64, secs: f64) -> f64 {
    if secs > 0.0 { amount / secs } else { 0.0 }
}
