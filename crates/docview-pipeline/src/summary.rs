//! The end-of-run summary of an ingest as text: pages read, kept, replicas, skipped with their
//! reasons, and the three indexes side by side with the paper's Table 3 ratios.

use std::fmt::Write;
use std::path::PathBuf;

use serde::{Deserialize, Serialize};

use crate::index::{IndexKind, IndexStats};
use crate::sites::SiteModelFigures;
use crate::state::Counters;

/// What an ingest did (`summary.json`).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Summary {
    /// The output directory.
    pub out: PathBuf,
    /// Counts of pages.
    pub counters: Counters,
    /// Pages the collection statistics were built from.
    pub stats_pages: u64,
    /// Size of the aggressive stop-word list.
    pub aggressive_stopwords: usize,
    /// The site templates the replica texts were made with.
    pub site_templates: SiteTemplateFigures,
    /// Each index's documents, terms and bytes.
    pub indexes: Vec<IndexStats>,
    /// Seconds over all sessions of the run.
    pub elapsed_secs: f64,
    /// True when this session continued an interrupted run.
    pub resumed: bool,
    /// Memory of the replica detector's MinHash index at the end of the run (MinHash
    /// detection, when this session ingested pages).
    pub replica_index: Option<ReplicaIndexMemory>,
    /// What the site models of a site-aware cleaner covered (none for other cleaners).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub site_models: Option<SiteModelFigures>,
    /// True when this session was asked to resume a run that had completed: it did nothing,
    /// and the rest is the run's own summary, as it ended. Not in `summary.json`.
    #[serde(skip)]
    pub already_complete: bool,
}

/// What the statistics learnt of site templates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SiteTemplateFigures {
    /// Web sites with a template.
    pub sites: usize,
    /// Template lines over all of them.
    pub lines: usize,
    /// Bytes the templates take.
    pub bytes: usize,
    /// Pages learnt from.
    pub learnt_pages: u64,
    /// Pages not learnt from (the line budget was spent).
    pub unlearnt_pages: u64,
}

impl SiteTemplateFigures {
    pub(crate) fn of(t: &crate::stats::template::SiteTemplates) -> Self {
        SiteTemplateFigures {
            sites: t.sites(),
            lines: t.lines.len(),
            bytes: t.memory_bytes(),
            learnt_pages: t.learnt_pages,
            unlearnt_pages: t.unlearnt_pages,
        }
    }
}

/// What the MinHash LSH index held at the end of an ingest.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReplicaIndexMemory {
    /// Kept pages with a signature.
    pub pages: usize,
    /// Bytes of the index.
    pub bytes: usize,
}

impl Summary {
    /// Index `kind`'s stats.
    pub fn index(&self, kind: crate::index::IndexKind) -> Option<&IndexStats> {
        self.indexes.iter().find(|s| s.kind == kind)
    }
}

/// Bytes as "12.3 MB".
pub fn human_bytes(bytes: u64) -> String {
    let b = bytes as f64;
    if b >= 1e9 {
        format!("{:.2} GB", b / 1e9)
    } else if b >= 1e6 {
        format!("{:.1} MB", b / 1e6)
    } else if b >= 1e3 {
        format!("{:.1} kB", b / 1e3)
    } else {
        format!("{bytes} B")
    }
}

fn percent(part: u64, whole: u64) -> String {
    if whole == 0 {
        "-".to_string()
    } else {
        format!("{:.1}%", 100.0 * part as f64 / whole as f64)
    }
}

impl Summary {
    /// The summary as a few lines of text.
    pub fn render(&self) -> String {
        let c = &self.counters;
        let mut s = String::new();
        let secs = self.elapsed_secs.max(1e-9);
        if self.already_complete {
            let _ = writeln!(
                s,
                "{}: the ingest there is complete; nothing to resume. Its summary:",
                self.out.display()
            );
        }
        let _ = writeln!(
            s,
            "docview ingest -> {}{}",
            self.out.display(),
            if self.resumed && !self.already_complete {
                " (resumed)"
            } else {
                ""
            }
        );
        let _ = writeln!(
            s,
            "  pages read   {:>9}   {} of HTML in {:.1} s: {:.1} MB/s, {:.0} pages/s",
            c.pages_read,
            human_bytes(c.html_bytes),
            self.elapsed_secs,
            c.html_bytes as f64 / 1e6 / secs,
            c.pages_read as f64 / secs
        );
        let _ = write!(s, "  kept         {:>9}", c.kept);
        let mut notes = Vec::new();
        if c.kept_empty > 0 {
            notes.push(format!(
                "{} with empty topic content (topic_content_empty)",
                c.kept_empty
            ));
        }
        if c.kept_truncated > 0 {
            notes.push(format!(
                "{} cut to the page limits (truncated)",
                c.kept_truncated
            ));
        }
        if !notes.is_empty() {
            let _ = write!(s, "   {} in docviews.jsonl", notes.join(", "));
        }
        s.push('\n');
        let _ = writeln!(
            s,
            "  replicas     {:>9}   exact {}, near {}",
            c.replicas(),
            c.replicas_exact,
            c.replicas_near
        );
        let _ = writeln!(s, "  skipped      {:>9}", c.skipped_total());
        for (reason, n) in &c.skipped {
            let _ = writeln!(s, "    {n:>7}  {reason}");
        }
        if let Some(m) = self.replica_index
            && m.pages > 0
        {
            let _ = writeln!(
                s,
                "  replica index {} for {} pages ({} bytes per page, no text kept)",
                human_bytes(m.bytes as u64),
                m.pages,
                m.bytes / m.pages
            );
        }
        let _ = writeln!(
            s,
            "  statistics from {} pages, {} aggressive stop words",
            self.stats_pages, self.aggressive_stopwords
        );
        let t = &self.site_templates;
        let _ = write!(
            s,
            "  site templates for {} web sites ({} lines, {}), learnt from {} pages",
            t.sites,
            t.lines,
            human_bytes(t.bytes as u64),
            t.learnt_pages
        );
        if t.unlearnt_pages > 0 {
            let _ = write!(s, "; {} pages past the line budget", t.unlearnt_pages);
        }
        s.push('\n');
        if let Some(m) = &self.site_models {
            let _ = writeln!(
                s,
                "  site models ({}) for {} of {} web sites, learnt from {} pages: {} pages \
                 of a site with a model, {} without one (no host, too few pages on it, or a \
                 host first seen past the budget)",
                m.cleaner,
                m.hosts_with_model,
                m.hosts,
                m.pages_sampled,
                m.pages_with_model,
                m.pages_without_model
            );
        }
        let _ = writeln!(
            s,
            "\n  {:<10} {:>9} {:>13} {:>12}",
            "index", "documents", "sum of terms", "on disk"
        );
        for ix in &self.indexes {
            let _ = writeln!(
                s,
                "  {:<10} {:>9} {:>13} {:>12}",
                ix.kind.as_str(),
                ix.docs,
                ix.terms,
                human_bytes(ix.bytes)
            );
        }
        if let Some(full) = self.index(IndexKind::Fulltext) {
            for kind in [IndexKind::Abstract, IndexKind::Topic, IndexKind::Docview] {
                let Some(ix) = self.index(kind) else { continue };
                let (before, paper) = match kind {
                    IndexKind::Abstract => ("\n", " (the paper's Table 3: 35.3% and 41.4%)"),
                    _ => ("", ""),
                };
                let _ = writeln!(
                    s,
                    "{before}  {:<21}{} of terms, {} of size{paper}",
                    format!("{kind} / fulltext:"),
                    percent(ix.terms, full.terms),
                    percent(ix.bytes, full.bytes)
                );
            }
        }
        s
    }
}
